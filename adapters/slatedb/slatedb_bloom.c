/*
 * slatedb_bloom.c -- SlateDB's bloom filter (filter.rs of the crate
 * slatedb 0.18.0), bit-exact: its policy's name taken apart, decoding,
 * probing and building a bloom, its exact expected FP rate, the hashes
 * SlateDB's builder adds for an SST's entries, and a bloom checked against
 * its rebuild.  The SST it belongs to is read by slatedb_sst.c.
 *
 * The bloom (filter.rs).  Data: u16 num_probes k, then the bit array of
 * m = 8 * bytes bits, bit i in byte i/8 at bit i%8.  Hash: SipHash-1-3,
 * key (0, 0), of the key (or of its prefix, for an extractor's entry).
 * Probes (probes_for_key): h = (hash mod 2^32) mod m, delta = (hash >>
 * 32) mod m, then for i = 0..k-1: delta = (delta + i) mod m, probe h,
 * h = (h + delta) mod m.  A key may be present when every probed bit is
 * set; zero bits answer no.  Build: k = (f32)bits_per_key * 0.69f
 * truncated; the hashes of every entry, in order (a key once per version,
 * a prefix once per run of equal prefixes); bytes = ceil(n * bpk / 8)
 * (u32 arithmetic); each hash sets its k probes.
 */
#include "slatedb_sst_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- The bloom ------------------------------------------------------------------ */

bool fl_sdb_bloom_name_parse(fl_slice name, bool *whole_key, fl_slice *extractor) {
    static const char wh0[] = ":wh=0", pe[] = ":p=";
    const char *s = (const char *)name.data;
    size_t n = name.len;
    if (n < 3 || memcmp(s, "_bf", 3) != 0) return false;
    bool whole = true;
    if (n >= 3 + 5 && memcmp(s + n - 5, wh0, 5) == 0) {
        whole = false;
        n -= 5;
    }
    fl_slice ex = { name.data + 3, 0 };
    if (n > 3) {
        if (n < 3 + 3 || memcmp(s + 3, pe, 3) != 0) return false;
        ex = (fl_slice){ name.data + 6, n - 6 };
    }
    if (whole_key) *whole_key = whole;
    if (extractor) *extractor = ex;
    return true;
}

int fl_sdb_bloom_decode(fl_slice data, fl_sdb_bloom *out, char *err, size_t err_len) {
    memset(out, 0, sizeof *out);
    if (data.len < 2)
        return fail(err, err_len, FL_ERR_CORRUPT, "a bloom of %zu bytes has no room for its u16 probe count",
                    data.len);
    size_t bytes = data.len - 2;
    if (bytes > UINT32_MAX / 8)
        return fail(err, err_len, FL_ERR_CORRUPT, "a bloom of %zu bytes has more bits than SlateDB's u32 bit count holds",
                    bytes);
    out->k = be16(data.data);
    out->nbits = (uint32_t)(bytes * 8);
    out->bits = data.data + 2;
    return FL_OK;
}

bool fl_sdb_bloom_might_contain_hash(const fl_sdb_bloom *b, uint64_t hash) {
    if (b->nbits == 0) return false;
    uint64_t m = b->nbits;
    uint64_t h = (hash & 0xffffffffu) % m, delta = (hash >> 32) % m;
    for (uint32_t i = 0; i < b->k; i++) {
        delta = (delta + i) % m;
        if (!(b->bits[h >> 3] & (1u << (h & 7)))) return false;
        h = (h + delta) % m;
    }
    return true;
}

bool fl_sdb_bloom_might_contain(const fl_sdb_bloom *b, fl_slice bytes) {
    return fl_sdb_bloom_might_contain_hash(b, fl_sdb_hash(bytes));
}

bool fl_sdb_bloom_might_match(const fl_sdb_bloom *b, bool whole_key, fl_sdb_prefix_fn prefix_len,
                              void *arg, const fl_target *target) {
    if (target->kind == FL_TARGET_POINT && whole_key) return fl_sdb_bloom_might_contain(b, target->bytes);
    size_t n;
    if (!prefix_len || !prefix_len(arg, target, &n) || n > target->bytes.len) return true;
    return fl_sdb_bloom_might_contain(b, (fl_slice){ target->bytes.data, n });
}

uint16_t fl_sdb_bloom_num_probes(uint32_t bits_per_key) {
    volatile float f = (float)bits_per_key;      /* f32 arithmetic, no excess precision */
    f = f * 0.69f;
    float g = f;
    return g >= 65535.0f ? 65535 : (uint16_t)g;   /* Rust's `as u16` saturates */
}

