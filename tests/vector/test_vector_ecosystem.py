"""threes.vector with the ecosystems' own tools (issue 39): Gymnasium's vector
wrappers (their code, on our envs), reset(seed=[...]) and call/get_attr/
set_attr as Gymnasium's VectorEnv API has them, SeatRewards, and
gymnasium.make_vec through the registered vector_entry_point."""
import numpy as np
import pytest

import gymnasium
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers import vector as wrappers

import threes.gym
import threes.vector
from threes.vector import LIST_SEED, SeatRewards, SelfPlayVectorEnv, VectorEnv, episode_seed

N = 8


def _single(**kw):
    return VectorEnv("shithead", N, num_players=3, opponents="random", seed=1, **kw)


def _selfplay(**kw):
    return SelfPlayVectorEnv("shithead", N, num_players=3, seed=1, game_options={"max_moves": 400}, **kw)


def _run(env, base, steps, rng):
    out = []
    for _ in range(steps):
        out.append(env.step(base.sample_actions(rng)))
    return out


# ------------------------------------------------------------------ rewards --

@pytest.mark.parametrize("make", [_single, _selfplay], ids=["single", "selfplay"])
def test_rewards_are_a_new_writable_array_and_observations_stay_views(make):
    env = make()
    obs0, _ = env.reset()
    rng = np.random.default_rng(1)
    (obs1, r1, te1, _, _), (obs2, r2, te2, _, _) = _run(env, env, 2, rng)
    assert r1.flags.writeable and r1.flags.owndata and not np.shares_memory(r1, r2)
    r1[...] = 5.0  # the caller's array: the env's next rewards are not touched
    assert not (r2 == 5.0).any()
    assert np.shares_memory(obs0, obs2) and not obs2.flags.writeable  # zero-copy as before
    assert np.shares_memory(te1, te2) and not te2.flags.writeable


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
@pytest.mark.parametrize("make", [_single, _selfplay], ids=["single", "selfplay"])
def test_gymnasium_clip_reward_clips_the_envs_rewards(make, mode):
    env, ref = make(autoreset_mode=mode), make(autoreset_mode=mode)
    clipped = wrappers.ClipReward(env, min_reward=-0.25, max_reward=0.5)
    clipped.reset(seed=3)
    ref.reset(seed=3)
    rng, rng_ref = np.random.default_rng(2), np.random.default_rng(2)
    seen = 0
    for _ in range(1500):
        _, r, te, tr, _ = clipped.step(env.sample_actions(rng))
        _, want, *_ = ref.step(ref.sample_actions(rng_ref))
        np.testing.assert_array_equal(r, np.clip(want, -0.25, 0.5))
        seen += int((want < -0.25).sum() + (want > 0.5).sum())
        ended = te | tr  # (te and tr are views: the reset below rewrites them)
        if mode == AutoresetMode.DISABLED and ended.any():
            clipped.reset(options={"reset_mask": ended})
            ref.reset(options={"reset_mask": ended})
    assert seen > 0  # some rewards were outside the range and were clipped


def test_record_episode_statistics_counts_the_learners_episodes():
    env = _single(autoreset_mode=AutoresetMode.NEXT_STEP)
    stats = wrappers.RecordEpisodeStatistics(env)
    stats.reset(seed=5)
    rng = np.random.default_rng(3)
    returns, lengths = np.zeros(N), np.zeros(N, int)
    done_before = np.zeros(N, bool)
    episodes = []
    for _ in range(2000):
        _, r, te, tr, info = stats.step(env.sample_actions(rng))
        returns[~done_before] += r[~done_before]
        lengths[~done_before] += 1
        ended = te | tr
        if ended.any():
            assert "episode" in info
            np.testing.assert_array_equal(info["_episode"], ended)
            np.testing.assert_allclose(info["episode"]["r"][ended], returns[ended], rtol=1e-6)
            np.testing.assert_array_equal(info["episode"]["l"][ended], lengths[ended])
            episodes += list(returns[ended])
        returns[done_before], lengths[done_before] = 0.0, 0  # NEXT_STEP: the step after an end is a reset
        done_before = ended.copy()
    assert len(episodes) >= 5 and len(stats.return_queue) == min(len(episodes), stats.return_queue.maxlen)
    assert set(np.round(episodes, 6)) - {0.0}  # real returns, not zeros


