/* meld.c - exact minimum deadwood of a Three Thirteen hand; see meld.h for
 * the rules and the proof sketch. */
#include "three_thirteen/meld.h"

#include "common/portable.h"
#include <string.h>

#define MEMO_BITS 9
#define MEMO_SIZE (1u << MEMO_BITS)
#define MEMO_PROBES 8
/* The part of the memo a hand of n cards uses: 1 << memo_bits_for(n) entries
 * (setup_solver). */
#define memo_bits_for(n) ((n) <= 6 ? 6 : (n) <= 10 ? 7 : 8)
_Static_assert(memo_bits_for(TT_MAX_HAND) <= MEMO_BITS, "the part in use is a part of the memo");
#define VAL_BITS 20          /* memoised values < 2^20: see TIE_BITS and INF_COST */
#define PLAIN_VAL_BITS 9     /* plain solve: deadwood <= 14 cards * 20 = 280 < 2^9; key (23 bits) + 9 = 32 */
#define KEY_SHIFT_W 14       /* memo key: mask (14 bits), w (4), cap (4), drop pending (1) */
#define KEY_SHIFT_CAP 18
#define KEY_SHIFT_AVAIL 22
#define TIE_BITS 9           /* drop search: cost = deadwood << TIE_BITS | tie of the dropped card */
#define TIE_VALUE_TOP 31     /* tie = (TIE_VALUE_TOP - value) << 4 | input index: < 2^TIE_BITS */
#define INF_COST (1 << 19)   /* a pending drop that can no longer happen; > any real cost (< 2^18) */
#define CAP_ALL 15           /* absorbing capacity of a set: unlimited */
#define MAX_RUN_SPAN 5       /* normal form: a run's naturals lie within 5 positions */
#define MAX_SET_NATURALS 5   /* normal form: a set holds 1..5 naturals */
#define RUN_POSITIONS 13     /* A..K, or 2..K-A with ace_either */

enum { CH_DEAD = 0, CH_SET = 1, CH_RUN = 2 };

typedef struct choice {
  int type;
  uint16_t used; /* naturals taken (bits of the sorted natural list) */
  int need;      /* wilds the meld needs */
  int len;       /* run: minimal length */
  int ace_high;  /* run: the ace (the lowest natural) is the top, position 14 */
} choice;

typedef struct solver {
  int m; /* naturals, sorted by (rank, suit, input index) */
  uint8_t rank[TT_MAX_HAND], suit[TT_MAX_HAND], src[TT_MAX_HAND];
  int32_t val[TT_MAX_HAND]; /* values, scaled by << shift */
  uint16_t kind[14][4]; /* [rank 1..13][suit]: bits of the naturals of that kind */
  /* per natural i, the naturals that can meld with it (forced_dead): of its
   * rank (i itself not), of its suit 1 and 2 positions up, and for an ace
   * with ace_either the K and Q of its suit; any: all of these */
  uint16_t same[TT_MAX_HAND], up1[TT_MAX_HAND], up2[TT_MAX_HAND], top1[TT_MAX_HAND], top2[TT_MAX_HAND];
  uint16_t any[TT_MAX_HAND];
  uint16_t dropmask; /* drop-one solve: the naturals whose kind may be dropped (kdrop) */
  int nw;               /* wild cards */
  uint8_t wsrc[TT_MAX_HAND]; /* their input indexes, cheapest first */
  int32_t left_cost[TT_MAX_HAND + 1]; /* the r cheapest wilds' values, scaled by << shift */
  uint8_t all_wild, ace_either;
  uint8_t memo_ready; /* memo cleared yet */
  uint8_t memo_bits;  /* the memo's part in use: 1 << memo_bits entries (setup_solver: small for short hands) */
  int shift;          /* 0: plain solve; TIE_BITS: drop-one solve */
  uint8_t zero;       /* drop-one solve asked only "can the deadwood be 0?" (tt_zero_deadwood_drop_one) */
  /* drop-one solve only: */
  uint8_t kdrop[14][4];    /* a copy of this natural kind may be dropped */
  int32_t ktie[14][4];     /* its tie: (TIE_VALUE_TOP - value) << 4 | lowest droppable input index */
  int nclass;              /* distinct values of the droppable wilds */
  int cpos[TT_MAX_HAND];   /* per class: index (cheapest first) of the last wild of that value */
  int32_t cval[TT_MAX_HAND]; /* its value, scaled */
  int32_t ctie[TT_MAX_HAND]; /* its tie: (TIE_VALUE_TOP - value) << 4 | lowest droppable input index */
  /* The memo: 32-bit entries (key << PLAIN_VAL_BITS | value) in the plain
   * solve, whose values are unscaled deadwood; 64-bit entries (key <<
   * VAL_BITS | value) in the drop-one solve, whose values are scaled. Only
   * the half in use is cleared. 0 marks a free slot (a key is never 0: its
   * mask is not empty). */
  union {
    uint32_t plain[MEMO_SIZE];
    uint64_t drop[MEMO_SIZE];
  } memo;
} solver;

