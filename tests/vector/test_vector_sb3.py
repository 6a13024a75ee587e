"""threes.sb3: stable-baselines3's VecEnv over threes.vector, trained with
sb3-contrib's MaskablePPO (their code, on our env). Needs torch and
sb3-contrib (the full test extra): a missing one fails, it does not skip."""
import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.vec_env import VecMonitor

import threes.sb3
from threes.vector import AutoresetMode, SelfPlayVectorEnv, VectorEnv

torch.set_num_threads(1)  # the machine's cores are shared


def _env(n=8, max_moves=200, **kw):
    return threes.sb3.VecEnv("shithead", n, num_players=2, opponents="random", seed=1,
                             game_options={"max_moves": max_moves}, **kw)


def test_maskable_ppo_learns_on_the_adapter_and_predicts_legal_actions():
    env = VecMonitor(_env(max_moves=60))  # short games: some end within the few steps learned
    assert is_masking_supported(env)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=1, seed=1,
                        policy_kwargs={"net_arch": [32]})
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512
    assert len(model.ep_info_buffer) > 0  # episodes ended, through SB3's own monitor
    assert all(-1.0 <= e["r"] <= 1.0 for e in model.ep_info_buffer)
    obs = env.reset()
    for _ in range(100):
        masks = get_action_masks(env)
        np.testing.assert_array_equal(masks, env.venv.action_masks())
        actions, _ = model.predict(obs, action_masks=masks)
        assert masks[np.arange(8), actions].all()
        obs, rewards, dones, infos = env.step(actions)


def test_sb3_step_conventions():
    env = _env(6)
    obs = env.reset()
    venv = env.venv
    assert venv.autoreset_mode == AutoresetMode.SAME_STEP and venv.illegal_action == "penalize"
    assert obs.shape == (6,) + env.observation_space.shape and not np.shares_memory(obs, venv._obs)
    rng = np.random.default_rng(1)
    ends = 0
    for _ in range(400):
        before = obs
        env.step_async(venv.sample_actions(rng))
        obs, rewards, dones, infos = env.step_wait()
        assert not np.shares_memory(obs, before)  # SB3 keeps the previous observations while it steps
        assert dones.dtype == np.bool_ and rewards.shape == (6,) and len(infos) == 6
        for i in range(6):
            if dones[i]:
                ends += 1
                assert "terminal_observation" in infos[i] and infos[i]["terminal_observation"].shape == obs[i].shape
                assert isinstance(infos[i]["TimeLimit.truncated"], bool)
                assert rewards[i] != 0 or infos[i]["TimeLimit.truncated"]
                np.testing.assert_array_equal(obs[i], venv._obs[i])  # the new episode's
            else:
                assert infos[i] == {} and rewards[i] == 0
    assert ends >= 3
    # illegal actions (an unmasked PPO) end the episode with the penalty
    env.reset()
    bad = np.where(venv.action_mask[0] == 0)[0][0]
    actions = venv.sample_actions(rng)
    actions[0] = bad
    env.step_async(actions.reshape(6, 1))  # (n, 1) as a policy may give them
    _, rewards, dones, _ = env.step_wait()
    assert dones[0] and rewards[0] == -1.0


def test_seed_reset_and_attributes():
    env = _env(4)
    env.seed(10)
    a = env.reset()
    assert env.venv.seed == (10, 11, 12, 13)
    env.seed(10)
    np.testing.assert_array_equal(env.reset(), a)
    assert env._seeds == [None] * 4  # used once, as SB3's own VecEnvs
    assert env.get_attr("seat") == [0, 0, 0, 0] and env.get_attr("num_players", indices=[1, 3]) == [2, 2]
    rows = env.env_method("action_masks", indices=[2])
    assert len(rows) == 1
    np.testing.assert_array_equal(rows[0], env.venv.action_mask[2])
    np.testing.assert_array_equal(env.get_attr("current_player", indices=1)[0], env.venv.current_player[1])
    assert env.has_attr("action_masks") and not env.has_attr("no_such_thing")
    env.set_attr("note", 3)
    assert env.get_attr("note") == [3] * 4
    with pytest.raises(ValueError, match="every env"):
        env.set_attr("note", 4, indices=[0])
    with pytest.raises(ValueError, match="out of range"):
        env.get_attr("seat", indices=[4])
    with pytest.raises(TypeError, match="indices"):
        env.get_attr("seat", indices=[1.0])
    assert env.env_is_wrapped(VecMonitor) == [False] * 4
    assert env.get_images() == [None] * 4
    with pytest.raises(RuntimeError, match="step_async"):
        env.step_wait()


def test_the_adapter_refuses_what_sb3_cannot_learn():
    with pytest.raises(TypeError, match="SelfPlayVectorEnv"):
        threes.sb3.VecEnv(SelfPlayVectorEnv("shithead", 4))
    with pytest.raises(ValueError, match="SAME_STEP"):
        threes.sb3.VecEnv(VectorEnv("shithead", 4))
    with pytest.raises(TypeError, match="autoreset_mode"):
        threes.sb3.VecEnv("shithead", 4, autoreset_mode="NextStep")
    with pytest.raises(TypeError, match="arguments"):
        threes.sb3.VecEnv(VectorEnv("shithead", 4, autoreset_mode="SameStep"), 4)
    given = VectorEnv("shithead", 4, autoreset_mode="SameStep", seed=2)
    assert threes.sb3.VecEnv(given).venv is given
