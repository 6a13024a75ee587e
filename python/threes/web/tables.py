"""Tables, seats, secrets and games: the server's game logic, without any web code.

A :class:`Table` holds one engine state (the only true state), its seats
(each a person or a bot) and the record of every move. People act with their
seat's secret; the table checks that the seat is the one to move, that the
client saw the current position (``move_number``) and that the move is legal,
then lets the engine apply it (``state.apply``: the move's events). Bots, and
the stand-in bot that plays for a person who is away, choose their moves with
:func:`threes.bots.make_bot` bots and ``threes.bots.bot_view`` (what the seat
can know).

Everything here is synchronous and fast; :mod:`threes.web.hub` runs it in the
event loop.
"""
from __future__ import annotations

import hashlib
import hmac
import importlib
import re
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from threes import registry
from threes.options import parse_options as parse_options_of
from threes.bots import ISMCTSBot, PolicyBot, available_bots, bot_unavailable, bot_view, make_bot

__all__ = ["TableError", "SeatSpec", "TableSpec", "Seat", "MoveRecord", "Table", "parse_options", "bot_specs",
           "MAX_SEATS", "MAX_SEED", "seat_label", "new_secret", "secret_hash", "draw_seed", "game_result", "move_label"]

#: At most this many seats at a table (the page's layout; every game allows at least 2).
MAX_SEATS = 8
#: Seeds are in 0..MAX_SEED (they fit a JavaScript number exactly).
MAX_SEED = 2**53 - 1
#: The longest ISMCTS search a table may ask of the server (iterations), and its time limit per move.
MAX_ISMCTS_ITERATIONS = 20000
ISMCTS_TIME_LIMIT = 2.0
_NAME_RE = re.compile(r"^[^\x00-\x1f\x7f<>&\"'`\\]{1,24}$")


def seat_label(seat: int, name: Optional[str]) -> str:
    """How every view a person sees names a seat, as ``threes play`` does: "seat 2 (greedy)", "seat 0 (Ann)"
    (a name stored by an older server, "greedy (seat 2)", loses its repeated seat)."""
    name = (name or "").strip()
    suffix = f" (seat {seat})"
    if name.endswith(suffix) and len(name) > len(suffix):
        name = name[:-len(suffix)].strip()
    return f"seat {seat} ({name})" if name else f"seat {seat}"


class TableError(Exception):
    """A request the table refuses: ``code`` (a short machine word) and the reason."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def new_secret() -> str:
    """A seat's secret: 256 random bits, URL-safe text."""
    return secrets.token_urlsafe(32)


