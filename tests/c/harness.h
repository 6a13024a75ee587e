/* harness.h - the bookkeeping of the randomized engine test programs
 * (tests/c/test_engine.c, tests/c/three_thirteen/test_three_thirteen.c):
 * CHECK with the failing unit, seat count, game, seed and move; one summary
 * line per unit; the --part K/P split and --scale factor (harness_arg).
 * Include it once, in the program's one source file, after the engine's
 * headers. */
#ifndef THREES_TESTS_HARNESS_H
#define THREES_TESTS_HARNESS_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "common/thread.h" /* th_monotonic_seconds */

/* ------------------------------------------------------------ bookkeeping -- */

static double now_seconds(void) { return th_monotonic_seconds(); }

static int g_part = 0, g_nparts = 1, g_quiet = 0;
static double g_scale = 1.0;

static long long g_checks = 0;        /* every CHECK evaluated */
static long long g_failed_checks = 0; /* every CHECK that failed */
static int g_units_passed = 0, g_units_failed = 0;
static int g_printed = 0; /* failure messages printed in total */

/* The context of the current check, printed with a failure. */
static const char *u_name = "";
static long long u_failed = 0, u_checks_start = 0;
static double u_t0 = 0;
static int u_printed = 0;
static int c_players = 0;
static long long c_game = -1;
static uint64_t c_seed = 0;
static long long c_move = -1;
static const char *c_what = "";

static void fail_at(int line, const char *cond, const char *fmt, ...) {
  g_failed_checks++;
  u_failed++;
  if (u_printed >= 16 || g_printed >= 200) return;
  u_printed++;
  g_printed++;
  char msg[512] = "";
  if (fmt && *fmt) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
  }
  fprintf(stdout,
          "FAIL [%s] players=%d game=%lld seed=0x%016llx move=%lld (%s) line %d: %s%s%s\n", u_name, c_players,
          c_game, (unsigned long long)c_seed, c_move, c_what, line, cond, *msg ? " -- " : "", msg);
  fflush(stdout);
}

/* CHECK(cond) or CHECK(cond, printf-format, args...): counts the check and
 * reports a failure with the current context. (The trailing "" keeps the
 * variadic part non-empty, as C11 requires; printf ignores extra arguments.) */
#define CHECK(...) CHECK_(__VA_ARGS__, "")
#define CHECK_(cond, ...)                                  \
  do {                                                     \
    g_checks++;                                            \
    if (!(cond)) fail_at(__LINE__, #cond, __VA_ARGS__);    \
  } while (0)

static void unit_begin(const char *name) {
  u_name = name;
  u_failed = 0;
  u_printed = 0;
  u_checks_start = g_checks;
  u_t0 = now_seconds();
  c_players = 0;
  c_game = -1;
  c_seed = 0;
  c_move = -1;
  c_what = "";
}

static void unit_end(const char *fmt, ...) {
  char msg[400] = "";
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (u_failed)
    g_units_failed++;
  else
    g_units_passed++;
  printf("[%s] %-30s %s; %lld checks, %lld failed; %.1f s\n", u_failed ? "FAIL" : " ok ", u_name, msg,
         g_checks - u_checks_start, u_failed, now_seconds() - u_t0);
  fflush(stdout);
}

static int mine(long long i) { return (int)(i % g_nparts) == g_part; }
static long long scaled(long long n) {
  long long v = (long long)(n * g_scale + 0.5);
  return v < 1 ? 1 : v;
}

/* Test-side random numbers (sampling, garbage) come from the engine's own
 * PRNG, on streams separate from the games' policy streams. */
static uint32_t below(th_rng *g, uint32_t n) { return n ? th_rng_below(g, n) : 0; }
static int range(th_rng *g, int lo, int hi) { return lo + (int)below(g, (uint32_t)(hi - lo + 1)); }

/* Reads one of the arguments every engine test program takes at argv[*i]
 * (--part K/P, --scale X, --quiet), moving *i past its value. Returns 1 when
 * it was one, 0 when it is not, -1 (after a message) when its value is bad. */
static int harness_arg(int argc, char **argv, int *i) {
  if (!strcmp(argv[*i], "--part") && *i + 1 < argc) {
    if (sscanf(argv[++*i], "%d/%d", &g_part, &g_nparts) != 2 || g_nparts < 1 || g_part < 0 || g_part >= g_nparts) {
      fprintf(stderr, "bad --part (want K/P with 0 <= K < P)\n");
      return -1;
    }
    return 1;
  }
  if (!strcmp(argv[*i], "--scale") && *i + 1 < argc) {
    g_scale = atof(argv[++*i]);
    if (!(g_scale > 0)) {
      fprintf(stderr, "bad --scale\n");
      return -1;
    }
    return 1;
  }
  if (!strcmp(argv[*i], "--quiet")) {
    g_quiet = 1;
    return 1;
  }
  return 0;
}

#endif
