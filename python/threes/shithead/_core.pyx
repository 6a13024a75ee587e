# cython: language_level=3, autotestdict=False, auto_pickle=False
"""Thin Cython bindings of the Shithead C engine (src/threes_core/shithead/).

This module only converts between Python values and the C engine's structs:
the rules of the game live in C (src/threes_core/), the pleasant API in the
Python package (threes/*.py). Everything that enters from Python is checked by
the C entry points, and their errors are raised as Python exceptions.
"""
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from cpython.object cimport PyObject, PyTypeObject, Py_TYPE


from threes._engine import IllegalActionError
from threes._engine import int_arg as _checked_int
from numpy import integer as _np_integer
cimport cython
from threes._common cimport *
from threes._engine cimport *
cimport numpy as cnp
cnp.import_array()

cdef enum:
    _OBS_LIST_MAX = 1024  # floats: the observation at SH_MAX_PLAYERS seats is 462

NUM_RANKS = SH_NUM_RANKS
NUM_KINDS = SH_NUM_KINDS
MAX_DECKS = SH_MAX_DECKS
MAX_CARDS_PER_ZONE = SH_MAX_CPZ
MIN_PLAYERS = SH_MIN_PLAYERS
MAX_PLAYERS = SH_MAX_PLAYERS
MAX_RUN_TO_BURN = SH_MAX_RUN_TO_BURN
TERMINAL_PLAYER_ID = TH_TERMINAL_PLAYER
DEFAULT_MAX_MOVES = SH_DEFAULT_MAX_MOVES
MAX_MAX_MOVES = SH_MAX_MAX_MOVES
NUM_PRESETS = SH_NUM_PRESETS
NUM_POLICIES = SH_NUM_POLICIES
MAX_THREADS = TH_MAX_THREADS
STATE_SIZE_BYTES = sizeof(sh_state)

ZONE_HAND = SH_ZONE_HAND
ZONE_HAND_KNOWN = SH_ZONE_HAND_KNOWN
ZONE_FACE_UP = SH_ZONE_FACE_UP
ZONE_FACE_DOWN = SH_ZONE_FACE_DOWN
ZONE_DRAW = SH_ZONE_DRAW
ZONE_PILE = SH_ZONE_PILE
ZONE_BURNED = SH_ZONE_BURNED

def kind_text(kind):
    """Two-character text of card kind `kind` (0..53), as the C engine writes it."""
    cdef char buf[3]
    sh_kind_text(_checked_int(kind, "card kind", 0, SH_NUM_KINDS - 1), buf)
    return buf[:2].decode("ascii")


def rng_outputs(seed, n):
    """The first n outputs (0..2**20) of the engine's PRNG (xoshiro256** seeded by
    splitmix64) for a seed (0..2**64-1); for checking it against the published algorithm."""
    cdef th_rng r
    th_rng_seed(&r, <uint64_t>_checked_int(seed, "seed", 0, 2**64 - 1))
    n = _checked_int(n, "n", 0, 2**20)
    return [th_rng_next(&r) for _ in range(n)]


# The rules cross between Python and C as a dict with one key per field of
# sh_rules (rules.h, declared again in _core.pxd), converted by Cython's
# struct <-> dict coercion, so no field is named here. The two arrays travel
# as tuples of their used length (num_start_ranks, num_start_suits). sh_rules
# has no padding bytes, so equal rules are equal bytes in a state.

cdef dict _rules_to_dict(const sh_rules *r):
    cdef dict d = r[0]
    # the arrays by hand: Cython reads a uint8_t array as a NUL-terminated string
    del d["num_start_ranks"], d["num_start_suits"]
    d["start_ranks"] = tuple(r.start_ranks[i] for i in range(r.num_start_ranks))
    d["start_suits"] = tuple(r.start_suits[i] for i in range(r.num_start_suits))
    return d


cdef tuple _rule_fields():
    cdef sh_rules zero
    memset(&zero, 0, sizeof(sh_rules))
    return tuple(_rules_to_dict(&zero))


#: The names of the rule parameters, in the order of the C struct sh_rules.
RULE_FIELDS = _rule_fields()


cdef int _rules_from_dict(dict d, sh_rules *r) except -1:
    cdef Py_ssize_t max_ranks = sizeof(r.start_ranks), max_suits = sizeof(r.start_suits)  # uint8_t arrays
    for name in RULE_FIELDS:
        if name not in d:
            raise ValueError(f"rule {name!r} is missing")
    ranks = tuple(d["start_ranks"])
    suits = tuple(d["start_suits"])
    if len(ranks) > max_ranks or len(suits) > max_suits:
        raise ValueError("too many start ranks or start suits")
    full = dict(d)
    full["num_start_ranks"] = len(ranks)
    full["num_start_suits"] = len(suits)
    full["start_ranks"] = ranks + (0,) * (max_ranks - len(ranks))
    full["start_suits"] = suits + (0,) * (max_suits - len(suits))
    try:
        r[0] = full
    except OverflowError as exc:
        raise ValueError(f"a rule value is out of range: {exc}") from None
    # r's padding byte may hold anything (Cython copies the struct from a temporary): State == and its
    # fingerprint never read it (sh_state_canonical zeroes it).
    return 0


def rules_preset(preset):
    """The raw fields of C preset number `preset` (0 threes, 1 classic, 2 dutch)."""
    cdef sh_rules r
    if sh_rules_preset(_checked_int(preset, "preset number", 0, SH_NUM_PRESETS - 1), &r) != 0:
        raise ValueError(f"unknown preset number {preset}")
    return _rules_to_dict(&r)


