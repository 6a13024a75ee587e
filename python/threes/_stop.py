"""Stopping long calls early: Ctrl-C, and a cancel flag per thread.

Every call of the library that can run long (C rollout batches, ISMCTS
searches, tournaments) gives control back to Python often enough to stop
within a fraction of a second:

* In the main thread, Ctrl-C (SIGINT) runs Python's signal handler, which
  raises KeyboardInterrupt out of the call (the C work is cut short; the
  state given to the call is not changed and no native thread is left
  running).
* In any thread, a cancel flag set with ``cancel_on(event)`` (an object with
  ``is_set()``, e.g. ``threading.Event``) makes the call raise
  KeyboardInterrupt once the flag is set. ``threes.tournament`` uses it to
  stop its worker threads when the main thread is interrupted.

The C layer polls: a rollout batch between chunks of games (each some 50 ms
of work) and, through a C stop hook asked on the calling thread every 20 ms
(other threads read a flag it sets), every TH_STOP_MOVES moves inside a long
game; an ISMCTS search every 20 ms (checked between iterations and every
TH_STOP_MOVES moves inside a long rollout). Polling never changes a result.
"""
from threes._engine import cancel_on, check, token  # compiled (the extensions poll token() from there)

__all__ = ["token", "cancel_on", "check"]
