"""The command line teaches (issue 39), for every registered game, the test-only games included
(registered by the root conftest.py, so these run in-process through threes.ui.cli.main; a test
game's own cases live in its folder under tests/games):

1. ``threes rules [PRESET | GAME] [--game GAME]`` states the game's aim first, then every rule with its
   value and what that value means; a game's name is accepted as the positional argument;
2. ``threes play`` says the game's aim in its opening lines;
3. ``threes simulate`` counts places from 1, explains truncated games and stalemates in a line each,
   and writes every number of four digits or more with thousands separators;
4. ``--json FILE`` writes the JSON to FILE and ``--json -`` to standard output, in every command.
"""
from __future__ import annotations

import dataclasses
import io
import json
import re

import pytest

from threes import registry
from threes.ui import cli

GAMES = registry.names()
#: Each game's seat count for these tests, and its --max-moves cap that cuts every game short.
PLAYERS = 2
SHORT_CAP = 40


@pytest.fixture
def run(capsys, monkeypatch):
    """``run(*argv, stdin="")``: (exit code, stdout, stderr) of ``threes ARGV`` run in this process, on a
    300-column console (no wrapping to undo)."""
    monkeypatch.setenv("COLUMNS", "300")
    monkeypatch.delenv("NO_COLOR", raising=False)

    def go(*argv: str, stdin: str = ""):
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        code = cli.main(["--no-color", *argv])
        out = capsys.readouterr()
        assert "Traceback" not in out.err, out.err
        return code, out.out, out.err

    return go


def ok(run, *argv: str, stdin: str = "") -> str:
    code, out, err = run(*argv, stdin=stdin)
    assert code == 0, (argv, out, err)
    return out


def error(run, *argv: str) -> str:
    code, out, err = run(*argv)
    assert code == 2, (argv, code, out, err)
    assert err.startswith("threes: error: "), err
    return err


def rule_lines(out: str) -> dict:
    """{name: (value, words)} of the lines ``name = value: words``."""
    rows = {}
    for line in out.splitlines():
        m = re.match(r"^\s*(\w+) = (.*?): (.+)$", line)
        if m:
            rows[m[1]] = (m[2], m[3])
    return rows


def game_values(name: str) -> dict:
    """The option values of a default table of `name` (4 players, as threes rules assumes)."""
    game = registry.get(name).load().Game(4)
    options = getattr(game, "options", None)
    return options() if callable(options) else {}


# ------------------------------------------------------------------ 1. rules --
def test_every_registered_game_has_an_aim():
    for name in GAMES:
        aim = registry.get(name).aim
        assert isinstance(aim, str) and len(aim.split()) >= 6, (name, aim)
    assert "shithead" in registry.get("shithead").aim and "face-down" in registry.get("shithead").aim
    assert "lowest total" in registry.get("three_thirteen").aim and "11 rounds" in registry.get("three_thirteen").aim
    assert "sets" in registry.get("three_thirteen").aim and "runs" in registry.get("three_thirteen").aim


@pytest.mark.parametrize("name", GAMES)
def test_rules_states_the_aim_first_then_each_option_with_its_value(run, name):
    info = registry.get(name)
    out = ok(run, "rules", "--game", name)
    lines = [line for line in out.splitlines() if line.strip()]
    assert lines[0].startswith(info.title)
    assert lines[1] == f"The aim: {info.aim}."
    rows = rule_lines(out)
    values = game_values(name)
    for opt in info.options:  # every declared option, with the table's value, in words
        assert opt.name in rows, (opt.name, out)
        assert rows[opt.name][0] == opt.value_text(values[opt.name])
        assert len(rows[opt.name][1].split()) >= 2
    assert not re.search(r"RULES\.md section", out)


@pytest.mark.parametrize("name, option", [(name, o.name) for name in GAMES for o in registry.get(name).options
                                          if o.kind == "bool"])
def test_rules_a_yes_and_a_no_say_different_things(run, name, option):
    """Each line states what its value means: an option off never reads as its meaning when on."""
    on = rule_lines(ok(run, "rules", "--game", name, "--set", f"{option}=yes"))[option]
    off = rule_lines(ok(run, "rules", "--game", name, "--set", f"{option}=no"))[option]
    assert on[0] == "yes" and off[0] == "no"
    assert on[1] != off[1]
    meaning = next(o.meaning for o in registry.get(name).options if o.name == option)
    assert off[1] != meaning


def test_rules_three_thirteen_words_the_values_as_the_spec_does(run):
    rows = rule_lines(ok(run, "rules", "three-thirteen"))
    assert rows["rediscard_taken"] == ("no", "the card you take from the discard pile may not be discarded in the "
                                             "same turn (the rules, T-2)")
    rows = rule_lines(ok(run, "rules", "three-thirteen", "--set", "rediscard_taken=yes", "--set", "wild_penalty=20"))
    assert rows["rediscard_taken"] == ("yes", "the card you take from the discard pile may be discarded again in "
                                              "the same turn")
    assert rows["wild_penalty"][1].startswith("a wild card left out of melds scores 20")


