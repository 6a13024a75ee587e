"""The Starlette application of ``threes serve``: the page, a small JSON API and the websocket.

Routes:

* ``GET /``, ``GET /t/{table}``, ``GET /replay/{game}``: the page (``static/index.html``:
  the lobby, a table, a stored game's replay); ``/static/...`` its script and style. The
  page loads nothing from elsewhere and works offline.
* ``GET /api/meta``: the games, presets, rules, options and bots a table may have (per game, as the
  registry gives them: the lobby shows each game's own), with an ``example`` house rule of each.
* ``POST /api/tables``: create a table (JSON: ``game``, ``preset``, ``rules``, ``seats``,
  ``seed``, ``max_moves``; see :meth:`threes.web.tables.TableSpec.create`). The answer
  (201, once the table is durable) holds each person's seat secret, given out this once: the
  join links; and the seed only if the creator chose it. 429 over the address's limits (with
  ``Retry-After``), 503 when the server is full or cannot save.
* ``GET /api/tables``, ``GET /api/tables/{table}``: public summaries (no card, no secret).
* ``GET /api/games``, ``GET /api/games/{id}``: stored finished games (seed, rules, actions,
  result; one game's also its title, its seats' labels and its rules in words for the replay page); ``GET /api/games/{id}/replay?step=K&view=all|public|SEAT``: the game after K
  moves, drawn for that view, with the move's narration.
* ``WS /ws``: the protocol of :mod:`threes.web.protocol`.

Every ``/api`` route is under the address's request limit (429 with ``Retry-After``); numbers in
paths and queries are ASCII digits within bounds (:func:`threes.args.parse_count`): 400
``bad_request`` otherwise, 404 for a game id that is not one.
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
from threes.args import parse_count
from threes.web import views
from threes.web.hub import Client, Hub, RateLimited, Settings
from threes.web.protocol import MAX_MESSAGE_BYTES, MAX_REQUEST_BYTES
from threes.web.storage import Storage
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


def _err(code: str, message: str, status: int = 400, headers: Optional[Dict[str, str]] = None) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status, headers=headers)


def _meta() -> Dict[str, Any]:
    games = []
    for name in registry.names():
        info = registry.get(name)
        entry: Dict[str, Any] = {"name": name, "title": info.title, "bots": bot_specs(name)}
        hook = info.hook("web")
        if hook is not None:
            entry.update(hook.lobby(MAX_SEATS))  # presets, rules and max_players of the game's own
        else:
            entry["options"] = {o.name: o.describe() for o in info.options}  # the game's own declaration
            entry["max_players"] = min(MAX_SEATS, getattr(info.load(), "MAX_PLAYERS", MAX_SEATS))
        entry["example"] = _example(info, entry)
        games.append(entry)
    return {"games": games, "max_seats": MAX_SEATS, "max_seed": MAX_SEED, "max_message_bytes": MAX_MESSAGE_BYTES}


def _example(info: Any, entry: Dict[str, Any]) -> Optional[str]:
    """A house rule the lobby may suggest for the game (a NAME=VALUE line its tables accept): a yes/no
    rule of its first preset turned the other way, or one of its declared options set to a choice
    that is not its default."""
    presets = entry.get("presets")
    if presets:
        for name, value in next(iter(presets.values())).items():
            if isinstance(value, bool):
                return f"{name}={str(not value).lower()}"
    for o in info.options:
        if o.kind == "bool":
            return f"{o.name}={str(not o.default).lower()}"
        if o.kind == "choice":
            other = [c for c in o.choices if c != o.default]
            if other:
                return f"{o.name}={other[0]}"
    return None


def _addr(conn: Any) -> str:
    """The peer address of a request or websocket (the per-address limits' key)."""
    client = conn.client
    return client.host if client is not None and client.host else "unknown"


async def _body(request: Request) -> Any:
    length = request.headers.get("content-length")
    if length is not None:
        try:
            parse_count(length.strip(), "content-length", 0, MAX_REQUEST_BYTES)
        except ValueError:
            raise TableError("too_large", f"a request is at most {MAX_REQUEST_BYTES} bytes") from None
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_REQUEST_BYTES:
            raise TableError("too_large", f"a request is at most {MAX_REQUEST_BYTES} bytes")
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise TableError("bad_json", "the body is not JSON") from None


def create_app(settings: Settings, storage: Optional[Storage] = None) -> Starlette:
    """The application (a Starlette ASGI app) for ``settings``; its ``state.hub`` is the
    :class:`threes.web.hub.Hub`, started and stopped with the app's lifespan. ``storage``: an open
    :class:`threes.web.storage.Storage` of ``settings.db_path`` (``threes serve`` opens it first, so
    that a database in use is refused before the server listens); else the hub opens it."""
    hub_box: Dict[str, Hub] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        hub = Hub(settings, storage)
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

    def limited(handler: Any) -> Any:
        """An API route under the address's request limit (429 with Retry-After over it)."""

        async def guarded(request: Request) -> Response:
            wait = hub_of(request).limits.take(_addr(request), "request")
            if wait is not None:
                return _err("rate_limited", "too many requests from this address: slow down", 429,
                            {"retry-after": str(wait)})
            return await handler(request)

        return guarded

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
            spec = TableSpec.create(body.get("game", registry.default().name), body.get("preset"), body.get("rules"),
                                    body.get("seats"), body.get("seed"), body.get("max_moves"))
            out = await hub_of(request).create_table(spec, _addr(request))
        except RateLimited as exc:
            return _err(exc.code, exc.message, 429, {"retry-after": str(exc.retry_after)})
        except TableError as exc:
            return _err(exc.code, exc.message, 413 if exc.code == "too_large" else
                        503 if exc.code in ("overloaded", "storage") else 400)
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
        raw = request.query_params.get("limit")
        return 50 if raw is None else parse_count(raw, "limit", 1, 500)

    async def list_games(request: Request) -> Response:
        try:
            limit = _limit(request)
        except ValueError as exc:
            return _err("bad_request", str(exc))
        games = await asyncio.to_thread(hub_of(request).storage.games, limit)
        return JSONResponse({"games": games})

    async def _stored(request: Request) -> Optional[Dict[str, Any]]:
        try:
            game_id = parse_count(request.path_params["game"], "game", 1, 10**12)
        except ValueError:
            return None
        return await asyncio.to_thread(hub_of(request).storage.game, game_id)

    async def get_game(request: Request) -> Response:
        rec = await _stored(request)
        if rec is None:
            return _err("no_game", "no such stored game", 404)
        words = await asyncio.to_thread(views.record_words, rec)
        return JSONResponse({**rec, **words})

    async def replay(request: Request) -> Response:
        rec = await _stored(request)
        if rec is None:
            return _err("no_game", "no such stored game", 404)
        view = request.query_params.get("view", "all")
        try:
            step = parse_count(request.query_params.get("step", "0"), "step", 0, len(rec["actions"]))
            seat = None if view in ("all", "public") else parse_count(view, "view (all, public or a seat)", 0,
                                                                        rec["num_players"] - 1)
        except ValueError as exc:
            return _err("bad_request", str(exc))
        frame = await asyncio.to_thread(views.replay_frame, rec, step, seat, view == "all")
        return JSONResponse(frame)

    async def ws(websocket: WebSocket) -> None:
        hub: Hub = websocket.app.state.hub
        addr = _addr(websocket)
        await websocket.accept()
        if not hub.limits.connect(addr):
            with contextlib.suppress(Exception):
                await websocket.send_text(json.dumps({"type": "error", "code": "rate_limited", "ref": None,
                                                      "message": "too many connections from this address"}))
                await websocket.close(code=1013, reason="too many connections from this address")
            return
        client = Client(hub.settings, addr=addr)

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
            hub.limits.disconnect(addr)
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
        Route("/api/meta", limited(meta)),
        Route("/api/tables", limited(create_table), methods=["POST"]),
        Route("/api/tables", limited(list_tables), methods=["GET"]),
        Route("/api/tables/{table}", limited(get_table)),
        Route("/api/games", limited(list_games)),
        Route("/api/games/{game}", limited(get_game)),
        Route("/api/games/{game}/replay", limited(replay)),
        WebSocketRoute("/ws", ws),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(_SecurityHeaders)
    return app
