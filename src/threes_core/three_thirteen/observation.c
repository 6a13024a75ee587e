/* observation.c - see observation.h. */
#include "three_thirteen/observation.h"

#include "common/text.h"

#include <string.h>

/* out[0 .. size) = 1 at `hot`, 0 elsewhere (hot -1: all 0); a loop the
 * compiler vectorizes, where a memset then a store cost more here. */
static inline void one_hot(float *out, int size, int hot) {
  for (int i = 0; i < size; i++) out[i] = (float)(i == hot);
}

/* out[0 .. TT_NUM_KINDS) = the counts of a card set (planes words): the
 * set bits of each word, few (a hand holds at most TT_MAX_HAND cards). */
static inline void put_set(float *out, const uint64_t *w, int planes) {
  for (int k = 0; k < TT_NUM_KINDS; k++) out[k] = 0.0f;
  for (int j = 0; j < planes; j++)
    for (uint64_t m = w[j]; m; m &= m - 1) out[th_ctz64(m)] += 1.0f;
}

int tt_observation_tensor(const tt_state *s, int p, float *out, th_error *e) {
  int n = s->num_players;
  if (p < 0 || p >= n) {
    th_set_error(e, TH_ERR_ARG, "observer must be a seat in 0..%d, not %d", n - 1, p);
    return TH_ERR_ARG;
  }
  /* Every block is written in full (no memset first). The pool's multiset
   * (tt_pool_count for every kind) and the discard pile's counts come from
   * one pass each; a kind's count never exceeds the decks' copies of it. */
  uint8_t pool[TT_NUM_KINDS] = {0}, discard[TT_NUM_KINDS] = {0};
  if (s->pool_active) {
    const uint8_t *stock = tt_cstock(s);
    for (int i = 0; i < s->stock_len && i < s->deck_size; i++)
      if (stock[i] < TT_NUM_KINDS) pool[stock[i]]++;
    for (int q = 0; q < n && q < TT_MAX_PLAYERS; q++)
      for (int j = 0; j < s->planes; j++)
        for (uint64_t m = tt_cset(s, q, TT_SET_POOL)[j]; m; m &= m - 1) pool[th_ctz64(m)]++;
  }
  for (int i = 0; i < s->discard_len && i < s->deck_size; i++)
    if (tt_discard_at(s, i) < TT_NUM_KINDS) discard[tt_discard_at(s, i)]++;
  put_set(out + tt_obs_own_hand(), tt_cset(s, p, TT_SET_HAND), s->planes);
  put_set(out + tt_obs_own_pool(), tt_cset(s, p, TT_SET_POOL), s->planes);
  for (int k = 0; k < TT_NUM_KINDS; k++) {
    out[tt_obs_pool(n) + k] = pool[k];
    out[tt_obs_discard(n) + k] = discard[k];
  }
  for (int j = 0, q = p; j < n; j++, q = q + 1 < n ? q + 1 : 0) { /* q = (p + j) % n */
    float *seat = out + tt_obs_seats(n) + j * TT_OBS_SEAT_FIELDS;
    int known = tt_known_len(s, q), held = tt_pool_held(s, q);
    put_set(out + tt_obs_known() + j * TT_NUM_KINDS, tt_cset(s, q, TT_SET_KNOWN), s->planes);
    seat[0] = s->hand_len[q];
    seat[1] = (float)known;
    seat[2] = (float)held;
    seat[3] = (float)((s->out_mask >> q) & 1);
    seat[4] = s->turns[q];
    out[tt_obs_totals(n) + j] = (float)tt_total(s, q);
  }
#define TT_REL(seat) ((seat) < n ? ((seat) - p + n) % n : -1) /* relative seat, -1 for none */
  one_hot(out + tt_obs_dealer(n), n, TT_REL(s->dealer));
  one_hot(out + tt_obs_to_move(n), n, s->phase != TT_PHASE_OVER ? TT_REL(s->current) : -1);
  one_hot(out + tt_obs_out(n), n + 1, s->out_seat == TT_NO_SEAT ? n : TT_REL(s->out_seat));
#undef TT_REL
  one_hot(out + tt_obs_top(n), TT_NUM_KINDS + 1, s->discard_len ? tt_discard_top(s) : TT_NUM_KINDS);
  out[tt_obs_piles(n) + 0] = s->stock_len;
  out[tt_obs_piles(n) + 1] = s->discard_len;
  out[tt_obs_piles(n) + 2] = s->pool_active;
  one_hot(out + tt_obs_taken(n), TT_NUM_KINDS + 1, s->taken_kind < TT_NUM_KINDS ? s->taken_kind : TT_NUM_KINDS);
  one_hot(out + tt_obs_round(n), TT_ROUNDS, s->round >= 1 && s->round <= TT_ROUNDS ? s->round - 1 : -1);
  out[tt_obs_final_turns(n)] = s->final_turns;
  one_hot(out + tt_obs_phase(n), 3, s->phase <= TT_PHASE_OVER ? s->phase : TT_PHASE_OVER);
  if (e) e->code = TH_OK;
  return TH_OK;
}

