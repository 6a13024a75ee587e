/* state.h - a Three Thirteen position: the deal, legal actions, applying
 * them, scores, returns and the invariant check (docs/three_thirteen/RULES.md sections
 * Rounds, A turn, Going out and scoring, What each player knows; T-2, T-3,
 * T-7, T-9). The action map is in three_thirteen.h.
 *
 * Chance (later deals, reshuffles of the discard pile) comes from the state's
 * own generator, seeded with the game: the same seed gives the same game.
 * The state is heap-free and bitpacked, its bytes in use sized by the table
 * (THE LAYOUT, below); every loop is bounded.
 *
 * KNOWLEDGE (T-9). Besides the cards, the state records what is public about
 * the hidden cards, so that observations and resampling (determinize.h) can
 * follow it:
 *   known            (tt_known(s, q, k)) cards of kind k in seat q's hand that everyone knows:
 *                    taken from the discard pile (one more per take), and the
 *                    whole hand of a seat that went out or was scored at the
 *                    end of the game. A discard of kind k by q forgets one
 *                    known k of q when there is one (the table cannot tell
 *                    which copy went, so it assumes the known one: the rest
 *                    of q's hand stays consistent either way).
 *   pool_active      1 from a reshuffle (T-3) on: the stock was then made of a
 *                    known multiset, the pool, and every card in the stock is
 *                    a pool card.
 *   pool_hand        (tt_pool_hand(s, q, k)) cards of kind k in seat q's hand that q drew from the
 *                    reshuffled stock: hidden pool cards. Only q knows their
 *                    kinds; everyone knows how many there are (tt_pool_held)
 *                    and the pool multiset (tt_pool_count: the stock plus
 *                    every pool_hand).
 *   A pool card leaves the pool when it is discarded, or when its holder goes
 *   out (the hand is shown). When q discards kind k, not known, while holding
 *   pool cards and the pool holds a k, the table can tell that the card was
 *   a pool card when none of q's own hidden cards that could be a k is
 *   outside the pool (T-10): q holds no hidden card outside the pool (all of
 *   them were drawn from the reshuffled stock), or no k lies hidden outside
 *   the pool in any hand (always so with one deck). Then the pool loses that
 *   card and is kept. Otherwise the public record cannot say, and the
 *   pool is DISSOLVED (pool_active 0, pool_hand cleared): its cards become
 *   ordinary hidden cards. This forgets information but never contradicts
 *   it: every position consistent with the record before is consistent with
 *   it after. A second reshuffle dissolves the pool of the first (its cards
 *   are all in hands by then) and starts a new one. Everything in the record
 *   is public: it depends only on the actions played and the cards shown.
 */
#ifndef THREES_THREE_THIRTEEN_STATE_H
#define THREES_THREE_THIRTEEN_STATE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/error.h"
#include "common/portable.h"
#include "common/game.h"
#include "common/rng.h"
#include "three_thirteen/meld.h"
#include "three_thirteen/rules.h"

#define TT_ACTION_STOCK 0
#define TT_ACTION_TAKE_DISCARD 1
#define TT_FIRST_DISCARD 2
#define TT_FIRST_GO_OUT (TT_FIRST_DISCARD + TT_NUM_KINDS)
#define TT_NUM_ACTIONS (TT_FIRST_GO_OUT + TT_NUM_KINDS)
#define TT_NO_KIND 0xFF
#define TT_NO_SEAT 0xFF
#define TT_DEFAULT_MAX_MOVES 20000u

enum { TT_PHASE_DRAW = 0, TT_PHASE_DISCARD = 1, TT_PHASE_OVER = 2 };

/* THE LAYOUT (bitpacked, sized by the table). A fixed header (options,
 * scalars, the chance generator, turns and hand lengths per seat) and a
 * body whose parts are sized by the game's player count n, decks and deck
 * size, in this order (tt_layout):
 *   card sets   3 per seat (hand, known, pool_hand: TT_SET_*), each a set of
 *               `planes` 64-bit words: bit k of word j is set when the set
 *               holds more than j cards of kind k ("unary bit-planes": word 0
 *               is the kinds held, a count is the number of words with the
 *               bit, and word j + 1 is a subset of word j). planes = decks,
 *               the most copies of a kind (tt_kind_copies).
 *   totals      n int32
 *   round scores TT_ROUNDS rows of n int16 (round r's row r - 1)
 *   stock       deck_size bytes: the stock's kinds bottom first from byte 0
 *               (the top card last); the discard pile at the far end (its
 *               i-th card from the bottom is stock[deck_size - 1 - i]). No
 *               card is in both, so stock_len + discard_len <= deck_size.
 * A 4-player game with two decks and jokers: 88 + 192 + 16 + 88 + 108 = 492
 * bytes (tt_state_bytes); the largest table (8 players, 4 decks) 1,280. A
 * copy is memcpy of tt_state_bytes(s); the bytes past them are never read.
 * The totals and scores are read and written through memcpy (the body is
 * 64-bit words; no type punning). */
