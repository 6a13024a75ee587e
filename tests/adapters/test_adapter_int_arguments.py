"""The integer arguments of the OpenSpiel and PettingZoo adapters, as tests/test_int_arguments.py
checks those of the rest of the API: an int out of range of any size or sign is a ValueError naming
the bounds (or the argument), anything but an int a TypeError (IllegalActionError, a ValueError,
for a PettingZoo action, as that adapter documents), never an OverflowError, nothing changed.

OpenSpiel's own ``pyspiel.load_game("threes", {"players": 2**64})`` fails inside pybind11's
conversion to a C++ int, before the adapter runs (a RuntimeError of OpenSpiel's); the adapter's
games checked here are the classes it registers, called as OpenSpiel calls them."""
import re

import numpy as np
import pytest

import threes.openspiel  # noqa: F401  (registers the games)
from threes.adapters import openspiel as ospiel
from threes.adapters import pettingzoo as pz

HUGE = [2**64, -2**64, 2**200, 10**30, 2**63, -2**63 - 1, np.int64(2**63 - 1), np.int64(-2**63),
        np.uint64(2**64 - 1), -1]
NOT_INTS = [1.5, "3", True, None, [3]]


def _rejects(call, v, exceptions, match=None):
    with pytest.raises(exceptions, match=match) as info:
        call(v)
    assert not isinstance(info.value, OverflowError)
    return info.value


GAME_PARAMS = [
    ("threes players", lambda v: ospiel.ThreesGame({"players": v}), r"'players' must be in 2\.\.12"),
    ("threes max_moves", lambda v: ospiel.ThreesGame({"players": 3, "max_moves": v}), r"'max_moves' must be in 0\.\.\d+"),
    ("three_thirteen players", lambda v: ospiel.ThreeThirteenGame({"players": v}), r"'players' must be in 2\.\.8"),
    ("three_thirteen decks", lambda v: ospiel.ThreeThirteenGame({"decks": v}), r"'decks' must be in 0\.\.255"),
    ("three_thirteen jokers", lambda v: ospiel.ThreeThirteenGame({"jokers": v}), r"'jokers' must be in 0\.\.255"),
    ("three_thirteen max_moves", lambda v: ospiel.ThreeThirteenGame({"max_moves": v}),
     r"'max_moves' must be in 0\.\.4294967295"),
    ("ThreesRolloutEvaluator(n_rollouts)", lambda v: ospiel.ThreesRolloutEvaluator(n_rollouts=v),
     r"n_rollouts must be in 1\.\.\d+"),
]


@pytest.mark.parametrize("name,call,bounds", GAME_PARAMS, ids=[g[0] for g in GAME_PARAMS])
def test_openspiel_game_parameters(name, call, bounds):
    for v in HUGE:
        if name.endswith("max_moves") and v == -1:
            v = -2  # (0 is the default cap there; -1 is out of range too)
        exc = _rejects(call, v, ValueError)
        assert re.search(bounds, str(exc)), str(exc)
    for v in NOT_INTS:
        # a float was silently cut to an int before (players=2.9 seated 2)
        _rejects(call, v, TypeError, r"must be an int")


def test_openspiel_state_player_arguments():
    """A seat out of range is OpenSpiel's SpielError there (what pyspiel's own games raise), naming the seats."""
    import pyspiel

    game = ospiel.ThreesGame({"players": 3})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    before = str(state), state.history()
    for v in HUGE + [3]:
        _rejects(lambda p: state.observation_tensor(p), v, (ValueError, pyspiel.SpielError), r"0\.\.2")
        _rejects(lambda p: state.resample_from_infostate(p), v, (ValueError, pyspiel.SpielError), r"0\.\.2")
    for v in (1.5, "0", True):
        _rejects(lambda p: state.observation_tensor(p), v, (TypeError, ValueError, pyspiel.SpielError))
        _rejects(lambda p: state.resample_from_infostate(p), v, (TypeError, ValueError, pyspiel.SpielError))
    assert (str(state), state.history()) == before


@pytest.mark.parametrize("make", [lambda v: pz.env(num_players=v), lambda v: pz.raw_env(num_players=v)])
def test_pettingzoo_num_players(make):
    for v in HUGE:
        _rejects(make, v, ValueError, r"between 2 and 12")
    for v in (1.5, "3", True, None):
        _rejects(make, v, TypeError)


def test_pettingzoo_max_moves():
    for v in HUGE:
        _rejects(lambda m: pz.env(num_players=3, max_moves=m), v, ValueError, r"between 1 and \d+")
    for v in (1.5, "3", True):
        _rejects(lambda m: pz.env(num_players=3, max_moves=m), v, TypeError)


def test_pettingzoo_actions_and_seeds():
    e = pz.raw_env(num_players=3)
    e.reset(seed=1)
    before = e.game_state.to_dict()
    for v in HUGE:
        _rejects(e.step, v, ValueError, r"0\.\.\d+")
    for v in (1.5, "3", True, [1]):
        _rejects(e.step, v, ValueError, r"an action is an int id in 0\.\.\d+")  # IllegalActionError
    assert e.game_state.to_dict() == before
    # a seed: any int, taken modulo 2**64
    e.reset(seed=5)
    five = e.game_state.to_dict()
    for v in (2**64 + 5, np.int64(5), np.uint64(5)):
        e.reset(seed=v)
        assert e.game_state.to_dict() == five
    for v in (1.5, "5", True):
        _rejects(lambda s: e.reset(seed=s), v, TypeError, r"seed must be an int or None")
