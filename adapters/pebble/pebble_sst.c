/*
 * pebble_sst.c -- Pebble's SST files read by filterlab itself: the module
 * github.com/cockroachdb/pebble/v2 v2.1.7's TableFormatPebblev4 (row
 * blocks), learned from its sources (the layout and formulas are facts of
 * that format; the code is ours).  The adapter checks Pebble's answers
 * against what this reader finds in its files.
 *
 * Integers are little-endian; "varint" is LEB128 (Go's binary.Uvarint).
 * The file, front to back (sstable/table.go, the format comment; written
 * by sstable/rowblk_writer.go RawRowWriter.Close and layout.go):
 *
 *   data blocks       each a block (below)
 *   filter            "fullfilter.rocksdb.BuiltinBloomFilter": the bloom's
 *                     bytes (empty when no point key was added:
 *                     sstable/filter.go finish)
 *   index             one index block, or (properties' index type 2) the
 *                     partitions then the top-level block
 *   range deletions   "rocksdb.range_del2" (when there are any)
 *   [range keys]      "pebble.range_key" (refused: FL_ERR_VERSION)
 *   value blocks      the values moved out of data blocks, then their index
 *                     "pebble.value_index" (sstable/valblk)
 *   properties        "rocksdb.properties"
 *   metaindex         name -> handle of the meta blocks above, names sorted
 *   footer            53 bytes: checksum type (u8: 1 = CRC32C), metaindex
 *                     and index handles (varint offset, varint length),
 *                     zero padding to byte 41, version (u32: 4), magic
 *                     f0 9f aa b3 f0 9f aa b3
 *
 * A block is its bytes then a 5-byte trailer: compression (u8, 0 = none;
 * 1 Snappy, 2 Zlib, 3 Bzip2, 4 LZ4, 5 LZ4HC, 6 Xpress, 7 Zstd, 8 MinLZ),
 * then the masked CRC32C (LevelDB's mask: rotate right 15, add
 * 0xa282ead8; internal/crc/crc.go) of the bytes AND the compression byte
 * (sstable/block/block.go ValidateChecksum: b[:Length+1]).  A handle's
 * length excludes the trailer.
 *
 * A row block (sstable/rowblk/rowblk_writer.go): entries, then u32 restart
 * offsets and their u32 count (at least one: an empty block stores one
 * restart, 0).  An entry: varint32 shared, varint32 unshared, varint32
 * value length, the unshared key bytes, the value; its key is the previous
 * entry's first `shared` bytes and the unshared ones; an entry at a
 * restart point shares nothing.  Data blocks restart every 16th entry
 * (the interval is not stored, so not checked) and use the restart's top
 * bit as a flag (below); index, metaindex and range-deletion blocks
 * restart at every entry; the properties block only at its first.
 *
 * Keys of data, index and range-deletion blocks are internal keys: the
 * user key, then the trailer u64 = seq << 8 | kind.  Kinds: 0 DEL, 1 SET,
 * 2 MERGE, 7 SINGLEDEL, 15 RANGEDEL, 18 SETWITHDEL, 23 DELSIZED
 * (internal/base/internal.go).  Order: user key ascending, then trailer
 * descending (no two equal).
 *
 * Data blocks, Pebblev3+ (sstable/rowblk_writer.go addPoint,
 * makeAddPointDecisionV3; sstable/block/kv.go; sstable/valblk/valblk.go):
 *   - a SET's value begins with a prefix byte: bits 7-6 the value kind
 *     (00 in place, 10 a value-block handle, 01 a blob handle -- Pebblev6+,
 *     refused), bit 5 "same prefix": the SET before it (in the table,
 *     across blocks) is a SET with the same Split prefix, bits 2-0 a
 *     short attribute (handles only).  Only SETs have the byte.  The writer
 *     moves a SET's value to a value block exactly when its same-prefix
 *     bit is set and the value is not empty; the value is then the handle
 *     varint32 length, varint32 block number, varint32 offset in block.
 *   - a key shares at most the previous key's Split prefix with it
 *     (maxSharedKeyLen), never bytes of the trailer.
 *   - a data block's restart offset's bit 31 is set when every SET from
 *     the previous restart point (exclusive) to this one (inclusive) had
 *     the same-prefix bit; the first restart's is clear.
 * Pebblev4 (rowblk.TrailerObsoleteBit): the kind byte's bit 6 (64) marks
 * the point obsolete within the table; it is set at least when the point
 * before it has the same user key and was obsolete or not a MERGE (C1, C2
 * of makeAddPointDecisionV3) -- and also for deletes written to the
 * lowest level, or when the compaction says so, which the file cannot
 * show.  Each data block's handle in the index carries block properties
 * (id u8, varint length > 0, bytes; ids ascending, empty ones omitted):
 * the "obsolete-key" collector's is "t" when every point of the block is
 * obsolete; the top level's handles carry the same for their partitions;
 * the user property "obsolete-key" is its id byte then "t" or "".
 *
 * The index: per data block its separator (an internal key >= the
 * block's last key and < the next block's first; for the last block a
 * successor of its last key) and its handle with properties.  Two-level:
 * per partition the partition's last separator and its handle.
 *
 * The range-deletion block: key start with kind 15, value the end; start
 * < end; fragmented: starts ascending, equal starts have equal ends (seqs
 * descending), else the previous end <= this start.
 *
 * Value blocks: their bytes are the values back to back; the value index
 * (its handle in the metaindex is the handle then three u8 widths) is one
 * row per block: block number, offset and length, little-endian in those
 * widths.  Values are appended in table order, a block ending when full.
 *
 * The properties block: name -> value, names ascending, counts as varints
 * (the index type a u32).  Checked against the entries: num.entries
 * (points + range dels), deleted.keys (deletes of all kinds + range dels),
 * num.range-deletions, merge.operands, deletions.sized, raw key size
 * (user keys + 8 each, points and range dels), raw value size (values as
 * given to the writer + range-del ends), point-tombstone key size,
 * num.data.blocks, data.size, filter.size, index.type, index.partitions,
 * value blocks, values in value blocks and their size, the filter
 * policy's name and the filter block's name.
 *
 * The bloom (pebble/bloom/bloom.go) and Pebble's filter hash are
 * pebble_bloom.c's.
 */
#include "pebble_sst_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FOOTER_LEN   53
#define TRAILER_LEN  5
#define VERSION_PEBBLEV4 4
#define OBSOLETE_BIT 0x40u
#define PFX_KIND     0xc0u
#define PFX_INPLACE  0x00u
#define PFX_HANDLE   0x80u
#define PFX_BLOB     0x40u
#define PFX_SAME     0x20u
#define RESTART_FLAG 0x80000000u

static const uint8_t pebble_magic[8] = { 0xf0, 0x9f, 0xaa, 0xb3, 0xf0, 0x9f, 0xaa, 0xb3 };
static const uint8_t rocksdb_magic[8] = { 0xf7, 0xcf, 0xf4, 0x85, 0xb7, 0x41, 0xe2, 0x88 };
static const uint8_t leveldb_magic[8] = { 0x57, 0xfb, 0x80, 0x8b, 0x24, 0x75, 0x47, 0xdb };
static const char *const codec_names[] = { "none", "Snappy", "Zlib", "Bzip2", "LZ4", "LZ4HC",
                                           "Xpress", "Zstd", "MinLZ" };

typedef struct region { uint64_t off, len; const char *what; } region;   /* len with trailer */

struct fl_pbl_sst {
    const uint8_t *file;
    size_t len;
    unsigned flags;
    fl_pbl_info info;
    fl_pbl_block *blocks;
    uint8_t *seps;                  /* the separators' bytes, rebuilt     */
    fl_slice range_del_block, value_index;
    uint8_t vi_widths[3];
    fl_slice *value_blocks;
    size_t nvalue_blocks;
    uint8_t *own;                   /* the key range's copied bounds      */
};

/* ---- Errors and bytes ------------------------------------------------------ */

/* (fail and le32: pebble_sst_internal.h) */

static const char *show(const uint8_t *p, size_t n, char out[FL_KEY_TEXT]) { return fl_key_text(p, n, out); }

static uint64_t le64(const uint8_t *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }

/* Go's binary.Uvarint into 64 bits (at most 10 bytes, no overflow). */
static bool uvarint(const uint8_t **p, const uint8_t *end, uint64_t *out) {
    uint64_t v = 0;
    for (unsigned i = 0; i < 10 && *p < end; i++) {
        uint8_t b = *(*p)++;
        if (i == 9 && b > 1) return false;
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) { *out = v; return true; }
    }
    return false;
}

/* A varint32 as the row block decoder reads it: at most 5 bytes, value < 2^32. */
static bool uvarint32(const uint8_t **p, const uint8_t *end, uint32_t *out) {
    uint64_t v;
    const uint8_t *q = *p;
    if (!uvarint(&q, end, &v) || v > UINT32_MAX || q - *p > 5) return false;
    *p = q;
    *out = (uint32_t)v;
    return true;
}

const char *fl_pbl_kind_name(unsigned kind) {
    switch (kind) {
    case FL_PBL_DEL: return "del";
    case FL_PBL_SET: return "set";
    case FL_PBL_MERGE: return "merge";
    case FL_PBL_SINGLEDEL: return "singledel";
    case FL_PBL_RANGEDEL: return "rangedel";
    case FL_PBL_SETWITHDEL: return "setwithdel";
    case FL_PBL_DELSIZED: return "delsized";
    default: return "?";
    }
}

static bool point_kind(unsigned k) {
    return k == FL_PBL_DEL || k == FL_PBL_SET || k == FL_PBL_MERGE || k == FL_PBL_SINGLEDEL ||
           k == FL_PBL_SETWITHDEL || k == FL_PBL_DELSIZED;
}

