"""The workload run under valgrind by run_memcheck.py: every entry point of
the Python API on GAMES random games (argv[1]), threads included."""
import pickle
import random
import sys

import threes

games = int(sys.argv[1])
for preset, players in (("threes", 4), ("classic", 3), ("dutch", 2)):
    game = threes.Game(players, preset, max_moves=3000)
    for seed in range(games):
        s = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            a = rng.choice(s.legal_actions())
            s.action_to_string(a)
            s.apply_action(a)
            if s.move_number() % 40 == 0:
                s = pickle.loads(pickle.dumps(s))
                s._check()
                s.clone().legal_actions_mask()
                str(s)
        for bad in (-1, 10**9, 0):
            try:
                s.apply_action(bad)
            except ValueError:
                pass
        try:
            threes.State.from_dict({**s.to_dict(), "pile": ["Zz"]})
        except ValueError:
            pass
    r = threes.rollouts(game, 20 * games, policy=["random", "greedy", "heuristic", "random"][:players], seed=1,
                        threads=2)
    threes.rollout(game.new_initial_state(1), seed=2)
print("workload done", games)
