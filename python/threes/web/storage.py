"""Storage of the web table: a journal that makes every move durable before anyone is told of it,
and a SQLite database of the tables and their finished games.

**What is promised.** A move is shown to the players (any ``state`` frame) only once it is on disk:
the hub hands it to :meth:`Storage.submit`, a writer thread appends it to the journal and calls
``fsync``, and only then does the hub send the frames. A crash (even ``kill -9`` or a power cut)
loses no move anyone has seen. A failed write (a full disk, a file-size limit, an I/O error) is
kept and retried, never dropped; until it succeeds the table waits (no frame, no bot move) and the
players are told (the hub's ``storage`` messages). Database work runs in that thread, never in the
event loop.

**Files** (``threes serve --db PATH``; by default ``$XDG_DATA_HOME/threes/games.sqlite3``, i.e.
``~/.local/share/threes/games.sqlite3``):

``PATH``
    the SQLite database (WAL mode), created on first use with its schema
    (``PRAGMA user_version`` = 2; a version 1 file is migrated in place).
``PATH.journal``
    the journal (not SQLite's own ``PATH-journal``): one line per record (JSON, a tab, its CRC-32), appended and fsync'd before the
    players see a move, copied into SQLite right after (in one transaction per batch) and emptied once
    all of it is there. A torn last line (a crash in mid-write) was never acknowledged and is dropped.
    Replaying the journal is idempotent, so a crash at any point between the two leaves nothing half
    done. The copy runs in a thread of its own: another process that holds SQLite's write lock (a
    backup, an ``sqlite3`` shell) therefore delays only the copy into SQLite, never the tables.
``PATH.lock``
    held (``flock``) by the one server that uses the database; a second ``threes serve`` on the same
    ``--db`` refuses to start (:class:`DatabaseInUse`).

**Tables** (SQLite):

``tables``
    one row per table: ``table_id``, ``spec`` (JSON: game, options, seats, the first game's seed
    and whether the creator chose it, move cap), ``secret_hashes`` (the SHA-256 of each person's
    secret; secrets are never stored), ``status`` (below), ``game_number`` and ``seed`` of its
    current game, ``seed_chosen``, ``creator`` (the address that made it), ``joined`` (a person has
    joined), ``created_at``, ``updated_at``, ``reason`` (why a table was kept aside).
``live_moves``
    the moves of the games in progress: ``table_id``, ``game_number``, ``n``, ``action``, ``mover``
    (person, bot or standin).
``games``
    one row per finished game, written once and never changed (triggers refuse any UPDATE or
    DELETE): ``id`` (the public number, never reused), ``table_id``, ``game_number`` (unique
    together), ``game``, ``options``, ``max_moves``, ``seed``, ``seed_chosen``, ``num_players``,
    ``seats`` (kind, name, bot; never a secret), ``actions``, ``movers``, ``result`` (returns,
    finish_order, places, scores, truncated, stalemate, moves), ``started_at``, ``finished_at``.

**A table's life** (``tables.status``): ``waiting`` (a game is dealt, no move yet) → ``playing``
(moves made) → ``finished`` (the game is over and stored in ``games``; a rematch deals game
``game_number + 1`` and the table is ``waiting`` again) → ``closed`` (nobody joined in time, or
nobody looked at the finished table for an hour; its finished games stay). A table whose record
cannot be replayed at start is ``broken``: kept aside with its ``reason``, logged by name and
listed by ``threes serve --status``, never served and never deleted. A finished game can never
become a live one: its key (table, game number) is taken, moves of it are refused by a trigger,
and the table's next game has the next number.

The replay of a stored game is exact: the engine deals the same game from the same seed, and the
actions are applied in order (:func:`replay_state`).
"""
from __future__ import annotations

import asyncio
import errno
import fcntl
import json
import logging
import os
import sqlite3
import threading
import time
import zlib
from collections import deque
from datetime import datetime, timezone
from typing import Any, Callable, Deque, Dict, Iterable, List, Optional, Tuple

