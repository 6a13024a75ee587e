"""Engine speed of two builds of threes, measured in one run: Shithead random
rollouts (ns/move), Three Thirteen greedy rollouts (games/s) and the meld
solver (us per 14-card hand).

    python benchmarks/compare_builds.py --old OLD_VENV/bin/python --new NEW_VENV/bin/python [--rounds 6]

Each round runs the same measurements in the old build, then the new one (and
the next round the other way round), each in its own subprocess started from
a neutral directory so that it imports its own installed ``threes``; the
figure of each build is its best round, and the ratios are new / old (above 1
is faster for games/s, below 1 is faster for ns and us).
"""
from __future__ import annotations

import argparse
import json
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


def run(python: str, seed: int) -> dict:
    code = MEASURE.replace("SEED", str(seed))
    r = subprocess.run([python, "-c", code], capture_output=True, text=True, cwd="/", check=True, timeout=600)
    return json.loads(r.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", default=sys.executable)
    ap.add_argument("--rounds", type=int, default=6)
    a = ap.parse_args()
    best = {"old": {}, "new": {}}
    for k in range(a.rounds):
        order = ("old", "new") if k % 2 == 0 else ("new", "old")
        for which in order:
            res = run(getattr(a, which), k + 1)
            for name, v in res.items():
                b = best[which].get(name)
                if b is None or (v > b if name.endswith("_per_s") else v < b):
                    best[which][name] = v
    for name in best["old"]:
        o, n = best["old"][name], best["new"][name]
        print(f"{name:24} old {o:10.2f}  new {n:10.2f}  new/old {n / o:6.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