enum { TT_SET_HAND = 0, TT_SET_KNOWN = 1, TT_SET_POOL = 2, TT_NUM_SETS = 3 };
#define TT_BODY_BYTES (TT_MAX_PLAYERS * TT_NUM_SETS * TT_MAX_DECKS * 8 + TT_MAX_PLAYERS * 4 + \
                       TT_ROUNDS * TT_MAX_PLAYERS * 2 + TT_MAX_CARDS)

typedef struct tt_state {
  tt_options opt;
  uint8_t num_players;
  uint8_t round; /* 1..11 */
  uint8_t dealer;
  uint8_t current; /* TT_NO_SEAT when over */
  uint8_t phase;
  uint8_t out_seat;    /* the first seat out this round, or TT_NO_SEAT */
  uint8_t final_turns; /* turns left after out_seat went out */
  uint8_t out_mask;    /* seats out this round (they score 0) */
  uint8_t taken_kind;  /* kind taken from the discard pile this turn, or TT_NO_KIND */
  uint8_t truncated;
  uint8_t pool_active; /* knowledge (T-9): see above */
  uint8_t planes;      /* words per card set: opt.decks (the layout above) */
  uint16_t deck_size;  /* cards in the game: the stock's bytes */
  uint16_t stock_len, discard_len;
  uint32_t move_count;
  uint32_t max_moves;
  th_rng rng;                     /* chance: deals and reshuffles */
  uint8_t turns[TT_MAX_PLAYERS];  /* turns begun this round */
  uint8_t hand_len[TT_MAX_PLAYERS];
  uint64_t body[TT_BODY_BYTES / 8]; /* the layout above; only tt_state_bytes of the state are in use */
} tt_state;
_Static_assert(TT_BODY_BYTES % 8 == 0, "the body is whole words");

/* Byte offsets in the body (tt_layout, above). */
static inline size_t tt_sets_bytes(const tt_state *s) { return (size_t)s->num_players * TT_NUM_SETS * s->planes * 8; }
static inline size_t tt_totals_at(const tt_state *s) { return tt_sets_bytes(s); }
static inline size_t tt_scores_at(const tt_state *s) { return tt_sets_bytes(s) + (size_t)s->num_players * 4; }
static inline size_t tt_stock_at(const tt_state *s) {
  return tt_scores_at(s) + (size_t)TT_ROUNDS * s->num_players * 2;
}

/* The bytes of a state in use, which a copy must carry (th_game.state_bytes). */
static inline size_t tt_state_bytes(const tt_state *s) {
  return offsetof(tt_state, body) + tt_stock_at(s) + s->deck_size;
}
/* Sets planes and deck_size from opt and num_players (the layout's sizes). */
void tt_layout(tt_state *s);

/* Card sets: seat q's set `which` (TT_SET_*), s->planes words. */
static inline uint64_t *tt_set(tt_state *s, int q, int which) {
  return s->body + ((size_t)q * TT_NUM_SETS + (size_t)which) * s->planes;
}
static inline const uint64_t *tt_cset(const tt_state *s, int q, int which) {
  return s->body + ((size_t)q * TT_NUM_SETS + (size_t)which) * s->planes;
}
/* Cards of kind k (0..TT_NUM_KINDS-1) in a set of `planes` words. */
static inline int tt_set_count(const uint64_t *w, int planes, int k) {
  int c = 0;
  while (c < planes && ((w[c] >> k) & 1)) c++;
  return c;
}
/* One card of kind k more (the set holds fewer than `planes`), or less (it holds one). */
static inline void tt_set_add(uint64_t *w, int planes, int k) {
  int c = tt_set_count(w, planes, k);
  if (c < planes) w[c] |= UINT64_C(1) << k;
}
static inline void tt_set_remove(uint64_t *w, int planes, int k) {
  int c = tt_set_count(w, planes, k);
  if (c > 0) w[c - 1] &= ~(UINT64_C(1) << k);
}
/* The cards in a set (a SWAR bit count per word: no popcnt instruction needed). */
static inline int tt_set_size(const uint64_t *w, int planes) {
  int c = 0;
  for (int j = 0; j < planes; j++) {
    uint64_t x = w[j];
    x -= (x >> 1) & UINT64_C(0x5555555555555555);
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    c += (int)((x * UINT64_C(0x0101010101010101)) >> 56);
  }
  return c;
}
/* A set as TT_NUM_KINDS counts, and back (counts above `planes` are cut). */
void tt_set_counts(const uint64_t *w, int planes, uint8_t *counts);
void tt_set_from_counts(uint64_t *w, int planes, const uint8_t *counts);

