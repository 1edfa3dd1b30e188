/*
 * test_sst.c -- SST format v1: write/read round trip, the tagged info
 * block's defaults (absent filter_format = Legacy, unknown tags skipped),
 * composite filter blocks good and malformed, and byte flips that must give
 * FL_ERR_CORRUPT naming the file and block (or, in the filter block, an
 * unfiltered SST) and never a crash.
 */
#include "test.h"
#include "../engine/engine_internal.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static fl_registry *reg(void) {
    fl_registry *r = NULL;
    CHECK_OK(fl_registry_new(&r));
    return r;
}

/* Writes SST `id` in dir with n keys "key%05d" (every third a tombstone)
 * and one range tombstone ["key00010", "key00020"). */
static void write_sst(const char *dir, const fl_policy_list *pl, uint64_t id, int n,
                      int legacy, fl_sst_info *info) {
    fl_sst_write_cfg cfg = { .env = fl_env_posix(), .dir = dir, .policies = pl, .block_bytes = 256, .legacy_filters = legacy };
    fl_sst_writer *w;
    char err[512];
    CHECK_OK(fl_sst_writer_new(&cfg, id, &w, err, sizeof err));
    for (int i = 0; i < n; i++) {
        char k[32], v[32];
        snprintf(k, sizeof k, "key%05d", i);
        snprintf(v, sizeof v, "value-%d", i);
        fl_entry e = { (const uint8_t *)k, strlen(k), (const uint8_t *)v, strlen(v),
                       (uint64_t)(1000 - i), i % 3 == 2 ? FL_ENTRY_DELETE : FL_ENTRY_PUT };
        if (e.kind == FL_ENTRY_DELETE) e.vlen = 0;
        CHECK_OK(fl_sst_writer_add(w, &e));
    }
    fl_rtomb rt = { (uint8_t *)"key00010", 8, (uint8_t *)"key00020", 8, 5000 };
    CHECK_OK(fl_sst_writer_add_rtomb(w, &rt));
    CHECK_OK(fl_sst_writer_finish(w, info, err, sizeof err));
}

FL_TEST(sst_round_trip) {
    fl_registry *r = reg();
    fl_policy_list pl;
    char err[512];
    CHECK_OK(fl_policy_list_parse(r, NULL, "bloom(bits=10); bloom(bits=6,prefix=fixed:3)", &pl, err, sizeof err));
    const char *dir = fl_test_tmpdir();
    fl_sst_info info;
    write_sst(dir, &pl, 7, 500, 0, &info);
    CHECK_EQ(info.entries, 500);
    CHECK_EQ(info.range_tombstones, 1);
    CHECK_EQ(info.filter_count, 2);
    CHECK_STR(info.filter_names[0], "_bf");
    CHECK_STR(info.filter_names[1], "_bf:p=fixed3");
    fl_sst_info_free(&info);

    fl_sst_reader *rd;
    uint64_t ferr = 0;
    CHECK_OK(fl_sst_open(fl_env_posix(), dir, 7, &pl, NULL, &rd, &ferr, err, sizeof err));
    CHECK_EQ(ferr, 0);
    CHECK(!rd->index_loaded);                 /* opening reads no index */
    CHECK_EQ(rd->sub_count, 2);
    CHECK(rd->subs[0].filter && rd->subs[1].filter);
    CHECK_EQ(rd->info.filter_format, FL_FILTER_COMPOSITE);
    CHECK_MEM(rd->info.smallest, rd->info.smallest_len, "key00000", 8);
    CHECK_MEM(rd->info.largest, rd->info.largest_len, "key00499", 8);
    CHECK_EQ(rd->rtombs.count, 1);
    /* the writer notes each bloom's exact hash count: 500 keys; plus one
     * prefix ("key", deduplicated) for the fixed:3 policy */
    uint64_t m = 0;
    CHECK(fl_sst_info_hash_note(&rd->info, "_bf", &m));
    CHECK_EQ(m, 500);
    CHECK(fl_sst_info_hash_note(&rd->info, "_bf:p=fixed3", &m));
    CHECK_EQ(m, 501);
    CHECK(!fl_sst_info_hash_note(&rd->info, "other", &m));
    CHECK(rd->subs[0].bloom);
    CHECK(rd->subs[0].bloom_expected_fp > 0.0 && rd->subs[0].bloom_expected_fp < 0.02);
    for (int i = 0; i < 500; i += 7) {
        char k[32], v[32];
        snprintf(k, sizeof k, "key%05d", i);
        snprintf(v, sizeof v, "value-%d", i);
        fl_entry e;
        CHECK_EQ(fl_sst_get(rd, (const uint8_t *)k, strlen(k), &e, err, sizeof err), 1);
        CHECK_EQ(e.seq, 1000 - i);
        if (i % 3 == 2) CHECK_EQ(e.kind, FL_ENTRY_DELETE);
        else CHECK_MEM(e.val, e.vlen, v, strlen(v));
    }
    fl_entry e;
    CHECK_EQ(fl_sst_get(rd, (const uint8_t *)"key0", 4, &e, err, sizeof err), 0);
    CHECK_EQ(fl_sst_get(rd, (const uint8_t *)"zzz", 3, &e, err, sizeof err), 0);
    /* full iteration is in order and complete */
    fl_sst_iter it;
    CHECK_OK(fl_sst_seek(rd, NULL, 0, &it, err, sizeof err));
    int n = 0;
    while (fl_sst_next(&it, &e, err, sizeof err) == 1) n++;
    CHECK_EQ(n, 500);
    fl_sst_close(rd);
    fl_policy_list_free(NULL, &pl);
    fl_registry_free(r);
}

