"""Three Thirteen (docs/three_thirteen/RULES.md): the exact minimum-deadwood solver, the
game rules (decisions T-1 .. T-8, going out, scoring, the end), the State API,
the policies, rollouts and bots.

Rule positions are built with State.from_dict (see ``build``): the hands, the
discard pile and the top of the stock are given, every other card of the
deck goes under the stock, and from_dict runs the C invariant check.
"""
from __future__ import annotations

import itertools
import json
import pickle
import random
from collections import Counter

import numpy as np
import pytest
import threes
from reference.three_thirteen_model import min_deadwood_reference
from threes import IllegalActionError
from threes import three_thirteen as tt
from threes.bots import ISMCTSBot, PolicyBot

RANKS = "A23456789TJQK"
SUITS = "cdhs"
NUM_ACTIONS = 110
FIRST_DISCARD = 2
FIRST_OUT = 56
OPTION_COMBOS = list(itertools.product(("low", "either"), (True, False), ("face", 20)))


# ------------------------------------------------------------------ helpers --


def kind(card):
    return tt.card_to_kind(card)


def discard_id(card):
    return FIRST_DISCARD + kind(card)


def out_id(card):
    return FIRST_OUT + kind(card)


def cards(text):
    return text.split()


def rank_of(card):
    """1..13, or 0 for a joker (of a Card or its text)."""
    rank = str(card)[0]
    return 0 if rank == "X" else RANKS.index(rank) + 1


def is_wild(card, wild_rank):
    return rank_of(card) in (0, wild_rank)


def deck_counter(decks, jokers=0):
    c = Counter()
    for r in RANKS:
        for s in SUITS:
            c[r + s] += decks
    for j in ("Xr", "Xb")[:jokers]:
        c[j] += decks
    return c


def all_cards(state):
    out = Counter(state.discard_pile())
    out.update(state.to_dict()["stock"])
    for p in range(state.num_players()):
        out.update(state.hand(p))
    return out


def build(n=2, hands=(), discard=(), stock_top=(), round=1, current=0, phase=0, dealer=None, turns=None,
          totals=None, out_seat=-1, final_turns=0, out_mask=0, taken=None, **options):
    """A State from chosen cards. hands: one text per seat; discard: bottom
    first (top last); stock_top: the next cards drawn, first drawn first.
    Every other card of the deck lies under them in the stock."""
    game = tt.Game(n, **options)
    d = game.new_initial_state(0).to_dict()
    hands = [cards(h) for h in hands]
    discard = list(discard.split() if isinstance(discard, str) else discard)
    stock_top = list(stock_top.split() if isinstance(stock_top, str) else stock_top)
    opts = d["options"]
    rest = deck_counter(opts["decks"], opts["jokers"])
    for c in [c for h in hands for c in h] + discard + stock_top:
        rest[c] -= 1
        assert rest[c] >= 0, f"too many {c}"
    stock = sorted(rest.elements()) + stock_top[::-1]
    d.update({
        "round": round, "dealer": (current - 1) % n if dealer is None else dealer, "current": current,
        "phase": phase, "hands": hands, "discard": discard, "stock": stock, "out_seat": out_seat,
        "final_turns": final_turns, "out_mask": out_mask, "taken_kind": -1 if taken is None else kind(taken),
        "turns": [2] * n if turns is None else list(turns), "totals": [0] * n if totals is None else list(totals),
        "round_scores": [[0] * n for _ in range(round - 1)], "move_count": 0, "history": [],
        # T-9: the hands of seats out are shown, the card taken this turn is known
        "known": [list(hands[q]) if (out_mask >> q) & 1 else ([taken] if taken and q == current else [])
                  for q in range(n)],
        "pool_hand": [[] for _ in range(n)], "pool_active": False,
    })
    return tt.State.from_dict(d)


def go_outs(state):
    return sorted(a for a in state.legal_actions() if a >= FIRST_OUT)


def discards(state):
    return sorted(a for a in state.legal_actions() if FIRST_DISCARD <= a < FIRST_OUT)


GREEDY = PolicyBot("greedy", seed=0)


def play(state, policy="greedy", seed=0, max_steps=100000, until=None):
    """Plays in place with a C policy (or uniformly random legal actions for
    'uniform'); stops at the end or when until(state) holds."""
    rng = random.Random(seed)
    bot = PolicyBot(policy, seed=seed) if policy != "uniform" else None
    for _ in range(max_steps):
        if state.is_terminal() or (until is not None and until(state)):
            return state
        a = rng.choice(state.legal_actions()) if bot is None else bot.step(state)
        state.apply_action(a)
    return state


def game_states(game, seed, policy="greedy", every=1, limit=None):
    """Clones of the states of one game."""
    s = game.new_initial_state(seed)
    rng = random.Random(seed)
    bot = PolicyBot(policy, seed=seed) if policy != "uniform" else None
    out = [s.clone()]
    i = 0
    while not s.is_terminal() and (limit is None or i < limit):
        a = rng.choice(s.legal_actions()) if bot is None else bot.step(s)
        s.apply_action(a)
        i += 1
        if i % every == 0:
            out.append(s.clone())
    return out


# ------------------------------------------------------ solver: arrangement --


def run_positions(card_list, wild_rank, ace_high):
    """Positions of the cards of a run written in run order (None for
    wilds); raises AssertionError if not a run."""
    pos = []
    for c in card_list:
        if is_wild(c, wild_rank):
            pos.append(None)
        else:
            r = rank_of(c)
            pos.append(14 if (ace_high and r == 1) else r)
    return pos


def run_fits(card_list, wild_rank, ace, ordered):
    """True if the cards form a run; with ordered, also in the order given."""
    naturals = [c for c in card_list if not is_wild(c, wild_rank)]
    if len({str(c)[1] for c in naturals}) > 1:
        return False
    n = len(card_list)
    for ace_high, lo_bound, hi_bound in ([(False, 1, 13)] + ([(True, 2, 14)] if ace == "either" else [])):
        pos = run_positions(card_list, wild_rank, ace_high)
        nat = [p for p in pos if p is not None]
        if len(set(nat)) != len(nat):
            continue
        if ordered:
            starts = {p - i for i, p in enumerate(pos) if p is not None}
            if len(starts) > 1:
                continue
            candidates = list(starts) or list(range(lo_bound, hi_bound - n + 2))
            if any(lo_bound <= s and s + n - 1 <= hi_bound for s in candidates):
                return True
        else:
            for lo in range(lo_bound, hi_bound - n + 2):
                if all(lo <= p <= lo + n - 1 for p in nat):
                    return True
    return False


def check_arrangement(hand, wild_rank, ace, awm, wp, value, arr):
    wr = wild_rank if isinstance(wild_rank, int) else RANKS.index(wild_rank) + 1
    placed = [c for _, m in arr["melds"] for c in m] + arr["deadwood"]
    assert Counter(placed) == Counter(hand), (hand, arr)
    for typ, m in arr["melds"]:
        assert typ in ("set", "run"), typ
        assert len(m) >= 3, (hand, m)
        naturals = [c for c in m if not is_wild(c, wr)]
        if not awm:
            assert naturals, f"all-wild meld {m} with all_wild_melds=False ({hand})"
        if typ == "set":
            assert len({rank_of(c) for c in naturals}) <= 1, (hand, m)
        else:
            assert len(m) <= 13, (hand, m)
            assert run_fits(m, wr, ace, ordered=False), f"{m} is no run (ace {ace}, wild {wr}) in {hand}"
            # meld.h: a run's cards are given in run order, wilds where they stand
            assert run_fits(m, wr, ace, ordered=True), f"run {m} not in run order (ace {ace}, wild {wr})"
    dead = sum(tt.card_value(c, wild_rank, ace=ace, wild_penalty=wp) for c in arr["deadwood"])
    assert dead == value, (hand, arr, value)


SPEC_EXAMPLES = [
    ("3h 4h 5h 6h 7h", "K", {}, 0),
    ("7h 7h 7s 7c 7d", "K", {}, 0),
    ("Qh Kh 3c", "3", {}, 0),
    ("Kh Ah 2h", "9", {}, 13),
    ("Qh Kh Ah", "3", {}, 21),
    ("Qh Kh Ah", "3", {"ace": "either"}, 0),
    ("Ks Kh Kd", "K", {}, 0),
    ("Ks Kh Kd", "K", {"all_wild_melds": False}, 30),
    ("Ks 2c 9d", "K", {}, 21),
    ("Ks 2c 9d", "K", {"wild_penalty": 20}, 31),
]


@pytest.mark.parametrize("text,wild,opts,expected", SPEC_EXAMPLES)
def test_solver_spec_examples(text, wild, opts, expected):
    value, arr = tt.min_deadwood(text, wild, **opts)
    assert value == expected
    assert min_deadwood_reference(cards(text), wild, **opts) == expected
    check_arrangement(cards(text), wild, opts.get("ace", "low"), opts.get("all_wild_melds", True),
                      opts.get("wild_penalty", "face"), value, arr)
    # a list of cards works as well as a text
    assert tt.min_deadwood(cards(text), wild, **opts)[0] == expected


MORE_EXAMPLES = [
    ("Kh Ah 2h", "9", {"ace": "either"}, 27),  # no K-A-2 even with a high ace; a leftover ace scores 15
    ("Ah 2h 3h", "9", {}, 0),
    ("Jh Qh Kh Ah", "3", {"ace": "either"}, 0),
    ("Kh Ah Xr", "9", {}, 31),
    ("Kh Ah Xr", "9", {"ace": "either"}, 0),
    ("2c 3c 5c Kh Ks Xr", "9", {}, 10),  # T-7: least deadwood, not most melded cards
    ("2c 3c 5c Kh Ks 6h", "6", {}, 10),
    ("Xr Xb 3h", "3", {}, 0),
    ("Xr Xb 3h", "3", {"all_wild_melds": False}, 43),
    ("7h 7h Xr", "K", {"all_wild_melds": False}, 0),
    ("3h 5h 7h Xr Xb", "K", {"all_wild_melds": False}, 0),
    ("7h 7s 7c", "7", {"all_wild_melds": False, "wild_penalty": 20}, 60),
    ("", "3", {}, 0),
]


@pytest.mark.parametrize("text,wild,opts,expected", MORE_EXAMPLES)
def test_solver_more_examples(text, wild, opts, expected):
    value, arr = tt.min_deadwood(text, wild, **opts)
    assert value == expected
    check_arrangement(cards(text), wild, opts.get("ace", "low"), opts.get("all_wild_melds", True),
                      opts.get("wild_penalty", "face"), value, arr)


def test_card_values():
    for r in range(1, 14):
        for s in SUITS:
            c = RANKS[r - 1] + s
            for wr in (3, 7, 13):
                face = min(r, 10) if r != 1 else 1
                assert tt.card_value(c, wr) == face
                assert tt.card_value(c, wr, ace="either") == (15 if r == 1 else face)
                assert tt.card_value(c, wr, wild_penalty=20) == (20 if r == wr else face)
    assert tt.card_value("Ah", "A", ace="either") == 15  # a wild ace keeps its value under face penalty
    assert tt.card_value("Ah", "A", ace="either", wild_penalty=20) == 20
    for j in ("Xr", "Xb"):
        assert tt.card_value(j, "3") == 20
        assert tt.card_value(j, "3", wild_penalty=20) == 20


