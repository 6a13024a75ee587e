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

from typing import Any, Callable, Dict, Optional, Sequence, Union

from threes import _engine
from threes.results import RolloutResult

__all__ = ["rollout", "rollouts", "register", "RolloutResult"]

#: A game's Game or State type -> its binding's batch (play_batch(source, n, policy, seed, threads,
#: observer, progress, chunk, first, result)).
_BATCH: Dict[type, Callable[..., RolloutResult]] = {}

#: One game from a state of any game, each seat's return (the call a search makes in its inner loop,
#: compiled: threes._engine.rollout over the game's own binding; threes.rollout, Shithead's own rollout,
#: sends another game's state on to it the same way).
rollout = _engine.rollout


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
    _BATCH[game_type] = _BATCH[state_type] = play_batch
    _engine.register_rollout(state_type, rollout_fn)


def _batch_of(obj: Any) -> Callable[..., RolloutResult]:
    for cls in type(obj).__mro__:
        fn = _BATCH.get(cls)
        if fn is not None:
            return fn
    raise TypeError(f"rollouts takes a Game or a State of a registered game, not {type(obj).__name__}")


def rollouts(game_or_state: Any, n: int, policy: Union[str, Sequence[str]] = "random", seed: Optional[int] = None,
             threads: Optional[int] = None, observer: Optional[int] = None,
             progress: Optional[Callable[[int], None]] = None, chunk: Optional[int] = None, *, first: int = 0,
             backend: str = "local", address: Optional[str] = None) -> RolloutResult:
    """Plays `n` games of any game in C, with the GIL released, on `threads`
    native threads (default: every core), and returns a RolloutResult. From
    a Game: fresh deals; from a State: every game from that position (the
    state is not changed). Game i uses its own seed derived from (seed, i),
    so the result does not depend on `threads`. ``policy``: one of the
    game's ``POLICIES`` for every seat, or one name per seat.

    With ``observer=p`` (from a State only), every game first deals the
    cards seat p cannot see again at random (``resample_from_infostate``, in
    C), so the result is an estimate from p's point of view that never uses
    hidden cards.

    With ``progress``, the games are played in chunks of ``chunk`` and
    ``progress(games_done)`` is called after each; the games are the same
    as in one call. ``first``: play games first .. first + n - 1 of the
    batch (game i still from (seed, i)), so that the results of [0, k) and
    of k games from ``first=k`` put together are the results of one call.

    ``backend="ray"`` plays the batch on a Ray cluster (``address``: None
    for the one ``ray.init()`` finds or starts, else e.g.
    ``"10.0.0.1:6379"``) in chunks of ``chunk`` games (default: sized from
    Ray's per-task overhead, see threes.cluster), with the same result as
    here; ``progress`` is then called as chunks finish anywhere on the
    cluster, and ``threads`` in the result is the cluster's CPU count."""
    if backend == "local" and address is None:
        fn = _BATCH.get(type(game_or_state))
        if fn is None:
            fn = _batch_of(game_or_state)
        return fn(game_or_state, n, policy, seed, threads, observer, progress, chunk, first, RolloutResult)
    if backend == "ray":
        if threads is not None:
            raise ValueError("threads is for backend='local': a Ray cluster plays one game a CPU")
        from threes.cluster import rollouts as cluster_rollouts

        return cluster_rollouts(game_or_state, n, policy, seed, observer=observer, progress=progress, chunk=chunk,
                                first=first, address=address)
    if backend != "local":
        raise ValueError(f"backend must be 'local' or 'ray', not {backend!r}")
    raise ValueError("address is for backend='ray'")
