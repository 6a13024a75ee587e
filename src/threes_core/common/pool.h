/* pool.h - a persistent pool of native threads for work that is short and
 * repeated (a vector env's step: about a millisecond, thousands of times a
 * second), where starting threads on every call (th_run_parts) would cost
 * more than the work.
 *
 * th_pool_run hands [0, n) out in chunks, to the calling thread and the
 * pool's workers alike (each takes the next chunk when it is done with one),
 * and returns when every item is done. Which thread runs an item never
 * changes the item's result, so results do not depend on the thread count or
 * on timing.
 *
 * A pool is made once (th_pool_new allocates it and starts its workers) and
 * used from one calling thread at a time; nothing is allocated per run. A
 * worker that cannot start is replaced by the calling thread (its part runs
 * there), so a run always completes.
 */
#ifndef THREES_COMMON_POOL_H
#define THREES_COMMON_POOL_H

#include <stdint.h>

#include "common/batch.h"
#include "common/error.h"

typedef struct th_pool th_pool;

/* A pool of `threads` (1..TH_MAX_THREADS) threads in all, the caller's
 * included (threads - 1 workers); NULL with e set on a bad count or when
 * memory runs out. */
th_pool *th_pool_new(int threads, th_error *e);

/* Stops and joins the workers and frees the pool (NULL: nothing). */
void th_pool_free(th_pool *pool);

/* The thread count the pool was made with (1 for NULL). */
int th_pool_threads(const th_pool *pool);

/* part(ctx, lo, hi, NULL) for chunks [lo, hi) that cover [0, n) once; a NULL
 * pool runs it all on the calling thread as one chunk. */
void th_pool_run(th_pool *pool, th_part_fn part, const void *ctx, int64_t n);

#endif
