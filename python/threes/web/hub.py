"""The running server without the web framework: connections, tables, turn timers, bots and
broadcasting, in one asyncio event loop.

A :class:`Client` is one connection (a websocket in :mod:`threes.web.app`): the hub gives it
text frames through its bounded queue, and the app's writer sends them. Every message a client
sends goes through :meth:`Hub.handle`: it is rate-limited (a token bucket per connection),
validated (:func:`threes.web.protocol.parse_message`) and then handed to its table; a refused
message gets an ``error`` reply and changes nothing.

After every move the hub sends each viewer of the table its own frame (one frame per distinct
viewer, encoded once and shared by that viewer's connections), stores the move, and then either
starts the turn timer of the person to move or lets the bot to move play (after ``bot_delay``
seconds). When the timer runs out the seat is marked away and the stand-in bot plays it until
the person acts, says ``back`` or reconnects. Finished games are stored at once.
"""
from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Set

from threes.bots import PolicyBot
from threes.web import views
from threes.web.protocol import ProtocolError, TokenBucket, error, parse_message
from threes.web.storage import Storage
from threes.web.tables import MoveRecord, Table, TableError, TableSpec

__all__ = ["Settings", "Client", "Hub"]

_log = logging.getLogger("threes.web")


@dataclass
class Settings:
    """The server's settings (``threes serve`` options)."""

    db_path: str
    turn_timeout: float = 60.0      #: seconds a person may stay silent on its turn (0: no timer)
    bot_delay: float = 0.6          #: seconds a bot waits before it moves (people can follow)
    rate: float = 20.0              #: messages per second a connection may send ...
    burst: float = 40.0             #: ... and at once
    standin_bot: str = "greedy"     #: the bot that plays for a person who is away
    max_tables: int = 500           #: tables at once
    send_queue: int = 1024          #: frames waiting for a slow connection before it is dropped
    flush_interval: float = 0.5     #: seconds between writes of the moves in progress
    idle_seconds: float = 3600.0    #: a finished table nobody watches is closed after this long


class Client:
    """One connection: its queue of outgoing text frames, its rate limit and what it joined."""

    def __init__(self, settings: Settings, close: Optional[Callable[[], None]] = None):
        self.queue: "asyncio.Queue[Optional[str]]" = asyncio.Queue(maxsize=settings.send_queue + 1)
        self.bucket = TokenBucket(settings.rate, settings.burst)
        self.table: Optional[Table] = None
        self.seat: Optional[int] = None
        self.joined = False
        self.closed = False
        self._close = close

    def push(self, text: str) -> None:
        """Queues a frame; a connection that falls too far behind is closed (it may reconnect)."""
        if self.closed:
            return
        if self.queue.qsize() >= self.queue.maxsize - 1:
            self.closed = True
            self.queue.put_nowait(None)
            if self._close is not None:
                self._close()
            return
        self.queue.put_nowait(text)

    def send(self, msg: Dict[str, Any]) -> None:
        """Queues a message (a dict, encoded here)."""
        self.push(json.dumps(msg, separators=(",", ":")))


