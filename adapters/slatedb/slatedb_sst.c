/*
 * slatedb_sst.c -- SlateDB's SST files read by filterlab itself: the crate
 * slatedb 0.18.0's format, learned from its sources (the layout and
 * formulas are facts of that format; the code is ours).  The adapter checks
 * SlateDB's answers against what this reader finds in its files.
 *
 * Every integer is big-endian unless it is inside a FlatBuffer (those are
 * little-endian).  A "region" is bytes followed by the CRC-32 (siphash.c)
 * of those bytes as a u32.  The file, front to back (format/sst.rs,
 * EncodedSsTableFooterBuilder::build and sst_builder.rs):
 *
 *   data blocks     block i at the index's offset i: a region; the first at
 *                   0, each next where the last ended (plus zero padding to
 *                   the block size when the index's encoded_len is set)
 *   filter block    a region (absent when filter_len is 0): Composite:
 *                     u16 count, then per filter: u16 name length, the name
 *                     (UTF-8), u64 data length, the data;
 *                   Legacy (filter_format 0): the one bloom's data
 *   index block     a region: FlatBuffer SsTableIndex { block_meta:
 *                   [BlockMeta { offset: u64, first_key: [u8] (required),
 *                   encoded_len: u32 }] (required) }
 *   stats block     a region (absent when stats_len is 0): FlatBuffer
 *                   SstStats { num_puts, num_deletes, num_merges,
 *                   raw_key_size, raw_val_size: u64, block_stats:
 *                   [BlockStats { num_puts, num_deletes, num_merges: u16 }] }
 *   info            a region at meta_offset: FlatBuffer SsTableInfo {
 *                   first_entry: [u8], index_offset, index_len,
 *                   filter_offset, filter_len: u64, compression_format: i8
 *                   (0 none, 1 snappy, 2 zlib, 3 lz4, 4 zstd), sst_type: i8
 *                   (0 compacted, 1 WAL), last_entry: [u8], stats_offset,
 *                   stats_len: u64, filter_format: i8 (0 Legacy, 1 Composite)
 *                   } -- its fields in vtable slots 0..10 in that order
 *   footer          u64 meta_offset, u16 format_version (1 or 2)
 *
 * A data block's bytes (before its CRC) end in u16 offsets and their u16
 * count (format/block.rs).  Format version 1: one offset per entry, each
 * entry (format/row.rs, codec V0)
 *     u16 key_prefix_len, u16 key_suffix_len, suffix, u64 seq, u8 flags,
 *     [i64 expire_ts], [i64 create_ts], then unless a tombstone
 *     u32 value_len, value
 * where the key is the block's FIRST key's first key_prefix_len bytes and
 * the suffix.  Format version 2 (format/block_v2.rs, row_codec_v2.rs): the
 * offsets are restart points (every 16th entry, the first at 0), each entry
 *     varint shared, varint unshared, varint value_len (LEB128 u32),
 *     suffix (unshared bytes), value (value_len bytes; none for a
 *     tombstone), u64 seq, u8 flags, [i64 expire_ts], [i64 create_ts]
 * where the key is the PREVIOUS key's first `shared` bytes and the suffix,
 * and shared is 0 at a restart point.  Flags: 1 tombstone, 2 has
 * expire_ts, 4 has create_ts, 8 merge operand; other bits, or tombstone
 * with merge, are refused (as SlateDB's decode_flags does).
 *
 * The FlatBuffers carry no file identifier or size prefix; an absent
 * scalar is its default (filter_format's is Legacy, so a Composite block
 * always stores the field).  The reader checks what the flatbuffers
 * crate's verifier checks (bounds, alignment from the buffer's start,
 * required fields).
 *
 * Checked beyond what SlateDB's reader checks (it trusts its writer; we
 * verify it): the regions tile the file in the order above; blocks tile
 * the data (padding, when the index's encoded_len marks a padded block,
 * all zero); entries tile each block exactly and sit at their offsets (v1)
 * or restart points (v2, every restart point at an entry's start and
 * sharing nothing; the interval of 16 is not stored, so not checked); keys
 * are non-empty and ascend, equal keys by descending seq; a v2 tombstone
 * stores no value; the info's first/last entry are the first and last key;
 * each index key lies in (previous block's last key, the block's first
 * key], or equals both when a key's versions straddle the boundary (what
 * compute_index_key in utils.rs writes; 0.18.0 gives the first block "");
 * the stats' counts and key/value byte totals, and each block's counts
 * (u16), are what the entries show.  Not supported: compression (refused,
 * naming the codec), a block transformer (encrypted blocks just fail to
 * decode: nothing in the file says a transformer was used), WAL SSTs
 * (refused).
 *
 * The bloom (filter.rs) and its hashes are slatedb_bloom.c's.
 */
#include "slatedb_sst_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FOOTER_LEN   10            /* u64 meta_offset, u16 format_version */
#define CRC_LEN      4

#define FLAG_TOMBSTONE  0x01
#define FLAG_EXPIRE_TS  0x02
#define FLAG_CREATE_TS  0x04
#define FLAG_MERGE      0x08
#define FLAGS_KNOWN     0x0f

static const char *const codec_names[] = { "none", "Snappy", "Zlib", "LZ4", "Zstd" };

struct fl_sdb_sst {
    const uint8_t *file;
    size_t len;
    unsigned flags;
    fl_sdb_info info;
    fl_sdb_block *blocks;
    fl_sdb_filter *filters;
    size_t nfilters;
    /* the stats' per-block counts (NULL without them) */
    uint16_t (*block_stats)[3];
};

/* ---- Errors --------------------------------------------------------------- */

/* (fail: slatedb_sst_internal.h) */

/* A key for messages (engine.h). */
static const char *show(const uint8_t *p, size_t n, char out[FL_KEY_TEXT]) { return fl_key_text(p, n, out); }

/* ---- Bytes ---------------------------------------------------------------- */

/* (be16: slatedb_sst_internal.h) */
static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static uint64_t be64(const uint8_t *p) { return (uint64_t)be32(p) << 32 | be32(p + 4); }
static uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t le64(const uint8_t *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }

/* Whether s is UTF-8 as Rust's str::from_utf8 accepts it (no overlongs,
 * no surrogates, nothing past U+10FFFF). */
