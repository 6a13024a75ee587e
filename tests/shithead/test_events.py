"""Events of Shithead moves (threes.events; src/threes_core/shithead/events.c), undo, apply by notation and
Game.position.

Each special card and decision from a built position (Game.position), then random games over every preset:
every event agrees with the state after the move, and the observer view of each event hides exactly the cards
the rules hide (RULES.md section 2: a card drawn is its drawer's alone; plays, burns, pick-ups and blind cards
are seen by everyone)."""
import collections
import random

import pytest

import threes
from threes import Card, Game, IllegalActionError, Move, Rules
from threes.events import Event


def kinds(events):
    return [e.kind for e in events]


def cards(text):
    return [Card(c) for c in text.split()]


# ------------------------------------------------------ each special case --

def test_play_from_hand_then_draw_is_private_to_the_drawer():
    s = Game(2, "classic").position(hands=["4c 9d Kd", "5h 6h 7h"], pile="3s", draw_pile="Ah Qs", rest="burned")
    ev = s.apply("4x1")
    assert kinds(ev) == ["play", "draw"]
    play, draw = ev
    assert (play.seat, play.source, play.cards) == (0, "hand", tuple(cards("4c")))
    assert (draw.seat, draw.count, draw.private) == (0, 1, True)
    assert draw.cards == (Card("Qs"),)          # the draw pile's last card is drawn first
    assert draw.view(0) == draw                 # the drawer sees it
    other = draw.view(1)
    assert other.cards == () and other.count == 1 and other.hidden
    assert draw.view(None).cards == ()          # a spectator neither
    assert play.view(1) == play                 # a play is public
    assert s.hand(0).count(Card("Qs")) == 1


@pytest.mark.parametrize("preset, burn_card", [("threes", "Td"), ("classic", "Td"), ("dutch", "Td")])
def test_burn_card_burns_the_pile_and_the_burner_plays_again(preset, burn_card):
    s = Game(2, preset).position(hands=[f"{burn_card} 5c", "6h"], pile="4c 9s")
    ev = s.apply(burn_card[0] + "x1")
    assert kinds(ev) == ["play", "burn", "again"]
    burn = ev[1]
    assert burn.detail == "burn_card" and burn.seat == 0
    assert sorted(burn.cards) == sorted(cards(f"4c 9s {burn_card}"))
    assert s.pile() == [] and s.current_player() == 0


def test_run_of_four_burns_with_detail_run():
    s = Game(2, "classic").position(hands=["9h 5c", "6h"], pile="9c 9d 9s")
    ev = s.apply("9x1")
    assert kinds(ev) == ["play", "burn", "again"]
    assert ev[1].detail == "run" and len(ev[1].cards) == 4 and ev[1].value == 4


def test_run_length_counts_the_cards_played_and_the_run_below():
    s = Game(2, "classic").position(hands=["9h 9s 5c", "6h"], pile="4c 9c 9d")
    ev = s.apply("9x2")
    assert ev[1].kind == "burn" and ev[1].detail == "run" and ev[1].value == 4
    t = Game(2, "classic").position(hands=["Tc 5c", "6h"], pile="4c")
    assert t.apply("Tx1")[1].value is None  # a burn card: no run


def test_no_run_burn_in_dutch():
    # dutch: run_to_burn 0, four of a kind do not burn
    s = Game(2, "dutch").position(hands=["9h 5c", "6h"], pile="9c 9d 9s")
    assert kinds(s.apply("9x1")) == ["play"]


def test_pickup_lists_the_pile_bottom_first():
    s = Game(2, "classic").position(hands=["4c", "6h"], pile="8s Kd")
    ev = s.apply("pickup")
    assert kinds(ev) == ["pickup"]
    assert ev[0].cards == tuple(cards("8s Kd")) and ev[0].seat == 0 and not ev[0].private
    assert s.current_player() == 1
    # the picked-up cards are public: every seat knows they are in seat 0's hand
    assert sorted(s.known_cards(0)) == sorted(cards("8s Kd"))


