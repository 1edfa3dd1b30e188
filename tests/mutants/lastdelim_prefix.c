/*
 * lastdelim_prefix.c -- a mutant for the checker's self-test
 * (tests/cli/mutants.sh): a last-delimiter extractor that answers scan
 * prefixes the way it answers keys.
 *
 * Extractor "lastsep:C" (name "lastsepC"), C one byte, used as
 * bloom(prefix=lastsep:/): POINT(k) is the index of the last C in k, plus 1
 * ("a/b/1" -> "a/b/"); none when k has no C.
 *
 * THE BUG: PREFIX(p) is computed the same way, but a longer key can hold a
 * later C, so no PREFIX answer is safe and it must always be none (SPEC 4,
 * lastdelim).  PREFIX("a/") = 2 probes hash("a/"), while the keys under it
 * stored hash("a/b/") and hash("a/c/"): scan_prefix("a/") skips the SST.
 * MUST BE CAUGHT AS: P1 (a NO on an SST holding keys with the prefix) or P7
 * (PREFIX "a/" = 2 while its extension "a/b/1" has POINT 4).
 */
#include "filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lastsep_extractor {
    fl_prefix_extractor base;         /* Base class. Must be first */
    uint8_t sep;
    char    name[16];
} lastsep_extractor;

static const char *lastsep_name(const fl_prefix_extractor *self) {
    return ((const lastsep_extractor *)self)->name;
}

/* BUG: t->kind is never looked at; PREFIX targets must answer none. */
static bool lastsep_prefix_len(const fl_prefix_extractor *self, const fl_target *t, size_t *len) {
    uint8_t sep = ((const lastsep_extractor *)self)->sep;
    for (size_t i = t->bytes.len; i > 0; i--) {
        if (t->bytes.data[i - 1] == sep) {
            *len = i;
            return true;
        }
    }
    return false;
}

static void lastsep_destroy(fl_prefix_extractor *self) { free(self); }

static const fl_prefix_extractor_ops lastsep_ops = {
    lastsep_name, lastsep_prefix_len, lastsep_destroy,
};

static int lastsep_factory(const fl_registry *reg, const char *args, fl_prefix_extractor **out,
                           char *err, size_t err_len) {
    (void)reg;
    *out = NULL;
    if (!args || strlen(args) != 1) {
        snprintf(err, err_len, "lastsep:C needs one byte C; got '%s'", args ? args : "");
        return FL_ERR_INVALID;
    }
    lastsep_extractor *ex = calloc(1, sizeof *ex);
    if (!ex) return FL_ERR_NOMEM;
    ex->base.abi_version = FL_FILTER_ABI_VERSION;
    ex->base.ops = &lastsep_ops;
    ex->sep = (uint8_t)args[0];
    snprintf(ex->name, sizeof ex->name, "lastsep%c", args[0]);
    *out = &ex->base;
    return FL_OK;
}

int fl_plugin_init(fl_registry *reg) {
    return fl_registry_add_extractor(reg, "lastsep", lastsep_factory);
}
