"""The load test of issue 18, on 127.0.0.1 only and bounded in time: 200 websocket clients on 50
tables (4 people each) play full Shithead games through the protocol against a real server
(``python -m threes.web.cli`` in a subprocess) for THREES_LOAD_SECONDS (default 60) seconds.

Each client is one person: it joins its seat, and on its turn waits a think time drawn
uniformly from THREES_LOAD_THINK_MS (default ``100-300`` ms: a fast player; ``0`` for
none), sends its move, and times how long the next state takes to come back. After a game
the first seat asks for the next one. At the end: no client got an error or lost its
connection, every game a client saw finish is stored once, its stored actions are the moves
the clients saw, and it replays to its recorded result.

Speed is a ratio measured in the same run (the project's rule: machines differ and are shared):
after the players, the same server is driven flat out for THREES_LOAD_SATURATE_SECONDS (default
30) by 200 more clients on 50 more tables with no think time. Its throughput then is the
server's capacity on this machine now; the players' throughput is what 200 people at that
pace ask of it. The capacity is the best of the flat-out run's windows of WINDOW seconds (as the
benchmarks take a build's best round: the rate when the host's other work leaves the server its
cores; on this shared 2-core host the same commit measured a 15-second mean headroom of 0.99 and
1.31 two minutes apart, and two fresh-clone CI runs of the faster server a best 5-second window of
373 and 302 actions/s with 15 seconds flat out: the flat-out run is 30 seconds, six windows, the first
with the new tables' joins). It must be at least HEADROOM (1.25) times the demand: the server keeps
up with 200 fast players with a quarter to spare. (It used to require a p99 under 50 ms,
an absolute time: on this 2-core machine the same commit measured a p99 of 38 to 124 ms within
an hour, as other work came and went.) The latencies (action -> next state) are reported
with the throughputs. The figures are printed and written to build/web-load.json.

    THREES_LOAD_SECONDS=60 python -m pytest tests/web/test_web_load.py -q -s
"""
from __future__ import annotations

import asyncio
import json
import os
import pathlib
import random
import sqlite3
import time
from typing import Any, Dict, List

import pytest
import websockets

import threes
from threes.web.storage import replay_result

from web_support import greedy_choice, post, server_process

TABLES = 50
SEATS = 4
HEADROOM = 1.25  #: the capacity (no think time) over the players' demand, measured in one run
WINDOW = 5.0  #: seconds per window of the flat-out run; the capacity is its best window


def _think_range() -> tuple:
    raw = os.environ.get("THREES_LOAD_THINK_MS", "100-300").strip()
    lo, _, hi = raw.partition("-")
    return float(lo) / 1000.0, float(hi or lo) / 1000.0


def _quantile(values: List[float], p: float) -> float:
    """The p-quantile of values (seconds) in ms (0 for none)."""
    v = sorted(values)
    return v[min(len(v) - 1, int(p * len(v)))] * 1000.0 if v else 0.0


