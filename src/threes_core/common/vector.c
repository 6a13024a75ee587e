/* vector.c - th_vec: many games stepped at once; see vector.h. */
#include "common/vector.h"

#include <string.h>

#include "common/batch.h"
#include "common/pool.h"

uint64_t th_vec_episode_seed(uint64_t seed, int64_t env, uint64_t episode) {
  return th_batch_seed(th_batch_seed(seed, (uint64_t)env), episode);
}

static inline void *state_of(const th_vec *v, int64_t i) {
  return v->states + (size_t)i * v->stride;
}

static inline size_t mask_width(const th_vec *v) { return (size_t)v->game->num_actions(v->like); }

static inline int rewards_per_env(const th_vec *v) {
  return v->learner >= 0 ? 1 : v->game->num_players(v->like);
}

/* th_vec_check; with check_like, like's invariants too (the deal's source:
 * reset checks them, a step only deals from the state reset checked). */
static int check_vec(const th_vec *v, int check_like, th_error *e) {
  if (!v || !v->game || !v->like) {
    th_set_error(e, TH_ERR_ARG, "a vector env needs a game and a state of it");
    return TH_ERR_ARG;
  }
  const th_game *g = v->game;
  if (!g->state_bytes || !g->new_game || !g->observe || !g->observation_size || !g->is_legal || !g->num_players ||
      !g->is_truncated || !g->num_actions || !g->observation_high) {
    th_set_error(e, TH_ERR_ARG, "the game %s has no vector-env interface", g->name);
    return TH_ERR_ARG;
  }
  int rc = check_like ? g->check(v->like, e) : TH_OK;
  if (!rc && check_like && g->vec_unsupported) rc = g->vec_unsupported(v->like, e);
  if (rc) return rc;
  int n = g->num_players(v->like);
  if (v->num_envs < 1) {
    th_set_error(e, TH_ERR_ARG, "num_envs must be >= 1, not %lld", (long long)v->num_envs);
    return TH_ERR_ARG;
  }
  if (v->learner < -1 || v->learner >= n) {
    th_set_error(e, TH_ERR_ARG, "the learner must be a seat in 0..%d or -1 (self-play), not %d", n - 1, v->learner);
    return TH_ERR_ARG;
  }
  if (v->autoreset < TH_VEC_NEXT_STEP || v->autoreset > TH_VEC_DISABLED || (v->penalize != 0 && v->penalize != 1)) {
    th_set_error(e, TH_ERR_ARG, "autoreset must be 0, 1 or 2 and penalize 0 or 1");
    return TH_ERR_ARG;
  }
  for (int q = 0; q < n; q++)
    if (q != v->learner && v->learner >= 0 && v->policies[q] >= g->num_policies) {
      th_set_error(e, TH_ERR_ARG, "policy %d of seat %d does not exist", v->policies[q], q);
      return TH_ERR_ARG;
    }
  size_t used = g->state_bytes(v->like);
  if (v->stride < used || v->stride > g->state_size || (v->stride % TH_STATE_ALIGN && v->stride != g->state_size)) {
    th_set_error(e, TH_ERR_ARG, "the states must lie %lld to %lld bytes apart, a multiple of %d or the latter (not %lld)",
                 (long long)used, (long long)g->state_size, TH_STATE_ALIGN, (long long)v->stride);
    return TH_ERR_ARG;
  }
  int floats = v->obs != NULL;
  if (!v->states || !v->episode || !v->moves || (!v->obs && !v->obs_u8) || !v->mask || !v->rewards ||
      !v->terminated || !v->truncated || !v->ended || !v->current_player ||
      (v->autoreset == TH_VEC_SAME_STEP && !(floats ? (void *)v->final_obs : (void *)v->final_obs_u8))) {
    th_set_error(e, TH_ERR_ARG, "a buffer of the vector env is missing");
    return TH_ERR_ARG;
  }
  if (!floats && g->observation_size(v->like) > TH_VEC_MAX_OBS) {
    th_set_error(e, TH_ERR_ARG, "observations of %d values are too long for bytes (at most %d)",
                 g->observation_size(v->like), TH_VEC_MAX_OBS);
    return TH_ERR_ARG;
  }
  if (!floats && g->observation_high(v->like) > 255) {
    th_set_error(e, TH_ERR_ARG, "observations of %s with these options reach %d, more than a byte holds: use floats",
                 g->name, g->observation_high(v->like));
    return TH_ERR_ARG;
  }
  return TH_OK;
}

