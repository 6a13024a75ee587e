"""The web table's server through Starlette's TestClient (HTTP and websocket, the real app and a
real SQLite file): tables, seats and secrets, refused messages that change nothing, the rate
limit, reconnecting, the turn timer, storage and replay, and the serve command."""
from __future__ import annotations

import json
import os
import pathlib
import re
import sqlite3
import subprocess
import sys
import time

import pytest

import threes
from threes.web.app import STATIC as _STATIC
from threes.web import storage as storage_module
from threes.web.storage import replay_result
from threes.web.tables import Table

from conftest import create_table, recv, recv_until, send
from web_support import greedy_choice, mirror_apply

STATIC = pathlib.Path(_STATIC)


def join(client, table, seat=None, secret=None):
    ws = client.websocket_connect("/ws")
    ws.__enter__()
    msg = {"type": "join", "table": table["table"]}
    if seat is not None:
        msg.update(seat=seat, secret=secret if secret is not None else table["secrets"][seat])
    send(ws, msg)
    welcome = recv(ws)
    assert welcome["type"] == "welcome", welcome
    state = recv(ws)
    assert state["type"] == "state" and state["history"], state
    return ws, state


def last_state(ws, seen):
    return recv_until(ws, lambda m: m["type"] == "state", seen=seen)


def error_reply(ws):
    return recv_until(ws, lambda m: m["type"] in ("error", "pong"))


def table_summary(client, table):
    return client.get(f"/api/tables/{table['table']}").json()


