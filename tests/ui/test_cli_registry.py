"""The command line's --game: choices from threes.registry, and simulate,
play and tournament dispatched through it (child processes, as test_cli)."""
import json
import re
import subprocess
import sys

import pytest

from threes import registry
from threes.ui.cli import _game_choices


def run(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "threes", *args], capture_output=True, text=True,
                          encoding="utf-8", timeout=120, input=stdin,
                          env={"PYTHONIOENCODING": "utf-8", "COLUMNS": "300", "NO_COLOR": "1",
                               "PATH": "/usr/bin:/bin"})


def cli_error(p, *fragments):
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert "Traceback" not in p.stderr
    for f in fragments:
        assert f in p.stderr, (f, p.stderr)


def test_game_choices_are_the_registry_names_and_aliases():
    expected = set()
    for name in registry.names():
        expected |= {name, *registry.get(name).aliases}
    assert set(_game_choices()) == expected
    assert {"threes", "three-thirteen", "shithead", "three_thirteen", "3-13"} <= set(_game_choices())
    for sub in ("simulate", "play", "tournament"):
        p = run(sub, "--help")
        assert p.returncode == 0 and "--game GAME" in p.stdout


@pytest.mark.parametrize("sub", ["simulate", "play", "tournament"])
def test_unknown_game_is_refused(sub):
    extra = ["--bots", "random,random"] if sub == "tournament" else []
    p = run(sub, "--game", "chess", *extra)
    assert p.returncode == 2 and "invalid choice" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize("name", ["three-thirteen", "three_thirteen", "3-13"])
def test_simulate_three_thirteen(name):
    p = run("simulate", "--game", name, "--games", "6", "--players", "3", "--policy", "greedy,random,greedy",
            "--json", "-")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["game"] == "three_thirteen" and d["games"] == 6 and d["policies"] == ["greedy", "random", "greedy"]
    cli_error(run("simulate", "--game", name, "--games", "2", "--policy", "heuristic"), "unknown policy 'heuristic'",
              "random, greedy")


@pytest.mark.parametrize("name", ["threes", "shithead"])
def test_shithead_names_run_the_shithead_game(name):
    p = run("simulate", "--game", name, "--games", "50", "--json", "-")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["rules"] == "threes" and "shithead_rate" in d


def test_tournament_three_thirteen():
    p = run("tournament", "--game", "3-13", "--bots", "greedy,random", "--games", "2", "--seed", "3",
            "--workers", "1")
    assert p.returncode == 0, p.stderr
    assert "| bot | mean place (0 = lowest total) | win rate | last place rate |" in p.stdout
    assert "Three Thirteen, 2 players" in p.stdout
    cli_error(run("tournament", "--game", "three-thirteen", "--bots", "heuristic,random", "--games", "1"),
              "Three Thirteen has no 'heuristic' policy: its policies are random, greedy")
    cli_error(run("tournament", "--game", "three-thirteen", "--bots", "greedy,random", "--rules", "classic"),
              "Three Thirteen has no presets (--rules classic)")
    p = run("tournament", "--game", "shithead", "--bots", "greedy,random", "--games", "1", "--rules", "classic",
            "--workers", "1")
    assert p.returncode == 0 and "shithead rate" in p.stdout and "classic rules" in p.stdout


def test_play_three_thirteen_through_the_registry():
    p = run("play", "--game", "3-13", "--players", "2", "--bots", "greedy", stdin="stock\nquit\n")
    assert p.returncode == 0, p.stderr  # quit: a normal exit
    assert "Three Thirteen, 2 players" in p.stdout and "round 1" in p.stdout
    assert re.search(r"seed \d+ \(replay it with --seed \d+\)", p.stdout)  # a random seed, printed
    cli_error(run("play", "--game", "3-13", "--players", "2", "--bots", "heuristic", stdin="quit\n"),
              "Three Thirteen has no 'heuristic' policy")


def test_rules_of_a_game_with_options_lists_them_with_the_values_set():
    p = run("rules", "--game", "3-13", "--set", "decks=1", "--set", "ace=either")
    assert p.returncode == 0, p.stderr
    rows = dict(re.match(r"^(\w+) = (.*?): ", line).groups() for line in p.stdout.splitlines()
                if re.match(r"^\w+ = ", line))
    assert list(rows) == [opt.name for opt in registry.get("3-13").options]
    assert rows["decks"] == "1" and rows["ace"] == "either" and rows["jokers"] == "0"
    assert "ace = either: aces are low or high: runs may also end Q-K-A" in p.stdout
    cli_error(run("rules", "--game", "3-13", "classic"), "Three Thirteen has no presets (classic)")
    cli_error(run("rules", "--game", "3-13", "--set", "decks=0"), "decks")
    # decks left to its default: one per two players, for the table of --players (4 when not given)
    assert "decks = 2: two 52-card decks shuffled together (the default for 4 players: one per two players, " \
           "rounded up)" in run("rules", "--game", "3-13").stdout
    assert "decks = 3: three 52-card decks" in run("rules", "--game", "3-13", "--players", "6").stdout


def test_a_game_without_a_cli_module_gets_the_generic_commands_over_its_options(monkeypatch):
    """make_game, rules, simulate and play come from the game's declared options and the generic
    RolloutResult and observation string when its package has no cli module (a test-only game of
    tests/games plays them whole)."""
    import argparse
    import dataclasses

    from rich.console import Console

    from threes.ui import cli

    bare = dataclasses.replace(registry.get("three_thirteen"), cli=None)
    monkeypatch.setattr(cli, "_info", lambda args: bare)
    args = cli._parser().parse_args(["simulate", "--game", "3-13", "--players", "3", "--set", "decks=2"])
    assert cli._command(args, "make_game") is cli._options_game
    assert cli._command(args, "make_game")(args).options()["decks"] == 2
    con = Console(record=True, width=200)
    rules_args = argparse.Namespace(game="3-13", preset=None, set=["jokers=1"])
    assert cli._command(rules_args, "rules")(rules_args, con) == 0
    text = con.export_text()
    assert "jokers" in text and "decks" in text
    assert cli._command(args, "simulate") is cli._options_simulate
    assert cli._command(args, "play") is cli._options_play
    sim = cli._parser().parse_args(["simulate", "--game", "3-13", "--players", "3", "--games", "40", "--seed", "3",
                                    "--json", "-"])
    assert cli._command(sim, "simulate")(sim, con) == 0  # the generic batch summary (RolloutResult)
