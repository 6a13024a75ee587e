"""Three Thirteen's validation is as strict as Shithead's (issue 13):
State.from_dict rejects every position no game reaches (in C, setup.c and
tt_state_check), wrong types are TypeErrors at the Python/Cython boundary,
mistakes give ValueError/TypeError with a message naming the field, and a
rollout batch copies its start state once, so another Python thread changing
the state meanwhile does not change the batch."""
import json
import pickle
import sys
import threading
import time

import pytest
from threes import IllegalActionError, three_thirteen as tt
from threes.three_thirteen import _core

NUM_ACTIONS = 110


def greedy(s, moves):
    """s after `moves` greedy moves (in place)."""
    for _ in range(moves):
        if s.is_terminal():
            break
        s.apply_action(s._policy_action(1, 7))
    return s


def played(n=2, seed=3, moves=0, **options):
    return greedy(tt.Game(n, **options).new_initial_state(seed), moves)


def until_round(s, r):
    while not s.is_terminal() and s.round() < r:
        s.apply_action(s._policy_action(1, 7))
    return s


def changed(state, **fields):
    d = json.loads(json.dumps(state.to_dict()))
    d.update(fields)
    return d


def refused(d, exc, *words):
    """from_dict(d) raises exc whose message holds every word."""
    with pytest.raises(exc) as info:
        tt.State.from_dict(d)
    for w in words:
        assert w in str(info.value), (w, str(info.value))
    return str(info.value)


def max_card_value(opts):
    """The dearest card left over (spec: Going out and scoring; T-8, ace option)."""
    best = 10
    if opts["ace"] == "either":
        best = 15
    if opts["jokers"] or opts["wild_penalty"] == 20:
        best = 20
    return best


def max_total(opts, rounds):
    """The most a total can be after `rounds` scored rounds: round r deals r + 2 cards."""
    return sum((r + 2) * max_card_value(opts) for r in range(1, rounds + 1))


# ---------------------------------------------------------------- scores --


def test_totals_and_round_scores_within_what_the_scored_rounds_can_score():
    # round 1: nothing is scored yet, so every total is 0 (today 2**31 - 1 was taken, and overflowed)
    s = played()
    for totals in ([2**31 - 1, 0], [1, 0], [0, -1]):
        refused(changed(s, totals=totals), ValueError, "total")
    # round 3 (two rounds scored): totals up to the two rounds' most are positions, one more is not
    for opts in ({}, {"ace": "either"}, {"jokers": 1}, {"wild_penalty": 20}):
        s = until_round(played(**opts), 3)
        assert s.round() == 3 and not s.is_terminal()
        most = max_total(s.to_dict()["options"], 2)
        ok = tt.State.from_dict(changed(s, totals=[most, 0]))
        assert ok.scores() == [most, 0]
        refused(changed(s, totals=[most + 1, 0]), ValueError, "total", str(most))
        # a round's score: 0..(r + 2) * the dearest card
        rows = s.to_dict()["round_scores"]
        hi = 3 * max_card_value(s.to_dict()["options"])
        assert tt.State.from_dict(changed(s, round_scores=[[hi, rows[0][1]], rows[1]])).round_scores()[0][0] == hi
        refused(changed(s, round_scores=[[hi + 1, rows[0][1]], rows[1]]), ValueError, "round_scores", "round 1")
        refused(changed(s, round_scores=[[-1, rows[0][1]], rows[1]]), ValueError, "round_scores")


def test_scores_at_their_bound_add_up_and_rank_without_overflow():
    """The largest totals a position can hold play on to the end: the scores
    add up exactly and the lowest total wins."""
    s = until_round(played(3, seed=8), 11)
    d = s.to_dict()
    most = max_total(d["options"], 10)
    t = tt.State.from_dict(changed(s, totals=[most, most - 1, 0]))
    while not t.is_terminal():
        t.apply_action(t._policy_action(1, 7))
    last = t.round_scores()[-1]
    assert t.scores() == [most + last[0], most - 1 + last[1], last[2]]
    assert t.returns()[2] == 1.0  # the lowest total, alone


