"""Tests of the ``threes`` command line (python/threes/cli.py).

Every command runs in a child process (``python -m threes ...``; one test runs
the ``threes`` console script itself); ``threes play`` runs in a
pseudo-terminal driven by pexpect, with a scripted player that checks every
screen against a mirror of the game rebuilt from the moves printed.
"""
from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys

import pexpect
import pytest

import threes
from threes.shithead.rules import FIELDS, PRESETS, Rules

TIMING_KEYS = {"seconds", "games_per_second", "ns_per_move", "threads"}
JSON_KEYS = {"players", "games", "win_rate", "shithead_rate", "mean_place", "mean_moves", "truncated",
             "stalemates", "games_per_second", "policies", "seed"}
SUIT_SYMBOLS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
BLOCK = "\u2588"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _env(**extra: str) -> dict:
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    env.pop("FORCE_COLOR", None)
    env["PYTHONIOENCODING"] = "utf-8"
    env["COLUMNS"] = "400"
    env.update(extra)
    return env


def run(*args: str, timeout: float = 60, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "threes", *args], capture_output=True, text=True,
                          encoding="utf-8", timeout=timeout, env=env or _env())


def run_ok(*args: str) -> str:
    p = run(*args)
    assert p.returncode == 0, (args, p.returncode, p.stdout, p.stderr)
    assert "Traceback" not in p.stderr
    return p.stdout


def simulate_json(*args: str) -> dict:
    return json.loads(run_ok("simulate", "--json", "-", *args))


def assert_cli_error(p: subprocess.CompletedProcess, *fragments: str) -> str:
    """Exit code 2, one clear ``threes: error:`` line on stderr, no traceback."""
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert "Traceback" not in p.stderr, p.stderr
    err = p.stderr.strip()
    assert err.startswith("threes: error: "), err
    for f in fragments:
        assert f.lower() in err.lower(), (f, err)
    return err


def _ids(case) -> str:
    return " ".join(case) if isinstance(case, list) and all(isinstance(x, str) for x in case) else ""


def figures(d: dict) -> dict:
    return {k: v for k, v in d.items() if k not in TIMING_KEYS}


def api_figures(r) -> dict:
    return {"win_rate": r.win_rate.tolist(), "shithead_rate": r.shithead_rate.tolist(),
            "mean_place": r.mean_place.tolist(), "mean_moves": r.mean_moves,
            "truncated": int((r.truncated & ~r.stalemate).sum()), "stalemates": int(r.stalemate.sum()),
            "games": r.num_games, "players": r.num_players, "seed": r.seed, "policies": list(r.policies)}


# ---------------------------------------------------------------- --help --
@pytest.mark.parametrize("args", [["--help"], ["-h"]])
def test_help_lists_subcommands(args):
    out = run_ok(*args)
    assert "usage: threes" in out
    for sub in ("simulate", "play", "tournament", "rules"):
        assert re.search(rf"^\s+{sub}\s+\S", out, re.M), (sub, out)
    assert "--no-color" in out


@pytest.mark.parametrize("sub, options", [
    ("simulate", ["--games", "--players", "--rules", "--set", "--policy", "--threads", "--seed", "--json", "--plot"]),
    ("play", ["--players", "--rules", "--bots", "--seat", "--seed"]),
    ("tournament", ["--bots", "--games", "--rules", "--seed", "--workers", "--json"]),
    ("rules", ["--set"]),
])
def test_subcommand_help(sub, options):
    out = run_ok(sub, "--help")
    assert f"usage: threes {sub}" in out
    for o in options:
        assert o in out, (sub, o)


def test_no_subcommand_exits_2():
    p = run()
    assert p.returncode == 2
    assert "usage: threes" in p.stderr
    assert "required" in p.stderr
    assert "Traceback" not in p.stderr


def test_unknown_subcommand_exits_2():
    p = run("bogus")
    assert p.returncode == 2
    assert "invalid choice" in p.stderr
    assert "Traceback" not in p.stderr


def test_console_script():
    exe = os.path.join(os.path.dirname(sys.executable), "threes")
    if not os.path.exists(exe):
        exe = shutil.which("threes") or exe
    assert os.path.exists(exe), f"the threes console script is not installed ({exe})"
    assert os.access(exe, os.X_OK)
    p = subprocess.run([exe, "--help"], capture_output=True, text=True, encoding="utf-8", timeout=60, env=_env())
    assert p.returncode == 0, p.stderr
    for sub in ("simulate", "play", "tournament", "rules"):
        assert sub in p.stdout
    p = subprocess.run([exe, "simulate", "--games", "200", "--seed", "4", "--json", "-"], capture_output=True,
                       text=True, encoding="utf-8", timeout=60, env=_env())
    assert p.returncode == 0, p.stderr
    assert figures(json.loads(p.stdout)) == figures(simulate_json("--games", "200", "--seed", "4"))
    p = subprocess.run([exe], capture_output=True, text=True, encoding="utf-8", timeout=60, env=_env())
    assert p.returncode == 2 and "usage: threes" in p.stderr


# -------------------------------------------------------------- simulate --
_ROW_RE = re.compile(r"^\W*(\d+)\W+(random|greedy|heuristic)\W+([\d.]+)%\W+([\d.]+)%\W+([\d.]+)\W*$")
_TOTALS_RE = re.compile(r"moves per game: ([\d,.]+)\s+([\d,]+) games/s \((\d+) threads, ([\d.,]+) ns/move\)")
_TRUNCATED_RE = re.compile(r"^truncated games: ([\d,]+) of ([\d,]+) \(([\d.]+)%\): "
                           r"cut at the move cap of ([\d,]+) moves", re.M)


def parse_simulate_table(out: str):
    """(rows: seat, policy, win %, shithead %, mean place counted from 1; the totals line's match; the
    number of truncated games its line says, 0 when the line saying every game ended normally is there)."""
    rows = [_ROW_RE.match(line) for line in out.splitlines()]
    rows = [(int(m[1]), m[2], float(m[3]), float(m[4]), float(m[5])) for m in rows if m]
    totals = _TOTALS_RE.search(out)
    cut = _TRUNCATED_RE.search(out)
    if cut is None:
        assert "every game ended normally" in out, out
    return rows, totals, int(cut[1].replace(",", "")) if cut else 0


