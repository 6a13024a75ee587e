/* ismcts.h - single-observer information-set Monte Carlo tree search, for
 * every game with a th_game interface (common/game.h).
 *
 * SO-ISMCTS (Cowling, Powley and Whitehouse, 2012) for the player to move at
 * the root, the observer. Every iteration:
 *   1. determinize: copy the root and deal the cards the observer cannot see
 *      again at random (game->resample), so the search never uses hidden cards;
 *   2. select: from the root, while every legal action of the determinization
 *      already has a child, count one availability for each of those children
 *      and follow the one with the highest UCB value
 *          mean return of its mover + c * sqrt(ln(availability) / visits)
 *      (ties: the lower action id);
 *   3. expand: add one untried legal action, drawn uniformly;
 *   4. value: game->search_value finishes the determinization with the
 *      rollout policy for every seat (Shithead: to the end of the game, valued
 *      by its returns; Three Thirteen: to the end of the root's round, valued
 *      by that round's score margins, see three_thirteen/game.c);
 *   5. back up: each node on the path adds the value of the seat that made
 *      its move.
 * The answer is the root's most visited child (ties: the lower action id);
 * with no child at all (room for the root only), the rollout policy's move.
 *
 * Memory: the tree lives in a node array the caller provides and the scratch
 * state on the stack (no allocation here); when the array is full, iterations
 * stop expanding and go on from where they are. Every loop is bounded by the
 * iteration count, the array, TH_ISMCTS_MAX_DEPTH and the game's move cap.
 * Selection always follows a child: a UCB value that is NaN counts as -inf,
 * so with no better value the first legal child is taken. One node array
 * serves one search at a time (two searches in one array at once corrupt
 * each other's tree: give each thread its own).
 *
 * Stopping: with a time limit, or a stop hook in cfg->stop, the search asks
 * the clock and then the hook before every iteration and, through
 * search_value's th_stop, every TH_STOP_MOVES moves of a long rollout; when
 * the time is up or the hook says stop, the iteration in progress is
 * abandoned (its new node, if any, is taken back and nothing is backed up)
 * and the answer comes from the iterations done. The hook does not change
 * the search while it says go on.
 * With time_limit 0 the search is deterministic: the same root, seed and
 * settings give the same tree. The random draws come from one generator
 * seeded with cfg->seed, in this order per iteration: the resample, the
 * expansion's pick, the value's rollout.
 */
#ifndef THREES_COMMON_ISMCTS_H
#define THREES_COMMON_ISMCTS_H

#include <stdint.h>

#include "common/error.h"
#include "common/game.h"

#define TH_ISMCTS_MAX_DEPTH 2048 /* selection stops deeper than this (never reached in practice) */
#define TH_ISMCTS_NO_MOVER 0xFF  /* the root's mover */

typedef struct th_ismcts_node {
  int32_t first_child;  /* index into the array, or -1 */
  int32_t next_sibling; /* index, or -1 */
  uint32_t visits;
  uint32_t avail; /* times the node's action was legal when its parent selected */
  double reward;  /* sum of the values of `mover` */
  uint16_t action;
  uint8_t mover; /* the seat that played `action` */
  uint8_t pad;
} th_ismcts_node;

typedef struct th_ismcts_config {
  uint32_t iterations;    /* at most this many iterations (>= 1) */
  double time_limit;      /* seconds, finite, >= 0; 0 = no limit (then deterministic) */
  double exploration;     /* the UCB constant c, finite, >= 0; 0.7 is a good start for values in [-1, 1] */
  uint8_t rollout_policy; /* a policy id of the game, for every seat */
  uint64_t seed;
  const th_stop *stop; /* NULL, or a hook that ends the search early when it says stop (common/game.h) */
} th_ismcts_config;

typedef struct th_ismcts_stats {
  uint32_t iterations; /* iterations run */
  uint32_t nodes;      /* nodes used, the root included */
  int best_action;     /* the root's most visited child */
  int stopped;         /* 0: ran to the end; 1: the time limit ended it; 2: cfg->stop did */
} th_ismcts_stats;

/* Searches from `root` (a live state of `game`) for its player to move. The
 * arena holds `capacity` nodes (>= 1). Root children's action, visits and
 * mean value go into out_actions/out_visits/out_values (room for
 * game->max_actions each; any may be NULL) and their number into
 * *out_children. Returns 0, or an error code with e set: TH_ERR_ARG for bad
 * settings (iterations 0, capacity 0, an exploration or time limit that is
 * negative, NaN or infinite, an unknown policy, a game beyond the TH_MAX_*
 * bounds) or a root that is over; the game's check code for a root that
 * fails it. */
int th_ismcts_search(const th_game *game, const void *root, const th_ismcts_config *cfg, th_ismcts_node *arena,
                     uint32_t capacity, th_ismcts_stats *stats, uint16_t *out_actions, uint32_t *out_visits,
                     double *out_values, int *out_children, th_error *e);

#endif
