/* observation.c - see observation.h. */
#include "three_thirteen/observation.h"

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
