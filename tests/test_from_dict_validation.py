"""``State.from_dict`` of both games accepts only records a game could reach, and reads back exactly
what it accepts.

Neither game replays a history from a seed: a record lists the position itself (every card, whose
turn, the move count, the options) and the C setup (setup.c of each game) checks it; the history is
the last ``len(history)`` moves (all of them since the deal, or since a position was built by hand),
which from_dict checks against the rest in Python: at most ``move_count`` of them, in the order a
game makes them (Shithead: the swap decisions first, one per seat; Three Thirteen: a draw then a
discard, every turn, ending where the position is). A Shithead record in the swap phase is held to
how that phase goes (the seat to move follows from the dealer and the move count, every seat holds
``cards_per_zone`` cards in each zone).

The property tests mutate valid records (one field changed, one key dropped or added, the history
cut, cards moved) and ask that from_dict either refuses the record with a ValueError or TypeError,
or accepts it as the state it describes: the C invariant check passes, ``to_dict()`` gives back the
record (up to the order of unordered zones and the optional keys' defaults), and the moves that
follow keep round-tripping. Never a crash, and never a silently different state.
"""
import copy
import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis.control import currently_in_test_context
from hypothesis import strategies as st

import threes
from threes import three_thirteen as tt
from threes.shithead.game import State as SHState

SH = "shithead"
TT = "three_thirteen"


def played(game_name, seed, moves, players=3):
    """A state of a random game `moves` moves after the deal (or earlier, when it ended)."""
    rng = random.Random(seed)
    if game_name == SH:
        s = threes.Game(players, rng.choice(["threes", "classic", "dutch"])).new_initial_state(seed)
    else:
        s = tt.Game(players, jokers=rng.choice([0, 2])).new_initial_state(seed)
    for _ in range(moves):
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def cls_of(game_name):
    return SHState if game_name == SH else tt.State


def rejects(game_name, d, exc=(TypeError, ValueError), match=None):
    snapshot = copy.deepcopy(d)
    with pytest.raises(exc, match=match):
        cls_of(game_name).from_dict(d)
    assert d == snapshot, "from_dict does not change its argument"


# ------------------------------------------------------------------------ positive controls --
@pytest.mark.parametrize("game_name", [SH, TT])
@pytest.mark.parametrize("moves", [0, 1, 2, 3, 4, 7, 30, 400, 100000])
def test_every_reached_state_round_trips(game_name, moves):
    for seed in range(4):
        s = played(game_name, seed, moves, players=2 + seed % 3)
        d = s.to_dict()
        back = cls_of(game_name).from_dict(d)
        assert back.to_dict() == d
        assert back.fingerprint() == s.fingerprint()


def test_positions_built_by_hand_and_played_on_still_round_trip():
    s = threes.Game(3).position(hands=["4c 4d", "Kh 9s", "7h"], face_down=[[], ["9c"], []], pile="3h")
    rng = random.Random(1)
    while not s.is_terminal():
        assert SHState.from_dict(s.to_dict()).to_dict() == s.to_dict()
        s.apply_action(rng.choice(s.legal_actions()))
    assert SHState.from_dict(s.to_dict()).to_dict() == s.to_dict()


# --------------------------------------------------------------------------- history vs moves --
@pytest.mark.parametrize("game_name", [SH, TT])
def test_a_history_longer_than_the_move_count(game_name):
    d = played(game_name, 1, 6).to_dict()
    d["history"] = d["history"] + d["history"][-2:]
    rejects(game_name, d, ValueError, r"history lists 8 actions, more than the 6 moves played")
    d = played(game_name, 1, 6).to_dict()
    d["move_count"] = 5
    rejects(game_name, d, ValueError)


def test_shithead_swap_decisions_come_first():
    d = played(SH, 2, 5).to_dict()  # three swap decisions, then plays
    h = d["history"]
    d["history"] = [h[3], h[0], h[1], h[2], h[4]]
    rejects(SH, d, ValueError, r"swap decision after a play")
    d["history"] = h[:3] + h[:3]  # six swap decisions in a 3-player game
    d["move_count"] = max(d["move_count"], 6)
    rejects(SH, d, ValueError, r"6 swap decisions; a game of 3 has 3|swap decision")


