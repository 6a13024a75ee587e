"""What the OpenSpiel adapters of every game share (threes.adapters.openspiel
registers them; each game's ``openspiel`` module builds on this): the game
type, parameter checks, the one-attribute state layout and the observer over
a state's tensor and strings. Names no game."""
from __future__ import annotations

import operator
import random
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import pyspiel

from threes.args import int_arg

#: Redeals a resample_from_infostate tries before it gives up.
RESAMPLE_ATTEMPTS = 1000


def int_param(params: Dict[str, Any], name: str, lo: int, hi: int) -> int:
    """A game parameter that is a whole number: an int (not a bool, a float or text) in lo..hi;
    TypeError or ValueError naming the parameter and its bounds."""
    return int_arg(params[name], f"game parameter {name!r}", lo, hi)


def str_param(params: Dict[str, Any], name: str) -> str:
    v = params[name]
    if not isinstance(v, str):
        raise TypeError(f"game parameter {name!r} must be a string, not {type(v).__name__}")
    return v


def game_type(short_name: str, long_name: str, min_players: int, max_players: int,
               params: Dict[str, Any]) -> "pyspiel.GameType":
    """The GameType both games share: sequential, explicit chance,
    imperfect information, zero-sum, terminal rewards, strings and an
    observation tensor."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def field(name: str) -> property:
    """An attribute of a pyspiel state kept in its one attribute ``_p``."""
    get = operator.attrgetter(f"_p.{name}")

    def put(self, value) -> None:
        setattr(self._p, name, value)

    return property(get, put)


#: a state's position object made without __init__ (pyspiel's clone then makes one deepcopy call)
new_pos = object.__new__

def outcomes(left: np.ndarray) -> List[Tuple[int, float]]:
    """A chance node's outcomes from the copies of each card kind left: ``(kind, copies / cards left)`` for
    each kind with a copy left."""
    total = float(left.sum())
    return [(int(k), float(left[k]) / total) for k in np.flatnonzero(left)]


def resample_rng(state: "pyspiel.State", player_id: Any, probability_sampler) -> Tuple[int, int, random.Random]:
    """resample_from_infostate's arguments checked: the seat (SpielError for anything but an int seat of
    the game), the redeal's seed, from ``probability_sampler()`` (53 bits of it) or, without one, from
    Python's ``random``, and a random generator seeded with it."""
    n = state.get_game().num_players()
    if isinstance(player_id, bool) or not isinstance(player_id, (int, np.integer)) or not 0 <= player_id < n:
        raise pyspiel.SpielError(f"player_id must be a seat in 0..{n - 1}, not {player_id!r}")
    seed = random.getrandbits(64) if probability_sampler is None else int(probability_sampler() * 2**53)
    return int(player_id), seed, random.Random(seed)


class EngineState(pyspiel.State):
    """The base of the games' pyspiel states: decisions are those of the engine's state ``inner``."""

    def _legal_actions(self, player: int) -> List[int]:
        assert player >= 0
        return self.inner.legal_actions()


class EngineObserver:
    """pyspiel observer over a state's ``observation_tensor`` and strings
    (``_observation_tensor``, ``_observation_string``); with perfect_recall
    the string is the information state string (observation plus public
    history)."""

    def __init__(self, game, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self._perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor: Optional[np.ndarray] = None
        self.dict: Dict[str, np.ndarray] = {}
        if self._perfect_recall:
            return  # information states are strings only: no information state tensor is provided
        shape = game.threes_game.observation_tensor_shape()
        self.tensor = np.zeros(shape, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player: int) -> None:
        """Writes ``player``'s observation tensor of ``state`` into ``tensor`` (zeros during a deal);
        does nothing with perfect_recall, which has no tensor."""
        if self.tensor is not None:
            state._observation_tensor(player, self.tensor)

    def string_from(self, state, player: int) -> str:
        """``player``'s observation string of ``state`` (with perfect_recall its information state string), with a
        last line ``drawing from the stock`` while a stock draw waits for chance; during a deal, the round, the
        totals and the cards dealt to the player so far."""
        return state._observation_string(player, self._perfect_recall)
