"""Arguments that every game's API takes the same way: seeds, thread counts and state dicts' keys."""
from __future__ import annotations

import os
import secrets
from typing import Any, Dict, Optional, Sequence

import numpy as np


def seed64(seed: Optional[int]) -> int:
    """A seed as the engine takes it: any int modulo 2**64; None draws one."""
    if seed is None:
        return secrets.randbits(64)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
    return int(seed) & 0xFFFFFFFFFFFFFFFF


def threads_arg(threads: Optional[int], max_threads: int) -> int:
    """A thread count: None is one per CPU (at most max_threads)."""
    if threads is None:
        return max(1, min(os.cpu_count() or 1, max_threads))
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)):
        raise TypeError(f"threads must be an int or None, not {type(threads).__name__}")
    if not 1 <= threads <= max_threads:
        raise ValueError(f"threads must be between 1 and {max_threads}, not {threads}")
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
