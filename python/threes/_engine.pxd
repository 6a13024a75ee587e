# The shared binding code every game's extension cimports (written once, here): its C functions
# reach the games' extensions through Cython's C-API table of threes._engine, with no Python
# call between them.

cdef tuple policies_of(dict cache, tuple names, object policy, int n)
cdef object rollout_of_any(object state, object policy, object seed, bint order)


from threes._common cimport th_game


cdef class GameStateBase:
    """The binding's state of any game, written once over the game's C interface (th_game): the
    history chain, the undo chain, clone and child, masks, tensors, the vector handle, events and
    ISMCTS. A game's StateBase derives from it, holds its C state by value and sets `game`."""
    cdef const th_game *game  # the game's C interface (a constant: a byte copy of the object keeps it)
    cdef object _history      # (previous, action) pairs, shared with clones (_common.pxd, hist_push)
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
