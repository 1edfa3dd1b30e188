/*
 * slatedb_space.c -- the configuration space of `check --engine slatedb`
 * (check.h, fl_space): every value SlateDB's API accepts through its
 * adapter, not only sensible ones --
 *   - 0 to 3 bloom policies at once, in every order (SlateDB's
 *     with_filter_policies), each with its bits per key (SlateDB takes a
 *     whole number: 0 to 24, now and then far more), whole-key filtering on
 *     or off, and any built-in extractor (fixed, capped, delim, lastdelim);
 *   - a compactor list that may differ from the writer's;
 *   - migrations at reopen: a policy added, removed, reordered or swapped
 *     (SlateDB keeps no policies in its manifest: an SST whose filter names
 *     match no configured policy is read unfiltered);
 *   - min_filter_keys, every block size SlateDB has (1 to 64 KiB), small
 *     memtables and SSTs so that flushes and compactions are many;
 *   - filter contexts on reads, and flushes and compactions at every point;
 *   - with --policy and --extractor (plugins, run inside SlateDB by the
 *     adapter), the user's policies in the lists and the user's
 *     extractors in the blooms, as filterlab's own space draws them.
 * The ops are those SlateDB has: no range deletes, no write of the empty
 * key (its WriteBatch asserts one never comes).  Two policies with one
 * name are never drawn (they would be one filter twice); a prefix-mode seek
 * under lastdelim, whose same-prefix keys are not contiguous, is not
 * either (seeks are then in total order).
 *
 * Invariant: draws only from the trial's stream (check.h, fl_space).
 */
#include "slatedb_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_POLICIES 3

static const char *const extractors[] = {
    "fixed:1", "fixed:2", "fixed:3", "fixed:4", "fixed:5", "fixed:8", "capped:2", "capped:3", "capped:5",
    "delim:\\x3a", "delim:-", "lastdelim:\\x3a",
};
#define COUNT(a) (sizeof(a) / sizeof *(a))

typedef struct bloom {
    const char *user;             /* a --policy spec (the rest unused), or NULL */
    unsigned bits;
    bool whole_key;
    const char *extractor;        /* NULL: none */
    bool user_extractor;          /* extractor is an --extractor spec */
} bloom;

typedef struct policy_list { bloom p[MAX_POLICIES]; size_t n; } policy_list;

/* SlateDB's name of a bloom (docs/slatedb.md): what makes two
 * policies one. */
static void name_of(const bloom *b, char *out, size_t cap) {
    snprintf(out, cap, "_bf%s%s%s", b->extractor ? ":p=" : "", b->extractor ? b->extractor : "",
             b->whole_key ? "" : ":wh=0");
}

/* (a user's policy by its spec: two specs of one name are the adapter's
 * refusal, which is no finding) */
static bool name_taken(const policy_list *l, const bloom *b) {
    char a[64], c[64];
    name_of(b, a, sizeof a);
    for (size_t i = 0; i < l->n; i++) {
        if (b->user || l->p[i].user) {
            if (b->user && l->p[i].user && strcmp(b->user, l->p[i].user) == 0) return true;
            continue;
        }
        name_of(&l->p[i], c, sizeof c);
        if (strcmp(a, c) == 0) return true;
    }
    return false;
}

/* A bloom, or (with --policy, half the time) one of the user's policies. */
static void draw_bloom(const fl_run_config *c, fl_rng *r, bloom *b) {
    memset(b, 0, sizeof *b);
    if (c->npolicies && fl_rng_chance(r, 50)) {
        b->user = c->policies[fl_rng_below(r, c->npolicies)];
        return;
    }
    unsigned roll = (unsigned)fl_rng_below(r, 100);
    b->bits = roll < 5 ? 0 : roll < 90 ? 1 + (unsigned)fl_rng_below(r, 24) : 25 + (unsigned)fl_rng_below(r, 100);
    if (c->nextractors && fl_rng_chance(r, 80)) {
        b->extractor = c->extractors[fl_rng_below(r, c->nextractors)];
        b->user_extractor = true;
    } else {
        b->extractor = fl_rng_chance(r, 60) ? extractors[fl_rng_below(r, COUNT(extractors))] : NULL;
    }
    b->whole_key = !b->extractor || fl_rng_chance(r, 60);
}

static void add_drawn(const fl_run_config *c, fl_rng *r, policy_list *l) {
    for (int tries = 0; tries < 8 && l->n < MAX_POLICIES; tries++) {
        bloom b;
        draw_bloom(c, r, &b);
        if (name_taken(l, &b)) continue;
        l->p[l->n++] = b;
        return;
    }
}

