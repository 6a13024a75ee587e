/* test_vector.c - th_vec (common/vector.h) on both games.
 *
 * For each game, mode (single-agent at seat 1 against C policies, and
 * self-play) and autoreset mode, the vector env is stepped with random legal
 * actions drawn from its own masks and checked against a reference that
 * plays every env one game at a time through the game's own entry points
 * (sh_state_deal / tt_new_game, sh_apply_action / tt_apply_action, the
 * policies, the observation tensors and legal-action lists): observations,
 * masks, rewards, terminated, truncated and current_player after every step.
 * Then: the same run on 2 threads gives byte-identical buffers; no mask is
 * all zero; an illegal action fails the step with its env listed and no env
 * changed; with penalize, it ends that episode with the penalty.
 *
 *   threes_vector_test [--steps N]
 *   threes_vector_test --bench ENVS   (learner steps per second, for information:
 *       Shithead, 4 players, seat 0 against 3 random seats,
 *       the learner's first legal action from its mask, 1 and 2 threads; no check)
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/batch.h"
#include "common/vector.h"
#include "shithead/shithead.h"
#include "three_thirteen/three_thirteen.h"

#include "check.h"
#include "common/thread.h" /* th_monotonic_seconds */

#define ENVS 6
#define MAXOBS 4096

/* One env's buffers, and a vector env over ENVS of them. */
typedef struct {
  th_vec v;
  unsigned char states[ENVS * TH_MAX_STATE_BYTES];
  uint64_t episode[ENVS];
  uint32_t moves[ENVS];
  float obs[ENVS * MAXOBS], final_obs[ENVS * MAXOBS];
  uint8_t mask[ENVS * TH_MAX_ACTIONS];
  float rewards[ENVS * TH_MAX_PLAYERS];
  uint8_t terminated[ENVS], truncated[ENVS], ended[ENVS];
  int32_t current_player[ENVS];
  int na; /* mask bytes per env: the game's num_actions(like) */
} vec_buf;

static void vec_init(vec_buf *b, const th_game *g, const void *like, int learner, int autoreset, int penalize,
                     uint64_t seed) {
  memset(b, 0, sizeof *b);
  th_vec *v = &b->v;
  v->game = g;
  v->like = like;
  v->num_envs = ENVS;
  v->learner = learner;
  v->autoreset = autoreset;
  v->penalize = penalize;
  v->penalty = -1.0f;
  for (int q = 0; q < TH_MAX_PLAYERS; q++) v->policies[q] = (uint8_t)(q % g->num_policies);
  v->seed = seed;
  v->states = b->states;
  v->stride = th_vec_stride(g, like);
  v->episode = b->episode;
  v->moves = b->moves;
  v->obs = b->obs;
  v->final_obs = b->final_obs;
  v->mask = b->mask;
  v->rewards = b->rewards;
  v->terminated = b->terminated;
  v->truncated = b->truncated;
  v->ended = b->ended;
  v->current_player = b->current_player;
  b->na = g->num_actions(like);
}

/* The reference: one game per env, stepped through each game's own entry
 * points. */
typedef struct {
  int shithead; /* 1: sh_state, 0: tt_state */
  sh_state sh;
  tt_state tt;
  uint64_t episode;
  uint32_t moves;
  int ended;
} ref_env;

static const sh_state *g_sh_like;
static const tt_state *g_tt_like;

static int ref_player(const ref_env *r) {
  if (r->shithead) return sh_state_current_player(&r->sh);
  return r->tt.phase == TT_PHASE_OVER ? -1 : r->tt.current;
}

static void ref_policy_moves(ref_env *r, const th_vec *v, int64_t i) {
  uint64_t eseed = th_vec_episode_seed(v->seed, i, r->episode - 1);
  for (int guard = 0; guard < 100000; guard++) {
    int p = ref_player(r);
    if (p < 0 || v->learner < 0 || p == v->learner) return;
    th_rng rng;
    th_rng_seed(&rng, th_batch_seed(eseed, r->moves));
    th_error e;
    if (r->shithead) {
      int a = sh_policy_action(&r->sh, v->policies[p], &rng);
      CHECK(sh_apply_action(&r->sh, a, &e) == TH_OK, "policy action %d: %s", a, e.msg);
    } else {
      int a = tt_policy_action(&r->tt, v->policies[p], &rng);
      CHECK(tt_apply_action(&r->tt, a, &e) == TH_OK, "policy action %d: %s", a, e.msg);
    }
    r->moves++;
  }
  CHECK(0, "a reference episode that never reached the learner");
}

