/* state.h - the game state: heap-free, copied with memcpy, its bytes in use
 * sized by the table (THE BODY, below; sh_state_bytes).
 *
 * Where every card is: loc[id] (SH_LOC) holds the zone of physical card id
 * (cards.h), coded as below. The pile and the draw pile keep their order in
 * one array (SH_PILE; bottom first), face-down cards sit in fixed slots.
 * Per-player, per-rank counts of the hand and the face-up zone are kept up to
 * date for fast move generation; sh_state_check verifies all of this against
 * loc. What loc alone tells (the known hand cards, the burned ones) is
 * counted from it when asked (sh_public_counts); the playable ranks follow
 * from the rules and the pile's top (sh_playable_mask).
 *
 * The state embeds its rules, so it is self-contained: a copy is a memcpy
 * of sh_state_bytes. One field is not the state's own: rep_log, the caller's
 * log of older repetition keys (rep_log.h), attached only for the length of
 * a call that plays moves with repetition_limit > 0 and NULL at rest, so a
 * copy never shares it.
 */
#ifndef THREES_SHITHEAD_STATE_H
#define THREES_SHITHEAD_STATE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/game.h"
#include "shithead/actions.h"
#include "shithead/cards.h"
#include "common/rng.h"
#include "shithead/rules.h"
#include "shithead/rep_log.h"

/* Zone codes of loc[]: high nibble the zone, low nibble the seat. */
#define SH_LOC_HAND 0x00      /* | seat; with SH_LOC_KNOWN: publicly known */
#define SH_LOC_FACE_UP 0x10   /* | seat */
#define SH_LOC_FACE_DOWN 0x20 /* | seat */
#define SH_LOC_DRAW 0x30
#define SH_LOC_PILE 0x40
#define SH_LOC_BURNED 0x50
#define SH_LOC_KNOWN 0x80
#define SH_LOC_ABSENT 0xFF /* an id that is not part of this game's deck */

enum { SH_PHASE_SWAP = 0, SH_PHASE_PLAY = 1, SH_PHASE_OVER = 2 };

#define SH_OPEN 0xFF     /* effective top of an open pile */
#define SH_NO_RANK 0xFF
#define SH_NO_SEAT 0xFF
#define SH_DEFAULT_MAX_MOVES 10000u
#define SH_REP_WINDOW 64 /* positions remembered for repetition_limit (see sh_record_position) */
#define SH_MAX_MAX_MOVES 100000000u

/* One seat's cards (in sh_state.seat): per-rank counts of its hand and its
 * face-up cards, kept up to date for fast move generation, and its
 * face-down slots. (Its publicly known hand cards are the ones loc marks
 * SH_LOC_KNOWN: sh_public_counts.) */
typedef struct sh_seat {
  uint8_t hand_rank[16];       /* cards of each rank in hand */
  uint8_t up_rank[16];         /* cards of each rank face up */
  uint8_t down[SH_MAX_CPZ];    /* face-down slots: card id or SH_NO_CARD */
  uint8_t hand_len, up_len, down_len; /* cards in hand, face up, face down */
  uint8_t next_seat; /* the next seat still in after this one, from out_mask (sh_state_init_seats) */
} sh_seat;

