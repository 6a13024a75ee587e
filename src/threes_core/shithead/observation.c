/* observation.c - the observation tensor; see observation.h. */
#include "shithead/observation.h"

#include "common/text.h"

#include <string.h>

int sh_observation_tensor(const sh_state *s, int observer, float *out, th_error *e) {
  int n = s->num_players;
  if (observer < 0 || observer >= n) {
    th_set_error(e, TH_ERR_ARG, "observer must be a seat in 0..%d, not %d", n - 1, observer);
    return TH_ERR_ARG;
  }
  memset(out, 0, sizeof(float) * (size_t)sh_obs_size(n));
  uint8_t known[SH_MAX_PLAYERS][16], burned[16];
  sh_public_counts(s, known, burned);
  for (int r = 0; r < SH_NUM_RANKS; r++) out[sh_obs_own_hand() + r] = s->seat[observer].hand_rank[r];
  for (int j = 0, q = observer; j < n; j++, q = q + 1 < n ? q + 1 : 0) { /* q = (observer + j) % n */
    for (int r = 0; r < SH_NUM_RANKS; r++) {
      out[sh_obs_face_up() + j * SH_NUM_RANKS + r] = s->seat[q].up_rank[r];
      out[sh_obs_known(n) + j * SH_NUM_RANKS + r] = known[q][r];
    }
    float *seat = out + sh_obs_seats(n) + j * SH_OBS_SEAT_FIELDS;
    seat[0] = s->seat[q].hand_len;
    seat[1] = s->seat[q].down_len;
    seat[2] = (float)((s->out_mask >> q) & 1);
  }
  for (int r = 0; r < SH_NUM_RANKS; r++) {
    out[sh_obs_pile(n) + r] = s->pile_rank[r];
    out[sh_obs_burned(n) + r] = burned[r];
  }
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

/* ------------------------------------------------------------------ text -- */

static void put_kind(th_text *t, int kind, int *first) {
  char buf[3];
  sh_kind_text(kind, buf);
  if (!*first) th_put(t, " ");
  *first = 0;
  th_put(t, buf);
}

/* The cards whose location is `a` or `b`, in card-kind order, or "-". */
static void put_cards_at(th_text *t, const sh_state *s, int a, int b) {
  int first = 1;
  for (int kind = 0; kind < SH_NUM_KINDS; kind++)
    for (int c = 0; c < s->rules.decks; c++) {
      int l = SH_LOC(s)[sh_card_id(c, kind)];
      if (l == a || l == b) put_kind(t, kind, &first);
    }
  if (first) th_put(t, "-");
}

static const char rank_chars[] = "23456789TJQKAX";

size_t sh_observation_text(const sh_state *s, int observer, char *out, size_t cap) {
  static const char *const phases[] = {"swap", "play", "over"};
  th_text t = th_text_begin(out, cap);
  int n = s->num_players, over = s->phase == SH_PHASE_OVER;
  th_put(&t, "observer ");
  th_put_uint(&t, (unsigned)observer);
  th_put(&t, " of ");
  th_put_uint(&t, (unsigned)n);
  th_put(&t, ", ");
  th_put(&t, phases[s->phase <= SH_PHASE_OVER ? s->phase : SH_PHASE_OVER]);
  th_put(&t, ", move ");
  th_put_uint(&t, s->move_count);
  th_put(&t, ", to move: ");
  if (over) {
    th_put(&t, "-");
  } else {
    th_put(&t, "+");
    th_put_uint(&t, (unsigned)((s->current - observer + n) % n));
  }
  th_put(&t, "\nhand: ");
  put_cards_at(&t, s, SH_LOC_HAND | observer, SH_LOC_HAND | SH_LOC_KNOWN | observer);
  for (int j = 0; j < n; j++) {
    int q = (observer + j) % n;
    th_put(&t, "\n+");
    th_put_uint(&t, (unsigned)j);
    th_put(&t, ": hand ");
    th_put_uint(&t, s->seat[q].hand_len);
    th_put(&t, " (known ");
    put_cards_at(&t, s, SH_LOC_HAND | SH_LOC_KNOWN | q, -1);
    th_put(&t, "), up ");
    put_cards_at(&t, s, SH_LOC_FACE_UP | q, -1);
    th_put(&t, ", down slots [");
    for (int k = 0, first = 1; k < s->rules.cards_per_zone; k++)
      if (s->seat[q].down[k] != SH_NO_CARD) {
        if (!first) th_put(&t, ", ");
        first = 0;
        th_put_uint(&t, (unsigned)k);
      }
    th_put(&t, "]");
  }
  th_put(&t, "\npile: ");
  {
    int first = 1;
    for (int i = 0; i < s->pile_len; i++) put_kind(&t, sh_card_kind(SH_PILE(s)[i]), &first);
    if (first) th_put(&t, "-");
  }
  char one[2] = {0, 0};
  th_put(&t, " (top ");
  if (s->eff_top < SH_NUM_RANKS) {
    one[0] = rank_chars[s->eff_top];
    th_put(&t, one);
  } else {
    th_put(&t, "open");
  }
  th_put(&t, ", run ");
  if (s->run_rank < SH_NUM_RANKS) {
    one[0] = rank_chars[s->run_rank];
    th_put(&t, one);
  } else {
    th_put(&t, "-");
  }
  th_put(&t, "x");
  th_put_uint(&t, s->run_len);
  th_put(&t, ")\nburned: ");
  put_cards_at(&t, s, SH_LOC_BURNED, -1);
  th_put(&t, "; draw pile: ");
  th_put_uint(&t, s->draw_len);
  th_put(&t, "\nout: ");
  if (!s->num_out) th_put(&t, "-");
  for (int k = 0; k < s->num_out; k++) {
    if (k) th_put(&t, " ");
    th_put(&t, "+");
    th_put_uint(&t, (unsigned)((s->finish[k] - observer + n) % n));
  }
  return th_text_end(&t);
}
