"""Bounds (issue 4): no call runs unbounded. Every game ends at its move cap
at the latest, a position that can never finish is reported truncated, and
the cap itself is bounded."""
import numpy as np
import pytest

import threes


def _stuck_position(max_moves=300, move_count=0):
    """RULES.md section 7: two players, hands 5c and 6c, face-up 3c and 3d, a
    King on the pile, no draw pile: with pickup_then_play nobody can go out."""
    rules = threes.Rules.preset("threes", decks=1, jokers=0)
    used = {"5c", "6c", "3c", "3d", "Kh"}
    rest = [r + s for r in "23456789TJQKA" for s in "cdhs" if r + s not in used]
    return threes.State.from_dict({
        "rules": rules.to_dict(), "num_players": 2, "phase": "play", "current_player": 0,
        "move_count": move_count, "max_moves": max_moves,
        "hands": [["5c"], ["6c"]], "face_up": [["3c"], ["3d"]], "face_down": [[None] * 3, [None] * 3],
        "pile": ["Kh"], "draw_pile": [], "burned": rest,
    })


def test_a_game_that_cannot_end_is_truncated_at_the_cap():
    s = _stuck_position(max_moves=300)
    n = 0
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
        n += 1
        assert n <= 300
    assert s.is_truncated() and s.move_number() == 300
    assert s.finish_order() == [] and s.returns() == [0.0, 0.0]
    assert s.legal_actions() == [] and s.current_player() == threes.TERMINAL_PLAYER_ID


@pytest.mark.parametrize("policy", threes.POLICIES)
def test_rollouts_from_a_stuck_position_end_truncated(policy):
    s = _stuck_position(max_moves=500, move_count=100)
    r = threes.rollouts(s, 50, policy=policy, seed=1, threads=2)
    assert r.truncated.all()
    assert np.all(r.moves == 400)  # exactly up to the cap, counted from the position
    assert np.all(r.places == -1)
    assert np.allclose(r.returns, 0.0)
    assert threes.rollout(s, policy, seed=2, order=True) == ([0.0] * s.num_players(), [])


def test_deterministic_policies_that_cycle_stop_at_the_cap():
    """greedy against greedy often cycles forever (pickup_then_play); every
    such game stops at the cap and is flagged, never passed off as a finish."""
    game = threes.Game(4, "threes", max_moves=2000)
    r = threes.rollouts(game, 500, policy="greedy", seed=3, threads=2)
    assert np.all(r.moves <= 2000)
    assert np.all(r.moves[r.truncated] == 2000)
    assert r.truncated.any()
    finished = ~r.truncated
    assert np.all(np.sort(r.places[finished], axis=1) == np.arange(4))


def test_cap_of_one_ends_after_the_first_decision():
    s = threes.Game(3, max_moves=1).new_initial_state(5)
    s.apply_action(s.legal_actions()[0])
    assert s.is_terminal() and s.is_truncated() and s.phase.value == "over"


def test_the_cap_itself_is_bounded():
    with pytest.raises(ValueError):
        threes.Game(4, max_moves=threes.shithead._core.MAX_MAX_MOVES + 1)
    with pytest.raises(ValueError):
        threes.Game(4, max_moves=0)
    assert threes.Game(4).max_game_length() == threes.DEFAULT_MAX_MOVES


def test_legal_action_lists_are_bounded_by_the_action_space():
    for preset in threes.PRESETS:
        game = threes.Game(4, preset)
        for seed in range(20):
            s = game.new_initial_state(seed)
            for _ in range(200):
                if s.is_terminal():
                    break
                legal = s.legal_actions()
                assert 0 < len(legal) <= game.num_distinct_actions()
                s.apply_action(legal[-1])
