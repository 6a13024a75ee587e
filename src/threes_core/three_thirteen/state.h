/* state.h - a Three Thirteen position: the deal, legal actions, applying
 * them, scores, returns and the invariant check (docs/three_thirteen/RULES.md sections
 * Rounds, A turn, Going out and scoring, What each player knows; T-2, T-3,
 * T-7, T-9). The action map is in three_thirteen.h.
 *
 * Chance (later deals, reshuffles of the discard pile) comes from the state's
 * own generator, seeded with the game: the same seed gives the same game.
 * The state is fixed-size and heap-free; every loop is bounded.
 *
 * KNOWLEDGE (T-9). Besides the cards, the state records what is public about
 * the hidden cards, so that observations and resampling (determinize.h) can
 * follow it:
 *   known[q][k]      cards of kind k in seat q's hand that everyone knows:
 *                    taken from the discard pile (one more per take), and the
 *                    whole hand of a seat that went out or was scored at the
 *                    end of the game. A discard of kind k by q forgets one
 *                    known k of q when there is one (the table cannot tell
 *                    which copy went, so it assumes the known one: the rest
 *                    of q's hand stays consistent either way).
 *   pool_active      1 from a reshuffle (T-3) on: the stock was then made of a
 *                    known multiset, the pool, and every card in the stock is
 *                    a pool card.
 *   pool_hand[q][k]  cards of kind k in seat q's hand that q drew from the
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

#include "common/error.h"
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

/* One seat's cards (in tt_state.seat): of each kind, the cards in its hand,
 * the publicly known ones among them and its hidden pool cards (T-9, above). */
typedef struct tt_seat {
  uint8_t hand[TT_NUM_KINDS];      /* cards of each kind */
  uint8_t known[TT_NUM_KINDS];     /* known[k] */
  uint8_t pool_hand[TT_NUM_KINDS]; /* pool_hand[k] */
} tt_seat;

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
  uint32_t move_count;
  uint32_t max_moves;
  th_rng rng;                            /* chance: deals and reshuffles */
  uint8_t turns[TT_MAX_PLAYERS];        /* turns begun this round */
  uint8_t hand_len[TT_MAX_PLAYERS];
  uint16_t stock_len, discard_len;
  /* The stock, kinds bottom first from index 0 (the top card last); the
   * discard pile lives at the far end of the same array (tt_discard_at: its
   * i-th card from the bottom is stock[TT_MAX_CARDS - 1 - i], the top card
   * i = discard_len - 1). No card is in both, so stock_len + discard_len
   * never exceeds the deck. */
  uint8_t stock[TT_MAX_CARDS];
  int16_t round_score[TT_ROUNDS][TT_MAX_PLAYERS];
  int32_t total[TT_MAX_PLAYERS];
  /* knowledge (T-9): see above */
  uint8_t pool_active;
  /* What each seat holds, seat by seat, last: a copy carries the seats of
   * the game only (tt_state_bytes); seat[q] for q >= num_players is never
   * read. */
  tt_seat seat[TT_MAX_PLAYERS];
} tt_state;

/* The i-th card of the discard pile from the bottom (0 <= i < discard_len),
 * and its place (see stock[] above). */
static inline int tt_discard_at(const tt_state *s, int i) { return s->stock[TT_MAX_CARDS - 1 - i]; }
static inline uint8_t *tt_discard_slot(tt_state *s, int i) { return &s->stock[TT_MAX_CARDS - 1 - i]; }
static inline int tt_discard_top(const tt_state *s) { return tt_discard_at(s, s->discard_len - 1); }

/* The bytes of a state in use, which a copy must carry (th_game.state_bytes):
 * the fields before the seats and the game's seats. A copy is memcpy of
 * tt_state_bytes(s) bytes; the bytes past them are never read. */
static inline size_t tt_state_bytes(const tt_state *s) {
  int n = s->num_players < TT_MAX_PLAYERS ? s->num_players : TT_MAX_PLAYERS;
  return offsetof(tt_state, seat) + (size_t)n * sizeof(tt_seat);
}

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
  if (!s->seat[p].hand[k]) return 0;
  return !(k == s->taken_kind && s->seat[p].hand[k] == 1 && !s->opt.rediscard_taken);
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
