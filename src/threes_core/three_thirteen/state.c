/* state.c - the deal, legal actions, applying them (with the T-9 record),
 * scores, returns and the invariant check; see state.h. */
#include "three_thirteen/state.h"

#include "common/portable.h"
#include <string.h>

/* ------------------------------------------------------------ the deal -- */

void tt_layout(tt_state *s) {
  s->planes = s->opt.decks;
  s->deck_size = (uint16_t)(s->opt.decks * (52 + s->opt.jokers));
}

void tt_set_counts(const uint64_t *w, int planes, uint8_t *counts) {
  for (int k = 0; k < TT_NUM_KINDS; k++) counts[k] = (uint8_t)tt_set_count(w, planes, k);
}

void tt_set_from_counts(uint64_t *w, int planes, const uint8_t *counts) {
  for (int j = 0; j < planes; j++) {
    uint64_t m = 0;
    for (int k = 0; k < TT_NUM_KINDS; k++) m |= (uint64_t)(counts[k] > j) << k;
    w[j] = m;
  }
}

static void deal_round(tt_state *s) {
  uint8_t deck[TT_MAX_CARDS];
  int n = 0;
  for (int d = 0; d < s->opt.decks && d < TT_MAX_DECKS; d++) {
    for (int k = 0; k < 52; k++) deck[n++] = (uint8_t)k;
    for (int j = 0; j < s->opt.jokers && j < 2; j++) deck[n++] = (uint8_t)(52 + j);
  }
  th_shuffle_bytes(deck, n, &s->rng);
  memset(s->body, 0, tt_sets_bytes(s)); /* the game's card sets only (tt_state_bytes) */
  memset(s->hand_len, 0, sizeof s->hand_len);
  memset(s->turns, 0, sizeof s->turns);
  s->pool_active = 0;
  int per = s->round + 2, top = n, np = s->num_players;
  for (int c = 0; c < per; c++)
    for (int j = 1; j <= np; j++) {
      int q = (s->dealer + j) % np;
      tt_set_add(tt_set(s, q, TT_SET_HAND), s->planes, deck[--top]);
      s->hand_len[q]++;
    }
  *tt_discard_slot(s, 0) = deck[--top]; /* the stock's top card turned up */
  s->discard_len = 1;
  memcpy(tt_stock(s), deck, (size_t)top);
  s->stock_len = (uint16_t)top;
  s->current = (uint8_t)((s->dealer + 1) % np);
  s->turns[s->current] = 1;
  s->phase = TT_PHASE_DRAW;
  s->out_seat = TT_NO_SEAT;
  s->final_turns = 0;
  s->out_mask = 0;
  s->taken_kind = TT_NO_KIND;
}

int tt_new_game(tt_state *s, const tt_options *o, int n, uint64_t seed, uint32_t max_moves, th_error *e) {
  int rc = tt_options_validate(o, n, e);
  if (rc) return rc;
  memset(s, 0, offsetof(tt_state, body));
  s->opt = *o;
  s->num_players = (uint8_t)n;
  tt_layout(s);
  memset(s->body, 0, tt_state_bytes(s) - offsetof(tt_state, body)); /* the bytes in use only (tt_state_bytes) */
  s->max_moves = max_moves ? max_moves : TT_DEFAULT_MAX_MOVES;
  th_rng_seed(&s->rng, seed);
  s->dealer = (uint8_t)th_rng_below(&s->rng, (uint32_t)n);
  s->round = 1;
  deal_round(s);
  if (e) e->code = TH_OK;
  return TH_OK;
}

/* ------------------------------------------------------------ deadwood -- */

int tt_deadwood_without(const tt_state *s, int p, int less) {
  uint8_t rank[TT_MAX_HAND + 2], suit[TT_MAX_HAND + 2];
  int n = 0, skipped = less == TT_NO_KIND;
  for (uint64_t m = tt_held_kinds(s, p); m; m &= m - 1) {
    int k = th_ctz64(m);
    for (int c = tt_hand(s, p, k); c > 0; c--) {
      if (!skipped && k == less) {
        skipped = 1;
        continue;
      }
      if (n < TT_MAX_HAND) {
        rank[n] = (uint8_t)tt_kind_rank(k);
        suit[n] = (uint8_t)tt_kind_suit(k);
        n++;
      }
    }
  }
  int d;
  if (tt_min_deadwood_value(rank, suit, n, tt_wild_rank(s->round), &s->opt.meld, &d, NULL) != TH_OK) return 1 << 20;
  return d;
}

