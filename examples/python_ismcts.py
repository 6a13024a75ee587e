"""A user's own search in pure Python: single-observer ISMCTS (Cowling,
Powley and Whitehouse 2012) written only with the public API -
``resample_from_infostate``, ``legal_actions``, ``apply_action`` and
``threes.rollout`` - for any registered game.

It is the search the C ``threes.bots.ISMCTSBot`` runs (src/threes_core/common/
ismcts.h), written for reading: every iteration deals the cards the searcher
cannot see again, walks the tree by UCB over the actions legal in that deal
(availability counts), adds one node, values the deal with a C rollout and
backs up each mover's value. Three Thirteen values an iteration as the C bot
does, on the root's round only (``round_only=True``, ``State.round_margins``).

Running time on a 2-core machine: ``--compare`` (the default) about 3 s;
the strength tournament prints a line as each deal ends and takes about
20 s a deal at 200 iterations (4 deals: 75 s here), so ``--games 40``
about 12 minutes.

    python examples/python_ismcts.py --compare            # iterations/s against ISMCTSBot, both games (3 s)
    python examples/python_ismcts.py --games 4 --iterations 200   # strength against ISMCTSBot (duplicate deals, 75 s)
    python examples/python_ismcts.py --games 30 --iterations 200 --game three_thirteen
"""
from __future__ import annotations

import argparse
import math
import random
import time
from typing import Callable, Dict, List, Optional

import threes
from threes import registry


class Node:
    """A tree node: the move into it (by `mover`), visits, summed value and
    how often it was available. `mean` and `spread` (exploration /
    sqrt(visits)) are kept up to date by the back-up, which runs once per node and iteration,
    so that the UCB of a child, read far more often, is two loads away."""

    __slots__ = ("children", "visits", "total", "avail", "mover", "mean", "spread")

    def __init__(self, mover: int = -1):
        self.children: Dict[int, "Node"] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.mover = mover
        self.mean = 0.0
        self.spread = 0.0


# sqrt(log(n)) and 1 / sqrt(n) for n = 0, 1, 2, ...: the two factors of the
# exploration term, grown as searches need them (a node is visited, and a
# child available, at most once per iteration).
_SQRT_LOG, _INV_SQRT = [0.0], [0.0]


def _tables(n: int):
    while len(_SQRT_LOG) <= n:
        k = len(_SQRT_LOG)
        _SQRT_LOG.append(math.sqrt(math.log(k)))
        _INV_SQRT.append(1.0 / math.sqrt(k))
    return _SQRT_LOG, _INV_SQRT


def value_function(state) -> Callable:
    """The value of a determinization's leaf: threes.rollout to the end
    (Shithead; a game already over gives its returns), or, for Three
    Thirteen, as the C bot values it, the score margins of the root's round:
    played to that round's end, or read when the tree went past it."""
    if registry.game_of(state).name != "three_thirteen":
        return threes.rollout
    from threes import three_thirteen

    root_round = state.round()

    def round_value(d, policy, seed):
        if d.round() == root_round and not d.is_terminal():
            return three_thirteen.rollout(d, policy, seed, round_only=True)
        return d.returns() if d.is_truncated() else d.round_margins(root_round)

    return round_value


def search(state, iterations: int, exploration: float = 0.7, policy: str = "random", seed: int = 0,
           value: Optional[Callable] = None) -> int:
    """The most visited root action after `iterations` iterations."""
    rng = random.Random(seed)
    value = value or value_function(state)
    me = state.current_player()
    root = Node()
    sqrt_log, inv_sqrt = _tables(iterations + 1)
    choice, bits = rng.choice, rng.getrandbits
    for _ in range(iterations):
        d = state.resample_from_infostate(me, bits(64))    # 1. determinize
        node, path = root, []                               # the nodes below the root this iteration visits
        legal = d.legal_actions()
        while legal:                                        # 2. select (no legal action: the deal is over)
            children, best, best_a, best_ucb = node.children, None, -1, -math.inf
            for a in legal:                                 # UCB1 = mean + c * sqrt(log(avail) / visits)
                c = children.get(a)
                if c is None:                               # an action never tried: expand instead
                    best = None
                    break
                ucb = c.mean + c.spread * sqrt_log[c.avail + 1]
                if ucb > best_ucb:
                    best, best_a, best_ucb = c, a, ucb
            if best is None:                                # 3. expand (an untried action, at random)
                a = choice([a for a in legal if a not in children])
                child = children[a] = Node(d.current_player())
                d.apply_action(a)
                path.append(child)
                break
            for a in legal:                                 # each legal child was available once more
                children[a].avail += 1
            node = best
            d.apply_action(best_a)
            path.append(node)
            legal = d.legal_actions()
        values = value(d, policy, bits(64))                # 4. value
        for n in path:                                      # 5. back up (the root's own count is never read)
            n.visits += 1
            n.total += values[n.mover]
            n.mean = n.total / n.visits
            n.spread = exploration * inv_sqrt[n.visits]
    return max(sorted(root.children), key=lambda a: root.children[a].visits)


