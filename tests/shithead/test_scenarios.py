"""Rule scenario tests: one hand-built position per rule of RULES.md.

Every test names the RULES.md section or decision (D-n) it checks. Positions
are built with ``threes.State.from_dict``; the helper ``build`` takes only the
zones a scenario cares about and puts every other card of the deck in the
burned cards (or, for the swap phase, at the bottom of the draw pile), so each
position holds the whole deck exactly once.

The tests assert what RULES.md says. Where the engine disagrees, the test
fails; it is not weakened.
"""
import collections
import itertools
import json

import pytest

import threes
from threes import IllegalActionError, Move, Rules, State

RANK_CHARS = "23456789TJQKA"
RANK_ORDER = "23456789TJQKAX"


# --------------------------------------------------------------- helpers --

def rules_of(rules):
    if isinstance(rules, Rules):
        return rules
    return Rules.preset(rules)


def full_deck(rules):
    cards = []
    for _ in range(rules.decks):
        cards += [r + s for r in RANK_CHARS for s in "cdhs"]
        cards += ["Xr", "Xb"][: rules.jokers]
    return cards


def build(rules="threes", n=2, *, hands=None, known=None, up=None, down=None, pile=(), draw=(),
          current=0, dealer=None, phase="play", finish=(), max_moves=None, move_count=0,
          rest_to_draw=False):
    """A position holding the given zones; every other card of the deck goes to
    the burned cards (rest_to_draw: to the bottom of the draw pile)."""
    rules = rules_of(rules)
    hands = [list(h) for h in (hands or [[] for _ in range(n)])]
    known = [list(k) for k in (known or [[] for _ in range(n)])]
    up = [list(u) for u in (up or [[] for _ in range(n)])]
    down = [list(dn) for dn in (down or [[] for _ in range(n)])]
    assert len(hands) == len(known) == len(up) == len(down) == n
    placed = [c for zone in (hands, up) for seat in zone for c in seat]
    placed += [c for seat in down for c in seat if c is not None]
    placed += list(pile) + list(draw)
    deck = collections.Counter(full_deck(rules))
    used = collections.Counter(placed)
    over = used - deck
    assert not over, f"scenario uses cards the deck does not hold that often: {over}"
    rest = sorted((deck - used).elements())
    burned = []
    draw = list(draw)
    if rest_to_draw:
        draw = rest + draw
    else:
        burned = rest
    d = {
        "rules": rules.to_dict(),
        "num_players": n,
        "phase": phase,
        "current_player": current,
        "move_count": move_count,
        "finish_order": list(finish),
        "hands": hands,
        "known": known,
        "face_up": up,
        "face_down": down,
        "pile": list(pile),
        "draw_pile": draw,
        "burned": burned,
    }
    if dealer is not None:
        d["dealer"] = dealer
    if max_moves is not None:
        d["max_moves"] = max_moves
    s = State.from_dict(d)
    s._check()
    return s


def legal(s):
    """The legal actions as a set of action strings."""
    return {s.action_to_string(a) for a in s.legal_actions()}


def act(s, text):
    """Applies the legal action written `text` (as action_to_string writes it); runs the C check."""
    ids = [a for a in s.legal_actions() if s.action_to_string(a) == text]
    assert ids, f"{text!r} is not legal here; legal: {sorted(legal(s))}"
    a = ids[0]
    s.apply_action(a)
    s._check()
    return s


def ms(cards):
    """A zone as a sorted list of card strings (multiset comparison)."""
    return sorted(str(c) for c in cards)


def strs(cards):
    return [None if c is None else str(c) for c in cards]


def burned_gain(before, after):
    """Cards burned by the last action (multiset)."""
    return collections.Counter(map(str, after.burned())) - collections.Counter(map(str, before.burned()))


def swap_keep(s):
    """Applies the current seat's swap decision that keeps its face-up cards."""
    ranks = [c.rank for c in s.face_up(s.current_player())]
    a = s.encode_move(Move.swap(ranks))
    assert a in s.legal_actions()
    s.apply_action(a)
    s._check()


def swap_all_keep(s):
    while s.phase.value == "swap":
        swap_keep(s)
    return s


def swap_state(rules, hands, up, down=None, dealer=None):
    """A swap-phase position; the first seat to decide is the one after the dealer."""
    rules = rules_of(rules)
    n = len(hands)
    d = n - 1 if dealer is None else dealer
    if down is None:  # RULES.md 4.1: every seat has its face-down cards in the swap phase
        used = collections.Counter(c for zone in (hands, up) for seat in zone for c in seat)
        rest = sorted((collections.Counter(full_deck(rules)) - used).elements())
        k = rules.cards_per_zone
        down = [rest[i * k:(i + 1) * k] for i in range(n)]
    return build(rules, n, hands=hands, up=up, down=down, phase="swap", current=(d + 1) % n,
                 dealer=dealer, rest_to_draw=True)


# ================================================ section 3: the presets --

@pytest.mark.parametrize("name, expected", [
    ("threes", dict(decks=2, jokers=2, cards_per_zone=3, wild=("2", "8", "X"), lower=("7",), lower_strict=False,
                    invisible=("8",), burn=("T", "X"), run_to_burn=4, invisible_in_runs="skip",
                    burner_plays_again=True, pickup_then_play=True, merge_hand_with_face_up=False,
                    start="rank-from-dealer",
                    start_ranks=tuple("3456789TJQKA2X"))),
    ("classic", dict(decks=1, jokers=0, cards_per_zone=3, wild=("2", "3", "T"), lower=("7",), lower_strict=False,
                     invisible=("3",), burn=("T",), run_to_burn=4, invisible_in_runs="break",
                     burner_plays_again=True, pickup_then_play=False, merge_hand_with_face_up=False,
                     start="rank-suit", start_ranks=tuple("456789TJQKA23"), start_suits=tuple("hdcs"))),
    ("dutch", dict(decks=1, jokers=0, cards_per_zone=3, wild=("2",), lower=("7",), lower_strict=True,
                   invisible=("9",), burn=("T",), run_to_burn=0, invisible_in_runs="break",
                   burner_plays_again=True, pickup_then_play=True, merge_hand_with_face_up=False,
                   start="rank-suit", start_ranks=tuple("3456789TJQKA2"), start_suits=tuple("cdhs"))),
])
def test_section3_preset_parameters_match_table(name, expected):
    """Section 3 table (also D-9, D-10, D-11, D-12, D-14 as parameters)."""
    r = Rules.preset(name)
    for field, value in expected.items():
        assert getattr(r, field) == value, field


