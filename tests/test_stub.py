"""The hand-written stub python/threes/_core.pyi matches the compiled module,
and the package ships it with py.typed (PEP 561)."""
import pathlib
import subprocess
import sys

import threes


def test_stub_matches_the_extension():
    r = subprocess.run([sys.executable, "-m", "mypy.stubtest", "threes._core"], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]


def test_package_ships_py_typed_and_the_stub():
    root = pathlib.Path(threes.__file__).parent
    assert (root / "py.typed").is_file()
    assert (root / "_core.pyi").is_file()
