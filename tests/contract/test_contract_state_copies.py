"""Copies of a state: clone, to_dict/from_dict (also through JSON) and pickle
give equal states with equal futures, and a clone is independent of its
original. The same seed gives the same game."""
import copy
import json
import pickle
import random

import pytest


def _same_future(ct, a, b, seed, steps=200, full_every=50):
    """Plays the same random moves on a and b; they stay equal throughout
    (Three Thirteen: across new deals too, which come from the state's rng).
    Whose turn and the legal actions are compared at every move, the whole
    state every `full_every` moves and at the end. Returns the last state."""
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    for i in range(steps + 1):
        if i % full_every == 0 or a.is_terminal() or i == steps:
            assert a == b
            assert a.to_dict() == b.to_dict()
            assert a.returns() == b.returns()
        assert a.legal_actions() == b.legal_actions()
        assert a.current_player() == b.current_player()
        if a.is_terminal() or i == steps:
            assert b.is_terminal() == a.is_terminal()
            assert (b.is_truncated(), b.is_stalemate()) == (a.is_truncated(), a.is_stalemate())
            return a
        x, y = rng_a.choice(a.legal_actions()), rng_b.choice(b.legal_actions())
        assert x == y
        a.apply_action(x)
        b.apply_action(y)
    return a


def _copies(state):
    d = state.to_dict()
    return {
        "clone": state.clone(),
        "from_dict": type(state).from_dict(d),
        "from_dict(json)": type(state).from_dict(json.loads(json.dumps(d))),
        "pickle": pickle.loads(pickle.dumps(state)),
        "pickle protocol 2": pickle.loads(pickle.dumps(state, protocol=2)),
        "deepcopy": copy.deepcopy(state),
    }


def test_copies_are_equal_and_have_equal_futures(ct, pkg, num_players, seed):
    for state in ct.sample_states(pkg, num_players, seed, steps=300, every=100):
        d = state.to_dict()
        for how, c in _copies(state).items():
            assert type(c) is type(state), how
            assert c == state, how
            assert c.to_dict() == d, how
            assert c.history() == state.history(), how
            c._check()
            _same_future(ct, c, state.clone(), seed * 1000 + len(d["history"]))
        assert state.to_dict() == d  # copying changed nothing


def test_a_copy_has_the_later_deals(ct, pkg, seed):
    # A state many moves into a game, then a long future: for Three Thirteen
    # (whose dict has a "round") the future must cross into a new round, so
    # the copy carries the chance stream of the later deals.
    state = ct.play_out(pkg.Game(3).new_initial_state(seed), random.Random(seed), 1000)
    copies = _copies(state)
    for how in ("clone", "from_dict(json)", "pickle"):
        end = _same_future(ct, copies[how], state.clone(), seed, steps=2000, full_every=250)
        if "round" in state.to_dict():
            assert end.is_terminal() or end.to_dict()["round"] > state.to_dict()["round"], how


def test_clone_is_independent(ct, pkg, num_players, seed):
    for state in ct.sample_states(pkg, num_players, seed, steps=300, every=50):
        if state.is_terminal():
            continue
        d = state.to_dict()
        c = state.clone()
        assert c is not state and c == state
        a = state.legal_actions()[-1]
        c.apply_action(a)
        assert c != state
        assert c.to_dict() != d
        assert state.to_dict() == d, "applying an action to a clone changed the original"
        assert state.history() == d["history"]
        # and the other way round
        c2 = state.clone()
        state.apply_action(a)
        assert c2.to_dict() == d, "applying an action to the original changed its clone"
        assert state == c
        # history() hands out a copy
        h = c2.history()
        h.append(0)
        assert c2.history() == d["history"]


def test_same_seed_same_game(pkg, num_players, seed):
    """Two games made apart from the same seed, played with the same random
    choices, have the same deal, the same legal actions and the same whole
    history (capped at 2000 moves)."""
    games = [pkg.Game(num_players, max_moves=2000), pkg.Game(num_players, max_moves=2000)]
    a, b = (g.new_initial_state(seed) for g in games)
    assert a.to_dict() == b.to_dict()
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    trail_a, trail_b = [], []
    for s, rng, trail in ((a, rng_a, trail_a), (b, rng_b, trail_b)):
        while not s.is_terminal():
            trail.append(tuple(s.legal_actions()))
            s.apply_action(rng.choice(s.legal_actions()))
    assert trail_a == trail_b
    assert a.history() == b.history() and len(a.history()) == len(trail_a)
    assert a.to_dict() == b.to_dict()
    assert a.returns() == b.returns()


def test_different_seeds_deal_differently(pkg, num_players):
    game = pkg.Game(num_players)
    deals = [game.new_initial_state(s).to_dict() for s in range(4)]
    assert all(deals[i] != deals[j] for i in range(4) for j in range(i))
    # any int is a seed: one modulo 2**64 is the same seed
    assert game.new_initial_state(-1).to_dict() == game.new_initial_state(2**64 - 1).to_dict()


