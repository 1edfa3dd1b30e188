/*
 * rocksdb_bench.c -- the "rocksdb" group: filterlab beside RocksDB on the
 * same data, in one run.
 *
 * Both engines get the L0 shape of bench_internal.h: the same keys, the
 * same ten flushes (so ten L0 SSTs that all span the key range), no
 * compaction, no compression, a bloom at 6, 10 and 16 bits/key in turn
 * (RocksDB's full filter, format_version 5: its cache-local "fast local
 * bloom"), then the same gets of absent keys in the same order.  RocksDB's
 * C API has no bare filter to build or probe, so its filters are measured
 * where the C API reaches them, and filterlab's the same way.  Reported,
 * per bits/key:
 *   - the fill: the puts and the ten flushes that build the filters, per
 *     key, of each (once; the flushes are where the filters are built);
 *   - the FP rate per SST probe, filterlab's from its metrics and RocksDB's
 *     from its own tickers (rocksdb.bloom.filter.useful, .full.positive,
 *     .full.true.positive) in a pass with statistics on;
 *   - the time per get of each, interleaved run by run, statistics off,
 *     and filterlab / RocksDB as a ratio (target of issue 7: <= 1.0).
 *
 * RocksDB is reached through its C API (rocksdb/c.h), linked at build time
 * like the RocksDB engine (adapters/rocksdb/rocksdb_engine.c): the Makefile
 * compiles this file with FL_HAVE_ROCKSDB when librocksdb-dev is
 * installed.  Without it the group is skipped with the engine's message
 * (fl_rocksdb_unavailable).  RocksDB keeps its default block cache; a get it
 * filters out reads no block in either engine, and 99% of these gets are
 * filtered out.
 */
#include "bench_internal.h"

#ifdef FL_HAVE_ROCKSDB

#include <rocksdb/c.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

/* ---- RocksDB with the L0 shape -------------------------------------------- */

typedef struct rocks {
    rocksdb_options_t *opt;
    rocksdb_block_based_table_options_t *table;
    rocksdb_t *db;
    rocksdb_readoptions_t *read;
} rocks;

static void rocks_close(rocks *r) {
    if (r->db) rocksdb_close(r->db);
    if (r->read) rocksdb_readoptions_destroy(r->read);
    if (r->opt) rocksdb_options_destroy(r->opt);
    if (r->table) rocksdb_block_based_options_destroy(r->table);
    memset(r, 0, sizeof *r);
}

static int rocks_open(fl_bench *b, const char *dir, unsigned bits, bool stats, rocks *r) {
    char *err = NULL;
    memset(r, 0, sizeof *r);
    r->opt = rocksdb_options_create();
    r->table = rocksdb_block_based_options_create();
    rocksdb_block_based_options_set_filter_policy(r->table, rocksdb_filterpolicy_create_bloom_full(bits));
    rocksdb_block_based_options_set_format_version(r->table, 5);
    rocksdb_options_set_block_based_table_factory(r->opt, r->table);
    rocksdb_options_set_create_if_missing(r->opt, 1);
    rocksdb_options_set_disable_auto_compactions(r->opt, 1);
    rocksdb_options_set_compression(r->opt, rocksdb_no_compression);
    rocksdb_options_set_write_buffer_size(r->opt, (size_t)1 << 30);
    rocksdb_options_set_level0_file_num_compaction_trigger(r->opt, 1000);
    rocksdb_options_set_level0_slowdown_writes_trigger(r->opt, 1000);
    rocksdb_options_set_level0_stop_writes_trigger(r->opt, 1000);
    if (stats) rocksdb_options_enable_statistics(r->opt);
    r->db = rocksdb_open(r->opt, dir, &err);
    if (!r->db) {
        fl_bench_fail(b, "rocksdb: opening %s: %s", dir, err ? err : "?");
        rocksdb_free(err);
        rocks_close(r);
        return -1;
    }
    r->read = rocksdb_readoptions_create();
    return 0;
}

static int rocks_fill(fl_bench *b, rocks *r) {
    rocksdb_writeoptions_t *w = rocksdb_writeoptions_create();
    rocksdb_flushoptions_t *fo = rocksdb_flushoptions_create();
    rocksdb_writeoptions_disable_WAL(w, 1);
    rocksdb_flushoptions_set_wait(fo, 1);
    uint64_t n = fl_bench_l0_keys(b);
    uint8_t key[16];
    char *err = NULL;
    for (unsigned s = 0; s < FL_BENCH_L0_SSTS && !err; s++) {
        for (uint64_t j = s; j < n && !err; j += FL_BENCH_L0_SSTS) {
            size_t len = fl_bench_l0_key(2 * j, key);
            rocksdb_put(r->db, w, (const char *)key, len, "v", 1, &err);
        }
        if (!err) rocksdb_flush(r->db, fo, &err);
    }
    rocksdb_writeoptions_destroy(w);
    rocksdb_flushoptions_destroy(fo);
    if (err) {
        fl_bench_fail(b, "rocksdb: writing: %s", err);
        rocksdb_free(err);
        return -1;
    }
    char *l0 = rocksdb_property_value(r->db, "rocksdb.num-files-at-level0");
    int files = l0 ? atoi(l0) : -1;
    rocksdb_free(l0);
    if (files != FL_BENCH_L0_SSTS)
        return fl_bench_fail(b, "rocksdb: expected %d L0 files, RocksDB has %d", FL_BENCH_L0_SSTS, files);
    return 0;
}

