"""Three Thirteen, the rummy game, on the same C core (docs/three_thirteen/RULES.md).

>>> from threes import three_thirteen as tt
>>> game = tt.Game(num_players=3)
>>> state = game.new_initial_state(seed=1)
>>> state.round(), state.wild_rank()
(1, '3')
>>> tt.min_deadwood("Qh Kh Ah", wild_rank="3")[0], tt.min_deadwood("Qh Kh Ah", "3", ace="either")[0]
(21, 0)

Cards are ``threes.Card`` values, as in Shithead: written rank then suit,
``Ah``, ``Td``, ``7s``, jokers ``Xr`` and ``Xb``; every function that takes
cards also takes their text. In Three Thirteen ranks run A (low) 2 .. 9 T J Q
K. Actions: 0 draws from the stock, 1 takes the top discard, ``2 + k``
discards a card of kind k, ``56 + k`` goes out discarding a card of kind k,
where k is the engine's kind of the card (``card_to_kind``: 4 * (rank - 1) +
suit, jokers 52 and 53); ``action_to_string`` gives ``stock``, ``take``,
``discard 7h``, ``out 7h``.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from threes.three_thirteen import _core
from threes.cards import CARDS, Card, card_kind, parse_cards, rank_index
from threes.errors import IllegalActionError
from threes.phases import GamePhase
from threes._state import GameState
from threes.args import check_keys, int_arg, seed64 as _seed64
from threes.batches import register as _register_batches, rollouts
from threes.results import RolloutResult

__all__ = ["Game", "State", "Move", "Observation", "Phase", "min_deadwood", "card_value", "rollout", "rollouts", "RolloutResult", "TTRolloutResult",
           "POLICIES", "card_to_kind", "kind_to_card"]

#: Three Thirteen's ranks in its order, A low (rank number 1..13).
RANKS = "A23456789TJQK"
POLICIES = _core.POLICIES  # the rollout policies, in the C engine's order
class Phase(GamePhase):
    """The phase of a turn: draw, then discard (or go out); over at the end (a threes.phases.GamePhase,
    equal to its text: ``state.phase == "draw"``)."""

    DRAW = "draw"
    DISCARD = "discard"
    OVER = "over"


_PHASES = (Phase.DRAW, Phase.DISCARD, Phase.OVER)

CardLike = Union[Card, str]

# --------------------------------------------------------------- cards --
# The one conversion between threes.Card and the Three Thirteen engine's card
# kinds (src/threes_core/three_thirteen/: kind = 4 * (rank - 1) + suit with A
# = 1, jokers 52 and 53). A Card's kind is 4 * rank index + suit with "2" = 0
# and A = 12 (threes.cards); the suits and the jokers are numbered alike.

#: The engine kind of each Card kind, and the Card of each engine kind.
_TT_KIND_OF = tuple(4 * ((k // 4 + 1) % 13) + k % 4 if k < 52 else k for k in range(len(CARDS)))
_CARD_OF = tuple(CARDS[_TT_KIND_OF.index(t)] for t in range(len(CARDS)))
_TEXT_OF = tuple(str(c) for c in _CARD_OF)


def card_to_kind(card: CardLike) -> int:
    """The Three Thirteen engine's kind (0..53) of a Card or of card text
    (``"Ah"`` -> 2, ``"2c"`` -> 4, ``"Xr"`` -> 52)."""
    return _TT_KIND_OF[card_kind(card)]


def kind_to_card(kind: int) -> Card:
    """The Card of a Three Thirteen engine kind (0..53)."""
    if isinstance(kind, bool) or not isinstance(kind, (int, np.integer)):
        raise TypeError(f"a card kind is an int, not {type(kind).__name__}")
    if not 0 <= kind < len(_CARD_OF):
        raise ValueError(f"a card kind is 0..{len(_CARD_OF) - 1}, not {kind}")
    return _CARD_OF[kind]


def _rank_number(rank: Any) -> int:
    """Three Thirteen's rank number 1..13 (A low) of a rank given as text
    (``"A"``, ``"2"``..``"9"``, ``"T"`` or ``"10"``, ``"J"``, ``"Q"``, ``"K"``)
    or as that number."""
    if isinstance(rank, bool):
        raise TypeError("a rank is 'A', '2'..'9', 'T', 'J', 'Q', 'K' or 1..13, not a bool")
    if isinstance(rank, (int, np.integer)):
        if 1 <= rank <= 13:
            return int(rank)
        raise ValueError(f"a rank number is 1..13, not {rank}")
    if not isinstance(rank, str):
        raise TypeError(f"a rank is 'A', '2'..'9', 'T', 'J', 'Q', 'K' or 1..13, not {type(rank).__name__}")
    try:
        index = rank_index(rank)  # threes.cards: "2" = 0 .. "A" = 12, "X" = 13
    except ValueError:
        index = 13
    if index == 13:
        raise ValueError(f"{rank!r} is not a rank: A, 2..9, T (or 10), J, Q, K")
    return (index + 1) % 13 + 1


def _meld_flags(ace: str, all_wild_melds: bool, wild_penalty: Union[str, int]) -> Tuple[bool, bool, bool]:
    if not isinstance(ace, str):
        raise TypeError(f"ace must be 'low' or 'either', not {type(ace).__name__}")
    if ace not in ("low", "either"):
        raise ValueError(f"ace must be 'low' or 'either', not {ace!r}")
    if isinstance(wild_penalty, bool) or not isinstance(wild_penalty, (str, int, np.integer)):
        raise TypeError(f"wild_penalty must be 'face' or 20, not {type(wild_penalty).__name__}")
    if wild_penalty not in ("face", 20, "20"):
        raise ValueError(f"wild_penalty must be 'face' or 20, not {wild_penalty!r}")
    if not isinstance(all_wild_melds, (bool, np.bool_)):
        raise TypeError("all_wild_melds must be True or False")
    return ace == "either", bool(all_wild_melds), wild_penalty != "face"


def min_deadwood(cards: Union[str, Sequence[CardLike]], wild_rank: Any, ace: str = "low",
                 all_wild_melds: bool = True, wild_penalty: Union[str, int] = "face") -> Tuple[int, Dict[str, Any]]:
    """The minimum deadwood of a hand (at most 14 cards: Cards, card text, or
    one string such as ``"Qh Kh Ah"``) and one best arrangement, in Cards:
    ``(value, {"melds": [("set"|"run", [cards])...], "deadwood": [cards]})``.
    Exact, in C (src/threes_core/three_thirteen/meld.h)."""
    hand = parse_cards(cards) if isinstance(cards, str) else cards
    kinds = [card_to_kind(c) for c in hand]
    wr = _rank_number(wild_rank)
    flags = _meld_flags(ace, all_wild_melds, wild_penalty)
    ranks = [0 if k >= 52 else k // 4 + 1 for k in kinds]
    suits = [k - 52 if k >= 52 else k % 4 for k in kinds]
    value, melds, dead = _core.min_deadwood(ranks, suits, wr, *flags)
    out = [_CARD_OF[k] for k in kinds]
    return value, {"melds": [(t, [out[i] for i in idx]) for t, idx in melds], "deadwood": [out[i] for i in dead]}


def card_value(card: CardLike, wild_rank: Any, ace: str = "low", wild_penalty: Union[str, int] = "face") -> int:
    """What one card (a Card or its text) scores when left over."""
    k = card_to_kind(card)
    ace_either, _, w20 = _meld_flags(ace, True, wild_penalty)
    return _core.card_value(0 if k >= 52 else k // 4 + 1, _rank_number(wild_rank), ace_either, w20)


class Game:
    """A Three Thirteen game: players and options (docs/three_thirteen/RULES.md,
    Options). ``decks=None`` is ceil(players / 2)."""

    def __init__(self, num_players: int = 2, decks: Optional[int] = None, jokers: int = 0, ace: str = "low",
                 all_wild_melds: bool = True, wild_penalty: Union[str, int] = "face", rediscard_taken: bool = False,
                 go_out_first_turn: bool = True, max_moves: Optional[int] = None):
        for name, v in (("num_players", num_players), ("jokers", jokers)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise TypeError(f"{name} must be an int, not {type(v).__name__}")
        if decks is not None and (isinstance(decks, bool) or not isinstance(decks, (int, np.integer))):
            raise TypeError(f"decks must be an int or None, not {type(decks).__name__}")
        ace_either, awm, w20 = _meld_flags(ace, all_wild_melds, wild_penalty)
        for name, v in (("rediscard_taken", rediscard_taken), ("go_out_first_turn", go_out_first_turn)):
            if not isinstance(v, (bool, np.bool_)):
                raise TypeError(f"{name} must be True or False")
        if max_moves is not None:
            if isinstance(max_moves, bool) or not isinstance(max_moves, (int, np.integer)):
                raise TypeError(f"max_moves must be an int or None, not {type(max_moves).__name__}")
            max_moves = int_arg(max_moves, "max_moves (or None)", 1, 2**32 - 1)
        # the C fields' width; the engine then checks each option's own bounds
        jokers = int_arg(jokers, "jokers", 0, 255)
        if decks is not None:
            decks = int_arg(decks, "decks (or None)", 0, 255)
        self._n = int(num_players)
        self._opts = {"decks": None if decks is None else int(decks), "jokers": int(jokers),
                      "ace_either": ace_either, "all_wild_melds": awm, "wild_penalty_20": w20,
                      "rediscard_taken": bool(rediscard_taken), "go_out_first_turn": bool(go_out_first_turn)}
        self._max_moves = 0 if max_moves is None else int(max_moves)
        self._resolved = self.new_initial_state(0)._options()  # checks the options and the player count now

    def num_players(self) -> int:
        """The number of seats."""
        return self._n

    def num_distinct_actions(self) -> int:
        """The number of action ids, ``NUM_ACTIONS`` (110) whatever the options: 0 stock, 1 take, ``2 + k``
        discard and ``56 + k`` go out with a card of kind k."""
        return _core.NUM_ACTIONS

    def observation_tensor_shape(self) -> List[int]:
        """The shape of State.observation_tensor: [size] (three_thirteen/observation.h)."""
        return [_core.observation_size(self._n)]

    def observation_tensor_layout(self) -> Dict[str, Tuple[int, int]]:
        """The tensor's blocks: name -> (offset, size), as observation.h documents them."""
        return _core.observation_layout(self._n)

    def options(self) -> Dict[str, Any]:
        """The options as Game takes them (``decks`` resolved, never None): decks, jokers, ace, all_wild_melds,
        wild_penalty, rediscard_taken, go_out_first_turn."""
        return _options_out(self._resolved)

    def new_initial_state(self, seed: Optional[int] = None) -> "State":
        """Round 1 dealt; the first dealer and every later deal come from the seed."""
        return State._new(self._n, dict(self._opts), _seed64(seed), self._max_moves)

    def _key(self) -> Tuple[Any, ...]:
        return (self._n, tuple(sorted(self._resolved.items())), self._max_moves)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        """``Game(num_players=3, jokers=2)``: the options that differ from
        the defaults, as Game takes them (eval-able with Game in scope)."""
        default = Game(self._n).options()
        extra = "".join(f", {k}={v!r}" for k, v in self.options().items() if v != default[k])
        if self._max_moves:
            extra += f", max_moves={self._max_moves}"
        return f"Game(num_players={self._n}{extra})"


