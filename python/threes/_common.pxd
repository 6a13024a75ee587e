# Declarations of the C core's shared part (src/threes_core/common/) for Cython:
# the PRNG, the error report, batch seeds, the game interface and the generic
# ISMCTS. Every game's bindings cimport it.
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from cpython.exc cimport PyErr_CheckSignals
from cpython.pycapsule cimport PyCapsule_New
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.object cimport PyObject, PyTypeObject, Py_TYPE
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_WRITABLE, PyBUF_C_CONTIGUOUS, PyBUF_FORMAT
from libc.string cimport strchr, memset, memcpy
cimport numpy as cnp
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

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
        TH_ERR_STOPPED
        TH_ERR_MEMORY
    ctypedef struct th_error:
        int code
        char msg[200]

cdef extern from "common/event.h" nogil:
    enum:
        TH_EVENT_MAX_CARDS
        TH_EVENT_MAX_MELDS
        TH_MAX_EVENTS
        TH_EVENT_NO_SEAT
    ctypedef struct th_event:
        uint8_t kind
        uint8_t seat
        uint8_t source
        uint8_t detail
        uint8_t is_private
        uint8_t num_melds
        uint16_t count
        int32_t value
        uint8_t meld_type[TH_EVENT_MAX_MELDS]
        uint8_t meld_len[TH_EVENT_MAX_MELDS]
        uint8_t cards[TH_EVENT_MAX_CARDS]
    ctypedef struct th_events:
        int n
        int overflow
        th_event ev[TH_MAX_EVENTS + 1]


cdef inline list events_list(const th_events *l):
    """The events as (kind, seat or None, source, detail, private, cards, value, melds) tuples: cards a tuple
    of the game's card codes; melds ((type, length), ...), their cards first in cards."""
    cdef int i, j
    cdef const th_event *e
    if l.overflow:
        raise AssertionError("a move reported more events than the engine has room for")
    out = []
    for i in range(l.n):
        e = &l.ev[i]
        out.append((e.kind, None if e.seat == TH_EVENT_NO_SEAT else e.seat, e.source, e.detail, bool(e.is_private),
                    tuple([e.cards[j] for j in range(e.count)]), e.value,
                    tuple([(e.meld_type[j], e.meld_len[j]) for j in range(e.num_melds)])))
    return out


cdef extern from "common/game.h" nogil:
    enum:
        TH_TERMINAL_PLAYER
    enum:
        TH_STOP_MOVES
    enum:
        TH_MAX_PLAYERS
    ctypedef struct th_game:
        const char *name
        size_t state_size
        int max_players
        int max_actions
        int num_policies
        int (*check)(const void *s, th_error *e) noexcept nogil
        int (*current_player)(const void *s) noexcept nogil
        int (*is_over)(const void *s) noexcept nogil
        int (*legal_actions)(const void *s, uint16_t *out) noexcept nogil
        void (*apply_legal)(void *s, int action) noexcept nogil
        int (*resample)(void *s, int observer, th_rng *rng, th_error *e) noexcept nogil
        int (*policy_action)(const void *s, int policy, th_rng *rng) noexcept nogil
        void (*returns)(const void *s, double *out) noexcept nogil
        void (*new_game)(void *s, const void *like, uint64_t seed) noexcept nogil
        int (*is_truncated)(const void *s) noexcept nogil
        int (*observation_size)(const void *s) noexcept nogil
        void (*observe)(const void *s, int observer, float *out) noexcept nogil
        int (*is_legal)(const void *s, int action) noexcept nogil
        int (*num_players)(const void *s) noexcept nogil
        int (*num_actions)(const void *s) noexcept nogil
        int (*observation_high)(const void *s) noexcept nogil
        void (*events)(const void *before, const void *after, int action, th_events *out) noexcept nogil
        size_t (*observation_text)(const void *s, int observer, char *out, size_t cap) noexcept nogil
    enum:
        TH_MAX_STATE_BYTES
        TH_MAX_ACTIONS
        TH_OBS_TEXT_MAX
    ctypedef struct th_stop:
        int (*should_stop)(void *ctx) noexcept nogil
        void *ctx

