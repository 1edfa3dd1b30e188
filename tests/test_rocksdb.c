/*
 * test_rocksdb.c -- the RocksDB engine (adapters/rocksdb/rocksdb_engine.c): each
 * row of the option table of docs/rocksdb.md ("Options"), read
 * back from what RocksDB itself recorded (its OPTIONS file, its table
 * properties, the live files); the configurations it refuses, each naming
 * the option; and its counters on reads whose probes are known exactly.
 * Built without RocksDB, only the refusal of every open is tested, with its
 * message.
 */
#include "test.h"
#include "../adapters/adapters.h"
#include "../adapters/rocksdb/rocksdb_internal.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define MISSING "filterlab was built without RocksDB: install librocksdb-dev " \
                "(apt-get install librocksdb-dev) and rebuild"

/* ---- Opening with options ---------------------------------------------------------- */

typedef struct opt_kv { const char *key, *value; } opt_kv;

/* opt (initialized here) with kv set, up to a NULL key: FL_OK or the
 * first refusal; free opt either way. */
static int options_with(fl_options *opt, const opt_kv *kv, char *err, size_t len) {
    fl_options_init(opt);
    int rc = FL_OK;
    for (size_t i = 0; kv && kv[i].key && rc == FL_OK; i++)
        rc = fl_options_set(opt, kv[i].key, kv[i].value, err, len);
    return rc;
}

static int open_with(const char *dir, fl_registry *reg, const opt_kv *kv, fl_engine **out, char *err,
                     size_t len) {
    fl_options opt;
    int rc = options_with(&opt, kv, err, len);
    if (rc == FL_OK) rc = fl_engine_rocksdb.open(&fl_engine_rocksdb, dir, reg, &opt, out, err, len);
    fl_options_free(&opt);
    return rc;
}

static const char *subdir(const char *name) {
    static char path[4200];
    snprintf(path, sizeof path, "%s/%s", fl_test_tmpdir(), name);
    return path;
}

/* rocksdb.* options in fl_options: kept raw, replaced when set again,
 * copied and freed with the rest. */
FL_TEST(rocksdb_options_are_kept_raw) {
    fl_options o, c;
    char err[256] = "";
    fl_options_init(&o);
    CHECK_OK(fl_options_set(&o, "rocksdb.filter", "ribbon", err, sizeof err));
    CHECK_OK(fl_options_set(&o, "rocksdb.anything_at_all", "x y", err, sizeof err));
    CHECK_OK(fl_options_set(&o, "rocksdb.filter", "bloom", err, sizeof err));
    CHECK_EQ(o.rocksdb_count, 2);
    CHECK_STR(o.rocksdb[0].key, "filter");
    CHECK_STR(o.rocksdb[0].value, "bloom");
    CHECK_STR(o.rocksdb[1].key, "anything_at_all");
    CHECK_RC(fl_options_set(&o, "rocksdb.", "1", err, sizeof err), FL_ERR_INVALID);
    CHECK_CONTAINS(err, "rocksdb.");
    CHECK_OK(fl_options_copy(&c, &o));
    fl_options_free(&o);
    CHECK_EQ(c.rocksdb_count, 2);
    CHECK_STR(c.rocksdb[1].value, "x y");
    fl_options_free(&c);
    CHECK_EQ(c.rocksdb_count, 0);
}

/* In workloads: any rocksdb.NAME with NAME of [a-z0-9_], once per op,
 * printed back as written. */
FL_TEST(rocksdb_option_keys_in_workloads) {
    static const char *const good =
        "filterlab-workload 1\n"
        "open policies=none rocksdb.partition_filters=1 rocksdb.x_9=\"a b\"\n"
        "reopen rocksdb.partition_filters=0\n";
    fl_workload w;
    char err[512] = "";
    memset(&w, 0, sizeof w);
    CHECK_EQ(fl_workload_parse(good, strlen(good), "t.wl", &w, err, sizeof err), 0);
    CHECK_EQ(w.count, 2);
    if (w.count == 2) {
        CHECK_EQ(w.ops[0].opt_count, 3);
        CHECK_STR(w.ops[0].opts[1].key, "rocksdb.partition_filters");
        CHECK_STR(w.ops[0].opts[2].value, "a b");
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        CHECK_OK(fl_workload_print(&w, f));
        fclose(f);
        CHECK_CONTAINS(text, "open policies=none rocksdb.partition_filters=1 rocksdb.x_9=\"a b\"\n");
        CHECK_CONTAINS(text, "reopen rocksdb.partition_filters=0\n");
        free(text);
    }
    fl_workload_free(&w);
    static const struct { const char *line, *says; } bad[] = {
        { "open rocksdb.=1", "an option key of open" },
        { "open rocksdb.Filter=1", "an option key of open" },
        { "open rocksdb.a-b=1", "an option key of open" },
        { "open rocksdbx=1", "an option key of open" },
        { "open rocksdb.a=1 rocksdb.a=2", "rocksdb.a twice" },
        { "open rocksdb.a=", "a value after \"rocksdb.a=\"" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "filterlab-workload 1\n%s\n", bad[i].line);
        memset(&w, 0, sizeof w);
        CHECK_EQ(fl_workload_parse(text, strlen(text), "t.wl", &w, err, sizeof err), -1);
        CHECK_CONTAINS(err, "t.wl:2:");
        CHECK_CONTAINS(err, bad[i].says);
        fl_workload_free(&w);
    }
    /* appending checks the same rules */
    fl_wl_option two[2] = { { "rocksdb.a", "1" }, { "rocksdb.a", "2" } };
    fl_op op = { .kind = FL_OP_OPEN, .opt_count = 2, .opts = two };
    memset(&w, 0, sizeof w);
    CHECK_EQ(fl_workload_add(&w, &op), -1);
    two[1].key = "rocksdb.b";
    CHECK_EQ(fl_workload_add(&w, &op), 0);
    fl_workload_free(&w);
}

