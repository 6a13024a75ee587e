"""The running server without the web framework: connections, tables, turn timers, bots and
broadcasting, in one asyncio event loop.

A :class:`Client` is one connection (a websocket in :mod:`threes.web.app`): the hub gives it
text frames through its bounded queue, and the app's writer sends them. Every message a client
sends goes through :meth:`Hub.handle`: it is rate-limited (a token bucket per connection),
validated (:func:`threes.web.protocol.parse_message`) and then handed to its table; a refused
message gets an ``error`` reply and changes nothing.

After every move the hub hands the move (and a finished game's record, in the same write) to
storage; once it is durable it sends each viewer of the table its own frame (one frame per distinct
viewer, encoded once and shared by that viewer's connections), and then either starts the turn timer
of the person to move or lets the bot to move play (after ``bot_delay`` seconds). When the timer runs
out the seat is marked away and the stand-in bot plays it until the person acts, says ``back`` or
reconnects. Per-address limits (:class:`AddressLimits`) keep one client from taking the server from
the others.
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

__all__ = ["Settings", "Client", "Hub", "AddressLimits", "RateLimited"]


class RateLimited(TableError):
    """A request over one of the address's limits (HTTP 429, with ``retry_after`` seconds)."""

    def __init__(self, message: str, retry_after: int):
        super().__init__("rate_limited", message)
        self.retry_after = int(retry_after)

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
    idle_seconds: float = 3600.0    #: a finished table nobody watches is closed after this long
    unjoined_ttl: float = 300.0     #: a table none of whose people ever joined is closed after this long
    address_creates: float = 10.0   #: tables one address may create per minute (and at once)
    address_tables: int = 20        #: tables one address may hold that are not finished
    address_joins: float = 120.0    #: joins one address may make per minute (a quarter of it at once)
    address_connections: int = 64   #: websockets one address may hold open
    address_rate: float = 100.0     #: messages per second one address may send over all its connections
    address_requests: float = 50.0  #: API requests per second one address may make (twice that at once)
    create_timeout: float = 5.0     #: seconds a table's creation waits for storage before it is refused


class AddressLimits:
    """The per-address limits (by the peer address of the connection): table creations, joins,
    messages, API requests and open websockets, so that one client cannot take the server from
    the others. Addresses that have been quiet are forgotten (at most ``MAX_ADDRESSES`` kept)."""

    MAX_ADDRESSES = 20000

    def __init__(self, settings: Settings):
        self.s = settings
        self._by: Dict[str, Dict[str, Any]] = {}

    def _entry(self, addr: str) -> Dict[str, Any]:
        e = self._by.get(addr)
        if e is None:
            if len(self._by) >= self.MAX_ADDRESSES:
                self.prune()
            s = self.s
            e = self._by[addr] = {
                "create": TokenBucket(s.address_creates / 60.0, max(1.0, s.address_creates)),
                "join": TokenBucket(s.address_joins / 60.0, max(1.0, s.address_joins / 4.0)),
                "message": TokenBucket(s.address_rate, max(1.0, 2.0 * s.address_rate)),
                "request": TokenBucket(s.address_requests, max(1.0, 2.0 * s.address_requests)),
                "connections": 0,
            }
        return e

    def take(self, addr: str, kind: str) -> Optional[int]:
        """None if ``addr`` may make one more ``kind`` (create, join, message, request) now, else
        the seconds to wait."""
        bucket = self._entry(addr)[kind]
        return None if bucket.take() else bucket.retry_after()

    def connect(self, addr: str) -> bool:
        """Counts an open websocket of ``addr``; False (not counted) over the limit."""
        e = self._entry(addr)
        if e["connections"] >= self.s.address_connections:
            return False
        e["connections"] += 1
        return True

    def disconnect(self, addr: str) -> None:
        """A websocket of ``addr`` closed."""
        e = self._by.get(addr)
        if e is not None and e["connections"] > 0:
            e["connections"] -= 1

    def prune(self) -> None:
        """Forgets the addresses with no open connection whose buckets have refilled."""
        for addr in [a for a, e in self._by.items() if e["connections"] == 0 and
                     all(e[k].full() for k in ("create", "join", "message", "request"))]:
            del self._by[addr]


