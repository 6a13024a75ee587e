/* game.h - what every game of the library shares at its interface.
 *
 * current_player() of a game that is over is TH_TERMINAL_PLAYER in every game
 * (OpenSpiel's kTerminalPlayerId).
 */
#ifndef THREES_COMMON_GAME_H
#define THREES_COMMON_GAME_H

#define TH_TERMINAL_PLAYER (-4)

#endif