/* ---- CRC32C ------------------------------------------------------------------ */

static const uint32_t crc_nibble[16] = {
    0x00000000u, 0x105ec76fu, 0x20bd8edeu, 0x30e349b1u, 0x417b1dbcu, 0x5125dad3u, 0x61c69362u, 0x7198540du,
    0x82f63b78u, 0x92a8fc17u, 0xa24bb5a6u, 0xb21572c9u, 0xc38d26c4u, 0xd3d3e1abu, 0xe330a81au, 0xf36e6f75u,
};

uint32_t fl_pbl_crc32c(uint32_t crc, const uint8_t *p, size_t n) {
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        crc = (crc >> 4) ^ crc_nibble[crc & 15];
        crc = (crc >> 4) ^ crc_nibble[crc & 15];
    }
    return ~crc;
}

uint32_t fl_pbl_crc_mask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }

/* ---- Blocks ------------------------------------------------------------------- */

/* The bytes of the block at handle (off, len) after checking its trailer. */
static int block_at(const fl_pbl_sst *t, uint64_t off, uint64_t len, const char *what, fl_slice *body,
                    char *err, size_t cap) {
    if (off > t->len || len > t->len - off || t->len - off - len < TRAILER_LEN)
        return fail(err, cap, FL_ERR_CORRUPT, "the %s block at offset %llu, %llu bytes and its 5-byte trailer, runs past "
                    "the file's %zu bytes", what, (unsigned long long)off, (unsigned long long)len, t->len);
    const uint8_t *p = t->file + off;
    uint8_t codec = p[len];
    if (codec != 0)
        return fail(err, cap, codec < 9 ? FL_ERR_VERSION : FL_ERR_CORRUPT,
                    "the %s block at offset %llu is compressed with %s (byte %llu: %u): this reader reads uncompressed tables only",
                    what, (unsigned long long)off, codec < 9 ? codec_names[codec] : "an unknown codec",
                    (unsigned long long)(off + len), codec);
    uint32_t want = le32(p + len + 1), got = fl_pbl_crc_mask(fl_pbl_crc32c(0, p, (size_t)len + 1));
    if (want != got && !(t->flags & FL_PBL_NO_CHECKSUMS))
        return fail(err, cap, FL_ERR_CORRUPT, "the %s block at offset %llu (%llu bytes): its masked CRC32C is %08x, "
                    "the trailer's (byte %llu) %08x", what, (unsigned long long)off, (unsigned long long)len, got,
                    (unsigned long long)(off + len + 1), want);
    body->data = p;
    body->len = (size_t)len;
    return FL_OK;
}

static bool read_handle(const uint8_t **p, const uint8_t *end, uint64_t *off, uint64_t *len) {
    return uvarint(p, end, off) && uvarint(p, end, len);
}

/* ---- Row blocks ------------------------------------------------------------------ */

typedef struct kbuf { uint8_t *p; size_t len, cap; } kbuf;

static bool kbuf_fit(kbuf *k, size_t n) {
    if (n <= k->cap && k->p) return true;
    size_t c = k->cap ? k->cap : 64;
    while (c < n) c *= 2;
    uint8_t *p = realloc(k->p, c);
    if (!p) return false;
    k->p = p;
    k->cap = c;
    return true;
}

static bool kbuf_set(kbuf *k, const uint8_t *p, size_t n) {
    if (!kbuf_fit(k, n ? n : 1)) return false;
    if (n) memcpy(k->p, p, n);
    k->len = n;
    return true;
}

typedef enum rb_restarts { RB_EVERY, RB_FIRST_ONLY, RB_DATA } rb_restarts;

/* An iterator over a row block's entries, checking them as it goes. */
typedef struct rb {
    const fl_pbl_sst *t;
    const char *what;
    size_t which;                   /* the block's number, for messages */
    const uint8_t *d;               /* the block's bytes */
    size_t end;                     /* where the entries end (the restarts begin) */
    const uint8_t *restarts;
    uint32_t nrestarts, ri;         /* restarts; the next one expected */
    rb_restarts kind;
    size_t pos, index;              /* next entry's offset; entries so far */
    kbuf key;
    uint32_t shared;
    bool at_restart;
    uint32_t restart_flag;          /* the restart's bit 31 when at_restart (RB_DATA) */
    size_t entry_off;               /* this entry's offset in the block */
    fl_slice value;
    char *err;
    size_t cap;
} rb;

static uint64_t rb_at(const rb *r, size_t off) { return (uint64_t)(r->d - r->t->file) + off; }

static int rb_init(rb *r, const fl_pbl_sst *t, fl_slice body, const char *what, size_t which, rb_restarts kind,
                   char *err, size_t cap) {
    memset(r, 0, sizeof *r);
    r->t = t; r->what = what; r->which = which; r->d = body.data; r->kind = kind; r->err = err; r->cap = cap;
    uint64_t at = (uint64_t)(body.data - t->file);
    if (body.len < 4)
        return fail(err, cap, FL_ERR_CORRUPT, "the %s block %zu at offset %llu has %zu bytes, fewer than its restart count's 4",
                    what, which, (unsigned long long)at, body.len);
    r->nrestarts = le32(body.data + body.len - 4);
    if (r->nrestarts == 0 || r->nrestarts > (body.len - 4) / 4)
        return fail(err, cap, FL_ERR_CORRUPT, "the %s block %zu at offset %llu: %u restart points do not fit its %zu bytes "
                    "(expected 1 to %zu)", what, which, (unsigned long long)at, r->nrestarts, body.len,
                    (body.len - 4) / 4);
    r->end = body.len - 4 - 4 * (size_t)r->nrestarts;
    r->restarts = body.data + r->end;
    if (kind == RB_FIRST_ONLY && r->nrestarts != 1)
        return fail(err, cap, FL_ERR_CORRUPT, "the %s block at offset %llu has %u restart points; Pebble writes it with one",
                    what, (unsigned long long)at, r->nrestarts);
    if (r->end == 0 && (r->nrestarts != 1 || le32(r->restarts) != 0))
        return fail(err, cap, FL_ERR_CORRUPT, "the %s block %zu at offset %llu has no entries but restart points other than "
                    "the one 0", what, which, (unsigned long long)at);
    if (!kbuf_fit(&r->key, 64)) return fail(err, cap, FL_ERR_NOMEM, "out of memory");
    return FL_OK;
}

static void rb_free(rb *r) { free(r->key.p); r->key.p = NULL; }

static uint32_t rb_restart(const rb *r, uint32_t i) {
    uint32_t v = le32(r->restarts + 4 * (size_t)i);
    return r->kind == RB_DATA ? v & ~RESTART_FLAG : v;
}

/* The next entry: 1, 0 at the end, or an error. */
static int rb_next(rb *r) {
    const char *w = r->what;
    if (r->pos == r->end) {
        if (r->end != 0 && r->ri != r->nrestarts)
            return fail(r->err, r->cap, FL_ERR_CORRUPT, "the %s block %zu at offset %llu: restart point %u (offset %u) is not "
                        "at an entry", w, r->which, (unsigned long long)rb_at(r, 0), r->ri, rb_restart(r, r->ri));
        return 0;
    }
    const uint8_t *p = r->d + r->pos, *end = r->d + r->end;
    uint32_t shared, unshared, vlen;
    r->entry_off = r->pos;
    if (!uvarint32(&p, end, &shared) || !uvarint32(&p, end, &unshared) || !uvarint32(&p, end, &vlen))
        return fail(r->err, r->cap, FL_ERR_CORRUPT, "the %s block %zu, entry %zu at byte %llu: its lengths (three varint32s) "
                    "are cut or too long", w, r->which, r->index, (unsigned long long)rb_at(r, r->pos));
    if ((size_t)(end - p) < (uint64_t)unshared + vlen)
        return fail(r->err, r->cap, FL_ERR_CORRUPT, "the %s block %zu, entry %zu at byte %llu: %u key and %u value bytes run "
                    "past the entries' end (byte %llu)", w, r->which, r->index, (unsigned long long)rb_at(r, r->pos),
                    unshared, vlen, (unsigned long long)rb_at(r, r->end));
    if (shared > r->key.len)
        return fail(r->err, r->cap, FL_ERR_CORRUPT, "the %s block %zu, entry %zu at byte %llu shares %u bytes with a "
                    "previous key of %zu", w, r->which, r->index, (unsigned long long)rb_at(r, r->pos), shared, r->key.len);
    r->at_restart = r->ri < r->nrestarts && rb_restart(r, r->ri) == r->pos;
    if (r->ri < r->nrestarts && rb_restart(r, r->ri) < r->pos)
        return fail(r->err, r->cap, FL_ERR_CORRUPT, "the %s block %zu at offset %llu: restart point %u (offset %u) is not at "
                    "an entry (or the offsets do not ascend)", w, r->which, (unsigned long long)rb_at(r, 0), r->ri,
                    rb_restart(r, r->ri));
    bool must = r->kind == RB_EVERY || (r->index == 0);
    if (must && !r->at_restart)
        return fail(r->err, r->cap, FL_ERR_CORRUPT, "the %s block %zu, entry %zu at byte %llu is not a restart point; "
                    "expected %s", w, r->which, r->index, (unsigned long long)rb_at(r, r->pos),
                    r->kind == RB_EVERY ? "every entry to be one" : "the first entry to be one");
    if (r->at_restart) {
        if (r->kind == RB_FIRST_ONLY && r->index > 0)
            return fail(r->err, r->cap, FL_ERR_CORRUPT, "the %s block has a second restart point", w);
        if (shared != 0)
            return fail(r->err, r->cap, FL_ERR_CORRUPT, "the %s block %zu, entry %zu at byte %llu: a restart point that shares "
                        "%u bytes with the key before it", w, r->which, r->index, (unsigned long long)rb_at(r, r->pos), shared);
        r->restart_flag = le32(r->restarts + 4 * (size_t)r->ri) & RESTART_FLAG;
        if (r->kind != RB_DATA && (r->restart_flag))
            return fail(r->err, r->cap, FL_ERR_CORRUPT, "the %s block %zu: restart offset %u past 2^31", w, r->which,
                        le32(r->restarts + 4 * (size_t)r->ri));
        r->ri++;
    }
    if (!kbuf_fit(&r->key, (size_t)shared + unshared + 1)) return fail(r->err, r->cap, FL_ERR_NOMEM, "out of memory");
    if (unshared) memcpy(r->key.p + shared, p, unshared);
    r->key.len = (size_t)shared + unshared;
    r->shared = shared;
    r->value.data = p + unshared;
    r->value.len = vlen;
    r->pos = (size_t)(p + unshared + vlen - r->d);
    r->index++;
    return 1;
}

