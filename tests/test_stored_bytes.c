/*
 * test_stored_bytes.c -- the "Stored bytes" API of engine.h, through the
 * public headers only, on SSTs the engine wrote: fl_filter_block_split
 * gives a Composite block's sub-filters in order, whole, and nothing of a
 * malformed block; fl_call_decode_legacy reads a Legacy block as a
 * whole-key bloom (no false negative, PREFIX true), counts a decode and
 * reports refused bytes; fl_sst_file_blocks names every block of an SST
 * with its stored and actual checksums, so a changed block shows up and,
 * once its checksum is rewritten, reads again; fl_bloom_policy_millibits.
 */
#include "test.h"
#include "../engine/engine.h"

#include <stdlib.h>

#define NKEYS 300

static void key_of(int i, char *out, size_t cap) { snprintf(out, cap, "key%05d", i); }

/* A database in a fresh directory with NKEYS keys flushed to one SST (and a
 * range tombstone), opened with the given policies and options. */
static fl_db *one_sst(fl_registry *reg, const char *policies, int legacy, uint64_t *id) {
    const char *dir = fl_test_tmpdir();
    char err[512] = "";
    fl_options opt;
    fl_options_init(&opt);
    CHECK_OK(fl_options_set(&opt, "policies", policies, err, sizeof err));
    opt.legacy_filters = legacy;
    opt.block_bytes = 256;
    opt.sync = false;
    fl_db *db = NULL;
    CHECK_OK(fl_db_open(dir, reg, &opt, &db, err, sizeof err));
    fl_options_free(&opt);
    if (!db) return NULL;
    for (int i = 0; i < NKEYS; i++) {
        char k[16];
        key_of(i, k, sizeof k);
        CHECK_OK(fl_db_put(db, (fl_slice){ (const uint8_t *)k, strlen(k) },
                           (fl_slice){ (const uint8_t *)"VVVVVVVVVVVV", 12 }));
    }
    CHECK_OK(fl_db_delete_range(db, (fl_slice){ (const uint8_t *)"key00010", 8 },
                                (fl_slice){ (const uint8_t *)"key00012", 8 }));
    CHECK_OK(fl_db_flush(db));
    fl_sst_meta *m;
    size_t n = 0;
    CHECK_OK(fl_db_ssts(db, &m, &n));
    CHECK_EQ(n, 1);
    *id = n ? m[0].id : 0;
    fl_sst_meta_free(m, n);
    return db;
}

/* ---- fl_filter_block_split ------------------------------------------------ */

typedef struct subs { int calls; char names[4][64]; fl_slice data[4]; int stop_at; } subs;

static int collect_sub(void *arg, const char *name, fl_slice data) {
    subs *s = arg;
    if (s->calls < 4) {
        snprintf(s->names[s->calls], sizeof s->names[0], "%s", name);
        s->data[s->calls] = data;
    }
    s->calls++;
    return s->calls == s->stop_at ? 42 : 0;
}