@pytest.mark.parametrize("seat", [0, 2, "to_move"])
def test_seat_rewards_are_one_seats_rewards(seat):
    env, ref = _selfplay(), _selfplay()
    wrapped = SeatRewards(env, seat)
    assert wrapped.unwrapped is env and wrapped.num_envs == N
    wrapped.reset(seed=9)
    ref.reset(seed=9)
    rng, rng_ref = np.random.default_rng(4), np.random.default_rng(4)
    ends = 0
    for _ in range(1500):
        mover = ref.current_player.copy()
        np.testing.assert_array_equal(wrapped.current_player, mover)
        np.testing.assert_array_equal(wrapped.action_mask, ref.action_mask)
        _, r, te, tr, _ = wrapped.step(env.sample_actions(rng))
        _, full, *_ = ref.step(ref.sample_actions(rng_ref))
        assert r.shape == (N,) and r.dtype == np.float32 and r.flags.writeable
        if seat == "to_move":
            want = np.where(mover >= 0, full[np.arange(N), np.maximum(mover, 0)], 0.0)
        else:
            want = full[:, seat]
        np.testing.assert_array_equal(r, want)
        ends += int((te | tr).sum())
    assert ends >= 3


def test_seat_rewards_arguments_are_checked():
    with pytest.raises(TypeError, match="SelfPlayVectorEnv"):
        SeatRewards(_single(), 0)
    with pytest.raises(ValueError, match="0..2"):
        SeatRewards(_selfplay(), 3)
    with pytest.raises(ValueError, match="to_move"):
        SeatRewards(_selfplay(), "mover")
    with pytest.raises(TypeError, match="seat"):
        SeatRewards(_selfplay(), 1.0)


@pytest.mark.parametrize("seat", [1, "to_move"])
def test_record_episode_statistics_and_normalize_reward_over_seat_rewards(seat):
    env = _selfplay()
    with pytest.raises(ValueError):  # (num_envs, num_players) rewards: what SeatRewards is for
        w = wrappers.RecordEpisodeStatistics(_selfplay())
        w.reset(seed=1)
        w.step(np.zeros(N, np.int64) + w.unwrapped.sample_actions())
    stats = wrappers.RecordEpisodeStatistics(SeatRewards(env, seat))
    norm = wrappers.NormalizeReward(stats, gamma=0.9)
    norm.reset(seed=2)
    rng = np.random.default_rng(5)
    finals, scaled = [], []
    for _ in range(2500):
        _, r, te, tr, info = norm.step(env.sample_actions(rng))
        ended = te | tr
        if ended.any():
            finals += list(info["episode"]["r"][ended])
            scaled += list(r[ended])
    assert len(finals) >= 3
    assert all(-1.0 <= x <= 1.0 for x in finals)  # a seat's return of one episode
    assert any(x != 0 for x in finals)
    # NormalizeReward divides by a running std of the discounted returns: not the raw rewards
    assert not np.allclose(np.abs(scaled), np.abs(finals))
    assert norm.return_rms.count > 1


def test_normalize_observation_and_dict_info_to_list():
    env = _single()
    norm = wrappers.NormalizeObservation(env)
    obs, _ = norm.reset(seed=1)
    rng = np.random.default_rng(6)
    for _ in range(50):
        obs, *_ = norm.step(env.sample_actions(rng))
    assert obs.shape == (N, env.single_observation_space.shape[0]) and obs.dtype == np.float32
    assert norm.obs_rms.count > 50 and abs(float(np.mean(obs))) < 5
    as_list = wrappers.DictInfoToList(_selfplay(autoreset_mode=AutoresetMode.SAME_STEP))
    _, infos = as_list.reset(seed=1)
    base = as_list.unwrapped
    assert isinstance(infos, list) and len(infos) == N
    for i, info in enumerate(infos):
        np.testing.assert_array_equal(info["action_mask"], base.action_mask[i])
        assert info["current_player"] == base.current_player[i]
    rng = np.random.default_rng(7)
    for _ in range(400):
        _, _, te, tr, infos = as_list.step(base.sample_actions(rng))
        if (te | tr).any():
            i = int(np.flatnonzero(te | tr)[0])
            assert "final_obs" in infos[i]
            break
    else:
        raise AssertionError("no episode ended")


