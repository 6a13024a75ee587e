/* test_meld.c - checks tt_min_deadwood, tt_min_deadwood_drop_one and tt_zero_deadwood_drop_one (meld.h)
 * against an exhaustive search.
 *
 * Build and run (from the repository root; CMake builds it as threes_meld_test
 * with -DTHREES_BUILD_C_TESTS=ON, and tests/c/run_sanitizers.sh runs it):
 *   gcc -O2 -Wall -Wextra -std=c11 -fsanitize=address,undefined -Isrc/threes_core \
 *       -o test_meld tests/c/test_meld.c src/threes_core/three_thirteen/meld.c \
 *       src/threes_core/common/error.c -lm && ./test_meld
 * Options: --hands N (random hands of 3..12 cards, default 20000, each solved
 * under all 8 option combinations), --big N (random hands of 13..14 cards,
 * default 300), --drop N (random hands of 1..12 cards with random droppable
 * flags, default 2000, each under all 8 option combinations; also N/20 hands
 * of 13..14 cards under one combination, and 10 N hands of 1..14 cards checked
 * against a loop of tt_min_deadwood calls), --timing N (14-card hands timed,
 * default 200000; also times tt_min_deadwood_drop_one against the loop of 14
 * tt_min_deadwood calls on 13 cards it replaces), --seed S.
 * For meaningful timings build without the sanitizers (-O2 only).
 *
 * The reference here shares no code with meld.c: it tries every partition of
 * the hand (a subset DP over bit masks: the part holding the lowest card is
 * either that card alone, left over, or any subset that is a valid meld), and
 * checks validity straight from the rules' wording. Every arrangement the fast
 * solver returns is checked too: a permutation of the hand, every meld valid
 * (a run in run order), the deadwood equal to the leftover cards' values.
 * Exit status 0 only when everything agrees.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "three_thirteen/meld.h"
#include "common/portable.h"
#include "common/thread.h" /* th_monotonic_seconds */

static int failures = 0;

#define CHECK(cond, ...)                          \
  do {                                            \
    if (!(cond)) {                                \
      failures++;                                 \
      if (failures <= 30) {                       \
        printf("FAIL %s:%d: ", __FILE__, __LINE__); \
        printf(__VA_ARGS__);                      \
        printf("\n");                             \
      }                                           \
    }                                             \
  } while (0)

/* ---- cards ------------------------------------------------------------- */

typedef struct hand {
  int n;
  uint8_t rank[TT_MAX_HAND], suit[TT_MAX_HAND];
} hand;

static const char RANKS[] = "XA23456789TJQK"; /* index = rank, X = joker */
static const char SUITS[] = "cdhs";

static void card_text(int r, int s, char *buf) {
  buf[0] = RANKS[r];
  buf[1] = r == 0 ? (s ? 'b' : 'r') : SUITS[s & 3];
  buf[2] = 0;
}

static void print_hand(const hand *h, char *out, size_t size) {
  size_t pos = 0;
  out[0] = 0;
  for (int i = 0; i < h->n && pos + 4 < size; i++) {
    char b[3];
    card_text(h->rank[i], h->suit[i], b);
    pos += (size_t)snprintf(out + pos, size - pos, "%s%s", i ? " " : "", b);
  }
}

static int parse_hand(const char *text, hand *h) {
  h->n = 0;
  const char *p = text;
  while (*p) {
    if (*p == ' ') {
      p++;
      continue;
    }
    if (h->n >= TT_MAX_HAND || !p[1]) return -1;
    const char *r = strchr(RANKS, p[0]);
    if (!r) return -1;
    int rk = (int)(r - RANKS);
    int su = 0;
    if (rk == 0)
      su = p[1] == 'b' ? 1 : 0;
    else {
      const char *s = strchr(SUITS, p[1]);
      if (!s) return -1;
      su = (int)(s - SUITS);
    }
    h->rank[h->n] = (uint8_t)rk;
    h->suit[h->n] = (uint8_t)su;
    h->n++;
    p += 2;
  }
  return 0;
}

/* ---- the reference: every partition ------------------------------------ */

typedef struct bf_opts {
  int ace_either, all_wild, penalty20;
} bf_opts;

static int bf_is_wild(int r, int wild_rank) { return r == 0 || r == wild_rank; }

/* Written from the spec's table, independently of tt_card_value. */
static int bf_value(int r, int wild_rank, const bf_opts *o) {
  if (r == 0) return 20;
  if (r == wild_rank && o->penalty20) return 20;
  if (r == 1) return o->ace_either ? 15 : 1;
  if (r >= 11) return 10;
  return r;
}

/* Can the cards idx[0..k) be given consecutive run positions in the listed
 * order? (Used for the arrangement's run order; k >= 3.) */
static int bf_run_in_order(const hand *h, const int *idx, int k, int wild_rank, const bf_opts *o) {
  for (int high = 0; high <= o->ace_either; high++) {
    int bottom = high ? 2 : 1, top = high ? 14 : 13;
    for (int lo = bottom; lo + k - 1 <= top; lo++) {
      int ok = 1, suit = -1;
      for (int j = 0; j < k && ok; j++) {
        int r = h->rank[idx[j]];
        if (bf_is_wild(r, wild_rank)) continue;
        int pos = (high && r == 1) ? 14 : r;
        if (pos != lo + j) ok = 0;
        if (suit >= 0 && h->suit[idx[j]] != suit) ok = 0;
        suit = h->suit[idx[j]];
      }
      if (ok) return 1;
    }
  }
  return 0;
}

/* Is the subset `sub` of h a valid meld? Straight from the rules: 3+ cards;
 * with all_wild off at least one natural; a set if the naturals share a rank;
 * a run if the naturals share a suit and fit, at distinct positions, in a
 * window of as many consecutive positions as there are cards, positions being
 * A=1..K=13, or with ace_either alternatively 2..K=13, A=14. */
static int bf_valid(const hand *h, unsigned sub, int wild_rank, const bf_opts *o, int *is_set, int *is_run) {
  int idx[TT_MAX_HAND], k = 0, nat = 0;
  for (int i = 0; i < h->n; i++)
    if (sub & (1u << i)) {
      idx[k++] = i;
      if (!bf_is_wild(h->rank[i], wild_rank)) nat++;
    }
  *is_set = *is_run = 0;
  if (k < 3) return 0;
  if (nat == 0 && !o->all_wild) return 0;
  int same_rank = 1, same_suit = 1, r0 = -1, s0 = -1;
  for (int j = 0; j < k; j++) {
    int r = h->rank[idx[j]];
    if (bf_is_wild(r, wild_rank)) continue;
    if (r0 < 0) r0 = r, s0 = h->suit[idx[j]];
    if (r != r0) same_rank = 0;
    if (h->suit[idx[j]] != s0) same_suit = 0;
  }
  *is_set = same_rank;
  if (same_suit) {
    for (int high = 0; high <= o->ace_either && !*is_run; high++) {
      int bottom = high ? 2 : 1, top = high ? 14 : 13;
      for (int lo = bottom; lo + k - 1 <= top && !*is_run; lo++) {
        int seen[15] = {0}, ok = 1;
        for (int j = 0; j < k && ok; j++) {
          int r = h->rank[idx[j]];
          if (bf_is_wild(r, wild_rank)) continue;
          int pos = (high && r == 1) ? 14 : r;
          if (pos < lo || pos > lo + k - 1 || seen[pos]) ok = 0;
          else seen[pos] = 1;
        }
        if (ok) *is_run = 1;
      }
    }
  }
  return *is_set || *is_run;
}