def rules_validate(dict raw, num_players=0):
    """Raises ValueError with the C engine's message if the rules (and, when
    num_players > 0, the player count) are not valid."""
    cdef sh_rules r
    cdef th_error e
    _rules_from_dict(raw, &r)
    if not 0 <= num_players <= 255:
        raise ValueError(f"num_players must be between {SH_MIN_PLAYERS} and {SH_MAX_PLAYERS}, not {num_players}")
    if sh_rules_validate(&r, num_players, &e) != TH_OK:
        raise_error(&e)


def rules_max_players(dict raw):
    cdef sh_rules r
    _rules_from_dict(raw, &r)
    return sh_rules_max_players(&r)


def num_distinct_actions(dict raw):
    cdef sh_rules r
    _rules_from_dict(raw, &r)
    return sh_num_distinct_actions(&r)


def decode_action(dict raw, action):
    """(kind, source, rank, count, slot, face_up) of an id, without a state."""
    cdef sh_rules r
    cdef sh_move m
    _rules_from_dict(raw, &r)
    if not -1 <= action <= 2**20 or sh_decode_action(&r, action, &m) != TH_OK:
        raise IllegalActionError(f"action {action} is out of range: ids are 0..{sh_num_distinct_actions(&r) - 1}")
    return _move_tuple(&m)


def encode_move(dict raw, kind, rank, count, slot, face_up):
    """The id of a move, or -1 when it does not fit the rules."""
    cdef sh_rules r
    cdef sh_move m
    _rules_from_dict(raw, &r)
    memset(&m, 0, sizeof(sh_move))
    if not (0 <= kind <= 3 and 0 <= rank < 256 and 0 <= count < 256 and 0 <= slot < 256):
        return -1
    m.kind = kind
    m.rank = rank
    m.count = count
    m.slot = slot
    if kind == 3:
        face_up = tuple(face_up)
        if len(face_up) != r.cards_per_zone:
            return -1
        for i, x in enumerate(face_up):
            if not 0 <= x < SH_NUM_RANKS:
                return -1
            m.face_up[i] = x
    return sh_encode_move(&r, &m)


cdef tuple _move_tuple(sh_move *m):
    face_up = tuple(m.face_up[i] for i in range(m.count)) if m.kind == 3 else ()
    return (m.kind, m.source, m.rank, m.count, m.slot, face_up)


cdef extern from "Python.h":
    Py_ssize_t _refcount "Py_REFCNT"(object o)


cdef class RepLog:
    """The keys of a stretch that left a State's ring (rep_log.h), owned
    by this object; States share it copy-on-write (StateBase._own_log)."""

    def __dealloc__(self):
        sh_rep_log_free(&self.l)


