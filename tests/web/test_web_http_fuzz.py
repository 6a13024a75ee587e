"""Fuzzing of what ``threes serve`` reads from outside (hypothesis, bounded and derandomized):
query parameters (``limit``, ``step``, ``view``), path parts (``/api/games/{id}``,
``/api/games/{id}/replay``, ``/api/tables/{id}``), bodies of ``POST /api/tables`` (every field
with random JSON values, huge integers, deep nesting, unknown fields, raw bytes) and the fields of
websocket messages (``act.action``, ``act.move_number``, ``join.seat``, ``join.table``, ``ref``).

The values mix random Unicode with the numbers that are not numbers: other scripts' digits
('²', '٣', '１'), signs, spaces, exponents, thousands of digits, huge and negative integers.

The properties (notes/web-design.md section 8): never a 5xx; every HTTP error is JSON with
``error`` and ``message``; text that is not ASCII digits is never read as a number (400 for a
query parameter, 404 or 400 for a path part); a stored game's replay with a bad ``step`` or
``view`` is a 400; in-bounds values work. On the websocket every message gets an answer on a
connection that stays open: an error frame (never ``internal``) or what the message asked for.

Through Starlette's TestClient (the peer address does not matter here; the per-address limits
are set loose so the fuzz reaches the checks behind them). ``THREES_FUZZ_SCALE`` multiplies the
example counts and ``THREES_FUZZ_RANDOM=1`` draws fresh examples, as in tests/shithead/test_fuzz.py.
"""
from __future__ import annotations

import dataclasses
import json
import os
import re
import time
import urllib.parse
from typing import Any, Dict, Optional

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from conftest import recv, send

_SCALE = float(os.environ.get("THREES_FUZZ_SCALE", "1"))
_RANDOM = os.environ.get("THREES_FUZZ_RANDOM", "") not in ("", "0")


def fuzz_settings(n: int) -> Any:
    return settings(max_examples=max(1, int(n * _SCALE)), deadline=None, database=None,
                    derandomize=not _RANDOM, print_blob=_RANDOM, suppress_health_check=list(HealthCheck))


ASCII_DIGITS = re.compile(r"[0-9]+")
NASTY = ["\u00b2", "\u0663", "\uff11", "\u00b9\u00b2", "\u0661\u0660", "-1", "+1", " 1", "1 ", "\t2", "0x10", "1e3",
         "1.0", "1_000", "", "NaN", "nan", "inf", "-0", "00", "0", "01", "9" * 19, str(2**63), str(2**64), "\x00",
         "%", "%25", "%00", "\ud7ff", "\U0001f0a1", "1\u00a0", "\u0967", "all ", "ALL", "public\x00", "null",
         "true", "[]", "{}", "9" * 5000, "1" + "0" * 4400]

number_text = st.one_of(
    st.sampled_from(NASTY),
    st.text(max_size=30),
    st.integers(-10**40, 10**40).map(str),
    st.text(alphabet="0123456789", min_size=1, max_size=6000),
    st.from_regex(r"[0-9\u0660-\u0669\u00b2\u00b3\u00b9\uff10-\uff19\u0966-\u096f]{1,14}", fullmatch=True),
)
# a path part: anything but what changes the route ('/', '.', '..', empty)
path_text = number_text.filter(lambda s: s not in ("", ".", "..") and "/" not in s)

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(-2**300, 2**300),
                      st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=40), st.sampled_from(NASTY[:-2]))
json_value = st.recursive(json_leaf, lambda inner: st.lists(inner, max_size=4) |
                          st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=16)


def _loose_settings(db: str) -> Any:
    """Settings for a fuzzed server: bots at once, no turn timer, the per-connection and
    per-address limits out of the way (only the fields this version has)."""
    from threes.web.app import Settings

    wanted = dict(db_path=db, bot_delay=0.0, turn_timeout=0.0, rate=1e6, burst=1e6, max_tables=100_000,
                  address_creates=1e6, address_tables=100_000, address_joins=1e6, address_connections=10_000,
                  address_rate=1e6, address_requests=1e6)
    names = {f.name for f in dataclasses.fields(Settings)}
    return Settings(**{k: v for k, v in wanted.items() if k in names})


@pytest.fixture
def client(tmp_path):
    from starlette.testclient import TestClient

    from threes.web.app import create_app

    with TestClient(create_app(_loose_settings(str(tmp_path / "fuzz.sqlite3"))),
                    raise_server_exceptions=False) as c:
        yield c


