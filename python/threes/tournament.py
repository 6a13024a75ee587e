"""Tournaments with duplicate deals.

``threes.tournament(bots, games, seed)`` seats N bots at an N-player table
and plays every deal N times, rotating the seats, so each bot plays each deal
from every seat: luck of the deal cancels out. For each bot it reports the
mean place (0 = first out, N-1 = shithead), the win rate and the shithead
rate with 95% confidence intervals. The intervals are computed over deals
(each deal's mean over its rotations is one sample), since the games of one
deal are not independent: mean +- 1.96 * sd / sqrt(deals).

A game cut at the move cap gives the players still in the mean of the open
places (as ``returns()`` does) and counts as neither a win nor a shithead for
them.

Any registered game can be played (``game=``, see threes.registry): places
come from the game's returns, and the table's wording from the game's
registry entry (Shithead: "0 = first out", "shithead rate"; Three Thirteen:
"0 = lowest total", "last place rate").
"""
from __future__ import annotations

import copy
import json
import math
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from threes import _stop, registry
from threes.places import place_of_return
from threes.shithead import _core
from threes.bots import make_bot, play_game
from threes.shithead.game import Game, _seed64
from threes.shithead.rollouts import _threads

__all__ = ["tournament", "TournamentResult"]


def _mix(seed: int, *parts: int) -> int:
    """A 64-bit seed for one part of the tournament: the batch seed derivation
    of the C engine (th_batch_seed), applied part by part."""
    for p in parts:
        seed = _core.batch_seed(seed, p)
    return seed