FL_TEST(rocksdb_engine_is_listed) {
    CHECK(fl_engine_find("rocksdb") == &fl_engine_rocksdb);
    char names[256];
    fl_engine_names(names, sizeof names);
    CHECK_CONTAINS(names, "rocksdb");
}

/* The SST filter reader takes any bytes: what is not a block-based table
 * with a readable metaindex is FL_ERR_CORRUPT with the reason, never a
 * crash or a read out of bounds (the ASan build runs this too). */
FL_TEST(rocksdb_sst_filter_parse_rejects_bad_bytes) {
    fl_sst_filter f;
    char err[256];
    uint8_t buf[200] = { 0 };
    CHECK_RC(fl_rdb_sst_filter_parse(buf, 0, &f, err, sizeof err), FL_ERR_CORRUPT);
    CHECK_CONTAINS(err, "not a RocksDB block-based table");
    /* a footer with the magic number but handles out of the file */
    memset(buf, 0xff, sizeof buf);
    static const uint8_t magic[8] = { 0xf7, 0xcf, 0xf4, 0x85, 0xb7, 0x41, 0xe2, 0x88 };
    memcpy(buf + sizeof buf - 8, magic, 8);
    CHECK_RC(fl_rdb_sst_filter_parse(buf, sizeof buf, &f, err, sizeof err), FL_ERR_CORRUPT);
    CHECK_CONTAINS(err, "metaindex");
    /* every truncation and every one-byte change of a small table: no crash */
    uint64_t x = 1;
    for (int round = 0; round < 2000; round++) {
        for (size_t i = 0; i < sizeof buf - 8; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            buf[i] = (uint8_t)(x >> 56) & (round & 1 ? 0x7f : 0x03);
        }
        int rc = fl_rdb_sst_filter_parse(buf, sizeof buf, &f, err, sizeof err);
        CHECK(rc == FL_OK || rc == FL_ERR_CORRUPT);
    }
}

#ifndef FL_HAVE_ROCKSDB

FL_TEST(rocksdb_missing_says_how_to_get_it) {
    fl_registry *reg;
    CHECK_OK(fl_registry_new(&reg));
    fl_engine *e = NULL;
    char err[512] = "";
    CHECK_RC(open_with(subdir("db"), reg, NULL, &e, err, sizeof err), FL_ERR_NOTFOUND);
    CHECK(e == NULL);
    CHECK_STR(err, MISSING);
    CHECK_STR(fl_rocksdb_unavailable(), MISSING);
    fl_registry_free(reg);
}

#else /* FL_HAVE_ROCKSDB */

#include <rocksdb/c.h>

/* ---- What RocksDB recorded ------------------------------------------------------------ */

/* The text of the newest OPTIONS-NNNNNN file of dir (caller frees). */
static char *options_file(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return NULL;
    unsigned long best = 0;
    struct dirent *ent;
    while ((ent = readdir(d)))
        if (strncmp(ent->d_name, "OPTIONS-", 8) == 0) {
            unsigned long n = strtoul(ent->d_name + 8, NULL, 10);
            if (n > best) best = n;
        }
    closedir(d);
    char path[4400];
    snprintf(path, sizeof path, "%s/OPTIONS-%06lu", dir, best);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = calloc(1, 1 << 20);
    if (text) fread(text, 1, (1 << 20) - 1, f);
    fclose(f);
    return text;
}

/* Whether the OPTIONS file has the line "  setting". */
static bool recorded(const char *dir, const char *setting) {
    char *text = options_file(dir);
    char line[256];
    snprintf(line, sizeof line, "\n  %s\n", setting);
    bool yes = text && strstr(text, line);
    if (!yes) fprintf(stderr, "  %s: OPTIONS has no \"%s\"\n", dir, setting);
    free(text);
    return yes;
}

/* A number from RocksDB's aggregated table properties ("filter block size"). */
static double table_property(const char *dir, const char *name) {
    rocksdb_options_t *o = rocksdb_options_create();
    char *err = NULL, key[128];
    double v = -1;
    rocksdb_t *db = rocksdb_open_for_read_only(o, dir, 0, &err);
    if (db) {
        char *p = rocksdb_property_value(db, "rocksdb.aggregated-table-properties");
        snprintf(key, sizeof key, "%s=", name);
        const char *at = p ? strstr(p, key) : NULL;
        if (at) v = strtod(at + strlen(key), NULL);
        rocksdb_free(p);
        rocksdb_close(db);
    }
    rocksdb_free(err);
    rocksdb_options_destroy(o);
    return v;
}

/* Opens dir with kv, writes n keys ("key%06d", 8-byte values), flushes,
 * closes.  FL_OK or the first error (err says it). */
