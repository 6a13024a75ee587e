"""threes.vector: the C vector envs (VectorEnv, SelfPlayVectorEnv) against
games replayed one at a time with the engine's single-game API.

The reference (`Reference`) follows the replay rule of the module docstring:
episode k of env i is dealt by ``Game.new_initial_state(episode_seed(seed, i,
k))``, and policy move m of an episode (m counts every action of the episode,
the learner's too) is ``state._policy_action(policy, _core.batch_seed(
episode seed, m))``. Every step of the vector env (observations, masks,
rewards, flags, current_player, final_obs) must equal it, for both games,
single-agent and self-play, every autoreset mode and 1 or 2 threads.
"""
import importlib

import numpy as np
import pytest

import gymnasium  # in the test extra: a missing dependency fails, it does not skip
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

import threes
import threes.vector
from threes import registry
from threes.vector import SelfPlayVectorEnv, VectorEnv, episode_seed

MODES = list(AutoresetMode)
GREEDY_SHARE = 0.95  # Three Thirteen: the share of the learner's moves that are the greedy policy's

#: name -> (num_players, game_options, the opponents of the learner at seat 1)
GAMES = {
    # random Shithead games take a few hundred to thousands of moves: the cap cuts about half of them
    "shithead": (4, {"max_moves": 500}, ["random", "greedy", "heuristic"]),
    # random Three Thirteen almost never ends by itself: the learner mostly plays the greedy
    # policy's move (see _choose) so that some games finish before the cap
    "three_thirteen": (3, {"max_moves": 350}, ["greedy", "random"]),
}


def _module(name):
    return registry.get(name).load()


def _core(name):
    return importlib.import_module(registry.get(name).module + "._core")


def _game(name):
    n, opts, _ = GAMES[name]
    return _module(name).Game(n, **opts)


class Reference:
    """Env `env` of a vector env seeded `seed`, replayed with the engine's API.

    seat None: self-play (no policy moves; every seat's returns). Its outputs
    (obs, mask, reward, terminated, truncated, current_player, final_obs) are
    what the vector env's row `env` must hold after each reset and step."""

    def __init__(self, name, game, seed, env, seat, mode, penalty=-1.0):
        self.name, self.game, self.seed, self.env, self.seat, self.mode = name, game, seed, env, seat, mode
        self.batch_seed = _core(name).batch_seed
        info = registry.get(name)
        _, _, opponents = GAMES[name]
        n = game.num_players()
        self.policy = {}
        if seat is not None:
            others = [q for q in range(n) if q != seat]
            self.policy = {q: info.policies.index(p) for q, p in zip(others, opponents)}
        self.num_players = n
        self.num_actions = None  # set by the test from the env (the width of the masks)
        self.penalty = penalty
        self.episode = 0
        self.reward = np.zeros(n if seat is None else (), np.float32)
        self.terminated = self.truncated = False
        self.final_obs = None
        self.ended = False
        self.terminations = self.truncations = 0

    # -- the replay rule --
    def _deal(self):
        self.eseed = episode_seed(self.seed, self.env, self.episode)
        self.episode += 1
        self.state = self.game.new_initial_state(self.eseed)
        self.moves = 0
        self._play_policies()
        if self.state.is_terminal():
            self._write_over(0)
        else:
            self._write_live()

    def _play_policies(self):
        if self.seat is None:
            return
        s = self.state
        while not s.is_terminal() and s.current_player() != self.seat:
            p = s.current_player()
            s.apply_action(s._policy_action(self.policy[p], self.batch_seed(self.eseed, self.moves)))
            self.moves += 1

    def _write_live(self):
        s = self.state
        p = s.current_player()
        assert p >= 0
        self.obs = np.asarray(s.observation_tensor(self.seat if self.seat is not None else p), np.float32)
        self.mask = np.zeros(self.num_actions, np.bool_)
        self.mask[s.legal_actions()] = True
        self.current_player = p
        self.ended = False

    def _write_over(self, mover):
        self.obs = np.asarray(self.state.observation_tensor(self.seat if self.seat is not None else mover),
                              np.float32)
        self.mask = np.ones(self.num_actions, np.bool_)
        self.current_player = -1
        self.ended = True

    def _clear(self):
        self.reward = np.zeros_like(self.reward)
        self.terminated = self.truncated = False

    def reset(self):
        self._clear()
        self._deal()

    def step(self, action):
        self._clear()
        self.final_obs = None
        if self.ended:
            assert self.mode == AutoresetMode.NEXT_STEP  # DISABLED envs are reset by the test first
            self._deal()  # the action is ignored
            return
        s = self.state
        mover = s.current_player()
        if action not in s.legal_actions():  # only with illegal_action="penalize"
            self.terminated = True
            if self.seat is None:
                self.reward[mover] = self.penalty
            else:
                self.reward[()] = self.penalty
            self._end(mover)
            return
        s.apply_action(int(action))
        self.moves += 1
        self._play_policies()
        if not s.is_terminal():
            self._write_live()
            return
        ret = s.returns()
        if self.seat is None:
            self.reward[:] = ret
        else:
            self.reward[()] = ret[self.seat]
        self.truncated = s.is_truncated()
        self.terminated = not self.truncated
        self.terminations += self.terminated
        self.truncations += self.truncated
        self._end(mover)

    def _end(self, mover):
        self._write_over(mover)
        if self.mode == AutoresetMode.SAME_STEP:
            self.final_obs = self.obs
            self._deal()


