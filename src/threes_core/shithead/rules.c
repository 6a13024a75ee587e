/* rules.c - presets and validation of the rule set (RULES.md section 3). */
#include "shithead/rules.h"

#include <string.h>

#define R(i) ((uint16_t)(1u << (i)))
/* Rank indexes: 2->0, 3->1, ..., T->8, J->9, Q->10, K->11, A->12, X->13. */
enum { R2 = 0, R3, R4, R5, R6, R7, R8, R9, RT, RJ, RQ, RK, RA, RX };
enum { SC = 0, SD = 1, SH = 2, SS = 3 };

static void base(sh_rules *r) {
  memset(r, 0, sizeof *r);
  r->decks = 1;
  r->cards_per_zone = 3;
  r->lower = R(R7);
  r->burn = R(RT);
  r->burner_plays_again = 1;
}

static void set_ranks(sh_rules *r, const uint8_t *ranks, int n) {
  r->num_start_ranks = (uint8_t)n;
  memcpy(r->start_ranks, ranks, (size_t)n);
}

static void set_suits(sh_rules *r, const uint8_t *suits, int n) {
  r->num_start_suits = (uint8_t)n;
  memcpy(r->start_suits, suits, (size_t)n);
}

int sh_rules_preset(int preset, sh_rules *r) {
  base(r);
  switch (preset) {
    case SH_PRESET_THREES: {
      static const uint8_t ranks[] = {R3, R4, R5, R6, R7, R8, R9, RT, RJ, RQ, RK, RA, R2, RX};
      r->decks = 2;
      r->jokers = 2;
      r->wild = R(R2) | R(R8) | R(RX);
      r->invisible = R(R8);
      r->burn = R(RT) | R(RX);
      r->run_to_burn = 4;
      r->invisible_in_runs = SH_RUNS_SKIP;
      r->pickup_then_play = 1;
      r->start = SH_START_RANK_FROM_DEALER;
      set_ranks(r, ranks, (int)sizeof ranks);
      return 0;
    }
    case SH_PRESET_CLASSIC: {
      static const uint8_t ranks[] = {R4, R5, R6, R7, R8, R9, RT, RJ, RQ, RK, RA, R2, R3};
      static const uint8_t suits[] = {SH, SD, SC, SS};
      r->wild = R(R2) | R(R3) | R(RT);
      r->invisible = R(R3);
      r->run_to_burn = 4;
      r->invisible_in_runs = SH_RUNS_BREAK;
      r->pickup_then_play = 0;
      r->start = SH_START_RANK_SUIT;
      set_ranks(r, ranks, (int)sizeof ranks);
      set_suits(r, suits, (int)sizeof suits);
      return 0;
    }
    case SH_PRESET_DUTCH: {
      static const uint8_t ranks[] = {R3, R4, R5, R6, R7, R8, R9, RT, RJ, RQ, RK, RA, R2};
      static const uint8_t suits[] = {SC, SD, SH, SS};
      r->wild = R(R2);
      r->lower_strict = 1;
      r->invisible = R(R9);
      r->run_to_burn = 0;
      r->invisible_in_runs = SH_RUNS_BREAK;
      r->pickup_then_play = 1;
      r->start = SH_START_RANK_SUIT;
      set_ranks(r, ranks, (int)sizeof ranks);
      set_suits(r, suits, (int)sizeof suits);
      return 0;
    }
    default:
      return -1;
  }
}

int sh_rules_max_players(const sh_rules *r) {
  int per_player = 3 * (int)r->cards_per_zone;
  if (per_player <= 0) return 0;
  int n = sh_rules_deck_size(r) / per_player;
  return n > SH_MAX_PLAYERS ? SH_MAX_PLAYERS : n;
}

