"""Threads (issue 4): many Python threads running C rollouts (which release
the GIL and start native threads of their own) and stepping their own states
at the same time: nothing crashes and every result equals the
single-threaded run with the same seeds."""
import random
import threading

import numpy as np

import threes

GAME = threes.Game(4, "threes")


def _play(seed):
    s = GAME.new_initial_state(seed)
    rng = random.Random(seed)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
        if s.move_number() % 97 == 0:
            s = threes.State.from_dict(s.to_dict())  # exercise the boundary too
    return s.to_dict()


def _work(i):
    r = threes.rollouts(GAME, 400, policy=["random", "greedy", "heuristic", "random"], seed=1000 + i, threads=2)
    start = GAME.new_initial_state(i)
    r2 = threes.rollouts(start, 100, seed=i, threads=1)
    return r.places.copy(), r.moves.copy(), r2.places.copy(), _play(i)


def test_many_threads_match_the_sequential_results():
    n = 12
    expected = [_work(i) for i in range(n)]
    results = [None] * n
    errors = []

    def run(i):
        try:
            results[i] = _work(i)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for got, want in zip(results, expected):
        assert np.array_equal(got[0], want[0])
        assert np.array_equal(got[1], want[1])
        assert np.array_equal(got[2], want[2])
        assert got[3] == want[3]


def test_rollouts_from_a_state_another_thread_is_changing():
    """rollouts() copies the position while it holds the GIL, so a state that
    another thread keeps stepping is read whole, never half-changed."""
    s = GAME.new_initial_state(77)
    stop = threading.Event()
    errors = []

    def stepper():
        rng = random.Random(1)
        try:
            while not stop.is_set():
                if s.is_terminal():
                    break
                s.apply_action(rng.choice(s.legal_actions()))
        except BaseException as exc:  # pragma: no cover
            errors.append(exc)

    t = threading.Thread(target=stepper)
    t.start()
    try:
        for i in range(200):
            r = threes.rollouts(s, 20, seed=i, threads=2)
            finished = ~r.truncated
            assert np.all(np.sort(r.places[finished], axis=1) == np.arange(4))
    finally:
        stop.set()
        t.join()
    assert not errors
    s._check()
