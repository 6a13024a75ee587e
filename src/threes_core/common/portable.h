/* portable.h - the compiler-specific corners of the C core, in one guarded
 * header (internal).
 *
 * Everything else in src/threes_core is ISO C11 (gcc and clang build it
 * with -Wall -Wextra -Wpedantic -std=c11 and no warning) and uses these
 * names instead of compiler extensions:
 *
 *   th_ctz32, th_ctz64, th_clz32  count trailing/leading zero bits (the
 *                                 argument must not be 0)
 *   th_bswap64                    reverse the bytes of a word
 *   TH_LIKELY, TH_UNLIKELY        branch hints (no effect without GCC/Clang)
 *   TH_ALWAYS_INLINE              `static inline`, forced where supported
 *   TH_PRINTF(f, a)               printf format checking
 *   TH_CONSTRUCTOR(fn)            `static void fn(void)`, run when the
 *                                 library is loaded (before any state exists)
 *   TH_CLOBBER(p)                 the compiler must assume *p was read and
 *                                 written (a benchmark's copy is not elided)
 *   TH_HAVE_U128, th_u128         a 128-bit unsigned type, where there is one
 *
 * Each has a GCC/Clang version, an MSVC version and, for the bit counts, a
 * portable one (bounded loops), so the same results come from every
 * compiler: tests/c/test_engine.c checks the compiler's and the portable ones
 * agree.
 */
#ifndef THREES_COMMON_PORTABLE_H
#define THREES_COMMON_PORTABLE_H

#include <stdint.h>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#include <stdlib.h>
#endif

/* The portable bit counts: always compiled, the reference of the others. */
static inline int th_ctz64_portable(uint64_t x) {
  int n = 0;
  for (int i = 0; i < 64 && !(x & 1u); i++, x >>= 1) n++;
  return n;
}
static inline int th_ctz32_portable(uint32_t x) { return th_ctz64_portable((uint64_t)x | (UINT64_C(1) << 32)); }
static inline int th_clz32_portable(uint32_t x) {
  int n = 0;
  for (int i = 0; i < 32 && !(x & UINT32_C(0x80000000)); i++, x <<= 1) n++;
  return n;
}
static inline uint64_t th_bswap64_portable(uint64_t x) {
  uint64_t y = 0;
  for (int i = 0; i < 8; i++, x >>= 8) y = (y << 8) | (x & 0xFFu);
  return y;
}

#if defined(__GNUC__) || defined(__clang__)
static inline int th_ctz32(uint32_t x) { return __builtin_ctz(x); }
static inline int th_ctz64(uint64_t x) { return __builtin_ctzll(x); }
static inline int th_clz32(uint32_t x) { return __builtin_clz(x); }
static inline uint64_t th_bswap64(uint64_t x) { return __builtin_bswap64(x); }
#define TH_LIKELY(c) __builtin_expect(!!(c), 1)
#define TH_UNLIKELY(c) __builtin_expect(!!(c), 0)
#define TH_ALWAYS_INLINE static inline __attribute__((always_inline))
#define TH_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define TH_CONSTRUCTOR(fn) __attribute__((constructor)) static void fn(void)
#define TH_CLOBBER(p) __asm__ __volatile__("" : : "r"(p) : "memory")
#elif defined(_MSC_VER)
static inline int th_ctz32(uint32_t x) {
  unsigned long i;
  _BitScanForward(&i, x);
  return (int)i;
}
static inline int th_clz32(uint32_t x) {
  unsigned long i;
  _BitScanReverse(&i, x);
  return 31 - (int)i;
}
#if defined(_M_X64) || defined(_M_ARM64)
static inline int th_ctz64(uint64_t x) {
  unsigned long i;
  _BitScanForward64(&i, x);
  return (int)i;
}
#else
static inline int th_ctz64(uint64_t x) {
  return (uint32_t)x ? th_ctz32((uint32_t)x) : 32 + th_ctz32((uint32_t)(x >> 32));
}
#endif
static inline uint64_t th_bswap64(uint64_t x) { return _byteswap_uint64(x); }
#define TH_LIKELY(c) (c)
#define TH_UNLIKELY(c) (c)
#define TH_ALWAYS_INLINE static __forceinline
#define TH_PRINTF(f, a)
#define TH_CLOBBER(p) _ReadWriteBarrier()
/* A pointer in the C runtime's initializer section: the MSVC way of a
 * function run when the library loads. */
#pragma section(".CRT$XCU", read)
#if defined(_M_IX86)
#define TH_C_SYMBOL_PREFIX "_" /* 32-bit x86 decorates C names with an underscore */
#else
#define TH_C_SYMBOL_PREFIX ""
#endif
/* fn##_at_load has external linkage (the linker's /include keeps it in a
 * static library): each constructor's name must be unique in the library. */
#define TH_CONSTRUCTOR(fn)                                                                \
  static void fn(void);                                                                  \
  __declspec(allocate(".CRT$XCU")) void (*fn##_at_load)(void) = fn;                      \
  __pragma(comment(linker, "/include:" TH_C_SYMBOL_PREFIX #fn "_at_load")) static void fn(void)
#else
#error "threes-core builds with GCC, Clang or MSVC (TH_CONSTRUCTOR needs one of them)"
#endif

#if defined(__SIZEOF_INT128__)
#define TH_HAVE_U128 1
#if defined(__GNUC__) || defined(__clang__)
__extension__ typedef unsigned __int128 th_u128;
#else
typedef unsigned __int128 th_u128;
#endif
#endif

/* A little-endian reading of the host's words, so that results on byte
 * rows are the same on every platform. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define TH_BIG_ENDIAN 1
#endif

#endif
