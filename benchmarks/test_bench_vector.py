"""threes.vector against Gymnasium's own vector env, in one run (issue 15).

Rows, each learner steps per second of ``step()`` calls (the learner's choice,
its first legal action from the mask, is made outside the timed call, the
same way for every row):

- SyncVectorEnv over ``NUM_ENVS`` ``ThreesEnv`` (4 players, three random
  seats), the baseline;
- ``threes.vector.VectorEnv`` with the same settings and number of envs, on 1
  and 2 threads (targets: >= 100x the baseline on 1 thread; 2 threads >= 1.8x
  one);
- ``SelfPlayVectorEnv`` on 1 thread (target: >= the single-agent rate).

Rounds alternate between the rows so that every row sees the same machine
states; each row keeps its best round.
"""
import time

import numpy as np
import pytest

NUM_ENVS = 256
ROUNDS = 5
SECONDS = 0.4  # per row and round (the baseline: 150 steps of its 256 envs, through several episodes)


def _rate(env, steps=None, seconds=SECONDS):
    """Learner steps per second of env.step, the learner playing its first legal action."""
    obs, info = env.reset(seed=1)
    n = env.num_envs
    spent, done = 0.0, 0
    while (done < steps) if steps else (spent < seconds):
        actions = info["action_mask"].argmax(axis=1)
        t = time.perf_counter()
        obs, r, term, trunc, info = env.step(actions)
        spent += time.perf_counter() - t
        done += 1
    return done * n / spent


def test_vector_env_against_sync_vector_env(benchmark, figures):
    import gymnasium

    from threes.adapters.gym import ThreesEnv
    from threes.vector import SelfPlayVectorEnv, VectorEnv

    sync = gymnasium.vector.SyncVectorEnv([lambda: ThreesEnv(num_players=4, opponents="random")] * NUM_ENVS)
    rows = {
        "SyncVectorEnv(ThreesEnv)": (sync, 150),
        "VectorEnv, 1 thread": (VectorEnv("shithead", NUM_ENVS, num_players=4, opponents="random", seed=1), None),
        "VectorEnv, 2 threads": (VectorEnv("shithead", NUM_ENVS, num_players=4, opponents="random", seed=1,
                                           threads=2), None),
        "SelfPlayVectorEnv, 1 thread": (SelfPlayVectorEnv("shithead", NUM_ENVS, num_players=4, seed=1), None),
    }
    best = {name: 0.0 for name in rows}

    def round_():
        for name, (env, steps) in rows.items():
            best[name] = max(best[name], _rate(env, steps))

    benchmark.pedantic(round_, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    base = best["SyncVectorEnv(ThreesEnv)"]
    one, two, selfplay = best["VectorEnv, 1 thread"], best["VectorEnv, 2 threads"], best["SelfPlayVectorEnv, 1 thread"]
    checks = [
        ("VectorEnv 1 thread / SyncVectorEnv", one / base, 100.0),
        ("VectorEnv 2 threads / 1 thread", two / one, 1.8),
        ("SelfPlayVectorEnv / VectorEnv (1 thread)", selfplay / one, 1.0),
    ]
    vec = rows["VectorEnv, 1 thread"][0]
    benchmark.extra_info.update({f"{k} steps/s": v for k, v in best.items()})
    benchmark.extra_info.update({k: v for k, v, _ in checks})
    benchmark.extra_info["bytes per env"] = vec.nbytes_per_env
    print(f"\nShithead, 4 players, three random seats, {NUM_ENVS} envs, float32 observations "
          "(learner steps/s of step()):")
    for name, rate in best.items():
        print(f"  {name:<30} {rate:>14,.0f}")
        figures[f"vector: {name} learner steps/s"] = (rate, "steps/s")
    for name, value, target in checks:
        print(f"  {name:<42} {value:8.2f}x (target >= {target:g}: {'met' if value >= target else 'MISSED'})")
        figures[f"vector: {name} (target >= {target:g})"] = (value, "x")
    print(f"  memory: {vec.nbytes_per_env:,} bytes of buffers per env (ThreesEnv: one Python object graph each)")
    figures["vector: bytes of buffers per env"] = (vec.nbytes_per_env, "bytes")
    for env, _ in rows.values():
        env.close()


@pytest.mark.parametrize("dtype", ["float32", "uint8"])
def test_vector_env_observation_dtype(benchmark, figures, dtype):
    """Learner steps/s with float32 and uint8 observations (Shithead, 1 thread)."""
    from threes.vector import VectorEnv

    env = VectorEnv("shithead", NUM_ENVS, num_players=4, opponents="random", seed=1, observation_dtype=np.dtype(dtype))
    best = [0.0]

    def round_():
        best[0] = max(best[0], _rate(env))

    benchmark.pedantic(round_, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    benchmark.extra_info["steps_per_s"] = best[0]
    figures[f"vector: VectorEnv {dtype} observations, 1 thread learner steps/s"] = (best[0], "steps/s")
    print(f"\nVectorEnv, {dtype} observations: {best[0]:,.0f} learner steps/s, "
          f"{env.nbytes_per_env:,} bytes per env")


def test_vector_env_memory_per_env(benchmark, figures):
    """Python-heap bytes per env (tracemalloc, NumPy's buffers included) of a
    reset VectorEnv and of a reset SyncVectorEnv over ThreesEnv, same settings."""
    import tracemalloc

    import gymnasium

    from threes.adapters.gym import ThreesEnv
    from threes.vector import VectorEnv

    def measure(make):
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        env = make()
        env.reset(seed=1)
        used = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        env.close()
        return used / NUM_ENVS

    sizes = {}

    def round_():
        sizes["VectorEnv"] = measure(lambda: VectorEnv("shithead", NUM_ENVS, num_players=4, opponents="random"))
        sizes["SyncVectorEnv(ThreesEnv)"] = measure(lambda: gymnasium.vector.SyncVectorEnv(
            [lambda: ThreesEnv(num_players=4, opponents="random")] * NUM_ENVS))

    benchmark.pedantic(round_, rounds=1, iterations=1)
    benchmark.extra_info.update(sizes)
    for name, size in sizes.items():
        figures[f"vector: {name} heap bytes per env (tracemalloc)"] = (size, "bytes")
    print(f"\nheap per env: VectorEnv {sizes['VectorEnv']:,.0f} bytes, SyncVectorEnv(ThreesEnv) "
          f"{sizes['SyncVectorEnv(ThreesEnv)']:,.0f} bytes")