int fl_sdb_bloom_build(uint32_t bits_per_key, const uint64_t *hashes, size_t n, fl_buf *out) {
    if (!out || (n && !hashes)) return FL_ERR_INVALID;
    uint16_t k = fl_sdb_bloom_num_probes(bits_per_key);
    uint32_t bits = (uint32_t)n * bits_per_key;          /* u32, as `num_keys * bits_per_key` */
    uint64_t bytes = ((uint64_t)bits + 7) / 8;
    uint64_t nbits = bytes * 8;
    if (nbits > UINT32_MAX) return FL_ERR_INVALID;        /* (bytes * 8) as u32 == 0: a panic */
    uint8_t *buf = calloc(bytes ? (size_t)bytes : 1, 1);
    if (!buf) return FL_ERR_NOMEM;
    for (size_t i = 0; i < n && nbits; i++) {
        uint64_t m = nbits, h = (hashes[i] & 0xffffffffu) % m, delta = (hashes[i] >> 32) % m;
        for (uint32_t j = 0; j < k; j++) {
            delta = (delta + j) % m;
            buf[h >> 3] |= (uint8_t)(1u << (h & 7));
            h = (h + delta) % m;
        }
    }
    uint8_t hdr[2] = { (uint8_t)(k >> 8), (uint8_t)k };
    int rc = fl_buf_append(out, hdr, 2);
    if (rc == FL_OK && bytes) rc = fl_buf_append(out, buf, (size_t)bytes);
    free(buf);
    return rc;
}

/* ---- The expected false-positive rate -------------------------------------------
 *
 * What is exact here.  An absent item's hash X is taken as uniform over all
 * 2^64 values (SipHash's output).  Its low and high halves L = X mod 2^32
 * and H = X >> 32 are then independent and uniform over [0, 2^32), and the
 * probe walk starts from h = L mod m with step delta = H mod m.  Writing
 * 2^32 = Q m + R (0 <= R < m), a residue r is hit by Q + 1 values of a half
 * when r < R and by Q otherwise: P(h = r) = w(r) / 2^32 with w(r) = Q +
 * [r < R], and the same for delta, independently.  So the two residues are
 * NOT uniform unless m divides 2^32, and only m^2 probe patterns exist.
 *
 * Each pattern is a translate: the walk adds the same deltas whatever h it
 * starts from, so probe j is (h + c_j(d)) mod m, where c_j(d) is probe j of
 * the walk from 0 with delta d -- in closed form j d + C(j+1, 3) mod m
 * (0, d, 2d + 1, 3d + 4, 4d + 10, ...).  The probes need not be distinct:
 * d = 0 probes h twice (c_0 = c_1 = 0), and other d repeat positions too,
 * so the k probes are neither independent nor distinct and the textbook
 * (set bits / m)^k is only an approximation.  Exactly:
 *
 *   FP = sum_{d<m} w(d)/2^32 * sum_{h<m} w(h)/2^32 * AND_{j<k} B[(h + c_j(d)) mod m]
 *
 * For each d the inner sum is a weighted count of the positions h where
 * the AND of B rotated by each distinct c_j(d) is set: 64 positions per
 * word operation (B repeated past its end, so a rotation is a 64-bit read
 * at any bit), weight Q for every set position plus 1 for each below R.
 * The whole sum is an integer of at most 2^64, accumulated in 128 bits and
 * divided by 2^64 once: the result's only rounding is that division's.
 * Cost: m * ceil(m/64) * (distinct offsets) word operations at most (an AND
 * that reaches zero stops early), plus sorting the k offsets of each d. */

__extension__ typedef unsigned __int128 u128;

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