@pytest.mark.parametrize("preset, overrides, ok, too_many", [
    ("threes", {}, 12, 13),
    ("classic", {}, 5, 6),
    ("dutch", {}, 5, 6),
    ("classic", {"cards_per_zone": 2}, 8, 9),
    ("dutch", {"decks": 2}, 11, 12),
])
def test_section3_player_counts_and_oversized_deal_is_an_error(preset, overrides, ok, too_many):
    """Section 3: a deal needs N x 3 x cards_per_zone cards; a deal that does not fit raises ValueError."""
    rules = Rules.preset(preset, **overrides)
    s = threes.Game(ok, rules).new_initial_state(seed=1)
    s._check()
    assert s.draw_pile_size() == rules.deck_size() - ok * 3 * rules.cards_per_zone
    with pytest.raises(ValueError):
        threes.Game(too_many, rules)
    with pytest.raises(ValueError):
        threes.Game(1, rules)


def test_section1_jokers_per_deck():
    """Section 1: jokers may be 0, 1 (the red one) or 2 per deck."""
    assert Rules.preset("threes").deck_size() == 108
    one = Rules.preset("threes", jokers=1)
    assert one.deck_size() == 106
    s = build(one, hands=[["Xr", "4c"], ["Ac"]], pile=["Ah"])
    assert "Xr" in ms(s.hand(0))
    d = s.to_dict()
    d["hands"][0] = ["Xb", "4c"]  # the black joker is not in this deck
    d["burned"].append("Xr")
    with pytest.raises(ValueError, match="Xb"):
        State.from_dict(d)
    with pytest.raises(ValueError):
        Rules.preset("threes", jokers=3)


# =========================================== section 4: deal and swapping --

def test_4_1_deal_zone_sizes_and_D13_default_dealer():
    """4.1 and D-13: seat N-1 deals, seat 0 decides first; 3 cards per zone, the rest is the draw pile."""
    s = threes.Game(4, "threes").new_initial_state(seed=11)
    assert s.dealer == 3
    assert s.phase.value == "swap"
    assert s.current_player() == 0
    for p in range(4):
        assert len(s.hand(p)) == 3 and len(s.face_up(p)) == 3
        assert all(c is not None for c in s.face_down(p)) and len(s.face_down(p)) == 3
    assert s.draw_pile_size() == 108 - 36
    assert s.pile() == [] and s.burned() == []
    g = threes.Game(3, "classic", dealer=0).new_initial_state(seed=5)
    assert g.dealer == 0 and g.current_player() == 1
    # from_dict without a dealer: seat N-1 (D-13)
    st = swap_state("classic", [["Jc", "Jd", "Jh"], ["Qc", "Qd", "Qh"], ["Kc", "Kd", "Kh"]],
                    [["Ac", "Ad", "Ah"], ["9c", "9d", "9h"], ["8c", "8d", "8h"]])
    assert st.dealer == 2 and st.current_player() == 0


def test_4_2_D1_swap_legal_actions_are_the_rank_multisets():
    """4.2 / D-1: the swap decision names a multiset of cards_per_zone ranks from hand + face-up; nothing else is legal."""
    s = swap_state("threes", [["7c", "9d", "Kh"], ["4c", "4d", "5h"]],
                   [["3s", "Ac", "3h"], ["Jc", "Qd", "Ks"]])
    avail = collections.Counter("79K3A3")
    ranks = sorted(avail, key=RANK_ORDER.index)
    expected = set()
    for combo in itertools.combinations_with_replacement(ranks, 3):
        if all(combo.count(r) <= avail[r] for r in combo):
            expected.add("swap " + "".join(combo))
    assert legal(s) == expected
    assert all(m.kind == "swap" for m in s.legal_moves())


def test_4_2_swap_minimal_movement_and_D15_known():
    """4.2 minimal movement (face-up copies stay in canonical order) and D-15 (a face-up card taken in is known)."""
    s = swap_state("threes", [["7c", "9d", "Kh"], ["4c", "4d", "5h"]],
                   [["3s", "Ac", "3h"], ["Jc", "Qd", "Ks"]])
    act(s, "swap 3KA")
    assert ms(s.face_up(0)) == ms(["3h", "Kh", "Ac"])
    assert ms(s.hand(0)) == ms(["3s", "7c", "9d"])
    assert ms(s.known_cards(0)) == ["3s"]
    assert s.current_player() == 1


def test_4_2_swap_extra_copies_come_from_hand_in_canonical_order():
    """4.2: extra copies of a chosen rank come from the hand in canonical order; the face-up zone keeps its size."""
    s = swap_state("classic", [["Kd", "Ks", "Kc"], ["4c", "4d", "5h"]],
                   [["2h", "5c", "9s"], ["Jc", "Qd", "Qs"]])
    act(s, "swap 9KK")
    assert ms(s.face_up(0)) == ms(["9s", "Kc", "Kd"])
    assert ms(s.hand(0)) == ms(["2h", "5c", "Ks"])
    assert ms(s.known_cards(0)) == ms(["2h", "5c"])
    assert len(s.face_up(0)) == 3


def test_4_2_swap_keeping_the_face_up_ranks_moves_nothing():
    """4.2: choosing the ranks already face up moves no card and reveals nothing."""
    s = swap_state("threes", [["7c", "9d", "Kh"], ["4c", "4d", "5h"]],
                   [["3s", "Ac", "3h"], ["Jc", "Qd", "Ks"]])
    act(s, "swap 33A")
    assert ms(s.face_up(0)) == ms(["3s", "Ac", "3h"])
    assert ms(s.hand(0)) == ms(["7c", "9d", "Kh"])
    assert s.known_cards(0) == []


def test_4_2_D1_swap_order_after_dealer_dealer_last_once_each():
    """4.2 / D-1: seats decide once each, from the seat after the dealer, the dealer last; then play begins."""
    s = swap_state("threes", [["4c", "9d", "Kh"], ["5c", "5d", "Jh"], ["6c", "6d", "Qh"]],
                   [["Ac", "Ad", "Ah"], ["Jc", "Qd", "Ks"], ["9c", "9h", "9s"]], dealer=1)
    order = []
    while s.phase.value == "swap":
        order.append(s.current_player())
        swap_keep(s)
    assert order == [2, 0, 1]
    assert s.phase.value == "play"
    assert s.move_number() == 3
    assert all(m.kind != "swap" for m in s.legal_moves())
    with pytest.raises(IllegalActionError):
        s.apply_action(s.encode_move(Move.swap(["A", "A", "A"])))


# ============================================================ section 5 --