__all__ = ["Storage", "DatabaseInUse", "Journal", "default_db_path", "replay_state", "replay_result", "backup",
           "status_report", "STATUSES"]

_log = logging.getLogger("threes.web")

SCHEMA_VERSION = 2
#: A table's states (``tables.status``).
STATUSES = ("waiting", "playing", "finished", "closed", "broken")
_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL,
    game_number INTEGER NOT NULL,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    max_moves INTEGER,
    seed INTEGER NOT NULL,
    num_players INTEGER NOT NULL,
    seats TEXT NOT NULL,
    actions TEXT NOT NULL,
    movers TEXT NOT NULL,
    result TEXT NOT NULL,
    started_at TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    seed_chosen INTEGER NOT NULL DEFAULT 0,
    UNIQUE (table_id, game_number)
);
CREATE TABLE IF NOT EXISTS tables (
    table_id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    secret_hashes TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('waiting', 'playing', 'finished', 'closed', 'broken')),
    game_number INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    seed_chosen INTEGER NOT NULL DEFAULT 0,
    creator TEXT NOT NULL DEFAULT '',
    joined INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    reason TEXT
);
CREATE TABLE IF NOT EXISTS live_moves (
    table_id TEXT NOT NULL,
    game_number INTEGER NOT NULL,
    n INTEGER NOT NULL,
    action INTEGER NOT NULL,
    mover TEXT NOT NULL,
    PRIMARY KEY (table_id, game_number, n)
);
CREATE TRIGGER IF NOT EXISTS games_never_rewritten BEFORE UPDATE ON games
BEGIN SELECT RAISE(ABORT, 'a finished game is never rewritten'); END;
CREATE TRIGGER IF NOT EXISTS games_never_deleted BEFORE DELETE ON games
BEGIN SELECT RAISE(ABORT, 'a finished game is never deleted'); END;
CREATE TRIGGER IF NOT EXISTS finished_games_take_no_moves BEFORE INSERT ON live_moves
WHEN EXISTS (SELECT 1 FROM games WHERE table_id = NEW.table_id AND game_number = NEW.game_number)
BEGIN SELECT RAISE(IGNORE); END;
"""


class DatabaseInUse(RuntimeError):
    """Another ``threes serve`` holds the database."""


def default_db_path() -> str:
    """``$XDG_DATA_HOME/threes/games.sqlite3`` (``~/.local/share/threes/games.sqlite3`` without it)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "threes", "games.sqlite3")


def _iso(t: Optional[float]) -> str:
    return datetime.fromtimestamp(time.time() if t is None else t, timezone.utc).isoformat(timespec="milliseconds")


