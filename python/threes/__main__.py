"""python -m threes: play one seeded game with uniformly random moves and
print the final table and the finishing order."""
from __future__ import annotations

import argparse
import random
import sys
from typing import List, Optional

from .game import Game
from .rules import PRESETS


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m threes", description=__doc__)
    ap.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    ap.add_argument("--rules", default="threes", choices=PRESETS, help="rule preset (default threes)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the deal and of the random moves (default 1)")
    ap.add_argument("--max-moves", type=int, default=None, help="move cap (default: the engine's)")
    ap.add_argument("--verbose", action="store_true", help="print every move")
    args = ap.parse_args(argv)
    try:
        game = Game(num_players=args.players, rules=args.rules, max_moves=args.max_moves)
    except (TypeError, ValueError, OverflowError) as exc:
        ap.error(str(exc))
    state = game.new_initial_state(seed=args.seed)
    rng = random.Random(args.seed)
    print(f"{game!r}, seed {args.seed}\n")
    print(state, "\n")
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        if args.verbose:
            print(f"move {state.move_number()}: seat {state.current_player()} {state.action_to_string(action)}")
        state.apply_action(action)
    print(state)
    print(f"\nreturns: {', '.join(f'{r:+.3f}' for r in state.returns())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
