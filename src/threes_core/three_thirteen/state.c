/* thirteen.c - Three Thirteen; see thirteen.h and THREE_THIRTEEN.md. */
#include "three_thirteen/state.h"

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

/* ------------------------------------------------------------ the deal -- */

static void deal_round(tt_state *s) {
  uint8_t deck[TT_MAX_CARDS];
  int n = 0;
  for (int d = 0; d < s->opt.decks && d < TT_MAX_DECKS; d++) {
    for (int k = 0; k < 52; k++) deck[n++] = (uint8_t)k;
    for (int j = 0; j < s->opt.jokers && j < 2; j++) deck[n++] = (uint8_t)(52 + j);
  }
  th_shuffle_bytes(deck, n, &s->rng);
  memset(s->hand, 0, sizeof s->hand);
  memset(s->hand_len, 0, sizeof s->hand_len);
  memset(s->turns, 0, sizeof s->turns);
  int per = s->round + 2, top = n, np = s->num_players;
  for (int c = 0; c < per; c++)
    for (int j = 1; j <= np; j++) {
      int q = (s->dealer + j) % np;
      s->hand[q][deck[--top]]++;
      s->hand_len[q]++;
    }
  s->discard[0] = deck[--top]; /* the stock's top card turned up */
  s->discard_len = 1;
  memcpy(s->stock, deck, (size_t)top);
  s->stock_len = (uint16_t)top;
  s->current = (uint8_t)((s->dealer + 1) % np);
  s->turns[s->current] = 1;
  s->phase = TT_PHASE_DRAW;
  s->out_seat = TT_NO_SEAT;
  s->final_turns = 0;
  s->out_mask = 0;
  s->taken_kind = TT_NO_KIND;
}

int tt_new_game(tt_state *s, const tt_options *o, int n, uint64_t seed, uint32_t max_moves, th_error *e) {
  int rc = tt_options_validate(o, n, e);
  if (rc) return rc;
  memset(s, 0, sizeof *s);
  s->opt = *o;
  s->num_players = (uint8_t)n;
  s->max_moves = max_moves ? max_moves : TT_DEFAULT_MAX_MOVES;
  th_rng_seed(&s->rng, seed);
  s->dealer = (uint8_t)th_rng_below(&s->rng, (uint32_t)n);
  s->round = 1;
  deal_round(s);
  if (e) e->code = TH_OK;
  return TH_OK;
}

/* ------------------------------------------------------------ deadwood -- */

/* Deadwood of seat p's hand with one card of kind `less` left out (or none). */
static int deadwood_without(const tt_state *s, int p, int less) {
  uint8_t rank[TT_MAX_HAND + 2], suit[TT_MAX_HAND + 2];
  int n = 0, skipped = less == TT_NO_KIND;
  for (int k = 0; k < TT_NUM_KINDS; k++)
    for (int c = s->hand[p][k]; c > 0; c--) {
      if (!skipped && k == less) {
        skipped = 1;
        continue;
      }
      if (n < TT_MAX_HAND) {
        rank[n] = (uint8_t)tt_kind_rank(k);
        suit[n] = (uint8_t)tt_kind_suit(k);
        n++;
      }
    }
  tt_arrangement a;
  if (tt_min_deadwood(rank, suit, n, tt_wild_rank(s->round), &s->opt.meld, &a, NULL) != TH_OK) return 1 << 20;
  return a.deadwood;
}

int tt_hand_deadwood(const tt_state *s, int p) { return deadwood_without(s, p, TT_NO_KIND); }

/* --------------------------------------------------------------- legal -- */

static int may_discard(const tt_state *s, int p, int k) {
  if (!s->hand[p][k]) return 0;
  return !(k == s->taken_kind && s->hand[p][k] == 1 && !s->opt.rediscard_taken);
}

static int may_go_out(const tt_state *s, int p) {
  return s->opt.go_out_first_turn || s->turns[p] > 1;
}

