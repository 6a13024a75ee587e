/* game.h - what every game of the library shares at its interface.
 *
 * current_player() of a game that is over is TH_TERMINAL_PLAYER in every game
 * (OpenSpiel's kTerminalPlayerId).
 *
 * th_game is the small C interface that generic code (common/ismcts.h) uses:
 * sizes and function pointers over an opaque state. Each game provides one
 * constant instance (shithead/game.h: sh_game, three_thirteen/game.h:
 * tt_game), written with designated initialisers, so that a field added here
 * is one line in each game.c. A state is plain data in a buffer of
 * state_size bytes: a copy is memcpy of its first state_bytes(s) bytes (the
 * bytes in use, which the game may size by the table and the rules), and no
 * code reads the bytes past them. Making or changing a state (new_game,
 * apply_legal, resample, rollout, search_value) writes no byte past them
 * either, so that a vector env can keep its states that close together
 * (common/vector.h: stride).
 */
#ifndef THREES_COMMON_GAME_H
#define THREES_COMMON_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/event.h"
#include "common/rng.h"

#define TH_TERMINAL_PLAYER (-4)

/* Bounds generic code may rely on (each game's game.c checks them at compile
 * time): generic code keeps one scratch state, a legal-action buffer and one
 * value per seat on its stack. */
#define TH_MAX_STATE_BYTES 2048
/* States hold nothing aligned beyond this (each game's game.c checks it): a
 * vector env keeps its states state_bytes apart, rounded up to it. */
#define TH_STATE_ALIGN 8
#define TH_MAX_ACTIONS 16384
#define TH_MAX_PLAYERS 16
/* Bytes of the longest observation text (observation_text) of any game, its
 * terminating NUL included. */
#define TH_OBS_TEXT_MAX 4096

/* A stop hook for long work (a search's deadline, a caller's Ctrl-C): a game
 * doing long work for generic code calls th_stop_now at least every
 * TH_STOP_MOVES moves and gives up when it says so. NULL never stops. */
#define TH_STOP_MOVES 512
typedef struct th_stop {
  int (*should_stop)(void *ctx); /* nonzero: stop now (and every later call says so too) */
  void *ctx;
} th_stop;

static inline int th_stop_now(const th_stop *stop) { return stop && stop->should_stop(stop->ctx); }

typedef struct th_game {
  const char *name;
  size_t state_size; /* bytes of a state's buffer; at most TH_MAX_STATE_BYTES */
  /* The bytes of s in use (at most state_size): what a copy of s must carry. */
  size_t (*state_bytes)(const void *s);
  int max_players;   /* seats; returns and values write at most this many */
  int max_actions;   /* action ids are 0..max_actions-1 (<= TH_MAX_ACTIONS), so legal_actions writes at most this many */
  int num_policies;  /* policy ids are 0..num_policies-1 */
  /* 0, or an error code with e set when s breaks an invariant of the game. */
  int (*check)(const void *s, th_error *e);
  /* The seat to move, or TH_TERMINAL_PLAYER when the game is over. */
  int (*current_player)(const void *s);
  int (*is_over)(const void *s);
  /* Legal actions of a live state into out (room for max_actions), sorted; returns how many (>= 1). */
  int (*legal_actions)(const void *s, uint16_t *out);
  /* Applies an action legal in s (not checked). */
  void (*apply_legal)(void *s, int action);
  /* Deals again, at random, what `observer` cannot see; 0 or an error code. */
  int (*resample)(void *s, int observer, th_rng *rng, th_error *e);
  /* The action policy `policy` picks in a live state. */
  int (*policy_action)(const void *s, int policy, th_rng *rng);
  /* Plays s to the end with `policy` for every seat (s may be left as a
   * scratch state that only returns() reads). */
  void (*rollout)(void *s, int policy, th_rng *rng);
  /* One value per seat of a state that is over, in [-1, 1]. */
  void (*returns)(const void *s, double *out);
  /* For search: d is a scratch copy of `root` after some legal moves;
   * finish it as far as the game's search needs with `policy` for every seat
   * and write one value per seat, in [-1, 1], into out; returns 0. Long play
   * asks th_stop_now(stop) every TH_STOP_MOVES moves: when it says stop, the
   * game returns nonzero at once (out is then not written and d is left as
   * scratch). Whether `stop` is NULL or never stops, the play and its random
   * draws are the same. */
  int (*search_value)(const void *root, void *d, int policy, th_rng *rng, const th_stop *stop, double *out);
  /* For vector environments (common/vector.h): */
  /* A new game with the options and seats of `like` (any checked state of
   * the game), dealt from `seed`: the game the binding's
   * Game.new_initial_state(seed) deals. */
  void (*new_game)(void *s, const void *like, uint64_t seed);
  /* Floats in an observation of s's game (fixed by its options and seats). */
  int (*observation_size)(const void *s);
  /* The observation tensor of seat `observer` (a seat of s) into out. */
  void (*observe)(const void *s, int observer, float *out);
  /* Whether `action` (any int) is legal in s. */
  int (*is_legal)(const void *s, int action);
  int (*num_players)(const void *s);
  /* Whether a game that is over ended unfinished (the move cap, a stalemate). */
  int (*is_truncated)(const void *s);
  /* Action ids of s's game (its rules): 0..num_actions(s)-1, at most max_actions. */
  int (*num_actions)(const void *s);
  /* A bound on every value of an observation of s's game (they are >= 0). */
  int (*observation_high)(const void *s);
  /* 0, or an error code with e set when a vector env cannot play s's game
   * (NULL: it always can). */
  int (*vec_unsupported)(const void *s, th_error *e);
  /* What the legal action `action` did, `before` the state it was applied
   * to and `after` the state it made (common/event.h: the events people see,
   * the private ones marked), into out. */
  void (*events)(const void *before, const void *after, int action, th_events *out);
  /* The observation of seat `observer` (a seat of s) as text into out (room
   * for cap bytes, NUL-terminated): what that seat sees, the format of the
   * game's Python observation_string; returns its length (< cap when it fit;
   * TH_OBS_TEXT_MAX bytes always do). */
  size_t (*observation_text)(const void *s, int observer, char *out, size_t cap);
} th_game;

#endif
