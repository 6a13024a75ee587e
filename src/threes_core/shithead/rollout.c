/* rollout.c - policies and rollouts; see rollout.h. */
#include "shithead/rollout.h"

#include "common/batch.h"
#include "common/portable.h"

#include "shithead/rank_rows.h"
#include "shithead/determinize.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

static inline int lowest(uint16_t m) { return th_ctz32(m); }

/* Source of the player to move: its per-rank counts, or NULL when blind. */
static inline const uint8_t *source_counts(const sh_state *s, int p) {
  if (s->seat[p].hand_len) return s->seat[p].hand_rank;
  if (s->seat[p].up_len) return s->seat[p].up_rank;
  return NULL;
}

/* Largest legal count of `rank` (all copies, with merging when allowed). */
static inline int max_count(const sh_state *s, int p, const uint8_t *counts, int rank) {
  int c = counts[rank];
  if (counts == s->seat[p].hand_rank && s->rules.merge_hand_with_face_up && s->draw_len == 0 && c == s->seat[p].hand_len)
    c += s->seat[p].up_rank[rank];
  return c;
}

static int first_slot(const sh_state *s, int p) {
  for (int k = 0; k < s->rules.cards_per_zone; k++)
    if (s->seat[p].down[k] != SH_NO_CARD) return k;
  return 0;
}

/* ------------------------------------------------------------ swap phase -- */

static void swap_strongest(const sh_state *s, uint8_t *out) {
  const sh_rules *r = &s->rules;
  int p = s->current, K = r->cards_per_zone, n = 0;
  uint8_t avail[SH_NUM_RANKS];
  for (int k = 0; k < SH_NUM_RANKS; k++) avail[k] = (uint8_t)(s->seat[p].hand_rank[k] + s->seat[p].up_rank[k]);
  /* Wild ranks first, then the other ranks but burn ones, then burn ranks
   * that are not wild; highest first within each class. A face-up card must
   * beat the pile when its turn comes: a wild one always can, while a burn
   * card that is not wild (threes' and dutch's 10) cannot go on a higher
   * rank, and face-up 10s under circulating high cards were what most bot
   * games stuck at the move cap ended in (tools/locked_games.py). */
  uint16_t cls[3] = {r->wild, (uint16_t)~(r->wild | r->burn), (uint16_t)(r->burn & ~r->wild)};
  for (int pass = 0; pass < 3 && n < K; pass++)
    for (int k = SH_NUM_RANKS - 1; k >= 0 && n < K; k--) {
      if (!((cls[pass] >> k) & 1)) continue;
      while (avail[k] && n < K) {
        out[n++] = (uint8_t)k;
        avail[k]--;
      }
    }
  /* sort ascending (K <= 5) */
  for (int i = 1; i < K; i++)
    for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
      uint8_t t = out[j];
      out[j] = out[j - 1];
      out[j - 1] = t;
    }
}

/* ---------------------------------------------------------------- random -- */