class Stats:
    def __init__(self) -> None:
        self.latencies: List[float] = []
        self.errors: List[Any] = []
        self.actions = 0
        self.sent_at: List[float] = []  # time.monotonic() of each action sent
        self.finished: Dict[tuple, List[int]] = {}   # (table, game number) -> the actions seen
        self.frames = 0
        self.bytes = 0
        self.started = 0.0  # time.monotonic() when the clients start

    def best_window_rate(self, seconds: float, window: float) -> float:
        """Actions per second in the best of the run's whole windows of `window` seconds (the
        whole run when it is shorter than one window)."""
        n = max(1, int(seconds // window))
        width = seconds / n
        counts = [0] * n
        for t in self.sent_at:
            k = int((t - self.started) // width)
            if 0 <= k < n:
                counts[k] += 1
        return max(counts) / width


async def _client(url: str, table: Dict[str, Any], seat: int, deadline: float, stats: Stats,
                  rng: random.Random, think: tuple) -> None:
    think_lo, think_hi = think
    game = threes.Game(SEATS, "threes")
    async with websockets.connect(url.replace("http://", "ws://") + "/ws", max_size=2**23, compression=None,
                                  open_timeout=30) as ws:
        await ws.send(json.dumps({"type": "join", "table": table["table"], "seat": seat,
                                  "secret": table["secrets"][seat]}))
        mirror = None
        game_number = 0
        sent = None
        while True:
            try:  # after the deadline a game in progress stops: nobody moves any more
                raw = await asyncio.wait_for(ws.recv(), max(0.5, deadline + 1.0 - time.monotonic()))
            except asyncio.TimeoutError:
                return
            now = time.perf_counter()
            msg = json.loads(raw)
            stats.frames += 1
            stats.bytes += len(raw)
            if msg["type"] == "error":
                stats.errors.append((table["table"], seat, msg))
                continue
            if msg["type"] != "state":
                continue
            if sent is not None and (msg["game_number"], msg["move_number"]) > sent[0]:
                stats.latencies.append(now - sent[1])
                sent = None
            if msg["game_number"] != game_number:
                game_number = msg["game_number"]
                # game 1 was dealt from the chosen (public) seed; a rematch's seed is secret until it
                # ends, so its moves are taken from the frames' lists instead of a mirror
                mirror = game.new_initial_state(seed=table["seed"]) if game_number == 1 else None
            for entry in msg["log"]:
                if mirror is not None and entry["n"] == mirror.move_number():
                    mirror.apply_action(mirror.string_to_action(entry["move"]))
            if mirror is not None and mirror.move_number() != msg["move_number"]:
                stats.errors.append((table["table"], seat, "the frames skipped a move"))
                return
            if msg["over"]:
                if seat == 0 and mirror is not None:
                    stats.finished[(table["table"], game_number)] = mirror.history()
                if time.monotonic() >= deadline:
                    return
                if seat == 0:
                    await ws.send(json.dumps({"type": "rematch"}))
                continue
            if msg["moves"] and time.monotonic() < deadline:
                action = (greedy_choice(mirror, seed=rng.getrandbits(32)) if mirror is not None
                          else rng.choice(msg["moves"])["id"])
                if think_hi > 0:
                    await asyncio.sleep(rng.uniform(think_lo, think_hi))
                sent = ((msg["game_number"], msg["move_number"]), time.perf_counter())
                await ws.send(json.dumps({"type": "act", "action": action, "move_number": msg["move_number"]}))
                stats.actions += 1
                stats.sent_at.append(time.monotonic())


async def _run(url: str, seconds: float, stats: Stats, think: tuple, first_seed: int = 1000) -> List[Dict[str, Any]]:
    tables = []
    for i in range(TABLES):
        tables.append(await asyncio.to_thread(post, url + "/api/tables", {
            "game": "shithead", "preset": "threes", "seed": first_seed + i,
            "seats": [{"kind": "person", "name": f"load{i}-{q}"} for q in range(SEATS)]}))
    deadline = time.monotonic() + seconds
    stats.started = deadline - seconds
    rng = random.Random(first_seed)
    tasks = [_client(url, t, q, deadline, stats, random.Random(rng.getrandbits(64)), think)
             for t in tables for q in range(SEATS)]
    await asyncio.wait_for(asyncio.gather(*tasks), seconds + 120)
    return tables


@pytest.mark.exclusive  # its p99 is a property of the machine, not of the tests beside it (conftest.py)
def test_200_clients_on_50_tables(tmp_path, request):
    seconds = float(os.environ.get("THREES_LOAD_SECONDS", "60"))
    db = str(tmp_path / "load.sqlite3")
    stats = Stats()
    started = time.monotonic()
    # bots move at once, no turn timer (every seat is a person who answers), a rate limit above
    # what a fast client sends (a client acts on every 4th move or so)
    with server_process(db, "--bot-delay", "0", "--turn-timeout", "0", "--rate", "200", "--burst", "200",
                        "--max-tables", str(2 * TABLES + 10),
                        "--address-creates", "1000", "--address-tables", "1000", "--address-joins", "100000",
                        "--address-connections", "1000", "--address-rate", "100000", "--address-requests", "100000") as url:
        tables = asyncio.run(_run(url, seconds, stats, _think_range()))
        elapsed = time.monotonic() - started
        # the same server flat out: its capacity on this machine, now
        saturate = float(os.environ.get("THREES_LOAD_SATURATE_SECONDS", "30"))
        flat_out = Stats()
        tables += asyncio.run(_run(url, saturate, flat_out, (0.0, 0.0), first_seed=5000))
    lat = sorted(stats.latencies)
    assert lat, "no action was timed"

    def q(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000.0

    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT id, table_id, game_number, game, options, max_moves, seed, num_players, seats, "
                           "actions, movers, result FROM games").fetchall()
    keys = ("id", "table_id", "game_number", "game", "options", "max_moves", "seed", "num_players", "seats",
            "actions", "movers", "result")
    stored = {}
    for row in rows:
        rec = dict(zip(keys, row))
        for k in ("options", "seats", "actions", "movers", "result"):
            rec[k] = json.loads(rec[k])
        stored[(rec["table_id"], rec["game_number"])] = rec
    replayed = sum(replay_result(rec) == rec["result"] for rec in stored.values())
    figures = {
        "clients": TABLES * SEATS, "tables": TABLES, "seconds": seconds, "wall_seconds": round(elapsed, 1),
        "think_ms": os.environ.get("THREES_LOAD_THINK_MS", "100-300"),
        "games_finished": len(stats.finished), "games_finished_flat_out": len(flat_out.finished),
        "games_stored": len(stored), "games_replayed": replayed,
        "actions": stats.actions, "timed_actions": len(lat), "frames_received": stats.frames,
        "megabytes_received": round(stats.bytes / 1e6, 1), "errors": len(stats.errors),
        "latency_ms": {"p50": round(q(0.50), 2), "p90": round(q(0.90), 2), "p99": round(q(0.99), 2),
                       "max": round(lat[-1] * 1000.0, 2)},
        "actions_per_second": round(stats.actions / seconds, 1),
        "capacity": {"seconds": saturate, "actions_per_second": round(flat_out.best_window_rate(saturate, WINDOW), 1),
                     "mean_actions_per_second": round(flat_out.actions / saturate, 1), "window_seconds": WINDOW,
                     "errors": len(flat_out.errors),
                     "latency_ms": {"p50": round(_quantile(flat_out.latencies, 0.50), 2),
                                    "p99": round(_quantile(flat_out.latencies, 0.99), 2)}},
    }
    figures["headroom"] = round(figures["capacity"]["actions_per_second"] / max(figures["actions_per_second"], 1e-9), 2)
    out = pathlib.Path(request.config.rootpath) / "build" / "web-load.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(figures, indent=2) + "\n")
    print("\nweb load test:", json.dumps(figures))
    assert not stats.errors, stats.errors[:5]
    # a game takes about 290 moves, some 30-60 s at these think times: a short local run may end none
    assert stats.finished or seconds < 40, "no game finished"
    for key, actions in {**stats.finished, **flat_out.finished}.items():  # the flat-out run's games too
        assert key in stored, f"game {key} finished but was not stored"
        assert stored[key]["actions"] == actions, f"game {key}: the stored actions are not the moves played"
    assert replayed == len(stored), "a stored game does not replay to its recorded result"
    assert all(stored[k]["table_id"] in {t["table"] for t in tables} for k in stored)
    assert not flat_out.errors, flat_out.errors[:5]
    assert figures["headroom"] >= HEADROOM, \
        f"the server's capacity is {figures['headroom']}x what 200 players ask of it, under {HEADROOM}x: {figures}"
