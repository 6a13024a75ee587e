# cython: language_level=3, autotestdict=False, auto_pickle=False
"""Thin Cython bindings of the Three Thirteen C engine (src/threes_core/three_thirteen/).

This module only converts between Python values and the C structs; the rules
live in C, the pleasant API in threes.three_thirteen.
"""
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from threes._engine import IllegalActionError
from threes._engine import int_arg as _checked_int
cimport cython
from threes._common cimport *
from threes._engine cimport *
cimport numpy as cnp
cnp.import_array()
from numpy import integer as _np_integer

from cpython.object cimport PyObject, PyTypeObject, Py_TYPE


TERMINAL_PLAYER_ID = TH_TERMINAL_PLAYER

def batch_seed(seed, i):
    """th_batch_seed: the seed of game i (0..2**64-1) of a batch seeded `seed` (0..2**64-1)."""
    return th_batch_seed(<uint64_t>_checked_int(seed, "seed", 0, 2**64 - 1), <uint64_t>_checked_int(i, "i", 0, 2**64 - 1))

# ------------------------------------------------------ Python values -> C --
# The type checks of this boundary (the positions themselves are checked in C,
# setup.c and tt_state_check): an int is an int (numpy ints too), never a bool,
# a float or a str (TypeError); an int too wide for its C field is a ValueError.

cdef object _int_arg(str name, object v):
    if type(v) is int:
        return v
    try:
        return as_int(v)
    except TypeError:
        raise TypeError(f"{name} must be an int, not {type(v).__name__}") from None


cdef int64_t _i64(str name, object v) except? -1:
    x = _int_arg(name, v)
    if not -2**63 <= x < 2**63:
        raise ValueError(f"{name} is out of range: {x}")
    return x


cdef uint64_t _u64(str name, object v) except? 0xFFFFFFFFFFFFFFFF:
    x = _int_arg(name, v)
    if not 0 <= x < 2**64:
        raise ValueError(f"{name} must be in 0..2**64 - 1, not {x}")
    return x


cdef uint8_t _u8(str name, object v) except? 255:
    x = _int_arg(name, v)
    if not 0 <= x <= 255:
        raise ValueError(f"{name} is out of range: {x}")
    return x


cdef int64_t _flag(str name, object v) except? -1:
    """A flag: True/False or an int (0 or 1, checked in C)."""
    if type(v) is bool:
        return 1 if v else 0
    return _i64(name, v)


cdef list _seq(str name, object v):
    if not isinstance(v, (list, tuple)):
        raise TypeError(f"{name} must be a list, not {type(v).__name__}")
    return list(v)


cdef int _players_arg(object v) except -1:
    x = _int_arg("num_players", v)
    if not TT_MIN_PLAYERS <= x <= TT_MAX_PLAYERS:
        raise ValueError(f"num_players must be between {TT_MIN_PLAYERS} and {TT_MAX_PLAYERS}, not {x}")
    return x


cdef int _options_arg(dict opts, tt_options *o) except -1:
    """The raw options dict (threes.three_thirteen.game) into o: decks (an
    int or None for the default), jokers, and the on/off options (bools);
    their values are checked by tt_options_validate."""
    cdef str k
    for k in ("ace_either", "all_wild_melds", "wild_penalty_20", "rediscard_taken", "go_out_first_turn"):
        if not isinstance(opts[k], bool):
            raise TypeError(f"option {k} must be True or False, not {type(opts[k]).__name__}")
    if opts.get("decks") is not None:
        o.decks = _u8("decks", opts["decks"])
    o.jokers = _u8("jokers", opts["jokers"])
    o.meld.ace_either = opts["ace_either"]
    o.meld.all_wild_melds = opts["all_wild_melds"]
    o.meld.wild_penalty_20 = opts["wild_penalty_20"]
    o.rediscard_taken = opts["rediscard_taken"]
    o.go_out_first_turn = opts["go_out_first_turn"]
    return 0


cdef int _seat_arg(str name, object v, int n) except -1:
    x = _int_arg(name, v)
    if not 0 <= x < n:
        raise ValueError(f"{name} must be in 0..{n - 1}, not {x}")
    return x


# ------------------------------------------------------------------- Three Thirteen --

