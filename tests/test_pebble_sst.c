/*
 * test_pebble_sst.c -- filterlab's reader of Pebble's SSTs
 * (adapters/pebble/pebble_sst.c) against real tables that Pebble v2.1.7
 * wrote (tests/pebble/NAME.sst) and what Pebble's own reader and bloom said
 * of them (tests/pebble/NAME.txt; tests/pebble/README says how they were
 * made): every entry (kind, seq, value, obsolete or not), every range
 * tombstone, the key range, the properties, the data blocks, the filter's
 * length and Pebble's MayContain answers for 3000 probe keys; the bloom
 * rebuilt bit for bit from the entries; every flipped byte and every
 * truncation refused; the exact FP rate against a brute-force count over
 * all 2^32 hashes; what a Get must probe over them (pebble_get.c).
 */
#include "test.h"
#include "../adapters/pebble/pebble_sst.h"

#include <stdlib.h>
#include <time.h>

static const char *const fixtures[] = { "basic", "capped3", "multiblock", "rangedel", "snapshots",
                                        "nofilter", "bits0", "bits1", "bits40", "compacted" };
#define NFIX (sizeof fixtures / sizeof fixtures[0])

static uint8_t *slurp(const char *name, const char *ext, size_t *len) {
    char path[512];
    snprintf(path, sizeof path, "%s/tests/pebble/%s.%s", fl_test_srcdir(), name, ext);
    FILE *f = fopen(path, "rb");
    if (!f) { fl_test_fail(__FILE__, __LINE__, "cannot open %s", path); return NULL; }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc((size_t)n + 1);
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) { free(p); p = NULL; }
    fclose(f);
    if (p) p[n] = 0;
    *len = (size_t)n;
    return p;
}

/* the Split of each fixture (capped3: min(len, 3)) */
static size_t three = 3;
static fl_pbl_split_fn fixture_split(const char *name, void **arg) {
    if (strcmp(name, "capped3") == 0) { *arg = &three; return fl_pbl_split_capped; }
    *arg = NULL;
    return NULL;
}

/* ---- Hashes, CRC ------------------------------------------------------------------ */

FL_TEST(pbl_crc32c_and_hash) {
    CHECK_EQ(fl_pbl_crc32c(0, (const uint8_t *)"123456789", 9), 0xe3069283u);
    CHECK_EQ(fl_pbl_crc32c(0, (const uint8_t *)"", 0), 0);
    /* incremental = whole */
    CHECK_EQ(fl_pbl_crc32c(fl_pbl_crc32c(0, (const uint8_t *)"1234", 4), (const uint8_t *)"56789", 5), 0xe3069283u);
    /* LevelDB's mask: rotr 15 + 0xa282ead8 */
    CHECK_EQ(fl_pbl_crc_mask(0), 0xa282ead8u);
    CHECK_EQ(fl_pbl_crc_mask(0x8000u), 0xa282ead9u);
    /* an empty key: the seed alone */
    CHECK_EQ(fl_pbl_hash(NULL, 0), 0xbc9f1d34u);
    /* the tail bytes are sign-extended: 0x80 and 0x00 0x80 differ from an
     * unsigned reading (tested end to end by the fixtures' answers, whose
     * probe keys have high bytes in their 1-3 byte tails) */
    uint8_t hi = 0x80;
    uint32_t m = 0xc6a4a793u, h = 0xbc9f1d34u ^ m;
    h += 0xffffff80u;
    h *= m;
    h ^= h >> 24;
    CHECK_EQ(fl_pbl_hash(&hi, 1), h);
}

