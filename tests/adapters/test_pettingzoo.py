"""threes.pettingzoo: the AEC environment passes PettingZoo's own checks and
agrees with the engine move for move."""
import random

import numpy as np
import pytest

from pettingzoo import AECEnv  # in the test extra: a missing adapter dependency fails, it does not skip
from pettingzoo.test import api_test, seed_test

import threes
from threes.pettingzoo import ThreesAEC, env, raw_env

# Dict observations ({"observation", "action_mask"}) and all-zero masks of agents not
# to move are PettingZoo's own recommended layout; api_test still warns about them.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize("num_players,rules", [(2, "threes"), (3, "threes"), (4, "threes"), (4, "classic"),
                                               (3, "dutch")])
def test_api_test(num_players, rules):
    api_test(env(num_players=num_players, rules=rules), num_cycles=1000)


def test_api_test_truncated_games():
    # A tiny move cap: every game ends truncated, which exercises the truncation path.
    api_test(env(num_players=3, max_moves=30), num_cycles=1000)


@pytest.mark.parametrize("num_players", [2, 4])
def test_seed_test(num_players):
    seed_test(lambda: env(num_players=num_players), num_cycles=1000)


def test_spaces_and_metadata():
    e = env(num_players=3, rules="classic")
    e.reset(seed=0)
    game = threes.Game(3, "classic")
    n_act = game.num_distinct_actions()
    n_obs = game.new_initial_state(0).observation_tensor_shape()[0]
    assert isinstance(e.unwrapped, ThreesAEC) and isinstance(e, AECEnv)
    assert e.possible_agents == ["player_0", "player_1", "player_2"]
    assert e.metadata == {"name": "threes_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}
    for a in e.possible_agents:
        space = e.observation_space(a)
        assert space["observation"].shape == (n_obs,) and space["observation"].dtype == np.float32
        assert space["observation"].low.min() == 0 and space["observation"].high.max() == 255
        assert space["action_mask"].shape == (n_act,) and space["action_mask"].dtype == np.int8
        assert e.action_space(a).n == n_act
        assert e.observation_space(a) is space


def _play_random(e, seed, num_players):
    """Plays a game with random masked actions; returns (actions, final cumulative rewards,
    observations per step as (seat, obs, mask), terminated, truncated)."""
    rng = random.Random(seed)
    e.reset(seed=seed)
    actions, seen, final = [], [], {}
    term = trunc = None
    for agent in e.agent_iter():
        obs, reward, termination, truncation, _ = e.last()
        seen.append((int(agent.split("_")[1]), obs["observation"], obs["action_mask"]))
        if termination or truncation:
            final[agent] = reward
            term, trunc = termination, truncation
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size > 0
        a = int(rng.choice(list(legal)))
        actions.append(a)
        e.step(a)
    assert sorted(final) == [f"player_{i}" for i in range(num_players)]
    return actions, final, seen, term, trunc


@pytest.mark.parametrize("num_players,rules,max_moves", [(4, "threes", None), (2, "classic", None),
                                                         (3, "threes", 40)])
def test_random_game_matches_engine(num_players, rules, max_moves):
    e = env(num_players=num_players, rules=rules, max_moves=max_moves)
    actions, final, seen, term, trunc = _play_random(e, 11, num_players)
    assert not e.agents  # every dead agent stepped None and left

    # Replay on the engine with the same seed and actions.
    state = threes.Game(num_players, rules, max_moves).new_initial_state(11)
    k = 0
    for seat, obs, mask in seen:
        np.testing.assert_array_equal(obs, state.observation_tensor(seat))
        if state.is_terminal():
            assert not mask.any()
            continue
        assert seat == state.current_player()
        np.testing.assert_array_equal(mask.astype(bool), state.legal_actions_mask())
        state.apply_action(actions[k])
        k += 1
    assert k == len(actions) and state.is_terminal()
    assert term == (not state.is_truncated()) and trunc == state.is_truncated()
    assert trunc == (max_moves is not None)
    for p, r in enumerate(state.returns()):
        assert final[f"player_{p}"] == pytest.approx(r)
        assert -1.0 <= r <= 1.0


def test_rewards_zero_before_the_end_and_masks_only_for_the_mover():
    e = env(num_players=4)
    e.reset(seed=5)
    rng = random.Random(0)
    for _ in range(200):
        agent = e.agent_selection
        obs, reward, termination, truncation, _ = e.last()
        if termination or truncation:
            break
        assert reward == 0.0 and all(v == 0.0 for v in e.rewards.values())
        for other in e.agents:
            if other != agent:
                assert not e.observe(other)["action_mask"].any()
            np.testing.assert_array_equal(e.observe(other)["observation"],
                                          e.unwrapped.game_state.observation_tensor(int(other[-1])))
        e.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))


def test_reset_seed_deals_the_engine_game_and_reset_without_seed_is_reproducible():
    a, b = raw_env(3), raw_env(3)
    a.reset(seed=99)
    assert a.game_state == threes.Game(3).new_initial_state(99)
    b.reset(seed=99)
    for _ in range(3):
        a.reset()
        b.reset()
        assert a.game_state == b.game_state and a.deal_seed == b.deal_seed
    c = raw_env(3)
    c.reset()
    d = raw_env(3)
    d.reset()
    assert c.deal_seed != d.deal_seed  # fresh entropy when never seeded


def test_bad_actions_raise():
    e = env(num_players=4)
    e.reset(seed=2)
    state = e.unwrapped.game_state
    before = state.clone()
    legal = set(state.legal_actions())
    illegal = next(a for a in range(state.num_distinct_actions()) if a not in legal)
    for bad in (illegal, -1, state.num_distinct_actions(), 10**9, None, "3", 1.0, True):
        with pytest.raises(ValueError):
            e.step(bad)
    with pytest.raises(threes.IllegalActionError, match="not legal"):
        e.step(illegal)
    assert e.unwrapped.game_state == before  # unchanged
    e.step(np.int64(min(legal)))  # numpy ints are fine


def test_dead_agents_must_step_none():
    e = env(num_players=2, max_moves=5)
    e.reset(seed=1)
    while True:
        obs, _, termination, truncation, _ = e.last()
        if termination or truncation:
            break
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(e.truncations.values()) and not any(e.terminations.values())
    with pytest.raises(ValueError, match="None"):
        e.step(0)
    e.step(None)
    e.step(None)
    assert e.agents == []


def test_render_and_constructor_errors(capsys):
    e = env(num_players=2, render_mode="ansi")
    e.reset(seed=4)
    assert e.render() == str(e.unwrapped.game_state)
    h = env(num_players=2, render_mode="human")
    h.reset(seed=4)
    assert h.render() is None
    assert "seat 0 to move" in capsys.readouterr().out
    with pytest.raises(ValueError):
        env(render_mode="rgb_array")
    with pytest.raises(ValueError):
        env(num_players=1)
    with pytest.raises(ValueError):
        env(rules="nonsense")
    with pytest.raises(ValueError):
        env(max_moves=0)


def test_step_before_reset_is_refused():
    e = env()
    with pytest.raises(AssertionError, match="reset"):  # the OrderEnforcingWrapper's error
        e.step(0)
