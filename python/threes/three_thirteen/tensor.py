"""Three Thirteen's observation tensor: what one seat can know, as a flat
float32 vector (for the OpenSpiel, PettingZoo and Gymnasium adapters and for
learning code). ``State.observation_tensor(player)`` calls this.

Seats are relative to the observer: entry ``i`` of every per-seat block is
seat ``(player + i) % N``, so entry 0 is the observer. Card blocks have one
entry per card kind (54: ``4 * (rank - 1) + suit``, jokers 52 and 53).

The blocks, in order (``observation_tensor_layout(N)`` gives offsets):

* ``hand`` (54): copies of each kind in the observer's hand;
* ``discard_top`` (54): the top discard, one-hot (zeros when the pile is empty);
* ``discard_pile`` (54): copies of each kind in the discard pile;
* ``taken`` (54): the card taken from the discard pile this turn, one-hot;
* ``hand_sizes`` (N), ``stock_size`` (1);
* ``round`` (11): one-hot, round 1 (wild 3) .. 11 (wild K);
* ``phase`` (3): draw, discard, over, one-hot;
* ``current`` (N): the seat to move, one-hot (zeros when the game is over);
* ``dealer`` (N), ``out`` (N): the dealer and the seat that went out this
  round, one-hot (``out`` zeros while nobody is out);
* ``totals`` (N): each seat's total score so far.

Everything is a count, a flag or a score: non-negative and below
``OBSERVATION_HIGH``.
"""
from __future__ import annotations

from typing import Any, Dict, List, Tuple

import numpy as np

__all__ = ["OBSERVATION_HIGH", "observation_tensor", "observation_tensor_layout", "observation_tensor_size"]

NUM_KINDS = 54
NUM_ROUNDS = 11
#: Every entry is below this (counts of at most 255 decks, scores of 11 rounds).
OBSERVATION_HIGH = float(2 ** 20)


def observation_tensor_layout(num_players: int) -> Dict[str, Tuple[int, int]]:
    """Block name -> (offset, size) for an N-player game."""
    n = int(num_players)
    sizes = [("hand", NUM_KINDS), ("discard_top", NUM_KINDS), ("discard_pile", NUM_KINDS), ("taken", NUM_KINDS),
             ("hand_sizes", n), ("stock_size", 1), ("round", NUM_ROUNDS), ("phase", 3), ("current", n),
             ("dealer", n), ("out", n), ("totals", n)]
    out: Dict[str, Tuple[int, int]] = {}
    o = 0
    for name, size in sizes:
        out[name] = (o, size)
        o += size
    return out


def observation_tensor_size(num_players: int) -> int:
    """The tensor's length for an N-player game: 4 * 54 + 1 + 11 + 3 + 5 * N."""
    return 4 * NUM_KINDS + 1 + NUM_ROUNDS + 3 + 5 * int(num_players)


def observation_tensor(state: Any, player: int) -> np.ndarray:
    """The observation tensor of ``player`` in a three_thirteen.State."""
    f = state._fields()
    n = f["num_players"]
    lay = observation_tensor_layout(n)
    t = np.zeros(observation_tensor_size(n), dtype=np.float32)

    def block(name: str) -> np.ndarray:
        o, size = lay[name]
        return t[o:o + size]

    rel: List[int] = [(player + i) % n for i in range(n)]
    np.add.at(block("hand"), f["hands"][player], 1.0)
    if f["discard"]:
        block("discard_top")[f["discard"][-1]] = 1.0
        np.add.at(block("discard_pile"), f["discard"], 1.0)
    if f["taken_kind"] >= 0:
        block("taken")[f["taken_kind"]] = 1.0
    block("hand_sizes")[:] = [len(f["hands"][q]) for q in rel]
    block("stock_size")[0] = len(f["stock"])
    block("round")[f["round"] - 1] = 1.0
    block("phase")[f["phase"]] = 1.0
    if f["phase"] != 2 and f["current"] >= 0:
        block("current")[(f["current"] - player) % n] = 1.0
    block("dealer")[(f["dealer"] - player) % n] = 1.0
    if f["out_seat"] >= 0:
        block("out")[(f["out_seat"] - player) % n] = 1.0
    block("totals")[:] = [f["totals"][q] for q in rel]
    return t
