/* setup.c - building a position zone by zone, and the invariant check that
 * every state (dealt, played or built) must pass. */
#include <stddef.h>
#include <string.h>

#include "shithead/state.h"
#include "common/portable.h"

static int kind_in_deck(const sh_rules *r, int kind) {
  if (kind < 0 || kind >= SH_NUM_KINDS) return 0;
  if (kind < SH_KIND_RED_JOKER) return 1;
  return kind - SH_KIND_RED_JOKER < r->jokers;
}

static int copies_in_deck(const sh_rules *r, int id) {
  return (id / SH_COPY_STRIDE) < r->decks && kind_in_deck(r, sh_card_kind(id));
}

/* Recomputes the effective top and the top run from the pile (6.1, 6.3).
 * Returns 0, or an error when the pile could not have arisen. */
static int scan_pile(const sh_state *s, uint8_t *eff_top, uint8_t *run_rank, uint8_t *run_len, th_error *e) {
  const sh_rules *r = &s->rules;
  int top = SH_OPEN, rr = SH_NO_RANK, rl = 0;
  for (int i = 0; i < s->pile_len; i++) {
    int rank = sh_card_rank(SH_PILE(s)[i]);
    char t[3];
    sh_kind_text(sh_card_kind(SH_PILE(s)[i]), t);
    if ((r->burn >> rank) & 1) {
      th_set_error(e, TH_ERR_SETUP, "the pile holds %s, a burn card: a burn card never stays on the pile", t);
      return TH_ERR_SETUP;
    }
    int invisible = (r->invisible >> rank) & 1;
    if (!invisible) top = rank;
    if (!(invisible && r->invisible_in_runs == SH_RUNS_SKIP)) {
      if (rr == rank)
        rl++;
      else
        rr = rank, rl = 1;
    }
    if (r->run_to_burn && rl >= r->run_to_burn) {
      th_set_error(e, TH_ERR_SETUP, "the pile holds a run of %d cards of one rank, which would have burned",
                   rl);
      return TH_ERR_SETUP;
    }
  }
  *eff_top = (uint8_t)top;
  *run_rank = (uint8_t)rr;
  *run_len = (uint8_t)rl;
  return TH_OK;
}

int sh_setup_begin(sh_state *s, const sh_rules *r, int num_players, int dealer, uint32_t max_moves,
                   th_error *e) {
  int rc = sh_check_game_args(r, num_players, &dealer, &max_moves, e);
  if (rc) return rc;
  sh_state_clear(s, r, num_players, dealer, max_moves);
  if (e) e->code = TH_OK;
  return TH_OK;
}

