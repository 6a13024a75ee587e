# Declarations of the Shithead C engine (src/threes_core/shithead/shithead.h) for Cython.
from threes._common cimport th_rng, th_error, th_game, th_stop, th_events
from threes._engine cimport GameStateBase
from libc.stdint cimport int8_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t, int16_t, int32_t

cdef extern from "shithead/shithead.h" nogil:
    const th_game sh_game
    enum:
        SH_NUM_RANKS
        SH_NUM_KINDS
        SH_MAX_DECKS
        SH_MAX_CPZ
        SH_MIN_PLAYERS
        SH_MAX_PLAYERS
        SH_MAX_RUN_TO_BURN
        SH_MAX_DISTINCT_ACTIONS
        SH_MAX_CARDS
        SH_CARD_ID_SPACE
        SH_NO_CARD
        SH_OPEN
        SH_NO_RANK
        SH_DEFAULT_MAX_MOVES
        SH_MAX_MAX_MOVES
        SH_LOC_HAND
        SH_LOC_FACE_UP
        SH_LOC_FACE_DOWN
        SH_LOC_DRAW
        SH_LOC_PILE
        SH_LOC_BURNED
        SH_LOC_KNOWN
        SH_LOC_ABSENT
        SH_PHASE_SWAP
        SH_PHASE_PLAY
        SH_PHASE_OVER
        SH_MOVE_PLAY
        SH_MOVE_BLIND
        SH_MOVE_PICKUP
        SH_MOVE_SWAP
        SH_NUM_PRESETS
        SH_ZONE_HAND
        SH_ZONE_HAND_KNOWN
        SH_ZONE_FACE_UP
        SH_ZONE_FACE_DOWN
        SH_ZONE_DRAW
        SH_ZONE_PILE
        SH_ZONE_BURNED

    ctypedef struct th_rng:
        uint64_t s[4]
    uint64_t th_rng_next(th_rng *r)
    uint32_t th_rng_below(th_rng *r, uint32_t n)

    ctypedef struct sh_rules:
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
        uint8_t repetition_limit

    ctypedef struct sh_move:
        uint8_t kind
        uint8_t source
        uint8_t rank
        uint8_t count
        uint8_t slot
        uint8_t face_up[5]

    ctypedef struct sh_rep_log:
        uint64_t *keys
        uint32_t len
        uint8_t failed
    void sh_rep_log_init(sh_rep_log *l)
    void sh_rep_log_free(sh_rep_log *l)
    void sh_rep_log_clear(sh_rep_log *l)
    int sh_rep_log_push(sh_rep_log *l, uint64_t key)
    int sh_rep_log_reserve(sh_rep_log *l, uint32_t n)
    int sh_rep_log_copy(sh_rep_log *dst, const sh_rep_log *src)
    uint32_t sh_rep_log_count(const sh_rep_log *l, uint64_t key)

    ctypedef struct sh_seat:
        uint8_t hand_rank[16]
        uint8_t up_rank[16]
        uint8_t down[5]
        uint8_t hand_len
        uint8_t up_len
        uint8_t down_len

    ctypedef struct sh_state:
        sh_rules rules
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
        uint8_t stalemate
        sh_seat seat[12]
        uint16_t rep_len
        uint16_t rep_head
        uint64_t pile_hash
        sh_rep_log *rep_log

    int sh_draw_at(const sh_state *s, int i)
    # the body sized by the table (state.h, THE BODY): loc and the pile
    uint8_t *SH_LOC(const sh_state *s)
    uint8_t *SH_PILE(const sh_state *s)
    int sh_loc_at(const sh_state *s, int id)
    int sh_rules_preset(int preset, sh_rules *out)
    int sh_rules_validate(const sh_rules *r, int num_players, th_error *e)
    int sh_rules_max_players(const sh_rules *r)
    int sh_num_distinct_actions(const sh_rules *r)
    int sh_decode_action(const sh_rules *r, int action, sh_move *out)
    int sh_encode_move(const sh_rules *r, const sh_move *m)
    void sh_kind_text(int kind, char *buf)
    int sh_card_kind(int id)
    int sh_card_rank(int id)

    int sh_state_deal(sh_state *s, const sh_rules *r, int num_players, int dealer, uint32_t max_moves,
                      uint64_t seed, th_error *e)
    int sh_legal_actions(const sh_state *s, uint16_t *out)
    int sh_is_legal(const sh_state *s, int a)
    int sh_apply_action(sh_state *s, int a, th_error *e)
    void sh_apply_legal(sh_state *s, int a)
    int sh_state_decode_action(const sh_state *s, int a, sh_move *m)
    void sh_returns(const sh_state *s, double *out)
    int sh_playable(const sh_state *s, int rank)
    void sh_known_rank_counts(const sh_state *s, int seat, uint8_t *out)
    void sh_state_canonical(const sh_state *s, sh_state *out)
    uint64_t sh_position_key(const sh_state *s)
    uint64_t sh_repetition_key(const sh_state *s)
    uint64_t sh_pile_hash(const sh_state *s)
    void sh_fast_play(sh_state *s, int rank, int count)
    void sh_fast_blind(sh_state *s, int slot)
    void sh_fast_pickup(sh_state *s)
    void sh_fast_random_playout_until(sh_state *s, th_rng *rng, uint32_t move_limit)
    int sh_setup_repetitions(sh_state *s, int stalemate, const uint64_t *keys, int n, th_error *e)
    int sh_remembered_positions(const sh_state *s, uint64_t *out)
    enum: SH_REP_WINDOW
    int sh_state_check(const sh_state *s, th_error *e)
    int sh_setup_begin(sh_state *s, const sh_rules *r, int num_players, int dealer, uint32_t max_moves,
                       th_error *e)
    int sh_setup_add(sh_state *s, int zone, int seat, int kind, int slot, th_error *e)
    int sh_setup_finish(sh_state *s, int phase, int current, uint32_t move_count, int truncated,
                        const uint8_t *finish, int num_finish, th_error *e)