cdef extern from "common/ismcts.h" nogil:
    ctypedef struct th_ismcts_node:
        pass
    ctypedef struct th_ismcts_config:
        uint32_t iterations
        double time_limit
        double exploration
        uint8_t rollout_policy
        uint64_t seed
        const th_stop *stop
    ctypedef struct th_ismcts_stats:
        uint32_t iterations
        uint32_t nodes
        int best_action
        int stopped
    int th_ismcts_search(const th_game *game, const void *root, const th_ismcts_config *cfg, th_ismcts_node *arena,
                         uint32_t capacity, th_ismcts_stats *stats, uint16_t *out_actions, uint32_t *out_visits,
                         double *out_values, int *out_children, th_error *e)

cdef extern from "common/batch.h" nogil:
    enum:
        TH_MAX_THREADS
    uint64_t th_batch_seed(uint64_t seed, uint64_t i)
    void th_batch_rng(uint64_t seed, uint64_t i, th_rng *rng)
    ctypedef struct th_play_batch:
        const th_game *game
        const void *start
        int fresh
        int observer
        const uint8_t *policy
        uint64_t seed
        int64_t first
        int64_t n
        double *returns
        uint32_t *moves
        uint8_t *truncated
    int th_play_games(const th_play_batch *b, int threads, const th_stop *stop, th_error *e)


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


cdef extern from "Python.h":
    long PyLong_AsLongAndOverflow(object o, int *overflow) except? -1


cdef inline int action_id(object action, int n) except -1:
    """An action argument as a C int in 0..n-1 (n: the game's distinct
    actions): an int or anything with __index__ (TypeError otherwise, a bool
    included); IllegalActionError when it is out of range. The C game then
    checks that it is legal."""
    cdef int overflow = 0
    cdef long v
    a = action if type(action) is int else as_int(action)
    v = PyLong_AsLongAndOverflow(a, &overflow)
    if overflow or not 0 <= v < n:
        from threes._engine import IllegalActionError
        raise IllegalActionError(f"action {a} is out of range: ids are 0..{n - 1}")
    return <int>v


cdef inline int raise_error(const th_error *e) except -1:
    """Raises the Python exception for a C error report (threes.errors.error_for)."""
    from threes._engine import error_for
    raise error_for(e.code, e.msg.decode("utf-8", "replace"))


# ------------------------------------------------------------ new arrays --
# Result arrays are made with NumPy's C API (a Python-level np.empty costs
# several times more per call); each module calls cnp.import_array() once.

cdef inline cnp.ndarray new_array(int nd, cnp.npy_intp *dims, int typenum, bint zero=False):
    """A new C-contiguous array: uninitialized, or zeroed with `zero`."""
    if zero:
        return <cnp.ndarray>cnp.PyArray_ZEROS(nd, dims, typenum, 0)
    return <cnp.ndarray>cnp.PyArray_EMPTY(nd, dims, typenum, 0)


# ---------------------------------------------------------------- id lists --
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.long cimport PyLong_FromLong
from cpython.float cimport PyFloat_FromDouble
from cpython.ref cimport Py_INCREF, Py_DECREF
from cpython.tuple cimport PyTuple_GET_ITEM
from libc.string cimport memcpy


cdef extern from "Python.h":
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void *PyUnicode_DATA(object o)


# The freed-state list and the byte copy of a state (copy_state) live in one place,
# threes/_engine.pyx, beside GameStateBase._clone, their one user.