/* ---- Internal keys --------------------------------------------------------------- */

/* user key order, then trailer descending: -1, 0, 1 */
static int ikey_cmp(const uint8_t *a, size_t an, uint64_t at, const uint8_t *b, size_t bn, uint64_t bt) {
    int c = fl_key_cmp(a, an, b, bn);
    if (c) return c;
    return at > bt ? -1 : at < bt ? 1 : 0;
}

/* ---- Value blocks ------------------------------------------------------------------ */

static uint64_t le_n(const uint8_t *p, unsigned n) {
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* ---- Opening --------------------------------------------------------------------- */

typedef struct meta {
    bool has_props, has_rd, has_vi, has_filter;
    uint64_t props_off, props_len, rd_off, rd_len, vi_off, vi_len, f_off, f_len;
} meta;

static int parse_metaindex(fl_pbl_sst *t, fl_slice body, meta *m, char *err, size_t cap) {
    rb r;
    int rc = rb_init(&r, t, body, "metaindex", 0, RB_EVERY, err, cap);
    kbuf prev = { 0 };
    char a[FL_KEY_TEXT];
    while (rc == FL_OK && (rc = rb_next(&r)) == 1) {
        rc = FL_OK;
        uint64_t at = rb_at(&r, r.entry_off);
        if (r.index > 1 && fl_key_cmp(prev.p, prev.len, r.key.p, r.key.len) >= 0) {
            rc = fail(err, cap, FL_ERR_CORRUPT, "the metaindex's entry %zu (byte %llu), %s, does not follow the one before "
                      "it in name order", r.index - 1, (unsigned long long)at, show(r.key.p, r.key.len, a));
            break;
        }
        if (!kbuf_set(&prev, r.key.p, r.key.len)) { rc = fail(err, cap, FL_ERR_NOMEM, "out of memory"); break; }
        const char *k = (const char *)r.key.p;
        size_t kn = r.key.len;
        const uint8_t *p = r.value.data, *end = p + r.value.len;
        uint64_t off, len;
        bool *has = NULL;
        uint64_t *po = NULL, *pl = NULL;
#define NAMED(s) (kn == sizeof(s) - 1 && memcmp(k, s, kn) == 0)
        if (NAMED("rocksdb.properties")) { has = &m->has_props; po = &m->props_off; pl = &m->props_len; }
        else if (NAMED("rocksdb.range_del2")) { has = &m->has_rd; po = &m->rd_off; pl = &m->rd_len; }
        else if (NAMED("pebble.value_index")) { has = &m->has_vi; po = &m->vi_off; pl = &m->vi_len; }
        else if (kn > 11 && memcmp(k, "fullfilter.", 11) == 0) {
            if (m->has_filter) {
                rc = fail(err, cap, FL_ERR_VERSION, "the metaindex names a second full filter, %s: Pebble writes one",
                          show(r.key.p, r.key.len, a));
                break;
            }
            has = &m->has_filter; po = &m->f_off; pl = &m->f_len;
            t->info.filter_name = (fl_slice){ (const uint8_t *)k + 11, kn - 11 };   /* re-pointed below */
        } else {
            rc = fail(err, cap, FL_ERR_VERSION, "the metaindex names the meta block %s (byte %llu), which this reader does "
                      "not read (%s)", show(r.key.p, r.key.len, a), (unsigned long long)at,
                      NAMED("pebble.range_key") ? "range keys" : NAMED("rocksdb.range_del") ? "v1 range deletions"
                      : kn > 7 && memcmp(k, "filter.", 7) == 0 ? "a block-based filter"
                      : kn > 18 && memcmp(k, "partitionedfilter.", 18) == 0 ? "a partitioned filter"
                      : "unknown to Pebblev4 as Pebble v2.1.7 writes it");
            break;
        }
#undef NAMED
        if (!read_handle(&p, end, &off, &len) ||
            (has == &m->has_vi ? end - p != 3 : p != end)) {
            rc = fail(err, cap, FL_ERR_CORRUPT, "the metaindex entry %s (byte %llu): its handle does not decode to exactly "
                      "its %zu bytes", show(r.key.p, r.key.len, a), (unsigned long long)at, r.value.len);
            break;
        }
        if (has == &m->has_vi) memcpy(t->vi_widths, p, 3);
        *has = true; *po = off; *pl = len;
    }
    if (rc == 0) rc = FL_OK;
    /* the filter's name must point into the file, not the scratch key */
    if (rc == FL_OK && m->has_filter) {
        /* find it again in the block's bytes: the unshared bytes of a restart
         * entry are the whole name (every metaindex entry is a restart) */
        rb r2;
        int rc2 = rb_init(&r2, t, body, "metaindex", 0, RB_EVERY, err, cap);
        while (rc2 == FL_OK && (rc2 = rb_next(&r2)) == 1) {
            if (r2.key.len > 11 && memcmp(r2.key.p, "fullfilter.", 11) == 0) {
                const uint8_t *name_end = r2.value.data;
                t->info.filter_name = (fl_slice){ name_end - r2.key.len + 11, r2.key.len - 11 };
            }
            rc2 = FL_OK;
        }
        rb_free(&r2);
    }
    if (rc == FL_OK && !m->has_props)
        rc = fail(err, cap, FL_ERR_CORRUPT, "the metaindex names no properties block (rocksdb.properties)");
    free(prev.p);
    rb_free(&r);
    return rc;
}

static int parse_props(fl_pbl_sst *t, fl_slice body, char *err, size_t cap) {
    fl_pbl_props *pr = &t->info.props;
    rb r;
    int rc = rb_init(&r, t, body, "properties", 0, RB_FIRST_ONLY, err, cap);
    kbuf prev = { 0 };
    char a[FL_KEY_TEXT];
    while (rc == FL_OK && (rc = rb_next(&r)) == 1) {
        rc = FL_OK;
        uint64_t at = rb_at(&r, r.entry_off);
        if (r.index > 1 && fl_key_cmp(prev.p, prev.len, r.key.p, r.key.len) >= 0) {
            rc = fail(err, cap, FL_ERR_CORRUPT, "the properties' entry %zu (byte %llu), %s, does not follow the one before it "
                      "in name order", r.index - 1, (unsigned long long)at, show(r.key.p, r.key.len, a));
            break;
        }
        if (!kbuf_set(&prev, r.key.p, r.key.len)) { rc = fail(err, cap, FL_ERR_NOMEM, "out of memory"); break; }
        const char *k = (const char *)r.key.p;
        size_t kn = r.key.len;
        fl_slice v = r.value;
        static const struct { const char *name; size_t off; } nums[] = {
#define F(n, f) { n, offsetof(fl_pbl_props, f) }
            F("rocksdb.num.entries", num_entries), F("rocksdb.deleted.keys", num_deletions),
            F("rocksdb.num.range-deletions", num_range_deletions), F("rocksdb.merge.operands", num_merge_operands),
            F("pebble.num.deletions.sized", num_sized_deletions), F("rocksdb.num.data.blocks", num_data_blocks),
            F("pebble.num.value-blocks", num_value_blocks),
            F("pebble.num.values.in.value-blocks", num_values_in_value_blocks),
            F("pebble.value-blocks.size", value_blocks_size), F("rocksdb.raw.key.size", raw_key_size),
            F("rocksdb.raw.value.size", raw_value_size),
            F("pebble.raw.point-tombstone.key.size", raw_point_tombstone_key_size),
            F("rocksdb.data.size", data_size), F("rocksdb.filter.size", filter_size),
            F("rocksdb.index.size", index_size), F("rocksdb.index.partitions", index_partitions),
            F("rocksdb.top-level.index.size", top_level_index_size),
#undef F
        };
        bool known = false;
        for (size_t i = 0; i < sizeof nums / sizeof nums[0] && !known; i++) {
            if (strlen(nums[i].name) != kn || memcmp(nums[i].name, k, kn) != 0) continue;
            known = true;
            const uint8_t *p = v.data;
            uint64_t x;
            if (!uvarint(&p, v.data + v.len, &x) || p != v.data + v.len) {
                rc = fail(err, cap, FL_ERR_CORRUPT, "the property %s (byte %llu) is not one varint (%zu bytes)", nums[i].name,
                          (unsigned long long)at, v.len);
                break;
            }
            memcpy((char *)pr + nums[i].off, &x, sizeof x);
        }
        if (rc != FL_OK) break;
        if (known) continue;
#define NAMED(s) (kn == sizeof(s) - 1 && memcmp(k, s, kn) == 0)
        if (NAMED("rocksdb.block.based.table.index.type")) {
            if (v.len != 4) { rc = fail(err, cap, FL_ERR_CORRUPT, "the index type property (byte %llu) has %zu bytes, not 4",
                                        (unsigned long long)at, v.len); break; }
            pr->index_type = le32(v.data);
        } else if (NAMED("rocksdb.comparator")) pr->comparer = v;
        else if (NAMED("rocksdb.merge.operator")) pr->merger = v;
        else if (NAMED("rocksdb.filter.policy")) pr->filter_policy = v;
        else if (NAMED("rocksdb.compression")) pr->compression = v;
        else if (NAMED("rocksdb.property.collectors")) pr->property_collectors = v;
        else if (NAMED("obsolete-key")) {
            if (v.len < 1 || v.len > 2 || (v.len == 2 && v.data[1] != 't')) {
                rc = fail(err, cap, FL_ERR_CORRUPT, "the obsolete-key property (byte %llu) is not a short ID then \"t\" or "
                          "nothing", (unsigned long long)at);
                break;
            }
            pr->has_obsolete_collector = true;
            pr->obsolete_id = v.data[0];
            pr->table_all_obsolete = v.len == 2;
        } else if (NAMED("pebble.colblk.schema")) {
            rc = fail(err, cap, FL_ERR_VERSION, "the properties name a columnar key schema: not a row-format table");
            break;
        }
#undef NAMED
        /* other properties (user ones, sizes this reader does not check) pass */
    }
    if (rc == 0) rc = FL_OK;
    free(prev.p);
    rb_free(&r);
    return rc;
}

/* Block properties of an index entry: (id, varint len > 0, bytes), ids
 * ascending; *obsolete when the obsolete collector's is "t". */
static int block_props(const fl_pbl_sst *t, const uint8_t *p, const uint8_t *end, uint64_t at, bool *obsolete,
                       char *err, size_t cap) {
    int last = -1;
    *obsolete = false;
    while (p < end) {
        int id = *p++;
        uint64_t n;
        if (id <= last || !uvarint(&p, end, &n) || n == 0 || n > (uint64_t)(end - p))
            return fail(err, cap, FL_ERR_CORRUPT, "the index entry at byte %llu: its block properties do not decode "
                        "(id, varint length > 0, bytes; ids ascending)", (unsigned long long)at);
        if (t->info.props.has_obsolete_collector && id == t->info.props.obsolete_id) {
            if (n != 1 || *p != 't')
                return fail(err, cap, FL_ERR_CORRUPT, "the index entry at byte %llu: the obsolete-key block property is "
                            "not \"t\"", (unsigned long long)at);
            *obsolete = true;
        }
        p += n;
        last = id;
    }
    return FL_OK;
}

typedef struct handle_entry {
    uint64_t off, len;
    bool obsolete;
    size_t sep_at, sep_len;         /* into t->seps */
} handle_entry;

typedef struct hlist { handle_entry *v; size_t n, cap; } hlist;

static bool hpush(hlist *l, handle_entry e, size_t bound) {
    if (l->n == l->cap) {
        size_t c = l->cap ? l->cap * 2 : 16;
        if (c > bound + 16) c = bound + 16;
        if (c <= l->n) return false;
        handle_entry *v = realloc(l->v, c * sizeof *v);
        if (!v) return false;
        l->v = v;
        l->cap = c;
    }
    l->v[l->n++] = e;
    return true;
}

typedef struct sepbuf { uint8_t *p; size_t len, cap; } sepbuf;

static bool sep_push(sepbuf *s, const uint8_t *p, size_t n, size_t *at) {
    if (s->len + n > s->cap || !s->p) {
        size_t c = s->cap ? s->cap : 256;
        while (c < s->len + n) c *= 2;
        uint8_t *q = realloc(s->p, c);
        if (!q) return false;
        s->p = q;
        s->cap = c;
    }
    if (n) memcpy(s->p + s->len, p, n);
    *at = s->len;
    s->len += n;
    return true;
}

/* An index block's entries: (separator, handle + properties). */
static int parse_index(fl_pbl_sst *t, fl_slice body, const char *what, size_t which, hlist *out, sepbuf *seps,
                       char *err, size_t cap) {
    rb r;
    int rc = rb_init(&r, t, body, what, which, RB_EVERY, err, cap);
    char a[FL_KEY_TEXT];
    while (rc == FL_OK && (rc = rb_next(&r)) == 1) {
        rc = FL_OK;
        uint64_t at = rb_at(&r, r.entry_off);
        if (r.key.len < 8) {
            rc = fail(err, cap, FL_ERR_CORRUPT, "the %s block %zu, entry %zu at byte %llu: a key of %zu bytes, shorter than "
                      "an internal key's 8-byte trailer", what, which, r.index - 1, (unsigned long long)at, r.key.len);
            break;
        }
        if (out->n > 0) {
            handle_entry *pe = &out->v[out->n - 1];
            const uint8_t *pk = seps->p + pe->sep_at;
            size_t pn = pe->sep_len;
            if (ikey_cmp(pk, pn - 8, le64(pk + pn - 8), r.key.p, r.key.len - 8, le64(r.key.p + r.key.len - 8)) >= 0) {
                rc = fail(err, cap, FL_ERR_CORRUPT, "the %s block %zu, entry %zu at byte %llu: separator %s does not follow "
                          "the one before it", what, which, r.index - 1, (unsigned long long)at,
                          show(r.key.p, r.key.len - 8, a));
                break;
            }
        }
        const uint8_t *p = r.value.data, *end = p + r.value.len;
        handle_entry e = { 0 };
        if (!read_handle(&p, end, &e.off, &e.len)) {
            rc = fail(err, cap, FL_ERR_CORRUPT, "the %s block %zu, entry %zu at byte %llu: its block handle does not decode",
                      what, which, r.index - 1, (unsigned long long)at);
            break;
        }
        if ((rc = block_props(t, p, end, at, &e.obsolete, err, cap)) != FL_OK) break;
        if (!sep_push(seps, r.key.p, r.key.len, &e.sep_at)) { rc = fail(err, cap, FL_ERR_NOMEM, "out of memory"); break; }
        e.sep_len = r.key.len;
        if (!hpush(out, e, t->len)) { rc = fail(err, cap, FL_ERR_NOMEM, "out of memory"); break; }
    }
    if (rc == 0 && r.index == 0)
        rc = fail(err, cap, FL_ERR_CORRUPT, "the %s block %zu at offset %llu has no entries", what, which,
                  (unsigned long long)rb_at(&r, 0));
    if (rc == 0) rc = FL_OK;
    rb_free(&r);
    return rc;
}

/* ---- Walking the data ------------------------------------------------------------ */

typedef struct walk {
    const fl_pbl_sst *t;
    bool checking;
    fl_pbl_row_fn fn;
    void *arg;
    fl_pbl_split_fn split;          /* split_check: the Split to check against */
    void *split_arg;
    char *defect;                   /* split_check's findings */
    size_t defect_len;
    bool defective;
    kbuf prev;                      /* the previous point's user key */
    uint64_t prev_trailer;
    unsigned prev_kind;
    bool have_prev, prev_obsolete;
    size_t prev_prefix;
    size_t rows;
    uint64_t counts[24], raw_key, raw_value, tomb_key, in_vb;
    size_t vb_num;                  /* the next value's expected place */
    uint64_t vb_off;
    bool all_obsolete;
    char *err;
    size_t cap;
} walk;

static int value_from_block(walk *w, size_t bi, uint64_t at, const uint8_t *p, const uint8_t *end, fl_slice *out) {
    const fl_pbl_sst *t = w->t;
    uint32_t vlen, bnum, boff;
    if (!uvarint32(&p, end, &vlen) || !uvarint32(&p, end, &bnum) || !uvarint32(&p, end, &boff) || p != end)
        return fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu, the SET at byte %llu: its value handle is not exactly "
                    "three varint32s", bi, (unsigned long long)at);
    if (bnum >= t->nvalue_blocks || boff > t->value_blocks[bnum].len || vlen > t->value_blocks[bnum].len - boff)
        return fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu, the SET at byte %llu: its value handle (%u bytes at %u "
                    "in value block %u) is outside the %zu value blocks", bi, (unsigned long long)at, vlen, boff, bnum,
                    t->nvalue_blocks);
    if (vlen == 0)
        return fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu, the SET at byte %llu: an empty value in a value block "
                    "(Pebble keeps empty values in place)", bi, (unsigned long long)at);
    /* values are appended in table order */
    if (w->vb_num < t->nvalue_blocks && w->vb_off == t->value_blocks[w->vb_num].len) { w->vb_num++; w->vb_off = 0; }
    if (bnum != w->vb_num || boff != w->vb_off)
        return fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu, the SET at byte %llu: its value is at %u in value block "
                    "%u; the values before it end at %llu in block %zu", bi, (unsigned long long)at, boff, bnum,
                    (unsigned long long)w->vb_off, w->vb_num);
    w->vb_off += vlen;
    *out = (fl_slice){ t->value_blocks[bnum].data + boff, vlen };
    w->in_vb++;
    return FL_OK;
}

