/* events.h - what a Shithead move did (common/event.h), from the state
 * before it and the state after it.
 *
 * Codes (python/threes/events.py names them and documents each kind):
 *   SH_EV_SWAP      seat; cards: its face-up cards after the decision (4.2)
 *   SH_EV_START     seat: who plays first (5)
 *   SH_EV_PLAY      seat; source SH_SRC_*; cards played
 *   SH_EV_BLIND     seat; cards: the face-down card; detail SH_EVD_PLAYED or SH_EVD_PICKED_UP
 *   SH_EV_BURN      seat: whose play burned; detail SH_EVD_BURN_CARD or SH_EVD_RUN (value: the run's
 *                   length); cards burned
 *   SH_EV_DRAW      seat; cards drawn (private)
 *   SH_EV_PICKUP    seat; cards picked up, the pile bottom first (and a failed blind card last)
 *   SH_EV_AGAIN     seat: moves again
 *   SH_EV_OUT       seat; value: place, 1 = first; detail SH_EVD_LAST for the shithead
 *   SH_EV_STALEMATE, SH_EV_TRUNCATED, SH_EV_OVER
 * Card codes are card kinds (cards.h: 4 * rank + suit, jokers 52 and 53).
 */
#ifndef THREES_SHITHEAD_EVENTS_H
#define THREES_SHITHEAD_EVENTS_H

#include "common/event.h"
#include "shithead/state.h"

enum {
  SH_EV_SWAP = 0,
  SH_EV_START,
  SH_EV_PLAY,
  SH_EV_BLIND,
  SH_EV_BURN,
  SH_EV_DRAW,
  SH_EV_PICKUP,
  SH_EV_AGAIN,
  SH_EV_OUT,
  SH_EV_STALEMATE,
  SH_EV_TRUNCATED,
  SH_EV_OVER,
  SH_NUM_EVENT_KINDS
};
enum { SH_EVD_NONE = 0, SH_EVD_PLAYED = 1, SH_EVD_PICKED_UP = 2, SH_EVD_BURN_CARD = 3, SH_EVD_RUN = 4, SH_EVD_LAST = 5 };

/* The events of action `a` (legal in `before`) that turned `before` into
 * `after` (sh_apply_action), into out (cleared first). Both must be full
 * states (loc kept: the sh_do_* moves, not the sh_fast_* ones). */
void sh_events(const sh_state *before, const sh_state *after, int a, th_events *out);

#endif
