"""Root pytest configuration.

`pytest` runs the quick suite (the README's test command, with the lean `test`
extra): every rule, the contract suite over every game, the bindings and the
command line, in a few minutes on 2 cores. `pytest --full` (with the
`test-full` extra) runs the full suite: also the browser, the web server's
crash, load, abuse and leak tests, the Ray cluster, the type stubs and the
long simulations. `pytest --full-only` runs only what the quick suite leaves out or runs
smaller (the full-only folders, the tests marked full, the Hypothesis fuzz files at their full
size): CI runs it, and the quick suite against the installed wheel (.ci/wheel.sh), so that each
test runs once and together they are the full suite. `pytest --benchmark-only` runs the benchmarks in
benchmarks/ (pytest-benchmark) and prints the performance figures with their
ratios at the end. Each run collects only its own kind: the rest is not
collected or deselected, never skipped, and the run's last lines say what the
quick run left out.
"""
import json
import os
import pathlib
import sys

import pytest

# The pure-Python reference models (tests/reference/) are test oracles, not
# product API: tests import them as reference.<game>_model.
sys.path.insert(0, str(pathlib.Path(__file__).parent / "tests"))

_FIGURES = {}


#: What only the full suite (--full) collects: folders and files whose tests need the full extra's stacks
#: (a browser, Ray, mypy, a web server) or run for minutes. Within the quick suite's files, a test marked
#: ``full`` is left for the full run too.
FULL_ONLY = ("tests/web", "tests/ray", "tests/test_stub.py", "tests/vector/test_vector_sb3.py")
#: Files the quick suite runs smaller (THREES_FUZZ_SCALE): --full-only runs them at their full size.
FULL_SIZE = ("tests/shithead/test_fuzz.py",)


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true",
                     help="the full suite: the browser, web server, Ray, type-stub and long tests too (needs the "
                          "test-full extra); without it the quick suite runs")
    parser.addoption("--full-only", action="store_true",
                     help="only what the quick suite leaves out or runs smaller: the full-only folders and files, "
                          "the tests marked full and the fuzz files at full size (the quick suite and this are the "
                          "full suite; implies --full)")
    parser.addoption("--no-test-games", action="store_true",
                     help="do not build and register the test-only games of tests/games (where no C compiler "
                          "or Cython is at hand: the wheels' own tests)")


def pytest_configure(config):
    """The test-only games (tests/games/<name>: a game's C, binding and package, and its register.py,
    which builds it with tests/games/build.py and registers it with threes.registry) are registered
    before collection, so that every test over the registry (the contract suite, the front ends)
    runs over them too."""
    if _quick(config):
        # the quick suite runs the Hypothesis fuzz files (tests/shithead/test_fuzz.py) at a quarter of
        # their examples, unless THREES_FUZZ_SCALE says otherwise
        os.environ.setdefault("THREES_FUZZ_SCALE", "0.25")
    if config.getoption("--no-test-games", default=False):
        return
    import importlib

    for reg in sorted((pathlib.Path(__file__).parent / "tests" / "games").glob("*/register.py")):
        importlib.import_module(f"games.{reg.parent.name}.register")


def pytest_sessionstart(session):
    """.ci/wheel.sh runs the suite against an installed wheel: with
    THREES_EXPECT_INSTALLED_IN set, `threes` must come from that environment
    (not from the checkout's python/ folder)."""
    where = os.environ.get("THREES_EXPECT_INSTALLED_IN")
    if where:
        import threes

        got = os.path.realpath(threes.__file__)
        if not got.startswith(os.path.realpath(where) + os.sep):
            raise pytest.UsageError(f"threes was imported from {got}, not from the environment {where}")

# The random simulation (tests/test_random_sim.py) reports how many games ended
# truncated at the move cap; they are printed at the end of the run (also
# under pytest-xdist, through each report's user_properties).
_truncated = {}


def pytest_runtest_logreport(report):
    if report.when != "call":
        return
    for name, value in report.user_properties:
        if name == "truncated_games":
            old = _truncated.get(value[0], (0, 0, 0))
            _truncated[value[0]] = tuple(a + b for a, b in zip(old, value[1:]))


def _truncated_summary(terminalreporter):
    if not _truncated:
        return
    tr = terminalreporter
    tr.section("random simulation: games truncated at the move cap")
    for key in sorted(_truncated):
        truncated, games, moves = _truncated[key]
        tr.write_line(f"{key:<28} {truncated:>4} of {games} games truncated, {moves / games:8.1f} moves per game")



_ROOT = pathlib.Path(__file__).parent.resolve()


def _quick(config):
    return not (config.getoption("--full", default=False) or config.getoption("--full-only", default=False)
                or config.getoption("benchmark_only", False))


def _full_only_item(item) -> bool:
    """A test the quick suite does not run (or runs smaller)."""
    try:
        rel = pathlib.Path(str(item.fspath)).resolve().relative_to(_ROOT).as_posix()
    except ValueError:
        return False
    return (item.get_closest_marker("full") is not None or rel in FULL_SIZE
            or any(rel == p or rel.startswith(p + "/") for p in FULL_ONLY))


def pytest_ignore_collect(collection_path, config):
    """The quick run does not collect the full-only folders and files (their imports need the full extra)."""
    if not _quick(config):
        return None
    try:
        rel = pathlib.Path(collection_path).resolve().relative_to(_ROOT).as_posix()
    except ValueError:
        return None
    if rel in FULL_ONLY:
        return True
    if rel == "benchmarks":  # another kind (--benchmark-only), whose imports may need the full extra
        return True
    return None


