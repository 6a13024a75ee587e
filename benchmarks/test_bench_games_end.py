"""The issue-13 table: how many bot games reach the move cap, on the full
sample (10,000 games per preset, table size and policy), and each bot's win
rate against random seats. Run with the other benchmarks:

    pytest benchmarks/test_bench_games_end.py --benchmark-only -s

The figures are printed and kept in the benchmark JSON (extra_info); the
README's table is this run's output.
"""
from __future__ import annotations

import numpy as np
import pytest

import threes
from threes.shithead.rules import Rules

GAMES = 10000


def _rules(rules: str, n: int) -> Rules:
    return Rules.preset(rules, cards_per_zone=2) if n == 6 and rules != "threes" else Rules.preset(rules)


@pytest.mark.parametrize("policy", ["random", "greedy", "heuristic"])
@pytest.mark.parametrize("rules", ["threes", "dutch", "classic"])
@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_truncation_table(benchmark, rules, n, policy):
    game = threes.Game(n, _rules(rules, n))
    out = {}

    def run():
        r = threes.rollouts(game, GAMES, policy=policy, seed=1)
        out["r"] = r

    benchmark.pedantic(run, rounds=1, iterations=1)
    r = out["r"]
    w = threes.rollouts(game, GAMES, policy=[policy] + ["random"] * (n - 1), seed=2)
    win = float(np.mean(w.places[:, 0] == 0))
    benchmark.extra_info.update(truncated=float(r.truncated.mean()), mean_moves=float(r.moves.mean()),
                                win_vs_random=win)
    print(f"\n{rules} {n}p {policy}: {100 * r.truncated.mean():.2f}% truncated, {r.moves.mean():.0f} moves/game, "
          f"wins {100 * win:.1f}% against {n - 1} random")
