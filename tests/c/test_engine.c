/* test_engine.c - randomized whole-engine test of threes-core in plain C11.
 *
 * Built with AddressSanitizer and UndefinedBehaviorSanitizer by
 * tests/c/run_sanitizers.sh (CMake options THREES_BUILD_C_TESTS and
 * THREES_SANITIZE). No Python is involved.
 *
 * What it does, per configuration (a rule set and a player count):
 *   - plays games dealt with sh_state_deal from per-game seeds, most of them
 *     through the checked API (sh_legal_actions, a legal id chosen with the
 *     engine's th_rng, sh_apply_action) with sh_state_check after every move;
 *     every such game is replayed with sh_rollout (the fast, counts-only path)
 *     from the same deal and the same th_batch_rng stream, and must give the
 *     same finishing order, move count and truncation;
 *   - plays the others through sh_rollout_full(check = 1), sh_rollout_full
 *     (check = 0), sh_rollout and a policy-driven checked-API replay from the
 *     same (possibly mid-game) state and the same rng stream, for all three
 *     policies, and compares them all;
 *   - on a sample of states exercises the error paths of sh_apply_action
 *     (out-of-range and illegal ids must fail and leave the state byte-for-byte
 *     unchanged), compares sh_is_legal with sh_legal_actions for every id in
 *     range, round-trips ids through decode/encode, and more;
 *   - checks that every game ends (SH_PHASE_OVER) within its move cap (5000
 *     for most games, the engine's default 10000 for one in ten, a small random
 *     cap for one in twenty, 2000 when no seat plays randomly) and counts the
 *     truncated games.
 * Then, as separate units: presets and deal arguments; player counts <= 0
 * (each call in a child process, as it may crash); the random policy through
 * sh_policy_action against sh_policy_step (same move, same rng use); setup
 * API garbage; position round trips through the setup API (with perturbed
 * and garbage finishes); random valid positions played out; sh_rules_validate
 * on random bytes (and a game with every random rule set that passes); a
 * configuration with a fresh random valid rule set per game; sh_rollouts with
 * 1, 2 and 3 threads against each other and against sh_rollout, and its
 * argument errors.
 *
 * Usage: threes_engine_test [--part K/P] [--scale X] [--probe-every N] [--quiet]
 *   --part K/P  play only game K, K+P, K+2P, ... of every configuration and
 *               fuzz loop (run P processes with K = 0..P-1 to cover all)
 *   --scale X   multiply every game and iteration count by X (default 1)
 *   --probe-every N  probe one state in N of the checked games (default 300;
 *               0 = never)
 * Prints one summary line per configuration (unit), then "N passed, M failed"
 * where N and M count units; returns 1 if any check failed.
 *
 * On a failure the message names the unit, the player count, the game's seed
 * (the argument of sh_state_deal), the game index and the move number. The
 * run is deterministic: the same arguments replay the same games.
 */
#if defined(__unix__) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* fork and waitpid, to isolate calls that may crash */
#endif
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shithead/shithead.h"
#include "shithead/rank_rows.h" /* internal: the uniform play choice is tested directly */
#include "three_thirteen/three_thirteen.h"
#include "common/thread.h" /* th_monotonic_seconds, th_thread_token */


#if defined(__unix__)
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#define HAVE_FORK 1
#else
#define HAVE_FORK 0
#endif

#include "harness.h"

/* Totals over the run. */
static long long t_games_checked = 0, t_games_rollout = 0, t_games_fuzz_rules = 0, t_games_positions = 0,
                 t_games_random_rules = 0, t_games_batch = 0, t_moves = 0, t_truncated = 0, t_capped = 0,
                 t_truncated_other = 0; /* truncated games of the position and rules-fuzz units */

static void copy_state(sh_state *dst, const sh_state *src) { memcpy(dst, src, sizeof *dst); }
/* The same bytes in use (sh_state_bytes; the bytes past them are no part of a state). */
static int same_state(const sh_state *a, const sh_state *b) {
  return sh_state_bytes(a) == sh_state_bytes(b) && memcmp(a, b, sh_state_bytes(a)) == 0;
}

/* Runs fn(arg) in a child process (when fork exists) so that a crash or a
 * sanitizer report inside the engine fails one check instead of ending the
 * run; fn returns 0 when the engine behaved (e.g. returned an error), else
 * nonzero. Returns the child's verdict: 0 good, 1 wrong result (the bad
 * input was accepted), 2 crashed, 3 hung. */
static int isolated(int (*fn)(void *), void *arg) {
#if HAVE_FORK
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    alarm(5); /* a hang counts as a crash */
    _exit(fn(arg) ? 42 : 0); /* 42: the engine accepted bad input; the sanitizers exit with 1 or abort */
  }
  if (pid > 0) {
    int st = 0;
    if (waitpid(pid, &st, 0) != pid) return 2;
    if (WIFEXITED(st)) return WEXITSTATUS(st) == 0 ? 0 : WEXITSTATUS(st) == 42 ? 1 : 2;
    return WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM ? 3 : 2; /* killed: SIGFPE, SIGSEGV, the sanitizers' abort */
  }
#endif
  return fn(arg) ? 1 : 0; /* no fork: run it here and hope */
}

static const char *verdict(int v) {
  return v == 0 ? "ok" : v == 1 ? "accepted (returned success)" : v == 3 ? "HUNG (killed after 5 s)" : "CRASHED (see the report on stderr)";
}

/* How the random policy of sh_policy_step / sh_rollout uses the rng when the
 * only legal action is a pick-up: rollout.h defines the random policy as
 * "exactly legal_actions()[below(n)]", which draws once even for n = 1, and
 * sh_policy_action does; the step does not draw then (as found when this test
 * was written). unit_random_policy_rng() reports the disagreement as a
 * failure and sets this flag to what sh_policy_step does, so that the
 * per-game comparisons of the checked API with sh_rollout still test that
 * they play the same moves. */
static int g_pickup_draws = 1;

/* One state in g_probe_every of the checked games is probed (probe_state). */
static int g_probe_every = 300;

static int in_sorted(const uint16_t *v, int n, int x) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (v[mid] == x) return 1;
    if (v[mid] < x)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return 0;
}

/* ------------------------------------------------------------- outcomes -- */

typedef struct {
  uint32_t moves; /* moves from the start state */
  uint8_t phase, truncated, num_out;
  uint8_t finish[SH_MAX_PLAYERS];
} outcome;

static void outcome_of(const sh_state *s, uint32_t start_moves, outcome *o) {
  memset(o, 0, sizeof *o);
  o->moves = s->move_count - start_moves;
  o->phase = s->phase;
  o->truncated = s->truncated;
  o->num_out = s->num_out;
  memcpy(o->finish, s->finish, s->num_out <= SH_MAX_PLAYERS ? s->num_out : SH_MAX_PLAYERS);
}

static int same_outcome(const outcome *a, const outcome *b) {
  return a->moves == b->moves && a->phase == b->phase && a->truncated == b->truncated &&
         a->num_out == b->num_out && memcmp(a->finish, b->finish, a->num_out) == 0;
}

static void outcome_text(const outcome *o, char *buf, size_t n) {
  int k = snprintf(buf, n, "moves %u phase %d trunc %d out [", o->moves, o->phase, o->truncated);
  for (int i = 0; i < o->num_out && k < (int)n - 4; i++) k += snprintf(buf + k, n - (size_t)k, i ? " %d" : "%d", o->finish[i]);
  snprintf(buf + k, n - (size_t)k, "]");
}

/* Checks of a state that has ended. */
static void check_over(const sh_state *s) {
  int n = s->num_players;
  CHECK(s->phase == SH_PHASE_OVER, "phase %d", s->phase);
  CHECK(sh_state_current_player(s) == TH_TERMINAL_PLAYER);
  CHECK(s->move_count <= s->max_moves, "move_count %u > max_moves %u", s->move_count, s->max_moves);
  if (s->truncated) {
    /* at the cap, or earlier as a stalemate by repetition (rules.repetition_limit, RULES.md section 7) */
    CHECK(s->move_count == s->max_moves || (s->stalemate && s->rules.repetition_limit),
          "truncated at %u, cap %u, stalemate %d", s->move_count, s->max_moves, s->stalemate);
    CHECK(s->num_out <= n - 2, "truncated with %d of %d out", s->num_out, n);
  } else {
    CHECK(s->num_out == n, "over with %d of %d ranked", s->num_out, n);
  }
  uint16_t buf[SH_MAX_DISTINCT_ACTIONS];
  CHECK(sh_legal_actions(s, buf) == 0);
  double ret[SH_MAX_PLAYERS];
  sh_returns(s, ret);
  double sum = 0;
  for (int q = 0; q < n; q++) {
    CHECK(ret[q] >= -1.0 - 1e-12 && ret[q] <= 1.0 + 1e-12, "return %g", ret[q]);
    sum += ret[q];
  }
  CHECK(fabs(sum) < 1e-9, "returns sum to %g", sum);
  if (!s->truncated && n >= 2) {
    CHECK(ret[s->finish[0]] == 1.0 && ret[s->finish[n - 1]] == -1.0);
  }
}

static const char *policy_name(int p) {
  return p == SH_POLICY_RANDOM ? "random" : p == SH_POLICY_GREEDY ? "greedy" : "heuristic";
}

/* ----------------------------------------------------- error-path probes -- */

/* Everything that must hold of a live state and its sorted legal list; the
 * expensive part, run on a sample of states. `g` is a test stream. */
static void probe_state(const sh_state *s, const uint16_t *legal, int n, th_rng *g) {
  const sh_rules *r = &s->rules;
  int nda = sh_num_distinct_actions(r);
  sh_state c;
  th_error e;
  const char *saved = c_what;
  c_what = "probe";

  CHECK(sh_num_legal_actions(s) == n);
  /* sh_is_legal against membership, for every id in range (and a few more). */
  {
    int j = 0, mismatches = 0;
    for (int a = 0; a < nda; a++) {
      int member = j < n && legal[j] == a;
      if (member) j++;
      if (sh_is_legal(s, a) != member && mismatches++ < 3)
        CHECK(0, "sh_is_legal(%d) = %d but membership in sh_legal_actions = %d", a, sh_is_legal(s, a), member);
    }
    CHECK(mismatches == 0, "sh_is_legal disagrees with sh_legal_actions on %d ids", mismatches);
    CHECK(j == n, "legal list holds ids outside [0, %d)", nda);
  }
  /* Out-of-range ids: TH_ERR_ACTION, state byte-for-byte unchanged. */
  {
    int bad[16] = {-1, -2, -1000, INT_MIN, INT_MIN + 1, INT_MAX, INT_MAX - 1, nda, nda + 1, nda + 1000,
                   65535, 65536, -(int)below(g, 1u << 30) - 1, nda + (int)below(g, 1u << 30), -nda, 2 * nda};
    for (int i = 0; i < 16; i++) {
      copy_state(&c, s);
      memset(&e, 0, sizeof e);
      int rc = sh_apply_action(&c, bad[i], &e);
      CHECK(rc == TH_ERR_ACTION, "sh_apply_action(%d) returned %d", bad[i], rc);
      CHECK(e.code == rc && e.msg[0] != 0, "error report code %d msg '%s'", e.code, e.msg);
      CHECK(same_state(&c, s), "sh_apply_action(%d) changed the state", bad[i]);
      CHECK(sh_is_legal(s, bad[i]) == 0, "sh_is_legal(%d) != 0", bad[i]);
      sh_move m;
      CHECK(sh_decode_action(r, bad[i], &m) == TH_ERR_ACTION);
      CHECK(sh_state_decode_action(s, bad[i], &m) == TH_ERR_ACTION);
    }
    copy_state(&c, s);
    CHECK(sh_apply_action(&c, -1, NULL) == TH_ERR_ACTION && same_state(&c, s), "NULL error report");
  }
  /* Legal-range but illegal ids: boundaries and random ones. */
  {
    int cand[24], nc = 0;
    cand[nc++] = 0;
    cand[nc++] = nda - 1;
    cand[nc++] = sh_first_blind_action(r);
    cand[nc++] = sh_first_blind_action(r) + r->cards_per_zone - 1;
    cand[nc++] = sh_pickup_action(r);
    cand[nc++] = sh_first_swap_action(r);
    cand[nc++] = sh_first_blind_action(r) - 1;
    while (nc < 24) cand[nc++] = (int)below(g, (uint32_t)nda);
    for (int i = 0; i < nc; i++) {
      int a = cand[i];
      if (in_sorted(legal, n, a)) continue;
      copy_state(&c, s);
      memset(&e, 0, sizeof e);
      int rc = sh_apply_action(&c, a, &e);
      CHECK(rc == TH_ERR_ILLEGAL, "illegal id %d returned %d", a, rc);
      CHECK(e.code == rc && e.msg[0] != 0);
      CHECK(same_state(&c, s), "illegal id %d changed the state", a);
    }
  }
  /* Every legal id: decode/encode round trip, the state's decoding. */
  for (int i = 0; i < n; i++) {
    sh_move m, ms;
    int a = legal[i];
    CHECK(sh_decode_action(r, a, &m) == TH_OK);
    CHECK(sh_encode_move(r, &m) == a, "encode(decode(%d)) = %d", a, sh_encode_move(r, &m));
    CHECK(sh_state_decode_action(s, a, &ms) == TH_OK);
    CHECK(ms.kind == m.kind && ms.rank == m.rank && ms.count == m.count && ms.slot == m.slot);
    if (s->phase == SH_PHASE_SWAP) {
      CHECK(m.kind == SH_MOVE_SWAP, "id %d in the swap phase is kind %d", a, m.kind);
    } else {
      CHECK(m.kind != SH_MOVE_SWAP, "swap id %d in the play phase", a);
      if (m.kind == SH_MOVE_PLAY) CHECK(ms.source != SH_SRC_NONE && ms.source != SH_SRC_FACE_DOWN);
      if (m.kind == SH_MOVE_BLIND) CHECK(ms.source == SH_SRC_FACE_DOWN);
    }
  }
  /* sh_apply_action and sh_apply_legal agree on one legal id. */
  {
    int a = legal[below(g, (uint32_t)n)];
    sh_state d;
    copy_state(&c, s);
    copy_state(&d, s);
    CHECK(sh_apply_action(&c, a, &e) == TH_OK, "%s", e.msg);
    sh_apply_legal(&d, a);
    CHECK(same_state(&c, &d), "sh_apply_action and sh_apply_legal differ on id %d", a);
  }
  /* Policies pick legal ids and do not touch the state. */
  for (int pol = 0; pol < SH_NUM_POLICIES; pol++) {
    th_rng pr = *g;
    copy_state(&c, s);
    int a = sh_policy_action(&c, pol, &pr);
    CHECK(sh_is_legal(s, a), "policy %d picked illegal id %d", pol, a);
    CHECK(same_state(&c, s));
    if (pol == SH_POLICY_RANDOM) {
      th_rng pr2 = *g;
      CHECK(a == legal[th_rng_below(&pr2, (uint32_t)n)], "random policy is not legal[below(n)]");
    }
    /* sh_policy_step plays the move sh_policy_action picks (the rng use is
     * compared in unit_random_policy_rng). */
    sh_state d;
    th_rng ps = *g;
    copy_state(&c, s);
    copy_state(&d, s);
    sh_policy_step(&d, pol, &ps);
    sh_apply_legal(&c, a);
    CHECK(same_state(&c, &d), "sh_policy_step(%s) and sh_policy_action(%s) = %d play different moves", policy_name(pol),
          policy_name(pol), a);
  }
  /* Canonical form: idempotent and unchanged by copying. */
  {
    static sh_state k1, k2;
    sh_state_canonical(s, &k1);
    sh_state_canonical(&k1, &k2);
    CHECK(same_state(&k1, &k2), "canonical form is not idempotent");
  }
  /* Known cards and returns of a live state. */
  for (int q = 0; q < s->num_players; q++) {
    uint8_t known[SH_NUM_RANKS + 2];
    sh_known_rank_counts(s, q, known);
    for (int k = 0; k < SH_NUM_RANKS; k++) CHECK(known[k] <= s->seat[q].hand_rank[k], "seat %d rank %d", q, k);
  }
  {
    double ret[SH_MAX_PLAYERS];
    sh_returns(s, ret);
    for (int q = 0; q < s->num_players; q++) CHECK(ret[q] == 0.0);
  }
  for (int k = -2; k < SH_NUM_RANKS + 2; k++) {
    int pl = sh_playable(s, k);
    if (k < 0 || k >= SH_NUM_RANKS)
      CHECK(pl == 0);
    else
      CHECK(pl == ((sh_playable_mask(s) >> k) & 1));
  }
  c_what = saved;
}

