/*
 * test_bloom.c -- the built-in bloom policy against SPEC section 5.
 *
 * The expected bytes are derived by hand, independently of bloom.c: the
 * XXH3-64 values were computed once with `xxhsum -H3` (Debian package
 * xxhash) and the bit positions from the section 5 formulas, as written in
 * the comment of each test.  Statistical checks state their tolerance and
 * print a CSV row (test,bits_per_key,keys,probes,measured_fp,expected_fp).
 */
#include "test.h"
#include "../engine/filter_internal.h"
#include "../model/model.h"

#include <math.h>
#include <stdlib.h>

/* The call context of the helpers below: NULL (the fallback) but in the
 * test that counts calls. */
static fl_calls *calls;

/* ---- Helpers ------------------------------------------------------------ */

static fl_filter_policy *make_policy(fl_registry *reg, const char *spec) {
    char err[512] = "";
    fl_filter_policy *p = NULL;
    int rc = fl_registry_make_policy(reg, spec, &p, err, sizeof err);
    if (rc != FL_OK) fl_test_fail(__FILE__, __LINE__, "make_policy(%s): %s", spec, err);
    return p;
}

static void add_key(const fl_filter_policy *p, fl_filter_builder *b, const char *key, size_t len) {
    fl_row_entry e = { { (const uint8_t *)key, len }, { NULL, 0 }, 1, FL_ENTRY_PUT };
    fl_call_add_entry(calls, p, b, &e);
}

/* Builds a filter from NUL-terminated keys, in the order given. */
static fl_filter *build(const fl_filter_policy *p, const char *const *keys, size_t n) {
    fl_filter_builder *b = NULL;
    fl_filter *f = NULL;
    CHECK_OK(fl_call_new_builder(calls, p, &b));
    if (!b) return NULL;
    for (size_t i = 0; i < n; i++) add_key(p, b, keys[i], strlen(keys[i]));
    CHECK_OK(fl_call_build(calls, p, b, &f));
    fl_call_builder_destroy(calls, p, b);
    return f;
}

static bool query(const fl_filter_policy *p, const fl_filter *f, fl_target_kind kind,
                  const char *bytes) {
    fl_filter_query q = { { kind, { (const uint8_t *)bytes, strlen(bytes) } }, NULL };
    return fl_call_might_match(calls, p, f, &q);
}

static bool point(const fl_filter_policy *p, const fl_filter *f, const char *key) {
    return query(p, f, FL_TARGET_POINT, key);
}

static bool prefix(const fl_filter_policy *p, const fl_filter *f, const char *pre) {
    return query(p, f, FL_TARGET_PREFIX, pre);
}

/* The expected encoding: header, then `lines` zeroed lines. */
static size_t expected_init(uint8_t *out, unsigned k, uint32_t lines) {
    out[0] = 1;
    out[1] = (uint8_t)k;
    out[2] = (uint8_t)(lines >> 24);
    out[3] = (uint8_t)(lines >> 16);
    out[4] = (uint8_t)(lines >> 8);
    out[5] = (uint8_t)lines;
    memset(out + 6, 0, (size_t)lines * 64);
    return 6 + (size_t)lines * 64;
}

/* Sets bits (0..511) of line: bit i is bit i % 8 of byte i / 8. */
static void expected_set(uint8_t *out, uint32_t line, const unsigned *bits, size_t n) {
    for (size_t i = 0; i < n; i++)
        out[6 + line * 64 + bits[i] / 8] |= (uint8_t)(1u << (bits[i] % 8));
}

static void check_encoding(const fl_filter_policy *p, const fl_filter *f, const uint8_t *want,
                           size_t want_len) {
    fl_buf buf;
    fl_buf_init(&buf);
    CHECK_OK(fl_call_encode(calls, p, f, &buf));
    CHECK_MEM(buf.data, buf.len, want, want_len);
    fl_buf_free(&buf);
}

/* ---- k table ------------------------------------------------------------ */

FL_TEST(bloom_k_table_boundaries) {
    static const struct { uint64_t mb; unsigned k; } rows[] = {
        { 0, 1 },      { 2080, 1 },   { 2081, 2 },   { 3580, 2 },   { 3581, 3 },
        { 5100, 3 },   { 5101, 4 },   { 6640, 4 },   { 6641, 5 },   { 8300, 5 },
        { 8301, 6 },   { 10000, 6 },  { 10070, 6 },  { 10071, 7 },  { 11720, 7 },
        { 11721, 8 },  { 14000, 8 },  { 14001, 9 },  { 16050, 9 },  { 16051, 10 },
        { 18300, 10 }, { 18301, 11 }, { 22000, 11 }, { 22001, 12 }, { 25500, 12 },
        /* above 25500: min(24, mb / 2000 - 1), integer division, as written
         * (so 25501..25999 give 11, one less than the row before). */
        { 25501, 11 }, { 25999, 11 }, { 26000, 12 }, { 27999, 12 }, { 28000, 13 },
        { 49999, 23 }, { 50000, 24 }, { 52000, 24 }, { 1000000, 24 },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        unsigned k = fl_bloom_probes_for_millibits(rows[i].mb);
        if (k != rows[i].k)
            fl_test_fail(__FILE__, __LINE__, "k(%" PRIu64 ") = %u, expected %u", rows[i].mb, k,
                         rows[i].k);
    }
}

/* The probe multipliers are the powers of the spec's step, 0x9E3779B9. */
FL_TEST(bloom_multiplier_table) {
    uint32_t power = 1;
    for (unsigned i = 0; i < 32; i++) {
        if (fl_bloom_mul[i] != power)
            fl_test_fail(__FILE__, __LINE__, "fl_bloom_mul[%u] = 0x%08x, expected 0x%08x", i,
                         fl_bloom_mul[i], power);
        power *= 0x9E3779B9u;
    }
}

