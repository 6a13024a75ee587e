"""Stalemate by repetition and the position key (RULES.md sections 3 and 7).

The spec's own example of a game that cannot end: two players, hands 5c and
6c, face-up 3c and 3d, a King on the pile, no draw pile, with
pickup_then_play (threes): nobody can ever go out.
"""
from __future__ import annotations

import copy
import pickle
import random
from collections import Counter

import numpy as np
import pytest

import threes
from threes.bots import PolicyBot
from threes.places import MOVE_CAP, STALEMATE, end_reason
from threes.shithead.rules import Rules

FULL_DECK = threes.Game(2).new_initial_state(seed=1).to_dict()


def _all_cards():
    d = FULL_DECK
    out = []
    for zone in ("hands", "face_up", "face_down"):
        for h in d[zone]:
            out += [c for c in h if c is not None]
    return out + d["pile"] + d["draw_pile"] + d.get("burned", [])


def stuck_position(limit: int = 0, max_moves: int = 2000) -> threes.State:
    rest = Counter(_all_cards())
    for c in ("5c", "6c", "3c", "3d", "Kh"):
        rest[c] -= 1
    d = {
        "format": FULL_DECK["format"], "rules": dict(Rules.preset("threes", repetition_limit=limit).to_dict()),
        "num_players": 2, "dealer": 1, "max_moves": max_moves, "phase": "play", "current_player": 0,
        "move_count": 0, "hands": [["5c"], ["6c"]], "face_up": [["3c"], ["3d"]], "face_down": [[], []],
        "pile": ["Kh"], "draw_pile": [], "burned": sorted(rest.elements()),
    }
    return threes.State.from_dict(d)


def _play(s, seed=0, policy="random"):
    bot = PolicyBot(policy, seed=seed)
    while not s.is_terminal():
        s.apply_action(bot.step(s))
    return s


def test_presets_have_the_rule_off_and_it_validates():
    for p in ("threes", "classic", "dutch"):
        assert Rules.preset(p).repetition_limit == 0
    assert Rules.preset("threes", repetition_limit=3).repetition_limit == 3
    for bad in (1, 256, -1):
        with pytest.raises(ValueError):
            threes.Game(2, Rules.preset("threes", repetition_limit=bad))
    with pytest.raises(TypeError):
        Rules.preset("threes", repetition_limit=2.5)


def test_without_the_rule_the_stuck_game_reaches_the_cap():
    s = _play(stuck_position(0, max_moves=500))
    assert s.is_truncated() and not s.is_stalemate() and s.move_number() == 500


@pytest.mark.parametrize("limit", [2, 3, 5])
def test_the_stuck_game_ends_at_the_kth_occurrence_exactly(limit):
    # replay without the rule, counting positions by key, to find the move of the k-th occurrence
    free = stuck_position(0)
    bot = PolicyBot("random", seed=7)
    seen, actions, end = Counter(), [], None
    seen[free.position_key()] += 1
    while end is None:
        a = bot.step(free)
        actions.append(a)
        free.apply_action(a)
        seen[free.position_key()] += 1
        if seen[free.position_key()] == limit:
            end = len(actions)
    s = stuck_position(limit)
    for i, a in enumerate(actions):
        assert not s.is_terminal(), f"ended early at move {i}"
        s.apply_action(a)
    assert s.is_terminal() and s.is_stalemate() and s.is_truncated()
    assert s.move_number() == end < 2000
    assert s.returns() == [0.0, 0.0]  # both still in: they share the open places, as in a truncated game
    assert s.finish_order() == []


def test_position_key_ignores_suits_knowledge_and_history_but_not_order():
    d = stuck_position(0).to_dict()
    base = threes.State.from_dict(d).position_key()
    # another suit of the same rank in a hand (5d for 5c): the same position
    other = copy.deepcopy(d)
    other["hands"][0] = ["5d"]
    other["burned"].remove("5d")
    other["burned"].append("5c")
    assert threes.State.from_dict(other).position_key() == base
    # knowledge, the move count and the history are not the position
    known = {**copy.deepcopy(d), "known": [["5c"], []], "move_count": 7, "history": [1, 2, 3, 4, 5, 6, 7]}
    assert threes.State.from_dict(known).position_key() == base
    # another rank is another position, and so is another seat to move
    q = copy.deepcopy(d)
    q["hands"][0] = ["4c"]
    q["burned"].remove("4c")
    q["burned"].append("5c")
    assert threes.State.from_dict(q).position_key() != base
    assert threes.State.from_dict({**copy.deepcopy(d), "current_player": 1}).position_key() != base
    # the pile's order is part of it
    p1 = {**copy.deepcopy(d), "pile": ["Kh", "Qh"]}
    p1["burned"].remove("Qh")
    p2 = {**copy.deepcopy(d), "pile": ["Qh", "Kh"]}
    p2["burned"].remove("Qh")
    assert threes.State.from_dict(p1).position_key() != threes.State.from_dict(p2).position_key()
    # every move of the stuck game changes it
    s = stuck_position(0)
    before = s.position_key()
    s.apply_action(s.legal_actions()[0])
    assert s.position_key() != before