static bool utf8_ok(const uint8_t *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        size_t more;
        uint32_t min, cp;
        if (c < 0x80) { i++; continue; }
        if (c >= 0xc2 && c <= 0xdf) { more = 1; min = 0x80; cp = c & 0x1f; }
        else if (c >= 0xe0 && c <= 0xef) { more = 2; min = 0x800; cp = c & 0x0f; }
        else if (c >= 0xf0 && c <= 0xf4) { more = 3; min = 0x10000; cp = c & 0x07; }
        else return false;
        if (n - i - 1 < more) return false;
        for (size_t j = 1; j <= more; j++) {
            if ((s[i + j] & 0xc0) != 0x80) return false;
            cp = cp << 6 | (s[i + j] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
        i += more + 1;
    }
    return true;
}

/* ---- Regions (bytes + CRC) -------------------------------------------------- */

/* The bytes of the region [off, off+len) of the file without its CRC, after
 * checking the CRC (unless FL_SDB_NO_CHECKSUMS).  what names it. */
static int region(const fl_sdb_sst *t, uint64_t off, uint64_t len, const char *what,
                  const uint8_t **body, size_t *body_len, char *err, size_t cap) {
    if (off > t->len || len > t->len - off)
        return fail(err, cap, FL_ERR_CORRUPT,
                    "%s at offset %llu, %llu bytes, runs past the file's %zu bytes", what,
                    (unsigned long long)off, (unsigned long long)len, t->len);
    if (len < CRC_LEN)
        return fail(err, cap, FL_ERR_CORRUPT,
                    "%s at offset %llu has %llu bytes, fewer than its 4-byte CRC", what,
                    (unsigned long long)off, (unsigned long long)len);
    const uint8_t *p = t->file + off;
    size_t n = (size_t)len - CRC_LEN;
    uint32_t want = be32(p + n), got = fl_sdb_crc32(p, n);
    if (want != got && !(t->flags & FL_SDB_NO_CHECKSUMS))
        return fail(err, cap, FL_ERR_CORRUPT,
                    "%s at offset %llu (%zu bytes + CRC): CRC-32 is %08x, the stored one %08x",
                    what, (unsigned long long)off, n, got, want);
    *body = p;
    *body_len = n;
    return FL_OK;
}

/* ---- FlatBuffers -------------------------------------------------------------
 * Just what the SST's three tables need, with the checks of the flatbuffers
 * crate's verifier: every read in the buffer and aligned to its size
 * (positions from the buffer's start), the root a u32 offset at 0, a table
 * an i32 offset back to its vtable (u16 vtable length, even; u16 table
 * length; u16 field offsets, 0 = absent), a vector a u32 offset forward to
 * a u32 count and its elements. */

typedef struct fbuf { const uint8_t *b; size_t n; const char *what; } fbuf;
typedef struct ftab { size_t pos, vt, vtlen; } ftab;

static bool fb_in(const fbuf *f, size_t pos, size_t size) {
    return pos <= f->n && size <= f->n - pos && pos % size == 0;
}

static int fb_table(const fbuf *f, size_t pos, ftab *t, char *err, size_t cap) {
    if (!fb_in(f, pos, 4))
        return fail(err, cap, FL_ERR_CORRUPT, "%s: a table at byte %zu is outside its %zu bytes or unaligned",
                    f->what, pos, f->n);
    int32_t so = (int32_t)le32(f->b + pos);
    int64_t vt = (int64_t)pos - (int64_t)so;
    if (vt < 0 || (uint64_t)vt >= f->n || !fb_in(f, (size_t)vt, 2))
        return fail(err, cap, FL_ERR_CORRUPT, "%s: the table at byte %zu points to a vtable at %lld, outside its %zu bytes",
                    f->what, pos, (long long)vt, f->n);
    size_t vtlen = le16(f->b + vt);
    if (vtlen % 2 || vtlen > f->n - (size_t)vt)
        return fail(err, cap, FL_ERR_CORRUPT, "%s: the vtable at byte %lld has length %zu (odd, or past the end)",
                    f->what, (long long)vt, vtlen);
    t->pos = pos;
    t->vt = (size_t)vt;
    t->vtlen = vtlen;
    return FL_OK;
}

/* The position of field slot i of table t, or 0 when absent. */
static size_t fb_field(const fbuf *f, const ftab *t, unsigned i) {
    size_t at = 4 + 2 * (size_t)i;
    if (at + 2 > t->vtlen) return 0;
    uint16_t off = le16(f->b + t->vt + at);
    return off ? t->pos + off : 0;
}

static int fb_scalar(const fbuf *f, const ftab *t, unsigned i, size_t size, uint64_t def,
                     const char *name, uint64_t *out, char *err, size_t cap) {
    size_t p = fb_field(f, t, i);
    if (!p) { *out = def; return FL_OK; }
    if (!fb_in(f, p, size))
        return fail(err, cap, FL_ERR_CORRUPT, "%s: field %s at byte %zu is outside its %zu bytes or unaligned",
                    f->what, name, p, f->n);
    switch (size) {
    case 1: *out = f->b[p]; break;
    case 2: *out = le16(f->b + p); break;
    case 4: *out = le32(f->b + p); break;
    default: *out = le64(f->b + p); break;
    }
    return FL_OK;
}

/* A vector field: *count elements of elem bytes at *at; *present false
 * (and FL_OK) when absent. */
static int fb_vector(const fbuf *f, const ftab *t, unsigned i, size_t elem, const char *name,
                     bool *present, size_t *at, size_t *count, char *err, size_t cap) {
    size_t p = fb_field(f, t, i);
    *present = p != 0;
    *at = *count = 0;
    if (!p) return FL_OK;
    if (!fb_in(f, p, 4))
        return fail(err, cap, FL_ERR_CORRUPT, "%s: field %s at byte %zu is outside its %zu bytes or unaligned",
                    f->what, name, p, f->n);
    uint64_t v = (uint64_t)p + le32(f->b + p);
    if (v > f->n || !fb_in(f, (size_t)v, 4))
        return fail(err, cap, FL_ERR_CORRUPT, "%s: vector %s at byte %llu is outside its %zu bytes or unaligned",
                    f->what, name, (unsigned long long)v, f->n);
    uint64_t c = le32(f->b + v);
    if (c > (f->n - (size_t)v - 4) / elem)
        return fail(err, cap, FL_ERR_CORRUPT, "%s: vector %s at byte %llu has %llu elements of %zu bytes, past its end",
                    f->what, name, (unsigned long long)v, (unsigned long long)c, elem);
    *at = (size_t)v + 4;
    *count = (size_t)c;
    return FL_OK;
}

static int fb_bytes(const fbuf *f, const ftab *t, unsigned i, const char *name, bool *present,
                    fl_slice *out, char *err, size_t cap) {
    size_t at, count;
    int rc = fb_vector(f, t, i, 1, name, present, &at, &count, err, cap);
    if (rc) return rc;
    out->data = *present ? f->b + at : NULL;
    out->len = count;
    return FL_OK;
}

/* Element j of a vector of tables at `at`. */
static int fb_elem_table(const fbuf *f, size_t at, size_t j, ftab *t, char *err, size_t cap) {
    size_t p = at + 4 * j;                              /* fb_vector checked it is in */
    uint64_t pos = (uint64_t)p + le32(f->b + p);
    if (pos > f->n)
        return fail(err, cap, FL_ERR_CORRUPT, "%s: element %zu points to byte %llu, past its %zu bytes",
                    f->what, j, (unsigned long long)pos, f->n);
    return fb_table(f, (size_t)pos, t, err, cap);
}

static int fb_root(const fbuf *f, ftab *t, char *err, size_t cap) {
    if (f->n < 4)
        return fail(err, cap, FL_ERR_CORRUPT, "%s: %zu bytes, too few for a FlatBuffer", f->what, f->n);
    uint64_t pos = le32(f->b);
    if (pos > f->n)
        return fail(err, cap, FL_ERR_CORRUPT, "%s: its root table offset %llu is past its %zu bytes",
                    f->what, (unsigned long long)pos, f->n);
    return fb_table(f, (size_t)pos, t, err, cap);
}

/* ---- The info, index, stats and filter blocks -------------------------------- */

static int parse_info(fl_sdb_sst *t, const uint8_t *b, size_t n, char *err, size_t cap) {
    fbuf f = { b, n, "the info block (SsTableInfo)" };
    ftab tab;
    int rc = fb_root(&f, &tab, err, cap);
    if (rc) return rc;
    fl_sdb_info *in = &t->info;
    uint64_t compression, sst_type, filter_format;
    if ((rc = fb_bytes(&f, &tab, 0, "first_entry", &in->has_first_key, &in->first_key, err, cap)) ||
        (rc = fb_scalar(&f, &tab, 1, 8, 0, "index_offset", &in->index_offset, err, cap)) ||
        (rc = fb_scalar(&f, &tab, 2, 8, 0, "index_len", &in->index_len, err, cap)) ||
        (rc = fb_scalar(&f, &tab, 3, 8, 0, "filter_offset", &in->filter_offset, err, cap)) ||
        (rc = fb_scalar(&f, &tab, 4, 8, 0, "filter_len", &in->filter_len, err, cap)) ||
        (rc = fb_scalar(&f, &tab, 5, 1, 0, "compression_format", &compression, err, cap)) ||
        (rc = fb_scalar(&f, &tab, 6, 1, 0, "sst_type", &sst_type, err, cap)) ||
        (rc = fb_bytes(&f, &tab, 7, "last_entry", &in->has_last_key, &in->last_key, err, cap)) ||
        (rc = fb_scalar(&f, &tab, 8, 8, 0, "stats_offset", &in->stats_offset, err, cap)) ||
        (rc = fb_scalar(&f, &tab, 9, 8, 0, "stats_len", &in->stats_len, err, cap)) ||
        (rc = fb_scalar(&f, &tab, 10, 1, 0, "filter_format", &filter_format, err, cap)))
        return rc;
    if (compression >= 1 && compression <= 4)
        return fail(err, cap, FL_ERR_VERSION,
                    "its blocks are compressed with %s (compression_format %u): this reader "
                    "reads uncompressed SSTs only", codec_names[compression], (unsigned)compression);
    if (compression != 0)
        return fail(err, cap, FL_ERR_CORRUPT, "the info's compression_format %d is no codec SlateDB knows",
                    (int)(int8_t)compression);
    if (sst_type == 1)
        return fail(err, cap, FL_ERR_VERSION, "it is a WAL SST (sst_type 1): this reader reads compacted SSTs only");
    if (sst_type != 0)
        return fail(err, cap, FL_ERR_CORRUPT, "the info's sst_type %d is neither Compacted (0) nor Wal (1)",
                    (int)(int8_t)sst_type);
    if (filter_format > 1)
        return fail(err, cap, FL_ERR_CORRUPT, "the info's filter_format %d is neither Legacy (0) nor Composite (1)",
                    (int)(int8_t)filter_format);
    in->legacy_filter = filter_format == 0;
    return FL_OK;
}

static int parse_index(fl_sdb_sst *t, const uint8_t *b, size_t n, char *err, size_t cap) {
    fbuf f = { b, n, "the index block (SsTableIndex)" };
    ftab tab;
    int rc = fb_root(&f, &tab, err, cap);
    if (rc) return rc;
    bool present;
    size_t at, count;
    if ((rc = fb_vector(&f, &tab, 0, 4, "block_meta", &present, &at, &count, err, cap))) return rc;
    if (!present)
        return fail(err, cap, FL_ERR_CORRUPT, "the index block has no block_meta (a required field)");
    t->blocks = calloc(count ? count : 1, sizeof *t->blocks);
    if (!t->blocks) return fail(err, cap, FL_ERR_NOMEM, "out of memory for %zu blocks", count);
    t->info.num_blocks = count;
    for (size_t i = 0; i < count; i++) {
        ftab m;
        uint64_t enc;
        char what[64];
        snprintf(what, sizeof what, "the index's block_meta %zu", i);
        fbuf fm = { b, n, what };
        if ((rc = fb_elem_table(&f, at, i, &m, err, cap)) ||
            (rc = fb_scalar(&fm, &m, 0, 8, 0, "offset", &t->blocks[i].offset, err, cap)) ||
            (rc = fb_bytes(&fm, &m, 1, "first_key", &present, &t->blocks[i].index_key, err, cap)) ||
            (rc = fb_scalar(&fm, &m, 2, 4, 0, "encoded_len", &enc, err, cap)))
            return rc;
        if (!present)
            return fail(err, cap, FL_ERR_CORRUPT, "block_meta %zu of the index has no first_key (a required field)", i);
        t->blocks[i].encoded_len = (uint32_t)enc;
    }
    return FL_OK;
}

static int parse_stats(fl_sdb_sst *t, const uint8_t *b, size_t n, char *err, size_t cap) {
    fbuf f = { b, n, "the stats block (SstStats)" };
    ftab tab;
    int rc = fb_root(&f, &tab, err, cap);
    if (rc) return rc;
    uint64_t puts, dels, merges;
    bool present;
    size_t at, count;
    if ((rc = fb_scalar(&f, &tab, 0, 8, 0, "num_puts", &puts, err, cap)) ||
        (rc = fb_scalar(&f, &tab, 1, 8, 0, "num_deletes", &dels, err, cap)) ||
        (rc = fb_scalar(&f, &tab, 2, 8, 0, "num_merges", &merges, err, cap)) ||
        (rc = fb_scalar(&f, &tab, 3, 8, 0, "raw_key_size", &t->info.raw_key_size, err, cap)) ||
        (rc = fb_scalar(&f, &tab, 4, 8, 0, "raw_val_size", &t->info.raw_val_size, err, cap)) ||
        (rc = fb_vector(&f, &tab, 5, 4, "block_stats", &present, &at, &count, err, cap)))
        return rc;
    t->info.has_stats = true;
    /* held until the walk compares them with what it counts */
    t->info.num_values = puts;
    t->info.num_tombstones = dels;
    t->info.num_merges = merges;
    if (present) {
        if (count != t->info.num_blocks)
            return fail(err, cap, FL_ERR_CORRUPT, "the stats block has block_stats for %zu blocks; the index has %zu",
                        count, t->info.num_blocks);
        t->block_stats = calloc(count ? count : 1, sizeof *t->block_stats);
        if (!t->block_stats) return fail(err, cap, FL_ERR_NOMEM, "out of memory for %zu block stats", count);
        for (size_t i = 0; i < count; i++) {
            ftab s;
            uint64_t v[3];
            char what[64];
            snprintf(what, sizeof what, "the stats' block_stats %zu", i);
            fbuf fs = { b, n, what };
            if ((rc = fb_elem_table(&f, at, i, &s, err, cap)) ||
                (rc = fb_scalar(&fs, &s, 0, 2, 0, "num_puts", &v[0], err, cap)) ||
                (rc = fb_scalar(&fs, &s, 1, 2, 0, "num_deletes", &v[1], err, cap)) ||
                (rc = fb_scalar(&fs, &s, 2, 2, 0, "num_merges", &v[2], err, cap)))
                return rc;
            for (int j = 0; j < 3; j++) t->block_stats[i][j] = (uint16_t)v[j];
        }
    }
    return FL_OK;
}

static int parse_filters(fl_sdb_sst *t, const uint8_t *b, size_t n, char *err, size_t cap) {
    uint64_t at = t->info.filter_offset;
    if (t->info.legacy_filter) {
        t->filters = calloc(1, sizeof *t->filters);
        if (!t->filters) return fail(err, cap, FL_ERR_NOMEM, "out of memory");
        t->filters[0].name = (fl_slice){ (const uint8_t *)"_bf", 3 };
        t->filters[0].data = (fl_slice){ b, n };
        t->nfilters = 1;
        return FL_OK;
    }
    if (n < 2)
        return fail(err, cap, FL_ERR_CORRUPT, "the composite filter block at offset %llu has %zu bytes, too few for its u16 count",
                    (unsigned long long)at, n);
    size_t count = be16(b), p = 2;
    if (count > (n - 2) / 10)                  /* each takes at least its two lengths */
        return fail(err, cap, FL_ERR_CORRUPT, "the composite filter block at offset %llu claims %zu filters in %zu bytes",
                    (unsigned long long)at, count, n);
    t->filters = calloc(count ? count : 1, sizeof *t->filters);
    if (!t->filters) return fail(err, cap, FL_ERR_NOMEM, "out of memory for %zu filters", count);
    for (size_t i = 0; i < count; i++) {
        if (n - p < 2)
            return fail(err, cap, FL_ERR_CORRUPT, "filter %zu of %zu: its name length at byte %zu of the filter block (offset %llu) is past its %zu bytes",
                        i, count, p, (unsigned long long)at, n);
        size_t name_len = be16(b + p);
        p += 2;
        if (n - p < name_len)
            return fail(err, cap, FL_ERR_CORRUPT, "filter %zu of %zu: its name of %zu bytes at byte %zu of the filter block runs past its %zu bytes",
                        i, count, name_len, p, n);
        if (!utf8_ok(b + p, name_len))
            return fail(err, cap, FL_ERR_CORRUPT, "filter %zu of %zu: its name at byte %zu of the filter block is not UTF-8",
                        i, count, p);
        t->filters[i].name = (fl_slice){ b + p, name_len };
        p += name_len;
        if (n - p < 8)
            return fail(err, cap, FL_ERR_CORRUPT, "filter %zu of %zu: its u64 data length at byte %zu of the filter block is past its %zu bytes",
                        i, count, p, n);
        uint64_t data_len = be64(b + p);
        p += 8;
        if (data_len > n - p)
            return fail(err, cap, FL_ERR_CORRUPT, "filter %zu of %zu: its data of %llu bytes at byte %zu of the filter block runs past its %zu bytes",
                        i, count, (unsigned long long)data_len, p, n);
        t->filters[i].data = (fl_slice){ b + p, (size_t)data_len };
        p += (size_t)data_len;
        t->nfilters = i + 1;
    }
    if (p != n)
        return fail(err, cap, FL_ERR_CORRUPT, "the composite filter block at offset %llu holds %zu filters in %zu bytes and %zu more bytes",
                    (unsigned long long)at, count, p, n - p);
    return FL_OK;
}

/* ---- The data blocks --------------------------------------------------------- */

/* (kbuf, kbuf_fit and copy: slatedb_sst_internal.h) */

typedef struct walk {
    const fl_sdb_sst *t;
    bool checking;                 /* open: record and check what the index and stats say */
    fl_sdb_row_fn fn;
    void *arg;
    kbuf cur, prev, first;         /* this key, the previous one, a v1 block's first */
    bool have_prev;
    uint64_t prev_seq;
    size_t rows;
    uint64_t counts[3], key_bytes, val_bytes;
    char *err;
    size_t cap;
} walk;

/* One decoded entry, key in w->cur; checks order and emits. */
static int emit(walk *w, size_t bi, size_t ei, uint64_t at, uint64_t seq, uint8_t flags,
                int64_t expire, int64_t create, fl_slice value) {
    const fl_sdb_sst *t = w->t;
    char a[200], b[200];
    if (w->cur.len == 0)
        return fail(w->err, w->cap, FL_ERR_CORRUPT, "block %zu (offset %llu), entry %zu at byte %llu of the file: an empty key (SlateDB never stores one)",
                    bi, (unsigned long long)t->blocks[bi].offset, ei, (unsigned long long)at);
    if (w->have_prev) {
        int c = fl_key_cmp(w->cur.data, w->cur.len, w->prev.data, w->prev.len);
        if (c < 0 || (c == 0 && seq >= w->prev_seq))
            return fail(w->err, w->cap, FL_ERR_CORRUPT,
                        "block %zu (offset %llu), entry %zu at byte %llu: key %s seq %llu follows key %s seq %llu "
                        "(expected keys ascending, an equal key's seqs descending)",
                        bi, (unsigned long long)t->blocks[bi].offset, ei, (unsigned long long)at,
                        show(w->cur.data, w->cur.len, a), (unsigned long long)seq,
                        show(w->prev.data, w->prev.len, b), (unsigned long long)w->prev_seq);
    }
    if (w->checking && w->rows == 0) {
        fl_slice f = t->info.first_key;
        if (!t->info.has_first_key || fl_key_cmp(f.data, f.len, w->cur.data, w->cur.len) != 0)
            return fail(w->err, w->cap, FL_ERR_CORRUPT, "the info's first entry is %s; the first key is %s",
                        t->info.has_first_key ? show(f.data, f.len, a) : "absent", show(w->cur.data, w->cur.len, b));
    }
    if (w->checking && ei == 0) {
        /* the index key lies in (previous block's last key, this first key],
         * or equals both when a key's versions straddle the two blocks */
        fl_slice ik = t->blocks[bi].index_key;
        bool ok = fl_key_cmp(ik.data, ik.len, w->cur.data, w->cur.len) <= 0;
        if (ok && bi > 0) {
            int c = fl_key_cmp(w->prev.data, w->prev.len, ik.data, ik.len);
            ok = c < 0 || (c == 0 && fl_key_cmp(ik.data, ik.len, w->cur.data, w->cur.len) == 0);
        }
        if (!ok)
            return fail(w->err, w->cap, FL_ERR_CORRUPT,
                        "block %zu (offset %llu): its index key %s is not in (the previous block's last key %s, its first key %s]",
                        bi, (unsigned long long)t->blocks[bi].offset, show(ik.data, ik.len, a),
                        bi > 0 ? show(w->prev.data, w->prev.len, b) : "(none)",
                        show(w->cur.data, w->cur.len, (char[200]){ 0 }));
    }
    fl_sdb_kind kind = flags & FLAG_TOMBSTONE ? FL_SDB_TOMBSTONE
                     : flags & FLAG_MERGE ? FL_SDB_MERGE : FL_SDB_VALUE;
    w->counts[kind - 1]++;
    w->key_bytes += w->cur.len;
    w->val_bytes += value.len;
    w->rows++;
    if (w->fn) {
        fl_sdb_row row = { { w->cur.data, w->cur.len }, value, seq, kind,
                           (flags & FLAG_CREATE_TS) != 0, (flags & FLAG_EXPIRE_TS) != 0,
                           create, expire, (uint32_t)bi };
        int rc = w->fn(w->arg, &row);
        if (rc) return rc;
    }
    kbuf tmp = w->prev;
    w->prev = w->cur;
    w->cur = tmp;
    w->have_prev = true;
    w->prev_seq = seq;
    return FL_OK;
}

/* seq, flags and the timestamps at [*p, end). */
static int tail(walk *w, size_t bi, size_t ei, const uint8_t **p, const uint8_t *end,
                uint64_t *seq, uint8_t *flags, int64_t *expire, int64_t *create) {
    uint64_t at = (uint64_t)(*p - w->t->file);
    if (end - *p < 9)
        return fail(w->err, w->cap, FL_ERR_CORRUPT, "block %zu, entry %zu: its seq and flags at byte %llu run past the entries' end",
                    bi, ei, (unsigned long long)at);
    *seq = be64(*p);
    *flags = (*p)[8];
    *p += 9;
    if (*flags & ~FLAGS_KNOWN)
        return fail(w->err, w->cap, FL_ERR_CORRUPT, "block %zu, entry %zu at byte %llu: flags 0x%02x have bits SlateDB does not know (0x%02x)",
                    bi, ei, (unsigned long long)at, *flags, *flags & ~FLAGS_KNOWN);
    if ((*flags & FLAG_TOMBSTONE) && (*flags & FLAG_MERGE))
        return fail(w->err, w->cap, FL_ERR_CORRUPT, "block %zu, entry %zu at byte %llu: flags 0x%02x make it both a tombstone and a merge operand",
                    bi, ei, (unsigned long long)at, *flags);
    size_t ts = (*flags & FLAG_EXPIRE_TS ? 8u : 0u) + (*flags & FLAG_CREATE_TS ? 8u : 0u);
    if ((size_t)(end - *p) < ts)
        return fail(w->err, w->cap, FL_ERR_CORRUPT, "block %zu, entry %zu at byte %llu: its timestamps run past the entries' end",
                    bi, ei, (unsigned long long)at);
    *expire = *create = 0;
    if (*flags & FLAG_EXPIRE_TS) { *expire = (int64_t)be64(*p); *p += 8; }
    if (*flags & FLAG_CREATE_TS) { *create = (int64_t)be64(*p); *p += 8; }
    return FL_OK;
}

/* SlateDB's decode_varint: LEB128 into a u32 (at most 5 bytes, no bits past 32). */
static bool varint32(const uint8_t **p, const uint8_t *end, uint32_t *out) {
    uint32_t v = 0;
    for (unsigned i = 0; i < 5; i++) {
        if (*p >= end) return false;
        uint8_t b = *(*p)++;
        if (i == 4 && (b & 0x70)) return false;
        v |= (uint32_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) { *out = v; return true; }
    }
    return false;
}

static int block_v1(walk *w, size_t bi, const uint8_t *d, size_t data_end, const uint8_t *offs,
                    size_t n) {
    const uint8_t *p = d, *end = d + data_end;
    const uint64_t base = (uint64_t)(d - w->t->file);
    for (size_t e = 0; e < n; e++) {
        size_t pos = (size_t)(p - d);
        if (be16(offs + 2 * e) != pos)
            return fail(w->err, w->cap, FL_ERR_CORRUPT, "block %zu (offset %llu, v1): entry %zu's offset is %u, but entry %zu ended at byte %zu of the block",
                        bi, (unsigned long long)w->t->blocks[bi].offset, e, be16(offs + 2 * e), e ? e - 1 : 0, pos);
        if (end - p < 4)
            return fail(w->err, w->cap, FL_ERR_CORRUPT, "block %zu, entry %zu at byte %llu: its key lengths run past the entries' end",
                        bi, e, (unsigned long long)(base + pos));
        size_t prefix = be16(p), suffix = be16(p + 2);
        p += 4;
        if ((size_t)(end - p) < suffix)
            return fail(w->err, w->cap, FL_ERR_CORRUPT, "block %zu, entry %zu at byte %llu: its key suffix of %zu bytes runs past the entries' end",
                        bi, e, (unsigned long long)(base + pos), suffix);
        if (e == 0 && prefix != 0)
            return fail(w->err, w->cap, FL_ERR_CORRUPT, "block %zu (v1): its first entry shares %zu bytes with no key (expected 0)",
                        bi, prefix);
        if (prefix > w->first.len || prefix + suffix > 0xffff)
            return fail(w->err, w->cap, FL_ERR_CORRUPT, "block %zu, entry %zu at byte %llu: it shares %zu bytes of the block's first key of %zu (key of %zu bytes)",
                        bi, e, (unsigned long long)(base + pos), prefix, w->first.len, prefix + suffix);
        if (!kbuf_fit(&w->cur, prefix + suffix) || (e == 0 && !kbuf_fit(&w->first, suffix)))
            return fail(w->err, w->cap, FL_ERR_NOMEM, "out of memory for a key");
        copy(w->cur.data, w->first.data, prefix);
        copy(w->cur.data + prefix, p, suffix);
        w->cur.len = prefix + suffix;
        if (e == 0) {
            copy(w->first.data, p, suffix);
            w->first.len = suffix;
        }
        p += suffix;
        uint64_t seq;
        uint8_t flags;
        int64_t expire, create;
        int rc = tail(w, bi, e, &p, end, &seq, &flags, &expire, &create);
        if (rc) return rc;
        fl_slice value = { p, 0 };
        if (!(flags & FLAG_TOMBSTONE)) {
            if (end - p < 4)
                return fail(w->err, w->cap, FL_ERR_CORRUPT, "block %zu, entry %zu at byte %llu: its value length runs past the entries' end",
                            bi, e, (unsigned long long)(base + pos));
            uint32_t vlen = be32(p);
            p += 4;
            if ((size_t)(end - p) < vlen)
                return fail(w->err, w->cap, FL_ERR_CORRUPT, "block %zu, entry %zu at byte %llu: its value of %u bytes runs past the entries' end",
                            bi, e, (unsigned long long)(base + pos), vlen);
            value = (fl_slice){ p, vlen };
            p += vlen;
        }
        if ((rc = emit(w, bi, e, base + pos, seq, flags, expire, create, value))) return rc;
    }
    if (p != end)
        return fail(w->err, w->cap, FL_ERR_CORRUPT, "block %zu (offset %llu, v1): its %zu entries end at byte %zu, its entry bytes at %zu",
                    bi, (unsigned long long)w->t->blocks[bi].offset, n, (size_t)(p - d), data_end);
    return FL_OK;
}

static int block_v2(walk *w, size_t bi, const uint8_t *d, size_t data_end, const uint8_t *offs,
                    size_t n) {
    const uint8_t *p = d, *end = d + data_end;
    const uint64_t base = (uint64_t)(d - w->t->file);
    size_t ri = 0, e = 0;
    for (size_t i = 0; i < n; i++) {
        size_t r = be16(offs + 2 * i);
        if ((i == 0 && r != 0) || (i > 0 && r <= be16(offs + 2 * (i - 1))) || r >= data_end)
            return fail(w->err, w->cap, FL_ERR_CORRUPT, "block %zu (offset %llu, v2): restart %zu is at byte %zu (expected the first at 0, each after the last, all before byte %zu)",
                        bi, (unsigned long long)w->t->blocks[bi].offset, i, r, data_end);
    }
    for (; p < end; e++) {
        size_t pos = (size_t)(p - d);
        bool restart = ri < n && be16(offs + 2 * ri) == pos;
        if (restart) ri++;
        else if (ri < n && be16(offs + 2 * ri) < pos)
            return fail(w->err, w->cap, FL_ERR_CORRUPT, "block %zu (v2): restart %zu at byte %u is inside an entry (entry %zu starts at %zu)",
                        bi, ri, be16(offs + 2 * ri), e, pos);
        uint32_t shared, unshared, vlen;
        if (!varint32(&p, end, &shared) || !varint32(&p, end, &unshared) || !varint32(&p, end, &vlen))
            return fail(w->err, w->cap, FL_ERR_CORRUPT, "block %zu, entry %zu at byte %llu: a varint length is cut off or over 32 bits",
                        bi, e, (unsigned long long)(base + pos));
        if ((size_t)(end - p) < unshared || (size_t)(end - p) - unshared < vlen)
            return fail(w->err, w->cap, FL_ERR_CORRUPT, "block %zu, entry %zu at byte %llu: its key suffix (%u bytes) and value (%u) run past the entries' end",
                        bi, e, (unsigned long long)(base + pos), unshared, vlen);
        if (restart && shared != 0)
            return fail(w->err, w->cap, FL_ERR_CORRUPT, "block %zu, entry %zu at byte %llu: a restart point sharing %u bytes (expected 0)",
                        bi, e, (unsigned long long)(base + pos), shared);
        if (shared > w->prev.len)
            return fail(w->err, w->cap, FL_ERR_CORRUPT, "block %zu, entry %zu at byte %llu: it shares %u bytes of a previous key of %zu",
                        bi, e, (unsigned long long)(base + pos), shared, w->prev.len);
        if (!kbuf_fit(&w->cur, (size_t)shared + unshared))
            return fail(w->err, w->cap, FL_ERR_NOMEM, "out of memory for a key");
        copy(w->cur.data, w->prev.data, shared);
        copy(w->cur.data + shared, p, unshared);
        w->cur.len = (size_t)shared + unshared;
        p += unshared;
        fl_slice value = { p, vlen };
        p += vlen;
        uint64_t seq;
        uint8_t flags;
        int64_t expire, create;
        int rc = tail(w, bi, e, &p, end, &seq, &flags, &expire, &create);
        if (rc) return rc;
        if ((flags & FLAG_TOMBSTONE) && vlen)
            return fail(w->err, w->cap, FL_ERR_CORRUPT, "block %zu, entry %zu at byte %llu: a tombstone with a value of %u bytes",
                        bi, e, (unsigned long long)(base + pos), vlen);
        if ((rc = emit(w, bi, e, base + pos, seq, flags, expire, create, value))) return rc;
    }
    if (ri != n)
        return fail(w->err, w->cap, FL_ERR_CORRUPT, "block %zu (v2): restart %zu at byte %u is at no entry's start",
                    bi, ri, be16(offs + 2 * ri));
    return FL_OK;
}

/* Walks every data block: the block's region, its trailer, its entries. */
static int walk_blocks(walk *w) {
    fl_sdb_sst *t = (fl_sdb_sst *)w->t;
    for (size_t bi = 0; bi < t->info.num_blocks; bi++) {
        fl_sdb_block *blk = &t->blocks[bi];
        char what[80];
        snprintf(what, sizeof what, "data block %zu", bi);
        const uint8_t *d;
        size_t n;
        int rc = region(t, blk->offset, blk->len, what, &d, &n, w->err, w->cap);
        if (rc) return rc;
        if (n < 2)
            return fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu (offset %llu) has %zu bytes, too few for its u16 offset count",
                        bi, (unsigned long long)blk->offset, n);
        size_t count = be16(d + n - 2);
        if (count == 0 || 2 * count > n - 2 || 2 * count == n - 2)
            return fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu (offset %llu): %zu offsets in %zu bytes (expected at least one, and entries before them)",
                        bi, (unsigned long long)blk->offset, count, n);
        size_t data_end = n - 2 - 2 * count;
        size_t before = w->rows;
        uint64_t c0 = w->counts[0], c1 = w->counts[1], c2 = w->counts[2];
        rc = t->info.format_version == 1 ? block_v1(w, bi, d, data_end, d + data_end, count)
                                         : block_v2(w, bi, d, data_end, d + data_end, count);
        if (rc) return rc;
        if (w->checking) {
            blk->first_row = before;
            blk->rows = w->rows - before;
            if (t->block_stats) {
                uint16_t got[3] = { (uint16_t)(w->counts[0] - c0), (uint16_t)(w->counts[1] - c1),
                                    (uint16_t)(w->counts[2] - c2) };
                if (memcmp(got, t->block_stats[bi], sizeof got) != 0)
                    return fail(w->err, w->cap, FL_ERR_CORRUPT,
                                "data block %zu holds %u values, %u tombstones, %u merge operands; its block_stats say %u, %u, %u",
                                bi, got[0], got[1], got[2], t->block_stats[bi][0], t->block_stats[bi][1],
                                t->block_stats[bi][2]);
            }
        }
    }
    return FL_OK;
}