static int fill(const char *dir, const opt_kv *kv, int n, fl_metrics *m, char *err, size_t len) {
    fl_registry *reg;
    fl_engine *e = NULL;
    if (fl_registry_new(&reg) != FL_OK) return FL_ERR_NOMEM;
    int rc = open_with(dir, reg, kv, &e, err, len);
    for (int i = 0; i < n && rc == FL_OK; i++) {
        char k[32];
        snprintf(k, sizeof k, "key%06d", i);
        rc = fl_engine_rocksdb.put(e, (fl_slice){ (const uint8_t *)k, strlen(k) },
                                   (fl_slice){ (const uint8_t *)"01234567", 8 });
    }
    if (rc == FL_OK) rc = fl_engine_rocksdb.flush(e);
    if (e && m) fl_engine_rocksdb.metrics(e, m);
    if (e) {
        int rc2 = fl_engine_rocksdb.close(e, err, len);
        if (rc == FL_OK) rc = rc2;
    }
    fl_registry_free(reg);
    return rc;
}

/* ---- The option table, row by row -------------------------------------------------------- */

/* bloom(bits=B): RocksDB's full filter at B bits per key, format_version 5
 * (its cache-local bloom: 64-byte lines plus 5 bytes of metadata). */
FL_TEST(rocksdb_bloom_bits_per_key) {
    static const double bits[] = { 7.5, 10, 20 };
    char err[1024] = "";
    for (size_t i = 0; i < 3; i++) {
        char spec[64], name[32];
        snprintf(spec, sizeof spec, "bloom(bits=%g)", bits[i]);
        snprintf(name, sizeof name, "bits%zu", i);
        const char *dir = subdir(name);
        opt_kv kv[] = { { "policies", spec }, { "memtable_bytes", "100000000" }, { NULL, NULL } };
        CHECK_OK(fill(dir, kv, 1000, NULL, err, sizeof err));
        CHECK(recorded(dir, "filter_policy=bloomfilter"));
        CHECK(recorded(dir, "format_version=5"));
        CHECK(recorded(dir, "whole_key_filtering=true"));
        CHECK(recorded(dir, "prefix_extractor=nullptr"));
        CHECK_EQ(table_property(dir, "# entries for filter"), 1000);
        double size = table_property(dir, "filter block size"), want = bits[i] * 1000 / 8;
        CHECK(size >= want && size <= want + 64 + 5);
        printf("    bits=%g: filter block of %.0f bytes for 1000 keys\n", bits[i], size);
    }
}

FL_TEST(rocksdb_ribbon_and_none) {
    char err[1024] = "", rib[4200], none[4200];
    snprintf(rib, sizeof rib, "%s", subdir("ribbon"));
    snprintf(none, sizeof none, "%s", subdir("none"));
    opt_kv r[] = { { "policies", "bloom(bits=10)" }, { "rocksdb.filter", "ribbon" },
                   { "memtable_bytes", "100000000" }, { NULL, NULL } };
    opt_kv n[] = { { "policies", "none" }, { "memtable_bytes", "100000000" }, { NULL, NULL } };
    CHECK_OK(fill(rib, r, 1000, NULL, err, sizeof err));
    CHECK_OK(fill(none, n, 1000, NULL, err, sizeof err));
    CHECK(recorded(rib, "filter_policy=ribbonfilter"));
    double size = table_property(rib, "filter block size");
    CHECK(size > 0 && size < 10.0 * 1000 / 8);     /* ribbon: smaller than a bloom */
    CHECK(recorded(none, "filter_policy=nullptr"));
    CHECK_EQ(table_property(none, "filter block size"), 0);
}

/* prefix=: RocksDB's own FixedPrefix and CappedPrefix, filterlab's wrapped
 * for every other extractor or with rocksdb.extractor=wrapped; whole_key. */
FL_TEST(rocksdb_extractors_and_whole_key) {
    static const struct { const char *policies, *extra, *extractor, *whole; } rows[] = {
        { "bloom(bits=10,prefix=fixed:3)", NULL, "rocksdb.FixedPrefix.3", "true" },
        { "bloom(bits=10,prefix=capped:4,whole_key=0)", NULL, "rocksdb.CappedPrefix.4", "false" },
        { "bloom(bits=10,prefix=delim::)", NULL, "filterlab.delim:", "true" },
        { "bloom(bits=10,prefix=lastdelim:\\x2f,whole_key=0)", NULL, "filterlab.lastdelim/", "false" },
        { "bloom(bits=10,prefix=fixed:3)", "wrapped", "filterlab.fixed3", "true" },
        { "bloom(bits=10,prefix=capped:2)", "native", "rocksdb.CappedPrefix.2", "true" },
    };
    char err[1024] = "";
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char name[32], want[128];
        snprintf(name, sizeof name, "ex%zu", i);
        const char *dir = subdir(name);
        opt_kv kv[] = { { "policies", rows[i].policies }, { "rocksdb.extractor", rows[i].extra ? rows[i].extra : "native" },
                        { NULL, NULL } };
        CHECK_OK(fill(dir, kv, 10, NULL, err, sizeof err));
        if (err[0]) fprintf(stderr, "  %s: %s\n", rows[i].policies, err);
        snprintf(want, sizeof want, "prefix_extractor=%s", rows[i].extractor);
        CHECK(recorded(dir, want));
        snprintf(want, sizeof want, "whole_key_filtering=%s", rows[i].whole);
        CHECK(recorded(dir, want));
    }
}

/* sst_bytes, block_bytes, l0_trigger, the rocksdb.* settings, and what is
 * always set. */
