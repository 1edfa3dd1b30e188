/*
 * filterlab_space.c -- the configuration space of filterlab's own engine
 * (check.h, fl_space): what `filterlab check` draws a trial's configuration
 * from when it tests filterlab's engine.
 *
 * A trial's configuration: 0-3 policies (built-in blooms over every
 * extractor, both whole-key modes, bits from 0 through fractional values to
 * 24 and the boundaries of the bits-per-key -> probes table; or the user's
 * --policy specs, alone or beside built-ins; or blooms around the user's
 * --extractor specs), min_filter_keys, legacy_filters, a compactor that may
 * differ, small sizes so flushes and compactions happen, and migrations at
 * reopen: a policy added, removed, reordered, swapped.  Every eighth trial
 * is an FP trial: one whole-key bloom, many absent gets and prefixes over
 * several overlapping L0 SSTs, so P9 has enough eligible probes.
 *
 * The trials this space makes are, draw for draw, those runner.c made
 * before the spaces existed: the same seed gives the same trials.
 */
#include "filterlab_internal.h"

#include <stdio.h>

#include <stdlib.h>
#include <string.h>

/* ---- Configurations ----------------------------------------------------------- */

typedef struct policy_list { const char *specs[4]; char own[4][160]; size_t n; } policy_list;

static const char *const builtin_extractors[] = {
    "fixed:1", "fixed:2", "fixed:3", "fixed:4", "fixed:5", "capped:2", "capped:3", "capped:4",
    "delim::", "delim:/", "delim:\\x00", "lastdelim::", "lastdelim:/",
};
static const char *const bits_choices[] = {
    "0", "0.5", "1", "2", "2.5", "4", "6", "8", "10", "10", "12", "13.7", "16", "20", "24",
};

/* The millibits at which the bloom's probe count k changes (SPEC 5): the
 * table's bounds, then those of min(24, mb / 2000 - 1) every 2000 up to
 * 52000, where the cap starts to bite. */
#define K_TABLE_BOUNDS 12
#define K_FORMULA_BOUNDS 14
static const unsigned k_table_bounds[K_TABLE_BOUNDS] = {
    2080, 3580, 5100, 6640, 8300, 10070, 11720, 14000, 16050, 18300, 22000, 25500,
};

/* Bits per key: half the time one of bits_choices, half the time a k
 * boundary exactly (half of those) or one millibit below or above it, as
 * the shortest exact decimal ("14", "13.999", "2.08"), so that a wrong k at
 * any boundary changes the stored filter (P5). */
static void random_bits(fl_rng *r, char *out, size_t len) {
    if (fl_rng_chance(r, 50)) {
        snprintf(out, len, "%s", bits_choices[fl_rng_below(r, sizeof bits_choices / sizeof *bits_choices)]);
        return;
    }
    uint64_t i = fl_rng_below(r, K_TABLE_BOUNDS + K_FORMULA_BOUNDS);
    unsigned mb = i < K_TABLE_BOUNDS ? k_table_bounds[i] : 26000 + 2000 * (unsigned)(i - K_TABLE_BOUNDS);
    switch (fl_rng_below(r, 4)) {
    case 0: mb--; break;
    case 1: mb++; break;
    default: break;
    }
    unsigned frac = mb % 1000, digits = 3;
    while (frac && frac % 10 == 0) { frac /= 10; digits--; }
    if (frac) snprintf(out, len, "%u.%0*u", mb / 1000, (int)digits, frac);
    else snprintf(out, len, "%u", mb / 1000);
}

/* A built-in bloom; its (extractor, whole_key) must differ from the list's
 * others, since those make up the name. */
static bool random_bloom(const fl_run_config *c, fl_rng *r, policy_list *l, char *out, size_t len) {
    for (int attempt = 0; attempt < 8; attempt++) {
        char bits[16];
        random_bits(r, bits, sizeof bits);
        const char *ex = NULL;
        if (c->nextractors && fl_rng_chance(r, 80)) ex = c->extractors[fl_rng_below(r, c->nextractors)];
        else if (fl_rng_chance(r, 70))
            ex = builtin_extractors[fl_rng_below(r, sizeof builtin_extractors / sizeof *builtin_extractors)];
        bool wk = !ex || fl_rng_chance(r, 60);
        if (ex) snprintf(out, len, "bloom(bits=%s,prefix=%s%s)", bits, ex, wk ? "" : ",whole_key=0");
        else snprintf(out, len, "bloom(bits=%s)", bits);
        bool clash = false;
        for (size_t i = 0; i < l->n && !clash; i++) {
            const char *o = l->specs[i];
            const char *p1 = strstr(o, "prefix="), *p2 = ex ? strstr(out, "prefix=") : NULL;
            bool same_ex = (!p1 && !p2) ||
                           (p1 && p2 && strncmp(p1, p2, strcspn(p2, ",)")) == 0 &&
                            strcspn(p1, ",)") == strcspn(p2, ",)"));
            bool same_wk = (strstr(o, "whole_key=0") != NULL) == !wk;
            clash = strncmp(o, "bloom", 5) == 0 && same_ex && same_wk;
        }
        if (!clash) return true;
    }
    return false;
}

