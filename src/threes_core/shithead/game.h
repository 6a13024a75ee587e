/* game.h - Shithead behind the generic game interface (common/game.h). */
#ifndef THREES_SHITHEAD_GAME_H
#define THREES_SHITHEAD_GAME_H

#include "common/game.h"

/* States are sh_state, actions the dense ids of actions.h, policies
 * SH_POLICY_*; search_value plays the game to its end (sh_rollout) and
 * values it by sh_returns. */
extern const th_game sh_game;

#endif