static const tt_meld_options default_options = {0, 1, 0};

/* tt_card_value of checked arguments (the solver's, inlined). */
static inline int card_value(int rank, int wild_rank, const tt_meld_options *o) {
  if (rank == 0) return 20;
  if (rank == wild_rank && o->wild_penalty_20) return 20;
  if (rank == 1) return o->ace_either ? 15 : 1;
  return rank >= 10 ? 10 : rank;
}

int tt_card_value(int rank, int wild_rank, const tt_meld_options *o) {
  if (!o) o = &default_options;
  if (rank < 0 || rank > 13 || wild_rank < 1 || wild_rank > 13) return -1;
  return card_value(rank, wild_rank, o);
}

int tt_natural_isolated(const uint8_t nat[13][4], int w, int rank, int suit, int ace_either) {
  if (w >= 2 || rank < 1 || rank > 13 || suit < 0 || suit > 3) return 0;
  int same = nat[rank - 1][0] + nat[rank - 1][1] + nat[rank - 1][2] + nat[rank - 1][3];
  if (w == 1 ? same != 0 : same >= 2) return 0;
  for (int pos = rank; pos <= (rank == 1 && ace_either ? 14 : rank); pos += 13) { /* an ace: 1, and 14 */
    int at[5]; /* at[d + 2]: a natural of the suit at position pos + d */
    for (int d = -2; d <= 2; d++) {
      int q = pos + d, r = q == 14 ? (ace_either ? 1 : 0) : q; /* position 14 is the ace (ace_either) */
      at[d + 2] = d != 0 && q >= 1 && r >= 1 && r <= 13 && nat[r - 1][suit] != 0;
    }
    if (w == 1 ? (at[0] || at[1] || at[3] || at[4]) : ((at[0] && at[1]) || (at[1] && at[3]) || (at[3] && at[4])))
      return 0;
  }
  return 1;
}

static inline int lowbit_index(uint32_t x) { return th_ctz32(x); }

/* Capacity normalised to what the terminal cost can see: at most the wilds
 * left and, when all-wild melds are allowed, at most 2 (3+ leftovers meld
 * among themselves). */
static inline int norm_cap(const solver *s, int cap, int w) {
  int c = cap < w ? cap : w;
  if (s->all_wild && c > 2) c = 2;
  return c;
}

/* No naturals left, w wilds unplaced, capacity cap to absorb them. */
static inline int terminal_cost(const solver *s, int w, int cap) {
  if (w == 0) return 0;
  if (s->all_wild && w >= 3) return 0;
  return s->left_cost[w - (cap < w ? cap : w)];
}

/* No naturals left, w wilds unplaced, capacity cap, and the drop still to
 * make: it must be a wild. Dropping a wild of class j leaves w - 1 wilds and
 * the wild multiset W minus one card of value cval[j]: its r cheapest are the
 * r cheapest of W when r <= cpos[j], else the r + 1 cheapest less cval[j]. */
