"""Vectorized environments in C for reinforcement learning (needs ``gymnasium``).

``VectorEnv`` runs ``num_envs`` games of any registered game in C: one
learner seat per env against the game's built-in C policies, which move
inside C between the learner's steps. ``SelfPlayVectorEnv`` makes every seat
a learner: each step takes one action per env for whichever seat is to move
there (``current_player``), and rewards come as one value per seat, as in pgx
and EnvPool's card games. Both are ``gymnasium.vector.VectorEnv`` subclasses
(Gymnasium 1.x: ``single_observation_space``, ``single_action_space``,
``metadata["autoreset_mode"]``).

>>> import numpy as np, threes.vector
>>> envs = threes.vector.VectorEnv("shithead", num_envs=256, num_players=4, opponents="random", seed=1)
>>> obs, info = envs.reset()
>>> actions = envs.sample_actions()            # or a policy's choice where info["action_mask"] is True
>>> obs, rewards, terminated, truncated, info = envs.step(actions)

Buffers, not copies: every array ``reset`` and ``step`` return (observations,
flags, ``info["action_mask"]``) except the rewards is a read-only view of a
buffer that C writes in place, allocated once; the next step overwrites it
(copy what you keep, as ``torch.as_tensor(obs).clone()`` or ``obs.copy()``).
The rewards are a new writable array each step (``num_envs`` floats, as
Gymnasium's own vector envs return them), so that reward wrappers that change
them in place (``gymnasium.wrappers.vector.ClipReward``) work. Each step is
one C call with the GIL released, on ``threads`` native threads.

Observations: the engine's ``observation_tensor`` of the learner (self-play:
of the seat to move), float32, or uint8 with ``observation_dtype=np.uint8``
where the game's values fit a byte (Shithead; Three Thirteen's running totals
do not: a ValueError says so). The action mask (bool, one entry per action
id) marks the legal actions of the seat to act. It is never all False: where
an env's next action is ignored (its episode ended and NEXT_STEP resets it on
the next step) every entry is True, as in pgx, so that a masked softmax stays
finite.

Rewards: 0 until an episode ends, then the learner's return in [-1, 1]
(RULES.md section 7: places, and a stalemate or a game cut at the move cap
scored as the rules say, with ``truncated`` True instead of ``terminated``);
self-play: an array ``(num_envs, num_players)`` of every seat's return.

Autoreset (``autoreset_mode``, a ``gymnasium.vector.AutoresetMode`` or its
value): NEXT_STEP (the default) resets an ended env on its next step and
ignores that action (reward 0, both flags False); SAME_STEP resets it in the
step that ends it: the returned observation and mask are the new episode's,
``info["final_obs"]`` holds the last observation of the episodes that ended
(rows where ``info["_final_obs"]`` is True); DISABLED leaves ended envs
alone: ``reset(options={"reset_mask": mask})`` deals new episodes where
``mask`` is True, and stepping an ended env raises RuntimeError.

Illegal actions: with ``illegal_action="raise"`` (the default) a step with
any illegal action raises ``threes.IllegalActionError`` naming the env
indices (``err.envs``) and steps no env; with ``"penalize"`` (for unmasked
samplers) such an episode ends at once, terminated, with reward ``penalty``
for the seat that made it (default -1.0, the worst return). Actions must be
an integer array of shape ``(num_envs,)``: another dtype raises TypeError,
another shape ValueError.

Determinism: episode k of env i is dealt by ``Game.new_initial_state(
episode_seed(seed, i, k))`` and the C policies' draws depend only on (seed,
i, k) and the move number, so the results are the same for every thread
count and machine; ``reset(seed=s)`` starts every env over at episode 0 of
seed s. ``reset(seed=[s_0, ..., s_{n-1}])`` (Gymnasium's per-env seeds: one
int, or None for fresh entropy, per env) starts env i over with its own seed:
its episodes then depend only on (i, s_i), whatever the other envs' seeds
(episode k is dealt by ``episode_seed(LIST_SEED, i, episode_seed(s_i, 0, 0)
+ k)``), and ``seed`` is that list as a tuple. Shithead rules with
``repetition_limit`` > 0 need a log of positions the vector env does not keep
and are refused (ValueError).

Gymnasium's tools: the envs take Gymnasium's vector wrappers
(``gymnasium.wrappers.vector``: ``RecordEpisodeStatistics``,
``NormalizeReward``, ``ClipReward``, ``NormalizeObservation``,
``DictInfoToList`` ...) as their own envs do. Those that keep one return per
env need ``(num_envs,)`` rewards: wrap a ``SelfPlayVectorEnv`` in
``SeatRewards(env, seat)`` first (one seat's rewards, or with ``"to_move"``
the rewards of the seat each env's action was for). ``call``, ``get_attr``
and ``set_attr`` are Gymnasium's (``SyncVectorEnv``'s): one value per env;
the envs of one vector env share their settings, so ``set_attr`` takes one
value (or a list of equal ones) and refuses the settings the C core was made
with. ``gymnasium.make_vec("threes/Threes-v0", num_envs=8)`` (after ``import
threes.gym``) makes a ``VectorEnv`` (threes.gym's ``make_vector_env``), and
``threes.sb3`` adapts one to stable-baselines3 (sb3-contrib's MaskablePPO).

>>> import gymnasium
>>> selfplay = threes.vector.SelfPlayVectorEnv("shithead", 64, num_players=3, seed=1)
>>> envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(threes.vector.SeatRewards(selfplay, seat=0))
>>> envs = gymnasium.wrappers.vector.ClipReward(threes.vector.VectorEnv("shithead", 64), -0.5, 0.5)
>>> obs, info = envs.reset(seed=list(range(64)))   # per-env seeds
>>> envs.unwrapped.get_attr("seat")                # (0, 0, ..., 0): one per env
"""
from __future__ import annotations

