"""``threes serve``: the multiplayer web table (the ``[web]`` extra: Starlette, uvicorn, websockets).

``add_arguments`` and ``cmd_serve`` are what ``threes.ui.cli`` registers; nothing here imports
the web stack until the server starts, so ``threes`` works without the extra and ``threes serve``
then says how to install it (exit status 2)::

    threes serve [--host 127.0.0.1] [--port 8000] [--db PATH] [--turn-timeout SECONDS]
                 [--bot-delay SECONDS] [--standin-bot SPEC] [--rate PER_SECOND] [--burst N]
                 [--max-tables N]

It prints the address to open (``--port 0`` takes a free port, and the printed address names it).
"""
from __future__ import annotations

import argparse
import math
import socket
import sys
from typing import Any, Optional, Sequence

__all__ = ["add_arguments", "cmd_serve", "main", "ws_implementation"]

_INSTALL = "threes serve needs the web extra: pip install 'threes-core[web]' (or pip install \".[web]\" in a checkout)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``threes serve``."""
    from threes.web.storage import default_db_path

    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 opens it to the network)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free port)")
    p.add_argument("--db", default=None, metavar="PATH",
                   help=f"the SQLite file of stored games, created on first use (default {default_db_path()})")
    p.add_argument("--turn-timeout", type=float, default=60.0, metavar="SECONDS",
                   help="a person silent this long on their turn is played by a bot until they are back (default 60; "
                        "0: wait forever)")
    p.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS",
                   help="a bot waits this long before it moves, so people can follow (default 0.6)")
    p.add_argument("--standin-bot", default="greedy", metavar="SPEC",
                   help="the bot that plays for a person who is away (default greedy)")
    p.add_argument("--rate", type=float, default=20.0, metavar="PER_SECOND",
                   help="messages a connection may send per second (default 20) ...")
    p.add_argument("--burst", type=float, default=40.0, metavar="N", help="... and at once (default 40)")
    p.add_argument("--max-tables", type=int, default=500, metavar="N", help="tables at once (default 500)")


def _fail(message: str) -> int:
    print(f"threes: error: {message}", file=sys.stderr)
    return 2


def _check(args: argparse.Namespace) -> Optional[str]:
    if not 0 <= args.port <= 65535:
        return f"--port must be in 0..65535, not {args.port}"
    for name in ("turn_timeout", "bot_delay"):
        v = getattr(args, name)
        if not (math.isfinite(v) and 0 <= v <= 86400):
            return f"--{name.replace('_', '-')} must be a number of seconds in 0..86400, not {v}"
    if not (math.isfinite(args.rate) and args.rate > 0) or not (math.isfinite(args.burst) and args.burst >= 1):
        return "--rate must be > 0 and --burst at least 1"
    if args.max_tables < 1:
        return "--max-tables must be at least 1"
    from threes.bots import make_bot

    try:
        for game in ("shithead", "three_thirteen"):
            make_bot(args.standin_bot, seed=0, game=game)
    except (TypeError, ValueError) as exc:
        return f"--standin-bot: {exc}"
    return None


def ws_implementation() -> str:
    """uvicorn's websocket implementation on the websockets package: ``websockets-sansio`` where
    this uvicorn has it (0.35 and later), else ``websockets``."""
    import uvicorn.config

    return "websockets-sansio" if "websockets-sansio" in getattr(uvicorn.config, "WS_PROTOCOLS", {}) else "websockets"


def cmd_serve(args: argparse.Namespace, con: Any = None) -> int:
    """Runs the server until interrupted (Ctrl-C); 2 for bad options or a missing extra."""
    try:
        import starlette  # noqa: F401
        import uvicorn
        import websockets  # noqa: F401
    except ImportError:
        return _fail(_INSTALL)
    problem = _check(args)
    if problem:
        return _fail(problem)
    from threes.web.app import Settings, create_app
    from threes.web.storage import Storage, default_db_path

    db = args.db or default_db_path()
    try:
        Storage(db).close()  # created on first use, with its schema; a bad path fails here, not later
    except Exception as exc:
        return _fail(f"--db {db}: {exc}")
    try:
        family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # proto TCP: asyncio sets TCP_NODELAY
        # on the accepted connections only then (Nagle and delayed ACKs would hold frames 40 ms)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((args.host, args.port))
        sock.listen(256)
    except OSError as exc:
        return _fail(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}")
    port = sock.getsockname()[1]
    settings = Settings(db_path=db, turn_timeout=args.turn_timeout, bot_delay=args.bot_delay, rate=args.rate,
                        burst=args.burst, standin_bot=args.standin_bot, max_tables=args.max_tables)
    app = create_app(settings)
    shown = f"[{args.host}]" if family == socket.AF_INET6 else args.host
    if args.host in ("0.0.0.0", "::"):
        shown = "127.0.0.1"
    print(f"threes serve: open http://{shown}:{port}/ in a browser (games are stored in {db}; Ctrl-C stops)",
          flush=True)
    config = uvicorn.Config(app, log_level="warning", ws=ws_implementation(), ws_max_size=65536, ws_ping_interval=20,
                            ws_ping_timeout=20, lifespan="on")
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m threes.web.cli``: the same as ``threes serve``."""
    p = argparse.ArgumentParser(prog="threes serve", description="a multiplayer web table")
    add_arguments(p)
    return cmd_serve(p.parse_args(argv))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
