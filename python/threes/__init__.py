"""threes: a fast engine for the Shithead family of card games and for Three
Thirteen, the rummy game.

>>> import threes
>>> game = threes.Game(num_players=4, rules="threes")
>>> state = game.new_initial_state(seed=1)
>>> state.current_player(), state.phase.value
(0, 'swap')

``import threes`` gives the Shithead API (threes.shithead), the bots and the
tournament runner, and loads no user interface or adapter: ``threes.svg``,
``threes.three_thirteen`` and the rest are imported on first use.
"""
import importlib as _importlib

# NumPy first: the extensions take NumPy's C API when they load
# (cnp.import_array), which should find NumPy imported already rather than
# import it from inside an extension's module init.
import numpy as _numpy  # noqa: F401

from threes.errors import IllegalActionError
from threes.cards import Card, RANKS, SUITS, parse_cards, format_cards
from threes.shithead.rules import Rules, PRESETS
from threes.shithead.game import (
    DEFAULT_MAX_MOVES,
    STATE_SIZE_BYTES,
    TERMINAL_PLAYER_ID,
    Game,
    Move,
    Phase,
    State,
)
from threes.shithead.rollouts import POLICIES, rollout
from threes.batches import RolloutResult, rollouts
from threes.shithead.observation import Observation
from threes import bots
from threes.tournament import TournamentResult, tournament

from threes._version import __version__

# Loaded on first use (PEP 562), so that ``import threes`` stays light.
_LAZY_MODULES = ("svg", "three_thirteen", "ui", "adapters", "vector")


def __getattr__(name):
    if name in _LAZY_MODULES:
        return _importlib.import_module("threes." + name)
    raise AttributeError(f"module 'threes' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY_MODULES))


__all__ = [
    "Card",
    "DEFAULT_MAX_MOVES",
    "Game",
    "IllegalActionError",
    "Move",
    "Observation",
    "POLICIES",
    "PRESETS",
    "Phase",
    "RANKS",
    "RolloutResult",
    "Rules",
    "STATE_SIZE_BYTES",
    "SUITS",
    "State",
    "TERMINAL_PLAYER_ID",
    "TournamentResult",
    "format_cards",
    "rollout",
    "rollouts",
    "tournament",
    "bots",
    "svg",
    "parse_cards",
]
