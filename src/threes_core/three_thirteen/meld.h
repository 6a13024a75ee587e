/* meld.h - exact minimum deadwood of a Three Thirteen hand (THREE_THIRTEEN.md).
 *
 * THE RULES SOLVED (spec sections Melds, Going out and scoring, Options,
 * decisions T-4 .. T-8).
 *   - A card of the round's wild rank, or a joker, is WILD; every other card is
 *     NATURAL. A wild card may stand for any card in a meld.
 *   - A set is 3 or more cards of one rank, any suits; identical cards (two
 *     decks) are allowed, e.g. 7h 7h 7s (T-4). A set has no upper size.
 *   - A run is 3 or more cards of one suit in consecutive ranks. Aces are low
 *     (A-2-3); with ace_either a run may also end Q-K-A, the ace being high;
 *     K-A-2 never (T-5). A run uses the ace as low OR high, never both, so a
 *     run has at most 13 positions (A..K, or 2..K-A with ace_either).
 *   - all_wild_melds (default on, T-6) allows melds of wild cards only. With it
 *     off every meld needs a natural card. A card of the wild rank never
 *     counts as natural for this rule, even where it could play itself: so with
 *     wild rank K, Ks Kh Kd is no meld without all_wild_melds (the spec's own
 *     example: deadwood 30). This is the only reading under which wild cards
 *     are interchangeable, and it is the one the examples require.
 *   - Every card lies in at most one meld; the deadwood is the total value of
 *     the cards in no meld, and the solver minimises that total (T-7), not the
 *     number of melds or melded cards.
 *   - Card values (tt_card_value): A 1 (15 with ace_either), 2..10 face, J Q K
 *     10, a joker 20, a card of the wild rank its face value under these rules
 *     (so a wild ace with ace_either is 15) or 20 with wild_penalty_20 (T-8).
 *   - Any multiset of cards is accepted (more copies than two decks hold are
 *     solved just the same).
 *
 * THE ALGORITHM and why it is exact.
 * 1. Wild cards are interchangeable: each can play any role in any meld, and
 *    (by the reading above) none is ever natural. So an arrangement only
 *    decides HOW MANY wilds it melds; the melded ones should be the dearest,
 *    and the r left over the r cheapest. The search counts wilds only.
 * 2. For counting, a run is its naturals' positions P and its length L: a
 *    window of L consecutive positions holding P fits among the 13 allowed
 *    ones whenever max(P) - min(P) + 1 <= L <= 13, and it takes L - |P|
 *    wilds. A set of k naturals takes max(0, 3 - k) wilds and any number more.
 * 3. Normal form. Every arrangement can be rewritten, with no more deadwood,
 *    into one where (a) every meld with naturals takes its minimum wilds, a
 *    set has 1..5 naturals, and a run has 2 or more naturals within 5
 *    consecutive positions: cut a longer run's window into consecutive pieces
 *    of 3..5 positions, drop the pieces without naturals, make a piece with
 *    one natural a set with two wilds; split a set of 6+ naturals in two.
 *    The same naturals stay melded and no piece needs more wilds than before.
 *    (b) The wilds so freed, and those left over, are then placed if they can
 *    be: all of them if there is a set (a set grows without limit) or, with
 *    all_wild_melds, if 3 or more remain (a meld of their own); otherwise up
 *    to 13 - L more in each run (the search tracks this capacity). When only
 *    runs hold naturals, the new runs hold up to 13 cards each and cutting
 *    never lowers their number, so they can take every wild the old runs
 *    held. Melding a wild never adds deadwood, so nothing is lost.
 * 4. Search over the normal form: the naturals are sorted by (rank, suit);
 *    the lowest one left, c, is deadwood, or in a set with a choice of the
 *    remaining cards of its rank, or the lowest natural of a run of its suit
 *    with a choice of the naturals 1..4 positions above (an ace, first in the
 *    order, is also tried as the top of a run ending Q-K-A when ace_either).
 *    Removing, step by step, the meld of the lowest natural of any
 *    normal-form arrangement follows these branches, so the minimum over them
 *    is at most the optimum; every branch is a real arrangement, so it is no
 *    lower. A natural with no possible partner (under 2 wilds left) is
 *    deadwood at once. States (naturals left, wilds left, capacity clamped to
 *    what the end can use) are memoised in a fixed 512-entry table on the
 *    stack with bounded probing; a state that finds no free slot is simply
 *    recomputed later, which is still exact. Copies of one card are taken
 *    lowest index first, so equal states look equal. The recursion depth is at
 *    most the number of naturals (14); the arrangement is rebuilt by replaying
 *    the branch that reaches the minimum at each step.
 * tests/c/test_meld.c checks all this against an exhaustive search over every
 * partition of the hand, and checks every returned arrangement.
 *
 * SAFETY: no allocation, no global state (reentrant, thread-safe), every loop
 * bounded, every argument checked.
 */
#ifndef THREES_THREE_THIRTEEN_MELD_H
#define THREES_THREE_THIRTEEN_MELD_H

#include <stdint.h>

#include "common/error.h"

#define TT_MAX_HAND 14

typedef struct tt_meld_options {
  uint8_t ace_either;      /* 1: runs may also end Q-K-A and a leftover ace scores 15 */
  uint8_t all_wild_melds;  /* 1 (default): a meld may consist of wild cards only */
  uint8_t wild_penalty_20; /* 1: a leftover wild card (of the wild rank) scores 20 instead of its face value */
} tt_meld_options;

typedef struct tt_arrangement {
  int deadwood; /* the minimum deadwood */
  int num_melds;
  uint8_t meld_type[TT_MAX_HAND]; /* 0 = set, 1 = run, per meld */
  uint8_t meld_len[TT_MAX_HAND];  /* cards per meld */
  uint8_t order[TT_MAX_HAND];     /* indexes into the input: meld 0's cards, meld 1's, ..., then the deadwood
                                      cards. A run's cards are in run order (wilds where they stand). */
  int num_deadwood;
} tt_arrangement;

enum { TT_MELD_SET = 0, TT_MELD_RUN = 1 };

/* cards: rank[i] 1..13 (A=1 .. K=13) or 0 for a joker; suit[i] 0..3 (c d h s),
 * ignored for jokers. wild_rank 1..13: the round's wild rank (jokers are always
 * wild). n 0..TT_MAX_HAND. o NULL means the defaults (ace low, all-wild melds
 * allowed, face-value wild penalty); each option must be 0 or 1.
 * Returns 0 and fills *out (which must not be NULL; out->deadwood is the
 * value), or TH_ERR_ARG with e set for bad input (n out of range, NULL arrays,
 * a rank or suit out of range, wild_rank out of range, an option not 0/1).
 * e may be NULL. Deterministic: the same input gives the same arrangement. */
int tt_min_deadwood(const uint8_t *rank, const uint8_t *suit, int n, int wild_rank, const tt_meld_options *o,
                     tt_arrangement *out, th_error *e);

/* Value of one leftover card under the options (A=1 or 15 with ace_either,
 * 2..10 face, J Q K 10, a joker 20, a card of the wild rank its face value or
 * 20 with wild_penalty_20). o NULL means the defaults. Returns -1 when rank is
 * not 0..13 or wild_rank not 1..13. */
int tt_card_value(int rank, int wild_rank, const tt_meld_options *o);

#endif
