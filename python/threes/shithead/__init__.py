"""Shithead: the Threes, classic and dutch rule sets and any house rules as data
(docs/shithead/RULES.md). ``import threes`` re-exports this game's API.

>>> from threes import shithead
>>> game = shithead.Game(num_players=4, rules="threes")
>>> game.new_initial_state(seed=1).current_player()
0
"""
from threes.shithead.rules import PRESETS, Rules
from threes.shithead.game import DEFAULT_MAX_MOVES, STATE_SIZE_BYTES, TERMINAL_PLAYER_ID, Game, Move, Phase, State
from threes.shithead.rollouts import POLICIES, RolloutResult, rollout, rollouts
from threes.shithead.observation import Observation

__all__ = ["DEFAULT_MAX_MOVES", "Game", "Move", "Observation", "POLICIES", "PRESETS", "Phase", "RolloutResult", "Rules",
           "STATE_SIZE_BYTES", "State", "TERMINAL_PLAYER_ID", "rollout", "rollouts"]
