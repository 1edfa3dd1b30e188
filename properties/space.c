/*
 * space.c -- which configuration space a trial of each engine is drawn
 * from (space_internal.h), and the option-text builder the spaces share.
 * The one table that maps an engine to its space: the trial generator
 * (runner.c) asks here and nowhere else.
 */
#include "space_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const ck_space *const spaces[] = { &ck_space_filterlab, &ck_space_rocksdb };

const ck_space *ck_space_of(const fl_engine_ops *engine) {
    for (size_t i = 0; engine && i < sizeof spaces / sizeof *spaces; i++)
        if (strcmp(spaces[i]->engine, engine->name) == 0) return spaces[i];
    return &ck_space_filterlab;
}

/* ---- Option text ------------------------------------------------------------- */

void ck_text_clear(ck_text *t) {
    t->len = 0;
    t->buf[0] = 0;
}

void ck_text_add(ck_text *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->buf + t->len, sizeof t->buf - t->len, fmt, ap);
    va_end(ap);
    if (n > 0) t->len = t->len + (size_t)n < sizeof t->buf ? t->len + (size_t)n : sizeof t->buf - 1;
}

void ck_text_add_quoted(ck_text *t, const char *s) {
    ck_text_add(t, "\"");
    for (; *s; s++) ck_text_add(t, *s == '\\' || *s == '"' ? "\\%c" : "%c", *s);
    ck_text_add(t, "\"");
}