static inline int terminal_drop(const solver *s, int w, int cap) {
  if (w == 0) return INF_COST;
  int w1 = w - 1;
  int r = (s->all_wild && w1 >= 3) ? 0 : w1 - (cap < w1 ? cap : w1);
  int best = INF_COST;
  for (int j = 0; j < s->nclass; j++) {
    int c = (r <= s->cpos[j] ? s->left_cost[r] : s->left_cost[r + 1] - s->cval[j]) + s->ctie[j];
    if (c < best) best = c;
  }
  return best;
}

/* Is the lowest natural of mask (index i) deadwood in every arrangement, for
 * lack of partners? With 2+ wilds never (c and two wilds are a set); with 1
 * wild it needs one more card of its rank or of its suit 1 or 2 ranks up (or,
 * an ace with ace_either, a K or Q of its suit); with none, two more of its
 * rank or both of the next two ranks of its suit (or K and Q). */
TH_ALWAYS_INLINE int forced_dead(const solver *s, uint16_t mask, int i, int w) {
  if (w >= 2) return 0;
  uint16_t rest = (uint16_t)(mask & (mask - 1u)); /* mask without i */
  if (w == 1) return !(rest & s->any[i]);
  uint16_t same = (uint16_t)(rest & s->same[i]);
  return !((same & (same - 1u)) || ((rest & s->up1[i]) && (rest & s->up2[i])) ||
           ((rest & s->top1[i]) && (rest & s->top2[i])));
}

/* The two searches (meld_search.inc): solve_plain, explore_plain, ... and
 * solve_drop, explore_drop, ... */
#define SEARCH_DROP 0
#include "three_thirteen/meld_search.inc"
#undef SEARCH_DROP
#define SEARCH_DROP 1
#include "three_thirteen/meld_search.inc"
#undef SEARCH_DROP

/* ---- building the arrangement ------------------------------------------ */

typedef struct builder {
  tt_arrangement *out;
  int pos;       /* next free slot of out->order */
  int next_wild; /* wilds handed out so far, dearest first */
  const solver *s;
} builder;

static int take_wild(builder *b) {
  /* dearest first: wsrc is cheapest first */
  int k = b->s->nw - 1 - b->next_wild;
  b->next_wild++;
  return b->s->wsrc[k];
}

static void emit_set(builder *b, uint16_t used, int wilds) {
  tt_arrangement *a = b->out;
  int start = b->pos;
  for (int i = 0; i < b->s->m; i++)
    if (used & (1u << i)) a->order[b->pos++] = b->s->src[i];
  for (int k = 0; k < wilds; k++) a->order[b->pos++] = (uint8_t)take_wild(b);
  a->meld_type[a->num_melds] = TT_MELD_SET;
  a->meld_len[a->num_melds] = (uint8_t)(b->pos - start);
  a->num_melds++;
}

/* A run of the naturals `used` (one suit, distinct positions) lengthened to
 * len cards, the ace at 14 when ace_high. Wilds fill the gaps, then extend
 * upward while the top allows, then downward. */
static void emit_run(builder *b, uint16_t used, int len, int ace_high) {
  const solver *s = b->s;
  tt_arrangement *a = b->out;
  int at[15]; /* natural index at each position 1..14, or -1 */
  for (int p = 0; p < 15; p++) at[p] = -1;
  int lo = 15, hi = 0, has_low_ace = 0;
  for (int i = 0; i < s->m; i++) {
    if (!(used & (1u << i))) continue;
    int p = s->rank[i];
    if (p == 1 && ace_high) p = 14;
    if (p == 1) has_low_ace = 1;
    at[p] = i;
    if (p < lo) lo = p;
    if (p > hi) hi = p;
  }
  int top = (s->ace_either && !has_low_ace) ? 14 : 13;
  int bottom = ace_high ? 2 : 1;
  while (hi - lo + 1 < len && hi < top) hi++;
  while (hi - lo + 1 < len && lo > bottom) lo--;
  int start = b->pos;
  for (int p = lo; p <= hi; p++) a->order[b->pos++] = at[p] >= 0 ? s->src[at[p]] : (uint8_t)take_wild(b);
  a->meld_type[a->num_melds] = TT_MELD_RUN;
  a->meld_len[a->num_melds] = (uint8_t)(b->pos - start);
  a->num_melds++;
}

