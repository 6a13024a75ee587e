"""No frame shows a seat a card the rules hide from it.

Many games of both games are played on a real server (uvicorn on 127.0.0.1, a free port) by
scripted people over real websockets (``websockets``), bots, a stand-in bot for a silent
person, a spectator and a seat that reconnects in mid-game. Every frame every client
received is then checked against the true hidden cards, replayed by the engine from the
stored game (web_support.check_frame): the SVG may draw only cards its viewer sees after the
move (as a multiset: one copy of a card in view never excuses another), the events and their
narration only cards the viewer saw before or after the move or that the move showed
everyone, legal moves and hints go to the seat to move only, and no frame holds a secret or
the seed of a game in progress. The oracle itself is checked: a hidden card put into a frame
is found.
"""
from __future__ import annotations

import asyncio
import copy
import json
import time
from typing import Any, Dict, List, Optional

import pytest
import websockets

import threes
from threes import registry
from threes.web.tables import TableSpec

from web_support import (check_frame, get, greedy_choice, mirror_apply, post, replay_states, revealed_by,
                         server_thread, visible)

P = {"kind": "person"}


def B(spec: str) -> Dict[str, Any]:
    return {"kind": "bot", "bot": spec}


# (game, preset, seats, the people's ways: "greedy" plays, "silent" never does (the stand-in
# bot plays for it), seeds)
GAMES = [
    ("shithead", "threes", [P, P, B("greedy"), P], ["greedy", "silent", None, "greedy"], [1, 2, 3], None),
    ("shithead", "classic", [P, B("random"), P], ["greedy", None, "silent"], [4, 5], None),
    ("shithead", "dutch", [P, P], ["greedy", "greedy"], [6, 8], None),
    ("shithead", "threes", [P, B("random"), P], ["greedy", None, "greedy"], [9], 90),  # cut at the move cap
    ("three_thirteen", None, [P, B("greedy"), P], ["greedy", None, "silent"], [8, 9], None),
    ("three_thirteen", None, [P, P], ["greedy", "greedy"], [10], None),
]


def _engine_game(game: str, preset: Optional[str], n: int, max_moves: Optional[int]) -> Any:
    spec = TableSpec.create(game, preset, None, [P] * n, 0, max_moves)
    return spec.build_game()


async def _client(base: str, table: Dict[str, Any], seat: Optional[int], way: str, engine: Any, seed: int,
                  out: List, errors: List, start_after: int = 0) -> None:
    ws_url = base.replace("http://", "ws://") + "/ws"
    if start_after:
        deadline = time.monotonic() + 120
        while True:
            summary = await asyncio.to_thread(get, f"{base}/api/tables/{table['table']}")
            if summary["move_number"] >= start_after or summary["over"] or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.05)
    async with websockets.connect(ws_url, max_size=2**23) as ws:
        join: Dict[str, Any] = {"type": "join", "table": table["table"]}
        if seat is not None:
            join.update(seat=seat, secret=table["secrets"][seat])
        await ws.send(json.dumps(join))
        mirror = engine.new_initial_state(seed=seed)
        async for raw in ws:
            msg = json.loads(raw)
            out.append((seat, msg))
            if msg["type"] == "error":
                errors.append(msg)
                continue
            if msg["type"] != "state":
                continue
            if msg["history"] and start_after:
                mirror = engine.new_initial_state(seed=seed)
                for entry in msg["log"]:
                    assert entry["n"] == mirror.move_number()
                    mirror.apply_action(mirror.string_to_action(entry["move"]))
            else:
                mirror_apply(mirror, msg)
            if msg["over"]:
                return
            if way == "greedy" and msg["moves"]:
                await ws.send(json.dumps({"type": "act", "action": greedy_choice(mirror),
                                          "move_number": msg["move_number"]}))


async def _play(base: str, game: str, preset: Optional[str], seats: List, ways: List, seed: int,
                max_moves: Optional[int]) -> Dict[str, Any]:
    body: Dict[str, Any] = {"game": game, "seats": seats, "seed": seed, "max_moves": max_moves}
    if preset:
        body["preset"] = preset
    table = post(base + "/api/tables", body)
    engine = _engine_game(game, preset, len(seats), max_moves)
    out: List = []
    errors: List = []
    tasks = [_client(base, table, q, ways[q], engine, seed, out, errors) for q in range(len(seats)) if ways[q]]
    tasks.append(_client(base, table, None, "watch", engine, seed, out, errors))  # a spectator
    first = next(q for q in range(len(seats)) if ways[q])
    tasks.append(_client(base, table, first, "watch", engine, seed, out, errors, start_after=25))  # reconnects
    await asyncio.wait_for(asyncio.gather(*tasks), 240)
    return {"table": table, "frames": out, "errors": errors}