static void defect(walk *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void defect(walk *w, const char *fmt, ...) {
    if (w->defective) return;
    w->defective = true;
    va_list ap;
    va_start(ap, fmt);
    if (w->defect_len) vsnprintf(w->defect, w->defect_len, fmt, ap);
    va_end(ap);
}

static int walk_block(walk *w, size_t bi, fl_slice body) {
    const fl_pbl_sst *t = w->t;
    fl_pbl_block *blk = w->checking ? (fl_pbl_block *)&t->blocks[bi] : NULL;
    rb r;
    int rc = rb_init(&r, t, body, "data", bi, RB_DATA, w->err, w->cap);
    char a[FL_KEY_TEXT], b[FL_KEY_TEXT];
    bool block_all_obsolete = true, run_same = true;
    size_t first = w->rows;
    size_t prev_in_block_prefix = 0;
    while (rc == FL_OK && (rc = rb_next(&r)) == 1) {
        rc = FL_OK;
        uint64_t at = rb_at(&r, r.entry_off);
        if (r.key.len < 8) {
            rc = fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu, entry %zu at byte %llu: a key of %zu bytes, shorter "
                      "than the 8-byte trailer", bi, r.index - 1, (unsigned long long)at, r.key.len);
            break;
        }
        size_t ulen = r.key.len - 8;
        uint64_t trailer = le64(r.key.p + ulen);
        unsigned kb = (unsigned)(trailer & 0xff);
        bool obsolete = (kb & OBSOLETE_BIT) != 0;
        unsigned kind = kb & ~OBSOLETE_BIT;
        trailer &= ~(uint64_t)OBSOLETE_BIT;
        uint64_t seq = trailer >> 8;
        if (!point_kind(kind)) {
            rc = fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu, entry %zu at byte %llu: key %s has kind %u (%s), not a "
                      "point kind", bi, r.index - 1, (unsigned long long)at, show(r.key.p, ulen, a), kind,
                      kind == FL_PBL_RANGEDEL ? "a range deletion, which belongs in its own block" : "unknown");
            break;
        }
        if (r.index > 1 && r.shared > prev_in_block_prefix) {
            rc = fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu, entry %zu at byte %llu shares %u bytes with the key "
                      "before it, past that key's %zu user-key bytes (Pebble never shares trailer bytes)", bi,
                      r.index - 1, (unsigned long long)at, r.shared, prev_in_block_prefix);
            break;
        }
        if (w->have_prev) {
            int c = ikey_cmp(w->prev.p, w->prev.len, w->prev_trailer, r.key.p, ulen, trailer);
            if (c >= 0) {
                rc = fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu, entry %zu at byte %llu: key %s seq %llu %s follows "
                          "key %s seq %llu %s (expected user keys ascending, an equal key's trailers descending)", bi,
                          r.index - 1, (unsigned long long)at, show(r.key.p, ulen, a), (unsigned long long)seq,
                          fl_pbl_kind_name(kind), show(w->prev.p, w->prev.len, b),
                          (unsigned long long)(w->prev_trailer >> 8), fl_pbl_kind_name(w->prev_kind));
                break;
            }
        }
        bool same_user = w->have_prev && fl_key_cmp(w->prev.p, w->prev.len, r.key.p, ulen) == 0;
        if (same_user && (w->prev_obsolete || w->prev_kind != FL_PBL_MERGE) && !obsolete) {
            rc = fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu, entry %zu at byte %llu: key %s seq %llu follows a "
                      "version of itself that is %s but is not marked obsolete", bi, r.index - 1, (unsigned long long)at,
                      show(r.key.p, ulen, a), (unsigned long long)seq, w->prev_obsolete ? "obsolete" : "not a MERGE");
            break;
        }
        /* the value */
        fl_slice value = r.value;
        bool same_prefix = false, in_vb = false;
        uint64_t vsize = r.value.len;
        if (kind == FL_PBL_SET) {
            if (r.value.len == 0) {
                rc = fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu, the SET at byte %llu has no value prefix byte", bi,
                          (unsigned long long)at);
                break;
            }
            uint8_t pfx = r.value.data[0];
            same_prefix = (pfx & PFX_SAME) != 0;
            if ((pfx & PFX_KIND) == PFX_INPLACE) {
                if (pfx & ~PFX_SAME) {
                    rc = fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu, the SET at byte %llu: in-place value prefix "
                              "0x%02x has bits Pebble never sets (0x%02x)", bi, (unsigned long long)at, pfx,
                              pfx & ~PFX_SAME);
                    break;
                }
                value = (fl_slice){ r.value.data + 1, r.value.len - 1 };
            } else if ((pfx & PFX_KIND) == PFX_HANDLE) {
                if ((pfx & 0x18) || !same_prefix) {
                    rc = fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu, the SET at byte %llu: value-handle prefix "
                              "0x%02x (%s)", bi, (unsigned long long)at, pfx,
                              (pfx & 0x18) ? "unused bits set" : "without the same-prefix bit Pebble's writer requires");
                    break;
                }
                if ((rc = value_from_block(w, bi, at, r.value.data + 1, r.value.data + r.value.len, &value)) != FL_OK)
                    break;
                in_vb = true;
            } else if ((pfx & PFX_KIND) == PFX_BLOB) {
                rc = fail(w->err, w->cap, FL_ERR_VERSION, "data block %zu, the SET at byte %llu: its value is a blob-file "
                          "handle (prefix 0x%02x): value separation, which this reader does not read", bi,
                          (unsigned long long)at, pfx);
                break;
            } else {
                rc = fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu, the SET at byte %llu: value prefix 0x%02x has the "
                          "unknown value kind 11", bi, (unsigned long long)at, pfx);
                break;
            }
            vsize = value.len;
            bool prev_set = w->have_prev && w->prev_kind == FL_PBL_SET;
            if (same_prefix && !prev_set) {
                rc = fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu, the SET at byte %llu (key %s) says it has the same "
                          "prefix as the SET before it, but the point before it is %s", bi, (unsigned long long)at,
                          show(r.key.p, ulen, a), w->have_prev ? fl_pbl_kind_name(w->prev_kind) : "none");
                break;
            }
            if (!same_prefix && prev_set && same_user) {
                rc = fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu, the SET at byte %llu (key %s) follows a SET of the "
                          "same key without the same-prefix bit", bi, (unsigned long long)at, show(r.key.p, ulen, a));
                break;
            }
        } else if (kind == FL_PBL_DELSIZED && r.value.len) {
            const uint8_t *p = r.value.data;
            uint64_t sz;
            if (!uvarint(&p, p + r.value.len, &sz)) {
                rc = fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu, the DELSIZED at byte %llu: its value is not a "
                          "varint size", bi, (unsigned long long)at);
                break;
            }
        }
        /* restart flags: bit 31 of restart i = every entry since restart i-1
         * (exclusive) through this one had the same-prefix bit */
        bool entry_same = kind == FL_PBL_SET && same_prefix;
        if (r.at_restart) {
            bool want = r.index > 1 && run_same && entry_same;
            if ((r.restart_flag != 0) != want) {
                rc = fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu, the restart point at byte %llu: its same-prefix "
                          "flag is %d, expected %d", bi, (unsigned long long)at, r.restart_flag != 0, want);
                break;
            }
            run_same = true;
        } else run_same = run_same && entry_same;
        if (w->split) {                 /* split_check */
            size_t pl = w->split(w->split_arg, (fl_slice){ r.key.p, ulen });
            if (pl > ulen) pl = ulen;
            if (!w->defective) {
                bool want_same = w->have_prev && w->prev_kind == FL_PBL_SET && kind == FL_PBL_SET &&
                                 w->prev_prefix == pl && memcmp(w->prev.p, r.key.p, pl) == 0;
                if (kind == FL_PBL_SET && want_same != same_prefix)
                    defect(w, "data block %zu, the SET at byte %llu (key %s): its same-prefix bit is %d; with this Split "
                           "it should be %d", bi, (unsigned long long)at, show(r.key.p, ulen, a), same_prefix, want_same);
                if (!r.at_restart) {
                    size_t lcp = 0, lim = prev_in_block_prefix < w->prev_prefix ? prev_in_block_prefix : w->prev_prefix;
                    while (lcp < lim && lcp < ulen && w->prev.p[lcp] == r.key.p[lcp]) lcp++;
                    if (r.shared != lcp)
                        defect(w, "data block %zu, entry at byte %llu (key %s): shares %u bytes with the key before it; "
                               "Pebble shares %zu (the common prefix, capped at that key's Split prefix)", bi,
                               (unsigned long long)at, show(r.key.p, ulen, a), r.shared, lcp);
                }
            }
            w->prev_prefix = pl;
        }
        block_all_obsolete = block_all_obsolete && obsolete;
        w->all_obsolete = w->all_obsolete && obsolete;
        w->counts[kind]++;
        w->raw_key += ulen + 8;
        w->raw_value += vsize;
        if (kind == FL_PBL_DEL || kind == FL_PBL_SINGLEDEL || kind == FL_PBL_DELSIZED) w->tomb_key += ulen;
        if (blk && r.index == 1 && bi > 0) {
            /* the previous block's separator is < this first key */
            const fl_pbl_block *pb = &t->blocks[bi - 1];
            if (ikey_cmp(pb->sep.data, pb->sep.len - 8, le64(pb->sep.data + pb->sep.len - 8), r.key.p, ulen, trailer) >= 0) {
                rc = fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu's first key %s seq %llu is not above the index "
                          "separator %s of the block before it", bi, show(r.key.p, ulen, a), (unsigned long long)seq,
                          show(pb->sep.data, pb->sep.len - 8, b));
                break;
            }
        }
        if (w->fn) {
            fl_pbl_row row = { { r.key.p, ulen }, value, seq, kind, obsolete, same_prefix, in_vb, r.shared, (uint32_t)bi };
            int frc = w->fn(w->arg, &row);
            if (frc) { rc = frc; break; }
        }
        if (!kbuf_set(&w->prev, r.key.p, ulen)) { rc = fail(w->err, w->cap, FL_ERR_NOMEM, "out of memory"); break; }
        w->prev_trailer = trailer;
        w->prev_kind = kind;
        w->prev_obsolete = obsolete;
        w->have_prev = true;
        w->rows++;
        prev_in_block_prefix = ulen;
    }
    if (rc == 0) rc = FL_OK;
    if (rc == FL_OK && blk) {
        blk->first_row = first;
        blk->rows = w->rows - first;
        if (t->info.props.has_obsolete_collector && blk->all_obsolete != block_all_obsolete)
            rc = fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu at offset %llu: its obsolete-key block property says %s, "
                      "but %s", bi, (unsigned long long)blk->offset, blk->all_obsolete ? "every point is obsolete" : "not every "
                      "point is obsolete", block_all_obsolete ? "every one is" : "not every one is");
        else if (w->rows > first) {
            /* the separator is >= the block's last key */
            const fl_slice s = blk->sep;
            if (ikey_cmp(w->prev.p, w->prev.len, w->prev_trailer, s.data, s.len - 8, le64(s.data + s.len - 8)) > 0)
                rc = fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu's last key %s seq %llu is above its index separator "
                          "%s", bi, show(w->prev.p, w->prev.len, a), (unsigned long long)(w->prev_trailer >> 8),
                          show(s.data, s.len - 8, b));
        } else if (t->info.num_blocks > 1)
            rc = fail(w->err, w->cap, FL_ERR_CORRUPT, "data block %zu at offset %llu is empty (Pebble writes an empty data "
                      "block only as a table's only one)", bi, (unsigned long long)blk->offset);
    }
    rb_free(&r);
    return rc;
}

