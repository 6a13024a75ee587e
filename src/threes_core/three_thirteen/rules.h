/* rules.h - Three Thirteen's cards, sizes and options (docs/three_thirteen/RULES.md,
 * sections Cards and players, Options; decisions T-1, T-2, T-6, T-8).
 *
 * Cards are kinds (copies of one kind are interchangeable): kind =
 * 4 * (rank - 1) + suit for rank 1..13 (A..K) and suit 0..3 (c d h s); 52 and
 * 53 are the red and black jokers. A game holds `decks` copies of each of
 * the 52 natural kinds and `decks` copies of each of the first `jokers`
 * joker kinds.
 */
#ifndef THREES_THREE_THIRTEEN_RULES_H
#define THREES_THREE_THIRTEEN_RULES_H

#include <stdint.h>

#include "common/error.h"
#include "three_thirteen/meld.h"

#define TT_MIN_PLAYERS 2
#define TT_MAX_PLAYERS 8
#define TT_MAX_DECKS 4
#define TT_NUM_KINDS 54
#define TT_MAX_CARDS (TT_MAX_DECKS * TT_NUM_KINDS)
#define TT_ROUNDS 11

typedef struct tt_options {
  uint8_t decks;  /* 52-card decks, 1..4 (default ceil(players / 2), T-1) */
  uint8_t jokers; /* jokers per deck, 0..2 */
  tt_meld_options meld;      /* ace_either, all_wild_melds (T-6), wild_penalty_20 (T-8) */
  uint8_t rediscard_taken;   /* the card taken from the discard pile may be discarded the same turn (T-2) */
  uint8_t go_out_first_turn; /* a player may go out on their first turn of a round */
} tt_options;

static inline int tt_kind_rank(int kind) { return kind >= 52 ? 0 : kind / 4 + 1; } /* 0 = joker */
static inline int tt_kind_suit(int kind) { return kind >= 52 ? kind - 52 : kind % 4; }
static inline int tt_wild_rank(int round) { return round + 2; }

/* Copies of kind k in a game with these options (0 for a kind not in the deck). */
static inline int tt_kind_copies(const tt_options *o, int k) {
  if (k < 0 || k >= TT_NUM_KINDS) return 0;
  return k < 52 ? o->decks : (k - 52 < o->jokers ? o->decks : 0);
}

/* Defaults of docs/three_thirteen/RULES.md for a player count. */
void tt_options_default(int num_players, tt_options *out);
/* 0, or an error code with e set (bad values, or too few cards for round 11). */
int tt_options_validate(const tt_options *o, int num_players, th_error *e);

/* Bounds on scores (Going out and scoring), for the checks of setup.c and
 * tt_state_check: the most one card left over can score in round `round`
 * (1..11; tt_card_value over the ranks in the deck, jokers only when the deck
 * has them), the most a hand of that round (round + 2 cards) can score, and
 * the most a total can be after the first `rounds` rounds are scored (the sum
 * of those rounds' bounds). Small: at most 11 * 13 * 20. */
int tt_max_card_value(const tt_options *o, int round);
int tt_max_round_score(const tt_options *o, int round);
int tt_max_total(const tt_options *o, int rounds);

#endif
