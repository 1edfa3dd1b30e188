/*
 * test_leveldb_written.c -- filterlab's reader of LevelDB 1.23's tables
 * (adapters/leveldb/leveldb_sst.c) on tables LevelDB itself wrote, when
 * built with LevelDB (FL_HAVE_LEVELDB; else this file holds no test):
 * after a full compaction, and flushed at reopen with every version and
 * deletion -- read back against what was written, each filter rebuilt bit
 * for bit at several bits per key, every key found through the filter
 * LevelDB would probe, and a flipped filter bit named.
 */
#include "test_leveldb_sst.h"

#include <stdlib.h>

/* ---- Tables LevelDB wrote ------------------------------------------------------------- */

#ifdef FL_HAVE_LEVELDB
#include <leveldb/c.h>
#include <dirent.h>

/* table order: user key ascending, seq descending */
static int ent_cmp(const void *x, const void *y) {
    const ent *a = x, *b = y;
    int c = ukey_cmp(a->k, a->kn, b->k, b->kn);
    return c ? c : (a->seq < b->seq) - (a->seq > b->seq);
}

typedef struct ldb {
    leveldb_t *db;
    leveldb_options_t *o;
    leveldb_filterpolicy_t *fp;
    leveldb_writeoptions_t *wo;
} ldb;

static bool ldb_open(ldb *d, const char *dir, int bits, size_t block_size) {
    char *e = NULL;
    d->o = leveldb_options_create();
    leveldb_options_set_create_if_missing(d->o, 1);
    leveldb_options_set_compression(d->o, leveldb_no_compression);
    d->fp = bits ? leveldb_filterpolicy_create_bloom(bits) : NULL;
    if (d->fp) leveldb_options_set_filter_policy(d->o, d->fp);
    leveldb_options_set_block_size(d->o, block_size);
    d->wo = leveldb_writeoptions_create();
    d->db = leveldb_open(d->o, dir, &e);
    if (e) {
        fl_test_fail(__FILE__, __LINE__, "leveldb_open %s: %s", dir, e);
        leveldb_free(e);
    }
    return d->db != NULL;
}

static void ldb_close(ldb *d) {
    if (d->db) leveldb_close(d->db);
    leveldb_writeoptions_destroy(d->wo);
    leveldb_options_destroy(d->o);
    if (d->fp) leveldb_filterpolicy_destroy(d->fp);
    memset(d, 0, sizeof *d);
}

static void ldb_put(ldb *d, const uint8_t *k, size_t kn, const uint8_t *v, size_t vn) {
    char *e = NULL;
    leveldb_put(d->db, d->wo, (const char *)k, kn, (const char *)v, vn, &e);
    if (e) { fl_test_fail(__FILE__, __LINE__, "leveldb_put: %s", e); leveldb_free(e); }
}

static void ldb_del(ldb *d, const uint8_t *k, size_t kn) {
    char *e = NULL;
    leveldb_delete(d->db, d->wo, (const char *)k, kn, &e);
    if (e) { fl_test_fail(__FILE__, __LINE__, "leveldb_delete: %s", e); leveldb_free(e); }
}

/* Key i: the empty key, text, binary with NULs, short text, binary from
 * 0xff with 0x80 tails: every length mod 4, every byte sort. */
static size_t gen_key(size_t i, uint8_t *k) {
    if (i == 0) return 0;
    switch (i % 4) {
    case 0: return (size_t)snprintf((char *)k, 24, "user%06zu", i);
    case 1: k[0] = 0; k[1] = (uint8_t)(i >> 8); k[2] = (uint8_t)i; k[3] = 0xff; return 4;
    case 2: return (size_t)snprintf((char *)k, 24, "u%zu", i);
    default:
        k[0] = 0xff, k[1] = 0xfe, k[2] = (uint8_t)(i >> 8), k[3] = (uint8_t)i;
        memset(k + 4, 0x80, i % 5);
        return 4 + i % 5;
    }
}

static size_t gen_val(size_t i, int ver, char *v) {
    int n = snprintf(v, 128, "v%d-%zu-", ver, i);
    size_t len = (size_t)n + i % 40;
    memset(v + n, 'a' + ver, i % 40);
    return len;
}

