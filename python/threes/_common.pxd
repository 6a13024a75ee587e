# Declarations of the C core's shared part (src/threes_core/common/) for Cython:
# the PRNG, the error report, events, the game interface (th_game), the
# generic ISMCTS and the batch runner. Declarations only: the binding code
# every game shares is compiled once, in threes/_engine.pyx, and reaches the
# games' extensions through threes/_engine.pxd.
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef extern from "common/rng.h" nogil:
    ctypedef struct th_rng:
        uint64_t s[4]
    void th_rng_seed(th_rng *r, uint64_t seed)
    uint64_t th_rng_next(th_rng *r)
    uint32_t th_rng_below(th_rng *r, uint32_t n)

cdef extern from "common/error.h" nogil:
    enum:
        TH_OK
        TH_ERR_RULES
        TH_ERR_PLAYERS
        TH_ERR_ACTION
        TH_ERR_ILLEGAL
        TH_ERR_SETUP
        TH_ERR_ARG
        TH_ERR_STOPPED
        TH_ERR_MEMORY
    ctypedef struct th_error:
        int code
        char msg[200]

cdef extern from "common/event.h" nogil:
    enum:
        TH_EVENT_MAX_CARDS
        TH_EVENT_MAX_MELDS
        TH_MAX_EVENTS
        TH_EVENT_NO_SEAT
    ctypedef struct th_event:
        uint8_t kind
        uint8_t seat
        uint8_t source
        uint8_t detail
        uint8_t is_private
        uint8_t num_melds
        uint16_t count
        int32_t value
        uint8_t meld_type[TH_EVENT_MAX_MELDS]
        uint8_t meld_len[TH_EVENT_MAX_MELDS]
        uint8_t cards[TH_EVENT_MAX_CARDS]
    ctypedef struct th_events:
        int n
        int overflow
        th_event ev[TH_MAX_EVENTS + 1]


cdef extern from "common/game.h" nogil:
    enum:
        TH_TERMINAL_PLAYER
    enum:
        TH_STOP_MOVES
    enum:
        TH_MAX_PLAYERS
    enum:
        TH_STATE_ALIGN
    ctypedef struct th_game:
        const char *name
        size_t state_size
        size_t (*state_bytes)(const void *s) noexcept nogil
        int max_players
        int max_actions
        int num_policies
        int (*check)(const void *s, th_error *e) noexcept nogil
        int (*current_player)(const void *s) noexcept nogil
        int (*is_over)(const void *s) noexcept nogil
        int (*legal_actions)(const void *s, uint16_t *out) noexcept nogil
        void (*apply_legal)(void *s, int action) noexcept nogil
        int (*resample)(void *s, int observer, th_rng *rng, th_error *e) noexcept nogil
        int (*policy_action)(const void *s, int policy, th_rng *rng) noexcept nogil
        void (*returns)(const void *s, double *out) noexcept nogil
        void (*new_game)(void *s, const void *like, uint64_t seed) noexcept nogil
        int (*is_truncated)(const void *s) noexcept nogil
        int (*observation_size)(const void *s) noexcept nogil
        void (*observe)(const void *s, int observer, float *out) noexcept nogil
        int (*is_legal)(const void *s, int action) noexcept nogil
        int (*num_players)(const void *s) noexcept nogil
        int (*num_actions)(const void *s) noexcept nogil
        int (*observation_high)(const void *s) noexcept nogil
        void (*events)(const void *before, const void *after, int action, th_events *out) noexcept nogil
        size_t (*observation_text)(const void *s, int observer, char *out, size_t cap) noexcept nogil
    enum:
        TH_MAX_STATE_BYTES
        TH_MAX_ACTIONS
        TH_OBS_TEXT_MAX
    ctypedef struct th_stop:
        int (*should_stop)(void *ctx) noexcept nogil
        void *ctx

cdef extern from "common/ismcts.h" nogil:
    ctypedef struct th_ismcts_node:
        pass
    ctypedef struct th_ismcts_config:
        uint32_t iterations
        double time_limit
        double exploration
        uint8_t rollout_policy
        uint64_t seed
        const th_stop *stop
    ctypedef struct th_ismcts_stats:
        uint32_t iterations
        uint32_t nodes
        int best_action
        int stopped
    int th_ismcts_search(const th_game *game, const void *root, const th_ismcts_config *cfg, th_ismcts_node *arena,
                         uint32_t capacity, th_ismcts_stats *stats, uint16_t *out_actions, uint32_t *out_visits,
                         double *out_values, int *out_children, th_error *e)

cdef extern from "common/batch.h" nogil:
    enum:
        TH_MAX_THREADS
    uint64_t th_batch_seed(uint64_t seed, uint64_t i)
    void th_batch_rng(uint64_t seed, uint64_t i, th_rng *rng)
    ctypedef struct th_play_batch:
        const th_game *game
        const void *start
        int fresh
        int observer
        const uint8_t *policy
        uint64_t seed
        int64_t first
        int64_t n
        double *returns
        uint32_t *moves
        uint8_t *truncated
    int th_play_games(const th_play_batch *b, int threads, const th_stop *stop, th_error *e)
