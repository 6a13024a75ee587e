"""Stalemate by repetition is exact (RULES.md section 7: the k-th occurrence
of a position in the play phase), however far apart the occurrences are.

The state remembers the last SH_REP_WINDOW (64) positions of a stretch in its
fixed ring; the keys that leave the ring go into a log (rep_log.h) that every
Python State owns and every C batch keeps per game. These tests play games
whose stretches are longer than the ring and check, against a reference that
counts every full position key of the stretch, that:

- games end on exactly the move the reference gives, on the full state
  (apply_action) and in C batches and threes.rollout, also where the ring
  alone would have missed the repetition (such games are found and counted);
- a state in a long stretch keeps its log through clone, child, to_dict /
  from_dict and pickle, and rollouts from it go on counting it;
- a resampled state remembers nothing; from_dict refuses a record that
  would already have ended the game.
"""
from __future__ import annotations

import pickle
import random

import pytest

import threes
from threes.shithead import _core
from threes.shithead.rules import Rules
from test_repetition_key import _stretch as _dict_stretch, _twin_without_rule

WINDOW = 64  # SH_REP_WINDOW
PLAY = 1


class Ref:
    """Counts full position keys of the current stretch; window=None counts
    all of them (the rule), window=64 only the newest 64 (the ring alone)."""

    def __init__(self, limit, window=None, keys=None, stretch=None):
        self.limit, self.window, self.keys, self.stretch = limit, window, list(keys or []), stretch

    def note(self, key, phase, stretch) -> bool:
        if phase != PLAY:
            return False
        if stretch != self.stretch or not self.keys:
            self.stretch, self.keys = stretch, []
        seen = 1 + (self.keys if self.window is None else self.keys[-self.window:]).count(key)
        self.keys.append(key)
        return seen >= self.limit


def _stretch(s: threes.State):
    return _dict_stretch(s.to_dict())


def _game(limit=3, players=4, max_moves=4000):
    return threes.Game(players, Rules.preset("threes", repetition_limit=limit), max_moves=max_moves)


def _end(trace, ref):
    for i, (key, phase, *stretch) in enumerate(trace, 1):
        if ref.note(key, phase, tuple(stretch)):
            return i, True
    return len(trace), False


def test_full_state_games_end_exactly_also_beyond_the_ring():
    """Random games through apply_action end as the exact count says; some of
    them end on a repetition the ring alone would not have seen."""
    game = _game()
    beyond = stalemates = 0
    for seed in range(40):
        rng = random.Random(seed)
        s = game.new_initial_state(seed)
        twin = _twin_without_rule(s)
        exact, ring = Ref(3), Ref(3, WINDOW)
        while not s.is_terminal():
            a = rng.choice(s.legal_actions())
            s.apply_action(a)
            twin.apply_action(a)
            key, phase, st = twin.position_key(), twin._phase_id(), _stretch(twin)
            ended, ring_ended = exact.note(key, phase, st), ring.note(key, phase, st)
            assert s.is_terminal() == (ended or twin.is_terminal()), (seed, s.move_number())
            assert s.is_stalemate() == ended
            if ended:
                stalemates += 1
                beyond += not ring_ended
                break
    assert stalemates >= 5
    assert beyond >= 1  # the log decided at least one game


def test_batches_and_rollout_end_exactly_also_beyond_the_ring():
    """C batches (random seats: two games in flight; other policies: one)
    and threes.rollout end every game where the exact count says."""
    game = _game()
    seed, n = 7, 60
    beyond = 0
    for pols in (["random"] * 4, ["random", "greedy", "heuristic", "random"]):
        ids = [threes.POLICIES.index(p) for p in pols]
        for threads in (1, 2):
            r = threes.rollouts(game, n, policy=pols, seed=seed, threads=threads)
            for i in range(n):
                start = game.new_initial_state(_core.batch_seed(seed, i))
                trace = start._trace(ids, seed, i)
                moves, stalemate = _end(trace, Ref(3))
                assert (int(r.moves[i]), bool(r.stalemate[i])) == (moves, stalemate), (pols, threads, i)
                if threads == 1:
                    beyond += _end(trace, Ref(3, WINDOW)) != (moves, stalemate)
    assert beyond >= 1


def _state_in_a_long_stretch(game, min_keys=WINDOW + 10):
    """A play position whose stretch remembers more keys than the ring holds."""
    for seed in range(200):
        rng = random.Random(seed)
        s = game.new_initial_state(seed)
        twin = _twin_without_rule(s)
        ref = Ref(game.rules.repetition_limit)
        while not s.is_terminal():
            a = rng.choice(s.legal_actions())
            s.apply_action(a)
            twin.apply_action(a)
            ref.note(twin.position_key(), twin._phase_id(), _stretch(twin))
            if not s.is_terminal() and len(s._repetitions()) >= min_keys:
                return s, ref
    raise AssertionError("no long stretch found")