FL_TEST(filter_block_split_gives_each_sub_filter) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    uint64_t id;
    fl_db *db = one_sst(reg, "bloom(bits=10);bloom(bits=6,prefix=fixed:5)", 0, &id);
    if (!db) { fl_registry_free(reg); return; }
    fl_buf block;
    int format = -1;
    fl_buf_init(&block);
    CHECK_OK(fl_db_sst_filter_block(db, id, &block, &format));
    CHECK_EQ(format, 1);
    fl_slice b = { block.data, block.len };
    subs s = { 0 };
    CHECK_OK(fl_filter_block_split(b, collect_sub, &s));
    CHECK_EQ(s.calls, 2);
    CHECK_STR(s.names[0], "_bf");
    CHECK_STR(s.names[1], "_bf:p=fixed5");
    /* each sub-filter is whole: its own policy decodes it, and it holds every key */
    const char *specs[2] = { "bloom(bits=10)", "bloom(bits=6,prefix=fixed:5)" };
    for (int i = 0; i < 2 && s.calls == 2; i++) {
        fl_filter_policy *p = NULL;
        fl_filter *f = NULL;
        char err[256];
        CHECK_OK(fl_registry_make_policy(reg, specs[i], &p, err, sizeof err));
        CHECK_OK(fl_call_decode(NULL, p, s.data[i], &f));
        for (int k = 0; f && k < NKEYS; k += 7) {
            char key[16];
            key_of(k, key, sizeof key);
            fl_filter_query q = { { FL_TARGET_POINT, { (const uint8_t *)key, strlen(key) } }, NULL };
            CHECK(fl_call_might_match(NULL, p, f, &q));
        }
        fl_call_filter_destroy(NULL, p, f);
        fl_call_policy_destroy(NULL, p);
    }
    /* fn's nonzero stops the split and is returned */
    subs stop = { .stop_at = 1 };
    CHECK_RC(fl_filter_block_split(b, collect_sub, &stop), 42);
    CHECK_EQ(stop.calls, 1);
    /* malformed: every truncation, a trailing byte, nothing at all; fn never called */
    subs none = { 0 };
    for (size_t cut = 0; cut < b.len; cut++)
        CHECK_RC(fl_filter_block_split((fl_slice){ b.data, cut }, collect_sub, &none), FL_ERR_CORRUPT);
    CHECK_OK(fl_buf_append(&block, "", 1));
    CHECK_RC(fl_filter_block_split((fl_slice){ block.data, block.len }, collect_sub, &none), FL_ERR_CORRUPT);
    CHECK_RC(fl_filter_block_split((fl_slice){ NULL, 0 }, collect_sub, &none), FL_ERR_CORRUPT);
    /* two equal names */
    const uint8_t dup[] = { 0, 2, 0, 1, 'a', 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 'a', 0, 0, 0, 0, 0, 0, 0, 0 };
    CHECK_RC(fl_filter_block_split((fl_slice){ dup, sizeof dup }, collect_sub, &none), FL_ERR_CORRUPT);
    CHECK_EQ(none.calls, 0);
    /* zero sub-filters is a valid, empty block */
    const uint8_t zero[] = { 0, 0 };
    CHECK_OK(fl_filter_block_split((fl_slice){ zero, 2 }, collect_sub, &none));
    CHECK_EQ(none.calls, 0);
    fl_buf_free(&block);
    CHECK_OK(fl_db_close(db, NULL, 0));
    fl_registry_free(reg);
}

/* ---- fl_call_decode_legacy ----------------------------------------------- */

static void count_violation(void *arg, const fl_contract_violation *v) {
    (void)v;
    ++*(int *)arg;
}

FL_TEST(legacy_block_decodes_as_whole_key_bloom) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    uint64_t id;
    fl_db *db = one_sst(reg, "bloom(bits=10)", 1, &id);
    if (!db) { fl_registry_free(reg); return; }
    fl_buf block;
    int format = -1;
    fl_buf_init(&block);
    CHECK_OK(fl_db_sst_filter_block(db, id, &block, &format));
    CHECK_EQ(format, 0);
    /* read with a prefix-only bloom: the Legacy filter still answers whole keys */
    fl_filter_policy *p = NULL;
    char err[256];
    CHECK_OK(fl_registry_make_policy(reg, "bloom(bits=4,prefix=fixed:3,whole_key=0)", &p, err, sizeof err));
    fl_calls *calls = NULL;
    int violations = 0;
    CHECK_OK(fl_calls_new(reg, &calls));
    fl_calls_set_sink(calls, count_violation, &violations);
    fl_filter *f = NULL;
    CHECK_OK(fl_call_decode_legacy(calls, p, (fl_slice){ block.data, block.len }, &f));
    CHECK(f != NULL);
    int absent_maybe = 0;
    for (int i = 0; f && i < NKEYS; i++) {
        char key[16], other[16];
        key_of(i, key, sizeof key);
        fl_filter_query q = { { FL_TARGET_POINT, { (const uint8_t *)key, strlen(key) } }, NULL };
        CHECK(fl_call_might_match(calls, p, f, &q));
        q.target.kind = FL_TARGET_PREFIX;
        CHECK(fl_call_might_match(calls, p, f, &q));
        snprintf(other, sizeof other, "nokey%05d", i);
        fl_filter_query a = { { FL_TARGET_POINT, { (const uint8_t *)other, strlen(other) } }, NULL };
        absent_maybe += fl_call_might_match(calls, p, f, &a);
    }
    /* 10 bits per key: about 1% false positives; a filter that says yes to
     * everything (a prefix bloom without the key's prefix would) fails this */
    CHECK(absent_maybe < NKEYS / 20);
    fl_call_filter_destroy(calls, p, f);
    fl_call_stats st;
    fl_calls_stats(calls, &st);
    CHECK_EQ(st.decode, 1);
    CHECK_EQ(violations, 0);
    /* refused bytes: FL_ERR_CORRUPT, no filter, one violation */
    const uint8_t bad[] = { 2, 6, 0, 0, 0, 0 };                /* version 2 */
    fl_filter dummy = { NULL };
    f = &dummy;
    CHECK_RC(fl_call_decode_legacy(calls, p, (fl_slice){ bad, sizeof bad }, &f), FL_ERR_CORRUPT);
    CHECK(f == NULL);
    CHECK_EQ(violations, 1);
    /* only a built-in bloom reads Legacy bytes */
    CHECK_RC(fl_call_decode_legacy(calls, NULL, (fl_slice){ block.data, block.len }, &f), FL_ERR_INVALID);
    fl_call_policy_destroy(calls, p);
    fl_calls_free(calls);
    fl_buf_free(&block);
    CHECK_OK(fl_db_close(db, NULL, 0));
    fl_registry_free(reg);
}