typedef struct sh_state {
  sh_rules rules;
  uint32_t move_count; /* actions applied so far, swap decisions included */
  uint32_t max_moves;  /* the move cap: at it the game ends truncated */
  uint8_t num_players;
  uint8_t dealer;
  uint8_t phase;     /* SH_PHASE_* */
  uint8_t current;   /* seat to move, SH_NO_SEAT when over */
  uint8_t truncated; /* 1 when the game ended at the move cap */
  uint8_t num_out;   /* players out, in finish[0 .. num_out) */
  uint8_t eff_top;   /* rank of the effective top, SH_OPEN when open */
  uint8_t run_rank;  /* rank of the run at the top of the pile, or SH_NO_RANK */
  uint8_t run_len;   /* its length (see RULES.md 6.3 step 1) */
  uint8_t pile_len;
  uint8_t draw_len;
  uint8_t burned_len;
  uint16_t out_mask; /* bit q set when seat q is out */
  uint8_t finish[SH_MAX_PLAYERS]; /* finishing order; shithead last when over */
  uint8_t pile_rank[16];                 /* cards of each rank in the pile */
  uint8_t stalemate;  /* 1 when the game ended by repetition (truncated is 1 too; RULES.md section 7) */
  /* THE BODY, sized by the table (sh_state_bytes): the game's seats, then
   * where each card is and the piles' order, at offsets that follow from
   * num_players and the rules' decks (a layout fixed at the deal):
   *   seat[0 .. num_players)  what each seat holds (sh_seat, above);
   *   loc (SH_LOC(s))         id_space = decks * SH_COPY_STRIDE bytes:
   *                           loc[id] is the zone code of card id;
   *   pile (SH_PILE(s))       deck = sh_rules_deck_size bytes: the pile,
   *                           bottom first from index 0; the draw pile at
   *                           the far end (sh_draw_at: its i-th card from the
   *                           bottom is pile[deck - 1 - i], the next card
   *                           drawn is i = draw_len - 1). No card is in
   *                           both, so pile_len + draw_len <= deck.
   * seat[q] for q >= num_players is no seat: its bytes are loc's and the
   * pile's. The array and card_room give the room of the largest table. */
  sh_seat seat[SH_MAX_PLAYERS];
  uint8_t card_room[SH_CARD_ID_SPACE + SH_MAX_CARDS];
  /* ---- The repetition tail: read and written only when
   * rules.repetition_limit > 0. With the rule off a copy leaves it out
   * (sh_state_bytes): the hot state ends with the seats above. ---- */
  /* Stalemate by repetition (RULES.md section 7): the repetition keys
   * (sh_repetition_key) of the play-phase positions since the last
   * irreversible move, oldest first in a ring of SH_REP_WINDOW (rep_key,
   * below); rep_progress identifies that stretch (sh_progress). */
  uint16_t rep_len;   /* keys held, <= SH_REP_WINDOW */
  uint16_t rep_head;  /* index of the oldest key when the ring is full */
  int32_t rep_progress;
  /* The pile's rank sequence hashed incrementally (sh_pile_hash): the XOR of
   * sh_pile_card_hash(i, rank) over its cards, kept by every move, on the
   * full state and on the counts (the sh_fast_* moves). */
  uint64_t pile_hash;
  /* NULL, or the caller's log of this stretch's keys that left the ring
   * (rep_log.h), attached while it plays moves: the count is then exact. */
  sh_rep_log *rep_log;
  /* The hands' part of the repetition key, kept incrementally by
   * sh_record_position: rep_hand_fold[q] is seat q's hand hashed (its 16
   * bytes of rank counts, one 64x64->128-bit multiply) when it held
   * rep_hand_len[q] cards, rep_hands their sum over the seats. Within a
   * stretch a move changes one hand and always its length (a play from the
   * hand takes cards out, a pick-up puts the pile in; everything else is
   * irreversible), so only the seats whose length changed are hashed again;
   * a new stretch (and sh_setup_finish) hashes all. */
  uint8_t rep_hand_len[SH_MAX_PLAYERS];
  uint64_t rep_hands;
  uint64_t rep_hand_fold[SH_MAX_PLAYERS];
  uint8_t rep_tag[SH_REP_WINDOW]; /* sh_rep_tag of each rep_key: one SIMD compare finds the candidates */
  uint64_t rep_key[SH_REP_WINDOW];
} sh_state;

/* The body's parts (THE BODY, above): loc's offset in the state, the card
 * ids' space and the deck's cards. num_players and decks are validated when
 * a state is made (the clamps keep a corrupted state's reads in the struct). */
