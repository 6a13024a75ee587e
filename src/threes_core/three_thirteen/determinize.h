/* determinize.h - resampling what one seat cannot see (docs/three_thirteen/RULES.md,
 * What each player knows; T-9).
 *
 * tt_resample deals the cards `observer` cannot see again at random, keeping
 * everything the observer knows (state.h, KNOWLEDGE):
 *   - fixed: the observer's hand (and which of its cards are pool cards),
 *     every known card in every hand, the discard pile in order, every count
 *     (hand sizes, known and pool cards per seat, the stock's size), scores,
 *     turn, phase;
 *   - the ORDINARY hidden cards (the other hands' cards that are neither
 *     known nor pool cards, and the stock when there is no pool) are shuffled
 *     among the ordinary slots: each other hand's unknown non-pool places,
 *     then the stock when there is no pool;
 *   - the POOL's hidden cards (the pool less the observer's own pool cards)
 *     are shuffled among the pool places: each other hand's pool places
 *     (tt_pool_held), then the stock.
 *   Each class is a uniform random permutation of its cards over its slots,
 *   so every physical deal that agrees with the public record and the
 *   observer's own cards is equally likely. It is exact for what the record
 *   holds; it does not reason about the players' choices (a card a player
 *   declined to take is not less likely in its hand), and after the pool is
 *   dissolved (state.h) pool cards count as ordinary ones.
 * Both classes are gathered in kind order before shuffling, so the result
 * depends only on what the observer knows and on rng; with no known and no
 * pool cards it is exactly the earlier uniform resampling. Finally the
 * state's chance stream is reseeded from rng. */
#ifndef THREES_THREE_THIRTEEN_DETERMINIZE_H
#define THREES_THREE_THIRTEEN_DETERMINIZE_H

#include "common/rng.h"
#include "three_thirteen/state.h"

int tt_resample(tt_state *s, int observer, th_rng *rng, th_error *e);

#endif
