/* rollout.c - policies, rollouts and batches; see rollout.h. */
#include "three_thirteen/rollout.h"

#include <string.h>

#include "three_thirteen/determinize.h"

/* ------------------------------------------------------------ policies -- */

/* The greedy policy's memo within one rollout: per seat, the deadwood of
 * its hand (`now`, the draw phase's comparison) and the best discard of its
 * hand (tt_best_discard), each keyed by everything it depends on in a
 * rollout (round, hand, and for the discard the kind taken this turn; the
 * options do not change). Exact: a hit returns what the search would. A
 * seat's hand changes only on its own moves, so the deadwood left by its
 * discard (the search's own result) is its `now` at its next turn, and a
 * take answers the discard phase that follows. */
typedef struct memo_entry {
  uint8_t set, round, taken;
  uint64_t hand[TT_MAX_DECKS]; /* the hand's card set (s->planes words) */
  int value, kind;
} memo_entry;

typedef struct greedy_memo {
  memo_entry now[TT_MAX_PLAYERS], discard[TT_MAX_PLAYERS];
} greedy_memo;

static int memo_hit(const memo_entry *m, const tt_state *s, int p, int taken) {
  return m->set && m->round == s->round && m->taken == taken &&
         !memcmp(m->hand, tt_cset(s, p, TT_SET_HAND), (size_t)s->planes * 8);
}

static void memo_put(memo_entry *m, int round, const uint64_t *hand, int planes, int taken, int value, int kind) {
  m->set = 1;
  m->round = (uint8_t)round;
  m->taken = (uint8_t)taken;
  memcpy(m->hand, hand, (size_t)planes * 8);
  m->value = value;
  m->kind = kind;
}

/* tt_best_discard_below, through the memo: the answer when the least
 * deadwood is below limit (TT_NO_LIMIT: always), else limit and kind -1,
 * which the memo does not keep. */
static int best_discard(const tt_state *s, int p, int limit, int *kind, greedy_memo *g) {
  if (g && memo_hit(&g->discard[p], s, p, s->taken_kind)) {
    *kind = g->discard[p].kind;
    return g->discard[p].value;
  }
  int d = tt_best_discard_below(s, p, limit, kind);
  if (g && *kind >= 0) memo_put(&g->discard[p], s->round, tt_cset(s, p, TT_SET_HAND), s->planes, s->taken_kind, d, *kind);
  return d;
}

/* In the discard phase after a draw from the stock: the deadwood of the
 * hand before the draw when the memo holds it (its `now`, kept by the last
 * discard or the draw phase), else TT_NO_LIMIT. Discarding the drawn card
 * leaves that hand, so the least deadwood is at most that: one more is a
 * limit that never cuts the answer, only the search (tt_best_discard_below). */
static int discard_limit(const tt_state *s, int p, const greedy_memo *g) {
  const memo_entry *m = &g->now[p];
  if (!m->set || m->round != s->round || s->taken_kind != TT_NO_KIND) return TT_NO_LIMIT;
  const uint64_t *hand = tt_cset(s, p, TT_SET_HAND);
  for (int i = 0; i < s->planes; i++)
    if (m->hand[i] & ~hand[i]) return TT_NO_LIMIT; /* not a part of the hand */
  if (tt_set_size(hand, s->planes) != tt_set_size(m->hand, s->planes) + 1) return TT_NO_LIMIT;
  return m->value + 1;
}

static int hand_deadwood(const tt_state *s, int p, greedy_memo *g) {
  if (g && memo_hit(&g->now[p], s, p, TT_NO_KIND)) return g->now[p].value;
  int d = tt_hand_deadwood(s, p);
  if (g) memo_put(&g->now[p], s->round, tt_cset(s, p, TT_SET_HAND), s->planes, TT_NO_KIND, d, -1);
  return d;
}

/* The greedy draw's question "does taking the discard c leave less deadwood
 * than now?" answered without a search, exactly, when the answer is no for
 * a reason seen at once: c is a natural with no possible partner in the hand
 * (tt_natural_isolated: deadwood in every arrangement), and no card d the
 * seat could discard instead is worth more than c. Then discarding c leaves
 * the hand as it is, and any other discard leaves dw(H + c - d) =
 * value(c) + dw(H - d) >= value(c) + dw(H) - value(d) >= dw(H) (a card
 * added to an arrangement as deadwood: dw(H) <= dw(H - d) + value(d)).
 * Returns 1 for that "no", 0 when the search must answer. */