FL_TEST(sst_info_defaults_and_unknown_tags) {
    fl_sst_info info;
    /* empty block: everything at its default, filter_format Legacy */
    CHECK_OK(fl_sst_info_decode((fl_slice){ (const uint8_t *)"", 0 }, &info));
    CHECK_EQ(info.filter_format, FL_FILTER_LEGACY);
    CHECK_EQ(info.filter_len, 0);
    CHECK_EQ(info.entries, 0);
    CHECK_EQ(info.smallest_len, 0);
    fl_sst_info_free(&info);
    /* unknown tag 200 skipped; entries = 5; filter_format = 1 */
    const uint8_t b[] = { 200, 3, 'a', 'b', 'c', 4, 1, 5, 15, 1, 1 };
    CHECK_OK(fl_sst_info_decode((fl_slice){ b, sizeof b }, &info));
    CHECK_EQ(info.entries, 5);
    CHECK_EQ(info.filter_format, FL_FILTER_COMPOSITE);
    fl_sst_info_free(&info);
    /* a field running past the block, a bad varint: corrupt */
    const uint8_t bad1[] = { 4, 5, 1 };
    CHECK_RC(fl_sst_info_decode((fl_slice){ bad1, sizeof bad1 }, &info), FL_ERR_CORRUPT);
    const uint8_t bad2[] = { 4, 2, 0x80, 0x80 };
    CHECK_RC(fl_sst_info_decode((fl_slice){ bad2, sizeof bad2 }, &info), FL_ERR_CORRUPT);
    /* encode then decode */
    fl_sst_info in = { .entries = 9, .max_seq = 1u << 30, .filter_format = FL_FILTER_COMPOSITE,
                       .smallest = (uint8_t *)"a", .smallest_len = 1,
                       .largest = (uint8_t *)"zz", .largest_len = 2, .largest_exclusive = true };
    fl_buf buf;
    fl_buf_init(&buf);
    CHECK_OK(fl_sst_info_encode(&in, &buf));
    CHECK_OK(fl_sst_info_decode((fl_slice){ buf.data, buf.len }, &info));
    CHECK_EQ(info.entries, 9);
    CHECK_EQ(info.max_seq, 1u << 30);
    CHECK(info.largest_exclusive);
    CHECK_MEM(info.largest, info.largest_len, "zz", 2);
    fl_sst_info_free(&info);
    /* a Legacy writer leaves filter_format out */
    in.filter_format = FL_FILTER_LEGACY;
    fl_buf_reset(&buf);
    CHECK_OK(fl_sst_info_encode(&in, &buf));
    CHECK_OK(fl_sst_info_decode((fl_slice){ buf.data, buf.len }, &info));
    CHECK_EQ(info.filter_format, FL_FILTER_LEGACY);
    fl_sst_info_free(&info);
    fl_buf_free(&buf);
}