/* The scalar probe, the AVX2 probe (where the CPU has it) and the spec's
 * running product agree on every k a decoder accepts, over lines from
 * sparse to full. */
FL_TEST(bloom_probe_kernels_agree) {
    uint64_t x = 12345;
    uint8_t line[64];
    unsigned yes = 0, tried = 0;
    for (unsigned round = 0; round < 4000; round++) {
        unsigned density = round % 8;             /* 0: sparse .. 7: nearly full */
        for (size_t i = 0; i < sizeof line; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            uint8_t byte = (uint8_t)(x >> 56);
            for (unsigned d = 0; d < density; d++) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                byte |= (uint8_t)(x >> 56);
            }
            line[i] = byte;
        }
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t a = (uint32_t)(x >> 32);
        for (unsigned k = 1; k <= 30; k++) {
            bool want = true;
            uint32_t run = a;
            for (unsigned i = 0; i < k; i++, run *= 0x9E3779B9u)
                want &= (line[(run >> 23) / 8] >> ((run >> 23) % 8)) & 1;
            bool scalar = fl_bloom_line_test(line, a, k, FL_BLOOM_SCALAR);
            bool avx2 = fl_bloom_line_test(line, a, k, FL_BLOOM_AVX2);
            bool avx512 = fl_bloom_line_test(line, a, k, FL_BLOOM_AVX512);
            if (scalar != want || avx2 != want || avx512 != want)
                fl_test_fail(__FILE__, __LINE__, "k=%u a=0x%08x: spec %d, scalar %d, avx2 %d, avx512 %d "
                             "(best kernel here: %d)", k, a, want, scalar, avx2, avx512,
                             (int)fl_bloom_best_kernel());
            yes += want;
            tried++;
        }
    }
    CHECK(yes > tried / 10 && yes < tried - tried / 10);   /* both answers exercised */
}

/* The build kernels (scalar, and AVX-512 where the CPU has it; the AVX2
 * kernel builds the scalar way) set exactly the bits of the spec's running
 * product, for every k a decoder accepts, in filters from one line to
 * past the size where the SIMD kernel prefetches, for counts of hashes
 * around its batches of eight (tails of 0 to 7 hashes set the scalar way). */
FL_TEST(bloom_build_kernels_agree) {
    static const uint32_t line_counts[] = { 1, 3, 97, 20000 };     /* 20000 lines: 1.2 MiB */
    static const size_t counts[] = { 0, 1, 7, 8, 9, 15, 16, 17, 23, 1001 };
    size_t max_count = 1001 + 7;
    uint64_t *hashes = malloc(max_count * sizeof *hashes);
    CHECK(hashes != NULL);
    uint64_t x = 777;
    for (size_t i = 0; i < max_count; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        hashes[i] = x ^ (x >> 29);
    }
    for (size_t li = 0; li < sizeof line_counts / sizeof *line_counts; li++) {
        uint32_t lines = line_counts[li];
        size_t bytes = (size_t)lines * 64;
        uint8_t *want = calloc(bytes, 1), *scalar = calloc(bytes, 1), *avx2 = calloc(bytes, 1),
                *avx512 = calloc(bytes, 1);
        CHECK(want && scalar && avx2 && avx512);
        for (unsigned k = 1; k <= 30; k++) {
            for (size_t ci = 0; ci < sizeof counts / sizeof *counts; ci++) {
                /* 0..7 more than the listed count: every tail length is exercised */
                size_t count = counts[ci] + (k + ci) % 8;
                memset(want, 0, bytes);
                memset(scalar, 0, bytes);
                memset(avx2, 0, bytes);
                memset(avx512, 0, bytes);
                for (size_t i = 0; i < count; i++) {
                    uint64_t h = hashes[i];
                    uint8_t *line = want + (((h >> 32) * lines) >> 32) * 64;
                    uint32_t run = (uint32_t)h;
                    for (unsigned j = 0; j < k; j++, run *= 0x9E3779B9u)
                        line[(run >> 23) / 8] |= (uint8_t)(1u << ((run >> 23) % 8));
                }
                fl_bloom_set_lines(scalar, lines, k, hashes, count, FL_BLOOM_SCALAR);
                fl_bloom_set_lines(avx2, lines, k, hashes, count, FL_BLOOM_AVX2);
                fl_bloom_set_lines(avx512, lines, k, hashes, count, FL_BLOOM_AVX512);
                if (memcmp(scalar, want, bytes) != 0 || memcmp(avx2, want, bytes) != 0 ||
                    memcmp(avx512, want, bytes) != 0)
                    fl_test_fail(__FILE__, __LINE__, "lines=%u k=%u count=%zu: scalar %s, avx2 %s, avx512 %s "
                                 "(best kernel here: %d)", lines, k, count,
                                 memcmp(scalar, want, bytes) ? "differs" : "ok",
                                 memcmp(avx2, want, bytes) ? "differs" : "ok",
                                 memcmp(avx512, want, bytes) ? "differs" : "ok", (int)fl_bloom_best_kernel());
            }
        }
        free(want); free(scalar); free(avx2); free(avx512);
    }
    free(hashes);
}

/* ---- Exact bytes -------------------------------------------------------- */

/* "abc": XXH3 = 0x78af5f94892f3950.  bits=10: mb = 10000, m = 1,
 * lines = ceil(1 * 10000 / 512000) = 1, k = 6 (8300 < mb <= 10070).
 * line = (0x78af5f94 * 1) >> 32 = 0; a = 0x892f3950; a >> 23 = 274, then
 * a *= 0x9E3779B9 each step: 274, 74, 426, 218, 272, 230. */