def test_simulate_table():
    out = run_ok("simulate", "--games", "2000", "--no-color")
    assert "\x1b[" not in out
    assert "2,000 games, threes rules, 4 players, seed 1" in out
    header = next(line for line in out.splitlines() if "seat" in line and "policy" in line)
    for col in ("seat", "policy", "win", "shithead", "mean place (1st = best)"):
        assert col in header
    rows, totals, cut = parse_simulate_table(out)
    assert [r[0] for r in rows] == [0, 1, 2, 3]
    assert all(r[1] == "random" for r in rows)
    assert all(0 <= r[2] <= 100 and 0 <= r[3] <= 100 and 1 <= r[4] <= 4 for r in rows)
    assert totals, out
    assert float(totals[1].replace(",", "")) > 10
    assert int(totals[2].replace(",", "")) > 0
    # the table shows the same games as --json (same seed), rounded; places counted from 1 for people
    d = simulate_json("--games", "2000")
    for q, (_, _, win, shit, place) in enumerate(rows):
        assert win == pytest.approx(100 * d["win_rate"][q], abs=0.051)
        assert shit == pytest.approx(100 * d["shithead_rate"][q], abs=0.051)
        assert place == pytest.approx(d["mean_place"][q] + 1, abs=0.0051)
    assert cut == d["truncated"]
    assert float(totals[1].replace(",", "")) == pytest.approx(d["mean_moves"], abs=0.051)


def check_summary(d: dict, players: int, games: int) -> None:
    assert JSON_KEYS <= set(d), set(d)
    assert d["players"] == players and d["games"] == games
    for k in ("win_rate", "shithead_rate", "mean_place"):
        assert isinstance(d[k], list) and len(d[k]) == players, k
    assert len(d["policies"]) == players
    assert all(0.0 <= x <= 1.0 for x in d["win_rate"] + d["shithead_rate"])
    assert all(0.0 <= x <= players - 1 for x in d["mean_place"])
    assert isinstance(d["truncated"], int) and isinstance(d["stalemates"], int)
    assert 0 <= d["truncated"] + d["stalemates"] <= games
    trunc = (d["truncated"] + d["stalemates"]) / games
    # every finished game has exactly one shithead; a truncated (or stalemated) game has none
    assert sum(d["shithead_rate"]) == pytest.approx(1.0 - trunc, abs=1e-9)
    # every finished game has one winner; a truncated game may or may not
    assert 1.0 - trunc - 1e-9 <= sum(d["win_rate"]) <= 1.0 + 1e-9
    # places (the open ones shared in truncated games) always sum to 0 + 1 + ... + (n-1)
    assert sum(d["mean_place"]) == pytest.approx(players * (players - 1) / 2, abs=1e-9)
    assert d["mean_moves"] > 0
    assert d["games_per_second"] > 0
    assert isinstance(d["seed"], int)


def test_simulate_json():
    d = simulate_json("--games", "2000", "--seed", "7")
    check_summary(d, 4, 2000)
    assert d["seed"] == 7
    assert d["policies"] == ["random"] * 4
    assert d["rules"] == "threes"


def test_simulate_json_equals_python_api():
    d = simulate_json("--games", "1500", "--seed", "12345")
    r = threes.rollouts(threes.Game(4, "threes"), 1500, "random", 12345)
    for k, v in api_figures(r).items():
        assert d[k] == v, k


def test_simulate_table_equals_python_api():
    """The table (played in chunks, with a progress bar) shows the same games as one API call."""
    out = run_ok("simulate", "--games", "3000", "--seed", "99", "--no-color")
    rows, totals, cut = parse_simulate_table(out)
    r = threes.rollouts(threes.Game(4, "threes"), 3000, "random", 99)
    assert len(rows) == 4
    for q, (_, _, win, shit, place) in enumerate(rows):
        assert win == pytest.approx(100 * r.win_rate[q], abs=0.051)
        assert shit == pytest.approx(100 * r.shithead_rate[q], abs=0.051)
        assert place == pytest.approx(r.mean_place[q] + 1, abs=0.0051)
    assert cut == int(r.truncated.sum())


def test_simulate_negative_seed_is_taken_modulo_2_64():
    d = simulate_json("--games", "300", "--seed", "-1")
    assert d["seed"] == 2**64 - 1
    r = threes.rollouts(threes.Game(4, "threes"), 300, "random", -1)
    assert d["win_rate"] == r.win_rate.tolist() and d["mean_moves"] == r.mean_moves


@pytest.mark.parametrize("players, preset", [(2, "threes"), (3, "classic"), (5, "dutch"), (12, "threes")])
def test_simulate_players_and_presets(players, preset):
    d = simulate_json("--games", "400", "--players", str(players), "--rules", preset, "--seed", "3")
    check_summary(d, players, 400)
    assert d["rules"] == preset
    r = threes.rollouts(threes.Game(players, preset), 400, "random", 3)
    for k, v in api_figures(r).items():
        assert d[k] == v, k


def test_simulate_set_changes_results():
    base = simulate_json("--games", "2000", "--seed", "5")
    changed = simulate_json("--games", "2000", "--seed", "5", "--set", "pickup_then_play=false")
    check_summary(changed, 4, 2000)
    assert isinstance(changed["rules"], dict)
    assert changed["rules"]["pickup_then_play"] is False
    assert set(changed["rules"]) == set(FIELDS)
    assert figures(changed) != figures(base)
    assert changed["mean_moves"] != base["mean_moves"]
    r = threes.rollouts(threes.Game(4, Rules.preset("threes", pickup_then_play=False)), 2000, "random", 5)
    for k, v in api_figures(r).items():
        assert changed[k] == v, k


def test_simulate_set_repeatable_and_dashes():
    d = simulate_json("--games", "200", "--set", "decks=1", "--set", "jokers=0", "--set", "pickup-then-play=no")
    assert d["rules"]["decks"] == 1 and d["rules"]["jokers"] == 0 and d["rules"]["pickup_then_play"] is False
    check_summary(d, 4, 200)


def test_simulate_set_back_to_preset_is_named():
    d = simulate_json("--games", "100", "--set", "pickup_then_play=true")
    assert d["rules"] == "threes"


def test_simulate_max_moves_truncates():
    d = simulate_json("--games", "300", "--max-moves", "40")
    check_summary(d, 4, 300)
    assert d["truncated"] == 300
    assert d["mean_moves"] == 40
    assert sum(d["shithead_rate"]) == 0


