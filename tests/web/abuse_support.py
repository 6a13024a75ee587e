"""Helpers of the abuse, lifecycle-leak and fuzz tests of ``threes serve``: HTTP and websocket
clients bound to a chosen loopback source address (the whole 127/8 is loopback on Linux, so a
test can be several "addresses" at once), a log of everything received with the time it came,
and a walk over the numbers of a JSON value."""
from __future__ import annotations

import asyncio
import dataclasses
import http.client
import json
import socket
import threading
import time
import urllib.parse
from typing import Any, Dict, Iterator, List, Optional, Tuple

import websockets

LOOPBACK = "127.0.0.1"


# ---------------------------------------------------------------- HTTP --
@dataclasses.dataclass
class Answer:
    """One HTTP answer: its status, headers (lower-case names), text and JSON (None if not JSON)."""

    status: int
    headers: Dict[str, str]
    text: str
    at: float = 0.0

    @property
    def json(self) -> Any:
        try:
            return json.loads(self.text)
        except ValueError:
            return None


def _host_port(base: str) -> Tuple[str, int]:
    u = urllib.parse.urlsplit(base)
    return u.hostname or LOOPBACK, int(u.port or 80)


class Http:
    """A keep-alive HTTP connection to ``base`` from ``source`` (an address of 127/8): the server
    sees that address as the peer. Reconnects once when the server closed the connection."""

    def __init__(self, base: str, source: str = LOOPBACK, timeout: float = 20.0):
        self.host, self.port = _host_port(base)
        self.source = source
        self.timeout = timeout
        self.conn: Optional[http.client.HTTPConnection] = None

    def _connect(self) -> http.client.HTTPConnection:
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout,
                                                   source_address=(self.source, 0))
        return self.conn

    def request(self, method: str, path: str, body: Any = None, raw: Optional[bytes] = None,
                headers: Optional[Dict[str, str]] = None) -> Answer:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        hdrs = {"content-type": "application/json"} if data is not None else {}
        hdrs.update(headers or {})
        for attempt in range(2):
            conn = self._connect()
            try:
                conn.request(method, path, body=data, headers=hdrs)
                r = conn.getresponse()
                text = r.read().decode("utf-8", "replace")
                answer = Answer(r.status, {k.lower(): v for k, v in r.getheaders()}, text, time.monotonic())
                if r.getheader("connection", "").lower() == "close":
                    self.close()
                return answer
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError,
                    http.client.CannotSendRequest, http.client.ResponseNotReady):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def get(self, path: str, **kw: Any) -> Answer:
        return self.request("GET", path, **kw)

    def post(self, path: str, body: Any = None, **kw: Any) -> Answer:
        return self.request("POST", path, body=body, **kw)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def __enter__(self) -> "Http":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def http_once(base: str, method: str, path: str, body: Any = None, source: str = LOOPBACK) -> Answer:
    """One request on a connection of its own."""
    with Http(base, source) as h:
        return h.request(method, path, body=body)


def create_body(game: str = "shithead", seats: Any = None, **extra: Any) -> Dict[str, Any]:
    """A valid POST /api/tables body: by default a person (seat 0) and a greedy bot (seat 1)."""
    body: Dict[str, Any] = {"game": game,
                            "seats": seats or [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]}
    body.update(extra)
    return body


def choose(moves: List[Dict[str, Any]]) -> int:
    """A scripted person's move: the first that is not picking up the pile (always the first move
    can loop forever in Shithead: pick up, play the lowest card, pick up ...)."""
    plays = [m for m in moves if "pick" not in m["text"]]
    return (plays or moves)[0]["id"]


def retry_after_ok(answer: Answer) -> bool:
    """A 429 answer's Retry-After: delta-seconds (RFC 9110), a whole number >= 0."""
    value = answer.headers.get("retry-after", "").strip()
    return value.isascii() and value.isdigit()


def error_shape(answer: Answer) -> bool:
    """An error answer is JSON with string ``error`` and ``message``."""
    body = answer.json
    return isinstance(body, dict) and isinstance(body.get("error"), str) and isinstance(body.get("message"), str)


# ----------------------------------------------------------- websockets --
async def ws_connect(base: str, source: str = LOOPBACK, timeout: float = 10.0, **kw: Any) -> Any:
    """A websocket to ``base``/ws from ``source`` (a socket bound to that address, connected here
    and handed to ``websockets``)."""
    host, port = _host_port(base)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setblocking(False)
    try:
        sock.bind((source, 0))
        loop = asyncio.get_running_loop()
        await asyncio.wait_for(loop.sock_connect(sock, (host, port)), timeout)
    except BaseException:
        sock.close()
        raise
    kw.setdefault("max_size", 2**23)
    kw.setdefault("open_timeout", timeout)
    return await websockets.connect(f"ws://{host}:{port}/ws", sock=sock, **kw)


async def recv_json(ws: Any, timeout: float = 20.0) -> Dict[str, Any]:
    """The next message of a websocket, as JSON, within ``timeout`` seconds."""
    return json.loads(await asyncio.wait_for(ws.recv(), timeout))


# ------------------------------------------------------------- the log --
@dataclasses.dataclass
class Received:
    """Something a client received: when (time.monotonic()), who (a role), what (an HTTP path or
    'ws'), its text and its JSON."""

    at: float
    role: str
    what: str
    text: str
    obj: Any


class Log:
    """Everything every client received, thread-safe."""

    def __init__(self) -> None:
        self.items: List[Received] = []
        self._lock = threading.Lock()

    def add(self, role: str, what: str, text: str, at: Optional[float] = None) -> Any:
        try:
            obj = json.loads(text)
        except ValueError:
            obj = None
        with self._lock:
            self.items.append(Received(time.monotonic() if at is None else at, role, what, text, obj))
        return obj

    def __iter__(self) -> Iterator[Received]:
        with self._lock:
            return iter(list(self.items))

    def __len__(self) -> int:
        return len(self.items)


def json_numbers(value: Any) -> Iterator[int]:
    """Every whole number in a JSON value (not bools), however deep."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, bool):
            continue
        if isinstance(v, int):
            yield v
        elif isinstance(v, float) and v.is_integer():
            yield int(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