int sh_setup_add(sh_state *s, int zone, int seat, int kind, int slot, th_error *e) {
  const sh_rules *r = &s->rules;
  char t[3];
  if (!kind_in_deck(r, kind)) {
    if (kind >= 0 && kind < SH_NUM_KINDS) {
      sh_kind_text(kind, t);
      th_set_error(e, TH_ERR_SETUP, "card %s is not in this game's deck (jokers per deck: %d)", t, r->jokers);
    } else {
      th_set_error(e, TH_ERR_SETUP, "card kind %d does not exist", kind);
    }
    return TH_ERR_SETUP;
  }
  sh_kind_text(kind, t);
  if (zone < SH_ZONE_HAND || zone > SH_ZONE_BURNED) {
    th_set_error(e, TH_ERR_SETUP, "zone %d does not exist", zone);
    return TH_ERR_SETUP;
  }
  if (zone <= SH_ZONE_FACE_DOWN && (seat < 0 || seat >= s->num_players)) {
    th_set_error(e, TH_ERR_SETUP, "seat %d does not exist in a %d-player game", seat, s->num_players);
    return TH_ERR_SETUP;
  }
  int id = -1;
  for (int c = 0; c < r->decks; c++)
    if (SH_LOC(s)[sh_card_id(c, kind)] == SH_LOC_ABSENT) {
      id = sh_card_id(c, kind);
      break;
    }
  if (id < 0) {
    th_set_error(e, TH_ERR_SETUP, "card %s appears more often than the %d deck(s) hold", t, r->decks);
    return TH_ERR_SETUP;
  }
  int rank = sh_kind_rank(kind);
  switch (zone) {
    case SH_ZONE_HAND:
    case SH_ZONE_HAND_KNOWN:
      if (s->seat[seat].hand_len == 255) break;
      SH_LOC(s)[id] = (uint8_t)(SH_LOC_HAND | seat | (zone == SH_ZONE_HAND_KNOWN ? SH_LOC_KNOWN : 0));
      s->seat[seat].hand_rank[rank]++;
      s->seat[seat].hand_len++;
      return TH_OK;
    case SH_ZONE_FACE_UP:
      if (s->seat[seat].up_len >= r->cards_per_zone) {
        th_set_error(e, TH_ERR_SETUP, "seat %d has more than %d face-up cards", seat, r->cards_per_zone);
        return TH_ERR_SETUP;
      }
      SH_LOC(s)[id] = (uint8_t)(SH_LOC_FACE_UP | seat);
      s->seat[seat].up_rank[rank]++;
      s->seat[seat].up_len++;
      return TH_OK;
    case SH_ZONE_FACE_DOWN:
      if (slot < 0 || slot >= r->cards_per_zone) {
        th_set_error(e, TH_ERR_SETUP, "face-down slot %d does not exist (slots 0..%d)", slot,
                     r->cards_per_zone - 1);
        return TH_ERR_SETUP;
      }
      if (s->seat[seat].down[slot] != SH_NO_CARD) {
        th_set_error(e, TH_ERR_SETUP, "face-down slot %d of seat %d holds two cards", slot, seat);
        return TH_ERR_SETUP;
      }
      SH_LOC(s)[id] = (uint8_t)(SH_LOC_FACE_DOWN | seat);
      s->seat[seat].down[slot] = (uint8_t)id;
      s->seat[seat].down_len++;
      return TH_OK;
    case SH_ZONE_DRAW:
      SH_LOC(s)[id] = SH_LOC_DRAW;
      *sh_draw_slot(s, s->draw_len++) = (uint8_t)id;
      return TH_OK;
    case SH_ZONE_PILE:
      SH_LOC(s)[id] = SH_LOC_PILE;
      if (s->rules.repetition_limit) s->pile_hash ^= sh_pile_card_hash(s->pile_len, rank);
      SH_PILE(s)[s->pile_len++] = (uint8_t)id;
      s->pile_rank[rank]++;
      return TH_OK;
    default:
      SH_LOC(s)[id] = SH_LOC_BURNED;
      s->burned_len++;
      return TH_OK;
  }
  th_set_error(e, TH_ERR_SETUP, "a zone holds too many cards");
  return TH_ERR_SETUP;
}

uint64_t sh_state_copy_bench(const sh_state *s, sh_state scratch[2], uint64_t n) {
  uint64_t sum = 0;
  for (uint64_t i = 0; i < n; i++) {
    sh_state_copy(&scratch[i & 1], s);
    TH_CLOBBER(&scratch[i & 1]);
    sum += scratch[i & 1].move_count + SH_PILE(&scratch[i & 1])[i % SH_MAX_CARDS];
  }
  return sum;
}