@pytest.mark.parametrize("args, fragments", ids=_ids, argvalues=[
    (["--set", "bogus=1"], ["unknown rule 'bogus'", "pickup_then_play"]),
    (["--set", "decks=x"], ["decks", "whole number", "'x'"]),
    (["--set", "decks"], ["NAME=VALUE"]),
    (["--set", "=3"], ["NAME=VALUE"]),
    (["--set", "pickup_then_play=maybe"], ["pickup_then_play", "true or false"]),
    (["--set", "wild=Z"], ["'Z'", "rank"]),
    (["--set", "decks=0"], ["decks"]),
    (["--set", "decks=300"], ["decks"]),
    (["--set", "start=xx"], ["start"]),
    (["--policy", "bogus"], ["unknown policy 'bogus'", "random", "greedy"]),
    (["--policy", "greedy,random"], ["one per seat", "4"]),
    (["--policy", "greedy,random,random,bogus"], ["unknown policy 'bogus'"]),
    (["--games", "0"], ["--games", "at least 1"]),
    (["--games", "-5"], ["--games"]),
    (["--players", "13"], ["num_players", "13"]),
    (["--players", "1"], ["num_players"]),
    (["--players", "6", "--rules", "dutch"], ["at most 5 players"]),
    (["--players", "0"], ["num_players"]),
    (["--rules", "bogus"], ["unknown preset 'bogus'", "classic"]),
    (["--threads", "0"], ["--threads", "between 1 and 256", "not 0"]),
    (["--threads", "100000"], ["threads", "100000"]),
    (["--max-moves", "0"], ["max_moves"]),
])
def test_simulate_errors(args, fragments):
    assert_cli_error(run("simulate", "--games", "10", *args), *fragments)


@pytest.mark.parametrize("args", [["--games", "x"], ["--players", "two"], ["--seed", "1.5"], ["--bogus"]])
def test_simulate_argparse_errors(args):
    p = run("simulate", *args)
    assert p.returncode == 2
    assert "usage: threes" in p.stderr
    assert "Traceback" not in p.stderr


def test_simulate_greedy_wins_more():
    d = simulate_json("--games", "2000", "--policy", "greedy,random,random,random", "--seed", "2")
    check_summary(d, 4, 2000)
    assert d["policies"] == ["greedy", "random", "random", "random"]
    assert d["win_rate"][0] > 0.4 > max(d["win_rate"][1:])
    assert d["shithead_rate"][0] < min(d["shithead_rate"][1:])
    assert d["mean_place"][0] < min(d["mean_place"][1:])
    out = run_ok("simulate", "--games", "500", "--policy", "greedy,random,random,random", "--no-color")
    rows, _, _ = parse_simulate_table(out)
    assert [r[1] for r in rows] == ["greedy", "random", "random", "random"]


def test_simulate_policy_one_name_for_every_seat():
    d = simulate_json("--games", "300", "--policy", "HEURISTIC", "--players", "3")
    assert d["policies"] == ["heuristic"] * 3


def _check_png(path) -> None:
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE
    assert len(data) > 5000
    assert data[12:16] == b"IHDR"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width > 300 and height > 100


def test_simulate_plot(tmp_path):
    png = tmp_path / "seats.png"
    out = run_ok("simulate", "--games", "500", "--plot", str(png), "--no-color")
    _check_png(png)
    assert f"plot written to {png}" in out
    rows, _, _ = parse_simulate_table(out)
    assert len(rows) == 4


def test_simulate_json_plot(tmp_path):
    png = tmp_path / "both.png"
    d = simulate_json("--games", "500", "--plot", str(png))
    check_summary(d, 4, 500)
    _check_png(png)


def test_simulate_threads_do_not_change_results():
    one = simulate_json("--games", "3000", "--seed", "11", "--threads", "1")
    two = simulate_json("--games", "3000", "--seed", "11", "--threads", "2")
    assert one["threads"] == 1 and two["threads"] == 2
    assert figures(one) == figures(two)
    check_summary(one, 4, 3000)


def test_simulate_same_seed_same_figures_other_seed_differs():
    a = simulate_json("--games", "1000", "--seed", "21")
    b = simulate_json("--games", "1000", "--seed", "21")
    c = simulate_json("--games", "1000", "--seed", "22")
    assert figures(a) == figures(b)
    assert figures(a) != figures(c)


def test_no_color_env_and_flag_positions():
    plain = run("rules", env=_env(NO_COLOR="1"))
    assert plain.returncode == 0 and "\x1b[" not in plain.stdout
    for args in (["--no-color", "rules"], ["rules", "--no-color"]):
        out = run_ok(*args)
        assert "\x1b[" not in out and "decks" in out


# ----------------------------------------------------------------- rules --
_RULE_LINE = re.compile(r"^\s*([a-z_]+) = (.*?): (.*)$")
_FACES = {"T": "10", "X": "JK"}


def parse_rules_lines(out: str) -> dict:
    """{rule: (value, words)} of ``threes rules``' lines ``name = value: what the value means``."""
    rows = {}
    for line in out.splitlines():
        m = _RULE_LINE.match(line)
        if m and m[1] in FIELDS:
            rows[m[1]] = (m[2], m[3])
    return rows


def expected_value(rules: Rules, name: str) -> str:
    """A rule's value as people read it: ranks as faces (10, not T; JK, not X), yes/no, none."""
    v = getattr(rules, name)
    if isinstance(v, tuple):
        return " ".join(_FACES.get(x, x) for x in v) or "none"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


@pytest.mark.parametrize("preset", [None, *PRESETS])
def test_rules_lists_every_rule_in_words_after_the_aim(preset):
    out = run_ok(*(["rules"] + ([preset] if preset else []) + ["--no-color"]))
    rules = Rules.preset(preset or "threes")
    lines = [line.strip() for line in out.splitlines() if line.strip()]
    assert lines[0] == f"Shithead, {preset or 'threes'} rules"
    assert lines[1].startswith("The aim: be rid of all your cards") and "the shithead" in lines[1]
    rows = parse_rules_lines(out)
    assert list(rows) == list(FIELDS)
    assert {k: v for k, (v, _) in rows.items()} == {f: expected_value(rules, f) for f in FIELDS}
    assert all(len(words.split()) >= 2 for _, words in rows.values())
    assert f"rules: {preset or 'threes'}; deck: {rules.deck_size()} cards; 2 to {rules.max_players()} players" in out
    # the sections are cited as "the rules, section N", and the reader is told where the rules are
    assert "RULES.md section" not in out and "the rules, section 5" in out and "the rules, section 7" in out
    assert "Rules pages of the docs site" in out and "docs/shithead/RULES.md in the source" in out