NUM_KINDS = TT_NUM_KINDS
NUM_ACTIONS = TT_NUM_ACTIONS
FIRST_DISCARD = TT_FIRST_DISCARD
FIRST_GO_OUT = TT_FIRST_GO_OUT
ROUNDS = TT_ROUNDS
MIN_PLAYERS = TT_MIN_PLAYERS
MAX_PLAYERS = TT_MAX_PLAYERS
MAX_HAND = TT_MAX_HAND
NUM_POLICIES = TT_NUM_POLICIES
ISMCTS_NODE_BYTES = sizeof(th_ismcts_node)
MAX_THREADS = TH_MAX_THREADS


def observation_size(num_players):
    """Floats in the observation tensor of a game of num_players (observation.h)."""
    return tt_obs_size(_checked_int(num_players, "num_players", TT_MIN_PLAYERS, TT_MAX_PLAYERS))


def observation_layout(n):
    """The blocks of the observation tensor for n players, name -> (offset,
    size), from the offsets in observation.h."""
    n = _checked_int(n, "num_players", TT_MIN_PLAYERS, TT_MAX_PLAYERS)
    starts = [
        ("own_hand", tt_obs_own_hand()),
        ("own_pool", tt_obs_own_pool()),
        ("known", tt_obs_known()),
        ("seats", tt_obs_seats(n)),
        ("discard", tt_obs_discard(n)),
        ("discard_top", tt_obs_top(n)),
        ("pool", tt_obs_pool(n)),
        ("piles", tt_obs_piles(n)),
        ("taken", tt_obs_taken(n)),
        ("round", tt_obs_round(n)),
        ("dealer", tt_obs_dealer(n)),
        ("to_move", tt_obs_to_move(n)),
        ("going_out", tt_obs_out(n)),
        ("final_turns", tt_obs_final_turns(n)),
        ("phase", tt_obs_phase(n)),
        ("totals", tt_obs_totals(n)),
    ]
    ends = [o for _, o in starts[1:]] + [tt_obs_size(n)]
    return {name: (o, end - o) for (name, o), end in zip(starts, ends)}


cdef tt_meld_options _tt_meld(bint ace_either, bint all_wild_melds, bint wild_penalty_20):
    cdef tt_meld_options o
    o.ace_either = ace_either
    o.all_wild_melds = all_wild_melds
    o.wild_penalty_20 = wild_penalty_20
    return o


def min_deadwood(ranks, suits, wild_rank, bint ace_either, bint all_wild_melds, bint wild_penalty_20):
    """(deadwood, [(type, [card indexes])...], [deadwood card indexes]) of a hand
    given as ranks (1..13, 0 = joker) and suits (0..3)."""
    cdef uint8_t r[14]
    cdef uint8_t su[14]
    cdef tt_arrangement a
    cdef th_error e
    cdef tt_meld_options o = _tt_meld(ace_either, all_wild_melds, wild_penalty_20)
    cdef int n = len(ranks), i, j, pos = 0
    cdef int wr = _checked_int(wild_rank, "wild_rank", 1, 13)
    if n != len(suits):
        raise ValueError("ranks and suits differ in length")
    if n > TT_MAX_HAND:
        raise ValueError(f"a hand holds at most {TT_MAX_HAND} cards, not {n}")
    for i in range(n):
        if not 0 <= ranks[i] <= 13 or not 0 <= suits[i] <= 3:
            raise ValueError(f"card {i}: rank {ranks[i]} or suit {suits[i]} out of range")
        r[i] = ranks[i]
        su[i] = suits[i]
    if tt_min_deadwood(r, su, n, wr, &o, &a, &e) != TH_OK:
        raise_error(&e)
    melds = []
    for i in range(a.num_melds):
        melds.append(("set" if a.meld_type[i] == 0 else "run", [a.order[pos + j] for j in range(a.meld_len[i])]))
        pos += a.meld_len[i]
    dead = [a.order[pos + j] for j in range(a.num_deadwood)]
    return a.deadwood, melds, dead


def card_value(rank, wild_rank, bint ace_either, bint wild_penalty_20):
    """What a card of `rank` (0 = joker, 1..13) scores when left over, `wild_rank` (1..13) wild."""
    cdef tt_meld_options o = _tt_meld(ace_either, 1, wild_penalty_20)
    return tt_card_value(_checked_int(rank, "rank", 0, 13), _checked_int(wild_rank, "wild_rank", 1, 13), &o)