cdef extern from *:
    """
    /* An object of the plain Python class cls (a frozen dataclass, say)
     * whose attribute names[i] is values[i], made without calling its
     * __init__. The attributes are set one by one as the class's own
     * __init__ sets them (object.__setattr__), so that CPython keeps them in
     * the instance's shared-key values instead of a dict of its own. */
    static PyObject *threes_new_record(PyObject *cls, PyObject *names, PyObject *values) {
      Py_ssize_t n = PyTuple_GET_SIZE(names);
      if (PyTuple_GET_SIZE(values) != n) {
        PyErr_SetString(PyExc_SystemError, "new_record: names and values differ in length");
        return NULL;
      }
      PyObject *none = PyTuple_New(0);
      if (!none) return NULL;
      PyObject *o = PyBaseObject_Type.tp_new((PyTypeObject *)cls, none, NULL);
      Py_DECREF(none);
      for (Py_ssize_t i = 0; o && i < n; i++)
        if (PyObject_GenericSetAttr(o, PyTuple_GET_ITEM(names, i), PyTuple_GET_ITEM(values, i)) < 0) Py_CLEAR(o);
      return o;
    }
    """
    object new_record "threes_new_record"(object cls, tuple names, tuple values)
    # a result object (RolloutResult...) whose fields the caller gives, as
    # names and their values: its dataclass __init__ and __post_init__ are
    # not run


cdef inline str info_text(const char *obs, Py_ssize_t n, bytes history):
    """obs[:n] + "\\nhistory: " + history as one ASCII str, made once."""
    cdef Py_ssize_t h = len(history)
    cdef str out = PyUnicode_New(n + 10 + h, 127)
    cdef char *p = <char *>PyUnicode_DATA(out)
    memcpy(p, obs, n)
    memcpy(p + n, b"\nhistory: ", 10)
    memcpy(p + n + 10, <const char *>history, h)
    return out


cdef inline list ids_list(const uint16_t *ids, int n, tuple ints):
    """A list of n action ids (legal_actions), built in place; `ints` is the
    game's tuple(range(its number of actions)), so that no id is allocated
    (Python caches only the ints up to 256)."""
    cdef list out = PyList_New(n)
    cdef int i
    cdef Py_ssize_t m = len(ints)
    cdef PyObject *x
    for i in range(n):
        if ids[i] < m:
            x = PyTuple_GET_ITEM(ints, ids[i])
            Py_INCREF(<object>x)  # the list's reference
            PyList_SET_ITEM(out, i, <object>x)
        else:  # never for a game's own ids
            y = PyLong_FromLong(ids[i])
            Py_INCREF(y)  # the list's reference; y's own goes at the next loop or the return
            PyList_SET_ITEM(out, i, y)
    return out


from libc.math cimport copysign


cdef inline list float_list(const float *v, Py_ssize_t n, tuple small):
    """[float(v[i]) for i in range(n)], what ndarray.tolist() gives, built in
    place; `small` is (0.0, 1.0, 2.0, ...), whose floats are shared rather
    than made (a tensor holds mostly counts and flags)."""
    cdef list out = PyList_New(n)
    cdef Py_ssize_t i, m = len(small)
    cdef float x
    cdef int k
    cdef PyObject *f
    for i in range(n):
        x = v[i]
        k = <int>x if 0 <= x < m else -1
        if k >= 0 and k == x and copysign(1.0, x) > 0:  # not -0.0
            f = PyTuple_GET_ITEM(small, k)
            Py_INCREF(<object>f)  # the list's reference
            PyList_SET_ITEM(out, i, <object>f)
        else:
            y = PyFloat_FromDouble(x)
            Py_INCREF(y)  # the list's reference; y's own goes at the next loop or the return
            PyList_SET_ITEM(out, i, y)
    return out


# ------------------------------------------------------------ out buffers --
# The bindings write results straight into the caller's numpy arrays through
# the buffer protocol (cheaper per call than typed memoryviews): get_out
# checks an array and holds it in a Py_buffer the caller releases.