int tt_hand_deadwood(const tt_state *s, int p) { return tt_deadwood_without(s, p, TT_NO_KIND); }

_Static_assert(TT_NUM_KINDS <= 64, "a card set packs the kinds into 64-bit words");

int tt_hand_cards(const tt_state *s, int p, uint8_t *rank, uint8_t *suit, uint8_t *kind, uint8_t *drop) {
  int n = 0;
  for (uint64_t m = tt_held_kinds(s, p); m; m &= m - 1) { /* at most TT_NUM_KINDS passes */
    int k = th_ctz64(m);
    int may = tt_may_discard(s, p, k);
    for (int c = tt_hand(s, p, k); c > 0 && n < TT_MAX_HAND; c--) {
      rank[n] = (uint8_t)tt_kind_rank(k);
      suit[n] = (uint8_t)tt_kind_suit(k);
      kind[n] = (uint8_t)k;
      drop[n] = (uint8_t)may;
      n++;
    }
  }
  return n;
}

int tt_best_discard_below(const tt_state *s, int p, int limit, int *kind_out) {
  uint8_t rank[TT_MAX_HAND], suit[TT_MAX_HAND], kind[TT_MAX_HAND], drop[TT_MAX_HAND];
  int n = tt_hand_cards(s, p, rank, suit, kind, drop), d = 1 << 20, at = -1;
  *kind_out = -1;
  if (tt_min_deadwood_drop_one_below(rank, suit, n, tt_wild_rank(s->round), &s->opt.meld, drop, limit, &d, &at,
                                     NULL) != TH_OK)
    return 1 << 20;
  if (at >= 0) *kind_out = kind[at];
  return d;
}

int tt_best_discard(const tt_state *s, int p, int *kind_out) { return tt_best_discard_below(s, p, TT_NO_LIMIT, kind_out); }

int tt_hand_lonely(const tt_state *s, int p, int cap) {
  int wr = tt_wild_rank(s->round), w = tt_hand(s, p, 52) + tt_hand(s, p, 53), lonely = 0, ace = s->opt.meld.ace_either;
  uint64_t wild_kinds = 0xFull << ((wr - 1) * 4);
  for (int su = 0; su < 4; su++) w += tt_hand(s, p, (wr - 1) * 4 + su);
  if (w >= 2) return 0;
  uint32_t in_suit[4] = {0, 0, 0, 0}; /* bit r: a natural of rank r (1..13); bit 14: the ace again (ace_either) */
  uint8_t of_rank[14] = {0};          /* naturals of each rank, every suit and copy */
  for (uint64_t m = tt_held_kinds(s, p) & ((1ull << 52) - 1) & ~wild_kinds; m; m &= m - 1) {
    int k = th_ctz64(m), r = k / 4 + 1;
    in_suit[k & 3] |= 1u << r;
    of_rank[r] = (uint8_t)(of_rank[r] + tt_hand(s, p, k));
  }
  int set_needs = w ? 2 : 3; /* copies of the rank, this one included, for a set */
  for (int su = 0; su < 4; su++) {
    uint32_t x = in_suit[su];
    if (ace && (x & 2u)) x |= 1u << 14;
    /* bit q: the position q has run partners (positions q +- 1, q +- 2) */
    uint32_t ok = w ? (x >> 1 | x >> 2 | x << 1 | x << 2) : ((x >> 1 & x >> 2) | (x << 1 & x >> 1) | (x << 1 & x << 2));
    if (ace) ok |= (ok >> 13) & 2u; /* the ace's partners as the high ace */
    for (uint32_t iso = in_suit[su] & ~ok; iso; iso &= iso - 1) {
      int r = th_ctz32(iso);
      if (of_rank[r] >= set_needs) continue;
      lonely += tt_hand(s, p, (r - 1) * 4 + su);
      if (lonely >= cap) return lonely;
    }
  }
  return lonely;
}