static void ref_start(ref_env *r, const th_vec *v, int64_t i) {
  uint64_t s = th_vec_episode_seed(v->seed, i, r->episode);
  if (r->shithead)
    CHECK(sh_state_deal(&r->sh, &g_sh_like->rules, g_sh_like->num_players, g_sh_like->dealer, g_sh_like->max_moves,
                        s, NULL) == TH_OK, "deal");
  else
    CHECK(tt_new_game(&r->tt, &g_tt_like->opt, g_tt_like->num_players, s, g_tt_like->max_moves, NULL) == TH_OK,
          "deal");
  r->episode++;
  r->moves = 0;
  r->ended = 0;
  ref_policy_moves(r, v, i);
}

static int ref_obs(const ref_env *r, int seat, float *out) {
  if (r->shithead) {
    sh_observation_tensor(&r->sh, seat, out, NULL);
    return sh_obs_size(r->sh.num_players);
  }
  tt_observation_tensor(&r->tt, seat, out, NULL);
  return tt_obs_size(r->tt.num_players);
}

/* Compares env i of the vector env with its reference (obs/mask as the env
 * should show them; `obs_seat` the seat whose view obs holds). */
static void compare(const vec_buf *b, const ref_env *r, int64_t i, int obs_seat, int step) {
  static float want[MAXOBS];
  int size = ref_obs(r, obs_seat, want);
  CHECK(memcmp(want, b->obs + i * size, sizeof(float) * (size_t)size) == 0, "obs of env %lld, step %d",
        (long long)i, step);
  const uint8_t *m = b->mask + i * b->na;
  int live = ref_player(r) >= 0 && !r->ended;
  CHECK(b->current_player[i] == (live ? ref_player(r) : -1), "current_player of env %lld, step %d: %d",
        (long long)i, step, b->current_player[i]);
  int any = 0, same = 1;
  for (int a = 0; a < b->na; a++) {
    int want_bit = live ? (r->shithead ? sh_is_legal(&r->sh, a) : tt_is_legal(&r->tt, a)) : 1;
    same &= m[a] == want_bit;
    any |= m[a];
  }
  CHECK(same, "mask of env %lld, step %d", (long long)i, step);
  CHECK(any, "an all-zero mask in env %lld, step %d", (long long)i, step);
}

/* A run: `steps` steps of random actions from the env's masks (an env whose
 * action is ignored gets action 0), each checked against the reference.
 * Returns a checksum of the buffers after every step. */
