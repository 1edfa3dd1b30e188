/*
 * leveldb_space.c -- the configuration space of `check --engine leveldb`
 * (check.h, fl_space): every configuration the LevelDB engine can express
 * (leveldb_engine.c, and docs/leveldb.md), so that it never
 * refuses one -- if it does, that is a bug here, an error of the trial.
 *   - one policy: LevelDB's bloom at 0 to 30 bits per key (now and then
 *     far more), none, or (with --policy, half the time) one of the user's
 *     plugin policies, run inside LevelDB;
 *   - block sizes from below LevelDB's 1 KiB floor to 64 KiB, so that
 *     tables have one data block or hundreds, and filters one per 2 KiB
 *     window or empty windows between blocks; small memtables, so that
 *     flushes, L0 compactions (LevelDB's, at 4 tables) and seek
 *     compactions are many;
 *   - migrations at reopen: the bits changed (the same name: old tables
 *     keep their filters, still used), the policy swapped for a plugin's or
 *     for none, or back (another name: old tables' filters unused).
 * The ops are those LevelDB has: no range deletes, no set_options (LevelDB
 * changes no option while open), no filter contexts; seeks are total order
 * (LevelDB has no prefix mode).  No extractors: LevelDB filters whole keys.
 *
 * Invariant: draws only from the trial's stream (check.h, fl_space).
 */
#include "leveldb_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct choice {
    const char *user;             /* a --policy spec, or NULL */
    bool none;
    unsigned bits;
} choice;

static void draw_policy(const fl_run_config *c, fl_rng *r, choice *p) {
    memset(p, 0, sizeof *p);
    if (c->npolicies && fl_rng_chance(r, 50)) {
        p->user = c->policies[fl_rng_below(r, c->npolicies)];
        return;
    }
    unsigned roll = (unsigned)fl_rng_below(r, 100);
    p->none = roll < 6;
    p->bits = roll < 10 ? 0 : roll < 92 ? 1 + (unsigned)fl_rng_below(r, 30) : 31 + (unsigned)fl_rng_below(r, 200);
}

/* A migration: the bits redrawn (most often), or the policy redrawn. */
static void migrate(const fl_run_config *c, fl_rng *r, choice *p) {
    if (!p->user && !p->none && fl_rng_chance(r, 60)) {
        p->bits = 1 + (unsigned)fl_rng_below(r, 30);
        return;
    }
    draw_policy(c, r, p);
}

static void config_text(fl_rng *r, const choice *p, fl_text *t) {
    char spec[512];
    if (p->user) snprintf(spec, sizeof spec, "%s", p->user);
    else if (p->none) snprintf(spec, sizeof spec, "none");
    else snprintf(spec, sizeof spec, "bloom(bits=%u)", p->bits);
    fl_text_clear(t);
    fl_text_add(t, "policies=");
    fl_text_add_quoted(t, spec);
    unsigned block = fl_rng_chance(r, 10) ? 64u + (unsigned)fl_rng_below(r, 960) : 1024u << fl_rng_below(r, 7);
    unsigned memtable = 512u << fl_rng_below(r, 7);
    fl_text_add(t, " block_bytes=%u memtable_bytes=%u", block, memtable);
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
    o->ctx_rate = 0.0;                          /* LevelDB has no filter contexts */
    o->w_delrange = 0;                          /* nor range deletes */
    o->w_multiget = 0;                          /* nor a batched read */
    o->seek_total_order = true;                 /* nor a prefix mode */
    choice p;
    draw_policy(c, r, &p);
    config_text(r, &p, &t->open);
    o->open_options = t->open.buf;
    size_t nre = 1 + (size_t)fl_rng_below(r, FL_TRIAL_REOPENS);
    for (size_t i = 0; i < nre; i++) {
        migrate(c, r, &p);
        config_text(r, &p, &t->reopen[i]);
        t->reopens[i] = t->reopen[i].buf;
    }
    o->reopen_options = t->reopens;
    o->reopen_count = nre;
    t->nlengths = 0;
    o->prefix_lengths = t->lengths;
    o->prefix_length_count = 0;
    return FL_OK;
}

/* --policy: each must be one policy LevelDB can run (a plugin's, or a
 * whole-key bloom with whole bits); --extractor has no place in LevelDB. */
static int check_specs(const fl_run_config *c, char *err, size_t err_len) {
    char why[512];
    if (c->nextractors) {
        snprintf(err, err_len, "--extractor %s: LevelDB has no prefix extractor (its filters hold whole keys)",
                 c->extractors[0]);
        return FL_ERR_INVALID;
    }
    for (size_t i = 0; i < c->npolicies; i++) {
        fl_policy_list l;
        if (fl_policy_list_parse(c->reg, NULL, c->policies[i], &l, why, sizeof why) != FL_OK) {
            snprintf(err, err_len, "--policy %s: %s", c->policies[i], why);
            return FL_ERR_INVALID;
        }
        size_t n = l.count;
        fl_policy_list_free(NULL, &l);
        if (n != 1) {
            snprintf(err, err_len, "--policy %s: LevelDB runs one filter policy, this list has %zu",
                     c->policies[i], n);
            return FL_ERR_INVALID;
        }
    }
    return FL_OK;
}

const fl_space fl_space_leveldb = {
    .fp_trials = false,
    .refusals_are_findings = false,
    .crashes = false,
    .check_specs = check_specs,
    .configure = configure,
};
