/* rank_rows.h - small bit tricks on rows of 16 per-rank counts (internal).
 *
 * A row (hand_rank[p], up_rank[p]) is read as two little-endian 64-bit words,
 * byte r = the count of rank r, so every result is the same on every
 * platform. Counts and their sums never exceed the deck (< 256).
 */
#ifndef THREES_SHITHEAD_RANK_ROWS_H
#define THREES_SHITHEAD_RANK_ROWS_H

#include <stdint.h>
#include <string.h>

#include "shithead/cards.h"
#include "common/portable.h"
#include "common/rng.h"
#include "common/simd.h"

/* Bit r set when counts[r] != 0, for the 16 counts of a row (SWAR: the row is
 * read as two little-endian words, so the result is the same everywhere). */
static inline uint64_t load_le64(const uint8_t *b) {
  uint64_t x;
  memcpy(&x, b, 8);
#ifdef TH_BIG_ENDIAN
  x = th_bswap64(x);
#endif
  return x;
}

static inline unsigned nonzero_bytes8(uint64_t x) {
  const uint64_t lo7 = UINT64_C(0x7F7F7F7F7F7F7F7F);
  uint64_t y = (((x & lo7) + lo7) | x) & ~lo7; /* high bit of every nonzero byte */
  return (unsigned)(((y >> 7) * UINT64_C(0x0102040810204080)) >> 56);
}

/* 0xFF in byte i for every bit i of an 8-bit mask. */
static inline uint64_t byte_mask8(unsigned b) {
  uint64_t x = ((uint64_t)(b & 0xFF) * UINT64_C(0x0101010101010101)) & UINT64_C(0x8040201008040201);
  const uint64_t lo7 = UINT64_C(0x7F7F7F7F7F7F7F7F);
  x = (((x & lo7) + lo7) | x) & ~lo7; /* high bit of every nonzero byte */
  return (x >> 7) * 0xFF;
}

static inline uint16_t present_mask(const uint8_t *counts) {
  return (uint16_t)((nonzero_bytes8(load_le64(counts)) | (nonzero_bytes8(load_le64(counts + 8)) << 8)) &
                    SH_ALL_RANKS_MASK);
}

/* row[r] += add[r] for the 16 counts of a row (no byte overflows: the sums
 * are counts of cards, below 256). */
static inline void add_rows(uint8_t *row, const uint8_t *add) {
  uint64_t a = load_le64(row) + load_le64(add), b = load_le64(row + 8) + load_le64(add + 8);
#ifdef TH_BIG_ENDIAN
  a = th_bswap64(a);
  b = th_bswap64(b);
#endif
  memcpy(row, &a, 8);
  memcpy(row + 8, &b, 8);
}

static inline int popcount64(uint64_t x) {
  x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
  x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
  x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
  return (int)((x * UINT64_C(0x0101010101010101)) >> 56);
}


/* Bit i set when tags[i] == t, for 64 tags (the repetition ring's,
 * state.c): the portable SWAR version and the SSE2 one, which
 * tests/c/test_engine.c checks against each other and a loop. */
static inline uint64_t sh_tag_matches64_swar(const uint8_t *tags, uint8_t t) {
  uint64_t m = 0;
  for (int i = 0; i < 8; i++)
    m |= (uint64_t)(~nonzero_bytes8(load_le64(tags + 8 * i) ^ (t * UINT64_C(0x0101010101010101))) & 0xFFu) << (8 * i);
  return m;
}

#ifdef TH_HAVE_SSE2
static inline uint64_t sh_tag_matches64_sse2(const uint8_t *tags, uint8_t t) {
  uint64_t m = 0;
  __m128i v = _mm_set1_epi8((char)t);
  for (int i = 0; i < 4; i++) {
    __m128i eq = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(tags + 16 * i)), v);
    m |= (uint64_t)(uint16_t)_mm_movemask_epi8(eq) << (16 * i);
  }
  return m;
}
#endif

/* Uniform over the plays (rank r with bytes of mask (mlo, mhi) set, count 1..
 * counts[r]) in action-id order, branch-free: draws k = below(total) and
 * returns the k-th play; total 0 means there is none (nothing drawn then).
 * Exactly legal_actions()[below(n)] when no merge is possible. */
#ifdef TH_HAVE_SSE2
#define SH_HAVE_SSE2_PLAY 1
/* SSE2 (every x86-64): the same function on one 16-byte vector. Prefix sums
 * by shifted adds; the chosen rank is the first whose prefix sum is >= k+1
 * (an unsigned compare: max(x, y) == x); `before` sums the counts of the
 * ranks before it. Sums stay below 256 (the deck). tests/c/test_engine.c
 * checks it against the portable version below. */