# Every card of two 52-card decks, each joker twice.
TWO_DECKS = [r + s for r in RANKS for s in SUITS] * 2 + ["Xr", "Xb"] * 2


def random_hand(rng, n, wild_rank, kind="uniform"):
    """kind: uniform (from two decks and four jokers), rich (meld-rich: a
    window of ranks in one to three suits, both copies, plus wilds), or wild
    (1..6 wild cards with naturals close together)."""
    if kind == "uniform":
        return rng.sample(TWO_DECKS, n)
    if kind == "rich":
        lo = rng.randint(1, 13)
        ranks = [(lo - 1 + i) % 13 + 1 for i in range(rng.randint(3, 6))]
        suits = rng.sample(SUITS, rng.randint(1, 3))
        pool = [RANKS[r - 1] + s for r in ranks for s in suits] * 2 + [RANKS[wild_rank - 1] + s for s in SUITS]
        pool += ["Xr", "Xb"]
        if n <= len(pool):
            return rng.sample(pool, n)
        return [rng.choice(pool) for _ in range(n)]
    w = rng.randint(1, min(n, 6))
    wilds = [RANKS[wild_rank - 1] + s for s in SUITS] * 2 + ["Xr", "Xb"] * 2
    lo, suit = rng.randint(1, 13), rng.choice(SUITS)
    near = [RANKS[(lo - 1 + i) % 13] + s for i in range(5) for s in (suit, rng.choice(SUITS))]
    near = [c for c in near if not is_wild(c, wild_rank)]
    return rng.sample(wilds, w) + [rng.choice(near) for _ in range(n - w)]


# Hands per size checked against the exhaustive reference: (uniform, meld-rich,
# wild-heavy). The reference's cost grows steeply with the size (measured: a
# meld-rich hand of 10 cards ~15 ms, 12 cards ~130 ms, 13 ~0.4 s, 14 ~1.4 s;
# uniform hands are ~15x cheaper). Counts: 3..8 cards 500 each (200 + 200 +
# 100); 9: 460; 10: 280; 11: 96; 12: 46; 13: 22 (12 + 8 + 2); 14: 11 (6 + 4 + 1).
# 3,915 hands in all, about 22 s; every option combination, random wild ranks.
CROSS_CHECK = {3: (200, 200, 100), 4: (200, 200, 100), 5: (200, 200, 100), 6: (200, 200, 100),
               7: (200, 200, 100), 8: (200, 200, 100), 9: (200, 200, 60), 10: (120, 120, 40),
               11: (40, 40, 16), 12: (20, 20, 6), 13: (12, 8, 2), 14: (6, 4, 1)}


# hands of 11 to 14 cards take 3 to 10 s each against the reference: the full suite's
@pytest.mark.parametrize("size", [pytest.param(n, marks=pytest.mark.full if n >= 11 else ()) for n in sorted(CROSS_CHECK)])
def test_solver_matches_reference(size):
    rng = random.Random(1000 + size)
    counts = CROSS_CHECK[size]
    kinds = [k for k, c in zip(("uniform", "rich", "wild"), counts) for _ in range(c)]
    combos_seen = set()
    for i, hand_kind in enumerate(kinds):
        ace, awm, wp = OPTION_COMBOS[(i + 3 * size) % len(OPTION_COMBOS)]
        combos_seen.add((ace, awm, wp))
        wr = rng.randint(1, 13)
        hand = random_hand(rng, size, wr, hand_kind)
        wild = wr if rng.random() < 0.5 else RANKS[wr - 1]
        value, arr = tt.min_deadwood(hand, wild, ace=ace, all_wild_melds=awm, wild_penalty=wp)
        expected = min_deadwood_reference(hand, wild, ace=ace, all_wild_melds=awm, wild_penalty=wp)
        assert value == expected, f"{' '.join(hand)} wild {wild} ace={ace} all_wild_melds={awm} wild_penalty={wp}"
        check_arrangement(hand, wild, ace, awm, wp, value, arr)
        # the same hand in another order has the same value; the same input the same arrangement
        shuffled = hand[:]
        rng.shuffle(shuffled)
        assert tt.min_deadwood(shuffled, wild, ace=ace, all_wild_melds=awm, wild_penalty=wp)[0] == value
        assert tt.min_deadwood(hand, wild, ace=ace, all_wild_melds=awm, wild_penalty=wp) == (value, arr)
    assert len(combos_seen) == min(8, len(kinds))


def test_solver_many_hands_arrangements_valid():
    """Only the C solver (fast), 14-card meld-rich hands: every arrangement valid."""
    rng = random.Random(77)
    for i in range(5000):
        ace, awm, wp = OPTION_COMBOS[i % 8]
        wr = rng.randint(1, 13)
        n = rng.randint(10, 14)
        hand = random_hand(rng, n, wr, ("uniform", "rich", "wild")[i % 3])
        value, arr = tt.min_deadwood(hand, wr, ace=ace, all_wild_melds=awm, wild_penalty=wp)
        check_arrangement(hand, wr, ace, awm, wp, value, arr)
        # an upper bound: never more than all the cards' values
        assert 0 <= value <= sum(tt.card_value(c, wr, ace=ace, wild_penalty=wp) for c in hand)


def test_solver_bad_input():
    with pytest.raises(ValueError):
        tt.min_deadwood("Zz 3h 4h", "K")
    with pytest.raises(ValueError):
        tt.min_deadwood("1h", "K")
    with pytest.raises(ValueError):
        tt.min_deadwood("3x", "K")
    with pytest.raises(TypeError):
        tt.min_deadwood([3, 4, 5], "K")
    with pytest.raises(ValueError):
        tt.min_deadwood(["Ah"] * 15, "K")
    tt.min_deadwood(["Ah"] * 14, "K")  # 14 is the limit
    for bad_wild in (0, 14, -1, "Z", "11", "", "KK"):
        with pytest.raises((ValueError, TypeError)):
            tt.min_deadwood("3h 4h 5h", bad_wild)
    with pytest.raises((ValueError, TypeError)):
        tt.min_deadwood("3h 4h 5h", True)
    with pytest.raises(ValueError):
        tt.min_deadwood("3h 4h 5h", "K", ace="high")
    with pytest.raises(ValueError):
        tt.min_deadwood("3h 4h 5h", "K", wild_penalty=10)
    with pytest.raises(ValueError):
        tt.min_deadwood("3h 4h 5h", "K", wild_penalty="zero")
    with pytest.raises(TypeError):
        tt.min_deadwood("3h 4h 5h", "K", all_wild_melds="yes")
    with pytest.raises(ValueError):
        tt.card_value("Qq", "K")
    with pytest.raises(ValueError):
        tt.card_value("Qh", 14)
    # alternative spellings that are accepted
    assert tt.min_deadwood("10h Jh Qh", "3")[0] == 0
    assert tt.min_deadwood("Th Jh Qh", 10)[0] == 0
    assert tt.min_deadwood("Th Jh Qh", "10")[0] == 0


# --------------------------------------------------------------- the rules --


def test_t1_default_decks():
    expected = {2: 1, 3: 2, 4: 2, 5: 3, 6: 3, 7: 4, 8: 4}
    for n, decks in expected.items():
        g = tt.Game(n)
        assert g.options()["decks"] == decks
        s = g.new_initial_state(3)
        assert sum(all_cards(s).values()) == 52 * decks
        assert all_cards(s) == deck_counter(decks)
    s = tt.Game(3, jokers=2).new_initial_state(1)
    assert all_cards(s) == deck_counter(2, 2)
    assert tt.Game(2, decks=2).options()["decks"] == 2
    for bad in ({"decks": 0}, {"jokers": 3}, {"ace": "high"}, {"wild_penalty": 5}):
        with pytest.raises((ValueError, TypeError)):
            tt.Game(2, **bad)
    for n in (0, 1, 9):
        with pytest.raises(ValueError):
            tt.Game(n)
    with pytest.raises(ValueError):
        tt.Game(6, decks=1)  # not enough cards for round 11


@pytest.mark.parametrize("n", [2, 3, 5])
def test_t1_rounds_deal_wild_rank_and_dealer(n):
    g = tt.Game(n)
    decks = g.options()["decks"]
    s = g.new_initial_state(11 + n)
    first_dealer = s.to_dict()["dealer"]
    seen_rounds = []
    while not s.is_terminal():
        d = s.to_dict()
        if d["move_count"] == 0 or (seen_rounds and seen_rounds[-1] != s.round()):
            k = s.round()
            seen_rounds.append(k)
            assert s.wild_rank() == RANKS[k + 1]  # 3 .. K
            assert all(len(s.hand(p)) == k + 2 for p in range(n))
            assert len(s.discard_pile()) == 1
            assert s.stock_size() == 52 * decks - n * (k + 2) - 1
            assert d["dealer"] == (first_dealer + k - 1) % n
            assert d["current"] == (d["dealer"] + 1) % n
            assert s.phase == "draw" and d["out_seat"] == -1 and d["taken_kind"] == -1
            assert s.legal_actions() == [0, 1]
            assert len(s.round_scores()) == k - 1
        GREEDY_step(s)
    assert seen_rounds == list(range(1, 12))
    assert len(s.round_scores()) == 11
    assert s.scores() == [sum(r[p] for r in s.round_scores()) for p in range(n)]
    assert [s.wild_rank()] == ["K"]


def GREEDY_step(s):
    s.apply_action(GREEDY.step(s))


def test_t1_first_dealer_from_seed():
    g = tt.Game(4)
    dealers = [g.new_initial_state(seed).to_dict()["dealer"] for seed in range(60)]
    assert set(dealers) == {0, 1, 2, 3}
    for seed in range(10):
        a, b = g.new_initial_state(seed), g.new_initial_state(seed)
        assert a.to_dict() == b.to_dict()
        assert a.current_player() == (a.to_dict()["dealer"] + 1) % 4


def test_t2_taken_card_not_discarded_same_turn():
    base = {"hands": ["7h 8h Kc", "2d 4s 9c"], "discard": "Jd Qs", "stock_top": "5c"}
    s = build(**base)
    s.apply_action(1)  # take Qs
    assert s.phase == "discard" and "Qs" in s.hand(0)
    assert discard_id("Qs") not in s.legal_actions()
    assert not s.is_legal(discard_id("Qs"))
    assert discards(s) == sorted(discard_id(c) for c in ("7h", "8h", "Kc"))
    before = s.to_dict()
    with pytest.raises(IllegalActionError):
        s.apply_action(discard_id("Qs"))
    assert s.to_dict() == before
    # the option allows it
    s = build(rediscard_taken=True, **base)
    s.apply_action(1)
    assert discard_id("Qs") in s.legal_actions()
    s.apply_action(discard_id("Qs"))
    assert s.discard_pile() == ["Jd", "Qs"]
    assert sorted(s.hand(0)) == sorted(cards("7h 8h Kc"))
    # a card drawn from the stock may be discarded at once
    s = build(**base)
    s.apply_action(0)
    assert discard_id("5c") in s.legal_actions()
    # on the next turn the taken card may go
    s = build(**base)
    s.apply_action(1)
    s.apply_action(discard_id("7h"))
    s.apply_action(0)
    s.apply_action(discard_id("5c"))
    s.apply_action(0)
    assert discard_id("Qs") in s.legal_actions()


