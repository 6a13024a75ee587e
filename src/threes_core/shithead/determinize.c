/* determinize.c - resampling hidden cards; see determinize.h. */
#include "shithead/determinize.h"

#include <string.h>

#include "shithead/cards.h"

/* Redeals tried at the start of play before the constructive deal (sh_resample). */
#define SH_RESAMPLE_TRIES 1000

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
  for (int id = 0; id < SH_CARD_ID_SPACE; id++) n += hidden(sh_loc_at(s, id), observer);
  return n;
}

/* Puts pool[0 .. n) into the hidden places of s in their fixed order (seats
 * in order: unknown hand cards, then face-down slots; then the draw pile,
 * bottom first); `is_hand`, when not NULL, gets for each place the seat whose
 * hand it is in, or -1. Returns the number of places. */
static int deal(sh_state *s, int observer, const uint8_t *pool, int n, int8_t *is_hand,
                const uint8_t known_rank[][16]) {
  int next = 0;
  uint8_t *loc = SH_LOC(s); /* once: a store through it may alias the fields it is computed from */
  for (int q = 0; q < s->num_players; q++) {
    if (q != observer) {
      /* the known hand cards stay: the hand starts as them */
      int known = 0;
      memcpy(s->seat[q].hand_rank, known_rank[q], sizeof s->seat[q].hand_rank);
      for (int r = 0; r < SH_NUM_RANKS; r++) known += known_rank[q][r];
      int unknown = s->seat[q].hand_len - known;
      for (int k = 0; k < unknown && next < n; k++) {
        int id = pool[next];
        if (is_hand) is_hand[next] = (int8_t)q;
        next++;
        loc[id] = (uint8_t)(SH_LOC_HAND | q);
        s->seat[q].hand_rank[sh_card_rank(id)]++;
      }
    }
    for (int k = 0; k < SH_MAX_CPZ; k++)
      if (s->seat[q].down[k] != SH_NO_CARD && next < n) {
        int id = pool[next];
        if (is_hand) is_hand[next] = -1;
        next++;
        s->seat[q].down[k] = (uint8_t)id;
        loc[id] = (uint8_t)(SH_LOC_FACE_DOWN | q);
      }
  }
  uint8_t *draw = SH_PILE(s) + sh_deck_cards(s) - 1; /* the draw pile's i-th card is draw[-i] (sh_draw_slot) */
  for (int i = 0; i < s->draw_len && next < n; i++) {
    int id = pool[next];
    if (is_hand) is_hand[next] = -1;
    next++;
    draw[-i] = (uint8_t)id;
    loc[id] = SH_LOC_DRAW;
  }
  return next;
}

/* Whether s is the start of play as the start rule made it: the play phase,
 * no card played yet (a play puts cards on the pile or burns them) and the
 * seat to move the one sh_find_starter picks. */
static int at_start(const sh_state *s) {
  return s->phase == SH_PHASE_PLAY && s->pile_len == 0 && s->burned_len == 0 && s->num_out == 0 &&
         sh_find_starter(s) == s->current;
}

/* The constructive deal for start group `gi` of groups[0 .. ng) (gi == ng:
 * nobody holds a start card): the cards of the groups before gi go to places
 * outside the hands, those of group gi outside the hands of the seats before
 * the starter, and one of them into the starter's hand unless it shows one
 * already; each card takes a uniformly drawn free place among those allowed,
 * the most restricted cards first. Fills out[place] and returns 1, or 0 when
 * what the observer sees rules the group out (or the cards do not fit). */
