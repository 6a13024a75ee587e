/* test_three_thirteen.c - randomized test of Three Thirteen's C engine
 * (src/threes_core/three_thirteen/) in plain C11, beside the game as
 * OpenSpiel keeps <game>_test.cc: games under random options with random and
 * greedy seats and tt_state_check after every move; the lonely-naturals
 * shortcut against its definition; the knowledge of T-9 and resampling; the
 * setup API; tt_rollouts against games played one by one. (The Shithead
 * units and the common ones are tests/c/test_engine.c.)
 *
 * Built with AddressSanitizer and UndefinedBehaviorSanitizer by
 * tests/c/run_sanitizers.sh and plainly for every platform by
 * tests/c/run_cross.sh (CMake option THREES_BUILD_C_TESTS). No Python.
 *
 * Usage: threes_three_thirteen_test [--part K/P] [--scale X] [--quiet]
 *   --part K/P  play only game K, K+P, K+2P, ... of every unit (run P
 *               processes with K = 0..P-1 to cover all)
 *   --scale X   multiply every game and iteration count by X (default 1)
 * Prints one summary line per unit, then "N passed, M failed"; returns 1 if
 * any check failed. The run is deterministic. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "three_thirteen/three_thirteen.h"
#include "../harness.h"

/* The bytes of one card set, and a count set directly (for altered states). */
static size_t set_bytes(const tt_state *s) { return (size_t)s->planes * 8; }
static void set_count(tt_state *s, int q, int which, int k, int c) {
  uint8_t counts[TT_NUM_KINDS];
  tt_set_counts(tt_set(s, q, which), s->planes, counts);
  counts[k] = (uint8_t)c;
  tt_set_from_counts(tt_set(s, q, which), s->planes, counts);
}

/* Three Thirteen (three_thirteen.h): games with random and greedy seats under
 * random options, tt_state_check after every move, every legal action is
 * tt_is_legal and an illegal one is refused without a change; resampling
 * keeps the observer's hand and the invariants; the same seed gives the same
 * game. */
static void unit_three_thirteen(long long games) {
  unit_begin("Three Thirteen games");
  static tt_state s, t, u;
  uint16_t legal[TT_NUM_ACTIONS];
  th_rng g;
  th_rng_seed(&g, UINT64_C(0x3313));
  long long moves = 0, finished = 0;
  for (long long i = 0; i < games; i++) {
    if (!mine(i)) continue;
    int n = range(&g, 2, 5);
    tt_options o;
    tt_options_default(n, &o);
    o.jokers = (uint8_t)below(&g, 3);
    o.meld.ace_either = (uint8_t)below(&g, 2);
    o.meld.all_wild_melds = (uint8_t)below(&g, 2);
    o.meld.wild_penalty_20 = (uint8_t)below(&g, 2);
    o.rediscard_taken = (uint8_t)below(&g, 2);
    o.go_out_first_turn = (uint8_t)below(&g, 2);
    th_error e;
    c_game = i;
    c_players = n;
    CHECK(tt_new_game(&s, &o, n, (uint64_t)i, 4000, &e) == TH_OK, "%s", e.msg);
    tt_new_game(&u, &o, n, (uint64_t)i, 4000, NULL);
    CHECK(memcmp(&s, &u, tt_state_bytes(&s)) == 0, "the same seed dealt two different games");
    uint8_t pol[TT_MAX_PLAYERS];
    for (int q = 0; q < TT_MAX_PLAYERS; q++) pol[q] = (uint8_t)(i % 3 == 0 ? 0 : below(&g, 2) ? 1 : 0);
    while (s.phase != TT_PHASE_OVER) {
      int nl = tt_legal_actions(&s, legal);
      CHECK(nl > 0, "no legal action");
      for (int k = 0; k < nl; k++) CHECK(tt_is_legal(&s, legal[k]), "listed action %d is not legal", legal[k]);
      int bad = (int)below(&g, TT_NUM_ACTIONS + 4) - 2;
      if (!tt_is_legal(&s, bad)) {
        memcpy(&t, &s, sizeof t);
        CHECK(tt_apply_action(&s, bad, &e) != TH_OK && memcmp(&t, &s, sizeof t) == 0,
              "illegal action %d accepted or changed the state", bad);
      }
      if (moves % 97 == 0) {
        memcpy(&t, &s, sizeof t);
        th_rng rr;
        th_rng_seed(&rr, (uint64_t)moves);
        int p = (int)below(&g, (uint32_t)n);
        CHECK(tt_resample(&t, p, &rr, &e) == TH_OK && tt_state_check(&t, &e) == TH_OK, "resample: %s", e.msg);
        CHECK(memcmp(tt_cset(&t, p, TT_SET_HAND), tt_cset(&s, p, TT_SET_HAND), set_bytes(&t)) == 0 && t.discard_len == s.discard_len &&
              t.stock_len == s.stock_len, "resampling changed what seat %d sees", p);
      }
      int a = tt_policy_action(&s, pol[s.current], &g);
      CHECK(tt_apply_action(&s, a, &e) == TH_OK, "policy action %d refused: %s", a, e.msg);
      CHECK(tt_state_check(&s, &e) == TH_OK, "after action %d: %s", a, e.msg);
      moves++;
    }
    finished += !s.truncated;
    double r[TT_MAX_PLAYERS], sum = 0;
    tt_returns(&s, r);
    for (int q = 0; q < n; q++) sum += r[q];
    CHECK(sum > -1e-9 && sum < 1e-9, "returns do not sum to 0");
  }
  c_game = -1;
  unit_end("%lld moves, %lld games finished", moves, finished);
}

