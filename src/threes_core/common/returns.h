/* returns.h - places and returns, the same for every game.
 *
 * Place k (0 = best) among n players is worth (n-1-2k)/(n-1): +1 for the
 * winner, -1 for the last, zero-sum (docs/shithead/RULES.md section 7; Three
 * Thirteen ranks by totals the same way). Seats that share places (equal
 * totals, or the seats still in when a game is truncated) each get the mean
 * value of the places they share.
 */
#ifndef THREES_COMMON_RETURNS_H
#define THREES_COMMON_RETURNS_H

#include <stdint.h>

/* The value of a (possibly shared, so fractional) place among n >= 2 players. */
static inline double th_place_value(double place, int n) { return (n - 1 - 2 * place) / (double)(n - 1); }

/* Returns from rank keys: seat q's place counts the seats with a lower key,
 * and seats with equal keys share their places. n >= 2; out gets n values. */
void th_returns_from_keys(const int32_t *key, int n, double *out);

#endif
