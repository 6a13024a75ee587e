"""``threes serve``: the multiplayer web table (the ``[web]`` extra: Starlette, uvicorn, websockets).

``add_arguments`` and ``cmd_serve`` are what ``threes.ui.cli`` registers; nothing here imports
the web stack until the server starts, so ``threes`` works without the extra and ``threes serve``
then says how to install it (exit status 2)::

    threes serve [--host 127.0.0.1] [--port 8000] [--db PATH] [--turn-timeout SECONDS]
                 [--bot-delay SECONDS] [--standin-bot SPEC] [--rate PER_SECOND] [--burst N]
                 [--max-tables N] [--unjoined-ttl SECONDS] [--address-creates PER_MINUTE]
                 [--address-tables N] [--address-joins PER_MINUTE] [--address-connections N]
                 [--address-rate PER_SECOND] [--address-requests PER_SECOND]
    threes serve --db PATH --backup FILE     # an online backup of the database, then exit
    threes serve --db PATH --status          # the tables by state (and any kept aside), then exit

It prints the address to open (``--port 0`` takes a free port, and the printed address names it).
A second server on the same ``--db`` is refused (exit status 2).
"""
from __future__ import annotations

import argparse
import math
import signal
import socket
import sys
from typing import Any, Optional, Sequence

from threes.errors import needs_extra

__all__ = ["add_arguments", "cmd_serve", "main", "ws_implementation"]

_INSTALL = needs_extra("threes serve", "web")


# the per-address limits (threes.web.hub.Settings): flag, type, default, metavar, what it limits
_ADDRESS_LIMITS = (
    ("--address-creates", "positive", 10.0, "PER_MINUTE", "tables one address may create per minute, and at once"),
    ("--address-tables", "count", 20, "N", "tables one address may hold that are not finished"),
    ("--address-joins", "positive", 120.0, "PER_MINUTE", "joins one address may make per minute"),
    ("--address-connections", "count", 64, "N", "websockets one address may hold open"),
    ("--address-rate", "positive", 100.0, "PER_SECOND",
     "messages one address may send per second over all its connections"),
    ("--address-requests", "positive", 50.0, "PER_SECOND", "API requests one address may make per second"),
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``threes serve``."""
    from threes.web.storage import default_db_path

    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 opens it to the network)")
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000; 0: any free port)")
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
    p.add_argument("--max-tables", type=_count, default=500, metavar="N", help="tables at once (default 500)")
    p.add_argument("--unjoined-ttl", type=_seconds, default=300.0, metavar="SECONDS",
                   help="a table none of whose people has joined is closed after this long (default 300)")
    for flag, kind, default, metavar, text in _ADDRESS_LIMITS:
        p.add_argument(flag, type={"positive": _positive, "count": _count}[kind], default=default, metavar=metavar, help=f"{text} (default {default:g})")
    p.add_argument("--backup", default=None, metavar="FILE",
                   help="write an online backup of the database to FILE (a new file) and exit; safe while a "
                        "server runs")
    p.add_argument("--status", action="store_true",
                   help="print the database's tables by state (and any kept aside, with why) and exit")


def _number(text: str, kind: type, lo: float, hi: float) -> Any:
    try:
        v = kind(text)
    except (TypeError, ValueError):
        raise argparse.ArgumentTypeError(f"a number in {lo:g}..{hi:g}, not {text!r}") from None
    if not (math.isfinite(v) and lo <= v <= hi):
        raise argparse.ArgumentTypeError(f"a number in {lo:g}..{hi:g}, not {text!r}")
    return v


def _count(text: str) -> int:
    from threes.args import parse_count

    try:
        return parse_count(text.strip(), "N", 1, 10**9)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _seconds(text: str) -> float:
    return _number(text, float, 0.0, 86400.0 * 365)


def _positive(text: str) -> float:
    return _number(text, float, 0.001, 1e9)


def _port(text: str) -> int:
    from threes.args import parse_count

    try:
        return parse_count(text.strip(), "--port", 0, 65535)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


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
    from threes import registry
    from threes.bots import make_bot

    try:
        for game in registry.names():
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
    from threes.web.storage import DatabaseInUse, Storage, backup, default_db_path, status_report

    db = args.db or default_db_path()
    if args.backup is not None or args.status:
        try:
            if args.status:
                print(status_report(db))
            if args.backup is not None:
                n = backup(db, args.backup)
                print(f"threes serve: {db} backed up to {args.backup} ({n} finished games)")
        except (OSError, ValueError, RuntimeError, Exception) as exc:
            return _fail(f"--db {db}: {exc}")
        return 0
    if hasattr(signal, "SIGXFSZ"):
        # past a file-size limit, writes fail (EFBIG) and storage says so, instead of the process dying
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    try:
        storage = Storage(db)  # held until the server stops: a second server on this --db is refused
    except DatabaseInUse as exc:
        return _fail(str(exc))
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
        storage.close()
        return _fail(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}")
    port = sock.getsockname()[1]
    settings = Settings(db_path=db, turn_timeout=args.turn_timeout, bot_delay=args.bot_delay, rate=args.rate,
                        burst=args.burst, standin_bot=args.standin_bot, max_tables=args.max_tables,
                        unjoined_ttl=args.unjoined_ttl,
                        **{flag[2:].replace("-", "_"): getattr(args, flag[2:].replace("-", "_"))
                           for flag, *_ in _ADDRESS_LIMITS})
    app = create_app(settings, storage)
    shown = f"[{args.host}]" if family == socket.AF_INET6 else args.host
    if args.host in ("0.0.0.0", "::"):
        shown = "127.0.0.1"
    print(f"threes serve: open http://{shown}:{port}/ in a browser (games are stored in {db}; Ctrl-C stops)",
          flush=True)
    config = uvicorn.Config(app, log_level="warning", ws=ws_implementation(), ws_max_size=65536, ws_ping_interval=20,
                            proxy_headers=False,  # the per-address limits key on the real peer, never on a header
                            ws_ping_timeout=20, lifespan="on")
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
        storage.close()  # a no-op when the app's lifespan closed it
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m threes.web.cli``: the same as ``threes serve``."""
    p = argparse.ArgumentParser(prog="threes serve", description="a multiplayer web table")
    add_arguments(p)
    return cmd_serve(p.parse_args(argv))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