def _ts(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()


# --------------------------------------------------------------- journal --
class Journal:
    """An append-only file of records, each a line ``JSON<TAB>CRC32\\n``, made durable with fsync.

    A write that fails is undone (the file is cut back to where it was), so the file only ever
    holds whole, acknowledged records followed at most by a torn one from a crash."""

    def __init__(self, path: str):
        self.path = path
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
        self.size = os.fstat(self.fd).st_size
        self._dirty = False

    @staticmethod
    def encode(record: Dict[str, Any]) -> bytes:
        """One record's line."""
        body = json.dumps(record, separators=(",", ":"), sort_keys=True).encode()
        return body + b"\t" + b"%08x" % zlib.crc32(body) + b"\n"

    def read(self) -> List[Dict[str, Any]]:
        """The whole records, in order; a torn or damaged tail is cut off the file."""
        os.lseek(self.fd, 0, os.SEEK_SET)
        chunks = []
        while True:
            b = os.read(self.fd, 1 << 20)
            if not b:
                break
            chunks.append(b)
        data = b"".join(chunks)
        out, good = [], 0
        for line in data.split(b"\n")[:-1]:
            body, sep, crc = line.rpartition(b"\t")
            if not sep or crc != b"%08x" % zlib.crc32(body):
                break
            try:
                out.append(json.loads(body))
            except ValueError:
                break
            good += len(line) + 1
        if good != len(data):
            _log.warning("%s: a torn record after %d whole ones was dropped (it was never acknowledged)",
                         self.path, len(out))
            os.ftruncate(self.fd, good)
            os.fsync(self.fd)
        self.size = good
        return out

    def append(self, lines: bytes) -> None:
        """Appends and fsyncs; on any failure the file is cut back and OSError raised."""
        if self._dirty:
            os.ftruncate(self.fd, self.size)
            self._dirty = False
        try:
            view = memoryview(lines)
            while view:
                n = os.write(self.fd, view)
                view = view[n:]
            os.fsync(self.fd)
        except OSError:
            try:
                os.ftruncate(self.fd, self.size)
            except OSError:
                self._dirty = True
            raise
        self.size += len(lines)

    def clear(self) -> None:
        """Empties the journal (everything in it is in SQLite)."""
        os.ftruncate(self.fd, 0)
        os.fsync(self.fd)
        self.size = 0

    def close(self) -> None:
        """Closes the file."""
        os.close(self.fd)


# --------------------------------------------------------------- SQLite --
def _connect(path: str, timeout_ms: int) -> sqlite3.Connection:
    db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    db.row_factory = sqlite3.Row
    db.execute(f"PRAGMA busy_timeout={int(timeout_ms)}")
    return db


def _migrate(db: sqlite3.Connection, path: str) -> None:
    """Creates the schema, or brings an older file up to it (in one transaction)."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version not in (0, 1, SCHEMA_VERSION):
        raise RuntimeError(f"{path}: schema version {version}; this server knows {SCHEMA_VERSION}")
    if version == SCHEMA_VERSION:
        db.executescript(_SCHEMA)  # triggers added later are created here
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        if version == 1:
            cols = {r[1] for r in db.execute("PRAGMA table_info(games)")}
            if "seed_chosen" not in cols:
                db.execute("ALTER TABLE games ADD COLUMN seed_chosen INTEGER NOT NULL DEFAULT 0")
        for stmt in _SCHEMA.split(";\n"):
            if stmt.strip():
                db.execute(stmt)
        if version == 1:
            # version 1 kept a finished game's table row and dealt it again after a restart: a stored game
            # is finished, whatever moves the row had since
            db.execute("""INSERT OR IGNORE INTO tables (table_id, spec, secret_hashes, status, game_number, seed,
                          seed_chosen, creator, joined, created_at, updated_at)
                          SELECT l.table_id, l.spec, l.secret_hashes,
                                 CASE WHEN EXISTS (SELECT 1 FROM games g WHERE g.table_id = l.table_id
                                                   AND g.game_number = l.game_number) THEN 'finished'
                                      ELSE 'playing' END,
                                 l.game_number, l.seed,
                                 CASE WHEN l.game_number = 1 AND json_extract(l.spec, '$.seed_chosen') THEN 1
                                      ELSE 0 END, '', 1, l.created_at, l.updated_at
                          FROM live_tables l""")
            db.execute("DELETE FROM live_moves WHERE EXISTS (SELECT 1 FROM games g WHERE "
                       "g.table_id = live_moves.table_id AND g.game_number = live_moves.game_number)")
            db.execute("DROP TABLE live_tables")
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def _apply(db: sqlite3.Connection, rec: Dict[str, Any]) -> None:
    """One journal record into SQLite (inside the caller's transaction); idempotent."""
    op = rec["op"]
    now = _iso(rec.get("at"))
    if op == "table":
        db.execute("INSERT OR IGNORE INTO tables (table_id, spec, secret_hashes, status, game_number, seed, seed_chosen, "
                   "creator, joined, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                   (rec["table"], json.dumps(rec["spec"]), json.dumps(rec["secret_hashes"]), "waiting",
                    rec["game_number"], rec["seed"], int(rec["seed_chosen"]), rec.get("creator", ""), 0,
                    _iso(rec["created_at"]), now))
    elif op == "move":
        db.execute("INSERT OR IGNORE INTO live_moves (table_id, game_number, n, action, mover) VALUES (?,?,?,?,?)",
                   (rec["table"], rec["game_number"], rec["n"], rec["action"], rec["by"]))
        db.execute("UPDATE tables SET status='playing', updated_at=? WHERE table_id=? AND game_number=? "
                   "AND status='waiting'", (now, rec["table"], rec["game_number"]))
    elif op == "finish":
        g = rec["record"]
        db.execute(
            "INSERT OR IGNORE INTO games (table_id, game_number, game, options, max_moves, seed, seed_chosen, "
            "num_players, seats, actions, movers, result, started_at, finished_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (g["table_id"], g["game_number"], g["game"], json.dumps(g["options"]), g["max_moves"], g["seed"],
             int(g.get("seed_chosen", False)), g["num_players"], json.dumps(g["seats"]), json.dumps(g["actions"]),
             json.dumps(g["by"]), json.dumps(g["result"]), _iso(g["started_at"]), _iso(g["finished_at"])))
        db.execute("DELETE FROM live_moves WHERE table_id=? AND game_number=?", (g["table_id"], g["game_number"]))
        db.execute("UPDATE tables SET status='finished', updated_at=? WHERE table_id=? AND game_number=? "
                   "AND status IN ('waiting', 'playing')", (now, g["table_id"], g["game_number"]))
    elif op == "game":  # a rematch: the next game is dealt (only ever forwards)
        db.execute("UPDATE tables SET game_number=?, seed=?, seed_chosen=?, status='waiting', updated_at=? "
                   "WHERE table_id=? AND game_number<? AND status='finished'",
                   (rec["game_number"], rec["seed"], int(rec["seed_chosen"]), now, rec["table"], rec["game_number"]))
    elif op == "joined":
        db.execute("UPDATE tables SET joined=1 WHERE table_id=?", (rec["table"],))
    elif op == "close":
        db.execute("UPDATE tables SET status='closed', updated_at=? WHERE table_id=? AND status != 'broken'",
                   (now, rec["table"]))
        db.execute("DELETE FROM live_moves WHERE table_id=?", (rec["table"],))
    elif op == "broken":
        db.execute("UPDATE tables SET status='broken', reason=?, updated_at=? WHERE table_id=?",
                   (str(rec["reason"])[:2000], now, rec["table"]))
    else:
        raise ValueError(f"unknown journal record {op!r}")