/* Checks the arguments common to both entry points; fn names the caller in
 * the message. Returns TH_OK or TH_ERR_ARG (e set). */
static int check_cards(const char *fn, const uint8_t *rank, const uint8_t *suit, int n, int wild_rank,
                       const tt_meld_options *o, th_error *e) {
  if (n < 0 || n > TT_MAX_HAND)
    return th_set_error(e, TH_ERR_ARG, "%s: n must be between 0 and %d, not %d", fn, TT_MAX_HAND, n), TH_ERR_ARG;
  if (n > 0 && (!rank || !suit))
    return th_set_error(e, TH_ERR_ARG, "%s: rank and suit must not be NULL", fn), TH_ERR_ARG;
  if (wild_rank < 1 || wild_rank > 13)
    return th_set_error(e, TH_ERR_ARG, "%s: wild_rank must be between 1 (A) and 13 (K), not %d", fn, wild_rank),
           TH_ERR_ARG;
  if (o->ace_either > 1 || o->all_wild_melds > 1 || o->wild_penalty_20 > 1)
    return th_set_error(e, TH_ERR_ARG, "%s: options ace_either, all_wild_melds and wild_penalty_20 must be 0 or 1",
                        fn),
           TH_ERR_ARG;
  for (int i = 0; i < n; i++) {
    if (rank[i] > 13)
      return th_set_error(e, TH_ERR_ARG, "%s: card %d has rank %d, not 0 (joker) or 1..13", fn, i, rank[i]),
             TH_ERR_ARG;
    if (rank[i] != 0 && suit[i] > 3)
      return th_set_error(e, TH_ERR_ARG, "%s: card %d has suit %d, not 0..3 (c d h s)", fn, i, suit[i]),
             TH_ERR_ARG;
  }
  return TH_OK;
}

/* out[0 .. n): in[0 .. n) in increasing order (the keys are distinct). A
 * hand listed in kind order (tt_hand_cards) is in order already: one pass. */
static void sort_keys(const uint16_t *in, int n, uint16_t *out) {
  int sorted = 1;
  for (int i = 1; i < n && sorted; i++) sorted = in[i - 1] < in[i];
  if (sorted) {
    memcpy(out, in, (size_t)n * sizeof *in);
    return;
  }
  for (int i = 0; i < n; i++) { /* each key goes where the number of smaller keys says */
    int p = 0;
    for (int j = 0; j < n; j++) p += in[j] < in[i];
    out[p] = in[i];
  }
}