static inline size_t sh_loc_offset(const sh_state *s) {
  int n = s->num_players < SH_MAX_PLAYERS ? s->num_players : SH_MAX_PLAYERS;
  return offsetof(sh_state, seat) + (size_t)n * sizeof(sh_seat);
}
static inline int sh_id_space(const sh_state *s) {
  return (s->rules.decks < SH_MAX_DECKS ? s->rules.decks : SH_MAX_DECKS) * SH_COPY_STRIDE;
}
static inline int sh_deck_cards(const sh_state *s) {
  int d = sh_rules_deck_size(&s->rules);
  return d < SH_MAX_CARDS ? d : SH_MAX_CARDS;
}
/* loc and the pile as byte arrays (through the state's bytes: a char
 * pointer may read and write any part of an object). */
#define SH_LOC(s) ((uint8_t *)(s) + sh_loc_offset(s))
#define SH_PILE(s) (SH_LOC(s) + sh_id_space(s))
/* The zone code of any id 0 .. SH_CARD_ID_SPACE - 1 (SH_LOC_ABSENT past the
 * game's decks). */
static inline int sh_loc_at(const sh_state *s, int id) {
  return id >= 0 && id < sh_id_space(s) ? SH_LOC(s)[id] : SH_LOC_ABSENT;
}

/* The bytes of a state in use, which a copy must carry: the header, the
 * game's seats, loc and the pile (THE BODY) when repetition_limit is 0 (the
 * presets' default); the whole struct with the rule on (the repetition tail
 * follows the room of the largest table). A copy is memcpy of
 * sh_state_bytes(s) bytes (sh_state_copy); the bytes past them are never
 * read. */
static inline size_t sh_state_bytes(const sh_state *s) {
  if (s->rules.repetition_limit) return sizeof(sh_state);
  return sh_loc_offset(s) + (size_t)sh_id_space(s) + (size_t)sh_deck_cards(s);
}
static inline void sh_state_copy(sh_state *dst, const sh_state *src) { memcpy(dst, src, sh_state_bytes(src)); }

/* The i-th card of the draw pile from the bottom (0 <= i < draw_len), and
 * its place (see pile[] above). */
static inline int sh_draw_at(const sh_state *s, int i) { return SH_PILE(s)[sh_deck_cards(s) - 1 - i]; }
static inline uint8_t *sh_draw_slot(sh_state *s, int i) { return &SH_PILE(s)[sh_deck_cards(s) - 1 - i]; }

/* Deals a new game: rules must have passed sh_rules_validate for num_players.
 * dealer < 0 means seat num_players-1 (D-13); max_moves 0 means the default. */
int sh_state_deal(sh_state *s, const sh_rules *r, int num_players, int dealer, uint32_t max_moves,
                  uint64_t seed, th_error *e);

/* Checks the arguments of a new game or position once, for every entry point:
 * the rules for num_players, the dealer (< 0 means seat num_players-1, D-13,
 * and is replaced by it) and the move cap (0 means SH_DEFAULT_MAX_MOVES, and
 * is replaced by it). Returns 0 or an error code with e set. */
int sh_check_game_args(const sh_rules *r, int num_players, int *dealer, uint32_t *max_moves, th_error *e);

/* An empty table for checked arguments (sh_check_game_args): no card placed
 * anywhere, tables and seats set up. The deal and sh_setup_begin start here. */
void sh_state_clear(sh_state *s, const sh_rules *r, int num_players, int dealer, uint32_t max_moves);

static inline int sh_state_current_player(const sh_state *s) {
  return s->phase == SH_PHASE_OVER ? TH_TERMINAL_PLAYER : s->current;
}

/* Legal action ids, sorted ascending and unique, into out (room for
 * SH_MAX_DISTINCT_ACTIONS); returns how many. None when the game is over. */
int sh_legal_actions(const sh_state *s, uint16_t *out);

/* In the swap phase: draws one of the current player's swap choices
 * uniformly (one th_rng_below), as legal_actions()[below(n)] would, without
 * listing them; writes its sorted ranks and returns cards_per_zone. */
