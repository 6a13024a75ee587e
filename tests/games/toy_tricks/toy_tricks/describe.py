"""Toy Tricks in words (its ``narrate``, ``narrate_all``, ``explain`` and ``rules_text`` hooks)."""
from __future__ import annotations

from typing import Any, List, Optional, Sequence

__all__ = ["describe_event", "describe_events", "explain_moves", "rules_text"]


def _who(seat: Optional[int], viewer: Optional[int], names: Optional[Sequence[str]]) -> str:
    if seat is None:
        return "the table"
    if viewer is not None and seat == viewer:
        return "you"
    return names[seat] if names is not None and seat < len(names) else f"seat {seat}"


def describe_event(event: Any, viewer: Optional[int] = None, names: Optional[Sequence[str]] = None) -> str:
    """One event in a sentence from ``viewer``'s seat."""
    who = _who(event.seat, viewer, names)
    cards = " ".join(str(c) for c in event.cards)
    if event.kind == "play":
        return f"{who} {'play' if who == 'you' else 'plays'} {cards}"
    if event.kind == "trick":
        return f"{who} {'win' if who == 'you' else 'wins'} the trick {cards} ({event.value} this deal)"
    if event.kind == "deal":
        return f"deal {event.value}: {who} {'lead' if who == 'you' else 'leads'}"
    if event.kind == "truncated":
        return "the game is cut at the move cap"
    return "the game is over"


def describe_events(events: Sequence[Any], viewer: Optional[int] = None,
                    names: Optional[Sequence[str]] = None) -> List[str]:
    """A move's events, a sentence each."""
    return [describe_event(e, viewer, names) for e in events]


def explain_moves(state: Any, seat: int) -> List[str]:
    """Why the moves are what they are: any card of the hand may be played."""
    if state.is_terminal() or state.current_player() != seat:
        return []
    return ["any card of your hand may be played: there is no suit to follow"]


def rules_text(state: Any) -> List[str]:
    """The rules of a table in words."""
    f = state.to_dict()
    best = "lowest" if f["low_wins"] else "highest"
    return [f"{f['hand_size']} cards each a deal; the {best} rank wins a trick (the earlier card on a tie)",
            f"the game ends after the deal in which a seat reaches {f['target']} tricks in all"]
