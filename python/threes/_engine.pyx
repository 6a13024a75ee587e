# cython: language_level=3, autotestdict=False, auto_pickle=False
"""The C core's shared facts (src/threes_core/common/), for the generic Python modules (bots,
tournaments, the command line): they read them here, never from a game's extension.

MAX_THREADS (common/batch.h), ISMCTS_NODE_BYTES (the size of one node of common/ismcts.h's
search tree) and batch_seed, the seed of game i of a rollout batch (common/batch.h: every
game's batches use it)."""
from libc.stdint cimport uint64_t

from threes._common cimport th_ismcts_node, th_batch_seed, TH_MAX_THREADS

MAX_THREADS = TH_MAX_THREADS
ISMCTS_NODE_BYTES = sizeof(th_ismcts_node)


cdef uint64_t _u64(v, str name) except? 0:
    """An int of 0..2**64-1 (a numpy integer too; not a bool): TypeError or ValueError naming it."""
    if isinstance(v, bool) or not hasattr(type(v), "__index__"):
        raise TypeError(f"{name} must be an int, not {type(v).__name__}")
    n = v.__index__()
    if not 0 <= n <= 0xFFFFFFFFFFFFFFFF:
        raise ValueError(f"{name} must be in 0..18446744073709551615")
    return <uint64_t>n


def batch_seed(seed, i):
    """The seed of game i (0..2**64-1) of a rollout batch seeded with `seed` (0..2**64-1)."""
    return th_batch_seed(_u64(seed, "seed"), _u64(i, "i"))