/* An ended game rejects every action and stays unchanged. */
static void probe_over(const sh_state *s, th_rng *g) {
  sh_state c;
  th_error e;
  int nda = sh_num_distinct_actions(&s->rules);
  int ids[6] = {0, nda - 1, (int)below(g, (uint32_t)nda), sh_pickup_action(&s->rules), -1, nda};
  for (int i = 0; i < 6; i++) {
    copy_state(&c, s);
    int rc = sh_apply_action(&c, ids[i], &e);
    CHECK(rc == (i < 4 ? TH_ERR_ILLEGAL : TH_ERR_ACTION), "id %d on an ended game returned %d", ids[i], rc);
    CHECK(same_state(&c, s));
    CHECK(sh_is_legal(s, ids[i]) == 0);
  }
  CHECK(sh_policy_action(s, SH_POLICY_RANDOM, g) == -1);
}

/* --------------------------------------------------------- checked games -- */

/* Plays *s to the end through the checked API: seat q moves with pol[q]
 * (random: legal[below(n)] with *rng, as the random policy; greedy and
 * heuristic: sh_policy_action). sh_state_check after every move; a sample
 * of states (probability 1/sample_every) is probed. Returns 0 if the game ran
 * to the end without a failed check. */
static int play_checked(sh_state *s, const uint8_t *pol, th_rng *rng, th_rng *g, int sample_every) {
  static uint16_t legal[SH_MAX_DISTINCT_ACTIONS];
  th_error e;
  long long before = u_failed;
  uint32_t limit = s->max_moves - s->move_count + 1;
  c_what = "checked";
  for (uint32_t it = 0; s->phase != SH_PHASE_OVER; it++) {
    c_move = s->move_count;
    if (it > limit) {
      CHECK(0, "the game did not end within its cap of %u moves", s->max_moves);
      return 1;
    }
    int p = s->current;
    CHECK(sh_state_current_player(s) == p && p < s->num_players && !((s->out_mask >> p) & 1));
    int n = sh_legal_actions(s, legal);
    if (n <= 0 || n > SH_MAX_DISTINCT_ACTIONS) {
      CHECK(0, "sh_legal_actions returned %d in a live state", n);
      return 1;
    }
    int nda = sh_num_distinct_actions(&s->rules);
    CHECK(legal[n - 1] < nda, "legal id %d >= %d", legal[n - 1], nda);
    for (int i = 1; i < n; i++)
      if (legal[i - 1] >= legal[i]) {
        CHECK(0, "legal ids not sorted and unique at %d", i);
        break;
      }
    if (sample_every && below(g, (uint32_t)sample_every) == 0) probe_state(s, legal, n, g);
    int a;
    if (pol[p] == SH_POLICY_RANDOM)
      a = (n == 1 && !g_pickup_draws && legal[0] == sh_pickup_action(&s->rules)) ? legal[0]
                                                                                   : legal[th_rng_below(rng, (uint32_t)n)];
    else
      a = sh_policy_action(s, pol[p], rng);
    uint32_t mc = s->move_count;
    int rc = sh_apply_action(s, a, &e);
    if (rc != TH_OK) {
      CHECK(0, "sh_apply_action(%d) of a %s id failed: %s", a, in_sorted(legal, n, a) ? "legal" : "ILLEGAL", e.msg);
      return 1;
    }
    CHECK(s->move_count == mc + 1);
    rc = sh_state_check(s, &e);
    if (rc != TH_OK) {
      CHECK(0, "sh_state_check after id %d: %s", a, e.msg);
      return 1;
    }
    t_moves++;
  }
  c_move = s->move_count;
  check_over(s);
  probe_over(s, g);
  return u_failed != before;
}

/* ---------------------------------------------------------- configurations -- */

typedef struct {
  char name[48];
  sh_rules rules;
  int players;
  long long games;
  int random_rules; /* draw a fresh valid rule set for every game */
  uint32_t cap;     /* max_moves of the deals; 0 = the engine's default */
} config;

static void random_valid_rules(th_rng *g, sh_rules *r, int *players) {
  memset(r, 0, sizeof *r);
  r->decks = (uint8_t)range(g, 1, 4);
  r->jokers = (uint8_t)range(g, 0, 2);
  r->cards_per_zone = (uint8_t)(below(g, 4) ? range(g, 1, 3) : range(g, 4, 5));
  r->lower_strict = (uint8_t)below(g, 2);
  uint16_t *masks[4] = {&r->wild, &r->lower, &r->invisible, &r->burn};
  for (int i = 0; i < 4; i++) {
    uint32_t density = 2 + below(g, 8); /* each rank with probability 1/density */
    for (int k = 0; k < SH_NUM_RANKS; k++)
      if (below(g, density) == 0) *masks[i] |= (uint16_t)(1u << k);
  }
  int rb = (int)below(g, 6);
  r->run_to_burn = (uint8_t)(rb == 0 ? 0 : rb == 5 ? range(g, 2, SH_MAX_RUN_TO_BURN) : range(g, 2, 5));
  r->invisible_in_runs = (uint8_t)below(g, 2);
  r->burner_plays_again = (uint8_t)below(g, 2);
  r->pickup_then_play = (uint8_t)below(g, 2);
  r->merge_hand_with_face_up = (uint8_t)below(g, 2);
  r->start = (uint8_t)below(g, 2);
  uint8_t perm[SH_NUM_RANKS];
  for (int k = 0; k < SH_NUM_RANKS; k++) perm[k] = (uint8_t)k;
  for (int k = SH_NUM_RANKS - 1; k > 0; k--) {
    int j = (int)below(g, (uint32_t)k + 1);
    uint8_t t = perm[k];
    perm[k] = perm[j];
    perm[j] = t;
  }
  r->num_start_ranks = (uint8_t)below(g, SH_NUM_RANKS + 1);
  memcpy(r->start_ranks, perm, r->num_start_ranks);
  uint8_t sp[4] = {0, 1, 2, 3};
  for (int k = 3; k > 0; k--) {
    int j = (int)below(g, (uint32_t)k + 1);
    uint8_t t = sp[k];
    sp[k] = sp[j];
    sp[j] = t;
  }
  r->num_start_suits = (uint8_t)below(g, 5);
  memcpy(r->start_suits, sp, r->num_start_suits);
  int maxp = sh_rules_max_players(r);
  *players = maxp >= 2 ? range(g, 2, maxp) : 2;
}


/* From the same state and rng stream: sh_rollout_full(check 1),
 * sh_rollout_full(check 0), sh_rollout, and a replay through
 * sh_policy_action + sh_apply_action must all play the same game. */
static void compare_rollouts(const sh_state *s0_in, const uint8_t *pol, uint64_t bseed, uint64_t bidx,
                             int replay_checked, sh_state *end) {
  static sh_state s0_copy;
  copy_state(&s0_copy, s0_in); /* end may alias s0_in */
  const sh_state *s0 = &s0_copy;
  static sh_state full1, full0, fast, rep;
  th_rng r1, r0, r2, r3;
  th_batch_rng(bseed, bidx, &r1);
  r0 = r2 = r3 = r1;
  char t1[160], t2[160];
  outcome o1, o2, o3;
  const char *saved = c_what;

  c_what = "rollout_full(check=1)";
  copy_state(&full1, s0);
  uint32_t m1 = sh_rollout_full(&full1, pol, &r1, 1);
  if (m1 == UINT32_MAX) {
    /* Find the first move whose state fails the check, for the report. */
    th_rng rr;
    th_batch_rng(bseed, bidx, &rr);
    copy_state(&rep, s0);
    th_error e;
    e.msg[0] = 0;
    while (rep.phase != SH_PHASE_OVER) {
      c_move = rep.move_count;
      sh_policy_step(&rep, pol[rep.current], &rr);
      if (sh_state_check(&rep, &e)) break;
    }
    CHECK(0, "sh_rollout_full(check=1) reported an invariant failure after move %lld: %s", c_move, e.msg);
    c_what = saved;
    if (end) copy_state(end, &rep);
    return;
  }
  c_move = full1.move_count;
  outcome_of(&full1, s0->move_count, &o1);
  CHECK(o1.moves == m1, "returned %u moves, the state counts %u", m1, o1.moves);
  check_over(&full1);
  th_error e;
  CHECK(sh_state_check(&full1, &e) == TH_OK, "%s", e.msg);

  c_what = "rollout_full(check=0)";
  copy_state(&full0, s0);
  uint32_t m0 = sh_rollout_full(&full0, pol, &r0, 0);
  CHECK(m0 == m1 && same_state(&full0, &full1), "sh_rollout_full with and without check differ");

  c_what = "rollout (fast)";
  copy_state(&fast, s0);
  uint32_t m2 = sh_rollout(&fast, pol, &r2);
  outcome_of(&fast, s0->move_count, &o2);
  if (!same_outcome(&o1, &o2) || m2 != m1) {
    outcome_text(&o1, t1, sizeof t1);
    outcome_text(&o2, t2, sizeof t2);
    CHECK(0, "sh_rollout_full and sh_rollout disagree: full {%s} fast {%s} (returned %u vs %u)", t1, t2, m1, m2);
  }
  CHECK(memcmp(&r1, &r2, sizeof r1) == 0, "sh_rollout and sh_rollout_full used the rng differently");

  if (replay_checked) {
    c_what = "policy replay";
    copy_state(&rep, s0);
    uint32_t limit = rep.max_moves - rep.move_count + 1;
    for (uint32_t it = 0; rep.phase != SH_PHASE_OVER && it <= limit; it++) {
      c_move = rep.move_count;
      int a;
      if (pol[rep.current] == SH_POLICY_RANDOM) {
        static uint16_t lg[SH_MAX_DISTINCT_ACTIONS];
        int n = sh_legal_actions(&rep, lg);
        a = (n == 1 && !g_pickup_draws && lg[0] == sh_pickup_action(&rep.rules)) ? lg[0]
                                                                                 : lg[th_rng_below(&r3, (uint32_t)n)];
      } else {
        a = sh_policy_action(&rep, pol[rep.current], &r3);
      }
      int rc = sh_apply_action(&rep, a, &e);
      if (rc) {
        CHECK(0, "policy %s chose id %d, rejected: %s", policy_name(pol[rep.current]), a, e.msg);
        break;
      }
    }
    outcome_of(&rep, s0->move_count, &o3);
    if (!same_state(&rep, &full1)) {
      outcome_text(&o1, t1, sizeof t1);
      outcome_text(&o3, t2, sizeof t2);
      CHECK(0, "sh_rollout_full and the checked-API replay of the same policies differ: full {%s} replay {%s}",
            t1, t2);
    }
  }
  if (end) copy_state(end, &full1);
  c_what = saved;
}

/* The games of one configuration. */
static void run_config(const config *cf, int cfg_index) {
  unit_begin(cf->name);
  uint64_t bseed = UINT64_C(0x7E57C0DE00000000) + (uint64_t)cfg_index * UINT64_C(0x9E3779B97F4A7C15);
  long long games = 0, n_checked = 0, n_roll = 0, moves0 = t_moves, trunc = 0, capped = 0, maxp_seen = 0;
  static sh_state s, s0;
  th_error e;
  for (long long i = 0; i < cf->games; i++) {
    if (!mine(i)) continue;
    uint64_t seed = th_batch_seed(bseed, (uint64_t)i);
    th_rng g; /* test decisions: never the game's streams */
    th_rng_seed(&g, seed ^ UINT64_C(0xA5A5A5A55A5A5A5A));
    sh_rules r = cf->rules;
    int players = cf->players;
    if (cf->random_rules) random_valid_rules(&g, &r, &players);
    c_players = players;
    c_game = i;
    c_seed = seed;
    c_move = -1;
    c_what = "deal";

    /* Policies: checked games are 70% all random, 30% a random mix per seat;
     * rollout games (every fifth) rotate through all random, all greedy, all
     * heuristic and a mix. */
    uint8_t pol[SH_MAX_PLAYERS];
    int rollout_mode = (i % 5) == 4;
    int pk = rollout_mode ? (int)((i / 5) % 4) : below(&g, 10) < 7 ? 0 : 3;
    int any_random = 0;
    for (int q = 0; q < SH_MAX_PLAYERS; q++) {
      pol[q] = (uint8_t)(pk < 3 ? (uint32_t)pk : below(&g, 3));
      if (q < players) any_random |= pol[q] == SH_POLICY_RANDOM;
    }
    /* The move cap: the configuration's, else 5000 (1 game in 10: the
     * engine's default, 10000); 1 game in 20 a small random cap (to end games
     * in the swap phase and early play); games without a random seat at most
     * 2000 (greedy and heuristic players often loop forever). */
    int small_cap = below(&g, 20) == 0;
    uint32_t cap = small_cap ? (uint32_t)range(&g, 1, 400) : cf->cap ? cf->cap : below(&g, 10) == 0 ? 0 : 5000;
    if (!any_random && (cap == 0 || cap > 2000)) cap = 2000;
    int dealer = below(&g, 3) == 0 ? -1 : (int)below(&g, (uint32_t)players);
    int rc = sh_state_deal(&s, &r, players, dealer, cap, seed, &e);
    if (rc) {
      CHECK(0, "sh_state_deal failed: %s", e.msg);
      continue;
    }
    rc = sh_state_check(&s, &e);
    CHECK(rc == TH_OK, "dealt state fails the check: %s", e.msg);
    CHECK(s.phase == SH_PHASE_SWAP && s.move_count == 0);
    if (players > maxp_seen) maxp_seen = players;
    games++;

    if (!rollout_mode) {
      /* Checked game; then sh_rollout from the same deal and rng stream. */
      copy_state(&s0, &s);
      th_rng rng;
      th_batch_rng(bseed, (uint64_t)i, &rng);
      play_checked(&s, pol, &rng, &g, g_probe_every);
      n_checked++;
      /* The fast path must play exactly this game. */
      c_what = "rollout (fast) vs checked game";
      sh_state f;
      copy_state(&f, &s0);
      th_rng r2;
      th_batch_rng(bseed, (uint64_t)i, &r2);
      uint32_t m = sh_rollout(&f, pol, &r2);
      outcome o1, o2;
      outcome_of(&s, 0, &o1);
      outcome_of(&f, 0, &o2);
      if (!same_outcome(&o1, &o2) || m != o1.moves) {
        char t1[160], t2[160];
        outcome_text(&o1, t1, sizeof t1);
        outcome_text(&o2, t2, sizeof t2);
        CHECK(0, "checked game {%s} and sh_rollout {%s} differ", t1, t2);
      } else {
        g_checks++;
      }
    } else {
      /* Rollouts from the deal or from a mid-game state. */
      n_roll++;
      int advance = below(&g, 2) ? 0 : (int)below(&g, 80);
      th_rng ar;
      th_rng_seed(&ar, seed ^ UINT64_C(0x0123456789ABCDEF));
      c_what = "advance";
      static uint16_t legal[SH_MAX_DISTINCT_ACTIONS];
      for (int k = 0; k < advance && s.phase != SH_PHASE_OVER; k++) {
        c_move = s.move_count;
        int n = sh_legal_actions(&s, legal);
        if (n <= 0) {
          CHECK(0, "no legal action in a live state");
          break;
        }
        rc = sh_apply_action(&s, legal[th_rng_below(&ar, (uint32_t)n)], &e);
        CHECK(rc == TH_OK, "%s", e.msg);
        rc = sh_state_check(&s, &e);
        CHECK(rc == TH_OK, "%s", e.msg);
        t_moves++;
      }
      uint32_t start = s.move_count;
      compare_rollouts(&s, pol, bseed, (uint64_t)i, below(&g, 4) == 0, &s); /* s becomes the full rollout's end */
      t_moves += s.move_count - start;
    }
    if (s.phase != SH_PHASE_OVER) CHECK(0, "the game did not end");
    if (s.truncated) {
      trunc++;
      if (small_cap) capped++;
    }
  }
  t_games_checked += n_checked;
  t_games_rollout += n_roll;
  if (cf->random_rules) t_games_random_rules += games;
  t_truncated += trunc;
  t_capped += capped;
  if (cf->random_rules)
    unit_end("%6lld games (%lld checked, %lld rollout), %8lld moves, %lld truncated (%lld at small caps), up to %lld players",
             games, n_checked, n_roll, t_moves - moves0, trunc, capped, maxp_seen);
  else
    unit_end("%6lld games (%lld checked, %lld rollout), %8lld moves, %lld truncated (%lld at small caps)", games,
             n_checked, n_roll, t_moves - moves0, trunc, capped);
}