def test_rules_values_are_words_not_raw_codes():
    rows = parse_rules_lines(run_ok("rules", "dutch", "--no-color"))
    assert rows["burn"] == ("10", "10s burn the pile when played: its cards leave the game")
    assert rows["invisible_in_runs"][0] == "break"
    assert rows["invisible_in_runs"][1].startswith("invisible cards count as their own rank in a run")
    assert "no effect here: run_to_burn is off" in rows["invisible_in_runs"][1]
    assert rows["lower_strict"] == ("yes", "after a 7 the next card must be strictly lower: a 7 may not follow it")
    assert rows["run_to_burn"][1].startswith("off")
    assert rows["start_suits"] == ("c d h s", "within a rank, clubs come first, then diamonds, hearts and spades")
    rows = parse_rules_lines(run_ok("rules", "classic", "--no-color"))
    assert rows["wild"] == ("2 3 10", "2s, 3s and 10s are wild: playable on anything")
    assert rows["pickup_then_play"] == ("no", "picking up the pile ends the turn: the next player plays")


@pytest.mark.parametrize("field", [f for f in FIELDS if isinstance(getattr(Rules(), f), bool)])
def test_rules_a_yes_and_a_no_read_differently(field):
    """Each line says what its value means: the words for yes are not those for no."""
    on = parse_rules_lines(run_ok("rules", "--set", f"{field}=true", "--no-color"))[field]
    off = parse_rules_lines(run_ok("rules", "--set", f"{field}=false", "--no-color"))[field]
    assert on[0] == "yes" and off[0] == "no"
    assert on[1] != off[1]


def test_rules_set_is_shown():
    out = run_ok("rules", "classic", "--set", "decks=2", "--no-color")
    rows = parse_rules_lines(out)
    expected = Rules.preset("classic", decks=2)
    assert rows["decks"] == ("2", "two 52-card decks shuffled together")
    assert {k: v for k, (v, _) in rows.items()} == {f: expected_value(expected, f) for f in FIELDS}
    assert "Shithead, custom rules" in out and "rules: custom (house rules)" in out
    assert f"deck: {expected.deck_size()} cards" in out
    assert Rules.preset("classic").decks != 2


def test_rules_set_bool_and_ranks():
    rows = parse_rules_lines(run_ok("rules", "--set", "pickup_then_play=false", "--set", "wild=2 X",
                                    "--set", "repetition_limit=3", "--no-color"))
    assert rows["pickup_then_play"][0] == "no"
    assert rows["wild"] == ("2 JK", "2s and jokers are wild: playable on anything")
    assert rows["repetition_limit"][1].startswith("a game ends as a stalemate when the same position occurs for the "
                                                  "3rd time")


@pytest.mark.parametrize("word", ["three-thirteen", "three_thirteen", "3-13", "3_13", "Three-Thirteen"])
def test_rules_takes_a_game_name_as_its_argument(word):
    by_name = run_ok("rules", word, "--no-color")
    assert by_name == run_ok("rules", "--game", "three_thirteen", "--no-color")
    assert by_name.startswith("Three Thirteen\nThe aim: the lowest total after 11 rounds")
    assert "rediscard_taken = no: the card you take from the discard pile may not be discarded in the same turn" \
        in by_name


def test_rules_shithead_by_name_is_its_first_preset():
    assert run_ok("rules", "shithead", "--no-color") == run_ok("rules", "threes", "--no-color") == \
        run_ok("rules", "--no-color")


@pytest.mark.parametrize("args, fragments", ids=_ids, argvalues=[
    (["bogus"], ["unknown preset or game 'bogus'", "threes", "classic", "dutch", "shithead, three_thirteen"]),
    (["--set", "bogus=1"], ["unknown rule 'bogus'"]),
    (["--set", "decks=x"], ["decks", "whole number"]),
    (["classic", "--set", "cards_per_zone=abc"], ["cards_per_zone"]),
    (["shithead", "--game", "3-13"], ["'shithead' is the game shithead but --game names three_thirteen"]),
    (["classic", "--game", "3-13"], ["Three Thirteen has no presets (classic)", "the games are"]),
    (["--players", "13"], ["num_players"]),
])
def test_rules_errors(args, fragments):
    assert_cli_error(run("rules", *args), *fragments)


# ------------------------------------------------------------ tournament --
def test_tournament(tmp_path):
    out_json = tmp_path / "out.json"
    out = run_ok("tournament", "--bots", "greedy,random,random", "--games", "3", "--seed", "1",
                 "--json", str(out_json), "--no-color")
    d = json.loads(out_json.read_text())
    assert d["bots"] == ["greedy#0", "random#1", "random#2"]
    for name in d["bots"]:
        assert re.search(rf"^\|\s*{re.escape(name)}\s*\|", out, re.M), (name, out)
    assert "3 duplicate deals x 3 rotations = 9 games" in out
    assert f"result written to {out_json}" in out
    assert d["num_players"] == 3 and d["deals"] == 3 and d["games"] == 9 and d["seed"] == 1
    assert d["rules"] == "threes"
    assert len(d["stats"]) == 3
    assert [s["bot"] for s in d["stats"]] == d["bots"]
    for s in d["stats"]:
        for k in ("mean_place", "win_rate", "shithead_rate"):
            assert set(s[k]) == {"mean", "low", "high"}
            assert s[k]["low"] <= s[k]["mean"] <= s[k]["high"]
        assert 0 <= s["mean_place"]["mean"] <= 2
        assert 0 <= s["win_rate"]["mean"] <= 1 and 0 <= s["shithead_rate"]["mean"] <= 1
    assert sum(s["mean_place"]["mean"] for s in d["stats"]) == pytest.approx(3.0)
    assert sum(s["win_rate"]["mean"] for s in d["stats"]) <= 1 + 1e-9
    # the same tournament through the Python API
    r = threes.tournament(["greedy", "random", "random"], 3, 1)
    assert r.stats == d["stats"]


