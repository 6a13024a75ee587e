"""Gymnasium single-agent environment: one learner against bots (needs ``gymnasium``).

The learner sits at seat ``seat``; the other seats are played by bots
(``threes.bots.make_bot`` specs or bot objects). Like every runner in this
package, a bot is handed ``state.resample_from_infostate(p, seed)`` (hidden
cards dealt again at random), never the true state, except the engine's own
C policies, which decide from the player's information only
(``threes.bots.bot_view``).

Observation: the learner's ``state.observation_tensor(seat)`` (float32);
``info["action_mask"]`` (int8) marks the legal action ids; at the end of an
episode it marks every id (the next action a Gymnasium vector env passes is
ignored: it resets), so it is never all zero. Reward: 0 until the
game ends, then the learner's return in [-1, 1]. ``terminated`` when the game
is over, ``truncated`` when it did not finish normally: it reached the move
cap (``max_moves``), or ended as a stalemate by repetition (Shithead rules
with ``repetition_limit``, RULES.md section 7; scored like the cap). Then
``info["truncation_reason"]`` says which: ``"move_cap"`` or ``"stalemate"``
(threes.places.end_reason); it is absent otherwise.

Illegal actions (documented choice): with ``illegal_action="penalize"`` (the
default, what an unmasked RL agent and ``check_env`` need) an id in the action
space that is not legal now ends the episode at once, ``terminated=True``,
reward -1.0 (the worst return) and ``info["illegal_action"] = True``; with
``illegal_action="raise"`` it raises ``threes.IllegalActionError`` (a
ValueError) and the game is unchanged. An action outside the action space
always raises IllegalActionError.

Seeding: ``reset(seed=s)`` seeds ``self.np_random`` (``super().reset``) and
deals ``Game.new_initial_state(s)`` exactly; ``reset()`` deals a seed drawn
from ``np_random``. The bots' seeds and resampling seeds come from
``np_random`` too, so a seed fixes the whole episode.

Any registered game (threes.registry) can be played: ``GameEnv`` is one
class over the game contract (``ThreesEnv`` is GameEnv with a Shithead
Game). Importing this module registers ``threes/Threes-v0`` (Shithead) and
``threes/ThreeThirteen-v0`` (GameEnv with ``game="three_thirteen"``,
default 3 players; Three Thirteen options go in ``game_options``):

>>> env = gymnasium.make("threes/ThreeThirteen-v0", num_players=2, game_options={"jokers": 2})

Vector envs: both ids have a ``vector_entry_point`` (``make_vector_env``), so
``gymnasium.make_vec(ENV_ID, num_envs=8)`` (Gymnasium's default mode when an
id has one, or ``vectorization_mode="vector_entry_point"``) makes a
``threes.vector.VectorEnv``: the same game, seat and opponents in C, many
times faster than ``vectorization_mode="sync"`` (a SyncVectorEnv of this
module's env, which plays any bot, where the C env plays only the game's C
policies: ``"random"``, ``"greedy"``, ``"heuristic"`` ...). It takes the
single env's arguments (the same defaults: ``opponents="greedy"``,
``illegal_action="penalize"``) and the vector env's own (``threads``,
``seed``, ``autoreset_mode``, ``observation_dtype``, ``penalty``); its
``info["action_mask"]`` is bool (this env's is int8):

>>> envs = gymnasium.make_vec("threes/Threes-v0", num_envs=8, num_players=3, opponents="random", seed=1)

>>> import gymnasium, threes.gym
>>> env = gymnasium.make("threes/Threes-v0", num_players=3, opponents="heuristic")
>>> obs, info = env.reset(seed=1)
>>> done = False
>>> while not done:
...     action = int(env.np_random.choice(info["action_mask"].nonzero()[0]))
...     obs, reward, terminated, truncated, info = env.step(action)
...     done = terminated or truncated
"""
from __future__ import annotations

import random
from typing import Any, Dict, Optional, Tuple

import gymnasium
import numpy as np
from gymnasium import spaces

from threes import registry
from threes.bots import bot_view, make_bot
from threes.places import end_reason
from threes.ui.text import render_mode_output
from threes.errors import IllegalActionError
from threes.args import per_other_seat, seed64 as _seed64

from threes.registry import AnyState as State

__all__ = ["GameEnv", "ThreesEnv", "ENV_ID", "THREE_THIRTEEN_ENV_ID", "make_vector_env"]

