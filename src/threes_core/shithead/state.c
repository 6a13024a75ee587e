/* state.c - deal, swap, legal actions, apply, the end of the game.
 * The rules implemented are RULES.md; section numbers below refer to it. */
#include "shithead/state.h"

#include "common/returns.h"

#include <string.h>

#include "shithead/rank_rows.h"
#include "common/rng.h"

enum { TURN_PLAIN = 0, TURN_BURNED = 1, TURN_PICKED_UP = 2 };

static inline int has_rank(uint16_t mask, int r) { return (mask >> r) & 1; }
static inline int num_suits_of_rank(int rank) { return rank == SH_RANK_JOKER ? SH_NUM_JOKER_KINDS : SH_NUM_SUITS; }
static inline int loc_hand(int seat) { return SH_LOC_HAND | seat; }
static inline int loc_known(int seat) { return SH_LOC_HAND | SH_LOC_KNOWN | seat; }

static inline uint16_t playable_mask(const sh_state *s) { return sh_playable_mask(s); }




int sh_playable(const sh_state *s, int rank) {
  if (rank < 0 || rank >= SH_NUM_RANKS) return 0;
  return has_rank(playable_mask(s), rank);
}

/* The next seat after p that is still in, or p when there is none: the seats
 * in after p are the low 16 bits, all seats in the next 16, a sentinel at
 * bit 31. */
static int seat_after(const sh_state *s, int p) {
  unsigned in = ~(unsigned)s->out_mask & ((1u << s->num_players) - 1u);
  unsigned after = in & ~((2u << p) - 1u);
  unsigned r = (unsigned)th_ctz32(after | (in << 16) | 0x80000000u);
  return r == 31u ? p : (int)(r & 15u);
}

void sh_state_init_seats(sh_state *s) {
  for (int p = 0; p < s->num_players && p < SH_MAX_PLAYERS; p++) s->seat[p].next_seat = (uint8_t)seat_after(s, p);
}

/* Seats change only when a player goes out: the table answers every move. */
static inline int next_active(const sh_state *s, int p) { return s->seat[p].next_seat; }

/* ---------------------------------------------------------------- deal -- */

void sh_state_clear(sh_state *s, const sh_rules *r, int num_players, int dealer, uint32_t max_moves) {
  /* the bytes in use only (sh_state_bytes): a vector env's states lie that
   * close together */
  memset(s, 0, offsetof(sh_state, seat));
  s->rules = *r;
  s->num_players = (uint8_t)num_players;
  memset(s->seat, 0, sh_state_bytes(s) - offsetof(sh_state, seat));
  s->dealer = (uint8_t)dealer;
  s->max_moves = max_moves;
  s->eff_top = SH_OPEN;
  s->run_rank = SH_NO_RANK;
  memset(SH_LOC(s), SH_LOC_ABSENT, (size_t)sh_id_space(s));
  for (int q = 0; q < num_players; q++) memset(s->seat[q].down, SH_NO_CARD, sizeof s->seat[q].down);
  sh_state_init_seats(s);
}

int sh_check_game_args(const sh_rules *r, int num_players, int *dealer, uint32_t *max_moves, th_error *e) {
  if (num_players == 0) {
    th_set_error(e, TH_ERR_PLAYERS, "num_players must be between %d and %d, not 0", SH_MIN_PLAYERS, SH_MAX_PLAYERS);
    return TH_ERR_PLAYERS;
  }
  int rc = sh_rules_validate(r, num_players, e);
  if (rc) return rc;
  if (*dealer < 0) *dealer = num_players - 1; /* D-13 */
  if (*dealer >= num_players) {
    th_set_error(e, TH_ERR_ARG, "dealer must be a seat in 0..%d, not %d", num_players - 1, *dealer);
    return TH_ERR_ARG;
  }
  if (*max_moves == 0) *max_moves = SH_DEFAULT_MAX_MOVES;
  if (*max_moves > SH_MAX_MAX_MOVES) {
    th_set_error(e, TH_ERR_ARG, "max_moves must be at most %u", SH_MAX_MAX_MOVES);
    return TH_ERR_ARG;
  }
  return TH_OK;
}

static inline void put_hand(sh_state *s, int seat, int id, int known) {
  SH_LOC(s)[id] = (uint8_t)(known ? loc_known(seat) : loc_hand(seat));
  s->seat[seat].hand_rank[sh_card_rank(id)]++;
  s->seat[seat].hand_len++;
}

static inline void put_face_up(sh_state *s, int seat, int id) {
  SH_LOC(s)[id] = (uint8_t)(SH_LOC_FACE_UP | seat);
  s->seat[seat].up_rank[sh_card_rank(id)]++;
  s->seat[seat].up_len++;
}

int sh_state_deal(sh_state *s, const sh_rules *r, int num_players, int dealer, uint32_t max_moves,
                  uint64_t seed, th_error *e) {
  int rc = sh_check_game_args(r, num_players, &dealer, &max_moves, e);
  if (rc) return rc;
  sh_state_clear(s, r, num_players, dealer, max_moves);

  /* 4.1: the deck in canonical order per deck, then a Fisher-Yates shuffle. */
  uint8_t deck[SH_MAX_CARDS];
  int n = 0;
  int decks = r->decks < SH_MAX_DECKS ? r->decks : SH_MAX_DECKS; /* validated; the bound is for the compiler */
  int jokers = r->jokers < SH_NUM_JOKER_KINDS ? r->jokers : SH_NUM_JOKER_KINDS;
  for (int c = 0; c < decks; c++) {
    for (int k = 0; k < SH_KIND_RED_JOKER; k++) deck[n++] = (uint8_t)sh_card_id(c, k);
    for (int j = 0; j < jokers; j++) deck[n++] = (uint8_t)sh_card_id(c, SH_KIND_RED_JOKER + j);
  }
  th_rng rng;
  th_rng_seed(&rng, seed);
  th_shuffle_bytes(deck, n, &rng);

  /* One card at a time from the top (the end of the array), starting at the
   * seat after the dealer: face-down slots, then face-up, then the hand. */
  int top = n, K = r->cards_per_zone, first = dealer + 1 == num_players ? 0 : dealer + 1;
  for (int zone = 0; zone < 3; zone++)
    for (int i = 0; i < K; i++)
      for (int j = 0, seat = first; j < num_players; j++, seat = seat + 1 == num_players ? 0 : seat + 1) {
        int id = deck[--top];
        if (zone == 0) {
          s->seat[seat].down[i] = (uint8_t)id;
          s->seat[seat].down_len++;
          SH_LOC(s)[id] = (uint8_t)(SH_LOC_FACE_DOWN | seat);
        } else if (zone == 1) {
          put_face_up(s, seat, id);
        } else {
          put_hand(s, seat, id, 0);
        }
      }
  for (int i = 0; i < top; i++) {
    *sh_draw_slot(s, i) = deck[i];
    SH_LOC(s)[deck[i]] = SH_LOC_DRAW;
  }
  s->draw_len = (uint8_t)top;
  s->phase = SH_PHASE_SWAP;
  s->current = (uint8_t)((dealer + 1) % num_players);
  if (e) e->code = TH_OK;
  return TH_OK;
}

