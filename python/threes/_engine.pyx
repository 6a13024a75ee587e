# cython: language_level=3, autotestdict=False, auto_pickle=False
"""The C core's shared facts (src/threes_core/common/), for the generic Python modules (bots,
tournaments, the command line): they read them here, never from a game's extension.

MAX_THREADS (common/batch.h), ISMCTS_NODE_BYTES (the size of one node of common/ismcts.h's
search tree) and batch_seed, the seed of game i of a rollout batch (common/batch.h: every
game's batches use it).

Also the binding code every game shares (cimported by the games' extensions, _engine.pxd):
GameStateBase, the base of every game's binding state, written once over the game's C
interface (th_game); reading a rollout policy argument (policies_of); and ``rollout``, ``threes.rollout`` for a
state of any game, which calls the rollout its game's package registered as it loaded
(register_rollout), with no Python between them."""
cimport cython
from cpython.object cimport PyObject, PyTypeObject, Py_TYPE
from cpython.ref cimport Py_INCREF, Py_DECREF
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from cpython.exc cimport PyErr_CheckSignals
from cpython.pycapsule cimport PyCapsule_New
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_WRITABLE, PyBUF_C_CONTIGUOUS, PyBUF_FORMAT
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.long cimport PyLong_FromLong
from cpython.float cimport PyFloat_FromDouble
from cpython.tuple cimport PyTuple_GET_ITEM
from libc.math cimport copysign
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t, INT64_MAX, UINT32_MAX
from libc.string cimport memcpy, memset, strchr
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from threes._common cimport *
cimport numpy as cnp
cnp.import_array()

MAX_THREADS = TH_MAX_THREADS
ISMCTS_NODE_BYTES = sizeof(th_ismcts_node)


# ------------------------------------------ errors, integer arguments, stopping --
# What every compiled extension needs of Python at run time, defined here, in compiled code, so
# that no extension imports a Python module of ours (layers run one way: threes.errors,
# threes.args and threes._stop re-export these, and the extensions import them from here).
import contextlib as _contextlib
import os as _os
import secrets as _secrets
import threading as _threading

import numpy as _np


class IllegalActionError(ValueError):
    """An action id that is out of range or not legal in the state it was
    applied to. The state is left unchanged."""

    __module__ = "threes.errors"


# The C core's error codes (src/threes_core/common/error.h), in order from 1.
_CODE_NAMES = ("rules", "players", "action", "illegal", "setup", "arg", "stopped", "memory")


def error_for(code, message):
    """The exception for a C error report: an action out of range or not legal
    raises IllegalActionError, work stopped by a stop hook KeyboardInterrupt
    (threes._stop), memory that ran out MemoryError, every other bad value
    ValueError."""
    name = _CODE_NAMES[code - 1] if 1 <= code <= len(_CODE_NAMES) else "arg"
    if name == "stopped":
        return KeyboardInterrupt(message)
    if name == "memory":
        return MemoryError(message)
    if name in ("action", "illegal"):
        return IllegalActionError(message)
    return ValueError(message)


#: The most games one ``rollouts()`` call plays and the most deals of one tournament (``first=`` and
#: more calls go further); a larger count is a ValueError naming the bounds, not an array too big to
#: allocate or an OverflowError at the C boundary.
MAX_GAMES = 2**32 - 1


def seed64(seed):
    """A seed as the engine takes it: any int (numpy ints too, never a bool), of any size or sign,
    taken modulo 2**64, so the distinct seeds are 0..2**64-1 and ``-1`` is ``2**64 - 1``; None
    draws one. TypeError for anything else (never OverflowError)."""
    if seed is None:
        return _secrets.randbits(64)
    if isinstance(seed, bool) or not isinstance(seed, (int, _np.integer)):
        raise TypeError(f"seed must be an int or None (any int, taken modulo 2**64: the seeds are "
                        f"0..2**64-1), not {type(seed).__name__}")
    return int(seed) & 0xFFFFFFFFFFFFFFFF


def threads_arg(threads, max_threads, name="threads"):
    """A thread count: None is one per CPU (at most max_threads)."""
    if threads is None:
        return max(1, min(_os.cpu_count() or 1, max_threads))
    if isinstance(threads, bool) or not isinstance(threads, (int, _np.integer)):
        raise TypeError(f"{name} must be an int or None, not {type(threads).__name__}")
    if not 1 <= threads <= max_threads:
        shown = str(threads) if -10**12 < threads < 10**12 else ("a negative number" if threads < 0
                                                                  else "a larger number")
        raise ValueError(f"{name} must be between 1 and {max_threads}, not {shown}")
    return int(threads)


def int_arg(value, name, lo, hi):
    """An integer argument of the public API, checked before it reaches C: an int (or a numpy
    integer; not a bool) in ``lo..hi``. TypeError for another type, ValueError naming the bounds
    for any int outside them, whatever its size or sign (never OverflowError)."""
    if isinstance(value, bool) or not isinstance(value, (int, _np.integer)):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    v = int(value)
    if not lo <= v <= hi:
        shown = str(v) if -10**12 < v < 10**12 else ("a negative number" if v < 0 else "a larger number")
        raise ValueError(f"{name} must be in {lo}..{hi}, not {shown}")
    return v


_local = _threading.local()


def token():
    """This thread's cancel flag (None when there is none): threes._stop."""
    return getattr(_local, "token", None)


@_contextlib.contextmanager
def cancel_on(event):
    """Within the block, long calls in this thread raise KeyboardInterrupt
    once ``event.is_set()`` is true."""
    old = token()
    _local.token = event
    try:
        yield
    finally:
        _local.token = old


def check():
    """Raises KeyboardInterrupt if this thread's cancel flag is set."""
    t = token()
    if t is not None and t.is_set():
        raise KeyboardInterrupt("cancelled")


# ------------------------------------------------------------------ the binding code every game shares --
# Compiled once, here; the games' extensions reach the functions _engine.pxd
# declares through Cython's C-API table of this module (a C call, no Python).

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


cdef object as_int(object x):
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
    long long PyLong_AsLongLongAndOverflow(object o, int *overflow) except? -1


