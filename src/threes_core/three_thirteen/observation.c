/* observation.c - see observation.h. */
#include "three_thirteen/observation.h"

#include "common/text.h"

#include <string.h>

int tt_observation_tensor(const tt_state *s, int p, float *out, th_error *e) {
  int n = s->num_players;
  if (p < 0 || p >= n) {
    th_set_error(e, TH_ERR_ARG, "observer must be a seat in 0..%d, not %d", n - 1, p);
    return TH_ERR_ARG;
  }
  memset(out, 0, sizeof(float) * (size_t)tt_obs_size(n));
  for (int k = 0; k < TT_NUM_KINDS; k++) {
    out[tt_obs_own_hand() + k] = s->hand[p][k];
    out[tt_obs_own_pool() + k] = s->pool_hand[p][k];
    out[tt_obs_pool(n) + k] = (float)tt_pool_count(s, k);
  }
  for (int j = 0; j < n; j++) {
    int q = (p + j) % n;
    float *seat = out + tt_obs_seats(n) + j * TT_OBS_SEAT_FIELDS;
    for (int k = 0; k < TT_NUM_KINDS; k++) out[tt_obs_known() + j * TT_NUM_KINDS + k] = s->known[q][k];
    seat[0] = s->hand_len[q];
    seat[1] = (float)tt_known_len(s, q);
    seat[2] = (float)tt_pool_held(s, q);
    seat[3] = (float)((s->out_mask >> q) & 1);
    seat[4] = s->turns[q];
    out[tt_obs_totals(n) + j] = (float)s->total[q];
    if (q == s->dealer) out[tt_obs_dealer(n) + j] = 1;
    if (s->phase != TT_PHASE_OVER && q == s->current) out[tt_obs_to_move(n) + j] = 1;
    if (q == s->out_seat) out[tt_obs_out(n) + j] = 1;
  }
  if (s->out_seat == TT_NO_SEAT) out[tt_obs_out(n) + n] = 1;
  for (int i = 0; i < s->discard_len && i < TT_MAX_CARDS; i++) out[tt_obs_discard(n) + s->discard[i]] += 1;
  out[tt_obs_top(n) + (s->discard_len ? s->discard[s->discard_len - 1] : TT_NUM_KINDS)] = 1;
  out[tt_obs_piles(n) + 0] = s->stock_len;
  out[tt_obs_piles(n) + 1] = s->discard_len;
  out[tt_obs_piles(n) + 2] = s->pool_active;
  out[tt_obs_taken(n) + (s->taken_kind < TT_NUM_KINDS ? s->taken_kind : TT_NUM_KINDS)] = 1;
  if (s->round >= 1 && s->round <= TT_ROUNDS) out[tt_obs_round(n) + s->round - 1] = 1;
  out[tt_obs_final_turns(n)] = s->final_turns;
  out[tt_obs_phase(n) + (s->phase <= TT_PHASE_OVER ? s->phase : TT_PHASE_OVER)] = 1;
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

static int any_count(const uint8_t *count) {
  for (int k = 0; k < TT_NUM_KINDS; k++)
    if (count[k]) return 1;
  return 0;
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
  put_counts(&t, s->hand[p], "-");
  th_put(&t, "\nhand sizes: [");
  for (int q = 0; q < n; q++) {
    if (q) th_put(&t, ", ");
    th_put_uint(&t, s->hand_len[q]);
  }
  th_put(&t, "]\ndiscard: ");
  {
    int first = 1;
    for (int i = 0; i < s->discard_len; i++) put_kind(&t, s->discard[i], &first);
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
      if (q != p && any_count(s->known[q])) {
        if (any) th_put(&t, "; ");
        any = 1;
        th_put_uint(&t, (unsigned)q);
        th_put(&t, ": ");
        put_counts(&t, s->known[q], "-");
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
  put_counts(&t, s->pool_hand[p], "-");
  th_put(&t, "\nout: ");
  if (s->out_seat == TT_NO_SEAT) th_put(&t, "-");
  else th_put_uint(&t, s->out_seat);
  th_put(&t, ", final turns ");
  th_put_uint(&t, s->final_turns);
  th_put(&t, "; scores [");
  for (int q = 0; q < n; q++) {
    if (q) th_put(&t, ", ");
    th_put_int(&t, s->total[q]);
  }
  th_put(&t, "]");
  return th_text_end(&t);
}