def test_5_rank_from_dealer_first_holder_clockwise_after_dealer():
    """5 rank-from-dealer (threes): clockwise from the seat after the dealer, first hand holding a 3; face-up 3s do not count."""
    hands = [["3c", "5h", "6h"], ["3h", "Jd", "Qd"], ["4c", "9d", "Jh"], ["3d", "Kc", "Qs"]]
    up = [["Ac", "Ad", "Ah"], ["Kd", "Kh", "Ks"], ["3s", "9s", "9h"], ["Jc", "Js", "Qc"]]
    s = swap_all_keep(swap_state("threes", hands, up, dealer=1))
    assert s.phase.value == "play"
    assert s.current_player() == 3


def test_5_starter_is_found_after_the_swaps_from_hand_cards_only():
    """4.2 / 5: the starter is found when every player has decided; a 3 swapped face up no longer counts."""
    hands = [["3c", "9d", "Kh"], ["3d", "Jd", "Qd"], ["4d", "Jh", "Qh"]]
    up = [["Ac", "Ad", "Ah"], ["Kc", "Kd", "Ks"], ["9c", "9s", "9h"]]
    s = swap_state("threes", hands, up)
    act(s, "swap 3AA")  # seat 0 puts its 3 face up and takes Ah into the hand
    assert ms(s.face_up(0)) == ms(["3c", "Ac", "Ad"])
    assert ms(s.known_cards(0)) == ["Ah"]
    swap_all_keep(s)
    assert s.current_player() == 1


def test_5_rank_from_dealer_next_rank_when_nobody_holds_a_3():
    """5 rank-from-dealer: nobody holds a 3 in hand, so the first holder of a 4 (clockwise after the dealer) starts."""
    hands = [["5c", "9d", "Kh"], ["4c", "Jd", "Qd"], ["4d", "Jh", "Qh"]]
    up = [["3c", "Ad", "Ah"], ["3d", "Kc", "Ks"], ["3h", "9s", "9h"]]
    s = swap_all_keep(swap_state("threes", hands, up))
    assert s.current_player() == 1


def test_5_rank_from_dealer_nobody_holds_any_start_rank():
    """5: if nobody holds any card of start_ranks, the seat after the dealer starts."""
    rules = Rules.preset("threes", start_ranks=("3",))
    hands = [["5c", "9d", "Kh"], ["4c", "Jd", "Qd"], ["4d", "Jh", "Qh"]]
    up = [["3c", "Ad", "Ah"], ["3d", "Kc", "Ks"], ["3h", "9s", "9h"]]
    s = swap_all_keep(swap_state(rules, hands, up, dealer=1))
    assert s.current_player() == 2


def test_5_rank_suit_classic_suit_priority_h_d_c_s():
    """5 rank-suit (classic): 4h, 4d, 4c, 4s ...; only hand cards count (4h is face up)."""
    hands = [["4s", "Jc", "Qc"], ["4c", "Jd", "Qd"], ["4d", "Jh", "Qh"]]
    up = [["4h", "Ac", "Ad"], ["Kc", "Kd", "Kh"], ["9c", "9d", "9h"]]
    s = swap_all_keep(swap_state("classic", hands, up))
    assert s.current_player() == 2


def test_5_rank_suit_classic_5h_before_5d_when_no_4_in_hand():
    """5 rank-suit (classic): no 4 held in hand, so 5h, 5d, 5c, 5s in that order."""
    hands = [["5s", "Jc", "Qc"], ["5h", "Jd", "Qd"], ["5d", "Jh", "Qh"]]
    up = [["4h", "4d", "4c"], ["Kc", "Kd", "Kh"], ["4s", "9d", "9h"]]
    s = swap_all_keep(swap_state("classic", hands, up))
    assert s.current_player() == 1


@pytest.mark.parametrize("hands, starter", [
    ([["Ac", "3c", "3d"], ["2c", "2d", "3h"]], 0),   # A before 2
    ([["3c", "3d", "3h"], ["2c", "2d", "2h"]], 1),   # 2 before 3
    ([["3c", "3d", "3h"], ["3s", "2d", "2h"]], 1),   # 2 before 3 even against 3h
])
def test_D12_classic_start_ranks_go_up_to_A_then_2_then_3(hands, starter):
    """D-12: the classic search goes 4 ... A, then 2, then 3."""
    up = [["4h", "4d", "5h"], ["6h", "7d", "8h"]]
    s = swap_all_keep(swap_state("classic", hands, up))
    assert s.current_player() == starter


@pytest.mark.parametrize("hands, starter", [
    ([["3h", "Jc", "Qc"], ["3d", "Jd", "Qd"], ["4c", "Jh", "Qh"]], 1),
    ([["3h", "Jc", "Qc"], ["3d", "Jd", "Qd"], ["3c", "Jh", "Qh"]], 2),
    ([["3s", "Jc", "Qc"], ["4c", "Jd", "Qd"], ["3h", "Jh", "Qh"]], 2),
])
def test_5_rank_suit_dutch_clubs_3_first(hands, starter):
    """5 rank-suit (dutch): 3c, 3d, 3h, 3s, 4c ..."""
    up = [["Ac", "Ad", "Ah"], ["Kc", "Kd", "Kh"], ["9c", "9d", "9h"]]
    s = swap_all_keep(swap_state("dutch", hands, up))
    assert s.current_player() == starter


@pytest.mark.parametrize("hands, starter", [
    ([["4d", "Jc", "Qc"], ["4c", "Jd", "Qd"], ["4h", "Jh", "Qh"]], 1),  # unlisted: c, d, h canonical
    ([["4d", "Jc", "Qc"], ["4c", "Jd", "Qd"], ["4s", "Jh", "Qh"]], 2),  # listed s first
])
def test_5_rank_suit_unlisted_suits_come_after_listed_in_canonical_order(hands, starter):
    """5: suits not in start_suits come after the listed ones, in canonical order (c d h s)."""
    rules = Rules.preset("classic", start_suits=("s",))
    up = [["Ac", "Ad", "Ah"], ["Kc", "Kd", "Kh"], ["9c", "9d", "9h"]]
    s = swap_all_keep(swap_state(rules, hands, up))
    assert s.current_player() == starter


def test_5_rank_suit_identical_start_cards_first_holder_after_dealer():
    """5: with two identical start cards (two decks), the first holder clockwise from the seat after the dealer starts."""
    rules = Rules.preset("dutch", decks=2)
    hands = [["3c", "Jc", "Qc"], ["4c", "Jd", "Qd"], ["3c", "Jh", "Qh"]]
    up = [["Ac", "Ad", "Ah"], ["Kc", "Kd", "Kh"], ["9c", "9d", "9h"]]
    s = swap_all_keep(swap_state(rules, hands, up, dealer=1))
    assert s.current_player() == 2
    s = swap_all_keep(swap_state(rules, hands, up, dealer=2))
    assert s.current_player() == 0