/* Seat p can go out now by discarding kind k (k < 0: by some discard):
 * deadwood 0 without it (tt_zero_deadwood_drop_one, one search), unless
 * two naturals cannot meld (tt_hand_lonely: no search). Asked from round
 * LONELY_FROM_ROUND on, where hands are long enough for the search to cost
 * clearly more than the question (short hands: not shown either way by
 * timing); the answer is the same with or without it. */
#define LONELY_FROM_ROUND 4
static int zero_without(const tt_state *s, int p, int k) {
  uint8_t rank[TT_MAX_HAND], suit[TT_MAX_HAND], kind[TT_MAX_HAND], drop[TT_MAX_HAND];
  if (s->round >= LONELY_FROM_ROUND && tt_hand_lonely(s, p, 2) >= 2) return 0;
  int n = tt_hand_cards(s, p, rank, suit, kind, drop), zero = 0;
  if (k >= 0)
    for (int i = 0; i < n; i++) drop[i] = kind[i] == k;
  if (tt_zero_deadwood_drop_one(rank, suit, n, tt_wild_rank(s->round), &s->opt.meld, drop, &zero, NULL) != TH_OK)
    return 0;
  return zero;
}

/* --------------------------------------------------------------- legal -- */

int tt_may_go_out(const tt_state *s, int p) { return s->opt.go_out_first_turn || s->turns[p] > 1; }

int tt_legal_actions(const tt_state *s, uint16_t *out) {
  int n = 0, p = s->current;
  if (s->phase == TT_PHASE_OVER) return 0;
  if (s->phase == TT_PHASE_DRAW) {
    out[n++] = TT_ACTION_STOCK;
    if (s->discard_len > 0) out[n++] = TT_ACTION_TAKE_DISCARD;
    return n;
  }
  uint64_t held = tt_held_kinds(s, p);
  for (uint64_t m = held; m; m &= m - 1) { /* kinds in increasing order: the list stays sorted */
    int k = th_ctz64(m);
    if (tt_may_discard(s, p, k)) out[n++] = (uint16_t)(TT_FIRST_DISCARD + k);
  }
  /* Going out with k needs no deadwood without k: none can when no discard
   * leaves none (one search instead of one per kind). */
  if (tt_may_go_out(s, p) && zero_without(s, p, -1))
    for (uint64_t m = held; m; m &= m - 1) {
      int k = th_ctz64(m);
      if (tt_may_discard(s, p, k) && zero_without(s, p, k)) out[n++] = (uint16_t)(TT_FIRST_GO_OUT + k);
    }
  return n;
}

int tt_is_legal(const tt_state *s, int a) {
  if (s->phase == TT_PHASE_OVER || a < 0 || a >= TT_NUM_ACTIONS) return 0;
  int p = s->current;
  if (s->phase == TT_PHASE_DRAW) return a == TT_ACTION_STOCK || (a == TT_ACTION_TAKE_DISCARD && s->discard_len);
  if (a < TT_FIRST_DISCARD) return 0;
  if (a < TT_FIRST_GO_OUT) return tt_may_discard(s, p, a - TT_FIRST_DISCARD);
  int k = a - TT_FIRST_GO_OUT;
  return tt_may_go_out(s, p) && tt_may_discard(s, p, k) && zero_without(s, p, k);
}

/* ----------------------------------------------------------- knowledge -- */

int tt_pool_count(const tt_state *s, int k) {
  if (!s->pool_active || k < 0 || k >= TT_NUM_KINDS) return 0;
  int c = 0;
  const uint8_t *stock = tt_cstock(s);
  for (int i = 0; i < s->stock_len && i < s->deck_size; i++) c += stock[i] == k;
  for (int q = 0; q < s->num_players && q < TT_MAX_PLAYERS; q++) c += tt_pool_hand(s, q, k);
  return c;
}

int tt_pool_held(const tt_state *s, int q) {
  int c = 0;
  if (q < 0 || q >= s->num_players || q >= TT_MAX_PLAYERS) return 0;
  c = tt_set_size(tt_cset(s, q, TT_SET_POOL), s->planes);
  return c;
}