/* --------------------------------------------------------- who starts -- */

static int hand_holds_kind(const sh_state *s, int seat, int kind) {
  for (int c = 0; c < s->rules.decks; c++) {
    int l = SH_LOC(s)[sh_card_id(c, kind)];
    if (l != SH_LOC_ABSENT && (l & ~SH_LOC_KNOWN) == loc_hand(seat)) return 1;
  }
  return 0;
}

int sh_start_groups(const sh_state *s, uint64_t *groups) {
  const sh_rules *r = &s->rules;
  int g = 0;
  for (int i = 0; i < r->num_start_ranks; i++) {
    int rank = r->start_ranks[i], ns = num_suits_of_rank(rank);
    if (r->start == SH_START_RANK_FROM_DEALER) {
      uint64_t all = 0;
      for (int k = 0; k < ns; k++) all |= 1ull << (rank * SH_NUM_SUITS + k);
      groups[g++] = all;
      continue;
    }
    /* rank-suit: listed suits first, then the others in canonical order. */
    unsigned listed = 0;
    if (rank != SH_RANK_JOKER)
      for (int k = 0; k < r->num_start_suits; k++) {
        groups[g++] = 1ull << (rank * SH_NUM_SUITS + r->start_suits[k]);
        listed |= 1u << r->start_suits[k];
      }
    for (int k = 0; k < ns; k++)
      if (!((listed >> k) & 1)) groups[g++] = 1ull << (rank * SH_NUM_SUITS + k);
  }
  return g;
}

int sh_find_starter(const sh_state *s) {
  int n = s->num_players, first = (s->dealer + 1) % n;
  uint64_t groups[SH_NUM_KINDS];
  int ng = sh_start_groups(s, groups);
  for (int i = 0; i < ng; i++)
    for (int j = 0; j < n; j++) {
      int q = (first + j) % n;
      for (uint64_t m = groups[i]; m; m &= m - 1)
        if (hand_holds_kind(s, q, th_ctz64(m))) return q;
    }
  return first;
}

/* ------------------------------------------------------ legal actions -- */

/* Lists the swap choices (multisets of k ranks within avail) in
 * lexicographic order; `index` is the lexicographic index of the prefix
 * chosen so far (see sh_swap_index), so ids come out sorted. */
static int swap_gen(uint8_t *avail, int k, int depth, int lo, int index, uint16_t *out, int n, int base) {
  if (depth == k) {
    out[n++] = (uint16_t)(base + index);
    return n;
  }
  const uint16_t *skip = sh_swap_skip[k - depth - 1];
  unsigned ranks = 0;
  for (int r = lo; r < SH_NUM_RANKS; r++) ranks |= (unsigned)(avail[r] != 0) << r;
  for (; ranks; ranks &= ranks - 1) {
    int r = th_ctz32(ranks);
    avail[r]--;
    /* choosing r instead of lo moves the index past every multiset that
     * starts with a rank in [lo, r) */
    n = swap_gen(avail, k, depth + 1, r, index + skip[r] - skip[lo], out, n, base);
    avail[r]++;
  }
  return n;
}

static int swap_legal(const sh_state *s, int p, uint16_t *out) {
  uint8_t avail[SH_NUM_RANKS];
  for (int r = 0; r < SH_NUM_RANKS; r++) avail[r] = (uint8_t)(s->seat[p].hand_rank[r] + s->seat[p].up_rank[r]);
  int k = s->rules.cards_per_zone < SH_MAX_CPZ ? s->rules.cards_per_zone : SH_MAX_CPZ;
  return swap_gen(avail, k, 0, 0, 0, out, 0, sh_first_swap_action(&s->rules));
}

/* Drawing a swap choice without listing them all. Only the m ranks the
 * player holds matter (at most 2K): W[i][j] is the number of multisets of j
 * cards from the held ranks i, i+1, ... within their counts. In id order
 * (lexicographic on sorted ranks) the choices with more copies of the lowest
 * rank come first, so the k-th choice is found rank by rank. */
static uint32_t swap_pick(const sh_state *s, th_rng *rng, uint32_t k, uint8_t *ranks) {
  enum { MAX_HELD = 2 * SH_MAX_CPZ };
  int p = s->current, K = s->rules.cards_per_zone < SH_MAX_CPZ ? s->rules.cards_per_zone : SH_MAX_CPZ;
  uint8_t rank_of[MAX_HELD], avail[MAX_HELD];
  int m = 0;
  for (unsigned x = present_mask(s->seat[p].hand_rank) | present_mask(s->seat[p].up_rank); x && m < MAX_HELD; x &= x - 1) {
    int r = th_ctz32(x);
    rank_of[m] = (uint8_t)r;
    avail[m++] = (uint8_t)(s->seat[p].hand_rank[r] + s->seat[p].up_rank[r]);
  }
  uint16_t W[MAX_HELD + 1][SH_MAX_CPZ + 1]; /* at most sh_multichoose(10, 5) = 2002 */
  for (int j = 0; j <= K; j++) W[m][j] = j == 0;
  for (int i = m - 1; i >= 0; i--)
    for (int j = 0; j <= K; j++) {
      unsigned w = 0;
      for (int c = 0; c <= j && c <= avail[i]; c++) w += W[i + 1][j - c];
      W[i][j] = (uint16_t)w;
    }
  uint32_t total = W[0][K];
  if (rng) k = th_rng_below(rng, total); /* total >= 1: hand and face-up hold 2K cards */
  if (k >= total || !ranks) return total;
  int j = K, n = 0;
  for (int i = 0; i < m && j > 0; i++)
    for (int c = j < avail[i] ? j : avail[i]; c >= 0; c--) {
      uint32_t block = W[i + 1][j - c]; /* the choices with exactly c copies of this rank */
      if (k < block) {
        for (int t = 0; t < c; t++) ranks[n++] = rank_of[i];
        j -= c;
        break;
      }
      k -= block;
    }
  return total;
}

int sh_swap_choice(const sh_state *s, th_rng *rng, uint8_t *ranks) {
  swap_pick(s, rng, 0, ranks);
  return s->rules.cards_per_zone;
}

uint32_t sh_swap_choice_at(const sh_state *s, uint32_t k, uint8_t *ranks) { return swap_pick(s, NULL, k, ranks); }

/* Whether seat p may merge the last hand cards (all of rank `rank`) with
 * face-up cards of that rank (6.2, merge_hand_with_face_up). */
