"""Speed of two builds of threes, measured in one run: Shithead random
rollouts (ns/move), Three Thirteen greedy rollouts (games/s) and the meld
solver (us per 14-card hand); with ``--boundary``, also the calls across the
boundary (current_player, legal_actions, clone, child, an action loop, the
fixed cost of rollout() and rollouts(state, 1) for both games), ISMCTS
iterations per second for both games and the vector env's steps per second;
with ``--state``, the rows of issue 40 (the state's bytes, the copy in C,
clone/child/resample_from_infostate, ISMCTS where the issue measures it, the
repetition rule's cost, both games' vector envs); with ``--c-state OLD_TREE``,
issue 40's rows in C (benchmarks/state_bench.c: the copy, a copy and a move, a
copy and a resample, both games), compiled against the C sources of OLD_TREE
(a checkout of the old commit) and of this repository.

    python benchmarks/compare_builds.py --old OLD_VENV/bin/python --new NEW_VENV/bin/python [--rounds 6]
        [--boundary] [--state] [--c-state OLD_TREE] [--json FILE]

Each round runs the same measurements in the old build, then the new one (and
the next round the other way round), each in its own subprocess started from
a neutral directory so that it imports its own installed ``threes``; the
figure of each build is its best round, and the ratios are new / old (above 1
is faster for games/s, below 1 is faster for ns and us).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

MEASURE = r'''
import json, time
import threes
from threes import three_thirteen as tt
from threes.three_thirteen import _core as ttc
# the builds before the per-game modules had one _core with tt_bench_solver
solve = getattr(ttc, "bench_solver", None) or ttc.tt_bench_solver
out = {}
r = threes.rollouts(threes.Game(4), 20000, seed=SEED, threads=1)
out["shithead_ns_per_move"] = r.ns_per_move
t = time.perf_counter()
kw = {"threads": 1} if "threads" in tt.rollouts.__code__.co_varnames else {}
g = tt.rollouts(tt.Game(3), 30, "greedy", seed=SEED, **kw)
out["tt_greedy_games_per_s"] = g.num_games / (time.perf_counter() - t)
hands = 2000
t = time.perf_counter(); solve(SEED, hands, False); make = time.perf_counter() - t
t = time.perf_counter(); solve(SEED, hands, True); full = time.perf_counter() - t
out["meld_us_per_hand"] = (full - make) / hands * 1e6
print(json.dumps(out))
'''

BOUNDARY = r'''
import json, timeit
import numpy as np
import threes
from threes import bots, three_thirteen as tt
out = {}


def ns(f, number):
    return min(timeit.repeat(f, number=number, repeat=7)) / number * 1e9


def walk(s, k):
    for _ in range(k):
        if s.is_terminal():
            break
        s.apply_action(s.legal_actions()[0])
    return s


for name, game, policy in (("sh", threes.Game(4), "random"), ("tt", tt.Game(3), "greedy")):
    m = walk(game.new_initial_state(SEED), 100)
    a0 = m.legal_actions()[0]
    fin = walk(m.clone(), 100000)
    out[f"{name}_current_player_ns"] = ns(m.current_player, 20000)
    out[f"{name}_legal_actions_ns"] = ns(m.legal_actions, 20000)
    out[f"{name}_clone_ns"] = ns(m.clone, 20000)
    out[f"{name}_child_ns"] = ns(lambda: m.child(a0), 20000)
    start = game.new_initial_state(SEED + 1)
    moves = walk(start.clone(), 100000).move_number()
    out[f"{name}_action_loop_ns"] = ns(lambda: walk(start.clone(), 100000), 3) / moves
    out[f"{name}_rollout_fixed_ns"] = ns(lambda: threes.rollout(fin, policy, 5), 20000)
    out[f"{name}_rollouts_one_fixed_ns"] = ns(lambda: threes.rollouts(fin, 1, policy, 5), 5000)
    s = game.new_initial_state(SEED + 2)
    bot = bots.ISMCTSBot(3000, seed=1)
    out[f"{name}_ismcts_iterations_per_s"] = 3000 / (ns(lambda: bot.step(s), 1) / 1e9)
env = threes.vector.VectorEnv("shithead", 64, num_players=4)
env.reset(seed=SEED)


def steps():
    for k in range(200):
        env.step(env.sample_actions(np.random.default_rng(k)))


out["vector_steps_per_s"] = 64 * 200 / (ns(steps, 1) / 1e9)
print(json.dumps(out))
'''


STATE = r'''
import json, sys, timeit
import numpy as np
import threes
from threes import bots, three_thirteen as tt
from threes.shithead.rules import Rules
sys.path.insert(0, BENCHMARKS)
from positions import state_after, tt_state_in_round
out = {}


def ns(f, number, repeat=7):
    return min(timeit.repeat(f, number=number, repeat=repeat)) / number * 1e9


# the C state's bytes, 4 players (threes: 2 decks); the old builds copy the whole struct
sh4, tt4 = threes.Game(4).new_initial_state(1), tt.Game(4).new_initial_state(1)
out["sh_state_bytes_4p"] = getattr(sh4, "nbytes", None) or len(sh4._vec_handle()[1])
out["tt_state_bytes_4p"] = getattr(tt4, "nbytes", None) or len(tt4._vec_handle()[1])
m = state_after(100, 5)
out["sh_c_copy_ns"] = ns(lambda: m._copy_bench(100000), 1) / 100000
late = state_after(300, 5)  # pick-ups behind it: known hand cards, burned cards
out["sh_observation_ns"] = ns(lambda: late.observation_tensor(0), 20000)
seeds = iter(range(10**9))
out["sh_resample_ns"] = ns(lambda: m.resample_from_infostate(1, next(seeds)), 20000)
t6 = tt_state_in_round(6)
out["tt_clone_round6_ns"] = ns(t6.clone, 20000)
out["tt_resample_round6_ns"] = ns(lambda: t6.resample_from_infostate(0, next(seeds)), 20000)
for where, moves in (("swap", 0), ("move100", 100)):
    s = state_after(moves, 11)
    bot = bots.ISMCTSBot(iterations=20000, seed=1)
    out[f"sh_ismcts_{where}_iterations_per_s"] = 20000 / (ns(lambda: bot.search(s), 1, 3) / 1e9)
for rnd in (6, 11):
    s = tt_state_in_round(rnd)
    bot = bots.ISMCTSBot(iterations=500, seed=1)
    out[f"tt_ismcts_round{rnd}_iterations_per_s"] = 500 / (ns(lambda: bot.search(s), 1, 3) / 1e9)
reps = {}
for lim in (3, 0):
    g = threes.Game(4, Rules.preset("threes", repetition_limit=lim))
    reps[lim] = min(threes.rollouts(g, 4000, seed=k, threads=1).ns_per_move for k in range(1, 4))
out["sh_repetition_on_ns_per_move"] = reps[3]
out["sh_repetition_off_ns_per_move"] = reps[0]
for name, game in (("sh", "shithead"), ("tt", "three_thirteen")):
    env = threes.vector.VectorEnv(game, 64, num_players=4 if name == "sh" else 3)
    env.reset(seed=SEED)

    def steps():
        for k in range(200):
            env.step(env.sample_actions(np.random.default_rng(k)))

    out[f"{name}_vector_steps_per_s"] = 64 * 200 / (ns(steps, 1, 3) / 1e9)
    out[f"{name}_vector_bytes_per_env"] = env.nbytes_per_env
print(json.dumps(out))
'''


def build_state_bench(tree: str, out: str) -> str:
    """Compiles benchmarks/state_bench.c against the C sources of `tree` (a
    checkout of any commit since 48ed460); returns the program's path."""
    import glob

    here = os.path.dirname(os.path.abspath(__file__))
    core = os.path.join(tree, "src", "threes_core")
    sources = sorted(glob.glob(os.path.join(core, "*", "*.c")))
    subprocess.run([os.environ.get("CC", "cc"), "-std=c11", "-O2", "-I", core, os.path.join(here, "state_bench.c"),
                    *sources, "-lpthread", "-lm", "-o", out], check=True, timeout=600)
    return out


