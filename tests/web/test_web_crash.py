"""Crash tests of ``threes serve`` (web-design.md, promises 1, 2, 3, 5, 9): a real server in a subprocess
is killed with SIGKILL at random moments while scripted people play Shithead (its presets) and Three
Thirteen at several tables (with bots), and started again on the same --db each time.

What a client was shown counts as acknowledged: after every restart each table resumes at or after
the last move any of its clients was shown (rejoining with the seat's secret), a game shown finished
never comes back live, every finished game is stored once (SQLite, read directly, and GET /api/games),
with the result the clients were shown and the moves they were shown, and replays to its result;
a stored game never changes nor disappears. THREES_CRASH_KILLS (default 50) kills in all.

    python -m pytest tests/web/test_web_crash.py -q -s
"""
from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import time
from typing import Any, Dict

from crash_support import (FAST_OPTIONS, STATES, Context, Server, StoreCheck, create_table, finish_clients,
                           read_db, run_cli, start_clients)

P = {"kind": "person"}


def _bot(spec: str = "greedy") -> Dict[str, Any]:
    return {"kind": "bot", "bot": spec}


#: The tables of the crash test: (label, body, rematches up to this game number). Both games, the
#: three Shithead presets and a house rule, bots at some seats, and move caps that end some games early.
TABLES = [
    ("shithead/threes", {"game": "shithead", "preset": "threes", "seats": [P, P, _bot()]}, 3),
    ("shithead/classic", {"game": "shithead", "preset": "classic", "seats": [P, P]}, 2),
    ("shithead/dutch", {"game": "shithead", "preset": "dutch", "seats": [P, _bot(), P], "max_moves": 600}, 2),
    ("shithead/threes+rule", {"game": "shithead", "preset": "threes", "rules": "pickup_then_play=true",
                              "seats": [P, P, P, _bot("random")], "max_moves": 700}, 1),
    ("shithead/classic-capped", {"game": "shithead", "preset": "classic", "seats": [P, _bot()], "max_moves": 90}, 8),
    ("three_thirteen/3", {"game": "three_thirteen", "seats": [P, P, _bot()], "max_moves": 900}, 2),
    ("three_thirteen/2", {"game": "three_thirteen", "seats": [P, _bot()], "max_moves": 700}, 3),
    ("three_thirteen/capped", {"game": "three_thirteen", "seats": [P, P], "max_moves": 80}, 8),
]
#: Tables made later, while the server runs (they may be killed dealt, before their first move).
LATER = [
    ("shithead/later", {"game": "shithead", "preset": "classic", "seats": [P, _bot()], "max_moves": 120}, 3),
    ("three_thirteen/later", {"game": "three_thirteen", "seats": [P, _bot()], "max_moves": 120}, 3),
]
MAX_TABLES = 16


def _kills() -> int:
    return int(os.environ.get("THREES_CRASH_KILLS", "50"))


async def _crash_run(tmp_path, target: int) -> Dict[str, Any]:
    ctx = Context(seed=int(os.environ.get("THREES_CRASH_SEED", "12345")))
    rng = ctx.rng
    db = str(tmp_path / "crash.sqlite3")
    srv = Server(db, *FAST_OPTIONS)
    store = StoreCheck(ctx, db)
    kills = startup_kills = restarts = 0
    started = time.monotonic()
    budget = 60 + 3.0 * target
    try:
        url = srv.start()
        for label, body, until in TABLES:
            create_table(ctx, url, body, label, until)
        epoch = 0
        while kills < target:
            assert time.monotonic() - started < budget, \
                f"{kills} kills in {budget:.0f} s: the run is too slow\n{srv.tail()}"
            epoch += 1
            tasks = start_clients(ctx, url, rng)
            if len(ctx.tracks) < MAX_TABLES and rng.random() < 0.3:  # a table dealt while others play
                label, body, until = rng.choice(LATER)
                await asyncio.sleep(rng.uniform(0, 0.3))
                t = await asyncio.to_thread(create_table, ctx, url, body, label, until)
                tasks += start_clients(ctx, url, rng, tracks=[t]) if rng.random() < 0.5 else []
            await asyncio.sleep(rng.choice((rng.uniform(0.0, 0.3), rng.uniform(0.2, 1.6))))
            ctx.killing = True
            srv.kill()
            kills += 1
            await finish_clients(tasks)
            if kills < target and rng.random() < 0.12:  # killed again while it starts (restoring, catching up)
                srv.spawn()
                await asyncio.sleep(rng.uniform(0.0, 0.5))
                srv.kill()
                kills += 1
                startup_kills += 1
            ctx.killing = False
            url = await asyncio.to_thread(srv.start)
            restarts += 1
            await asyncio.to_thread(store.check, url)
            assert len(ctx.problems) < 20, "\n".join(ctx.problems) + "\n" + srv.tail()
        # the last restart: every table is rejoined and checked, plays a little more, then a clean stop
        tasks = start_clients(ctx, url, rng)
        await asyncio.sleep(1.0)
        await asyncio.to_thread(store.check, url)
        ctx.killing = True
        status = srv.stop()
        await finish_clients(tasks)
        assert status in (0, -15), f"the server's exit status after SIGTERM: {status}\n{srv.tail()}"
        await asyncio.to_thread(store.check, None)
        unjoined = [t.tid for t in ctx.tracks.values() if t.joined_ok == 0]
        assert not unjoined, f"tables never rejoined: {unjoined}"
    except Exception as exc:
        raise AssertionError(f"{exc!r}\nproblems: {ctx.problems[:20]}\n--- server output ---\n{srv.tail(80)}") \
            from exc
    finally:
        srv.kill()
    return {"ctx": ctx, "srv": srv, "store": store, "kills": kills, "startup_kills": startup_kills,
            "restarts": restarts, "seconds": time.monotonic() - started}