FL_TEST(pbl_bloom_build_and_probes) {
    static const int bpk[] = { -1, 0, 1, 2, 3, 10, 14, 15, 43, 44, 45, 100 };
    static const unsigned k[] = { 1, 1, 1, 1, 2, 6, 9, 10, 29, 30, 30, 30 };
    for (size_t i = 0; i < sizeof bpk / sizeof bpk[0]; i++) CHECK_EQ(fl_pbl_bloom_probes(bpk[i]), k[i]);
    fl_buf out;
    fl_buf_init(&out);
    CHECK_OK(fl_pbl_bloom_build(10, NULL, 0, &out));            /* no hashes: 5 zero bytes */
    CHECK_MEM(out.data, out.len, "\0\0\0\0\0", 5);
    CHECK(!fl_pbl_bloom_may_contain((fl_slice){ out.data, out.len }, (fl_slice){ (const uint8_t *)"a", 1 }));
    uint32_t hs[300];
    uint64_t seed = 9;
    for (size_t i = 0; i < 300; i++) hs[i] = (uint32_t)(fl_test_rand(&seed) * 2654435761u);
    for (int b = 0; b <= 20; b += 5) {
        fl_buf_reset(&out);
        CHECK_OK(fl_pbl_bloom_build(b, hs, 300, &out));
        uint32_t lines = (uint32_t)((300 * b + 511) / 512) | 1u;
        CHECK_EQ(out.len, (size_t)lines * 64 + 5);
        CHECK_EQ(out.data[out.len - 5], fl_pbl_bloom_probes(b));
        for (size_t i = 0; i < 300; i++) CHECK(fl_pbl_bloom_may_contain_hash((fl_slice){ out.data, out.len }, hs[i]));
    }
    /* a repeated hash right after itself is skipped: same bytes as without it */
    uint32_t dup[4] = { 7, 7, 9, 7 };
    fl_buf a;
    fl_buf_init(&a);
    fl_buf_reset(&out);
    CHECK_OK(fl_pbl_bloom_build(1000, dup, 4, &out));        /* 3 distinct -> ceil(3000/512) = 6 -> 7 lines */
    CHECK_OK(fl_pbl_bloom_build(1000, (uint32_t[]){ 7, 9, 7 }, 3, &a));
    CHECK_EQ(out.len, 7 * 64 + 5);
    CHECK_MEM(out.data, out.len, a.data, a.len);
    /* trailers MayContain cannot take */
    uint8_t bad[69] = { 0 };
    bad[64] = 6;                                             /* k 6, lines 0: Pebble divides by zero */
    CHECK(!fl_pbl_bloom_may_contain_hash((fl_slice){ bad, 69 }, 1));
    bad[65] = 100;                                           /* 100 lines in 64 bytes: line_bits 0 */
    CHECK(!fl_pbl_bloom_may_contain_hash((fl_slice){ bad, 69 }, 1));
    fl_buf_free(&a);
    fl_buf_free(&out);
}

/* ---- The fixtures ---------------------------------------------------------------------- */

typedef struct lines { char **v; size_t n, cap; } lines;

static void push(lines *l, const char *s) {
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = strdup(s);
}

static void lines_free(lines *l) {
    for (size_t i = 0; i < l->n; i++) free(l->v[i]);
    free(l->v);
}

static void hex(char *out, const uint8_t *p, size_t n) {
    if (!n) { strcpy(out, "-"); return; }
    for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", p[i]);
}

static const char *kname(unsigned k) { return k == FL_PBL_RANGEDEL ? "kind15" : fl_pbl_kind_name(k); }

static int row_line(void *arg, const fl_pbl_row *r) {
    char k[4096], v[8192], line[12400];
    if (r->key.len > 2000 || r->value.len > 4000) return -1;
    hex(k, r->key.data, r->key.len);
    hex(v, r->value.data, r->value.len);
    snprintf(line, sizeof line, "entry %s %llu %s %s %s", k, (unsigned long long)r->seq, kname(r->kind), v,
             r->obsolete ? "o" : "-");
    push(arg, line);
    return 0;
}

static int rd_line(void *arg, fl_slice s, fl_slice e, uint64_t seq) {
    char a[4096], b[4096], line[8300];
    if (s.len > 2000 || e.len > 2000) return -1;
    hex(a, s.data, s.len);
    hex(b, e.data, e.len);
    snprintf(line, sizeof line, "rangedel %s %s %llu", a, b, (unsigned long long)seq);
    push(arg, line);
    return 0;
}

/* the probe keys of NAME.txt's answers (README) */
static size_t probe_key(int i, uint8_t *k) {
    size_t n = (size_t)(i % 11);
    for (size_t j = 0; j < n; j++) {
        int b = i * 131 + (int)j * 71;
        if (j & 1) b ^= 0x80;
        k[j] = (uint8_t)b;
    }
    return n;
}