static void random_step(sh_state *s, th_rng *rng, int fast) {
  int p = s->current;
  if (s->phase == SH_PHASE_SWAP) {
    uint8_t ranks[SH_MAX_CPZ];
    sh_swap_choice(s, rng, ranks);
    sh_do_swap(s, ranks);
    return;
  }
  const uint8_t *counts = source_counts(s, p);
  if (!counts) { /* blind: uniform over the occupied slots */
    int n = s->seat[p].down_len, k = (int)th_rng_below(rng, (uint32_t)n);
    for (int slot = 0; slot < s->rules.cards_per_zone; slot++)
      if (s->seat[p].down[slot] != SH_NO_CARD && k-- == 0) {
        if (fast)
          sh_fast_blind(s, slot);
        else
          sh_do_blind(s, slot);
        return;
      }
    return;
  }
  uint16_t m = present_mask(counts) & sh_playable_mask(s);
  if (!m) {
    (void)th_rng_next(rng); /* legal_actions()[below(1)]: one draw, as every decision */
    if (fast)
      sh_fast_pickup(s);
    else
      sh_do_pickup(s);
    return;
  }
  /* The k-th legal action in id order: ranks ascending, counts ascending. */
  int merge = counts == s->seat[p].hand_rank && s->rules.merge_hand_with_face_up && s->draw_len == 0;
  if (!merge) {
    int rank = 0, count = 1;
    sh_uniform_play(counts, m, rng, &rank, &count);
    if (fast)
      sh_fast_play(s, rank, count);
    else
      sh_do_play(s, rank, count);
    return;
  }
  int total = 0;
  for (uint16_t x = m; x; x &= (uint16_t)(x - 1))
    total += merge ? max_count(s, p, counts, lowest(x)) : counts[lowest(x)];
  int k = (int)th_rng_below(rng, (uint32_t)total);
  for (uint16_t x = m; x; x &= (uint16_t)(x - 1)) {
    int rank = lowest(x), c = merge ? max_count(s, p, counts, rank) : counts[rank];
    if (k < c) {
      if (fast)
        sh_fast_play(s, rank, k + 1);
      else
        sh_do_play(s, rank, k + 1);
      return;
    }
    k -= c;
  }
}

/* ---------------------------------------------------- greedy, heuristic -- */

typedef struct {
  int kind; /* SH_MOVE_* */
  int rank, count, slot;
  uint8_t face_up[SH_MAX_CPZ];
} choice;

static void choose_greedy(const sh_state *s, choice *ch) {
  const sh_rules *r = &s->rules;
  int p = s->current;
  memset(ch, 0, sizeof *ch);
  if (s->phase == SH_PHASE_SWAP) {
    ch->kind = SH_MOVE_SWAP;
    swap_strongest(s, ch->face_up);
    return;
  }
  const uint8_t *counts = source_counts(s, p);
  if (!counts) {
    ch->kind = SH_MOVE_BLIND;
    ch->slot = first_slot(s, p);
    return;
  }
  uint16_t m = present_mask(counts) & sh_playable_mask(s);
  if (!m) {
    ch->kind = SH_MOVE_PICKUP;
    return;
  }
  uint16_t special = (uint16_t)(r->wild | r->burn | r->lower | r->invisible);
  uint16_t plain = m & (uint16_t)~special;
  ch->kind = SH_MOVE_PLAY;
  if (plain) {
    ch->rank = lowest(plain);
    ch->count = max_count(s, p, counts, ch->rank);
  } else {
    ch->rank = lowest(m);
    ch->count = 1;
  }
}

static void choose_heuristic(const sh_state *s, choice *ch) {
  const sh_rules *r = &s->rules;
  int p = s->current;
  choose_greedy(s, ch);
  if (ch->kind != SH_MOVE_PLAY) return;
  const uint8_t *counts = source_counts(s, p);
  uint16_t m = present_mask(counts) & sh_playable_mask(s);
  uint16_t special = (uint16_t)(r->wild | r->burn | r->lower | r->invisible);
  uint16_t plain = m & (uint16_t)~special;
  /* 1. Burn a big pile instead of feeding it: a burn card, or a run that the
   * cards in hand complete. */
  if (s->pile_len >= 5) {
    if (r->run_to_burn && s->run_rank != SH_NO_RANK && ((m >> s->run_rank) & 1) &&
        s->run_len + max_count(s, p, counts, s->run_rank) >= r->run_to_burn) {
      ch->rank = s->run_rank;
      ch->count = r->run_to_burn - s->run_len;
      return;
    }
    uint16_t burners = m & r->burn;
    if (burners) {
      ch->rank = lowest(burners);
      ch->count = 1;
      return;
    }
  }
  if (plain) return; /* 2. as greedy: the lowest plain rank, every copy */
  /* 3. Only powers go: keep the pressure on the next player. */
  uint16_t order[4] = {(uint16_t)(m & r->invisible & ~r->burn), (uint16_t)(m & r->lower & ~r->burn),
                       (uint16_t)(m & r->wild & ~r->burn), (uint16_t)(m & r->burn)};
  for (int i = 0; i < 4; i++)
    if (order[i]) {
      ch->rank = lowest(order[i]);
      ch->count = 1;
      return;
    }
}