FL_TEST(rocksdb_sizes_and_rocksdb_settings) {
    char err[1024] = "", dir[4200], plain[4200];
    snprintf(dir, sizeof dir, "%s", subdir("settings"));
    snprintf(plain, sizeof plain, "%s", subdir("plain"));
    opt_kv kv[] = {
        { "policies", "bloom(bits=10,prefix=fixed:2)" }, { "sst_bytes", "3000" }, { "block_bytes", "512" },
        { "l0_trigger", "7" }, { "rocksdb.partition_filters", "1" }, { "rocksdb.metadata_block_size", "128" },
        { "rocksdb.format_version", "4" }, { "rocksdb.memtable_prefix_bloom", "0.05" },
        { "rocksdb.memtable_whole_key_filtering", "1" }, { "rocksdb.optimize_filters_for_hits", "1" },
        { "rocksdb.cache_index_and_filter_blocks", "1" }, { "rocksdb.index_shortening", "none" },
        { NULL, NULL } };
    CHECK_OK(fill(dir, kv, 10, NULL, err, sizeof err));
    static const char *const want[] = {
        "target_file_size_base=3000", "block_size=512", "level0_file_num_compaction_trigger=7",
        "partition_filters=true", "index_type=kTwoLevelIndexSearch", "metadata_block_size=128",
        "format_version=4", "memtable_prefix_bloom_size_ratio=0.050000", "memtable_whole_key_filtering=true",
        "optimize_filters_for_hits=true", "cache_index_and_filter_blocks=true",
        "index_shortening=kNoShortening", "filter_policy=bloomfilter", /* merged, not replaced */
        /* always */
        "disable_auto_compactions=true", "max_background_jobs=1", "max_subcompactions=1",
        "compression=kNoCompression",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) CHECK(recorded(dir, want[i]));
    opt_kv none[] = { { "policies", "bloom(bits=10)" }, { NULL, NULL } };
    CHECK_OK(fill(plain, none, 10, NULL, err, sizeof err));
    static const char *const defaults[] = {
        "partition_filters=false", "index_type=kBinarySearch", "memtable_prefix_bloom_size_ratio=0.000000",
        "memtable_whole_key_filtering=false", "optimize_filters_for_hits=false",
        "cache_index_and_filter_blocks=false", "level0_file_num_compaction_trigger=4",
        "index_shortening=kShortenSeparators",
    };
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++) CHECK(recorded(plain, defaults[i]));
}

/* memtable_bytes: the engine flushes once that many bytes (key + value +
 * 24 per entry) were written; l0_trigger: then compacts L0 away. */
/* A child forked after this process opened RocksDB would hang in its
 * first flush (RocksDB's threads do not survive fork): it refuses to open,
 * saying why, instead. */
FL_TEST(rocksdb_refuses_to_open_after_fork) {
    fl_registry *reg;
    CHECK_OK(fl_registry_new(&reg));
    fl_engine *e = NULL;
    char err[1024] = "";
    CHECK_OK(open_with(subdir("before_fork"), reg, NULL, &e, err, sizeof err));
    if (e) fl_engine_rocksdb.close(e, err, sizeof err);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(10);
        int rc = open_with(subdir("after_fork"), reg, NULL, &e, err, sizeof err);
        _exit(rc == FL_ERR_INVALID && !e && strstr(err, "do not survive fork()") ? 0 : 1);
    }
    int status = -1;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    fl_registry_free(reg);
}

FL_TEST(rocksdb_flush_and_compaction_thresholds) {
    fl_registry *reg;
    CHECK_OK(fl_registry_new(&reg));
    fl_engine *e = NULL;
    char err[1024] = "";
    opt_kv kv[] = { { "memtable_bytes", "1000" }, { "l0_trigger", "2" }, { NULL, NULL } };
    CHECK_OK(open_with(subdir("thresholds"), reg, kv, &e, err, sizeof err));
    if (!e) { fl_registry_free(reg); return; }
    uint8_t value[100];
    memset(value, 'v', sizeof value);
    fl_metrics m;
    for (int i = 0; i < 16; i++) {
        char k[8];
        snprintf(k, sizeof k, "k%02d", i);           /* 3 + 100 + 24 = 127 bytes */
        CHECK_OK(fl_engine_rocksdb.put(e, (fl_slice){ (const uint8_t *)k, 3 }, (fl_slice){ value, sizeof value }));
        fl_engine_rocksdb.metrics(e, &m);
        CHECK_EQ(m.flushes, (uint64_t)(i + 1) / 8);    /* 8 x 127 = 1016 >= 1000 */
    }
    CHECK_EQ(m.compactions, 1);                        /* at the second flush */
    fl_sst_meta *metas;
    size_t n;
    CHECK_OK(fl_engine_rocksdb.ssts(e, &metas, &n));
    CHECK(n >= 1);
    for (size_t i = 0; i < n; i++) CHECK(metas[i].level >= 1);
    fl_sst_meta_free(metas, n);
    CHECK_OK(fl_engine_rocksdb.close(e, err, sizeof err));
    fl_registry_free(reg);
}

