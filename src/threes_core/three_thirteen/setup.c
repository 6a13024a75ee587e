/* setup.c - building a position from its parts, every value checked; see
 * state.h (tt_setup_begin, tt_setup_add, tt_setup_finish). */
#include <string.h>

#include "three_thirteen/state.h"

int tt_setup_begin(tt_state *s, const tt_options *o, int num_players, th_error *e) {
  memset(s, 0, sizeof *s);
  s->phase = TT_PHASE_OVER; /* not a position until finished */
  s->current = TT_NO_SEAT;
  int rc = tt_options_validate(o, num_players, e);
  if (rc) return rc;
  s->opt = *o;
  s->num_players = (uint8_t)num_players;
  tt_layout(s);
  if (e) e->code = TH_OK;
  return TH_OK;
}

int tt_setup_add(tt_state *s, int zone, int seat, int kind, th_error *e) {
  if (zone < 0 || zone >= TT_NUM_ZONES) {
    th_set_error(e, TH_ERR_SETUP, "zone %d does not exist (0..%d)", zone, TT_NUM_ZONES - 1);
    return TH_ERR_SETUP;
  }
  if (kind < 0 || kind >= TT_NUM_KINDS) {
    th_set_error(e, TH_ERR_SETUP, "card kind %d does not exist (0..%d)", kind, TT_NUM_KINDS - 1);
    return TH_ERR_SETUP;
  }
  if (tt_kind_copies(&s->opt, kind) == 0) {
    th_set_error(e, TH_ERR_SETUP, "card kind %d (a joker) is not in this game's deck (jokers per deck: %d)", kind,
                 s->opt.jokers);
    return TH_ERR_SETUP;
  }
  if (zone <= TT_ZONE_POOL_HAND) {
    if (seat < 0 || seat >= s->num_players) {
      th_set_error(e, TH_ERR_SETUP, "seat %d does not exist in a %d-player game", seat, s->num_players);
      return TH_ERR_SETUP;
    }
    if (zone == TT_ZONE_HAND) {
      if (s->hand_len[seat] >= TT_MAX_HAND) {
        th_set_error(e, TH_ERR_SETUP, "seat %d holds more than %d cards", seat, TT_MAX_HAND);
        return TH_ERR_SETUP;
      }
      if (tt_hand(s, seat, kind) >= tt_kind_copies(&s->opt, kind)) {
        th_set_error(e, TH_ERR_SETUP, "seat %d holds more cards of kind %d than the deck has (%d)", seat, kind,
                     tt_kind_copies(&s->opt, kind));
        return TH_ERR_SETUP;
      }
      tt_set_add(tt_set(s, seat, TT_SET_HAND), s->planes, kind);
      s->hand_len[seat]++;
      return TH_OK;
    }
    if (tt_known(s, seat, kind) + tt_pool_hand(s, seat, kind) >= tt_hand(s, seat, kind)) {
      th_set_error(e, TH_ERR_SETUP, "seat %d: more known and pool cards of kind %d than its hand holds", seat, kind);
      return TH_ERR_SETUP;
    }
    tt_set_add(tt_set(s, seat, zone == TT_ZONE_KNOWN ? TT_SET_KNOWN : TT_SET_POOL), s->planes, kind);
    return TH_OK;
  }
  if (s->stock_len + s->discard_len >= s->deck_size) {
    th_set_error(e, TH_ERR_SETUP, "the stock and discard pile hold more than the deck's %d cards", s->deck_size);
    return TH_ERR_SETUP;
  }
  if (zone == TT_ZONE_STOCK)
    tt_stock(s)[s->stock_len++] = (uint8_t)kind;
  else
    *tt_discard_slot(s, s->discard_len++) = (uint8_t)kind;
  return TH_OK;
}

#define FAIL(...)                                \
  do {                                           \
    th_set_error(e, TH_ERR_SETUP, __VA_ARGS__); \
    return TH_ERR_SETUP;                         \
  } while (0)

/* A field in lo..hi, or -1 for none when none is allowed. */
static int in_range(int64_t v, int64_t lo, int64_t hi) { return v >= lo && v <= hi; }

