/*
 * rocksdb_sst.c -- the filter of a RocksDB block-based SST, read from its
 * file (RocksDB 7.8's formats; the formats are facts of its file layout,
 * the code is ours): for P9 and reports on the RocksDB engine, which has
 * no probe trace.
 *
 * The way to a filter:
 *   footer     the last 53 bytes (format_version >= 1): checksum type (1),
 *              the metaindex handle and the index handle (varint64 offset
 *              and size each), zero padding to 41 bytes, format_version
 *              (u32 LE), magic 0x88e241b785f4cff7 (u64 LE); a legacy
 *              footer (format 0) is the two handles padded to 40, magic
 *              0xdb4775248b80fb57
 *   metaindex  a block at its handle (entries: varint32 shared, varint32
 *              non-shared, varint32 value length, key delta, value; then
 *              u32 restart offsets and their u32 count, whose top bit is
 *              an index-type flag), keyed by name: "fullfilter.NAME" is a
 *              full filter's handle, "partitionedfilter.NAME" a
 *              partitioned one's, "filter.NAME" a block-based one's
 *   filter     the bytes at the handle (never compressed), its metadata
 *              in the last 5:
 *                -1, 0, k, 0, 0          cache-local bloom (format 5):
 *                                        64-byte lines, k probes in one
 *                -2, seed, blocks (u24)  Standard128 ribbon
 *                k, lines (u32)          legacy bloom (format < 5)
 *              shorter than 5 bytes: a filter of no keys
 *
 * What the rates mean.  A cache-local bloom: given the bits, an item it
 * never hashed picks a line uniformly and its k probes in that line are
 * (nearly) independent, so its chance of passing is the mean over lines of
 * (bits set / 512)^k -- fl_bloom_lines_expected_fp, as for filterlab's.
 * A ribbon with B blocks of 128 slots and S = 16 * blocks-worth of bytes
 * has `upper` = ceil(S / B) result columns in blocks from `split` = upper
 * * B - S on, one fewer below; an absent item's result is 2^-columns
 * likely to match, columns those of the block its start slot (uniform in
 * [0, 128 B - 127)) falls in.  A legacy bloom's probes step through its
 * line by a hash-chosen stride, so they are not independent (a stride of 0
 * probes one bit k times): its rate is the exact sum over the 32-bit
 * hash's values that fl_bloom_legacy_expected_fp makes (engine.h; Pebble's
 * table bloom is the same filter).  Partitioned and block-based filters
 * are marked OTHER and not judged.
 */
#include "rocksdb_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC_BLOCK_BASED     0x88e241b785f4cff7ull
#define MAGIC_LEGACY          0xdb4775248b80fb57ull
#define FOOTER_NEW            53
#define FOOTER_LEGACY         48
#define METADATA_LEN          5
#define LINE_BYTES            64
#define RIBBON_SLOTS          128        /* coefficient bits: slots per block */
#define MAX_SST_BYTES         (1ull << 32)

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }

/* A varint of at most max_bytes at [*p, end); false when cut or too long. */
static bool varint(const uint8_t **p, const uint8_t *end, unsigned max_bytes, uint64_t *out) {
    uint64_t v = 0;
    for (unsigned i = 0; i < max_bytes && *p < end; i++) {
        uint8_t b = *(*p)++;
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            *out = v;
            return true;
        }
    }
    return false;
}

typedef struct handle { uint64_t offset, size; } handle;

static bool read_handle(const uint8_t **p, const uint8_t *end, handle *h) {
    return varint(p, end, 10, &h->offset) && varint(p, end, 10, &h->size);
}

static bool handle_in(const handle *h, size_t len) {
    return h->offset <= len && h->size <= len - h->offset;
}

static int bad(char *err, size_t cap, const char *fmt, const char *detail) {
    snprintf(err, cap, fmt, detail);
    return FL_ERR_CORRUPT;
}

/* ---- Probes (the ghosts of P9) ------------------------------------------------- */

/* RocksDB's cache-local bloom (FastLocalBloomImpl): the line from the low
 * 32 bits by multiply-shift, the probes from the high 32, each the top 9
 * bits, the next by a golden-ratio multiply. */
static bool bloom_probe(const fl_sst_filter *f, uint64_t h) {
    uint32_t line = (uint32_t)(((uint64_t)(uint32_t)h * f->lines) >> 32);
    const uint8_t *p = f->data + (size_t)line * LINE_BYTES;
    uint32_t h2 = (uint32_t)(h >> 32);
    for (uint32_t i = 0; i < f->k; i++) {
        uint32_t bit = h2 >> 23;
        if (!(p[bit >> 3] & (1u << (bit & 7)))) return false;
        h2 *= 0x9e3779b9u;
    }
    return true;
}