FL_TEST(bloom_bytes_one_key) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    fl_filter_policy *p = make_policy(reg, "bloom(bits=10)");
    const char *keys[] = { "abc" };
    fl_filter *f = build(p, keys, 1);
    static const unsigned bits[] = { 274, 74, 426, 218, 272, 230 };
    uint8_t want[6 + 64];
    size_t len = expected_init(want, 6, 1);
    expected_set(want, 0, bits, 6);
    CHECK_EQ(want[6 + 34], 0x05);          /* bits 272 and 274 share byte 34 */
    check_encoding(p, f, want, len);
    CHECK_EQ(fl_call_size(calls, p, f), 64);
    CHECK(point(p, f, "abc"));
    fl_call_filter_destroy(calls, p, f);
    fl_call_policy_destroy(calls, p);
    fl_registry_free(reg);
}

/* bits=4: mb = 4000, k = 3 (3580 < mb <= 5100): the first three probes of
 * "abc" above, 274, 74, 426.  bits=0 with the same key: lines = 0. */
FL_TEST(bloom_bytes_k3_and_bits0) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    fl_filter_policy *p = make_policy(reg, "bloom(bits=4)");
    const char *keys[] = { "abc" };
    fl_filter *f = build(p, keys, 1);
    static const unsigned bits[] = { 274, 74, 426 };
    uint8_t want[6 + 64];
    size_t len = expected_init(want, 3, 1);
    expected_set(want, 0, bits, 3);
    check_encoding(p, f, want, len);
    fl_call_filter_destroy(calls, p, f);
    fl_call_policy_destroy(calls, p);

    p = make_policy(reg, "bloom(bits=0)");
    f = build(p, keys, 1);
    len = expected_init(want, 1, 0);       /* k(0) = 1, lines = 0 */
    check_encoding(p, f, want, len);
    CHECK(point(p, f, "abc"));
    CHECK(point(p, f, "anything"));
    CHECK(prefix(p, f, "x"));
    fl_call_filter_destroy(calls, p, f);
    fl_call_policy_destroy(calls, p);
    fl_registry_free(reg);
}

/* bits=300: mb = 300000, k = min(24, 300000 / 2000 - 1) = 24.
 * Keys "abc" and "k1": m = 2, lines = ceil(2 * 300000 / 512000) = 2.
 * "abc" (0x78af5f94892f3950): line = (0x78af5f94 * 2) >> 32 = 0.
 * "k1"  (0x81afbf86b72a36c5): line = (0x81afbf86 * 2) >> 32 = 1,
 * a = 0xb72a36c5.  The 24 probes of each, from a >> 23 and a *= 0x9E3779B9: */
FL_TEST(bloom_bytes_two_lines_k24) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    fl_filter_policy *p = make_policy(reg, "bloom(bits=300)");
    const char *keys[] = { "abc", "k1" };
    fl_filter *f = build(p, keys, 2);
    static const unsigned abc[24] = { 274, 74, 426, 218, 272, 230, 160, 26, 79, 13, 503, 418,
                                      70, 256, 337, 54, 184, 119, 381, 503, 366, 104, 51, 28 };
    static const unsigned k1[24] = { 366, 343, 215, 115, 73, 353, 510, 237, 425, 151, 364, 220,
                                     174, 5, 160, 102, 101, 225, 177, 154, 192, 172, 140, 208 };
    uint8_t want[6 + 128];
    size_t len = expected_init(want, 24, 2);
    expected_set(want, 0, abc, 24);
    expected_set(want, 1, k1, 24);
    check_encoding(p, f, want, len);
    uint64_t m, lines;
    unsigned k;
    CHECK(fl_bloom_filter_stats(f, &m, &lines, &k));
    CHECK_EQ(m, 2);
    CHECK_EQ(lines, 2);
    CHECK_EQ(k, 24);
    fl_call_filter_destroy(calls, p, f);
    fl_call_policy_destroy(calls, p);
    fl_registry_free(reg);
}

/* Prefix hashing.  "user:17" = 0x70d4be0d2e04ed42, "use" = 0x183961d4e1d703c7.
 * prefix=fixed:3,whole_key=0: only hash("use"): m = 1, lines = 1, k = 6,
 *   a = 0xe1d703c7: 451, 237, 256, 380, 170, 238.
 * prefix=fixed:3 (whole key on): hash("user:17") and hash("use"): m = 2,
 *   lines = ceil(2 * 10000 / 512000) = 1; "user:17": a = 0x2e04ed42:
 *   92, 149, 226, 310, 97, 82.
 * The empty key "" = 0x2d06800538d394c2, a = 0x38d394c2: 113, 391, 32, 10, 150, 303. */
FL_TEST(bloom_bytes_prefix_modes_and_empty_key) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    static const unsigned use[6] = { 451, 237, 256, 380, 170, 238 };
    static const unsigned user17[6] = { 92, 149, 226, 310, 97, 82 };
    static const unsigned empty[6] = { 113, 391, 32, 10, 150, 303 };
    const char *keys[] = { "user:17" };
    uint8_t want[6 + 64];

    fl_filter_policy *p = make_policy(reg, "bloom(bits=10,prefix=fixed:3,whole_key=0)");
    fl_filter *f = build(p, keys, 1);
    size_t len = expected_init(want, 6, 1);
    expected_set(want, 0, use, 6);
    check_encoding(p, f, want, len);
    CHECK(point(p, f, "user:17"));         /* probes hash("use") */
    CHECK(prefix(p, f, "user"));           /* fixed:3 of PREFIX "user" = "use" */
    CHECK(prefix(p, f, "us"));             /* none: cannot rule out */
    fl_call_filter_destroy(calls, p, f);
    fl_call_policy_destroy(calls, p);

    p = make_policy(reg, "bloom(bits=10,prefix=fixed:3)");
    f = build(p, keys, 1);
    len = expected_init(want, 6, 1);
    expected_set(want, 0, user17, 6);
    expected_set(want, 0, use, 6);
    check_encoding(p, f, want, len);
    fl_call_filter_destroy(calls, p, f);
    fl_call_policy_destroy(calls, p);

    p = make_policy(reg, "bloom");
    const char *empty_key[] = { "" };
    f = build(p, empty_key, 1);
    len = expected_init(want, 6, 1);
    expected_set(want, 0, empty, 6);
    check_encoding(p, f, want, len);
    CHECK(point(p, f, ""));
    fl_call_filter_destroy(calls, p, f);
    fl_call_policy_destroy(calls, p);
    fl_registry_free(reg);
}

