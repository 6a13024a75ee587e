/* determinize.h - resampling the cards a seat cannot see (determinization).
 *
 * What seat p can know (RULES.md section 2): its own hand, every face-up card,
 * the pile, the burned cards, the size of every zone and the publicly known
 * cards of every hand. Hidden from p: the other hands' unknown cards, every
 * face-down card (p's own included) and the draw pile.
 *
 * sh_resample deals the hidden cards again, uniformly at random, into the same
 * hidden places: every assignment of the hidden cards to those places is
 * equally likely (a Fisher-Yates shuffle of the hidden cards). Everything p
 * can see stays exactly where it is, known cards included. The result depends
 * only on what p knows and on the rng: the hidden cards are taken in kind
 * order and the places in a fixed order (seats in order: unknown hand cards,
 * then face-down slots; then the draw pile, bottom first), so two states that
 * p cannot tell apart give the same position for the same rng.
 */
#ifndef THREES_SHITHEAD_DETERMINIZE_H
#define THREES_SHITHEAD_DETERMINIZE_H

#include "common/rng.h"
#include "shithead/state.h"

/* The number of cards hidden from `observer` in s. */
int sh_hidden_count(const sh_state *s, int observer);

/* Resamples s in place from the view of `observer` (see above). Returns 0, or
 * TH_ERR_ARG for an observer that is not a seat (s is then unchanged). */
int sh_resample(sh_state *s, int observer, th_rng *rng, th_error *e);

#endif