int sh_rules_validate(const sh_rules *r, int num_players, th_error *e) {
  if (r->decks < 1 || r->decks > SH_MAX_DECKS)
    return th_set_error(e, TH_ERR_RULES, "decks must be between 1 and %d, not %d", SH_MAX_DECKS, r->decks),
           TH_ERR_RULES;
  if (r->jokers > 2)
    return th_set_error(e, TH_ERR_RULES, "jokers must be 0, 1 or 2 per deck, not %d", r->jokers), TH_ERR_RULES;
  if (r->cards_per_zone < SH_MIN_CPZ || r->cards_per_zone > SH_MAX_CPZ)
    return th_set_error(e, TH_ERR_RULES, "cards_per_zone must be between %d and %d, not %d", SH_MIN_CPZ,
                        SH_MAX_CPZ, r->cards_per_zone),
           TH_ERR_RULES;
  uint16_t masks[4] = {r->wild, r->lower, r->invisible, r->burn};
  for (int i = 0; i < 4; i++)
    if (masks[i] & (uint16_t)~SH_ALL_RANKS_MASK)
      return th_set_error(e, TH_ERR_RULES, "a rank set names a rank outside 2..A and joker"), TH_ERR_RULES;
  if (r->lower_strict > 1 || r->burner_plays_again > 1 || r->pickup_then_play > 1 ||
      r->merge_hand_with_face_up > 1)
    return th_set_error(e, TH_ERR_RULES, "a yes/no rule holds a value other than 0 or 1"), TH_ERR_RULES;
  if (r->run_to_burn == 1 || r->run_to_burn > SH_MAX_RUN_TO_BURN)
    return th_set_error(e, TH_ERR_RULES, "run_to_burn must be 0 (off) or between 2 and %d, not %d",
                        SH_MAX_RUN_TO_BURN, r->run_to_burn),
           TH_ERR_RULES;
  if (r->repetition_limit == 1)
    return th_set_error(e, TH_ERR_RULES,
                        "repetition_limit must be 0 (off) or between 2 and 255, not 1 (every position occurs once)"),
           TH_ERR_RULES;
  if (r->invisible_in_runs > SH_RUNS_BREAK)
    return th_set_error(e, TH_ERR_RULES, "invisible_in_runs must be skip or break"), TH_ERR_RULES;
  if (r->start > SH_START_RANK_SUIT)
    return th_set_error(e, TH_ERR_RULES, "start must be rank-from-dealer or rank-suit"), TH_ERR_RULES;
  if (r->num_start_ranks > SH_NUM_RANKS || r->num_start_suits > SH_NUM_START_SUITS)
    return th_set_error(e, TH_ERR_RULES, "too many start ranks or start suits"), TH_ERR_RULES;
  uint32_t seen = 0;
  for (int i = 0; i < r->num_start_ranks; i++) {
    int k = r->start_ranks[i];
    if (k >= SH_NUM_RANKS || (seen & (1u << k)))
      return th_set_error(e, TH_ERR_RULES, "start_ranks must list distinct ranks"), TH_ERR_RULES;
    seen |= 1u << k;
  }
  seen = 0;
  for (int i = 0; i < r->num_start_suits; i++) {
    int k = r->start_suits[i];
    if (k >= SH_NUM_SUITS || (seen & (1u << k)))
      return th_set_error(e, TH_ERR_RULES, "start_suits must list distinct suits among c d h s"), TH_ERR_RULES;
    seen |= 1u << k;
  }
  if (num_players != 0) {
    if (num_players < SH_MIN_PLAYERS || num_players > SH_MAX_PLAYERS)
      return th_set_error(e, TH_ERR_PLAYERS, "num_players must be between %d and %d, not %d", SH_MIN_PLAYERS,
                          SH_MAX_PLAYERS, num_players),
             TH_ERR_PLAYERS;
    int need = num_players * 3 * r->cards_per_zone, have = sh_rules_deck_size(r);
    if (need > have)
      return th_set_error(e, TH_ERR_PLAYERS,
                          "%d players need %d cards (3 zones of %d) but the deck has %d; these rules seat at "
                          "most %d players",
                          num_players, need, r->cards_per_zone, have, sh_rules_max_players(r)),
             TH_ERR_PLAYERS;
  }
  if (e) e->code = TH_OK;
  return TH_OK;
}