def _check_answer(r: Any, what: str) -> Optional[Dict[str, Any]]:
    """Never a 5xx; an error is JSON with error and message. Returns the JSON body."""
    assert r.status_code < 500, f"{what}: {r.status_code} {r.text[:300]}"
    try:
        body = r.json()
    except ValueError:
        raise AssertionError(f"{what}: {r.status_code}, not JSON: {r.text[:200]!r}") from None
    if r.status_code >= 400:
        assert isinstance(body, dict) and isinstance(body.get("error"), str) and \
            isinstance(body.get("message"), str), f"{what}: {r.status_code} {body!r}"
    return body


def _small(s: Optional[str]) -> Optional[int]:
    """The value of ASCII digits of a sane length (at most 12), else None."""
    return int(s) if s is not None and ASCII_DIGITS.fullmatch(s) and len(s) <= 12 else None


def _q(s: str) -> str:
    return urllib.parse.quote(s, safe="")


def _stored_game(c: Any) -> Dict[str, Any]:
    """A finished game (a person and a bot, at most 6 moves) and its stored record."""
    t = c.post("/api/tables", json={"seats": [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}],
                                    "seed": 3, "max_moves": 6})
    assert t.status_code == 201, t.text
    t = t.json()
    with c.websocket_connect("/ws") as ws:
        send(ws, {"type": "join", "table": t["table"], "seat": 0, "secret": t["secrets"][0]})
        for _ in range(100):
            m = recv(ws)
            if m["type"] == "state" and m["over"]:
                break
            if m["type"] == "state" and m["moves"]:
                send(ws, {"type": "act", "action": m["moves"][0]["id"], "move_number": m["move_number"]})
    games: list = []
    for _ in range(50):  # bounded (5 s): SQLite may catch up with the journal a moment after the last frame
        listed = c.get("/api/games")
        assert listed.status_code == 200, f"GET /api/games: {listed.status_code} {listed.text[:300]}"
        games = [g for g in listed.json()["games"] if g["table_id"] == t["table"]]
        if games:
            break
        time.sleep(0.1)
    assert len(games) == 1, "the finished game is not listed 5 s after its end"
    rec = c.get(f"/api/games/{games[0]['id']}")
    assert rec.status_code == 200, rec.text[:300]
    return rec.json()


# ------------------------------------------------------------------- HTTP --
def test_query_parameters(client):
    rec = _stored_game(client)
    gid, steps, n = rec["id"], len(rec["actions"]), rec["num_players"]

    @fuzz_settings(300)
    @given(limit=st.none() | number_text, step=st.none() | number_text, view=st.none() | number_text)
    def check(limit: Optional[str], step: Optional[str], view: Optional[str]) -> None:
        q = urllib.parse.urlencode({"limit": limit} if limit is not None else {})
        r = client.get("/api/games" + (f"?{q}" if q else ""))
        note(f"limit={limit!r}: {r.status_code}")
        body = _check_answer(r, f"GET /api/games?limit={limit!r}")
        if limit is not None and not ASCII_DIGITS.fullmatch(limit):
            assert r.status_code == 400, f"limit={limit!r} was read as a number: {r.status_code}"
        elif limit is not None and len(limit) > 12:
            assert r.status_code == 400, f"limit={limit[:20]!r}... ({len(limit)} digits): {r.status_code}"
        elif limit is None or 1 <= (_small(limit) or 0) <= 500:
            assert r.status_code == 200 and isinstance(body["games"], list), (limit, r.status_code)

        params = {k: v for k, v in (("step", step), ("view", view)) if v is not None}
        r = client.get(f"/api/games/{gid}/replay" + (f"?{urllib.parse.urlencode(params)}" if params else ""))
        what = f"replay step={step!r} view={view!r}"
        note(f"{what}: {r.status_code}")
        body = _check_answer(r, what)
        step_ok = step is None or (_small(step) is not None and _small(step) <= steps)
        step_bad = step is not None and _small(step) is None
        view_ok = view is None or view in ("all", "public") or (len(view) == 1 and _small(view) is not None
                                                                 and _small(view) < n)
        view_bad = view is not None and not view_ok and not (_small(view) is not None and _small(view) < n)
        if step_bad or view_bad:
            assert r.status_code == 400 and body["error"] == "bad_request", f"{what}: {r.status_code} {body}"
        elif step_ok and view_ok:
            assert r.status_code == 200 and body["step"] == (_small(step) or 0), f"{what}: {body}"
        else:  # in-range digits past the end, or a seat with leading zeros: refused or clamped
            assert r.status_code in (200, 400), f"{what}: {r.status_code}"

    check()