def test_t2_another_copy_of_the_taken_kind_may_go():
    # two decks (3 players): seat 0 holds a Qs and takes the other one
    s = build(3, hands=["Qs 8h Kc", "2d 4s 9c", "5d 6d Tc"], discard="Jd Qs", stock_top="5c")
    s.apply_action(1)
    assert s.hand(0).count("Qs") == 2
    assert discard_id("Qs") in s.legal_actions()
    s.apply_action(discard_id("Qs"))
    assert s.hand(0).count("Qs") == 1


def test_t2_cannot_go_out_discarding_the_taken_card():
    base = {"hands": ["7h 8h 9h", "2d 4s 9c"], "discard": "Jd Qs", "stock_top": "5c"}
    s = build(**base)
    s.apply_action(1)
    assert go_outs(s) == []
    assert discards(s) == sorted(discard_id(c) for c in ("7h", "8h", "9h"))
    with pytest.raises(IllegalActionError):
        s.apply_action(out_id("Qs"))
    s = build(rediscard_taken=True, **base)
    s.apply_action(1)
    assert go_outs(s) == [out_id("Qs")]


def test_t3_empty_stock_reshuffles_discard_pile():
    # 2 players, round 1: 6 cards in hands, the other 46 all in the discard pile
    hands = ["7h 8h Kc", "2d 4s 9c"]
    d = build(hands=hands, discard="").to_dict()
    pile = d["stock"][:]  # every other card
    random.Random(5).shuffle(pile)
    d["stock"], d["discard"] = [], pile
    s = tt.State.from_dict(d)
    assert s.stock_size() == 0 and len(s.discard_pile()) == 46
    assert s.legal_actions() == [0, 1]
    top = pile[-1]
    before_cards = all_cards(s)
    s.apply_action(0)
    assert s.phase == "discard"
    assert s.discard_pile() == [top]
    assert s.stock_size() == 44
    drawn = (Counter(s.hand(0)) - Counter(cards(hands[0])))
    assert sum(drawn.values()) == 1
    assert Counter(s.to_dict()["stock"]) + drawn == Counter(pile[:-1])
    assert all_cards(s) == before_cards
    s._check()
    # the reshuffle comes from the state's generator: the same position, the same stock
    s2 = tt.State.from_dict(d)
    s2.apply_action(0)
    assert s2.to_dict()["stock"] == s.to_dict()["stock"]
    assert s.to_dict()["stock"] != pile[:-2]  # shuffled, not just moved


def test_t3_no_card_left_ends_the_round():
    # 4 players, 1 deck + 1 joker = 53 cards, the fewest round 11 allows: 52 in the hands, 1 face up
    hands = ["Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc",
             "Ad 2d 3d 5d 7d 9d Jd Kd 4s 6s 8s Ts Qs",
             "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh",
             "As 2s 3s 5s 7s 9s Js Ks 4d 6d 8d Td Qd"]
    s = build(4, hands=hands, discard="Xr", round=11, current=1, totals=[5, 0, 7, 1], decks=1, jokers=1)
    assert s.stock_size() == 0
    assert s.legal_actions() == [0, 1]
    expected = [tt.min_deadwood(h, "K")[0] for h in hands]
    assert expected[0] == 0 and expected[1] > 0
    s.apply_action(0)  # nothing to reshuffle: the round ends and is scored (round 11: the game is over)
    assert s.is_terminal() and s.phase == "over"
    assert s.round_scores()[-1] == expected
    assert s.scores() == [t + e for t, e in zip([5, 0, 7, 1], expected)]
    assert len(s.round_scores()) == 11
    assert not s.is_truncated()
    # the same happens in play: round 11 of that game deals every card but one
    s = tt.Game(4, decks=1, jokers=1).new_initial_state(8)
    play(s, until=lambda st: st.round() == 11)
    assert s.round() == 11 and s.stock_size() == 0 and len(s.discard_pile()) == 1
    before = [s.deadwood(p) for p in range(4)]
    totals = s.scores()
    s.apply_action(0)
    assert s.is_terminal()
    assert s.round_scores()[-1] == before
    assert s.scores() == [t + b for t, b in zip(totals, before)]


def test_t3_reshuffles_in_play():
    """Uniformly random play runs through the stock many times: every
    reshuffle keeps the top discard, moves the rest to the stock and
    conserves the cards."""
    s = tt.Game(2, max_moves=1500).new_initial_state(21)
    rng = random.Random(21)
    deck = deck_counter(1)
    reshuffles = 0
    while not s.is_terminal():
        a = rng.choice(s.legal_actions())
        if a == 0 and s.stock_size() == 0:
            pile = s.discard_pile()
            hand = Counter(s.hand(s.current_player()))
            s.apply_action(0)
            reshuffles += 1
            assert s.discard_pile() == pile[-1:]
            assert s.stock_size() == len(pile) - 2
            drawn = Counter(s.hand(s.current_player())) - hand
            assert Counter(s.to_dict()["stock"]) + drawn == Counter(pile[:-1])
        else:
            s.apply_action(a)
        assert all_cards(s) == deck
    s._check()
    assert reshuffles >= 3


def test_t4_identical_cards_in_sets():
    assert tt.min_deadwood("7h 7h 7s", "K")[0] == 0
    assert tt.min_deadwood("7h 7h 7h", "K")[0] == 0
    # two decks (3 players): 7h 7h 7s melds, so seat 0 may go out
    s = build(3, hands=["7h 7h 7s", "2d 4s 9c", "5d 6d Tc"], discard="Jd", stock_top="9c")
    s.apply_action(0)
    assert go_outs(s) == [out_id("9c")]
    # one deck has one 7h: such a position does not exist
    d = build(2, hands=["7h 2h 7s", "2d 4s 9c"], discard="Jd").to_dict()
    d["hands"][0] = ["7h", "7h", "7s"]
    d["stock"].append("2h")
    with pytest.raises(ValueError):
        tt.State.from_dict(d)


def test_t5_no_wrap_and_ace_high_only_with_option():
    for ace, outs in (("low", []), ("either", ["9c"])):
        s = build(hands=["Qh Kh Ah", "2d 4s 9d"], discard="Jd", stock_top="9c", ace=ace)
        s.apply_action(0)
        assert go_outs(s) == [out_id(c) for c in outs], ace
    for ace in ("low", "either"):
        s = build(hands=["Kh Ah 2h", "2d 4s 9d"], discard="Jd", stock_top="9c", ace=ace)
        s.apply_action(0)
        assert go_outs(s) == [], ace
    s = build(hands=["Ah 2h 4h", "2d 4s 9d"], discard="Jd", stock_top="3h")
    s.apply_action(0)
    assert go_outs(s) == [out_id("Ah"), out_id("4h")]  # A-2-3(-4) and 2-3-4 are runs
    # a leftover ace scores 15 with ace="either", 1 otherwise
    for ace, score in (("low", 1 + 9 + 5), ("either", 15 + 9 + 5)):
        s = build(hands=["4h 5h 6h", "Ah 9c 5d"], discard="Jd", stock_top="Tc Td", ace=ace)
        s.apply_action(0)
        s.apply_action(out_id("Tc"))
        s.apply_action(0)
        s.apply_action(discard_id("Td"))
        assert s.round() == 2 and s.round_scores()[0] == [0, score]


def test_t6_all_wild_melds_option():
    # round 1 (wild 3): keeping 3h 3s 3c and shedding 9c needs an all-wild meld; shedding a 3 leaves 3 3 9c
    for awm, outs in ((True, ["3c", "3h", "3s", "9c"]), (False, ["3c", "3h", "3s"])):
        s = build(hands=["3h 3s 3c", "2d 4s 9d"], discard="Jd", stock_top="9c", all_wild_melds=awm)
        s.apply_action(0)
        assert go_outs(s) == sorted(out_id(c) for c in outs), awm
    # with jokers too
    for awm, outs in ((True, ["3h", "9c", "Xr", "Xb"]), (False, ["3h", "Xr", "Xb"])):
        s = build(hands=["3h Xr Xb", "2d 4s 9d"], discard="Jd", stock_top="9c", all_wild_melds=awm, jokers=2)
        s.apply_action(0)
        assert go_outs(s) == sorted(out_id(c) for c in outs), awm
    # and in the scoring: a final hand of three wild cards is 0 or 3 + 3 + 3
    for awm, score in ((True, 0), (False, 9)):
        s = build(hands=["4h 5h 6h", "3h 3s 3c"], discard="Jd", stock_top="Tc Qd", all_wild_melds=awm)
        assert s.deadwood(1) == score
        s.apply_action(0)
        s.apply_action(out_id("Tc"))
        s.apply_action(0)
        s.apply_action(discard_id("Qd"))
        assert s.round_scores()[0] == [0, score], awm
    # a wild card with a natural is a meld either way
    s = build(hands=["3h 7s 7c", "2d 4s 9d"], discard="Jd", stock_top="9c", all_wild_melds=False)
    s.apply_action(0)
    assert go_outs(s) == [out_id("7s"), out_id("9c")]  # 7c 3h 9c is a run too


def test_t7_round_score_is_minimum_deadwood():
    # round 4 (wild 6): 2c 3c 5c Kh Ks 6h melds best as Kh Ks 6h (deadwood 10), not 2c 3c 6h 5c (20)
    s = build(hands=["4h 5h 6d 8h 9h Th", "2c 3c 5c Kh Ks 6h"], discard="Jd", stock_top="Tc Qd", round=4)
    assert s.wild_rank() == "6"
    assert s.deadwood(1) == 10
    s.apply_action(0)  # seat 0 draws Tc
    assert go_outs(s) == [out_id("Tc")]
    s.apply_action(out_id("Tc"))
    assert s.current_player() == 1 and s.to_dict()["out_seat"] == 0
    s.apply_action(0)  # Qd
    s.apply_action(discard_id("Qd"))
    assert s.round() == 5
    assert s.round_scores() == [[0, 0], [0, 0], [0, 0], [0, 10]]
    assert s.scores() == [0, 10]


def test_t8_wild_penalty():
    for wp, score in (("face", 3 + 9 + 10), (20, 20 + 9 + 10)):
        s = build(hands=["4h 5h 6h", "3c 9d Kh"], discard="Jd", stock_top="Tc Qd", wild_penalty=wp)
        assert s.deadwood(1) == score
        s.apply_action(0)
        s.apply_action(out_id("Tc"))
        s.apply_action(0)
        s.apply_action(discard_id("Qd"))
        assert s.round_scores()[0] == [0, score], wp
    # a leftover joker scores 20 either way
    for wp in ("face", 20):
        s = build(hands=["4h 5h 6h", "Xr 9d Kh"], discard="Jd", jokers=1, wild_penalty=wp)
        assert s.deadwood(1) == 20 + 9 + 10


# ------------------------------------------------------------- going out --


