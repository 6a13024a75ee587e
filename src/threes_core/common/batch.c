/* batch.c - see batch.h. */
#include "common/batch.h"

#include <pthread.h>

uint64_t th_batch_seed(uint64_t seed, uint64_t i) {
  uint64_t x = seed ^ (i * UINT64_C(0xD1B54A32D192ED03));
  th_splitmix64(&x);
  return th_splitmix64(&x);
}

void th_batch_rng(uint64_t seed, uint64_t i, th_rng *rng) {
  th_rng_seed(rng, th_batch_seed(seed, i) ^ UINT64_C(0x5851F42D4C957F2D));
}

typedef struct {
  th_part_fn fn;
  const void *ctx;
  int64_t lo, hi;
} batch_part;

static void *part_main(void *arg) {
  batch_part *part = (batch_part *)arg;
  part->fn(part->ctx, part->lo, part->hi);
  return NULL;
}

void th_run_parts(th_part_fn fn, const void *ctx, int64_t n, int threads) {
  if (threads > TH_MAX_THREADS) threads = TH_MAX_THREADS;
  if (threads > n) threads = n > 0 ? (int)n : 1;
  if (threads <= 1) {
    fn(ctx, 0, n);
    return;
  }
  pthread_t tid[TH_MAX_THREADS];
  batch_part parts[TH_MAX_THREADS];
  for (int t = 0; t < threads; t++) {
    parts[t].fn = fn;
    parts[t].ctx = ctx;
    parts[t].lo = n * t / threads;
    parts[t].hi = n * (t + 1) / threads;
    if (t == 0) continue; /* the calling thread plays part 0 */
    if (pthread_create(&tid[t], NULL, part_main, &parts[t]) != 0) {
      fn(ctx, parts[t].lo, parts[t].hi); /* could not start: play it here */
      parts[t].hi = parts[t].lo;
    }
  }
  fn(ctx, parts[0].lo, parts[0].hi);
  for (int t = 1; t < threads; t++)
    if (parts[t].hi > parts[t].lo) pthread_join(tid[t], NULL);
}