/* ---- fl_sst_file_blocks ---------------------------------------------------- */

typedef struct block_list { fl_sst_block b[64]; int n; int stop_at; } block_list;

static int collect_block(void *arg, const fl_sst_block *b) {
    block_list *l = arg;
    if (l->n < 64) l->b[l->n] = *b;
    l->n++;
    return l->n == l->stop_at ? 7 : 0;
}

static uint8_t *read_whole(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    uint8_t *b = malloc(1 << 20);
    *len = f && b ? fread(b, 1, 1 << 20, f) : 0;
    if (f) fclose(f);
    return b;
}

static void write_whole(const char *path, const uint8_t *b, size_t len) {
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(b, 1, len, f) == len);
    if (f) fclose(f);
}

static int count_entries(void *arg, const fl_row_entry *e) {
    (void)e;
    ++*(int *)arg;
    return 0;
}

/* Reopens the database and reads every entry of SST id. */
static int reread(fl_registry *reg, const char *dir, uint64_t id, int *entries) {
    fl_options opt;
    char err[512];
    fl_options_init(&opt);
    opt.sync = false;
    fl_db *db = NULL;
    int rc = fl_db_open(dir, reg, &opt, &db, err, sizeof err);
    fl_options_free(&opt);
    *entries = 0;
    if (rc == FL_OK) rc = fl_db_sst_entries(db, id, count_entries, entries);
    if (db) fl_db_close(db, NULL, 0);
    return rc;
}