int th_vec_check(const th_vec *v, th_error *e) { return check_vec(v, 1, e); }

/* The policies' moves until the learner is to move or the game is over
 * (single-agent; nothing in self-play). Each move raises the game's move
 * count, which the game's cap bounds. */
static void play_policies(const th_vec *v, int64_t i, void *s) {
  const th_game *g = v->game;
  if (v->learner < 0) return;
  uint64_t eseed = th_vec_episode_seed(v->seed, i, v->episode[i] - 1);
  for (;;) {
    int p = g->current_player(s);
    if (p < 0 || p == v->learner) return;
    th_rng rng;
    th_rng_seed(&rng, th_batch_seed(eseed, v->moves[i]));
    g->apply_legal(s, g->policy_action(s, v->policies[p], &rng));
    v->moves[i]++;
  }
}

/* Env i's observation for `seat` into obs (final: final_obs), as floats or bytes. */
static void put_obs(const th_vec *v, int64_t i, const void *s, int seat, int final) {
  const th_game *g = v->game;
  size_t size = (size_t)g->observation_size(s);
  if (v->obs) {
    g->observe(s, seat, (final ? v->final_obs : v->obs) + (size_t)i * size);
    return;
  }
  float tmp[TH_VEC_MAX_OBS]; /* th_vec_check: size <= TH_VEC_MAX_OBS */
  uint8_t *out = (final ? v->final_obs_u8 : v->obs_u8) + (size_t)i * size;
  g->observe(s, seat, tmp);
  for (size_t k = 0; k < size; k++) out[k] = (uint8_t)tmp[k]; /* counts and flags in 0..255 */
}

/* obs[i] and mask[i] of a live env, for the seat to act. */
static void write_live(const th_vec *v, int64_t i, const void *s, int p) {
  const th_game *g = v->game;
  size_t na = mask_width(v);
  uint16_t legal[TH_MAX_ACTIONS];
  uint8_t *m = v->mask + (size_t)i * na;
  put_obs(v, i, s, v->learner >= 0 ? v->learner : p, 0);
  memset(m, 0, na);
  int k = g->legal_actions(s, legal);
  for (int j = 0; j < k; j++) m[legal[j]] = 1;
  v->current_player[i] = p;
  v->ended[i] = 0;
}

/* obs (final: final_obs) of an env whose episode is over, for `seat`; its
 * mask all ones (its next action is ignored) and no seat to act. */
static void write_over(const th_vec *v, int64_t i, const void *s, int seat, int final) {
  put_obs(v, i, s, v->learner >= 0 ? v->learner : seat, final);
  memset(v->mask + (size_t)i * mask_width(v), 1, mask_width(v));
  v->current_player[i] = -1;
  v->ended[i] = 1;
}

/* Deals env i's next episode and writes its obs and mask (not its rewards). */
static void start_episode(const th_vec *v, int64_t i) {
  const th_game *g = v->game;
  void *s = state_of(v, i);
  g->new_game(s, v->like, th_vec_episode_seed(v->seed, i, v->episode[i]));
  v->episode[i]++;
  v->moves[i] = 0;
  play_policies(v, i, s);
  int p = g->current_player(s);
  if (p >= 0)
    write_live(v, i, s, p);
  else /* over before the learner's first move (a move cap below its seat) */
    write_over(v, i, s, 0, 0);
}

/* The rewards and flags of an episode that just ended in env i (`mover`:
 * the seat of the last learner action), then its observation as the
 * autoreset mode says. */