static uint8_t bf_valid_tab[1u << TT_MAX_HAND];
static int16_t bf_best[1u << TT_MAX_HAND];

static int bf_min_deadwood(const hand *h, int wild_rank, const bf_opts *o) {
  int n = h->n;
  unsigned full = (1u << n) - 1u;
  int val[TT_MAX_HAND];
  for (int i = 0; i < n; i++) val[i] = bf_value(h->rank[i], wild_rank, o);
  for (unsigned m = 0; m <= full; m++) {
    int a, b;
    bf_valid_tab[m] = (uint8_t)bf_valid(h, m, wild_rank, o, &a, &b);
  }
  bf_best[0] = 0;
  for (unsigned m = 1; m <= full; m++) {
    unsigned low = m & (0u - m);
    int lowi = th_ctz32(m);
    int best = val[lowi] + bf_best[m ^ low];
    unsigned rest = m ^ low;
    for (unsigned sub = rest;; sub = (sub - 1) & rest) {
      unsigned part = sub | low;
      if (bf_valid_tab[part] && bf_best[m ^ part] < best) best = bf_best[m ^ part];
      if (sub == 0) break;
    }
    bf_best[m] = (int16_t)best;
  }
  return bf_best[full];
}

/* ---- checking the fast solver's answer --------------------------------- */

static int check_arrangement(const hand *h, int wild_rank, const bf_opts *o, const tt_arrangement *a,
                             const char *what) {
  char text[80];
  print_hand(h, text, sizeof text);
  int seen[TT_MAX_HAND] = {0}, pos = 0, bad = 0;
  if (a->num_melds < 0 || a->num_melds > TT_MAX_HAND || a->num_deadwood < 0 || a->num_deadwood > h->n) {
    CHECK(0, "%s [%s]: bad counts", what, text);
    return 1;
  }
  for (int k = 0; k < a->num_melds; k++) pos += a->meld_len[k];
  if (pos + a->num_deadwood != h->n) {
    CHECK(0, "%s [%s]: %d melded + %d deadwood != %d cards", what, text, pos, a->num_deadwood, h->n);
    return 1;
  }
  for (int i = 0; i < h->n; i++) {
    if (a->order[i] >= h->n || seen[a->order[i]]) {
      CHECK(0, "%s [%s]: order is not a permutation", what, text);
      return 1;
    }
    seen[a->order[i]] = 1;
  }
  pos = 0;
  for (int k = 0; k < a->num_melds; k++) {
    unsigned sub = 0;
    int idx[TT_MAX_HAND];
    for (int j = 0; j < a->meld_len[k]; j++) {
      idx[j] = a->order[pos + j];
      sub |= 1u << a->order[pos + j];
    }
    int is_set, is_run;
    int ok = bf_valid(h, sub, wild_rank, o, &is_set, &is_run);
    if (!ok || (a->meld_type[k] == TT_MELD_SET && !is_set) ||
        (a->meld_type[k] == TT_MELD_RUN && !bf_run_in_order(h, idx, a->meld_len[k], wild_rank, o)) ||
        a->meld_type[k] > 1) {
      CHECK(0, "%s [%s]: meld %d (type %d, %d cards) is not valid", what, text, k, a->meld_type[k],
            a->meld_len[k]);
      bad = 1;
    }
    pos += a->meld_len[k];
  }
  int dw = 0;
  for (int j = pos; j < h->n; j++) dw += bf_value(h->rank[a->order[j]], wild_rank, o);
  if (dw != a->deadwood) {
    CHECK(0, "%s [%s]: leftover cards sum to %d, deadwood says %d", what, text, dw, a->deadwood);
    bad = 1;
  }
  return bad;
}

static tt_meld_options to_opts(const bf_opts *o) {
  tt_meld_options m;
  m.ace_either = (uint8_t)o->ace_either;
  m.all_wild_melds = (uint8_t)o->all_wild;
  m.wild_penalty_20 = (uint8_t)o->penalty20;
  return m;
}

static int fast(const hand *h, int wild_rank, const bf_opts *o, tt_arrangement *a) {
  tt_meld_options mo = to_opts(o);
  th_error e;
  int rc = tt_min_deadwood(h->rank, h->suit, h->n, wild_rank, &mo, a, &e);
  if (rc != 0) {
    CHECK(0, "tt_min_deadwood failed: %s", e.msg);
    return -1;
  }
  int v = -1; /* tt_min_deadwood_value: the same deadwood */
  if (tt_min_deadwood_value(h->rank, h->suit, h->n, wild_rank, &mo, &v, &e) != 0 || v != a->deadwood) {
    CHECK(0, "tt_min_deadwood_value %d, tt_min_deadwood %d", v, a->deadwood);
    return -1;
  }
  return a->deadwood;
}

/* Compares fast and reference; returns 1 on a mismatch. */
static int compare(const hand *h, int wild_rank, const bf_opts *o) {
  tt_arrangement a;
  int f = fast(h, wild_rank, o, &a);
  int b = bf_min_deadwood(h, wild_rank, o);
  int bad = 0;
  if (f != b) {
    char text[80];
    print_hand(h, text, sizeof text);
    CHECK(0, "mismatch [%s] wild %c ace_either %d all_wild %d penalty20 %d: fast %d, exhaustive %d", text,
          RANKS[wild_rank], o->ace_either, o->all_wild, o->penalty20, f, b);
    bad = 1;
  }
  if (check_arrangement(h, wild_rank, o, &a, "arrangement")) bad = 1;
  return bad;
}

/* ---- fixed examples ----------------------------------------------------- */

typedef struct example {
  const char *cards;
  char wild;
  int ace_either, all_wild, penalty20;
  int expect;
} example;

