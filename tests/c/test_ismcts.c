/* test_ismcts.c - the generic SO-ISMCTS (common/ismcts.h) on Three Thirteen
 * (three_thirteen/game.h), plus the interface's bounds for both games.
 *
 * On positions reached by random and greedy play under random options: a
 * search returns a legal action and root children that are legal, its counts
 * keep the promises of ismcts.h (iterations run, nodes <= capacity and <=
 * iterations + 1, root visits summing to the iterations when the array has
 * room), it is deterministic for a seed, and it does not read hidden cards:
 * the same root with the other hands and the stock dealt again (tt_resample
 * from the mover's view) gives the same tree for the same seed. Bad settings
 * (NaN or infinite exploration or time limit, an unknown policy, no room, a
 * game that is over, a corrupted root) are refused.
 *
 * Hostile settings on both games (stop_checks): huge finite exploration
 * constants (UCB values overflow to inf), tiny time limits, a node array
 * with room for one or two nodes, a stop hook that says stop at once or
 * after some calls: every search returns a legal action, never selects
 * nothing (ASan catches any read outside the array), keeps its counts
 * consistent (root visits = iterations run: an abandoned iteration backs
 * nothing up and leaves no node behind), and a hook that never stops gives
 * the tree of no hook. Rollouts played in slices (sh_rollout_until,
 * tt_rollout_round_stoppable with a hook that never stops) play exactly the
 * moves and random draws of one rollout, on long greedy Shithead games.
 *
 * Usage: threes_ismcts_test [--games N]   (exit code 0 when every check passes)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ismcts.h"
#include "shithead/shithead.h"
#include "three_thirteen/three_thirteen.h"

#include "check.h"

#define CAP 400
static th_ismcts_node arena[CAP], arena2[CAP];

static int search(const tt_state *s, const th_ismcts_config *cfg, th_ismcts_node *a, uint32_t cap,
                  th_ismcts_stats *st, uint16_t *acts, uint32_t *vis, double *vals, int *nc) {
  th_error e;
  int rc = th_ismcts_search(&tt_game, s, cfg, a, cap, st, acts, vis, vals, nc, &e);
  if (rc) printf("search error %d: %s\n", rc, e.msg);
  return rc;
}

/* A stop hook that says stop from its `after`-th call on. */
typedef struct {
  long long calls, after;
} count_stop;
static int count_should_stop(void *ctx) {
  count_stop *c = (count_stop *)ctx;
  return ++c->calls > c->after;
}

static int legal_in(const th_game *g, const void *s, int a) {
  uint16_t buf[TH_MAX_ACTIONS];
  int n = g->legal_actions(s, buf);
  for (int k = 0; k < n; k++)
    if (buf[k] == a) return 1;
  return 0;
}

#define BIG 2000
static th_ismcts_node big[BIG], big2[BIG];

/* One search with hostile settings on any game: checks the promises that
 * hold whatever the settings. */
static void hostile_search(const th_game *g, const void *root, const th_ismcts_config *cfg, uint32_t cap,
                           const char *what) {
  static uint16_t acts[TH_MAX_ACTIONS];
  static uint32_t vis[TH_MAX_ACTIONS];
  static double vals[TH_MAX_ACTIONS];
  th_ismcts_stats st;
  th_error e;
  int nc = -1;
  int rc = th_ismcts_search(g, root, cfg, big, cap, &st, acts, vis, vals, &nc, &e);
  CHECK(rc == TH_OK, "%s %s: search failed: %s", g->name, what, e.msg);
  if (rc) return;
  CHECK(legal_in(g, root, st.best_action), "%s %s: best action %d is not legal", g->name, what, st.best_action);
  CHECK(st.iterations <= cfg->iterations && st.nodes >= 1 && st.nodes <= cap && st.nodes <= st.iterations + 1,
        "%s %s: %u iterations, %u nodes", g->name, what, st.iterations, st.nodes);
  uint64_t sum = 0;
  for (int k = 0; k < nc; k++) {
    CHECK(legal_in(g, root, acts[k]), "%s %s: child %d is not legal", g->name, what, acts[k]);
    CHECK(vis[k] >= 1, "%s %s: a root child with no visit", g->name, what);
    CHECK(vals[k] >= -1.0 && vals[k] <= 1.0, "%s %s: value %g", g->name, what, vals[k]);
    sum += vis[k];
  }
  if (cap >= st.iterations + 1)
    CHECK(sum == st.iterations, "%s %s: root visits %llu, iterations %u", g->name, what, (unsigned long long)sum,
          st.iterations);
}