cdef class StateBase:
    """The C state of a Three Thirteen game, held by value (threes.three_thirteen.State)."""

    def __cinit__(self, *args):
        self.game = &tt_game
        self.s.phase = TT_PHASE_OVER
        self.s.current = TT_NO_SEAT

    cdef void *_c(self) noexcept:
        return &self.s

    cdef Py_ssize_t _plain_size(self) noexcept:
        return _STATE_SIZE

    cdef int _player(self, player) except -1:
        return _seat_arg("player", player, self.s.num_players)

    @classmethod
    def _new(cls, num_players, dict opts, uint64_t seed, uint32_t max_moves):
        cdef tt_options o
        cdef th_error e
        cdef StateBase st = cls.__new__(cls)
        cdef int n = _players_arg(num_players)
        tt_options_default(n, &o)
        _options_arg(opts, &o)
        if tt_new_game(&st.s, &o, n, seed, max_moves, &e) != TH_OK:
            raise_error(&e)
        st._history = None
        st._hlen = 0
        return st

    def _options(self):
        return {"decks": self.s.opt.decks, "jokers": self.s.opt.jokers, "ace_either": self.s.opt.meld.ace_either,
                "all_wild_melds": self.s.opt.meld.all_wild_melds, "wild_penalty_20": self.s.opt.meld.wild_penalty_20,
                "rediscard_taken": self.s.opt.rediscard_taken, "go_out_first_turn": self.s.opt.go_out_first_turn}

    def num_players(self):
        """The number of seats, 0 .. num_players-1."""
        return self.s.num_players

    def current_player(self):
        """The seat to move, or TERMINAL_PLAYER_ID (-4) when the game is over."""
        return TH_TERMINAL_PLAYER if self.s.phase == TT_PHASE_OVER else self.s.current

    def is_terminal(self):
        """True when the game is over: the last round scored, or cut at the move cap."""
        return self.s.phase == TT_PHASE_OVER

    def is_truncated(self):
        """True when the game was cut at the move cap (it is then over, its returns ranked by the totals so far)."""
        return bool(self.s.truncated)

    def legal_actions(self):
        """Legal action ids, sorted ascending; empty when the game is over."""
        cdef uint16_t buf[110]
        cdef int n = tt_legal_actions(&self.s, buf)
        return ids_list(buf, n, _ACTION_INTS)

    cdef int _apply(self, action) except -1:
        cdef th_error e
        cdef int a = action_id(action, TT_NUM_ACTIONS)
        if tt_apply_action(&self.s, a, &e) != TH_OK:
            raise_error(&e)
        self._history = hist_push(self._history, action if type(action) is int else a)
        self._hlen += 1
        return 0

    def _apply_stock_draw(self, kind):
        """Applies the draw from the stock (action 0) with the card drawn chosen: one of kind `kind`
        (0..53), which must be in the stock, or in the discard pile below its top card when the stock is
        empty (then reshuffled as T-3 says, the pool of T-9 included). For chance chosen outside the
        engine (the OpenSpiel adapter); anything else raises and leaves the state as it was."""
        cdef th_error e
        cdef int k = action_id(kind, 0x10000)  # an int; the C core names a kind that is not there
        if tt_apply_stock_draw(&self.s, k, &e) != TH_OK:
            raise_error(&e)
        self._history = hist_push(self._history, 0)
        self._hlen += 1

    def move_number(self):
        """Actions applied since the deal (the game's move count)."""
        return self.s.move_count

    def max_game_length(self):
        """The move cap: at it the game ends, truncated."""
        return self.s.max_moves

    def returns(self):
        """One value per seat, ranked by total score (the lowest first): (N-1-2k)/(N-1) for place k, equal
        totals sharing their places; all 0 before the end (a game cut at the move cap is ranked by its totals)."""
        cdef double out[8]
        tt_returns(&self.s, out)
        return [out[i] for i in range(self.s.num_players)]

    def _round(self):
        return self.s.round

    def _phase_id(self):
        return self.s.phase

    def _fields(self):
        """Every field, for to_dict, observations and the display (kinds for cards)."""
        cdef int q, k
        n = self.s.num_players
        return {
            "num_players": n, "round": self.s.round, "dealer": self.s.dealer,
            "current": -1 if self.s.phase == TT_PHASE_OVER else self.s.current, "phase": self.s.phase,
            "out_seat": -1 if self.s.out_seat == TT_NO_SEAT else self.s.out_seat,
            "final_turns": self.s.final_turns, "out_mask": self.s.out_mask,
            "taken_kind": -1 if self.s.taken_kind == TT_NO_KIND else self.s.taken_kind,
            "truncated": bool(self.s.truncated), "move_count": self.s.move_count, "max_moves": self.s.max_moves,
            "turns": [self.s.turns[q] for q in range(n)],
            "hands": [[k for k in range(TT_NUM_KINDS) for _ in range(tt_hand(&self.s, q, k))] for q in range(n)],
            "stock": [tt_cstock(&self.s)[k] for k in range(self.s.stock_len)],
            "discard": [tt_discard_at(&self.s, k) for k in range(self.s.discard_len)],
            "round_scores": [[tt_round_score(&self.s, r + 1, q) for q in range(n)] for r in range(self.s.round - 1 + (self.s.phase == TT_PHASE_OVER and not self.s.truncated))],
            "totals": [tt_total(&self.s, q) for q in range(n)],
            "rng": [self.s.rng.s[k] for k in range(4)],
            "known": [[k for k in range(TT_NUM_KINDS) for _ in range(tt_known(&self.s, q, k))] for q in range(n)],
            "pool_hand": [[k for k in range(TT_NUM_KINDS) for _ in range(tt_pool_hand(&self.s, q, k))] for q in range(n)],
            "pool_active": bool(self.s.pool_active),
        }

    @classmethod
    def _from_fields(cls, num_players, dict opts, dict f):
        """Builds a state from _fields()-shaped data through the C setup API
        (tt_setup_begin/add/finish, which check every value: a position no
        game reaches is a ValueError); this converts, checking types (an int
        is an int, not a bool, float or str: TypeError). Optional keys: known,
        pool_hand (per seat, kinds of the hand's known and pool cards),
        pool_active, history (action ids, at most move_count of them)."""
        cdef StateBase st = cls.__new__(cls)
        cdef th_error e
        cdef tt_options o
        cdef tt_setup_fields sf
        cdef tt_state s
        cdef int q, r, zone, n
        memset(&o, 0, sizeof(o))
        memset(&sf, 0, sizeof(sf))
        n = _players_arg(num_players)
        _options_arg(opts, &o)
        if opts.get("decks") is None:
            raise ValueError("the options need decks")
        # every field converted before the C state is touched
        cards = []
        hands = _seq("hands", f["hands"])
        if len(hands) != n:
            raise ValueError(f"hands need one entry per seat ({n}), not {len(hands)}")
        for q in range(n):
            cards += [(TT_ZONE_HAND, q, _i64(f"hands[{q}]", k)) for k in _seq(f"hands[{q}]", hands[q])]
        for zone, name in ((TT_ZONE_KNOWN, "known"), (TT_ZONE_POOL_HAND, "pool_hand")):
            rows = _seq(name, f.get(name) or [[]] * n)
            if len(rows) != n:
                raise ValueError(f"known and pool_hand need one entry per seat ({n}), not {len(rows)}")
            for q in range(n):
                cards += [(zone, q, _i64(f"{name}[{q}]", k)) for k in _seq(f"{name}[{q}]", rows[q])]
        for zone, name in ((TT_ZONE_STOCK, "stock"), (TT_ZONE_DISCARD, "discard")):
            cards += [(zone, -1, _i64(name, k)) for k in _seq(name, f[name])]
        sf.round = _i64("round", f["round"])
        sf.dealer = _i64("dealer", f["dealer"])
        sf.current = _i64("current", f["current"])
        sf.phase = _i64("phase", f["phase"])
        sf.out_seat = _i64("out_seat", f["out_seat"])
        sf.final_turns = _i64("final_turns", f["final_turns"])
        sf.out_mask = _i64("out_mask", f["out_mask"])
        sf.taken_kind = _i64("taken_kind", f["taken_kind"])
        sf.truncated = _flag("truncated", f["truncated"])
        sf.move_count = _i64("move_count", f["move_count"])
        sf.max_moves = _i64("max_moves", f["max_moves"])
        sf.pool_active = _flag("pool_active", f.get("pool_active", False))
        turns, totals = _seq("turns", f["turns"]), _seq("totals", f["totals"])
        scores, rng = _seq("round_scores", f["round_scores"]), _seq("rng", f["rng"])
        sf.num_turns = len(turns)
        sf.num_totals = len(totals)
        sf.num_round_scores = len(scores)
        sf.num_rng = len(rng)
        for q in range(min(len(turns), TT_MAX_PLAYERS)):
            sf.turns[q] = _i64(f"turns[{q}]", turns[q])
        for q in range(min(len(totals), TT_MAX_PLAYERS)):
            sf.total[q] = _i64(f"totals[{q}]", totals[q])
        for r in range(min(len(scores), TT_ROUNDS)):
            row = _seq(f"round_scores[{r}]", scores[r])
            sf.round_score_len[r] = len(row)
            for q in range(min(len(row), TT_MAX_PLAYERS)):
                sf.round_score[r][q] = _i64(f"round_scores[{r}][{q}]", row[q])
        for q in range(min(len(rng), 4)):
            sf.rng[q] = _u64(f"rng[{q}]", rng[q])
        history = _seq("history", f.get("history", []))
        for r in range(len(history)):
            a = as_int(history[r])
            if not 0 <= a < TT_NUM_ACTIONS:
                raise ValueError(f"history[{r}] is {a}, not an action id (0..{TT_NUM_ACTIONS - 1})")
            history[r] = a
        # the position, in C, into a local state: st changes only once it is whole
        if tt_setup_begin(&s, &o, n, &e) != TH_OK:
            raise_error(&e)
        for zone, q, k in cards:
            if not -2**31 <= k < 2**31:
                raise ValueError(f"card kind {k} does not exist (0..{TT_NUM_KINDS - 1})")
            if tt_setup_add(&s, zone, q, k, &e) != TH_OK:
                raise_error(&e)
        if tt_setup_finish(&s, &sf, &e) != TH_OK:
            raise_error(&e)
        if len(history) > s.move_count:
            raise ValueError(f"history lists {len(history)} actions, more than the {s.move_count} moves played "
                             "(move_count)")
        st.s = s
        history = list(history)
        st._history = hist_of(history)
        st._hlen = len(history)
        return st

    def _knowledge(self):
        """The public record of T-9 (state.h, KNOWLEDGE): known cards and
        pool cards of each hand (kinds), the pool (kinds), pool_active."""
        cdef int q, k
        n = self.s.num_players
        return {"known": [[k for k in range(TT_NUM_KINDS) for _ in range(tt_known(&self.s, q, k))] for q in range(n)],
                "pool_hand": [[k for k in range(TT_NUM_KINDS) for _ in range(tt_pool_hand(&self.s, q, k))]
                              for q in range(n)],
                "pool": [k for k in range(TT_NUM_KINDS) for _ in range(tt_pool_count(&self.s, k))],
                "pool_held": [tt_pool_held(&self.s, q) for q in range(n)],
                "pool_active": bool(self.s.pool_active)}

    def _deadwood(self, seat):
        return tt_hand_deadwood(&self.s, _seat_arg("seat", seat, self.s.num_players))

    def resample_from_infostate(self, player, seed=None):
        """The other hands and the stock dealt again at random from the
        cards ``player`` cannot see, and the chance stream reseeded (in C,
        src/threes_core/three_thirteen/determinize.h): known cards stay in
        their hands, pool cards are shuffled only among the pool's places
        (T-9), so the result has the same information state for ``player``.
        This state is unchanged."""
        cdef th_rng rng
        cdef th_error e
        cdef int p
        if type(player) is int and 0 <= player < self.s.num_players:
            p = player
        else:
            if isinstance(player, bool) or not isinstance(player, (int, _np_integer)):
                raise TypeError(f"a seat is an int, not {type(player).__name__}")
            p = _seat_arg("player", player, self.s.num_players)
        seed = seed_of(seed)
        cdef StateBase c = <StateBase>self._clone()
        th_rng_seed(&rng, <uint64_t>seed)
        if tt_resample(&c.s, p, &rng, &e) != TH_OK:
            raise_error(&e)
        c._undo = None  # the sample keeps none of the true states before it (undo() would bring them back)
        return c

    def _resample(self, observer, uint64_t seed):
        """resample_from_infostate with a seed that is already 64-bit."""
        return self.resample_from_infostate(observer, seed)

    def round_margins(self, round):
        """Each seat's score margin in a round already scored (1..11): the
        mean of the others' round scores minus its own, over 10, clipped to
        [-1, 1] (tt_round_margin). What ``ISMCTSBot`` values a Three Thirteen
        iteration with (the root's round), and what ``rollout(...,
        round_only=True)`` returns at the round's end."""
        cdef double out[8]
        cdef int q
        round = _checked_int(round, "round", 1, TT_ROUNDS)
        scored = self.s.round - (self.s.phase != TT_PHASE_OVER)
        if round > scored:
            raise ValueError(f"round {round} has not been scored: "
                             + (f"round must be in 1..{scored}" if scored else "no round has been scored yet"))
        tt_round_margin(&self.s, round, out)
        return [out[q] for q in range(self.s.num_players)]


