"""One version, defined once (python/threes/_version.py): the installed
distribution's metadata, ``threes.__version__`` and ``threes --version``
all give it, and pyproject.toml does not repeat it."""
import importlib.metadata
import pathlib
import re
import subprocess
import sys

import threes

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_version_is_a_release_version():
    assert re.fullmatch(r"\d+\.\d+\.\d+((a|b|rc)\d+)?(\.dev\d+)?", threes.__version__), threes.__version__


def test_metadata_and_module_agree():
    assert importlib.metadata.version("threes-core") == threes.__version__


def test_cli_prints_the_version():
    for argv in ([sys.executable, "-m", "threes", "--version"],):
        r = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip() == f"threes-core {threes.__version__}"


def test_the_version_is_written_once():
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'^dynamic = \["version"\]', pyproject, re.M), "pyproject.toml must take the version from the build"
    assert not re.search(r"^version\s*=", pyproject, re.M), "pyproject.toml repeats the version"
    definitions = [p for p in (ROOT / "python" / "threes").rglob("*.py")
                   if re.search(r"^__version__\s*=", p.read_text(), re.M)]
    assert [p.name for p in definitions] == ["_version.py"], definitions
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert f"## [{threes.__version__}]" in changelog, "CHANGELOG.md has no entry for this version"
