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
 * Usage: threes_ismcts_test [--games N]   (exit code 0 when every check passes)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ismcts.h"
#include "shithead/shithead.h"
#include "three_thirteen/three_thirteen.h"

static long long g_checks = 0, g_failed = 0;

#define CHECK(cond, ...)                                    \
  do {                                                      \
    g_checks++;                                             \
    if (!(cond)) {                                          \
      g_failed++;                                           \
      if (g_failed <= 30) {                                 \
        printf("FAIL line %d: %s -- ", __LINE__, #cond);    \
        printf(__VA_ARGS__);                                \
        printf("\n");                                       \
      }                                                     \
    }                                                       \
  } while (0)

#define CAP 400
static th_ismcts_node arena[CAP], arena2[CAP];

static int search(const tt_state *s, const th_ismcts_config *cfg, th_ismcts_node *a, uint32_t cap,
                  th_ismcts_stats *st, uint16_t *acts, uint32_t *vis, double *vals, int *nc) {
  th_error e;
  int rc = th_ismcts_search(&tt_game, s, cfg, a, cap, st, acts, vis, vals, nc, &e);
  if (rc) printf("search error %d: %s\n", rc, e.msg);
  return rc;
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
                            (uint8_t)th_rng_below(&g, TT_NUM_POLICIES), (uint64_t)i * 7 + 1};
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
    th_ismcts_config bad = {10, 0.0, 0.7, TT_POLICY_GREEDY, 1};
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
  /* The interfaces fit the generic bounds. */
  CHECK(sh_game.state_size == sizeof(sh_state) && tt_game.state_size == sizeof(tt_state), "sizes");
  CHECK(sh_game.max_actions == SH_MAX_DISTINCT_ACTIONS && tt_game.max_actions == TT_NUM_ACTIONS, "actions");
  CHECK(sh_game.num_policies == SH_NUM_POLICIES && tt_game.num_policies == TT_NUM_POLICIES, "policies");

  printf("Three Thirteen ISMCTS: %lld searches, %lld roots resampled; %lld checks, %lld failed\n", searches,
         hidden_pairs, g_checks, g_failed);
  printf("%d passed, %d failed\n", g_failed ? 0 : 1, g_failed ? 1 : 0);
  return g_failed ? 1 : 0;
}
