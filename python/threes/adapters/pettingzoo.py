"""PettingZoo AEC environments over the threes engine (needs ``pettingzoo``),
for every registered game (threes.registry): ``env(...)`` is Shithead,
``env(game=threes.three_thirteen.Game(3))`` or ``env(3, game="three_thirteen")``
any registered game (``GameAEC``, one class for every game: it only uses the
game contract: observation_tensor, legal_actions, returns ...).

Every seat is an agent, ``player_0`` .. ``player_{N-1}``; the agent to move
is the engine's ``current_player()`` (a seat that went out is never selected
again, as in the game). Each agent observes only its own information:

    observe(agent) == {"observation": state.observation_tensor(seat),   # float32
                       "action_mask": int8 mask of legal ids}            # zeros unless it is to move

Rewards are 0 until the game ends, then every agent gets its engine return
(``state.returns()``, in [-1, 1]). A finished game sets ``terminations`` for
all agents; a game stopped at the move cap, or ended as a stalemate by
repetition (Shithead rules with ``repetition_limit``, RULES.md section 7),
sets ``truncations`` instead, and every agent's info says why:
``infos[agent]["truncation_reason"]`` is ``"move_cap"`` or ``"stalemate"``
(threes.places.end_reason). Dead agents then step ``None`` and leave, the
AEC convention (``_was_dead_step``).

Illegal actions raise ``threes.IllegalActionError`` (a ValueError) and leave
the game unchanged. ``reset(seed=s)`` deals ``Game.new_initial_state(s)``
exactly and seeds the env's generator with ``s``; ``reset()`` deals a seed
drawn from that generator (fresh entropy when never seeded), so a seeded run
is reproducible end to end.

>>> from threes.pettingzoo import env
>>> e = env(num_players=3)
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, termination, truncation, info = e.last()
...     action = None if termination or truncation else int(obs["action_mask"].nonzero()[0][0])
...     e.step(action)

Parallel API: ``parallel_env(...)`` (same arguments as ``env``) is the same
game as a PettingZoo ``ParallelEnv`` (``GameParallel``, written natively: the
order of turns is the game's, not a cycle, so ``aec_to_parallel`` does not
apply). The game is turn-based: each ``step(actions)`` applies the action of
the one agent to move (``infos[agent]["to_move"]`` is True for it, and its
``action_mask`` is the only one not all zeros); the other agents' entries are
ignored (any value, or left out). Observations, rewards, terminations and
truncations are for every live agent, as in the AEC env; when the game ends
every agent gets its return and ``agents`` empties.

Global state (both APIs): ``state()`` is privileged state for a centralized
critic (MAPPO and the like), never for an agent's policy: every seat's
``observation_tensor``, seat 0 first (``state_layout(game)`` names the
blocks), so it holds everything any player knows, each seat's private cards
included, for every registered game alike; cards no player has seen (a
face-down card, the stock) are in no player's information and not in it.
``state_space`` is its Box.

>>> from threes.pettingzoo import parallel_env
>>> p = parallel_env(num_players=3)
>>> observations, infos = p.reset(seed=1)
>>> while p.agents:
...     mover = next(a for a in p.agents if infos[a]["to_move"])
...     actions = {mover: int(observations[mover]["action_mask"].nonzero()[0][0])}
...     observations, rewards, terminations, truncations, infos = p.step(actions)
...     critic_input = p.state()
"""
from __future__ import annotations

import random
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
from gymnasium import logger, spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from threes import registry
from threes.ui.text import render_mode_output
from threes.errors import IllegalActionError
from threes.places import end_reason
from threes.args import seed64 as _seed64

from threes.registry import AnyState as State

__all__ = ["GameAEC", "ThreesAEC", "GameParallel", "env", "raw_env", "parallel_env", "observation_high",
           "state_layout"]

def observation_high(game: Any) -> float:
    """The high bound of a game's observation tensor entries:
    ``State.observation_high()`` (Shithead 255, counts of at most 216 cards;
    Three Thirteen the highest running total its options allow)."""
    registry.game_of(game)  # a TypeError for an object of no registered game
    return float(game.new_initial_state(0).observation_high())


def state_layout(game: Any) -> Dict[str, Tuple[int, int]]:
    """The blocks of ``state()`` for ``game``: name -> (offset, size): ``obs_<seat>``, each
    seat's observation tensor."""
    registry.game_of(game)  # a TypeError for an object of no registered game
    size = game.observation_tensor_shape()[0]
    return {f"obs_{q}": (q * size, size) for q in range(game.num_players())}