def test_shithead_swap_phase_follows_the_dealer_and_the_move_count():
    s = threes.Game(3, dealer=1).new_initial_state(4)
    s.apply_action(s.legal_actions()[0])
    d = s.to_dict()
    assert (d["phase"], d["move_count"], d["current_player"]) == ("swap", 1, 0)
    for cur in (1, 2):
        rejects(SH, dict(d, current_player=cur), ValueError, r"after 1 swap decisions with dealer 1, seat 0 decides")
    rejects(SH, dict(d, move_count=2), ValueError, r"seat 1 decides")
    rejects(SH, dict(d, move_count=3, current_player=1), ValueError, r"swap phase: its 3 swap decisions")
    bad = copy.deepcopy(d)
    bad["history"] = [0]  # a play, not a swap decision
    rejects(SH, bad, ValueError, r"not a swap decision in the swap phase")
    bad = copy.deepcopy(d)  # (the C setup checks the cards: three in each zone of every seat)
    bad["draw_pile"].append(bad["face_down"][0][1])
    bad["face_down"][0][1] = None
    rejects(SH, bad, ValueError, r"in the swap phase every seat holds 3 cards")


def test_three_thirteen_history_is_turns():
    d = played(TT, 3, 9).to_dict()  # ends after a draw: the discard phase
    assert d["phase"] == 1
    h = d["history"]
    bad = dict(d, history=h[:-2] + [h[-1], h[-1]])
    rejects(TT, bad, ValueError, r"are both draws")
    bad = dict(d, history=h[:-1])  # ends with a discard in the discard phase
    rejects(TT, bad, ValueError, r"ends with a discard but the position is in the discard phase")
    d = played(TT, 3, 10).to_dict()
    bad = dict(d, history=d["history"][:-1])
    rejects(TT, bad, ValueError, r"ends with a draw but the position is in the draw phase")


def test_three_thirteen_t9_record_comes_whole():
    d = played(TT, 4, 30).to_dict()
    for key in ("pool_hand", "pool_active"):
        bad = dict(d)
        del bad["known"]
        bad.pop("pool_hand" if key == "pool_active" else "pool_active")
        rejects(TT, bad, ValueError, rf"has {key} but no known")
    old = dict(d)
    for key in ("known", "pool_hand", "pool_active"):
        del old[key]
    tt.State.from_dict(old)  # a record from before T-9: read, the shown cards known


# ------------------------------------------------------------- options, types, keys, players --
@pytest.mark.parametrize("rules,match", [
    ({"decks": 9}, r"decks must be between 1 and 4"), ({"decks": 2**64}, r"0\.\.255"),
    ({"cards_per_zone": 0}, r"cards_per_zone must be between 1 and 5"), ({"run_to_burn": -1}, r"0\.\.255"),
    ({"repetition_limit": 2**70}, r"0\.\.255"), ({"bogus": 1}, r"unknown rule"),
])
def test_shithead_rules_out_of_range(rules, match):
    d = played(SH, 5, 3).to_dict()
    d["rules"] = dict(d["rules"], **rules)
    rejects(SH, d, (TypeError, ValueError), match)


@pytest.mark.parametrize("options,exc", [
    ({"decks": 300}, ValueError), ({"decks": -1}, ValueError), ({"decks": 2**64}, ValueError),
    ({"jokers": 2**70}, ValueError), ({"decks": 0}, ValueError), ({"decks": "2"}, TypeError),
    ({"decks": True}, TypeError), ({"ace": "high"}, ValueError), ({"wild_penalty": 7}, ValueError),
    ({"rediscard_taken": "yes"}, TypeError), ({"bogus": 1}, ValueError),
])
def test_three_thirteen_options_out_of_range(options, exc):
    d = played(TT, 5, 3).to_dict()
    d["options"] = dict(d["options"], **options)
    rejects(TT, d, exc)


@pytest.mark.parametrize("game_name", [SH, TT])
def test_wrong_types(game_name):
    base = played(game_name, 6, 5).to_dict()
    cur = "current_player" if game_name == SH else "current"
    for key, value in [("move_count", "3"), ("move_count", 3.0), ("move_count", True), ("history", "0 1"),
                       ("history", [0.0]), ("history", [True]), (cur, None), (cur, 1.5), ("num_players", "3"),
                       ("num_players", 3.0), ("num_players", True), ("truncated", "no"), ("max_moves", None)]:
        rejects(game_name, dict(base, **{key: value}), TypeError)
    for key, value in [("hands", None), ("hands", "4c 5c"), ("hands", [["4c"], 5, []]), ("hands", [[4]] * 3),
                       ("phase", 1.5), ("history", None)]:  # the shape: a TypeError or a ValueError naming it
        rejects(game_name, dict(base, **{key: value}), (TypeError, ValueError))