/* The absent gets of fl_bench_l0_gets, in the same order: seconds or -1. */
static double rocks_gets(rocks *r, uint64_t n, uint64_t *found) {
    uint8_t key[16];
    uint64_t gets = n - 1, hits = 0;
    double t0 = fl_now();
    for (uint64_t i = 0; i < gets; i++) {
        uint64_t j = (i * 7919u) % gets;           /* fl_bench_l0_gets' stride */
        size_t len = fl_bench_l0_key(2 * j + 1, key), vlen;
        char *err = NULL;
        char *v = rocksdb_get(r->db, r->read, (const char *)key, len, &vlen, &err);
        if (err) { rocksdb_free(err); return -1; }
        if (v) { hits++; rocksdb_free(v); }
    }
    double t = fl_now() - t0;
    *found = hits;
    return t;
}

/* A ticker's COUNT from the statistics string, or -1. */
static double ticker(const char *stats, const char *name) {
    size_t len = strlen(name);
    for (const char *p = stats; (p = strstr(p, name)) != NULL; p += len)
        if ((p == stats || p[-1] == '\n') && p[len] == ' ') {
            const char *c = strstr(p, "COUNT : ");
            return c ? strtod(c + 8, NULL) : -1;
        }
    return -1;
}

/* ---- The group ------------------------------------------------------------- */

static int one_size(fl_bench *b, unsigned bits) {
    uint64_t n = fl_bench_l0_keys(b);
    unsigned runs = b->cfg->runs;
    char fdir[4200], rdir[4200], name[96];
    fl_registry *reg = NULL;
    fl_db *db = NULL;
    rocks r = { 0 };
    double *tf = calloc(runs, sizeof(double)), *tr = calloc(runs, sizeof(double)), *ratio = calloc(runs, sizeof(double));
    int rc = -1;
    fl_bench_dbdir(b, "rocksdb-fl", fdir, sizeof fdir);
    fl_bench_dbdir(b, "rocksdb-rocks", rdir, sizeof rdir);
    fl_bench_progress(b, "rocksdb: %llu keys in %u L0 SSTs in both engines at %u bits/key, absent gets x%u",
                      (unsigned long long)n, FL_BENCH_L0_SSTS, bits, runs);
    if (!tf || !tr || !ratio) { fl_bench_fail(b, "rocksdb: out of memory"); goto done; }
    if (fl_registry_new(&reg) != FL_OK) { fl_bench_fail(b, "rocksdb: out of memory"); goto done; }
    double ffill, rfill;
    if (fl_bench_l0_open(b, fdir, reg, bits, &ffill, &db)) goto done;

    /* FP rates: one pass each, RocksDB with statistics on. */
    if (rocks_open(b, rdir, bits, true, &r)) goto done;
    double t0 = fl_now();
    if (rocks_fill(b, &r)) goto done;
    rfill = fl_now() - t0;
    uint64_t found;
    fl_metrics m0, m1;
    fl_db_metrics(db, &m0);
    if (fl_bench_l0_gets(db, n, false, &found) < 0 || found) { fl_bench_fail(b, "rocksdb: filterlab get failed"); goto done; }
    fl_db_metrics(db, &m1);
    if (rocks_gets(&r, n, &found) < 0 || found) { fl_bench_fail(b, "rocksdb: RocksDB get failed"); goto done; }
    char *stats = rocksdb_options_statistics_get_string(r.opt);
    double useful = stats ? ticker(stats, "rocksdb.bloom.filter.useful") : -1;
    double positive = stats ? ticker(stats, "rocksdb.bloom.filter.full.positive") : -1;
    double truepos = stats ? ticker(stats, "rocksdb.bloom.filter.full.true.positive") : -1;
    rocksdb_free(stats);
    if (useful < 0 || positive < 0 || truepos < 0) { fl_bench_fail(b, "rocksdb: no bloom tickers in RocksDB's statistics"); goto done; }
    rocks_close(&r);
    fl_filter_counters c = m1.point;
    c.false_positive -= m0.point.false_positive;
    c.negative -= m0.point.negative;
    double rfp = positive - truepos;
    snprintf(name, sizeof name, "fill (puts and 10 flushes) at %u bits/key: filterlab", bits);
    fl_bench_add(b, "rocksdb", name, ffill / (double)n * 1e9, "ns/key");
    snprintf(name, sizeof name, "fill (puts and 10 flushes) at %u bits/key: RocksDB", bits);
    fl_bench_add(b, "rocksdb", name, rfill / (double)n * 1e9, "ns/key");
    snprintf(name, sizeof name, "FP rate per SST probe: filterlab bloom(bits=%u)", bits);
    fl_bench_add(b, "rocksdb", name, fl_bench_fp_rate(&c), "%");
    snprintf(name, sizeof name, "FP rate per SST probe: RocksDB full filter at %u bits (tickers)", bits);
    fl_bench_add(b, "rocksdb", name, useful + rfp > 0 ? 100.0 * rfp / (useful + rfp) : 0, "%");
    snprintf(name, sizeof name, "  RocksDB filter probes (useful + positive) at %u bits/key", bits);
    fl_bench_add(b, "rocksdb", name, useful + positive, "probes");
    snprintf(name, sizeof name, "  filterlab filter probes at %u bits/key", bits);
    fl_bench_add(b, "rocksdb", name, (double)(c.negative + (m1.point.positive - m0.point.positive)), "probes");

    /* Time per get, statistics off, interleaved. */
    if (rocks_open(b, rdir, bits, false, &r)) goto done;
    for (unsigned i = 0; i < runs; i++) {
        double a = fl_bench_l0_gets(db, n, false, &found);
        double z = rocks_gets(&r, n, &found);
        if (a < 0 || z < 0) { fl_bench_fail(b, "rocksdb: a get failed"); goto done; }
        tf[i] = a / (double)(n - 1) * 1e9;
        tr[i] = z / (double)(n - 1) * 1e9;
        ratio[i] = a / z;
    }
    double mf = fl_bench_median(tf, runs), mr = fl_bench_median(tr, runs), mx = fl_bench_median(ratio, runs);
    snprintf(name, sizeof name, "get absent over 10 L0 SSTs at %u bits/key: filterlab", bits);
    fl_bench_add(b, "rocksdb", name, mf, "ns/get");
    snprintf(name, sizeof name, "get absent over 10 L0 SSTs at %u bits/key: RocksDB", bits);
    fl_bench_add(b, "rocksdb", name, mr, "ns/get");
    snprintf(name, sizeof name, "get absent at %u bits/key: filterlab / RocksDB (median of ratios)", bits);
    fl_bench_add_target(b, "rocksdb", name, mx, "x", "<= 1.0", mx <= 1.0);
    rc = 0;
done:
    rocks_close(&r);
    if (db) fl_db_close(db, NULL, 0);
    if (reg) fl_registry_free(reg);
    fl_remove_tree(fdir);
    fl_remove_tree(rdir);
    free(tf); free(tr); free(ratio);
    return rc;
}

