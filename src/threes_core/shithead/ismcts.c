/* ismcts.c - SO-ISMCTS; see ismcts.h. */
#include "shithead/ismcts.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "shithead/determinize.h"
#include "shithead/rollout.h"

#define MAX_DEPTH 2048 /* selection stops deeper than this (never reached in practice) */

static double seconds_now(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int32_t new_node(sh_ismcts_node *arena, uint32_t capacity, uint32_t *used, int32_t parent, int action,
                        int mover) {
  if (*used >= capacity) return -1;
  int32_t i = (int32_t)(*used)++;
  sh_ismcts_node *nd = &arena[i];
  memset(nd, 0, sizeof *nd);
  nd->first_child = -1;
  nd->next_sibling = arena[parent].first_child;
  nd->action = (uint16_t)action;
  nd->mover = (uint8_t)mover;
  arena[parent].first_child = i;
  return i;
}

int sh_ismcts_search(const sh_state *root, const sh_ismcts_config *cfg, sh_ismcts_node *arena, uint32_t capacity,
                     sh_ismcts_stats *stats, uint16_t *out_actions, uint32_t *out_visits, double *out_values,
                     int *out_children, th_error *e) {
  if (!cfg || !arena || capacity < 1 || cfg->iterations < 1 || cfg->rollout_policy >= SH_NUM_POLICIES ||
      !(cfg->exploration >= 0.0) || !(cfg->time_limit >= 0.0)) {
    th_set_error(e, TH_ERR_ARG,
                 "ISMCTS needs iterations >= 1, a node capacity >= 1, exploration >= 0, time_limit >= 0 and a "
                 "known rollout policy");
    return TH_ERR_ARG;
  }
  int rc = sh_state_check(root, e);
  if (rc) return rc;
  if (root->phase == SH_PHASE_OVER) {
    th_set_error(e, TH_ERR_ARG, "the game is over: there is no move to search for");
    return TH_ERR_ARG;
  }
  int observer = root->current;
  uint8_t policies[SH_MAX_PLAYERS];
  memset(policies, cfg->rollout_policy, sizeof policies);
  th_rng rng;
  th_rng_seed(&rng, cfg->seed);
  uint32_t used = 1;
  memset(&arena[0], 0, sizeof arena[0]);
  arena[0].first_child = arena[0].next_sibling = -1;
  arena[0].mover = SH_NO_SEAT;

  uint8_t legal_mark[SH_MAX_DISTINCT_ACTIONS]; /* all 0 between steps */
  uint16_t legal[SH_MAX_DISTINCT_ACTIONS];
  memset(legal_mark, 0, sizeof legal_mark);
  int32_t path[MAX_DEPTH];
  double returns[SH_MAX_PLAYERS];
  double deadline = cfg->time_limit > 0 ? seconds_now() + cfg->time_limit : 0;
  uint32_t it = 0;
  sh_state d;
  for (; it < cfg->iterations; it++) {
    if (deadline && (it & 15) == 0 && it > 0 && seconds_now() >= deadline) break;
    d = *root;
    sh_resample(&d, observer, &rng, NULL);
    int depth = 0;
    int32_t node = 0;
    path[depth++] = 0;
    /* Selection and expansion: each step applies one legal action, so the
     * walk is bounded by the move cap, MAX_DEPTH and the arena. */
    while (d.phase != SH_PHASE_OVER && depth < MAX_DEPTH) {
      int n = sh_legal_actions(&d, legal);
      for (int k = 0; k < n; k++) legal_mark[legal[k]] = 1;
      int untried = n;
      for (int32_t c = arena[node].first_child; c >= 0; c = arena[c].next_sibling)
        if (legal_mark[arena[c].action] == 1) {
          legal_mark[arena[c].action] = 2; /* legal and already a child */
          untried--;
        }
      int32_t next = -1;
      if (untried > 0) {
        int pick = (int)th_rng_below(&rng, (uint32_t)untried), a = -1;
        for (int k = 0; k < n; k++)
          if (legal_mark[legal[k]] == 1 && pick-- == 0) {
            a = legal[k];
            break;
          }
        for (int k = 0; k < n; k++) legal_mark[legal[k]] = 0;
        next = new_node(arena, capacity, &used, node, a, d.current);
        sh_apply_legal(&d, a);
        if (next >= 0) path[depth++] = next;
        break; /* a new leaf (or a full arena): roll out from here */
      }
      double best = -HUGE_VAL;
      for (int32_t c = arena[node].first_child; c >= 0; c = arena[c].next_sibling) {
        sh_ismcts_node *ch = &arena[c];
        if (legal_mark[ch->action] != 2) continue;
        ch->avail++;
        double v = ch->reward / ch->visits + cfg->exploration * sqrt(log((double)ch->avail) / ch->visits);
        if (v > best || (v == best && next >= 0 && ch->action < arena[next].action)) {
          best = v;
          next = c;
        }
      }
      for (int k = 0; k < n; k++) legal_mark[legal[k]] = 0;
      sh_apply_legal(&d, arena[next].action);
      node = next;
      path[depth++] = node;
    }
    if (d.phase != SH_PHASE_OVER) sh_rollout(&d, policies, &rng);
    sh_returns(&d, returns);
    for (int k = 0; k < depth; k++) {
      sh_ismcts_node *nd = &arena[path[k]];
      nd->visits++;
      if (k > 0) nd->reward += returns[nd->mover];
    }
  }

  int nc = 0, best_action = -1;
  uint32_t best_visits = 0;
  for (int32_t c = arena[0].first_child; c >= 0; c = arena[c].next_sibling) {
    const sh_ismcts_node *ch = &arena[c];
    if (out_actions) out_actions[nc] = ch->action;
    if (out_visits) out_visits[nc] = ch->visits;
    if (out_values) out_values[nc] = ch->visits ? ch->reward / ch->visits : 0.0;
    nc++;
    if (ch->visits > best_visits || (ch->visits == best_visits && ch->action < best_action)) {
      best_visits = ch->visits;
      best_action = ch->action;
    }
  }
  /* No child (a node array with room for the root only): the rollout
   * policy's choice, so the answer is still a legal action. */
  if (best_action < 0) best_action = sh_policy_action(root, cfg->rollout_policy, &rng);
  if (out_children) *out_children = nc;
  if (stats) {
    stats->iterations = it;
    stats->nodes = used;
    stats->best_action = best_action;
  }
  if (e) e->code = TH_OK;
  return TH_OK;
}