def test_going_out_needs_every_card_melded():
    s = build(hands=["4h 5h 9c", "2d 4s 9d"], discard="Jd", stock_top="3d")
    s.apply_action(0)  # 3d is wild in round 1: 4h 5h 3d
    assert go_outs(s) == [out_id("9c")]
    s = build(hands=["4h 5h 9c", "2d 4s 9d"], discard="Jd", stock_top="Kd")
    s.apply_action(0)
    assert go_outs(s) == []
    before = s.to_dict()
    with pytest.raises(IllegalActionError):
        s.apply_action(out_id("Kd"))
    assert s.to_dict() == before
    # round 2 (wild 4), four cards must make one meld: 4h 5h 6h 7h, shedding 9c
    s = build(hands=["4h 5h 6h 7h", "2d 4s 9d Jc"], discard="Jd", stock_top="9c", round=2)
    s.apply_action(0)
    assert go_outs(s) == [out_id("9c")]
    assert s.is_legal(out_id("9c")) and not s.is_legal(out_id("4h"))
    # round 4 (wild 6): two melds of three
    s = build(hands=["4h 5h 6d 8h 9h Th", "2c 3c 5c Kh Ks Qc"], discard="Jd", stock_top="Kc", round=4)
    s.apply_action(0)
    assert go_outs(s) == [out_id("Kc")]


def test_go_out_first_turn_option():
    base = {"hands": ["4h 5h 6h", "2d 4s 9d"], "discard": "Jd", "stock_top": "9c", "turns": [1, 0]}
    s = build(**base)
    s.apply_action(0)
    assert go_outs(s) == [out_id("9c")]
    s = build(go_out_first_turn=False, **base)
    s.apply_action(0)
    assert go_outs(s) == []
    assert discard_id("9c") in s.legal_actions()
    with pytest.raises(IllegalActionError):
        s.apply_action(out_id("9c"))
    s = build(go_out_first_turn=False, **dict(base, turns=[2, 1]))
    s.apply_action(0)
    assert go_outs(s) == [out_id("9c")]
    # in play: nobody goes out on their first turn of a round
    g = tt.Game(3, go_out_first_turn=False)
    for seed in range(2):
        s = g.new_initial_state(seed)
        while not s.is_terminal():
            if s.phase == "discard" and s.to_dict()["turns"][s.current_player()] == 1:
                assert go_outs(s) == []
            GREEDY_step(s)


def test_final_turns_in_order_then_scoring():
    # 3 players; seat 1 goes out; seats 2 and 0 get one more turn each, in that order
    hands = ["2d 7s Jc", "4h 5h 6h", "Kd Ks 8c"]
    s = build(3, hands=hands, discard="Jd", stock_top="9c Qd 5s 2c", current=1, dealer=0)
    s.apply_action(0)
    s.apply_action(out_id("9c"))
    d = s.to_dict()
    assert d["out_seat"] == 1 and d["final_turns"] == 2 and d["out_mask"] == 2
    assert s.current_player() == 2 and s.phase == "draw" and s.round() == 1
    s.apply_action(0)
    assert "Qd" in s.hand(2) and go_outs(s) == []
    s.apply_action(discard_id("Qd"))
    assert s.current_player() == 0 and s.round() == 1 and s.to_dict()["final_turns"] == 1
    s.apply_action(0)
    s.apply_action(discard_id("5s"))
    # the round is over: scored, and round 2 dealt by the next dealer
    assert s.round() == 2
    assert s.round_scores() == [[2 + 7 + 10, 0, 10 + 10 + 8]]
    assert s.scores() == [19, 0, 28]
    d = s.to_dict()
    assert d["dealer"] == 1 and s.current_player() == 2
    assert d["out_seat"] == -1 and d["out_mask"] == 0
    assert all(len(s.hand(p)) == 4 for p in range(3))


def test_a_player_out_in_the_final_turn_scores_zero():
    hands = ["4h 5h 6h", "2d 7s Jc", "Kd Ks 3c"]
    s = build(3, hands=hands, discard="Jd", stock_top="9c Qd 5s")
    s.apply_action(0)
    s.apply_action(out_id("9c"))
    s.apply_action(0)
    s.apply_action(discard_id("Qd"))
    s.apply_action(0)  # seat 2 draws 5s; Kd Ks 3c is a set (3 wild)
    assert out_id("5s") in s.legal_actions()
    s.apply_action(out_id("5s"))
    assert s.round() == 2
    assert s.round_scores() == [[0, 19, 0]]


def _round_flow_check(game, seed, policies, ref_max_cards=7):
    """Plays one game, checking at every discard decision that the go-out
    actions are exactly the discards leaving deadwood 0, and at the end of
    every round the order of the final turns and the scores."""
    n = game.num_players()
    opts = game.options()
    rng = random.Random(seed)
    bots = [PolicyBot(p, seed=seed + q) if p != "uniform" else None for q, p in enumerate(policies)]
    s = game.new_initial_state(seed)
    rounds = 0
    while not s.is_terminal():
        r = s.round()
        first_out, after, went_out = None, [], set()
        while True:
            p = s.current_player()
            if s.phase == "discard":
                hand = s.hand(p)
                d = s.to_dict()
                expected = []
                first_ok = opts["go_out_first_turn"] or d["turns"][p] > 1
                for a in discards(s):
                    rest = hand[:]
                    rest.remove(tt.kind_to_card(a - FIRST_DISCARD))
                    kw = {"ace": opts["ace"], "all_wild_melds": opts["all_wild_melds"],
                          "wild_penalty": opts["wild_penalty"]}
                    if len(rest) <= ref_max_cards:
                        zero = min_deadwood_reference([str(c) for c in rest], s.wild_rank(), **kw) == 0
                    else:
                        zero = tt.min_deadwood(rest, s.wild_rank(), **kw)[0] == 0
                    if zero and first_ok:
                        expected.append(a - FIRST_DISCARD + FIRST_OUT)
                assert go_outs(s) == expected
            pre = s.clone()
            bot = bots[p]
            a = rng.choice(s.legal_actions()) if bot is None else bot.step(s)
            s.apply_action(a)
            if a >= FIRST_DISCARD:  # a turn ended
                if first_out is not None:
                    after.append(p)
                if a >= FIRST_OUT:
                    went_out.add(p)
                    if first_out is None:
                        first_out = p
            if s.is_terminal() or s.round() != r:
                break
        rounds += 1
        if s.is_truncated():
            break
        # the final hands: the state before the last action, less the last discard
        final = [pre.hand(q) for q in range(n)]
        if a >= FIRST_DISCARD:
            final[p].remove(tt.kind_to_card((a - FIRST_DISCARD) % 54))
        if first_out is not None:
            assert after == [(first_out + i) % n for i in range(1, n)]
        else:
            assert a == 0  # the round ended on an empty stock (T-3)
        kw = {"ace": opts["ace"], "all_wild_melds": opts["all_wild_melds"], "wild_penalty": opts["wild_penalty"]}
        expected = [0 if q in went_out else tt.min_deadwood(final[q], RANKS[r + 1], **kw)[0] for q in range(n)]
        assert s.round_scores()[r - 1] == expected
    return rounds


@pytest.mark.parametrize("n,options,policies,seed", [
    (2, {}, ("greedy", "greedy"), 1),
    (3, {"ace": "either", "all_wild_melds": False}, ("greedy", "uniform", "greedy"), 2),
    (4, {"wild_penalty": 20, "jokers": 1, "rediscard_taken": True}, ("greedy",) * 4, 3),
    (3, {"go_out_first_turn": False, "ace": "either", "wild_penalty": 20}, ("greedy", "greedy", "uniform"), 4),
])
def test_round_flow_and_scores_in_play(n, options, policies, seed):
    game = tt.Game(n, max_moves=4000, **options)
    rounds = _round_flow_check(game, seed, policies)
    assert rounds == 11


def test_game_end_and_returns_with_a_tie():
    # 3 players (2 decks), round 11 (wild K): seat 0 goes out, seats 1 and 2 keep their hands
    hands = ["Ac 2c 3c 4c 5d 6d 7d 8d 9h Th Jh Qh Ks",
             "Ac 3d 5s 7h 9c Jd Qs 2h 4d 6s 8h Tc Jc",
             "Ad 3s 5h 7c 9d Js Qh 2s 4h 6c 8d Td Qc"]
    d1, d2 = (tt.min_deadwood(h, "K")[0] for h in hands[1:])
    assert d1 > 0 and d2 > 0
    s = build(3, hands=hands, discard="Jd", stock_top="2s 5c 5c", round=11,
              totals=[100, 100 - d1, 150 - d2])
    assert s.returns() == [0.0, 0.0, 0.0]
    s.apply_action(0)
    s.apply_action(out_id("2s"))
    for c in ("5c", "5c"):
        assert s.returns() == [0.0, 0.0, 0.0] and not s.is_terminal()
        s.apply_action(0)
        s.apply_action(discard_id(c))
    assert s.is_terminal() and s.phase == "over"
    assert s.round_scores()[-1] == [0, d1, d2]
    assert s.scores() == [100, 100, 150]
    # seats 0 and 1 share places 0 and 1: (N-1-2*0.5)/(N-1) = 0.5; seat 2 is last: -1
    assert s.returns() == pytest.approx([0.5, 0.5, -1.0])
    assert s.legal_actions() == []
    assert s.current_player() < 0
    before = s.to_dict()
    for a in (0, 1, discard_id("5c")):
        with pytest.raises(IllegalActionError):
            s.apply_action(a)
    assert s.to_dict() == before


@pytest.mark.parametrize("totals,expected", [
    ([30, 10, 30, 50], [0.0, 1.0, 0.0, -1.0]),
    ([10, 20, 30, 40], [1.0, 1 / 3, -1 / 3, -1.0]),
    ([5, 5, 5, 5], [0.0, 0.0, 0.0, 0.0]),
    ([9, 5, 5, 5], [-1.0, 1 / 3, 1 / 3, 1 / 3]),
])
def test_returns_rank_by_total_with_shared_places(totals, expected):
    hands = ["Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc",
             "Ad 2d 3d 5d 7d 9d Jd Kd 4s 6s 8s Ts Qs",
             "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh",
             "As 2s 3s 5s 7s 9s Js Ks 4d 6d 8d Td Qd"]
    s = build(4, hands=hands, discard="Xr", round=11, current=1, totals=totals, decks=1, jokers=1)
    s.apply_action(0)  # nothing left to draw: the game ends
    final = s.scores()
    assert s.is_terminal()
    n = 4
    for q in range(n):
        below = sum(t < final[q] for t in final)
        equal = sum(t == final[q] for t in final)
        place = below + (equal - 1) / 2
        assert s.returns()[q] == pytest.approx((n - 1 - 2 * place) / (n - 1))
    assert sum(s.returns()) == pytest.approx(0.0)
    assert final == [t + a for t, a in zip(totals, s.round_scores()[-1])]
    # the listed values, at the finished position with the given totals
    d = s.to_dict()
    d["totals"] = totals
    d["history"] = []  # (from_dict with a history is tested in the round-trip tests)
    t = tt.State.from_dict(d)
    assert t.is_terminal()
    assert t.returns() == pytest.approx(expected)