#define MAX_TABLES 64
typedef struct tables { size_t n; uint8_t *buf[MAX_TABLES]; size_t len[MAX_TABLES]; fl_ldb_table *t[MAX_TABLES]; } tables;

static int table_cmp(const void *x, const void *y) {
    fl_slice a = fl_ldb_table_smallest(*(fl_ldb_table *const *)x), b = fl_ldb_table_smallest(*(fl_ldb_table *const *)y);
    return ukey_cmp(a.data, a.len, b.data, b.len);
}

/* Reads and opens every *.ldb of dir; sorted by smallest key. */
static void load_tables(const char *dir, tables *ts) {
    memset(ts, 0, sizeof *ts);
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (!d) return;
    struct dirent *de;
    while ((de = readdir(d)) && ts->n < MAX_TABLES) {
        size_t nl = strlen(de->d_name);
        if (nl < 4 || strcmp(de->d_name + nl - 4, ".ldb") != 0) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        FILE *f = fopen(path, "rb");
        CHECK(f != NULL);
        if (!f) continue;
        fseek(f, 0, SEEK_END);
        long len = ftell(f);
        rewind(f);
        uint8_t *b = malloc(len > 0 ? (size_t)len : 1);
        CHECK(len > 0 && fread(b, 1, (size_t)len, f) == (size_t)len);
        fclose(f);
        char err[512] = "";
        fl_ldb_table *t = NULL;
        int rc = fl_ldb_table_open(b, (size_t)len, 0, &t, err, sizeof err);
        if (rc) {
            fl_test_fail(__FILE__, __LINE__, "%s: %d %s", path, rc, err);
            free(b);
            continue;
        }
        ts->buf[ts->n] = b;
        ts->len[ts->n] = (size_t)len;
        ts->t[ts->n++] = t;
    }
    closedir(d);
    /* sort tables (and their buffers alongside) by smallest key */
    for (size_t i = 1; i < ts->n; i++)
        for (size_t j = i; j > 0 && table_cmp(&ts->t[j - 1], &ts->t[j]) > 0; j--) {
            fl_ldb_table *t = ts->t[j]; ts->t[j] = ts->t[j - 1]; ts->t[j - 1] = t;
            uint8_t *b = ts->buf[j]; ts->buf[j] = ts->buf[j - 1]; ts->buf[j - 1] = b;
            size_t l = ts->len[j]; ts->len[j] = ts->len[j - 1]; ts->len[j - 1] = l;
        }
}

static void free_tables(tables *ts) {
    for (size_t i = 0; i < ts->n; i++) fl_ldb_table_free(ts->t[i]), free(ts->buf[i]);
    memset(ts, 0, sizeof *ts);
}

/* Every table's checks at bits: bloom bit for bit, an inferred bits per
 * key that rebuilds it too, no false negatives, filter keys, key range. */
static void check_table(const fl_ldb_table *t, int bits) {
    char err[512];
    ents e = { 0 };
    CHECK_OK(fl_ldb_table_each(t, collect, &e));
    CHECK(e.n > 0 && e.n == fl_ldb_table_entries_count(t));
    if (e.n) {
        fl_slice s = fl_ldb_table_smallest(t), l = fl_ldb_table_largest(t);
        CHECK_MEM(s.data, s.len, e.e[0].k, e.e[0].kn);
        CHECK_MEM(l.data, l.len, e.e[e.n - 1].k, e.e[e.n - 1].kn);
    }
    ents_free(&e);
    if (!bits) return;
    CHECK_STR(fl_ldb_table_filter_name(t), "leveldb.BuiltinBloomFilter2");
    CHECK_EQ(fl_ldb_table_filter_base_lg(t), 11);
    int rc = fl_ldb_bloom_check(t, bits, err, sizeof err);
    if (rc) fl_test_fail(__FILE__, __LINE__, "bloom check at %d bits per key: %d %s", bits, rc, err);
    int inf = fl_ldb_bloom_infer_bits(t);
    CHECK(inf >= 1 && inf <= bits);
    CHECK_RC(fl_ldb_bloom_check(t, inf, err, sizeof err), FL_OK);
    check_no_false_negatives(t);
    check_filter_keys(t);
    check_holds(t);
}