cdef int action_id(object action, int n) except -1:
    """An action argument as a C int in 0..n-1 (n: the game's distinct
    actions): an int or anything with __index__ (TypeError otherwise, a bool
    included); IllegalActionError when it is out of range. The C game then
    checks that it is legal."""
    cdef int overflow = 0
    cdef long v
    a = action if type(action) is int else as_int(action)
    v = PyLong_AsLongAndOverflow(a, &overflow)
    if overflow or not 0 <= v < n:
        raise IllegalActionError(f"action {a} is out of range: ids are 0..{n - 1}")
    return <int>v


cdef int raise_error(const th_error *e) except -1:
    """Raises the Python exception for a C error report (threes.errors.error_for)."""
    raise error_for(e.code, e.msg.decode("utf-8", "replace"))


# ------------------------------------------------------------ new arrays --
# Result arrays are made with NumPy's C API (a Python-level np.empty costs
# several times more per call); each module calls cnp.import_array() once.

cdef cnp.ndarray new_array(int nd, cnp.npy_intp *dims, int typenum, bint zero=False):
    """A new C-contiguous array: uninitialized, or zeroed with `zero`."""
    if zero:
        return <cnp.ndarray>cnp.PyArray_ZEROS(nd, dims, typenum, 0)
    return <cnp.ndarray>cnp.PyArray_EMPTY(nd, dims, typenum, 0)


# ---------------------------------------------------------------- id lists --


cdef extern from "Python.h":
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void *PyUnicode_DATA(object o)


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
    object _new_record "threes_new_record"(object cls, tuple names, tuple values)


cdef object new_record(object cls, tuple names, tuple values):
    """A result object (RolloutResult...) whose fields the caller gives, as
    names and their values: its dataclass __init__ and __post_init__ are
    not run (every batch's result, made in its inner loop)."""
    return _new_record(cls, names, values)


cdef inline str info_text(const char *obs, Py_ssize_t n, bytes history):
    """obs[:n] + "\\nhistory: " + history as one ASCII str, made once."""
    cdef Py_ssize_t h = len(history)
    cdef str out = PyUnicode_New(n + 10 + h, 127)
    cdef char *p = <char *>PyUnicode_DATA(out)
    memcpy(p, obs, n)
    memcpy(p + n, b"\nhistory: ", 10)
    memcpy(p + n + 10, <const char *>history, h)
    return out


cdef list ids_list(const uint16_t *ids, int n, tuple ints):
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


cdef list float_list(const float *v, Py_ssize_t n, tuple small):
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


cdef object hist_push(object node, object action):
    """The chain `node` with `action` (an int) appended."""
    cdef tuple pair = (node, action)
    PyObject_GC_UnTrack(<PyObject *>pair)
    return pair


