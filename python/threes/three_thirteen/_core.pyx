# cython: language_level=3, autotestdict=False, auto_pickle=False
"""Thin Cython bindings of the Three Thirteen C engine (src/threes_core/three_thirteen/).

This module only converts between Python values and the C structs; the rules
live in C, the pleasant API in threes.three_thirteen.
"""
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memset
from operator import index as _index

from threes.errors import IllegalActionError
from threes._common cimport *

TERMINAL_PLAYER_ID = TH_TERMINAL_PLAYER

def batch_seed(uint64_t seed, uint64_t i):
    """th_batch_seed: the seed of game i of a batch."""
    return th_batch_seed(seed, i)

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


cdef tt_meld_options _tt_meld(bint ace_either, bint all_wild_melds, bint wild_penalty_20):
    cdef tt_meld_options o
    o.ace_either = ace_either
    o.all_wild_melds = all_wild_melds
    o.wild_penalty_20 = wild_penalty_20
    return o


def min_deadwood(ranks, suits, int wild_rank, bint ace_either, bint all_wild_melds, bint wild_penalty_20):
    """(deadwood, [(type, [card indexes])...], [deadwood card indexes]) of a hand
    given as ranks (1..13, 0 = joker) and suits (0..3)."""
    cdef uint8_t r[14]
    cdef uint8_t su[14]
    cdef tt_arrangement a
    cdef th_error e
    cdef tt_meld_options o = _tt_meld(ace_either, all_wild_melds, wild_penalty_20)
    cdef int n = len(ranks), i, j, pos = 0
    if n != len(suits):
        raise ValueError("ranks and suits differ in length")
    if n > TT_MAX_HAND:
        raise ValueError(f"a hand holds at most {TT_MAX_HAND} cards, not {n}")
    for i in range(n):
        if not 0 <= ranks[i] <= 13 or not 0 <= suits[i] <= 3:
            raise ValueError(f"card {i}: rank {ranks[i]} or suit {suits[i]} out of range")
        r[i] = ranks[i]
        su[i] = suits[i]
    if tt_min_deadwood(r, su, n, wild_rank, &o, &a, &e) != TH_OK:
        raise_error(&e)
    melds = []
    for i in range(a.num_melds):
        melds.append(("set" if a.meld_type[i] == 0 else "run", [a.order[pos + j] for j in range(a.meld_len[i])]))
        pos += a.meld_len[i]
    dead = [a.order[pos + j] for j in range(a.num_deadwood)]
    return a.deadwood, melds, dead


def card_value(int rank, int wild_rank, bint ace_either, bint wild_penalty_20):
    cdef tt_meld_options o = _tt_meld(ace_either, 1, wild_penalty_20)
    return tt_card_value(rank, wild_rank, &o)