# ------------------------------------------------------------------ tables --
def test_create_table_gives_each_person_a_secret_once(make_client):
    c = make_client()
    t = create_table(c, seats=[{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"},
                               {"kind": "person"}], seed=42, preset="classic", rules="pickup_then_play=true")
    assert t["seed"] == 42 and t["game"] == "shithead"
    assert t["options"] == {"preset": "classic", "pickup_then_play": True}
    assert t["secrets"][1] is None
    for s in (t["secrets"][0], t["secrets"][2]):
        assert len(s) >= 43 and re.fullmatch(r"[A-Za-z0-9_-]+", s)  # token_urlsafe(32): 256 bits
    assert t["secrets"][0] != t["secrets"][2]
    assert [s["name"] for s in t["seats"]] == ["Ann", "greedy", "person"]
    # every view names a seat as threes play does: "seat 1 (greedy)"
    assert [s["label"] for s in table_summary(c, t)["seats"]] == ["seat 0 (Ann)", "seat 1 (greedy)", "seat 2 (person)"]
    public = json.dumps([table_summary(c, t), c.get("/api/tables").json()])
    for s in (t["secrets"][0], t["secrets"][2]):
        assert s not in public
    # a seed the creator chose is public from the start: every seat is told the deal may be known
    assert table_summary(c, t)["seed"] == 42 and table_summary(c, t)["seed_chosen"] is True
    tt = create_table(c, game="3-13", seats=[{"kind": "person"}, {"kind": "bot", "bot": "random"}],
                      rules={"ace": "either", "decks": "2"})
    assert tt["game"] == "three_thirteen" and tt["options"] == {"ace": "either", "decks": 2}
    # a seed nobody chose is told to nobody, the creator included, while the game is on
    assert tt["seed"] is None and tt["seed_chosen"] is False
    assert table_summary(c, tt)["seed"] is None


@pytest.mark.parametrize("body, code", [
    ({"game": "chess", "seats": [{"kind": "person"}] * 2}, "bad_game"),
    ({"preset": "nope", "seats": [{"kind": "person"}] * 2}, "bad_rules"),
    ({"rules": "no_such_rule=1", "seats": [{"kind": "person"}] * 2}, "bad_rules"),
    ({"rules": "decks=many", "seats": [{"kind": "person"}] * 2}, "bad_rules"),
    ({"rules": {"wild": "Z"}, "seats": [{"kind": "person"}] * 2}, "bad_rules"),
    ({"game": "three_thirteen", "preset": "threes", "seats": [{"kind": "person"}] * 2}, "bad_rules"),
    ({"game": "three_thirteen", "rules": "ace=high", "seats": [{"kind": "person"}] * 2}, "bad_rules"),
    ({"game": "three_thirteen", "rules": {"jokers": 2**70}, "seats": [{"kind": "person"}] * 2}, "bad_rules"),
    ({"game": "three_thirteen", "rules": "decks=" + "9" * 400, "seats": [{"kind": "person"}] * 2}, "bad_rules"),
    ({"game": "three_thirteen", "rules": "decks=\u00b2", "seats": [{"kind": "person"}] * 2}, "bad_rules"),
    ({"seats": [{"kind": "person"}]}, "bad_seats"),
    ({"seats": [{"kind": "person"}] * 9}, "bad_seats"),
    ({"seats": [{"kind": "bot", "bot": "greedy"}] * 2}, "bad_seats"),
    ({"seats": [{"kind": "person"}, {"kind": "bot", "bot": "clever"}]}, "bad_seats"),
    ({"seats": [{"kind": "person"}, {"kind": "bot", "bot": "ismcts:999999"}]}, "bad_seats"),
    ({"game": "three_thirteen", "seats": [{"kind": "person"}, {"kind": "bot", "bot": "heuristic"}]}, "bad_seats"),
    ({"seats": [{"kind": "person", "name": "<script>"}, {"kind": "person"}]}, "bad_seats"),
    ({"seats": [{"kind": "person", "bot": "greedy"}, {"kind": "person"}]}, "bad_seats"),
    ({"seats": [{"kind": "alien"}, {"kind": "person"}]}, "bad_seats"),
    ({"seats": [{"kind": "person"}] * 2, "seed": -1}, "bad_seed"),
    ({"seats": [{"kind": "person"}] * 2, "seed": 2**60}, "bad_seed"),
    ({"seats": [{"kind": "person"}] * 2, "seed": "7"}, "bad_seed"),
    ({"seats": [{"kind": "person"}] * 2, "max_moves": 0}, "bad_rules"),
    ({"seats": [{"kind": "person"}] * 2, "owner": "me"}, "bad_message"),
    ({"preset": "dutch", "seats": [{"kind": "person"}] * 6}, "bad_rules"),
])
def test_create_table_refuses_bad_requests(make_client, body, code):
    c = make_client()
    r = c.post("/api/tables", json=body)
    assert r.status_code == 400, r.text
    assert r.json()["error"] == code
    assert c.get("/api/tables").json()["tables"] == []


def test_create_table_refuses_malformed_and_oversized_bodies(make_client):
    c = make_client()
    r = c.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "bad_json"
    r = c.post("/api/tables", content=b"[1, 2]", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "bad_message"
    big = json.dumps({"seats": [{"kind": "person"}] * 2, "rules": "x" * 20000})
    r = c.post("/api/tables", content=big.encode(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "too_large"
    assert c.get("/api/tables").json()["tables"] == []


def test_the_page_is_served_and_loads_nothing_from_elsewhere(make_client):
    c = make_client()
    for path in ("/", "/t/abcdefgh", "/replay/1"):
        r = c.get(path)
        assert r.status_code == 200 and "<main id=\"app\"" in r.text
        assert "default-src 'self'" in r.headers["content-security-policy"]
    for name in ("index.html", "app.js", "style.css"):
        text = (STATIC / name).read_text()
        assert not re.search(r"https?://|//cdn|@import|src=\"//", text.replace("http://www.w3.org", "")), name
        assert c.get(f"/static/{name}").status_code == 200
    meta = c.get("/api/meta").json()
    from threes import registry

    assert [g["name"] for g in meta["games"]] == list(registry.names())  # every game, in the registry's order
    assert [g["name"] for g in meta["games"]][:2] == ["shithead", "three_thirteen"]
    assert "greedy" in meta["games"][0]["bots"] and set(meta["games"][0]["presets"]) == {"threes", "classic", "dutch"}


# --------------------------------------------------------------- playing --
def test_join_act_and_every_seat_is_told(make_client):
    c = make_client()
    t = create_table(c, seed=7)
    ws0, s0 = join(c, t, 0)
    ws1, s1 = join(c, t, 1)
    assert s0["viewer"] == 0 and s0["move_number"] == 0
    mover = s0["to_move"]
    me, other = (ws0, ws1) if mover == 0 else (ws1, ws0)
    frame = s0 if mover == 0 else s1
    assert frame["moves"] and not (s1 if mover == 0 else s0)["moves"]  # moves go to the seat to move only
    move = frame["moves"][0]
    send(me, {"type": "act", "action": move["text"], "move_number": 0, "ref": "m1"})
    seen = []
    mine = recv_until(me, lambda m: m["type"] == "state", seen=seen)
    theirs = recv_until(other, lambda m: m["type"] == "state")
    for f in (mine, theirs):
        assert f["move_number"] == 1 and not f["history"]
        assert [e["n"] for e in f["log"]] == [0] and f["log"][0]["move"] == move["text"]
        assert f["log"][0]["text"] and all(isinstance(x, str) and x for x in f["log"][0]["text"])
        assert f["log"][0]["events"] and f["log"][0]["events"][0]["kind"] == "swap"
    assert "you" in mine["log"][0]["text"][0].split()
    assert "you" not in theirs["log"][0]["text"][0].split()
    assert mine["svg"] != theirs["svg"]  # each seat its own picture
    for ws in (ws0, ws1):
        ws.__exit__(None, None, None)


def test_wrong_secret_spectators_and_joining_rules(make_client):
    c = make_client()
    t = create_table(c, seed=3)
    with c.websocket_connect("/ws") as ws:
        send(ws, {"type": "act", "action": 0, "move_number": 0})
        assert error_reply(ws)["code"] == "not_joined"
        send(ws, {"type": "join", "table": t["table"], "seat": 0, "secret": t["secrets"][1]})
        assert error_reply(ws)["code"] == "bad_secret"
        send(ws, {"type": "join", "table": t["table"], "seat": 0, "secret": "A" * 43})
        assert error_reply(ws)["code"] == "bad_secret"
        send(ws, {"type": "join", "table": t["table"], "seat": 5, "secret": t["secrets"][0]})
        assert error_reply(ws)["code"] == "bad_secret"
        send(ws, {"type": "join", "table": "NoSuchTable", "seat": 0, "secret": t["secrets"][0]})
        assert error_reply(ws)["code"] == "no_table"
        send(ws, {"type": "join", "table": t["table"]})  # a spectator
        assert recv(ws)["role"] == "spectator"
        spect = recv(ws)
        assert spect["viewer"] is None and spect["moves"] == [] and "public view" in spect["svg"]
        assert 'class="seat observer' not in spect["svg"] and "observer" not in spect["svg"]
        send(ws, {"type": "act", "action": 0, "move_number": 0})
        assert error_reply(ws)["code"] == "spectator"
        send(ws, {"type": "join", "table": t["table"], "seat": 0, "secret": t["secrets"][0]})
        assert error_reply(ws)["code"] == "already_joined"
        send(ws, {"type": "rematch"})
        assert error_reply(ws)["code"] == "spectator"
    assert table_summary(c, t)["move_number"] == 0


def test_no_acting_out_of_turn_twice_or_illegally(make_client):
    c = make_client()
    t = create_table(c, seed=11)
    ws0, s0 = join(c, t, 0)
    ws1, s1 = join(c, t, 1)
    mover = s0["to_move"]
    me, other, frame = (ws0, ws1, s0) if mover == 0 else (ws1, ws0, s1)
    first = frame["moves"][0]
    send(other, {"type": "act", "action": first["id"], "move_number": 0, "ref": 5})
    err = error_reply(other)
    assert err["type"] == "error" and err["code"] == "not_your_turn" and err["ref"] == 5
    send(me, {"type": "act", "action": first["id"], "move_number": 3})
    assert error_reply(me)["code"] == "stale"
    send(me, {"type": "act", "action": "Kx9", "move_number": 0})
    assert error_reply(me)["code"] == "illegal"
    send(me, {"type": "act", "action": 9999, "move_number": 0})
    assert error_reply(me)["code"] == "illegal"
    assert table_summary(c, t)["move_number"] == 0
    send(me, {"type": "act", "action": first["id"], "move_number": 0})
    send(me, {"type": "act", "action": first["id"], "move_number": 0})  # a double click
    seen = []  # the refusal of the second may come before the first's state: a state frame is sent once durable
    for _ in range(2):
        recv_until(me, lambda m: m["type"] in ("error", "state") and m not in seen[:-1], seen=seen)
    assert [m["code"] for m in seen if m["type"] == "error"] in (["stale"], ["not_your_turn"])
    assert [m["move_number"] for m in seen if m["type"] == "state"] == [1]
    assert table_summary(c, t)["move_number"] == 1
    for ws in (ws0, ws1):
        ws.__exit__(None, None, None)


@pytest.mark.parametrize("raw, code", [
    ("{not json", "bad_json"),
    ("[1, 2, 3]", "bad_message"),
    ("\"act\"", "bad_message"),
    (json.dumps({"type": "dance"}), "unknown_type"),
    (json.dumps({"type": 7}), "bad_message"),
    (json.dumps({"act": 1}), "bad_message"),
    (json.dumps({"type": "act", "action": 0}), "bad_message"),
    (json.dumps({"type": "act", "action": [1], "move_number": 0}), "bad_message"),
    (json.dumps({"type": "act", "action": True, "move_number": 0}), "bad_message"),
    (json.dumps({"type": "act", "action": 0, "move_number": "0"}), "bad_message"),
    (json.dumps({"type": "act", "action": "<img src=x>", "move_number": 0}), "bad_message"),
    (json.dumps({"type": "act", "action": 0, "move_number": 0, "seat": 1}), "bad_message"),
    (json.dumps({"type": "ping", "ref": {"a": 1}}), "bad_message"),
    (json.dumps({"type": "join", "table": "x"}), "bad_message"),
    (json.dumps({"type": "join", "table": "abcdefgh", "seat": True, "secret": "A" * 43}), "bad_message"),
    (json.dumps({"type": "join", "table": "abcdefgh", "seat": 0}), "bad_message"),
    (json.dumps({"type": "ping", "pad": "x" * 5000}), "too_large"),
    ("[" * 3000 + "]" * 3000, "too_large"),
    ("[" * 2000 + "]" * 2000, "bad_json"),
])
def test_bad_messages_get_an_error_and_change_nothing(make_client, raw, code):
    c = make_client()
    t = create_table(c, seed=5)
    ws, s = join(c, t, 0)
    svg = s["svg"]
    send(ws, raw)
    err = error_reply(ws)
    assert err["type"] == "error" and err["code"] == code, err
    send(ws, {"type": "ping", "ref": "still-here"})
    assert error_reply(ws) == {"type": "pong", "ref": "still-here"}
    assert table_summary(c, t)["move_number"] == 0
    ws.__exit__(None, None, None)
    ws2, s2 = join(c, t, 0)
    assert s2["svg"] == svg and s2["move_number"] == 0
    ws2.__exit__(None, None, None)


def test_binary_frames_are_refused(make_client):
    c = make_client()
    t = create_table(c, seed=5)
    ws, _ = join(c, t, 0)
    ws.send_bytes(b'{"type": "ping"}')
    assert error_reply(ws)["code"] == "bad_message"
    ws.__exit__(None, None, None)


def test_rate_limit_per_connection(make_client):
    c = make_client(rate=2.0, burst=5.0)
    t = create_table(c, seed=5)
    ws, _ = join(c, t, 0)  # the join took one token
    for i in range(12):
        send(ws, {"type": "ping", "ref": i})
    replies = [error_reply(ws) for _ in range(12)]
    assert [r["type"] for r in replies[:4]] == ["pong"] * 4
    assert {r["code"] for r in replies[4:] if r["type"] == "error"} == {"rate_limited"}
    assert sum(r["type"] == "error" for r in replies) >= 7
    time.sleep(1.1)  # refilled at 2 per second
    send(ws, {"type": "ping", "ref": "later"})
    assert error_reply(ws)["type"] == "pong"
    # another connection has its own bucket
    ws2, _ = join(c, t, 1)
    send(ws2, {"type": "ping"})
    assert error_reply(ws2)["type"] == "pong"
    for w in (ws, ws2):
        w.__exit__(None, None, None)


def test_reconnecting_restores_the_seats_view(make_client):
    c = make_client()
    t = create_table(c, seats=[{"kind": "person"}, {"kind": "bot", "bot": "greedy"}], seed=21)
    ws, frame = join(c, t, 0)
    mirror = threes.Game(2).new_initial_state(seed=21)
    seen = []
    while frame["move_number"] < 12:
        mirror_apply(mirror, frame)
        if frame["moves"]:
            send(ws, {"type": "act", "action": greedy_choice(mirror), "move_number": frame["move_number"]})
        frame = last_state(ws, seen)
    # the last frame the seat was sent before it dropped
    while frame["moves"] == [] and not frame["over"]:
        mirror_apply(mirror, frame)
        frame = last_state(ws, seen)
    ws.__exit__(None, None, None)
    assert table_summary(c, t)["seats"][0]["connected"] is False
    ws2, again = join(c, t, 0)
    assert again["move_number"] == frame["move_number"] and again["svg"] == frame["svg"]
    assert again["moves"] == frame["moves"] and again["hints"] == frame["hints"]
    assert [e["n"] for e in again["log"]] == list(range(frame["move_number"]))  # the whole story again
    assert table_summary(c, t)["seats"][0]["connected"] is True
    send(ws2, {"type": "act", "action": again["moves"][0]["id"], "move_number": again["move_number"]})
    nxt = last_state(ws2, [])
    assert nxt["move_number"] == again["move_number"] + 1 and nxt["log"][0]["by"] == "person"
    ws2.__exit__(None, None, None)


def test_turn_timer_gives_a_silent_seat_to_a_bot_and_back(make_client):
    c = make_client(turn_timeout=0.3, bot_delay=0.05)
    t = create_table(c, seats=[{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}], seed=8)
    ws, frame = join(c, t, 0)
    assert frame["to_move"] == 0 and frame["moves"]
    seen = []
    start = time.monotonic()
    # Ann says nothing: after 0.3 s her seat is away and the stand-in bot moves for her
    recv_until(ws, lambda m: m["type"] == "seats" and m["seats"][0]["away"], seen=seen)
    assert time.monotonic() - start >= 0.25
    standin = recv_until(ws, lambda m: m["type"] == "state" and any(e["by"] == "standin" for e in m["log"]),
                         seen=seen)
    assert standin["log"][0]["seat"] == 0
    send(ws, {"type": "back"})
    recv_until(ws, lambda m: m["type"] == "seats" and not m["seats"][0]["away"], seen=seen)
    frame = recv_until(ws, lambda m: m["type"] == "state" and (m["moves"] or m["over"]), seen=seen)
    if not frame["over"]:
        send(ws, {"type": "act", "action": frame["moves"][0]["id"], "move_number": frame["move_number"]})
        done = recv_until(ws, lambda m: m["type"] == "state" and m["move_number"] > frame["move_number"], seen=seen)
        assert done["log"][0]["by"] == "person"
        # silent again, then a reconnection gives the seat back too
        recv_until(ws, lambda m: m["type"] == "seats" and m["seats"][0]["away"] or m.get("over"), seen=seen)
        ws.__exit__(None, None, None)
        ws2, again = join(c, t, 0)
        assert again["seats"][0]["away"] is False
        ws2.__exit__(None, None, None)
    else:
        ws.__exit__(None, None, None)


def _play_out(c, t, seat_secrets, game_factory, seed):
    """Plays a table to its end: the people move greedily through the protocol."""
    conns = {q: join(c, t, q) for q in seat_secrets}
    mirrors = {q: game_factory().new_initial_state(seed=seed) for q in conns}
    frames = {q: f for q, (ws, f) in conns.items()}
    for _ in range(100_000):
        for q, (ws, _) in conns.items():
            f = frames[q]
            mirror_apply(mirrors[q], f)
            if f["over"]:
                continue
            if f["moves"]:
                send(ws, {"type": "act", "action": greedy_choice(mirrors[q]), "move_number": f["move_number"]})
        if all(f["over"] for f in frames.values()):
            break
        for q, (ws, _) in conns.items():
            if not frames[q]["over"]:
                frames[q] = last_state(ws, [])
    for ws, _ in conns.values():
        ws.__exit__(None, None, None)
    return frames


@pytest.mark.parametrize("game, seats, factory", [
    ("shithead", [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}, {"kind": "person"}],
     lambda: threes.Game(3)),
    ("three_thirteen", [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}],
     lambda: threes.three_thirteen.Game(2)),
])
@pytest.mark.parametrize("slow_copier", [False, True], ids=["copier", "slow-copier"])
def test_finished_games_are_stored_and_replay_to_their_result(make_client, monkeypatch, game, seats, factory,
                                                              slow_copier):
    if slow_copier:  # SQLite lags the journal by 0.3 s a copy: a game seen to end is still listed at once
        apply_all = storage_module._apply_all

        def slow(db, records):
            time.sleep(0.3)
            apply_all(db, records)
        monkeypatch.setattr(storage_module, "_apply_all", slow)
    c = make_client()
    t = create_table(c, game=game, seats=seats, seed=99)
    people = [q for q, s in enumerate(seats) if s["kind"] == "person"]
    frames = _play_out(c, t, people, factory, 99)
    end = frames[people[0]]
    assert end["over"] and end["seed"] == 99 and end["result"]["places"]
    games = c.get("/api/games").json()["games"]
    assert len(games) == 1 and games[0]["table_id"] == t["table"]
    rec = c.get(f"/api/games/{games[0]['id']}").json()
    assert rec["game"] == game and rec["seed"] == 99 and rec["num_players"] == len(seats)
    assert rec["result"] == end["result"] and len(rec["actions"]) == end["move_number"]
    assert set(rec["movers"]) <= {"person", "bot", "standin"} and "person" in rec["movers"]
    assert rec["started_at"] <= rec["finished_at"]
    assert replay_result(rec) == rec["result"]
    with sqlite3.connect(c.db_path) as db:  # the file itself, as another program reads it
        row = db.execute("SELECT game, options, seed, num_players, actions, result, started_at, finished_at "
                         "FROM games").fetchone()
    assert row[0] == game and row[2] == 99 and json.loads(row[4]) == rec["actions"]
    assert json.loads(row[5])["returns"] == rec["result"]["returns"]
    # the replay, move by move
    steps = len(rec["actions"])
    r0 = c.get(f"/api/games/{rec['id']}/replay?step=0").json()
    assert r0["step"] == 0 and r0["last"] is None and r0["svg"].startswith("<svg")
    r5 = c.get(f"/api/games/{rec['id']}/replay?step=5&view=public").json()
    assert r5["step"] == 5 and r5["last"]["n"] == 4 and r5["last"]["text"]
    assert "public view" in r5["svg"]
    r_end = c.get(f"/api/games/{rec['id']}/replay?step={steps}&view=0").json()
    assert r_end["over"] and r_end["result"] == rec["result"]
    assert c.get(f"/api/games/{rec['id']}/replay?step=x").status_code == 400
    assert c.get(f"/api/games/{rec['id']}/replay?view=9").status_code == 400
    assert c.get("/api/games/12345").status_code == 404
    # every person may ask for the next game: a new seed, move 0
    with c.websocket_connect("/ws") as ws:
        send(ws, {"type": "join", "table": t["table"], "seat": people[0], "secret": t["secrets"][people[0]]})
        recv(ws)
        recv(ws)
        send(ws, {"type": "rematch"})
        nxt = last_state(ws, [])
        assert nxt["game_number"] == 2 and nxt["move_number"] == 0 and not nxt["over"] and nxt["seed"] is None
        send(ws, {"type": "rematch"})
        assert recv_until(ws, lambda m: m["type"] == "error")["code"] == "not_over"


def test_a_restart_loses_no_table_in_progress(make_client, tmp_path):
    c = make_client()
    t = create_table(c, seats=[{"kind": "person"}, {"kind": "bot", "bot": "greedy"}], seed=31)
    ws, frame = join(c, t, 0)
    mirror = threes.Game(2).new_initial_state(seed=31)
    while frame["move_number"] < 10:
        mirror_apply(mirror, frame)
        if frame["moves"]:
            send(ws, {"type": "act", "action": greedy_choice(mirror), "move_number": frame["move_number"]})
        frame = last_state(ws, [])
    while not frame["moves"]:
        frame = last_state(ws, [])
    ws.__exit__(None, None, None)
    c.__exit__(None, None, None)  # the server stops (its lifespan writes what is pending)
    from starlette.testclient import TestClient

    from threes.web.app import Settings, create_app

    with TestClient(create_app(Settings(db_path=c.db_path, bot_delay=0, turn_timeout=0))) as c2:
        assert table_summary(c2, t)["move_number"] == frame["move_number"]
        restored = c2.app.state.hub.tables[t["table"]]
        assert {m.by for m in restored.moves} == {"person", "bot"}  # who chose each move is kept too
        ws2, again = join(c2, t, 0)
        assert again["svg"] == frame["svg"] and again["moves"] == frame["moves"]
        ws2.__exit__(None, None, None)
    c.__enter__()  # the fixture closes it again


def test_secret_comparison_is_by_hash_in_constant_time():
    import inspect

    src = inspect.getsource(Table.check_secret)
    assert "compare_digest" in src


def _run_cli(*args, block_web=False):
    code = "import sys\n"
    if block_web:
        code += "sys.modules['starlette'] = None\n"
    code += f"from threes.ui.cli import main\nsys.exit(main({list(args)!r}))\n"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


def test_serve_without_the_web_extra_says_how_to_install_it():
    r = _run_cli("serve", "--port", "0", block_web=True)
    assert r.returncode == 2
    assert 'pip install ".[web]" in your threes-core checkout' in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("args, words", [
    (("--turn-timeout", "-1"), "--turn-timeout"),
    (("--port", "70000"), "--port"),
    (("--standin-bot", "nobody"), "--standin-bot"),
    (("--rate", "0"), "--rate"),
])
def test_serve_refuses_bad_options(args, words, tmp_path):
    r = _run_cli("serve", "--db", str(tmp_path / "g.sqlite3"), *args)
    assert r.returncode == 2 and words in r.stderr and "Traceback" not in r.stderr


def test_serve_prints_the_address_and_creates_the_database(tmp_path):
    from web_support import get, server_process

    db = tmp_path / "sub" / "games.sqlite3"
    with server_process(str(db)) as url:
        assert url.startswith("http://127.0.0.1:")
        assert get(url + "/api/tables") == {"tables": []}
    assert db.exists()
    with sqlite3.connect(db) as con:
        names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"games", "tables", "live_moves"} <= names
        assert con.execute("PRAGMA user_version").fetchone()[0] == 2  # schema v2 (tables, live_moves, immutable games)


def test_a_searching_bot_thinks_off_the_event_loop(make_client):
    c = make_client()
    t = create_table(c, seats=[{"kind": "person"}, {"kind": "bot", "bot": "ismcts:30"}], seed=17)
    ws, frame = join(c, t, 0)
    seen = []
    for _ in range(6):
        frame = recv_until(ws, lambda m: m["type"] == "state" and (m["moves"] or m["over"]), seen=seen) \
            if not frame["moves"] else frame
        send(ws, {"type": "act", "action": frame["moves"][0]["id"], "move_number": frame["move_number"]})
        send(ws, {"type": "ping", "ref": "alive"})  # answered while the bot searches
        frame = recv_until(ws, lambda m: m["type"] == "state", seen=seen)
    assert any(e["by"] == "bot" for m in seen if m["type"] == "state" for e in m["log"])
    assert any(m.get("ref") == "alive" for m in seen)
    ws.__exit__(None, None, None)


def test_the_lobby_offers_and_accepts_only_the_bots_this_server_can_make(make_client, tmp_path, monkeypatch):
    """threes.bots.available_bots decides: a damaged "net" weights file (THREES_NET_WEIGHTS) takes
    "net" out of /api/meta and makes a table asking for it a clear 400, not a 500; the packaged
    file brings it back; the net bot plays 4-player tables only, and a 2-seat table asking for it
    is refused saying so."""
    from threes.shithead.net import WEIGHTS_ENV

    c = make_client()
    four = [{"kind": "person"}, {"kind": "bot", "bot": "net"}, {"kind": "bot", "bot": "greedy"},
            {"kind": "bot", "bot": "greedy"}]
    shithead_bots = {g["name"]: g["bots"] for g in c.get("/api/meta").json()["games"]}["shithead"]
    assert "net" in shithead_bots and "ismcts:200" in shithead_bots and "ismcts" not in shithead_bots
    assert c.post("/api/tables", json={"game": "shithead", "seats": four}).status_code == 201
    two = c.post("/api/tables", json={"game": "shithead", "seats": four[:2]})
    assert two.status_code == 400 and "4-player" in two.json()["message"], two.text
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"PK\x03\x04 not a weights file")
    monkeypatch.setenv(WEIGHTS_ENV, str(broken))
    shithead_bots = {g["name"]: g["bots"] for g in c.get("/api/meta").json()["games"]}["shithead"]
    assert "net" not in shithead_bots and "greedy" in shithead_bots
    r = c.post("/api/tables", json={"game": "shithead", "seats": four})
    assert r.status_code == 400 and r.json()["error"] == "bad_seats" and "net" in r.json()["message"], r.text
    monkeypatch.delenv(WEIGHTS_ENV)
    assert c.post("/api/tables", json={"game": "shithead", "seats": four}).status_code == 201


