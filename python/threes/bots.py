"""Bots: one small interface, ``step(state) -> action``.

A bot is any object with a ``name`` and a ``step(state)`` method that returns
a legal action id for the player to move; ``reset(seed)`` (optional) is
called before every game. Bots must decide from what the player to move can
know. The game runners in this package (``play_game``, ``threes.tournament``)
make sure of it: a bot is never handed the true state, only
``state.resample_from_infostate(player, seed)``, a state that agrees with
everything the player can see and has every hidden card dealt at random. A
bot that peeked at "hidden" cards would only see that random deal.

Writing a bot::

    class LowestCard:
        name = "lowest"
        def step(self, state):
            return min(state.legal_actions())

    threes.tournament([LowestCard(), threes.bots.GreedyBot(), ...], games=100, seed=1)
"""
from __future__ import annotations

import abc
import math
import random
from typing import List, Optional, Sequence

import numpy as np

from threes.shithead import _core
from threes.shithead.game import State, _seed64
from threes.shithead.rollouts import POLICIES

__all__ = ["Bot", "RandomBot", "GreedyBot", "HeuristicBot", "ISMCTSBot", "PolicyBot", "play_game", "make_bot"]


class Bot(abc.ABC):
    """Base class (optional: any object with ``name`` and ``step`` will do)."""

    name = "bot"

    def reset(self, seed: Optional[int] = None) -> None:
        """Called before each game with a seed for the bot's own randomness."""

    @abc.abstractmethod
    def step(self, state: State) -> int:
        """The action to play: a legal action id of ``state``."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class PolicyBot(Bot):
    """One of the C rollout policies (``threes.POLICIES``) as a bot."""

    def __init__(self, policy: str, seed: Optional[int] = None):
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}: one of {', '.join(POLICIES)}")
        self.policy = policy
        self.name = policy
        self._policy_id = POLICIES.index(policy)
        self.reset(seed)

    def reset(self, seed: Optional[int] = None) -> None:
        self._rng = random.Random(_seed64(seed))

    def step(self, state: State) -> int:
        return state._policy_action(self._policy_id, self._rng.getrandbits(64))


class RandomBot(PolicyBot):
    """Uniform over the legal actions (the C ``random`` policy)."""

    def __init__(self, seed: Optional[int] = None):
        super().__init__("random", seed)


class GreedyBot(PolicyBot):
    """The C ``greedy`` policy: lowest plain rank with every copy, powers kept."""

    def __init__(self, seed: Optional[int] = None):
        super().__init__("greedy", seed)


class HeuristicBot(PolicyBot):
    """The C ``heuristic`` policy: greedy that burns big piles and spends powers well."""

    def __init__(self, seed: Optional[int] = None):
        super().__init__("heuristic", seed)


class ISMCTSBot(Bot):
    """Single-observer information-set MCTS (Cowling et al. 2012), in C.

    Every iteration deals the cards the player to move cannot see again at
    random, walks the shared tree by UCB over the actions legal in that deal,
    adds one node, plays the rest of the game with a C rollout policy and backs
    up each mover's return. Returns the most visited root action. One C search
    (common/ismcts.h) serves every game: the bot calls the state's own
    ``_ismcts_search`` (Three Thirteen values each iteration on the root's
    round, with greedy rollouts whatever rollout_policy).

    iterations: at most this many per move; time_limit: seconds per move (None:
    no limit, and the bot is then deterministic for a given seed);
    exploration: the UCB constant (returns are in [-1, 1]); rollout_policy:
    a C policy name; max_nodes: room in the tree (default iterations + 1).
    """

    def __init__(self, iterations: int = 1000, time_limit: Optional[float] = None, exploration: float = 0.7,
                 rollout_policy: str = "random", seed: Optional[int] = None, max_nodes: Optional[int] = None):
        if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) or iterations < 1:
            raise ValueError(f"iterations must be an int >= 1, not {iterations!r}")
        if iterations > 2**32 - 1:
            raise ValueError("iterations must be below 2**32")
        if time_limit is not None and not (time_limit > 0 and math.isfinite(time_limit)):
            raise ValueError(f"time_limit must be a finite number > 0 of seconds or None, not {time_limit!r}")
        if not (exploration >= 0 and math.isfinite(exploration)):
            raise ValueError(f"exploration must be a finite number >= 0, not {exploration!r}")
        if rollout_policy not in POLICIES:
            raise ValueError(f"unknown rollout policy {rollout_policy!r}: one of {', '.join(POLICIES)}")
        nodes = int(iterations) + 1 if max_nodes is None else int(max_nodes)
        if nodes < 1:
            raise ValueError(f"max_nodes must be >= 1, not {max_nodes!r}")
        self.iterations = int(iterations)
        self.time_limit = time_limit
        self.exploration = float(exploration)
        self.rollout_policy = rollout_policy
        self.name = f"ismcts-{self.iterations}"
        self._arena = np.zeros(nodes * _core.ISMCTS_NODE_BYTES, dtype=np.uint8)
        self.last_search: Optional[dict] = None
        self.reset(seed)

    def reset(self, seed: Optional[int] = None) -> None:
        self._rng = random.Random(_seed64(seed))

    def search(self, state: State) -> dict:
        """One search from ``state``; returns the best action and the root's
        children as (action, visits, mean return of the mover). The search is
        the state's own (``state._ismcts_search``: the C SO-ISMCTS of
        common/ismcts.h over that game's interface)."""
        search = getattr(state, "_ismcts_search", None)
        if search is None:
            raise TypeError(f"ISMCTSBot cannot search a {type(state).__name__}: it has no _ismcts_search")
        best, iters, nodes, children = search(self._arena, self.iterations, self.time_limit or 0.0,
                                              self.exploration, self.rollout_policy, self._rng.getrandbits(64))
        children.sort(key=lambda c: -c[1])
        self.last_search = {"action": best, "iterations": iters, "nodes": nodes, "children": children}
        return self.last_search

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]  # nothing to think about
        return self.search(state)["action"]


def make_bot(spec, seed: Optional[int] = None):
    """A bot from a short spec: ``"random"``, ``"greedy"``, ``"heuristic"``,
    ``"ismcts"`` or ``"ismcts:ITERATIONS"``; a bot object is returned as is."""
    if not isinstance(spec, str):
        if not hasattr(spec, "step"):
            raise TypeError(f"a bot needs a step(state) method: {spec!r}")
        return spec
    name, _, arg = spec.strip().lower().partition(":")
    if name in POLICIES and not arg:
        return PolicyBot(name, seed)
    if name == "ismcts":
        return ISMCTSBot(int(arg) if arg else 1000, seed=seed)
    raise ValueError(f"unknown bot {spec!r}: random, greedy, heuristic, ismcts or ismcts:N")


def play_game(bots: Sequence, state: State, seed: Optional[int] = None) -> State:
    """Plays ``state`` (not changed) to the end, seat q moving with
    ``bots[q]``; returns the final state. Each bot sees only
    ``resample_from_infostate(player, ...)`` of the position it moves in, so
    no bot can read hidden cards. An illegal action raises IllegalActionError."""
    n = state.num_players()
    if len(bots) != n:
        raise ValueError(f"one bot per seat: {n} needed, {len(bots)} given")
    rng = random.Random(_seed64(seed))
    s = state.clone()
    while not s.is_terminal():
        p = s.current_player()
        view = s.resample_from_infostate(p, rng.getrandbits(64))
        s.apply_action(bots[p].step(view))
    return s
