"""The Starlette application of ``threes serve``: the page, a small JSON API and the websocket.

Routes:

* ``GET /``, ``GET /t/{table}``, ``GET /replay/{game}``: the page (``static/index.html``:
  the lobby, a table, a stored game's replay); ``/static/...`` its script and style. The
  page loads nothing from elsewhere and works offline.
* ``GET /api/meta``: the games, presets, rules, options and bots a table may have.
* ``POST /api/tables``: create a table (JSON: ``game``, ``preset``, ``rules``, ``seats``,
  ``seed``, ``max_moves``; see :meth:`threes.web.tables.TableSpec.create`). The answer
  holds each person's seat secret, given out this once: the join links.
* ``GET /api/tables``, ``GET /api/tables/{table}``: public summaries (no card, no secret).
* ``GET /api/games``, ``GET /api/games/{id}``: stored finished games (seed, rules, actions,
  result); ``GET /api/games/{id}/replay?step=K&view=all|public|SEAT``: the game after K
  moves, drawn for that view, with the move's narration.
* ``WS /ws``: the protocol of :mod:`threes.web.protocol`.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
from typing import Any, Dict, Optional

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from threes import registry
from threes.web import views
from threes.web.hub import Client, Hub, Settings
from threes.web.protocol import MAX_MESSAGE_BYTES, MAX_REQUEST_BYTES
from threes.web.tables import MAX_SEATS, MAX_SEED, TableError, TableSpec, bot_specs

__all__ = ["create_app", "Settings"]

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                                 b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class _SecurityHeaders:
    """Adds the security headers to every HTTP response (pure ASGI middleware)."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = list(message.get("headers", [])) + _HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _err(code: str, message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def _meta() -> Dict[str, Any]:
    from threes.shithead.rules import _FIELD_DOCS, PRESETS, Rules

    games = []
    for name in registry.names():
        info = registry.get(name)
        entry: Dict[str, Any] = {"name": name, "title": info.title, "bots": bot_specs(name)}
        if name == "shithead":
            entry["presets"] = {p: Rules.preset(p).to_dict() for p in PRESETS}
            entry["rules"] = dict(_FIELD_DOCS)
            entry["max_players"] = {p: min(MAX_SEATS, Rules.preset(p).max_players()) for p in PRESETS}
        else:
            entry["options"] = {"decks": "decks shuffled together (default: one per two players)",
                                "jokers": "jokers per deck (default 0)", "ace": "low or either (default low)",
                                "all_wild_melds": "true or false (default true)",
                                "wild_penalty": "face or 20 (default face)",
                                "rediscard_taken": "true or false (default false)",
                                "go_out_first_turn": "true or false (default true)"}
            entry["max_players"] = MAX_SEATS
        games.append(entry)
    return {"games": games, "max_seats": MAX_SEATS, "max_seed": MAX_SEED, "max_message_bytes": MAX_MESSAGE_BYTES}


async def _body(request: Request) -> Any:
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_REQUEST_BYTES):
        raise TableError("too_large", f"a request is at most {MAX_REQUEST_BYTES} bytes")
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_REQUEST_BYTES:
            raise TableError("too_large", f"a request is at most {MAX_REQUEST_BYTES} bytes")
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise TableError("bad_json", "the body is not JSON") from None