static void random_list(const fl_run_config *c, fl_rng *r, policy_list *l) {
    l->n = 0;
    size_t want = fl_rng_below(r, 4);                       /* 0..3 */
    if (c->npolicies && want == 0) want = 1;
    for (size_t i = 0; i < want && l->n < 4; i++) {
        if (c->npolicies && (i == 0 || fl_rng_chance(r, 50))) {
            const char *p = c->policies[fl_rng_below(r, c->npolicies)];
            bool dup = false;
            for (size_t j = 0; j < l->n; j++) dup |= strcmp(l->specs[j], p) == 0;
            if (!dup) l->specs[l->n++] = p;
        } else if (random_bloom(c, r, l, l->own[l->n], sizeof l->own[l->n])) {
            l->specs[l->n] = l->own[l->n];
            l->n++;
        }
    }
}

static void ignore_violation(void *arg, const fl_contract_violation *v) { (void)arg; (void)v; }

/* The name of the policy spec makes, into out; false when it cannot be
 * made (the trial will find out). */
static bool policy_name(const fl_run_config *c, fl_calls *calls, const char *spec, char *out, size_t cap) {
    fl_filter_policy *p = NULL;
    char err[256];
    out[0] = 0;
    if (fl_registry_make_policy(c->reg, spec, &p, err, sizeof err) != FL_OK || !p) return false;
    const char *name = fl_call_policy_name(calls, p);
    if (name) snprintf(out, cap, "%s", name);
    fl_call_policy_destroy(calls, p);
    return true;
}

/* Drops specs whose policy name repeats an earlier one's (the engine would
 * refuse the list): two specs of one plugin kind may share a name. */
static void dedupe_names(const fl_run_config *c, policy_list *l) {
    fl_calls *calls;               /* what the plugins do wrong is the trial's to find */
    if (!l->n || fl_calls_new(c->reg, &calls) != FL_OK) return;
    fl_calls_set_sink(calls, ignore_violation, NULL);
    char names[4][256];
    for (size_t i = 0; i < l->n; i++) {
        if (!policy_name(c, calls, l->specs[i], names[i], sizeof names[i])) {
            fl_calls_free(calls);
            return;
        }
    }
    size_t keep = 0;
    for (size_t i = 0; i < l->n; i++) {
        bool dup = false;
        for (size_t j = 0; j < i; j++) dup |= strcmp(names[j], names[i]) == 0;
        if (dup) continue;
        if (l->specs[i] == l->own[i]) {
            if (keep != i) memcpy(l->own[keep], l->own[i], sizeof l->own[keep]);
            l->specs[keep] = l->own[keep];
        } else {
            l->specs[keep] = l->specs[i];
        }
        keep++;
    }
    l->n = keep;
    fl_calls_free(calls);
}

static void copy_list(policy_list *dst, const policy_list *src) {
    *dst = *src;
    for (size_t i = 0; i < src->n; i++)
        if (src->specs[i] == src->own[i]) dst->specs[i] = dst->own[i];
}