/* ------------------------------------------------------ setup API units -- */

static int kind_ok(const sh_rules *r, int kind) {
  if (kind < 0 || kind >= SH_NUM_KINDS) return 0;
  return kind < SH_KIND_RED_JOKER || kind - SH_KIND_RED_JOKER < r->jokers;
}

static void random_rules_bytes(th_rng *g, sh_rules *r) {
  int how = (int)below(g, 3);
  if (how == 0) {
    uint8_t *b = (uint8_t *)r;
    for (size_t i = 0; i < sizeof *r; i++) b[i] = (uint8_t)th_rng_next(g);
  } else {
    sh_rules_preset((int)below(g, 3), r);
    uint8_t *b = (uint8_t *)r;
    int k = range(g, 1, 3);
    for (int i = 0; i < k; i++) {
      size_t off = below(g, (uint32_t)sizeof *r);
      int v = (int)below(g, 4);
      b[off] = (uint8_t)(v == 0 ? th_rng_next(g) : v == 1 ? below(g, 6) : v == 2 ? 0xFF : below(g, 20));
    }
  }
}

/* Garbage through sh_setup_begin / sh_setup_add / sh_setup_finish. */
static void unit_setup_garbage(long long iters) {
  unit_begin("setup API garbage");
  static sh_state s, before;
  th_error e;
  long long begun = 0, adds_ok = 0, adds_err = 0, finished_ok = 0, played = 0;
  for (long long i = 0; i < iters; i++) {
    if (!mine(i)) continue;
    th_rng g;
    th_rng_seed(&g, UINT64_C(0x5E7) * 1000003u + (uint64_t)i);
    c_game = i;
    c_seed = (uint64_t)i;
    c_what = "setup_begin";
    sh_rules r;
    if (below(&g, 2))
      sh_rules_preset((int)below(&g, 3), &r);
    else
      random_rules_bytes(&g, &r);
    int players = below(&g, 4) ? range(&g, 2, 12) : range(&g, -3, 16);
    int dealer = below(&g, 3) ? range(&g, -1, players - 1) : range(&g, -5, 20);
    uint32_t mm = below(&g, 2) ? 0 : below(&g, 2) ? (uint32_t)th_rng_next(&g) : (uint32_t)range(&g, 1, 1000);
    c_players = players;
    int expect_err = sh_rules_validate(&r, players, NULL) != TH_OK || players < SH_MIN_PLAYERS ||
                     dealer >= players || mm > SH_MAX_MAX_MOVES;
    memset(&e, 0, sizeof e);
    int rc = sh_setup_begin(&s, &r, players, dealer, mm, &e);
    CHECK((rc != TH_OK) == expect_err, "sh_setup_begin(players %d, dealer %d, max_moves %u) returned %d (%s), expected %s",
          players, dealer, mm, rc, e.msg, expect_err ? "an error" : "success");
    if (rc == TH_OK && expect_err) continue; /* reported; the state is not safe to use */
    if (rc) {
      CHECK(e.code == rc && e.msg[0]);
      continue;
    }
    begun++;
    int K = s.rules.cards_per_zone, n = s.num_players, deck = sh_rules_deck_size(&s.rules);
    int nadd = (int)below(&g, 300), placed = 0;
    c_what = "setup_add";
    for (int k = 0; k < nadd; k++) {
      int zone = below(&g, 4) ? range(&g, 0, 6) : range(&g, -3, 10);
      int seat = below(&g, 4) ? range(&g, 0, n - 1) : range(&g, -3, 15);
      int kind = below(&g, 4) ? range(&g, 0, SH_NUM_KINDS - 1) : range(&g, -3, 70);
      int slot = below(&g, 4) ? range(&g, 0, K - 1) : range(&g, -3, 8);
      if (below(&g, 50) == 0) kind = below(&g, 2) ? INT_MIN : INT_MAX;
      if (below(&g, 50) == 0) seat = below(&g, 2) ? INT_MIN : INT_MAX;
      if (below(&g, 50) == 0) zone = below(&g, 2) ? INT_MIN : INT_MAX;
      if (below(&g, 50) == 0) slot = below(&g, 2) ? INT_MIN : INT_MAX;
      int must_fail = !kind_ok(&s.rules, kind) || zone < SH_ZONE_HAND || zone > SH_ZONE_BURNED ||
                      (zone <= SH_ZONE_FACE_DOWN && (seat < 0 || seat >= n)) ||
                      (zone == SH_ZONE_FACE_DOWN && (slot < 0 || slot >= K));
      copy_state(&before, &s);
      memset(&e, 0, sizeof e);
      rc = sh_setup_add(&s, zone, seat, kind, slot, &e);
      if (must_fail) CHECK(rc != TH_OK, "sh_setup_add(zone %d, seat %d, kind %d, slot %d) accepted", zone, seat, kind, slot);
      if (rc) {
        adds_err++;
        CHECK(e.code == rc && e.msg[0]);
        CHECK(same_state(&s, &before), "a rejected sh_setup_add changed the state");
      } else {
        adds_ok++;
        placed++;
      }
    }
    CHECK(placed <= deck, "%d cards placed from a deck of %d", placed, deck);
    c_what = "setup_finish";
    int phase = below(&g, 3) ? range(&g, 0, 2) : range(&g, -3, 6);
    int current = below(&g, 3) ? range(&g, 0, n - 1) : below(&g, 2) ? TH_TERMINAL_PLAYER : range(&g, -9, 20);
    uint32_t mc = below(&g, 2) ? below(&g, 100) : (uint32_t)th_rng_next(&g);
    int trunc = below(&g, 3) ? 0 : range(&g, -1, 3);
    int nf = below(&g, 3) ? range(&g, 0, n) : range(&g, -3, 20);
    size_t fl = nf > 0 ? (size_t)nf : 1;
    uint8_t *fin = (uint8_t *)malloc(fl); /* exactly nf bytes: ASan catches reads past them */
    if (!fin) abort();
    for (size_t k = 0; k < fl; k++) fin[k] = (uint8_t)(below(&g, 4) ? below(&g, (uint32_t)n) : th_rng_next(&g));
    rc = sh_setup_finish(&s, phase, current, mc, trunc, fin, nf, &e);
    free(fin);
    if (placed < deck) CHECK(rc != TH_OK, "sh_setup_finish accepted a position with %d of %d cards", placed, deck);
    if (rc == TH_OK) {
      finished_ok++;
      CHECK(sh_state_check(&s, &e) == TH_OK, "%s", e.msg);
      if (s.phase != SH_PHASE_OVER) {
        uint8_t pol[SH_MAX_PLAYERS] = {0};
        th_rng rng;
        th_rng_seed(&rng, (uint64_t)i);
        play_checked(&s, pol, &rng, &g, 4);
        played++;
      }
    } else {
      CHECK(e.code == rc && e.msg[0]);
    }
  }
  unit_end("%lld begun, %lld adds accepted, %lld rejected, %lld finished, %lld played", begun, adds_ok, adds_err,
           finished_ok, played);
}

/* Rebuilds a state through the setup API; physical copies may differ.
 * skip_id: a card id to leave out (or -1); extra: add one more card of kind
 * `extra` at the end (or -1). Returns sh_setup_finish's code, or the first
 * failing call's. */
static int rebuild_cards(const sh_state *s, sh_state *out, int skip_id, int extra_kind, th_error *e) {
  int rc = sh_setup_begin(out, &s->rules, s->num_players, s->dealer, s->max_moves, e);
  if (rc) return rc;
  for (int id = 0; id < SH_CARD_ID_SPACE; id++) {
    int l = sh_loc_at(s, id);
    if (l == SH_LOC_ABSENT || id == skip_id) continue;
    int zone = l & 0x70, seat = l & 0x0F, kind = sh_card_kind(id), slot = 0;
    int z;
    if (zone == SH_LOC_HAND)
      z = (l & SH_LOC_KNOWN) ? SH_ZONE_HAND_KNOWN : SH_ZONE_HAND;
    else if (zone == SH_LOC_FACE_UP)
      z = SH_ZONE_FACE_UP;
    else if (zone == SH_LOC_FACE_DOWN) {
      z = SH_ZONE_FACE_DOWN;
      for (int k = 0; k < SH_MAX_CPZ; k++)
        if (s->seat[seat].down[k] == id) slot = k;
    } else if (zone == SH_LOC_BURNED)
      z = SH_ZONE_BURNED;
    else
      continue; /* pile and draw pile: in order, below */
    rc = sh_setup_add(out, z, seat, kind, slot, e);
    if (rc) return rc;
  }
  for (int i = 0; i < s->pile_len; i++) {
    if (SH_PILE(s)[i] == skip_id) continue;
    rc = sh_setup_add(out, SH_ZONE_PILE, 0, sh_card_kind(SH_PILE(s)[i]), 0, e);
    if (rc) return rc;
  }
  for (int i = 0; i < s->draw_len; i++) {
    if (sh_draw_at(s, i) == skip_id) continue;
    rc = sh_setup_add(out, SH_ZONE_DRAW, 0, sh_card_kind(sh_draw_at(s, i)), 0, e);
    if (rc) return rc;
  }
  if (extra_kind >= 0) {
    rc = sh_setup_add(out, SH_ZONE_BURNED, 0, extra_kind, 0, e);
    if (rc) return rc;
  }
  return TH_OK;
}

static int rebuild(const sh_state *s, sh_state *out, int skip_id, int extra_kind, int phase_delta, int current_override,
                   th_error *e) {
  int rc = rebuild_cards(s, out, skip_id, extra_kind, e);
  if (rc) return rc;
  int phase = s->phase + phase_delta;
  int current = current_override != INT_MIN ? current_override : sh_state_current_player(s);
  return sh_setup_finish(out, phase, current, s->move_count, s->truncated, s->finish, s->num_out, e);
}

