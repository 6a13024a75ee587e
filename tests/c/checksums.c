/* checksums.c - one line per configuration: a checksum of games played by
 * the C core from fixed seeds, for comparing builds across platforms.
 *
 * "The same seed gives the same game on every platform": tests/c/run_cross.sh
 * runs this program built natively (x86-64, SSE2), built with
 * -DTHREES_NO_SIMD (the portable code paths), cross-compiled for aarch64
 * (run under qemu-user) and for Windows (mingw-w64, run under wine), and
 * requires the same output from every build.
 *
 * Each checksum is an FNV-1a hash over, per game: every action of a game
 * played through the generic interface (th_game: new_game, policy_action,
 * apply_legal) with the random and greedy policies, the observation tensor
 * of every seat at move 10 (float bits), the returns (double bits); the
 * outputs of a batch of rollouts on 1 and 2 native threads (which must
 * agree); an ISMCTS search's root visits and values; and a vector env's
 * observations, masks and rewards over its steps.
 *
 * Usage: threes_checksums [GAMES]   (default 200 games per configuration)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/game.h"
#include "common/ismcts.h"
#include "common/vector.h"
#include "shithead/game.h"
#include "shithead/rollout.h"
#include "shithead/rules.h"
#include "shithead/state.h"
#include "three_thirteen/game.h"
#include "three_thirteen/rollout.h"
#include "three_thirteen/state.h"

typedef struct {
  uint64_t h;
} fnv;

static void fnv_bytes(fnv *f, const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  for (size_t i = 0; i < n; i++) {
    f->h ^= b[i];
    f->h *= UINT64_C(0x100000001b3);
  }
}
static void fnv_u64(fnv *f, uint64_t x) {
  unsigned char b[8];
  for (int i = 0; i < 8; i++) b[i] = (unsigned char)(x >> (8 * i)); /* little-endian everywhere */
  fnv_bytes(f, b, 8);
}
static void fnv_double(fnv *f, double d) {
  uint64_t x;
  memcpy(&x, &d, 8);
  fnv_u64(f, x);
}
static void fnv_float(fnv *f, float v) {
  uint32_t x;
  memcpy(&x, &v, 4);
  fnv_u64(f, x);
}

static int g_failed = 0;
static void fail(const char *what) {
  fprintf(stderr, "checksums: %s\n", what);
  g_failed = 1;
}

static _Alignas(16) unsigned char g_state[TH_MAX_STATE_BYTES];
static float g_obs[1 << 16];

/* Games through the generic interface, every seat with `policy`. */
static uint64_t play_games(const th_game *g, const void *like, int policy, int games) {
  fnv f = {UINT64_C(0xcbf29ce484222325)};
  int n = g->num_players(like), size = g->observation_size(like);
  if ((size_t)size > sizeof g_obs / sizeof g_obs[0]) {
    fail("observation too large");
    return 0;
  }
  for (int i = 0; i < games; i++) {
    th_rng rng;
    th_rng_seed(&rng, (uint64_t)i * 7919u + 1u);
    g->new_game(g_state, like, (uint64_t)i);
    for (int move = 0; move < 100000 && !g->is_over(g_state); move++) {
      if (move == 10)
        for (int seat = 0; seat < n; seat++) {
          g->observe(g_state, seat, g_obs);
          for (int k = 0; k < size; k++) fnv_float(&f, g_obs[k]);
        }
      int a = g->policy_action(g_state, policy, &rng);
      if (!g->is_legal(g_state, a)) fail("a policy chose an illegal action");
      fnv_u64(&f, (uint64_t)a);
      g->apply_legal(g_state, a);
    }
    if (!g->is_over(g_state)) fail("a game did not end within 100000 moves");
    double ret[TH_MAX_PLAYERS];
    g->returns(g_state, ret);
    for (int seat = 0; seat < n; seat++) fnv_double(&f, ret[seat]);
    fnv_u64(&f, (uint64_t)g->is_truncated(g_state));
  }
  return f.h;
}

/* An ISMCTS search from the first position of a few games. */
static th_ismcts_node g_arena[20000];
static uint64_t searches(const th_game *g, const void *like, int policy, int count) {
  fnv f = {UINT64_C(0xcbf29ce484222325)};
  for (int i = 0; i < count; i++) {
    g->new_game(g_state, like, 1000u + (uint64_t)i);
    th_ismcts_config cfg = {300, 0.0, 0.7, (uint8_t)policy, (uint64_t)i, NULL};
    th_ismcts_stats st;
    uint16_t acts[TH_MAX_ACTIONS];
    static uint32_t vis[TH_MAX_ACTIONS];
    static double vals[TH_MAX_ACTIONS];
    int nc = 0;
    th_error e = {0};
    if (th_ismcts_search(g, g_state, &cfg, g_arena, 20000, &st, acts, vis, vals, &nc, &e) != TH_OK) {
      fail(e.msg);
      continue;
    }
    fnv_u64(&f, (uint64_t)st.best_action);
    fnv_u64(&f, st.nodes);
    for (int c = 0; c < nc; c++) {
      fnv_u64(&f, acts[c]);
      fnv_u64(&f, vis[c]);
      fnv_double(&f, vals[c]);
    }
  }
  return f.h;
}

