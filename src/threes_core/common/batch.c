/* batch.c - see batch.h. */
#include "common/batch.h"

#include <stdatomic.h>
#include <string.h>

#include "common/thread.h"

uint64_t th_batch_seed(uint64_t seed, uint64_t i) {
  uint64_t x = seed ^ (i * UINT64_C(0xD1B54A32D192ED03));
  th_splitmix64(&x);
  return th_splitmix64(&x);
}

void th_batch_rng(uint64_t seed, uint64_t i, th_rng *rng) {
  th_rng_seed(rng, th_batch_seed(seed, i) ^ UINT64_C(0x5851F42D4C957F2D));
}

int th_check_threads(int threads, th_error *e) {
  if (threads >= 1 && threads <= TH_MAX_THREADS) return TH_OK;
  th_set_error(e, TH_ERR_ARG, "threads must be between 1 and %d, not %d", TH_MAX_THREADS, threads);
  return TH_ERR_ARG;
}

/* The stop of one th_run_parts call: the caller's hook, asked on the
 * calling thread only, and the flag every other thread reads. */
typedef struct {
  const th_stop *caller;
  atomic_int stopped; /* 1 once `caller` said stop */
  atomic_int done;    /* parts on other threads that have returned */
} parts_stop;

/* The hook of the calling thread's parts: asks the caller's hook (once it
 * said stop, the answer stays stop). */
static int ask_caller(void *ctx) {
  parts_stop *ps = (parts_stop *)ctx;
  if (atomic_load_explicit(&ps->stopped, memory_order_relaxed)) return 1;
  if (!th_stop_now(ps->caller)) return 0;
  atomic_store_explicit(&ps->stopped, 1, memory_order_relaxed);
  return 1;
}

/* The hook of the other threads' parts: reads the flag. */
static int read_flag(void *ctx) {
  return atomic_load_explicit(&((parts_stop *)ctx)->stopped, memory_order_relaxed);
}

typedef struct {
  th_part_fn fn;
  const void *ctx;
  int64_t lo, hi;
  const th_stop *stop; /* read_flag's hook, or NULL */
  parts_stop *ps;      /* NULL without a stop */
} batch_part;

static void part_main(void *arg) {
  batch_part *part = (batch_part *)arg;
  part->fn(part->ctx, part->lo, part->hi, part->stop);
  if (part->ps) atomic_fetch_add_explicit(&part->ps->done, 1, memory_order_release);
}

/* The calling thread, its own part done, waits for the `started` parts on
 * other threads, asking the caller's hook about every millisecond. Bounded:
 * every part ends (at the latest when told to stop, and parts are bounded
 * anyway). */
static void wait_asking(parts_stop *ps, int started) {
  while (atomic_load_explicit(&ps->done, memory_order_acquire) < started) {
    (void)ask_caller(ps);
    th_sleep_ms(1);
  }
}

int th_run_parts(th_part_fn fn, const void *ctx, int64_t n, int threads, const th_stop *stop) {
  parts_stop ps;
  th_stop on_caller = {ask_caller, &ps}, on_worker = {read_flag, &ps};
  ps.caller = stop;
  atomic_init(&ps.stopped, 0);
  atomic_init(&ps.done, 0);
  const th_stop *own = stop ? &on_caller : NULL, *other = stop ? &on_worker : NULL;
  if (threads > TH_MAX_THREADS) threads = TH_MAX_THREADS;
  if (threads > n) threads = n > 0 ? (int)n : 1;
  if (threads <= 1) {
    fn(ctx, 0, n, own);
    return stop ? atomic_load(&ps.stopped) : 0;
  }
  th_thread threads_of[TH_MAX_THREADS];
  batch_part parts[TH_MAX_THREADS];
  int started = 0;
  for (int t = 0; t < threads; t++) {
    parts[t].fn = fn;
    parts[t].ctx = ctx;
    parts[t].lo = n * t / threads;
    parts[t].hi = n * (t + 1) / threads;
    parts[t].stop = other;
    parts[t].ps = stop ? &ps : NULL;
    if (t == 0) continue; /* the calling thread plays part 0 */
    if (th_thread_start(&threads_of[t], part_main, &parts[t]) != 0) {
      fn(ctx, parts[t].lo, parts[t].hi, own); /* could not start: play it here */
      parts[t].hi = parts[t].lo;
    } else {
      started++;
    }
  }
  fn(ctx, parts[0].lo, parts[0].hi, own);
  if (stop) wait_asking(&ps, started);
  for (int t = 1; t < threads; t++)
    if (parts[t].hi > parts[t].lo) th_thread_join(&threads_of[t]);
  return stop ? atomic_load(&ps.stopped) : 0;
}

