# Declarations of the C core's shared part (src/threes_core/common/) for Cython:
# the PRNG, the error report and batch seeds. Every game's bindings cimport it.
from libc.stdint cimport uint8_t, uint32_t, uint64_t

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

cdef extern from "common/batch.h" nogil:
    enum:
        TH_MAX_THREADS
    uint64_t th_batch_seed(uint64_t seed, uint64_t i)
    void th_batch_rng(uint64_t seed, uint64_t i, th_rng *rng)


cdef inline int raise_error(const th_error *e) except -1:
    """Raises the Python exception for a C error report (threes.errors.error_for)."""
    from threes.errors import error_for
    raise error_for(e.code, e.msg.decode("utf-8", "replace"))
