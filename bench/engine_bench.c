/*
 * engine_bench.c -- the "engine" group: reads through the whole engine.
 *
 *   get, 10 L0 SSTs   the L0 shape of bench_internal.h with bloom(bits=10):
 *                     every get of an absent key asks all ten filters, so
 *                     this is the cost of filtering on the read path; a get
 *                     of a present key reads one data block after asking
 *                     the filters of the newer SSTs.  Gets go in a fixed
 *                     stride order over the keys, not sequentially.
 *   scan_prefix       G groups of ten keys "g%05u:s%02u" (even groups only,
 *                     so odd groups are absent prefixes inside every SST's
 *                     range), written as 20 overlapping L0 SSTs, a group's
 *                     keys in 10 of them.  Once with a prefix-only bloom
 *                     (bloom(bits=10,prefix=fixed:7,whole_key=0)), once
 *                     with no filter: time per scan and SST reads per scan
 *                     (the engine's sst_reads metric).
 * The issue-7 target: with the prefix-only bloom, absent prefixes read at
 * most 2% of the SSTs the no-filter case reads.
 *
 * fl_bench_l0_open and fl_bench_l0_gets are shared with rocksdb_bench.c so
 * both engines see the same keys, flush points and gets.
 */
#include "bench_internal.h"

#include <stdlib.h>
#include <string.h>

#define STRIDE 7919u                   /* a prime: j = i * STRIDE mod n visits all */
#define SCAN_SSTS 20
#define GROUP_KEYS 10

/* ---- Opening ------------------------------------------------------------ */

static int open_db(fl_bench *b, const char *dir, const fl_registry *reg, const char *policies,
                   fl_db **out) {
    fl_options opt;
    char err[1024];
    fl_options_init(&opt);
    opt.sync = false;
    const char *kv[][2] = { { "policies", policies }, { "memtable_bytes", "1073741824" },
                            { "sst_bytes", "1073741824" }, { "l0_trigger", "1000000" },
                            { "max_runs", "1000000" } };
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
        if (fl_options_set(&opt, kv[i][0], kv[i][1], err, sizeof err) != FL_OK) {
            fl_options_free(&opt);
            return fl_bench_fail(b, "engine: %s", err);
        }
    int rc = fl_db_open(dir, reg, &opt, out, err, sizeof err);
    fl_options_free(&opt);
    return rc == FL_OK ? 0 : fl_bench_fail(b, "engine: opening %s: %s", dir, err);
}

static int db_fail(fl_bench *b, fl_db *db, const char *what) {
    int rc = fl_bench_fail(b, "engine: %s: %s", what, fl_db_errmsg(db));
    fl_db_close(db, NULL, 0);
    return rc;
}

int fl_bench_l0_open(fl_bench *b, const char *dir, const fl_registry *reg, unsigned bits,
                     double *fill_seconds, fl_db **out) {
    fl_db *db;
    char policies[32];
    snprintf(policies, sizeof policies, "bloom(bits=%u)", bits);
    if (open_db(b, dir, reg, policies, &db)) return -1;
    uint64_t n = fl_bench_l0_keys(b);
    uint8_t key[16];
    double t0 = fl_now();
    for (unsigned s = 0; s < FL_BENCH_L0_SSTS; s++) {
        for (uint64_t j = s; j < n; j += FL_BENCH_L0_SSTS) {
            size_t len = fl_bench_l0_key(2 * j, key);
            if (fl_db_put(db, (fl_slice){ key, len }, (fl_slice){ (const uint8_t *)"v", 1 }))
                return db_fail(b, db, "put");
        }
        if (fl_db_flush(db)) return db_fail(b, db, "flush");
    }
    if (fill_seconds) *fill_seconds = fl_now() - t0;
    *out = db;
    return 0;
}

double fl_bench_l0_gets(fl_db *db, uint64_t n, bool present, uint64_t *found_count) {
    fl_buf value;
    fl_buf_init(&value);
    uint8_t key[16];
    uint64_t gets = present ? n : n - 1, found = 0;
    double t0 = fl_now();
    for (uint64_t i = 0; i < gets; i++) {
        uint64_t j = (i * STRIDE) % gets;
        size_t len = fl_bench_l0_key(present ? 2 * j : 2 * j + 1, key);
        bool hit;
        if (fl_db_get(db, (fl_slice){ key, len }, NULL, &value, &hit) != FL_OK) {
            fl_buf_free(&value);
            return -1;
        }
        found += hit;
    }
    double t = fl_now() - t0;
    fl_buf_free(&value);
    *found_count = found;
    return t;
}