/* A migration of l: a policy added, removed, reordered or swapped. */
static void migrate(const fl_run_config *c, fl_rng *r, policy_list *l) {
    switch (fl_rng_below(r, 4)) {
    case 0:                                                   /* add */
        if (l->n < 3) {
            policy_list one;
            random_list(c, r, &one);
            if (one.n && random_bloom(c, r, l, l->own[l->n], sizeof l->own[l->n])) {
                l->specs[l->n] = l->own[l->n];
                l->n++;
            }
            if (c->npolicies && l->n < 3 && fl_rng_chance(r, 50)) {
                const char *p = c->policies[fl_rng_below(r, c->npolicies)];
                bool dup = false;
                for (size_t j = 0; j < l->n; j++) dup |= strcmp(l->specs[j], p) == 0;
                if (!dup) l->specs[l->n++] = p;
            }
        }
        break;
    case 1:                                                   /* remove */
        if (l->n) {
            size_t k = fl_rng_below(r, l->n);
            policy_list t;
            copy_list(&t, l);
            l->n = 0;
            for (size_t i = 0; i < t.n; i++) {
                if (i == k) continue;
                if (t.specs[i] == t.own[i]) {
                    memcpy(l->own[l->n], t.own[i], sizeof l->own[l->n]);
                    l->specs[l->n] = l->own[l->n];
                } else {
                    l->specs[l->n] = t.specs[i];
                }
                l->n++;
            }
        }
        break;
    case 2: {                                                 /* reorder */
        policy_list t;
        copy_list(&t, l);
        for (size_t i = 0; i < t.n; i++) {
            size_t from = t.n - 1 - i;
            if (t.specs[from] == t.own[from]) {
                memcpy(l->own[i], t.own[from], sizeof l->own[i]);
                l->specs[i] = l->own[i];
            } else {
                l->specs[i] = t.specs[from];
            }
        }
        break;
    }
    default:                                                  /* swap one */
        if (l->n) {
            size_t k = fl_rng_below(r, l->n);
            policy_list others;
            copy_list(&others, l);
            others.n = 0;
            for (size_t i = 0; i < l->n; i++)
                if (i != k) others.specs[others.n++] = l->specs[i];
            if (c->npolicies && fl_rng_chance(r, 50)) l->specs[k] = c->policies[fl_rng_below(r, c->npolicies)];
            else if (random_bloom(c, r, &others, l->own[k], sizeof l->own[k])) l->specs[k] = l->own[k];
        }
    }
}

static void add_list(const fl_run_config *c, fl_text *t, const char *key, policy_list *l) {
    dedupe_names(c, l);
    fl_text v;
    fl_text_clear(&v);
    if (!l->n) fl_text_add(&v, "none");
    for (size_t i = 0; i < l->n; i++) fl_text_add(&v, "%s%s", i ? ";" : "", l->specs[i]);
    fl_text_add(t, " %s=", key);
    fl_text_add_quoted(t, v.buf);
}

/* Options of an open or reopen. */
static void config_text(const fl_run_config *c, fl_rng *r, const policy_list *w, bool first,
                        bool fp_trial, fl_text *t) {
    fl_text_clear(t);
    policy_list wl;
    copy_list(&wl, w);
    add_list(c, t, "policies", &wl);
    if (fl_rng_chance(r, 20)) {
        policy_list comp;
        if (fl_rng_chance(r, 40)) comp.n = 0;
        else { copy_list(&comp, w); migrate(c, r, &comp); }
        add_list(c, t, "compactor", &comp);
    } else if (!first) {
        add_list(c, t, "compactor", &wl);
    }
    fl_text_add(t, " legacy_filters=%d", !fp_trial && fl_rng_chance(r, 12) ? 1 : 0);
    fl_text_add(t, " min_filter_keys=%u", fl_rng_chance(r, 20) ? (unsigned)fl_rng_below(r, 30) : 0u);
    if (first) {
        if (fp_trial) {
            fl_text_add(t, " memtable_bytes=%u l0_trigger=1000 sst_bytes=65536", 8192u + (unsigned)fl_rng_below(r, 16384));
        } else {
            /* drawn one by one: the order of a call's arguments is unspecified */
            unsigned memtable = 256u + (unsigned)fl_rng_below(r, 8192);
            unsigned sst = 256u + (unsigned)fl_rng_below(r, 8192);
            unsigned block = 32u + (unsigned)fl_rng_below(r, 2048);
            unsigned l0 = 2u + (unsigned)fl_rng_below(r, 5);
            unsigned runs = 1u + (unsigned)fl_rng_below(r, 4);
            fl_text_add(t, " memtable_bytes=%u sst_bytes=%u block_bytes=%u l0_trigger=%u max_runs=%u",
                memtable, sst, block, l0, runs);
        }
    }
}

/* A trial with set_options ops: their options (migrations of the open
 * line's policies, as a reopen's, but the memtable kept), and the reopens'
 * (options_for serves both once the trial has it). */
#define SETS 3
typedef struct fl_state {
    const fl_space_trial *t;                /* (its gen->reopen_count reopens)   */
    size_t next_reopen;
    fl_text set[SETS];
    size_t nsets, next_set;
} fl_state;

static int options_for(void *arg, fl_op_kind kind, char *out, size_t cap) {
    fl_state *st = arg;
    const char *text = kind == FL_OP_REOPEN ? st->t->reopens[st->next_reopen++ % st->t->gen->reopen_count]
                                            : st->set[st->next_set++ % st->nsets].buf;
    size_t n = strlen(text);
    if (n + 1 > cap) return -1;
    memcpy(out, text, n + 1);
    return 0;
}

