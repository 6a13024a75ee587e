"""Cards, ranks and suits, and their text forms (RULES.md section 1).

A card is written rank then suit: ``Ah``, ``Td``, ``2c``; jokers are ``Xr``
and ``Xb``. Ranks in value order are ``2 3 4 5 6 7 8 9 T J Q K A X`` (X, the
joker, has value 15). The canonical order of cards is rank, then suit
``c d h s`` (jokers ``r b``).

Both games use this one card type and this one parser of card text. A
Card's ``kind`` is its index in the canonical order (the Shithead engine's
encoding); Three Thirteen converts Cards to its own engine's kinds in one
place, ``threes.three_thirteen.card_to_kind`` / ``kind_to_card``.
"""
from __future__ import annotations

import operator

from functools import total_ordering
from typing import Union

__all__ = ["Card", "CARDS", "RANKS", "SUITS", "JOKER_SUITS", "parse_cards", "format_cards", "card_kind", "rank_index",
           "rank_text"]

#: Rank characters by rank index (0 = "2" ... 12 = "A", 13 = "X", the joker).
RANKS = "23456789TJQKAX"
#: Suit characters of the normal cards, in canonical order.
SUITS = "cdhs"
#: Suit characters of the jokers, in canonical order.
JOKER_SUITS = "rb"

#: Text of every card kind: 4 * rank index + suit for the 52 normal cards, then
#: the two jokers (the C core's encoding, src/threes_core/shithead/cards.h).
_TEXT = tuple(r + s for r in RANKS[:-1] for s in SUITS) + tuple("X" + s for s in JOKER_SUITS)
#: Card text -> kind, for the canonical text and its lower-case form (the
#: parser's lookup table; every other spelling is normalized first).
_KIND = {**{t.lower(): k for k, t in enumerate(_TEXT)}, **{t: k for k, t in enumerate(_TEXT)}}
_RANK_ALIASES = {"10": "T", "JOKER": "X", "JK": "X"}


def rank_index(rank: Union[str, int]) -> int:
    """Rank index 0..13 of a rank given as text (``"2"``..``"9"``, ``"T"`` or
    ``"10"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``, ``"X"`` or ``"joker"``) or as
    its value (2..15)."""
    if isinstance(rank, bool):
        raise TypeError("a rank is a string such as '7' or 'K', or a value 2..15, not a bool")
    if not isinstance(rank, str):
        try:
            v = operator.index(rank)  # an int, or a numpy integer
        except TypeError:
            raise TypeError(f"a rank is a string such as '7' or 'K', or a value 2..15, not "
                            f"{type(rank).__name__}") from None
        if 2 <= v <= 15:
            return v - 2
        shown = str(v) if -10**12 < v < 10**12 else ("a negative number" if v < 0 else "a larger number")
        raise ValueError(f"a rank value is 2..15 (15 = joker), not {shown}")
    t = rank.strip().upper()
    t = _RANK_ALIASES.get(t, t)
    if len(t) == 1 and t in RANKS:
        return RANKS.index(t)
    raise ValueError(f"{rank!r} is not a rank: use one of 2 3 4 5 6 7 8 9 T J Q K A X")


def rank_text(index: int) -> str:
    """The rank character of rank index 0..13."""
    return RANKS[index]


