/*
 * test_untraced.c -- the checker on an engine without a probe trace
 * (properties/untraced.c), with filterlab's own engine stripped of its
 * trace and SST truth views (so these tests run without RocksDB):
 *   - a clean run has no violation, and its false positives, counted by the
 *     checker on gets of keys never written, equal the ones the traced
 *     checker counts probe by probe on the same workload;
 *   - engines that lie in their counters are caught: more SST probes than
 *     the get could make (P3), counters moved by a total-order scan (P3),
 *     a memtable filter that says no while the memtable holds the key
 *     (P1) -- and the memtable lie is not reported once the key was
 *     flushed, nor is a false_positive the engine cannot know (P3) missed;
 *   - the same for multigets read in one call (the untraced engine's
 *     multiget is its gets in a row: to the checker, one batch whose
 *     counters move for all its keys together);
 *   - and, on the traced engine, P2 on gets: a key never written that the
 *     engine finds anyway (the model's answer then comes from the
 *     written-key set alone), a deleted one, a lost one -- in a get, and in
 *     a multiget read key by key or at once; and on scans, compared as
 *     their items come: a dropped item, an extra one, a changed value, an
 *     early end, and a finding naming a scan's bounds;
 *   - P6 on the SST truth: an SST's key range must cover its entries and
 *     range tombstones, and its entries come in order; and P6 at either end
 *     of a get's needed SSTs (the last left out, one more considered).
 */
#include "test.h"
#include "../adapters/adapters.h"

#include <stdlib.h>

typedef struct seen { int count, property; unsigned line; char msg[512], p6[512]; } seen;

static void on_violation(void *arg, int property, unsigned line, const char *msg) {
    seen *s = arg;
    if (!s->count++) {
        s->property = property;
        s->line = line;
        snprintf(s->msg, sizeof s->msg, "%s", msg);
    }
    if (property == FL_P6 && !s->p6[0]) snprintf(s->p6, sizeof s->p6, "%s", msg);
}

static int run(const fl_engine_ops *eng, const char *text, fl_check_summary *sum, seen *s) {
    fl_registry *reg;
    fl_workload w;
    char err[512];
    memset(&w, 0, sizeof w);
    memset(s, 0, sizeof *s);
    if (fl_registry_new(&reg) != FL_OK) return FL_ERR_NOMEM;
    if (fl_workload_parse(text, strlen(text), "t.wl", &w, err, sizeof err) != 0) {
        fl_test_fail(__FILE__, __LINE__, "parse: %s", err);
        fl_registry_free(reg);
        return FL_ERR_INVALID;
    }
    fl_runner r = { .check = { .engine = eng, .reg = reg, .path = "t.wl", .check = true, .seed = 3,
                               .no_sync = true, .on_violation = on_violation, .on_violation_arg = s },
                    .scratch = fl_test_tmpdir() };
    fl_run_outcome out;
    int rc = fl_run_workload(&r, &w, &out);
    if (rc == FL_OK) rc = out.rc;
    if (rc) fprintf(stderr, "  runner: %s\n", out.error);
    *sum = out.sum;
    fl_workload_free(&w);
    fl_registry_free(reg);
    return rc;
}

/* filterlab's engine seen as an engine without a probe trace, which, like
 * RocksDB, cannot tell which SSTs held a match: no false positives. */
static void metrics_without_fp(const fl_engine *e, fl_metrics *out) {
    fl_engine_filterlab.metrics(e, out);
    out->point.false_positive = out->prefix.false_positive = 0;
}

/* A multiget of the keys one get at a time through get_fn: to the checker,
 * a batched read of all of them, whose counters move for all together. */
typedef int (*get_fn)(fl_engine *e, fl_slice key, const fl_filter_context *ctx, fl_buf *value, bool *found);
static int multiget_through(get_fn get, fl_engine *e, size_t n, const fl_slice *keys, const fl_filter_context *ctx,
                            fl_buf *values, bool *found) {
    int rc = FL_OK;
    for (size_t i = 0; i < n && rc == FL_OK; i++) rc = get(e, keys[i], ctx, &values[i], &found[i]);
    return rc;
}
static int plain_multiget(fl_engine *e, size_t n, const fl_slice *keys, const fl_filter_context *ctx,
                          fl_buf *values, bool *found) {
    return multiget_through(fl_engine_filterlab.get, e, n, keys, ctx, values, found);
}

