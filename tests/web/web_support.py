"""Helpers of the web table's tests: a real uvicorn server on 127.0.0.1 (a free port), HTTP
calls with the standard library, and the oracle of what each seat may see."""
from __future__ import annotations

import collections
import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from typing import Any, Dict, Iterator, List, Optional

import threes
from threes import registry
from threes.cards import Card

CHROMIUM = "/usr/bin/chromium"


def ensure_chromium() -> str:
    """Debian's Chromium, installed with apt-get when it is missing and we are root (as .ci/run does, so
    the README's test command also works on a fresh machine); a clear failure otherwise."""
    import shutil

    if not os.path.exists(CHROMIUM) and shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-qq"], env=env, timeout=600, check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], env=env, timeout=1200, check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert os.path.exists(CHROMIUM), "Debian's chromium is needed: apt-get install chromium (.ci/run installs it)"
    return CHROMIUM


# ------------------------------------------------------------------ servers --
# Every scripted client of a test comes from one address (127.0.0.1, or "testclient"): the
# per-address limits a test sets unless it tests them
LOOSE_ADDRESS_LIMITS = {"address_creates": 10_000.0, "address_tables": 10_000, "address_joins": 100_000.0,
                        "address_connections": 10_000, "address_rate": 100_000.0, "address_requests": 100_000.0}


@contextlib.contextmanager
def server_thread(db_path: str, with_app: bool = False, **settings: Any) -> Iterator[Any]:
    """A real uvicorn server of ``threes.web.app`` in a background thread, on 127.0.0.1 and a
    free port (bound as port 0); yields its base URL (and the app, ``with_app``) and stops it
    (bounded: 15 s). The per-address limits are loose unless ``settings`` name them."""
    import uvicorn

    from threes.web.app import Settings, create_app
    from threes.web.cli import ws_implementation

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # TCP_NODELAY on connections
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(256)
    port = sock.getsockname()[1]
    app = create_app(Settings(db_path=db_path, **{**LOOSE_ADDRESS_LIMITS, **settings}))
    config = uvicorn.Config(app, log_level="warning", ws=ws_implementation(), ws_max_size=65536, lifespan="on",
                            proxy_headers=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        url = f"http://127.0.0.1:{port}"
        yield (url, app) if with_app else url
    finally:
        server.should_exit = True
        thread.join(15)
        sock.close()
        assert not thread.is_alive(), "the server thread did not stop"


@contextlib.contextmanager
def server_process(db_path: str, *extra: str, timeout: float = 30) -> Iterator[str]:
    """``python -m threes.web.cli --port 0`` in a subprocess; yields its base URL (read from the
    address it prints) and stops it (SIGTERM, then SIGKILL after 10 s)."""
    proc = subprocess.Popen([sys.executable, "-m", "threes.web.cli", "--host", "127.0.0.1", "--port", "0",
                             "--db", db_path, *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = ""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if "http://" in line or proc.poll() is not None:
                break
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            raise RuntimeError(f"the server printed {line!r}; stderr: {proc.stderr.read() if proc.poll() else ''}")
        url = f"http://127.0.0.1:{m.group(1)}"
        deadline = time.monotonic() + timeout
        while True:
            try:
                get(url + "/api/meta")
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        proc.stdout.close()
        proc.stderr.close()


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=20) as r:
        return json.loads(r.read())


def post(url: str, body: Any) -> Any:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=20) as r:
        return json.loads(r.read())


# ------------------------------------------------------------- the oracle --
FACE_RE = re.compile(r"(10|[2-9JQKA])([\u2663\u2666\u2665\u2660])|JK\u2605")
TEXT_RE = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][cdhs]|X[rb])(?![A-Za-z0-9])")
_SUIT_OF = {"\u2663": "c", "\u2666": "d", "\u2665": "h", "\u2660": "s"}
JOKERS = ("Xr", "Xb")


def face_cards(text: str) -> List[str]:
    """Card texts named in narration-style text (``10\u2663``, ``A\u2665``; ``JK\u2605`` is the
    token ``JK``, either joker)."""
    out = []
    for m in FACE_RE.finditer(text):
        if m.group(0) == "JK\u2605":
            out.append("JK")
        else:
            rank = "T" if m.group(1) == "10" else m.group(1)
            out.append(rank + _SUIT_OF[m.group(2)])
    return out


def text_cards(text: str) -> List[str]:
    """Card texts in engine notation (``Td``, ``Xr``) found in text."""
    return TEXT_RE.findall(text)


def visible(state: Any, viewer: Optional[int]) -> collections.Counter:
    """The cards ``viewer`` (a seat, None: a spectator) sees in ``state``, as a multiset of
    card texts, computed from the true state by the rules (RULES.md section 2, Three Thirteen's
    "What each player knows"): never from what the server sends."""
    game = registry.game_of(state).name
    seen: collections.Counter = collections.Counter()
    n = state.num_players()
    if state.is_terminal():  # a finished game hides nothing any more: its every card is shown
        return collections.Counter(str(c) for c in all_cards(state))
    if game == "shithead":
        for q in range(n):
            seen.update(str(c) for c in state.face_up(q))
            if q == viewer:
                seen.update(str(c) for c in state.hand(q))
            else:
                seen.update(str(c) for c in state.known_cards(q))
        seen.update(str(c) for c in state.pile())
        seen.update(str(c) for c in state.burned())
    else:
        obs = state.observation(0 if viewer is None else viewer)
        seen.update(str(c) for c in obs.discard_pile)
        for q in range(n):
            if q == viewer:
                seen.update(str(c) for c in state.hand(q))
            else:
                seen.update(str(c) for c in obs.known[q])
    return seen


