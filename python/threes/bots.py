"""Bots: one small interface, ``step(state) -> action``.

A bot is any object with a ``name`` and a ``step(state)`` method that returns
a legal action id for the player to move; ``reset(seed)`` (optional) is
called before every game. Bots must decide from what the player to move can
know. The game runners in this package (``play_game``, ``threes.tournament``)
make sure of it (``bot_view``): a bot is handed
``state.resample_from_infostate(player, seed)``, a state that agrees with
everything the player can see and has every hidden card dealt at random. A
bot that peeked at "hidden" cards would only see that random deal. The one
exception is the engine's own C policies (``PolicyBot`` and its named
subclasses, ``step`` not overridden): their choice reads only what the
player can see (tests/test_bot_views.py checks that it is the same on the
state and on its resamples), so they are handed the state itself, which
saves a deal per move.

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
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from threes import _engine, _stop, registry
from threes.args import int_arg
from threes.args import seed64 as _seed64
from threes.registry import AnyState as State

__all__ = ["Bot", "RandomBot", "GreedyBot", "HeuristicBot", "ISMCTSBot", "PolicyBot", "play_game", "make_bot",
           "available_bots", "bot_unavailable"]


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


def _game_info(game: Any) -> "registry.GameInfo":
    """A registered game from a name (or alias), a GameInfo, a Game or a State."""
    return registry.get(game) if isinstance(game, str) else registry.game_of(game)


def _policies_text() -> str:
    return "; ".join(f"{info.title}: {', '.join(info.policies)}" for info in map(registry.get, registry.names()))


def _check_policy(policy: str, info: "registry.GameInfo") -> int:
    """The id of `policy` in `info`'s game, or a ValueError naming its policies."""
    pols = info.policies
    if policy not in pols:
        raise ValueError(f"{info.title} has no {policy!r} policy: its policies are {', '.join(pols)}")
    return pols.index(policy)


class PolicyBot(Bot):
    """One of a game's C rollout policies as a bot (``POLICIES`` of the
    game's package: Shithead random, greedy, heuristic; Three Thirteen
    random, greedy).

    The policy is named, and the name is looked up in the game of each state
    the bot is asked about (``threes.registry.game_of(state)``), so one
    ``PolicyBot("greedy")`` plays every registered game that has a greedy
    policy. ``game`` (a registered game's name, a Game or a State) checks the
    name against that game at once; without it the name must be a policy of
    some registered game, and a state of a game without that policy raises a
    ValueError naming the game's policies. A policy is never silently
    replaced by another (Three Thirteen has no ``heuristic``).
    """

    def __init__(self, policy: str, seed: Optional[int] = None, game: Any = None):
        if not isinstance(policy, str):
            raise TypeError(f"a policy is named by a string, not {type(policy).__name__}")
        self.game: Optional[registry.GameInfo] = None if game is None else _game_info(game)
        if self.game is not None:
            _check_policy(policy, self.game)
        elif not any(policy in registry.get(g).policies for g in registry.names()):
            raise ValueError(f"unknown policy {policy!r}: {_policies_text()}")
        self.policy = policy
        self.name = policy
        self._ids: Dict[type, int] = {}  # policy id per state class
        self.reset(seed)

    def reset(self, seed: Optional[int] = None) -> None:
        self._rng = random.Random(_seed64(seed))

    def _policy_id(self, state: Any) -> int:
        cls = type(state)
        pid = self._ids.get(cls)
        if pid is None:
            pid = self._ids[cls] = _check_policy(self.policy, registry.game_of(state))
        return pid

    def step(self, state: State) -> int:
        return state._policy_action(self._policy_id(state), self._rng.getrandbits(64))


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


_DEFAULT_MAX_NODES = 2**25  # nodes of a tree by default at most (32 bytes each: 1 GiB)


