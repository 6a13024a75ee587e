"""Performance benchmarks (issue 3). Run from the repository root:

    pytest --benchmark-only

Every figure is measured in this run; the ratios (C against the pure-Python
model, 2 threads against 1) are printed at the end with the other figures.
"""
import random

import numpy as np
import pytest

import threes
from positions import state_after, tt_state_in_round
from reference.shithead_model import ModelState, play_random

GAMES = 20000


def _c_rollouts(benchmark, figures, threads, games, label):
    game = threes.Game(4, "threes")
    threes.rollouts(game, 200, seed=0, threads=threads)  # warm up
    results = []
    seeds = iter(range(1, 10**6))

    def run():
        r = threes.rollouts(game, games, policy="random", seed=next(seeds), threads=threads)
        results.append(r)
        return r

    benchmark.pedantic(run, rounds=5, iterations=1)
    moves = sum(int(r.moves.sum()) for r in results)
    seconds = sum(r.seconds for r in results)
    n = sum(r.num_games for r in results)
    figures[f"{label}: games/s"] = (n / seconds, "games/s")
    figures[f"{label}: ns/move"] = (seconds * 1e9 / moves, "ns")
    figures[f"{label}: moves/game"] = (moves / n, "moves")
    benchmark.extra_info.update(games_per_s=n / seconds, ns_per_move=seconds * 1e9 / moves, moves_per_game=moves / n)


def test_c_rollouts_random_one_thread(benchmark, figures):
    """threes, 4 players, uniformly random play, every rule in force, 1 core."""
    _c_rollouts(benchmark, figures, 1, GAMES, "C rollouts threes 4p random, 1 thread")


def test_c_rollouts_random_two_threads(benchmark, figures):
    _c_rollouts(benchmark, figures, 2, 2 * GAMES, "C rollouts threes 4p random, 2 threads")


@pytest.mark.parametrize("policy", ["greedy", "heuristic"])
def test_c_rollouts_other_policies(benchmark, figures, policy):
    game = threes.Game(4, "threes")
    results = []
    seeds = iter(range(1, 10**6))

    def run():
        r = threes.rollouts(game, 5000, policy=policy, seed=next(seeds), threads=1)
        results.append(r)

    benchmark.pedantic(run, rounds=3, iterations=1)
    moves = sum(int(r.moves.sum()) for r in results)
    seconds = sum(r.seconds for r in results)
    figures[f"C rollouts threes 4p {policy}, 1 thread: ns/move"] = (seconds * 1e9 / moves, "ns")
    figures[f"C rollouts threes 4p {policy}, 1 thread: games/s"] = (5000 * len(results) / seconds, "games/s")


def test_pure_python_model_rollouts(benchmark, figures):
    """The same games through the readable pure-Python model (the baseline)."""
    seeds = iter(range(1, 10**6))
    counts = []

    def run():
        moves = 0
        for _ in range(10):
            seed = next(seeds)
            state = ModelState.deal("threes", 4, seed)
            play_random(state, random.Random(seed))
            moves += state.move_count
        counts.append(moves)

    benchmark.pedantic(run, rounds=3, iterations=1)
    ns = benchmark.stats.stats.mean * 1e9 / (sum(counts) / len(counts))
    figures["pure-Python model, random, 1 core: ns/move"] = (ns, "ns")
    benchmark.extra_info["ns_per_move"] = ns


def test_python_level_loop(benchmark, figures):
    """while not s.is_terminal(): s.apply_action(choice(s.legal_actions()))"""
    game = threes.Game(4, "threes")
    counts = []
    seeds = iter(range(1, 10**6))

    def run():
        moves = 0
        for _ in range(20):
            seed = next(seeds)
            s = game.new_initial_state(seed)
            choice = random.Random(seed).choice
            while not s.is_terminal():
                s.apply_action(choice(s.legal_actions()))
            moves += s.move_number()
        counts.append(moves)

    benchmark.pedantic(run, rounds=5, iterations=1)
    ns = benchmark.stats.stats.mean * 1e9 / (sum(counts) / len(counts))
    figures["Python loop: apply_action(choice(legal_actions())): ns/action"] = (ns, "ns")
    benchmark.extra_info["ns_per_action"] = ns


def _mid_game_state():
    s = threes.Game(4, "threes").new_initial_state(5)
    rng = random.Random(5)
    for _ in range(300):
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def test_clone(benchmark, figures):
    s = _mid_game_state()
    benchmark(s.clone)
    figures["State.clone() from Python: ns"] = (benchmark.stats.stats.mean * 1e9, "ns")
    figures["state size (the C state's bytes clone() copies, State.nbytes)"] = (s.nbytes, "bytes")
    benchmark.extra_info["state_bytes"] = s.nbytes