class Hub:
    """Every table of the server and its connections."""

    def __init__(self, settings: Settings, storage: Optional[Storage] = None):
        self.settings = settings
        self.storage = storage if storage is not None else Storage(settings.db_path)
        self.tables: Dict[str, Table] = {}
        self.clients: Dict[str, Set[Client]] = {}
        self._timers: Dict[str, asyncio.TimerHandle] = {}
        self._thinking: Dict[str, asyncio.Task] = {}
        self._tasks: List[asyncio.Task] = []
        self.errors = 0          # error replies sent
        self.moves = 0           # moves applied

    # -- life -------------------------------------------------------------------------
    async def start(self) -> None:
        """Restores the tables in progress from the database and starts the periodic work."""
        for row in self.storage.live_tables():
            try:
                spec = TableSpec.from_dict(row["spec"])
                table = Table(row["table_id"], spec, row["secret_hashes"], self.settings.standin_bot,
                              game_number=row["game_number"], seed=row["seed"], created_at=row["created_at"])
                table.replay_to(row["actions"], row["movers"])
            except Exception:  # a row this version cannot read: keep it, do not serve it
                continue
            self.tables[table.id] = table
            self.clients[table.id] = set()
            if table.over and not any(g["game_number"] == table.game_number for g in self.storage.games(500, table.id)):
                self.storage.save_game(table.record())  # finished just before a stop
            self._schedule(table)
        self._tasks.append(asyncio.get_running_loop().create_task(self._periodic()))

    async def stop(self) -> None:
        """Stops the timers and bots and writes everything pending."""
        for t in self._tasks:
            t.cancel()
        for h in self._timers.values():
            h.cancel()
        for t in self._thinking.values():
            t.cancel()
        self._timers.clear()
        self._thinking.clear()
        self.storage.close()

    async def _periodic(self) -> None:
        while True:
            await asyncio.sleep(self.settings.flush_interval)
            try:
                self.storage.flush()
                now = time.time()
                for tid, table in list(self.tables.items()):
                    if table.over and not self.clients.get(tid) and now - table.updated_at > self.settings.idle_seconds:
                        self._close_table(tid)
            except Exception:  # e.g. a full disk: keep serving, say so, try again
                _log.exception("writing the tables in progress failed")

    def _close_table(self, tid: str) -> None:
        self.tables.pop(tid, None)
        self.clients.pop(tid, None)
        h = self._timers.pop(tid, None)
        if h is not None:
            h.cancel()
        self.storage.drop_table(tid)

    # -- tables -----------------------------------------------------------------------
    def create_table(self, spec: TableSpec) -> Dict[str, Any]:
        """A new table: its public summary, with each person's seat secret (given out here only)."""
        if len(self.tables) >= self.settings.max_tables:
            raise TableError("overloaded", f"the server holds {self.settings.max_tables} tables already")
        tid = secrets.token_urlsafe(12)
        table, plain = Table.create(tid, spec, self.settings.standin_bot)
        self.tables[tid] = table
        self.clients[tid] = set()
        self.storage.save_table(tid, spec.to_dict(), [s.secret_hash for s in table.seats], table.game_number,
                                table.seed, table.created_at)
        self._schedule(table)
        out = table.summary()
        out["secrets"] = plain
        out["seed"] = spec.seed  # the creator chose it or is shown it; players see it at the end
        return out

    # -- connections ------------------------------------------------------------------
    def disconnect(self, client: Client) -> None:
        """A connection closed: the table goes on; the seat shows as disconnected."""
        client.closed = True
        table = client.table
        if table is None:
            return
        group = self.clients.get(table.id)
        if group is not None:
            group.discard(client)
        if client.seat is not None:
            table.seats[client.seat].connections -= 1
            self._send_seats(table)

    def handle(self, client: Client, text: Any) -> None:
        """One message from a client; every refusal is an ``error`` reply and changes nothing."""
        ref = None
        try:
            if not client.bucket.take():
                raise ProtocolError("rate_limited", "too many messages: slow down")
            msg = parse_message(text)
            ref = msg.get("ref")
            getattr(self, "_on_" + msg["type"])(client, msg)
        except ProtocolError as exc:
            self.errors += 1
            client.send(error(exc.code, exc.message, exc.ref))
        except TableError as exc:
            self.errors += 1
            client.send(error(exc.code, exc.message, ref))
        except Exception:  # a bug must not take the connection or the table down with it
            self.errors += 1
            _log.exception("a message failed")
            client.send(error("internal", "the server failed on this message; nothing changed", ref))

    def _on_ping(self, client: Client, msg: Dict[str, Any]) -> None:
        client.send({"type": "pong", "ref": msg.get("ref")})

    def _on_join(self, client: Client, msg: Dict[str, Any]) -> None:
        if client.joined:
            raise ProtocolError("already_joined", "this connection has joined a table already")
        table = self.tables.get(msg["table"])
        if table is None:
            raise ProtocolError("no_table", "no such table (it may have closed)")
        seat = msg.get("seat")
        if seat is not None and not table.check_secret(seat, msg.get("secret")):
            raise ProtocolError("bad_secret", "that is not the seat's secret")
        client.table, client.seat, client.joined = table, seat, True
        self.clients[table.id].add(client)
        back = False
        if seat is not None:
            table.seats[seat].connections += 1
            back = table.come_back(seat)  # a reconnection gives the seat back from the stand-in bot
        client.send({"type": "welcome", "ref": msg.get("ref"), "table": table.id, "seat": seat,
                     "role": "player" if seat is not None else "spectator", "summary": table.summary()})
        client.send(views.state_frame(table, seat, history=True))
        if back:
            self._schedule(table)
        self._send_seats(table)

    def _seated(self, client: Client) -> Table:
        if not client.joined or client.table is None:
            raise ProtocolError("not_joined", "join a table first")
        if client.seat is None:
            raise ProtocolError("spectator", "spectators watch; they do not act")
        if self.tables.get(client.table.id) is not client.table:
            raise ProtocolError("no_table", "the table has closed")
        return client.table

    def _on_act(self, client: Client, msg: Dict[str, Any]) -> None:
        table = self._seated(client)
        rec = table.act(client.seat, msg["action"], msg["move_number"])
        self._moved(table, [rec])

    def _on_back(self, client: Client, msg: Dict[str, Any]) -> None:
        table = self._seated(client)
        if table.come_back(client.seat):
            self._schedule(table)
            self._send_seats(table)

    def _on_rematch(self, client: Client, msg: Dict[str, Any]) -> None:
        table = self._seated(client)
        if not table.over:
            raise TableError("not_over", "the game is still on")
        table.new_game()
        self.storage.save_table(table.id, table.spec.to_dict(), [s.secret_hash for s in table.seats],
                                table.game_number, table.seed, table.created_at)
        self._broadcast(table, [])
        self._schedule(table)

    # -- after a move -----------------------------------------------------------------
    def _moved(self, table: Table, records: List[MoveRecord]) -> None:
        self.moves += len(records)
        for rec in records:
            self.storage.add_move(table.id, table.game_number, rec.n, rec.action, rec.by)
        if table.over:
            self.storage.save_game(table.record())
        self._broadcast(table, records)
        self._schedule(table)

    def _broadcast(self, table: Table, records: List[MoveRecord]) -> None:
        groups: Dict[Optional[int], List[Client]] = {}
        for c in self.clients.get(table.id, ()):
            groups.setdefault(c.seat, []).append(c)
        for viewer, members in groups.items():
            text = json.dumps(views.state_frame(table, viewer, records), separators=(",", ":"))
            for c in members:
                c.push(text)

    def _send_seats(self, table: Table) -> None:
        text = json.dumps({"type": "seats", "table": table.id, "seats": [s.public() for s in table.seats]},
                          separators=(",", ":"))
        for c in self.clients.get(table.id, ()):
            c.push(text)

    # -- timers and bots ----------------------------------------------------------------
    def _schedule(self, table: Table) -> None:
        """After any change: the bot to move plays after bot_delay, or the person to move's turn
        timer starts (``turn_timeout``; none when 0)."""
        old = self._timers.pop(table.id, None)
        if old is not None:
            old.cancel()
        if table.over or table.id in self._thinking:
            return
        q = table.to_move()
        loop = asyncio.get_running_loop()
        key = (table.game_number, table.move_number)
        if table.seats[q].driven_by_bot:
            self._timers[table.id] = loop.call_later(self.settings.bot_delay, self._bot_turn, table, key)
        elif self.settings.turn_timeout > 0:
            self._timers[table.id] = loop.call_later(self.settings.turn_timeout, self._timed_out, table, key)

    def _current(self, table: Table, key: Any) -> bool:
        return self.tables.get(table.id) is table and (table.game_number, table.move_number) == key \
            and not table.over

    def _timed_out(self, table: Table, key: Any) -> None:
        self._timers.pop(table.id, None)
        if not self._current(table, key):
            return
        table.set_away(table.to_move())
        self._send_seats(table)
        self._schedule(table)

    def _bot_turn(self, table: Table, key: Any) -> None:
        self._timers.pop(table.id, None)
        if not self._current(table, key):
            return
        q = table.bot_to_move()
        if q is None:
            return
        bot, view, cheap = table.bot_view(q)
        if cheap:
            self._bot_moved(table, key, q, bot.step(view))
            return

        async def think() -> None:
            try:
                action = await asyncio.to_thread(bot.step, view)
            except Exception:  # a failing bot must not stop the table: the C greedy policy moves instead
                _log.exception("bot %s failed at table %s", getattr(bot, "name", bot), table.id)
                action = PolicyBot("greedy", seed=key[1]).step(table.state) if self._current(table, key) else -1
            finally:
                self._thinking.pop(table.id, None)
            self._bot_moved(table, key, q, action)

        self._thinking[table.id] = asyncio.get_running_loop().create_task(think())

    def _bot_moved(self, table: Table, key: Any, q: int, action: int) -> None:
        if not self._current(table, key) or table.bot_to_move() != q:
            self._schedule(table)  # a person came back and moved first
            return
        self._moved(table, [table.bot_move(q, int(action))])
