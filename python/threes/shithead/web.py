"""Shithead at the web table (``threes serve``), found through the registry's
``web`` hook: a table's rules are a preset with house rules over it, which
the lobby offers from the presets. A game without a ``web`` module is served
from the options it declares (threes.options)."""
from __future__ import annotations

import re
from typing import Any, Dict, Optional

from threes.shithead.game import Game
from threes.shithead.rules import _FIELD_DOCS, FIELDS, INT_FIELDS, PRESETS, Rules


def _as_int(name: str, value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*[0-9]{1,4}\s*", value):
        return int(value)
    raise ValueError(f"{name} takes a whole number, not {value!r}")


def parse_options(preset: Optional[str], overrides: Dict[str, Any]) -> Dict[str, Any]:
    """A table's rules as plain JSON values: ``{"preset": name, NAME: value ...}``, the full rule set
    being ``Rules.preset(preset, **overrides)`` (checked by building it). House rules arrive as text
    (``pickup_then_play=false``) or JSON values. ValueError (or TypeError) for a bad name or value."""
    preset = "threes" if preset in (None, "") else preset
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}: choose one of {', '.join(PRESETS)}")
    out: Dict[str, Any] = {}
    for name, value in overrides.items():
        if name not in FIELDS:
            raise ValueError(f"unknown rule {name!r}: the rules are {', '.join(FIELDS)}")
        if name in INT_FIELDS:
            value = _as_int(name, value)
        elif isinstance(value, list):
            if len(value) > 32 or not all(isinstance(x, (str, int)) and not isinstance(x, bool) for x in value):
                raise ValueError(f"rule {name}: a list of ranks or suits, not {value!r}")
        elif not isinstance(value, (str, bool)):
            raise ValueError(f"rule {name}: not a value: {value!r}")
        out[name] = value
    rules = Rules.preset(preset, **out)
    return {"preset": preset, **{k: v for k, v in rules.to_dict().items() if k in out}}


def build_game(options: Dict[str, Any], num_players: int, max_moves: Optional[int]) -> Game:
    """The Game of a table's rules (parse_options' value); ValueError when the rules cannot seat the
    players."""
    opts = dict(options)
    rules = Rules.preset(opts.pop("preset", "threes"), **opts)
    if num_players > rules.max_players():
        raise ValueError(f"these rules deal for at most {rules.max_players()} players, not {num_players}")
    return Game(num_players, rules, max_moves)


def lobby(max_seats: int) -> Dict[str, Any]:
    """What the lobby offers: every preset's rule set, each rule's meaning, and the most players each
    preset seats (at most max_seats)."""
    return {"presets": {p: Rules.preset(p).to_dict() for p in PRESETS}, "rules": dict(_FIELD_DOCS),
            "max_players": {p: min(max_seats, Rules.preset(p).max_players()) for p in PRESETS}}