/* RocksDB's legacy bloom (LegacyBloomImpl, format < 5): its probes of the
 * low 32 bits of h as the key's 32-bit hash. */
static bool legacy_probe(const fl_sst_filter *f, uint64_t h) {
    return fl_bloom_legacy_probe(f->data, f->lines, LINE_BYTES * 8, f->k, (uint32_t)h);
}

/* A ribbon: the block the start slot falls in sets the columns c; the
 * item matches with chance 2^-c, drawn from h's other bits. */
static bool ribbon_probe(const fl_sst_filter *f, uint64_t h) {
    uint64_t starts = (uint64_t)f->lines * RIBBON_SLOTS - RIBBON_SLOTS + 1;
    uint64_t start = ((uint64_t)(uint32_t)h * starts) >> 32;      /* starts < 2^31 */
    uint32_t cols = f->k - (start / RIBBON_SLOTS < f->split);
    uint32_t draw = (uint32_t)(h >> 32);
    return cols >= 32 ? draw == 0 : (draw & ((1u << cols) - 1)) == 0;
}

/* ---- The filter block ----------------------------------------------------------- */

static void filter_of(const uint8_t *b, size_t n, fl_sst_filter *f) {
    f->bytes = n;
    if (n < METADATA_LEN) {                /* a filter of no keys: says no */
        f->kind = FL_SSTF_BLOOM;
        f->expected = 0;
        f->lines = 0;
        snprintf(f->what, sizeof f->what, "empty");
        return;
    }
    const uint8_t *m = b + n - METADATA_LEN;
    size_t body = n - METADATA_LEN;
    if (m[0] == 0xff && m[1] == 0 && (m[2] >> 5) == 0 && body % LINE_BYTES == 0 && m[2] > 0) {
        f->kind = FL_SSTF_BLOOM;
        f->k = m[2] & 31;
        f->lines = (uint32_t)(body / LINE_BYTES);
        f->data = b;
        f->expected = f->lines ? fl_bloom_lines_expected_fp(b, f->lines, f->k) : 1.0;
        f->probe_hash = f->lines ? bloom_probe : NULL;
        snprintf(f->what, sizeof f->what, "bloom (format 5, k=%u, %u lines)", f->k, f->lines);
        return;
    }
    if (m[0] == 0xfe) {
        uint32_t blocks = (uint32_t)m[2] | (uint32_t)m[3] << 8 | (uint32_t)m[4] << 16;
        uint64_t segments = body / (RIBBON_SLOTS / 8);
        if (blocks >= 2 && body % (RIBBON_SLOTS / 8) == 0 && segments >= blocks) {
            uint64_t upper = (segments + blocks - 1) / blocks;
            f->kind = FL_SSTF_RIBBON;
            f->lines = blocks;
            f->k = (uint32_t)upper;
            f->split = (uint32_t)(upper * blocks - segments);
            double starts = (double)blocks * RIBBON_SLOTS - RIBBON_SLOTS + 1;
            double lower = (double)f->split * RIBBON_SLOTS / starts;
            if (lower > 1) lower = 1;
            f->expected = lower * ldexp(1.0, -(int)(upper - 1)) + (1 - lower) * ldexp(1.0, -(int)upper);
            f->probe_hash = ribbon_probe;
            snprintf(f->what, sizeof f->what, "ribbon (%u blocks, %u columns from block %u)", blocks,
                     f->k, f->split);
            return;
        }
    }
    /* legacy: k (1-30), then the line count; 64-byte lines */
    uint32_t nlines = (uint32_t)m[1] | (uint32_t)m[2] << 8 | (uint32_t)m[3] << 16 | (uint32_t)m[4] << 24;
    if (m[0] >= 1 && m[0] <= 30 && nlines && body == (size_t)nlines * LINE_BYTES) {
        f->kind = FL_SSTF_BLOOM;
        f->k = m[0];
        f->lines = nlines;
        f->data = b;
        f->expected = fl_bloom_legacy_expected_fp(b, nlines, LINE_BYTES * 8, f->k);
        f->probe_hash = legacy_probe;
        snprintf(f->what, sizeof f->what, "legacy bloom (format < 5, k=%u, %u lines)", f->k, nlines);
        if (f->expected >= 0) return;
    }
    f->kind = FL_SSTF_OTHER;
    if (m[0] == 0xff || m[0] == 0xfe)
        snprintf(f->what, sizeof f->what, "unknown filter format (marker %d, %u)", (int8_t)m[0], m[1]);
    else
        snprintf(f->what, sizeof f->what, "legacy bloom (format < 5, k=%u)", m[0]);
}

