"""stable-baselines3 over the C vector envs (needs ``stable-baselines3``; masks for
sb3-contrib's ``MaskablePPO``).

``VecEnv(env)`` is a stable-baselines3 ``VecEnv`` over a ``threes.vector.VectorEnv``
(one learner seat per env against the game's C policies), or over one it makes
from the arguments of ``threes.vector.VectorEnv`` (``VecEnv("shithead", 64,
num_players=3, opponents="greedy", seed=1)``). It follows stable-baselines3's
conventions where they differ from Gymnasium's:

- ``reset()`` returns the observations only (their infos in ``reset_infos``);
  ``seed(s)`` seeds the next reset as stable-baselines3 does, env i with
  ``s + i`` (``VectorEnv.reset(seed=[...])``).
- An ended env resets in the step that ends it (the vector env runs in
  ``AutoresetMode.SAME_STEP``): the returned observation is the new episode's,
  ``infos[i]["terminal_observation"]`` the last one, ``dones`` is
  ``terminated | truncated`` and ``infos[i]["TimeLimit.truncated"]`` tells a game
  cut at the move cap (or a stalemate) from a finished one.
- Observations, rewards and dones are new arrays each step (stable-baselines3
  keeps the previous observations while it steps, so views of the vector env's
  buffers would be overwritten under it); this costs a copy of the
  observations per step, which the vector env itself never makes.
- ``action_masks()`` (sb3-contrib's name) gives the legal actions,
  ``(num_envs, num_actions)`` bool, and ``env_method("action_masks")`` one row
  per env, which is what ``MaskablePPO`` asks for. ``get_attr`` and ``set_attr``
  are the vector env's (``VectorEnv.set_attr``: the envs share their settings,
  so ``indices`` must name every env for a set), and ``env_is_wrapped`` is False.

Illegal actions: ``illegal_action="penalize"`` is the default here (as
threes.gym's, what an unmasked ``PPO`` needs): an illegal action ends that
episode with reward ``penalty``; with a masked ``MaskablePPO`` none is played.

>>> from sb3_contrib import MaskablePPO
>>> import threes.sb3
>>> env = threes.sb3.VecEnv("shithead", 16, num_players=2, opponents="random", seed=1)
>>> model = MaskablePPO("MlpPolicy", env, n_steps=64, seed=1).learn(2048)
>>> obs = env.reset()
>>> actions, _ = model.predict(obs, action_masks=env.action_masks())
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv as _SB3VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn

from threes import vector

__all__ = ["VecEnv"]


class VecEnv(_SB3VecEnv):
    """A stable-baselines3 ``VecEnv`` over a ``threes.vector.VectorEnv`` (module docstring).

    env: a ``threes.vector.VectorEnv`` made with ``autoreset_mode=SAME_STEP``, or a
    registered game's name (or a Game) and the arguments of ``threes.vector.VectorEnv``,
    which this makes with SAME_STEP and, unless told otherwise,
    ``illegal_action="penalize"``. A ``SelfPlayVectorEnv`` is refused (TypeError):
    stable-baselines3 learns one seat's rewards.
    """

    def __init__(self, env: Any = "shithead", num_envs: Optional[int] = None, **env_kwargs: Any):
        if isinstance(env, vector.SelfPlayVectorEnv):
            raise TypeError("stable-baselines3 learns one seat's rewards: a threes.vector.VectorEnv, "
                            "not a SelfPlayVectorEnv")
        if isinstance(env, vector.VectorEnv):
            if num_envs is not None or env_kwargs:
                raise TypeError("num_envs and the vector env's arguments are for an env made here, "
                                "not for a VectorEnv given")
            if env.autoreset_mode != vector.AutoresetMode.SAME_STEP:
                raise ValueError("stable-baselines3 resets an ended env in the step that ends it: make the "
                                 "VectorEnv with autoreset_mode=AutoresetMode.SAME_STEP (or let threes.sb3 make it)")
        else:
            if "autoreset_mode" in env_kwargs:
                raise TypeError("autoreset_mode is SAME_STEP, stable-baselines3's convention")
            env_kwargs.setdefault("illegal_action", "penalize")
            env = vector.VectorEnv(env, 8 if num_envs is None else num_envs,
                                   autoreset_mode=vector.AutoresetMode.SAME_STEP, **env_kwargs)
        self.venv = env
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)
        self._actions: Optional[np.ndarray] = None

    # ------------------------------------------------------------ stepping --
    def reset(self) -> np.ndarray:
        """Deals a new episode in every env (with the seeds ``seed()`` set, if any) and returns a copy
        of the observations."""
        seeds = self._seeds
        seed = None if all(s is None for s in seeds) else list(seeds)
        obs, _ = self.venv.reset(seed=seed)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        """Keeps the actions for ``step_wait`` (a step of every env is one C call)."""
        self._actions = actions

    def step_wait(self) -> VecEnvStepReturn:
        """Steps every env: ``(obs, rewards, dones, infos)`` as stable-baselines3 has them."""
        if self._actions is None:
            raise RuntimeError("step_async(actions) first")
        actions, self._actions = np.asarray(self._actions), None
        if actions.ndim == 2 and actions.shape[1] == 1:  # a policy's (num_envs, 1) Discrete actions
            actions = actions[:, 0]
        obs, rewards, terminated, truncated, info = self.venv.step(actions.astype(np.int64, copy=False))
        dones = terminated | truncated
        infos: List[Dict[str, Any]] = [{} for _ in range(self.num_envs)]
        final = info["final_obs"]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = final[i].copy()
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return obs.copy(), rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of every env, ``(num_envs, num_actions)`` bool (a copy)."""
        return self.venv.action_mask.copy()

    def close(self) -> None:
        """Closes the vector env."""
        self.venv.close()

    # ----------------------------------------------------------- attributes --
    def _indices(self, indices: VecEnvIndices) -> List[int]:
        if indices is not None and not isinstance(indices, (int, np.integer)):
            try:
                indices = list(indices)
            except TypeError:
                raise TypeError(f"indices must be None, an int or a sequence of ints, "
                                f"not {type(indices).__name__}") from None
            for i in indices:
                if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
                    raise TypeError(f"indices must be ints, not {type(i).__name__}")
        out = [int(i) for i in self._get_indices(indices)]
        for i in out:
            if not 0 <= i < self.num_envs:
                raise ValueError(f"env index {i} out of range 0..{self.num_envs - 1}")
        return out

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> List[Any]:
        """The vector env's ``get_attr`` (one value per env: an array of one row per env gives each
        env its row), for the envs ``indices`` names; ``action_masks`` is this adapter's."""
        values = self._per_env(attr_name, ())
        return [values[i] for i in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """The vector env's ``set_attr``: the envs share their attributes, so ``indices`` must name
        every env (ValueError otherwise)."""
        if sorted(set(self._indices(indices))) != list(range(self.num_envs)):
            raise ValueError("the envs of a threes vector env share their attributes: set one for every env "
                             "(indices=None)")
        self.venv.set_attr(attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> List[Any]:
        """The vector env's ``call`` (one result per env), for the envs ``indices`` names;
        ``env_method("action_masks")`` gives each env's mask row."""
        values = self._per_env(method_name, method_args, **method_kwargs)
        return [values[i] for i in self._indices(indices)]

    def _per_env(self, name: str, args: Sequence[Any], **kwargs: Any) -> Sequence[Any]:
        if name == "action_masks":
            return list(self.action_masks())
        return self.venv.call(name, *args, **kwargs)

    def env_is_wrapped(self, wrapper_class: Any, indices: VecEnvIndices = None) -> List[bool]:
        """False for every env: the vector env's envs are C games, never Gymnasium-wrapped."""
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[Optional[np.ndarray]]:
        """The vector env does not render: None per env."""
        return [None] * self.num_envs