/* filterlab-only options at values that change nothing are accepted. */
FL_TEST(rocksdb_accepts_filterlab_only_options_that_change_nothing) {
    static const opt_kv rows[][4] = {
        { { "min_filter_keys", "0" }, { NULL, NULL } },
        { { "min_filter_keys", "1" }, { NULL, NULL } },
        { { "legacy_filters", "0" }, { NULL, NULL } },
        { { "max_runs", "9" }, { NULL, NULL } },
        { { "policies", "bloom(bits=8,prefix=fixed:2)" }, { "compactor", "bloom(bits=8,prefix=fixed:2)" }, { NULL, NULL } },
        { { "policies", "bloom(bits=8, prefix=fixed:2)" }, { "compactor", "bloom(prefix=fixed:2,bits=8.0)" }, { NULL, NULL } },
        { { "policies", "none" }, { "compactor", "none" }, { NULL, NULL } },
    };
    fl_registry *reg;
    CHECK_OK(fl_registry_new(&reg));
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char name[32], err[1024] = "";
        snprintf(name, sizeof name, "accept%zu", i);
        fl_engine *e = NULL;
        int rc = open_with(subdir(name), reg, rows[i], &e, err, sizeof err);
        CHECK_OK(rc);
        if (rc) fprintf(stderr, "  %s=%s: %s\n", rows[i][0].key, rows[i][0].value, err);
        if (e) CHECK_OK(fl_engine_rocksdb.close(e, err, sizeof err));
    }
    fl_registry_free(reg);
}

/* What RocksDB cannot express, and bad rocksdb.* settings: an error naming
 * the option (RocksDB's own message for what RocksDB refuses). */
FL_TEST(rocksdb_refuses_what_it_cannot_express) {
    static const struct { opt_kv kv[3]; int rc; const char *says[2]; } rows[] = {
        { { { "policies", "bloom(bits=10);bloom(bits=10,prefix=fixed:4,whole_key=0)" } }, FL_ERR_INVALID,
          { "policies=", "two policies at once" } },
        { { { "compactor", "bloom(bits=8)" } }, FL_ERR_INVALID, { "compactor=", "other policies" } },
        { { { "compactor", "none" } }, FL_ERR_INVALID, { "compactor=", "other policies" } },
        { { { "legacy_filters", "1" } }, FL_ERR_INVALID, { "legacy_filters=1", "Legacy" } },
        { { { "min_filter_keys", "2" } }, FL_ERR_INVALID, { "min_filter_keys=2", "every SST a filter" } },
        { { { "rocksdb.bloom_bits", "1" } }, FL_ERR_INVALID, { "unknown option rocksdb.bloom_bits", "known:" } },
        { { { "rocksdb.partition_filters", "2" } }, FL_ERR_INVALID, { "rocksdb.partition_filters", "0 or 1" } },
        { { { "rocksdb.metadata_block_size", "0" } }, FL_ERR_INVALID, { "rocksdb.metadata_block_size", "integer" } },
        { { { "rocksdb.format_version", "x" } }, FL_ERR_INVALID, { "rocksdb.format_version", "integer" } },
        { { { "rocksdb.memtable_prefix_bloom", "0.3" } }, FL_ERR_INVALID, { "rocksdb.memtable_prefix_bloom", "0.25" } },
        { { { "rocksdb.memtable_whole_key_filtering", "yes" } }, FL_ERR_INVALID,
          { "rocksdb.memtable_whole_key_filtering", "0 or 1" } },
        { { { "rocksdb.filter", "cuckoo" } }, FL_ERR_INVALID, { "rocksdb.filter", "bloom or ribbon" } },
        { { { "rocksdb.optimize_filters_for_hits", "on" } }, FL_ERR_INVALID,
          { "rocksdb.optimize_filters_for_hits", "0 or 1" } },
        { { { "rocksdb.cache_index_and_filter_blocks", "-1" } }, FL_ERR_INVALID,
          { "rocksdb.cache_index_and_filter_blocks", "0 or 1" } },
        { { { "rocksdb.extractor", "plugin" } }, FL_ERR_INVALID, { "rocksdb.extractor", "native or wrapped" } },
        { { { "rocksdb.index_shortening", "short" } }, FL_ERR_INVALID,
          { "rocksdb.index_shortening", "none, separators or successor" } },
        { { { "rocksdb.get", "batch" } }, FL_ERR_INVALID, { "rocksdb.get", "get or multiget" } },
        /* RocksDB's own word */
        { { { "rocksdb.format_version", "9" } }, FL_ERR_INVALID, { "RocksDB refused", "format_version" } },
    };
    fl_registry *reg;
    CHECK_OK(fl_registry_new(&reg));
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char name[32], err[1024] = "";
        snprintf(name, sizeof name, "refuse%zu", i);
        fl_engine *e = NULL;
        CHECK_RC(open_with(subdir(name), reg, rows[i].kv, &e, err, sizeof err), rows[i].rc);
        CHECK(e == NULL);
        if (e) fl_engine_rocksdb.close(e, NULL, 0);
        CHECK_CONTAINS(err, rows[i].says[0]);
        CHECK_CONTAINS(err, rows[i].says[1]);
    }
    fl_registry_free(reg);
}

/* ---- Gets through Get and through MultiGet --------------------------------------------- */

/* Which read path the last get of a present key took, from the perf
 * context the engine leaves behind on this thread (its counters stay
 * after it turns counting off): 'g' Get, 'm' MultiGet, '?' neither or both. */
