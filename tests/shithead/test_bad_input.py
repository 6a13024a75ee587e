"""Bad input for every public entry point of threes.

Each bad call must raise a clear exception (TypeError, ValueError or
IllegalActionError, which is a ValueError) whose message names the problem,
must leave the state it was called on unchanged (to_dict() and legal_actions()
compared before and after), and must never crash the interpreter.
"""
from __future__ import annotations

import copy
import random
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import threes
from threes import Card, Game, IllegalActionError, Move, Rules, State

PRESET_NAMES = ("threes", "classic", "dutch")


# ---------------------------------------------------------------- helpers --


def assert_rejects(state, call, exc, match):
    """call() must raise exc with a message matching `match` and leave state as it was."""
    before = state.to_dict()
    legal = state.legal_actions()
    with pytest.raises(exc, match=match):
        call()
    assert state.to_dict() == before
    assert state.legal_actions() == legal


def play_until(game, seed, pred):
    """Plays uniformly random legal moves from a fresh deal until pred(state)."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not pred(state):
        assert not state.is_terminal(), "the wanted position did not occur in this game"
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def playing_from(state, source):
    if state.phase != threes.Phase.PLAY:
        return False
    p = state.current_player()
    if source == "hand":
        return state.hand_size(p) > 0
    if source == "face_up":
        return state.hand_size(p) == 0 and len(state.face_up(p)) > 0
    return state.hand_size(p) == 0 and not state.face_up(p)


@pytest.fixture(scope="module")
def game():
    return Game(4)


@pytest.fixture(scope="module")
def dicts(game):
    """to_dict() of a few positions of one 4-player threes game family."""
    swap = game.new_initial_state(1)
    play = play_until(game, 1, lambda s: s.phase == threes.Phase.PLAY and s.move_number() >= 14)
    assert playing_from(play, "hand")
    up = play_until(game, 2, lambda s: playing_from(s, "face_up"))
    blind = play_until(game, 2, lambda s: playing_from(s, "face_down"))
    mid = play_until(game, 6, lambda s: s.phase == threes.Phase.PLAY and len(s.finish_order()) == 1)
    over = play_until(game, 6, lambda s: s.is_terminal())
    assert not over.is_truncated()
    return {
        "swap": swap.to_dict(),
        "play": play.to_dict(),
        "up": up.to_dict(),
        "blind": blind.to_dict(),
        "mid": mid.to_dict(),
        "over": over.to_dict(),
    }


@pytest.fixture
def swap_state(dicts):
    return State.from_dict(dicts["swap"])


@pytest.fixture
def play_state(dicts):
    return State.from_dict(dicts["play"])


@pytest.fixture
def up_state(dicts):
    return State.from_dict(dicts["up"])


@pytest.fixture
def over_state(dicts):
    return State.from_dict(dicts["over"])


@pytest.fixture(params=["swap", "play", "up", "blind", "mid"])
def any_live_state(request, dicts):
    return State.from_dict(dicts[request.param])


# ------------------------------------------------------------- threes.Game --


class TestGameConstructor:
    @pytest.mark.parametrize("preset", PRESET_NAMES)
    @pytest.mark.parametrize("n", [1, 0, -1, 13, 100])
    def test_player_count_out_of_range(self, preset, n):
        with pytest.raises(ValueError, match=r"num_players must be between 2 and 12"):
            Game(num_players=n, rules=preset)

    @pytest.mark.parametrize("preset", ["classic", "dutch"])
    def test_six_players_do_not_fit_one_deck(self, preset):
        with pytest.raises(ValueError, match=r"6 players need 54 cards.*at most 5 players"):
            Game(num_players=6, rules=preset)

    def test_classic_with_two_cards_per_zone_seats_at_most_eight(self):
        Game(8, Rules.preset("classic", cards_per_zone=2))
        with pytest.raises(ValueError, match=r"at most 8 players"):
            Game(9, Rules.preset("classic", cards_per_zone=2))

    @pytest.mark.parametrize("n", [2**31, 2**70])
    def test_huge_player_count_is_a_value_error(self, n):
        # A Python int that does not fit a C int must still be reported as a
        # bad player count, not leak an OverflowError from the C binding.
        with pytest.raises(ValueError, match=r"num_players"):
            Game(num_players=n)

    @pytest.mark.parametrize("n", ["4", 4.0, None, [4], True, False, np.float64(4)])
    def test_player_count_wrong_type(self, n):
        with pytest.raises(TypeError, match=r"num_players must be an int"):
            Game(num_players=n)

    @pytest.mark.parametrize("mm", [0, -1, threes.shithead._core.MAX_MAX_MOVES + 1, 2**70])
    def test_max_moves_out_of_range(self, mm):
        with pytest.raises(ValueError, match=r"max_moves must be between 1 and"):
            Game(4, max_moves=mm)

    @pytest.mark.parametrize("mm", ["10", 10.0, True, [10]])
    def test_max_moves_wrong_type(self, mm):
        with pytest.raises(TypeError, match=r"max_moves must be an int"):
            Game(4, max_moves=mm)

    @pytest.mark.parametrize("dealer", [-1, 4, 99, 2**70])
    def test_dealer_out_of_range(self, dealer):
        with pytest.raises(ValueError, match=r"dealer must be a seat in 0\.\.3"):
            Game(4, dealer=dealer)

    @pytest.mark.parametrize("dealer", ["0", 0.0, True, [0]])
    def test_dealer_wrong_type(self, dealer):
        with pytest.raises(TypeError, match=r"dealer must be an int"):
            Game(4, dealer=dealer)

    @pytest.mark.parametrize("name", ["bogus", "", "threes2"])
    def test_unknown_preset(self, name):
        with pytest.raises(ValueError, match=r"unknown preset"):
            Game(4, rules=name)

    @pytest.mark.parametrize("rules", [5, None, ["threes"], object(), 2.5])
    def test_rules_wrong_type(self, rules):
        with pytest.raises(TypeError, match=r"rules must be a Rules, a preset name or a dict"):
            Game(4, rules=rules)

    def test_rules_dict_with_unknown_field(self):
        with pytest.raises(TypeError, match=r"unknown rule 'foo'"):
            Game(4, rules={"foo": 1})

    def test_rules_dict_with_bad_value(self):
        with pytest.raises(ValueError, match=r"decks must be between 1 and 4"):
            Game(4, rules={"decks": 0})

    def test_rules_dict_with_bad_preset(self):
        with pytest.raises(ValueError, match=r"unknown preset"):
            Game(4, rules={"preset": "nope"})


class TestNewInitialState:
    @pytest.mark.parametrize("seed", ["1", 1.0, True, False, [1], b"1", object()])
    def test_seed_wrong_type(self, game, seed):
        with pytest.raises(TypeError, match=r"seed must be an int or None"):
            game.new_initial_state(seed)


# -------------------------------------------------------- State.apply_action --


class TestApplyAction:
    def test_illegal_id_in_swap_phase(self, swap_state):
        # play, blind and pick-up ids are never legal in the swap phase
        for a in (0, 1, 112, 115):
            assert a not in swap_state.legal_actions()
            assert_rejects(swap_state, lambda: swap_state.apply_action(a), IllegalActionError,
                           rf"action {a} is not legal")

    def test_illegal_id_in_play_phase(self, play_state):
        legal = set(play_state.legal_actions())
        illegal = [a for a in range(play_state.num_distinct_actions()) if a not in legal]
        for a in illegal[:: max(1, len(illegal) // 40)] + [play_state.num_distinct_actions() - 1]:
            assert_rejects(play_state, lambda: play_state.apply_action(a), IllegalActionError,
                           rf"action {a} is not legal")

    def test_illegal_action_error_is_value_error(self):
        assert issubclass(IllegalActionError, ValueError)

    @pytest.mark.parametrize("a", [-1, -2**31 - 1, 676, 677, 2**31, 2**70, -2**70])
    def test_out_of_range_ids(self, any_live_state, a):
        assert any_live_state.num_distinct_actions() == 676
        assert_rejects(any_live_state, lambda: any_live_state.apply_action(a), IllegalActionError,
                       r"out of range: ids are 0\.\.675")

    @pytest.mark.parametrize("a", ["0", "7x1", 1.0, 636.0, None, True, False, [636], (636,), {636: 1},
                                  np.float32(1)])
    def test_wrong_types(self, any_live_state, a):
        assert_rejects(any_live_state, lambda: any_live_state.apply_action(a), TypeError, r"expected an int")

    def test_numpy_int_is_accepted(self, swap_state):
        a = swap_state.legal_actions()[0]
        swap_state.apply_action(np.int64(a))
        assert swap_state.history() == [a]

    def test_after_game_over(self, over_state):
        assert over_state.is_terminal()
        for a in (0, 112, 114, 115, 636, 675):
            assert_rejects(over_state, lambda: over_state.apply_action(a), IllegalActionError,
                           r"the game is over")
        assert_rejects(over_state, lambda: over_state.apply_action(676), IllegalActionError, r"out of range")

    def test_child_with_illegal_action_leaves_parent(self, play_state):
        assert_rejects(play_state, lambda: play_state.child(676), IllegalActionError, r"out of range")
        assert_rejects(play_state, lambda: play_state.child("x"), TypeError, r"expected an int")

    @pytest.mark.parametrize("a", ["0", None, 1.5, True])
    def test_is_legal_wrong_types(self, play_state, a):
        assert_rejects(play_state, lambda: play_state.is_legal(a), TypeError, r"expected an int")


class TestStateConstruction:
    @pytest.mark.parametrize("args", [(), (1,), ("x",)])
    def test_state_direct_construction(self, args):
        with pytest.raises(TypeError, match=r"Game\.new_initial_state\(\), State\.from_dict\(\) or clone\(\)"):
            State(*args)

    def test_state_keyword_construction(self):
        with pytest.raises(TypeError, match=r"new_initial_state"):
            State(num_players=4)

    def test_uninitialised_state_does_not_crash_the_interpreter(self):
        # State() is refused, but State.__new__(State) bypasses __init__; using
        # such an object must raise, not kill the process (run in a child).
        code = textwrap.dedent("""
            import threes
            s = threes.State.__new__(threes.State)
            for call in (s.legal_actions, lambda: s.apply_action(0), lambda: s.apply_action(1),
                         lambda: s.apply_action(2), s.returns, s.to_dict):
                try:
                    call()
                except (TypeError, ValueError):
                    pass
            print("survived")
        """)
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
        assert r.returncode == 0 and "survived" in r.stdout, (r.returncode, r.stderr[-500:])


# ----------------------------------------------- decoding and notation --


class TestDecodeAndNotation:
    @pytest.mark.parametrize("a", [-1, 676, 2**31, 2**70, -2**70])
    def test_game_decode_action_out_of_range(self, game, a):
        with pytest.raises(IllegalActionError, match=r"out of range"):
            game.decode_action(a)

    @pytest.mark.parametrize("a", ["1", 1.0, None, True, [1]])
    def test_game_decode_action_wrong_type(self, game, a):
        with pytest.raises(TypeError, match=r"action must be an int"):
            game.decode_action(a)

    @pytest.mark.parametrize("a", [-1, 676, 2**31, 2**70])
    def test_state_decode_action_out_of_range(self, any_live_state, a):
        assert_rejects(any_live_state, lambda: any_live_state.decode_action(a), IllegalActionError,
                       r"out of range")
        assert_rejects(any_live_state, lambda: any_live_state.action_to_string(a), IllegalActionError,
                       r"out of range")
        # OpenSpiel's (player, action) form
        assert_rejects(any_live_state, lambda: any_live_state.action_to_string(0, a), IllegalActionError,
                       r"out of range")

    @pytest.mark.parametrize("a", ["1", 1.0, None, True, [1]])
    def test_state_decode_action_wrong_type(self, any_live_state, a):
        assert_rejects(any_live_state, lambda: any_live_state.decode_action(a), TypeError, r"expected an int")
        assert_rejects(any_live_state, lambda: any_live_state.action_to_string(a), TypeError,
                       r"expected an int")

    @pytest.mark.parametrize("text", ["", "   ", "garbage", "xx", "x7", "Zx1", "1x1", "7y2", "pickup now", "pick it up",
                                      "hand 7x1 more", "left 7x1", "blind", "blind x", "blind -1",
                                      "7x-1", "7x1.5", "swap zzz", "swap 7Z1"])
    def test_string_to_action_garbage(self, any_live_state, text):
        assert_rejects(any_live_state, lambda: any_live_state.string_to_action(text), ValueError,
                       r"not a move|write a|must be a number")

    @pytest.mark.parametrize("text", [None, 5, 1.0, b"7x1", ["7x1"]])
    def test_string_to_action_wrong_type(self, any_live_state, text):
        assert_rejects(any_live_state, lambda: any_live_state.string_to_action(text), TypeError,
                       r"expected a string")

    @pytest.mark.parametrize("text", ["7x0", "7x9", "7x17", "7x300", "blind 3", "blind 255", "swap 7", "swap 77",
                                      "swap 7777"])
    def test_string_to_action_counts_out_of_range(self, any_live_state, text):
        assert_rejects(any_live_state, lambda: any_live_state.string_to_action(text), ValueError,
                       r"does not fit these rules")

    @pytest.mark.parametrize("text", ["7x" + "9" * 25, "blind " + "9" * 25, "7x4294967297"])
    def test_string_to_action_huge_counts(self, play_state, text):
        # numbers that do not fit a C int are out of range like any other
        assert_rejects(play_state, lambda: play_state.string_to_action(text), ValueError,
                       r"does not fit these rules|out of range|not a move|write a blind play")

    @pytest.mark.parametrize("text", ["7x\u00b2", "blind \u00b2"])
    def test_string_to_action_unicode_digit_message(self, play_state, text):
        # str.isdigit() accepts a superscript two, int() does not: the error
        # must still be the parser's own message quoting the text.
        assert_rejects(play_state, lambda: play_state.string_to_action(text), ValueError,
                       r"not a move|write a|must be a number")

    def test_wrong_source_prefix_while_playing_from_hand(self, play_state):
        p = play_state.current_player()
        rank = play_state.hand(p)[0].rank
        assert play_state.string_to_action(f"{rank}x1") == play_state.string_to_action(f"hand {rank}x1")
        for prefix in ("up", "face_up", "hand+up"):
            assert_rejects(play_state, lambda: play_state.string_to_action(f"{prefix} {rank}x1"), ValueError,
                           r"cards are played from hand now")

    def test_wrong_source_prefix_while_playing_from_face_up(self, up_state):
        p = up_state.current_player()
        rank = up_state.face_up(p)[0].rank
        assert up_state.string_to_action(f"up {rank}x1") == up_state.string_to_action(f"{rank}x1")
        assert_rejects(up_state, lambda: up_state.string_to_action(f"hand {rank}x1"), ValueError,
                       r"cards are played from face_up now, not hand")

    def test_source_prefix_in_swap_phase(self, swap_state):
        for text in ("up 7x1", "hand 7x1"):
            assert_rejects(swap_state, lambda: swap_state.string_to_action(text), ValueError,
                           r"cards are played from nowhere now")


def move_id(x):
    if isinstance(x, Move):
        face_up = "".join(x.face_up) if isinstance(x.face_up, tuple) else repr(x.face_up)
        return f"{x.kind}(rank={x.rank},count={x.count!r},slot={x.slot!r},face_up={face_up})"
    return repr(x)


class TestEncodeMove:
    BAD_VALUE = [
        (Move("play", rank="7", count=0), r"does not fit these rules"),
        (Move("play", rank="7", count=9), r"does not fit these rules"),
        (Move("play", rank="7", count=-1), r"does not fit these rules"),
        (Move("play", rank="Z", count=1), r"'Z' is not a rank"),
        (Move("play", rank=1, count=1), r"a rank value is 2\.\.15"),
        (Move("blind", slot=3), r"does not fit these rules"),
        (Move("blind", slot=-1), r"does not fit these rules"),
        (Move("swap", face_up=("7",)), r"does not fit these rules"),
        (Move("swap", face_up=("7", "8", "9", "T")), r"does not fit these rules"),
        (Move("swap", face_up=("7", "Z", "9")), r"'Z' is not a rank"),
        (Move("bogus"), r"unknown move kind 'bogus'"),
        (Move("play", rank="7", count=2**70), r"does not fit these rules"),
        (Move("blind", slot=2**70), r"does not fit these rules"),
        (Move("play", rank="7", count=2**32 + 1), r"does not fit these rules"),
    ]
    BAD_TYPE = [
        ("7x1", r"expected a Move"),
        (5, r"expected a Move"),
        (None, r"expected a Move"),
        (Move("play", rank=None, count=1), r"a rank is a string"),
        (Move("play", rank="7", count=1.0), r"is an int"),
        (Move("play", rank="7", count="1"), r"is an int"),
        (Move("blind", slot=None), r"is an int"),
        (Move("blind", slot=0.0), r"is an int"),
        (Move("play", rank="7", count=True), r"count"),
    ]

    @pytest.mark.parametrize("move,match", BAD_VALUE, ids=[move_id(m) for m, _ in BAD_VALUE])
    def test_impossible_moves(self, game, play_state, move, match):
        with pytest.raises(ValueError, match=match):
            game.encode_move(move)
        assert_rejects(play_state, lambda: play_state.encode_move(move), ValueError, match)

    @pytest.mark.parametrize("move,match", BAD_TYPE, ids=[move_id(m) for m, _ in BAD_TYPE])
    def test_wrong_types(self, game, play_state, move, match):
        with pytest.raises(TypeError, match=match):
            game.encode_move(move)
        assert_rejects(play_state, lambda: play_state.encode_move(move), TypeError, match)

    def test_move_constructor_with_bad_rank(self):
        with pytest.raises(ValueError, match=r"not a rank"):
            Move.play("Z")
        with pytest.raises(TypeError, match=r"not a bool"):
            Move.play(True)
        with pytest.raises(ValueError, match=r"not a rank"):
            Move.swap(["7", "8", "Q!"])


# --------------------------------------------------------- zone accessors --


class TestZoneAccessors:
    ACCESSORS = ("hand", "known_cards", "face_up", "face_down", "hand_size")

    @pytest.mark.parametrize("name", ACCESSORS)
    @pytest.mark.parametrize("seat", [-1, 4, 12, 99, 2**70, -2**70])
    def test_bad_seat_value(self, any_live_state, name, seat):
        assert_rejects(any_live_state, lambda: getattr(any_live_state, name)(seat), ValueError,
                       r"seat must be in 0\.\.3")

    @pytest.mark.parametrize("name", ACCESSORS)
    @pytest.mark.parametrize("seat", ["0", 0.0, None, True, [0]])
    def test_bad_seat_type(self, any_live_state, name, seat):
        assert_rejects(any_live_state, lambda: getattr(any_live_state, name)(seat), TypeError,
                       r"expected an int")

    def test_is_playable_bad_rank(self, play_state):
        assert_rejects(play_state, lambda: play_state.is_playable("Z"), ValueError, r"not a rank")
        assert_rejects(play_state, lambda: play_state.is_playable(16), ValueError, r"2\.\.15")
        assert_rejects(play_state, lambda: play_state.is_playable(None), TypeError, r"a rank is a string")
        assert_rejects(play_state, lambda: play_state.is_playable(True), TypeError, r"not a bool")


# ------------------------------------------------------------ threes.Rules --


class TestRules:
    @pytest.mark.parametrize("kw,exc,match", [
        (dict(foo=1), TypeError, r"unknown rule 'foo'"),
        (dict(deck=2), TypeError, r"unknown rule 'deck'"),
        (dict(decks="2"), TypeError, r"rule decks must be an int"),
        (dict(decks=2.0), TypeError, r"rule decks must be an int"),
        (dict(decks=True), TypeError, r"rule decks must be an int"),
        (dict(decks=None), TypeError, r"rule decks must be an int"),
        (dict(jokers="2"), TypeError, r"rule jokers must be an int"),
        (dict(cards_per_zone=[3]), TypeError, r"rule cards_per_zone must be an int"),
        (dict(run_to_burn=4.0), TypeError, r"rule run_to_burn must be an int"),
        (dict(decks=0), ValueError, r"decks must be between 1 and 4, not 0"),
        (dict(decks=5), ValueError, r"decks must be between 1 and 4, not 5"),
        (dict(decks=-1), ValueError, r"rule decks is out of range"),
        (dict(decks=2**70), ValueError, r"rule decks is out of range"),
        (dict(jokers=3), ValueError, r"jokers must be 0, 1 or 2 per deck, not 3"),
        (dict(jokers=-1), ValueError, r"rule jokers is out of range"),
        (dict(cards_per_zone=0), ValueError, r"cards_per_zone must be between 1 and 5, not 0"),
        (dict(cards_per_zone=6), ValueError, r"cards_per_zone must be between 1 and 5, not 6"),
        (dict(run_to_burn=1), ValueError, r"run_to_burn must be 0 \(off\) or between 2 and 16, not 1"),
        (dict(run_to_burn=17), ValueError, r"run_to_burn must be 0 \(off\) or between 2 and 16, not 17"),
        (dict(invisible_in_runs="x"), ValueError, r"invisible_in_runs must be 'skip' or 'break'"),
        (dict(invisible_in_runs=None), ValueError, r"invisible_in_runs must be 'skip' or 'break'"),
        (dict(start="x"), ValueError, r"start must be 'rank-from-dealer' or 'rank-suit'"),
        (dict(start=1), ValueError, r"start must be 'rank-from-dealer' or 'rank-suit'"),
        (dict(start_ranks=["3", "3"]), ValueError, r"start_ranks must list distinct ranks"),
        (dict(start_ranks="3 4 5 4"), ValueError, r"start_ranks must list distinct ranks"),
        (dict(start_ranks=list("23456789TJQKAX") + ["2"]), ValueError, r"too many start ranks"),
        (dict(start_suits=["h", "h"]), ValueError, r"start_suits must list distinct suits"),
        (dict(start_suits="c d c"), ValueError, r"start_suits must list distinct suits"),
        (dict(start_suits=["c", "d", "h", "s", "c"]), ValueError, r"too many start ranks or start suits"),
        (dict(start_suits=["x"]), ValueError, r"start_suits names suits among c d h s"),
        (dict(wild="Z"), ValueError, r"'Z' is not a rank"),
        (dict(wild=["2", "1"]), ValueError, r"'1' is not a rank"),
        (dict(lower="11"), ValueError, r"'11' is not a rank"),
        (dict(invisible=[16]), ValueError, r"a rank value is 2\.\.15"),
        (dict(burn=["T", "Zz"]), ValueError, r"'Zz' is not a rank"),
        (dict(start_ranks=["Z"]), ValueError, r"'Z' is not a rank"),
        (dict(wild=16), TypeError, r"expected a list of ranks"),
        (dict(wild=None), TypeError, r"expected a list of ranks"),
        (dict(start_ranks=5), TypeError, r"expected a list of ranks"),
        (dict(wild=[True]), TypeError, r"not a bool"),
        (dict(wild=[2.5]), TypeError, r"a rank is a string"),
        (dict(lower_strict="maybe"), TypeError, r"rule lower_strict must be true or false"),
        (dict(lower_strict=2), TypeError, r"rule lower_strict must be true or false"),
        (dict(pickup_then_play=None), TypeError, r"rule pickup_then_play must be true or false"),
        (dict(burner_plays_again=1.5), TypeError, r"rule burner_plays_again must be true or false"),
    ])
    def test_bad_fields(self, kw, exc, match):
        with pytest.raises(exc, match=match):
            Rules(**kw)
        for name in PRESET_NAMES:
            with pytest.raises(exc, match=match):
                Rules.preset(name, **kw)
        with pytest.raises(exc, match=match):
            Rules().replace(**kw)
        with pytest.raises(exc, match=match):
            Rules.from_dict(dict(kw, preset="classic"))
        # nothing global was disturbed
        assert Rules() == Rules.preset("threes")
        assert Rules().to_dict() == Rules.preset("threes").to_dict()

    @pytest.mark.parametrize("name", ["bogus", "", "threes classic"])
    def test_unknown_preset(self, name):
        with pytest.raises(ValueError, match=r"unknown preset"):
            Rules.preset(name)

    @pytest.mark.parametrize("name", [3, None, ["threes"], b"threes"])
    def test_preset_name_wrong_type(self, name):
        with pytest.raises(TypeError, match=r"a preset name is a string"):
            Rules.preset(name)

    @pytest.mark.parametrize("d", ["threes", 5, None, [("decks", 1)]])
    def test_from_dict_non_dict(self, d):
        with pytest.raises(TypeError, match=r"rules must be a dict"):
            Rules.from_dict(d)

    def test_positional_argument(self):
        with pytest.raises(TypeError):
            Rules("threes")

    def test_immutable(self):
        r = Rules()
        with pytest.raises(AttributeError, match=r"immutable"):
            r.decks = 1
        assert r.decks == 2

    @pytest.mark.parametrize("n,exc,match", [
        (1, ValueError, r"num_players must be between 2 and 12"),
        (0, ValueError, r"num_players must be between 2 and 12"),
        (13, ValueError, r"num_players must be between 2 and 12"),
        (2**70, ValueError, r"num_players"),
        ("4", TypeError, r"num_players must be an int"),
        (True, TypeError, r"num_players must be an int"),
    ])
    def test_check_players(self, n, exc, match):
        with pytest.raises(exc, match=match):
            Rules().check_players(n)

    def test_deal_that_does_not_fit_custom_rules(self):
        with pytest.raises(ValueError, match=r"at most 3 players"):
            Game(4, Rules.preset("classic", cards_per_zone=5))


# ------------------------------------------------------------- threes.Card --


class TestCard:
    @pytest.mark.parametrize("text", ["Zz", "", "  ", "A", "Ahh", "10", "1h", "Xs", "Xx", "h A", "A h", "Ahearts",
                                      "11h", "0c", "joker"])
    def test_bad_text(self, text):
        with pytest.raises(ValueError, match=r"is not a card: write rank then suit"):
            Card(text)
        with pytest.raises(ValueError, match=r"is not a card"):
            Card.parse(text)

    @pytest.mark.parametrize("kind", [-1, 54, 2**70])
    def test_bad_kind(self, kind):
        with pytest.raises(ValueError, match=r"a card kind is 0\.\.53"):
            Card(kind)

    @pytest.mark.parametrize("x", [True, False, 1.0, None, b"Ah", ["Ah"], object()])
    def test_bad_type(self, x):
        with pytest.raises(TypeError, match=r"a card is text such as 'Ah' or a kind 0\.\.53"):
            Card(x)

    @pytest.mark.parametrize("x", [5, None, True, b"Ah", Card("Ah")])
    def test_parse_bad_type(self, x):
        with pytest.raises(TypeError, match=r"Card\.parse takes a string"):
            Card.parse(x)

    def test_immutable(self):
        c = Card("Ah")
        with pytest.raises(AttributeError, match=r"immutable"):
            c.kind = 0
        assert c == "Ah"

    def test_ordering_against_other_types(self):
        with pytest.raises(TypeError):
            Card("Ah") < "Kh"
        with pytest.raises(TypeError):
            Card("Ah") < 5

    def test_parse_cards_bad_text(self):
        with pytest.raises(ValueError, match=r"'Zz' is not a card"):
            threes.parse_cards("Ah Zz 2c")

    @pytest.mark.parametrize("x", [None, 5, ["Ah"]])
    def test_parse_cards_wrong_type(self, x):
        with pytest.raises(TypeError):
            threes.parse_cards(x)

    def test_format_cards_bad(self):
        with pytest.raises(TypeError):
            threes.format_cards(None)


# ------------------------------------------------------- State.from_dict --


def mutated(d, change):
    d = copy.deepcopy(d)
    change(d)
    return d


def move_card(d, src, dst, pick=None):
    """Moves one card from list src to list dst (both inside d)."""
    card = src.pop(src.index(pick) if pick is not None else -1)
    dst.append(card)
    return card


def assert_from_dict_rejects(d, exc, match, source=None):
    snapshot = copy.deepcopy(d)
    with pytest.raises(exc, match=match):
        State.from_dict(d)
    assert d == snapshot, "from_dict must not modify its argument"
    if source is not None:
        # the position the dict was taken from is still intact and loadable
        assert State.from_dict(source).to_dict() == source


class TestFromDictShape:
    @pytest.mark.parametrize("d", [None, 5, "state", [("phase", "swap")], b"{}"])
    def test_non_dict(self, d):
        with pytest.raises(TypeError, match=r"State\.from_dict takes a dict"):
            State.from_dict(d)

    @pytest.mark.parametrize("key", ["num_players", "phase", "current_player", "hands", "face_up", "face_down",
                                     "pile", "draw_pile", "burned"])
    def test_missing_required_key(self, dicts, key):
        d = mutated(dicts["play"], lambda d: d.pop(key))
        assert_from_dict_rejects(d, ValueError, rf"the state dict lacks {key}", dicts["play"])

    @pytest.mark.parametrize("key", ["foo", "Hands", "seed", 5])
    def test_unknown_key(self, dicts, key):
        d = mutated(dicts["play"], lambda d: d.__setitem__(key, 1))
        assert_from_dict_rejects(d, ValueError, rf"unknown keys: {key}", dicts["play"])

    @pytest.mark.parametrize("fmt", ["threes.State/2", "threes.State/0", "", None, 1])
    def test_wrong_format(self, dicts, fmt):
        d = mutated(dicts["play"], lambda d: d.__setitem__("format", fmt))
        assert_from_dict_rejects(d, ValueError, r"unknown state format", dicts["play"])

    WRONG_TYPES = [
        ("rules", 5, TypeError, r"rules must be a Rules, a preset name or a dict"),
        ("rules", None, TypeError, r"rules must be a Rules, a preset name or a dict"),
        ("rules", "bogus", ValueError, r"unknown preset"),
        ("rules", {"decks": "2"}, TypeError, r"rule decks must be an int"),
        ("rules", {"colour": "red"}, TypeError, r"unknown rule 'colour'"),
        ("num_players", "4", TypeError, r"num_players must be an int"),
        ("num_players", 4.0, TypeError, r"num_players must be an int"),
        ("num_players", None, TypeError, r"num_players must be an int"),
        ("num_players", True, TypeError, r"num_players must be an int"),
        ("dealer", "3", TypeError, r"dealer must be an int"),
        ("dealer", None, TypeError, r"dealer must be an int"),
        ("dealer", 3.0, TypeError, r"dealer must be an int"),
        ("max_moves", "100", TypeError, r"max_moves must be an int"),
        ("max_moves", None, TypeError, r"max_moves must be an int"),
        ("max_moves", 1e4, TypeError, r"max_moves must be an int"),
        ("phase", 1, ValueError, r"phase must be 'swap', 'play' or 'over'"),
        ("phase", None, ValueError, r"phase must be 'swap', 'play' or 'over'"),
        ("phase", "PLAY", ValueError, r"phase must be 'swap', 'play' or 'over'"),
        ("phase", ["play"], ValueError, r"phase must be 'swap', 'play' or 'over'"),
        ("current_player", "3", TypeError, r"current_player must be an int"),
        ("current_player", 3.0, TypeError, r"current_player must be an int"),
        ("current_player", True, TypeError, r"current_player must be an int"),
        ("current_player", None, TypeError, r"current_player must be an int"),
        ("move_count", "14", TypeError, r"move_count must be an int"),
        ("move_count", None, TypeError, r"move_count must be an int"),
        ("move_count", 14.0, TypeError, r"move_count must be an int"),
        ("truncated", "no", TypeError, r"truncated must be true or false"),
        ("truncated", 0, TypeError, r"truncated must be true or false"),
        ("truncated", None, TypeError, r"truncated must be true or false"),
        ("finish_order", "0", TypeError, r"finish_order must be a list of int seats"),
        ("finish_order", None, TypeError, r"finish_order must be a list of int seats"),
        ("finish_order", 0, TypeError, r"finish_order must be a list of int seats"),
        ("finish_order", [1.0], TypeError, r"finish_order must be a list of int seats"),
        ("finish_order", [True], TypeError, r"finish_order must be a list of int seats"),
        ("finish_order", ["0"], TypeError, r"finish_order must be a list of int seats"),
        ("history", "636", TypeError, r"history must be a list of int action ids"),
        ("history", None, TypeError, r"history must be a list of int action ids"),
        ("history", [636.0], TypeError, r"history must be a list of int action ids"),
        ("history", ["swap 7TA"], TypeError, r"history must be a list of int action ids"),
        ("history", [False], TypeError, r"history must be a list of int action ids"),
        ("hands", "Ah", (TypeError, ValueError), r"hands must be a list with one entry per seat"),
        ("hands", None, (TypeError, ValueError), r"hands must be a list with one entry per seat"),
        ("hands", {0: [], 1: [], 2: [], 3: []}, (TypeError, ValueError), r"hands must be a list"),
        ("hands", [5, [], [], []], TypeError, r"hands\[0\] must be a list of cards"),
        ("hands", ["Ah", [], [], []], TypeError, r"hands\[0\] must be a list of cards"),
        ("hands", [[5], [], [], []], TypeError, r"hands\[0\]\[0\]: a card is a string"),
        ("hands", [[None], [], [], []], TypeError, r"hands\[0\]\[0\]: a card is a string"),
        ("known", "x", (TypeError, ValueError), r"known must be a list with one entry per seat"),
        ("known", None, (TypeError, ValueError), r"known must be a list with one entry per seat"),
        ("known", [5, [], [], []], TypeError, r"known\[0\] must be a list of cards"),
        ("known", [[5], [], [], []], TypeError, r"known\[0\]\[0\]: a card is a string"),
        ("face_up", "x", (TypeError, ValueError), r"face_up must be a list with one entry per seat"),
        ("face_up", None, (TypeError, ValueError), r"face_up must be a list with one entry per seat"),
        ("face_up", [5, [], [], []], TypeError, r"face_up\[0\] must be a list of cards"),
        ("face_up", [[5], [], [], []], TypeError, r"face_up\[0\]\[0\]: a card is a string"),
        ("face_down", "x", (TypeError, ValueError), r"face_down must be a list with one entry per seat"),
        ("face_down", None, (TypeError, ValueError), r"face_down must be a list with one entry per seat"),
        ("face_down", [5, [], [], []], TypeError, r"face_down\[0\] must be a list of slots"),
        ("face_down", ["AhKh2c", [], [], []], TypeError, r"face_down\[0\] must be a list of slots"),
        ("face_down", [[5], [], [], []], TypeError, r"face_down\[0\]\[0\]: a card is a string"),
        ("pile", "Ah", TypeError, r"pile must be a list of cards"),
        ("pile", None, TypeError, r"pile must be a list of cards"),
        ("pile", [5], TypeError, r"pile\[0\]: a card is a string"),
        ("draw_pile", "Ah", TypeError, r"draw_pile must be a list of cards"),
        ("draw_pile", None, TypeError, r"draw_pile must be a list of cards"),
        ("draw_pile", [None], TypeError, r"draw_pile\[0\]: a card is a string"),
        ("burned", {"Ah": 1}, TypeError, r"burned must be a list of cards"),
        ("burned", None, TypeError, r"burned must be a list of cards"),
        ("burned", [1.0], TypeError, r"burned\[0\]: a card is a string"),
    ]

    @pytest.mark.parametrize("key,value,exc,match", WRONG_TYPES)
    def test_wrong_type_in_field(self, dicts, key, value, exc, match):
        d = mutated(dicts["play"], lambda d: d.__setitem__(key, value))
        assert_from_dict_rejects(d, exc, match, dicts["play"])

    @pytest.mark.parametrize("key,value,match", [
        ("num_players", 1, r"num_players must be between 2 and 12"),
        ("num_players", 13, r"num_players must be between 2 and 12"),
        ("num_players", -4, r"num_players must be between 2 and 12"),
        ("num_players", 2**70, r"num_players"),
        ("dealer", 4, r"dealer must be a seat in 0\.\.3"),
        ("dealer", -1, r"dealer must be a seat in 0\.\.3"),
        ("max_moves", 0, r"max_moves must be between 1 and"),
        ("max_moves", 2**70, r"max_moves must be between 1 and"),
        ("move_count", -1, r"move_count must be between 0 and max_moves"),
        ("move_count", 2**70, r"move_count must be between 0 and max_moves"),
        ("current_player", 2**70, r"current_player .* is not a seat"),
    ])
    def test_out_of_range_scalars(self, dicts, key, value, match):
        d = mutated(dicts["play"], lambda d: d.__setitem__(key, value))
        assert_from_dict_rejects(d, ValueError, match, dicts["play"])

    @pytest.mark.parametrize("key", ["hands", "known", "face_up", "face_down"])
    @pytest.mark.parametrize("change", ["drop", "add"])
    def test_wrong_number_of_seats(self, dicts, key, change):
        def f(d):
            if change == "drop":
                d[key].pop()
            else:
                d[key].append([])
        d = mutated(dicts["play"], f)
        assert_from_dict_rejects(d, ValueError, rf"{key} must be a list with one entry per seat \(4\)",
                                 dicts["play"])

    def test_player_count_disagrees_with_seat_lists(self, dicts):
        d = mutated(dicts["play"], lambda d: (d.__setitem__("num_players", 5), d.__setitem__("dealer", 4)))
        assert_from_dict_rejects(d, ValueError, r"hands must be a list with one entry per seat \(5\)",
                                 dicts["play"])


class TestFromDictCards:
    def test_card_that_does_not_exist(self, dicts):
        for where in ("hands", "face_up", "face_down"):
            d = mutated(dicts["play"], lambda d: d[where][0].__setitem__(0, "Zz"))
            assert_from_dict_rejects(d, ValueError, rf"{where}\[0\]\[0\]: 'Zz' is not a card", dicts["play"])
        for where in ("pile", "draw_pile", "burned"):
            d = mutated(dicts["play"], lambda d: d[where].append("Zz"))
            assert_from_dict_rejects(d, ValueError, rf"{where}\[\d+\]: 'Zz' is not a card", dicts["play"])

    def test_joker_in_a_game_without_jokers(self):
        base = Game(4, "classic").new_initial_state(3).to_dict()
        # a joker instead of a card, and a joker on top of the full deck
        d = mutated(base, lambda d: d["draw_pile"].__setitem__(0, "Xr"))
        assert_from_dict_rejects(d, ValueError, r"card Xr is not in this game's deck \(jokers per deck: 0\)", base)
        d = mutated(base, lambda d: d["hands"][1].append("Xb"))
        assert_from_dict_rejects(d, ValueError, r"card Xb is not in this game's deck", base)

    def test_black_joker_with_one_joker_per_deck(self):
        base = Game(4, Rules(jokers=1)).new_initial_state(3).to_dict()
        d = mutated(base, lambda d: d["burned"].append("Xb"))
        assert_from_dict_rejects(d, ValueError, r"card Xb is not in this game's deck \(jokers per deck: 1\)", base)

    def test_card_placed_more_often_than_the_decks_hold(self, dicts):
        # threes has two decks: a third Ah
        d = mutated(dicts["play"], lambda d: d["hands"][0].append("Ah"))
        assert_from_dict_rejects(d, ValueError, r"card Ah appears more often than the 2 deck\(s\) hold",
                                 dicts["play"])
        classic = Game(4, "classic").new_initial_state(3).to_dict()
        d = mutated(classic, lambda d: d["pile"].append(d["hands"][0][0]))
        assert_from_dict_rejects(d, ValueError, r"appears more often than the 1 deck\(s\) hold", classic)

    def test_missing_cards(self, dicts):
        d = mutated(dicts["play"], lambda d: d["draw_pile"].pop())
        assert_from_dict_rejects(d, ValueError, r"1 card\(s\) of the deck are in no zone", dicts["play"])
        n = len(dicts["play"]["draw_pile"])
        assert n > 1
        d = mutated(dicts["play"], lambda d: d.__setitem__("draw_pile", []))
        assert_from_dict_rejects(d, ValueError, rf"{n} card\(s\) of the deck are in no zone", dicts["play"])

    def test_known_card_not_in_hand(self, dicts):
        d = dicts["play"]
        absent = next(c for c in ("Ah", "Ac", "2s", "Kd", "9c") if c not in d["hands"][0])
        bad = mutated(d, lambda d: d["known"].__setitem__(0, [absent]))
        assert_from_dict_rejects(bad, ValueError, rf"known\[0\] lists {absent}, which is not", d)

    def test_known_card_listed_more_often_than_held(self, dicts):
        d = dicts["play"]
        card = d["hands"][0][0]
        assert d["hands"][0].count(card) == 1
        bad = mutated(d, lambda d: d["known"].__setitem__(0, [card, card]))
        assert_from_dict_rejects(bad, ValueError, rf"known\[0\] lists {card}, which is not", d)

    def test_more_face_up_cards_than_cards_per_zone(self, dicts):
        for key in ("swap", "play"):
            d = mutated(dicts[key], lambda d: move_card(d, d["draw_pile"], d["face_up"][1]))
            assert_from_dict_rejects(d, ValueError, r"seat 1 has more than 3 face-up cards", dicts[key])

    def test_face_down_slot_index_too_large(self, dicts):
        d = mutated(dicts["play"], lambda d: move_card(d, d["draw_pile"], d["face_down"][2]))
        assert_from_dict_rejects(d, ValueError, r"face_down\[2\] has 4 slots; these rules have 3", dicts["play"])
        # also with the extra slot empty
        d = mutated(dicts["play"], lambda d: d["face_down"][2].append(None))
        assert_from_dict_rejects(d, ValueError, r"face_down\[2\] has 4 slots", dicts["play"])

    def test_pile_holding_a_burn_card(self, dicts):
        for burn in ("Td", "Xr"):
            def f(d):
                src = next(z for z in [d["draw_pile"], d["burned"]] + d["hands"] if burn in z)
                move_card(d, src, d["pile"], burn)
            d = mutated(dicts["play"], f)
            assert_from_dict_rejects(d, ValueError, rf"the pile holds {burn}, a burn card", dicts["play"])

    @staticmethod
    def _clear_pile(d):
        d["burned"] += d["pile"]
        d["pile"] = []

    @staticmethod
    def _pile_of(d, rank, n):
        """Moves n cards of rank from the draw pile onto the top of the pile."""
        moved = 0
        for c in list(d["draw_pile"]):
            if c[0] == rank and moved < n:
                move_card(d, d["draw_pile"], d["pile"], c)
                moved += 1
        assert moved == n, f"test setup: the draw pile has only {moved} cards of rank {rank}"

    def test_pile_holding_a_completed_run(self, dicts):
        d = mutated(dicts["play"], lambda d: (self._clear_pile(d), self._pile_of(d, "5", 4)))
        assert_from_dict_rejects(d, ValueError, r"the pile holds a run of 4 cards of one rank", dicts["play"])
        # on top of other cards too
        d = mutated(dicts["play"], lambda d: (self._clear_pile(d), self._pile_of(d, "4", 1),
                                              self._pile_of(d, "6", 4)))
        assert_from_dict_rejects(d, ValueError, r"the pile holds a run of 4 cards of one rank", dicts["play"])

    def test_run_interleaved_with_invisible_eights_still_burned(self, dicts):
        # threes: 8s are skipped in runs (D-5), so 5 5 8 5 5 is a run of four
        def f(d):
            self._clear_pile(d)
            self._pile_of(d, "5", 2)
            self._pile_of(d, "8", 1)
            self._pile_of(d, "5", 2)
        d = mutated(dicts["play"], f)
        assert [c[0] for c in d["pile"]] == ["5", "5", "8", "5", "5"]
        assert_from_dict_rejects(d, ValueError, r"run of 4 cards", dicts["play"])

    def test_classic_four_threes_form_a_burned_run(self):
        # classic: the transparent 3 counts as its own rank in runs ("break"),
        # so four 3s burn and can never lie together on the pile
        game = Game(2, "classic")
        seed = next(k for k in range(1000)
                    if sum(c[0] == "3" for c in game.new_initial_state(k).to_dict()["draw_pile"]) == 4)
        base = play_until(game, seed, lambda s: s.phase == threes.Phase.PLAY).to_dict()
        d = mutated(base, lambda d: (self._clear_pile(d), self._pile_of(d, "3", 4)))
        assert_from_dict_rejects(d, ValueError, r"run of 4 cards", base)
        d = mutated(base, lambda d: (self._clear_pile(d), self._pile_of(d, "3", 3)))
        assert len(State.from_dict(d).pile()) == 3

    def test_valid_piles_are_accepted(self, dicts):
        # controls: a run of three and four invisible 8s (D-5) are legal piles
        for rank, n in (("5", 3), ("8", 4)):
            d = mutated(dicts["play"], lambda d: (self._clear_pile(d), self._pile_of(d, rank, n)))
            s = State.from_dict(d)
            assert [c.rank for c in s.pile()] == [rank] * n


class TestFromDictProgress:
    def test_finish_order_with_duplicates(self, dicts):
        d = dicts["mid"]
        out = d["finish_order"][0]
        bad = mutated(d, lambda d: d.__setitem__("finish_order", [out, out]))
        assert_from_dict_rejects(bad, ValueError, r"the finishing order must list distinct seats", d)

    @pytest.mark.parametrize("seat", [4, 7, -1, 2**70, -2**70])
    def test_finish_order_seat_out_of_range(self, dicts, seat):
        bad = mutated(dicts["play"], lambda d: d.__setitem__("finish_order", [seat]))
        assert_from_dict_rejects(bad, ValueError, rf"the finishing order names seat {seat}, not in 0\.\.3",
                                 dicts["play"])

    def test_finish_order_too_long(self, dicts):
        bad = mutated(dicts["over"], lambda d: d.__setitem__("finish_order", d["finish_order"] + [0]))
        assert_from_dict_rejects(bad, ValueError, r"the finishing order lists 5 seats in a 4-player game",
                                 dicts["over"])

    def test_player_out_who_still_holds_cards(self, dicts):
        d = dicts["play"]
        bad = mutated(d, lambda d: d.__setitem__("finish_order", [0]))
        assert_from_dict_rejects(bad, ValueError, r"seat 0 is out but has cards", d)
        # mid game: one real player out plus one who still holds cards
        m = dicts["mid"]
        holder = next(q for q in range(4)
                      if q not in m["finish_order"] and q != m["current_player"] and m["hands"][q])
        bad = mutated(m, lambda d: d["finish_order"].append(holder))
        assert_from_dict_rejects(bad, ValueError, rf"seat {holder} is out but has cards", m)

    def test_player_without_cards_not_listed_as_out(self, dicts):
        m = dicts["mid"]
        bad = mutated(m, lambda d: d.__setitem__("finish_order", []))
        assert_from_dict_rejects(bad, ValueError, rf"seat {m['finish_order'][0]} has no cards but is not out", m)

    @pytest.mark.parametrize("cur", [4, 5, 11, -1, -4, 2**31 - 1, -2**31])
    def test_current_player_out_of_range(self, dicts, cur):
        for key in ("swap", "play"):
            bad = mutated(dicts[key], lambda d: d.__setitem__("current_player", cur))
            assert_from_dict_rejects(bad, ValueError, rf"current player {cur} is not a seat still in the game",
                                     dicts[key])

    def test_current_player_already_out(self, dicts):
        m = dicts["mid"]
        out = m["finish_order"][0]
        bad = mutated(m, lambda d: d.__setitem__("current_player", out))
        assert_from_dict_rejects(bad, ValueError, rf"current player {out} is not a seat still in the game", m)

    @pytest.mark.parametrize("cur", [0, 1, 3, -1])
    def test_over_but_current_player_not_terminal(self, dicts, cur):
        o = dicts["over"]
        bad = mutated(o, lambda d: d.__setitem__("current_player", cur))
        assert_from_dict_rejects(bad, ValueError, rf"a finished game has current player -4, not {cur}", o)

    def test_over_without_a_full_finishing_order(self, dicts):
        bad = mutated(dicts["play"], lambda d: (d.__setitem__("phase", "over"),
                                                d.__setitem__("current_player", -4)))
        assert_from_dict_rejects(bad, ValueError, r"a finished game lists every seat", dicts["play"])

    def test_truncated_in_play_phase(self, dicts):
        for key in ("swap", "play"):
            bad = mutated(dicts[key], lambda d: d.__setitem__("truncated", True))
            assert_from_dict_rejects(bad, ValueError, r"only a finished game can be truncated", dicts[key])

    def test_truncated_before_the_cap(self, dicts):
        o = dicts["over"]
        bad = mutated(o, lambda d: d.__setitem__("truncated", True))
        assert_from_dict_rejects(bad, ValueError, r"move_count \d+ does not fit max_moves", o)

    @pytest.mark.parametrize("key", ["swap", "play"])
    def test_move_count_at_or_past_max_moves_while_playing(self, dicts, key):
        d = dicts[key]
        for mc, mm in ((d["max_moves"], d["max_moves"]), (d["max_moves"] + 1, d["max_moves"]), (20, 20), (21, 20)):
            bad = mutated(d, lambda d: (d.__setitem__("move_count", mc), d.__setitem__("max_moves", mm)))
            assert_from_dict_rejects(bad, ValueError, rf"move_count {mc} does not fit max_moves {mm}", d)

    def test_swap_phase_with_a_pile(self, dicts):
        bad = mutated(dicts["swap"], lambda d: move_card(d, d["draw_pile"], d["pile"], "9d"))
        assert_from_dict_rejects(bad, ValueError, r"in the swap phase nobody is out and the pile", dicts["swap"])


class TestFromDictImpossiblePositions:
    """Positions the rules can never produce (RULES.md 4 and 6). from_dict
    promises to check everything and reject "a malformed or impossible" state."""

    def test_play_phase_empty_hand_while_the_draw_pile_is_not_empty(self, dicts):
        # RULES.md 6: "The hand is empty only when the draw pile is empty,
        # since hands are refilled."
        d = dicts["play"]
        assert d["draw_pile"]

        def f(d):
            d["draw_pile"][:0] = d["hands"][0]
            d["hands"][0] = []
            d["known"][0] = []
        assert_from_dict_rejects(mutated(d, f), ValueError, r"hand|draw", d)

    def test_swap_phase_hand_larger_than_cards_per_zone(self, dicts):
        # RULES.md 4: the deal gives cards_per_zone cards to the hand and the
        # swap keeps the face-up size, so every swap-phase hand has exactly 3
        d = dicts["swap"]
        bad = mutated(d, lambda d: move_card(d, d["draw_pile"], d["hands"][1]))
        assert_from_dict_rejects(bad, ValueError, r"hand|swap", d)

    def test_swap_phase_with_an_empty_face_down_slot(self, dicts):
        # RULES.md 4: nothing is played before the swap phase ends, so every
        # face-down slot is still filled
        d = dicts["swap"]

        def f(d):
            d["draw_pile"].append(d["face_down"][0][1])
            d["face_down"][0][1] = None
        assert_from_dict_rejects(mutated(d, f), ValueError, r"face-down|face_down|slot|swap", d)


# --------------------------------------------------------------- the CLI --


class TestCommandLine:
    def run(self, *args):
        return subprocess.run([sys.executable, "-m", "threes", "simulate", "--games", "10", *args],
                              capture_output=True, text=True, timeout=60)

    @pytest.mark.parametrize("args,fragment", [
        (("--players", "13"), "num_players must be between 2 and 12"),
        (("--players", "6", "--rules", "classic"), "at most 5 players"),
        (("--max-moves", "0"), "max_moves must be between 1 and"),
        (("--rules", "bogus"), "unknown preset 'bogus'"),
        (("--players", "four"), "invalid int value"),
        (("--players", "99999999999999999999"), "num_players"),
    ])
    def test_bad_arguments(self, args, fragment):
        r = self.run(*args)
        assert r.returncode == 2, (r.returncode, r.stderr[-800:])
        assert fragment in r.stderr
        assert "Traceback" not in r.stderr


@pytest.mark.parametrize("suits", [[""], ["  "], {"": None}, ["c", ""], ["cd"]])
def test_an_empty_or_long_suit_name_is_refused(suits):
    """'' is a substring of every string: a suit check by `in "cdhs"` let it
    through, and it then loaded back as clubs (found by the atheris run)."""
    with pytest.raises(ValueError, match="suits among c d h s"):
        threes.Rules.preset("threes", start="rank-from-dealer", start_suits=suits)
