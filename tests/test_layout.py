"""The layout promises of docs/layout.md (the README's "Layout" section sums them up): one folder per game in
C, Python and the tests; includes by path; ``import threes`` loads no user
interface or adapter; no import cycles between the package's modules; the
specifications and the licence ship with the repository; no machine paths."""
import ast
import pathlib
import re
import subprocess
import sys

import pytest

import threes
from threes import registry

ROOT = pathlib.Path(__file__).resolve().parents[1]
PKG = pathlib.Path(threes.__file__).resolve().parent
SRC = ROOT / "src" / "threes_core"
#: each registered game's folder (its registry name), beside common/
GAMES = tuple(n for n in registry.names() if registry.get(n).module.startswith("threes."))  # shipped (tests/games: test-only)


def test_c_core_has_common_and_one_folder_per_game():
    folders = sorted(p.name for p in SRC.iterdir() if p.is_dir())
    assert folders == sorted(("common",) + GAMES)
    assert not list(SRC.glob("*.[ch]")), "every C file lives in common/ or a game's folder"


@pytest.mark.parametrize("path", sorted(p.relative_to(ROOT).as_posix() for p in SRC.rglob("*.[ch]")))
def test_c_includes_name_their_folder_and_common_includes_no_game(path):
    text = (ROOT / path).read_text()
    for inc in re.findall(r'#include "([^"]+)"', text):
        assert "/" in inc, f"{path}: #include \"{inc}\" must name its folder"
        folder = inc.split("/")[0]
        assert folder in ("common",) + GAMES, inc
        home = path.split("/")[2]  # src/threes_core/<home>/...
        if home == "common":
            assert folder == "common", f"{path}: common/ must not depend on a game ({inc})"
        else:
            assert folder in ("common", home), f"{path}: one game must not include another ({inc})"