static void draw_list(const fl_run_config *c, fl_rng *r, policy_list *l) {
    l->n = 0;
    size_t want = fl_rng_chance(r, 8) && !c->npolicies ? 0 : 1 + (size_t)fl_rng_below(r, MAX_POLICIES);
    for (size_t i = 0; i < want; i++) add_drawn(c, r, l);
}

/* A migration: a policy added, removed, two swapped, or one redrawn. */
static void migrate(const fl_run_config *c, fl_rng *r, policy_list *l) {
    switch (fl_rng_below(r, 4)) {
    case 0:
        add_drawn(c, r, l);
        break;
    case 1:
        if (l->n) {
            size_t i = (size_t)fl_rng_below(r, l->n);
            memmove(&l->p[i], &l->p[i + 1], (l->n - i - 1) * sizeof *l->p);
            l->n--;
        }
        break;
    case 2:
        if (l->n > 1) {
            bloom t = l->p[0];
            l->p[0] = l->p[l->n - 1];
            l->p[l->n - 1] = t;
        }
        break;
    default:
        if (l->n) {
            size_t i = (size_t)fl_rng_below(r, l->n);
            policy_list rest = *l;
            memmove(&rest.p[i], &rest.p[i + 1], (rest.n - i - 1) * sizeof *rest.p);
            rest.n--;
            bloom b;
            draw_bloom(c, r, &b);
            if (!name_taken(&rest, &b)) l->p[i] = b;
        }
        break;
    }
}

static void list_text(const policy_list *l, fl_text *t) {
    char spec[512] = "";
    size_t used = 0;
    if (!l->n) snprintf(spec, sizeof spec, "none");
    for (size_t i = 0; i < l->n && used < sizeof spec; i++) {
        const bloom *b = &l->p[i];
        int n = b->user ? snprintf(spec + used, sizeof spec - used, "%s%s", i ? ";" : "", b->user)
                        : snprintf(spec + used, sizeof spec - used, "%sbloom(bits=%u%s%s%s)", i ? ";" : "",
                                   b->bits, b->whole_key ? "" : ",whole_key=0", b->extractor ? ",prefix=" : "",
                                   b->extractor ? b->extractor : "");
        if (n > 0) used += (size_t)n;
    }
    fl_text_add_quoted(t, spec);
}

/* Whether a prefix-mode seek may not be contiguous: lastdelim, and any
 * user's extractor or policy (not known). */
static bool has_lastdelim(const policy_list *l) {
    for (size_t i = 0; i < l->n; i++)
        if (l->p[i].user || l->p[i].user_extractor ||
            (l->p[i].extractor && strncmp(l->p[i].extractor, "lastdelim", 9) == 0))
            return true;
    return false;
}

static void config_text(const fl_run_config *c, fl_rng *r, const policy_list *l, fl_text *t) {
    fl_text_clear(t);
    fl_text_add(t, "policies=");
    list_text(l, t);
    if (fl_rng_chance(r, 20)) {
        policy_list cl = *l;
        migrate(c, r, &cl);
        fl_text_add(t, " compactor=");
        list_text(&cl, t);
    }
    unsigned min_keys = fl_rng_chance(r, 70) ? 0 : (unsigned)fl_rng_below(r, 20);
    unsigned block = 1024u << fl_rng_below(r, 7);
    unsigned memtable = 512u << fl_rng_below(r, 8);
    unsigned sst = 1024u << fl_rng_below(r, 7);
    fl_text_add(t, " min_filter_keys=%u block_bytes=%u memtable_bytes=%u sst_bytes=%u", min_keys, block, memtable,
                sst);
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
    o->ctx_rate = fl_rng_chance(r, 40) ? 0.1 : 0.0;
    o->w_delrange = 0;                          /* SlateDB has no range delete */
    o->no_empty_writes = true;                  /* nor a write of the empty key */
    o->w_multiget = fl_rng_chance(r, 50) ? 6 : 0;
    policy_list l, m;
    draw_list(c, r, &l);
    config_text(c, r, &l, &t->open);
    o->open_options = t->open.buf;
    bool lastdelim = has_lastdelim(&l);
    m = l;
    size_t nre = 1 + (size_t)fl_rng_below(r, FL_TRIAL_REOPENS);
    for (size_t i = 0; i < nre; i++) {
        migrate(c, r, &m);
        lastdelim |= has_lastdelim(&m);
        config_text(c, r, &m, &t->reopen[i]);
        t->reopens[i] = t->reopen[i].buf;
    }
    o->reopen_options = t->reopens;
    o->reopen_count = nre;
    o->seek_total_order = lastdelim;
    fl_space_trial_lengths(t, nre);
    return FL_OK;
}

const fl_space fl_space_slatedb = {
    .fp_trials = false,
    .refusals_are_findings = false,
    .crashes = false,
    .check_specs = fl_space_make_specs,
    .configure = configure,
};
