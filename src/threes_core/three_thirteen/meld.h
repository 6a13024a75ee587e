/* meld.h - exact minimum deadwood of a Three Thirteen hand (docs/three_thirteen/RULES.md).
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
 *    what the end can use) are memoised in a table on the stack (64 to 256
 *    entries, by the hand's length) with bounded probing; a state that finds no free slot is simply
 *    recomputed later, which is still exact. Copies of one card are taken
 *    lowest index first, so equal states look equal. The recursion depth is at
 *    most the number of naturals (14); the arrangement is rebuilt by replaying
 *    the branch that reaches the minimum at each step.
 * 5. Dropping one card (tt_min_deadwood_drop_one): the minimum over the
 *    droppable cards d of the minimum deadwood of the hand without d, found in
 *    ONE search whose states carry a flag "the drop is still to make".
 *    (a) Copies of one card are interchangeable (the hand without one copy is
 *    the same multiset whichever copy goes), so a copy may be dropped when
 *    any copy of that card may. Wilds of one value are interchangeable too
 *    (the search counts them), so "drop a wild of value v" is one choice.
 *    (b) Dropping a natural d. Take an optimal arrangement A of the hand
 *    without d and remove, step by step, the meld of the lowest natural left,
 *    d still in the multiset: while the lowest natural is not of d's kind, it
 *    is also the lowest of the multiset without d, and A's meld for it is a
 *    branch of step 4, the flag kept; once it is of d's kind, the new branch
 *    "drop the lowest natural, at no cost, flag cleared" applies, and from
 *    there on the search is step 4 exactly. A forced-dead card (see step 4)
 *    is stripped without branching only when it cannot be dropped.
 *    (c) Dropping a wild. The search keeps counting all the wilds while the
 *    flag is set and drops one only at the end: there, with w wilds unplaced
 *    and capacity cap, it drops a wild of a droppable value v and leaves the
 *    r = (w-1) - min(cap, w-1) cheapest of the rest (0 when all_wild_melds and
 *    w-1 >= 3), or has no solution (w = 0). A path of step 4 on the hand
 *    without that wild (start w-1) is the same path here with one wild more
 *    unplaced at every step (its branches need no more wilds than they had),
 *    and ends at the same cost; a path here that ends with w >= 1 is such a
 *    path; capacities clamped to w instead of w-1 lose nothing, as the end
 *    only looks at min(cap, w-1). Extra wilds only make fewer cards
 *    forced-dead, so stripping stays exact. So the flag's states take the
 *    minimum of both kinds of drop, and one search needs no per-value pass.
 *    (d) Costs are scaled: deadwood * 512 + tie, the tie, (31 - value) * 16 +
 *    input index, added once by the drop. The search minimises the pair
 *    (deadwood, tie) exactly, so the answer is the least deadwood, then the
 *    dearest dropped card, then the lowest input index (the lowest droppable
 *    copy of that card, or wild of that value), read back from the tie.
 *    (e) Branch and bound: as the costs are totally ordered, the drop-one
 *    search may cut what cannot beat the best found so far without changing
 *    the minimum. Each state is searched with a bound (the best of its
 *    parent so far, less the branch's own cost); an answer at or above the
 *    bound is only a lower bound, and the memo marks it so (a later visit
 *    with a higher bound searches again). The melds are tried before the
 *    deadwood branch, so the first bounds are tight. A caller that only
 *    cares below some deadwood (tt_min_deadwood_drop_one_below: the greedy
 *    policy's "less than now?") starts with that bound.
 * tests/c/test_meld.c checks all this against an exhaustive search over every
 * partition of the hand, and checks every returned arrangement; for the drop,
 * against the minimum over every droppable card of the exhaustive deadwood.
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

/* tt_min_deadwood's deadwood alone (no arrangement), sooner: the search of
 * step 5 with no drop, as a branch and bound (step 5e). Arguments and errors
 * as tt_min_deadwood, out_deadwood for out (not NULL). */