static uint64_t run(const th_game *g, const void *like, int learner, int autoreset, uint64_t seed, int steps,
                    int threads, int check) {
  static vec_buf b;
  static ref_env refs[ENVS];
  int n = g->num_players(like);
  vec_init(&b, g, like, learner, autoreset, 0, seed);
  th_error e;
  th_pool *pool = th_pool_new(threads, &e);
  CHECK(pool != NULL, "pool: %s", e.msg);
  CHECK(th_vec_reset(&b.v, NULL, pool, &e) == TH_OK, "reset: %s", e.msg);
  for (int i = 0; i < ENVS; i++) {
    memset(&refs[i], 0, sizeof refs[i]);
    refs[i].shithead = g == &sh_game;
    ref_start(&refs[i], &b.v, i);
    if (check) compare(&b, &refs[i], i, learner >= 0 ? learner : ref_player(&refs[i]), -1);
  }
  th_rng pick;
  th_rng_seed(&pick, seed ^ 0xABCDEF);
  int32_t actions[ENVS];
  uint64_t sum = 0;
  long long episodes = 0;
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < ENVS; i++) {
      const uint8_t *m = b.mask + i * b.na;
      int k = 0, cnt = 0;
      for (int a = 0; a < b.na; a++) cnt += m[a];
      int want = (int)th_rng_below(&pick, (uint32_t)cnt);
      actions[i] = 0;
      for (int a = 0; a < b.na; a++)
        if (m[a] && k++ == want) {
          actions[i] = a;
          break;
        }
    }
    if (autoreset == TH_VEC_DISABLED) { /* reset the envs that ended, as a Gymnasium user must */
      uint8_t which[ENVS];
      int any = 0;
      for (int i = 0; i < ENVS; i++) any |= which[i] = b.ended[i];
      if (any) {
        CHECK(th_vec_reset(&b.v, which, pool, &e) == TH_OK, "reset_mask: %s", e.msg);
        for (int i = 0; i < ENVS; i++)
          if (which[i]) {
            CHECK(b.rewards[i * (learner >= 0 ? 1 : n)] == 0.0f && !b.terminated[i] && !b.truncated[i], "reset outputs");
            ref_start(&refs[i], &b.v, i);
            if (check) compare(&b, &refs[i], i, learner >= 0 ? learner : ref_player(&refs[i]), t);
            actions[i] = 0;
            const uint8_t *m = b.mask + i * b.na;
            for (int a = 0; a < b.na; a++)
              if (m[a]) {
                actions[i] = a;
                break;
              }
          }
      }
    }
    int64_t bad[ENVS], nbad = -1;
    CHECK(th_vec_step(&b.v, actions, pool, bad, ENVS, &nbad, &e) == TH_OK, "step %d: %s", t, e.msg);
    CHECK(nbad == 0, "no action refused");
    for (int i = 0; i < ENVS && check; i++) {
      ref_env *r = &refs[i];
      float want_r[TH_MAX_PLAYERS] = {0};
      int term = 0, trunc = 0, seat = learner >= 0 ? learner : ref_player(r);
      if (r->ended) { /* NEXT_STEP: the step resets, the action ignored */
        ref_start(r, &b.v, i);
        seat = learner >= 0 ? learner : ref_player(r);
      } else {
        int mover = ref_player(r);
        th_error e2;
        if (r->shithead)
          CHECK(sh_apply_action(&r->sh, actions[i], &e2) == TH_OK, "ref apply: %s", e2.msg);
        else
          CHECK(tt_apply_action(&r->tt, actions[i], &e2) == TH_OK, "ref apply: %s", e2.msg);
        r->moves++;
        ref_policy_moves(r, &b.v, i);
        if (ref_player(r) < 0) {
          double ret[TH_MAX_PLAYERS];
          if (r->shithead)
            sh_returns(&r->sh, ret);
          else
            tt_returns(&r->tt, ret);
          if (learner >= 0)
            want_r[0] = (float)ret[learner];
          else
            for (int q = 0; q < n; q++) want_r[q] = (float)ret[q];
          trunc = r->shithead ? r->sh.truncated : r->tt.truncated;
          term = !trunc;
          episodes++;
          seat = learner >= 0 ? learner : mover;
          if (autoreset == TH_VEC_SAME_STEP) {
            static float fin[MAXOBS];
            int size = ref_obs(r, seat, fin);
            CHECK(memcmp(fin, b.final_obs + i * size, sizeof(float) * (size_t)size) == 0, "final_obs env %d", i);
            ref_start(r, &b.v, i);
            seat = learner >= 0 ? learner : ref_player(r);
          } else {
            r->ended = 1;
          }
        } else {
          seat = learner >= 0 ? learner : ref_player(r);
        }
      }
      int nr = learner >= 0 ? 1 : n;
      CHECK(memcmp(want_r, b.rewards + i * nr, sizeof(float) * (size_t)nr) == 0, "rewards env %d step %d", i, t);
      CHECK(b.terminated[i] == term && b.truncated[i] == trunc, "flags env %d step %d: %d %d want %d %d", i, t,
            b.terminated[i], b.truncated[i], term, trunc);
      CHECK(b.ended[i] == r->ended, "ended env %d step %d", i, t);
      compare(&b, r, i, seat, t);
    }
    /* a checksum of everything the env wrote (FNV-1a over the buffers) */
    const unsigned char *parts[] = {(const unsigned char *)b.obs, b.mask, (const unsigned char *)b.rewards,
                                    b.terminated, b.truncated, (const unsigned char *)b.current_player};
    size_t lens[] = {sizeof b.obs, sizeof b.mask, sizeof b.rewards, sizeof b.terminated, sizeof b.truncated,
                     sizeof b.current_player};
    for (int p = 0; p < 6; p++)
      for (size_t k = 0; k < lens[p]; k++) sum = (sum ^ parts[p][k]) * UINT64_C(0x100000001B3);
  }
  if (check) CHECK(episodes > 0, "some episodes ended (%s, learner %d, autoreset %d)", g->name, learner, autoreset);
  th_pool_free(pool);
  return sum;
}

/* The interface's text and events, what the generic binding
 * (threes._engine.GameStateBase) reads of every game: a game played by its
 * random policy, each move telling at least one event (none lost to
 * overflow) and each seat's observation text NUL-terminated within
 * TH_OBS_TEXT_MAX bytes, the same for the same state. */
