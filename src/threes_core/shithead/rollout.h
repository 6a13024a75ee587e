/* rollout.h - policies and full-game rollouts in C, single and batched.
 *
 * Policies choose the move of the player to move from what that player may
 * know (their own hand and face-up cards, the pile, public counts); they never
 * look at face-down cards, the draw pile's order or other hands.
 *
 *   random     uniform over the legal actions, swap phase included: exactly
 *              legal_actions()[below(n)] with the game's PRNG, one draw per
 *              decision (a forced move, n = 1, draws too).
 *   greedy     play the lowest playable rank that has no power, with all its
 *              copies; keep wild, burn, lower and invisible cards until
 *              nothing else goes, then play one of the cheapest; in the swap
 *              phase put face up the wild cards first, then the highest
 *              other cards, burn cards that are not wild last (see "Games
 *              that end").
 *   heuristic  greedy, plus: burn a big pile (a burn card or a run completed
 *              by the cards in hand) rather than feed it; when only powers
 *              go, prefer those that keep the pressure on the next player
 *              (invisible, then lower, then wild, then burn).
 *
 * Games that end. Greedy and heuristic alone are deterministic and fall into
 * loops (the same cards circulating through pick-ups until the move cap:
 * 47% of 4-player threes games with every seat greedy). So in the play
 * phase, once move_count >= SH_EXPLORE_AFTER x num_players, each of their
 * decisions is first a draw th_rng_below(SH_EXPLORE_ONE_IN): on 0 the move is
 * the random policy's (with its draws), otherwise the greedy or heuristic
 * one. Shorter games, most of them, are played exactly as before and draw
 * nothing; the same seed still gives the same game for any thread count.
 * Positions from which no play ends the game (RULES.md section 7, "Games
 * that cannot end") still reach the cap: with the swap order above they are
 * rarer than under random play (tools/locked_games.py counts them). Before
 * it, the swap put every power face up (wild or burn, highest first), and
 * in threes most capped bot games ended with face-up 10s that could never
 * go on the high card circulating through pick-ups.
 *
 * Repetitions. With rules.repetition_limit > 0 (RULES.md section 7) the play
 * phase still runs on the counts only: the sh_fast_* moves keep the pile's
 * rank-sequence hash (pile_hash) and note each position's repetition key
 * (state.h, sh_repetition_key: the seat to move, the hands, the pile -- all
 * that can change between irreversible moves), so a game ends on exactly the
 * move where the full-state engine, counting full position keys, ends it.
 * With repetition_limit > 0 each game in flight has a log of the keys that
 * left the state's ring (rep_log.h), so the count is exact for any stretch.
 * Measured, 4-player threes, one thread, best of 5 rounds
 * (pytest benchmarks/test_bench_repetition.py --benchmark-only -s, run
 * alternately with the build before the log): random 29.1 ns/move with
 * repetition_limit=3 against 12.4 without (2.35x; ring alone: 23.9 against
 * 12.3), greedy 33.4 against 20.2 (1.65x; ring alone: 30.9 against 19.3).
 * With the rule off the moves skip all of it (a constant in the loops, one
 * test of the rule in the sh_fast_* steps): the same ns/move as before
 * within noise.
 *
 * Batches: game i of a batch is seeded with th_batch_seed(seed, i) (its deal
 * and its policy stream; from a start state with `determinize` set, its
 * resampling of the cards the observer cannot see, then its policy stream), and games are split over threads by index, so a
 * batch's results do not depend on the number of threads.
 */
#ifndef THREES_SHITHEAD_ROLLOUT_H
#define THREES_SHITHEAD_ROLLOUT_H

#include <stdint.h>

#include "common/batch.h"
#include "common/rng.h"
#include "shithead/state.h"

enum { SH_POLICY_RANDOM = 0, SH_POLICY_GREEDY = 1, SH_POLICY_HEURISTIC = 2, SH_NUM_POLICIES = 3 };

/* Greedy and heuristic explore in long games (see "Games that end"). */
#define SH_EXPLORE_AFTER 25u /* moves per player before exploring */
#define SH_EXPLORE_ONE_IN 8u /* then one decision in 8 is random */

/* The action a policy picks for the player to move (the state must be live). */
int sh_policy_action(const sh_state *s, int policy, th_rng *rng);

/* Plays one move with a policy (the state must be live). */
void sh_policy_step(sh_state *s, int policy, th_rng *rng);