def test_5_rank_suit_nobody_holds_any_start_rank():
    """5: nobody holds a card of start_ranks (only 3 here): the seat after the dealer starts."""
    rules = Rules.preset("dutch", start_ranks=("3",))
    hands = [["5c", "Jc", "Qc"], ["4c", "Jd", "Qd"], ["4d", "Jh", "Qh"]]
    up = [["3c", "Ad", "Ah"], ["Kc", "Kd", "Kh"], ["9c", "9d", "9h"]]
    s = swap_all_keep(swap_state(rules, hands, up, dealer=0))
    assert s.current_player() == 1


def test_D2_starter_is_free_to_play_any_legal_move():
    """D-2: the holder of the dutch 3c starts but need not play it."""
    hands = [["9d", "3c", "Kh"], ["4c", "Jd", "Qd"]]
    up = [["Ac", "Ad", "Ah"], ["Kc", "Kd", "5h"]]
    s = swap_all_keep(swap_state("dutch", hands, up))
    assert s.current_player() == 0
    assert legal(s) == {"3x1", "9x1", "Kx1"}
    act(s, "Kx1")
    assert strs(s.pile()) == ["Kh"]
    assert s.current_player() == 1


# ====================================================== section 6: sources --

def test_6_hand_is_played_before_face_up():
    """6: the hand is the source while it holds cards: an unplayable hand forces a pick-up though face-up K would fit."""
    s = build("threes", hands=[["5c"], []], up=[["Kc", "Kd", "Ah"], []], down=[[], ["Ac"]], pile=["9d"])
    assert legal(s) == {"pickup"}


def test_6_2_face_up_source_every_count_D8():
    """6.2 face-up source and D-8 (threes): equal face-up cards may be played together, every count."""
    s = build("threes", hands=[[], []], up=[["9c", "9d", "4h"], []], down=[["Qc"], ["Ac"]], pile=["6d"])
    assert legal(s) == {"up 9x1", "up 9x2"}
    act(s, "up 9x2")
    assert ms(s.face_up(0)) == ["4h"]
    assert ms(s.pile()) == ms(["6d", "9c", "9d"])
    assert s.current_player() == 1


@pytest.mark.parametrize("preset", ["classic", "dutch"])
def test_D8_face_up_duplicates_together_classic_dutch(preset):
    """D-8: classic and dutch also play equal face-up cards together."""
    s = build(preset, hands=[[], []], up=[["Jc", "Jd", "4h"], []], down=[["Qc"], ["Ac"]], pile=["6d"])
    assert legal(s) == {"up Jx1", "up Jx2"}
    act(s, "up Jx2")
    assert ms(s.face_up(0)) == ["4h"]
    assert s.current_player() == 1


def test_6_2_pickup_from_face_up_source_returns_to_hand():
    """6.2: nothing face-up playable: pick up; face-up cards stay; play continues from the hand."""
    s = build("threes", hands=[[], []], up=[["4c", "5d"], []], down=[["Qc"], ["Ac"]], pile=["6c", "9h"])
    assert legal(s) == {"pickup"}
    act(s, "pickup")
    assert ms(s.hand(0)) == ms(["6c", "9h"])
    assert ms(s.known_cards(0)) == ms(["6c", "9h"])
    assert ms(s.face_up(0)) == ms(["4c", "5d"])
    assert strs(s.face_down(0)) == ["Qc", None, None]
    assert s.current_player() == 0
    assert legal(s) == {"6x1", "9x1"}


def test_6_2_face_down_legal_moves_are_exactly_the_occupied_slots():
    """6.2: with hand and face-up empty, the legal moves are the occupied slots, whatever the cards."""
    s = build("threes", hands=[[], []], down=[["Kc", None, "4d"], ["Ac"]], pile=["Ah"])
    assert legal(s) == {"blind 0", "blind 2"}


def test_6_2_blind_play_that_is_playable():
    """6.2: a playable face-down card is played as a single card."""
    s = build("threes", hands=[[], []], down=[["Kc", None, "4d"], ["Ac"]], pile=["9h"])
    act(s, "blind 0")
    assert strs(s.pile()) == ["9h", "Kc"]
    assert strs(s.face_down(0)) == [None, None, "4d"]
    assert s.hand(0) == []
    assert s.current_player() == 1


def test_6_2_blind_play_not_playable_picks_up_pile_and_card_threes():
    """6.2 / 6.3 step 4: an unplayable face-down card is picked up with the pile, all known; threes plays again."""
    s = build("threes", hands=[[], []], down=[["Kc", None, "4d"], ["Ac"]], pile=["5s", "9h"])
    act(s, "blind 2")
    assert s.pile() == []
    assert ms(s.hand(0)) == ms(["5s", "9h", "4d"])
    assert ms(s.known_cards(0)) == ms(["5s", "9h", "4d"])
    assert strs(s.face_down(0)) == ["Kc", None, None]
    assert s.current_player() == 0
    assert legal(s) == {"4x1", "5x1", "9x1"}


def test_6_2_blind_play_not_playable_classic_turn_passes():
    """6.2: the failed blind play counts as a pick-up; classic (no pickup_then_play) passes the turn."""
    s = build("classic", hands=[[], []], down=[["Kc", None, "4d"], ["Ac"]], pile=["5s", "9h"])
    act(s, "blind 2")
    assert s.pile() == []
    assert ms(s.hand(0)) == ms(["5s", "9h", "4d"])
    assert ms(s.known_cards(0)) == ms(["5s", "9h", "4d"])
    assert s.current_player() == 1


def test_D7_one_face_down_card_per_play():
    """D-7: one face-down card per play, never combined, even when the slots hold equal ranks."""
    s = build("threes", hands=[[], []], down=[["4c", "4d", "4h"], ["Ac"]], pile=[])
    assert legal(s) == {"blind 0", "blind 1", "blind 2"}
    act(s, "blind 0")
    assert strs(s.pile()) == ["4c"]
    assert strs(s.face_down(0)) == [None, "4d", "4h"]
    assert s.current_player() == 1


@pytest.mark.parametrize("card, pile", [("Tc", ["9h"]), ("Xr", ["Ah"])])
def test_D7_blind_card_that_burns_plays_again_from_next_source(card, pile):
    """D-7: a face-down 10 / joker burns; the player plays again on the open pile from the next source."""
    s = build("threes", hands=[[], []], down=[[card, "Kc", None], ["Ac"]], pile=pile)
    before = s.clone()
    act(s, "blind 0")
    assert s.pile() == []
    assert burned_gain(before, s) == collections.Counter(pile + [card])
    assert s.current_player() == 0
    assert s.effective_top() is None
    assert legal(s) == {"blind 1"}