# ----------------------------------------------------------- seeds as a list --

def test_reset_with_a_list_of_seeds():
    env = _single()
    seeds = [11, 12, 13, 14, 15, 16, 17, 18]
    obs, _ = env.reset(seed=seeds)
    first = obs.copy()
    assert env.seed == tuple(seeds) and (env.episodes == 1).all()
    # the same list again: the same run
    rng = np.random.default_rng(1)
    run1 = [o.copy() for o, *_ in _run(env, env, 40, rng)]
    obs, _ = env.reset(seed=seeds)
    np.testing.assert_array_equal(obs, first)
    rng = np.random.default_rng(1)
    run2 = [o.copy() for o, *_ in _run(env, env, 40, rng)]
    for a, b in zip(run1, run2):
        np.testing.assert_array_equal(a, b)
    # env i depends only on (i, seeds[i]): change the others' seeds, envs 1..6 are dealt the same
    other = list(seeds)
    other[0], other[7] = 99, 100
    obs, _ = env.reset(seed=other)
    np.testing.assert_array_equal(obs[1:7], first[1:7])
    assert not np.array_equal(obs[0], first[0])
    # an int seed goes back to one seed for every env
    env.reset(seed=5)
    assert env.seed == 5 and (env.episodes == 1).all()


def test_a_list_seed_deals_the_documented_episodes():
    """Episode k of env i after reset(seed=[...]) is episode_seed(LIST_SEED, i, episode_seed(s_i, 0, 0) + k):
    in self-play no policy moves, so env i's state is the engine's deal."""
    env = SelfPlayVectorEnv("shithead", 4, num_players=3, seed=1, autoreset_mode=AutoresetMode.DISABLED)
    seeds = [3, 1, 4, 1]
    env.reset(seed=seeds)
    for i, s in enumerate(seeds):
        assert env.game_state(i) == env.game.new_initial_state(episode_seed(LIST_SEED, i, episode_seed(s, 0, 0)))
    env.reset(options={"reset_mask": np.array([False, True, False, False])})  # env 1's next episode
    assert env.game_state(1) == env.game.new_initial_state(episode_seed(LIST_SEED, 1, episode_seed(1, 0, 0) + 1))
    np.testing.assert_array_equal(env.episodes, [1, 2, 1, 1])
    # None: fresh entropy for that env
    env.reset(seed=[None, 1, None, 1])
    assert isinstance(env.seed[0], int) and env.seed[1] == 1


@pytest.mark.parametrize("seed, error, match", [
    ([1, 2, 3], ValueError, "one per env"),
    ([1, 2, 3, 4, 5, 6, 7, 8, 9], ValueError, "one per env"),
    ([1.5] * 8, TypeError, r"seed\[0\]"),
    ([True] * 8, TypeError, r"seed\[0\]"),
    (np.zeros((2, 4), np.int64), TypeError, "1-D"),
    (np.zeros(8, np.float64), TypeError, "1-D of ints"),
])
def test_a_wrong_list_of_seeds_is_refused(seed, error, match):
    env = _single()
    obs, _ = env.reset(seed=1)
    before = obs.copy()
    with pytest.raises(error, match=match):
        env.reset(seed=seed)
    np.testing.assert_array_equal(obs, before)
    assert env.seed == 1


def test_a_list_of_seeds_as_an_array_and_reseeding_with_ints():
    env = _single()
    a, _ = env.reset(seed=np.arange(N, dtype=np.int64))
    a = a.copy()
    b, _ = env.reset(seed=list(range(N)))
    np.testing.assert_array_equal(a, b)
    c, _ = env.reset(seed=0)  # not the list: one seed for every env
    assert not np.array_equal(a, c)


# ------------------------------------------------------- call, get_attr, set_attr --

