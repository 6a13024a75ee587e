/* observation.h - what one seat can know, as a flat tensor of floats
 * (docs/three_thirteen/RULES.md, What each player knows; T-9).
 *
 * The observation of seat p holds only what p can know: its own hand (and
 * which of its cards are pool cards), the known cards of every hand, every
 * count, the discard pile, the pool's multiset, scores, round, turn. Two
 * states that differ only in cards p cannot see (tt_resample from p) have
 * the same tensor.
 *
 * Seats are relative to the observer: relative seat j is seat (p + j) mod N.
 * Counts are raw card counts, flags 0 or 1, totals raw points. K =
 * TT_NUM_KINDS, N players; the blocks in order:
 *
 *   block           size     content
 *   own hand        K        cards of each kind in p's hand
 *   own pool        K        of those, the pool cards (drawn from the reshuffled stock)
 *   known           N * K    per relative seat, its known cards per kind (T-9)
 *   seats           N * 5    per relative seat: hand size, known cards, pool cards held,
 *                            1 if out this round, turns begun this round
 *   discard         K        cards of each kind in the discard pile
 *   discard top     K + 1    one-hot kind of its top card; last = empty pile
 *   pool            K        the pool's cards of each kind (0 with no pool)
 *   piles           3        stock size, discard pile size, 1 if a pool is active
 *   taken           K + 1    one-hot kind taken from the pile this turn; last = none
 *   round           11       one-hot round (its wild rank follows)
 *   dealer          N        one-hot relative seat of the dealer
 *   to move         N        one-hot relative seat to move (none when over)
 *   going out       N + 1    one-hot relative seat that went out first (last = none),
 *                            then final turns left in the next block
 *   final turns     1        turns left after the first seat went out
 *   phase           3        one-hot: draw, discard, over
 *   totals          N        per relative seat, its total score so far
 *
 * The discard pile's order is not in the tensor (only its counts and top);
 * the Python observation keeps it.
 */
#ifndef THREES_THREE_THIRTEEN_OBSERVATION_H
#define THREES_THREE_THIRTEEN_OBSERVATION_H

#include <stddef.h>

#include "three_thirteen/state.h"

#define TT_OBS_SEAT_FIELDS 5

static inline int tt_obs_own_hand(void) { return 0; }
static inline int tt_obs_own_pool(void) { return tt_obs_own_hand() + TT_NUM_KINDS; }
static inline int tt_obs_known(void) { return tt_obs_own_pool() + TT_NUM_KINDS; }
static inline int tt_obs_seats(int n) { return tt_obs_known() + n * TT_NUM_KINDS; }
static inline int tt_obs_discard(int n) { return tt_obs_seats(n) + n * TT_OBS_SEAT_FIELDS; }
static inline int tt_obs_top(int n) { return tt_obs_discard(n) + TT_NUM_KINDS; }
static inline int tt_obs_pool(int n) { return tt_obs_top(n) + TT_NUM_KINDS + 1; }
static inline int tt_obs_piles(int n) { return tt_obs_pool(n) + TT_NUM_KINDS; }
static inline int tt_obs_taken(int n) { return tt_obs_piles(n) + 3; }
static inline int tt_obs_round(int n) { return tt_obs_taken(n) + TT_NUM_KINDS + 1; }
static inline int tt_obs_dealer(int n) { return tt_obs_round(n) + TT_ROUNDS; }
static inline int tt_obs_to_move(int n) { return tt_obs_dealer(n) + n; }
static inline int tt_obs_out(int n) { return tt_obs_to_move(n) + n; }
static inline int tt_obs_final_turns(int n) { return tt_obs_out(n) + n + 1; }
static inline int tt_obs_phase(int n) { return tt_obs_final_turns(n) + 1; }
static inline int tt_obs_totals(int n) { return tt_obs_phase(n) + 3; }
static inline int tt_obs_size(int n) { return tt_obs_totals(n) + n; }

/* Writes the observation of seat `observer` into out (tt_obs_size(N)
 * floats). Returns 0, or TH_ERR_ARG for an observer that is not a seat. */
int tt_observation_tensor(const tt_state *s, int observer, float *out, th_error *e);

/* The observation of seat p (a seat, not checked) as text, the format of
 * threes.three_thirteen.game's observation string: written into out (cap >=
 * 1; NUL-terminated, at most cap - 1 characters); returns the length of the
 * whole text, so a return >= cap means it was cut (TT_OBS_TEXT_MAX is
 * always enough). */
#define TT_OBS_TEXT_MAX 4096
size_t tt_observation_text(const tt_state *s, int p, char *out, size_t cap);

#endif
