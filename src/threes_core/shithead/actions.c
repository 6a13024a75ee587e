/* actions.c - encoding and decoding of action ids; see actions.h. */
#include "shithead/actions.h"

#include <string.h>

static int binom(int n, int k) {
  if (k < 0 || k > n) return 0;
  long v = 1;
  for (int i = 1; i <= k; i++) v = v * (n - k + i) / i; /* exact at every step */
  return (int)v;
}

/* MULTICHOOSE[n][k] = C(n+k-1, k) for n <= 14 ranks and k <= SH_MAX_CPZ. */
const uint16_t sh_multichoose_table[SH_NUM_RANKS + 1][SH_MAX_CPZ + 1] = {
    {1, 0, 0, 0, 0, 0},
    {1, 1, 1, 1, 1, 1},
    {1, 2, 3, 4, 5, 6},
    {1, 3, 6, 10, 15, 21},
    {1, 4, 10, 20, 35, 56},
    {1, 5, 15, 35, 70, 126},
    {1, 6, 21, 56, 126, 252},
    {1, 7, 28, 84, 210, 462},
    {1, 8, 36, 120, 330, 792},
    {1, 9, 45, 165, 495, 1287},
    {1, 10, 55, 220, 715, 2002},
    {1, 11, 66, 286, 1001, 3003},
    {1, 12, 78, 364, 1365, 4368},
    {1, 13, 91, 455, 1820, 6188},
    {1, 14, 105, 560, 2380, 8568}};

/* sh_swap_skip[rem][x] = sum of sh_multichoose(14 - y, rem) for y < x: how far
 * the lexicographic index moves when the next rank chosen is x instead of 0. */
const uint16_t sh_swap_skip[SH_MAX_CPZ + 1][SH_NUM_RANKS + 1] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14},
    {0, 14, 27, 39, 50, 60, 69, 77, 84, 90, 95, 99, 102, 104, 105},
    {0, 105, 196, 274, 340, 395, 440, 476, 504, 525, 540, 550, 556, 559, 560},
    {0, 560, 1015, 1379, 1665, 1885, 2050, 2170, 2254, 2310, 2345, 2365, 2375, 2379, 2380},
    {0, 2380, 4200, 5565, 6566, 7281, 7776, 8106, 8316, 8442, 8512, 8547, 8562, 8567, 8568},
    {0, 8568, 14756, 19124, 22127, 24129, 25416, 26208, 26670, 26922, 27048, 27104, 27125, 27131, 27132}};

int sh_multichoose(int n, int k) {
  if (k == 0) return 1;
  if (n <= 0) return 0;
  if (n <= SH_NUM_RANKS && k <= SH_MAX_CPZ) return sh_multichoose_table[n][k];
  return binom(n + k - 1, k);
}

int sh_num_swap_choices(const sh_rules *r) { return sh_multichoose(SH_NUM_RANKS, r->cards_per_zone); }

int sh_num_distinct_actions(const sh_rules *r) { return sh_first_swap_action(r) + sh_num_swap_choices(r); }

int sh_swap_index(const uint8_t *ranks, int k) {
  int idx = 0, lo = 0;
  for (int i = 0; i < k; i++) {
    for (int x = lo; x < ranks[i]; x++) idx += sh_multichoose(SH_NUM_RANKS - x, k - i - 1);
    lo = ranks[i];
  }
  return idx;
}

void sh_swap_ranks(int index, int k, uint8_t *ranks) {
  int lo = 0;
  for (int i = 0; i < k; i++) {
    int x = lo;
    for (; x < SH_NUM_RANKS - 1; x++) {
      int c = sh_multichoose(SH_NUM_RANKS - x, k - i - 1);
      if (index < c) break;
      index -= c;
    }
    ranks[i] = (uint8_t)x;
    lo = x;
  }
}

int sh_decode_action(const sh_rules *r, int a, sh_move *m) {
  memset(m, 0, sizeof *m);
  if (a < 0 || a >= sh_num_distinct_actions(r)) return TH_ERR_ACTION;
  int C = sh_copies_per_rank(r);
  if (a < sh_first_blind_action(r)) {
    m->kind = SH_MOVE_PLAY;
    m->rank = (uint8_t)(a / C);
    m->count = (uint8_t)(a % C + 1);
  } else if (a < sh_pickup_action(r)) {
    m->kind = SH_MOVE_BLIND;
    m->slot = (uint8_t)(a - sh_first_blind_action(r));
  } else if (a == sh_pickup_action(r)) {
    m->kind = SH_MOVE_PICKUP;
  } else {
    m->kind = SH_MOVE_SWAP;
    m->count = r->cards_per_zone;
    sh_swap_ranks(a - sh_first_swap_action(r), r->cards_per_zone, m->face_up);
  }
  return TH_OK;
}

int sh_encode_move(const sh_rules *r, const sh_move *m) {
  switch (m->kind) {
    case SH_MOVE_PLAY:
      if (m->rank >= SH_NUM_RANKS || m->count < 1 || m->count > sh_copies_per_rank(r)) return -1;
      return sh_play_action(r, m->rank, m->count);
    case SH_MOVE_BLIND:
      if (m->slot >= r->cards_per_zone) return -1;
      return sh_first_blind_action(r) + m->slot;
    case SH_MOVE_PICKUP:
      return sh_pickup_action(r);
    case SH_MOVE_SWAP: {
      int k = r->cards_per_zone;
      for (int i = 0; i < k; i++) {
        if (m->face_up[i] >= SH_NUM_RANKS) return -1;
        if (i > 0 && m->face_up[i] < m->face_up[i - 1]) return -1;
      }
      return sh_first_swap_action(r) + sh_swap_index(m->face_up, k);
    }
    default:
      return -1;
  }
}