static fl_engine_ops untraced(void) {
    fl_engine_ops e = fl_engine_filterlab;
    e.name = "filterlab-untraced";
    e.multiget = plain_multiget;
    e.metrics = metrics_without_fp;
    e.set_probe_trace = NULL;
    e.sst_entries = NULL;
    e.sst_range_tombstones = NULL;
    e.sst_filter_block = NULL;
    return e;
}

/* Three L0 SSTs over the same range, then gets of keys never written
 * (grouped, 7 at most, into multigets). */
static char *absent_reads(bool multi) {
    size_t cap = 1 << 20, len = 0;
    char *t = malloc(cap);
    len += (size_t)snprintf(t + len, cap - len, "filterlab-workload 1\nopen policies=\"bloom(bits=6)\" "
                            "memtable_bytes=1000000 l0_trigger=100\n");
    for (int s = 0; s < 3; s++) {
        for (int k = s; k < 600; k += 3) len += (size_t)snprintf(t + len, cap - len, "put k%05d v\n", 2 * k);
        len += (size_t)snprintf(t + len, cap - len, "flush\n");
    }
    for (int k = 0; k < 599; k++)
        len += (size_t)snprintf(t + len, cap - len, !multi ? "get k%05d\n" : k % 7 == 0 ? "multiget k%05d"
                                : k % 7 == 6 || k == 598 ? " k%05d\n" : " k%05d", 2 * k + 1);
    return t;
}
static char *absent_gets(void) { return absent_reads(false); }

/* Runs text on eng with no violation. */
static void run_clean(const fl_engine_ops *eng, const char *text, fl_check_summary *sum) {
    seen s;
    CHECK_OK(run(eng, text, sum, &s));
    CHECK_EQ(s.count, 0);
    if (s.count) fprintf(stderr, "  first violation: %s\n", s.msg);
}

FL_TEST(untraced_clean_run_counts_known_false_positives) {
    fl_engine_ops eng = untraced();
    char *text = absent_gets();
    fl_check_summary traced, plain;
    run_clean(&fl_engine_filterlab, text, &traced);
    run_clean(&eng, text, &plain);
    /* the same probes; the checker's count of false positives from "no such
     * key was ever written" equals the trace's, probe by probe */
    CHECK_EQ(plain.metrics.point.considered, traced.metrics.point.considered);
    CHECK_EQ(plain.metrics.point.negative, traced.metrics.point.negative);
    CHECK(traced.metrics.point.false_positive > 0);
    CHECK_EQ(plain.metrics.point.false_positive, traced.metrics.point.false_positive);
    CHECK_EQ(plain.ssts, 3);
    free(text);
    /* the same gets as batched multigets: each read's counters are the
     * sum over its keys, and the false positives the same */
    text = absent_reads(true);
    fl_check_summary batched;
    run_clean(&fl_engine_filterlab, text, &traced);          /* (key by key: traced) */
    run_clean(&eng, text, &batched);
    CHECK_EQ(batched.metrics.point.considered, plain.metrics.point.considered);
    CHECK_EQ(batched.metrics.point.considered, traced.metrics.point.considered);
    CHECK_EQ(batched.metrics.point.false_positive, traced.metrics.point.false_positive);
    CHECK_EQ(batched.metrics.point.false_positive, plain.metrics.point.false_positive);
    free(text);
}

/* ---- Engines that lie ------------------------------------------------------------- */

static int lie_kind;                  /* what the lying engine adds          */
static uint64_t lie_count;
enum { LIE_NEGATIVES = 1, LIE_SCAN, LIE_MEMTABLE, LIE_FALSE_POSITIVE, LIE_SEEKS };

static int lying_get(fl_engine *e, fl_slice key, const fl_filter_context *ctx, fl_buf *value, bool *found) {
    if (lie_kind != LIE_SCAN) lie_count++;
    return fl_engine_filterlab.get(e, key, ctx, value, found);
}

static int lying_scan(fl_engine *e, fl_slice start, fl_slice end, fl_scan_fn fn, void *arg) {
    if (lie_kind == LIE_SCAN) lie_count++;
    return fl_engine_filterlab.scan(e, start, end, fn, arg);
}

static int lying_scan_prefix(fl_engine *e, fl_slice prefix, const fl_filter_context *ctx, fl_scan_fn fn,
                             void *arg) {
    if (lie_kind == LIE_SEEKS) lie_count++;
    return fl_engine_filterlab.scan_prefix(e, prefix, ctx, fn, arg);
}

