/*
 * test_slatedb_sst.c -- filterlab's reader of SlateDB's SSTs
 * (adapters/slatedb/slatedb_sst.c) against real SSTs that SlateDB 0.18.0
 * wrote (tests/slatedb/NAME.sst) and what SlateDB's own reader and filters
 * said of them (tests/slatedb/NAME.txt; tests/slatedb/README says how they
 * were made): every entry, the key range, the index and stats, the filters'
 * names and bytes, SlateDB's bloom answers for thousands of absent keys, the
 * bloom rebuilt bit for bit from the entries; every flipped byte and every
 * truncation refused, errors that say what and where.  The hashes and the
 * bloom alone are tested in test_slatedb_bloom.c, formats the fixtures do
 * not show in test_slatedb_formats.c.
 */
#include "test_slatedb_sst.h"

#include <math.h>
#include <stdlib.h>

/* ---- Fixtures ---------------------------------------------------------------------- */

/* hex ("-" for empty) into out (cap bytes); the length, or SIZE_MAX */
static size_t unhex(const char *s, uint8_t *out, size_t cap) {
    if (strcmp(s, "-") == 0) return 0;
    size_t n = strlen(s);
    if (n % 2 || n / 2 > cap) return SIZE_MAX;
    for (size_t i = 0; i < n / 2; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1) return SIZE_MAX;
        out[i] = (uint8_t)v;
    }
    return n / 2;
}

typedef struct exp_row {
    uint32_t block;
    uint8_t key[64], value[64];
    size_t klen, vlen;
    uint64_t seq;
    fl_sdb_kind kind;
    bool has_create, has_expire;
    int64_t create, expire;
} exp_row;

typedef struct rows_seen { const exp_row *want; size_t n, at; } rows_seen;

static int check_row(void *arg, const fl_sdb_row *r) {
    rows_seen *s = arg;
    if (s->at >= s->n) {
        fl_test_fail(__FILE__, __LINE__, "more rows than SlateDB listed (%zu)", s->n);
        return 1;
    }
    const exp_row *w = &s->want[s->at++];
    if (r->block != w->block || r->seq != w->seq || r->kind != w->kind ||
        r->key.len != w->klen || memcmp(r->key.data, w->key, w->klen) != 0 ||
        r->value.len != w->vlen || (w->vlen && memcmp(r->value.data, w->value, w->vlen) != 0) ||
        r->has_create_ts != w->has_create || r->has_expire_ts != w->has_expire ||
        (w->has_create && r->create_ts != w->create) || (w->has_expire && r->expire_ts != w->expire))
        fl_test_fail(__FILE__, __LINE__, "row %zu (key %.*s seq %llu) differs from SlateDB's listing",
                     s->at - 1, (int)w->klen, (const char *)w->key, (unsigned long long)w->seq);
    return 0;
}

static int count_entry(void *arg, const fl_row_entry *e) {
    rows_seen *s = arg;
    const exp_row *w = &s->want[s->at++];
    CHECK(e->seq == w->seq);
    CHECK(e->kind == (w->kind == FL_SDB_TOMBSTONE ? FL_ENTRY_DELETE : FL_ENTRY_PUT));
    CHECK_MEM(e->key.data, e->key.len, w->key, w->klen);
    return 0;
}

/* The fixtures' prefix extractor: Fixed3 (3 bytes of a key or prefix of
 * at least 3, none for shorter ones). */
static bool fixed3(void *arg, const fl_target *target, size_t *len) {
    (void)arg;
    if (target->bytes.len < 3) return false;
    *len = 3;
    return true;
}

/* fl_sdb_bloom_might_match for a bloom policy with (or without) Fixed3. */
static bool might_match(const fl_sdb_bloom *b, bool whole, bool has_ex, bool point,
                        const uint8_t *k, size_t n) {
    fl_target tg = { point ? FL_TARGET_POINT : FL_TARGET_PREFIX, { k, n } };
    return fl_sdb_bloom_might_match(b, whole, has_ex ? fixed3 : NULL, NULL, &tg);
}

typedef struct fixture { const char *name; const char *filter_bpk[3][2]; } fixture;