static int construct(const sh_state *s, int observer, const uint8_t *pool, int n, const int8_t *is_hand,
                     const uint64_t *groups, int ng, int gi, th_rng *rng, uint8_t *out) {
  int np = s->num_players, first = (s->dealer + 1) % np, starter = s->current;
  if (gi == ng && starter != first) return 0;
  uint64_t A = 0, B = gi < ng ? groups[gi] : 0;
  for (int i = 0; i < gi && i < ng; i++) A |= groups[i];
  uint8_t before[SH_MAX_PLAYERS] = {0}; /* 1 for the seats searched before the starter */
  for (int q = first; q != starter; q = (q + 1) % np) before[q] = 1;
  int shows = 0; /* the starter's visible hand holds a card of group gi */
  for (int id = 0; id < SH_CARD_ID_SPACE; id++) {
    int l = sh_loc_at(s, id);
    if (l == SH_LOC_ABSENT || (l & 0x70) != SH_LOC_HAND || !((l & SH_LOC_KNOWN) || (l & 0x0F) == observer)) continue;
    uint64_t bit = 1ull << sh_card_kind(id);
    if ((A & bit) || ((B & bit) && before[l & 0x0F])) return 0;
    if ((B & bit) && (l & 0x0F) == starter) shows = 1;
  }
  uint8_t used[SH_MAX_CARDS] = {0};
  for (int i = 0; i < n; i++) out[i] = SH_NO_CARD;
  int need = B && !shows;
  /* Pass 0: one card of group gi for the starter; 1: the earlier groups; 2: group gi; 3: the rest. */
  for (int pass = 0; pass < 4; pass++)
    for (int c = 0; c < n; c++) {
      if (used[c]) continue;
      uint64_t bit = 1ull << sh_card_kind(pool[c]);
      int cls = (A & bit) ? 1 : (B & bit) ? 2 : 3;
      if (pass == 0 ? !(need && cls == 2) : cls != pass) continue;
      int free_places = 0;
      for (int p = 0; p < n; p++) {
        int ok = out[p] == SH_NO_CARD &&
                 (pass == 0 ? is_hand[p] == starter : cls == 1 ? is_hand[p] < 0 : cls == 2 ? is_hand[p] < 0 || !before[is_hand[p]] : 1);
        free_places += ok;
      }
      if (!free_places) return 0;
      int pick = (int)th_rng_below(rng, (uint32_t)free_places);
      for (int p = 0; p < n; p++) {
        int ok = out[p] == SH_NO_CARD &&
                 (pass == 0 ? is_hand[p] == starter : cls == 1 ? is_hand[p] < 0 : cls == 2 ? is_hand[p] < 0 || !before[is_hand[p]] : 1);
        if (ok && pick-- == 0) {
          out[p] = pool[c];
          break;
        }
      }
      used[c] = 1;
      if (pass == 0) need = 0;
    }
  return !need;
}

int sh_resample(sh_state *s, int observer, th_rng *rng, th_error *e) {
  if (observer < 0 || observer >= s->num_players) {
    th_set_error(e, TH_ERR_ARG, "observer must be a seat in 0..%d, not %d", s->num_players - 1, observer);
    return TH_ERR_ARG;
  }
  /* The hidden cards in kind order (then copy), so that the outcome does not
   * depend on which copy of a kind happens to be hidden. */
  uint8_t hidden_ids[SH_MAX_CARDS], pool[SH_MAX_CARDS];
  /* In the same pass, the known hand cards per seat and rank (sh_public_counts),
   * which every deal leaves where they are. */
  uint8_t known[16][16];
  memset(known, 0, sizeof known);
  int n = 0, decks = s->rules.decks;
  const uint8_t *loc = SH_LOC(s);
  for (int kind = 0; kind < SH_NUM_KINDS; kind++)
    for (int c = 0; c < decks; c++) { /* copies past the decks are absent */
      int id = sh_card_id(c, kind), l = loc[id];
      if (hidden(l, observer) && n < SH_MAX_CARDS) hidden_ids[n++] = (uint8_t)id;
      if ((l & 0xF0) == (SH_LOC_HAND | SH_LOC_KNOWN)) known[l & 0x0F][sh_kind_rank(kind)]++;
    }
  /* At the start of play the observer has seen who starts (RULES.md 5): a
   * deal is kept only when the start rule picks the same seat on it. Bounded
   * rejection (the first shuffle is the only one elsewhere), then the
   * constructive deal (see construct) for the first start group the observer
   * cannot rule out that gives the same starter. */
  int start = at_start(s), starter = s->current;
  sh_state orig;
  if (start) sh_state_copy(&orig, s);
  int done = 0;
  for (int attempt = 0; attempt < (start ? SH_RESAMPLE_TRIES : 1) && !done; attempt++) {
    if (attempt) sh_state_copy(s, &orig);
    memcpy(pool, hidden_ids, (size_t)n);
    th_shuffle_bytes(pool, n, rng);
    deal(s, observer, pool, n, NULL, (const uint8_t(*)[16])known);
    done = !start || sh_find_starter(s) == starter;
  }
  if (!done) {
    int8_t is_hand[SH_MAX_CARDS];
    uint8_t placed[SH_MAX_CARDS];
    uint64_t groups[SH_NUM_KINDS];
    int ng = sh_start_groups(&orig, groups);
    sh_state_copy(s, &orig);
    deal(s, observer, hidden_ids, n, is_hand, (const uint8_t(*)[16])known); /* only to learn the places */
    for (int gi = 0; gi <= ng && !done; gi++) {
      if (!construct(&orig, observer, pool, n, is_hand, groups, ng, gi, rng, placed)) continue;
      sh_state_copy(s, &orig);
      deal(s, observer, placed, n, NULL, (const uint8_t(*)[16])known);
      done = sh_find_starter(s) == starter;
    }
    /* The true deal's own group always fits, so done is 1 here. */
  }
  /* The remembered positions (repetition_limit) were the true ones: they
   * would say what the hidden cards were. The sample starts afresh. */
  if (s->rules.repetition_limit) { /* the repetition tail (state.h): part of the state with the rule on only */
    s->rep_len = 0;
    s->rep_head = 0;
    if (s->rep_log) sh_rep_log_clear(s->rep_log);
  }
  if (e) e->code = TH_OK;
  return TH_OK;
}
