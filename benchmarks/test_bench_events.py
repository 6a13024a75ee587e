"""What a move's events cost: ``state.apply(move)`` (the events, with and without the undo record) against
``apply_action`` on the same moves of the same games, in the same run (ratios, not absolute times: machines
differ). Run:

    pytest benchmarks/test_bench_events.py --benchmark-only -s

The figures are printed and kept in the benchmark JSON (extra_info); the README quotes one run.
"""
from __future__ import annotations

import random
import time

import pytest

import threes
from threes import three_thirteen as tt

GAMES = 40


def _moves(game):
    """Each game's state and action list, played once to record them (random legal moves)."""
    out = []
    for seed in range(GAMES):
        s = game.new_initial_state(seed=seed)
        start, rng, actions = s.clone(), random.Random(seed), []
        while not s.is_terminal() and len(actions) < 3000:
            actions.append(rng.choice(s.legal_actions()))
            s.apply_action(actions[-1])
        out.append((start, actions))
    return out


def _play(games, call):
    for start, actions in games:
        s = start.clone()
        if call == "apply_action":
            for a in actions:
                s.apply_action(a)
        elif call == "apply":
            for a in actions:
                s.apply(a)
        else:
            for a in actions:
                s.apply(a, undo=False)


def _baseline(games):
    """apply_action on the same moves, best of 5, measured in this test (the ratio's denominator)."""
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        _play(games, "apply_action")
        best = min(best, time.perf_counter() - t)
    return best


@pytest.mark.parametrize("game_name", ["shithead", "three_thirteen"])
@pytest.mark.parametrize("call", ["apply_action", "apply(undo=False)", "apply"])
def test_events_cost(benchmark, game_name, call):
    game = threes.Game(4) if game_name == "shithead" else tt.Game(4)
    games = _moves(game)
    n = sum(len(a) for _, a in games)

    benchmark.pedantic(_play, args=(games, call), rounds=5, iterations=1, warmup_rounds=1)
    per_move = benchmark.stats.stats.min / n
    ratio = benchmark.stats.stats.min / _baseline(games)
    benchmark.extra_info.update(ns_per_move=per_move * 1e9, ratio_to_apply_action=ratio, moves=n)
    print(f"\n{game_name} {call}: {per_move * 1e9:.0f} ns/move ({ratio:.1f}x apply_action), {n} moves")