int tt_legal_actions(const tt_state *s, uint16_t *out) {
  int n = 0, p = s->current;
  if (s->phase == TT_PHASE_OVER) return 0;
  if (s->phase == TT_PHASE_DRAW) {
    out[n++] = TT_ACTION_STOCK;
    if (s->discard_len > 0) out[n++] = TT_ACTION_TAKE_DISCARD;
    return n;
  }
  for (int k = 0; k < TT_NUM_KINDS; k++)
    if (may_discard(s, p, k)) out[n++] = (uint16_t)(TT_FIRST_DISCARD + k);
  if (may_go_out(s, p))
    for (int k = 0; k < TT_NUM_KINDS; k++)
      if (may_discard(s, p, k) && deadwood_without(s, p, k) == 0) out[n++] = (uint16_t)(TT_FIRST_GO_OUT + k);
  return n;
}

int tt_is_legal(const tt_state *s, int a) {
  if (s->phase == TT_PHASE_OVER || a < 0 || a >= TT_NUM_ACTIONS) return 0;
  int p = s->current;
  if (s->phase == TT_PHASE_DRAW) return a == TT_ACTION_STOCK || (a == TT_ACTION_TAKE_DISCARD && s->discard_len);
  if (a < TT_FIRST_DISCARD) return 0;
  if (a < TT_FIRST_GO_OUT) return may_discard(s, p, a - TT_FIRST_DISCARD);
  int k = a - TT_FIRST_GO_OUT;
  return may_go_out(s, p) && may_discard(s, p, k) && deadwood_without(s, p, k) == 0;
}

/* --------------------------------------------------------------- apply -- */

static void score_round(tt_state *s) {
  for (int q = 0; q < s->num_players; q++) {
    int v = (s->out_mask >> q) & 1 ? 0 : tt_hand_deadwood(s, q);
    s->round_score[s->round - 1][q] = (int16_t)v;
    s->total[q] += v;
  }
  if (s->round == TT_ROUNDS) {
    s->phase = TT_PHASE_OVER;
    s->current = TT_NO_SEAT;
    return;
  }
  s->round++;
  s->dealer = (uint8_t)((s->dealer + 1) % s->num_players);
  deal_round(s);
}

/* T-3: the discard pile less its top card, shuffled, becomes the stock. */
static void reshuffle(tt_state *s) {
  if (s->discard_len <= 1) return;
  int n = s->discard_len - 1;
  memcpy(s->stock, s->discard, (size_t)n);
  th_shuffle_bytes(s->stock, n, &s->rng);
  s->stock_len = (uint16_t)n;
  s->discard[0] = s->discard[n];
  s->discard_len = 1;
}

static void end_turn(tt_state *s, int p, int went_out) {
  s->taken_kind = TT_NO_KIND;
  if (went_out) s->out_mask |= (uint8_t)(1u << p);
  if (s->out_seat == TT_NO_SEAT) {
    if (went_out) {
      s->out_seat = (uint8_t)p;
      s->final_turns = (uint8_t)(s->num_players - 1);
    }
  } else if (s->final_turns > 0) {
    s->final_turns--;
  }
  if (s->out_seat != TT_NO_SEAT && s->final_turns == 0) {
    score_round(s);
    return;
  }
  int q = (p + 1) % s->num_players;
  s->current = (uint8_t)q;
  if (s->turns[q] < 255) s->turns[q]++;
  s->phase = TT_PHASE_DRAW;
}

void tt_apply_legal(tt_state *s, int a) {
  int p = s->current;
  if (a == TT_ACTION_STOCK) {
    if (s->stock_len == 0) reshuffle(s);
    if (s->stock_len == 0) { /* T-3: nothing to draw: the round ends and is scored */
      score_round(s);
    } else {
      int k = s->stock[--s->stock_len];
      s->hand[p][k]++;
      s->hand_len[p]++;
      s->phase = TT_PHASE_DISCARD;
    }
  } else if (a == TT_ACTION_TAKE_DISCARD) {
    int k = s->discard[--s->discard_len];
    s->hand[p][k]++;
    s->hand_len[p]++;
    s->taken_kind = (uint8_t)k;
    s->phase = TT_PHASE_DISCARD;
  } else {
    int out = a >= TT_FIRST_GO_OUT, k = a - (out ? TT_FIRST_GO_OUT : TT_FIRST_DISCARD);
    s->hand[p][k]--;
    s->hand_len[p]--;
    s->discard[s->discard_len++] = (uint8_t)k;
    end_turn(s, p, out);
  }
  s->move_count++;
  if (s->phase != TT_PHASE_OVER && s->move_count >= s->max_moves) {
    s->phase = TT_PHASE_OVER;
    s->current = TT_NO_SEAT;
    s->truncated = 1;
  }
}

