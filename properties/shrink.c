/*
 * shrink.c -- reduces a failing workload, while the same property still
 * fails, to a 1-minimal one: removing any single op, any option of an open
 * or reopen, or any spec of a policy list makes the failure go away, and no
 * reopen can become a flush.  First the flushes are pinned where the
 * memtable filled (shrink_flushes.c), so that removing a write no longer
 * moves them.  Then passes, each trying candidates and keeping the first
 * that still fails:
 *   ops       everything after the failing op; then chunks of ops, halves
 *             first, a chunk that cannot go split in two and tried again,
 *             down to single ops (about k log n runs for k ops that stay)
 *   op kinds  `compact full` -> `compact`; a reopen's options moved to the
 *             open line, else the reopen -> `flush`
 *   options   (shrink_config.c) options, policy specs, spec arguments,
 *             smaller numbers
 *   contexts, values, keys (shrink_bytes.c) byte strings shortened and
 *             simplified consistently wherever they occur
 * The passes run until a fixpoint: a pass that ran without progress runs
 * again only after another pass changed the workload, and the fixpoint is
 * reached when every pass has run clean on the workload as it is.  First
 * the structural passes (ops, op kinds, options) alone; then (eager trees,
 * below) options that make the tree flush and compact as early as it can
 * are tried on the open line, each followed by another such fixpoint and
 * kept only when that ends with fewer ops; last, every pass, bytes too.
 *
 * A candidate is kept only when it fails with the same property
 * (ck_outcome_same), with the seed the failure was found with; each runs in
 * a fresh directory and process.  The time budget stops everything
 * wherever it is: every step kept still fails, so what is left does too.
 */
#include "shrink_internal.h"

#include <stdlib.h>
#include <string.h>

bool ck_shrink_out_of_time(const ck_shrinker *s) {
    return fl_now() > s->deadline || (s->env->interrupt && *s->env->interrupt);
}

bool ck_shrink_try(ck_shrinker *s, fl_workload *w, fl_workload *c) {
    if (!ck_wl_options_valid(c)) {
        fl_workload_free(c);
        return false;
    }
    ck_outcome got;
    s->runs++;
    ck_outcome_run(s->env, c, &got);
    if (!ck_outcome_same(&s->want, &got)) {
        fl_workload_free(c);
        return false;
    }
    ck_wl_replace(w, c);
    s->want.ops = got.ops;
    s->version++;
    return true;
}

/* ---- Ops ---------------------------------------------------------------------- */

static bool drop(ck_shrinker *s, fl_workload *w, size_t from, size_t n) {
    fl_workload c;
    return ck_wl_without_ops(w, from, n, &c) && ck_shrink_try(s, w, &c);
}

/* Ops [from, from + n): all at once, else each half (the later first, so
 * that the earlier keeps its place). */
static void drop_span(ck_shrinker *s, fl_workload *w, size_t from, size_t n) {
    if (n == 0 || from + n > w->count || ck_shrink_out_of_time(s)) return;
    if (drop(s, w, from, n) || n == 1) return;
    drop_span(s, w, from + n / 2, n - n / 2);
    drop_span(s, w, from, n / 2);
}

static void pass_ops(ck_shrinker *s, fl_workload *w) {
    if (s->want.ops > 0 && s->want.ops < w->count)         /* after the failing op */
        drop(s, w, s->want.ops, w->count - s->want.ops);
    size_t n = w->count;
    drop_span(s, w, n / 2, n - n / 2);
    drop_span(s, w, 0, n / 2);
}

/* w without the reopen at `at`, its options set on the open line from the
 * start instead. */
static bool hoisted(const fl_workload *w, size_t at, fl_workload *out) {
    const fl_op *re = &w->ops[at];
    if (!ck_wl_without_ops(w, at, 1, out)) return false;
    for (size_t j = 0; j < re->opt_count; j++) {
        const fl_op *open = out->count && out->ops[0].kind == FL_OP_OPEN ? &out->ops[0] : NULL;
        bool already = false;
        for (size_t k = 0; open && k < open->opt_count; k++)
            already |= !strcmp(open->opts[k].key, re->opts[j].key) &&
                       !strcmp(open->opts[k].value, re->opts[j].value);
        fl_workload next;
        if (already) continue;
        bool made = ck_wl_with_open_option(out, re->opts[j].key, re->opts[j].value, &next);
        fl_workload_free(out);
        if (!made) return false;
        *out = next;
    }
    return true;
}

/* A multiget's keys one fewer: each key left out in turn (from the last),
 * and a multiget of one key tried as a get. */
static void shrink_multiget(ck_shrinker *s, fl_workload *w, size_t i) {
    fl_workload c;
    for (size_t key = w->ops[i].count; key-- > 0 && !ck_shrink_out_of_time(s);)
        if (ck_wl_without_multiget_key(w, i, key, &c)) ck_shrink_try(s, w, &c);
    fl_op get;
    size_t off = 0;
    if (w->ops[i].count == 1 && fl_op_multiget_get(&w->ops[i], &off, &get) && ck_wl_with_op(w, i, &get, &c))
        ck_shrink_try(s, w, &c);
}

/* `compact full` -> `compact`; a reopen -> its options on the open line,
 * else a flush (it flushes the memtable too; the workload format has no
 * reopen without options); a seek of n entries -> of one, else of n / 2;
 * a multiget -> one key fewer, a multiget of one key -> a get. */
