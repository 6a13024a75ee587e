"""Memory (issue 4): nothing grows with the number of games. The C engine
allocates nothing; this checks that the Python layer does not keep anything
either, by the process's resident memory after many rounds of every entry
point. (tests/memcheck/run_memcheck.py runs the same kind of workload under
valgrind memcheck; .ci/run runs it.)"""
import gc
import pickle
import random

import pytest

import threes


def _rss_kib():
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    import resource
    return pages * resource.getpagesize() // 1024


def _round(game, seed):
    s = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
        if s.move_number() % 25 == 0:
            s = pickle.loads(pickle.dumps(s))
            s.clone().legal_actions_mask()
    for bad in (-1, 10**9, "x"):
        try:
            s.apply_action(bad)
        except (ValueError, TypeError):
            pass
    try:
        threes.State.from_dict({**s.to_dict(), "pile": ["Zz"]})
    except ValueError:
        pass
    threes.rollouts(game, 200, seed=seed, threads=2)


@pytest.mark.full  # about 25 s of games; valgrind (CI stage 3) checks the same leaks
def test_memory_does_not_grow_with_the_number_of_games():
    import tracemalloc

    game = threes.Game(4, "threes")
    for seed in range(30):  # warm up: caches, arenas
        _round(game, seed)
    gc.collect()
    tracemalloc.start()
    before_py = tracemalloc.get_traced_memory()[0]
    before = _rss_kib()
    for seed in range(30, 330):
        _round(game, seed)
    gc.collect()
    after = _rss_kib()
    after_py = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    # 300 games (each ~1,000 actions, 40 pickle round trips) and 60,000
    # rollouts later: Python-level memory may move by a few KiB of caches,
    # not by a leak of even 200 bytes a game (60 KiB); the process as a whole
    # (C included) by less than 4 MiB, i.e. under 70 bytes a rollout.
    assert after_py - before_py < 60 * 1024, (before_py, after_py)
    assert after - before < 4096, (before, after)