def _make(name, self_play, mode=AutoresetMode.NEXT_STEP, num_envs=8, seed=12345, **kwargs):
    n, opts, opponents = GAMES[name]
    if self_play:
        return SelfPlayVectorEnv(name, num_envs, num_players=n, seed=seed, autoreset_mode=mode,
                                 game_options=opts, **kwargs)
    return VectorEnv(name, num_envs, num_players=n, seat=1, opponents=opponents, seed=seed, autoreset_mode=mode,
                     game_options=opts, **kwargs)


def _refs(name, env, seed=12345, penalty=-1.0):
    self_play = isinstance(env, SelfPlayVectorEnv)
    game = _game(name)
    out = []
    for i in range(env.num_envs):
        r = Reference(name, game, seed, i, None if self_play else 1, env.autoreset_mode, penalty)
        r.num_actions = env.single_action_space.n
        out.append(r)
    return out


def _choose(rng, name, mask, refs, greedy):
    """One action per env: uniform among the mask's True entries (any id where the
    episode is over), for Three Thirteen mostly the greedy policy's move."""
    actions = np.empty(len(refs), np.int64)
    for i, r in enumerate(refs):
        legal = np.flatnonzero(mask[i])
        if not r.ended and name == "three_thirteen" and rng.random() < GREEDY_SHARE:
            actions[i] = r.state._policy_action(greedy, int(rng.integers(2**63)))
        else:
            actions[i] = rng.choice(legal)
        assert mask[i, actions[i]]
    return actions


def _check(env, out, refs, what):
    """The env's outputs (obs, rewards, terminated, truncated, info) against the references."""
    obs, rewards, terminated, truncated, info = out
    for i, r in enumerate(refs):
        where = f"{what}, env {i}, episode {r.episode - 1}"
        np.testing.assert_array_equal(obs[i], r.obs, err_msg=where)
        np.testing.assert_array_equal(info["action_mask"][i], r.mask, err_msg=where)
        assert info["action_mask"][i].any(), where
        if rewards is not None:
            np.testing.assert_array_equal(rewards[i], r.reward, err_msg=where)
            assert (bool(terminated[i]), bool(truncated[i])) == (r.terminated, r.truncated), where
        assert env.current_player[i] == r.current_player, where
        if isinstance(env, SelfPlayVectorEnv):
            assert info["current_player"][i] == r.current_player, where
    if env.autoreset_mode == AutoresetMode.SAME_STEP and rewards is not None:
        ended = np.array([r.final_obs is not None for r in refs])
        np.testing.assert_array_equal(info["_final_obs"], ended, err_msg=what)
        for i in np.flatnonzero(ended):
            np.testing.assert_array_equal(info["final_obs"][i], refs[i].final_obs, err_msg=f"{what}, env {i}")
    np.testing.assert_array_equal(env.episodes, [r.episode for r in refs], err_msg=what)


def _position(state):
    """A state's to_dict without its history (a vector env keeps none: game_state's is empty)."""
    d = state.to_dict()
    d.pop("history", None)
    return d


def _snapshot(out, env):
    obs, rewards, terminated, truncated, info = out
    snap = [obs.copy(), info["action_mask"].copy(), env.current_player.copy()]
    if rewards is not None:
        snap += [rewards.copy(), terminated.copy(), truncated.copy()]
    if "final_obs" in info:
        snap += [info["final_obs"][info["_final_obs"]].copy(), info["_final_obs"].copy()]
    return snap


def _same(a, b, what):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y, err_msg=what)


# the quick suite replays the two autoreset modes that reset; the full suite DISABLED too
@pytest.mark.parametrize("mode", [pytest.param(m, marks=pytest.mark.full if m is AutoresetMode.DISABLED else (),
                                               id=m.value) for m in MODES])
