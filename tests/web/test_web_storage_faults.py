"""Storage faults under ``threes serve`` (web-design.md, promises 1 and 4), with a real server in a
subprocess and scripted people playing over websockets on 127.0.0.1:

* another process holds SQLite's write lock (``BEGIN IMMEDIATE``) for 10 s while people play: moves
  keep being acknowledged during the lock, the time from an act to the next state frame stays within
  twice what it was before the lock (medians, measured in the same run), and nothing acknowledged is
  lost: finished games reach SQLite once the lock is gone, and after a SIGKILL and a restart every
  table resumes at or after its last acknowledged move;
* the disk fills up (a small tmpfs holding the --db, filled by a filler file; without root, a
  file-size limit on the server process instead): the clients are told ``{"type": "storage", "ok":
  false}``, an act is refused with ``storage`` or not acknowledged; once there is space again
  ``{"type": "storage", "ok": true}`` comes and play goes on; after a SIGKILL and a restart every
  acknowledged move is there.

    python -m pytest tests/web/test_web_storage_faults.py -q -s
"""
from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import resource
import statistics
import subprocess
import sys
import time
from typing import Any, Dict, List

import pytest

from crash_support import (FAST_OPTIONS, Context, Server, StoreCheck, create_table, finish_clients,
                           start_clients)

P = {"kind": "person"}
BOT = {"kind": "bot", "bot": "greedy"}
MANY = 10_000  # rematch forever (within the test's time)

#: The tables of both tests: both games, people and bots, move caps so some games end (and are
#: stored) within seconds.
TABLES = [
    ("shithead/threes", {"game": "shithead", "preset": "threes", "seats": [P, P, BOT]}, MANY),
    ("shithead/classic", {"game": "shithead", "preset": "classic", "seats": [P, P]}, MANY),
    ("shithead/dutch-capped", {"game": "shithead", "preset": "dutch", "seats": [P, BOT], "max_moves": 60}, MANY),
    ("three_thirteen/3", {"game": "three_thirteen", "seats": [P, P, BOT], "max_moves": 900}, MANY),
    ("three_thirteen/capped", {"game": "three_thirteen", "seats": [P, BOT], "max_moves": 50}, MANY),
    ("shithead/classic-capped", {"game": "shithead", "preset": "classic", "seats": [P, BOT], "max_moves": 50}, MANY),
]

LOCKER = r"""
import sqlite3, sys, time
con = sqlite3.connect(sys.argv[1], timeout=30, isolation_level=None)
con.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
con.execute("COMMIT")
print("released", flush=True)
con.close()
"""


def _acked_between(ctx: Context, t0: float, t1: float) -> int:
    return sum(n for (t, n) in ctx.ack_log if t0 <= t < t1)


def _latencies(ctx: Context, t0: float, t1: float) -> List[float]:
    return [lat for (sent, lat) in ctx.latencies if t0 <= sent < t1]


async def _restart_and_check(ctx: Context, srv: Server, store: StoreCheck, rng: Any, **start: Any) -> str:
    """SIGKILL, restart on the same --db, every table rejoined (its first frame checked against what
    was acknowledged), a second of play, the store checked."""
    ctx.killing = True
    srv.kill()
    ctx.killing = False
    url = await asyncio.to_thread(srv.start, **start)
    await asyncio.to_thread(store.check, url)
    stop = asyncio.Event()
    tasks = start_clients(ctx, url, rng, stop=stop)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not all(
            t.joined_ok >= 2 for t in ctx.tracks.values()):
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)
    stop.set()
    await finish_clients(tasks)
    rejoined = [t for t in ctx.tracks.values() if t.joined_ok < 2]
    assert not rejoined, f"tables not rejoined after the restart: {[t.label for t in rejoined]}\n{srv.tail()}"
    await asyncio.to_thread(store.check, url)
    return url


