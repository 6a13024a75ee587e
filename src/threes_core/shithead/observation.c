/* observation.c - the observation tensor; see observation.h. */
#include "shithead/observation.h"

#include <string.h>

int sh_observation_tensor(const sh_state *s, int observer, float *out, th_error *e) {
  int n = s->num_players;
  if (observer < 0 || observer >= n) {
    th_set_error(e, TH_ERR_ARG, "observer must be a seat in 0..%d, not %d", n - 1, observer);
    return TH_ERR_ARG;
  }
  memset(out, 0, sizeof(float) * (size_t)sh_obs_size(n));
  for (int r = 0; r < SH_NUM_RANKS; r++) out[sh_obs_own_hand() + r] = s->hand_rank[observer][r];
  uint8_t known[SH_MAX_PLAYERS][SH_NUM_RANKS];
  memset(known, 0, sizeof known);
  for (int id = 0; id < SH_CARD_ID_SPACE; id++) {
    int l = s->loc[id];
    if (l != SH_LOC_ABSENT && (l & SH_LOC_KNOWN) && (l & 0x0F) < n) known[l & 0x0F][sh_card_rank(id)]++;
  }
  for (int j = 0; j < n; j++) {
    int q = (observer + j) % n;
    for (int r = 0; r < SH_NUM_RANKS; r++) {
      out[sh_obs_face_up() + j * SH_NUM_RANKS + r] = s->up_rank[q][r];
      out[sh_obs_known(n) + j * SH_NUM_RANKS + r] = known[q][r];
    }
    float *seat = out + sh_obs_seats(n) + j * SH_OBS_SEAT_FIELDS;
    seat[0] = s->hand_len[q];
    seat[1] = s->down_len[q];
    seat[2] = (float)((s->out_mask >> q) & 1);
  }
  for (int r = 0; r < SH_NUM_RANKS; r++) {
    out[sh_obs_pile(n) + r] = s->pile_rank[r];
    out[sh_obs_burned(n) + r] = 0;
  }
  for (int id = 0; id < SH_CARD_ID_SPACE; id++)
    if (s->loc[id] == SH_LOC_BURNED) out[sh_obs_burned(n) + sh_card_rank(id)] += 1;
  out[sh_obs_top(n) + (s->eff_top < SH_NUM_RANKS ? s->eff_top : SH_NUM_RANKS)] = 1;
  out[sh_obs_run(n) + (s->run_rank < SH_NUM_RANKS ? s->run_rank : SH_NUM_RANKS)] = 1;
  out[sh_obs_pile_sizes(n)] = s->run_len;
  out[sh_obs_pile_sizes(n) + 1] = s->pile_len;
  out[sh_obs_draw(n)] = s->draw_len;
  if (s->phase != SH_PHASE_OVER && s->current < n) out[sh_obs_to_move(n) + (s->current - observer + n) % n] = 1;
  out[sh_obs_phase(n) + (s->phase <= SH_PHASE_OVER ? s->phase : SH_PHASE_OVER)] = 1;
  if (e) e->code = TH_OK;
  return TH_OK;
}