def run(python: str, seed: int, boundary: bool = False, code: str = "") -> dict:
    code = (code or (BOUNDARY if boundary else MEASURE)).replace("SEED", str(seed))
    code = code.replace("BENCHMARKS", repr(os.path.dirname(os.path.abspath(__file__))))
    r = subprocess.run([python, "-c", code], capture_output=True, text=True, cwd="/", check=True, timeout=600)
    return json.loads(r.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", default=sys.executable)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--boundary", action="store_true", help="also the boundary, ISMCTS and vector figures")
    ap.add_argument("--state", action="store_true", help="also the rows of issue 40 (state bytes, copies, ISMCTS)")
    ap.add_argument("--c-state", metavar="OLD_TREE",
                    help="also issue 40's rows in C, against the C sources of this checkout of the old commit")
    ap.add_argument("--json", help="also write the figures of both builds to this file")
    a = ap.parse_args()
    best = {"old": {}, "new": {}}
    bench = {}
    if a.c_state:
        import tempfile

        tmp = tempfile.mkdtemp(prefix="state_bench_")
        bench["old"] = build_state_bench(a.c_state, os.path.join(tmp, "old"))
        bench["new"] = build_state_bench(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                         os.path.join(tmp, "new"))
    for k in range(a.rounds):
        order = ("old", "new") if k % 2 == 0 else ("new", "old")
        for which in order:
            res = run(getattr(a, which), k + 1)
            if a.boundary:
                res.update(run(getattr(a, which), k + 1, boundary=True))
            if a.state:
                res.update(run(getattr(a, which), k + 1, code=STATE))
            if bench:
                r = subprocess.run([bench[which]], capture_output=True, text=True, check=True, timeout=600)
                res.update(json.loads(r.stdout))
            for name, v in res.items():
                b = best[which].get(name)
                if b is None or (v > b if name.endswith("_per_s") else v < b):
                    best[which][name] = v
    for name in best["old"]:
        o, n = best["old"][name], best["new"][name]
        print(f"{name:36} old {o:12.2f}  new {n:12.2f}  new/old {n / o:6.3f}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(best, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