# -------------------------------------------------------------------- API --


def _sample_states():
    """States from greedy and random games of 2..4 players, every phase."""
    out = []
    out += game_states(tt.Game(2), 1, "greedy", every=7)
    out += game_states(tt.Game(3, ace="either", jokers=1), 2, "greedy", every=11)
    out += game_states(tt.Game(4, max_moves=600), 3, "uniform", every=13)
    out += game_states(tt.Game(2, rediscard_taken=True, wild_penalty=20, max_moves=400), 4, "uniform", every=5)
    return out


SAMPLES = None


def samples():
    global SAMPLES
    if SAMPLES is None:
        SAMPLES = _sample_states()
    return SAMPLES


def test_illegal_actions_raise_and_change_nothing():
    checked = 0
    for s in samples()[::3]:
        before = s.to_dict()
        legal = set(s.legal_actions())
        illegal = [a for a in range(NUM_ACTIONS) if a not in legal]
        for a in illegal[::4] + [-1, NUM_ACTIONS, 10**6, -(10**6)]:
            with pytest.raises(IllegalActionError):
                s.apply_action(a)
            checked += 1
        assert s.to_dict() == before
        assert s.history() == before["history"]
    assert checked > 500
    with pytest.raises(TypeError):
        tt.Game(2).new_initial_state(0).apply_action("stock")
    with pytest.raises(TypeError):
        tt.Game(2).new_initial_state(0).apply_action(0.0)


def test_legal_actions_sorted_and_consistent():
    phases = Counter()
    for s in samples():
        legal = s.legal_actions()
        phases[s.phase] += 1
        assert legal == sorted(set(legal))
        mask = s.legal_actions_mask()
        assert mask.shape == (NUM_ACTIONS,) and mask.dtype == bool
        assert list(np.flatnonzero(mask)) == legal
        assert [a for a in range(NUM_ACTIONS) if s.is_legal(a)] == legal
        assert not s.is_legal(-1) and not s.is_legal(NUM_ACTIONS)
        if s.phase == "draw":
            assert legal == ([0, 1] if s.discard_pile() else [0])
        elif s.phase == "discard":
            p = s.current_player()
            assert len(s.hand(p)) == s.round() + 3
            assert {tt.kind_to_card(a - FIRST_DISCARD) for a in discards(s)} <= set(s.hand(p))
            for a in go_outs(s):
                assert a - FIRST_OUT + FIRST_DISCARD in legal
        else:
            assert legal == [] and s.is_terminal()
    assert phases["draw"] and phases["discard"] and phases["over"]
    assert tt.Game(3).num_distinct_actions() == NUM_ACTIONS


def test_clone_is_independent():
    s = tt.Game(3).new_initial_state(5)
    play(s, until=lambda st: st.to_dict()["move_count"] >= 40)
    c = s.clone()
    assert c == s and c is not s
    before = s.to_dict()
    r0 = s.round()
    play(c, until=lambda st: st.round() > r0)
    assert s.to_dict() == before
    assert c.to_dict() != before
    assert len(c.history()) > len(s.history())
    s.apply_action(s.legal_actions()[0])
    assert c.history()[: len(before["history"])] == before["history"]


def test_to_dict_from_dict_round_trip():
    for s in samples():
        d = s.to_dict()
        text = json.dumps(d)
        d2 = json.loads(text)
        r = tt.State.from_dict(d2)
        assert r.to_dict() == d
        assert r == s
        assert r.history() == s.history()
        r._check()


def test_to_dict_from_dict_round_trip_of_positions():
    """The same without the action history: every position field survives."""
    for s in samples():
        d = s.to_dict()
        d2 = json.loads(json.dumps(d))
        d2["history"] = []
        r = tt.State.from_dict(d2)
        back = r.to_dict()
        assert back["history"] == []
        back["history"] = d["history"]
        assert back == d
        assert r.legal_actions() == s.legal_actions()
        assert [r.deadwood(q) for q in range(r.num_players())] == [s.deadwood(q) for q in range(s.num_players())]
        r._check()


def test_from_dict_state_plays_on_identically():
    """The chance stream is part of the dict: the restored state deals and
    reshuffles exactly as the original."""
    for seed, n in ((3, 2), (4, 3)):
        s = tt.Game(n).new_initial_state(seed)
        play(s, until=lambda st: st.to_dict()["move_count"] >= 25)
        d = s.to_dict()
        d["history"] = []  # the history is checked by the round-trip test; this one is about play
        r = tt.State.from_dict(d)
        play(s, until=lambda st: st.round() >= 4)
        play(r, until=lambda st: st.round() >= 4)
        a, b = s.to_dict(), r.to_dict()
        assert a["hands"] == b["hands"] and a["stock"] == b["stock"] and a["totals"] == b["totals"]
        assert a["rng"] == b["rng"]


def test_from_dict_rejects_malformed():
    s = tt.Game(2).new_initial_state(9)
    good = s.to_dict()
    tt.State.from_dict(good)

    def bad(change, exc=ValueError):
        d = json.loads(json.dumps(good))
        change(d)
        with pytest.raises(exc):
            tt.State.from_dict(d)

    bad(lambda d: d["stock"].pop())  # a card missing
    bad(lambda d: d["hands"][0].pop())
    bad(lambda d: d["stock"].append(d["hands"][1][0]))  # a card twice
    bad(lambda d: d["discard"].append("Qs") if "Qs" in d["stock"] + d["hands"][0] + d["hands"][1]
        else d["discard"].append("Ks"))
    bad(lambda d: d.__setitem__("format", "threes.Game/1"))
    bad(lambda d: d.pop("format"))
    bad(lambda d: d.pop("round"))
    bad(lambda d: d.pop("hands"))
    bad(lambda d: d.pop("options"))
    bad(lambda d: d.__setitem__("round", 12))
    bad(lambda d: d.__setitem__("round", 0))
    bad(lambda d: d.__setitem__("round", "one"), TypeError)  # a wrong type is a TypeError
    bad(lambda d: d.__setitem__("current", 5))
    bad(lambda d: d.__setitem__("dealer", 2))
    bad(lambda d: d.__setitem__("phase", 3))
    bad(lambda d: d.__setitem__("num_players", 9))
    bad(lambda d: d.__setitem__("num_players", 3))
    bad(lambda d: d["hands"][0].__setitem__(0, "Zz"))
    bad(lambda d: d["stock"].__setitem__(0, 7), TypeError)
    bad(lambda d: d["options"].__setitem__("ace", "high"))
    bad(lambda d: d["options"].__setitem__("decks", 0))
    bad(lambda d: d["options"].__setitem__("jokers", 1))  # the jokers are nowhere
    for notdict in (None, [], "state", 5):
        with pytest.raises(ValueError):
            tt.State.from_dict(notdict)


def test_pickle():
    for s in samples()[::10]:
        r = pickle.loads(pickle.dumps(s))
        assert r == s and r.to_dict() == s.to_dict()
        assert r.legal_actions() == s.legal_actions()


def test_str_and_repr():
    for n in (2, 3, 5):
        s = tt.Game(n).new_initial_state(n)
        play(s, until=lambda st: st.round() >= 2 and st.to_dict()["move_count"] > 0)
        text = str(s)
        assert f"round {s.round()}" in text
        for q in range(n):
            assert f"seat {q}" in text
            assert threes.format_cards(s.hand(q)) in text
        assert f"seat {n}" not in text
        assert "Three Thirteen" in repr(s) or "three_thirteen" in repr(s)
    end = play(tt.Game(2).new_initial_state(1))
    assert "round 11" in str(end) and "over" in str(end)


def test_action_strings_round_trip():
    s = tt.Game(2).new_initial_state(0)
    seen = set()
    for a in range(NUM_ACTIONS):
        text = s.action_to_string(a)
        assert s.string_to_action(text) == a
        seen.add(text)
    assert len(seen) == NUM_ACTIONS
    assert s.action_to_string(0) == "stock" and s.action_to_string(1) == "take"
    assert s.action_to_string(discard_id("7h")) == "discard 7h"
    assert s.action_to_string(out_id("Xb")) == "out Xb"
    assert s.string_to_action("draw") == 0
    assert s.string_to_action("Discard 10h") == discard_id("Th")
    for bad in (-1, NUM_ACTIONS):
        with pytest.raises(ValueError):
            s.action_to_string(bad)
    for bad in ("fly", "discard", "discard Zz", "out 7h 8h", ""):
        with pytest.raises((ValueError, TypeError)):
            s.string_to_action(bad)


def test_same_seed_same_game():
    g = tt.Game(3)
    a, b = g.new_initial_state(42), g.new_initial_state(42)
    assert a.to_dict() == b.to_dict()
    play(a, "uniform", seed=7, max_steps=400)
    play(b, "uniform", seed=7, max_steps=400)
    assert a.to_dict() == b.to_dict() and a.history() == b.history()
    c = g.new_initial_state(43)
    assert c.to_dict()["hands"] != g.new_initial_state(42).to_dict()["hands"]
    # the same seed plays the same whole greedy game
    x, y = play(tt.Game(2).new_initial_state(8)), play(tt.Game(2).new_initial_state(8))
    assert x.to_dict() == y.to_dict() and x.is_terminal()


def test_observation_shows_own_hand_only():
    for s in samples()[::4]:
        if s.is_terminal():
            continue
        n = s.num_players()
        for p in range(n):
            o = s.observation(p)
            assert o.hand == tuple(s.hand(p))
            assert o.hand_sizes == tuple(len(s.hand(q)) for q in range(n))
            assert o.discard_pile == tuple(s.discard_pile()) and o.stock_size == s.stock_size()
            assert o.round == s.round() and o.scores == tuple(s.scores())
            assert not hasattr(o, "stock") and not hasattr(o, "hands")
            # nothing in it depends on the cards p cannot see
            r = s.resample_from_infostate(p, 123)
            assert r.observation(p) == o
            assert r.observation_string(p) == s.observation_string(p)
            assert r.information_state_string(p) == s.information_state_string(p)
            assert threes.format_cards(s.hand(p)) in s.observation_string(p)
        with pytest.raises((ValueError, TypeError)):
            s.observation(n)
        with pytest.raises((ValueError, TypeError)):
            s.observation(-1)


def test_observation_hides_other_hands():
    # a position whose hands share no card: the observation of seat 0 names no card of seat 1
    s = build(hands=["4h 5h 6h", "Kd Qs 9c"], discard="Jd", stock_top="2c")
    text = repr(s.observation(0)) + s.observation_string(0) + s.information_state_string(0)
    for c in s.hand(1):
        assert str(c) not in text
    for c in s.hand(0):
        assert str(c) in text


def _hidden(state, p):
    """What seat p cannot see: the other hands and the stock."""
    return [state.hand(q) for q in range(state.num_players()) if q != p], state.to_dict()["stock"]