def test_sigkill_at_random_moments_loses_nothing_acknowledged(tmp_path):
    target = _kills()
    out = asyncio.run(_crash_run(tmp_path, target))
    ctx: Context = out["ctx"]
    srv: Server = out["srv"]
    finished = ctx.games_finished()
    stored = len(out["store"].rows)
    figures = {"kills": out["kills"], "kills_while_starting": out["startup_kills"], "restarts": out["restarts"],
               "tables": len(ctx.tracks), "moves_acknowledged": ctx.moves_acknowledged(),
               "frames": ctx.frames, "games_finished_shown": finished, "games_stored": stored,
               "rematches_asked": ctx.rematches, "store_checks": out["store"].checks,
               "seconds": round(out["seconds"], 1)}
    print("\ncrash test:", figures)
    errors = [e for e in ctx.errors]
    assert not ctx.problems, "\n".join(ctx.problems[:40]) + "\n--- server output ---\n" + srv.tail(80)
    assert not errors, f"error frames: {[e[3] for e in errors[:10]]}\n{srv.tail(80)}"
    assert out["kills"] >= target >= 1
    assert out["restarts"] >= target - out["startup_kills"]
    assert finished.get("shithead", 0) >= 1 and finished.get("three_thirteen", 0) >= 1, finished
    assert any(g >= 2 for t in ctx.tracks.values() for g in t.results), "no rematch was played to its end"
    assert stored >= sum(finished.values())
    assert ctx.moves_acknowledged() >= 1000, figures


# --------------------------------------------------------- a quick game helper --
async def _play_until(ctx: Context, url: str, pred, seconds: float = 60.0) -> None:
    """Clients at every table until ``pred()`` (bounded)."""
    stop = asyncio.Event()
    tasks = start_clients(ctx, url, ctx.rng, stop=stop)
    deadline = time.monotonic() + seconds
    while not pred() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    stop.set()
    await finish_clients(tasks)
    assert pred(), "the games did not get there in time"


def _games_rows(path: str) -> Dict[Any, Any]:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        cur = con.execute("SELECT * FROM games ORDER BY id")
        cols = [d[0] for d in cur.description]
        return {(r[cols.index("table_id")], r[cols.index("game_number")]): r for r in cur.fetchall()}
    finally:
        con.close()


def test_a_second_server_on_the_same_db_exits_2(tmp_path):
    db = str(tmp_path / "one.sqlite3")
    srv = Server(db, *FAST_OPTIONS)
    try:
        srv.start()
        second = run_cli("--host", "127.0.0.1", "--port", "0", "--db", db, *FAST_OPTIONS, timeout=60)
        assert second.returncode == 2, (second.returncode, second.stdout, second.stderr)
        assert "in use" in second.stderr and "threes: error:" in second.stderr, second.stderr
        assert "http://" not in second.stdout, second.stdout
        assert srv.alive(), "the first server stopped"
        assert srv.stop() in (0, -15)
        # once the first is gone, the database is free again (even after a SIGKILL: an flock dies with it)
        srv.start()
        srv.kill()
        third = Server(db, *FAST_OPTIONS)
        third.start()
        third.stop()
    finally:
        srv.kill()


