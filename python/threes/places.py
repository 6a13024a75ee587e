"""Places and returns, the same for every game (docs/shithead/RULES.md section 7).

Place k (0 = best) among n players is worth (n-1-2k)/(n-1); seats that share
places get the mean value of the places they share. The C core computes
``State.returns()`` with the same formula (src/threes_core/common/returns.h);
these numpy helpers serve batches of games.
"""
from __future__ import annotations

import numpy as np


def place_value(place, num_players: int):
    """The return of a (possibly fractional, shared) place, elementwise."""
    return (num_players - 1 - 2 * np.asarray(place, dtype=np.float64)) / (num_players - 1)


def place_of_return(ret, num_players: int):
    """The (possibly fractional) place that a return stands for, elementwise."""
    return (num_players - 1) * (1.0 - np.asarray(ret, dtype=np.float64)) / 2.0