static void end_episode(const th_vec *v, int64_t i, void *s, int mover, int illegal) {
  const th_game *g = v->game;
  float *r = v->rewards + (size_t)i * (size_t)rewards_per_env(v);
  if (illegal) {
    v->terminated[i] = 1;
    r[v->learner >= 0 ? 0 : mover] = v->penalty;
  } else {
    double ret[TH_MAX_PLAYERS];
    g->returns(s, ret);
    if (v->learner >= 0) {
      r[0] = (float)ret[v->learner];
    } else {
      int n = g->num_players(s);
      for (int q = 0; q < n; q++) r[q] = (float)ret[q];
    }
    if (g->is_truncated(s))
      v->truncated[i] = 1;
    else
      v->terminated[i] = 1;
  }
  if (v->autoreset == TH_VEC_SAME_STEP) {
    write_over(v, i, s, mover, 1);
    start_episode(v, i);
  } else {
    write_over(v, i, s, mover, 0);
  }
}

static void clear_outputs(const th_vec *v, int64_t i) {
  int nr = rewards_per_env(v);
  for (int q = 0; q < nr; q++) v->rewards[(size_t)i * (size_t)nr + (size_t)q] = 0.0f;
  v->terminated[i] = 0;
  v->truncated[i] = 0;
}

static void step_env(const th_vec *v, int64_t i, int32_t a) {
  const th_game *g = v->game;
  void *s = state_of(v, i);
  clear_outputs(v, i);
  if (v->ended[i]) { /* NEXT_STEP (DISABLED was refused before): a new episode, the action ignored */
    start_episode(v, i);
    return;
  }
  int mover = g->current_player(s);
  if (!g->is_legal(s, a)) { /* only with penalize: refused before otherwise */
    end_episode(v, i, s, mover, 1);
    return;
  }
  g->apply_legal(s, a);
  v->moves[i]++;
  play_policies(v, i, s);
  int p = g->current_player(s);
  if (p >= 0)
    write_live(v, i, s, p);
  else
    end_episode(v, i, s, mover, 0);
}

typedef struct {
  const th_vec *v;
  const int32_t *actions;
  const uint8_t *reset;
} vec_job;

static void step_part(const void *ctx, int64_t lo, int64_t hi, const th_stop *stop) {
  const vec_job *j = (const vec_job *)ctx;
  (void)stop;
  for (int64_t i = lo; i < hi; i++) step_env(j->v, i, j->actions[i]);
}

static void reset_part(const void *ctx, int64_t lo, int64_t hi, const th_stop *stop) {
  const vec_job *j = (const vec_job *)ctx;
  (void)stop;
  for (int64_t i = lo; i < hi; i++)
    if (!j->reset || j->reset[i]) {
      clear_outputs(j->v, i);
      start_episode(j->v, i);
    }
}

int th_vec_reset(const th_vec *v, const uint8_t *reset, th_pool *pool, th_error *e) {
  int rc = check_vec(v, 1, e);
  if (rc) return rc;
  vec_job j = {v, NULL, reset};
  th_pool_run(pool, reset_part, &j, v->num_envs);
  return TH_OK;
}

int th_vec_step(const th_vec *v, const int32_t *actions, th_pool *pool, int64_t *bad, int64_t bad_cap,
                int64_t *num_bad, th_error *e) {
  int rc = check_vec(v, 0, e);
  if (rc) return rc;
  if (!actions) {
    th_set_error(e, TH_ERR_ARG, "no actions");
    return TH_ERR_ARG;
  }
  /* Every action checked before any env moves. */
  int64_t nbad = 0, first = -1;
  int over = 0;
  for (int64_t i = 0; i < v->num_envs; i++) {
    int refused;
    if (v->ended[i])
      refused = v->autoreset == TH_VEC_DISABLED;
    else
      refused = !v->penalize && !v->game->is_legal(state_of(v, i), actions[i]);
    if (refused) {
      if (nbad < bad_cap && bad) bad[nbad] = i;
      if (first < 0) {
        first = i;
        over = v->ended[i];
      }
      nbad++;
    }
  }
  if (num_bad) *num_bad = nbad;
  if (nbad) {
    if (over)
      th_set_error(e, TH_ERR_ILLEGAL, "env %lld's episode is over: reset it first (autoreset disabled)",
                   (long long)first);
    else
      th_set_error(e, TH_ERR_ILLEGAL, "action %d is not legal in env %lld", (int)actions[first], (long long)first);
    return TH_ERR_ILLEGAL;
  }
  vec_job j = {v, actions, NULL};
  th_pool_run(pool, step_part, &j, v->num_envs);
  return TH_OK;
}
