"""threes.Card is the one card type of both games and cards.py holds the one
parser of card text: every place that reads a card (Shithead and Three
Thirteen alike) accepts the same spellings and rejects bad text with the
same message, and both engines' card kinds round-trip through Card."""
import pathlib
import re

import pytest
import threes
from threes import Card, three_thirteen as tt
from threes.cards import CARDS, RANKS, SUITS, card_kind, parse_cards
from threes.shithead import _core as sh_core

ALL_TEXT = [r + s for r in RANKS[:-1] for s in SUITS] + ["Xr", "Xb"]
TT_RANKS = "A23456789TJQK"


# ----------------------------------------------------------- the one Card --


def test_every_kind_round_trips_through_its_text():
    assert len(CARDS) == 54
    for k, c in enumerate(CARDS):
        assert c == Card(k) and c.kind == k and card_kind(c) == k
        assert Card(str(c)) == c and eval(repr(c)) == c
        assert str(c) == ALL_TEXT[k]


def test_card_text_matches_the_shithead_engine():
    for k in range(sh_core.NUM_KINDS):
        assert sh_core.kind_text(k) == str(Card(k))


@pytest.mark.parametrize("text,canonical", [("Ah", "Ah"), ("ah", "Ah"), ("AH", "Ah"), ("10d", "Td"), ("td", "Td"),
                                            (" Td\t", "Td"), ("xr", "Xr"), ("XB", "Xb"), ("10H", "Th")])
def test_spellings(text, canonical):
    assert str(Card(text)) == canonical
    assert card_kind(text) == Card(canonical).kind
    assert tt.card_to_kind(text) == tt.card_to_kind(canonical)
    assert parse_cards(f"{text}, 2c") == [Card(canonical), Card("2c")]


def test_card_kind_types():
    assert card_kind(Card("Kd")) == Card("Kd").kind
    for bad in (5, True, None, b"Ah", 1.0):
        with pytest.raises(TypeError, match="a card is a Card or text"):
            card_kind(bad)
    with pytest.raises(ValueError, match="is not a card"):
        card_kind("Zz")


def test_cards_compare_with_their_text_and_hash_alike():
    assert Card("Ah") == "Ah" and Card("Td") == "Td" and Card("ah") == Card("Ah") and Card("10d") == Card("Td")
    assert Card("Ah") != "ah" and Card("Td") != "10d"  # only the canonical text, which hashes alike
    assert {Card("Ah"), "Ah"} == {"Ah"}
    assert sorted([Card("Ah"), Card("2c"), Card("Xb"), Card("Td")]) == ["2c", "Td", "Ah", "Xb"]


# ------------------------------------------------------------ one parser --

BAD_TEXTS = ["Zz", "1h", "Xs", "Ahh", "11h"]


def _messages(text):
    """The message of every place that reads card text, for one bad text."""
    out = {}

    def grab(name, f):
        with pytest.raises(ValueError) as info:
            f()
        out[name] = str(info.value)

    grab("Card", lambda: Card(text))
    grab("parse_cards", lambda: parse_cards(f"2c {text}"))
    grab("tt.card_to_kind", lambda: tt.card_to_kind(text))
    grab("tt.min_deadwood", lambda: tt.min_deadwood(["2c", text], "3"))
    grab("tt.min_deadwood text", lambda: tt.min_deadwood(f"2c {text}", "3"))
    grab("tt.card_value", lambda: tt.card_value(text, "3"))
    s = tt.Game(2).new_initial_state(1)
    grab("tt.string_to_action", lambda: s.string_to_action(f"discard {text}"))
    d = s.to_dict()
    d["hands"][0][0] = text
    grab("tt.State.from_dict", lambda: tt.State.from_dict(d))
    sd = threes.Game(2).new_initial_state(1).to_dict()
    sd["hands"][0][0] = text
    grab("threes.State.from_dict", lambda: threes.State.from_dict(sd))
    return out


@pytest.mark.parametrize("text", BAD_TEXTS)
def test_bad_text_gives_the_one_parsers_message_everywhere(text):
    expected = f"{text!r} is not a card: write rank then suit, e.g. 'Ah', 'Td', '2c', or 'Xr'/'Xb'"
    for where, message in _messages(text).items():
        assert expected in message, (where, message)


def test_no_other_card_parser_in_the_package():
    root = pathlib.Path(threes.__file__).parent
    sources = [p for p in root.rglob("*") if p.suffix in (".py", ".pyx")]
    hits = [p.relative_to(root).as_posix() for p in sources if "is not a card" in p.read_text()]
    assert hits == ["cards.py"]
    for name in ("parse_card", "_EXACT_KIND", "_KIND_OF"):
        defined = [p.name for p in sources if re.search(rf"^(def {name}\b|{name} = )", p.read_text(), re.M)]
        assert defined == [], (name, defined)
    assert not hasattr(tt, "parse_card") and not hasattr(tt, "card_text")


# ------------------------------------------- Three Thirteen's kinds via Card --


def test_three_thirteen_kinds_round_trip_through_card():
    seen = set()
    for t in range(54):
        c = tt.kind_to_card(t)
        assert isinstance(c, Card) and tt.card_to_kind(c) == t and tt.card_to_kind(str(c)) == t
        seen.add(c)
    assert seen == set(CARDS)
    for c in CARDS:
        assert tt.kind_to_card(tt.card_to_kind(c)) is c


def test_three_thirteen_kind_is_four_rank_minus_one_plus_suit():
    # docs/three_thirteen/RULES.md: kind = 4 * (rank - 1) + suit, A = 1 .. K = 13, suits c d h s; jokers 52, 53
    for r, rank in enumerate(TT_RANKS, start=1):
        for s, suit in enumerate(SUITS):
            assert tt.card_to_kind(rank + suit) == 4 * (r - 1) + s
    assert tt.card_to_kind("Xr") == 52 and tt.card_to_kind("Xb") == 53


def test_three_thirteen_engine_reads_the_ranks_and_suits_it_is_given():
    # the C engine's values: A counts 1, 2..9 their face, T J Q K 10 (wild rank 3: none of these is wild)
    for rank, value in zip(TT_RANKS, (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)):
        if rank != "3":
            assert tt.card_value(Card(rank + "h"), "3") == value
    # suits: a run needs one suit, whatever the spelling of its cards
    assert tt.min_deadwood([Card("4h"), "5h", "6H"], "K")[0] == 0
    assert tt.min_deadwood([Card("4h"), "5d", "6h"], "K")[0] == 15


def test_kind_to_card_bad_input():
    for bad in (-1, 54):
        with pytest.raises(ValueError, match=r"0\.\.53"):
            tt.kind_to_card(bad)
    for bad in (True, "Ah", 1.0, None):
        with pytest.raises(TypeError):
            tt.kind_to_card(bad)
