/*
 * fuzz_slatedb_sst.c -- filterlab's reader of SlateDB's SSTs
 * (adapters/slatedb/slatedb_sst.c): crash-only, plus its own promises.
 *
 * The input is an SST file.  It is opened as it is, and -- since a mutation
 * almost always breaks a CRC, which would keep the fuzzer out of every
 * decoder behind one -- again with FL_SDB_NO_CHECKSUMS.  Whatever opens is
 * walked whole: every row (fl_sdb_sst_rows and fl_sdb_sst_entries), every
 * block's index record, every sub-filter decoded as a bloom and probed,
 * its name taken apart, its build hashes collected (with and without a
 * 3-byte prefix extractor) and rebuilt into a bloom, and, when small
 * enough to be quick, its exact expected FP rate computed.  Errors are
 * fine; crashes, sanitizer reports, leaks and hangs are not, and neither
 * is a broken promise: an input that opens with its checksums opens the
 * same without them, the walk sees as many rows as open counted, keys
 * ascend, an FP rate is in [0, 1], a rebuilt bloom holds every hash it
 * was built from.
 */
#include "../adapters/slatedb/slatedb_sst.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct walked {
    size_t rows;
    uint8_t last[256];
    size_t last_len;
    bool have_last;
} walked;

static int row(void *arg, const fl_sdb_row *r) {
    walked *w = arg;
    if (r->key.len == 0) abort();                      /* open refuses empty keys */
    if (r->kind == FL_SDB_TOMBSTONE && r->value.len) abort();
    if (w->have_last) {
        size_t n = w->last_len < r->key.len ? w->last_len : r->key.len;
        int c = memcmp(r->key.data, w->last, n < sizeof w->last ? n : sizeof w->last);
        if (c < 0 && w->last_len <= sizeof w->last) abort();   /* keys ascend */
    }
    w->last_len = r->key.len;
    memcpy(w->last, r->key.data, r->key.len < sizeof w->last ? r->key.len : sizeof w->last);
    w->have_last = true;
    w->rows++;
    return 0;
}

static int entry(void *arg, const fl_row_entry *e) {
    (void)e;
    ++*(size_t *)arg;
    return 0;
}

static bool fixed3(void *arg, const fl_target *target, size_t *len) {
    (void)arg;
    if (target->bytes.len < 3) return false;
    *len = 3;
    return true;
}

static void probe(const fl_sdb_bloom *b, const fl_sdb_sst *t) {
    static const char *const keys[] = { "", "a", "apple", "user:0001:name", "\xff\xff\xff" };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        fl_slice k = { (const uint8_t *)keys[i], strlen(keys[i]) };
        bool yes = fl_sdb_bloom_might_contain(b, k);
        fl_target point = { FL_TARGET_POINT, k }, prefix = { FL_TARGET_PREFIX, k };
        if (fl_sdb_bloom_might_match(b, true, NULL, NULL, &point) != yes) abort();
        (void)fl_sdb_bloom_might_match(b, false, fixed3, NULL, &point);
        (void)fl_sdb_bloom_might_match(b, true, fixed3, NULL, &prefix);
    }
    const fl_sdb_info *in = fl_sdb_sst_info(t);
    if (in->has_first_key) (void)fl_sdb_bloom_might_contain(b, in->first_key);
    /* the exact rate costs ~ m * m/64 * k: keep each input fast */
    uint64_t m = b->nbits, k = b->k < m ? b->k : m;
    if (m * ((m + 63) / 64) * (k + 1) <= 4000000 && (uint64_t)b->k * m <= 4000000) {
        double p = fl_sdb_bloom_expected_fp(b);
        if (!(p >= 0 && p <= 1)) abort();
    }
}

static void rebuild(const fl_sdb_sst *t, bool whole, bool prefix) {
    uint64_t *hs = NULL;
    size_t n = 0;
    char err[256];
    if (fl_sdb_bloom_key_hashes(t, whole, prefix ? fixed3 : NULL, NULL, &hs, &n, err, sizeof err) != FL_OK)
        abort();                                       /* the SST opened: its rows walk */
    if (n > 2 * fl_sdb_sst_info(t)->num_rows) abort();
    fl_buf out;
    fl_buf_init(&out);
    if (fl_sdb_bloom_build(10, hs, n, &out) != FL_OK) abort();
    fl_sdb_bloom b;
    if (fl_sdb_bloom_decode((fl_slice){ out.data, out.len }, &b, err, sizeof err) != FL_OK) abort();
    for (size_t i = 0; i < n; i++)
        if (!fl_sdb_bloom_might_contain_hash(&b, hs[i])) abort();   /* no false negative */
    fl_buf_free(&out);
    free(hs);
}

static void walk(const fl_sdb_sst *t) {
    const fl_sdb_info *in = fl_sdb_sst_info(t);
    char err[512];
    walked w = { 0 };
    if (fl_sdb_sst_rows(t, row, &w, err, sizeof err) != FL_OK) abort();
    if (w.rows != in->num_rows) abort();
    size_t entries = 0;
    int rc = fl_sdb_sst_entries(t, entry, &entries, err, sizeof err);
    if (rc != FL_OK && !(rc == FL_ERR_INVALID && in->num_merges)) abort();
    size_t rows = 0;
    for (size_t i = 0; i < in->num_blocks; i++) {
        const fl_sdb_block *b = fl_sdb_sst_block(t, i);
        if (!b || b->first_row != rows) abort();
        rows += b->rows;
    }
    if (rows != in->num_rows || fl_sdb_sst_block(t, in->num_blocks)) abort();
    for (size_t i = 0; i < fl_sdb_sst_filter_count(t); i++) {
        const fl_sdb_filter *f = fl_sdb_sst_filter(t, i);
        bool whole;
        fl_slice ex;
        (void)fl_sdb_bloom_name_parse(f->name, &whole, &ex);
        fl_sdb_bloom b;
        if (fl_sdb_bloom_decode(f->data, &b, err, sizeof err) == FL_OK) probe(&b, t);
    }
    if (fl_sdb_sst_filter(t, fl_sdb_sst_filter_count(t))) abort();
    rebuild(t, true, false);
    rebuild(t, false, true);
    rebuild(t, true, true);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char err[512];
    fl_sdb_sst *t = NULL;
    /* its own copy: a reader must never need more than the bytes it is given */
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy) return 0;
    memcpy(copy, data, size);
    int strict = fl_sdb_sst_open(copy, size, &t, err, sizeof err);
    size_t rows = 0;
    if (strict == FL_OK) {
        rows = fl_sdb_sst_info(t)->num_rows;
        walk(t);
        fl_sdb_sst_free(t);
    } else if (t != NULL || err[0] == '\0') {
        abort();                                        /* an error says why, and leaves nothing */
    }
    t = NULL;
    int loose = fl_sdb_sst_open_flags(copy, size, FL_SDB_NO_CHECKSUMS, &t, err, sizeof err);
    if (strict == FL_OK && (loose != FL_OK || fl_sdb_sst_info(t)->num_rows != rows)) abort();
    if (loose == FL_OK) {
        walk(t);
        fl_sdb_sst_free(t);
    }
    free(copy);
    return 0;
}