cdef inline int get_out(object a, Py_buffer *view, Py_ssize_t count, Py_ssize_t itemsize, const char *kinds,
                        str what, char **ptr) except -1:
    """*ptr = the memory of `a`, which must be a writable C-contiguous array
    of `count` items of `itemsize` bytes with a format character in `kinds`
    (numpy: b int8, B uint8, ? bool, I/L uint32, i/l int32, f float32, d
    float64). The caller releases `view` (PyBuffer_Release) once done;
    TypeError or ValueError, and nothing held, otherwise."""
    cdef const char *f
    try:
        PyObject_GetBuffer(a, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)
    except (TypeError, BufferError, ValueError):
        raise TypeError(f"{what} must be a writable C-contiguous numpy array, not {type(a).__name__}") from None
    f = view.format
    if f != NULL and (f[0] == b'@' or f[0] == b'='):
        f += 1
    if f == NULL or f[0] == 0 or f[1] != 0 or strchr(kinds, f[0]) == NULL or view.itemsize != itemsize:
        fmt = view.format.decode("ascii", "replace") if view.format != NULL else "?"
        PyBuffer_Release(view)
        raise TypeError(f"{what} has the wrong dtype (buffer format {fmt!r})")
    if view.len != count * itemsize:
        PyBuffer_Release(view)
        raise ValueError(f"{what} must hold {count} items, not {view.len // itemsize}")
    ptr[0] = <char *>view.buf
    return 0


# ------------------------------------------------------------------ history --
# A state's action history is a chain ending in a base: pairs (previous,
# action) back to a list of the first actions (never changed once made) or
# None, with the history's length kept beside it. A clone shares the chain,
# and an action appended to any state (a branch of a search too) is one new
# pair, never a copy of the list; from_dict's history is the base, made at
# the cost of one list copy. history() walks the chain back.
#
# The chain holds only ints, None, its own pairs and its private base list
# of ints, and nothing outside the state can reach it, so it can never be
# part of a reference cycle: its pairs are untracked by the garbage
# collector at birth (as CPython untracks such tuples itself, but only once
# a collection has traversed them), so that a long game's chain is never
# traversed again and again by the collections its own allocations set off.

cdef extern from "Python.h":
    void PyObject_GC_UnTrack(void *op)


cdef inline object hist_push(object node, object action):
    """The chain `node` with `action` (an int) appended."""
    cdef tuple pair = (node, action)
    PyObject_GC_UnTrack(<PyObject *>pair)
    return pair


cdef inline object hist_of(list actions):
    """The chain of a list of actions (from_dict): a base, a private list
    of exact ints (TypeError for anything else)."""
    cdef list base = list(actions)
    for a in base:
        if type(a) is not int:
            raise TypeError(f"a history holds int action ids, not {type(a).__name__}")
    return base


cdef inline list hist_tail(object node, Py_ssize_t k):
    """The last k actions of the chain ending at node, oldest first."""
    cdef list out = [None] * k
    cdef Py_ssize_t i = k, n
    while i > 0:
        if type(node) is list:
            n = len(<list>node)
            out[:i] = (<list>node)[n - i:]
            return out
        i -= 1
        out[i] = <object>PyTuple_GET_ITEM(node, 1)
        node = <object>PyTuple_GET_ITEM(node, 0)
    return out


# ------------------------------------------------------------- history text --
# information_state_string's history part: " ".join(map(str, history)),
# written in C speed and kept by each state (and its clones) between calls.

