"""Three Thirteen's public API has the shape of Shithead's: Card objects in
and out, a frozen Observation value, pasteable reprs, the same exception
types for the same mistakes, and action strings that round-trip."""
import dataclasses
import json
import pickle

import numpy as np
import pytest
import threes
from threes import Card, IllegalActionError, three_thirteen as tt

NUM_ACTIONS = 110


def played(n=3, seed=1, moves=9, **options):
    """A state some moves into round 1 (greedy play)."""
    s = tt.Game(n, **options).new_initial_state(seed)
    for _ in range(moves):
        s.apply_action(s._policy_action(1, 7))
    return s


# ------------------------------------------------------------------- cards --


def test_hands_and_discard_pile_are_cards():
    s = played()
    for q in range(s.num_players()):
        hand = s.hand(q)
        assert hand and all(isinstance(c, Card) for c in hand)
        assert [tt.card_to_kind(c) for c in hand] == sorted(tt.card_to_kind(c) for c in hand)  # A low
    pile = s.discard_pile()
    assert pile and all(isinstance(c, Card) for c in pile)
    assert s.to_dict()["discard"] == [str(c) for c in pile]  # the dict stays JSON text


def test_state_dict_keeps_text_and_reads_cards_or_text():
    s = played()
    d = s.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert all(type(c) is str for h in d["hands"] for c in h)
    d2 = dict(d, hands=[[Card(c) for c in h] for h in d["hands"]])
    assert tt.State.from_dict(d2) == s


def test_min_deadwood_takes_text_or_cards_and_gives_cards():
    for hand in ("Qh Kh Ah", ["Qh", "Kh", "Ah"], [Card("Qh"), Card("Kh"), Card("Ah")], ["Qh", Card("Kh"), "ah"]):
        value, arr = tt.min_deadwood(hand, "3")
        assert value == 21 and arr == {"melds": [], "deadwood": [Card("Qh"), Card("Kh"), Card("Ah")]}
        assert all(isinstance(c, Card) for c in arr["deadwood"])
        value, arr = tt.min_deadwood(hand, "3", ace="either")
        assert value == 0 and arr["melds"] == [("run", [Card("Qh"), Card("Kh"), Card("Ah")])]
        assert all(isinstance(c, Card) for c in arr["melds"][0][1])
    assert tt.min_deadwood(played().hand(0), played().wild_rank())[0] == played().deadwood(0)
    assert tt.card_value(Card("Kd"), "3") == tt.card_value("Kd", "3") == 10


# ------------------------------------------------------------- observation --


def test_observation_is_a_frozen_value():
    s = played()
    o = s.observation(1)
    assert isinstance(o, tt.Observation) and dataclasses.is_dataclass(o)
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.round = 5  # type: ignore[misc]
    assert o == s.observation(1) and hash(o) == hash(s.observation(1))
    assert o.observer == 1 and o.num_players == 3 and o.round == s.round() == 1 and o.wild_rank == "3"
    assert o.phase == s.phase and o.current_player == s.current_player() and o.move_number == 9
    assert o.hand == tuple(s.hand(1)) and all(isinstance(c, Card) for c in o.hand)
    assert o.discard_pile == tuple(s.discard_pile()) and all(isinstance(c, Card) for c in o.discard_pile)
    assert o.hand_sizes == tuple(len(s.hand(q)) for q in range(3)) and o.stock_size == s.stock_size()
    assert o.scores == tuple(s.scores()) and o.round_scores == ()
    assert o.out_seat is None and o.final_turns == 0
    assert o.taken is None or isinstance(o.taken, Card)
    assert str(o) == s.observation_string(1)
    assert pickle.loads(pickle.dumps(o)) == o


def test_observation_of_a_finished_game_and_a_taken_card():
    s = tt.Game(2).new_initial_state(3)
    s.apply_action(1)  # take the top discard
    top = tt.Game(2).new_initial_state(3).discard_pile()[-1]
    o = s.observation(0)
    assert o.taken == top and isinstance(o.taken, Card) and o.phase == "discard"
    while not s.is_terminal():
        s.apply_action(s._policy_action(1, 3))
    o = s.observation(0)
    assert o.phase == "over" and o.current_player is None and len(o.round_scores) == 11


# ------------------------------------------------------------------- reprs --