static inline int can_merge(const sh_state *s, int p, int rank) {
  return s->rules.merge_hand_with_face_up && s->draw_len == 0 && s->seat[p].hand_len > 0 &&
         s->seat[p].hand_rank[rank] == s->seat[p].hand_len;
}

int sh_legal_actions(const sh_state *s, uint16_t *out) {
  if (s->phase == SH_PHASE_OVER) return 0;
  int p = s->current;
  if (s->phase == SH_PHASE_SWAP) return swap_legal(s, p, out);
  const sh_rules *r = &s->rules;
  int C = sh_copies_per_rank(r), n = 0;
  const uint8_t *counts;
  if (s->seat[p].hand_len > 0)
    counts = s->seat[p].hand_rank;
  else if (s->seat[p].up_len > 0)
    counts = s->seat[p].up_rank;
  else {
    for (int k = 0; k < r->cards_per_zone; k++)
      if (s->seat[p].down[k] != SH_NO_CARD) out[n++] = (uint16_t)(sh_first_blind_action(r) + k);
    return n;
  }
  uint16_t m = present_mask(counts) & playable_mask(s);
  while (m) {
    int rank = th_ctz32(m);
    m &= (uint16_t)(m - 1);
    int h = counts[rank], base = rank * C - 1;
    for (int c = 1; c <= h; c++) out[n++] = (uint16_t)(base + c);
    if (counts == s->seat[p].hand_rank && can_merge(s, p, rank)) {
      int u = s->seat[p].up_rank[rank];
      for (int c = h + 1; c <= h + u; c++) out[n++] = (uint16_t)(base + c);
    }
  }
  if (n == 0) out[n++] = (uint16_t)sh_pickup_action(r);
  return n;
}

int sh_num_legal_actions(const sh_state *s) {
  uint16_t buf[SH_MAX_DISTINCT_ACTIONS];
  return sh_legal_actions(s, buf);
}

int sh_is_legal(const sh_state *s, int a) {
  const sh_rules *r = &s->rules;
  sh_move m;
  if (s->phase == SH_PHASE_OVER || sh_decode_action(r, a, &m) != TH_OK) return 0;
  int p = s->current;
  if (s->phase == SH_PHASE_SWAP) {
    if (m.kind != SH_MOVE_SWAP) return 0;
    uint8_t want[SH_NUM_RANKS] = {0};
    for (int i = 0; i < m.count; i++) want[m.face_up[i]]++;
    for (int k = 0; k < SH_NUM_RANKS; k++)
      if (want[k] > s->seat[p].hand_rank[k] + s->seat[p].up_rank[k]) return 0;
    return 1;
  }
  int from_hand = s->seat[p].hand_len > 0, from_up = !from_hand && s->seat[p].up_len > 0;
  switch (m.kind) {
    case SH_MOVE_PLAY: {
      if (!(from_hand || from_up) || !sh_playable(s, m.rank)) return 0;
      if (from_up) return m.count <= s->seat[p].up_rank[m.rank];
      int h = s->seat[p].hand_rank[m.rank];
      if (h == 0) return 0;
      if (m.count <= h) return 1;
      return can_merge(s, p, m.rank) && m.count <= h + s->seat[p].up_rank[m.rank];
    }
    case SH_MOVE_PICKUP:
      if (!(from_hand || from_up)) return 0;
      return (present_mask(from_hand ? s->seat[p].hand_rank : s->seat[p].up_rank) & playable_mask(s)) == 0;
    case SH_MOVE_BLIND:
      return !from_hand && !from_up && s->seat[p].down[m.slot] != SH_NO_CARD;
    default:
      return 0;
  }
}

/* -------------------------------------------------------------- apply -- */
/* The rules below act on the per-rank counts (hand_rank, up_rank, pile_rank,
 * the pile's top and run): that is all the rules need. With `ident` set they
 * also move the physical cards (loc[], the pile's ids, known marks); the
 * checked API always sets it. Rollouts clear it for the play phase, on a
 * scratch copy whose only outputs are the finishing order and the move count
 * (rollout.c): the same rules, the same game, without the bookkeeping. */

#define SH_HOT TH_ALWAYS_INLINE

/* loc and pile: SH_LOC(s) and SH_PILE(s), taken once by the caller (a store
 * through them may alias the fields they are computed from, so the compiler
 * would compute them again at every card). */
SH_HOT void push_pile_at(sh_state *s, uint8_t *loc, uint8_t *pile, int id) {
  if (s->rules.repetition_limit) s->pile_hash ^= sh_pile_card_hash(s->pile_len, sh_card_rank(id));
  pile[s->pile_len++] = (uint8_t)id;
  loc[id] = SH_LOC_PILE;
}
SH_HOT void push_pile(sh_state *s, int id) { push_pile_at(s, SH_LOC(s), SH_PILE(s), id); }

/* pile_prefix[r][i]: the XOR of sh_pile_card_hash(j, r) for j < i, so that
 * `count` cards of rank r pushed at height len are two loads. Filled once
 * when the library is loaded (before any state exists); 24 KB, of which the
 * low heights are the ones in use. */
static uint64_t pile_prefix[SH_NUM_RANKS][SH_MAX_CARDS + 1];

TH_CONSTRUCTOR(init_pile_prefix) {
  for (int r = 0; r < SH_NUM_RANKS; r++)
    for (int i = 0; i < SH_MAX_CARDS; i++) pile_prefix[r][i + 1] = pile_prefix[r][i] ^ sh_pile_card_hash(i, r);
}

/* pile_hash after `count` cards of `rank` go onto a pile of `len` cards, on
 * the counts only (the full state's push_pile does it card by card, from
 * sh_pile_card_hash itself). Only with `track` (repetition_limit > 0): a
 * constant at every call, so the rollouts with the rule off do not pay. */
SH_HOT void hash_push(sh_state *s, int track, int len, int rank, int count) {
  if (!track) return;
  s->pile_hash ^= pile_prefix[rank][len] ^ pile_prefix[rank][len + count];
}

/* Moves `count` face-up cards of `rank` of seat p to the pile, canonical order. */
static void face_up_rank_to_pile(sh_state *s, int p, int rank, int count) {
  int moved = 0, decks = s->rules.decks, ns = num_suits_of_rank(rank), code = SH_LOC_FACE_UP | p;
  uint8_t *loc = SH_LOC(s), *pile = SH_PILE(s);
  for (int su = 0; su < ns && moved < count; su++)
    for (int c = 0; c < decks && moved < count; c++) {
      int id = sh_card_id(c, rank * SH_NUM_SUITS + su);
      if (loc[id] == code) {
        push_pile_at(s, loc, pile, id);
        moved++;
      }
    }
}

/* Section 2: known copies of `rank` leave the hand first (canonical order),
 * then the others (canonical order); one pass over the rank's ids. */