def create_app(settings: Settings) -> Starlette:
    """The application (a Starlette ASGI app) for ``settings``; its ``state.hub`` is the
    :class:`threes.web.hub.Hub`, started and stopped with the app's lifespan."""
    hub_box: Dict[str, Hub] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        hub = Hub(settings)
        hub_box["hub"] = hub
        app.state.hub = hub
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    def hub_of(request: Any) -> Hub:
        return request.app.state.hub

    async def page(request: Request) -> Response:
        return FileResponse(os.path.join(STATIC, "index.html"), media_type="text/html; charset=utf-8",
                            headers={"cache-control": "no-store"})

    async def meta(request: Request) -> Response:
        return JSONResponse(_meta())

    async def create_table(request: Request) -> Response:
        try:
            body = await _body(request)
            if not isinstance(body, dict):
                raise TableError("bad_message", "a table is a JSON object")
            extra = set(body) - {"game", "preset", "rules", "seats", "seed", "max_moves"}
            if extra:
                raise TableError("bad_message", f"unknown fields: {', '.join(sorted(map(str, extra)))[:200]}")
            spec = TableSpec.create(body.get("game", "shithead"), body.get("preset"), body.get("rules"),
                                    body.get("seats"), body.get("seed"), body.get("max_moves"))
            out = hub_of(request).create_table(spec)
        except TableError as exc:
            return _err(exc.code, exc.message, 413 if exc.code == "too_large" else
                        503 if exc.code == "overloaded" else 400)
        return JSONResponse(out, status_code=201, headers={"cache-control": "no-store"})

    async def list_tables(request: Request) -> Response:
        hub = hub_of(request)
        return JSONResponse({"tables": [t.summary() for t in list(hub.tables.values())[-200:]]})

    async def get_table(request: Request) -> Response:
        t = hub_of(request).tables.get(request.path_params["table"])
        if t is None:
            return _err("no_table", "no such table", 404)
        return JSONResponse(t.summary())

    def _limit(request: Request) -> int:
        raw = request.query_params.get("limit", "50")
        return max(1, min(500, int(raw))) if raw.isdigit() else 50

    async def list_games(request: Request) -> Response:
        return JSONResponse({"games": hub_of(request).storage.games(_limit(request))})

    def _stored(request: Request) -> Optional[Dict[str, Any]]:
        raw = request.path_params["game"]
        if not raw.isdigit() or len(raw) > 12:
            return None
        return hub_of(request).storage.game(int(raw))

    async def get_game(request: Request) -> Response:
        rec = _stored(request)
        if rec is None:
            return _err("no_game", "no such stored game", 404)
        return JSONResponse(rec)

    async def replay(request: Request) -> Response:
        rec = _stored(request)
        if rec is None:
            return _err("no_game", "no such stored game", 404)
        raw_step = request.query_params.get("step", "0")
        view = request.query_params.get("view", "all")
        if not raw_step.isdigit() or len(raw_step) > 7:
            return _err("bad_message", "step: a move number")
        if view not in ("all", "public") and not (view.isdigit() and int(view) < rec["num_players"]):
            return _err("bad_message", "view: all, public or a seat")
        seat = int(view) if view.isdigit() else None
        frame = await asyncio.to_thread(views.replay_frame, rec, int(raw_step), seat, view == "all")
        return JSONResponse(frame)

    async def ws(websocket: WebSocket) -> None:
        hub: Hub = websocket.app.state.hub
        await websocket.accept()
        client = Client(hub.settings)

        async def writer() -> None:
            while True:
                text = await client.queue.get()
                if text is None:
                    with contextlib.suppress(Exception):
                        await websocket.close(code=1013, reason="too far behind: reconnect")
                    return
                try:
                    await websocket.send_text(text)
                except Exception:  # the client went away: the reader sees it too
                    return

        task = asyncio.get_running_loop().create_task(writer())
        try:
            while not client.closed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                hub.handle(client, message.get("text") if message.get("text") is not None else message.get("bytes"))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            hub.disconnect(client)
            if not task.done():
                # let the writer send what is queued (an error reply, say) before it stops
                client.queue.put_nowait(None) if not client.queue.full() else None
                with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError, Exception):
                    await asyncio.wait_for(task, 1.0)
                task.cancel()

    routes = [
        Route("/", page),
        Route("/t/{table}", page),
        Route("/replay/{game}", page),
        Route("/api/meta", meta),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables/{table}", get_table),
        Route("/api/games", list_games),
        Route("/api/games/{game}", get_game),
        Route("/api/games/{game}/replay", replay),
        WebSocketRoute("/ws", ws),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(_SecurityHeaders)
    return app
