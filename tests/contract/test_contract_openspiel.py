"""The one OpenSpiel adapter (threes.adapters._spiel) over every registered game: the game and
state classes are the generic ones, a game's own module gives only its chance model; the
parameters come from the registry; the chance nodes are sound; resample_from_infostate keeps the
seat's information state and replays; the information state tensor is a function of the seat's
information state only (never a hidden card) and OpenSpiel's random_sim_test passes with it, also
through the observer's information state mode."""
import random

import pytest

import pyspiel  # in the test extra: a missing adapter dependency fails, it does not skip

from threes import registry
from threes.adapters._spiel import ChanceModel, EngineObserver, SpielGame, SpielState


def _game(ct, game_name, players=3, max_moves=200, **params):
    return pyspiel.load_game(ct.openspiel_short_name(game_name), {"players": players, "max_moves": max_moves, **params})


def _states(game, seed, steps, every):
    """States of one random game (chance by its probabilities), every `every`-th node past the first deal."""
    rng = random.Random(seed)
    s = game.new_initial_state()
    out = []
    for i in range(steps):
        if s.is_terminal():
            break
        if s.is_chance_node():
            kinds, probs = zip(*s.chance_outcomes())
            s.apply_action(rng.choices(kinds, probs)[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
        if i % every == 0 and not s.is_chance_node() and not s.is_terminal():
            out.append(s.clone())
    return out


def test_the_classes_are_the_generic_ones_and_the_parameters_the_registrys(ct, game_name):
    game = _game(ct, game_name)
    assert isinstance(game, SpielGame) and isinstance(game.new_initial_state(), SpielState)
    assert isinstance(game.model, ChanceModel)
    assert isinstance(game.make_py_observer(), EngineObserver)
    params = game.get_parameters()
    info = registry.get(game_name)
    for o in info.options:  # every declared option is a parameter, with its default
        assert params[o.name] == o.to_param(o.default)
    assert params["players"] == 3 and params["max_moves"] == 200
    assert set(params) == set(game.model_class.defaults())
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        pyspiel.load_game(ct.openspiel_short_name(game_name), {"no_such_parameter": 1})
    with pytest.raises(ValueError, match="unknown"):
        type(game)({"no_such_parameter": 1})
    t = game.get_type()
    assert t.provides_information_state_tensor and t.provides_observation_tensor


def test_chance_nodes_sum_to_one_and_refuse_what_is_not_left(ct, game_name):
    game = _game(ct, game_name, players=2)
    s = game.new_initial_state()
    assert s.is_chance_node()
    outcomes = s.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9 and all(p > 0 for _, p in outcomes)
    assert [a for a, _ in outcomes] == sorted(a for a, _ in outcomes)
    assert max(a for a, _ in outcomes) < game.max_chance_outcomes()
    missing = next(k for k in range(game.max_chance_outcomes() + 1) if k not in dict(outcomes))
    with pytest.raises(pyspiel.SpielError):
        s.apply_action(missing)
    assert s.chance_outcomes() == outcomes and s.history() == []
    assert s.action_to_string(pyspiel.PlayerId.CHANCE, outcomes[0][0]).startswith("deal ")


@pytest.mark.parametrize("players", [2, 3])
def test_resampling_keeps_the_information_state_and_the_tensor(ct, game_name, players):
    """For each seat, a resampled state has the seat's information state string, observation
    tensor and information state tensor, the same player actions, and replays from its history;
    and across the samples some chance outcome differs (the hidden cards were dealt again), so the
    tensor's equality is not that of one and the same state."""
    game = _game(ct, game_name, players=players, max_moves=400)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    redealt = 0
    for state in _states(game, seed=players, steps=260, every=37):
        h = state.history()
        for p in range(players):
            r = state.resample_from_infostate(p, sampler)
            assert r.information_state_string(p) == state.information_state_string(p)
            assert r.observation_tensor(p) == state.observation_tensor(p)
            assert r.information_state_tensor(p) == state.information_state_tensor(p)
            assert r.current_player() == state.current_player()
            rh = r.history()
            assert len(rh) == len(h)
            redealt += rh != h
            again = game.new_initial_state()
            for a in rh:
                again.apply_action(a)
            assert str(again) == str(r) and again.information_state_tensor(p) == r.information_state_tensor(p)
    assert redealt > 0, "no resample dealt a hidden card again"


def test_the_information_state_tensor_never_holds_a_hidden_card(ct, game_name):
    """Two states that differ only in what seat p has not seen (a state and its resamples for p)
    give p the same information state tensor, while the same resamples can change what another
    seat holds (its own tensor may then differ)."""
    game = _game(ct, game_name, players=3, max_moves=300)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others_differ = 0
    for state in _states(game, seed=11, steps=220, every=29):
        for p in range(3):
            want = state.information_state_tensor(p)
            for _ in range(3):
                r = state.resample_from_infostate(p, sampler)
                assert r.information_state_tensor(p) == want
                others_differ += any(r.information_state_tensor(q) != state.information_state_tensor(q)
                                     for q in range(3) if q != p)
    assert others_differ > 0, "no resample changed what another seat holds: the check above proves nothing"


def test_the_tensors_are_the_same_on_every_path(ct, game_name):
    """The state's own answers, pyspiel's C++ path (the game's observers, as random_sim_test reads
    them) and the observers made from Python agree; their shapes are the game's; the strings are
    the engine's."""
    from open_spiel.python.observation import make_observation

    game = _game(ct, game_name, players=2)
    n = game.num_players()
    info_size = game.observation_tensor_size() + n * game.num_distinct_actions()
    assert game.information_state_tensor_shape() == [info_size]
    obs_py = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    info_py = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert info_py.tensor.size == info_size and "actions" in info_py.dict
    assert info_py.dict["actions"].shape == (n, game.num_distinct_actions())
    states = [game.new_initial_state()] + _states(game, seed=5, steps=200, every=23)
    for s in states:
        for p in range(n):
            info = s.information_state_tensor(p)
            assert info == pyspiel.State.information_state_tensor(s, p)
            assert s.observation_tensor(p) == pyspiel.State.observation_tensor(s, p)
            assert info[:game.observation_tensor_size()] == s.observation_tensor(p)
            info_py.set_from(s, p)
            obs_py.set_from(s, p)
            assert info_py.tensor.tolist() == info and obs_py.tensor.tolist() == s.observation_tensor(p)
            assert info_py.string_from(s, p) == s.information_state_string(p)
            if not s.is_chance_node():  # the engine's strings (the observation's written in C, the same text)
                assert s.observation_string(p) == s.inner.observation_string(p)
                assert s.information_state_string(p) == s.inner.information_state_string(p)
    for bad in (-1, n, True, "0"):
        with pytest.raises(pyspiel.SpielError):
            states[-1].information_state_tensor(bad)


@pytest.mark.parametrize("num_players", [2, 3])
def test_random_sim_test_with_the_information_state_observer(ct, game_name, num_players):
    """OpenSpiel's random_sim_test (which checks every tensor's size and finiteness at every node),
    also writing the information state observer's tensor and string at every node."""
    game = _game(ct, game_name, players=num_players, max_moves=120)
    observer = game.make_observer(pyspiel.IIGObservationType(perfect_recall=True), {})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False, observer=observer)


def test_a_deal_is_zeros(ct, game_name):
    game = _game(ct, game_name, players=2)
    s = game.new_initial_state()
    s.apply_action(s.chance_outcomes()[0][0])
    for p in range(2):
        assert not any(s.information_state_tensor(p)) and not any(s.observation_tensor(p))
        assert s.information_state_string(p) and s.observation_string(p)