/* ---- Layout, sizing, decode -------------------------------------------- */

FL_TEST(bloom_encoding_layout_and_sizing) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    /* bits=7.5: mb = 7500, k = 5; 100 keys: lines = ceil(750000 / 512000) = 2.
     * bits=10, 1000 keys: lines = ceil(10^7 / 512000) = 20, k = 6. */
    static const struct { const char *spec; size_t keys; uint32_t lines; unsigned k; } rows[] = {
        { "bloom(bits=7.5)", 100, 2, 5 },
        { "bloom(bits=10)", 1000, 20, 6 },
        { "bloom(bits=1000)", 3, 6, 24 },  /* ceil(3 * 10^6 / 512000) = 6 */
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        fl_filter_policy *p = make_policy(reg, rows[r].spec);
        fl_filter_builder *b = NULL;
        CHECK_OK(fl_call_new_builder(calls, p, &b));
        char key[32];
        for (size_t i = 0; i < rows[r].keys; i++) {
            int n = snprintf(key, sizeof key, "key%06zu", i);
            add_key(p, b, key, (size_t)n);
        }
        fl_filter *f = NULL;
        CHECK_OK(fl_call_build(calls, p, b, &f));
        fl_call_builder_destroy(calls, p, b);
        fl_buf buf;
        fl_buf_init(&buf);
        CHECK_OK(fl_call_encode(calls, p, f, &buf));
        CHECK_EQ(buf.len, 6 + (size_t)rows[r].lines * 64);
        CHECK_EQ(buf.data[0], 1);
        CHECK_EQ(buf.data[1], rows[r].k);
        CHECK_EQ(fl_get_be32(buf.data + 2), rows[r].lines);
        CHECK_EQ(fl_call_size(calls, p, f), (size_t)rows[r].lines * 64);
        CHECK_EQ(p->ops->estimate_size(p, rows[r].keys), buf.len);
        uint64_t m, lines;
        unsigned k;
        CHECK(fl_bloom_filter_stats(f, &m, &lines, &k));
        CHECK_EQ(m, rows[r].keys);
        CHECK_EQ(lines, rows[r].lines);
        CHECK_EQ(k, rows[r].k);
        fl_buf_free(&buf);
        fl_call_filter_destroy(calls, p, f);
        fl_call_policy_destroy(calls, p);
    }
    fl_registry_free(reg);
}

FL_TEST(bloom_decode_rejects_malformed) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    fl_filter_policy *p = make_policy(reg, "bloom");
    uint8_t good[6 + 64] = { 1, 6, 0, 0, 0, 1 };
    fl_filter *f = NULL;
    /* Decode directly through the policy: the wrapper would also report a
     * contract violation for each (tested in test_plugin.c). */
    CHECK_OK(p->ops->decode(p, (fl_slice){ good, sizeof good }, &f));
    CHECK(f != NULL);
    CHECK(!point(p, f, "abc"));            /* all bits clear: rules out */
    fl_call_filter_destroy(calls, p, f);

    for (size_t len = 0; len < 6; len++) {
        CHECK_RC(p->ops->decode(p, (fl_slice){ good, len }, &f), FL_ERR_CORRUPT);
        CHECK(f == NULL);
    }
    CHECK_RC(p->ops->decode(p, (fl_slice){ NULL, 0 }, &f), FL_ERR_CORRUPT);
    uint8_t bad[6 + 64 + 1];
    static const struct { uint8_t version, k; uint32_t lines; size_t len; } rows[] = {
        { 0, 6, 1, 70 },                   /* version 0            */
        { 2, 6, 1, 70 },                   /* version 2            */
        { 1, 6, 1, 69 },                   /* one byte short       */
        { 1, 6, 1, 71 },                   /* one byte extra       */
        { 1, 6, 0, 70 },                   /* lines 0, data left   */
        { 1, 6, 0xffffffffu, 70 },         /* lines * 64 huge      */
        { 1, 6, 0x04000001u, 70 },         /* lines * 64 wraps u32 */
        { 1, 0, 1, 70 },                   /* k = 0 with lines     */
        { 1, 31, 1, 70 },                  /* k > 30               */
        { 1, 255, 1, 70 },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        memset(bad, 0xff, sizeof bad);
        bad[0] = rows[i].version;
        bad[1] = rows[i].k;
        bad[2] = (uint8_t)(rows[i].lines >> 24);
        bad[3] = (uint8_t)(rows[i].lines >> 16);
        bad[4] = (uint8_t)(rows[i].lines >> 8);
        bad[5] = (uint8_t)rows[i].lines;
        int rc = p->ops->decode(p, (fl_slice){ bad, rows[i].len }, &f);
        if (rc != FL_ERR_CORRUPT || f)
            fl_test_fail(__FILE__, __LINE__, "malformed row %zu decoded (rc %d)", i, rc);
    }
    /* Accepted edges: k = 30 with lines; k = 0 or 200 with lines = 0. */
    uint8_t k30[6 + 64] = { 1, 30, 0, 0, 0, 1 };
    CHECK_OK(p->ops->decode(p, (fl_slice){ k30, sizeof k30 }, &f));
    fl_call_filter_destroy(calls, p, f);
    uint8_t empty[6] = { 1, 0, 0, 0, 0, 0 };
    CHECK_OK(p->ops->decode(p, (fl_slice){ empty, 6 }, &f));
    CHECK(point(p, f, "abc"));
    CHECK(prefix(p, f, "a"));
    fl_call_filter_destroy(calls, p, f);
    empty[1] = 200;
    CHECK_OK(fl_bloom_legacy_decode((fl_slice){ empty, 6 }, &f));
    CHECK(point(NULL, f, "abc"));
    fl_call_filter_destroy(calls, NULL, f);
    CHECK_RC(fl_bloom_legacy_decode((fl_slice){ bad, 3 }, &f), FL_ERR_CORRUPT);
    fl_call_policy_destroy(calls, p);
    fl_registry_free(reg);
}

