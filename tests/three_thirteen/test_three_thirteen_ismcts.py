"""Three Thirteen ISMCTS in C (common/ismcts.h over tt_game, through
State._ismcts (threes._engine.GameStateBase) and threes.bots.ISMCTSBot): legal
answers, determinism for a seed without a time limit, bad settings refused,
and no use of the cards hidden from the player to move."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest
from threes import three_thirteen as tt
from threes.bots import ISMCTSBot
from threes.three_thirteen import _core


def positions(count=12, players=(2, 3, 4), seed=7):
    """Live positions with a choice, over several rounds, by greedy and random play."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        n = rng.choice(players)
        s = tt.Game(n).new_initial_state(rng.getrandbits(32))
        for _ in range(rng.randrange(250)):
            if s.is_terminal():
                break
            s.apply_action(s._policy_action(rng.random() < 0.8, rng.getrandbits(64)))
        if not s.is_terminal() and len(s.legal_actions()) > 1:
            out.append(s)
    return out


POSITIONS = positions()


def test_positions_cover_several_rounds_and_both_phases():
    assert len({s.round() for s in POSITIONS}) >= 3
    assert {s.phase for s in POSITIONS} == {"draw", "discard"}


@pytest.mark.parametrize("i", range(len(POSITIONS)))
def test_search_returns_legal_moves(i):
    s = POSITIONS[i]
    before = s.to_dict()
    res = ISMCTSBot(60, seed=i).search(s)
    legal = s.legal_actions()
    assert res["action"] in legal
    assert res["iterations"] == 60 and 1 <= res["nodes"] <= 61
    assert res["children"] and all(a in legal for a, _, _ in res["children"])
    assert sum(v for _, v, _ in res["children"]) == 60
    assert all(-1.0 <= q <= 1.0 for _, _, q in res["children"])
    assert res["action"] == max(res["children"], key=lambda c: (c[1], -c[0]))[0]
    assert s.to_dict() == before  # the search works on copies


def test_step_is_legal_and_plays_a_round():
    bot = ISMCTSBot(30, seed=2)
    s = tt.Game(3).new_initial_state(5)
    while s.round() == 1:
        a = bot.step(s)
        assert a in s.legal_actions()
        s.apply_action(a)
    assert s.round() == 2 and not s.is_terminal()


@pytest.mark.parametrize("i", range(0, len(POSITIONS), 3))
def test_deterministic_with_a_seed_and_no_time_limit(i):
    s = POSITIONS[i]
    first = ISMCTSBot(80, seed=11, time_limit=None).search(s)
    assert ISMCTSBot(80, seed=11, time_limit=None).search(s) == first
    assert ISMCTSBot(80, seed=11).search(s.clone()) == first
    # and the seed matters
    results = {repr(ISMCTSBot(80, seed=k).search(s)["children"]) for k in range(6)}
    assert len(results) > 1


@pytest.mark.parametrize("i", range(len(POSITIONS)))
def test_does_not_use_hidden_cards(i):
    """Two states that differ only in cards hidden from the mover (other
    hands, stock order, chance stream) give the same search for one seed."""
    s = POSITIONS[i]
    mover = s.current_player()
    t = s.resample_from_infostate(mover, 1000 + i)
    assert t.to_dict() != s.to_dict()  # the hidden cards really moved
    assert t.hand(mover) == s.hand(mover) and t.discard_pile() == s.discard_pile()
    assert ISMCTSBot(60, seed=3).search(t) == ISMCTSBot(60, seed=3).search(s)


@pytest.mark.parametrize("bad", [math.inf, -math.inf, math.nan, -0.5])
def test_bad_exploration_is_refused(bad):
    with pytest.raises(ValueError):
        ISMCTSBot(10, exploration=bad)
    # and by the binding itself, whatever calls it
    arena = np.zeros(20 * _core.ISMCTS_NODE_BYTES, dtype=np.uint8)
    with pytest.raises(ValueError):
        POSITIONS[0]._ismcts(arena, 10, 0.0, bad, 1, 1)


@pytest.mark.parametrize("kwargs", [
    {"time_limit": math.inf}, {"time_limit": math.nan}, {"time_limit": -1.0},
    {"rollout_policy": _core.NUM_POLICIES}, {"rollout_policy": -1},
    {"iterations": 0},
])
def test_binding_refuses_bad_settings(kwargs):
    args = {"iterations": 10, "time_limit": 0.0, "exploration": 0.7, "rollout_policy": 1}
    args.update(kwargs)
    arena = np.zeros(20 * _core.ISMCTS_NODE_BYTES, dtype=np.uint8)
    with pytest.raises((ValueError, OverflowError)):
        POSITIONS[0]._ismcts(arena, args["iterations"], args["time_limit"], args["exploration"],
                             args["rollout_policy"], 1)


def test_binding_refuses_no_room_and_a_finished_game():
    with pytest.raises(ValueError):
        POSITIONS[0]._ismcts(np.zeros(_core.ISMCTS_NODE_BYTES - 1, dtype=np.uint8), 10, 0.0, 0.7, 1, 1)
    s = POSITIONS[0].clone()
    while not s.is_terminal():
        s.apply_action(s._policy_action(1, 0))
    with pytest.raises(ValueError):
        ISMCTSBot(10, seed=1).search(s)


def test_binding_matches_the_bot():
    """ISMCTSBot is a thin caller: greedy rollouts, the bot's seed stream."""
    s = POSITIONS[1]
    bot = ISMCTSBot(50, seed=4)
    seed = random.Random(__import__("threes.shithead.game", fromlist=["_seed64"])._seed64(4)).getrandbits(64)
    arena = np.zeros(51 * _core.ISMCTS_NODE_BYTES, dtype=np.uint8)
    best, iters, nodes, children = s._ismcts(arena, 50, 0.0, 0.7, tt.POLICIES.index("greedy"), seed)
    res = bot.search(s)
    assert (res["action"], res["iterations"], res["nodes"]) == (best, iters, nodes)
    assert sorted(res["children"]) == sorted(children)


def test_small_node_budgets_still_answer_legally():
    s = POSITIONS[2]
    for nodes in (1, 2, 5):
        res = ISMCTSBot(40, max_nodes=nodes, seed=1).search(s)
        assert res["action"] in s.legal_actions() and res["nodes"] <= nodes and res["iterations"] == 40


def test_time_limit_stops_the_search():
    s = POSITIONS[3]
    res = ISMCTSBot(2**32 - 1, time_limit=0.05, max_nodes=50_000, seed=1).search(s)
    assert res["action"] in s.legal_actions() and 1 <= res["iterations"] < 2**32 - 1