int tt_pool_size(const tt_state *s) {
  if (!s->pool_active) return 0;
  int c = s->stock_len;
  for (int q = 0; q < s->num_players && q < TT_MAX_PLAYERS; q++) c += tt_pool_held(s, q);
  return c;
}

int tt_known_len(const tt_state *s, int q) {
  int c = 0;
  if (q < 0 || q >= s->num_players || q >= TT_MAX_PLAYERS) return 0;
  c = tt_set_size(tt_cset(s, q, TT_SET_KNOWN), s->planes);
  return c;
}

static void dissolve_pool(tt_state *s) {
  s->pool_active = 0;
  for (int q = 0; q < s->num_players && q < TT_MAX_PLAYERS; q++)
    memset(tt_set(s, q, TT_SET_POOL), 0, (size_t)s->planes * 8);
}

/* Seat p discards a card of kind k (still in its hand): the public record
 * (state.h, KNOWLEDGE; T-10). */
static void record_discard(tt_state *s, int p, int k) {
  if (tt_known(s, p, k)) {
    tt_set_remove(tt_set(s, p, TT_SET_KNOWN), s->planes, k);
    return;
  }
  if (!s->pool_active || !tt_pool_held(s, p)) return; /* not a pool card */
  /* p's own hidden cards outside the pool: a count everyone knows. */
  int own_outside = s->hand_len[p] - tt_known_len(s, p) - tt_pool_held(s, p);
  /* The copies of k hidden outside the pool, in any hand: public too (with
   * a pool every stock card is a pool card, so they are the copies of k
   * neither on the discard pile nor known nor in the pool). One of p's own
   * hidden cards outside the pool could be this k only when both are > 0. */
  int hidden_outside = 0;
  for (int q = 0; q < s->num_players; q++) hidden_outside += tt_hand(s, q, k) - tt_known(s, q, k) - tt_pool_hand(s, q, k);
  if (own_outside == 0 || hidden_outside == 0) {
    /* None of p's hidden cards that could be a k is outside the pool: the
     * card came from it, and the pool loses it and is kept (T-10). p held it
     * as a pool card: own_outside == 0 makes every unknown k of p one, and
     * hidden_outside == 0 every hidden k anywhere. */
    tt_set_remove(tt_set(s, p, TT_SET_POOL), s->planes, k);
  } else if (tt_pool_count(s, k) > 0) {
    dissolve_pool(s); /* a pool card or not: the public record cannot say (T-10) */
  }
}

/* Seat p's whole hand is shown (went out, or scored at the end). */
static void show_hand(tt_state *s, int p) {
  memcpy(tt_set(s, p, TT_SET_KNOWN), tt_cset(s, p, TT_SET_HAND), (size_t)s->planes * 8);
  memset(tt_set(s, p, TT_SET_POOL), 0, (size_t)s->planes * 8);
}

/* --------------------------------------------------------------- apply -- */

static void score_round(tt_state *s) {
  for (int q = 0; q < s->num_players; q++) {
    int v = (s->out_mask >> q) & 1 ? 0 : tt_hand_deadwood(s, q);
    /* v <= tt_max_round_score and the total <= tt_max_total of the rounds
     * before (tt_state_check): small; added in 64 bits and kept in range
     * all the same */
    int64_t t = (int64_t)tt_total(s, q) + v;
    tt_set_round_score(s, s->round, q, v > INT16_MAX ? INT16_MAX : v);
    tt_set_total(s, q, (int32_t)(t > INT32_MAX ? INT32_MAX : t));
  }
  if (s->round == TT_ROUNDS) {
    for (int q = 0; q < s->num_players; q++) show_hand(s, q);
    s->phase = TT_PHASE_OVER;
    s->current = TT_NO_SEAT;
    return;
  }
  s->round++;
  s->dealer = (uint8_t)((s->dealer + 1) % s->num_players);
  deal_round(s);
}

/* T-3: the discard pile less its top card, shuffled, becomes the stock: a
 * new pool (T-9), the old one dissolved. */