static void unit_setup_roundtrip(long long iters) {
  unit_begin("setup round trips");
  static sh_state s, b, k1, k2;
  static uint16_t l1[SH_MAX_DISTINCT_ACTIONS], l2[SH_MAX_DISTINCT_ACTIONS];
  th_error e;
  long long trips = 0, perturbed = 0, garbage = 0, garbage_ok = 0;
  for (long long i = 0; i < iters; i++) {
    if (!mine(i)) continue;
    th_rng g;
    th_rng_seed(&g, UINT64_C(0xB0B0) + (uint64_t)i * 7919u);
    sh_rules r;
    int players;
    if (i % 4 == 3) {
      random_valid_rules(&g, &r, &players);
    } else {
      sh_rules_preset((int)(i % 3), &r);
      players = range(&g, 2, sh_rules_max_players(&r));
    }
    uint64_t seed = th_rng_next(&g);
    c_players = players;
    c_game = i;
    c_seed = seed;
    c_what = "round trip";
    if (sh_state_deal(&s, &r, players, -1, below(&g, 4) ? 0 : (uint32_t)range(&g, 1, 300), seed, &e)) {
      CHECK(0, "deal: %s", e.msg);
      continue;
    }
    int steps = (int)below(&g, 400);
    uint8_t pol[SH_MAX_PLAYERS] = {0};
    for (int k = 0; k < steps && s.phase != SH_PHASE_OVER; k++) sh_policy_step(&s, SH_POLICY_RANDOM, &g);
    c_move = s.move_count;
    CHECK(sh_state_check(&s, &e) == TH_OK, "%s", e.msg);
    int rc = rebuild(&s, &b, -1, -1, 0, INT_MIN, &e);
    CHECK(rc == TH_OK, "rebuilding a reached position failed: %s", e.msg);
    if (rc) continue;
    trips++;
    sh_state_canonical(&s, &k1);
    sh_state_canonical(&b, &k2);
    CHECK(same_state(&k1, &k2), "the rebuilt position differs from the original");
    int n1 = sh_legal_actions(&s, l1), n2 = sh_legal_actions(&b, l2);
    CHECK(n1 == n2 && memcmp(l1, l2, (size_t)n1 * sizeof l1[0]) == 0, "legal actions differ after the rebuild");
    if (s.phase != SH_PHASE_OVER) {
      sh_state a1, a2;
      th_rng ra, rb;
      th_rng_seed(&ra, seed);
      rb = ra;
      for (int q = 0; q < SH_MAX_PLAYERS; q++) pol[q] = (uint8_t)below(&g, 3);
      copy_state(&a1, &s);
      copy_state(&a2, &b);
      uint32_t m1 = sh_rollout_full(&a1, pol, &ra, 0), m2 = sh_rollout_full(&a2, pol, &rb, 0);
      outcome o1, o2;
      outcome_of(&a1, 0, &o1);
      outcome_of(&a2, 0, &o2);
      CHECK(m1 != UINT32_MAX && m1 == m2 && same_outcome(&o1, &o2), "the original and the rebuilt position play differently");
    }
    /* Perturbations that must be rejected. */
    perturbed++;
    int some_id = -1;
    for (int id = (int)below(&g, SH_CARD_ID_SPACE), k = 0; k < SH_CARD_ID_SPACE; k++, id = (id + 1) % SH_CARD_ID_SPACE)
      if (sh_loc_at(&s, id) != SH_LOC_ABSENT) {
        some_id = id;
        break;
      }
    c_what = "rebuild without a card";
    CHECK(rebuild(&s, &b, some_id, -1, 0, INT_MIN, &e) != TH_OK, "a position with a card missing was accepted");
    c_what = "rebuild with an extra card";
    CHECK(rebuild(&s, &b, -1, (int)below(&g, SH_KIND_RED_JOKER), 0, INT_MIN, &e) != TH_OK,
          "a position with an extra card was accepted");
    c_what = "rebuild with a bad current player";
    int badcur = s.phase == SH_PHASE_OVER ? range(&g, 0, players - 1) : below(&g, 2) ? players + (int)below(&g, 5) : -1 - (int)below(&g, 5);
    CHECK(rebuild(&s, &b, -1, -1, 0, badcur, &e) != TH_OK, "current %d accepted", badcur);
    if (s.phase == SH_PHASE_PLAY) {
      c_what = "rebuild as over";
      CHECK(rebuild(&s, &b, -1, -1, +1, TH_TERMINAL_PLAYER, &e) != TH_OK, "a live game accepted as over");
    }
    if (s.phase == SH_PHASE_OVER && !s.truncated) {
      c_what = "rebuild as live";
      CHECK(rebuild(&s, &b, -1, -1, -1, s.finish[0], &e) != TH_OK, "an ended game accepted as live");
    }
    /* Every card placed, then sh_setup_finish with garbage: no crash, and
     * whatever it accepts passes sh_state_check and plays. */
    c_what = "garbage finish";
    for (int k = 0; k < 4; k++) {
      if (rebuild_cards(&s, &b, -1, -1, &e) != TH_OK) {
        CHECK(0, "rebuild_cards: %s", e.msg);
        break;
      }
      int n = players;
      int phase = below(&g, 2) ? range(&g, 0, 2) : range(&g, -3, 6);
      int current = below(&g, 2) ? range(&g, 0, n - 1) : below(&g, 2) ? TH_TERMINAL_PLAYER : range(&g, -9, 20);
      uint32_t mc = below(&g, 2) ? below(&g, 50) : below(&g, 2) ? s.max_moves - below(&g, 2) : (uint32_t)th_rng_next(&g);
      int trunc = below(&g, 2) ? 0 : range(&g, -1, 3);
      int nf = below(&g, 2) ? range(&g, 0, n) : range(&g, -3, 20);
      size_t fl = nf > 0 ? (size_t)nf : 1;
      uint8_t *fin = (uint8_t *)malloc(fl);
      if (!fin) abort();
      for (size_t j = 0; j < fl; j++) fin[j] = (uint8_t)(below(&g, 4) ? below(&g, (uint32_t)n) : th_rng_next(&g));
      int rc2 = sh_setup_finish(&b, phase, current, mc, trunc, fin, nf, &e);
      free(fin);
      garbage++;
      if (rc2 == TH_OK) {
        garbage_ok++;
        CHECK(sh_state_check(&b, &e) == TH_OK, "an accepted position fails the check: %s", e.msg);
        if (b.phase != SH_PHASE_OVER) {
          uint8_t rp[SH_MAX_PLAYERS] = {0};
          th_rng rr;
          th_rng_seed(&rr, seed + (uint64_t)k);
          play_checked(&b, rp, &rr, &g, 0);
        }
      } else {
        CHECK(e.code == rc2 && e.msg[0]);
      }
    }
  }
  unit_end("%lld positions rebuilt and compared, %lld perturbed copies rejected, %lld garbage finishes (%lld accepted)",
           trips, perturbed, garbage, garbage_ok);
}

/* A random position for rules r: cards dealt to zones at random, with the
 * constraints a real position has (no burn card or burning run on the pile,
 * full hands while the draw pile lasts, ...). Returns sh_setup_finish's code. */
static int random_position(sh_state *s, const sh_rules *r, int n, th_rng *g, th_error *e) {
  uint32_t mm = (uint32_t)range(g, 50, 3000);
  int rc = sh_setup_begin(s, r, n, range(g, -1, n - 1), mm, e);
  if (rc) return rc;
  int K = r->cards_per_zone;
  uint8_t kinds[SH_MAX_CARDS];
  int total = 0;
  for (int c = 0; c < r->decks; c++)
    for (int k = 0; k < SH_NUM_KINDS; k++)
      if (kind_ok(r, k)) kinds[total++] = (uint8_t)k;
  for (int i = total - 1; i > 0; i--) {
    int j = (int)below(g, (uint32_t)i + 1);
    uint8_t t = kinds[i];
    kinds[i] = kinds[j];
    kinds[j] = t;
  }
  int next = 0;
#define TAKE() (next < total ? kinds[next++] : -1)
  if (below(g, 8) == 0) { /* swap phase: full zones, nothing else */
    for (int q = 0; q < n; q++)
      for (int k = 0; k < K; k++) {
        sh_setup_add(s, SH_ZONE_FACE_DOWN, q, TAKE(), k, e);
        sh_setup_add(s, SH_ZONE_FACE_UP, q, TAKE(), 0, e);
        sh_setup_add(s, below(g, 4) ? SH_ZONE_HAND : SH_ZONE_HAND_KNOWN, q, TAKE(), 0, e);
      }
    while (next < total) sh_setup_add(s, SH_ZONE_DRAW, 0, TAKE(), 0, e);
    static const uint8_t none[1] = {0};
    return sh_setup_finish(s, SH_PHASE_SWAP, range(g, 0, n - 1), below(g, (uint32_t)n), 0, none, 0, e);
  }
  uint8_t seats[SH_MAX_PLAYERS];
  for (int q = 0; q < n; q++) seats[q] = (uint8_t)q;
  for (int i = n - 1; i > 0; i--) {
    int j = (int)below(g, (uint32_t)i + 1);
    uint8_t t = seats[i];
    seats[i] = seats[j];
    seats[j] = t;
  }
  int need_hand = below(g, 2); /* a draw pile: every hand holds >= K, nobody is out yet */
  int nout = need_hand ? 0 : (int)below(g, (uint32_t)n - 1); /* seats[0 .. nout) are out, in that order */
  int active = n - nout;
  int hand[SH_MAX_PLAYERS] = {0};
  for (int i = nout; i < n; i++) {
    int q = seats[i];
    int d = below(g, 3) ? (int)below(g, (uint32_t)K + 1) : K;
    int u = below(g, 3) ? (int)below(g, (uint32_t)K + 1) : K;
    int h = need_hand ? K + (below(g, 3) ? 0 : (int)below(g, 6)) : (int)below(g, (uint32_t)K + 2);
    if (d + u + h == 0) h = 1;
    for (int k = 0, placed = 0; k < K && placed < d; k++)
      if (below(g, 2) || K - k <= d - placed) {
        sh_setup_add(s, SH_ZONE_FACE_DOWN, q, TAKE(), k, e);
        placed++;
      }
    for (int k = 0; k < u; k++) sh_setup_add(s, SH_ZONE_FACE_UP, q, TAKE(), 0, e);
    for (int k = 0; k < h; k++) sh_setup_add(s, below(g, 4) ? SH_ZONE_HAND : SH_ZONE_HAND_KNOWN, q, TAKE(), 0, e);
    hand[q] = h;
  }
  (void)hand;
  (void)active;
  /* the pile: no burn card, no run that would have burned */
  int plen = below(g, 4) ? (int)below(g, 40) : (int)below(g, 150), rr = -1, rl = 0;
  for (int k = 0; k < plen && next < total; k++) {
    int kind = TAKE(), rank = sh_kind_rank(kind);
    int invisible = (r->invisible >> rank) & 1;
    int counts = !(invisible && r->invisible_in_runs == SH_RUNS_SKIP);
    int nrl = counts ? (rr == rank ? rl + 1 : 1) : rl;
    if (((r->burn >> rank) & 1) || (r->run_to_burn && nrl >= r->run_to_burn)) {
      sh_setup_add(s, SH_ZONE_BURNED, 0, kind, 0, e);
      continue;
    }
    if (counts) rr = rank, rl = nrl;
    sh_setup_add(s, SH_ZONE_PILE, 0, kind, 0, e);
  }
  int dlen = need_hand ? 1 + (int)below(g, (uint32_t)(total - next > 0 ? total - next : 1)) : 0;
  for (int k = 0; k < dlen && next < total; k++) sh_setup_add(s, SH_ZONE_DRAW, 0, TAKE(), 0, e);
  /* the rest: burned, or into hands; sometimes all into one hand (a giant
   * hand, as after picking up a big pile) */
  int giant = below(g, 4) == 0 ? seats[range(g, nout, n - 1)] : -1;
  while (next < total) {
    int kind = TAKE();
    if (giant >= 0)
      sh_setup_add(s, SH_ZONE_HAND_KNOWN, giant, kind, 0, e);
    else if (below(g, 3) == 0)
      sh_setup_add(s, below(g, 4) ? SH_ZONE_HAND : SH_ZONE_HAND_KNOWN, seats[range(g, nout, n - 1)], kind, 0, e);
    else
      sh_setup_add(s, SH_ZONE_BURNED, 0, kind, 0, e);
  }
#undef TAKE
  uint32_t cap = s->max_moves;
  uint32_t mc = below(g, 2) ? 0 : below(g, cap > 500 ? 500 : cap - 1);
  return sh_setup_finish(s, SH_PHASE_PLAY, seats[range(g, nout, n - 1)], mc, 0, seats, nout, e);
}

static void unit_random_positions(long long iters) {
  unit_begin("random valid positions");
  static sh_state s, s0;
  th_error e;
  long long ok = 0, rejected = 0, trunc = 0;
  for (long long i = 0; i < iters; i++) {
    if (!mine(i)) continue;
    th_rng g;
    th_rng_seed(&g, UINT64_C(0xF00D) * 31337u + (uint64_t)i);
    sh_rules r;
    int players;
    if (i % 3 == 2) {
      random_valid_rules(&g, &r, &players);
    } else {
      sh_rules_preset((int)below(&g, 3), &r);
      if (below(&g, 4) == 0) r.merge_hand_with_face_up = 1;
      if (below(&g, 4) == 0) r.cards_per_zone = (uint8_t)range(&g, 1, 2);
      players = range(&g, 2, sh_rules_max_players(&r));
    }
    c_players = players;
    c_game = i;
    c_seed = UINT64_C(0xF00D) * 31337u + (uint64_t)i; /* the test stream's seed: replays the construction */
    c_move = -1;
    c_what = "random position";
    int rc = random_position(&s, &r, players, &g, &e);
    if (rc) {
      rejected++;
      if (rejected <= 3 && !g_quiet) printf("    (random position %lld rejected: %s)\n", i, e.msg);
      continue;
    }
    ok++;
    copy_state(&s0, &s);
    uint8_t pol[SH_MAX_PLAYERS];
    for (int q = 0; q < SH_MAX_PLAYERS; q++) pol[q] = (uint8_t)(i % 4 < 3 ? i % 4 : below(&g, 3));
    compare_rollouts(&s0, pol, UINT64_C(0xF00D), (uint64_t)i, 1, NULL);
    th_rng rng;
    th_batch_rng(UINT64_C(0xF00D), (uint64_t)i, &rng);
    play_checked(&s, pol, &rng, &g, 64);
    if (s.truncated) trunc++, t_truncated_other++;
  }
  t_games_positions += ok;
  unit_end("%lld positions played (%lld truncated), %lld constructions rejected by sh_setup_finish", ok, trunc,
           rejected);
  /* The generator must mostly produce valid positions, or the unit tests nothing. */
  if (ok < rejected) printf("    note: more positions rejected than accepted\n");
}

/* sh_rules_validate on random bytes; every rule set that passes is played. */
static void unit_rules_fuzz(long long iters) {
  unit_begin("rules_validate on random bytes");
  static sh_state s;
  th_error e;
  long long valid = 0, games = 0, trunc = 0;
  for (long long i = 0; i < iters; i++) {
    if (!mine(i)) continue;
    th_rng g;
    th_rng_seed(&g, UINT64_C(0x21E5) ^ ((uint64_t)i << 20));
    sh_rules r;
    random_rules_bytes(&g, &r);
    int players = below(&g, 2) ? range(&g, 2, 12) : range(&g, -1000, 1000);
    if (below(&g, 20) == 0) players = below(&g, 2) ? INT_MIN : INT_MAX;
    c_players = players;
    c_game = i;
    c_seed = 0;
    c_move = -1;
    c_what = "validate";
    memset(&e, 0, sizeof e);
    int rc = sh_rules_validate(&r, players, &e);
    CHECK(rc == TH_OK || rc == TH_ERR_RULES || rc == TH_ERR_PLAYERS, "code %d", rc);
    if (rc) CHECK(e.code == rc && e.msg[0] != 0);
    int rc0 = sh_rules_validate(&r, 0, NULL);
    if (rc0 == TH_OK) {
      valid++;
      int maxp = sh_rules_max_players(&r);
      CHECK(maxp >= 0 && maxp <= SH_MAX_PLAYERS);
      for (int p = 2; p <= SH_MAX_PLAYERS; p++)
        CHECK((sh_rules_validate(&r, p, NULL) == TH_OK) == (p <= maxp), "%d players, max %d", p, maxp);
      CHECK(sh_num_distinct_actions(&r) <= SH_MAX_DISTINCT_ACTIONS);
      if (maxp >= 2) {
        int p = range(&g, 2, maxp);
        c_players = p;
        uint64_t seed = th_rng_next(&g);
        c_seed = seed;
        c_what = "deal";
        rc = sh_state_deal(&s, &r, p, -1, 2000, seed, &e); /* odd rules: long games */
        CHECK(rc == TH_OK, "a rule set that validates does not deal: %s", e.msg);
        if (rc == TH_OK) {
          uint8_t pol[SH_MAX_PLAYERS];
          for (int q = 0; q < SH_MAX_PLAYERS; q++) pol[q] = (uint8_t)below(&g, 3);
          compare_rollouts(&s, pol, seed, 0, 0, NULL);
          th_rng rng;
          th_batch_rng(seed, 0, &rng);
          play_checked(&s, pol, &rng, &g, 128);
          games++;
          if (s.truncated) trunc++, t_truncated_other++;
        }
      }
    } else {
      sh_state t;
      c_what = "deal with invalid rules";
      CHECK(sh_state_deal(&t, &r, 4, -1, 0, 1, &e) != TH_OK, "sh_state_deal accepted invalid rules");
    }
  }
  t_games_fuzz_rules += games;
  unit_end("%lld rule sets valid, %lld games played with them (%lld truncated)", valid, games, trunc);
}

/* The random policy through sh_policy_action (documented as exactly
 * legal_actions()[below(n)]) and through sh_policy_step (which sh_rollout
 * and sh_rollout_full follow) from the same state and rng: the same move and
 * the same use of the rng. */