/* Random Three Thirteen options for a player count (valid). */
static void tt_random_options(th_rng *g, int n, tt_options *o) {
  tt_options_default(n, o);
  o->jokers = (uint8_t)below(g, 3);
  o->meld.ace_either = (uint8_t)below(g, 2);
  o->meld.all_wild_melds = (uint8_t)below(g, 2);
  o->meld.wild_penalty_20 = (uint8_t)below(g, 2);
  o->rediscard_taken = (uint8_t)below(g, 2);
  o->go_out_first_turn = (uint8_t)below(g, 2);
  if (n <= 4 && below(g, 3) == 0) o->decks = (uint8_t)(o->decks + 1); /* more copies: ambiguous discards (T-9) */
}

/* The position of a state with the unused tails of its arrays cleared, for
 * comparing two states field by field. */
static void tt_canonical(const tt_state *s, tt_state *out) {
  memset(out, 0, sizeof *out);
  memcpy(out, s, tt_state_bytes(s)); /* the bytes in use only */
  if (out->stock_len + out->discard_len <= out->deck_size) /* between the stock and the discard pile (state.h) */
    memset(tt_stock(out) + out->stock_len, 0, (size_t)(out->deck_size - out->stock_len - out->discard_len));
}


/* The game's seats of a and b hold the same known cards (known_only), or the
 * same hands, known cards and pool cards. */
static int same_seats(const tt_state *a, const tt_state *b, int known_only) {
  if (a->num_players != b->num_players) return 0;
  for (int q = 0; q < a->num_players && q < TT_MAX_PLAYERS; q++) {
    if (memcmp(tt_cset(a, q, TT_SET_KNOWN), tt_cset(b, q, TT_SET_KNOWN), set_bytes(a))) return 0;
    if (!known_only && (memcmp(tt_cset(a, q, TT_SET_HAND), tt_cset(b, q, TT_SET_HAND), set_bytes(a)) ||
                        memcmp(tt_cset(a, q, TT_SET_POOL), tt_cset(b, q, TT_SET_POOL), set_bytes(a))))
      return 0;
  }
  return 1;
}

/* Rebuilds s through the setup API (state.h); returns the tt_setup_finish code. */
static int tt_rebuild(const tt_state *s, tt_state *out, th_error *e) {
  int n = s->num_players, rc = tt_setup_begin(out, &s->opt, n, e);
  if (rc) return rc;
  for (int q = 0; q < n; q++)
    for (int k = 0; k < TT_NUM_KINDS; k++)
      for (int c = 0; c < tt_hand(s, q, k); c++)
        if ((rc = tt_setup_add(out, TT_ZONE_HAND, q, k, e))) return rc;
  for (int q = 0; q < n; q++)
    for (int k = 0; k < TT_NUM_KINDS; k++) {
      for (int c = 0; c < tt_known(s, q, k); c++)
        if ((rc = tt_setup_add(out, TT_ZONE_KNOWN, q, k, e))) return rc;
      for (int c = 0; c < tt_pool_hand(s, q, k); c++)
        if ((rc = tt_setup_add(out, TT_ZONE_POOL_HAND, q, k, e))) return rc;
    }
  for (int i = 0; i < s->stock_len; i++)
    if ((rc = tt_setup_add(out, TT_ZONE_STOCK, -1, tt_cstock(s)[i], e))) return rc;
  for (int i = 0; i < s->discard_len; i++)
    if ((rc = tt_setup_add(out, TT_ZONE_DISCARD, -1, tt_discard_at(s, i), e))) return rc;
  tt_setup_fields f;
  memset(&f, 0, sizeof f);
  f.round = s->round;
  f.dealer = s->dealer;
  f.current = s->phase == TT_PHASE_OVER ? -1 : s->current;
  f.phase = s->phase;
  f.out_seat = s->out_seat == TT_NO_SEAT ? -1 : s->out_seat;
  f.final_turns = s->final_turns;
  f.out_mask = s->out_mask;
  f.taken_kind = s->taken_kind == TT_NO_KIND ? -1 : s->taken_kind;
  f.truncated = s->truncated;
  f.move_count = s->move_count;
  f.max_moves = s->max_moves;
  f.pool_active = s->pool_active;
  f.num_turns = f.num_totals = n;
  for (int q = 0; q < n; q++) {
    f.turns[q] = s->turns[q];
    f.total[q] = tt_total(s, q);
  }
  f.num_round_scores = s->round - 1 + (s->phase == TT_PHASE_OVER && !s->truncated);
  /* an altered state may claim more rounds than the arrays hold: the count
   * goes to setup as it is (which must refuse it), the rows stop at the end */
  for (int r = 0; r < f.num_round_scores && r < TT_ROUNDS; r++) {
    f.round_score_len[r] = n;
    for (int q = 0; q < n; q++) f.round_score[r][q] = tt_round_score(s, r + 1, q);
  }
  f.num_rng = 4;
  for (int i = 0; i < 4; i++) f.rng[i] = s->rng.s[i];
  return tt_setup_finish(out, &f, e);
}