def test_tournament_distinct_bots_without_json():
    out = run_ok("tournament", "--bots", "heuristic,random", "--games", "2", "--seed", "3", "--rules", "classic",
                 "--no-color")
    assert re.search(r"^\|\s*heuristic\s*\|", out, re.M)
    assert re.search(r"^\|\s*random\s*\|", out, re.M)
    assert "classic" in out
    assert "result written" not in out


@pytest.mark.parametrize("args, fragments", ids=_ids, argvalues=[
    (["--bots", "greedy"], ["at least two"]),
    (["--bots", ","], ["at least two"]),
    (["--bots", "greedy,bogus"], ["bogus"]),
    (["--bots", "greedy,random", "--games", "0"], ["games"]),
    (["--bots", "greedy,random", "--rules", "bogus"], ["unknown preset"]),
    (["--bots", "greedy,random", "--set", "decks=x"], ["decks"]),
    (["--bots", ",".join(["random"] * 13)], ["13"]),
])
def test_tournament_errors(args, fragments):
    assert_cli_error(run("tournament", "--games", "2", *args), *fragments)


def test_tournament_missing_bots():
    p = run("tournament", "--games", "2")
    assert p.returncode == 2
    assert "--bots" in p.stderr and "required" in p.stderr
    assert "Traceback" not in p.stderr


# ------------------------------------------------------------------ play --
def card_face(card) -> str:
    s = str(card)
    if s[0] == "X":
        return "JK\u2605"
    return ("10" if s[0] == "T" else s[0]) + SUIT_SYMBOLS[s[1]]


def faces(cards) -> list:
    return [card_face(c) for c in cards]


def _table_rows(screen: str) -> dict:
    """Rows of the last table on a screen: label -> [hand, face up, face down, status] cells. A row rich
    wrapped onto more lines (a narrow terminal) is joined back: its continuation lines have an empty seat
    cell."""
    rows = {}
    last = None
    for line in screen.splitlines():
        cells = line.split("\u2502")
        if len(cells) != 7:
            last = None if not line.startswith(("\u2502", "\u2503")) else last
            continue
        label = cells[1].strip()
        if label == "you" or label.startswith("seat "):
            rows[label] = [c.strip() for c in cells[2:6]]
            last = label
        elif not label and last is not None:
            rows[last] = [(a + " " + c.strip()).strip() for a, c in zip(rows[last], cells[2:6])]
    return rows


def check_screen(screen: str, state, seat: int) -> None:
    """The table and pile line show what `seat` may know of the mirrored true state, and nothing else."""
    n = state.num_players()
    rows = _table_rows(screen)
    assert len(rows) == n, screen
    cpz = state.rules.cards_per_zone
    for j in range(n):
        q = (seat + j) % n
        label = "you" if j == 0 else f"seat {q}"
        hand, up, down, status = rows[label]
        if state.is_terminal():  # the end: every hand and face-down card revealed
            tokens = hand.split()
            if j:
                assert tokens and tokens[-1] == f"({state.hand_size(q)})", (label, hand)
                tokens = tokens[:-1]
            assert tokens == (faces(state.hand(q)) or ["-"]), (label, hand)
            assert BLOCK not in hand
        elif j == 0:
            assert hand.split() == (faces(state.hand(q)) or ["-"]), (label, hand)
        else:
            tokens = hand.split()
            known = faces(state.known_cards(q))
            size = state.hand_size(q)
            hidden = size - len(known)
            assert tokens[-1] == f"({size})", (label, hand)
            shown = [t for t in tokens[:-1] if BLOCK not in t and not t.startswith("+")]
            blocks = "".join(t for t in tokens[:-1] if BLOCK in t)
            assert shown == known, (label, hand, known)  # only the publicly known cards are named
            assert set(blocks) <= {BLOCK} and len(blocks) == min(hidden, 12), (label, hand, hidden)
            assert (f"+{hidden - 12}" in tokens) == (hidden > 12)
        assert up.split() == (faces(state.face_up(q)) or ["-"]), (label, up)
        slots = state.face_down(q)
        if state.is_terminal():
            assert down.split() == [card_face(slots[k]) if slots[k] is not None else "\u00b7"
                                    for k in range(len(slots))], (label, down)
        else:
            assert down.split() == [BLOCK if slots[k] is not None else "\u00b7" for k in range(cpz)], (label, down)
        if not state.is_terminal() and state.current_player() == q:
            assert status == "to move"
    if state.is_terminal():
        assert not any(line.startswith("pile: ") for line in screen.splitlines())
        return
    lines = screen.splitlines()
    at = max(i for i, line in enumerate(lines) if line.startswith("pile: "))
    pile_line = lines[at]
    for line in lines[at + 1:]:  # a pile line wrapped on a narrow terminal goes on indented
        if not line.startswith("  ") or line.startswith("  * "):
            break
        pile_line += "   " + line.strip()
    pile = state.pile()
    if pile:
        assert pile_line[len("pile: "):].startswith(" ".join(faces(pile[-8:]))), pile_line
    else:
        assert pile_line.startswith("pile: (empty)")
    assert f"draw pile: {state.draw_pile_size()} " in pile_line + " "
    assert f"burned: {len(state.burned())}" in pile_line


_MOVE_LINE = re.compile(r"^(?:you|seat (\d+) \(([^)]*)\)): (.+)$")


def _conj(who: str, verb: str) -> str:
    """The verb as the narration conjugates it for `who` ("you play", "seat 1 (greedy) plays")."""
    if who == "you":
        return verb
    return {"are": "is"}.get(verb, verb + "s")