def test_backup_while_running_and_status_by_state(tmp_path):
    db = str(tmp_path / "live.sqlite3")
    ctx = Context(seed=5)
    srv = Server(db, *FAST_OPTIONS)
    try:
        url = srv.start()
        fin_sh = create_table(ctx, url, {"game": "shithead", "preset": "classic", "seats": [P, _bot()],
                                         "max_moves": 40}, "finished shithead", 3)
        fin_tt = create_table(ctx, url, {"game": "three_thirteen", "seats": [P, _bot()], "max_moves": 40},
                              "finished three_thirteen", 2)
        asyncio.run(_play_until(ctx, url, lambda: 3 in fin_sh.results and 2 in fin_tt.results))
        # a playing table (a move made and shown) and a waiting one (dealt, nobody moved)
        playing = create_table(ctx, url, {"game": "shithead", "preset": "threes", "seats": [P, P]}, "playing")
        waiting = create_table(ctx, url, {"game": "three_thirteen", "seats": [P, P]}, "waiting")
        asyncio.run(_play_some(ctx, url, playing, 3))
        # the online backup while the server runs
        backup = str(tmp_path / "backup.sqlite3")
        res = run_cli("--db", db, "--backup", backup, timeout=30)
        assert res.returncode == 0, (res.returncode, res.stdout, res.stderr)
        assert srv.alive(), "the server stopped during the backup"
        copied = _games_rows(backup)
        live = _games_rows(db)
        shown = {(t.tid, g) for t in ctx.tracks.values() for g in t.results}
        assert len(shown) == 5, shown
        assert shown <= set(copied), f"finished games missing from the backup: {shown - set(copied)}"
        for k, row in copied.items():
            assert live.get(k) == row, f"game {k} differs between the backup and the database"
        con = sqlite3.connect(f"file:{backup}?mode=ro", uri=True)
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        con.close()
        store = StoreCheck(ctx, db)
        store.check(url)
        assert not ctx.problems, ctx.problems
        assert srv.stop() in (0, -15)
        st = run_cli("--db", db, "--status", timeout=30)
        assert st.returncode == 0, (st.returncode, st.stdout, st.stderr)
        want = {fin_sh.tid: "finished", fin_tt.tid: "finished", playing.tid: "playing", waiting.tid: "waiting"}
        text = st.stdout + st.stderr
        for state in STATES:  # counts, where it gives them ("finished 2"), agree
            m = re.search(rf"\b{state}\s*:?\s*(\d+)\b", text)
            if m:
                assert int(m.group(1)) == list(want.values()).count(state), (state, text)
        # web-design.md 9: it prints each table's state (the table's id with its state)
        states = _status_states(text, ctx.tracks)
        assert states == want, f"--status names these tables' states: {states}, want {want}; it printed:\n{text}"
        # --status agrees with the tables' status column
        _, tables = read_db(db)
        assert tables is not None, "no table 'tables' in the database"
        col = {r.get("table_id", r.get("id")): r["status"] for r in tables}
        assert {tid: col.get(tid) for tid in want} == want, col
    finally:
        srv.kill()


async def _play_some(ctx: Context, url: str, t, moves: int) -> None:
    """The table's people play until ``moves`` moves were shown, then stop."""
    stop = asyncio.Event()
    tasks = start_clients(ctx, url, ctx.rng, stop=stop, tracks=[t],
                          act=lambda: t.max_move.get(1, 0) < moves)
    deadline = time.monotonic() + 20
    while t.max_move.get(1, 0) < moves and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.3)  # nobody acts any more; a bot seat would, but this table has none
    stop.set()
    await finish_clients(tasks)
    assert moves <= t.max_move.get(1, 0), t.max_move


def _status_states(text: str, tracks: Dict[str, Any]) -> Dict[str, str]:
    """Each table's state as ``--status`` prints it: the state word on the table's line, or the last
    heading line (one naming no table) with a state word."""
    heading = None
    out: Dict[str, str] = {}
    for line in text.splitlines():
        words = [s for s in STATES if s in line.lower()]
        tids = [tid for tid in tracks if tid in line]
        if not tids:
            if words:
                heading = words[0]
            continue
        for tid in tids:
            rest = line.replace(tid, " ").lower()
            word = next((s for s in STATES if s in rest), heading)
            out[tid] = word
    return out