int tt_apply_action(tt_state *s, int a, th_error *e) {
  if (a < 0 || a >= TT_NUM_ACTIONS) {
    th_set_error(e, TH_ERR_ACTION, "action %d is out of range: ids are 0..%d", a, TT_NUM_ACTIONS - 1);
    return TH_ERR_ACTION;
  }
  if (!tt_is_legal(s, a)) {
    th_set_error(e, TH_ERR_ILLEGAL, s->phase == TT_PHASE_OVER ? "action %d is not legal: the game is over"
                                                                : "action %d is not legal for seat %d now",
                 a, s->current);
    return TH_ERR_ILLEGAL;
  }
  tt_apply_legal(s, a);
  if (e) e->code = TH_OK;
  return TH_OK;
}

/* ------------------------------------------------------------- the end -- */

void tt_returns(const tt_state *s, double *out) {
  int n = s->num_players;
  for (int q = 0; q < n; q++) out[q] = 0.0;
  if (s->phase != TT_PHASE_OVER || n < 2) return;
  tt_standings(s, out);
}

void tt_standings(const tt_state *s, double *out) {
  int n = s->num_players;
  if (n < 2) return;
  for (int q = 0; q < n; q++) {
    int below = 0, equal = 0; /* seats with a lower total, and with the same total (q included) */
    for (int r = 0; r < n; r++) {
      below += s->total[r] < s->total[q];
      equal += s->total[r] == s->total[q];
    }
    double place = below + (equal - 1) / 2.0; /* the mean of the shared places */
    out[q] = (n - 1 - 2 * place) / (double)(n - 1);
  }
}

int tt_state_check(const tt_state *s, th_error *e) {
  th_error re;
  if (tt_options_validate(&s->opt, s->num_players, &re)) {
    th_set_error(e, TH_ERR_SETUP, "the state's options are not valid: %s", re.msg);
    return TH_ERR_SETUP;
  }
  int n = s->num_players;
  int count[TT_NUM_KINDS] = {0};
  for (int q = 0; q < n; q++) {
    int len = 0;
    for (int k = 0; k < TT_NUM_KINDS; k++) {
      len += s->hand[q][k];
      count[k] += s->hand[q][k];
    }
    if (len != s->hand_len[q]) {
      th_set_error(e, TH_ERR_SETUP, "seat %d's hand length %d does not match its cards (%d)", q, s->hand_len[q], len);
      return TH_ERR_SETUP;
    }
  }
  if (s->stock_len > TT_MAX_CARDS || s->discard_len > TT_MAX_CARDS) {
    th_set_error(e, TH_ERR_SETUP, "the stock or discard pile is too long");
    return TH_ERR_SETUP;
  }
  for (int i = 0; i < s->stock_len; i++) {
    if (s->stock[i] >= TT_NUM_KINDS) {
      th_set_error(e, TH_ERR_SETUP, "the stock holds a card that does not exist");
      return TH_ERR_SETUP;
    }
    count[s->stock[i]]++;
  }
  for (int i = 0; i < s->discard_len; i++) {
    if (s->discard[i] >= TT_NUM_KINDS) {
      th_set_error(e, TH_ERR_SETUP, "the discard pile holds a card that does not exist");
      return TH_ERR_SETUP;
    }
    count[s->discard[i]]++;
  }
  for (int k = 0; k < TT_NUM_KINDS; k++) {
    int want = k < 52 ? s->opt.decks : (k - 52 < s->opt.jokers ? s->opt.decks : 0);
    if (count[k] != want) {
      th_set_error(e, TH_ERR_SETUP, "kind %d: %d cards in the game, the deck has %d", k, count[k], want);
      return TH_ERR_SETUP;
    }
  }
  if (s->round < 1 || s->round > TT_ROUNDS || s->dealer >= n || s->phase > TT_PHASE_OVER ||
      (s->phase != TT_PHASE_OVER && s->current >= n)) {
    th_set_error(e, TH_ERR_SETUP, "round, dealer, phase or current player out of range");
    return TH_ERR_SETUP;
  }
  for (int q = 0; q < n; q++)
    if (s->hand_len[q] > TT_MAX_HAND) {
      th_set_error(e, TH_ERR_SETUP, "seat %d holds %d cards: at most %d", q, s->hand_len[q], TT_MAX_HAND);
      return TH_ERR_SETUP;
    }
  if ((s->out_seat != TT_NO_SEAT && s->out_seat >= n) || s->final_turns >= n || (s->out_mask >> n) ||
      (s->taken_kind != TT_NO_KIND && s->taken_kind >= TT_NUM_KINDS) ||
      (s->out_seat == TT_NO_SEAT && (s->final_turns || s->out_mask))) {
    th_set_error(e, TH_ERR_SETUP, "the going-out fields (out seat, final turns, out mask) or the taken card are "
                 "out of range");
    return TH_ERR_SETUP;
  }
  if (e) e->code = TH_OK;
  return TH_OK;
}

