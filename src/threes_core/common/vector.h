/* vector.h - many games stepped at once for reinforcement learning, for
 * every game with a th_game interface (common/game.h).
 *
 * A th_vec holds num_envs environments. Single-agent (learner >= 0): the
 * learner sits at that seat and the other seats are played in C by the
 * game's policies (policies[seat]) between the learner's steps. Self-play
 * (learner = -1): every seat is a learner; each step takes one action for
 * whichever seat is to move in each env.
 *
 * Determinism: episode k of env i is dealt by game->new_game from
 * th_vec_episode_seed(seed, i, k), and move m of that episode made by a
 * policy draws from an rng seeded th_rng_seed(th_batch_seed(episode seed, m))
 * (the binding's State._policy_action(policy, that seed)); so every env's
 * episodes depend only on (seed, i, k), whatever the thread count or the
 * order of the steps of other envs.
 *
 * Buffers: every array is the caller's (a binding allocates them once, as
 * NumPy arrays), num_envs rows each, and the C code only writes into them:
 * no allocation here. After th_vec_reset or th_vec_step, for each env i:
 *   obs[i]             (or obs_u8[i]: the same values as bytes, when the
 *                      caller asks for uint8 observations) the observation of the seat to act (the learner, or in
 *                      self-play the seat to move; at the end of an episode
 *                      the learner's, in self-play the last mover's);
 *   mask[i]            num_actions(like) bytes: 1 for each legal action of the seat to act; when the
 *                      env's next action is ignored (its episode ended and
 *                      NEXT_STEP resets it on the next step) every action is
 *                      marked 1, as pgx does: a mask is never all zero;
 *   rewards[i]         0 until an episode ends, then the learner's return
 *                      (single-agent: one value) or every seat's (self-play:
 *                      num_players values); an illegal action ended with
 *                      penalize: `penalty` for the seat that made it;
 *   terminated[i], truncated[i]   as Gymnasium's, for this step: truncated when
 *                      the game ended unfinished (the move cap, a stalemate);
 *   current_player[i]  the seat whose action the env takes next, or -1 when
 *                      it takes none (its episode is over);
 *   ended[i]           1 while its episode is over and not yet reset.
 *
 * Autoreset (Gymnasium 1.x): NEXT_STEP, the step after an episode ends
 * resets that env and ignores its action (rewards 0, terminated and truncated
 * 0); SAME_STEP, the step that ends an episode writes the final observation
 * into final_obs[i] and resets the env at once (obs and mask are then the
 * new episode's); DISABLED, an ended env must be reset (th_vec_reset with a
 * mask) before it is stepped again.
 *
 * Every loop is bounded: a step plays at most the game's move cap of policy
 * moves per env.
 */
#ifndef THREES_COMMON_VECTOR_H
#define THREES_COMMON_VECTOR_H

#include <stdint.h>

#include "common/error.h"
#include "common/game.h"
#include "common/pool.h"

/* The largest observation a vector env converts to bytes (floats on the stack). */
#define TH_VEC_MAX_OBS 4096

enum { TH_VEC_NEXT_STEP = 0, TH_VEC_SAME_STEP = 1, TH_VEC_DISABLED = 2 };

typedef struct th_vec {
  const th_game *game;
  const void *like;     /* a checked state of the game: the options and seats of every deal */
  int64_t num_envs;
  int learner;          /* the learner's seat, or -1: self-play */
  int autoreset;        /* TH_VEC_NEXT_STEP, TH_VEC_SAME_STEP or TH_VEC_DISABLED */
  int penalize;         /* an illegal action: 0 fails the step (no env stepped), 1 ends that episode */
  float penalty;        /* the reward of an illegal action ended with penalize */
  uint8_t policies[TH_MAX_PLAYERS]; /* the policy of each seat that is not a learner */
  uint64_t seed;
  /* the caller's buffers (see above): */
  unsigned char *states; /* num_envs states, stride bytes apart */
  size_t stride;         /* bytes from one state to the next: from game->state_bytes(like) to state_size, a
                            multiple of TH_STATE_ALIGN or state_size itself */
  uint64_t *episode;     /* episodes dealt in each env so far */
  uint32_t *moves;       /* moves of the env's episode so far */
  /* Observations: obs_size floats per env into obs (and final_obs), or, with
   * obs NULL, obs_size bytes per env into obs_u8 (and final_obs_u8), which
   * th_vec_check allows only when the game's observation_high(like) is at
   * most 255 (its values are whole numbers from 0 to that bound, so bytes
   * lose nothing). final_obs(_u8) is for SAME_STEP only (may be NULL
   * otherwise). */
  float *obs, *final_obs;
  uint8_t *obs_u8, *final_obs_u8;
  uint8_t *mask;         /* num_actions(like) per env */
  float *rewards;        /* 1 per env (single-agent) or num_players (self-play) */
  uint8_t *terminated, *truncated, *ended;
  int32_t *current_player;
} th_vec;

/* The compact stride for states like `like`: its bytes in use
 * (game->state_bytes) rounded up to TH_STATE_ALIGN, at most state_size. Every
 * deal of a vector env has like's options and seats, so every state it holds
 * fits (th_vec_check checks a stride against `like`). */
static inline size_t th_vec_stride(const th_game *g, const void *like) {
  size_t s = (g->state_bytes(like) + TH_STATE_ALIGN - 1) / TH_STATE_ALIGN * TH_STATE_ALIGN;
  return s < g->state_size ? s : g->state_size;
}

/* The seed of episode k of env i. */
uint64_t th_vec_episode_seed(uint64_t seed, int64_t env, uint64_t episode);

/* 0, or an error code with e set when v's settings, buffers or `like` state
 * do not make a vector env (th_vec_reset checks the same; th_vec_step all but
 * `like`, which only a reset may change). */
int th_vec_check(const th_vec *v, th_error *e);

/* Deals the next episode of every env i with reset == NULL or reset[i] != 0
 * and writes its outputs (rewards 0, terminated and truncated 0); the other
 * envs' outputs are left as they are. On the threads of `pool` (NULL: the
 * calling thread only; results do not depend on it). Returns 0 or an error code with e set. */
int th_vec_reset(const th_vec *v, const uint8_t *reset, th_pool *pool, th_error *e);

/* One step of every env with actions[i] (its next action is ignored where
 * the env's episode is over under NEXT_STEP). Before anything changes every
 * action is checked: with penalize 0, illegal ones (and, under DISABLED, an
 * env whose episode is over) fail the step with TH_ERR_ILLEGAL and no env
 * stepped, their env indices (up to bad_cap of them, ascending) written into
 * bad and their number into *num_bad. Returns 0 or an error code with e set. */
int th_vec_step(const th_vec *v, const int32_t *actions, th_pool *pool, int64_t *bad, int64_t bad_cap,
                int64_t *num_bad, th_error *e);

#endif