def _options_out(raw: Dict[str, Any]) -> Dict[str, Any]:
    return {"decks": raw["decks"], "jokers": raw["jokers"], "ace": "either" if raw["ace_either"] else "low",
            "all_wild_melds": bool(raw["all_wild_melds"]), "wild_penalty": 20 if raw["wild_penalty_20"] else "face",
            "rediscard_taken": bool(raw["rediscard_taken"]), "go_out_first_turn": bool(raw["go_out_first_turn"])}


_OPTION_KEYS = ("decks", "jokers", "ace", "all_wild_melds", "wild_penalty", "rediscard_taken", "go_out_first_turn")


def _options_in(d: Any) -> Dict[str, Any]:
    """A state dict's options (as _options_out writes them) in the raw form;
    types checked here and in _core (decks and jokers are ints), values in C."""
    if not isinstance(d, dict):
        raise TypeError(f"options must be a dict, not {type(d).__name__}")
    unknown = [k for k in d if k not in _OPTION_KEYS]
    if unknown:
        raise ValueError(f"unknown options {', '.join(map(repr, unknown))}: the options are {', '.join(_OPTION_KEYS)}")
    if "decks" not in d:
        raise ValueError("the state dict lacks options.decks")
    ace_either, awm, w20 = _meld_flags(d.get("ace", "low"), d.get("all_wild_melds", True),
                                       d.get("wild_penalty", "face"))
    flags = {k: d.get(k, default) for k, default in (("rediscard_taken", False), ("go_out_first_turn", True))}
    for k, v in flags.items():
        if not isinstance(v, (bool, np.bool_)):
            raise TypeError(f"option {k} must be True or False, not {type(v).__name__}")
    return {"decks": d["decks"], "jokers": d.get("jokers", 0), "ace_either": ace_either, "all_wild_melds": awm,
            "wild_penalty_20": w20, "rediscard_taken": bool(flags["rediscard_taken"]),
            "go_out_first_turn": bool(flags["go_out_first_turn"])}