void sh_state_canonical(const sh_state *s, sh_state *out) {
  memset(out, 0, sizeof *out);
  out->rules = s->rules;
  /* The rules' padding byte after their last field may hold anything (rules
   * built field by field, as from a Python dict, leave it as it was), and
   * the copy may carry it: zero it, so that it never tells positions apart. */
  _Static_assert(offsetof(sh_rules, repetition_limit) + 2 == sizeof(sh_rules),
                 "sh_rules: repetition_limit is the last field, then one padding byte");
  ((unsigned char *)&out->rules)[sizeof out->rules - 1] = 0;
  out->move_count = s->move_count;
  out->max_moves = s->max_moves;
  out->num_players = s->num_players;
  out->dealer = s->dealer;
  out->phase = s->phase;
  out->current = s->current;
  out->truncated = s->truncated;
  out->num_out = s->num_out;
  out->eff_top = s->eff_top;
  out->run_rank = s->run_rank;
  out->run_len = s->run_len;
  out->pile_len = s->pile_len;
  out->draw_len = s->draw_len;
  out->burned_len = s->burned_len;
  out->out_mask = s->out_mask;
  memcpy(out->finish, s->finish, sizeof out->finish);
  memcpy(out->pile_rank, s->pile_rank, sizeof out->pile_rank);
  /* the game's seats only: the others are not part of the state (a copy
   * leaves them out, sh_state_bytes) */
  int n = s->num_players < SH_MAX_PLAYERS ? s->num_players : SH_MAX_PLAYERS;
  for (int q = 0; q < n; q++) {
    memcpy(out->seat[q].hand_rank, s->seat[q].hand_rank, sizeof out->seat[q].hand_rank);
    memcpy(out->seat[q].up_rank, s->seat[q].up_rank, sizeof out->seat[q].up_rank);
    out->seat[q].hand_len = s->seat[q].hand_len;
    out->seat[q].up_len = s->seat[q].up_len;
    out->seat[q].down_len = s->seat[q].down_len;
    out->seat[q].next_seat = s->seat[q].next_seat;
    for (int k = 0; k < SH_MAX_CPZ; k++)
      out->seat[q].down[k] = s->seat[q].down[k] == SH_NO_CARD ? SH_NO_CARD : (uint8_t)sh_card_kind(s->seat[q].down[k]);
  }
  for (int i = 0; i < s->pile_len; i++) SH_PILE(out)[i] = (uint8_t)sh_card_kind(SH_PILE(s)[i]);
  for (int i = 0; i < s->draw_len; i++) *sh_draw_slot(out, i) = (uint8_t)sh_card_kind(sh_draw_at(s, i));
  memcpy(SH_LOC(out), SH_LOC(s), (size_t)sh_id_space(s));
  int decks = s->rules.decks < SH_MAX_DECKS ? s->rules.decks : SH_MAX_DECKS;
  for (int kind = 0; kind < SH_NUM_KINDS; kind++) /* insertion sort of each kind's zone codes */
    for (int c = 1; c < decks; c++)
      for (int j = c; j > 0; j--) {
        uint8_t *a = &SH_LOC(out)[sh_card_id(j - 1, kind)], *b = &SH_LOC(out)[sh_card_id(j, kind)];
        if (*a <= *b) break;
        uint8_t t = *a;
        *a = *b;
        *b = t;
      }
}

static int cards_of(const sh_state *s, int q) { return s->seat[q].hand_len + s->seat[q].up_len + s->seat[q].down_len; }