cdef class StateBase:
    """The C state, held by value. Use threes.State; build one with
    threes.Game.new_initial_state() or threes.State.from_dict()."""

    def __cinit__(self, *args, **kwargs):
        # A state made without _deal/_setup (StateBase.__new__) is an empty,
        # finished game with valid rules: every method raises or returns
        # nothing rather than reading garbage (a clone is a byte copy, or
        # GameStateBase._clone's general path, which overwrites all of it).
        # _history (a chain of (previous, action) pairs, threes._engine hist_push) is None
        # until an action is applied; a clone shares its source's chain.
        cdef int q
        self.game = &sh_game
        self._hlen = 0
        sh_rules_preset(0, &self.s.rules)
        for q in range(SH_MAX_PLAYERS):
            memset(self.s.seat[q].down, SH_NO_CARD, sizeof(self.s.seat[q].down))
        self.s.eff_top = SH_OPEN
        self.s.run_rank = SH_NO_RANK
        self.s.phase = SH_PHASE_OVER
        self.s.current = 0xFF

    def __init__(self, *args, **kwargs):
        raise TypeError("a State is made by Game.new_initial_state(), State.from_dict() or clone()")

    # ------------------------------------- what threes._engine.GameStateBase asks --
    cdef void *_c(self) noexcept:
        return &self.s

    cdef Py_ssize_t _plain_size(self) noexcept:
        return _STATE_SIZE


    # ---------------------------------------------------------- creation --
    @classmethod
    def _deal(cls, dict raw_rules, int num_players, int dealer, uint32_t max_moves, uint64_t seed):
        cdef sh_rules r
        cdef th_error e
        cdef StateBase st = cls.__new__(cls)
        _rules_from_dict(raw_rules, &r)
        if sh_state_deal(&st.s, &r, num_players, dealer, max_moves, seed, &e) != TH_OK:
            raise_error(&e)
        return st

    @classmethod
    def _setup(cls, dict raw_rules, int num_players, int dealer, uint32_t max_moves, list cards,
               int phase, int current, uint32_t move_count, bint truncated, finish, history,
               bint stalemate=False, repetitions=()):
        """cards: (zone, seat, kind, slot) tuples; pile and draw pile bottom first.
        repetitions: the remembered repetition keys, oldest first (repetition_limit)."""
        cdef sh_rules r
        cdef th_error e
        cdef uint8_t fin[12]
        cdef uint64_t keys[SH_REP_WINDOW]
        cdef RepLog log
        cdef StateBase st = cls.__new__(cls)
        _rules_from_dict(raw_rules, &r)
        if sh_setup_begin(&st.s, &r, num_players, dealer, max_moves, &e) != TH_OK:
            raise_error(&e)
        for zone, seat, kind, slot in cards:
            if sh_setup_add(&st.s, zone, seat, kind, slot, &e) != TH_OK:
                raise_error(&e)
        finish = list(finish)
        if len(finish) > num_players:
            raise ValueError(f"the finishing order lists {len(finish)} seats in a {num_players}-player game")
        for i, q in enumerate(finish):
            if not 0 <= q < num_players:
                raise ValueError(f"the finishing order names seat {q}, not in 0..{num_players - 1}")
            fin[i] = q
        repetitions = list(repetitions)
        for k in repetitions:
            if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < 2**64:
                raise ValueError(f"a remembered position is a 64-bit position key, not {k!r}")
        if repetitions and r.repetition_limit and not stalemate:
            counts = {}
            for k in repetitions:
                counts[k] = counts.get(k, 0) + 1
            if max(counts.values()) >= r.repetition_limit:
                raise ValueError(f"a remembered position occurs {max(counts.values())} times: with repetition_limit "
                                 f"{r.repetition_limit} the game would have ended as a stalemate")
        # the newest SH_REP_WINDOW in the state's ring, the older ones in its log (rep_log.h)
        older = len(repetitions) - SH_REP_WINDOW if len(repetitions) > SH_REP_WINDOW else 0
        if older and not r.repetition_limit:
            raise ValueError("remembered positions need repetition_limit > 0")
        if older:
            log = RepLog()
            st._own = log
            if sh_rep_log_reserve(&log.l, older):
                raise MemoryError()
            for i in range(older):
                sh_rep_log_push(&log.l, repetitions[i])
        for i in range(len(repetitions) - older):
            keys[i] = repetitions[older + i]
        if sh_setup_repetitions(&st.s, stalemate, keys, len(repetitions) - older, &e) != TH_OK:
            raise_error(&e)
        if sh_setup_finish(&st.s, phase, current, move_count, truncated, fin, len(finish), &e) != TH_OK:
            raise_error(&e)
        history = list(history)
        st._history = hist_of(history)
        st._hlen = len(history)
        return st

    # ------------------------------------------------------------ queries --
    def num_players(self):
        """The number of seats, 0 .. num_players-1."""
        return self.s.num_players

    def num_distinct_actions(self):
        """The number of action ids of this state's rules: every id is in 0 .. num_distinct_actions()-1."""
        return sh_num_distinct_actions(&self.s.rules)

    def max_game_length(self):
        """The move cap (every action counts, swap decisions included): a game that reaches it ends truncated."""
        return self.s.max_moves

    def move_number(self):
        """Actions applied since the deal, swap decisions included."""
        return self.s.move_count

    def current_player(self):
        """The seat to move, or TERMINAL_PLAYER_ID (-4) when the game is over."""
        if self.s.phase == SH_PHASE_OVER:
            return TH_TERMINAL_PLAYER
        return self.s.current

    def is_terminal(self):
        """True when the game is over: finished normally, truncated at the move cap or a stalemate."""
        return self.s.phase == SH_PHASE_OVER

    def is_truncated(self):
        """True when the game ended without a normal finish: at the move cap,
        or as a stalemate by repetition (is_stalemate tells which)."""
        return self.s.truncated != 0

    def is_stalemate(self):
        """True when the game ended by repetition (rules repetition_limit,
        RULES.md section 7); such a game is also truncated, and scored so."""
        return self.s.stalemate != 0

    def position_key(self):
        """A 64-bit key of the position (RULES.md section 7): the phase, the
        seat to move, who is out, each seat's hand and face-up ranks, its
        face-down slots' ranks, and the pile and draw pile as sequences of
        ranks; not suits, knowledge, move count or history. Equal positions
        have equal keys on every platform, so it serves as a transposition
        table key (different positions collide with probability ~2**-64)."""
        return sh_position_key(&self.s)

    def _repetition_key(self):
        """The key the repetition ring holds for this position (state.h,
        sh_repetition_key): the seat to move, the hands and the pile only, so
        equal to another's only within one stretch between irreversible moves."""
        return sh_repetition_key(&self.s)

    def _repetitions(self):
        """The remembered repetition keys of this stretch, oldest first
        (repetition_limit): the log's (rep_log.h), then the ring's."""
        cdef uint64_t keys[SH_REP_WINDOW]
        cdef int n = sh_remembered_positions(&self.s, keys)
        cdef RepLog log = self._own
        older = [] if log is None else [log.l.keys[i] for i in range(log.l.len)]
        return older + [keys[i] for i in range(n)]

    def is_chance_node(self):
        """Always False: the engine deals from the seed, so no state is a chance node."""
        return False

    def is_simultaneous_node(self):
        """Always False: one seat moves at a time, swap decisions included."""
        return False

    def legal_actions(self, player=None):
        """Legal action ids, sorted ascending; empty when the game is over. With OpenSpiel's ``player``
        (an int: numpy ints too, never a bool), empty unless it is the seat to move."""
        cdef uint16_t buf[SH_MAX_DISTINCT_ACTIONS]
        cdef int n, i
        if player is not None:
            if type(player) is not int and (isinstance(player, bool) or not isinstance(player, (int, _np_integer))):
                raise TypeError(f"player must be an int or None, not {type(player).__name__}")
            if player != self.current_player():
                return []
        n = sh_legal_actions(&self.s, buf)
        return ids_list(buf, n, _ACTION_INTS)

    cdef RepLog _own_log(self):
        """This state's log of older repetition keys, its own to change: made
        when there is none, copied when a clone shares it (copy on write)."""
        cdef RepLog log = self._own
        if log is None:
            self._own = log = RepLog()
        elif _refcount(log) > 2:  # self's field and this variable hold it; more: shared
            copy = RepLog()
            if sh_rep_log_copy(&copy.l, &log.l):
                raise MemoryError()
            self._own = log = copy
        return log

    cdef int _apply(self, action) except -1:
        cdef th_error e
        cdef int a = action_id(action, sh_num_distinct_actions(&self.s.rules))
        cdef int rc
        cdef RepLog log
        if self.s.rules.repetition_limit and self.s.rep_len == SH_REP_WINDOW:  # the rule first: the tail is part of the state only with it (state.h)
            # the ring is full: the key leaving it goes into this state's log
            # (rep_log.h), room made first so that a failure changes nothing
            log = self._own_log()
            if sh_rep_log_reserve(&log.l, log.l.len + 1):
                raise MemoryError()
            self.s.rep_log = &log.l
            rc = sh_apply_action(&self.s, a, &e)
            self.s.rep_log = NULL
        else:
            rc = sh_apply_action(&self.s, a, &e)
        if rc != TH_OK:
            raise_error(&e)
        self._history = hist_push(self._history, action if type(action) is int else a)
        self._hlen += 1
        return 0

    def _observation_list(self, player):
        """observation_tensor(player).tolist() without the array: OpenSpiel's
        observation_tensor() answers a list of floats."""
        cdef float buf[_OBS_LIST_MAX]
        cdef th_error e
        cdef int q = self._player(player)
        if sh_obs_size(self.s.num_players) > _OBS_LIST_MAX:
            raise RuntimeError("the observation does not fit its buffer")  # never: 462 floats at 12 seats
        if sh_observation_tensor(&self.s, q, buf, &e) != TH_OK:
            raise_error(&e)
        return float_list(buf, sh_obs_size(self.s.num_players), _SMALL_FLOATS)

    def resample_from_infostate(self, player, seed=None):
        """A state ``player`` cannot tell from this one: every card it cannot
        see (other hands' unknown cards, all face-down cards, the draw pile)
        dealt again uniformly at random; all it can see stays, known cards
        included; at the start of play, the deal keeps who starts (RULES.md 5).
        Done in C (sh_resample). This state is unchanged."""
        cdef th_rng rng
        cdef th_error e
        cdef int q = self._player(player)
        seed = seed_of(seed)
        cdef StateBase out = <StateBase>self._clone()
        th_rng_seed(&rng, <uint64_t>seed)
        if sh_resample(&out.s, q, &rng, &e) != TH_OK:
            raise_error(&e)
        out._own = None  # the sample remembers no position (the true ones would tell the hidden cards)
        out._undo = None    # nor the true states before it (undo() would bring them back)
        return out

    cdef int _player(self, player) except -1:
        """A seat argument: an int (numpy ints too, never a bool) in
        0..num_players-1, checked before any C call; a set-up state."""
        cdef int n = self.s.num_players
        if type(player) is int:
            if 0 <= player < n:
                return player
        elif isinstance(player, bool) or not isinstance(player, (int, _np_integer)):
            raise TypeError(f"player must be an int, not {type(player).__name__}")
        self._require_setup()
        q = int(player)
        if not 0 <= q < n:
            raise ValueError(f"player must be a seat in 0..{n - 1}, not {q}")
        return q

    def returns(self):
        """One value per seat: (N-1-2k)/(N-1) for place k; all 0 before the end."""
        cdef double out[12]
        sh_returns(&self.s, out)
        return [out[i] for i in range(self.s.num_players)]

    def finish_order(self):
        """Seats in the order they went out; when the game is over normally the
        shithead is last. A truncated game lists only the players out."""
        return [self.s.finish[i] for i in range(self.s.num_out)]

    def _phase_id(self):
        return self.s.phase

    def _dealer(self):
        return self.s.dealer

    def _raw_rules(self):
        return _rules_to_dict(&self.s.rules)

    def _decode(self, action):
        cdef sh_move m
        a = as_int(action)
        if a < 0 or a >= sh_num_distinct_actions(&self.s.rules):
            raise IllegalActionError(f"action {a} is out of range: ids are 0..{sh_num_distinct_actions(&self.s.rules) - 1}")
        sh_state_decode_action(&self.s, a, &m)
        return _move_tuple(&m)

    def _playable(self, int rank):
        return sh_playable(&self.s, rank) != 0

    def _effective_top(self):
        """Rank index of the pile's effective top, or None when the pile is open."""
        return None if self.s.eff_top == SH_OPEN else self.s.eff_top

    def _run(self):
        """(rank index or None, length) of the run at the top of the pile."""
        return (None if self.s.run_rank == SH_NO_RANK else self.s.run_rank, self.s.run_len)

    def _rollout_both(self, policies, uint64_t seed, bint check=True):
        """Plays game 0 of a batch seeded `seed` from this state twice: with
        the fast counts-only rollout and on the full state (checking every
        invariant after every move when `check`). Returns ((finish, moves,
        truncated) fast, (finish, moves, truncated) full, final full State)."""
        cdef sh_state a = self.s
        cdef sh_state b = self.s
        cdef th_rng ra, rb
        cdef uint8_t pol[12]
        cdef uint32_t ma, mb
        policies = list(policies)
        if len(policies) != self.s.num_players:
            raise ValueError("one policy per seat")
        for q, p in enumerate(policies):
            if not 0 <= p < SH_NUM_POLICIES:
                raise ValueError(f"policy {p} does not exist")
            pol[q] = p
        th_batch_rng(seed, 0, &ra)
        th_batch_rng(seed, 0, &rb)
        with nogil:
            ma = sh_rollout(&a, pol, &ra)
            mb = sh_rollout_full(&b, pol, &rb, check)
        if mb == 0xFFFFFFFF:
            raise AssertionError("an invariant failed during the full rollout")
        cdef StateBase out = type(self).__new__(type(self))
        out.s = b
        fa = [a.finish[i] for i in range(a.num_out)]
        fb = [b.finish[i] for i in range(b.num_out)]
        return (fa, ma, bool(a.truncated)), (fb, mb, bool(b.truncated)), out

    def _trace(self, policies, uint64_t seed, uint64_t game=0):
        """For tests: plays game `game` of a batch seeded `seed` from this
        state (its rng th_batch_rng(seed, game), as sh_rollouts does), move by
        move on the full state with repetition_limit switched off, and returns
        after every move (position_key, phase, burned, out, draw, face-up
        counts, face-down counts): what a reference needs to count repetitions."""
        cdef sh_state c = self.s
        cdef th_rng rng
        cdef uint8_t pol[12]
        cdef int q, n = self.s.num_players
        policies = list(policies)
        if len(policies) != n:
            raise ValueError("one policy per seat")
        for q, p in enumerate(policies):
            if not 0 <= p < SH_NUM_POLICIES:
                raise ValueError(f"policy {p} does not exist")
            pol[q] = p
        c.rules.repetition_limit = 0
        c.rep_len = 0
        c.rep_head = 0
        c.stalemate = 0
        th_batch_rng(seed, game, &rng)
        out = []
        while c.phase != SH_PHASE_OVER:
            sh_policy_step(&c, pol[c.current], &rng)
            out.append((sh_position_key(&c), c.phase, c.burned_len, c.num_out, c.draw_len,
                        tuple([c.seat[q].up_len for q in range(n)]), tuple([c.seat[q].down_len for q in range(n)])))
        return out

    def _fast_lockstep(self, uint64_t seed, bint kernel=False):
        """For tests: plays random moves from this state on two copies, one
        with the full-state moves and one on the counts only, and checks
        after every move that the incremental pile hash equals its value
        from scratch (full copy) and that both copies agree on it, on the
        repetition key, the remembered keys, the phase, the seat to move and
        the stalemate flag. Without `kernel`: uniformly random legal actions
        (th_rng seeded `seed`), the play phase's on the sh_fast_* steps. With
        `kernel`: the random policy on the full copy (sh_policy_step) against
        the rollouts' random playout loop one move at a time
        (sh_fast_random_playout_until), each with an rng seeded `seed`.
        Returns the number of moves; raises AssertionError at the first
        difference."""
        cdef sh_state a = self.s
        cdef sh_state b = self.s
        cdef th_rng rng, rng_b
        cdef uint16_t buf[SH_MAX_DISTINCT_ACTIONS]
        cdef uint64_t ka[SH_REP_WINDOW]
        cdef uint64_t kb[SH_REP_WINDOW]
        cdef sh_move m
        cdef int n, act, moves = 0, na, nb, i
        th_rng_seed(&rng, seed)
        th_rng_seed(&rng_b, seed)
        while a.phase != SH_PHASE_OVER:
            if kernel:
                sh_policy_step(&a, SH_POLICY_RANDOM, &rng)
                if b.phase == SH_PHASE_SWAP:
                    sh_policy_step(&b, SH_POLICY_RANDOM, &rng_b)
                else:
                    sh_fast_random_playout_until(&b, &rng_b, b.move_count + 1)
                if a.move_count != b.move_count:
                    raise AssertionError(f"move {moves + 1}: the playout loop did not play exactly one move")
            else:
                n = sh_legal_actions(&a, buf)
                act = buf[th_rng_below(&rng, n)]
                if a.phase == SH_PHASE_SWAP:
                    sh_apply_legal(&a, act)
                    sh_apply_legal(&b, act)
                else:
                    sh_state_decode_action(&a, act, &m)
                    sh_apply_legal(&a, act)
                    if m.kind == SH_MOVE_PLAY:
                        sh_fast_play(&b, m.rank, m.count)
                    elif m.kind == SH_MOVE_BLIND:
                        sh_fast_blind(&b, m.slot)
                    else:
                        sh_fast_pickup(&b)
            moves += 1
            if a.pile_hash != sh_pile_hash(&a):
                raise AssertionError(f"move {moves}: the full state's pile hash is not its value from scratch")
            if b.pile_hash != a.pile_hash or sh_repetition_key(&b) != sh_repetition_key(&a):
                raise AssertionError(f"move {moves}: the counts-only moves lost the pile hash or repetition key")
            na = sh_remembered_positions(&a, ka)
            nb = sh_remembered_positions(&b, kb)
            if na != nb or any([ka[i] != kb[i] for i in range(na)]):
                raise AssertionError(f"move {moves}: the remembered keys differ")
            if a.phase != b.phase or a.current != b.current or a.stalemate != b.stalemate:
                raise AssertionError(f"move {moves}: the games differ")
        return moves

    def _copy_bench(self, uint64_t n):
        """Copies the C state n times in C (a benchmark helper); returns a checksum."""
        cdef sh_state scratch[2]
        cdef uint64_t r
        with nogil:
            r = sh_state_copy_bench(&self.s, scratch, n)
        return r

    def _position_key(self):
        """Bytes that are equal exactly when two positions are (history aside)."""
        cdef sh_state c
        sh_state_canonical(&self.s, &c)
        return (<char *>&c)[:sizeof(sh_state)]

    def _snapshot(self):
        """Every zone as card kinds in one pass: (hands, known, face_up,
        face_down, pile, draw, burned); hands include the known cards."""
        cdef int n = self.s.num_players, kind, c, l, q, k, i
        self._require_setup()
        hands = [[] for _ in range(n)]
        known = [[] for _ in range(n)]
        up = [[] for _ in range(n)]
        burned = []
        for kind in range(SH_NUM_KINDS):
            for c in range(self.s.rules.decks):
                l = SH_LOC(&self.s)[c * 64 + kind]
                if l == SH_LOC_ABSENT:
                    continue
                q = l & 0x0F
                if (l & 0x70) == SH_LOC_HAND:
                    hands[q].append(kind)
                    if l & SH_LOC_KNOWN:
                        known[q].append(kind)
                elif (l & 0x70) == SH_LOC_FACE_UP:
                    up[q].append(kind)
                elif l == SH_LOC_BURNED:
                    burned.append(kind)
        down = [[None if self.s.seat[q].down[k] == SH_NO_CARD else sh_card_kind(self.s.seat[q].down[k])
                 for k in range(self.s.rules.cards_per_zone)] for q in range(n)]
        pile = [sh_card_kind(SH_PILE(&self.s)[i]) for i in range(self.s.pile_len)]
        draw = [sh_card_kind(sh_draw_at(&self.s, i)) for i in range(self.s.draw_len)]
        return hands, known, up, down, pile, draw, burned

    def _card_ids(self):
        """Where every physical card is, by id (copy * 64 + kind), to follow
        cards through moves: (loc, face_down, draw). loc[id] is the zone code
        of state.h (0xFF: not in this deck), face_down[q][k] the id in each
        slot (None when empty), draw the draw pile's ids, bottom first."""
        cdef int n = self.s.num_players, q, k, i
        self._require_setup()
        loc = [sh_loc_at(&self.s, i) for i in range(SH_CARD_ID_SPACE)]
        down = [[None if self.s.seat[q].down[k] == SH_NO_CARD else self.s.seat[q].down[k]
                 for k in range(self.s.rules.cards_per_zone)] for q in range(n)]
        draw = [sh_draw_at(&self.s, i) for i in range(self.s.draw_len)]
        return loc, down, draw

    # ------------------------------------------------------------- zones --
    cdef int _require_setup(self) except -1:
        if self.s.num_players == 0:
            raise ValueError("this State was never set up (made by __new__ or a hand-built pickle): "
                             "use Game.new_initial_state(), State.from_dict() or clone()")
        return 0

    cdef list _kinds_at(self, int code):
        cdef int kind, c
        out = []
        for kind in range(SH_NUM_KINDS):
            for c in range(self.s.rules.decks):
                if SH_LOC(&self.s)[c * 64 + kind] == code:
                    out.append(kind)
        return out

    cdef int _seat(self, seat) except -1:
        self._require_setup()
        q = as_int(seat)
        if not 0 <= q < self.s.num_players:
            raise ValueError(f"seat must be in 0..{self.s.num_players - 1}, not {q}")
        return q

    def _hand(self, seat):
        cdef int q = self._seat(seat)
        known = self._kinds_at(SH_LOC_HAND | SH_LOC_KNOWN | q)
        return sorted(self._kinds_at(SH_LOC_HAND | q) + known)

    def _known(self, seat):
        return self._kinds_at(SH_LOC_HAND | SH_LOC_KNOWN | self._seat(seat))

    def _face_up(self, seat):
        return self._kinds_at(SH_LOC_FACE_UP | self._seat(seat))

    def _face_down(self, seat):
        cdef int q = self._seat(seat)
        return [None if self.s.seat[q].down[k] == SH_NO_CARD else sh_card_kind(self.s.seat[q].down[k])
                for k in range(self.s.rules.cards_per_zone)]

    def _pile(self):
        return [sh_card_kind(SH_PILE(&self.s)[i]) for i in range(self.s.pile_len)]

    def _draw(self):
        return [sh_card_kind(sh_draw_at(&self.s, i)) for i in range(self.s.draw_len)]

    def _burned(self):
        return self._kinds_at(SH_LOC_BURNED)

    def _sizes(self, seat):
        """(hand, face-up, face-down) card counts of a seat."""
        cdef int q = self._seat(seat)
        return (self.s.seat[q].hand_len, self.s.seat[q].up_len, self.s.seat[q].down_len)

    def draw_pile_size(self):
        """The number of cards left in the draw pile."""
        return self.s.draw_len