/* tt_hand_lonely against tt_natural_isolated card by card on random hands
 * (every round, option and wild count), and its use: two lonely naturals
 * and no discard leaves deadwood 0 (the search agrees). */
static void unit_three_thirteen_lonely(long long iters) {
  unit_begin("Three Thirteen lonely naturals");
  static tt_state s;
  th_rng g;
  th_rng_seed(&g, UINT64_C(0x10e1));
  long long filtered = 0;
  for (long long i = 0; i < iters; i++) {
    if (!mine(i)) continue;
    tt_options o;
    tt_options_default(2, &o);
    o.jokers = (uint8_t)below(&g, 3);
    o.meld.ace_either = (uint8_t)below(&g, 2);
    o.meld.all_wild_melds = (uint8_t)below(&g, 2);
    CHECK(tt_new_game(&s, &o, 2, (uint64_t)i, 4000, NULL) == TH_OK, "new game");
    s.round = (uint8_t)range(&g, 1, TT_ROUNDS);
    int wild = tt_wild_rank(s.round), want = range(&g, 3, TT_MAX_HAND), n = 0, w = 0, ref = 0;
    memset(tt_set(&s, 0, TT_SET_HAND), 0, set_bytes(&s));
    uint8_t nat[13][4], rank[TT_MAX_HAND], suit[TT_MAX_HAND], drop[TT_MAX_HAND];
    memset(nat, 0, sizeof nat);
    for (int tries = 0; n < want && tries < 1000; tries++) { /* bounded: a few kinds may run out */
      int k = (int)below(&g, i % 4 == 0 ? 52 : TT_NUM_KINDS);
      if (i % 3 == 0) k = (int)below(&g, 12); /* a third of the hands dense in the low ranks */
      if (tt_hand(&s, 0, k) >= tt_kind_copies(&s.opt, k)) continue;
      int c = n++;
      tt_set_add(tt_set(&s, 0, TT_SET_HAND), s.planes, k);
      int r = tt_kind_rank(k);
      rank[c] = (uint8_t)r;
      suit[c] = (uint8_t)tt_kind_suit(k);
      drop[c] = 1;
      if (r == 0 || r == wild)
        w++;
      else
        nat[r - 1][tt_kind_suit(k)]++;
    }
    for (int k = 0; k < 52; k++) {
      int r = tt_kind_rank(k), su = tt_kind_suit(k);
      if (r == wild) continue;
      for (int c = 0; c < tt_hand(&s, 0, k); c++) {
        nat[r - 1][su]--; /* the others */
        ref += tt_natural_isolated((const uint8_t(*)[4])nat, w, r, su, s.opt.meld.ace_either);
        nat[r - 1][su]++;
      }
    }
    int got = tt_hand_lonely(&s, 0, 1 << 20), capped = tt_hand_lonely(&s, 0, 2);
    CHECK(got == ref, "lonely naturals %d, card by card %d (round %d, %d wilds, ace_either %d)", got, ref, s.round, w,
          s.opt.meld.ace_either);
    CHECK((capped >= 2) == (ref >= 2) && capped <= ref, "capped at 2: %d, uncapped %d", capped, ref);
    if (ref >= 2) {
      int zero = 1;
      filtered++;
      CHECK(tt_zero_deadwood_drop_one(rank, suit, n, wild, &s.opt.meld, drop, &zero, NULL) == TH_OK && !zero,
            "two lonely naturals, yet a discard leaves deadwood 0");
    }
  }
  CHECK(iters < 1000 || filtered > 0, "no hand had two lonely naturals");
  unit_end("%lld hands, %lld with two or more lonely naturals", iters, filtered);
}

/* T-9 (state.h KNOWLEDGE, determinize.h): games under random options with
 * random and greedy seats; after every move tt_state_check (knowledge
 * included); the record follows the rules (a taken card is known until its
 * taker discards it, the stock after a reshuffle is all pool cards, a hand
 * shown is known); on a sample of states every seat's resampling keeps every
 * known card, the observer's hand and pool cards, every public count and the
 * observer's observation tensor, passes the check, and the same rng gives
 * the same resample. */
