"""Tournaments with duplicate deals.

``threes.tournament(bots, games, seed)`` seats N bots at an N-player table
and plays every deal N times, rotating the seats, so each bot plays each deal
from every seat: luck of the deal cancels out. For each bot it reports the
mean place (0 = first out, N-1 = shithead), the win rate and the shithead
rate with 95% intervals that stay in the possible range. The deal is the
independent unit (the games of one deal are not independent):

- rates (win, shithead / last place): the Wilson score interval, with the
  effective sample size of the deal-level variance, p(1-p) * deals / s^2 for
  s^2 the variance of the per-deal rates (Korn and Graubard's design effect),
  clipped to deals..games; ``deals`` when every deal gives the same rate (0%
  and 100% included). Always within [0, 1], never empty for 0% or 100%.
- mean place: a percentile bootstrap over deals, 2000 resamples drawn with an
  rng seeded from the tournament seed (the same result for the same seed),
  within [0, N-1]; [0, N-1] itself for a single deal.

The method names are in the table's header and in the JSON (``intervals``).

A game cut at the move cap, or ended as a stalemate by repetition
(RULES.md section 7), gives the players still in the mean of the open places
(as ``returns()`` does) and counts as neither a win nor a shithead for them.
The two endings are counted apart (threes.places.end_reason): ``truncated``
is the number of games cut at the move cap, ``stalemates`` the number of
stalemates, in the result, its table and its JSON.

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
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from threes import _engine, _stop, registry
from threes.places import MOVE_CAP, STALEMATE, end_reason, place_of_return
from threes.bots import make_bot, play_game
from threes.args import MAX_GAMES, int_arg, threads_arg
from threes.args import seed64 as _seed64

__all__ = ["tournament", "TournamentResult"]


def _mix(seed: int, *parts: int) -> int:
    """A 64-bit seed for one part of the tournament: the batch seed derivation
    of the C engine (th_batch_seed), applied part by part."""
    for p in parts:
        seed = _engine.batch_seed(seed, p)
    return seed


#: z for a two-sided 95% interval.
_Z = 1.959963984540054
#: Bootstrap resamples of the mean place interval.
_BOOTSTRAP = 2000
#: The interval methods, by statistic (in the table header and the JSON).
INTERVAL_METHODS = {
    "mean_place": f"percentile bootstrap over deals ({_BOOTSTRAP} resamples, seeded from the tournament seed)",
    "win_rate": "Wilson score interval, effective sample size from the deal-level variance",
    "shithead_rate": "Wilson score interval, effective sample size from the deal-level variance",
}


def _wilson(per_deal: np.ndarray, games_per_deal: int) -> Dict[str, float]:
    """Wilson score 95% interval of a rate from its per-deal values (each the
    mean of `games_per_deal` 0/1 outcomes), with the design-effect sample
    size p(1-p) * deals / s^2 clipped to deals..games (deals when s^2 = 0)."""
    d = len(per_deal)
    if d == 0:
        return {"mean": float("nan"), "low": float("nan"), "high": float("nan")}
    p = float(per_deal.mean())
    var = float(per_deal.var(ddof=1)) if d > 1 else 0.0
    n = float(d)
    if var > 0 and 0 < p < 1:
        n = min(max(p * (1 - p) * d / var, float(d)), float(d * games_per_deal))
    z2 = _Z * _Z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = _Z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return {"mean": p, "low": min(max(0.0, centre - half), p), "high": max(min(1.0, centre + half), p)}


def _bootstrap(per_deal: np.ndarray, top: float, seed: int) -> Dict[str, float]:
    """Percentile bootstrap 95% interval of the mean over deals, resampling
    deals with an rng seeded by `seed`; [0, top] for a single deal."""
    d = len(per_deal)
    if d == 0:
        return {"mean": float("nan"), "low": float("nan"), "high": float("nan")}
    mean = float(per_deal.mean())
    if d == 1:
        return {"mean": mean, "low": 0.0, "high": float(top)}
    rng = np.random.default_rng(seed)
    means = np.empty(_BOOTSTRAP)
    step = max(1, 4_000_000 // d)  # resamples per batch: bounded memory for many deals
    for lo in range(0, _BOOTSTRAP, step):
        hi = min(_BOOTSTRAP, lo + step)
        means[lo:hi] = per_deal[rng.integers(0, d, size=(hi - lo, d))].mean(axis=1)
    low, high = np.quantile(means, [0.025, 0.975])
    return {"mean": mean, "low": float(min(max(low, 0.0), mean)), "high": float(max(min(high, top), mean))}


@dataclass
class TournamentResult:
    """Per bot: ``mean_place``, ``win_rate`` and ``shithead_rate``, each a dict
    with mean, low and high (95%), in ``stats`` (one dict per bot, in the
    order of ``bots``, its name under ``"bot"``). ``places[d, r, b]`` is bot
    b's place in rotation r of deal d (a float: truncated games share the
    open places). ``truncated``: the games cut at the move cap;
    ``stalemates``: the games ended by repetition (not counted in
    ``truncated``). ``bots``: the bots' names (``#i`` added when two are
    alike); ``num_players``: the seats; ``rules``: the variant; ``game``: the
    registry name of the game; ``deals``: the duplicate deals, each played
    ``num_players`` times; ``seed``: the tournament seed; ``seconds``: the
    wall time."""

    bots: List[str]
    num_players: int
    rules: str  #: the variant: a Shithead rule set's name, else the game's registry name
    deals: int
    seed: int
    places: np.ndarray
    truncated: int  #: games cut at the move cap
    seconds: float
    stats: List[Dict[str, Any]] = field(default_factory=list)
    game: str = "shithead"  #: the registry name of the game played
    stalemates: int = 0  #: games ended as a stalemate by repetition (not in truncated)

    def __post_init__(self) -> None:
        n = self.num_players
        self.stats = []
        for b, name in enumerate(self.bots):
            per_deal = self.places[:, :, b]
            self.stats.append({
                "bot": name,
                "mean_place": _bootstrap(per_deal.mean(axis=1), n - 1, _mix(self.seed, 0xB0075, b)),
                "win_rate": _wilson((per_deal == 0).mean(axis=1), n),
                "shithead_rate": _wilson((per_deal == n - 1).mean(axis=1), n),
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
            f"{variant}, {self.num_players} players, seed {self.seed}, {self.truncated} truncated at the move cap, "
            f"{self.stalemates} stalemates, "
            f"{self.seconds:.0f} s; 95% intervals, the deal as the unit: mean place by "
            f"{INTERVAL_METHODS['mean_place']}; rates by {INTERVAL_METHODS['win_rate']}",
            "",
            f"| bot | mean place (0 = {info.first_place}) | win rate | {info.last_place} rate |",
            "|---|---|---|---|",
        ]
        for s in rows:
            lines.append(f"| {s['bot']} | {cell(s['mean_place'], False)} | {cell(s['win_rate'], True)} | "
                         f"{cell(s['shithead_rate'], True)} |")
        return "\n".join(lines)

    def to_json(self) -> Dict[str, Any]:
        """The result as a JSON-able dict: the game, bots, seats, rules, deals, seed, games played, truncated
        and stalemate counts, seconds, ``intervals`` (level 0.95 and each statistic's method) and ``stats``."""
        return {"game": self.game, "bots": self.bots, "num_players": self.num_players, "rules": self.rules,
                "deals": self.deals,
                "seed": self.seed, "games": self.deals * self.num_players, "truncated": self.truncated,
                "stalemates": self.stalemates, "seconds": self.seconds,
                "intervals": {"level": 0.95, **INTERVAL_METHODS}, "stats": self.stats}

    def save(self, path: str) -> None:
        """Writes ``to_json()`` to the file ``path`` as indented JSON (replacing the file)."""
        with open(path, "w") as f:
            json.dump(self.to_json(), f, indent=2)

    def __str__(self) -> str:
        return self.table()


def _places(state) -> np.ndarray:
    """Place of each seat from its return, (N-1-2*place)/(N-1): 0 = first
    out (or lowest score); shared places (a truncated Shithead game, equal
    Three Thirteen totals) give the mean of the places they share."""
    return place_of_return(state.returns(), state.num_players())


def _play_deal(bots: Sequence, game: Any, seed: int, d: int) -> Tuple[np.ndarray, int, int]:
    """Deal d of a tournament among `bots` (seat order of rotation 0), every
    rotation: (places[r, b] of bot b in rotation r, games truncated at the
    move cap, stalemates). A pure function of (bots' specs, game, seed, d):
    the deal from _mix(seed, d), the bots reset with _mix(seed, d, r, q + 1)
    and the game's own draws from _mix(seed, d, r)."""
    n = len(bots)
    places = np.zeros((n, n))
    truncated = stalemates = 0
    state = game.new_initial_state(_mix(seed, d))
    for r in range(n):
        seat_bot = [(q + r) % n for q in range(n)]  # bot index at each seat
        for q in range(n):
            b = bots[seat_bot[q]]
            if hasattr(b, "reset"):
                b.reset(_mix(seed, d, r, q + 1))
        final = play_game([bots[i] for i in seat_bot], state, _mix(seed, d, r))
        p = _places(final)
        reason = end_reason(final)
        truncated += reason == MOVE_CAP
        stalemates += reason == STALEMATE
        for q in range(n):
            places[r, seat_bot[q]] = p[q]
    return places, int(truncated), int(stalemates)


def _play_deal_range(bots: Sequence, game: Any, seed: int, lo: int, hi: int) -> Tuple[np.ndarray, list, list]:
    """Deals [lo, hi) (a chunk of a tournament on a cluster, threes.cluster):
    (places[d - lo], truncated per deal, stalemates per deal)."""
    n = len(bots)
    places = np.zeros((hi - lo, n, n))
    truncated, stalemates = [], []
    for d in range(lo, hi):
        places[d - lo], t, s = _play_deal(bots, game, seed, d)
        truncated.append(t)
        stalemates.append(s)
    return places, truncated, stalemates


def tournament(bots: Sequence, games: int, seed: Optional[int] = None, rules: Any = "threes",
               max_moves: Optional[int] = None, workers: Optional[int] = 1, verbose: bool = False,
               json_path: Optional[str] = None, game: Any = None, *, backend: str = "local",
               address: Optional[str] = None, chunk: Optional[int] = None,
               progress: Optional[Callable[[int], None]] = None) -> TournamentResult:
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
    total first). Bot specs are checked against the game's policies.

    ``backend="ray"`` plays the deals on a Ray cluster (``address`` as in
    threes.cluster.connect; ``workers`` is then not used) in chunks of
    ``chunk`` deals (default: sized from the time of the first deal, which
    the caller plays; see threes.cluster), with the same result as here; the
    bots are pickled to the workers (each chunk with its own copies).
    ``progress(deals_done)`` is called as deals (on Ray: chunks) finish."""
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)):  # ValueError, as it always was
        raise ValueError(f"games must be an int in 1..{MAX_GAMES}, not {games!r}")
    games = int_arg(games, "games", 1, MAX_GAMES)
    if backend == "local" and workers is not None:
        workers = threads_arg(workers, _engine.MAX_THREADS, "workers")
    if backend not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', not {backend!r}")
    if backend == "local" and (address is not None or chunk is not None):
        raise ValueError("address and chunk are for backend='ray'")
    n = len(bots)
    if game is None:
        game = registry.default().load().Game(n, rules, max_moves)  # Shithead, with rules
    info = registry.game_of(game)  # a TypeError for an object of no registered game
    if game.num_players() != n:
        raise ValueError(f"the {info.title} game seats {game.num_players()} players, {n} bots given")
    base = [make_bot(b, game=info) for b in bots]
    names = [getattr(b, "name", type(b).__name__) for b in base]
    if len(set(names)) != n:
        names = [f"{nm}#{i}" for i, nm in enumerate(names)]
    seed = _seed64(seed)
    places = np.zeros((int(games), n, n))
    truncated = [0] * int(games)  # per deal: games cut at the move cap
    stalemates = [0] * int(games)  # per deal: games ended by repetition
    t0 = time.perf_counter()
    count = [0]
    lock = threading.Lock()

    def finished(k: int) -> None:
        if progress is not None or verbose:
            with lock:
                count[0] += k
                done = count[0]
            if progress is not None:
                progress(done)
            if verbose:
                print(f"  deal {done}/{games} ({time.perf_counter() - t0:.0f} s)", flush=True)

    if backend == "ray":
        from threes import cluster

        chunk = cluster._check_chunk(chunk)
        ray = cluster.connect(address)
        cpus = cluster.cluster_cpus(ray)
        places[0], truncated[0], stalemates[0] = _play_deal(copy.deepcopy(base), game, seed, 0)  # the pilot
        finished(1)
        spans = [(lo + 1, hi + 1) for lo, hi in
                 cluster.plan(int(games) - 1, time.perf_counter() - t0, cpus, chunk)]
        parts = cluster.run_chunks(_play_deal_range, [(base, game, seed, lo, hi) for lo, hi in spans], address,
                                   lambda done: finished(done - count[0]), [hi - lo for lo, hi in spans], 1)
        for (lo, hi), (p, t, s) in zip(spans, parts):
            places[lo:hi] = p
            truncated[lo:hi] = t
            stalemates[lo:hi] = s
        workers = cpus
    else:
        workers = threads_arg(workers, _engine.MAX_THREADS)

    def play_deals(worker: int) -> None:
        mine = copy.deepcopy(base) if workers > 1 else base
        for d in range(worker, int(games), workers):
            places[d], truncated[d], stalemates[d] = _play_deal(mine, game, seed, d)
            finished(1)

    if backend == "ray":
        pass
    elif workers == 1:
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
                              time.perf_counter() - t0, game=info.name, stalemates=sum(stalemates))
    if verbose:
        print(result.table())
    if json_path:
        result.save(json_path)
    return result
