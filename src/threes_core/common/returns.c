/* returns.c - see returns.h. */
#include "common/returns.h"

void th_returns_from_keys(const int32_t *key, int n, double *out) {
  for (int q = 0; q < n; q++) {
    int below = 0, equal = 0; /* seats with a lower key, and with the same key (q included) */
    for (int r = 0; r < n; r++) {
      below += key[r] < key[q];
      equal += key[r] == key[q];
    }
    out[q] = th_place_value(below + (equal - 1) / 2.0, n); /* the mean of the shared places */
  }
}