@pytest.mark.parametrize("game_name", [SH, TT])
def test_extra_and_missing_keys(game_name):
    base = played(game_name, 7, 5).to_dict()
    rejects(game_name, dict(base, extra=1), ValueError, r"unknown keys: extra")
    required = ("num_players", "phase", "hands", "pile") if game_name == SH else ("round", "rng", "stock", "turns")
    for key in required:
        d = dict(base)
        del d[key]
        rejects(game_name, d, ValueError, rf"lacks {key}")
    for d in (None, [], "state", 5, b"{}"):
        rejects(game_name, d, (TypeError, ValueError))


@pytest.mark.parametrize("game_name", [SH, TT])
@pytest.mark.parametrize("n", [0, 1, -1, 13, 2**64, -2**64, 2**200])
def test_a_player_count_out_of_bounds(game_name, n):
    d = played(game_name, 8, 5).to_dict()
    rejects(game_name, dict(d, num_players=n), ValueError, r"between 2 and (12|8)|num_players|seat|entry per seat")


@pytest.mark.parametrize("game_name", [SH, TT])
@pytest.mark.parametrize("value", [2**64, -2**64, 2**200, -2**63 - 1])
def test_huge_ints_in_any_int_field(game_name, value):
    d = played(game_name, 9, 12).to_dict()
    for key, v in d.items():
        if isinstance(v, int) and not isinstance(v, bool):
            rejects(game_name, dict(d, **{key: value}), (TypeError, ValueError))
    rejects(game_name, dict(d, history=d["history"] + [value]), (TypeError, ValueError))


# --------------------------------------------------------------------- mutation properties --
ODD = [None, True, False, 1.5, "x", "", -1, 0, 1, 2, 3, 2**64, -2**64, [], {}, [1], [[]], 10**6]

#: keys whose lists are multisets (to_dict writes them in a canonical order)
UNORDERED = {SH: {"hands", "known", "face_up", "burned"}, TT: {"hands", "known", "pool_hand"}}
#: optional keys and the value from_dict takes when one is missing
DEFAULTS = {SH: {"format": "threes.State/1", "history": [], "known": None, "move_count": 0, "truncated": False,
                 "finish_order": [], "stalemate": False, "repetitions": []},
            TT: {"history": []}}


def canonical(game_name, d):
    out = {}
    for k, v in d.items():
        if k in UNORDERED[game_name] and isinstance(v, list):
            v = [sorted(row) if isinstance(row, list) else row for row in v]
        out[k] = v
    return out