static char last_read_path(void) {
    rocksdb_perfcontext_t *pc = rocksdb_perfcontext_create();
    uint64_t g = rocksdb_perfcontext_metric(pc, rocksdb_get_read_bytes);
    uint64_t m = rocksdb_perfcontext_metric(pc, rocksdb_multiget_read_bytes);
    rocksdb_perfcontext_destroy(pc);
    return g && !m ? 'g' : m && !g ? 'm' : '?';
}

/* rocksdb.get=multiget: a get is the batched MultiGet of its key, with the
 * same answers and filter counters as Get (two databases with the same
 * writes, keys in the oldest and newest SST, in the memtable, absent
 * within the files' range and outside it); a set_options switches the
 * path on an open database. */
FL_TEST(rocksdb_gets_through_multiget) {
    static const opt_kv base[] = {
        { "policies", "bloom(bits=10,prefix=fixed:1)" }, { "memtable_bytes", "100000" }, { "l0_trigger", "10" },
        { "rocksdb.memtable_prefix_bloom", "0.1" }, { "rocksdb.memtable_whole_key_filtering", "1" },
    };
    enum { NBASE = sizeof base / sizeof base[0] };
    opt_kv kv[2][NBASE + 2];
    for (int d = 0; d < 2; d++) {
        memcpy(kv[d], base, sizeof base);
        kv[d][NBASE] = (opt_kv){ "rocksdb.get", d ? "multiget" : "get" };
        kv[d][NBASE + 1] = (opt_kv){ NULL, NULL };
    }
    fl_registry *reg;
    CHECK_OK(fl_registry_new(&reg));
    fl_engine *e[2] = { NULL, NULL };
    char err[1024] = "";
    CHECK_OK(open_with(subdir("get_path"), reg, kv[0], &e[0], err, sizeof err));
    CHECK_OK(open_with(subdir("multiget_path"), reg, kv[1], &e[1], err, sizeof err));
    if (!e[0] || !e[1]) goto done;
    static const char *const writes[] = { "a1", "a2", NULL, "b1", "b2", NULL, "m1" };   /* NULL: flush */
    for (int d = 0; d < 2; d++)
        for (size_t i = 0; i < sizeof writes / sizeof writes[0]; i++)
            CHECK_OK(writes[i] ? fl_engine_rocksdb.put(e[d], (fl_slice){ (const uint8_t *)writes[i], 2 },
                                                       (fl_slice){ (const uint8_t *)writes[i], 2 })
                               : fl_engine_rocksdb.flush(e[d]));
    static const char *const gets[] = { "a1", "b2", "m1", "a3", "b0", "zz", "" };
    fl_buf v[2];
    fl_buf_init(&v[0]);
    fl_buf_init(&v[1]);
    for (size_t i = 0; i < sizeof gets / sizeof gets[0]; i++) {
        fl_slice key = { (const uint8_t *)gets[i], strlen(gets[i]) };
        bool found[2];
        fl_metrics m[2];
        for (int d = 0; d < 2; d++) {
            CHECK_OK(fl_engine_rocksdb.get(e[d], key, NULL, &v[d], &found[d]));
            fl_engine_rocksdb.metrics(e[d], &m[d]);
            if (i < 3) CHECK_EQ(last_read_path(), d ? 'm' : 'g');
        }
        CHECK_EQ(found[0], i < 3);
        CHECK_EQ(found[1], found[0]);
        CHECK(v[0].len == v[1].len && memcmp(v[0].data, v[1].data, v[0].len) == 0);
        CHECK(memcmp(&m[0].point, &m[1].point, sizeof m[0].point) == 0);
    }
    /* the point counters moved: the filters were asked */
    fl_metrics m;
    fl_engine_rocksdb.metrics(e[1], &m);
    CHECK(m.point.considered > 0);
    CHECK(m.point.memtable_positive + m.point.memtable_negative > 0);
    /* set_options: Get to MultiGet and back, nothing asked of RocksDB */
    for (int to = 1; to >= 0; to--) {
        fl_options opt;
        CHECK_OK(options_with(&opt, kv[to], err, sizeof err));
        CHECK_OK(fl_engine_rocksdb.set_options(e[0], &opt, err, sizeof err));
        fl_options_free(&opt);
        bool found = false;
        CHECK_OK(fl_engine_rocksdb.get(e[0], (fl_slice){ (const uint8_t *)"a2", 2 }, NULL, &v[0], &found));
        CHECK(found);
        CHECK_EQ(last_read_path(), to ? 'm' : 'g');
    }
    fl_buf_free(&v[0]);
    fl_buf_free(&v[1]);
done:
    for (int d = 0; d < 2; d++)
        if (e[d]) CHECK_OK(fl_engine_rocksdb.close(e[d], err, sizeof err));
    fl_registry_free(reg);
}

/* ---- Counters ------------------------------------------------------------------------- */

typedef struct seen { int count; char msg[512]; } seen;

static void on_violation(void *arg, int property, unsigned line, const char *msg) {
    seen *s = arg;
    (void)property; (void)line;
    if (!s->count++) snprintf(s->msg, sizeof s->msg, "%s", msg);
}