def test_path_parts(client):
    rec = _stored_game(client)

    @fuzz_settings(300)
    @given(part=path_text)
    def check(part: str) -> None:
        for path in (f"/api/games/{_q(part)}", f"/api/games/{_q(part)}/replay", f"/api/tables/{_q(part)}"):
            r = client.get(path)
            note(f"{path[:80]}: {r.status_code}")
            body = _check_answer(r, f"GET {path[:120]}")
            if path.startswith("/api/tables/"):
                assert r.status_code in (400, 404), f"{path[:80]}: {r.status_code}"
            elif not ASCII_DIGITS.fullmatch(part):
                assert r.status_code in (400, 404), f"{path[:80]}: {part!r} read as a game id ({r.status_code})"
            else:
                assert r.status_code in (200, 400, 404), f"{path[:80]}: {r.status_code}"
                if r.status_code == 200:
                    assert _small(part) == rec["id"] and body["id"] == rec["id"]

    check()


_seat = st.one_of(json_value, st.fixed_dictionaries(
    {"kind": st.sampled_from(["person", "bot"]) | json_value},
    optional={"name": st.text(max_size=30) | json_value, "bot": st.sampled_from(
        ["greedy", "random", "ismcts:10", "ismcts:999999", "GREEDY ", "net"]) | json_value,
        "secret": json_value}))
_VALID_SEATS = [[{"kind": "person"}, {"kind": "bot", "bot": "greedy"}], [{"kind": "person", "name": "Ann"}] * 3,
                [{"kind": "person"}, {"kind": "bot", "bot": "random", "name": "R"}, {"kind": "person"}]]
_fields = {
    "game": st.sampled_from(["shithead", "three_thirteen", "3-13", "Shithead", "\u00b2"]) | json_value,
    "preset": st.sampled_from(["threes", "classic", "dutch", "\u0663"]) | json_value,
    "rules": st.one_of(json_value, st.text(max_size=200), st.dictionaries(st.text(max_size=20), json_value, max_size=6)),
    "seats": st.one_of(json_value, st.lists(_seat, max_size=10), st.sampled_from(_VALID_SEATS)),
    "seed": st.one_of(json_value, st.integers(-2**70, 2**70), st.sampled_from([2**53 - 1, 2**53, -1, 0])),
    "max_moves": st.one_of(json_value, st.integers(-2**70, 2**70)),
}
_extra = st.dictionaries(st.text(max_size=10), json_value, max_size=2)
_body = st.one_of(
    # anything in any field, and unknown fields
    st.fixed_dictionaries({}, optional=_fields).flatmap(lambda d: _extra.map(lambda extra: {**extra, **d})),
    # a valid table with one field fuzzed (so the checks behind the first are reached too)
    st.tuples(st.sampled_from(_VALID_SEATS), st.sampled_from(sorted(_fields))).flatmap(
        lambda x: _fields[x[1]].map(lambda v: {"seats": x[0], x[1]: v})),
    # valid, with a chosen seed or none
    st.tuples(st.sampled_from(_VALID_SEATS), st.none() | st.integers(0, 2**53 - 1),
              st.sampled_from(["shithead", "three_thirteen"])).map(
        lambda x: {"game": x[2], "seats": x[0], **({"seed": x[1]} if x[1] is not None else {})}),
)
_raw_body = st.one_of(
    st.integers(1, 6000).map(lambda d: ("[" * d + "]" * d).encode()),
    st.integers(1, 6000).map(lambda d: ('{"a":' * d + "1" + "}" * d).encode()),
    st.integers(1, 6000).map(lambda d: ('{"seats":' + "9" * d + "}").encode()),
    st.sampled_from([b"", b"null", b"NaN", b'{"seed": NaN}', b'{"seed": Infinity}', b'{"seed": 1e400}',
                     b"\xff\xfe{}", b'{"seed": 1}' * 2, b"\x00", "{\"game\": \"\u0663\"}".encode("utf-16")]),
    st.binary(max_size=300),
    st.text(max_size=300).map(lambda s: s.encode("utf-8", "surrogatepass")),
)