static void lying_metrics(const fl_engine *e, fl_metrics *out) {
    metrics_without_fp(e, out);
    switch (lie_kind) {
    case LIE_NEGATIVES:      out->point.negative += 10 * lie_count; out->point.considered += 10 * lie_count; break;
    case LIE_SCAN:           out->prefix.negative += lie_count; out->prefix.considered += lie_count; break;
    case LIE_MEMTABLE:       out->point.memtable_negative += lie_count; break;
    case LIE_FALSE_POSITIVE: out->point.positive += lie_count; out->point.considered += lie_count;
                             out->point.false_positive += lie_count; break;
    case LIE_SEEKS:          out->prefix.negative += lie_count; out->prefix.considered += lie_count;
                             out->prefix.seeks += 3 * lie_count; break;
    }
}

static int lying_multiget(fl_engine *e, size_t n, const fl_slice *keys, const fl_filter_context *ctx,
                          fl_buf *values, bool *found) {
    return multiget_through(lying_get, e, n, keys, ctx, values, found);
}

static int run_liar(int kind, const char *text, seen *s) {
    fl_engine_ops eng = untraced();
    eng.get = lying_get;
    eng.multiget = lying_multiget;
    eng.scan = lying_scan;
    eng.scan_prefix = lying_scan_prefix;
    eng.metrics = lying_metrics;
    lie_kind = kind;
    lie_count = 0;
    fl_check_summary sum;
    return run(&eng, text, &sum, s);
}

static const char *const SMALL =
    "filterlab-workload 1\n"
    "open policies=\"bloom(bits=10)\" memtable_bytes=100000\n"
    "put a 1\nput b 2\nflush\n"
    "put c 3\n"
    "get c\n"                         /* line 7: in the memtable */
    "get a\n"                         /* line 8: in one SST      */
    "scan a z\n";                     /* line 9                  */

FL_TEST(untraced_catches_lying_counters) {
    seen s;
    CHECK_OK(run_liar(LIE_NEGATIVES, SMALL, &s));
    CHECK_EQ(s.property, FL_P3);
    CHECK_EQ(s.line, 7);
    CHECK_CONTAINS(s.msg, "could probe only");

    CHECK_OK(run_liar(LIE_SCAN, SMALL, &s));
    CHECK_EQ(s.property, FL_P3);
    CHECK_EQ(s.line, 9);
    CHECK_CONTAINS(s.msg, "total order");

    CHECK_OK(run_liar(LIE_FALSE_POSITIVE, SMALL, &s));
    CHECK_EQ(s.property, FL_P3);
    CHECK_EQ(s.line, 7);
    CHECK_CONTAINS(s.msg, "cannot know");

    /* a memtable filter saying no: a false negative while the memtable
     * holds c (line 7), nothing to say about a (line 8, flushed) */
    CHECK_OK(run_liar(LIE_MEMTABLE, SMALL, &s));
    CHECK_EQ(s.property, FL_P1);
    CHECK_EQ(s.line, 7);
    CHECK_EQ(s.count, 1);
    CHECK_CONTAINS(s.msg, "memtable holds that key");

    /* a prefix read over two L0 SSTs (three sources, the memtable one of
     * them) that says it made three seeks probes at most its two
     * candidates: only more seeks than sources are reseeks */
    static const char two_l0[] =
        "filterlab-workload 1\n"
        "open policies=\"bloom(bits=10,prefix=fixed:1)\" memtable_bytes=100000 l0_trigger=100\n"
        "put a1 1\nflush\nput a2 2\nflush\n"
        "scan_prefix a\n";                /* line 7 */
    CHECK_OK(run_liar(LIE_SEEKS, two_l0, &s));
    CHECK_EQ(s.property, FL_P3);
    CHECK_EQ(s.line, 7);
    CHECK_CONTAINS(s.msg, "3 SST filter probe(s) (1 said no), but this scan_prefix could probe only 2 of the 2 "
                          "live SST(s) in the seeks it made");

    /* the same lies in one multiget of c (in the memtable) and a */
    static const char multi[] =
        "filterlab-workload 1\n"
        "open policies=\"bloom(bits=10)\" memtable_bytes=100000\n"
        "put a 1\nput b 2\nflush\n"
        "put c 3\n"
        "multiget c a\n"                /* line 7 */
        "multiget a\n";                 /* line 8 */
    CHECK_OK(run_liar(LIE_NEGATIVES, multi, &s));
    CHECK_EQ(s.property, FL_P3);
    CHECK_EQ(s.line, 7);
    CHECK_CONTAINS(s.msg, "21 SST filter probe(s) (20 said no), but a multiget of 2 key(s) could probe "
                          "only 2: what a get of each could, of the 1 live SST(s)");
    CHECK_OK(run_liar(LIE_FALSE_POSITIVE, multi, &s));
    CHECK_EQ(s.property, FL_P3);
    CHECK_CONTAINS(s.msg, "cannot know");
    CHECK_OK(run_liar(LIE_MEMTABLE, multi, &s));
    CHECK_EQ(s.property, FL_P1);
    CHECK_EQ(s.line, 7);
    CHECK_EQ(s.count, 1);
    CHECK_CONTAINS(s.msg, "line 7 multiget: the memtable filter said no 2 time(s), but the memtable holds 1 "
                          "of the 2 key(s)");
}