static void release(fl_space_trial *t) { free(t->state); }

/* The configuration of one trial: the open line, up to three reopens
 * (migrations), in half the trials up to three set_options (migrations
 * too), and for an FP trial the op mix P9 needs. */
static int configure(const fl_run_config *c, fl_rng *r, fl_space_trial *t, char *err, size_t err_len) {
    fl_gen_options *o = t->gen;
    policy_list pl;
    if (t->fp_trial) {
        /* one built-in bloom, P9's case.  P9 decides over 10,000 distinct
         * probed items, so the bloom hashes whole keys (a prefix-only bloom
         * is asked about its few prefixes; other trials cover it) and about
         * 15,000 absent keys are read, nearly all distinct, from few SSTs
         * (few puts) so that the trial stays cheap. */
        policy_list none = { .n = 0 };
        pl.n = 0;
        for (int attempt = 0; attempt < 8 && !pl.n; attempt++)
            if (random_bloom(c, r, &none, pl.own[0], sizeof pl.own[0]) && !strstr(pl.own[0], "whole_key=0")) {
                pl.specs[0] = pl.own[0];
                pl.n = 1;
            }
        o->ops = c->max_ops * 14 < 20000 ? c->max_ops * 14 : 20000;
        o->w_put = 12; o->w_del = 0; o->w_delrange = 0; o->w_get_present = 3; o->w_get_absent = 75;
        o->w_prefix_present = 2; o->w_prefix_absent = 8; o->w_scan = 0;
        o->flush_every = o->ops / 5 + 1;
        o->compact_every = 0;
        o->reopen_every = 0;
        o->keys = o->ops;
    } else {
        random_list(c, r, &pl);
        o->ops = 50 + fl_rng_below(r, c->max_ops > 50 ? c->max_ops - 50 : 1);
        o->keys = 20 + fl_rng_below(r, 2000);
        o->flush_every = 10 + fl_rng_below(r, 200);
        o->compact_every = 50 + fl_rng_below(r, 600);
        o->reopen_every = fl_rng_chance(r, 70) ? 40 + fl_rng_below(r, o->ops) : 0;
        o->ctx_rate = fl_rng_chance(r, 40) ? 0.1 : 0.0;
    }
    config_text(c, r, &pl, true, t->fp_trial, &t->open);
    o->open_options = t->open.buf;
    policy_list m;
    copy_list(&m, &pl);
    size_t nre = t->fp_trial ? 0 : 1 + fl_rng_below(r, 3);
    for (size_t i = 0; i < nre; i++) {
        migrate(c, r, &m);
        config_text(c, r, &m, false, false, &t->reopen[i]);
        t->reopens[i] = t->reopen[i].buf;
    }
    o->reopen_options = t->reopens;
    t->nlengths = 0;
    fl_prefix_lengths(t->open.buf, t->lengths, &t->nlengths, FL_TRIAL_LENGTHS);
    for (size_t i = 0; i < nre; i++)
        fl_prefix_lengths(t->reopen[i].buf, t->lengths, &t->nlengths, FL_TRIAL_LENGTHS);
    if (!t->fp_trial && fl_rng_chance(r, 50)) {
        fl_state *st = calloc(1, sizeof *st);
        if (!st) {
            snprintf(err, err_len, "out of memory");
            return FL_ERR_NOMEM;
        }
        t->state = st;
        st->t = t;
        st->nsets = 1 + fl_rng_below(r, SETS);
        copy_list(&m, &pl);
        for (size_t i = 0; i < st->nsets; i++) {
            migrate(c, r, &m);
            config_text(c, r, &m, false, false, &st->set[i]);
            fl_prefix_lengths(st->set[i].buf, t->lengths, &t->nlengths, FL_TRIAL_LENGTHS);
        }
        o->set_options_every = 15 + fl_rng_below(r, o->ops / 2 + 1);
        o->options_for = options_for;
        o->options_arg = st;
    }
    o->prefix_lengths = t->lengths;
    o->prefix_length_count = t->nlengths;
    o->reopen_count = nre;
    return FL_OK;
}

/* Any --policy and --extractor spec runs on filterlab's engine (the
 * command made each of them before the run). */
const fl_space fl_space_filterlab = {
    .fp_trials = true,
    .refusals_are_findings = true,
    .crashes = true,
    .configure = configure,
    .release = release,
};