/* Seat q's cards of kind k: in its hand, publicly known, hidden pool cards (T-9). */
static inline int tt_hand(const tt_state *s, int q, int k) { return tt_set_count(tt_cset(s, q, TT_SET_HAND), s->planes, k); }
static inline int tt_known(const tt_state *s, int q, int k) {
  return tt_set_count(tt_cset(s, q, TT_SET_KNOWN), s->planes, k);
}
static inline int tt_pool_hand(const tt_state *s, int q, int k) {
  return tt_set_count(tt_cset(s, q, TT_SET_POOL), s->planes, k);
}
/* The kinds seat q holds, bit k for kind k. */
static inline uint64_t tt_held_kinds(const tt_state *s, int q) { return tt_cset(s, q, TT_SET_HAND)[0]; }

/* Totals and round scores (round r = 1..TT_ROUNDS). */
static inline int32_t tt_total(const tt_state *s, int q) {
  int32_t v;
  memcpy(&v, (const uint8_t *)s->body + tt_totals_at(s) + (size_t)q * 4, 4);
  return v;
}
static inline void tt_set_total(tt_state *s, int q, int32_t v) {
  memcpy((uint8_t *)s->body + tt_totals_at(s) + (size_t)q * 4, &v, 4);
}
static inline int tt_round_score(const tt_state *s, int r, int q) {
  int16_t v;
  memcpy(&v, (const uint8_t *)s->body + tt_scores_at(s) + ((size_t)(r - 1) * s->num_players + (size_t)q) * 2, 2);
  return v;
}
static inline void tt_set_round_score(tt_state *s, int r, int q, int v) {
  int16_t x = (int16_t)v;
  memcpy((uint8_t *)s->body + tt_scores_at(s) + ((size_t)(r - 1) * s->num_players + (size_t)q) * 2, &x, 2);
}

/* The stock (kinds, bottom first: stock_len of them), and the i-th card of
 * the discard pile from the bottom (0 <= i < discard_len) and its place. */
static inline uint8_t *tt_stock(tt_state *s) { return (uint8_t *)s->body + tt_stock_at(s); }
static inline const uint8_t *tt_cstock(const tt_state *s) { return (const uint8_t *)s->body + tt_stock_at(s); }
static inline int tt_discard_at(const tt_state *s, int i) { return tt_cstock(s)[s->deck_size - 1 - i]; }
static inline uint8_t *tt_discard_slot(tt_state *s, int i) { return &tt_stock(s)[s->deck_size - 1 - i]; }
static inline int tt_discard_top(const tt_state *s) { return tt_discard_at(s, s->discard_len - 1); }

/* A new game: options checked, the first dealer drawn from the seed, round 1
 * dealt. max_moves 0 = TT_DEFAULT_MAX_MOVES. */
int tt_new_game(tt_state *s, const tt_options *o, int num_players, uint64_t seed, uint32_t max_moves,
                 th_error *e);

/* Legal actions, sorted, into out (TT_NUM_ACTIONS room); returns how many. */
int tt_legal_actions(const tt_state *s, uint16_t *out);
int tt_is_legal(const tt_state *s, int action);
/* Applies a legal action; anything else returns an error and changes nothing. */
int tt_apply_action(tt_state *s, int action, th_error *e);
void tt_apply_legal(tt_state *s, int action);
/* Chance chosen by the caller (the OpenSpiel adapter's stock draws): the draw
 * from the stock (action 0, which must be legal) giving the current seat a
 * card of kind `kind`. It must be in the stock, or, when the stock is empty,
 * in the discard pile below its top card: the reshuffle (T-3, the pool of
 * T-9) is made as tt_apply_action makes it. The chosen card is put on top
 * of the stock (the others keep their order) and drawn. Anything else
 * returns an error and changes nothing. */
int tt_apply_stock_draw(tt_state *s, int kind, th_error *e);

/* Seat p may discard a card of kind k now (holds one; T-2): not the one card
 * of the kind it took this turn, unless option rediscard_taken. Inline: the
 * policies ask it for every kind of every hand. */
static inline int tt_may_discard(const tt_state *s, int p, int k) {
  const uint64_t *h = tt_cset(s, p, TT_SET_HAND);
  if (!((h[0] >> k) & 1)) return 0;
  return !(k == s->taken_kind && !(s->planes > 1 && ((h[1] >> k) & 1)) && !s->opt.rediscard_taken);
}
/* Seat p may go out this turn at all (option go_out_first_turn). */
int tt_may_go_out(const tt_state *s, int p);
/* Minimum deadwood of seat p's hand now (meld.h), with the round's wild rank;
 * tt_deadwood_without leaves one card of kind `less` out (TT_NO_KIND: none). */