static void hand_rank_to_pile(sh_state *s, int p, int rank, int count) {
  uint8_t later[SH_MAX_COPIES_PER_RANK];
  int n_later = 0, moved = 0, decks = s->rules.decks, ns = num_suits_of_rank(rank);
  int known = loc_known(p), plain = loc_hand(p);
  uint8_t *loc = SH_LOC(s), *pile = SH_PILE(s);
  for (int su = 0; su < ns && moved < count; su++)
    for (int c = 0; c < decks && moved < count; c++) {
      int id = sh_card_id(c, rank * SH_NUM_SUITS + su);
      int l = loc[id];
      if (l == known) {
        push_pile_at(s, loc, pile, id);
        moved++;
      } else if (l == plain && n_later < SH_MAX_COPIES_PER_RANK) {
        later[n_later++] = (uint8_t)id;
      }
    }
  for (int i = 0; i < n_later && moved < count; i++, moved++) push_pile_at(s, loc, pile, later[i]);
}

SH_HOT void clear_pile_counts(sh_state *s) {
  memset(s->pile_rank, 0, sizeof s->pile_rank);
  s->pile_len = 0;
  if (s->rules.repetition_limit) s->pile_hash = 0; /* the repetition tail (state.h) */
  s->eff_top = SH_OPEN;
  s->run_rank = SH_NO_RANK;
  s->run_len = 0;
}

SH_HOT void burn_pile(sh_state *s, int ident) {
  if (ident) {
    uint8_t *loc = SH_LOC(s), *pile = SH_PILE(s);
    for (int i = 0, n = s->pile_len; i < n; i++) loc[pile[i]] = SH_LOC_BURNED;
  }
  s->burned_len = (uint8_t)(s->burned_len + s->pile_len);
  clear_pile_counts(s);
}

SH_HOT void refill(sh_state *s, int p, int ident) {
  int K = s->rules.cards_per_zone;
  if (s->draw_len == 0 || s->seat[p].hand_len >= K) return; /* the draw pile is empty for most of a game */
  uint8_t *loc = SH_LOC(s), *pile = SH_PILE(s);
  int top = sh_deck_cards(s) - 1; /* the draw pile's i-th card is pile[top - i] (sh_draw_at) */
  while (s->draw_len > 0 && s->seat[p].hand_len < K) {
    int id = pile[top - --s->draw_len];
    if (ident) loc[id] = (uint8_t)loc_hand(p);
    s->seat[p].hand_rank[sh_card_rank(id)]++;
    s->seat[p].hand_len++;
  }
}

/* 6.3 step 3 and 4, and section 7. */
SH_HOT int finish_turn(sh_state *s, int p, int how) {
  const sh_rules *r = &s->rules;
  if ((s->seat[p].hand_len | s->seat[p].up_len | s->seat[p].down_len) == 0) {
    s->finish[s->num_out++] = (uint8_t)p;
    s->out_mask |= (uint16_t)(1u << p);
    sh_state_init_seats(s);
    if (s->num_players - s->num_out == 1) {
      int last = next_active(s, p);
      s->finish[s->num_out++] = (uint8_t)last;
      s->phase = SH_PHASE_OVER;
      s->current = SH_NO_SEAT;
      return SH_NO_SEAT;
    }
    return s->current = (uint8_t)next_active(s, p);
  } else if ((how == TURN_BURNED && r->burner_plays_again) || (how == TURN_PICKED_UP && r->pickup_then_play)) {
    return s->current = (uint8_t)p;
  } else {
    return s->current = (uint8_t)next_active(s, p);
  }
}

/* 6.3 steps 1 and 2 after `count` cards of `rank` went onto the pile. */
SH_HOT int after_play(sh_state *s, int p, int rank, int count, int ident) {
  const sh_rules *r = &s->rules;
  if (TH_LIKELY(!has_rank(r->invisible | r->burn, rank))) {
    /* Most plays: a rank without effect on the pile (a wild one included)
     * becomes the top and starts or extends the run. */
    unsigned same = 0u - (unsigned)(s->run_rank == rank); /* a mask: which way is random */
    unsigned run_len = (unsigned)count + (same & s->run_len);
    s->eff_top = (uint8_t)rank;
    s->run_rank = (uint8_t)rank;
    s->run_len = (uint8_t)run_len;
    /* run_to_burn != 0 && run_len >= run_to_burn, in one compare (run_len >= 1) */
    int burned = run_len - 1u >= (unsigned)r->run_to_burn - 1u;
    if (burned) burn_pile(s, ident);
    refill(s, p, ident);
    return finish_turn(s, p, burned ? TURN_BURNED : TURN_PLAIN);
  }
  int invisible = has_rank(r->invisible, rank);
  int in_run = !(invisible & (r->invisible_in_runs == SH_RUNS_SKIP));
  int same = s->run_rank == rank;
  /* Written without branches: which way these go is random in a rollout. */
  unsigned keep_top = 0u - (unsigned)invisible, keep_run = 0u - (unsigned)!in_run;
  unsigned new_len = (unsigned)count + ((0u - (unsigned)same) & s->run_len);
  s->eff_top = (uint8_t)((keep_top & s->eff_top) | (~keep_top & (unsigned)rank));
  s->run_len = (uint8_t)((keep_run & s->run_len) | (~keep_run & new_len));
  s->run_rank = (uint8_t)((keep_run & s->run_rank) | (~keep_run & (unsigned)rank));
  int burned = has_rank(r->burn, rank) | (r->run_to_burn != 0 && s->run_len >= r->run_to_burn);
  if (burned) burn_pile(s, ident);
  refill(s, p, ident);
  return finish_turn(s, p, burned ? TURN_BURNED : TURN_PLAIN);
}

SH_HOT int pick_up(sh_state *s, int p, int ident) {
  if (ident) {
    uint8_t *loc = SH_LOC(s), *pile = SH_PILE(s);
    for (int i = 0, n = s->pile_len; i < n; i++) loc[pile[i]] = (uint8_t)loc_known(p);
  }
  add_rows(s->seat[p].hand_rank, s->pile_rank);
  s->seat[p].hand_len = (uint8_t)(s->seat[p].hand_len + s->pile_len);
  clear_pile_counts(s);
  return finish_turn(s, p, TURN_PICKED_UP);
}

/* A play from one known source without merging (rollout kernel): the same
 * count updates as play() below, for a row `counts` of seat p (its hand, or
 * its face-up cards when the hand is empty) and that row's length. */
SH_HOT int play_from(sh_state *s, int p, uint8_t *counts, uint8_t *len, int rank, int count, int track) {
  counts[rank] = (uint8_t)(counts[rank] - count);
  *len = (uint8_t)(*len - count);
  hash_push(s, track, s->pile_len, rank, count);
  s->pile_len = (uint8_t)(s->pile_len + count);
  s->pile_rank[rank] = (uint8_t)(s->pile_rank[rank] + count);
  return after_play(s, p, rank, count, 0);
}

