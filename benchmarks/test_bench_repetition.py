"""The cost of repetition_limit (RULES.md section 7) in C rollouts: ns/move
of 4-player threes rollouts with repetition_limit=3 and with the rule off
(0), measured in the same run, rounds interleaved, one thread. Run:

    pytest benchmarks/test_bench_repetition.py --benchmark-only -s

Each test reports both figures and their ratio (on / off) in extra_info and
among the run's figures. The README's stalemate paragraph quotes this.
"""
from __future__ import annotations

import pytest

import threes
from threes.shithead.rules import Rules

GAMES = {"random": 4000, "greedy": 2000}
ROUNDS = 5


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_rollouts_with_and_without_the_repetition_limit(benchmark, figures, policy):
    games = {lim: threes.Game(4, Rules.preset("threes", repetition_limit=lim)) for lim in (3, 0)}
    for g in games.values():
        threes.rollouts(g, 200, policy=policy, seed=0, threads=1)  # warm up
    best = {3: float("inf"), 0: float("inf")}
    stalemates = []
    seeds = iter(range(1, 10**6))

    def run():  # one round: the same games with the rule on, then off
        seed = next(seeds)
        for lim, g in games.items():
            r = threes.rollouts(g, GAMES[policy], policy=policy, seed=seed, threads=1)
            best[lim] = min(best[lim], r.ns_per_move)
            if lim:
                stalemates.append(float(r.stalemate.mean()))

    benchmark.pedantic(run, rounds=ROUNDS, iterations=1)
    on, off = best[3], best[0]
    label = f"C rollouts threes 4p {policy}, 1 thread"
    figures[f"{label}, repetition_limit=3: ns/move"] = (on, "ns")
    figures[f"{label}, repetition_limit=0: ns/move"] = (off, "ns")
    benchmark.extra_info.update(ns_per_move_limit3=on, ns_per_move_limit0=off, ratio_on_off=on / off,
                                stalemate_rate=sum(stalemates) / len(stalemates))
    print(f"\n{label}: {on:.1f} ns/move with repetition_limit=3, {off:.1f} without, ratio {on / off:.2f} "
          f"(best of {ROUNDS} rounds; {100 * sum(stalemates) / len(stalemates):.1f}% stalemates)")
