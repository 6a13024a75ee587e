"""Full-game rollouts in C: one game, or batches on native threads.

Policies (chosen per seat): ``"random"`` (uniform over the legal actions,
swap phase included), ``"greedy"`` (lowest plain rank with every copy, powers
kept for when nothing else goes, strongest cards face up) and ``"heuristic"``
(greedy that also burns big piles and keeps the pressure on with its powers).
See src/threes_core/shithead/rollout.h for their exact definitions.

``rollouts`` is threes.rollouts (threes.batches: any game, the backend
chosen there) and returns the one threes.results.RolloutResult; ``rollout``
is the binding's own fast path, and threes.rollout (a state of another game
goes on to that game's rollout). This module registers them for Shithead's
Game and State.
"""
from __future__ import annotations

from typing import Tuple

from threes import batches
from threes.batches import rollouts
from threes.results import RolloutResult
from threes.shithead import _core
from threes.shithead.game import Game, State

__all__ = ["POLICIES", "RolloutResult", "rollout", "rollouts"]

#: Policy names, in the C engine's order.
POLICIES: Tuple[str, ...] = _core.POLICIES

#: One game to the end from a Shithead state, or from any game's through its own rollout (its docstring in the
#: binding).
rollout = _core.rollout

batches.register(Game, State, _core.play_batch, _core.rollout)