static const example EXAMPLES[] = {
    /* the brief's examples */
    {"3h 4h 5h 6h 7h", 'K', 0, 1, 0, 0},
    {"7h 7h 7s 7c 7d", 'K', 0, 1, 0, 0},
    {"Qh Kh 3c", '3', 0, 1, 0, 0},
    {"Kh Ah 2h", '9', 0, 1, 0, 13},
    {"Kh Ah 2h", '9', 1, 1, 0, 27}, /* ace either: still no wrap; the ace scores 15 */
    {"Qh Kh Ah", '3', 0, 1, 0, 21},
    {"Qh Kh Ah", '3', 1, 1, 0, 0},
    {"Ks Kh Kd", 'K', 0, 1, 0, 0},
    {"Ks Kh Kd", 'K', 0, 0, 0, 30},
    {"Ks 2c 9d", 'K', 0, 1, 0, 21},
    {"Ks 2c 9d", 'K', 0, 1, 1, 31},
    /* wilds filling gaps in a run */
    {"3h 5h 7h Xr Xb", 'K', 0, 1, 0, 0},
    {"3h 5h 7h Xr Xb", 'K', 0, 0, 0, 0},
    {"3h 6h Xr Xb", 'K', 0, 0, 0, 0},
    {"3h 7h Xr Xb", 'K', 0, 0, 0, 3},  /* 3..7 needs 5 cards; best: 7h X X, 3h left */
    {"9c 6c Kd", 'K', 0, 0, 0, 25},    /* 6c K 9c would need 4 cards */
    {"9c 7c Kd", 'K', 0, 0, 0, 0},     /* 7c K(8c) 9c */
    /* wilds extending a run at both ends, and the ends of the ranks */
    {"5h 6h Xr Xb", '9', 0, 0, 0, 0},
    {"5h 6h 9s 9d", '9', 0, 0, 0, 0},
    {"Kh Qh Xr", '9', 0, 0, 0, 0},  /* J(X) Q K */
    {"Kh Ah Xr", '9', 0, 0, 0, 31}, /* no K-A wrap, no run A-K: nothing melds */
    {"Kh Ah Xr", '9', 1, 0, 0, 0},  /* Q(X) K A */
    {"Ah 2h Xr", '9', 0, 0, 0, 0},
    {"Ah 3h Xr", '9', 0, 0, 0, 0},
    {"Ah 4h Xr", '9', 0, 0, 0, 25},
    {"Ah 5c 9d", 'K', 1, 1, 0, 29}, /* a leftover ace scores 15 with ace either */
    /* identical cards from two decks */
    {"7h 7h 7s", 'K', 0, 1, 0, 0},
    {"7h 7h Xr", 'K', 0, 0, 0, 0},
    {"7h 7h 8h 8h 9h 9h", 'K', 0, 1, 0, 0},
    {"7h 7h 8h 9h", 'K', 0, 1, 0, 7},
    {"7h 7h 7h 8h 9h 9h", 'K', 0, 1, 0, 23}, /* run 7-8-9 (leaves 23) beats set 777 (26) */
    /* a card of the wild rank may play itself, but is never natural */
    {"6h 7h 8h", '7', 0, 0, 0, 0},
    {"7h 7s 7c", '7', 0, 0, 0, 21},
    {"7h 7s 7c", '7', 0, 0, 1, 60},
    {"Xr Xb 3h", '3', 0, 1, 0, 0},
    {"Xr Xb 3h", '3', 0, 0, 0, 43},
    {"Xr Xb 3h", '3', 0, 0, 1, 60},
    {"Xr Xb", '3', 0, 1, 0, 40},
    {"", '3', 0, 1, 0, 0},
    {"Kd", '5', 0, 1, 0, 10},
    /* melding the most cards is not the least deadwood */
    {"2c 3c 5c Kh Ks Xr", '9', 0, 1, 0, 10},
    /* 14-card hands that split into several melds */
    {"Ah 2h 3h 4h 5s 5d 5c 9c Tc Jc Qc 7d 7s Xr", 'K', 0, 0, 0, 0},
    {"Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Xr", '7', 0, 0, 0, 0}, /* A-2-3 and X(3)-4..K */
    {"Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Xr", '7', 1, 0, 0, 0},
    {"Ah 2h 3h 4h 5h 6h 8h 9h Th Jh Qh Kh Ks Kd", '7', 0, 0, 0, 0}, /* A..6, 8..Q(J..Q), K K K */
    {"Ah 2h 3h 4h 5h 6h 8h 9h Th Jh Qh Kh Kd 2c", '7', 0, 0, 0, 12}, /* Kd 2c left */
    {"Ah Ad As Ac 2c 3c 4s 5s 6s 9d 9d 9h Xr Xb", '8', 0, 1, 0, 0},
    {"Kc Kd Kh Ks Qc Qd Qh Qs Jc Jd Jh Js Tc Td", '2', 0, 1, 0, 0}, /* runs T-K c, T-K d, J-K h, J-K s */
    {"Kc Kd Kh Ks Qc Qd Qh Qs Jc Jd Jh Js 5c 4d", '2', 0, 1, 0, 9},
    {"2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh 2c 2d", 'A', 0, 1, 0, 0}, /* 2c 2d 2h set, 3..K run */
    {"3d 3d 3d 3d 3d 3d 3d 3d 3d 3d 3d 3d 3d 3d", 'A', 0, 1, 0, 0}, /* 14 identical cards */
    {"Xr Xr Xr Xr Xr Xr Xr Xr Xr Xr Xr Xr Xr Xr", 'A', 0, 0, 0, 280},
};

static void run_examples(void) {
  int n = (int)(sizeof EXAMPLES / sizeof EXAMPLES[0]);
  int bad = 0;
  for (int k = 0; k < n; k++) {
    const example *x = &EXAMPLES[k];
    hand h;
    if (parse_hand(x->cards, &h) != 0) {
      CHECK(0, "example %d: cannot parse '%s'", k, x->cards);
      bad++;
      continue;
    }
    int wr = (int)(strchr(RANKS, x->wild) - RANKS);
    bf_opts o = {x->ace_either, x->all_wild, x->penalty20};
    tt_arrangement a;
    int f = fast(&h, wr, &o, &a);
    int b = bf_min_deadwood(&h, wr, &o);
    if (f != x->expect || b != x->expect) {
      CHECK(0, "example '%s' wild %c ace_either %d all_wild %d penalty20 %d: expected %d, fast %d, exhaustive %d",
            x->cards, x->wild, x->ace_either, x->all_wild, x->penalty20, x->expect, f, b);
      bad++;
    }
    if (check_arrangement(&h, wr, &o, &a, "example arrangement")) bad++;
    /* the other option combinations: fast against exhaustive */
    for (int c = 0; c < 8; c++) {
      bf_opts oc = {c & 1, (c >> 1) & 1, (c >> 2) & 1};
      bad += compare(&h, wr, &oc);
    }
  }
  printf("fixed examples: %d, failures %d\n", n, bad);
}

/* ---- bad input ---------------------------------------------------------- */