@st.composite
def mutations(draw, game_name):
    seed = draw(st.integers(0, 2**16))
    moves = draw(st.sampled_from([0, 1, 2, 3, 5, 8, 20, 60, 300, 5000]))
    players = draw(st.integers(2, 4))
    d = played(game_name, seed, moves, players).to_dict()
    event(f"{d['move_count']} moves" if d["move_count"] < 4 else "4+ moves")
    m = copy.deepcopy(d)
    key = draw(st.sampled_from(sorted(m)))
    op = draw(st.sampled_from(["drop", "add", "set", "bump", "history", "cards", "nested"]))
    if op == "drop":
        del m[key]
    elif op == "add":
        m[draw(st.sampled_from(["extra", "Phase", "seed", ""]))] = draw(st.sampled_from(ODD))
    elif op == "set":
        m[key] = draw(st.sampled_from(ODD))
    elif op == "bump" and isinstance(m[key], int) and not isinstance(m[key], bool):
        m[key] += draw(st.sampled_from([-2, -1, 1, 2, 2**32, -2**32]))
    elif op == "bump" and isinstance(m[key], bool):
        m[key] = not m[key]
    elif op == "history" and m.get("history"):
        h = m["history"]
        how = draw(st.sampled_from(["cut_end", "cut_start", "extend", "change", "swap_two"]))
        if how == "cut_end":
            m["history"] = h[:draw(st.integers(0, len(h) - 1))]
        elif how == "cut_start":
            m["history"] = h[draw(st.integers(1, len(h))):]
        elif how == "extend":
            m["history"] = h + [draw(st.sampled_from(h))]
        elif how == "change":
            m["history"][draw(st.integers(0, len(h) - 1))] = draw(st.integers(0, 200))
        else:
            i, j = draw(st.integers(0, len(h) - 1)), draw(st.integers(0, len(h) - 1))
            h[i], h[j] = h[j], h[i]
    elif op == "cards":
        lists = [(k, q) for k, v in m.items() if isinstance(v, list) and v and isinstance(v[0], list)
                 for q in range(len(v)) if v[q]]
        if lists:
            k, q = draw(st.sampled_from(lists))
            card = m[k][q].pop(draw(st.integers(0, len(m[k][q]) - 1)))
            to = draw(st.sampled_from(["same zone", "pile", "gone", "twice"]))
            flat = "pile" if game_name == SH else "discard"
            if to == "same zone":
                m[k][draw(st.integers(0, len(m[k]) - 1))].append(card)
            elif to == "pile":
                m[flat].append(card)
            elif to == "twice":
                m[k][q].extend([card, card])
    elif op == "nested":
        inner = "rules" if game_name == SH else "options"
        if isinstance(m.get(inner), dict):
            sub = draw(st.sampled_from(sorted(m[inner])))
            m[inner][sub] = draw(st.sampled_from(ODD + [m[inner][sub]]))
    return d, m


def _event(text):
    """hypothesis.event (its statistics: how many records were refused, read as the same or another
    state), outside a Hypothesis test nothing."""
    if currently_in_test_context():
        event(text)


def check_mutation(game_name, d, m):
    cls = cls_of(game_name)
    snapshot = copy.deepcopy(m)
    try:
        x = cls.from_dict(m)
    except (TypeError, ValueError) as exc:
        _event(f"refused: {type(exc).__name__}")
        assert m == snapshot
        return
    assert m == snapshot
    _event("accepted: the same state" if x.to_dict() == d else "accepted: another state")
    x._check()  # the C invariants hold
    got = x.to_dict()
    for k, v in m.items():  # every field given is the state's: nothing read differently or dropped
        if k in DEFAULTS[game_name] and k not in got:
            continue
        want = canonical(game_name, {k: v})[k]
        have = canonical(game_name, {k: got.get(k)})[k]
        if k == "known" and game_name == SH and v is None:
            continue
        assert have == want or (k == "rules" and cls.from_dict(dict(m)).rules == x.rules), (k, v, got.get(k))
    for k, default in DEFAULTS[game_name].items():  # a key left out takes its documented default
        if k not in m and default is not None:
            assert got[k] == default, k
    # and the game goes on: every state reached round-trips
    rng = random.Random(len(str(m)))
    for _ in range(6):
        assert cls.from_dict(x.to_dict()).to_dict() == x.to_dict()
        if x.is_terminal():
            break
        x.apply_action(rng.choice(x.legal_actions()))


_SETTINGS = settings(max_examples=300, deadline=None, derandomize=True,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@_SETTINGS
@given(pair=mutations(SH))
def test_shithead_mutated_records_are_refused_or_read_exactly(pair):
    check_mutation(SH, *pair)


@_SETTINGS
@given(pair=mutations(TT))
def test_three_thirteen_mutated_records_are_refused_or_read_exactly(pair):
    check_mutation(TT, *pair)


@pytest.mark.parametrize("game_name", [SH, TT])
def test_the_mutation_check_catches_a_silent_change(game_name, monkeypatch):
    """The property above can fail: a from_dict that drops a field it is given is caught."""
    cls = cls_of(game_name)
    real = cls.from_dict.__func__
    key = "move_count"

    def forgetful(c, d):
        d = dict(d)
        d[key] = d.get(key, 0) + 2 if game_name == SH else d[key]
        if game_name == TT:
            d["totals"] = [t + 1 for t in d["totals"]]
        return real(c, d)

    monkeypatch.setattr(cls, "from_dict", classmethod(forgetful))
    d = played(game_name, 11, 40).to_dict()
    with pytest.raises(AssertionError):
        check_mutation(game_name, d, dict(d))
