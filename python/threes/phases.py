"""The one phase type of every game: each game's ``Phase`` (``threes.Phase``
for Shithead: swap, play, over; ``threes.three_thirteen.Phase``: draw,
discard, over) is a :class:`GamePhase`, a ``str`` enum, so a front end reads
any game's ``state.phase`` the same way::

    >>> import threes
    >>> from threes.phases import GamePhase
    >>> phase = threes.Game(3).new_initial_state(1).phase
    >>> isinstance(phase, GamePhase), phase == "swap", str(phase), phase.value
    (True, True, 'swap', 'swap')
"""
from enum import Enum

__all__ = ["GamePhase"]


class GamePhase(str, Enum):
    """The base of every game's ``Phase`` (an enum with no members of its own): a phase is equal to its
    name as text (``Phase.OVER == "over"``), and ``str()`` and f-strings give that text. Every game's
    phases end with ``"over"``."""

    def __str__(self) -> str:
        return self.value
