/*
 * runner.c -- `filterlab check`: random trials, deterministic from (seed,
 * trial number), each a configuration and a generated workload run through
 * the checker; the first failing trial is shrunk and written out with a
 * header saying how to replay it.
 *
 * A trial's configuration: 0-3 policies (built-in blooms over every
 * extractor, both whole-key modes, bits from 0 through fractional values to
 * 24; or the user's --policy specs, alone or beside built-ins; or blooms
 * around the user's --extractor specs), min_filter_keys, legacy_filters, a
 * compactor that may differ, small sizes so flushes and compactions happen,
 * and migrations at reopen: a policy added, removed, reordered, swapped.
 * Every eighth trial is an FP trial: many absent gets and prefixes over
 * several overlapping L0 SSTs, so P9 has enough eligible probes.
 */
#include "check_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FL_LINT_INPUTS 20000        /* keys and prefixes per extractor lint */
#define SHRINK_CALL_TIMEOUT 1.0     /* seconds: shrinking a hung call        */

/* ---- Randomness ------------------------------------------------------------ */

typedef struct rng { uint64_t s; } rng;
static uint64_t next(rng *r) { return fl_splitmix64(&r->s); }
static uint64_t below(rng *r, uint64_t n) { return n ? next(r) % n : 0; }
static bool chance(rng *r, unsigned percent) { return below(r, 100) < percent; }

static uint64_t fl_trial_seed(uint64_t seed, uint64_t trial) {
    return fl_mix64(seed * 0x100000001B3ull ^ fl_mix64(trial + 1));
}

/* ---- Text building ----------------------------------------------------------- */

typedef struct text { char buf[8192]; size_t len; } text;

__attribute__((format(printf, 2, 3)))
static void add(text *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->buf + t->len, sizeof t->buf - t->len, fmt, ap);
    va_end(ap);
    if (n > 0) t->len = t->len + (size_t)n < sizeof t->buf ? t->len + (size_t)n : sizeof t->buf - 1;
}

