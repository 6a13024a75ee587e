/* error.h - the error report every checked entry point of every game fills.
 *
 * A checked function returns 0 (TH_OK) or one of the codes below and, when
 * the caller passed a th_error, a message. On an error the state it was given
 * is unchanged. The Python bindings map the codes to exception types.
 */
#ifndef THREES_COMMON_ERROR_H
#define THREES_COMMON_ERROR_H

#include "common/portable.h"

/* Error report for every checked entry point: code 0 means success. */
typedef struct th_error {
  int code;
  char msg[200];
} th_error;

enum {
  TH_OK = 0,
  TH_ERR_RULES = 1,   /* a rule set that is not valid */
  TH_ERR_PLAYERS = 2, /* a player count that does not fit the rules */
  TH_ERR_ACTION = 3,  /* an action id out of range for the game */
  TH_ERR_ILLEGAL = 4, /* an action not legal in this state */
  TH_ERR_SETUP = 5,   /* an impossible or malformed position */
  TH_ERR_ARG = 6,     /* any other bad argument */
  TH_ERR_STOPPED = 7, /* long work given up because the caller's stop hook said so (common/game.h th_stop) */
  TH_ERR_MEMORY = 8   /* memory ran out (a batch's log of repetition keys, shithead/rep_log.h) */
};

/* Sets e (which may be NULL) to code and a printf-style message. */
void th_set_error(th_error *e, int code, const char *fmt, ...) TH_PRINTF(3, 4);

#endif