# ------------------------------------------------------------ hand sizes --


def test_hand_sizes_follow_the_round_and_the_phase():
    s = played()
    d = s.to_dict()
    assert [len(h) for h in d["hands"]] == [3, 3]
    # a 14-card round-1 hand (today accepted; after a draw 15 cards, scored on 14, pickled but not unpickled)
    big = changed(s)
    big["hands"][0] = d["hands"][0] + d["stock"][:11]
    big["stock"] = d["stock"][11:]
    refused(big, ValueError, "seat 0 holds 14 cards", "round 1")
    # a 4-card hand in the draw phase, and a 2-card one
    one = changed(s)
    one["hands"][1] = d["hands"][1] + d["stock"][-1:]
    one["stock"] = d["stock"][:-1]
    refused(one, ValueError, "seat 1 holds 4 cards")
    short = changed(s)
    short["stock"] = d["stock"] + d["hands"][1][:1]
    short["hands"][1] = d["hands"][1][1:]
    refused(short, ValueError, "seat 1 holds 2 cards")
    # the discard phase: the seat to move holds one card more, the others not
    s.apply_action(0)
    d = s.to_dict()
    mover = d["current"]
    assert d["phase"] == 1 and len(d["hands"][mover]) == 4
    back = changed(s, phase=0, taken_kind=-1)  # the drawn card, but the draw phase
    refused(back, ValueError, f"seat {mover} holds 4 cards")
    other = 1 - mover
    wrong = changed(s)
    wrong["hands"][other] = d["hands"][other] + [d["hands"][mover][0]]
    wrong["hands"][mover] = d["hands"][mover][1:]
    refused(wrong, ValueError, "holds")
    # round 5 deals 7 cards
    s = until_round(played(seed=4), 5)
    d = s.to_dict()
    assert d["phase"] == 0 and [len(h) for h in d["hands"]] == [7, 7]


def _game_positions():
    """Positions of played games: every phase, seats out, finished games, and
    games cut at small move caps (between a draw and a discard too)."""
    out = []
    for n, seed, cap in ((2, 1, None), (3, 2, None), (4, 3, 301), (2, 5, 7), (3, 6, 8), (2, 7, 35)):
        s = tt.Game(n, max_moves=cap).new_initial_state(seed)
        k = 0
        while True:
            if k % 5 == 0 or s.is_terminal():
                out.append(s.clone())
            if s.is_terminal():
                break
            s.apply_action(s._policy_action(1, 7))
            k += 1
    return out


def test_every_position_of_a_game_still_loads_and_pickles():
    positions = _game_positions()
    cut = [s for s in positions if s.is_truncated()]
    assert any(s.to_dict()["phase"] == 2 and max(len(h) for h in s.to_dict()["hands"]) == s.round() + 3
               for s in cut), "no game cut between a draw and a discard"
    assert any(s.is_terminal() and not s.is_truncated() for s in positions)
    for s in positions:
        d = json.loads(json.dumps(s.to_dict()))
        r = tt.State.from_dict(d)
        assert r == s and r.history() == s.history()
        assert pickle.loads(pickle.dumps(s)) == s


# -------------------------------------------------------------- counters --


def test_move_count_below_its_cap_and_truncated_only_at_it():
    s = played()
    # the game is on: move_count == max_moves == 2**32 - 1 is no position (today it wrapped to 0)
    refused(changed(s, move_count=2**32 - 1, max_moves=2**32 - 1), ValueError, "move_count")
    refused(changed(s, move_count=20000, max_moves=20000), ValueError, "move_count")
    refused(changed(s, max_moves=2**32), ValueError, "max_moves")
    refused(changed(s, max_moves=0), ValueError, "max_moves")
    refused(changed(s, move_count=-1), ValueError, "move_count")
    # one move below the largest cap: the next move cuts the game at exactly 2**32 - 1
    t = tt.State.from_dict(changed(s, move_count=2**32 - 2, max_moves=2**32 - 1))
    t.apply_action(0)
    d = t.to_dict()
    assert t.is_truncated() and d["move_count"] == d["max_moves"] == 2**32 - 1
    assert tt.State.from_dict(d) == t
    # truncated means cut at the cap: not below it, not while the game is on
    refused(changed(t, move_count=2**32 - 2), ValueError, "truncated")
    refused(changed(s, truncated=True), ValueError, "truncated")


