"""A Card's equality and hash agree: ``a == b`` implies ``hash(a) == hash(b)``,
so sets and dicts mixing Cards and card text find what compares equal."""
from threes import Card
from threes.cards import CARDS, _TEXT


def spellings(card):
    """Every spelling the parser takes for ``card``, and a few it does not."""
    t = str(card)
    forms = {t, t.lower(), t.upper(), t.swapcase(), f" {t} ", f"{t} ", f"\t{t}\n", t[0].lower() + t[1]}
    if card.rank == "T":
        forms |= {"10" + t[1], "10" + t[1].upper(), f" 10{t[1]} "}
    forms |= {t + "x", t[::-1], "", "Zz", t[0], "1" + t[1]}
    return forms


def test_every_card_equals_only_what_hashes_alike():
    checked = 0
    others = list(CARDS) + [Card(c) for c in ("Ah", "th", "10h")] + [s for c in CARDS for s in spellings(c)]
    for card in CARDS:
        for other in others:
            if card == other:
                assert hash(card) == hash(other), (card, other)
                assert other == card, (card, other)
                checked += 1
            else:
                assert not other == card and card != other
    assert checked >= 2 * len(CARDS)


def test_the_canonical_text_is_the_one_equal_str():
    for card in CARDS:
        equal = [s for s in spellings(card) if card == s]
        assert equal == [_TEXT[card.kind]], (card, equal)
        for s in spellings(card) - {str(card)}:
            assert card != s


def test_sets_and_dicts_find_what_compares_equal():
    # the report: Card('Th') == 'th' was true but 'th' in {Card('Th')} false
    th = Card("Th")
    assert "Th" in {th} and th in {"Th"} and {th: 1}["Th"] == 1 and {"Th": 1}[th] == 1
    for s in ("th", "10h", " Th ", "TH"):
        assert (th == s) == (s in {th}) == (th in {s}) is False
        assert Card(s) in {th} and th in {Card(s)} and {th: 1}[Card(s)] == 1
    assert len({*CARDS, *(str(c) for c in CARDS)}) == len(CARDS)
    lower = {str(c).lower() for c in CARDS} - {str(c) for c in CARDS}  # "ah", "td"; not "2c"
    assert len(lower) == 22 and len({*CARDS, *lower}) == len(CARDS) + len(lower)
    for card in CARDS:
        for s in spellings(card):
            assert (s in {card}) == (card == s) == (s in {card: None})
            assert (card in {s}) == (card == s)