static void walk_free(walk *w) {
    free(w->cur.data);
    free(w->prev.data);
    free(w->first.data);
}

/* ---- Opening ----------------------------------------------------------------- */

/* The blocks' byte ranges from the index, tiling [0, data_end). */
static int block_ranges(fl_sdb_sst *t, uint64_t data_end, char *err, size_t cap) {
    size_t nb = t->info.num_blocks;
    if (nb == 0 && data_end != 0)
        return fail(err, cap, FL_ERR_CORRUPT, "the index lists no data blocks, but %llu bytes precede the footer's blocks",
                    (unsigned long long)data_end);
    for (size_t i = 0; i < nb; i++) {
        fl_sdb_block *b = &t->blocks[i];
        uint64_t next = i + 1 < nb ? t->blocks[i + 1].offset : data_end;
        if ((i == 0 && b->offset != 0) || b->offset >= next || next > data_end)
            return fail(err, cap, FL_ERR_CORRUPT,
                        "block %zu of the index is at offset %llu and ends at %llu (expected the first at 0, "
                        "each starting where the last ended, all before the data's end at %llu)",
                        i, (unsigned long long)b->offset, (unsigned long long)next, (unsigned long long)data_end);
        b->len = next - b->offset;
        if (b->encoded_len) {
            if (b->encoded_len > b->len)
                return fail(err, cap, FL_ERR_CORRUPT, "block %zu at offset %llu: its encoded_len %u exceeds the %llu bytes before the next",
                            i, (unsigned long long)b->offset, b->encoded_len, (unsigned long long)b->len);
            for (uint64_t j = b->offset + b->encoded_len; j < next; j++)
                if (t->file[j])
                    return fail(err, cap, FL_ERR_CORRUPT, "block %zu at offset %llu: its alignment padding has a nonzero byte at %llu",
                                i, (unsigned long long)b->offset, (unsigned long long)j);
            b->len = b->encoded_len;
        }
    }
    return FL_OK;
}

