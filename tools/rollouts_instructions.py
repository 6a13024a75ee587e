"""Calls of ``rollouts(finished_state, 1)`` in a loop, to count their
instructions under callgrind (the README's boundary section). Run it with
N = 0 and with N = 20000 and divide the difference of the totals by N:

    OPENBLAS_NUM_THREADS=1 valgrind --tool=callgrind python tools/rollouts_instructions.py sh 0
    OPENBLAS_NUM_THREADS=1 valgrind --tool=callgrind python tools/rollouts_instructions.py sh 20000

("sh": Shithead, 4 players, random; "tt": Three Thirteen, 3 players,
greedy). OPENBLAS_NUM_THREADS=1 keeps NumPy's BLAS threads from spinning
into the count.
"""
import random
import sys

import threes
from threes import three_thirteen as tt


def finished(game):
    """A state at the end of one random game."""
    s = threes.Game(4, "threes").new_initial_state(3) if game == "sh" else tt.Game(3).new_initial_state(11)
    rng = random.Random(1)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def main(argv):
    if len(argv) != 2 or argv[0] not in ("sh", "tt") or not argv[1].isdigit():
        sys.exit("usage: rollouts_instructions.py sh|tt N")
    game, n = argv[0], int(argv[1])
    s = finished(game)
    call = (lambda i: threes.rollouts(s, 1, "random", i)) if game == "sh" else (lambda i: tt.rollouts(s, 1, "greedy", i))
    for i in range(n):
        call(i)


if __name__ == "__main__":
    main(sys.argv[1:])