/* Shithead rollouts of fresh deals, on 1 and 2 threads (which must agree). */
#define BATCH 2000
static int8_t g_places[BATCH * SH_MAX_PLAYERS];
static uint32_t g_moves[BATCH];
static uint8_t g_trunc[BATCH], g_stale[BATCH];
static uint64_t sh_batch_sum(const sh_rules *r, int players, int policy, int threads) {
  sh_batch b;
  memset(&b, 0, sizeof b);
  b.rules = *r;
  b.num_players = players;
  b.dealer = -1;
  b.max_moves = 0;
  for (int p = 0; p < players; p++) b.policies[p] = (uint8_t)policy;
  b.seed = 42;
  b.n = BATCH;
  b.places = g_places;
  b.moves = g_moves;
  b.truncated = g_trunc;
  b.stalemate = g_stale;
  th_error e = {0};
  if (sh_rollouts(&b, threads, &e) != TH_OK) {
    fail(e.msg);
    return 0;
  }
  fnv f = {UINT64_C(0xcbf29ce484222325)};
  fnv_bytes(&f, g_places, (size_t)BATCH * (size_t)players);
  for (int i = 0; i < BATCH; i++) fnv_u64(&f, g_moves[i]);
  fnv_bytes(&f, g_trunc, BATCH);
  fnv_bytes(&f, g_stale, BATCH);
  return f.h;
}

#define TT_BATCH 200
static int32_t g_totals[TT_BATCH * TT_MAX_PLAYERS];
static double g_returns[TT_BATCH * TT_MAX_PLAYERS];
static uint64_t tt_batch_sum(const tt_state *like, int policy, int threads) {
  tt_batch b;
  memset(&b, 0, sizeof b);
  b.start = like;
  b.fresh = 1;
  for (int p = 0; p < like->num_players; p++) b.policies[p] = (uint8_t)policy;
  b.seed = 42;
  b.n = TT_BATCH;
  b.totals = g_totals;
  b.returns = g_returns;
  b.moves = g_moves;
  b.truncated = g_trunc;
  th_error e = {0};
  if (tt_rollouts(&b, threads, &e) != TH_OK) {
    fail(e.msg);
    return 0;
  }
  fnv f = {UINT64_C(0xcbf29ce484222325)};
  size_t cells = (size_t)TT_BATCH * (size_t)like->num_players;
  for (size_t i = 0; i < cells; i++) {
    fnv_u64(&f, (uint64_t)(int64_t)g_totals[i]);
    fnv_double(&f, g_returns[i]);
  }
  for (int i = 0; i < TT_BATCH; i++) fnv_u64(&f, g_moves[i]);
  fnv_bytes(&f, g_trunc, TT_BATCH);
  return f.h;
}

/* A vector env of 16 envs, self-play with random actions drawn here, over
 * `steps` steps with auto-reset on the next step. */
#define VENVS 16
static _Alignas(16) unsigned char g_vstates[VENVS * TH_MAX_STATE_BYTES];
static uint64_t g_vepisode[VENVS];
static uint32_t g_vmoves[VENVS];
static float g_vobs[VENVS * 4096];
static uint8_t g_vmask[VENVS * TH_MAX_ACTIONS];
static float g_vrew[VENVS * TH_MAX_PLAYERS];
static uint8_t g_vterm[VENVS], g_vtrunc[VENVS], g_vended[VENVS];
static int32_t g_vcur[VENVS];
static uint64_t vector_sum(const th_game *g, const void *like, int steps) {
  th_vec v;
  memset(&v, 0, sizeof v);
  v.game = g;
  v.like = like;
  v.num_envs = VENVS;
  v.learner = -1;
  v.autoreset = TH_VEC_NEXT_STEP;
  v.seed = 7;
  v.states = g_vstates;
  /* the states as close as a binding keeps them: their bytes in use, aligned (common/vector.h) */
  v.stride = th_vec_stride(g, like);
  v.episode = g_vepisode;
  v.moves = g_vmoves;
  v.obs = g_vobs;
  v.mask = g_vmask;
  v.rewards = g_vrew;
  v.terminated = g_vterm;
  v.truncated = g_vtrunc;
  v.ended = g_vended;
  v.current_player = g_vcur;
  int size = g->observation_size(like), na = g->num_actions(like), n = g->num_players(like);
  if (size > 4096) {
    fail("vector observation too large");
    return 0;
  }
  th_error e = {0};
  if (th_vec_reset(&v, NULL, NULL, &e) != TH_OK) {
    fail(e.msg);
    return 0;
  }
  fnv f = {UINT64_C(0xcbf29ce484222325)};
  th_rng rng;
  th_rng_seed(&rng, 99);
  int32_t actions[VENVS];
  for (int step = 0; step < steps; step++) {
    for (int i = 0; i < VENVS; i++) {
      const uint8_t *m = g_vmask + (size_t)i * (size_t)na;
      int legal = 0;
      for (int a = 0; a < na; a++) legal += m[a] != 0;
      int k = legal ? (int)th_rng_below(&rng, (uint32_t)legal) : 0;
      actions[i] = 0;
      for (int a = 0; a < na; a++)
        if (m[a] && k-- == 0) {
          actions[i] = a;
          break;
        }
    }
    int64_t bad[1], num_bad = 0;
    if (th_vec_step(&v, actions, NULL, bad, 1, &num_bad, &e) != TH_OK || num_bad) {
      fail(e.msg);
      return 0;
    }
    for (int i = 0; i < VENVS * size; i++) fnv_float(&f, g_vobs[i]);
    fnv_bytes(&f, g_vmask, (size_t)VENVS * (size_t)na);
    for (int i = 0; i < VENVS * n; i++) fnv_float(&f, g_vrew[i]);
    fnv_bytes(&f, g_vterm, VENVS);
    fnv_bytes(&f, g_vtrunc, VENVS);
  }
  return f.h;
}

