"""Arguments that every game's API takes the same way: seeds, thread counts and state dicts' keys."""
from __future__ import annotations

from typing import Any, Dict, Sequence


# MAX_GAMES, seed64, threads_arg and int_arg are defined in the compiled module threes._engine (the
# compiled extensions use them and import no Python module of ours); these are the same objects.
from threes._engine import MAX_GAMES, int_arg, seed64, threads_arg  # noqa: F401 (re-exported)

def per_other_seat(spec: Any, others: Sequence[int], what: str, is_one) -> list:
    """One opponent for each seat in ``others`` (the seats but the learner's): ``spec`` itself for
    all when ``is_one(spec)``, else a sequence of one per other seat (ValueError naming the seats for
    another length; TypeError, saying what ``what`` is, for anything else)."""
    if is_one(spec):
        return [spec] * len(others)
    if isinstance(spec, Sequence) and not isinstance(spec, (str, bytes)):
        specs = list(spec)
        if len(specs) != len(others):
            raise ValueError(f"opponents: one {what} per other seat, {len(others)} needed (seats {others}), "
                             f"{len(specs)} given")
        return specs
    raise TypeError(f"opponents must be a {what} (or its name) or a list of them, not {type(spec).__name__}")


def check_keys(d: Dict[Any, Any], required: Sequence[str], optional: Sequence[str]) -> None:
    """A state dict's keys (from_dict of every game): each required one
    there, none unknown; ValueError naming them otherwise."""
    missing = [k for k in required if k not in d]
    if missing:
        raise ValueError(f"the state dict lacks {', '.join(missing)}")
    unknown = [k for k in d if k not in required and k not in optional]
    if unknown:
        raise ValueError(f"the state dict has unknown keys: {', '.join(map(str, unknown))}")


_DIGITS = frozenset("0123456789")


def parse_count(text: Any, name: str, lo: int, hi: int) -> int:
    """A whole number that comes from outside as text (a query parameter, a path part, the
    terminal prompt): ASCII digits only (no sign, no other script's digits such as '²' or
    '٣', which ``str.isdigit`` accepts and ``int`` refuses or reads), at most as many as ``hi``
    has, and in ``lo..hi``; ValueError naming the bounds otherwise (``lo`` >= 0)."""
    if not isinstance(text, str):
        raise TypeError(f"{name} must be text, not {type(text).__name__}")
    if not text or len(text) > len(str(hi)) or not _DIGITS.issuperset(text):
        raise ValueError(f"{name} must be a whole number in {lo}..{hi}")
    v = int(text)
    if not lo <= v <= hi:
        raise ValueError(f"{name} must be a whole number in {lo}..{hi}, not {v}")
    return v
