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
#ifndef THREES_COMMON_RNG_H
#define THREES_COMMON_RNG_H

#include <stdint.h>

typedef struct th_rng {
  uint64_t s[4];
} th_rng;

/* One step of splitmix64: advances *x and returns the next output. */
inline uint64_t th_splitmix64(uint64_t *x) {
  uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

/* Seeds the four words of xoshiro256** from splitmix64(seed). */
inline void th_rng_seed(th_rng *r, uint64_t seed) {
  uint64_t x = seed;
  for (int i = 0; i < 4; i++) r->s[i] = th_splitmix64(&x);
}

static inline uint64_t th_rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* The next 64-bit output of xoshiro256**. */
static inline uint64_t th_rng_next(th_rng *r) {
  uint64_t *s = r->s;
  const uint64_t result = th_rotl64(s[1] * 5, 7) * 9;
  const uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = th_rotl64(s[3], 45);
  return result;
}

/* A number in [0, n), 1 <= n <= 2^32. */
static inline uint32_t th_rng_below(th_rng *r, uint32_t n) {
  uint64_t hi = th_rng_next(r) >> 32;
  return (uint32_t)((hi * (uint64_t)n) >> 32);
}

/* Fisher-Yates shuffle of n bytes: for i = n-1 down to 1, a[i] swaps with
 * a[below(i + 1)]. Every order is equally likely (up to below's bias). */
static inline void th_shuffle_bytes(uint8_t *a, int n, th_rng *r) {
  for (int i = n - 1; i > 0; i--) {
    int j = (int)th_rng_below(r, (uint32_t)(i + 1));
    uint8_t t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

#endif
