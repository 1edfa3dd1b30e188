/*
 * pebble_space.c -- the configuration space of `check --engine pebble`
 * (check.h, fl_space): what Pebble's API takes through its adapter
 * (docs/pebble.md) --
 *   - one policy per open (Pebble writes every table with one policy): a
 *     bloom of any whole number of bits per key, 0 to 24, now and then far
 *     more; with --policy (plugins, run inside Pebble by the adapter), half
 *     the time one of the user's policies, under the whole-key Split; or no
 *     policy at all;
 *   - a Split of the trial's own, kept across its reopens: the whole key
 *     (bloom over whole keys, or the user's policy), capped:N, or with
 *     --extractor one of the user's extractors (a bloom with whole_key=0:
 *     Pebble's filters hold key[:Split(key)] and nothing else).  The
 *     adapter refuses a put, del or get of a key the extractor gives no
 *     POINT prefix, or a prefix with no prefix key above it (capped:N's N
 *     0xff bytes: Comparer.ImmediateSuccessor has no answer for it): the
 *     generator draws no such op (key_ok, asking the extractor itself).
 *     fixed:N and delim:C have keys outside their domain, which Split
 *     cannot express, and lastdelim breaks Split's ordering rule.  A Split
 *     changed across a reopen under the same comparer name is a hazard
 *     Pebble neither supports nor detects (docs/pebble.md, "Hazards"), not a bug to hunt: it
 *     is never drawn here;
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
#include <string.h>

/* The trial's Split: the whole key (capped 0, no user extractor),
 * capped:capped, or a user's extractor. */
typedef struct split { unsigned capped; const char *user; } split;

static split draw_split(const fl_run_config *c, fl_rng *r) {
    split s = { 0, NULL };
    if (fl_rng_chance(r, 50)) return s;
    if (c->nextractors && fl_rng_chance(r, 50)) s.user = c->extractors[fl_rng_below(r, c->nextractors)];
    else s.capped = 1 + (unsigned)fl_rng_below(r, 8);
    return s;
}

/* The Split the adapter gives Pebble for x: its POINT prefix length, the
 * whole key without one. */
static size_t split_len(const fl_prefix_extractor *x, const uint8_t *key, size_t len, bool *has) {
    fl_target t = { FL_TARGET_POINT, { key, len } };
    size_t n = len;
    *has = fl_call_prefix_len(NULL, x, &t, &n) && n <= len;
    return *has ? n : len;
}

/* gen's key_ok under an extractor as the Split (capped:N, or a user's): the key has a POINT
 * prefix P, and a prefix key lies above P (the adapter's needPrefix and
 * needSuccessor, adapters/pebble/cmd/filterlab-pebble/): P+0x00, or P with
 * its last byte below 0xff incremented and the rest dropped. */
static bool key_ok(void *arg, const uint8_t *key, size_t len) {
    const fl_prefix_extractor *x = arg;
    bool has;
    size_t p = split_len(x, key, len, &has);
    if (!has || p >= 4096) return has;
    uint8_t next[4097];
    memcpy(next, key, p);
    next[p] = 0;
    if (split_len(x, next, p + 1, &has) == p + 1) return true;
    for (size_t i = p; i-- > 0;) {
        if (next[i] != 0xff) {
            next[i]++;
            return split_len(x, next, i + 1, &has) == i + 1;
        }
    }
    return false;
}

static void release(fl_space_trial *t) {
    if (t->state) fl_call_extractor_destroy(NULL, t->state);
    t->state = NULL;
}

static void config_text(const fl_run_config *c, fl_rng *r, split sp, fl_text *t) {
    fl_text_clear(t);
    fl_text_add(t, "policies=");
    if (fl_rng_chance(r, 8)) {
        fl_text_add(t, "none");
    } else if (!sp.capped && !sp.user && c->npolicies && fl_rng_chance(r, 50)) {
        fl_text_add_quoted(t, c->policies[fl_rng_below(r, c->npolicies)]);
    } else {
        unsigned roll = (unsigned)fl_rng_below(r, 100);
        unsigned bits = roll < 5 ? 0 : roll < 90 ? 1 + (unsigned)fl_rng_below(r, 24) : 25 + (unsigned)fl_rng_below(r, 100);
        char spec[600];
        if (sp.user) snprintf(spec, sizeof spec, "bloom(bits=%u,whole_key=0,prefix=%s)", bits, sp.user);
        else if (sp.capped) snprintf(spec, sizeof spec, "bloom(bits=%u,whole_key=0,prefix=capped:%u)", bits, sp.capped);
        else snprintf(spec, sizeof spec, "bloom(bits=%u)", bits);
        fl_text_add_quoted(t, spec);
    }
    unsigned block = 256u << fl_rng_below(r, 9);
    unsigned memtable = 512u << fl_rng_below(r, 8);
    unsigned sst = 1024u << fl_rng_below(r, 7);
    fl_text_add(t, " block_bytes=%u memtable_bytes=%u sst_bytes=%u", block, memtable, sst);
}

static int configure(const fl_run_config *c, fl_rng *r, fl_space_trial *t, char *err, size_t err_len) {
    fl_gen_options *o = t->gen;
    o->ops = 50 + fl_rng_below(r, c->max_ops > 50 ? c->max_ops - 50 : 1);
    o->keys = 20 + fl_rng_below(r, 2000);
    o->flush_every = 5 + fl_rng_below(r, 150);
    o->compact_every = 20 + fl_rng_below(r, 400);
    o->reopen_every = fl_rng_chance(r, 70) ? 40 + fl_rng_below(r, o->ops) : 0;
    o->ctx_rate = 0;                            /* Pebble has no filter context */
    split sp = draw_split(c, r);
    if (sp.user || sp.capped) {
        char capped[32];
        snprintf(capped, sizeof capped, "capped:%u", sp.capped);
        fl_prefix_extractor *x = NULL;
        int rc = fl_registry_make_extractor(c->reg, sp.user ? sp.user : capped, &x, err, err_len);
        if (rc != FL_OK) return rc;
        t->state = x;
        o->key_ok = key_ok;
        o->key_ok_arg = x;
    }
    config_text(c, r, sp, &t->open);
    o->open_options = t->open.buf;
    size_t nre = 1 + (size_t)fl_rng_below(r, FL_TRIAL_REOPENS);
    for (size_t i = 0; i < nre; i++) {
        config_text(c, r, sp, &t->reopen[i]);
        t->reopens[i] = t->reopen[i].buf;
    }
    o->reopen_options = t->reopens;
    o->reopen_count = nre;
    fl_space_trial_lengths(t, nre);
    return FL_OK;
}

const fl_space fl_space_pebble = {
    .fp_trials = false,
    .refusals_are_findings = false,
    .crashes = false,
    .check_specs = fl_space_make_specs,
    .configure = configure,
    .release = release,
};
