"""What a move did: the events of an action, in order, for both games.

``state.apply(move)`` returns the events of that move, computed by the C core
from the state before and after it (``src/threes_core/<game>/events.c``); they
are small frozen values, the same for every game::

    >>> import threes
    >>> state = threes.Game(2).new_initial_state(seed=3)
    >>> while state.phase == "swap":
    ...     _ = state.apply(state.legal_actions()[0])
    >>> events = state.apply(state.legal_actions()[0])
    >>> events[0].kind
    'play'

An event names what happened (``kind``), to whom (``seat``), with which cards
(``cards``, :class:`threes.cards.Card` values) and how many (``count``), and,
by kind, where from (``source``), why or how (``detail``), a number
(``value``) and melds (``melds``). A ``private`` event's cards are its seat's
to see only (cards drawn from a face-down stock or draw pile): its
:meth:`Event.view` for any other seat keeps ``count`` and drops ``cards``.
Every other event is public by the rules (RULES.md section 2,
THREE_THIRTEEN.md "What each player knows").

Shithead kinds:

==========  =========================================================================
kind        fields
==========  =========================================================================
swap        seat; cards: the cards it keeps face up (4.2)
start       seat: who plays first (section 5)
play        seat; source ``hand``, ``face_up`` or ``hand+face_up``; cards played
blind       seat; cards: the face-down card turned; detail ``played`` or ``picked_up``
burn        seat: whose play burned; detail ``burn_card`` or ``run`` (value: the run's length); cards burned
draw        seat; count; cards drawn from the draw pile (private)
pickup      seat; cards picked up (the pile; with a failed blind card, it too)
again       seat: plays again (a burn, or a pick-up under pickup_then_play)
out         seat; value: its place, 1 = first; detail ``last`` for the shithead, else None
stalemate   the game ended at the repetition limit (no seat)
truncated   the game ended at the move cap (no seat)
over        the game is over (finish order: ``state.finish_order()``)
==========  =========================================================================

Three Thirteen kinds:

==========  =========================================================================
kind        fields
==========  =========================================================================
draw        seat; source ``stock`` (private: the card) or ``discard`` (public)
reshuffle   count: the discard pile, less its top card, shuffled into a new stock
discard     seat; cards: the card discarded
go_out      seat; cards: the hand laid down; melds
last_turns  seat: who went out; value: turns left, one for each other player
round_end   value: the round scored; detail ``went_out`` or ``stock_empty``
score       seat; cards: its hand, shown; melds; value: the points it scores
            (0 when it went out, detail ``out``); every seat, in seat order
round       value: the new round; seat: its dealer; cards: the discard pile's first card
truncated   the game ended at the move cap
over        the game is over
==========  =========================================================================

A meld is ``(type, cards)`` with type ``"set"`` or ``"run"``.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .cards import Card

__all__ = ["Event", "from_core"]


@dataclass(frozen=True)
class Event:
    """One thing a move did (see the module's tables for each kind's fields)."""

    kind: str
    seat: Optional[int] = None
    cards: Tuple[Card, ...] = ()
    count: int = 0
    source: Optional[str] = None
    detail: Optional[str] = None
    value: Optional[int] = None
    melds: Tuple[Tuple[str, Tuple[Card, ...]], ...] = ()
    private: bool = False

    @property
    def hidden(self) -> bool:
        """True in an observer's view of a private event: ``count`` cards, not shown."""
        return self.private and len(self.cards) < self.count

    def view(self, seat: Optional[int]) -> "Event":
        """This event as ``seat`` sees it (None: a spectator): a private event's cards are dropped for every
        seat but its own; everything else is public and unchanged."""
        if not self.private or (seat is not None and seat == self.seat):
            return self
        return replace(self, cards=())

    def to_dict(self) -> Dict[str, Any]:
        """A JSON-ready dict: cards as text (``"Td"``), melds as ``[type, [cards]]``."""
        return {"kind": self.kind, "seat": self.seat, "cards": [str(c) for c in self.cards], "count": self.count,
                "source": self.source, "detail": self.detail, "value": self.value,
                "melds": [[t, [str(c) for c in cs]] for t, cs in self.melds], "private": self.private}

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "Event":
        """The inverse of :meth:`to_dict`."""
        return cls(d["kind"], d.get("seat"), tuple(Card(c) for c in d.get("cards", ())), int(d.get("count", 0)),
                   d.get("source"), d.get("detail"), d.get("value"),
                   tuple((t, tuple(Card(c) for c in cs)) for t, cs in d.get("melds", ())), bool(d.get("private")))


_MELD_TYPES = ("set", "run")


def from_core(raw: Sequence[tuple], kinds: Sequence[str], sources: Sequence[Optional[str]],
              details: Sequence[Optional[str]], card: Callable[[int], Card]) -> List[Event]:
    """Events from the C core's tuples (``threes._engine`` ``events_list``), with a game's names of its event,
    source and detail codes and its card-code converter: the one place both games turn core events into
    Event values."""
    out = []
    new = object.__new__
    for kind, seat, source, detail, private, cards, value, melds in raw:
        cs = tuple(map(card, cards))
        groups = ()
        if melds:
            at, found = 0, []
            for t, n in melds:
                found.append((_MELD_TYPES[t], cs[at:at + n]))
                at += n
            groups = tuple(found)
        name = kinds[kind]
        e = new(Event)  # the fields set as the dataclass's __init__ sets them, without its per-field checks
        v = None if name in _NO_VALUE or (name == "burn" and not value) else value
        e.__dict__.update(kind=name, seat=seat, cards=cs, count=value if name == "reshuffle" else len(cs),
                          source=sources[source], detail=details[detail], value=v, melds=groups, private=private)
        out.append(e)
    return out


#: kinds whose C value carries nothing
_NO_VALUE = frozenset({"swap", "start", "play", "blind", "draw", "pickup", "again", "stalemate", "truncated",
                       "over", "reshuffle", "discard", "go_out"})