double fl_sdb_bloom_expected_fp(const fl_sdb_bloom *b) {
    if (b->nbits == 0) return 0.0;            /* no bits: never matches */
    if (b->k == 0) return 1.0;                /* no probes: always matches */
    const uint64_t m = b->nbits;
    const uint64_t Q = ((uint64_t)1 << 32) / m, R = ((uint64_t)1 << 32) % m;
    const size_t words = (size_t)((m + 63) / 64);
    const size_t ewords = (size_t)((m + 127) / 64) + 1;
    uint64_t *E = calloc(ewords, sizeof *E);
    uint32_t *off = malloc((size_t)b->k * sizeof *off);
    if (!E || !off) {
        free(E);
        free(off);
        return -1.0;                          /* out of memory: the header's -1 */
    }
    /* E bit i = B[i mod m] for i < m + 64 */
    for (uint64_t i = 0, j = 0; i < m + 64; i++, j = j + 1 == m ? 0 : j + 1)
        if (b->bits[j >> 3] & (1u << (j & 7))) E[i >> 6] |= (uint64_t)1 << (i & 63);
    u128 total = 0;
    for (uint64_t d = 0; d < m; d++) {
        uint64_t cur = 0, delta = d;
        for (uint32_t j = 0; j < b->k; j++) {       /* the walk from 0 */
            delta = (delta + j) % m;
            off[j] = (uint32_t)cur;
            cur = (cur + delta) % m;
        }
        qsort(off, b->k, sizeof *off, cmp_u32);
        size_t u = 1;
        for (size_t j = 1; j < b->k; j++)
            if (off[j] != off[u - 1]) off[u++] = off[j];
        uint64_t all = 0, low = 0;
        for (size_t w = 0; w < words; w++) {
            uint64_t h0 = (uint64_t)w * 64;
            uint64_t acc = m - h0 >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << (m - h0)) - 1;
            for (size_t j = 0; j < u && acc; j++) {
                uint64_t s = h0 + off[j];
                if (s >= m) s -= m;
                size_t sw = (size_t)(s >> 6);
                unsigned so = (unsigned)(s & 63);
                acc &= so ? (E[sw] >> so) | (E[sw + 1] << (64 - so)) : E[sw];
            }
            if (!acc) continue;
            all += (uint64_t)__builtin_popcountll(acc);
            if (h0 < R) {
                uint64_t below = R - h0 >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << (R - h0)) - 1;
                low += (uint64_t)__builtin_popcountll(acc & below);
            }
        }
        total += (u128)(Q * all + low) * (Q + (d < R));
    }
    free(E);
    free(off);
    return (double)(uint64_t)(total >> 64) + ldexp((double)(uint64_t)total, -64);
}

/* ---- The hashes a bloom is built from ------------------------------------------- */

typedef struct hashes_walk {
    bool whole_key;
    fl_sdb_prefix_fn prefix_len;
    void *arg;
    uint64_t *out;
    size_t n, cap;
    kbuf last;                    /* the last prefix hashed */
    bool has_last;
    char *err;
    size_t err_cap;
} hashes_walk;

static int push_hash(hashes_walk *h, uint64_t v) {
    if (h->n == h->cap) {
        size_t c = h->cap ? h->cap * 2 : 64;
        uint64_t *p = realloc(h->out, c * sizeof *p);
        if (!p) return fail(h->err, h->err_cap, FL_ERR_NOMEM, "out of memory for %zu hashes", c);
        h->out = p;
        h->cap = c;
    }
    h->out[h->n++] = v;
    return FL_OK;
}

static int hash_row(void *arg, const fl_sdb_row *row) {
    hashes_walk *h = arg;
    int rc;
    size_t len;
    fl_target point = { FL_TARGET_POINT, row->key };
    if (h->prefix_len && h->prefix_len(h->arg, &point, &len)) {
        if (len > row->key.len)
            return fail(h->err, h->err_cap, FL_ERR_INVALID, "the prefix extractor gave %zu bytes for a key of %zu",
                        len, row->key.len);
        if (!h->has_last || h->last.len != len || (len && memcmp(h->last.data, row->key.data, len) != 0)) {
            if ((rc = push_hash(h, fl_sdb_hash((fl_slice){ row->key.data, len })))) return rc;
            if (!kbuf_fit(&h->last, len ? len : 1))
                return fail(h->err, h->err_cap, FL_ERR_NOMEM, "out of memory for a prefix");
            copy(h->last.data, row->key.data, len);
            h->last.len = len;
            h->has_last = true;
        }
    }
    if (h->whole_key && (rc = push_hash(h, fl_sdb_hash(row->key)))) return rc;
    return FL_OK;
}

int fl_sdb_bloom_key_hashes(const fl_sdb_sst *t, bool whole_key, fl_sdb_prefix_fn prefix_len,
                            void *arg, uint64_t **out, size_t *n, char *err, size_t err_len) {
    *out = NULL;
    *n = 0;
    hashes_walk h = { .whole_key = whole_key, .prefix_len = prefix_len, .arg = arg, .err = err,
                      .err_cap = err_len };
    int rc = fl_sdb_sst_rows(t, hash_row, &h, err, err_len);
    free(h.last.data);
    if (rc) {
        free(h.out);
        return rc;
    }
    *out = h.out;
    *n = h.n;
    return FL_OK;
}

