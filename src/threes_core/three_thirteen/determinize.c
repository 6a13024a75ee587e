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
    /* the hidden cards outside the pool and the pool cards, kind by kind:
     * the hand's bit-planes less the known and pool ones */
    for (int k = 0; k < TT_NUM_KINDS; k++) {
      int pk = tt_pool_hand(s, q, k), ok = tt_hand(s, q, k) - tt_known(s, q, k) - pk;
      ord_cnt[k] = (uint8_t)(ord_cnt[k] + ok);
      pool_cnt[k] = (uint8_t)(pool_cnt[k] + pk);
      ord_slots[q] += ok;
      pool_slots[q] += pk;
    }
  }
  uint8_t *stock = tt_stock(s);
  for (int i = 0; i < s->stock_len; i++) (pool ? pool_cnt : ord_cnt)[stock[i]]++;
  uint8_t cards[TT_GATHER_ROOM], hand[TT_NUM_KINDS], poolh[TT_NUM_KINDS];
  /* ordinary cards first: with no knowledge this is the whole resampling */
  int n = gather_shuffled(ord_cnt, cards, rng), next = 0;
  for (int q = 0; q < np; q++) {
    if (q == observer) continue;
    for (int k = 0; k < TT_NUM_KINDS; k++) hand[k] = (uint8_t)(tt_known(s, q, k) + tt_pool_hand(s, q, k));
    for (int i = 0; i < ord_slots[q] && next < n; i++) hand[cards[next++]]++;
    tt_set_from_counts(tt_set(s, q, TT_SET_HAND), P, hand);
  }
  if (!pool) {
    for (int i = 0; i < s->stock_len && next < n; i++) stock[i] = cards[next++];
  } else {
    n = gather_shuffled(pool_cnt, cards, rng);
    next = 0;
    for (int q = 0; q < np; q++) {
      if (q == observer) continue;
      for (int k = 0; k < TT_NUM_KINDS; k++) hand[k] = (uint8_t)(tt_hand(s, q, k) - tt_pool_hand(s, q, k));
      memset(poolh, 0, sizeof poolh);
      for (int i = 0; i < pool_slots[q] && next < n; i++) {
        hand[cards[next]]++;
        poolh[cards[next++]]++;
      }
      tt_set_from_counts(tt_set(s, q, TT_SET_HAND), P, hand);
      tt_set_from_counts(tt_set(s, q, TT_SET_POOL), P, poolh);
    }
    for (int i = 0; i < s->stock_len && next < n; i++) stock[i] = cards[next++];
  }
  th_rng_seed(&s->rng, ((uint64_t)th_rng_below(rng, 0xFFFFFFFFu) << 32) | th_rng_below(rng, 0xFFFFFFFFu));
  if (e) e->code = TH_OK;
  return TH_OK;
}
