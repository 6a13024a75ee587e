/* rep_log.h - the repetition keys of a stretch that no longer fit the ring.
 *
 * RULES.md section 7 ends a game at the k-th occurrence of a position in the
 * play phase. Positions can only recur within one stretch between
 * irreversible moves (state.h, sh_progress), and the state remembers the
 * last SH_REP_WINDOW of them in a fixed ring. A stretch can be longer than
 * that, so counting exactly needs memory that grows with the stretch: this
 * log, which the caller owns and attaches to the state it plays
 * (sh_state.rep_log) for the length of a call. When the ring is full, the
 * key that leaves it goes into the attached log, and a position's
 * occurrences are those in the ring plus those in the log. A new stretch
 * empties both.
 *
 * The log keeps the keys in the order they left the ring (for to_dict) and
 * an open-addressing count of each key (for the per-move question "how
 * often?" in O(1)). It allocates only when a stretch outgrows the ring
 * (so never with repetition_limit 0, nor in short stretches), doubling its
 * room: amortised O(1) per move. When an allocation fails the log says so
 * (failed) and drops keys from then on; every caller turns that into an
 * error (MemoryError from Python), never a silent inexact count.
 *
 * Without an attached log (rep_log NULL: the ISMCTS search, whose every
 * iteration starts from a resampled state that remembers nothing, and a C
 * user who does not attach one) the ring alone counts, as documented in
 * state.h.
 */
#ifndef THREES_SHITHEAD_REP_LOG_H
#define THREES_SHITHEAD_REP_LOG_H

#include <stdint.h>

typedef struct sh_rep_count {
  uint64_t key;
  uint32_t count;
  uint32_t gen; /* the slot is used when this is the log's gen (a clear moves gen on: O(1)) */
} sh_rep_count;

typedef struct sh_rep_log {
  uint64_t *keys;      /* the keys that left the ring, oldest first */
  uint32_t len, cap;   /* keys held, room */
  sh_rep_count *table; /* table_cap slots (0 or a power of 2), at most half used */
  uint32_t table_cap, distinct;
  uint32_t gen;        /* the current generation of table slots (0: none yet) */
  uint8_t failed;      /* 1 once an allocation failed (the count is not exact any more) */
} sh_rep_log;

/* An empty log holding no memory (a zeroed struct is one too). */
void sh_rep_log_init(sh_rep_log *l);
/* Frees its memory; the log is then empty (init). */
void sh_rep_log_free(sh_rep_log *l);
/* Empties it, keeping its memory for the next stretch: O(len); failed stays. */
void sh_rep_log_clear(sh_rep_log *l);
/* Occurrences of key in the log. */
uint32_t sh_rep_log_count(const sh_rep_log *l, uint64_t key);
/* Appends key; returns 0, or -1 (and sets failed, the key dropped) when
 * memory ran out. */
int sh_rep_log_push(sh_rep_log *l, uint64_t key);
/* Room for n keys in all without another allocation; 0, or -1 (nothing
 * changed) when memory ran out. */
int sh_rep_log_reserve(sh_rep_log *l, uint32_t n);
/* dst (a log of its own, not src) := src's keys; 0, or -1 with dst empty
 * and failed when memory ran out. */
int sh_rep_log_copy(sh_rep_log *dst, const sh_rep_log *src);

#endif
