/* simd.h - where the C core chooses between its SIMD and portable code
 * (internal). The one place that decides:
 *
 *   TH_HAVE_SSE2  1 when the target has SSE2 (every x86-64: gcc and clang
 *                 define __SSE2__, MSVC _M_X64 or _M_IX86_FP >= 2) and the
 *                 build did not ask for the portable code (-DTHREES_NO_SIMD,
 *                 CMake option THREES_NO_SIMD).
 *
 * A function with a SIMD version has a portable twin that is always compiled
 * (the only one on aarch64 and everything else), and the SIMD version is
 * compiled only under TH_HAVE_SSE2. tests/c/test_engine.c checks each pair
 * agrees on many inputs, and tests/c/run_cross.sh checks a -DTHREES_NO_SIMD
 * build and an aarch64 build play the same games as the SSE2 build. */
#ifndef THREES_COMMON_SIMD_H
#define THREES_COMMON_SIMD_H

#if !defined(THREES_NO_SIMD) && \
    (defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2))
#define TH_HAVE_SSE2 1
#include <emmintrin.h>
#endif

#endif
