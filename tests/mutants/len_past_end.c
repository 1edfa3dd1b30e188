/*
 * len_past_end.c -- a mutant for the checker's self-test
 * (tests/cli/mutants.sh): a first-delimiter extractor that can answer a
 * length past the end of its input.
 *
 * Extractor "upto:C" (name "uptoC"), C one byte, used as
 * bloom(prefix=upto:/): the prefix is everything up to and including the
 * first C ("user/17" -> "user/"), for keys and scan prefixes alike (a
 * first-delimiter prefix is safe for every extension).
 *
 * THE BUG: the "no C" case is missing: when the scan runs off the end, the
 * loop index is len and the answer is Some(len + 1) ("plain" -> 6 of 5
 * bytes) instead of none.  A caller that trusted it would hash a byte past
 * the key; filterlab's engine refuses it and reads the SST unfiltered.
 * MUST BE CAUGHT AS: P7 (n <= len).
 */
#include "filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct upto_extractor {
    fl_prefix_extractor base;         /* Base class. Must be first */
    uint8_t sep;
    char    name[16];
} upto_extractor;

static const char *upto_name(const fl_prefix_extractor *self) {
    return ((const upto_extractor *)self)->name;
}

static bool upto_prefix_len(const fl_prefix_extractor *self, const fl_target *t, size_t *len) {
    uint8_t sep = ((const upto_extractor *)self)->sep;
    size_t i = 0;
    while (i < t->bytes.len && t->bytes.data[i] != sep) i++;
    *len = i + 1;                     /* BUG: i == len (no C) must answer none */
    return true;
}

static void upto_destroy(fl_prefix_extractor *self) { free(self); }

static const fl_prefix_extractor_ops upto_ops = { upto_name, upto_prefix_len, upto_destroy };

static int upto_factory(const fl_registry *reg, const char *args, fl_prefix_extractor **out,
                        char *err, size_t err_len) {
    (void)reg;
    *out = NULL;
    if (!args || strlen(args) != 1) {
        snprintf(err, err_len, "upto:C needs one byte C; got '%s'", args ? args : "");
        return FL_ERR_INVALID;
    }
    upto_extractor *ex = calloc(1, sizeof *ex);
    if (!ex) return FL_ERR_NOMEM;
    ex->base.abi_version = FL_FILTER_ABI_VERSION;
    ex->base.ops = &upto_ops;
    ex->sep = (uint8_t)args[0];
    snprintf(ex->name, sizeof ex->name, "upto%c", args[0]);
    *out = &ex->base;
    return FL_OK;
}

int fl_plugin_init(fl_registry *reg) {
    return fl_registry_add_extractor(reg, "upto", upto_factory);
}