static void stop_checks(void) {
  static sh_state sh[6];
  static tt_state tt[4];
  sh_rules r;
  sh_rules_preset(SH_PRESET_THREES, &r);
  th_rng g;
  th_rng_seed(&g, 77);
  /* Shithead roots: fresh 4-player deals, some moves in, and 2-player games
   * with a long move cap where greedy play may loop. */
  for (int i = 0; i < 6; i++) {
    int n = i < 3 ? 4 : 2;
    CHECK(sh_state_deal(&sh[i], &r, n, -1, i < 3 ? 0 : 20000, 100 + (uint64_t)i, NULL) == TH_OK, "deal");
    int m = (int)th_rng_below(&g, 30);
    for (int k = 0; k < m && sh[i].phase != SH_PHASE_OVER; k++) sh_policy_step(&sh[i], SH_POLICY_RANDOM, &g);
    if (sh[i].phase == SH_PHASE_OVER) sh_state_deal(&sh[i], &r, n, -1, 0, 200 + (uint64_t)i, NULL);
  }
  for (int i = 0; i < 4; i++) {
    tt_options o;
    tt_options_default(2 + i, &o);
    tt_new_game(&tt[i], &o, 2 + i, 300 + (uint64_t)i, 0, NULL);
    int m = (int)th_rng_below(&g, 60);
    for (int k = 0; k < m && tt[i].phase != TT_PHASE_OVER; k++)
      tt_apply_legal(&tt[i], tt_policy_action(&tt[i], TT_POLICY_GREEDY, &g));
    if (tt[i].phase == TT_PHASE_OVER) tt_new_game(&tt[i], &o, 2 + i, 400 + (uint64_t)i, 0, NULL);
  }
  const double explorations[] = {0.0, 0.7, 1e6, 1e300, 1.7976931348623157e308};
  const double limits[] = {0.0, 1e-9, 1e-4};
  const uint32_t caps[] = {1, 2, 3, BIG};
  for (int gi = 0; gi < 2; gi++) {
    const th_game *game = gi == 0 ? &sh_game : &tt_game;
    int roots = gi == 0 ? 6 : 4;
    for (int i = 0; i < roots; i++) {
      const void *root = gi == 0 ? (const void *)&sh[i] : (const void *)&tt[i];
      for (int ei = 0; ei < 5; ei++)
        for (int li = 0; li < 3; li++)
          for (int ci = 0; ci < 4; ci++) {
            th_ismcts_config cfg = {gi == 0 ? 60 : 20, limits[li], explorations[ei],
                                    (uint8_t)(gi == 0 ? (i < 3 ? SH_POLICY_RANDOM : SH_POLICY_GREEDY)
                                                      : TT_POLICY_GREEDY),
                                    (uint64_t)(ei * 100 + li * 10 + ci), NULL};
            hostile_search(game, root, &cfg, caps[ci], "hostile settings");
          }
      /* Stop hooks: at once, after a few calls, never. */
      const long long afters[] = {0, 1, 5, 40, 1LL << 60};
      for (int k = 0; k < 5; k++) {
        count_stop cs = {0, afters[k]};
        th_stop hook = {count_should_stop, &cs};
        th_ismcts_config cfg = {gi == 0 ? 60 : 20, 0.0, 0.7,
                                (uint8_t)(gi == 0 ? (i < 3 ? SH_POLICY_RANDOM : SH_POLICY_GREEDY) : TT_POLICY_GREEDY),
                                (uint64_t)k + 5, &hook};
        hostile_search(game, root, &cfg, BIG, "stop hook");
        th_ismcts_stats st, st2;
        th_error e;
        cs.calls = 0;
        if (th_ismcts_search(game, root, &cfg, big, BIG, &st, NULL, NULL, NULL, NULL, &e) != TH_OK) continue;
        if (afters[k] == 0) CHECK(st.iterations == 0 && st.stopped == 2, "%s: a hook that stops at once", game->name);
        if (afters[k] < 5)
          CHECK(st.stopped == 2 && st.iterations < cfg.iterations, "%s: stop hook ignored", game->name);
        if (afters[k] > 1000000) {
          /* a hook that never stops: the tree of no hook */
          CHECK(st.stopped == 0 && st.iterations == cfg.iterations, "%s: stopped by a hook that never stops",
                game->name);
          th_ismcts_config plain = cfg;
          plain.stop = NULL;
          th_ismcts_search(game, root, &plain, big2, BIG, &st2, NULL, NULL, NULL, NULL, &e);
          CHECK(st.best_action == st2.best_action && st.nodes == st2.nodes &&
                    !memcmp(big, big2, sizeof big[0] * st.nodes),
                "%s: a hook that never stops changed the tree", game->name);
        }
      }
    }
  }
  /* Sliced rollouts play the moves of one rollout. */
  long long long_games = 0;
  for (int i = 0; i < 40; i++) {
    static sh_state a, b;
    int n = 2 + i % 3;
    sh_state_deal(&a, &r, n, -1, 20000, 500 + (uint64_t)i, NULL);
    b = a;
    uint8_t pol[SH_MAX_PLAYERS];
    memset(pol, (uint8_t)(i % 3), sizeof pol); /* random, greedy, heuristic */
    th_rng ra, rb;
    th_rng_seed(&ra, (uint64_t)i);
    rb = ra;
    uint32_t ma = sh_rollout(&a, pol, &ra), mb = 0, slice = 1 + (uint32_t)(i * 37 % 700);
    for (int guard = 0; b.phase != SH_PHASE_OVER && guard < 30000; guard++)
      mb += sh_rollout_until(&b, pol, &rb, b.move_count + slice);
    if (ma > 512) long_games++;
    CHECK(ma == mb && a.move_count == b.move_count && a.truncated == b.truncated && a.num_out == b.num_out &&
              !memcmp(a.finish, b.finish, sizeof a.finish) && !memcmp(&ra, &rb, sizeof ra),
          "game %d: a rollout in slices of %u differs", i, slice);
  }
  for (int i = 0; i < 20; i++) {
    static tt_state a, b;
    tt_options o;
    tt_options_default(2 + i % 4, &o);
    tt_new_game(&a, &o, 2 + i % 4, 600 + (uint64_t)i, 0, NULL);
    b = a;
    uint8_t pol[TT_MAX_PLAYERS];
    memset(pol, i % 2 ? TT_POLICY_GREEDY : TT_POLICY_RANDOM, sizeof pol);
    th_rng ra, rb;
    th_rng_seed(&ra, (uint64_t)i);
    rb = ra;
    count_stop never = {0, 1LL << 60};
    th_stop hook = {count_should_stop, &never};
    tt_rollout_round(&a, pol, &ra);
    CHECK(tt_rollout_round_stoppable(&b, pol, &rb, &hook) == 0, "a hook that never stops stopped a round");
    CHECK(!memcmp(&a, &b, sizeof a) && !memcmp(&ra, &rb, sizeof ra), "round %d: the stoppable round differs", i);
    count_stop now = {0, 0};
    hook.ctx = &now;
    b = a;
    if (b.phase != TT_PHASE_OVER) {
      uint32_t before = b.move_count;
      int stopped = tt_rollout_round_stoppable(&b, pol, &rb, &hook);
      CHECK(stopped == (b.phase != TT_PHASE_OVER && b.round == a.round), "round %d: stop flag", i);
      CHECK(b.move_count - before <= TH_STOP_MOVES, "round %d: %u moves played after stop", i, b.move_count - before);
    }
  }
  CHECK(long_games >= 1, "no rollout longer than a slice (%lld)", long_games);
  printf("stop checks: %lld rollouts longer than TH_STOP_MOVES compared in slices\n", long_games);
}

