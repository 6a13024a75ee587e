"""Running batches on a Ray cluster (``backend="ray"``; the ``[ray]`` extra).

``threes.rollouts(..., backend="ray")``, ``threes.tournament(...,
backend="ray")``, ``threes.vector.Samplers(..., backend="ray")`` and the
CLI's ``--ray [ADDRESS]`` send their work here. The work is cut into chunks,
each a pure function of its seeds: games ``[lo, hi)`` of a batch (game i
from ``(seed, i)``) or deals ``[lo, hi)`` of a tournament (deal d from
``(seed, d)``). Chunks run as Ray tasks, one CPU each, and their results are
put back in order, so the answer equals the local one exactly for any
number of nodes, workers and chunk sizes.

Chunk size: Ray's cost per task, measured on the developers' 2-core machine
(``benchmarks/test_bench_ray.py``), is about 2 ms for a task's round trip
(0.5 ms per task when many are in flight). A chunk is sized to take at least
``CHUNK_SECONDS`` (0.25 s, over 100 times that cost, so scheduling stays
under 1% of the run): the driver first plays a few games (or the first deal)
itself, as part of the result, times them, and cuts the rest into chunks of
that duration, their number a multiple of the cluster's CPUs so that the
last wave keeps every CPU busy. ``chunk=`` overrides it.

Faults: a chunk's task is retried up to ``MAX_RETRIES`` times when its worker
process or node dies (Ray's ``max_retries``); a chunk's result is taken once,
by its index, so no game is lost or counted twice. Ctrl-C (KeyboardInterrupt
in the driver) cancels every chunk still queued or running
(``ray.cancel(force=True)``) before the exception leaves the call. An
address that cannot be reached raises ConnectionError naming it.

Connecting: ``address=None`` uses the Ray runtime this process has already
started (``ray.init``), else what ``ray.init()`` finds (``RAY_ADDRESS``, or
the cluster last started on this machine with ``ray start``) or, failing
both, a new local runtime. Every node needs the same version of
threes-core installed: the chunks import it there.
"""
from __future__ import annotations

import dataclasses
import logging
import math
import socket
import time
from typing import Any, Callable, List, Optional, Sequence, Tuple

import numpy as np

from threes.args import MAX_GAMES, int_arg
from threes.errors import needs_extra

__all__ = ["connect", "cluster_cpus", "run_chunks", "rollouts", "CHUNK_SECONDS", "MAX_RETRIES"]

#: The time a chunk is sized to take (over 100x Ray's per-task cost).
CHUNK_SECONDS = 0.25
#: Retries of a chunk whose worker died.
MAX_RETRIES = 5
#: The driver's pilot: plays (and keeps) games until this much time passed.
PILOT_SECONDS = 0.05
#: At most this many chunks per call (bounds the driver's bookkeeping).
MAX_CHUNKS = 20_000
#: Seconds to wait for a TCP connection to the cluster's address.
CONNECT_TIMEOUT = 5.0
#: How often the driver wakes while waiting for chunks (Ctrl-C is seen then).
_WAIT_SECONDS = 0.2


def _ray():
    try:
        import ray
    except ImportError:
        raise ImportError(needs_extra('backend="ray"', "ray") + " (Ray)") from None
    return ray


def _host_port(address: str) -> Optional[Tuple[str, int]]:
    """(host, port) of an address such as "10.0.0.1:6379" or
    "ray://host:10001"; None for "auto", "local" and the like."""
    a = address.strip()
    if "://" in a:
        a = a.split("://", 1)[1]
    host, sep, port = a.rpartition(":")
    if not sep or not port.isdigit():
        return None
    return host.strip("[]") or "127.0.0.1", int(port)


def connect(address: Optional[str] = None):
    """Connects this process to Ray (see the module docstring) and returns
    the ``ray`` module. ConnectionError, naming the address, when nothing
    answers there."""
    ray = _ray()
    if ray.is_initialized():
        return ray
    if address is not None:
        if not isinstance(address, str) or not address.strip():
            raise ValueError(f"address must be a Ray address such as '127.0.0.1:6379', not {address!r}")
        hp = _host_port(address)
        if hp is not None:
            try:
                socket.create_connection(hp, timeout=CONNECT_TIMEOUT).close()
            except OSError as exc:
                raise ConnectionError(f"cannot reach the Ray cluster at {address}: {exc}") from None
    try:
        ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as exc:
        where = address if address is not None else "the address ray.init() found"
        hint = ""
        if "auth" in str(exc).lower():
            hint = (" (a cluster with token authentication: set RAY_AUTH_MODE=token here, with the cluster's token "
                    "in ~/.ray/auth_token or RAY_AUTH_TOKEN)")
        raise ConnectionError(f"cannot connect to the Ray cluster at {where}: {exc}{hint}") from None
    return ray