def _hidden_card(state: Any, viewer: Optional[int]) -> Optional[str]:
    """A card text no copy of which the viewer can see (to plant in a frame)."""
    seen = visible(state, viewer)
    n = state.num_players()
    pools = [c for q in range(n) if q != viewer for c in state.hand(q)]
    if registry.game_of(state).name == "shithead":
        pools += [c for q in range(n) for c in state.face_down(q) if c is not None] + list(state.draw_pile())
    for c in pools:
        if not seen.get(str(c)):
            return str(c)
    return None


def test_no_frame_shows_a_seat_a_hidden_card(tmp_path):
    db = str(tmp_path / "leaks.sqlite3")
    checked = 0
    planted = 0
    hidden_seen = 0
    with server_thread(db, bot_delay=0.0, turn_timeout=0.3, rate=1000.0, burst=1000.0) as base:
        for game, preset, seats, ways, seeds, max_moves in GAMES:
            for seed in seeds:
                played = asyncio.run(_play(base, game, preset, seats, ways, seed, max_moves))
                table = played["table"]
                assert {e["code"] for e in played["errors"]} <= {"stale", "not_your_turn"}, played["errors"]
                games = [g for g in get(base + "/api/games?limit=500")["games"] if g["table_id"] == table["table"]]
                assert len(games) == 1, f"{game} seed {seed}: the finished game is stored once"
                record = get(f"{base}/api/games/{games[0]['id']}")
                states = replay_states(record)
                assert states[-1].is_terminal() and states[-1].is_truncated() == (max_moves is not None)
                secrets = table["secrets"]
                viewers = set()
                for viewer, msg in played["frames"]:
                    text = json.dumps(msg)
                    assert not any(s and s in text for s in secrets), "a secret in a message"
                    if msg["type"] != "state":
                        continue
                    viewers.add(viewer)
                    assert msg["viewer"] == viewer
                    # the creator chose this seed: every seat is told so, and is shown it, before play
                    assert msg["seed_chosen"] is True and msg["seed"] == seed, (viewer, msg.get("seed"))
                    problems = check_frame(msg, viewer, states, record["actions"], secrets)
                    assert not problems, f"{game} seed {seed} viewer {viewer}: {problems[:5]}"
                    checked += 1
                    hidden_seen += _hidden_card(states[msg["move_number"]], viewer) is not None
                assert None in viewers and {q for q, w in enumerate(ways) if w} <= viewers
                assert "standin" in record["movers"] or "silent" not in ways
                # the oracle finds a planted card: in the picture, in an event, in the narration
                for viewer, msg in played["frames"][::97]:
                    if msg["type"] != "state" or not msg["log"]:
                        continue
                    m = msg["move_number"]
                    card = _hidden_card(states[m], viewer)
                    if card is None or visible(states[m - 1], viewer).get(card) or \
                            revealed_by(states[m - 1], states[m], record["actions"][m - 1]).get(card):
                        continue
                    bad = copy.deepcopy(msg)
                    bad["svg"] = bad["svg"].replace("</svg>", f'<g class="card" data-card="{card}"></g></svg>')
                    assert check_frame(bad, viewer, states, record["actions"], [])
                    bad = copy.deepcopy(msg)
                    bad["log"][-1]["events"].append({"kind": "play", "cards": [card], "melds": []})
                    assert check_frame(bad, viewer, states, record["actions"], [])
                    bad = copy.deepcopy(msg)
                    face = ("10" if card[0] == "T" else card[0]) + {"c": "\u2663", "d": "\u2666", "h": "\u2665",
                                                                    "s": "\u2660"}.get(card[1], "")
                    if card[0] != "X":
                        bad["log"][-1]["text"].append(f"somebody holds {face}")
                        assert check_frame(bad, viewer, states, record["actions"], [])
                    planted += 1
    assert checked > 3000 and planted >= 10 and hidden_seen > checked // 2, (checked, planted, hidden_seen)