def _apply_all(db: sqlite3.Connection, records: Iterable[Dict[str, Any]]) -> None:
    db.execute("BEGIN IMMEDIATE")
    try:
        for rec in records:
            _apply(db, rec)
        db.execute("COMMIT")
    except BaseException:
        try:
            db.execute("ROLLBACK")
        except sqlite3.Error:
            pass
        raise


def _lock(path: str) -> int:
    fd = os.open(path + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        holder = ""
        try:
            holder = os.pread(fd, 64, 0).decode(errors="replace").strip()
        except OSError:
            pass
        os.close(fd)
        if exc.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
            raise DatabaseInUse(f"{path} is in use by another threes serve"
                                + (f" (pid {holder})" if holder.isdigit() else "")
                                + ": stop it, or give this one another --db") from None
        raise
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode(), 0)
    return fd


class _Batch:
    __slots__ = ("records", "lines", "done")

    def __init__(self, records: List[Dict[str, Any]], done: Optional[Callable[[], None]]):
        self.records = records
        self.lines = b"".join(Journal.encode(r) for r in records)
        self.done = done


class Storage:
    """The database of one server: :meth:`submit` from the event loop, reads from any thread.

    ``on_health(ok, message)`` is called (in the event loop, through ``loop``) when writing starts
    failing and when it works again."""

    #: How long a write waits for SQLite's lock before it tries again later (ms): the writer thread must
    #: come back to the journal.
    BUSY_MS = 200

    def __init__(self, path: str, loop: Optional[asyncio.AbstractEventLoop] = None,
                 on_health: Optional[Callable[[bool, str], None]] = None):
        self.path = path
        self.loop = loop
        self.on_health = on_health
        self._lock_fd = -1
        if path == ":memory:" or path.startswith("file:"):
            raise ValueError("the web table's database is a file path (its journal and lock lie beside it)")
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self._lock_fd = _lock(path)
        try:
            self.db = _connect(path, self.BUSY_MS)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            _migrate(self.db, path)
            self.journal: Journal = Journal(path + ".journal")
            pending = self.journal.read()
            if pending:
                _log.info("%s: %d journal records copied into the database", path, len(pending))
                self._apply_until_done(pending)
                self.journal.clear()
        except BaseException:
            self._release()
            raise
        self._local = threading.local()
        self._cond = threading.Condition()        # guards the queue of batches to journal
        self._queue: Deque[_Batch] = deque()
        self._copy_cond = threading.Condition()   # guards the records to copy into SQLite
        self._to_copy: List[Dict[str, Any]] = []
        self._journal_lock = threading.Lock()     # appends and clearing of the journal
        self._journaled = 0                       # records appended to the journal since it was cleared
        self._copied = 0                          # of those, records copied into SQLite
        self._handed_total = 0                    # records ever handed to the copier (never reset)
        self._copied_total = 0                    # of those, records ever copied into SQLite
        self._stopping = False
        self._closed = False
        self._stop_by = 0.0
        self.failing: Optional[str] = None       # why writes fail now (None: they work)
        self.failures = 0                        # failed journal writes so far
        self.written = 0                         # records made durable
        self._sqlite_failing = False
        self._thread = threading.Thread(target=self._run, name="threes-journal", daemon=True)
        self._copier = threading.Thread(target=self._copy_loop, name="threes-sqlite", daemon=True)
        self._thread.start()
        self._copier.start()

    def _apply_until_done(self, records: List[Dict[str, Any]], seconds: float = 30.0) -> None:
        deadline = time.monotonic() + seconds
        while True:
            try:
                _apply_all(self.db, records)
                return
            except sqlite3.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    # -- writing -----------------------------------------------------------------------
    def submit(self, records: List[Dict[str, Any]], done: Optional[Callable[[], None]] = None) -> None:
        """Queues records for the journal; ``done()`` is called in the event loop once they are
        durable (never if the server stops before: then they were never acknowledged)."""
        batch = _Batch(records, done)
        with self._cond:
            self._queue.append(batch)
            self._cond.notify()

    def submit_async(self, records: List[Dict[str, Any]]) -> "asyncio.Future[None]":
        """:meth:`submit` as an awaitable (from the event loop)."""
        loop = asyncio.get_running_loop()
        fut: "asyncio.Future[None]" = loop.create_future()
        self.submit(records, lambda: fut.done() or fut.set_result(None))
        return fut

    def _notify(self, fn: Callable[..., None], *args: Any) -> None:
        loop = self.loop
        if loop is None:
            fn(*args)
            return
        try:
            loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:  # the loop has closed
            pass

    def _run(self) -> None:
        """The journal thread: appends what is queued (every batch queued meanwhile in one write and one
        fsync), acknowledges it, and hands it to the copier. A failed write is retried, never dropped."""
        backoff = 0.05
        while True:
            with self._cond:
                while not self._queue and not self._stopping:
                    self._cond.wait()
                if self._stopping and (not self._queue or time.monotonic() > self._stop_by):
                    return  # what is still queued then was never acknowledged
                batches = list(self._queue)
            lines = b"".join(b.lines for b in batches)
            try:
                with self._journal_lock:
                    self.journal.append(lines)
                    self._journaled += sum(len(b.records) for b in batches)
            except OSError as exc:
                self.failures += 1
                message = f"storage is failing ({exc.strerror or exc}): the tables wait until moves can be saved"
                if self.failing is None:
                    _log.error("writing the journal failed: %s; retrying", exc)
                    self.failing = message
                    if self.on_health is not None:
                        self._notify(self.on_health, False, message)
                with self._cond:
                    self._cond.wait(backoff)
                backoff = min(1.0, backoff * 2)
                continue
            backoff = 0.05
            with self._cond:
                for _ in batches:
                    self._queue.popleft()
            if self.failing is not None:
                _log.warning("writing the journal works again")
                self.failing = None
                if self.on_health is not None:
                    self._notify(self.on_health, True, "storage works again")
            with self._copy_cond:
                for b in batches:
                    self._to_copy.extend(b.records)
                    self._handed_total += len(b.records)
                self._copy_cond.notify()
            for b in batches:
                self.written += len(b.records)
                if b.done is not None:
                    self._notify(b.done)

    def _copy_loop(self) -> None:
        """The copier thread: brings journaled records into SQLite (one transaction for all that are
        waiting), retrying while SQLite is locked or full; empties the journal once it is all there."""
        while True:
            with self._copy_cond:
                while not self._to_copy and not self._stopping:
                    self._copy_cond.wait()
                if self._stopping and (not self._to_copy or time.monotonic() > self._stop_by) \
                        and not self._thread.is_alive():
                    return
                records = list(self._to_copy)
            if not records:
                time.sleep(0.01)  # stopping: the journal thread may still hand some over
                continue
            try:
                _apply_all(self.db, records)
            except sqlite3.Error as exc:  # locked by another process, full: the journal holds them
                if not self._sqlite_failing:
                    _log.warning("copying the journal into SQLite failed (%s); it is kept and retried", exc)
                self._sqlite_failing = True
                with self._copy_cond:
                    self._copy_cond.wait(0.2)
                continue
            if self._sqlite_failing:
                _log.warning("copying the journal into SQLite works again")
            self._sqlite_failing = False
            with self._copy_cond:
                del self._to_copy[:len(records)]
                self._copied += len(records)
                self._copied_total += len(records)
                self._copy_cond.notify_all()
            if self.journal.size > (1 << 20):
                with self._journal_lock:
                    if self._copied == self._journaled:  # nothing in it that SQLite lacks
                        try:
                            self.journal.clear()
                            self._journaled = self._copied = 0
                        except OSError as exc:
                            _log.warning("emptying the journal failed: %s", exc)

    def flush(self, timeout: float = 10.0) -> bool:
        """Waits (a thread, not the loop) until everything submitted is in the journal and SQLite;
        False if that did not happen within ``timeout``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._cond, self._copy_cond:
                if not self._queue and not self._to_copy:
                    return True
            time.sleep(0.01)
        return False

    @property
    def pending(self) -> int:
        """Records not yet durable."""
        return sum(len(b.records) for b in self._queue)

    def close(self, timeout: float = 10.0) -> None:
        """Writes what is queued (within ``timeout``), copies the journal into SQLite, empties it and
        closes (once)."""
        if self._closed:
            return
        self._closed = True
        self._stop_by = time.monotonic() + timeout
        with self._cond:
            self._stopping = True
            self._cond.notify()
        with self._copy_cond:
            self._copy_cond.notify()
        self._thread.join(timeout + 5)
        with self._copy_cond:
            self._copy_cond.notify()
        self._copier.join(timeout + 5)
        if not self._thread.is_alive() and not self._copier.is_alive() and not self._to_copy and not self._queue:
            try:
                self.journal.clear()
            except OSError:
                pass
        self._release()

    def _release(self) -> None:
        journal = getattr(self, "journal", None)
        if journal is not None:
            try:
                journal.close()
            except OSError:
                pass
        db = getattr(self, "db", None)
        if db is not None:
            try:
                db.close()
            except sqlite3.Error:
                pass
        if self._lock_fd >= 0:
            os.close(self._lock_fd)
            self._lock_fd = -1

    # -- reading (any thread: a connection per thread) ----------------------------------------
    #: How long a read waits for the copier to bring in what was acknowledged before it (s).
    READ_WAIT = 5.0

    def _caught_up(self) -> None:
        """Read-your-writes: waits (bounded by :attr:`READ_WAIT`) until every record acknowledged
        before this read is in SQLite, so a game a player has just seen end is listed. If SQLite is
        locked or failing meanwhile, the read goes on with what SQLite holds."""
        deadline = time.monotonic() + self.READ_WAIT
        with self._copy_cond:
            target = self._handed_total
            while self._copied_total < target and self._copier.is_alive():
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self._copy_cond.wait(left)

    def _reader(self) -> sqlite3.Connection:
        self._caught_up()
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = _connect(self.path, 5000)
        return db

    @staticmethod
    def _row(row: sqlite3.Row) -> Dict[str, Any]:
        d = dict(row)
        for k in ("options", "seats", "actions", "movers", "result"):
            if k in d:
                d[k] = json.loads(d[k])
        if "seed_chosen" in d:
            d["seed_chosen"] = bool(d["seed_chosen"])
        return d

    def game(self, game_id: int) -> Optional[Dict[str, Any]]:
        """A stored game by id (None if there is none)."""
        row = self._reader().execute("SELECT * FROM games WHERE id=?", (int(game_id),)).fetchone()
        return None if row is None else self._row(row)

    def game_of(self, table_id: str, game_number: int) -> Optional[Dict[str, Any]]:
        """A table's stored game by its number (None if there is none)."""
        row = self._reader().execute("SELECT * FROM games WHERE table_id=? AND game_number=?",
                                     (table_id, int(game_number))).fetchone()
        return None if row is None else self._row(row)

    def games(self, limit: int = 50, table_id: Optional[str] = None) -> List[Dict[str, Any]]:
        """The latest stored games, newest first, without their actions."""
        q = ("SELECT id, table_id, game_number, game, options, seed, seed_chosen, num_players, seats, result, "
             "started_at, finished_at FROM games")
        args: Tuple[Any, ...] = ()
        if table_id is not None:
            q += " WHERE table_id=?"
            args = (table_id,)
        rows = self._reader().execute(q + " ORDER BY id DESC LIMIT ?", args + (int(limit),)).fetchall()
        return [self._row(r) for r in rows]

    def all_games(self) -> Iterable[Dict[str, Any]]:
        """Every stored game, with its actions (for checks)."""
        for row in self._reader().execute("SELECT * FROM games ORDER BY id").fetchall():
            yield self._row(row)

    def tables(self, statuses: Iterable[str] = ("waiting", "playing", "finished")) -> List[Dict[str, Any]]:
        """The tables in the given states, oldest first, each with its current game's moves."""
        wanted = list(statuses)
        db = self._reader()
        rows = db.execute(f"SELECT * FROM tables WHERE status IN ({','.join('?' * len(wanted))}) "
                          "ORDER BY created_at", wanted).fetchall()
        out = []
        for row in rows:
            d = dict(row)
            d["spec"] = json.loads(d["spec"])
            d["secret_hashes"] = json.loads(d["secret_hashes"])
            d["seed_chosen"] = bool(d["seed_chosen"])
            d["joined"] = bool(d["joined"])
            moves = db.execute("SELECT action, mover FROM live_moves WHERE table_id=? AND game_number=? ORDER BY n",
                               (d["table_id"], d["game_number"])).fetchall()
            d["actions"] = [r[0] for r in moves]
            d["movers"] = [r[1] for r in moves]
            d["created_at"] = _ts(d["created_at"])
            d["updated_at"] = _ts(d["updated_at"])
            out.append(d)
        return out