cdef inline bytes chain_text(object node, Py_ssize_t k, bint lead):
    """The last k actions of the history chain ending at node, oldest first,
    as decimal ids separated by spaces (one space first with `lead`),
    written from the newest back into one buffer; the ids are ints in
    0..999999 (every game's action ids are)."""
    cdef Py_ssize_t size = k * 7 + 1, pos = size, i, j = 0  # j: the pairs walked so far
    cdef long a
    cdef char *out = <char *>PyMem_Malloc(<size_t>size)
    if out == NULL:
        raise MemoryError()
    try:
        for i in range(k):
            if type(node) is list:  # the base: its last k - i actions, newest first
                a = (<list>node)[len(<list>node) - 1 - (i - j)]
            else:
                a = <object>PyTuple_GET_ITEM(node, 1)
                node = <object>PyTuple_GET_ITEM(node, 0)
                j = i + 1
            while True:  # at most 6 digits (ids < 10**6)
                pos -= 1
                out[pos] = <char>(48 + a % 10)
                a //= 10
                if a == 0 or size - pos >= 7 * (i + 1) - 1:
                    break
            if lead or i < k - 1:
                pos -= 1
                out[pos] = b' '
        return out[pos:size]
    finally:
        PyMem_Free(out)


# ----------------------------------------------------------- masks, tensors --
# Every game's legal_actions_mask(out=) and observation_tensor(p, out=).

cdef inline char *plain_out(object a, Py_ssize_t count, Py_ssize_t itemsize, uint32_t types):
    """get_out's checks for a plain numpy array, through NumPy's C API (no
    buffer export: for a caller that writes with the GIL held); `types` has
    bit t set for each allowed NumPy type number t. NULL for anything else
    (get_out then checks it and says what is wrong)."""
    cdef cnp.ndarray arr
    if type(a) is not cnp.ndarray:
        return NULL
    arr = <cnp.ndarray>a
    if (cnp.PyArray_IS_C_CONTIGUOUS(arr) and cnp.PyArray_ISWRITEABLE(arr) and cnp.PyArray_ISNOTSWAPPED(arr)
            and cnp.PyArray_ITEMSIZE(arr) == itemsize and cnp.PyArray_SIZE(arr) == count
            and cnp.PyArray_TYPE(arr) < 32 and (types >> cnp.PyArray_TYPE(arr)) & 1):
        return <char *>cnp.PyArray_DATA(arr)
    return NULL


cdef inline object mask_of(const uint16_t *ids, int n, Py_ssize_t size, object out):
    """ids[0..n) set to 1 in a new bool array of `size`, or in `out` (a
    bool/uint8/int8 array of that size, checked, zeroed first)."""
    cdef cnp.npy_intp dim = size
    cdef Py_buffer view
    cdef char *p
    cdef int i
    if out is None:
        out = new_array(1, &dim, cnp.NPY_BOOL, True)
        p = <char *>cnp.PyArray_DATA(<cnp.ndarray>out)
        for i in range(n):
            p[ids[i]] = 1
        return out
    p = plain_out(out, size, 1, (1u << cnp.NPY_BOOL) | (1u << cnp.NPY_UINT8) | (1u << cnp.NPY_INT8))
    if p == NULL:
        get_out(out, &view, size, 1, b"?Bb", "out", &p)
    else:
        memset(&view, 0, sizeof(Py_buffer))  # nothing held: PyBuffer_Release is a no-op
    memset(p, 0, size)
    for i in range(n):
        p[ids[i]] = 1
    PyBuffer_Release(&view)
    return out


cdef inline object tensor_out(object out, Py_ssize_t size, Py_buffer *view, float **p, bint *held):
    """observation_tensor's target: a new float32 array of `size`, or `out`
    checked and held in view (*held set: release it with PyBuffer_Release);
    returns the array to return and sets *p."""
    cdef cnp.npy_intp dim = size
    cdef char *q
    held[0] = out is not None
    if out is None:
        out = new_array(1, &dim, cnp.NPY_FLOAT32)
        p[0] = <float *>cnp.PyArray_DATA(<cnp.ndarray>out)
        return out
    q = plain_out(out, size, 4, 1u << cnp.NPY_FLOAT32)
    if q == NULL:
        get_out(out, view, size, 4, b"f", "out", &q)
    else:
        memset(view, 0, sizeof(Py_buffer))  # nothing held: PyBuffer_Release is a no-op
    p[0] = <float *>q
    return out


