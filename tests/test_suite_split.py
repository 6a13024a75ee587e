"""``pytest --full-only`` (conftest.py): CI runs it and, against the installed wheel, the quick suite
(``.ci/wheel.sh``), so the two together must be the full suite, each test once but for the files the
quick suite runs smaller (the fuzz files, at a quarter of their examples), which --full-only runs at
their full size. Checked on the real collections of two folders: one with full-only folders and
marked tests, one with the fuzz file."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _collect(*flags):
    r = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *flags],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    return {line for line in r.stdout.splitlines() if "::" in line and not line.startswith(" ")}


@pytest.mark.full  # collects the full-only folders, whose imports need the full extra
def test_the_quick_suite_and_full_only_are_the_full_suite():
    quick, only, full = _collect(), _collect("--full-only"), _collect("--full")
    assert quick and only and full
    assert quick | only == full, (sorted(full - (quick | only))[:5], sorted((quick | only) - full)[:5])
    both = quick & only
    assert both and all(t.startswith("tests/shithead/test_fuzz.py::") for t in both), sorted(both)[:5]
    # what only the full suite runs: the full-only folders and the marked tests
    assert any(t.startswith("tests/web/") for t in only) and not any(t.startswith("tests/web/") for t in quick)
    assert any(re.match(r"tests/shithead/test_random_sim\.py::", t) for t in only)