def secret_hash(secret: str) -> str:
    """What the server keeps of a secret (SHA-256, hex): the secret itself is given out once."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


# ---------------------------------------------------------------- options --


def _as_int(name: str, value: Any) -> int:
    if isinstance(value, bool):
        raise TableError("bad_rules", f"{name} takes a whole number, not {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*[0-9]{1,4}\s*", value):
        return int(value)
    raise TableError("bad_rules", f"{name} takes a whole number, not {value!r}")


def parse_options(game: str, preset: Optional[str], overrides: Dict[str, Any]) -> Dict[str, Any]:
    """The options of a table's game as plain JSON values, checked: the game's ``web`` hook's
    ``parse_options(preset, overrides)`` (a game with presets: ``{"preset": name, NAME: value ...}``,
    see the registry's ``web`` hook), else the options the game declares (``GameInfo.options``,
    threes.options), with no preset. House rules arrive as text (``NAME=VALUE``) or JSON values.
    TableError for a bad name or value."""
    info = registry.get(game)
    hook = info.hook("web")
    try:
        if hook is not None:
            return hook.parse_options(preset, overrides)
        if preset not in (None, ""):
            raise ValueError(f"{info.title} has no presets; give its options as NAME=VALUE")
        return parse_options_of(info.options, overrides, info.title)  # the game's own declaration
    except (TypeError, ValueError) as exc:
        raise TableError("bad_rules", str(exc)) from None


def _build_game(game: str, options: Dict[str, Any], num_players: int, max_moves: Optional[int]) -> Any:
    """The engine's Game of a table: the game's ``web`` hook's ``build_game``, else its ``Game`` with
    the declared options (TableError when the engine refuses the combination)."""
    info = registry.get(game)
    hook = info.hook("web")
    try:
        if hook is not None:
            return hook.build_game(options, num_players, max_moves)
        return info.load().Game(num_players, max_moves=max_moves, **options)
    except (TypeError, ValueError) as exc:
        raise TableError("bad_rules", str(exc)) from None


ISMCTS_OFFERS = ("ismcts:200", "ismcts:1000")  #: the lobby's ISMCTS strengths (any ismcts:N is accepted)


def bot_specs(game: str, num_players: Optional[int] = None) -> List[str]:
    """The bot specs a table of ``game`` offers (``make_bot`` specs): those
    :func:`threes.bots.available_bots` says this machine can make (the C policies, the game's own
    bots whose weights load, for ``num_players`` seats when given), with ISMCTS offered as
    ``ISMCTS_OFFERS`` (``ismcts:N`` with N up to MAX_ISMCTS_ITERATIONS is accepted too)."""
    out: List[str] = []
    for spec in available_bots(game, num_players):
        out += list(ISMCTS_OFFERS) if spec == "ismcts" else [spec]
    return out


def _check_bot(game: str, spec: Any, num_players: int) -> str:
    if not isinstance(spec, str) or not re.fullmatch(r"[a-z_]{1,16}(:[0-9]{1,6})?", spec.strip().lower()):
        raise TableError("bad_seats", f"a bot is named by a spec such as 'greedy' or 'ismcts:500', not {spec!r}")
    spec = spec.strip().lower()
    name, _, arg = spec.partition(":")
    if name == "ismcts" and arg and not 1 <= int(arg) <= MAX_ISMCTS_ITERATIONS:
        raise TableError("bad_seats", f"ismcts:N takes 1..{MAX_ISMCTS_ITERATIONS} iterations, not {arg}")
    if not arg and registry.get(game).bot_factory(name) is not None:
        why = bot_unavailable(name, game, num_players)  # makes it: e.g. the net bot's weights missing or damaged
        if why is not None:
            raise TableError("bad_seats", f"{why}: this server does not offer it")
        return spec
    try:
        make_bot(spec, seed=0, game=game)
    except (TypeError, ValueError) as exc:
        raise TableError("bad_seats", str(exc)) from None
    return spec


# ------------------------------------------------------------------ specs --
@dataclass(frozen=True)
class SeatSpec:
    """A seat as created: ``kind`` is ``"person"`` or ``"bot"``; ``bot`` the bot's spec."""

    kind: str
    name: str
    bot: Optional[str] = None

    def to_dict(self) -> Dict[str, Any]:
        """A JSON-ready dict."""
        return {"kind": self.kind, "name": self.name, "bot": self.bot}