static int take_cannot_help(const tt_state *s, int p, int c) {
  int wild = tt_wild_rank(s->round), r = tt_kind_rank(c);
  if (r == 0 || r == wild) return 0;
  const tt_meld_options *o = &s->opt.meld;
  int vc = tt_card_value(r, wild, o), w = 0;
  uint8_t nat[13][4];
  memset(nat, 0, sizeof nat);
  for (uint64_t m = tt_held_kinds(s, p); m; m &= m - 1) {
    int k = th_ctz64(m), h = tt_hand(s, p, k), rk = tt_kind_rank(k);
    if (k != c && tt_card_value(rk, wild, o) > vc) return 0; /* a dearer card to discard instead */
    if (rk == 0 || rk == wild)
      w += h;
    else
      nat[rk - 1][tt_kind_suit(k)] = (uint8_t)h;
  }
  return tt_natural_isolated((const uint8_t(*)[4])nat, w, r, tt_kind_suit(c), o->ace_either);
}

static int greedy_action(const tt_state *s, greedy_memo *g) {
  int p = s->current, k;
  if (s->phase == TT_PHASE_DRAW) {
    if (!s->discard_len) return TT_ACTION_STOCK;
    /* take the discard when the best discard afterwards leaves less deadwood than now */
    if (take_cannot_help(s, p, tt_discard_top(s))) return TT_ACTION_STOCK;
    tt_state t;
    memcpy(&t, s, tt_state_bytes(s));
    int top = tt_discard_top(&t);
    int now = hand_deadwood(s, p, g);
    tt_set_add(tt_set(&t, p, TT_SET_HAND), t.planes, top);
    t.hand_len[p]++;
    t.taken_kind = (uint8_t)top;
    return best_discard(&t, p, now, &k, g) < now ? TT_ACTION_TAKE_DISCARD : TT_ACTION_STOCK;
  }
  int best = best_discard(s, p, g ? discard_limit(s, p, g) : TT_NO_LIMIT, &k, g);
  if (k < 0) best = best_discard(s, p, TT_NO_LIMIT, &k, g); /* (a limit that cut: cannot happen, see discard_limit) */
  if (k < 0) return TT_FIRST_DISCARD; /* unreachable: a discard-phase hand always holds a card it may discard */
  if (g) { /* the hand after this discard keeps `best`: its `now` at this seat's next turn */
    uint64_t after[TT_MAX_DECKS];
    memcpy(after, tt_cset(s, p, TT_SET_HAND), (size_t)s->planes * 8);
    tt_set_remove(after, s->planes, k);
    memo_put(&g->now[p], s->round, after, s->planes, TT_NO_KIND, best, -1);
  }
  if (best == 0 && tt_may_go_out(s, p)) return TT_FIRST_GO_OUT + k;
  return TT_FIRST_DISCARD + k;
}

static int policy_action(const tt_state *s, int policy, th_rng *rng, greedy_memo *g) {
  if (s->phase == TT_PHASE_OVER) return -1;
  if (policy == TT_POLICY_GREEDY) return greedy_action(s, g);
  uint16_t buf[TT_NUM_ACTIONS];
  int n = tt_legal_actions(s, buf);
  return buf[th_rng_below(rng, (uint32_t)n)];
}

int tt_policy_action(const tt_state *s, int policy, th_rng *rng) { return policy_action(s, policy, rng, NULL); }

/* Plays with each seat's policy until the game is over or, with
 * round_only, the current round ends; asks `stop` (NULL: never) every
 * TH_STOP_MOVES moves and returns 1 as soon as it says stop, else 0. Every
 * step adds one move and the game ends at max_moves: bounded. Asking never
 * changes a move. */
static int play_on(tt_state *s, const uint8_t *policies, th_rng *rng, int round_only, const th_stop *stop) {
  int round = s->round;
  greedy_memo g;
  memset(&g, 0, sizeof g);
  for (uint32_t k = 1; s->phase != TT_PHASE_OVER && (!round_only || s->round == round); k++) {
    tt_apply_legal(s, policy_action(s, policies[s->current], rng, &g));
    if (k % TH_STOP_MOVES == 0 && s->phase != TT_PHASE_OVER && (!round_only || s->round == round) &&
        th_stop_now(stop))
      return 1;
  }
  return 0;
}