static void unit_random_policy_rng(long long games) {
  long long checks0 = g_checks;
  unit_begin("random policy: action vs step");
  static sh_state s, a, b;
  static uint16_t legal[SH_MAX_DISTINCT_ACTIONS];
  long long states = 0, move_diff = 0, rng_diff = 0, rng_diff_forced_pickup = 0, forced_pickup = 0;
  int pickup_draws = -1; /* what sh_policy_step does on a forced pick-up: 1 draws, 0 does not */
  long long ex_game = -1;
  uint64_t ex_seed = 0;
  uint32_t ex_move = 0;
  int ex_preset = 0, ex_players = 0;
  for (long long i = 0; i < games; i++) {
    int preset = (int)(i % 3);
    sh_rules r;
    sh_rules_preset(preset, &r);
    int players = 2 + (int)((i / 3) % 4);
    uint64_t seed = UINT64_C(0xC0FFEE) + (uint64_t)i;
    sh_state_deal(&s, &r, players, -1, 0, seed, NULL);
    th_rng rng;
    th_rng_seed(&rng, seed ^ 1u);
    while (s.phase != SH_PHASE_OVER) {
      int n = sh_legal_actions(&s, legal);
      int forced = n == 1 && legal[0] == sh_pickup_action(&s.rules);
      th_rng ra = rng, rb = rng;
      copy_state(&a, &s);
      copy_state(&b, &s);
      int act = sh_policy_action(&a, SH_POLICY_RANDOM, &ra);
      sh_apply_legal(&a, act);
      sh_policy_step(&b, SH_POLICY_RANDOM, &rb);
      states++;
      forced_pickup += forced;
      if (!same_state(&a, &b)) move_diff++;
      if (memcmp(&ra, &rb, sizeof ra)) {
        rng_diff++;
        rng_diff_forced_pickup += forced;
        if (ex_game < 0) {
          ex_game = i;
          ex_seed = seed;
          ex_move = s.move_count;
          ex_preset = preset;
          ex_players = players;
        }
      }
      if (forced && pickup_draws < 0) pickup_draws = memcmp(&rb, &rng, sizeof rb) != 0;
      sh_policy_step(&s, SH_POLICY_RANDOM, &rng);
    }
  }
  if (pickup_draws >= 0) g_pickup_draws = pickup_draws;
  if (g_part != 0) { /* only detected here; part 0 reports */
    g_checks = checks0;
    return;
  }
  g_checks++;
  CHECK(move_diff == 0, "sh_policy_step and sh_policy_action play different moves in %lld of %lld states", move_diff,
        states);
  CHECK(rng_diff == 0,
        "sh_policy_step(random) and sh_policy_action(random) use the rng differently in %lld of %lld states (%lld of "
        "them forced pick-ups; %lld forced pick-ups in all; sh_policy_step %s on a forced pick-up, while rollout.h "
        "defines the random policy as exactly legal_actions()[below(n)]). First: preset %d, %d players, "
        "sh_state_deal(seed 0x%llx, dealer -1, max_moves 0), rng th_rng_seed(seed ^ 1), all seats sh_policy_step "
        "random, at move %u",
        rng_diff, states, rng_diff_forced_pickup, forced_pickup,
        pickup_draws == 1 ? "draws" : pickup_draws == 0 ? "does NOT draw" : "(none seen)", ex_preset, ex_players,
        (unsigned long long)ex_seed, ex_move);
  unit_end("%lld states, %lld forced pick-ups; sh_policy_step %s on a forced pick-up", states, forced_pickup,
           pickup_draws == 1 ? "draws" : pickup_draws == 0 ? "does not draw" : "(not seen)");
}

/* sh_swap_choice_at (the rollouts' swap draw, which counts the choices
 * instead of listing them) against sh_legal_actions: the same number of
 * choices and the same k-th choice for every k, for every seat of the swap
 * phase, under random rules (1 to 5 cards per zone, 1 to 4 decks). */
static void unit_swap_choice(long long deals) {
  unit_begin("swap choices counted vs listed");
  static sh_state s;
  static uint16_t legal[SH_MAX_DISTINCT_ACTIONS];
  th_rng g;
  th_rng_seed(&g, UINT64_C(0x5A4B));
  long long decisions = 0, choices = 0;
  for (long long i = 0; i < deals; i++) {
    sh_rules r;
    int players;
    random_valid_rules(&g, &r, &players);
    if (i % 4 == 0) sh_rules_preset((int)(i / 4 % 3), &r), players = 4;
    if (sh_state_deal(&s, &r, players, -1, 0, (uint64_t)i, NULL) != TH_OK) continue;
    c_game = i;
    while (s.phase == SH_PHASE_SWAP) {
      int n = sh_legal_actions(&s, legal);
      uint32_t counted = sh_swap_choice_at(&s, UINT32_MAX, NULL);
      CHECK(counted == (uint32_t)n, "%u swap choices counted, %d listed (K %d)", counted, n, r.cards_per_zone);
      for (int k = 0; k < n; k++) {
        uint8_t ranks[SH_MAX_CPZ];
        sh_swap_choice_at(&s, (uint32_t)k, ranks);
        int id = sh_first_swap_action(&r) + sh_swap_index(ranks, r.cards_per_zone);
        CHECK(id == legal[k], "swap choice %d of %d: id %d counted, %d listed (K %d)", k, n, id, legal[k],
              r.cards_per_zone);
      }
      decisions++;
      choices += n;
      sh_apply_legal(&s, legal[below(&g, (uint32_t)n)]);
    }
  }
  c_game = -1;
  unit_end("%lld swap decisions, %lld choices compared", decisions, choices);
}

/* common/portable.h: the compiler's bit counts and byte swap (builtins or
 * intrinsics) agree with the portable loops, on every single bit and on
 * random words. */
static void unit_portable_bits(long long iters) {
  unit_begin("bit counts: compiler vs portable");
  for (int b = 0; b < 64; b++) {
    uint64_t x = UINT64_C(1) << b;
    CHECK(th_ctz64(x) == b && th_ctz64_portable(x) == b, "ctz64 of bit %d", b);
    if (b < 32) {
      CHECK(th_ctz32((uint32_t)x) == b && th_ctz32_portable((uint32_t)x) == b, "ctz32 of bit %d", b);
      CHECK(th_clz32((uint32_t)x) == 31 - b && th_clz32_portable((uint32_t)x) == 31 - b, "clz32 of bit %d", b);
    }
  }
  th_rng g;
  th_rng_seed(&g, UINT64_C(0xB175B175));
  for (long long i = 0; i < iters; i++) {
    uint64_t x = th_rng_next(&g) >> below(&g, 64);
    x |= UINT64_C(1) << below(&g, 64); /* never 0 */
    uint32_t y = (uint32_t)x | (1u << below(&g, 32));
    CHECK(th_ctz64(x) == th_ctz64_portable(x), "ctz64(%llx)", (unsigned long long)x);
    CHECK(th_ctz32(y) == th_ctz32_portable(y), "ctz32(%x)", y);
    CHECK(th_clz32(y) == th_clz32_portable(y), "clz32(%x)", y);
    CHECK(th_bswap64(x) == th_bswap64_portable(x), "bswap64(%llx)", (unsigned long long)x);
    CHECK(th_bswap64(th_bswap64(x)) == x, "bswap64 twice");
  }
  unit_end("%lld words", iters);
}

/* The rollouts' choice of a uniform play: the portable SWAR version, the
 * SSE2 one (where built) and a plain loop over the plays in id order must
 * agree on the count of plays, the play chosen and the draws taken. */
static void unit_uniform_play(long long iters) {
  unit_begin("uniform play: SWAR vs SSE2 vs loop");
  th_rng g;
  th_rng_seed(&g, UINT64_C(0xB175));
  long long nonempty = 0;
  for (long long i = 0; i < iters; i++) {
    uint8_t counts[16] = {0};
    int cap = below(&g, 4) ? 9 : 17; /* up to 16 copies of a rank with 4 decks */
    for (int r = 0; r < SH_NUM_RANKS; r++) counts[r] = (uint8_t)(below(&g, 3) ? 0 : below(&g, (uint32_t)cap));
    uint16_t m = (uint16_t)(below(&g, 1u << SH_NUM_RANKS) | (below(&g, 4) ? 0u : SH_ALL_RANKS_MASK));
    uint64_t mlo = byte_mask8(m & 0xFF), mhi = byte_mask8(m >> 8);
    int total = 0;
    for (int r = 0; r < SH_NUM_RANKS; r++) total += (m >> r) & 1 ? counts[r] : 0;
    th_rng ra, rb, rc;
    th_rng_seed(&ra, (uint64_t)i);
    rb = ra;
    rc = ra;
    int rank_a = -1, count_a = -1, rank_b = -1, count_b = -1;
    int ta = sh_uniform_play_swar(counts, mlo, mhi, &ra, &rank_a, &count_a);
    int want_rank = -1, want_count = -1;
    if (total) {
      int k = (int)th_rng_below(&rc, (uint32_t)total);
      for (int r = 0; r < SH_NUM_RANKS && want_rank < 0; r++) {
        int c = (m >> r) & 1 ? counts[r] : 0;
        if (k < c) want_rank = r, want_count = k + 1;
        k -= c;
      }
      nonempty++;
    }
    CHECK(ta == total, "SWAR counts %d plays, the loop %d", ta, total);
    CHECK(!total || (rank_a == want_rank && count_a == want_count), "SWAR plays %dx%d, the loop %dx%d", rank_a,
          count_a, want_rank, want_count);
    CHECK(!memcmp(&ra, &rc, sizeof ra), "SWAR and the loop take different draws");
#ifdef SH_HAVE_SSE2_PLAY
    int tb = sh_uniform_play_sse2(counts, mlo, mhi, &rb, &rank_b, &count_b);
    CHECK(tb == total, "SSE2 counts %d plays, the loop %d", tb, total);
    CHECK(!total || (rank_b == want_rank && count_b == want_count), "SSE2 plays %dx%d, the loop %dx%d", rank_b,
          count_b, want_rank, want_count);
    CHECK(!memcmp(&rb, &rc, sizeof rb), "SSE2 and the loop take different draws");
#else
    (void)rb, (void)rank_b, (void)count_b;
#endif
  }
#ifdef SH_HAVE_SSE2_PLAY
  unit_end("%lld rows (%lld with plays), SSE2 and SWAR", iters, nonempty);
#else
  unit_end("%lld rows (%lld with plays), SWAR only (no SSE2 here)", iters, nonempty);
#endif
}

/* The repetition ring's tag match: the portable SWAR version, the SSE2 one
 * (where built) and a loop agree on every bit. */
static void unit_tag_matches(long long iters) {
  unit_begin("tag match: SWAR vs SSE2 vs loop");
  th_rng g;
  th_rng_seed(&g, UINT64_C(0x7A6));
  for (long long i = 0; i < iters; i++) {
    uint8_t tags[64];
    uint32_t spread = 1u + below(&g, 8); /* few distinct tags: many matches */
    for (int j = 0; j < 64; j++) tags[j] = (uint8_t)(below(&g, 4) ? below(&g, spread) : below(&g, 256));
    uint8_t t = (uint8_t)(below(&g, 2) ? tags[below(&g, 64)] : below(&g, 256));
    uint64_t want = 0;
    for (int j = 0; j < 64; j++) want |= (uint64_t)(tags[j] == t) << j;
    CHECK(sh_tag_matches64_swar(tags, t) == want, "SWAR tag match differs from the loop (row %lld)", i);
#ifdef TH_HAVE_SSE2
    CHECK(sh_tag_matches64_sse2(tags, t) == want, "SSE2 tag match differs from the loop (row %lld)", i);
#endif
  }
#ifdef TH_HAVE_SSE2
  unit_end("%lld rows, SSE2 and SWAR", iters);
#else
  unit_end("%lld rows, SWAR only (no SSE2 here)", iters);
#endif
}

/* Resampling from one seat's view (determinize.h) on positions reached by
 * random play under random rules: the result passes sh_state_check, the
 * observer's observation tensor and everything it can see are unchanged,
 * the hidden cards are the same multiset; ISMCTS searches on the same
 * positions (tiny node arrays included) return a legal action, stay within
 * their arrays and are deterministic for a seed. */
