"""pyspiel's clone of the adapters' states (``PyState::Clone``: a new initial
state, then ``copy.deepcopy`` of each attribute): each state keeps one
attribute, and a clone is independent of its source in the deal (whose counts
start shared and read-only) and in play, for both games."""
import copy
import random

import pytest

import pyspiel  # in the test extra: a missing adapter dependency fails, it does not skip
import threes.openspiel  # noqa: F401  (registers the games)


def _walk(state, rng, steps):
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", ["threes", "three_thirteen"])
@pytest.mark.parametrize("steps", [0, 1, 5, 150, 400])
def test_clone_is_independent(name, steps):
    game = pyspiel.load_game(name)
    rng = random.Random(steps)
    s = _walk(game.new_initial_state(), rng, steps)
    assert list(vars(s)) == ["_p"]  # one attribute: one deepcopy call per clone
    for c in (s.clone(), copy.deepcopy(s)):
        assert type(c) is type(s) and list(vars(c)) == ["_p"]
        assert c.history() == s.history() and str(c) == str(s)
        assert c.is_chance_node() == s.is_chance_node()
        if s.is_chance_node():
            assert c.chance_outcomes() == s.chance_outcomes()
        before = (s.history(), str(s), s.chance_outcomes() if s.is_chance_node() else None)
        _walk(c, random.Random(99), 30)  # moving the clone leaves the source as it was
        assert (s.history(), str(s), s.chance_outcomes() if s.is_chance_node() else None) == before
    fresh = game.new_initial_state()  # and no initial state shares what a dealt one changed
    assert fresh.chance_outcomes() == game.new_initial_state().chance_outcomes()
    assert sum(p for _, p in fresh.chance_outcomes()) == pytest.approx(1.0)
    assert len(fresh.history()) == 0


def test_a_fresh_deal_counts_every_card():
    game = pyspiel.load_game("threes")
    s = game.new_initial_state()
    first = s.chance_outcomes()
    a = first[0][0]
    t = s.clone()
    t.apply_action(a)
    assert s.chance_outcomes() == first  # the shared counts were copied, not changed
    assert game.new_initial_state().chance_outcomes() == first
    assert dict(t.chance_outcomes()).get(a, 0) < dict(first)[a]
