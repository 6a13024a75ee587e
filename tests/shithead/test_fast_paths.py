"""The Python boundary's fast paths (issue 14) give exactly what the general
paths give, on thousands of calls: the same games, tensors, masks, strings
and states. Each fast path is compared with the slower way of computing the
same thing through the public API (or the Python formatter it replaced)."""
from __future__ import annotations

import random

import numpy as np
import pytest

import threes
from threes.shithead.observation import information_state_string as general_information_state_string


def _walk(seed: int, preset: str, n: int):
    """The states of one random game (with clones and from_dict copies mixed
    in, so that shared and rebuilt histories are both met)."""
    s = threes.Game(n, preset).new_initial_state(seed)
    r = random.Random(seed)
    out = [s]
    while not s.is_terminal() and len(out) < 400:
        c = s.child(r.choice(s.legal_actions()))
        x = r.random()
        s = c.clone() if x < 0.2 else threes.State.from_dict(c.to_dict()) if x < 0.25 else c
        out.append(s)
    return out


WALKS = [(seed, preset, 2 + seed % 4) for seed in range(12) for preset in ("threes", "classic", "dutch")]


@pytest.mark.parametrize("seed,preset,n", WALKS)
def test_information_state_string_equals_the_python_formatter(seed, preset, n):
    calls = 0
    for s in _walk(seed, preset, n):
        for p in range(n):
            assert s.information_state_string(p) == general_information_state_string(s, p)
            calls += 1
    assert calls >= n


def test_information_state_string_is_the_observation_and_the_history():
    s = _walk(3, "threes", 4)[-1]
    text = s.information_state_string(2)
    assert text == s.observation_string(2) + "\nhistory: " + " ".join(map(str, s.history()))
    fresh = threes.State.from_dict(s.to_dict())  # no history text kept yet: built from scratch
    assert fresh.information_state_string(2) == text
    assert fresh.information_state_string(2) == text  # and again from what it kept


def test_kept_history_text_follows_clones_and_branches():
    s = _walk(5, "threes", 3)[30]
    base = s.information_state_string(0)
    a, b = s.child(s.legal_actions()[0]), s.child(s.legal_actions()[-1])
    for t in (a, b, s):
        assert t.information_state_string(0) == general_information_state_string(t, 0)
    assert s.information_state_string(0) == base


@pytest.mark.parametrize("seed,preset,n", WALKS[:18])
def test_masks_and_tensors_equal_the_general_paths(seed, preset, n):
    s0 = _walk(seed, preset, n)[0]
    mask = np.ones(s0.num_distinct_actions(), dtype=bool)
    mask_u8 = np.full(s0.num_distinct_actions(), 7, dtype=np.uint8)
    tensor = np.full(s0.observation_tensor_shape()[0], -1.0, dtype=np.float32)
    for s in _walk(seed, preset, n):
        want = np.zeros(s.num_distinct_actions(), dtype=bool)
        want[s.legal_actions()] = True
        got = s.legal_actions_mask()
        assert got.dtype == np.bool_ and np.array_equal(got, want)
        assert s.legal_actions_mask(out=mask) is mask and np.array_equal(mask, want)
        assert s.legal_actions_mask(out=mask_u8) is mask_u8 and np.array_equal(mask_u8, want.astype(np.uint8))
        for p in range(n):
            t = s.observation_tensor(p)
            assert t.dtype == np.float32 and t.shape == tuple(s.observation_tensor_shape())
            assert s.observation_tensor(p, out=tensor) is tensor and np.array_equal(tensor, t)
            assert np.array_equal(t, s.observation_tensor(np.int64(p)))


def test_out_buffers_are_checked_and_left_alone_when_wrong():
    s = _walk(1, "threes", 4)[20]
    k, m = s.num_distinct_actions(), s.observation_tensor_shape()[0]
    for bad, exc in [(np.zeros(k, np.int32), TypeError), (np.zeros(k + 1, bool), ValueError),
                     (np.zeros((2, k), bool)[:, 0], TypeError), ([0] * k, TypeError)]:
        before = bad.copy() if isinstance(bad, np.ndarray) else list(bad)
        with pytest.raises(exc):
            s.legal_actions_mask(out=bad)
        assert np.array_equal(bad, before)
    ro = np.zeros(k, bool)
    ro.flags.writeable = False
    with pytest.raises(TypeError):
        s.legal_actions_mask(out=ro)
    rot = np.zeros(m, np.float32)
    rot.flags.writeable = False
    with pytest.raises(TypeError):
        s.observation_tensor(0, out=rot)
    # every accepted kind, plain arrays (the NumPy C API path), a 2-D array of
    # the right size and a subclass (the buffer protocol path) give the same
    for out in (np.zeros(k, bool), np.zeros(k, np.uint8), np.zeros(k, np.int8), np.zeros((1, k), np.uint8),
                np.zeros(k, np.uint8).view(np.matrix)):
        assert s.legal_actions_mask(out=out) is out
        assert np.array_equal(np.asarray(out).ravel().astype(bool), s.legal_actions_mask())
    for out in (np.zeros(m, np.float32), np.zeros((1, m), np.float32), np.zeros((1, m), np.float32).view(np.matrix)):
        assert s.observation_tensor(2, out=out) is out
        assert np.array_equal(np.asarray(out).ravel(), s.observation_tensor(2))
    for bad, exc in [(np.zeros(m, np.float64), TypeError), (np.zeros(m - 1, np.float32), ValueError),
                     (np.zeros(m, ">f4"), TypeError), (np.zeros((m, 2), np.float32)[:, 0], TypeError),
                     (np.zeros(m, np.int32), TypeError)]:
        before = bad.copy()
        with pytest.raises(exc):
            s.observation_tensor(0, out=bad)
        assert np.array_equal(bad, before)
    for p, exc in [(4, ValueError), (-1, ValueError), (2**70, ValueError), (True, TypeError), (1.0, TypeError),
                   ("0", TypeError), (None, TypeError)]:
        for call in (lambda: s.observation_tensor(p), lambda: s.resample_from_infostate(p, 1),
                     lambda: s.information_state_string(p)):
            with pytest.raises(exc):
                call()