static void unit_three_thirteen_knowledge(long long games) {
  unit_begin("Three Thirteen knowledge");
  static tt_state s, t, u, before;
  static float oa[4096], ob[4096];
  th_rng g;
  th_rng_seed(&g, UINT64_C(0x7799));
  long long moves = 0, resamples = 0, takes = 0, pools = 0, dissolved = 0, pool_draws = 0;
  for (long long i = 0; i < games; i++) {
    if (!mine(i)) continue;
    int n = range(&g, 2, 5);
    tt_options o;
    tt_random_options(&g, n, &o);
    th_error e;
    c_game = i;
    c_players = n;
    CHECK(tt_new_game(&s, &o, n, (uint64_t)i ^ UINT64_C(0x99), 3000, &e) == TH_OK, "%s", e.msg);
    uint8_t pol[TT_MAX_PLAYERS];
    for (int q = 0; q < TT_MAX_PLAYERS; q++) pol[q] = (uint8_t)(below(&g, 3) ? TT_POLICY_RANDOM : TT_POLICY_GREEDY);
    while (s.phase != TT_PHASE_OVER) {
      int p = s.current, a = tt_policy_action(&s, pol[p], &g);
      memcpy(&before, &s, sizeof before);
      CHECK(tt_apply_action(&s, a, &e) == TH_OK, "policy action %d refused: %s", a, e.msg);
      CHECK(tt_state_check(&s, &e) == TH_OK, "after action %d: %s", a, e.msg);
      moves++;
      if (s.round != before.round || s.phase == TT_PHASE_OVER) continue; /* a new deal, or the end */
      if (a == TT_ACTION_TAKE_DISCARD) {
        int k = tt_discard_top(&before);
        takes++;
        CHECK(tt_known(&s, p, k) == tt_known(&before, p, k) + 1, "a card taken from the pile is not known (T-9)");
      } else if (a == TT_ACTION_STOCK) {
        if (!before.stock_len) {
          pools++;
          CHECK(s.pool_active == 1 && tt_pool_size(&s) == before.discard_len - 1,
                "a reshuffle did not make the new stock a pool of the pile's cards (T-9)");
        }
        if (s.pool_active) {
          pool_draws++;
          /* a reshuffle dissolves the old pool: then the drawn card is the only pool card held */
          CHECK(tt_pool_held(&s, p) == (before.stock_len ? tt_pool_held(&before, p) + before.pool_active : 1),
                "a card drawn from the reshuffled stock is not a pool card");
        }
        CHECK(same_seats(&s, &before, 1), "a draw from the stock changed the known cards");
        /* the same draw with its card chosen (tt_apply_stock_draw, the OpenSpiel adapter's chance): the
         * same position but for the order of the stock; a kind not there is refused and changes nothing */
        int drawn = -1, absent = -1;
        for (int k = 0; k < TT_NUM_KINDS; k++)
          if (tt_hand(&s, p, k) > tt_hand(&before, p, k)) drawn = k;
        memcpy(&u, &before, sizeof u);
        for (int k = 0; k < TT_NUM_KINDS && absent < 0; k++) {
          int there = 0, m = before.stock_len ? before.stock_len : before.discard_len - 1;
          for (int j = 0; j < m; j++) there |= (before.stock_len ? tt_cstock(&before)[j] : tt_discard_at(&before, j)) == k;
          if (!there) absent = k;
        }
        if (absent >= 0)
          CHECK(tt_apply_stock_draw(&u, absent, &e) == TH_ERR_ACTION && memcmp(&u, &before, sizeof u) == 0,
                "a draw of kind %d, not in the stock, was not refused or changed the state", absent);
        CHECK(tt_apply_stock_draw(&u, TT_NUM_KINDS, &e) == TH_ERR_ACTION && tt_apply_stock_draw(&u, -1, &e) == TH_ERR_ACTION &&
                  memcmp(&u, &before, sizeof u) == 0, "a kind out of range was not refused");
        CHECK(drawn >= 0 && tt_apply_stock_draw(&u, drawn, &e) == TH_OK, "the chosen draw of kind %d: %s", drawn,
              e.msg);
        CHECK(tt_state_check(&u, &e) == TH_OK, "after a chosen draw: %s", e.msg);
        CHECK(same_seats(&u, &s, 0) && u.pool_active == s.pool_active &&
                  u.stock_len == s.stock_len && u.discard_len == s.discard_len && u.phase == s.phase &&
                  u.current == s.current && u.move_count == s.move_count,
              "a chosen draw of the engine's card does not give the engine's position");
        CHECK(tt_apply_stock_draw(&u, drawn, &e) == TH_ERR_ILLEGAL, "a second draw in one turn was accepted");
      } else {
        int k = a >= TT_FIRST_GO_OUT ? a - TT_FIRST_GO_OUT : a - TT_FIRST_DISCARD;
        if (a < TT_FIRST_GO_OUT) {
          CHECK(tt_known(&s, p, k) == tt_known(&before, p, k) - (tt_known(&before, p, k) > 0),
                "a discard changed the known cards other than by forgetting one of its kind");
          for (int q = 0; q < n; q++)
            if (q != p)
              CHECK(memcmp(tt_cset(&s, q, TT_SET_KNOWN), tt_cset(&before, q, TT_SET_KNOWN), set_bytes(&s)) == 0,
                    "a discard changed another seat's known cards");
        } else {
          CHECK(memcmp(tt_cset(&s, p, TT_SET_KNOWN), tt_cset(&s, p, TT_SET_HAND), set_bytes(&s)) == 0, "the hand of a seat out is not known");
        }
        dissolved += before.pool_active && !s.pool_active;
      }
      if (s.pool_active) CHECK(tt_pool_size(&s) >= s.stock_len, "the pool is smaller than the stock");
      if (moves % 23 == 0 && s.phase != TT_PHASE_OVER) {
        for (int q = 0; q < n; q++) {
          th_rng r1, r2;
          th_rng_seed(&r1, (uint64_t)moves * 31 + (uint64_t)q);
          r2 = r1;
          memcpy(&t, &s, sizeof t);
          memcpy(&u, &s, sizeof u);
          CHECK(tt_resample(&t, q, &r1, &e) == TH_OK && tt_state_check(&t, &e) == TH_OK, "resample: %s", e.msg);
          tt_resample(&u, q, &r2, NULL);
          CHECK(memcmp(&t, &u, sizeof t) == 0, "the same rng gave two resamples");
          CHECK(same_seats(&t, &s, 1), "resampling moved a known card");
          for (int x = 0; x < n; x++) {
            CHECK(tt_pool_held(&t, x) == tt_pool_held(&s, x) && t.hand_len[x] == s.hand_len[x],
                  "resampling changed seat %d's counts", x);
            for (int k = 0; k < TT_NUM_KINDS; k++) CHECK(tt_hand(&t, x, k) >= tt_known(&t, x, k), "known card lost");
          }
          for (int k = 0; k < TT_NUM_KINDS; k++)
            CHECK(tt_pool_count(&t, k) == tt_pool_count(&s, k), "resampling changed the pool's kind %d", k);
          CHECK(memcmp(tt_cset(&t, q, TT_SET_HAND), tt_cset(&s, q, TT_SET_HAND), set_bytes(&t)) == 0 &&
                    memcmp(tt_cset(&t, q, TT_SET_POOL), tt_cset(&s, q, TT_SET_POOL), set_bytes(&t)) == 0,
                "resampling changed the observer's hand");
          CHECK(t.discard_len == s.discard_len && memcmp(tt_discard_slot(&t, t.discard_len - 1), tt_discard_slot(&s, s.discard_len - 1), s.discard_len) == 0 &&
                    t.stock_len == s.stock_len,
                "resampling changed the piles");
          CHECK(tt_observation_tensor(&s, q, oa, &e) == TH_OK && tt_observation_tensor(&t, q, ob, &e) == TH_OK,
                "%s", e.msg);
          CHECK(memcmp(oa, ob, sizeof(float) * (size_t)tt_obs_size(n)) == 0,
                "the observation depends on cards seat %d cannot see", q);
          resamples++;
        }
        CHECK(tt_observation_tensor(&s, n, oa, &e) == TH_ERR_ARG && tt_observation_tensor(&s, -1, oa, &e) == TH_ERR_ARG,
              "an observer that is no seat was accepted");
      }
    }
    if (!s.truncated)
      for (int q = 0; q < n; q++)
        CHECK(memcmp(tt_cset(&s, q, TT_SET_KNOWN), tt_cset(&s, q, TT_SET_HAND), set_bytes(&s)) == 0, "the scored hands of the end are not known");
  }
  c_game = -1;
  unit_end("%lld moves, %lld takes, %lld reshuffled pools (%lld dissolved), %lld pool draws, %lld resamples", moves,
           takes, pools, dissolved, pool_draws, resamples);
}