def test_a_long_stretch_survives_clone_child_dicts_and_pickles():
    game = _game(limit=4)
    s, ref = _state_in_a_long_stretch(game)
    keys = s._repetitions()
    assert len(keys) == len(ref.keys) > WINDOW
    assert keys[-1] == s._repetition_key()
    for copy in (s.clone(), threes.State.from_dict(s.to_dict()), pickle.loads(pickle.dumps(s))):
        assert copy == s and copy._repetitions() == keys
        assert copy.to_dict() == s.to_dict()
    # copies are independent: the same moves give the same ends, and moving
    # one leaves the other's memory alone
    c = s.clone()
    rng = random.Random(1)
    while not c.is_terminal():
        c.apply_action(rng.choice(c.legal_actions()))
    assert s._repetitions() == keys
    # clones share the log until one of them changes it (copy on write): the
    # source moving on leaves an earlier clone's memory alone too
    kept, moving = s.clone(), s.clone()
    rng = random.Random(2)
    for _ in range(30):
        if moving.is_terminal():
            break
        moving.apply_action(rng.choice(moving.legal_actions()))
    assert kept._repetitions() == keys == s._repetitions()
    a = s.legal_actions()[0]
    assert s.child(a)._repetitions()[:len(keys)] in (keys, [])  # a new stretch forgets, else it goes on
    assert s._repetitions() == keys


def test_rollouts_from_a_long_stretch_count_what_the_state_remembers():
    """From a state whose log is not empty, batches and threes.rollout count
    the remembered keys too: each game ends where the exact count, started
    with the state's keys, says."""
    game = _game(limit=4)
    s, ref = _state_in_a_long_stretch(game)
    ids = [0, 1, 2, 0]
    seed, n = 3, 30
    r = threes.rollouts(s, n, policy=["random", "greedy", "heuristic", "random"], seed=seed)
    one = threes.rollouts(s, n, policy="random", seed=seed)
    for i in range(n):
        moves, stalemate = _end(s._trace(ids, seed, i), Ref(4, keys=ref.keys, stretch=ref.stretch))
        assert (int(r.moves[i]), bool(r.stalemate[i])) == (moves, stalemate), i
        moves, stalemate = _end(s._trace([0] * 4, seed, i), Ref(4, keys=ref.keys, stretch=ref.stretch))
        assert (int(one.moves[i]), bool(one.stalemate[i])) == (moves, stalemate), i
    # threes.rollout plays game 0 of the batch, with the state's keys too
    assert threes.rollout(s, "random", seed) == list(one.returns[0])


def test_a_resampled_state_remembers_nothing():
    game = _game(limit=4)
    s, _ = _state_in_a_long_stretch(game)
    t = s.resample_from_infostate(s.current_player(), seed=2)
    assert t._repetitions() == [] and "repetitions" in t.to_dict() and t.to_dict()["repetitions"] == []
    assert s._repetitions()


def test_from_dict_refuses_a_record_that_already_ended_the_game():
    game = _game(limit=4)
    s, _ = _state_in_a_long_stretch(game)
    d = s.to_dict()
    key = d["repetitions"][-1]
    have = d["repetitions"].count(key)
    bad = {**d, "repetitions": [key] * (4 - have) + d["repetitions"]}
    with pytest.raises(ValueError, match="stalemate"):
        threes.State.from_dict(bad)
    fine = {**d, "repetitions": [key] * (3 - have) + d["repetitions"]}
    t = threes.State.from_dict(fine)
    assert t._repetitions() == fine["repetitions"]
    # its next occurrence is the 4th: a move back to this position would end the game
    assert not t.is_terminal()


def test_rollouts_keep_the_start_log_while_the_state_moves_on():
    """A batch from a state in a long stretch reads that state's log with the
    GIL released; moves made on the state meanwhile (another thread) copy the
    log first (copy on write), so the batch equals one from a copy taken
    before."""
    import threading

    game = _game(limit=4)
    s, _ = _state_in_a_long_stretch(game)
    before = s.clone()
    expected = threes.rollouts(before, 3000, policy="random", seed=9, threads=1)
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("r", threes.rollouts(s, 3000, policy="random", seed=9,
                                                                             threads=1)))
    t.start()
    rng = random.Random(4)
    while t.is_alive() and not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    t.join()
    assert (out["r"].moves == expected.moves).all() and (out["r"].stalemate == expected.stalemate).all()


def test_the_ring_alone_would_end_some_games_differently():
    """The README's figure (formerly tools/repetition_window.py): of 300 random 4-player threes games
    with repetition_limit=3, how many end as exact stalemates and how many of them the newest 64
    positions alone (the ring, before rep_log.h) would end differently; the engine's batch agrees
    with the exact count in every game. Run with -s to see the figures."""
    g = _game()
    n, seed = 300, 1
    r = threes.rollouts(g, n, "random", seed, threads=1)
    differ = stalemates = 0
    for i in range(n):
        trace = g.new_initial_state(_core.batch_seed(seed, i))._trace([0] * 4, seed, i)
        exact, ring = _end(trace, Ref(3)), _end(trace, Ref(3, WINDOW))
        assert (int(r.moves[i]), bool(r.stalemate[i])) == exact, i
        differ += exact != ring
        stalemates += exact[1]
    print(f"\n{n} games: {stalemates} end as exact stalemates; the ring alone would end {differ} of them "
          f"differently; the engine agrees with the exact count in all {n}")
    assert differ > 0 and stalemates > 0  # the log matters, and the rule is exercised