/* P2 on gets, traced engine: a get of a key never written is answered
 * "none" for the model from the written-key set alone; an engine that
 * finds such a key anyway (or a deleted one, or loses a written one) is
 * still caught, each at its line. */
typedef enum phantom_kind { PHANTOM_NEVER_WRITTEN, PHANTOM_DELETED, PHANTOM_LOST } phantom_kind;
static phantom_kind phantom;

static int phantom_get(fl_engine *e, fl_slice key, const fl_filter_context *ctx, fl_buf *value, bool *found) {
    int rc = fl_engine_filterlab.get(e, key, ctx, value, found);
    const char *k = phantom == PHANTOM_NEVER_WRITTEN ? "zz" : phantom == PHANTOM_DELETED ? "b" : "a";
    if (rc || key.len != strlen(k) || memcmp(key.data, k, key.len) != 0) return rc;
    *found = phantom != PHANTOM_LOST;
    value->len = 0;
    return *found ? fl_buf_append(value, "boo", 3) : FL_OK;
}

static int phantom_multiget(fl_engine *e, size_t n, const fl_slice *keys, const fl_filter_context *ctx,
                            fl_buf *values, bool *found) {
    return multiget_through(phantom_get, e, n, keys, ctx, values, found);
}

FL_TEST(checker_p2_catches_phantom_and_lost_keys) {
    static const char text[] =
        "filterlab-workload 1\n"
        "open policies=\"bloom(bits=10)\"\n"
        "put a 1\n"
        "put b 2\n"
        "flush\n"
        "del b\n"
        "get a\n"
        "get b\n"
        "get zz\n";
    fl_engine_ops eng = fl_engine_filterlab;
    eng.name = "filterlab-phantom";
    eng.get = phantom_get;
    fl_check_summary sum;
    seen s;
    static const unsigned lines[] = { 9, 8, 7 };
    static const char *const what[] = { "the engine returned boo, the model none",
                                        "the engine returned boo, the model none",
                                        "the engine returned none, the model 1" };
    for (int p = PHANTOM_NEVER_WRITTEN; p <= PHANTOM_LOST; p++) {
        phantom = (phantom_kind)p;
        CHECK_OK(run(&eng, text, &sum, &s));
        CHECK_EQ(s.property, FL_P2);
        CHECK_EQ(s.line, lines[p]);
        CHECK_CONTAINS(s.msg, what[p]);
    }
    /* and in a multiget: read key by key (the traced engine), each a get
     * named by the multiget; read at once (an engine without a trace), the
     * finding names the key */
    static const char multi[] =
        "filterlab-workload 1\n"
        "open policies=\"bloom(bits=10)\"\n"
        "put a 1\n"
        "put b 2\n"
        "flush\n"
        "del b\n"
        "multiget a b zz\n";
    static const char *const by_get[] = { "line 7 multiget zz: the engine returned boo, the model none",
                                          "line 7 multiget b: the engine returned boo, the model none",
                                          "line 7 multiget a: the engine returned none, the model 1" };
    static const char *const at_once[] = { "line 7 multiget: key zz: the engine returned boo, the model none",
                                           "line 7 multiget: key b: the engine returned boo, the model none",
                                           "line 7 multiget: key a: the engine returned none, the model 1" };
    fl_engine_ops batched = untraced();
    batched.get = phantom_get;
    batched.multiget = phantom_multiget;
    for (int p = PHANTOM_NEVER_WRITTEN; p <= PHANTOM_LOST; p++) {
        phantom = (phantom_kind)p;
        CHECK_OK(run(&eng, multi, &sum, &s));
        CHECK_EQ(s.count, 1);
        CHECK_CONTAINS(s.msg, by_get[p]);
        CHECK_OK(run(&batched, multi, &sum, &s));
        CHECK_EQ(s.count, 1);
        CHECK_CONTAINS(s.msg, at_once[p]);
    }
}