static int choice_action(const sh_state *s, const choice *ch) {
  const sh_rules *r = &s->rules;
  switch (ch->kind) {
    case SH_MOVE_PLAY: return sh_play_action(r, ch->rank, ch->count);
    case SH_MOVE_BLIND: return sh_first_blind_action(r) + ch->slot;
    case SH_MOVE_PICKUP: return sh_pickup_action(r);
    default: return sh_first_swap_action(r) + sh_swap_index(ch->face_up, r->cards_per_zone);
  }
}

static void apply_choice(sh_state *s, const choice *ch, int fast) {
  switch (ch->kind) {
    case SH_MOVE_PLAY: fast ? sh_fast_play(s, ch->rank, ch->count) : sh_do_play(s, ch->rank, ch->count); break;
    case SH_MOVE_BLIND: fast ? sh_fast_blind(s, ch->slot) : sh_do_blind(s, ch->slot); break;
    case SH_MOVE_PICKUP: fast ? sh_fast_pickup(s) : sh_do_pickup(s); break;
    default: sh_do_swap(s, ch->face_up); break;
  }
}

/* ------------------------------------------------------------ entry points -- */

/* Greedy and heuristic in a long game (rollout.h, "Games that end"): from
 * move SH_EXPLORE_AFTER x players of the play phase on, one decision in
 * SH_EXPLORE_ONE_IN is the random policy's. One draw per such decision. */
static inline int explore(const sh_state *s, th_rng *rng) {
  return s->phase == SH_PHASE_PLAY && s->move_count >= (uint32_t)SH_EXPLORE_AFTER * s->num_players &&
         th_rng_below(rng, SH_EXPLORE_ONE_IN) == 0;
}

int sh_policy_action(const sh_state *s, int policy, th_rng *rng) {
  if (s->phase == SH_PHASE_OVER) return -1;
  if (policy == SH_POLICY_RANDOM || explore(s, rng)) {
    uint16_t buf[SH_MAX_DISTINCT_ACTIONS];
    int n = sh_legal_actions(s, buf);
    return buf[th_rng_below(rng, (uint32_t)n)];
  }
  choice ch;
  if (policy == SH_POLICY_GREEDY)
    choose_greedy(s, &ch);
  else
    choose_heuristic(s, &ch);
  return choice_action(s, &ch);
}

static inline void step(sh_state *s, int policy, th_rng *rng, int fast) {
  if (policy == SH_POLICY_RANDOM || explore(s, rng)) {
    random_step(s, rng, fast);
    return;
  }
  choice ch;
  if (policy == SH_POLICY_GREEDY)
    choose_greedy(s, &ch);
  else
    choose_heuristic(s, &ch);
  apply_choice(s, &ch, fast);
}

void sh_policy_step(sh_state *s, int policy, th_rng *rng) { step(s, policy, rng, 0); }

uint32_t sh_rollout(sh_state *s, const uint8_t *policies, th_rng *rng) {
  uint32_t start = s->move_count;
  /* Every step adds one to move_count and the game ends at max_moves, so
   * these loops run at most max_moves - start times in all. The swap phase
   * keeps the cards' identities (the start rules read suits); the play phase
   * runs on the counts only (state.h, sh_fast_*). */
  while (s->phase == SH_PHASE_SWAP) step(s, policies[s->current], rng, 0);
  /* With repetition_limit the sh_fast_* moves keep the repetition keys too
   * (state.h): the pile's order is hashed as it grows. */
  int all_random = 1;
  for (int q = 0; q < s->num_players; q++) all_random &= policies[q] == SH_POLICY_RANDOM;
  if (all_random) {
    sh_fast_random_playout(s, rng);
  } else {
    while (s->phase == SH_PHASE_PLAY) step(s, policies[s->current], rng, 1);
  }
  return s->move_count - start;
}