import secrets
from typing import Any, Dict, List, Optional, Tuple

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from threes import registry
from threes import _vector
from threes.args import MAX_GAMES, int_arg, per_other_seat, seed64, threads_arg

__all__ = ["VectorEnv", "SelfPlayVectorEnv", "SeatRewards", "episode_seed", "AutoresetMode", "collect", "Samplers",
           "sampler_seed", "MAX_ENVS", "MAX_SAMPLERS", "LIST_SEED", "EnvIndexError"]

#: The most envs one vector env holds (each holds its state, observations and mask: a few KB).
MAX_ENVS = 2**20
_MAX_THREADS = 256  # TH_MAX_THREADS (common/batch.h), as threes.shithead._core.MAX_THREADS
#: The most samplers of one ``Samplers`` (each a vector env, a process on Ray).
MAX_SAMPLERS = 4096
#: The vector env's seed while it plays per-env seeds (``reset(seed=[...])``, module docstring).
LIST_SEED = 0x9E3779B97F4A7C15
#: Settings the C core is made with: ``set_attr`` refuses them (make a new env instead).
_FIXED_ATTRS = frozenset({
    "num_envs", "seat", "num_players", "game", "game_info", "threads", "autoreset_mode", "metadata", "render_mode",
    "illegal_action", "penalty", "opponents", "single_observation_space", "single_action_space",
    "observation_space", "action_space", "spec"})


class EnvIndexError(IndexError, ValueError):
    """An env index out of range (``game_state(env)``): an IndexError, as a sequence's, and a
    ValueError, as every out-of-range int argument of threes."""


def _gym_seed(seed: Any) -> int:
    """A seed for ``reset(seed=...)``: any int (numpy ints too, never a bool), taken modulo 2**64
    (threes.args.seed64); a non-negative Python int is passed to Gymnasium's own seeding as it is,
    a negative or numpy one (which Gymnasium refuses) as its value modulo 2**64."""
    v = seed64(seed)
    return seed if type(seed) is int and seed >= 0 else v

_MODES = {AutoresetMode.NEXT_STEP: _vector.NEXT_STEP, AutoresetMode.SAME_STEP: _vector.SAME_STEP,
          AutoresetMode.DISABLED: _vector.DISABLED}
_ILLEGAL = ("raise", "penalize")


def episode_seed(seed: int, env: int, episode: int) -> int:
    """The deal seed of episode ``episode`` (0, 1, ...) of env ``env`` of a
    vector env seeded with ``seed``: ``Game.new_initial_state(episode_seed(
    seed, env, episode))`` is that episode's deal."""
    return _vector.episode_seed(seed64(seed), int_arg(env, "env", 0, 2**63 - 1),
                                int_arg(episode, "episode", 0, 2**64 - 1))