static void text_and_event_checks(const th_game *g, const void *like) {
  static unsigned char s[TH_MAX_STATE_BYTES], before[TH_MAX_STATE_BYTES];
  static char text[TH_OBS_TEXT_MAX], again[TH_OBS_TEXT_MAX];
  static th_events ev;
  th_rng rng;
  th_rng_seed(&rng, 7);
  g->new_game(s, like, 5);
  int moves = 0;
  for (; !g->is_over(s) && moves < 400; moves++) {
    for (int q = 0; q < g->num_players(s); q++) {
      size_t n = g->observation_text(s, q, text, sizeof text);
      CHECK(n < sizeof text && text[n] == 0 && strlen(text) == n, "%s: seat %d's text fits and ends", g->name, q);
      CHECK(g->observation_text(s, q, again, sizeof again) == n && memcmp(text, again, n) == 0,
            "%s: the same text for the same state", g->name);
    }
    int a = g->policy_action(s, 0, &rng);
    memcpy(before, s, g->state_size);
    g->apply_legal(s, a);
    g->events(before, s, a, &ev);
    CHECK(ev.n >= 1 && !ev.overflow, "%s: move %d (action %d) tells %d events", g->name, moves, a, ev.n);
  }
  CHECK(moves > 20, "%s: a game of %d moves", g->name, moves);
}

/* An illegal action: refused with its env listed and nothing changed; with
 * penalize, that episode ends with the penalty. */
static void illegal_checks(const th_game *g, const void *like) {
  static vec_buf b, before;
  th_error e;
  vec_init(&b, g, like, 0, TH_VEC_NEXT_STEP, 0, 5);
  CHECK(th_vec_reset(&b.v, NULL, NULL, &e) == TH_OK, "reset");
  int32_t actions[ENVS];
  for (int i = 0; i < ENVS; i++)
    for (int a = 0; a < b.na; a++)
      if (b.mask[i * b.na + a]) {
        actions[i] = a;
        break;
      }
  int illegal = -1;
  for (int a = 0; a < b.na && illegal < 0; a++)
    if (!b.mask[2 * b.na + a]) illegal = a;
  actions[2] = illegal;
  actions[4] = -7;
  memcpy(&before, &b, sizeof b);
  int64_t bad[ENVS], nbad = 0;
  CHECK(th_vec_step(&b.v, actions, NULL, bad, ENVS, &nbad, &e) == TH_ERR_ILLEGAL, "illegal refused");
  CHECK(nbad == 2 && bad[0] == 2 && bad[1] == 4, "bad envs listed: %lld", (long long)nbad);
  CHECK(strstr(e.msg, "env 2") != NULL, "message names the env: %s", e.msg);
  CHECK(memcmp(before.states, b.states, sizeof b.states) == 0 && memcmp(before.obs, b.obs, sizeof b.obs) == 0 &&
            memcmp(before.mask, b.mask, sizeof b.mask) == 0,
        "nothing changed by a refused step");
  b.v.penalize = 1;
  CHECK(th_vec_step(&b.v, actions, NULL, bad, ENVS, &nbad, &e) == TH_OK, "penalized step");
  CHECK(b.terminated[2] && b.rewards[2] == -1.0f && b.ended[2] && b.current_player[2] == -1, "penalty");
  CHECK(b.terminated[4] && b.rewards[4] == -1.0f, "penalty for an id out of range");
  CHECK(!b.ended[0] || b.terminated[0] || b.truncated[0], "a legal action in the same step played");
  /* disabled autoreset: an ended env must be reset before it steps */
  b.v.autoreset = TH_VEC_DISABLED;
  b.v.penalize = 0;
  for (int i = 0; i < ENVS; i++)
    if (!b.ended[i])
      for (int a = 0; a < b.na; a++)
        if (b.mask[i * b.na + a]) {
          actions[i] = a;
          break;
        }
  CHECK(th_vec_step(&b.v, actions, NULL, bad, ENVS, &nbad, &e) == TH_ERR_ILLEGAL && bad[0] == 2,
        "an ended env under DISABLED refused: %s", e.msg);
  /* bad settings */
  vec_buf *c = &before;
  vec_init(c, g, like, 99, TH_VEC_NEXT_STEP, 0, 5);
  CHECK(th_vec_reset(&c->v, NULL, NULL, &e) == TH_ERR_ARG, "a learner seat out of range");
  vec_init(c, g, like, 0, 7, 0, 5);
  CHECK(th_vec_reset(&c->v, NULL, NULL, &e) == TH_ERR_ARG, "an autoreset mode out of range");
  vec_init(c, g, like, 0, TH_VEC_SAME_STEP, 0, 5);
  c->v.final_obs = NULL;
  CHECK(th_vec_reset(&c->v, NULL, NULL, &e) == TH_ERR_ARG, "SAME_STEP without final_obs");
  vec_init(c, g, like, 0, TH_VEC_NEXT_STEP, 0, 5);
  CHECK(th_pool_new(0, &e) == NULL && e.code == TH_ERR_ARG, "a pool of 0 threads refused");
  if (g == &sh_game) { /* a game whose rules need a log of positions */
    static sh_state rep;
    memcpy(&rep, like, sizeof rep);
    rep.rules.repetition_limit = 3;
    vec_init(c, g, &rep, 0, TH_VEC_NEXT_STEP, 0, 5);
    CHECK(th_vec_reset(&c->v, NULL, NULL, &e) == TH_ERR_ARG && strstr(e.msg, "repetition_limit"),
          "repetition_limit refused: %s", e.msg);
  }
  c->v.num_envs = 0;
  CHECK(th_vec_reset(&c->v, NULL, NULL, &e) == TH_ERR_ARG, "0 envs");
}