# ----------------------------------------------------------------- stopping --
# Long C work gives Python a chance to stop it (threes/_stop.py): rollout
# batches run in chunks of about CHUNK_SECONDS with check_interrupt between
# them; a search polls check_interrupt every STOP_POLL_SECONDS through a C
# stop hook (th_stop).

cdef extern from *:
    """
    #define THREES_CHUNK_SECONDS 0.05
    #define THREES_STOP_POLL_SECONDS 0.02
    """
    double CHUNK_SECONDS "THREES_CHUNK_SECONDS"
    double STOP_POLL_SECONDS "THREES_STOP_POLL_SECONDS"


cdef extern from *:
    """
    static int threes_default_threads = 0; /* threads=None: one per CPU, counted once (per module) */
    """
    int default_threads "threes_default_threads"


cdef inline int threads_of(object threads) except -1:
    """A thread count argument: None is one per CPU (counted once), else an
    int in 1..TH_MAX_THREADS, with threes.args.threads_arg's checks and
    errors (the binding's fast path for a plain int in range)."""
    global default_threads
    if threads is None:
        if default_threads == 0:
            from threes._engine import threads_arg
            default_threads = threads_arg(None, TH_MAX_THREADS)
        return default_threads
    if type(threads) is int and 1 <= threads <= TH_MAX_THREADS:
        return threads
    from threes._engine import threads_arg
    return threads_arg(threads, TH_MAX_THREADS)


cdef inline object seed_of(object seed):
    """A seed argument as the engine takes it (threes.args.seed64: any int
    modulo 2**64, None draws one); a plain int in range passes as it is."""
    if type(seed) is int and 0 <= seed <= 0xFFFFFFFFFFFFFFFF:
        return seed
    from threes._engine import seed64
    return seed64(seed)


cdef inline double monotonic_now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return <double>ts.tv_sec + <double>ts.tv_nsec * 1e-9


cdef inline int check_interrupt(object token) except -1:
    """Runs Python's signal handlers (in the main thread: Ctrl-C raises
    KeyboardInterrupt here) and raises KeyboardInterrupt when `token` (this
    thread's cancel flag, threes._stop) is set."""
    PyErr_CheckSignals()
    if token is not None and token.is_set():
        raise KeyboardInterrupt("cancelled")
    return 0


cdef inline int64_t next_chunk(int64_t size, double seconds, int threads) noexcept:
    """The next chunk of games: about CHUNK_SECONDS of work at the pace of
    the last chunk (`size` games in `seconds`), grown at most 8-fold a step,
    at least one game per thread."""
    cdef double want = 8.0 * size
    if seconds > 0 and size * CHUNK_SECONDS / seconds < want:
        want = size * CHUNK_SECONDS / seconds
    if want < threads:
        want = threads
    if want > 1e12:
        want = 1e12
    return <int64_t>want


cdef inline object stop_token():
    """This thread's cancel flag (threes._stop.token()), looked up only when
    a poll is due, so that a short call never pays for it."""
    from threes._engine import token
    return token()


ctypedef struct py_stop:
    double next_poll
    int stopped
    PyObject *box    # a list (kept alive by the caller): the exception that stopped the call


cdef inline int py_stop_poll(void *ctx) noexcept nogil:
    """th_stop's hook: every STOP_POLL_SECONDS, check_interrupt with the GIL
    (Ctrl-C in the main thread, this thread's cancel flag in any thread); an
    exception goes into the box and stops the work."""
    cdef py_stop *p = <py_stop *>ctx
    cdef double now
    if p.stopped:
        return 1
    now = monotonic_now()
    if now < p.next_poll:
        return 0
    p.next_poll = now + STOP_POLL_SECONDS
    with gil:
        try:
            check_interrupt(stop_token())
        except BaseException as exc:
            (<list>p.box).append(exc)
            p.stopped = 1
    return p.stopped