def test_position_keys_of_random_games_are_consistent():
    """Equal keys come only from equal positions (to_dict without suits,
    knowledge, counters and history), over many random positions."""
    seen = {}
    for seed in range(40):
        s = threes.Game(2).new_initial_state(seed=seed)
        bot = PolicyBot("random", seed=seed)
        while not s.is_terminal():
            d = s.to_dict()
            rank = lambda c: None if c is None else c[0]
            pos = (d["phase"], d["current_player"], tuple(d["finish_order"] and sorted(d["finish_order"])),
                   tuple(tuple(sorted(map(rank, h))) for h in d["hands"]),
                   tuple(tuple(sorted(map(rank, h))) for h in d["face_up"]),
                   tuple(tuple(map(rank, h)) for h in d["face_down"]),
                   tuple(map(rank, d["pile"])), tuple(map(rank, d["draw_pile"])))
            k = s.position_key()
            assert seen.setdefault(k, pos) == pos
            s.apply_action(bot.step(s))


def test_round_trip_keeps_the_count_and_bad_records_are_refused():
    s = stuck_position(4)
    bot = PolicyBot("random", seed=3)
    for _ in range(9):
        s.apply_action(bot.step(s))
    d = s.to_dict()
    assert d["repetitions"] and not d["stalemate"]
    t = threes.State.from_dict(d)
    assert t.to_dict() == d and t == s
    a, b = s.clone(), t
    bot_a, bot_b = PolicyBot("random", seed=11), PolicyBot("random", seed=11)
    while not a.is_terminal():
        x = bot_a.step(a)
        assert x == bot_b.step(b)
        a.apply_action(x)
        b.apply_action(x)
    assert b.is_terminal() and a.is_stalemate() == b.is_stalemate() and a.move_number() == b.move_number()
    assert pickle.loads(pickle.dumps(s)) == s
    for bad in ({**d, "repetitions": d["repetitions"][:-1] + [d["repetitions"][-1] ^ 1]},  # newest is not this one
                {**d, "repetitions": [1] * 65},
                {**d, "stalemate": True},
                {**d, "repetitions": ["x"]}):
        with pytest.raises((ValueError, TypeError)):
            threes.State.from_dict(bad)
    off = stuck_position(0).to_dict()
    with pytest.raises(ValueError):
        threes.State.from_dict({**off, "repetitions": d["repetitions"]})


def test_rollouts_report_stalemates():
    on = threes.rollouts(stuck_position(3), 50, policy="random", seed=1)
    assert on.stalemate.all() and on.truncated.all() and (on.moves < 2000).all()
    off = threes.rollouts(stuck_position(0), 50, policy="greedy", seed=1)
    assert not off.stalemate.any() and off.truncated.all()
    g = threes.rollouts(stuck_position(3), 50, policy="greedy", seed=1)
    assert g.stalemate.all()
    assert "stalemate" in on.summary() and "stalemate=50" in repr(on)
    fresh = threes.rollouts(threes.Game(4), 300, policy="random", seed=2)
    assert not fresh.stalemate.any()  # the presets keep the rule off


def test_rollouts_with_the_rule_do_not_depend_on_threads():
    g = threes.Game(3, Rules.preset("threes", repetition_limit=3))
    r2 = threes.rollouts(g, 300, policy="random", seed=9, threads=2)
    r1 = threes.rollouts(g, 300, policy="random", seed=9, threads=1)
    assert np.array_equal(r2.places, r1.places) and np.array_equal(r2.stalemate, r1.stalemate)
    assert np.array_equal(r2.moves, r1.moves)
    assert r1.stalemate.any()  # random threes games do repeat a position three times (RULES.md section 7)


def test_resampling_forgets_the_true_positions():
    s = stuck_position(5)
    for a in (s.legal_actions()[0],) * 1:
        s.apply_action(a)
    assert s._repetitions()
    assert s.resample_from_infostate(0, seed=1)._repetitions() == []


def _stuck_actions_to_stalemate(limit: int, seed: int):
    """The actions of a random stuck game with the rule `limit`, up to the move
    that ends it as a stalemate (that move is the last one)."""
    s, bot, actions = stuck_position(limit), PolicyBot("random", seed=seed), []
    while not s.is_terminal():
        actions.append(bot.step(s))
        s.apply_action(actions[-1])
    assert s.is_stalemate() and s.move_number() == len(actions) > 1
    return actions