int sh_swap_choice(const sh_state *s, th_rng *rng, uint8_t *ranks);
/* The same without the draw: returns the number n of swap choices and, when
 * k < n and ranks is not NULL, writes the k-th of them in id order. */
uint32_t sh_swap_choice_at(const sh_state *s, uint32_t k, uint8_t *ranks);
/* Number of legal actions, without listing them. */
int sh_num_legal_actions(const sh_state *s);

/* 1 when action a is legal now; any int is accepted. */
int sh_is_legal(const sh_state *s, int a);

/* Applies a legal action; an illegal one returns TH_ERR_ACTION or
 * TH_ERR_ILLEGAL with a message and leaves the state untouched. */
int sh_apply_action(sh_state *s, int a, th_error *e);

/* Applies an action known to be legal (for rollouts; no check). */
void sh_apply_legal(sh_state *s, int a);

/* Move-level steps for callers that know the move is legal (rollouts and
 * policies): play `count` cards of `rank` from the current source, turn over
 * a face-down slot, pick up, or make the swap decision (sorted ranks). */
void sh_do_play(sh_state *s, int rank, int count);
void sh_do_blind(sh_state *s, int slot);
void sh_do_pickup(sh_state *s);
void sh_do_swap(sh_state *s, const uint8_t *face_up);

/* The same steps on the counts only, without moving physical cards: for
 * rollouts on a scratch copy in the play phase. Afterwards only the phase,
 * finishing order, move count, truncation, stalemate and counts are
 * meaningful; the state must not be used with the checked API again. With
 * repetition_limit > 0 they keep pile_hash and record the position
 * (sh_record_position), as the full-state moves do: the same game ends the
 * same way; with the rule off they skip both (one test of the rule). */
void sh_fast_play(sh_state *s, int rank, int count);
void sh_fast_blind(sh_state *s, int slot);
void sh_fast_pickup(sh_state *s);

/* The whole play phase with every seat playing uniformly at random, on the
 * counts only: the same moves, one by one, as sh_policy_step with the random
 * policy and the same rng (repetitions included: with repetition_limit > 0
 * the loop keeps the repetition keys, as sh_fast_play does). */
void sh_fast_random_playout(sh_state *s, th_rng *rng);
/* The same playout, stopped once move_count reaches move_limit (if the game
 * is still on): calling it again, or sh_fast_random_playout, goes on with
 * exactly the moves one call would have played. */
void sh_fast_random_playout_until(sh_state *s, th_rng *rng, uint32_t move_limit);
/* Two such playouts interleaved move by move, until one of the games leaves
 * the play phase or each has played max_moves more moves; returns which game
 * ended (0 for a, 1 for b), or 2 when neither did. Each game gets exactly the
 * moves sh_fast_random_playout would give it with its own rng (repetition
 * keys included); a game still on stops mid-game and can be resumed by any
 * of these functions. */
int sh_fast_random_playout2(sh_state *a, th_rng *rng_a, sh_state *b, th_rng *rng_b, uint32_t max_moves);

/* The ranks that may be played on the pile now, as a mask (RULES.md 6.1):
 * on an open pile anything; a wild rank always; after a `lower` rank those
 * below it (or equal, unless lower_strict); otherwise those equal or above. */
static inline uint16_t sh_playable_by_top(const sh_rules *r, int top) {
  uint16_t m;
  if (top >= SH_NUM_RANKS) {
    m = SH_ALL_RANKS_MASK; /* an open pile (SH_OPEN & 15 == 15) */
  } else if ((r->lower >> top) & 1) {
    int lim = r->lower_strict ? top : top + 1; /* the ranks below lim */
    m = (uint16_t)((1u << lim) - 1u);
  } else {
    m = (uint16_t)~((1u << top) - 1u);
  }
  return (uint16_t)((m | r->wild) & SH_ALL_RANKS_MASK);
}
static inline uint16_t sh_playable_mask(const sh_state *s) { return sh_playable_by_top(&s->rules, s->eff_top & 15); }
/* Fills next_seat from num_players and out_mask (done by every constructor
 * and whenever a player goes out). */
