"""The bots play every game: ISMCTSBot(iterations=50, seed=...) and the
make_bot specs return legal moves, change nothing, and a seeded ISMCTS
(no time limit) is deterministic; play_game runs a whole (capped) game."""

import pytest

from threes import bots


def _positions(ct, pkg, num_players, seed, count=6):
    states = ct.sample_states(pkg, num_players, seed, steps=150, every=25)
    live = [s for s in states if not s.is_terminal()]
    assert len(live) >= 3
    return live[:count]


@pytest.mark.parametrize("num_players", [2, 3])
def test_ismcts_returns_legal_moves(ct, pkg, num_players):
    for i, state in enumerate(_positions(ct, pkg, num_players, seed=3)):
        d = state.to_dict()
        a = bots.ISMCTSBot(iterations=50, seed=i).step(state)
        assert a in state.legal_actions()
        assert state.to_dict() == d, "the bot changed the state it was handed"
        b = bots.ISMCTSBot(iterations=50, seed=i).step(state)
        assert a == b, "a seeded ISMCTS without a time limit is deterministic"


def test_ismcts_search_reports_its_root(ct, pkg):
    state = next(s for s in _positions(ct, pkg, 3, seed=4) if len(s.legal_actions()) > 1)
    bot = bots.ISMCTSBot(iterations=50, seed=1)
    found = bot.search(state)
    legal = set(state.legal_actions())
    assert found["action"] in legal
    assert found["iterations"] == 50
    assert found["children"] and {c[0] for c in found["children"]} <= legal
    assert sum(c[1] for c in found["children"]) <= 50


@pytest.mark.parametrize("spec", ["random", "greedy", "ismcts:20"])
def test_make_bot_specs_play_legal_moves(ct, pkg, spec):
    bot = bots.make_bot(spec, seed=2)
    for state in _positions(ct, pkg, 3, seed=5, count=4):
        d = state.to_dict()
        assert bot.step(state) in state.legal_actions()
        assert state.to_dict() == d


def test_play_game_plays_to_the_end(pkg):
    state = pkg.Game(3, max_moves=80).new_initial_state(6)
    d = state.to_dict()
    seats = [bots.ISMCTSBot(iterations=20, seed=1), bots.make_bot("greedy", seed=2), bots.make_bot("random", seed=3)]
    end = bots.play_game(seats, state, seed=7)
    assert end.is_terminal()
    end._check()
    assert len(end.history()) <= 80
    assert state.to_dict() == d
    again = bots.play_game([bots.ISMCTSBot(iterations=20, seed=1), bots.make_bot("greedy", seed=2),
                            bots.make_bot("random", seed=3)], state, seed=7)
    assert again.history() == end.history(), "the same seeds, the same game"