@pytest.mark.parametrize("name", GAMES)
def test_a_game_without_rules_words_gets_its_options_explained(name):
    """The generic path: a game with no ``rules_text`` hook lists its declared options with their values."""
    info = dataclasses.replace(registry.get(name), rules_text=None)
    game = info.load().Game(4)
    lines = cli._rules_lines(info, game.new_initial_state(0), game)
    if not info.options:
        assert lines == [f"{info.title} has no rules to set"]
        return
    values = game.options()
    assert lines == [o.explain(values[o.name]) for o in info.options]


@pytest.mark.parametrize("name", GAMES)
def test_rules_takes_the_game_as_its_argument(run, name):
    by_option = ok(run, "rules", "--game", name)
    spellings = {name, name.replace("_", "-"), name.upper()} | set(registry.get(name).aliases)
    for word in spellings:
        if word.lower() in (p.lower() for p in getattr(registry.get(name).load(), "PRESETS", ())):
            continue  # "threes" is Shithead's first preset: the same text, read as a preset
        assert ok(run, "rules", word) == by_option, word
    assert ok(run, "rules", name, "--game", name) == by_option


def test_rules_names_the_presets_and_the_games_when_the_word_is_neither(run):
    err = error(run, "rules", "bogus")
    assert "unknown preset or game 'bogus'" in err and "threes, classic, dutch" in err
    for name in GAMES:
        assert name in err
    err = error(run, "rules", "three-thirteen", "--game", "shithead")
    assert "'three-thirteen' is the game three_thirteen but --game names shithead" in err


def test_rules_cites_the_sections_for_a_reader_of_the_wheel(run):
    out = ok(run, "rules", "dutch")
    assert "burn = 10: 10s burn the pile when played" in out and "burn T" not in out
    assert "the rules, section 5" in out and "RULES.md section" not in out
    assert "the Rules pages of the docs site, or docs/shithead/RULES.md in the source" in out
    out = ok(run, "rules", "3-13")
    assert "the Rules pages of the docs site, or docs/three_thirteen/RULES.md in the source" in out


# ------------------------------------------------------------------- 2. play --
@pytest.mark.parametrize("name", GAMES)
def test_play_says_the_aim_in_its_opening_lines(run, name):
    info = registry.get(name)
    out = ok(run, "play", "--game", name, "--players", str(PLAYERS), "--seed", "1", "--bots", "random",
             stdin="quit\n")
    lines = out.splitlines()
    assert lines[0].startswith("threes play: ")
    aim = next(k for k, line in enumerate(lines) if line.startswith("The aim: "))
    assert lines[aim] == f"The aim: {info.aim}."
    assert aim <= 2 and aim < next(k for k, line in enumerate(lines) if "your moves:" in line)


# --------------------------------------------------------------- 3. simulate --
def table_rows(out: str):
    """The rows of the rich table: a list of cells per seat."""
    rows = []
    for line in out.splitlines():
        cells = [c.strip() for c in line.split("\u2502")[1:-1]]
        if cells and cells[0].isdigit():
            rows.append(cells)
    return rows


def header(out: str) -> str:
    return next(line for line in out.splitlines() if "seat" in line and "policy" in line)


def unseparated(text: str):
    """Numbers of four digits or more written without thousands separators."""
    return re.findall(r"(?<![\d,.])\d{4,}", text)


@pytest.mark.parametrize("name", GAMES)
def test_simulate_counts_places_from_1(run, name):
    args = ("simulate", "--game", name, "--games", "200", "--players", "3", "--seed", "2", "--max-moves", "3000")
    out = ok(run, *args)
    assert "mean place (1st = best)" in header(out)
    rows = table_rows(out)
    summary = json.loads(ok(run, *args, "--json", "-"))
    assert len(rows) == 3
    places = [float(r[-1]) for r in rows]
    assert all(1.0 <= p <= 3.0 for p in places)
    assert places == [pytest.approx(m + 1, abs=0.0051) for m in summary["mean_place"]]  # the JSON stays 0-based


@pytest.mark.parametrize("name", GAMES)
def test_simulate_explains_truncated_games_in_one_line(run, name):
    out = ok(run, "simulate", "--game", name, "--games", "1200", "--players", str(PLAYERS), "--seed", "3",
             "--max-moves", str(SHORT_CAP))
    line = next(line for line in out.splitlines() if line.startswith("truncated games:"))
    assert line == (f"truncated games: 1,200 of 1,200 (100.0%): cut at the move cap of {SHORT_CAP} moves "
                    "(--max-moves) before they ended, and scored as the rules score a game cut short")
    assert "stalemates" not in out and "every game ended normally" not in out