static void reshuffle(tt_state *s) {
  if (s->discard_len <= 1) return;
  int n = s->discard_len - 1;
  int top = tt_discard_at(s, n);
  uint8_t cards[TT_MAX_CARDS]; /* through a copy: the stock's new place may overlap the discard pile's */
  for (int i = 0; i < n; i++) cards[i] = (uint8_t)tt_discard_at(s, i);
  memcpy(tt_stock(s), cards, (size_t)n);
  th_shuffle_bytes(tt_stock(s), n, &s->rng);
  s->stock_len = (uint16_t)n;
  *tt_discard_slot(s, 0) = (uint8_t)top;
  s->discard_len = 1;
  dissolve_pool(s);
  s->pool_active = 1;
}

static void end_turn(tt_state *s, int p, int went_out) {
  s->taken_kind = TT_NO_KIND;
  if (went_out) {
    s->out_mask |= (uint8_t)(1u << p);
    show_hand(s, p);
  }
  if (s->out_seat == TT_NO_SEAT) {
    if (went_out) {
      s->out_seat = (uint8_t)p;
      s->final_turns = (uint8_t)(s->num_players - 1);
    }
  } else if (s->final_turns > 0) {
    s->final_turns--;
  }
  if (s->out_seat != TT_NO_SEAT && s->final_turns == 0) {
    score_round(s);
    return;
  }
  int q = (p + 1) % s->num_players;
  s->current = (uint8_t)q;
  if (s->turns[q] < 255) s->turns[q]++;
  s->phase = TT_PHASE_DRAW;
}

void tt_apply_legal(tt_state *s, int a) {
  int p = s->current;
  if (a == TT_ACTION_STOCK) {
    if (s->stock_len == 0) reshuffle(s);
    if (s->stock_len == 0) { /* T-3: nothing to draw: the round ends and is scored */
      score_round(s);
    } else {
      int k = tt_cstock(s)[--s->stock_len];
      tt_set_add(tt_set(s, p, TT_SET_HAND), s->planes, k);
      s->hand_len[p]++;
      if (s->pool_active) tt_set_add(tt_set(s, p, TT_SET_POOL), s->planes, k); /* hidden again, but a pool card (T-9) */
      s->phase = TT_PHASE_DISCARD;
    }
  } else if (a == TT_ACTION_TAKE_DISCARD) {
    int k = tt_discard_at(s, --s->discard_len);
    tt_set_add(tt_set(s, p, TT_SET_HAND), s->planes, k);
    s->hand_len[p]++;
    tt_set_add(tt_set(s, p, TT_SET_KNOWN), s->planes, k); /* T-9: everyone saw it taken */
    s->taken_kind = (uint8_t)k;
    s->phase = TT_PHASE_DISCARD;
  } else {
    int out = a >= TT_FIRST_GO_OUT, k = a - (out ? TT_FIRST_GO_OUT : TT_FIRST_DISCARD);
    record_discard(s, p, k);
    tt_set_remove(tt_set(s, p, TT_SET_HAND), s->planes, k);
    s->hand_len[p]--;
    *tt_discard_slot(s, s->discard_len++) = (uint8_t)k;
    end_turn(s, p, out);
  }
  s->move_count++;
  if (s->phase != TT_PHASE_OVER && s->move_count >= s->max_moves) {
    s->phase = TT_PHASE_OVER;
    s->current = TT_NO_SEAT;
    s->truncated = 1;
  }
}

int tt_apply_action(tt_state *s, int a, th_error *e) {
  if (a < 0 || a >= TT_NUM_ACTIONS) {
    th_set_error(e, TH_ERR_ACTION, "action %d is out of range: ids are 0..%d", a, TT_NUM_ACTIONS - 1);
    return TH_ERR_ACTION;
  }
  if (!tt_is_legal(s, a)) {
    th_set_error(e, TH_ERR_ILLEGAL, s->phase == TT_PHASE_OVER ? "action %d is not legal: the game is over"
                                                                : "action %d is not legal for seat %d now",
                 a, s->current);
    return TH_ERR_ILLEGAL;
  }
  tt_apply_legal(s, a);
  if (e) e->code = TH_OK;
  return TH_OK;
}