@dataclass(frozen=True)
class Observation:
    """What seat ``observer`` can know of a Three Thirteen position
    (``state.observation(p)``). Seats are absolute, as in the State."""

    observer: int
    num_players: int
    round: int
    wild_rank: str
    dealer: int
    phase: str                       # "draw", "discard" or "over"
    current_player: Optional[int]    # the seat to move; None when the game is over
    move_number: int
    hand: Tuple[Card, ...]           # the observer's own hand, sorted
    hand_sizes: Tuple[int, ...]
    discard_pile: Tuple[Card, ...]   # bottom first; the top card is last
    stock_size: int
    taken: Optional[Card]            # the card the player to move took from the discard pile this turn
    out_seat: Optional[int]          # the seat that went out this round, None while nobody has
    final_turns: int
    turns: Tuple[int, ...]
    scores: Tuple[int, ...]          # totals so far (the lowest wins)
    round_scores: Tuple[Tuple[int, ...], ...]
    known: Tuple[Tuple[Card, ...], ...]   # per seat, its cards everyone knows (T-9)
    pool: Optional[Tuple[Card, ...]]      # after a reshuffle: the reshuffled stock's cards still hidden; else None
    pool_held: Tuple[int, ...]            # per seat, how many of its cards are pool cards
    own_pool: Tuple[Card, ...]            # which of the observer's own cards are pool cards

    def __str__(self) -> str:
        return _observation_string(self)