/* What our reader says, as the lines Pebble's listing has. */
static void describe(const char *name, const fl_pbl_sst *t, const uint8_t *file, lines *out) {
    const fl_pbl_info *in = fl_pbl_sst_info(t);
    const fl_pbl_props *p = &in->props;
    char line[10000], a[4096], b[4096];
    snprintf(line, sizeof line, "format (Pebble,v%u)", in->format_version); push(out, line);
    (void)file;
    if (in->has_range) {
        hex(a, in->smallest.data, in->smallest.len);
        snprintf(line, sizeof line, "smallest %s %llu %s", a, (unsigned long long)in->smallest_seq, kname(in->smallest_kind));
        push(out, line);
        hex(a, in->largest.data, in->largest.len);
        snprintf(line, sizeof line, "largest %s %llu %s", a, (unsigned long long)in->largest_seq, kname(in->largest_kind));
        push(out, line);
    }
#define P(n, v) snprintf(line, sizeof line, "prop %s %llu", n, (unsigned long long)(v)); push(out, line)
    P("num_entries", p->num_entries); P("num_deletions", p->num_deletions);
    P("num_range_deletions", p->num_range_deletions); P("num_merge_operands", p->num_merge_operands);
    P("num_data_blocks", p->num_data_blocks); P("num_value_blocks", p->num_value_blocks);
    P("num_values_in_value_blocks", p->num_values_in_value_blocks); P("index_partitions", p->index_partitions);
    P("index_type", p->index_type); P("filter_size", p->filter_size); P("raw_key_size", p->raw_key_size);
    P("raw_value_size", p->raw_value_size); P("data_size", p->data_size);
#undef P
    hex(a, p->filter_policy.data, p->filter_policy.len);
    snprintf(line, sizeof line, "prop filter_policy %s", a); push(out, line);
    hex(a, p->comparer.data, p->comparer.len);
    snprintf(line, sizeof line, "prop comparer %s", a); push(out, line);
    snprintf(line, sizeof line, "layout data %zu index %zu", in->num_blocks, in->two_level ? in->num_index_blocks : 1);
    push(out, line);
    for (size_t i = 0; i < in->num_blocks; i++) {
        const fl_pbl_block *bl = fl_pbl_sst_block(t, i);
        snprintf(line, sizeof line, "data_block %llu %llu", (unsigned long long)bl->offset, (unsigned long long)bl->len);
        push(out, line);
    }
    char err[300];
    CHECK_OK(fl_pbl_sst_rows(t, row_line, out, err, sizeof err));
    CHECK_OK(fl_pbl_sst_range_dels(t, rd_line, out, err, sizeof err));
    if (in->has_filter) {
        snprintf(line, sizeof line, "filter fullfilter.%.*s %zu", (int)in->filter_name.len,
                 (const char *)in->filter_name.data, in->filter.len);
        push(out, line);
        uint8_t bits[375] = { 0 }, k[16];
        for (int i = 0; i < 3000; i++)
            if (fl_pbl_bloom_may_contain(in->filter, (fl_slice){ k, probe_key(i, k) })) bits[i / 8] |= (uint8_t)(1u << (i % 8));
        hex(a, bits, sizeof bits);
        snprintf(line, sizeof line, "answers 3000 %s", a);
        push(out, line);
    }
    (void)b;
    (void)name;
}

/* Pebble's listing, without what our reader does not report the same way
 * (size, level; layout's top-level handle and value-block count). */
static void listing(const char *name, lines *out) {
    size_t n;
    char *txt = (char *)slurp(name, "txt", &n);
    if (!txt) return;
    for (char *s = strtok(txt, "\n"); s; s = strtok(NULL, "\n")) {
        if (!strncmp(s, "size ", 5) || !strncmp(s, "level ", 6)) continue;
        if (!strncmp(s, "layout ", 7)) {
            char *top = strstr(s, " top ");
            if (top) *top = 0;
        }
        push(out, s);
    }
    free(txt);
}

FL_TEST(pbl_fixtures_match_pebble) {
    for (size_t f = 0; f < NFIX; f++) {
        size_t len;
        uint8_t *file = slurp(fixtures[f], "sst", &len);
        if (!file) continue;
        fl_pbl_sst *t;
        char err[400];
        int rc = fl_pbl_sst_open(file, len, &t, err, sizeof err);
        if (rc != FL_OK) {
            fl_test_fail(__FILE__, __LINE__, "%s: %s", fixtures[f], err);
            free(file);
            continue;
        }
        lines want = { 0 }, got = { 0 };
        listing(fixtures[f], &want);
        describe(fixtures[f], t, file, &got);
        size_t i = 0;
        for (; i < want.n && i < got.n; i++)
            if (strcmp(want.v[i], got.v[i]) != 0) {
                fl_test_fail(__FILE__, __LINE__, "%s line %zu:\n  pebble: %.300s\n  ours:   %.300s", fixtures[f], i,
                             want.v[i], got.v[i]);
                break;
            }
        if (i == want.n || i == got.n)
            if (want.n != got.n)
                fl_test_fail(__FILE__, __LINE__, "%s: pebble lists %zu lines, ours %zu", fixtures[f], want.n, got.n);
        lines_free(&want);
        lines_free(&got);
        fl_pbl_sst_free(t);
        free(file);
    }
}

