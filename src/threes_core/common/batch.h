/* batch.h - seeds of the games of a batch, shared by every game.
 *
 * Game i of a batch seeded with `seed` is dealt from th_batch_seed(seed, i)
 * and plays its chance and policy stream from th_batch_rng(seed, i): a pure
 * function of (seed, i), so a batch gives the same games whatever the number
 * of threads, the chunking or the machine.
 */
#ifndef THREES_COMMON_BATCH_H
#define THREES_COMMON_BATCH_H

#include <stdint.h>

#include "common/game.h"
#include "common/rng.h"

#define TH_MAX_THREADS 256

/* The rng a batch gives game i (after dealing with th_batch_seed(seed, i)). */
void th_batch_rng(uint64_t seed, uint64_t i, th_rng *rng);

/* The seed of game i of a batch seeded with `seed`. */
uint64_t th_batch_seed(uint64_t seed, uint64_t i);

/* Plays games [0, n) of a batch on `threads` native threads (1..TH_MAX_THREADS;
 * at most n are used): part t gets games [n*t/threads, n*(t+1)/threads) and
 * calls part(ctx, lo, hi, stop); the calling thread plays part 0 and a part
 * whose thread cannot start is played on the calling thread too. Which games
 * a part holds never changes a game, so results do not depend on the thread
 * count.
 *
 * Stopping: with `stop` NULL, every part gets stop NULL and runs to its end.
 * Otherwise parts get a hook to ask (th_stop_now) at least every
 * TH_STOP_MOVES moves of a game: on the calling thread it asks `stop` itself
 * (so a hook that must run on the calling thread, such as Python's signal
 * check, is only ever called there); on the other threads it reads a flag the
 * calling thread sets once `stop` has said stop. Once its own part is done,
 * the calling thread keeps asking `stop` about every millisecond until the
 * other parts are done. A part told to stop returns early, leaving its games'
 * results unspecified. Returns 1 when `stop` said stop, else 0. */
/* 0 when threads is in 1..TH_MAX_THREADS, else TH_ERR_ARG with e set: the
 * check of every game's batch entry point. */
int th_check_threads(int threads, th_error *e);

typedef void (*th_part_fn)(const void *ctx, int64_t lo, int64_t hi, const th_stop *stop);
int th_run_parts(th_part_fn part, const void *ctx, int64_t n, int threads, const th_stop *stop);

/* Games of any game, played to the end by per-seat policies over its C
 * interface (th_game): the batch runner a game needs nothing of its own for
 * (threes._engine.GameBatch). Game i of the call is game `first + i` of the
 * batch: from a byte copy of `start`, or with `fresh` from
 * game->new_game(start, th_batch_seed(seed, first + i)); with `observer` >= 0
 * (not with fresh) what that seat cannot see is dealt again
 * (game->resample) with th_batch_rng(seed, first + i), which then plays the
 * game's policies. Each game ends by its game's own move cap; the stop hook
 * is asked every TH_STOP_MOVES moves. */
typedef struct th_play_batch {
  const th_game *game;
  const void *start;      /* a checked state of the game */
  int fresh;              /* nonzero: new deals with start's options and seats */
  int observer;           /* -1, or the seat whose view each game is resampled from */
  const uint8_t *policy;  /* one policy id (0..num_policies-1) per seat */
  uint64_t seed;
  int64_t first;          /* 0 .. 2**63-1-n */
  int64_t n;              /* games, >= 0 */
  /* outputs, for games 0..n-1 of the call: */
  double *returns;        /* n * num_players, seat by seat */
  uint32_t *moves;        /* n: moves played from start (fresh: from the deal) */
  uint8_t *truncated;     /* n: 1 when the game ended unfinished (game->is_truncated) */
} th_play_batch;

/* Plays b's games on `threads` threads (th_run_parts; the results do not
 * depend on it). 0, TH_ERR_ARG or TH_ERR_SETUP (a bad argument, a start
 * state the game's check refuses, or one it cannot resample) or
 * TH_ERR_STOPPED (the hook said stop: the results are then unspecified),
 * with e set. */
int th_play_games(const th_play_batch *b, int threads, const th_stop *stop, th_error *e);

#endif
