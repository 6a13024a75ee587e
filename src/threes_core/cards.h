/* cards.h - ranks, suits, card kinds and physical card ids.
 *
 * Rank index r: 0..12 for 2 3 4 5 6 7 8 9 T J Q K A, 13 for the joker.
 * The rank's value for comparisons is r + 2 (2..14, joker 15), so comparing
 * indexes is comparing values (RULES.md section 1).
 *
 * Card kind k (what a card looks like): k = 4*r + suit for the 52 normal cards
 * (suits 0..3 = c d h s), 52 = red joker Xr, 53 = black joker Xb. Kinds in
 * increasing order are the canonical order of RULES.md section 1.
 *
 * Physical card id: id = 64*copy + kind, copy in [0, decks). Two copies of the
 * same kind are identical for play; the copy only keeps every physical card a
 * distinct identity so that each lies in exactly one zone. Ids fit in a byte.
 */
#ifndef THREES_CARDS_H
#define THREES_CARDS_H

#include <stdint.h>

#define TH_NUM_NORMAL_RANKS 13
#define TH_RANK_JOKER TH_NUM_NORMAL_RANKS
#define TH_NUM_RANKS (TH_NUM_NORMAL_RANKS + 1)
#define TH_NUM_SUITS 4
#define TH_NUM_JOKER_KINDS 2
#define TH_KIND_RED_JOKER (TH_NUM_NORMAL_RANKS * TH_NUM_SUITS)
#define TH_KIND_BLACK_JOKER (TH_KIND_RED_JOKER + 1)
#define TH_NUM_KINDS (TH_KIND_RED_JOKER + TH_NUM_JOKER_KINDS)
#define TH_CARDS_PER_DECK TH_NUM_KINDS /* 52 + up to 2 jokers */

#define TH_MAX_DECKS 4
#define TH_COPY_STRIDE 64 /* > TH_NUM_KINDS, a power of two */
#define TH_CARD_ID_SPACE (TH_MAX_DECKS * TH_COPY_STRIDE)
#define TH_MAX_CARDS (TH_MAX_DECKS * TH_CARDS_PER_DECK)
#define TH_NO_CARD 0xFF

/* The most copies of one rank in play: four suits in every deck. */
#define TH_MAX_COPIES_PER_RANK (TH_NUM_SUITS * TH_MAX_DECKS)

#define TH_ALL_RANKS_MASK ((uint16_t)((1u << TH_NUM_RANKS) - 1u))

static inline int th_card_kind(int id) { return id & (TH_COPY_STRIDE - 1); }
static inline int th_kind_rank(int kind) { return kind >> 2; }
static inline int th_kind_suit(int kind) { return kind & 3; } /* jokers: 0 = red, 1 = black */
static inline int th_card_rank(int id) { return th_kind_rank(th_card_kind(id)); }
static inline int th_card_id(int copy, int kind) { return copy * TH_COPY_STRIDE + kind; }

/* Two-character text of a kind ("Ah", "Td", "Xr") into buf (3 bytes). */
void th_kind_text(int kind, char buf[3]);

#endif