class ISMCTSBot(Bot):
    """Single-observer information-set MCTS (Cowling et al. 2012), in C.

    Every iteration deals the cards the player to move cannot see again at
    random, walks the shared tree by UCB over the actions legal in that deal,
    adds one node, plays the rest of the game with a C rollout policy and backs
    up each mover's return. Returns the most visited root action. One C search
    (common/ismcts.h) serves every game: the bot calls the state's own
    ``_ismcts_search`` (Three Thirteen values each iteration on the root's
    round, with greedy rollouts whatever rollout_policy).

    iterations: at most this many per move (an int, 1 <= iterations < 2**32);
    time_limit: seconds per move, a finite number > 0 (None: no limit, and
    the bot is then deterministic for a given seed); the limit holds within
    a few milliseconds even when one rollout is long (the C search checks
    the clock inside rollouts and drops the iteration in progress);
    exploration: the UCB constant, a finite number >= 0 (returns are in
    [-1, 1]); rollout_policy: a C policy name; seed: None or an int;
    max_nodes: room in the tree, an int in 1..2**32-1 (default
    iterations + 1, at most 2**25 nodes, 1 GiB: a longer search stops
    growing its tree when it is full and goes on iterating). Bad settings
    raise ValueError (out of range, or iterations not an int) or TypeError
    (another setting of the wrong type), in the constructor and again at
    every search (so a setting changed on the object afterwards is checked
    too).

    Threads: each search builds its tree in a node array of its own,
    allocated for that call (the pages are only touched as nodes are made),
    so one bot may be used from several threads at once; the searches run in
    parallel with the GIL released and do not share a tree. ``last_search``
    is then the last one to finish. The seeds of the searches come from the
    bot's one random stream, so which thread gets which seed depends on
    their order.

    Stopping: a search polls for Ctrl-C (in the main thread) and for the
    thread's cancel flag (threes._stop) every 20 ms and then raises
    KeyboardInterrupt.
    """

    def __init__(self, iterations: int = 1000, time_limit: Optional[float] = None, exploration: float = 0.7,
                 rollout_policy: str = "random", seed: Optional[int] = None, max_nodes: Optional[int] = None):
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.rollout_policy = rollout_policy
        self.max_nodes = max_nodes
        self._check_settings()
        self.iterations = int(iterations)
        self.time_limit = None if time_limit is None else float(time_limit)
        self.exploration = float(exploration)
        self.name = f"ismcts-{self.iterations}"
        self.last_search: Optional[dict] = None
        self.reset(seed)

    def _check_settings(self) -> int:
        """Checks every setting (TypeError / ValueError); returns the tree's node count."""
        it, tl, c, pol, mn = self.iterations, self.time_limit, self.exploration, self.rollout_policy, self.max_nodes
        if isinstance(it, bool) or not isinstance(it, (int, np.integer)):  # ValueError, as it always was
            raise ValueError(f"iterations must be an int >= 1, not {it!r}")
        if not 1 <= it <= 2**32 - 1:
            raise ValueError(f"iterations must be in 1..2**32-1, not {it!r}")
        for name, v in (("time_limit", tl), ("exploration", c)):
            if v is None and name == "time_limit":
                continue
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
                raise TypeError(f"{name} must be a number, not {type(v).__name__}")
        if tl is not None and not (math.isfinite(tl) and tl > 0):
            raise ValueError(f"time_limit must be a finite number > 0 of seconds or None, not {tl!r}")
        if not (math.isfinite(c) and c >= 0):
            raise ValueError(f"exploration must be a finite number >= 0, not {c!r}")
        if not isinstance(pol, str):
            raise TypeError(f"rollout_policy must be a policy name (str), not {type(pol).__name__}")
        known = _all_policies()
        if pol not in known:
            raise ValueError(f"unknown rollout policy {pol!r}: one of {', '.join(known)}")
        if mn is None:
            return min(int(it) + 1, _DEFAULT_MAX_NODES)
        if isinstance(mn, bool) or not isinstance(mn, (int, np.integer)):
            raise TypeError(f"max_nodes must be an int or None, not {type(mn).__name__}")
        if not 1 <= mn <= 2**32 - 1:
            raise ValueError(f"max_nodes must be in 1..2**32-1, not {mn!r}")
        return int(mn)

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
        nodes = self._check_settings()
        info = registry.game_of(state)
        if self.rollout_policy not in info.policies:
            raise ValueError(f"{info.title} has no rollout policy {self.rollout_policy!r}: "
                             f"one of {', '.join(info.policies)}")
        # A tree of this call's own: searches in other threads never share it.
        # np.empty: the C search writes each node as it makes it.
        arena = np.empty(nodes * _engine.ISMCTS_NODE_BYTES, dtype=np.uint8)
        best, iters, nodes, children = search(arena, int(self.iterations), float(self.time_limit or 0.0),
                                              float(self.exploration), self.rollout_policy, self._rng.getrandbits(64))
        children.sort(key=lambda c: -c[1])
        self.last_search = {"action": best, "iterations": iters, "nodes": nodes, "children": children}
        return self.last_search

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]  # nothing to think about
        return self.search(state)["action"]


def _all_policies() -> List[str]:
    """Every registered game's C rollout policies, each once, in registration order."""
    out: List[str] = []
    for name in registry.names():
        out += [p for p in registry.get(name).policies if p not in out]
    return out


def _bot_specs_text(info: Optional["registry.GameInfo"]) -> str:
    games = [info] if info is not None else [registry.get(g) for g in registry.names()]
    named = [f"{g.title}: {', '.join(tuple(g.policies) + tuple(b for b, _ in g.bots))}" for g in games]
    return "; ".join(named) + "; every game: ismcts or ismcts:N"