@pytest.mark.parametrize("kwargs", [{}, {"decks": 2}, {"jokers": 2, "ace": "either"},
                                    {"all_wild_melds": False, "wild_penalty": 20, "rediscard_taken": True,
                                     "go_out_first_turn": False, "max_moves": 500}])
def test_game_repr_is_pasteable(kwargs):
    g = tt.Game(3, **kwargs)
    text = repr(g)
    assert text.startswith("Game(num_players=3")
    again = eval(text, {"Game": tt.Game})
    assert again == g and hash(again) == hash(g) and repr(again) == text
    assert again.options() == g.options()


def test_game_repr_names_only_what_differs_from_the_defaults():
    assert repr(tt.Game(3)) == "Game(num_players=3)"
    assert repr(tt.Game(3, decks=2)) == "Game(num_players=3)"  # 2 decks is the default for 3 players
    assert repr(tt.Game(2, decks=2)) == "Game(num_players=2, decks=2)"
    assert repr(tt.Game(4, ace="either", max_moves=100)) == "Game(num_players=4, ace='either', max_moves=100)"
    assert tt.Game(3) != tt.Game(4) and tt.Game(3) != tt.Game(3, jokers=1) and tt.Game(3) != "Game(num_players=3)"


def test_state_repr_like_shitheads():
    s = played(n=3, moves=4)
    text = repr(s)
    assert text.startswith("<three_thirteen.State 3p round 1 ") and text.endswith(f"#{s.fingerprint()}>")
    assert f"move 4, seat {s.current_player()} to move" in text
    assert repr(s.clone()) == text and s.clone().fingerprint() == s.fingerprint()
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert c.fingerprint() != s.fingerprint()
    end = tt.Game(2).new_initial_state(2)
    while not end.is_terminal():
        end.apply_action(end._policy_action(1, 2))
    assert ", over, #" in repr(end)
    sh = repr(threes.Game(3).new_initial_state(1))
    assert sh.startswith("<threes.State ") and ", seat " in sh and " to move, #" in sh  # the same shape


# ------------------------------------------------------------------ errors --

MISTAKES = {
    "action_to_string(True)": (lambda s: s.action_to_string(True), TypeError),
    "action_to_string('1')": (lambda s: s.action_to_string("1"), TypeError),
    "action_to_string(1.0)": (lambda s: s.action_to_string(1.0), TypeError),
    "action_to_string(-1)": (lambda s: s.action_to_string(-1), IllegalActionError),
    "action_to_string(10**6)": (lambda s: s.action_to_string(10**6), IllegalActionError),
    "string_to_action(5)": (lambda s: s.string_to_action(5), TypeError),
    "string_to_action(None)": (lambda s: s.string_to_action(None), TypeError),
    "string_to_action('fly')": (lambda s: s.string_to_action("fly"), ValueError),
    "apply_action(True)": (lambda s: s.apply_action(True), TypeError),
    "apply_action('1')": (lambda s: s.apply_action("1"), TypeError),
    "apply_action(-1)": (lambda s: s.apply_action(-1), IllegalActionError),
    "apply_action(10**6)": (lambda s: s.apply_action(10**6), IllegalActionError),
    "apply_action(2**70)": (lambda s: s.apply_action(2**70), IllegalActionError),
    "is_legal(True)": (lambda s: s.is_legal(True), TypeError),
    "is_legal('1')": (lambda s: s.is_legal("1"), TypeError),
    "observation(True)": (lambda s: s.observation(True), TypeError),
    "observation('0')": (lambda s: s.observation("0"), TypeError),
    "observation(99)": (lambda s: s.observation(99), ValueError),
    "observation(-1)": (lambda s: s.observation(-1), ValueError),
    "observation_string(True)": (lambda s: s.observation_string(True), TypeError),
    "information_state_string(99)": (lambda s: s.information_state_string(99), ValueError),
    "hand(True)": (lambda s: s.hand(True), TypeError),
    "hand('0')": (lambda s: s.hand("0"), TypeError),
    "hand(99)": (lambda s: s.hand(99), ValueError),
    "resample_from_infostate(True)": (lambda s: s.resample_from_infostate(True), TypeError),
    "resample_from_infostate(99)": (lambda s: s.resample_from_infostate(99), ValueError),
    "resample_from_infostate(0, 'x')": (lambda s: s.resample_from_infostate(0, "x"), TypeError),
}


