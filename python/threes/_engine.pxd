# The shared binding code every game's extension cimports (written once, here): its C functions
# reach the games' extensions through Cython's C-API table of threes._engine, with no Python
# call between them.

from libc.stdint cimport int64_t, uint16_t
from cpython.object cimport PyObject
cimport numpy as cnp
from threes._common cimport th_game, th_error, th_stop

# arguments
cdef object as_int(object x)
cdef int action_id(object action, int n) except -1
cdef int raise_error(const th_error *e) except -1
cdef int threads_of(object threads) except -1
cdef object seed_of(object seed)
cdef tuple policies_of(dict cache, tuple names, object policy, int n)
# results
cdef cnp.ndarray new_array(int nd, cnp.npy_intp *dims, int typenum, bint zero=*)
cdef list ids_list(const uint16_t *ids, int n, tuple ints)
cdef list float_list(const float *v, Py_ssize_t n, tuple small)
cdef object new_record(object cls, tuple names, tuple values)
# the history chain (GameStateBase._history)
cdef object hist_push(object node, object action)
cdef object hist_of(list actions)

# stopping: a C stop hook that polls Ctrl-C and this thread's cancel flag
ctypedef struct py_stop:
    double next_poll
    int stopped
    PyObject *box    # a list (kept alive by the caller): the exception that stopped the call
cdef double monotonic_now() noexcept nogil
cdef const th_stop *watch(th_stop *hook, py_stop *poll, list box) noexcept

# batches (threes.rollouts): the shell of every game's batch. The game's play function sets a
# part's games and output pointers on its own C batch struct, and runs it.
cdef enum:
    BATCH_MAX_OUTS = 8
cdef struct batch_part:
    int64_t first                 # games [first, first + n) of the batch
    int64_t n
    const th_stop *stop           # the stop hook to ask (run_batch's)
    char *out[BATCH_MAX_OUTS]     # each output's part for game `first`, in batch_out's order
ctypedef int (*batch_play_fn)(void *batch, const batch_part *part, int threads, th_error *e) noexcept nogil
cdef struct batch_call:
    int64_t count   # games
    int64_t first   # the call's first game of the batch
    int64_t step    # games between two progress calls
    int threads
    void *batch     # the game's C batch struct
    batch_play_fn play
    int nout
    char *base[BATCH_MAX_OUTS]        # each output's game 0 ...
    Py_ssize_t stride[BATCH_MAX_OUTS] # ... and bytes a game
cdef int batch_call_of(batch_call *b, object n, object first, object chunk, int64_t default_step,
                       object threads) except -1
cdef int observer_arg(object observer, int num_players, bint from_state) except -2
cdef int batch_target(batch_call *b, void *p, Py_ssize_t stride) except -1
cdef cnp.ndarray batch_out(batch_call *b, int per_game, int typenum, bint zero=*)
cdef int run_batch(batch_call *b, int64_t size, object progress) except -1
# a game's batch as a C function, which rollouts calls directly: c_batch(fn) is the object its
# package registers (threes.batches.register)
ctypedef object (*batch_fn)(object start, object n, object policy, object seed, object threads, object observer,
                            object progress, object chunk, object first, object result)
cdef object c_batch(batch_fn fn)
cdef object rollout_of_any(object state, object policy, object seed, bint order)



cdef class GameStateBase:
    """The binding's state of any game, written once over the game's C interface (th_game): the
    history chain, the undo chain, clone and child, masks, tensors, the vector handle, events and
    ISMCTS. A game's StateBase derives from it, holds its C state by value and sets `game`."""
    cdef const th_game *game  # the game's C interface (a constant: a byte copy of the object keeps it)
    cdef object _history      # (previous, action) pairs, shared with clones (hist_push)
    cdef Py_ssize_t _hlen
    cdef bytes _htext         # " ".join of the first _htext_n actions of the history (information_state_string)
    cdef Py_ssize_t _htext_n
    cdef GameStateBase _undo  # None, or this state as it was before its last apply() (whose own _undo is the
                              # one before); undo() refuses when moves were made since without a record
    cdef object _own          # None, or the game's own object (Shithead: the log of older repetition keys),
                              # held by copies too (a game that changes it copies it first when shared)
    # what each game provides
    cdef void *_c(self) noexcept                  # its C state, inside this object
    cdef Py_ssize_t _plain_size(self) noexcept    # the byte size of its StateBase (a plain layout: copy_state)
    cdef int _apply(self, action) except -1       # a checked action (the history appended)
    cdef int _player(self, player) except -1      # a seat argument, checked
    # written once, here
    cdef GameStateBase _clone(self)
    cdef int _assign(self, GameStateBase other) except -1
    cdef bytes _history_text(self)


cdef bint reuse_freed(type cls, Py_ssize_t basicsize)
