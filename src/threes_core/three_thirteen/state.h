/* thirteen.h - Three Thirteen, the rummy game (THREE_THIRTEEN.md).
 *
 * The game in short: 11 rounds; in round k every player is dealt k + 2 cards
 * and the rank equal to that number is wild (3s in round 1 ... Kings in round
 * 11; jokers are always wild). A turn: draw the top card of the stock or of
 * the discard pile, then discard one card or go out (the hand less the
 * discard arranges entirely into sets and runs, meld.h). After a player goes
 * out every other player has one more turn; then each player scores the
 * minimum deadwood of their hand (0 for those out) and the deal passes left.
 * The lowest total after 11 rounds wins; equal totals share the place.
 *
 * Cards are kinds (copies of one kind are interchangeable): kind =
 * 4 * (rank - 1) + suit for rank 1..13 (A..K) and suit 0..3 (c d h s); 52 and
 * 53 are the red and black jokers.
 *
 * Action map (the same in every state of every game):
 *   0              draw the top card of the stock
 *   1              take the top card of the discard pile
 *   2 + k          discard one card of kind k          (k < TT_NUM_KINDS)
 *   2 + 54 + k     go out, discarding one card of kind k
 *
 * Chance (later deals, reshuffles of the discard pile) comes from the state's
 * own generator, seeded with the game: the same seed gives the same game.
 * The state is fixed-size and heap-free; every loop is bounded.
 */
#ifndef THREES_THREE_THIRTEEN_STATE_H
#define THREES_THREE_THIRTEEN_STATE_H

#include <stdint.h>

#include "three_thirteen/meld.h"
#include "common/rng.h"
#include "common/error.h"
#include "common/game.h"

#define TT_MIN_PLAYERS 2
#define TT_MAX_PLAYERS 8
#define TT_MAX_DECKS 4
#define TT_NUM_KINDS 54
#define TT_MAX_CARDS (TT_MAX_DECKS * TT_NUM_KINDS)
#define TT_ROUNDS 11
#define TT_ACTION_STOCK 0
#define TT_ACTION_TAKE_DISCARD 1
#define TT_FIRST_DISCARD 2
#define TT_FIRST_GO_OUT (TT_FIRST_DISCARD + TT_NUM_KINDS)
#define TT_NUM_ACTIONS (TT_FIRST_GO_OUT + TT_NUM_KINDS)
#define TT_NO_KIND 0xFF
#define TT_NO_SEAT 0xFF
#define TT_DEFAULT_MAX_MOVES 20000u

enum { TT_PHASE_DRAW = 0, TT_PHASE_DISCARD = 1, TT_PHASE_OVER = 2 };

typedef struct tt_options {
  uint8_t decks;  /* 52-card decks, 1..4 (default ceil(players / 2)) */
  uint8_t jokers; /* jokers per deck, 0..2 */
  tt_meld_options meld;
  uint8_t rediscard_taken;   /* the card taken from the discard pile may be discarded the same turn */
  uint8_t go_out_first_turn; /* a player may go out on their first turn of a round */
} tt_options;

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
  uint8_t hand[TT_MAX_PLAYERS][TT_NUM_KINDS]; /* cards of each kind */
  uint16_t stock_len, discard_len;
  uint8_t stock[TT_MAX_CARDS];   /* kinds, the top card last */
  uint8_t discard[TT_MAX_CARDS]; /* kinds, the top card last */
  int16_t round_score[TT_ROUNDS][TT_MAX_PLAYERS];
  int32_t total[TT_MAX_PLAYERS];
} tt_state;

static inline int tt_kind_rank(int kind) { return kind >= 52 ? 0 : kind / 4 + 1; } /* 0 = joker */
static inline int tt_kind_suit(int kind) { return kind >= 52 ? kind - 52 : kind % 4; }
static inline int tt_wild_rank(int round) { return round + 2; }

/* Defaults of THREE_THIRTEEN.md for a player count. */
void tt_options_default(int num_players, tt_options *out);
/* 0, or an error code with e set (bad values, or too few cards for round 11). */
int tt_options_validate(const tt_options *o, int num_players, th_error *e);

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

/* Minimum deadwood of seat p's hand now (meld.h), with the round's wild rank. */
int tt_hand_deadwood(const tt_state *s, int p);
/* One value per seat: by total score, place k worth (N-1-2k)/(N-1), equal
 * totals sharing their places; all 0 before the end (a game cut at the move
 * cap is ranked by the totals so far). */
void tt_returns(const tt_state *s, double *out);
/* Every invariant (card conservation, counts, phase); 0 or TH_ERR_SETUP. */
int tt_state_check(const tt_state *s, th_error *e);

/* Resamples the cards `observer` cannot see (other hands, the stock) and the
 * chance stream, uniformly; what the observer sees stays. */
int tt_resample(tt_state *s, int observer, th_rng *rng, th_error *e);

/* Policies: 0 random (uniform over the legal actions), 1 greedy (take the
 * discard when that lowers the deadwood, discard the card leaving the least
 * deadwood, go out when possible). */
enum { TT_POLICY_RANDOM = 0, TT_POLICY_GREEDY = 1, TT_NUM_POLICIES = 2 };
int tt_policy_action(const tt_state *s, int policy, th_rng *rng);
/* Plays to the end with policies[q] for seat q; returns the moves played. */
uint32_t tt_rollout(tt_state *s, const uint8_t *policies, th_rng *rng);
/* The same, but only to the end of the current round (for search: a whole
 * game of greedy play is some 350 moves); then the state is over when the
 * game is, else it is the next round's deal. Returns the moves played. */
uint32_t tt_rollout_round(tt_state *s, const uint8_t *policies, th_rng *rng);
/* Returns as tt_returns, from the totals so far, whether or not it is over. */
void tt_standings(const tt_state *s, double *out);
/* The value of a scored round for search: for each seat, the mean score of
 * the others less its own, over 10, clipped to [-1, 1] (a round's scores
 * say far more about the moves of that round than the standings do). */
void tt_round_margin(const tt_state *s, int round, double *out);

/* A benchmark of the solver: `hands` random 14-card hands from two decks
 * with jokers, each with 0..8 wild cards (hand i: w = i % 9) and a random
 * wild rank, solved with tt_min_deadwood; returns the sum of the deadwoods
 * (a checksum). The hands are made before the clock matters: see the
 * benchmark in benchmarks/, which times the whole call and subtracts
 * tt_bench_hands, the same loop without the solver. */
uint64_t tt_bench_solver(uint64_t seed, int hands, int solve);

#endif