int tt_apply_stock_draw(tt_state *s, int kind, th_error *e) {
  if (!tt_is_legal(s, TT_ACTION_STOCK)) {
    th_set_error(e, TH_ERR_ILLEGAL, s->phase == TT_PHASE_OVER ? "no draw from the stock: the game is over"
                                                                : "no draw from the stock for seat %d now",
                 s->current);
    return TH_ERR_ILLEGAL;
  }
  /* the cards the draw comes from: the stock, or (T-3) the discard pile less its top */
  int n = s->stock_len ? s->stock_len : (s->discard_len > 0 ? s->discard_len - 1 : 0);
  int at = -1;
  if (kind >= 0 && kind < TT_NUM_KINDS) {
    for (int i = 0; i < n; i++) {
      if ((s->stock_len ? tt_cstock(s)[i] : tt_discard_at(s, i)) == kind) { at = i; break; }
    }
  }
  if (at < 0) {
    th_set_error(e, TH_ERR_ACTION, "no card of kind %d is in the %s", kind,
                 s->stock_len ? "stock" : "discard pile below its top card (the stock to be reshuffled)");
    return TH_ERR_ACTION;
  }
  if (s->stock_len == 0) {
    reshuffle(s); /* T-3 as tt_apply_legal makes it (the pool, T-9); then find the card again */
    for (int i = 0; i < s->stock_len; i++) {
      if (tt_cstock(s)[i] == kind) { at = i; break; }
    }
  }
  /* the card chosen goes on top; the others keep their order */
  uint8_t *stock = tt_stock(s);
  memmove(stock + at, stock + at + 1, (size_t)(s->stock_len - 1 - at));
  stock[s->stock_len - 1] = (uint8_t)kind;
  tt_apply_legal(s, TT_ACTION_STOCK);
  if (e) e->code = TH_OK;
  return TH_OK;
}

/* ------------------------------------------------------------- the end -- */

void tt_returns(const tt_state *s, double *out) {
  int n = s->num_players;
  for (int q = 0; q < n; q++) out[q] = 0.0;
  if (s->phase != TT_PHASE_OVER || n < 2) return;
  tt_standings(s, out);
}

void tt_standings(const tt_state *s, double *out) {
  int n = s->num_players;
  if (n < 2) return;
  for (int q = 0; q < n; q++) {
    int below = 0, equal = 0; /* seats with a lower total, and with the same total (q included) */
    for (int r = 0; r < n; r++) {
      below += tt_total(s, r) < tt_total(s, q);
      equal += tt_total(s, r) == tt_total(s, q);
    }
    double place = below + (equal - 1) / 2.0; /* the mean of the shared places */
    out[q] = (n - 1 - 2 * place) / (double)(n - 1);
  }
}

/* ----------------------------------------------------------- the check -- */

#define FAIL(...)                                \
  do {                                           \
    th_set_error(e, TH_ERR_SETUP, __VA_ARGS__); \
    return TH_ERR_SETUP;                         \
  } while (0)