def test_generator_state_must_not_be_all_zero():
    s = played()
    refused(changed(s, rng=[0, 0, 0, 0]), ValueError, "rng", "zero")
    refused(changed(s, rng=[1, 2, 3]), ValueError, "4 numbers")
    refused(changed(s, rng=[1, 2, 3, 2**64]), ValueError, "rng[3]")
    refused(changed(s, rng=[1, 2, 3, -1]), ValueError, "rng[3]")


# ----------------------------------------------------------------- types --


@pytest.mark.parametrize("field, value, name", [
    ("num_players", 2.9, "num_players"),
    ("num_players", "2", "num_players"),
    ("num_players", True, "num_players"),
    ("round", True, "round"),
    ("round", 1.0, "round"),
    ("dealer", "1", "dealer"),
    ("current", None, "current"),
    ("phase", 0.0, "phase"),
    ("move_count", False, "move_count"),
    ("max_moves", 20000.0, "max_moves"),
    ("taken_kind", "-1", "taken_kind"),
    ("truncated", "no", "truncated"),
    ("pool_active", None, "pool_active"),
    ("totals", [True, 0], "totals[0]"),
    ("turns", [1.0, 0], "turns[0]"),
    ("rng", "1234", "rng"),
    ("round_scores", 5, "round_scores"),
    ("hands", None, "hands"),
    ("stock", "Ah", "stock"),
    ("options", 5, "options"),
])
def test_a_wrong_type_is_a_type_error_naming_the_field(field, value, name):
    s = played(moves=1)
    refused(changed(s, **{field: value}), TypeError, name)


@pytest.mark.parametrize("option, value", [("decks", "1"), ("decks", 1.0), ("decks", True), ("jokers", 0.0),
                                           ("rediscard_taken", 0), ("go_out_first_turn", "yes"),
                                           ("all_wild_melds", 1)])
def test_option_types_are_exact(option, value):
    s = played()
    d = changed(s)
    d["options"][option] = value
    refused(d, TypeError, option)


def test_options_and_keys_are_checked():
    s = played()
    d = changed(s)
    d["options"]["jokerz"] = 1
    refused(d, ValueError, "jokerz")
    d = changed(s)
    del d["options"]["decks"]
    refused(d, ValueError, "decks")
    refused(changed(s, colour="red"), ValueError, "colour")
    d = changed(s)
    d["options"]["decks"] = 300
    refused(d, ValueError, "decks")
    d = changed(s)
    d["hands"][0][0] = 7
    refused(d, TypeError, "hands[0][0]")
    d = changed(s)
    d["hands"][0][0] = "Zz"
    refused(d, ValueError, "hands[0][0]")


# --------------------------------------------------------------- history --


def test_history_entries_are_action_ids_and_no_more_than_the_moves():
    s = played(moves=6)
    h = s.history()
    assert len(h) == 6 == s.to_dict()["move_count"]
    assert tt.State.from_dict(changed(s)).history() == h
    refused(changed(s, history=[10**30, -5, 1.5]), ValueError, "history[0]")  # today it loaded
    refused(changed(s, history=[-5]), ValueError, "history[0]")
    refused(changed(s, history=[NUM_ACTIONS]), ValueError, "history[0]")
    refused(changed(s, history=[0, 1.5]), TypeError, "int")
    refused(changed(s, history=[True]), TypeError, "bool")
    refused(changed(s, history="0 1"), TypeError, "history")
    refused(changed(s, history=h + [0]), ValueError, "history", "move_count")
    # fewer entries than moves: a position saved without its history
    assert tt.State.from_dict(changed(s, history=[])).history() == []


# -------------------------------------------------------- clear mistakes --