@pytest.mark.parametrize("policy", ["random", "greedy", "heuristic", ("greedy", "random", "heuristic", "random")])
def test_rollout_is_game_0_of_a_batch_of_one(policy):
    """threes.rollout plays the game rollouts(state, 1, policy, seed) plays:
    the same returns and finishing order, from every kind of position."""
    checked = 0
    for seed in range(8):
        for s in _walk(seed, "threes", 4)[::23]:
            for game_seed in (0, seed, 2**64 - 1 - seed, -seed - 1):
                returns, order = threes.rollout(s, policy, game_seed, order=True)
                r = threes.rollouts(s, 1, policy, game_seed)
                assert returns == pytest.approx(list(r.returns[0]), abs=0) and returns == threes.rollout(
                    s, policy, game_seed)
                places = r.places[0]
                assert order == sorted((q for q in range(4) if places[q] >= 0), key=lambda q: places[q])
                assert order[:len(s.finish_order())] == s.finish_order()
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("policy", ["random", "heuristic", ("greedy", "random", "heuristic", "random")])
def test_rollouts_of_one_game_equal_the_batch_path(policy):
    """rollouts(state, 1) plays its game alone on the calling thread; the
    same game is game 0 of a batch of several played through the C batch
    (threads, chunks): every field equal, with and without an observer."""
    checked = 0
    for seed in range(6):
        for s in _walk(seed, "threes", 4)[::41]:
            for observer in (None, 2):
                one = threes.rollouts(s, 1, policy, seed + 11, observer=observer)
                many = threes.rollouts(s, 3, policy, seed + 11, threads=2, observer=observer)
                chunked = threes.rollouts(s, 3, policy, seed + 11, threads=1, observer=observer,
                                          progress=lambda k: None, chunk=2)
                for field in ("places", "moves", "truncated", "stalemate"):
                    assert np.array_equal(getattr(one, field)[0], getattr(many, field)[0])
                    assert np.array_equal(getattr(chunked, field), getattr(many, field))
                assert one.places.shape == (1, 4) and one.moves.dtype == np.uint32
                assert one.policies == many.policies and one.seed == seed + 11 and one.seconds >= 0
                checked += 1
    assert checked > 40


def test_rollouts_checks_its_arguments_before_playing():
    s = _walk(3, "threes", 4)[60]
    before = s.to_dict()
    for args, kwargs, exc in [((-1,), {}, ValueError), ((1.5,), {}, TypeError), ((True,), {}, TypeError),
                              ((1, "bogus"), {}, ValueError), ((1, ["random"] * 3), {}, ValueError),
                              ((1, "random", 1.5), {}, TypeError), ((1,), {"threads": 0}, ValueError),
                              ((1,), {"threads": 1.0}, TypeError), ((1,), {"observer": 4}, ValueError),
                              ((1,), {"observer": "1"}, TypeError), ((1,), {"chunk": 0}, ValueError),
                              ((1,), {"chunk": 2.0}, TypeError)]:
        with pytest.raises(exc):
            threes.rollouts(s, *args, **kwargs)
    assert s.to_dict() == before
    with pytest.raises(ValueError, match="observer needs a State"):
        threes.rollouts(threes.Game(4), 1, observer=0)
    with pytest.raises(TypeError, match="rollouts takes"):
        threes.rollouts("a state", 1)
    with pytest.raises(ValueError):
        threes.rollouts(threes.State.__new__(threes.State), 1)
    assert threes.rollouts(s, np.int64(2), "random", 5).places.shape == (2, 4)
    assert threes.rollouts(s, 0, "random", 5).places.shape == (0, 4)


