/*
 * pebble_bloom.c -- Pebble's table bloom filter (pebble/bloom/bloom.go of
 * Pebble v2.1.7) and its filter hash, bit-exact: decoding and probing a
 * filter, building one from a table's hashes, those hashes as Pebble's
 * writer adds them, a filter checked against its rebuild, and its exact
 * FP rate.  The table it belongs to is read by pebble_sst.c.
 */
#include "pebble_sst_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- The bloom ---------------------------------------------------------------------
 *
 * bloom.go.  Hash: h = 0xbc9f1d34 ^ (len * 0xc6a4a793); each 4 bytes (LE
 * u32 w): h += w, h *= m, h ^= h >> 16; then the 1-3 tail bytes each as
 * a SIGNED byte sign-extended to 32 bits: h += b2 << 16, h += b1 << 8, h
 * += b0, h *= m, h ^= h >> 24.  Filter: the lines, then k (u8) and lines
 * (u32 LE).  MayContain: len <= 5 is false; line_bits = 8 * ((len - 5) /
 * lines); delta = rotr(h, 17); b = (h mod lines) * line_bits; for each
 * of the k probes: bit b + h mod line_bits must be set (bit i = byte i/8,
 * bit i%8), h += delta.  Writer: AddKey skips a hash equal to the last
 * one added; Finish: lines = ceil(hashes * bpk / 512), made odd (+1 when
 * even), 0 when no hashes; k = calculateProbes(bpk); 64 bytes per line.
 */

uint32_t fl_pbl_hash(const uint8_t *p, size_t n) {
    const uint32_t m = 0xc6a4a793u;
    uint32_t h = 0xbc9f1d34u ^ (uint32_t)((uint32_t)n * m);
    for (; n >= 4; p += 4, n -= 4) {
        h += le32(p);
        h *= m;
        h ^= h >> 16;
    }
    switch (n) {
    case 3: h += (uint32_t)(int32_t)(int8_t)p[2] << 16; /* fall through */
    case 2: h += (uint32_t)(int32_t)(int8_t)p[1] << 8;  /* fall through */
    case 1:
        h += (uint32_t)(int32_t)(int8_t)p[0];
        h *= m;
        h ^= h >> 24;
        break;
    default: break;
    }
    return h;
}

bool fl_pbl_bloom_decode(fl_slice filter, fl_pbl_bloom *out) {
    if (filter.len <= 5) return false;
    size_t n = filter.len - 5;
    uint32_t lines = le32(filter.data + n + 1);
    if (lines == 0 || (uint64_t)n > UINT32_MAX || n / lines == 0) return false;
    out->bits = filter.data;
    out->lines = lines;
    out->line_bits = 8u * (uint32_t)(n / lines);
    out->k = filter.data[n];
    out->bytes = n;
    return true;
}

bool fl_pbl_bloom_may_contain_hash(fl_slice filter, uint32_t h) {
    fl_pbl_bloom b;
    return fl_pbl_bloom_decode(filter, &b) && fl_bloom_legacy_probe(b.bits, b.lines, b.line_bits, b.k, h);
}

bool fl_pbl_bloom_may_contain(fl_slice filter, fl_slice key) {
    return fl_pbl_bloom_may_contain_hash(filter, fl_pbl_hash(key.data, key.len));
}

unsigned fl_pbl_bloom_probes(int bits_per_key) {
    uint32_t n = (uint32_t)((double)bits_per_key * 0.69);
    if (bits_per_key < 0) n = 0;     /* (Go's uint32 of a negative float is implementation-defined) */
    if (n < 1) n = 1;
    if (n > 30) n = 30;
    return n;
}

int fl_pbl_bloom_build(int bits_per_key, const uint32_t *hashes, size_t n, fl_buf *out) {
    if (bits_per_key < 0 || (n && !hashes)) return FL_ERR_INVALID;
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || hashes[i] != hashes[i - 1]) distinct++;
    uint64_t lines = 0;
    if (distinct) {
        if (distinct > UINT64_MAX / 4096) return FL_ERR_INVALID;
        lines = ((uint64_t)distinct * (uint64_t)bits_per_key + 511) / 512;
        if (lines % 2 == 0) lines++;
    }
    if (lines > UINT32_MAX || lines * 64 > SIZE_MAX / 2) return FL_ERR_INVALID;
    size_t bytes = (size_t)lines * 64, at = out->len;
    uint8_t *zero = calloc(bytes + 5, 1);
    if (!zero) return FL_ERR_NOMEM;
    int rc = fl_buf_append(out, zero, bytes + 5);
    free(zero);
    if (rc != FL_OK) return rc;
    uint8_t *f = out->data + at;
    if (lines) {
        unsigned k = fl_pbl_bloom_probes(bits_per_key);
        for (size_t i = 0; i < n; i++) {
            if (i && hashes[i] == hashes[i - 1]) continue;
            uint32_t h = hashes[i], delta = h >> 17 | h << 15;
            uint32_t base = (uint32_t)((h % (uint32_t)lines) * 512u);
            for (unsigned j = 0; j < k; j++) {
                uint32_t pos = base + h % 512u;
                f[pos / 8] |= (uint8_t)(1u << (pos % 8));
                h += delta;
            }
        }
        f[bytes] = (uint8_t)k;
        f[bytes + 1] = (uint8_t)lines; f[bytes + 2] = (uint8_t)(lines >> 8);
        f[bytes + 3] = (uint8_t)(lines >> 16); f[bytes + 4] = (uint8_t)(lines >> 24);
    }
    return FL_OK;
}