static void check_fixture(const fixture *fx) {
    char path[256], err[512];
    size_t len = 0, tlen = 0;
    snprintf(path, sizeof path, "%s.sst", fx->name);
    uint8_t *file = read_file(path, &len);
    snprintf(path, sizeof path, "%s.txt", fx->name);
    char *txt = (char *)read_file(path, &tlen);
    if (!file || !txt) { free(file); free(txt); return; }
    fl_sdb_sst *t = NULL;
    int rc = fl_sdb_sst_open(file, len, &t, err, sizeof err);
    if (rc) {
        fl_test_fail(__FILE__, __LINE__, "%s: %s", fx->name, err);
        free(file);
        free(txt);
        return;
    }
    const fl_sdb_info *in = fl_sdb_sst_info(t);
    CHECK_EQ(in->format_version, 2);
    CHECK(!in->legacy_filter);
    exp_row *rows = calloc(MAX_ROWS, sizeof *rows);
    size_t nrows = 0, nblocks = 0, nfilters = 0;
    uint8_t buf[8192];
    char *save = NULL;
    for (char *line = strtok_r(txt, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char a[9000], b2[9000], c[64], d[64], e[64];
        unsigned long long u[6];
        if (line[0] == '#') continue;
        if (sscanf(line, "size %llu", &u[0]) == 1) {
            CHECK_EQ(len, u[0]);
        } else if (sscanf(line, "first %8999s", a) == 1) {
            size_t n = unhex(a, buf, sizeof buf);
            CHECK(in->has_first_key);
            CHECK_MEM(in->first_key.data, in->first_key.len, buf, n);
        } else if (sscanf(line, "last %8999s", a) == 1) {
            size_t n = unhex(a, buf, sizeof buf);
            CHECK(in->has_last_key);
            CHECK_MEM(in->last_key.data, in->last_key.len, buf, n);
        } else if (sscanf(line, "index_offset %llu index_len %llu filter_offset %llu filter_len %llu "
                                "stats_offset %llu stats_len %llu", &u[0], &u[1], &u[2], &u[3], &u[4], &u[5]) == 6) {
            CHECK_EQ(in->index_offset, u[0]);
            CHECK_EQ(in->index_len, u[1]);
            CHECK_EQ(in->filter_offset, u[2]);
            CHECK_EQ(in->filter_len, u[3]);
            CHECK_EQ(in->stats_offset, u[4]);
            CHECK_EQ(in->stats_len, u[5]);
        } else if (sscanf(line, "blocks %llu", &u[0]) == 1) {
            CHECK_EQ(in->num_blocks, u[0]);
        } else if (sscanf(line, "block %llu %8999s", &u[0], a) == 2) {
            const fl_sdb_block *blk = fl_sdb_sst_block(t, nblocks++);
            CHECK(blk != NULL);
            if (!blk) continue;
            size_t n = unhex(a, buf, sizeof buf);
            CHECK_EQ(blk->offset, u[0]);
            CHECK_MEM(blk->index_key.data, blk->index_key.len, buf, n);
        } else if (sscanf(line, "stats puts %llu deletes %llu merges %llu raw_key %llu raw_val %llu",
                          &u[0], &u[1], &u[2], &u[3], &u[4]) == 5) {
            CHECK(in->has_stats);
            CHECK_EQ(in->num_values, u[0]);
            CHECK_EQ(in->num_tombstones, u[1]);
            CHECK_EQ(in->num_merges, u[2]);
            CHECK_EQ(in->raw_key_size, u[3]);
            CHECK_EQ(in->raw_val_size, u[4]);
        } else if (sscanf(line, "entry %llu %8999s %llu %63s %8999s %63s %63s", &u[0], a, &u[1], c, b2, d, e) == 7) {
            if (nrows == MAX_ROWS) { CHECK(!"too many rows"); continue; }
            exp_row *r = &rows[nrows++];
            r->block = (uint32_t)u[0];
            r->klen = unhex(a, r->key, sizeof r->key);
            r->vlen = unhex(b2, r->value, sizeof r->value);
            CHECK(r->klen != SIZE_MAX && r->vlen != SIZE_MAX);
            r->seq = u[1];
            r->kind = strcmp(c, "put") == 0 ? FL_SDB_VALUE : strcmp(c, "del") == 0 ? FL_SDB_TOMBSTONE : FL_SDB_MERGE;
            r->has_create = strcmp(d, "-") != 0;
            r->has_expire = strcmp(e, "-") != 0;
            r->create = r->has_create ? strtoll(d, NULL, 10) : 0;
            r->expire = r->has_expire ? strtoll(e, NULL, 10) : 0;
        } else if (sscanf(line, "filter %8999s %llu probes %llu", a, &u[0], &u[1]) == 3) {
            const fl_sdb_filter *flt = fl_sdb_sst_filter(t, nfilters++);
            CHECK(flt != NULL);
            if (!flt) continue;
            CHECK_MEM(flt->name.data, flt->name.len, a, strlen(a));
            CHECK_EQ(flt->data.len, u[0]);
            fl_sdb_bloom bl;
            CHECK_OK(fl_sdb_bloom_decode(flt->data, &bl, err, sizeof err));
            CHECK_EQ(bl.k, u[1]);
        } else if (sscanf(line, "answers %8999s %63s %63s %llu %8999s", a, c, d, &u[0], b2) == 5) {
            /* SlateDB's answers for absent keys "%03x" + stem, i < count */
            const fl_sdb_filter *flt = NULL;
            for (size_t i = 0; i < fl_sdb_sst_filter_count(t); i++) {
                const fl_sdb_filter *x = fl_sdb_sst_filter(t, i);
                if (x->name.len == strlen(a) && memcmp(x->name.data, a, x->name.len) == 0) flt = x;
            }
            CHECK(flt != NULL);
            if (!flt) continue;
            bool whole, point = strcmp(c, "point") == 0;
            fl_slice ex;
            CHECK(fl_sdb_bloom_name_parse(flt->name, &whole, &ex));
            fl_sdb_bloom bl;
            CHECK_OK(fl_sdb_bloom_decode(flt->data, &bl, err, sizeof err));
            size_t nb = unhex(b2, buf, sizeof buf);
            CHECK_EQ(nb, (u[0] + 7) / 8);
            size_t diff = 0;
            for (size_t i = 0; i < u[0] && nb != SIZE_MAX; i++) {
                char k[80];
                int kn = snprintf(k, sizeof k, "%03zx%s", i, strcmp(d, "-") == 0 ? "" : d);
                bool got = might_match(&bl, whole, ex.len > 0, point, (const uint8_t *)k, (size_t)kn);
                bool want = (buf[i / 8] >> (i % 8)) & 1;
                diff += got != want;
            }
            if (diff)
                fl_test_fail(__FILE__, __LINE__, "%s: filter %s, %s queries \"%s\": %zu of %llu answers differ from SlateDB's",
                             fx->name, a, c, d, diff, u[0]);
        } else if (sscanf(line, "prefix_answers %8999s %8999s", a, b2) == 2) {
            const fl_sdb_filter *flt = NULL;
            for (size_t i = 0; i < fl_sdb_sst_filter_count(t); i++) {
                const fl_sdb_filter *x = fl_sdb_sst_filter(t, i);
                if (x->name.len == strlen(a) && memcmp(x->name.data, a, x->name.len) == 0) flt = x;
            }
            if (!flt) { CHECK(flt != NULL); continue; }
            bool whole;
            fl_slice ex;
            CHECK(fl_sdb_bloom_name_parse(flt->name, &whole, &ex));
            fl_sdb_bloom bl;
            CHECK_OK(fl_sdb_bloom_decode(flt->data, &bl, err, sizeof err));
            size_t at = 0;
            for (size_t r = 0; r < nrows; r++)
                for (size_t l = 2; l <= 4; l++)
                    if (rows[r].klen >= l) {
                        char want = b2[at++];
                        char got = might_match(&bl, whole, ex.len > 0, false, rows[r].key, l) ? '1' : '0';
                        if (want != got)
                            fl_test_fail(__FILE__, __LINE__, "%s: filter %s, prefix query of %zu bytes of row %zu: %c, SlateDB %c",
                                         fx->name, a, l, r, got, want);
                    }
            CHECK_EQ(at, strlen(b2));
        } else {
            fl_test_fail(__FILE__, __LINE__, "%s.txt: unknown line: %.60s", fx->name, line);
        }
    }
    CHECK_EQ(nblocks, in->num_blocks);
    CHECK_EQ(nfilters, fl_sdb_sst_filter_count(t));
    CHECK_EQ(nrows, in->num_rows);

    /* every row, exactly as SlateDB's SstReader listed it */
    rows_seen seen = { rows, nrows, 0 };
    CHECK_OK(fl_sdb_sst_rows(t, check_row, &seen, err, sizeof err));
    CHECK_EQ(seen.at, nrows);
    bool merges = in->num_merges > 0;
    seen.at = 0;
    if (!merges) {
        CHECK_OK(fl_sdb_sst_entries(t, count_entry, &seen, err, sizeof err));
        CHECK_EQ(seen.at, nrows);
    }

    /* each bloom: no false negatives; rebuilt bit for bit from the entries;
     * its exact FP rate agrees with sampling */
    for (size_t i = 0; i < fl_sdb_sst_filter_count(t); i++) {
        const fl_sdb_filter *flt = fl_sdb_sst_filter(t, i);
        bool whole;
        fl_slice ex;
        fl_sdb_bloom bl;
        CHECK(fl_sdb_bloom_name_parse(flt->name, &whole, &ex));
        CHECK_OK(fl_sdb_bloom_decode(flt->data, &bl, err, sizeof err));
        for (size_t r = 0; r < nrows; r++)
            CHECK(might_match(&bl, whole, ex.len > 0, true, rows[r].key, rows[r].klen));
        uint32_t bpk = 0;
        for (int j = 0; j < 3 && fx->filter_bpk[j][0]; j++)
            if (flt->name.len == strlen(fx->filter_bpk[j][0]) &&
                memcmp(flt->name.data, fx->filter_bpk[j][0], flt->name.len) == 0)
                bpk = (uint32_t)atoi(fx->filter_bpk[j][1]);
        CHECK(bpk != 0);
        uint64_t *hs = NULL;
        size_t nh = 0;
        CHECK_OK(fl_sdb_bloom_key_hashes(t, whole, ex.len ? fixed3 : NULL, NULL, &hs, &nh, err, sizeof err));
        fl_buf built;
        fl_buf_init(&built);
        CHECK_OK(fl_sdb_bloom_build(bpk, hs, nh, &built));
        if (built.len != flt->data.len || memcmp(built.data, flt->data.data, built.len) != 0)
            fl_test_fail(__FILE__, __LINE__, "%s: filter %.*s rebuilt from %zu hashes differs from the stored one",
                         fx->name, (int)flt->name.len, (const char *)flt->name.data, nh);
        fl_buf_free(&built);
        free(hs);
        /* P5's check: the stored bloom passes; one bit flipped either way,
         * or another probe count, is a defect that says what differs */
        char defect[400];
        CHECK_OK(fl_sdb_bloom_check(t, flt, ex.len ? fixed3 : NULL, NULL, -1, defect, sizeof defect));
        if (defect[0]) fl_test_fail(__FILE__, __LINE__, "%s: %s", fx->name, defect);
        /* at the bits per key it was written with too; at 8 more (a
         * writer given other bits than configured), the size differs */
        CHECK_OK(fl_sdb_bloom_check(t, flt, ex.len ? fixed3 : NULL, NULL, (int)bpk, defect, sizeof defect));
        if (defect[0]) fl_test_fail(__FILE__, __LINE__, "%s at %u bits: %s", fx->name, (unsigned)bpk, defect);
        CHECK_OK(fl_sdb_bloom_check(t, flt, ex.len ? fixed3 : NULL, NULL, (int)bpk + 8, defect, sizeof defect));
        CHECK_CONTAINS(defect, "but SlateDB's builder at the configured");
        uint8_t *bad = malloc(flt->data.len);
        CHECK(bad != NULL);
        fl_sdb_filter forged = { flt->name, { bad, flt->data.len } };
        size_t set_bit = 0, clear_bit = 0;
        for (size_t j = 0; j < bl.nbits; j++) {
            bool on = bl.bits[j >> 3] & (1u << (j & 7));
            if (on && !set_bit) set_bit = j + 1;
            if (!on && !clear_bit) clear_bit = j + 1;
        }
        CHECK(set_bit && clear_bit);
        memcpy(bad, flt->data.data, flt->data.len);
        bad[2 + (set_bit - 1) / 8] ^= (uint8_t)(1u << ((set_bit - 1) & 7));
        CHECK_OK(fl_sdb_bloom_check(t, &forged, ex.len ? fixed3 : NULL, NULL, -1, defect, sizeof defect));
        CHECK(strstr(defect, ": 0 set that the rebuild leaves clear, 1 clear that it sets") != NULL);
        memcpy(bad, flt->data.data, flt->data.len);
        bad[2 + (clear_bit - 1) / 8] ^= (uint8_t)(1u << ((clear_bit - 1) & 7));
        CHECK_OK(fl_sdb_bloom_check(t, &forged, ex.len ? fixed3 : NULL, NULL, -1, defect, sizeof defect));
        CHECK(strstr(defect, ": 1 set that the rebuild leaves clear, 0 clear that it sets") != NULL);
        memcpy(bad, flt->data.data, flt->data.len);
        bad[1] ^= 1;                                   /* k, big-endian u16 */
        CHECK_OK(fl_sdb_bloom_check(t, &forged, ex.len ? fixed3 : NULL, NULL, -1, defect, sizeof defect));
        /* (no bits per key gives that k with that size, or one does -- a
         * two-key SST's 24 bits are 11 or 12 per key -- and its build differs) */
        CHECK(strstr(defect, "which no whole bits per key gives") != NULL || strstr(defect, "differ from") != NULL);
        free(bad);
        double p = fl_sdb_bloom_expected_fp(&bl);
        CHECK(p >= 0 && p <= 1);
        if (bl.nbits <= 2000) {
            double brute = brute_fp(&bl);
            CHECK(fabs(p - brute) <= 1e-12 * (brute > 0 ? brute : 1));
        }
        uint64_t seed = 12345, hits = 0, trials = 200000;
        for (uint64_t j = 0; j < trials; j++) {
            uint64_t h = fl_test_rand(&seed) << 33 ^ fl_test_rand(&seed) << 2 ^ fl_test_rand(&seed);
            hits += fl_sdb_bloom_might_contain_hash(&bl, h);
        }
        double sd = sqrt(p * (1 - p) / (double)trials);
        if (fabs((double)hits / (double)trials - p) > 6 * sd + 1e-9)
            fl_test_fail(__FILE__, __LINE__, "%s: filter %.*s: sampled FP %.5f, exact %.5f", fx->name,
                         (int)flt->name.len, (const char *)flt->name.data, (double)hits / (double)trials, p);
    }
    fl_sdb_sst_free(t);
    free(rows);
    free(file);
    free(txt);
}

static const fixture fixtures[] = {
    { "basic", { { "_bf", "10" } } },
    { "prefix", { { "_bf", "10" }, { "_bf:p=fixed3", "10" }, { "_bf:p=fixed3:wh=0", "6" } } },
    { "multiblock", { { "_bf", "7" } } },
    { "merge", { { "_bf", "10" } } },
    { "versions", { { "_bf", "10" }, { "_bf:p=fixed3", "10" } } },
    { "nofilter", { { NULL, NULL } } },
    { "aligned", { { "_bf", "10" } } },
    { "twoflush-0", { { "_bf", "10" } } },
    { "twoflush-1", { { "_bf", "10" } } },
};

FL_TEST(sdb_fixtures_match_slatedb) {
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) check_fixture(&fixtures[i]);
}

