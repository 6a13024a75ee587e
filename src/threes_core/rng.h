/* rng.h - the engine's own pseudo-random number generator.
 *
 * xoshiro256** (Blackman and Vigna, 2018), seeded from one 64-bit seed through
 * splitmix64. Both are defined on exact 64-bit unsigned arithmetic, so the same
 * seed gives the same stream on every platform and compiler. The C library's
 * rand() is never used.
 *
 * th_rng_below(n) maps one output to [0, n) by multiply-shift on its high 32
 * bits: no rejection loop (so every call takes bounded time) and a bias below
 * n / 2^32, under 6e-8 for the deck sizes used here.
 */
#ifndef THREES_RNG_H
#define THREES_RNG_H

#include <stdint.h>

typedef struct th_rng {
  uint64_t s[4];
} th_rng;

/* One step of splitmix64: advances *x and returns the next output. */
uint64_t th_splitmix64(uint64_t *x);

/* Seeds the four words of xoshiro256** from splitmix64(seed). */
void th_rng_seed(th_rng *r, uint64_t seed);

/* The next 64-bit output of xoshiro256**. */
uint64_t th_rng_next(th_rng *r);

/* A number in [0, n), 1 <= n <= 2^32. */
uint32_t th_rng_below(th_rng *r, uint32_t n);

#endif