/* Plays the game to the end, seat q moving with policies[q]; returns the
 * number of moves played. Bounded by the state's move cap. The play phase runs
 * on the counts only (sh_fast_*): afterwards only the phase, finishing order,
 * move count and truncation of *s are meaningful, so pass a scratch copy. The
 * moves are exactly those sh_policy_step would play on the full state. */
uint32_t sh_rollout(sh_state *s, const uint8_t *policies, th_rng *rng);

/* sh_rollout that also stops once the move count reaches move_limit (the
 * game still on); returns the moves played. Calling it again (or sh_rollout)
 * on the same state and rng goes on with exactly the moves and random draws
 * that one sh_rollout would have played, so a caller can play a long game in
 * slices and check a clock between them. */
uint32_t sh_rollout_until(sh_state *s, const uint8_t *policies, th_rng *rng, uint32_t move_limit);

/* The same game as sh_rollout, played on the full state (every card moved,
 * known cards kept), so *s stays a valid state; with `check`, runs
 * sh_state_check after every move and returns UINT32_MAX at the first
 * failure. For tests and for callers who need the final position. */
uint32_t sh_rollout_full(sh_state *s, const uint8_t *policies, th_rng *rng, int check);

typedef struct sh_batch {
  const sh_state *start; /* play every game from this state, or NULL for fresh deals */
  uint8_t start_valid;   /* 1: the caller vouches that start passed sh_state_check (the bindings' states do:
                          * they are built only by checked setup and legal moves), so it is not checked again */
  sh_rules rules;        /* fresh deals: rules, players, dealer, move cap */
  int num_players;
  int dealer;
  uint32_t max_moves;
  uint8_t policies[SH_MAX_PLAYERS];
  uint64_t seed;
  uint8_t determinize; /* 1: before each game, resample the start state from `observer`'s view (sh_resample) */
  uint8_t observer;
  int64_t n;          /* games */
  int64_t first;      /* game i of this call is game first + i of the batch (its seed); 0 for a whole batch */
  int8_t *places;     /* n * num_players: place of each seat (0 = first out), -1 when still in at truncation */
  uint32_t *moves;    /* n: moves played in the game (from the deal or the start state) */
  uint8_t *truncated; /* n: 1 when the game ended unfinished: the move cap, or a stalemate */
  uint8_t *stalemate; /* n: 1 when it ended by repetition (rules.repetition_limit); may be NULL */
  const th_stop *stop; /* NULL, or asked on the calling thread at least every TH_STOP_MOVES moves (th_run_parts) */
  const sh_rep_log *start_log; /* NULL, or start's older repetition keys (rep_log.h): every game without
                                * determinize starts with them (read only; the caller keeps it unchanged) */
} sh_batch;

/* Plays a batch on `threads` native threads (1 = the calling thread only).
 * Returns 0, or an error code with e set (bad rules, players, policies or
 * thread count), or TH_ERR_STOPPED when b->stop said stop, or TH_ERR_MEMORY
 * when a game's log of repetition keys could not grow (then the outputs
 * are unspecified; the start state is never changed). Asking b->stop never
 * changes a game. With repetition_limit > 0 every game counts repetitions
 * exactly: each part keeps a log (rep_log.h) per game in flight, which
 * allocates only once a stretch outgrows the state's ring. */
int sh_rollouts(const sh_batch *b, int threads, th_error *e);

/* Game i of the batch b alone, on the calling thread, into *s: the same moves
 * as game i of sh_rollouts(b) (b's n and outputs are not used). s may be
 * b->start itself (the game is then played in place; without determinize,
 * the start needs no other copy). `log` (the caller's, or NULL: then the
 * ring alone counts repetitions) is attached to *s for the game and
 * detached after; it starts with b->start_log's keys. Afterwards,
 * as after sh_rollout, only the phase, finishing order, move count,
 * truncation and stalemate of *s are meaningful (sh_returns reads them).
 * Nothing is checked: b must be one sh_rollouts accepts (the caller checks
 * its policies and observer; the start state must be valid). Asks `stop`
 * (may be NULL) at least every TH_STOP_MOVES moves: returns 1 when it said
 * stop (the game unfinished), 2 when the log ran out of memory (the game
 * not to be used), else 0 with *moves the moves played. For
 * callers who play one game at a time (the bindings' threes.rollout). */
int sh_batch_play_game(const sh_batch *b, int64_t i, const th_stop *stop, sh_state *s, uint32_t *moves,
                       sh_rep_log *log);

#endif