static int walk_data(walk *w) {
    const fl_pbl_sst *t = w->t;
    int rc = FL_OK;
    w->all_obsolete = true;
    for (size_t bi = 0; bi < t->info.num_blocks && rc == FL_OK; bi++) {
        fl_slice body;
        if ((rc = block_at(t, t->blocks[bi].offset, t->blocks[bi].len, "data", &body, w->err, w->cap)) != FL_OK) break;
        rc = walk_block(w, bi, body);
    }
    if (rc == FL_OK && w->checking && t->nvalue_blocks &&
        (w->vb_num != t->nvalue_blocks - 1 || w->vb_off != t->value_blocks[w->vb_num].len))
        rc = fail(w->err, w->cap, FL_ERR_CORRUPT, "the values in value blocks end at %llu in value block %zu, not at the end of "
                  "the last (%zu blocks)", (unsigned long long)w->vb_off, w->vb_num, t->nvalue_blocks);
    return rc;
}

/* ---- Range deletions ------------------------------------------------------------- */

typedef struct rd_state { fl_pbl_rangedel_fn fn; void *arg; } rd_state;

/* Walks (and checks) the range-deletion block; totals for the properties. */
static int walk_rd(const fl_pbl_sst *t, fl_pbl_rangedel_fn fn, void *arg, size_t *count, uint64_t *raw_key,
                   uint64_t *raw_value, char *err, size_t cap) {
    *count = 0;
    *raw_key = *raw_value = 0;
    if (!t->range_del_block.data) return FL_OK;
    rb r;
    int rc = rb_init(&r, t, t->range_del_block, "range-deletion", 0, RB_EVERY, err, cap);
    kbuf ps = { 0 };
    fl_slice pe = { 0 };
    uint64_t pseq = 0;
    char a[FL_KEY_TEXT], b[FL_KEY_TEXT];
    while (rc == FL_OK && (rc = rb_next(&r)) == 1) {
        rc = FL_OK;
        uint64_t at = rb_at(&r, r.entry_off);
        if (r.key.len < 8 || (le64(r.key.p + r.key.len - 8) & 0xff) != FL_PBL_RANGEDEL) {
            rc = fail(err, cap, FL_ERR_CORRUPT, "the range-deletion block, entry %zu at byte %llu: not an internal key of "
                      "kind RANGEDEL (15)", r.index - 1, (unsigned long long)at);
            break;
        }
        size_t sl = r.key.len - 8;
        uint64_t seq = le64(r.key.p + sl) >> 8;
        fl_slice end = r.value;
        if (fl_key_cmp(r.key.p, sl, end.data, end.len) >= 0) {
            rc = fail(err, cap, FL_ERR_CORRUPT, "the range deletion at byte %llu: [%s, %s) is empty", (unsigned long long)at,
                      show(r.key.p, sl, a), show(end.data, end.len, b));
            break;
        }
        if (r.index > 1) {
            int c = fl_key_cmp(ps.p, ps.len, r.key.p, sl);
            bool ok = c < 0 ? fl_key_cmp(pe.data, pe.len, r.key.p, sl) <= 0
                    : c == 0 && fl_key_cmp(pe.data, pe.len, end.data, end.len) == 0 && seq < pseq;
            if (!ok) {
                rc = fail(err, cap, FL_ERR_CORRUPT, "the range deletion at byte %llu, [%s, %s) seq %llu, is not fragmented "
                          "after the one before it (starts ascending, equal starts with equal ends and seqs descending, "
                          "no overlap)", (unsigned long long)at, show(r.key.p, sl, a), show(end.data, end.len, b),
                          (unsigned long long)seq);
                break;
            }
        }
        if (fn && (rc = fn(arg, (fl_slice){ r.key.p, sl }, end, seq)) != 0) break;
        if (!kbuf_set(&ps, r.key.p, sl)) { rc = fail(err, cap, FL_ERR_NOMEM, "out of memory"); break; }
        pe = end;
        pseq = seq;
        (*count)++;
        *raw_key += sl + 8;
        *raw_value += end.len;
    }
    if (rc == 0 && r.index == 0)
        rc = fail(err, cap, FL_ERR_CORRUPT, "the range-deletion block is empty (Pebble writes it only with tombstones)");
    if (rc == 0) rc = FL_OK;
    free(ps.p);
    rb_free(&r);
    return rc;
}

