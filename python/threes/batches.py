"""Rollouts of any game: ``threes.rollouts`` and ``threes.rollout``.

Each game's package registers its binding's batch and one-game rollout with
:func:`register` as it loads; the functions here find them by the type of
the Game or State they are given, and choose the backend (this machine's
threads, or a Ray cluster through threes.cluster) above the compiled
extensions, which import none of our Python. Every game's batch comes back
as one type, threes.results.RolloutResult.

>>> import threes
>>> r = threes.rollouts(threes.Game(3), 10, "greedy", seed=1, threads=1)
>>> r.num_games, r.num_players, r.policies
(10, 3, ('greedy', 'greedy', 'greedy'))
"""
from __future__ import annotations

from typing import Any, Callable

from threes import _engine
from threes.results import RolloutResult

__all__ = ["rollout", "rollouts", "register", "RolloutResult"]

#: One game from a state of any game, each seat's return (the call a search makes in its inner loop,
#: compiled: threes._engine.rollout over the game's own binding; threes.rollout, Shithead's own rollout,
#: sends another game's state on to it the same way).
rollout = _engine.rollout

#: ``rollouts`` is compiled (threes._engine.rollouts: one dictionary lookup to the game's batch, so
#: that a search's ``rollouts(state, 1)`` pays no Python frame); the backend choice stays here in
#: Python: Ray's batches are threes.cluster's, handed to it below with the one result type.
rollouts = _engine.rollouts


def _remote(*args: Any, **kw: Any) -> RolloutResult:
    from threes.cluster import rollouts as cluster_rollouts

    return cluster_rollouts(*args, **kw)


_engine._configure_batches(RolloutResult, _remote)


def register(game_type: type, state_type: type, play_batch: Callable[..., RolloutResult],
             rollout_fn: Callable[..., Any]) -> None:
    """What a game's package calls as it loads: ``rollouts`` of its
    `game_type` or `state_type` plays ``play_batch`` (its binding's batch),
    ``rollout`` of its `state_type` calls ``rollout_fn``."""
    for t in (game_type, state_type):
        if not isinstance(t, type):
            raise TypeError(f"register takes the game's Game and State types, not {t!r}")
    if not callable(play_batch) or not callable(rollout_fn):
        raise TypeError("register takes the binding's play_batch and rollout functions")
    _engine.register_batch(game_type, play_batch)
    _engine.register_batch(state_type, play_batch)
    _engine.register_rollout(state_type, rollout_fn)