def _cards_text(cards) -> str:
    return " ".join(map(str, cards)) or "-"


def _observation_string(o: Observation) -> str:
    to_move = "-" if o.current_player is None else o.current_player
    known = "; ".join(f"{q}: {_cards_text(h)}" for q, h in enumerate(o.known) if h and q != o.observer) or "-"
    pool = "-" if o.pool is None else (" ".join(map(str, o.pool)) or "(empty)")
    return (f"seat {o.observer} of {o.num_players}, round {o.round} (wild {o.wild_rank}), {o.phase}, "
            f"to move {to_move}\nhand: {_cards_text(o.hand)}\nhand sizes: {list(o.hand_sizes)}\n"
            f"discard: {_cards_text(o.discard_pile)}; stock {o.stock_size}; taken {o.taken or '-'}\n"
            f"known in other hands: {known}\npool: {pool}; pool cards held {list(o.pool_held)}; "
            f"own pool cards {_cards_text(o.own_pool)}\n"
            f"out: {'-' if o.out_seat is None else o.out_seat}, final turns {o.final_turns}; "
            f"scores {list(o.scores)}")


@dataclass(frozen=True)
class Move:
    """One Three Thirteen action, decoded: ``kind`` is ``"stock"`` (draw the stock's top card), ``"take"``
    (take the discard pile's top card), ``"discard"`` or ``"out"`` (discard ``card`` and go out, laying the
    rest of the hand down in melds). ``card``: the card discarded, or taken (a take decoded by a state),
    else None. ``str(move)`` is its notation, as ``action_to_string`` writes it and ``apply`` takes it."""

    kind: str
    card: Optional[Card] = None

    def __str__(self) -> str:
        if self.kind in ("discard", "out"):
            return f"{self.kind} {self.card}"
        return self.kind

    @property
    def text(self) -> str:
        """The move in words: ``draw from the stock``, ``take 7h from the discard pile``, ``discard 7h``,
        ``go out: discard 7h, lay down the rest in melds``."""
        if self.kind == "stock":
            return "draw from the stock"
        if self.kind == "take":
            return f"take {self.card} from the discard pile" if self.card else "take the discard pile's top card"
        if self.kind == "discard":
            return f"discard {self.card}"
        return f"go out: discard {self.card}, lay down the rest in melds"


#: names of the C core's event codes (src/threes_core/three_thirteen/events.h)
_EVENT_KINDS = ("draw", "reshuffle", "discard", "go_out", "last_turns", "round_end", "score", "round", "truncated",
                "over")
_EVENT_SOURCES = (None, "stock", "discard")
_EVENT_DETAILS = (None, "went_out", "stock_empty", "out")


def _action_id(action: Any) -> int:
    """An action id as an int: any int-like but a bool (TypeError)."""
    if isinstance(action, bool):
        raise TypeError("an action is an int id, not bool")
    try:
        return operator.index(action)
    except TypeError:
        raise TypeError(f"an action is an int id, not {type(action).__name__}") from None