int sh_setup_finish(sh_state *s, int phase, int current, uint32_t move_count, int truncated,
                    const uint8_t *finish, int num_finish, th_error *e) {
  const sh_rules *r = &s->rules;
  int n = s->num_players, K = r->cards_per_zone;
  /* Every card of the deck must be somewhere. */
  for (int id = 0; id < SH_CARD_ID_SPACE; id++)
    if (copies_in_deck(r, id) && sh_loc_at(s, id) == SH_LOC_ABSENT) {
      int missing = 0;
      for (int j = id; j < SH_CARD_ID_SPACE; j++) missing += copies_in_deck(r, j) && sh_loc_at(s, j) == SH_LOC_ABSENT;
      char t[3];
      sh_kind_text(sh_card_kind(id), t);
      th_set_error(e, TH_ERR_SETUP, "%d card(s) of the deck are in no zone (the first is %s): every card must be "
                   "placed exactly once", missing, t);
      return TH_ERR_SETUP;
    }
  int rc = scan_pile(s, &s->eff_top, &s->run_rank, &s->run_len, e);
  if (rc) return rc;
  if (phase < SH_PHASE_SWAP || phase > SH_PHASE_OVER) {
    th_set_error(e, TH_ERR_SETUP, "phase %d does not exist", phase);
    return TH_ERR_SETUP;
  }
  if (truncated && phase != SH_PHASE_OVER) {
    th_set_error(e, TH_ERR_SETUP, "only a finished game can be truncated");
    return TH_ERR_SETUP;
  }
  if (move_count > s->max_moves || (phase != SH_PHASE_OVER && move_count >= s->max_moves) ||
      (truncated && !s->stalemate && move_count != s->max_moves)) {
    th_set_error(e, TH_ERR_SETUP, "move_count %u does not fit max_moves %u and the phase", move_count,
                 s->max_moves);
    return TH_ERR_SETUP;
  }
  if (num_finish < 0 || num_finish > n) {
    th_set_error(e, TH_ERR_SETUP, "the finishing order lists %d seats in a %d-player game", num_finish, n);
    return TH_ERR_SETUP;
  }
  uint16_t seen = 0;
  for (int k = 0; k < num_finish; k++) {
    if (finish[k] >= n || ((seen >> finish[k]) & 1)) {
      th_set_error(e, TH_ERR_SETUP, "the finishing order must list distinct seats in 0..%d", n - 1);
      return TH_ERR_SETUP;
    }
    seen |= (uint16_t)(1u << finish[k]);
  }
  s->move_count = move_count;
  s->truncated = (uint8_t)(truncated != 0);
  s->phase = (uint8_t)phase;
  memcpy(s->finish, finish, (size_t)num_finish);
  s->num_out = (uint8_t)num_finish;
  if (phase == SH_PHASE_OVER && !truncated) {
    if (num_finish == n - 1) { /* the shithead may be left implicit */
      for (int q = 0; q < n; q++)
        if (!((seen >> q) & 1)) s->finish[s->num_out++] = (uint8_t)q;
    }
    if (s->num_out != n) {
      th_set_error(e, TH_ERR_SETUP, "a finished game lists every seat in its finishing order");
      return TH_ERR_SETUP;
    }
    for (int k = 0; k < n - 1; k++) s->out_mask |= (uint16_t)(1u << s->finish[k]);
    if (cards_of(s, s->finish[n - 1]) == 0) {
      th_set_error(e, TH_ERR_SETUP, "the shithead (seat %d) must still hold cards", s->finish[n - 1]);
      return TH_ERR_SETUP;
    }
  } else {
    if (num_finish > n - 2) {
      th_set_error(e, TH_ERR_SETUP, "with %d players out of %d the game would be over", num_finish, n);
      return TH_ERR_SETUP;
    }
    s->out_mask = seen;
  }
  if (phase == SH_PHASE_OVER) {
    if (current != TH_TERMINAL_PLAYER) {
      th_set_error(e, TH_ERR_SETUP, "a finished game has current player %d, not %d", TH_TERMINAL_PLAYER,
                   current);
      return TH_ERR_SETUP;
    }
    s->current = SH_NO_SEAT;
  } else {
    if (current < 0 || current >= n || ((s->out_mask >> current) & 1)) {
      th_set_error(e, TH_ERR_SETUP, "current player %d is not a seat still in the game", current);
      return TH_ERR_SETUP;
    }
    s->current = (uint8_t)current;
  }
  if (phase == SH_PHASE_SWAP) {
    if (num_finish || s->pile_len || s->burned_len) {
      th_set_error(e, TH_ERR_SETUP, "in the swap phase nobody is out and the pile and burned cards are empty");
      return TH_ERR_SETUP;
    }
    for (int q = 0; q < n; q++)
      if (s->seat[q].up_len != K) {
        th_set_error(e, TH_ERR_SETUP, "in the swap phase every seat has %d face-up cards (seat %d has %d)", K, q,
                     s->seat[q].up_len);
        return TH_ERR_SETUP;
      }
  }
  sh_state_init_seats(s);
  if (r->repetition_limit && s->phase == SH_PHASE_PLAY) {
    /* the stretch of the remembered positions is the current one; with none
     * given, the current position is its first */
    s->rep_progress = sh_progress(s);
    sh_rep_hands_refresh(s);
    if (!s->rep_len) {
      s->rep_key[0] = sh_repetition_key(s);
      s->rep_tag[0] = sh_rep_tag(s->rep_key[0]);
      s->rep_len = 1;
    }
  }
  return sh_state_check(s, e);
}