@total_ordering
class Card:
    """One card, identified by its kind (0..53, canonical order).

    >>> Card("Ah"), Card.parse("10d"), str(Card("Xr"))
    (Card('Ah'), Card('Td'), 'Xr')
    """

    __slots__ = ("kind",)

    def __init__(self, card: Union[str, int, "Card"]):
        if isinstance(card, Card):
            kind = card.kind
        elif isinstance(card, str):
            kind = Card._parse_kind(card)
        elif isinstance(card, int) and not isinstance(card, bool):
            if not 0 <= card < len(_TEXT):
                raise ValueError(f"a card kind is 0..{len(_TEXT) - 1}, not {card}")
            kind = card
        else:
            raise TypeError(f"a card is text such as 'Ah' or a kind 0..53, not {type(card).__name__}")
        object.__setattr__(self, "kind", kind)

    def __setattr__(self, name, value):
        raise AttributeError("Card is immutable")

    @staticmethod
    def _parse_kind(text: str) -> int:
        """The parser of card text (the only one): ``Ah``, ``ah``, ``10d``,
        `` Td ``, ``Xr``; raises ValueError for anything else."""
        k = _KIND.get(text)
        if k is not None:
            return k
        t = text.strip()
        if t[:2] == "10":
            t = "T" + t[2:]
        k = _KIND.get(t.lower())
        if k is None:
            raise ValueError(f"{text!r} is not a card: write rank then suit, e.g. 'Ah', 'Td', '2c', or 'Xr'/'Xb'")
        return k

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Parses ``Ah``, ``td``, ``10d`` or ``Xr``."""
        if not isinstance(text, str):
            raise TypeError(f"Card.parse takes a string, not {type(text).__name__}")
        return cls(text)

    @property
    def rank(self) -> str:
        """Rank character: ``2``..``9``, ``T``, ``J``, ``Q``, ``K``, ``A`` or ``X``."""
        return RANKS[self.kind >> 2]

    @property
    def rank_index(self) -> int:
        """Rank index 0..13 (0 = ``2`` ... 12 = ``A``, 13 = the joker): the index of ``rank`` in ``RANKS``."""
        return self.kind >> 2

    @property
    def suit(self) -> str:
        """Suit character: ``c d h s``, or ``r b`` for the jokers."""
        return _TEXT[self.kind][1]

    @property
    def value(self) -> int:
        """Value for comparisons: 2..14 (ace high), 15 for a joker."""
        return (self.kind >> 2) + 2

    @property
    def is_joker(self) -> bool:
        """True for the two jokers (``Xr``, ``Xb``: kinds 52 and 53)."""
        return self.kind >= 52

    def __str__(self) -> str:
        return _TEXT[self.kind]

    def __repr__(self) -> str:
        return f"Card('{_TEXT[self.kind]}')"

    def __eq__(self, other) -> bool:
        # A Card equals another Card of its kind, and a str only when the str
        # is its canonical text ("Ah", "Td", "Xr"): like an enum.StrEnum member
        # and its value. Other spellings ("ah", "10d", " Ah ") parse to the card
        # but do not compare equal to it, since they cannot hash alike (a == b
        # must imply hash(a) == hash(b), or sets and dicts break). Write
        # Card("10d") to compare a spelling.
        if isinstance(other, Card):
            return self.kind == other.kind
        if isinstance(other, str):
            return other == _TEXT[self.kind]
        return NotImplemented

    def __lt__(self, other) -> bool:
        if isinstance(other, Card):
            return self.kind < other.kind
        return NotImplemented

    def __hash__(self) -> int:
        # The hash of its canonical text, the only str it equals.
        return hash(_TEXT[self.kind])

    def __reduce__(self):
        return (Card, (self.kind,))


def card_kind(card: Union[str, "Card"]) -> int:
    """The kind (0..53) of a Card or of card text such as ``"Ah"`` or
    ``"10d"``. An int is not taken: the games' engines number cards
    differently, so a bare number is ambiguous."""
    if type(card) is str:
        return Card._parse_kind(card)
    if isinstance(card, Card):
        return card.kind
    if isinstance(card, str):
        return Card._parse_kind(str(card))
    raise TypeError(f"a card is a Card or text such as 'Ah', not {type(card).__name__}")


#: The Card of every kind (Cards are immutable, so they can be shared).
CARDS = tuple(Card(k) for k in range(len(_TEXT)))


def parse_cards(text: str) -> list:
    """Cards from text separated by spaces or commas: ``"Ah Td 2c"``."""
    if not isinstance(text, str):
        raise TypeError(f"parse_cards takes a string such as 'Ah Td', not {type(text).__name__}")
    return [CARDS[Card._parse_kind(t)] for t in text.replace(",", " ").split()]


def format_cards(cards) -> str:
    """Cards as text separated by spaces."""
    return " ".join(str(c) for c in cards)