def _player_arg(player: Any, num_players: Optional[int] = None) -> None:
    """The player of OpenSpiel's ``(player, action)`` form: an int (the
    action does not depend on it), not a bool, a float or a str: a seat, or
    one of OpenSpiel's special player ids down to TERMINAL_PLAYER_ID (-4)."""
    if isinstance(player, bool) or not isinstance(player, (int, np.integer)):
        raise TypeError(f"the player of (player, action) is an int, not {type(player).__name__}")
    if num_players is not None:
        int_arg(player, "the player of (player, action)", _core.TERMINAL_PLAYER_ID, num_players - 1)


def _out_of_range(a: int) -> IllegalActionError:
    return IllegalActionError(f"action {a} is out of range: ids are 0..{_core.NUM_ACTIONS - 1}")


class State(GameState, _core.StateBase):
    """A position of a Three Thirteen game (made by Game.new_initial_state,
    State.from_dict or clone). Illegal or out-of-range actions raise
    IllegalActionError and change nothing; a wrong type (a bool, a string)
    raises TypeError. ``apply(move)`` returns the move's events: a reshuffle
    and the draw; going out with the melds, the discard and the last turns;
    the round scored with every hand, the next round; truncation, game over."""

    __slots__ = ()
    _MOVE = Move
    _EVENTS = (_EVENT_KINDS, _EVENT_SOURCES, _EVENT_DETAILS, _CARD_OF.__getitem__)

    def is_stalemate(self) -> bool:
        """Always False: Three Thirteen has no stalemate by repetition. Its
        rules (docs/three_thirteen/RULES.md) define none: the stock is
        reshuffled from the discard pile (T-3), so the draws go on changing,
        and a game that does not end is stopped only by the move cap
        (``is_truncated()``). The method exists so that generic code asks
        every game the same question (``threes.places.end_reason``), never
        which game it holds; as for every game, is_stalemate() implies
        is_truncated() and is_terminal()."""
        return False

    def round(self) -> int:
        """The round, 1..11: round r deals r + 2 cards to each seat (at the end of the game, the last one played)."""
        return self._round()

    def wild_rank(self) -> str:
        """The rank wild this round, the one worth the round's hand size: ``"3"`` in round 1 .. ``"K"`` in
        round 11."""
        return RANKS[self.round() + 1]

    @property
    def phase(self) -> Phase:
        """``Phase.DRAW``, ``Phase.DISCARD`` or ``Phase.OVER`` (equal to ``"draw"``, ``"discard"``,
        ``"over"``)."""
        return _PHASES[self._phase_id()]

    def hand(self, seat: int) -> List[Card]:
        """The true cards of a seat's hand, sorted A low (the engine's order)."""
        f = self._fields()
        _check_seat(seat, f["num_players"])
        return [_CARD_OF[k] for k in f["hands"][seat]]

    def discard_pile(self) -> List[Card]:
        """Bottom first; the top card is last."""
        return [_CARD_OF[k] for k in self._fields()["discard"]]

    def stock_size(self) -> int:
        """The number of cards in the stock."""
        return len(self._fields()["stock"])

    def scores(self) -> List[int]:
        """Total score of each seat so far (the lowest wins)."""
        return list(self._fields()["totals"])

    def round_scores(self) -> List[List[int]]:
        """Each scored round's score of every seat, round 1 first (a round cut at the move cap is not scored)."""
        return [list(r) for r in self._fields()["round_scores"]]

    def deadwood(self, seat: int) -> int:
        """The minimum deadwood of a seat's hand now."""
        _check_seat(seat, self.num_players())
        return self._deadwood(seat)

    def observation_tensor_shape(self) -> List[int]:
        """The shape of observation_tensor: [size] (three_thirteen/observation.h)."""
        return [_core.observation_size(self.num_players())]

    def _repr_svg_(self) -> str:
        """The table as an SVG picture (Jupyter shows it): threes.svg.render."""
        from threes.ui.svg import render

        return render(self)

    def is_legal(self, action: int) -> bool:
        """Whether action id ``action`` is legal now: False for an id out of range and when the game is over;
        a TypeError for anything but an int (numpy ints too, never a bool)."""
        return _core.StateBase.is_legal(self, action if type(action) is int else _action_id(action))

    def action_to_string(self, action: int, *more: int) -> str:
        """``stock``, ``take``, ``discard 7h`` or ``out 7h``. Also accepts
        OpenSpiel's ``(player, action)`` form."""
        if more:
            _player_arg(action, self.num_players())
        a = _action_id(more[0] if more else action)
        if a == 0:
            return "stock"
        if a == 1:
            return "take"
        if _core.FIRST_DISCARD <= a < _core.FIRST_GO_OUT:
            return "discard " + _TEXT_OF[a - _core.FIRST_DISCARD]
        if _core.FIRST_GO_OUT <= a < _core.NUM_ACTIONS:
            return "out " + _TEXT_OF[a - _core.FIRST_GO_OUT]
        raise _out_of_range(a)

    def decode_action(self, action: int) -> Move:
        """The Move of an action id (a take names the card it takes in this state)."""
        a = _action_id(action)
        if a == 0:
            return Move("stock")
        if a == 1:
            pile = self.discard_pile() if self.phase == "draw" else []
            return Move("take", pile[-1] if pile else None)
        if _core.FIRST_DISCARD <= a < _core.FIRST_GO_OUT:
            return Move("discard", kind_to_card(a - _core.FIRST_DISCARD))
        if _core.FIRST_GO_OUT <= a < _core.NUM_ACTIONS:
            return Move("out", kind_to_card(a - _core.FIRST_GO_OUT))
        raise _out_of_range(a)

    def encode_move(self, move: Move) -> int:
        """The id of a Move (a take's card is not checked: there is one take)."""
        if not isinstance(move, Move):
            raise TypeError(f"expected a Move, not {type(move).__name__}")
        if move.kind == "stock":
            return 0
        if move.kind == "take":
            return 1
        if move.kind in ("discard", "out"):
            if move.card is None:
                raise ValueError(f"a {move.kind} move names its card")
            k = card_to_kind(move.card)
            return (_core.FIRST_DISCARD if move.kind == "discard" else _core.FIRST_GO_OUT) + k
        raise ValueError(f"unknown move kind {move.kind!r}: 'stock', 'take', 'discard' or 'out'")

    def string_to_action(self, text: str, *more: str) -> int:
        """The id of an action written as action_to_string writes it (case
        and spacing free; ``draw`` for ``stock``, ``10h`` for ``Th``). Also
        accepts OpenSpiel's ``(player, text)`` form."""
        if more:
            player, text = text, more[0]
            _player_arg(player)
            if isinstance(text, str):
                _player_arg(player, self.num_players())
        if not isinstance(text, str):
            raise TypeError(f"string_to_action takes a string such as 'discard 7h', not {type(text).__name__}")
        words = text.split()
        t = [w.lower() for w in words]
        if t == ["stock"] or t == ["draw"]:
            return 0
        if t == ["take"]:
            return 1
        if len(t) == 2 and t[0] in ("discard", "out"):
            try:
                k = card_to_kind(words[1])
            except ValueError as exc:
                raise ValueError(f"{text!r}: {exc}") from None
            return (_core.FIRST_DISCARD if t[0] == "discard" else _core.FIRST_GO_OUT) + k
        raise ValueError(f"{text!r} is not a move: try 'stock', 'take', 'discard 7h' or 'out 7h'")

    # -- what a seat can know ------------------------------------------------
    def observation(self, player: int) -> Observation:
        """What ``player`` can know (docs/three_thirteen/RULES.md, What each
        player knows): its hand, every hand's size, the discard pile, the
        stock's size, the round, scores, whose turn, who is out; and the public
        record of T-9: ``known`` (per seat, the cards everyone knows are in
        that hand: taken from the discard pile, or shown), ``pool`` (after a
        reshuffle, the cards of the reshuffled stock still hidden in the stock
        or in hands; None without a reshuffle), ``pool_held`` (per seat, how
        many of its cards are pool cards) and ``own_pool`` (which of the
        player's own cards are)."""
        f = self._fields()
        n = f["num_players"]
        _check_seat(player, n)
        kn = self._knowledge()
        return Observation(
            observer=int(player), num_players=n, round=f["round"], wild_rank=RANKS[f["round"] + 1],
            dealer=f["dealer"], phase=_PHASES[f["phase"]],
            current_player=None if f["current"] < 0 else f["current"], move_number=f["move_count"],
            hand=tuple(_CARD_OF[k] for k in f["hands"][player]), hand_sizes=tuple(len(h) for h in f["hands"]),
            discard_pile=tuple(_CARD_OF[k] for k in f["discard"]), stock_size=len(f["stock"]),
            taken=None if f["taken_kind"] < 0 else _CARD_OF[f["taken_kind"]],
            out_seat=None if f["out_seat"] < 0 else f["out_seat"], final_turns=f["final_turns"],
            turns=tuple(f["turns"]), scores=tuple(f["totals"]),
            round_scores=tuple(tuple(r) for r in f["round_scores"]),
            known=tuple(tuple(_CARD_OF[k] for k in h) for h in kn["known"]),
            pool=tuple(_CARD_OF[k] for k in kn["pool"]) if kn["pool_active"] else None,
            pool_held=tuple(kn["pool_held"]), own_pool=tuple(_CARD_OF[k] for k in kn["pool_hand"][player]))

    def observation_string(self, player: int) -> str:
        """``observation(player)`` as readable text (``str(Observation)``): hand, hand sizes, discard pile, stock,
        the cards known in other hands, the pool, who is out and the scores."""
        return _observation_string(self.observation(player))

    def _ismcts_search(self, arena: Any, iterations: int, time_limit: float, exploration: float,
                       rollout_policy: str, seed: int) -> Tuple[int, int, int, List[Tuple[int, int, float]]]:
        """The search of threes.bots.ISMCTSBot: the generic C SO-ISMCTS
        (common/ismcts.h) over this game. Each iteration is valued on the
        root's round (three_thirteen/game.h). Rollouts are always greedy,
        whatever ``rollout_policy`` (a Shithead policy name): random Three
        Thirteen players almost never end a round."""
        return self._ismcts(arena, iterations, time_limit, exploration, POLICIES.index("greedy"), seed)

    # -- saving ------------------------------------------------------------------
    def to_dict(self) -> Dict[str, Any]:
        """Everything about the position as a JSON-able dict (format ``threes.ThreeThirteen/1``, cards as text,
        the history included), which ``from_dict`` reads back."""
        f = self._fields()
        d = {"format": _FORMAT, "options": _options_out(self._options())}
        d.update({k: v for k, v in f.items() if k not in ("hands", "stock", "discard", "known", "pool_hand")})
        d["hands"] = [[_TEXT_OF[k] for k in h] for h in f["hands"]]
        d["known"] = [[_TEXT_OF[k] for k in h] for h in f["known"]]  # T-9: public cards of each hand
        d["pool_hand"] = [[_TEXT_OF[k] for k in h] for h in f["pool_hand"]]  # its pool cards
        d["stock"] = [_TEXT_OF[k] for k in f["stock"]]
        d["discard"] = [_TEXT_OF[k] for k in f["discard"]]
        d["history"] = self.history()
        return d

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "State":
        """The position of a ``to_dict()`` dict. Every field is checked (in C,
        src/threes_core/three_thirteen/setup.c): a position no game reaches is
        a ValueError naming the field, a wrong type (a bool, float or str
        where an int belongs) a TypeError."""
        if not isinstance(d, dict) or d.get("format") != _FORMAT:
            raise ValueError(f"not a Three Thirteen state dict (format {_FORMAT!r})")
        check_keys(d, _DICT_KEYS, _DICT_OPTIONAL)
        f = {k: d[k] for k in _DICT_KEYS if k not in ("format", "options", "num_players")}
        for k in ("hands", "known", "pool_hand"):
            if k in d:
                f[k] = _card_rows(d[k], k)
        for k in ("stock", "discard"):
            f[k] = _card_list(d[k], k)
        f["history"] = d.get("history", [])
        if "known" in d:
            f["pool_active"] = d.get("pool_active", False)
        else:  # a dict from before T-9 was recorded: the shown hands and the taken card are known
            stray = [k for k in ("pool_hand", "pool_active") if k in d]
            if stray:
                raise ValueError(f"the state dict has {' and '.join(stray)} but no known: the T-9 record "
                                 "(known, pool_hand, pool_active) comes whole")
            f["known"] = _shown_cards(f, d["num_players"])
        st = cls._from_fields(d["num_players"], _options_in(d["options"]), f)
        _check_history(st._fields(), st.history())
        return st

    def __str__(self) -> str:
        f = self._fields()
        lines = [f"Three Thirteen, {f['num_players']} players, round {f['round']} (wild {RANKS[f['round'] + 1]}), "
                 f"{_PHASES[f['phase']]} phase, move {f['move_count']}"]
        for q in range(f["num_players"]):
            mark = " <- to move" if q == f["current"] else ""
            out = " (out)" if (f["out_mask"] >> q) & 1 else ""
            lines.append(f"seat {q}: {' '.join(_TEXT_OF[k] for k in f['hands'][q]) or '-'}   "
                         f"deadwood {self._deadwood(q)}, total {f['totals'][q]}{out}{mark}")
        top = _TEXT_OF[f["discard"][-1]] if f["discard"] else "-"
        lines.append(f"discard top {top} ({len(f['discard'])} cards); stock {len(f['stock'])}")
        if f["phase"] == 2:
            lines.append("final scores: " + ", ".join(str(t) for t in f["totals"]) +
                         (" (cut at the move cap)" if f["truncated"] else ""))
        return "\n".join(lines)

    def __repr__(self) -> str:
        f = self._fields()
        cp = f["current"]
        who = f"seat {cp} to move" if cp >= 0 else ("truncated" if f["truncated"] else "over")
        return (f"<three_thirteen.State {f['num_players']}p round {f['round']} {_PHASES[f['phase']]} "
                f"move {f['move_count']}, {who}, #{self.fingerprint()}>")