/* the first tombstone's start (copied into out) and the last one's end */
typedef struct rd_bounds { kbuf first; uint64_t first_seq; fl_slice last_end; bool any; } rd_bounds;
static int rd_bound(void *arg, fl_slice start, fl_slice end, uint64_t seq) {
    rd_bounds *b = arg;
    if (!b->any && !kbuf_set(&b->first, start.data, start.len)) return FL_ERR_NOMEM;
    if (!b->any) b->first_seq = seq;
    b->any = true;
    b->last_end = end;
    return 0;
}

/* ---- open ------------------------------------------------------------------------ */

static int add_region(region *rg, size_t *n, size_t max, uint64_t off, uint64_t len, const char *what) {
    if (*n >= max) return FL_ERR_NOMEM;
    rg[(*n)++] = (region){ off, len + TRAILER_LEN, what };
    return FL_OK;
}

static int check_prop(char *err, size_t cap, const char *name, uint64_t have, uint64_t want, const char *what) {
    if (have == want) return FL_OK;
    return fail(err, cap, FL_ERR_CORRUPT, "the property %s is %llu, but %s %llu", name, (unsigned long long)have, what,
                (unsigned long long)want);
}

static int open_sst(fl_pbl_sst *t, char *err, size_t cap) {
    fl_pbl_info *in = &t->info;
    const uint8_t *f = t->file;
    size_t len = t->len;
    int rc;
    /* footer */
    if (len < FOOTER_LEN)
        return fail(err, cap, FL_ERR_CORRUPT, "a file of %zu bytes is shorter than Pebblev4's 53-byte footer", len);
    const uint8_t *ft = f + len - FOOTER_LEN;
    if (memcmp(f + len - 8, pebble_magic, 8) != 0) {
        if (memcmp(f + len - 8, rocksdb_magic, 8) == 0 || memcmp(f + len - 8, leveldb_magic, 8) == 0)
            return fail(err, cap, FL_ERR_VERSION, "the magic at byte %zu is %s's: not a Pebble-format table", len - 8,
                        memcmp(f + len - 8, rocksdb_magic, 8) == 0 ? "RocksDB" : "LevelDB");
        return fail(err, cap, FL_ERR_CORRUPT, "the last 8 bytes (byte %zu) are not Pebble's magic f09faab3f09faab3", len - 8);
    }
    in->format_version = le32(f + len - 12);
    if (in->format_version != VERSION_PEBBLEV4)
        return fail(err, cap,
                    in->format_version >= 1 && in->format_version <= 7 ? FL_ERR_VERSION : FL_ERR_CORRUPT,
                    "the footer's version (byte %zu) is %u: this reader reads TableFormatPebblev4 (4) only%s", len - 12,
                    in->format_version, in->format_version >= 5 && in->format_version <= 7 ? " (5+ are columnar)" : "");
    in->checksum_type = ft[0];
    if (in->checksum_type != 1)
        return fail(err, cap, in->checksum_type == 3 ? FL_ERR_VERSION : FL_ERR_CORRUPT,
                    "the footer's checksum type (byte %zu) is %u: %s", len - FOOTER_LEN, in->checksum_type,
                    in->checksum_type == 3 ? "xxHash64, which this reader does not check"
                                           : "Pebble reads only 1 (CRC32C) and 3 (xxHash64)");
    {
        const uint8_t *p = ft + 1, *end = f + len - 12;
        if (!read_handle(&p, end, &in->metaindex_offset, &in->metaindex_len) ||
            !read_handle(&p, end, &in->index_offset, &in->index_len))
            return fail(err, cap, FL_ERR_CORRUPT, "the footer's handles (byte %zu) do not decode", len - FOOTER_LEN + 1);
        /* minimal varints, as Pebble writes them: the footer has no checksum,
         * and a last byte's continuation bit flipped onto the zero padding
         * reads as the same number (Go's Uvarint accepts it) */
        {
            const uint8_t *q = ft + 1;
            for (int h = 0; h < 4; h++) {
                const uint8_t *s0 = q;
                while (*q & 0x80) q++;
                if (q > s0 && *q == 0)
                    return fail(err, cap, FL_ERR_CORRUPT, "the footer's handle varint at byte %zu is not minimal (Pebble "
                                "writes minimal ones)", (size_t)(s0 - f));
                q++;
            }
        }
        for (; p < end; p++)
            if (*p) return fail(err, cap, FL_ERR_CORRUPT, "the footer's padding byte %zu is 0x%02x, not 0", (size_t)(p - f), *p);
    }
    /* metaindex, properties */
    fl_slice mb, pb;
    meta m = { 0 };
    if ((rc = block_at(t, in->metaindex_offset, in->metaindex_len, "metaindex", &mb, err, cap)) != FL_OK) return rc;
    if ((rc = parse_metaindex(t, mb, &m, err, cap)) != FL_OK) return rc;
    if ((rc = block_at(t, m.props_off, m.props_len, "properties", &pb, err, cap)) != FL_OK) return rc;
    if ((rc = parse_props(t, pb, err, cap)) != FL_OK) return rc;
    fl_pbl_props *pr = &in->props;
    if (pr->index_type != 0 && pr->index_type != 2)
        return fail(err, cap, FL_ERR_VERSION, "the index type property is %u: Pebble writes 0 (one level) or 2 (two levels)",
                    pr->index_type);
    in->two_level = pr->index_type == 2;
    /* the index */
    hlist top = { 0 }, data = { 0 };
    sepbuf seps = { 0 };
    size_t max_regions = 0;
    region *rg = NULL;
    size_t nrg = 0;
    fl_slice ib;
    rc = block_at(t, in->index_offset, in->index_len, in->two_level ? "top-level index" : "index", &ib, err, cap);
    if (rc == FL_OK) rc = parse_index(t, ib, in->two_level ? "top-level index" : "index", 0, in->two_level ? &top : &data,
                                      &seps, err, cap);
    if (rc == FL_OK && in->two_level) {
        in->num_index_blocks = top.n;
        for (size_t i = 0; i < top.n && rc == FL_OK; i++) {
            fl_slice pbody;
            size_t before = data.n;
            if ((rc = block_at(t, top.v[i].off, top.v[i].len, "index partition", &pbody, err, cap)) != FL_OK) break;
            if ((rc = parse_index(t, pbody, "index partition", i, &data, &seps, err, cap)) != FL_OK) break;
            /* the top level's key is the partition's last separator */
            const handle_entry *le = &data.v[data.n - 1], *te = &top.v[i];
            if (le->sep_len != te->sep_len || memcmp(seps.p + le->sep_at, seps.p + te->sep_at, le->sep_len) != 0) {
                rc = fail(err, cap, FL_ERR_CORRUPT, "the top-level index's key for partition %zu is not the partition's last "
                          "separator", i);
                break;
            }
            bool all = true;
            for (size_t j = before; j < data.n; j++) all = all && data.v[j].obsolete;
            if (pr->has_obsolete_collector && all != te->obsolete) {
                rc = fail(err, cap, FL_ERR_CORRUPT, "the top-level index's obsolete-key property for partition %zu says %d, "
                          "its blocks' %d", i, te->obsolete, all);
                break;
            }
        }
    } else in->num_index_blocks = 1;
    if (rc != FL_OK) goto out;
    in->num_blocks = data.n;
    t->blocks = calloc(data.n ? data.n : 1, sizeof *t->blocks);
    t->seps = seps.p;
    seps.p = NULL;
    if (!t->blocks) { rc = fail(err, cap, FL_ERR_NOMEM, "out of memory"); goto out; }
    for (size_t i = 0; i < data.n; i++) {
        t->blocks[i].offset = data.v[i].off;
        t->blocks[i].len = data.v[i].len;
        t->blocks[i].all_obsolete = data.v[i].obsolete;
        t->blocks[i].sep = (fl_slice){ t->seps + data.v[i].sep_at, data.v[i].sep_len };
    }
    /* filter, range deletions, value blocks */
    if (m.has_filter) {
        if ((rc = block_at(t, m.f_off, m.f_len, "filter", &in->filter, err, cap)) != FL_OK) goto out;
        in->has_filter = true;
    }
    if (m.has_rd && (rc = block_at(t, m.rd_off, m.rd_len, "range-deletion", &t->range_del_block, err, cap)) != FL_OK)
        goto out;
    if (m.has_vi) {
        if ((rc = block_at(t, m.vi_off, m.vi_len, "value index", &t->value_index, err, cap)) != FL_OK) goto out;
        unsigned wn = t->vi_widths[0], wo = t->vi_widths[1], wl = t->vi_widths[2], row = wn + wo + wl;
        if (!wn || !wo || !wl || wn > 8 || wo > 8 || wl > 8 || t->value_index.len % row || t->value_index.len == 0) {
            rc = fail(err, cap, FL_ERR_CORRUPT, "the value index (offset %llu, %zu bytes) with field widths %u, %u, %u is not a "
                      "whole number of rows (widths 1 to 8)", (unsigned long long)m.vi_off, t->value_index.len, wn, wo, wl);
            goto out;
        }
        t->nvalue_blocks = t->value_index.len / row;
        t->value_blocks = calloc(t->nvalue_blocks, sizeof *t->value_blocks);
        if (!t->value_blocks) { rc = fail(err, cap, FL_ERR_NOMEM, "out of memory"); goto out; }
        for (size_t i = 0; i < t->nvalue_blocks; i++) {
            const uint8_t *p = t->value_index.data + i * row;
            uint64_t num = le_n(p, wn), off = le_n(p + wn, wo), vl = le_n(p + wn + wo, wl);
            if (num != i) {
                rc = fail(err, cap, FL_ERR_CORRUPT, "the value index's row %zu names block %llu", i, (unsigned long long)num);
                goto out;
            }
            if ((rc = block_at(t, off, vl, "value", &t->value_blocks[i], err, cap)) != FL_OK) goto out;
        }
    }
    in->num_value_blocks = t->nvalue_blocks;
    /* the blocks tile the file */
    max_regions = data.n + top.n + t->nvalue_blocks + 8;
    rg = calloc(max_regions, sizeof *rg);
    if (!rg) { rc = fail(err, cap, FL_ERR_NOMEM, "out of memory"); goto out; }
    for (size_t i = 0; i < data.n; i++) add_region(rg, &nrg, max_regions, data.v[i].off, data.v[i].len, "data");
    if (m.has_filter) add_region(rg, &nrg, max_regions, m.f_off, m.f_len, "filter");
    for (size_t i = 0; i < top.n; i++) add_region(rg, &nrg, max_regions, top.v[i].off, top.v[i].len, "index partition");
    add_region(rg, &nrg, max_regions, in->index_offset, in->index_len, in->two_level ? "top-level index" : "index");
    if (m.has_rd) add_region(rg, &nrg, max_regions, m.rd_off, m.rd_len, "range-deletion");
    for (size_t i = 0; i < t->nvalue_blocks; i++)
        add_region(rg, &nrg, max_regions, (uint64_t)(t->value_blocks[i].data - f), t->value_blocks[i].len, "value");
    if (m.has_vi) add_region(rg, &nrg, max_regions, m.vi_off, m.vi_len, "value index");
    add_region(rg, &nrg, max_regions, m.props_off, m.props_len, "properties");
    add_region(rg, &nrg, max_regions, in->metaindex_offset, in->metaindex_len, "metaindex");
    {
        uint64_t at = 0;
        for (size_t i = 0; i < nrg; i++) {
            if (rg[i].off != at) {
                rc = fail(err, cap, FL_ERR_CORRUPT, "the %s block is at offset %llu; the blocks before it (in Pebblev4's "
                          "order: data, filter, index, range deletions, value blocks, value index, properties, metaindex) "
                          "end at %llu", rg[i].what, (unsigned long long)rg[i].off, (unsigned long long)at);
                goto out;
            }
            at += rg[i].len;
        }
        if (at != len - FOOTER_LEN) {
            rc = fail(err, cap, FL_ERR_CORRUPT, "the blocks end at %llu, the footer begins at %zu", (unsigned long long)at,
                      len - FOOTER_LEN);
            goto out;
        }
    }
    /* range deletions */
    size_t nrd;
    uint64_t rd_key, rd_val;
    rd_bounds bounds = { 0 };
    rc = walk_rd(t, rd_bound, &bounds, &nrd, &rd_key, &rd_val, err, cap);
    if (rc == FL_ERR_NOMEM) rc = fail(err, cap, FL_ERR_NOMEM, "out of memory");
    if (rc != FL_OK) { free(bounds.first.p); goto out; }
    in->num_range_dels = nrd;
    /* the data */
    walk w = { .t = t, .checking = true, .err = err, .cap = cap };
    rc = walk_data(&w);
    if (rc == FL_OK) {
        in->num_rows = w.rows;
        memcpy(in->counts, w.counts, sizeof w.counts);
        in->num_values_in_value_blocks = w.in_vb;
        /* key range */
        fl_slice first_key = { 0 }, last_key = { 0 };
        uint64_t first_seq = 0, last_seq = 0;
        unsigned first_kind = 0, last_kind = 0;
        if (w.rows) {
            /* the first point: re-read the first block's first entry */
            rb r;
            fl_slice body;
            block_at(t, t->blocks[0].offset, t->blocks[0].len, "data", &body, NULL, 0);
            if (rb_init(&r, t, body, "data", 0, RB_DATA, NULL, 0) == FL_OK && rb_next(&r) == 1) {
                /* a restart entry's key bytes are whole in the file */
                first_key = (fl_slice){ r.value.data - r.key.len, r.key.len - 8 };
                uint64_t tr = le64(r.value.data - 8) & ~(uint64_t)OBSOLETE_BIT;
                first_seq = tr >> 8;
                first_kind = (unsigned)(tr & 0xff);
            }
            rb_free(&r);
            /* the last point: the walk's prev; find its bytes in the last
             * block (rebuilt keys may not be whole in the file: keep a copy
             * in the separator buffer's tail instead) */
            last_seq = w.prev_trailer >> 8;
            last_kind = (unsigned)(w.prev_trailer & 0xff);
        }
        size_t extra = w.rows ? w.prev.len : 0;
        extra += bounds.any ? bounds.first.len : 0;
        uint8_t *own = malloc(extra ? extra : 1);
        if (!own) { rc = fail(err, cap, FL_ERR_NOMEM, "out of memory"); }
        else {
            size_t o = 0;
            if (w.rows) { memcpy(own, w.prev.p, w.prev.len); last_key = (fl_slice){ own, w.prev.len }; o = w.prev.len; }
            fl_slice rd_first = { 0 };
            if (bounds.any) { if (bounds.first.len) memcpy(own + o, bounds.first.p, bounds.first.len);
                              rd_first = (fl_slice){ own + o, bounds.first.len }; }
            in->has_range = w.rows || bounds.any;
            if (w.rows) {
                in->smallest = first_key; in->smallest_seq = first_seq; in->smallest_kind = first_kind;
                in->largest = last_key; in->largest_seq = last_seq; in->largest_kind = last_kind;
            }
            if (bounds.any) {
                uint64_t rt = bounds.first_seq << 8 | FL_PBL_RANGEDEL;
                if (!w.rows || ikey_cmp(rd_first.data, rd_first.len, rt, in->smallest.data, in->smallest.len,
                                        in->smallest_seq << 8 | in->smallest_kind) < 0) {
                    in->smallest = rd_first; in->smallest_seq = bounds.first_seq; in->smallest_kind = FL_PBL_RANGEDEL;
                }
                uint64_t et = FL_PBL_SEQ_MAX << 8 | FL_PBL_RANGEDEL;
                if (!w.rows || ikey_cmp(bounds.last_end.data, bounds.last_end.len, et, in->largest.data, in->largest.len,
                                        in->largest_seq << 8 | in->largest_kind) > 0) {
                    in->largest = bounds.last_end; in->largest_seq = FL_PBL_SEQ_MAX; in->largest_kind = FL_PBL_RANGEDEL;
                }
            }
            t->own = own;
        }
    }
    free(bounds.first.p);
    free(w.prev.p);
    if (rc != FL_OK) goto out;
    /* the properties agree */
    {
        uint64_t dels = w.counts[FL_PBL_DEL] + w.counts[FL_PBL_SINGLEDEL] + w.counts[FL_PBL_DELSIZED];
        uint64_t data_end = data.n ? data.v[data.n - 1].off + data.v[data.n - 1].len + TRAILER_LEN : 0;
        uint64_t vb_size = 0;
        for (size_t i = 0; i < t->nvalue_blocks; i++) vb_size += t->value_blocks[i].len + TRAILER_LEN;
        if (m.has_vi) vb_size += m.vi_len + TRAILER_LEN;
        if ((rc = check_prop(err, cap, "rocksdb.num.entries", pr->num_entries, w.rows + nrd, "the points and range deletions number")) ||
            (rc = check_prop(err, cap, "rocksdb.deleted.keys", pr->num_deletions, dels + nrd, "the deletions (of every kind) and range deletions number")) ||
            (rc = check_prop(err, cap, "rocksdb.num.range-deletions", pr->num_range_deletions, nrd, "the range deletions number")) ||
            (rc = check_prop(err, cap, "rocksdb.merge.operands", pr->num_merge_operands, w.counts[FL_PBL_MERGE], "the MERGEs number")) ||
            (rc = check_prop(err, cap, "pebble.num.deletions.sized", pr->num_sized_deletions, w.counts[FL_PBL_DELSIZED], "the DELSIZEDs number")) ||
            (rc = check_prop(err, cap, "rocksdb.num.data.blocks", pr->num_data_blocks, data.n, "the index names")) ||
            (rc = check_prop(err, cap, "rocksdb.data.size", pr->data_size, data_end, "the data blocks end at")) ||
            (rc = check_prop(err, cap, "rocksdb.filter.size", pr->filter_size, in->has_filter ? in->filter.len : 0, "the filter block's bytes are")) ||
            (rc = check_prop(err, cap, "rocksdb.raw.key.size", pr->raw_key_size, w.raw_key + rd_key, "the keys (user key + 8) total")) ||
            (rc = check_prop(err, cap, "rocksdb.raw.value.size", pr->raw_value_size, w.raw_value + rd_val, "the values total")) ||
            (rc = check_prop(err, cap, "pebble.raw.point-tombstone.key.size", pr->raw_point_tombstone_key_size, w.tomb_key, "the deletions' keys total")) ||
            (rc = check_prop(err, cap, "rocksdb.index.partitions", pr->index_partitions, in->two_level ? top.n : 0, "the index partitions number")) ||
            (rc = check_prop(err, cap, "pebble.num.value-blocks", pr->num_value_blocks, t->nvalue_blocks, "the value index names")) ||
            (rc = check_prop(err, cap, "pebble.num.values.in.value-blocks", pr->num_values_in_value_blocks, w.in_vb, "the SETs with value handles number")) ||
            (rc = check_prop(err, cap, "pebble.value-blocks.size", pr->value_blocks_size, vb_size, "the value blocks and their index (with trailers) take")))
            goto out;
        if (pr->has_obsolete_collector && pr->table_all_obsolete != w.all_obsolete) {
            rc = fail(err, cap, FL_ERR_CORRUPT, "the obsolete-key property says %s point is obsolete, but %s",
                      pr->table_all_obsolete ? "every" : "not every", w.all_obsolete ? "every one is" : "not every one is");
            goto out;
        }
        bool named = pr->filter_policy.len > 0;
        if (named != in->has_filter ||
            (named && (pr->filter_policy.len != in->filter_name.len ||
                       memcmp(pr->filter_policy.data, in->filter_name.data, in->filter_name.len) != 0))) {
            rc = fail(err, cap, FL_ERR_CORRUPT, "the filter policy property (%.*s) and the metaindex's filter block (%s%.*s) "
                      "disagree", (int)(pr->filter_policy.len > 100 ? 100 : pr->filter_policy.len),
                      (const char *)pr->filter_policy.data, in->has_filter ? "fullfilter." : "none",
                      (int)(in->filter_name.len > 100 ? 100 : in->filter_name.len), (const char *)in->filter_name.data);
            goto out;
        }
        if (in->has_filter && in->filter.len == 0 && w.rows) {
            rc = fail(err, cap, FL_ERR_CORRUPT, "the filter block is empty, but the table has %zu points (Pebble writes an "
                      "empty filter only when no key was added)", w.rows);
            goto out;
        }
    }
out:
    free(rg);
    free(top.v);
    free(data.v);
    free(seps.p);
    return rc;
}