# run_batch's play function: a part of a batch into (totals, returns, moves, truncated)
cdef int _tt_play(void *batch, const batch_part *p, int threads, th_error *e) noexcept nogil:
    cdef tt_batch *b = <tt_batch *>batch
    b.first, b.n, b.stop, b.totals, b.returns, b.moves, b.truncated = (
        p.first, p.n, p.stop, <int32_t *>p.out[0], <double *>p.out[1], <uint32_t *>p.out[2], <uint8_t *>p.out[3])
    return tt_rollouts(b, threads, e)


cdef tuple _ACTION_INTS = tuple(range(TT_NUM_ACTIONS))  # ids_list's ints, made once
cdef Py_ssize_t _STATE_SIZE = (<PyTypeObject *>StateBase).tp_basicsize  # copy_state's fast clone


def _reuse_freed(type cls):
    return reuse_freed(cls, _STATE_SIZE)  # threes._engine: the lists of freed states


#: The rollout policies' names, in the C engine's order (rollout.h).
POLICIES = ("random", "greedy")
assert len(POLICIES) == TT_NUM_POLICIES
cdef dict _POLICIES_OF = {}  # policy name -> (ids as bytes, names) by seat count: threes._engine.policies_of's cache
cdef tuple _RESULT_FIELDS = ("places", "totals", "_returns", "moves", "truncated", "stalemate", "policies", "seed",
                             "threads", "seconds")