FL_TEST(sst_file_blocks_name_every_block_and_its_checksum) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    uint64_t id;
    fl_db *db = one_sst(reg, "bloom(bits=10)", 0, &id);
    if (!db) { fl_registry_free(reg); return; }
    CHECK_OK(fl_db_close(db, NULL, 0));
    const char *dir = fl_test_tmpdir();
    char path[4200];
    snprintf(path, sizeof path, "%s/%06llu.sst", dir, (unsigned long long)id);
    size_t len;
    uint8_t *file = read_whole(path, &len);
    CHECK(len > 24);
    block_list l = { .n = 0 };
    CHECK_OK(fl_sst_file_blocks((fl_slice){ file, len }, collect_block, &l));
    CHECK(l.n >= 6 && l.n <= 64);
    const char *first[4] = { "info", "range-tombstone", "index", "filter" };
    for (int i = 0; i < 4 && i < l.n; i++) CHECK_STR(l.b[i].kind, first[i]);
    uint64_t data_end = 0;
    int victim = -1;
    for (int i = 0; i < l.n && i < 64; i++) {
        const fl_sst_block *b = &l.b[i];
        CHECK(b->offset + b->len + 8 <= len - 24);          /* before the footer */
        CHECK_EQ(b->checksum, b->actual);
        if (i >= 4) {
            CHECK_STR(b->kind, "data");
            CHECK_EQ(b->offset, data_end);                   /* data blocks back to back */
            data_end = b->offset + b->len + 8;
            if (i == 5) victim = i;
        }
    }
    CHECK_EQ(l.b[1].offset, data_end);                       /* then the range tombstones */
    /* fn's nonzero stops the walk and is returned */
    block_list stop = { .stop_at = 2 };
    CHECK_RC(fl_sst_file_blocks((fl_slice){ file, len }, collect_block, &stop), 7);
    CHECK_EQ(stop.n, 2);
    /* a changed value byte in the second data block: only its checksum fails */
    int n = 0;
    CHECK(victim > 0);
    if (victim > 0) {
        const fl_sst_block *v = &l.b[victim];
        uint8_t *at = memchr(file + v->offset, 'V', (size_t)v->len);
        CHECK(at != NULL);
        if (at) *at = 'W';
        block_list after = { .n = 0 };
        CHECK_OK(fl_sst_file_blocks((fl_slice){ file, len }, collect_block, &after));
        CHECK_EQ(after.n, l.n);
        for (int i = 0; i < after.n && i < 64; i++)
            CHECK((after.b[i].checksum != after.b[i].actual) == (i == victim));
        write_whole(path, file, len);
        CHECK_RC(reread(reg, dir, id, &n), FL_ERR_CORRUPT);
        /* its actual checksum written back: the SST reads again, the change included */
        uint64_t sum = after.b[victim].actual;
        for (int i = 0; i < 8; i++) file[v->offset + v->len + i] = (uint8_t)(sum >> (56 - 8 * i));
        write_whole(path, file, len);
        CHECK_OK(reread(reg, dir, id, &n));
        CHECK_EQ(n, NKEYS);
    }
    /* a bad footer or a short file: nothing reported */
    block_list none = { .n = 0 };
    CHECK_RC(fl_sst_file_blocks((fl_slice){ file, len - 1 }, collect_block, &none), FL_ERR_CORRUPT);
    CHECK_RC(fl_sst_file_blocks((fl_slice){ file, 23 }, collect_block, &none), FL_ERR_CORRUPT);
    CHECK_RC(fl_sst_file_blocks((fl_slice){ NULL, 0 }, collect_block, &none), FL_ERR_CORRUPT);
    CHECK_EQ(none.n, 0);
    /* an index entry whose block runs past the footer: not reported, the
     * walk goes on, FL_ERR_CORRUPT.  The first entry is [varint 8]["key..."]
     * [varint offset: 1 byte, 0][varint length: 2 bytes, 128..16383]. */
    const fl_sst_block *index = &l.b[2];
    uint8_t *copy = malloc(len);
    if (copy) {
        memcpy(copy, file, len);
        uint8_t *p = copy + index->offset;
        CHECK_EQ(p[0], 8);
        CHECK_EQ(p[9], 0);
        CHECK(p[10] & 0x80 && !(p[11] & 0x80));
        p[10] = 0xff;                                        /* length 16383 > the file */
        p[11] = 0x7f;
        block_list moved = { .n = 0 };
        CHECK_RC(fl_sst_file_blocks((fl_slice){ copy, len }, collect_block, &moved), FL_ERR_CORRUPT);
        CHECK_EQ(moved.n, l.n - 1);
        CHECK_EQ(moved.b[4].offset, l.b[5].offset);          /* the second data block on */
        free(copy);
    }
    free(file);
    fl_registry_free(reg);
}

/* ---- fl_bloom_policy_millibits --------------------------------------------- */

FL_TEST(bloom_policy_millibits_is_public) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    fl_filter_policy *p = NULL;
    char err[256];
    CHECK_OK(fl_registry_make_policy(reg, "bloom(bits=7.25,prefix=fixed:2)", &p, err, sizeof err));
    CHECK_EQ(fl_bloom_policy_millibits(p), 7250);
    CHECK_EQ(fl_bloom_policy_millibits(NULL), 0);
    fl_call_policy_destroy(NULL, p);
    fl_registry_free(reg);
}
