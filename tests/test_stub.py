"""The hand-written stubs python/threes/<game>/_core.pyi match the compiled
modules, and the package ships them with py.typed (PEP 561)."""
import pathlib
import subprocess
import sys

import pytest

import threes

MODULES = ["threes.shithead._core", "threes.three_thirteen._core", "threes._vector", "threes._engine"]


@pytest.mark.parametrize("module", MODULES)
def test_stub_matches_the_extension(module):
    r = subprocess.run([sys.executable, "-m", "mypy.stubtest", module], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]


def test_package_ships_py_typed_and_the_stubs():
    root = pathlib.Path(threes.__file__).parent
    assert (root / "py.typed").is_file()
    for module in MODULES:
        assert (root.parent / (module.replace(".", "/") + ".pyi")).is_file()