uint32_t tt_rollout(tt_state *s, const uint8_t *policies, th_rng *rng) {
  uint32_t start = s->move_count;
  play_on(s, policies, rng, 0, NULL);
  return s->move_count - start;
}

uint32_t tt_rollout_round(tt_state *s, const uint8_t *policies, th_rng *rng) {
  uint32_t start = s->move_count;
  play_on(s, policies, rng, 1, NULL);
  return s->move_count - start;
}

int tt_rollout_round_stoppable(tt_state *s, const uint8_t *policies, th_rng *rng, const th_stop *stop) {
  return play_on(s, policies, rng, 1, stop);
}

void tt_round_margin(const tt_state *s, int round, double *out) {
  int n = s->num_players;
  if (n < 2 || round < 1 || round > TT_ROUNDS) return;
  double sum = 0;
  for (int q = 0; q < n; q++) sum += tt_round_score(s, round, q);
  for (int q = 0; q < n; q++) {
    double own = tt_round_score(s, round, q), others = (sum - own) / (n - 1), v = (others - own) / 10.0;
    out[q] = v > 1.0 ? 1.0 : v < -1.0 ? -1.0 : v;
  }
}

/* ------------------------------------------------------------- batches -- */

/* Game i of the batch; returns 1 when `stop` said stop before its end (nothing recorded). */
static int play_game(const tt_batch *b, int64_t i, const th_stop *stop) {
  uint64_t g = (uint64_t)b->first + (uint64_t)i; /* the game's index in the whole batch */
  tt_state s;
  th_rng rng;
  const tt_state *t = b->start;
  if (b->fresh) {
    tt_new_game(&s, &t->opt, t->num_players, th_batch_seed(b->seed, g), t->max_moves, NULL);
    th_batch_rng(b->seed ^ g, 0, &rng);
  } else {
    memcpy(&s, t, tt_state_bytes(t));
    th_batch_rng(b->seed, g, &rng);
    if (b->determinize) tt_resample(&s, b->observer, &rng, NULL);
  }
  int r0 = s.round, n = s.num_players;
  uint32_t m0 = s.move_count;
  if (play_on(&s, b->policies, &rng, b->round_only, stop)) return 1;
  uint32_t m = s.move_count - m0;
  double ret[TT_MAX_PLAYERS];
  if (b->round_only)
    tt_round_margin(&s, r0, ret);
  else
    tt_returns(&s, ret);
  for (int q = 0; q < n; q++) {
    b->totals[i * n + q] = tt_total(&s, q);
    b->returns[i * n + q] = ret[q];
  }
  b->moves[i] = m;
  b->truncated[i] = s.truncated;
  return 0;
}

/* th_run_parts's part function over this game's batch. */
static void run_part(const void *ctx, int64_t lo, int64_t hi, const th_stop *stop) {
  const tt_batch *b = (const tt_batch *)ctx;
  for (int64_t i = lo; i < hi; i++)
    if (play_game(b, i, stop) || th_stop_now(stop)) return;
}

int tt_rollouts(const tt_batch *b, int threads, th_error *e) {
  if (!b->start) {
    th_set_error(e, TH_ERR_ARG, "a batch needs a start state (for fresh games, a template)");
    return TH_ERR_ARG;
  }
  if (b->n < 0 || b->first < 0) {
    th_set_error(e, TH_ERR_ARG, "the number of games and the first game index must be >= 0");
    return TH_ERR_ARG;
  }
  if (th_check_threads(threads, e)) return TH_ERR_ARG;
  if (b->fresh > 1 || b->determinize > 1 || b->round_only > 1) {
    th_set_error(e, TH_ERR_ARG, "fresh, determinize and round_only must be 0 or 1");
    return TH_ERR_ARG;
  }
  int rc = b->start_valid ? 0 : tt_state_check(b->start, e);
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
  if (th_run_parts(run_part, b, b->n, threads, b->stop)) {
    th_set_error(e, TH_ERR_STOPPED, "the batch was stopped before its end");
    return TH_ERR_STOPPED;
  }
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
