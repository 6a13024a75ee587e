"""The workload run under valgrind by run_memcheck.py: every entry point of
the Python API on GAMES random games (argv[1]), threads included, and the
log of repetition keys (repetition_limit, shithead/rep_log.h) in stretches
longer than the state's ring: shared by clones, copied on write, saved and
loaded, held by batches, forgotten by a resample; and, for every game, the
generic binding (threes._engine.GameStateBase): clones and children made
and dropped past the freed-state lists, apply/undo chains, events, masks,
tensors and the information-state text."""
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
rules = threes.Rules.preset("threes", repetition_limit=4)
game = threes.Game(4, rules, max_moves=3000)
for seed in range(games):
    s = game.new_initial_state(seed)
    rng = random.Random(seed)
    kept = []
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
        if len(s._repetitions()) > 70 and len(kept) < 4:
            kept.append(s.clone())
            threes.State.from_dict(s.to_dict())._check()
            pickle.loads(pickle.dumps(s))
            s.resample_from_infostate(0, seed=1)
            threes.rollouts(s, 10, policy=["random", "greedy", "random", "heuristic"], seed=2, threads=2)
            threes.rollout(s, "random", 3)
    for k in kept:  # each moves on alone: copies the shared log first
        while not k.is_terminal():
            k.apply_action(rng.choice(k.legal_actions()))
threes.rollouts(game, 20 * games, policy="random", seed=1, threads=2)
from threes import three_thirteen as tt  # noqa: E402

for g in (threes.Game(3), tt.Game(2)):
    for seed in range(games):
        s = g.new_initial_state(seed)
        rng = random.Random(seed)
        live = []
        for step in range(300):
            if s.is_terminal():
                break
            move = rng.choice(s.legal_moves())
            s.apply(move)
            if step % 3 == 0:
                s.undo()
                s.apply(move)
            live.append(s.clone() if step % 2 or s.is_terminal() else s.child(rng.choice(s.legal_actions())))
            if len(live) > 200 or rng.random() < 0.3:
                del live[rng.randrange(len(live)):]
            s.legal_actions_mask()
            s.observation_tensor(step % s.num_players())
            s.information_state_string(0)
        del live
print("workload done", games)