def _interval(samples: np.ndarray) -> Dict[str, float]:
    n = len(samples)
    mean = float(samples.mean()) if n else float("nan")
    half = float(1.96 * samples.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
    return {"mean": mean, "low": mean - half, "high": mean + half}


@dataclass
class TournamentResult:
    """Per bot: ``mean_place``, ``win_rate`` and ``shithead_rate``, each a dict
    with mean, low and high (95%). ``places[d, r, b]`` is bot b's place in
    rotation r of deal d (a float: truncated games share the open places)."""

    bots: List[str]
    num_players: int
    rules: str  #: the variant: a Shithead rule set's name, else the game's registry name
    deals: int
    seed: int
    places: np.ndarray
    truncated: int
    seconds: float
    stats: List[Dict[str, Any]] = field(default_factory=list)
    game: str = "shithead"  #: the registry name of the game played

    def __post_init__(self) -> None:
        n = self.num_players
        self.stats = []
        for b, name in enumerate(self.bots):
            per_deal = self.places[:, :, b]
            self.stats.append({
                "bot": name,
                "mean_place": _interval(per_deal.mean(axis=1)),
                "win_rate": _interval((per_deal == 0).mean(axis=1)),
                "shithead_rate": _interval((per_deal == n - 1).mean(axis=1)),
            })

    def table(self) -> str:
        """The results as a Markdown table, best mean place first."""
        rows = sorted(self.stats, key=lambda s: s["mean_place"]["mean"])

        def cell(iv: Dict[str, float], pct: bool) -> str:
            k = 100.0 if pct else 1.0
            f = "{:.1f}%" if pct else "{:.2f}"
            return f"{f.format(iv['mean'] * k)} [{f.format(iv['low'] * k)}, {f.format(iv['high'] * k)}]"

        info = registry.get(self.game)
        variant = info.title if self.rules == info.name else f"{info.title}, {self.rules} rules"
        lines = [
            f"{self.deals} duplicate deals x {self.num_players} rotations = {self.deals * self.num_players} games, "
            f"{variant}, {self.num_players} players, seed {self.seed}, {self.truncated} truncated, "
            f"{self.seconds:.0f} s; 95% confidence intervals over deals",
            "",
            f"| bot | mean place (0 = {info.first_place}) | win rate | {info.last_place} rate |",
            "|---|---|---|---|",
        ]
        for s in rows:
            lines.append(f"| {s['bot']} | {cell(s['mean_place'], False)} | {cell(s['win_rate'], True)} | "
                         f"{cell(s['shithead_rate'], True)} |")
        return "\n".join(lines)

    def to_json(self) -> Dict[str, Any]:
        return {"game": self.game, "bots": self.bots, "num_players": self.num_players, "rules": self.rules,
                "deals": self.deals,
                "seed": self.seed, "games": self.deals * self.num_players, "truncated": self.truncated,
                "seconds": self.seconds, "stats": self.stats}

    def save(self, path: str) -> None:
        with open(path, "w") as f:
            json.dump(self.to_json(), f, indent=2)

    def __str__(self) -> str:
        return self.table()


def _places(state) -> np.ndarray:
    """Place of each seat from its return, (N-1-2*place)/(N-1): 0 = first
    out (or lowest score); shared places (a truncated Shithead game, equal
    Three Thirteen totals) give the mean of the places they share."""
    return place_of_return(state.returns(), state.num_players())


def tournament(bots: Sequence, games: int, seed: Optional[int] = None, rules: Any = "threes",
               max_moves: Optional[int] = None, workers: Optional[int] = 1, verbose: bool = False,
               json_path: Optional[str] = None, game: Any = None) -> TournamentResult:
    """Plays ``games`` duplicate deals among ``bots`` (one per seat: the table
    has len(bots) players; a bot is an object with ``step`` or a spec such as
    ``"greedy"`` or ``"ismcts:1000"``). Every deal is played once per seat
    rotation. ``workers`` threads play deals in parallel (each with its own
    copies of the bots; ISMCTS searches release the GIL); None uses every
    core. The result does not depend on ``workers``. Ctrl-C raises
    KeyboardInterrupt within a fraction of a second, after every worker
    thread has stopped. With ``verbose`` the
    progress and the table are printed; ``json_path`` saves the JSON result.
    ``game``: a Game of any registered game (threes.registry) to play
    instead of the Shithead ``Game(len(bots), rules, max_moves)``, e.g.
    ``threes.three_thirteen.Game(3)``; ``rules`` and ``max_moves`` are then
    not used. Places come from the game's returns (Three Thirteen: the lowest
    total first). Bot specs are checked against the game's policies."""
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise ValueError(f"games must be an int >= 1, not {games!r}")
    n = len(bots)
    if game is None:
        game = Game(n, rules, max_moves)
    info = registry.game_of(game)  # a TypeError for an object of no registered game
    if game.num_players() != n:
        raise ValueError(f"the {info.title} game seats {game.num_players()} players, {n} bots given")
    base = [make_bot(b, game=info) for b in bots]
    names = [getattr(b, "name", type(b).__name__) for b in base]
    if len(set(names)) != n:
        names = [f"{nm}#{i}" for i, nm in enumerate(names)]
    seed = _seed64(seed)
    workers = _threads(workers)
    places = np.zeros((int(games), n, n))
    truncated = [0] * int(games)
    t0 = time.perf_counter()

    def play_deals(worker: int) -> None:
        mine = copy.deepcopy(base) if workers > 1 else base
        for d in range(worker, int(games), workers):
            state = game.new_initial_state(_mix(seed, d))
            for r in range(n):
                seat_bot = [(q + r) % n for q in range(n)]  # bot index at each seat
                for q in range(n):
                    b = mine[seat_bot[q]]
                    if hasattr(b, "reset"):
                        b.reset(_mix(seed, d, r, q + 1))
                final = play_game([mine[i] for i in seat_bot], state, _mix(seed, d, r))
                p = _places(final)
                truncated[d] += int(final.is_truncated())
                for q in range(n):
                    places[d, r, seat_bot[q]] = p[q]
            if verbose and worker == 0:
                done = d + 1
                print(f"  deal {done}/{games} ({time.perf_counter() - t0:.0f} s)", flush=True)

    if workers == 1:
        play_deals(0)
    else:
        # Workers run under a cancel flag (threes._stop): when the main thread
        # is interrupted (Ctrl-C) or a worker fails, the flag stops the others
        # at their next move or within 20 ms of a search, and every worker
        # thread has ended before the exception leaves this call.
        stop = threading.Event()

        def worker(w: int) -> None:
            with _stop.cancel_on(stop):
                play_deals(w)

        ex = ThreadPoolExecutor(workers)
        try:
            futures = [ex.submit(worker, w) for w in range(workers)]
            for f in futures:
                f.result()
        except BaseException:
            stop.set()
            raise
        finally:
            ex.shutdown(wait=True)
    result = TournamentResult(names, n, info.variant(game), int(games), seed, places, sum(truncated),
                              time.perf_counter() - t0, game=info.name)
    if verbose:
        print(result.table())
    if json_path:
        result.save(json_path)
    return result
