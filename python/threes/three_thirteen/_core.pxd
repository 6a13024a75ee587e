# Declarations of the Three Thirteen C engine (src/threes_core/three_thirteen/) for Cython.
from libc.stdint cimport int8_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t, int16_t, int32_t
from threes._common cimport th_rng, th_error, th_game

cdef extern from "three_thirteen/three_thirteen.h" nogil:
    const th_game tt_game
    enum:
        TT_MIN_PLAYERS
        TT_MAX_PLAYERS
        TT_MAX_DECKS
        TT_NUM_KINDS
        TT_MAX_CARDS
        TT_ROUNDS
        TT_NUM_ACTIONS
        TT_FIRST_DISCARD
        TT_FIRST_GO_OUT
        TT_NO_KIND
        TT_NO_SEAT
        TT_PHASE_DRAW
        TT_PHASE_DISCARD
        TT_PHASE_OVER
        TT_NUM_POLICIES
        TT_MAX_HAND
    ctypedef struct tt_meld_options:
        uint8_t ace_either
        uint8_t all_wild_melds
        uint8_t wild_penalty_20
    ctypedef struct tt_arrangement:
        int deadwood
        int num_melds
        uint8_t meld_type[14]
        uint8_t meld_len[14]
        uint8_t order[14]
        int num_deadwood
    ctypedef struct tt_options:
        uint8_t decks
        uint8_t jokers
        tt_meld_options meld
        uint8_t rediscard_taken
        uint8_t go_out_first_turn
    ctypedef struct tt_state:
        tt_options opt
        uint8_t num_players
        uint8_t round
        uint8_t dealer
        uint8_t current
        uint8_t phase
        uint8_t out_seat
        uint8_t final_turns
        uint8_t out_mask
        uint8_t taken_kind
        uint8_t truncated
        uint32_t move_count
        uint32_t max_moves
        th_rng rng
        uint8_t turns[8]
        uint8_t hand_len[8]
        uint8_t hand[8][54]
        uint16_t stock_len
        uint16_t discard_len
        uint8_t stock[216]
        uint8_t discard[216]
        int16_t round_score[11][8]
        int32_t total[8]
    int tt_min_deadwood(const uint8_t *rank, const uint8_t *suit, int n, int wild_rank, const tt_meld_options *o,
                         tt_arrangement *out, th_error *e)
    int tt_card_value(int rank, int wild_rank, const tt_meld_options *o)
    void tt_options_default(int num_players, tt_options *out)
    int tt_options_validate(const tt_options *o, int num_players, th_error *e)
    int tt_new_game(tt_state *s, const tt_options *o, int num_players, uint64_t seed, uint32_t max_moves,
                     th_error *e)
    int tt_legal_actions(const tt_state *s, uint16_t *out)
    int tt_is_legal(const tt_state *s, int action)
    int tt_apply_action(tt_state *s, int action, th_error *e)
    int tt_hand_deadwood(const tt_state *s, int p)
    void tt_returns(const tt_state *s, double *out)
    int tt_state_check(const tt_state *s, th_error *e)
    int tt_resample(tt_state *s, int observer, th_rng *rng, th_error *e)
    int tt_policy_action(const tt_state *s, int policy, th_rng *rng)
    uint32_t tt_rollout(tt_state *s, const uint8_t *policies, th_rng *rng)
    uint32_t tt_rollout_round(tt_state *s, const uint8_t *policies, th_rng *rng)
    void tt_standings(const tt_state *s, double *out)
    void tt_round_margin(const tt_state *s, int round, double *out)
    uint64_t tt_bench_solver(uint64_t seed, int hands, int solve)


cdef class StateBase:
    cdef tt_state s
    cdef public list _history