/* P2 on scans, compared as the engine's items come: an engine that drops
 * an item, adds one, ends early or changes a value is caught with the
 * words of the item-by-item comparison. */
typedef enum scan_lie { LIE_DROP, LIE_EXTRA, LIE_VALUE } scan_lie;
static scan_lie scan_lie_kind;
typedef struct lie_fwd { fl_scan_fn fn; void *arg; int n; } lie_fwd;

static int lie_item(void *arg, fl_slice key, fl_slice value) {
    lie_fwd *f = arg;
    f->n++;
    if (scan_lie_kind == LIE_DROP && f->n == 2) return 0;
    if (scan_lie_kind == LIE_VALUE && f->n == 2) value = (fl_slice){ (const uint8_t *)"X", 1 };
    int stop = f->fn(f->arg, key, value);
    if (!stop && scan_lie_kind == LIE_EXTRA && f->n == 3)
        stop = f->fn(f->arg, (fl_slice){ (const uint8_t *)"pz", 2 }, (fl_slice){ (const uint8_t *)"9", 1 });
    return stop;
}

static int lie_scan_prefix(fl_engine *e, fl_slice prefix, const fl_filter_context *ctx, fl_scan_fn fn, void *arg) {
    lie_fwd f = { fn, arg, 0 };
    return fl_engine_filterlab.scan_prefix(e, prefix, ctx, lie_item, &f);
}

static int lie_scan(fl_engine *e, fl_slice start, fl_slice end, fl_scan_fn fn, void *arg) {
    lie_fwd f = { fn, arg, 0 };
    return fl_engine_filterlab.scan(e, start, end, lie_item, &f);
}

FL_TEST(checker_p2_scans_compared_as_they_come) {
    static const char text[] =
        "filterlab-workload 1\n"
        "open policies=\"bloom(bits=10,prefix=fixed:1)\"\n"
        "put pa 1\n"
        "put pb 2\n"
        "put pc 3\n"
        "flush\n"
        "put q 4\n"
        "scan_prefix p\n"
        "scan pa q\n";
    fl_engine_ops eng = fl_engine_filterlab;
    eng.name = "filterlab-scan-liar";
    eng.scan_prefix = lie_scan_prefix;
    eng.scan = lie_scan;
    fl_check_summary sum;
    seen s;
    static const char *const what[] = {
        "item 2: the engine returned pc=3, the model pb=2",
        "the engine returned 4 item(s), the model 3",
        "item 2: the engine returned pb=X, the model pb=2",
    };
    for (int l = LIE_DROP; l <= LIE_VALUE; l++) {
        scan_lie_kind = (scan_lie)l;
        CHECK_OK(run(&eng, text, &sum, &s));
        CHECK_EQ(s.property, FL_P2);
        CHECK_EQ(s.line, 8);
        CHECK_EQ(s.count, 2);                   /* the scan on line 9 too */
        CHECK_CONTAINS(s.msg, what[l]);
    }
    /* an engine whose scan ends early: the model's next item is named */
    static const char early[] =
        "filterlab-workload 1\n"
        "open policies=\"bloom(bits=10,prefix=fixed:1)\"\n"
        "put pa 1\n"
        "put pb 2\n"
        "scan_prefix p\n";
    scan_lie_kind = LIE_DROP;
    CHECK_OK(run(&eng, early, &sum, &s));
    CHECK_EQ(s.property, FL_P2);
    CHECK_EQ(s.line, 5);
    CHECK_CONTAINS(s.msg, "the engine's result ends after 1 item(s); the model has pb next");
    /* the finding names the scan by its line and both its bounds */
    scan_lie_kind = LIE_VALUE;
    static const char bounds[] = "filterlab-workload 1\nopen\nput pa 1\nput pb 2\nscan pa \"q r\"\n";
    CHECK_OK(run(&eng, bounds, &sum, &s));
    CHECK_EQ(s.count, 1);
    CHECK_CONTAINS(s.msg, "line 5 scan pa \"q r\": item 2: the engine returned pb=X, the model pb=2");
    /* and a clean scan is clean */
    static const char clean[] = "filterlab-workload 1\nopen\nput pa 1\nscan_prefix p\nscan a z\n";
    CHECK_OK(run(&eng, clean, &sum, &s));
    CHECK_EQ(s.count, 0);
}

