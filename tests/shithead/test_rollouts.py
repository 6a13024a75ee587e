"""Rollouts in C (issue 3): policies, single and batched rollouts, threads.

The fast rollout runs the play phase on the per-rank counts only; these tests
check that it plays exactly the game the full engine plays (same moves, same
finishing order) and that batches do not depend on the thread count."""
import numpy as np
import pytest

import threes
from threes.shithead import _core

POLICY_IDS = {name: i for i, name in enumerate(threes.POLICIES)}


@pytest.mark.parametrize("preset,players", [("threes", 4), ("threes", 2), ("threes", 7), ("classic", 3),
                                            ("dutch", 5)])
@pytest.mark.parametrize("policies", [("random",), ("greedy",), ("heuristic",), ("heuristic", "random", "greedy")])
def test_fast_rollout_plays_the_same_game_as_the_full_engine(preset, players, policies):
    """th_rollout (counts only) and th_rollout_full (every card moved, the
    invariant check after every move) give the same finishing order and move
    count, from fresh deals and from positions part-way through."""
    game = threes.Game(players, preset, max_moves=3000)
    ids = [POLICY_IDS[policies[q % len(policies)]] for q in range(players)]
    for seed in range(25):
        state = game.new_initial_state(seed)
        for _ in range(seed * 7):  # also start from later positions
            if state.is_terminal():
                break
            state.apply_action(state.legal_actions()[seed % len(state.legal_actions())])
        fast, full, final = state._rollout_both(ids, seed)
        assert fast == full
        final._check()
        assert final.is_terminal()
        assert final.finish_order() == full[0]


def _chi2_uniform_ok(counts):
    """Pearson chi-square against uniform, compared with a bound above the
    99.9% quantile (Wilson-Hilferty approximation; no scipy needed)."""
    counts = np.asarray(counts, dtype=float)
    k = len(counts)
    expected = counts.sum() / k
    stat = ((counts - expected) ** 2 / expected).sum()
    df = k - 1
    z = 3.09  # 99.9%
    bound = df * (1 - 2 / (9 * df) + z * np.sqrt(2 / (9 * df))) ** 3
    return stat < bound, stat, bound


def test_random_policy_is_uniform_over_the_legal_actions():
    """The random policy picks uniformly among the legal actions (swap phase
    included): a chi-square test over 20,000 draws in two positions, and it
    only ever picks legal actions. Greedy and heuristic pick legal actions."""
    swap = threes.Game(4).new_initial_state(11)
    play = swap.clone()
    while play.phase.value == "swap" or len(play.legal_actions()) < 4:
        play.apply_action(play.legal_actions()[-1])
    for state in (swap, play):
        legal = state.legal_actions()
        counts = dict.fromkeys(legal, 0)
        for seed in range(20000):
            a = state._policy_action(0, seed)
            counts[a] += 1
        ok, stat, bound = _chi2_uniform_ok(list(counts.values()))
        assert ok, (stat, bound, len(legal))
        for policy in (1, 2):
            assert state._policy_action(policy, 0) in legal


def test_rollouts_identical_whatever_the_thread_count():
    game = threes.Game(4)
    base = threes.rollouts(game, 3000, seed=99, threads=1)
    for t in (2, 3, 8):
        r = threes.rollouts(game, 3000, seed=99, threads=t)
        assert np.array_equal(r.places, base.places)
        assert np.array_equal(r.moves, base.moves)
        assert np.array_equal(r.truncated, base.truncated)


def test_rollout_is_game_zero_of_rollouts_and_leaves_the_state_alone():
    state = threes.Game(5, "classic").new_initial_state(4)
    before = state.to_dict()
    returns, order = threes.rollout(state, "greedy", seed=12, order=True)
    assert state.to_dict() == before
    r = threes.rollouts(state, 1, "greedy", seed=12)
    places = r.places[0]
    assert [int(q) for q in np.argsort(places)] == order
    assert returns == list(r.returns[0]) == threes.rollout(state, "greedy", seed=12)
    # and the fast path's game is the full engine's game
    fast, full, final = state._rollout_both([1] * 5, 12)
    assert full[0] == order