def expected_fragments(event, seat: int, names: list) -> list:
    """What the narration of one Shithead event must say, written here from the event's fields (not from
    threes.shithead.describe): who did what, with which cards; a private draw names its cards to its own
    seat only."""
    who = "you" if event.seat == seat else (names[event.seat] if event.seat is not None else "")
    k = event.kind
    if k == "swap":
        return [f"{who} {_conj(who, 'keep')} face up: {' '.join(faces(event.cards))}"]
    if k == "start":
        return [f"{who} {_conj(who, 'play')} first"]
    if k == "play":
        return [f"{who} {_conj(who, 'play')} {' '.join(faces(event.cards))}"]
    if k == "blind":
        out = [f"{who} {_conj(who, 'turn')} over {card_face(event.cards[0])} from face down"]
        return out + (["it cannot be played"] if event.detail == "picked_up" else [])
    if k == "burn":
        if event.detail == "run" and event.value:  # a run says how long it was: "four Jacks in a row burn the pile"
            return [" in a row burn the pile", f"({len(event.cards)} card"]
        return ["burns the pile", f"({len(event.cards)} card"]
    if k == "draw":
        if event.seat == seat:
            return [f"you draw {' '.join(faces(event.cards))}"]
        return [f"{who} draws {event.count} card{'s' if event.count != 1 else ''}"]
    if k == "pickup":
        return [f"{who} {_conj(who, 'pick')} up the pile ({len(event.cards)} card"]
    if k == "again":
        return [f"{who} {_conj(who, 'play')} again"]
    if k == "out":
        if event.detail == "last":
            return [f"{who} {_conj(who, 'are')} the shithead"]
        return [f"{who} {_conj(who, 'are')} out ({['1st', '2nd', '3rd'][event.value - 1] if event.value <= 3 else str(event.value) + 'th'})"]
    if k == "stalemate":
        return ["stalemate"]
    if k == "truncated":
        return ["move cap"]
    return ["the game is over"]


def narration_after(lines: list, i: int) -> list:
    """The sentences printed under the move line lines[i]: each starts on a line indented by two spaces, a
    wrapped sentence goes on over lines indented by four."""
    out = []
    for line in lines[i + 1:]:
        if line.startswith("    ") and out:
            out[-1] += " " + line.strip()
        elif line.startswith("  ") and not line.startswith(("   ", "  * ")):
            out.append(line.strip())
        else:
            break
    return out


def apply_printed_moves(chunk: str, state, seat: int, bots: dict, mine=None, echoes=None, seen=None) -> int:
    """Applies the moves a chunk of output reports ("you: 7x2", "seat 1 (greedy): pickup") to the mirror
    (with apply, which gives their events) and checks the narration printed under each move tells each
    event from our seat's point of view (expected_fragments); `seen` collects the events' kinds (and
    "burn+again", "blind failed") met.

    Our own move is applied as `mine` (the label of the move we chose) when given; the line that
    reports it is recorded in `echoes` as (printed, chosen)."""
    applied = 0
    names = ["you" if q == seat else f"seat {q} ({bots[q]})" for q in range(state.num_players())]
    lines = chunk.splitlines()
    for i, line in enumerate(lines):
        m = _MOVE_LINE.match(line)  # move lines are not indented; the narration under them is
        if not m:
            continue
        who = seat if m[1] is None else int(m[1])
        assert state.current_player() == who, (line, state.current_player())
        if m[1] is not None:
            assert m[2] == bots[who], line
        if m[1] is None and mine is not None:
            if echoes is not None:
                echoes.append((m[3], mine))
            events = state.apply(state.string_to_action(mine))
            mine = None
        else:
            events = state.apply(state.string_to_action(m[3]))
        sentences = narration_after(lines, i)
        told = " ".join(sentences)
        for e in events:
            for fragment in expected_fragments(e, seat, names):
                assert fragment in told, (line, e, fragment, told)
            if e.kind == "draw" and e.seat != seat:  # the whole sentence: no card of another seat's draw named
                assert expected_fragments(e, seat, names)[0] in sentences, (e, sentences)
            if seen is not None:
                seen.add(e.kind)
                if e.kind == "blind" and e.detail == "picked_up":
                    seen.add("blind failed")
        if any(e.kind == "burn" for e in events) and any(e.kind == "again" for e in events) and seen is not None:
            assert re.search(r"(burns|in a row burn) the pile \(\d+ cards?\): (you play|seat \d+ \(\S+\) plays) "
                             r"again", told), told
            seen.add("burn+again")
        applied += 1
    assert mine is None, "our move was not reported"
    return applied


def parse_moves(screen: str) -> list:
    """The numbered moves listed last on a screen: [(number, label)], the list joined back when it was
    wrapped over several lines (its continuation lines are indented)."""
    lines = screen.splitlines()
    start = max(i for i, line in enumerate(lines) if line.startswith("your moves: "))
    text = lines[start][len("your moves: "):]
    for line in lines[start + 1:]:
        if not line.startswith("  ") or line.startswith("  * "):
            break
        text += "  " + line.strip()
    return re.findall(r"\[(\d+)\] (.+?)(?=  \[|$)", text.strip())


def move_label(state, action: int) -> str:
    """A move as the list must show it (written here from the Move): ranks as the screen shows them (10x2,
    JKx1, up 10x1) and a swap as "keep face up: 4 8 J"."""
    move = state.decode_action(action)
    if move.kind == "swap":
        return "keep face up: " + " ".join({"T": "10", "X": "JK"}.get(r, r) for r in move.face_up)
    text = state.action_to_string(action)
    if move.kind == "play":
        text = text.replace("Tx", "10x").replace("Xx", "JKx")
    return text


def spawn_play(*args: str, env=None, columns: int = 400) -> pexpect.spawn:
    env = dict(env or _env())
    if columns != 400:
        env["COLUMNS"] = str(columns)
    child = pexpect.spawn(sys.executable, ["-m", "threes", "play", *args], encoding="utf-8", timeout=60,
                          env=env, dimensions=(60, columns))
    child.delaybeforesend = None  # the prompt is already there: no need for pexpect's 50 ms pause
    return child


def _read(child) -> str:
    return child.before.replace("\r\n", "\n").replace("\r", "")


def expect_reprompt(child, answer: str, *fragments: str) -> str:
    child.sendline(answer)
    child.expect_exact("your move> ")
    text = _read(child)
    assert "Traceback" not in text
    assert "your moves:" not in text, text  # the same turn: no new table
    assert not re.search(r"^you: ", text, re.M), text
    for f in fragments:
        assert f in text, (answer, f, text)
    return text


def _notation_variant(notation: str, k: int) -> str:
    """The same move written differently: case and spacing free, 10 for T."""
    if k % 3 == 1:
        return notation.lower().replace("t", "10") if not notation.startswith("up") else notation.upper()
    if k % 3 == 2:
        return "  " + notation.replace(" ", "   ") + " "
    return notation


