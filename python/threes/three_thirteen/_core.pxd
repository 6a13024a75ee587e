# Declarations of the Three Thirteen C engine (src/threes_core/three_thirteen/) for Cython.
from libc.stdint cimport int8_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t, int16_t, int32_t
from threes._common cimport th_rng, th_error, th_game, th_stop, th_events
from threes._engine cimport GameStateBase

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
        uint8_t pool_active
        uint8_t planes
        uint16_t deck_size
        uint32_t move_count
        uint32_t max_moves
        th_rng rng
        uint8_t turns[8]
        uint8_t hand_len[8]
        uint16_t stock_len
        uint16_t discard_len
    # the bitpacked body (state.h, THE LAYOUT) through its accessors
    int tt_hand(const tt_state *s, int q, int k)
    int tt_known(const tt_state *s, int q, int k)
    int tt_pool_hand(const tt_state *s, int q, int k)
    const uint8_t *tt_cstock(const tt_state *s)
    int32_t tt_total(const tt_state *s, int q)
    int tt_round_score(const tt_state *s, int r, int q)
    int tt_discard_at(const tt_state *s, int i)
    enum:
        TT_ZONE_HAND
        TT_ZONE_KNOWN
        TT_ZONE_POOL_HAND
        TT_ZONE_STOCK
        TT_ZONE_DISCARD
    ctypedef struct tt_setup_fields:
        int64_t round, dealer, current, phase, out_seat, final_turns, out_mask, taken_kind, truncated
        int64_t move_count, max_moves, pool_active
        int64_t num_turns
        int64_t turns[8]
        int64_t num_totals
        int64_t total[8]
        int64_t num_round_scores
        int64_t round_score_len[11]
        int64_t round_score[11][8]
        int64_t num_rng
        uint64_t rng[4]
    ctypedef struct tt_batch:
        const tt_state *start
        uint8_t start_valid
        uint8_t fresh
        uint8_t determinize
        uint8_t observer
        uint8_t round_only
        uint8_t policies[8]
        uint64_t seed
        int64_t n
        int64_t first
        int32_t *totals
        double *returns
        uint32_t *moves
        uint8_t *truncated
        const th_stop *stop
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
    int tt_apply_stock_draw(tt_state *s, int kind, th_error *e)
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
    int tt_setup_begin(tt_state *s, const tt_options *o, int num_players, th_error *e)
    int tt_setup_add(tt_state *s, int zone, int seat, int kind, th_error *e)
    int tt_setup_finish(tt_state *s, const tt_setup_fields *f, th_error *e)
    int tt_rollouts(const tt_batch *b, int threads, th_error *e)
    int tt_pool_count(const tt_state *s, int k)
    int tt_pool_held(const tt_state *s, int q)
    int tt_obs_size(int n)
    int tt_obs_own_hand()
    int tt_obs_own_pool()
    int tt_obs_known()
    int tt_obs_seats(int n)
    int tt_obs_discard(int n)
    int tt_obs_top(int n)
    int tt_obs_pool(int n)
    int tt_obs_piles(int n)
    int tt_obs_taken(int n)
    int tt_obs_round(int n)
    int tt_obs_dealer(int n)
    int tt_obs_to_move(int n)
    int tt_obs_out(int n)
    int tt_obs_final_turns(int n)
    int tt_obs_phase(int n)
    int tt_obs_totals(int n)
    int tt_observation_tensor(const tt_state *s, int observer, float *out, th_error *e)
    enum:
        TT_OBS_TEXT_MAX
    size_t tt_observation_text(const tt_state *s, int p, char *out, size_t cap)


cdef extern from "three_thirteen/events.h" nogil:
    void tt_events(const tt_state *before, const tt_state *after, int a, th_events *out)


cdef class StateBase(GameStateBase):
    cdef tt_state s
    # (and GameStateBase's _c, _plain_size, _apply and _player, overridden in _core.pyx)
