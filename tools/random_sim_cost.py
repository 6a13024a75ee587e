"""What OpenSpiel's ``random_sim_test`` costs for each game, and how much of
that is OpenSpiel's own harness rather than our adapter.

    python tools/random_sim_cost.py [--shithead-sims 20] [--tt-sims 1]

Times ``pyspiel.random_sim_test(game, num_sims=..., serialize=False,
verbose=False)`` at 2 players, in one run, for:

* Shithead (``pyspiel.load_game("threes", {"players": 2})``), ``--shithead-sims``
  simulations (20 by default);
* Three Thirteen (``pyspiel.load_game("three_thirteen", {"players": 2})``),
  ``--tt-sims`` simulations (1 by default, at most 5: one takes about 40 s
  and ~10 GB);
* a baseline: a do-nothing pure-Python pyspiel game registered here
  (``random_sim_cost_noop``: sequential, 2 players, deterministic, one legal
  action at every node, the two seats alternating, returns 0; its
  observation string and tensor and its information state string are
  constants), as long as each Three Thirteen simulation was: one
  ``random_sim_test(..., num_sims=1)`` per Three Thirteen simulation, with
  the same number of nodes.

Why: a random two-player game of Three Thirteen is ~25,000 nodes (every dealt
card and stock draw is a chance node), Shithead's a few hundred. At every node
``random_sim_test`` clones the state and keeps the clone (``history``), and a
pyspiel state carries its whole action history, so the harness alone does
work and keeps memory that grow with the square of the game's length, whatever
the game. The baseline pays exactly that (and the Python trampolines of a
Python game) and nothing of ours, so TT/baseline says how much of Three
Thirteen's time is the adapter and engine, and TT/Shithead how much longer
the test is for Three Thirteen.

Nodes are counted with ``state_checker_fn``, which ``random_sim_test`` calls
at every non-terminal node and once at the terminal state: a simulation's
node count is its actions (chance and player) plus one. The baseline game is
made with exactly that many nodes, and the script checks its count. The
harness has its own RNG (``std::mt19937``, default seed, restarted by each
call), so each game's simulations are the same from run to run; there is no
seed to pass.

Each row is measured in a process of its own (``os.fork``; Linux), so that its
peak resident memory is its own (the child's ``ru_maxrss``, from ``os.wait4``)
and no row starts on a heap another row grew; the last line is
``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss``, the largest of them. The
baseline provides no information state tensor (our games do), so the harness
checks a little less for it.
"""
from __future__ import annotations

import argparse
import gc
import os
import pickle
import resource
import sys
import time
from typing import Any, Callable, List, Tuple

import numpy as np
import pyspiel

import threes.openspiel  # noqa: F401  (registers "threes" and "three_thirteen")

MAX_TT_SIMS = 5
MAX_SHITHEAD_SIMS = 200
NOOP_NAME = "random_sim_cost_noop"

# ------------------------------------------------------------ baseline game --
_NOOP_TYPE = pyspiel.GameType(
    short_name=NOOP_NAME,
    long_name="random_sim_test baseline: a game that does nothing",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"nodes": 2},
)


class NoopGame(pyspiel.Game):
    """``nodes`` nodes as random_sim_test counts them: ``nodes - 1`` decisions of one legal action each
    (action 0; seats 0, 1, 0, ...), then the terminal state."""

    def __init__(self, params=None):
        params = params or {}
        nodes = int(params.get("nodes", 2))
        if nodes < 2:
            raise ValueError(f"game parameter 'nodes' must be at least 2, not {nodes}")
        self.actions = nodes - 1
        info = pyspiel.GameInfo(num_distinct_actions=1, max_chance_outcomes=0, num_players=2,
                                min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=self.actions)
        super().__init__(_NOOP_TYPE, info, params)

    def new_initial_state(self):
        return NoopState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return NoopObserver()


class NoopState(pyspiel.State):
    """Its one attribute: the actions taken so far."""

    def __init__(self, game: NoopGame):
        super().__init__(game)
        self._t = 0

    def current_player(self):
        return pyspiel.PlayerId.TERMINAL if self._t >= self.get_game().actions else self._t % 2

    def _legal_actions(self, player):
        return [0]

    def _apply_action(self, action):
        self._t += 1

    def _action_to_string(self, player, action):
        return "0"

    def is_terminal(self):
        return self._t >= self.get_game().actions

    def returns(self):
        return [0.0, 0.0]

    def __str__(self):
        return str(self._t)