static void unit_imperfect_information(long long games) {
  unit_begin("resample, observation, ISMCTS");
  static sh_state s, t;
  static uint16_t legal[SH_MAX_DISTINCT_ACTIONS];
  static float oa[512], ob[512];
  static th_ismcts_node arena[64];
  th_rng g;
  th_rng_seed(&g, UINT64_C(0xDE7E));
  long long resamples = 0, searches = 0;
  for (long long i = 0; i < games; i++) {
    if (!mine(i)) continue;
    sh_rules r;
    int players;
    if (i % 2) {
      random_valid_rules(&g, &r, &players);
    } else {
      sh_rules_preset((int)(i / 2 % 3), &r);
      players = range(&g, 2, sh_rules_max_players(&r) < 6 ? sh_rules_max_players(&r) : 6);
    }
    if (sh_state_deal(&s, &r, players, -1, (uint32_t)range(&g, 100, 3000), (uint64_t)i, NULL) != TH_OK) continue;
    c_players = players;
    c_game = i;
    int stop = (int)below(&g, 400);
    for (int m = 0; m < stop && s.phase != SH_PHASE_OVER; m++) {
      int n = sh_legal_actions(&s, legal);
      sh_apply_legal(&s, legal[below(&g, (uint32_t)n)]);
    }
    CHECK(sh_observation_tensor(&s, players, oa, NULL) == TH_ERR_ARG);
    CHECK(sh_resample(&t, -1, &g, NULL) == TH_ERR_ARG);
    for (int p = 0; p < players; p++) {
      copy_state(&t, &s);
      th_rng rr;
      th_rng_seed(&rr, (uint64_t)(i * 131 + p));
      th_error e;
      CHECK(sh_resample(&t, p, &rr, &e) == TH_OK, "%s", e.msg);
      CHECK(sh_state_check(&t, &e) == TH_OK, "after resampling for seat %d: %s", p, e.msg);
      CHECK(sh_observation_tensor(&s, p, oa, NULL) == TH_OK && sh_observation_tensor(&t, p, ob, NULL) == TH_OK);
      CHECK(memcmp(oa, ob, sizeof(float) * (size_t)sh_obs_size(players)) == 0,
            "seat %d's observation changed by resampling", p);
      CHECK(sh_hidden_count(&s, p) == sh_hidden_count(&t, p));
      int kinds_s[SH_NUM_KINDS] = {0}, kinds_t[SH_NUM_KINDS] = {0};
      for (int id = 0; id < SH_CARD_ID_SPACE; id++) {
        CHECK(sh_loc_at(&s, id) == sh_loc_at(&t, id) || (sh_loc_at(&s, id) != SH_LOC_ABSENT && sh_loc_at(&t, id) != SH_LOC_ABSENT),
              "card %d entered or left the deck", id);
        int ls = sh_loc_at(&s, id), lt = sh_loc_at(&t, id);
        int hs = ls != SH_LOC_ABSENT && !(ls & SH_LOC_KNOWN) &&
                 ((ls & 0x70) == SH_LOC_FACE_DOWN || ls == SH_LOC_DRAW || ((ls & 0x70) == SH_LOC_HAND && (ls & 15) != p));
        if (hs) kinds_s[sh_card_kind(id)]++;
        if (lt != SH_LOC_ABSENT && !(lt & SH_LOC_KNOWN) &&
            ((lt & 0x70) == SH_LOC_FACE_DOWN || lt == SH_LOC_DRAW || ((lt & 0x70) == SH_LOC_HAND && (lt & 15) != p)))
          kinds_t[sh_card_kind(id)]++;
        if (!hs) CHECK(ls == lt, "a card seat %d can see moved (id %d: zone %#x -> %#x)", p, id, ls, lt);
      }
      CHECK(memcmp(kinds_s, kinds_t, sizeof kinds_s) == 0, "the hidden cards changed");
      CHECK(memcmp(s.seat[p].hand_rank, t.seat[p].hand_rank, sizeof s.seat[p].hand_rank) == 0);
      resamples++;
    }
    if (s.phase != SH_PHASE_OVER && i % 4 == 0) {
      th_ismcts_config cfg = {(uint32_t)range(&g, 1, 40), 0.0, 0.7, (uint8_t)below(&g, SH_NUM_POLICIES), (uint64_t)i,
                              NULL};
      uint32_t cap = (uint32_t)range(&g, 1, 64);
      th_ismcts_stats st1, st2;
      uint16_t acts[SH_MAX_DISTINCT_ACTIONS];
      uint32_t vis[SH_MAX_DISTINCT_ACTIONS];
      int nc = 0;
      th_error e;
      CHECK(th_ismcts_search(&sh_game, &s, &cfg, arena, cap, &st1, acts, vis, NULL, &nc, &e) == TH_OK, "%s", e.msg);
      CHECK(st1.iterations == cfg.iterations && st1.nodes <= cap && st1.nodes <= cfg.iterations + 1);
      CHECK(sh_is_legal(&s, st1.best_action), "ISMCTS chose %d, not legal", st1.best_action);
      uint32_t sum = 0;
      for (int k = 0; k < nc; k++) {
        CHECK(sh_is_legal(&s, acts[k]));
        sum += vis[k];
      }
      CHECK(sum <= cfg.iterations);
      CHECK(th_ismcts_search(&sh_game, &s, &cfg, arena, cap, &st2, NULL, NULL, NULL, NULL, &e) == TH_OK);
      CHECK(st2.best_action == st1.best_action && st2.nodes == st1.nodes, "ISMCTS is not deterministic");
      searches++;
    }
  }
  {
    th_ismcts_config bad = {0, 0.0, 0.7, 0, 1, NULL};
    th_error e;
    sh_rules r;
    sh_rules_preset(0, &r);
    sh_state_deal(&s, &r, 4, -1, 0, 1, NULL);
    CHECK(th_ismcts_search(&sh_game, &s, &bad, arena, 64, NULL, NULL, NULL, NULL, NULL, &e) == TH_ERR_ARG);
    bad.iterations = 5;
    bad.rollout_policy = SH_NUM_POLICIES;
    CHECK(th_ismcts_search(&sh_game, &s, &bad, arena, 64, NULL, NULL, NULL, NULL, NULL, &e) == TH_ERR_ARG);
    bad.rollout_policy = 0;
    CHECK(th_ismcts_search(&sh_game, &s, &bad, arena, 0, NULL, NULL, NULL, NULL, NULL, &e) == TH_ERR_ARG);
    bad.exploration = INFINITY; /* non-finite settings are refused */
    CHECK(th_ismcts_search(&sh_game, &s, &bad, arena, 64, NULL, NULL, NULL, NULL, NULL, &e) == TH_ERR_ARG);
    bad.exploration = NAN;
    CHECK(th_ismcts_search(&sh_game, &s, &bad, arena, 64, NULL, NULL, NULL, NULL, NULL, &e) == TH_ERR_ARG);
    bad.exploration = 0.7;
    bad.time_limit = INFINITY;
    CHECK(th_ismcts_search(&sh_game, &s, &bad, arena, 64, NULL, NULL, NULL, NULL, NULL, &e) == TH_ERR_ARG);
    bad.time_limit = NAN;
    CHECK(th_ismcts_search(&sh_game, &s, &bad, arena, 64, NULL, NULL, NULL, NULL, NULL, &e) == TH_ERR_ARG);
    bad.time_limit = 0.0;
    s.pile_len = 7; /* a corrupted root is rejected */
    CHECK(th_ismcts_search(&sh_game, &s, &bad, arena, 64, NULL, NULL, NULL, NULL, NULL, &e) == TH_ERR_SETUP);
  }
  unit_end("%lld resamples, %lld searches", resamples, searches);
}

/* sh_public_counts and sh_known_rank_counts (state.h) against a scan of
 * every card id's zone after every move of random full-state games
 * (pickups, burns, failed blind cards and swaps included), and the
 * observation's known and burned blocks against the same scan. */
static void unit_rank_counts(long long games) {
  unit_begin("Shithead known and burned counts per rank");
  static sh_state s;
  th_rng g;
  th_rng_seed(&g, UINT64_C(0x4b4e4f57));
  long long moves = 0, with_known = 0;
  static uint16_t legal[SH_MAX_DISTINCT_ACTIONS];
  float obs[1024];
  for (long long i = 0; i < games; i++) {
    if (!mine(i)) continue;
    sh_rules r;
    sh_rules_preset((int)below(&g, 3), &r);
    int players = range(&g, 2, 6);
    th_error e;
    if (sh_state_deal(&s, &r, players, -1, 3000, (uint64_t)i, &e) != TH_OK) continue; /* too many players for the deck */
    while (s.phase != SH_PHASE_OVER) {
      int n = sh_legal_actions(&s, legal);
      if (n <= 0 || sh_apply_action(&s, legal[below(&g, (uint32_t)n)], &e) != TH_OK) {
        CHECK(0, "a legal move failed");
        break;
      }
      moves++;
      uint8_t known[SH_MAX_PLAYERS][16], burned[16];
      memset(known, 0, sizeof known);
      memset(burned, 0, sizeof burned);
      for (int id = 0; id < SH_CARD_ID_SPACE; id++) {
        int l = sh_loc_at(&s, id);
        if (l == SH_LOC_ABSENT) continue;
        if ((l & 0xF0) == (SH_LOC_HAND | SH_LOC_KNOWN)) known[l & 0x0F][sh_card_rank(id)]++;
        if (l == SH_LOC_BURNED) burned[sh_card_rank(id)]++;
      }
      uint8_t pk[SH_MAX_PLAYERS][16], pb[16], one[SH_NUM_RANKS];
      sh_public_counts(&s, pk, pb);
      for (int q = 0; q < players; q++) {
        sh_known_rank_counts(&s, q, one);
        CHECK(memcmp(known[q], pk[q], 16) == 0 && memcmp(known[q], one, SH_NUM_RANKS) == 0,
              "the known counts differ from the scan at move %u", s.move_count);
      }
      CHECK(memcmp(burned, pb, sizeof burned) == 0, "the burned counts differ from the scan at move %u", s.move_count);
      int p = (int)below(&g, (uint32_t)players), any = 0;
      CHECK(sh_observation_tensor(&s, p, obs, &e) == TH_OK, "observation");
      for (int j = 0; j < players; j++)
        for (int k = 0; k < SH_NUM_RANKS; k++) {
          int q = (p + j) % players;
          any |= known[q][k] != 0;
          CHECK(obs[sh_obs_known(players) + j * SH_NUM_RANKS + k] == known[q][k], "known block, seat +%d rank %d", j, k);
        }
      for (int k = 0; k < SH_NUM_RANKS; k++)
        CHECK(obs[sh_obs_burned(players) + k] == burned[k], "burned block, rank %d", k);
      with_known += any;
    }
  }
  CHECK(games < 10 || with_known > 0, "no position had a known hand card");
  unit_end("%lld games, %lld moves, %lld with known hand cards", games, moves, with_known);
}

/* A call with a bad player count; returns 0 when it is rejected. */
struct deal_args {
  const sh_rules *r;
  int players;
  int which; /* 0 sh_state_deal, 1 sh_setup_begin, 2 sh_rollouts */
};

static int bad_count_call(void *p) {
  const struct deal_args *a = (const struct deal_args *)p;
  static sh_state s;
  th_error e;
  if (a->which == 0) return sh_state_deal(&s, a->r, a->players, -1, 0, 1, &e) == TH_OK;
  if (a->which == 1) return sh_setup_begin(&s, a->r, a->players, -1, 0, &e) == TH_OK;
  sh_batch b;
  memset(&b, 0, sizeof b);
  b.rules = *a->r;
  b.num_players = a->players;
  b.dealer = -1;
  int8_t pl[64];
  uint32_t mv[4];
  uint8_t tr[4];
  b.places = pl;
  b.moves = mv;
  b.truncated = tr;
  b.n = 4;
  return sh_rollouts(&b, 1, &e) == TH_OK;
}

/* Presets, player counts and deal arguments. */
static void unit_api_basics(void) {
  unit_begin("presets and deal arguments");
  sh_rules r;
  th_error e;
  static sh_state s;
  CHECK(sh_rules_preset(-1, &r) == -1);
  CHECK(sh_rules_preset(3, &r) == -1);
  CHECK(sh_rules_preset(INT_MAX, &r) == -1);
  int expect_max[3] = {12, 5, 5}, expect_nda[3] = {676, 620, 620};
  for (int p = 0; p < 3; p++) {
    CHECK(sh_rules_preset(p, &r) == 0);
    CHECK(sh_rules_validate(&r, 0, &e) == TH_OK, "%s", e.msg);
    CHECK(sh_rules_max_players(&r) == expect_max[p], "preset %d seats %d", p, sh_rules_max_players(&r));
    CHECK(sh_num_distinct_actions(&r) == expect_nda[p]);
    int bad_players[] = {1, expect_max[p] + 1, 13, 100, INT_MAX};
    for (size_t k = 0; k < sizeof bad_players / sizeof bad_players[0]; k++) {
      CHECK(sh_rules_validate(&r, bad_players[k], NULL) == TH_ERR_PLAYERS, "%d players", bad_players[k]);
      CHECK(sh_state_deal(&s, &r, bad_players[k], -1, 0, 1, &e) != TH_OK, "deal for %d players", bad_players[k]);
      CHECK(sh_setup_begin(&s, &r, bad_players[k], -1, 0, &e) != TH_OK, "setup for %d players", bad_players[k]);
    }
    CHECK(sh_state_deal(&s, &r, 4, 4, 0, 1, &e) == TH_ERR_ARG, "dealer 4 of 4");
    CHECK(sh_state_deal(&s, &r, 4, INT_MAX, 0, 1, &e) == TH_ERR_ARG);
    CHECK(sh_state_deal(&s, &r, 4, -7, 0, 1, &e) == TH_OK, "negative dealer means the default");
    CHECK(s.dealer == 3 && s.max_moves == SH_DEFAULT_MAX_MOVES);
    CHECK(sh_state_deal(&s, &r, 4, 0, SH_MAX_MAX_MOVES + 1, 1, &e) == TH_ERR_ARG);
    CHECK(sh_state_deal(&s, &r, 4, 0, UINT32_MAX, 1, &e) == TH_ERR_ARG);
    CHECK(sh_state_deal(&s, &r, 4, 0, SH_MAX_MAX_MOVES, 1, &e) == TH_OK);
    /* the same seed deals the same game; another seed another one */
    static sh_state a, b;
    sh_state_deal(&a, &r, 4, -1, 0, 12345, NULL);
    sh_state_deal(&b, &r, 4, -1, 0, 12345, NULL);
    CHECK(same_state(&a, &b), "a deal is not a function of its seed");
    sh_state_deal(&b, &r, 4, -1, 0, 12346, NULL);
    CHECK(!same_state(&a, &b));
  }
  /* swap index round trip for every K */
  for (int K = 1; K <= SH_MAX_CPZ; K++) {
    int m = sh_multichoose(SH_NUM_RANKS, K);
    for (int idx = 0; idx < m; idx++) {
      uint8_t ranks[SH_MAX_CPZ];
      sh_swap_ranks(idx, K, ranks);
      int sorted = 1;
      for (int i = 1; i < K; i++) sorted &= ranks[i - 1] <= ranks[i];
      if (!sorted || sh_swap_index(ranks, K) != idx) {
        CHECK(0, "swap index %d (K %d) does not round-trip", idx, K);
        break;
      }
    }
    g_checks++;
  }
  unit_end("presets, bad player counts, dealers, caps, swap indexes");

  /* Player counts <= 0: sh_rules_validate skips the player check for them
   * (rules.h), but sh_state_deal, sh_setup_begin and sh_rollouts take a
   * player count from outside and must reject it (threes.h, SAFETY). Each
   * call runs in a child process, as it might crash or hang. */
  unit_begin("player counts <= 0");
  for (int p = 0; p < 2; p++) {
    sh_rules_preset(p, &r);
    int nonpos[] = {0, -1, INT_MIN};
    for (int k = 0; k < 3 - p; k++) {
      struct deal_args a = {&r, nonpos[k], 0};
      c_players = nonpos[k];
      for (a.which = 0; a.which < 3; a.which++) {
        int v = isolated(bad_count_call, &a);
        CHECK(v == 0, "preset %s: %s with %d players: %s", p ? "classic" : "threes",
              a.which == 0 ? "sh_state_deal" : a.which == 1 ? "sh_setup_begin" : "sh_rollouts", nonpos[k], verdict(v));
      }
    }
  }
  unit_end("sh_state_deal, sh_setup_begin, sh_rollouts in child processes");
}

/* sh_rollouts: threads 1, 2 and 3 give the same results, equal to one
 * sh_rollout per game; bad arguments are errors. */
/* The log of older repetition keys (rep_log.h) against a plain count: keys
 * whose low bits collide (long probe chains), growth, clears between
 * stretches (generations), copies, reserve. */
static void unit_rep_log(long long rounds) {
  enum { MAXK = 600 };
  static uint64_t keys[MAXK];
  sh_rep_log l, c;
  sh_rep_log_init(&l);
  sh_rep_log_init(&c);
  th_rng rng;
  th_rng_seed(&rng, 99);
  for (long long r = 0; r < rounds; r++) {
    int n = 1 + (int)th_rng_below(&rng, MAXK);
    int distinct = 1 + (int)th_rng_below(&rng, 200);
    for (int i = 0; i < n; i++) { /* few distinct keys, all in 3 low-bit buckets */
      uint64_t k = th_rng_below(&rng, (uint32_t)distinct);
      keys[i] = (k * UINT64_C(0x9E3779B97F4A7C15)) << 8 | (k % 3u);
    }
    sh_rep_log_clear(&l);
    CHECK(l.len == 0 && sh_rep_log_count(&l, keys[0]) == 0, "a cleared log holds nothing");
    for (int i = 0; i < n; i++) {
      uint32_t before = 0;
      for (int j = 0; j < i; j++) before += keys[j] == keys[i];
      CHECK(sh_rep_log_count(&l, keys[i]) == before, "count before push %d", i);
      CHECK(sh_rep_log_push(&l, keys[i]) == 0, "push");
    }
    CHECK(l.len == (uint32_t)n && !l.failed, "length");
    for (int i = 0; i < n; i++) CHECK(l.keys[i] == keys[i], "keys kept in order");
    CHECK(sh_rep_log_copy(&c, &l) == 0 && c.len == l.len, "copy");
    for (int k = 0; k < 8; k++) {
      uint64_t key = keys[th_rng_below(&rng, (uint32_t)n)];
      CHECK(sh_rep_log_count(&c, key) == sh_rep_log_count(&l, key), "the copy counts alike");
    }
    CHECK(sh_rep_log_count(&l, UINT64_C(0xFFFFFFFFFFFFFF03)) == 0, "an absent key");
    CHECK(sh_rep_log_reserve(&l, l.len + 5) == 0 && l.cap >= l.len + 5, "reserve");
  }
  sh_rep_log_free(&l);
  sh_rep_log_free(&c);
  CHECK(l.keys == NULL && l.len == 0, "freed");
  if (!g_quiet) printf("  rep_log: %lld rounds against a plain count\n", rounds);
}

