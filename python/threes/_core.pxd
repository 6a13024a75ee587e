# Declarations of the C engine (src/threes_core/threes.h) for Cython.
from libc.stdint cimport int8_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t, int16_t, int32_t

cdef extern from "threes.h" nogil:
    enum:
        TH_NUM_RANKS
        TH_NUM_KINDS
        TH_MAX_DECKS
        TH_MAX_CPZ
        TH_MIN_PLAYERS
        TH_MAX_PLAYERS
        TH_MAX_RUN_TO_BURN
        TH_MAX_DISTINCT_ACTIONS
        TH_MAX_CARDS
        TH_CARD_ID_SPACE
        TH_NO_CARD
        TH_OPEN
        TH_NO_RANK
        TH_TERMINAL_PLAYER
        TH_DEFAULT_MAX_MOVES
        TH_MAX_MAX_MOVES
        TH_LOC_HAND
        TH_LOC_FACE_UP
        TH_LOC_FACE_DOWN
        TH_LOC_DRAW
        TH_LOC_PILE
        TH_LOC_BURNED
        TH_LOC_KNOWN
        TH_LOC_ABSENT
        TH_PHASE_SWAP
        TH_PHASE_PLAY
        TH_PHASE_OVER
        TH_OK
        TH_ERR_RULES
        TH_ERR_PLAYERS
        TH_ERR_ACTION
        TH_ERR_ILLEGAL
        TH_ERR_SETUP
        TH_ERR_ARG
        TH_NUM_PRESETS
        TH_ZONE_HAND
        TH_ZONE_HAND_KNOWN
        TH_ZONE_FACE_UP
        TH_ZONE_FACE_DOWN
        TH_ZONE_DRAW
        TH_ZONE_PILE
        TH_ZONE_BURNED

    ctypedef struct th_rng:
        uint64_t s[4]
    void th_rng_seed(th_rng *r, uint64_t seed)
    uint64_t th_rng_next(th_rng *r)
    uint32_t th_rng_below(th_rng *r, uint32_t n)

    ctypedef struct th_rules:
        uint8_t decks
        uint8_t jokers
        uint8_t cards_per_zone
        uint8_t lower_strict
        uint16_t wild
        uint16_t lower
        uint16_t invisible
        uint16_t burn
        uint8_t run_to_burn
        uint8_t invisible_in_runs
        uint8_t burner_plays_again
        uint8_t pickup_then_play
        uint8_t merge_hand_with_face_up
        uint8_t start
        uint8_t num_start_ranks
        uint8_t num_start_suits
        uint8_t start_ranks[14]
        uint8_t start_suits[4]

    ctypedef struct th_error:
        int code
        char msg[200]

    ctypedef struct th_move:
        uint8_t kind
        uint8_t source
        uint8_t rank
        uint8_t count
        uint8_t slot
        uint8_t face_up[5]

    ctypedef struct th_state:
        th_rules rules
        uint32_t move_count
        uint32_t max_moves
        uint8_t num_players
        uint8_t dealer
        uint8_t phase
        uint8_t current
        uint8_t truncated
        uint8_t num_out
        uint8_t eff_top
        uint8_t run_rank
        uint8_t run_len
        uint8_t pile_len
        uint8_t draw_len
        uint8_t burned_len
        uint16_t out_mask
        uint8_t finish[12]
        uint8_t hand_len[12]
        uint8_t up_len[12]
        uint8_t down_len[12]
        uint8_t down[12][5]
        uint8_t loc[256]
        uint8_t pile[216]
        uint8_t draw[216]

    int th_rules_preset(int preset, th_rules *out)
    int th_rules_validate(const th_rules *r, int num_players, th_error *e)
    int th_rules_max_players(const th_rules *r)
    int th_num_distinct_actions(const th_rules *r)
    int th_decode_action(const th_rules *r, int action, th_move *out)
    int th_encode_move(const th_rules *r, const th_move *m)
    void th_kind_text(int kind, char *buf)
    int th_card_kind(int id)
    int th_card_rank(int id)

    int th_state_deal(th_state *s, const th_rules *r, int num_players, int dealer, uint32_t max_moves,
                      uint64_t seed, th_error *e)
    int th_legal_actions(const th_state *s, uint16_t *out)
    int th_is_legal(const th_state *s, int a)
    int th_apply_action(th_state *s, int a, th_error *e)
    void th_apply_legal(th_state *s, int a)
    int th_state_decode_action(const th_state *s, int a, th_move *m)
    void th_returns(const th_state *s, double *out)
    int th_playable(const th_state *s, int rank)
    void th_known_rank_counts(const th_state *s, int seat, uint8_t *out)
    void th_state_canonical(const th_state *s, th_state *out)
    int th_state_check(const th_state *s, th_error *e)
    int th_setup_begin(th_state *s, const th_rules *r, int num_players, int dealer, uint32_t max_moves,
                       th_error *e)
    int th_setup_add(th_state *s, int zone, int seat, int kind, int slot, th_error *e)
    int th_setup_finish(th_state *s, int phase, int current, uint32_t move_count, int truncated,
                        const uint8_t *finish, int num_finish, th_error *e)