static void run_bad_input(void) {
  uint8_t r[TT_MAX_HAND + 1] = {1, 2, 3}, s[TT_MAX_HAND + 1] = {0, 0, 0};
  tt_meld_options o = {0, 1, 0};
  tt_arrangement a;
  th_error e;
  int before = failures;
  CHECK(tt_min_deadwood(r, s, 3, 5, &o, NULL, &e) == TH_ERR_ARG, "NULL out accepted");
  CHECK(tt_min_deadwood(r, s, -1, 5, &o, &a, &e) == TH_ERR_ARG, "n = -1 accepted");
  CHECK(tt_min_deadwood(r, s, TT_MAX_HAND + 1, 5, &o, &a, &e) == TH_ERR_ARG, "n = 15 accepted");
  CHECK(tt_min_deadwood(NULL, s, 3, 5, &o, &a, &e) == TH_ERR_ARG, "NULL rank accepted");
  CHECK(tt_min_deadwood(r, NULL, 3, 5, &o, &a, &e) == TH_ERR_ARG, "NULL suit accepted");
  CHECK(tt_min_deadwood(NULL, NULL, 0, 5, &o, &a, &e) == 0 && a.deadwood == 0, "empty hand");
  CHECK(tt_min_deadwood(r, s, 3, 0, &o, &a, &e) == TH_ERR_ARG, "wild rank 0 accepted");
  CHECK(tt_min_deadwood(r, s, 3, 14, &o, &a, &e) == TH_ERR_ARG, "wild rank 14 accepted");
  CHECK(tt_min_deadwood(r, s, 3, 5, &o, &a, NULL) == 0 && a.deadwood == 0, "NULL e with good input");
  CHECK(tt_min_deadwood(r, s, 3, 5, &o, NULL, NULL) == TH_ERR_ARG, "NULL e, NULL out");
  r[1] = 14;
  CHECK(tt_min_deadwood(r, s, 3, 5, &o, &a, &e) == TH_ERR_ARG && strstr(e.msg, "rank"), "rank 14 accepted");
  r[1] = 2;
  s[2] = 4;
  CHECK(tt_min_deadwood(r, s, 3, 5, &o, &a, &e) == TH_ERR_ARG && strstr(e.msg, "suit"), "suit 4 accepted");
  r[2] = 0; /* a joker's suit is ignored */
  CHECK(tt_min_deadwood(r, s, 3, 5, &o, &a, &e) == 0 && a.deadwood == 0, "joker with suit 4");
  s[2] = 0;
  r[2] = 3;
  tt_meld_options bad = {2, 1, 0};
  CHECK(tt_min_deadwood(r, s, 3, 5, &bad, &a, &e) == TH_ERR_ARG, "ace_either 2 accepted");
  bad = (tt_meld_options){0, 7, 0};
  CHECK(tt_min_deadwood(r, s, 3, 5, &bad, &a, &e) == TH_ERR_ARG, "all_wild_melds 7 accepted");
  bad = (tt_meld_options){0, 1, 255};
  CHECK(tt_min_deadwood(r, s, 3, 5, &bad, &a, &e) == TH_ERR_ARG, "wild_penalty_20 255 accepted");
  CHECK(tt_min_deadwood(r, s, 3, 5, NULL, &a, &e) == 0 && a.deadwood == 0 && e.code == 0, "NULL options");
  /* tt_card_value */
  tt_meld_options either = {1, 1, 1};
  CHECK(tt_card_value(1, 5, NULL) == 1 && tt_card_value(1, 5, &either) == 15, "ace value");
  CHECK(tt_card_value(0, 5, NULL) == 20 && tt_card_value(13, 5, NULL) == 10 && tt_card_value(10, 5, NULL) == 10,
        "joker / court values");
  CHECK(tt_card_value(5, 5, NULL) == 5 && tt_card_value(5, 5, &either) == 20, "wild-rank value");
  CHECK(tt_card_value(14, 5, NULL) == -1 && tt_card_value(-1, 5, NULL) == -1 && tt_card_value(3, 0, NULL) == -1,
        "bad card value arguments");
  printf("bad input: failures %d\n", failures - before);
}

/* ---- random hands ------------------------------------------------------- */

static uint64_t rng_state;
static uint64_t rnd64(void) { /* splitmix64 */
  uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}
static int rnd(int n) { return (int)(rnd64() % (uint64_t)n); }

/* Two 52-card decks and 4 jokers. n cards, of which exactly `wilds` are wild
 * (the wild rank's 8 cards and the jokers); the naturals come from the whole
 * deck (dense = 0) or from a narrow band of ranks and suits (dense = 1), so
 * that melds and conflicts between them are common; dense = 2 draws from that
 * band with replacement (more copies than two decks hold). */
static void random_hand(hand *h, int n, int wilds, int wild_rank, int dense) {
  uint8_t wr[12], ws[12], nr[104], ns[104];
  int nw = 0, nn = 0;
  int lo = 1, hi = 13, suits = 4;
  if (dense) {
    int width = 3 + rnd(5);
    lo = 1 + rnd(14 - width);
    hi = lo + width - 1;
    suits = 1 + rnd(2);
  }
  for (int d = 0; d < 2; d++) {
    for (int r = 1; r <= 13; r++)
      for (int s = 0; s < 4; s++) {
        if (r == wild_rank) {
          wr[nw] = (uint8_t)r, ws[nw] = (uint8_t)s, nw++;
        } else if (r >= lo && r <= hi && s < suits) {
          nr[nn] = (uint8_t)r, ns[nn] = (uint8_t)s, nn++;
        }
      }
    for (int j = 0; j < 2; j++) wr[nw] = 0, ws[nw] = (uint8_t)j, nw++;
  }
  if (wilds > nw) wilds = nw;
  if (n - wilds > nn) n = wilds + nn;
  h->n = 0;
  if (dense == 2) { /* any multiset: cards drawn with replacement (the API accepts these too) */
    for (int k = 0; k < n; k++) {
      int j = k < wilds ? rnd(nw) : rnd(nn);
      h->rank[h->n] = k < wilds ? wr[j] : nr[j];
      h->suit[h->n] = k < wilds ? ws[j] : ns[j];
      h->n++;
    }
    return;
  }
  for (int k = 0; k < wilds; k++) { /* partial Fisher-Yates */
    int j = k + rnd(nw - k);
    uint8_t t = wr[k]; wr[k] = wr[j]; wr[j] = t;
    t = ws[k]; ws[k] = ws[j]; ws[j] = t;
    h->rank[h->n] = wr[k], h->suit[h->n] = ws[k], h->n++;
  }
  for (int k = 0; k < n - wilds; k++) {
    int j = k + rnd(nn - k);
    uint8_t t = nr[k]; nr[k] = nr[j]; nr[j] = t;
    t = ns[k]; ns[k] = ns[j]; ns[j] = t;
    h->rank[h->n] = nr[k], h->suit[h->n] = ns[k], h->n++;
  }
  for (int k = h->n - 1; k > 0; k--) { /* shuffle the hand's order too */
    int j = rnd(k + 1);
    uint8_t t = h->rank[k]; h->rank[k] = h->rank[j]; h->rank[j] = t;
    t = h->suit[k]; h->suit[k] = h->suit[j]; h->suit[j] = t;
  }
}