static int run(const char *text, fl_check_summary *sum, seen *s) {
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
    fl_runner r = { .check = { .engine = &fl_engine_rocksdb, .reg = reg, .path = "t.wl", .check = true,
                               .seed = 5, .on_violation = on_violation, .on_violation_arg = s },
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

/* Three L0 files (a1.., b1.., c1..) and no deeper level: RocksDB probes
 * every file for a get then (FilePicker), newest first until found. */
#define THREE_FILES                                                                          \
    "filterlab-workload 1\n"                                                                 \
    "open policies=\"bloom(bits=10,prefix=fixed:1)\" memtable_bytes=100000 l0_trigger=10 "   \
    "rocksdb.memtable_prefix_bloom=0.1 rocksdb.memtable_whole_key_filtering=1\n"             \
    "put a1 x\nput a2 x\nflush\nput b1 x\nput b2 x\nflush\nput c1 x\nput c2 x\nflush\n"

FL_TEST(rocksdb_counters_of_gets) {
    fl_check_summary base, sum;
    seen s;
    CHECK_OK(run(THREE_FILES, &base, &s));
    CHECK_EQ(s.count, 0);
    /* absent everywhere: three probes, every maybe a false positive */
    CHECK_OK(run(THREE_FILES "get zz9\n", &sum, &s));
    CHECK_EQ(s.count, 0);
    const fl_filter_counters *c = &sum.metrics.point;
    CHECK_EQ(c->considered, 3);
    CHECK_EQ(c->unfiltered, 0);
    CHECK_EQ(c->positive + c->negative, 3);
    CHECK_EQ(c->false_positive, c->positive);
    CHECK_EQ(c->unfiltered, 0);
    /* c2 is in the newest file: one probe, a true positive (not counted) */
    CHECK_OK(run(THREE_FILES "get c2\n", &sum, &s));
    CHECK_EQ(sum.metrics.point.considered, 1);
    CHECK_EQ(sum.metrics.point.positive, 1);
    CHECK_EQ(sum.metrics.point.false_positive, 0);
    /* a1 is in the oldest: c's and b's files said no (or were false
     * positives, which the checker cannot count: a1 exists), a's said maybe */
    CHECK_OK(run(THREE_FILES "get a1\n", &sum, &s));
    CHECK_EQ(sum.metrics.point.considered, 3);
    CHECK(sum.metrics.point.positive >= 1);
    CHECK_EQ(sum.metrics.point.false_positive, 0);
    /* the memtable's whole-key bloom: a put key is a maybe, no SST probed */
    CHECK_OK(run(THREE_FILES "put m1 x\nget m1\n", &sum, &s));
    CHECK_EQ(sum.metrics.point.memtable_positive, 1);
    CHECK_EQ(sum.metrics.point.considered, 0);
    CHECK_EQ(s.count, 0);
}

/* multiget: RocksDB's batched MultiGet of all the keys at once, whatever
 * rocksdb.get says; the answers, key by key, and the counters, summed,
 * are those of the same keys' gets on these three files (a full filter per
 * file, probed once per key), with no violation; keys absent everywhere
 * count their maybes as false positives; repeats are answered each. */
FL_TEST(rocksdb_counters_of_multigets) {
    fl_check_summary gets, multi;
    seen s;
    CHECK_OK(run(THREE_FILES "put m1 x\nget zz9\nget c2\nget a1\nget b0\nget zz9\nget m1\n", &gets, &s));
    CHECK_EQ(s.count, 0);
    static const char *const texts[] = {
        THREE_FILES "put m1 x\nmultiget zz9 c2 a1 b0 zz9 m1\n",
        THREE_FILES "set_options rocksdb.get=get\nput m1 x\nmultiget zz9 c2 a1 b0 zz9 m1\n",
        THREE_FILES "set_options rocksdb.get=multiget\nput m1 x\nmultiget zz9 c2 a1 b0 zz9 m1\n",
    };
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        CHECK_OK(run(texts[t], &multi, &s));
        CHECK_EQ(s.count, 0);
        if (s.count) fprintf(stderr, "  first violation: %s\n", s.msg);
        const fl_filter_counters *g = &gets.metrics.point, *m = &multi.metrics.point;
        CHECK_EQ(m->considered, g->considered);
        CHECK_EQ(m->positive, g->positive);
        CHECK_EQ(m->negative, g->negative);
        CHECK_EQ(m->memtable_positive + m->memtable_negative, g->memtable_positive + g->memtable_negative);
        CHECK(m->considered > 0);
    }
    /* false positives: counted when no key of the multiget was ever written */
    CHECK_OK(run(THREE_FILES "multiget zz1 zz2 zz3 zz4 zz5 zz6 zz7 zz8\n", &multi, &s));
    CHECK_EQ(s.count, 0);
    CHECK_EQ(multi.metrics.point.considered, 24);
    CHECK_EQ(multi.metrics.point.false_positive, multi.metrics.point.positive);
}

FL_TEST(rocksdb_counters_of_prefix_reads_and_scans) {
    fl_check_summary sum;
    seen s;
    /* a prefix in the extractor's domain (fixed:1): one prefix probe per L0
     * file; absent everywhere, so every maybe is a false positive */
    CHECK_OK(run(THREE_FILES "scan_prefix z\n", &sum, &s));
    CHECK_EQ(s.count, 0);
    const fl_filter_counters *c = &sum.metrics.prefix;
    CHECK_EQ(c->considered, 3);
    CHECK_EQ(c->unfiltered, 0);
    CHECK_EQ(c->positive + c->negative, 3);
    CHECK_EQ(c->false_positive, c->positive);
    CHECK(c->seeks >= 4);                           /* the memtable and 3 files */
    CHECK_EQ(sum.metrics.point.considered, 0);
    /* the empty prefix is out of the domain: a total-order read, no probe;
     * it reads all three files (unfiltered, counted by the checker) */
    CHECK_OK(run(THREE_FILES "scan_prefix \"\"\n", &sum, &s));
    CHECK_EQ(sum.metrics.prefix.positive + sum.metrics.prefix.negative, 0);
    CHECK_EQ(sum.metrics.prefix.unfiltered, 3);
    CHECK_EQ(sum.metrics.prefix.considered, 3);
    CHECK_EQ(s.count, 0);
    /* a scan probes no filter */
    CHECK_OK(run(THREE_FILES "scan a d\n", &sum, &s));
    CHECK_EQ(sum.metrics.prefix.considered + sum.metrics.point.considered, 0);
    CHECK_EQ(s.count, 0);
}

/* ---- Filters read from the SST files (P9 on RocksDB) ----------------------------- */

/* The filter of the one live SST of dir, read as P9 reads it. */
static int one_filter(const char *dir, const opt_kv *kv, fl_sst_filter *out, char *err, size_t len) {
    fl_registry *reg;
    fl_engine *e = NULL;
    fl_sst_meta *metas = NULL;
    size_t count = 0;
    if (fl_registry_new(&reg) != FL_OK) return FL_ERR_NOMEM;
    int rc = open_with(dir, reg, kv, &e, err, len);
    if (rc == FL_OK) rc = fl_engine_rocksdb.ssts(e, &metas, &count);
    if (rc == FL_OK && count != 1) rc = FL_ERR_INVALID;
    const fl_sst_filter *f = NULL;
    if (rc == FL_OK) rc = fl_engine_rocksdb.sst_filter(e, metas[0].id, &f);
    if (rc == FL_OK) {
        *out = *f;
        /* a random item's chance, drawn: the probe agrees with the rate */
        uint64_t x = 42, hits = 0, n = 400000;
        for (uint64_t i = 0; i < n && f->probe_hash; i++) {
            x += 0x9E3779B97F4A7C15ull;
            uint64_t z = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            hits += f->probe_hash(f, z ^ (z >> 31));
        }
        double sd = sqrt(f->expected * (1 - f->expected) / (double)n);
        if (f->probe_hash && fabs((double)hits / (double)n - f->expected) > 5 * sd) {
            fprintf(stderr, "  %s: %s: drawn %.5f%%, expected %.5f%% (sd %.5f%%)\n", dir, f->what,
                    100.0 * (double)hits / (double)n, 100 * f->expected, 100 * sd);
            rc = FL_ERR_INVALID;
        }
        out->data = NULL;                 /* (gone at close) */
        out->probe_hash = NULL;
    }
    fl_sst_meta_free(metas, count);
    if (e) fl_engine_rocksdb.close(e, NULL, 0);
    fl_registry_free(reg);
    return rc;
}

/* Each filter RocksDB writes, read from its file: the cache-local bloom
 * with RocksDB's k and its exact rate, the ribbon with the rate of its
 * columns, the legacy bloom with its exact sum, and the kinds P9 leaves
 * alone; the size is what RocksDB's own table properties say. */
FL_TEST(rocksdb_sst_filters_read_from_files) {
    static const struct {
        const char *name, *policies, *setting, *value;
        fl_sst_filter_kind kind;
        const char *what;
        double lo, hi;                  /* the expected rate */
    } cases[] = {
        { "f_bloom10", "bloom(bits=10)", NULL, NULL, FL_SSTF_BLOOM, "k=6", 0.008, 0.0115 },
        { "f_bloom4", "bloom(bits=4)", NULL, NULL, FL_SSTF_BLOOM, "k=3", 0.12, 0.19 },
        { "f_ribbon", "bloom(bits=10)", "rocksdb.filter", "ribbon", FL_SSTF_RIBBON, "ribbon", 0.007, 0.012 },
        { "f_legacy", "bloom(bits=10)", "rocksdb.format_version", "4", FL_SSTF_BLOOM, "legacy", 0.009, 0.013 },
        { "f_part", "bloom(bits=10)", "rocksdb.partition_filters", "1", FL_SSTF_OTHER, "partitioned", 0, 0 },
        { "f_none", "none", NULL, NULL, FL_SSTF_NONE, "none", 0, 0 },
    };
    char err[1024] = "";
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *dir = subdir(cases[i].name);
        opt_kv kv[] = { { "policies", cases[i].policies }, { "memtable_bytes", "100000000" },
                        { cases[i].setting, cases[i].value }, { NULL, NULL } };
        CHECK_OK(fill(dir, kv, 3000, NULL, err, sizeof err));
        fl_sst_filter f;
        CHECK_OK(one_filter(dir, kv, &f, err, sizeof err));
        printf("    %s: %s, %llu bytes, expected %.4f%%\n", cases[i].name, f.what,
               (unsigned long long)f.bytes, 100 * f.expected);
        CHECK_EQ(f.kind, cases[i].kind);
        CHECK_CONTAINS(f.what, cases[i].what);
        if (cases[i].kind == FL_SSTF_BLOOM || cases[i].kind == FL_SSTF_RIBBON) {
            CHECK(f.expected >= cases[i].lo && f.expected <= cases[i].hi);
            CHECK_EQ((double)f.bytes, table_property(dir, "filter block size"));
        }
    }
}

#endif /* FL_HAVE_ROCKSDB */