int tt_min_deadwood_value(const uint8_t *rank, const uint8_t *suit, int n, int wild_rank, const tt_meld_options *o,
                          int *out_deadwood, th_error *e);

/* The best card to drop (docs/three_thirteen/RULES.md's greedy policy): the minimum,
 * over the cards i with droppable[i] == 1, of the minimum deadwood of the hand
 * without card i, in one search (meld.h step 5) instead of one
 * tt_min_deadwood call per card. n 1..TT_MAX_HAND: 14 is the largest hand
 * before a discard (13 dealt + 1 drawn), and the draw phase asks about the
 * hand of up to 13 plus the top discard, 14 again. Cards, wild_rank and o as
 * for tt_min_deadwood; droppable: n flags, each 0 or 1, at least one 1 (a copy
 * of a card is droppable when any copy is: the result is the same). Returns 0
 * with *out_deadwood set and, when out_index is not NULL, *out_index set to a
 * droppable index achieving it: among those, the card of the highest
 * tt_card_value, then the lowest index (so with the cards listed in kind
 * order, the greedy policy's choice). TH_ERR_ARG with e set for bad input (as
 * tt_min_deadwood, plus out_deadwood or droppable NULL, a flag not 0/1, no
 * flag set, n = 0). No allocation, reentrant, deterministic. */
int tt_min_deadwood_drop_one(const uint8_t *rank, const uint8_t *suit, int n, int wild_rank,
                             const tt_meld_options *o, const uint8_t *droppable, int *out_deadwood, int *out_index,
                             th_error *e);

/* tt_min_deadwood_drop_one when only a minimum below `limit` matters (the
 * greedy policy's "less deadwood than now?"): the same answer when the
 * minimum deadwood is below limit, else *out_deadwood = limit and
 * *out_index = -1 ("limit or more"), found sooner: the search is a branch
 * and bound (meld_search.inc) started with that bound. limit >= 0;
 * TT_NO_LIMIT (or more) for none. */
#define TT_NO_LIMIT 512
int tt_min_deadwood_drop_one_below(const uint8_t *rank, const uint8_t *suit, int n, int wild_rank,
                                   const tt_meld_options *o, const uint8_t *droppable, int limit, int *out_deadwood,
                                   int *out_index, th_error *e);

/* Whether some card i with droppable[i] == 1 leaves a hand of deadwood 0
 * (going out, T-2): *out_zero 1 or 0, the same answer as
 * tt_min_deadwood_drop_one's deadwood == 0, from the same search with the
 * branches that leave a card as deadwood cut off and an end at the first way
 * to 0 (much less work when there is none, the usual case). Arguments and
 * errors as tt_min_deadwood_drop_one, out_zero for out_deadwood. */
int tt_zero_deadwood_drop_one(const uint8_t *rank, const uint8_t *suit, int n, int wild_rank,
                              const tt_meld_options *o, const uint8_t *droppable, int *out_zero, th_error *e);

/* Whether a natural card of `rank` (1..13, not the wild rank) and `suit`
 * (0..3) can be in no meld of the hand or of any part of it: with w wilds in
 * the hand and its other naturals counted in nat[rank - 1][suit] (the card
 * itself not counted). With 2+ wilds never (it and two wilds are a set);
 * with 1 wild it needs one natural of its rank or of its suit 1 or 2
 * positions either side (with ace_either an ace is also position 14, after
 * the K); with none, two of its rank or two of those positions making a run
 * of 3 with it. Such a card is deadwood in every arrangement of the hand
 * and of any part of it that holds it. Returns 1 or 0 (0 for arguments out
 * of range). */
int tt_natural_isolated(const uint8_t nat[13][4], int w, int rank, int suit, int ace_either);

/* Value of one leftover card under the options (A=1 or 15 with ace_either,
 * 2..10 face, J Q K 10, a joker 20, a card of the wild rank its face value or
 * 20 with wild_penalty_20). o NULL means the defaults. Returns -1 when rank is
 * not 0..13 or wild_rank not 1..13. */
int tt_card_value(int rank, int wild_rank, const tt_meld_options *o);

#endif