SH_HOT int play(sh_state *s, int p, int rank, int count, int ident, int track) {
  int h = 0;
  if (s->seat[p].hand_len > 0) {
    h = count < s->seat[p].hand_rank[rank] ? count : s->seat[p].hand_rank[rank];
    if (ident) hand_rank_to_pile(s, p, rank, h);
    s->seat[p].hand_rank[rank] = (uint8_t)(s->seat[p].hand_rank[rank] - h);
    s->seat[p].hand_len = (uint8_t)(s->seat[p].hand_len - h);
  }
  int u = count - h;
  if (u > 0) {
    if (ident) face_up_rank_to_pile(s, p, rank, u);
    s->seat[p].up_rank[rank] = (uint8_t)(s->seat[p].up_rank[rank] - u);
    s->seat[p].up_len = (uint8_t)(s->seat[p].up_len - u);
  }
  if (!ident) {
    hash_push(s, track, s->pile_len, rank, count);
    s->pile_len = (uint8_t)(s->pile_len + count);
  }
  s->pile_rank[rank] = (uint8_t)(s->pile_rank[rank] + count);
  return after_play(s, p, rank, count, ident);
}

SH_HOT int play_blind(sh_state *s, int p, int slot, int ident, int track) {
  int id = s->seat[p].down[slot];
  s->seat[p].down[slot] = SH_NO_CARD;
  s->seat[p].down_len--;
  int rank = sh_card_rank(id);
  if (has_rank(playable_mask(s), rank)) {
    if (ident) {
      push_pile(s, id);
    } else {
      hash_push(s, track, s->pile_len, rank, 1);
      s->pile_len++;
    }
    s->pile_rank[rank]++;
    return after_play(s, p, rank, 1, ident);
  } else {
    /* Turned over, so known; picked up with the pile. */
    if (ident) SH_LOC(s)[id] = (uint8_t)loc_known(p);
    s->seat[p].hand_rank[rank]++;
    s->seat[p].hand_len++;
    return pick_up(s, p, ident);
  }
}

/* 4.2: cards already face up stay (canonical order), extra copies come from
 * the hand in canonical order, every other card goes to the hand. */
static void apply_swap(sh_state *s, int p, const sh_move *m) {
  uint8_t want[SH_NUM_RANKS] = {0};
  for (int i = 0; i < m->count; i++) want[m->face_up[i]]++;
  int decks = s->rules.decks;
  for (int rank = 0; rank < SH_NUM_RANKS; rank++) {
    int up = s->seat[p].up_rank[rank], w = want[rank], ns = num_suits_of_rank(rank);
    if (up > w) {
      int seen = 0;
      for (int su = 0; su < ns; su++)
        for (int c = 0; c < decks; c++) {
          int id = sh_card_id(c, rank * SH_NUM_SUITS + su);
          if (SH_LOC(s)[id] != (SH_LOC_FACE_UP | p)) continue;
          if (seen++ < w) continue;
          s->seat[p].up_rank[rank]--;
          s->seat[p].up_len--;
          put_hand(s, p, id, 1); /* D-15: seen face up, so known */
        }
    } else if (w > up) {
      int need = w - up;
      for (int su = 0; su < ns && need > 0; su++)
        for (int c = 0; c < decks && need > 0; c++) {
          int id = sh_card_id(c, rank * SH_NUM_SUITS + su);
          if ((SH_LOC(s)[id] & ~SH_LOC_KNOWN) != loc_hand(p)) continue;
          s->seat[p].hand_rank[rank]--;
          s->seat[p].hand_len--;
          put_face_up(s, p, id);
          need--;
        }
    }
  }
  if (p == s->dealer) {
    s->phase = SH_PHASE_PLAY;
    s->current = (uint8_t)sh_find_starter(s);
  } else {
    s->current = (uint8_t)((p + 1) % s->num_players);
  }
}

/* ------------------------------------------------ positions, repetition -- */

static inline uint64_t fnv_byte(uint64_t h, unsigned b) { return (h ^ (b & 0xFFu)) * UINT64_C(0x100000001b3); }

uint64_t sh_position_key(const sh_state *s) {
  int n = s->num_players, K = s->rules.cards_per_zone;
  uint64_t h = UINT64_C(0xcbf29ce484222325);
  h = fnv_byte(h, s->phase);
  h = fnv_byte(h, s->current);
  h = fnv_byte(h, s->out_mask);
  h = fnv_byte(h, s->out_mask >> 8);
  for (int p = 0; p < n; p++) {
    for (int r = 0; r < SH_NUM_RANKS; r++) h = fnv_byte(h, s->seat[p].hand_rank[r]);
    for (int r = 0; r < SH_NUM_RANKS; r++) h = fnv_byte(h, s->seat[p].up_rank[r]);
    for (int k = 0; k < K; k++) h = fnv_byte(h, s->seat[p].down[k] == SH_NO_CARD ? 0xFFu : (unsigned)sh_card_rank(s->seat[p].down[k]));
  }
  h = fnv_byte(h, s->pile_len); /* lengths first: the two sequences cannot run into each other */
  h = fnv_byte(h, s->draw_len);
  for (int i = 0; i < s->pile_len; i++) h = fnv_byte(h, (unsigned)sh_card_rank(SH_PILE(s)[i]));
  for (int i = 0; i < s->draw_len; i++) h = fnv_byte(h, (unsigned)sh_card_rank(sh_draw_at(s, i)));
  /* splitmix64's finaliser: every input bit reaches every output bit */
  h ^= h >> 30;
  h *= UINT64_C(0xbf58476d1ce4e5b9);
  h ^= h >> 27;
  h *= UINT64_C(0x94d049bb133111eb);
  h ^= h >> 31;
  return h;
}

int32_t sh_progress(const sh_state *s) {
  int32_t v = (int32_t)s->burned_len + s->num_out + (SH_MAX_CARDS - s->draw_len) + (s->phase != SH_PHASE_SWAP);
  for (int p = 0; p < s->num_players; p++) v += (SH_MAX_CPZ - s->seat[p].up_len) + (SH_MAX_CPZ - s->seat[p].down_len);
  return v;
}

uint64_t sh_pile_hash(const sh_state *s) {
  uint64_t h = 0;
  for (int i = 0; i < s->pile_len; i++) h ^= sh_pile_card_hash(i, sh_card_rank(SH_PILE(s)[i]));
  return h;
}

/* The 128-bit product of a and b, folded to 64 bits (high ^ low). */
static inline uint64_t mul_fold(uint64_t a, uint64_t b) {
#ifdef TH_HAVE_U128
  th_u128 p = (th_u128)a * b;
  return (uint64_t)p ^ (uint64_t)(p >> 64);
#else
  uint64_t al = a & 0xFFFFFFFFu, ah = a >> 32, bl = b & 0xFFFFFFFFu, bh = b >> 32;
  uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFu) + (hl & 0xFFFFFFFFu);
  uint64_t lo = (mid << 32) | (ll & 0xFFFFFFFFu);
  uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
  return lo ^ hi;