/* ---- P5: a bloom against its rebuild --------------------------------------------- */

int fl_sdb_bloom_check(const fl_sdb_sst *t, const fl_sdb_filter *sub, fl_sdb_prefix_fn prefix_len, void *arg,
                       int bits, char *defect, size_t defect_len) {
    if (defect_len) defect[0] = 0;
    bool whole;
    fl_slice exname;
    if (!fl_sdb_bloom_name_parse(sub->name, &whole, &exname)) return FL_ERR_INVALID;
    const int nl = (int)sub->name.len;
    const char *name = (const char *)sub->name.data;
    fl_sdb_bloom b;
    char why[200];
    if (fl_sdb_bloom_decode(sub->data, &b, why, sizeof why) != FL_OK) {
        snprintf(defect, defect_len, "sub-filter \"%.*s\" is not a SlateDB bloom: %s", nl, name, why);
        return FL_OK;
    }
    uint64_t *hashes = NULL;
    size_t nh = 0;
    int rc = fl_sdb_bloom_key_hashes(t, whole, prefix_len, arg, &hashes, &nh, defect, defect_len);
    if (rc != FL_OK) return rc;
    bool judged = false, same = false;
    fl_buf built;
    fl_buf_init(&built);
    uint32_t lo = bits >= 1 ? (uint32_t)bits : 1, hi = bits >= 1 ? (uint32_t)bits : 4096;
    for (uint32_t bpk = lo; nh && bpk <= hi && !same && rc == FL_OK; bpk++) {
        uint64_t bytes = ((uint64_t)((uint32_t)nh * bpk) + 7) / 8;    /* u32 as SlateDB's */
        if (bytes * 8 != b.nbits || fl_sdb_bloom_num_probes(bpk) != b.k) continue;
        fl_buf_reset(&built);
        if ((rc = fl_sdb_bloom_build(bpk, hashes, nh, &built)) == FL_ERR_INVALID) { rc = FL_OK; continue; }
        judged = true;
        same = rc == FL_OK && built.len == sub->data.len && memcmp(built.data, sub->data.data, built.len) == 0;
    }
    const size_t rows = fl_sdb_sst_info(t)->num_rows;
    if (rc == FL_OK && !nh && b.nbits)
        snprintf(defect, defect_len, "sub-filter \"%.*s\" has %u bits, but SlateDB's builder adds no hash for "
                 "this SST's %zu entries", nl, name, b.nbits, rows);
    else if (rc == FL_OK && judged && !same) {
        size_t extra = 0, missing = 0;
        for (size_t i = 2; i < built.len; i++) {
            extra += (size_t)__builtin_popcount(sub->data.data[i] & ~built.data[i] & 0xffu);
            missing += (size_t)__builtin_popcount(built.data[i] & ~sub->data.data[i] & 0xffu);
        }
        snprintf(defect, defect_len, "sub-filter \"%.*s\": its %u bits (%u probes) differ from SlateDB's bloom "
                 "rebuilt over the %zu hashes of this SST's %zu entries: %zu set that the rebuild leaves "
                 "clear, %zu clear that it sets (each a false negative for the keys that probe it)",
                 nl, name, b.nbits, b.k, nh, rows, extra, missing);
    } else if (rc == FL_OK && nh && !judged && bits >= 1)
        snprintf(defect, defect_len, "sub-filter \"%.*s\" has %u bits and %u probes, but SlateDB's builder at the "
                 "configured %d bits per key gives %llu bits and %u probes for the %zu hashes it adds for this "
                 "SST's %zu entries", nl, name, b.nbits, b.k, bits,
                 (unsigned long long)(((uint64_t)((uint32_t)nh * (uint32_t)bits) + 7) / 8 * 8),
                 fl_sdb_bloom_num_probes((uint32_t)bits), nh, rows);
    else if (rc == FL_OK && nh && !judged && b.nbits / nh < 4096)
        snprintf(defect, defect_len, "sub-filter \"%.*s\" has %u bits and %u probes, which no whole bits per key "
                 "gives for the %zu hashes SlateDB's builder adds for this SST's %zu entries",
                 nl, name, b.nbits, b.k, nh, rows);
    fl_buf_free(&built);
    free(hashes);
    return rc;
}
