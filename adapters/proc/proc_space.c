/*
 * proc_space.c -- the configuration space of `check --engine cmd:COMMAND`
 * (check.h, fl_space): what any adapter of the engine protocol can be
 * asked.  An adapter says what it supports only when it starts, after the
 * trials are drawn, so this space keeps to what every engine with filters
 * has: one built-in bloom (whole keys, or with a fixed-length prefix
 * extractor), puts, deletes, gets (present and absent), scans and prefix
 * scans, flushes, compactions and reopens.  A named adapter (slatedb) has a
 * space of its own, drawn from all its engine accepts.
 */
#include "proc_internal.h"

#include <stdio.h>
#include <stdlib.h>

static int configure(const fl_run_config *c, fl_rng *r, fl_space_trial *t, char *err, size_t err_len) {
    (void)err;
    (void)err_len;
    fl_gen_options *o = t->gen;
    o->ops = 50 + fl_rng_below(r, c->max_ops > 50 ? c->max_ops - 50 : 1);
    o->keys = 20 + fl_rng_below(r, 2000);
    o->flush_every = 10 + fl_rng_below(r, 200);
    o->compact_every = 50 + fl_rng_below(r, 600);
    o->reopen_every = fl_rng_chance(r, 50) ? 40 + fl_rng_below(r, o->ops) : 0;
    o->w_delrange = 0;
    o->w_seek = 0;
    o->w_multiget = 0;
    o->ctx_rate = 0;
    unsigned bits = 1 + (unsigned)fl_rng_below(r, 20);
    unsigned prefix = fl_rng_chance(r, 50) ? 1 + (unsigned)fl_rng_below(r, 4) : 0;
    fl_text_clear(&t->open);
    fl_text_add(&t->open, "policies=");
    char spec[64];
    if (prefix) snprintf(spec, sizeof spec, "bloom(bits=%u,prefix=fixed:%u)", bits, prefix);
    else snprintf(spec, sizeof spec, "bloom(bits=%u)", bits);
    fl_text_add_quoted(&t->open, spec);
    fl_text_add(&t->open, " memtable_bytes=%u", 1024u << fl_rng_below(r, 6));
    o->open_options = t->open.buf;
    t->nlengths = 0;
    if (prefix) t->lengths[t->nlengths++] = prefix;
    o->prefix_lengths = t->lengths;
    o->prefix_length_count = t->nlengths;
    return FL_OK;
}

/* --policy and --extractor need an adapter that loads plugins: a named one. */
static int check_specs(const fl_run_config *c, char *err, size_t err_len) {
    if (!c->npolicies && !c->nextractors) return FL_OK;
    snprintf(err, err_len, "--policy and --extractor are not drawn for a cmd: engine (its adapter "
                           "may not take plugins): replay a workload that names them instead");
    return FL_ERR_INVALID;
}

const fl_space fl_space_proc = {
    .fp_trials = false,
    .refusals_are_findings = false,
    .crashes = false,
    .check_specs = check_specs,
    .configure = configure,
};