def test_pickup_then_play_under_threes_says_plays_again():
    s = Game(2, "threes").position(hands=["4c", "6h"], pile="Kd")
    assert kinds(s.apply("pickup")) == ["pickup", "again"]
    assert s.current_player() == 0


def test_blind_card_played():
    s = Game(2, "classic").position(face_down=[["Kc", "5d"], ["6h"]], pile="4s")
    ev = s.apply("blind 0")
    assert kinds(ev) == ["blind"]
    assert ev[0].cards == (Card("Kc"),) and ev[0].detail == "played" and ev[0].source == "face_down"
    assert not ev[0].private  # turned over for everyone to see


def test_blind_card_that_fails_is_picked_up_with_the_pile():
    s = Game(2, "classic").position(face_down=[["4d", "5d"], ["6h"]], pile="9s Ks")
    ev = s.apply("blind 0")
    assert kinds(ev) == ["blind", "pickup"]
    assert ev[0].cards == (Card("4d"),) and ev[0].detail == "picked_up"
    assert ev[1].cards == tuple(cards("9s Ks 4d"))
    assert sorted(s.hand(0)) == sorted(cards("9s Ks 4d"))


def test_going_out_and_the_shithead():
    s = Game(3, "classic").position(hands=["Ac", "5h", "6h"], pile="4s")
    ev = s.apply("Ax1")
    assert kinds(ev) == ["play", "out"]
    assert (ev[1].seat, ev[1].value, ev[1].detail) == (0, 1, None)
    s.apply("pickup")
    ev = s.apply("6x1")           # seat 2 plays its last card on the open pile? no: on the picked-up pile
    assert ev[-1].kind == "over"
    outs = [e for e in ev if e.kind == "out"]
    assert [(e.seat, e.value, e.detail) for e in outs] == [(2, 2, None), (1, 3, "last")]
    assert s.finish_order() == [0, 2, 1]


def test_swap_decisions_and_who_starts():
    s = Game(3).new_initial_state(seed=5)
    seen = []
    while s.phase == "swap":
        p = s.current_player()
        ev = s.apply(s.legal_actions()[-1])
        assert ev[0].kind == "swap" and ev[0].seat == p
        assert sorted(ev[0].cards) == sorted(s.face_up(p))
        seen.append(kinds(ev))
    assert seen[:-1] == [["swap"]] * (len(seen) - 1)
    assert seen[-1] == ["swap", "start"]


def test_truncation_at_the_move_cap():
    s = Game(2, "classic", max_moves=1).position(hands=["4c 5c", "6h"], pile="")
    ev = s.apply("4x1")
    assert kinds(ev) == ["play", "truncated", "over"]


def test_stalemate_by_repetition():
    rules = Rules.preset("classic").replace(repetition_limit=2)
    for seed in range(200):
        s = Game(2, rules).new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            ev = s.apply(rng.choice(s.legal_actions()))
        if s.is_stalemate():
            assert kinds(ev)[-2:] == ["stalemate", "over"]
            return
    pytest.fail("no stalemate in 200 random games with repetition_limit 2")


# ------------------------------------------------------- random games ----

