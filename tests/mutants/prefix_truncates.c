/*
 * prefix_truncates.c -- a mutant for the checker's self-test
 * (tests/cli/mutants.sh): a fixed-length prefix extractor that clamps short
 * scan prefixes instead of refusing them.
 *
 * Extractor "trunc:N" (name "truncN"), used as bloom(prefix=trunc:3):
 * POINT(k) is N when k has at least N bytes, none otherwise -- like fixed:N.
 *
 * THE BUG: PREFIX(p) for a prefix shorter than N answers Some(len(p))
 * ("use what we have") where it must answer none: PREFIX("ab") = 2, so
 * scan_prefix("ab") probes hash("ab"), which no SST ever stored (keys
 * "abc1" store hash("abc")), and every filtered SST is skipped.
 * MUST BE CAUGHT AS: P1 (a NO on an SST holding keys with the prefix) or P7
 * (PREFIX "ab" = 2 while its extension "abc1" has POINT 3).
 */
#include "filter.h"

#include <stdio.h>
#include <stdlib.h>

#define TRUNC_MAX 64

typedef struct trunc_extractor {
    fl_prefix_extractor base;         /* Base class. Must be first */
    size_t n;
    char   name[32];
} trunc_extractor;

static const char *trunc_name(const fl_prefix_extractor *self) {
    return ((const trunc_extractor *)self)->name;
}

static bool trunc_prefix_len(const fl_prefix_extractor *self, const fl_target *t, size_t *len) {
    size_t n = ((const trunc_extractor *)self)->n, have = t->bytes.len;
    if (t->kind == FL_TARGET_PREFIX && have > 0) {
        *len = have < n ? have : n;   /* BUG: have < n must answer none */
        return true;
    }
    if (have < n) return false;
    *len = n;
    return true;
}

static void trunc_destroy(fl_prefix_extractor *self) { free(self); }

static const fl_prefix_extractor_ops trunc_ops = { trunc_name, trunc_prefix_len, trunc_destroy };

static int trunc_factory(const fl_registry *reg, const char *args, fl_prefix_extractor **out,
                         char *err, size_t err_len) {
    (void)reg;
    char *end = NULL;
    unsigned long n = args ? strtoul(args, &end, 10) : 0;
    *out = NULL;
    if (!args || end == args || *end || n < 1 || n > TRUNC_MAX) {
        snprintf(err, err_len, "trunc:N needs N in 1..%d; got '%s'", TRUNC_MAX, args ? args : "");
        return FL_ERR_INVALID;
    }
    trunc_extractor *ex = calloc(1, sizeof *ex);
    if (!ex) return FL_ERR_NOMEM;
    ex->base.abi_version = FL_FILTER_ABI_VERSION;
    ex->base.ops = &trunc_ops;
    ex->n = (size_t)n;
    snprintf(ex->name, sizeof ex->name, "trunc%lu", n);
    *out = &ex->base;
    return FL_OK;
}

int fl_plugin_init(fl_registry *reg) {
    return fl_registry_add_extractor(reg, "trunc", trunc_factory);
}