def test_batch_game_i_uses_its_own_seed():
    game = threes.Game(3, "dutch")
    r = threes.rollouts(game, 50, seed=5, threads=2)
    for i in (0, 17, 49):
        deal = game.new_initial_state(_core.batch_seed(5, i))
        fast, full, final = deal._rollout_both([0, 0, 0], 0)  # any rng: just check the deal is game i's
        one = threes.rollouts(game, i + 1, seed=5, threads=1)
        assert np.array_equal(one.places[i], r.places[i])
        assert one.moves[i] == r.moves[i]


def test_result_arrays_and_summaries():
    game = threes.Game(4)
    r = threes.rollouts(game, 2000, policy=["greedy", "random", "random", "random"], seed=1, threads=2)
    assert r.places.shape == (2000, 4) and r.places.dtype == np.int8
    assert r.moves.shape == (2000,) and r.moves.dtype == np.uint32
    assert r.truncated.dtype == bool
    finished = ~r.truncated
    # every finished game ranks each seat exactly once
    assert np.all(np.sort(r.places[finished], axis=1) == np.arange(4))
    # truncated games: players out keep places, the rest are -1
    for row in r.places[r.truncated]:
        out = row[row >= 0]
        assert sorted(out) == list(range(len(out)))
    assert abs(r.win_rate.sum() - finished.mean() - (r.truncated & (r.places == 0).any(axis=1)).mean()) < 1e-9
    assert np.allclose(r.returns.sum(axis=1), 0)
    assert abs(r.mean_place.sum() - 6.0) < 1e-9  # places 0..3 always sum to 6
    # greedy beats random
    assert r.win_rate[0] > 0.4 and r.mean_place[0] < 1.0
    assert "greedy" in r.summary() and r.mean_moves > 0
    assert r.policies == ("greedy", "random", "random", "random")


def test_heuristic_is_no_weaker_than_greedy_in_threes():
    """The heuristic's mean place against three greedy seats is no worse
    than the 1.5 of an equal player (seat rotated). Before the bots explored
    in long games (rollout.h, "Games that end") it was 1.474; it is 1.50 now
    (measured, README), so the bound allows 2.5 standard errors (0.008 each)
    above 1.5."""
    game = threes.Game(4)
    places = []
    for seat in range(4):
        pol = ["greedy"] * 4
        pol[seat] = "heuristic"
        r = threes.rollouts(game, 5000, policy=pol, seed=seat, threads=2)
        places.append(r.mean_place[seat])
    mean = float(np.mean(places))
    assert mean < 1.52, places


@pytest.mark.parametrize("bad,exc", [
    (dict(n=-1), ValueError), (dict(n=1.5), TypeError), (dict(policy="best"), ValueError),
    (dict(policy=["random"] * 3), ValueError), (dict(threads=0), ValueError), (dict(threads=10**6), ValueError),
    (dict(threads="2"), TypeError), (dict(seed="x"), TypeError),
])
def test_bad_arguments(bad, exc):
    args = dict(n=10, policy="random", seed=1, threads=1)
    args.update(bad)
    with pytest.raises(exc):
        threes.rollouts(threes.Game(4), **args)
    with pytest.raises(TypeError):
        threes.rollouts("threes", 10)
    with pytest.raises(TypeError):
        threes.rollout(threes.Game(4))


def test_zero_games_and_terminal_start():
    game = threes.Game(3)
    r = threes.rollouts(game, 0, seed=1)
    assert r.places.shape == (0, 3)
    s = game.new_initial_state(2)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[-1])
    assert threes.rollout(s, seed=3, order=True) == (s.returns(), s.finish_order())


def test_rollouts_from_a_state_start_there():
    s = threes.Game(4).new_initial_state(8)
    for _ in range(30):
        s.apply_action(s.legal_actions()[0])
    r = threes.rollouts(s, 200, seed=2, threads=2)
    assert np.all(r.moves > 0)
    # fewer moves than from a fresh deal's start on average is not guaranteed;
    # but the move cap counts from the deal: no game exceeds it
    assert np.all(r.moves + s.move_number() <= s.max_game_length())