cdef extern from "threes.h" nogil:
    enum:
        TH_POLICY_RANDOM
        TH_POLICY_GREEDY
        TH_POLICY_HEURISTIC
        TH_NUM_POLICIES
        TH_MAX_THREADS
    ctypedef struct th_batch:
        const th_state *start
        th_rules rules
        int num_players
        int dealer
        uint32_t max_moves
        uint8_t policies[12]
        uint64_t seed
        uint8_t determinize
        uint8_t observer
        int64_t n
        int64_t first
        int8_t *places
        uint32_t *moves
        uint8_t *truncated
    int th_rollouts(const th_batch *b, int threads, th_error *e)
    uint32_t th_rollout(th_state *s, const uint8_t *policies, th_rng *rng)
    uint32_t th_rollout_full(th_state *s, const uint8_t *policies, th_rng *rng, int check)
    void th_batch_rng(uint64_t seed, uint64_t i, th_rng *rng)
    uint64_t th_state_copy_bench(const th_state *s, th_state *scratch, uint64_t n)
    int th_policy_action(const th_state *s, int policy, th_rng *rng)
    uint64_t th_batch_seed(uint64_t seed, uint64_t i)

    void th_rng_seed(th_rng *r, uint64_t seed)
    int th_hidden_count(const th_state *s, int observer)
    int th_resample(th_state *s, int observer, th_rng *rng, th_error *e)
    int th_obs_size(int n)
    int th_observation_tensor(const th_state *s, int observer, float *out, th_error *e)

    ctypedef struct th_ismcts_node:
        pass
    ctypedef struct th_ismcts_config:
        uint32_t iterations
        double time_limit
        double exploration
        uint8_t rollout_policy
        uint64_t seed
    ctypedef struct th_ismcts_stats:
        uint32_t iterations
        uint32_t nodes
        int best_action
    int th_ismcts_search(const th_state *root, const th_ismcts_config *cfg, th_ismcts_node *arena,
                         uint32_t capacity, th_ismcts_stats *stats, uint16_t *out_actions,
                         uint32_t *out_visits, double *out_values, int *out_children, th_error *e)


cdef class StateBase:
    cdef th_state s
    cdef list _history
    cdef Py_ssize_t _hlen
    cdef list _kinds_at(self, int code)
    cdef int _require_setup(self) except -1
    cdef int _seat(self, seat) except -1


cdef extern from "thirteen.h" nogil:
    enum:
        TH3_MIN_PLAYERS
        TH3_MAX_PLAYERS
        TH3_MAX_DECKS
        TH3_NUM_KINDS
        TH3_MAX_CARDS
        TH3_ROUNDS
        TH3_NUM_ACTIONS
        TH3_FIRST_DISCARD
        TH3_FIRST_GO_OUT
        TH3_NO_KIND
        TH3_NO_SEAT
        TH3_PHASE_DRAW
        TH3_PHASE_DISCARD
        TH3_PHASE_OVER
        TH3_NUM_POLICIES
        TH3_MAX_HAND
    ctypedef struct th3_meld_options:
        uint8_t ace_either
        uint8_t all_wild_melds
        uint8_t wild_penalty_20
    ctypedef struct th3_arrangement:
        int deadwood
        int num_melds
        uint8_t meld_type[14]
        uint8_t meld_len[14]
        uint8_t order[14]
        int num_deadwood
    ctypedef struct th3_options:
        uint8_t decks
        uint8_t jokers
        th3_meld_options meld
        uint8_t rediscard_taken
        uint8_t go_out_first_turn
    ctypedef struct th3_state:
        th3_options opt
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
    int th3_min_deadwood(const uint8_t *rank, const uint8_t *suit, int n, int wild_rank, const th3_meld_options *o,
                         th3_arrangement *out, th_error *e)
    int th3_card_value(int rank, int wild_rank, const th3_meld_options *o)
    void th3_options_default(int num_players, th3_options *out)
    int th3_options_validate(const th3_options *o, int num_players, th_error *e)
    int th3_new_game(th3_state *s, const th3_options *o, int num_players, uint64_t seed, uint32_t max_moves,
                     th_error *e)
    int th3_legal_actions(const th3_state *s, uint16_t *out)
    int th3_is_legal(const th3_state *s, int action)
    int th3_apply_action(th3_state *s, int action, th_error *e)
    int th3_hand_deadwood(const th3_state *s, int p)
    void th3_returns(const th3_state *s, double *out)
    int th3_state_check(const th3_state *s, th_error *e)
    int th3_resample(th3_state *s, int observer, th_rng *rng, th_error *e)
    int th3_policy_action(const th3_state *s, int policy, th_rng *rng)
    uint32_t th3_rollout(th3_state *s, const uint8_t *policies, th_rng *rng)
    uint32_t th3_rollout_round(th3_state *s, const uint8_t *policies, th_rng *rng)
    void th3_standings(const th3_state *s, double *out)
    void th3_round_margin(const th3_state *s, int round, double *out)
    uint64_t th3_bench_solver(uint64_t seed, int hands, int solve)


cdef class TTStateBase:
    cdef th3_state s
    cdef public list _history
