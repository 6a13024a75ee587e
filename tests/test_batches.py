"""threes.rollouts and threes.rollout over every registered game: one result
type (threes.results.RolloutResult), the backend chosen in Python
(threes.batches), each game's binding registered as its package loads."""
import numpy as np
import pytest

import threes
from threes import batches, registry
from threes.results import RolloutResult


def _game(info, n=3):
    return info.load().Game(n)


@pytest.mark.parametrize("name", registry.names())
def test_every_game_returns_the_one_result_type(name):
    info = registry.get(name)
    game = _game(info)
    policy = info.policies[-1]
    r = threes.rollouts(game, 12, policy, seed=4, threads=1)
    assert type(r) is RolloutResult and info.load().rollouts is threes.rollouts
    assert r.num_games == 12 and r.num_players == 3 and r.policies == (policy,) * 3
    assert r.ranks.shape == r.returns.shape == (12, 3) and r.stalemate.shape == (12,)
    # the ranks and returns agree as State.returns does: place k of n is worth (n-1-2k)/(n-1), ties share
    finished = ~r.truncated
    assert np.all(r.ranks[finished] >= 0)
    best = r.returns.max(axis=1)
    assert np.all((r.ranks == 0) == (r.returns == best[:, None]))
    assert np.allclose(r.win_rate, (r.ranks == 0).mean(axis=0))
    assert np.isclose(r.mean_place.sum(), 3 * 2 / 2, atol=1.0)  # places 0..2 (ties share the better one)
    # game 0 of the batch is threes.rollout of the same state and seed
    s = game.new_initial_state(8)
    one = threes.rollouts(s, 1, policy, seed=9)
    assert list(one.returns[0]) == threes.rollout(s, policy, 9)
    text = r.summary()
    assert "12 games" in text and policy in text


def test_ranks_of_a_game_of_totals_share_ties():
    t = np.array([[10, 10, 30], [5, 7, 5], [9, 8, 7]], dtype=np.int32)
    r = RolloutResult(None, np.zeros(3, np.uint32), np.zeros(3, bool), ("greedy",) * 3, 1, 1, 0.0, totals=t,
                      _returns=np.zeros((3, 3)))
    assert r.ranks.tolist() == [[0, 0, 2], [0, 2, 0], [2, 1, 0]]
    assert r.win_rate.tolist() == [2 / 3, 1 / 3, 2 / 3] and r.last_place_rate.tolist() == [1 / 3, 1 / 3, 1 / 3]
    assert r.mean_score.tolist() == [8.0, 25 / 3, 14.0]
    with pytest.raises(AttributeError, match="places, not scores"):
        RolloutResult(np.zeros((1, 2), np.int8), np.zeros(1, np.uint32), np.zeros(1, bool), ("random",) * 2, 1, 1,
                      0.0).mean_score
    with pytest.raises(ValueError, match="places or totals"):
        RolloutResult(None, np.zeros(1, np.uint32), np.zeros(1, bool), ("random",) * 2, 1, 1, 0.0)


def test_the_shithead_columns_keep_their_names():
    r = threes.rollouts(threes.Game(4), 200, seed=3, threads=1)
    assert r.shithead_rate.tolist() == r.last_place_rate.tolist()
    assert r.places is r.ranks and r.totals is None
    assert np.isclose(r.last_place_rate.sum() + r.truncated_rate, 1.0)


def test_one_policy_reader_for_every_game():
    """threes._engine.policies_of: a name in any case for every seat, one name or one per seat; the same
    errors whatever the game."""
    from threes import three_thirteen as tt
    for game, names in ((threes.Game(3), ("random", "greedy", "heuristic")), (tt.Game(3), ("random", "greedy"))):
        assert threes.rollouts(game, 2, " GREEDY ", seed=1, threads=1).policies == ("greedy",) * 3
        assert threes.rollouts(game, 2, ["greedy"], seed=1, threads=1).policies == ("greedy",) * 3
        assert threes.rollouts(game, 2, ("random", "greedy", "Greedy"), seed=1, threads=1).policies == \
            ("random", "greedy", "greedy")
        with pytest.raises(ValueError, match=f"unknown policy 'best': choose one of {', '.join(names)}"):
            threes.rollouts(game, 2, "best", seed=1)
        with pytest.raises(ValueError, match="one policy per seat: 3 needed, 2 given"):
            threes.rollouts(game, 2, ["random", "greedy"], seed=1)
        with pytest.raises(TypeError, match="policy must be a name"):
            threes.rollouts(game, 2, 7, seed=1)
        with pytest.raises(ValueError, match="unknown policy 7"):
            threes.rollout(game.new_initial_state(1), [7], 1)


def test_the_backend_is_chosen_above_the_extensions():
    g = threes.Game(3)
    with pytest.raises(ValueError, match="backend must be 'local' or 'ray', not 'dask'"):
        threes.rollouts(g, 2, backend="dask")
    with pytest.raises(ValueError, match="address is for backend='ray'"):
        threes.rollouts(g, 2, address="127.0.0.1:6379")
    with pytest.raises(ValueError, match="threads is for backend='local'"):
        threes.rollouts(g, 2, threads=2, backend="ray")


def test_objects_of_no_registered_game_are_refused():
    with pytest.raises(TypeError, match="rollouts takes a Game or a State of a registered game, not str"):
        threes.rollouts("threes", 2)
    with pytest.raises(TypeError, match="rollout takes a State of a registered game, not Game"):
        threes.rollout(threes.Game(3))
    with pytest.raises(TypeError, match="register takes"):
        batches.register(threes.Game, "State", lambda: 0, lambda: 0)


def test_a_registered_subclass_is_found_through_its_bases():
    class MyState(threes.State):
        __slots__ = ()

    s = MyState.from_dict(threes.Game(3).new_initial_state(5).to_dict())
    assert threes.rollout(s, "greedy", 2) == threes.rollout(threes.Game(3).new_initial_state(5), "greedy", 2)
    assert threes.rollouts(s, 3, seed=2, threads=1).num_games == 3
