/*
 * space.c -- the option-text builder the configuration spaces share
 * (check.h, "Configuration spaces"; each engine's space is in its adapter).
 */
#include "check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- Option text ------------------------------------------------------------- */

void fl_text_clear(fl_text *t) {
    t->len = 0;
    t->buf[0] = 0;
}

void fl_text_add(fl_text *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->buf + t->len, sizeof t->buf - t->len, fmt, ap);
    va_end(ap);
    if (n > 0) t->len = t->len + (size_t)n < sizeof t->buf ? t->len + (size_t)n : sizeof t->buf - 1;
}

void fl_text_add_quoted(fl_text *t, const char *s) {
    fl_text_add(t, "\"");
    for (; *s; s++) fl_text_add(t, *s == '\\' || *s == '"' ? "\\%c" : "%c", *s);
    fl_text_add(t, "\"");
}
