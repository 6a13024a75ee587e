"""Exhaustive reference for the minimum deadwood of a Three Thirteen hand.

Pure Python, written to be obviously correct rather than fast (fine up to
about 10 cards): it tries every partition of the hand into melds and leftover
cards, checking each candidate meld straight from the wording of the rules in
docs/three_thirteen/RULES.md (sections Melds, Going out and scoring, Options, T-4..T-8):

- A card of the round's wild rank, or a joker, is wild and may stand for any
  card in a meld. It never counts as a natural card (so with wild rank K,
  Ks Kh Kd is a meld only when all-wild melds are allowed).
- A set: 3 or more cards whose natural cards all share one rank (any suits,
  identical cards allowed).
- A run: 3 or more cards whose natural cards share one suit and fit, at
  distinct positions, into a window of as many consecutive positions as there
  are cards. Positions are A=1 .. K=13; with ace="either" alternatively
  2 .. K=13, A=14 (Q-K-A). Never K-A-2, and an ace is low or high, not both.
- With all_wild_melds=False a meld needs at least one natural card.
- Leftover values: A 1 (15 with ace="either"), 2..10 face, J Q K 10, joker 20,
  a card of the wild rank its face value, or 20 with wild_penalty=20.

Cards are strings: rank A 2..9 T J Q K and suit c d h s ("Ah", "Td", "7s"),
"Xr" / "Xb" for the jokers. wild_rank is 1..13 or a rank letter ("K").

    >>> min_deadwood_reference(["Qh", "Kh", "Ah"], "3", ace="either")
    0
"""

from functools import lru_cache
from itertools import combinations

RANKS = "A23456789TJQK"  # rank r is RANKS[r - 1]
SUITS = "cdhs"
JOKERS = ("Xr", "Xb")


def parse_card(text):
    """(rank, suit): rank 1..13 and suit 0..3, or (0, 0) for a joker."""
    if not isinstance(text, str) or len(text) != 2:
        raise ValueError(f"a card is two characters like 'Ah', 'Td' or 'Xr', not {text!r}")
    if text in JOKERS:
        return (0, 0)
    if text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError(f"unknown card {text!r}: rank one of {RANKS}, suit one of {SUITS}, or Xr / Xb")
    return (RANKS.index(text[0]) + 1, SUITS.index(text[1]))


def parse_wild_rank(wild_rank):
    if isinstance(wild_rank, bool):
        raise ValueError("wild_rank must be 1..13 or a rank letter, not a bool")
    if isinstance(wild_rank, int):
        if 1 <= wild_rank <= 13:
            return wild_rank
        raise ValueError(f"wild_rank must be between 1 (A) and 13 (K), not {wild_rank}")
    if isinstance(wild_rank, str) and len(wild_rank) == 1 and wild_rank in RANKS:
        return RANKS.index(wild_rank) + 1
    if wild_rank == "10":
        return 10
    raise ValueError(f"wild_rank must be 1..13 or one of {' '.join(RANKS)}, not {wild_rank!r}")


def _check_options(ace, all_wild_melds, wild_penalty):
    if ace not in ("low", "either"):
        raise ValueError(f"ace must be 'low' or 'either', not {ace!r}")
    if not isinstance(all_wild_melds, bool):
        raise ValueError(f"all_wild_melds must be True or False, not {all_wild_melds!r}")
    if wild_penalty not in ("face", 20, "20"):
        raise ValueError(f"wild_penalty must be 'face' or 20, not {wild_penalty!r}")


def is_wild(card, wild_rank):
    rank, _ = card
    return rank == 0 or rank == wild_rank


def card_value(card, wild_rank, ace="low", wild_penalty="face"):
    rank, _ = card
    if rank == 0:
        return 20
    if rank == wild_rank and wild_penalty in (20, "20"):
        return 20
    if rank == 1:
        return 15 if ace == "either" else 1
    return min(rank, 10)


def is_set(cards, wild_rank):
    naturals = [c for c in cards if not is_wild(c, wild_rank)]
    return len(cards) >= 3 and len({rank for rank, _ in naturals}) <= 1


def is_run(cards, wild_rank, ace="low"):
    if len(cards) < 3:
        return False
    naturals = [c for c in cards if not is_wild(c, wild_rank)]
    if len({suit for _, suit in naturals}) > 1:
        return False
    orderings = [(1, 13, False)]  # (lowest position, highest position, ace high)
    if ace == "either":
        orderings.append((2, 14, True))
    for bottom, top, ace_high in orderings:
        positions = [14 if (ace_high and rank == 1) else rank for rank, _ in naturals]
        if len(set(positions)) != len(positions):
            continue
        for lo in range(bottom, top - len(cards) + 2):
            hi = lo + len(cards) - 1
            if all(lo <= p <= hi for p in positions):
                return True
    return False


