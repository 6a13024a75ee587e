"""The result of a batch of rollouts, the same type for every game.

``threes.rollouts(game_or_state, n, ...)`` returns a :class:`RolloutResult`
whatever the game: game i in row i of each array, the columns the seats.
A game whose players finish one after another (Shithead) fills ``places``;
a game scored by totals (Three Thirteen) fills ``totals`` and its returns;
everything else (ranks, returns, win and last-place rates, mean place,
speed) is read the same way for both, so generic code (the tournament, the
command line, the cluster) never asks which game it holds.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Tuple

import numpy as np

from threes.places import place_value

__all__ = ["RolloutResult"]


@dataclass(frozen=True)
class RolloutResult:
    """The games of one batch, game i in row i.

    places     (n, N) int8 or None: finishing place of each seat (0 = first
               out, N-1 = last, Shithead's shithead); -1 for a seat still in
               when the game was truncated. None for a game scored by totals
    moves      (n,) uint32: moves played in each game
    truncated  (n,) bool: the game ended unfinished: at the move cap, or as
               a stalemate by repetition (scored alike, RULES.md section 7)
    policies   the policy name of each seat
    seed       the batch's seed, 0..2**64-1 (game i uses a seed derived
               from (seed, i))
    threads    the thread count the batch was played with
    seconds    wall-clock seconds the batch took (not compared by ``==``)
    stalemate  (n,) bool: the game ended by repetition (Shithead's
               ``repetition_limit``; all False in a game without that rule);
               ``truncated & ~stalemate`` hit the cap
    totals     (n, N) int32 or None: each seat's final score, lower is
               better (Three Thirteen); None for a game of places
    """

    places: Optional[np.ndarray]
    moves: np.ndarray
    truncated: np.ndarray
    policies: Tuple[str, ...]
    seed: int
    threads: int
    seconds: float = field(compare=False)
    stalemate: Optional[np.ndarray] = None  # None: all False
    totals: Optional[np.ndarray] = None
    _returns: Optional[np.ndarray] = field(default=None, repr=False)  # a game of totals: its returns, from C

    def __post_init__(self):
        if self.places is None and self.totals is None:
            raise ValueError("a RolloutResult has places or totals")
        if self.stalemate is None:
            object.__setattr__(self, "stalemate", np.zeros(self.truncated.shape, dtype=bool))

    @property
    def num_games(self) -> int:
        """The number of games n (the rows)."""
        return int(self.moves.shape[0])

    @property
    def num_players(self) -> int:
        """The number of seats N (the columns)."""
        return len(self.policies)

    @property
    def ranks(self) -> np.ndarray:
        """(n, N) int: each seat's place, 0 = best. ``places`` where the game
        has them (-1 for a seat still in when truncated); from ``totals``, the
        number of seats with a strictly lower total (seats that tie share the
        better place)."""
        if self.places is not None:
            return self.places
        t = self.totals
        return (t[:, None, :] < t[:, :, None]).sum(axis=2)

    def _open_place_mean(self, ranks: np.ndarray) -> np.ndarray:
        """Per game, the mean of the places still open (for seats still in)."""
        n_out = (ranks >= 0).sum(axis=1)
        return (n_out + self.num_players - 1) / 2.0

    def _filled_places(self) -> np.ndarray:
        """(n, N) float places, a seat still in counting the mean of the open places (RULES.md section 7)."""
        r = self.ranks
        fill = np.broadcast_to(self._open_place_mean(r)[:, None], r.shape)
        return np.where(r >= 0, r.astype(np.float64), fill)

    @property
    def returns(self) -> np.ndarray:
        """(n, N) returns as State.returns() gives them."""
        if self._returns is not None:
            return self._returns
        return place_value(self._filled_places(), self.num_players)

    @property
    def mean_place(self) -> np.ndarray:
        """Mean place per seat (0 = best); in a truncated game the seats still
        in count the mean of the open places (RULES.md section 7)."""
        if self.num_games == 0:
            return np.full(self.num_players, np.nan)
        return self._filled_places().mean(axis=0)

    @property
    def win_rate(self) -> np.ndarray:
        """Fraction of games each seat finished first (a game of totals: had
        the lowest total, alone or shared)."""
        return (self.ranks == 0).mean(axis=0) if self.num_games else np.full(self.num_players, np.nan)

    @property
    def last_place_rate(self) -> np.ndarray:
        """Fraction of games each seat finished last alone (Shithead: the
        shithead, never in a truncated game)."""
        if not self.num_games:
            return np.full(self.num_players, np.nan)
        return (self.ranks == self.num_players - 1).mean(axis=0)

    shithead_rate = last_place_rate  # Shithead's name for the last place

    @property
    def mean_score(self) -> np.ndarray:
        """Mean final total per seat (lower is better; a game of totals only:
        AttributeError for a game of places); NaN for an empty batch."""
        if self.totals is None:
            raise AttributeError("mean_score: this game has places, not scores (see mean_place)")
        return self.totals.mean(axis=0) if self.num_games else np.full(self.num_players, np.nan)

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
                 f" ({int(self.stalemate.sum())} by stalemate)"]
        scores = self.totals is not None
        lines.append(f"{'seat':>4}  {'policy':<9}  {'win':>6}  {'last':>6}  {'mean place':>10}"
                     + (f"  {'mean score':>10}" if scores else ""))
        win, last, place = self.win_rate, self.last_place_rate, self.mean_place
        mean_score = self.mean_score if scores else None
        for q in range(self.num_players):
            lines.append(f"{q:>4}  {self.policies[q]:<9}  {win[q]:>6.3f}  {last[q]:>6.3f}  {place[q]:>10.3f}"
                         + (f"  {mean_score[q]:>10.1f}" if scores else ""))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (f"RolloutResult(games={self.num_games}, players={self.num_players}, "
                f"policies={self.policies}, mean_moves={self.mean_moves:.1f}, "
                f"truncated={int(self.truncated.sum())}, stalemate={int(self.stalemate.sum())})")