def _equal(a: Any, b: Any) -> bool:
    if a is b:
        return True
    try:
        return bool(np.shape(a) == np.shape(b) and np.all(a == b))
    except Exception:  # incomparable values are not equal
        return False


def _readonly(a: np.ndarray) -> np.ndarray:
    view = a.view()
    view.flags.writeable = False
    return view


def _make_game(game: Any, num_players: Optional[int], game_options: Optional[Dict[str, Any]]) -> Any:
    if isinstance(game, str):
        cls = registry.get(game).load().Game
        opts = dict(game_options or {})
        return cls(**opts) if num_players is None else cls(num_players, **opts)
    if game_options:
        raise ValueError("game_options are for a game given by name; a Game object has its options")
    registry.game_of(game)  # a TypeError for an object of no registered game
    if num_players is not None and num_players != game.num_players():
        raise ValueError(f"the game seats {game.num_players()} players, not {num_players}")
    return game


class _Base(gymnasium.vector.VectorEnv):
    """What both vector envs share: the C core, the spaces, reset and step."""

    def __init__(self, game: Any, num_envs: int, num_players: Optional[int], learner: int, opponents: Any,
                 threads: int, seed: Optional[int], autoreset_mode: Any, observation_dtype: Any,
                 illegal_action: str, penalty: float, game_options: Optional[Dict[str, Any]]):
        num_envs = int_arg(num_envs, "num_envs", 1, MAX_ENVS)
        if threads is None:
            raise TypeError("threads must be an int, not NoneType")
        threads = threads_arg(threads, _MAX_THREADS)
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            raise ValueError(f"autoreset_mode must be one of {[m.value for m in AutoresetMode]}, "
                             f"not {autoreset_mode!r}") from None
        if illegal_action not in _ILLEGAL:
            raise ValueError(f"illegal_action must be 'raise' or 'penalize', not {illegal_action!r}")
        dtype = np.dtype(observation_dtype)
        if dtype not in (np.float32, np.uint8):
            raise ValueError(f"observation_dtype must be float32 or uint8, not {dtype}")
        self.game = _make_game(game, num_players, game_options)
        self.game_info = registry.game_of(self.game)
        self.num_players = self.game.num_players()
        policies = self._policies(learner, opponents)
        like = self.game.new_initial_state(0)
        if dtype == np.uint8 and like.observation_high() > 255:
            raise ValueError(f"{self.game_info.title} observations reach {like.observation_high()} with these "
                             "options, more than uint8 holds: use observation_dtype=np.float32")
        self._seed = seed64(seed)
        self._core = _vector.VecCore(like._vec_handle(), int(num_envs), learner, _MODES[mode],
                                     illegal_action == "penalize", float(penalty), policies, self._seed,
                                     int(threads), dtype == np.uint8)
        core = self._core
        self.num_envs = int(num_envs)
        self.threads = int(threads)
        self.autoreset_mode = mode
        self.metadata = {"autoreset_mode": mode}
        self.render_mode = None
        self.illegal_action = illegal_action
        self.penalty = float(penalty)
        high = like.observation_high()
        self.single_observation_space = spaces.Box(0, high, (core.obs_size,), dtype)
        self.single_action_space = spaces.Discrete(core.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        # read-only views of the C buffers, made once: what reset and step return
        self._obs, self._final_obs = _readonly(core.obs), _readonly(core.final_obs)
        self._mask, self._rewards = _readonly(core.mask), _readonly(core.rewards)
        self._terminated, self._truncated = _readonly(core.terminated), _readonly(core.truncated)
        self._current_player = _readonly(core.current_player)
        self._ended_now = np.zeros(self.num_envs, np.bool_)
        self._ended_now_view = _readonly(self._ended_now)
        self._sample_rng = np.random.default_rng(self._seed)
        self._seeds: Optional[Tuple[int, ...]] = None  # reset(seed=[...])'s per-env seeds
        self._episode_base: Optional[np.ndarray] = None  # and each env's first episode counter of them
        self._started = False

    def _policies(self, learner: int, opponents: Any) -> Tuple[int, ...]:
        names = self.game_info.policies
        n = self.num_players
        if learner < 0:
            return (0,) * n
        others = [q for q in range(n) if q != learner]
        try:
            specs = per_other_seat(opponents, others, "policy", lambda o: isinstance(o, str))
        except TypeError:
            raise TypeError("opponents must be a policy name of the game or a list of them (the vector env plays "
                            f"built-in C policies: {', '.join(names)}; threes.gym plays any bot), "
                            f"not {type(opponents).__name__}") from None
        ids = [0] * n
        for q, spec in zip(others, specs):
            if not isinstance(spec, str):
                raise TypeError("opponents: each must be a policy name of the game (the vector env plays built-in C "
                                f"policies: {', '.join(names)}; threes.gym plays any bot), not "
                                f"{type(spec).__name__}")
            if spec not in names:
                raise ValueError(f"unknown policy {spec!r} for {self.game_info.title}: one of {', '.join(names)} "
                                 "(threes.gym plays any bot)")
            ids[q] = names.index(spec)
        self.opponents = {q: spec for q, spec in zip(others, specs)}
        return tuple(ids)

    # ---------------------------------------------------------- attributes --
    @property
    def action_mask(self) -> np.ndarray:
        """The current masks, ``(num_envs, num_actions)`` bool (a read-only view)."""
        return self._mask

    def action_masks(self) -> np.ndarray:
        """The current masks (sb3-contrib's MaskablePPO asks for them by this name)."""
        return self._mask

    @property
    def current_player(self) -> np.ndarray:
        """The seat whose action each env takes next, -1 where none (its episode is over)."""
        return self._current_player

    @property
    def seed(self) -> Any:
        """The seed every env's episodes come from (episode_seed); after
        ``reset(seed=[...])`` the per-env seeds, a tuple of ints."""
        return self._core.seed if self._seeds is None else self._seeds

    @property
    def episodes(self) -> np.ndarray:
        """Episodes dealt in each env since the last reseed (a copy)."""
        if self._episode_base is None:
            return self._core.episode.copy()
        return self._core.episode - self._episode_base  # uint64: modulo 2**64, as the counters

    @property
    def nbytes_per_env(self) -> int:
        """Bytes of buffers each env holds: its C state (its bytes in use,
        ``State.nbytes``, rounded up to 8), observations (and final
        observations), mask and outputs."""
        return self._core.nbytes_per_env

    def game_state(self, env: int) -> Any:
        """A copy of env ``env``'s true game state, as the engine's State (all
        cards: for evaluation and tests, never for the learner). The vector
        env keeps no history of actions, so the copy has none (its
        ``to_dict()["history"]`` is empty)."""
        if isinstance(env, bool) or not isinstance(env, (int, np.integer)):
            raise TypeError(f"env must be an int, not {type(env).__name__}")
        if not 0 <= env < self.num_envs:
            shown = str(env) if -10**12 < env < 10**12 else ("a negative number" if env < 0 else "a larger number")
            raise EnvIndexError(f"env must be in 0..{self.num_envs - 1}, not {shown}")
        env = int(env)
        return type(self.game.new_initial_state(0))._from_bytes(bytes(self._core.states[env]))

    def sample_actions(self, rng: Optional[np.random.Generator] = None) -> np.ndarray:
        """A uniformly random legal action per env from the current masks (an
        int64 array), for baselines and smoke tests."""
        rng = self._sample_rng if rng is None else rng
        mask = self._mask
        counts = mask.sum(axis=1)
        pick = (rng.random(self.num_envs) * counts).astype(np.int64)
        cum = np.cumsum(mask, axis=1)
        return (cum <= pick[:, None]).sum(axis=1).astype(np.int64)

    # ----------------------------------------------------------- gymnasium --
    def _info(self) -> Dict[str, Any]:
        return {"action_mask": self._mask}

    def reset(self, *, seed: Optional[int] = None,
              options: Optional[dict] = None) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Deals a new episode in every env (with ``seed``: episode 0 of that
        seed in every env), or, with ``options={"reset_mask": mask}`` (a bool
        array of num_envs), only where ``mask`` is True."""
        mask = None
        if options:
            unknown = set(options) - {"reset_mask"}
            if unknown:
                raise ValueError(f"unknown reset options {sorted(unknown)}: only 'reset_mask'")
            mask = options.get("reset_mask")
        if seed is not None:
            if mask is not None:
                raise ValueError("a seed starts every env over: reset(seed=...) without a reset_mask")
            if isinstance(seed, (list, tuple, np.ndarray)):
                self._reseed_per_env(self._seed_list(seed))
            else:
                super().reset(seed=_gym_seed(seed))
                self._seed = seed64(seed)
                self._seeds = self._episode_base = None
                self._core.reseed(self._seed)
                self._sample_rng = np.random.default_rng(self._seed)
        self._core.reset(mask)
        self._started = True
        return self._obs, self._info()

    def _seed_list(self, seed: Any) -> List[int]:
        """reset(seed=[...]): one int (any, modulo 2**64) or None (fresh entropy) per env."""
        if isinstance(seed, np.ndarray):
            if seed.ndim != 1 or not (np.issubdtype(seed.dtype, np.integer) or seed.dtype == object):
                raise TypeError(f"seed as an array must be 1-D of ints, not {seed.ndim}-D of {seed.dtype}")
            seed = seed.tolist()
        if len(seed) != self.num_envs:
            raise ValueError(f"a list of seeds has one per env: {self.num_envs}, not {len(seed)}")
        out = []
        for i, s in enumerate(seed):
            if s is None:
                out.append(secrets.randbits(64))
                continue
            if isinstance(s, (bool, np.bool_)) or not isinstance(s, (int, np.integer)):
                raise TypeError(f"seed[{i}] must be an int or None, not {type(s).__name__}")
            out.append(seed64(s))
        return out

    def _reseed_per_env(self, seeds: List[int]) -> None:
        """Env i's episodes from (i, seeds[i]) only: episode k of env i is dealt by
        episode_seed(LIST_SEED, i, episode_seed(seeds[i], 0, 0) + k)."""
        base = np.array([_vector.episode_seed(s, 0, 0) for s in seeds], np.uint64)
        self._core.reseed(LIST_SEED)
        self._core.episode[:] = base
        self._episode_base = base
        self._seeds = tuple(seeds)
        self._seed = LIST_SEED
        self._np_random = self._sample_rng = np.random.default_rng(seeds)
        self._np_random_seed = -1  # Gymnasium's value for a generator not made from one int seed

    def step(self, actions: Any) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """One action per env (ignored where NEXT_STEP resets the env); returns
        ``(obs, rewards, terminated, truncated, info)``: views of the buffers,
        but for the rewards, a new writable array."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        self._core.step(actions)
        info = self._info()
        if self.autoreset_mode == AutoresetMode.SAME_STEP:
            np.logical_or(self._terminated, self._truncated, out=self._ended_now)
            info["final_obs"] = self._final_obs
            info["_final_obs"] = self._ended_now_view
        return self._obs, self._rewards.copy(), self._terminated, self._truncated, info

    # ---------------------------------------------- Gymnasium's VectorEnv API --
    def call(self, name: str, *args: Any, **kwargs: Any) -> Tuple[Any, ...]:
        """Gymnasium's ``VectorEnv.call``: the attribute ``name`` of the env, called with
        the arguments when it is a method, as one value per env. A numpy array whose first
        dimension is ``num_envs`` (``action_masks()``, ``current_player`` ...) gives each env
        its row, as SyncVectorEnv gives each env's own; anything else is shared by every env
        and repeated (a method is called once)."""
        if not isinstance(name, str):
            raise TypeError(f"name must be a str, not {type(name).__name__}")
        attr = getattr(self, name)  # an AttributeError for a missing name, as SyncVectorEnv's
        value = attr(*args, **kwargs) if callable(attr) else attr
        if isinstance(value, np.ndarray) and value.ndim >= 1 and value.shape[0] == self.num_envs:
            return tuple(value[i] for i in range(self.num_envs))
        return (value,) * self.num_envs

    def get_attr(self, name: str) -> Tuple[Any, ...]:
        """Gymnasium's ``VectorEnv.get_attr``: ``call(name)`` (one value per env)."""
        return self.call(name)

    def set_attr(self, name: str, values: Any) -> None:
        """Gymnasium's ``VectorEnv.set_attr``: one value for every env, or a list or tuple of
        ``num_envs`` values, which must be equal (the envs share their attributes). The
        settings the C core was made with (``seat``, ``num_envs``, ``opponents``, the spaces
        ...) are refused (ValueError): make a new env."""
        if not isinstance(name, str):
            raise TypeError(f"name must be a str, not {type(name).__name__}")
        if name in _FIXED_ATTRS or name.startswith("_"):
            raise ValueError(f"{name!r} cannot be set: the vector env was made with it (make a new one)")
        if isinstance(values, (list, tuple)):
            if len(values) != self.num_envs:
                raise ValueError(f"values must be one value or a list of {self.num_envs} (one per env), "
                                 f"not {len(values)}")
            if not all(_equal(v, values[0]) for v in values[1:]):
                raise ValueError(f"the envs of one threes vector env share {name!r}: the values must be equal")
            values = values[0]
        setattr(self, name, values)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release beyond the buffers (freed with the env)."""

    def __repr__(self) -> str:
        return (f"{type(self).__name__}({self.game_info.name!r}, num_envs={self.num_envs}, "
                f"num_players={self.num_players}, threads={self.threads}, "
                f"autoreset_mode={self.autoreset_mode.value!r})")


class VectorEnv(_Base):
    """``num_envs`` games with one learner at ``seat`` against C policies.

    game: a registered name (then ``Game(num_players, **game_options)`` of
    that game; the game's default seats when num_players is None) or a Game;
    opponents: a C policy of the game (``"random"``, ``"greedy"``, ...) for
    every other seat, or a list of them in seat order skipping the learner;
    threads: native threads stepping the envs (results do not depend on it);
    seed: None draws one. See the module docstring for everything else.
    """

    def __init__(self, game: Any = "shithead", num_envs: int = 8, *, num_players: Optional[int] = None,
                 seat: int = 0, opponents: Any = "random", threads: int = 1, seed: Optional[int] = None,
                 autoreset_mode: Any = AutoresetMode.NEXT_STEP, observation_dtype: Any = np.float32,
                 illegal_action: str = "raise", penalty: float = -1.0,
                 game_options: Optional[Dict[str, Any]] = None):
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)):
            raise TypeError(f"seat must be an int, not {type(seat).__name__}")
        g = _make_game(game, num_players, game_options)
        if not 0 <= seat < g.num_players():
            raise ValueError(f"seat must be in 0..{g.num_players() - 1}, not {seat}")
        self.seat = int(seat)
        super().__init__(g, num_envs, None, self.seat, opponents, threads, seed, autoreset_mode,
                         observation_dtype, illegal_action, penalty, None)


class SelfPlayVectorEnv(_Base):
    """``num_envs`` games where every seat is a learner: each step takes one
    action per env for the seat to move there (``info["current_player"]``);
    rewards are ``(num_envs, num_players)``. Arguments as VectorEnv's."""

    def __init__(self, game: Any = "shithead", num_envs: int = 8, *, num_players: Optional[int] = None,
                 threads: int = 1, seed: Optional[int] = None, autoreset_mode: Any = AutoresetMode.NEXT_STEP,
                 observation_dtype: Any = np.float32, illegal_action: str = "raise", penalty: float = -1.0,
                 game_options: Optional[Dict[str, Any]] = None):
        self.opponents = {}
        super().__init__(game, num_envs, num_players, -1, None, threads, seed, autoreset_mode,
                         observation_dtype, illegal_action, penalty, game_options)

    def _info(self) -> Dict[str, Any]:
        return {"action_mask": self._mask, "current_player": self._current_player}


class SeatRewards(gymnasium.vector.VectorWrapper):
    """A ``SelfPlayVectorEnv`` (or a wrapper of one) with ``(num_envs,)`` rewards, the
    shape Gymnasium's per-env reward wrappers (``RecordEpisodeStatistics``,
    ``NormalizeReward``) need: ``seat`` an int gives that seat's rewards; ``seat="to_move"``
    gives each env the rewards of the seat its action was for (the ``current_player`` before
    the step; 0 where the action was ignored), what one policy that plays every seat learns
    from. Observations, flags and info are the env's; the rewards are a new writable array.

    >>> env = SeatRewards(SelfPlayVectorEnv("shithead", 64, num_players=3, seed=1), "to_move")
    >>> env = gymnasium.wrappers.vector.NormalizeReward(env)
    """

    def __init__(self, env: Any, seat: Any):
        super().__init__(env)
        base = env.unwrapped
        if not isinstance(base, SelfPlayVectorEnv):
            raise TypeError("SeatRewards is for a SelfPlayVectorEnv (a VectorEnv's rewards are its learner's "
                            f"already), not {type(base).__name__}")
        if isinstance(seat, str):
            if seat != "to_move":
                raise ValueError(f"seat must be a seat number or 'to_move', not {seat!r}")
        elif isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)):
            raise TypeError(f"seat must be an int or 'to_move', not {type(seat).__name__}")
        elif not 0 <= seat < base.num_players:
            raise ValueError(f"seat must be in 0..{base.num_players - 1} or 'to_move', not {seat}")
        else:
            seat = int(seat)
        self.seat = seat
        self._base = base
        self._rows = np.arange(base.num_envs)

    @property
    def action_mask(self) -> np.ndarray:
        """The env's current masks (``SelfPlayVectorEnv.action_mask``)."""
        return self._base.action_mask

    def action_masks(self) -> np.ndarray:
        """The env's current masks (sb3-contrib's name)."""
        return self._base.action_mask

    @property
    def current_player(self) -> np.ndarray:
        """The seat to move in each env (``SelfPlayVectorEnv.current_player``)."""
        return self._base.current_player

    def step(self, actions: Any) -> Tuple[Any, np.ndarray, Any, Any, Dict[str, Any]]:
        """The env's step, with the rewards of ``seat``."""
        if self.seat == "to_move":
            mover = self._base.current_player.copy()  # the seat each action is for, -1 where it is ignored
            obs, rewards, terminated, truncated, info = self.env.step(actions)
            r = rewards[self._rows, np.maximum(mover, 0)]
            r[mover < 0] = 0.0
        else:
            obs, rewards, terminated, truncated, info = self.env.step(actions)
            r = rewards[:, self.seat].copy()
        return obs, r, terminated, truncated, info