/* ---------------------------------------------------------- resampling -- */

int tt_resample(tt_state *s, int observer, th_rng *rng, th_error *e) {
  if (observer < 0 || observer >= s->num_players) {
    th_set_error(e, TH_ERR_ARG, "observer must be a seat in 0..%d, not %d", s->num_players - 1, observer);
    return TH_ERR_ARG;
  }
  uint8_t pool[TT_MAX_CARDS];
  int n = 0;
  for (int q = 0; q < s->num_players; q++)
    if (q != observer)
      for (int k = 0; k < TT_NUM_KINDS; k++)
        for (int c = 0; c < s->hand[q][k] && n < TT_MAX_CARDS; c++) pool[n++] = (uint8_t)k;
  for (int i = 0; i < s->stock_len && n < TT_MAX_CARDS; i++) pool[n++] = s->stock[i];
  /* kind order first, so the result depends only on what the observer knows */
  int cnt[TT_NUM_KINDS] = {0};
  for (int i = 0; i < n; i++) cnt[pool[i]]++;
  n = 0;
  for (int k = 0; k < TT_NUM_KINDS; k++)
    for (int c = 0; c < cnt[k]; c++) pool[n++] = (uint8_t)k;
  th_shuffle_bytes(pool, n, rng);
  int next = 0;
  for (int q = 0; q < s->num_players; q++) {
    if (q == observer) continue;
    memset(s->hand[q], 0, sizeof s->hand[q]);
    for (int i = 0; i < s->hand_len[q] && next < n; i++) s->hand[q][pool[next++]]++;
  }
  for (int i = 0; i < s->stock_len && next < n; i++) s->stock[i] = pool[next++];
  th_rng_seed(&s->rng, ((uint64_t)th_rng_below(rng, 0xFFFFFFFFu) << 32) | th_rng_below(rng, 0xFFFFFFFFu));
  if (e) e->code = TH_OK;
  return TH_OK;
}

/* ------------------------------------------------------------ policies -- */

