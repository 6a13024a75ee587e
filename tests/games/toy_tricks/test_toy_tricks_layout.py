"""The proof that a game plugs in through the registry alone: every file Toy Tricks needed lives in its
own folder (tests/games/toy_tricks: its C, its binding, its package and its registration). The files
outside it that it needed are listed here, and the test fails if that list grows: none names the game
(conftest.py registers every tests/games/*/register.py, tests/games/build.py builds every
tests/games/<name>); only the documentation walks through it as the example."""
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[3]
FOLDER = "tests/games/toy_tricks/"
NAMES = re.compile(r"toy[_ -]?tricks", re.IGNORECASE)

#: Shared files that may name the toy game: the docs that use it as the example of adding a game.
DOCS = {"README.md", "CHANGELOG.md", "docs/adding_a_game.md"}
#: Shared files the toy game needs without naming it (the registration and the build of test games).
NEEDED = {"conftest.py", "tests/games/build.py", "tests/games/__init__.py", "tests/contract_hooks.py"}


def _tracked():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [p for p in out.splitlines() if not p.startswith(FOLDER)]


def test_no_shared_file_names_the_toy_game_but_its_docs():
    naming = set()
    for path in _tracked():
        f = ROOT / path
        if f.suffix in (".png", ".npz", ".ico", ".whl", ".gz") or not f.is_file():
            continue
        if NAMES.search(f.read_text(errors="replace")):
            naming.add(path)
    naming.discard("tests/games/toy_tricks")  # (never: a folder is not a file)
    assert naming <= DOCS, f"shared files that name the toy game: {sorted(naming - DOCS)}"
    assert "docs/adding_a_game.md" in naming, "docs/adding_a_game.md walks through the toy game"


def test_the_shared_files_it_needs_are_these():
    for path in NEEDED:
        assert (ROOT / path).is_file(), path
        assert not NAMES.search((ROOT / path).read_text()), f"{path} names the toy game"
    assert "register.py" in (ROOT / "conftest.py").read_text()  # conftest.py registers every test game