int tt_state_check(const tt_state *s, th_error *e) {
  th_error re;
  if (tt_options_validate(&s->opt, s->num_players, &re))
    FAIL("the state's options are not valid: %s", re.msg);
  int n = s->num_players;
  if (s->planes != s->opt.decks || s->deck_size != s->opt.decks * (52 + s->opt.jokers))
    FAIL("the layout (planes %d, deck size %d) does not match the options (%d decks, %d jokers a deck)", s->planes,
         s->deck_size, s->opt.decks, s->opt.jokers);
  int count[TT_NUM_KINDS] = {0};
  for (int q = 0; q < n; q++) {
    for (int which = 0; which < TT_NUM_SETS; which++) { /* unary bit-planes: each word within the one before */
      const uint64_t *w = tt_cset(s, q, which);
      for (int j = 0; j < s->planes; j++)
        if ((w[j] >> TT_NUM_KINDS) || (j > 0 && (w[j] & ~w[j - 1])))
          FAIL("seat %d: card set %d is no set of counts (word %d)", q, which, j);
    }
    int len = tt_set_size(tt_cset(s, q, TT_SET_HAND), s->planes);
    for (int k = 0; k < TT_NUM_KINDS; k++) count[k] += tt_hand(s, q, k);
    if (len != s->hand_len[q]) FAIL("seat %d's hand length %d does not match its cards (%d)", q, s->hand_len[q], len);
  }
  for (int q = n; q < TT_MAX_PLAYERS; q++) /* (seat q has no card sets: tt_state_bytes) */
    if (s->hand_len[q]) FAIL("seat %d holds cards but is no seat", q);
  if (s->stock_len + s->discard_len > s->deck_size) FAIL("the stock and discard pile are too long");
  const uint8_t *stock = tt_cstock(s);
  for (int i = 0; i < s->stock_len; i++) {
    if (stock[i] >= TT_NUM_KINDS) FAIL("the stock holds a card that does not exist");
    count[stock[i]]++;
  }
  for (int i = 0; i < s->discard_len; i++) {
    if (tt_discard_at(s, i) >= TT_NUM_KINDS) FAIL("the discard pile holds a card that does not exist");
    count[tt_discard_at(s, i)]++;
  }
  for (int k = 0; k < TT_NUM_KINDS; k++) {
    int want = tt_kind_copies(&s->opt, k);
    if (count[k] != want) FAIL("kind %d: %d cards in the game, the deck has %d", k, count[k], want);
  }
  if (s->round < 1 || s->round > TT_ROUNDS || s->dealer >= n || s->phase > TT_PHASE_OVER ||
      (s->phase != TT_PHASE_OVER && s->current >= n) || (s->phase == TT_PHASE_OVER && s->current != TT_NO_SEAT))
    FAIL("round, dealer, phase or current player out of range");
  for (int q = 0; q < n; q++)
    if (s->hand_len[q] > TT_MAX_HAND) FAIL("seat %d holds %d cards: at most %d", q, s->hand_len[q], TT_MAX_HAND);
  if ((s->out_seat != TT_NO_SEAT && s->out_seat >= n) || s->final_turns >= n || (s->out_mask >> n) ||
      (s->taken_kind != TT_NO_KIND && s->taken_kind >= TT_NUM_KINDS) ||
      (s->out_seat == TT_NO_SEAT && (s->final_turns || s->out_mask)) ||
      (s->out_seat != TT_NO_SEAT && !((s->out_mask >> s->out_seat) & 1)))
    FAIL("the going-out fields (out seat, final turns, out mask) or the taken card are out of range");
  /* After out_seat went out, the others play their last turns in order
   * (end_turn): with final_turns left, the seat to move is out_seat +
   * (n - final_turns), and only out_seat and the seats that have had their
   * last turn can be out. */
  if (s->phase != TT_PHASE_OVER && s->out_seat != TT_NO_SEAT) {
    int done = n - 1 - s->final_turns, want = (s->out_seat + done + 1) % n;
    if (s->final_turns < 1 || s->current != want)
      FAIL("final_turns: after seat %d went out the others play their last turns in order: with %d left the seat "
           "to move is %d, not %d", s->out_seat, s->final_turns, want, s->current);
    for (int q = 0; q < n; q++) {
      int d = (q - s->out_seat + n) % n;
      if (((s->out_mask >> q) & 1) && d != 0 && d > done)
        FAIL("out_mask: seat %d is out but has not played its last turn since seat %d went out", q, s->out_seat);
    }
  }
  /* Hand sizes (Rounds, A turn): round r deals r + 2 cards to every seat and
   * each turn is one draw and one discard, so every hand holds r + 2 cards
   * (a seat out too: it went out with its discard), but the seat to move in
   * the discard phase, which holds r + 3. A game cut at the move cap may have
   * been cut between a draw and a discard: then one seat holds r + 3. */
  {
    int per = s->round + 2, cut = s->phase == TT_PHASE_OVER && s->truncated, longer = -1;
    for (int q = 0; q < n; q++) {
      int want = per + (s->phase == TT_PHASE_DISCARD && q == s->current);
      if (cut && s->hand_len[q] == per + 1 && longer < 0) {
        longer = q;
        continue;
      }
      if (s->hand_len[q] != want)
        FAIL("seat %d holds %d cards: in round %d every hand holds %d, the hand of the seat to move %d in the "
             "discard phase", q, s->hand_len[q], s->round, per, per + 1);
    }
    if (s->phase == TT_PHASE_OVER && s->taken_kind != TT_NO_KIND &&
        (longer < 0 || tt_known(s, longer, s->taken_kind) == 0))
      FAIL("taken_kind: a finished game keeps a taken card only when it was cut at the move cap between the take "
           "and the discard (the taker holds one card more, the taken one known)");
  }
  /* Scores (Going out and scoring): each scored round gives each seat 0..the
   * most its hand can score; the rounds not scored yet hold 0; a total is in
   * 0..the most its scored rounds can give. */
  {
    int rows = s->round - 1 + (s->phase == TT_PHASE_OVER && !s->truncated), most = tt_max_total(&s->opt, rows);
    for (int r = 0; r < TT_ROUNDS; r++)
      for (int q = 0; q < n; q++) {
        int v = tt_round_score(s, r + 1, q), hi = r < rows ? tt_max_round_score(&s->opt, r + 1) : 0;
        if (v < 0 || v > hi) {
          if (r < rows) FAIL("round_scores: seat %d scored %d in round %d, where a hand scores 0..%d", q, v, r + 1, hi);
          FAIL("round_scores: round %d of seat %d is not scored, but holds %d", r + 1, q, v);
        }
      }
    for (int q = 0; q < n; q++)
      if (tt_total(s, q) < 0 || tt_total(s, q) > most)
        FAIL("totals: the total of seat %d is %d; after %d scored round(s) a total is in 0..%d", q,
             (int)tt_total(s, q), rows, most);
  }
  /* The move cap: each action adds one move; the game is cut (truncated) the
   * moment move_count reaches max_moves, unless that action ended it. */
  if (s->max_moves == 0) FAIL("max_moves must be at least 1");
  if (s->truncated > 1 || (s->truncated && s->phase != TT_PHASE_OVER))
    FAIL("truncated must be 0 or 1, and 1 only once the game is over");
  if (s->move_count > s->max_moves) FAIL("move_count %u is past max_moves %u", s->move_count, s->max_moves);
  if (s->phase != TT_PHASE_OVER && s->move_count >= s->max_moves)
    FAIL("move_count %u must be below max_moves %u while the game is on (the game ends at the cap)", s->move_count,
         s->max_moves);
  if (s->truncated && s->move_count != s->max_moves)
    FAIL("move_count %u: a game cut at the move cap (truncated) has move_count == max_moves (%u)", s->move_count,
         s->max_moves);
  for (int q = n; q < TT_MAX_PLAYERS; q++)
    if (s->turns[q]) FAIL("turns: seat %d is no seat but has begun turns", q);
  if (s->rng.s[0] == 0 && s->rng.s[1] == 0 && s->rng.s[2] == 0 && s->rng.s[3] == 0)
    FAIL("rng: the chance generator's state is all zero (a generator that never leaves 0)");
  /* knowledge (T-9) */
  if (s->pool_active > 1) FAIL("pool_active must be 0 or 1");
  for (int q = 0; q < n; q++)
    for (int k = 0; k < TT_NUM_KINDS; k++) {
      int h = tt_hand(s, q, k), kn = tt_known(s, q, k), pk = tt_pool_hand(s, q, k);
      if (kn + pk > h)
        FAIL("seat %d: %d known and %d pool cards of kind %d, but only %d in the hand", q, kn, pk, k, h);
      if (!s->pool_active && pk) FAIL("seat %d holds pool cards but there is no pool", q);
      int shown = ((s->out_mask >> q) & 1) || (s->phase == TT_PHASE_OVER && !s->truncated);
      if (shown && kn != h)
        FAIL("seat %d's hand was shown (out, or scored at the end) but not every card of it is known", q);
    }
  if (s->taken_kind != TT_NO_KIND && s->phase != TT_PHASE_OVER && /* a game cut at the cap keeps its taken card */
      (s->phase != TT_PHASE_DISCARD || tt_known(s, s->current, s->taken_kind) == 0))
    FAIL("a card taken this turn must be in the discard phase and known in the taker's hand (T-9)");
  if (e) e->code = TH_OK;
  return TH_OK;
}
