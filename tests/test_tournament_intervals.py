"""Tournament intervals stay within the possible range, contain the
estimate, are not empty at 0% or 100% with few games, and are named in the
table and the JSON."""
import json

import numpy as np
import pytest

from threes.tournament import INTERVAL_METHODS, TournamentResult, tournament


def result(places, seed=5):
    places = np.asarray(places, dtype=float)
    deals, n, _ = places.shape
    return TournamentResult([f"bot{b}" for b in range(n)], n, "threes", deals, seed, places, 0, 0.0)


def random_places(rng, deals, n):
    """Each rotation a random permutation of places 0..n-1 among the bots,
    sometimes skewed so that one bot always wins."""
    out = np.empty((deals, n, n))
    skew = rng.random() < 0.3
    for d in range(deals):
        for r in range(n):
            perm = rng.permutation(n)
            if skew:
                perm = np.roll(np.sort(perm), 0)  # bot b always gets place b
            out[d, r] = perm
    return out


def check(res):
    top = res.num_players - 1
    for s in res.stats:
        for key, hi in (("mean_place", top), ("win_rate", 1.0), ("shithead_rate", 1.0)):
            iv = s[key]
            assert 0.0 <= iv["low"] <= iv["mean"] <= iv["high"] <= hi, (key, iv)
        for key in ("win_rate", "shithead_rate"):
            assert s[key]["high"] - s[key]["low"] > 0, (key, s[key])  # never empty, 0% and 100% included


def test_the_reported_cases_stay_in_range():
    # 3 deals x 4 rotations: 83.3% (10 of 12 wins) was [50.7%, 116.0%], 8.3% was [-8.0%, 24.7%]
    places = np.zeros((3, 4, 4))
    for d in range(3):
        for r in range(4):
            places[d, r] = [0, 1, 2, 3] if (d, r) not in ((0, 0), (1, 1)) else [1, 0, 3, 2]
    res = result(places)
    check(res)
    win = res.stats[0]["win_rate"]
    assert win["mean"] == pytest.approx(10 / 12) and win["high"] <= 1.0
    assert res.stats[1]["win_rate"]["mean"] == pytest.approx(2 / 12) and res.stats[1]["win_rate"]["low"] >= 0
    zero = res.stats[2]["win_rate"]
    assert zero["mean"] == 0.0 and zero["low"] == 0.0 and zero["high"] > 0.2  # 0% of 12 games: not [0%, 0%]
    always = result(np.tile([0.0, 1.0], (2, 2, 1)))  # bot 0 wins all 4 games of 2 deals
    check(always)
    assert always.stats[0]["win_rate"]["low"] < 1.0 == always.stats[0]["win_rate"]["high"]
    assert always.stats[0]["mean_place"]["low"] == 0.0


@pytest.mark.parametrize("seed", range(40))
def test_random_tournaments_give_intervals_in_range(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 6))
    deals = int(rng.integers(1, 12))
    places = random_places(rng, deals, n)
    if seed % 5 == 0:
        places[:, :, :] = np.where(rng.random(places.shape) < 0.1, (n - 1) / 2, places)  # shared (truncated) places
    check(result(places, seed))


def test_more_deals_give_narrower_intervals_and_the_same_seed_the_same_interval():
    rng = np.random.default_rng(1)
    small, large = random_places(rng, 5, 4), random_places(rng, 400, 4)
    w = lambda res, k: res.stats[0][k]["high"] - res.stats[0][k]["low"]
    assert w(result(large), "win_rate") < w(result(small), "win_rate")
    assert w(result(large), "mean_place") < w(result(small), "mean_place")
    assert result(small, 9).stats == result(small.copy(), 9).stats  # the bootstrap is seeded


def test_a_single_deal_gives_the_whole_range_for_the_mean_place():
    res = result(np.tile([0.0, 1.0, 2.0], (1, 3, 1)))
    assert res.stats[0]["mean_place"] == {"mean": 0.0, "low": 0.0, "high": 2.0}
    check(res)


def test_the_methods_are_named_in_the_table_and_the_json(tmp_path):
    res = tournament(["greedy", "random"], 3, seed=4)
    check(res)
    table = res.table()
    assert "Wilson score interval" in table and "bootstrap over deals" in table
    path = tmp_path / "r.json"
    res.save(str(path))
    back = json.loads(path.read_text())
    assert back["intervals"]["win_rate"] == INTERVAL_METHODS["win_rate"]
    assert "Wilson" in back["intervals"]["shithead_rate"] and "bootstrap" in back["intervals"]["mean_place"]
    for s in back["stats"]:
        assert 0 <= s["win_rate"]["low"] <= s["win_rate"]["high"] <= 1