double fl_bench_fp_rate(const fl_filter_counters *c) {
    uint64_t eligible = c->false_positive + c->negative;
    return eligible ? 100.0 * (double)c->false_positive / (double)eligible : 0;
}

/* ---- get ------------------------------------------------------------------ */

static int bench_gets(fl_bench *b, const fl_registry *reg) {
    char dir[4200];
    fl_db *db;
    uint64_t n = fl_bench_l0_keys(b);
    fl_bench_dbdir(b, "engine-l0", dir, sizeof dir);
    fl_bench_progress(b, "engine: %llu keys in %u L0 SSTs, get absent and present x%u",
                      (unsigned long long)n, FL_BENCH_L0_SSTS, b->cfg->runs);
    if (fl_bench_l0_open(b, dir, reg, 10, NULL, &db)) return -1;
    unsigned runs = b->cfg->runs;
    double *absent = calloc(runs, sizeof(double)), *present = calloc(runs, sizeof(double));
    int rc = -1;
    if (!absent || !present) { fl_bench_fail(b, "engine: out of memory"); goto done; }
    fl_metrics m0, m1;
    fl_db_metrics(db, &m0);
    for (unsigned r = 0; r < runs; r++) {
        uint64_t found = 0;
        double t = fl_bench_l0_gets(db, n, false, &found);
        if (t < 0 || found) { fl_bench_fail(b, "engine: get of absent keys: %s", t < 0 ? fl_db_errmsg(db) : "found one"); goto done; }
        absent[r] = t / (double)(n - 1) * 1e9;
        if (r == 0) fl_db_metrics(db, &m1);
        t = fl_bench_l0_gets(db, n, true, &found);
        if (t < 0 || found != n) { fl_bench_fail(b, "engine: get of present keys: %s", t < 0 ? fl_db_errmsg(db) : "one missing"); goto done; }
        present[r] = t / (double)n * 1e9;
    }
    fl_bench_add(b, "engine", "get absent: 10 L0 SSTs with bloom(bits=10)", fl_bench_median(absent, runs), "ns/get");
    fl_filter_counters c = m1.point;
    c.false_positive -= m0.point.false_positive;
    c.negative -= m0.point.negative;
    fl_bench_add(b, "engine", "  point FP rate of those gets", fl_bench_fp_rate(&c), "%");
    fl_bench_add(b, "engine", "  SST reads per absent get",
                 (double)(m1.sst_reads - m0.sst_reads) / (double)(n - 1), "reads");
    fl_bench_add(b, "engine", "get present: 10 L0 SSTs with bloom(bits=10)", fl_bench_median(present, runs), "ns/get");
    rc = 0;
done:
    free(absent);
    free(present);
    fl_db_close(db, NULL, 0);
    fl_remove_tree(dir);
    return rc;
}

/* ---- scan_prefix ------------------------------------------------------------ */

static size_t group_key(unsigned g, unsigned s, uint8_t *out) {
    return (size_t)snprintf((char *)out, 16, "g%05u:s%02u", g, s);
}

static int build_groups(fl_bench *b, const char *dir, const fl_registry *reg, const char *policies,
                        unsigned groups, fl_db **out) {
    fl_db *db;
    if (open_db(b, dir, reg, policies, &db)) return -1;
    uint8_t key[16];
    for (unsigned sst = 0; sst < SCAN_SSTS; sst++) {
        for (unsigned g = 0; g < groups; g += 2)
            for (unsigned s = 0; s < GROUP_KEYS; s++)
                if ((g / 2 * 7 + s) % SCAN_SSTS == sst &&
                    fl_db_put(db, (fl_slice){ key, group_key(g, s, key) }, (fl_slice){ (const uint8_t *)"v", 1 }))
                    return db_fail(b, db, "put");
        if (fl_db_flush(db)) return db_fail(b, db, "flush");
    }
    *out = db;
    return 0;
}

static int count_entry(void *arg, fl_slice key, fl_slice value) {
    (void)key; (void)value;
    ++*(uint64_t *)arg;
    return 0;
}

