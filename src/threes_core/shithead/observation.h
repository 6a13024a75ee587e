/* observation.h - what one seat can know, as a flat tensor of floats.
 *
 * The observation of seat p is everything p can know (RULES.md section 2):
 * its own hand, every face-up card, the pile, the burned cards, the size of
 * every zone, the publicly known cards of every hand, who is out, whose turn
 * it is and the phase. Nothing hidden from p enters it: two states that
 * differ only in cards p cannot see have the same tensor.
 *
 * Seats are relative to the observer: relative seat j is seat (p + j) mod N,
 * so the observer is always j = 0 and j = 1 plays after it. Counts are raw
 * card counts (floats), flags are 0 or 1. With R = SH_NUM_RANKS ranks (2 .. A,
 * then the joker) and N players, the blocks in order are:
 *
 *   block              size      content
 *   own hand           R         cards of each rank in p's hand
 *   face up            N * R     per relative seat, cards of each rank face up
 *   known in hand      N * R     per relative seat, publicly known hand cards per rank
 *   seat sizes         N * 3     per relative seat: hand size, face-down cards, 1 if out
 *   pile               R         cards of each rank in the pile
 *   effective top      R + 1     one-hot rank of the effective top; last = open pile
 *   run                R + 1     one-hot rank of the run at the top (last = none), then
 *                                 its length in the next block
 *   pile sizes         2         run length, cards in the pile
 *   burned             R         burned cards of each rank
 *   draw pile          1         cards in the draw pile
 *   to move            N         one-hot relative seat of the player to move (none when over)
 *   phase              3         one-hot: swap, play, over
 *
 * The pile's order is not in the tensor (only its counts, top and run); the
 * Python observation keeps it.
 */
#ifndef THREES_SHITHEAD_OBSERVATION_H
#define THREES_SHITHEAD_OBSERVATION_H

#include <stddef.h>

#include "shithead/state.h"

#define SH_OBS_SEAT_FIELDS 3

/* Offsets of the blocks for n players, built from each other. */
static inline int sh_obs_own_hand(void) { return 0; }
static inline int sh_obs_face_up(void) { return sh_obs_own_hand() + SH_NUM_RANKS; }
static inline int sh_obs_known(int n) { return sh_obs_face_up() + n * SH_NUM_RANKS; }
static inline int sh_obs_seats(int n) { return sh_obs_known(n) + n * SH_NUM_RANKS; }
static inline int sh_obs_pile(int n) { return sh_obs_seats(n) + n * SH_OBS_SEAT_FIELDS; }
static inline int sh_obs_top(int n) { return sh_obs_pile(n) + SH_NUM_RANKS; }
static inline int sh_obs_run(int n) { return sh_obs_top(n) + SH_NUM_RANKS + 1; }
static inline int sh_obs_pile_sizes(int n) { return sh_obs_run(n) + SH_NUM_RANKS + 1; }
static inline int sh_obs_burned(int n) { return sh_obs_pile_sizes(n) + 2; }
static inline int sh_obs_draw(int n) { return sh_obs_burned(n) + SH_NUM_RANKS; }
static inline int sh_obs_to_move(int n) { return sh_obs_draw(n) + 1; }
static inline int sh_obs_phase(int n) { return sh_obs_to_move(n) + n; }
static inline int sh_obs_size(int n) { return sh_obs_phase(n) + 3; }

/* Writes the observation of seat `observer` into out (sh_obs_size(N) floats).
 * Returns 0, or TH_ERR_ARG for an observer that is not a seat. */
int sh_observation_tensor(const sh_state *s, int observer, float *out, th_error *e);

/* The observation of seat `observer` (a seat, not checked) as text, the
 * format of threes.shithead.observation.observation_string: written into
 * out (cap >= 1; NUL-terminated, at most cap - 1 characters); returns the length of
 * the whole text, so a return >= cap means it was cut (SH_OBS_TEXT_MAX is
 * always enough). */
#define SH_OBS_TEXT_MAX 4096
size_t sh_observation_text(const sh_state *s, int observer, char *out, size_t cap);

#endif