def test_6_2_multi_card_play_every_count_from_the_hand():
    """6.2: from the hand, every count from 1 to the copies held."""
    s = build("threes", hands=[["9c", "9d", "9h", "4s"], ["Ac"]], pile=["6d"])
    assert legal(s) == {"9x1", "9x2", "9x3"}
    act(s, "9x3")
    assert ms(s.hand(0)) == ["4s"]
    assert ms(s.pile()) == ms(["6d", "9c", "9d", "9h"])
    assert s.current_player() == 1


def test_6_1_open_pile_takes_anything():
    """6.1: an empty pile is open: every rank may be played."""
    s = build("threes", hands=[["3c", "7d", "Kh", "Ah"], ["Ac"]], pile=[])
    assert s.effective_top() is None
    assert legal(s) == {"3x1", "7x1", "Kx1", "Ax1"}


def test_D3_no_voluntary_pickup():
    """D-3 / 6.2: pick up only when nothing can be played; trying it otherwise is illegal and changes nothing."""
    s = build("threes", hands=[["4c", "5d", "Kh"], ["Ac"]], pile=["9d"])
    assert legal(s) == {"Kx1"}
    before = s.to_dict()
    with pytest.raises(IllegalActionError):
        s.apply_action(s.string_to_action("pickup"))
    assert s.to_dict() == before


def test_6_2_pickup_when_nothing_playable_threes_plays_again():
    """6.2 pick-up: the whole pile goes to the hand, known; 6.3 step 4: threes (pickup_then_play) plays again on the empty pile."""
    s = build("threes", hands=[["4c", "5d"], ["Ac"]], up=[["Jc"], []], down=[["Qd"], []], pile=["6c", "9d"])
    assert legal(s) == {"pickup"}
    act(s, "pickup")
    assert ms(s.hand(0)) == ms(["4c", "5d", "6c", "9d"])
    assert ms(s.known_cards(0)) == ms(["6c", "9d"])
    assert s.pile() == []
    assert ms(s.face_up(0)) == ["Jc"]
    assert strs(s.face_down(0)) == ["Qd", None, None]
    assert s.current_player() == 0
    assert legal(s) == {"4x1", "5x1", "6x1", "9x1"}


def test_6_3_classic_pickup_ends_the_turn():
    """6.3 step 4 (classic, pickup_then_play off): after picking up, the turn passes."""
    s = build("classic", hands=[["4c", "5d"], ["Ac"]], pile=["6c", "9d"])
    act(s, "pickup")
    assert ms(s.hand(0)) == ms(["4c", "5d", "6c", "9d"])
    assert s.pile() == []
    assert s.current_player() == 1


@pytest.mark.parametrize("preset, on, nxt", [
    ("classic", True, 0), ("threes", False, 1), ("dutch", True, 0), ("dutch", False, 1),
])
def test_6_3_pickup_then_play_option(preset, on, nxt):
    """6.3 step 4: pickup_then_play on -> the same player moves on the empty pile; off -> the turn passes."""
    rules = Rules.preset(preset, pickup_then_play=on)
    s = build(rules, 3, hands=[["4c", "5d"], ["Ac"], ["Kc"]], pile=["6c", "9d"])
    act(s, "pickup")
    assert s.current_player() == nxt


def test_2_known_copies_leave_the_hand_first():
    """Section 2: a play of a rank takes the known copies first."""
    s = build("threes", hands=[["5c", "5d", "9h"], ["Ac"]], known=[["5d"], []], pile=["4s"])
    act(s, "5x1")
    assert strs(s.pile()) == ["4s", "5d"]
    assert ms(s.hand(0)) == ms(["5c", "9h"])
    assert s.known_cards(0) == []


def test_2_known_copies_first_then_canonical_order():
    """Section 2: known copies first, then the others in canonical order (5h known; then 5c, not 5d)."""
    s = build("classic", hands=[["5c", "5d", "5h", "Kc"], ["Ac"]], known=[["5h", "Kc"], []], pile=["4s"])
    act(s, "5x2")
    assert ms(s.pile()) == ms(["4s", "5h", "5c"])
    assert ms(s.hand(0)) == ms(["5d", "Kc"])
    assert ms(s.known_cards(0)) == ["Kc"]  # stays known until played


def test_6_3_step2_refill_draws_the_top_of_the_draw_pile():
    """6.3 step 2: the hand is refilled to cards_per_zone from the draw pile (the last card first); drawn cards are not known."""
    s = build("threes", hands=[["5c", "5d", "9h"], ["Ac", "Ad", "Ah"]], pile=["4s"], draw=["Kc", "Qd", "Jh"])
    act(s, "5x2")
    assert ms(s.hand(0)) == ms(["9h", "Jh", "Qd"])
    assert strs(s.draw_pile()) == ["Kc"]
    assert s.known_cards(0) == []


def test_6_3_step2_refill_stops_when_draw_pile_is_empty():
    """6.3 step 2: draw until cards_per_zone or the draw pile is empty."""
    s = build("threes", hands=[["5c", "5d", "9h"], ["Ac", "Ad", "Ah"]], pile=["4s"], draw=["Jh"])
    act(s, "5x2")
    assert ms(s.hand(0)) == ms(["9h", "Jh"])
    assert s.draw_pile_size() == 0


def test_6_3_step2_large_hand_draws_nothing():
    """6.3 step 2: a hand larger than cards_per_zone draws nothing."""
    s = build("threes", hands=[["5c", "9h", "9d", "Jh", "Qc"], ["Ac", "Ad", "Ah"]], pile=["4s"], draw=["Kc", "Kd"])
    act(s, "5x1")
    assert ms(s.hand(0)) == ms(["9h", "9d", "Jh", "Qc"])
    assert s.draw_pile_size() == 2


def test_6_3_burn_then_refill_then_play_again():
    """6.3 steps 1, 2, 4: a 10 burns the pile, the hand is refilled, the burner plays again on the open pile."""
    s = build("threes", hands=[["Tc", "5d", "6h"], ["Ac", "Ad", "Ah"]], pile=["9d", "9s"], draw=["Kc", "Qd"])
    before = s.clone()
    act(s, "Tx1")
    assert s.pile() == []
    assert burned_gain(before, s) == collections.Counter(["9d", "9s", "Tc"])
    assert ms(s.hand(0)) == ms(["5d", "6h", "Qd"])
    assert s.current_player() == 0
    assert s.effective_top() is None
    assert legal(s) == {"5x1", "6x1", "Qx1"}


def test_6_3_burner_plays_again_off():
    """6.3 step 4: with burner_plays_again off, the pile still burns but the turn passes."""
    rules = Rules.preset("threes", burner_plays_again=False)
    s = build(rules, hands=[["Tc", "5d", "6h"], ["Ac", "Ad", "Ah"]], pile=["9d", "9s"])
    act(s, "Tx1")
    assert s.pile() == []
    assert s.current_player() == 1


