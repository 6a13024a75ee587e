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

#include "common/rng.h"

#define TH_MAX_THREADS 256

/* The rng a batch gives game i (after dealing with th_batch_seed(seed, i)). */
void th_batch_rng(uint64_t seed, uint64_t i, th_rng *rng);

/* The seed of game i of a batch seeded with `seed`. */
uint64_t th_batch_seed(uint64_t seed, uint64_t i);

#endif