/* The hunt's pace: `check --engine rocksdb --known adapters/rocksdb/
 * known.txt --avoid-known`, one worker per CPU, for the target of
 * 20 trials per second on 2 cores; and the same on LevelDB beside it.
 * Each the median of up to HUNT_RUNS runs (--runs, at most that: each
 * run takes the whole check time). */
#define HUNT_RUNS 3

static int hunt_runs(fl_bench *b, const char *const *extra, double secs, unsigned n, double *rate, double *ops) {
    double r[HUNT_RUNS], o[HUNT_RUNS];
    for (unsigned i = 0; i < n; i++)
        if (fl_bench_check_rate(b, "rocksdb", extra, secs, &r[i], &o[i])) return -1;
    *rate = fl_bench_median(r, n);
    *ops = fl_bench_median(o, n);
    return 0;
}

static int hunt_rate(fl_bench *b) {
    double secs = b->cfg->check_seconds ? b->cfg->check_seconds : b->cfg->quick ? 3 : 20;
    unsigned n = b->cfg->runs < HUNT_RUNS ? (b->cfg->runs ? b->cfg->runs : 1) : HUNT_RUNS;
    char known[4200];
    const char *src = getenv("FL_SRCDIR");
    snprintf(known, sizeof known, "%s/adapters/rocksdb/known.txt", src ? src : ".");
    const char *extra[] = { "--engine", "rocksdb", "--known", known, "--avoid-known", NULL };
    double r, o;
    if (hunt_runs(b, extra, secs, n, &r, &o)) return -1;
    fl_bench_add_target(b, "rocksdb", "check --engine rocksdb --known --avoid-known: trials per second", r,
                        "trials/s", ">= 20 trials/s", r >= 20);
    fl_bench_add(b, "rocksdb", "check --engine rocksdb --known --avoid-known: ops per second", o, "ops/s");
    fl_bench_note(b, "rocksdb", "the hunts ran %.0f s each, the median of %u run(s), one worker per CPU (%ld)", secs,
                  n, sysconf(_SC_NPROCESSORS_ONLN));
    if (!fl_leveldb_unavailable()) {
        const char *lx[] = { "--engine", "leveldb", NULL };
        if (hunt_runs(b, lx, secs, n, &r, &o)) return -1;
        fl_bench_add(b, "rocksdb", "check --engine leveldb: trials per second (beside it)", r, "trials/s");
    }
    return 0;
}

int fl_bench_rocksdb(fl_bench *b) {
    static const unsigned bits[] = { 6, 10, 16 };
    for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++)
        if (one_size(b, bits[i]) != 0) return -1;
    return hunt_rate(b);
}

#else /* !FL_HAVE_ROCKSDB */

int fl_bench_rocksdb(fl_bench *b) {
    fl_bench_note(b, "rocksdb", "skipped: %s", fl_rocksdb_unavailable());
    return 0;
}

#endif /* FL_HAVE_ROCKSDB */
