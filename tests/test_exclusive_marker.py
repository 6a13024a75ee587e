"""The ``exclusive`` marker (conftest.py): under pytest-xdist a test marked exclusive runs while no other test
runs (the web load test measures a p99 that the tests beside it would change). A toy suite with the repository's
conftest.py: an exclusive test among sleeping ones on two workers overlaps none of them, and tests run on both
sides of it."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

TOY = '''
import json, time, pytest
LOG = {log!r}
def rec(name, t0):
    with open(LOG, "a") as f:
        f.write(json.dumps([name, t0, time.time()]) + "\\n")
@pytest.mark.parametrize("i", range(3))
def test_before(i):
    t0 = time.time(); time.sleep(0.4); rec(f"b{{i}}", t0)
@pytest.mark.exclusive
def test_alone():
    t0 = time.time(); time.sleep(1.0); rec("X", t0)
@pytest.mark.parametrize("i", range(8))
def test_after(i):
    t0 = time.time(); time.sleep(0.3); rec(f"a{{i}}", t0)
'''


@pytest.mark.full  # the marker serves the web load test, which only the full suite runs
def test_an_exclusive_test_overlaps_no_other(tmp_path):
    shutil.copy(ROOT / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers = exclusive: alone\n")
    log = tmp_path / "log.txt"
    (tmp_path / "test_toy.py").write_text(TOY.format(log=str(log)))
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "2", "-p", "no:cacheprovider", "test_toy.py"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(rows) == 12
    x = next(row for row in rows if row[0] == "X")
    overlapping = [row[0] for row in rows if row[0] != "X" and row[1] < x[2] and row[2] > x[1]]
    assert overlapping == []
    assert any(row[2] <= x[1] for row in rows) and any(row[1] >= x[2] for row in rows)