_core._reuse_freed(State)  # clone() and child() reuse freed states (threes._engine, copy_state)

_FORMAT = "threes.ThreeThirteen/1"
_DICT_KEYS = ("format", "options", "num_players", "round", "dealer", "current", "phase", "out_seat", "final_turns",
              "out_mask", "taken_kind", "truncated", "move_count", "max_moves", "turns", "round_scores", "totals",
              "rng", "hands", "stock", "discard")
_DICT_OPTIONAL = ("known", "pool_hand", "pool_active", "history")


def _card_list(cards: Any, where: str) -> List[int]:
    """Engine kinds of a list of card texts (TypeError for anything else)."""
    if not isinstance(cards, (list, tuple)):
        raise TypeError(f"{where} must be a list of cards, not {type(cards).__name__}")
    out = []
    for i, c in enumerate(cards):
        try:
            out.append(card_to_kind(c))
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"{where}[{i}]: {exc}") from None
    return out


def _card_rows(rows: Any, where: str) -> List[List[int]]:
    if not isinstance(rows, (list, tuple)):
        raise TypeError(f"{where} must be a list with one list of cards per seat, not {type(rows).__name__}")
    return [_card_list(r, f"{where}[{q}]") for q, r in enumerate(rows)]


def _shown_cards(f: Dict[str, Any], n: Any) -> List[List[int]]:
    """Known cards of a position saved without its T-9 record: the hands of
    seats out and of a finished game, and the card taken this turn (fields
    of a wrong type imply nothing here: _core rejects them)."""
    if type(n) is not int or not 0 <= n <= len(f["hands"]):
        return []
    over = f["phase"] == 2 and not f["truncated"]
    mask = f["out_mask"] if type(f["out_mask"]) is int else 0
    known = [list(f["hands"][q]) if over or (mask >> q) & 1 else [] for q in range(n)]
    c, k = f["current"], f["taken_kind"]
    if type(c) is int and type(k) is int and 0 <= c < n and k >= 0 and k not in known[c]:
        known[c].append(k)
    return known