/* Fills the solver from checked cards; values scaled by << shift. */
static void setup_solver(solver *s, const uint8_t *rank, const uint8_t *suit, int n, int wild_rank,
                         const tt_meld_options *o, int shift) {
  s->m = 0;
  s->nw = 0;
  s->all_wild = o->all_wild_melds;
  s->ace_either = o->ace_either;
  s->memo_ready = 0; /* the memo is cleared on first use */
  /* A hand has few subproblems for its length (masks of its naturals,
   * wilds, caps; a few dozen for 14 cards with the drop-one solve's bound):
   * a memo sized by the hand costs less to clear, which was a quarter of the
   * instructions of a round-6 search with a 512-entry one (callgrind). The
   * memo is a cache with bounded probes, so its size changes the time only,
   * never an answer (tests/c/test_meld.c times the slowest hands). */
  s->memo_bits = (uint8_t)memo_bits_for(n);
  s->shift = shift;
  s->zero = 0;
  s->nclass = 0;
  memset(s->kind, 0, sizeof s->kind);
  memset(s->kdrop, 0, sizeof s->kdrop);
  /* Sort by packed keys (all distinct: they end in the input index), each
   * key going to the place given by how many keys are smaller: naturals by
   * (rank, suit, input index), wilds by (value, input index), cheapest first. */
  uint16_t nin[TT_MAX_HAND] = {0}, win[TT_MAX_HAND] = {0}, nkey[TT_MAX_HAND], wkey[TT_MAX_HAND];
  for (int i = 0; i < n; i++) {
    int rk = rank[i];
    if (rk == 0 || rk == wild_rank)
      win[s->nw++] = (uint16_t)((card_value(rk, wild_rank, o) << 4) | i);
    else
      nin[s->m++] = (uint16_t)((((rk << 2) | suit[i]) << 4) | i);
  }
  sort_keys(nin, s->m, nkey);
  sort_keys(win, s->nw, wkey);
  for (int j = 0; j < s->m; j++) {
    int i = nkey[j] & 15;
    s->rank[j] = rank[i];
    s->suit[j] = suit[i];
    s->src[j] = (uint8_t)i;
    s->val[j] = (int32_t)card_value(rank[i], wild_rank, o) << shift;
  }
  s->left_cost[0] = 0;
  for (int k = 0; k < s->nw; k++) {
    s->wsrc[k] = (uint8_t)(wkey[k] & 15);
    s->left_cost[k + 1] = s->left_cost[k] + ((int32_t)(wkey[k] >> 4) << shift);
  }
  for (int i = 0; i < s->m; i++) s->kind[s->rank[i]][s->suit[i]] |= (uint16_t)(1u << i);
  for (int i = 0; i < s->m; i++) {
    int r = s->rank[i], su = s->suit[i], ace_top = r == 1 && s->ace_either;
    s->same[i] = (uint16_t)((s->kind[r][0] | s->kind[r][1] | s->kind[r][2] | s->kind[r][3]) & ~(1u << i));
    s->up1[i] = r + 1 <= 13 ? s->kind[r + 1][su] : 0;
    s->up2[i] = r + 2 <= 13 ? s->kind[r + 2][su] : 0;
    s->top1[i] = ace_top ? s->kind[13][su] : 0;
    s->top2[i] = ace_top ? s->kind[12][su] : 0;
    s->any[i] = (uint16_t)(s->same[i] | s->up1[i] | s->up2[i] | s->top1[i] | s->top2[i]);
  }
  s->dropmask = 0;
}

