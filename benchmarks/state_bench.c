/* state_bench.c - issue 40's rows "in C": the copy of a state (clone), a copy
 * and one move (child), a copy and a resample (resample_from_infostate), for
 * both games, without Python. It uses only the C API that every build since
 * 48ed460 has, so one source compiles against any of them and the builds
 * compare in the same run (benchmarks/compare_builds.py --c-state OLD_TREE):
 *
 *   cc -std=c11 -O2 -I TREE/src/threes_core benchmarks/state_bench.c \
 *      TREE/src/threes_core/common/*.c TREE/src/threes_core/shithead/*.c \
 *      TREE/src/threes_core/three_thirteen/*.c -lpthread -lm -o bench && ./bench
 *
 * A copy carries the state's bytes in use where the build has them
 * (sh_state_bytes, tt_state_bytes), else the whole struct, as each build's
 * own clone does. Prints one JSON object: ns per call (best of 7 repeats)
 * and the bytes copied. The positions: Shithead 4 players (threes preset)
 * after 100 random legal moves of seed 5; Three Thirteen 3 players 4 moves
 * into round 6 of seed 11 (random legal moves, drawn by the same rng).
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/rng.h"
#include "shithead/determinize.h"
#include "shithead/rules.h"
#include "shithead/state.h"
#include "three_thirteen/determinize.h"
#include "three_thirteen/state.h"

#ifdef SH_LOC /* the layout sized by the table */
#define SH_BYTES(s) sh_state_bytes(s)
#else
#define SH_BYTES(s) sizeof(sh_state)
#endif
#ifdef TT_BODY_BYTES
#define TT_BYTES(s) tt_state_bytes(s)
#else
#define TT_BYTES(s) sizeof(tt_state)
#endif

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static sh_state sh_pos, sh_dst[2];
static tt_state tt_pos, tt_dst[2];
static volatile unsigned sink;

/* Best of 7 repeats of n calls of which(k), in ns per call. */
#define BEST(n, body)                                   \
  do {                                                  \
    best = 1e30;                                        \
    for (int rep = 0; rep < 7; rep++) {                 \
      double t0 = now_ns();                             \
      for (long k = 0; k < (n); k++) { body; }          \
      double dt = (now_ns() - t0) / (double)(n);        \
      if (dt < best) best = dt;                         \
    }                                                   \
  } while (0)

int main(void) {
  th_error e;
  th_rng g;
  uint16_t legal[512];
  sh_rules r;
  sh_rules_preset(0, &r);
  sh_state_deal(&sh_pos, &r, 4, -1, 0, 5, &e);
  th_rng_seed(&g, 5);
  for (int m = 0; m < 100 && sh_pos.phase != SH_PHASE_OVER; m++) {
    int n = sh_legal_actions(&sh_pos, legal);
    sh_apply_legal(&sh_pos, legal[th_rng_below(&g, (uint32_t)n)]);
  }
  tt_options o;
  tt_options_default(3, &o);
  tt_new_game(&tt_pos, &o, 3, 11, 0, &e);
  th_rng_seed(&g, 11);
  /* to round 6 (bounded: a game ends at its move cap), then four moves */
  for (int m = 0; tt_pos.phase != TT_PHASE_OVER && (tt_pos.round < 6 || m < 4); m += tt_pos.round >= 6) {
    int n = tt_legal_actions(&tt_pos, legal);
    tt_apply_legal(&tt_pos, legal[th_rng_below(&g, (uint32_t)n)]);
  }
  int sh_a = (sh_legal_actions(&sh_pos, legal), legal[0]);
  int tt_a = (tt_legal_actions(&tt_pos, legal), legal[0]);
  size_t shb = SH_BYTES(&sh_pos), ttb = TT_BYTES(&tt_pos);
  double best, out[6];
  BEST(2000000, memcpy(&sh_dst[k & 1], &sh_pos, shb); sink += sh_dst[k & 1].move_count);
  out[0] = best;
  BEST(500000, memcpy(&sh_dst[k & 1], &sh_pos, shb); sh_apply_legal(&sh_dst[k & 1], sh_a);
       sink += sh_dst[k & 1].move_count);
  out[1] = best;
  th_rng_seed(&g, 1);
  BEST(100000, memcpy(&sh_dst[k & 1], &sh_pos, shb); sh_resample(&sh_dst[k & 1], 0, &g, NULL);
       sink += sh_dst[k & 1].move_count);
  out[2] = best;
  BEST(2000000, memcpy(&tt_dst[k & 1], &tt_pos, ttb); sink += tt_dst[k & 1].move_count);
  out[3] = best;
  BEST(500000, memcpy(&tt_dst[k & 1], &tt_pos, ttb); tt_apply_legal(&tt_dst[k & 1], tt_a);
       sink += tt_dst[k & 1].move_count);
  out[4] = best;
  BEST(100000, memcpy(&tt_dst[k & 1], &tt_pos, ttb); tt_resample(&tt_dst[k & 1], 0, &g, NULL);
       sink += tt_dst[k & 1].move_count);
  out[5] = best;
  printf("{\"c_sh_copy_ns\": %.3f, \"c_sh_child_ns\": %.3f, \"c_sh_resample_ns\": %.3f, "
         "\"c_tt_copy_ns\": %.3f, \"c_tt_child_ns\": %.3f, \"c_tt_resample_ns\": %.3f, "
         "\"c_sh_bytes\": %u, \"c_tt_bytes\": %u}\n",
         out[0], out[1], out[2], out[3], out[4], out[5], (unsigned)shb, (unsigned)ttb);
  return 0;
}