/* ----------------------------------------------- any game's batch (th_play_games) -- */

typedef struct {
  const th_play_batch *b;
  int num_players;
  atomic_int failed; /* a game could not be resampled (the caller's check makes it never happen) */
} play_ctx;

/* Plays one game from `s` with the batch's policies; returns the moves
 * played, or UINT32_MAX when the stop hook said stop. Bounded: every game
 * ends by its own move cap, and the loop stops at UINT32_MAX - 1 moves. */
static uint32_t play_one(const th_game *g, void *s, const uint8_t *policy, th_rng *rng, const th_stop *stop) {
  uint32_t m = 0;
  while (!g->is_over(s) && m < UINT32_MAX - 1) {
    if ((m % TH_STOP_MOVES) == TH_STOP_MOVES - 1 && th_stop_now(stop)) return UINT32_MAX;
    g->apply_legal(s, g->policy_action(s, policy[g->current_player(s)], rng));
    m++;
  }
  return m;
}

static void play_part(const void *ctx, int64_t lo, int64_t hi, const th_stop *stop) {
  play_ctx *c = (play_ctx *)ctx; /* only `failed` is written, atomically */
  const th_play_batch *b = c->b;
  const th_game *g = b->game;
  int n = c->num_players;
  uint8_t s[TH_MAX_STATE_BYTES];
  th_rng rng;
  th_error e;
  for (int64_t i = lo; i < hi; i++) {
    uint64_t k = (uint64_t)(b->first + i);
    if (b->fresh) {
      g->new_game(s, b->start, th_batch_seed(b->seed, k));
    } else {
      memcpy(s, b->start, g->state_bytes(b->start));
    }
    th_batch_rng(b->seed, k, &rng);
    if (b->observer >= 0 && g->resample(s, b->observer, &rng, &e) != TH_OK) {
      atomic_store(&c->failed, 1);
      return;
    }
    uint32_t m = play_one(g, s, b->policy, &rng, stop);
    if (m == UINT32_MAX) return; /* told to stop */
    g->returns(s, b->returns + i * n);
    b->moves[i] = m;
    b->truncated[i] = (uint8_t)(g->is_truncated(s) != 0);
  }
}

int th_play_games(const th_play_batch *b, int threads, const th_stop *stop, th_error *e) {
  const th_game *g = b->game;
  if (th_check_threads(threads, e) != TH_OK) return TH_ERR_ARG;
  if (g->check(b->start, e) != TH_OK) return TH_ERR_SETUP;
  int n = g->num_players(b->start);
  if (b->n < 0 || b->first < 0 || b->first > INT64_MAX - b->n) {
    th_set_error(e, TH_ERR_ARG, "games %lld .. %lld of a batch are out of range", (long long)b->first,
                 (long long)b->n);
    return TH_ERR_ARG;
  }
  if (b->observer >= n || (b->fresh && b->observer >= 0)) {
    th_set_error(e, TH_ERR_ARG, "observer %d is not a seat to resample from here", b->observer);
    return TH_ERR_ARG;
  }
  for (int q = 0; q < n; q++) {
    if (b->policy[q] >= g->num_policies) {
      th_set_error(e, TH_ERR_ARG, "policy %d of seat %d is not one of the game's %d", b->policy[q], q,
                   g->num_policies);
      return TH_ERR_ARG;
    }
  }
  if (!b->fresh && g->is_over(b->start) == 0 && g->current_player(b->start) == TH_TERMINAL_PLAYER) {
    th_set_error(e, TH_ERR_SETUP, "the start state has no seat to move");
    return TH_ERR_SETUP;
  }
  if (b->observer >= 0) { /* a state the game cannot resample fails here, before any thread starts */
    uint8_t s[TH_MAX_STATE_BYTES];
    th_rng rng;
    memcpy(s, b->start, g->state_bytes(b->start));
    th_batch_rng(b->seed, (uint64_t)b->first, &rng);
    if (g->resample(s, b->observer, &rng, e) != TH_OK) return TH_ERR_SETUP;
  }
  play_ctx c;
  c.b = b;
  c.num_players = n;
  atomic_init(&c.failed, 0);
  if (b->n == 0) return TH_OK;
  if (th_run_parts(play_part, &c, b->n, threads, stop)) {
    th_set_error(e, TH_ERR_STOPPED, "stopped");
    return TH_ERR_STOPPED;
  }
  if (atomic_load(&c.failed)) {
    th_set_error(e, TH_ERR_SETUP, "a game of the batch could not be resampled from seat %d's view", b->observer);
    return TH_ERR_SETUP;
  }
  return TH_OK;
}
