"""A stalemate by repetition (docs/shithead/RULES.md section 7, rule
``repetition_limit``) is reported as such, apart from the move cap, wherever
a result is reported: how a state ended (threes.places.end_reason, for every
game), the tournament's result, table and JSON, the command line's
simulate, tournament and play, the text and SVG pictures, and the adapters'
truncation flags with their reason.

Greedy bots with ``repetition_limit=2`` stalemate often (about one
two-player threes game in three), so the games below are real games, not
set-up positions.
"""
from __future__ import annotations

import io
import json

import numpy as np
import pytest
from rich.console import Console

import threes
from threes import three_thirteen as tt
from threes.bots import PolicyBot
from threes.places import FINISHED, MOVE_CAP, STALEMATE, end_reason
from threes.shithead.rules import Rules
from threes.ui import cli
from threes.ui.svg import render
from threes.ui.text import end_note

RULES = Rules.preset("threes", repetition_limit=2)


def _greedy_game(seed: int, players: int = 2, rules=RULES, max_moves=None) -> threes.State:
    s = threes.Game(players, rules, max_moves).new_initial_state(seed)
    bots = [PolicyBot("greedy", seed=seed + q) for q in range(players)]
    while not s.is_terminal():
        s.apply_action(bots[s.current_player()].step(s))
    return s


def _first(reason: str, **kw) -> threes.State:
    for seed in range(60):
        s = _greedy_game(seed, **kw)
        if end_reason(s) == reason:
            return s
    raise AssertionError(f"no greedy game ended by {reason} in 60 seeds")


@pytest.fixture(scope="module")
def stalemate() -> threes.State:
    return _first(STALEMATE)


@pytest.fixture(scope="module")
def capped() -> threes.State:
    return _first(MOVE_CAP, rules="threes", max_moves=40)


# -------------------------------------------------------- how a game ended --
def test_end_reason_tells_the_three_endings_apart(stalemate, capped):
    assert stalemate.is_stalemate() and stalemate.is_truncated() and stalemate.is_terminal()
    assert end_reason(stalemate) == STALEMATE
    assert end_reason(capped) == MOVE_CAP and not capped.is_stalemate()
    assert end_reason(_first(FINISHED)) == FINISHED
    assert end_reason(threes.Game(2).new_initial_state(1)) is None


def test_three_thirteen_answers_is_stalemate_like_every_game():
    game = tt.Game(2, max_moves=30)
    s = game.new_initial_state(1)
    assert s.is_stalemate() is False and end_reason(s) is None
    rng = np.random.default_rng(1)
    while not s.is_terminal():
        s.apply_action(int(rng.choice(s.legal_actions())))
    assert s.is_truncated() and s.is_stalemate() is False and end_reason(s) == MOVE_CAP
    r = tt.rollouts(game, 5, "random", seed=1, threads=1)
    assert r.stalemate.dtype == bool and r.stalemate.shape == (5,) and not r.stalemate.any()


def test_end_note_words_each_ending(stalemate, capped):
    assert end_note(stalemate) == "STALEMATE: the same position occurred 2 times"
    assert end_note(stalemate, 57) == "STALEMATE after 57 moves: the same position occurred 2 times"
    assert end_note(capped, 40) == "TRUNCATED at the move cap after 40 moves"
    assert end_note(_first(FINISHED)) is None


# --------------------------------------------------------------- tournament --
def test_tournament_counts_stalemates_apart_from_the_cap():
    r = threes.tournament(["greedy", "greedy"], games=12, seed=1, rules=RULES)
    assert r.stalemates > 0
    # a game not finished normally has no seat alone in the last place: the open places are shared
    unfinished = int((r.places.max(axis=2) < r.num_players - 1).sum())
    assert r.truncated + r.stalemates == unfinished
    assert f"{r.truncated} truncated at the move cap, {r.stalemates} stalemates" in r.table()
    d = json.loads(json.dumps(r.to_json()))
    assert d["truncated"] == r.truncated and d["stalemates"] == r.stalemates
    capped = threes.tournament(["greedy", "random"], games=2, seed=1, max_moves=40)
    assert (capped.truncated, capped.stalemates) == (4, 0)
    assert capped.to_json()["stalemates"] == 0


# ---------------------------------------------------------- command line --
def _run(argv, capsys) -> str:
    assert cli.main(argv) == 0
    return capsys.readouterr().out


SIM = ["simulate", "--games", "300", "--players", "2", "--policy", "greedy", "--set", "repetition_limit=2",
       "--max-moves", "300", "--threads", "1", "--seed", "4"]