/* The FP rate of the filters a Get probes, over absent keys. */
static double absent_fp(const tables *ts, size_t nprobe) {
    size_t pass = 0, asked = 0;
    for (size_t i = 0; i < nprobe; i++) {
        char k[32];
        int n = snprintf(k, sizeof k, "user%06zuX", i);        /* between user keys */
        for (size_t j = 0; j < ts->n; j++) {
            fl_slice f;
            if (fl_ldb_table_filter_for(ts->t[j], (const uint8_t *)k, (size_t)n, &f, NULL) == 1) {
                asked++;
                pass += fl_ldb_bloom_may_match(f, (const uint8_t *)k, (size_t)n);
            }
        }
    }
    return asked ? (double)pass / (double)asked : 1.0;
}

/* Flips one bit of table t's first non-empty filter, reseals the filter
 * block: the table opens and the bloom check names that filter. */
static void check_flip_named(const tables *ts, size_t ti, int bits) {
    const fl_ldb_table *t = ts->t[ti];
    size_t i = 0;
    while (i < fl_ldb_table_filter_count(t) && fl_ldb_table_filter(t, i).len == 0) i++;
    CHECK(i < fl_ldb_table_filter_count(t));
    if (i >= fl_ldb_table_filter_count(t)) return;
    size_t fo = (size_t)(fl_ldb_table_filter(t, 0).data - ts->buf[ti]), fs = (size_t)fl_ldb_table_filter_block_bytes(t);
    size_t at = (size_t)(fl_ldb_table_filter(t, i).data - ts->buf[ti]);
    uint8_t *c = malloc(ts->len[ti]);
    memcpy(c, ts->buf[ti], ts->len[ti]);
    c[at] ^= 0x04;
    reseal(c, fo, fs);
    fl_ldb_table *u = NULL;
    char err[512], want[32];
    CHECK_OK(fl_ldb_table_open(c, ts->len[ti], 0, &u, err, sizeof err));
    if (u) {
        CHECK_RC(fl_ldb_bloom_check(u, bits, err, sizeof err), FL_ERR_CORRUPT);
        snprintf(want, sizeof want, "filter %zu ", i);
        CHECK_CONTAINS(err, want);
        CHECK_CONTAINS(err, "(first: bit 2)");
        fl_ldb_table_free(u);
    }
    free(c);
}

static void subdir(char *out, size_t cap, const char *name) {
    snprintf(out, cap, "%s/%s", fl_test_tmpdir(), name);
}

/* Puts of N keys, overwrites and deletions, a full compaction: the tables
 * hold the live keys once each, and their filters are LevelDB's bloom. */
