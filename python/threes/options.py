"""A game's options, declared once.

A game's package lists its options as ``OPTIONS``, a tuple of :class:`Option`
(name, kind, default, one line of meaning, the spec's section), and the
registry hands them to every front end (``GameInfo.options``): ``threes play``
and ``threes simulate`` (``--set NAME=VALUE``), the web lobby and its tables,
the OpenSpiel parameters, the PettingZoo and Gymnasium constructors. None of
them names a game's options; they read these. :meth:`Option.explain` says what a
value means at a table, one line each (``threes rules``, and ``rules`` at the
``threes play`` prompt, for the options a game's own words leave out).

>>> from threes import registry
>>> opts = registry.get("three_thirteen").options
>>> [o.name for o in opts][:3]
['decks', 'jokers', 'ace']
>>> parse_options(opts, {"wild-penalty": "20", "ace": "Either"}, "Three Thirteen")
{'wild_penalty': 20, 'ace': 'either'}
>>> parse_options(opts, {"aces": "low"}, "Three Thirteen")
Traceback (most recent call last):
...
ValueError: unknown Three Thirteen option 'aces': the options are decks, jokers, ace, all_wild_melds, wild_penalty, rediscard_taken, go_out_first_turn
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Mapping, Sequence, Tuple

import numpy as np

from threes.args import int_arg, parse_count

__all__ = ["Option", "parse_options", "option_names"]

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


@dataclass(frozen=True)
class Option:
    """One option of a game, as its ``Game`` takes it as a keyword ``name``.

    ``kind``: ``"int"`` (a whole number in ``low..high``; ``default`` None means
    the engine decides, which ``none`` says in words), ``"bool"`` or
    ``"choice"`` (one of ``choices``, compared as text without case: ``"20"``
    is the choice 20). ``meaning``: one line for people; ``section``: where the
    game's spec defines it."""

    name: str
    kind: str
    default: Any
    meaning: str
    choices: Tuple[Any, ...] = field(default=())
    low: int = 0
    high: int = 255
    none: str = ""
    section: str = ""

    def __post_init__(self) -> None:
        if self.kind not in ("int", "bool", "choice"):
            raise ValueError(f"option {self.name}: kind is int, bool or choice, not {self.kind!r}")
        if self.kind == "choice" and self.default not in self.choices:
            raise ValueError(f"option {self.name}: the default {self.default!r} is not one of its choices")

    def parse(self, value: Any) -> Any:
        """``value`` (the Game's own value, or text as a person types it) as the Game takes it;
        ValueError (or TypeError for a value of no possible type) naming the option and what it takes."""
        if self.kind == "int":
            if value is None or (isinstance(value, str) and value.strip().lower() in ("", "auto", "none")):
                if self.default is None:
                    return None
                raise ValueError(f"{self.name} takes a whole number in {self.low}..{self.high}")
            if isinstance(value, str):
                return parse_count(value.strip(), self.name, self.low, self.high)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise TypeError(f"{self.name} takes a whole number in {self.low}..{self.high}, "
                                f"not {type(value).__name__}")
            return int_arg(value, self.name, self.low, self.high)
        if self.kind == "bool":
            if isinstance(value, (bool, np.bool_)):
                return bool(value)
            text = str(value).strip().lower() if isinstance(value, (str, int)) else None
            if text in _TRUE:
                return True
            if text in _FALSE:
                return False
            raise ValueError(f"{self.name} takes true or false, not {value!r}")
        if not isinstance(value, bool) and isinstance(value, (str, int)):
            text = str(value).strip().lower()
            for c in self.choices:
                if str(c).lower() == text:
                    return c
        raise ValueError(f"{self.name} takes {self.takes()}, not {value!r}")

    def takes(self) -> str:
        """What the option takes, in words: "0..255", "true or false", "face or 20"."""
        if self.kind == "int":
            return f"{self.low}..{self.high}"
        if self.kind == "bool":
            return "true or false"
        return " or ".join(str(c) for c in self.choices)

    def default_text(self) -> str:
        """The default in words (``none`` when the engine decides)."""
        if self.default is None:
            return self.none or "the engine decides"
        if self.kind == "bool":
            return "true" if self.default else "false"
        return str(self.default)

    def describe(self) -> str:
        """One line: the meaning, what it takes and its default."""
        return f"{self.meaning}: {self.takes()} (default {self.default_text()})"

    def value_text(self, value: Any) -> str:
        """A value of the option in words: ``yes``/``no`` for a bool, ``none`` (or "the engine decides")
        for an int left to the engine, else the value as typed."""
        if value is None:
            return self.none or "the engine decides"
        if self.kind == "bool":
            return "yes" if value else "no"
        return str(value)

    def explain(self, value: Any) -> str:
        """One line stating what ``value`` means at a table: ``NAME = VALUE: meaning``, the default named
        when the value is another. A bool option's ``meaning`` says what it does when on, so off reads
        ``low_wins = no: off (yes would mean: the lowest card wins ...)``, never the meaning of on.

        >>> Option("low_wins", "bool", False, "the lowest card wins a trick").explain(False)
        'low_wins = no: off (yes would mean: the lowest card wins a trick)'
        >>> Option("hand_size", "int", 13, "cards dealt to each seat", low=1, high=13).explain(5)
        'hand_size = 5: cards dealt to each seat (default 13)'
        """
        if self.kind == "bool":
            text = self.meaning if value else f"off (yes would mean: {self.meaning})"
        elif self.kind == "choice":
            text = f"{self.meaning} (one of {', '.join(str(c) for c in self.choices)})"
        else:
            text = self.meaning
        default = "" if value == self.default else f" (default {self.value_text(self.default)})"
        return f"{self.name} = {self.value_text(value)}: {text}{default}"

    def to_param(self, value: Any) -> Any:
        """The value as an OpenSpiel game parameter (int, bool or str; an int option's None is 0,
        so the option's ``low`` must then be above 0 or 0 must mean "the engine decides")."""
        if self.kind == "int":
            return 0 if value is None else int(value)
        if self.kind == "bool":
            return bool(value)
        return str(value)

    def from_param(self, value: Any, label: str = "") -> Any:
        """The Game's value of an OpenSpiel parameter (:meth:`to_param`'s inverse): an int in
        ``low..high`` (0 too when the engine may decide: then None), a bool, or a choice's text.
        TypeError or ValueError naming ``label`` (default: the option's name) and the bounds."""
        label = label or self.name
        if self.kind == "int":
            v = int_arg(value, label, 0 if self.default is None else self.low, self.high)
            return None if v == 0 and self.default is None else v
        if self.kind == "bool":
            if not isinstance(value, (bool, np.bool_)):
                raise TypeError(f"{label} must be a bool, not {type(value).__name__}")
            return bool(value)
        if not isinstance(value, str):
            raise TypeError(f"{label} must be a string ({self.takes()}), not {type(value).__name__}")
        try:
            return self.parse(value)
        except ValueError:
            raise ValueError(f"{label} takes {self.takes()}, not {value!r}") from None


def option_names(options: Sequence[Option]) -> Tuple[str, ...]:
    """The options' names, in their order."""
    return tuple(o.name for o in options)


def parse_options(options: Sequence[Option], items: Mapping[str, Any], title: str) -> Dict[str, Any]:
    """``items`` (name -> value; a name may use ``-`` for ``_`` and any case) as the keyword
    options of the game's ``Game``, each checked by :meth:`Option.parse`. ValueError for a name
    that is not an option of the game (``title`` names the game in the message)."""
    by_name = {o.name: o for o in options}
    out: Dict[str, Any] = {}
    for raw, value in items.items():
        name = str(raw).strip().lower().replace("-", "_")
        option = by_name.get(name)
        if option is None:
            known = ", ".join(by_name) if by_name else "none"
            raise ValueError(f"unknown {title} option {raw!r}: the options are {known}")
        out[name] = option.parse(value)
    return out