@pytest.mark.parametrize("limit", [2, 3])
def test_7_D18_a_kth_occurrence_on_the_caps_last_move_is_a_stalemate(limit):
    """RULES.md section 7, D-18: when the move that makes a position's k-th
    occurrence is also the last move max_moves allows, the game is a
    stalemate, not truncated at the cap (returns alike); one move less of cap
    and the same game is cut by the cap."""
    actions = _stuck_actions_to_stalemate(limit, seed=limit)
    end = len(actions)
    s = stuck_position(limit, max_moves=end)
    for a in actions[:-1]:
        assert not s.is_terminal()
        s.apply_action(a)
    events = [e.kind for e in s.apply(actions[-1])]
    assert s.move_number() == end == s.to_dict()["max_moves"]
    assert s.is_terminal() and s.is_stalemate() and s.is_truncated()  # a stalemate is also truncated (as always)
    assert end_reason(s) == STALEMATE
    assert s.returns() == [0.0, 0.0]
    assert events[-2:] == ["stalemate", "over"] and "truncated" not in events
    t = threes.State.from_dict(s.to_dict())  # the record of such an ending is accepted as it is
    assert t == s and t.is_stalemate() and t.move_number() == t.to_dict()["max_moves"]

    cut = stuck_position(limit, max_moves=end - 1)
    for a in actions[:-2]:
        assert not cut.is_terminal()
        cut.apply_action(a)
    assert [e.kind for e in cut.apply(actions[-2])][-2:] == ["truncated", "over"]
    assert cut.is_terminal() and cut.is_truncated() and not cut.is_stalemate()
    assert cut.move_number() == end - 1 and end_reason(cut) == MOVE_CAP
    assert cut.returns() == s.returns()


@pytest.mark.parametrize("policy", ["random", "greedy", ["random", "heuristic"]])
def test_7_D18_rollouts_report_a_stalemate_on_the_caps_last_move(policy):
    """The C batches' own move loops (the random playouts, two games in
    flight, and the policies' steps on the counts) end a game whose k-th
    occurrence falls on the cap's last move as a stalemate too."""
    seed, n = 5, 8
    free = threes.rollouts(stuck_position(3), n, policy=policy, seed=seed, threads=1)
    assert free.stalemate.all()
    for i in range(n):
        end = int(free.moves[i])
        at = threes.rollouts(stuck_position(3, max_moves=end), n, policy=policy, seed=seed, threads=1)
        assert (int(at.moves[i]), bool(at.stalemate[i]), bool(at.truncated[i])) == (end, True, True), (i, end)
        cut = threes.rollouts(stuck_position(3, max_moves=end - 1), n, policy=policy, seed=seed, threads=1)
        assert (int(cut.moves[i]), bool(cut.stalemate[i]), bool(cut.truncated[i])) == (end - 1, False, True), i


def test_7_D18_a_dealt_game_stalemated_on_the_caps_last_move():
    """The same in real games from the deal (swap phase included): greedy
    two-player threes games with repetition_limit 2, replayed with the cap
    on the stalemate's move, and on the move before it."""
    rules = Rules.preset("threes", repetition_limit=2)
    found = 0
    for seed in range(40):
        s = threes.Game(2, rules).new_initial_state(seed)
        bots = [PolicyBot("greedy", seed=seed + q) for q in range(2)]
        actions = []
        while not s.is_terminal():
            actions.append(bots[s.current_player()].step(s))
            s.apply_action(actions[-1])
        if not s.is_stalemate():
            continue
        found += 1
        end = len(actions)
        for cap, stalemate in ((end, True), (end - 1, False)):
            t = threes.Game(2, rules, cap).new_initial_state(seed)
            for a in actions[:cap]:
                t.apply_action(a)
            assert t.is_terminal() and t.is_truncated() and t.move_number() == cap
            assert t.is_stalemate() == stalemate, (seed, cap)
            assert t.returns() == s.returns()
        if found == 3:
            break
    assert found == 3


def test_3_repetition_limit_1_is_refused():
    """RULES.md section 3 and 7: repetition_limit is 0 (off) or 2 to 255; 1
    would end every game at its first position, and is refused everywhere a
    rule set comes in."""
    with pytest.raises(ValueError, match="repetition_limit"):
        Rules.preset("threes", repetition_limit=1)
    with pytest.raises(ValueError, match="repetition_limit"):
        Rules(**{**Rules.preset("classic").to_dict(), "repetition_limit": 1})
    d = stuck_position(2).to_dict()
    d["rules"]["repetition_limit"] = 1
    with pytest.raises(ValueError, match="repetition_limit"):
        threes.State.from_dict(d)
    for ok in (0, 2, 255):
        assert Rules.preset("threes", repetition_limit=ok).repetition_limit == ok
