/* rep_log.c - see rep_log.h. */
#include "shithead/rep_log.h"

#include <stdlib.h>
#include <string.h>

void sh_rep_log_init(sh_rep_log *l) { memset(l, 0, sizeof *l); }

void sh_rep_log_free(sh_rep_log *l) {
  free(l->keys);
  free(l->table);
  sh_rep_log_init(l);
}

/* The slot of key: where it is, or the free slot where it would go. The
 * keys are hashes already (state.h, sh_mix64), so their low bits index.
 * Slots of an older generation are free; within one generation nothing is
 * ever removed, so no probe chain breaks. */
static uint32_t slot_of(const sh_rep_count *t, uint32_t cap, uint32_t gen, uint64_t key) {
  uint32_t mask = cap - 1u, i = (uint32_t)key & mask;
  /* at most half the slots are used, so a free one ends every probe */
  while (t[i].gen == gen && t[i].key != key) i = (i + 1u) & mask;
  return i;
}

void sh_rep_log_clear(sh_rep_log *l) {
  l->len = 0;
  l->distinct = 0; /* failed stays: the caller has to see it */
  if (++l->gen == 0) { /* after 2^32 clears: every slot free again, explicitly */
    if (l->table) memset(l->table, 0, (size_t)l->table_cap * sizeof *l->table);
    l->gen = 1;
  }
}

uint32_t sh_rep_log_count(const sh_rep_log *l, uint64_t key) {
  if (!l->distinct) return 0;
  const sh_rep_count *c = &l->table[slot_of(l->table, l->table_cap, l->gen, key)];
  return c->gen == l->gen ? c->count : 0;
}

/* Room for n keys and n distinct ones. */
static int grow(sh_rep_log *l, uint32_t n) {
  if (n > UINT32_MAX / 4u) return -1;
  if (n > l->cap) {
    uint32_t cap = l->cap ? l->cap : 64u;
    while (cap < n) cap *= 2u;
    uint64_t *keys = realloc(l->keys, (size_t)cap * sizeof *keys);
    if (!keys) return -1;
    l->keys = keys;
    l->cap = cap;
  }
  if (2u * n > l->table_cap) {
    uint32_t cap = l->table_cap ? l->table_cap : 128u;
    while (cap < 2u * n) cap *= 2u;
    sh_rep_count *t = calloc(cap, sizeof *t); /* every slot of generation 0: free */
    if (!t) return -1;
    if (!l->gen) l->gen = 1;
    for (uint32_t i = 0; i < l->table_cap; i++)
      if (l->table[i].gen == l->gen) t[slot_of(t, cap, l->gen, l->table[i].key)] = l->table[i];
    free(l->table);
    l->table = t;
    l->table_cap = cap;
  }
  return 0;
}

int sh_rep_log_reserve(sh_rep_log *l, uint32_t n) { return grow(l, n); }

int sh_rep_log_push(sh_rep_log *l, uint64_t key) {
  if (l->failed) return -1;
  if ((l->len >= l->cap || 2u * (l->distinct + 1u) > l->table_cap) && grow(l, l->len + 1u)) {
    l->failed = 1;
    return -1;
  }
  l->keys[l->len++] = key;
  sh_rep_count *c = &l->table[slot_of(l->table, l->table_cap, l->gen, key)];
  if (c->gen != l->gen) {
    c->key = key;
    c->count = 0;
    c->gen = l->gen;
    l->distinct++;
  }
  c->count++;
  return 0;
}

int sh_rep_log_copy(sh_rep_log *dst, const sh_rep_log *src) {
  sh_rep_log_clear(dst);
  dst->failed = 0;
  if (grow(dst, src->len)) {
    dst->failed = 1;
    return -1;
  }
  for (uint32_t k = 0; k < src->len; k++) sh_rep_log_push(dst, src->keys[k]);
  dst->failed = src->failed;
  return dst->failed ? -1 : 0;
}