@pytest.mark.parametrize("self_play", [False, True], ids=["single", "selfplay"])
@pytest.mark.parametrize("name", list(GAMES))
def test_every_step_equals_the_games_replayed_one_at_a_time(name, self_play, mode):
    steps = 700 if self_play else 500  # self-play episodes take every seat's moves: longer
    envs = [_make(name, self_play, mode, threads=t) for t in (1, 2)]
    refs = _refs(name, envs[0])
    greedy = registry.get(name).policies.index("greedy")
    rng = np.random.default_rng(7)
    outs = [e.reset() + () for e in envs]
    for r in refs:
        r.reset()
    for e, (obs, info) in zip(envs, outs):
        _check(e, (obs, None, None, None, info), refs, "reset")
    resets = 0
    for t in range(steps):
        actions = _choose(rng, name, envs[0].action_mask, refs, greedy)
        outs = [e.step(actions.copy()) for e in envs]
        for r, a in zip(refs, actions):
            r.step(int(a))
        for e, out in zip(envs, outs):
            _check(e, out, refs, f"step {t} ({e.threads} thread(s))")
        _same(_snapshot(outs[0], envs[0]), _snapshot(outs[1], envs[1]), f"step {t}: 1 thread vs 2")
        if mode == AutoresetMode.DISABLED:
            ended = np.array([r.ended for r in refs])
            np.testing.assert_array_equal(outs[0][2] | outs[0][3], ended)  # ended exactly when a flag is set
            if ended.any():
                resets += 1
                for i in np.flatnonzero(ended):
                    refs[i].reset()
                for e, out in zip(envs, outs):
                    rewards = out[1].copy()
                    obs, info = e.reset(options={"reset_mask": ended})
                    # the step's flags are views of the buffers the reset writes: the reset rows' flags
                    # False, the other rows' as the step left them; its rewards are the caller's array
                    _check(e, (obs, None, None, None, info), refs, f"reset after step {t}")
                    for i, r in enumerate(refs):
                        assert (bool(out[2][i]), bool(out[3][i])) == (r.terminated, r.truncated), t
                    np.testing.assert_array_equal(out[1], rewards)
    ends = sum(r.terminations + r.truncations for r in refs)
    assert sum(r.terminations for r in refs) > 0 and sum(r.truncations for r in refs) > 0
    assert ends >= 6, ends
    assert sum(r.episode for r in refs) >= ends + 1  # new episodes were dealt after the ends
    for i, r in enumerate(refs):  # and the true states are the replayed ones
        assert _position(envs[1].game_state(i)) == _position(r.state), i
    if mode == AutoresetMode.DISABLED:
        assert resets > 0


# ------------------------------------------------------------ gymnasium conventions --

@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
@pytest.mark.parametrize("self_play", [False, True], ids=["single", "selfplay"])
def test_gymnasium_vector_env_attributes(self_play, mode):
    env = _make("shithead", self_play, mode, num_envs=6)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] is mode and env.autoreset_mode is mode
    assert env.num_envs == 6
    num_actions = env.single_action_space.n
    assert env.single_action_space == spaces.Discrete(num_actions)
    assert num_actions == _game("shithead").num_distinct_actions()
    assert env.action_space == spaces.MultiDiscrete([num_actions] * 6)
    assert env.action_space.shape == (6,)
    state = _game("shithead").new_initial_state(0)
    assert env.single_observation_space == spaces.Box(0, state.observation_high(),
                                                      (len(state.observation_tensor(0)),), np.float32)
    assert env.observation_space.shape == (6, len(state.observation_tensor(0)))
    obs, info = env.reset()
    assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
    assert info["action_mask"].shape == (6, num_actions) and info["action_mask"].dtype == np.bool_
    assert env.action_masks() is env.action_mask
    _, rewards, terminated, truncated, info = env.step(env.sample_actions())
    assert rewards.dtype == np.float32 and rewards.shape == ((6, 4) if self_play else (6,))
    assert terminated.dtype == truncated.dtype == np.bool_ and terminated.shape == truncated.shape == (6,)
    assert ("final_obs" in info) == ("_final_obs" in info) == (mode == AutoresetMode.SAME_STEP)
    assert ("current_player" in info) == self_play


def test_autoreset_mode_given_by_value():
    for mode in MODES:
        env = VectorEnv("shithead", 2, autoreset_mode=mode.value)
        assert env.metadata["autoreset_mode"] is mode
    with pytest.raises(ValueError, match="autoreset_mode"):
        VectorEnv("shithead", 2, autoreset_mode="every-step")


@pytest.mark.parametrize("self_play", [False, True], ids=["single", "selfplay"])
@pytest.mark.parametrize("name", list(GAMES))
def test_observations_are_in_the_observation_space(name, self_play):
    # no move cap here: Three Thirteen's running totals pass 255 (its Box high is observation_high())
    n, _, opponents = GAMES[name]
    if self_play:
        env = SelfPlayVectorEnv(name, 6, num_players=n, seed=3, autoreset_mode=AutoresetMode.SAME_STEP)
    else:
        env = VectorEnv(name, 6, num_players=n, seat=1, opponents="greedy", seed=3,
                        autoreset_mode=AutoresetMode.SAME_STEP)
    high = _module(name).Game(n).new_initial_state(0).observation_high()
    assert np.all(env.single_observation_space.high == high) and np.all(env.single_observation_space.low == 0)
    if name == "three_thirteen":
        assert high > 255
    obs, info = env.reset()
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(1)
    top = 0.0
    for _ in range(400 if name == "three_thirteen" else 150):
        obs, _, _, _, info = env.step(env.sample_actions(rng))
        assert env.observation_space.contains(obs)
        for i in range(env.num_envs):
            assert env.single_observation_space.contains(obs[i])
        for i in np.flatnonzero(info["_final_obs"]):
            assert env.single_observation_space.contains(info["final_obs"][i])
        top = max(top, float(obs.max()))
    if name == "three_thirteen" and not self_play:
        assert top > 255  # the random learner's total against greedy opponents: above a byte, in the Box