def cluster_cpus(ray) -> int:
    """The CPUs of the cluster (at least 1)."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _chunk(fn: Callable, args: tuple):
    """One chunk, in a Ray worker (its process title is ``ray::_chunk``)."""
    return fn(*args)


_REMOTE: dict = {}


def _remote(ray):
    r = _REMOTE.get("chunk")
    if r is None:
        r = _REMOTE["chunk"] = ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=False)(_chunk)
    return r


def run_chunks(fn: Callable, arg_list: Sequence[tuple], address: Optional[str] = None,
               progress: Optional[Callable[[int], None]] = None, weights: Optional[Sequence[int]] = None,
               done: int = 0) -> List[Any]:
    """``[fn(*args) for args in arg_list]``, each call a Ray task (retried if
    its worker dies), in the order of ``arg_list`` whatever order they end
    in. ``progress(done + sum of the weights of the chunks finished)`` is
    called as chunks finish. KeyboardInterrupt (or any error) cancels the
    chunks not finished before it propagates."""
    ray = connect(address)
    remote = _remote(ray)
    refs = [remote.remote(fn, tuple(a)) for a in arg_list]
    index = {r: i for i, r in enumerate(refs)}
    out: List[Any] = [None] * len(refs)
    pending = list(refs)
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1, timeout=_WAIT_SECONDS)
            for r in ready:
                i = index[r]
                out[i] = ray.get(r)
                if progress is not None:
                    done += 1 if weights is None else weights[i]
                    progress(done)
    except BaseException:
        for r in pending:
            try:
                ray.cancel(r, force=True)
            except Exception:  # already finished or gone: nothing to cancel
                pass
        raise
    return out


def wait_all(ray, refs: Sequence[Any]) -> List[Any]:
    """``ray.get(refs)``, waking every _WAIT_SECONDS so that Ctrl-C is seen;
    KeyboardInterrupt cancels what is still running."""
    pending = list(refs)
    try:
        while pending:
            _, pending = ray.wait(pending, num_returns=len(pending), timeout=_WAIT_SECONDS)
    except BaseException:
        for r in pending:
            try:
                ray.cancel(r, force=True)
            except Exception:  # an actor task cannot be force-cancelled: cancel() asks it to stop
                try:
                    ray.cancel(r)
                except Exception:
                    pass
        raise
    return ray.get(list(refs))


def plan(total: int, seconds_per_item: float, cpus: int, chunk: Optional[int] = None) -> List[Tuple[int, int]]:
    """Cuts items [0, total) into chunks [lo, hi): ``chunk`` items each, or
    chunks of about CHUNK_SECONDS (at the measured ``seconds_per_item``),
    their number rounded up to a multiple of ``cpus`` and at most
    MAX_CHUNKS."""
    if total <= 0:
        return []
    if chunk is None:
        count = math.ceil(total * max(seconds_per_item, 1e-9) / CHUNK_SECONDS)
        count = min(total, max(1, math.ceil(count / cpus) * cpus), MAX_CHUNKS)
        chunk = math.ceil(total / count)
    else:
        chunk = max(int(chunk), math.ceil(total / MAX_CHUNKS))
    return [(lo, min(total, lo + chunk)) for lo in range(0, total, chunk)]


def _check_chunk(chunk: Any) -> Optional[int]:
    if chunk is None:
        return None
    return int_arg(chunk, "chunk", 1, 2**63 - 1)


def concat(parts: Sequence[Any], **changes: Any) -> Any:
    """One result from the results of consecutive chunks of a batch (a
    RolloutResult of any game): their arrays joined in order, the other
    fields those of the first, then ``changes``."""
    first = parts[0]
    joined = {f.name: np.concatenate([getattr(p, f.name) for p in parts])
              for f in dataclasses.fields(first) if isinstance(getattr(first, f.name), np.ndarray)}
    return dataclasses.replace(first, **joined, **changes)


def _rollout_chunk(source: Any, n: int, policy: Any, seed: int, observer: Optional[int], first: int):
    """Games [first, first + n) of a batch on one thread (a chunk)."""
    from threes.batches import rollouts as local_rollouts

    return local_rollouts(source, n, policy, seed, threads=1, observer=observer, first=first)


def rollouts(game_or_state: Any, n: int, policy: Any = "random", seed: Optional[int] = None, *,
             observer: Optional[int] = None, progress: Optional[Callable[[int], None]] = None,
             chunk: Optional[int] = None, first: int = 0, address: Optional[str] = None):
    """``threes.rollouts(..., backend="ray")``: the same result as the local
    call (arrays equal element for element), played in chunks on the
    cluster; ``threads`` in the result is the cluster's CPU count and
    ``seconds`` the wall time."""
    t0 = time.perf_counter()
    chunk = _check_chunk(chunk)
    n = int_arg(n, "n", 0, MAX_GAMES)
    # the arguments checked (and the seed drawn once) by the local call of no game
    empty = _rollout_chunk(game_or_state, 0, policy, seed, observer, first)
    first = int(first)
    if first > 2**63 - 1 - n:
        raise ValueError(f"first + n must be below 2**63, not {first} + {n}")
    if n == 0:
        return empty
    seed = empty.seed
    ray = connect(address)
    cpus = cluster_cpus(ray)
    parts = []
    done = 0
    if chunk is None:  # the pilot: the first games here, kept, timed
        k = 16
        while done < n:
            k = min(k, n - done)
            s0 = time.perf_counter()
            parts.append(_rollout_chunk(game_or_state, k, policy, seed, observer, first + done))
            done += k
            if progress is not None:
                progress(done)
            if time.perf_counter() - t0 >= PILOT_SECONDS:
                break
            k *= 2
        per_game = (time.perf_counter() - s0) / k
    else:
        per_game = 0.0
    spans = plan(n - done, per_game, cpus, chunk)
    args = [(game_or_state, hi - lo, policy, seed, observer, first + done + lo) for lo, hi in spans]
    parts += run_chunks(_rollout_chunk, args, address, progress, [hi - lo for lo, hi in spans], done)
    return concat(parts, threads=cpus, seconds=time.perf_counter() - t0)