FL_TEST(bloom_empty_filter_answers_true) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    const char *specs[] = { "bloom", "bloom(prefix=fixed:2)", "bloom(prefix=delim::,whole_key=0)" };
    for (size_t s = 0; s < 3; s++) {
        fl_filter_policy *p = make_policy(reg, specs[s]);
        fl_filter *f = build(p, NULL, 0);
        uint8_t want[6];
        check_encoding(p, f, want, expected_init(want, 6, 0));
        CHECK(point(p, f, "abc"));
        CHECK(point(p, f, ""));
        CHECK(prefix(p, f, "ab:"));
        CHECK(!fl_bloom_filter_probes(calls, f, &(fl_filter_query){
            { FL_TARGET_POINT, { (const uint8_t *)"abc", 3 } }, NULL }));
        fl_call_filter_destroy(calls, p, f);
        fl_call_policy_destroy(calls, p);
    }
    fl_registry_free(reg);
}

/* ---- Deduplication -------------------------------------------------------- */

static uint64_t hashes_added(const fl_filter_policy *p, const char *const *keys, size_t n) {
    fl_filter *f = build(p, keys, n);
    uint64_t m = 0;
    CHECK(fl_bloom_filter_stats(f, &m, NULL, NULL));
    fl_call_filter_destroy(calls, p, f);
    return m;
}

FL_TEST(bloom_whole_key_dedup) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    fl_filter_policy *p = make_policy(reg, "bloom");
    const char *versions[] = { "a", "a", "a", "b", "b", "c" };  /* versions of one key */
    CHECK_EQ(hashes_added(p, versions, 6), 3);
    const char *apart[] = { "a", "b", "a" };                  /* only the previous key */
    CHECK_EQ(hashes_added(p, apart, 3), 3);
    const char *empties[] = { "", "", "a" };
    CHECK_EQ(hashes_added(p, empties, 3), 2);
    fl_call_policy_destroy(calls, p);
    fl_registry_free(reg);
}

/* The builder's short path (whole keys alone, 8 to 16 bytes, after the
 * first key) and its general one, mixed: versions of one key, keys that
 * change length, keys shorter and longer than the short path takes, a key
 * equal to the one before the previous, the empty key.  m and the bytes
 * equal the model's reference bloom, built one probe at a time. */
FL_TEST(bloom_builder_short_path_matches_model) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    fl_filter_policy *p = make_policy(reg, "bloom(bits=10)");
    static const char *const pattern[] = {
        "key-0000000000a", "key-0000000000a", "key-0000000000b", "key-00000000b", "key-00000000b",
        "key-0000000000b", "short", "short", "a-key-of-17-bytes", "a-key-of-17-bytes", "16-byte-key-0001",
        "16-byte-key-0001", "16-byte-key-0002", "16-byte-key-0001", "", "", "eight-b!", "eight-b!",
        "nine-byte", "0123456789abcdef", "0123456789abcdeg",
    };
    size_t np = sizeof pattern / sizeof *pattern;
    char keys[400][32];
    fl_model_bytes mk[400];
    size_t n = 0;
    for (unsigned round = 0; n + np <= 400; round++)
        for (size_t i = 0; i < np; i++, n++) {
            snprintf(keys[n], sizeof keys[n], "%s", pattern[i]);
            if (round % 2 && strlen(keys[n]) > 3) keys[n][0] = (char)('A' + round % 26);
            mk[n] = (fl_model_bytes){ (const uint8_t *)keys[n], strlen(keys[n]) };
        }
    fl_filter_builder *b = NULL;
    CHECK_OK(fl_call_new_builder(calls, p, &b));
    for (size_t i = 0; i < n; i++) add_key(p, b, keys[i], strlen(keys[i]));
    fl_filter *f = NULL;
    CHECK_OK(fl_call_build(calls, p, b, &f));
    fl_call_builder_destroy(calls, p, b);
    fl_model_bloom ref;
    fl_model_bloom_config cfg = { 10000, true, false, { FL_MODEL_FIXED, 0, 0 } };
    CHECK_OK(fl_model_bloom_build(&ref, &cfg, mk, n));
    uint64_t m = 0;
    CHECK(fl_bloom_filter_stats(f, &m, NULL, NULL));
    CHECK_EQ(m, ref.m);
    fl_buf buf;
    fl_buf_init(&buf);
    CHECK_OK(fl_call_encode(calls, p, f, &buf));
    CHECK_EQ(buf.len, ref.encoded_len);
    CHECK(memcmp(buf.data, ref.encoded, buf.len) == 0);
    fl_buf_free(&buf);
    fl_model_bloom_free(&ref);
    fl_call_filter_destroy(calls, p, f);
    fl_call_policy_destroy(calls, p);
    fl_registry_free(reg);
}