def _check_history(f: Dict[str, Any], history: List[int]) -> None:
    """What the C setup does not check of a position read by from_dict (ValueError naming it): the
    history (the last ``len(history)`` moves, at most ``move_count`` of them, checked in _core) must
    be a sequence of turns, each a draw (stock 0 or take 1) then a discard or going out, and end
    where the position is: after a draw in the discard phase, after a discard in the draw phase or
    at the end of the game (a game cut at the move cap may end after either). Every state that legal
    moves reach from a state from_dict accepts passes this again, so ``from_dict(s.to_dict())``
    never fails; a position built by hand (``history`` empty) is not held to a turn order."""
    if not history:
        return
    draws = [a < _core.FIRST_DISCARD for a in history]
    for i in range(1, len(draws)):
        if draws[i] == draws[i - 1]:
            what = "draws" if draws[i] else "discards"
            raise ValueError(f"history[{i - 1}] and history[{i}] are both {what}: every turn is a draw (stock or "
                             "take) then a discard (or going out)")
    phase, last_draw = f["phase"], draws[-1]
    if (phase == 1) != last_draw and not (phase == 2 and f["truncated"]):
        raise ValueError(f"the history ends with a {'draw' if last_draw else 'discard'} but the position is in the "
                         f"{_PHASES[phase]} phase")


def _check_seat(seat: Any, n: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)):
        raise TypeError(f"a seat is an int, not {type(seat).__name__}")
    if not 0 <= seat < n:
        raise ValueError(f"seat must be in 0..{n - 1}, not {seat}")


#: The one result type of every game's batch (threes.results); the name Three Thirteen's batches
#: were returned under before every game shared it.
TTRolloutResult = RolloutResult

#: One game to the end from a Three Thirteen state (its docstring in the binding); ``rollouts`` is
#: threes.rollouts (threes.batches: any game), registered here for this game's Game and State.
rollout = _core.rollout

_register_batches(Game, State, _core.play_batch, _core.rollout)


def _restore(d: Dict[str, Any]) -> State:
    """Unpickles a state pickled by a build before the games shared
    threes._state's pickling (its pickles name this function)."""
    return State.from_dict(d)
