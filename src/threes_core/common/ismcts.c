/* ismcts.c - SO-ISMCTS over the th_game interface; see ismcts.h. */
#include "common/ismcts.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "common/thread.h"

static double seconds_now(void) { return th_monotonic_seconds(); }

/* The search's own stop hook: the deadline, then the caller's hook. Once it
 * has said stop it keeps saying so. */
typedef struct {
  double deadline; /* 0: none */
  const th_stop *user;
  int stopped; /* th_ismcts_stats.stopped */
} search_stop;

static int search_should_stop(void *ctx) {
  search_stop *st = (search_stop *)ctx;
  if (st->stopped) return 1;
  if (st->deadline > 0 && seconds_now() >= st->deadline)
    st->stopped = 1;
  else if (th_stop_now(st->user))
    st->stopped = 2;
  return st->stopped != 0;
}

static int32_t new_node(th_ismcts_node *arena, uint32_t capacity, uint32_t *used, int32_t parent, int action,
                        int mover) {
  if (*used >= capacity) return -1;
  int32_t i = (int32_t)(*used)++;
  th_ismcts_node *nd = &arena[i];
  memset(nd, 0, sizeof *nd);
  nd->first_child = -1;
  nd->next_sibling = arena[parent].first_child;
  nd->action = (uint16_t)action;
  nd->mover = (uint8_t)mover;
  arena[parent].first_child = i;
  return i;
}

static int game_ok(const th_game *g) {
  return g && g->state_size > 0 && g->state_size <= TH_MAX_STATE_BYTES && g->state_bytes && g->max_players >= 1 &&
         g->max_players <= TH_MAX_PLAYERS && g->max_players < TH_ISMCTS_NO_MOVER && g->max_actions >= 1 &&
         g->max_actions <= TH_MAX_ACTIONS && g->num_policies >= 1 && g->check && g->current_player && g->is_over &&
         g->legal_actions && g->apply_legal && g->resample && g->policy_action && g->search_value;
}

int th_ismcts_search(const th_game *game, const void *root, const th_ismcts_config *cfg, th_ismcts_node *arena,
                     uint32_t capacity, th_ismcts_stats *stats, uint16_t *out_actions, uint32_t *out_visits,
                     double *out_values, int *out_children, th_error *e) {
  if (!game_ok(game) || !root) {
    th_set_error(e, TH_ERR_ARG, "ISMCTS needs a game interface within the TH_MAX_* bounds and a root state");
    return TH_ERR_ARG;
  }
  if (!cfg || !arena || capacity < 1 || cfg->iterations < 1 || cfg->rollout_policy >= game->num_policies ||
      !(cfg->exploration >= 0.0) || !isfinite(cfg->exploration) || !(cfg->time_limit >= 0.0) ||
      !isfinite(cfg->time_limit)) {
    th_set_error(e, TH_ERR_ARG,
                 "ISMCTS needs iterations >= 1, a node capacity >= 1, a finite exploration >= 0, a finite "
                 "time_limit >= 0 and a known rollout policy");
    return TH_ERR_ARG;
  }
  int rc = game->check(root, e);
  if (rc) return rc;
  int observer = game->current_player(root);
  if (game->is_over(root) || observer < 0 || observer >= game->max_players) {
    th_set_error(e, TH_ERR_ARG, "the game is over: there is no move to search for");
    return TH_ERR_ARG;
  }
  const int policy = cfg->rollout_policy;
  th_rng rng;
  th_rng_seed(&rng, cfg->seed);
  uint32_t used = 1;
  memset(&arena[0], 0, sizeof arena[0]);
  arena[0].first_child = arena[0].next_sibling = -1;
  arena[0].mover = TH_ISMCTS_NO_MOVER;

  uint8_t legal_mark[TH_MAX_ACTIONS]; /* all 0 between steps */
  uint16_t legal[TH_MAX_ACTIONS];
  memset(legal_mark, 0, (size_t)game->max_actions);
  int32_t path[TH_ISMCTS_MAX_DEPTH];
  double values[TH_MAX_PLAYERS];
  union {
    max_align_t align;
    unsigned char bytes[TH_MAX_STATE_BYTES];
  } scratch;
  void *d = scratch.bytes;
  const size_t size = game->state_bytes(root); /* the bytes of root in use */
  search_stop ss = {cfg->time_limit > 0 ? seconds_now() + cfg->time_limit : 0, cfg->stop, 0};
  const th_stop hook = {search_should_stop, &ss};
  const th_stop *stop = ss.deadline > 0 || cfg->stop ? &hook : NULL; /* NULL: nothing can stop the search */
  uint32_t it = 0;
  for (; it < cfg->iterations; it++) {
    if (th_stop_now(stop)) break;
    memcpy(d, root, size);
    game->resample(d, observer, &rng, NULL);
    int depth = 0;
    int32_t node = 0, added = -1; /* added: the node this iteration expanded, if any */
    path[depth++] = 0;
    /* Selection and expansion: each step applies one legal action, so the
     * walk is bounded by the move cap, the depth bound and the arena. */
    while (!game->is_over(d) && depth < TH_ISMCTS_MAX_DEPTH) {
      int n = game->legal_actions(d, legal);
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
        next = new_node(arena, capacity, &used, node, a, game->current_player(d));
        game->apply_legal(d, a);
        if (next >= 0) path[depth++] = added = next;
        break; /* a new leaf (or a full arena): value from here */
      }
      double best = -HUGE_VAL;
      for (int32_t c = arena[node].first_child; c >= 0; c = arena[c].next_sibling) {
        th_ismcts_node *ch = &arena[c];
        if (legal_mark[ch->action] != 2) continue;
        ch->avail++;
        double v = ch->reward / ch->visits + cfg->exploration * sqrt(log((double)ch->avail) / ch->visits);
        if (isnan(v)) v = -HUGE_VAL; /* never reached with finite settings; then the first child still goes */
        if (next < 0 || v > best || (v == best && ch->action < arena[next].action)) {
          best = v;
          next = c;
        }
      }
      for (int k = 0; k < n; k++) legal_mark[legal[k]] = 0;
      if (next < 0) break; /* not reached: untried == 0 means some child is legal here */
      game->apply_legal(d, arena[next].action);
      node = next;
      path[depth++] = node;
    }
    if (game->search_value(root, d, policy, &rng, stop, values)) {
      /* Stopped inside a long rollout: abandon this iteration. Its new node
       * is the last one made and its parent's first child: take it back. */
      if (added >= 0) {
        arena[node].first_child = arena[added].next_sibling; /* node: the parent it was added to */
        used--;
      }
      break;
    }
    for (int k = 0; k < depth; k++) {
      th_ismcts_node *nd = &arena[path[k]];
      nd->visits++;
      if (k > 0) nd->reward += values[nd->mover];
    }
  }

  int nc = 0, best_action = -1;
  uint32_t best_visits = 0;
  for (int32_t c = arena[0].first_child; c >= 0; c = arena[c].next_sibling) {
    const th_ismcts_node *ch = &arena[c];
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
  if (best_action < 0) best_action = game->policy_action(root, policy, &rng);
  if (out_children) *out_children = nc;
  if (stats) {
    stats->iterations = it;
    stats->nodes = used;
    stats->best_action = best_action;
    stats->stopped = ss.stopped;
  }
  if (e) e->code = TH_OK;
  return TH_OK;
}