cdef object hist_of(list actions):
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
    static int threes_default_threads = 0; /* threads=None: one per CPU, counted once */
    """
    int default_threads "threes_default_threads"


cdef int threads_of(object threads) except -1:
    """A thread count argument: None is one per CPU (counted once), else an
    int in 1..TH_MAX_THREADS, with threes.args.threads_arg's checks and
    errors (the binding's fast path for a plain int in range)."""
    global default_threads
    if threads is None:
        if default_threads == 0:
            default_threads = threads_arg(None, TH_MAX_THREADS)
        return default_threads
    if type(threads) is int and 1 <= threads <= TH_MAX_THREADS:
        return threads
    return threads_arg(threads, TH_MAX_THREADS)


cdef object seed_of(object seed):
    """A seed argument as the engine takes it (threes.args.seed64: any int
    modulo 2**64, None draws one); a plain int in range passes as it is."""
    if type(seed) is int and 0 <= seed <= 0xFFFFFFFFFFFFFFFF:
        return seed
    return seed64(seed)


cdef double monotonic_now() noexcept nogil:
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
    return token()


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


cdef const th_stop *watch(th_stop *hook, py_stop *poll, list box) noexcept:
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


cdef int _batch_chunk(const batch_call *b, int64_t lo, int64_t k, int threads, const th_stop *stop,
                      th_error *e) noexcept nogil:
    """Games [lo, lo + k) of the call b (0 <= lo <= b.count - k): the game's
    play function with each output at its offset lo."""
    cdef batch_part part
    cdef int i
    part.first, part.n, part.stop = b.first + lo, k, stop
    for i in range(b.nout):
        part.out[i] = b.base[i] + lo * b.stride[i] if k > 0 else b.base[i]
    return b.play(b.batch, &part, threads, e)


cdef int _run_chunked(const batch_call *b, int64_t base, int64_t n, int64_t size) except -1:
    """Plays games [base, base + n) of the call b with the GIL released,
    `size` games first and then about CHUNK_SECONDS of work each.
    Stopping: the game's batch gets a stop hook (watch) that it asks at
    least every TH_STOP_MOVES moves of a game, and check_interrupt runs
    between chunks, so Ctrl-C stops even one long game. At least one call
    (k = 0 when n = 0, so the arguments are still checked in C)."""
    cdef th_error e
    cdef int64_t lo = base, end = base + n, k
    cdef double t0
    cdef int rc
    cdef th_stop hook
    cdef py_stop poll
    cdef list box = []
    cdef const th_stop *stop = watch(&hook, &poll, box)
    while True:
        k = min(size, end - lo)
        t0 = monotonic_now()
        with nogil:
            rc = _batch_chunk(b, lo, k, b.threads, stop, &e)
        if box:
            raise box[0]
        if rc != TH_OK:
            raise_error(&e)
        lo += k
        if lo >= end:
            return 0
        check_interrupt(stop_token())
        size = next_chunk(k, monotonic_now() - t0, b.threads)


# ------------------------------------------------------------------ batches --
# Every game's batch (threes.rollouts) is the same shell around its own C
# batch, written here: the arguments checked (batch_call_of, observer_arg),
# the result arrays made (batch_out), the games played in chunks with
# progress and Ctrl-C (run_batch), a result made (new_record). The game
# gives its C batch and one play function that sets the call's games and
# output pointers on it and runs it.

cdef int64_t count_arg(object x, str what, int64_t least, int64_t most) except -1:
    """An int argument in least..most (an int or a NumPy integer; not a
    bool): int_arg's TypeError or ValueError naming the bounds, whatever the
    int's size (never OverflowError); a plain int in range passes at once."""
    cdef int overflow = 0
    cdef long long v
    if type(x) is int:  # compared in C: no int object made for the bounds
        v = PyLong_AsLongLongAndOverflow(x, &overflow)
        if not overflow and least <= v <= most:
            return v
    return int_arg(x, what, least, most)


cdef int batch_call_of(batch_call *b, object n, object first, object chunk, int64_t default_step,
                       object threads) except -1:
    """The counting arguments of a batch (threes.rollouts): n games from game
    `first` of the batch, in chunks of `chunk` (None: default_step) games
    between two progress calls, on `threads` threads (threads_of). No
    output yet; the caller sets batch and play."""
    memset(b, 0, sizeof(batch_call))
    b.count = count_arg(n, "n", 0, UINT32_MAX)  # MAX_GAMES
    b.first = count_arg(first, "first", 0, INT64_MAX)
    if b.first > INT64_MAX - b.count:
        raise ValueError(f"first + n must be below 2**63, not {b.first} + {b.count}")
    b.step = default_step if chunk is None else count_arg(chunk, "chunk", 1, INT64_MAX)
    b.threads = threads_of(threads)
    return 0


cdef int observer_arg(object observer, int num_players, bint from_state) except -2:
    """A batch's observer argument: -1 for None, else a seat of a State's
    game (fresh deals hide nothing to resample)."""
    if observer is None:
        return -1
    if not from_state:
        raise ValueError("observer needs a State: fresh deals hide nothing to resample")
    if isinstance(observer, bool) or not isinstance(observer, (int, _np.integer)):
        raise TypeError(f"observer must be an int seat, not {type(observer).__name__}")
    if not 0 <= observer < num_players:
        raise ValueError(f"observer must be a seat in 0..{num_players - 1}, not {observer}")
    return observer


cdef int batch_target(batch_call *b, void *p, Py_ssize_t stride) except -1:
    """Adds an output of the call: game i's part at p + i * stride bytes."""
    if b.nout >= BATCH_MAX_OUTS:
        raise SystemError("a batch has at most BATCH_MAX_OUTS outputs")
    b.base[b.nout] = <char *>p
    b.stride[b.nout] = stride
    b.nout += 1
    return 0


cdef cnp.ndarray batch_out(batch_call *b, int per_game, int typenum, bint zero=False):
    """A new array of the call's outputs, b.count rows (of `per_game`
    items, a 2-D array; or one item each with per_game 0), added to the
    call's outputs (batch_target) in this order."""
    cdef cnp.npy_intp dims[2]
    dims[0] = b.count
    dims[1] = per_game
    cdef cnp.ndarray a = new_array(2 if per_game else 1, dims, typenum, zero)
    batch_target(b, cnp.PyArray_DATA(a), cnp.PyArray_ITEMSIZE(a) * (per_game if per_game else 1))
    return a


cdef int run_batch(batch_call *b, int64_t size, object progress) except -1:
    """Plays the b.count games of the call (b.play on b.batch, its outputs
    set) on b.threads threads, `size` games in the first chunk. With
    `progress`, in steps of b.step games, progress(games done) called after
    each; the games are the same."""
    cdef int64_t lo = 0, hi
    if progress is None:
        return _run_chunked(b, 0, b.count, size)
    while True:  # at least one call: with n = 0 the arguments are still checked in C
        hi = min(b.count, lo + b.step)
        _run_chunked(b, lo, hi - lo, size)
        if hi > lo:
            progress(hi)
        lo = hi
        if lo >= b.count:
            return 0


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
    """Copies a state's bytes (a vector env's buffer row: at least the bytes
    in use, th_game.state_bytes) into dst, a fresh state of `game`, and
    checks its invariants (dst is garbage on error)."""
    cdef th_error e
    cdef Py_ssize_t n = len(raw)
    if n > <Py_ssize_t>game.state_size:
        raise ValueError(f"a {game.name.decode()} state is at most {game.state_size} bytes, not {n}")
    memcpy(dst, <const char *>raw, n)
    if <Py_ssize_t>game.state_bytes(dst) > n:
        raise ValueError(f"{n} bytes are not a whole {game.name.decode()} state: it has "
                         f"{game.state_bytes(dst)} bytes in use")
    if game.check(dst, &e) != TH_OK:
        raise_error(&e)
    return 0


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


cdef tuple policies_of(dict cache, tuple names, object policy, int n):
    """(ids as bytes, names as a tuple) of `policy` for n seats (1..TH_MAX_PLAYERS) of a game whose
    policies are `names` (in its C engine's order): one name for every seat
    (any case, spaces around it ignored), or a sequence of one name or one
    per seat. A name's answers are kept in `cache` (the game's own dict: a
    name -> a list by seat count), so that a search's inner loop looks them
    up; a sequence is read every call."""
    cdef list seq, per = None
    cdef int q
    from_name = type(policy) is str
    if from_name:
        per = cache.get(policy)
        if per is not None and per[n] is not None:
            return <tuple>per[n]
        seq = [policy] * n
    else:
        try:
            seq = list(policy)
        except TypeError:
            raise TypeError(f"policy must be a name or one name per seat, not {type(policy).__name__}") from None
        if len(seq) == 1:
            seq = seq * n
        if len(seq) != n:
            raise ValueError(f"one policy per seat: {n} needed, {len(seq)} given")
    ids = bytearray(n)
    for q in range(n):
        name = seq[q]
        key = name.strip().lower() if isinstance(name, str) else None
        if key not in names:
            raise ValueError(f"unknown policy {name!r}: choose one of {', '.join(names)}")
        ids[q] = names.index(key)
    got = (bytes(ids), tuple([names[i] for i in ids]))
    if from_name and 0 <= n <= TH_MAX_PLAYERS and (per is not None or len(cache) < 64):
        if per is None:
            per = cache[policy] = [None] * (TH_MAX_PLAYERS + 1)
        per[n] = got
    return got


cdef dict _BATCH = {}     # a game's Game or State type -> its binding's batch (threes.batches.register)
cdef object _RESULT = None  # threes.results.RolloutResult, the type every batch returns
cdef object _REMOTE = None  # threes.cluster's rollouts (backend="ray"), set by threes.batches


def _configure_batches(result, remote):
    """threes.batches hands over the one result type and the remote backend's function (the
    compiled module imports no Python module of ours)."""
    global _RESULT, _REMOTE
    _RESULT, _REMOTE = result, remote


@cython.final
cdef class CBatch:
    """A game's batch written in its extension as a C function (batch_fn): ``rollouts`` calls it
    with no Python call between them; calling the object calls it too (its arguments as
    ``rollouts`` passes them, all given)."""
    cdef batch_fn fn

    def __call__(self, start, n, policy, seed, threads, observer, progress, chunk, first, result):
        return self.fn(start, n, policy, seed, threads, observer, progress, chunk, first, result)


cdef object c_batch(batch_fn fn):
    cdef CBatch b = CBatch.__new__(CBatch)
    b.fn = fn
    return b


def register_batch(type t, fn):
    """Makes ``rollouts`` of a `t` (a game's Game or State type) call ``fn`` (its binding's batch:
    a CBatch, a GameBatch or any callable taking rollouts' arguments and the result type)."""
    if not callable(fn):
        raise TypeError("register_batch takes a type and a callable")
    global _last_type, _last_batch
    _BATCH[t] = fn
    _last_type = _last_batch = None  # a type registered again (or a subclass's) is looked up anew


cdef object _registered(dict table, object obj):
    """What `table` (_BATCH or _ROLLOUT) holds for obj's type or a class it derives from (then kept
    for its own type too), or None."""
    fn = table.get(type(obj))
    if fn is not None:
        return fn
    for cls in type(obj).__mro__:
        fn = table.get(cls)
        if fn is not None:
            if len(table) < 256:
                table[type(obj)] = fn
            return fn
    return None


cdef object _last_type = None  # the type of the last rollouts call and its batch: a search's inner
cdef object _last_batch = None  # loop calls rollouts on states of one type again and again


cdef object _batch_of(object obj):
    global _last_type, _last_batch
    if type(obj) is _last_type:
        return _last_batch
    fn = _registered(_BATCH, obj)
    if fn is None:
        raise TypeError(f"rollouts takes a Game or a State of a registered game, not {type(obj).__name__}")
    _last_type, _last_batch = type(obj), fn
    return fn


def rollouts(game_or_state, n, policy="random", seed=None, threads=None, observer=None, progress=None, chunk=None,
             *, first=0, backend="local", address=None):
    """Plays `n` games of any game in C, with the GIL released, on `threads`
    native threads (default: every core), and returns a RolloutResult. From
    a Game: fresh deals; from a State: every game from that position (the
    state is not changed). Game i uses its own seed derived from (seed, i),
    so the result does not depend on `threads`. ``policy``: one of the
    game's ``POLICIES`` for every seat, or one name per seat.

    With ``observer=p`` (from a State only), every game first deals the
    cards seat p cannot see again at random (``resample_from_infostate``, in
    C), so the result is an estimate from p's point of view that never uses
    hidden cards.

    With ``progress``, the games are played in chunks of ``chunk`` and
    ``progress(games_done)`` is called after each; the games are the same
    as in one call. ``first``: play games first .. first + n - 1 of the
    batch (game i still from (seed, i)), so that the results of [0, k) and
    of k games from ``first=k`` put together are the results of one call.

    ``backend="ray"`` plays the batch on a Ray cluster (``address``: None
    for the one ``ray.init()`` finds or starts, else e.g.
    ``"10.0.0.1:6379"``) in chunks of ``chunk`` games (default: sized from
    Ray's per-task overhead, see threes.cluster), with the same result as
    here; ``progress`` is then called as chunks finish anywhere on the
    cluster, and ``threads`` in the result is the cluster's CPU count."""
    if backend == "local" and address is None:
        fn = _batch_of(game_or_state)
        if type(fn) is CBatch:  # a game's C batch: no Python call
            return (<CBatch>fn).fn(game_or_state, n, policy, seed, threads, observer, progress, chunk, first, _RESULT)
        if type(fn) is GameBatch:
            return (<GameBatch>fn)._play(game_or_state, n, policy, seed, threads, observer, progress, chunk, first,
                                         _RESULT)
        return fn(game_or_state, n, policy, seed, threads, observer, progress, chunk, first, _RESULT)
    if backend == "ray":
        if threads is not None:
            raise ValueError("threads is for backend='local': a Ray cluster plays one game a CPU")
        return _REMOTE(game_or_state, n, policy, seed, observer=observer, progress=progress, chunk=chunk,
                       first=first, address=address)
    if backend != "local":
        raise ValueError(f"backend must be 'local' or 'ray', not {backend!r}")
    raise ValueError("address is for backend='ray'")


cdef dict _ROLLOUT = {}  # a game's State type -> its binding's rollout


def register_rollout(type state_type, fn):
    """Makes ``rollout(state)`` of a `state_type` (a game's State class) call
    ``fn(state, policy, seed, **options)``: each game's package registers its
    binding's rollout as it loads (so before any of its states exists)."""
    if not callable(fn):
        raise TypeError("register_rollout takes a State type and a callable")
    _ROLLOUT[state_type] = fn


cdef object _rollout_of(object state):
    """The registered rollout of state's type or of a class it derives from."""
    fn = _registered(_ROLLOUT, state)
    if fn is None:
        raise TypeError(f"rollout takes a State of a registered game, not {type(state).__name__}")
    return fn


cdef object rollout_of_any(object state, object policy, object seed, bint order):
    """rollout(state, policy, seed, order=order) of any game, for a game's
    own rollout handed a state of another game (threes.rollout is
    Shithead's, the game ``import threes`` gives)."""
    fn = _rollout_of(state)
    if order:
        return fn(state, policy, seed, order=True)
    return fn(state, policy, seed)


def rollout(state, policy="random", seed=None, **options):
    """Plays one game to the end from `state` (which is not changed) and
    returns each seat's return, with the game's own rollout (its package's
    ``rollout``, whose docstring tells its ``options``: ``order=True``, and
    Three Thirteen's ``round_only=True``). The call a search makes in its
    inner loop: one dictionary lookup over the game's own fast path."""
    fn = _rollout_of(state)
    if options:
        return fn(state, policy, seed, **options)
    return fn(state, policy, seed)


# ------------------------------------------------------------ freed states --
# The one trick on CPython's object internals the bindings keep, in this one
# place: a State's clone (GameStateBase._clone) is a byte copy of its object
# into a freed State of the same size, kept for reuse instead of going back to
# the allocator. benchmarks/test_bench_boundary.py measures clone() and
# child(); tests/contract/test_contract_state_copies.py churns the lists and
# tests/memcheck runs the copies under valgrind.

cdef extern from *:
    """
    static inline int threes_plain_layout(PyTypeObject *t, Py_ssize_t size) {
      return t->tp_basicsize == size && t->tp_itemsize == 0 && t->tp_dictoffset == 0 && t->tp_weaklistoffset == 0;
    }

    /* Freed states kept for reuse: a game's State type frees into the list
     * of its object size instead of the allocator, up to THREES_REUSE_MAX
     * objects a list (one list for each of up to THREES_REUSE_SIZES sizes,
     * one per game), and clone() takes from it. The objects have that
     * type's plain layout (threes_plain_layout), are untracked by the
     * garbage collector (their dealloc untracked them) and hold no
     * reference, not even to their type. CPython's own tuple and float
     * freelists do the same. The lists are only touched with the GIL held;
     * without a GIL (a free-threaded build) nothing is kept. */
    #define THREES_REUSE_MAX 128
    #define THREES_REUSE_SIZES 8
    typedef struct {
      Py_ssize_t size; /* 0: a free slot */
      int n;
      PyObject *items[THREES_REUSE_MAX];
    } threes_reuse_list;
    static threes_reuse_list threes_reuse[THREES_REUSE_SIZES];

    static inline threes_reuse_list *threes_reuse_of(Py_ssize_t size) {
      for (int i = 0; i < THREES_REUSE_SIZES && threes_reuse[i].size; i++)
        if (threes_reuse[i].size == size) return &threes_reuse[i];
      return NULL;
    }

    /* A registered type's tp_free: its type is still alive here (a heap
     * type's instance drops its reference after tp_free returns). */
    static void threes_reuse_free(void *p) {
    #ifndef Py_GIL_DISABLED
      threes_reuse_list *l = threes_reuse_of(Py_TYPE((PyObject *)p)->tp_basicsize);
      if (l && l->n < THREES_REUSE_MAX) {
        l->items[l->n++] = (PyObject *)p;
        return;
      }
    #endif
      PyObject_GC_Del(p);
    }

    /* Makes type t (a plain layout of `size` bytes whose tp_free is the
     * garbage collector's) free into the list of its size. Returns 1, or 0
     * when t is not such a type or every list is taken (nothing changed). */
    static int threes_reuse_register(PyTypeObject *t, Py_ssize_t size) {
      threes_reuse_list *l;
      if (!threes_plain_layout(t, size) || t->tp_free != PyObject_GC_Del) return 0;
      l = threes_reuse_of(size);
      for (int i = 0; !l && i < THREES_REUSE_SIZES; i++)
        if (!threes_reuse[i].size) {
          l = &threes_reuse[i];
          l->size = size;
        }
      if (!l) return 0;
      t->tp_free = threes_reuse_free;
      PyType_Modified(t);
      return 1;
    }

    /* A new object of type t (a plain layout): a kept one of its size,
     * reinitialised (type, its reference, refcount 1), or a fresh one from
     * the garbage collector's allocator. Neither is zeroed nor tracked. */
    static inline PyObject *threes_reuse_new(PyTypeObject *t) {
      threes_reuse_list *l = threes_reuse_of(t->tp_basicsize);
      if (l && l->n > 0) return PyObject_Init(l->items[--l->n], t);
      return _PyObject_GC_New(t);
    }
    """
    PyObject *reuse_new "threes_reuse_new"(PyTypeObject *tp)
    int reuse_register "threes_reuse_register"(PyTypeObject *t, Py_ssize_t size)
    void PyObject_GC_Track(void *op)
    int plain_layout "threes_plain_layout"(PyTypeObject *t, Py_ssize_t size)


cdef bint reuse_freed(type cls, Py_ssize_t basicsize):
    """A game module's _reuse_freed(cls): makes the game's State class (a
    subclass of its StateBase, of `basicsize` bytes, with __slots__ = ())
    free its objects into the list of freed states of that size, which
    GameStateBase._clone reuses. True when done; False for a class without
    that plain layout, or already done (nothing changed)."""
    if not issubclass(cls, GameStateBase):
        raise TypeError(f"only a game's State class frees into the list of states, not {cls.__name__}")
    return reuse_register(<PyTypeObject *>cls, basicsize) == 1


cdef inline object copy_state(object src, Py_ssize_t basicsize, Py_ssize_t used, PyObject *field1,
                              PyObject *field2):
    """A new object of src's type whose body (everything after the object
    header) is a byte copy of src's first `used` bytes (the fields and the
    C state's bytes in use, th_game.state_bytes; the rest of the body is
    never read), for clone(): no tp_new zeroing and no __cinit__. field1 and
    field2 are src's two object fields (a State holds its history chain and
    its history text), which the copy then holds too. None when src's type
    is not exactly `basicsize` with neither __dict__ nor __weakref__ (a
    user's subclass that adds them): the caller then takes the general
    path."""
    cdef PyTypeObject *t = Py_TYPE(src)
    if not plain_layout(t, basicsize):
        return None
    cdef PyObject *o = reuse_new(t)  # not zeroed; takes a reference to a heap type
    if o == NULL:
        raise MemoryError()
    memcpy(<char *>o + sizeof(PyObject), <char *><PyObject *>src + sizeof(PyObject), used - sizeof(PyObject))
    Py_INCREF(<object>field1)
    Py_INCREF(<object>field2)
    PyObject_GC_Track(o)
    c = <object>o
    Py_DECREF(c)  # <object> took a second reference to the new object
    return c

cdef tuple _EMPTY = ()


cdef inline int _of_a_game(GameStateBase st) except -1:
    """TypeError for an object of GameStateBase itself or of a Python class
    derived straight from it: no game set its C interface (each game's
    StateBase sets `game` when an object is made, and a byte copy keeps it)."""
    if st.game == NULL:
        raise TypeError("GameStateBase is the base of each game's State: make a state with a game's "
                        "Game.new_initial_state()")
    return 0


@cython.trashcan(True)  # a long undo chain (_undo) is freed without deep C recursion
cdef class GameStateBase:
    """The binding's state of any game (each game's StateBase derives from
    it and holds its C state by value): what every game's state does the
    same way over its C interface, th_game, written once. Not made directly:
    a game's Game.new_initial_state(), State.from_dict() or clone()."""

    # ------------------------------------------------- what a game provides --
    cdef void *_c(self) noexcept:
        return NULL  # never: every game's StateBase answers its own state

    cdef Py_ssize_t _plain_size(self) noexcept:
        return 0  # no byte copy: clone takes the general path

    cdef int _apply(self, action) except -1:
        raise TypeError("a State of no game")

    cdef int _player(self, player) except -1:
        raise TypeError("a State of no game")

    # ------------------------------------------ the game, over th_game --
    # What a game's State answers the same way for every game; a game may
    # answer faster from its own fields (Shithead and Three Thirteen do).
    def num_players(self):
        """The number of seats, 0 .. num_players-1."""
        _of_a_game(self)
        return self.game.num_players(self._c())

    def current_player(self):
        """The seat to move, or TERMINAL_PLAYER_ID (-4) when the game is over."""
        _of_a_game(self)
        return self.game.current_player(self._c())

    def is_terminal(self):
        """True when the game is over."""
        _of_a_game(self)
        return self.game.is_over(self._c()) != 0

    def is_truncated(self):
        """True when the game ended unfinished (its move cap)."""
        _of_a_game(self)
        return self.game.is_over(self._c()) != 0 and self.game.is_truncated(self._c()) != 0

    def legal_actions(self):
        """Legal action ids, sorted ascending; empty when the game is over."""
        cdef uint16_t buf[TH_MAX_ACTIONS]
        _of_a_game(self)
        cdef const void *c = self._c()
        if self.game.is_over(c):
            return []
        cdef int n = self.game.legal_actions(c, buf)
        return [buf[i] for i in range(n)]

    def returns(self):
        """One value per seat in [-1, 1] once the game is over (its place: +1 first, -1 last, shared places
        share their values); all 0 before."""
        cdef double out[TH_MAX_PLAYERS]
        _of_a_game(self)
        cdef const void *c = self._c()
        cdef int q, n = self.game.num_players(c)
        if not self.game.is_over(c):
            return [0.0] * n
        self.game.returns(c, out)
        return [out[q] for q in range(n)]

    def observation_string(self, player):
        """What seat ``player`` sees, as text (th_game.observation_text, written in C)."""
        cdef char buf[TH_OBS_TEXT_MAX]
        _of_a_game(self)
        cdef int q = self._player(player)
        cdef size_t n = self.game.observation_text(self._c(), q, buf, TH_OBS_TEXT_MAX)
        return buf[:n].decode("utf-8")

    def resample_from_infostate(self, player, seed=None):
        """A copy with what seat ``player`` cannot see dealt again at random
        (th_game.resample, in C), so that it has the same information state
        for ``player``; seed: 0..2**64-1 or None (one drawn). This state is
        unchanged."""
        cdef th_rng rng
        cdef th_error e
        _of_a_game(self)
        cdef int p = self._player(player)
        seed = seed_of(seed)
        cdef GameStateBase c = self._clone()
        th_rng_seed(&rng, <uint64_t>seed)
        if self.game.resample(c._c(), p, &rng, &e) != TH_OK:
            raise_error(&e)
        c._undo = None  # the sample keeps none of the true states before it (undo() would bring them back)
        return c

    def _check(self):
        """Raises (th_game.check's error) when the state breaks an invariant of its game."""
        cdef th_error e
        _of_a_game(self)
        if self.game.check(self._c(), &e) != TH_OK:
            raise_error(&e)

    def _policy_action(self, int policy, uint64_t seed):
        """The action C policy `policy` (an id) picks now, with a generator seeded by `seed`."""
        cdef th_rng rng
        _of_a_game(self)
        if not 0 <= policy < self.game.num_policies:
            raise ValueError(f"policy {policy} does not exist")
        if self.game.is_over(self._c()):
            raise ValueError("the game is over: no action to choose")
        th_rng_seed(&rng, seed)
        return self.game.policy_action(self._c(), policy, &rng)

    # ------------------------------------------------------- copies --
    @property
    def nbytes(self):
        """The bytes of this state's C state in use: what a copy (clone(),
        child(), a search's determinization) carries. Sized by the game's
        table and rules (th_game.state_bytes): a Shithead state leaves out its
        repetition ring when repetition_limit is 0. The object holds a buffer
        of the game's largest state (``state_size`` in the C interface)."""
        _of_a_game(self)
        return <Py_ssize_t>self.game.state_bytes(self._c())

    def clone(self):
        """An independent copy (the C state is copied by value; the history
        chain is shared: appending is one new pair, hist_push)."""
        return self._clone()

    cdef GameStateBase _clone(self):
        # child() and resample_from_infostate() call this directly: self.clone()
        # from Cython is a Python method lookup and call.
        cdef GameStateBase g
        cdef PyTypeObject *t
        _of_a_game(self)
        cdef void *cs = self._c()
        cdef Py_ssize_t used = (<char *>cs - <char *><PyObject *>self) + <Py_ssize_t>self.game.state_bytes(cs)
        c = copy_state(self, self._plain_size(), used, <PyObject *>self._history, <PyObject *>self._htext)
        if c is not None:
            g = <GameStateBase>c
            Py_INCREF(g._undo)  # the byte copy holds self's undo chain too (never changed: undo() follows it)
            Py_INCREF(g._own)  # and the game's own object (shared until one of them changes it)
            return g
        t = Py_TYPE(self)
        g = <GameStateBase>t.tp_new(<type>t, <PyObject *>_EMPTY, NULL)
        g._assign(self)
        return g

    cdef int _assign(self, GameStateBase other) except -1:
        """This state made an exact copy of `other`, a state of the same game:
        the C state, the history, the undo chain and the game's own fields."""
        memcpy(self._c(), other._c(), self.game.state_bytes(other._c()))
        self._history = other._history
        self._hlen = other._hlen
        self._htext = other._htext
        self._htext_n = other._htext_n
        self._undo = other._undo
        self._own = other._own
        return 0

    def child(self, action):
        """A copy with the action applied; this state is unchanged (an
        illegal action raises as apply_action does)."""
        cdef GameStateBase c = self._clone()
        c._apply(action)
        return c

    def apply_action(self, action):
        """Applies a legal action; anything else raises and leaves the state as it was."""
        self._apply(action)

    # ------------------------------------------------------ history --
    def history(self):
        """Action ids applied to this state, oldest first (since the deal; for
        a position built by from_dict, the dict's ``history`` followed by the
        actions applied since)."""
        return hist_tail(self._history, self._hlen)

    def information_state_string(self, player):
        """Observation plus public history: equal exactly when ``player``
        cannot tell the two states apart. The observation text is written in
        C (th_game.observation_text, the format of the game's
        observation_string) and the history's text is kept from call to call
        (and shared with clones), so a call costs the observation and the
        actions since the last call."""
        cdef char buf[TH_OBS_TEXT_MAX]
        _of_a_game(self)
        cdef int q = self._player(player)
        cdef size_t n = self.game.observation_text(self._c(), q, buf, TH_OBS_TEXT_MAX)
        if n >= TH_OBS_TEXT_MAX:
            raise RuntimeError("the observation text did not fit its buffer")  # never: TH_OBS_TEXT_MAX bounds it
        return info_text(buf, n, self._history_text())

    cdef bytes _history_text(self):
        """The history as information_state_string writes it, kept from call
        to call (and shared with clones): a call costs the actions since the
        last one."""
        if self._htext is None or self._htext_n > self._hlen:
            self._htext = b""
            self._htext_n = 0
        if self._htext_n < self._hlen:
            self._htext = self._htext + chain_text(self._history, self._hlen - self._htext_n, self._htext_n > 0)
            self._htext_n = self._hlen
        return self._htext

    # -------------------------------------------------------- undo --
    def _apply_events(self, action, bint keep_undo=False):
        """Applies a legal action as apply_action does and returns what it
        did: the game's events (th_game.events, common/event.h) as
        events_list's tuples. With keep_undo, this state as it was
        is kept for _take_back (undo)."""
        cdef uint8_t before[TH_MAX_STATE_BYTES]
        cdef th_events ev
        _of_a_game(self)
        cdef int a = action_id(action, self.game.num_actions(self._c()))
        cdef GameStateBase snap = self._clone() if keep_undo else None
        memcpy(before, self._c(), self.game.state_bytes(self._c()))
        self._apply(action)
        self.game.events(before, self._c(), a, &ev)
        self._undo = snap  # None without keep_undo: an older chain could no longer be followed (_take_back)
        return events_list(&ev)

    def _take_back(self):
        """Restores the state kept by the last _apply_events(keep_undo=True) (undo)."""
        cdef GameStateBase snap = self._undo
        if snap is None:
            raise ValueError("nothing to undo: undo() takes back moves made with apply() since the last "
                             "apply(undo=False)")
        if snap._hlen + 1 != self._hlen:
            raise ValueError("cannot undo: the last move was made with apply_action(), which keeps no undo "
                             "record (use apply())")
        self._restore_from(snap)

    def _undo_depth(self):
        """How many apply() moves undo() can take back, one after another."""
        cdef GameStateBase at = self
        cdef int n = 0
        while at._undo is not None and at._undo._hlen + 1 == at._hlen:
            at = at._undo
            n += 1
        return n

    def _restore_from(self, GameStateBase other):
        """Makes this state an exact copy of `other`, a state of the same game
        (the C state, the history and the game's own fields): undo."""
        _of_a_game(self)
        if other.game != self.game:
            raise TypeError("a state is restored from a state of its own game")
        self._assign(other)

    # ---------------------------------------------- masks and tensors --
    def is_legal(self, action):
        """Whether action id ``action`` is legal now: False for an id out of
        range and when the game is over; a TypeError for anything but an int
        (numpy ints too, never a bool)."""
        _of_a_game(self)
        a = as_int(action)
        return -2**31 <= a < 2**31 and self.game.is_legal(self._c(), a) != 0

    def legal_actions_mask(self, out=None):
        """A bool array of length num_distinct_actions(), True at the legal
        ids (all False when the game is over). With ``out`` (a writable
        C-contiguous bool, uint8 or int8 array of that length) it is written
        in place (0 and 1) and returned, with nothing allocated."""
        cdef uint16_t buf[TH_MAX_ACTIONS]
        _of_a_game(self)
        cdef const void *c = self._c()
        cdef int n = self.game.legal_actions(c, buf) if not self.game.is_over(c) else 0
        return mask_of(buf, n, self.game.num_actions(c), out)

    def observation_tensor(self, player, out=None):
        """The observation of seat ``player`` as float32, computed in C (the
        game's observation.h documents the blocks); nothing in it is hidden
        from ``player``. With ``out`` (a writable C-contiguous float32 array
        of that length) it is written in place and returned, with nothing
        allocated."""
        _of_a_game(self)
        cdef int q = self._player(player)
        cdef Py_buffer view
        cdef float *p
        cdef bint held
        res = tensor_out(out, self.game.observation_size(self._c()), &view, &p, &held)
        self.game.observe(self._c(), q, p)
        if held:
            PyBuffer_Release(&view)
        return res

    def observation_high(self):
        """A bound on every entry of this game's observation tensors (all are
        whole numbers from 0 to it): the high of an observation space."""
        _of_a_game(self)
        return self.game.observation_high(self._c())

    # ------------------------------------------- vector env and search --
    def _vec_handle(self):
        """(a capsule of the game's C interface, this state's bytes): what
        threes.vector deals its episodes from."""
        _of_a_game(self)
        return vec_handle(self.game, self._c())

    @classmethod
    def _from_bytes(cls, bytes raw):
        """A state from the bytes of a vector env's state buffer (checked)."""
        cdef GameStateBase st = cls.__new__(cls)
        _of_a_game(st)
        state_from_bytes(st.game, st._c(), raw)
        st._history = None
        st._hlen = 0
        return st

    def _ismcts(self, uint8_t[::1] arena, iterations, double time_limit, double exploration, rollout_policy,
                seed):
        """Runs the generic th_ismcts_search (common/ismcts.h) over this
        state's game with the GIL released. `arena` holds the tree (a
        multiple of ISMCTS_NODE_BYTES); rollout_policy is one of the game's
        policy ids. Returns (best_action, iterations run, nodes used,
        [(action, visits, mean value) for each root child])."""
        cdef uint8_t root[TH_MAX_STATE_BYTES]
        cdef uint32_t it = int_arg(iterations, "iterations", 1, 2**32 - 1)
        cdef int pol = int_arg(rollout_policy, "rollout_policy", 0, self.game.num_policies - 1)
        cdef uint64_t sd = int_arg(seed, "seed", 0, 2**64 - 1)
        _of_a_game(self)
        self._player(0)  # a set-up state
        memcpy(root, self._c(), self.game.state_bytes(self._c()))  # a private copy: other threads may change the state meanwhile
        return ismcts_run(self.game, root, arena, it, time_limit, exploration, pol, sd)


# ------------------------------------------------------- any game's batch --
cdef tuple _BATCH_FIELDS = ("places", "_returns", "moves", "truncated", "stalemate", "policies", "seed", "threads",
                            "seconds")


# a GameBatch call's play function (run_batch): th_play_games
cdef int _play_games(void *batch, const batch_part *p, int threads, th_error *e) noexcept nogil:
    cdef th_play_batch *b = <th_play_batch *>batch
    b.first, b.n = p.first, p.n
    b.returns, b.moves, b.truncated = <double *>p.out[0], <uint32_t *>p.out[1], <uint8_t *>p.out[2]
    return th_play_games(b, threads, p.stop, e)


cdef class GameBatch:
    """Rollouts of a game that needs no batch code of its own: ``threes.rollouts`` and
    ``threes.rollout`` over its C interface (th_game, common/batch.h th_play_games), with per-seat
    policies, threads, Ctrl-C, ``observer`` resampling, ``first`` and ``progress`` as every game's
    batch. A game's package makes one with its policy names and registers its two calls:
    ``threes.batches.register(Game, State, batch, batch.rollout)``. The places are ranked from the
    returns (a higher return is a better place; equal returns share the better place)."""

    cdef readonly tuple policies
    cdef dict _cache

    def __init__(self, policies):
        if not isinstance(policies, tuple) or not policies or not all(isinstance(p, str) for p in policies):
            raise TypeError("GameBatch takes the game's policy names, a non-empty tuple of str")
        self.policies = policies
        self._cache = {}

    cdef GameStateBase _start(self, object start, bint *fresh):
        if isinstance(start, GameStateBase):
            fresh[0] = False
            _of_a_game(<GameStateBase>start)
            return <GameStateBase>start
        new_state = getattr(start, "new_initial_state", None)
        st = new_state(0) if new_state is not None else None
        if not isinstance(st, GameStateBase):
            raise TypeError(f"rollouts plays from a Game or a State, not {type(start).__name__}")
        fresh[0] = True
        return <GameStateBase>st

    cdef int _run(self, GameStateBase st, bint fresh, int obs, bytes pol, uint64_t seed, batch_call *call,
                  object progress) except -1:
        """Plays the call (its outputs set: returns, moves, truncated) from st."""
        cdef uint8_t start[TH_MAX_STATE_BYTES]
        cdef th_play_batch pb
        memcpy(start, st._c(), st.game.state_bytes(st._c()))  # a private copy: other threads may change st meanwhile
        pb.game = st.game
        pb.start = start
        pb.fresh = fresh
        pb.observer = obs
        pb.policy = <const uint8_t *><const char *>pol
        pb.seed = seed
        call.batch = &pb
        call.play = _play_games
        return run_batch(call, 4 * call.threads, progress)

    def __call__(self, start, n, policy, seed, threads, observer, progress, chunk, first, result):
        """threes.rollouts' batch (its arguments, all given): `n` games from a Game (fresh deals) or
        a State, returned as `result` (threes.results.RolloutResult)."""
        return self._play(start, n, policy, seed, threads, observer, progress, chunk, first, result)

    cdef object _play(self, start, n, policy, seed, threads, observer, progress, chunk, first, result):
        cdef bint fresh = False
        cdef int np_, obs
        cdef batch_call call
        cdef double t0
        batch_call_of(&call, n, first, chunk, 200, threads)
        cdef GameStateBase st = self._start(start, &fresh)
        np_ = st.game.num_players(st._c())
        obs = observer_arg(observer, np_, not fresh)
        pol, names = policies_of(self._cache, self.policies, policy, np_)
        seed = seed_of(seed)
        rets = batch_out(&call, np_, cnp.NPY_FLOAT64)
        moves = batch_out(&call, 0, cnp.NPY_UINT32)
        truncated = batch_out(&call, 0, cnp.NPY_BOOL)
        t0 = monotonic_now()
        self._run(st, fresh, obs, pol, seed, &call, progress)
        seconds = monotonic_now() - t0
        # place = the seats with a higher return (equal returns share the better place)
        places = (rets[:, None, :] > rets[:, :, None]).sum(axis=2).astype("int8")
        stalemate = truncated & False
        return new_record(result, _BATCH_FIELDS, (places, rets, moves, truncated, stalemate, names, seed,
                                                  call.threads, seconds))

    def rollout(self, state, policy="random", seed=None, order=False):
        """One game to the end from `state` (unchanged): each seat's return; with ``order=True`` also
        the seats from the best place to the worst. threes.rollout's call for this game."""
        cdef double out[TH_MAX_PLAYERS]
        cdef uint32_t m
        cdef uint8_t t
        cdef int q, np_
        if not isinstance(state, GameStateBase):
            raise TypeError(f"rollout takes a State, not {type(state).__name__}")
        cdef GameStateBase st = <GameStateBase>state
        _of_a_game(st)
        np_ = st.game.num_players(st._c())
        cdef batch_call one
        one.count, one.first, one.step, one.threads, one.nout = 1, 0, 1, 1, 0  # one game on this thread
        batch_target(&one, out, 0)
        batch_target(&one, &m, 0)
        batch_target(&one, &t, 0)
        pol = (<tuple>policies_of(self._cache, self.policies, policy, np_))[0]
        self._run(st, False, -1, pol, seed_of(seed), &one, None)
        rets = [out[q] for q in range(np_)]
        if order:
            return rets, sorted(range(np_), key=lambda q: (-rets[q], q))
        return rets
