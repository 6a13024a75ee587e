"""Full-game rollouts in C: one game, or batches on native threads.

Policies (chosen per seat): ``"random"`` (uniform over the legal actions,
swap phase included), ``"greedy"`` (lowest plain rank with every copy, powers
kept for when nothing else goes, strongest cards face up) and ``"heuristic"``
(greedy that also burns big piles and keeps the pressure on with its powers).
See src/threes_core/shithead/rollout.h for their exact definitions.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple, Union

import numpy as np

from threes.args import threads_arg
from threes.places import place_value
from threes.shithead import _core

#: Policy names, in the C engine's order.
POLICIES: Tuple[str, ...] = ("random", "greedy", "heuristic")


def _policy_ids(policy: Union[str, Sequence[str]], num_players: int) -> List[int]:
    if isinstance(policy, str):
        names = [policy] * num_players
    else:
        try:
            names = list(policy)
        except TypeError:
            raise TypeError(f"policy must be a name or one name per seat, not {type(policy).__name__}") from None
        if len(names) != num_players:
            raise ValueError(f"one policy per seat: {num_players} needed, {len(names)} given")
    ids = []
    for name in names:
        if not isinstance(name, str) or name.strip().lower() not in POLICIES:
            raise ValueError(f"unknown policy {name!r}: choose one of {', '.join(POLICIES)}")
        ids.append(POLICIES.index(name.strip().lower()))
    return ids




def _threads(threads: Optional[int]) -> int:
    return threads_arg(threads, _core.MAX_THREADS)


_NAMES: dict = {}


def _policy_names(pol: bytes) -> Tuple[str, ...]:
    names = _NAMES.get(pol)
    if names is None:
        names = _NAMES[pol] = tuple(POLICIES[i] for i in pol)
    return names


@dataclass(frozen=True)
class RolloutResult:
    """The games of one batch, game i in row i.

    places     (n, N) int8: finishing place of each seat (0 = first out,
               N-1 = shithead); -1 for a seat still in when the game was
               truncated at the move cap
    moves      (n,) uint32: moves played in each game
    truncated  (n,) bool: the game ended unfinished: at the move cap, or as
               a stalemate by repetition (scored alike, RULES.md section 7)
    stalemate  (n,) bool: the game ended by repetition (rules
               ``repetition_limit``); ``truncated & ~stalemate`` hit the cap
    policies   the policy name of each seat
    seed       the batch's seed, 0..2**64-1 (game i uses a seed derived
               from (seed, i))
    threads    the thread count the batch was played with
    seconds    wall-clock seconds the batch took (not compared by ``==``)
    """

    places: np.ndarray
    moves: np.ndarray
    truncated: np.ndarray
    policies: Tuple[str, ...]
    seed: int
    threads: int
    seconds: float = field(compare=False)
    stalemate: Optional[np.ndarray] = None  # None: all False (built without it)

    def __post_init__(self):
        if self.stalemate is None:
            object.__setattr__(self, "stalemate", np.zeros(self.truncated.shape, dtype=bool))

    @property
    def num_games(self) -> int:
        """The number of games n (the rows of ``places``)."""
        return int(self.places.shape[0])

    @property
    def num_players(self) -> int:
        """The number of seats N (the columns of ``places``)."""
        return int(self.places.shape[1])

    def _open_place_mean(self) -> np.ndarray:
        """Per game, the mean of the places still open (for seats still in)."""
        n_out = (self.places >= 0).sum(axis=1)
        return (n_out + self.num_players - 1) / 2.0

    @property
    def mean_place(self) -> np.ndarray:
        """Mean place per seat; in a truncated game the seats still in count
        the mean of the open places (RULES.md section 7)."""
        if self.num_games == 0:
            return np.full(self.num_players, np.nan)
        p = self.places.astype(np.float64)
        fill = np.broadcast_to(self._open_place_mean()[:, None], p.shape)
        return np.where(self.places >= 0, p, fill).mean(axis=0)

    @property
    def win_rate(self) -> np.ndarray:
        """Fraction of games each seat finished first."""
        return (self.places == 0).mean(axis=0) if self.num_games else np.full(self.num_players, np.nan)

    @property
    def shithead_rate(self) -> np.ndarray:
        """Fraction of games each seat was the shithead (never in a truncated game)."""
        if not self.num_games:
            return np.full(self.num_players, np.nan)
        return (self.places == self.num_players - 1).mean(axis=0)

    @property
    def returns(self) -> np.ndarray:
        """(n, N) returns as State.returns() gives them."""
        n = self.num_players
        place = np.where(self.places >= 0, self.places.astype(np.float64),
                         np.broadcast_to(self._open_place_mean()[:, None], self.places.shape))
        return place_value(place, n)

    @property
    def mean_moves(self) -> float:
        """Mean moves per game; NaN for an empty batch."""
        return float(self.moves.mean()) if self.num_games else float("nan")

    @property
    def truncated_rate(self) -> float:
        """Fraction of games that ended truncated (at the move cap or as a stalemate); NaN for an empty batch."""
        return float(self.truncated.mean()) if self.num_games else float("nan")

    @property
    def stalemate_rate(self) -> float:
        """Fraction of games that ended as a stalemate by repetition; NaN for an empty batch."""
        return float(self.stalemate.mean()) if self.num_games else float("nan")

    @property
    def games_per_second(self) -> float:
        """Games per wall-clock second (all threads together); inf when ``seconds`` is 0."""
        return self.num_games / self.seconds if self.seconds > 0 else float("inf")

    @property
    def ns_per_move(self) -> float:
        """Wall-clock nanoseconds per move played (all threads together); NaN when no move was played."""
        total = int(self.moves.sum())
        return self.seconds * 1e9 / total if total else float("nan")

    def summary(self) -> str:
        """A table per seat and the totals, as text."""
        lines = [f"{self.num_games} games, {self.threads} thread(s), {self.seconds:.3f} s: "
                 f"{self.games_per_second:,.0f} games/s, {self.ns_per_move:.1f} ns/move, "
                 f"{self.mean_moves:.1f} moves/game, {int(self.truncated.sum())} truncated"
                 f" ({int(self.stalemate.sum())} by stalemate)",
                 f"{'seat':>4}  {'policy':<9}  {'win':>6}  {'shithead':>8}  {'mean place':>10}"]
        for q in range(self.num_players):
            lines.append(f"{q:>4}  {self.policies[q]:<9}  {self.win_rate[q]:>6.3f}  "
                         f"{self.shithead_rate[q]:>8.3f}  {self.mean_place[q]:>10.3f}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (f"RolloutResult(games={self.num_games}, players={self.num_players}, "
                f"policies={self.policies}, mean_moves={self.mean_moves:.1f}, "
                f"truncated={int(self.truncated.sum())}, stalemate={int(self.stalemate.sum())})")


_POLICY_BYTES: dict = {}


def _policy_bytes(policy: Union[str, Sequence[str]], num_players: int) -> bytes:
    """The policy ids of `policy` for `num_players` seats as bytes, resolved
    once per (policy, num_players) and then looked up (rollout's fast path)."""
    key = (policy if isinstance(policy, str) else tuple(policy) if isinstance(policy, (list, tuple)) else None,
           num_players)
    b = _POLICY_BYTES.get(key) if key[0] is not None else None
    if b is None:
        b = bytes(_policy_ids(policy, num_players))
        if key[0] is not None and len(_POLICY_BYTES) < 1024:
            _POLICY_BYTES[key] = b
    return b


# The fast paths live in the binding (their docstrings there): a search
# calls them in its inner loop.
rollout = _core.rollout
rollouts = _core.rollouts
