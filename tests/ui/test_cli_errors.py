"""The ``threes`` console script never prints a traceback for a bad argument
or an unwritable path: ``threes: error: ...`` on stderr and exit status 2,
found before the work (the arguments here would take many minutes to play),
except a write that fails after the work, which comes after the table."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

THREES = str(Path(sys.executable).parent / "threes")
LONG = "10000000"  # games that take minutes: a check done after the work would time out the test


def run(*args, timeout=60):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "NO_COLOR": "1"}, stdin=subprocess.DEVNULL)


def assert_cli_error(out, *needles):
    assert out.returncode == 2, (out.returncode, out.stdout, out.stderr)
    assert "Traceback" not in out.stderr and "Traceback" not in out.stdout, out.stderr
    assert out.stderr.startswith("threes: error: "), out.stderr
    for n in needles:
        assert n in out.stderr, out.stderr


def test_the_console_script_is_installed():
    out = run(THREES, "rules", "threes")
    assert out.returncode == 0 and "cards_per_zone" in out.stdout


@pytest.mark.parametrize("args,needles", [
    (["simulate", "--games", "10000000000"], ["--games 10,000,000,000", "GiB"]),
    (["simulate", "--game", "3-13", "--games", "10000000000"], ["--games 10,000,000,000"]),
    (["tournament", "--bots", "greedy,random", "--games", "99999999999999999999"], ["--games"]),
    (["simulate", "--games", LONG, "--plot", "/nonexistent/dir/x.png"], ["/nonexistent/dir", "does not exist"]),
    (["simulate", "--games", LONG, "--json", "--plot", "/tmp/"], ["is a directory"]),
    (["simulate", "--games", LONG, "--plot", "seats.notanimagetype"], ["cannot write .notanimagetype"]),
    (["tournament", "--bots", "greedy,random", "--games", LONG, "--json", "/nonexistent/x.json"],
     ["--json /nonexistent/x.json", "does not exist"]),
    (["tournament", "--bots", "greedy,random", "--games", LONG, "--json", "/tmp"], ["is a directory"]),
    (["tournament", "--bots", "ismcts:abc,random", "--games", LONG], ["ismcts:abc", "whole number"]),
    (["tournament", "--bots", "ismcts:0,random", "--games", LONG], ["iterations"]),
    (["tournament", "--bots", "greedy,random", "--workers", "0", "--games", LONG], ["--workers"]),
    (["simulate", "--games", "100", "--threads", "99999999999999999999"], ["--threads"]),
    (["play", "--seat", "99999999999999999999"], ["--seat"]),
])
def test_bad_arguments_are_reported_before_the_work(args, needles):
    out = run(THREES, *args)
    assert_cli_error(out, *needles)
    assert out.stdout == ""  # nothing was played


def test_an_unwritable_directory_is_reported_before_the_work(tmp_path):
    if os.geteuid() == 0:  # root writes anywhere: use a path under a file instead
        blocker = tmp_path / "a-file"
        blocker.write_text("")
        target = blocker / "x.json"
        needle = "does not exist"
    else:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        target = locked / "x.json"
        needle = "not writable"
    out = run(THREES, "tournament", "--bots", "greedy,random", "--games", LONG, "--json", str(target))
    assert_cli_error(out, needle)
    assert out.stdout == ""


def test_a_json_write_failing_after_the_work_keeps_the_table():
    out = run(THREES, "tournament", "--bots", "greedy,random", "--games", "2", "--json", "/dev/full")
    assert_cli_error(out, "--json /dev/full: cannot write the result")
    assert "| bot | mean place" in out.stdout and "| greedy |" in out.stdout


BLOCK_MATPLOTLIB = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError("matplotlib is blocked for this test")
        return None
sys.meta_path.insert(0, Block())
from threes.ui.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_plot_without_matplotlib_fails_before_the_simulation(tmp_path):
    target = tmp_path / "seats.png"
    out = run(sys.executable, "-c", BLOCK_MATPLOTLIB, "simulate", "--games", LONG, "--plot", str(target))
    assert_cli_error(out, "--plot needs the plot extra")
    assert out.stdout == "" and not target.exists()
    # the same blocker lets a command without --plot run
    ok = run(sys.executable, "-c", BLOCK_MATPLOTLIB, "simulate", "--games", "20", "--json")
    assert ok.returncode == 0 and '"games": 20' in ok.stdout


def test_plot_writes_its_file(tmp_path):
    target = tmp_path / "seats.png"
    out = run(THREES, "simulate", "--games", "200", "--threads", "1", "--plot", str(target))
    assert out.returncode == 0, out.stderr
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
