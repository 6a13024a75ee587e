"""threes: a fast engine for the Shithead family of card games.

>>> import threes
>>> game = threes.Game(num_players=4, rules="threes")
>>> state = game.new_initial_state(seed=1)
>>> state.current_player(), state.phase.value
(0, 'swap')
"""
from .errors import IllegalActionError
from .cards import Card, RANKS, SUITS, parse_cards, format_cards
from .rules import Rules, PRESETS
from .game import (
    DEFAULT_MAX_MOVES,
    STATE_SIZE_BYTES,
    TERMINAL_PLAYER_ID,
    Game,
    Move,
    Phase,
    State,
)

from .rollouts import POLICIES, RolloutResult, rollout, rollouts
from . import bots, svg
from .observation import Observation
from .tournament import TournamentResult, tournament

__version__ = "0.1.0"

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
