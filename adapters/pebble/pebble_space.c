/*
 * pebble_space.c -- the configuration space of `check --engine pebble`
 * (check.h, fl_space): what Pebble's API takes through its adapter
 * (README, "Testing Pebble") --
 *   - one bloom per open (Pebble writes every table with one policy): any
 *     whole number of bits per key, 0 to 24, now and then far more; or no
 *     policy at all;
 *   - a Split of the trial's own, kept across its reopens: the whole key
 *     (bloom over whole keys), or capped:N (whole_key=0: Pebble's filters
 *     hold key[:Split(key)] and nothing else).  fixed:N and delim:C have
 *     keys outside their domain, which Split cannot express (the adapter
 *     refuses such a key), and lastdelim breaks Split's ordering rule.
 *     A Split changed across a reopen under the same comparer name is a
 *     hazard Pebble neither supports nor detects (README), not a bug to
 *     hunt: it is never drawn here.  Under capped:N no key written starts
 *     with N 0xff bytes: no prefix key lies above such a prefix, so
 *     Comparer.ImmediateSuccessor cannot be given (the adapter refuses the
 *     write), and the generator writes 0xfe for its first byte instead;
 *   - migrations at reopen: the bits changed, the policy dropped or
 *     brought back (a table keeps the filter it was written with, read
 *     when its policy's name is configured);
 *   - small memtables, tables and blocks, so that flushes, tables and
 *     blocks are many; flushes and compactions at every point;
 *   - every op the adapter has: puts, deletes, range deletes, gets, scans,
 *     prefix scans and seeks both ways.  No filter contexts (Pebble has
 *     none).
 *
 * Invariant: draws only from the trial's stream (check.h, fl_space).
 */
#include "pebble_internal.h"

#include <stdio.h>

/* The trial's Split: 0 the whole key, else capped:split. */
static unsigned draw_split(fl_rng *r) {
    return fl_rng_chance(r, 50) ? 0 : 1 + (unsigned)fl_rng_below(r, 8);
}

static void config_text(fl_rng *r, unsigned split, fl_text *t) {
    fl_text_clear(t);
    fl_text_add(t, "policies=");
    if (fl_rng_chance(r, 8)) {
        fl_text_add(t, "none");
    } else {
        unsigned roll = (unsigned)fl_rng_below(r, 100);
        unsigned bits = roll < 5 ? 0 : roll < 90 ? 1 + (unsigned)fl_rng_below(r, 24) : 25 + (unsigned)fl_rng_below(r, 100);
        char spec[64];
        if (split) snprintf(spec, sizeof spec, "bloom(bits=%u,whole_key=0,prefix=capped:%u)", bits, split);
        else snprintf(spec, sizeof spec, "bloom(bits=%u)", bits);
        fl_text_add_quoted(t, spec);
    }
    unsigned block = 256u << fl_rng_below(r, 9);
    unsigned memtable = 512u << fl_rng_below(r, 8);
    unsigned sst = 1024u << fl_rng_below(r, 7);
    fl_text_add(t, " block_bytes=%u memtable_bytes=%u sst_bytes=%u", block, memtable, sst);
}

static int configure(const fl_run_config *c, fl_rng *r, fl_space_trial *t, char *err, size_t err_len) {
    (void)err;
    (void)err_len;
    fl_gen_options *o = t->gen;
    o->ops = 50 + fl_rng_below(r, c->max_ops > 50 ? c->max_ops - 50 : 1);
    o->keys = 20 + fl_rng_below(r, 2000);
    o->flush_every = 5 + fl_rng_below(r, 150);
    o->compact_every = 20 + fl_rng_below(r, 400);
    o->reopen_every = fl_rng_chance(r, 70) ? 40 + fl_rng_below(r, o->ops) : 0;
    o->ctx_rate = 0;                            /* Pebble has no filter context */
    unsigned split = draw_split(r);
    o->lead_ff_limit = split;                   /* (pebble_space.c's header) */
    config_text(r, split, &t->open);
    o->open_options = t->open.buf;
    size_t nre = 1 + (size_t)fl_rng_below(r, FL_TRIAL_REOPENS);
    for (size_t i = 0; i < nre; i++) {
        config_text(r, split, &t->reopen[i]);
        t->reopens[i] = t->reopen[i].buf;
    }
    o->reopen_options = t->reopens;
    o->reopen_count = nre;
    t->nlengths = 0;
    fl_prefix_lengths(t->open.buf, t->lengths, &t->nlengths, FL_TRIAL_LENGTHS);
    for (size_t i = 0; i < nre; i++) fl_prefix_lengths(t->reopen[i].buf, t->lengths, &t->nlengths, FL_TRIAL_LENGTHS);
    o->prefix_lengths = t->lengths;
    o->prefix_length_count = t->nlengths;
    return FL_OK;
}

/* The adapter runs no plugin yet. */
static int check_specs(const fl_run_config *c, char *err, size_t err_len) {
    if (!c->npolicies && !c->nextractors) return FL_OK;
    snprintf(err, err_len, "--policy and --extractor: the Pebble adapter does not run plugins yet "
                           "(README, \"Testing Pebble\")");
    return FL_ERR_INVALID;
}

const fl_space fl_space_pebble = {
    .fp_trials = false,
    .refusals_are_findings = false,
    .crashes = false,
    .check_specs = check_specs,
    .configure = configure,
};