def test_simulate_explains_stalemates_in_one_line(run):
    args = ("simulate", "--games", "300", "--seed", "1", "--set", "repetition_limit=3")
    d = json.loads(ok(run, *args, "--json", "-"))
    assert d["stalemates"] > 0
    out = ok(run, *args)
    lines = [line for line in out.splitlines() if line.startswith("stalemates:")]
    assert lines == [f"stalemates: {d['stalemates']:,} of 300 ({d['stalemates'] / 300:.1%}): ended by the repetition "
                     "rule, the same position having occurred 3 times (repetition_limit = 3)"]
    assert ("truncated games:" in out) == (d["truncated"] > 0)


@pytest.mark.parametrize("name", GAMES)
def test_simulate_writes_thousands_with_separators(run, name):
    out = ok(run, "simulate", "--game", name, "--games", "2000", "--players", str(PLAYERS), "--seed", "4",
             "--max-moves", "1500")
    assert "2,000 games" in out
    cut = [line for line in out.splitlines() if line.startswith("truncated games:")]
    assert all(" of 2,000 (" in line and "the move cap of 1,500 moves" in line for line in cut)
    if name == "three_thirteen":  # its random games are far longer than 1,500 moves: every one is cut
        assert cut and "moves per game: 1,500.0" in out
    assert unseparated(out) == [], out


def test_simulate_shithead_table_and_totals(run):
    out = ok(run, "simulate", "--games", "2000")
    assert "2,000 games, threes rules, 4 players, seed 1" in out
    assert re.search(r"^moves per game: [\d,]+\.\d   [\d,]+ games/s \(\d+ threads, [\d,.]+ ns/move\)$", out, re.M)
    assert re.search(r"^truncated games: [\d,]+ of 2,000 \([\d.]+%\): cut at the move cap of 10,000 moves", out, re.M)
    assert unseparated(out) == []


# ------------------------------------------------------------------- 4. json --
@pytest.mark.parametrize("name", GAMES)
def test_simulate_json_dash_is_standard_output_alone(run, name):
    args = ("simulate", "--game", name, "--games", "50", "--players", str(PLAYERS), "--seed", "5")
    d = json.loads(ok(run, *args, "--json", "-"))  # nothing but the JSON
    assert d["games"] == 50 and d["players"] == PLAYERS
    assert json.loads(ok(run, *args, "--json")).keys() == d.keys()  # a bare --json is --json -


@pytest.mark.parametrize("name", GAMES)
def test_simulate_json_file_writes_the_file_and_prints_the_table(run, name, tmp_path):
    target = tmp_path / "summary.json"
    args = ("simulate", "--game", name, "--games", "50", "--players", str(PLAYERS), "--seed", "5")
    out = ok(run, *args, "--json", str(target))
    assert "50 games" in out and "seat" in header(out)
    assert f"summary written to {target}" in out
    stdout = json.loads(ok(run, *args, "--json", "-"))
    written = json.loads(target.read_text())
    timing = {"seconds", "games_per_second", "ns_per_move"}
    assert {k: v for k, v in written.items() if k not in timing} == \
        {k: v for k, v in stdout.items() if k not in timing}


@pytest.mark.parametrize("name", GAMES)
def test_tournament_json_takes_a_file_or_dash(run, name, tmp_path):
    args = ("tournament", "--game", name, "--bots", "greedy,random", "--games", "2", "--seed", "1", "--workers", "1")
    d = json.loads(ok(run, *args, "--json", "-"))  # the JSON alone: no table
    assert d["game"] == name and d["bots"] == ["greedy", "random"] and d["games"] == 4
    target = tmp_path / "result.json"
    out = ok(run, *args, "--json", str(target))
    assert "| bot |" in out and f"result written to {target}" in out
    written = json.loads(target.read_text())
    assert written["stats"] == d["stats"]


@pytest.mark.parametrize("argv", [["simulate", "--games", "10"],
                                  ["tournament", "--bots", "greedy,random", "--games", "1"]])
def test_json_to_a_bad_place_is_refused_before_the_work(run, argv, tmp_path):
    err = error(run, *argv, "--json", str(tmp_path / "missing" / "x.json"))
    assert "--json" in err and "does not exist" in err
    err = error(run, *argv, "--json", str(tmp_path))
    assert "is a directory" in err


@pytest.mark.parametrize("sub", ["simulate", "tournament"])
def test_json_help_says_file_or_dash(capsys, sub):
    with pytest.raises(SystemExit):
        cli.main([sub, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--json [FILE]" in text
    assert "write the result as JSON to FILE, or to standard output with -" in text