/* ------------------------------------------------------------------ text -- */

static void put_kind(th_text *t, int k, int *first) {
  static const char ranks[] = "A23456789TJQK", suits[] = "cdhs", jokers[] = "rb";
  if (!*first) th_put_char(t, ' ');
  *first = 0;
  if (k < 52) {
    th_put_char(t, ranks[k / 4]);
    th_put_char(t, suits[k % 4]);
  } else {
    th_put_char(t, 'X');
    th_put_char(t, jokers[(k - 52) & 1]);
  }
}

/* The cards of a per-kind count row, in kind order, or `none`. */
static void put_counts(th_text *t, const uint8_t *count, const char *none) {
  int first = 1;
  for (int k = 0; k < TT_NUM_KINDS; k++)
    for (int c = 0; c < count[k]; c++) put_kind(t, k, &first);
  if (first) th_put(t, none);
}

size_t tt_observation_text(const tt_state *s, int p, char *out, size_t cap) {
  static const char *const phases[] = {"draw", "discard", "over"};
  static const char ranks[] = "A23456789TJQK";
  th_text t = th_text_begin(out, cap);
  int n = s->num_players, over = s->phase == TT_PHASE_OVER;
  th_put(&t, "seat ");
  th_put_uint(&t, (unsigned)p);
  th_put(&t, " of ");
  th_put_uint(&t, (unsigned)n);
  th_put(&t, ", round ");
  th_put_uint(&t, s->round);
  th_put(&t, " (wild ");
  th_put_char(&t, ranks[(s->round + 1) % 13]);
  th_put(&t, "), ");
  th_put(&t, phases[s->phase <= TT_PHASE_OVER ? s->phase : TT_PHASE_OVER]);
  th_put(&t, ", to move ");
  if (over) th_put(&t, "-");
  else th_put_uint(&t, s->current);
  th_put(&t, "\nhand: ");
  uint8_t counts[TT_NUM_KINDS];
  tt_set_counts(tt_cset(s, p, TT_SET_HAND), s->planes, counts);
  put_counts(&t, counts, "-");
  th_put(&t, "\nhand sizes: [");
  for (int q = 0; q < n; q++) {
    if (q) th_put(&t, ", ");
    th_put_uint(&t, s->hand_len[q]);
  }
  th_put(&t, "]\ndiscard: ");
  {
    int first = 1;
    for (int i = 0; i < s->discard_len; i++) put_kind(&t, tt_discard_at(s, i), &first);
    if (first) th_put(&t, "-");
  }
  th_put(&t, "; stock ");
  th_put_uint(&t, s->stock_len);
  th_put(&t, "; taken ");
  if (s->taken_kind == TT_NO_KIND) {
    th_put(&t, "-");
  } else {
    int first = 1;
    put_kind(&t, s->taken_kind, &first);
  }
  th_put(&t, "\nknown in other hands: ");
  {
    int any = 0;
    for (int q = 0; q < n; q++)
      if (q != p && tt_cset(s, q, TT_SET_KNOWN)[0]) {
        if (any) th_put(&t, "; ");
        any = 1;
        th_put_uint(&t, (unsigned)q);
        th_put(&t, ": ");
        tt_set_counts(tt_cset(s, q, TT_SET_KNOWN), s->planes, counts);
        put_counts(&t, counts, "-");
      }
    if (!any) th_put(&t, "-");
  }
  th_put(&t, "\npool: ");
  if (!s->pool_active) {
    th_put(&t, "-");
  } else {
    int first = 1;
    for (int k = 0; k < TT_NUM_KINDS; k++)
      for (int c = tt_pool_count(s, k); c > 0; c--) put_kind(&t, k, &first);
    if (first) th_put(&t, "(empty)");
  }
  th_put(&t, "; pool cards held [");
  for (int q = 0; q < n; q++) {
    if (q) th_put(&t, ", ");
    th_put_uint(&t, (unsigned)tt_pool_held(s, q));
  }
  th_put(&t, "]; own pool cards ");
  tt_set_counts(tt_cset(s, p, TT_SET_POOL), s->planes, counts);
  put_counts(&t, counts, "-");
  th_put(&t, "\nout: ");
  if (s->out_seat == TT_NO_SEAT) th_put(&t, "-");
  else th_put_uint(&t, s->out_seat);
  th_put(&t, ", final turns ");
  th_put_uint(&t, s->final_turns);
  th_put(&t, "; scores [");
  for (int q = 0; q < n; q++) {
    if (q) th_put(&t, ", ");
    th_put_int(&t, tt_total(s, q));
  }
  th_put(&t, "]");
  return th_text_end(&t);
}