def is_meld(cards, wild_rank, ace="low", all_wild_melds=True):
    """cards: a list of (rank, suit) pairs."""
    if len(cards) < 3:
        return False
    if not all_wild_melds and all(is_wild(c, wild_rank) for c in cards):
        return False
    return is_set(cards, wild_rank) or is_run(cards, wild_rank, ace)


def min_deadwood_reference(cards, wild_rank, ace="low", all_wild_melds=True, wild_penalty="face"):
    """The minimum deadwood, by trying every partition of the hand."""
    _check_options(ace, all_wild_melds, wild_penalty)
    wr = parse_wild_rank(wild_rank)
    hand = [parse_card(c) for c in cards]
    values = [card_value(c, wr, ace, wild_penalty) for c in hand]

    @lru_cache(maxsize=None)
    def best(remaining):
        """remaining: a sorted tuple of card indexes not yet placed."""
        if not remaining:
            return 0
        first, rest = remaining[0], remaining[1:]
        result = values[first] + best(rest)  # the first card left over
        for size in range(2, len(rest) + 1):  # or in a meld with `size` others
            for others in combinations(rest, size):
                if is_meld([hand[first]] + [hand[i] for i in others], wr, ace, all_wild_melds):
                    left = tuple(i for i in rest if i not in others)
                    result = min(result, best(left))
        return result

    return best(tuple(range(len(hand))))


# (cards, wild rank, options, expected): the brief's examples and more.
EXAMPLES = [
    ("3h 4h 5h 6h 7h", "K", {}, 0),
    ("7h 7h 7s 7c 7d", "K", {}, 0),
    ("Qh Kh 3c", "3", {}, 0),
    ("Kh Ah 2h", "9", {}, 13),
    ("Kh Ah 2h", "9", {"ace": "either"}, 27),
    ("Qh Kh Ah", "3", {}, 21),
    ("Qh Kh Ah", "3", {"ace": "either"}, 0),
    ("Ks Kh Kd", "K", {}, 0),
    ("Ks Kh Kd", "K", {"all_wild_melds": False}, 30),
    ("Ks 2c 9d", "K", {}, 21),
    ("Ks 2c 9d", "K", {"wild_penalty": 20}, 31),
    ("3h 5h 7h Xr Xb", "K", {"all_wild_melds": False}, 0),
    ("3h 7h Xr Xb", "K", {"all_wild_melds": False}, 3),
    ("9c 7c Kd", "K", {"all_wild_melds": False}, 0),
    ("9c 6c Kd", "K", {"all_wild_melds": False}, 25),
    ("5h 6h Xr Xb", "9", {"all_wild_melds": False}, 0),
    ("Kh Ah Xr", "9", {}, 31),
    ("Kh Ah Xr", "9", {"ace": "either"}, 0),
    ("Ah 4h Xr", "9", {}, 25),
    ("Ah 5c 9d", "K", {"ace": "either"}, 29),
    ("7h 7h Xr", "K", {"all_wild_melds": False}, 0),
    ("7h 7h 7h 8h 9h 9h", "K", {}, 23),
    ("6h 7h 8h", "7", {"all_wild_melds": False}, 0),
    ("7h 7s 7c", "7", {"all_wild_melds": False}, 21),
    ("7h 7s 7c", "7", {"all_wild_melds": False, "wild_penalty": 20}, 60),
    ("Xr Xb 3h", "3", {}, 0),
    ("Xr Xb 3h", "3", {"all_wild_melds": False}, 43),
    ("Xr Xb", "3", {}, 40),
    ("", "3", {}, 0),
    ("2c 3c 5c Kh Ks Xr", "9", {}, 10),  # melding the most cards is not the least deadwood
    ("Ah 2h 3h 4h 5s 5d 5c 9c Tc Jc", "K", {"all_wild_melds": False}, 0),
]


def _self_check():
    failures = 0
    for text, wild, options, expected in EXAMPLES:
        got = min_deadwood_reference(text.split(), wild, **options)
        if got != expected:
            failures += 1
            print(f"FAIL {text!r} wild {wild} {options}: expected {expected}, got {got}")
    for bad in (lambda: min_deadwood_reference(["Zz"], "K"),
                lambda: min_deadwood_reference(["Ah"], 14),
                lambda: min_deadwood_reference(["Ah"], "K", ace="high"),
                lambda: min_deadwood_reference(["Ah"], "K", wild_penalty=10)):
        try:
            bad()
        except ValueError:
            continue
        failures += 1
        print("FAIL: bad input accepted")
    print(f"{len(EXAMPLES)} examples, {failures} failures")
    return failures


if __name__ == "__main__":
    raise SystemExit(1 if _self_check() else 0)