cdef inline const th_stop *watch(th_stop *hook, py_stop *poll, list box) noexcept:
    """Fills `hook` to poll check_interrupt every STOP_POLL_SECONDS
    (py_stop_poll, an exception going into `box`, which the caller keeps
    alive and raises from) and returns it. Costs a clock read: nothing of
    Python runs until the first poll is due."""
    poll.next_poll = monotonic_now() + STOP_POLL_SECONDS
    poll.stopped = 0
    poll.box = <PyObject *>box
    hook.should_stop = py_stop_poll
    hook.ctx = poll
    return hook


ctypedef int (*chunk_fn)(void *ctx, int64_t lo, int64_t k, int threads, const th_stop *stop,
                        th_error *e) noexcept nogil


cdef inline int run_chunked(chunk_fn fn, void *ctx, int64_t n, int threads, int64_t size) except -1:
    """Plays games [0, n) of a batch as fn(ctx, lo, k, ...) calls for games
    [lo, lo + k), with the GIL released, `size` games first and then about
    CHUNK_SECONDS of work each. Stopping: fn gets a stop hook (watch) that
    the C batch asks at least every TH_STOP_MOVES moves of a game, and
    check_interrupt runs between calls, so Ctrl-C stops even one long game.
    At least one call (k = 0 when n = 0, so the arguments are still checked
    in C)."""
    cdef th_error e
    cdef int64_t lo = 0, k
    cdef double t0
    cdef int rc
    cdef th_stop hook
    cdef py_stop poll
    cdef list box = []
    cdef const th_stop *stop = watch(&hook, &poll, box)
    while True:
        k = min(size, n - lo)
        t0 = monotonic_now()
        with nogil:
            rc = fn(ctx, lo, k, threads, stop, &e)
        if box:
            raise box[0]
        if rc != TH_OK:
            raise_error(&e)
        lo += k
        if lo >= n:
            return 0
        check_interrupt(stop_token())
        size = next_chunk(k, monotonic_now() - t0, threads)


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
    cdef th_stop hook
    cdef py_stop poll
    cdef list box = []
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
    cfg.stop = watch(&hook, &poll, box)
    cdef uint16_t *acts = <uint16_t *>PyMem_Malloc(m * sizeof(uint16_t))
    cdef uint32_t *vis = <uint32_t *>PyMem_Malloc(m * sizeof(uint32_t))
    cdef double *vals = <double *>PyMem_Malloc(m * sizeof(double))
    try:
        if acts == NULL or vis == NULL or vals == NULL:
            raise MemoryError()
        with nogil:
            rc = th_ismcts_search(game, root, &cfg, <th_ismcts_node *>&arena[0], capacity, &stats,
                                  acts, vis, vals, &nc, &e)
        if box:
            raise box[0]
        if rc != TH_OK:
            raise_error(&e)
        children = [(int(acts[i]), int(vis[i]), float(vals[i])) for i in range(nc)]
    finally:
        PyMem_Free(acts)
        PyMem_Free(vis)
        PyMem_Free(vals)
    return stats.best_action, stats.iterations, stats.nodes, children


cdef inline tuple vec_handle(const th_game *game, const void *state):
    """What threes.vector (threes/_vector.pyx) needs of a state: a capsule
    holding its game's th_game, and the state's bytes (the deal's `like`)."""
    return (PyCapsule_New(<void *>game, b"threes.th_game", NULL),
            PyBytes_FromStringAndSize(<const char *>state, <Py_ssize_t>game.state_size))


cdef inline int state_from_bytes(const th_game *game, void *dst, bytes raw) except -1:
    """Copies a state's bytes (a vector env's buffer row) into dst, a fresh
    state of `game`, and checks its invariants (dst is garbage on error)."""
    cdef th_error e
    if len(raw) != game.state_size:
        raise ValueError(f"a {game.name.decode()} state is {game.state_size} bytes, not {len(raw)}")
    memcpy(dst, <const char *>raw, game.state_size)
    if game.check(dst, &e) != TH_OK:
        raise_error(&e)
    return 0
