/* batch.c - see batch.h. */
#include "common/batch.h"

#include <stdatomic.h>

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
