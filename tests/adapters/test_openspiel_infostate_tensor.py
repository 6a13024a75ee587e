"""The OpenSpiel games' information state tensor (threes.adapters._spiel): the observation tensor
followed by the ``actions`` block, how many times each seat took each action since the current deal
began, checked here against a count made by replaying the history (the deal's cards are the
chance outcomes named ``deal ...``). It is not the observation tensor in disguise: two states with
the same observation and different public histories differ. The information state string and the
observation tensor stay. (tests/contract/test_contract_openspiel.py checks, for every game, that
it never holds a hidden card and that random_sim_test passes with it.)"""
import numpy as np
import pytest
import pyspiel

import threes.adapters.openspiel  # noqa: F401  (registers the games)

CASES = [("threes", {"players": 3}), ("threes", {"players": 2, "rules": "classic"}),
         ("three_thirteen", {"players": 3}), ("three_thirteen", {"players": 2})]


def played(game, rng, moves):
    s = game.new_initial_state()
    while s.is_chance_node() or (moves > 0 and not s.is_terminal()):
        if s.is_chance_node():
            kinds, probs = zip(*s.chance_outcomes())
            s.apply_action(int(rng.choice(kinds, p=probs)))
        else:
            s.apply_action(int(rng.choice(s.legal_actions())))
            moves -= 1
    return s


def counts_by_replay(game, history):
    """Each seat's count of each action since the last card dealt, replaying the history."""
    n, a = game.num_players(), game.num_distinct_actions()
    counts = np.zeros((n, a), np.float32)
    s = game.new_initial_state()
    for action in history:
        if s.is_chance_node():
            if s.action_to_string(pyspiel.PlayerId.CHANCE, action).startswith("deal "):
                counts[:] = 0
        else:
            counts[s.current_player(), action] += 1
        s.apply_action(action)
    return counts


@pytest.mark.parametrize("name,params", CASES)
def test_the_information_state_tensor_is_the_observation_and_the_actions_of_the_deal(name, params):
    game = pyspiel.load_game(name, params)
    assert game.get_type().provides_information_state_tensor is True
    assert game.get_type().provides_observation_tensor is True
    n, k = game.num_players(), game.observation_tensor_size()
    assert game.information_state_tensor_size() == k + n * game.num_distinct_actions()
    rng = np.random.RandomState(2)
    for moves in (0, 5, 20, 120, 400):
        state = played(game, rng, moves)
        want = counts_by_replay(game, state.history()).ravel().tolist()
        for p in range(n):
            t = state.information_state_tensor(p)
            assert t[:k] == state.observation_tensor(p)
            assert t[k:] == want
            obs = np.array(state.observation_tensor(p))
            assert obs.size > 0 and (state.is_terminal() or np.count_nonzero(obs) > 0)
            assert state.information_state_string(p) and state.observation_string(p)


def test_three_thirteen_counts_start_again_with_each_round():
    game = pyspiel.load_game("three_thirteen", {"players": 2})
    rng = np.random.RandomState(3)
    state = played(game, rng, 0)
    k = game.observation_tensor_size()
    from threes.bots import PolicyBot

    bot = PolicyBot("greedy", seed=1)
    while state.inner.round() == 1:
        if state.is_chance_node():
            kinds, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(kinds, p=probs)))
        else:
            assert any(state.information_state_tensor(0)[k:]) or state.inner.move_number() == 0
            state.apply_action(bot.step(state.inner))
    assert state.is_chance_node()  # round 2's deal: nothing of round 1's actions is counted
    assert not any(state.information_state_tensor(0))
    while state.is_chance_node():
        kinds, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(kinds, p=probs)))
    assert not any(state.information_state_tensor(0)[k:])


@pytest.mark.parametrize("seed", [0, 3])
def test_the_same_observation_with_another_public_history_is_another_tensor(seed):
    """Shithead repeats positions (a pile picked up and played again): seat 0 then sees the same
    observation tensor after a different public history, which the information state tensor tells
    apart by the actions taken (the observation tensor in disguise would not)."""
    game = pyspiel.load_game("threes", {"players": 2})
    rng = np.random.RandomState(seed)
    s = game.new_initial_state()
    seen = {}
    while not s.is_terminal():
        if s.is_chance_node():
            kinds, probs = zip(*s.chance_outcomes())
            s.apply_action(int(rng.choice(kinds, p=probs)))
            continue
        s.apply_action(int(rng.choice(s.legal_actions())))
        if s.is_terminal():
            break
        obs, info = tuple(s.observation_tensor(0)), tuple(s.information_state_tensor(0))
        if obs in seen and seen[obs] != info:
            assert seen[obs][:len(obs)] == info[:len(obs)]
            return
        seen.setdefault(obs, info)
    raise AssertionError("no observation came back after another history")


def test_the_observers_dict_names_the_blocks():
    from open_spiel.python.observation import make_observation

    from threes.shithead.observation import observation_tensor_layout

    game = pyspiel.load_game("threes", {"players": 3})
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    assert list(obs.dict) == list(observation_tensor_layout(3))
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert list(info.dict) == list(observation_tensor_layout(3)) + ["actions"]
    tt = pyspiel.load_game("three_thirteen", {"players": 3})
    assert list(make_observation(tt, pyspiel.IIGObservationType(perfect_recall=False)).dict) == ["observation"]
    assert list(make_observation(tt, pyspiel.IIGObservationType(perfect_recall=True)).dict) == \
        ["observation", "actions"]
