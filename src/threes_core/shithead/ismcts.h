/* ismcts.h - single-observer information-set Monte Carlo tree search.
 *
 * SO-ISMCTS (Cowling, Powley and Whitehouse, 2012) for the player to move at
 * the root, the observer. Every iteration:
 *   1. determinize: copy the root and deal the cards the observer cannot see
 *      again at random (sh_resample), so the search never uses hidden cards;
 *   2. select: from the root, while every legal action of the determinization
 *      already has a child, count one availability for each of those children
 *      and follow the one with the highest UCB value
 *          mean return of its mover + c * sqrt(ln(availability) / visits);
 *   3. expand: add one untried legal action, drawn uniformly;
 *   4. roll out: play the determinization to the end with a C policy for
 *      every seat (sh_rollout);
 *   5. back up: each node on the path adds the return of the seat that made
 *      its move (sh_returns, in [-1, 1]).
 * The answer is the root's most visited child (ties: the lower action id);
 * with no child at all (room for the root only), the rollout policy's move.
 *
 * Memory: the tree lives in a node array the caller provides (no allocation
 * here); when it is full, iterations stop expanding and roll out from where
 * they are. Every loop is bounded by the iteration count, the array and the
 * game's move cap. With time_limit 0 the search is deterministic: the same
 * root, seed and settings give the same tree.
 */
#ifndef THREES_SHITHEAD_ISMCTS_H
#define THREES_SHITHEAD_ISMCTS_H

#include <stdint.h>

#include "shithead/state.h"

typedef struct sh_ismcts_node {
  int32_t first_child;  /* index into the array, or -1 */
  int32_t next_sibling; /* index, or -1 */
  uint32_t visits;
  uint32_t avail; /* times the node's action was legal when its parent selected */
  double reward;  /* sum of the returns of `mover` */
  uint16_t action;
  uint8_t mover; /* the seat that played `action` */
  uint8_t pad;
} sh_ismcts_node;

typedef struct sh_ismcts_config {
  uint32_t iterations;    /* at most this many iterations (>= 1) */
  double time_limit;      /* seconds; 0 = no limit (then deterministic) */
  double exploration;     /* the UCB constant c (>= 0); 0.7 is a good start for returns in [-1, 1] */
  uint8_t rollout_policy; /* SH_POLICY_*, for every seat in the rollouts */
  uint64_t seed;
} sh_ismcts_config;

typedef struct sh_ismcts_stats {
  uint32_t iterations; /* iterations run */
  uint32_t nodes;      /* nodes used, the root included */
  int best_action;     /* the root's most visited child */
} sh_ismcts_stats;

/* Searches from `root` (a live state: not over) for its player to move. The
 * arena holds `capacity` nodes (>= 1). Root children's action, visits and
 * mean return go into out_actions/out_visits/out_values (room for
 * SH_MAX_DISTINCT_ACTIONS each; any may be NULL) and their number into
 * *out_children. Returns 0, or an error code with e set (bad settings, a root
 * that is over or fails sh_state_check). */
int sh_ismcts_search(const sh_state *root, const sh_ismcts_config *cfg, sh_ismcts_node *arena, uint32_t capacity,
                     sh_ismcts_stats *stats, uint16_t *out_actions, uint32_t *out_visits, double *out_values,
                     int *out_children, th_error *e);

#endif
