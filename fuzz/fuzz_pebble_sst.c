/*
 * fuzz_pebble_sst.c -- filterlab's reader of Pebble's SST files
 * (adapters/pebble/pebble_sst.c): crash-only, plus its own promises.
 *
 * The input is a table file.  It is opened as it is, and -- since a
 * mutation almost always breaks a CRC, which would keep the fuzzer out of
 * every decoder behind one -- again with FL_PBL_NO_CHECKSUMS.  Whatever
 * opens is walked whole: every row (fl_pbl_sst_rows), every range
 * tombstone (fl_pbl_sst_range_dels), every block's record, the filter
 * decoded and probed, its build hashes collected (Split NULL and capped:3)
 * and rebuilt into a bloom, the filter and the Split bits checked against
 * the rows (fl_pbl_bloom_check, fl_pbl_split_check: defects and errors
 * are fine), and, when small enough to be quick, the filter's exact
 * expected FP rate computed.  Errors are fine; crashes, sanitizer reports,
 * leaks and hangs are not, and neither is a broken promise: an input that
 * opens with its checksums opens the same without them, an error leaves
 * nothing and says why, the walk sees as many rows (and tombstones) as
 * open counted, keys ascend (user key ascending, an equal key's seq and
 * kind descending), the blocks' records tile the rows, a probe by key
 * agrees with a probe by its hash, an FP rate is in [0, 1], a rebuilt
 * bloom holds every hash it was built from, and a filter that
 * fl_pbl_bloom_check finds exact holds every hash of the table.
 */
#include "../adapters/pebble/pebble_sst.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct walked {
    const fl_pbl_sst *t;
    size_t rows;
    uint8_t *last;              /* the previous row's user key (a copy) */
    size_t last_len, last_cap;
    uint64_t last_seq;
    unsigned last_kind;
    bool have_last;
} walked;

static bool point_kind(unsigned k) {
    return k == FL_PBL_DEL || k == FL_PBL_SET || k == FL_PBL_MERGE || k == FL_PBL_SINGLEDEL ||
           k == FL_PBL_SETWITHDEL || k == FL_PBL_DELSIZED;
}

static int row(void *arg, const fl_pbl_row *r) {
    walked *w = arg;
    const fl_pbl_info *in = fl_pbl_sst_info(w->t);
    if (!point_kind(r->kind) || r->seq > FL_PBL_SEQ_MAX) abort();
    if ((r->in_value_block || r->same_prefix) && r->kind != FL_PBL_SET) abort();
    if (r->in_value_block && r->value.len == 0) abort();
    /* the row lies in the block it names, as that block's record says */
    const fl_pbl_block *b = fl_pbl_sst_block(w->t, r->block);
    if (!b || w->rows < b->first_row || w->rows - b->first_row >= b->rows) abort();
    if (r->shared > r->key.len) abort();
    if (w->have_last) {                               /* keys ascend */
        size_t n = w->last_len < r->key.len ? w->last_len : r->key.len;
        int c = n ? memcmp(w->last, r->key.data, n) : 0;
        if (c == 0) c = w->last_len < r->key.len ? -1 : w->last_len > r->key.len ? 1 : 0;
        if (c > 0) abort();
        if (c == 0 && (r->seq > w->last_seq || (r->seq == w->last_seq && r->kind >= w->last_kind))) abort();
    }
    if (r->key.len > w->last_cap) {
        size_t c = w->last_cap ? w->last_cap : 64;
        while (c < r->key.len) c *= 2;
        uint8_t *p = realloc(w->last, c);
        if (!p) return FL_ERR_NOMEM;
        w->last = p;
        w->last_cap = c;
    }
    if (r->key.len) memcpy(w->last, r->key.data, r->key.len);
    w->last_len = r->key.len;
    w->last_seq = r->seq;
    w->last_kind = r->kind;
    w->have_last = true;
    w->rows++;
    if (w->rows > in->num_rows) abort();
    return 0;
}

typedef struct tombs { size_t n; } tombs;

static int tomb(void *arg, fl_slice start, fl_slice end, uint64_t seq) {
    tombs *d = arg;
    size_t n = start.len < end.len ? start.len : end.len;
    int c = n ? memcmp(start.data, end.data, n) : 0;
    if (c > 0 || (c == 0 && start.len >= end.len)) abort();   /* start < end */
    if (seq > FL_PBL_SEQ_MAX) abort();
    d->n++;
    return 0;
}

static const char *const keys[] = { "", "a", "key000", "key039", "aaa", "user:0001:name", "\xff\xff\xff" };