def test_sample_actions_are_legal_and_seeded():
    env = _make("shithead", False, num_envs=8)
    env.reset()
    for _ in range(50):
        a = env.sample_actions()
        assert a.dtype == np.int64 and a.shape == (8,)
        assert env.action_mask[np.arange(8), a].all()
        env.step(a)
    env.reset(seed=5)
    first = env.sample_actions(np.random.default_rng(3))
    assert np.array_equal(first, env.sample_actions(np.random.default_rng(3)))


def _run_until_an_end(env, rng, limit=3000):
    """Steps with random legal actions until some env's episode ends; returns that step's output."""
    for _ in range(limit):
        out = env.step(env.sample_actions(rng))
        if (out[2] | out[3]).any():
            return out
    raise AssertionError("no episode ended")


@pytest.mark.parametrize("self_play", [False, True], ids=["single", "selfplay"])
def test_next_step_ignores_the_action_after_an_end(self_play):
    # two envs with the same seed, stepped alike, except for the (ignored) actions of the ended envs
    a, b = (_make("shithead", self_play, AutoresetMode.NEXT_STEP, num_envs=8) for _ in range(2))
    a.reset()
    b.reset()
    rng = np.random.default_rng(4)
    for _ in range(3000):
        acts = a.sample_actions(rng)
        out_a = a.step(acts)
        out_b = b.step(acts)
        ended = out_a[2] | out_a[3]
        if ended.any():
            break
    else:
        raise AssertionError("no episode ended")
    assert np.array_equal(ended, out_b[2] | out_b[3])
    assert out_a[4]["action_mask"][ended].all() and (a.current_player[ended] == -1).all()
    episodes = a.episodes
    acts = a.sample_actions(rng)
    other = acts.copy()
    other[ended] = (acts[ended] + 1) % a.single_action_space.n  # any ids: ignored
    acts[ended] = -7  # not even an action id: ignored too
    obs, rewards, terminated, truncated, info = a.step(acts)
    obs_b, rewards_b, *_ = b.step(other)
    assert not terminated[ended].any() and not truncated[ended].any()
    assert (rewards[ended] == 0).all()
    np.testing.assert_array_equal(obs, obs_b)
    np.testing.assert_array_equal(rewards, rewards_b)
    np.testing.assert_array_equal(a.episodes, episodes + ended)
    # the ended envs hold the next episode's deal
    game = _game("shithead")
    for i in np.flatnonzero(ended):
        ref = Reference("shithead", game, 12345, i, None if self_play else 1, AutoresetMode.NEXT_STEP)
        ref.num_actions = a.single_action_space.n
        ref.episode = int(episodes[i])
        ref.reset()
        np.testing.assert_array_equal(obs[i], ref.obs)
        np.testing.assert_array_equal(info["action_mask"][i], ref.mask)
        assert a.game_state(i) == ref.state
        assert not info["action_mask"][i].all()


@pytest.mark.parametrize("self_play", [False, True], ids=["single", "selfplay"])
def test_same_step_final_obs_is_what_next_step_shows(self_play):
    nxt = _make("shithead", self_play, AutoresetMode.NEXT_STEP, num_envs=8)
    same = _make("shithead", self_play, AutoresetMode.SAME_STEP, num_envs=8)
    nxt.reset()
    same.reset()
    rng = np.random.default_rng(5)
    for _ in range(3000):
        acts = nxt.sample_actions(rng)
        o_n, r_n, te_n, tr_n, i_n = nxt.step(acts)
        o_s, r_s, te_s, tr_s, i_s = same.step(acts)
        np.testing.assert_array_equal(r_n, r_s)
        np.testing.assert_array_equal(te_n, te_s)
        np.testing.assert_array_equal(tr_n, tr_s)
        ended = te_n | tr_n
        np.testing.assert_array_equal(i_s["_final_obs"], ended)
        assert i_s["_final_obs"].dtype == np.bool_ and i_s["final_obs"].shape == o_s.shape
        np.testing.assert_array_equal(o_n[~ended], o_s[~ended])
        if ended.any():
            break
    else:
        raise AssertionError("no episode ended")
    np.testing.assert_array_equal(i_s["final_obs"][ended], o_n[ended])  # the last observation of the episode
    assert (same.current_player[ended] >= 0).all()  # already the new episode's
    assert not i_s["action_mask"][ended].all()
    o_n, *_ = nxt.step(nxt.sample_actions(rng))  # NEXT_STEP deals the new episode one step later
    np.testing.assert_array_equal(o_s[ended], o_n[ended])