FL_TEST(bloom_prefix_dedup_and_no_leak_between_builders) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    fl_filter_policy *p = make_policy(reg, "bloom(prefix=fixed:3,whole_key=0)");
    const char *keys[] = { "abc1", "abc2", "abd1", "abd2", "ab", "abe" };  /* "ab": none */
    CHECK_EQ(hashes_added(p, keys, 6), 3);
    fl_filter_policy *both = make_policy(reg, "bloom(prefix=fixed:3)");
    CHECK_EQ(hashes_added(both, keys, 6), 6 + 3);
    fl_call_policy_destroy(calls, both);

    /* Deduplicated against the last prefix ADDED, not the previous entry's:
     * "b" has no delim prefix, so "a:2" after it still dedups with "a:". */
    fl_filter_policy *d = make_policy(reg, "bloom(prefix=delim::,whole_key=0)");
    const char *gap[] = { "a:1", "b", "a:2", "c:1" };
    CHECK_EQ(hashes_added(d, gap, 4), 2);
    fl_call_policy_destroy(calls, d);

    /* A fresh builder starts with no previous prefix: "abc2" alone adds its
     * prefix, and the bytes equal those of a filter built from it alone. */
    fl_filter_builder *b1 = NULL, *b2 = NULL;
    CHECK_OK(fl_call_new_builder(calls, p, &b1));
    add_key(p, b1, "abc1", 4);
    fl_filter *f1 = NULL, *f2 = NULL;
    CHECK_OK(fl_call_build(calls, p, b1, &f1));
    CHECK_OK(fl_call_new_builder(calls, p, &b2));
    add_key(p, b2, "abc2", 4);
    CHECK_OK(fl_call_build(calls, p, b2, &f2));
    uint64_t m2 = 0;
    CHECK(fl_bloom_filter_stats(f2, &m2, NULL, NULL));
    CHECK_EQ(m2, 1);
    const char *alone[] = { "abc2" };
    fl_filter *f3 = build(p, alone, 1);
    fl_buf a, c;
    fl_buf_init(&a);
    fl_buf_init(&c);
    CHECK_OK(fl_call_encode(calls, p, f2, &a));
    CHECK_OK(fl_call_encode(calls, p, f3, &c));
    CHECK_MEM(a.data, a.len, c.data, c.len);
    CHECK(prefix(p, f2, "abc"));
    fl_buf_free(&a);
    fl_buf_free(&c);
    fl_call_filter_destroy(calls, p, f1);
    fl_call_filter_destroy(calls, p, f2);
    fl_call_filter_destroy(calls, p, f3);
    fl_call_builder_destroy(calls, p, b1);
    fl_call_builder_destroy(calls, p, b2);
    fl_call_policy_destroy(calls, p);
    fl_registry_free(reg);
}

/* ---- Names ------------------------------------------------------------- */

FL_TEST(bloom_names) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    static const struct { const char *spec, *name; } rows[] = {
        { "bloom", "_bf" },
        { "bloom(bits=8)", "_bf" },                        /* bits not in the name */
        { "bloom(prefix=fixed:3)", "_bf:p=fixed3" },
        { "bloom(prefix=fixed:3,whole_key=0)", "_bf:p=fixed3:wh=0" },
        { "bloom(whole_key=0,prefix=fixed:3,bits=4)", "_bf:p=fixed3:wh=0" },
        { "bloom(prefix=delim::)", "_bf:p=delim:" },
        { "bloom(prefix=delim:\\x3a)", "_bf:p=delim:" },
        { "bloom(prefix=delim:\\x00)", "_bf:p=delim\\x00" },
        { "bloom(prefix=lastdelim:/,whole_key=0)", "_bf:p=lastdelim/:wh=0" },
        { "bloom(prefix=capped:12)", "_bf:p=capped12" },
        { "bloom(whole_key=1)", "_bf" },
        { "bloom(whole_key=0)", "_bf:wh=0" },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        fl_filter_policy *p = make_policy(reg, rows[i].spec);
        if (!p) continue;
        CHECK_STR(fl_call_policy_name(calls, p), rows[i].name);
        CHECK(fl_policy_is_builtin_bloom(p));
        fl_call_policy_destroy(calls, p);
    }
    CHECK(!fl_policy_is_builtin_bloom(NULL));
    fl_registry_free(reg);
}

/* ---- Correctness at scale ------------------------------------------------ */

enum { FL_KEYS = 10000, FL_ABSENT = 100000 };

FL_TEST(bloom_no_false_negatives_and_round_trip) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    const char *specs[] = { "bloom(bits=10)", "bloom(bits=3,prefix=delim::)",
                            "bloom(bits=1,prefix=fixed:4,whole_key=0)",
                            "bloom(bits=0.5,prefix=capped:6)" };
    for (size_t s = 0; s < 4; s++) {
        fl_filter_policy *p = make_policy(reg, specs[s]);
        fl_filter_builder *b = NULL;
        CHECK_OK(fl_call_new_builder(calls, p, &b));
        char key[32];
        for (unsigned i = 0; i < FL_KEYS; i++) {           /* SST order */
            int n = snprintf(key, sizeof key, "g%04u:%05u", i / 10, i);
            add_key(p, b, key, (size_t)n);
        }
        fl_filter *f = NULL;
        CHECK_OK(fl_call_build(calls, p, b, &f));
        fl_call_builder_destroy(calls, p, b);
        fl_buf buf, again;
        fl_buf_init(&buf);
        fl_buf_init(&again);
        CHECK_OK(fl_call_encode(calls, p, f, &buf));
        fl_filter *d = NULL;
        CHECK_OK(fl_call_decode(calls, p, (fl_slice){ buf.data, buf.len }, &d));
        CHECK_OK(fl_call_encode(calls, p, d, &again));
        CHECK_MEM(buf.data, buf.len, again.data, again.len);
        unsigned misses = 0, disagree = 0;
        for (unsigned i = 0; i < FL_KEYS; i++) {
            snprintf(key, sizeof key, "g%04u:%05u", i / 10, i);
            misses += !point(p, f, key) + !point(p, d, key);
            key[6] = '\0';                                  /* "gNNNN:" */
            misses += !prefix(p, f, key) + !prefix(p, d, key);
            key[3] = '\0';                                  /* "gNN"    */
            misses += !prefix(p, f, key);
            snprintf(key, sizeof key, "x%u", i);
            disagree += point(p, f, key) != point(p, d, key);
        }
        if (misses || disagree)
            fl_test_fail(__FILE__, __LINE__, "%s: %u false negatives, %u built/decoded "
                         "disagreements", specs[s], misses, disagree);
        fl_buf_free(&buf);
        fl_buf_free(&again);
        fl_call_filter_destroy(calls, p, f);
        fl_call_filter_destroy(calls, p, d);
        fl_call_policy_destroy(calls, p);
    }
    fl_registry_free(reg);
}

