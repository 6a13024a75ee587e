"""Every option a game declares (``GameInfo.options``, threes.options) reaches the game through every
front end: the Python Game, ``threes simulate``/``play`` (``--set NAME=VALUE``), the web lobby
(``/api/meta``) and its tables, the OpenSpiel parameters, and the PettingZoo and Gymnasium
constructors (``game_options``). The test walks the registry and names no game or option: a game
that declares an option some front end cannot reach fails here. Every front end's stack is in the
test extra: a missing one fails, it does not skip (cibuildwheel's core run leaves tests/contract out)."""
from __future__ import annotations

from typing import Any, List, Tuple

import pytest

from threes import registry
from threes.options import Option, parse_options

DECLARING = [name for name in registry.names() if registry.get(name).options]


def _other_values(o: Option) -> List[Any]:
    """Values of the option other than its default (each one the front ends must carry)."""
    if o.kind == "bool":
        return [not o.default]
    if o.kind == "choice":
        return [c for c in o.choices if c != o.default]
    low = max(o.low, 1) if o.default is None else o.low
    return sorted({v for v in (low, min(o.high, low + 2)) if v != o.default})


def _cases() -> List[Tuple[str, str, Any]]:
    return [(g, o.name, v) for g in DECLARING for o in registry.get(g).options for v in _other_values(o)]


def _option(game: str, name: str) -> Option:
    return next(o for o in registry.get(game).options if o.name == name)


def _game(game: str, **options: Any) -> Any:
    return registry.get(game).load().Game(3, **options)


def test_some_game_declares_options_and_each_declaration_is_sound():
    assert DECLARING, "no registered game declares options (threes.options)"
    for g in DECLARING:
        info = registry.get(g)
        names = [o.name for o in info.options]
        assert len(set(names)) == len(names), f"{g}: an option declared twice"
        defaults = _game(g).options()
        assert set(names) <= set(defaults), f"{g}: Game.options() lacks {set(names) - set(defaults)}"
        for o in info.options:
            assert o.meaning and o.section, f"{g}.{o.name}: say what it means and where the spec defines it"
            if o.default is not None:
                assert defaults[o.name] == o.default, f"{g}.{o.name}: declared default {o.default!r}, " \
                                                      f"the Game's {defaults[o.name]!r}"


@pytest.mark.parametrize("game, name, value", _cases())
def test_the_python_game_and_the_text_form(game, name, value):
    o = _option(game, name)
    assert _game(game, **{name: value}).options()[name] == value
    assert o.parse(str(value)) == value  # as a person types it
    assert parse_options(registry.get(game).options, {name.replace("_", "-").upper(): str(value)}, "g") == \
        {name: value}


@pytest.mark.parametrize("game, name, value", _cases())
def test_the_command_line(game, name, value):
    from threes.ui import cli

    args = cli._parser().parse_args(["simulate", "--game", game, "--players", "3", "--set", f"{name}={value}"])
    assert cli._command(args, "make_game")(args).options()[name] == value


def test_the_command_line_refuses_an_unknown_option_or_value_with_a_message():
    from threes.ui import cli

    for g in DECLARING:
        o = registry.get(g).options[0]
        for item in ("no_such_option=1", f"{o.name}=not-a-value-{o.name}"):
            args = cli._parser().parse_args(["simulate", "--game", g, "--players", "3", "--set", item])
            with pytest.raises(cli.CliError, match=o.name if "not-a-value" in item else "no_such_option"):
                cli._command(args, "make_game")(args)



@pytest.mark.parametrize("game, name, value", _cases())
def test_the_web_table(game, name, value):
    from threes.web.tables import TableSpec

    seats = [{"kind": "person"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    spec = TableSpec.create(game, None, {name: str(value)}, seats, 1, None)
    assert spec.build_game().options()[name] == value
    spec = TableSpec.create(game, None, f"{name}={value}", seats, 1, None)  # the lobby's NAME=VALUE lines
    assert spec.build_game().options()[name] == value


def test_the_web_lobby_lists_every_declared_option():
    from threes.web.app import _meta

    listed = {g["name"]: g for g in _meta()["games"]}
    for g in DECLARING:
        assert list(listed[g]["options"]) == [o.name for o in registry.get(g).options]
        for o in registry.get(g).options:
            assert o.meaning in listed[g]["options"][o.name]


def _pyspiel_game(game: str, params: dict) -> Any:
    import pyspiel

    import threes.openspiel  # noqa: F401 (registers the games)

    info = registry.get(game)
    names = [n for n in (info.name,) + tuple(info.aliases) if n in pyspiel.registered_names()]
    assert names, f"{game} is not registered with pyspiel"
    return pyspiel.load_game(names[0], params)


@pytest.mark.parametrize("game, name, value", _cases())
def test_the_openspiel_parameters(game, name, value):
    o = _option(game, name)
    assert _pyspiel_game(game, {name: o.to_param(value)}).threes_game.options()[name] == value


@pytest.mark.parametrize("game, name, value", _cases())
def test_the_pettingzoo_constructor(game, name, value):
    from threes.adapters.pettingzoo import env

    e = env(3, game=game, game_options={name: value})
    assert e.unwrapped.game.options()[name] == value


@pytest.mark.parametrize("game, name, value", _cases())
def test_the_gymnasium_constructor(game, name, value):
    from threes.adapters.gym import GameEnv

    assert GameEnv(game, 3, game_options={name: value}).game.options()[name] == value