static int open_sst(fl_sdb_sst *t, char *err, size_t cap) {
    fl_sdb_info *in = &t->info;
    if (t->len <= FOOTER_LEN)
        return fail(err, cap, FL_ERR_CORRUPT, "the file has %zu bytes, too few for the 10-byte footer and anything before it",
                    t->len);
    const uint8_t *foot = t->file + t->len - FOOTER_LEN;
    in->meta_offset = be64(foot);
    in->format_version = be16(foot + 8);
    if (in->format_version != 1 && in->format_version != 2)
        return fail(err, cap, FL_ERR_VERSION, "the footer's format version is %u; SlateDB 0.18.0 writes 1 and 2",
                    in->format_version);
    uint64_t info_end = t->len - FOOTER_LEN;
    if (in->meta_offset >= info_end)
        return fail(err, cap, FL_ERR_CORRUPT, "the footer's meta_offset %llu is not before the footer at %llu",
                    (unsigned long long)in->meta_offset, (unsigned long long)info_end);
    const uint8_t *b;
    size_t n;
    int rc = region(t, in->meta_offset, info_end - in->meta_offset, "the info block", &b, &n, err, cap);
    if (rc) return rc;
    if (n == 0) return fail(err, cap, FL_ERR_CORRUPT, "the info block at offset %llu is empty",
                            (unsigned long long)in->meta_offset);
    if ((rc = parse_info(t, b, n, err, cap))) return rc;

    /* the regions after the data: [filter] index [stats] info, back to back */
    uint64_t data_end = in->filter_len ? in->filter_offset : in->index_offset;
    uint64_t at = data_end;
    struct { const char *name; uint64_t off, len; } regions[] = {
        { "filter block", in->filter_offset, in->filter_len },
        { "index block", in->index_offset, in->index_len },
        { "stats block", in->stats_offset, in->stats_len },
    };
    for (size_t i = 0; i < 3; i++) {
        if (i != 1 && regions[i].len == 0) continue;
        if (regions[i].off != at || at > in->meta_offset || regions[i].len > in->meta_offset - at)
            return fail(err, cap, FL_ERR_CORRUPT,
                        "the info puts the %s at offset %llu, %llu bytes; expected it at %llu, ending by the info at %llu",
                        regions[i].name, (unsigned long long)regions[i].off, (unsigned long long)regions[i].len,
                        (unsigned long long)at, (unsigned long long)in->meta_offset);
        at += regions[i].len;
    }
    if (at != in->meta_offset)
        return fail(err, cap, FL_ERR_CORRUPT, "the blocks before the info end at %llu, the info starts at %llu",
                    (unsigned long long)at, (unsigned long long)in->meta_offset);

    if ((rc = region(t, in->index_offset, in->index_len, "the index block", &b, &n, err, cap)) ||
        (rc = parse_index(t, b, n, err, cap)))
        return rc;
    if (in->stats_len &&
        ((rc = region(t, in->stats_offset, in->stats_len, "the stats block", &b, &n, err, cap)) ||
         (rc = parse_stats(t, b, n, err, cap))))
        return rc;
    if (in->filter_len &&
        ((rc = region(t, in->filter_offset, in->filter_len, "the filter block", &b, &n, err, cap)) ||
         (rc = parse_filters(t, b, n, err, cap))))
        return rc;
    if ((rc = block_ranges(t, data_end, err, cap))) return rc;

    /* every entry, checked; then the totals */
    uint64_t stats[3] = { in->num_values, in->num_tombstones, in->num_merges };
    walk w = { .t = t, .checking = true, .err = err, .cap = cap };
    rc = walk_blocks(&w);
    if (rc) { walk_free(&w); return rc; }
    char a[200], c[200];
    if (w.rows == 0) {
        if (in->has_first_key || in->has_last_key)
            rc = fail(err, cap, FL_ERR_CORRUPT, "the SST holds no entries, but its info has a first or last entry");
    } else if (!in->has_first_key || !in->has_last_key) {
        rc = fail(err, cap, FL_ERR_CORRUPT, "the info lacks a first or last entry for an SST of %zu entries", w.rows);
    } else if (fl_key_cmp(in->last_key.data, in->last_key.len, w.prev.data, w.prev.len) != 0) {
        rc = fail(err, cap, FL_ERR_CORRUPT, "the info's last entry is %s; the last key is %s",
                  show(in->last_key.data, in->last_key.len, a), show(w.prev.data, w.prev.len, c));
    }
    if (!rc && in->has_stats &&
        (stats[0] != w.counts[0] || stats[1] != w.counts[1] || stats[2] != w.counts[2]))
        rc = fail(err, cap, FL_ERR_CORRUPT,
                  "the entries are %llu values, %llu tombstones, %llu merge operands; the stats block says %llu, %llu, %llu",
                  (unsigned long long)w.counts[0], (unsigned long long)w.counts[1], (unsigned long long)w.counts[2],
                  (unsigned long long)stats[0], (unsigned long long)stats[1], (unsigned long long)stats[2]);
    if (!rc && in->has_stats && (in->raw_key_size != w.key_bytes || in->raw_val_size != w.val_bytes))
        rc = fail(err, cap, FL_ERR_CORRUPT,
                  "the entries' keys and values are %llu and %llu bytes; the stats block says %llu and %llu",
                  (unsigned long long)w.key_bytes, (unsigned long long)w.val_bytes,
                  (unsigned long long)in->raw_key_size, (unsigned long long)in->raw_val_size);
    in->num_rows = w.rows;
    in->num_values = w.counts[0];
    in->num_tombstones = w.counts[1];
    in->num_merges = w.counts[2];
    walk_free(&w);
    return rc;
}

