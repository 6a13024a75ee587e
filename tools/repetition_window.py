#!/usr/bin/env python3
"""python tools/repetition_window.py: how many random 4-player threes games with repetition_limit=3 end
differently when only the newest 64 positions of a stretch are counted (the
ring alone, before rep_log.h) than with the exact count (the engine now)."""
import sys
from pathlib import Path

import threes
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "shithead"))
from test_repetition_exact import Ref, _end, WINDOW
from threes.shithead import _core
from threes.shithead.rules import Rules
g = threes.Game(4, Rules.preset("threes", repetition_limit=3))
n, seed = 300, 1
r = threes.rollouts(g, n, "random", seed, threads=1)
differ = exact_st = 0
for i in range(n):
    tr = g.new_initial_state(_core.batch_seed(seed, i))._trace([0]*4, seed, i)
    e, w = _end(tr, Ref(3)), _end(tr, Ref(3, WINDOW))
    assert (int(r.moves[i]), bool(r.stalemate[i])) == e
    differ += e != w
    exact_st += e[1]
print(f"{n} games: {exact_st} end as exact stalemates; the ring alone would end {differ} of them differently; the engine agrees with the exact count in all {n}")