cdef class StateBase:
    """The C state of a Three Thirteen game, held by value (threes.three_thirteen.State)."""

    def __cinit__(self):
        self.s.phase = TT_PHASE_OVER
        self.s.current = TT_NO_SEAT

    @classmethod
    def _new(cls, int num_players, dict opts, uint64_t seed, uint32_t max_moves):
        cdef tt_options o
        cdef th_error e
        cdef StateBase st = cls.__new__(cls)
        tt_options_default(num_players if 2 <= num_players <= 8 else 2, &o)
        if opts.get("decks") is not None:
            o.decks = opts["decks"]
        o.jokers = opts["jokers"]
        o.meld.ace_either = opts["ace_either"]
        o.meld.all_wild_melds = opts["all_wild_melds"]
        o.meld.wild_penalty_20 = opts["wild_penalty_20"]
        o.rediscard_taken = opts["rediscard_taken"]
        o.go_out_first_turn = opts["go_out_first_turn"]
        if tt_new_game(&st.s, &o, num_players, seed, max_moves, &e) != TH_OK:
            raise_error(&e)
        st._history = []
        return st

    def _options(self):
        return {"decks": self.s.opt.decks, "jokers": self.s.opt.jokers, "ace_either": self.s.opt.meld.ace_either,
                "all_wild_melds": self.s.opt.meld.all_wild_melds, "wild_penalty_20": self.s.opt.meld.wild_penalty_20,
                "rediscard_taken": self.s.opt.rediscard_taken, "go_out_first_turn": self.s.opt.go_out_first_turn}

    def clone(self):
        cdef StateBase c = type(self).__new__(type(self))
        c.s = self.s
        c._history = list(self._history) if self._history is not None else []
        return c

    def num_players(self):
        return self.s.num_players

    def current_player(self):
        return TH_TERMINAL_PLAYER if self.s.phase == TT_PHASE_OVER else self.s.current

    def is_terminal(self):
        return self.s.phase == TT_PHASE_OVER

    def is_truncated(self):
        return bool(self.s.truncated)

    def legal_actions(self):
        cdef uint16_t buf[110]
        cdef int n = tt_legal_actions(&self.s, buf)
        return [buf[i] for i in range(n)]

    def is_legal(self, action):
        a = _index(action)
        return -2**31 <= a < 2**31 and tt_is_legal(&self.s, a) != 0

    def apply_action(self, action):
        cdef th_error e
        a = _index(action)
        if not 0 <= a < TT_NUM_ACTIONS:
            raise IllegalActionError(f"action {a} is out of range: ids are 0..{TT_NUM_ACTIONS - 1}")
        if tt_apply_action(&self.s, a, &e) != TH_OK:
            raise_error(&e)
        if self._history is None:
            self._history = []
        self._history.append(a)

    def history(self):
        return list(self._history or [])

    def returns(self):
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
            "hands": [[k for k in range(TT_NUM_KINDS) for _ in range(self.s.hand[q][k])] for q in range(n)],
            "stock": [self.s.stock[k] for k in range(self.s.stock_len)],
            "discard": [self.s.discard[k] for k in range(self.s.discard_len)],
            "round_scores": [[self.s.round_score[r][q] for q in range(n)] for r in range(self.s.round - 1 + (self.s.phase == TT_PHASE_OVER and not self.s.truncated))],
            "totals": [self.s.total[q] for q in range(n)],
            "rng": [self.s.rng.s[k] for k in range(4)],
        }

    @classmethod
    def _from_fields(cls, int num_players, dict opts, dict f):
        """Builds a state from _fields()-shaped data; tt_state_check decides if it is possible."""
        cdef StateBase st = cls.__new__(cls)
        cdef th_error e
        cdef int q, k, i
        if not 2 <= num_players <= 8:
            raise ValueError(f"num_players must be between 2 and 8, not {num_players}")
        memset(&st.s, 0, sizeof(tt_state))
        st.s.num_players = num_players
        st.s.opt.decks = opts["decks"]
        st.s.opt.jokers = opts["jokers"]
        st.s.opt.meld.ace_either = opts["ace_either"]
        st.s.opt.meld.all_wild_melds = opts["all_wild_melds"]
        st.s.opt.meld.wild_penalty_20 = opts["wild_penalty_20"]
        st.s.opt.rediscard_taken = opts["rediscard_taken"]
        st.s.opt.go_out_first_turn = opts["go_out_first_turn"]
        st.s.round = f["round"]
        st.s.dealer = f["dealer"]
        st.s.phase = f["phase"]
        st.s.current = TT_NO_SEAT if f["current"] < 0 else f["current"]
        st.s.out_seat = TT_NO_SEAT if f["out_seat"] < 0 else f["out_seat"]
        st.s.final_turns = f["final_turns"]
        st.s.out_mask = f["out_mask"]
        st.s.taken_kind = TT_NO_KIND if f["taken_kind"] < 0 else f["taken_kind"]
        st.s.truncated = f["truncated"]
        st.s.move_count = f["move_count"]
        st.s.max_moves = f["max_moves"]
        for k in range(4):
            st.s.rng.s[k] = f["rng"][k]
        if len(f["hands"]) != num_players or len(f["turns"]) != num_players or len(f["totals"]) != num_players:
            raise ValueError("hands, turns and totals need one entry per seat")
        for q in range(num_players):
            st.s.turns[q] = f["turns"][q]
            st.s.total[q] = f["totals"][q]
            if len(f["hands"][q]) > TT_MAX_HAND:
                raise ValueError(f"seat {q} holds {len(f['hands'][q])} cards: at most {TT_MAX_HAND}")
            for k in f["hands"][q]:
                if not 0 <= k < TT_NUM_KINDS:
                    raise ValueError(f"unknown card kind {k}")
                st.s.hand[q][k] += 1
                st.s.hand_len[q] += 1
        for name, arr_len in (("stock", len(f["stock"])), ("discard", len(f["discard"]))):
            if arr_len > TT_MAX_CARDS:
                raise ValueError(f"the {name} is too long")
        for i, k in enumerate(f["stock"]):
            st.s.stock[i] = k
        st.s.stock_len = len(f["stock"])
        for i, k in enumerate(f["discard"]):
            st.s.discard[i] = k
        st.s.discard_len = len(f["discard"])
        if len(f["round_scores"]) > TT_ROUNDS:
            raise ValueError("more round scores than rounds")
        for i, row in enumerate(f["round_scores"]):
            for q in range(num_players):
                st.s.round_score[i][q] = row[q]
        if tt_state_check(&st.s, &e) != TH_OK:
            raise_error(&e)
        st._history = []
        return st

    def _deadwood(self, int seat):
        if not 0 <= seat < self.s.num_players:
            raise ValueError(f"seat must be in 0..{self.s.num_players - 1}, not {seat}")
        return tt_hand_deadwood(&self.s, seat)

    def _resample(self, int observer, uint64_t seed):
        cdef th_rng rng
        cdef th_error e
        cdef StateBase c = self.clone()
        th_rng_seed(&rng, seed)
        if tt_resample(&c.s, observer, &rng, &e) != TH_OK:
            raise_error(&e)
        return c

    def _round_margin(self, int round):
        """tt_round_margin of a scored round (1..11), for search."""
        cdef double out[8]
        cdef int q
        if not 1 <= round <= TT_ROUNDS or round > self.s.round or (round == self.s.round and
                                                                      self.s.phase != TT_PHASE_OVER):
            raise ValueError(f"round {round} has not been scored")
        tt_round_margin(&self.s, round, out)
        return [out[q] for q in range(self.s.num_players)]

    def _policy_action(self, int policy, uint64_t seed):
        cdef th_rng rng
        if not 0 <= policy < TT_NUM_POLICIES:
            raise ValueError(f"policy {policy} does not exist")
        if self.s.phase == TT_PHASE_OVER:
            raise ValueError("the game is over: no action to choose")
        th_rng_seed(&rng, seed)
        return tt_policy_action(&self.s, policy, &rng)

    def _check(self):
        cdef th_error e
        if tt_state_check(&self.s, &e) != TH_OK:
            raise_error(&e)