@dataclass(frozen=True)
class TableSpec:
    """Everything that decides a table's games: the game, its options, the seats, the seed of
    the first game and the move cap."""

    game: str
    options: Dict[str, Any]
    seats: Tuple[SeatSpec, ...]
    seed: int
    max_moves: Optional[int] = None
    seed_chosen: bool = False  #: the creator chose the seed (so the creator can know the deals)

    def build_game(self) -> Any:
        """The engine's Game."""
        return _build_game(self.game, self.options, len(self.seats), self.max_moves)

    def to_dict(self) -> Dict[str, Any]:
        """A JSON-ready dict (no secrets: they are not part of the spec)."""
        return {"game": self.game, "options": self.options, "seats": [s.to_dict() for s in self.seats],
                "seed": self.seed, "max_moves": self.max_moves, "seed_chosen": self.seed_chosen}

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "TableSpec":
        """The inverse of :meth:`to_dict`."""
        return cls(d["game"], dict(d["options"]), tuple(SeatSpec(s["kind"], s["name"], s.get("bot"))
                                                         for s in d["seats"]), int(d["seed"]), d.get("max_moves"),
                   bool(d.get("seed_chosen", False)))

    @classmethod
    def create(cls, game: Any, preset: Any = None, rules: Any = None, seats: Any = None, seed: Any = None,
               max_moves: Any = None) -> "TableSpec":
        """A checked spec from a request's fields (TableError naming what is wrong):
        ``game`` a registered name or alias; ``preset`` (a game with presets); ``rules`` a dict of
        NAME: value or NAME=VALUE lines; ``seats`` a list of ``{"kind": "person", "name": ...}``
        or ``{"kind": "bot", "bot": "greedy"}``; ``seed`` None (a random one) or 0..MAX_SEED;
        ``max_moves`` None or a move cap."""
        if not isinstance(game, str):
            raise TableError("bad_game", "game must be a game's name")
        try:
            info = registry.get(game)
        except ValueError as exc:
            raise TableError("bad_game", str(exc)) from None
        if preset is not None and not isinstance(preset, str):
            raise TableError("bad_rules", "preset must be a preset's name")
        overrides = _rules_arg(rules)
        options = parse_options(info.name, preset, overrides)
        if not isinstance(seats, list) or not 2 <= len(seats) <= MAX_SEATS:
            raise TableError("bad_seats", f"seats must be a list of 2..{MAX_SEATS} seats")
        specs = []
        for q, s in enumerate(seats):
            if not isinstance(s, dict) or not set(s) <= {"kind", "name", "bot"}:
                raise TableError("bad_seats", f"seat {q}: a dict with kind, name and (for a bot) bot")
            kind = s.get("kind")
            if kind not in ("person", "bot"):
                raise TableError("bad_seats", f"seat {q}: kind is person or bot, not {kind!r}")
            bot = _check_bot(info.name, s.get("bot"), len(seats)) if kind == "bot" else None
            if kind == "person" and s.get("bot") is not None:
                raise TableError("bad_seats", f"seat {q}: a person has no bot")
            name = s.get("name")
            if name in (None, ""):
                name = bot if kind == "bot" else "person"  # shown as "seat 2 (greedy)" (seat_label)
            if not isinstance(name, str) or not _NAME_RE.match(name.strip()):
                raise TableError("bad_seats", f"seat {q}: a name is 1..24 characters, without <>&\"'`\\ or "
                                              "control characters")
            specs.append(SeatSpec(kind, name.strip(), bot))
        if not any(s.kind == "person" for s in specs):
            raise TableError("bad_seats", "a table needs at least one person")
        chosen = seed is not None
        if seed is None:
            seed = secrets.randbelow(MAX_SEED + 1)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise TableError("bad_seed", f"seed must be a whole number in 0..{MAX_SEED} or null")
        if max_moves is not None and (isinstance(max_moves, bool) or not isinstance(max_moves, int)
                                      or not 1 <= max_moves <= 100_000):
            raise TableError("bad_rules", "max_moves must be a whole number in 1..100000 or null")
        spec = cls(info.name, options, tuple(specs), seed, max_moves, chosen)
        spec.build_game()  # the engine refuses a combination of options and players it cannot deal
        return spec


def _rules_arg(rules: Any) -> Dict[str, Any]:
    """House rules as a dict: from a dict, or from NAME=VALUE text (lines, commas or spaces between)."""
    if rules is None or rules == "":
        return {}
    if isinstance(rules, dict):
        if len(rules) > 40 or not all(isinstance(k, str) for k in rules):
            raise TableError("bad_rules", "rules: at most 40 NAME: value pairs")
        return {k.strip().replace("-", "_"): v for k, v in rules.items()}
    if not isinstance(rules, str) or len(rules) > 2000:
        raise TableError("bad_rules", "rules: NAME=VALUE lines (at most 2000 characters)")
    out: Dict[str, Any] = {}
    for line in rules.replace(";", "\n").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, sep, value = line.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not name:
            raise TableError("bad_rules", f"a house rule is NAME=VALUE, not {line!r}")
        out[name] = value.strip()
    return out


# ------------------------------------------------------------------ table --
@dataclass
class Seat:
    """One seat of a table: the person (by the hash of its secret) or the bot that sits there,
    and whether a stand-in bot plays for the person (``away``)."""

    index: int
    spec: SeatSpec
    secret_hash: Optional[str] = None   # people only
    away: bool = False                  # the turn timer gave the seat to the stand-in bot
    connections: int = 0                # open connections of this seat

    @property
    def is_bot(self) -> bool:
        """True for a bot's seat."""
        return self.spec.kind == "bot"

    @property
    def driven_by_bot(self) -> bool:
        """True when a bot chooses this seat's moves: a bot seat, or a person's seat while away."""
        return self.is_bot or self.away

    def public(self) -> Dict[str, Any]:
        """What everyone may know of the seat (never its secret)."""
        return {"seat": self.index, "name": self.spec.name, "label": seat_label(self.index, self.spec.name),
                "kind": self.spec.kind, "bot": self.spec.bot, "connected": self.connections > 0, "away": self.away}