FL_TEST(sdb_fixture_shapes) {
    char err[512];
    size_t len;
    fl_sdb_sst *t;
    /* multiblock: several 1 KiB blocks, one key's 40 versions across restarts */
    uint8_t *f = fixture_bytes("multiblock", &len);
    if (!f) return;
    CHECK_OK(fl_sdb_sst_open(f, len, &t, err, sizeof err));
    if (t) {
        CHECK(fl_sdb_sst_info(t)->num_blocks >= 3);
        CHECK(fl_sdb_sst_info(t)->num_tombstones > 0);
        size_t sum = 0;
        for (size_t i = 0; i < fl_sdb_sst_info(t)->num_blocks; i++) {
            const fl_sdb_block *b = fl_sdb_sst_block(t, i);
            CHECK_EQ(b->first_row, sum);
            CHECK(b->rows > 0);
            sum += b->rows;
            if (i == 0) CHECK_EQ(b->index_key.len, 0);     /* 0.18.0 writes "" first */
        }
        CHECK_EQ(sum, fl_sdb_sst_info(t)->num_rows);
        fl_sdb_sst_free(t);
    }
    free(f);
    /* aligned: every block padded to 1 KiB, its encoded_len in the index */
    f = fixture_bytes("aligned", &len);
    if (!f) return;
    CHECK_OK(fl_sdb_sst_open(f, len, &t, err, sizeof err));
    if (t) {
        size_t nb = fl_sdb_sst_info(t)->num_blocks;
        CHECK(nb >= 2);
        for (size_t i = 0; i < nb; i++) {
            const fl_sdb_block *b = fl_sdb_sst_block(t, i);
            CHECK_EQ(b->offset, 1024 * i);
            CHECK(b->encoded_len > 0 && b->encoded_len < 1024 && b->len == b->encoded_len);
        }
        /* a nonzero padding byte is refused */
        const fl_sdb_block *b0 = fl_sdb_sst_block(t, 0);
        size_t pad = (size_t)(b0->offset + b0->len);
        fl_sdb_sst_free(t);
        f[pad] = 1;
        CHECK_RC(fl_sdb_sst_open(f, len, &t, err, sizeof err), FL_ERR_CORRUPT);
        CHECK_CONTAINS(err, "padding has a nonzero byte");
    }
    free(f);
    /* merge: fl_row_entry has no merge kind */
    f = fixture_bytes("merge", &len);
    if (!f) return;
    CHECK_OK(fl_sdb_sst_open(f, len, &t, err, sizeof err));
    if (t) {
        CHECK(fl_sdb_sst_info(t)->num_merges > 0);
        fl_sdb_sst_free(t);
    }
    free(f);
    /* nofilter: no filter block */
    f = fixture_bytes("nofilter", &len);
    if (!f) return;
    CHECK_OK(fl_sdb_sst_open(f, len, &t, err, sizeof err));
    if (t) {
        CHECK_EQ(fl_sdb_sst_filter_count(t), 0);
        CHECK(fl_sdb_sst_filter(t, 0) == NULL);
        CHECK_EQ(fl_sdb_sst_info(t)->filter_len, 0);
        fl_sdb_sst_free(t);
    }
    free(f);
}

