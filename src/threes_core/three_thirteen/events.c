/* events.c - what a Three Thirteen move did; see events.h. Every loop runs
 * over the kinds, a hand or the seats: bounded. */
#include "three_thirteen/events.h"

/* The hand `counts` into e->cards, melds first (the minimum-deadwood
 * arrangement, meld.h), then the deadwood; returns the deadwood. */
static int hand_with_melds(th_event *e, const uint8_t *counts, int round, const tt_meld_options *o) {
  uint8_t rank[TT_MAX_HAND], suit[TT_MAX_HAND], kind[TT_MAX_HAND];
  int n = 0;
  for (int k = 0; k < TT_NUM_KINDS; k++)
    for (int c = counts[k]; c > 0 && n < TT_MAX_HAND; c--) {
      rank[n] = (uint8_t)tt_kind_rank(k);
      suit[n] = (uint8_t)tt_kind_suit(k);
      kind[n] = (uint8_t)k;
      n++;
    }
  tt_arrangement arr;
  if (tt_min_deadwood(rank, suit, n, tt_wild_rank(round), o, &arr, NULL) != TH_OK) {
    for (int i = 0; i < n; i++) th_event_card(e, kind[i]);
    return 0;
  }
  e->num_melds = (uint8_t)(arr.num_melds < TH_EVENT_MAX_MELDS ? arr.num_melds : TH_EVENT_MAX_MELDS);
  for (int i = 0; i < e->num_melds; i++) {
    e->meld_type[i] = arr.meld_type[i];
    e->meld_len[i] = arr.meld_len[i];
  }
  for (int i = 0; i < n; i++) th_event_card(e, kind[arr.order[i]]);
  return arr.deadwood;
}

void tt_events(const tt_state *b, const tt_state *s, int a, th_events *out) {
  th_events_clear(out);
  th_event *e;
  int p = b->current, n = b->num_players;
  if (p >= TT_MAX_PLAYERS || a < 0 || a >= TT_NUM_ACTIONS) return;
  uint8_t hands[TT_MAX_PLAYERS][TT_NUM_KINDS]; /* the hands as the round ends (this move's discard made) */
  memset(hands, 0, sizeof hands);
  for (int q = 0; q < n && q < TT_MAX_PLAYERS; q++) tt_set_counts(tt_cset(b, q, TT_SET_HAND), b->planes, hands[q]);
  int went_out = 0, stock_empty = 0;
  if (a == TT_ACTION_STOCK) {
    if (b->stock_len == 0 && b->discard_len > 1) {
      e = th_event_add(out, TT_EV_RESHUFFLE, TH_EVENT_NO_SEAT);
      e->value = b->discard_len - 1; /* how many; the cards are not listed (their order is hidden) */
    }
    if (b->stock_len == 0 && b->discard_len <= 1) {
      stock_empty = 1;
    } else {
      e = th_event_add(out, TT_EV_DRAW, p);
      e->source = TT_EVS_STOCK;
      e->is_private = 1;
      for (int k = 0; k < TT_NUM_KINDS; k++)
        if (tt_hand(s, p, k) > tt_hand(b, p, k)) th_event_card(e, k);
    }
  } else if (a == TT_ACTION_TAKE_DISCARD) {
    e = th_event_add(out, TT_EV_DRAW, p);
    e->source = TT_EVS_DISCARD;
    th_event_card(e, tt_discard_top(b));
  } else {
    went_out = a >= TT_FIRST_GO_OUT;
    int k = a - (went_out ? TT_FIRST_GO_OUT : TT_FIRST_DISCARD);
    if (hands[p][k]) hands[p][k]--;
    if (went_out) {
      e = th_event_add(out, TT_EV_GO_OUT, p);
      hand_with_melds(e, hands[p], b->round, &b->opt.meld);
    }
    e = th_event_add(out, TT_EV_DISCARD, p);
    th_event_card(e, k);
    if (went_out && b->out_seat == TT_NO_SEAT) {
      e = th_event_add(out, TT_EV_LAST_TURNS, p);
      e->value = n - 1;
    }
  }
  int scored = s->round != b->round || (s->phase == TT_PHASE_OVER && !s->truncated);
  if (scored) {
    e = th_event_add(out, TT_EV_ROUND_END, TH_EVENT_NO_SEAT);
    e->value = b->round;
    e->detail = stock_empty ? TT_EVD_STOCK_EMPTY : TT_EVD_WENT_OUT;
    unsigned outs = b->out_mask | (went_out ? 1u << p : 0u);
    for (int q = 0; q < n; q++) {
      e = th_event_add(out, TT_EV_SCORE, q);
      hand_with_melds(e, hands[q], b->round, &b->opt.meld);
      e->value = tt_round_score(s, b->round, q);
      e->detail = (outs >> q) & 1 ? TT_EVD_OUT : TT_EVD_NONE;
    }
  }
  if (s->round != b->round) {
    e = th_event_add(out, TT_EV_ROUND, s->dealer);
    e->value = s->round;
    th_event_card(e, tt_discard_at(s, 0));
  }
  if (s->truncated && !b->truncated) th_event_add(out, TT_EV_TRUNCATED, TH_EVENT_NO_SEAT);
  if (s->phase == TT_PHASE_OVER && b->phase != TT_PHASE_OVER) th_event_add(out, TT_EV_OVER, TH_EVENT_NO_SEAT);
}
