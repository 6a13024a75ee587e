/* rng.c - splitmix64 and xoshiro256**; see rng.h. */
#include "common/rng.h"

/* th_splitmix64 and th_rng_seed are inline in rng.h (a vector env seeds an
 * rng for every policy move); these are their out-of-line copies. */
extern inline uint64_t th_splitmix64(uint64_t *x);
extern inline void th_rng_seed(th_rng *r, uint64_t seed);