def batch_seed(seed, i):
    """The seed of game i (0..2**64-1) of a rollout batch seeded with `seed` (0..2**64-1)."""
    if type(seed) is not int or not 0 <= seed <= 0xFFFFFFFFFFFFFFFF:
        seed = _checked_int(seed, "seed", 0, 2**64 - 1)
    if type(i) is not int or not 0 <= i <= 0xFFFFFFFFFFFFFFFF:
        i = _checked_int(i, "i", 0, 2**64 - 1)
    return th_batch_seed(<uint64_t>seed, <uint64_t>i)


# run_batch's play function: a part of a batch into (places, moves, truncated, stalemate)
cdef int _sh_play(void *batch, const batch_part *p, int threads, th_error *e) noexcept nogil:
    cdef sh_batch *b = <sh_batch *>batch
    b.first, b.n, b.stop, b.places, b.moves, b.truncated, b.stalemate = (
        p.first, p.n, p.stop, <int8_t *>p.out[0], <uint32_t *>p.out[1], <uint8_t *>p.out[2], <uint8_t *>p.out[3])
    return sh_rollouts(b, threads, e)


cdef object _prepare(sh_batch *b, sh_state *start, object source, int num_players, const unsigned char *pol,
                     uint64_t seed, int dealer, uint32_t max_moves, int observer):
    """Fills b for a batch from `source` (a StateBase: every game from a
    private copy of it in `start`; a raw rules dict: fresh deals), the
    policies `pol` (num_players checked ids) and `observer` (-1: none).
    Returns the state's log of older repetition keys (or None), which the
    caller holds while the batch runs: a move on the state meanwhile copies
    its log first."""
    cdef StateBase st
    cdef RepLog start_log = None
    cdef int q
    memset(b, 0, sizeof(sh_batch))
    if isinstance(source, StateBase):
        st = source
        st._require_setup()
        if st.s.num_players != num_players:
            raise ValueError("num_players does not match the state")
        memcpy(start, &st.s, sh_state_bytes(&st.s))  # (an assignment copies twice, through a temporary)
        b.start = start
        b.start_valid = 1  # built only by checked setup and legal moves
        if st._own is not None and (<RepLog>st._own).l.len:
            start_log = st._own
            b.start_log = &start_log.l
    else:
        _rules_from_dict(source, &b.rules)
        b.num_players = num_players
        b.dealer = dealer
        b.max_moves = max_moves
    for q in range(num_players):
        b.policies[q] = pol[q]
    if observer >= 0:
        b.determinize = 1
        b.observer = observer
    b.seed = seed
    return start_log


