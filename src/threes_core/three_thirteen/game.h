/* game.h - Three Thirteen behind the generic game interface (common/game.h). */
#ifndef THREES_THREE_THIRTEEN_GAME_H
#define THREES_THREE_THIRTEEN_GAME_H

#include "common/game.h"

/* States are tt_state, actions the ids of state.h, policies TT_POLICY_*.
 * search_value values a search iteration on the root's round only (a whole
 * game of greedy play is some 350 moves): if the selection walk already
 * finished the root's round (or the game), by that round's score margins
 * (tt_round_margin); else it plays to the end of the round (tt_rollout_round)
 * and values it the same way. A game cut at the move cap is valued by
 * tt_returns. */
extern const th_game tt_game;

#endif
