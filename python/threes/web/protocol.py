"""The web table's protocol: every message a client may send, validated here.

Clients talk to ``/ws`` in JSON text messages of at most :data:`MAX_MESSAGE_BYTES`.
Each has a ``type`` and may carry a ``ref`` (a string of up to 64 characters or a
whole number) that the server's reply repeats. Client -> server:

``{"type": "join", "table": ID, "seat": N, "secret": S}``
    sit at seat N with its secret (also how a person reconnects); without
    ``seat`` and ``secret``: watch as a spectator. Once per connection.
``{"type": "act", "action": A, "move_number": M}``
    play A (an action id, or its notation: ``"7x2"``, ``"pickup"``,
    ``"discard 7h"``) on position M, the ``move_number`` of the last state the
    client saw (a second click on an old position is refused as ``stale``).
``{"type": "back"}``
    the person is back: the stand-in bot stops playing the seat.
``{"type": "rematch"}``
    after a game is over, deal the table's next one (seated people only; its seed is new,
    from the operating system's cryptographic source: ``threes.web.tables.draw_seed``).
``{"type": "ping"}``
    answered by ``{"type": "pong"}``.

Server -> client: ``welcome`` (the seat joined, the table's public summary),
``state`` (the table as the viewer may see it, see :func:`threes.web.views.state_frame`;
sent only once the move it shows is durable), ``seats`` (who is connected or away),
``storage`` (``ok`` false: the server cannot save moves now and the tables wait; ``ok`` true:
it can again), ``error`` (``code``, ``message``, ``ref``: the message changed nothing) and
``pong``. Error codes: ``too_large``, ``bad_json``, ``bad_message``,
``unknown_type``, ``rate_limited`` (this connection's or this address's limit),
``no_table``, ``bad_secret``, ``already_joined``, ``not_joined``, ``spectator``,
``not_your_turn``, ``stale``, ``illegal``, ``game_over``, ``not_over``, ``storage``
(the last move is not saved yet: the table waits), ``internal`` (a server bug; nothing
changed).
"""
from __future__ import annotations

import json
import math
import re
import time
from typing import Any, Dict, Optional

__all__ = ["ProtocolError", "MAX_MESSAGE_BYTES", "MAX_REQUEST_BYTES", "parse_message", "TokenBucket",
           "check_table_id"]

#: The largest message a client may send (bytes of its UTF-8 text).
MAX_MESSAGE_BYTES = 4096
#: The largest HTTP request body (a table's creation).
MAX_REQUEST_BYTES = 16384
_TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{6,32}$")
_SECRET = re.compile(r"^[A-Za-z0-9_-]{16,128}$")
_NOTATION = re.compile(r"^[A-Za-z0-9+ ]{1,32}$")

#: For each message type: its fields, each (required, check).
_FIELDS: Dict[str, Dict[str, Any]] = {
    "join": {"table": True, "seat": False, "secret": False},
    "act": {"action": True, "move_number": True},
    "back": {},
    "rematch": {},
    "ping": {},
}


class ProtocolError(Exception):
    """A message refused before it reached a table: ``code`` and the reason."""

    def __init__(self, code: str, message: str, ref: Any = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref


def check_table_id(value: Any) -> str:
    """A table id as the server makes them (URL-safe, 6..32 characters), or ProtocolError."""
    if not isinstance(value, str) or not _TABLE_ID.match(value):
        raise ProtocolError("bad_message", "table: a table id")
    return value


def _int(value: Any, lo: int, hi: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi


def parse_message(text: Any) -> Dict[str, Any]:
    """The message of a client's text frame, checked field by field (ProtocolError otherwise)."""
    if not isinstance(text, str):
        raise ProtocolError("bad_message", "messages are JSON text frames")
    if len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "not JSON") from None
    if not isinstance(msg, dict):
        raise ProtocolError("bad_message", "a message is a JSON object")
    ref = msg.get("ref")
    if ref is not None and not (isinstance(ref, str) and len(ref) <= 64) and not _int(ref, 0, 2**53):
        raise ProtocolError("bad_message", "ref: a string of up to 64 characters or a whole number")
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "type: a message names its type", ref)
    fields = _FIELDS.get(kind)
    if fields is None:
        raise ProtocolError("unknown_type", f"unknown message type {kind[:32]!r}: {', '.join(_FIELDS)}", ref)
    extra = set(msg) - set(fields) - {"type", "ref"}
    if extra:
        raise ProtocolError("bad_message", f"{kind}: unknown fields {', '.join(sorted(map(str, extra)))[:200]}", ref)
    missing = [k for k, required in fields.items() if required and k not in msg]
    if missing:
        raise ProtocolError("bad_message", f"{kind}: missing {', '.join(missing)}", ref)
    try:
        if kind == "join":
            check_table_id(msg["table"])
            has_seat, has_secret = msg.get("seat") is not None, msg.get("secret") is not None
            if has_seat != has_secret:
                raise ProtocolError("bad_message", "join: seat and secret go together (neither: a spectator)")
            if has_seat and not _int(msg["seat"], 0, 63):
                raise ProtocolError("bad_message", "join: seat is a seat number")
            if has_secret and (not isinstance(msg["secret"], str) or not _SECRET.match(msg["secret"])):
                raise ProtocolError("bad_secret", "join: that is not the seat's secret")
        elif kind == "act":
            a = msg["action"]
            if not (_int(a, 0, 1 << 20) or (isinstance(a, str) and _NOTATION.match(a))):
                raise ProtocolError("bad_message", "act: action is an action id or its notation (e.g. 7x2)")
            if not _int(msg["move_number"], 0, 10**7):
                raise ProtocolError("bad_message", "act: move_number is the position's number")
    except ProtocolError as exc:
        exc.ref = ref
        raise
    return msg


class TokenBucket:
    """A per-connection rate limit: ``burst`` messages at once, refilled at ``rate`` per second."""

    def __init__(self, rate: float, burst: float, clock=time.monotonic):
        self.rate, self.burst, self.clock = float(rate), float(burst), clock
        self.tokens = float(burst)
        self.stamp = clock()

    def take(self) -> bool:
        """True if a message may pass now (and counts it)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def retry_after(self) -> int:
        """Whole seconds until the next message may pass (at least 1)."""
        return max(1, int(math.ceil((1.0 - self.tokens) / self.rate)))

    def full(self) -> bool:
        """True when the bucket has refilled (its owner has been quiet)."""
        return self.tokens + (self.clock() - self.stamp) * self.rate >= self.burst


def error(code: str, message: str, ref: Optional[Any] = None) -> Dict[str, Any]:
    """An error reply."""
    return {"type": "error", "code": code, "message": message, "ref": ref}