cdef int _play_alone(sh_batch *b, RepLog start_log, sh_state *end, uint32_t *moves) except -1:
    """Game 0 of batch `b` (whose start is a state) played alone on the
    calling thread with the GIL released (sh_batch_play_game: no thread, no
    array), into `end`; Ctrl-C and this thread's cancel flag polled every
    STOP_POLL_SECONDS of one long game. rollout()'s and rollouts(state, 1)'s
    game."""
    cdef th_stop hook
    cdef py_stop poll
    cdef list box = []
    cdef sh_rep_log log
    cdef int rc
    cdef const th_stop *stop = watch(&hook, &poll, box)
    # the game's log of older repetition keys (rep_log.h; unused with the
    # rule off), starting with the state's, which start_log holds
    memset(&log, 0, sizeof(sh_rep_log))
    if start_log is not None:
        b.start_log = &start_log.l
    b.n = 1
    with nogil:
        rc = sh_batch_play_game(b, 0, stop, end, moves, &log)
    if log.keys != NULL:  # it allocated (a stretch outgrew the ring)
        sh_rep_log_free(&log)
    if rc == 2 and not box:
        raise MemoryError("out of memory for the remembered positions of the game (repetition_limit)")
    if box:
        raise box[0]
    return 0


#: The rollout policies' names, in the C engine's order (rollout.h: sh_policy).
POLICIES = ("random", "greedy", "heuristic")
assert len(POLICIES) == SH_NUM_POLICIES
cdef dict _POLICIES_OF = {}  # policy name -> (ids as bytes, names) by seat count: threes._engine.policies_of's cache
# (threes.results.RolloutResult: its totals and _returns are None by default, the class's own attributes)
cdef tuple _RESULT_FIELDS = ("places", "moves", "truncated", "policies", "seed", "threads", "seconds", "stalemate")