# ------------------------------------------------------------ a held write lock --
async def _lock_run(tmp_path) -> Dict[str, Any]:
    ctx = Context(seed=77)
    rng = ctx.rng
    db = str(tmp_path / "locked.sqlite3")
    srv = Server(db, *FAST_OPTIONS)
    store = StoreCheck(ctx, db)
    locker = None
    try:
        url = srv.start()
        for label, body, until in TABLES:
            create_table(ctx, url, body, label, until)
        stop = asyncio.Event()
        # a person thinks 10..30 ms: the server is busy but not saturated, so the latency is its own
        tasks = start_clients(ctx, url, rng, think=(0.01, 0.03), stop=stop)
        await asyncio.sleep(1.0)                               # everyone joined and plays
        before = (time.monotonic(), time.monotonic() + 5.0)
        await asyncio.sleep(5.0)
        locker = subprocess.Popen([sys.executable, "-c", LOCKER, db, "10"], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        # the locker waits up to 30 s for the lock (its busy timeout), then fails and says why
        line = await asyncio.wait_for(asyncio.to_thread(locker.stdout.readline), 45)
        assert line.strip() == "locked", \
            f"another process could not take SQLite's write lock within 30 s: {locker.stderr.read()[-500:]}"
        lock0 = time.monotonic()
        finished_before_lock = {(t.tid, g) for t in ctx.tracks.values() for g in t.results}
        line = await asyncio.wait_for(asyncio.to_thread(locker.stdout.readline), 30)
        lock1 = time.monotonic()
        assert line.strip() == "released", (line, locker.stderr.read())
        assert await asyncio.to_thread(locker.wait, 10) == 0
        assert lock1 - lock0 >= 9.5
        finished_during = {(t.tid, g) for t in ctx.tracks.values() for g in t.results} - finished_before_lock
        await asyncio.sleep(3.0)                               # after the lock: play on
        stop.set()
        await finish_clients(tasks)
        problems_so_far = list(ctx.problems)
        # SQLite catches up once the lock is gone: every game shown finished is there
        await asyncio.to_thread(store.check, url, 20.0)
        url = await _restart_and_check(ctx, srv, store, rng)
        srv.stop()
        return {"ctx": ctx, "srv": srv, "before": before, "lock": (lock0, lock1),
                "finished_during": finished_during, "problems_before_restart": problems_so_far}
    except Exception as exc:
        raise AssertionError(f"{exc!r}\nproblems: {ctx.problems[:20]}\n--- server output ---\n{srv.tail(80)}") \
            from exc
    finally:
        if locker is not None and locker.poll() is None:
            locker.kill()
            locker.wait(5)
        srv.kill()


@pytest.mark.exclusive  # it compares latencies: the machine must not be shared with other tests
def test_a_held_sqlite_write_lock_does_not_stop_play(tmp_path):
    out = _lock_run_sync(tmp_path)
    ctx: Context = out["ctx"]
    b0, b1 = out["before"]
    l0, l1 = out["lock"]
    lat_before = _latencies(ctx, b0, b1)
    lat_during = _latencies(ctx, l0, l1 - 0.5)     # acts answered within the lock
    acked_before = _acked_between(ctx, b0, b1)
    acked_during = _acked_between(ctx, l0, l1)
    slices = [_acked_between(ctx, l0 + k, l0 + k + 2.0) for k in range(0, 10, 2)]
    med_before = statistics.median(lat_before) * 1000 if lat_before else float("nan")
    med_during = statistics.median(lat_during) * 1000 if lat_during else float("nan")
    figures = {"moves_acked_before_5s": acked_before, "moves_acked_during_lock_10s": acked_during,
               "moves_acked_per_2s_of_lock": slices,
               "median_ms_before": round(med_before, 2), "median_ms_during": round(med_during, 2),
               "p90_ms_before": round(sorted(lat_before)[int(0.9 * len(lat_before))] * 1000, 2) if lat_before else None,
               "p90_ms_during": round(sorted(lat_during)[int(0.9 * len(lat_during))] * 1000, 2) if lat_during else None,
               "acts_timed_before": len(lat_before), "acts_timed_during": len(lat_during),
               "games_finished_during_lock": len(out["finished_during"]),
               "games_finished": ctx.games_finished(), "moves_acknowledged": ctx.moves_acknowledged()}
    print("\nheld write lock:", figures)
    srv: Server = out["srv"]
    assert not ctx.problems, "\n".join(ctx.problems[:40]) + "\n--- server output ---\n" + srv.tail(80)
    assert not ctx.errors, [e[3] for e in ctx.errors[:10]]
    assert lat_before and lat_during, figures
    assert acked_during > 0 and all(s > 0 for s in slices), f"moves stopped during the lock: {figures}"
    assert med_during <= 2 * med_before, f"the lock slowed the tables more than 2x: {figures}"
    assert acked_during >= 0.5 * acked_before, f"far fewer moves during the lock: {figures}"
    assert out["finished_during"], f"no game finished during the lock (the copy into SQLite is not tested): {figures}"


def _lock_run_sync(tmp_path) -> Dict[str, Any]:
    return asyncio.run(_lock_run(tmp_path))


# ------------------------------------------------------------------ a full disk --
def _mode() -> str:
    """``tmpfs`` (root: a real full filesystem) or ``rlimit`` (a file-size limit on the server); the
    environment variable THREES_FAULTS_MODE=rlimit forces the second (to try it as root)."""
    forced = os.environ.get("THREES_FAULTS_MODE")
    if forced in ("tmpfs", "rlimit"):
        return forced
    return "tmpfs" if os.geteuid() == 0 else "rlimit"


def _fill(path: str) -> int:
    """Writes ``path`` until the filesystem refuses (ENOSPC), in smaller and smaller pieces; its size."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    size = 0
    try:
        for chunk in (1 << 20, 1 << 16, 4096, 512, 1):
            block = b"\0" * chunk
            for _ in range(100_000):
                try:
                    n = os.write(fd, block)
                except OSError as exc:
                    assert exc.errno in (errno.ENOSPC, errno.EDQUOT), exc
                    break
                size += n
                if n < chunk:
                    break
    finally:
        with contextlib.suppress(OSError):
            os.close(fd)
    return size


def _unlimited_file_size_hard() -> None:
    """The server's preexec_fn (rlimit mode): no limit yet (soft and hard unlimited: the test lowers
    the soft limit later with prlimit, and raises it again, as a filler file would come and go)."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))