/* A spec as an option value inside double quotes: \ and " escaped. */
static void add_quoted(text *t, const char *s) {
    add(t, "\"");
    for (; *s; s++) add(t, *s == '\\' || *s == '"' ? "\\%c" : "%c", *s);
    add(t, "\"");
}

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
static void random_bits(rng *r, char *out, size_t len) {
    if (chance(r, 50)) {
        snprintf(out, len, "%s", bits_choices[below(r, sizeof bits_choices / sizeof *bits_choices)]);
        return;
    }
    uint64_t i = below(r, K_TABLE_BOUNDS + K_FORMULA_BOUNDS);
    unsigned mb = i < K_TABLE_BOUNDS ? k_table_bounds[i] : 26000 + 2000 * (unsigned)(i - K_TABLE_BOUNDS);
    switch (below(r, 4)) {
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
static bool random_bloom(const fl_run_config *c, rng *r, policy_list *l, char *out, size_t len) {
    for (int attempt = 0; attempt < 8; attempt++) {
        char bits[16];
        random_bits(r, bits, sizeof bits);
        const char *ex = NULL;
        if (c->nextractors && chance(r, 80)) ex = c->extractors[below(r, c->nextractors)];
        else if (chance(r, 70))
            ex = builtin_extractors[below(r, sizeof builtin_extractors / sizeof *builtin_extractors)];
        bool wk = !ex || chance(r, 60);
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

static void random_list(const fl_run_config *c, rng *r, policy_list *l) {
    l->n = 0;
    size_t want = below(r, 4);                       /* 0..3 */
    if (c->npolicies && want == 0) want = 1;
    for (size_t i = 0; i < want && l->n < 4; i++) {
        if (c->npolicies && (i == 0 || chance(r, 50))) {
            const char *p = c->policies[below(r, c->npolicies)];
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

/* Drops specs whose policy name repeats an earlier one's (the engine would
 * refuse the list): two specs of one plugin kind may share a name. */
static void dedupe_names(const fl_run_config *c, policy_list *l) {
    char text_buf[4096] = "";
    for (size_t i = 0; i < l->n; i++) {
        if (i) strncat(text_buf, ";", sizeof text_buf - strlen(text_buf) - 1);
        strncat(text_buf, l->specs[i], sizeof text_buf - strlen(text_buf) - 1);
    }
    ck_config *cfg;
    char err[512];
    fl_calls *calls;               /* what the plugins do wrong is the trial's to find */
    if (!l->n || fl_calls_new(c->reg, &calls) != FL_OK) return;
    fl_calls_set_sink(calls, ignore_violation, NULL);
    if (ck_config_new(c->reg, calls, text_buf, &cfg, err, sizeof err) != FL_OK) {
        fl_calls_free(calls);
        return;
    }
    size_t keep = 0;
    for (size_t i = 0; i < l->n && i < cfg->count; i++) {
        bool dup = false;
        for (size_t j = 0; j < i; j++) dup |= strcmp(cfg->items[j].name, cfg->items[i].name) == 0;
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
    ck_config_unref(cfg);
    fl_calls_free(calls);
}

static void copy_list(policy_list *dst, const policy_list *src) {
    *dst = *src;
    for (size_t i = 0; i < src->n; i++)
        if (src->specs[i] == src->own[i]) dst->specs[i] = dst->own[i];
}

/* A migration of l: a policy added, removed, reordered or swapped. */
static void migrate(const fl_run_config *c, rng *r, policy_list *l) {
    switch (below(r, 4)) {
    case 0:                                                   /* add */
        if (l->n < 3) {
            policy_list one;
            random_list(c, r, &one);
            if (one.n && random_bloom(c, r, l, l->own[l->n], sizeof l->own[l->n])) {
                l->specs[l->n] = l->own[l->n];
                l->n++;
            }
            if (c->npolicies && l->n < 3 && chance(r, 50)) {
                const char *p = c->policies[below(r, c->npolicies)];
                bool dup = false;
                for (size_t j = 0; j < l->n; j++) dup |= strcmp(l->specs[j], p) == 0;
                if (!dup) l->specs[l->n++] = p;
            }
        }
        break;
    case 1:                                                   /* remove */
        if (l->n) {
            size_t k = below(r, l->n);
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
            size_t k = below(r, l->n);
            policy_list others;
            copy_list(&others, l);
            others.n = 0;
            for (size_t i = 0; i < l->n; i++)
                if (i != k) others.specs[others.n++] = l->specs[i];
            if (c->npolicies && chance(r, 50)) l->specs[k] = c->policies[below(r, c->npolicies)];
            else if (random_bloom(c, r, &others, l->own[k], sizeof l->own[k])) l->specs[k] = l->own[k];
        }
    }
}

static void add_list(const fl_run_config *c, text *t, const char *key, policy_list *l) {
    dedupe_names(c, l);
    text v = { .len = 0 };
    v.buf[0] = 0;
    if (!l->n) add(&v, "none");
    for (size_t i = 0; i < l->n; i++) add(&v, "%s%s", i ? ";" : "", l->specs[i]);
    add(t, " %s=", key);
    add_quoted(t, v.buf);
}

/* Options of an open or reopen. */
static void config_text(const fl_run_config *c, rng *r, const policy_list *w, bool first,
                        bool fp_trial, text *t) {
    t->len = 0;
    t->buf[0] = 0;
    policy_list wl;
    copy_list(&wl, w);
    add_list(c, t, "policies", &wl);
    if (chance(r, 20)) {
        policy_list comp;
        if (chance(r, 40)) comp.n = 0;
        else { copy_list(&comp, w); migrate(c, r, &comp); }
        add_list(c, t, "compactor", &comp);
    } else if (!first) {
        add_list(c, t, "compactor", &wl);
    }
    add(t, " legacy_filters=%d", !fp_trial && chance(r, 12) ? 1 : 0);
    add(t, " min_filter_keys=%u", chance(r, 20) ? (unsigned)below(r, 30) : 0u);
    if (first) {
        if (fp_trial) {
            add(t, " memtable_bytes=%u l0_trigger=1000 sst_bytes=65536", 8192u + (unsigned)below(r, 16384));
        } else {
            /* drawn one by one: the order of a call's arguments is unspecified */
            unsigned memtable = 256u + (unsigned)below(r, 8192);
            unsigned sst = 256u + (unsigned)below(r, 8192);
            unsigned block = 32u + (unsigned)below(r, 2048);
            unsigned l0 = 2u + (unsigned)below(r, 5);
            unsigned runs = 1u + (unsigned)below(r, 4);
            add(t, " memtable_bytes=%u sst_bytes=%u block_bytes=%u l0_trigger=%u max_runs=%u",
                memtable, sst, block, l0, runs);
        }
    }
}

/* Generates trial `trial` into *w. */
static int make_trial(const fl_run_config *c, uint64_t trial, fl_workload *w, char *err, size_t err_len) {
    uint64_t seed = fl_trial_seed(c->seed, trial);
    rng r = { seed };
    bool fp_trial = trial % 8 == 7;
    static const fl_gen_shape shapes[] = {
        FL_SHAPE_UNIFORM, FL_SHAPE_ZIPF, FL_SHAPE_GROUP_SUFFIX, FL_SHAPE_DELIMITED,
        FL_SHAPE_TIMESERIES, FL_SHAPE_ADVERSARIAL, FL_SHAPE_ADVERSARIAL,
    };
    fl_gen_shape shape = fp_trial ? (chance(&r, 50) ? FL_SHAPE_UNIFORM : FL_SHAPE_GROUP_SUFFIX)
                                  : shapes[below(&r, sizeof shapes / sizeof *shapes)];
    fl_gen_options o;
    fl_gen_defaults(&o, shape);
    o.seed = next(&r);
    policy_list pl;
    text open, re[3];
    if (fp_trial) {
        /* one built-in bloom, P9's case.  P9 decides over 10,000 distinct
         * probed items, so the bloom hashes whole keys (a prefix-only bloom
         * is asked about its few prefixes; other trials cover it) and about
         * 15,000 absent keys are read, nearly all distinct, from few SSTs
         * (few puts) so that the trial stays cheap. */
        policy_list none = { .n = 0 };
        pl.n = 0;
        for (int attempt = 0; attempt < 8 && !pl.n; attempt++)
            if (random_bloom(c, &r, &none, pl.own[0], sizeof pl.own[0]) && !strstr(pl.own[0], "whole_key=0")) {
                pl.specs[0] = pl.own[0];
                pl.n = 1;
            }
        o.ops = c->max_ops * 14 < 20000 ? c->max_ops * 14 : 20000;
        o.w_put = 12; o.w_del = 0; o.w_delrange = 0; o.w_get_present = 3; o.w_get_absent = 75;
        o.w_prefix_present = 2; o.w_prefix_absent = 8; o.w_scan = 0;
        o.flush_every = o.ops / 5 + 1;
        o.compact_every = 0;
        o.reopen_every = 0;
        o.keys = o.ops;
    } else {
        random_list(c, &r, &pl);
        o.ops = 50 + below(&r, c->max_ops > 50 ? c->max_ops - 50 : 1);
        o.keys = 20 + below(&r, 2000);
        o.flush_every = 10 + below(&r, 200);
        o.compact_every = 50 + below(&r, 600);
        o.reopen_every = chance(&r, 70) ? 40 + below(&r, o.ops) : 0;
        o.ctx_rate = chance(&r, 40) ? 0.1 : 0.0;
    }
    config_text(c, &r, &pl, true, fp_trial, &open);
    o.open_options = open.buf;
    const char *reopens[3];
    policy_list m;
    copy_list(&m, &pl);
    size_t nre = fp_trial ? 0 : 1 + below(&r, 3);
    for (size_t i = 0; i < nre; i++) {
        migrate(c, &r, &m);
        config_text(c, &r, &m, false, false, &re[i]);
        reopens[i] = re[i].buf;
    }
    o.reopen_options = reopens;
    uint32_t lens[8];
    size_t nlens = 0;
    fl_prefix_lengths(open.buf, lens, &nlens, 8);
    for (size_t i = 0; i < nre; i++) fl_prefix_lengths(re[i].buf, lens, &nlens, 8);
    o.prefix_lengths = lens;
    o.prefix_length_count = nlens;
    o.reopen_count = nre;
    if (fl_gen_workload(&o, w, err, err_len) != 0) return FL_ERR_INVALID;
    char desc[512];
    snprintf(desc, sizeof desc, "filterlab check --seed %llu --trial %llu%s%s (shape %s)",
             (unsigned long long)c->seed, (unsigned long long)trial, c->trial_flags ? " " : "",
             c->trial_flags ? c->trial_flags : "", fl_gen_shape_name(shape));
    free(w->description);
    w->description = strdup(desc);
    return FL_OK;
}

/* ---- The extractor lint ------------------------------------------------------------ */

/* The standalone contract lint of --extractor SPEC as a workload: a bloom
 * around the extractor, then gets and scan_prefixes of generated keys and
 * prefixes (random bytes over a small alphabet with the usual delimiters,
 * of lengths around typical extractor lengths) on an empty database, so
 * that P7 checks each of them -- and a failure is shrunk and replayed like
 * any other. */
static int lint_workload(const fl_run_config *c, size_t which, fl_workload *w, char *err,
                         size_t err_len) {
    static const uint8_t alphabet[] = { 'a', 'b', ':', '/', '.', '_', 0x00, 0xFF, '0', '1' };
    char spec[1200];
    text open = { .len = 0 };
    open.buf[0] = 0;
    snprintf(spec, sizeof spec, "bloom(prefix=%s)", c->extractors[which]);
    add(&open, "policies=");
    add_quoted(&open, spec);
    memset(w, 0, sizeof *w);
    char line[8300];
    snprintf(line, sizeof line, "filterlab-workload 1\nopen %s\n", open.buf);
    if (fl_workload_parse(line, strlen(line), "lint", w, err, err_len) != 0) return FL_ERR_INVALID;
    uint64_t s = c->seed ^ fl_mix64(which + 1);
    uint8_t buf[40];
    for (unsigned i = 0; i < FL_LINT_INPUTS; i++) {
        size_t len = fl_splitmix64(&s) % 24;
        for (size_t j = 0; j < len; j++) buf[j] = alphabet[fl_splitmix64(&s) % sizeof alphabet];
        fl_op op = { .kind = (i & 1) ? FL_OP_GET : FL_OP_SCAN_PREFIX, .line = i + 3,
                     .a = { buf, len } };
        if (fl_workload_add(w, &op) != 0) {
            fl_workload_free(w);
            snprintf(err, err_len, "out of memory");
            return FL_ERR_NOMEM;
        }
    }
    char desc[1400];
    snprintf(desc, sizeof desc, "the extractor lint of --extractor %s (filterlab check --seed %llu%s%s)",
             c->extractors[which], (unsigned long long)c->seed, c->trial_flags ? " " : "",
             c->trial_flags ? c->trial_flags : "");
    w->description = strdup(desc);
    return FL_OK;
}

/* ---- The run -------------------------------------------------------------------- */

/* A violation message names its op by line ("P1 name: line 82 get k: ...");
 * in the written file that op sits at another line: w's op with the old
 * line number is again's op at the same index. */
static void renumber(char *msg, size_t cap, const fl_workload *w, const fl_workload *again) {
    char *at = strstr(msg, ": line ");
    if (!at || w->count != again->count) return;
    char *digits = at + 7, *end;
    unsigned long old = strtoul(digits, &end, 10);
    if (end == digits || *end != ' ') return;
    for (size_t i = 0; i < w->count; i++) {
        if (w->ops[i].line != old) continue;
        char rest[4096];
        snprintf(rest, sizeof rest, "%s", end);
        snprintf(digits, cap - (size_t)(digits - msg), "%u%s", again->ops[i].line, rest);
        return;
    }
}

/* Writes the minimized workload with its header; the message is made to
 * name the file's own lines. */
static int write_failure(const fl_run_config *c, fl_run_result *res, fl_workload *w,
                         const char *found_by, char *err, size_t err_len) {
    if (fl_mkdir_p(c->out_dir) != 0) {
        snprintf(err, err_len, "--out %s: %s", c->out_dir, strerror(errno));
        return FL_ERR_IO;
    }
    snprintf(res->path, sizeof res->path, "%s/P%d-seed%llu-%s.wl", c->out_dir, res->property,
             (unsigned long long)c->seed, found_by);
    char how[2048];
    if (res->trial == UINT64_MAX)
        snprintf(how, sizeof how, "filterlab check --seed %llu%s%s (its extractor lint)",
                 (unsigned long long)c->seed, c->trial_flags ? " " : "", c->trial_flags ? c->trial_flags : "");
    else
        snprintf(how, sizeof how, "filterlab check --seed %llu --trial %llu%s%s",
                 (unsigned long long)c->seed, (unsigned long long)res->trial, c->trial_flags ? " " : "",
                 c->trial_flags ? c->trial_flags : "");
    for (int pass = 0; pass < 2; pass++) {
        char desc[16384];
        char timeout[64] = "";
        if (res->shrink_call_timeout > 0)
            snprintf(timeout, sizeof timeout, " --call-timeout %g", res->shrink_call_timeout);
        snprintf(desc, sizeof desc,
                 "P%d %s, found by: %s\nminimized from %zu to %zu ops%s\n%s\nreplay: filterlab replay %s%s%s%s",
                 res->property, fl_property_name(res->property), how, res->original_ops, w->count,
                 res->shrink_cut ? " (shrinking stopped at the time limit)" : "", res->message,
                 res->path, c->replay_flags ? " " : "", c->replay_flags ? c->replay_flags : "", timeout);
        free(w->description);
        w->description = strdup(desc);
        FILE *f = fopen(res->path, "w");
        if (!f || fl_workload_print(w, f) != 0 || fclose(f) != 0) {
            snprintf(err, err_len, "%s: cannot write: %s", res->path, strerror(errno));
            return FL_ERR_IO;
        }
        if (pass) break;
        /* the message as a replay of this file will print it: the same op,
         * at its line in the file */
        fl_workload again;
        char perr[512];
        if (fl_workload_load(res->path, &again, perr, sizeof perr) != 0) break;
        renumber(res->message, sizeof res->message, w, &again);
        fl_workload_free(&again);
    }
    return FL_OK;
}

/* A failing workload: shrunk (within the time left), written, the run over. */
static int found(const fl_run_config *c, const fl_trial_env *env, fl_run_result *res, fl_workload *w,
                 uint64_t trial, const fl_trial_outcome *o, const char *name, char *err, size_t err_len) {
    res->property = o->property;
    res->trial = trial;
    res->original_ops = w->count;
    snprintf(res->message, sizeof res->message, "%s", o->message);
    if (c->log)
        fprintf(c->log, "check: %s in %s (seed %llu); shrinking %zu ops...\n", o->message, name,
                (unsigned long long)c->seed, w->count);
    double budget = c->shrink_seconds;
    if (c->deadline > 0 && c->deadline - fl_now() < budget) budget = c->deadline - fl_now();
    if (budget < 0) budget = 0;
    double t0 = fl_now();
    fl_trial_env shrink_env = *env;
    if (o->hang && shrink_env.call_timeout > SHRINK_CALL_TIMEOUT) {
        shrink_env.call_timeout = SHRINK_CALL_TIMEOUT;
        res->shrink_call_timeout = SHRINK_CALL_TIMEOUT;
    }
    fl_shrink(&shrink_env, w, o->property, budget);
    res->shrink_cut = c->deadline > 0 && fl_now() - t0 >= budget - 0.05 && budget < c->shrink_seconds;
    res->minimal_ops = w->count;
    return write_failure(c, res, w, name, err, err_len);
}

int fl_check_run(const fl_run_config *c, fl_run_result *res, char *err, size_t err_len) {
    memset(res, 0, sizeof *res);
    double start = fl_now(), next_progress = start + 0.5;
    unsigned shards = c->shards ? c->shards : 1;
    /* an unwritable --out is found now, not after minutes of shrinking */
    if (fl_mkdir_p(c->out_dir) != 0 || access(c->out_dir, W_OK) != 0) {
        snprintf(err, err_len, "--out %s: %s", c->out_dir, strerror(errno));
        return FL_ERR_IO;
    }
    /* trials create and delete many small files: a tmpfs does that fastest */
    char scratch[4096];
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp) tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(scratch, sizeof scratch, "%s/filterlab-check.XXXXXX", tmp);
    if (!mkdtemp(scratch)) {
        snprintf(err, err_len, "cannot create a scratch directory: %s", strerror(errno));
        return FL_ERR_IO;
    }
    fl_trial_env env = { .engine = c->engine, .reg = c->reg, .scratch = scratch,
                         .call_timeout = c->call_timeout, .deadline = c->deadline,
                         .interrupt = c->interrupt };
    int rc = FL_OK;
    size_t shown = 0;
    /* the extractor lint first, once per --extractor (not per shard) */
    for (size_t x = 0; x < c->nextractors && c->only_trial < 0 && c->shard == 0; x++) {
        fl_workload w;
        char gerr[512] = "", name[64];
        if ((rc = lint_workload(c, x, &w, gerr, sizeof gerr)) != FL_OK) {
            snprintf(err, err_len, "the lint of --extractor %s: %s", c->extractors[x], gerr);
            goto done;
        }
        env.seed = FL_CHECKER_SEED;
        fl_trial_outcome o;
        if ((rc = fl_check_workload(&env, &w, true, &o)) != FL_OK) {
            snprintf(err, err_len, "%s", o.message);
            fl_workload_free(&w);
            goto done;
        }
        res->ops += o.ops;
        if (o.property) {
            snprintf(name, sizeof name, "lint%zu", x + 1);
            rc = found(c, &env, res, &w, UINT64_MAX, &o, name, err, err_len);
            fl_workload_free(&w);
            goto done;
        }
        fl_workload_free(&w);
        if (o.cut) { res->interrupted = c->interrupt && *c->interrupt; goto done; }
    }
    for (uint64_t t = c->only_trial >= 0 ? (uint64_t)c->only_trial : c->shard;;
         t += c->only_trial >= 0 ? 0 : shards) {
        if (c->trials && res->trials >= c->trials) break;
        if (c->seconds > 0 && fl_now() - start >= c->seconds) break;
        if (c->deadline > 0 && fl_now() >= c->deadline) break;
        if (c->interrupt && *c->interrupt) { res->interrupted = true; break; }
        fl_workload w = { 0 };
        char gerr[512] = "";
        if ((rc = make_trial(c, t, &w, gerr, sizeof gerr)) != FL_OK) {
            snprintf(err, err_len, "generating trial %llu: %s", (unsigned long long)t, gerr);
            break;
        }
        env.seed = FL_CHECKER_SEED;
        fl_trial_outcome o;
        if ((rc = fl_check_workload(&env, &w, true, &o)) != FL_OK) {
            snprintf(err, err_len, "%s", o.message);
            fl_workload_free(&w);
            break;
        }
        if (o.cut) {                           /* stopped by the limit or a signal */
            res->interrupted = c->interrupt && *c->interrupt;
            fl_workload_free(&w);
            break;
        }
        res->trials++;
        res->ops += o.ops;
        if (c->log && c->progress && fl_now() >= next_progress) {
            next_progress = fl_now() + 0.5;
            double el = fl_now() - start;
            int n = fprintf(c->log, "\rcheck: %llu trials, %llu ops, %.0f s (%.1f trials/s)",
                            (unsigned long long)res->trials, (unsigned long long)res->ops, el,
                            el > 0 ? (double)res->trials / el : 0.0);
            if (n > 0) shown = (size_t)n;
        }
        if (o.property) {
            if (c->log && shown) fprintf(c->log, "\r%*s\r", (int)shown, "");
            shown = 0;
            char name[64];
            snprintf(name, sizeof name, "trial%llu", (unsigned long long)t);
            rc = found(c, &env, res, &w, t, &o, name, err, err_len);
            fl_workload_free(&w);
            break;
        }
        fl_workload_free(&w);
        if (c->only_trial >= 0) break;
    }
done:
    if (c->log && shown) fprintf(c->log, "\r%*s\r", (int)shown, "");
    res->elapsed = fl_now() - start;
    fl_remove_tree(scratch);
    return rc;
}