/* One pass of scans over every present (odd = false) or absent group. */
static double scan_pass(fl_db *db, unsigned groups, bool absent, uint64_t *entries) {
    uint8_t prefix[16];
    unsigned half = groups / 2;
    double t0 = fl_now();
    for (unsigned i = 0; i < half; i++) {
        unsigned g = 2 * ((i * STRIDE) % half) + absent;
        int len = snprintf((char *)prefix, sizeof prefix, "g%05u:", g);
        if (fl_db_scan_prefix(db, (fl_slice){ prefix, (size_t)len }, NULL, count_entry, entries) != FL_OK)
            return -1;
    }
    return fl_now() - t0;
}

static int bench_scans(fl_bench *b, const fl_registry *reg) {
    static const struct { const char *label, *policies; } modes[2] = {
        { "prefix-only bloom", "bloom(bits=10,prefix=fixed:7,whole_key=0)" },
        { "no filter", "none" },
    };
    unsigned groups = b->cfg->quick ? 2000 : 20000, half = groups / 2, runs = b->cfg->runs;
    fl_db *db[2] = { NULL, NULL };
    char dir[2][4200];
    double *t = calloc(4 * (size_t)runs, sizeof(double)), reads[2][2] = { { 0 } };
    int rc = -1;
    if (!t) return fl_bench_fail(b, "engine: out of memory");
    fl_bench_progress(b, "engine: %u groups of %u keys in %u L0 SSTs, scan_prefix x%u",
                      half, GROUP_KEYS, SCAN_SSTS, runs);
    for (int m = 0; m < 2; m++) {
        fl_bench_dbdir(b, m ? "engine-scan-none" : "engine-scan-prefix", dir[m], sizeof dir[m]);
        if (build_groups(b, dir[m], reg, modes[m].policies, groups, &db[m])) goto done;
    }
    for (unsigned r = 0; r < runs; r++)
        for (int m = 0; m < 2; m++)
            for (int absent = 0; absent < 2; absent++) {
                fl_metrics m0, m1;
                uint64_t entries = 0;
                fl_db_metrics(db[m], &m0);
                double s = scan_pass(db[m], groups, absent, &entries);
                fl_db_metrics(db[m], &m1);
                if (s < 0) { fl_bench_fail(b, "engine: scan_prefix: %s", fl_db_errmsg(db[m])); goto done; }
                if (entries != (absent ? 0 : (uint64_t)half * GROUP_KEYS)) {
                    fl_bench_fail(b, "engine: scan_prefix (%s) returned %llu entries", modes[m].label,
                                  (unsigned long long)entries);
                    goto done;
                }
                t[(size_t)(2 * m + absent) * runs + r] = s / half * 1e9;
                reads[m][absent] = (double)(m1.sst_reads - m0.sst_reads) / half;
            }
    for (int absent = 1; absent >= 0; absent--)
        for (int m = 0; m < 2; m++) {
            char name[96];
            snprintf(name, sizeof name, "scan_prefix %s: %s", absent ? "absent" : "present", modes[m].label);
            fl_bench_add(b, "engine", name, fl_bench_median(t + (size_t)(2 * m + absent) * runs, runs), "ns/scan");
            snprintf(name, sizeof name, "  SST reads per scan (of %d SSTs)", SCAN_SSTS);
            fl_bench_add(b, "engine", name, reads[m][absent], "reads");
        }
    double share = reads[1][1] > 0 ? 100.0 * reads[0][1] / reads[1][1] : 0;
    fl_bench_add_target(b, "engine", "absent prefixes: SST reads prefix-only / no filter", share, "%",
                        "<= 2%", share <= 2.0);
    rc = 0;
done:
    for (int m = 0; m < 2; m++)
        if (db[m]) { fl_db_close(db[m], NULL, 0); fl_remove_tree(dir[m]); }
    free(t);
    return rc;
}

int fl_bench_engine(fl_bench *b) {
    fl_registry *reg;
    if (fl_registry_new(&reg) != FL_OK) return fl_bench_fail(b, "engine: out of memory");
    int rc = bench_gets(b, reg);
    if (rc == 0) rc = bench_scans(b, reg);
    fl_registry_free(reg);
    return rc;
}
