/* events.c - what a Shithead move did; see events.h. Every loop runs over
 * the card id space or a seat count: bounded. */
#include "shithead/events.h"

#include "shithead/actions.h"

static inline int zone_of(int loc) { return loc == SH_LOC_ABSENT ? -1 : (loc & 0x70); }
static inline int seat_of(int loc) { return loc & 0x0F; }
static inline int held_by(int loc, int p) { /* hand (known or not) or face up of p */
  return loc != SH_LOC_ABSENT && seat_of(loc) == p && (zone_of(loc) == SH_LOC_HAND || zone_of(loc) == SH_LOC_FACE_UP);
}
static inline int on_pile(int loc) { return loc == SH_LOC_PILE || loc == SH_LOC_BURNED; }

/* Cards of ids moving from zones `from` (a predicate on the old loc) to
 * `to` (on the new one), in id order by kind then copy (canonical order). */
#define FOR_EACH_ID(id)                                       \
  for (int kind_ = 0; kind_ < SH_NUM_KINDS; kind_++)          \
    for (int copy_ = 0; copy_ < SH_MAX_DECKS; copy_++)        \
      for (int id = sh_card_id(copy_, kind_), once_ = 1; once_; once_ = 0)

void sh_events(const sh_state *b, const sh_state *s, int a, th_events *out) {
  th_events_clear(out);
  sh_move m;
  th_event *e;
  int p = b->current;
  if (sh_state_decode_action(b, a, &m) != TH_OK || p >= SH_MAX_PLAYERS) return;
  if (m.kind == SH_MOVE_SWAP) {
    e = th_event_add(out, SH_EV_SWAP, p);
    FOR_EACH_ID(id) {
      if (sh_loc_at(s, id) == (SH_LOC_FACE_UP | p)) th_event_card(e, sh_card_kind(id));
    }
    if (s->phase == SH_PHASE_PLAY) th_event_add(out, SH_EV_START, s->current);
  } else {
    int rank = m.rank, played = 1;
    if (m.kind == SH_MOVE_BLIND) {
      int id = b->seat[p].down[m.slot];
      rank = sh_card_rank(id);
      played = on_pile(sh_loc_at(s, id));
      e = th_event_add(out, SH_EV_BLIND, p);
      e->source = SH_SRC_FACE_DOWN;
      e->detail = played ? SH_EVD_PLAYED : SH_EVD_PICKED_UP;
      th_event_card(e, sh_card_kind(id));
    } else if (m.kind == SH_MOVE_PLAY) {
      e = th_event_add(out, SH_EV_PLAY, p);
      e->source = m.source;
      FOR_EACH_ID(id) {
        if (held_by(sh_loc_at(b, id), p) && on_pile(sh_loc_at(s, id))) th_event_card(e, sh_card_kind(id));
      }
    } else {
      played = 0;
    }
    if (played && s->burned_len > b->burned_len) {
      e = th_event_add(out, SH_EV_BURN, p);
      e->detail = (b->rules.burn >> rank) & 1 ? SH_EVD_BURN_CARD : SH_EVD_RUN;
      if (e->detail == SH_EVD_RUN) /* the run's length: the cards played and the run they extend */
        e->value = (b->run_rank == rank ? b->run_len : 0) + (m.kind == SH_MOVE_BLIND ? 1 : m.count);
      FOR_EACH_ID(id) {
        if (sh_loc_at(s, id) == SH_LOC_BURNED && sh_loc_at(b, id) != SH_LOC_BURNED) th_event_card(e, sh_card_kind(id));
      }
    }
    if (s->draw_len < b->draw_len) {
      e = th_event_add(out, SH_EV_DRAW, p);
      e->is_private = 1;
      for (int i = b->draw_len - 1; i >= s->draw_len; i--) th_event_card(e, sh_card_kind(sh_draw_at(b, i)));
    }
    if (!played) {
      e = th_event_add(out, SH_EV_PICKUP, p);
      for (int i = 0; i < b->pile_len; i++) th_event_card(e, sh_card_kind(SH_PILE(b)[i]));
      if (m.kind == SH_MOVE_BLIND) th_event_card(e, sh_card_kind(b->seat[p].down[m.slot]));
    }
    if (s->phase == SH_PHASE_PLAY && s->current == p) th_event_add(out, SH_EV_AGAIN, p);
  }
  for (int k = b->num_out; k < s->num_out && k < SH_MAX_PLAYERS; k++) {
    e = th_event_add(out, SH_EV_OUT, s->finish[k]);
    e->value = k + 1;
    e->detail = (k == s->num_players - 1) ? SH_EVD_LAST : SH_EVD_NONE;
  }
  if (s->truncated && !b->truncated) th_event_add(out, s->stalemate ? SH_EV_STALEMATE : SH_EV_TRUNCATED, TH_EVENT_NO_SEAT);
  if (s->phase == SH_PHASE_OVER && b->phase != SH_PHASE_OVER) th_event_add(out, SH_EV_OVER, TH_EVENT_NO_SEAT);
}