static int greedy_action(const tt_state *s) {
  int p = s->current;
  if (s->phase == TT_PHASE_DRAW) {
    if (!s->discard_len) return TT_ACTION_STOCK;
    /* take the discard when the best discard afterwards leaves less deadwood than now */
    tt_state t = *s;
    int k = t.discard[t.discard_len - 1];
    int now = tt_hand_deadwood(s, p);
    t.hand[p][k]++;
    t.hand_len[p]++;
    t.taken_kind = (uint8_t)k;
    int best = 1 << 20;
    for (int x = 0; x < TT_NUM_KINDS; x++)
      if (may_discard(&t, p, x)) {
        int d = deadwood_without(&t, p, x);
        if (d < best) best = d;
      }
    return best < now ? TT_ACTION_TAKE_DISCARD : TT_ACTION_STOCK;
  }
  int best = 1 << 20, best_k = -1, best_value = -1;
  for (int x = 0; x < TT_NUM_KINDS; x++)
    if (may_discard(s, p, x)) {
      int d = deadwood_without(s, p, x);
      int v = tt_card_value(tt_kind_rank(x), tt_wild_rank(s->round), &s->opt.meld);
      /* least deadwood left; among equals, shed the most valuable card */
      if (d < best || (d == best && v > best_value)) {
        best = d;
        best_k = x;
        best_value = v;
      }
    }
  if (best == 0 && may_go_out(s, p)) return TT_FIRST_GO_OUT + best_k;
  return TT_FIRST_DISCARD + best_k;
}

int tt_policy_action(const tt_state *s, int policy, th_rng *rng) {
  if (s->phase == TT_PHASE_OVER) return -1;
  if (policy == TT_POLICY_GREEDY) return greedy_action(s);
  uint16_t buf[TT_NUM_ACTIONS];
  int n = tt_legal_actions(s, buf);
  return buf[th_rng_below(rng, (uint32_t)n)];
}

uint32_t tt_rollout(tt_state *s, const uint8_t *policies, th_rng *rng) {
  uint32_t start = s->move_count;
  /* each step adds one move and the game ends at max_moves: bounded */
  while (s->phase != TT_PHASE_OVER) tt_apply_legal(s, tt_policy_action(s, policies[s->current], rng));
  return s->move_count - start;
}

uint32_t tt_rollout_round(tt_state *s, const uint8_t *policies, th_rng *rng) {
  uint32_t start = s->move_count;
  int round = s->round;
  while (s->phase != TT_PHASE_OVER && s->round == round) tt_apply_legal(s, tt_policy_action(s, policies[s->current], rng));
  return s->move_count - start;
}

uint64_t tt_bench_solver(uint64_t seed, int hands, int solve) {
  th_rng rng;
  th_rng_seed(&rng, seed);
  tt_meld_options o = {0, 1, 0};
  uint64_t sum = 0;
  for (int i = 0; i < hands; i++) {
    int wr = 1 + (int)th_rng_below(&rng, 13), w = i % 9;
    uint8_t rank[TT_MAX_HAND], suit[TT_MAX_HAND];
    for (int c = 0; c < TT_MAX_HAND; c++) {
      if (c < w) { /* a wild card: a joker or a card of the wild rank */
        int joker = th_rng_below(&rng, 4) == 0;
        rank[c] = (uint8_t)(joker ? 0 : wr);
        suit[c] = (uint8_t)th_rng_below(&rng, 4);
      } else { /* a natural card: any rank but the wild one */
        int r = 1 + (int)th_rng_below(&rng, 12);
        rank[c] = (uint8_t)(r >= wr ? r + 1 : r);
        suit[c] = (uint8_t)th_rng_below(&rng, 4);
      }
    }
    if (solve) {
      tt_arrangement a;
      tt_min_deadwood(rank, suit, TT_MAX_HAND, wr, &o, &a, NULL);
      sum += (uint64_t)a.deadwood;
    } else {
      sum += rank[i % TT_MAX_HAND];
    }
  }
  return sum;
}

void tt_round_margin(const tt_state *s, int round, double *out) {
  int n = s->num_players;
  if (n < 2 || round < 1 || round > TT_ROUNDS) return;
  double sum = 0;
  for (int q = 0; q < n; q++) sum += s->round_score[round - 1][q];
  for (int q = 0; q < n; q++) {
    double own = s->round_score[round - 1][q], others = (sum - own) / (n - 1), v = (others - own) / 10.0;
    out[q] = v > 1.0 ? 1.0 : v < -1.0 ? -1.0 : v;
  }
}