/* ---- dropping one card ------------------------------------------------- */

static void hand_without(const hand *h, int i, hand *out) {
  out->n = 0;
  for (int j = 0; j < h->n; j++)
    if (j != i) {
      out->rank[out->n] = h->rank[j];
      out->suit[out->n] = h->suit[j];
      out->n++;
    }
}

/* The promise of tt_min_deadwood_drop_one, by brute force: the minimum over
 * the droppable i of the exhaustive deadwood of h without i; *expect_index
 * the droppable i reaching it with the highest card value, then the lowest
 * index. dw[i] gets each droppable card's deadwood (-1 for the others). */
static int bf_drop_one(const hand *h, int wild_rank, const bf_opts *o, const uint8_t *drop, int *expect_index,
                       int *dw) {
  int best = 1 << 30, best_i = -1;
  for (int i = 0; i < h->n; i++) {
    dw[i] = -1;
    if (!drop[i]) continue;
    hand g;
    hand_without(h, i, &g);
    dw[i] = bf_min_deadwood(&g, wild_rank, o);
    int v = bf_value(h->rank[i], wild_rank, o);
    if (dw[i] < best || (dw[i] == best && v > bf_value(h->rank[best_i], wild_rank, o))) {
      best = dw[i];
      best_i = i;
    }
  }
  *expect_index = best_i;
  return best;
}

/* The same, with tt_min_deadwood in place of the exhaustive search. */
static int loop_drop_one(const hand *h, int wild_rank, const bf_opts *o, const uint8_t *drop, int *expect_index) {
  int best = 1 << 30, best_i = -1;
  for (int i = 0; i < h->n; i++) {
    if (!drop[i]) continue;
    hand g;
    tt_arrangement a;
    hand_without(h, i, &g);
    int d = fast(&g, wild_rank, o, &a);
    int v = bf_value(h->rank[i], wild_rank, o);
    if (d < best || (d == best && v > bf_value(h->rank[best_i], wild_rank, o))) {
      best = d;
      best_i = i;
    }
  }
  *expect_index = best_i;
  return best;
}

static void random_drop_flags(const hand *h, uint8_t *drop) {
  int mode = rnd(4); /* all droppable, one, or each with probability 1/2 or 1/4 */
  int one = rnd(h->n);
  for (int i = 0; i < h->n && i < TT_MAX_HAND; i++) /* the bound spelled out for gcc's -Wstringop-overflow */
    drop[i] = (uint8_t)(mode == 0 ? 1 : mode == 1 ? i == one : mode == 2 ? rnd(2) == 0 : rnd(4) == 0);
  drop[one] = 1; /* at least one */
}

static long zero_seen = 0; /* comparisons whose minimum was 0 (tt_zero_deadwood_drop_one's "yes") */

/* Compares tt_min_deadwood_drop_one (and tt_zero_deadwood_drop_one) with the reference (exhaustive when
 * exhaustive, else the tt_min_deadwood loop); returns 1 on a mismatch. */
static int compare_drop(const hand *h, int wild_rank, const bf_opts *o, const uint8_t *drop, int exhaustive) {
  tt_meld_options mo = to_opts(o);
  th_error e;
  int d = -1, idx = -1, expect_idx, dw[TT_MAX_HAND];
  int expect = exhaustive ? bf_drop_one(h, wild_rank, o, drop, &expect_idx, dw)
                          : loop_drop_one(h, wild_rank, o, drop, &expect_idx);
  int rc = tt_min_deadwood_drop_one(h->rank, h->suit, h->n, wild_rank, &mo, drop, &d, &idx, &e);
  char text[80], flags[TT_MAX_HAND + 1];
  print_hand(h, text, sizeof text);
  for (int i = 0; i < h->n; i++) flags[i] = (char)('0' + drop[i]);
  flags[h->n] = 0;
  if (rc != 0) {
    CHECK(0, "drop_one failed [%s] flags %s: %s", text, flags, e.msg);
    return 1;
  }
  int bad = 0;
  if (d != expect) {
    CHECK(0, "drop mismatch [%s] flags %s wild %c ace_either %d all_wild %d penalty20 %d: fast %d, reference %d",
          text, flags, RANKS[wild_rank], o->ace_either, o->all_wild, o->penalty20, d, expect);
    bad = 1;
  }
  if (idx < 0 || idx >= h->n || !drop[idx]) {
    CHECK(0, "drop [%s] flags %s: index %d is not a droppable card", text, flags, idx);
    return 1;
  }
  /* the hand without out_index really has that deadwood (checked on its own) */
  hand g;
  hand_without(h, idx, &g);
  int at = exhaustive ? dw[idx] : bf_min_deadwood(&g, wild_rank, o);
  if (at != d) {
    CHECK(0, "drop [%s] flags %s: without card %d the deadwood is %d, not %d", text, flags, idx, at, d);
    bad = 1;
  }
  int tv = 0;
  tt_arrangement a;
  tv = fast(&g, wild_rank, o, &a);
  if (tv != at) {
    CHECK(0, "drop [%s]: tt_min_deadwood %d, exhaustive %d without card %d", text, tv, at, idx);
    bad = 1;
  }
  /* the documented tie-break: dearest card, then lowest index */
  if (idx != expect_idx) {
    CHECK(0, "drop [%s] flags %s wild %c: index %d, expected %d (dearest, then lowest index)", text, flags,
          RANKS[wild_rank], idx, expect_idx);
    bad = 1;
  }
  /* tt_zero_deadwood_drop_one answers "is the reference's minimum 0?" */
  int z = -1;
  if (tt_zero_deadwood_drop_one(h->rank, h->suit, h->n, wild_rank, &mo, drop, &z, &e) != 0 || z != (expect == 0)) {
    CHECK(0, "zero [%s] flags %s wild %c ace_either %d all_wild %d penalty20 %d: %d, but the minimum is %d", text,
          flags, RANKS[wild_rank], o->ace_either, o->all_wild, o->penalty20, z, expect);
    bad = 1;
  }
  zero_seen += expect == 0;
  /* tt_min_deadwood_drop_one_below: the same answer for a limit above the minimum, "limit or more" (limit, index
   * -1) for one at or under it; limits around the minimum, where the branch and bound's cut lies */
  const int limits[] = {0, 1, expect - 1, expect, expect + 1, expect + 10, TT_NO_LIMIT - 1, TT_NO_LIMIT};
  for (size_t k = 0; k < sizeof limits / sizeof limits[0]; k++) {
    int lim = limits[k], bd = -2, bi = -2;
    if (lim < 0) continue;
    if (tt_min_deadwood_drop_one_below(h->rank, h->suit, h->n, wild_rank, &mo, drop, lim, &bd, &bi, &e) != 0) {
      CHECK(0, "drop_below [%s] limit %d failed: %s", text, lim, e.msg);
      bad = 1;
    } else if (expect < lim ? (bd != expect || bi != expect_idx) : (bd != lim || bi != -1)) {
      CHECK(0, "drop_below [%s] flags %s limit %d: %d index %d; the minimum is %d (index %d)", text, flags, lim, bd,
            bi, expect, expect_idx);
      bad = 1;
    }
  }
  /* out_index NULL gives the same deadwood */
  int d2 = -1;
  if (tt_min_deadwood_drop_one(h->rank, h->suit, h->n, wild_rank, &mo, drop, &d2, NULL, &e) != 0 || d2 != d) {
    CHECK(0, "drop [%s]: with out_index NULL %d, not %d", text, d2, d);
    bad = 1;
  }
  return bad;
}