int tt_min_deadwood(const uint8_t *rank, const uint8_t *suit, int n, int wild_rank, const tt_meld_options *o,
                     tt_arrangement *out, th_error *e) {
  if (!out) return th_set_error(e, TH_ERR_ARG, "tt_min_deadwood: out must not be NULL"), TH_ERR_ARG;
  if (!o) o = &default_options;
  if (check_cards("tt_min_deadwood", rank, suit, n, wild_rank, o, e) != TH_OK) return TH_ERR_ARG;

  solver s;
  setup_solver(&s, rank, suit, n, wild_rank, o, 0);
  uint16_t full = (uint16_t)((1u << s.m) - 1u);
  int best = solve_plain(&s, full, s.nw, 0, 0, 0);

  /* Rebuild one optimal arrangement by replaying the choices. */
  memset(out, 0, sizeof *out);
  out->deadwood = best;
  builder b = {out, 0, 0, &s};
  uint16_t mask = full, dead = 0;
  int w = s.nw, cap = 0, target = best;
  int run_len[TT_MAX_HAND], nruns = 0;
  uint16_t run_used[TT_MAX_HAND];
  uint8_t run_high[TT_MAX_HAND];
  uint16_t set_used[TT_MAX_HAND];
  int set_need[TT_MAX_HAND], nsets = 0;
  for (int step = 0; step < TT_MAX_HAND && mask; step++) {
    choice ch;
    int lowest = lowbit_index(mask);
    if (forced_dead(&s, mask, lowest, w)) { /* as solve() strips it */
      dead |= (uint16_t)(1u << lowest);
      target -= s.val[lowest];
      mask = (uint16_t)(mask & (mask - 1u));
      continue;
    }
    int ok = explore_plain(&s, mask, w, cap, 0, 0, target, &ch);
    if (ok < 0) /* cannot happen: target is the minimum of these branches */
      return th_set_error(e, TH_ERR_ARG, "tt_min_deadwood: internal error rebuilding the arrangement"), TH_ERR_ARG;
    int i = lowbit_index(ch.used);
    if (ch.type == CH_DEAD) {
      dead |= ch.used;
      target -= s.val[i];
    } else if (ch.type == CH_SET) {
      set_used[nsets] = ch.used;
      set_need[nsets] = ch.need;
      nsets++;
    } else {
      run_used[nruns] = ch.used;
      run_len[nruns] = ch.len;
      run_high[nruns] = (uint8_t)ch.ace_high;
      nruns++;
    }
    int w2 = w - ch.need;
    int cap2 = ch.type == CH_SET ? w2 : cap + (ch.type == CH_RUN ? RUN_POSITIONS - ch.len : 0);
    cap = norm_cap(&s, cap2, w2);
    w = w2;
    mask = (uint16_t)(mask & ~ch.used);
  }
  /* w wilds are left for absorbing, as terminal_cost counts them. */
  int extra_set = 0, all_wild_meld = 0, leftover = w;
  int run_extra[TT_MAX_HAND] = {0};
  if (w > 0) {
    if (nsets > 0) {
      extra_set = w;
      leftover = 0;
    } else if (s.all_wild && w >= 3) {
      all_wild_meld = w;
      leftover = 0;
    } else {
      for (int k = 0; k < nruns && leftover > 0; k++) {
        int room = RUN_POSITIONS - run_len[k];
        int t = room < leftover ? room : leftover;
        run_extra[k] = t;
        leftover -= t;
      }
    }
  }
  for (int k = 0; k < nsets; k++) emit_set(&b, set_used[k], set_need[k] + (k == 0 ? extra_set : 0));
  for (int k = 0; k < nruns; k++) emit_run(&b, run_used[k], run_len[k] + run_extra[k], run_high[k]);
  if (all_wild_meld) emit_set(&b, 0, all_wild_meld);
  out->num_deadwood = 0;
  /* deadwood: the natural ones by input index, then the cheapest wilds */
  uint8_t is_dead[TT_MAX_HAND] = {0};
  for (int j = 0; j < s.m; j++)
    if (dead & (1u << j)) is_dead[s.src[j]] = 1;
  for (int i = 0; i < n; i++)
    if (is_dead[i]) {
      out->order[b.pos++] = (uint8_t)i;
      out->num_deadwood++;
    }
  for (int k = 0; k < leftover; k++) {
    out->order[b.pos++] = s.wsrc[k]; /* the cheapest ones, never handed out */
    out->num_deadwood++;
  }
  if (e) e->code = TH_OK;
  return TH_OK;
}

int tt_min_deadwood_value(const uint8_t *rank, const uint8_t *suit, int n, int wild_rank, const tt_meld_options *o,
                          int *out_deadwood, th_error *e) {
  static const char fn[] = "tt_min_deadwood_value";
  if (!out_deadwood) return th_set_error(e, TH_ERR_ARG, "%s: out_deadwood must not be NULL", fn), TH_ERR_ARG;
  if (!o) o = &default_options;
  if (check_cards(fn, rank, suit, n, wild_rank, o, e) != TH_OK) return TH_ERR_ARG;
  /* The drop-one search with no drop pending from the start (avail 0) is the
   * plain search, its costs scaled (deadwood << TIE_BITS, no tie): its
   * branch and bound finds the same minimum with less work. */
  solver s_;
  solver *s = &s_;
  setup_solver(s, rank, suit, n, wild_rank, o, TIE_BITS);
  uint16_t full = (uint16_t)((1u << s->m) - 1u);
  *out_deadwood = solve_drop(s, full, s->nw, 0, 0, 1 << 30) >> TIE_BITS;
  if (e) e->code = TH_OK;
  return TH_OK;
}