@dataclass
class MoveRecord:
    """One applied move: its index in the game (0 = the first move), the seat that moved, the
    action id and its notation, who chose it (``person``, ``bot`` or ``standin``) and the
    engine's events of the move (threes.events.Event; empty before the engine reports them)."""

    n: int
    seat: int
    action: int
    text: str
    by: str
    events: List[Any] = field(default_factory=list)


def draw_seed() -> int:
    """A new game's seed (0..MAX_SEED) from the operating system's cryptographic source: it depends
    on nothing public, so no one can compute a deal from what the server has published (issue 37)."""
    return secrets.randbelow(MAX_SEED + 1)


class Table:
    """A table: the spec, the seats, the current game (engine state) and its move records.

    ``act`` (a person's move) and ``bot_move`` (a bot's) are the only ways the state
    changes; both return the :class:`MoveRecord`. ``new_game`` starts the next game
    (rematch) with a new seed.

    The first game is dealt from the spec's seed; every later one from :func:`draw_seed`. A seed
    the creator chose (``seed_chosen``) is shown to every seat; any other is published only once
    its game is over."""

    def __init__(self, table_id: str, spec: TableSpec, secret_hashes: Sequence[Optional[str]],
                 standin: str = "greedy", game_number: int = 1, seed: Optional[int] = None,
                 created_at: Optional[float] = None, seed_chosen: Optional[bool] = None, creator: str = "",
                 joined: bool = False):
        self.id = table_id
        self.spec = spec
        self.info = registry.get(spec.game)
        self.game = spec.build_game()
        self.seats = [Seat(q, s, h) for q, (s, h) in enumerate(zip(spec.seats, secret_hashes))]
        self.standin_spec = standin
        self.created_at = time.time() if created_at is None else created_at
        self.creator = creator      #: the address that created the table (per-address limits)
        self.joined = joined        #: a person has joined (a table nobody joins expires)
        self.game_number = game_number - 1
        self.updated_at = self.created_at
        if seed is None and game_number == 1:
            seed, seed_chosen = spec.seed, spec.seed_chosen
        self.new_game(seed, bool(seed_chosen))

    @classmethod
    def create(cls, table_id: str, spec: TableSpec, standin: str = "greedy",
               creator: str = "") -> Tuple["Table", List[Optional[str]]]:
        """A new table and each seat's secret (None for bots): the only time secrets exist in
        clear; the table keeps their hashes."""
        plain = [new_secret() if s.kind == "person" else None for s in spec.seats]
        table = cls(table_id, spec, [None if p is None else secret_hash(p) for p in plain], standin, creator=creator)
        return table, plain

    # -- games ---------------------------------------------------------------
    def new_game(self, seed: Optional[int] = None, seed_chosen: bool = False) -> None:
        """Deals the table's next game: from ``seed`` (a restored game's, or the first game's), by
        default a new one from :func:`draw_seed`."""
        self.game_number += 1
        self.seed = draw_seed() if seed is None else int(seed)
        self.seed_chosen = bool(seed_chosen) and seed is not None  #: the creator chose this game's seed
        self.state = self.game.new_initial_state(seed=self.seed)
        self.moves: List[MoveRecord] = []
        self.started_at = time.time()
        self.finished_at: Optional[float] = None
        n = len(self.seats)
        self._bots = [None if not s.is_bot else self._make_bot(s.spec.bot, q) for q, s in enumerate(self.seats)]
        self._standins = [None] * n
        self._bot_seq = 0
        for s in self.seats:
            s.away = False

    def _make_bot(self, spec: str, q: int, salt: int = 0) -> Any:
        bot = make_bot(spec, seed=(self.seed * 1_000_003 + 97 * q + salt) % 2**63, game=self.info.name)
        if isinstance(bot, ISMCTSBot):
            bot.time_limit = ISMCTS_TIME_LIMIT
        return bot

    def replay_to(self, actions: Sequence[int], movers: Optional[Sequence[str]] = None) -> None:
        """Replays recorded actions of the current game (a restart of the server) and who chose them."""
        for k, a in enumerate(actions):
            by = movers[k] if movers is not None and k < len(movers) else "bot"
            self._apply(self.state.current_player(), int(a), by)

    @property
    def over(self) -> bool:
        """True when the current game is over."""
        return self.state.is_terminal()

    @property
    def move_number(self) -> int:
        """Moves made in the current game (the position's number)."""
        return len(self.moves)

    def to_move(self) -> Optional[int]:
        """The seat to move, or None when the game is over."""
        cp = self.state.current_player()
        return None if cp < 0 else cp

    # -- people ---------------------------------------------------------------
    def check_secret(self, seat: Any, secret: Any) -> bool:
        """Whether ``secret`` is seat ``seat``'s (constant-time comparison of the hashes)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            return False
        want = self.seats[seat].secret_hash
        if want is None or not isinstance(secret, str):
            return False
        return hmac.compare_digest(secret_hash(secret), want)

    def parse_action(self, action: Any) -> int:
        """An action id from an id or notation text (``7x2``, ``discard 7h``); TableError if
        neither."""
        if isinstance(action, bool):
            raise TableError("illegal", "an action is an id or its notation")
        if isinstance(action, int):
            return action
        try:
            return int(self.state.string_to_action(action))
        except (TypeError, ValueError) as exc:
            raise TableError("illegal", f"not a move: {exc}") from None

    def act(self, seat: int, action: Any, move_number: int) -> MoveRecord:
        """A person's move for ``seat``, made on position ``move_number`` (what the client saw):
        TableError ``game_over``, ``not_your_turn``, ``stale`` (the position moved on: a second
        click, a move the stand-in bot made first) or ``illegal``. The person is back from
        being away."""
        if self.over:
            raise TableError("game_over", "the game is over")
        if self.to_move() != seat:
            raise TableError("not_your_turn", f"it is seat {self.to_move()}'s turn, not seat {seat}'s")
        if move_number != self.move_number:
            raise TableError("stale", f"the position moved on: it is move {self.move_number}, not {move_number}")
        a = self.parse_action(action)
        if a not in self.state.legal_actions():
            raise TableError("illegal", f"{action!r} is not a legal move now")
        self.seats[seat].away = False
        return self._apply(seat, a, "person")

    def come_back(self, seat: int) -> bool:
        """The person of ``seat`` is back: the stand-in bot stops playing for it. True if it was away."""
        s = self.seats[seat]
        was, s.away = s.away, False
        return was

    def set_away(self, seat: int) -> None:
        """The turn timer ran out: the stand-in bot plays for the seat until the person is back."""
        if not self.seats[seat].is_bot:
            self.seats[seat].away = True

    # -- bots -------------------------------------------------------------------
    def bot_to_move(self) -> Optional[int]:
        """The seat to move when a bot (or a stand-in) chooses its move, else None."""
        q = self.to_move()
        return q if q is not None and self.seats[q].driven_by_bot else None

    def bot_for(self, seat: int) -> Any:
        """The bot that chooses for ``seat`` now: its own, or the stand-in of an away person."""
        if self.seats[seat].is_bot:
            return self._bots[seat]
        if self._standins[seat] is None:
            self._standins[seat] = self._make_bot(self.standin_spec, seat, salt=1)
        return self._standins[seat]

    def bot_view(self, seat: int) -> Tuple[Any, Any, bool]:
        """(bot, the state it decides on, whether the decision is cheap enough for the event loop).
        The state is ``threes.bots.bot_view``: what the seat can know."""
        bot = self.bot_for(seat)
        self._bot_seq += 1
        view = bot_view(bot, self.state, seat, (self.seed + 7919 * self._bot_seq) % 2**64)
        cheap = isinstance(bot, PolicyBot) and type(bot).step is PolicyBot.step
        return bot, view, cheap

    def bot_move(self, seat: int, action: int) -> MoveRecord:
        """Applies a bot's chosen action for ``seat`` (which must still be to move and bot-driven)."""
        if self.to_move() != seat or not self.seats[seat].driven_by_bot:
            raise TableError("stale", "the position moved on")
        if action not in self.state.legal_actions():
            raise TableError("illegal", f"the bot chose an illegal action {action}")
        return self._apply(seat, action, "bot" if self.seats[seat].is_bot else "standin")

    # -- the engine ----------------------------------------------------------------
    def _apply(self, seat: int, action: int, by: str) -> MoveRecord:
        text = self.state.action_to_string(action)
        # the move's events; no undo record (a table never takes a move back: it would cost ~2 KB a move)
        events = list(self.state.apply(action, undo=False))
        rec = MoveRecord(len(self.moves), seat, action, text, by, events)
        self.moves.append(rec)
        self.updated_at = time.time()
        if self.state.is_terminal():
            self.finished_at = self.updated_at
        return rec

    def legal_moves(self) -> List[Dict[str, Any]]:
        """The legal moves of the seat to move: id, notation and a label for a button."""
        out = []
        for a in self.state.legal_actions():
            text = self.state.action_to_string(a)
            out.append({"id": a, "text": text, "label": move_label(self.state, a, text)})
        return out

    # -- results -------------------------------------------------------------------
    def result(self) -> Optional[Dict[str, Any]]:
        """The result of a finished game (None while it is on): returns, the places (seats best
        first: the finish order of a game that has one, else the totals, lowest first), the scores,
        and how the game ended."""
        if not self.over:
            return None
        return game_result(self.state)

    def record(self) -> Dict[str, Any]:
        """The finished (or current) game as storage keeps it."""
        return {"table_id": self.id, "game_number": self.game_number, "game": self.spec.game,
                "options": self.spec.options, "max_moves": self.spec.max_moves, "seed": self.seed,
                "seed_chosen": self.seed_chosen,
                "num_players": len(self.seats), "seats": [s.spec.to_dict() for s in self.seats],
                "actions": [m.action for m in self.moves], "by": [m.by for m in self.moves],
                "result": self.result(), "started_at": self.started_at, "finished_at": self.finished_at}

    def summary(self) -> Dict[str, Any]:
        """A public summary for the lobby (no card, no secret, no seed of a game in progress unless
        the creator chose it)."""
        return {"table": self.id, "game": self.spec.game, "title": self.info.title, "options": self.spec.options,
                "seed_chosen": self.seed_chosen,
                "seats": [s.public() for s in self.seats], "game_number": self.game_number,
                "move_number": self.move_number, "to_move": self.to_move(), "over": self.over,
                "seed": self.public_seed()}

    def public_seed(self) -> Optional[int]:
        """The current game's seed where everyone may know it: once the game is over, or when the
        creator chose it (then every seat is shown it before play); else None."""
        return self.seed if self.over or self.seed_chosen else None