#endif
}

/* Random odd-looking constants (splitmix64 outputs): two per seat for its
 * hand's two words, every one with a byte above any count, so that no word
 * of counts XORs one of them to zero. */
static const uint64_t hand_keys[SH_MAX_PLAYERS][2] = {
    {UINT64_C(0xdde332bfbb6b49b3), UINT64_C(0xb7d32b0af9f6491f)},
    {UINT64_C(0x205f01e23e6fa271), UINT64_C(0x160f0c55e30d4a4e)},
    {UINT64_C(0x2205f11e0b0ba6da), UINT64_C(0xc69b70a92241776c)},
    {UINT64_C(0x92d0db1def3d7784), UINT64_C(0x647ff288a625133a)},
    {UINT64_C(0xff9ca0d47c1978fb), UINT64_C(0xb8ef222ffa7b7969)},
    {UINT64_C(0x3609448582d140ec), UINT64_C(0x1a14ffde3e97f619)},
    {UINT64_C(0xe8b27e083063c97a), UINT64_C(0x6e0bc81aa7cb56de)},
    {UINT64_C(0x25d6da28e517bc8f), UINT64_C(0xa2f79a2c4f56919a)},
    {UINT64_C(0xdb5fdfaaf3c2e00d), UINT64_C(0xc4368d57bf1503a6)},
    {UINT64_C(0xdf9981340a2878fa), UINT64_C(0x4d692e56030e6f57)},
    {UINT64_C(0x34352af9cf2c8512), UINT64_C(0x4f4783f68855d7ad)},
    {UINT64_C(0xe7165e4d0596bc28), UINT64_C(0xa16e1ecf376b55fd)},
};
#define SEAT_KEY UINT64_C(0xe162a7012681acbf)

/* Seat p's hand hashed: its 16 bytes of rank counts. */
static inline uint64_t hand_fold(const sh_state *s, int p) {
  return mul_fold(load_le64(s->seat[p].hand_rank) ^ hand_keys[p][0], load_le64(s->seat[p].hand_rank + 8) ^ hand_keys[p][1]);
}

/* The key from the hands' part h (the sum of the seats' hand_fold). */
static inline uint64_t key_of(const sh_state *s, uint64_t h) {
  /* pile_hash is kept with the rule on only (the repetition tail); without
   * it, from scratch (the full state's pile) */
  h ^= s->rules.repetition_limit ? s->pile_hash : sh_pile_hash(s);
  h += (uint64_t)(s->current + 1) * SEAT_KEY;
  return sh_mix64(h);
}

uint64_t sh_repetition_key(const sh_state *s) {
  uint64_t h = 0;
  for (int p = 0; p < s->num_players && p < SH_MAX_PLAYERS; p++) h += hand_fold(s, p);
  return key_of(s, h);
}

/* rep_hands and its per-seat parts from scratch (state.h). */
void sh_rep_hands_refresh(sh_state *s) {
  uint64_t h = 0;
  for (int p = 0; p < SH_MAX_PLAYERS; p++) { /* seat[p] for p >= num_players is not part of the state */
    s->rep_hand_len[p] = p < s->num_players ? s->seat[p].hand_len : 0;
    s->rep_hand_fold[p] = p < s->num_players ? hand_fold(s, p) : 0;
    h += s->rep_hand_fold[p];
  }
  s->rep_hands = h;
}

/* rep_hands after a move of the same stretch: the seats whose hand length
 * changed are hashed again (one, after a play or a pick-up). */
static inline void rep_hands_update(sh_state *s) {
  int n = s->num_players < SH_MAX_PLAYERS ? s->num_players : SH_MAX_PLAYERS;
  for (int p = 0; p < n; p++) {
    if (s->seat[p].hand_len == s->rep_hand_len[p]) continue;
    uint64_t f = hand_fold(s, p);
    s->rep_hands += f - s->rep_hand_fold[p];
    s->rep_hand_fold[p] = f;
    s->rep_hand_len[p] = s->seat[p].hand_len;
  }
}

/* Bit i set when tags[i] == t, for the SH_REP_WINDOW (64) tags. */
_Static_assert(SH_REP_WINDOW == 64, "tag_matches reads 64 tags");
static inline uint64_t tag_matches(const uint8_t *tags, uint8_t t) {
#ifdef TH_HAVE_SSE2
  return sh_tag_matches64_sse2(tags, t);
#else
  return sh_tag_matches64_swar(tags, t);
#endif
}

/* sh_record_position, inlined into the move loops. */
SH_HOT void record_position(sh_state *s) {
  if (s->phase != SH_PHASE_PLAY) return;
  int32_t prog = sh_progress(s);
  if (prog != s->rep_progress || s->rep_len == 0) { /* a new stretch: nothing before it can recur */
    s->rep_progress = prog;
    s->rep_len = 0;
    s->rep_head = 0;
    if (s->rep_log && s->rep_log->len) sh_rep_log_clear(s->rep_log);
    sh_rep_hands_refresh(s);
  } else {
    rep_hands_update(s);
  }
  uint64_t key = key_of(s, s->rep_hands);
  uint8_t tag = sh_rep_tag(key);
  int seen = 1, len = s->rep_len; /* this occurrence */
  /* The keys held with this one's tag (about one in 256 of the others),
   * then the full keys of those. */
  uint64_t m = tag_matches(s->rep_tag, tag);
  _Static_assert(SH_REP_WINDOW == 64, "one bit per remembered key in a uint64_t");
  if (len < SH_REP_WINDOW) m &= (UINT64_C(1) << len) - 1u;
  for (; m; m &= m - 1u) seen += s->rep_key[th_ctz64(m)] == key;
  if (len == SH_REP_WINDOW && s->rep_log) { /* the oldest key leaves the ring for the log */
    sh_rep_log *l = s->rep_log;
    seen += (int)sh_rep_log_count(l, key); /* before the push: the ring counted the leaving key */
    sh_rep_log_push(l, s->rep_key[s->rep_head]);
  }
  int at = len < SH_REP_WINDOW ? len : s->rep_head;
  s->rep_key[at] = key;
  s->rep_tag[at] = tag;
  if (len < SH_REP_WINDOW) {
    s->rep_len = (uint16_t)(len + 1);
  } else { /* the ring is full: the oldest key went */
    s->rep_head = (uint16_t)((s->rep_head + 1) % SH_REP_WINDOW);
  }
  if (TH_UNLIKELY(seen >= s->rules.repetition_limit)) {
    s->phase = SH_PHASE_OVER;
    s->truncated = 1; /* scored as a truncated game (section 7) */
    s->stalemate = 1;
    s->current = SH_NO_SEAT;
  }
}