class Client:
    """One connection: its queue of outgoing text frames, its rate limit and what it joined."""

    def __init__(self, settings: Settings, close: Optional[Callable[[], None]] = None, addr: str = ""):
        self.queue: "asyncio.Queue[Optional[str]]" = asyncio.Queue(maxsize=settings.send_queue + 1)
        self.bucket = TokenBucket(settings.rate, settings.burst)
        self.addr = addr
        self.table: Optional[Table] = None
        self.seat: Optional[int] = None
        self.joined = False
        self.synced = False   # has been sent the table's current position (joins wait for a write in flight)
        self.join_ref: Any = None
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
    """Every table of the server and its connections.

    Every change of a table is handed to :class:`threes.web.storage.Storage` first; the frames that
    show it are sent, and the next turn scheduled, only once it is durable (``_persist``). While a
    table's write is in flight (normally about a millisecond; longer while storage fails) the table
    waits: no bot moves, no turn timer runs, an ``act`` is refused with ``storage``."""

    def __init__(self, settings: Settings, storage: Optional[Storage] = None):
        self.settings = settings
        self.storage: Storage = storage  # type: ignore[assignment]  # opened in start() without one
        self.tables: Dict[str, Table] = {}
        self.clients: Dict[str, Set[Client]] = {}
        self.limits = AddressLimits(settings)
        self.broken: Dict[str, str] = {}   # tables kept aside at start: id -> why
        self.storage_ok = True
        self.storage_message = ""
        self._writing: Dict[str, int] = {}
        self._timers: Dict[str, asyncio.TimerHandle] = {}
        self._thinking: Dict[str, asyncio.Task] = {}
        self._tasks: List[asyncio.Task] = []
        self.errors = 0          # error replies sent
        self.moves = 0           # moves applied

    # -- life -------------------------------------------------------------------------
    async def start(self) -> None:
        """Opens the storage (if not given), restores every live table (or keeps it aside, logged by
        name, when its record cannot be replayed) and starts the periodic work."""
        loop = asyncio.get_running_loop()
        if self.storage is None:
            self.storage = Storage(self.settings.db_path)
        self.storage.loop = loop
        self.storage.on_health = self._storage_health
        for row in self.storage.tables(("waiting", "playing", "finished")):
            try:
                table = self._restore(row)
            except Exception as exc:  # kept aside, never skipped in silence
                reason = f"its record cannot be replayed: {type(exc).__name__}: {exc}"[:1000]
                _log.error("table %s kept aside: %s", row["table_id"], reason)
                self.broken[row["table_id"]] = reason
                self.storage.submit([{"op": "broken", "table": row["table_id"], "reason": reason}])
                continue
            self.tables[table.id] = table
            self.clients[table.id] = set()
            self._schedule(table)
        if self.tables or self.broken:
            _log.warning("restored %d tables, kept %d aside", len(self.tables), len(self.broken))
        self._tasks.append(loop.create_task(self._periodic()))

    def _restore(self, row: Dict[str, Any]) -> Table:
        spec = TableSpec.from_dict(row["spec"])
        if len(row["secret_hashes"]) != len(spec.seats):
            raise ValueError("its secrets do not match its seats")
        table = Table(row["table_id"], spec, row["secret_hashes"], self.settings.standin_bot,
                      game_number=row["game_number"], seed=row["seed"], created_at=row["created_at"],
                      seed_chosen=row["seed_chosen"], creator=row["creator"], joined=row["joined"])
        if row["status"] == "finished":
            rec = self.storage.game_of(table.id, table.game_number)
            if rec is None or int(rec["seed"]) != table.seed:
                raise ValueError(f"game {table.game_number} is finished but not stored")
            table.replay_to(rec["actions"], rec["movers"])
            if not table.over or table.result() != rec["result"]:
                raise ValueError(f"game {table.game_number} does not replay to its stored result")
            table.finished_at = table.started_at
        else:
            table.replay_to(row["actions"], row["movers"])
            if table.over and self.storage.game_of(table.id, table.game_number) is None:
                self.storage.submit([{"op": "finish", "record": table.record()}])  # written with its last move
        table.updated_at = row["updated_at"]
        return table

    async def stop(self) -> None:
        """Stops the timers and bots and writes everything pending (in a thread: the loop goes on)."""
        for t in self._tasks:
            t.cancel()
        for h in self._timers.values():
            h.cancel()
        for t in self._thinking.values():
            t.cancel()
        self._timers.clear()
        self._thinking.clear()
        if self.storage is not None:
            await asyncio.to_thread(self.storage.close)

    async def _periodic(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            try:
                self.expire(time.time())
            except Exception:  # keep serving; say so
                _log.exception("the periodic work failed")

    def expire(self, now: float) -> List[str]:
        """Closes the tables none of whose people joined within ``unjoined_ttl`` and the finished ones
        nobody has watched for ``idle_seconds``; returns their ids."""
        s = self.settings
        gone = []
        for tid, table in list(self.tables.items()):
            if self.clients.get(tid) or tid in self._writing:
                continue
            if (not table.joined and now - table.created_at > s.unjoined_ttl) or \
                    (table.over and now - table.updated_at > s.idle_seconds):
                self._close_table(tid)
                gone.append(tid)
        self.limits.prune()
        return gone

    def _close_table(self, tid: str) -> None:
        self.tables.pop(tid, None)
        self.clients.pop(tid, None)
        h = self._timers.pop(tid, None)
        if h is not None:
            h.cancel()
        self.storage.submit([{"op": "close", "table": tid}])

    # -- storage ------------------------------------------------------------------------
    def _persist(self, table: Table, records: List[Dict[str, Any]], then: Callable[[], None]) -> None:
        """Hands ``records`` to storage; ``then()`` (the frames, the next turn) runs once they are durable."""
        self._writing[table.id] = self._writing.get(table.id, 0) + 1

        def durable() -> None:
            left = self._writing.get(table.id, 1) - 1
            if left > 0:
                self._writing[table.id] = left
            else:
                self._writing.pop(table.id, None)
            if self.tables.get(table.id) is not table:
                return
            then()
            self._sync_joiners(table)

        self.storage.submit(records, durable)

    def _storage_health(self, ok: bool, message: str) -> None:
        """Storage started failing (``ok`` False) or works again: every client is told."""
        self.storage_ok, self.storage_message = ok, message
        text = json.dumps({"type": "storage", "ok": ok, "message": message}, separators=(",", ":"))
        for group in self.clients.values():
            for c in group:
                c.push(text)

    def _waiting(self, table: Table) -> None:
        """Refuses a change while the table's last one is not durable: nobody has seen that position yet
        (a double click lands here), and while storage fails the table waits."""
        if table.id in self._writing:
            if not self.storage_ok:
                raise TableError("storage", self.storage_message)
            raise TableError("stale", "the position moved on: its last move is being saved")

    # -- tables -----------------------------------------------------------------------
    async def create_table(self, spec: TableSpec, addr: str = "") -> Dict[str, Any]:
        """A new table (once it is durable): its public summary, with each person's seat secret (given
        out here only) and the seed only if the creator chose it. TableError ``rate_limited`` over this
        address's limits, ``overloaded`` when the server is full, ``storage`` when it cannot save."""
        s = self.settings
        wait = self.limits.take(addr, "create")
        if wait is not None:
            raise RateLimited(f"this address may create {s.address_creates:g} tables a minute: wait {wait} s", wait)
        held = sum(1 for t in self.tables.values() if t.creator == addr and not t.over)
        if held >= s.address_tables:
            raise RateLimited(f"this address holds {held} tables that are not finished (at most "
                              f"{s.address_tables}); finish one or wait for an unjoined one to expire", 60)
        if len(self.tables) >= s.max_tables:
            raise TableError("overloaded", f"the server holds {s.max_tables} tables already")
        if not self.storage_ok:
            raise TableError("storage", self.storage_message)
        tid = secrets.token_urlsafe(12)
        table, plain = Table.create(tid, spec, s.standin_bot, creator=addr)
        fut = self.storage.submit_async([{
            "op": "table", "table": tid, "spec": spec.to_dict(), "secret_hashes": [x.secret_hash for x in table.seats],
            "game_number": table.game_number, "seed": table.seed, "seed_chosen": table.seed_chosen,
            "creator": addr, "created_at": table.created_at}])
        try:
            await asyncio.wait_for(asyncio.shield(fut), s.create_timeout)
        except asyncio.TimeoutError:
            self.storage.submit([{"op": "close", "table": tid}])  # if it is written after all, it is closed
            raise TableError("storage", "storage is failing: the table could not be saved; try again later") from None
        self.tables[tid] = table
        self.clients[tid] = set()
        self._schedule(table)
        out = table.summary()
        out["secrets"] = plain
        out["seed"] = table.seed if table.seed_chosen else None  # a seed the creator chose; no other
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
            if self.limits.take(client.addr, "message") is not None:
                raise ProtocolError("rate_limited", "too many messages from this address: slow down")
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
        wait = self.limits.take(client.addr, "join")
        if wait is not None:
            raise ProtocolError("rate_limited", f"too many joins from this address: wait {wait} s")
        table = self.tables.get(msg["table"])
        if table is None:
            raise ProtocolError("no_table", "no such table (it may have closed)")
        seat = msg.get("seat")
        if seat is not None and not table.check_secret(seat, msg.get("secret")):
            raise ProtocolError("bad_secret", "that is not the seat's secret")
        client.table, client.seat, client.joined, client.join_ref = table, seat, True, msg.get("ref")
        self.clients[table.id].add(client)
        back = False
        if seat is not None:
            table.seats[seat].connections += 1
            back = table.come_back(seat)  # a reconnection gives the seat back from the stand-in bot
            if not table.joined:
                table.joined = True
                self.storage.submit([{"op": "joined", "table": table.id}])
        if table.id not in self._writing:  # else: once the write in flight is durable
            self._welcome(client, table)
        if back:
            self._schedule(table)
        self._send_seats(table)

    def _welcome(self, client: Client, table: Table) -> None:
        client.synced = True
        client.send({"type": "welcome", "ref": client.join_ref, "table": table.id, "seat": client.seat,
                     "role": "player" if client.seat is not None else "spectator", "summary": table.summary()})
        client.send(views.state_frame(table, client.seat, history=True))
        if not self.storage_ok:
            client.send({"type": "storage", "ok": False, "message": self.storage_message})

    def _sync_joiners(self, table: Table) -> None:
        for c in list(self.clients.get(table.id, ())):
            if not c.synced:
                self._welcome(c, table)

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
        self._waiting(table)
        rec = table.act(client.seat, msg["action"], msg["move_number"])
        self._moved(table, [rec])

    def _on_back(self, client: Client, msg: Dict[str, Any]) -> None:
        table = self._seated(client)
        if table.come_back(client.seat):
            self._schedule(table)
            self._send_seats(table)

    def _on_rematch(self, client: Client, msg: Dict[str, Any]) -> None:
        table = self._seated(client)
        if not table.over:  # whatever is being written, a game in progress has no rematch
            raise TableError("not_over", "the game is still on")
        self._waiting(table)
        table.new_game()
        record = {"op": "game", "table": table.id, "game_number": table.game_number, "seed": table.seed,
                  "seed_chosen": table.seed_chosen}
        self._persist(table, [record], lambda: (self._broadcast(table, []), self._schedule(table)))

    # -- after a move -----------------------------------------------------------------
    def _moved(self, table: Table, records: List[MoveRecord]) -> None:
        """Stores the moves (and the finished game with its last move, in the same write); the frames
        follow once they are durable."""
        self.moves += len(records)
        out: List[Dict[str, Any]] = [{"op": "move", "table": table.id, "game_number": table.game_number, "n": r.n,
                                      "action": r.action, "by": r.by} for r in records]
        if table.over:
            out.append({"op": "finish", "record": table.record()})
        self._persist(table, out, lambda: (self._broadcast(table, records), self._schedule(table)))

    def _broadcast(self, table: Table, records: List[MoveRecord]) -> None:
        groups: Dict[Optional[int], List[Client]] = {}
        for c in self.clients.get(table.id, ()):
            if c.synced:
                groups.setdefault(c.seat, []).append(c)
        for viewer, members in groups.items():
            text = json.dumps(views.state_frame(table, viewer, records), separators=(",", ":"))
            for c in members:
                c.push(text)

    def _send_seats(self, table: Table) -> None:
        text = json.dumps({"type": "seats", "table": table.id, "seats": [s.public() for s in table.seats]},
                          separators=(",", ":"))
        for c in self.clients.get(table.id, ()):
            if c.synced:  # a joiner waiting for its welcome gets the seats in that welcome's summary
                c.push(text)

    # -- timers and bots ----------------------------------------------------------------
    def _schedule(self, table: Table) -> None:
        """After any change: the bot to move plays after bot_delay, or the person to move's turn
        timer starts (``turn_timeout``; none when 0)."""
        old = self._timers.pop(table.id, None)
        if old is not None:
            old.cancel()
        if table.over or table.id in self._thinking or table.id in self._writing:
            return  # a write in flight schedules the next turn once it is durable
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
        if table.id in self._writing:
            return
        self._moved(table, [table.bot_move(q, int(action))])
