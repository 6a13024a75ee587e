"""The harness of the crash and storage-fault tests of ``threes serve`` (test_web_crash.py,
test_web_storage_faults.py): a server subprocess that can be SIGKILLed and restarted on the same
``--db``, scripted people playing over websockets (legal moves taken from each frame's ``moves``),
a record of what every client was shown (acknowledged), and the checks of what a restarted server
and its SQLite file must still hold (web-design.md, promises 1 to 4).

What a client was shown is what counts: a ``state`` frame of game g at move m acknowledges moves
0..m-1 of game g (promise 1), and a frame with ``over`` acknowledges the game's result (promise 2).
Everything runs on 127.0.0.1; every wait is bounded.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

import websockets

from threes.web.storage import replay_result

from web_support import get, post, replay_states

#: Options of a server that lets scripted clients go as fast as they can from one address.
FAST_OPTIONS = ("--bot-delay", "0", "--turn-timeout", "0", "--rate", "1000", "--burst", "1000",
                "--address-creates", "10000", "--address-tables", "10000", "--address-joins", "100000",
                "--address-connections", "10000", "--address-rate", "100000", "--address-requests", "100000",
                "--max-tables", "1000")
#: Options the server before the storage rewrite did not have (dropped with THREES_WEB_OLD_SERVER=1,
#: which only serves to check this harness against the old server).
_NEW_OPTIONS = ("--address-creates", "--address-tables", "--address-joins", "--address-connections",
                "--address-rate", "--address-requests", "--unjoined-ttl")
STATES = ("waiting", "playing", "finished", "closed", "broken")
JSON_COLUMNS = ("options", "seats", "actions", "movers", "result")


def http_get(url: str) -> Any:
    """GET a JSON answer; an HTTP error names the URL and the body of the answer."""
    try:
        return get(url)
    except urllib.error.HTTPError as exc:
        body = exc.read()[:2000].decode("utf-8", "replace")
        raise AssertionError(f"GET {url}: HTTP {exc.code}: {body}") from None


def _args_for_this_server(args: Sequence[str]) -> List[str]:
    if os.environ.get("THREES_WEB_OLD_SERVER") != "1":
        return list(args)
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in _NEW_OPTIONS:
            skip = True
        else:
            out.append(a)
    return out


# ------------------------------------------------------------------ the server --
class Server:
    """``python -m threes.web.cli`` on 127.0.0.1 and a free port, started again on the same --db
    after every kill. Its output (every lifetime's) is kept for failure messages; stdout and stderr
    are pipes read by threads (never a file the server writes, which a file-size limit would hit)."""

    def __init__(self, db: str, *options: str, cwd: Optional[str] = None):
        self.db = db
        self.options = list(options)
        self.cwd = cwd
        self.proc: Optional[subprocess.Popen] = None
        self.lines: List[str] = []          # "[life n] ..." every line of every lifetime
        self.life = 0
        self.url: Optional[str] = None
        self._out: List[str] = []
        self._lock = threading.Lock()
        self._threads: List[threading.Thread] = []

    def spawn(self, preexec_fn: Optional[Callable[[], None]] = None) -> subprocess.Popen:
        """Starts the process without waiting for it."""
        assert self.proc is None or self.proc.poll() is not None, "the previous server still runs"
        self.life += 1
        self._out = []
        self.url = None
        cmd = [sys.executable, "-m", "threes.web.cli", "--host", "127.0.0.1", "--port", "0", "--db", self.db,
               *_args_for_this_server(self.options)]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     errors="replace", cwd=self.cwd, preexec_fn=preexec_fn)
        life, out = self.life, self._out

        def pump(stream: Any, tag: str) -> None:
            for line in stream:
                with self._lock:
                    out.append(line)
                    self.lines.append(f"[life {life} {tag}] {line.rstrip()}")
            stream.close()

        self._threads = [threading.Thread(target=pump, args=(self.proc.stdout, "out"), daemon=True),
                         threading.Thread(target=pump, args=(self.proc.stderr, "err"), daemon=True)]
        for t in self._threads:
            t.start()
        return self.proc

    def start(self, timeout: float = 30.0, preexec_fn: Optional[Callable[[], None]] = None) -> str:
        """Starts the server and waits until it answers /api/meta; its base URL."""
        proc = self.spawn(preexec_fn)
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                text = "".join(self._out)
            m = re.search(r"http://127\.0\.0\.1:(\d+)/", text)
            if m:
                break
            if proc.poll() is not None or time.monotonic() > deadline:
                self._join_pumps()
                raise RuntimeError(f"the server did not start (status {proc.poll()}):\n{self.tail()}")
            time.sleep(0.02)
        url = f"http://127.0.0.1:{m.group(1)}"
        while True:
            try:
                get(url + "/api/meta")
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server does not answer (status {proc.poll()}):\n{self.tail()}")
                time.sleep(0.02)
        self.url = url
        return url

    def _join_pumps(self) -> None:
        for t in self._threads:
            t.join(5)

    def kill(self) -> None:
        """SIGKILL, and waits for the process."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait(15)
            self._join_pumps()

    def stop(self) -> int:
        """SIGTERM (SIGKILL after 15 s); the exit status."""
        if self.proc is None:
            return 0
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._join_pumps()
        return self.proc.returncode

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def tail(self, n: int = 60) -> str:
        with self._lock:
            return "\n".join(self.lines[-n:])

    def errors(self) -> List[str]:
        """The lines of stderr of every lifetime that look like a failure (tracebacks, errors)."""
        with self._lock:
            return [l for l in self.lines if " err] " in l and re.search(r"Traceback|Error|error|Exception", l)]


def run_cli(*args: str, timeout: float = 60.0) -> subprocess.CompletedProcess:
    """``python -m threes.web.cli ARGS`` to its end (an operator command, a second server)."""
    return subprocess.run([sys.executable, "-m", "threes.web.cli", *_args_for_this_server(args)],
                          capture_output=True, text=True, timeout=timeout)


# ------------------------------------------------------------------- the DB --
def read_db(db: str) -> Tuple[List[Dict[str, Any]], Optional[List[Dict[str, Any]]]]:
    """Every row of ``games`` (each a dict of its columns, as stored) and of ``tables`` (None when
    the file has no such table), read through a read-only connection of our own."""
    if not os.path.exists(db):
        return [], None
    last: Optional[Exception] = None
    source = db
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            con = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=2)
            try:
                names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                games: List[Dict[str, Any]] = []
                if "games" in names:
                    cur = con.execute("SELECT * FROM games ORDER BY id")
                    cols = [d[0] for d in cur.description]
                    games = [dict(zip(cols, row)) for row in cur.fetchall()]
                tables = None
                if "tables" in names:
                    cur = con.execute("SELECT * FROM tables")
                    cols = [d[0] for d in cur.description]
                    tables = [dict(zip(cols, row)) for row in cur.fetchall()]
                return games, tables
            finally:
                con.close()
        except sqlite3.OperationalError as exc:  # locked for a moment, or the schema being made
            last = exc
            if "readonly" in str(exc) and source == db:
                # a WAL left by a killed server, with no server running: a read-only connection cannot
                # recover it; read a copy of the files instead (the originals stay untouched)
                source = _copy_db(db)
                continue
            time.sleep(0.1)
    raise AssertionError(f"cannot read {db} (read-only, for 20 s): {last}")