def test_the_per_address_options_default_to_the_settings_defaults():
    """``threes serve --address-*`` and Settings agree on every default (one table in web/cli.py)."""
    import argparse

    from threes.web.cli import _ADDRESS_LIMITS, add_arguments
    from threes.web.hub import Settings

    p = argparse.ArgumentParser()
    add_arguments(p)
    args = p.parse_args([])
    fields = [flag[2:].replace("-", "_") for flag, *_ in _ADDRESS_LIMITS]
    assert fields == [f for f in Settings.__dataclass_fields__ if f.startswith("address_")]
    assert all(getattr(args, f) == getattr(Settings, f) for f in fields)
    assert p.parse_args(["--address-joins", "7"]).address_joins == 7.0


def test_the_web_front_end_names_no_game():
    """The server and the page read every game through the registry (its ``web`` hook, or the options
    a game declares): no string in the web package's code (docstrings and comments aside) and no
    quoted string in the page's script is a registered game's name or alias."""
    import ast

    import threes.web
    from threes import registry

    # "threes" is Shithead's alias and the project's own name (the data folder): not a game here
    names = {n.lower() for g in registry.names() for n in (g, *registry.get(g).aliases)} - {"threes"}
    root = pathlib.Path(threes.web.__file__).parent
    found = []
    for path in sorted(root.glob("*.py")):
        tree = ast.parse(path.read_text())
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        found += [f"{path.name}:{n.lineno} {n.value!r}" for n in ast.walk(tree)
                  if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings
                  and n.value.strip().lower() in names]
    script = (root / "static" / "app.js").read_text()
    found += [f"app.js {m}" for m in re.findall(r"""["']([A-Za-z0-9_-]+)["']""", script) if m.lower() in names]
    assert found == []