@pytest.mark.parametrize("name", list(MISTAKES))
def test_same_mistake_same_error_in_both_games(name):
    f, error = MISTAKES[name]
    for state in (tt.Game(3).new_initial_state(1), threes.Game(3).new_initial_state(1)):
        before = state.to_dict()
        with pytest.raises(error) as info:
            f(state)
        if error is ValueError:
            assert not isinstance(info.value, IllegalActionError)
        assert state.to_dict() == before  # nothing changed


def test_illegal_action_raises_and_changes_nothing():
    s = tt.Game(2).new_initial_state(1)
    before = s.to_dict()
    illegal = [a for a in range(NUM_ACTIONS) if not s.is_legal(a)]
    assert illegal
    for a in illegal[:5] + [np.int64(illegal[0])]:
        with pytest.raises(IllegalActionError):
            s.apply_action(a)
    assert s.to_dict() == before
    s.apply_action(np.int64(0))  # an int-like id is fine
    assert s.history() == [0] and s.is_legal(np.int32(2 + tt.card_to_kind(s.hand(0)[0])))


def test_bools_and_wrong_types_are_type_errors():
    for call in (lambda: tt.Game(True), lambda: tt.Game(2, decks=True), lambda: tt.Game(2, jokers=True),
                 lambda: tt.Game(2, max_moves=True), lambda: tt.Game(2, max_moves="9"), lambda: tt.Game(2, ace=1),
                 lambda: tt.Game(2, wild_penalty=True), lambda: tt.Game(2, wild_penalty=20.0),
                 lambda: tt.Game(2, all_wild_melds=1), lambda: tt.Game(2, rediscard_taken="no"),
                 lambda: tt.min_deadwood("Qh Kh", True), lambda: tt.min_deadwood("Qh Kh", 3.0),
                 lambda: tt.min_deadwood([12, 13], "3"), lambda: tt.card_value(5, "3"),
                 lambda: tt.Game(2).new_initial_state(True), lambda: tt.Game(2).new_initial_state(1).deadwood(True)):
        with pytest.raises(TypeError):
            call()
    for call in (lambda: tt.Game(2, ace="high"), lambda: tt.Game(2, wild_penalty=10), lambda: tt.Game(2, max_moves=0),
                 lambda: tt.min_deadwood("Qh Kh", 14), lambda: tt.min_deadwood("Qh Kh", "X"),
                 lambda: tt.Game(2).new_initial_state(1).deadwood(2)):
        with pytest.raises(ValueError):
            call()


# ---------------------------------------------------------- action strings --


def test_every_action_string_round_trips():
    s = tt.Game(2).new_initial_state(0)
    texts = [s.action_to_string(a) for a in range(NUM_ACTIONS)]
    assert len(set(texts)) == NUM_ACTIONS
    for a, text in enumerate(texts):
        assert s.string_to_action(text) == a
        assert s.string_to_action(text.upper()) == a and s.string_to_action(f"  {text}  ") == a
        assert s.action_to_string(np.int64(a)) == text
        assert s.action_to_string(0, a) == text and s.string_to_action(0, text) == a  # OpenSpiel's form
    assert texts[:2] == ["stock", "take"]
    for t in range(54):
        card = tt.kind_to_card(t)
        assert texts[2 + t] == f"discard {card}" and texts[56 + t] == f"out {card}"
    assert s.string_to_action("draw") == 0
    assert s.string_to_action("discard 10h") == s.string_to_action("discard Th")


def test_action_strings_follow_the_cards_in_play():
    s = played(n=2, moves=1)  # seat 1 has drawn and must discard
    for a in s.legal_actions():
        text = s.action_to_string(a)
        if text.startswith("discard "):
            assert Card(text.split()[1]) in s.hand(s.current_player())


def test_bad_action_text_is_a_clear_value_error():
    s = tt.Game(2).new_initial_state(0)
    for bad in ("", "fly", "discard", "discard Zz", "out 7h 8h", "take 7h"):
        with pytest.raises(ValueError) as info:
            s.string_to_action(bad)
        assert repr(bad) in str(info.value)
    with pytest.raises(ValueError, match=r"'Zz' is not a card"):
        s.string_to_action("discard Zz")
