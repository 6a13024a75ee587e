"""backend="ray" on a local Ray runtime (ray.init(num_cpus=2), shared by
this module's tests): every result equals the local backend's exactly, for
any chunking; bad arguments fail as locally; the samplers."""
import dataclasses

import numpy as np
import pytest

import threes
import threes.three_thirteen as tt
import threes.vector as tv
from threes import cluster


def arrays(r):
    return {f.name: getattr(r, f.name) for f in dataclasses.fields(r) if isinstance(getattr(r, f.name), np.ndarray)}


def assert_same_rollouts(a, b):
    assert type(a) is type(b)
    assert a.policies == b.policies and a.seed == b.seed
    x, y = arrays(a), arrays(b)
    assert x.keys() == y.keys() and len(x) >= 3
    for k in x:
        assert x[k].dtype == y[k].dtype and x[k].shape == y[k].shape, k
        assert np.array_equal(x[k], y[k]), k


SOURCES = {
    "shithead fresh": lambda: (threes.Game(4), {}),
    "shithead dutch 3p greedy": lambda: (threes.Game(3, "dutch"), {"policy": "greedy"}),
    "shithead from a state, observer": lambda: (threes.Game(4).new_initial_state(11), {"observer": 2}),
    "three thirteen fresh": lambda: (tt.Game(3), {}),
    "three thirteen from a state, observer": lambda: (tt.Game(2).new_initial_state(4), {"observer": 1}),
}


@pytest.mark.parametrize("name", sorted(SOURCES))
@pytest.mark.parametrize("chunk", [None, 1, 7, 1000])
def test_rollouts_equal_local(ray_local, name, chunk):
    source, kw = SOURCES[name]()
    n = 40 if "thirteen" in name else 3000
    if chunk == 1:
        n = 25
    local = threes.rollouts(source, n, seed=123, **kw)
    on_ray = threes.rollouts(source, n, seed=123, backend="ray", chunk=chunk, **kw)
    assert_same_rollouts(local, on_ray)
    assert on_ray.threads == 2 and on_ray.num_games == n


def test_rollouts_first_offsets_the_batch():
    g = threes.Game(4)
    whole = threes.rollouts(g, 500, seed=9, threads=2)
    parts = [threes.rollouts(g, hi - lo, seed=9, first=lo, threads=1) for lo, hi in [(0, 123), (123, 124), (124, 500)]]
    assert_same_rollouts(whole, cluster.concat(parts, threads=2))
    t = tt.Game(2)
    assert_same_rollouts(threes.rollouts(t, 12, seed=3),
                         cluster.concat([threes.rollouts(t, 5, seed=3), threes.rollouts(t, 7, seed=3, first=5)]))


def test_rollouts_seed_none_is_drawn_once(ray_local):
    r = threes.rollouts(threes.Game(4), 2000, seed=None, backend="ray", chunk=300)
    assert_same_rollouts(threes.rollouts(threes.Game(4), 2000, seed=r.seed), r)