static void run_drop_random(int hands, int min_n, int max_n, int all_combos, int exhaustive, const char *label) {
  int mismatches = 0;
  long compared = 0;
  for (int t = 0; t < hands; t++) {
    hand h;
    uint8_t drop[TT_MAX_HAND];
    int n = min_n + rnd(max_n - min_n + 1);
    int wilds = rnd((n < 8 ? n : 8) + 1);
    int wild_rank = 1 + rnd(13);
    random_hand(&h, n, wilds, wild_rank, t % 8 == 7 ? 2 : t & 1);
    random_drop_flags(&h, drop);
    for (int c = 0; c < 8; c++) {
      if (!all_combos && c != (t & 7)) continue;
      bf_opts o = {c & 1, (c >> 1) & 1, (c >> 2) & 1};
      mismatches += compare_drop(&h, wild_rank, &o, drop, exhaustive);
      compared++;
    }
  }
  printf("%s: %d hands of %d..%d cards, %ld (hand, flags, options) comparisons against %s, mismatches %d "
         "(deadwood 0 reachable in %ld so far)\n", label, hands, min_n, max_n, compared,
         exhaustive ? "the exhaustive search" : "a tt_min_deadwood loop", mismatches, zero_seen);
}

/* Small hands with the answer worked out by hand under the default options
 * (ace low, all-wild melds, face-value wilds): a wild to drop, copies with one
 * flag, a forced-dead card to drop, ties broken by value then index. Each is
 * then also compared with the exhaustive reference under all 8 options. */
static void run_drop_examples(void) {
  static const struct {
    const char *cards;
    const char *flags;
    char wild;
    int expect, expect_index;
  } X[] = {
      {"3h 4h 5h 6h 7h Xr", "111111", 'K', 0, 5}, /* all 0: the joker is dearest */
      {"3h 4h 5h 6h 7h Xr", "111110", 'K', 0, 4}, /* all 0: 7h the dearest droppable */
      {"3h 4h 5h Kd", "1111", '9', 0, 3},
      {"3h 4h 5h Kd", "1110", '9', 17, 2},        /* without 3h 19, 4h 18, 5h 17 */
      {"7h 7h 7s 2c", "1001", 'K', 0, 3},
      {"7h 7h 7s 2c", "1000", 'K', 16, 0},
      {"7h 7h 7s 2c", "0100", 'K', 16, 1},        /* the flagged copy is the one reported */
      {"Xr Xb 9s", "110", '3', 29, 0},
      {"5h 6h 7h 3c Xr", "11111", '3', 0, 4},     /* a joker (20) over the wild 3c (3) */
      {"5h 6h 7h 3c Xr", "11110", '3', 0, 2},     /* 3c would do, but 7h is dearer */
      {"5h 6h 7h 3c Xr", "00010", '3', 0, 3},     /* only the wild-rank card */
      {"Kd 2c 3c 4c", "1111", '9', 0, 0},
      {"Ac 5d 6d 7d", "1000", '9', 0, 0},         /* the forced-dead lowest card dropped */
      {"Ac 5d 6d 7d", "0001", '9', 12, 3},   /* the run broken: Ac 5d 6d left */
      {"Xr", "1", '9', 0, 0},
      {"4s", "1", '9', 0, 0},
  };
  int bad = 0, count = 0;
  for (size_t k = 0; k < sizeof X / sizeof X[0]; k++) {
    hand h;
    if (parse_hand(X[k].cards, &h) != 0 || (int)strlen(X[k].flags) != h.n) {
      CHECK(0, "drop example %d: cannot parse", (int)k);
      bad++;
      continue;
    }
    uint8_t drop[TT_MAX_HAND];
    for (int i = 0; i < h.n && i < TT_MAX_HAND; i++) drop[i] = (uint8_t)(X[k].flags[i] == '1');
    int wr = (int)(strchr(RANKS, X[k].wild) - RANKS);
    int d = -1, idx = -1;
    th_error e;
    if (tt_min_deadwood_drop_one(h.rank, h.suit, h.n, wr, NULL, drop, &d, &idx, &e) != 0 || d != X[k].expect ||
        idx != X[k].expect_index) {
      CHECK(0, "drop example '%s' flags %s wild %c: expected %d at %d, got %d at %d", X[k].cards, X[k].flags,
            X[k].wild, X[k].expect, X[k].expect_index, d, idx);
      bad++;
    }
    count++;
    for (int c = 0; c < 8; c++) {
      bf_opts o = {c & 1, (c >> 1) & 1, (c >> 2) & 1};
      bad += compare_drop(&h, wr, &o, drop, 1);
      count++;
    }
  }
  printf("drop examples: %d checks, failures %d\n", count, bad);
}