/* Observation values are whole numbers in 0..observation_high; uint8
 * observations (obs NULL, obs_u8 set) hold the float ones' values: two envs
 * with the same seed and actions, one of each, where the bound fits a byte
 * (refused where it does not). */
static void bytes_check(const th_game *g, const void *like) {
  static vec_buf f, b;
  static uint8_t u8[ENVS * MAXOBS], fin_u8[ENVS * MAXOBS];
  th_error e;
  vec_init(&f, g, like, 0, TH_VEC_SAME_STEP, 0, 9);
  vec_init(&b, g, like, 0, TH_VEC_SAME_STEP, 0, 9);
  b.v.obs = b.v.final_obs = NULL;
  b.v.obs_u8 = u8;
  b.v.final_obs_u8 = fin_u8;
  memset(u8, 0, sizeof u8);
  memset(fin_u8, 0, sizeof fin_u8);
  int high = g->observation_high(like), bytes = high <= 255;
  CHECK(th_vec_reset(&f.v, NULL, NULL, &e) == TH_OK, "reset");
  CHECK(th_vec_reset(&b.v, NULL, NULL, &e) == (bytes ? TH_OK : TH_ERR_ARG), "bytes for %s (high %d)", g->name, high);
  size_t size = (size_t)g->observation_size(like);
  int32_t actions[ENVS];
  for (int t = 0; t < 300; t++) {
    for (size_t k = 0; k < ENVS * size; k++) {
      int ended_now = f.terminated[k / size] || f.truncated[k / size];
      CHECK(f.obs[k] >= 0 && f.obs[k] <= high && f.obs[k] == (float)(int)f.obs[k], "an observation value %g", f.obs[k]);
      if (bytes)
        CHECK(u8[k] == (uint8_t)f.obs[k] && (!ended_now || fin_u8[k] == (uint8_t)f.final_obs[k]),
              "uint8 obs %zu, step %d: %d, float %g", k, t, u8[k], f.obs[k]);
    }
    for (int i = 0; i < ENVS; i++) {
      int a = 0;
      while (!f.mask[i * f.na + a]) a++;
      actions[i] = a;
    }
    CHECK(th_vec_step(&f.v, actions, NULL, NULL, 0, NULL, &e) == TH_OK, "float step");
    if (bytes) CHECK(th_vec_step(&b.v, actions, NULL, NULL, 0, NULL, &e) == TH_OK, "byte step");
  }
  b.v.final_obs_u8 = NULL;
  CHECK(th_vec_reset(&b.v, NULL, NULL, &e) == TH_ERR_ARG, "SAME_STEP bytes without final_obs_u8");
}

/* th_play_games (common/batch.h), the batch of any game: 1 and 2 threads and two calls split at k give
 * the same games; a game of the batch is the game played by hand from the same seed; observer
 * resamples; bad arguments are refused and write nothing. */
