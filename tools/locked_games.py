"""Why bot games still reach the move cap: how many of them are stuck in a
position that no sequence of moves can finish (RULES.md section 7, "Games
that cannot end").

    python tools/locked_games.py [--games 2000] [--tries 20] [--moves 20000]

For each preset, table size and policy (every seat the same bot), plays
`--games` games move by move with the bot (threes.bots, the same C policy as
rollouts, its own random stream), stopping one move before the cap. A game
still on there counts as truncated; it counts as *locked* when none of
`--tries` random continuations of `--moves` more moves from that position
(uniform random play tries every legal move sooner or later) finishes it. Prints
truncated and locked shares per row, and the same for all-random seats.
"""
from __future__ import annotations

import argparse

import numpy as np

import threes
from threes.bots import make_bot
from threes.shithead.rules import Rules


def _rules(name: str, n: int) -> Rules:
    return Rules.preset(name, cards_per_zone=2) if n == 6 and name != "threes" else Rules.preset(name)


def _locked(state: threes.State, tries: int, moves: int, seed: int) -> bool:
    d = state.to_dict()
    d["max_moves"] = state.move_number() + moves
    longer = threes.State.from_dict(d)
    r = threes.rollouts(longer, tries, policy="random", seed=seed)
    return bool(r.truncated.all())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--tries", type=int, default=20)
    ap.add_argument("--moves", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"{args.games} games per row; locked: no finish in {args.tries} random continuations of {args.moves} moves")
    for name in ("threes", "dutch", "classic"):
        for n in (2, 3, 4, 6):
            game = threes.Game(n, _rules(name, n))
            for policy in ("random", "greedy", "heuristic"):
                truncated = locked = 0
                for g in range(args.games):
                    bots = [make_bot(policy, seed=args.seed * 1_000_003 + g * 16 + q) for q in range(n)]
                    s = game.new_initial_state(seed=args.seed * 7_919 + g)
                    cap = s.to_dict()["max_moves"]
                    while not s.is_terminal() and s.move_number() < cap - 1:
                        s.apply_action(bots[s.current_player()].step(s))
                    if s.is_terminal():
                        continue
                    truncated += 1
                    locked += _locked(s, args.tries, args.moves, seed=g)
                print(f"{name:8s} {n}p {policy:9s} truncated {100 * truncated / args.games:5.2f}%  "
                      f"locked {100 * locked / args.games:5.2f}%", flush=True)


if __name__ == "__main__":
    main()