def _check_move(before, after, action, events):
    """Every event agrees with the states before and after the move."""
    p = before.current_player()
    move = before.decode_action(action)
    ks = kinds(events)
    assert ks, "every move reports something"
    if move.kind == "swap":
        assert ks[0] == "swap"
    elif move.kind == "play":
        assert ks[0] == "play" and events[0].count == move.count
        assert {c.rank for c in events[0].cards} == {move.rank}
    elif move.kind == "blind":
        assert ks[0] == "blind" and events[0].count == 1
        assert (events[0].detail == "picked_up") == ("pickup" in ks)
    else:
        assert ks[0] == "pickup"
        assert list(events[0].cards) == before.pile()
    draws = [e for e in events if e.kind == "draw"]
    assert sum(e.count for e in draws) == len(before.draw_pile()) - len(after.draw_pile())
    burned = [e for e in events if e.kind == "burn"]
    assert sum(len(e.cards) for e in burned) == len(after.burned()) - len(before.burned())
    outs = [e for e in events if e.kind == "out"]
    assert [e.seat for e in outs] == after.finish_order()[len(before.finish_order()):]
    assert ("over" in ks) == after.is_terminal()
    assert ("stalemate" in ks) == after.is_stalemate()
    assert ("truncated" in ks) == (after.is_truncated() and not after.is_stalemate())
    assert ("again" in ks) == (not after.is_terminal() and after.phase == "play" and before.phase == "play"
                               and after.current_player() == p)
    for e in events:
        assert e.seat is None or 0 <= e.seat < before.num_players()
        # what the rules hide: only a draw's cards are private
        assert e.private == (e.kind == "draw")
        for q in [None, *range(before.num_players())]:
            v = e.view(q)
            if e.private and q != e.seat:
                assert v.cards == () and v.count == e.count
                # and the drawn cards are indeed not public knowledge: a move that draws makes no card known
                assert not (collections.Counter(after.known_cards(e.seat))
                            - collections.Counter(before.known_cards(e.seat)))
            else:
                assert v == e
        assert Event.from_dict(e.to_dict()) == e
    for e in events:
        if e.kind == "pickup":
            # a picked-up pile is public: every card of it is known in the taker's hand
            assert not collections.Counter(e.cards) - collections.Counter(after.known_cards(e.seat))


@pytest.mark.parametrize("preset", ["threes", "classic", "dutch"])
@pytest.mark.parametrize("players", [2, 4])
def test_random_games_events_agree_with_the_state(preset, players):
    for seed in range(6):
        s = Game(players, preset).new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            before = s.clone()
            a = rng.choice(s.legal_actions())
            ev = s.apply(a)
            _check_move(before, s, a, ev)
            twin = before.clone()
            twin.apply_action(a)
            assert twin == s  # apply equals apply_action


# ------------------------------------------------------- apply and undo --

def test_apply_takes_notation_moves_and_ids_alike():
    base = Game(2, "classic").position(hands=["Tc Td 5c", "6h"], pile="4s")
    a, b, c = base.clone(), base.clone(), base.clone()
    ea = a.apply("10x2")
    eb = b.apply(Move.play("T", 2))
    ec = c.apply(base.string_to_action("Tx2"))
    assert ea == eb == ec and a == b == c


def test_apply_rejects_illegal_moves_and_changes_nothing():
    s = Game(2, "classic").position(hands=["4c 5c", "6h"], pile="9s")
    before = s.to_dict()
    with pytest.raises(IllegalActionError):
        s.apply("4x1")
    with pytest.raises(ValueError):
        s.apply("not a move")
    with pytest.raises(TypeError):
        s.apply(True)
    with pytest.raises(TypeError):
        s.apply(4.0)
    assert s.to_dict() == before and s.undo_depth() == 0


def test_undo_restores_the_exact_state_all_the_way_back():
    s = Game(4).new_initial_state(seed=11)
    rng = random.Random(3)
    snapshots = []
    while not s.is_terminal() and len(snapshots) < 400:
        snapshots.append((s.clone(), s.to_dict(), s.fingerprint(), s.history()))
        s.apply(rng.choice(s.legal_actions()))
    assert s.undo_depth() == len(snapshots)
    for clone, d, fp, hist in reversed(snapshots):
        s.undo()
        assert s == clone and s.to_dict() == d and s.fingerprint() == fp and s.history() == hist
    assert s.undo_depth() == 0
    with pytest.raises(ValueError, match="nothing to undo"):
        s.undo()


def test_undo_refuses_after_apply_action_and_clones_keep_their_own_undo():
    s = Game(2).new_initial_state(seed=2)
    s.apply(s.legal_actions()[0])
    c = s.clone()
    s.apply_action(s.legal_actions()[0])
    with pytest.raises(ValueError, match="apply_action"):
        s.undo()
    c.undo()  # the clone still takes back its own apply
    assert c == Game(2).new_initial_state(seed=2)