static void play_games_checks(const th_game *g, const void *like) {
  enum { N = 24, P = 8 };
  static double r1[N * P], r2[N * P], r3[N * P], one[P];
  static uint32_t m1[N], m2[N], m3[N];
  static uint8_t t1[N], t2[N], t3[N];
  uint8_t pol[P];
  th_error e;
  int n = g->num_players(like);
  memset(pol, 0, sizeof pol);
  pol[0] = (uint8_t)(g->num_policies - 1); /* seat 0 plays the game's last policy, the others its first */
  th_play_batch b = {g, like, 1, -1, pol, 77, 0, N, r1, m1, t1};
  CHECK(th_play_games(&b, 1, NULL, &e) == TH_OK, "%s: fresh batch: %s", g->name, e.msg);
  b.returns = r2, b.moves = m2, b.truncated = t2;
  CHECK(th_play_games(&b, 2, NULL, &e) == TH_OK, "%s: 2 threads", g->name);
  CHECK(!memcmp(r1, r2, sizeof(double) * N * (size_t)n) && !memcmp(m1, m2, sizeof m1) && !memcmp(t1, t2, sizeof t1),
        "%s: 1 and 2 threads differ", g->name);
  b.n = 10, b.returns = r3, b.moves = m3, b.truncated = t3;
  CHECK(th_play_games(&b, 1, NULL, &e) == TH_OK, "%s: the first 10", g->name);
  b.first = 10, b.n = N - 10, b.returns = r3 + 10 * n, b.moves = m3 + 10, b.truncated = t3 + 10;
  CHECK(th_play_games(&b, 2, NULL, &e) == TH_OK, "%s: the rest", g->name);
  CHECK(!memcmp(r1, r3, sizeof(double) * N * (size_t)n) && !memcmp(m1, m3, sizeof m1), "%s: split at 10", g->name);
  /* game 5 by hand */
  uint8_t s[TH_MAX_STATE_BYTES];
  th_rng rng;
  g->new_game(s, like, th_batch_seed(77, 5));
  th_batch_rng(77, 5, &rng);
  uint32_t moves = 0;
  while (!g->is_over(s)) {
    g->apply_legal(s, g->policy_action(s, pol[g->current_player(s)], &rng));
    moves++;
  }
  g->returns(s, one);
  CHECK(moves == m1[5] && !memcmp(one, r1 + 5 * n, sizeof(double) * (size_t)n), "%s: game 5 by hand", g->name);
  double sum = 0;
  for (int q = 0; q < n; q++) sum += r1[q];
  CHECK(sum > -1e-9 && sum < 1e-9, "%s: zero-sum returns", g->name);
  /* from a state, resampled from seat 1's view: the same for any thread count */
  th_play_batch c = {g, like, 0, 1, pol, 78, 0, N, r1, m1, t1};
  CHECK(th_play_games(&c, 1, NULL, &e) == TH_OK, "%s: resampled batch: %s", g->name, e.msg);
  c.returns = r2, c.moves = m2, c.truncated = t2;
  CHECK(th_play_games(&c, 2, NULL, &e) == TH_OK && !memcmp(r1, r2, sizeof(double) * N * (size_t)n),
        "%s: resampled, 1 and 2 threads", g->name);
  /* bad arguments: nothing written */
  memcpy(r3, r1, sizeof r3);
  c.observer = n, c.returns = r3;
  CHECK(th_play_games(&c, 1, NULL, &e) == TH_ERR_ARG, "%s: observer out of range", g->name);
  c.observer = 1, c.fresh = 1;
  CHECK(th_play_games(&c, 1, NULL, &e) == TH_ERR_ARG, "%s: observer of fresh deals", g->name);
  c.fresh = 0, c.n = -1;
  CHECK(th_play_games(&c, 1, NULL, &e) == TH_ERR_ARG, "%s: n < 0", g->name);
  c.n = N, c.first = INT64_MAX - 3;
  CHECK(th_play_games(&c, 1, NULL, &e) == TH_ERR_ARG, "%s: first + n past 2**63", g->name);
  c.first = 0, pol[1] = (uint8_t)g->num_policies;
  CHECK(th_play_games(&c, 1, NULL, &e) == TH_ERR_ARG, "%s: a policy out of range", g->name);
  pol[1] = 0;
  CHECK(th_play_games(&c, 0, NULL, &e) == TH_ERR_ARG, "%s: 0 threads", g->name);
  CHECK(!memcmp(r3, r1, sizeof r3), "%s: a refused batch wrote nothing", g->name);
}

static double now(void) { return th_monotonic_seconds(); }

/* Learner steps per second of `envs` envs on `threads` threads (the best of
 * 5 runs of about 0.3 s each). */
