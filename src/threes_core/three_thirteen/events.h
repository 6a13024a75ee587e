/* events.h - what a Three Thirteen move did (common/event.h), from the
 * state before it and the state after it.
 *
 * Codes (python/threes/events.py names them and documents each kind):
 *   TT_EV_DRAW        seat; source TT_EVS_STOCK (private: the card) or TT_EVS_DISCARD; cards: the card
 *   TT_EV_RESHUFFLE   value: cards shuffled into the new stock (the cards are not listed)
 *   TT_EV_DISCARD     seat; cards: the card
 *   TT_EV_GO_OUT      seat; cards: the hand laid down, melds first (num_melds, meld_type, meld_len)
 *   TT_EV_LAST_TURNS  seat: who went out; value: turns left, one for each other player
 *   TT_EV_ROUND_END   value: the round scored; detail TT_EVD_WENT_OUT or TT_EVD_STOCK_EMPTY
 *   TT_EV_SCORE       seat; cards: the hand, melds first; value: the points it scores; detail TT_EVD_OUT
 *                     when it went out (0 points); one per seat, in seat order
 *   TT_EV_ROUND       value: the new round; seat: its dealer; cards: the discard pile's first card
 *   TT_EV_TRUNCATED, TT_EV_OVER
 * Card codes are the engine's kinds (rules.h).
 */
#ifndef THREES_THREE_THIRTEEN_EVENTS_H
#define THREES_THREE_THIRTEEN_EVENTS_H

#include "common/event.h"
#include "three_thirteen/state.h"

enum {
  TT_EV_DRAW = 0,
  TT_EV_RESHUFFLE,
  TT_EV_DISCARD,
  TT_EV_GO_OUT,
  TT_EV_LAST_TURNS,
  TT_EV_ROUND_END,
  TT_EV_SCORE,
  TT_EV_ROUND,
  TT_EV_TRUNCATED,
  TT_EV_OVER,
  TT_NUM_EVENT_KINDS
};
enum { TT_EVS_NONE = 0, TT_EVS_STOCK = 1, TT_EVS_DISCARD = 2 };
enum { TT_EVD_NONE = 0, TT_EVD_WENT_OUT = 1, TT_EVD_STOCK_EMPTY = 2, TT_EVD_OUT = 3 };

/* The events of action `a` (legal in `before`) that turned `before` into
 * `after` (tt_apply_action), into out (cleared first). */
void tt_events(const tt_state *before, const tt_state *after, int a, th_events *out);

#endif