FL_TEST_FRESH(ldb_leveldb_compacted_tables) {
    enum { N = 4000 };
    static const int bits_list[] = { 1, 2, 10, 20, 50 };
    for (size_t b = 0; b < sizeof bits_list / sizeof bits_list[0]; b++) {
        int bits = bits_list[b];
        char dir[4200], name[32];
        snprintf(name, sizeof name, "db%d", bits);
        subdir(dir, sizeof dir, name);
        ldb d;
        if (!ldb_open(&d, dir, bits, 4096)) { ldb_close(&d); continue; }
        /* the first compaction only flushes the memtable (to level 2); the
         * second flushes the overwrites and deletions to level 1 and merges
         * them into level 2, where shadowed versions and deletions go */
        uint8_t k[32];
        char v[128];
        static uint64_t last[N];
        uint64_t seq = 0;
        for (size_t i = 0; i < N; i++) ldb_put(&d, k, gen_key(i, k), (uint8_t *)v, gen_val(i, 1, v)), last[i] = ++seq;
        leveldb_compact_range(d.db, NULL, 0, NULL, 0);
        for (size_t i = 0; i < N; i += 3) ldb_put(&d, k, gen_key(i, k), (uint8_t *)v, gen_val(i, 2, v)), last[i] = ++seq;
        for (size_t i = 0; i < N; i += 5) ldb_del(&d, k, gen_key(i, k)), last[i] = ++seq;
        for (size_t i = 0; i < N; i += 10) ldb_put(&d, k, gen_key(i, k), (uint8_t *)v, gen_val(i, 3, v)), last[i] = ++seq;
        leveldb_compact_range(d.db, NULL, 0, NULL, 0);
        ldb_close(&d);
        ents want = { 0 }, got = { 0 };
        for (size_t i = 0; i < N; i++) {
            if (i % 5 == 0 && i % 10 != 0) continue;
            int ver = i % 10 == 0 ? 3 : i % 3 == 0 ? 2 : 1;
            size_t vn = gen_val(i, ver, v);
            ents_add(&want, k, gen_key(i, k), last[i], false, (uint8_t *)v, vn);
        }
        qsort(want.e, want.n, sizeof want.e[0], ent_cmp);
        tables ts;
        load_tables(dir, &ts);
        CHECK(ts.n >= 1);
        for (size_t j = 0; j < ts.n; j++) {
            CHECK_OK(fl_ldb_table_each(ts.t[j], collect, &got));
            check_table(ts.t[j], bits);
            if (j) {                                                 /* disjoint */
                fl_slice l = fl_ldb_table_largest(ts.t[j - 1]), s = fl_ldb_table_smallest(ts.t[j]);
                CHECK(ukey_cmp(l.data, l.len, s.data, s.len) < 0);
            }
        }
        check_ents(&got, &want, "compacted tables");
        if (bits == 10) {
            double fp = absent_fp(&ts, 4000);
            if (fp > 0.03) fl_test_fail(__FILE__, __LINE__, "FP rate %.4f at 10 bits per key", fp);
        }
        if (ts.n) check_flip_named(&ts, 0, bits);
        free_tables(&ts);
        ents_free(&want);
        ents_free(&got);
    }
}

/* Writes without compaction, then a reopen: recovery flushes the log into
 * one table holding every version and deletion with its sequence number. */
FL_TEST_FRESH(ldb_leveldb_all_versions_at_reopen) {
    enum { N = 800 };
    char dir[4200];
    subdir(dir, sizeof dir, "versions");
    ldb d;
    bool ok = ldb_open(&d, dir, 10, 4096);
    ents want = { 0 }, got = { 0 };
    uint8_t k[32];
    char v[128];
    uint64_t seq = 0;
    for (int pass = 0; ok && pass < 4; pass++)
        for (size_t i = 0; i < N; i++) {
            size_t kn = gen_key(i, k), vn;
            if (pass == 0 || (pass == 1 && i % 3 == 0) || (pass == 3 && i % 8 == 0)) {
                vn = gen_val(i, pass, v);
                ldb_put(&d, k, kn, (uint8_t *)v, vn);
                ents_add(&want, k, kn, ++seq, false, (uint8_t *)v, vn);
            } else if (pass == 2 && i % 4 == 0) {
                ldb_del(&d, k, kn);
                ents_add(&want, k, kn, ++seq, true, NULL, 0);
            }
        }
    ldb_close(&d);
    if (ok) {
        ldb_open(&d, dir, 10, 4096);
        ldb_close(&d);
    }
    qsort(want.e, want.n, sizeof want.e[0], ent_cmp);
    tables ts;
    load_tables(dir, &ts);
    CHECK_EQ(ts.n, 1);
    if (ts.n == 1) {
        CHECK_OK(fl_ldb_table_each(ts.t[0], collect, &got));
        check_ents(&got, &want, "flushed table");
        check_table(ts.t[0], 10);
        size_t dels = 0;
        for (size_t i = 0; i < got.n; i++) dels += got.e[i].del;
        CHECK_EQ(dels, N / 4);
    }
    free_tables(&ts);
    ents_free(&want);
    ents_free(&got);
}

/* Small blocks (LevelDB raises 256 to its 1 KiB floor): many blocks and
 * filters, windows of several blocks.  64 KiB blocks: most windows hold no
 * block start, their filters are empty.  A key past the last index key
 * reads no block. */