int fl_pbl_sst_open_flags(const uint8_t *file, size_t len, unsigned flags, fl_pbl_sst **out, char *err, size_t err_len) {
    if (err && err_len) err[0] = 0;
    *out = NULL;
    if (!file && len) return fail(err, err_len, FL_ERR_INVALID, "no file bytes");
    fl_pbl_sst *t = calloc(1, sizeof *t);
    if (!t) return fail(err, err_len, FL_ERR_NOMEM, "out of memory");
    t->file = file;
    t->len = len;
    t->flags = flags;
    int rc = open_sst(t, err, err_len);
    if (rc != FL_OK) {
        fl_pbl_sst_free(t);
        return rc;
    }
    *out = t;
    return FL_OK;
}

int fl_pbl_sst_open(const uint8_t *file, size_t len, fl_pbl_sst **out, char *err, size_t err_len) {
    return fl_pbl_sst_open_flags(file, len, 0, out, err, err_len);
}

void fl_pbl_sst_free(fl_pbl_sst *t) {
    if (!t) return;
    free(t->blocks);
    free(t->seps);
    free(t->value_blocks);
    free(t->own);
    free(t);
}

const fl_pbl_info *fl_pbl_sst_info(const fl_pbl_sst *t) { return &t->info; }

const fl_pbl_block *fl_pbl_sst_block(const fl_pbl_sst *t, size_t i) {
    return i < t->info.num_blocks ? &t->blocks[i] : NULL;
}