@pytest.mark.parametrize("make", [_single, _selfplay], ids=["single", "selfplay"])
def test_call_get_attr_and_set_attr(make):
    env = make()
    env.reset(seed=1)
    masks = env.call("action_masks")
    assert isinstance(masks, tuple) and len(masks) == N
    for i, m in enumerate(masks):
        np.testing.assert_array_equal(m, env.action_mask[i])
    assert env.get_attr("num_players") == (3,) * N
    np.testing.assert_array_equal(env.get_attr("current_player"), env.current_player)
    assert env.call("sample_actions", np.random.default_rng(0))[0].shape == ()
    env.set_attr("note", "hello")
    assert env.get_attr("note") == ("hello",) * N and env.note == "hello"
    env.set_attr("note", ["x"] * N)
    assert env.note == "x"
    with pytest.raises(ValueError, match="equal"):
        env.set_attr("note", ["a", "b"] + ["a"] * (N - 2))
    with pytest.raises(ValueError, match=f"list of {N}"):
        env.set_attr("note", ["a"] * (N - 1))
    for fixed in ("num_envs", "seat", "opponents", "single_observation_space", "_core"):
        with pytest.raises(ValueError, match="cannot be set"):
            env.set_attr(fixed, 1)
    with pytest.raises(AttributeError):
        env.get_attr("no_such_attribute")
    with pytest.raises(TypeError, match="str"):
        env.call(3)


def test_gymnasium_wrappers_reach_the_env_api_through_unwrapped():
    env = wrappers.RecordEpisodeStatistics(_single())
    env.reset(seed=2)
    assert env.unwrapped.get_attr("seat") == (0,) * N


# ------------------------------------------------------------------ make_vec --

@pytest.mark.parametrize("mode", ["vector_entry_point", None])
def test_make_vec_reaches_the_c_env(mode):
    kw = {} if mode is None else {"vectorization_mode": mode}
    envs = gymnasium.make_vec(threes.gym.ENV_ID, num_envs=8, **kw)
    assert type(envs) is VectorEnv and envs.num_envs == 8
    assert envs.num_players == 4 and envs.seat == 0 and envs.opponents == {1: "greedy", 2: "greedy", 3: "greedy"}
    assert envs.illegal_action == "penalize"  # threes.gym's defaults
    assert envs.spec.id == threes.gym.ENV_ID and envs.spec.kwargs["vectorization_mode"] == "vector_entry_point"
    obs, info = envs.reset(seed=1)
    single = threes.gym.ThreesEnv()
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    obs, r, te, tr, info = envs.step(envs.sample_actions())
    assert obs.shape == (8,) + single.observation_space.shape


def test_make_vec_passes_the_single_envs_and_the_vector_envs_arguments():
    envs = gymnasium.make_vec(threes.gym.ENV_ID, num_envs=4, num_players=3, rules="classic", max_moves=300,
                              seat=2, opponents="random", seed=7, threads=2,
                              autoreset_mode=AutoresetMode.SAME_STEP)
    assert envs.game.num_players() == 3 and envs.game.rules.name == "classic"
    assert envs.game.max_game_length() == 300 and envs.seat == 2 and envs.threads == 2
    assert envs.seed == 7 and envs.autoreset_mode == AutoresetMode.SAME_STEP
    assert envs.opponents == {0: "random", 1: "random"}
    tt = gymnasium.make_vec(threes.gym.THREE_THIRTEEN_ENV_ID, num_envs=2, game_options={"jokers": 2})
    assert type(tt) is VectorEnv and tt.game_info.name == "three_thirteen" and tt.num_players == 3
    assert tt.game.options()["jokers"] == 2
    sync = gymnasium.make_vec(threes.gym.ENV_ID, num_envs=2, vectorization_mode="sync", opponents="ismcts:5")
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"opponents": "ismcts:5"}, ValueError, "vectorization_mode='sync'"),
    ({"render_mode": "ansi"}, ValueError, "does not render"),
    ({"frame_skip": 2}, TypeError, "frame_skip"),
])
def test_make_vec_refuses_what_the_c_env_cannot_do(kwargs, error, match):
    with pytest.raises(error, match=match):
        gymnasium.make_vec(threes.gym.ENV_ID, num_envs=2, **kwargs)
    with pytest.raises(ValueError, match="Shithead"):
        gymnasium.make_vec(threes.gym.THREE_THIRTEEN_ENV_ID, num_envs=2, rules="classic")