/* The setup API (setup.c): positions of played games rebuilt from their
 * parts come back field for field; perturbed parts and garbage are refused
 * with a message or give a position that passes tt_state_check and plays on
 * (never a crash: run under the sanitizers). */
static void unit_three_thirteen_setup(long long iters) {
  unit_begin("Three Thirteen setup");
  static tt_state s, r, a, b;
  th_rng g;
  th_rng_seed(&g, UINT64_C(0x5e7));
  long long trips = 0, refused = 0, accepted = 0;
  uint16_t legal[TT_NUM_ACTIONS];
  for (long long i = 0; i < iters; i++) {
    if (!mine(i)) continue;
    int n = range(&g, 2, 6);
    tt_options o;
    tt_random_options(&g, n, &o);
    th_error e;
    c_game = i;
    c_players = n;
    CHECK(tt_new_game(&s, &o, n, (uint64_t)i, below(&g, 4) ? 0 : (uint32_t)range(&g, 1, 400), &e) == TH_OK);
    int steps = (int)below(&g, 700);
    for (int m = 0; m < steps && s.phase != TT_PHASE_OVER; m++)
      tt_apply_legal(&s, tt_policy_action(&s, below(&g, 2) ? TT_POLICY_RANDOM : TT_POLICY_GREEDY, &g));
    CHECK(tt_rebuild(&s, &r, &e) == TH_OK, "rebuilding a played position: %s", e.msg);
    tt_canonical(&s, &a);
    tt_canonical(&r, &b);
    CHECK(memcmp(&a, &b, sizeof a) == 0, "a rebuilt position differs from the original");
    trips++;
    /* a perturbed rebuild: one field or card changed at random */
    tt_state x = s;
    int what = (int)below(&g, 12);
    switch (what) {
      case 0: x.round = (uint8_t)below(&g, 14); break;
      case 1: x.dealer = (uint8_t)below(&g, 10); break;
      case 2: x.phase = (uint8_t)below(&g, 4); break;
      case 3: x.current = (uint8_t)below(&g, 10); break;
      case 4: x.out_seat = (uint8_t)(below(&g, 2) ? TT_NO_SEAT : below(&g, 10)); break;
      case 5: x.final_turns = (uint8_t)below(&g, 10); break;
      case 6: x.out_mask = (uint8_t)below(&g, 256); break;
      case 7: x.taken_kind = (uint8_t)(below(&g, 2) ? TT_NO_KIND : below(&g, 60)); break;
      case 8: x.pool_active = (uint8_t)below(&g, 2); break;
      case 9: if (x.stock_len) tt_stock(&x)[below(&g, x.stock_len)] = (uint8_t)below(&g, TT_NUM_KINDS); break;
      case 10: set_count(&x, (int)below(&g, (uint32_t)n), TT_SET_KNOWN, (int)below(&g, TT_NUM_KINDS), (int)below(&g, 3)); break;
      default: set_count(&x, (int)below(&g, (uint32_t)n), TT_SET_POOL, (int)below(&g, TT_NUM_KINDS), (int)below(&g, 3)); break;
    }
    int rc = tt_rebuild(&x, &r, &e);
    if (rc == TH_OK) {
      accepted++;
      CHECK(tt_state_check(&r, &e) == TH_OK, "an accepted position fails the check: %s", e.msg);
      for (int m = 0; m < 50 && r.phase != TT_PHASE_OVER; m++) { /* it plays on */
        int nl = tt_legal_actions(&r, legal);
        CHECK(nl > 0, "an accepted position has no legal action");
        if (nl <= 0) break;
        CHECK(tt_apply_action(&r, legal[below(&g, (uint32_t)nl)], &e) == TH_OK && tt_state_check(&r, &e) == TH_OK,
              "%s", e.msg);
      }
    } else {
      refused++;
      CHECK(rc == TH_ERR_SETUP && e.msg[0], "a refused position without TH_ERR_SETUP and a message");
    }
    /* what no game reaches (issue 13): a total above what the scored rounds
     * can give, a round score above what a hand of the round can score, a
     * hand one card too long, a game on at its move cap */
    {
      tt_state y = s;
      int rows = y.round - 1 + (y.phase == TT_PHASE_OVER && !y.truncated), q = (int)below(&g, (uint32_t)n);
      tt_set_total(&y, q, tt_max_total(&y.opt, rows) + 1);
      CHECK(tt_rebuild(&y, &r, &e) == TH_ERR_SETUP && strstr(e.msg, "total"), "a total above tt_max_total: %s",
            e.msg);
      if (rows > 0) {
        y = s;
        tt_set_round_score(&y, rows, q, tt_max_round_score(&y.opt, rows) + 1);
        CHECK(tt_rebuild(&y, &r, &e) == TH_ERR_SETUP && strstr(e.msg, "round_scores"),
              "a round score above tt_max_round_score: %s", e.msg);
      }
      if (!s.truncated && s.stock_len) {
        y = s;
        int k = tt_stock(&y)[--y.stock_len];
        tt_set_add(tt_set(&y, q, TT_SET_HAND), y.planes, k);
        y.hand_len[q]++;
        CHECK(tt_rebuild(&y, &r, &e) == TH_ERR_SETUP && strstr(e.msg, "holds"), "a hand one card too long: %s",
              e.msg);
      }
      if (s.phase != TT_PHASE_OVER && s.move_count > 0) {
        y = s;
        y.max_moves = y.move_count;
        CHECK(tt_rebuild(&y, &r, &e) == TH_ERR_SETUP && strstr(e.msg, "move_count"), "a game on at its cap: %s",
              e.msg);
      }
    }
    /* garbage through the API itself: must be refused, never crash */
    tt_setup_begin(&r, &o, n, NULL);
    for (int c = 0; c < 40; c++) {
      int zone = (int)below(&g, 8) - 1, seat = (int)below(&g, 12) - 2, kind = (int)below(&g, 70) - 5;
      int ok = tt_setup_add(&r, zone, seat, kind, &e) == TH_OK;
      int valid_zone = zone >= 0 && zone < TT_NUM_ZONES, valid_kind = kind >= 0 && tt_kind_copies(&o, kind) > 0;
      if (!valid_zone || !valid_kind || (zone <= TT_ZONE_POOL_HAND && (seat < 0 || seat >= n)))
        CHECK(!ok, "setup_add accepted zone %d seat %d kind %d", zone, seat, kind);
    }
    /* a hand holds at most the deck's copies of a kind: one card set word
     * per deck (state.h, THE LAYOUT) has no room for another, and the add is
     * refused with the hand as it was */
    tt_setup_begin(&r, &o, n, NULL);
    int kind = (int)below(&g, 52), copies = tt_kind_copies(&o, kind);
    for (int c = 0; c < copies; c++)
      CHECK(tt_setup_add(&r, TT_ZONE_HAND, 0, kind, &e) == TH_OK, "copy %d of kind %d refused: %s", c, kind, e.msg);
    CHECK(tt_setup_add(&r, TT_ZONE_HAND, 0, kind, &e) == TH_ERR_SETUP && strstr(e.msg, "more cards of kind") &&
              tt_hand(&r, 0, kind) == copies && r.hand_len[0] == copies,
          "a copy of kind %d past the deck's %d was accepted or changed the hand", kind, copies);
    tt_setup_fields f;
    uint8_t *raw = (uint8_t *)&f;
    for (size_t k = 0; k < sizeof f; k++) raw[k] = (uint8_t)below(&g, 256);
    CHECK(tt_setup_finish(&r, &f, &e) != TH_OK, "random setup fields were accepted");
    CHECK(tt_setup_begin(&r, &o, n + 7, &e) != TH_OK && tt_setup_finish(&r, &f, &e) != TH_OK,
          "a failed begin still finished");
    tt_options bad = o;
    bad.decks = 0;
    CHECK(tt_setup_begin(&r, &bad, n, &e) == TH_ERR_RULES, "decks 0 accepted");
  }
  c_game = -1;
  unit_end("%lld round trips; perturbed: %lld refused, %lld accepted (and played on)", trips, refused, accepted);
}