#define FAIL(...)                                 \
  do {                                            \
    th_set_error(e, TH_ERR_SETUP, __VA_ARGS__); \
    return TH_ERR_SETUP;                          \
  } while (0)

int sh_state_check(const sh_state *s, th_error *e) {
  const sh_rules *r = &s->rules;
  th_error re;
  if (sh_rules_validate(r, s->num_players, &re)) FAIL("the state's rules are not valid: %s", re.msg);
  int n = s->num_players, K = r->cards_per_zone;
  if (s->dealer >= n) FAIL("dealer %d is not a seat", s->dealer);
  uint8_t hand[SH_MAX_PLAYERS][SH_NUM_RANKS], up[SH_MAX_PLAYERS][SH_NUM_RANKS];
  int hand_n[SH_MAX_PLAYERS] = {0}, up_n[SH_MAX_PLAYERS] = {0}, down_n[SH_MAX_PLAYERS] = {0};
  int draw_n = 0, pile_n = 0, burned_n = 0, total = 0;
  memset(hand, 0, sizeof hand);
  memset(up, 0, sizeof up);
  for (int id = 0; id < SH_CARD_ID_SPACE; id++) {
    int l = sh_loc_at(s, id);
    if (!copies_in_deck(r, id)) {
      if (l != SH_LOC_ABSENT) FAIL("card id %d is not in the deck but lies in a zone", id);
      continue;
    }
    int zone = (l & 0x70), seat = l & 0x0F, rank = sh_card_rank(id);
    if (l == SH_LOC_ABSENT) FAIL("card id %d is in no zone", id);
    if ((l & SH_LOC_KNOWN) && zone != SH_LOC_HAND) FAIL("card id %d is marked known outside a hand", id);
    if (zone <= SH_LOC_FACE_DOWN && seat >= n) FAIL("card id %d lies with seat %d, not in the game", id, seat);
    if (zone > SH_LOC_FACE_DOWN && seat != 0) FAIL("card id %d has a malformed zone code", id);
    total++;
    switch (zone) {
      case SH_LOC_HAND: hand[seat][rank]++; hand_n[seat]++; break;
      case SH_LOC_FACE_UP: up[seat][rank]++; up_n[seat]++; break;
      case SH_LOC_FACE_DOWN: down_n[seat]++; break;
      case SH_LOC_DRAW: draw_n++; break;
      case SH_LOC_PILE: pile_n++; break;
      case SH_LOC_BURNED: burned_n++; break;
      default: FAIL("card id %d has an unknown zone code 0x%02x", id, l);
    }
  }
  if (total != sh_rules_deck_size(r)) FAIL("%d cards in play, the deck has %d", total, sh_rules_deck_size(r));
  if (draw_n != s->draw_len || pile_n != s->pile_len || burned_n != s->burned_len)
    FAIL("the draw pile, pile or burned counts disagree with the cards' zones");
  uint8_t seen[SH_CARD_ID_SPACE];
  memset(seen, 0, sizeof seen);
  uint8_t pile_rank[16] = {0};
  for (int i = 0; i < s->pile_len; i++) {
    if (sh_loc_at(s, SH_PILE(s)[i]) != SH_LOC_PILE || seen[SH_PILE(s)[i]]++) FAIL("pile entry %d is wrong", i);
    pile_rank[sh_card_rank(SH_PILE(s)[i])]++;
  }
  if (memcmp(pile_rank, s->pile_rank, sizeof pile_rank)) FAIL("the pile's per-rank counts are wrong");
  if (r->repetition_limit && s->pile_hash != sh_pile_hash(s)) FAIL("the pile's incremental hash is wrong");
  for (int i = 0; i < s->draw_len; i++) {
    if (sh_loc_at(s, sh_draw_at(s, i)) != SH_LOC_DRAW || seen[sh_draw_at(s, i)]++) FAIL("draw pile entry %d is wrong", i);
  }
  for (int q = 0; q < n; q++) { /* seat[q] past the game's seats is not part of the state (sh_state_bytes) */
    int slots = 0;
    for (int k = 0; k < SH_MAX_CPZ; k++) {
      int id = s->seat[q].down[k];
      if (id == SH_NO_CARD) continue;
      if (k >= K) FAIL("a face-down slot outside the game holds a card");
      if (sh_loc_at(s, id) != (SH_LOC_FACE_DOWN | q) || seen[id]++) FAIL("face-down slot %d of seat %d is wrong", k, q);
      slots++;
    }
    if (slots != down_n[q] || s->seat[q].down_len != down_n[q]) FAIL("seat %d: face-down count is wrong", q);
    if (s->seat[q].hand_len != hand_n[q] || s->seat[q].up_len != up_n[q]) FAIL("seat %d: hand or face-up count is wrong", q);
    if (memcmp(s->seat[q].hand_rank, hand[q], SH_NUM_RANKS) || memcmp(s->seat[q].up_rank, up[q], SH_NUM_RANKS))
      FAIL("seat %d: per-rank counts are wrong", q);
    if (s->seat[q].up_len > K) FAIL("seat %d has more than %d face-up cards", q, K);
  }
  uint8_t top, rr, rl;
  th_error pe;
  if (scan_pile(s, &top, &rr, &rl, &pe)) FAIL("%s", pe.msg);
  if (top != s->eff_top || rr != s->run_rank || rl != s->run_len) FAIL("the pile's cached top or run is wrong");
  if (s->phase > SH_PHASE_OVER) FAIL("unknown phase %d", s->phase);
  if (s->move_count > s->max_moves) FAIL("move_count is past max_moves");
  if (s->truncated && s->phase != SH_PHASE_OVER) FAIL("truncated but not over");
  if (s->num_out > n) FAIL("too many players out");
  uint16_t mask = 0;
  int normal_over = s->phase == SH_PHASE_OVER && !s->truncated;
  for (int k = 0; k < s->num_out; k++) {
    int q = s->finish[k];
    if (q >= n || ((mask >> q) & 1)) FAIL("the finishing order is malformed");
    mask |= (uint16_t)(1u << q);
    int is_shithead = normal_over && k == n - 1;
    if (!is_shithead && s->seat[q].hand_len + s->seat[q].up_len + s->seat[q].down_len) FAIL("seat %d is out but has cards", q);
  }
  if (normal_over) {
    if (s->num_out != n) FAIL("a finished game must rank every seat");
    mask &= (uint16_t) ~(1u << s->finish[n - 1]);
  }
  if (mask != s->out_mask) FAIL("the out mask disagrees with the finishing order");
  {
    sh_state t;
    t.num_players = s->num_players;
    t.out_mask = s->out_mask;
    sh_state_init_seats(&t);
    for (int q = 0; q < n; q++)
      if (t.seat[q].next_seat != s->seat[q].next_seat) FAIL("the next-seat table disagrees with the out mask");
  }
  for (int q = 0; q < n; q++)
    if (!((mask >> q) & 1) && !(s->seat[q].hand_len + s->seat[q].up_len + s->seat[q].down_len)) FAIL("seat %d has no cards but is not out", q);
  if (s->draw_len > 0 && s->phase != SH_PHASE_OVER)
    for (int q = 0; q < n; q++)
      if (s->seat[q].hand_len < K)
        FAIL("seat %d holds %d hand cards while the draw pile is not empty: hands are refilled to %d (RULES.md 6.3)",
             q, s->seat[q].hand_len, K);
  if (s->phase == SH_PHASE_SWAP)
    for (int q = 0; q < n; q++)
      if (s->seat[q].hand_len != K || s->seat[q].up_len != K || s->seat[q].down_len != K)
        FAIL("in the swap phase every seat holds %d cards in hand, face up and face down (seat %d: %d, %d, %d)", K, q,
             s->seat[q].hand_len, s->seat[q].up_len, s->seat[q].down_len);
  if (s->phase == SH_PHASE_OVER) {
    if (s->current != SH_NO_SEAT) FAIL("a finished game has a player to move");
  } else {
    if (s->current >= n || ((mask >> s->current) & 1)) FAIL("the player to move is not in the game");
    if (n - s->num_out < 2) FAIL("the game should be over");
  }
  /* stalemate by repetition (state.h) */
  if (s->stalemate > 1) FAIL("stalemate must be 0 or 1");
  if (!r->repetition_limit && s->stalemate) FAIL("a stalemate needs repetition_limit > 0");
  if (s->stalemate && !(s->phase == SH_PHASE_OVER && s->truncated)) FAIL("a stalemate is a finished, truncated game");
  if (r->repetition_limit) { /* the repetition tail (state.h): part of the state with the rule on only */
    if (s->rep_len > SH_REP_WINDOW || s->rep_head >= SH_REP_WINDOW || (s->rep_len < SH_REP_WINDOW && s->rep_head))
      FAIL("the remembered positions do not fit their ring of %d", SH_REP_WINDOW);
    if (s->rep_len && s->phase == SH_PHASE_SWAP) FAIL("positions are remembered in the play phase only");
    for (int i = 0; i < s->rep_len; i++)
      if (s->rep_tag[i] != sh_rep_tag(s->rep_key[i])) FAIL("the tag of remembered position %d is wrong", i);
    if (s->rep_len && s->phase == SH_PHASE_PLAY) {
      if (s->rep_progress != sh_progress(s)) FAIL("the remembered positions belong to an earlier stretch of the game");
      int newest = s->rep_len < SH_REP_WINDOW ? s->rep_len - 1 : (s->rep_head + SH_REP_WINDOW - 1) % SH_REP_WINDOW;
      if (s->rep_key[newest] != sh_repetition_key(s)) {
        if (s->rep_key[newest] == sh_position_key(s))
          FAIL("the remembered positions are position keys (as saved before repetition keys, state.h): this "
               "version remembers repetition keys");
        FAIL("the newest remembered position is not the current one");
      }
      /* the hands' part kept incrementally (state.h) */
      sh_state t = *s;
      sh_rep_hands_refresh(&t);
      if (t.rep_hands != s->rep_hands || memcmp(t.rep_hand_len, s->rep_hand_len, sizeof t.rep_hand_len))
        FAIL("the hands' part of the repetition key is stale");
    }
  }
  if (e) e->code = TH_OK;
  return TH_OK;
}