def game_result(state: Any) -> Dict[str, Any]:
    """The result of a finished engine state (both games)."""
    n = state.num_players()
    returns = [float(x) for x in state.returns()]
    finish = getattr(state, "finish_order", None)
    scores = None
    if callable(getattr(state, "scores", None)):
        scores = [int(x) for x in state.scores()]
    if callable(finish):
        order = [int(q) for q in finish()]
        places = order + [q for q in range(n) if q not in order]
    else:
        places = sorted(range(n), key=lambda q: (scores[q] if scores else 0, q))
    return {"returns": returns, "finish_order": order if callable(finish) else places, "places": places,
            "scores": scores, "truncated": bool(state.is_truncated()), "stalemate": bool(state.is_stalemate()),
            "moves": int(state.move_number())}


_RANK_SHOWN = {"T": "10", "X": "JK"}


def _rank_text(r: str) -> str:
    return _RANK_SHOWN.get(r, r)


def move_label(state: Any, action: int, text: str) -> str:
    """A move's button label: the notation as the table shows cards (10 for T, JK for X), and a
    swap as the cards it keeps face up."""
    words = text.split()
    if words and words[0] == "swap" and len(words) == 2:
        return "keep face up: " + " ".join(_rank_text(r) for r in words[1])
    out = []
    for w in words:
        m = re.fullmatch(r"([2-9TJQKAX])x(\d+)", w)
        out.append(f"{_rank_text(m.group(1))}x{m.group(2)}" if m else w)
    return " ".join(out)


def describe_module(game: str) -> Optional[Any]:
    """The game's narration module (``threes.<game>.describe``), or None when it has none."""
    info = registry.get(game)
    try:
        return importlib.import_module(info.module + ".describe")
    except ImportError:
        return None
