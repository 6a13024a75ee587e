/* game.c - sh_game: Shithead behind the th_game interface; see game.h. */
#include "shithead/game.h"

#include <string.h>

#include "shithead/determinize.h"
#include "shithead/events.h"
#include "shithead/observation.h"
#include "shithead/rollout.h"
#include "shithead/state.h"

_Static_assert(SH_OBS_TEXT_MAX <= TH_OBS_TEXT_MAX, "the observation text must fit TH_OBS_TEXT_MAX");
_Static_assert(_Alignof(sh_state) <= TH_STATE_ALIGN, "sh_state must not need more than TH_STATE_ALIGN");
_Static_assert(sizeof(sh_state) <= TH_MAX_STATE_BYTES, "sh_state must fit TH_MAX_STATE_BYTES");
_Static_assert(SH_MAX_DISTINCT_ACTIONS <= TH_MAX_ACTIONS, "Shithead's actions must fit TH_MAX_ACTIONS");
_Static_assert(SH_MAX_PLAYERS <= TH_MAX_PLAYERS, "Shithead's seats must fit TH_MAX_PLAYERS");

static size_t g_state_bytes(const void *s) { return sh_state_bytes((const sh_state *)s); }
static int g_check(const void *s, th_error *e) { return sh_state_check((const sh_state *)s, e); }
static int g_current_player(const void *s) { return sh_state_current_player((const sh_state *)s); }
static int g_is_over(const void *s) { return ((const sh_state *)s)->phase == SH_PHASE_OVER; }
static int g_legal_actions(const void *s, uint16_t *out) { return sh_legal_actions((const sh_state *)s, out); }
static void g_apply_legal(void *s, int a) { sh_apply_legal((sh_state *)s, a); }
static int g_resample(void *s, int observer, th_rng *rng, th_error *e) {
  return sh_resample((sh_state *)s, observer, rng, e);
}
static int g_policy_action(const void *s, int policy, th_rng *rng) {
  return sh_policy_action((const sh_state *)s, policy, rng);
}
static void g_rollout(void *s, int policy, th_rng *rng) {
  uint8_t policies[SH_MAX_PLAYERS];
  memset(policies, policy, sizeof policies);
  if (((sh_state *)s)->phase != SH_PHASE_OVER) sh_rollout((sh_state *)s, policies, rng);
}
static void g_returns(const void *s, double *out) { sh_returns((const sh_state *)s, out); }
static int g_search_value(const void *root, void *d, int policy, th_rng *rng, const th_stop *stop, double *out) {
  (void)root;
  sh_state *s = (sh_state *)d;
  if (!stop) {
    g_rollout(d, policy, rng);
  } else {
    /* The same game in slices of TH_STOP_MOVES moves (sh_rollout_until):
     * each slice plays at least one move, so at most max_moves slices. */
    uint8_t policies[SH_MAX_PLAYERS];
    memset(policies, policy, sizeof policies);
    while (s->phase != SH_PHASE_OVER) {
      sh_rollout_until(s, policies, rng, s->move_count + TH_STOP_MOVES);
      if (s->phase != SH_PHASE_OVER && th_stop_now(stop)) return 1;
    }
  }
  sh_returns(s, out);
  return 0;
}

static void g_new_game(void *s, const void *like, uint64_t seed) {
  const sh_state *l = (const sh_state *)like;
  /* like's rules passed sh_rules_validate and its dealer and cap are the
   * checked ones: the deal cannot fail */
  sh_state_deal((sh_state *)s, &l->rules, l->num_players, l->dealer, l->max_moves, seed, NULL);
}
static int g_observation_size(const void *s) { return sh_obs_size(((const sh_state *)s)->num_players); }
static void g_observe(const void *s, int observer, float *out) {
  sh_observation_tensor((const sh_state *)s, observer, out, NULL);
}
static int g_is_legal(const void *s, int a) { return sh_is_legal((const sh_state *)s, a); }
static int g_num_players(const void *s) { return ((const sh_state *)s)->num_players; }
static int g_is_truncated(const void *s) { return ((const sh_state *)s)->truncated != 0; }
/* Counts of cards: at most SH_MAX_CARDS (216); 255, a byte, is the bound the
 * adapters' observation spaces have always stated. */
static int g_observation_high(const void *s) {
  (void)s;
  return 255;
}
/* A vector env keeps no log of positions, which repetition_limit needs. */
static int g_vec_unsupported(const void *s, th_error *e) {
  int k = ((const sh_state *)s)->rules.repetition_limit;
  if (k == 0) return TH_OK;
  th_set_error(e, TH_ERR_ARG,
               "rules with repetition_limit %d need a log of positions (RULES.md section 7), which a vector env "
               "does not keep: use repetition_limit 0",
               k);
  return TH_ERR_ARG;
}
static int g_num_actions(const void *s) { return sh_num_distinct_actions(&((const sh_state *)s)->rules); }

static size_t g_observation_text(const void *s, int observer, char *out, size_t cap) {
  return sh_observation_text((const sh_state *)s, observer, out, cap);
}
static void g_events(const void *before, const void *after, int a, th_events *out) {
  sh_events((const sh_state *)before, (const sh_state *)after, a, out);
}

const th_game sh_game = {
    .name = "shithead",
    .state_size = sizeof(sh_state),
    .state_bytes = g_state_bytes,
    .max_players = SH_MAX_PLAYERS,
    .max_actions = SH_MAX_DISTINCT_ACTIONS,
    .num_policies = SH_NUM_POLICIES,
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
    .vec_unsupported = g_vec_unsupported,
    .events = g_events,
    .observation_text = g_observation_text,
};
