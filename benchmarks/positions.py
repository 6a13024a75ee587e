"""The positions the benchmarks measure, one home for them: importable by
this repository's benchmarks and by the measurement code that
``compare_builds.py`` runs under another build (public API only, so that an
older build can play them)."""
from __future__ import annotations

import random


def state_after(moves: int, seed: int = 11, num_players: int = 4):
    """A ``threes`` position after ``moves`` random legal moves."""
    import threes

    s = threes.Game(num_players, "threes").new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def tt_state_in_round(round_: int, seed: int = 11):
    """A 3-player Three Thirteen position a few greedy moves into round ``round_``."""
    from threes import three_thirteen as tt

    s = tt.Game(3).new_initial_state(seed)
    rng = random.Random(seed)
    while s.round() < round_ and not s.is_terminal():
        s.apply_action(s._policy_action(1, rng.getrandbits(64)))
    for _ in range(4):
        s.apply_action(s._policy_action(1, rng.getrandbits(64)))
    return s
