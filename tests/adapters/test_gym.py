"""threes.gym: the single-agent Gymnasium environment (one learner against bots)."""
import warnings

import numpy as np
import pytest

import gymnasium  # in the test extra: a missing adapter dependency fails, it does not skip
from gymnasium.utils.env_checker import check_env

import threes
import threes.gym  # registers threes/Threes-v0
from threes.gym import ENV_ID, ThreesEnv


def _episode(env, seed, pick=None):
    """Plays one episode with random masked actions; returns the list of transitions."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    steps = [(obs, 0.0, False, False, info)]
    while True:
        legal = np.flatnonzero(info["action_mask"])
        assert legal.size > 0
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        steps.append((obs, reward, terminated, truncated, info))
        if terminated or truncated:
            return steps
        assert reward == 0.0


def test_check_env():
    # No render check is skipped. render_mode is None here and the env has no spec
    # (so check_env warns that it cannot try the other modes); the registered env
    # below is checked through its spec, which renders every declared mode.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(ThreesEnv())
    assert all("not having a spec" in str(w.message) for w in caught), [str(w.message) for w in caught]


def test_check_env_through_make_without_warnings(capsys):
    env = gymnasium.make(ENV_ID, num_players=3, opponents="random")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert not caught, [str(w.message) for w in caught]
    assert "rules, 3 players" in capsys.readouterr().out  # the "human" mode printed the table
    env.close()


def test_make_registered_id():
    assert ENV_ID == "threes/Threes-v0"
    assert ENV_ID in gymnasium.registry
    threes.gym._register()  # a second registration is a no-op, not a warning or error
    env = gymnasium.make("threes/Threes-v0", num_players=2, rules="classic")
    obs, info = env.reset(seed=3)
    assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].any()
    assert isinstance(env.unwrapped, ThreesEnv)
    env.close()


@pytest.mark.parametrize("kwargs", [{}, {"num_players": 2, "seat": 1}, {"num_players": 3, "rules": "dutch",
                                                                         "opponents": ["random", "heuristic"]},
                                    {"seat": 2, "max_moves": 60}])
def test_masked_random_episodes_end_with_the_learners_return(kwargs):
    env = ThreesEnv(**kwargs)
    for seed in range(3):
        steps = _episode(env, seed)
        obs, reward, terminated, truncated, info = steps[-1]
        state = env.game_state
        assert state.is_terminal()
        assert terminated == (not state.is_truncated()) and truncated == state.is_truncated()
        assert -1.0 <= reward <= 1.0
        assert reward == pytest.approx(state.returns()[env.seat]) == pytest.approx(info["returns"][env.seat])
        assert info["action_mask"].all()  # the next action is ignored: never an all-zero mask
        np.testing.assert_array_equal(obs, state.observation_tensor(env.seat))
        for o, *_ in steps:
            assert o in env.observation_space
        if kwargs.get("max_moves"):
            assert truncated and reward == 0.0


def test_observation_and_mask_are_the_learners():
    env = ThreesEnv(num_players=4, seat=2)
    obs, info = env.reset(seed=8)
    state = env.game_state
    assert state.current_player() == 2
    np.testing.assert_array_equal(obs, state.observation_tensor(2))
    np.testing.assert_array_equal(info["action_mask"].astype(bool), state.legal_actions_mask())


def test_same_seed_same_episode():
    a = _episode(ThreesEnv(opponents="random"), 21)
    b = _episode(ThreesEnv(opponents="random"), 21)
    assert len(a) == len(b)
    for (o1, r1, t1, u1, i1), (o2, r2, t2, u2, i2) in zip(a, b):
        np.testing.assert_array_equal(o1, o2)
        np.testing.assert_array_equal(i1["action_mask"], i2["action_mask"])
        assert (r1, t1, u1) == (r2, t2, u2)
    # reset(seed=s) deals the engine's game for s; reset() afterwards is reproducible too
    e1, e2 = ThreesEnv(), ThreesEnv()
    e1.reset(seed=5)
    assert e1.deal_seed == 5 and e1.game_state == threes.Game(4).new_initial_state(5)  # seat 0 moves first
    e2.reset(seed=5)
    o1, _ = e1.reset()
    o2, _ = e2.reset()
    np.testing.assert_array_equal(o1, o2)
    assert e1.game_state == e2.game_state


class SpyBot:
    """Records what it is handed and checks it against the true state."""

    name = "spy"

    def __init__(self, env):
        self.env = env
        self.calls = 0
        self.hidden_differs = 0

    def step(self, view):
        true = self.env.game_state
        p = true.current_player()
        assert view is not true
        assert view.information_state_string(p) == true.information_state_string(p)
        assert view.hand(p) == true.hand(p)
        if any(view.hand(q) != true.hand(q) for q in range(true.num_players()) if q != p) \
                or view.draw_pile() != true.draw_pile() or \
                any(view.face_down(q) != true.face_down(q) for q in range(true.num_players())):
            self.hidden_differs += 1
        self.calls += 1
        return min(view.legal_actions())


def test_opponents_never_get_the_true_state():
    env = ThreesEnv(num_players=3, opponents="random")
    spy = SpyBot(env)
    env.opponents[1] = spy
    env.opponents[2] = spy
    for seed in range(2):
        _episode(env, seed)
    assert spy.calls > 20
    # the views had their hidden cards dealt again (late in a game little may be hidden)
    assert spy.hidden_differs > spy.calls * 0.8


def test_illegal_action_penalized_by_default():
    env = ThreesEnv()
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.game_state.clone()
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert env.game_state == before
    np.testing.assert_array_equal(obs, before.observation_tensor(0))
    assert info["action_mask"].all()  # the episode is over: every id, never all zero
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_illegal_action_raises_when_asked():
    env = ThreesEnv(illegal_action="raise")
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.game_state.clone()
    with pytest.raises(threes.IllegalActionError, match="not legal"):
        env.step(illegal)
    assert env.game_state == before
    env.step(np.int64(np.flatnonzero(info["action_mask"])[0]))  # still playable


@pytest.mark.parametrize("bad", [-1, 10**6, "3", 1.5, True, None])
def test_actions_outside_the_space_raise(bad):
    env = ThreesEnv()
    env.reset(seed=0)
    with pytest.raises(ValueError):
        env.step(bad)


def test_step_before_reset():
    with pytest.raises(RuntimeError):
        ThreesEnv().step(0)


def test_render_modes(capsys):
    env = ThreesEnv(num_players=2, render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == str(env.game_state)
    env = ThreesEnv(num_players=2, render_mode="human")
    capsys.readouterr()
    env.reset(seed=0)
    assert env.render() is None
    assert "rules, 2 players" in capsys.readouterr().out


@pytest.mark.parametrize("kwargs,exc", [
    ({"seat": 4}, ValueError),
    ({"seat": -1}, ValueError),
    ({"seat": "0"}, TypeError),
    ({"opponents": ["greedy"]}, ValueError),
    ({"opponents": ["greedy"] * 4}, ValueError),
    ({"opponents": "nobody"}, ValueError),
    ({"opponents": [object(), "greedy", "greedy"]}, TypeError),
    ({"opponents": 3}, TypeError),
    ({"num_players": 1}, ValueError),
    ({"rules": "nonsense"}, ValueError),
    ({"max_moves": 0}, ValueError),
    ({"seat": 3, "max_moves": 3}, ValueError),
    ({"illegal_action": "ignore"}, ValueError),
    ({"render_mode": "rgb_array"}, ValueError),
])
def test_bad_constructor_arguments(kwargs, exc):
    with pytest.raises(exc):
        ThreesEnv(**kwargs)


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_sync_vector_env_never_hands_out_an_all_zero_mask(mode):
    """gymnasium's SyncVectorEnv over ThreesEnv, episodes ending and
    autoresetting: every mask a learner gets has a legal (or, for an ignored
    action, any) id, so a masked softmax never sees all zeros."""
    import gymnasium

    n = 3
    envs = gymnasium.vector.SyncVectorEnv([lambda: ThreesEnv(num_players=2, max_moves=40) for _ in range(n)],
                                          autoreset_mode=getattr(gymnasium.vector.AutoresetMode, mode.upper()))
    obs, info = envs.reset(seed=3)
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(300):
        masks = info["action_mask"]
        assert masks.shape[0] == n and masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, reward, terminated, truncated, info = envs.step(actions)
        ends += int((terminated | truncated).sum())
    assert ends >= n  # episodes did end (the move cap of 40 truncates them)
    envs.close()
