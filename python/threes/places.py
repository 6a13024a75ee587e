"""Places, returns and how a game ended, the same for every game
(docs/shithead/RULES.md section 7).

Place k (0 = best) among n players is worth (n-1-2k)/(n-1); seats that share
places get the mean value of the places they share. The C core computes
``State.returns()`` with the same formula (src/threes_core/common/returns.h);
these numpy helpers serve batches of games.

A game ends in one of three ways (``end_reason``): a normal finish, the move
cap, or a stalemate by repetition. Every game's State answers
``is_terminal()``, ``is_truncated()`` and ``is_stalemate()`` (a game without
a repetition rule, such as Three Thirteen, always answers False), and a
stalemate is also truncated: ``is_stalemate()`` implies ``is_truncated()``
implies ``is_terminal()``. Generic code (the tournament, the command line,
the pictures, the adapters) asks ``end_reason(state)`` rather than which
game it holds.
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

#: The values of end_reason for a game that is over.
FINISHED, MOVE_CAP, STALEMATE = "finished", "move_cap", "stalemate"


def place_value(place, num_players: int):
    """The return of a (possibly fractional, shared) place, elementwise."""
    return (num_players - 1 - 2 * np.asarray(place, dtype=np.float64)) / (num_players - 1)


def place_of_return(ret, num_players: int):
    """The (possibly fractional) place that a return stands for, elementwise."""
    return (num_players - 1) * (1.0 - np.asarray(ret, dtype=np.float64)) / 2.0


def end_reason(state: Any) -> Optional[str]:
    """How the game of ``state`` ended: None while it is on, else
    ``"finished"`` (a normal finish), ``"move_cap"`` (truncated at the move
    cap) or ``"stalemate"`` (ended by repetition; scored like a truncated
    game, RULES.md section 7)."""
    if not state.is_terminal():
        return None
    if state.is_stalemate():
        return STALEMATE
    return MOVE_CAP if state.is_truncated() else FINISHED