/* Batches with repetition_limit (RULES.md section 7) count exactly: the
 * same games on 1 and 2 threads, each equal to the game played alone with a
 * log (sh_batch_play_game), and some of them (a repetition more than the
 * ring's 64 plies apart) different from the game played with the ring
 * alone (log NULL). Random seats (two games in flight) and mixed policies. */
static void unit_batch_repetitions(long long games) {
  unit_begin("batches with repetition_limit");
  th_error e;
  static sh_state s;
  long long beyond = 0, stalemates = 0, played = 0;
  for (int mode = 0; mode < 2; mode++) {
    if (!mine(mode)) continue;
    sh_batch b;
    memset(&b, 0, sizeof b);
    sh_rules_preset(SH_PRESET_THREES, &b.rules);
    b.rules.repetition_limit = 3;
    b.num_players = 4;
    b.dealer = -1;
    for (int q = 0; q < 4; q++) b.policies[q] = (uint8_t)(mode ? q % 3 : SH_POLICY_RANDOM);
    b.seed = 5u + (uint64_t)mode;
    b.n = games;
    int8_t *pl[2];
    uint32_t *mv[2];
    uint8_t *tr[2], *sm[2];
    for (int t = 0; t < 2; t++) {
      pl[t] = (int8_t *)malloc((size_t)games * 4);
      mv[t] = (uint32_t *)malloc((size_t)games * sizeof(uint32_t));
      tr[t] = (uint8_t *)malloc((size_t)games);
      sm[t] = (uint8_t *)malloc((size_t)games);
      if (!pl[t] || !mv[t] || !tr[t] || !sm[t]) abort();
      b.places = pl[t];
      b.moves = mv[t];
      b.truncated = tr[t];
      b.stalemate = sm[t];
      CHECK(sh_rollouts(&b, t + 1, &e) == TH_OK, "threads %d: %s", t + 1, e.msg);
    }
    CHECK(memcmp(mv[0], mv[1], (size_t)games * 4) == 0 && memcmp(sm[0], sm[1], (size_t)games) == 0,
          "1 and 2 threads differ");
    sh_rep_log log;
    sh_rep_log_init(&log);
    for (int64_t i = 0; i < games; i++) {
      uint32_t moves, ring_moves;
      CHECK(sh_batch_play_game(&b, i, NULL, &s, &moves, &log) == 0, "game %lld alone", (long long)i);
      CHECK(s.rep_log == NULL, "the log is detached after the game");
      CHECK(moves == mv[0][i] && s.stalemate == sm[0][i], "game %lld alone differs from the batch", (long long)i);
      stalemates += s.stalemate;
      int st = s.stalemate;
      CHECK(sh_batch_play_game(&b, i, NULL, &s, &ring_moves, NULL) == 0, "game %lld, ring alone", (long long)i);
      CHECK(ring_moves >= moves, "the ring alone ends game %lld earlier than the exact count", (long long)i);
      beyond += ring_moves != moves || s.stalemate != st;
      played++;
    }
    sh_rep_log_free(&log);
    for (int t = 0; t < 2; t++) {
      free(pl[t]);
      free(mv[t]);
      free(tr[t]);
      free(sm[t]);
    }
  }
  if (played >= 100) CHECK(beyond > 0, "no game needed the log: the test no longer reaches long stretches");
  unit_end("%lld games, %lld stalemates, %lld decided beyond the ring", played, stalemates, beyond);
}

static void unit_batches(long long reps) {
  unit_begin("sh_rollouts threads 1 vs 2");
  th_error e;
  static sh_state st;
  long long batches = 0;
  for (long long i = 0; i < reps; i++) {
    if (!mine(i)) continue;
    th_rng g;
    th_rng_seed(&g, UINT64_C(0xBA7C4) + (uint64_t)i * 104729u);
    sh_batch b;
    memset(&b, 0, sizeof b);
    int players;
    if (i % 4 == 3) {
      random_valid_rules(&g, &b.rules, &players);
    } else {
      sh_rules_preset((int)(i % 3), &b.rules);
      if (i % 8 == 1) b.rules.cards_per_zone = 2;
      players = range(&g, 2, sh_rules_max_players(&b.rules));
    }
    c_players = players;
    c_game = i;
    b.num_players = players;
    b.dealer = below(&g, 2) ? -1 : range(&g, 0, players - 1);
    b.max_moves = below(&g, 4) ? 0 : (uint32_t)range(&g, 1, 500);
    for (int q = 0; q < SH_MAX_PLAYERS; q++) b.policies[q] = (uint8_t)(i % 5 < 3 ? i % 5 : below(&g, 3));
    b.seed = th_rng_next(&g);
    c_seed = b.seed;
    int from_state = below(&g, 3) == 0;
    if (from_state) {
      sh_state_deal(&st, &b.rules, players, b.dealer, b.max_moves, b.seed ^ 77u, NULL);
      int steps = (int)below(&g, 120);
      for (int k = 0; k < steps && st.phase != SH_PHASE_OVER; k++) sh_policy_step(&st, SH_POLICY_RANDOM, &g);
      if (st.phase == SH_PHASE_OVER) from_state = 0;
    }
    b.start = from_state ? &st : NULL;
    int64_t n = range(&g, 0, 48);
    b.n = n;
    size_t np = (size_t)n * (size_t)players;
    int8_t *pl[3];
    uint32_t *mv[3];
    uint8_t *tr[3];
    int threads[3] = {1, 2, 3};
    for (int t = 0; t < 3; t++) {
      pl[t] = (int8_t *)malloc(np ? np : 1);
      mv[t] = (uint32_t *)malloc(n ? (size_t)n * sizeof(uint32_t) : 1);
      tr[t] = (uint8_t *)malloc(n ? (size_t)n : 1);
      if (!pl[t] || !mv[t] || !tr[t]) abort();
      memset(pl[t], 0x55, np ? np : 1);
      b.places = pl[t];
      b.moves = mv[t];
      b.truncated = tr[t];
      c_what = "sh_rollouts";
      int rc = sh_rollouts(&b, threads[t], &e);
      CHECK(rc == TH_OK, "threads %d: %s", threads[t], e.msg);
    }
    batches++;
    t_games_batch += 3 * n;
    CHECK(memcmp(pl[0], pl[1], np) == 0 && memcmp(mv[0], mv[1], (size_t)n * 4) == 0 && memcmp(tr[0], tr[1], (size_t)n) == 0,
          "sh_rollouts with 1 and 2 threads differ (n %lld, %s)", (long long)n, from_state ? "from a state" : "fresh deals");
    CHECK(memcmp(pl[0], pl[2], np) == 0 && memcmp(mv[0], mv[2], (size_t)n * 4) == 0 && memcmp(tr[0], tr[2], (size_t)n) == 0,
          "sh_rollouts with 1 and 3 threads differ");
    /* Game j of the batch is sh_rollout of th_batch_seed/th_batch_rng j. */
    for (int64_t j = 0; j < n; j++) {
      sh_state s;
      th_rng rng;
      if (from_state)
        copy_state(&s, &st);
      else
        sh_state_deal(&s, &b.rules, players, b.dealer, b.max_moves, th_batch_seed(b.seed, (uint64_t)j), NULL);
      uint32_t start = s.move_count;
      th_batch_rng(b.seed, (uint64_t)j, &rng);
      uint32_t m = sh_rollout(&s, b.policies, &rng);
      int8_t want[SH_MAX_PLAYERS];
      for (int q = 0; q < players; q++) want[q] = -1;
      for (int k = 0; k < s.num_out; k++) want[s.finish[k]] = (int8_t)k;
      CHECK(m == mv[0][j] && m == s.move_count - start && tr[0][j] == s.truncated &&
                memcmp(want, pl[0] + j * players, (size_t)players) == 0,
            "batch game %lld differs from its single rollout", (long long)j);
      for (int q = 0; q < players; q++) {
        int8_t v = pl[0][j * players + q];
        CHECK(v >= -1 && v < players);
      }
    }
    for (int t = 0; t < 3; t++) {
      free(pl[t]);
      free(mv[t]);
      free(tr[t]);
    }
  }
  /* Bad arguments (part 0 only). */
  if (g_part == 0) {
    c_what = "sh_rollouts bad arguments";
    sh_batch b;
    memset(&b, 0, sizeof b);
    sh_rules_preset(SH_PRESET_THREES, &b.rules);
    b.num_players = 4;
    b.dealer = -1;
    int8_t pl[4 * 4];
    uint32_t mv[4];
    uint8_t tr[4];
    b.places = pl;
    b.moves = mv;
    b.truncated = tr;
    b.n = 4;
    int bad_threads[] = {0, -1, TH_MAX_THREADS + 1, INT_MIN, INT_MAX};
    for (size_t k = 0; k < sizeof bad_threads / sizeof bad_threads[0]; k++)
      CHECK(sh_rollouts(&b, bad_threads[k], &e) == TH_ERR_ARG, "threads %d", bad_threads[k]);
    CHECK(sh_rollouts(&b, TH_MAX_THREADS, &e) == TH_OK, "%s", e.msg); /* more threads than games */
    b.n = -1;
    CHECK(sh_rollouts(&b, 1, &e) == TH_ERR_ARG);
    b.n = 0;
    CHECK(sh_rollouts(&b, 2, &e) == TH_OK);
    b.n = 4;
    b.policies[2] = SH_NUM_POLICIES;
    CHECK(sh_rollouts(&b, 1, &e) == TH_ERR_ARG);
    b.policies[2] = 255;
    CHECK(sh_rollouts(&b, 2, &e) == TH_ERR_ARG);
    b.policies[2] = 0;
    b.num_players = 13;
    CHECK(sh_rollouts(&b, 1, &e) != TH_OK);
    b.num_players = 1;
    CHECK(sh_rollouts(&b, 1, &e) != TH_OK);
    b.num_players = 4;
    b.dealer = 4;
    CHECK(sh_rollouts(&b, 1, &e) != TH_OK);
    b.dealer = -1;
    b.rules.decks = 0;
    CHECK(sh_rollouts(&b, 1, &e) == TH_ERR_RULES);
    sh_rules_preset(SH_PRESET_THREES, &b.rules);
    /* a corrupted start state is rejected */
    sh_state_deal(&st, &b.rules, 4, -1, 0, 5, NULL);
    st.seat[0].hand_len++;
    b.start = &st;
    CHECK(sh_rollouts(&b, 2, &e) == TH_ERR_SETUP);
    st.seat[0].hand_len--;
    CHECK(sh_rollouts(&b, 2, &e) == TH_OK, "%s", e.msg);
  }
  unit_end("%lld batches (x3 thread counts), %lld batch games", batches, t_games_batch);
}

/* Batches with a stop hook (sh_batch.stop, tt_batch.stop, th_run_parts):
 * a hook that never says stop changes no game and is only ever called on the
 * calling thread; one that says stop ends the batch early with
 * TH_ERR_STOPPED, for every thread count, the all-random path included, and
 * leaves the start state unchanged. */
typedef struct counting_stop {
  long calls, stop_at; /* stop_at < 0: never */
  uintptr_t caller;
  int foreign; /* calls from another thread */
} counting_stop;

static int counting_should_stop(void *ctx) {
  counting_stop *c = (counting_stop *)ctx;
  if (th_thread_token() != c->caller) c->foreign++;
  c->calls++;
  return c->stop_at >= 0 && c->calls >= c->stop_at;
}

static void unit_batch_stops(long long reps) {
  unit_begin("batches with a stop hook");
  th_error e;
  static sh_state st, copy;
  long long batches = 0, stopped = 0;
  for (long long i = 0; i < reps; i++) {
    if (!mine(i)) continue;
    th_rng g;
    th_rng_seed(&g, UINT64_C(0x5709) + (uint64_t)i * 7919u);
    sh_batch b;
    memset(&b, 0, sizeof b);
    sh_rules_preset((int)(i % 3), &b.rules);
    int players = range(&g, 2, 6);
    if (players == 6 && i % 3) b.rules.cards_per_zone = 2;
    c_players = players;
    c_game = i;
    b.num_players = players;
    b.dealer = -1;
    b.max_moves = (uint32_t)range(&g, 200, 3000); /* games that reach the cap ask the hook mid-game */
    for (int q = 0; q < SH_MAX_PLAYERS; q++) b.policies[q] = (uint8_t)(i % 2 ? below(&g, 3) : SH_POLICY_RANDOM);
    b.seed = th_rng_next(&g);
    if (below(&g, 2)) {
      sh_state_deal(&st, &b.rules, players, -1, 100000, b.seed ^ 99u, NULL);
      b.start = &st;
    }
    enum { N = 24 };
    int8_t pl[2][N * SH_MAX_PLAYERS];
    uint32_t mv[2][N];
    uint8_t tr[2][N];
    b.n = N;
    int threads = 1 + (int)(i % 3);
    counting_stop never = {0, -1, th_thread_token(), 0};
    th_stop hook = {counting_should_stop, &never};
    for (int k = 0; k < 2; k++) {
      b.places = pl[k];
      b.moves = mv[k];
      b.truncated = tr[k];
      b.stop = k ? &hook : NULL;
      CHECK(sh_rollouts(&b, threads, &e) == TH_OK, "%s", e.msg);
    }
    CHECK(memcmp(pl[0], pl[1], (size_t)N * (size_t)players) == 0 && memcmp(mv[0], mv[1], sizeof mv[0]) == 0 &&
              memcmp(tr[0], tr[1], sizeof tr[0]) == 0,
          "a hook that never stops changed the games (threads %d)", threads);
    CHECK(never.foreign == 0, "the hook was called on another thread %d times", never.foreign);
    /* a hook that says stop on its first call: a batch far too long to finish */
    if (b.start) copy = st;
    counting_stop early = {0, 1, th_thread_token(), 0};
    th_stop hook2 = {counting_should_stop, &early};
    b.stop = &hook2;
    b.n = 1;
    b.max_moves = 50000000;
    if (b.start) st.max_moves = 50000000;
    /* one game of up to 5e7 moves per call, 6 calls: unstopped, minutes at worst */
    int rc = TH_OK;
    for (int k = 0; k < 6 && rc == TH_OK; k++) {
      early.calls = 0;
      b.seed++;
      rc = sh_rollouts(&b, threads, &e);
      CHECK(rc == TH_OK || early.calls >= 1, "stopped without asking");
    }
    if (b.start) {
      st.max_moves = 100000;
      copy.max_moves = 100000;
      CHECK(memcmp(&st, &copy, sizeof st) == 0, "the start state changed");
    }
    CHECK(early.foreign == 0, "the hook was called on another thread");
    stopped += rc == TH_ERR_STOPPED;
    batches++;
  }
  /* a batch of many games stops early too, on every thread count */
  for (int threads = 1; threads <= 3; threads++)
    for (int pol = 0; pol < SH_NUM_POLICIES; pol++) {
      sh_batch b;
      memset(&b, 0, sizeof b);
      sh_rules_preset(SH_PRESET_THREES, &b.rules);
      b.num_players = 4;
      b.dealer = -1;
      for (int q = 0; q < 4; q++) b.policies[q] = (uint8_t)pol;
      static int8_t pl[100000 * 4];
      static uint32_t mv[100000];
      static uint8_t tr[100000];
      b.places = pl;
      b.moves = mv;
      b.truncated = tr;
      b.n = 100000;
      counting_stop c = {0, 3, th_thread_token(), 0};
      th_stop hook = {counting_should_stop, &c};
      b.stop = &hook;
      double t0 = now_seconds();
      CHECK(sh_rollouts(&b, threads, &e) == TH_ERR_STOPPED, "policy %d, threads %d: not stopped", pol, threads);
      CHECK(now_seconds() - t0 < 2.0, "policy %d, threads %d: took %.2f s to stop", pol, threads, now_seconds() - t0);
      CHECK(c.foreign == 0, "the hook was called on another thread");
      tt_options o;
      tt_options_default(3, &o);
      static tt_state ts;
      tt_new_game(&ts, &o, 3, (uint64_t)threads, 0, NULL);
      tt_batch tb;
      memset(&tb, 0, sizeof tb);
      static int32_t tot[100000 * 3];
      static double ret[100000 * 3];
      tb.start = &ts;
      tb.fresh = 1;
      tb.policies[0] = tb.policies[1] = tb.policies[2] = (uint8_t)(pol % TT_NUM_POLICIES);
      tb.n = 100000;
      tb.totals = tot;
      tb.returns = ret;
      tb.moves = mv;
      tb.truncated = tr;
      counting_stop c2 = {0, 3, th_thread_token(), 0};
      th_stop hook3 = {counting_should_stop, &c2};
      tb.stop = &hook3;
      t0 = now_seconds();
      CHECK(tt_rollouts(&tb, threads, &e) == TH_ERR_STOPPED, "Three Thirteen, threads %d: not stopped", threads);
      CHECK(now_seconds() - t0 < 2.0, "Three Thirteen, threads %d: took %.2f s to stop", threads, now_seconds() - t0);
      CHECK(c2.foreign == 0, "the hook was called on another thread");
    }
  c_game = -1;
  unit_end("%lld batches with a hook that never stops (the same games), %lld stopped mid-game", batches, stopped);
}

