# Stub of the Cython module threes._vector (python/threes/_vector.pyx).
from typing import Any, Optional, Tuple

import numpy as np
from typing_extensions import disjoint_base

NEXT_STEP: int
SAME_STEP: int
DISABLED: int
BAD_LISTED: int

def episode_seed(seed: int, env: int, episode: int) -> int: ...

@disjoint_base
class VecCore:
    states: np.ndarray
    episode: np.ndarray
    moves: np.ndarray
    obs: np.ndarray
    final_obs: np.ndarray
    mask: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    ended: np.ndarray
    current_player: np.ndarray
    threads: int
    obs_size: int
    num_actions: int
    num_players: int
    observation_high: int
    learner: int
    game_name: str
    def __new__(cls, handle: Tuple[Any, bytes], num_envs: int, learner: int, autoreset: int, penalize: bool,
                 penalty: float, policies: Any, seed: int, threads: int, uint8_obs: bool) -> "VecCore": ...
    @property
    def seed(self) -> int: ...
    @property
    def nbytes_per_env(self) -> int: ...
    def reseed(self, seed: int) -> None: ...
    def reset(self, reset_mask: Optional[Any] = ...) -> None: ...
    def step(self, actions: Any) -> None: ...
