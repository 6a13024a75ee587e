"""The examples run as a user runs them (python examples/NAME.py ...), at tiny sizes: each prints the
progress lines and the result its docstring promises and exits 0. (examples/python_ismcts.py has its own
tests in test_python_ismcts_example.py; examples/ppo.py needs PyTorch, so it runs in the full suite.)"""
from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def run(name: str, *args: str, timeout: float = 120) -> str:
    done = subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    return done.stdout


def test_every_example_states_its_running_time_at_the_top():
    for path in sorted(EXAMPLES.glob("*.py")):
        doc = path.read_text(encoding="utf-8").split('"""')[1]
        assert "Running time on a 2-core machine" in doc, path.name


def test_openspiel_ismcts_prints_progress_and_the_result():
    out = run("openspiel_ismcts.py", "--games", "1", "--simulations", "2")
    lines = out.splitlines()
    assert any(line.startswith("  game 1: move 50 (") for line in lines), out
    assert any(line.startswith("game 1: ISMCTS in seat 0 ") for line in lines), out
    assert lines[-1].startswith("OpenSpiel ISMCTS (2 simulations, C rollouts) won ") and \
        lines[-1].endswith(" of 1 two-player games against greedy"), out


def test_tournament_prints_a_line_per_deal_and_the_table():
    out = run("tournament.py", "--deals", "2", "--iterations", "20", "--workers", "1")
    assert "| bot |" in out and "ismcts-20" in out, out
    assert "2 duplicate deals" in out, out


@pytest.mark.full  # PyTorch: the full suite's test-full extra has it (stable-baselines3 needs it)
def test_ppo_trains_prints_each_update_and_saves(tmp_path):
    save = tmp_path / "ppo"
    out = run("ppo.py", "--total-steps", "4096", "--num-envs", "32", "--num-steps", "32", "--save", str(save),
              timeout=300)
    updates = [line for line in out.splitlines() if line.startswith("update ")]
    assert updates and updates[-1].startswith("update 4/4: 4,096 steps"), out  # (an update with no episode
    assert "trained 4,096 learner steps" in out, out                              # ended prints no line)
    assert (tmp_path / "ppo.csv").is_file() and (tmp_path / "ppo.pt").is_file()