def test_create_table_bodies(client):
    counts: Dict[int, int] = {}

    @fuzz_settings(400)
    @given(body=_body, raw=st.none() | _raw_body)
    def check(body: Dict[str, Any], raw: Optional[bytes]) -> None:
        for data in ([json.dumps(body).encode()] + ([raw] if raw is not None else [])):
            r = client.post("/api/tables", content=data, headers={"content-type": "application/json"})
            note(f"POST {data[:200]!r}: {r.status_code} {r.text[:200]}")
            counts[r.status_code] = counts.get(r.status_code, 0) + 1
            out = _check_answer(r, f"POST /api/tables {data[:300]!r}")
            assert r.status_code in (201, 400, 413), f"{data[:300]!r}: {r.status_code} {out}"
            if r.status_code == 201:
                assert isinstance(out["table"], str) and len(out["secrets"]) == len(body["seats"])
                assert out["seed"] == body.get("seed"), "the creator's answer shows a seed nobody chose"

    check()
    print(f"POST /api/tables answers: {counts}")
    assert counts.get(400, 0) > 100 and counts.get(201, 0) > 20, counts


# -------------------------------------------------------------- websocket --
def _until_sync(ws: Any, tag: str) -> list:
    """The messages before the pong of the ping ``tag`` (sent after the fuzzed message)."""
    out = []
    for _ in range(50):
        m = recv(ws, 20)  # ConnectionError if the server closed the connection
        if m.get("type") == "pong" and m.get("ref") == tag:
            return out
        out.append(m)
    raise AssertionError(f"no pong for {tag}: {out[-5:]}")


_field = st.one_of(json_value, number_text, st.integers(-2**70, 2**70), st.sampled_from([0, 1, 2, 63, 64, 2**20, 2**53]))


def test_websocket_message_fields(client):
    t = client.post("/api/tables", json={"seats": [{"kind": "person"}, {"kind": "person"}], "seed": 11}).json()
    seated = client.websocket_connect("/ws")
    seated.__enter__()
    loose = client.websocket_connect("/ws")  # joins nothing: every join it sends is refused
    loose.__enter__()
    try:
        send(seated, {"type": "join", "table": t["table"], "seat": 0, "secret": t["secrets"][0]})
        assert recv(seated)["type"] == "welcome"
        codes: Dict[str, int] = {}
        counter = [0]

        @fuzz_settings(300)
        @given(kind=st.sampled_from(["act", "join", "ping"]), a=_field, b=_field, ref=st.none() | _field,
               table=st.none() | path_text, omit=st.booleans())
        def check(kind: str, a: Any, b: Any, ref: Any, table: Optional[str], omit: bool) -> None:
            counter[0] += 1
            tag = f"sync-{counter[0]}"
            if kind == "act":
                ws, msg = seated, {"type": "act", "action": a, "move_number": b}
            elif kind == "join":
                ws, msg = loose, {"type": "join", "table": t["table"] if table is None else table, "seat": a,
                                  "secret": b if omit and b is not None else "A" * 43}
            else:
                ws, msg = seated, {"type": "ping"}
            if ref is not None or kind == "ping":
                msg["ref"] = ref
            text = json.dumps(msg)
            note(text[:500])
            send(ws, text)
            send(ws, {"type": "ping", "ref": tag})
            replies = _until_sync(ws, tag)
            assert replies, f"no answer to {text[:300]}"
            for m in replies:
                assert m.get("type") in ("error", "state", "pong", "seats", "welcome"), m
                if m["type"] == "error":
                    codes[m["code"]] = codes.get(m["code"], 0) + 1
                    assert m["code"] != "internal", f"{text[:300]}: {m}"
                    assert isinstance(m.get("message"), str)
                    assert m["code"] != "rate_limited", "the limits are loose here: the fuzz should reach the checks"
            if kind == "join":
                assert replies[0]["type"] == "error", f"a join with a wrong secret: {replies[0]}"
            if kind == "ping" and replies[0]["type"] == "pong":
                assert replies[0]["ref"] == ref

        check()
        print(f"websocket error codes: {codes}")
        assert codes.get("bad_message", 0) > 50
    finally:
        for ws in (seated, loose):
            ws.__exit__(None, None, None)