int fl_pbl_sst_rows(const fl_pbl_sst *t, fl_pbl_row_fn fn, void *arg, char *err, size_t err_len) {
    walk w = { .t = t, .fn = fn, .arg = arg, .err = err, .cap = err_len };
    int rc = walk_data(&w);
    free(w.prev.p);
    return rc;
}

int fl_pbl_sst_range_dels(const fl_pbl_sst *t, fl_pbl_rangedel_fn fn, void *arg, char *err, size_t err_len) {
    size_t n;
    uint64_t a, b;
    return walk_rd(t, fn, arg, &n, &a, &b, err, err_len);
}

/* The walk of the data with split_check's Split (walk_block: w->split). */
int fl_pbl_split_check(const fl_pbl_sst *t, fl_pbl_split_fn split, void *arg, char *defect_out, size_t defect_len) {
    if (defect_len) defect_out[0] = 0;
    size_t whole = SIZE_MAX;        /* DefaultSplit: the whole key */
    if (!split) { split = fl_pbl_split_capped; arg = &whole; }
    walk w = { .t = t, .split = split, .split_arg = arg, .defect = defect_out, .defect_len = defect_len,
               .err = defect_out, .cap = defect_len };
    int rc = walk_data(&w);
    free(w.prev.p);
    return rc;
}