def test_simulate_reports_stalemates_apart_from_the_cap(capsys):
    r = threes.rollouts(threes.Game(2, RULES, 300), 300, "greedy", seed=4, threads=1)
    cap, stale = int((r.truncated & ~r.stalemate).sum()), int(r.stalemate.sum())
    assert cap > 0 and stale > 0  # both endings occur in this batch
    d = json.loads(_run(SIM + ["--json", "-"], capsys))
    assert (d["truncated"], d["stalemates"]) == (cap, stale)
    out = " ".join(_run(SIM + ["--no-color"], capsys).split())
    assert f"truncated games: {cap:,} of 300 ({cap / 300:.1%}): cut at the move cap of 300 moves" in out
    assert f"stalemates: {stale:,} of 300 ({stale / 300:.1%}): ended by the repetition rule" in out
    d = json.loads(_run(["simulate", "--game", "3-13", "--games", "20", "--players", "2", "--json", "-",
                         "--seed", "1"], capsys))
    assert d["stalemates"] == 0 and "truncated" in d


def test_tournament_command_reports_stalemates(capsys):
    out = _run(["tournament", "--bots", "greedy,greedy", "--games", "12", "--seed", "1", "--workers", "1",
                "--set", "repetition_limit=2"], capsys)
    r = threes.tournament(["greedy", "greedy"], games=12, seed=1, rules=RULES)
    assert f"{r.truncated} truncated at the move cap, {r.stalemates} stalemates" in out


def test_play_says_stalemate():
    for seed in range(1, 40):
        args = cli._parser().parse_args(["play", "--players", "2", "--set", "repetition_limit=2", "--bots",
                                         "greedy", "--seed", str(seed), "--no-color"])
        buf = io.StringIO()
        assert cli.cmd_play(args, Console(file=buf, color_system=None, width=200), read=lambda prompt: "1") == 0
        out = buf.getvalue()
        if "STALEMATE" in out:
            break
    else:
        raise AssertionError("no stalemate in 39 games")
    assert "STALEMATE after " in out and ": the same position occurred 2 times" in out
    assert "move cap" not in out and "you are the shithead" not in out


# ----------------------------------------------------------------- pictures --
def test_text_and_svg_say_stalemate(stalemate, capped):
    text = str(stalemate)
    assert "STALEMATE" in text and "move cap" not in text
    assert "stalemate" in repr(stalemate) and "truncated" in repr(capped)
    picture = render(stalemate)
    assert "STALEMATE" in picture and "move cap" not in picture
    assert "TRUNCATED at the move cap" in str(capped) and "TRUNCATED at the move cap" in render(capped)


# ----------------------------------------------------------------- adapters --
def test_gymnasium_stalemate_is_a_truncation_with_its_reason():
    import threes.gym

    reasons = set()
    for seed in range(30):
        env = threes.gym.ThreesEnv(num_players=2, rules=RULES, opponents="greedy")
        obs, info = env.reset(seed=seed)
        me = PolicyBot("greedy", seed=seed)
        while True:
            obs, reward, terminated, truncated, info = env.step(me.step(env.unwrapped.game_state))
            if terminated or truncated:
                break
        state = env.unwrapped.game_state
        assert truncated == state.is_truncated() and terminated == (not truncated)
        assert info.get("truncation_reason") == (end_reason(state) if truncated else None)
        assert reward == state.returns()[0]
        reasons.add(info.get("truncation_reason"))
        env.close()
        if "stalemate" in reasons:
            break
    assert "stalemate" in reasons


def test_pettingzoo_stalemate_sets_truncations_with_its_reason():
    import threes.pettingzoo

    for seed in range(30):
        e = threes.pettingzoo.env(num_players=2, rules=RULES)
        e.reset(seed=seed)
        bot = PolicyBot("greedy", seed=seed)
        ends = {}
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                ends[agent] = (terminated, truncated, info.get("truncation_reason"))
                e.step(None)
            else:
                e.step(bot.step(e.unwrapped.game_state))
        if e.unwrapped.game_state.is_stalemate():
            assert ends == {a: (False, True, "stalemate") for a in ("player_0", "player_1")}
            return
    raise AssertionError("no stalemate in 30 games")


def test_openspiel_stalemate_is_terminal_and_says_so(stalemate):
    import pyspiel

    import threes.openspiel  # noqa: F401  (registers the games)
    from threes.adapters.openspiel import ThreesState

    game = pyspiel.load_game("threes", {"players": 2})
    s = ThreesState(game, inner=stalemate.clone())
    assert s.is_terminal() and s.returns() == stalemate.returns()
    assert "STALEMATE" in str(s) and "move cap" not in str(s)
