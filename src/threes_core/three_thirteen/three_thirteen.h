/* three_thirteen.h - Three Thirteen, the rummy game: one header for its C API. */
#ifndef THREES_THREE_THIRTEEN_THREE_THIRTEEN_H
#define THREES_THREE_THIRTEEN_THREE_THIRTEEN_H

#include "three_thirteen/meld.h"
#include "three_thirteen/state.h"
#include "three_thirteen/game.h"
#include "common/ismcts.h"

#endif