void sh_state_init_seats(sh_state *s);

/* Decodes an id with the source that applies in this state. */
int sh_state_decode_action(const sh_state *s, int a, sh_move *m);

/* One value per seat; all 0 before the end (RULES.md section 7). */
void sh_returns(const sh_state *s, double *out);

/* Whether a card of rank r may be played on the pile now (RULES.md 6.1). */
int sh_playable(const sh_state *s, int rank);

/* Counts of a seat's publicly known hand cards per rank (out has 14 entries). */
void sh_known_rank_counts(const sh_state *s, int seat, uint8_t *out);
/* The public counts the observation and the resample read, from one pass
 * over loc (needs the full state): known[q][r], seat q's publicly known hand
 * cards of rank r (q < num_players), and burned[r]; rows of 16. */
void sh_public_counts(const sh_state *s, uint8_t known[][16], uint8_t *burned);

/* The seat that starts the play phase (RULES.md section 5). */
int sh_find_starter(const sh_state *s);
/* The start search of RULES.md section 5 as groups of kinds, in the order
 * searched (bit k of groups[i] set for kind k): the first group some hand
 * holds a card of decides, and of its holders the first clockwise from the
 * seat after the dealer starts. A group is a whole start rank
 * (rank-from-dealer) or one kind (rank-suit). Returns how many (at most
 * SH_NUM_KINDS). */
int sh_start_groups(const sh_state *s, uint64_t *groups);

/* A canonical copy for comparing positions: copies of one kind are
 * interchangeable, so card ids in the pile, draw pile and slots become kinds,
 * each kind's zone codes are sorted, and padding is zero. Two states are the
 * same position exactly when their canonical copies are equal bytes. */
void sh_state_canonical(const sh_state *s, sh_state *out);

/* Copies *s into scratch[i % 2] n times, as a benchmark of the state copy;
 * returns a checksum so the copies cannot be optimized away. */
uint64_t sh_state_copy_bench(const sh_state *s, sh_state scratch[2], uint64_t n);

/* The position key (RULES.md section 7): a 64-bit hash of exactly what
 * decides every future legal move -- the phase, the seat to move, who is out,
 * each seat's hand and face-up cards as multisets of ranks, its face-down
 * slots (occupied, and by which rank), the pile and the draw pile as
 * sequences of ranks. Suits, known cards, the move count and the history are
 * not in it, so it serves as a transposition-table key; equal positions give
 * equal keys on every platform, different ones collide with probability
 * about 2^-64. Needs the full state (not after sh_fast_* moves). */
uint64_t sh_position_key(const sh_state *s);

/* Repetition keys. Positions are only ever compared within one stretch of
 * the play phase between irreversible moves (sh_progress: a card burned,
 * drawn or played from the face-up or face-down zone, a player out). All
 * that can differ between two positions of one stretch is the seat to move,
 * the hands (as rank counts) and the pile (as a rank sequence): the draw
 * pile, the face-up and face-down cards, who is out and the phase stay the
 * same. So the ring holds sh_repetition_key, a hash of those three only,
 * and two positions of one stretch have equal repetition keys exactly when
 * they have equal position keys (either hash colliding aside, probability
 * about 2^-64 each). Both parts are kept incrementally: the pile's is
 * pile_hash (a push of c cards of one rank XORs c values in, a pick-up or
 * burn clears it), the hands' is rep_hands (the seat whose hand changed is
 * hashed again: 16 bytes of counts, one 64x64->128-bit multiply), so a
 * move costs O(1) hashing. sh_repetition_key itself computes the key from
 * scratch; sh_state_check compares the newest remembered key with it.
 * It is computed on the counts only, so rollouts with the rule on run on the
 * sh_fast_* moves too (rollout.h, "Repetitions", gives the measured cost:
 * about 2x the ns/move of the rule off, against 10-15x with the from-scratch
 * position key on the full state before). A byte of each key (rep_tag) is
 * compared first, 16 at a time, and the full key only where it matches.
 * Equal on every platform, but not a transposition key across stretches:
 * use sh_position_key for that. */