def test_6_3_step3_out_after_burn_turn_passes():
    """6.3 steps 3-4: a player who burns with the last card is out; the next player moves, not the burner."""
    s = build("threes", 3, hands=[[], ["Ac"], ["Kc"]], up=[["Tc"], [], []], pile=["9d"])
    act(s, "up Tx1")
    assert s.finish_order() == [0]
    assert s.current_player() == 1
    assert not s.is_terminal()


def test_6_3_step3_going_out_with_the_last_face_down_card():
    """6.3 step 3: with no cards left anywhere the player is out and takes the next place."""
    s = build("threes", 3, hands=[[], ["Ac"], ["Kc"]], down=[[None, "Kd", None], [], []], pile=["9h"])
    act(s, "blind 1")
    assert s.finish_order() == [0]
    assert s.current_player() == 1
    assert not s.is_terminal()
    assert s.returns() == [0.0, 0.0, 0.0]


def test_6_3_step3_not_out_while_the_draw_pile_refills_the_hand():
    """6.3 steps 2-3: refill comes before the out check."""
    # (A draw pile means every hand holds at least 3 cards: 6.3 step 2.)
    s = build("threes", 3, hands=[["Kc", "Kd", "Ks"], ["Ac", "Ad", "Ah"], ["Qc", "Qd", "Qh"]], pile=["9h"],
              draw=["4c"])
    act(s, "Kx3")
    assert s.finish_order() == []
    assert ms(s.hand(0)) == ["4c"]
    assert s.current_player() == 1


def test_6_3_next_player_skips_players_out():
    """6.3 step 4: the turn passes clockwise to the next player who is not out."""
    s = build("threes", 4, hands=[["Kc", "5c"], [], ["Ac"], ["Ad"]], pile=["9h"], finish=[1])
    act(s, "Kx1")
    assert s.current_player() == 2


# ============================================================== merging --

def test_6_2_merge_hand_with_face_up_on():
    """6.2 merge_hand_with_face_up: draw pile empty, all hand cards of rank Q: they may take 1+ face-up Qs along."""
    rules = Rules.preset("threes", merge_hand_with_face_up=True)
    s = build(rules, hands=[["Qc"], ["Ac"]], up=[["Qd", "Qh", "5s"], []], pile=["9d"])
    assert legal(s) == {"Qx1", "hand+up Qx2", "hand+up Qx3"}
    act(s, "hand+up Qx3")
    assert s.hand(0) == []
    assert ms(s.face_up(0)) == ["5s"]
    assert ms(s.pile()) == ms(["9d", "Qc", "Qd", "Qh"])
    assert s.current_player() == 1


def test_6_2_merge_off_by_default_in_threes():
    """6.2: without merge_hand_with_face_up (all presets) the last hand card is played alone."""
    s = build("threes", hands=[["Qc"], ["Ac"]], up=[["Qd", "Qh", "5s"], []], pile=["9d"])
    assert legal(s) == {"Qx1"}
    with pytest.raises(IllegalActionError):
        s.apply_action(s.encode_move(Move.play("Q", 2)))


def test_6_2_merge_needs_empty_draw_pile_and_single_rank_hand():
    """6.2: merging needs the draw pile empty and every hand card of the merged rank."""
    rules = Rules.preset("threes", merge_hand_with_face_up=True)
    s = build(rules, hands=[["Qc", "Qd", "Qs"], ["Ac", "Ad", "Ah"]], up=[["Qd", "Qh", "5s"], []], pile=["9d"],
              draw=["4c"])
    assert legal(s) == {"Qx1", "Qx2", "Qx3"}
    s = build(rules, hands=[["Qc", "Kc"], ["Ac"]], up=[["Qd", "Qh", "5s"], []], pile=["9d"])
    assert legal(s) == {"Qx1", "Kx1"}


# ========================================================= section 7 --

def test_7_game_end_with_shithead_and_returns():
    """7: when one player is left with cards, that player is the shithead; returns +1 / -1."""
    s = build("threes", hands=[["Kc"], ["Ac", "4d"]], pile=["9h"])
    act(s, "Kx1")
    assert s.is_terminal()
    assert s.phase.value == "over"
    assert s.current_player() == threes.TERMINAL_PLAYER_ID == -4
    assert s.finish_order() == [0, 1]
    assert not s.is_truncated()
    assert s.returns() == pytest.approx([1.0, -1.0])
    assert s.legal_actions() == []
    assert ms(s.hand(1)) == ms(["Ac", "4d"])  # the cards left stay where they are


def test_7_returns_formula_four_players():
    """7 returns: place k is worth (N-1-2k)/(N-1)."""
    s = build("threes", 4, hands=[[], ["4c"], [], ["Kc"]], pile=["9h"], current=3, finish=[2, 0])
    act(s, "Kx1")
    assert s.is_terminal() and not s.is_truncated()
    assert s.finish_order() == [2, 0, 3, 1]
    assert s.returns() == pytest.approx([1 / 3, -1.0, 1.0, -1 / 3])
    assert sum(s.returns()) == pytest.approx(0.0)


def test_7_move_cap_truncation_shares_the_open_places():
    """7: at the move cap the game ends truncated; players out keep their places, the rest share the mean."""
    s = build("threes", 4, hands=[["Kc", "5d"], [], ["4c"], ["Ad"]], pile=["9h"], finish=[1],
              max_moves=10, move_count=9)
    act(s, "Kx1")
    assert s.is_terminal()
    assert s.is_truncated()
    assert s.current_player() == -4
    assert s.legal_actions() == []
    assert s.finish_order() == [1]
    mean = (1 / 3 - 1 / 3 - 1.0) / 3
    assert s.returns() == pytest.approx([mean, 1.0, mean, mean])
    assert sum(s.returns()) == pytest.approx(0.0)


def test_7_last_allowed_move_that_finishes_is_a_normal_finish():
    """7: a game whose last allowed move finishes it is a normal finish, not truncated."""
    s = build("threes", hands=[["Kc"], ["Ac"]], pile=["9h"], max_moves=5, move_count=4)
    act(s, "Kx1")
    assert s.is_terminal()
    assert not s.is_truncated()
    assert s.finish_order() == [0, 1]
    assert s.returns() == pytest.approx([1.0, -1.0])