int fl_sdb_sst_open_flags(const uint8_t *file, size_t len, unsigned flags, fl_sdb_sst **out,
                          char *err, size_t err_len) {
    if (err && err_len) err[0] = '\0';
    if (!out) return fail(err, err_len, FL_ERR_INVALID, "no place for the result");
    *out = NULL;
    if (!file && len) return fail(err, err_len, FL_ERR_INVALID, "no file bytes");
    fl_sdb_sst *t = calloc(1, sizeof *t);
    if (!t) return fail(err, err_len, FL_ERR_NOMEM, "out of memory");
    t->file = file;
    t->len = len;
    t->flags = flags;
    int rc = open_sst(t, err, err_len);
    if (rc) {
        fl_sdb_sst_free(t);
        return rc;
    }
    free(t->block_stats);
    t->block_stats = NULL;
    *out = t;
    return FL_OK;
}

int fl_sdb_sst_open(const uint8_t *file, size_t len, fl_sdb_sst **out, char *err, size_t err_len) {
    return fl_sdb_sst_open_flags(file, len, 0, out, err, err_len);
}

void fl_sdb_sst_free(fl_sdb_sst *t) {
    if (!t) return;
    free(t->blocks);
    free(t->filters);
    free(t->block_stats);
    free(t);
}

const fl_sdb_info *fl_sdb_sst_info(const fl_sdb_sst *t) { return &t->info; }