int tt_setup_finish(tt_state *s, const tt_setup_fields *f, th_error *e) {
  int n = s->num_players;
  if (n < TT_MIN_PLAYERS || n > TT_MAX_PLAYERS) FAIL("tt_setup_begin did not succeed on this state");
  if (!in_range(f->round, 1, TT_ROUNDS)) FAIL("round must be in 1..%d, not %lld", TT_ROUNDS, (long long)f->round);
  if (!in_range(f->dealer, 0, n - 1)) FAIL("dealer must be a seat in 0..%d, not %lld", n - 1, (long long)f->dealer);
  if (!in_range(f->phase, 0, TT_PHASE_OVER)) FAIL("phase must be 0 (draw), 1 (discard) or 2 (over), not %lld",
                                                 (long long)f->phase);
  if (f->phase == TT_PHASE_OVER ? f->current != -1 : !in_range(f->current, 0, n - 1))
    FAIL("current must be a seat in 0..%d while the game is on and -1 once over, not %lld", n - 1,
         (long long)f->current);
  if (!in_range(f->out_seat, -1, n - 1)) FAIL("out_seat must be -1 or a seat in 0..%d, not %lld", n - 1,
                                              (long long)f->out_seat);
  if (!in_range(f->final_turns, 0, n - 1)) FAIL("final_turns must be in 0..%d, not %lld", n - 1,
                                                (long long)f->final_turns);
  if (!in_range(f->out_mask, 0, (1 << n) - 1)) FAIL("out_mask must be a mask of seats (0..%d), not %lld",
                                                    (1 << n) - 1, (long long)f->out_mask);
  if (!in_range(f->taken_kind, -1, TT_NUM_KINDS - 1)) FAIL("taken_kind must be -1 or a kind in 0..%d, not %lld",
                                                         TT_NUM_KINDS - 1, (long long)f->taken_kind);
  if (!in_range(f->truncated, 0, 1)) FAIL("truncated must be 0 or 1, not %lld", (long long)f->truncated);
  if (!in_range(f->pool_active, 0, 1)) FAIL("pool_active must be 0 or 1, not %lld", (long long)f->pool_active);
  if (!in_range(f->max_moves, 1, UINT32_MAX)) FAIL("max_moves must be in 1..%u, not %lld", (unsigned)UINT32_MAX,
                                                   (long long)f->max_moves);
  /* the move cap (tt_apply_legal): a game on is below it; a game cut at it
   * (truncated) is exactly at it */
  if (!in_range(f->move_count, 0, f->max_moves - (f->phase != TT_PHASE_OVER)))
    FAIL("move_count must be in 0..%lld (max_moves %lld%s), not %lld",
         (long long)(f->max_moves - (f->phase != TT_PHASE_OVER)), (long long)f->max_moves,
         f->phase != TT_PHASE_OVER ? ", and the game is on" : "", (long long)f->move_count);
  if (f->truncated && (f->phase != TT_PHASE_OVER || f->move_count != f->max_moves))
    FAIL("truncated: only a game over at the move cap (move_count == max_moves == %lld) is truncated, not one at "
         "move %lld in phase %lld", (long long)f->max_moves, (long long)f->move_count, (long long)f->phase);
  if (f->num_turns != n || f->num_totals != n)
    FAIL("turns and totals need one entry per seat (%d), not %lld and %lld", n, (long long)f->num_turns,
         (long long)f->num_totals);
  if (f->num_rng != 4) FAIL("the chance generator's state is 4 numbers, not %lld", (long long)f->num_rng);
  /* scores (Going out and scoring): what the scored rounds can give, so that
   * no sum of them can overflow (tt_max_total is small) */
  int rows = (int)f->round - 1 + (f->phase == TT_PHASE_OVER && !f->truncated);
  int most = tt_max_total(&s->opt, rows);
  for (int q = 0; q < n; q++) {
    if (!in_range(f->turns[q], 0, 255)) FAIL("turns of seat %d must be in 0..255, not %lld", q,
                                             (long long)f->turns[q]);
    if (!in_range(f->total[q], 0, most))
      FAIL("totals: the total of seat %d must be in 0..%d (the most %d scored round(s) can give), not %lld", q,
           most, rows, (long long)f->total[q]);
  }
  if (f->num_round_scores != rows)
    FAIL("%lld rows of round scores for %d scored round(s)", (long long)f->num_round_scores, rows);
  for (int r = 0; r < rows; r++) {
    if (f->round_score_len[r] != n)
      FAIL("round %d's scores need one entry per seat (%d), not %lld", r + 1, n, (long long)f->round_score_len[r]);
    int hi = tt_max_round_score(&s->opt, r + 1);
    for (int q = 0; q < n; q++)
      if (!in_range(f->round_score[r][q], 0, hi))
        FAIL("round_scores: round %d's score of seat %d must be in 0..%d (the most a hand of %d cards can score), "
             "not %lld", r + 1, q, hi, r + 3, (long long)f->round_score[r][q]);
  }
  if (f->rng[0] == 0 && f->rng[1] == 0 && f->rng[2] == 0 && f->rng[3] == 0)
    FAIL("rng: the chance generator's state must not be all zero (a generator that never leaves 0)");
  s->round = (uint8_t)f->round;
  s->dealer = (uint8_t)f->dealer;
  s->phase = (uint8_t)f->phase;
  s->current = f->current < 0 ? TT_NO_SEAT : (uint8_t)f->current;
  s->out_seat = f->out_seat < 0 ? TT_NO_SEAT : (uint8_t)f->out_seat;
  s->final_turns = (uint8_t)f->final_turns;
  s->out_mask = (uint8_t)f->out_mask;
  s->taken_kind = f->taken_kind < 0 ? TT_NO_KIND : (uint8_t)f->taken_kind;
  s->truncated = (uint8_t)f->truncated;
  s->pool_active = (uint8_t)f->pool_active;
  s->move_count = (uint32_t)f->move_count;
  s->max_moves = (uint32_t)f->max_moves;
  for (int q = 0; q < n; q++) {
    s->turns[q] = (uint8_t)f->turns[q];
    tt_set_total(s, q, (int32_t)f->total[q]);
  }
  for (int r = 0; r < rows; r++)
    for (int q = 0; q < n; q++) tt_set_round_score(s, r + 1, q, (int)f->round_score[r][q]);
  for (int i = 0; i < 4; i++) s->rng.s[i] = f->rng[i];
  return tt_state_check(s, e);
}