/* The drop-one solve of both entry points: the scaled minimum cost (or, with
 * zero, some cost below 1 << TIE_BITS when the deadwood can be 0, else a cost
 * of at least 1 << TIE_BITS) into *best. */
static int drop_one(const char *fn, const uint8_t *rank, const uint8_t *suit, int n, int wild_rank,
                    const tt_meld_options *o, const uint8_t *droppable, int zero, int bound, int *best, th_error *e) {
  if (!o) o = &default_options;
  if (check_cards(fn, rank, suit, n, wild_rank, o, e) != TH_OK) return TH_ERR_ARG;
  if (n > 0 && !droppable) return th_set_error(e, TH_ERR_ARG, "%s: droppable must not be NULL", fn), TH_ERR_ARG;
  int any = 0;
  for (int i = 0; i < n; i++) {
    if (droppable[i] > 1)
      return th_set_error(e, TH_ERR_ARG, "%s: droppable[%d] is %d, not 0 or 1", fn, i, droppable[i]), TH_ERR_ARG;
    any |= droppable[i];
  }
  if (!any) return th_set_error(e, TH_ERR_ARG, "%s: no card may be dropped", fn), TH_ERR_ARG;
  solver s_;
  solver *s = &s_;
  setup_solver(s, rank, suit, n, wild_rank, o, TIE_BITS);
  s->zero = (uint8_t)zero;
  /* Droppable kinds, each with the tie of its lowest droppable input index
   * (the loop runs by increasing index: the first one found stays). */
  for (int i = 0; i < n; i++) {
    int rk = rank[i];
    if (!droppable[i] || rk == 0 || rk == wild_rank) continue;
    int su = suit[i];
    if (s->kdrop[rk][su]) continue;
    s->kdrop[rk][su] = 1;
    s->ktie[rk][su] = ((TIE_VALUE_TOP - card_value(rk, wild_rank, o)) << 4) | i;
  }
  /* Droppable wild values: wilds of one value are interchangeable to the
   * solver. wsrc is sorted by (value, input index), so scanning it upward
   * meets each class's lowest droppable input index first and its last wild
   * last. */
  for (int k = 0; k < s->nw; k++) {
    int i = s->wsrc[k];
    int v = card_value(rank[i], wild_rank, o);
    int32_t vs = (int32_t)v << TIE_BITS;
    int j = 0;
    while (j < s->nclass && s->cval[j] != vs) j++;
    if (j == s->nclass) { /* a value not yet seen: a class, droppable or not for now */
      s->cval[j] = vs;
      s->ctie[j] = -1;
      s->nclass++;
    }
    s->cpos[j] = k; /* ends as the last wild of the value */
    if (droppable[i] && s->ctie[j] < 0) s->ctie[j] = ((TIE_VALUE_TOP - v) << 4) | i;
  }
  for (int i = 0; i < s->m; i++)
    if (s->kdrop[s->rank[i]][s->suit[i]]) s->dropmask |= (uint16_t)(1u << i);
  { /* keep only the droppable classes */
    int kept = 0;
    for (int j = 0; j < s->nclass; j++)
      if (s->ctie[j] >= 0) {
        s->cval[kept] = s->cval[j];
        s->ctie[kept] = s->ctie[j];
        s->cpos[kept] = s->cpos[j];
        kept++;
      }
    s->nclass = kept;
  }

  uint16_t full = (uint16_t)((1u << s->m) - 1u);
  if (zero) {
    /* No way to deadwood 0 when two naturals have no possible partner, or
     * one that may not be dropped: the drop removes one card, and every
     * natural is worth 1 or more. A quick answer (the search gives the same)
     * for the many hands that are far from going out. */
    uint8_t nat[13][4];
    int lonely = 0;
    memset(nat, 0, sizeof nat);
    for (int i = 0; i < s->m; i++) nat[s->rank[i] - 1][s->suit[i]]++;
    for (int i = 0; i < s->m && lonely < 2; i++) {
      nat[s->rank[i] - 1][s->suit[i]]--; /* the others */
      if (tt_natural_isolated((const uint8_t(*)[4])nat, s->nw, s->rank[i], s->suit[i], s->ace_either))
        lonely += s->kdrop[s->rank[i]][s->suit[i]] ? 1 : 2;
      nat[s->rank[i] - 1][s->suit[i]]++;
    }
    if (lonely >= 2) {
      *best = INF_COST;
      if (e) e->code = TH_OK;
      return TH_OK;
    }
  }
  *best = solve_drop(s, full, s->nw, 0, 1, bound);
  if (e) e->code = TH_OK;
  return TH_OK;
}

