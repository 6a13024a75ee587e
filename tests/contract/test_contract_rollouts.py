"""Batch rollouts in C: the package's rollouts(game_or_state, n, policy, seed,
threads=...) gives the same games on 1, 2 or 3 threads, from a Game (fresh
deals) and from a State (with or without an observer's resampling), leaves
the State as it was, and every game ends with returns summing to 0 in [-1, 1]."""
import random

import numpy as np
import pytest

N = 12


def _result(r):
    return {"returns": np.asarray(r.returns), "moves": np.asarray(r.moves), "truncated": np.asarray(r.truncated),
            "stalemate": np.asarray(r.stalemate)}


def _check_batch(r, num_players, n=N):
    f = _result(r)
    assert f["returns"].shape == (n, num_players)
    assert f["moves"].shape == (n,) and f["truncated"].shape == (n,) and f["stalemate"].shape == (n,)
    assert f["stalemate"].dtype == bool and not (f["stalemate"] & ~f["truncated"].astype(bool)).any(), \
        "a stalemate is also truncated"
    assert (f["moves"] > 0).all()
    assert np.allclose(f["returns"].sum(axis=1), 0.0, atol=1e-9)
    assert (np.abs(f["returns"]) <= 1.0 + 1e-12).all()
    return f


def _same(a, b):
    assert a.keys() == b.keys()
    for k in a:
        assert np.array_equal(a[k], b[k]), k


@pytest.mark.parametrize("num_players", [2, 4])
def test_rollouts_from_a_game_do_not_depend_on_threads(pkg, num_players):
    game = pkg.Game(num_players)
    for policy in pkg.POLICIES:
        runs = [_check_batch(pkg.rollouts(game, N, policy, 17, threads=t), num_players) for t in (1, 2, 3)]
        _same(runs[0], runs[1])
        _same(runs[0], runs[2])
        again = _check_batch(pkg.rollouts(game, N, policy, 17, threads=1), num_players)
        _same(runs[0], again)
        other = _check_batch(pkg.rollouts(game, N, policy, 18, threads=1), num_players)
        assert not np.array_equal(other["moves"], runs[0]["moves"]), "another seed, the same games"


@pytest.mark.parametrize("num_players", [3])
def test_rollouts_from_a_state_do_not_depend_on_threads(ct, pkg, num_players):
    state = ct.play_out(pkg.Game(num_players).new_initial_state(5), random.Random(5), 40)
    assert not state.is_terminal()
    d = state.to_dict()
    for observer in (None, state.current_player(), (state.current_player() + 1) % num_players):
        for policy in pkg.POLICIES:
            runs = [_check_batch(pkg.rollouts(state, N, policy, 23, threads=t, observer=observer), num_players)
                    for t in (1, 2, 3)]
            _same(runs[0], runs[1])
            _same(runs[0], runs[2])
            assert state.to_dict() == d, "rollouts changed the state they started from"


def test_rollout_arguments_are_checked(pkg):
    game = pkg.Game(2)
    for bad in ("nonsense", ["random"] * 3):
        with pytest.raises(ValueError):
            pkg.rollouts(game, 2, bad, 1, threads=1)
    for bad in (0, -1):
        with pytest.raises(ValueError):
            pkg.rollouts(game, 2, "random", 1, threads=bad)
    with pytest.raises((TypeError, ValueError)):
        pkg.rollouts(game, 2, "random", 1, threads=1.5)
    with pytest.raises((TypeError, ValueError)):
        pkg.rollouts(game, -1, "random", 1, threads=1)
    with pytest.raises(TypeError):
        pkg.rollouts("not a game", 2, "random", 1, threads=1)