class NoopObserver:
    """A one-entry zero tensor and an empty string, whatever the state and seat."""

    def __init__(self):
        self.tensor = np.zeros(1, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        return ""


pyspiel.register_game(_NOOP_TYPE, NoopGame)


# ----------------------------------------------------------------- measuring --
def isolated(fn: Callable[[], Any]) -> Tuple[Any, float]:
    """``fn()`` run in a forked child process: its result (pickled back through a pipe) and the child's
    peak resident memory in GB (Linux reports ru_maxrss in KB). An exception in the child is a
    RuntimeError here, and so is a child that dies without answering (a crash, the OOM killer)."""
    sys.stdout.flush()
    sys.stderr.flush()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 0
        try:
            os.close(r)
            try:
                out = pickle.dumps(("ok", fn()))
            except BaseException as e:  # noqa: BLE001  (reported to the parent)
                out = pickle.dumps(("error", f"{type(e).__name__}: {e}"))
            with os.fdopen(w, "wb") as f:
                f.write(out)
        except BaseException:  # noqa: BLE001
            code = 1
        finally:
            os._exit(code)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    _, status, usage = os.wait4(pid, 0)
    if not data:
        raise RuntimeError(f"the measuring process died without an answer (wait status {status})")
    kind, value = pickle.loads(data)
    if kind == "error":
        raise RuntimeError(f"in the measuring process: {value}")
    return value, usage.ru_maxrss / 1024.0 ** 2


def timed_sims(game: "pyspiel.Game", sims: int) -> Tuple[float, List[int]]:
    """random_sim_test's wall-clock seconds for ``sims`` simulations of ``game`` and each simulation's node
    count (state_checker_fn calls: every non-terminal node, then the terminal state, which ends a
    simulation)."""
    counts: List[int] = []
    seen = [0]

    def checker(state: "pyspiel.State") -> None:
        seen[0] += 1
        if state.is_terminal():
            counts.append(seen[0])
            seen[0] = 0

    gc.collect()
    t0 = time.perf_counter()
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False, state_checker_fn=checker)
    seconds = time.perf_counter() - t0
    if len(counts) != sims or seen[0]:
        raise RuntimeError(f"counted {len(counts)} finished simulations of {sims} ({seen[0]} nodes left over)")
    return seconds, counts


def main(argv: List[str] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shithead-sims", type=int, default=20, help=f"Shithead simulations (1..{MAX_SHITHEAD_SIMS})")
    ap.add_argument("--tt-sims", type=int, default=1,
                    help=f"Three Thirteen simulations, and baseline simulations (1..{MAX_TT_SIMS})")
    a = ap.parse_args(argv)
    if not 1 <= a.shithead_sims <= MAX_SHITHEAD_SIMS:
        ap.error(f"--shithead-sims must be in 1..{MAX_SHITHEAD_SIMS}")
    if not 1 <= a.tt_sims <= MAX_TT_SIMS:
        ap.error(f"--tt-sims must be in 1..{MAX_TT_SIMS} (each one is ~40 s and ~10 GB)")

    rows = []  # (game, sims, nodes per sim, seconds per sim, the row's peak RSS in GB)

    def row(name: str, sims: int, seconds: float, counts: List[int], rss: float) -> Tuple[float, float]:
        nodes, per_sim = sum(counts) / sims, seconds / sims
        rows.append((name, sims, nodes, per_sim, rss))
        print(f"  {name}: {sims} sims, {per_sim:.3f} s/sim, {nodes:.0f} nodes/sim, peak RSS {rss:.2f} GB",
              file=sys.stderr, flush=True)
        return nodes, per_sim

    (sh_seconds, sh_counts), rss = isolated(
        lambda: timed_sims(pyspiel.load_game("threes", {"players": 2}), a.shithead_sims))
    sh_nodes, sh_per = row("Shithead", a.shithead_sims, sh_seconds, sh_counts, rss)

    (tt_seconds, tt_counts), rss = isolated(
        lambda: timed_sims(pyspiel.load_game("three_thirteen", {"players": 2}), a.tt_sims))
    tt_nodes, tt_per = row("Three Thirteen", a.tt_sims, tt_seconds, tt_counts, rss)

    def baseline() -> Tuple[float, List[int]]:
        seconds, counts = 0.0, []
        for n in tt_counts:  # one baseline simulation as long as each Three Thirteen one
            s, c = timed_sims(pyspiel.load_game(NOOP_NAME, {"nodes": n}), 1)
            if c != [n]:
                raise RuntimeError(f"the baseline of {n} nodes visited {c[0]}")
            seconds += s
            counts += c
        return seconds, counts

    (base_seconds, base_counts), rss = isolated(baseline)
    base_nodes, base_per = row("baseline (no-op)", a.tt_sims, base_seconds, base_counts, rss)

    print("pyspiel.random_sim_test(game, num_sims, serialize=False, verbose=False), 2 players")
    print(f"{'game':<18} {'sims':>4} {'nodes/sim':>10} {'s/sim':>9} {'us/node':>8} {'peak RSS':>11}")
    for name, sims, nodes, per, rss in rows:
        print(f"{name:<18} {sims:>4} {nodes:>10.0f} {per:>9.3f} {per / nodes * 1e6:>8.1f} {rss:>8.2f} GB")
    print(f"TT / Shithead: {tt_per / sh_per:.1f}x the time per simulation "
          f"({tt_nodes / sh_nodes:.1f}x the nodes, {tt_per / tt_nodes / (sh_per / sh_nodes):.1f}x the time per node)")
    print(f"TT / baseline: {tt_per / base_per:.2f}x the time per simulation "
          f"(the harness alone is {base_per / tt_per:.0%} of TT's time; TT - baseline = {tt_per - base_per:.2f} s/sim)")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0 ** 2
    print(f"peak resident memory (largest measuring process): {peak:.2f} GB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
