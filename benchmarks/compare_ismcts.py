"""ISMCTS speed (and Shithead answers) of two builds of threes, measured in one run.

    python benchmarks/compare_ismcts.py --old OLD_VENV/bin/python --new NEW_VENV/bin/python

Each interpreter runs this file as a worker (``--worker``, in a subprocess
started from a neutral directory so that it imports its own installed
``threes``); the driver sends both workers the same chunks of positions in
ABBA order (old, new, new, old, ...), one worker at a time, so slow drifts of
a shared machine fall on both builds alike. Only the searches are timed
(``ISMCTSBot.search``, position set-up excluded).

Shithead: 4-player ``threes`` positions reached by random play (0..59 moves),
ISMCTSBot(iterations, seed) on each; the two builds must give the same best
action and the same root children (action, visits, mean return) on every
position, since the search draws the same random numbers in the same order.
Three Thirteen: 3-player positions reached by greedy play (0..299 moves, so
later rounds are included), ISMCTSBot(iterations, seed); the builds search
differently (the old one in Python, with its own random stream), so only the
speed is compared. Positions where the mover has a single legal action are
skipped (the bot does not search them).

Prints iterations per second of each build and the ratios; exits non-zero
when a Shithead answer differs.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time


# ------------------------------------------------------------------ worker --

def _positions(game: str, chunk: int, count: int):
    import threes
    import threes.three_thirteen as tt

    out = []
    k = 0
    while len(out) < count and k < 50 * count:
        seed = 1_000_003 * chunk + k
        k += 1
        r = random.Random(seed)
        if game == "shithead":
            s = threes.Game(num_players=4).new_initial_state(seed=seed)
            for _ in range(r.randrange(60)):
                if s.is_terminal():
                    break
                s.apply_action(r.choice(s.legal_actions()))
        else:
            s = tt.Game(num_players=3).new_initial_state(seed=seed)
            for _ in range(r.randrange(300)):
                if s.is_terminal():
                    break
                s.apply_action(s._policy_action(1, r.getrandbits(64)))
        if not s.is_terminal() and len(s.legal_actions()) > 1:
            out.append((seed, s))
    return out


def _worker() -> None:
    from threes.bots import ISMCTSBot

    for line in sys.stdin:
        req = json.loads(line)
        positions = _positions(req["game"], req["chunk"], req["positions"])
        secs, iters, answers = 0.0, 0, []
        for seed, s in positions:
            bot = ISMCTSBot(req["iterations"], seed=seed, **({"rollout_policy": req["policy"]}
                                                              if req["game"] == "shithead" else {}))
            t0 = time.perf_counter()
            res = bot.search(s)
            secs += time.perf_counter() - t0
            iters += res["iterations"]
            answers.append([res["action"], sorted([a, v, round(q, 12)] for a, v, q in res["children"])])
        sys.stdout.write(json.dumps({"seconds": secs, "iterations": iters, "answers": answers}) + "\n")
        sys.stdout.flush()


# ------------------------------------------------------------------ driver --

class _Worker:
    def __init__(self, python: str):
        self.python = python
        self.proc = subprocess.Popen([python, os.path.abspath(__file__), "--worker"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, cwd="/")

    def run(self, **req):
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the worker of {self.python} died")
        return json.loads(line)

    def close(self):
        assert self.proc.stdin
        self.proc.stdin.close()
        self.proc.wait()


def main() -> int:
    if sys.argv[1:] == ["--worker"]:
        _worker()
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", required=True, help="python of the old build")
    ap.add_argument("--new", default=sys.executable, help="python of the new build (default: this one)")
    ap.add_argument("--sh-chunks", type=int, default=8)
    ap.add_argument("--sh-positions", type=int, default=40, help="Shithead positions per chunk")
    ap.add_argument("--sh-iterations", type=int, default=1000)
    ap.add_argument("--sh-policy", default="random", help="Shithead rollout policy: random, greedy or heuristic")
    ap.add_argument("--tt-chunks", type=int, default=4)
    ap.add_argument("--tt-positions", type=int, default=15, help="Three Thirteen positions per chunk")
    ap.add_argument("--tt-iterations", type=int, default=200)
    args = ap.parse_args()

    workers = {"old": _Worker(args.old), "new": _Worker(args.new)}
    status = 0
    try:
        for game, chunks, positions, iterations in (
                ("shithead", args.sh_chunks, args.sh_positions, args.sh_iterations),
                ("three_thirteen", args.tt_chunks, args.tt_positions, args.tt_iterations)):
            if chunks < 1:
                continue
            tot = {"old": [0.0, 0], "new": [0.0, 0]}
            mismatches = compared = 0
            for c in range(chunks):
                order = ("old", "new") if c % 2 == 0 else ("new", "old")
                res = {}
                for name in order:
                    res[name] = workers[name].run(game=game, chunk=c, positions=positions, iterations=iterations,
                                                  policy=args.sh_policy)
                    tot[name][0] += res[name]["seconds"]
                    tot[name][1] += res[name]["iterations"]
                if game == "shithead":
                    for a, b in zip(res["old"]["answers"], res["new"]["answers"]):
                        compared += 1
                        mismatches += a != b
            rate = {k: v[1] / v[0] for k, v in tot.items()}
            extra = f", rollout_policy={args.sh_policy!r}" if game == "shithead" else ""
            print(f"{game}: {chunks} chunks x {positions} positions, ISMCTSBot({iterations}{extra})")
            for k in ("old", "new"):
                print(f"  {k}: {tot[k][1]} iterations in {tot[k][0]:.2f} s = {rate[k]:,.0f} iterations/s")
            print(f"  new / old: {rate['new'] / rate['old']:.3f}")
            if game == "shithead":
                print(f"  answers (best action and root children) equal on {compared - mismatches} of {compared}"
                      " positions")
                if mismatches or not compared:
                    status = 1
    finally:
        for w in workers.values():
            w.close()
    return status


if __name__ == "__main__":
    sys.exit(main())