/* tt_rollouts (rollout.h): 1, 2 and 3 threads give the same games, which are
 * the games played one by one with tt_rollout from the documented seeds;
 * from a start state with and without resampling, whole games and single
 * rounds; and its argument errors. */
static void unit_three_thirteen_batches(long long reps) {
  unit_begin("Three Thirteen batches");
  enum { G = 9 };
  static tt_state start, s;
  int32_t tot[3][G * TT_MAX_PLAYERS];
  double ret[3][G * TT_MAX_PLAYERS];
  uint32_t mv[3][G];
  uint8_t tr[3][G];
  memset(tot, 0, sizeof tot);
  memset(ret, 0, sizeof ret);
  th_rng g;
  th_rng_seed(&g, UINT64_C(0xba7c));
  long long batches = 0;
  for (long long i = 0; i < reps; i++) {
    if (!mine(i)) continue;
    int n = range(&g, 2, 4);
    tt_options o;
    tt_random_options(&g, n, &o);
    th_error e;
    c_game = i;
    c_players = n;
    tt_new_game(&start, &o, n, (uint64_t)i, (uint32_t)range(&g, 200, 3000), NULL);
    int steps = (int)below(&g, 200);
    for (int m = 0; m < steps && start.phase != TT_PHASE_OVER; m++)
      tt_apply_legal(&start, tt_policy_action(&start, TT_POLICY_GREEDY, &g));
    tt_batch b;
    memset(&b, 0, sizeof b);
    b.start = &start;
    b.fresh = (uint8_t)below(&g, 2);
    b.determinize = (uint8_t)(!b.fresh && below(&g, 2));
    b.observer = (uint8_t)below(&g, (uint32_t)n);
    b.round_only = (uint8_t)below(&g, 2);
    for (int q = 0; q < n; q++) b.policies[q] = (uint8_t)below(&g, 2);
    b.seed = th_rng_next(&g);
    b.n = G;
    b.first = (int64_t)below(&g, 3);
    for (int th = 0; th < 3; th++) {
      b.totals = tot[th];
      b.returns = ret[th];
      b.moves = mv[th];
      b.truncated = tr[th];
      CHECK(tt_rollouts(&b, th + 1, &e) == TH_OK, "%s", e.msg);
    }
    CHECK(memcmp(tot[0], tot[1], sizeof tot[0]) == 0 && memcmp(tot[0], tot[2], sizeof tot[0]) == 0 &&
              memcmp(ret[0], ret[1], sizeof ret[0]) == 0 && memcmp(ret[0], ret[2], sizeof ret[0]) == 0 &&
              memcmp(mv[0], mv[1], sizeof mv[0]) == 0 && memcmp(mv[0], mv[2], sizeof mv[0]) == 0 &&
              memcmp(tr[0], tr[1], sizeof tr[0]) == 0 && memcmp(tr[0], tr[2], sizeof tr[0]) == 0,
          "1, 2 and 3 threads gave different games");
    for (int k = 0; k < G; k++) { /* the same game by hand */
      uint64_t gi = (uint64_t)b.first + (uint64_t)k;
      th_rng rng;
      if (b.fresh) {
        tt_new_game(&s, &start.opt, n, th_batch_seed(b.seed, gi), start.max_moves, NULL);
        th_batch_rng(b.seed ^ gi, 0, &rng);
      } else {
        s = start;
        th_batch_rng(b.seed, gi, &rng);
        if (b.determinize) tt_resample(&s, b.observer, &rng, NULL);
      }
      int r0 = s.round;
      uint32_t m = b.round_only ? tt_rollout_round(&s, b.policies, &rng) : tt_rollout(&s, b.policies, &rng);
      double rv[TT_MAX_PLAYERS];
      if (b.round_only)
        tt_round_margin(&s, r0, rv);
      else
        tt_returns(&s, rv);
      CHECK(m == mv[0][k] && s.truncated == tr[0][k], "batch game %d differs from the game played by hand", k);
      for (int q = 0; q < n; q++)
        CHECK(tt_total(&s, q) == tot[0][k * n + q] && rv[q] == ret[0][k * n + q], "batch game %d's scores differ", k);
    }
    batches++;
  }
  /* argument errors */
  tt_options o;
  tt_options_default(3, &o);
  tt_new_game(&start, &o, 3, 1, 0, NULL);
  tt_batch b;
  memset(&b, 0, sizeof b);
  b.start = &start;
  b.n = 1;
  b.totals = tot[0];
  b.returns = ret[0];
  b.moves = mv[0];
  b.truncated = tr[0];
  th_error e;
  CHECK(tt_rollouts(&b, 0, &e) == TH_ERR_ARG && tt_rollouts(&b, TH_MAX_THREADS + 1, &e) == TH_ERR_ARG, "threads");
  b.policies[2] = TT_NUM_POLICIES;
  CHECK(tt_rollouts(&b, 1, &e) == TH_ERR_ARG, "a policy that does not exist");
  b.policies[2] = 0;
  b.determinize = 1;
  b.observer = 3;
  CHECK(tt_rollouts(&b, 1, &e) == TH_ERR_ARG, "an observer that is no seat");
  b.observer = 0;
  b.fresh = 1;
  CHECK(tt_rollouts(&b, 1, &e) == TH_ERR_ARG, "an observer with fresh deals");
  b.fresh = 0;
  b.determinize = 0;
  b.n = -1;
  CHECK(tt_rollouts(&b, 1, &e) == TH_ERR_ARG, "n < 0");
  b.n = 1;
  b.moves = NULL;
  CHECK(tt_rollouts(&b, 1, &e) == TH_ERR_ARG, "missing outputs");
  b.moves = mv[0];
  start.hand_len[0]++;
  CHECK(tt_rollouts(&b, 1, &e) == TH_ERR_SETUP, "a corrupt start state");
  b.start = NULL;
  CHECK(tt_rollouts(&b, 1, &e) == TH_ERR_ARG, "no start state");
  c_game = -1;
  unit_end("%lld batches x 3 thread counts, each against games played by hand", batches);
}


int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    int got = harness_arg(argc, argv, &i);
    if (got < 0) return 2;
    if (!got) {
      fprintf(stderr, "usage: %s [--part K/P] [--scale X] [--quiet]\n", argv[0]);
      return 2;
    }
  }
  double t0 = now_seconds();
  printf("threes-core Three Thirteen C engine test, part %d/%d, scale %g\n", g_part, g_nparts, g_scale);
  unit_three_thirteen(scaled(40));
  unit_three_thirteen_lonely(scaled(200000));
  unit_three_thirteen_knowledge(scaled(60));
  unit_three_thirteen_setup(scaled(400));
  unit_three_thirteen_batches(scaled(16));
  printf("checks: %lld, failed checks: %lld; %.1f s\n", g_checks, g_failed_checks, now_seconds() - t0);
  printf("%d passed, %d failed\n", g_units_passed, g_units_failed);
  return g_units_failed || g_failed_checks ? 1 : 0;
}
