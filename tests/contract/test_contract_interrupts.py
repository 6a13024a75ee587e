"""Ctrl-C stops every long call within 0.5 s (threes._stop).

Each test runs the call in a child process: the child prints a marker just
before the call, the parent waits until the call is well under way and sends
SIGINT; the child catches KeyboardInterrupt and reports the time it caught it
(time.monotonic is CLOCK_MONOTONIC on Linux, one clock for both processes),
whether the state it passed in is unchanged, and threading.active_count().
Every call would run for many seconds (minutes for most) if it were not
stopped; the parent never waits more than a few seconds for the child, so
an ignored Ctrl-C fails the test instead of hanging the run.
"""
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

def _default_sigint():
    """Runs in the child before exec: Ctrl-C as a user's shell leaves it. A
    runner started in the background (``cmd &`` in a script, nohup) ignores
    SIGINT, its children inherit SIG_IGN, and Python then installs no
    KeyboardInterrupt handler at all."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


LIMIT = 0.5  # seconds from SIGINT to KeyboardInterrupt in the child
MARGIN = 0.25  # process scheduling on a shared machine

CHILD = """
import json, sys, threading, time
import threes
from threes import three_thirteen as tt
from threes.bots import ISMCTSBot
{setup}
before = {snapshot}
print("INSIDE", flush=True)
try:
    {call}
    print(json.dumps({{"finished": True}}), flush=True)
except KeyboardInterrupt:
    caught = time.monotonic()
    print(json.dumps({{"caught": caught, "unchanged": {snapshot} == before,
                      "threads": threading.active_count()}}), flush=True)
"""

SH_STATE = "state = threes.Game(4).new_initial_state(7)\nstate.apply_action(state.legal_actions()[0])"
STUCK_STATE = """
used = {"5c", "6c", "3c", "3d", "Kh"}
state = threes.State.from_dict({
    "rules": threes.Rules.preset("threes", decks=1, jokers=0).to_dict(), "num_players": 2, "phase": "play",
    "current_player": 0, "move_count": 0, "max_moves": 10**8, "hands": [["5c"], ["6c"]],
    "face_up": [["3c"], ["3d"]], "face_down": [[None] * 3, [None] * 3], "pile": ["Kh"], "draw_pile": [],
    "burned": [r + s for r in "23456789TJQKA" for s in "cdhs" if r + s not in used]})