FL_TEST(composite_block_layout_and_malformed) {
    fl_named_filter in[2] = { { "_bf", { (const uint8_t *)"xyz", 3 } }, { "m", { (const uint8_t *)"", 0 } } };
    fl_buf b;
    fl_buf_init(&b);
    CHECK_OK(fl_composite_encode(in, 2, &b));
    const uint8_t want[] = { 0, 2, 0, 3, '_', 'b', 'f', 0, 0, 0, 0, 0, 0, 0, 3, 'x', 'y', 'z',
                             0, 1, 'm', 0, 0, 0, 0, 0, 0, 0, 0 };
    CHECK_MEM(b.data, b.len, want, sizeof want);
    fl_named_filter *out;
    size_t n;
    CHECK_OK(fl_composite_parse((fl_slice){ b.data, b.len }, &out, &n));
    CHECK_EQ(n, 2);
    CHECK_STR(out[0].name, "_bf");
    CHECK_MEM(out[0].data.data, out[0].data.len, "xyz", 3);
    CHECK_EQ(out[1].data.len, 0);
    fl_named_filters_free(out, n);
    /* every truncation is malformed; so are trailing bytes and duplicates */
    for (size_t cut = 0; cut < b.len; cut++)
        CHECK_RC(fl_composite_parse((fl_slice){ b.data, cut }, &out, &n), FL_ERR_CORRUPT);
    CHECK_OK(fl_buf_put_u8(&b, 0));
    CHECK_RC(fl_composite_parse((fl_slice){ b.data, b.len }, &out, &n), FL_ERR_CORRUPT);
    fl_named_filter dup[2] = { { "a", { (const uint8_t *)"", 0 } }, { "a", { (const uint8_t *)"", 0 } } };
    fl_buf_reset(&b);
    CHECK_OK(fl_composite_encode(dup, 2, &b));
    CHECK_RC(fl_composite_parse((fl_slice){ b.data, b.len }, &out, &n), FL_ERR_CORRUPT);
    /* a data length past the end */
    const uint8_t big[] = { 0, 1, 0, 1, 'a', 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    CHECK_RC(fl_composite_parse((fl_slice){ big, sizeof big }, &out, &n), FL_ERR_CORRUPT);
    /* zero filters is a valid, empty block */
    const uint8_t zero[] = { 0, 0 };
    CHECK_OK(fl_composite_parse((fl_slice){ zero, 2 }, &out, &n));
    CHECK_EQ(n, 0);
    fl_named_filters_free(out, n);
    fl_buf_free(&b);
}

FL_TEST(legacy_block_read_as_whole_key_bloom) {
    fl_registry *r = reg();
    fl_policy_list w, rd_pl, none;
    char err[512];
    CHECK_OK(fl_policy_list_parse(r, NULL, "bloom(bits=12)", &w, err, sizeof err));
    CHECK_OK(fl_policy_list_parse(r, NULL, "bloom(bits=10,prefix=fixed:3,whole_key=0)", &rd_pl, err, sizeof err));
    CHECK_OK(fl_policy_list_parse(r, NULL, "none", &none, err, sizeof err));
    const char *dir = fl_test_tmpdir();
    fl_sst_info info;
    write_sst(dir, &w, 3, 200, 1, &info);
    fl_sst_info_free(&info);
    fl_sst_reader *rd;
    uint64_t ferr = 0;
    /* read with a prefix-only bloom: still decoded as a whole-key filter */
    CHECK_OK(fl_sst_open(fl_env_posix(), dir, 3, &rd_pl, NULL, &rd, &ferr, err, sizeof err));
    CHECK(rd->legacy);
    CHECK_EQ(rd->info.filter_format, FL_FILTER_LEGACY);
    CHECK_EQ(rd->sub_count, 1);
    CHECK(rd->subs[0].filter != NULL);
    for (int i = 0; i < 200; i++) {
        char k[32];
        snprintf(k, sizeof k, "key%05d", i);
        fl_filter_query q = { { FL_TARGET_POINT, { (const uint8_t *)k, strlen(k) } }, NULL };
        CHECK(fl_call_might_match(NULL, rd->subs[0].policy, rd->subs[0].filter, &q));
    }
    fl_filter_query pq = { { FL_TARGET_PREFIX, { (const uint8_t *)"zzz", 3 } }, NULL };
    CHECK(fl_call_might_match(NULL, rd->subs[0].policy, rd->subs[0].filter, &pq));
    int rejected = 0;
    for (int i = 0; i < 1000; i++) {
        char k[32];
        snprintf(k, sizeof k, "absent%05d", i);
        fl_filter_query q = { { FL_TARGET_POINT, { (const uint8_t *)k, strlen(k) } }, NULL };
        rejected += !fl_call_might_match(NULL, rd->subs[0].policy, rd->subs[0].filter, &q);
    }
    CHECK(rejected > 950);
    fl_sst_close(rd);
    /* with no built-in bloom configured, a Legacy block is unusable */
    CHECK_OK(fl_sst_open(fl_env_posix(), dir, 3, &none, NULL, &rd, &ferr, err, sizeof err));
    CHECK_EQ(rd->sub_count, 1);
    CHECK(rd->subs[0].filter == NULL);
    fl_sst_close(rd);
    fl_policy_list_free(NULL, &w);
    fl_policy_list_free(NULL, &rd_pl);
    fl_policy_list_free(NULL, &none);
    fl_registry_free(r);
}

/* Flips one byte of a copy of the SST at every offset and opens and reads it:
 * each flip is either detected (FL_ERR_CORRUPT naming file and block), or
 * lands in the filter block (SST unfiltered, filter error counted).  On
 * disk, and in the memory env, whose data blocks are checked where they
 * lie (viewed, not copied). */
FL_TEST(sst_byte_flips_are_detected) {
    fl_registry *r = reg();
    fl_policy_list pl;
    char err[512];
    CHECK_OK(fl_policy_list_parse(r, NULL, "bloom(bits=10)", &pl, err, sizeof err));
    const char *dir = fl_test_tmpdir();
    fl_sst_info info;
    write_sst(dir, &pl, 1, 60, 0, &info);
    uint64_t foff = info.filter_offset, flen = info.filter_len;
    fl_sst_info_free(&info);
    char path[4200];
    fl_sst_path(dir, 1, path, sizeof path);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (!f) return;
    uint8_t orig[65536];
    size_t len = fread(orig, 1, sizeof orig, f);
    fclose(f);
    CHECK(len > 100 && len < sizeof orig);
    fl_env *mem;
    CHECK_OK(fl_env_memory_new(&mem));
    int corrupt = 0, unfiltered = 0;
    for (size_t at = 0; at < 2 * len; at++) {
        fl_env *env = at < len ? fl_env_posix() : mem;
        uint8_t copy[65536];
        memcpy(copy, orig, len);
        copy[at % len] ^= 0x5A;
        fl_sst_path(dir, 2, path, sizeof path);
        CHECK_EQ(fl_env_write_file(env, path, copy, len, true), 0);
        fl_sst_reader *rd = NULL;
        uint64_t ferr = 0;
        err[0] = 0;
        int rc = fl_sst_open(env, dir, 2, &pl, NULL, &rd, &ferr, err, sizeof err);
        if (rc == FL_OK) {
            /* read everything: data and index flips surface here */
            fl_sst_iter it;
            fl_entry e;
            rc = fl_sst_seek(rd, NULL, 0, &it, err, sizeof err);
            while (rc == FL_OK && (rc = fl_sst_next(&it, &e, err, sizeof err)) == 1) rc = FL_OK;
            if (rc == 0 && ferr == 0) {
                fl_test_fail(__FILE__, __LINE__, "flip at %zu went unnoticed", at);
            }
            if (rc == 0 && ferr) {
                unfiltered++;
                CHECK(at % len >= foff && at % len < foff + flen + 8);
            }
            fl_sst_close(rd);
        }
        if (rc < 0) {
            CHECK_RC(rc, FL_ERR_CORRUPT);
            CHECK_CONTAINS(err, "000002.sst");
            CHECK_CONTAINS(err, "block");
            corrupt++;
        }
    }
    CHECK(corrupt > 0);
    CHECK(unfiltered > 0);
    fl_env_free(mem);
    fl_policy_list_free(NULL, &pl);
    fl_registry_free(r);
}

/* ---- Seeks against the scan from the start ---------------------------------
 * A seek must land where decoding its block from the start would stop (the
 * first entry whose key is >= the target, in stored order), and fail where
 * that decoding would, whatever seeks came before it: the reader keeps what
 * seeks decoded.  The reference here follows the format alone: the block is
 * the first (by plain bisection of the index) whose last key is >= the
 * target, its entries taken as the writer cut them. */

typedef struct ref_entry { char key[24]; size_t klen; uint8_t kind; uint64_t seq; size_t block; } ref_entry;

static size_t varint_len(uint64_t v) { size_t n = 1; while (v >= 0x80) { v >>= 7; n++; } return n; }

static uint64_t seek_rng(uint64_t *s) { *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17; return *s; }

/* Writes the n entries in their order (block_bytes 64) and notes each
 * one's block as the writer cuts them (a new block before a new key once
 * the block holds block_bytes). */
static void write_entries(const char *dir, uint64_t id, ref_entry *es, size_t n) {
    fl_sst_write_cfg cfg = { .env = fl_env_posix(), .dir = dir, .policies = NULL, .block_bytes = 64 };
    fl_policy_list none = { 0 };
    cfg.policies = &none;
    fl_sst_writer *w;
    char err[512];
    CHECK_OK(fl_sst_writer_new(&cfg, id, &w, err, sizeof err));
    size_t block = 0, bytes = 0;
    for (size_t i = 0; i < n; i++) {
        bool same = i > 0 && es[i].klen == es[i - 1].klen && memcmp(es[i].key, es[i - 1].key, es[i].klen) == 0;
        if (!same && bytes >= 64) { block++; bytes = 0; }
        es[i].block = block;
        bytes += varint_len(es[i].klen) + es[i].klen + 1 + varint_len(es[i].seq) + varint_len(1) + 1;
        fl_entry e = { (const uint8_t *)es[i].key, es[i].klen, (const uint8_t *)"v", 1, es[i].seq, es[i].kind };
        CHECK_OK(fl_sst_writer_add(w, &e));
    }
    fl_sst_info info;
    CHECK_OK(fl_sst_writer_finish(w, &info, err, sizeof err));
    fl_sst_info_free(&info);
}

/* The reference seek: 1 and *at (an entry's number), 0 past the end, or
 * FL_ERR_CORRUPT (a malformed entry met first). */
static int ref_seek(const fl_sst_reader *rd, const ref_entry *es, size_t n, const uint8_t *k, size_t klen,
                    size_t *at) {
    size_t lo = 0, hi = rd->index_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (fl_bytes_cmp(rd->index[mid].last, rd->index[mid].last_len, k, klen) < 0) lo = mid + 1;
        else hi = mid;
    }
    size_t i = 0;
    while (i < n && es[i].block < lo) i++;
    for (; i < n && es[i].block == lo; i++) {
        if (es[i].kind != FL_ENTRY_PUT && es[i].kind != FL_ENTRY_DELETE) return FL_ERR_CORRUPT;
        if (fl_bytes_cmp((const uint8_t *)es[i].key, es[i].klen, k, klen) >= 0) { *at = i; return 1; }
    }
    if (i < n && es[i].kind != FL_ENTRY_PUT && es[i].kind != FL_ENTRY_DELETE) return FL_ERR_CORRUPT;
    if (i < n) { *at = i; return 1; }         /* the next block's first */
    return 0;
}