static int ignore_entry(void *arg, const fl_row_entry *e) {
    (void)e;
    ++*(size_t *)arg;
    return 0;
}

FL_TEST(sdb_merge_operand_is_not_an_entry) {
    char err[512];
    size_t len, n = 0;
    fl_sdb_sst *t;
    uint8_t *f = fixture_bytes("merge", &len);
    if (!f) return;
    CHECK_OK(fl_sdb_sst_open(f, len, &t, err, sizeof err));
    if (t) {
        CHECK_RC(fl_sdb_sst_entries(t, ignore_entry, &n, err, sizeof err), FL_ERR_INVALID);
        CHECK_CONTAINS(err, "merge operand");
        fl_sdb_sst_free(t);
    }
    free(f);
}

/* ---- Corruption ---------------------------------------------------------------------- */

static int walk_all(void *arg, const fl_sdb_row *r) {
    (void)r;
    ++*(size_t *)arg;
    return 0;
}

/* Opens what is left of a damaged file without its checksums and walks it
 * all: nothing may crash (the sanitizers' and the fuzzer's job too). */
static void survive(const uint8_t *f, size_t len) {
    fl_sdb_sst *t = NULL;
    char err[512];
    if (fl_sdb_sst_open_flags(f, len, FL_SDB_NO_CHECKSUMS, &t, err, sizeof err) != FL_OK) {
        CHECK(t == NULL && err[0]);
        return;
    }
    size_t n = 0;
    CHECK_OK(fl_sdb_sst_rows(t, walk_all, &n, err, sizeof err));
    CHECK_EQ(n, fl_sdb_sst_info(t)->num_rows);
    for (size_t i = 0; i < fl_sdb_sst_filter_count(t); i++) {
        fl_sdb_bloom b;
        if (fl_sdb_bloom_decode(fl_sdb_sst_filter(t, i)->data, &b, err, sizeof err) == FL_OK && b.nbits <= 256 && b.k <= 64)
            (void)fl_sdb_bloom_expected_fp(&b);
    }
    fl_sdb_sst_free(t);
}

