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
 *
 * One more thing p knows at the start of play (the play phase, no card played
 * yet): who starts, so which hands held no start card (RULES.md section 5).
 * There a deal is redrawn until the start rule picks the same seat on it,
 * which keeps it uniform among the deals consistent with that; after
 * SH_RESAMPLE_TRIES (1000) shuffles a constructive deal follows, consistent
 * but not exactly uniform (the start cards p cannot rule out kept out of the
 * hands searched before the starter, one in the starter's hand). Elsewhere
 * one shuffle, as before. The start rule's constraint on hands later in the
 * game (cards held since the start mixed with cards drawn) is not modelled
 * here: the OpenSpiel adapter checks a resample against the whole history.
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