/* ------------------------------------------------------------------ main -- */

static int add_config(config *cfgs, int nc, const char *name, const sh_rules *r, int players, long long games) {
  config *c = &cfgs[nc];
  memset(c, 0, sizeof *c);
  snprintf(c->name, sizeof c->name, "%s %dp", name, players);
  c->rules = *r;
  c->players = players;
  c->games = scaled(games);
  return nc + 1;
}

/* Events (shithead/events.h, three_thirteen/events.h) after every move of
 * random games under sanitizers: the list never overflows, every event's
 * seat and cards are in range, the cards of a play match the action, a
 * pick-up lists the pile, the out events follow the finishing order, and
 * the game-over event comes exactly when the game ends. */
static void unit_events(long long games) {
  unit_begin("events of both games");
  static sh_state s, b;
  static tt_state ts, tb;
  static th_events ev;
  uint16_t legal[SH_MAX_DISTINCT_ACTIONS];
  th_rng g;
  th_rng_seed(&g, UINT64_C(0xE7E7));
  long long moves = 0, events = 0;
  static const int presets[3] = {SH_PRESET_THREES, SH_PRESET_CLASSIC, SH_PRESET_DUTCH};
  for (long long i = 0; i < games; i++) {
    if (!mine(i)) continue;
    sh_rules r;
    sh_rules_preset(presets[i % 3], &r);
    int n = range(&g, 2, 5);
    th_error e;
    CHECK(sh_state_deal(&s, &r, n, 0, 3000, (uint64_t)i, &e) == TH_OK, "%s", e.msg);
    while (s.phase != SH_PHASE_OVER) {
      int nl = sh_legal_actions(&s, legal);
      int a = legal[below(&g, (uint32_t)nl)];
      sh_move m;
      sh_state_decode_action(&s, a, &m);
      memcpy(&b, &s, sizeof b);
      CHECK(sh_apply_action(&s, a, &e) == TH_OK, "%s", e.msg);
      sh_events(&b, &s, a, &ev);
      moves++;
      events += ev.n;
      CHECK(!ev.overflow && ev.n > 0, "move %d: %d events, overflow %d", a, ev.n, ev.overflow);
      int outs = 0, over = 0;
      for (int k = 0; k < ev.n; k++) {
        const th_event *x = &ev.ev[k];
        CHECK(x->kind < SH_NUM_EVENT_KINDS, "event kind %d", x->kind);
        CHECK(x->seat == TH_EVENT_NO_SEAT || x->seat < n, "event seat %d", x->seat);
        for (int c = 0; c < x->count; c++) CHECK(x->cards[c] < SH_NUM_KINDS, "event card %d", x->cards[c]);
        if (x->kind == SH_EV_PLAY) CHECK(x->count == m.count && x->seat == b.current, "play of %d lists %d", m.count, x->count);
        if (x->kind == SH_EV_PICKUP) CHECK(x->count >= b.pile_len, "pick-up of %d lists %d", b.pile_len, x->count);
        if (x->kind == SH_EV_OUT) {
          CHECK(x->seat == s.finish[b.num_out + outs] && x->value == b.num_out + outs + 1, "out event");
          outs++;
        }
        over += x->kind == SH_EV_OVER;
      }
      CHECK(outs == s.num_out - b.num_out, "%d out events for %d seats out", outs, s.num_out - b.num_out);
      CHECK(over == (s.phase == SH_PHASE_OVER), "game-over event");
    }
  }
  for (long long i = 0; i < games / 4 + 1; i++) {
    if (!mine(i)) continue;
    tt_options o;
    int n = range(&g, 2, 5);
    tt_options_default(n, &o);
    o.jokers = (uint8_t)below(&g, 3);
    th_error e;
    CHECK(tt_new_game(&ts, &o, n, (uint64_t)i, 4000, &e) == TH_OK, "%s", e.msg);
    while (ts.phase != TT_PHASE_OVER) {
      int nl = tt_legal_actions(&ts, legal);
      int a = legal[nl - 1 - (int)below(&g, (uint32_t)(nl > 2 ? 2 : nl))]; /* go out when it can, mostly */
      memcpy(&tb, &ts, sizeof tb);
      CHECK(tt_apply_action(&ts, a, &e) == TH_OK, "%s", e.msg);
      tt_events(&tb, &ts, a, &ev);
      moves++;
      events += ev.n;
      CHECK(!ev.overflow && ev.n > 0, "move %d: %d events, overflow %d", a, ev.n, ev.overflow);
      int scores = 0, over = 0;
      for (int k = 0; k < ev.n; k++) {
        const th_event *x = &ev.ev[k];
        CHECK(x->kind < TT_NUM_EVENT_KINDS, "event kind %d", x->kind);
        CHECK(x->seat == TH_EVENT_NO_SEAT || x->seat < n, "event seat %d", x->seat);
        int melded = 0;
        for (int j = 0; j < x->num_melds; j++) melded += x->meld_len[j];
        CHECK(melded <= x->count && x->count <= TT_MAX_HAND, "melds of %d cards in %d", melded, x->count);
        for (int c = 0; c < x->count; c++) CHECK(x->cards[c] < TT_NUM_KINDS, "event card %d", x->cards[c]);
        if (x->kind == TT_EV_GO_OUT) CHECK(melded == x->count, "going out with deadwood");
        if (x->kind == TT_EV_SCORE) {
          CHECK(x->value == tt_round_score(&ts, tb.round, x->seat), "score event");
          scores++;
        }
        over += x->kind == TT_EV_OVER;
      }
      CHECK(scores == 0 || scores == n, "%d score events", scores);
      CHECK(over == (ts.phase == TT_PHASE_OVER), "game-over event");
    }
  }
  unit_end("%lld moves, %lld events", moves, events);
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    int got = harness_arg(argc, argv, &i);
    if (got < 0) return 2;
    if (got) continue;
    if (!strcmp(argv[i], "--probe-every") && i + 1 < argc) {
      g_probe_every = atoi(argv[++i]);
      if (g_probe_every < 0) g_probe_every = 0;
    } else {
      fprintf(stderr, "usage: %s [--part K/P] [--scale X] [--probe-every N] [--quiet]\n", argv[0]);
      return 2;
    }
  }
  double t0 = now_seconds();
  printf("threes-core C engine test, part %d/%d, scale %g\n", g_part, g_nparts, g_scale);

  static config cfgs[64];
  int nc = 0;
  sh_rules r, base;
  /* the presets at every player count they seat */
  sh_rules_preset(SH_PRESET_THREES, &base);
  for (int n = 2; n <= 12; n++) nc = add_config(cfgs, nc, "threes", &base, n, n <= 6 ? 2000 : 1200);
  const char *pn[3] = {"threes", "classic", "dutch"};
  for (int p = 1; p <= 2; p++) {
    sh_rules_preset(p, &base);
    for (int n = 2; n <= 5; n++) nc = add_config(cfgs, nc, pn[p], &base, n, p == 1 ? 9500 : 1000); /* dutch games are 5x longer */
    r = base;
    r.cards_per_zone = 2;
    for (int n = 6; n <= 8; n++) nc = add_config(cfgs, nc, p == 1 ? "classic cpz2" : "dutch cpz2", &r, n, p == 1 ? 6000 : 800);
  }
  /* custom rule sets */
  sh_rules_preset(SH_PRESET_THREES, &r);
  r.merge_hand_with_face_up = 1;
  nc = add_config(cfgs, nc, "threes merge", &r, 4, 2000);
  sh_rules_preset(SH_PRESET_CLASSIC, &r);
  r.merge_hand_with_face_up = 1;
  nc = add_config(cfgs, nc, "classic merge", &r, 3, 3000);
  sh_rules_preset(SH_PRESET_CLASSIC, &r);
  r.burner_plays_again = 0;
  nc = add_config(cfgs, nc, "classic no-burner-again", &r, 4, 3000);
  sh_rules_preset(SH_PRESET_CLASSIC, &r);
  r.pickup_then_play = 1;
  nc = add_config(cfgs, nc, "classic pickup-then-play", &r, 4, 2000);
  sh_rules_preset(SH_PRESET_DUTCH, &r);
  r.pickup_then_play = 0;
  nc = add_config(cfgs, nc, "dutch no-pickup-then-play", &r, 4, 1200);
  sh_rules_preset(SH_PRESET_THREES, &r);
  r.invisible_in_runs = SH_RUNS_BREAK;
  nc = add_config(cfgs, nc, "threes invisible-break", &r, 5, 1500);
  sh_rules_preset(SH_PRESET_CLASSIC, &r);
  r.invisible_in_runs = SH_RUNS_SKIP;
  nc = add_config(cfgs, nc, "classic invisible-skip", &r, 4, 3000);
  sh_rules_preset(SH_PRESET_DUTCH, &r);
  r.lower_strict = 0;
  nc = add_config(cfgs, nc, "dutch lower-not-strict", &r, 4, 1000);
  sh_rules_preset(SH_PRESET_CLASSIC, &r);
  r.lower_strict = 1;
  nc = add_config(cfgs, nc, "classic lower-strict", &r, 3, 3000);
  sh_rules_preset(SH_PRESET_CLASSIC, &r);
  r.decks = 3;
  r.jokers = 1;
  r.merge_hand_with_face_up = 1;
  nc = add_config(cfgs, nc, "classic 3 decks 1 joker merge", &r, 8, 1500);
  sh_rules_preset(SH_PRESET_THREES, &r);
  r.decks = 4;
  r.jokers = 1;
  nc = add_config(cfgs, nc, "threes 4 decks 1 joker", &r, 12, 800);
  sh_rules_preset(SH_PRESET_THREES, &r);
  r.decks = 4;
  r.cards_per_zone = 5;
  r.run_to_burn = 2;
  nc = add_config(cfgs, nc, "threes 4 decks cpz5 run2", &r, 6, 800);
  sh_rules_preset(SH_PRESET_DUTCH, &r);
  r.cards_per_zone = 1;
  r.burner_plays_again = 0;
  r.pickup_then_play = 0;
  nc = add_config(cfgs, nc, "dutch cpz1 no-again", &r, 12, 1500);
  sh_rules_preset(SH_PRESET_CLASSIC, &r);
  r.wild = 0;
  r.burn = 0;
  r.run_to_burn = 0;
  r.invisible = 0;
  r.start = SH_START_RANK_FROM_DEALER;
  r.num_start_ranks = 0;
  nc = add_config(cfgs, nc, "classic no powers", &r, 3, 800);
  cfgs[nc - 1].cap = 1500; /* without powers most random games never end */
  sh_rules_preset(SH_PRESET_THREES, &r);
  r.lower = (uint16_t)(SH_ALL_RANKS_MASK);
  r.invisible = (uint16_t)((1u << 1) | (1u << 6) | (1u << 13));
  r.run_to_burn = 3;
  r.jokers = 2;
  r.decks = 3;
  nc = add_config(cfgs, nc, "threes all lower, 3 invisible", &r, 7, 800);
  cfgs[nc - 1].cap = 1500;
  /* a fresh random valid rule set for every game */
  {
    config *c = &cfgs[nc++];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "random rule sets");
    c->random_rules = 1;
    c->cap = 2000;
    c->games = scaled(5000);
  }

  if (g_part == 0) unit_api_basics();
  unit_random_policy_rng(60); /* every part needs g_pickup_draws; part 0 reports */
  if (g_part == 0) unit_swap_choice(scaled(400));
  if (g_part == 1 || g_nparts == 1) unit_uniform_play(scaled(200000));
  if (g_part == 1 || g_nparts == 1) unit_tag_matches(scaled(100000));
  if (g_part == 1 || g_nparts == 1) unit_portable_bits(scaled(100000));
  unit_imperfect_information(scaled(600));
  unit_rank_counts(scaled(200));
  unit_events(scaled(60));
  for (int i = 0; i < nc; i++) run_config(&cfgs[i], i);
  unit_setup_garbage(scaled(8000));
  unit_setup_roundtrip(scaled(2000));
  unit_random_positions(scaled(1000));
  unit_rules_fuzz(scaled(10000));
  if (g_part == 0) unit_rep_log(scaled(60));
  unit_batch_repetitions(scaled(150));
  unit_batches(scaled(300));
  unit_batch_stops(scaled(60));

  double t1 = now_seconds();
  long long config_games = t_games_checked + t_games_rollout;
  long long games = config_games + t_games_positions + t_games_fuzz_rules;
  printf("games played: %lld (%lld through the checked API, %lld through rollouts; %lld from random positions, %lld "
         "with fuzzed rule sets; plus %lld batch games)\n",
         games, t_games_checked, t_games_rollout, t_games_positions, t_games_fuzz_rules, t_games_batch);
  printf("games ended normally: %lld; truncated at the move cap: %lld (%lld of them at deliberately small caps)\n",
         games - t_truncated - t_truncated_other, t_truncated + t_truncated_other, t_capped);
  printf("moves played in the configurations: %lld\n", t_moves);
  printf("checks: %lld, failed checks: %lld; %.1f s\n", g_checks, g_failed_checks, t1 - t0);
  printf("%d passed, %d failed\n", g_units_passed, g_units_failed);
  return g_units_failed || g_failed_checks ? 1 : 0;
}
