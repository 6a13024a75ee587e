"""Toy Tricks' picture (its ``svg`` hook, threes.svg.render): each seat's hand (the observer's face up,
the others' as backs), the current trick, the tricks won. Drawn with threes.ui.svg's kit."""
from __future__ import annotations

from typing import Any, List, Optional, Sequence

from threes.cards import Card
from threes.ui.svg import (CARD_H, CARD_W, _card_back, _card_face, _check_observer, _check_size, _document, _GAP,
                           _HAND_STEP, _header, _MARGIN, _text)

__all__ = ["render"]


def render(state: Any, observer: Optional[int] = None, size: Optional[float] = None,
           events: Optional[Sequence[Any]] = None) -> str:
    """The table as ``observer`` sees it (a seat, ``"public"`` or None for every card)."""
    p_obs = _check_observer(state, observer)
    scale = _check_size(size)
    f = state.to_dict()
    n = f["num_players"]
    width = 2 * _MARGIN + 160 + 13 * _HAND_STEP + CARD_W
    parts: List[str] = []
    status = "over" if f["over"] else f"seat {f['current']} to move"
    y = _header(parts, 0, width, f"Toy Tricks, deal {f['deal'] + 1}", status, p_obs, None)
    for q in range(n):
        hand = [c for c, o in enumerate(f["owner"]) if o == q]
        parts.append(_text(_MARGIN, y + CARD_H / 2, f"seat {q}: {f['tricks'][q]} ({f['total'][q]} in all)", 13))
        for i, c in enumerate(hand):
            x = _MARGIN + 160 + i * _HAND_STEP
            shown = p_obs is None or p_obs == q
            parts.append(_card_face(x, y, Card(state.action_to_string(c))) if shown else _card_back(x, y))
        y += CARD_H + _GAP
    parts.append(_text(_MARGIN, y + CARD_H / 2, "trick", 13))
    for i, c in enumerate(f["trick"]):
        parts.append(_card_face(_MARGIN + 160 + i * (CARD_W + 6), y, Card(state.action_to_string(c))))
    y += CARD_H + _GAP
    return _document(parts, y, width, scale, "Toy Tricks: the highest card wins the trick"
                     if not f["low_wins"] else "Toy Tricks: the lowest card wins the trick")