def all_cards(state: Any) -> List[Any]:
    """Every card of a position, wherever it lies."""
    n = state.num_players()
    if registry.game_of(state).name == "shithead":
        out = [c for q in range(n) for c in state.hand(q) + state.face_up(q)]
        out += [c for q in range(n) for c in state.face_down(q) if c is not None]
        return out + state.pile() + state.burned() + state.draw_pile()
    d = state.to_dict()
    return [c for h in d["hands"] for c in h] + d["stock"] + d["discard"]


def revealed_by(before: Any, after: Any, action: int) -> collections.Counter:
    """Cards a move reveals to everyone beyond what ``after`` shows: Three Thirteen's scored
    round (every hand of ``before`` is shown) and a player going out (the hand laid down)."""
    out: collections.Counter = collections.Counter()
    if registry.game_of(before).name != "three_thirteen":
        return out
    n = before.num_players()
    if after.is_terminal() or after.round() != before.round():
        for q in range(n):
            out.update(str(c) for c in before.hand(q))
    if action >= 56:
        out.update(str(c) for c in before.hand(before.current_player()))
    return out


def _over(c: collections.Counter, allowed: collections.Counter) -> List[str]:
    return sorted(k for k, v in c.items() if v > allowed.get(k, 0))


def _set_over(names: List[str], allowed: collections.Counter) -> List[str]:
    bad = []
    for k in set(names):
        if k == "JK":
            if not any(allowed.get(j, 0) for j in JOKERS):
                bad.append(k)
        elif not allowed.get(k, 0):
            bad.append(k)
    return sorted(bad)


def check_frame(frame: Dict[str, Any], viewer: Optional[int], states: List[Any], actions: List[int],
                secrets: List[Optional[str]]) -> List[str]:
    """Every card a frame for ``viewer`` names, checked against the true states: ``states[k]``
    is the position after k moves, ``actions[k]`` the k-th move. Returns the problems (empty if
    none): a card drawn in the SVG that the viewer cannot see after the move (as a multiset,
    so a second copy of a card counts), a card in an event or its narration that the viewer
    could see neither before nor after the move nor was shown by it, legal moves or hints sent
    to a seat not to move, a secret, a seed before the end (unless the creator chose it:
    then every seat is shown it)."""
    problems = []
    m = frame["move_number"]
    after = states[m]
    text = json.dumps(frame)
    for s in secrets:
        if s and s in text:
            problems.append("a seat's secret is in the frame")
    if frame.get("seed") is not None and not after.is_terminal() and not frame.get("seed_chosen"):
        problems.append("the seed of a game in progress")  # a seed the creator chose is shown to all
    seen_after = visible(after, viewer)
    svg = frame["svg"]
    drawn = collections.Counter(re.findall(r'data-card="([^"]+)"', svg))
    bad = _over(drawn, seen_after)
    if bad:
        problems.append(f"SVG at move {m} draws {bad} hidden from {viewer}")
    titles = re.findall(r"<title>([^<]*)</title>", svg)
    bad = _set_over([c for t in titles for c in text_cards(t)] + face_cards(svg), seen_after)
    if bad:
        problems.append(f"SVG text at move {m} names {bad} hidden from {viewer}")
    for entry in frame["log"]:
        n = entry["n"]
        allowed = visible(states[n], viewer) | visible(states[n + 1], viewer) | \
            revealed_by(states[n], states[n + 1], actions[n])
        for ev in entry["events"]:
            bad = _over(collections.Counter(ev["cards"]), allowed)
            if bad:
                problems.append(f"event {ev['kind']} of move {n} names {bad} hidden from {viewer}")
            for _, cards in ev.get("melds", ()):
                bad = _over(collections.Counter(cards), allowed)
                if bad:
                    problems.append(f"melds of move {n} name {bad} hidden from {viewer}")
        words = " ".join(entry["text"])
        bad = _set_over(face_cards(words) + text_cards(entry["move"]), allowed)
        if bad:
            problems.append(f"narration of move {n} ({words!r}) names {bad} hidden from {viewer}")
    to_move = after.current_player()
    if frame["moves"] or frame["hints"]:
        if viewer is None or viewer != to_move:
            problems.append(f"moves or hints sent to {viewer}, not to the seat to move ({to_move})")
        words = " ".join(frame["hints"]) + " " + " ".join(x["label"] for x in frame["moves"])
        bad = _set_over(face_cards(words) + text_cards(" ".join(x["text"] for x in frame["moves"])), seen_after)
        if bad:
            problems.append(f"moves or hints at move {m} name {bad} hidden from {viewer}")
    return problems


def replay_states(record: Dict[str, Any]) -> List[Any]:
    """The positions of a stored game: after 0, 1, ... moves (replayed by the engine)."""
    from threes.web.storage import _game_of

    state = _game_of(record).new_initial_state(seed=record["seed"])
    out = [state.clone()]
    for a in record["actions"]:
        state.apply_action(a)
        out.append(state.clone())
    return out


def greedy_choice(state: Any, seed: int = 0) -> int:
    """The engine's greedy policy's action for the player to move (the scripted players' choice)."""
    return threes.bots.make_bot("greedy", seed=seed).step(state)


def mirror_apply(mirror: Any, frame: Dict[str, Any]) -> None:
    """Brings a client's mirror of its game up to the frame, from the public notation of each
    move in the frame's log (the scripted players know the seed: they created the table)."""
    for entry in frame["log"]:
        if entry["n"] == mirror.move_number():
            mirror.apply_action(mirror.string_to_action(entry["move"]))
    assert mirror.move_number() == frame["move_number"], (mirror.move_number(), frame["move_number"])