uint32_t sh_rollout_until(sh_state *s, const uint8_t *policies, th_rng *rng, uint32_t move_limit) {
  uint32_t start = s->move_count;
  /* sh_rollout with one more bound, move_limit: each step adds one move. */
  while (s->phase == SH_PHASE_SWAP && s->move_count < move_limit) step(s, policies[s->current], rng, 0);
  if (s->phase != SH_PHASE_PLAY || s->move_count >= move_limit) return s->move_count - start;
  int all_random = 1; /* as sh_rollout */
  for (int q = 0; q < s->num_players; q++) all_random &= policies[q] == SH_POLICY_RANDOM;
  if (all_random) {
    sh_fast_random_playout_until(s, rng, move_limit);
  } else {
    while (s->phase == SH_PHASE_PLAY && s->move_count < move_limit) step(s, policies[s->current], rng, 1);
  }
  return s->move_count - start;
}

uint32_t sh_rollout_full(sh_state *s, const uint8_t *policies, th_rng *rng, int check) {
  uint32_t start = s->move_count;
  while (s->phase != SH_PHASE_OVER) {
    step(s, policies[s->current], rng, 0);
    if (check && sh_state_check(s, NULL)) return UINT32_MAX;
  }
  return s->move_count - start;
}

/* Game i of a batch: its start position and its rng, with `log` (or NULL)
 * attached to it holding the start's older repetition keys. */
static void batch_game(const sh_batch *b, int64_t i, sh_state *s, th_rng *rng, sh_rep_log *log) {
  uint64_t g = (uint64_t)b->first + (uint64_t)i; /* the game's index in the whole batch */
  if (b->start && s != b->start) /* sh_batch_play_game may play in place */
    *s = *b->start;
  else if (!b->start) /* played in place otherwise */
    sh_state_deal(s, &b->rules, b->num_players, b->dealer, b->max_moves, th_batch_seed(b->seed, g), NULL);
  if (s->rules.repetition_limit) s->rep_log = log; /* the repetition tail: with the rule on only (log_for) */
  if (log) {
    if (b->start && !b->determinize && b->start_log && b->start_log->len)
      sh_rep_log_copy(log, b->start_log); /* failing, it says so (failed) */
    else
      sh_rep_log_clear(log);
  }
  th_batch_rng(b->seed, g, rng);
  if (b->start && b->determinize) sh_resample(s, b->observer, rng, NULL);
}

/* A game's log (NULL with repetition_limit 0: nothing to count). */
static sh_rep_log *log_for(const sh_batch *b, sh_rep_log *log) {
  const sh_rules *r = b->start ? &b->start->rules : &b->rules;
  return r->repetition_limit ? log : NULL;
}

static void record_game(const sh_batch *b, int64_t i, const sh_state *s, uint32_t moves) {
  int n = s->num_players;
  int8_t *pl = b->places + i * n;
  for (int q = 0; q < n; q++) pl[q] = -1;
  for (int k = 0; k < s->num_out; k++) pl[s->finish[k]] = (int8_t)k;
  b->moves[i] = moves;
  b->truncated[i] = s->truncated;
  if (b->stalemate) b->stalemate[i] = s->stalemate;
}

/* All seats random: two games in flight at once (sh_fast_random_playout2).
 * A slot holds a game in its play phase, or nothing once the part is done. */
typedef struct {
  sh_state s;
  th_rng rng;
  int64_t i; /* the game, or -1 */
  uint32_t start_moves;
  sh_rep_log log; /* its older repetition keys (repetition_limit > 0) */
} slot;

/* A part's outcome beyond its games: run_part's context. */
typedef struct {
  const sh_batch *b;
  atomic_int out_of_memory; /* 1 once a game's log could not grow */
} part_ctx;

/* Moves the slot on to a game in its play phase: records the games that are
 * over (after their swap phase, or from an over start state) and starts the
 * next ones, until one is in play or the part is done. */