static void pass_op_kinds(ck_shrinker *s, fl_workload *w) {
    for (size_t i = 0; i < w->count && !ck_shrink_out_of_time(s); i++) {
        fl_workload c;
        if (w->ops[i].kind == FL_OP_REOPEN && hoisted(w, i, &c) && ck_shrink_try(s, w, &c)) {
            i--;                                  /* the next op is at i now */
            continue;
        }
        if (w->ops[i].kind == FL_OP_MULTIGET) {
            shrink_multiget(s, w, i);
            continue;
        }
        fl_op simpler = w->ops[i];
        bool seek = simpler.kind == FL_OP_SEEK || simpler.kind == FL_OP_SEEK_FOR_PREV;
        if (simpler.kind == FL_OP_COMPACT && simpler.full) simpler.full = false;
        else if (simpler.kind == FL_OP_REOPEN) simpler = (fl_op){ .kind = FL_OP_FLUSH, .line = simpler.line };
        else if (seek && simpler.count > 1) simpler.count = 1;
        else continue;
        if (ck_wl_with_op(w, i, &simpler, &c) && ck_shrink_try(s, w, &c)) continue;
        if (seek && w->ops[i].count > 3) {
            simpler.count = w->ops[i].count / 2;
            if (ck_wl_with_op(w, i, &simpler, &c) && ck_shrink_try(s, w, &c)) i--;   /* again */
        }
    }
}

/* ---- The fixpoint ------------------------------------------------------------------ */

typedef void (*shrink_pass)(ck_shrinker *s, fl_workload *w);

/* The passes, those that change the workload's structure first: the ops,
 * the options, the kinds of ops; then its bytes. */
static const shrink_pass passes[] = {
    pass_ops, ck_shrink_options, pass_op_kinds, ck_shrink_contexts, ck_shrink_values, ck_shrink_keys,
};
enum { NPASSES = sizeof passes / sizeof passes[0], NSTRUCTURE = 3 };

/* Runs the first n passes until every one has run clean on w as it is (or
 * the time is up). */
static void fixpoint(ck_shrinker *s, fl_workload *w, size_t n) {
    uint64_t clean_at[NPASSES];
    bool clean[NPASSES] = { false };
    for (size_t i = 0; i < n;) {
        if (ck_shrink_out_of_time(s)) return;
        if (clean[i] && clean_at[i] == s->version) { i++; continue; }
        uint64_t before = s->version;
        passes[i](s, w);
        if (ck_shrink_out_of_time(s)) return;           /* cut short: not clean */
        if (s->version == before) {
            clean[i] = true;
            clean_at[i] = s->version;
            i++;
        } else {
            /* progress: from the first pass again -- but after ops, the
             * options first, which may let many more ops go at once */
            i = i == 0 ? 1 : 0;
        }
    }
}

/* ---- Eager trees ---------------------------------------------------------------------
 * Removal alone stops at a local minimum when the failure needs the tree
 * in some shape -- four flushes to trigger a compaction, a memtable full
 * enough to flush -- and the ops that build it cannot go one at a time.
 * So, once at a fixpoint, each of these is set on the open line (a tree
 * that flushes, compacts and merges as early as it can) and the result
 * shrunk again (structure only: cheap); it is kept only when it has fewer
 * ops, so this ends. */

static const char *const eager_options[][2] = {
    { "l0_trigger", "1" }, { "memtable_bytes", "1" }, { "max_runs", "1" }, { "sst_bytes", "1" },
};

enum { NEAGER = sizeof eager_options / sizeof eager_options[0] };

static void eager_trees(ck_shrinker *s, fl_workload *w) {
    for (bool better = true; better && !ck_shrink_out_of_time(s);) {
        better = false;
        for (size_t e = 0; e < NEAGER && !ck_shrink_out_of_time(s); e++) {
            fl_workload c, saved;
            if (w->count <= 2) return;          /* an open and one op: no fewer */
            if (!ck_wl_with_open_option(w, eager_options[e][0], eager_options[e][1], &c)) continue;
            if (!ck_wl_without_ops(w, 0, 0, &saved)) { fl_workload_free(&c); return; }
            ck_outcome want = s->want;
            if (ck_shrink_try(s, w, &c)) {
                fixpoint(s, w, NSTRUCTURE);
                if (w->count < saved.count) {
                    better = true;
                } else {                                /* back to what it was */
                    ck_wl_replace(w, &saved);
                    s->want = want;
                    s->version++;
                }
            }
            fl_workload_free(&saved);
        }
    }
}

uint64_t fl_shrink(const fl_trial_env *env, fl_workload *w, int property, double seconds) {
    ck_shrinker s = { .env = env, .deadline = fl_now() + seconds };
    if (env->deadline > 0 && env->deadline < s.deadline) s.deadline = env->deadline;
    /* the failure as it is: what every candidate must reproduce */
    s.runs = 1;
    ck_outcome_run(env, w, &s.want);
    if (s.want.property != property) return s.runs;
    /* flushes pinned where the memtable filled: more ops, for a while */
    fl_workload pinned, original = { 0 };
    ck_outcome want = s.want;
    bool pinned_kept = !ck_shrink_out_of_time(&s) && ck_wl_pin_flushes(env, w, &pinned);
    if (pinned_kept && !ck_wl_without_ops(w, 0, 0, &original)) {
        fl_workload_free(&pinned);
        pinned_kept = false;
    }
    pinned_kept = pinned_kept && ck_shrink_try(&s, w, &pinned);
    fixpoint(&s, w, NSTRUCTURE);        /* the ops, options and reopens first */
    eager_trees(&s, w);
    fixpoint(&s, w, NPASSES);           /* then the bytes, and all again */
    if (pinned_kept && w->count > original.count) {   /* out of time before it paid */
        ck_wl_replace(w, &original);
        s.want = want;
    }
    fl_workload_free(&original);
    return s.runs;
}