def test_undo_with_repetition_log_is_exact():
    rules = Rules.preset("classic").replace(repetition_limit=3)
    s = Game(2, rules).new_initial_state(seed=4)
    rng = random.Random(1)
    states = []
    while not s.is_terminal() and len(states) < 300:
        states.append(s.clone())
        s.apply(rng.choice(s.legal_actions()))
    for st in reversed(states):
        s.undo()
        assert s == st and s._repetitions() == st._repetitions()


# ----------------------------------------------------------- position ----

def test_position_places_every_missing_card_once():
    g = Game(3, "threes")
    s = g.position(hands=["4c 4c", "Xr", ""], face_up={2: "Kd"}, pile="7h")
    d = s.to_dict()
    everything = [c for zone in ("hands", "face_up") for seat in d[zone] for c in seat]
    everything += [c for seat in d["face_down"] for c in seat if c] + d["pile"] + d["draw_pile"] + d["burned"]
    assert len(everything) == g.rules.deck_size()
    assert collections.Counter(everything) == collections.Counter(
        [r + su for r in "23456789TJQKA" for su in "cdhs"] * 2 + ["Xr", "Xb"] * 2)
    assert d["draw_pile"] == [] and len(d["burned"]) == g.rules.deck_size() - 5
    assert s.current_player() == 0 and s.finish_order() == []


def test_position_rest_to_the_draw_pile_is_shuffled_by_the_seed():
    g = Game(2, "classic")
    hands = ["4c 4d 4h", "5c 5d 5h"]
    a = g.position(hands=hands, rest="draw", seed=7)
    b = g.position(hands=hands, rest="draw", seed=7)
    c = g.position(hands=hands, rest="draw", seed=8)
    assert a == b and len(a.draw_pile()) == 46 and a.draw_pile() != c.draw_pile()
    assert sorted(a.draw_pile()) == sorted(c.draw_pile())


def test_position_errors_name_the_problem():
    g = Game(2, "classic")
    with pytest.raises(ValueError, match="card 5d is placed 2 times; the 1 deck"):
        g.position(hands=["5d", "5d"])
    with pytest.raises(ValueError, match="Xr"):
        g.position(hands=["Xr", "5d"])       # classic has no jokers
    with pytest.raises(ValueError, match="rest must be"):
        g.position(hands=["4c", "5c"], rest="stock")
    with pytest.raises(ValueError, match="3 seats in a 2-player game"):
        g.position(hands=["4c", "5c", "6c"])
    with pytest.raises(TypeError, match="per seat"):
        g.position(hands="4c 5c")


def test_position_seats_without_cards_are_out():
    s = Game(3, "classic").position(hands=["4c", "", "6h"], pile="3s")
    assert s.finish_order() == [1] and s.current_player() == 0


def test_apply_without_undo_keeps_nothing():
    s = Game(2).new_initial_state(seed=6)
    t = s.clone()
    assert s.apply(s.legal_actions()[0], undo=False) == t.apply(t.legal_actions()[0])
    assert s == t and s.undo_depth() == 0 and t.undo_depth() == 1
    with pytest.raises(ValueError, match="nothing to undo"):
        s.undo()
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0], undo=False)  # forgets the kept state
    assert s.undo_depth() == 0
    with pytest.raises(ValueError, match="nothing to undo"):
        s.undo()


@pytest.mark.parametrize("make", [lambda: Game(2).new_initial_state(seed=5),
                                  lambda: threes.three_thirteen.Game(2).new_initial_state(seed=5)])
def test_a_resample_keeps_no_undo_record(make):
    # the true states before the move would tell the resampled seat the hidden cards
    s = make()
    for _ in range(3):
        s.apply(s.legal_actions()[0])
    r = s.resample_from_infostate(0, seed=99)
    assert s.undo_depth() == 3 and r.undo_depth() == 0
    with pytest.raises(ValueError, match="nothing to undo"):
        r.undo()
