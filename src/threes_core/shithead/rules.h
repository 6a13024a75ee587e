/* rules.h - the rule set of RULES.md section 3 as a plain struct.
 *
 * Every parameter of the Shithead family lives here as data; the three presets
 * (threes, classic, dutch) are values of this struct. Rank sets are bit masks
 * over rank indexes (bit r = rank index r, see cards.h).
 */
#ifndef THREES_SHITHEAD_RULES_H
#define THREES_SHITHEAD_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "shithead/cards.h"

#define SH_MIN_PLAYERS 2
#define SH_MAX_PLAYERS 12
#define SH_MIN_CPZ 1
#define SH_MAX_CPZ 5 /* cards per zone; bounds the swap choices */
#define SH_MAX_RUN_TO_BURN 16
#define SH_NUM_START_SUITS (SH_NUM_SUITS)

enum { SH_RUNS_SKIP = 0, SH_RUNS_BREAK = 1 };
enum { SH_START_RANK_FROM_DEALER = 0, SH_START_RANK_SUIT = 1 };
enum { SH_PRESET_THREES = 0, SH_PRESET_CLASSIC = 1, SH_PRESET_DUTCH = 2, SH_NUM_PRESETS = 3 };

typedef struct sh_rules {
  uint8_t decks;          /* decks shuffled together, 1..SH_MAX_DECKS */
  uint8_t jokers;         /* jokers per deck: 0, 1 (red) or 2 */
  uint8_t cards_per_zone; /* cards face down, face up and in hand */
  uint8_t lower_strict;   /* after a lower card: strictly lower (1) or <= (0) */
  uint16_t wild;          /* ranks playable on anything */
  uint16_t lower;         /* ranks after which the next must be lower */
  uint16_t invisible;     /* ranks that do not change the pile's value */
  uint16_t burn;          /* ranks that burn the pile */
  uint8_t run_to_burn;    /* cards of one rank in a row that burn; 0 = off */
  uint8_t invisible_in_runs; /* SH_RUNS_SKIP or SH_RUNS_BREAK */
  uint8_t burner_plays_again;
  uint8_t pickup_then_play;
  uint8_t merge_hand_with_face_up;
  uint8_t start;          /* SH_START_RANK_FROM_DEALER or SH_START_RANK_SUIT */
  uint8_t num_start_ranks;
  uint8_t num_start_suits;
  uint8_t start_ranks[SH_NUM_RANKS];     /* rank indexes, searched in order */
  uint8_t start_suits[SH_NUM_START_SUITS]; /* suit indexes 0..3, by priority */
  uint8_t repetition_limit; /* a game ends as a stalemate when a position occurs this often (section 7);
                               0 = off, else 2..255 */
} sh_rules;

/* Sets *out to preset p; returns 0, or -1 for an unknown preset. */
int sh_rules_preset(int preset, sh_rules *out);

/* Checks the rule set on its own and, unless num_players is 0, that the
 * player count is in range and a deal for that many players fits. Returns 0
 * or an error code with e->msg set. */
int sh_rules_validate(const sh_rules *r, int num_players, th_error *e);

/* Cards in the whole deck: decks * (52 + jokers). */
static inline int sh_rules_deck_size(const sh_rules *r) {
  return r->decks * (SH_NUM_NORMAL_RANKS * SH_NUM_SUITS + r->jokers);
}

/* The most players a deal with these rules can seat (capped at SH_MAX_PLAYERS). */
int sh_rules_max_players(const sh_rules *r);


#endif