static int drop_below(const char *fn, const uint8_t *rank, const uint8_t *suit, int n, int wild_rank,
                      const tt_meld_options *o, const uint8_t *droppable, int limit, int *out_deadwood, int *out_index,
                      th_error *e) {
  int best;
  if (!out_deadwood) return th_set_error(e, TH_ERR_ARG, "%s: out_deadwood must not be NULL", fn), TH_ERR_ARG;
  if (limit < 0) return th_set_error(e, TH_ERR_ARG, "%s: limit must be >= 0, not %d", fn, limit), TH_ERR_ARG;
  /* deadwood < limit exactly when its cost (deadwood << TIE_BITS | tie) < limit << TIE_BITS */
  _Static_assert(TT_NO_LIMIT > 14 * 20 && (TT_NO_LIMIT << TIE_BITS) <= INF_COST, "TT_NO_LIMIT: past any deadwood");
  int bound = limit >= TT_NO_LIMIT ? 1 << 30 : limit << TIE_BITS;
  if (drop_one(fn, rank, suit, n, wild_rank, o, droppable, 0, bound, &best, e) != TH_OK) return TH_ERR_ARG;
  if (best >= bound) { /* the minimum is limit or more */
    *out_deadwood = limit;
    if (out_index) *out_index = -1;
    return TH_OK;
  }
  if (best >= INF_COST) /* cannot happen: some card is droppable, and dropping it is a real solution */
    return th_set_error(e, TH_ERR_ARG, "%s: internal error: no drop found", fn), TH_ERR_ARG;
  *out_deadwood = best >> TIE_BITS;
  if (out_index) *out_index = best & 15;
  return TH_OK;
}

int tt_min_deadwood_drop_one_below(const uint8_t *rank, const uint8_t *suit, int n, int wild_rank,
                                   const tt_meld_options *o, const uint8_t *droppable, int limit, int *out_deadwood,
                                   int *out_index, th_error *e) {
  return drop_below("tt_min_deadwood_drop_one_below", rank, suit, n, wild_rank, o, droppable, limit, out_deadwood,
                    out_index, e);
}

int tt_min_deadwood_drop_one(const uint8_t *rank, const uint8_t *suit, int n, int wild_rank,
                             const tt_meld_options *o, const uint8_t *droppable, int *out_deadwood, int *out_index,
                             th_error *e) {
  return drop_below("tt_min_deadwood_drop_one", rank, suit, n, wild_rank, o, droppable, TT_NO_LIMIT, out_deadwood,
                    out_index, e);
}

int tt_zero_deadwood_drop_one(const uint8_t *rank, const uint8_t *suit, int n, int wild_rank,
                              const tt_meld_options *o, const uint8_t *droppable, int *out_zero, th_error *e) {
  static const char fn[] = "tt_zero_deadwood_drop_one";
  int best;
  if (!out_zero) return th_set_error(e, TH_ERR_ARG, "%s: out_zero must not be NULL", fn), TH_ERR_ARG;
  if (drop_one(fn, rank, suit, n, wild_rank, o, droppable, 1, 1 << 30, &best, e) != TH_OK) return TH_ERR_ARG;
  *out_zero = best < (1 << TIE_BITS);
  return TH_OK;
}
