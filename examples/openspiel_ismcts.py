"""OpenSpiel's own ISMCTS bot (open_spiel.python.algorithms.ismcts) on the
registered "threes" game, with the engine's C rollouts as its evaluator,
against threes' greedy bot. Two players; the seats alternate. Needs the
openspiel extra (``pip install ".[openspiel]"``).

Running time on a 2-core machine: OpenSpiel's ISMCTS is pure Python; the
defaults (2 games, 25 simulations a move) took 24 s here, and a game at 100
simulations a move takes one to four minutes (233 s here with other work
running). A progress line every 50 moves and after each game.

    python examples/openspiel_ismcts.py                          # about 25 s
    python examples/openspiel_ismcts.py --games 8 --simulations 100   # 10 to 30 minutes
"""
import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

import threes
import threes.openspiel  # registers "threes" with pyspiel
from threes.openspiel import ThreesRolloutEvaluator


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--simulations", type=int, default=25)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    game = pyspiel.load_game("threes", {"players": 2})
    wins, t0 = 0, time.time()
    for g in range(args.games):
        rng = np.random.RandomState(args.seed + g)
        seat = g % 2  # ISMCTS's seat
        bot = ismcts.ISMCTSBot(game, ThreesRolloutEvaluator(1, seed=args.seed + g), uct_c=1.0,
                               max_simulations=args.simulations, random_state=rng)
        greedy = threes.bots.GreedyBot(seed=args.seed + g)
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node() and state.inner.move_number() % 50 == 49:
                print(f"  game {g + 1}: move {state.inner.move_number() + 1} ({time.time() - t0:.0f} s)", flush=True)
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
            elif state.current_player() == seat:
                state.apply_action(bot.step(state))
            else:
                p = state.current_player()
                state.apply_action(greedy.step(state.inner.resample_from_infostate(p, int(rng.randint(1 << 30)))))
        won = state.returns()[seat] > 0
        wins += won
        print(f"game {g + 1}: ISMCTS in seat {seat} {'won' if won else 'lost'} "
              f"({state.inner.move_number()} moves, {time.time() - t0:.0f} s)", flush=True)
    print(f"OpenSpiel ISMCTS ({args.simulations} simulations, C rollouts) won {wins} of {args.games} "
          f"two-player games against greedy")


if __name__ == "__main__":
    main()
