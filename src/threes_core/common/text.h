/* text.h - a bounded text writer for the games' observation texts (the
 * information-state strings the bindings hand to Python).
 *
 * Text past the capacity is dropped but counted, so a caller learns the
 * length it needed; nothing is ever written past `cap` bytes. */
#ifndef THREES_COMMON_TEXT_H
#define THREES_COMMON_TEXT_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  char *p;
  size_t len, cap; /* characters written (or wanted), room for them (the NUL excluded) */
} th_text;

/* A writer into out[0 .. cap), cap >= 1: cap - 1 characters and the NUL of
 * th_text_end. */
static inline th_text th_text_begin(char *out, size_t cap) {
  th_text t = {out, 0, cap - 1};
  return t;
}

static inline void th_put_char(th_text *t, char c) {
  if (t->len < t->cap) t->p[t->len] = c;
  t->len++;
}

static inline void th_put(th_text *t, const char *s) {
  for (; *s; s++) th_put_char(t, *s);
}

static inline void th_put_uint(th_text *t, uint64_t v) {
  char d[20];
  int k = 0;
  do d[k++] = (char)('0' + v % 10); while ((v /= 10) && k < 20);
  while (k--) th_put_char(t, d[k]);
}

static inline void th_put_int(th_text *t, int64_t v) {
  if (v < 0) {
    th_put_char(t, '-');
    th_put_uint(t, (uint64_t)(-(v + 1)) + 1u);
  } else {
    th_put_uint(t, (uint64_t)v);
  }
}

/* NUL-terminates (within cap) and returns the whole text's length. */
static inline size_t th_text_end(th_text *t) {
  t->p[t->len < t->cap ? t->len : t->cap] = 0;
  return t->len;
}

#endif