/* The cache-local formula written out again from section 5. */
static double formula(double m, double lines, double k) {
    double x = m / lines, s = sqrt(x);
    double lo = x - s < 0 ? 0 : x - s;
    double f_hi = pow(1 - exp(-k * (x + s) / 512), k), f_lo = pow(1 - exp(-k * lo / 512), k);
    return (f_hi + f_lo) / 2;
}

FL_TEST(bloom_expected_fp_formula) {
    /* 10 bits/key: k = 6, lines = ceil(m * 10000 / 512000), x = 51.2. */
    double e = fl_bloom_expected_fp(10000, 196, 6);
    CHECK(fabs(e - formula(10000, 196, 6)) < 1e-12);
    CHECK(e > 0.0090 && e < 0.0100);                      /* "about 0.95%" */
    printf("  expected_fp,10,10000,%.6f\n", e);
    CHECK(fl_bloom_expected_fp(5, 0, 6) == 1.0);          /* no lines: always true */
    CHECK(fl_bloom_expected_fp(0, 4, 6) == 0.0);
    CHECK(fabs(fl_bloom_expected_fp(1, 1, 6) - formula(1, 1, 6)) < 1e-15);  /* x - sqrt x = 0 */
    CHECK(fl_bloom_expected_fp(1000, 2, 6) > 0.9);        /* overloaded */
}

/* 10,000 keys at 10 bits/key, 100,000 absent keys.  Tolerance: the
 * measured rate must be within 5 standard deviations of the formula's
 * rate for this filter, with sigma = sqrt(p (1 - p) / probes) widened by a
 * factor 2 for the filter-to-filter variance of 196 lines (about
 * +-0.0031 around 0.0095). */
FL_TEST(bloom_fp_rate_10_bits) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    fl_filter_policy *p = make_policy(reg, "bloom(bits=10)");
    fl_filter_builder *b = NULL;
    CHECK_OK(fl_call_new_builder(calls, p, &b));
    char key[32];
    for (unsigned i = 0; i < FL_KEYS; i++) {
        int n = snprintf(key, sizeof key, "key%08u", i);
        add_key(p, b, key, (size_t)n);
    }
    fl_filter *f = NULL;
    CHECK_OK(fl_call_build(calls, p, b, &f));
    fl_call_builder_destroy(calls, p, b);
    unsigned fp = 0;
    for (unsigned i = 0; i < FL_ABSENT; i++) {
        snprintf(key, sizeof key, "absent%08u", i);
        fp += point(p, f, key);
    }
    uint64_t m, lines;
    unsigned k;
    CHECK(fl_bloom_filter_stats(f, &m, &lines, &k));
    double measured = (double)fp / FL_ABSENT, expected = fl_bloom_expected_fp(m, lines, k);
    double sigma = 2 * sqrt(expected * (1 - expected) / FL_ABSENT);
    printf("  bloom_fp,10,%u,%u,%.6f,%.6f\n", FL_KEYS, FL_ABSENT, measured, expected);
    if (fabs(measured - expected) > 5 * sigma)
        fl_test_fail(__FILE__, __LINE__, "FP rate %.5f, expected %.5f +- %.5f", measured,
                     expected, 5 * sigma);
    CHECK(measured > 0.0060 && measured < 0.0130);

    /* The decoded filter's m is estimated from its bits: within 3%. */
    fl_buf buf;
    fl_buf_init(&buf);
    CHECK_OK(fl_call_encode(calls, p, f, &buf));
    fl_filter *d = NULL;
    CHECK_OK(fl_call_decode(calls, p, (fl_slice){ buf.data, buf.len }, &d));
    uint64_t dm, dlines;
    unsigned dk;
    CHECK(fl_bloom_filter_stats(d, &dm, &dlines, &dk));
    CHECK(dlines == lines && dk == k);
    printf("  bloom_m_estimate,10,%u,%" PRIu64 "\n", FL_KEYS, dm);
    CHECK(dm > FL_KEYS * 0.97 && dm < FL_KEYS * 1.03);
    fl_buf_free(&buf);
    fl_call_filter_destroy(calls, p, d);
    fl_call_filter_destroy(calls, p, f);
    fl_call_policy_destroy(calls, p);
    fl_registry_free(reg);
}

/* The exact expected rate of SPEC 5 (mean over lines of (bits set /
 * 512)^k), which expected_fp_rate reports: computed by the built filter
 * and by the decoded one alike, and equal to the model's reference bloom
 * of the same keys (to rounding), for several sizes and bits per key; 1.0
 * without lines; false for a filter that is not a built-in bloom. */
