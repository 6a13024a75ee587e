/* determinize.c - see determinize.h. */
#include "three_thirteen/determinize.h"

#include <string.h>

/* Gathers cnt in kind order into out, shuffles it; returns the card count.
 * A kind has at most TT_MAX_DECKS copies: each kind writes that many and
 * keeps cnt[k] of them, so the gather has no branch per card (out has room
 * for TT_MAX_CARDS + TT_MAX_DECKS; at most TT_MAX_CARDS are kept). */
#define TT_GATHER_ROOM (TT_MAX_CARDS + TT_MAX_DECKS)
static int gather_shuffled(const uint8_t *cnt, uint8_t *out, th_rng *rng) {
  int n = 0;
  for (int k = 0; k < TT_NUM_KINDS; k++) {
    int c = cnt[k] < TT_MAX_DECKS ? cnt[k] : TT_MAX_DECKS;
    if (c > TT_MAX_CARDS - n) c = TT_MAX_CARDS - n;
    for (int d = 0; d < TT_MAX_DECKS; d++) out[n + d] = (uint8_t)k;
    n += c;
  }
  th_shuffle_bytes(out, n, rng);
  return n;
}

int tt_resample(tt_state *s, int observer, th_rng *rng, th_error *e) {
  if (observer < 0 || observer >= s->num_players) {
    th_set_error(e, TH_ERR_ARG, "observer must be a seat in 0..%d, not %d", s->num_players - 1, observer);
    return TH_ERR_ARG;
  }
  int np = s->num_players, pool = s->pool_active, P = s->planes;
  /* Hidden copies of each kind, at most the decks' copies of it (so bytes:
   * zeroed with a few vector stores, where int arrays took a rep stos). */
  uint8_t ord_cnt[TT_NUM_KINDS] = {0}, pool_cnt[TT_NUM_KINDS] = {0};
  int ord_slots[TT_MAX_PLAYERS] = {0}, pool_slots[TT_MAX_PLAYERS] = {0};
  for (int q = 0; q < np; q++) {
    if (q == observer) continue;
    /* the hidden cards outside the pool and the pool cards, kind by kind
     * over the kinds the hand holds (word 0 of its set) */
    for (uint64_t m = tt_held_kinds(s, q); m; m &= m - 1) {
      int k = th_ctz64(m);
      int pk = tt_pool_hand(s, q, k), ok = tt_hand(s, q, k) - tt_known(s, q, k) - pk;
      ord_cnt[k] = (uint8_t)(ord_cnt[k] + ok);
      pool_cnt[k] = (uint8_t)(pool_cnt[k] + pk);
      ord_slots[q] += ok;
      pool_slots[q] += pk;
    }
  }
  uint8_t *stock = tt_stock(s);
  for (int i = 0; i < s->stock_len; i++) (pool ? pool_cnt : ord_cnt)[stock[i]]++;
  uint8_t cards[TT_GATHER_ROOM];
  /* ordinary cards first: with no knowledge this is the whole resampling.
   * Each hand becomes its known and pool cards (disjoint parts of it), then
   * the cards dealt to it. */
  int n = gather_shuffled(ord_cnt, cards, rng), next = 0;
  for (int q = 0; q < np; q++) {
    if (q == observer) continue;
    uint64_t *hand = tt_set(s, q, TT_SET_HAND);
    memset(hand, 0, (size_t)P * 8);
    for (uint64_t m = tt_cset(s, q, TT_SET_KNOWN)[0] | tt_cset(s, q, TT_SET_POOL)[0]; m; m &= m - 1) {
      int k = th_ctz64(m), c = tt_known(s, q, k) + tt_pool_hand(s, q, k);
      for (int j = 0; j < c && j < P; j++) hand[j] |= UINT64_C(1) << k;
    }
    for (int i = 0; i < ord_slots[q] && next < n; i++) tt_set_add(hand, P, cards[next++]);
  }
  if (!pool) {
    for (int i = 0; i < s->stock_len && next < n; i++) stock[i] = cards[next++];
  } else {
    n = gather_shuffled(pool_cnt, cards, rng);
    next = 0;
    for (int q = 0; q < np; q++) {
      if (q == observer) continue;
      uint64_t *hand = tt_set(s, q, TT_SET_HAND), *poolh = tt_set(s, q, TT_SET_POOL);
      for (uint64_t m = poolh[0]; m; m &= m - 1) { /* the hand less its pool cards */
        int k = th_ctz64(m);
        for (int c = tt_set_count(poolh, P, k); c > 0; c--) tt_set_remove(hand, P, k);
      }
      memset(poolh, 0, (size_t)P * 8);
      for (int i = 0; i < pool_slots[q] && next < n; i++) {
        tt_set_add(hand, P, cards[next]);
        tt_set_add(poolh, P, cards[next++]);
      }
    }
    for (int i = 0; i < s->stock_len && next < n; i++) stock[i] = cards[next++];
  }
  th_rng_seed(&s->rng, ((uint64_t)th_rng_below(rng, 0xFFFFFFFFu) << 32) | th_rng_below(rng, 0xFFFFFFFFu));
  if (e) e->code = TH_OK;
  return TH_OK;
}