"""
TT_STATE = "state = tt.Game(3).new_initial_state(7)\nstate.apply_action(state.legal_actions()[0])"

CASES = {
    "shithead_rollouts_2_threads": (SH_STATE, "threes.rollouts(state, 10**8, seed=1, threads=2)"),
    "shithead_rollouts_1_thread": (SH_STATE, "threes.rollouts(state, 10**8, seed=1, threads=1)"),
    "shithead_rollouts_fresh_deals": ("state = threes.Game(4).new_initial_state(1)",
                                      "threes.rollouts(threes.Game(4), 10**8, 'greedy', seed=1, threads=2)"),
    "shithead_rollouts_observer": (SH_STATE, "threes.rollouts(state, 10**8, seed=1, threads=2, observer=1)"),
    "shithead_ismcts": (SH_STATE, "ISMCTSBot(10**8, seed=1).step(state)"),
    # greedy play of this 2-player game runs to its 10**8 move cap: the
    # Ctrl-C lands inside one long rollout
    "shithead_ismcts_long_rollout": ("state = threes.Game(2, max_moves=10**8).new_initial_state(1)",
                                     "ISMCTSBot(10**8, rollout_policy='greedy', seed=1).step(state)"),
    # one game that can never end (RULES.md section 7) with a cap of 10**8
    # moves: the Ctrl-C lands inside a single game of the batch
    "shithead_rollouts_one_long_game": (STUCK_STATE, "threes.rollouts(state, 1, seed=1)"),
    "shithead_rollouts_long_games_2_threads": (STUCK_STATE, "threes.rollouts(state, 4, 'greedy', seed=1, threads=2)"),
    "three_thirteen_rollouts": (TT_STATE, "tt.rollouts(state, 10**8, seed=1)"),
    "three_thirteen_rollouts_fresh": (TT_STATE, "tt.rollouts(tt.Game(3), 10**8, 'greedy', seed=1)"),
    "three_thirteen_ismcts": (TT_STATE, "ISMCTSBot(10**8, seed=1).step(state)"),
    "tournament_workers_ismcts": (SH_STATE,
                                  "threes.tournament(['ismcts:1000000', 'greedy'], 10**6, seed=1, workers=2)"),
    "tournament_workers_policies": (SH_STATE,
                                    "threes.tournament(['greedy', 'random', 'heuristic'], 10**5, seed=1, "
                                    "workers=2)"),
    "tournament_one_worker": (SH_STATE, "threes.tournament(['ismcts:1000000', 'greedy'], 10**6, seed=1, workers=1)"),
    "three_thirteen_tournament_workers": (
        TT_STATE, "threes.tournament(['ismcts:1000000', 'greedy', 'random'], 10**5, seed=1, workers=2, "
                  "game=tt.Game(3))"),
}


def _interrupt(code, wait=0.6, timeout=8.0):
    """Starts `code` in a child, sends SIGINT `wait` s after its marker;
    returns (seconds from SIGINT to the child's catch, the child's report)."""
    import json

    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_default_sigint)
    try:
        line = proc.stdout.readline()
        assert line.strip() == "INSIDE", (line, proc.stderr.read() if proc.poll() is not None else "")
        time.sleep(wait)  # the call is under way (in C, or between chunks)
        assert proc.poll() is None, "the call ended before it was interrupted"
        sent = time.monotonic()
        os.kill(proc.pid, signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the call ignored Ctrl-C for {timeout} s")
        assert proc.returncode == 0, err
        report = json.loads(out.strip().splitlines()[-1])
        assert "caught" in report, report
        return report["caught"] - sent, report
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("case", sorted(CASES))
def test_ctrl_c_stops_the_call(case):
    setup, call = CASES[case]
    snapshot = "state.to_dict()"
    code = CHILD.format(setup=setup, call=call, snapshot=snapshot)
    delay, report = _interrupt(textwrap.dedent(code))
    assert delay < LIMIT + MARGIN, f"{case}: KeyboardInterrupt {delay:.3f} s after SIGINT"
    assert report["unchanged"], f"{case}: the state given to the call changed"
    assert report["threads"] == 1, f"{case}: {report['threads']} threads left behind"


@pytest.mark.parametrize("argv", [
    ["simulate", "--games", "20000000", "--threads", "2", "--json"],
    ["simulate", "--game", "three_thirteen", "--players", "3", "--games", "100000000", "--json"],
    ["tournament", "--bots", "ismcts:1000000,greedy", "--games", "1000000", "--workers", "2"],
])
def test_ctrl_c_stops_the_cli(argv):
    """The command line exits with 130 ("interrupted") within 0.5 s."""
    proc = subprocess.Popen([sys.executable, "-m", "threes", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=_default_sigint)
    try:
        time.sleep(2.0)  # start-up (imports) and into the call
        assert proc.poll() is None, proc.communicate()
        sent = time.monotonic()
        os.kill(proc.pid, signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=8.0)
        except subprocess.TimeoutExpired:
            pytest.fail("the command ignored Ctrl-C for 8 s")
        took = time.monotonic() - sent
        assert proc.returncode == 130, (proc.returncode, err)
        assert "interrupted" in err
        # the process has also exited (interpreter shut down) within this time
        assert took < LIMIT + MARGIN + 0.25, f"{took:.3f} s"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_search_in_a_worker_thread_stops_on_its_cancel_flag():
    """Outside the main thread, a search stops when its thread's cancel flag
    (threes._stop.cancel_on) is set: KeyboardInterrupt in that thread."""
    code = textwrap.dedent("""
        import threading, time, json
        import threes
        from threes import _stop
        from threes.bots import ISMCTSBot
        state = threes.Game(4).new_initial_state(3)
        flag = threading.Event()
        out = {}
        def run():
            with _stop.cancel_on(flag):
                try:
                    ISMCTSBot(10**8, seed=1).search(state)
                    out["finished"] = True
                except KeyboardInterrupt:
                    out["caught"] = time.monotonic()
        t = threading.Thread(target=run)
        t.start()
        time.sleep(0.5)
        sent = time.monotonic()
        flag.set()
        t.join(5.0)
        print(json.dumps({"alive": t.is_alive(), "delay": out.get("caught", 1e9) - sent}), flush=True)
        import os
        os._exit(0)  # do not wait for a search that ignored its flag
    """)
    import json

    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    report = json.loads(r.stdout.strip().splitlines()[-1])
    assert not report["alive"]
    assert report["delay"] < LIMIT + MARGIN