FL_TEST_FRESH(ldb_leveldb_block_sizes) {
    enum { N = 3000 };
    static const size_t sizes[] = { 256, 65536 };
    for (size_t s = 0; s < 2; s++) {
        char dir[4200], name[32];
        snprintf(name, sizeof name, "bs%zu", sizes[s]);
        subdir(dir, sizeof dir, name);
        ldb d;
        if (!ldb_open(&d, dir, 10, sizes[s])) { ldb_close(&d); continue; }
        uint8_t k[32];
        char v[128];
        for (size_t i = 0; i < N; i++) ldb_put(&d, k, gen_key(i, k), (uint8_t *)v, gen_val(i, 1, v));
        leveldb_compact_range(d.db, NULL, 0, NULL, 0);
        ldb_close(&d);
        tables ts;
        load_tables(dir, &ts);
        CHECK(ts.n >= 1);
        for (size_t j = 0; j < ts.n; j++) {
            const fl_ldb_table *t = ts.t[j];
            check_table(t, 10);
            size_t nb = fl_ldb_table_block_count(t), nf = fl_ldb_table_filter_count(t), shared = 0, empty = 0;
            for (size_t i = 0; i + 1 < nb; i++)
                shared += fl_ldb_table_block_offset(t, i) >> 11 == fl_ldb_table_block_offset(t, i + 1) >> 11;
            for (size_t i = 0; i < nf; i++) empty += fl_ldb_table_filter(t, i).len == 0;
            if (s == 0) {
                CHECK(nb > 50 && nf > 20);
                CHECK(shared > 0);
                CHECK_EQ(empty, 0);
            } else {
                CHECK(nb >= 2 && fl_ldb_table_block_size(t, 0) >= 65536);
                CHECK_EQ(empty, nf - nb);                        /* one block per non-empty window */
            }
            /* LevelDB's last index key is the short successor of the last user
             * key ("\xff\xfe..." gives "\xff\xff", with the seek tag): a Get of
             * it sorts after it, so reads no block; nor of anything after it */
            if (j + 1 == ts.n) CHECK_EQ(fl_ldb_table_filter_for(t, (const uint8_t *)"\xff\xff", 2, NULL, NULL), 0);
            CHECK_EQ(fl_ldb_table_filter_for(t, (const uint8_t *)"\xff\xff\x00", 3, NULL, NULL), 0);
        }
        free_tables(&ts);
    }
}

/* No filter policy: no filter block; nothing to probe or check. */
FL_TEST_FRESH(ldb_leveldb_no_filter) {
    char dir[4200];
    subdir(dir, sizeof dir, "nofilter");
    ldb d;
    if (ldb_open(&d, dir, 0, 4096)) {
        uint8_t k[32];
        char v[128];
        for (size_t i = 0; i < 500; i++) ldb_put(&d, k, gen_key(i, k), (uint8_t *)v, gen_val(i, 1, v));
        leveldb_compact_range(d.db, NULL, 0, NULL, 0);
    }
    ldb_close(&d);
    tables ts;
    load_tables(dir, &ts);
    CHECK_EQ(ts.n, 1);
    for (size_t j = 0; j < ts.n; j++) {
        char err[256];
        check_table(ts.t[j], 0);
        CHECK_EQ(fl_ldb_table_entries_count(ts.t[j]), 500);
        CHECK(fl_ldb_table_filter_name(ts.t[j]) == NULL);
        CHECK_EQ(fl_ldb_table_filter_count(ts.t[j]), 0);
        CHECK_EQ(fl_ldb_table_filter_for(ts.t[j], (const uint8_t *)"u2", 2, NULL, NULL), 0);
        CHECK_RC(fl_ldb_bloom_check(ts.t[j], 10, err, sizeof err), FL_ERR_INVALID);
        CHECK_EQ(fl_ldb_bloom_infer_bits(ts.t[j]), 0);
    }
    free_tables(&ts);
}
#endif /* FL_HAVE_LEVELDB */