FL_TEST(pbl_fixture_shapes) {
    /* what the fixtures are there for */
    struct { const char *name; bool two_level, filter; size_t vblocks; } want[] = {
        { "multiblock", true, true, 0 }, { "capped3", false, true, 1 }, { "snapshots", false, true, 1 },
        { "nofilter", false, false, 0 }, { "compacted", false, true, 1 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        size_t len;
        uint8_t *file = slurp(want[i].name, "sst", &len);
        fl_pbl_sst *t;
        char err[300];
        if (!file) continue;
        CHECK_OK(fl_pbl_sst_open(file, len, &t, err, sizeof err));
        if (t) {
            const fl_pbl_info *in = fl_pbl_sst_info(t);
            CHECK_EQ(in->two_level, want[i].two_level);
            CHECK_EQ(in->has_filter, want[i].filter);
            CHECK_EQ(in->num_value_blocks, want[i].vblocks);
            if (want[i].two_level) CHECK(in->num_index_blocks > 1 && in->num_blocks > 20);
        }
        fl_pbl_sst_free(t);
        free(file);
    }
}

/* ---- The filter rebuilt ------------------------------------------------------------------ */

FL_TEST(pbl_bloom_rebuild_is_bit_exact) {
    for (size_t f = 0; f < NFIX; f++) {
        size_t len;
        uint8_t *file = slurp(fixtures[f], "sst", &len);
        fl_pbl_sst *t;
        char err[400], defect[600];
        if (!file || fl_pbl_sst_open(file, len, &t, err, sizeof err) != FL_OK) { free(file); CHECK(0); continue; }
        void *arg;
        fl_pbl_split_fn split = fixture_split(fixtures[f], &arg);
        CHECK_OK(fl_pbl_bloom_check(t, split, arg, -1, defect, sizeof defect));
        if (defect[0]) fl_test_fail(__FILE__, __LINE__, "%s: %s", fixtures[f], defect);
        /* at the bits per key it was written with (tests/pebble/README); at
         * 4 more, whose probe count differs, not: a writer given other bits
         * than configured */
        int bits = strncmp(fixtures[f], "bits", 4) == 0 ? atoi(fixtures[f] + 4) : 10;
        CHECK_OK(fl_pbl_bloom_check(t, split, arg, bits, defect, sizeof defect));
        if (defect[0]) fl_test_fail(__FILE__, __LINE__, "%s at %d bits: %s", fixtures[f], bits, defect);
        CHECK(fl_pbl_bloom_probes(bits) != fl_pbl_bloom_probes(bits + 4));
        CHECK_OK(fl_pbl_bloom_check(t, split, arg, bits + 4, defect, sizeof defect));
        if (fl_pbl_sst_info(t)->has_filter) CHECK_CONTAINS(defect, "at the configured");
        else CHECK(!defect[0]);
        CHECK_OK(fl_pbl_split_check(t, split, arg, defect, sizeof defect));
        if (defect[0]) fl_test_fail(__FILE__, __LINE__, "%s (split): %s", fixtures[f], defect);
        if (split) {                /* the whole-key Split is not the one capped3 was written with */
            CHECK_OK(fl_pbl_bloom_check(t, NULL, NULL, -1, defect, sizeof defect));
            CHECK_CONTAINS(defect, "differ from Pebble's bloom");
            CHECK_OK(fl_pbl_split_check(t, NULL, NULL, defect, sizeof defect));
            CHECK_CONTAINS(defect, "same-prefix bit");
        }
        const fl_pbl_info *in = fl_pbl_sst_info(t);
        if (in->has_filter && in->filter.len > 5) {
            /* a cleared bit (checksums off): the rebuild names a false negative */
            size_t at = (size_t)(in->filter.data - file);
            size_t i = 0;
            while (i + 5 < in->filter.len && !file[at + i]) i++;
            file[at + i] &= (uint8_t)(file[at + i] - 1);            /* clear its lowest set bit */
            fl_pbl_sst *u;
            CHECK_OK(fl_pbl_sst_open_flags(file, len, FL_PBL_NO_CHECKSUMS, &u, err, sizeof err));
            if (u) {
                CHECK_OK(fl_pbl_bloom_check(u, split, arg, -1, defect, sizeof defect));
                CHECK_CONTAINS(defect, "0 bits set that the rebuild leaves clear, 1 clear that it sets");
            }
            fl_pbl_sst_free(u);
            CHECK_RC(fl_pbl_sst_open(file, len, &u, err, sizeof err), FL_ERR_CORRUPT);
            CHECK_CONTAINS(err, "the filter block");
        }
        fl_pbl_sst_free(t);
        free(file);
    }
}

FL_TEST(pbl_filter_holds_every_point_prefix) {
    /* deletes, merges, SETWITHDELs: every point's Split prefix passes (the
     * fixture's SINGLEDEL met its SET in the flush: neither is stored) */
    size_t len;
    uint8_t *file = slurp("basic", "sst", &len);
    fl_pbl_sst *t;
    char err[300];
    if (!file) return;
    CHECK_OK(fl_pbl_sst_open(file, len, &t, err, sizeof err));
    const fl_pbl_info *in = fl_pbl_sst_info(t);
    CHECK(in->counts[FL_PBL_DEL] > 0 && in->counts[FL_PBL_SETWITHDEL] > 0 && in->counts[FL_PBL_MERGE] > 0);
    uint32_t *h;
    size_t n;
    CHECK_OK(fl_pbl_filter_hashes(t, NULL, NULL, &h, &n, err, sizeof err));
    CHECK_EQ(n, in->num_rows);
    for (size_t i = 0; i < n; i++) CHECK(fl_pbl_bloom_may_contain_hash(in->filter, h[i]));
    free(h);
    fl_pbl_sst_free(t);
    free(file);
}

/* ---- Damage ------------------------------------------------------------------------------ */

FL_TEST(pbl_every_flipped_byte_and_truncation_is_refused) {
    for (size_t f = 0; f < NFIX; f++) {
        size_t len;
        uint8_t *file = slurp(fixtures[f], "sst", &len);
        if (!file) continue;
        char err[400];
        fl_pbl_sst *t;
        size_t accepted = 0, first = 0;
        for (size_t i = 0; i < len; i++) {
            for (int bit = 0; bit < 8; bit += 7) {             /* the lowest and the highest bit */
                file[i] ^= (uint8_t)(1u << bit);
                int rc = fl_pbl_sst_open(file, len, &t, err, sizeof err);
                if (rc == FL_OK) { if (!accepted++) first = i; fl_pbl_sst_free(t); }
                CHECK(rc == FL_OK || rc == FL_ERR_CORRUPT || rc == FL_ERR_VERSION);
                file[i] ^= (uint8_t)(1u << bit);
            }
        }
        if (accepted)
            fl_test_fail(__FILE__, __LINE__, "%s: %zu flipped bits accepted, the first in byte %zu", fixtures[f], accepted, first);
        for (size_t n = 0; n < len; n++) {
            int rc = fl_pbl_sst_open(file, n, &t, err, sizeof err);
            if (rc == FL_OK) { fl_test_fail(__FILE__, __LINE__, "%s cut to %zu bytes accepted", fixtures[f], n); fl_pbl_sst_free(t); }
        }
        free(file);
    }
}

/* Rewrites block [off, off+n)'s trailer checksum after a change. */
static void reseal(uint8_t *file, size_t off, size_t n) {
    uint32_t c = fl_pbl_crc_mask(fl_pbl_crc32c(0, file + off, n + 1));
    for (int i = 0; i < 4; i++) file[off + n + 1 + i] = (uint8_t)(c >> (8 * i));
}

FL_TEST(pbl_errors_say_what_and_where) {
    size_t len;
    uint8_t *file = slurp("basic", "sst", &len);
    if (!file) return;
    char err[400];
    fl_pbl_sst *t;
    CHECK_OK(fl_pbl_sst_open(file, len, &t, err, sizeof err));
    const fl_pbl_block *b0 = fl_pbl_sst_block(t, 0);
    size_t off = (size_t)b0->offset, n = (size_t)b0->len;
    fl_pbl_sst_free(t);
    /* a compressed block, its checksum right: refused as a version, named */
    file[off + n] = 7;
    reseal(file, off, n);
    CHECK_RC(fl_pbl_sst_open(file, len, &t, err, sizeof err), FL_ERR_VERSION);
    CHECK_CONTAINS(err, "Zstd");
    CHECK_CONTAINS(err, "data block at offset 0");
    file[off + n] = 0;
    reseal(file, off, n);
    CHECK_OK(fl_pbl_sst_open(file, len, &t, err, sizeof err));
    fl_pbl_sst_free(t);
    /* a bad checksum names the block and both values */
    file[off + 3] ^= 1;
    CHECK_RC(fl_pbl_sst_open(file, len, &t, err, sizeof err), FL_ERR_CORRUPT);
    CHECK_CONTAINS(err, "the data block at offset 0");
    CHECK_CONTAINS(err, "masked CRC32C");
    file[off + 3] ^= 1;
    /* a columnar version */
    file[len - 12] = 5;
    CHECK_RC(fl_pbl_sst_open(file, len, &t, err, sizeof err), FL_ERR_VERSION);
    CHECK_CONTAINS(err, "columnar");
    file[len - 12] = 4;
    /* an xxHash64 table */
    file[len - 53] = 3;
    CHECK_RC(fl_pbl_sst_open(file, len, &t, err, sizeof err), FL_ERR_VERSION);
    CHECK_CONTAINS(err, "xxHash64");
    file[len - 53] = 1;
    /* keys out of order under a good checksum: swap two keys' last bytes in
     * the data block (key024 / key025 ...: find "key02" twice) */
    {
        uint8_t *p = memmem(file + off, n, "value-24", 8);
        CHECK(p != NULL);
        if (p) {
            p[7] = '9';                       /* a value byte: the raw value size still agrees */
            reseal(file, off, n);
            CHECK_OK(fl_pbl_sst_open(file, len, &t, err, sizeof err));   /* the format cannot tell */
            fl_pbl_sst_free(t);
            p[7] = '4';
            reseal(file, off, n);
        }
    }
    /* the obsolete bit cleared on a shadowed version (snapshots fixture) */
    free(file);
    file = slurp("snapshots", "sst", &len);
    CHECK_OK(fl_pbl_sst_open(file, len, &t, err, sizeof err));
    off = (size_t)fl_pbl_sst_block(t, 0)->offset;
    n = (size_t)fl_pbl_sst_block(t, 0)->len;
    fl_pbl_sst_free(t);
    size_t flips = 0;
    for (size_t i = off; i + 8 <= off + n; i++) {
        if (file[i] == (0x40 | FL_PBL_SET) && file[i + 1] == 20 /* hot seq 20, obsolete */) {
            file[i] &= (uint8_t)~0x40;
            reseal(file, off, n);
            CHECK_RC(fl_pbl_sst_open(file, len, &t, err, sizeof err), FL_ERR_CORRUPT);
            CHECK_CONTAINS(err, "not marked obsolete");
            file[i] |= 0x40;
            reseal(file, off, n);
            flips++;
        }
    }
    CHECK_EQ(flips, 1);
    free(file);
}

/* ---- The exact FP rate ------------------------------------------------------------------- */

/* Brute-force counts of the hashes h in [0, 2^32) for which Pebble's
 * MayContain (tableFilter.MayContain, bloom.go) is true on each fixture's
 * filter: computed once with a throwaway C program (/tmp/pblfix/brute.c: the
 * loop of MayContain over every h, 16 threads, 9 to 16 s a filter on 2
 * cores) -- facts, not code. */
static const struct { const char *name; uint64_t passing; } brute[] = {
    { "basic", 29999104 }, { "multiblock", 21151819 }, { "bits40", 6540478 }, { "bits1", 369098752 },
};

FL_TEST(pbl_expected_fp_is_exact) {
    for (size_t i = 0; i < sizeof brute / sizeof brute[0]; i++) {
        size_t len;
        uint8_t *file = slurp(brute[i].name, "sst", &len);
        fl_pbl_sst *t;
        char err[300];
        if (!file || fl_pbl_sst_open(file, len, &t, err, sizeof err) != FL_OK) { CHECK(0); free(file); continue; }
        double p = fl_pbl_bloom_expected_fp(fl_pbl_sst_info(t)->filter);
        CHECK_EQ((uint64_t)(p * 4294967296.0), brute[i].passing);
        CHECK(p * 4294967296.0 == (double)brute[i].passing);
        fl_pbl_sst_free(t);
        free(file);
    }
    /* bad input, and the two ends */
    uint8_t bits[64] = { 0 };
    CHECK(fl_bloom_legacy_expected_fp(bits, 1, 500, 6) == -1);
    CHECK(fl_bloom_legacy_expected_fp(bits, 0, 512, 6) == -1);
    CHECK(fl_bloom_legacy_expected_fp(bits, 1, 512, 6) == 0.0);
    memset(bits, 0xff, sizeof bits);
    CHECK(fl_bloom_legacy_expected_fp(bits, 1, 512, 6) == 1.0);
    CHECK(fl_bloom_legacy_expected_fp(bits, 1, 512, 0) == 1.0);
}

/* The cost at 1, 100, 1000, 10000 lines (printed; FL_PBL_FP_BENCH=1 runs
 * the 10000). */
FL_TEST(pbl_expected_fp_cost) {
    uint32_t sizes[] = { 1, 100, 1000, 10000 };
    for (size_t s = 0; s < 4; s++) {
        if (sizes[s] == 10000 && !getenv("FL_PBL_FP_BENCH")) continue;
        uint32_t lines = sizes[s] | 1u;
        uint8_t *bits = calloc((size_t)lines, 64);
        uint64_t seed = 3;
        for (size_t i = 0; i < (size_t)lines * 10 * 6 / 2; i++) {     /* about 10 bits/key, k 6 */
            uint32_t b = (uint32_t)(fl_test_rand(&seed) % ((uint64_t)lines * 512));
            bits[b / 8] |= (uint8_t)(1u << (b % 8));
        }
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        double p = fl_bloom_legacy_expected_fp(bits, lines, 512, 6);
        clock_gettime(CLOCK_MONOTONIC, &b);
        printf("  legacy expected fp, %u lines: %.6f in %.3f ms\n", lines, p,
               (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6);
        CHECK(p > 0 && p < 1);
        free(bits);
    }
}

/* ---- What a Get must probe (pebble_get.c) --------------------------------------------- */

/* A fixture table, parsed and indexed, as a get meets it at level. */
typedef struct get_fixture { uint8_t *file; fl_pbl_sst *t; fl_pbl_index *x; } get_fixture;

static bool get_fixture_open(get_fixture *g, const char *name) {
    size_t len;
    char err[256];
    memset(g, 0, sizeof *g);
    g->file = slurp(name, "sst", &len);
    if (!g->file) return false;
    if (fl_pbl_sst_open(g->file, len, &g->t, err, sizeof err) != FL_OK ||
        fl_pbl_index_build(g->t, &g->x, err, sizeof err) != FL_OK) {
        fl_test_fail(__FILE__, __LINE__, "%s: %s", name, err);
        return false;
    }
    return true;
}

static void get_fixture_close(get_fixture *g) {
    fl_pbl_index_free(g->x);
    fl_pbl_sst_free(g->t);
    free(g->file);
}

static fl_pbl_get_table at(const get_fixture *g, int level) {
    return (fl_pbl_get_table){ g->t, g->x, level, true, true };
}

/* fl_pbl_get_probes of key over v: *pos maybes and *neg nos. */
static int probes_of(const fl_pbl_get_table *v, size_t n, const char *key, bool mem_deleted, uint64_t *pos,
                     uint64_t *neg) {
    fl_slice k = { (const uint8_t *)key, strlen(key) };
    return fl_pbl_get_probes(v, n, k, k.len, mem_deleted, pos, neg, NULL, NULL);
}

/* The bloom of fixture g's answer for key (checked against Pebble's own
 * answers by pbl_fixtures_match_pebble). */
static bool bloom_says(const get_fixture *g, const char *key) {
    return fl_pbl_bloom_may_contain(fl_pbl_sst_info(g->t)->filter, (fl_slice){ (const uint8_t *)key, strlen(key) });
}

FL_TEST(pbl_get_probes_follow_pebbles_rule) {
    get_fixture rd, basic;
    if (!get_fixture_open(&rd, "rangedel")) return;
    if (!get_fixture_open(&basic, "basic")) { get_fixture_close(&rd); return; }
    /* rangedel: r00..r29 set at seqs 10..39 (and r11 again at 42); range
     * deletions [r05,r10)@40, [r10,r12)@41, [r12,r20)@41, [r25,zz)@43;
     * basic: keys "" .. "\xff\xfe\x80", none of them r.. */
    uint64_t pos, neg;
    bool b_r03 = bloom_says(&basic, "r03"), b_r06 = bloom_says(&basic, "r06");
    CHECK(bloom_says(&rd, "r03") && bloom_says(&rd, "r06") && bloom_says(&rd, "r11"));
    fl_pbl_get_table v[2] = { at(&rd, 0), at(&basic, 0) };
    /* a put found ends the get */
    CHECK_OK(probes_of(v, 2, "r03", false, &pos, &neg));
    CHECK(pos == 1 && neg == 0);
    /* ... but not after a deletion in the memtable: the get steps past it */
    CHECK_OK(probes_of(v, 2, "r03", true, &pos, &neg));
    CHECK_EQ(pos, 1u + b_r03);
    CHECK_EQ(neg, (unsigned)!b_r03);
    /* a range deletion newer than the key's entry ends it in its table */
    CHECK_OK(probes_of(v, 2, "r06", true, &pos, &neg));
    CHECK(pos == 1 && neg == 0);
    /* a put newer than the range deletion over it is found */
    CHECK_OK(probes_of(v, 2, "r11", false, &pos, &neg));
    CHECK(pos == 1 && neg == 0);
    /* an absent key under a range deletion: no table after that one */
    CHECK_OK(probes_of(v, 2, "r27", false, &pos, &neg));
    CHECK(pos + neg == 1);
    /* a range deletion's end is not in its table's bounds ("zz": only basic) */
    CHECK_OK(probes_of(v, 2, "zz", false, &pos, &neg));
    CHECK_EQ(pos + neg, 1);
    CHECK_EQ(pos, (unsigned)bloom_says(&basic, "zz"));
    /* L6: the table is read, its filter never asked; its range deletion
     * still ends the get */
    fl_pbl_get_table w[2] = { at(&basic, 0), at(&rd, 6) };
    size_t asked[2], nasked;
    fl_slice r06 = { (const uint8_t *)"r06", 3 };
    CHECK_OK(fl_pbl_get_probes(w, 2, r06, 3, false, &pos, &neg, asked, &nasked));
    CHECK(nasked == 1 && asked[0] == 0);                /* the tables asked: basic's only */
    CHECK_OK(fl_pbl_get_probes(v, 2, (fl_slice){ (const uint8_t *)"r03", 3 }, 3, true, &pos, &neg, asked, &nasked));
    CHECK(nasked == 2 && asked[0] == 0 && asked[1] == 1);
    CHECK_OK(probes_of(w, 2, "r06", false, &pos, &neg));
    CHECK_EQ(pos, (unsigned)b_r06);
    CHECK_EQ(neg, (unsigned)!b_r06);
    w[0].level = 6;
    CHECK_OK(probes_of(w, 2, "r06", false, &pos, &neg));
    CHECK(pos == 0 && neg == 0);
    /* a filter not of the configured policy's name is not asked; one that
     * is, but is no bloom, only its policy can answer */
    v[0].asked = false;
    CHECK_OK(probes_of(v, 2, "r03", false, &pos, &neg));
    CHECK(pos == 0 && neg == 0);
    v[0].asked = true;
    v[0].bloom = false;
    CHECK_RC(probes_of(v, 2, "r03", false, &pos, &neg), FL_ERR_NOTFOUND);
    /* ... unless the get never reaches it */
    CHECK_OK(probes_of(v, 2, "a", false, &pos, &neg));
    CHECK(pos + neg == 1);
    /* the filter is asked for the key's Split prefix, not the key: "r" */
    fl_slice k = { (const uint8_t *)"r03", 3 };
    v[0].bloom = true;
    CHECK_OK(fl_pbl_get_probes(v, 1, k, 1, false, &pos, &neg, NULL, NULL));
    CHECK_EQ(pos, (unsigned)bloom_says(&rd, "r"));
    CHECK_EQ(neg, (unsigned)!bloom_says(&rd, "r"));
    get_fixture_close(&rd);
    get_fixture_close(&basic);
}

FL_TEST(pbl_prefix_probes_follow_pebbles_rule) {
    get_fixture c3, rd;
    if (!get_fixture_open(&c3, "capped3")) return;
    if (!get_fixture_open(&rd, "rangedel")) { get_fixture_close(&c3); return; }
    /* capped3: Split capped:3; prefixes aaa, abc, b, bz, cat, dog */
    uint64_t pos, neg;
    size_t asked[3], nasked;
    fl_slice cat = { (const uint8_t *)"cat", 3 }, cau = { (const uint8_t *)"cau", 3 };
    bool says = fl_pbl_bloom_may_contain(fl_pbl_sst_info(c3.t)->filter, cat);
    CHECK(says);
    /* one table: SeekPrefixGE loads it and asks its filter once */
    fl_pbl_get_table v[3] = { at(&c3, 0), at(&c3, 0), at(&c3, 6) };
    CHECK_OK(fl_pbl_prefix_probes(v, 1, cat, cau, true, cat, fl_pbl_split_capped, &three, &pos, &neg, asked, &nasked));
    CHECK(pos == 1 && neg == 0 && nasked == 1 && asked[0] == 0);
    /* two overlapping L0 tables are two sublevels, and L6 a level: three
     * level iterators, three probes */
    CHECK_OK(fl_pbl_prefix_probes(v, 3, cat, cau, true, cat, fl_pbl_split_capped, &three, &pos, &neg, asked, &nasked));
    CHECK(pos == 3 && neg == 0 && nasked == 3);
    /* a table whose smallest key's prefix ("aaa") is past the seek's ("a")
     * is not loaded (level_iter.go, loadFile) */
    fl_slice a = { (const uint8_t *)"a", 1 };
    CHECK_OK(fl_pbl_prefix_probes(v + 2, 1, a, a, false, a, fl_pbl_split_capped, &three, &pos, &neg, asked, &nasked));
    CHECK(pos == 0 && neg == 0 && nasked == 0);
    /* ... nor one at or past the upper bound (its smallest, "aaa", has the
     * prefix: unbounded, it is asked), nor one not of the configured
     * policy's name */
    fl_slice aaa = { (const uint8_t *)"aaa", 3 }, zz = { (const uint8_t *)"zz", 2 }, zzz = { (const uint8_t *)"zzz", 3 };
    CHECK_OK(fl_pbl_prefix_probes(v, 1, aaa, aaa, true, aaa, fl_pbl_split_capped, &three, &pos, &neg, asked, &nasked));
    CHECK(pos + neg == 0);
    CHECK_OK(fl_pbl_prefix_probes(v, 1, aaa, aaa, false, aaa, fl_pbl_split_capped, &three, &pos, &neg, asked, &nasked));
    CHECK(pos + neg == 1);
    v[0].asked = false;
    CHECK_OK(fl_pbl_prefix_probes(v, 1, cat, cau, true, cat, fl_pbl_split_capped, &three, &pos, &neg, asked, &nasked));
    CHECK(pos + neg == 0);
    /* a range deletion in the read's range: its re-seeks are not worked out */
    fl_pbl_get_table w[1] = { at(&rd, 0) };
    fl_slice r1 = { (const uint8_t *)"r1", 2 }, r2 = { (const uint8_t *)"r2", 2 };
    CHECK_RC(fl_pbl_prefix_probes(w, 1, r1, r2, true, r1, fl_pbl_split_capped, &three, &pos, &neg, asked, &nasked),
             FL_ERR_NOTFOUND);
    CHECK_OK(fl_pbl_prefix_probes(w, 1, zz, zzz, true, zz, fl_pbl_split_capped, &three, &pos, &neg, asked, &nasked));
    get_fixture_close(&c3);
    get_fixture_close(&rd);
}
