/* event.h - what a move did, as small fixed-size values (both games).
 *
 * A game's events function (shithead/events.h, three_thirteen/events.h)
 * compares the state before a move with the state after it and lists, in
 * order, what happened: cards played, burned, drawn, a round scored ... Each
 * event names a seat, up to TH_EVENT_MAX_CARDS cards (the game's card kinds)
 * and, for Three Thirteen, the melds those cards form. An event whose cards
 * only its seat may see (a draw from a face-down pile) is marked private: an
 * observer's view of it keeps the count and drops the cards (python/threes/
 * events.py, Event.view). The move functions themselves are untouched: the
 * rollouts pay nothing for events.
 *
 * No heap: a th_events list is a fixed array; a full list drops further
 * events and sets `overflow` (never the case with the games' bounds; tested).
 */
#ifndef THREES_COMMON_EVENT_H
#define THREES_COMMON_EVENT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define TH_EVENT_MAX_CARDS 216 /* every card of 4 decks with jokers (a pick-up of the whole deck) */
#define TH_EVENT_MAX_MELDS 14
#define TH_MAX_EVENTS 24
#define TH_EVENT_NO_SEAT 0xFF

typedef struct th_event {
  uint8_t kind;       /* the game's event code */
  uint8_t seat;       /* TH_EVENT_NO_SEAT when none */
  uint8_t source;     /* the game's source code, 0 = none */
  uint8_t detail;     /* the game's detail code, 0 = none */
  uint8_t is_private; /* the cards are the seat's to see only */
  uint8_t num_melds;  /* cards[] holds meld 0's cards, meld 1's ..., then the rest */
  uint16_t count;     /* cards involved; cards[0 .. count) lists them */
  int32_t value;      /* a place, a round, points: by kind */
  uint8_t meld_type[TH_EVENT_MAX_MELDS]; /* 0 set, 1 run */
  uint8_t meld_len[TH_EVENT_MAX_MELDS];
  uint8_t cards[TH_EVENT_MAX_CARDS];
} th_event;

typedef struct th_events {
  int n;
  int overflow;
  th_event ev[TH_MAX_EVENTS + 1]; /* the last one: scratch for events beyond the room */
} th_events;

static inline void th_events_clear(th_events *l) {
  l->n = 0;
  l->overflow = 0;
}

/* A new event of `kind` for `seat`, zeroed; never NULL. */
static inline th_event *th_event_add(th_events *l, int kind, int seat) {
  th_event *e;
  if (l->n < TH_MAX_EVENTS) {
    e = &l->ev[l->n++];
  } else {
    l->overflow = 1;
    e = &l->ev[TH_MAX_EVENTS];
  }
  memset(e, 0, offsetof(th_event, cards)); /* the cards are written as counted */
  e->kind = (uint8_t)kind;
  e->seat = (uint8_t)seat;
  return e;
}

/* Appends one card kind (ignored beyond the room). */
static inline void th_event_card(th_event *e, int card) {
  if (e->count < TH_EVENT_MAX_CARDS) e->cards[e->count++] = (uint8_t)card;
}

#endif