int tt_hand_deadwood(const tt_state *s, int p);
int tt_deadwood_without(const tt_state *s, int p, int less);
/* Naturals of seat p's hand that no arrangement can meld, every copy
 * counted, stopping once `cap` are found: tt_natural_isolated's test (no
 * possible set or run partner among the hand's other naturals and wilds)
 * on one bitmask per suit. With two or more wilds every natural has a
 * partner (0). Two or more mean no single discard leaves deadwood 0. */
int tt_hand_lonely(const tt_state *s, int p, int cap);
/* Seat p's hand as the solver takes it, cards in kind order: rank, suit,
 * kind and the droppable flag (tt_may_discard) of each; returns the number of
 * cards (at most TT_MAX_HAND). */
int tt_hand_cards(const tt_state *s, int p, uint8_t *rank, uint8_t *suit, uint8_t *kind, uint8_t *drop);
/* The least deadwood seat p can keep by discarding one card it may discard,
 * and in *kind_out the kind to discard: least deadwood, then the most
 * valuable card, then the lowest kind (one tt_min_deadwood_drop_one search,
 * meld.h). Returns 1 << 20 (kind -1) when no card may be discarded. */
int tt_best_discard(const tt_state *s, int p, int *kind_out);
/* tt_best_discard when only an answer below `limit` deadwood matters: the
 * same answer when the least deadwood is below limit, else limit and kind
 * -1 ("limit or more"), sooner (tt_min_deadwood_drop_one_below). */
int tt_best_discard_below(const tt_state *s, int p, int limit, int *kind_out);

/* One value per seat: by total score, place k worth (N-1-2k)/(N-1), equal
 * totals sharing their places; all 0 before the end (a game cut at the move
 * cap is ranked by the totals so far). */
void tt_returns(const tt_state *s, double *out);
/* Returns as tt_returns, from the totals so far, whether or not it is over. */
void tt_standings(const tt_state *s, double *out);

/* Knowledge (T-9), all public: the pool's cards of kind k (stock and hidden
 * hands), its size, and how many pool cards seat q holds. */
int tt_pool_count(const tt_state *s, int k);
int tt_pool_size(const tt_state *s);
int tt_pool_held(const tt_state *s, int q);
int tt_known_len(const tt_state *s, int q);

/* Every invariant (card conservation, counts, hand sizes for the round and
 * phase, round scores and totals within tt_max_round_score/tt_max_total of
 * the scored rounds, the move cap, phase, knowledge); 0 or TH_ERR_SETUP with
 * a message. Every state a game reaches passes it. */
int tt_state_check(const tt_state *s, th_error *e);

/* Building a position from its parts (setup.c; for State.from_dict): begin
 * (options and player count checked, everything empty), add every card of
 * the game one by one, mark the known and pool cards of each hand, finish
 * with the scalar fields; finish runs tt_state_check. Every value is
 * checked: on an error the state is no valid position and must not be used
 * (begin again); it never reads or writes out of bounds. */
enum {
  TT_ZONE_HAND = 0,      /* a card in seat's hand */
  TT_ZONE_KNOWN = 1,     /* marks one unmarked card of the kind in seat's hand as known (T-9) */
  TT_ZONE_POOL_HAND = 2, /* marks one unmarked card of the kind in seat's hand as a pool card (T-9) */
  TT_ZONE_STOCK = 3,     /* the next stock card, bottom first (the top card is added last) */
  TT_ZONE_DISCARD = 4,   /* the next discard, bottom first */
  TT_NUM_ZONES = 5
};
/* The scalar fields, as wide integers so that nothing is cut before it is
 * checked; seats and kinds use -1 for none. The num_* fields say how many
 * entries the caller had (it fills at most the room there is): each must be
 * the player count (turns, totals, each round-score row), the rounds scored
 * (round-score rows) or 4 (rng). */
typedef struct tt_setup_fields {
  int64_t round, dealer, current, phase, out_seat, final_turns, out_mask, taken_kind, truncated;
  int64_t move_count, max_moves, pool_active;
  int64_t num_turns, turns[TT_MAX_PLAYERS];
  int64_t num_totals, total[TT_MAX_PLAYERS];
  int64_t num_round_scores, round_score_len[TT_ROUNDS], round_score[TT_ROUNDS][TT_MAX_PLAYERS];
  int64_t num_rng;
  uint64_t rng[4];
} tt_setup_fields;
int tt_setup_begin(tt_state *s, const tt_options *o, int num_players, th_error *e);
int tt_setup_add(tt_state *s, int zone, int seat, int kind, th_error *e);
int tt_setup_finish(tt_state *s, const tt_setup_fields *f, th_error *e);

#endif