def pytest_collection_modifyitems(config, items):
    bench_only = bool(config.getoption("benchmark_only", False))
    quick = _quick(config)
    only_full = bool(config.getoption("--full-only", default=False))
    keep, drop = [], []
    for item in items:
        is_bench = "benchmarks" in pathlib.Path(str(item.fspath)).parts
        full_only = quick and item.get_closest_marker("full") is not None
        left_out = only_full and not _full_only_item(item)
        (keep if is_bench == bench_only and not full_only and not left_out else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def _quick_summary(terminalreporter, config):
    """The quick run's last lines say what it left out (also under pytest-xdist, whose workers collect)."""
    if not _quick(config) or config.getoption("--collect-only", default=False):
        return
    tr = terminalreporter
    tr.section("quick suite")
    tr.write_line("this was the quick suite; the full suite (python -m pytest -n auto --full, with the test-full "
                  "extra) also runs " + ", ".join(p for p in FULL_ONLY if (_ROOT / p).exists()) +
                  " and the tests marked full (longer runs of the same checks)")


@pytest.fixture(scope="session")
def figures():
    """Benchmarks put their measured figures here (name -> (value, unit))."""
    return _FIGURES


def pytest_terminal_summary(terminalreporter, config):
    _truncated_summary(terminalreporter)
    _quick_summary(terminalreporter, config)
    if not _FIGURES:
        return
    tr = terminalreporter
    tr.section("threes-core performance figures (this run)")
    for name, (value, unit) in _FIGURES.items():
        digits = 3 if abs(value) < 10 else 1  # ratios with their third decimal
        tr.write_line(f"{name:<58} {value:>14,.{digits}f} {unit}")
    f = _FIGURES

    def ratio(a, b, label):
        if a in f and b in f and f[b][0]:
            tr.write_line(f"{label:<58} {f[a][0] / f[b][0]:>14,.1f} x")

    ratio("pure-Python model, random, 1 core: ns/move", "C rollouts threes 4p random, 1 thread: ns/move",
          "C rollouts faster than the pure-Python model by")
    ratio("C rollouts threes 4p random, 2 threads: games/s", "C rollouts threes 4p random, 1 thread: games/s",
          "2 threads / 1 thread (games/s)")
    for policy in ("random", "greedy"):  # benchmarks/test_bench_repetition.py
        label = f"C rollouts threes 4p {policy}, 1 thread"
        ratio(f"{label}, repetition_limit=3: ns/move", f"{label}, repetition_limit=0: ns/move",
              f"{policy}: repetition_limit=3 / off (ns/move)")
    if "State.clone() from Python: ns" in f and "State.__new__(State) from Python (allocation only): ns" in f:
        extra = f["State.clone() from Python: ns"][0] - f["State.__new__(State) from Python (allocation only): ns"][0]
        tr.write_line(f"{'clone() beyond allocating the object (copy + bookkeeping)':<58} {extra:>14,.1f} ns")
    out = pathlib.Path(".benchmarks")
    out.mkdir(exist_ok=True)
    (out / "figures.json").write_text(json.dumps({k: {"value": v, "unit": u} for k, (v, u) in f.items()}, indent=2))


# The Ray tests and benchmark start Ray runtimes and `ray stop` every Ray
# process of the machine: under pytest-xdist (``-n``) they must all run on one
# worker, one after another. pytest-xdist's own ``--dist loadgroup`` cannot do
# it with pytest 9 (it renames ``item._nodeid``, which pytest 9 no longer
# reads), so the scheduler groups them by path: every other test is its own
# scope, which is ``--dist load``.
RAY_TEST_PATHS = ("tests/ray/", "benchmarks/test_bench_ray.py")


def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "load":
        return None  # an explicit --dist other than load is the user's choice
    from xdist.scheduler import LoadScopeScheduling

    class RayOnOneWorker(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            return "ray" if nodeid.startswith(RAY_TEST_PATHS) else nodeid

    return RayOnOneWorker(config, log)


# A test marked ``exclusive`` (the web load test: its p99 is a property of an
# otherwise idle machine) runs alone: under pytest-xdist every other test holds
# a shared lock while it runs, the exclusive one takes it exclusively. A gate
# lock in front keeps the exclusive test from waiting forever behind a stream
# of shared holders: it takes the gate first, and new tests wait at the gate
# until it is done; a test already running finishes first. One lock file per
# run (pytest-xdist's run id); without fcntl (Windows) the marker does nothing.
def _lock_paths():
    import tempfile

    run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"pid{os.getpid()}"
    base = os.path.join(tempfile.gettempdir(), f"threes-tests-{run}")
    return base + ".gate", base + ".lock"


@pytest.fixture(autouse=True)
def _machine_share(request):
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    exclusive = request.node.get_closest_marker("exclusive") is not None
    gate_path, lock_path = _lock_paths()
    gate = os.open(gate_path, os.O_CREAT | os.O_RDWR, 0o600)
    lock = os.open(lock_path, os.O_CREAT | os.O_RDWR, 0o600)
    try:
        fcntl.flock(gate, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        fcntl.flock(lock, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        if not exclusive:
            fcntl.flock(gate, fcntl.LOCK_UN)
        yield
    finally:
        fcntl.flock(lock, fcntl.LOCK_UN)
        fcntl.flock(gate, fcntl.LOCK_UN)
        os.close(lock)
        os.close(gate)
