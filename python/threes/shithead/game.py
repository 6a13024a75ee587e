"""Game, State and Move: the OpenSpiel-style API over the C engine."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

import numpy as np

from threes.shithead import _core
from threes.args import check_keys, int_arg, seed64
from threes.cards import _KIND, _TEXT, CARDS, RANKS, Card, card_kind, rank_index
from threes.errors import IllegalActionError
from threes.phases import GamePhase
from threes._state import GameState
from threes.shithead.rules import Rules

#: current_player() when the game is over (OpenSpiel's value).
TERMINAL_PLAYER_ID: int = _core.TERMINAL_PLAYER_ID
#: The move cap when none is given: every action counts, swap decisions included.
DEFAULT_MAX_MOVES: int = _core.DEFAULT_MAX_MOVES
#: Size in bytes of the room a State holds for its C state (the largest table, the repetition ring
#: included); what a copy carries is State.nbytes, sized by the table and the rules.
STATE_SIZE_BYTES: int = _core.STATE_SIZE_BYTES

STATE_FORMAT = "threes.State/1"


class Phase(GamePhase):
    """The phase of a game: swap decisions, play, or over (a threes.phases.GamePhase)."""

    SWAP = "swap"
    PLAY = "play"
    OVER = "over"


_PHASES = (Phase.SWAP, Phase.PLAY, Phase.OVER)
_KINDS = ("play", "blind", "pickup", "swap")
_SOURCES = (None, "hand", "face_up", "hand+face_up", "face_down")
_SOURCE_PREFIX = {"face_up": "up", "hand+face_up": "hand+up"}
_PREFIX_SOURCE = {"hand": "hand", "up": "face_up", "face_up": "face_up", "hand+up": "hand+face_up",
                  "hand+face_up": "hand+face_up"}


@dataclass(frozen=True)
class Move:
    """One action, decoded: a small readable value.

    kind     ``"play"``, ``"blind"``, ``"pickup"`` or ``"swap"``
    source   where played cards come from: ``"hand"``, ``"face_up"``,
             ``"hand+face_up"`` (merging, RULES.md 6.2), ``"face_down"``; None
             when not known (decoded without a state) or not a play
    rank     rank character of a play (``"7"``, ``"T"``, ``"X"``), else None
    count    cards played (plays), else 0
    slot     face-down slot of a blind play, else None
    face_up  the ranks kept face up by a swap decision, sorted, else ()
    """

    kind: str
    source: Optional[str] = None
    rank: Optional[str] = None
    count: int = 0
    slot: Optional[int] = None
    face_up: Tuple[str, ...] = ()

    @classmethod
    def play(cls, rank, count: int = 1, source: Optional[str] = None) -> "Move":
        """A play of ``count`` cards of ``rank`` (any rank text or value 2..15) from ``source``, None when not
        given (encoding a move ignores its source: the state decides it)."""
        return cls("play", source, RANKS[rank_index(rank)], count)

    @classmethod
    def blind(cls, slot: int) -> "Move":
        """A blind play: the card in face-down slot ``slot`` turned over."""
        return cls("blind", "face_down", slot=slot)

    @classmethod
    def pickup(cls) -> "Move":
        """Picking up the pile."""
        return cls("pickup")

    @classmethod
    def swap(cls, face_up) -> "Move":
        """A swap decision keeping the ranks ``face_up`` (an iterable of rank texts or values) face up, stored
        sorted."""
        ranks = sorted((rank_index(r) for r in face_up))
        return cls("swap", face_up=tuple(RANKS[r] for r in ranks))

    @property
    def text(self) -> str:
        """The move in words: ``play two 4s from your hand``, ``turn face-down card 0 over``, ``pick up the
        pile``, ``keep face up: 4 8 J`` (a swap decision: the cards *kept* face up; the others go to the
        hand)."""
        if self.kind == "play":
            what = _rank_words(self.rank, self.count)
            where = _SOURCE_WORDS.get(self.source or "")
            return f"play {what} {where}" if where else f"play {what}"
        if self.kind == "blind":
            return f"turn face-down card {self.slot} over"
        if self.kind == "pickup":
            return "pick up the pile"
        return "keep face up: " + " ".join(_RANK_SHOWN.get(r, r) for r in self.face_up)

    def __str__(self) -> str:
        if self.kind == "play":
            text = f"{self.rank}x{self.count}"
            prefix = _SOURCE_PREFIX.get(self.source or "")
            return f"{prefix} {text}" if prefix else text
        if self.kind == "blind":
            return f"blind {self.slot}"
        if self.kind == "pickup":
            return "pickup"
        return "swap " + "".join(self.face_up)


_RANK_SHOWN = {"T": "10", "X": "JK"}  # rank characters as the screen shows them
_RANK_NAMES = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace", "X": "joker"}
_COUNT_WORDS = ("no", "a", "two", "three", "four", "five", "six", "seven", "eight")
_SOURCE_WORDS = {"hand": "from your hand", "face_up": "from your face-up cards",
                 "hand+face_up": "from your hand and face-up cards"}


def _rank_words(rank: Optional[str], count: int) -> str:
    """``a 4``, ``two 4s``, ``an ace``, ``three jokers``."""
    name = _RANK_NAMES.get(rank or "", rank or "?")
    if count == 1:
        return ("an " if name[0] in "a8" else "a ") + name
    return f"{_COUNT_WORDS[count] if count < len(_COUNT_WORDS) else count} {name}s"


#: names of the C core's event codes (src/threes_core/shithead/events.h)
_EVENT_KINDS = ("swap", "start", "play", "blind", "burn", "draw", "pickup", "again", "out", "stalemate", "truncated",
                "over")
_EVENT_DETAILS = (None, "played", "picked_up", "burn_card", "run", "last")


def _move_from_tuple(t) -> Move:
    kind, source, rank, count, slot, face_up = t
    k = _KINDS[kind]
    if k == "play":
        return Move("play", _SOURCES[source], RANKS[rank], count)
    if k == "blind":
        return Move("blind", "face_down", slot=slot)
    if k == "pickup":
        return Move("pickup")
    return Move("swap", face_up=tuple(RANKS[r] for r in face_up))


def _encode(raw_rules: Dict[str, Any], move: Move) -> int:
    if not isinstance(move, Move):
        raise TypeError(f"expected a Move, not {type(move).__name__}")
    if move.kind not in _KINDS:
        raise ValueError(f"unknown move kind {move.kind!r}")
    kind = _KINDS.index(move.kind)
    rank = rank_index(move.rank) if move.kind == "play" else 0
    count = move.count if move.kind == "play" else 0
    slot = move.slot if move.kind == "blind" else 0
    for what, v in (("count", count), ("slot", slot)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"a move's {what} is an int, not {type(v).__name__}")
    face_up = tuple(rank_index(r) for r in move.face_up) if move.kind == "swap" else ()
    a = _core.encode_move(raw_rules, kind, rank, count, slot, face_up)
    if a < 0:
        raise ValueError(f"move {move} does not fit these rules{_move_bounds(raw_rules, move)}")
    return a


def _move_bounds(raw_rules: Dict[str, Any], move: Move) -> str:
    """What a move of this kind may hold under these rules (for _encode's error): the count of a
    play, the slot of a blind play, the number of ranks a swap decision keeps face up."""
    if move.kind == "play":
        per_rank = _core.encode_move(raw_rules, 0, 1, 1, 0, ()) - _core.encode_move(raw_rules, 0, 0, 1, 0, ())
        return f": a play's count is in 1..{per_rank}"
    if move.kind == "blind":
        return f": a blind play's slot is in 0..{raw_rules['cards_per_zone'] - 1}"
    if move.kind == "swap":
        return f": a swap decision keeps {raw_rules['cards_per_zone']} ranks face up"
    return ""


# a play's rank as the screen shows it or as typed: "10" or "T", "JK", "joker" or "X"
_PLAY_RE = re.compile(r"^(10|jk|joker|[2-9tjqkax])(?:x([0-9]{1,3}))?$")


def _parse_move(text: str) -> Move:
    """Parses the notation of Move.__str__ (case and spacing free)."""
    if not isinstance(text, str):
        raise TypeError(f"expected a string, not {type(text).__name__}")
    t = " ".join(text.strip().lower().replace(":", " ").split())
    if t in ("pickup", "pick up", "pick"):
        return Move("pickup")
    if t.startswith("blind"):
        rest = t[5:].strip()
        if re.fullmatch(r"[0-9]{1,3}", rest):
            return Move("blind", "face_down", slot=int(rest))
        raise ValueError(f"{text!r}: write a blind play as 'blind 0'")
    if t.startswith("swap") or t.startswith("keep"):
        # "swap 48J", or as Move.text shows it: "keep face up: 4 8 J" (10 and JK as the screen shows them)
        keep = t.startswith("keep")
        body = t[4:].strip()
        body = body[len("face up"):] if body.startswith("face up") else body
        tokens = body.replace(",", " ").split()
        if len(tokens) == 1 and not (keep and tokens[0] in ("jk", "joker")):
            ranks = list(tokens[0].replace("10", "t"))  # "swap 48J": one character a rank
        else:
            ranks = ["x" if w in ("jk", "joker") else "t" if w == "10" else w for w in tokens]
        try:
            return Move.swap(ranks)
        except ValueError:
            raise ValueError(f"{text!r}: write a swap as 'swap 7TA' (the ranks to keep face up)") from None
    source = None
    parts = t.split(" ")
    if len(parts) == 2 and parts[0] in _PREFIX_SOURCE:
        source = _PREFIX_SOURCE[parts[0]]
        t = parts[1]
    elif len(parts) != 1:
        raise ValueError(f"{text!r} is not a move: try '7x2', 'up 7x1', 'blind 0', 'pickup' or 'swap 7TA'")
    m = _PLAY_RE.match(t)
    if not m:
        raise ValueError(f"{text!r} is not a move: try '7x2', 'up 7x1', 'blind 0', 'pickup' or 'swap 7TA'")
    rank = rank_index(m.group(1))
    count = int(m.group(2)) if m.group(2) else 1
    return Move("play", source, RANKS[rank], count)


class Game:
    """A game of the Shithead family: rules, player count and move cap.

    >>> game = Game(num_players=4, rules="threes")
    >>> state = game.new_initial_state(seed=7)
    """

    def __init__(self, num_players: int = 4, rules: Any = "threes", max_moves: Optional[int] = None,
                 dealer: Optional[int] = None):
        self._rules = Rules.coerce(rules)
        self._rules.check_players(num_players)
        num_players = int(num_players)
        self._num_players = num_players
        if max_moves is None:
            max_moves = DEFAULT_MAX_MOVES
        if isinstance(max_moves, bool) or not isinstance(max_moves, (int, np.integer)):
            raise TypeError(f"max_moves must be an int, not {type(max_moves).__name__}")
        if not 1 <= max_moves <= _core.MAX_MAX_MOVES:
            raise ValueError(f"max_moves must be between 1 and {_core.MAX_MAX_MOVES}, not {_shown(max_moves)}")
        self._max_moves = int(max_moves)
        if dealer is None:
            dealer = num_players - 1
        if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)):
            raise TypeError(f"dealer must be an int seat, not {type(dealer).__name__}")
        self._dealer = _check_dealer(int(dealer), num_players)
        self._raw = self._rules._raw()

    @property
    def rules(self) -> Rules:
        """The rule set of this game (a Rules)."""
        return self._rules

    @property
    def dealer(self) -> int:
        """The dealer's seat (by default the last, ``num_players - 1``); dealing and the swap phase start after it."""
        return self._dealer

    def num_players(self) -> int:
        """The number of seats."""
        return self._num_players

    def num_distinct_actions(self) -> int:
        """The number of action ids of these rules: every id is in 0 .. num_distinct_actions()-1."""
        return _core.num_distinct_actions(self._raw)

    def max_game_length(self) -> int:
        """The move cap: a game that reaches it ends truncated."""
        return self._max_moves

    def min_utility(self) -> float:
        """-1.0: the return of the last place, the shithead."""
        return -1.0

    def max_utility(self) -> float:
        """1.0: the return of the first player out."""
        return 1.0

    def utility_sum(self) -> float:
        """0.0: the returns of a game always sum to zero."""
        return 0.0

    def new_initial_state(self, seed: Optional[int] = None) -> "State":
        """A freshly dealt game in the swap phase. The same seed gives the
        same deal everywhere; any int is taken modulo 2**64; None draws one."""
        return State._deal(self._raw, self._num_players, self._dealer, self._max_moves, _seed64(seed))

    def position(self, hands: Any = None, face_up: Any = None, face_down: Any = None, pile: Any = (),
                 draw_pile: Any = (), burned: Any = (), rest: str = "burned", current_player: Optional[int] = None,
                 known: Any = None, finish_order: Any = None, seed: Optional[int] = None) -> "State":
        """A play-phase position from the cards you care about; every card of the deck you leave out is
        placed for you.

        ``hands``, ``face_up`` and ``face_down`` are per seat (a list with one entry per seat, or a dict
        ``{seat: cards}``; a seat left out has none); cards are text (``"Td"``, ``"10d"``, ``"Xr"``), a
        string of them (``"4c 4d 9h"``) or Card values. ``face_down`` lists a seat's face-down cards in slot
        order. ``pile`` is bottom first, ``draw_pile`` bottom first (its last card is drawn next).

        The missing cards (the deck less every card placed) go to the burned cards with ``rest="burned"``
        (the default: an endgame, nothing left to draw), or under ``draw_pile`` with ``rest="draw"``,
        shuffled by ``seed`` (the same seed, the same order). A card placed more often than the decks hold
        raises ValueError naming it. Seats with no card left are out, in seat order, unless
        ``finish_order`` says otherwise; ``current_player`` defaults to the first seat still in. ``known``
        (per seat) marks hand cards everyone knows (picked up from the pile). The rules, player count,
        dealer and move cap are this game's::

            >>> import threes
            >>> s = threes.Game(2).position(hands=["4c 4d", "Kh"], face_down=[[], ["9s"]], pile="7h")
            >>> [str(m) for m in s.legal_moves()]
            ['4x1', '4x2']
        """
        import random

        n = self._num_players
        if rest not in ("burned", "draw"):
            raise ValueError(f"rest must be 'burned' or 'draw', not {rest!r}")

        def per_seat(x: Any, what: str) -> List[List[int]]:
            if x is None:
                return [[] for _ in range(n)]
            if isinstance(x, dict):
                bad = [k for k in x if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < n]
                if bad:
                    raise ValueError(f"{what}: {bad[0]!r} is not a seat 0..{n - 1}")
                return [_position_cards(x.get(q, ()), f"{what}[{q}]") for q in range(n)]
            if isinstance(x, (str, Card)) or not isinstance(x, (list, tuple)):
                raise TypeError(f"{what} is per seat: a list with one entry per seat or a dict {{seat: cards}}")
            if len(x) > n:
                raise ValueError(f"{what} lists {len(x)} seats in a {n}-player game")
            return [_position_cards(x[q] if q < len(x) else (), f"{what}[{q}]") for q in range(n)]

        zones = {"hands": per_seat(hands, "hands"), "face_up": per_seat(face_up, "face_up"),
                 "face_down": per_seat(face_down, "face_down"), "known": per_seat(known, "known")}
        flat = {"pile": _position_cards(pile, "pile"), "draw_pile": _position_cards(draw_pile, "draw_pile"),
                "burned": _position_cards(burned, "burned")}
        rules = self.rules
        # every deck: the 52 cards, then its jokers (the red one first: RULES.md section 1)
        deck = {k: rules.decks for k in range(52 + rules.jokers)}
        placed: Dict[int, int] = {}
        for cards in [*zones["hands"], *zones["face_up"], *zones["face_down"], *flat.values()]:
            for k in cards:
                placed[k] = placed.get(k, 0) + 1
        for k, c in sorted(placed.items()):
            if c > deck.get(k, 0):
                raise ValueError(f"card {Card(k)} is placed {c} times; the {rules.decks} deck(s) hold "
                                 f"{deck.get(k, 0)}")
        missing = [k for k in sorted(deck) for _ in range(deck[k] - placed.get(k, 0))]
        if rest == "draw":
            random.Random(_seed64(seed)).shuffle(missing)
            flat["draw_pile"] = missing + flat["draw_pile"]
        else:
            flat["burned"] = flat["burned"] + missing
        empty = [q for q in range(n) if not (zones["hands"][q] or zones["face_up"][q] or zones["face_down"][q])]
        finish = list(empty) if finish_order is None else list(finish_order)
        if current_player is None:
            still = [q for q in range(n) if q not in finish]
            current_player = still[0] if still else 0
        current_player = _check_int(current_player, "current_player")
        text = lambda ks: [str(Card(k)) for k in ks]  # noqa: E731
        d = {"format": STATE_FORMAT, "rules": rules.to_dict(), "num_players": n, "dealer": self._dealer,
             "max_moves": self._max_moves, "phase": "play", "current_player": current_player, "move_count": 0,
             "truncated": False, "finish_order": finish, "hands": [text(h) for h in zones["hands"]],
             "known": [text(h) for h in zones["known"]], "face_up": [text(h) for h in zones["face_up"]],
             "face_down": [text(h) for h in zones["face_down"]], "pile": text(flat["pile"]),
             "draw_pile": text(flat["draw_pile"]), "burned": text(flat["burned"]), "history": []}
        return State.from_dict(d)

    def observation_tensor_shape(self) -> List[int]:
        """Shape of ``State.observation_tensor(p)`` for this game."""
        return [_core.observation_size(self._num_players)]

    def decode_action(self, action: int) -> Move:
        """The move of an id, without a state (source None)."""
        a = _check_int(action, "action")
        if not 0 <= a < self.num_distinct_actions():
            raise IllegalActionError(f"action {a} is out of range: ids are 0..{self.num_distinct_actions() - 1}")
        return _move_from_tuple(_core.decode_action(self._raw, a))

    def encode_move(self, move: Move) -> int:
        """The id of a move, without a state (its source is ignored); a ValueError when the move does not
        fit these rules, a TypeError for anything but a Move."""
        return _encode(self._raw, move)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (self._rules, self._num_players, self._max_moves, self._dealer) == (
            other._rules, other._num_players, other._max_moves, other._dealer)

    def __hash__(self) -> int:
        return hash((self._rules, self._num_players, self._max_moves, self._dealer))

    def __copy__(self) -> "Game":
        return self  # a Game is an immutable value

    def __deepcopy__(self, memo) -> "Game":
        return self

    def __repr__(self) -> str:
        extra = "" if self._max_moves == DEFAULT_MAX_MOVES else f", max_moves={self._max_moves}"
        if self._dealer != self._num_players - 1:
            extra += f", dealer={self._dealer}"
        rules = repr(self._rules.name) if self._rules.name != "custom" else repr(self._rules)
        return f"Game(num_players={self._num_players}, rules={rules}{extra})"


_seed64 = seed64


def _position_cards(x: Any, where: str) -> List[int]:
    """Card kinds of Game.position's cards: a string of card texts, or a list of texts or Cards."""
    if isinstance(x, Card):
        return [x.kind]
    if isinstance(x, str):
        x = x.replace(",", " ").split()
    if not isinstance(x, (list, tuple)):
        raise TypeError(f"{where}: cards are a string such as '4c 4d' or a list of cards, not {type(x).__name__}")
    out = []
    for c in x:
        try:
            out.append(Card(c).kind)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"{where}: {exc}") from None
    return out