def test_resample_from_infostate():
    differs = checked = 0
    for s in samples()[::5]:
        if s.is_terminal():
            continue
        n = s.num_players()
        for p in range(n):
            before = s.to_dict()
            r = s.resample_from_infostate(p, 99)
            assert s.to_dict() == before  # the original is untouched
            r._check()
            assert r.hand(p) == s.hand(p)
            assert r.discard_pile() == s.discard_pile()
            assert r.stock_size() == s.stock_size()
            assert [len(r.hand(q)) for q in range(n)] == [len(s.hand(q)) for q in range(n)]
            assert r.scores() == s.scores() and r.round_scores() == s.round_scores()
            assert r.round() == s.round() and r.phase == s.phase and r.current_player() == s.current_player()
            assert all_cards(r) == all_cards(s)
            if s.current_player() == p:
                assert r.legal_actions() == s.legal_actions()
            assert s.resample_from_infostate(p, 99).to_dict() == r.to_dict()  # the same seed, the same deal
            if any(_hidden(s.resample_from_infostate(p, seed), p) != _hidden(s, p) for seed in range(3)):
                differs += 1
            checked += 1
    assert differs >= checked - 2 and checked > 30
    s = tt.Game(2).new_initial_state(0)
    with pytest.raises((ValueError, TypeError)):
        s.resample_from_infostate(2, 0)


# ------------------------------------------------- policies, rollouts, bots --


def test_rollouts_from_game_shapes_and_determinism():
    g = tt.Game(3)
    r = tt.rollouts(g, 4, "greedy", seed=5)
    assert r.totals.shape == (4, 3) and r.returns.shape == (4, 3)
    assert r.moves.shape == (4,) and r.truncated.shape == (4,) and r.truncated.dtype == bool
    assert r.num_games == 4 and not r.truncated.any()
    assert (r.totals >= 0).all() and (r.moves > 0).all()
    assert np.allclose(r.returns.sum(axis=1), 0.0)
    for i in range(4):  # returns rank the totals, lowest first
        for a in range(3):
            for b in range(3):
                if r.totals[i, a] < r.totals[i, b]:
                    assert r.returns[i, a] > r.returns[i, b]
                elif r.totals[i, a] == r.totals[i, b]:
                    assert r.returns[i, a] == r.returns[i, b]
    again = tt.rollouts(g, 4, "greedy", seed=5)
    assert (again.totals == r.totals).all() and (again.moves == r.moves).all()
    assert (again.returns == r.returns).all()
    other = tt.rollouts(g, 4, "greedy", seed=6)
    assert (other.totals != r.totals).any()
    # game i is the game dealt with its own seed: a greedy game played by hand agrees
    rr = tt.rollouts(tt.Game(2, max_moves=3000), 3, "random", seed=9)
    assert rr.totals.shape == (3, 2) and rr.moves.max() <= 3000
    assert (rr.moves[rr.truncated] == 3000).all()
    assert tt.rollouts(g, 0, "greedy", seed=1).totals.shape == (0, 3)


def test_rollouts_bad_arguments():
    g = tt.Game(2)
    with pytest.raises(ValueError):
        tt.rollouts(g, 1, "smart", seed=1)
    with pytest.raises(ValueError):
        tt.rollouts(g, 1, ["greedy"] * 3, seed=1)
    with pytest.raises(ValueError):
        tt.rollouts(g, -1, "greedy", seed=1)
    with pytest.raises(ValueError):
        tt.rollouts(g, 1, "greedy", seed=1, observer=0)
    with pytest.raises((ValueError, TypeError)):
        tt.rollouts(g.new_initial_state(0), 1, "greedy", seed=1, observer=2)


def test_rollouts_rejects_what_is_not_a_game_or_state():
    # rollouts() has a TypeError branch for this ("rollouts takes a Game or a State")
    with pytest.raises(TypeError):
        tt.rollouts("game", 1, "greedy", seed=1)
    with pytest.raises(TypeError):
        tt.rollouts(None, 1, "greedy", seed=1)


def test_rollout_and_rollouts_of_one_are_game_0_of_a_batch():
    """rollout() and rollouts(state, 1) (the binding's fast paths) play game
    0 of a larger batch on threads; through threes.rollout/rollouts too."""
    import threes

    s = tt.Game(3).new_initial_state(8)
    play(s, until=lambda st: st.round() >= 2 and st.phase == "discard")
    for policy in ("greedy", "random", ["random", "greedy", "random"]):
        for seed in (0, 5, 2**64 - 1, -3):
            for observer in (None, 1):
                batch = tt.rollouts(s, 3, policy, seed, observer=observer, threads=2)
                one = tt.rollouts(s, 1, policy, seed, observer=observer)
                for field in ("totals", "returns", "moves", "truncated"):
                    assert np.array_equal(getattr(one, field)[0], getattr(batch, field)[0])
                assert one.policies == batch.policies and one.threads >= 1 and one.seconds >= 0
                if observer is None:
                    returns, order = tt.rollout(s, policy, seed, order=True)
                    assert returns == list(batch.returns[0]) == threes.rollout(s, policy, seed)
                    assert order == sorted(range(3), key=lambda q: (batch.totals[0][q], q))
                    mine = threes.rollouts(s, 1, policy, seed)
                    assert np.array_equal(mine.totals, one.totals)
    with pytest.raises(TypeError):
        tt.rollout(tt.Game(3), "greedy", 1)
    with pytest.raises(ValueError):
        tt.rollout(tt.State.__new__(tt.State), "greedy", 1)
    with pytest.raises(ValueError):
        tt.rollout(s, "smart", 1)


def test_greedy_beats_random():
    g = tt.Game(2, max_moves=3000)
    for pols, good in ((["greedy", "random"], 0), (["random", "greedy"], 1)):
        r = tt.rollouts(g, 3, pols, seed=11)
        assert r.policies == tuple(pols)
        assert r.mean_score[good] + 100 < r.mean_score[1 - good]
        assert r.win_rate[good] == 1.0
        assert (r.returns[:, good] == 1.0).all()
    greedy_games = tt.rollouts(g, 3, "greedy", seed=11)
    assert not greedy_games.truncated.any() and greedy_games.moves.max() < 1500


def test_rollouts_from_state_with_observer():
    s = tt.Game(3).new_initial_state(4)
    play(s, until=lambda st: st.round() >= 3 and st.phase == "discard")
    before = s.to_dict()
    r = tt.rollouts(s, 6, "greedy", seed=2, observer=s.current_player())
    assert s.to_dict() == before
    assert r.totals.shape == (6, 3) and r.moves.shape == (6,)
    assert (r.totals >= np.array(s.scores())).all()  # scores only grow
    assert len({tuple(t) for t in r.totals}) > 1  # each game is dealt from its own resample
    again = tt.rollouts(s, 6, "greedy", seed=2, observer=s.current_player())
    assert (again.totals == r.totals).all()
    # without an observer the true position is played on
    plain = tt.rollouts(s, 2, ["greedy", "random", "greedy"], seed=3)
    assert plain.totals.shape == (2, 3) and (plain.totals >= np.array(s.scores())).all()
    # from a finished game nothing is played
    end = play(tt.Game(2).new_initial_state(3))
    done = tt.rollouts(end, 2, "greedy", seed=1)
    assert (done.moves == 0).all() and (done.totals == np.array(end.scores())).all()
    assert np.allclose(done.returns, end.returns())


def test_greedy_goes_out_when_it_can():
    bot = PolicyBot("greedy", seed=0)
    s = build(hands=["4h 5h 6h", "2d 4s 9d"], discard="Jd", stock_top="9c")
    s.apply_action(0)
    assert bot.step(s) == out_id("9c")
    # in a later round, with a wild card: round 4 (wild 6)
    s = build(hands=["4h 5h 6d 8h 9h Th", "2c 3c 5c Kh Ks Qc"], discard="Jd", stock_top="Kc", round=4)
    s.apply_action(0)
    assert bot.step(s) == out_id("Kc")
    # in play: whenever a go-out is legal the greedy policy takes one
    for seed in range(3):
        st = tt.Game(3).new_initial_state(seed)
        while not st.is_terminal():
            a = bot.step(st)
            assert a in st.legal_actions()
            if go_outs(st):
                assert a in go_outs(st)
            st.apply_action(a)


def test_greedy_takes_the_discard_when_it_lowers_deadwood():
    bot = PolicyBot("greedy", seed=0)
    for top, expected in (("9h", 1), ("3d", 1), ("2s", 1), ("Qd", 0), ("Ts", 0)):
        s = build(hands=["7h 8h Kc", "2d 4s 9d"], discard="Jd " + top, stock_top="5c")
        assert bot.step(s) == expected, top
    # and discards the card leaving the least deadwood, the dearest among equals
    s = build(hands=["7h 8h Kc", "2d 4s 9d"], discard="Jd 9h", stock_top="5c")
    s.apply_action(1)
    assert bot.step(s) == out_id("Kc")
    s = build(hands=["7h 8h Kc", "2d 4s 9d"], discard="Jd", stock_top="2c")
    s.apply_action(0)
    assert bot.step(s) == discard_id("Kc")  # leaves 17, not 25
    # among discards leaving the same deadwood, the dearest card goes: 7h 8h 9h + Ac 2c: 2c leaves 1, Ac leaves 2
    s = build(hands=["7h 8h 9h Ac", "2d 4s 9d Jc"], discard="Jd", stock_top="2c", round=2)
    s.apply_action(0)
    assert bot.step(s) == discard_id("2c")



def test_ismcts_bot_on_three_thirteen():
    bot = ISMCTSBot(50, seed=3)
    checked = Counter()
    for n, seed in ((2, 1), (3, 2)):
        s = tt.Game(n).new_initial_state(seed)
        for step in range(60):
            if s.is_terminal():
                break
            if step % 6 in (0, 1):
                before = s.to_dict()
                a = bot.step(s)
                assert a in s.legal_actions()
                assert s.to_dict() == before
                checked[s.phase] += 1
            GREEDY_step(s)
    assert checked["draw"] and checked["discard"]
    # a position where one move goes out at once: the search finds it
    s = build(hands=["4h 5h 6h", "2d 4s 9d"], discard="Jd", stock_top="9c")
    s.apply_action(0)
    a = ISMCTSBot(50, seed=1).step(s)
    assert a in s.legal_actions()
    res = ISMCTSBot(50, seed=1).search(s)
    assert res["iterations"] == 50 and sum(c[1] for c in res["children"]) == 50


def test_tournament_greedy_beats_random():
    res = threes.tournament([PolicyBot("greedy"), PolicyBot("random")], games=2, seed=1,
                            game=tt.Game(2, max_moves=3000))
    assert res.num_players == 2 and res.deals == 2 and res.places.shape == (2, 2, 2)
    stats = {st["bot"]: st for st in res.stats}
    assert stats["greedy"]["mean_place"]["mean"] < stats["random"]["mean_place"]["mean"]
    assert stats["greedy"]["win_rate"]["mean"] == 1.0
    table = res.table().splitlines()
    rows = [line for line in table if line.startswith("| ") and not line.startswith("| bot")]
    assert rows[0].startswith("| greedy")
    with pytest.raises(ValueError):
        threes.tournament(["greedy", "random"], games=1, seed=1, game=tt.Game(3))


# ------------------------------------- What each player knows (T-9), setup --


