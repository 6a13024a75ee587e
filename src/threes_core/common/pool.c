/* pool.c - see pool.h.
 *
 * A run is published by raising `generation`; every started worker takes
 * part in every run (one that finds no chunk left just reports back), so the
 * caller returns only once every worker has read the run, and the next run's
 * fields are never written while a worker reads them. The items are handed
 * out in chunks from an atomic counter, the caller taking its share too: a
 * worker that wakes late or runs slower (a virtual CPU the host shares) takes
 * fewer chunks instead of holding the caller up. Workers spin a bounded
 * while (a step of a vector env is often shorter than a thread's wake-up)
 * before sleeping on a condition variable. */
#include "common/pool.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "common/thread.h"

#define POOL_RELAX() th_cpu_relax()

/* Spins before sleeping: about 50-100 microseconds. */
#define POOL_SPINS 20000

typedef struct {
  th_pool *pool;
  int index; /* the part this worker runs: 1..threads-1 */
  int started;
  th_thread thread;
} pool_worker;

struct th_pool {
  int threads;
  int on_workers; /* workers that started */
  th_mutex lock;
  th_cond go;   /* a new run (or the end) for the workers */
  th_cond done; /* the last worker of a run has finished */
  atomic_uint_fast64_t generation; /* raised by every run */
  atomic_int quit;
  atomic_int pending; /* workers not yet done with the current run */
  int sleepers;       /* workers waiting on `go` (under lock) */
  /* The current run: written by th_pool_run before it raises generation,
   * read by the workers after they see it raised. */
  th_part_fn fn;
  const void *ctx;
  int64_t n, chunk;
  atomic_int_fast64_t next; /* the first item no thread has taken yet */
  pool_worker workers[TH_MAX_THREADS];
};

/* Takes chunks of the current run until none is left. */
static void take_chunks(th_pool *p, th_part_fn fn, const void *ctx, int64_t n, int64_t chunk) {
  for (;;) {
    int64_t lo = atomic_fetch_add_explicit(&p->next, chunk, memory_order_relaxed);
    if (lo >= n) return;
    fn(ctx, lo, lo + chunk < n ? lo + chunk : n, NULL);
  }
}

static void worker_main(void *arg) {
  pool_worker *w = (pool_worker *)arg;
  th_pool *p = w->pool;
  uint64_t seen = 0;
  for (;;) {
    uint64_t g = atomic_load_explicit(&p->generation, memory_order_acquire);
    for (int spin = 0; g == seen && spin < POOL_SPINS && !atomic_load_explicit(&p->quit, memory_order_relaxed);
         spin++) {
      POOL_RELAX();
      g = atomic_load_explicit(&p->generation, memory_order_acquire);
    }
    if (g == seen) {
      th_mutex_lock(&p->lock);
      p->sleepers++;
      while (!atomic_load(&p->quit) && (g = atomic_load(&p->generation)) == seen) th_cond_wait(&p->go, &p->lock);
      p->sleepers--;
      th_mutex_unlock(&p->lock);
    }
    if (atomic_load(&p->quit)) break;
    seen = g;
    take_chunks(p, p->fn, p->ctx, p->n, p->chunk);
    if (atomic_fetch_sub_explicit(&p->pending, 1, memory_order_acq_rel) == 1) {
      th_mutex_lock(&p->lock);
      th_cond_signal(&p->done);
      th_mutex_unlock(&p->lock);
    }
  }
}

th_pool *th_pool_new(int threads, th_error *e) {
  if (th_check_threads(threads, e)) return NULL;
  th_pool *p = (th_pool *)calloc(1, sizeof *p);
  if (!p) {
    th_set_error(e, TH_ERR_MEMORY, "out of memory for a thread pool");
    return NULL;
  }
  p->threads = threads;
  atomic_init(&p->generation, 0);
  atomic_init(&p->quit, 0);
  atomic_init(&p->pending, 0);
  atomic_init(&p->next, 0);
  th_mutex_init(&p->lock);
  th_cond_init(&p->go);
  th_cond_init(&p->done);
  for (int t = 1; t < threads; t++) {
    pool_worker *w = &p->workers[t];
    w->pool = p;
    w->index = t;
    w->started = th_thread_start(&w->thread, worker_main, w) == 0;
    p->on_workers += w->started;
  }
  return p;
}

void th_pool_free(th_pool *p) {
  if (!p) return;
  th_mutex_lock(&p->lock);
  atomic_store(&p->quit, 1);
  th_cond_broadcast(&p->go);
  th_mutex_unlock(&p->lock);
  for (int t = 1; t < p->threads; t++)
    if (p->workers[t].started) th_thread_join(&p->workers[t].thread);
  th_cond_destroy(&p->done);
  th_cond_destroy(&p->go);
  th_mutex_destroy(&p->lock);
  free(p);
}

int th_pool_threads(const th_pool *p) { return p ? p->threads : 1; }

void th_pool_run(th_pool *p, th_part_fn fn, const void *ctx, int64_t n) {
  if (!p || p->on_workers == 0 || n < 2) {
    if (n > 0) fn(ctx, 0, n, NULL);
    return;
  }
  /* about 8 chunks per thread, at least 4 items each */
  int64_t chunk = n / (8 * (int64_t)p->threads);
  p->fn = fn;
  p->ctx = ctx;
  p->n = n;
  p->chunk = chunk < 4 ? 4 : chunk;
  atomic_store_explicit(&p->next, 0, memory_order_relaxed);
  atomic_store_explicit(&p->pending, p->on_workers, memory_order_relaxed);
  th_mutex_lock(&p->lock);
  atomic_fetch_add_explicit(&p->generation, 1, memory_order_release);
  if (p->sleepers) th_cond_broadcast(&p->go);
  th_mutex_unlock(&p->lock);
  take_chunks(p, fn, ctx, n, p->chunk); /* a worker that never started leaves its share here */
  for (int spin = 0; spin < POOL_SPINS && atomic_load_explicit(&p->pending, memory_order_acquire) > 0; spin++)
    POOL_RELAX();
  if (atomic_load_explicit(&p->pending, memory_order_acquire) > 0) {
    th_mutex_lock(&p->lock);
    while (atomic_load(&p->pending) > 0) th_cond_wait(&p->done, &p->lock);
    th_mutex_unlock(&p->lock);
  }
}