cdef inline tuple _policies(object policy, int n):
    return policies_of(_POLICIES_OF, POLICIES, policy, n)


cdef int _start_of(tt_batch *b, tt_state *s, StateBase start, const unsigned char *pol, uint64_t seed,
                   int observer, bint round_only, bint fresh) except -1:
    """Fills b for a batch from a private copy of `start` in `s` (taken with
    the GIL: other threads may change start meanwhile): every game from that
    position (each resampled from `observer`'s view when >= 0), or with
    `fresh` new games with start's options. pol: one checked id per seat."""
    cdef int q, n = start.s.num_players
    if not TT_MIN_PLAYERS <= n <= TT_MAX_PLAYERS:
        raise ValueError("this State holds no position (made by State.__new__): make one with "
                         "Game.new_initial_state(), State.from_dict() or clone()")
    memcpy(s, &start.s, sizeof(tt_state))  # (an assignment copies twice, through a temporary)
    memset(b, 0, sizeof(tt_batch))
    for q in range(n):
        b.policies[q] = pol[q]
    b.start = s
    b.start_valid = 1  # built only by checked setup and legal moves
    b.fresh = fresh
    b.determinize = observer >= 0
    b.observer = observer if observer >= 0 else 0
    b.round_only = round_only
    b.seed = seed
    return 0