# ----------------------------------------------------------- operators --
def backup(path: str, target: str) -> int:
    """SQLite's online backup of the database at ``path`` into ``target`` (a new file; works while a
    server runs on ``path``); returns the number of finished games copied. When no server holds the
    database, its journal is copied into it first, so the backup holds every acknowledged move."""
    if not os.path.exists(path):
        raise FileNotFoundError(f"no database at {path}")
    if os.path.exists(target):
        raise FileExistsError(f"{target} exists: a backup goes to a new file")
    try:
        Storage(path).close()  # no server: bring the journal in
    except DatabaseInUse:
        pass  # the server copies its journal into SQLite within moments of each move
    src = sqlite3.connect(path, timeout=30)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
        return int(dst.execute("SELECT count(*) FROM games").fetchone()[0])
    finally:
        dst.close()
        src.close()


def status_report(path: str) -> str:
    """The tables of the database at ``path`` by state, the ones kept aside with their reasons, and
    the number of finished games (read only; works while a server runs)."""
    if not os.path.exists(path):
        raise FileNotFoundError(f"no database at {path}")
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        counts = dict(db.execute("SELECT status, count(*) FROM tables GROUP BY status").fetchall())
        games = db.execute("SELECT count(*) FROM games").fetchone()[0]
        rows = db.execute("SELECT t.table_id, t.status, t.game_number, t.reason, json_extract(t.spec, '$.game'), "
                          "(SELECT count(*) FROM live_moves m WHERE m.table_id = t.table_id AND "
                          "m.game_number = t.game_number) FROM tables t WHERE t.status != 'closed' "
                          "ORDER BY t.created_at").fetchall()
    finally:
        db.close()
    lines = [f"{path}: {games} finished games stored"]
    lines.append("tables: " + ", ".join(f"{s} {counts.get(s, 0)}" for s in STATUSES))
    for tid, status, number, reason, game, moves in rows:
        if status == "broken":
            lines.append(f"table {tid}: broken (kept aside): {reason}")
        elif status == "finished":
            lines.append(f"table {tid}: finished ({game}, game {number} stored)")
        else:
            lines.append(f"table {tid}: {status} ({game}, game {number}, {moves} moves)")
    journal = path + ".journal"
    if os.path.exists(journal) and os.path.getsize(journal):
        lines.append(f"journal: {os.path.getsize(journal)} bytes not yet copied into the database (a running "
                     "server copies them at once; a stopped one at its next start)")
    return "\n".join(lines)


# ---------------------------------------------------------------- replay --
def _game_of(record: Dict[str, Any]) -> Any:
    from threes.web.tables import _build_game

    return _build_game(record["game"], record["options"], record["num_players"], record.get("max_moves"))


def replay_state(record: Dict[str, Any], step: int) -> Tuple[Any, Optional[Tuple[int, str, List[Any]]]]:
    """The state of a stored game after ``step`` of its actions, and the last of them as
    (seat, notation, events) (None at step 0)."""
    state = _game_of(record).new_initial_state(seed=record["seed"])
    actions = record["actions"][:step]
    for a in actions[:-1]:
        state.apply_action(a)
    if not actions:
        return state, None
    seat = state.current_player()
    text = state.action_to_string(actions[-1])
    events = list(state.apply(actions[-1], undo=False))
    return state, (seat, text, events)


def replay_result(record: Dict[str, Any]) -> Dict[str, Any]:
    """The result the stored game's actions lead to, replayed by the engine from its seed."""
    from threes.web.tables import game_result

    state = _game_of(record).new_initial_state(seed=record["seed"])
    for a in record["actions"]:
        state.apply_action(a)
    if not state.is_terminal():
        raise ValueError(f"game {record.get('id')}: its actions do not end the game")
    return game_result(state)