def test_unclear_errors_are_value_or_type_errors():
    s = played(moves=1)
    for call in (lambda: s._deadwood(2**70), lambda: s.deadwood(2**70), lambda: s.round_margins(2**70),
                 lambda: s.observation_tensor(2**70), lambda: s._resample(2**70, 1), lambda: tt.Game(2**70)):
        with pytest.raises(ValueError):
            call()
    with pytest.raises(TypeError):
        s._deadwood(1.0)
    with pytest.raises(TypeError, match="string"):
        s.string_to_action(None)
    with pytest.raises(TypeError, match="player"):
        s.string_to_action(None, "take")
    with pytest.raises(TypeError, match="string"):
        s.string_to_action(0, None)
    refused(changed(s, options=5), TypeError, "options")
    refused(changed(s, rng=[1, 2]), ValueError, "4 numbers")
    r = until_round(played(), 2)
    refused(changed(r, round_scores=[[1]]), ValueError, "round 1", "one entry per seat")
    refused(changed(r, round_scores=[]), ValueError, "round scores")
    with pytest.raises(ValueError, match="no position"):
        tt.rollouts(tt.State.__new__(tt.State), 2)


def test_bool_and_float_actions_are_type_errors():
    s = played(moves=1)
    before = s.to_dict()
    for a in (True, False, 1.0, 1.7, "1", None):
        with pytest.raises(TypeError):
            s.apply_action(a)
        with pytest.raises(TypeError):
            _core.StateBase.apply_action(s, a)  # the Cython boundary itself, as Shithead's
        with pytest.raises(TypeError):
            s.is_legal(a)
        with pytest.raises(TypeError):
            s.action_to_string(a)
        with pytest.raises(TypeError):
            s.action_to_string(a, 1)  # OpenSpiel's (player, action): the player is an int too
        with pytest.raises(TypeError):
            s.action_to_string(0, a)
    assert s.to_dict() == before
    assert s.action_to_string(0, 1) == "take" and s.string_to_action(0, "take") == 1
    with pytest.raises(IllegalActionError):
        s.apply_action(NUM_ACTIONS)


# -------------------------------------------------------------- rollouts --


def _mutated_batch(s, **kw):
    """tt.rollouts(s, **kw) while another Python thread plays moves on s.
    The switch interval is raised so that the other thread can run only
    while the batch has released the GIL, that is while it plays; returns
    (result, moves the other thread played during the batch)."""
    go, done = threading.Event(), threading.Event()
    during = []

    def mutate():
        go.wait()
        # Let the batch take its copy first: between go and the copy the caller may release the GIL in a
        # system call (the thread-count check), and a move made then would be part of the batch's start.
        time.sleep(0.1)
        while not done.is_set() and not s.is_terminal():
            s.apply_action(s.legal_actions()[0])
            during.append(1)
            time.sleep(0.001)  # releases the GIL: the batch takes it back when it ends

    th = threading.Thread(target=mutate)
    th.start()
    old = sys.getswitchinterval()
    sys.setswitchinterval(30.0)
    try:
        go.set()
        got = tt.rollouts(s, **kw)
        done.set()
    finally:
        sys.setswitchinterval(old)
        done.set()
        th.join()
    return got, len(during)


@pytest.mark.parametrize("threads, observer", [(1, None), (2, 1)])
def test_rollouts_copy_the_start_state_once(threads, observer):
    """A batch plays every game from the state as it was when the batch
    began, whatever another thread does to it meanwhile (today each game
    copied the live state: games after a change started elsewhere)."""
    s = played(3, seed=5, moves=7)
    untouched = s.clone()
    kw = dict(n=1200, policy="greedy", seed=11, threads=threads, observer=observer)
    want = tt.rollouts(untouched, **kw)
    for _ in range(5):  # on a loaded machine the other thread may not get to run during one batch: try again
        got, moved = _mutated_batch(s, **kw)
        if moved:
            break
        s = untouched.clone()
    assert moved > 0 and s.to_dict()["move_count"] > untouched.to_dict()["move_count"]  # it changed meanwhile
    assert (got.totals == want.totals).all()
    assert (got.moves == want.moves).all()
    assert (got.returns == want.returns).all() and (got.truncated == want.truncated).all()