def play_scripted_game(preset: str, players: int, seed: int, bots: str = "greedy", seat: int = 0,
                       bad_inputs: bool = True, seen=None, columns: int = 400, transcript=None):
    """Plays a whole game as `seat`, checking every screen against a mirror of the true state and the
    narration of every move against its events (`seen` collects the kinds met).

    Returns (the output after the last move, the mirror, exit status, number of our turns, and the
    "you: ..." lines as (printed, chosen) pairs)."""
    child = spawn_play("--players", str(players), "--seed", str(seed), "--bots", bots, "--seat", str(seat),
                       "--rules", preset, "--no-color", columns=columns)
    rng = random.Random(seed)
    specs = bots.split(",")
    if len(specs) == 1:
        specs = specs * (players - 1)
    it = iter(specs)
    bot_names = {q: next(it) for q in range(players) if q != seat}
    state = threes.Game(players, preset).new_initial_state(seed)
    turns = 0
    tried_illegal_play = False
    mine = None
    echoes = []
    while True:
        i = child.expect_exact(["your move> ", pexpect.EOF])
        chunk = _read(child)
        if transcript is not None:
            transcript.append(chunk)
        assert "Traceback" not in chunk, chunk
        if turns == 0:
            assert f"threes play: {preset} rules, {players} players, you are seat {seat}" in " ".join(chunk.split())
        apply_printed_moves(chunk, state, seat, bot_names, mine, echoes, seen)
        if i == 1:
            break
        turns += 1
        assert turns < 3000, "the game does not end"
        assert not state.is_terminal() and state.current_player() == seat
        check_screen(chunk, state, seat)
        check_explanation(chunk, state, seat)
        listed = parse_moves(chunk)
        legal = [move_label(state, a) for a in state.legal_actions()]
        assert [int(k) for k, _ in listed] == list(range(1, len(legal) + 1))
        assert [m for _, m in listed] == legal
        if bad_inputs and turns == 1:
            expect_reprompt(child, "zz9", "cannot read 'zz9'")
            expect_reprompt(child, "99", "no move number 99", f"choose 1 to {len(legal)}")
            expect_reprompt(child, "0", "no move number 0")
            expect_reprompt(child, str(len(legal) + 1), f"no move number {len(legal) + 1}")
            expect_reprompt(child, "blind 7", "cannot read 'blind 7'")
            expect_reprompt(child, "")
            expect_reprompt(child, "help", "Type the number in brackets", "pickup", "swap 7TA", "keep face up",
                            "'rules'")
            if state.phase.value == "swap":
                # well formed, but no play is legal while the players choose their face-up cards
                expect_reprompt(child, "3x1", "3x1 is not legal now", "choose one of the moves listed")
            if "pickup" not in legal:
                expect_reprompt(child, "pickup", "pickup is not legal now")
        if bad_inputs and not tried_illegal_play and state.phase.value == "play":
            ranks = [r for r in "3456789JQKA" if not any(f"{r}x" in m for m in legal)]
            if ranks:
                expect_reprompt(child, f"{ranks[0]}x1", f"{ranks[0]}x1 is not legal now")
                tried_illegal_play = True
        # a player that mostly plays its lowest move (so the game ends) and sometimes any move
        plays = [k for k, m in enumerate(legal) if m != "pickup"]
        k = plays[0] if plays and rng.random() < 0.75 else rng.randrange(len(legal))
        mine = legal[k]
        if turns % 2:
            child.sendline(_notation_variant(mine, turns // 2))
        else:
            child.sendline(str(k + 1))
    child.close()
    if bad_inputs:
        assert tried_illegal_play
    return chunk, state, child.exitstatus, turns, echoes


def _explanation(screen: str) -> list:
    """The explanation lines ("  * ...") printed before the last move list, joined where wrapped."""
    lines = screen.splitlines()
    start = max(i for i, line in enumerate(lines) if line.startswith("your moves: "))
    out = []
    for line in lines[:start]:
        if line.startswith("  * "):
            out.append(line[4:])
        elif line.startswith("    ") and out:
            out[-1] += " " + line.strip()
        else:
            out = [] if not line.startswith("  ") else out
    return out


def check_explanation(screen: str, state, seat: int) -> None:
    """The explanation says the rule on the top with the ranks the engine lets follow, names every held rank
    that cannot be played, and says why the only move is to pick up (checked against the engine here)."""
    said = _explanation(screen)
    assert said, screen
    text = " ".join(said)
    if state.phase.value == "swap":
        assert text.startswith("swap: choose which"), said
        return
    top = state.effective_top()
    face = {"T": "10", "X": "JK"}
    if top is None:
        assert "play any card" in said[0], said
    else:
        assert said[0].startswith(f"{face.get(top, top)} on top"), said
        ranks = "23456789TJQKA" + ("X" if state.rules.jokers else "")
        natural = [face.get(r, r) for r in ranks if state.is_playable(r) and r not in state.rules.wild]
        if natural:
            assert f"({' '.join(natural)})" in said[0], (said[0], natural)
    source = state.hand(seat) or state.face_up(seat)
    if source and top is not None:
        for r in sorted({c.rank for c in source}):
            if not state.is_playable(r):
                assert "can't be played on" in text and re.search(
                    rf"\b(a|an) {re.escape({'T': '10', 'J': 'Jack', 'Q': 'Queen', 'K': 'King', 'A': 'Ace', 'X': 'joker'}.get(r, r))}\b",
                    text), (r, said)
    moves = [state.action_to_string(a) for a in state.legal_actions()]
    if moves == ["pickup"] and source:
        assert "you must pick up the pile" in text, said
        assert ("then you play again" in text) == state.rules.pickup_then_play, said


def check_game_end(final: str, state, players: int, seat: int, bots: dict) -> None:
    assert state.is_terminal()
    check_screen(final, state, seat)
    m = re.search(r"^finishing order: (.+(?:\n  .+)*)$", final, re.M)
    assert m, final
    m = [None, " ".join(m[1].split())]
    order = state.finish_order()
    names = ["you" if q == seat else f"seat {q} ({bots[q]})" for q in range(players)]
    assert m[1] == ", ".join(f"{k + 1}. {names[q]}" for k, q in enumerate(order))
    if not state.is_truncated():
        assert sorted(order) == list(range(players))
        for name in names:
            assert name in m[1]
    assert ("you are the shithead!" in final) == (not state.is_truncated() and order[-1] == seat)


def test_play_full_game_with_bad_input():
    final, state, status, turns, echoes = play_scripted_game("threes", 3, 8)
    assert status == 0
    assert turns > 3
    check_game_end(final, state, 3, 0, {1: "greedy", 2: "greedy"})
    assert len(echoes) == turns


def test_play_reports_your_move_as_chosen():
    """After each move of ours the CLI prints "you: <move>"; it must name the move we chose (the notation
    of the list), e.g. not "you: hand+up 7x2" for a "7x2" played from the hand."""
    _, state, status, turns, echoes = play_scripted_game("threes", 3, 8, bad_inputs=False)
    assert status == 0 and state.is_terminal()
    wrong = [(printed, chosen) for printed, chosen in echoes if printed != chosen]
    assert not wrong, f"{len(wrong)} of {len(echoes)} 'you:' lines name another move (printed, chosen): {wrong[:5]}"


@pytest.mark.parametrize("preset, players, seed, bots, seat", [
    ("threes", 3, 1, "greedy", 0),
    # the quick suite plays one table of each preset; the full suite all ten
    pytest.param("threes", 2, 7, "greedy", 1, marks=pytest.mark.full),
    pytest.param("threes", 2, 12, "heuristic", 0, marks=pytest.mark.full),
    pytest.param("threes", 5, 9, "greedy", 4, marks=pytest.mark.full),
    ("classic", 3, 2, "greedy", 0),
    pytest.param("classic", 4, 6, "heuristic", 1, marks=pytest.mark.full),
    pytest.param("classic", 2, 5, "heuristic", 1, marks=pytest.mark.full),
    pytest.param("dutch", 3, 3, "greedy", 0, marks=pytest.mark.full),
    ("dutch", 4, 10, "greedy,heuristic,random", 2),
    pytest.param("threes", 4, 4, "random,greedy,heuristic", 2, marks=pytest.mark.full),
])
def test_play_to_the_end(preset, players, seed, bots, seat):
    final, state, status, turns, _ = play_scripted_game(preset, players, seed, bots, seat,
                                                        bad_inputs=seed % 2 == 0)
    assert status == 0
    specs = bots.split(",")
    specs = specs * (players - 1) if len(specs) == 1 else specs
    it = iter(specs)
    check_game_end(final, state, players, seat, {q: next(it) for q in range(players) if q != seat})


def _first_screen(*args: str, env=None) -> str:
    child = spawn_play("--players", "2", "--seed", "3", *args, env=env)
    child.expect_exact("your move> ")
    screen = _read(child)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0  # quit and end of input are normal exits
    return screen


def test_play_colors_in_a_terminal():
    colored = _first_screen()
    assert "\x1b[" in colored  # a terminal gets styles...
    plain = _first_screen("--no-color")
    assert "\x1b[" not in plain  # ...unless --no-color
    assert re.sub(r"\x1b\[[0-9;]*m", "", colored) == plain
    assert _first_screen(env=_env(NO_COLOR="1")) == plain  # ...or NO_COLOR=1


def test_play_screen_symbols_and_hidden_cards():
    child = spawn_play("--players", "3", "--seed", "5", "--bots", "greedy", "--no-color")
    child.expect_exact("your move> ")
    screen = _read(child)
    assert "\x1b[" not in screen
    assert any(sym in screen for sym in SUIT_SYMBOLS.values())
    state = threes.Game(3, "threes").new_initial_state(5)
    check_screen(screen, state, 0)
    rows = _table_rows(screen)
    # at the deal nothing of the other hands is known: blocks only, none of their cards named
    for q in (1, 2):
        hand = rows[f"seat {q}"][0]
        assert hand == BLOCK * state.hand_size(q) + f"  ({state.hand_size(q)})", hand
        for face in faces(state.hand(q)):
            assert face not in hand
        assert rows[f"seat {q}"][2].split() == [BLOCK] * 3
    assert rows["you"][0].split() == faces(state.hand(0))
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0  # quit and end of input are normal exits


def test_play_deals_a_random_seed_by_default_and_prints_it():
    """Without --seed every game is new; the header names its seed, and
    --seed with that number deals the same game again."""
    seeds, screens = [], {}
    for _ in range(3):
        child = spawn_play("--players", "2", "--bots", "random", "--no-color")
        child.expect_exact("your move> ")
        screen = _read(child)
        child.sendline("quit")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        m = re.search(r"seed (\d+) \(replay it with --seed (\d+)\)", screen)
        assert m and m.group(1) == m.group(2), screen[:300]
        seeds.append(int(m.group(1)))
        screens[int(m.group(1))] = screen
    assert len(set(seeds)) == 3, seeds  # three draws from 10**9 seeds
    child = spawn_play("--players", "2", "--bots", "random", "--no-color", "--seed", str(seeds[0]))
    child.expect_exact("your move> ")
    again = _read(child)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert again == screens[seeds[0]]


@pytest.mark.parametrize("word", ["quit", "q", "exit", "QUIT"])
def test_play_quit(word):
    child = spawn_play("--players", "3", "--seed", "1", "--bots", "greedy", "--no-color")
    child.expect_exact("your move> ")
    child.sendline("1")
    child.expect_exact("your move> ")
    child.sendline(word)
    child.expect(pexpect.EOF)
    text = _read(child)
    child.close()
    assert child.exitstatus == 0  # quit and end of input are normal exits
    assert "bye" in text
    assert "finishing order" not in text
    assert "Traceback" not in text


def test_play_end_of_input():
    child = spawn_play("--players", "2", "--seed", "1", "--bots", "random", "--no-color")
    child.expect_exact("your move> ")
    child.sendeof()
    child.expect(pexpect.EOF)
    text = _read(child)
    child.close()
    assert child.exitstatus == 0  # quit and end of input are normal exits
    assert "bye" in text
    assert "Traceback" not in text


@pytest.mark.parametrize("args, fragments", ids=_ids, argvalues=[
    (["--players", "3", "--seat", "3"], ["--seat", "0..2"]),
    (["--players", "3", "--seat", "-1"], ["--seat"]),
    (["--players", "4", "--bots", "greedy,random"], ["--bots", "3"]),
    (["--players", "3", "--bots", "bogus"], ["bogus"]),
    (["--players", "13"], ["num_players"]),
    (["--rules", "bogus"], ["unknown preset"]),
    (["--set", "decks=x"], ["decks"]),
])
def test_play_errors(args, fragments):
    assert_cli_error(run("play", *args, timeout=30), *fragments)