static void check_seeks(const char *dir, uint64_t id, ref_entry *es, size_t n, uint64_t seed) {
    write_entries(dir, id, es, n);
    fl_policy_list none = { 0 };
    fl_sst_reader *rd;
    uint64_t ferr = 0;
    char err[512];
    CHECK_OK(fl_sst_open(fl_env_posix(), dir, id, &none, NULL, &rd, &ferr, err, sizeof err));
    if (!rd) return;
    fl_sst_iter it;
    fl_sst_seek(rd, (const uint8_t *)"", 0, &it, err, sizeof err);   /* loads the index */
    CHECK(rd->index_loaded);
    /* targets: every key, and each with a byte added or its last removed */
    size_t nt = 3 * n;
    char (*tk)[26] = calloc(nt, sizeof *tk);
    size_t *tl = calloc(nt, sizeof *tl);
    for (size_t i = 0; i < n; i++) {
        memcpy(tk[3 * i], es[i].key, es[i].klen);
        tl[3 * i] = es[i].klen;
        memcpy(tk[3 * i + 1], es[i].key, es[i].klen);
        tk[3 * i + 1][es[i].klen] = (char)(seed & 1 ? 0 : 0x7f);
        tl[3 * i + 1] = es[i].klen + 1;
        memcpy(tk[3 * i + 2], es[i].key, es[i].klen);
        tl[3 * i + 2] = es[i].klen ? es[i].klen - 1 : 0;
    }
    for (int pass = 0; pass < 3; pass++) {
        for (size_t t = 0; t < nt; t++) {
            size_t j = t + (size_t)(seek_rng(&seed) % (nt - t));     /* targets in random order */
            char ks[26];
            memcpy(ks, tk[t], sizeof ks); memcpy(tk[t], tk[j], sizeof ks); memcpy(tk[j], ks, sizeof ks);
            size_t ls = tl[t]; tl[t] = tl[j]; tl[j] = ls;
            const uint8_t *k = (const uint8_t *)tk[t];
            size_t at = 0;
            int want = ref_seek(rd, es, n, k, tl[t], &at);
            fl_entry e;
            int got;
            if (seek_rng(&seed) & 1) {
                got = fl_sst_seek(rd, k, tl[t], &it, err, sizeof err);
                if (got == FL_OK) got = fl_sst_next(&it, &e, err, sizeof err);
                CHECK_EQ(got, want);
                if (got == 1 && want == 1) {
                    CHECK_MEM(e.key, e.klen, es[at].key, es[at].klen);
                    CHECK_EQ(e.seq, es[at].seq);
                }
            } else {
                got = fl_sst_get(rd, k, tl[t], &e, err, sizeof err);
                int wget = want == 1 ? (es[at].klen == tl[t] && memcmp(es[at].key, k, tl[t]) == 0) : want;
                CHECK_EQ(got, wget);
                if (got == 1 && wget == 1) CHECK_EQ(e.seq, es[at].seq);
            }
            if (got == FL_ERR_CORRUPT) CHECK_CONTAINS(err, "malformed entry");
        }
    }
    free(tk);
    free(tl);
    fl_sst_close(rd);
}