size_t fl_pbl_split_capped(void *arg, fl_slice key) {
    size_t n = *(const size_t *)arg;
    return key.len < n ? key.len : n;
}

typedef struct hashes_walk { fl_pbl_split_fn split; void *arg; uint32_t *v; size_t n, cap; } hashes_walk;

static int hash_row(void *arg, const fl_pbl_row *row) {
    hashes_walk *h = arg;
    size_t pl = h->split ? h->split(h->arg, row->key) : row->key.len;
    if (pl > row->key.len) pl = row->key.len;
    if (h->n == h->cap) {
        size_t c = h->cap ? h->cap * 2 : 64;
        uint32_t *v = realloc(h->v, c * sizeof *v);
        if (!v) return FL_ERR_NOMEM;
        h->v = v;
        h->cap = c;
    }
    h->v[h->n++] = fl_pbl_hash(row->key.data, pl);
    return 0;
}

int fl_pbl_filter_hashes(const fl_pbl_sst *t, fl_pbl_split_fn split, void *arg, uint32_t **out, size_t *n,
                         char *err, size_t err_len) {
    hashes_walk h = { split, arg, NULL, 0, 0 };
    int rc = fl_pbl_sst_rows(t, hash_row, &h, err, err_len);
    if (rc == FL_ERR_NOMEM) fail(err, err_len, rc, "out of memory");
    if (rc != FL_OK) { free(h.v); return rc; }
    *out = h.v;
    *n = h.n;
    return FL_OK;
}

int fl_pbl_bloom_check(const fl_pbl_sst *t, fl_pbl_split_fn split, void *arg, int bits, char *defect_out,
                       size_t defect_len) {
    if (defect_len) defect_out[0] = 0;
    const fl_pbl_info *in = fl_pbl_sst_info(t);
    if (!in->has_filter) return FL_OK;
    uint32_t *hashes = NULL;
    size_t nh = 0;
    int rc = fl_pbl_filter_hashes(t, split, arg, &hashes, &nh, defect_out, defect_len);
    if (rc != FL_OK) return rc;
    fl_slice f = in->filter;
    if (nh == 0) {
        if (f.len) snprintf(defect_out, defect_len, "the filter has %zu bytes, but the table has no point key: Pebble writes "
                            "an empty filter block then", f.len);
        free(hashes);
        return FL_OK;
    }
    size_t distinct = 0;
    for (size_t i = 0; i < nh; i++) distinct += i == 0 || hashes[i] != hashes[i - 1];
    if (f.len < 5) {
        snprintf(defect_out, defect_len, "the filter has %zu bytes, fewer than its 5-byte trailer", f.len);
        free(hashes);
        return FL_OK;
    }
    uint32_t lines = le32(f.data + f.len - 4);
    unsigned k = f.data[f.len - 5];
    int bpk_found = -1;
    for (int bpk = bits >= 0 ? bits : 0; bpk <= (bits >= 0 ? bits : 4096) && bpk_found < 0; bpk++) {
        uint64_t l = ((uint64_t)distinct * (uint64_t)bpk + 511) / 512;
        if (l % 2 == 0) l++;
        if (l == lines && fl_pbl_bloom_probes(bpk) == k && (uint64_t)l * 64 + 5 == f.len) bpk_found = bpk;
    }
    if (bpk_found < 0 && bits >= 0) {
        uint64_t l = ((uint64_t)distinct * (uint64_t)bits + 511) / 512;
        if (l % 2 == 0) l++;
        snprintf(defect_out, defect_len, "the filter (%zu bytes, %u lines, %u probes) is not what Pebble writes for the "
                 "%zu distinct hashes of this table's %zu points at the configured %d bits per key (%llu lines, %u "
                 "probes)", f.len, lines, k, distinct, nh, bits, (unsigned long long)l, fl_pbl_bloom_probes(bits));
        free(hashes);
        return FL_OK;
    }
    if (bpk_found < 0) {
        snprintf(defect_out, defect_len, "the filter (%zu bytes, %u lines, %u probes) is not what Pebble writes for the "
                 "%zu distinct hashes of this table's %zu points at any bits per key 0..4096", f.len, lines, k, distinct, nh);
        free(hashes);
        return FL_OK;
    }
    fl_buf built;
    fl_buf_init(&built);
    rc = fl_pbl_bloom_build(bpk_found, hashes, nh, &built);
    if (rc == FL_OK && (built.len != f.len || memcmp(built.data, f.data, f.len) != 0)) {
        size_t extra = 0, missing = 0;
        for (size_t i = 0; i + 5 < f.len && i < built.len; i++) {
            extra += (size_t)__builtin_popcount(f.data[i] & ~built.data[i] & 0xffu);
            missing += (size_t)__builtin_popcount(built.data[i] & ~f.data[i] & 0xffu);
        }
        snprintf(defect_out, defect_len, "the filter's %u lines (%u probes) differ from Pebble's bloom rebuilt at %d bits "
                 "per key over the %zu hashes of this table's %zu points: %zu bits set that the rebuild leaves clear, %zu "
                 "clear that it sets (each a false negative for the keys that probe it)", lines, k, bpk_found, distinct,
                 nh, extra, missing);
    }
    fl_buf_free(&built);
    free(hashes);
    return rc;
}

double fl_pbl_bloom_expected_fp(fl_slice filter) {
    fl_pbl_bloom b;
    if (!fl_pbl_bloom_decode(filter, &b)) return 0.0;   /* MayContain answers no */
    return fl_bloom_legacy_expected_fp(b.bits, b.lines, b.line_bits, b.k);
}