def _pool_states(limit=60):
    """States after a reshuffle (a pool), from random 3- and 4-player games
    with two decks (where a discard can leave the pool's record ambiguous)
    and 2-player games with one."""
    out = []
    for game, seed in ((tt.Game(3, max_moves=900), 21), (tt.Game(2, max_moves=900), 22),
                       (tt.Game(4, max_moves=900, jokers=1), 23)):
        for st in game_states(game, seed, "uniform", every=3):
            if st.to_dict()["pool_active"] and not st.is_terminal():
                out.append(st)
    assert len(out) > limit // 2
    return out[::max(1, len(out) // limit)]


def _obsd(state, p):
    """The parts of the observation the T-9 tests compare, as text."""
    o = state.observation(p)

    def cards(xs):
        return [str(c) for c in xs]

    return {"known": [cards(h) for h in o.known], "taken": None if o.taken is None else str(o.taken),
            "pool": None if o.pool is None else cards(o.pool), "pool_held": list(o.pool_held),
            "own_pool": cards(o.own_pool), "stock_size": o.stock_size, "discard_pile": cards(o.discard_pile)}


def test_T9_taken_discard_stays_known():
    s = build(3, hands=["7h 8h Kc", "2d 4s 9c", "3d 5s 6s"], discard="Jd Qs", stock_top="5c Tc Th")
    s.apply_action(1)  # seat 0 takes Qs
    for p in (1, 2):
        o = _obsd(s, p)
        assert o["known"][0] == ["Qs"] and o["taken"] == "Qs"
        assert "known in other hands: 0: Qs" in s.information_state_string(p)
    s.apply_action(discard_id("Kc"))
    assert _obsd(s, 1)["known"][0] == ["Qs"]  # still known after the turn
    s.apply_action(0)  # seat 1 draws 5c: hidden
    assert _obsd(s, 0)["known"][1] == [] and _obsd(s, 2)["known"] == [["Qs"], [], []]
    s.apply_action(discard_id("2d"))
    s.apply_action(0)
    s.apply_action(discard_id("3d"))
    # resampling keeps the known card in seat 0's hand for every other observer
    for p in (1, 2):
        for seed in range(20):
            r = s.resample_from_infostate(p, seed)
            assert "Qs" in r.hand(0) and _obsd(r, p)["known"][0] == ["Qs"]
            assert r.information_state_string(p) == s.information_state_string(p)
    s.apply_action(0)  # seat 0 draws, then discards the known card: it is known no more
    s.apply_action(discard_id("Qs"))
    assert _obsd(s, 1)["known"][0] == []
    d = s.to_dict()
    assert d["known"] == [[], [], []]


def test_T9_another_copy_discarded_forgets_the_known_one():
    # two decks: seat 0 takes a 7h while holding another; discarding a 7h forgets the known one
    s = build(3, hands=["7h 8h Kc", "2d 4s 9c", "3d 5s 6s"], discard="Jd 7h", stock_top="5c")
    s.apply_action(1)
    assert _obsd(s, 1)["known"][0] == ["7h"] and s.hand(0).count("7h") == 2
    s.apply_action(discard_id("Kc"))
    s.apply_action(0)
    s.apply_action(discard_id("2d"))
    s.apply_action(0)
    s.apply_action(discard_id("3d"))
    s.apply_action(1)  # seat 0 takes the 3d: known too
    s.apply_action(discard_id("7h"))
    assert _obsd(s, 1)["known"][0] == ["3d"]  # the table cannot tell which 7h went


def test_T9_reshuffled_stock_is_a_known_pool():
    # an empty stock: the first draw reshuffles the pile less its top card into a pool
    g = tt.Game(2)
    d = g.new_initial_state(0).to_dict()
    hands = [cards("4h 5h 9c"), cards("2d 4s 9d")]
    rest = deck_counter(1)
    for c in hands[0] + hands[1]:
        rest[c] -= 1
    discard = sorted(rest.elements())
    d.update({"round": 1, "dealer": 1, "current": 0, "phase": 0, "hands": hands, "discard": discard, "stock": [],
              "turns": [2, 2], "known": [[], []], "pool_hand": [[], []], "pool_active": False})
    s = tt.State.from_dict(d)
    assert _obsd(s, 1)["pool"] is None
    s.apply_action(0)
    drawn = [c for c in s.hand(0) if c not in hands[0]]
    assert len(drawn) == 1
    pool = sorted(discard[:-1])
    for p in (0, 1):
        o = _obsd(s, p)
        assert sorted(o["pool"]) == pool and o["pool_held"] == [1, 0] and o["stock_size"] == len(pool) - 1
        assert o["discard_pile"] == discard[-1:]
    assert _obsd(s, 0)["own_pool"] == drawn and _obsd(s, 1)["own_pool"] == []
    assert _obsd(s, 1)["known"] == [[], []]  # hidden again: seat 1 knows only that it is a pool card
    # seat 1's determinizations: the stock and seat 0's pool card come from the pool, seat 0's other cards not
    top = discard[-1]
    for seed in range(25):
        r = s.resample_from_infostate(1, seed)
        rd = r.to_dict()
        assert Counter(rd["stock"]) + Counter(rd["pool_hand"][0]) == Counter(pool)
        assert len(rd["pool_hand"][0]) == 1
        others = Counter(r.hand(0)) - Counter(rd["pool_hand"][0])
        assert not (set(others) & set(pool)) and top not in others
        assert r.information_state_string(1) == s.information_state_string(1)
        r._check()
    # the pool card discarded leaves the pool (one deck: the table knows it was one)
    s.apply_action(discard_id(drawn[0]))
    assert sorted(_obsd(s, 1)["pool"]) == sorted(Counter(pool) - Counter(drawn))
    assert _obsd(s, 1)["pool_held"] == [0, 0]


def test_T9_shown_hand_of_a_player_out_is_known():
    s = build(hands=["4h 5h 6h", "2d 4s 9d"], discard="Jd", stock_top="9c 7c")
    s.apply_action(0)
    s.apply_action(out_id("9c"))
    o = _obsd(s, 1)
    assert o["known"][0] == s.hand(0) == ["4h", "5h", "6h"]
    for seed in range(5):
        assert s.resample_from_infostate(1, seed).hand(0) == s.hand(0)
    end = play(tt.Game(2).new_initial_state(5))
    assert end.is_terminal() and not end.is_truncated()
    assert _obsd(end, 0)["known"] == [end.hand(0), end.hand(1)]


def test_T9_resample_keeps_known_cards_and_infostate():
    states = [s for s in samples()[::3] if not s.is_terminal()] + _pool_states(40)
    known_seen = pool_seen = 0
    for s in states:
        n = s.num_players()
        d = s.to_dict()
        for p in range(n):
            info, obs = s.information_state_string(p), _obsd(s, p)
            tensor = s.observation_tensor(p)
            for seed in (1, 2):
                r = s.resample_from_infostate(p, seed)
                r._check()
                rd = r.to_dict()
                assert r.information_state_string(p) == info
                assert _obsd(r, p) == obs
                assert np.array_equal(r.observation_tensor(p), tensor)
                assert rd["known"] == d["known"]  # known cards never move
                for q in range(n):
                    assert not Counter(d["known"][q]) - Counter(r.hand(q))
                    assert len(rd["pool_hand"][q]) == len(d["pool_hand"][q])
                assert rd["pool_hand"][p] == d["pool_hand"][p] and r.hand(p) == s.hand(p)
                if d["pool_active"]:
                    pool = Counter(d["stock"])
                    for q in range(n):
                        pool.update(d["pool_hand"][q])
                    rpool = Counter(rd["stock"])
                    for q in range(n):
                        rpool.update(rd["pool_hand"][q])
                    assert rpool == pool  # the pool stays the pool: its cards only move among its places
            known_seen += any(d["known"][q] for q in range(n) if q != p)
            pool_seen += bool(d["pool_active"] and any(d["pool_hand"][q] for q in range(n) if q != p))
    assert known_seen > 20 and pool_seen > 10


def test_T9_observation_tensor_hides_nothing_else():
    s = build(3, hands=["7h 8h Kc", "2d 4s 9c", "3d 5s 6s"], discard="Jd Qs", stock_top="5c Tc Th")
    s.apply_action(1)
    t1 = s.observation_tensor(1)
    assert t1.dtype == np.float32 and t1.shape == s.observation_tensor(0).shape
    qs = kind("Qs")
    own = 0
    known_block = 2 * 54  # after the own hand and own pool blocks (observation.h)
    assert t1[own + kind("2d")] == 1 and t1[own + kind("7h")] == 0  # seat 1's hand only
    assert t1[known_block + 2 * 54 + qs] == 1  # seat 0 is relative seat 2 of seat 1: its known Qs
    for seed in range(5):
        assert np.array_equal(s.resample_from_infostate(1, seed).observation_tensor(1), t1)
    with pytest.raises((ValueError, TypeError)):
        s.observation_tensor(3)


def test_setup_round_trip_with_knowledge():
    for s in _pool_states(30) + [st for st in samples()[::6]]:
        d = json.loads(json.dumps(s.to_dict()))
        r = tt.State.from_dict(d)
        assert r.to_dict() == s.to_dict() and r == s
        for p in range(s.num_players()):
            assert r.information_state_string(p) == s.information_state_string(p)
        r._check()


def test_setup_rejects_bad_fields():
    s = build(3, hands=["7h 8h Kc", "2d 4s 9c", "3d 5s 6s"], discard="Jd Qs", stock_top="5c Tc Th")
    s.apply_action(1)
    good = s.to_dict()
    assert tt.State.from_dict(good) == s

    def bad(change, text=None):
        d = json.loads(json.dumps(good))
        change(d)
        with pytest.raises(ValueError) as info:
            tt.State.from_dict(d)
        if text:
            assert text in str(info.value)

    bad(lambda d: d.__setitem__("known", [[], ["Qs"], []]), "known")  # a known card not in that hand
    bad(lambda d: d.__setitem__("known", [["Qs", "Qs"], [], []]))  # more known copies than the hand holds
    bad(lambda d: d.__setitem__("known", [[], [], []]), "known in the taker's hand")  # the taken card unknown
    bad(lambda d: d.__setitem__("known", [["Qs"], []]), "one entry per seat")
    bad(lambda d: d.__setitem__("pool_hand", [["7h"], [], []]), "no pool")
    bad(lambda d: (d.__setitem__("pool_hand", [["Qs"], [], []]), d.__setitem__("pool_active", True)))
    bad(lambda d: d.__setitem__("pool_active", 2), "pool_active")
    bad(lambda d: d.__setitem__("turns", [1, 1]), "one entry per seat")
    bad(lambda d: d.__setitem__("turns", [1] * 9), "one entry per seat")
    bad(lambda d: d.__setitem__("turns", [1, 300, 1]), "turns")
    bad(lambda d: d.__setitem__("totals", [0, -1, 0]), "total")
    bad(lambda d: d.__setitem__("totals", [0, 2**70, 0]))
    bad(lambda d: d.__setitem__("rng", [1, 2, 3]), "4 numbers")
    bad(lambda d: d.__setitem__("rng", [0, 0, 0, 0]), "zero")
    bad(lambda d: d.__setitem__("round_scores", [[0, 0, 0]]), "round scores")
    bad(lambda d: d.__setitem__("move_count", d["max_moves"] + 1), "move_count")
    bad(lambda d: d.__setitem__("max_moves", 0), "max_moves")
    bad(lambda d: d.__setitem__("truncated", 3), "truncated")
    bad(lambda d: d.__setitem__("current", -1), "current")
    bad(lambda d: d.__setitem__("out_seat", 1), "going-out")  # out, but not in the out mask
    bad(lambda d: d.__setitem__("out_mask", 99), "out_mask")
    bad(lambda d: d.__setitem__("taken_kind", 54), "taken_kind")
    bad(lambda d: d.__setitem__("round", 2**64))
    bad(lambda d: d["hands"].__setitem__(0, ["7h"] * 15))
    bad(lambda d: d.__setitem__("stock", d["stock"] * 3))
    bad(lambda d: d["options"].__setitem__("jokers", 3))
    bad(lambda d: d["options"].__setitem__("decks", 300))
    # an out seat's hand is shown: it must be known
    o = build(hands=["4h 5h 6h", "2d 4s 9d"], discard="Jd", stock_top="9c 7c")
    o.apply_action(0)
    o.apply_action(out_id("9c"))
    od = o.to_dict()
    assert tt.State.from_dict(od) == o
    od["known"] = [[], []]
    with pytest.raises(ValueError, match="shown"):
        tt.State.from_dict(od)


def test_setup_loads_a_dict_saved_before_the_T9_record():
    """A dict without known/pool_hand/pool_active loads with the knowledge it
    implies: shown hands (seats out, a finished game) and the card taken
    this turn; compared with the states whose record is exactly that."""
    compared = 0
    for s in samples():
        d = s.to_dict()
        n = s.num_players()
        over = d["phase"] == 2 and not d["truncated"]
        implied = [sorted(d["hands"][q], key=tt.card_to_kind) if over or (d["out_mask"] >> q) & 1 else []
                   for q in range(n)]
        if d["taken_kind"] >= 0 and d["current"] >= 0 and not implied[d["current"]]:
            implied[d["current"]] = [str(tt.kind_to_card(d["taken_kind"]))]
        old = {k: v for k, v in d.items() if k not in ("known", "pool_hand", "pool_active")}
        r = tt.State.from_dict(old)
        assert r.to_dict()["known"] == implied
        if d["known"] == implied and not d["pool_active"]:
            assert r == s
            compared += 1
    assert compared >= 20


def test_rollouts_threads_give_the_same_games():
    g = tt.Game(3, max_moves=2000)
    runs = [tt.rollouts(g, 7, ["greedy", "random", "greedy"], seed=17, threads=t) for t in (1, 2, 3)]
    for r in runs[1:]:
        assert (r.totals == runs[0].totals).all() and (r.moves == runs[0].moves).all()
        assert (r.returns == runs[0].returns).all() and (r.truncated == runs[0].truncated).all()
    assert (tt.rollouts(g, 7, ["greedy", "random", "greedy"], seed=17).totals == runs[0].totals).all()  # default
    s = _pool_states(10)[0]
    obs = [tt.rollouts(s, 6, "greedy", seed=4, observer=1, threads=t) for t in (1, 2, 3)]
    for r in obs[1:]:
        assert (r.totals == obs[0].totals).all() and (r.moves == obs[0].moves).all()
    # game i of a batch from a Game is the game dealt with batch_seed(seed, i)
    one = tt.rollouts(g, 3, "greedy", seed=17, threads=2)
    for i in range(3):
        st = g.new_initial_state(tt._core.batch_seed(17, i))
        play(st)
        assert st.scores() == list(one.totals[i])
    for bad in (0, -1, 10**6):
        with pytest.raises(ValueError):
            tt.rollouts(g, 2, "greedy", seed=1, threads=bad)
    for bad in (1.5, "2", True):
        with pytest.raises(TypeError):
            tt.rollouts(g, 2, "greedy", seed=1, threads=bad)


def test_T9_ambiguous_discard_dissolves_the_pool():
    """state.h, KNOWLEDGE: with two decks a discard may or may not be a pool
    card; the record then forgets the pool (never contradicting it)."""
    def pooled(hands, discard, pool_hand):
        s = build(3, hands=hands, discard=discard, stock_top="2c", phase=1)
        d = s.to_dict()
        d["pool_active"] = True
        d["pool_hand"] = pool_hand
        return tt.State.from_dict(d)

    hands = ["5c 7h 8h Kc", "7h 4s 9c", "3d 5s 8h"]
    # seat 0's 7h is a pool card, seat 1's 7h is not: the table cannot tell which one a 7h discard was
    s = pooled(hands, "Jd 5c", [["5c", "7h"], [], []])
    assert _obsd(s, 1)["pool_held"] == [2, 0, 0]
    s.apply_action(discard_id("7h"))
    assert _obsd(s, 1)["pool"] is None and _obsd(s, 1)["pool_held"] == [0, 0, 0]
    s._check()
    # no 8h in the pool: an 8h discard is no pool card, the pool stays
    s = pooled(hands, "Jd 5c", [["5c", "7h"], [], []])
    before = sorted(_obsd(s, 2)["pool"])
    s.apply_action(discard_id("8h"))
    assert sorted(_obsd(s, 2)["pool"]) == before and _obsd(s, 2)["pool_held"] == [2, 0, 0]
    # the other 5c lies on the pile: a 5c discard is surely the pool card
    s = pooled(hands, "Jd 5c", [["5c", "7h"], [], []])
    s.apply_action(discard_id("5c"))
    o = _obsd(s, 1)
    assert o["pool"] is not None and "5c" not in o["pool"] and o["pool_held"] == [1, 0, 0]
    for seed in range(10):  # and the resampled states keep the pool where it is
        r = s.resample_from_infostate(1, seed)
        assert r.information_state_string(1) == s.information_state_string(1)
        assert len(r.to_dict()["pool_hand"][0]) == 1


def _pool_of(d):
    """The pool's multiset, from a dict: the stock and every hand's pool cards."""
    pool = Counter(d["stock"])
    for h in d["pool_hand"]:
        pool.update(h)
    return pool


def _assert_observations_exact(s, observers, seeds=range(6)):
    """Every resample from each observer's information state gives the same
    information state, observation and tensor, and keeps the pool."""
    d = s.to_dict()
    for q in observers:
        info, obs, tensor = s.information_state_string(q), _obsd(s, q), s.observation_tensor(q)
        for seed in seeds:
            r = s.resample_from_infostate(q, seed)
            r._check()
            rd = r.to_dict()
            assert r.information_state_string(q) == info and _obsd(r, q) == obs
            assert np.array_equal(r.observation_tensor(q), tensor)
            assert rd["pool_active"] == d["pool_active"]
            assert [len(h) for h in rd["pool_hand"]] == [len(h) for h in d["pool_hand"]]
            if d["pool_active"]:
                assert _pool_of(rd) == _pool_of(d)  # the pool's cards move among its places only


def test_T10_a_discard_from_a_hand_of_pool_cards_keeps_the_pool():
    """docs/three_thirteen/RULES.md, What each player knows, T-10: seat 2's
    only hidden cards are two pool cards (3h, Th; its other two cards are
    known) and it discards the 3h. Another 3h lies hidden in seat 1's hand,
    outside the pool, but none of seat 2's own hidden cards that could be a
    3h is outside the pool: the table can tell the 3h came from the pool,
    which loses it and is kept."""
    hands = ["5c 7h 8h", "3h 4s 9c", "3h Th Kd 9d"]
    s = build(3, hands=hands, discard="Jd 5s", stock_top="2c", current=2, phase=1)
    d = s.to_dict()
    d.update({"pool_active": True, "pool_hand": [[], [], ["3h", "Th"]], "known": [[], [], ["9d", "Kd"]]})
    s = tt.State.from_dict(d)
    pool = _pool_of(s.to_dict())
    assert pool["3h"] == 1  # seat 2's: the other 3h is seat 1's, and it is no pool card
    assert _obsd(s, 0)["pool_held"] == [0, 0, 2] and _obsd(s, 0)["known"][2] == ["9d", "Kd"]
    s.apply_action(discard_id("3h"))
    s._check()
    for q in range(3):
        o = _obsd(s, q)
        assert o["pool"] is not None, "the pool was dropped although the table can tell"
        assert Counter(o["pool"]) == pool - Counter(["3h"])
        assert o["pool_held"] == [0, 0, 1]
    assert _obsd(s, 2)["own_pool"] == ["Th"] and s.to_dict()["pool_hand"] == [[], [], ["Th"]]
    assert s.to_dict()["known"][2] == ["9d", "Kd"]
    _assert_observations_exact(s, range(3))
    # with one of seat 2's hidden cards outside the pool (the Kd no longer
    # known), that card could be a 3h: the table cannot tell, the pool goes
    d["known"] = [[], [], ["9d"]]
    s = tt.State.from_dict(d)
    s.apply_action(discard_id("3h"))
    assert _obsd(s, 0)["pool"] is None and _obsd(s, 0)["pool_held"] == [0, 0, 0]
    s._check()
    _assert_observations_exact(s, range(3))


def _hidden_outside_pool(d, q, card):
    return Counter(d["hands"][q])[card] - Counter(d["known"][q])[card] - Counter(d["pool_hand"][q])[card]


def test_T10_random_games_keep_the_pool_when_the_discarder_holds_only_pool_cards():
    """The T-10 position in real games: random four-player games (two decks),
    searched for a discard by a player whose hidden cards are all pool cards,
    of a card of which another copy lies hidden outside the pool in another
    player's hand. Each time the pool loses that card and is kept, and the
    observations stay exact."""
    n, found = 4, []
    for seed in range(40):
        s = tt.Game(n).new_initial_state(seed)
        bots = [PolicyBot("random", seed=seed + q) for q in range(n)]
        while not s.is_terminal() and len(found) < 2:
            p = s.current_player()
            a = bots[p].step(s)
            # the whole record only for discards with a pool (the knowledge alone is cheap)
            d = s.to_dict() if FIRST_DISCARD <= a < FIRST_OUT and s._knowledge()["pool_active"] else None
            s.apply_action(a)
            if d is None or not d["pool_active"]:
                continue
            card = str(tt.kind_to_card(a - FIRST_DISCARD))
            own_outside = len(d["hands"][p]) - len(d["known"][p]) - len(d["pool_hand"][p])
            if own_outside or card in d["known"][p]:
                continue
            if not any(_hidden_outside_pool(d, q, card) for q in range(n) if q != p):
                continue  # no copy outside the pool: kept before T-10 too
            after = s.to_dict()
            assert after["pool_active"], (seed, s.move_number())
            assert _pool_of(after) == _pool_of(d) - Counter([card])
            assert [len(h) for h in after["pool_hand"]] == [len(h) - (q == p) for q, h in enumerate(d["pool_hand"])]
            assert Counter(after["pool_hand"][p]) == Counter(d["pool_hand"][p]) - Counter([card])
            s._check()
            if not s.is_terminal():
                _assert_observations_exact(s, range(n), seeds=range(3))
            found.append((seed, s.move_number(), p, card))
        if len(found) >= 2:
            break
    assert len(found) >= 2, found
