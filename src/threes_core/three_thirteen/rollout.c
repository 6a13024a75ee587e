/* rollout.c - policies, rollouts and batches; see rollout.h. */
#include "three_thirteen/rollout.h"

#include <string.h>

#include "three_thirteen/determinize.h"

/* ------------------------------------------------------------ policies -- */

/* Seat p's hand as the solver takes it (cards in kind order) with each
 * card's droppable flag (tt_may_discard); returns the number of cards. */
static int hand_cards(const tt_state *s, int p, uint8_t *rank, uint8_t *suit, uint8_t *kind, uint8_t *drop) {
  int n = 0;
  for (int k = 0; k < TT_NUM_KINDS; k++) {
    int may = tt_may_discard(s, p, k);
    for (int c = s->hand[p][k]; c > 0 && n < TT_MAX_HAND; c--) {
      rank[n] = (uint8_t)tt_kind_rank(k);
      suit[n] = (uint8_t)tt_kind_suit(k);
      kind[n] = (uint8_t)k;
      drop[n] = (uint8_t)may;
      n++;
    }
  }
  return n;
}

/* The least deadwood seat p can keep by discarding one card, and the kind
 * to discard: least deadwood, then the most valuable card, then the lowest
 * kind (one search of tt_min_deadwood_drop_one, meld.h, instead of one
 * solve per candidate). Returns the deadwood, or 1 << 20 (kind -1) when no
 * card may be discarded. */
static int best_discard(const tt_state *s, int p, int *kind_out) {
  uint8_t rank[TT_MAX_HAND], suit[TT_MAX_HAND], kind[TT_MAX_HAND], drop[TT_MAX_HAND];
  int n = hand_cards(s, p, rank, suit, kind, drop), d = 1 << 20, at = -1;
  *kind_out = -1;
  if (tt_min_deadwood_drop_one(rank, suit, n, tt_wild_rank(s->round), &s->opt.meld, drop, &d, &at, NULL) != TH_OK)
    return 1 << 20;
  *kind_out = kind[at];
  return d;
}

static int greedy_action(const tt_state *s) {
  int p = s->current, k;
  if (s->phase == TT_PHASE_DRAW) {
    if (!s->discard_len) return TT_ACTION_STOCK;
    /* take the discard when the best discard afterwards leaves less deadwood than now */
    tt_state t;
    memcpy(&t, s, sizeof t);
    int top = t.discard[t.discard_len - 1];
    int now = tt_hand_deadwood(s, p);
    t.hand[p][top]++;
    t.hand_len[p]++;
    t.taken_kind = (uint8_t)top;
    return best_discard(&t, p, &k) < now ? TT_ACTION_TAKE_DISCARD : TT_ACTION_STOCK;
  }
  int best = best_discard(s, p, &k);
  if (k < 0) return TT_FIRST_DISCARD; /* unreachable: a discard-phase hand always holds a card it may discard */
  if (best == 0 && tt_may_go_out(s, p)) return TT_FIRST_GO_OUT + k;
  return TT_FIRST_DISCARD + k;
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
  while (s->phase != TT_PHASE_OVER && s->round == round)
    tt_apply_legal(s, tt_policy_action(s, policies[s->current], rng));
  return s->move_count - start;
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

/* ------------------------------------------------------------- batches -- */

static void play_game(const tt_batch *b, int64_t i) {
  uint64_t g = (uint64_t)b->first + (uint64_t)i; /* the game's index in the whole batch */
  tt_state s;
  th_rng rng;
  const tt_state *t = b->start;
  if (b->fresh) {
    tt_new_game(&s, &t->opt, t->num_players, th_batch_seed(b->seed, g), t->max_moves, NULL);
    th_batch_rng(b->seed ^ g, 0, &rng);
  } else {
    memcpy(&s, t, sizeof s);
    th_batch_rng(b->seed, g, &rng);
    if (b->determinize) tt_resample(&s, b->observer, &rng, NULL);
  }
  int r0 = s.round, n = s.num_players;
  uint32_t m = b->round_only ? tt_rollout_round(&s, b->policies, &rng) : tt_rollout(&s, b->policies, &rng);
  double ret[TT_MAX_PLAYERS];
  if (b->round_only)
    tt_round_margin(&s, r0, ret);
  else
    tt_returns(&s, ret);
  for (int q = 0; q < n; q++) {
    b->totals[i * n + q] = s.total[q];
    b->returns[i * n + q] = ret[q];
  }
  b->moves[i] = m;
  b->truncated[i] = s.truncated;
}

static void play_part(const tt_batch *b, int64_t lo, int64_t hi) {
  for (int64_t i = lo; i < hi; i++) play_game(b, i);
}

/* th_run_parts's part function over this game's batch. */
static void run_part(const void *ctx, int64_t lo, int64_t hi) { play_part((const tt_batch *)ctx, lo, hi); }

int tt_rollouts(const tt_batch *b, int threads, th_error *e) {
  if (!b->start) {
    th_set_error(e, TH_ERR_ARG, "a batch needs a start state (for fresh games, a template)");
    return TH_ERR_ARG;
  }
  if (b->n < 0 || b->first < 0) {
    th_set_error(e, TH_ERR_ARG, "the number of games and the first game index must be >= 0");
    return TH_ERR_ARG;
  }
  if (threads < 1 || threads > TH_MAX_THREADS) {
    th_set_error(e, TH_ERR_ARG, "threads must be between 1 and %d, not %d", TH_MAX_THREADS, threads);
    return TH_ERR_ARG;
  }
  if (b->fresh > 1 || b->determinize > 1 || b->round_only > 1) {
    th_set_error(e, TH_ERR_ARG, "fresh, determinize and round_only must be 0 or 1");
    return TH_ERR_ARG;
  }
  int rc = tt_state_check(b->start, e);
  if (rc) return rc;
  int n = b->start->num_players;
  if (b->determinize) {
    if (b->fresh) {
      th_set_error(e, TH_ERR_ARG, "an observer needs a start state: fresh deals hide nothing to resample");
      return TH_ERR_ARG;
    }
    if (b->observer >= n) {
      th_set_error(e, TH_ERR_ARG, "observer must be a seat in 0..%d, not %d", n - 1, b->observer);
      return TH_ERR_ARG;
    }
  }
  for (int q = 0; q < n; q++)
    if (b->policies[q] >= TT_NUM_POLICIES) {
      th_set_error(e, TH_ERR_ARG, "policy %d of seat %d does not exist", b->policies[q], q);
      return TH_ERR_ARG;
    }
  if (b->n > 0 && (!b->totals || !b->returns || !b->moves || !b->truncated)) {
    th_set_error(e, TH_ERR_ARG, "the batch's output arrays are missing");
    return TH_ERR_ARG;
  }
  th_run_parts(run_part, b, b->n, threads);
  if (e) e->code = TH_OK;
  return TH_OK;
}

/* ------------------------------------------------------------ benchmark -- */

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