/* P6 on the SST truth: the key range an SST's info block gives (by which
 * the engine's reads pick it) must cover its entries and its range
 * tombstones' keys, and its entries must come in order (the truth's
 * bisections rely on it).  An engine whose SST list narrows the largest
 * key of each SST -- to a key just below the last entry, or, with a range
 * tombstone, below its end -- and one whose SST entries come with the first
 * two swapped, are caught when the SST appears; the real engine is not. */
typedef enum range_lie { RANGE_TRUE, RANGE_NARROW, RANGE_INCLUSIVE, RANGE_SWAP } range_lie;
static range_lie range_lie_kind;

/* NARROW: the largest key one byte shorter (a prefix: below the key
 * itself); INCLUSIVE: the same, and inclusive -- "b" for an exclusive
 * "b\0", which covers the same keys. */
static int narrow_ssts(const fl_engine *e, fl_sst_meta **out, size_t *count) {
    int rc = fl_engine_filterlab.ssts(e, out, count);
    for (size_t i = 0; rc == FL_OK && (range_lie_kind == RANGE_NARROW || range_lie_kind == RANGE_INCLUSIVE) &&
                       i < *count; i++) {
        fl_sst_meta *m = &(*out)[i];
        if (m->largest_len) m->largest_len--;
        if (range_lie_kind == RANGE_INCLUSIVE) m->largest_exclusive = false;
    }
    return rc;
}

typedef struct swap_fwd { fl_entry_fn fn; void *arg; size_t n; fl_row_entry first; uint8_t key[64]; } swap_fwd;

static int swap_entry(void *arg, const fl_row_entry *e) {
    swap_fwd *f = arg;
    if (++f->n == 1 && e->key.len <= sizeof f->key) {      /* held back: goes after the second */
        f->first = *e;
        memcpy(f->key, e->key.data, e->key.len);
        f->first.key.data = f->key;
        return 0;
    }
    int stop = f->fn(f->arg, e);
    if (!stop && f->n == 2) stop = f->fn(f->arg, &f->first);
    return stop;
}

static int swap_sst_entries(fl_engine *e, uint64_t id, fl_entry_fn fn, void *arg) {
    if (range_lie_kind != RANGE_SWAP) return fl_engine_filterlab.sst_entries(e, id, fn, arg);
    swap_fwd f = { .fn = fn, .arg = arg };
    int rc = fl_engine_filterlab.sst_entries(e, id, swap_entry, &f);
    if (rc == FL_OK && f.n == 1) fn(arg, &f.first);         /* one entry: nothing to swap */
    return rc;
}