void sh_record_position(sh_state *s) { record_position(s); }

/* After every move: the move is counted; with `track` (repetition_limit > 0)
 * the position reached is recorded, which may end the game as a stalemate;
 * only then is the move cap checked. So when the move that makes a
 * position's k-th occurrence is also the last one the cap allows, the game is
 * a stalemate, not truncated at the cap (RULES.md section 7, D-18), as a
 * last allowed move that finishes the game is a normal finish. */
SH_HOT void end_move(sh_state *s, int track) {
  s->move_count++;
  if (track) record_position(s);
  if (s->move_count >= s->max_moves && s->phase != SH_PHASE_OVER) {
    s->phase = SH_PHASE_OVER;
    s->truncated = 1;
    s->current = SH_NO_SEAT;
  }
}

static inline int repetitions_on(const sh_state *s) { return TH_UNLIKELY(s->rules.repetition_limit != 0); }

void sh_do_play(sh_state *s, int rank, int count) {
  play(s, s->current, rank, count, 1, 1);
  end_move(s, repetitions_on(s));
}

void sh_do_blind(sh_state *s, int slot) {
  play_blind(s, s->current, slot, 1, 1);
  end_move(s, repetitions_on(s));
}

void sh_do_pickup(sh_state *s) {
  pick_up(s, s->current, 1);
  end_move(s, repetitions_on(s));
}

/* With the rule on, the same steps keep pile_hash and record the position;
 * the two versions are separate so that the one without pays nothing. */
void sh_fast_play(sh_state *s, int rank, int count) {
  if (repetitions_on(s)) {
    play(s, s->current, rank, count, 0, 1);
    end_move(s, 1);
    return;
  }
  play(s, s->current, rank, count, 0, 0);
  end_move(s, 0);
}

void sh_fast_blind(sh_state *s, int slot) {
  if (repetitions_on(s)) {
    play_blind(s, s->current, slot, 0, 1);
    end_move(s, 1);
    return;
  }
  play_blind(s, s->current, slot, 0, 0);
  end_move(s, 0);
}

void sh_fast_pickup(sh_state *s) {
  pick_up(s, s->current, 0); /* clears pile_hash either way */
  end_move(s, repetitions_on(s));
}

/* One uniformly random move of seat p in the play phase, on the counts only;
 * returns the seat to move next. The choice is sh_uniform_play (as the random
 * policy makes it), the effects are the rule functions above. */
SH_HOT int fast_random_move(sh_state *s, int p, th_rng *rng, const uint64_t (*bytes)[2], int track) {
  int from_hand = s->seat[p].hand_len != 0;
  uint8_t *counts = from_hand ? s->seat[p].hand_rank : s->seat[p].up_len ? s->seat[p].up_rank : NULL;
  if (!counts) {
    int k = (int)th_rng_below(rng, s->seat[p].down_len);
    for (int slot = 0; slot < SH_MAX_CPZ; slot++)
      if (s->seat[p].down[slot] != SH_NO_CARD && k-- == 0) return play_blind(s, p, slot, 0, track);
    return p;
  }
  if (s->rules.merge_hand_with_face_up && from_hand && s->draw_len == 0) {
    /* merging adds face-up copies to the counts: the general walk in id order */
    uint16_t m = present_mask(counts) & playable_mask(s);
    if (!m) {
      (void)th_rng_next(rng); /* one draw per decision, as legal_actions()[below(1)] */
      return pick_up(s, p, 0);
    }
    int total = 0;
    for (uint16_t x = m; x; x &= (uint16_t)(x - 1)) {
      int r = th_ctz32(x);
      total += counts[r] + (can_merge(s, p, r) ? s->seat[p].up_rank[r] : 0);
    }
    int k = (int)th_rng_below(rng, (uint32_t)total);
    for (uint16_t x = m; x; x &= (uint16_t)(x - 1)) {
      int r = th_ctz32(x), c = counts[r] + (can_merge(s, p, r) ? s->seat[p].up_rank[r] : 0);
      if (k < c) return play(s, p, r, k + 1, 0, track);
      k -= c;
    }
    return p;
  }
  int rank, count;
  const uint64_t *bm = bytes[s->eff_top & 15];
  if (sh_uniform_play_bytes(counts, bm[0], bm[1], rng, &rank, &count))
    return play_from(s, p, counts, from_hand ? &s->seat[p].hand_len : &s->seat[p].up_len, rank, count, track);
  (void)th_rng_next(rng); /* a forced pick-up still takes its draw: below(1) */
  return pick_up(s, p, 0);
}

static void byte_table(const sh_state *s, uint64_t bytes[16][2]) {
  for (int t = 0; t < 16; t++) {
    uint16_t m = sh_playable_by_top(&s->rules, t);
    bytes[t][0] = byte_mask8(m & 0xFF);
    bytes[t][1] = byte_mask8(m >> 8);
  }
}

/* The playout loop: with `bounded`, it also stops once move_count reaches
 * move_limit; with `track` (repetition_limit > 0), it keeps the repetition
 * keys. Both are constants at every call: four loops, each paying only for
 * what it does. */
SH_HOT void playout(sh_state *s, th_rng *rng, int bounded, uint32_t move_limit, int track) {
  /* Each pass adds one move and the game ends at max_moves: bounded. */
  uint64_t bytes[16][2]; /* playable ranks by effective top, as byte masks */
  byte_table(s, bytes);
  /* A local copy of the generator: stores into the state are byte stores,
   * which may alias anything, so a generator behind a pointer would go
   * through memory on every move. */
  th_rng local = *rng;
  int p = s->current;
  while (s->phase == SH_PHASE_PLAY && (!bounded || s->move_count < move_limit)) {
    p = fast_random_move(s, p, &local, (const uint64_t(*)[2])bytes, track);
    end_move(s, track); /* a stalemate ends the loop */
  }
  *rng = local;
}

void sh_fast_random_playout(sh_state *s, th_rng *rng) {
  if (repetitions_on(s))
    playout(s, rng, 0, 0, 1);
  else
    playout(s, rng, 0, 0, 0);
}

void sh_fast_random_playout_until(sh_state *s, th_rng *rng, uint32_t move_limit) {
  /* sh_fast_random_playout, stopping once move_count reaches move_limit. */
  if (repetitions_on(s))
    playout(s, rng, 1, move_limit, 1);
  else
    playout(s, rng, 1, move_limit, 0);
}