class PythonISMCTSBot:
    """The search above as a bot (``step(state) -> action``)."""

    def __init__(self, iterations: int = 1000, exploration: float = 0.7, policy: str = "random", seed: int = 0):
        self.iterations, self.exploration, self.policy = iterations, exploration, policy
        self.rng = random.Random(seed)
        self.name = f"python-ismcts-{iterations}"

    def reset(self, seed: int) -> None:
        """A new game: its own random stream (tournaments call this, so that a
        game's moves do not depend on which games this bot played before,
        and so not on the number of workers)."""
        self.rng = random.Random(seed)

    def step(self, state) -> int:
        return search(state, self.iterations, self.exploration, self.policy, self.rng.getrandbits(63))


# ------------------------------------------------------------------ measuring --

def positions(game_name: str) -> Dict[str, object]:
    """The issue's three positions of one game: the start (Shithead: the swap
    phase), move 100, and an endgame."""
    rng = random.Random(7)
    pkg = registry.get(game_name).load()
    game = pkg.Game(4) if game_name == "shithead" else pkg.Game(3)
    while True:
        s = game.new_initial_state(rng.randrange(2**31))
        states = [s.clone()]
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            states.append(s.clone())
        if len(states) > 300 and not s.is_truncated():
            break
    return {"start": states[0], "move 100": states[100], "endgame": states[-12]}


def iterations_per_second(state, iterations: int) -> Dict[str, float]:
    """Python search and C ISMCTSBot from the same position, the same
    iterations and rollout policy (best of 3 runs each, interleaved)."""
    policy = "random" if registry.game_of(state).name == "shithead" else "greedy"
    c_bot = threes.bots.ISMCTSBot(iterations, rollout_policy=policy, seed=1)
    best_py = best_c = 0.0
    for r in range(3):
        t = time.perf_counter()
        search(state, iterations, policy=policy, seed=r)
        best_py = max(best_py, iterations / (time.perf_counter() - t))
        t = time.perf_counter()
        c_bot.step(state)
        best_c = max(best_c, c_bot.last_search["iterations"] / (time.perf_counter() - t))
    return {"python": best_py, "c": best_c, "ratio": best_py / best_c}


def compare(iterations: int, out: Callable[[str], None] = print) -> List[str]:
    """The table of iterations/s, each row given to ``out`` as soon as it is measured."""
    lines = ["| game | position | Python it/s | C it/s | Python / C |", "|---|---|---|---|---|"]
    for line in lines:
        out(line)
    for name in registry.names():
        for where, state in positions(name).items():
            r = iterations_per_second(state, iterations)
            lines.append(f"| {registry.get(name).title} | {where} | {r['python']:,.0f} | {r['c']:,.0f} | "
                         f"{r['ratio']:.2f} |")
            out(lines[-1])
    return lines


def strength(games: int, iterations: int, seed: int, game_name: str = "shithead") -> str:
    """The Python search against the C bot at the same iterations and rollout
    policy, on duplicate deals (threes.tournament), two players. Shithead
    games are capped at 2,000 moves (two searchers can circle a long time: a
    capped game is a draw); Three Thirteen games end after their 11 rounds."""
    pkg = registry.get(game_name).load()
    if registry.get(game_name).name == "shithead":
        policy, game = "random", pkg.Game(2, max_moves=2000)
    else:
        policy, game = "greedy", pkg.Game(2)
    res = threes.tournament([PythonISMCTSBot(iterations, policy=policy, seed=seed),
                             threes.bots.ISMCTSBot(iterations, rollout_policy=policy, seed=seed)],
                            games=games, seed=seed, game=game, verbose=True)
    return str(res)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compare", action="store_true", help="iterations/s against ISMCTSBot, both games")
    ap.add_argument("--iterations", type=int, default=500)
    ap.add_argument("--games", type=int, default=0, help="play this many duplicate deals against ISMCTSBot")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", default="shithead", help="the game of the strength tournament: "
                    + ", ".join(registry.names()))
    args = ap.parse_args()
    if args.compare or not args.games:
        print(f"Python ISMCTS against the C ISMCTSBot, {args.iterations} iterations a search, best of 3, "
              "every registered game (a row as each is measured):", flush=True)
        compare(args.iterations, lambda line: print(line, flush=True))
    if args.games:
        print(strength(args.games, args.iterations, args.seed, args.game))


if __name__ == "__main__":
    main()
