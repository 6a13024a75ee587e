/* batch.h - seeds of the games of a batch, shared by every game.
 *
 * Game i of a batch seeded with `seed` is dealt from th_batch_seed(seed, i)
 * and plays its chance and policy stream from th_batch_rng(seed, i): a pure
 * function of (seed, i), so a batch gives the same games whatever the number
 * of threads, the chunking or the machine.
 */
#ifndef THREES_COMMON_BATCH_H
#define THREES_COMMON_BATCH_H

#include <stdint.h>

#include "common/game.h"
#include "common/rng.h"

#define TH_MAX_THREADS 256

/* The rng a batch gives game i (after dealing with th_batch_seed(seed, i)). */
void th_batch_rng(uint64_t seed, uint64_t i, th_rng *rng);

/* The seed of game i of a batch seeded with `seed`. */
uint64_t th_batch_seed(uint64_t seed, uint64_t i);

/* Plays games [0, n) of a batch on `threads` native threads (1..TH_MAX_THREADS;
 * at most n are used): part t gets games [n*t/threads, n*(t+1)/threads) and
 * calls part(ctx, lo, hi, stop); the calling thread plays part 0 and a part
 * whose thread cannot start is played on the calling thread too. Which games
 * a part holds never changes a game, so results do not depend on the thread
 * count.
 *
 * Stopping: with `stop` NULL, every part gets stop NULL and runs to its end.
 * Otherwise parts get a hook to ask (th_stop_now) at least every
 * TH_STOP_MOVES moves of a game: on the calling thread it asks `stop` itself
 * (so a hook that must run on the calling thread, such as Python's signal
 * check, is only ever called there); on the other threads it reads a flag the
 * calling thread sets once `stop` has said stop. Once its own part is done,
 * the calling thread keeps asking `stop` about every millisecond until the
 * other parts are done. A part told to stop returns early, leaving its games'
 * results unspecified. Returns 1 when `stop` said stop, else 0. */
/* 0 when threads is in 1..TH_MAX_THREADS, else TH_ERR_ARG with e set: the
 * check of every game's batch entry point. */
int th_check_threads(int threads, th_error *e);

typedef void (*th_part_fn)(const void *ctx, int64_t lo, int64_t hi, const th_stop *stop);
int th_run_parts(th_part_fn part, const void *ctx, int64_t n, int threads, const th_stop *stop);

#endif