async def _wait_for(pred, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if pred():
            return True
        await asyncio.sleep(0.05)
    return pred()


async def _full_disk_run(tmp_path, mode: str) -> Dict[str, Any]:
    ctx = Context(seed=99)
    rng = ctx.rng
    fs = tmp_path / "fs"
    fs.mkdir(exist_ok=True)
    db = str(fs / "games.sqlite3")
    srv = Server(db, *FAST_OPTIONS)
    store = StoreCheck(ctx, db)
    filler = str(fs / "filler")
    start = {"preexec_fn": _unlimited_file_size_hard} if mode == "rlimit" else {}
    figures: Dict[str, Any] = {"mode": mode}
    try:
        url = srv.start(**start)
        for label, body, until in TABLES:
            create_table(ctx, url, body, label, until)
        stop = asyncio.Event()
        tasks = start_clients(ctx, url, rng, think=(0.005, 0.02), stop=stop)
        await asyncio.sleep(2.0)
        acked_before = ctx.moves_acknowledged()
        assert acked_before > 0, "no move was acknowledged before the fault"
        # the fault
        t_fault = time.monotonic()
        if mode == "tmpfs":
            figures["filler_bytes"] = await asyncio.to_thread(_fill, filler)
        else:
            resource.prlimit(srv.proc.pid, resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))
        tids = set(ctx.tracks)

        def told(ok: bool, since: float) -> set:
            return {tid for (t, tid, _, k) in ctx.storage if k is ok and t >= since}

        got = await _wait_for(lambda: told(False, t_fault) >= tids or not srv.alive(), 20)
        assert srv.alive(), f"the server died of the fault (status {srv.proc.returncode})"
        assert got, (f"tables not told storage ok=false within 20 s: "
                     f"{[ctx.tracks[t].label for t in tids - told(False, t_fault)]}")
        t_told = max(t for (t, _, _, k) in ctx.storage if k is False)
        figures["seconds_to_tell"] = round(t_told - t_fault, 2)
        # play on against the full disk: acts are refused (storage) or wait
        acked_at_told = ctx.moves_acknowledged()
        await asyncio.sleep(3.0)
        acked_while_full = ctx.moves_acknowledged() - acked_at_told
        figures["moves_acked_while_full"] = acked_while_full
        figures["storage_refusals"] = sum(1 for e in ctx.errors if e[3].get("code") == "storage")
        # space again
        t_space = time.monotonic()
        if mode == "tmpfs":
            os.unlink(filler)
        else:
            resource.prlimit(srv.proc.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        told_false = {tid for (t, tid, _, k) in ctx.storage if k is False}
        got = await _wait_for(lambda: told(True, t_space) >= told_false, 30)
        assert got, (f"tables not told storage ok=true within 30 s of space again: "
                     f"{[ctx.tracks[t].label for t in told_false - told(True, t_space)]}")
        figures["seconds_to_recover"] = round(max(t for (t, _, _, k) in ctx.storage if k is True) - t_space, 2)
        marks = {t.tid: sum(t.max_move.values()) + 1000 * len(t.max_move) for t in ctx.tracks.values()}
        got = await _wait_for(lambda: all(sum(t.max_move.values()) + 1000 * len(t.max_move) > marks[t.tid]
                                          for t in ctx.tracks.values()), 15)
        stuck = [t.label for t in ctx.tracks.values()
                 if sum(t.max_move.values()) + 1000 * len(t.max_move) <= marks[t.tid]]
        assert got, f"play did not resume at {stuck}"
        await asyncio.sleep(1.0)
        stop.set()
        await finish_clients(tasks)
        figures["moves_acknowledged"] = ctx.moves_acknowledged()
        figures["games_finished"] = ctx.games_finished()
        await asyncio.to_thread(store.check, url, 20.0)
        await _restart_and_check(ctx, srv, store, rng, **start)
        srv.stop()
        return {"ctx": ctx, "srv": srv, "figures": figures}
    except Exception as exc:
        raise AssertionError(f"{exc!r}\nfigures: {figures}\nproblems: {ctx.problems[:20]}\n"
                             f"--- server output ---\n{srv.tail(80)}") from exc
    finally:
        srv.kill()
        with contextlib.suppress(OSError):
            os.unlink(filler)


def test_a_full_disk_holds_the_tables_until_there_is_space(tmp_path):
    mode = _mode()
    if mode == "tmpfs":
        fs = tmp_path / "fs"
        fs.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m,mode=0700", "tmpfs", str(fs)], check=True,
                       capture_output=True, timeout=30)
        try:
            out = _full_disk_sync(tmp_path, mode)
        finally:
            r = subprocess.run(["umount", str(fs)], capture_output=True, timeout=30)
            if r.returncode != 0:
                subprocess.run(["umount", "-l", str(fs)], capture_output=True, timeout=30)
    else:
        out = _full_disk_sync(tmp_path, mode)
    ctx: Context = out["ctx"]
    print("\nfull disk:", out["figures"])
    assert not ctx.problems, "\n".join(ctx.problems[:40]) + "\n--- server output ---\n" + out["srv"].tail(80)
    other = [e[3] for e in ctx.errors if e[3].get("code") != "storage"]
    assert not other, f"errors other than storage: {other[:10]}"


def _full_disk_sync(tmp_path, mode: str) -> Dict[str, Any]:
    return asyncio.run(_full_disk_run(tmp_path, mode))