static double bench(const sh_state *like, int envs, int threads) {
  const th_game *g = &sh_game;
  size_t size = (size_t)g->observation_size(like), na = (size_t)g->num_actions(like);
  th_vec v;
  memset(&v, 0, sizeof v);
  v.game = g;
  v.like = like;
  v.num_envs = envs;
  v.learner = 0;
  v.autoreset = TH_VEC_NEXT_STEP;
  v.seed = 1;
  v.stride = th_vec_stride(g, like);
  v.states = calloc((size_t)envs, v.stride);
  v.episode = calloc((size_t)envs, sizeof(uint64_t));
  v.moves = calloc((size_t)envs, sizeof(uint32_t));
  v.obs = calloc((size_t)envs * size, sizeof(float));
  v.mask = calloc((size_t)envs * na, 1);
  v.rewards = calloc((size_t)envs, sizeof(float));
  v.terminated = calloc((size_t)envs, 1);
  v.truncated = calloc((size_t)envs, 1);
  v.ended = calloc((size_t)envs, 1);
  v.current_player = calloc((size_t)envs, sizeof(int32_t));
  int32_t *actions = calloc((size_t)envs, sizeof(int32_t));
  th_error e;
  double best = 0;
  th_pool *pool = th_pool_new(threads, &e);
  if (!v.states || !v.episode || !v.moves || !v.obs || !v.mask || !v.rewards || !v.terminated || !v.truncated ||
      !v.ended || !v.current_player || !actions || !pool || th_vec_reset(&v, NULL, pool, &e)) {
    fprintf(stderr, "bench: out of memory or reset failed\n");
  } else {
    for (int r = 0; r < 5; r++) {
      long long steps = 0;
      double t0 = now(), t = 0;
      do {
        for (int i = 0; i < envs; i++) { /* the first legal action (as the Gymnasium benchmark's learner) */
          const uint8_t *m = v.mask + (size_t)i * na;
          int a = 0;
          while (a + 1 < (int)na && !m[a]) a++;
          actions[i] = a;
        }
        if (th_vec_step(&v, actions, pool, NULL, 0, NULL, &e)) {
          fprintf(stderr, "bench: %s\n", e.msg);
          break;
        }
        steps += envs;
        t = now() - t0;
      } while (t < 0.3);
      if (steps / t > best) best = steps / t;
    }
  }
  free(v.states);
  free(v.episode);
  free(v.moves);
  free(v.obs);
  free(v.mask);
  free(v.rewards);
  free(v.terminated);
  free(v.truncated);
  free(v.ended);
  free(v.current_player);
  free(actions);
  th_pool_free(pool);
  return best;
}

/* Making or changing a state writes no byte past its bytes in use (game.h):
 * every byte from state_bytes to state_size is a canary, checked after a new
 * deal and after every move of a game played by the policies (each move by
 * apply_legal, every fourth state also resampled for the seat to move, and
 * the last one rolled out and valued by search_value on copies with canaries
 * of their own). Over tables of every size the game offers. */
static void canary_checks(const th_game *g, const void *const *likes, int num_likes) {
  static unsigned char s[TH_MAX_STATE_BYTES], d[TH_MAX_STATE_BYTES];
  static uint16_t legal[TH_MAX_ACTIONS];
  double values[TH_MAX_PLAYERS];
  th_rng rng;
  th_rng_seed(&rng, 77);
  for (int k = 0; k < num_likes; k++) {
    const void *like = likes[k];
    size_t used = g->state_bytes(like);
    CHECK(used <= g->state_size, "%s: %lld bytes in use of %lld", g->name, (long long)used, (long long)g->state_size);
    for (uint64_t seed = 1; seed <= 6; seed++) {
      memset(s, 0xA5, sizeof s);
      g->new_game(s, like, seed);
      CHECK(g->state_bytes(s) == used, "%s: a deal's bytes in use", g->name);
      int moves = 0, bad = 0;
      for (; !g->is_over(s) && moves < 3000 && !bad; moves++) {
        if (moves % 4 == 0 && g->current_player(s) >= 0) g->resample(s, g->current_player(s), &rng, NULL);
        int n = g->legal_actions(s, legal);
        g->apply_legal(s, legal[th_rng_below(&rng, (uint32_t)n)]);
        for (size_t i = used; i < g->state_size && !bad; i++) bad = s[i] != 0xA5;
      }
      CHECK(!bad, "%s table %d seed %lld: a byte past the %lld in use was written by move %d", g->name, k,
            (long long)seed, (long long)used, moves);
      if (!g->is_over(s)) {
        memset(d, 0xA5, sizeof d);
        memcpy(d, s, used);
        g->rollout(d, (int)(seed % (uint64_t)g->num_policies), &rng);
        int bad_roll = 0;
        for (size_t i = used; i < g->state_size; i++) bad_roll |= d[i] != 0xA5;
        memset(d, 0xA5, sizeof d);
        memcpy(d, s, used);
        g->search_value(s, d, 0, &rng, NULL, values);
        for (size_t i = used; i < g->state_size; i++) bad_roll |= d[i] != 0xA5;
        CHECK(!bad_roll, "%s table %d: a rollout or search_value wrote past the bytes in use", g->name, k);
      }
    }
  }
}