def test_freed_states_are_reused_safely(pkg, seed):
    """A game's State frees into a list that clone() and child() reuse
    (threes._engine, copy_state): many copies made and dropped in random order,
    more than the list holds, stay equal to what they copied, tracked by the
    garbage collector, of the right type (a user's subclass with
    ``__slots__ = ()`` shares the list), and the type's reference count is
    back where it started."""
    import gc
    import sys

    class Slotted(pkg.State):
        __slots__ = ()

    assert pkg.State.__slots__ == ()
    core = sys.modules[pkg.State.__module__.rsplit(".", 1)[0] + "._core"]
    assert core._reuse_freed(pkg.State) is False  # registered once, at import; a second call changes nothing
    r = random.Random(seed)
    states = [pkg.Game(3).new_initial_state(seed=seed + k) for k in range(3)]
    states.append(Slotted.from_dict(states[0].to_dict()))
    gc.collect()  # earlier tests' classes and states, which refer to the type
    refs = [sys.getrefcount(pkg.State), sys.getrefcount(Slotted)]
    live = []
    for step in range(3000):
        src = r.choice(states)
        if live and r.random() < (0.6 if step % 1000 < 300 else 0.4):  # shrink, then grow past the list
            live.pop(r.randrange(len(live)))
        elif not src.is_terminal() and r.random() < 0.3:
            a = r.choice(src.legal_actions())
            live.append((src.child(a), src, a))
        else:
            live.append((src.clone(), src, None))
        if step % 250 == 0:
            gc.collect()
    assert len(live) > 100
    for copy_, src, a in live:
        assert type(copy_) is type(src) and gc.is_tracked(copy_)
        expected = src.clone()
        if a is not None:
            expected.apply_action(a)
        assert copy_ == expected and copy_.to_dict() == expected.to_dict()
        copy_._check()
    live.clear()
    del copy_, src, expected
    gc.collect()
    assert [sys.getrefcount(pkg.State), sys.getrefcount(Slotted)] == refs


def test_the_history_is_never_traversed_by_the_garbage_collector(pkg, seed):
    """The history chain's pairs are untracked at birth (threes._engine,
    hist_push): playing a long game adds no object for the collector to
    traverse, and the history stays whole through clones and from_dict
    (whose history must hold ints only)."""
    import gc

    s = pkg.Game(3).new_initial_state(seed=seed)
    r = random.Random(seed)
    was = gc.isenabled()
    gc.disable()
    try:
        before = len(gc.get_objects())
        played = []
        while not s.is_terminal() and len(played) < 2000:
            a = r.choice(s.legal_actions())
            s.apply_action(a)
            played.append(a)
        grown = len(gc.get_objects()) - before
    finally:
        if was:
            gc.enable()
    assert len(played) > 300 and grown < 50  # `played` itself is one object: its ints are not tracked
    assert s.history() == played and s.clone().history() == played
    d = s.to_dict()
    assert type(s).from_dict(d).history() == played
    with pytest.raises(TypeError):
        type(s).from_dict(dict(d, history=played[:-1] + [float(played[-1])]))


def test_copies_across_table_sizes_carry_only_the_bytes_in_use(ct, pkg, seed):
    """A copy carries the bytes of the C state in use (``State.nbytes``,
    th_game.state_bytes), which a game may size by its table: the rest of a
    reused object still holds what a bigger table's state left there. Copies
    made into objects freed by states of more seats (so their unused bytes
    are another game's) stay equal to what they copied, with equal futures;
    nbytes is the same for a copy, never more than the object holds, and
    does not shrink as seats are added."""
    import sys

    big, small = max(ct.PLAYERS), min(ct.PLAYERS)
    r = random.Random(seed)
    sizes = {}
    for n in ct.PLAYERS:
        s = pkg.Game(n).new_initial_state(seed)
        sizes[n] = s.nbytes
        assert isinstance(s.nbytes, int) and 0 < s.nbytes < sys.getsizeof(s)
        assert s.clone().nbytes == s.nbytes
    assert [sizes[n] for n in sorted(sizes)] == sorted(sizes.values())
    for rounds in range(20):
        bigs = [ct.play_out(pkg.Game(big).new_initial_state(seed + 100 + rounds * 8 + k), r, 60)
                for k in range(8)]
        bigs = [b.clone() for b in bigs for _ in range(4)]  # objects full of a bigger table's bytes
        small_state = ct.play_out(pkg.Game(small).new_initial_state(seed + rounds), r, r.randrange(200))
        del bigs  # freed into the list the copies below reuse
        copies = [small_state.clone()]
        if not small_state.is_terminal():
            a = r.choice(small_state.legal_actions())
            child = small_state.child(a)
            expected = small_state.clone()
            expected.apply_action(a)
            assert child == expected and child.to_dict() == expected.to_dict()
        for c in copies:
            assert c == small_state and c.nbytes == small_state.nbytes
            assert c.to_dict() == small_state.to_dict()
            c._check()
            _same_future(ct, c, small_state.clone(), seed * 7 + rounds, steps=120, full_every=40)