SH_HOT int playout2(sh_state *a, th_rng *rng_a, sh_state *b, th_rng *rng_b, uint32_t max_moves, int track) {
  /* Two independent games, a move of each in turn: one game's chain of
   * dependent steps (pile top, choice, counts) runs while the other's waits.
   * Each pass adds a move to both games: bounded by max_moves and by their
   * move caps. */
  uint64_t bytes_a[16][2], bytes_b[16][2];
  byte_table(a, bytes_a);
  byte_table(b, bytes_b);
  th_rng ra = *rng_a, rb = *rng_b;
  int pa = a->current, pb = b->current;
  for (uint32_t k = 0; k < max_moves && a->phase == SH_PHASE_PLAY && b->phase == SH_PHASE_PLAY; k++) {
    pa = fast_random_move(a, pa, &ra, (const uint64_t(*)[2])bytes_a, track);
    pb = fast_random_move(b, pb, &rb, (const uint64_t(*)[2])bytes_b, track);
    /* with `track`, only a game with the rule records its positions */
    end_move(a, track && a->rules.repetition_limit);
    end_move(b, track && b->rules.repetition_limit);
  }
  *rng_a = ra;
  *rng_b = rb;
  return a->phase != SH_PHASE_PLAY ? 0 : b->phase != SH_PHASE_PLAY ? 1 : 2;
}

int sh_fast_random_playout2(sh_state *a, th_rng *rng_a, sh_state *b, th_rng *rng_b, uint32_t max_moves) {
  if (repetitions_on(a) || repetitions_on(b)) return playout2(a, rng_a, b, rng_b, max_moves, 1);
  return playout2(a, rng_a, b, rng_b, max_moves, 0);
}

void sh_do_swap(sh_state *s, const uint8_t *face_up) {
  sh_move m;
  memset(&m, 0, sizeof m);
  m.kind = SH_MOVE_SWAP;
  m.count = s->rules.cards_per_zone;
  memcpy(m.face_up, face_up, m.count);
  apply_swap(s, s->current, &m);
  end_move(s, repetitions_on(s));
}

void sh_apply_legal(sh_state *s, int a) {
  const sh_rules *r = &s->rules;
  int C = sh_copies_per_rank(r), fb = sh_first_blind_action(r), pu = fb + r->cards_per_zone;
  if (a < fb) {
    sh_do_play(s, a / C, a % C + 1);
  } else if (a < pu) {
    sh_do_blind(s, a - fb);
  } else if (a == pu) {
    sh_do_pickup(s);
  } else {
    uint8_t ranks[SH_MAX_CPZ];
    sh_swap_ranks(a - pu - 1, r->cards_per_zone, ranks);
    sh_do_swap(s, ranks);
  }
}

int sh_apply_action(sh_state *s, int a, th_error *e) {
  if (a < 0 || a >= sh_num_distinct_actions(&s->rules)) {
    th_set_error(e, TH_ERR_ACTION, "action %d is out of range: ids are 0..%d in this game", a,
                 sh_num_distinct_actions(&s->rules) - 1);
    return TH_ERR_ACTION;
  }
  if (s->phase == SH_PHASE_OVER) {
    th_set_error(e, TH_ERR_ILLEGAL, "action %d is not legal: the game is over", a);
    return TH_ERR_ILLEGAL;
  }
  if (!sh_is_legal(s, a)) {
    th_set_error(e, TH_ERR_ILLEGAL, "action %d is not legal for seat %d in this state", a, s->current);
    return TH_ERR_ILLEGAL;
  }
  sh_apply_legal(s, a);
  if (e) e->code = TH_OK;
  return TH_OK;
}

int sh_state_decode_action(const sh_state *s, int a, sh_move *m) {
  int rc = sh_decode_action(&s->rules, a, m);
  if (rc) return rc;
  if (m->kind == SH_MOVE_BLIND) m->source = SH_SRC_FACE_DOWN;
  if (m->kind != SH_MOVE_PLAY || s->phase != SH_PHASE_PLAY) return TH_OK;
  int p = s->current;
  if (s->seat[p].hand_len > 0)
    m->source = m->count > s->seat[p].hand_rank[m->rank] && s->seat[p].hand_rank[m->rank] > 0 ? SH_SRC_HAND_AND_FACE_UP
                                                                                    : SH_SRC_HAND;
  else if (s->seat[p].up_len > 0)
    m->source = SH_SRC_FACE_UP;
  return TH_OK;
}

/* ---------------------------------------------------------------- end -- */

void sh_returns(const sh_state *s, double *out) {
  int n = s->num_players;
  for (int i = 0; i < n; i++) out[i] = 0.0;
  if (s->phase != SH_PHASE_OVER) return;
  /* Finishing position as the key; the players still in at truncation share
   * the open places (RULES.md section 7). */
  int32_t key[SH_MAX_PLAYERS];
  for (int q = 0; q < n; q++) key[q] = s->num_out;
  for (int k = 0; k < s->num_out; k++) key[s->finish[k]] = k;
  th_returns_from_keys(key, n, out);
}

void sh_public_counts(const sh_state *s, uint8_t known[][16], uint8_t *burned) {
  int n = s->num_players < SH_MAX_PLAYERS ? s->num_players : SH_MAX_PLAYERS;
  int decks = s->rules.decks < SH_MAX_DECKS ? s->rules.decks : SH_MAX_DECKS;
  const uint8_t *loc = SH_LOC(s);
  memset(known, 0, (size_t)n * 16);
  memset(burned, 0, 16);
  /* Deck by deck, 8 zone codes a word (SWAR, little-endian: the same on every
   * platform): the kinds 8w .. 8w+7 are ranks 2w and 2w+1, four suits each
   * (kinds 52 and 53 the jokers, 54 and 55 in no deck). A burned card's code
   * is SH_LOC_BURNED; a known hand card's high nibble SH_LOC_KNOWN. */
  static const uint8_t bits4[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
  for (int c = 0; c < decks; c++) {
    const uint8_t *d = loc + c * SH_COPY_STRIDE;
    for (int w = 0; w < SH_NUM_RANKS / 2; w++) {
      uint64_t x = load_le64(d + 8 * w);
      unsigned b = ~nonzero_bytes8(x ^ UINT64_C(0x5050505050505050)) & 0xFFu; /* SH_LOC_BURNED bytes */
      burned[2 * w] = (uint8_t)(burned[2 * w] + bits4[b & 15u]);
      burned[2 * w + 1] = (uint8_t)(burned[2 * w + 1] + bits4[b >> 4]);
      unsigned k = ~nonzero_bytes8((x & UINT64_C(0xF0F0F0F0F0F0F0F0)) ^ UINT64_C(0x8080808080808080)) & 0xFFu;
      for (; k; k &= k - 1u) { /* known hand cards */
        int i = th_ctz32(k), l = d[8 * w + i];
        if ((l & 0x0F) < n) known[l & 0x0F][(8 * w + i) >> 2]++;
      }
    }
  }
}

void sh_known_rank_counts(const sh_state *s, int seat, uint8_t *out) {
  uint8_t known[SH_MAX_PLAYERS][16], burned[16];
  sh_public_counts(s, known, burned);
  memcpy(out, known[seat], SH_NUM_RANKS);
}
