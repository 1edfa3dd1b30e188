/*
 * nondeterministic.c -- a mutant for the checker's self-test
 * (tests/cli/mutants.sh): a prefix extractor whose answer depends on how
 * often it was called.
 *
 * Extractor "hot:N" (name "hotN"), used as bloom(prefix=hot:3,whole_key=0):
 * meant to be fixed:N -- N when the input has at least N bytes, none
 * otherwise -- with one refinement: "hot" inputs get the shorter prefix
 * N - 1, so that they share a filter entry.
 *
 * THE BUG: hotness was meant to be counted per input, but the count is one
 * static call counter shared by every input (and every extractor), and an
 * input is "hot" on every second call.  The same key gets N and N - 1 on
 * alternate calls: a build stores "abc", a later get of the same key probes
 * "ab" or the other way round.
 * MUST BE CAUGHT AS: P7 (same input, same answer).  Whether a read also
 * goes wrong (P1) depends on the order of calls, checker's calls included.
 */
#include "filter.h"

#include <stdio.h>
#include <stdlib.h>

#define HOT_MAX 64

typedef struct hot_extractor {
    fl_prefix_extractor base;         /* Base class. Must be first */
    size_t n;
    char   name[32];
} hot_extractor;

static unsigned long hot_calls;       /* BUG: one counter for all inputs */

static const char *hot_name(const fl_prefix_extractor *self) {
    return ((const hot_extractor *)self)->name;
}

static bool hot_prefix_len(const fl_prefix_extractor *self, const fl_target *t, size_t *len) {
    size_t n = ((const hot_extractor *)self)->n;
    bool hot = ++hot_calls % 2 == 0;
    if (t->bytes.len < n) return false;
    *len = hot && n > 1 ? n - 1 : n;
    return true;
}

static void hot_destroy(fl_prefix_extractor *self) { free(self); }

static const fl_prefix_extractor_ops hot_ops = { hot_name, hot_prefix_len, hot_destroy };

static int hot_factory(const fl_registry *reg, const char *args, fl_prefix_extractor **out,
                       char *err, size_t err_len) {
    (void)reg;
    char *end = NULL;
    unsigned long n = args ? strtoul(args, &end, 10) : 0;
    *out = NULL;
    if (!args || end == args || *end || n < 2 || n > HOT_MAX) {
        snprintf(err, err_len, "hot:N needs N in 2..%d; got '%s'", HOT_MAX, args ? args : "");
        return FL_ERR_INVALID;
    }
    hot_extractor *ex = calloc(1, sizeof *ex);
    if (!ex) return FL_ERR_NOMEM;
    ex->base.abi_version = FL_FILTER_ABI_VERSION;
    ex->base.ops = &hot_ops;
    ex->n = (size_t)n;
    snprintf(ex->name, sizeof ex->name, "hot%lu", n);
    *out = &ex->base;
    return FL_OK;
}

int fl_plugin_init(fl_registry *reg) {
    return fl_registry_add_extractor(reg, "hot", hot_factory);
}
