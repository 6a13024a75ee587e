/* determinize.c - resampling hidden cards; see determinize.h. */
#include "shithead/determinize.h"

#include <string.h>

#include "shithead/cards.h"

/* Whether the card at zone code l is hidden from seat `observer`. */
static inline int hidden(int l, int observer) {
  if (l == SH_LOC_ABSENT) return 0;
  int zone = l & 0x70, seat = l & 0x0F;
  if (l & SH_LOC_KNOWN) return 0; /* a publicly known hand card */
  if (zone == SH_LOC_HAND) return seat != observer;
  return zone == SH_LOC_FACE_DOWN || zone == SH_LOC_DRAW;
}

int sh_hidden_count(const sh_state *s, int observer) {
  int n = 0;
  for (int id = 0; id < SH_CARD_ID_SPACE; id++) n += hidden(s->loc[id], observer);
  return n;
}

int sh_resample(sh_state *s, int observer, th_rng *rng, th_error *e) {
  if (observer < 0 || observer >= s->num_players) {
    th_set_error(e, TH_ERR_ARG, "observer must be a seat in 0..%d, not %d", s->num_players - 1, observer);
    return TH_ERR_ARG;
  }
  /* The hidden cards in kind order (then copy), so that the outcome does not
   * depend on which copy of a kind happens to be hidden. */
  uint8_t pool[SH_MAX_CARDS];
  int n = 0;
  for (int kind = 0; kind < SH_NUM_KINDS; kind++)
    for (int c = 0; c < SH_MAX_DECKS; c++) {
      int id = sh_card_id(c, kind);
      if (hidden(s->loc[id], observer) && n < SH_MAX_CARDS) pool[n++] = (uint8_t)id;
    }
  th_shuffle_bytes(pool, n, rng);
  /* The hidden places in a fixed order; each takes the next card. */
  int next = 0;
  for (int q = 0; q < s->num_players; q++) {
    if (q != observer) {
      int unknown = s->hand_len[q];
      for (int id = 0; id < SH_CARD_ID_SPACE; id++)
        if (s->loc[id] == (SH_LOC_HAND | SH_LOC_KNOWN | q)) unknown--;
      memset(s->hand_rank[q], 0, sizeof s->hand_rank[q]);
      for (int id = 0; id < SH_CARD_ID_SPACE; id++) /* the known cards stay */
        if (s->loc[id] == (SH_LOC_HAND | SH_LOC_KNOWN | q)) s->hand_rank[q][sh_card_rank(id)]++;
      for (int k = 0; k < unknown && next < n; k++) {
        int id = pool[next++];
        s->loc[id] = (uint8_t)(SH_LOC_HAND | q);
        s->hand_rank[q][sh_card_rank(id)]++;
      }
    }
    for (int k = 0; k < SH_MAX_CPZ; k++)
      if (s->down[q][k] != SH_NO_CARD && next < n) {
        int id = pool[next++];
        s->down[q][k] = (uint8_t)id;
        s->loc[id] = (uint8_t)(SH_LOC_FACE_DOWN | q);
      }
  }
  for (int i = 0; i < s->draw_len && next < n; i++) {
    int id = pool[next++];
    s->draw[i] = (uint8_t)id;
    s->loc[id] = SH_LOC_DRAW;
  }
  /* The remembered positions (repetition_limit) were the true ones: they
   * would say what the hidden cards were. The sample starts afresh. */
  s->rep_len = 0;
  s->rep_head = 0;
  if (e) e->code = TH_OK;
  return TH_OK;
}