def _copy_db(db: str) -> str:
    import shutil
    import tempfile

    out = os.path.join(tempfile.mkdtemp(prefix="threes-dbcopy-"), "copy.sqlite3")
    for suffix in ("", "-wal"):
        if os.path.exists(db + suffix):
            shutil.copyfile(db + suffix, out + suffix)
    return out


def record_of(row: Dict[str, Any]) -> Dict[str, Any]:
    """A games row as the record replay_result takes (its JSON columns decoded)."""
    rec = dict(row)
    for k in JSON_COLUMNS:
        if isinstance(rec.get(k), (str, bytes)):
            rec[k] = json.loads(rec[k])
    return rec


def table_key(row: Dict[str, Any]) -> Optional[str]:
    for k in ("table_id", "id", "table"):
        if isinstance(row.get(k), str):
            return row[k]
    return None


# ----------------------------------------------------------------- tracking --
@dataclass
class Track:
    """What the clients of one table were shown."""

    tid: str
    game: str
    secrets: List[Optional[str]]
    label: str
    rematch_until: int = 1                # the first person asks for rematches up to this game number
    ack: Tuple[int, int] = (0, -1)        # (game_number, move_number) of the latest state frame shown
    texts: Dict[int, Dict[int, str]] = field(default_factory=dict)    # game -> move n -> notation shown
    results: Dict[int, Any] = field(default_factory=dict)             # game -> result shown (over)
    max_move: Dict[int, int] = field(default_factory=dict)           # game -> largest move_number shown
    joined_ok: int = 0

    @property
    def persons(self) -> List[int]:
        return [q for q, s in enumerate(self.secrets) if s]