int sh_setup_repetitions(sh_state *s, int stalemate, const uint64_t *keys, int n, th_error *e) {
  if (stalemate < 0 || stalemate > 1) FAIL("stalemate must be 0 or 1, not %d", stalemate);
  if (n < 0 || n > SH_REP_WINDOW) FAIL("at most %d remembered positions, not %d", SH_REP_WINDOW, n);
  if (n && !keys) FAIL("the remembered positions are missing");
  if (!s->rules.repetition_limit) { /* no repetition tail (state.h): nothing to remember */
    if (stalemate || n) FAIL("a stalemate or remembered positions need repetition_limit > 0");
    s->stalemate = 0;
    if (e) e->code = TH_OK;
    return TH_OK;
  }
  s->stalemate = (uint8_t)stalemate;
  s->rep_len = (uint16_t)n;
  s->rep_head = 0;
  for (int i = 0; i < n; i++) {
    s->rep_key[i] = keys[i];
    s->rep_tag[i] = sh_rep_tag(keys[i]);
  }
  if (e) e->code = TH_OK;
  return TH_OK;
}

int sh_remembered_positions(const sh_state *s, uint64_t *out) {
  if (!s->rules.repetition_limit) return 0; /* the repetition tail is not part of the state (state.h) */
  int n = s->rep_len;
  for (int i = 0; i < n; i++) out[i] = s->rep_key[n < SH_REP_WINDOW ? i : (s->rep_head + i) % SH_REP_WINDOW];
  return n;
}
