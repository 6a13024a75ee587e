/* rules.h - the rule set of RULES.md section 3 as a plain struct.
 *
 * Every parameter of the Shithead family lives here as data; the three presets
 * (threes, classic, dutch) are values of this struct. Rank sets are bit masks
 * over rank indexes (bit r = rank index r, see cards.h).
 */
#ifndef THREES_RULES_H
#define THREES_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "cards.h"

#define TH_MIN_PLAYERS 2
#define TH_MAX_PLAYERS 12
#define TH_MIN_CPZ 1
#define TH_MAX_CPZ 5 /* cards per zone; bounds the swap choices */
#define TH_MAX_RUN_TO_BURN 16
#define TH_NUM_START_SUITS (TH_NUM_SUITS)

enum { TH_RUNS_SKIP = 0, TH_RUNS_BREAK = 1 };
enum { TH_START_RANK_FROM_DEALER = 0, TH_START_RANK_SUIT = 1 };
enum { TH_PRESET_THREES = 0, TH_PRESET_CLASSIC = 1, TH_PRESET_DUTCH = 2, TH_NUM_PRESETS = 3 };

typedef struct th_rules {
  uint8_t decks;          /* decks shuffled together, 1..TH_MAX_DECKS */
  uint8_t jokers;         /* jokers per deck: 0, 1 (red) or 2 */
  uint8_t cards_per_zone; /* cards face down, face up and in hand */
  uint8_t lower_strict;   /* after a lower card: strictly lower (1) or <= (0) */
  uint16_t wild;          /* ranks playable on anything */
  uint16_t lower;         /* ranks after which the next must be lower */
  uint16_t invisible;     /* ranks that do not change the pile's value */
  uint16_t burn;          /* ranks that burn the pile */
  uint8_t run_to_burn;    /* cards of one rank in a row that burn; 0 = off */
  uint8_t invisible_in_runs; /* TH_RUNS_SKIP or TH_RUNS_BREAK */
  uint8_t burner_plays_again;
  uint8_t pickup_then_play;
  uint8_t merge_hand_with_face_up;
  uint8_t start;          /* TH_START_RANK_FROM_DEALER or TH_START_RANK_SUIT */
  uint8_t num_start_ranks;
  uint8_t num_start_suits;
  uint8_t start_ranks[TH_NUM_RANKS];     /* rank indexes, searched in order */
  uint8_t start_suits[TH_NUM_START_SUITS]; /* suit indexes 0..3, by priority */
} th_rules;

/* Error report for every checked entry point: code 0 means success. */
typedef struct th_error {
  int code;
  char msg[200];
} th_error;

enum {
  TH_OK = 0,
  TH_ERR_RULES = 1,   /* a rule set that is not valid */
  TH_ERR_PLAYERS = 2, /* a player count that does not fit the rules */
  TH_ERR_ACTION = 3,  /* an action id out of range for the game */
  TH_ERR_ILLEGAL = 4, /* an action not legal in this state */
  TH_ERR_SETUP = 5,   /* an impossible or malformed position */
  TH_ERR_ARG = 6      /* any other bad argument */
};

/* Sets *out to preset p; returns 0, or -1 for an unknown preset. */
int th_rules_preset(int preset, th_rules *out);

/* Checks the rule set on its own and, unless num_players is 0, that the
 * player count is in range and a deal for that many players fits. Returns 0
 * or an error code with e->msg set. */
int th_rules_validate(const th_rules *r, int num_players, th_error *e);

/* Cards in the whole deck: decks * (52 + jokers). */
static inline int th_rules_deck_size(const th_rules *r) {
  return r->decks * (TH_NUM_NORMAL_RANKS * TH_NUM_SUITS + r->jokers);
}

/* The most players a deal with these rules can seat (capped at TH_MAX_PLAYERS). */
int th_rules_max_players(const th_rules *r);

void th_set_error(th_error *e, int code, const char *fmt, ...);

#endif
