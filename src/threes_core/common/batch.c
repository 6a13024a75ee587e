/* batch.c - see batch.h. */
#include "common/batch.h"

uint64_t th_batch_seed(uint64_t seed, uint64_t i) {
  uint64_t x = seed ^ (i * UINT64_C(0xD1B54A32D192ED03));
  th_splitmix64(&x);
  return th_splitmix64(&x);
}

void th_batch_rng(uint64_t seed, uint64_t i, th_rng *rng) {
  th_rng_seed(rng, th_batch_seed(seed, i) ^ UINT64_C(0x5851F42D4C957F2D));
}
