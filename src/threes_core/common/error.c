/* error.c - see error.h. */
#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>

void th_set_error(th_error *e, int code, const char *fmt, ...) {
  if (!e) return;
  e->code = code;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->msg, sizeof e->msg, fmt, ap);
  va_end(ap);
}
