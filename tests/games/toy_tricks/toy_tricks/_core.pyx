# cython: language_level=3, autotestdict=False, auto_pickle=False
"""The binding of Toy Tricks (tests/games/toy_tricks/c): only what is the game's own. Everything a
state does over the game's C interface (history, clone, undo, masks, tensors, resampling, rollouts,
ISMCTS, the vector handle) is threes._engine.GameStateBase's, written once for every game."""
from libc.stdint cimport uint8_t, uint16_t, uint64_t
from cpython.object cimport PyTypeObject

from threes._common cimport th_game, th_error, th_rng, TH_OK
from threes._engine cimport GameStateBase, reuse_freed, raise_error, action_id, hist_push, hist_of


cdef extern from "toy_tricks.h" nogil:
    enum:
        TK_NUM_CARDS
        TK_MIN_PLAYERS
        TK_MAX_PLAYERS
        TK_MAX_HAND
        TK_MAX_TARGET
        TK_UNDEALT
        TK_IN_TRICK
        TK_PLAYED_BY
    ctypedef struct tk_state:
        th_rng rng
        uint8_t num_players
        uint8_t hand_size
        uint8_t low_wins
        uint8_t over
        uint8_t truncated
        uint8_t leader
        uint8_t current
        uint8_t trick_len
        uint8_t trick[4]
        uint8_t target
        uint8_t tricks[4]
        uint16_t total[4]
        uint16_t deal
        uint8_t owner[52]
        uint16_t move_count
        uint16_t max_moves
    int tk_new_game(tk_state *s, int num_players, int hand_size, int low_wins, int target, int max_moves,
                    uint64_t seed, th_error *e)
    int tk_check(const tk_state *s, th_error *e)
    int tk_apply_action(tk_state *s, int action, th_error *e)
    const th_game tk_game


NUM_CARDS = TK_NUM_CARDS
MIN_PLAYERS = TK_MIN_PLAYERS
MAX_PLAYERS = TK_MAX_PLAYERS
MAX_HAND = TK_MAX_HAND
MAX_TARGET = TK_MAX_TARGET