def test_rollouts_progress_on_ray_counts_every_game_once(ray_local):
    seen = []
    threes.rollouts(threes.Game(4), 5000, seed=1, backend="ray", chunk=600, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == 5000 and len(seen) == len(set(seen)) >= 9


def test_rollouts_zero_games_and_bad_arguments(ray_local):
    r = threes.rollouts(threes.Game(4), 0, seed=1, backend="ray")
    assert r.num_games == 0
    with pytest.raises(ValueError, match="backend must be"):
        threes.rollouts(threes.Game(4), 10, backend="dask")
    with pytest.raises(ValueError, match="address is for backend='ray'"):
        threes.rollouts(threes.Game(4), 10, address="127.0.0.1:6379")
    with pytest.raises(ValueError, match="unknown policy"):
        threes.rollouts(threes.Game(4), 10, "best", backend="ray")
    with pytest.raises(ValueError, match="chunk must be"):
        threes.rollouts(threes.Game(4), 10, backend="ray", chunk=0)
    with pytest.raises(ValueError, match="first must be"):
        threes.rollouts(threes.Game(4), 10, first=-1)
    with pytest.raises(ValueError, match="first must be"):
        threes.rollouts(tt.Game(2), 10, first=-1)


TOURNAMENTS = {
    "shithead": lambda: (["greedy", "random", "heuristic", "ismcts:30"], {}),
    "shithead dutch": lambda: (["heuristic", "random", "greedy"], {"rules": "dutch"}),
    "three thirteen": lambda: (["greedy", "random"], {"game": tt.Game(2)}),
}


@pytest.mark.parametrize("name", sorted(TOURNAMENTS))
@pytest.mark.parametrize("chunk", [None, 1, 4])
def test_tournament_equals_local(ray_local, name, chunk):
    bots, kw = TOURNAMENTS[name]()
    deals = 3 if "thirteen" in name else 9
    local = threes.tournament(bots, deals, seed=21, **kw)
    seen = []
    on_ray = threes.tournament(bots, deals, seed=21, backend="ray", chunk=chunk, progress=seen.append, **kw)
    assert np.array_equal(local.places, on_ray.places)
    assert (local.truncated, local.stalemates, local.stats) == (on_ray.truncated, on_ray.stalemates, on_ray.stats)
    assert local.table().split("\n")[2:] == on_ray.table().split("\n")[2:]
    assert seen[-1] == deals and seen == sorted(seen)


def test_tournament_bad_backend_arguments():
    with pytest.raises(ValueError, match="backend must be"):
        threes.tournament(["greedy", "random"], 2, backend="spark")
    with pytest.raises(ValueError, match="for backend='ray'"):
        threes.tournament(["greedy", "random"], 2, address="127.0.0.1:6379")


@pytest.mark.parametrize("selfplay", [False, True])
def test_samplers_equal_local(ray_local, selfplay):
    kw = dict(num_envs=8, game="shithead", num_players=3)
    if not selfplay:
        kw["opponents"] = "greedy"
    local = tv.Samplers(4, seed=5, selfplay=selfplay, **kw)
    remote = tv.Samplers(4, seed=5, selfplay=selfplay, backend="ray", num_cpus=0.5, **kw)
    try:
        for _ in range(2):  # the samplers keep their episodes between batches
            a, b = local.sample(40), remote.sample(40)
            assert len(a) == len(b) == 4
            for x, y in zip(a, b):
                assert x.keys() == y.keys()
                for k in x:
                    assert x[k].dtype == y[k].dtype and np.array_equal(x[k], y[k]), k
        assert not np.array_equal(a[0]["obs"], a[1]["obs"])  # each sampler its own seed
    finally:
        remote.close()


# a lambda: cloudpickle sends it by value (a function of this test module
# would be pickled by reference, and the workers cannot import the tests)
first_legal = lambda obs, mask: np.argmax(mask, axis=1)  # noqa: E731


def test_samplers_set_policy_and_collect_matches_a_hand_loop(ray_local):
    remote = tv.Samplers(2, seed=8, backend="ray", num_cpus=0.5, num_envs=4)
    try:
        remote.set_policy(first_legal)
        got = remote.sample(30)
    finally:
        remote.close()
    env = tv.VectorEnv(num_envs=4, seed=tv.sampler_seed(8, 1))
    obs, info = env.reset()
    for t in range(30):
        assert np.array_equal(got[1]["obs"][t], obs) and np.array_equal(got[1]["action_mask"][t], info["action_mask"])
        a = first_legal(obs, info["action_mask"])
        assert np.array_equal(got[1]["actions"][t], a)
        obs, r, term, trunc, info = env.step(a)
        assert np.array_equal(got[1]["rewards"][t], r) and np.array_equal(got[1]["terminated"][t], term)


def test_samplers_refuse_more_cpus_than_the_cluster_has(ray_local):
    with pytest.raises(ValueError, match="the Ray cluster has 2"):
        tv.Samplers(3, backend="ray", num_envs=2)
    with pytest.raises(ValueError, match="num_samplers"):
        tv.Samplers(0)
    with pytest.raises(TypeError, match="policy must be callable"):
        tv.Samplers(1, policy="greedy")


def test_chunk_plan_covers_every_item_once():
    for total in (1, 2, 7, 100, 12345):
        for per in (0.0, 1e-6, 1e-3, 1.0):
            for cpus in (1, 2, 3, 64):
                spans = cluster.plan(total, per, cpus)
                assert spans[0][0] == 0 and spans[-1][1] == total
                assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
                assert all(lo < hi for lo, hi in spans) and len(spans) <= cluster.MAX_CHUNKS
                if total * per >= 4 * cluster.CHUNK_SECONDS * cpus and total >= 64 * cpus:
                    assert len(spans) % cpus == 0 or len(spans) == total  # a multiple of the CPUs
                    assert max(hi - lo for lo, hi in spans) * per <= 2 * max(cluster.CHUNK_SECONDS, per)
    assert cluster.plan(0, 1.0, 2) == []
    assert cluster.plan(10, 0.0, 2, chunk=3) == [(0, 3), (3, 6), (6, 9), (9, 10)]


@pytest.mark.parametrize("make", [
    lambda: threes.Rules.preset("dutch"),
    lambda: threes.Game(3, "classic").new_initial_state(2),
    lambda: tt.Game(3).new_initial_state(2),
], ids=["shithead rules", "shithead state", "three thirteen state"])
def test_values_sent_to_workers_pickle_by_reference(ray_local, make):
    """Rules and states reach a Ray worker by reference to their module's
    functions, never with a function sent by value: a classmethod would be, and
    with Rules.from_dict's cache filled (as after any earlier from_dict) the
    worker failed to unpickle it (NameError in the worker)."""
    import ray
    from ray import cloudpickle

    value = make()
    threes.Rules.from_dict(threes.Rules.preset("dutch").to_dict())  # fills the cache
    assert b"_make_function" not in cloudpickle.dumps(value)
    echo = ray.remote(lambda v: v.to_dict())
    assert ray.get(echo.remote(value)) == value.to_dict()
