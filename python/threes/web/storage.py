"""SQLite storage of the web table: finished games, and the tables in progress.

The database file (``threes serve --db PATH``; by default
``$XDG_DATA_HOME/threes/games.sqlite3``, i.e. ``~/.local/share/threes/games.sqlite3``)
is created on first use with its schema (``PRAGMA user_version`` = 1):

``games``
    one row per finished game: ``id``, ``table_id``, ``game_number`` (the table's
    n-th game), ``game`` (registry name), ``options`` (JSON: the preset and house
    rules, or the Three Thirteen options), ``max_moves``, ``seed``, ``num_players``,
    ``seats`` (JSON: kind, name, bot of each seat; never a secret), ``actions`` (JSON:
    the action ids in order), ``movers`` (JSON: who chose each move: person, bot or
    standin), ``result`` (JSON: returns, finish_order, places, scores, truncated,
    stalemate, moves), ``started_at``, ``finished_at`` (ISO 8601, UTC).
``live_tables``, ``live_moves``
    the tables in progress: their spec, the SHA-256 of each person's secret (the
    secrets themselves are never stored), the current game's number and seed, and its
    moves so far (action ids, and who chose each). ``threes serve`` restores them at start, so a restart loses no game
    (moves are written in batches, at most about a second behind).

The replay of a stored game is exact: the engine deals the same game from the same
seed, and the actions are applied in order (:func:`replay_state`).
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from datetime import datetime, timezone
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

__all__ = ["Storage", "default_db_path", "replay_state", "replay_result"]

SCHEMA_VERSION = 1
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
    UNIQUE (table_id, game_number)
);
CREATE TABLE IF NOT EXISTS live_tables (
    table_id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    secret_hashes TEXT NOT NULL,
    game_number INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS live_moves (
    table_id TEXT NOT NULL,
    game_number INTEGER NOT NULL,
    n INTEGER NOT NULL,
    action INTEGER NOT NULL,
    mover TEXT NOT NULL,
    PRIMARY KEY (table_id, game_number, n)
);
"""