def _check_dealer(dealer: int, num_players: int) -> int:
    """The dealer seat, checked (the one check of Game() and from_dict; the C
    entry points check it again for their own callers)."""
    if not 0 <= dealer < num_players:
        raise ValueError(f"dealer must be a seat in 0..{num_players - 1}, not {_shown(dealer)}")
    return dealer


def _shown(v: int) -> str:
    """An int for an error message: itself, or its sign when it is huge (a message stays short)."""
    return str(v) if -10**12 < v < 10**12 else ("a negative number" if v < 0 else "a larger number")


def _special_player(player: Any, num_players: int) -> int:
    """The player of OpenSpiel's ``(player, action)`` forms: a seat, or one of OpenSpiel's special
    player ids down to TERMINAL_PLAYER_ID (-4: chance -1, simultaneous -2, invalid -3); the action
    does not depend on it."""
    return int_arg(player, "the player of (player, action)", TERMINAL_PLAYER_ID, num_players - 1)


def _check_int(x: Any, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
        raise TypeError(f"{what} must be an int, not {type(x).__name__}")
    return int(x)


def _check_seat(x: Any, what: str, num_players: int) -> int:
    """An int seat in 0..num_players-1, checked in Python before any C call
    (a TypeError for a non-int, a ValueError for any int out of range, also
    one too large for a C int)."""
    q = _check_int(x, what)
    if not 0 <= q < num_players:
        raise ValueError(f"{what} must be a seat in 0..{num_players - 1}, not {q}")
    return q


def _cards(kinds) -> List[Card]:
    # the engine's kinds are valid: the shared Card of each (cards.CARDS), not a new checked one
    return [CARDS[k] for k in kinds]


if TYPE_CHECKING:  # pragma: no cover
    from threes.shithead.observation import Observation


class State(GameState, _core.StateBase):
    """A position of a game. Made by ``Game.new_initial_state(seed)``,
    ``State.from_dict(d)`` or ``clone()``; every method that takes outside data
    checks it and raises a clear exception, leaving the state unchanged.
    ``apply(move)`` returns the move's events: a swap decision and who starts;
    a blind card turned, cards played, burned, drawn, picked up, plays again,
    out, stalemate or truncation, game over."""

    __slots__ = ()
    _MOVE = Move
    _EVENTS = (_EVENT_KINDS, _SOURCES, _EVENT_DETAILS, CARDS.__getitem__)

    # ------------------------------------------------------------ basics --
    @property
    def phase(self) -> Phase:
        """The phase of the game: ``Phase.SWAP``, ``Phase.PLAY`` or ``Phase.OVER``."""
        return _PHASES[self._phase_id()]

    @property
    def rules(self) -> Rules:
        """The rule set this state is played under (a Rules)."""
        return Rules._from_raw(self._raw_rules())

    @property
    def dealer(self) -> int:
        """The dealer's seat."""
        return self._dealer()

    def get_game(self) -> Game:
        """A Game with this state's player count, rules, move cap and dealer (equal to the one that dealt it)."""
        return Game(self.num_players(), self.rules, self.max_game_length(), self.dealer)

    # ------------------------------------------------------------- moves --
    def decode_action(self, action: int) -> Move:
        """The move of an id, with the source that applies in this state."""
        return _move_from_tuple(self._decode(action))

    def encode_move(self, move: Move) -> int:
        """The id of a move (its source is ignored: the state decides it)."""
        return _encode(self._raw_rules(), move)

    def action_to_string(self, action: int, *more: int) -> str:
        """Notation of an action: ``7x2`` (two 7s from the hand), ``up 7x1``,
        ``hand+up 7x3``, ``blind 0``, ``pickup``, ``swap 7TA``. Also accepts
        OpenSpiel's ``(player, action)`` form."""
        if more:
            _special_player(action, self.num_players())
            action = more[0]
        return str(self.decode_action(action))

    def string_to_action(self, text: str, *more: str) -> int:
        """The id of an action written as action_to_string writes it (case and
        spacing free; ``10`` for ``T`` and, in a play, ``JK`` or ``joker`` for
        ``X``; the source prefix may be left out)."""
        if more:
            player, text = text, more[0]
            if not isinstance(text, str):
                raise TypeError(f"expected a string, not {type(text).__name__}")
            _special_player(player, self.num_players())
        move = _parse_move(text)
        a = self.encode_move(move)
        if move.source is not None and move.kind == "play":
            actual = self.decode_action(a).source
            if actual != move.source:
                raise ValueError(f"{text!r}: cards are played from {actual or 'nowhere'} now, not {move.source}")
        return a

    # ------------------------------------------------------------- zones --
    def hand(self, seat: int) -> List[Card]:
        """The true cards of a seat's hand, canonical order."""
        return _cards(self._hand(seat))

    def known_cards(self, seat: int) -> List[Card]:
        """The cards of a seat's hand that every player knows (RULES.md 2)."""
        return _cards(self._known(seat))

    def face_up(self, seat: int) -> List[Card]:
        """The face-up cards of a seat, canonical order."""
        return _cards(self._face_up(seat))

    def face_down(self, seat: int) -> List[Optional[Card]]:
        """The true face-down cards by slot; None for an empty slot."""
        return [None if k is None else CARDS[k] for k in self._face_down(seat)]

    def pile(self) -> List[Card]:
        """The pile, bottom first."""
        return _cards(self._pile())

    def draw_pile(self) -> List[Card]:
        """The true draw pile, bottom first (the next card drawn is last)."""
        return _cards(self._draw())

    def burned(self) -> List[Card]:
        """The burned cards (out of the game), canonical order."""
        return _cards(self._burned())

    def hand_size(self, seat: int) -> int:
        """The number of cards in a seat's hand, known ones included."""
        return self._sizes(seat)[0]

    def effective_top(self) -> Optional[str]:
        """Rank of the pile's effective top (past invisible cards), or None when open."""
        r = self._effective_top()
        return None if r is None else RANKS[r]

    def is_playable(self, rank) -> bool:
        """Whether a card of this rank may be played on the pile now (RULES.md 6.1)."""
        return self._playable(rank_index(rank))

    def top_run(self) -> Tuple[Optional[str], int]:
        """(rank, length) of the run at the top of the pile (RULES.md 6.3)."""
        r, n = self._run()
        return (None if r is None else RANKS[r], n)

    # ---------------------------------------------- imperfect information --
    def observation(self, player: int) -> "Observation":
        """What ``player`` can know, seats relative to it (threes.observation)."""
        from threes.shithead.observation import observe

        return observe(self, player)

    def observation_string(self, player: int) -> str:
        """A readable, deterministic text of ``observation(player)``: equal texts exactly for equal
        observations (threes.shithead.observation.observation_string)."""
        from threes.shithead.observation import observation_string, observe

        return observation_string(observe(self, player))

    def observation_tensor_shape(self) -> List[int]:
        """Shape of ``observation_tensor(p)``: ``[size]``, which depends only on the player count."""
        return [_core.observation_size(self.num_players())]

    # ------------------------------------------------------ serialization --
    def to_dict(self) -> Dict[str, Any]:
        """Everything about the position as a JSON-able dict (see README)."""
        hands, known, up, down, pile, draw, burned = self._snapshot()
        t = _TEXT
        return {
            "format": STATE_FORMAT,
            "rules": self.rules.to_dict(),
            "num_players": self.num_players(),
            "dealer": self.dealer,
            "max_moves": self.max_game_length(),
            "phase": self.phase.value,
            "current_player": self.current_player(),
            "move_count": self.move_number(),
            "truncated": self.is_truncated(),
            "finish_order": self.finish_order(),
            "hands": [[t[k] for k in h] for h in hands],
            "known": [[t[k] for k in h] for h in known],
            "face_up": [[t[k] for k in h] for h in up],
            "face_down": [[None if k is None else t[k] for k in h] for h in down],
            "pile": [t[k] for k in pile],
            "draw_pile": [t[k] for k in draw],
            "burned": [t[k] for k in burned],
            "history": self.history(),
            "stalemate": self.is_stalemate(),
            "repetitions": self._repetitions(),  # repetition keys since the last irreversible move (repetition_limit)
        }

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "State":
        """A state from a dict in the to_dict format; checks everything and
        raises ValueError (or TypeError) for a malformed or impossible one."""
        return _state_from_dict(cls, d)

    def __reduce__(self):
        return (_restore, (self.to_dict(),))

    def __eq__(self, other) -> bool:
        """Two states are equal when their positions are (history aside):
        same rules, seats, phase, player to move, move count and every card
        in the same zone (and order, for the piles and slots)."""
        if not isinstance(other, State):
            return NotImplemented
        return self._position_key() == other._position_key()

    __hash__ = None  # type: ignore[assignment]

    def fingerprint(self) -> str:
        """A short hex digest of the position (equal states, equal digests)."""
        return hashlib.blake2b(self._position_key(), digest_size=4).hexdigest()

    def __repr__(self) -> str:
        name = self.rules.name
        cp = self.current_player()
        who = f"seat {cp} to move" if cp >= 0 else ("stalemate" if self.is_stalemate() else
                                                    "truncated" if self.is_truncated() else "over")
        return (f"<threes.State {name} {self.num_players()}p {self.phase.value} move {self.move_number()}, "
                f"{who}, #{self.fingerprint()}>")

    def _repr_svg_(self) -> str:
        """The table as an SVG picture (Jupyter shows it): threes.svg.render."""
        from threes.ui.svg import render

        return render(self)

    def __str__(self) -> str:
        from threes.ui.text import render_text

        self._snapshot()  # raises a clear ValueError for a State that was never set up
        return render_text(self)


_core._reuse_freed(State)  # clone() and child() reuse freed states (threes._engine, copy_state)


def _restore(d: Dict[str, Any]) -> State:
    return State.from_dict(d)


# --------------------------------------------------------------- from_dict --

_REQUIRED = ("num_players", "phase", "current_player", "hands", "face_up", "face_down", "pile",
             "draw_pile", "burned")
_OPTIONAL = ("format", "rules", "dealer", "max_moves", "move_count", "truncated", "finish_order", "known",
             "history", "stalemate", "repetitions")


def _parse_card(x: Any, where: str) -> int:
    if not isinstance(x, str):
        raise TypeError(f"{where}: a card is a string such as 'Ah', not {type(x).__name__}")
    try:
        return card_kind(x)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None


def _card_list(x: Any, where: str) -> List[int]:
    if not isinstance(x, (list, tuple)):
        raise TypeError(f"{where} must be a list of cards, not {type(x).__name__}")
    get = _KIND.get  # the card parser's table: canonical text in one lookup
    out = [get(c) if type(c) is str else None for c in x]
    if None in out:
        return [_parse_card(c, f"{where}[{i}]") for i, c in enumerate(x)]
    return out


def _per_seat(d: Dict[str, Any], key: str, n: int) -> list:
    v = d[key]
    if not isinstance(v, (list, tuple)) or len(v) != n:
        raise ValueError(f"{key} must be a list with one entry per seat ({n})")
    return list(v)


def _int_field(d: Dict[str, Any], key: str, default: Any) -> Any:
    if key not in d:
        return default
    v = d[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"{key} must be an int, not {type(v).__name__}")
    return v


def _check_progress(rules: Rules, n: int, dealer: int, phase: str, current: int, move_count: int,
                    history: List[int]) -> None:
    """The fields of a state dict that the C setup cannot check against each other, checked against
    how a game gets there (ValueError naming them): the history is the last ``len(history)`` moves
    (all of them since the deal, or since a position was built by from_dict or Game.position), so
    it lists at most ``move_count`` actions; swap decisions come first (the swap phase has one per
    seat, in turn from the seat after the dealer): in the swap phase every action so far was one,
    ``move_count`` counts them and the seat to move follows from it (the C setup checks the cards:
    ``cards_per_zone`` in each seat's hand, face up and face down). Run once the C setup has
    accepted the position (its errors come first). Every state that legal moves reach from a state
    from_dict accepts passes these checks again, so ``from_dict(s.to_dict())`` never fails."""
    if len(history) > move_count:
        raise ValueError(f"history lists {len(history)} actions, more than the {move_count} moves played "
                         "(move_count)")
    raw = rules._raw()
    k = rules.cards_per_zone
    first_swap = _core.encode_move(raw, 3, 0, 0, 0, (0,) * k)  # swap decisions are the last ids
    swaps = [a >= first_swap for a in history]
    if phase == "swap":
        if move_count >= n:
            raise ValueError(f"move_count {move_count} in the swap phase: its {n} swap decisions are moves "
                             f"0..{n - 1}")
        expected = (dealer + 1 + move_count) % n
        if current != expected:
            raise ValueError(f"current_player {current} in the swap phase: after {move_count} swap decisions "
                             f"with dealer {dealer}, seat {expected} decides")
        if not all(swaps):
            raise ValueError("history lists a move that is not a swap decision in the swap phase")
    else:
        if swaps != sorted(swaps, reverse=True):
            raise ValueError("history lists a swap decision after a play: the swap decisions come first")
        if sum(swaps) > n:
            raise ValueError(f"history lists {sum(swaps)} swap decisions; a game of {n} has {n}")


def _state_from_dict(cls, d: Dict[str, Any]) -> State:
    if not isinstance(d, dict):
        raise TypeError(f"State.from_dict takes a dict, not {type(d).__name__}")
    check_keys(d, _REQUIRED, _OPTIONAL)
    if d.get("format", STATE_FORMAT) != STATE_FORMAT:
        raise ValueError(f"unknown state format {d.get('format')!r}; this version reads {STATE_FORMAT!r}")
    rules = Rules.coerce(d.get("rules", "threes"))
    n = _int_field(d, "num_players", None)
    rules.check_players(n)
    dealer = _int_field(d, "dealer", n - 1)
    max_moves = _int_field(d, "max_moves", DEFAULT_MAX_MOVES)
    if not 1 <= max_moves <= _core.MAX_MAX_MOVES:
        raise ValueError(f"max_moves must be between 1 and {_core.MAX_MAX_MOVES}, not {max_moves}")
    _check_dealer(dealer, n)
    phase = d["phase"]
    if phase not in ("swap", "play", "over"):
        raise ValueError(f"phase must be 'swap', 'play' or 'over', not {phase!r}")
    current = _int_field(d, "current_player", None)
    if not -2**31 <= current < 2**31:  # the C setup words the errors of the ints in a C int
        raise ValueError(f"current_player {_shown(current)} is not a seat: it is in 0..{n - 1}, or "
                         f"{TERMINAL_PLAYER_ID} when the game is over")
    move_count = _int_field(d, "move_count", 0)
    if not 0 <= move_count <= _core.MAX_MAX_MOVES:
        raise ValueError(f"move_count must be between 0 and max_moves, not {move_count}")
    truncated = d.get("truncated", False)
    if not isinstance(truncated, bool):
        raise TypeError(f"truncated must be true or false, not {type(truncated).__name__}")
    finish = d.get("finish_order", [])
    if not isinstance(finish, (list, tuple)) or not set(map(type, finish)) <= {int}:
        raise TypeError("finish_order must be a list of int seats")
    stalemate = d.get("stalemate", False)
    if not isinstance(stalemate, bool):
        raise TypeError(f"stalemate must be true or false, not {type(stalemate).__name__}")
    repetitions = d.get("repetitions", [])
    if not isinstance(repetitions, (list, tuple)) or not set(map(type, repetitions)) <= {int}:
        raise TypeError("repetitions must be a list of int repetition keys")
    history = d.get("history", [])
    if not isinstance(history, (list, tuple)) or not set(map(type, history)) <= {int}:
        raise TypeError("history must be a list of int action ids")
    n_actions = _core.num_distinct_actions(rules._raw())
    if history and not (0 <= min(history) and max(history) < n_actions):
        raise ValueError(f"history holds an action id outside 0..{n_actions - 1}")

    cards = []
    hands = _per_seat(d, "hands", n)
    known = _per_seat(d, "known", n) if "known" in d else [[] for _ in range(n)]
    for p in range(n):
        hand = _card_list(hands[p], f"hands[{p}]")
        kn = _card_list(known[p], f"known[{p}]")
        rest = list(hand)
        for k in kn:
            if k not in rest:
                raise ValueError(f"known[{p}] lists {Card(k)}, which is not (or not that often) in hands[{p}]")
            rest.remove(k)
        cards += [(_core.ZONE_HAND_KNOWN, p, k, 0) for k in kn]
        cards += [(_core.ZONE_HAND, p, k, 0) for k in rest]
    for p, up in enumerate(_per_seat(d, "face_up", n)):
        cards += [(_core.ZONE_FACE_UP, p, k, 0) for k in _card_list(up, f"face_up[{p}]")]
    for p, down in enumerate(_per_seat(d, "face_down", n)):
        if not isinstance(down, (list, tuple)):
            raise TypeError(f"face_down[{p}] must be a list of slots (cards or null)")
        if len(down) > rules.cards_per_zone:
            raise ValueError(f"face_down[{p}] has {len(down)} slots; these rules have {rules.cards_per_zone}")
        for slot, c in enumerate(down):
            if c is not None:
                cards.append((_core.ZONE_FACE_DOWN, p, _parse_card(c, f"face_down[{p}][{slot}]"), slot))
    cards += [(_core.ZONE_PILE, 0, k, 0) for k in _card_list(d["pile"], "pile")]
    cards += [(_core.ZONE_DRAW, 0, k, 0) for k in _card_list(d["draw_pile"], "draw_pile")]
    cards += [(_core.ZONE_BURNED, 0, k, 0) for k in _card_list(d["burned"], "burned")]
    st = cls._setup(rules._raw(), n, dealer, max_moves, cards, ("swap", "play", "over").index(phase),
                    current, move_count, truncated, list(finish), list(history), stalemate, list(repetitions))
    _check_progress(rules, n, dealer, phase, current, move_count, list(history))  # what C cannot tell
    return st