FL_TEST(sdb_every_flipped_byte_is_refused) {
    static const char *const names[] = { "basic", "multiblock", "prefix", "aligned" };
    for (size_t ni = 0; ni < 4; ni++) {
        size_t len;
        uint8_t *f = fixture_bytes(names[ni], &len);
        if (!f) continue;
        char err[512];
        size_t refused = 0;
        for (size_t i = 0; i < len; i++) {
            for (int bit = 0; bit < 8; bit += 3) {
                f[i] ^= (uint8_t)(1u << bit);
                fl_sdb_sst *t = NULL;
                int rc = fl_sdb_sst_open(f, len, &t, err, sizeof err);
                if (rc == FL_OK) {
                    fl_test_fail(__FILE__, __LINE__, "%s: bit %d of byte %zu flipped: opened", names[ni], bit, i);
                    fl_sdb_sst_free(t);
                } else {
                    refused++;
                    CHECK(rc == FL_ERR_CORRUPT || rc == FL_ERR_VERSION);
                    CHECK(t == NULL);
                    CHECK(strncmp(err, "slatedb sst: ", 13) == 0);
                }
                survive(f, len);
                f[i] ^= (uint8_t)(1u << bit);
            }
        }
        CHECK(refused > 0);
        for (size_t cut = 0; cut < len; cut++) {
            fl_sdb_sst *t = NULL;
            CHECK(fl_sdb_sst_open(f, cut, &t, err, sizeof err) != FL_OK);
            CHECK(t == NULL);
            survive(f, cut);
        }
        free(f);
    }
}