def rollout(state, policy="random", seed=None, *, bint order=False, bint round_only=False):
    """Plays one game to the end from ``state`` (which is not changed) and
    returns each seat's return (``State.returns()`` at the end); with
    ``order=True``, ``(returns, seats by final total, lowest first)``. The
    same game as game 0 of ``rollouts(state, 1, policy, seed)``, played on the
    calling thread with the GIL released and its outputs on the stack (no
    thread, no array; ``threes.rollout`` calls it for a Three Thirteen
    state). With ``round_only=True`` only the current round is played and
    the values are its score margins in [-1, 1] (tt_round_margin, what
    ``ISMCTSBot`` values a Three Thirteen iteration with). Ctrl-C and this
    thread's cancel flag are polled every STOP_POLL_SECONDS of the game."""
    cdef tt_batch c
    cdef batch_call one
    cdef tt_state s
    cdef int q, n
    cdef int32_t totals[TT_MAX_PLAYERS]
    cdef double rets[TT_MAX_PLAYERS]
    cdef uint32_t moves
    cdef uint8_t trunc
    if not isinstance(state, StateBase):
        raise TypeError(f"rollout takes a Three Thirteen State, not {type(state).__name__} (threes.rollout takes any "
                        f"game's)")
    n = (<StateBase>state).s.num_players
    pol = (<tuple>_policies(policy, n))[0] if TT_MIN_PLAYERS <= n <= TT_MAX_PLAYERS else b""
    seed = seed_of(seed)
    _start_of(&c, &s, <StateBase>state, pol, seed, -1, round_only, False)
    one.count, one.first, one.step, one.threads, one.nout = 1, 0, 1, 1, 0  # one game on this thread
    batch_target(&one, totals, 0)
    batch_target(&one, rets, 0)
    batch_target(&one, &moves, 0)
    batch_target(&one, &trunc, 0)
    one.batch, one.play = &c, _tt_play
    run_batch(&one, 1, None)
    out = [rets[q] for q in range(n)]
    if order:
        final = [totals[q] for q in range(n)]
        return out, sorted(range(n), key=lambda q: (final[q], q))
    return out