def test_disabled_refuses_an_ended_env_until_it_is_reset():
    env = _make("shithead", False, AutoresetMode.DISABLED, num_envs=8)
    env.reset()
    rng = np.random.default_rng(6)
    obs, rewards, terminated, truncated, info = _run_until_an_end(env, rng)
    ended = terminated | truncated
    before = [obs.copy(), info["action_mask"].copy(), rewards.copy(), terminated.copy(), truncated.copy(),
              env.episodes, [env.game_state(i).to_dict() for i in range(8)]]
    assert info["action_mask"][ended].all() and (env.current_player[ended] == -1).all()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(env.sample_actions(rng))
    after = [obs, info["action_mask"], rewards, terminated, truncated, env.episodes,
             [env.game_state(i).to_dict() for i in range(8)]]
    for x, y in zip(before[:-1], after[:-1]):
        np.testing.assert_array_equal(x, y)
    assert before[-1] == after[-1]  # no env was stepped
    obs, info = env.reset(options={"reset_mask": ended})
    np.testing.assert_array_equal(env.episodes, before[5] + ended)
    assert not terminated[ended].any()  # the step's view, rewritten by the reset
    np.testing.assert_array_equal(rewards, before[2])  # the rewards are the caller's array, not a view
    assert (terminated | truncated).sum() == 0 and (env.current_player >= 0).all()
    env.step(env.sample_actions(rng))  # every env live again


def test_reset_with_a_seed_reproduces_the_run():
    def run(env, seed):
        obs, info = env.reset(seed=seed)
        got = [obs.copy(), info["action_mask"].copy()]
        rng = np.random.default_rng(8)
        for _ in range(300):
            obs, r, te, tr, info = env.step(env.sample_actions(rng))
            got += [obs.copy(), r.copy(), te.copy(), tr.copy(), info["action_mask"].copy()]
        return got

    env = _make("shithead", False, num_envs=6)
    first = run(env, 99)
    assert env.seed == 99 and (env.episodes >= 1).all()
    second = run(env, 99)  # every env starts over at episode 0
    _same(first, second, "reset(seed=99) twice")
    fresh = _make("shithead", False, num_envs=6, seed=99)
    _same(first, run(fresh, 99), "another env")
    fresh2 = _make("shithead", False, num_envs=6, seed=99)
    o, _ = fresh2.reset()  # the constructor's seed: the same episodes
    np.testing.assert_array_equal(o, first[0])
    other = run(env, 100)
    assert not np.array_equal(first[0], other[0])
    # episode 0 of env i is the engine's deal of episode_seed(seed, i, 0)
    env.reset(seed=99)
    for i in range(6):
        s = env.game_state(i)
        assert s == _game_with_policies_played(99, i)
    # reset() without a seed deals each env's next episode, not the first again
    o, _ = env.reset()
    np.testing.assert_array_equal(env.episodes, [2] * 6)
    assert not np.array_equal(o, first[0])


def _game_with_policies_played(seed, i, episode=0):
    ref = Reference("shithead", _game("shithead"), seed, i, 1, AutoresetMode.NEXT_STEP)
    ref.num_actions = 676
    ref.episode = episode
    ref.reset()
    return ref.state


def test_reset_mask_resets_only_the_chosen_envs():
    env = _make("shithead", False, num_envs=8)
    env.reset()
    rng = np.random.default_rng(9)
    for _ in range(20):
        obs, rewards, terminated, truncated, info = env.step(env.sample_actions(rng))
    before_obs, before_mask = obs.copy(), info["action_mask"].copy()
    before_states = [env.game_state(i).to_dict() for i in range(8)]
    episodes = env.episodes
    chosen = np.array([True, False, False, True, False, True, False, False])
    obs2, info2 = env.reset(options={"reset_mask": chosen})
    assert obs2 is obs or np.shares_memory(obs2, obs)
    np.testing.assert_array_equal(env.episodes, episodes + chosen)
    for i in range(8):
        if chosen[i]:
            state = env.game_state(i)
            assert state == _game_with_policies_played(12345, i, int(episodes[i]))
            np.testing.assert_array_equal(obs2[i], state.observation_tensor(1))
            assert state.to_dict() != before_states[i]
        else:
            np.testing.assert_array_equal(obs2[i], before_obs[i])
            np.testing.assert_array_equal(info2["action_mask"][i], before_mask[i])
            assert env.game_state(i).to_dict() == before_states[i]
    # a list of bools is a mask too
    env.reset(options={"reset_mask": [False] * 7 + [True]})
    np.testing.assert_array_equal(env.episodes, episodes + chosen + np.eye(8, dtype=int)[7])


@pytest.mark.parametrize("mask, error", [
    (np.ones(8, np.int64), TypeError),
    (np.ones(8, np.uint8), TypeError),
    (np.ones(8, np.float32), TypeError),
    (np.ones(7, np.bool_), ValueError),
    (np.ones(9, np.bool_), ValueError),
    (np.ones((2, 4), np.bool_), ValueError),
    (np.bool_(True), ValueError),
])
def test_a_wrong_reset_mask_is_refused(mask, error):
    env = _make("shithead", False, num_envs=8)
    obs, _ = env.reset()
    before, episodes = obs.copy(), env.episodes
    with pytest.raises(error, match="reset_mask"):
        env.reset(options={"reset_mask": mask})
    np.testing.assert_array_equal(obs, before)
    np.testing.assert_array_equal(env.episodes, episodes)


