"""The rule set (RULES.md section 3) as a Python value.

The parameters and the three presets live in the C engine; this class only
converts names (ranks as text, ``"skip"``, ``"rank-suit"``) to the C struct's
fields and back, and the C engine validates them.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Dict, Iterable, Tuple

import numpy as np

from threes.shithead import _core
from threes.cards import RANKS, SUITS, rank_index

#: Names of the presets, in the C engine's order.
PRESETS: Tuple[str, ...] = ("threes", "classic", "dutch")

_RUNS = ("skip", "break")
_STARTS = ("rank-from-dealer", "rank-suit")

#: The one declaration of the parameters on the Python side: each one, in
#: the order of RULES.md section 3, with its type and its meaning (the table
#: of section 3; Rules.__doc__ lists them). "int" and "bool" are stored as
#: such in the C struct sh_rules, "ranks" (a rank set) as a bit mask of rank
#: indexes, "rank_list" / "suit_list" as arrays of indexes, and a tuple of
#: names as the index of the name. The C struct (rules.h, and its copy in
#: _core.pxd, which C needs) must have exactly these fields: checked at
#: import against _core.RULE_FIELDS, which is read off the struct.
_FIELD_SPECS: Tuple[Tuple[str, Any, str], ...] = (
    ("decks", "int", "decks shuffled together"),
    ("jokers", "int", "jokers per deck"),
    ("cards_per_zone", "int", "cards dealt face-down, face-up and to the hand"),
    ("wild", "ranks", "ranks playable on anything"),
    ("lower", "ranks", "ranks after which the next card must be <= (or <) their value"),
    ("lower_strict", "bool", "after a ``lower`` card the next must be strictly lower (else equal or lower)"),
    ("invisible", "ranks", "ranks that do not change the pile's value"),
    ("burn", "ranks", "ranks that close (burn) the pile when played"),
    ("run_to_burn", "int", "this many cards of one rank in a row burn the pile (0 = off)"),
    ("invisible_in_runs", _RUNS,
     "how invisible cards affect a run: ``skip`` (ignored) or ``break`` (count as their own rank)"),
    ("burner_plays_again", "bool", "the player who burned plays again"),
    ("pickup_then_play", "bool",
     "after picking up, the same player plays again on the empty pile; else the turn passes"),
    ("merge_hand_with_face_up", "bool", "the last hand cards may be played together with equal face-up cards"),
    ("start", _STARTS, "how the first player is found (RULES.md section 5)"),
    ("start_ranks", "rank_list", "rank order searched for the first player"),
    ("start_suits", "suit_list", "suit priority within a rank (for ``rank-suit``)"),
    ("repetition_limit", "int",
     "a game ends as a stalemate when one position occurs this often (RULES.md section 7; 0 = off)"),
)

#: The type of each parameter, in the order of _FIELD_SPECS.
_FIELD_TYPES: Dict[str, Any] = {name: t for name, t, _ in _FIELD_SPECS}
#: The one-line meaning of each parameter, in the order of _FIELD_SPECS.
_FIELD_DOCS: Dict[str, str] = {name: doc for name, _, doc in _FIELD_SPECS}

#: Every parameter, in the order of RULES.md section 3.
FIELDS: Tuple[str, ...] = tuple(_FIELD_TYPES)
#: The parameters that are whole numbers (text such as ``--set decks=1`` is read as an int).
INT_FIELDS: Tuple[str, ...] = tuple(n for n, t in _FIELD_TYPES.items() if t == "int")

if sorted(FIELDS) != sorted(_core.RULE_FIELDS):  # pragma: no cover - a build whose C struct changed
    raise ImportError(f"the rule fields of threes.shithead.rules {sorted(FIELDS)} are not those of the "
                      f"C struct sh_rules {sorted(_core.RULE_FIELDS)}")


def _mask_to_ranks(mask: int) -> Tuple[str, ...]:
    return tuple(RANKS[r] for r in range(len(RANKS)) if (mask >> r) & 1)


def _ranks_to_mask(ranks: Iterable[str]) -> int:
    m = 0
    for r in ranks:
        m |= 1 << RANKS.index(r)
    return m


def _same(x: Any) -> Any:
    return x


#: (C field -> Python value, Python value -> C field) for each type of _FIELD_TYPES.
_CONVERTERS: Dict[str, Tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {
    "int": (_same, _same),
    "bool": (bool, int),
    "ranks": (_mask_to_ranks, _ranks_to_mask),
    "rank_list": (lambda raw: tuple(RANKS[r] for r in raw), lambda value: tuple(RANKS.index(r) for r in value)),
    "suit_list": (lambda raw: tuple(SUITS[s] for s in raw), lambda value: tuple(SUITS.index(s) for s in value)),
}


def _converters_of(t: Any) -> Tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    """(from C, to C) of a field type; a tuple of names is stored as an index into it."""
    return _CONVERTERS[t] if isinstance(t, str) else (t.__getitem__, t.index)


#: (name, from C, to C) of every parameter.
_FIELD_CONVERTERS = tuple((name, *_converters_of(t)) for name, t in _FIELD_TYPES.items())


def _split(value) -> list:
    if isinstance(value, str):
        return value.replace(",", " ").split()
    try:
        return list(value)
    except TypeError:
        raise TypeError(f"expected a list of ranks, not {type(value).__name__}") from None


def _from_raw(raw: Dict[str, Any]) -> Dict[str, Any]:
    return {name: from_c(raw[name]) for name, from_c, _ in _FIELD_CONVERTERS}


def _preset_values(name: str) -> Dict[str, Any]:
    if not isinstance(name, str):
        raise TypeError(f"a preset name is a string, not {type(name).__name__}")
    key = name.strip().lower()
    if key not in PRESETS:
        raise ValueError(f"unknown preset {name!r}: choose one of {', '.join(PRESETS)}")
    return _from_raw(_core.rules_preset(PRESETS.index(key)))


def _normalize(name: str, value: Any) -> Any:
    kind = _FIELD_TYPES.get(name)
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"rule {name} must be an int, not {type(value).__name__}")
        # the C field's width; the engine then checks each rule's own bounds (decks 1..4, ...)
        if not 0 <= value <= 255:
            shown = str(value) if -10**12 < value < 10**12 else ("a negative number" if value < 0 else "a larger number")
            raise ValueError(f"rule {name} is out of range: it must be in 0..255, not {shown}")
        return int(value)
    if kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no", "1", "0"):
            return value.strip().lower() in ("true", "yes", "1")
        raise TypeError(f"rule {name} must be true or false, not {value!r}")
    if kind == "ranks":
        idx = sorted({rank_index(x) for x in _split(value)})
        return tuple(RANKS[i] for i in idx)
    if kind == "rank_list":
        return tuple(RANKS[rank_index(x)] for x in _split(value))
    if kind == "suit_list":
        out = []
        for s in _split(value):
            if not isinstance(s, str) or len(s.strip()) != 1 or s.strip().lower() not in SUITS:  # "" is in any str
                raise ValueError(f"{name} names suits among c d h s, not {s!r}")
            out.append(s.strip().lower())
        return tuple(out)
    if isinstance(kind, tuple):
        if not isinstance(value, str) or value.strip().lower() not in kind:
            raise ValueError(f"{name} must be {' or '.join(map(repr, kind))}, not {value!r}")
        return value.strip().lower()
    raise TypeError(f"unknown rule {name!r}: the rules are {', '.join(FIELDS)}")


class Rules:
    """A rule set of the Shithead family: every parameter of RULES.md
    section 3. ``Rules()`` is the threes preset; ``Rules.preset("classic",
    pickup_then_play=True)`` a preset with overrides. Immutable and hashable.

    Rank sets are tuples of rank characters (``("2", "8", "X")``); on input
    any iterable of ranks, text such as ``"2 8 X"``, ``"10"`` or values 2..15
    is accepted.
    """

    __slots__ = FIELDS + ("_c_fields",)

    def __init__(self, **params: Any):
        values = _preset_values("threes")
        for name, value in params.items():
            if name not in FIELDS:
                raise TypeError(f"unknown rule {name!r}: the rules are {', '.join(FIELDS)}")
            values[name] = _normalize(name, value)
        for name in FIELDS:
            object.__setattr__(self, name, values[name])
        raw = {name: to_c(values[name]) for name, _, to_c in _FIELD_CONVERTERS}
        object.__setattr__(self, "_c_fields", raw)
        _core.rules_validate(raw)

    @classmethod
    def preset(cls, name: str = "threes", **overrides: Any) -> "Rules":
        """A preset (``threes``, ``classic`` or ``dutch``) with optional overrides."""
        values = _preset_values(name)
        values.update(overrides)
        return cls(**values)

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "Rules":
        """Rules from ``to_dict()`` output; a ``"preset"`` key names the base."""
        if not isinstance(d, dict):
            raise TypeError(f"rules must be a dict or a preset name, not {type(d).__name__}")
        # The key holds every value's exact type: 1, 1.0, True and np.int64(1)
        # are equal and hash alike, but only the int is a valid value.
        try:
            key = tuple((k, type(v), tuple((type(x), x) for x in v) if type(v) in (list, tuple) else v)
                        for k, v in d.items())
            hash(key)
        except TypeError:
            key = None
        if key is not None and key in _FROM_DICT_CACHE:
            return _FROM_DICT_CACHE[key]
        d = dict(d)
        base = d.pop("preset", "threes")
        rules = cls.preset(base, **d)
        if key is not None and len(_FROM_DICT_CACHE) < 256:
            _FROM_DICT_CACHE[key] = rules
        return rules

    @classmethod
    def coerce(cls, rules: Any) -> "Rules":
        """A Rules from a Rules, a preset name or a dict."""
        if isinstance(rules, Rules):
            return rules
        if isinstance(rules, str):
            return cls.preset(rules)
        if isinstance(rules, dict):
            return cls.from_dict(rules)
        raise TypeError(f"rules must be a Rules, a preset name or a dict, not {type(rules).__name__}")

    def replace(self, **overrides: Any) -> "Rules":
        """A copy with some parameters changed."""
        values = self.to_dict()
        values.update(overrides)
        return Rules(**values)

    def to_dict(self) -> Dict[str, Any]:
        """A JSON-able dict of every parameter (lists for the rank sets)."""
        out: Dict[str, Any] = {}
        for name in FIELDS:
            v = getattr(self, name)
            out[name] = list(v) if isinstance(v, tuple) else v
        return out

    @property
    def name(self) -> str:
        """The preset these rules equal, or ``"custom"``."""
        for p in PRESETS:
            if self == _preset_rules(p):
                return p
        return "custom"

    def deck_size(self) -> int:
        """The number of cards in the deck: ``decks * (52 + jokers)``."""
        return self.decks * (52 + self.jokers)

    def max_players(self) -> int:
        """The most players a deal with these rules seats (the engine seats at most 12)."""
        return _core.rules_max_players(self._raw())

    def check_players(self, num_players: int) -> None:
        """Raises ValueError if a deal for ``num_players`` does not fit (TypeError for anything but an int:
        numpy ints too, never a bool)."""
        if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)):
            raise TypeError(f"num_players must be an int, not {type(num_players).__name__}")
        if not 1 <= num_players <= _core.MAX_PLAYERS:
            shown = num_players if -10**12 < num_players < 10**12 else ("a negative number" if num_players < 0
                                                                        else "a larger number")
            raise ValueError(f"num_players must be between 2 and {_core.MAX_PLAYERS}, not {shown}")
        _core.rules_validate(self._raw(), int(num_players))

    def _raw(self) -> Dict[str, Any]:
        """The C struct's fields (threes.shithead._core's rule dict), made once."""
        return dict(self._c_fields)

    @classmethod
    def _from_raw(cls, raw: Dict[str, Any]) -> "Rules":
        return _rules_from_raw_key(tuple(raw.items()))

    def __setattr__(self, name, value):
        raise AttributeError("Rules is immutable: use rules.replace(...)")

    def __eq__(self, other) -> bool:
        if not isinstance(other, Rules):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in FIELDS)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, f) for f in FIELDS))

    def __repr__(self) -> str:
        name = self.name
        if name != "custom":
            return f"Rules.preset({name!r})"
        base = Rules()
        diff = ", ".join(f"{f}={getattr(self, f)!r}" for f in FIELDS if getattr(self, f) != getattr(base, f))
        return f"Rules({diff})"

    def __reduce__(self):
        # a module-level function, not the classmethod: cloudpickle (Ray)
        # sends a classmethod's function by value, with its globals
        return (_restore, (self.to_dict(),))

    def table(self) -> str:
        """The rule set as a two-column text table."""
        rows = []
        for f in FIELDS:
            v = getattr(self, f)
            if isinstance(v, tuple):
                v = " ".join(v) if v else "-"
            elif isinstance(v, bool):
                v = "yes" if v else "no"
            rows.append((f, str(v)))
        w = max(len(f) for f, _ in rows)
        return "\n".join(f"{f:<{w}}  {v}" for f, v in rows)


def _doc_with_fields(doc: str) -> str:
    """A class docstring followed by the list of the parameters and their meanings (_FIELD_DOCS)."""
    items = "".join(f"    - ``{name}``: {meaning}\n" for name, meaning in _FIELD_DOCS.items())
    return doc.rstrip() + "\n\n    Fields:\n\n" + items + "    "


if Rules.__doc__ is not None:  # None under python -OO
    Rules.__doc__ = _doc_with_fields(Rules.__doc__)

_FROM_DICT_CACHE: Dict[Any, Rules] = {}


def _restore(d: Dict[str, Any]) -> Rules:
    return Rules.from_dict(d)


@lru_cache(maxsize=None)
def _preset_rules(name: str) -> Rules:
    return Rules.preset(name)


@lru_cache(maxsize=256)
def _rules_from_raw_key(key) -> Rules:
    return Rules(**_from_raw(dict(key)))
