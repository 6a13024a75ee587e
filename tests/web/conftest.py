"""Fixtures of the web table's tests (threes serve): the app under Starlette's TestClient, one
database per test (tmp_path), and websocket receives bounded in time."""
from __future__ import annotations

import contextlib
import importlib.util
import json
from typing import Any, Callable, Dict, List, Optional

import pytest

# tests/web need the web stack of the test extra (Starlette, uvicorn, websockets, Playwright); a
# runner that installs only the core's test requirements (cibuildwheel's, pyproject.toml) does
# not collect them. .ci/run installs the whole test extra and checks these import.
_WEB_STACK = ("starlette", "uvicorn", "websockets", "playwright", "anyio")
if not all(importlib.util.find_spec(m) for m in _WEB_STACK):  # pragma: no cover
    collect_ignore_glob = ["test_*.py"]
else:
    import anyio
    from starlette.testclient import TestClient

    from threes.web.app import Settings, create_app
    from web_support import LOOSE_ADDRESS_LIMITS


@pytest.fixture
def make_client(tmp_path):
    """``make_client(**settings)``: a started TestClient of a new app (bots move at once, no
    turn timer and a loose rate limit unless the settings say otherwise) with its own database file."""
    made: List[Any] = []

    def make(**settings: Any) -> "TestClient":
        settings.setdefault("bot_delay", 0.0)
        settings.setdefault("turn_timeout", 0.0)
        settings.setdefault("rate", 1000.0)  # scripted players are fast; test_rate_limit sets its own
        settings.setdefault("burst", 1000.0)
        # every TestClient comes from one address ("testclient"): loose per-address limits unless a
        # test of those limits sets its own
        for name, loose in LOOSE_ADDRESS_LIMITS.items():
            settings.setdefault(name, loose)
        db = str(tmp_path / f"games{len(made)}.sqlite3")
        client = TestClient(create_app(Settings(db_path=db, **settings)))
        client.__enter__()
        client.db_path = db
        client.sessions = []
        connect = client.websocket_connect

        def websocket_connect(*args: Any, **kwargs: Any) -> Any:
            session = connect(*args, **kwargs)
            client.sessions.append(session)
            return session

        client.websocket_connect = websocket_connect
        made.append(client)
        return client

    yield make
    for c in reversed(made):
        # a failed test may leave connections open: leave them first (``__exit__`` closes the
        # socket and cancels the session's task, which otherwise waits forever after the app
        # returns, and TestClient.__exit__ would wait for it; a second __exit__ does nothing)
        for session in c.sessions:
            if getattr(session, "exit_stack", None) is not None:
                with contextlib.suppress(Exception):
                    session.__exit__(None, None, None)
        with contextlib.suppress(RuntimeError):
            c.__exit__(None, None, None)


def recv(ws: Any, timeout: float = 20.0) -> Dict[str, Any]:
    """The next message of a TestClient websocket, within ``timeout`` seconds (else TimeoutError)."""

    async def receive() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(receive)
    if message["type"] == "websocket.close":
        raise ConnectionError(f"closed: {message.get('code')}")
    return json.loads(message["text"])


def recv_until(ws: Any, pred: Callable[[Dict[str, Any]], bool], limit: int = 5000,
               seen: Optional[List[Dict[str, Any]]] = None) -> Dict[str, Any]:
    """Receives until a message satisfies ``pred`` (at most ``limit`` messages); the messages go
    to ``seen`` when given."""
    for _ in range(limit):
        msg = recv(ws)
        if seen is not None:
            seen.append(msg)
        if pred(msg):
            return msg
    raise AssertionError("no such message")


def send(ws: Any, msg: Any) -> None:
    ws.send_text(msg if isinstance(msg, str) else json.dumps(msg))


def create_table(client: Any, **body: Any) -> Dict[str, Any]:
    body.setdefault("game", "shithead")
    body.setdefault("seats", [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}])
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()