cdef extern from "shithead/shithead.h" nogil:
    enum:
        SH_POLICY_RANDOM
        SH_POLICY_GREEDY
        SH_POLICY_HEURISTIC
        SH_NUM_POLICIES
    ctypedef struct sh_batch:
        const sh_state *start
        uint8_t start_valid
        sh_rules rules
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
        uint8_t *stalemate
        const th_stop *stop
        const sh_rep_log *start_log
    int sh_rollouts(const sh_batch *b, int threads, th_error *e)
    int sh_batch_play_game(const sh_batch *b, int64_t i, const th_stop *stop, sh_state *s, uint32_t *moves,
                           sh_rep_log *log)
    uint32_t sh_rollout(sh_state *s, const uint8_t *policies, th_rng *rng)
    uint32_t sh_rollout_full(sh_state *s, const uint8_t *policies, th_rng *rng, int check)
    uint64_t sh_state_copy_bench(const sh_state *s, sh_state *scratch, uint64_t n)
    size_t sh_state_bytes(const sh_state *s)
    int sh_policy_action(const sh_state *s, int policy, th_rng *rng)
    void sh_policy_step(sh_state *s, int policy, th_rng *rng)

    int sh_hidden_count(const sh_state *s, int observer)
    int sh_resample(sh_state *s, int observer, th_rng *rng, th_error *e)
    int sh_obs_size(int n)
    int sh_observation_tensor(const sh_state *s, int observer, float *out, th_error *e)
    enum:
        SH_OBS_TEXT_MAX
    size_t sh_observation_text(const sh_state *s, int observer, char *out, size_t cap)



cdef class RepLog:
    cdef sh_rep_log l


cdef extern from "shithead/events.h" nogil:
    void sh_events(const sh_state *before, const sh_state *after, int a, th_events *out)


cdef class StateBase(GameStateBase):
    cdef sh_state s
    # GameStateBase._own: None, or this stretch's repetition keys older than the ring (a RepLog, rep_log.h),
    # shared with clones and copied before a change when shared (copy on write)
    # (and GameStateBase's _c, _plain_size, _apply and _player, overridden in _core.pyx)
    cdef RepLog _own_log(self)
    cdef list _kinds_at(self, int code)
    cdef int _require_setup(self) except -1
    cdef int _seat(self, seat) except -1
