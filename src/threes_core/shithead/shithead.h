/* threes.h - the threes-core engine: one header for the whole C API.
 *
 * THE GAME (RULES.md is the specification; this is the short version).
 * Shithead family: every player has a hand, a face-up and a face-down zone of
 * cards_per_zone cards each. After a one-decision swap phase (D-1), players in
 * turn play one or more cards of one rank on the pile, first from the hand
 * (refilled from the draw pile), then from the face-up cards, then blind from
 * the face-down slots. A card must be >= the pile's effective top (looking past
 * invisible cards), or <= after a "lower" card, unless it is wild. Burn cards
 * and runs of run_to_burn cards of one rank burn the pile, and the burner plays
 * again. Who cannot play picks the pile up. The first out wins; the last
 * player with cards is the shithead. Presets: threes (default), classic, dutch.
 *
 * FILES (one concept per pair):
 *   rng.h      our PRNG: splitmix64-seeded xoshiro256**
 *   cards.h    ranks, suits, card kinds and physical card ids
 *   rules.h    the rule-set struct, presets, validation
 *   actions.h  THE ACTION MAP (dense ids, see there) and the sh_move value
 *   state.h    the fixed-size state; deal, legal actions, apply, returns,
 *              building a position, the invariant check
 *   rollout.h  policies (random, greedy, heuristic) and rollouts, batched
 *              over native threads
 *   game.h     sh_game: Shithead behind the generic th_game interface, for
 *              the generic search common/ismcts.h (th_ismcts_search)
 *
 * SAFETY. Every entry point that takes outside data (rules, player counts,
 * action ids, positions) checks it and reports through th_error; sh_apply_legal
 * and *_unchecked functions are for callers that have already checked. No
 * function allocates memory and every loop is bounded by the fixed sizes.
 */
#ifndef THREES_H
#define THREES_H

#include "shithead/actions.h"
#include "shithead/cards.h"
#include "common/rng.h"
#include "shithead/rules.h"
#include "shithead/state.h"
#include "shithead/rollout.h"
#include "shithead/determinize.h"
#include "shithead/observation.h"
#include "shithead/game.h"
#include "common/ismcts.h"

#endif