class _GameEnvBase:
    """What the AEC and the parallel env share: the game, its agents and spaces, the true state,
    ``state()`` and ``state_space``."""

    metadata: Dict[str, Any]

    def _init_env(self, game: Any, render_mode: Optional[str], name: Optional[str]) -> None:
        """Checks ``render_mode``, finds the game in the registry (a TypeError for an object of no
        registered game) and builds the agents and spaces; ``name``: the metadata name (None:
        "<registry name>_v0")."""
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        info = registry.game_of(game)
        self.metadata = dict(self.metadata, name=name or f"{info.name}_v0")
        self.game = game
        self.render_mode = render_mode
        self.possible_agents: List[str] = [f"player_{i}" for i in range(game.num_players())]
        self._seat: Dict[str, int] = {a: i for i, a in enumerate(self.possible_agents)}
        self._num_actions = game.num_distinct_actions()
        obs_size = game.observation_tensor_shape()[0]
        high = observation_high(game)
        # One space object per agent, built once: api_test and seeding need the same object back.
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0, high, (obs_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self._num_actions,), np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self._num_actions) for a in self.possible_agents}
        self._rng = random.Random()  # fresh entropy until reset(seed=...) seeds it
        self._state: Optional[State] = None
        self.deal_seed: Optional[int] = None
        self._init_global_state()

    def observation_space(self, agent: str) -> spaces.Space:
        """The agent's observation space (the same object on every call, as PettingZoo asks)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The agent's action space: ``Discrete(num_distinct_actions)``."""
        return self.action_spaces[agent]

    @property
    def game_state(self) -> State:
        """The true engine state (all cards): never hand it to an agent."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def _init_global_state(self) -> None:
        self._layout = state_layout(self.game)
        self._state_size = sum(size for _, size in self._layout.values())
        self._obs_size = self.game.observation_tensor_shape()[0]
        high = observation_high(self.game)
        self.state_space = spaces.Box(0, high, (self._state_size,), np.float32)

    def state(self) -> np.ndarray:
        """Privileged global state for a centralized critic (module docstring): every seat's
        observation tensor (``state_layout``), float32. It shows every player's private cards:
        never hand it to an agent's policy."""
        st = self._state
        if st is None:
            raise RuntimeError("call reset() first")
        out = np.zeros(self._state_size, np.float32)
        n, size = self.game.num_players(), self._obs_size
        for q in range(n):
            st.observation_tensor(q, out=out[q * size:(q + 1) * size])
        return out


def _make_game(num_players: int, rules: Any, max_moves: Optional[int], game: Any,
               game_options: Optional[Dict[str, Any]] = None) -> Any:
    """The Game an environment plays: ``game`` (a Game of a registered game,
    or a registered name: that game's Game(num_players, max_moves=..., **game_options)),
    else the Shithead Game(num_players, rules, max_moves)."""
    if game is None:
        if game_options:
            raise ValueError("game_options are for a game given by name (game=...); Shithead takes rules=")
        return registry.default().load().Game(num_players, rules, max_moves)
    if isinstance(game, str):
        info = registry.get(game)
        if rules != "threes":
            raise ValueError(f"rules= is for Shithead; {info.title} takes game_options= (its OPTIONS)")
        return info.load().Game(num_players, max_moves=max_moves, **(game_options or {}))
    if game_options:
        raise ValueError("game_options are for a game given by name; a Game object has its options")
    registry.game_of(game)  # a TypeError for an object of no registered game
    return game


def env(num_players: int = 4, rules: Any = "threes", max_moves: Optional[int] = None,
        render_mode: Optional[str] = None, game: Any = None, game_options: Optional[Dict[str, Any]] = None) -> AECEnv:
    """The AEC environment, wrapped in PettingZoo's OrderEnforcingWrapper
    (which refuses step/observe before reset). ``game``: another registered
    game (a Game object, or a name with num_players, max_moves and
    ``game_options``, the keyword options it declares) instead of Shithead
    with ``rules``.

    >>> e = env(num_players=2, rules="classic")
    >>> e.reset(seed=7)
    >>> e.agent_selection
    'player_0'
    """
    return wrappers.OrderEnforcingWrapper(raw_env(num_players, rules, max_moves, render_mode, game, game_options))


def raw_env(num_players: int = 4, rules: Any = "threes", max_moves: Optional[int] = None,
            render_mode: Optional[str] = None, game: Any = None,
            game_options: Optional[Dict[str, Any]] = None) -> "GameAEC":
    """The unwrapped environment (ThreesAEC for Shithead, else GameAEC)."""
    if game is None and not game_options:
        return ThreesAEC(num_players, rules, max_moves, render_mode)
    return GameAEC(_make_game(num_players, rules, max_moves, game, game_options), render_mode)


