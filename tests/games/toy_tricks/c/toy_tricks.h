/* toy_tricks.h - Toy Tricks, a small trick-taking game for 2 to 4 players:
 * the test-only third game that shows how a game plugs into the library
 * (docs/adding_a_game.md). Not shipped: tests/games/build.py compiles it for
 * the tests.
 *
 * Rules. A game is a series of deals of one 52-card deck (ranks 2..A, suits
 * c d h s), shuffled anew for each deal. Each seat is dealt `hand_size`
 * cards (1..13; the rest stay undealt, unseen). Deal d's first trick is led
 * by seat d mod players; every seat in turn plays any card of its hand (no
 * suit to follow). The highest rank wins the trick (with `low_wins`, the
 * lowest); between equal ranks the card played first wins. The winner leads
 * the next trick. When the hands are empty the deal ends, and the game ends
 * with it once a seat has won `target` tricks in all (1..200); else the next
 * deal follows. Seats are ranked by their tricks in all (more is better,
 * equal counts share places). A move cap ends a game early (truncated),
 * ranked by the tricks so far.
 *
 * What each seat sees: its own hand, every card of the deal played and by
 * whom, the current trick, the tricks won and every hand's size; never
 * another hand, the undealt cards or the next deals.
 *
 * Actions: the card's id, suit * 13 + rank (rank 0 = 2 .. 12 = ace).
 */
#ifndef THREES_TOY_TRICKS_H
#define THREES_TOY_TRICKS_H

#include <stdint.h>

#include "common/game.h"

#define TK_NUM_CARDS 52
#define TK_MIN_PLAYERS 2
#define TK_MAX_PLAYERS 4
#define TK_MAX_HAND 13
#define TK_MAX_TARGET 200
#define TK_NUM_POLICIES 2 /* 0 random, 1 greedy */

/* owner[] of a card: a seat (0..3) holding it, or one of these */
#define TK_UNDEALT 0xFF
#define TK_IN_TRICK 0xFE
#define TK_PLAYED_BY 0x80 /* 0x80 | seat: played by that seat in an earlier trick */

typedef struct tk_state {
  th_rng rng;         /* the next deals */
  uint8_t num_players;
  uint8_t hand_size;
  uint8_t low_wins;
  uint8_t over;
  uint8_t truncated;
  uint8_t leader;     /* the seat that led the current trick */
  uint8_t current;    /* the seat to move (while not over) */
  uint8_t trick_len;  /* cards in the current trick */
  uint8_t trick[TK_MAX_PLAYERS]; /* the current trick's cards, in play order from the leader */
  uint8_t target;     /* the tricks in all that end the game */
  uint8_t tricks[TK_MAX_PLAYERS]; /* tricks won in this deal */
  uint16_t total[TK_MAX_PLAYERS]; /* tricks won in all */
  uint16_t deal;      /* deals before this one */
  uint8_t owner[TK_NUM_CARDS];
  uint16_t move_count;
  uint16_t max_moves;
} tk_state;

/* A new game (checked arguments: 0, or TH_ERR_PLAYERS / TH_ERR_ARG with e set). max_moves 0: no
 * cap beyond the game's own length. */
int tk_new_game(tk_state *s, int num_players, int hand_size, int low_wins, int target, int max_moves,
                uint64_t seed, th_error *e);
/* The longest game (the deals it can take): the move cap when none is given. */
int tk_longest(int num_players, int hand_size, int target);
int tk_check(const tk_state *s, th_error *e);
int tk_apply_action(tk_state *s, int action, th_error *e);
int tk_hand_size(const tk_state *s, int seat);

extern const th_game tk_game;

#endif