/* ---- The table ------------------------------------------------------------------ */

int fl_rdb_sst_filter_parse(const uint8_t *file, size_t len, fl_sst_filter *out, char *err,
                            size_t err_len) {
    memset(out, 0, sizeof *out);
    handle meta;
    const uint8_t *p, *end;
    if (len >= FOOTER_NEW && le64(file + len - 8) == MAGIC_BLOCK_BASED) {
        p = file + len - FOOTER_NEW + 1;      /* after the checksum type */
        end = file + len - 12;
    } else if (len >= FOOTER_LEGACY && le64(file + len - 8) == MAGIC_LEGACY) {
        p = file + len - FOOTER_LEGACY;
        end = file + len - 8;
    } else {
        return bad(err, err_len, "%s", "not a RocksDB block-based table (no magic number at its end)");
    }
    if (!read_handle(&p, end, &meta) || !handle_in(&meta, len) || meta.size < 4)
        return bad(err, err_len, "%s", "its footer's metaindex handle is out of the file");
    const uint8_t *b = file + meta.offset;
    uint32_t restarts = le32(b + meta.size - 4) & 0x7fffffffu;
    if ((uint64_t)restarts * 4 + 4 > meta.size)
        return bad(err, err_len, "%s", "its metaindex block is malformed (restart count)");
    const uint8_t *q = b, *qend = b + meta.size - 4 - (size_t)restarts * 4;
    char key[256];
    size_t key_len = 0;
    snprintf(out->what, sizeof out->what, "none");
    while (q < qend) {
        uint64_t shared, unshared, vlen;
        if (!varint(&q, qend, 5, &shared) || !varint(&q, qend, 5, &unshared) ||
            !varint(&q, qend, 5, &vlen) || shared > key_len || unshared > (uint64_t)(qend - q) ||
            shared + unshared >= sizeof key || vlen > (uint64_t)(qend - q) - unshared)
            return bad(err, err_len, "%s", "its metaindex block is malformed (an entry)");
        memcpy(key + shared, q, (size_t)unshared);
        key_len = (size_t)(shared + unshared);
        key[key_len] = '\0';
        q += unshared;
        const uint8_t *v = q, *vend = q + vlen;
        q = vend;
        handle h;
        bool full = strncmp(key, "fullfilter.", 11) == 0;
        bool partitioned = strncmp(key, "partitionedfilter.", 18) == 0;
        bool block_based = strncmp(key, "filter.", 7) == 0;
        if (!full && !partitioned && !block_based) continue;
        if (!read_handle(&v, vend, &h) || !handle_in(&h, len))
            return bad(err, err_len, "its filter handle (%s) is out of the file", key);
        if (full) {
            filter_of(file + h.offset, (size_t)h.size, out);
        } else {
            out->kind = FL_SSTF_OTHER;
            out->bytes = h.size;       /* (the partitions' index: the partitions are more) */
            snprintf(out->what, sizeof out->what, "%s", partitioned ? "partitioned" : "block-based");
        }
        return FL_OK;
    }
    return FL_OK;                          /* no filter */
}

int fl_rdb_sst_filter_read(const char *path, fl_sst_filter *out, uint8_t **owned, char *err,
                           size_t err_len) {
    *owned = NULL;
    memset(out, 0, sizeof *out);
    fl_buf file;
    fl_buf_init(&file);
    int rc = FL_OK, e = fl_env_read_file(fl_env_posix(), path, &file);    /* (an errno) */
    if (e) {
        snprintf(err, err_len, "%s: %s", path, strerror(e));
        rc = FL_ERR_IO;
    } else if (file.len > MAX_SST_BYTES) {
        snprintf(err, err_len, "%s: over 4 GiB", path);
        rc = FL_ERR_IO;
    }
    if (rc == FL_OK) {
        char why[200];
        rc = fl_rdb_sst_filter_parse(file.data, file.len, out, why, sizeof why);
        if (rc != FL_OK) snprintf(err, err_len, "%s: %s", path, why);
    }
    if (rc == FL_OK && out->data && out->lines) {
        /* keep only the lines */
        size_t n = (size_t)out->lines * LINE_BYTES;
        uint8_t *lines = malloc(n);
        if (!lines) {
            rc = FL_ERR_NOMEM;
        } else {
            memcpy(lines, out->data, n);
            out->data = *owned = lines;
        }
    }
    if (rc != FL_OK) memset(out, 0, sizeof *out);
    fl_buf_free(&file);
    return rc;
}