def run_rollouts(StateBase start, policies, uint64_t seed, int64_t n, int32_t[:, ::1] totals,
                uint32_t[::1] moves, uint8_t[::1] truncated, double[:, ::1] returns, int observer=-1,
                bint round_only=False):
    """n games from `start` (each resampled from `observer`'s view when >= 0),
    game i with rng th_batch_rng(seed, i), with the GIL released per game.
    round_only: play to the end of the current round only; returns are then
    the round's score margins (tt_round_margin), for search."""
    cdef tt_state s
    cdef th_rng rng
    cdef uint8_t pol[8]
    cdef double ret[8]
    cdef int64_t i
    cdef int q, np_ = start.s.num_players, r0 = start.s.round
    cdef uint32_t m
    policies = list(policies)
    if len(policies) != np_:
        raise ValueError(f"one policy per seat: {np_} needed")
    for q in range(np_):
        if not 0 <= policies[q] < TT_NUM_POLICIES:
            raise ValueError(f"policy {policies[q]} does not exist")
        pol[q] = policies[q]
    if observer >= np_:
        raise ValueError(f"observer must be a seat in 0..{np_ - 1}, not {observer}")
    for i in range(n):
        s = start.s
        th_batch_rng(seed, <uint64_t>i, &rng)
        with nogil:
            if observer >= 0:
                tt_resample(&s, observer, &rng, NULL)
            if round_only:
                m = tt_rollout_round(&s, pol, &rng)
            else:
                m = tt_rollout(&s, pol, &rng)
        if round_only:
            tt_round_margin(&s, r0, ret)
        else:
            tt_returns(&s, ret)
        for q in range(np_):
            totals[i, q] = s.total[q]
            returns[i, q] = ret[q]
        moves[i] = m
        truncated[i] = s.truncated


def ismcts_search(StateBase st, uint8_t[::1] arena, uint32_t iterations, double time_limit,
                  double exploration, int rollout_policy, uint64_t seed):
    """Runs the generic th_ismcts_search (common/ismcts.h) over tt_game with
    the GIL released: each iteration is valued on the root's round
    (three_thirteen/game.h). `arena` holds the tree (a multiple of
    ISMCTS_NODE_BYTES); rollout_policy is a Three Thirteen policy id. Returns
    (best_action, iterations run, nodes used, [(action, visits, mean value)
    for each root child])."""
    cdef tt_state root = st.s  # a private copy: other threads may change the state meanwhile
    return ismcts_run(&tt_game, &root, arena, iterations, time_limit, exploration, rollout_policy, seed)


def bench_solver(uint64_t seed, int hands, bint solve=True):
    """tt_bench_solver with the GIL released (a benchmark helper)."""
    cdef uint64_t r
    with nogil:
        r = tt_bench_solver(seed, hands, solve)
    return r