FL_TEST(sst_seeks_land_where_a_scan_from_the_start_would) {
    const char *dir = fl_test_tmpdir();
    enum { N = 300 };
    ref_entry *es = calloc(N, sizeof *es);
    /* keys short and long, many sharing their first 8 bytes ("prefix00"),
     * some versions of one key, in order */
    size_t n = 0;
    for (int i = 0; n < N; i++) {
        ref_entry *e = &es[n++];
        int shape = i % 4;
        if (shape == 0) e->klen = (size_t)snprintf(e->key, sizeof e->key, "p%d", i);
        else if (shape == 1) e->klen = (size_t)snprintf(e->key, sizeof e->key, "prefix00%04d", i);
        else if (shape == 2) e->klen = (size_t)snprintf(e->key, sizeof e->key, "prefix00%04d", i - 1) + 1;
        else e->klen = (size_t)snprintf(e->key, sizeof e->key, "prefix%02d", i % 100);
        e->kind = FL_ENTRY_PUT;
        e->seq = 1000 + (uint64_t)i;
        if (n < N && i % 10 == 0) { es[n] = *e; es[n].seq--; n++; }    /* an older version */
    }
    /* sort by key, newest first */
    for (size_t i = 1; i < N; i++)
        for (size_t j = i; j > 0; j--) {
            int c = fl_bytes_cmp((const uint8_t *)es[j - 1].key, es[j - 1].klen, (const uint8_t *)es[j].key, es[j].klen);
            if (c < 0 || (c == 0 && es[j - 1].seq > es[j].seq)) break;
            ref_entry t = es[j]; es[j] = es[j - 1]; es[j - 1] = t;
        }
    ref_entry *copy = calloc(N, sizeof *copy);
    memcpy(copy, es, N * sizeof *es);
    check_seeks(dir, 31, copy, N, 1);
    /* a malformed entry (kind 7) in the middle of a block, and one first */
    memcpy(copy, es, N * sizeof *es);
    copy[N / 2].kind = 7;
    check_seeks(dir, 32, copy, N, 2);
    memcpy(copy, es, N * sizeof *es);
    copy[0].kind = 9;
    check_seeks(dir, 33, copy, N, 3);
    /* keys going down inside blocks: neighbours swapped here and there */
    memcpy(copy, es, N * sizeof *es);
    for (size_t i = 5; i + 1 < N; i += 37) { ref_entry t = copy[i]; copy[i] = copy[i + 1]; copy[i + 1] = t; }
    check_seeks(dir, 34, copy, N, 4);
    /* all shuffled: blocks and index out of order */
    memcpy(copy, es, N * sizeof *es);
    uint64_t s = 99;
    for (size_t i = N - 1; i > 0; i--) {
        size_t j = (size_t)(seek_rng(&s) % (i + 1));
        ref_entry t = copy[i]; copy[i] = copy[j]; copy[j] = t;
    }
    check_seeks(dir, 35, copy, N, 5);
    free(copy);
    free(es);
}
