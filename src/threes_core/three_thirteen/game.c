/* game.c - tt_game: Three Thirteen behind the th_game interface; see game.h. */
#include "three_thirteen/game.h"

#include <string.h>

#include "three_thirteen/determinize.h"
#include "three_thirteen/events.h"
#include "three_thirteen/observation.h"
#include "three_thirteen/rollout.h"
#include "three_thirteen/state.h"

_Static_assert(TT_OBS_TEXT_MAX <= TH_OBS_TEXT_MAX, "the observation text must fit TH_OBS_TEXT_MAX");
_Static_assert(_Alignof(tt_state) <= TH_STATE_ALIGN, "tt_state must not need more than TH_STATE_ALIGN");
_Static_assert(sizeof(tt_state) <= TH_MAX_STATE_BYTES, "tt_state must fit TH_MAX_STATE_BYTES");
_Static_assert(TT_NUM_ACTIONS <= TH_MAX_ACTIONS, "Three Thirteen's actions must fit TH_MAX_ACTIONS");
_Static_assert(TT_MAX_PLAYERS <= TH_MAX_PLAYERS, "Three Thirteen's seats must fit TH_MAX_PLAYERS");

static size_t g_state_bytes(const void *s) { return tt_state_bytes((const tt_state *)s); }
static int g_check(const void *s, th_error *e) { return tt_state_check((const tt_state *)s, e); }
static int g_current_player(const void *s) {
  const tt_state *t = (const tt_state *)s;
  return t->phase == TT_PHASE_OVER ? TH_TERMINAL_PLAYER : t->current;
}
static int g_is_over(const void *s) { return ((const tt_state *)s)->phase == TT_PHASE_OVER; }
static int g_legal_actions(const void *s, uint16_t *out) { return tt_legal_actions((const tt_state *)s, out); }
static void g_apply_legal(void *s, int a) { tt_apply_legal((tt_state *)s, a); }
static int g_resample(void *s, int observer, th_rng *rng, th_error *e) {
  return tt_resample((tt_state *)s, observer, rng, e);
}
static int g_policy_action(const void *s, int policy, th_rng *rng) {
  return tt_policy_action((const tt_state *)s, policy, rng);
}
static void g_rollout(void *s, int policy, th_rng *rng) {
  uint8_t policies[TT_MAX_PLAYERS];
  memset(policies, policy, sizeof policies);
  tt_rollout((tt_state *)s, policies, rng);
}
static void g_returns(const void *s, double *out) { tt_returns((const tt_state *)s, out); }
static int g_search_value(const void *root, void *d_, int policy, th_rng *rng, const th_stop *stop, double *out) {
  const tt_state *r = (const tt_state *)root;
  tt_state *d = (tt_state *)d_;
  for (int q = 0; q < TT_MAX_PLAYERS; q++) out[q] = 0.0;
  if (d->phase != TT_PHASE_OVER && d->round == r->round) {
    uint8_t policies[TT_MAX_PLAYERS];
    memset(policies, policy, sizeof policies);
    if (!stop)
      tt_rollout_round(d, policies, rng);
    else if (tt_rollout_round_stoppable(d, policies, rng, stop))
      return 1;
  }
  if (d->truncated)
    tt_returns(d, out);
  else
    tt_round_margin(d, r->round, out);
  return 0;
}

static void g_new_game(void *s, const void *like, uint64_t seed) {
  const tt_state *l = (const tt_state *)like;
  /* like's options and cap are checked ones: the deal cannot fail */
  tt_new_game((tt_state *)s, &l->opt, l->num_players, seed, l->max_moves, NULL);
}
static int g_observation_size(const void *s) { return tt_obs_size(((const tt_state *)s)->num_players); }
static void g_observe(const void *s, int observer, float *out) {
  tt_observation_tensor((const tt_state *)s, observer, out, NULL);
}
static int g_is_legal(const void *s, int a) { return tt_is_legal((const tt_state *)s, a); }
static int g_num_players(const void *s) { return ((const tt_state *)s)->num_players; }
static int g_is_truncated(const void *s) { return ((const tt_state *)s)->truncated != 0; }
/* Counts and flags are small; the running totals reach tt_max_total over
 * the 11 rounds, which passes 255 under most options. */
static int g_observation_high(const void *s) {
  int most = tt_max_total(&((const tt_state *)s)->opt, TT_ROUNDS);
  return most > 255 ? most : 255;
}
static int g_num_actions(const void *s) {
  (void)s;
  return TT_NUM_ACTIONS;
}

static size_t g_observation_text(const void *s, int observer, char *out, size_t cap) {
  return tt_observation_text((const tt_state *)s, observer, out, cap);
}
static void g_events(const void *before, const void *after, int a, th_events *out) {
  tt_events((const tt_state *)before, (const tt_state *)after, a, out);
}

const th_game tt_game = {
    .name = "three_thirteen",
    .state_size = sizeof(tt_state),
    .state_bytes = g_state_bytes,
    .max_players = TT_MAX_PLAYERS,
    .max_actions = TT_NUM_ACTIONS,
    .num_policies = TT_NUM_POLICIES,
    .check = g_check,
    .current_player = g_current_player,
    .is_over = g_is_over,
    .legal_actions = g_legal_actions,
    .apply_legal = g_apply_legal,
    .resample = g_resample,
    .policy_action = g_policy_action,
    .rollout = g_rollout,
    .returns = g_returns,
    .search_value = g_search_value,
    .new_game = g_new_game,
    .observation_size = g_observation_size,
    .observe = g_observe,
    .is_legal = g_is_legal,
    .num_players = g_num_players,
    .is_truncated = g_is_truncated,
    .num_actions = g_num_actions,
    .observation_high = g_observation_high,
    .vec_unsupported = NULL, /* a vector env plays every Three Thirteen game */
    .events = g_events,
    .observation_text = g_observation_text,
};