def test_import_threes_loads_no_user_interface_or_adapter():
    code = "import sys, threes; print(' '.join(sorted(m for m in sys.modules if m.startswith('threes'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    loaded = out.stdout.split()
    assert "threes.shithead._core" in loaded
    heavy = [m for m in loaded if m.startswith(("threes.ui", "threes.adapters", "threes.svg", "threes.openspiel",
                                                "threes.pettingzoo", "threes.gym", "threes.three_thirteen"))]
    assert heavy == []
    for dep in ("rich", "matplotlib", "pyspiel", "gymnasium", "pettingzoo"):
        code = f"import sys, threes; print({dep!r} in sys.modules)"
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
        assert out.stdout.strip() == "False", f"import threes imported {dep}"


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _top_level_imports(path: pathlib.Path):
    """threes modules a module imports when it is loaded (not inside functions)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text())
    out = set()
    for node in tree.body:
        nodes = [node]
        if isinstance(node, (ast.If, ast.Try)):
            nodes = list(ast.walk(node))
        for n in nodes:
            if isinstance(n, ast.Import):
                out.update(a.name for a in n.names if a.name.startswith("threes"))
            elif isinstance(n, ast.ImportFrom):
                if n.level:
                    base = package.split(".")
                    base = base[: len(base) - (n.level - 1)]
                    mod = ".".join(base + ([n.module] if n.module else []))
                else:
                    mod = n.module or ""
                if mod.startswith("threes"):
                    out.add(mod)
                    out.update(f"{mod}.{a.name}" for a in n.names)
    return out


def test_no_import_cycles_between_modules():
    modules = {_module_name(p): p for p in PKG.rglob("*.py")}
    graph = {m: {d for d in _top_level_imports(p) if d in modules and d != m} for m, p in modules.items()}
    # a package's __init__ importing its own submodules is not a cycle through them
    for m in graph:
        graph[m] = {d for d in graph[m] if not m.startswith(d + ".")}
    state = {}

    def visit(m, stack):
        state[m] = 1
        for d in sorted(graph[m]):
            if state.get(d) == 1:
                raise AssertionError("import cycle: " + " -> ".join(stack + [m, d]))
            if d not in state:
                visit(d, stack + [m])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])


@pytest.mark.parametrize("name", ["threes.svg", "threes.openspiel", "threes.pettingzoo", "threes.gym",
                                  "threes.three_thirteen", "threes.shithead", "threes.registry", "threes.ui.cli"])
def test_public_modules_import_on_their_own(name):
    subprocess.run([sys.executable, "-c", f"import {name}"], check=True, timeout=120, capture_output=True)


def test_specifications_and_licence_are_in_the_repository():
    for path in ("docs/shithead/RULES.md", "docs/three_thirteen/RULES.md", "LICENSE"):
        assert (ROOT / path).is_file(), path
    assert "MIT License" in (ROOT / "LICENSE").read_text()
    assert "# Rules of the Shithead family" in (ROOT / "docs/shithead/RULES.md").read_text()
    assert "## What each player knows" in (ROOT / "docs/three_thirteen/RULES.md").read_text()


def test_specification_copies_carry_the_amendments():
    """docs/ holds byte-identical copies of the shared specifications; these are
    the amendments D-18 (a stalemate on the cap's last move) and T-10 (the pool
    kept when the table can tell a discard came from it)."""
    shithead = (ROOT / "docs/shithead/RULES.md").read_text(encoding="utf-8")
    assert "**D-18 A stalemate on the last allowed move.**" in shithead
    assert "When the move that makes the k-th occurrence is also the last move the cap allows" in shithead
    assert "0 = off, else 2 to 255" in shithead
    three_thirteen = (ROOT / "docs/three_thirteen/RULES.md").read_text(encoding="utf-8")
    assert "- **T-10** Forgetting the pool" in three_thirteen
    assert "the pool loses that card and is kept" in three_thirteen


def test_no_absolute_machine_paths_in_the_repository():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    pattern = re.compile(r"(^|[^A-Za-z0-9_.])/(work|farm|root|home|tmp)/[A-Za-z]")
    bad = []
    for f in files:
        p = ROOT / f
        if p.suffix in (".png", ".svg") or not p.is_file():
            continue
        for i, line in enumerate(p.read_text(errors="replace").splitlines(), 1):
            if pattern.search(line):
                bad.append(f"{f}:{i}: {line.strip()[:80]}")
    assert bad == []


def test_test_file_names_are_unique():
    """pytest imports test files by basename (the test folders are not packages)."""
    names = [p.name for p in (ROOT / "tests").rglob("test_*.py")]
    assert sorted(set(n for n in names if names.count(n) > 1)) == []


# The modules outside the games' packages that still import a game when loaded: ``threes`` itself
# re-exports the Shithead API (``import threes; threes.Game(4)``, documented). The list may only shrink.
STILL_IMPORTING_A_GAME = {"threes"}


def _imports_a_game_when_loaded(path: pathlib.Path):
    """The game modules a module imports at load time (``if TYPE_CHECKING:`` blocks aside)."""
    tree = ast.parse(path.read_text())
    body = [n for n in tree.body if not (isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test))]
    found = set()
    for node in body:
        for n in ast.walk(node) if isinstance(node, (ast.If, ast.Try)) else [node]:
            names = [a.name for a in n.names] if isinstance(n, ast.Import) else \
                [f"{n.module}.{a.name}" for a in n.names] if isinstance(n, ast.ImportFrom) and n.module else []
            found.update(m for m in names for g in GAMES if m == f"threes.{g}" or m.startswith(f"threes.{g}."))
    return found


def test_generic_modules_import_no_game():
    """Generic code finds a game through threes.registry (and the core's shared facts in
    threes._engine), never by importing one: bots, tournaments, the Gymnasium and PettingZoo
    adapters, the web server, pictures, options ..."""
    offenders = {}
    for path in PKG.rglob("*.py"):
        name = _module_name(path)
        if name.split(".")[1:2] and name.split(".")[1] in GAMES:
            continue  # a game's own package
        found = _imports_a_game_when_loaded(path)
        if found and name not in STILL_IMPORTING_A_GAME:
            offenders[name] = sorted(found)
    assert not offenders, f"generic modules that import a game when loaded: {offenders}"
    still = {n for n in STILL_IMPORTING_A_GAME if _imports_a_game_when_loaded(
        PKG.parent.joinpath(*n.split(".")).with_suffix(".py") if n != "threes" else PKG / "__init__.py")}
    assert still == STILL_IMPORTING_A_GAME, f"{STILL_IMPORTING_A_GAME - still} import no game now: take them off"


def test_compiled_extensions_import_no_python_of_ours():
    """Layers run one way: Python (the registry, the rollouts' backend choice in threes.batches,
    threes.cluster, each game's Python) calls the compiled extensions, which never import them
    back. A game's extension reaches the shared binding code by cimport and imports at run time
    only the compiled threes._engine (its errors, integer checks and cancel flag, which
    threes.errors, threes.args and threes._stop re-export)."""
    found = {}
    for path in sorted(PKG.rglob("*.px[di]")) + sorted(PKG.rglob("*.pyx")):
        for m in re.finditer(r"^\s*(?:from\s+(threes[\w.]*)\s+import\s+(\w+)|import\s+(threes[\w.]*))",
                             path.read_text(), re.M):
            name = m.group(3) or (f"threes.{m.group(2)}" if m.group(1) == "threes" else m.group(1))
            found.setdefault(name, set()).add(path.relative_to(PKG).as_posix())
    assert set(found) == {"threes._engine"}, {k: sorted(v) for k, v in found.items()}
    engine = (PKG / "_engine.pyx").read_text()
    assert not re.search(r"^\s*(from\s+threes\S*\s+import|import\s+threes)", engine, re.M), \
        "threes._engine imports a module of ours"
    from threes import _engine, _stop, args, errors

    assert errors.IllegalActionError is _engine.IllegalActionError and args.int_arg is _engine.int_arg
    assert _stop.token is _engine.token and errors.IllegalActionError.__module__ == "threes.errors"


def test_common_pxd_only_declares_and_object_tricks_live_in_one_place():
    """_common.pxd declares the C core's common/ headers and holds no code (no function body, no
    verbatim C); the shared binding code is compiled once, in _engine.pyx. The tricks on CPython's
    object internals (a type's tp_free replaced, objects made without tp_new, object bodies copied)
    are in _engine.pyx only (benchmarked: benchmarks/test_bench_boundary.py
    test_clone_byte_copy_against_the_general_path; under valgrind: tests/memcheck)."""
    common = (PKG / "_common.pxd").read_text()
    assert not re.search(r"^\s*(cdef|cpdef)\s+inline\b|^\s*def\s|\"\"\"\s*$\n\s*(static|#define)", common, re.M)
    assert not re.search(r"^cdef\s+(?!extern\b)", common, re.M), "code in _common.pxd"
    tricks = re.compile(r"tp_free\s*=|_PyObject_GC_New|PyObject_Init\(|memcpy\(\s*<char \*>o\b")
    where = sorted(p.relative_to(PKG).as_posix() for p in list(PKG.rglob("*.px[di]")) + list(PKG.rglob("*.pyx"))
                   if tricks.search(p.read_text()))
    assert where == ["_engine.pyx"], where

def test_tools_do_not_reach_into_the_tests():
    """tools/ are programs of the repository; the tests may use the library, never the reverse
    (a figure the README cites from a test is printed by that test, run with -s)."""
    for path in sorted((ROOT / "tools").glob("*.py")):
        text = path.read_text()
        assert not re.search(r'["/]tests["/]|^\s*(from|import) (tests|test_)\w*', text, re.M), \
            f"{path.relative_to(ROOT)} reaches into tests/"