def _action_id(action: Any, num_actions: int, agent: str) -> int:
    """An action as a plain int, or IllegalActionError (a ValueError)."""
    if isinstance(action, np.ndarray) and action.shape in ((), (1,)) and np.issubdtype(action.dtype, np.integer):
        action = int(action.reshape(()))
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise IllegalActionError(f"{agent}: an action is an int id in 0..{num_actions - 1}, "
                                 f"not {action!r} ({type(action).__name__})")
    a = int(action)
    if not 0 <= a < num_actions:
        raise IllegalActionError(f"{agent}: action {a} is out of range: ids are 0..{num_actions - 1}")
    return a


class GameAEC(_GameEnvBase, AECEnv):
    """A registered game (threes.registry) as a PettingZoo AEC environment.

    game: a Game of any registered game (e.g. ``threes.three_thirteen.Game(3)``);
    render_mode: None, ``"ansi"`` (render() returns the table as text) or
    ``"human"`` (prints it). ``game_state`` is the true engine state (every
    card: for evaluation and debugging, not for agents). The metadata name is
    ``"<registry name>_v0"`` (``threes_v0`` for Shithead, as before).

    >>> from threes import three_thirteen
    >>> e = GameAEC(three_thirteen.Game(3))
    >>> e.reset(seed=3)
    >>> obs, *_ = e.last()
    >>> e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    """

    metadata: Dict[str, Any] = {"name": "threes_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}
    _env_name: Optional[str] = None  # the metadata name; None: "<registry name>_v0"

    def __init__(self, game: Any, render_mode: Optional[str] = None):
        super().__init__()
        self._init_env(game, render_mode, self._env_name)

    # ------------------------------------------------------------ AEC API --
    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        """Deals a new game: with ``seed`` when given (and seeds the env's
        generator with it), else with a seed drawn from the generator."""
        if seed is not None:
            self._rng = random.Random(_seed64(seed))
            deal = _seed64(seed)
        else:
            deal = self._rng.getrandbits(64)
        self.deal_seed = deal
        self._state = self.game.new_initial_state(deal)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self._state.current_player()]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        seat = self._seat[agent]
        state = self.game_state
        mask = np.zeros(self._num_actions, dtype=np.int8)
        if state.current_player() == seat and agent == self.agent_selection:
            state.legal_actions_mask(out=mask)
        return {"observation": state.observation_tensor(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Applies the action of ``agent_selection``. A dead agent must step
        ``None``; anything else that is not a legal id raises
        IllegalActionError (a ValueError), leaving the game unchanged."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.game_state
        if action is None:
            raise IllegalActionError(f"{agent} is to move: None is only the action of a terminated or "
                                     "truncated agent")
        a = _action_id(action, self._num_actions, agent)
        if not state.is_legal(a):
            legal = state.legal_actions()
            raise IllegalActionError(
                f"{agent}: action {a} ({state.action_to_string(a)}) is not legal now; legal ids: {legal[:20]}"
                + (" ..." if len(legal) > 20 else "") + " (see observe(agent)['action_mask'])")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        state.apply_action(a)
        if state.is_terminal():
            returns = state.returns()
            truncated = state.is_truncated()
            for ag in self.agents:
                self.rewards[ag] = float(returns[self._seat[ag]])
                self.terminations[ag] = not truncated
                self.truncations[ag] = truncated
                if truncated:
                    self.infos[ag]["truncation_reason"] = end_reason(state)  # "move_cap" or "stalemate"
            # agent_selection stays on the mover, now dead: the dead agents step None in turn.
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            logger.warn("You are calling render method without specifying any render mode.")
            return None
        return render_mode_output(self.render_mode, self.game_state)

    def close(self) -> None:
        pass


class ThreesAEC(GameAEC):
    """A game of the Shithead family as a PettingZoo AEC environment.

    num_players, rules, max_moves: as ``threes.Game``; render_mode: None,
    ``"ansi"`` or ``"human"``; the rest is GameAEC's (metadata name ``threes_v0``).

    >>> e = ThreesAEC(num_players=4)
    >>> e.reset(seed=3)
    >>> obs, *_ = e.last()
    >>> e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    """

    def __init__(self, num_players: int = 4, rules: Any = "threes", max_moves: Optional[int] = None,
                 render_mode: Optional[str] = None):
        super().__init__(registry.default().load().Game(num_players, rules, max_moves), render_mode)

    _env_name = "threes_v0"


def parallel_env(num_players: int = 4, rules: Any = "threes", max_moves: Optional[int] = None,
                 render_mode: Optional[str] = None, game: Any = None,
                 game_options: Optional[Dict[str, Any]] = None) -> "GameParallel":
    """The parallel environment (``GameParallel``), with ``env``'s arguments: Shithead with
    ``rules``, or another registered ``game``.

    >>> p = parallel_env(num_players=2, rules="classic")
    >>> observations, infos = p.reset(seed=7)
    >>> [a for a in p.agents if infos[a]["to_move"]]
    ['player_0']
    """
    return GameParallel(_make_game(num_players, rules, max_moves, game, game_options), render_mode)


class GameParallel(_GameEnvBase, ParallelEnv):
    """A registered game as a PettingZoo ``ParallelEnv`` (module docstring): every seat is an
    agent; each step applies the action of the agent to move (``infos[agent]["to_move"]``)
    and ignores the others'. Observations, spaces, rewards and ``game_state`` are GameAEC's;
    ``state()`` is the privileged global state. Illegal actions raise
    ``threes.IllegalActionError`` (a ValueError) and leave the game unchanged; so does a
    step without the mover's action.

    >>> from threes import three_thirteen
    >>> p = GameParallel(three_thirteen.Game(3))
    >>> observations, infos = p.reset(seed=3)
    """

    metadata: Dict[str, Any] = {"name": "threes_v0", "render_modes": ["ansi", "human"]}

    def __init__(self, game: Any, render_mode: Optional[str] = None):
        self._init_env(game, render_mode, "threes_v0" if registry.game_of(game) is registry.default() else None)
        self.agents: List[str] = []

    def _observations(self) -> Dict[str, Dict[str, np.ndarray]]:
        state = self.game_state
        mover = state.current_player()
        out = {}
        for agent in self.agents:
            seat = self._seat[agent]
            mask = np.zeros(self._num_actions, dtype=np.int8)
            if seat == mover:
                state.legal_actions_mask(out=mask)
            out[agent] = {"observation": state.observation_tensor(seat), "action_mask": mask}
        return out

    def _infos(self) -> Dict[str, Dict[str, Any]]:
        mover = self.game_state.current_player()
        return {a: {"to_move": self._seat[a] == mover} for a in self.agents}

    def reset(self, seed: Optional[int] = None,
              options: Optional[dict] = None) -> Tuple[Dict[str, Any], Dict[str, Dict[str, Any]]]:
        """Deals a new game, as GameAEC.reset; returns every agent's observation and info."""
        if seed is not None:
            self._rng = random.Random(_seed64(seed))
            deal = _seed64(seed)
        else:
            deal = self._rng.getrandbits(64)
        self.deal_seed = deal
        self._state = self.game.new_initial_state(deal)
        self.agents = self.possible_agents[:]
        if self.render_mode == "human":
            self.render()
        return self._observations(), self._infos()

    def step(self, actions: Dict[str, Any]) -> Tuple[Dict[str, Any], Dict[str, float], Dict[str, bool],
                                                     Dict[str, bool], Dict[str, Dict[str, Any]]]:
        """Applies the action of the agent to move (``actions[agent]``; the other entries are
        ignored) and returns ``(observations, rewards, terminations, truncations, infos)``
        for the agents that were live."""
        if not isinstance(actions, dict):
            raise TypeError(f"actions must be a dict of agent -> action, not {type(actions).__name__}")
        if not self.agents:
            raise RuntimeError("the game is over (or was never started): call reset()")
        state = self.game_state
        agent = self.possible_agents[state.current_player()]
        if actions.get(agent) is None:
            raise IllegalActionError(f"{agent} is to move: actions must hold its action "
                                     f"(infos[agent]['to_move'])")
        a = _action_id(actions[agent], self._num_actions, agent)
        if not state.is_legal(a):
            legal = state.legal_actions()
            raise IllegalActionError(
                f"{agent}: action {a} ({state.action_to_string(a)}) is not legal now; legal ids: {legal[:20]}"
                + (" ..." if len(legal) > 20 else "") + " (see observations[agent]['action_mask'])")
        state.apply_action(a)
        live = self.agents
        rewards = {ag: 0.0 for ag in live}
        terminations = {ag: False for ag in live}
        truncations = {ag: False for ag in live}
        observations = self._observations()
        infos = self._infos()
        if state.is_terminal():
            returns = state.returns()
            truncated = state.is_truncated()
            reason = end_reason(state) if truncated else None
            for ag in live:
                rewards[ag] = float(returns[self._seat[ag]])
                terminations[ag] = not truncated
                truncations[ag] = truncated
                if truncated:
                    infos[ag]["truncation_reason"] = reason  # "move_cap" or "stalemate"
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            logger.warn("You are calling render method without specifying any render mode.")
            return None
        return render_mode_output(self.render_mode, self.game_state)

    def close(self) -> None:
        pass