cdef object _play_batch(start, n, policy, seed, threads, observer, progress, chunk, first, result):
    """The batch of threes.rollouts for a Three Thirteen Game or State (the
    arguments as there, all given; the backend chosen above, in Python),
    returned as a `result` (threes.results.RolloutResult). Plays `n` games
    in C from a Game (fresh deals with its options, from its
    ``new_initial_state``: game i deals with its own seed) or from a State
    (``observer``: resample that seat's hidden cards before each game). The
    games run on `threads` native threads (None: one per CPU) with the GIL
    released; the results are the same for any number of threads. The
    arguments are checked here in the binding (names resolved once): a
    search may call it in its inner loop. ``first``: play games first ..
    first + n - 1 of the batch (game i from (seed, i)). With ``progress``,
    the games are played in chunks of ``chunk`` (None: 200) and
    ``progress(games_done)`` is called after each; the games are the same as
    in one call."""
    cdef tt_batch c
    cdef tt_state s
    cdef int np_, obs
    cdef cnp.npy_intp dims[1]
    cdef batch_call call
    cdef bint fresh = False
    cdef double t0
    batch_call_of(&call, n, first, chunk, 200, threads)
    if isinstance(start, StateBase):
        st = start
    else:  # a Three Thirteen Game (threes.three_thirteen.game, which this extension does not import)
        new_state = getattr(start, "new_initial_state", None)
        st = new_state(0) if new_state is not None else None
        if not isinstance(st, StateBase):
            raise TypeError(f"a Three Thirteen batch plays from a Three Thirteen Game or State, not "
                            f"{type(start).__name__}")
        fresh = True
    np_ = (<StateBase>st).s.num_players
    obs = observer_arg(observer, np_, not fresh)
    pol, names = _policies(policy, np_) if TT_MIN_PLAYERS <= np_ <= TT_MAX_PLAYERS else (b"", ())
    seed = seed_of(seed)
    _start_of(&c, &s, <StateBase>st, pol, seed, obs, False, fresh)
    dims[0] = call.count
    totals = batch_out(&call, np_, cnp.NPY_INT32)
    returns = batch_out(&call, np_, cnp.NPY_FLOAT64)
    moves = batch_out(&call, 0, cnp.NPY_UINT32)
    truncated = batch_out(&call, 0, cnp.NPY_BOOL)  # a bool is a byte, 0 or 1
    stalemate = new_array(1, dims, cnp.NPY_BOOL, True)  # no Three Thirteen game ends by repetition: all False
    call.batch, call.play = &c, _tt_play
    t0 = monotonic_now()
    run_batch(&call, 4 * call.threads, progress)
    seconds = monotonic_now() - t0
    return new_record(result, _RESULT_FIELDS, (None, totals, returns, moves, truncated, stalemate, names,
                                               seed, call.threads, seconds))


#: threes.rollouts' batch of this game (registered by its package; rollouts calls the C function directly)
play_batch = c_batch(_play_batch)


def bench_solver(seed, hands, bint solve=True):
    """tt_bench_solver with the GIL released (a benchmark helper): `hands` (0..2**31-1) hands from `seed`."""
    cdef uint64_t r
    cdef uint64_t sd = _checked_int(seed, "seed", 0, 2**64 - 1)
    cdef int nh = _checked_int(hands, "hands", 0, 2**31 - 1)
    with nogil:
        r = tt_bench_solver(sd, nh, solve)
    return r