int main(int argc, char **argv) {
  long long games = 40;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--games") && i + 1 < argc) {
      games = atoll(argv[++i]);
    } else {
      fprintf(stderr, "usage: %s [--games N]\n", argv[0]);
      return 2;
    }
  }
  static tt_state s, t;
  uint16_t legal[TT_NUM_ACTIONS], acts[TT_NUM_ACTIONS], acts2[TT_NUM_ACTIONS];
  uint32_t vis[TT_NUM_ACTIONS], vis2[TT_NUM_ACTIONS];
  double vals[TT_NUM_ACTIONS], vals2[TT_NUM_ACTIONS];
  th_rng g;
  th_rng_seed(&g, UINT64_C(0x15C75));
  long long searches = 0, hidden_pairs = 0;
  for (long long i = 0; i < games; i++) {
    int n = 2 + (int)th_rng_below(&g, 4);
    tt_options o;
    tt_options_default(n, &o);
    o.jokers = (uint8_t)th_rng_below(&g, 3);
    o.meld.ace_either = (uint8_t)th_rng_below(&g, 2);
    o.go_out_first_turn = (uint8_t)th_rng_below(&g, 2);
    th_error e;
    CHECK(tt_new_game(&s, &o, n, (uint64_t)i, 0, &e) == TH_OK, "%s", e.msg);
    int stop = (int)th_rng_below(&g, 160);
    for (int m = 0; m < stop && s.phase != TT_PHASE_OVER; m++) {
      int pol = th_rng_below(&g, 4) == 0 ? TT_POLICY_RANDOM : TT_POLICY_GREEDY;
      tt_apply_legal(&s, tt_policy_action(&s, pol, &g));
    }
    if (s.phase == TT_PHASE_OVER) continue;
    int nl = tt_legal_actions(&s, legal);
    th_ismcts_config cfg = {1 + th_rng_below(&g, 100), 0.0, 0.3 + 0.2 * (double)th_rng_below(&g, 5),
                            (uint8_t)th_rng_below(&g, TT_NUM_POLICIES), (uint64_t)i * 7 + 1, NULL};
    uint32_t cap = i % 5 == 0 ? 1 + th_rng_below(&g, 8) : CAP;
    th_ismcts_stats st, st2;
    int nc = -1, nc2 = -1;
    if (search(&s, &cfg, arena, cap, &st, acts, vis, vals, &nc)) {
      CHECK(0, "game %lld: search failed", i);
      continue;
    }
    searches++;
    CHECK(tt_is_legal(&s, st.best_action), "game %lld: best action %d is not legal", i, st.best_action);
    CHECK(st.iterations == cfg.iterations, "game %lld: %u iterations of %u", i, st.iterations, cfg.iterations);
    CHECK(st.nodes >= 1 && st.nodes <= cap && st.nodes <= cfg.iterations + 1, "game %lld: %u nodes", i, st.nodes);
    CHECK(nc >= 0 && nc <= nl, "game %lld: %d root children of %d legal actions", i, nc, nl);
    uint32_t sum = 0, best = 0;
    for (int k = 0; k < nc; k++) {
      CHECK(tt_is_legal(&s, acts[k]), "game %lld: child %d is not legal", i, acts[k]);
      CHECK(vals[k] >= -1.0 && vals[k] <= 1.0, "game %lld: value %g", i, vals[k]);
      sum += vis[k];
      if (vis[k] > best) best = vis[k];
    }
    if (cap == CAP) CHECK(sum == cfg.iterations, "game %lld: root visits %u, iterations %u", i, sum, cfg.iterations);
    if (nc > 0) {
      uint32_t bv = 0;
      for (int k = 0; k < nc; k++)
        if (acts[k] == st.best_action) bv = vis[k];
      CHECK(bv == best, "game %lld: the answer is not the most visited child", i);
    }
    /* Deterministic for a seed. */
    CHECK(search(&s, &cfg, arena2, cap, &st2, acts2, vis2, vals2, &nc2) == TH_OK, "again");
    CHECK(st2.best_action == st.best_action && st2.nodes == st.nodes && nc2 == nc &&
              memcmp(acts, acts2, sizeof acts[0] * (size_t)nc) == 0 &&
              memcmp(vis, vis2, sizeof vis[0] * (size_t)nc) == 0 &&
              memcmp(vals, vals2, sizeof vals[0] * (size_t)nc) == 0,
          "game %lld: two searches with one seed differ", i);
    /* Hidden cards are not used: the root with the other hands, the stock and
     * the chance stream dealt again from the mover's view searches alike. */
    memcpy(&t, &s, sizeof t);
    th_rng rr;
    th_rng_seed(&rr, (uint64_t)i ^ UINT64_C(0xABCDEF));
    CHECK(tt_resample(&t, s.current, &rr, &e) == TH_OK, "%s", e.msg);
    if (memcmp(&t, &s, sizeof t) != 0) hidden_pairs++;
    CHECK(search(&t, &cfg, arena2, cap, &st2, acts2, vis2, vals2, &nc2) == TH_OK, "resampled");
    CHECK(st2.best_action == st.best_action && st2.nodes == st.nodes && nc2 == nc &&
              memcmp(acts, acts2, sizeof acts[0] * (size_t)nc) == 0 &&
              memcmp(vis, vis2, sizeof vis[0] * (size_t)nc) == 0 &&
              memcmp(vals, vals2, sizeof vals[0] * (size_t)nc) == 0,
          "game %lld: the search depends on cards hidden from the mover", i);
  }
  CHECK(searches >= games / 2, "only %lld searches", searches);
  CHECK(hidden_pairs >= searches / 2, "only %lld resampled roots differed", hidden_pairs);

  /* Bad settings are refused, whatever the game. */
  {
    tt_options o;
    tt_options_default(3, &o);
    tt_new_game(&s, &o, 3, 5, 0, NULL);
    th_ismcts_config bad = {10, 0.0, 0.7, TT_POLICY_GREEDY, 1, NULL};
    th_error e;
    CHECK(th_ismcts_search(&tt_game, &s, &bad, arena, CAP, NULL, NULL, NULL, NULL, NULL, &e) == TH_OK, "%s", e.msg);
    const double nonfinite[3] = {INFINITY, -INFINITY, NAN};
    for (int k = 0; k < 3; k++) {
      bad.exploration = nonfinite[k];
      CHECK(th_ismcts_search(&tt_game, &s, &bad, arena, CAP, NULL, NULL, NULL, NULL, NULL, &e) == TH_ERR_ARG,
            "exploration %g accepted", nonfinite[k]);
      bad.exploration = 0.7;
      bad.time_limit = nonfinite[k];
      CHECK(th_ismcts_search(&tt_game, &s, &bad, arena, CAP, NULL, NULL, NULL, NULL, NULL, &e) == TH_ERR_ARG,
            "time limit %g accepted", nonfinite[k]);
      bad.time_limit = 0.0;
    }
    bad.exploration = -0.1;
    CHECK(th_ismcts_search(&tt_game, &s, &bad, arena, CAP, NULL, NULL, NULL, NULL, NULL, &e) == TH_ERR_ARG, "c < 0");
    bad.exploration = 0.7;
    bad.rollout_policy = TT_NUM_POLICIES;
    CHECK(th_ismcts_search(&tt_game, &s, &bad, arena, CAP, NULL, NULL, NULL, NULL, NULL, &e) == TH_ERR_ARG, "policy");
    bad.rollout_policy = TT_POLICY_GREEDY;
    bad.iterations = 0;
    CHECK(th_ismcts_search(&tt_game, &s, &bad, arena, CAP, NULL, NULL, NULL, NULL, NULL, &e) == TH_ERR_ARG, "0 its");
    bad.iterations = 10;
    CHECK(th_ismcts_search(&tt_game, &s, &bad, arena, 0, NULL, NULL, NULL, NULL, NULL, &e) == TH_ERR_ARG, "cap 0");
    CHECK(th_ismcts_search(NULL, &s, &bad, arena, CAP, NULL, NULL, NULL, NULL, NULL, &e) == TH_ERR_ARG, "no game");
    CHECK(th_ismcts_search(&tt_game, &s, NULL, arena, CAP, NULL, NULL, NULL, NULL, NULL, &e) == TH_ERR_ARG, "no cfg");
    memcpy(&t, &s, sizeof t);
    t.hand_len[0]++; /* a corrupted root */
    CHECK(th_ismcts_search(&tt_game, &t, &bad, arena, CAP, NULL, NULL, NULL, NULL, NULL, &e) == TH_ERR_SETUP,
          "corrupted root");
    uint8_t pol[TT_MAX_PLAYERS] = {1, 1, 1, 1, 1, 1, 1, 1};
    tt_rollout(&s, pol, &g);
    CHECK(th_ismcts_search(&tt_game, &s, &bad, arena, CAP, NULL, NULL, NULL, NULL, NULL, &e) == TH_ERR_ARG,
          "a game that is over");
  }
  stop_checks();
  /* The interfaces fit the generic bounds. */
  CHECK(sh_game.state_size == sizeof(sh_state) && tt_game.state_size == sizeof(tt_state), "sizes");
  CHECK(sh_game.max_actions == SH_MAX_DISTINCT_ACTIONS && tt_game.max_actions == TT_NUM_ACTIONS, "actions");
  CHECK(sh_game.num_policies == SH_NUM_POLICIES && tt_game.num_policies == TT_NUM_POLICIES, "policies");

  printf("Three Thirteen ISMCTS: %lld searches, %lld roots resampled; %lld checks, %lld failed\n", searches,
         hidden_pairs, g_checks, g_failed);
  printf("%d passed, %d failed\n", g_failed ? 0 : 1, g_failed ? 1 : 0);
  return g_failed ? 1 : 0;
}