/* Messages: a flipped byte in a data block names the block and the CRC. */
FL_TEST(sdb_errors_say_what_and_where) {
    size_t len;
    char err[512];
    fl_sdb_sst *t = NULL;
    uint8_t *f = fixture_bytes("multiblock", &len);
    if (!f) return;
    CHECK_OK(fl_sdb_sst_open(f, len, &t, err, sizeof err));
    if (!t) { free(f); return; }
    const fl_sdb_block *b1 = fl_sdb_sst_block(t, 1);
    uint64_t off = b1->offset, blen = b1->len;
    fl_sdb_info info = *fl_sdb_sst_info(t);
    fl_sdb_sst_free(t);

    f[off + 5] ^= 0x40;
    CHECK_RC(fl_sdb_sst_open(f, len, &t, err, sizeof err), FL_ERR_CORRUPT);
    CHECK_CONTAINS(err, "data block 1");
    CHECK_CONTAINS(err, "CRC");
    f[off + 5] ^= 0x40;

    /* a flag bit SlateDB does not know, the CRC made right: the flags are named */
    uint8_t *copy = malloc(len);
    memcpy(copy, f, len);
    /* block 1's first entry (v2): three one-byte varints, key, value, seq, flags */
    const uint8_t *p = copy + off;
    size_t unshared = p[1], vlen = p[2];
    CHECK(p[0] == 0 && p[1] < 0x80 && p[2] < 0x80);
    size_t flags_at = off + 3 + unshared + vlen + 8;
    copy[flags_at] |= 0x10;
    uint32_t crc = fl_sdb_crc32(copy + off, (size_t)blen - 4);
    copy[off + blen - 4] = (uint8_t)(crc >> 24);
    copy[off + blen - 3] = (uint8_t)(crc >> 16);
    copy[off + blen - 2] = (uint8_t)(crc >> 8);
    copy[off + blen - 1] = (uint8_t)crc;
    CHECK_RC(fl_sdb_sst_open(copy, len, &t, err, sizeof err), FL_ERR_CORRUPT);
    CHECK_CONTAINS(err, "block 1, entry 0");
    CHECK_CONTAINS(err, "flags 0x1");

    /* the seq raised above the previous version's (same key straddling?) or
     * keys out of order: make the first key of block 1 sort before block 0's
     * last by zeroing its first byte, CRC made right */
    memcpy(copy, f, len);
    copy[off + 3] = 0x00;
    crc = fl_sdb_crc32(copy + off, (size_t)blen - 4);
    for (int i = 0; i < 4; i++) copy[off + blen - 4 + (size_t)i] = (uint8_t)(crc >> (24 - 8 * i));
    CHECK_RC(fl_sdb_sst_open(copy, len, &t, err, sizeof err), FL_ERR_CORRUPT);
    CHECK_CONTAINS(err, "block 1");

    /* the footer's version */
    memcpy(copy, f, len);
    copy[len - 1] = 3;
    CHECK_RC(fl_sdb_sst_open(copy, len, &t, err, sizeof err), FL_ERR_VERSION);
    CHECK_CONTAINS(err, "format version is 3");

    /* too short */
    CHECK_RC(fl_sdb_sst_open(f, 10, &t, err, sizeof err), FL_ERR_CORRUPT);
    CHECK_CONTAINS(err, "10-byte footer");

    /* the filter block's CRC */
    memcpy(copy, f, len);
    copy[info.filter_offset + 2] ^= 1;
    CHECK_RC(fl_sdb_sst_open(copy, len, &t, err, sizeof err), FL_ERR_CORRUPT);
    CHECK_CONTAINS(err, "the filter block at offset");
    free(copy);
    free(f);
}