# ------------------------------------------------------------- sampling --
def collect(envs: "_Base", steps: int, policy: Optional[Any] = None) -> Dict[str, np.ndarray]:
    """Steps ``envs`` ``steps`` times (a ``reset()`` first if it was never
    reset) and returns the batch as new arrays, time first: ``obs`` and
    ``action_mask`` (steps, num_envs, ...) that each action was chosen from,
    ``actions``, ``rewards`` (self-play: (steps, num_envs, num_players)),
    ``terminated``, ``truncated``, and for self-play ``current_player``.
    ``policy(obs, action_mask) -> actions`` chooses (None: uniformly random
    legal actions from the env's own generator, seeded by its seed). The
    env keeps its episodes: the next call goes on from where this one ended."""
    steps = int_arg(steps, "steps", 1, MAX_GAMES)
    if policy is not None and not callable(policy):
        raise TypeError(f"policy must be callable as policy(obs, action_mask), not {type(policy).__name__}")
    if not envs._started:
        envs.reset()
    n = envs.num_envs
    obs_space = envs.single_observation_space
    selfplay = isinstance(envs, SelfPlayVectorEnv)
    out: Dict[str, np.ndarray] = {
        "obs": np.empty((steps, n) + obs_space.shape, obs_space.dtype),
        "action_mask": np.empty((steps,) + envs._mask.shape, bool),
        "actions": np.empty((steps, n), np.int64),
        "rewards": np.empty((steps,) + envs._rewards.shape, envs._rewards.dtype),
        "terminated": np.empty((steps, n), bool),
        "truncated": np.empty((steps, n), bool),
    }
    if selfplay:
        out["current_player"] = np.empty((steps, n), envs._current_player.dtype)
    for t in range(steps):
        out["obs"][t] = envs._obs
        out["action_mask"][t] = envs._mask
        if selfplay:
            out["current_player"][t] = envs._current_player
        actions = envs.sample_actions() if policy is None else np.asarray(policy(envs._obs, envs._mask), np.int64)
        out["actions"][t] = actions
        _, rewards, terminated, truncated, _ = envs.step(actions)
        out["rewards"][t] = rewards
        out["terminated"][t] = terminated
        out["truncated"][t] = truncated
    return out