int main(int argc, char **argv) {
  int games = argc > 1 ? atoi(argv[1]) : 200;
  if (games < 1 || games > 1000000) {
    fprintf(stderr, "usage: %s [GAMES]   (1..1000000, default 200)\n", argv[0]);
    return 2;
  }
  static const char *preset_names[SH_NUM_PRESETS] = {"threes", "classic", "dutch"};
  static sh_state sh_like;
  for (int preset = 0; preset < SH_NUM_PRESETS; preset++) {
    sh_rules r;
    sh_rules_preset(preset, &r);
    for (int players = 2; players <= 5; players += 3) {
      th_error e = {0};
      if (sh_state_deal(&sh_like, &r, players, -1, 0, 1, &e) != TH_OK) {
        fail(e.msg);
        continue;
      }
      for (int policy = SH_POLICY_RANDOM; policy <= SH_POLICY_GREEDY; policy++) {
        const char *pn = policy == SH_POLICY_RANDOM ? "random" : "greedy";
        printf("shithead %-7s %dp %-6s games     %016llx\n", preset_names[preset], players, pn,
               (unsigned long long)play_games(&sh_game, &sh_like, policy, games));
        uint64_t one = sh_batch_sum(&r, players, policy, 1), two = sh_batch_sum(&r, players, policy, 2);
        if (one != two) fail("shithead rollouts differ between 1 and 2 threads");
        printf("shithead %-7s %dp %-6s rollouts  %016llx\n", preset_names[preset], players, pn,
               (unsigned long long)one);
      }
      printf("shithead %-7s %dp ismcts           %016llx\n", preset_names[preset], players,
             (unsigned long long)searches(&sh_game, &sh_like, SH_POLICY_RANDOM, 5));
      printf("shithead %-7s %dp vector           %016llx\n", preset_names[preset], players,
             (unsigned long long)vector_sum(&sh_game, &sh_like, 300));
    }
  }
  static tt_state tt_like;
  for (int players = 2; players <= 4; players += 2) {
    tt_options o;
    tt_options_default(players, &o);
    th_error e = {0};
    if (tt_new_game(&tt_like, &o, players, 1, 3000, &e) != TH_OK) {
      fail(e.msg);
      continue;
    }
    for (int policy = TT_POLICY_RANDOM; policy <= TT_POLICY_GREEDY; policy++) {
      const char *pn = policy == TT_POLICY_RANDOM ? "random" : "greedy";
      printf("three_thirteen  %dp %-6s games     %016llx\n", players, pn,
             (unsigned long long)play_games(&tt_game, &tt_like, policy, games / 10 + 1));
      uint64_t one = tt_batch_sum(&tt_like, policy, 1), two = tt_batch_sum(&tt_like, policy, 2);
      if (one != two) fail("three thirteen rollouts differ between 1 and 2 threads");
      printf("three_thirteen  %dp %-6s rollouts  %016llx\n", players, pn, (unsigned long long)one);
    }
    printf("three_thirteen  %dp ismcts           %016llx\n", players,
           (unsigned long long)searches(&tt_game, &tt_like, TT_POLICY_GREEDY, 3));
    printf("three_thirteen  %dp vector           %016llx\n", players,
           (unsigned long long)vector_sum(&tt_game, &tt_like, 300));
  }
  return g_failed;
}