def test_7_move_cap_counts_swap_decisions():
    """7: max_moves counts every action, swap decisions included."""
    s = threes.Game(2, "threes", max_moves=2).new_initial_state(seed=3)
    swap_keep(s)
    assert not s.is_terminal()
    swap_keep(s)
    assert s.move_number() == 2
    assert s.is_terminal() and s.is_truncated()
    assert s.finish_order() == []
    assert s.returns() == pytest.approx([0.0, 0.0])


def test_7_example_position_that_cannot_end():
    """7 'Games that cannot end': 5c/6c in hand, 3c/3d face up, K on the pile, no draw pile: nobody can ever go out."""
    s = build("threes", hands=[["5c"], ["6c"]], up=[["3c"], ["3d"]], pile=["Kh"])
    key = lambda st: json.dumps({k: v for k, v in st.to_dict().items() if k not in ("history", "move_count")},
                                sort_keys=True)
    seen = {key(s)}
    frontier = [s]
    while frontier:
        nxt = []
        for st in frontier:
            assert st.finish_order() == [] and not st.is_terminal()
            for a in st.legal_actions():
                c = st.child(a)
                k = key(c)
                if k not in seen:
                    seen.add(k)
                    nxt.append(c)
        frontier = nxt
        assert len(seen) < 5000
    # with a move cap, the game ends truncated with shared (zero) returns
    s = build("threes", hands=[["5c"], ["6c"]], up=[["3c"], ["3d"]], pile=["Kh"], max_moves=40)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    assert s.is_truncated()
    assert s.returns() == pytest.approx([0.0, 0.0])


# ========================================================== threes cards --

def test_threes_2_is_wild_with_value_2():
    """Threes 2: wild (playable on an ace), and a 2 lets anything follow."""
    s = build("threes", hands=[["2c", "3d", "Kh"], ["3c", "9d"]], pile=["Ah"])
    assert legal(s) == {"2x1"}
    act(s, "2x1")
    assert s.effective_top() == "2"
    assert s.current_player() == 1
    assert legal(s) == {"3x1", "9x1"}


def test_threes_7_next_card_equal_or_lower_and_wilds():
    """Threes 7 (6.1 lower, non-strict) and D-4: after a 7, <=7 or wild (2, 8, joker); not 9, 10 or K."""
    s = build("threes", hands=[["2c", "5d", "7h", "8s", "9c", "Tc", "Kd", "Xr"], ["Ac"]], pile=["7c"])
    assert legal(s) == {"2x1", "5x1", "7x1", "8x1", "Xx1"}


def test_threes_8_is_wild_and_invisible():
    """Threes 8: wild (on a K) and invisible: the next player must still beat the K."""
    s = build("threes", hands=[["8d", "4c", "Ah"], ["Qc", "Kd", "4d", "2h"]], pile=["Kc"])
    assert legal(s) == {"8x1", "Ax1"}
    act(s, "8x1")
    assert s.effective_top() == "K"
    assert s.current_player() == 1
    assert legal(s) == {"Kx1", "2x1"}


def test_D6_8_on_open_pile_leaves_it_open():
    """D-6: an 8 on an open pile leaves it open."""
    s = build("threes", hands=[["8d", "Jc"], ["3c", "Kd", "4h"]], pile=[])
    act(s, "8x1")
    assert s.effective_top() is None
    assert legal(s) == {"3x1", "Kx1", "4x1"}


def test_D6_7_under_several_8s_still_forces_lower():
    """D-6: a 7 under any number of 8s still makes the next card go lower."""
    s = build("threes", hands=[["9c", "5d", "7s", "Kh"], ["Ac"]], pile=["7c", "8d", "8h"])
    assert s.effective_top() == "7"
    assert legal(s) == {"5x1", "7x1"}


@pytest.mark.parametrize("top", ["7c", "Jc", "Qc", "Kc", "Ac"])
def test_D4_threes_10_is_not_wild(top):
    """D-4: the threes 10 is not wild: not after a 7, nor after J, Q, K or A."""
    s = build("threes", hands=[["Tc", "Td"], ["Ac" if top != "Ac" else "Ad"]], pile=[top])
    assert not s.is_playable("T")
    assert legal(s) == {"pickup"}


def test_D4_threes_10_obeys_the_normal_rule_and_burns():
    """D-4 / 6.3 step 1: a 10 on a 9 is legal and burns the pile; the burner plays again."""
    s = build("threes", hands=[["Tc", "4d", "4h"], ["Ac"]], pile=["5c", "9d"])
    assert legal(s) == {"Tx1"}
    before = s.clone()
    act(s, "Tx1")
    assert s.pile() == []
    assert burned_gain(before, s) == collections.Counter(["5c", "9d", "Tc"])
    assert s.current_player() == 0
    assert legal(s) == {"4x1", "4x2"}


@pytest.mark.parametrize("top", ["Ah", "7h"])
def test_threes_joker_is_wild_and_burns(top):
    """Threes joker: wild (also on an ace or a 7) and burns the pile."""
    s = build("threes", hands=[["Xr", "4c" if top == "Ah" else "Kc"], ["Ac"]], pile=["5c", top])
    assert "Xx1" in legal(s)
    before = s.clone()
    act(s, "Xx1")
    assert s.pile() == []
    assert burned_gain(before, s) == collections.Counter(["5c", top, "Xr"])
    assert s.current_player() == 0


def test_D5_run_of_four_ignoring_interleaved_8s_burns():
    """D-5 / 6.3 step 1 (skip): 6 6 8 6 + 6 is four 6s in a row: the pile burns, the player goes again."""
    s = build("threes", hands=[["6s", "9c"], ["Ac"]], pile=["6c", "6d", "8h", "6h"])
    assert s.top_run() == ("6", 3)
    before = s.clone()
    act(s, "6x1")
    assert s.pile() == []
    assert burned_gain(before, s) == collections.Counter(["6c", "6d", "8h", "6h", "6s"])
    assert s.current_player() == 0


def test_D5_8s_neither_break_nor_extend_a_run():
    """D-5: an 8 in the middle does not break the run and does not count in it."""
    s = build("threes", hands=[["6s", "9c"], ["Ac"]], pile=["6c", "8h", "6d"])
    assert s.top_run() == ("6", 2)
    act(s, "6x1")
    assert s.top_run() == ("6", 3)
    assert len(s.pile()) == 4
    assert s.current_player() == 1


def test_D5_four_8s_do_not_burn():
    """D-5: four 8s in a row never burn (an invisible card never forms a run)."""
    s = build("threes", hands=[["8s", "9c"], ["Ac"]], pile=["9d", "8c", "8d", "8h"])
    before = s.clone()
    act(s, "8x1")
    assert strs(s.pile()) == ["9d", "8c", "8d", "8h", "8s"]
    assert s.effective_top() == "9"
    assert not burned_gain(before, s)
    assert s.current_player() == 1