def test_reset_arguments_are_checked():
    env = _make("shithead", False, num_envs=4)
    env.reset()
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"mask": np.ones(4, bool)})
    with pytest.raises(ValueError, match="reset_mask"):
        env.reset(seed=1, options={"reset_mask": np.ones(4, bool)})
    with pytest.raises(ValueError, match="one per env"):  # a list of seeds has one per env (4)
        env.reset(seed=[1, 2, 3])
    with pytest.raises(RuntimeError, match="reset"):
        _make("shithead", False, num_envs=4).step(np.zeros(4, np.int64))


# ------------------------------------------------------------------ masks --

@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
@pytest.mark.parametrize("self_play", [False, True], ids=["single", "selfplay"])
@pytest.mark.parametrize("name", list(GAMES))
def test_no_mask_is_all_false(name, self_play, mode):
    env = _make(name, self_play, mode, num_envs=12, seed=77)
    obs, info = env.reset()
    assert info["action_mask"].any(axis=1).all()
    rng = np.random.default_rng(10)
    ends = 0
    for _ in range(600):
        obs, rewards, terminated, truncated, info = env.step(env.sample_actions(rng))
        mask = info["action_mask"]
        assert mask.any(axis=1).all()
        ended = terminated | truncated
        ends += int(ended.sum())
        if mode == AutoresetMode.SAME_STEP:
            assert (env.current_player >= 0).all()  # every env is live: its new episode's mask
        else:
            np.testing.assert_array_equal(mask[ended].all(axis=1), np.ones(int(ended.sum()), bool))
        if mode == AutoresetMode.DISABLED and ended.any():
            obs, info = env.reset(options={"reset_mask": ended})
            assert info["action_mask"].any(axis=1).all()
    assert ends > 0


# ----------------------------------------------------------------- errors --

def _illegal_id(mask_row):
    return int(np.flatnonzero(~mask_row)[0])


@pytest.mark.parametrize("self_play", [False, True], ids=["single", "selfplay"])
@pytest.mark.parametrize("name", list(GAMES))
def test_an_illegal_action_raises_and_changes_no_env(name, self_play):
    env = _make(name, self_play, num_envs=6)
    obs, info = env.reset()
    rng = np.random.default_rng(11)
    for _ in range(5):
        obs, rewards, terminated, truncated, info = env.step(env.sample_actions(rng))
    n = env.single_action_space.n
    good = env.sample_actions(rng)
    for bad_envs, values in [((1, 4), "unmasked"), ((0,), n), ((2, 3, 5), -1), ((5,), 2**32), ((3,), -2**32),
                             ((1,), 2**63 - 1)]:
        before = [obs.copy(), info["action_mask"].copy(), rewards.copy(), terminated.copy(), truncated.copy(),
                  env.current_player.copy(), env.episodes]
        states = [env.game_state(i).to_dict() for i in range(6)]
        acts = good.copy()
        for i in bad_envs:
            if values == "unmasked":
                acts[i] = _illegal_id(info["action_mask"][i])
            elif values in (2**32, -2**32):
                acts[i] = good[i] + values  # a legal id plus 2**32: must not wrap into the legal id
            else:
                acts[i] = values
        with pytest.raises(threes.IllegalActionError) as err:
            env.step(acts)
        assert isinstance(err.value, ValueError)
        assert tuple(err.value.envs) == bad_envs, values
        for x, y in zip(before, [obs, info["action_mask"], rewards, terminated, truncated, env.current_player,
                                 env.episodes]):
            np.testing.assert_array_equal(x, y)
        assert [env.game_state(i).to_dict() for i in range(6)] == states
    # an int32 array and other integer dtypes are fine; a huge uint64 is illegal, not wrapped
    env.step(good.astype(np.int32))
    good = env.sample_actions(rng)
    env.step(good.astype(np.uint32))
    good = env.sample_actions(rng)
    huge = good.astype(np.uint64)
    huge[2] += np.uint64(2**63)
    with pytest.raises(threes.IllegalActionError) as err:
        env.step(huge)
    assert tuple(err.value.envs) == (2,)
    env.step(good[::-1].copy()[::-1])  # a strided view of int64 ids
    good = env.sample_actions(rng)
    env.step(list(good))  # a list of ints