int main(int argc, char **argv) {
  int steps = 2000, bench_envs = 0, bench_threads = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--steps") && i + 1 < argc) {
      steps = atoi(argv[++i]);
      if (steps < 1000) { /* fewer: a Three Thirteen run (a third of them) may see no episode end */
        fprintf(stderr, "--steps must be at least 1000\n");
        return 2;
      }
    } else if (!strcmp(argv[i], "--bench") && i + 1 < argc) {
      bench_envs = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
      bench_threads = atoi(argv[++i]); /* --bench on this many threads only (for a profiler) */
      if (bench_threads < 1 || bench_threads > 256) {
        fprintf(stderr, "--threads must be in 1..256\n");
        return 2;
      }
    } else {
      fprintf(stderr, "usage: %s [--steps N] [--bench ENVS [--threads T]]\n", argv[0]);
      return 2;
    }
  }
  static sh_state sh_like;
  static tt_state tt_like;
  sh_rules r;
  sh_rules_preset(SH_PRESET_THREES, &r);
  CHECK(sh_state_deal(&sh_like, &r, 4, -1, 0, 1, NULL) == TH_OK, "deal");
  tt_options o;
  tt_options_default(3, &o);
  /* a move cap of 300: random Three Thirteen games last thousands of moves, so
   * its episodes here end truncated */
  CHECK(tt_new_game(&tt_like, &o, 3, 1, 300, NULL) == TH_OK, "deal");
  g_sh_like = &sh_like;
  g_tt_like = &tt_like;
  if (bench_envs > 0 && bench_threads > 0) {
    printf("Shithead, 4 players, seat 0 against 3 random seats, %d envs: %.0f learner steps/s on %d thread(s)\n",
           bench_envs, bench(&sh_like, bench_envs, bench_threads), bench_threads);
    return 0;
  }
  if (bench_envs > 0) {
    double one = bench(&sh_like, bench_envs, 1), two = bench(&sh_like, bench_envs, 2);
    printf("Shithead, 4 players, seat 0 against 3 random seats, %d envs: %.0f learner steps/s on 1 thread, "
           "%.0f on 2 (%.2fx)\n", bench_envs, one, two, two / one);
    return 0;
  }
  const th_game *games[2] = {&sh_game, &tt_game};
  const void *likes[2] = {&sh_like, &tt_like};
  long long runs = 0;
  for (int k = 0; k < 2; k++)
    for (int learner = -1; learner <= 1; learner += 2) /* self-play, and seat 1 against policies */
      for (int mode = TH_VEC_NEXT_STEP; mode <= TH_VEC_DISABLED; mode++) {
        int st = k == 1 ? steps / 3 : steps; /* Three Thirteen's moves cost more (its meld search) */
        uint64_t one = run(games[k], likes[k], learner, mode, 11 + (uint64_t)mode, st, 1, 1);
        uint64_t two = run(games[k], likes[k], learner, mode, 11 + (uint64_t)mode, st, 2, 0);
        CHECK(one == two, "%s learner %d autoreset %d: 1 and 2 threads differ", games[k]->name, learner, mode);
        runs++;
      }
  illegal_checks(&sh_game, &sh_like);
  illegal_checks(&tt_game, &tt_like);
  bytes_check(&sh_game, &sh_like);
  bytes_check(&tt_game, &tt_like);
  text_and_event_checks(&sh_game, &sh_like);
  text_and_event_checks(&tt_game, &tt_like);
  play_games_checks(&sh_game, &sh_like);
  play_games_checks(&tt_game, &tt_like);
  { /* every table size each game offers, and Shithead with the repetition rule (its whole struct in use) */
    static sh_state sh_tables[12];
    static tt_state tt_tables[8];
    const void *sh_likes[12], *tt_likes[8];
    int nsh = 0, ntt = 0;
    for (int n = 2; n <= 12; n++) {
      sh_rules rr;
      sh_rules_preset(SH_PRESET_THREES, &rr);
      rr.decks = (uint8_t)(n <= 5 ? 2 : 4);
      if (n == 3) rr.repetition_limit = 3;
      if (sh_state_deal(&sh_tables[nsh], &rr, n, -1, 0, 1, NULL) == TH_OK) sh_likes[nsh] = &sh_tables[nsh], nsh++;
    }
    for (int n = 2; n <= 8; n++) {
      tt_options oo;
      tt_options_default(n, &oo);
      if (tt_new_game(&tt_tables[ntt], &oo, n, 1, 400, NULL) == TH_OK) tt_likes[ntt] = &tt_tables[ntt], ntt++;
    }
    CHECK(nsh >= 10 && ntt == 7, "tables: %d Shithead, %d Three Thirteen", nsh, ntt);
    canary_checks(&sh_game, sh_likes, nsh);
    canary_checks(&tt_game, tt_likes, ntt);
  }
  printf("vector envs: %lld runs of %d steps x %d envs; %lld checks, %lld failed\n", runs, steps, ENVS, g_checks,
         g_failed);
  printf("%d passed, %d failed\n", g_failed ? 0 : 1, g_failed ? 1 : 0);
  return g_failed ? 1 : 0;
}
