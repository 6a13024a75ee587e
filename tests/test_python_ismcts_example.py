"""examples/python_ismcts.py, the user's own search over the public API
(issue 14), and the per-game ``rollout`` it stands on: it answers legal
actions in both games, is deterministic for a seed, plays a whole game as a
bot, and Three Thirteen's ``rollout`` is game 0 of ``rollouts(state, 1)``."""
from __future__ import annotations

import importlib.util
import pathlib
import random

import numpy as np
import pytest

import threes
from threes import three_thirteen as tt

_PATH = pathlib.Path(__file__).resolve().parents[1] / "examples" / "python_ismcts.py"


@pytest.fixture(scope="module")
def example():
    spec = importlib.util.spec_from_file_location("python_ismcts", _PATH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("game_name", ["shithead", "three_thirteen"])
def test_search_answers_a_legal_action_deterministically(example, game_name):
    for where, state in example.positions(game_name).items():
        before = state.to_dict()
        a = example.search(state, 60, seed=3)
        assert a in state.legal_actions(), where
        assert example.search(state, 60, seed=3) == a
        assert state.to_dict() == before


def test_bot_plays_a_game_to_the_end(example):
    bot = example.PythonISMCTSBot(20, seed=1)
    s = threes.Game(2, max_moves=3000).new_initial_state(5)
    while not s.is_terminal():
        s.apply_action(bot.step(s) if s.current_player() == 0 else s.legal_actions()[0])
    assert s.is_terminal()


def test_a_search_of_one_iteration_per_legal_action_tries_each(example):
    s = threes.Game(3).new_initial_state(2)
    for _ in range(40):
        s.apply_action(random.Random(1).choice(s.legal_actions()))
    k = len(s.legal_actions())
    assert example.search(s, k, seed=1) in s.legal_actions()


def test_three_thirteen_rollout_is_game_0_of_a_batch():
    rng = random.Random(4)
    s = tt.Game(3).new_initial_state(8)
    checked = 0
    while not s.is_terminal() and checked < 30:
        if rng.random() < 0.2:
            for seed in (0, 7, 2**64 - 1):
                r = tt.rollouts(s, 1, "greedy", seed, threads=1)
                rets, order = tt.rollout(s, "greedy", seed, order=True)
                assert np.allclose(rets, r.returns[0], atol=0) and threes.rollout(s, "greedy", seed) == rets
                assert sorted(order, key=lambda q: (r.totals[0][q], q)) == order
                margins = tt.rollout(s, "greedy", seed, round_only=True)
                assert len(margins) == 3 and all(-1 <= v <= 1 for v in margins)
                checked += 1
        s.apply_action(rng.choice(s.legal_actions()))
    assert checked >= 10
    with pytest.raises(ValueError):
        tt.rollout(s.clone(), "heuristic", 1)
    with pytest.raises(TypeError):
        threes.rollout(tt.Game(3), "random", 1)


@pytest.mark.parametrize("game_name", ["shithead", "three_thirteen"])
def test_strength_tournament_runs_for_both_games(example, game_name):
    """The strength mode: a duplicate-deal tournament of the Python search
    against ISMCTSBot in either game (tiny here; the README's run is larger)."""
    text = example.strength(1, 4, 3, game_name)
    assert "python-ismcts-4" in text and "ismcts-4" in text
    assert ("Three Thirteen" in text) == (game_name == "three_thirteen")
    with pytest.raises(ValueError):
        example.strength(1, 4, 3, "chess")


def test_three_thirteen_leaves_are_valued_on_the_root_round(example):
    """As the C bot values an iteration: a leaf still in the root's round is
    played to that round's end (its margins), a leaf the tree walked past the
    round's end is valued by the root round's margins, not the next round's."""
    rng = random.Random(6)
    root = tt.Game(2).new_initial_state(3)
    while root.round() < 2:
        root.apply_action(rng.choice(root.legal_actions()))
    value = example.value_function(root)
    inside = value(root, "greedy", 5)
    assert inside == tt.rollout(root, "greedy", 5, round_only=True) and len(inside) == 2
    d = root.clone()
    while d.round() == root.round():
        d.apply_action(rng.choice(d.legal_actions()))
    past = value(d, "greedy", 5)
    scores = d.round_scores()[root.round() - 1]
    expect = max(-1.0, min(1.0, (scores[1] - scores[0]) / 10.0))
    assert past == d.round_margins(root.round()) == [expect, -expect]
    with pytest.raises(ValueError):
        d.round_margins(d.round())  # not scored yet


@pytest.mark.full  # 20-45 s; the quick suite runs the example's tournament in test_strength_tournament_runs_for_both_games
@pytest.mark.parametrize("game_name", ["shithead", "three_thirteen"])
def test_strength_tournament_is_the_same_for_any_number_of_workers(example, game_name):
    """PythonISMCTSBot.reset: each game its own random stream, so the
    tournament's games do not depend on how deals are split over workers."""
    a = example.strength(2, 6, 9, game_name)
    pkg = threes if game_name == "shithead" else tt
    game = pkg.Game(2, max_moves=2000) if game_name == "shithead" else pkg.Game(2)
    policy = "random" if game_name == "shithead" else "greedy"
    runs = [threes.tournament([example.PythonISMCTSBot(6, policy=policy, seed=9),
                               threes.bots.ISMCTSBot(6, rollout_policy=policy, seed=9)],
                              games=2, seed=9, game=game, workers=w) for w in (1, 2)]
    assert np.array_equal(runs[0].places, runs[1].places)
    assert "python-ismcts-6" in a