def test_penalize_ends_the_episode_with_the_penalty():
    for self_play in (False, True):
        for mode in MODES:
            env = _make("shithead", self_play, mode, num_envs=6, illegal_action="penalize", penalty=-0.5)
            assert env.illegal_action == "penalize" and env.penalty == -0.5
            refs = _refs("shithead", env, penalty=-0.5)
            obs, info = env.reset()
            for r in refs:
                r.reset()
            rng = np.random.default_rng(12)
            penalized = 0
            for t in range(60):
                acts = env.sample_actions(rng)
                bad1 = t % 7 == 3 and not refs[1].ended
                if t % 7 == 3:  # illegal ids in envs 1 and 4 (an unmasked one and one out of range)
                    if bad1:
                        acts[1] = _illegal_id(info["action_mask"][1])
                        penalized += 1
                    if not refs[4].ended:
                        acts[4] = 10**6
                        penalized += 1
                out = env.step(acts)
                info = out[4]
                for r, a in zip(refs, acts):
                    r.step(int(a))
                _check(env, out, refs, f"{mode.value}, self_play={self_play}, step {t}")
                if bad1:
                    assert out[2][1] and not out[3][1]
                    reward = out[1][1]
                    if self_play:
                        assert sorted(reward) == [-0.5, 0, 0, 0]
                    else:
                        assert reward == -0.5
                if mode == AutoresetMode.DISABLED:
                    ended = np.array([r.ended for r in refs])
                    if ended.any():
                        for i in np.flatnonzero(ended):
                            refs[i].reset()
                        obs, info = env.reset(options={"reset_mask": ended})
                        _check(env, (obs, None, None, None, info), refs, "reset")  # the step's rewards are its own
            assert penalized >= 8


@pytest.mark.parametrize("actions, error", [
    (np.zeros(6, np.float64), TypeError),
    (np.zeros(6, np.float32), TypeError),
    (np.zeros(6, np.bool_), TypeError),
    ([0.0] * 6, TypeError),
    (np.zeros(5, np.int64), ValueError),
    (np.zeros(7, np.int64), ValueError),
    (np.zeros((6, 1), np.int64), ValueError),
    (np.int64(0), ValueError),
])
def test_actions_of_another_dtype_or_shape_are_refused(actions, error):
    env = _make("shithead", False, num_envs=6)
    obs, _ = env.reset()
    before = obs.copy()
    with pytest.raises(error, match="actions"):
        env.step(actions)
    np.testing.assert_array_equal(obs, before)
    env.step(env.sample_actions())


@pytest.mark.parametrize("kwargs, error, match", [
    ({"opponents": "perfect"}, ValueError, "unknown policy"),
    ({"opponents": ["random", "greedy", "nobody"]}, ValueError, "unknown policy"),
    ({"opponents": ["random", "greedy"]}, ValueError, "one policy per other seat"),
    ({"opponents": 3}, TypeError, "opponents"),
    ({"seat": 4}, ValueError, "seat"),
    ({"seat": -1}, ValueError, "seat"),
    ({"seat": 1.0}, TypeError, "seat"),
    ({"num_envs": 0}, ValueError, "num_envs"),
    ({"num_envs": 2.0}, TypeError, "num_envs"),
    ({"threads": 1.0}, TypeError, "threads"),
    ({"illegal_action": "ignore"}, ValueError, "illegal_action"),
    ({"observation_dtype": np.float64}, ValueError, "observation_dtype"),
    ({"autoreset_mode": "sometimes"}, ValueError, "autoreset_mode"),
])
def test_bad_constructor_arguments(kwargs, error, match):
    args = {"num_envs": 4, "num_players": 4}
    args.update(kwargs)
    with pytest.raises(error, match=match):
        VectorEnv("shithead", **args)


@pytest.mark.parametrize("opponents", [threes.bots.RandomBot(),
                                       [threes.bots.RandomBot(), threes.bots.GreedyBot(), threes.bots.HeuristicBot()],
                                       ["random", threes.bots.GreedyBot(), "greedy"]],
                         ids=["one bot", "bots", "a bot among names"])
def test_bot_objects_as_opponents_are_a_type_error(opponents):
    # the vector env plays the game's C policies only, named by strings: any other object is of the wrong type
    with pytest.raises(TypeError, match="threes.gym"):
        VectorEnv("shithead", 4, num_players=4, opponents=opponents)


def test_a_game_object_and_its_options():
    game = threes.Game(3, max_moves=400)
    env = VectorEnv(game, 4, seat=2, opponents=["heuristic", "greedy"], seed=1)
    assert env.num_players == 3 and env.opponents == {0: "heuristic", 1: "greedy"}
    env.reset()
    assert env.game_state(0).max_game_length() == 400
    with pytest.raises(ValueError, match="game_options"):
        VectorEnv(game, 4, game_options={"max_moves": 10})
    with pytest.raises(ValueError, match="seats 3 players"):
        SelfPlayVectorEnv(game, 4, num_players=4)
    with pytest.raises(TypeError):
        VectorEnv(object(), 4)
    with pytest.raises(IndexError):
        env.game_state(4)


def test_uint8_observations_are_refused_for_three_thirteen():
    for cls, kw in ((VectorEnv, {"opponents": "greedy"}), (SelfPlayVectorEnv, {})):
        with pytest.raises(ValueError, match="uint8"):
            cls("three_thirteen", 4, num_players=2, observation_dtype=np.uint8, **kw)
        with pytest.raises(ValueError, match="uint8"):
            cls("three_thirteen", 4, num_players=2, observation_dtype="uint8", game_options={"max_moves": 50}, **kw)


