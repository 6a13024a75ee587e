"""``threes serve``: a multiplayer web table for every registered game.

The server holds the only true state and the engine does all rule work; each
client gets only what its seat may see (its observation: the SVG drawn for its
seat, the events through ``Event.view(seat)``, legal moves only for the seat
to move). Spectators get the public view (``threes.svg.render(state,
observer="public")``).

Modules:

* :mod:`threes.web.tables` -- tables, seats, secrets and games (no web code);
* :mod:`threes.web.protocol` -- validation of every message and request;
* :mod:`threes.web.views` -- what each viewer is sent (frames, SVG, narration);
* :mod:`threes.web.storage` -- SQLite: finished games, tables in progress;
* :mod:`threes.web.hub` -- connections, turn timers, bots, broadcasting (asyncio);
* :mod:`threes.web.app` -- the Starlette application (``create_app``);
* :mod:`threes.web.cli` -- ``threes serve``.

Only ``app`` and ``cli.cmd_serve`` need the ``[web]`` extra (Starlette, uvicorn,
websockets); importing this package does not.
"""

__all__ = ["tables", "protocol", "views", "storage", "hub", "app", "cli"]