static void probe(fl_slice filter) {
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        fl_slice k = { (const uint8_t *)keys[i], strlen(keys[i]) };
        if (fl_pbl_bloom_may_contain(filter, k) != fl_pbl_bloom_may_contain_hash(filter, fl_pbl_hash(k.data, k.len)))
            abort();
    }
    fl_pbl_bloom b;
    bool ok = fl_pbl_bloom_decode(filter, &b);
    if (!ok) {
        if (fl_pbl_bloom_may_contain_hash(filter, 0) || fl_pbl_bloom_expected_fp(filter) != 0.0) abort();
        return;
    }
    if (b.bytes != filter.len - 5 || b.lines == 0 || b.line_bits == 0 || (uint64_t)b.lines * (b.line_bits / 8) > b.bytes)
        abort();
    /* the exact rate: -1 unless line_bits is a power of two from 8 to 32768;
     * else it costs ~ 2^(32 - 2c) + lines * line_bits * k * line_bits/64
     * (line_bits = 2^c): keep each input fast */
    uint32_t C = b.line_bits;
    bool pow2 = C >= 8 && C <= 32768 && (C & (C - 1)) == 0;
    if (!pow2) {
        if (fl_pbl_bloom_expected_fp(filter) != -1) abort();
        return;
    }
    unsigned c = (unsigned)__builtin_ctz(C);
    uint64_t words = C < 64 ? 1 : C / 64;
    uint64_t cost = (1ull << (32 - 2 * c)) + (uint64_t)b.lines * C * ((uint64_t)b.k + 1) * words;
    if (b.lines <= 1000 && cost <= 4000000) {
        double p = fl_pbl_bloom_expected_fp(filter);
        if (!(p >= 0 && p <= 1)) abort();
    }
}

static void rebuild(const fl_pbl_sst *t, fl_pbl_split_fn split, void *arg, bool exact) {
    const fl_pbl_info *in = fl_pbl_sst_info(t);
    uint32_t *hs = NULL;
    size_t n = 0;
    char err[512];
    if (fl_pbl_filter_hashes(t, split, arg, &hs, &n, err, sizeof err) != FL_OK) abort();   /* the table opened */
    if (n != in->num_rows) abort();
    if (exact)                                          /* an exact filter: no false negative */
        for (size_t i = 0; i < n; i++)
            if (!fl_pbl_bloom_may_contain_hash(in->filter, hs[i])) abort();
    fl_buf out;
    fl_buf_init(&out);
    if (fl_pbl_bloom_build(10, hs, n, &out) != FL_OK) abort();
    fl_slice f = { out.data, out.len };
    for (size_t i = 0; i < n; i++)
        if (!fl_pbl_bloom_may_contain_hash(f, hs[i])) abort();          /* no false negative */
    fl_buf_free(&out);
    free(hs);
}

static void walk(const fl_pbl_sst *t) {
    const fl_pbl_info *in = fl_pbl_sst_info(t);
    char err[512];
    walked w = { .t = t };
    if (fl_pbl_sst_rows(t, row, &w, err, sizeof err) != FL_OK) abort();
    free(w.last);
    if (w.rows != in->num_rows) abort();
    uint64_t counted = 0;
    for (size_t i = 0; i < sizeof in->counts / sizeof in->counts[0]; i++) counted += in->counts[i];
    if (counted != in->num_rows) abort();
    tombs d = { 0 };
    if (fl_pbl_sst_range_dels(t, tomb, &d, err, sizeof err) != FL_OK) abort();
    if (d.n != in->num_range_dels) abort();
    size_t rows = 0;
    for (size_t i = 0; i < in->num_blocks; i++) {
        const fl_pbl_block *b = fl_pbl_sst_block(t, i);
        if (!b || b->first_row != rows || b->sep.len < 8) abort();
        rows += b->rows;
    }
    if (rows != in->num_rows || fl_pbl_sst_block(t, in->num_blocks)) abort();
    size_t three = 3;
    char defect[512];
    bool exact = false;
    if (in->has_filter) {
        probe(in->filter);
        exact = fl_pbl_bloom_check(t, NULL, NULL, -1, defect, sizeof defect) == FL_OK && defect[0] == '\0';
        bool exact3 = fl_pbl_bloom_check(t, fl_pbl_split_capped, &three, -1, defect, sizeof defect) == FL_OK &&
                      defect[0] == '\0';
        rebuild(t, fl_pbl_split_capped, &three, exact3);
    } else {
        if (fl_pbl_bloom_check(t, NULL, NULL, -1, defect, sizeof defect) != FL_OK || defect[0]) abort();
        rebuild(t, fl_pbl_split_capped, &three, false);
    }
    rebuild(t, NULL, NULL, exact);
    (void)fl_pbl_split_check(t, NULL, NULL, defect, sizeof defect);
    (void)fl_pbl_split_check(t, fl_pbl_split_capped, &three, defect, sizeof defect);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char err[512];
    fl_pbl_sst *t = NULL;
    /* its own copy: a reader must never need more than the bytes it is given */
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy) return 0;
    if (size) memcpy(copy, data, size);
    int strict = fl_pbl_sst_open(copy, size, &t, err, sizeof err);
    size_t rows = 0, dels = 0;
    if (strict == FL_OK) {
        if (!t) abort();
        rows = fl_pbl_sst_info(t)->num_rows;
        dels = fl_pbl_sst_info(t)->num_range_dels;
        walk(t);
        fl_pbl_sst_free(t);
    } else if (t != NULL || err[0] == '\0' || strict > 0) {
        abort();                                        /* an error says why, and leaves nothing */
    }
    t = NULL;
    int loose = fl_pbl_sst_open_flags(copy, size, FL_PBL_NO_CHECKSUMS, &t, err, sizeof err);
    if (strict == FL_OK && (loose != FL_OK || fl_pbl_sst_info(t)->num_rows != rows ||
                            fl_pbl_sst_info(t)->num_range_dels != dels))
        abort();
    if (loose == FL_OK) {
        walk(t);
        fl_pbl_sst_free(t);
    } else if (t != NULL || err[0] == '\0' || loose > 0) {
        abort();
    }
    free(copy);
    return 0;
}