FL_TEST(bloom_expected_fp_exact) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    static const struct { const char *spec; uint32_t mb; unsigned keys; } rows[] = {
        { "bloom(bits=10)", 10000, 20000 }, { "bloom(bits=10)", 10000, 3 },
        { "bloom(bits=4)", 4000, 5000 },    { "bloom(bits=24)", 24000, 7000 },
        { "bloom(bits=0)", 0, 100 },
    };
    char key[32];
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        fl_filter_policy *p = make_policy(reg, rows[r].spec);
        fl_filter_builder *b = NULL;
        CHECK_OK(fl_call_new_builder(calls, p, &b));
        fl_model_bloom ref;
        fl_model_bloom_config cfg = { rows[r].mb, true, false, { FL_MODEL_FIXED, 0, 0 } };
        fl_model_bloom_begin(&ref, &cfg);
        for (unsigned i = 0; i < rows[r].keys; i++) {
            int n = snprintf(key, sizeof key, "key%08u", i * 7);
            add_key(p, b, key, (size_t)n);
            CHECK_OK(fl_model_bloom_add(&ref, (fl_model_bytes){ (const uint8_t *)key, (size_t)n }));
        }
        CHECK_OK(fl_model_bloom_finish(&ref));
        fl_filter *f = NULL, *d = NULL;
        CHECK_OK(fl_call_build(calls, p, b, &f));
        fl_call_builder_destroy(calls, p, b);
        fl_buf buf;
        fl_buf_init(&buf);
        CHECK_OK(fl_call_encode(calls, p, f, &buf));
        CHECK_OK(fl_call_decode(calls, p, (fl_slice){ buf.data, buf.len }, &d));
        double built = -1, decoded = -1, want = fl_model_bloom_expected_exact(&ref);
        CHECK(fl_bloom_filter_expected_fp(f, &built));
        CHECK(fl_bloom_filter_expected_fp(d, &decoded));
        if (!(fabs(built - want) <= 1e-12 * want) || built != decoded)
            fl_test_fail(__FILE__, __LINE__, "%s over %u keys: built %.17g, decoded %.17g, model %.17g",
                         rows[r].spec, rows[r].keys, built, decoded, want);
        if (rows[r].mb == 0) CHECK(built == 1.0);
        fl_buf_free(&buf);
        fl_model_bloom_free(&ref);
        fl_call_filter_destroy(calls, p, d);
        fl_call_filter_destroy(calls, p, f);
        fl_call_policy_destroy(calls, p);
    }
    double rate = 0;
    CHECK(!fl_bloom_filter_expected_fp(NULL, &rate));
    fl_registry_free(reg);
}

/* ---- Legacy, extras, extractor calls -------------------------------------- */

FL_TEST(bloom_legacy_builder_and_decode) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    fl_filter_policy *p = make_policy(reg, "bloom(bits=10,prefix=fixed:2,whole_key=0)");
    fl_filter_policy *plain = make_policy(reg, "bloom(bits=10)");
    CHECK_EQ(fl_bloom_policy_millibits(p), 10000);
    CHECK_EQ(fl_bloom_policy_millibits(NULL), 0);
    const char *keys[] = { "apple", "banana", "cherry" };
    fl_filter_builder *lb = NULL;
    CHECK_OK(fl_bloom_legacy_builder(10000, &lb));
    for (size_t i = 0; i < 3; i++) add_key(NULL, lb, keys[i], strlen(keys[i]));
    fl_filter *lf = NULL;
    CHECK_OK(fl_call_build(calls, NULL, lb, &lf));
    fl_call_builder_destroy(calls, NULL, lb);
    fl_filter *pf = build(plain, keys, 3);                 /* same bytes as bloom(bits=10) */
    fl_buf a, c;
    fl_buf_init(&a);
    fl_buf_init(&c);
    CHECK_OK(fl_call_encode(calls, NULL, lf, &a));
    CHECK_OK(fl_call_encode(calls, plain, pf, &c));
    CHECK_MEM(a.data, a.len, c.data, c.len);

    /* Decoded as whole-key, whatever the configured bloom's settings. */
    fl_filter *d = NULL;
    CHECK_OK(fl_bloom_legacy_decode((fl_slice){ a.data, a.len }, &d));
    for (size_t i = 0; i < 3; i++) CHECK(point(p, d, keys[i]));
    CHECK(prefix(p, d, "ap"));
    CHECK(prefix(p, d, "zz"));                             /* PREFIX: true */
    fl_filter_query pq = { { FL_TARGET_POINT, { (const uint8_t *)"zz", 2 } }, NULL };
    fl_filter_query xq = { { FL_TARGET_PREFIX, { (const uint8_t *)"zz", 2 } }, NULL };
    CHECK(fl_bloom_filter_probes(calls, d, &pq));
    CHECK(!fl_bloom_filter_probes(calls, d, &xq));
    fl_buf_free(&a);
    fl_buf_free(&c);
    fl_call_filter_destroy(calls, NULL, lf);
    fl_call_filter_destroy(calls, plain, pf);
    fl_call_filter_destroy(calls, NULL, d);
    fl_call_policy_destroy(calls, p);
    fl_call_policy_destroy(calls, plain);
    fl_registry_free(reg);
}

/* The extractor is reached through fl_call_prefix_len (counted), and the
 * filter context is ignored. */
FL_TEST(bloom_calls_extractor_through_wrapper) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    fl_filter_policy *p = make_policy(reg, "bloom(prefix=fixed:3)");
    const char *keys[] = { "abc1", "abd1" };
    CHECK_OK(fl_calls_new(reg, &calls));
    fl_call_stats before, mid, after;
    fl_calls_stats(calls, &before);
    fl_filter *f = build(p, keys, 2);
    fl_calls_stats(calls, &mid);
    CHECK_EQ(mid.prefix_len - before.prefix_len, 2);       /* one per entry */
    CHECK_EQ(mid.add_entry - before.add_entry, 2);
    CHECK_EQ(mid.build - before.build, 1);
    fl_filter_context ctx;
    memset(ctx.bytes, 0xab, sizeof ctx.bytes);
    fl_filter_query q = { { FL_TARGET_PREFIX, { (const uint8_t *)"abc", 3 } }, &ctx };
    CHECK(fl_call_might_match(calls, p, f, &q));
    q.context = NULL;
    CHECK(fl_call_might_match(calls, p, f, &q));
    fl_calls_stats(calls, &after);
    CHECK_EQ(after.prefix_len - mid.prefix_len, 2);
    CHECK_EQ(after.might_match - mid.might_match, 2);
    fl_call_filter_destroy(calls, p, f);
    fl_call_policy_destroy(calls, p);
    fl_calls_free(calls);
    calls = NULL;
    fl_registry_free(reg);
}