FL_TEST(checker_p6_sst_key_range_covers_its_entries) {
    fl_engine_ops eng = fl_engine_filterlab;
    eng.name = "filterlab-range-liar";
    eng.ssts = narrow_ssts;
    eng.sst_entries = swap_sst_entries;
    fl_check_summary sum;
    seen s;
    static const char puts[] =
        "filterlab-workload 1\nopen policies=\"bloom(bits=10)\"\nput a1 1\nput a2 2\nput a3 3\nflush\nget a3\n";
    static const char tomb[] =
        "filterlab-workload 1\nopen policies=\"bloom(bits=10)\"\nput a1 1\ndelrange a2 bb\nflush\nget a9\n";
    range_lie_kind = RANGE_TRUE;
    CHECK_OK(run(&eng, puts, &sum, &s));
    CHECK_EQ(s.count, 0);
    CHECK_OK(run(&eng, tomb, &sum, &s));
    CHECK_EQ(s.count, 0);
    range_lie_kind = RANGE_NARROW;
    CHECK_OK(run(&eng, puts, &sum, &s));
    CHECK_EQ(s.property, FL_P6);
    CHECK_EQ(s.line, 6);
    CHECK_CONTAINS(s.msg, "line 6 flush: sst 1's key range [a1, a], by which reads pick it, does not cover "
                          "its entry a3");
    CHECK_OK(run(&eng, tomb, &sum, &s));
    CHECK_EQ(s.property, FL_P6);
    CHECK_CONTAINS(s.msg, "line 5 flush: sst 1's key range [a1, b), by which reads pick it, does not cover the "
                          "keys of its range tombstone [a2, bb)");
    /* a tombstone ending at "b\0": an exclusive "b" leaves out its key b, an
     * inclusive "b" covers all it covers */
    static const char tomb_b0[] =
        "filterlab-workload 1\nopen policies=\"bloom(bits=10)\"\nput a1 1\ndelrange a2 \"b\\x00\"\nflush\nget a9\n";
    CHECK_OK(run(&eng, tomb_b0, &sum, &s));
    CHECK_EQ(s.property, FL_P6);
    CHECK_CONTAINS(s.msg, "sst 1's key range [a1, b), by which reads pick it, does not cover the keys of its range "
                          "tombstone [a2, \"b\\x00\")");
    range_lie_kind = RANGE_INCLUSIVE;
    CHECK_OK(run(&eng, tomb_b0, &sum, &s));
    CHECK_EQ(s.count, 0);
    CHECK_OK(run(&eng, tomb, &sum, &s));                /* "b" inclusive, a tombstone to "bb": not covered */
    CHECK_EQ(s.property, FL_P6);
    CHECK_CONTAINS(s.msg, "sst 1's key range [a1, b], by which reads pick it, does not cover the keys of its range "
                          "tombstone [a2, bb)");
    range_lie_kind = RANGE_SWAP;
    CHECK_OK(run(&eng, puts, &sum, &s));
    CHECK_EQ(s.property, FL_P6);
    CHECK_CONTAINS(s.msg, "line 6 flush: sst 1's entries are out of order: entry 2 (a1, seq 1) comes after "
                          "entry 1 (a2, seq 2)");
    range_lie_kind = RANGE_TRUE;
}

/* P6 at either end of a get's SSTs: an engine whose trace leaves out the
 * last SST the get needed, or shows the last one twice (one more than it
 * needed), is caught there -- besides P3, whose counters then disagree
 * with the trace. */
typedef enum trace_lie { TRACE_DROP_OLDEST, TRACE_REPEAT_OLDEST } trace_lie;
static trace_lie trace_lie_kind;
static fl_probe_fn real_trace;
static void *real_trace_arg;

static void lying_trace(void *arg, const fl_probe_event *ev) {
    (void)arg;
    bool oldest = ev->sst_id == 1;
    if (!(oldest && trace_lie_kind == TRACE_DROP_OLDEST)) real_trace(real_trace_arg, ev);
    if (oldest && trace_lie_kind == TRACE_REPEAT_OLDEST) real_trace(real_trace_arg, ev);
}

static void lying_set_probe_trace(fl_engine *e, fl_probe_fn fn, void *arg) {
    real_trace = fn;
    real_trace_arg = arg;
    fl_engine_filterlab.set_probe_trace(e, lying_trace, NULL);
}

FL_TEST(checker_p6_at_either_end_of_the_needed_ssts) {
    fl_engine_ops eng = fl_engine_filterlab;
    eng.name = "filterlab-trace-liar";
    eng.set_probe_trace = lying_set_probe_trace;
    static const char text[] =
        "filterlab-workload 1\nopen policies=\"bloom(bits=10)\" l0_trigger=100\n"
        "put a 1\nput e 1\nflush\nput b 1\nput d 1\nflush\n"
        "get c\n";                      /* line 9: needs sst 2, then sst 1 */
    fl_check_summary sum;
    seen s;
    trace_lie_kind = TRACE_DROP_OLDEST;
    CHECK_OK(run(&eng, text, &sum, &s));
    CHECK_CONTAINS(s.p6, "line 9 get c: sst 1 covers the query and was needed, but was not considered "
                         "(1 considered, 2 needed)");
    trace_lie_kind = TRACE_REPEAT_OLDEST;
    CHECK_OK(run(&eng, text, &sum, &s));
    CHECK_CONTAINS(s.p6, "line 9 get c: sst 1 was considered, but the read did not need it (3 considered, "
                         "2 needed)");
}
