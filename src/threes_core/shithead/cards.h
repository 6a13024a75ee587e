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
#ifndef THREES_SHITHEAD_CARDS_H
#define THREES_SHITHEAD_CARDS_H

#include <stdint.h>

#define SH_NUM_NORMAL_RANKS 13
#define SH_RANK_JOKER SH_NUM_NORMAL_RANKS
#define SH_NUM_RANKS (SH_NUM_NORMAL_RANKS + 1)
#define SH_NUM_SUITS 4
#define SH_NUM_JOKER_KINDS 2
#define SH_KIND_RED_JOKER (SH_NUM_NORMAL_RANKS * SH_NUM_SUITS)
#define SH_KIND_BLACK_JOKER (SH_KIND_RED_JOKER + 1)
#define SH_NUM_KINDS (SH_KIND_RED_JOKER + SH_NUM_JOKER_KINDS)
#define SH_CARDS_PER_DECK SH_NUM_KINDS /* 52 + up to 2 jokers */

#define SH_MAX_DECKS 4
#define SH_COPY_STRIDE 64 /* > SH_NUM_KINDS, a power of two */
#define SH_CARD_ID_SPACE (SH_MAX_DECKS * SH_COPY_STRIDE)
#define SH_MAX_CARDS (SH_MAX_DECKS * SH_CARDS_PER_DECK)
#define SH_NO_CARD 0xFF

/* The most copies of one rank in play: four suits in every deck. */
#define SH_MAX_COPIES_PER_RANK (SH_NUM_SUITS * SH_MAX_DECKS)

#define SH_ALL_RANKS_MASK ((uint16_t)((1u << SH_NUM_RANKS) - 1u))

static inline int sh_card_kind(int id) { return id & (SH_COPY_STRIDE - 1); }
static inline int sh_kind_rank(int kind) { return kind >> 2; }
static inline int sh_kind_suit(int kind) { return kind & 3; } /* jokers: 0 = red, 1 = black */
static inline int sh_card_rank(int id) { return sh_kind_rank(sh_card_kind(id)); }
static inline int sh_card_id(int copy, int kind) { return copy * SH_COPY_STRIDE + kind; }

/* Two-character text of a kind ("Ah", "Td", "Xr") into buf (3 bytes). */
void sh_kind_text(int kind, char buf[3]);

#endif
