"""Bad input raises the documented exception and leaves the state as it was:
IllegalActionError for an illegal or out-of-range action id, TypeError for
an action that is not an int, ValueError for a seat that does not exist
(TypeError for one that is not an int)."""
import random

import numpy as np
import pytest

from threes.errors import IllegalActionError

NOT_INTS = [1.5, "3", "0", True, False, None, np.float64(1.0), [1], b"\x01"]
BAD_SEATS = [-1, "n", "n+1", 99]
NOT_INT_SEATS = [1.5, "0", True, None]
SEAT_METHODS = ["observation", "observation_string", "information_state_string", "observation_tensor",
                "resample_from_infostate"]


def _states(ct, pkg, num_players):
    """A live state of each kind along a random game, and a finished one."""
    out = ct.sample_states(pkg, num_players, seed=4, steps=200, every=40)
    out = [s for s in out if not s.is_terminal()]
    out.append(ct.play_out(pkg.Game(num_players, max_moves=30).new_initial_state(4), random.Random(4), 100))
    assert out[-1].is_terminal()
    return out


def _unchanged(state, d, d_history):
    assert state.to_dict() == d
    assert state.history() == d_history
    state._check()


def test_illegal_and_out_of_range_actions_raise_illegal_action_error(ct, pkg, num_players):
    for state in _states(ct, pkg, num_players):
        n_actions = pkg.Game(num_players).num_distinct_actions()
        legal = set(state.legal_actions())
        illegal = [a for a in range(n_actions) if a not in legal]
        assert illegal
        d, h = state.to_dict(), state.history()
        for a in illegal[:5] + illegal[-3:] + [-1, -2**31, n_actions, n_actions + 1, 10**6, 2**31, 2**64, -2**70]:
            assert not state.is_legal(a)
            with pytest.raises(IllegalActionError):
                state.apply_action(a)
            _unchanged(state, d, h)
        assert issubclass(IllegalActionError, ValueError)


@pytest.mark.parametrize("bad", NOT_INTS, ids=repr)
def test_a_non_int_action_raises_type_error(ct, pkg, num_players, bad):
    for state in _states(ct, pkg, num_players):
        d, h = state.to_dict(), state.history()
        with pytest.raises(TypeError):
            state.apply_action(bad)
        _unchanged(state, d, h)
        with pytest.raises(TypeError):
            state.is_legal(bad)
        _unchanged(state, d, h)


def test_numpy_ints_are_actions(pkg, num_players):
    state = pkg.Game(num_players).new_initial_state(8)
    other = state.clone()
    rng = random.Random(8)
    for _ in range(40):
        a = rng.choice(state.legal_actions())
        assert state.is_legal(np.int64(a)) and state.is_legal(np.uint16(a))
        state.apply_action(np.int64(a))
        other.apply_action(a)
        assert state.to_dict() == other.to_dict()
        assert all(type(x) is int for x in state.history())


@pytest.mark.parametrize("method", SEAT_METHODS)
def test_a_bad_seat_raises(ct, pkg, num_players, method):
    for state in _states(ct, pkg, num_players)[:2]:
        d, h = state.to_dict(), state.history()
        f = getattr(state, method)
        for seat in BAD_SEATS:
            seat = {"n": num_players, "n+1": num_players + 1}.get(seat, seat)
            with pytest.raises(ValueError):
                f(seat)
            _unchanged(state, d, h)
        for seat in NOT_INT_SEATS:
            with pytest.raises(TypeError):
                f(seat)
            _unchanged(state, d, h)


@pytest.mark.parametrize("method", SEAT_METHODS)
def test_a_numpy_int_is_a_seat(pkg, method):
    # as for actions (Gymnasium and PettingZoo hand out numpy ints)
    state = pkg.Game(3).new_initial_state(6)
    f = getattr(state, method)
    extra = (5,) if method == "resample_from_infostate" else ()  # the same resampling seed
    want = f(2, *extra)
    for t in (np.int64, np.int32, np.uint8):
        got = f(t(2), *extra)
        if method == "observation_tensor":
            assert np.array_equal(got, want)
        else:
            assert got == want


@pytest.mark.parametrize("players", [0, 1, 100, -2])
def test_a_bad_player_count_raises_value_error(pkg, players):
    with pytest.raises(ValueError):
        pkg.Game(players)


@pytest.mark.parametrize("players", [2.0, "2", True, None])
def test_a_non_int_player_count_raises_type_error(pkg, players):
    with pytest.raises(TypeError):
        pkg.Game(players)


@pytest.mark.parametrize("seed", [1.5, "7", True, [1]])
def test_a_non_int_seed_raises_type_error(pkg, seed):
    with pytest.raises(TypeError):
        pkg.Game(2).new_initial_state(seed)


def test_from_dict_refuses_what_is_not_a_state(pkg):
    state = pkg.Game(3).new_initial_state(2)
    d = state.to_dict()
    short = [{k: v for k, v in d.items() if k != "num_players"}]  # a field every game requires
    for bad in [{}, {"format": "nonsense"}] + short:
        with pytest.raises(ValueError):
            type(state).from_dict(bad)
    with pytest.raises((TypeError, ValueError)):
        type(state).from_dict([1, 2])
    assert state.to_dict() == d
