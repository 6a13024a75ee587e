"""Issue 40's rows against a build of the baseline commit, measured in the
same run (``benchmarks/compare_builds.py --state``: the state's bytes, the C
copy, clone/child/resample_from_infostate, ISMCTS where the issue measures it,
the repetition rule's cost, both vector envs; with the baseline's sources at
hand, ``--c-state``: the copy, child and resample in C, benchmarks/state_bench.c
compiled against both trees). Run:

    pytest benchmarks/test_bench_baseline.py --benchmark-only -s

The baseline build is ``THREES_BASELINE_PYTHON`` (an interpreter with threes
installed at the baseline commit) when set; otherwise this test builds one
once, from this repository's history, into ``build/baseline-<commit>/``
(``git worktree`` of ``THREES_BASELINE_COMMIT``, default ``48ed460``, and a
virtual environment with ``pip install .``: a few minutes the first time).
Each row is printed as old, new and new / old, and put among the run's
figures; nothing here asserts a time.
"""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
COMMIT = os.environ.get("THREES_BASELINE_COMMIT", "48ed460")
ROUNDS = int(os.environ.get("THREES_BASELINE_ROUNDS", "3"))


def _baseline_python() -> str:
    given = os.environ.get("THREES_BASELINE_PYTHON")
    if given:
        return given
    home = ROOT / "build" / f"baseline-{COMMIT}"
    python = home / "venv" / "bin" / "python"
    if python.exists():
        return str(python)
    src = home / "src"
    if not src.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-f", str(src), COMMIT],
                       check=True, capture_output=True, text=True)
    subprocess.run([sys.executable, "-m", "venv", str(home / "venv")], check=True)
    pip = [str(python), "-m", "pip", "install", "-q"]
    subprocess.run(pip + ["--upgrade", "pip"], check=True)
    subprocess.run(pip + ["numpy", "gymnasium"], check=True)  # what its threes.vector imports
    subprocess.run(pip + [str(src)], check=True)
    return str(python)


def _baseline_tree():
    """The baseline's sources (THREES_BASELINE_TREE, or the worktree made
    for its build), or None."""
    given = os.environ.get("THREES_BASELINE_TREE")
    src = pathlib.Path(given) if given else ROOT / "build" / f"baseline-{COMMIT}" / "src"
    return str(src) if (src / "src" / "threes_core").is_dir() else None


def test_issue_40_rows_against_the_baseline_build(benchmark, figures):
    old = _baseline_python()
    tree = _baseline_tree()
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "figures.json"

        def run():
            subprocess.run([sys.executable, str(ROOT / "benchmarks" / "compare_builds.py"), "--old", old, "--new",
                            sys.executable, "--rounds", str(ROUNDS), "--state", "--json", str(out)]
                           + (["--c-state", tree] if tree else []),
                           check=True, timeout=3600)

        benchmark.pedantic(run, rounds=1, iterations=1)
        best = json.loads(out.read_text())
    assert set(best["old"]) == set(best["new"]) and "sh_state_bytes_4p" in best["new"]
    for name, new in best["new"].items():
        figures[f"vs {COMMIT}: {name} (new / old)"] = (new / best["old"][name], "x")
    benchmark.extra_info.update(best)
