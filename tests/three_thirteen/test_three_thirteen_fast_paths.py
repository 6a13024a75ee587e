"""Three Thirteen's fast paths at the Python boundary (issue 14) against the
general paths: the information-state string against the Python observation
text plus the history, masks and tensors with and without ``out=``,
``child`` against clone-then-apply, and the copy-on-write history of
clones, on thousands of calls."""
from __future__ import annotations

import random

import numpy as np
import pytest

from threes import three_thirteen as tt


def _walk(seed: int, n: int, limit: int = 1500):
    s = tt.Game(n).new_initial_state(seed)
    r = random.Random(seed)
    out = [s]
    while not s.is_terminal() and len(out) < limit:
        c = s.child(r.choice(s.legal_actions()))
        x = r.random()
        s = c.clone() if x < 0.2 else tt.State.from_dict(c.to_dict()) if x < 0.22 else c
        out.append(s)
    return out


@pytest.mark.parametrize("seed,n", [(seed, 2 + seed % 5) for seed in range(8)])
def test_information_state_string_is_the_observation_and_the_history(seed, n):
    for s in _walk(seed, n)[::3]:
        for p in range(n):
            want = s.observation_string(p) + "\nhistory: " + " ".join(map(str, s.history()))
            assert s.information_state_string(p) == want


@pytest.mark.parametrize("seed,n", [(seed, 2 + seed % 4) for seed in range(4)])
def test_masks_tensors_child_and_resample_equal_the_general_paths(seed, n):
    states = _walk(seed, n, 600)
    mask = np.ones(states[0].legal_actions_mask().size, bool)
    tensor = np.full(states[0].observation_tensor_shape()[0], -1.0, np.float32)
    for s in states:
        want = np.zeros(mask.size, bool)
        want[s.legal_actions()] = True
        assert np.array_equal(s.legal_actions_mask(), want)
        assert s.legal_actions_mask(out=mask) is mask and np.array_equal(mask, want)
        for p in range(n):
            t = s.observation_tensor(p)
            assert t.dtype == np.float32
            assert s.observation_tensor(p, out=tensor) is tensor and np.array_equal(tensor, t)
        if not s.is_terminal():
            a = s.legal_actions()[-1]
            c = s.clone()
            c.apply_action(a)
            assert s.child(a) == c and s.child(a).history() == c.history()
            r1, r2 = s.resample_from_infostate(0, 9), s.resample_from_infostate(np.int64(0), 9)
            assert r1 == r2 and r1.information_state_string(0) == s.information_state_string(0)


def test_clones_share_history_copy_on_write():
    s = _walk(3, 3, 40)[-1]
    base = s.history()
    first, last = s.legal_actions()[0], s.legal_actions()[-1]
    a, b = s.clone(), s.clone()
    a.apply_action(first)
    b.apply_action(last)
    assert s.history() == base
    assert a.history() == base + [first] and b.history() == base + [last]
    c = a.clone()
    s.apply_action(last)  # the source moves on too: nobody's history changes but its own
    assert a.history() == c.history() == base + [first] and s.history() == b.history()


def test_wrong_arguments_raise_and_change_nothing():
    s = _walk(1, 3, 30)[-1]
    before = s.to_dict()
    for bad, exc in [(np.zeros(3, bool), ValueError), (np.zeros(s.legal_actions_mask().size, np.int16), TypeError)]:
        with pytest.raises(exc):
            s.legal_actions_mask(out=bad)
    with pytest.raises(TypeError):
        s.observation_tensor(0, out=np.zeros(s.observation_tensor_shape()[0], np.float64))
    for p, exc in [(3, ValueError), (-1, ValueError), (True, TypeError), (0.5, TypeError), (2**70, ValueError)]:
        for call in (lambda: s.information_state_string(p), lambda: s.resample_from_infostate(p, 1),
                     lambda: s.observation_tensor(p)):
            with pytest.raises(exc):
                call()
    for a, exc in [(True, TypeError), (1.0, TypeError), (10**6, Exception)]:
        with pytest.raises(exc):
            s.child(a)
    assert s.to_dict() == before


GO_OUT_GAMES = [dict(), dict(ace="either"), dict(all_wild_melds=False), dict(jokers=2, wild_penalty=20),
                dict(decks=2, ace="either", all_wild_melds=False), dict(rediscard_taken=True, go_out_first_turn=False)]


@pytest.mark.parametrize("options", GO_OUT_GAMES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_go_out_actions_are_the_discards_that_leave_no_deadwood(options):
    """docs/three_thirteen/RULES.md, "Going out and scoring": a player may go
    out with the discard of kind k exactly when the hand without it has
    deadwood 0 (and k may be discarded at all: T-2). The go-out actions of legal_actions() (found in C by one search that
    only asks whether deadwood 0 can be reached, meld.h) are exactly the
    legal discards after which the plain solver (tt.min_deadwood) finds
    deadwood 0. Greedy play (the discard that leaves the least deadwood)
    reaches many positions where going out is possible."""
    from threes.three_thirteen.game import card_to_kind

    r = random.Random(7)
    checked = with_go_out = 0
    for seed in range(4):
        game = tt.Game(3 if seed % 2 else 2, **options)
        s = game.new_initial_state(seed)
        ace = options.get("ace", "low")
        awm = options.get("all_wild_melds", True)
        pen = options.get("wild_penalty", "face")
        for _ in range(600):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            if s.phase != "discard":
                s.apply_action(r.choice(legal))
                continue
            hand = s.hand(s.current_player())
            wild = s._round() + 2
            best = {}
            for i, c in enumerate(hand):
                k = card_to_kind(c)
                if 2 + k in legal and k not in best:
                    best[k] = tt.min_deadwood(hand[:i] + hand[i + 1:], wild, ace, awm, pen)[0]
            expect = sorted(56 + k for k, d in best.items() if d == 0)
            if not options.get("go_out_first_turn", True) and not s.to_dict()["turns"][s.current_player()] > 1:
                expect = []
            assert [a for a in legal if a >= 56] == expect
            checked += 1
            with_go_out += bool(expect)
            s.apply_action(expect[0] if expect else 2 + min(best, key=lambda k: (best[k], k)))
    assert checked > 100 and with_go_out >= 5, (checked, with_go_out)