static int settle(const sh_batch *b, slot *sl, int64_t *next, int64_t hi) {
  for (;;) {
    if (sl->i >= 0) {
      if (sl->s.phase == SH_PHASE_PLAY) return 0;
      if (sl->log.failed) return -1;
      record_game(b, sl->i, &sl->s, sl->s.move_count - sl->start_moves);
      sl->i = -1;
    }
    if (*next >= hi) return 0;
    sl->i = (*next)++;
    batch_game(b, sl->i, &sl->s, &sl->rng, log_for(b, &sl->log));
    sl->start_moves = sl->s.move_count;
    while (sl->s.phase == SH_PHASE_SWAP) sh_policy_step(&sl->s, SH_POLICY_RANDOM, &sl->rng);
  }
}

/* A game in a slot alone: to its end, or `slice` more moves with a stop. */
static void playout_one(sh_state *s, th_rng *rng, uint32_t slice) {
  if (slice == UINT32_MAX)
    sh_fast_random_playout(s, rng);
  else
    sh_fast_random_playout_until(s, rng, s->move_count + slice);
}

/* Returns -1 when a game's log ran out of memory, else 0. */
static int play_part_random(const sh_batch *b, int64_t lo, int64_t hi, const th_stop *stop) {
  slot sl[2];
  int64_t next = lo;
  uint32_t slice = stop ? TH_STOP_MOVES : UINT32_MAX; /* with a stop, ask it at least every slice moves */
  int rc = 0;
  sl[0].i = sl[1].i = -1;
  sh_rep_log_init(&sl[0].log);
  sh_rep_log_init(&sl[1].log);
  /* Every pass plays moves of a game in flight (each bounded by its move
   * cap) or ends the part. */
  for (;;) {
    if (settle(b, &sl[0], &next, hi) || settle(b, &sl[1], &next, hi)) {
      rc = -1;
      break;
    }
    if (sl[0].i >= 0 && sl[1].i >= 0)
      sh_fast_random_playout2(&sl[0].s, &sl[0].rng, &sl[1].s, &sl[1].rng, slice);
    else if (sl[0].i >= 0)
      playout_one(&sl[0].s, &sl[0].rng, slice);
    else if (sl[1].i >= 0)
      playout_one(&sl[1].s, &sl[1].rng, slice);
    else
      break;
    if (th_stop_now(stop)) break;
  }
  sh_rep_log_free(&sl[0].log);
  sh_rep_log_free(&sl[1].log);
  return rc;
}

/* sh_rollout, asking `stop` (which may be NULL) every TH_STOP_MOVES moves;
 * returns 1 when it said stop (the game then unfinished), else 0 with *moves
 * set. The same moves as sh_rollout (rollout.h, sh_rollout_until). */
static int rollout_stoppable(sh_state *s, const uint8_t *policies, th_rng *rng, const th_stop *stop,
                             uint32_t *moves) {
  if (!stop) {
    *moves = sh_rollout(s, policies, rng);
    return 0;
  }
  uint32_t start = s->move_count;
  /* each pass plays TH_STOP_MOVES moves or ends the game: bounded by the cap */
  while (s->phase != SH_PHASE_OVER) {
    sh_rollout_until(s, policies, rng, s->move_count + TH_STOP_MOVES);
    if (s->phase != SH_PHASE_OVER && th_stop_now(stop)) return 1;
  }
  *moves = s->move_count - start;
  return 0;
}

static int batch_all_random(const sh_batch *b) {
  int n = b->start ? b->start->num_players : b->num_players, all_random = 1;
  for (int q = 0; q < n; q++) all_random &= b->policies[q] == SH_POLICY_RANDOM;
  return all_random;
}