def test_threes_four_in_a_row_across_players_and_in_one_play():
    """6.3 step 1: the top run counts across plays of several players; a multi-card play can complete it."""
    s = build("threes", 3, hands=[["Jc", "4c"], ["Jd", "Jh", "4d"], ["Ac"]], pile=["Js"])
    act(s, "Jx1")
    assert s.top_run() == ("J", 2)
    assert s.current_player() == 1
    act(s, "Jx2")
    assert s.pile() == []
    assert s.current_player() == 1


# ========================================================= classic cards --

def test_classic_2_is_wild_and_anything_follows():
    """Classic 2: goes on any card and any card goes on it."""
    s = build("classic", hands=[["2c", "Kd"], ["3c", "4d", "Jc"]], pile=["Ah"])
    assert legal(s) == {"2x1"}
    act(s, "2x1")
    assert legal(s) == {"3x1", "4x1", "Jx1"}


def test_classic_3_is_wild_and_transparent():
    """Classic 3: wild (on a K) and transparent: the next player must beat the K."""
    s = build("classic", hands=[["3d", "4c", "Ah"], ["Qc", "Kd", "4d"]], pile=["Kc"])
    assert legal(s) == {"3x1", "Ax1"}
    act(s, "3x1")
    assert s.effective_top() == "K"
    assert legal(s) == {"Kx1"}


def test_classic_3_breaks_a_run():
    """Classic 3 (invisible_in_runs = break, D-5 last sentence): 5 5 3 5 + 5 is no run of four."""
    s = build("classic", hands=[["5s", "9c"], ["Ac"]], pile=["5c", "5d", "3h", "5h"])
    assert s.top_run() == ("5", 1)
    act(s, "5x1")
    assert len(s.pile()) == 5
    assert s.top_run() == ("5", 2)
    assert s.current_player() == 1


def test_classic_3_on_three_5s_stops_the_burn():
    """Classic: 'if a three interrupts this they are NOT burned': 5 5 5 3 + 5 does not burn."""
    s = build("classic", hands=[["5s", "9c"], ["Ac"]], pile=["5c", "5d", "5h", "3h"])
    assert s.effective_top() == "5"
    act(s, "5x1")
    assert len(s.pile()) == 5
    assert s.current_player() == 1


def test_classic_four_3s_burn():
    """Classic: a 3 forms its own run: four 3s burn."""
    s = build("classic", hands=[["3s", "Kc"], ["Ac"]], pile=["9c", "3c", "3d", "3h"])
    assert s.top_run() == ("3", 3)
    before = s.clone()
    act(s, "3x1")
    assert s.pile() == []
    assert burned_gain(before, s) == collections.Counter(["9c", "3c", "3d", "3h", "3s"])
    assert s.current_player() == 0


def test_classic_7_lower_but_10_2_3_allowed():
    """Classic 7: only a 7 or lower follows (not strict), plus the wild 2, 3 and 10."""
    s = build("classic", hands=[["7d", "6h", "8s", "Tc", "3s", "2d", "Kd"], ["Ac"]], pile=["7c"])
    assert legal(s) == {"7x1", "6x1", "Tx1", "3x1", "2x1"}


def test_classic_10_is_wild_and_burns():
    """Classic 10: goes on any card (an ace) and burns; the burner plays again."""
    s = build("classic", hands=[["Tc", "4d"], ["Ac"]], pile=["5c", "Ah"])
    assert legal(s) == {"Tx1"}
    before = s.clone()
    act(s, "Tx1")
    assert s.pile() == []
    assert burned_gain(before, s) == collections.Counter(["5c", "Ah", "Tc"])
    assert s.current_player() == 0
    assert legal(s) == {"4x1"}


def test_classic_run_of_four_burns():
    """Classic run_to_burn 4: the fourth 6 in a row burns the pile."""
    s = build("classic", hands=[["6s", "9c"], ["Ac"]], pile=["6c", "6d", "6h"])
    act(s, "6x1")
    assert s.pile() == []
    assert s.current_player() == 0


# =========================================================== dutch cards --

def test_D14_dutch_2_is_a_reset():
    """D-14: the dutch 2 is always playable (on an ace, on a 7) and anything may follow it."""
    s = build("dutch", hands=[["2c", "Kd"], ["3c", "4d", "Jc"]], pile=["Ah"])
    assert legal(s) == {"2x1"}
    act(s, "2x1")
    assert legal(s) == {"3x1", "4x1", "Jx1"}
    s = build("dutch", hands=[["2c", "Kd"], ["3c"]], pile=["7h"])
    assert legal(s) == {"2x1"}


def test_D9_dutch_7_strictly_lower():
    """D-9: after a dutch 7 the next card must be strictly lower (a 7 may not follow); a 2 still may."""
    s = build("dutch", hands=[["7d", "6h", "2s", "9c", "Tc", "8d"], ["Ac"]], pile=["7c"])
    assert legal(s) == {"6x1", "2x1"}


def test_D11_dutch_9_is_transparent_but_not_wild():
    """D-11: the 9 obeys the normal rule (not on a K), and is transparent (the 6 below counts)."""
    s = build("dutch", hands=[["9d", "2c"], ["Ac"]], pile=["Kc"])
    assert legal(s) == {"2x1"}
    s = build("dutch", hands=[["9d", "4h"], ["5c", "6d", "Jc"]], pile=["6c"])
    assert legal(s) == {"9x1"}
    act(s, "9x1")
    assert s.effective_top() == "6"
    assert legal(s) == {"6x1", "Jx1"}


def test_D11_dutch_10_burns_but_is_not_wild():
    """D-11: the dutch 10 may not go on a K, nor on a 7; on a 6 it is legal and burns."""
    s = build("dutch", hands=[["Tc", "Ah"], ["Ac"]], pile=["Kc"])
    assert legal(s) == {"Ax1"}
    s = build("dutch", hands=[["Tc", "6h"], ["Ac"]], pile=["7c"])
    assert legal(s) == {"6x1"}
    s = build("dutch", hands=[["Tc", "4d"], ["Ac"]], pile=["5s", "6c"])
    assert legal(s) == {"Tx1"}
    before = s.clone()
    act(s, "Tx1")
    assert s.pile() == []
    assert burned_gain(before, s) == collections.Counter(["5s", "6c", "Tc"])
    assert s.current_player() == 0


def test_D10_dutch_has_no_run_burn():
    """D-10: four 5s in a row do not burn in dutch."""
    s = build("dutch", hands=[["5s", "Kc"], ["Ac"]], pile=["5c", "5d", "5h"])
    act(s, "5x1")
    assert strs(s.pile()) == ["5c", "5d", "5h", "5s"]
    assert s.current_player() == 1