static inline uint64_t sh_mix64(uint64_t x) { /* splitmix64's finaliser */
  x ^= x >> 30;
  x *= UINT64_C(0xbf58476d1ce4e5b9);
  x ^= x >> 27;
  x *= UINT64_C(0x94d049bb133111eb);
  return x ^ (x >> 31);
}
/* The part of pile_hash of a card of `rank` at height i (0 = bottom). */
static inline uint64_t sh_pile_card_hash(int i, int rank) {
  return sh_mix64(((uint64_t)(unsigned)i << 4 | (unsigned)rank) + UINT64_C(0x9e3779b97f4a7c15));
}
/* pile_hash from scratch, from the pile's card ids (needs the full state). */
uint64_t sh_pile_hash(const sh_state *s);
uint64_t sh_repetition_key(const sh_state *s);
/* rep_hands and its per-seat parts from scratch (after a set-up; a new
 * stretch does it itself). */
void sh_rep_hands_refresh(sh_state *s);
/* The byte of a key kept in rep_tag. */
static inline uint8_t sh_rep_tag(uint64_t key) { return (uint8_t)(key >> 56); }

/* Irreversible progress: a sum of counts that only ever move one way (cards
 * burned, players out, cards drawn, face-up and face-down cards played). A
 * position can only recur while it stays the same. */
int32_t sh_progress(const sh_state *s);

/* With repetition_limit k > 0, called after every move (on the full state,
 * and by the sh_fast_* moves): notes the position's repetition key (in the
 * play phase) and ends the game as a stalemate when it has
 * now occurred k times since the last irreversible move (no earlier position
 * can recur). The state remembers the last SH_REP_WINDOW plies of such a
 * stretch; with a log attached (rep_log, rep_log.h) the keys that leave the
 * ring go there and count too, so the rule is exact for any stretch. Without
 * one, a repetition more than SH_REP_WINDOW plies apart is not seen. */
void sh_record_position(sh_state *s);

/* Every invariant of the state; returns 0 or TH_ERR_SETUP with a message. */
int sh_state_check(const sh_state *s, th_error *e);

/* Building a position zone by zone (for from_dict): begin, add every card of
 * the deck, finish. Pile and draw pile cards are added bottom first. */
int sh_setup_begin(sh_state *s, const sh_rules *r, int num_players, int dealer, uint32_t max_moves,
                   th_error *e);
enum {
  SH_ZONE_HAND = 0,
  SH_ZONE_HAND_KNOWN = 1,
  SH_ZONE_FACE_UP = 2,
  SH_ZONE_FACE_DOWN = 3,
  SH_ZONE_DRAW = 4,
  SH_ZONE_PILE = 5,
  SH_ZONE_BURNED = 6
};
int sh_setup_add(sh_state *s, int zone, int seat, int kind, int slot, th_error *e);
int sh_setup_finish(sh_state *s, int phase, int current, uint32_t move_count, int truncated,
                    const uint8_t *finish, int num_finish, th_error *e);
/* Before sh_setup_finish, with repetition_limit > 0: the stalemate flag and
 * the remembered repetition keys (oldest first, at most SH_REP_WINDOW; the
 * newest is the current position's), checked by sh_setup_finish. */
int sh_setup_repetitions(sh_state *s, int stalemate, const uint64_t *keys, int n, th_error *e);
/* The remembered repetition keys, oldest first, into out (SH_REP_WINDOW room);
 * returns how many. */
int sh_remembered_positions(const sh_state *s, uint64_t *out);

#endif
