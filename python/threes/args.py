"""Arguments that every game's API takes the same way: seeds, thread counts and state dicts' keys."""
from __future__ import annotations

import os
import secrets
from typing import Any, Dict, Optional, Sequence

import numpy as np


#: The most games one ``rollouts()`` call plays and the most deals of one tournament (``first=`` and
#: more calls go further); a larger count is a ValueError naming the bounds, not an array too big to
#: allocate or an OverflowError at the C boundary.
MAX_GAMES = 2**32 - 1


def seed64(seed: Optional[int]) -> int:
    """A seed as the engine takes it: any int (numpy ints too, never a bool), of any size or sign,
    taken modulo 2**64, so the distinct seeds are 0..2**64-1 and ``-1`` is ``2**64 - 1``; None
    draws one. TypeError for anything else (never OverflowError)."""
    if seed is None:
        return secrets.randbits(64)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int or None (any int, taken modulo 2**64: the seeds are "
                        f"0..2**64-1), not {type(seed).__name__}")
    return int(seed) & 0xFFFFFFFFFFFFFFFF


def threads_arg(threads: Optional[int], max_threads: int, name: str = "threads") -> int:
    """A thread count: None is one per CPU (at most max_threads)."""
    if threads is None:
        return max(1, min(os.cpu_count() or 1, max_threads))
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)):
        raise TypeError(f"{name} must be an int or None, not {type(threads).__name__}")
    if not 1 <= threads <= max_threads:
        shown = str(threads) if -10**12 < threads < 10**12 else ("a negative number" if threads < 0
                                                                  else "a larger number")
        raise ValueError(f"{name} must be between 1 and {max_threads}, not {shown}")
    return int(threads)


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


def int_arg(value: Any, name: str, lo: int, hi: int) -> int:
    """An integer argument of the public API, checked before it reaches C: an int (or a numpy
    integer; not a bool) in ``lo..hi``. TypeError for another type, ValueError naming the bounds
    for any int outside them, whatever its size or sign (never OverflowError)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    v = int(value)
    if not lo <= v <= hi:
        shown = str(v) if -10**12 < v < 10**12 else ("a negative number" if v < 0 else "a larger number")
        raise ValueError(f"{name} must be in {lo}..{hi}, not {shown}")
    return v


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