const fl_sdb_block *fl_sdb_sst_block(const fl_sdb_sst *t, size_t i) {
    return i < t->info.num_blocks ? &t->blocks[i] : NULL;
}

size_t fl_sdb_sst_filter_count(const fl_sdb_sst *t) { return t->nfilters; }

const fl_sdb_filter *fl_sdb_sst_filter(const fl_sdb_sst *t, size_t i) {
    return i < t->nfilters ? &t->filters[i] : NULL;
}

/* ---- Entries ------------------------------------------------------------------ */

int fl_sdb_sst_rows(const fl_sdb_sst *t, fl_sdb_row_fn fn, void *arg, char *err, size_t err_len) {
    if (err && err_len) err[0] = '\0';
    if (!t || !fn) return fail(err, err_len, FL_ERR_INVALID, "no SST or no callback");
    walk w = { .t = t, .fn = fn, .arg = arg, .err = err, .cap = err_len };
    int rc = walk_blocks(&w);
    walk_free(&w);
    return rc;
}

typedef struct as_entries { fl_entry_fn fn; void *arg; char *err; size_t cap; } as_entries;

static int to_entry(void *arg, const fl_sdb_row *row) {
    as_entries *a = arg;
    if (row->kind == FL_SDB_MERGE) {
        char k[200];
        return fail(a->err, a->cap, FL_ERR_INVALID,
                    "block %u: key %s seq %llu is a merge operand, which an fl_row_entry cannot express "
                    "(fl_sdb_sst_rows reports it)", row->block, show(row->key.data, row->key.len, k),
                    (unsigned long long)row->seq);
    }
    fl_row_entry e = { row->key, row->value, row->seq,
                       row->kind == FL_SDB_TOMBSTONE ? FL_ENTRY_DELETE : FL_ENTRY_PUT };
    return a->fn(a->arg, &e);
}

int fl_sdb_sst_entries(const fl_sdb_sst *t, fl_entry_fn fn, void *arg, char *err, size_t err_len) {
    if (!fn) return fail(err, err_len, FL_ERR_INVALID, "no callback");
    as_entries a = { fn, arg, err, err_len };
    return fl_sdb_sst_rows(t, to_entry, &a, err, err_len);
}
