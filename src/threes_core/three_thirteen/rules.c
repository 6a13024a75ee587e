/* rules.c - options and their validation; see rules.h. */
#include "three_thirteen/rules.h"

#include <string.h>

void tt_options_default(int num_players, tt_options *out) {
  memset(out, 0, sizeof *out);
  int d = (num_players + 1) / 2;
  out->decks = (uint8_t)(d < 1 ? 1 : d > TT_MAX_DECKS ? TT_MAX_DECKS : d);
  out->meld.all_wild_melds = 1;
  out->go_out_first_turn = 1;
}

int tt_options_validate(const tt_options *o, int n, th_error *e) {
  if (n < TT_MIN_PLAYERS || n > TT_MAX_PLAYERS) {
    th_set_error(e, TH_ERR_PLAYERS, "num_players must be between %d and %d, not %d", TT_MIN_PLAYERS,
                 TT_MAX_PLAYERS, n);
    return TH_ERR_PLAYERS;
  }
  if (o->decks < 1 || o->decks > TT_MAX_DECKS) {
    th_set_error(e, TH_ERR_RULES, "decks must be between 1 and %d, not %d", TT_MAX_DECKS, o->decks);
    return TH_ERR_RULES;
  }
  if (o->jokers > 2) {
    th_set_error(e, TH_ERR_RULES, "jokers per deck must be 0, 1 or 2, not %d", o->jokers);
    return TH_ERR_RULES;
  }
  if (o->meld.ace_either > 1 || o->meld.all_wild_melds > 1 || o->meld.wild_penalty_20 > 1 ||
      o->rediscard_taken > 1 || o->go_out_first_turn > 1) {
    th_set_error(e, TH_ERR_RULES, "the on/off options must be 0 or 1");
    return TH_ERR_RULES;
  }
  int cards = o->decks * (52 + o->jokers), need = n * (TT_ROUNDS + 2) + 1;
  if (cards < need) {
    th_set_error(e, TH_ERR_PLAYERS, "%d players need %d cards for round 11 (13 each and a discard); %d deck(s) "
                 "hold %d", n, need, o->decks, cards);
    return TH_ERR_PLAYERS;
  }
  return TH_OK;
}

int tt_max_card_value(const tt_options *o, int round) {
  int best = 0;
  if (round < 1 || round > TT_ROUNDS) return 0;
  for (int rank = o->jokers ? 0 : 1; rank <= 13; rank++) {
    int v = tt_card_value(rank, tt_wild_rank(round), &o->meld);
    if (v > best) best = v;
  }
  return best;
}

int tt_max_round_score(const tt_options *o, int round) {
  return round < 1 || round > TT_ROUNDS ? 0 : (round + 2) * tt_max_card_value(o, round);
}

int tt_max_total(const tt_options *o, int rounds) {
  int sum = 0;
  for (int r = 1; r <= rounds && r <= TT_ROUNDS; r++) sum += tt_max_round_score(o, r);
  return sum;
}