def test_empty_state_allocation(benchmark, figures):
    """The baseline for clone(): CPython allocating (and freeing) one State
    object with nothing copied into it, State.__new__(State)."""
    new, cls = threes.State.__new__, threes.State
    benchmark(new, cls)
    figures["State.__new__(State) from Python (allocation only): ns"] = (benchmark.stats.stats.mean * 1e9, "ns")


def test_c_state_copy(benchmark, figures):
    s = _mid_game_state()
    n = 1_000_000
    benchmark.pedantic(s._copy_bench, args=(n,), rounds=5, iterations=1)
    figures["state copy in C (memcpy of the struct): ns"] = (benchmark.stats.stats.mean * 1e9 / n, "ns")


@pytest.mark.parametrize("where", ["swap phase", "move 100"])
def test_ismcts_iterations(benchmark, figures, where):
    """ISMCTS iterations per second on one core, 4 players: each iteration
    resamples the hidden cards, walks the tree and plays a C random rollout."""
    from threes.bots import ISMCTSBot

    s = state_after(0 if where == "swap phase" else 100)
    bot = ISMCTSBot(iterations=20000, seed=1)
    benchmark.pedantic(bot.search, args=(s,), rounds=3, iterations=1)
    figures[f"ISMCTS 4p threes, {where}, 1 core: iterations/s"] = (20000 / benchmark.stats.stats.mean, "it/s")


def _tt_state_in_round(round_, seed=11):
    s = tt_state_in_round(round_, seed)
    assert not s.is_terminal() and s.round() == round_ and len(s.legal_actions()) > 1
    return s


@pytest.mark.parametrize("round_", [1, 6, 11])
def test_three_thirteen_ismcts_iterations(benchmark, figures, round_):
    """Three Thirteen ISMCTS iterations per second on one core, 3 players:
    each iteration resamples the hidden cards, walks the tree and plays a C
    greedy rollout to the end of the round (common/ismcts.h, tt_game)."""
    from threes.bots import ISMCTSBot

    s = _tt_state_in_round(round_)
    iterations = 2000 if round_ == 1 else 500
    bot = ISMCTSBot(iterations=iterations, seed=1)
    benchmark.pedantic(bot.search, args=(s,), rounds=3, iterations=1)
    figures[f"ISMCTS 3p Three Thirteen, round {round_}, 1 core: iterations/s"] = (
        iterations / benchmark.stats.stats.mean, "it/s")


def test_resample_from_infostate(benchmark, figures):
    """Determinization from Python: clone + resample of every hidden card (C)."""
    s = state_after(100)
    seeds = iter(range(10**9))
    benchmark(lambda: s.resample_from_infostate(1, next(seeds)))
    figures["resample_from_infostate() from Python: ns"] = (benchmark.stats.stats.mean * 1e9, "ns")


def test_three_thirteen_solver(benchmark, figures):
    """The exact minimum-deadwood solver on random 14-card hands with 0 to 8
    wild cards (two decks with jokers), in C; the same loop without the
    solver (making the hands) is measured in the same run and subtracted."""
    from threes.three_thirteen import _core

    hands = 200_000
    t_make = min(_timed(lambda: _core.bench_solver(1, hands, False)) for _ in range(3))
    benchmark.pedantic(_core.bench_solver, args=(1, hands, True), rounds=3, iterations=1)
    us = (benchmark.stats.stats.min - t_make) * 1e6 / hands
    figures["Three Thirteen solver, 14-card hands, 0-8 wilds: us/hand"] = (us, "us")


def test_three_thirteen_rollouts(benchmark, figures):
    """Full Three Thirteen games (11 rounds), 4 players, greedy policy, in C."""
    from threes import three_thirteen as tt

    game = tt.Game(4)
    seeds = iter(range(1, 10**6))
    res = []
    benchmark.pedantic(lambda: res.append(tt.rollouts(game, 200, "greedy", next(seeds))), rounds=3, iterations=1)
    figures["Three Thirteen 4p greedy rollouts: games/s"] = (200 / benchmark.stats.stats.mean, "games/s")
    figures["Three Thirteen 4p greedy rollouts: moves/game"] = (float(np.mean([r.mean_moves for r in res])), "moves")


def _timed(fn):
    import time

    t = time.perf_counter()
    fn()
    return time.perf_counter() - t