cdef inline tuple _policies(object policy, int n):
    return policies_of(_POLICIES_OF, POLICIES, policy, n)


cdef object _play_batch(game_or_state, n, policy, seed, threads, observer, progress, chunk, first, result):
    """The batch of threes.rollouts for a Shithead Game or State (the
    arguments as there, all given; the backend chosen above, in Python),
    returned as a `result` (threes.results.RolloutResult). Plays `n` games in
    C, with the GIL released, on `threads` native threads (None: every core).
    From a Game (its ``rules``, ``num_players()``, ``dealer`` and
    ``max_game_length()`` are read): fresh deals; from a State: every game from
    that position (the state is not changed). Game i uses its own seed
    derived from (seed, i), so the result does not depend on `threads`.

    With ``observer=p`` (from a State only), every game first deals the cards
    seat p cannot see again at random (``resample_from_infostate``, in C), so
    the result is an estimate from p's point of view that never uses hidden
    cards. With ``progress``, the games are played in chunks of ``chunk``
    (None: 20,000) and ``progress(games_done)`` is called after each; the
    games are the same as in one call. ``first``: play games first .. first
    + n - 1 of the batch (game i still from (seed, i)).

    A search may call it in its inner loop, so the arguments are checked here
    in the binding (names resolved once), and a batch of one game from a
    State plays its game alone on the calling thread as ``rollout()`` does."""
    cdef int num_players, dealer = -1, obs, q
    cdef uint32_t max_moves = 0
    cdef batch_call call
    cdef sh_batch c
    cdef sh_state start
    cdef uint32_t one_moves
    cdef double t0
    cdef bint from_state = isinstance(game_or_state, StateBase)
    batch_call_of(&call, n, first, chunk, 20_000, threads)
    if from_state:
        (<StateBase>game_or_state)._require_setup()
        num_players = (<StateBase>game_or_state).s.num_players
        source = game_or_state
    else:
        try:  # a Shithead Game (threes.shithead.game, which this extension does not import)
            num_players = game_or_state.num_players()
            source = game_or_state.rules._raw()
            dealer, max_moves = game_or_state.dealer, game_or_state.max_game_length()
        except AttributeError:
            raise TypeError(f"a Shithead batch plays from a Shithead Game or State, not "
                            f"{type(game_or_state).__name__}") from None
    obs = observer_arg(observer, num_players, from_state)
    pol, names = _policies(policy, num_players)
    seed = seed_of(seed)
    t0 = monotonic_now()
    start_log = _prepare(&c, &start, source, num_players, pol, seed, dealer, max_moves, obs)
    places = batch_out(&call, num_players, cnp.NPY_INT8)
    moves = batch_out(&call, 0, cnp.NPY_UINT32)
    truncated = batch_out(&call, 0, cnp.NPY_BOOL)
    stalemate = batch_out(&call, 0, cnp.NPY_BOOL)
    if call.count == 1 and from_state and progress is None and call.first == 0:
        # the search's call: game 0 alone (in place in the private copy), the same game as in a batch
        _play_alone(&c, start_log, &start, &one_moves)
        for q in range(num_players):
            (<int8_t *>call.base[0])[q] = -1
        for q in range(start.num_out):
            (<int8_t *>call.base[0])[start.finish[q]] = q
        (<uint32_t *>call.base[1])[0] = one_moves
        call.base[2][0] = start.truncated
        call.base[3][0] = start.stalemate
    else:
        call.batch, call.play = &c, _sh_play
        run_batch(&call, 16 * call.threads, progress)
    seconds = monotonic_now() - t0
    return new_record(result, _RESULT_FIELDS, (places, moves, truncated, names, seed, call.threads, seconds,
                                               stalemate))