static void run_drop_bad_input(void) {
  uint8_t r[TT_MAX_HAND + 1] = {1, 2, 3}, s[TT_MAX_HAND + 1] = {0, 0, 0}, d[TT_MAX_HAND + 1] = {1, 1, 1};
  tt_meld_options o = {0, 1, 0};
  th_error e;
  int dw = -1, idx = -1, before = failures;
  CHECK(tt_min_deadwood_drop_one(r, s, 3, 5, &o, d, NULL, &idx, &e) == TH_ERR_ARG, "drop: NULL out accepted");
  CHECK(tt_min_deadwood_drop_one(r, s, 3, 5, &o, NULL, &dw, &idx, &e) == TH_ERR_ARG, "drop: NULL flags accepted");
  CHECK(tt_min_deadwood_value(r, s, 3, 5, &o, NULL, &e) == TH_ERR_ARG, "value: NULL out accepted");
  CHECK(tt_min_deadwood_value(r, s, 3, 14, &o, &dw, &e) == TH_ERR_ARG && strstr(e.msg, "tt_min_deadwood_value"),
        "value: wild rank 14 accepted");
  CHECK(tt_min_deadwood_drop_one_below(r, s, 3, 5, &o, d, -1, &dw, &idx, &e) == TH_ERR_ARG && strstr(e.msg, "limit") &&
            strstr(e.msg, "tt_min_deadwood_drop_one_below"),
        "drop_below: limit -1 accepted");
  CHECK(tt_zero_deadwood_drop_one(r, s, 3, 5, &o, d, NULL, &e) == TH_ERR_ARG, "zero: NULL out accepted");
  CHECK(tt_zero_deadwood_drop_one(r, s, 3, 5, &o, NULL, &dw, &e) == TH_ERR_ARG, "zero: NULL flags accepted");
  CHECK(tt_min_deadwood_drop_one(r, s, 0, 5, &o, d, &dw, &idx, &e) == TH_ERR_ARG, "drop: n = 0 accepted");
  CHECK(tt_min_deadwood_drop_one(NULL, NULL, 0, 5, &o, NULL, &dw, &idx, &e) == TH_ERR_ARG, "drop: empty accepted");
  CHECK(tt_min_deadwood_drop_one(r, s, -1, 5, &o, d, &dw, &idx, &e) == TH_ERR_ARG, "drop: n = -1 accepted");
  CHECK(tt_min_deadwood_drop_one(r, s, TT_MAX_HAND + 1, 5, &o, d, &dw, &idx, &e) == TH_ERR_ARG,
        "drop: n = 15 accepted");
  CHECK(tt_min_deadwood_drop_one(NULL, s, 3, 5, &o, d, &dw, &idx, &e) == TH_ERR_ARG, "drop: NULL rank accepted");
  CHECK(tt_min_deadwood_drop_one(r, NULL, 3, 5, &o, d, &dw, &idx, &e) == TH_ERR_ARG, "drop: NULL suit accepted");
  CHECK(tt_min_deadwood_drop_one(r, s, 3, 0, &o, d, &dw, &idx, &e) == TH_ERR_ARG, "drop: wild rank 0 accepted");
  CHECK(tt_min_deadwood_drop_one(r, s, 3, 14, &o, d, &dw, &idx, &e) == TH_ERR_ARG, "drop: wild rank 14 accepted");
  tt_meld_options badopt = {0, 2, 0};
  CHECK(tt_min_deadwood_drop_one(r, s, 3, 5, &badopt, d, &dw, &idx, &e) == TH_ERR_ARG, "drop: option 2 accepted");
  d[1] = 2;
  CHECK(tt_min_deadwood_drop_one(r, s, 3, 5, &o, d, &dw, &idx, &e) == TH_ERR_ARG && strstr(e.msg, "droppable"),
        "drop: flag 2 accepted");
  d[0] = d[1] = d[2] = 0;
  CHECK(tt_min_deadwood_drop_one(r, s, 3, 5, &o, d, &dw, &idx, &e) == TH_ERR_ARG, "drop: no flag accepted");
  r[1] = 14;
  d[1] = 1;
  CHECK(tt_min_deadwood_drop_one(r, s, 3, 5, &o, d, &dw, &idx, &e) == TH_ERR_ARG && strstr(e.msg, "rank"),
        "drop: rank 14 accepted");
  r[1] = 2;
  s[2] = 4;
  CHECK(tt_min_deadwood_drop_one(r, s, 3, 5, &o, d, &dw, &idx, &e) == TH_ERR_ARG && strstr(e.msg, "suit"),
        "drop: suit 4 accepted");
  s[2] = 0;
  /* A 2 3 of clubs, only the 2 droppable: A 3 left, 4; NULL options and NULL e */
  CHECK(tt_min_deadwood_drop_one(r, s, 3, 5, NULL, d, &dw, &idx, NULL) == 0 && dw == 4 && idx == 1,
        "drop: A 2 3 without the 2 gives %d at %d", dw, idx);
  d[0] = d[2] = 1; /* dropping the 3 leaves A 2: 3, the least */
  CHECK(tt_min_deadwood_drop_one(r, s, 3, 5, NULL, d, &dw, &idx, &e) == 0 && dw == 3 && idx == 2 && e.code == 0,
        "drop: A 2 3 gives %d at %d", dw, idx);
  printf("drop bad input: failures %d\n", failures - before);
}

static void run_random(int hands, int min_n, int max_n, int all_combos, const char *label) {
  int mismatches = 0;
  long compared = 0;
  for (int t = 0; t < hands; t++) {
    hand h;
    int n = min_n + rnd(max_n - min_n + 1);
    int wilds = rnd((n < 8 ? n : 8) + 1);
    int wild_rank = 1 + rnd(13);
    random_hand(&h, n, wilds, wild_rank, t % 8 == 7 ? 2 : t & 1);
    if (all_combos) {
      for (int c = 0; c < 8; c++) {
        bf_opts o = {c & 1, (c >> 1) & 1, (c >> 2) & 1};
        mismatches += compare(&h, wild_rank, &o);
        compared++;
      }
    } else {
      int c = rnd(8);
      bf_opts o = {c & 1, (c >> 1) & 1, (c >> 2) & 1};
      mismatches += compare(&h, wild_rank, &o);
      compared++;
    }
  }
  printf("%s: %d hands of %d..%d cards, %ld (hand, options) comparisons, mismatches %d\n", label, hands, min_n,
         max_n, compared, mismatches);
}

static double now_us(void) { return th_monotonic_seconds() * 1e6; }

#define TIMING_BATCH 10000
#define TIMING_REPEATS 3
static hand timing_hands[TIMING_BATCH];
static int timing_wild[TIMING_BATCH];
static tt_meld_options timing_opts[TIMING_BATCH];

/* Hand k has k % 9 wild cards and option combination k / 9 % 8. The mean is a
 * plain loop over each batch (total time / hands); the worst is, per hand, the
 * fastest of TIMING_REPEATS timed calls (so that a preempted call does not
 * count), maximised over the hands. */