def sampler_seed(seed: int, sampler: int) -> int:
    """The seed of sampler ``sampler`` of ``Samplers(..., seed=seed)``."""
    return _vector.episode_seed(seed64(seed), int_arg(sampler, "sampler", 0, 2**63 - 1), 0xA5A5)


def _make_env(selfplay: bool, kwargs: Dict[str, Any], seed: int) -> "_Base":
    return (SelfPlayVectorEnv if selfplay else VectorEnv)(**kwargs, seed=seed)


class Samplers:
    """``num_samplers`` vector envs that collect batches for a learner, one
    per process on a Ray cluster (``backend="ray"``: a Ray actor per sampler,
    each returning numpy batches) or all in this process (``"local"``, the
    reference). Sampler i is ``VectorEnv(**env_kwargs, seed=sampler_seed(
    seed, i))`` (``SelfPlayVectorEnv`` with ``selfplay=True``), so both
    backends give the same batches.

    >>> samplers = threes.vector.Samplers(4, seed=1, num_envs=64, opponents="greedy")
    >>> batches = samplers.sample(128)          # one collect() batch per sampler
    >>> samplers.set_policy(my_numpy_policy)    # pickled to every sampler
    >>> samplers.close()

    ``policy``: as in ``collect`` (picklable for Ray); ``address``: as in
    threes.cluster.connect; ``num_cpus``: the CPUs each actor reserves."""

    def __init__(self, num_samplers: int, *, seed: Optional[int] = None, selfplay: bool = False,
                 policy: Optional[Any] = None, backend: str = "local", address: Optional[str] = None,
                 num_cpus: float = 1, **env_kwargs: Any):
        num_samplers = int_arg(num_samplers, "num_samplers", 1, MAX_SAMPLERS)
        if backend not in ("local", "ray"):
            raise ValueError(f"backend must be 'local' or 'ray', not {backend!r}")
        if "seed" in env_kwargs:
            raise TypeError("seed is the samplers' seed")
        if policy is not None and not callable(policy):
            raise TypeError(f"policy must be callable as policy(obs, action_mask), not {type(policy).__name__}")
        self.seed = seed64(secrets.randbits(64) if seed is None else seed)
        self.backend = backend
        seeds = [sampler_seed(self.seed, i) for i in range(int(num_samplers))]
        _make_env(selfplay, env_kwargs, seeds[0]).close()  # the arguments checked here, not in an actor
        if backend == "local":
            self._local = [_Sampler(selfplay, env_kwargs, s, policy) for s in seeds]
        else:
            from threes import cluster

            ray = cluster.connect(address)
            cpus = cluster.cluster_cpus(ray)
            if num_samplers * num_cpus > cpus:
                raise ValueError(f"{num_samplers} samplers of {num_cpus} CPU(s) each need {num_samplers * num_cpus} "
                                 f"CPUs, the Ray cluster has {cpus}: fewer samplers or a smaller num_cpus")
            actor = ray.remote(num_cpus=num_cpus, max_restarts=0)(_Sampler)
            self._ray = ray
            self._actors = [actor.remote(selfplay, env_kwargs, s, policy) for s in seeds]

    @property
    def num_samplers(self) -> int:
        """The number of samplers (vector envs or Ray actors), 0 after ``close()``: ``sample`` returns one batch
        per sampler."""
        return len(self._local if self.backend == "local" else self._actors)

    def sample(self, steps: int) -> List[Dict[str, np.ndarray]]:
        """One ``collect(env, steps, policy)`` batch per sampler, in sampler
        order (on Ray the samplers step at once)."""
        if self.backend == "local":
            return [s.sample(steps) for s in self._local]
        from threes import cluster

        refs = [a.sample.remote(steps) for a in self._actors]
        return cluster.wait_all(self._ray, refs)

    def set_policy(self, policy: Optional[Any]) -> None:
        """The policy every sampler uses from its next batch on."""
        if policy is not None and not callable(policy):
            raise TypeError(f"policy must be callable as policy(obs, action_mask), not {type(policy).__name__}")
        if self.backend == "local":
            for s in self._local:
                s.set_policy(policy)
        else:
            from threes import cluster

            ref = self._ray.put(policy)
            cluster.wait_all(self._ray, [a.set_policy.remote(ref) for a in self._actors])

    def close(self) -> None:
        """Ends the actors (Ray) or the envs."""
        if self.backend == "local":
            self._local = []
        else:
            for a in self._actors:
                self._ray.kill(a)
            self._actors = []

    def __enter__(self) -> "Samplers":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class _Sampler:
    """One sampler: a vector env and its policy (a Ray actor's class)."""

    def __init__(self, selfplay: bool, env_kwargs: Dict[str, Any], seed: int, policy: Optional[Any]):
        self.envs = _make_env(selfplay, env_kwargs, seed)
        self.policy = policy

    def sample(self, steps: int) -> Dict[str, np.ndarray]:
        return collect(self.envs, steps, self.policy)

    def set_policy(self, policy: Optional[Any]) -> None:
        self.policy = policy
