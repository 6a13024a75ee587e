"""Toy Tricks in Python: Game, State, Move, the options (declared once), rollouts."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from threes import _engine
from threes._state import GameState
from threes.args import int_arg, seed64
from threes.batches import register as _register_batches, rollouts
from threes.cards import Card
from threes.errors import IllegalActionError
from threes.options import Option
from threes.results import RolloutResult

from toy_tricks import _core

__all__ = ["Game", "State", "Move", "OPTIONS", "POLICIES", "MIN_PLAYERS", "MAX_PLAYERS", "rollouts", "RolloutResult",
           "card_text"]

#: The seats a game has (the web lobby offers up to MAX_PLAYERS).
MIN_PLAYERS, MAX_PLAYERS = _core.MIN_PLAYERS, _core.MAX_PLAYERS

#: The rollout policies, in the C engine's order.
POLICIES = ("random", "greedy")

#: The game's options, as Game takes them as keywords (threes.options: every front end reads them).
OPTIONS = (
    Option("hand_size", "int", 13, "cards dealt to each seat", low=1, high=13, section="toy_tricks.h"),
    Option("low_wins", "bool", False, "the lowest card wins a trick instead of the highest", section="toy_tricks.h"),
    Option("target", "int", 100, "tricks in all that end the game (at the end of a deal)", low=1, high=200,
           section="toy_tricks.h"),
)

_RANKS, _SUITS = "23456789TJQKA", "cdhs"
_CARD_TEXT = tuple(_RANKS[c % 13] + _SUITS[c // 13] for c in range(52))
_CARD_OF = tuple(Card.parse(t) for t in _CARD_TEXT)
_EVENT_KINDS = ("play", "trick", "over", "truncated", "deal")
_FORMAT = "toy_tricks/1"


def card_text(card: int) -> str:
    """A card id (suit * 13 + rank) as text, ``"Ah"``."""
    return _CARD_TEXT[int_arg(card, "card", 0, 51)]


class Game:
    """A Toy Tricks game: 2 to 4 players and the options of ``OPTIONS``; ``max_moves`` None is no cap
    beyond the game's own length."""

    def __init__(self, num_players: int = 2, hand_size: int = 13, low_wins: bool = False, target: int = 100,
                 max_moves: Optional[int] = None):
        self._n = int_arg(num_players, "num_players", _core.MIN_PLAYERS, _core.MAX_PLAYERS)
        self._hand = int_arg(hand_size, "hand_size", 1, _core.MAX_HAND)
        if not isinstance(low_wins, bool):
            raise TypeError(f"low_wins must be True or False, not {type(low_wins).__name__}")
        self._low = low_wins
        self._target = int_arg(target, "target", 1, _core.MAX_TARGET)
        self._max = 0 if max_moves is None else int_arg(max_moves, "max_moves (or None)", 1, 0xFFFF)

    def num_players(self) -> int:
        """The number of seats."""
        return self._n

    def num_distinct_actions(self) -> int:
        """52: an action is the id of the card played."""
        return _core.NUM_CARDS

    def options(self) -> Dict[str, Any]:
        """The options as Game takes them."""
        return {"hand_size": self._hand, "low_wins": self._low, "target": self._target}

    def new_initial_state(self, seed: Optional[int] = None) -> "State":
        """The hands dealt from the seed (None: one drawn); seat 0 leads."""
        return State._new(self._n, self._hand, self._low, self._target, self._max, seed64(seed))

    def observation_tensor_shape(self) -> List[int]:
        """The shape of State.observation_tensor: [3 * 52 + 5 * players] (toy_tricks.c, g_observe)."""
        return [3 * _core.NUM_CARDS + 5 * self._n]

    def _key(self):
        return (self._n, self._hand, self._low, self._target, self._max)

    def __eq__(self, other) -> bool:
        return self._key() == other._key() if isinstance(other, Game) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Game(num_players={self._n}, hand_size={self._hand}, low_wins={self._low}, target={self._target})")


@dataclass(frozen=True)
class Move:
    """One action: the card played. ``str(move)`` is its notation (``"Ah"``)."""

    card: Card

    def __str__(self) -> str:
        return str(self.card)

    @property
    def text(self) -> str:
        """The move in words."""
        return f"play {self.card}"


