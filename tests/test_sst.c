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
 * lands in the filter block (SST unfiltered, filter error counted). */
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
    int corrupt = 0, unfiltered = 0;
    for (size_t at = 0; at < len; at++) {
        uint8_t copy[65536];
        memcpy(copy, orig, len);
        copy[at] ^= 0x5A;
        fl_sst_path(dir, 2, path, sizeof path);
        FILE *o = fopen(path, "wb");
        fwrite(copy, 1, len, o);
        fclose(o);
        fl_sst_reader *rd = NULL;
        uint64_t ferr = 0;
        err[0] = 0;
        int rc = fl_sst_open(fl_env_posix(), dir, 2, &pl, NULL, &rd, &ferr, err, sizeof err);
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
                CHECK(at >= foff && at < foff + flen + 8);
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
    fl_policy_list_free(NULL, &pl);
    fl_registry_free(r);
}