class Context:
    """The shared record of one test: tables, problems, figures."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self.tracks: Dict[str, Track] = {}
        self.problems: List[str] = []
        self.killing = False              # the server is being killed: closed connections are expected
        self.stored: Set[Tuple[str, int]] = set()   # (table, game) found stored
        self.ack_log: List[Tuple[float, int]] = []   # (time, moves newly acknowledged)
        self.latencies: List[Tuple[float, float]] = []   # (time sent, seconds to the next state)
        self.errors: List[Tuple[float, str, int, Dict[str, Any]]] = []
        self.storage: List[Tuple[float, str, int, bool]] = []  # storage frames: time, table, seat, ok
        self.frames = 0
        self.rematches = 0

    def problem(self, text: str) -> None:
        if len(self.problems) < 200:
            self.problems.append(text)

    def moves_acknowledged(self) -> int:
        return sum(m for t in self.tracks.values() for m in t.max_move.values())

    def games_finished(self) -> Dict[str, int]:
        out: Dict[str, int] = {}
        for t in self.tracks.values():
            out[t.game] = out.get(t.game, 0) + len(t.results)
        return out


def create_table(ctx: Context, url: str, body: Dict[str, Any], label: str, rematch_until: int = 1) -> Track:
    """POST /api/tables; the table is tracked from its answer on."""
    ans = post(url + "/api/tables", body)
    if body.get("seed") is None and ans.get("seed") is not None:
        ctx.problem(f"table {ans['table']}: the answer carries a seed the creator did not choose")
    t = Track(ans["table"], ans["game"], list(ans["secrets"]), label, rematch_until)
    ctx.tracks[t.tid] = t
    return t


def observe(ctx: Context, t: Track, frame: Dict[str, Any], now: float, over_seen: Set[int]) -> None:
    """A state frame shown to a client: the moves it acknowledges, checked against what was shown before.

    ``over_seen`` is the games this connection was shown finished. The server promises each connection its
    frames in order, not an order across connections: one seat may be shown a game's last move and act on
    the next game before another seat's socket has delivered the frame before it. So a game shown finished
    must never be live again *on the same connection* here; across a restart ``check_join`` compares the
    first frame with everything shown before."""
    ctx.frames += 1
    g, m = frame["game_number"], frame["move_number"]
    texts = t.texts.setdefault(g, {})
    for entry in frame.get("log", ()):
        n, text = entry["n"], entry["move"]
        if n >= m:
            ctx.problem(f"{t.tid} game {g}: a frame at move {m} logs move {n}")
        old = texts.get(n)
        if old is None:
            texts[n] = text
        elif old != text:
            ctx.problem(f"{t.tid} game {g}: move {n} was shown as {old!r}, now as {text!r}")
    prev = t.max_move.get(g, -1)
    if m > prev:
        if prev >= 0:
            ctx.ack_log.append((now, m - prev))
        elif m > 0:
            ctx.ack_log.append((now, m))
        t.max_move[g] = m
    if (g, m) > t.ack:
        t.ack = (g, m)
    if frame.get("over"):
        res = frame.get("result")
        if res is None:
            ctx.problem(f"{t.tid} game {g}: an over frame without a result")
        elif g in t.results and t.results[g] != res:
            ctx.problem(f"{t.tid} game {g}: its result was shown as {t.results[g]}, now as {res}")
        else:
            t.results[g] = res
        over_seen.add(g)
    elif g in over_seen:
        ctx.problem(f"{t.tid} game {g}: shown finished before on this connection, now live at move {m}")


def check_join(ctx: Context, t: Track, frame: Dict[str, Any], snap: Tuple[Tuple[int, int], bool, Set[int]]) -> None:
    """The first frame after a (re)join, against what had been acknowledged before the restart."""
    (g0, m0), over0, stored = snap
    g, m = frame["game_number"], frame["move_number"]
    if g < g0:
        ctx.problem(f"{t.tid} ({t.label}): rejoined at game {g}, but game {g0} had been shown")
    elif g == g0 and m < m0:
        ctx.problem(f"{t.tid} ({t.label}): rejoined at game {g} move {m}, but move {m0} had been shown (lost moves)")
    elif g == g0 and over0 and not frame.get("over"):
        ctx.problem(f"{t.tid} ({t.label}): game {g} had been shown finished and is live again at move {m}")
    if g in stored and not frame.get("over"):
        ctx.problem(f"{t.tid} ({t.label}): game {g} is stored as finished, but the table plays it again (move {m})")
    t.joined_ok += 1


def choose(moves: List[Dict[str, Any]], rng: random.Random) -> int:
    """A scripted person's move among the frame's legal moves: going out when it can (Three
    Thirteen), rarely picking up the pile when it has another move (Shithead), otherwise at random."""
    outs = [x for x in moves if x["text"].startswith("out")]
    if outs:
        return rng.choice(outs)["id"]
    others = [x for x in moves if x["text"] != "pickup"]
    return rng.choice(others or moves)["id"]


def ws_url(url: str) -> str:
    return url.replace("http://", "ws://") + "/ws"


async def seat_client(ctx: Context, url: str, t: Track, seat: int, rng: random.Random,
                      snap: Optional[Tuple[Tuple[int, int], bool, Set[int]]] = None,
                      think: Tuple[float, float] = (0.0, 0.0), stop: Optional[asyncio.Event] = None,
                      act: Optional[Callable[[], bool]] = None) -> None:
    """One person at seat ``seat``: joins with the seat's secret and plays every move it is offered
    (after a think time drawn from ``think``) until its connection closes or ``stop`` is set; the
    first person of a table asks for rematches up to ``t.rematch_until``. An act refused with
    ``storage`` is sent again a little later (a person clicking again). ``act()`` False: the client
    holds its moves for now."""
    first = True
    pending: Optional[Tuple[Tuple[int, int], float]] = None
    last: Optional[Dict[str, Any]] = None
    retry_at: Optional[float] = None
    asked: Set[int] = set()
    over_seen: Set[int] = set()
    try:
        async with websockets.connect(ws_url(url), open_timeout=15, max_size=2**23, compression=None,
                                      proxy=None, ping_interval=None, close_timeout=2) as ws:
            await ws.send(json.dumps({"type": "join", "table": t.tid, "seat": seat, "secret": t.secrets[seat]}))
            while stop is None or not stop.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), 0.2)
                except asyncio.TimeoutError:
                    raw = None
                now = time.monotonic()
                send: Optional[Dict[str, Any]] = None
                if raw is not None:
                    msg = json.loads(raw)
                    kind = msg.get("type")
                    if kind == "error":
                        ctx.errors.append((now, t.tid, seat, msg))
                        if msg.get("code") == "no_table":
                            ctx.problem(f"{t.tid} ({t.label}): no_table on joining seat {seat}: the table was lost")
                            return
                        if msg.get("code") == "storage" and last is not None:
                            pending = None
                            retry_at = now + 0.2
                        continue
                    if kind == "storage":
                        ctx.storage.append((now, t.tid, seat, bool(msg.get("ok"))))
                        if msg.get("ok") and last is not None:
                            retry_at = now
                        continue
                    if kind != "state":
                        continue
                    if first:
                        first = False
                        if snap is not None:
                            check_join(ctx, t, msg, snap)
                    observe(ctx, t, msg, now, over_seen)
                    key = (msg["game_number"], msg["move_number"])
                    if pending is not None and key > pending[0]:
                        ctx.latencies.append((pending[1], now - pending[1]))
                        pending = None
                    last, retry_at = msg, None
                    if msg.get("over"):
                        g = msg["game_number"]
                        if seat == t.persons[0] and g < t.rematch_until and g not in asked:
                            asked.add(g)
                            ctx.rematches += 1
                            await ws.send(json.dumps({"type": "rematch"}))
                        continue
                    if msg.get("moves"):
                        send = msg
                elif retry_at is not None and now >= retry_at and last is not None and last.get("moves"):
                    retry_at = None
                    send = last
                if send is not None:
                    if act is not None and not act():
                        retry_at = now + 0.2
                        continue
                    if think[1] > 0:
                        await asyncio.sleep(rng.uniform(*think))
                    action = choose(send["moves"], rng)
                    pending = ((send["game_number"], send["move_number"]), time.monotonic())
                    await ws.send(json.dumps({"type": "act", "action": action, "move_number": send["move_number"]}))
    except (websockets.exceptions.WebSocketException, OSError, EOFError, asyncio.TimeoutError) as exc:
        if not ctx.killing:
            ctx.problem(f"{t.tid} ({t.label}) seat {seat}: the connection failed while the server ran: {exc!r}")


def snapshot(ctx: Context, t: Track) -> Tuple[Tuple[int, int], bool, Set[int]]:
    return t.ack, t.ack[0] in t.results, {g for (tid, g) in ctx.stored if tid == t.tid}


def start_clients(ctx: Context, url: str, rng: random.Random, think: Tuple[float, float] = (0.0, 0.0),
                  stop: Optional[asyncio.Event] = None, act: Optional[Callable[[], bool]] = None,
                  tracks: Optional[Sequence[Track]] = None) -> List[asyncio.Task]:
    """A client for every person seat of every table (or of ``tracks``), each checking its first
    frame against what was acknowledged until now."""
    tasks = []
    for t in (tracks if tracks is not None else list(ctx.tracks.values())):
        snap = snapshot(ctx, t)
        for q in t.persons:
            tasks.append(asyncio.get_running_loop().create_task(
                seat_client(ctx, url, t, q, random.Random(rng.getrandbits(64)), snap, think, stop, act)))
    return tasks


async def finish_clients(tasks: Sequence[asyncio.Task], timeout: float = 10.0) -> None:
    """Waits for the clients (bounded), then cancels what is left."""
    if not tasks:
        return
    done, pending = await asyncio.wait(tasks, timeout=timeout)
    for p in pending:
        p.cancel()
    if pending:
        await asyncio.wait(pending, timeout=5)
    for d in done:
        if not d.cancelled() and d.exception() is not None:
            raise d.exception()


# ------------------------------------------------------------- the store --
class StoreCheck:
    """What the database holds, checked after every restart against what the clients were shown and
    against what it held before: every game shown finished is stored once (SQLite and GET /api/games),
    with the result shown, and replays to it; the moves shown are its moves; a stored game never
    changes nor disappears."""

    def __init__(self, ctx: Context, db: str):
        self.ctx = ctx
        self.db = db
        self.rows: Dict[Tuple[str, int], Dict[str, Any]] = {}     # as first read
        self.api: Dict[int, Any] = {}                              # GET /api/games/{id} as first fetched
        self.replayed: Set[Tuple[str, int]] = set()
        self.checks = 0

    def wanted(self) -> Set[Tuple[str, int]]:
        return {(t.tid, g) for t in self.ctx.tracks.values() for g in t.results}

    def check(self, url: Optional[str], timeout: float = 15.0, tables_known: bool = True) -> None:
        ctx = self.ctx
        deadline = time.monotonic() + timeout
        while True:
            games, tables = read_db(self.db)
            keys = [(r["table_id"], r["game_number"]) for r in games]
            missing = self.wanted() - set(keys)
            listed = None
            if url is not None:
                listed = http_get(url + "/api/games?limit=500")["games"]
                # the newest 500 are listed: every stored game from the oldest of them on must be there
                oldest = min((g["id"] for g in listed), default=0) if len(listed) >= 500 else 0
                missing |= {k for k, r in zip(keys, games) if r["id"] >= oldest
                            and k not in {(g["table_id"], g["game_number"]) for g in listed}}
            table_ids = None if tables is None else {table_key(r) for r in tables}
            lost_tables = set() if table_ids is None or not tables_known else set(ctx.tracks) - table_ids
            if not missing and not lost_tables:
                break
            if time.monotonic() > deadline:
                for k in sorted(missing):
                    ctx.problem(f"game {k} was shown finished (or is in SQLite) but is not stored/listed "
                                f"after {timeout:.0f} s")
                for tid in sorted(lost_tables):
                    ctx.problem(f"table {tid} ({ctx.tracks[tid].label}) is not in SQLite's tables")
                break
            time.sleep(0.1)
        self.checks += 1
        # stored once, never changed, never gone
        seen_keys: Set[Tuple[str, int]] = set()
        for row in games:
            k = (row["table_id"], row["game_number"])
            if k in seen_keys:
                ctx.problem(f"game {k} is stored twice in SQLite")
            seen_keys.add(k)
            old = self.rows.get(k)
            if old is None:
                self.rows[k] = row
            elif old != row:
                diff = [c for c in set(old) | set(row) if old.get(c) != row.get(c)]
                ctx.problem(f"stored game {k} changed (columns {sorted(diff)})")
        for k in self.rows:
            if k not in seen_keys:
                ctx.problem(f"stored game {k} disappeared from SQLite")
        ctx.stored |= seen_keys
        # each new game: replays to its result, the result and the moves shown
        for k in seen_keys - self.replayed:
            self.replayed.add(k)
            rec = record_of(self.rows[k])
            try:
                res = replay_result(rec)
            except Exception as exc:  # noqa: BLE001 - reported as a problem
                ctx.problem(f"stored game {k} does not replay: {exc!r}")
                continue
            if res != rec["result"]:
                ctx.problem(f"stored game {k} replays to {res}, not its stored result {rec['result']}")
            t = ctx.tracks.get(k[0])
            if t is None:
                ctx.problem(f"stored game {k} of a table no client created")
                continue
            shown = t.results.get(k[1])
            if shown is not None and shown != rec["result"]:
                ctx.problem(f"stored game {k}: result {rec['result']}, but clients were shown {shown}")
            texts = t.texts.get(k[1], {})
            if texts:
                states = replay_states(rec)
                acts = rec["actions"]
                for n, text in sorted(texts.items()):
                    if n >= len(acts):
                        ctx.problem(f"stored game {k}: {len(acts)} moves, but move {n} had been shown")
                        break
                    real = states[n].action_to_string(acts[n])
                    if real != text:
                        ctx.problem(f"stored game {k}: move {n} is {real!r}, clients were shown {text!r}")
                        break
            if t.max_move.get(k[1], 0) > len(rec["actions"]):
                ctx.problem(f"stored game {k}: {len(rec['actions'])} moves, but move {t.max_move[k[1]]} was shown")
        # the API lists each once, and each record never changes
        if url is not None and listed is not None:
            lkeys = [(g["table_id"], g["game_number"]) for g in listed]
            for k in set(lkeys):
                if lkeys.count(k) > 1:
                    ctx.problem(f"GET /api/games lists game {k} {lkeys.count(k)} times")
            by_id = {g["id"]: g for g in listed}
            old_ids = [i for i in self.api if i in by_id]
            sample = ctx.rng.sample(old_ids, min(4, len(old_ids)))
            for i in [i for i in by_id if i not in self.api] + sample:
                rec = http_get(f"{url}/api/games/{i}")
                if i not in self.api:
                    self.api[i] = rec
                    row = self.rows.get((rec["table_id"], rec["game_number"]))
                    if row is not None and (row["id"] != i or record_of(row)["actions"] != rec["actions"]
                                            or record_of(row)["result"] != rec["result"]):
                        ctx.problem(f"GET /api/games/{i} differs from its SQLite row")
                elif self.api[i] != rec:
                    ctx.problem(f"GET /api/games/{i} changed")
        # the tables' states (SQLite)
        if tables is not None:
            for row in tables:
                tid = table_key(row)
                status = row.get("status")
                if status not in STATES:
                    ctx.problem(f"table {tid}: status {status!r} is none of {STATES}")
                if status == "broken":
                    ctx.problem(f"table {tid} is broken: {row}")
                g = row.get("game_number")
                if isinstance(g, int) and (tid, g) in seen_keys and status in ("waiting", "playing"):
                    ctx.problem(f"table {tid}: game {g} is stored finished, but the table is {status} in it")