class State(GameState, _core.StateBase):
    """A position of a Toy Tricks game (Game.new_initial_state, State.from_dict or clone)."""

    __slots__ = ()
    _MOVE = Move
    _EVENTS = (_EVENT_KINDS, (None,), (None,), _CARD_OF.__getitem__)

    # ------------------------------------------------------------ the table --
    def hand(self, seat: int) -> List[Card]:
        """The cards seat `seat` holds, in id order."""
        int_arg(seat, "seat", 0, self.num_players() - 1)
        return [_CARD_OF[c] for c, o in enumerate(self._fields()["owner"]) if o == seat]

    def trick(self) -> List[Card]:
        """The current trick's cards, in play order."""
        return [_CARD_OF[c] for c in self._fields()["trick"]]

    def tricks(self) -> List[int]:
        """Tricks won by each seat in this deal."""
        return self._fields()["tricks"]

    def total(self) -> List[int]:
        """Tricks won by each seat in all (the game's score)."""
        return self._fields()["total"]

    def is_stalemate(self) -> bool:
        """Never: a game always ends (threes.places.end_reason)."""
        return False

    # ---------------------------------------------------------- notation --
    def action_to_string(self, action: int, *more: int) -> str:
        """An action id as notation (``"Ah"``); OpenSpiel's (player, action) form is taken too."""
        a = more[0] if more else action
        if isinstance(a, bool):
            raise TypeError("an action is an int, not a bool")
        a = int_arg(a, "action", 0, _core.NUM_CARDS - 1)
        return _CARD_TEXT[a]

    def string_to_action(self, text: str, *more: str) -> int:
        """The action id of notation (a card, ``"Ah"``); an unknown card or one not in the mover's
        hand is an IllegalActionError."""
        t = more[0] if more else text
        if not isinstance(t, str):
            raise TypeError(f"notation is a str, not {type(t).__name__}")
        key = t.strip()
        key = key[:1].upper() + key[1:].lower()
        if key not in _CARD_TEXT:
            raise IllegalActionError(f"{t!r} is not a card (rank 2..A, suit c d h s: 'Ah')")
        a = _CARD_TEXT.index(key)
        if not self.is_legal(a):
            raise IllegalActionError(f"{t!r} cannot be played now")
        return a

    def decode_action(self, action: int) -> Move:
        """The Move of an action id."""
        return Move(_CARD_OF[int_arg(action, "action", 0, _core.NUM_CARDS - 1)])

    def encode_move(self, move: Move) -> int:
        """The action id of a Move."""
        return _CARD_OF.index(move.card)

    def observation(self, player: int) -> str:
        """What seat `player` sees (the observation string: a value that compares equal exactly when the
        seat sees the same)."""
        return self.observation_string(player)

    # ------------------------------------------------------------ copies --
    def to_dict(self) -> Dict[str, Any]:
        """Every field as a JSON-able dict (format ``toy_tricks/1``), which ``from_dict`` reads back."""
        d = {"format": _FORMAT}
        d.update(self._fields())
        d["history"] = self.history()
        return d

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "State":
        """The position of a ``to_dict()`` dict, checked whole in C (tk_check) and against its history."""
        if not isinstance(d, dict) or d.get("format") != _FORMAT:
            raise ValueError(f"not a Toy Tricks state dict (format {_FORMAT!r})")
        keys = set(d) - {"format", "history"}
        want = {"num_players", "hand_size", "low_wins", "over", "truncated", "leader", "current", "trick", "tricks",
                "owner", "move_count", "max_moves", "target", "total", "deal", "rng"}
        if keys != want:
            raise ValueError(f"a Toy Tricks state dict has the keys {sorted(want | {'format', 'history'})}")
        history = d.get("history", [])
        if not isinstance(history, list):
            raise TypeError("history must be a list of action ids")
        return cls._from_fields(dict(d), list(history))

    def __str__(self) -> str:
        return "\n".join(self.observation_string(q).replace(" | ", "  ") for q in range(self.num_players()))

    def __repr__(self) -> str:
        return f"<toy_tricks.State {self.num_players()}p move {self.move_number()} #{self.fingerprint()}>"


_core._reuse_freed(State)  # clone() and child() reuse freed states (threes._engine)

#: Rollouts over the game's C interface, no batch code of its own (threes._engine.GameBatch).
_BATCH = _engine.GameBatch(POLICIES)
_register_batches(Game, State, _BATCH, _BATCH.rollout)