int sh_batch_play_game(const sh_batch *b, int64_t i, const th_stop *stop, sh_state *s, uint32_t *moves,
                       sh_rep_log *log) {
  th_rng rng;
  int rc = 0;
  log = log_for(b, log);
  batch_game(b, i, s, &rng, log);
  if (!batch_all_random(b)) {
    rc = rollout_stoppable(s, b->policies, &rng, stop, moves);
  } else {
    /* the moves of play_part_random's slot: the swap phase as settle plays
     * it, then the play phase in slices */
    uint32_t start = s->move_count, slice = stop ? TH_STOP_MOVES : UINT32_MAX;
    while (s->phase == SH_PHASE_SWAP) sh_policy_step(s, SH_POLICY_RANDOM, &rng);
    /* each pass plays `slice` moves or ends the game: bounded by the move cap */
    while (s->phase == SH_PHASE_PLAY) {
      playout_one(s, &rng, slice);
      if (s->phase == SH_PHASE_PLAY && th_stop_now(stop)) {
        rc = 1;
        break;
      }
    }
    *moves = s->move_count - start;
  }
  if (s->rules.repetition_limit) s->rep_log = NULL;
  return rc ? rc : log && log->failed ? 2 : 0;
}

/* Returns -1 when a game's log ran out of memory, else 0. */
static int play_part(const sh_batch *b, int64_t lo, int64_t hi, const th_stop *stop) {
  if (batch_all_random(b)) /* repetition_limit or not (sh_fast_random_playout2 keeps the keys) */
    return play_part_random(b, lo, hi, stop);
  sh_state s;
  sh_rep_log log;
  int rc = 0;
  sh_rep_log_init(&log);
  for (int64_t i = lo; i < hi && !rc; i++) {
    uint32_t moves;
    rc = sh_batch_play_game(b, i, stop, &s, &moves, &log);
    if (!rc) record_game(b, i, &s, moves);
  }
  sh_rep_log_free(&log);
  return rc == 2 ? -1 : 0;
}

/* th_run_parts's part function over this game's batch. */
static void run_part(const void *ctx, int64_t lo, int64_t hi, const th_stop *stop) {
  part_ctx *pc = (part_ctx *)(uintptr_t)ctx; /* sh_rollouts' own, not const */
  if (play_part(pc->b, lo, hi, stop)) atomic_store_explicit(&pc->out_of_memory, 1, memory_order_relaxed);
}

int sh_rollouts(const sh_batch *b, int threads, th_error *e) {
  if (b->n < 0 || b->first < 0) {
    th_set_error(e, TH_ERR_ARG, "the number of games and the first game index must be >= 0");
    return TH_ERR_ARG;
  }
  if (th_check_threads(threads, e)) return TH_ERR_ARG;
  int n;
  if (b->start) {
    int rc = b->start_valid ? 0 : sh_state_check(b->start, e);
    if (rc) return rc;
    n = b->start->num_players;
    if (b->determinize && b->observer >= n) {
      th_set_error(e, TH_ERR_ARG, "observer must be a seat in 0..%d, not %d", n - 1, b->observer);
      return TH_ERR_ARG;
    }
  } else {
    if (b->determinize) {
      th_set_error(e, TH_ERR_ARG, "an observer needs a start state: fresh deals hide nothing to resample");
      return TH_ERR_ARG;
    }
    sh_state probe;
    int rc = sh_state_deal(&probe, &b->rules, b->num_players, b->dealer, b->max_moves, 0, e);
    if (rc) return rc;
    n = b->num_players;
  }
  for (int q = 0; q < n; q++)
    if (b->policies[q] >= SH_NUM_POLICIES) {
      th_set_error(e, TH_ERR_ARG, "policy %d of seat %d does not exist", b->policies[q], q);
      return TH_ERR_ARG;
    }
  part_ctx pc;
  pc.b = b;
  atomic_init(&pc.out_of_memory, 0);
  if (th_run_parts(run_part, &pc, b->n, threads, b->stop)) {
    th_set_error(e, TH_ERR_STOPPED, "the batch was stopped before its end");
    return TH_ERR_STOPPED;
  }
  if (atomic_load_explicit(&pc.out_of_memory, memory_order_relaxed)) {
    th_set_error(e, TH_ERR_MEMORY, "out of memory for the remembered positions of a game (repetition_limit)");
    return TH_ERR_MEMORY;
  }
  if (e) e->code = TH_OK;
  return TH_OK;
}
