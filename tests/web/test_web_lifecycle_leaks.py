"""Nothing any role receives over a table's whole life leaks a card, a secret or a seed.

A real ``threes serve`` subprocess (loopback) and a table of three seats (two people played by
scripted clients, a bot) live through: creation, play, a reconnection of seat 0, a restart of
the server (terminate, then a new server on the same --db), the end of game 1, a rematch (game
2), play, the end of game 2. Every role's every message is kept with the time it arrived: the
creator's POST answer, each seated person's frames, a spectator's frames, and a client that only
polls the HTTP API (GET /api/tables, /api/tables/{id}, /api/games, /api/meta). Afterwards, with
the true games replayed from their stored records:

* every state frame passes ``web_support.check_frame`` (no card hidden from its viewer, moves
  and hints only to the seat to move);
* no message but the creator's answer holds any seat's secret;
* no message received before a game was shown to be over holds that game's seed (as a JSON
  number, or its digits anywhere in the text) -- except the seed the creator chose for game 1,
  which every seat was shown, with seed_chosen true, before the first move;
* a restart gives every client back the game it saw, at a move number no lower.

Run for Shithead and Three Thirteen with random seeds and for a creator-chosen seed. A second
test shows a rematch's deal is not computable from anything published: 20 tables created with
the same chosen seed get 20 different game-2 seeds, none the old blake2b derivation
``threes.web.tables.game_seed(seed, 2)``.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
import time
from typing import Any, Dict, List, Optional, Set

import pytest
import websockets

from abuse_support import Http, Log, choose, create_body, http_once, json_numbers, recv_json, ws_connect
from web_support import check_frame, replay_states, server_process

# bots move at once, no turn timer, and the scripted people may move faster than a person would:
# a seat's address may send more than the default 100 messages a second when the bot answers at once
FAST = ("--bot-delay", "0", "--turn-timeout", "0", "--rate", "1000", "--burst", "1000", "--address-rate", "1000")
P = {"kind": "person"}
BOT = {"kind": "bot", "bot": "greedy"}
CHOSEN = 7_340_033_123_457  # a creator's seed (large, so its digits are a clear mark in any text)
MAX_MOVES = 800             # a safety cap: a game cut there is over too (the people's policy may loop)
RECONNECT_AT = 10           # seat 0 reconnects once the game has passed this move
RESTART_AT = 25             # the server restarts once the game has passed this move
SETTLE_S = 60.0             # each phase's bound
POLL_GAP = 0.05             # the HTTP-only client's pause between requests (4 endpoints in turn) ...
POLL_MAX = 6000             # ... and its most requests

CASES = [
    pytest.param("shithead", None, id="shithead-random-seed"),
    pytest.param("three_thirteen", None, id="three_thirteen-random-seed"),
    pytest.param("shithead", CHOSEN, id="shithead-chosen-seed"),
]


class Scenario:
    """The table's clients, the log of what they received and the pace of play: people move only
    after ``go`` and below ``limit`` (None: to the end)."""

    def __init__(self, people: List[int]):
        self.log = Log()
        self.people = people
        self.go = asyncio.Event()
        self.limit: Optional[int] = 0
        self.errors: List[Dict[str, Any]] = []


class Client:
    """A websocket client of one role: a seat (which plays the first legal move each turn) or a
    spectator (seat None). Keeps its last state frame and the first one of each connection."""

    def __init__(self, sc: Scenario, role: str, seat: Optional[int], table: Dict[str, Any], source: str):
        self.sc, self.role, self.seat, self.table, self.source = sc, role, seat, table, source
        self.ws: Any = None
        self.task: Optional[asyncio.Task] = None
        self.last: Optional[Dict[str, Any]] = None
        self.first: Optional[Dict[str, Any]] = None
        self.acted: Set[Any] = set()

    async def connect(self, base: str) -> None:
        self.first = None
        self.acted = set()  # a new connection may act again on a position it saw before
        self.ws = await ws_connect(base, self.source)
        join: Dict[str, Any] = {"type": "join", "table": self.table["table"]}
        if self.seat is not None:
            join.update(seat=self.seat, secret=self.table["secrets"][self.seat])
        await self.ws.send(json.dumps(join))
        self.task = asyncio.get_running_loop().create_task(self._read(self.ws))

    async def _read(self, ws: Any) -> None:
        try:
            async for raw in ws:
                msg = self.sc.log.add(self.role, "ws", raw)
                if msg.get("type") == "error":
                    self.sc.errors.append(msg)
                    if msg.get("code") == "rate_limited" and self.last is not None:
                        await asyncio.sleep(0.5)  # told to slow down: the same move again, later
                        self.acted.discard((self.last["game_number"], self.last["move_number"]))
                        await self.act()
                elif msg.get("type") == "state":
                    self.last = msg
                    if self.first is None:
                        self.first = msg
                    await self.act()
        except websockets.ConnectionClosed:
            pass

    async def act(self) -> None:
        f = self.last
        if self.seat is None or f is None or f["over"] or not f["moves"] or not self.sc.go.is_set():
            return
        if self.sc.limit is not None and f["move_number"] >= self.sc.limit:
            return
        key = (f["game_number"], f["move_number"])
        if key in self.acted:
            return
        self.acted.add(key)
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.ws.send(json.dumps({"type": "act", "action": choose(f["moves"]),
                                           "move_number": f["move_number"]}))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.task is not None:
            await asyncio.wait_for(self.task, 10)


class Poller(threading.Thread):
    """The client with no table: GET /api/tables, /api/tables/{id}, /api/games and /api/meta in
    turn, every answer logged (bounded: POLL_MAX requests). Follows the server to its new address
    after a restart."""

    def __init__(self, log: Log, base: str, table_id: str):
        super().__init__(daemon=True)
        self.log, self.base, self.table_id = log, base, table_id
        self.halt = threading.Event()
        self.count = 0
        self.bad: List[Any] = []  # answers other than 200

    def run(self) -> None:
        paths = ["/api/tables", f"/api/tables/{self.table_id}", "/api/games?limit=500", "/api/meta"]
        h, base = None, None
        while not self.halt.is_set() and self.count < POLL_MAX:
            if base != self.base:
                if h is not None:
                    h.close()
                base = self.base
                h = Http(base, "127.0.0.9", timeout=5)
            path = paths[self.count % len(paths)]
            self.count += 1
            try:
                a = h.get(path)
            except OSError:  # the server is restarting
                time.sleep(0.1)
                continue
            self.log.add("nobody", path, a.text, a.at)
            if a.status != 200:
                self.bad.append((path, a.status, a.text[:200]))
            time.sleep(POLL_GAP)
        if h is not None:
            h.close()


async def _until(pred: Any, what: str, timeout: float = SETTLE_S) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out: {what}")
        await asyncio.sleep(0.02)


async def _settle(sc: Scenario, clients: List[Client], players: List[Client], spectator: Client,
                  limit: Optional[int], game_number: int) -> None:
    """People play on until the game has passed ``limit`` and waits for a person (or is over)."""
    sc.limit = limit
    for c in players:
        await c.act()

    def settled() -> bool:
        s = spectator.last
        if s is None or s["game_number"] != game_number:
            return False
        if s["over"]:
            return all(c.last and c.last["game_number"] == game_number and c.last["over"] for c in clients)
        return limit is not None and s["move_number"] >= limit and s["to_move"] in sc.people and \
            all(c.last and (c.last["game_number"], c.last["move_number"]) == (game_number, s["move_number"])
                for c in players)

    def where() -> str:
        return "; ".join(f"{c.role}: " + (f"game {c.last['game_number']} move {c.last['move_number']} to move "
                                          f"{c.last['to_move']} over {c.last['over']} moves {len(c.last['moves'])}"
                                          if c.last else "nothing") for c in clients)

    try:
        await _until(settled, f"game {game_number} past move {limit}")
    except AssertionError as exc:
        raise AssertionError(f"{exc} ({where()}; errors {sc.errors[-3:]})") from None


async def _life(db: str, game: str, seed: Optional[int]) -> Dict[str, Any]:
    seats = [P, P, BOT]
    sc = Scenario([0, 1])
    stack = contextlib.ExitStack()
    base = await asyncio.to_thread(stack.enter_context, server_process(db, *FAST))
    poller = None
    try:
        body = create_body(game=game, seats=seats, max_moves=MAX_MOVES, **({"seed": seed} if seed is not None else {}))
        with Http(base, "127.0.0.8") as h:
            created = h.post("/api/tables", body)
        sc.log.add("creator", "POST /api/tables", created.text, created.at)
        assert created.status == 201, created.text
        table = created.json
        poller = Poller(sc.log, base, table["table"])
        poller.start()
        players = [Client(sc, f"seat {q}", q, table, f"127.0.0.{20 + q}") for q in (0, 1)]
        spectator = Client(sc, "spectator", None, table, "127.0.0.30")
        clients = players + [spectator]
        for c in clients:
            await c.connect(base)
        await _until(lambda: all(c.first for c in clients), "every client's first frame")
        firsts = {c.role: c.first for c in clients}
        sc.go.set()
        await _settle(sc, clients, players, spectator, RECONNECT_AT, 1)

        # seat 0 drops and comes back
        before = players[0].last
        await players[0].close()
        await players[0].connect(base)
        await _until(lambda: players[0].first is not None, "seat 0's frame after reconnecting")
        again = players[0].first
        assert (again["game_number"], again["move_number"]) == (1, before["move_number"]), \
            "a reconnection gives the seat the position it left"
        assert again["history"] and [e["n"] for e in again["log"]][-1] == before["move_number"] - 1
        await _settle(sc, clients, players, spectator, RESTART_AT, 1)

        # the server restarts on the same database
        seen = {c.role: (c.last["game_number"], c.last["move_number"]) for c in clients}
        await asyncio.to_thread(stack.close)
        for c in clients:
            await c.close()
        stack = contextlib.ExitStack()
        base = await asyncio.to_thread(stack.enter_context, server_process(db, *FAST))
        poller.base = base
        for c in clients:
            await c.connect(base)
        await _until(lambda: all(c.first for c in clients), "every client's frame after the restart")
        for c in clients:
            g, m = seen[c.role]
            assert c.first["game_number"] == g and c.first["move_number"] >= m, \
                f"{c.role} saw game {g} move {m} before the restart, then {c.first['game_number']} " \
                f"move {c.first['move_number']}"
        await _settle(sc, clients, players, spectator, None, 1)

        # a rematch: game 2, to its end
        with contextlib.suppress(websockets.ConnectionClosed):
            await players[0].ws.send(json.dumps({"type": "rematch", "ref": "again"}))
        await _until(lambda: all(c.last["game_number"] == 2 for c in clients), "game 2's first frame")
        await _settle(sc, clients, players, spectator, None, 2)
        await asyncio.sleep(4 * POLL_GAP * 4)  # the HTTP-only client sees the end too
        poller.halt.set()
        await asyncio.to_thread(poller.join, 10)
        with Http(base, "127.0.0.9") as h:
            ids: List[int] = []
            for _ in range(50):  # bounded (5 s): SQLite may catch up with the journal a moment after the end
                listed = h.get("/api/games?limit=500")
                sc.log.add("nobody", "/api/games?limit=500", listed.text, listed.at)
                assert listed.status == 200, f"GET /api/games: {listed.status} {listed.text[:300]}"
                ids = [g["id"] for g in listed.json["games"] if g["table_id"] == table["table"]]
                if len(ids) >= 2:
                    break
                await asyncio.sleep(0.1)
            records = {}
            for gid in ids:
                a = h.get(f"/api/games/{gid}")
                assert a.status == 200, f"GET /api/games/{gid}: {a.status} {a.text[:300]}"
                sc.log.add("nobody", f"/api/games/{gid}", a.text, a.at)
                records[a.json["game_number"]] = a.json
        for c in clients:
            await c.close()
        return {"table": table, "log": sc.log, "errors": sc.errors, "records": records, "ids": ids,
                "firsts": firsts, "polls": poller.count, "poll_bad": poller.bad}
    finally:
        if poller is not None:
            poller.halt.set()
        await asyncio.to_thread(stack.close)


def _ended(obj: Any, table_id: str) -> Set[int]:
    """The game numbers of ``table_id`` that a message shows as over (a frame or summary with
    over true or status finished, a stored game)."""
    out: Set[int] = set()
    stack = [obj]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
            if (v.get("table") == table_id or v.get("table_id") == table_id) and isinstance(v.get("game_number"), int):
                if v.get("over") is True or v.get("status") == "finished" or v.get("finished_at"):
                    out.add(v["game_number"])
    return out


@pytest.mark.parametrize("game, seed", CASES)
def test_nothing_leaks_over_a_tables_whole_life(tmp_path, game, seed):
    t0 = time.monotonic()
    life = asyncio.run(asyncio.wait_for(_life(str(tmp_path / "life.sqlite3"), game, seed), 240))
    table, log, records = life["table"], life["log"], life["records"]
    tid = table["table"]
    secrets = [s for s in table["secrets"] if s]
    assert {e.get("code") for e in life["errors"]} <= {"stale", "not_your_turn"}, life["errors"][:5]
    assert not life["poll_bad"], f"the HTTP-only client was refused: {life['poll_bad'][:3]}"
    assert sorted(records) == [1, 2] and len(life["ids"]) == 2, "each finished game is stored once"
    states = {g: replay_states(r) for g, r in records.items()}
    actions = {g: r["actions"] for g, r in records.items()}
    for g in (1, 2):
        assert states[g][-1].is_terminal() and records[g]["table_id"] == tid

    problems: List[str] = []
    # the creator's answer: the secrets, and the seed only if the creator chose it
    if table["seed"] != seed:
        problems.append(f"the creator's answer shows seed {table['seed']!r} (the creator chose {seed!r})")
    # the seeds: the chosen one for game 1, a fresh one (not derived) for game 2
    s1, s2 = records[1]["seed"], records[2]["seed"]
    if seed is not None and s1 != seed:
        problems.append(f"game 1 was dealt from {s1}, not the chosen {seed}")
    if s2 == s1:
        problems.append("game 2 has game 1's seed")
    with contextlib.suppress(ImportError, AttributeError):
        from threes.web.tables import game_seed
        if s2 == game_seed(s1, 2):
            problems.append("game 2's seed is the blake2b derivation game_seed(game 1's published seed, 2)")

    # when each game was first shown to be over, to anyone
    ended_at: Dict[int, float] = {}
    for item in log:
        for g in _ended(item.obj, tid):
            ended_at[g] = min(ended_at.get(g, item.at), item.at)
    assert set(ended_at) >= {1, 2}, ended_at

    frames = 0
    roles: Dict[str, int] = {}
    paths: Dict[str, int] = {}
    for item in log:
        roles[item.role] = roles.get(item.role, 0) + 1
        if item.role == "nobody":
            key = re.sub(r"/\d+$", "/{id}", item.what.split("?")[0]).replace(tid, "{table}")
            paths[key] = paths.get(key, 0) + 1
        where = f"{item.role} {item.what} at +{item.at - t0:.2f}s"
        if item.role != "creator" and any(s in item.text for s in secrets):
            problems.append(f"{where}: a seat's secret")
        for g, sg in ((1, s1), (2, s2)):
            if g == 1 and seed is not None:
                continue  # the creator chose it: everyone is shown it (checked below)
            if item.at < ended_at[g] and (sg in set(json_numbers(item.obj)) or
                                          re.search(rf"(?<!\d){sg}(?!\d)", item.text)):
                problems.append(f"{where}: the seed of game {g} before it ended")
        msg = item.obj
        if item.what != "ws" or not isinstance(msg, dict) or msg.get("type") != "state":
            continue
        frames += 1
        g = msg["game_number"]
        viewer = msg["viewer"]
        want = None if item.role == "spectator" else int(item.role.split()[1])
        if viewer != want:
            problems.append(f"{where}: a frame for viewer {viewer}")
        found = check_frame(msg, viewer, states[g], actions[g], secrets)
        if g == 1 and seed is not None:
            found = [p for p in found if p != "the seed of a game in progress"]
            if msg["seed"] != seed or msg.get("seed_chosen") is not True:
                problems.append(f"{where}: game 1 frame without the chosen seed: {msg['seed']!r} "
                                f"seed_chosen {msg.get('seed_chosen')!r}")
        problems += [f"{where} game {g} move {msg['move_number']}: {p}" for p in found]
    # every seat and the spectator saw the chosen seed before the first move a person made (a bot
    # may move first, at once: --bot-delay 0)
    movers = records[1].get("movers") or records[1].get("by") or []
    first_person = movers.index("person") if "person" in movers else len(movers)
    for role, first in life["firsts"].items():
        assert first["game_number"] == 1 and first["move_number"] <= first_person, \
            (role, first["move_number"], first_person)
        want = (seed, True) if seed is not None else (None, False)
        if (first["seed"], first.get("seed_chosen")) != want:
            problems.append(f"{role}'s first frame: seed {first['seed']!r} seed_chosen {first.get('seed_chosen')!r}")
    print(f"{game} seed {seed}: {len(log)} messages ({roles}), {frames} state frames checked, polls {paths}, "
          f"game 1: {len(actions[1])} moves, game 2: {len(actions[2])} moves, {time.monotonic() - t0:.1f} s")
    assert not problems, f"{len(problems)} problems: " + "\n".join(problems[:12])
    assert frames > 200 and all(roles.get(r, 0) > 20 for r in ("seat 0", "seat 1", "spectator", "nobody"))
    assert all(paths.get(p, 0) >= 5 for p in ("/api/tables", "/api/tables/{table}", "/api/games", "/api/meta")), paths


# ------------------------------------------------------- rematch seeds --
REMATCH_TABLES = 20


async def _two_short_games(base: str, k: int) -> Dict[str, Any]:
    """A table (seed CHOSEN, 2 moves a game, a person and a bot) from its own address, played to
    the end of game 1, a rematch and the end of game 2: the seeds each game's last frame shows,
    and whether game 2 showed its seed before its end."""
    source = f"127.0.1.{k + 1}"
    created = await asyncio.to_thread(http_once, base, "POST", "/api/tables", create_body(seed=CHOSEN, max_moves=2),
                                      source)
    assert created.status == 201, created.text
    t = created.json
    ws = await ws_connect(base, source)
    seeds: Dict[int, int] = {}
    early: List[Any] = []
    try:
        await ws.send(json.dumps({"type": "join", "table": t["table"], "seat": 0, "secret": t["secrets"][0]}))
        for _ in range(500):
            msg = await recv_json(ws)
            if msg["type"] == "error":
                raise AssertionError(f"table {k}: {msg}")
            if msg["type"] != "state":
                continue
            g = msg["game_number"]
            if msg["over"]:
                seeds[g] = msg["seed"]
                if g == 2:
                    break
                await ws.send(json.dumps({"type": "rematch"}))
                continue
            if g == 2 and msg["seed"] is not None:
                early.append(msg["seed"])
            if msg["moves"]:
                await ws.send(json.dumps({"type": "act", "action": msg["moves"][0]["id"],
                                          "move_number": msg["move_number"]}))
    finally:
        await ws.close()
    assert set(seeds) == {1, 2}, f"table {k}: the two games did not end"
    return {"table": t["table"], "seeds": seeds, "early": early}


def test_a_rematch_deal_cannot_be_computed_from_what_is_published(tmp_path):
    db = str(tmp_path / "rematch.sqlite3")
    with server_process(db, *FAST) as base:
        async def all_tables() -> List[Dict[str, Any]]:
            return await asyncio.gather(*(_two_short_games(base, k) for k in range(REMATCH_TABLES)))

        out = asyncio.run(asyncio.wait_for(all_tables(), 120))
        with Http(base, "127.0.0.9") as h:
            for _ in range(50):  # bounded (5 s): SQLite may catch up with the journal a moment after the end
                listed = h.get("/api/games?limit=500")
                assert listed.status == 200, f"GET /api/games: {listed.status} {listed.text[:300]}"
                stored = listed.json["games"]
                if len(stored) >= 2 * REMATCH_TABLES:
                    break
                time.sleep(0.1)
    firsts = [o["seeds"][1] for o in out]
    seconds = [o["seeds"][2] for o in out]
    print(f"{REMATCH_TABLES} tables with seed {CHOSEN}: game-2 seeds {seconds[:4]}...")
    assert firsts == [CHOSEN] * REMATCH_TABLES
    assert not any(o["early"] for o in out), "game 2 showed a seed before its end"
    assert len(set(seconds)) == REMATCH_TABLES, "game 2's seed follows from game 1's (published) seed"
    assert CHOSEN not in seconds
    with contextlib.suppress(ImportError, AttributeError):
        from threes.web.tables import game_seed
        assert game_seed(CHOSEN, 2) not in seconds, "game 2's seed is the blake2b derivation of the chosen one"
    by = {(g["table_id"], g["game_number"]): g["seed"] for g in stored}
    for o in out:
        assert by.get((o["table"], 1)) == CHOSEN and by.get((o["table"], 2)) == o["seeds"][2]
