# Declarations of the C core's shared part (src/threes_core/common/) for Cython:
# the PRNG, the error report, batch seeds, the game interface and the generic
# ISMCTS. Every game's bindings cimport it.
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from cpython.mem cimport PyMem_Malloc, PyMem_Free

cdef extern from "common/rng.h" nogil:
    ctypedef struct th_rng:
        uint64_t s[4]
    void th_rng_seed(th_rng *r, uint64_t seed)
    uint64_t th_rng_next(th_rng *r)
    uint32_t th_rng_below(th_rng *r, uint32_t n)

cdef extern from "common/error.h" nogil:
    enum:
        TH_OK
        TH_ERR_RULES
        TH_ERR_PLAYERS
        TH_ERR_ACTION
        TH_ERR_ILLEGAL
        TH_ERR_SETUP
        TH_ERR_ARG
    ctypedef struct th_error:
        int code
        char msg[200]

cdef extern from "common/game.h" nogil:
    enum:
        TH_TERMINAL_PLAYER
    ctypedef struct th_game:
        int max_actions
        int num_policies

cdef extern from "common/ismcts.h" nogil:
    ctypedef struct th_ismcts_node:
        pass
    ctypedef struct th_ismcts_config:
        uint32_t iterations
        double time_limit
        double exploration
        uint8_t rollout_policy
        uint64_t seed
    ctypedef struct th_ismcts_stats:
        uint32_t iterations
        uint32_t nodes
        int best_action
    int th_ismcts_search(const th_game *game, const void *root, const th_ismcts_config *cfg, th_ismcts_node *arena,
                         uint32_t capacity, th_ismcts_stats *stats, uint16_t *out_actions, uint32_t *out_visits,
                         double *out_values, int *out_children, th_error *e)

cdef extern from "common/batch.h" nogil:
    enum:
        TH_MAX_THREADS
    uint64_t th_batch_seed(uint64_t seed, uint64_t i)
    void th_batch_rng(uint64_t seed, uint64_t i, th_rng *rng)


cdef inline object as_int(object x):
    """x as a Python int for an int argument of any game's bindings: an int,
    or anything with __index__ (numpy ints), but never a bool (TypeError, as
    for a float or a str)."""
    if type(x) is int:
        return x
    if isinstance(x, bool):
        raise TypeError("expected an int, not bool")
    from operator import index
    try:
        return index(x)
    except TypeError:
        raise TypeError(f"expected an int, not {type(x).__name__}") from None


cdef inline int raise_error(const th_error *e) except -1:
    """Raises the Python exception for a C error report (threes.errors.error_for)."""
    from threes.errors import error_for
    raise error_for(e.code, e.msg.decode("utf-8", "replace"))


cdef inline object ismcts_run(const th_game *game, const void *root, uint8_t[::1] arena, uint32_t iterations,
                              double time_limit, double exploration, int rollout_policy, uint64_t seed):
    """th_ismcts_search on `root` (the caller's private copy of a state of
    `game`) with the GIL released; returns (best_action, iterations run, nodes
    used, [(action, visits, mean value) for each root child])."""
    cdef th_ismcts_config cfg
    cdef th_ismcts_stats stats
    cdef th_error e
    cdef int rc, nc = 0, i
    cdef uint32_t capacity
    cdef size_t m = <size_t>game.max_actions
    if not 0 <= rollout_policy < game.num_policies:
        raise ValueError(f"rollout policy {rollout_policy} does not exist")
    capacity = <uint32_t>min(arena.shape[0] // sizeof(th_ismcts_node), 0xFFFFFFFF)
    if capacity < 1:
        raise ValueError("the tree needs room for at least one node")
    cfg.iterations = iterations
    cfg.time_limit = time_limit
    cfg.exploration = exploration
    cfg.rollout_policy = <uint8_t>rollout_policy
    cfg.seed = seed
    cdef uint16_t *acts = <uint16_t *>PyMem_Malloc(m * sizeof(uint16_t))
    cdef uint32_t *vis = <uint32_t *>PyMem_Malloc(m * sizeof(uint32_t))
    cdef double *vals = <double *>PyMem_Malloc(m * sizeof(double))
    try:
        if acts == NULL or vis == NULL or vals == NULL:
            raise MemoryError()
        with nogil:
            rc = th_ismcts_search(game, root, &cfg, <th_ismcts_node *>&arena[0], capacity, &stats,
                                  acts, vis, vals, &nc, &e)
        if rc != TH_OK:
            raise_error(&e)
        children = [(int(acts[i]), int(vis[i]), float(vals[i])) for i in range(nc)]
    finally:
        PyMem_Free(acts)
        PyMem_Free(vis)
        PyMem_Free(vals)
    return stats.best_action, stats.iterations, stats.nodes, children