static inline int sh_uniform_play_sse2(const uint8_t *counts, uint64_t mlo, uint64_t mhi, th_rng *rng,
                                        int *rank_out, int *count_out) {
  const __m128i zero = _mm_setzero_si128();
  __m128i v = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)counts),
                            _mm_set_epi64x((long long)mhi, (long long)mlo));
  __m128i sad = _mm_sad_epu8(v, zero);
  int total = _mm_cvtsi128_si32(sad) + _mm_extract_epi16(sad, 4);
  if (total == 0) return 0;
  __m128i pre = _mm_add_epi8(v, _mm_slli_si128(v, 1));
  pre = _mm_add_epi8(pre, _mm_slli_si128(pre, 2));
  pre = _mm_add_epi8(pre, _mm_slli_si128(pre, 4));
  pre = _mm_add_epi8(pre, _mm_slli_si128(pre, 8));
  int k = (int)th_rng_below(rng, (uint32_t)total);
  __m128i k1 = _mm_set1_epi8((char)(k + 1));
  __m128i reached = _mm_cmpeq_epi8(_mm_max_epu8(pre, k1), pre); /* pre >= k+1 */
  int rank = th_ctz32((unsigned)_mm_movemask_epi8(reached) | 0x10000u);
  __m128i bsad = _mm_sad_epu8(_mm_andnot_si128(reached, v), zero);
  int before = _mm_cvtsi128_si32(bsad) + _mm_extract_epi16(bsad, 4);
  *rank_out = rank;
  *count_out = k - before + 1;
  return total;
}

#endif
/* Portable: 64-bit words as vectors of bytes (SWAR). */
static inline int sh_uniform_play_swar(const uint8_t *counts, uint64_t mlo, uint64_t mhi, th_rng *rng,
                                        int *rank_out, int *count_out) {
  const uint64_t ones = UINT64_C(0x0101010101010101);
  uint64_t lo = load_le64(counts) & mlo, hi = load_le64(counts + 8) & mhi;
  uint64_t plo = lo * ones, phi = hi * ones + (plo >> 56) * ones; /* prefix sums, bytewise */
  int total = (int)(phi >> 56);
  if (total == 0) return 0;
  int k = (int)th_rng_below(rng, (uint32_t)total);
  /* Lane j of each word below holds one prefix sum in 16 bits; adding
   * 0x8000 - (k+1) sets its top bit exactly when the sum is >= k+1. The sums
   * grow with the rank, so in each of the four words the lanes with the top
   * bit clear come first: trailing zeros count them (a sentinel caps at 4). */
  const uint64_t even = UINT64_C(0x00FF00FF00FF00FF), top = UINT64_C(0x8000800080008000);
  const uint64_t sentinel = UINT64_C(1) << 63;
  uint64_t add = (uint64_t)(0x8000 - (k + 1)) * UINT64_C(0x0001000100010001);
  uint64_t e0 = (((plo & even) + add) & top) >> 15, o0 = ((((plo >> 8) & even) + add) & top) >> 15;
  uint64_t e1 = (((phi & even) + add) & top) >> 15, o1 = ((((phi >> 8) & even) + add) & top) >> 15;
  int rank = ((th_ctz64(e0 | sentinel) + 1) >> 4) + ((th_ctz64(o0 | sentinel) + 1) >> 4) +
             ((th_ctz64(e1 | sentinel) + 1) >> 4) + ((th_ctz64(o1 | sentinel) + 1) >> 4);
  /* The plays before the chosen rank: the counts of the ranks whose prefix
   * sum is <= k (top bit clear), summed bytewise (in parallel with rank). */
  const uint64_t lanes = UINT64_C(0x0001000100010001);
  uint64_t below_lo = (((e0 ^ lanes) & lanes) * 0xFF) | ((((o0 ^ lanes) & lanes) * 0xFF) << 8);
  uint64_t below_hi = (((e1 ^ lanes) & lanes) * 0xFF) | ((((o1 ^ lanes) & lanes) * 0xFF) << 8);
  int before = (int)((((lo & below_lo) * ones) >> 56) + (((hi & below_hi) * ones) >> 56));
  *rank_out = rank;
  *count_out = k - before + 1;
  return total;
}

static inline int sh_uniform_play_bytes(const uint8_t *counts, uint64_t mlo, uint64_t mhi, th_rng *rng,
                                        int *rank_out, int *count_out) {
#ifdef SH_HAVE_SSE2_PLAY
  return sh_uniform_play_sse2(counts, mlo, mhi, rng, rank_out, count_out);
#else
  return sh_uniform_play_swar(counts, mlo, mhi, rng, rank_out, count_out);
#endif
}

/* The same for a 14-bit rank mask m (which must leave at least one play). */
static inline void sh_uniform_play(const uint8_t *counts, uint16_t m, th_rng *rng, int *rank_out, int *count_out) {
  sh_uniform_play_bytes(counts, byte_mask8(m & 0xFF), byte_mask8(m >> 8), rng, rank_out, count_out);
}

#endif
