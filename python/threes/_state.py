"""What every game's State shares in Python, over the C-level half in each
game's Cython ``_core.StateBase`` (``_apply_events``, ``_take_back``,
``_undo_depth``, ``clone``, ``decode_action``, ...): the move-level API. A
game's State derives from ``(GameState, _core.StateBase)`` and sets
``_MOVE`` (its Move class) and ``_EVENTS`` (threes.events.from_core's
tables for its events). Names no game."""
from __future__ import annotations

import hashlib
import json
from typing import Any, List

from threes.events import Event, from_core

__all__: List[str] = []


class GameState:
    """The move-level API every game's State has (a mixin: no state of its own)."""

    __slots__ = ()
    _MOVE: type = type(None)  #: the game's Move class
    _EVENTS: tuple = ()  #: (kinds, sources, details, card of a kind): threes.events.from_core's tables

    def legal_moves(self) -> List[Any]:
        """The legal actions as Moves (a Shithead move with its source), in the order of ``legal_actions()``;
        empty when the game is over. ``str(move)`` is its notation (what ``apply`` takes), ``move.text`` the
        move in words."""
        return [self.decode_action(a) for a in self.legal_actions()]

    def apply(self, move: Any, *, undo: bool = True) -> List[Event]:
        """Plays ``move`` for the seat to move and returns what it did, in order, as threes.events values
        (each game's events: its ``describe`` module tells them in words).

        ``move`` is notation as ``action_to_string`` writes it (Shithead ``"4x1"``, ``"pickup"``,
        ``"swap 48J"``; Three Thirteen ``"stock"``, ``"discard 7h"``, ``"out 10h"``), a Move or an action
        id. An illegal move raises and changes nothing. Unlike ``apply_action`` (the fast call for search,
        which it otherwise equals), ``apply`` keeps the state before the move, so that :meth:`undo` can
        take it back; ``undo=False`` keeps nothing and forgets the moves kept before (a server that never
        takes moves back: the kept states cost about 2 KB a move, more for a Shithead game with
        ``repetition_limit`` on, whose kept states past the first 64 positions of a stretch without a burn
        or pick-up also keep their own copy of the stretch's older repetition keys)."""
        return from_core(self._apply_events(self._move_id(move), bool(undo)), *self._EVENTS)

    def undo(self) -> None:
        """Takes back the last move made with :meth:`apply`, restoring the exact state before it (history
        and any chance generator included); one call per move, back to the first ``apply``. Raises
        ValueError when there is nothing to take back, or when the last move was made with ``apply_action``
        (which keeps no record)."""
        self._take_back()

    def undo_depth(self) -> int:
        """How many moves :meth:`undo` can take back, one after another."""
        return self._undo_depth()

    def _ismcts_search(self, arena: Any, iterations: int, time_limit: float, exploration: float,
                       rollout_policy: str, seed: int) -> Any:
        """The search of threes.bots.ISMCTSBot: the generic C SO-ISMCTS (common/ismcts.h) over this
        game, rollouts to the end of the game with the game's C policy ``rollout_policy`` for every
        seat (a game may value its iterations otherwise: Three Thirteen's)."""
        from threes import registry

        policy = registry.game_of(self).policies.index(rollout_policy)
        return self._ismcts(arena, iterations, time_limit, exploration, policy, seed)

    def _move_id(self, move: Any) -> int:
        if isinstance(move, str):
            return self.string_to_action(move)
        if isinstance(move, self._MOVE):
            return self.encode_move(move)
        return move

    # -- equality and copies, from the game's to_dict (a game may compare its own key: Shithead) --
    def __eq__(self, other) -> bool:
        """Two states are equal when their ``to_dict()`` records are."""
        if not isinstance(other, GameState) or type(other).from_dict != type(self).from_dict:
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # a state changes

    def __reduce__(self):
        # a module-level function, not the classmethod: cloudpickle (Ray) sends a classmethod's
        # function by value, with its globals
        return (_restore, (type(self), self.to_dict()))

    def fingerprint(self) -> str:
        """A short hex digest of the position (history aside): equal states, equal digests."""
        d = self.to_dict()
        d.pop("history", None)
        return hashlib.blake2b(json.dumps(d, sort_keys=True).encode(), digest_size=4).hexdigest()

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()


def _restore(cls: type, d: Any) -> Any:
    """Unpickles a state: ``cls.from_dict(d)`` (its record checked as from_dict checks any)."""
    return cls.from_dict(d)
