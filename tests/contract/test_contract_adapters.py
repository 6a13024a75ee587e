"""Each adapter's own checker, for every game: OpenSpiel's random_sim_test
(threes.openspiel), PettingZoo's api_test (threes.pettingzoo) and
Gymnasium's check_env (threes.gym). How an adapter reaches a game by its
registry name is in conftest.py (openspiel_game, pettingzoo_env, gym_env)."""
import warnings

import pytest

import pyspiel  # in the test extra: a missing adapter dependency fails, it does not skip
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test


@pytest.mark.parametrize("num_players", [2, 3])
def test_openspiel_random_sim_test(ct, game_name, num_players):
    game = ct.openspiel_game(game_name, num_players, max_moves=150)
    assert game.num_players() == num_players
    assert game.get_type().short_name == ct.openspiel_short_name(game_name)
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_openspiel_plays_the_engines_actions(ct, game_name, pkg):
    """After the deal (explicit chance nodes, if any), the pyspiel state's
    legal actions are the engine's ids and its returns the engine's."""
    import numpy as np

    game = ct.openspiel_game(game_name, 3, max_moves=100)
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            assert abs(sum(probs) - 1.0) < 1e-9 and all(p > 0 for p in probs)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        if decisions % 7 == 0:  # as OpenSpiel's own games: chance outcomes only at chance nodes
            with pytest.raises(pyspiel.SpielError, match="chance nodes"):
                state.chance_outcomes()
        decisions += 1
        legal = state.legal_actions()
        assert legal == sorted(legal) and legal
        assert max(legal) < game.num_distinct_actions()
        state.apply_action(int(rng.choice(legal)))
    assert abs(sum(state.returns())) < 1e-9
    assert all(-1.0 <= r <= 1.0 for r in state.returns())
    with pytest.raises(pyspiel.SpielError, match="chance nodes"):
        state.chance_outcomes()  # nor at the end


@pytest.mark.parametrize("num_players", [2, 3])
def test_pettingzoo_api_test(ct, game_name, num_players):
    api_test(ct.pettingzoo_env(game_name, num_players, max_moves=300), num_cycles=300)


def test_pettingzoo_agents_are_the_seats(ct, game_name):
    e = ct.pettingzoo_env(game_name, 3)
    e.reset(seed=4)
    assert e.possible_agents == ["player_0", "player_1", "player_2"]
    obs, reward, terminated, truncated, info = e.last()
    assert obs["action_mask"].any() and reward == 0
    e.close()


def test_gymnasium_check_env(ct, game_name):
    # As tests/adapters/test_gym.py: the env has no spec when built directly,
    # so check_env warns that it cannot try the other render modes; nothing else.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = ct.gym_env(game_name, 2, opponents="random")
        check_env(env)
    assert all("not having a spec" in str(w.message) for w in caught), [str(w.message) for w in caught]
    env.close()


def test_gymnasium_random_episode(ct, game_name):
    import numpy as np

    env = ct.gym_env(game_name, 3, max_moves=200, opponents="random")
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(300):
        assert obs in env.observation_space
        legal = np.flatnonzero(info["action_mask"])
        assert legal.size
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        assert -1.0 <= reward <= 1.0
        if terminated or truncated:
            break
    assert terminated or truncated, "the capped game did not end"
    # why it did not finish normally (threes.places.end_reason), only when it did not
    want = None if not truncated else "stalemate" if env.unwrapped.game_state.is_stalemate() else "move_cap"
    assert info.get("truncation_reason") == want
    env.close()


def test_pettingzoo_truncation_says_why(ct, game_name):
    e = ct.pettingzoo_env(game_name, 2, max_moves=30)  # no game of either kind ends in 30 moves
    e.reset(seed=3)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            assert truncated and not terminated
            assert info["truncation_reason"] == "move_cap"
            e.step(None)
        else:
            e.step(int(obs["action_mask"].nonzero()[0][0]))
    e.close()