#: threes.rollouts' batch of this game (registered by its package; rollouts calls the C function directly)
play_batch = c_batch(_play_batch)


cdef tuple _ACTION_INTS = tuple(range(SH_MAX_DISTINCT_ACTIONS))  # ids_list's ints, made once
cdef tuple _SMALL_FLOATS = tuple(float(i) for i in range(256))  # float_list's shared floats
cdef Py_ssize_t _STATE_SIZE = (<PyTypeObject *>StateBase).tp_basicsize  # copy_state's fast clone


def _reuse_freed(type cls):
    return reuse_freed(cls, _STATE_SIZE)  # threes._engine: the lists of freed states


def rollout(state, policy="random", seed=None, *, bint order=False):
    """Plays one game to the end from `state` (which is not changed) and
    returns each seat's return (as ``State.returns()`` at the end, RULES.md
    section 7); with ``order=True``, ``(returns, finishing_order)``, the
    order listing the players out first (when truncated, only those out).
    The same game as game 0 of ``rollouts(state, 1, policy, seed)``; policy
    as there (a name, or one per seat), seed any int (modulo 2**64) or None.
    It is ``threes.rollout`` (the Shithead API ``import threes`` gives):
    a state of another game goes to that game's own rollout, registered
    with threes._engine (threes.batches.register), e.g.
    threes.three_thirteen.rollout.

    The call a search makes in its inner loop, so it is this binding's fast
    path: the policy resolved once per name, the game played alone on the
    calling thread with the GIL released (sh_batch_play_game, no thread, no
    array). Ctrl-C and this thread's cancel flag are polled every
    STOP_POLL_SECONDS of one long game."""
    cdef StateBase st
    cdef sh_batch c
    cdef sh_state end
    cdef uint32_t moves
    cdef double out[SH_MAX_PLAYERS]
    cdef int n, q
    if not isinstance(state, StateBase):
        return rollout_of_any(state, policy, seed, order)  # another game's own rollout (threes._engine)
    st = <StateBase>state
    st._require_setup()
    n = st.s.num_players
    pol = (<tuple>_policies(policy, n))[0]
    seed = seed_of(seed)
    # a private copy (other threads may change the state meanwhile), played in place
    start_log = _prepare(&c, &end, st, n, pol, seed, -1, 0, -1)
    _play_alone(&c, start_log, &end, &moves)
    sh_returns(&end, out)
    rets = [out[q] for q in range(n)]
    if order:
        return rets, [end.finish[q] for q in range(end.num_out)]
    return rets


# ------------------------------------------------------------ imperfect information --

ISMCTS_NODE_BYTES = sizeof(th_ismcts_node)


def observation_size(num_players):
    """Length of the observation tensor for num_players (see observation.h)."""
    if type(num_players) is int and SH_MIN_PLAYERS <= num_players <= SH_MAX_PLAYERS:
        return sh_obs_size(num_players)
    return sh_obs_size(_checked_int(num_players, "num_players", SH_MIN_PLAYERS, SH_MAX_PLAYERS))


def hidden_count(StateBase st, observer):
    """Cards hidden from `observer`: other hands' unknown cards, face-down cards, the draw pile."""
    st._require_setup()
    return sh_hidden_count(&st.s, _checked_int(observer, "observer", 0, st.s.num_players - 1))