#: The registered id (``gymnasium.make(ENV_ID)`` after ``import threes.gym``).
ENV_ID = "threes/Threes-v0"
#: The registered id of Three Thirteen (GameEnv with game="three_thirteen").
THREE_THIRTEEN_ENV_ID = "threes/ThreeThirteen-v0"
_ILLEGAL = ("penalize", "raise")


class GameEnv(gymnasium.Env):
    """One learner at ``seat`` against bots at the other seats, in any
    registered game.

    game: a Game of a registered game, or a registered name (then
    ``Game(num_players, **game_options)`` of that game, 3 players when
    num_players is None); opponents: a bot
    spec (a policy of the game, e.g. ``"greedy"``, or ``"ismcts:N"``) or bot
    object for every other seat, or a sequence of ``num_players - 1`` of
    them, in seat order skipping the learner (default ``"greedy"``); specs
    are checked against the game's policies. illegal_action: ``"penalize"``
    or ``"raise"`` (module docstring); render_mode: None, ``"ansi"`` or
    ``"human"``. At the end ``info`` has ``returns`` (and ``finish_order``
    when the game's states have one).

    >>> env = GameEnv("three_thirteen", num_players=2, opponents="greedy")
    >>> obs, info = env.reset(seed=0)
    >>> action = int(info["action_mask"].nonzero()[0][0])
    >>> obs, reward, terminated, truncated, info = env.step(action)
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(self, game: Any, num_players: Optional[int] = None, seat: int = 0,
                 opponents: Any = "greedy", illegal_action: str = "penalize", render_mode: Optional[str] = None,
                 game_options: Optional[Dict[str, Any]] = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        if illegal_action not in _ILLEGAL:
            raise ValueError(f"illegal_action must be 'penalize' or 'raise', not {illegal_action!r}")
        if isinstance(game, str):
            game = registry.get(game).load().Game(3 if num_players is None else num_players, **(game_options or {}))
        elif game_options:
            raise ValueError("game_options are for a game given by name; a Game object has its options")
        self.info = registry.game_of(game)  # a TypeError for an object of no registered game
        if num_players is not None and num_players != game.num_players():
            raise ValueError(f"the game seats {game.num_players()} players, not {num_players}")
        num_players = game.num_players()
        self.game = game
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)):
            raise TypeError(f"seat must be an int, not {type(seat).__name__}")
        if not 0 <= seat < num_players:
            raise ValueError(f"seat must be in 0..{num_players - 1}, not {seat}")
        seat = int(seat)
        # Shithead: every seat makes its swap decision in order 0..N-1 first: the learner's first turn is
        # move `seat`.
        if hasattr(self.game, "max_game_length") and self.game.max_game_length() <= seat:
            raise ValueError(f"max_moves={self.game.max_game_length()} would end the game before seat {seat} "
                             "ever moves: it must be greater than seat")
        self.seat = seat
        self.num_players = num_players
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.opponents: Dict[int, Any] = self._make_opponents(opponents)
        self._num_actions = self.game.num_distinct_actions()
        obs_size = self.game.observation_tensor_shape()[0]
        high = float(self.game.new_initial_state(0).observation_high())
        self.observation_space = spaces.Box(0, high, (obs_size,), np.float32)
        self.action_space = spaces.Discrete(self._num_actions)
        self._state: Optional[State] = None
        self._done = False
        self.deal_seed: Optional[int] = None

    def _make_opponents(self, opponents: Any) -> Dict[int, Any]:
        others = [q for q in range(self.num_players) if q != self.seat]
        if opponents is None:
            opponents = "greedy"
        specs = per_other_seat(opponents, others, "bot",
                               lambda o: isinstance(o, str) or hasattr(o, "step"))
        return {q: make_bot(spec, game=self.game) for q, spec in zip(others, specs)}

    # ------------------------------------------------------------- helpers --
    @property
    def game_state(self) -> State:
        """The true engine state (all cards): for evaluation, never for the learner."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def _seed(self) -> int:
        return int(self.np_random.integers(0, 2**63))

    def _mask(self) -> np.ndarray:
        """The learner's legal actions; at the end of an episode every action
        (1s), since the next action a vector env passes is ignored (it
        resets): a mask is never all zero (a masked softmax over one would be
        NaN), as in pgx and threes.vector."""
        state = self.game_state
        if state.current_player() == self.seat:
            return state.legal_actions_mask(out=np.empty(self._num_actions, dtype=np.int8))
        return np.ones(self._num_actions, dtype=np.int8)

    def _play_opponents(self) -> None:
        """Bots move until it is the learner's turn or the game is over."""
        state, seat, opponents, draw = self.game_state, self.seat, self.opponents, self._draws.getrandbits
        while not state.is_terminal():
            p = state.current_player()
            if p == seat:
                return
            bot = opponents[p]
            a = bot.step(bot_view(bot, state, p, draw(64)))
            try:
                state.apply_action(a)  # checks the action (and changes nothing when it is not legal)
            except (IllegalActionError, TypeError):
                raise IllegalActionError(f"the bot {getattr(bot, 'name', bot)!r} at seat {p} chose action {a!r}, "
                                         "which is not legal") from None

    def _result(self, reward: float, info: Dict[str, Any]) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        state = self.game_state
        over = state.is_terminal()
        truncated = over and state.is_truncated()
        terminated = over and not truncated
        if over:
            self._done = True
            reward = float(state.returns()[self.seat])
            info["returns"] = state.returns()
            if truncated:
                info["truncation_reason"] = end_reason(state)  # "move_cap" or "stalemate"
            if hasattr(state, "finish_order"):
                info["finish_order"] = state.finish_order()
        info["action_mask"] = self._mask()
        return state.observation_tensor(self.seat), reward, terminated, truncated, info

    # --------------------------------------------------------- gymnasium --
    def reset(self, *, seed: Optional[int] = None,
              options: Optional[dict] = None) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Deals (with ``seed`` when given, else a seed from np_random), resets
        the bots and plays them until the learner is to move."""
        deal = _seed64(seed) if seed is not None else None  # any int, modulo 2**64 (TypeError otherwise)
        # Gymnasium's own seeding takes only non-negative Python ints: the others as their value modulo 2**64
        super().reset(seed=seed if seed is None or (type(seed) is int and seed >= 0) else deal)
        if deal is None:
            deal = self._seed()
        self.deal_seed = deal
        self._state = self.game.new_initial_state(deal)
        for bot in self.opponents.values():
            if hasattr(bot, "reset"):
                bot.reset(self._seed())
        self._draws = random.Random(self._seed())  # the bots' resampling seeds (cheaper than np_random per move)
        self._done = False
        self._play_opponents()
        if self._state.is_terminal():  # Shithead: max_moves > seat rules it out
            raise RuntimeError("the game ended at the move cap before the learner's first move: raise max_moves")
        if self.render_mode == "human":
            self.render()
        return self._state.observation_tensor(self.seat), {"action_mask": self._mask()}

    def step(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        """Applies the learner's action, then the bots' until the learner's
        next turn or the end (illegal actions: see the module docstring)."""
        if self._state is None or self._done:
            raise RuntimeError("the episode is over (or was never started): call reset()")
        if type(action) is not int:  # an int is the common case: checked by apply_action below
            if isinstance(action, np.ndarray) and action.shape in ((), (1,)) and np.issubdtype(action.dtype,
                                                                                            np.integer):
                action = int(action.reshape(()))
            if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
                raise IllegalActionError(f"an action is an int id in 0..{self._num_actions - 1}, not {action!r}")
            action = int(action)
        if not 0 <= action < self._num_actions:
            raise IllegalActionError(f"an action is an int id in 0..{self._num_actions - 1}, not {action!r}")
        a = action
        state = self._state
        try:
            state.apply_action(a)  # a legal action is applied; anything else raises and changes nothing
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise IllegalActionError(f"action {a} ({state.action_to_string(a)}) is not legal now: "
                                         "pick one where info['action_mask'] is 1") from None
            self._done = True
            info = {"illegal_action": True, "action_mask": np.ones(self._num_actions, dtype=np.int8)}  # as _mask
            return state.observation_tensor(self.seat), -1.0, True, False, info
        self._play_opponents()
        if self.render_mode == "human":
            self.render()
        return self._result(0.0, {})

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode: ThreesEnv(render_mode='ansi'|'human')")
            return None
        return render_mode_output(self.render_mode, self.game_state)

    def close(self) -> None:
        pass


class ThreesEnv(GameEnv):
    """One learner at ``seat`` against bots at the other seats, in a game of
    the Shithead family.

    opponents: a bot spec (``"random"``, ``"greedy"``, ``"heuristic"``,
    ``"ismcts:N"``) or bot object for every other seat, or a sequence of
    ``num_players - 1`` of them, in seat order skipping the learner (default
    ``"greedy"``). num_players, rules, max_moves: as ``threes.Game``;
    illegal_action: ``"penalize"`` or ``"raise"`` (module docstring);
    render_mode: None, ``"ansi"`` or ``"human"``.

    >>> env = ThreesEnv(num_players=2, seat=1, opponents=["random"])
    >>> obs, info = env.reset(seed=0)
    >>> action = int(info["action_mask"].nonzero()[0][0])
    >>> obs, reward, terminated, truncated, info = env.step(action)
    """

    def __init__(self, num_players: int = 4, rules: Any = "threes", max_moves: Optional[int] = None,
                 seat: int = 0, opponents: Any = "greedy", illegal_action: str = "penalize",
                 render_mode: Optional[str] = None):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        if illegal_action not in _ILLEGAL:
            raise ValueError(f"illegal_action must be 'penalize' or 'raise', not {illegal_action!r}")
        game = registry.default().load().Game(num_players, rules, max_moves)  # Shithead, with a rule set
        super().__init__(game, None, seat, opponents, illegal_action, render_mode)


def make_vector_env(num_envs: int = 1, *, game: Any = "shithead", num_players: Optional[int] = None,
                    rules: Any = "threes", max_moves: Optional[int] = None, seat: int = 0,
                    opponents: Any = "greedy", illegal_action: str = "penalize",
                    render_mode: Optional[str] = None, game_options: Optional[Dict[str, Any]] = None,
                    **vector_options: Any) -> Any:
    """The ``vector_entry_point`` of ``threes/Threes-v0`` and ``threes/ThreeThirteen-v0``
    (what ``gymnasium.make_vec`` calls): a ``threes.vector.VectorEnv`` of ``num_envs``
    games with the single env's arguments and defaults (Shithead: 4 players, ``rules`` and
    ``max_moves``; another game: 3 players, its options in ``game_options``), plus the
    vector env's own ``vector_options`` (``threads``, ``seed``, ``autoreset_mode``,
    ``observation_dtype``, ``penalty``). Opponents must be C policies of the game;
    ``vectorization_mode="sync"`` vectorizes the single env, which plays any bot.

    >>> envs = make_vector_env(16, num_players=2, opponents="random", seed=3)
    """
    from threes import vector

    if render_mode is not None:
        raise ValueError(f"render_mode={render_mode!r}: the C vector env does not render; "
                         "gymnasium.make_vec(..., vectorization_mode='sync') vectorizes the env that does")
    unknown = set(vector_options) - {"threads", "seed", "autoreset_mode", "observation_dtype", "penalty"}
    if unknown:
        raise TypeError(f"unknown arguments {sorted(unknown)} for a threes vector env")
    name = game if isinstance(game, str) else None
    if name is not None and registry.get(name) is registry.default():
        options = dict(game_options or {})
        if rules != "threes":
            options["rules"] = rules
        if max_moves is not None:
            options["max_moves"] = max_moves
        game_options = options
        if num_players is None:
            num_players = 4  # ThreesEnv's default
    elif rules != "threes" or max_moves is not None:
        raise ValueError("rules= and max_moves= are Shithead's; another game takes game_options=")
    elif name is not None and num_players is None:
        num_players = 3  # GameEnv's default
    try:
        return vector.VectorEnv(game, num_envs, num_players=num_players, seat=seat, opponents=opponents,
                                illegal_action=illegal_action, game_options=game_options, **vector_options)
    except (TypeError, ValueError) as e:
        if "polic" not in str(e):
            raise
        raise type(e)(f"{e}: for other bots, gymnasium.make_vec(..., vectorization_mode='sync')") from None


def _register() -> None:
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="threes.gym:ThreesEnv",
                           vector_entry_point="threes.gym:make_vector_env")
    if THREE_THIRTEEN_ENV_ID not in gymnasium.registry:
        gymnasium.register(id=THREE_THIRTEEN_ENV_ID, entry_point="threes.gym:GameEnv",
                           vector_entry_point="threes.gym:make_vector_env", kwargs={"game": "three_thirteen"})


_register()