def test_rollouts_of_a_three_thirteen_state_go_to_its_package():
    from threes import three_thirteen as tt

    t = tt.Game(3).new_initial_state(4)
    mine, theirs = threes.rollouts(t, 2, "greedy", 9), tt.rollouts(t, 2, "greedy", 9)
    assert type(mine) is type(theirs) and np.array_equal(mine.totals, theirs.totals)


def test_rollout_leaves_the_state_and_checks_its_arguments():
    s = _walk(2, "dutch", 3)[40]
    before = s.to_dict()
    threes.rollout(s, "greedy", 1)
    assert s.to_dict() == before
    for policy, exc in [("bogus", ValueError), (["random"] * 2, ValueError), (5, TypeError), ([1, 2, 3], ValueError)]:
        with pytest.raises(exc):
            threes.rollout(s, policy, 1)
    for seed, exc in [(1.5, TypeError), ("1", TypeError), (True, TypeError)]:
        with pytest.raises(exc):
            threes.rollout(s, "random", seed)
    with pytest.raises(TypeError):
        threes.rollout(threes.Game(3), "random", 1)
    with pytest.raises(ValueError):
        threes.rollout(threes.State.__new__(threes.State), "random", 1)
    assert threes.rollout(s, " Greedy ", 4) == threes.rollout(s, "greedy", 4)  # names as rollouts reads them
    assert s.to_dict() == before


def test_child_and_resample_equal_clone_then_act():
    for s in _walk(4, "threes", 4)[:200]:
        if s.is_terminal():
            break
        for a in s.legal_actions()[:3]:
            c = s.clone()
            c.apply_action(a)
            d = s.child(a)
            assert d == c and d.history() == c.history() and type(d) is type(s)
        before = s.to_dict()
        with pytest.raises(threes.IllegalActionError):
            s.child(s.num_distinct_actions() + 5)
        r1, r2 = s.resample_from_infostate(1, 77), s.resample_from_infostate(np.int64(1), 77)
        assert r1 == r2 and r1.information_state_string(1) == s.information_state_string(1)
        assert s.to_dict() == before


def test_rollouts_result_fields_are_the_documented_arrays():
    g = threes.Game(4, "threes")
    r = threes.rollouts(g, 300, "random", 3, threads=2)
    assert r.places.dtype == np.int8 and r.places.shape == (300, 4)
    assert r.moves.dtype == np.uint32 and r.truncated.dtype == np.bool_ and r.stalemate.dtype == np.bool_
    assert r.policies == ("random",) * 4 and r.seed == 3 and r.threads == 2
    chunked = threes.rollouts(g, 300, "random", 3, threads=1, progress=lambda k: None, chunk=70)
    for field in ("places", "moves", "truncated", "stalemate"):
        assert np.array_equal(getattr(chunked, field), getattr(r, field))


@pytest.mark.parametrize("game", ["shithead", "three_thirteen"])
def test_clone_copies_everything_and_a_user_subclass_takes_the_general_path(game):
    """clone() copies the state's bytes into a new object (threes._engine
    copy_state) when the type is threes' own State; a user's subclass that
    adds a __dict__ (or __weakref__) is copied the general way. Either way the
    copy is equal, independent, keeps the history, and is of the same type."""
    from threes import three_thirteen as tt

    mod = threes if game == "shithead" else tt
    s = mod.Game(3).new_initial_state(4)
    r = random.Random(1)
    for _ in range(25):
        s.apply_action(r.choice(s.legal_actions()))

    class Mine(mod.State):  # a __dict__ and a __weakref__: not the plain layout
        pass

    mine = Mine.from_dict(s.to_dict())
    mine.note = "kept"
    for src in (s, mine):
        c = src.clone()
        assert type(c) is type(src)
        assert c.to_dict() == src.to_dict() and c.history() == src.history()
        assert c.information_state_string(1) == src.information_state_string(1)
        a = c.legal_actions()[0]
        c.apply_action(a)
        assert c.history() == src.history() + [a] and src.to_dict() != c.to_dict()
        assert src.legal_actions()[0] == a  # the source did not move
    assert not hasattr(mine.clone(), "note")  # the general path copies the engine state only, as before
    import gc
    import weakref

    refs = [weakref.ref(mine.clone()), weakref.ref(Mine.from_dict(s.to_dict()))]
    gc.collect()
    assert all(w() is None for w in refs)  # freed


@pytest.mark.parametrize("seed,preset,n", WALKS[::3])
def test_observation_list_is_the_tensor_as_a_list(seed, preset, n):
    """_observation_list (the OpenSpiel adapter's observation_tensor, a list
    of floats with the small values' floats shared) equals
    observation_tensor(p).tolist() float for float, and is a fresh list."""
    for s in _walk(seed, preset, n)[::7]:
        for p in range(n):
            a, b = s._observation_list(p), s.observation_tensor(p).tolist()
            assert a == b and all(type(x) is float for x in a)
            a[0] = -1.0
            assert s._observation_list(p) == b  # the caller's list is its own
    with pytest.raises(ValueError):
        s._observation_list(n)
