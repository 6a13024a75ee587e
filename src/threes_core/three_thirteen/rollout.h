/* rollout.h - Three Thirteen's policies and rollouts in C, single and
 * batched on native threads.
 *
 * Policies: 0 random (uniform over the legal actions: legal[below(n)], one
 * draw per decision), 1 greedy (take the discard when that lowers the
 * deadwood, discard the card leaving the least deadwood, the dearest among
 * equals, go out when possible). Both read only the mover's own hand and
 * public cards. Within one rollout the greedy policy memoises, per seat, its
 * hand's deadwood and its best discard (exact: keyed by round, hand and the
 * card taken), so a turn costs one drop-one search when the seat takes the
 * discard and two when it draws from the stock.
 *
 * Batches (tt_rollouts): game i of a batch (index first + i) is
 *   fresh:  a new game with start's options, players and move cap, dealt from
 *           th_batch_seed(seed, i) and played with th_batch_rng(seed ^ i, 0)
 *           (the policy stream of earlier releases, kept so that the same
 *           seed gives the same games);
 *   else:   a copy of *start, played with th_batch_rng(seed, i); with
 *           `determinize` first resampled from `observer`'s view with that
 *           same rng (determinize.h).
 * Games are split over threads by index and each depends only on (seed, i),
 * so a batch's results do not depend on the number of threads. No heap; the
 * threads only write their own games' rows.
 */
#ifndef THREES_THREE_THIRTEEN_ROLLOUT_H
#define THREES_THREE_THIRTEEN_ROLLOUT_H

#include <stdint.h>

#include "common/batch.h"
#include "common/game.h"
#include "common/rng.h"
#include "three_thirteen/state.h"

enum { TT_POLICY_RANDOM = 0, TT_POLICY_GREEDY = 1, TT_NUM_POLICIES = 2 };

/* The action a policy picks for the seat to move; -1 when the game is over. */
int tt_policy_action(const tt_state *s, int policy, th_rng *rng);
/* Plays to the end with policies[q] for seat q; returns the moves played. */
uint32_t tt_rollout(tt_state *s, const uint8_t *policies, th_rng *rng);
/* The same, but only to the end of the current round (for search: a whole
 * game of greedy play is some 350 moves); then the state is over when the
 * game is, else it is the next round's deal. Returns the moves played. */
uint32_t tt_rollout_round(tt_state *s, const uint8_t *policies, th_rng *rng);
/* tt_rollout_round's moves and random draws, asking th_stop_now(stop) every
 * TH_STOP_MOVES moves: returns 1 (the round unfinished) when it says stop,
 * else 0 at the end of the round. */
int tt_rollout_round_stoppable(tt_state *s, const uint8_t *policies, th_rng *rng, const th_stop *stop);
/* The value of a scored round for search: for each seat, the mean score of
 * the others less its own, over 10, clipped to [-1, 1] (a round's scores
 * say far more about the moves of that round than the standings do). */
void tt_round_margin(const tt_state *s, int round, double *out);

typedef struct tt_batch {
  /* the start position; fresh: the template (options, players, move cap).
   * Every game reads it, from any thread: it must not change while the
   * batch runs (the Python binding passes a private copy, taken once). */
  const tt_state *start;
  uint8_t start_valid;   /* 1: the caller vouches that start passed tt_state_check (the bindings' states do:
                          * they are built only by checked setup and legal moves), so it is not checked again */
  uint8_t fresh;         /* 1: new games (see above) */
  uint8_t determinize;   /* 1: resample each game from observer's view first (not with fresh) */
  uint8_t observer;
  uint8_t round_only; /* 1: play the start's round only; returns are then tt_round_margin of it */
  uint8_t policies[TT_MAX_PLAYERS];
  uint64_t seed;
  int64_t n;         /* games */
  int64_t first;     /* game i of this call is game first + i of the batch */
  int32_t *totals;   /* n * N: final totals */
  double *returns;   /* n * N: tt_returns (or the round margins) */
  uint32_t *moves;   /* n: moves played */
  uint8_t *truncated; /* n: 1 when the game hit the move cap */
  const th_stop *stop; /* NULL, or asked on the calling thread at least every TH_STOP_MOVES moves (th_run_parts) */
} tt_batch;

/* Plays a batch on `threads` native threads (1 = the calling thread only;
 * at most TH_MAX_THREADS). Returns 0, or an error code with e set (bad start
 * state, policies, observer, counts or thread count), or TH_ERR_STOPPED when
 * b->stop said stop (the outputs are then unspecified). Asking b->stop never
 * changes a game. */
int tt_rollouts(const tt_batch *b, int threads, th_error *e);

/* A benchmark of the solver: `hands` random 14-card hands from two decks
 * with jokers, each with 0..8 wild cards (hand i: w = i % 9) and a random
 * wild rank, solved with tt_min_deadwood; returns the sum of the deadwoods
 * (a checksum). The hands are made before the clock matters: see the
 * benchmark in benchmarks/, which times the whole call and subtracts
 * tt_bench_hands, the same loop without the solver. */
uint64_t tt_bench_solver(uint64_t seed, int hands, int solve);

#endif