@pytest.mark.parametrize("self_play", [False, True], ids=["single", "selfplay"])
def test_uint8_shithead_observations_equal_the_float_ones(self_play):
    f = _make("shithead", self_play, AutoresetMode.SAME_STEP, num_envs=8, seed=31)
    b = _make("shithead", self_play, AutoresetMode.SAME_STEP, num_envs=8, seed=31, observation_dtype=np.uint8)
    assert b.single_observation_space.dtype == np.uint8 and b.single_observation_space.high.max() == 255
    of, _ = f.reset()
    ob, _ = b.reset()
    assert ob.dtype == np.uint8
    np.testing.assert_array_equal(ob.astype(np.float32), of)
    rng = np.random.default_rng(13)
    ends = 0
    for _ in range(800):
        acts = f.sample_actions(rng)
        of, rf, tf, uf, inf_f = f.step(acts)
        ob, rb, tb, ub, inf_b = b.step(acts)
        assert ob.dtype == np.uint8 and b.observation_space.contains(ob)
        np.testing.assert_array_equal(ob.astype(np.float32), of)
        np.testing.assert_array_equal(rb, rf)
        np.testing.assert_array_equal(tb | ub, tf | uf)
        np.testing.assert_array_equal(inf_b["action_mask"], inf_f["action_mask"])
        ended = inf_f["_final_obs"]
        np.testing.assert_array_equal(inf_b["_final_obs"], ended)
        np.testing.assert_array_equal(inf_b["final_obs"][ended].astype(np.float32), inf_f["final_obs"][ended])
        ends += int(ended.sum())
    assert ends > 0
    assert of.max() > 1  # counts, not only flags, came through as bytes


def test_shithead_rules_with_a_repetition_limit_are_refused():
    rules = threes.Rules(repetition_limit=3)
    assert rules.repetition_limit == 3
    with pytest.raises(ValueError, match="repetition_limit"):
        VectorEnv("shithead", 4, num_players=4, game_options={"rules": rules})
    with pytest.raises(ValueError, match="repetition_limit"):
        SelfPlayVectorEnv(threes.Game(3, rules=threes.Rules.preset("classic", repetition_limit=2)), 4)
    with pytest.raises(ValueError, match="repetition_limit"):
        VectorEnv(threes.Game(4, rules=rules.replace(repetition_limit=255)), 4)
    # repetition_limit 0 (every preset) is accepted
    VectorEnv("shithead", 4, num_players=4, game_options={"rules": rules.replace(repetition_limit=0)}).reset()


# ---------------------------------------------------------------- buffers --

@pytest.mark.parametrize("self_play", [False, True], ids=["single", "selfplay"])
def test_returned_arrays_are_read_only_views_allocated_once(self_play):
    env = _make("shithead", self_play, AutoresetMode.SAME_STEP, num_envs=6)
    obs0, info0 = env.reset()
    rng = np.random.default_rng(14)
    first = env.step(env.sample_actions(rng))
    kept = first[0].copy()
    second = env.step(env.sample_actions(rng))
    assert not np.array_equal(kept, second[0])  # the step wrote new observations ...
    np.testing.assert_array_equal(first[0], second[0])  # ... into the same buffer
    assert np.shares_memory(obs0, second[0]) and np.shares_memory(first[0], second[0])
    for k in (2, 3):
        assert np.shares_memory(first[k], second[k])
    # the rewards: a new writable array each step (reward wrappers change them in place)
    assert not np.shares_memory(first[1], second[1]) and first[1].flags.writeable
    for key in ("action_mask", "final_obs", "_final_obs") + (("current_player",) if self_play else ()):
        assert np.shares_memory(first[4][key], second[4][key]), key
    assert np.shares_memory(info0["action_mask"], second[4]["action_mask"])
    assert np.shares_memory(env.action_mask, second[4]["action_mask"])
    obs, rewards, terminated, truncated, info = second
    arrays = {"obs": obs, "terminated": terminated, "truncated": truncated,
              "action_mask": info["action_mask"], "final_obs": info["final_obs"], "current_player": env.current_player}
    if self_play:
        arrays["info current_player"] = info["current_player"]
    for key, a in arrays.items():
        assert not a.flags.writeable, key
        with pytest.raises(ValueError):
            a[0] = 0
    # a state copy is a copy
    s = env.game_state(0)
    s.apply_action(s.legal_actions()[0])
    assert env.game_state(0) != s


def test_the_final_obs_flags_are_read_only_too():
    """The module docstring: every array reset and step return is a read-only
    view; info["_final_obs"] (SAME_STEP) is one of them."""
    env = _make("shithead", False, AutoresetMode.SAME_STEP, num_envs=4)
    env.reset()
    _, _, _, _, info = env.step(env.sample_actions())
    assert not info["_final_obs"].flags.writeable
    with pytest.raises(ValueError):
        info["_final_obs"][0] = True