def make_bot(spec, seed: Optional[int] = None, game: Any = None):
    """A bot from a short spec: a policy name (``"random"``, ``"greedy"``,
    ``"heuristic"``: see PolicyBot), a game's own named bot (Shithead:
    ``"net"``, the packaged PPO policy, threes.shithead.net), ``"ismcts"`` or
    ``"ismcts:ITERATIONS"``; a bot object is returned as is. ``game`` (a
    registered game's name, a Game or a State) checks a name against that
    game now, so ``make_bot("heuristic", game="three_thirteen")`` is a
    ValueError naming Three Thirteen's bots rather than a failure in mid-game."""
    if not isinstance(spec, str):
        if not hasattr(spec, "step"):
            raise TypeError(f"a bot needs a step(state) method: {spec!r}")
        return spec
    name, _, arg = spec.strip().lower().partition(":")
    info = None if game is None else _game_info(game)
    every = tuple(dict.fromkeys(p for g in registry.names() for p in registry.get(g).policies))
    if name in every and not arg:
        return PolicyBot(name, seed, info)  # a ValueError naming the game's policies if it lacks this one
    if name == "ismcts":
        try:
            iterations = int(arg) if arg else 1000
        except ValueError:
            raise ValueError(f"bad bot {spec!r}: ismcts:N takes a whole number of iterations") from None
        return ISMCTSBot(iterations, seed=seed)
    if not arg:
        for g in [info] if info is not None else [registry.get(g) for g in registry.names()]:
            factory = g.bot_factory(name)
            if factory is not None:
                return factory(seed=seed)
    where = "" if info is None else f" for {info.title}"
    raise ValueError(f"unknown bot {spec!r}{where}: {_bot_specs_text(info)}")


def available_bots(game: Any = None, num_players: Optional[int] = None) -> List[str]:
    """The bot specs :func:`make_bot` can make on this machine, in the order a list offers them:
    each game's C policies, its own bots that can be made here, and ``"ismcts"`` (which also takes
    ``"ismcts:N"``, N iterations).

    ``game``: a registered game's name or alias, a GameInfo, a Game or a State; None: every
    registered game, each spec once. A game's own bot is tried once (Shithead's ``"net"`` loads and
    checks its weights file, threes.shithead.net, cached per file: a missing or damaged file leaves
    ``"net"`` out, and a repaired one brings it back). ``num_players`` also leaves out a bot that
    plays tables of another size only (a bot may say which with a ``num_players`` attribute: the net
    bot plays 4)."""
    infos = [_game_info(game)] if game is not None else [registry.get(g) for g in registry.names()]
    if num_players is not None:
        num_players = int_arg(num_players, "num_players", 1, 255)
    out: List[str] = []
    for info in infos:
        specs = list(info.policies) + [spec for spec, _ in info.bots
                                       if bot_unavailable(spec, info, num_players) is None] + ["ismcts"]
        out += [spec for spec in specs if spec not in out]
    return out


def bot_unavailable(spec: str, game: Any, num_players: Optional[int] = None) -> Optional[str]:
    """Why the game's own bot ``spec`` (e.g. ``"net"``) cannot play here, in a sentence, or None
    when it can: it cannot be made (its error: the net bot's weights missing or damaged), or it
    plays tables of another size than ``num_players``. (available_bots and the command line.)"""
    info = _game_info(game)
    factory = info.bot_factory(spec)
    if factory is None:
        return f"{info.title} has no bot {spec!r}"
    try:
        bot = factory(seed=0)
    except Exception as exc:  # noqa: BLE001 - any failure to make it: not offered, and said why
        return f"the {spec} bot cannot be made here: {exc}"
    plays = getattr(bot, "num_players", None)
    if num_players is not None and isinstance(plays, int) and plays != num_players:
        return f"the {spec} bot plays {plays}-player {info.title} only, not {num_players} players"
    return None


def bot_view(bot: Any, state: State, player: int, seed: int) -> State:
    """The state `bot` is handed to move for `player`:
    ``state.resample_from_infostate(player, seed)``, or, for the engine's
    own C policies (a ``PolicyBot`` whose ``step`` is not overridden, which
    decide from what the player can see only and do not change the state),
    ``state`` itself. Every runner of this package (play_game, tournaments,
    the Gymnasium env, the terminal game) hands bots their view through here."""
    if isinstance(bot, PolicyBot) and type(bot).step is PolicyBot.step:
        return state
    return state.resample_from_infostate(player, seed)


def play_game(bots: Sequence, state: State, seed: Optional[int] = None) -> State:
    """Plays ``state`` (not changed) to the end, seat q moving with
    ``bots[q]``; returns the final state. Each bot sees only
    ``resample_from_infostate(player, ...)`` of the position it moves in
    (``bot_view``), so no bot can read hidden cards. An illegal action raises
    IllegalActionError."""
    n = state.num_players()
    if len(bots) != n:
        raise ValueError(f"one bot per seat: {n} needed, {len(bots)} given")
    rng = random.Random(_seed64(seed))
    s = state.clone()
    while not s.is_terminal():
        _stop.check()  # this thread's cancel flag (threes._stop), e.g. a tournament being stopped
        p = s.current_player()
        s.apply_action(bots[p].step(bot_view(bots[p], s, p, rng.getrandbits(64))))
    return s
