/* check.h - the CHECK macro of the generic C test programs (test_ismcts.c,
 * test_vector.c): counts checks and failures, prints the first 30 failures
 * with their line. Include it once, in the program's one source file. */
#ifndef THREES_TESTS_CHECK_H
#define THREES_TESTS_CHECK_H

#include <stdio.h>

static long long g_checks = 0, g_failed = 0;

#define CHECK(cond, ...)                                    \
  do {                                                      \
    g_checks++;                                             \
    if (!(cond)) {                                          \
      g_failed++;                                           \
      if (g_failed <= 30) {                                 \
        printf("FAIL line %d: %s -- ", __LINE__, #cond);    \
        printf(__VA_ARGS__);                                \
        printf("\n");                                       \
      }                                                     \
    }                                                       \
  } while (0)

#endif