cdef class StateBase(GameStateBase):
    """The C state of a Toy Tricks game, held by value (toy_tricks.State)."""
    cdef tk_state s

    def __cinit__(self, *args):
        self.game = &tk_game
        self.s.over = 1

    cdef void *_c(self) noexcept:
        return &self.s

    cdef Py_ssize_t _plain_size(self) noexcept:
        return _STATE_SIZE

    cdef int _player(self, player) except -1:
        from threes._engine import int_arg
        return int_arg(player, "player", 0, self.s.num_players - 1)

    cdef int _apply(self, action) except -1:
        cdef th_error e
        cdef int a = action_id(action, TK_NUM_CARDS)
        if tk_apply_action(&self.s, a, &e) != TH_OK:
            raise_error(&e)
        self._history = hist_push(self._history, a)
        self._hlen += 1
        return 0

    @classmethod
    def _new(cls, int num_players, int hand_size, bint low_wins, int target, int max_moves, uint64_t seed):
        cdef th_error e
        cdef StateBase st = cls.__new__(cls)
        if tk_new_game(&st.s, num_players, hand_size, low_wins, target, max_moves, seed, &e) != TH_OK:
            raise_error(&e)
        st._history = None
        st._hlen = 0
        return st

    def _fields(self):
        """Every field (to_dict, the display): owner per card as -1 undealt, -2 in the trick,
        a seat, or 100 + seat for a card that seat played in an earlier trick."""
        cdef int c, q
        n = self.s.num_players
        owner = []
        for c in range(TK_NUM_CARDS):
            o = self.s.owner[c]
            owner.append(-1 if o == TK_UNDEALT else -2 if o == TK_IN_TRICK else
                         100 + o - TK_PLAYED_BY if o >= TK_PLAYED_BY else o)
        return {"num_players": n, "hand_size": self.s.hand_size, "low_wins": bool(self.s.low_wins),
                "over": bool(self.s.over), "truncated": bool(self.s.truncated), "leader": self.s.leader,
                "current": self.s.current, "trick": [self.s.trick[q] for q in range(self.s.trick_len)],
                "target": self.s.target, "tricks": [self.s.tricks[q] for q in range(n)],
                "total": [self.s.total[q] for q in range(n)], "deal": self.s.deal, "owner": owner,
                "rng": [self.s.rng.s[q] for q in range(4)],
                "move_count": self.s.move_count, "max_moves": self.s.max_moves}

    @classmethod
    def _from_fields(cls, dict f, list history):
        """A state from _fields' dict (values checked here for range, the whole by tk_check) and its history."""
        from threes._engine import int_arg
        cdef th_error e
        cdef StateBase st = cls.__new__(cls)
        cdef int c, q, n
        n = st.s.num_players = int_arg(f["num_players"], "num_players", TK_MIN_PLAYERS, TK_MAX_PLAYERS)
        st.s.hand_size = int_arg(f["hand_size"], "hand_size", 1, TK_MAX_HAND)
        for k in ("low_wins", "over", "truncated"):
            if not isinstance(f[k], bool):
                raise TypeError(f"{k} must be True or False, not {type(f[k]).__name__}")
        st.s.low_wins, st.s.over, st.s.truncated = f["low_wins"], f["over"], f["truncated"]
        st.s.leader = int_arg(f["leader"], "leader", 0, n - 1)
        st.s.current = int_arg(f["current"], "current", 0, n - 1)
        st.s.target = int_arg(f["target"], "target", 1, TK_MAX_TARGET)
        st.s.deal = int_arg(f["deal"], "deal", 0, 0xFFFF)
        trick, tricks, owner, total, rng = f["trick"], f["tricks"], f["owner"], f["total"], f["rng"]
        if not isinstance(total, list) or len(total) != n:
            raise ValueError(f"total must be a list of {n} counts")
        if not isinstance(rng, list) or len(rng) != 4:
            raise ValueError("rng must be a list of 4 words")
        for q in range(4):
            st.s.rng.s[q] = int_arg(rng[q], "an rng word", 0, 2**64 - 1)
        for q in range(n):
            st.s.total[q] = int_arg(total[q], "total", 0, 0xFFFF)
        if not isinstance(trick, list) or len(trick) >= n:
            raise ValueError(f"trick must be a list of fewer than {n} cards")
        if not isinstance(tricks, list) or len(tricks) != n:
            raise ValueError(f"tricks must be a list of {n} counts")
        if not isinstance(owner, list) or len(owner) != TK_NUM_CARDS:
            raise ValueError(f"owner must be a list of {TK_NUM_CARDS} entries")
        st.s.trick_len = len(trick)
        for q in range(len(trick)):
            st.s.trick[q] = int_arg(trick[q], "a trick card", 0, TK_NUM_CARDS - 1)
        for q in range(n):
            st.s.tricks[q] = int_arg(tricks[q], "tricks", 0, TK_MAX_HAND)
        for c in range(TK_NUM_CARDS):
            o = int_arg(owner[c], "an owner", -2, 100 + n - 1)
            if n <= o < 100:
                raise ValueError(f"owner {o} of card {c} is not -1, -2, a seat or 100 + a seat")
            st.s.owner[c] = TK_UNDEALT if o == -1 else TK_IN_TRICK if o == -2 else \
                TK_PLAYED_BY + o - 100 if o >= 100 else o
        st.s.move_count = int_arg(f["move_count"], "move_count", 0, 0xFFFF)
        st.s.max_moves = int_arg(f["max_moves"], "max_moves", 1, 0xFFFF)
        if tk_check(&st.s, &e) != TH_OK:
            raise_error(&e)
        if len(history) != st.s.move_count:
            raise ValueError(f"the history has {len(history)} actions, the move count is {st.s.move_count}")
        st._history = hist_of([int_arg(a, "an action of the history", 0, TK_NUM_CARDS - 1) for a in history])
        st._hlen = len(history)
        return st

    def move_number(self):
        """Actions applied since the deal."""
        return self.s.move_count

    def max_game_length(self):
        """The move cap: at it the game ends, truncated."""
        return self.s.max_moves


cdef Py_ssize_t _STATE_SIZE = (<PyTypeObject *>StateBase).tp_basicsize  # GameStateBase's byte-copy clone


def _reuse_freed(type cls):
    return reuse_freed(cls, _STATE_SIZE)
