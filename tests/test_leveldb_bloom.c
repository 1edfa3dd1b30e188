/*
 * test_leveldb_bloom.c -- the checksum, hash and bloom of filterlab's
 * reader of LevelDB 1.23's tables (adapters/leveldb/leveldb_sst.c):
 * CRC32C and LevelDB's hash against published vectors; the bloom's sizes,
 * k, no false negatives and a sane FP rate.
 */
#include "test.h"
#include "../adapters/leveldb/leveldb_sst.h"

/* ---- CRC32C, hash, bloom ---------------------------------------------------------- */

FL_TEST(ldb_crc32c_vectors) {
    uint8_t b[32];
    CHECK_EQ(fl_ldb_crc32c((const uint8_t *)"123456789", 9), 0xe3069283u);
    CHECK_EQ(fl_ldb_crc32c(NULL, 0), 0);
    memset(b, 0, 32);
    CHECK_EQ(fl_ldb_crc32c(b, 32), 0x8a9136aau);              /* RFC 3720 B.4 */
    memset(b, 0xff, 32);
    CHECK_EQ(fl_ldb_crc32c(b, 32), 0x62a8ab43u);
    for (int i = 0; i < 32; i++) b[i] = (uint8_t)i;
    CHECK_EQ(fl_ldb_crc32c(b, 32), 0x46dd794eu);
    for (int i = 0; i < 32; i++) b[i] = (uint8_t)(31 - i);
    CHECK_EQ(fl_ldb_crc32c(b, 32), 0x113fdb5cu);
    CHECK_EQ(fl_ldb_crc_mask(0), 0xa282ead8u);
    CHECK_EQ(fl_ldb_crc_mask(1), 0xa284ead8u);               /* 1 rotated right 15 = 1 << 17 */
    CHECK_EQ(fl_ldb_crc_mask(0x8000), 0xa282ead9u);          /* 1 << 15 rotated right 15 = 1 */
}

FL_TEST(ldb_hash_vectors) {
    /* util/hash_test.cc's SignedUnsignedIssue vectors (LevelDB 1.23) */
    static const uint8_t d1[] = { 0x62 }, d2[] = { 0xc3, 0x97 }, d3[] = { 0xe2, 0x99, 0xa5 },
                         d4[] = { 0xe1, 0x80, 0xb9, 0x32 };
    static const uint8_t d5[48] = {
        0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
        0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    };
    CHECK_EQ(fl_ldb_hash(NULL, 0, 0xbc9f1d34u), 0xbc9f1d34u);
    CHECK_EQ(fl_ldb_hash(d1, 1, 0xbc9f1d34u), 0xef1345c4u);
    CHECK_EQ(fl_ldb_hash(d2, 2, 0xbc9f1d34u), 0x5b663814u);
    CHECK_EQ(fl_ldb_hash(d3, 3, 0xbc9f1d34u), 0x323c078fu);
    CHECK_EQ(fl_ldb_hash(d4, 4, 0xbc9f1d34u), 0xed21633au);
    CHECK_EQ(fl_ldb_hash(d5, 48, 0x12345678u), 0xf333dabbu);
    CHECK_EQ(fl_ldb_bloom_hash(d3, 3), 0x323c078fu);
    /* by hand: n = 0 leaves h = seed ^ 0; one byte b: (seed ^ m + b) * m, ^ >> 24 */
    uint32_t h = (0x1u ^ 0xc6a4a793u) + 0x62u;
    h *= 0xc6a4a793u;
    h ^= h >> 24;
    CHECK_EQ(fl_ldb_hash(d1, 1, 1), h);
}

FL_TEST(ldb_bloom_build_and_match) {
    enum { N = 10000 };
    static char kb[N][16];
    static fl_slice keys[N];
    for (int i = 0; i < N; i++) {
        int n = snprintf(kb[i], sizeof kb[i], "key%d", i);
        keys[i] = (fl_slice){ (const uint8_t *)kb[i], (size_t)n };
    }
    fl_buf f;
    fl_buf_init(&f);
    CHECK_OK(fl_ldb_bloom_build(keys, N, 10, &f));
    CHECK_EQ(f.len, N * 10 / 8 + 1);
    CHECK_EQ(f.data[f.len - 1], 6);                         /* (size_t)(10 * 0.69) */
    fl_slice fs = { f.data, f.len };
    for (int i = 0; i < N; i++)
        if (!fl_ldb_bloom_may_match(fs, keys[i].data, keys[i].len)) {
            fl_test_fail(__FILE__, __LINE__, "false negative for %s", kb[i]);
            break;
        }
    int fp = 0;
    for (int i = 0; i < N; i++) {
        char k[24];
        int n = snprintf(k, sizeof k, "absent%d", i);
        bool m = fl_ldb_bloom_may_match(fs, (const uint8_t *)k, (size_t)n);
        CHECK(m == fl_ldb_bloom_may_match_hash(fs, fl_ldb_bloom_hash((const uint8_t *)k, (size_t)n)));
        fp += m;
    }
    CHECK(fp > 0 && fp < N / 50);                           /* ~0.8% expected; LevelDB's test: <= 2% */
    /* sizes and k: at least 64 bits; k = bpk * 0.69 in [1, 30]; appends */
    static const struct { size_t n; int bpk; size_t len; unsigned k; } sz[] = {
        { 0, 10, 9, 6 }, { 1, 1, 9, 1 }, { 3, 2, 9, 1 }, { 7, 10, 10, 6 }, { 100, 3, 39, 2 },
        { 10, 100, 126, 30 }, { 13, 44, 73, 30 }, { 13, 43, 71, 29 },
    };
    for (size_t i = 0; i < sizeof sz / sizeof sz[0]; i++) {
        fl_buf_reset(&f);
        CHECK_OK(fl_buf_append(&f, "x", 1));
        CHECK_OK(fl_ldb_bloom_build(keys, sz[i].n, sz[i].bpk, &f));
        CHECK_EQ(f.len, 1 + sz[i].len);
        CHECK_EQ(f.data[0], 'x');
        CHECK_EQ(f.data[f.len - 1], sz[i].k);
    }
    fl_buf_reset(&f);
    CHECK_OK(fl_ldb_bloom_build(keys, 3, 0, &f));      /* LevelDB's bits 0: 64 bits, k 1 */
    CHECK(f.len == 9 && f.data[8] == 1);
    fl_buf_reset(&f);
    CHECK_RC(fl_ldb_bloom_build(keys, 1, -3, &f), FL_ERR_INVALID);
    /* KeyMayMatch's edges: < 2 bytes no; k > 30 yes; clear bits no */
    uint8_t raw[9] = { 0 };
    CHECK(!fl_ldb_bloom_may_match((fl_slice){ raw, 0 }, raw, 1));
    CHECK(!fl_ldb_bloom_may_match((fl_slice){ raw, 1 }, raw, 1));
    raw[8] = 6;
    CHECK(!fl_ldb_bloom_may_match((fl_slice){ raw, 9 }, raw, 1));
    raw[8] = 31;
    CHECK(fl_ldb_bloom_may_match((fl_slice){ raw, 9 }, raw, 1));
    raw[8] = 0;                                             /* no probes: yes */
    CHECK(fl_ldb_bloom_may_match((fl_slice){ raw, 9 }, raw, 1));
    memset(raw, 0xff, 8);
    raw[8] = 30;
    CHECK(fl_ldb_bloom_may_match_hash((fl_slice){ raw, 9 }, 12345));
    fl_buf_free(&f);
}