static void run_timing(int count) {
  double loop_total = 0, worst = 0, worst_by_w[9] = {0}, sum_by_w[9] = {0};
  long n_by_w[9] = {0}, done = 0, checksum = 0;
  char worst_text[80] = "";
  while (done < count) {
    int batch = count - done < TIMING_BATCH ? (int)(count - done) : TIMING_BATCH;
    for (int t = 0; t < batch; t++) {
      long k = done + t;
      int c = (int)(k / 9 % 8);
      timing_wild[t] = 1 + rnd(13);
      random_hand(&timing_hands[t], 14, (int)(k % 9), timing_wild[t], 0);
      timing_opts[t].ace_either = (uint8_t)(c & 1);
      timing_opts[t].all_wild_melds = (uint8_t)((c >> 1) & 1);
      timing_opts[t].wild_penalty_20 = (uint8_t)((c >> 2) & 1);
    }
    double t0 = now_us();
    for (int t = 0; t < batch; t++) {
      tt_arrangement a;
      tt_min_deadwood(timing_hands[t].rank, timing_hands[t].suit, 14, timing_wild[t], &timing_opts[t], &a, NULL);
      checksum += a.deadwood;
    }
    loop_total += now_us() - t0;
    for (int t = 0; t < batch; t++) {
      double best = 1e30;
      for (int rep = 0; rep < TIMING_REPEATS; rep++) {
        tt_arrangement a;
        double t1 = now_us();
        tt_min_deadwood(timing_hands[t].rank, timing_hands[t].suit, 14, timing_wild[t], &timing_opts[t], &a,
                         NULL);
        double dt = now_us() - t1;
        checksum += a.deadwood;
        if (dt < best) best = dt;
      }
      int w = (int)((done + t) % 9);
      sum_by_w[w] += best;
      n_by_w[w]++;
      if (best > worst_by_w[w]) worst_by_w[w] = best;
      if (best > worst) {
        worst = best;
        print_hand(&timing_hands[t], worst_text, sizeof worst_text);
      }
    }
    done += batch;
  }
  printf("timing: %ld random 14-card hands (two decks and 4 jokers), 0..8 wild cards, all option combinations\n",
         done);
  printf("  mean %.3f us per hand (plain loop); worst %.2f us (fastest of %d calls, worst hand: %s)\n",
         loop_total / (double)done, worst, TIMING_REPEATS, worst_text);
  for (int w = 0; w <= 8; w++)
    printf("  %d wilds: mean %.3f us, worst %.2f us (fastest of the repeated calls)\n", w,
           n_by_w[w] ? sum_by_w[w] / (double)n_by_w[w] : 0.0, worst_by_w[w]);
  printf("  (checksum %ld)\n", checksum);
}

/* tt_min_deadwood_drop_one on 14-card hands against the loop it replaces
 * (one tt_min_deadwood call per droppable card, on the 13 others), on the
 * same hands in the same run, the two timed in alternating batches. flags
 * mode 0: every card droppable (the discard phase: 14 calls); mode 1: each
 * card droppable with probability 1/2 (at least one). Also checks that the
 * two agree on every hand. */
static uint8_t timing_drop[TIMING_BATCH][TT_MAX_HAND];
static void run_drop_timing(int count, int mode) {
  double t_one = 0, t_loop = 0;
  long done = 0, calls = 0, sum_one = 0, sum_loop = 0;
  int disagree = 0;
  while (done < count) {
    int batch = count - done < TIMING_BATCH ? (int)(count - done) : TIMING_BATCH;
    for (int t = 0; t < batch; t++) {
      long k = done + t;
      int c = (int)(k / 9 % 8);
      timing_wild[t] = 1 + rnd(13);
      random_hand(&timing_hands[t], 14, (int)(k % 9), timing_wild[t], 0);
      timing_opts[t].ace_either = (uint8_t)(c & 1);
      timing_opts[t].all_wild_melds = (uint8_t)((c >> 1) & 1);
      timing_opts[t].wild_penalty_20 = (uint8_t)((c >> 2) & 1);
      int one = rnd(14);
      for (int i = 0; i < 14; i++) timing_drop[t][i] = (uint8_t)(mode == 0 ? 1 : (i == one || rnd(2)));
    }
    for (int rep = 0; rep < 2; rep++) { /* alternate which goes first */
      for (int which = 0; which < 2; which++) {
        int use_one = (which ^ rep) == 0;
        double t0 = now_us();
        for (int t = 0; t < batch; t++) {
          const hand *h = &timing_hands[t];
          if (use_one) {
            int d = 0, idx = 0;
            tt_min_deadwood_drop_one(h->rank, h->suit, 14, timing_wild[t], &timing_opts[t], timing_drop[t], &d,
                                     &idx, NULL);
            sum_one += d * 16 + idx;
          } else {
            int best = 1 << 30, best_i = -1, best_v = -1;
            for (int i = 0; i < 14; i++) {
              if (!timing_drop[t][i]) continue;
              uint8_t rr[TT_MAX_HAND], ss[TT_MAX_HAND];
              int m = 0;
              for (int j = 0; j < 14; j++)
                if (j != i) rr[m] = h->rank[j], ss[m] = h->suit[j], m++;
              tt_arrangement a;
              tt_min_deadwood(rr, ss, 13, timing_wild[t], &timing_opts[t], &a, NULL);
              int v = tt_card_value(h->rank[i], timing_wild[t], &timing_opts[t]);
              if (a.deadwood < best || (a.deadwood == best && v > best_v)) best = a.deadwood, best_i = i, best_v = v;
              if (rep == 0) calls++;
            }
            sum_loop += best * 16 + best_i;
          }
        }
        double dt = now_us() - t0;
        if (use_one) t_one += dt;
        else t_loop += dt;
      }
    }
    done += batch;
  }
  disagree = sum_one != sum_loop;
  CHECK(!disagree, "drop timing: drop_one and the loop disagree (checksums %ld, %ld)", sum_one, sum_loop);
  printf("drop timing (%s): %ld 14-card hands x 2 passes, 0..8 wilds, all option combinations\n",
         mode == 0 ? "all 14 droppable" : "each droppable with p 1/2", done);
  printf("  tt_min_deadwood_drop_one %.3f us per hand; loop of tt_min_deadwood %.3f us per hand (%.2f calls of"
         " 13 cards); ratio %.2fx (checksums %s)\n",
         t_one / (2.0 * (double)done), t_loop / (2.0 * (double)done), (double)calls / (double)done,
         t_loop / t_one, disagree ? "DIFFER" : "agree");
}

int main(int argc, char **argv) {
  int hands = 20000, big = 300, timing = 200000, drop = 2000;
  uint64_t seed = 12345;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--hands")) hands = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--big")) big = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--timing")) timing = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--drop")) drop = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[i + 1], NULL, 10);
    else {
      fprintf(stderr, "usage: %s [--hands N] [--big N] [--drop N] [--timing N] [--seed S]\n", argv[0]);
      return 2;
    }
  }
  rng_state = seed;
  run_bad_input();
  run_examples();
  if (hands > 0) run_random(hands, 3, 12, 1, "random hands");
  if (big > 0) run_random(big, 13, 14, 0, "random big hands");
  run_drop_bad_input();
  run_drop_examples();
  if (drop > 0) {
    run_drop_random(drop, 1, 12, 1, 1, "drop: random hands");
    run_drop_random(drop / 20 > 0 ? drop / 20 : 1, 13, 14, 0, 1, "drop: random big hands");
    run_drop_random(drop * 10, 1, 14, 1, 0, "drop: random hands");
  }
  if (timing > 0) {
    run_timing(timing);
    run_drop_timing(timing / 4 > 0 ? timing / 4 : 1, 0);
    run_drop_timing(timing / 4 > 0 ? timing / 4 : 1, 1);
  }
  printf("%s: %d failures\n", failures ? "FAILED" : "OK", failures);
  return failures ? 1 : 0;
}
