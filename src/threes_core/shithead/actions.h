/* actions.h - the action map: dense integer ids, the same for every state of
 * a game (they depend on the rules only, never on how cards are stored).
 *
 * With C = 4 * decks (the most copies of one rank) and K = cards_per_zone:
 *
 *   id range                         action
 *   [0, 14*C)                        PLAY(rank r, count c): id = r*C + (c-1),
 *                                    r = rank index 0..13 (2..A, joker),
 *                                    c = 1..C cards of that rank. The source
 *                                    (hand, face-up, or hand plus face-up when
 *                                    merging) follows from the state.
 *   [14*C, 14*C+K)                   BLIND(slot s): turn over face-down slot s.
 *   14*C+K                           PICK_UP the pile.
 *   [14*C+K+1, 14*C+K+1+M)           SWAP(choice): the multiset of K ranks that
 *                                    lie face up after the swap phase, ranked
 *                                    in lexicographic order of its sorted
 *                                    ranks; M = C(14+K-1, K) (560 for K=3).
 *
 * threes (decks 2, K 3): 112 play ids, 3 blind, 1 pick-up, 560 swap = 676.
 * classic and dutch (decks 1, K 3): 56 + 3 + 1 + 560 = 620.
 */
#ifndef THREES_SHITHEAD_ACTIONS_H
#define THREES_SHITHEAD_ACTIONS_H

#include "shithead/rules.h"

/* Swap choices with K = SH_MAX_CPZ: C(14+5-1, 5). */
#define SH_MAX_SWAP_CHOICES 8568
#define SH_MAX_PLAY_ACTIONS (SH_NUM_RANKS * SH_MAX_COPIES_PER_RANK)
#define SH_MAX_DISTINCT_ACTIONS (SH_MAX_PLAY_ACTIONS + SH_MAX_CPZ + 1 + SH_MAX_SWAP_CHOICES)

enum { SH_MOVE_PLAY = 0, SH_MOVE_BLIND = 1, SH_MOVE_PICKUP = 2, SH_MOVE_SWAP = 3 };
enum {
  SH_SRC_NONE = 0,
  SH_SRC_HAND = 1,
  SH_SRC_FACE_UP = 2,
  SH_SRC_HAND_AND_FACE_UP = 3,
  SH_SRC_FACE_DOWN = 4
};

/* A small value type for one action, decoded. */
typedef struct sh_move {
  uint8_t kind;   /* SH_MOVE_* */
  uint8_t source; /* SH_SRC_*; set by sh_state_decode_action, else SH_SRC_NONE */
  uint8_t rank;   /* PLAY: rank index */
  uint8_t count;  /* PLAY: number of cards; SWAP: K */
  uint8_t slot;   /* BLIND: face-down slot */
  uint8_t face_up[SH_MAX_CPZ]; /* SWAP: the K ranks kept face up, sorted */
} sh_move;

static inline int sh_copies_per_rank(const sh_rules *r) { return SH_NUM_SUITS * r->decks; }
static inline int sh_first_blind_action(const sh_rules *r) { return SH_NUM_RANKS * sh_copies_per_rank(r); }
static inline int sh_pickup_action(const sh_rules *r) { return sh_first_blind_action(r) + r->cards_per_zone; }
static inline int sh_first_swap_action(const sh_rules *r) { return sh_pickup_action(r) + 1; }
static inline int sh_play_action(const sh_rules *r, int rank, int count) {
  return rank * sh_copies_per_rank(r) + count - 1;
}

/* Number of multisets of size k drawn from n kinds: C(n+k-1, k). */
int sh_multichoose(int n, int k);

/* sh_swap_skip[rem][x]: the sum of sh_multichoose(14 - y, rem) over y < x. */
extern const uint16_t sh_swap_skip[SH_MAX_CPZ + 1][SH_NUM_RANKS + 1];

/* sh_multichoose for n <= 14 and k <= SH_MAX_CPZ, from a table. */
extern const uint16_t sh_multichoose_table[SH_NUM_RANKS + 1][SH_MAX_CPZ + 1];

int sh_num_swap_choices(const sh_rules *r);
int sh_num_distinct_actions(const sh_rules *r);

/* Swap choice <-> lexicographic index; ranks must be sorted, k <= SH_MAX_CPZ. */
int sh_swap_index(const uint8_t *ranks, int k);
void sh_swap_ranks(int index, int k, uint8_t *ranks);

/* Decodes an id (source left SH_SRC_NONE). Returns 0, or TH_ERR_ACTION. */
int sh_decode_action(const sh_rules *r, int action, sh_move *out);

/* Encodes a move's kind/rank/count/slot/face_up (source ignored); returns the
 * id, or -1 when the move does not fit the rules. */
int sh_encode_move(const sh_rules *r, const sh_move *m);

#endif