def default_db_path() -> str:
    """``$XDG_DATA_HOME/threes/games.sqlite3`` (``~/.local/share/threes/games.sqlite3`` without it)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "threes", "games.sqlite3")


def _iso(t: Optional[float]) -> str:
    return datetime.fromtimestamp(time.time() if t is None else t, timezone.utc).isoformat(timespec="milliseconds")


class Storage:
    """The database of one server (used from the event loop's thread only)."""

    def __init__(self, path: str):
        self.path = path
        if path != ":memory:":
            parent = os.path.dirname(os.path.abspath(path))
            os.makedirs(parent, exist_ok=True)
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA busy_timeout=5000")
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, SCHEMA_VERSION):
            raise RuntimeError(f"{path}: schema version {version}, this server knows {SCHEMA_VERSION}")
        self.db.executescript(_SCHEMA)
        self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        self._pending: List[Tuple[str, int, int, int, str]] = []

    def close(self) -> None:
        """Writes what is pending and closes the file."""
        self.flush()
        self.db.close()

    # -- finished games -----------------------------------------------------------
    def save_game(self, record: Dict[str, Any]) -> int:
        """Stores a finished game (a Table.record()); returns its id. The table's moves in
        progress are dropped in the same transaction."""
        self.flush()
        with self._tx():
            cur = self.db.execute(
                "INSERT OR REPLACE INTO games (table_id, game_number, game, options, max_moves, seed, num_players, "
                "seats, actions, movers, result, started_at, finished_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (record["table_id"], record["game_number"], record["game"], json.dumps(record["options"]),
                 record["max_moves"], record["seed"], record["num_players"], json.dumps(record["seats"]),
                 json.dumps(record["actions"]), json.dumps(record["by"]), json.dumps(record["result"]),
                 _iso(record["started_at"]), _iso(record["finished_at"])))
            self.db.execute("DELETE FROM live_moves WHERE table_id=? AND game_number=?",
                            (record["table_id"], record["game_number"]))
            return int(cur.lastrowid)

    def _row(self, row: sqlite3.Row) -> Dict[str, Any]:
        d = dict(row)
        for k in ("options", "seats", "actions", "movers", "result"):
            d[k] = json.loads(d[k])
        return d

    def game(self, game_id: int) -> Optional[Dict[str, Any]]:
        """A stored game by id (None if there is none)."""
        row = self.db.execute("SELECT * FROM games WHERE id=?", (game_id,)).fetchone()
        return None if row is None else self._row(row)

    def games(self, limit: int = 50, table_id: Optional[str] = None) -> List[Dict[str, Any]]:
        """The latest stored games, newest first, without their actions."""
        q = ("SELECT id, table_id, game_number, game, options, seed, num_players, seats, result, started_at, "
             "finished_at FROM games")
        args: Tuple[Any, ...] = ()
        if table_id is not None:
            q += " WHERE table_id=?"
            args = (table_id,)
        rows = self.db.execute(q + " ORDER BY id DESC LIMIT ?", args + (int(limit),)).fetchall()
        out = []
        for r in rows:
            d = dict(r)
            for k in ("options", "seats", "result"):
                d[k] = json.loads(d[k])
            out.append(d)
        return out

    def all_games(self) -> Iterable[Dict[str, Any]]:
        """Every stored game, with its actions (for checks)."""
        for row in self.db.execute("SELECT * FROM games ORDER BY id"):
            yield self._row(row)

    # -- tables in progress -----------------------------------------------------------
    def save_table(self, table_id: str, spec: Dict[str, Any], secret_hashes: Sequence[Optional[str]],
                   game_number: int, seed: int, created_at: float) -> None:
        """Stores (or updates) a table in progress: its spec, secrets' hashes and current game."""
        self.flush()
        with self._tx():
            self.db.execute(
                "INSERT INTO live_tables (table_id, spec, secret_hashes, game_number, seed, created_at, updated_at) "
                "VALUES (?,?,?,?,?,?,?) ON CONFLICT(table_id) DO UPDATE SET game_number=excluded.game_number, "
                "seed=excluded.seed, updated_at=excluded.updated_at",
                (table_id, json.dumps(spec), json.dumps(list(secret_hashes)), game_number, seed, _iso(created_at),
                 _iso(None)))

    def drop_table(self, table_id: str) -> None:
        """Forgets a table in progress (its finished games stay)."""
        self.flush()
        with self._tx():
            self.db.execute("DELETE FROM live_tables WHERE table_id=?", (table_id,))
            self.db.execute("DELETE FROM live_moves WHERE table_id=?", (table_id,))

    def add_move(self, table_id: str, game_number: int, n: int, action: int, mover: str) -> None:
        """Queues a move of a game in progress and who chose it (written by :meth:`flush`)."""
        self._pending.append((table_id, game_number, n, action, mover))

    def flush(self) -> int:
        """Writes the queued moves in one transaction; returns how many."""
        if not self._pending:
            return 0
        rows, self._pending = self._pending, []
        with self._tx():
            self.db.executemany("INSERT OR REPLACE INTO live_moves (table_id, game_number, n, action, mover) "
                                "VALUES (?,?,?,?,?)", rows)
        return len(rows)

    def live_tables(self) -> List[Dict[str, Any]]:
        """Every table in progress with its current game's moves (in order) and who chose them."""
        out = []
        for row in self.db.execute("SELECT * FROM live_tables ORDER BY created_at").fetchall():
            d = dict(row)
            d["spec"] = json.loads(d["spec"])
            d["secret_hashes"] = json.loads(d["secret_hashes"])
            moves = self.db.execute("SELECT action, mover FROM live_moves WHERE table_id=? AND game_number=? "
                                    "ORDER BY n", (d["table_id"], d["game_number"])).fetchall()
            d["actions"] = [r[0] for r in moves]
            d["movers"] = [r[1] for r in moves]
            d["created_at"] = datetime.fromisoformat(d["created_at"]).timestamp()
            out.append(d)
        return out

    def _tx(self) -> "_Transaction":
        return _Transaction(self.db)


class _Transaction:
    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN")

    def __exit__(self, exc_type, exc, tb) -> None:
        self.db.execute("COMMIT" if exc_type is None else "ROLLBACK")


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
    events = list(state.apply(actions[-1])) if callable(getattr(state, "apply", None)) else \
        (state.apply_action(actions[-1]) or [])
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
