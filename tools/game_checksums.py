"""Checksums of many games of every game and preset, for checking that a
change of the engine keeps the same games for the same seeds.

    python tools/game_checksums.py            # prints one line per game/preset
    diff <(old/bin/python tools/game_checksums.py) <(new/bin/python tools/game_checksums.py)

Only the public API that every build since the first has is used:
``threes.rollouts`` (C batches, every policy), full games played move by move
through ``State.apply_action`` with a Python RNG (histories and returns), and
``threes.three_thirteen.rollouts``.
"""
import hashlib
import random
import sys

import numpy as np

import threes
from threes import three_thirteen as tt


def digest(*arrays) -> str:
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]


def move_by_move(game, games: int, seed: int) -> str:
    h = hashlib.sha256()
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + g)
        state = game.new_initial_state(seed=seed + g)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        h.update(repr((state.history(), [round(r, 9) for r in state.returns()])).encode())
    return h.hexdigest()[:16]


def main(games: int = 3000) -> None:
    for preset in ("threes", "classic", "dutch"):
        for n in (2, 4, 6):
            if n > threes.Rules.preset(preset).max_players():
                continue
            game = threes.Game(n, rules=preset)
            for policy in ("random", "greedy", "heuristic"):
                r = threes.rollouts(game, games, policy=policy, seed=7, threads=2)
                print(f"shithead {preset} {n}p {policy:9} rollouts {digest(r.places, r.moves, r.truncated)}")
            print(f"shithead {preset} {n}p move-by-move     {move_by_move(game, 50, 11)}")
    for n in (2, 3, 4):
        game = tt.Game(n)
        for policy in ("random", "greedy"):
            count = games // 10 if policy == "random" else games // 3
            r = tt.rollouts(game, count, policy=policy, seed=5)
            print(f"three_thirteen {n}p {policy:9} rollouts {digest(r.totals, r.moves, r.truncated)}")
        print(f"three_thirteen {n}p move-by-move     {move_by_move(game, 3, 13)}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3000)
