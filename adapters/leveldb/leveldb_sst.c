/*
 * leveldb_sst.c -- LevelDB 1.23's table files read by filterlab itself,
 * written from the format's facts (the layout and formulas are LevelDB's;
 * the code is ours).  filterlab checks LevelDB's answers against what this
 * reader finds in its files.
 *
 * Integers are little-endian; varints are LEB128 (varint32: at most 5
 * bytes, varint64: at most 10).  A BlockHandle is varint64 offset, varint64
 * size.  The file, front to back, as 1.23's TableBuilder writes it:
 *
 *   data blocks     back to back from offset 0, in key order
 *   filter block    (when a filter policy is set) right after the data
 *   metaindex block then the index block, then
 *   footer          48 bytes: metaindex handle, index handle, zero padding
 *                   to 40 bytes, fixed64 magic 0xdb4775248b80fb57
 *
 * A block at handle (offset, size) is `size` bytes of contents, then a
 * 1-byte compression type (0 none, 1 snappy: refused, FL_ERR_VERSION) and
 * the fixed32 masked CRC32C of contents + type byte (mask: rotate right 15,
 * add 0xa282ead8).  Contents (data, index and metaindex blocks): entries
 *     varint32 shared, varint32 non_shared, varint32 value_len,
 *     key_delta[non_shared], value[value_len]
 * where the key is the previous key's first `shared` bytes then key_delta;
 * then fixed32 restarts[num_restarts] (entries with shared 0, the first at
 * 0; an empty block has the one restart 0) and fixed32 num_restarts.
 *
 * Data block keys are internal keys: user_key + fixed64 tag, tag = seq << 8
 * | type (1 value, 0 deletion, with an empty value).  Across the table they
 * ascend strictly under the internal comparator (user keys bytewise, then
 * tag descending).  The index block has one entry per data block, in file
 * order: an internal key k with last key of the block <= k < first key of
 * the next, and the block's handle as value.  The metaindex maps
 * "filter.<policy name>" to the filter block's handle.
 *
 * The filter block: filters, then fixed32 offset[i] per filter, fixed32 the
 * offset array's start, 1 byte base_lg (11).  Filter i holds the user keys
 * of every entry of the data blocks starting in [i << base_lg, (i+1) <<
 * base_lg); its bytes are [offset[i], offset[i+1]) (the last one's end is
 * the array's start).  The builder emits filters up to the window of each
 * next block's start and, at the end, of the data's end: N = max(last
 * block's window + 1, data_end >> base_lg); a window without keys gets an
 * empty filter.
 *
 * Checked beyond what LevelDB's reader checks (it trusts its writer; we
 * verify it): the layout above, exactly; varints minimal and in range;
 * restart points strictly ascending, each an entry with shared 0; shared
 * the longest common prefix elsewhere (as BlockBuilder computes it); every
 * index entry a restart point (the index's restart interval is 1); keys as
 * above; deletions without values; at most one "filter." metaindex entry.
 * Not checked: the data blocks' restart interval (not stored), the order
 * of the metaindex's keys (1.23 writes at most one).
 */
#include "leveldb_sst.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FOOTER_LEN   48
#define TRAILER_LEN  5
#define MAGIC        0xdb4775248b80fb57ull
#define MAX_SEQ      ((1ull << 56) - 1)
/* A Get's lookup key is (key, the snapshot's sequence, kValueTypeForSeek):
 * a sequence below kMaxSequenceNumber (every write's is), so it sorts after
 * an index separator LevelDB shortened to exactly that user key -- whose
 * tag is (kMaxSequenceNumber, kValueTypeForSeek) -- and before every real
 * entry of the key.  Any sequence in between picks the same block; this
 * one is the largest. */
#define SEEK_TAG     (((MAX_SEQ - 1) << 8) | 1)
#define BASE_LG      11
#define BLOOM_NAME   "leveldb.BuiltinBloomFilter2"
#define BLOOM_SEED   0xbc9f1d34u

typedef struct ldb_block { uint64_t off, size; size_t entries; } ldb_block;

struct fl_ldb_table {
    const uint8_t *file;
    size_t len;
    unsigned flags;
    ldb_block *blocks;
    size_t nblocks, bcap, entries;
    uint64_t data_end;                       /* where the last data block's trailer ends */
    const uint8_t *index;                    /* the index block's contents */
    size_t index_len;
    uint64_t index_off;
    fl_slice smallest;                       /* into the file */
    uint8_t *largest;                        /* owned */
    size_t largest_len;
    char *fname;                             /* after "filter."; NULL: no filter block */
    const uint8_t *fblock;                   /* the filter block's contents */
    size_t fblock_len, nfilters, farray;     /* farray: the offset array's start */
    unsigned base_lg;
};

/* ---- Errors --------------------------------------------------------------- */

/* code, with err "leveldb table: WHAT" (engine.h) */
#define fail(err, cap, code, ...) fl_fail(err, cap, code, "leveldb table: " __VA_ARGS__)

/* A key for messages (engine.h). */
static const char *show(const uint8_t *p, size_t n, char out[FL_KEY_TEXT]) { return fl_key_text(p, n, out); }

typedef unsigned long long ull;

/* ---- Bytes ---------------------------------------------------------------- */

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t le64(const uint8_t *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }

/* The internal comparator: user keys bytewise, then the tag descending.
 * Both keys have their 8-byte tag. */
static int ikey_cmp(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
    int c = fl_key_cmp(a, an - 8, b, bn - 8);
    if (c) return c;
    uint64_t ta = le64(a + an - 8), tb = le64(b + bn - 8);
    return ta > tb ? -1 : ta < tb;
}

/* A varint of at most maxb bytes (5: 32 bits, 10: 64 bits) at *p, before
 * end: minimal and in range, else false. */
static bool get_varint(const uint8_t **p, const uint8_t *end, unsigned maxb, uint64_t *v) {
    size_t avail = (size_t)(end - *p);
    uint64_t r = 0;
    for (unsigned i = 0; i < maxb && i < avail; i++) {
        uint8_t b = (*p)[i];
        r |= (uint64_t)(b & 0x7f) << (7 * i);
        if (b & 0x80) continue;
        if (i > 0 && b == 0) return false;                       /* not minimal */
        if (i == maxb - 1 && (b >> (maxb == 5 ? 4 : 1))) return false;   /* too wide */
        *p += i + 1;
        *v = r;
        return true;
    }
    return false;
}

/* A BlockHandle filling v[0..n) exactly. */
static bool get_handle(const uint8_t *v, size_t n, uint64_t *off, uint64_t *size) {
    const uint8_t *p = v, *end = v + n;
    return get_varint(&p, end, 10, off) && get_varint(&p, end, 10, size) && p == end;
}

/* ---- CRC32C ---------------------------------------------------------------- */

static const uint32_t crc_nibble[16] = {
    0x00000000u, 0x105ec76fu, 0x20bd8edeu, 0x30e349b1u, 0x417b1dbcu, 0x5125dad3u,
    0x61c69362u, 0x7198540du, 0x82f63b78u, 0x92a8fc17u, 0xa24bb5a6u, 0xb21572c9u,
    0xc38d26c4u, 0xd3d3e1abu, 0xe330a81au, 0xf36e6f75u,
};

uint32_t fl_ldb_crc32c(const uint8_t *p, size_t n) {
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        c = (c >> 4) ^ crc_nibble[c & 15];
        c = (c >> 4) ^ crc_nibble[c & 15];
    }
    return ~c;
}

uint32_t fl_ldb_crc_mask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }

/* ---- Blocks ------------------------------------------------------------------ */

/* The contents of the block at (off, size), after checking that it and its
 * trailer lie before the footer, its CRC (unless FL_LDB_NO_CHECKSUMS) and
 * its compression type.  what names it. */
static int read_block(const fl_ldb_table *t, uint64_t off, uint64_t size, const char *what,
                      const uint8_t **out, char *err, size_t cap) {
    uint64_t limit = t->len - FOOTER_LEN;
    if (off > limit || size > limit - off || TRAILER_LEN > limit - off - size)
        return fail(err, cap, FL_ERR_CORRUPT,
                    "%s at offset %llu, %llu bytes + its 5-byte trailer, runs past the footer at %llu",
                    what, (ull)off, (ull)size, (ull)limit);
    const uint8_t *p = t->file + off;
    size_t n = (size_t)size;
    uint32_t want = le32(p + n + 1), got = fl_ldb_crc_mask(fl_ldb_crc32c(p, n + 1));
    if (want != got && !(t->flags & FL_LDB_NO_CHECKSUMS))
        return fail(err, cap, FL_ERR_CORRUPT,
                    "%s at offset %llu (%zu bytes): the masked CRC32C of its contents and type is "
                    "%08x, its trailer says %08x", what, (ull)off, n, got, want);
    if (p[n] == 1)
        return fail(err, cap, FL_ERR_VERSION, "%s at offset %llu is compressed with snappy; "
                    "filterlab opens LevelDB with compression off", what, (ull)off);
    if (p[n] != 0)
        return fail(err, cap, FL_ERR_CORRUPT, "%s at offset %llu: compression type %u, expected 0 "
                    "(none) or 1 (snappy)", what, (ull)off, p[n]);
    *out = p;
    return FL_OK;
}

/* A walk over a block's entries; the key is rebuilt into key[], whose size
 * (the entries' bytes) bounds every key of the block. */
typedef struct biter {
    const uint8_t *b;
    size_t data_end, pos, at;       /* entries end; next entry; this entry  */
    uint32_t nrest, ri;             /* restart count; next restart to match */
    bool every_restart;             /* every entry must be a restart point  */
    uint8_t *key;
    size_t klen;
    const uint8_t *delta;           /* this entry's key delta, in the block */
    fl_slice value;
    uint64_t off;
    const char *what;
} biter;

static void bi_end(biter *it) { free(it->key); it->key = NULL; }

static int bi_start(biter *it, const uint8_t *b, size_t n, uint64_t off, const char *what,
                    char *err, size_t cap) {
    memset(it, 0, sizeof *it);
    it->b = b;
    it->off = off;
    it->what = what;
    if (n < 4)
        return fail(err, cap, FL_ERR_CORRUPT, "%s at offset %llu: %zu bytes, too few for its "
                    "restart count", what, (ull)off, n);
    uint32_t nr = le32(b + n - 4);
    if (nr == 0 || nr > (n - 4) / 4)
        return fail(err, cap, FL_ERR_CORRUPT, "%s at offset %llu: %u restart points, expected 1 to "
                    "%zu in its %zu bytes", what, (ull)off, nr, (n - 4) / 4, n);
    it->nrest = nr;
    it->data_end = n - 4 - 4 * (size_t)nr;
    for (uint32_t i = 0, prev = 0; i < nr; i++) {
        uint32_t r = le32(b + it->data_end + 4 * (size_t)i);
        bool ok = i == 0 ? r == 0 : r > prev;
        if (!ok || (r >= it->data_end && !(nr == 1 && it->data_end == 0)))
            return fail(err, cap, FL_ERR_CORRUPT, "%s at offset %llu: restart %u is byte %u, expected "
                        "%s and before the entries' end at byte %zu", what, (ull)off, i, r,
                        i == 0 ? "0" : "past the previous one", it->data_end);
        prev = r;
    }
    it->key = malloc(it->data_end ? it->data_end : 1);
    if (!it->key) return fail(err, cap, FL_ERR_NOMEM, "%s: out of memory", what);
    return FL_OK;
}

/* 1: the next entry (key, klen, delta, value, at); 0: the end; < 0: error. */
static int bi_next(biter *it, char *err, size_t cap) {
    const char *w = it->what;
    ull o = (ull)it->off;
    if (it->pos >= it->data_end) {
        if (it->ri < it->nrest && it->data_end > 0)
            return fail(err, cap, FL_ERR_CORRUPT, "%s at offset %llu: restart %u (byte %u) is not an "
                        "entry's start", w, o, it->ri, le32(it->b + it->data_end + 4 * (size_t)it->ri));
        return 0;
    }
    const uint8_t *p = it->b + it->pos, *end = it->b + it->data_end;
    uint64_t shared, nonsh, vlen;
    it->at = it->pos;
    if (!get_varint(&p, end, 5, &shared) || !get_varint(&p, end, 5, &nonsh) ||
        !get_varint(&p, end, 5, &vlen))
        return fail(err, cap, FL_ERR_CORRUPT, "%s at offset %llu: the entry at byte %zu has a malformed "
                    "header (expected three minimal varint32s before byte %zu)", w, o, it->at, it->data_end);
    if (shared > it->klen)
        return fail(err, cap, FL_ERR_CORRUPT, "%s at offset %llu: the entry at byte %zu shares %llu bytes "
                    "with the previous key, which has %zu", w, o, it->at, (ull)shared, it->klen);
    size_t room = (size_t)(end - p);
    if (nonsh > room || vlen > room - nonsh)
        return fail(err, cap, FL_ERR_CORRUPT, "%s at offset %llu: the entry at byte %zu has %llu key bytes "
                    "and %llu value bytes, past the entries' end at byte %zu", w, o, it->at, (ull)nonsh,
                    (ull)vlen, it->data_end);
    uint32_t r = it->ri < it->nrest ? le32(it->b + it->data_end + 4 * (size_t)it->ri) : UINT32_MAX;
    if (r == it->at) {
        if (shared)
            return fail(err, cap, FL_ERR_CORRUPT, "%s at offset %llu: the entry at byte %zu is restart %u "
                        "but shares %llu bytes, expected 0", w, o, it->at, it->ri, (ull)shared);
        it->ri++;
    } else if (r < it->at) {
        return fail(err, cap, FL_ERR_CORRUPT, "%s at offset %llu: restart %u (byte %u) is not an entry's "
                    "start", w, o, it->ri, r);
    } else if (it->every_restart) {
        return fail(err, cap, FL_ERR_CORRUPT, "%s at offset %llu: the entry at byte %zu is not a restart "
                    "point; LevelDB restarts at every index entry", w, o, it->at);
    } else if (nonsh > 0 && shared < it->klen && p[0] == it->key[shared]) {
        return fail(err, cap, FL_ERR_CORRUPT, "%s at offset %llu: the entry at byte %zu shares %llu bytes "
                    "with the previous key, fewer than their common prefix", w, o, it->at, (ull)shared);
    }
    if (nonsh) memcpy(it->key + shared, p, (size_t)nonsh);
    it->klen = (size_t)(shared + nonsh);
    it->delta = p;
    it->value = (fl_slice){ p + nonsh, (size_t)vlen };
    it->pos = (size_t)(p + nonsh + vlen - it->b);
    return 1;
}

/* ---- Opening ------------------------------------------------------------------ */

/* Checks a key of the index or a data block is an internal key. */
static int check_ikey(const biter *it, char *err, size_t cap) {
    char s[200];
    if (it->klen < 8)
        return fail(err, cap, FL_ERR_CORRUPT, "%s at offset %llu: the entry at byte %zu has the %zu-byte key "
                    "%s, shorter than an internal key's 8-byte tag", it->what, (ull)it->off, it->at,
                    it->klen, show(it->key, it->klen, s));
    unsigned type = it->key[it->klen - 8];
    if (type > 1)
        return fail(err, cap, FL_ERR_CORRUPT, "%s at offset %llu: the entry at byte %zu (user key %s) has "
                    "type %u, expected 1 (value) or 0 (deletion)", it->what, (ull)it->off, it->at,
                    show(it->key, it->klen - 8, s), type);
    return FL_OK;
}

static int set_key(fl_buf *b, const uint8_t *k, size_t n) {
    fl_buf_reset(b);
    return fl_buf_append(b, k, n);
}

/* Data block j at (off, size), named by the index entry ix: its entries,
 * their order after *prev (the last key so far; empty before the first),
 * the index key's bounds (previous index key *pidx < first key; last key
 * <= ix's key). */
static int check_data(fl_ldb_table *t, size_t j, uint64_t off, uint64_t size, const biter *ix,
                      fl_buf *prev, const fl_buf *pidx, char *err, size_t cap) {
    char what[48], s1[200], s2[200];
    snprintf(what, sizeof what, "data block %zu", j);
    const uint8_t *b;
    int rc = read_block(t, off, size, what, &b, err, cap);
    if (rc) return rc;
    biter it;
    rc = bi_start(&it, b, (size_t)size, off, what, err, cap);
    size_t n = 0;
    while (rc == 0 && (rc = bi_next(&it, err, cap)) == 1) {
        rc = check_ikey(&it, err, cap);
        if (rc) break;
        uint64_t tag = le64(it.key + it.klen - 8);
        if ((tag & 0xff) == 0 && it.value.len) {
            rc = fail(err, cap, FL_ERR_CORRUPT, "%s at offset %llu: the deletion at byte %zu has a %zu-byte "
                      "value, expected none", what, (ull)off, it.at, it.value.len);
            break;
        }
        if (prev->len && ikey_cmp(prev->data, prev->len, it.key, it.klen) >= 0) {
            rc = fail(err, cap, FL_ERR_CORRUPT, "%s at offset %llu: the entry at byte %zu (%s, seq %llu) "
                      "does not follow the previous one (%s, seq %llu) in internal key order", what,
                      (ull)off, it.at, show(it.key, it.klen - 8, s1), (ull)(tag >> 8),
                      show(prev->data, prev->len - 8, s2), (ull)(le64(prev->data + prev->len - 8) >> 8));
            break;
        }
        if (n == 0 && pidx->len && ikey_cmp(pidx->data, pidx->len, it.key, it.klen) >= 0) {
            rc = fail(err, cap, FL_ERR_CORRUPT, "%s at offset %llu: its first key %s is not after the "
                      "previous block's index key %s", what, (ull)off, show(it.key, it.klen - 8, s1),
                      show(pidx->data, pidx->len - 8, s2));
            break;
        }
        if (j == 0 && n == 0) t->smallest = (fl_slice){ it.delta, it.klen - 8 };   /* shared is 0 */
        if ((rc = set_key(prev, it.key, it.klen))) break;
        n++;
    }
    bi_end(&it);
    if (rc < 0) return rc;
    if (n == 0)
        return fail(err, cap, FL_ERR_CORRUPT, "%s at offset %llu has no entries; LevelDB writes none empty",
                    what, (ull)off);
    if (ikey_cmp(prev->data, prev->len, ix->key, ix->klen) > 0)
        return fail(err, cap, FL_ERR_CORRUPT, "%s at offset %llu: its last key %s is after its index key %s "
                    "(index entry at byte %zu)", what, (ull)off, show(prev->data, prev->len - 8, s1),
                    show(ix->key, ix->klen - 8, s2), ix->at);
    if (t->nblocks == t->bcap) {
        size_t c = t->bcap ? 2 * t->bcap : 16;
        ldb_block *nb = realloc(t->blocks, c * sizeof *nb);
        if (!nb) return fail(err, cap, FL_ERR_NOMEM, "out of memory");
        t->blocks = nb;
        t->bcap = c;
    }
    t->blocks[t->nblocks++] = (ldb_block){ off, size, n };
    t->entries += n;
    return FL_OK;
}

/* The index block and, through it, every data block. */
static int check_index(fl_ldb_table *t, char *err, size_t cap) {
    biter ix;
    fl_buf prev, pidx;
    fl_buf_init(&prev);
    fl_buf_init(&pidx);
    int rc = bi_start(&ix, t->index, t->index_len, t->index_off, "index block", err, cap);
    ix.every_restart = true;
    uint64_t next = 0;
    while (rc == 0 && (rc = bi_next(&ix, err, cap)) == 1) {
        uint64_t off, size;
        if ((rc = check_ikey(&ix, err, cap))) break;
        if (!get_handle(ix.value.data, ix.value.len, &off, &size)) {
            rc = fail(err, cap, FL_ERR_CORRUPT, "index block at offset %llu: the value of the entry at byte "
                      "%zu is not a block handle (exactly two minimal varint64s)", (ull)t->index_off, ix.at);
            break;
        }
        if (off != next) {
            rc = fail(err, cap, FL_ERR_CORRUPT, "index block at offset %llu: entry %zu (byte %zu) places data "
                      "block %zu at offset %llu, expected %llu (%s)", (ull)t->index_off, t->nblocks, ix.at,
                      t->nblocks, (ull)off, (ull)next, next ? "right after the previous block" : "the file's start");
            break;
        }
        if ((rc = check_data(t, t->nblocks, off, size, &ix, &prev, &pidx, err, cap))) break;
        if ((rc = set_key(&pidx, ix.key, ix.klen))) break;
        next = off + size + TRAILER_LEN;
    }
    bi_end(&ix);
    if (rc == 0 && t->nblocks == 0)
        rc = fail(err, cap, FL_ERR_CORRUPT, "index block at offset %llu has no entries: a table without "
                  "entries", (ull)t->index_off);
    if (rc == 0) {
        t->data_end = next;
        t->largest_len = prev.len - 8;
        t->largest = malloc(t->largest_len ? t->largest_len : 1);
        if (!t->largest) rc = fail(err, cap, FL_ERR_NOMEM, "out of memory");
        else memcpy(t->largest, prev.data, t->largest_len);
    }
    fl_buf_free(&prev);
    fl_buf_free(&pidx);
    return rc < 0 ? rc : FL_OK;
}

/* The metaindex: the filter block's name and handle, if any. */
static int check_meta(fl_ldb_table *t, const uint8_t *b, size_t n, uint64_t off, uint64_t *foff,
                      uint64_t *fsize, char *err, size_t cap) {
    biter it;
    int rc = bi_start(&it, b, n, off, "metaindex block", err, cap);
    while (rc == 0 && (rc = bi_next(&it, err, cap)) == 1) {
        rc = 0;
        if (it.klen < 7 || memcmp(it.key, "filter.", 7) != 0) continue;
        char s[200];
        if (t->fname)
            rc = fail(err, cap, FL_ERR_CORRUPT, "metaindex block at offset %llu: a second filter entry %s at "
                      "byte %zu, expected at most one", (ull)off, show(it.key, it.klen, s), it.at);
        else if (!get_handle(it.value.data, it.value.len, foff, fsize))
            rc = fail(err, cap, FL_ERR_CORRUPT, "metaindex block at offset %llu: the value of %s at byte %zu "
                      "is not a block handle (exactly two minimal varint64s)", (ull)off,
                      show(it.key, it.klen, s), it.at);
        else if (!(t->fname = malloc(it.klen - 6)))
            rc = fail(err, cap, FL_ERR_NOMEM, "out of memory");
        else {
            memcpy(t->fname, it.key + 7, it.klen - 7);
            t->fname[it.klen - 7] = '\0';
        }
    }
    bi_end(&it);
    return rc < 0 ? rc : FL_OK;
}

/* The first and one-past-last data block starting in window i. */
static void window(const fl_ldb_table *t, size_t i, size_t *from, size_t *to) {
    size_t lo = 0, hi = t->nblocks;
    while (lo < hi) {                               /* first block with window >= i */
        size_t mid = lo + (hi - lo) / 2;
        if ((t->blocks[mid].off >> t->base_lg) < i) lo = mid + 1; else hi = mid;
    }
    *from = *to = lo;
    while (*to < t->nblocks && (t->blocks[*to].off >> t->base_lg) == i) (*to)++;
}

static int check_filter(fl_ldb_table *t, uint64_t off, uint64_t size, char *err, size_t cap) {
    int rc = read_block(t, off, size, "filter block", &t->fblock, err, cap);
    if (rc) return rc;
    const uint8_t *b = t->fblock;
    size_t n = t->fblock_len = (size_t)size;
    if (n < 5)
        return fail(err, cap, FL_ERR_CORRUPT, "filter block at offset %llu: %zu bytes, fewer than its 5-byte "
                    "tail (offset array start, base_lg)", (ull)off, n);
    t->base_lg = b[n - 1];
    if (t->base_lg != BASE_LG)
        return fail(err, cap, FL_ERR_CORRUPT, "filter block at offset %llu: base_lg %u, expected 11 (2 KiB "
                    "windows, as LevelDB 1.23 writes)", (ull)off, t->base_lg);
    size_t arr = le32(b + n - 5);
    if (arr > n - 5 || (n - 5 - arr) % 4)
        return fail(err, cap, FL_ERR_CORRUPT, "filter block at offset %llu: its offset array starts at byte "
                    "%zu, expected a whole number of 4-byte offsets up to byte %zu", (ull)off, arr, n - 5);
    t->farray = arr;
    t->nfilters = (n - 5 - arr) / 4;
    uint64_t last = t->blocks[t->nblocks - 1].off >> BASE_LG, end = t->data_end >> BASE_LG;
    uint64_t want = last + 1 > end ? last + 1 : end;
    if (t->nfilters != want)
        return fail(err, cap, FL_ERR_CORRUPT, "filter block at offset %llu: %zu filters, expected %llu (one "
                    "per 2 KiB window up to the data's end at %llu)", (ull)off, t->nfilters, (ull)want,
                    (ull)t->data_end);
    size_t at = 0;
    for (size_t i = 0; i < t->nfilters; i++) {
        size_t s = le32(b + arr + 4 * i), e = i + 1 < t->nfilters ? le32(b + arr + 4 * (i + 1)) : arr;
        if (s != at || e < s || e > arr)
            return fail(err, cap, FL_ERR_CORRUPT, "filter block at offset %llu: filter %zu spans bytes [%zu, "
                        "%zu), expected to start at %zu and end by the offset array at %zu", (ull)off, i,
                        s, e, at, arr);
        size_t from, to;
        window(t, i, &from, &to);
        if (from == to && e > s)
            return fail(err, cap, FL_ERR_CORRUPT, "filter block at offset %llu: filter %zu has %zu bytes, but "
                        "no data block starts in its window [%llu, %llu): expected it empty", (ull)off, i,
                        e - s, (ull)i << BASE_LG, (ull)(i + 1) << BASE_LG);
        at = e;
    }
    return FL_OK;                                   /* N >= 1: the last one ends at arr */
}

static int parse(fl_ldb_table *t, char *err, size_t cap) {
    const uint8_t *f = t->file + t->len - FOOTER_LEN, *p = f;
    size_t foot = t->len - FOOTER_LEN;
    uint64_t mo, ms, io, is, fo = 0, fs = 0;
    if (le64(f + 40) != MAGIC)
        return fail(err, cap, FL_ERR_CORRUPT, "footer at offset %zu: magic %016llx, expected %016llx (not a "
                    "LevelDB table)", foot, (ull)le64(f + 40), (ull)MAGIC);
    if (!get_varint(&p, f + 40, 10, &mo) || !get_varint(&p, f + 40, 10, &ms) ||
        !get_varint(&p, f + 40, 10, &io) || !get_varint(&p, f + 40, 10, &is))
        return fail(err, cap, FL_ERR_CORRUPT, "footer at offset %zu: expected two block handles (four minimal "
                    "varint64s) in its first 40 bytes", foot);
    for (; p < f + 40; p++)
        if (*p)
            return fail(err, cap, FL_ERR_CORRUPT, "footer at offset %zu: padding byte %zu is %02x, expected 0",
                        foot, (size_t)(p - f), *p);
    const uint8_t *meta;
    int rc = read_block(t, io, is, "index block", &t->index, err, cap);
    if (!rc) rc = read_block(t, mo, ms, "metaindex block", &meta, err, cap);
    if (rc) return rc;
    t->index_len = (size_t)is;
    t->index_off = io;
    if (io + is + TRAILER_LEN != foot)
        return fail(err, cap, FL_ERR_CORRUPT, "index block at offset %llu ends (with its trailer) at %llu, "
                    "expected the footer at %zu", (ull)io, (ull)(io + is + TRAILER_LEN), foot);
    if (mo + ms + TRAILER_LEN != io)
        return fail(err, cap, FL_ERR_CORRUPT, "metaindex block at offset %llu ends (with its trailer) at %llu, "
                    "expected the index block at %llu", (ull)mo, (ull)(mo + ms + TRAILER_LEN), (ull)io);
    if ((rc = check_meta(t, meta, (size_t)ms, mo, &fo, &fs, err, cap))) return rc;
    if ((rc = check_index(t, err, cap))) return rc;
    if (!t->fname) {
        if (t->data_end != mo)
            return fail(err, cap, FL_ERR_CORRUPT, "the data blocks end at %llu but the metaindex block starts "
                        "at %llu, with no filter block between", (ull)t->data_end, (ull)mo);
        return FL_OK;
    }
    if (fo != t->data_end || fo + fs + TRAILER_LEN != mo)
        return fail(err, cap, FL_ERR_CORRUPT, "filter block at offset %llu, %llu bytes: expected it from the "
                    "data's end at %llu to the metaindex block at %llu (less its trailer)", (ull)fo, (ull)fs,
                    (ull)t->data_end, (ull)mo);
    return check_filter(t, fo, fs, err, cap);
}

int fl_ldb_table_open(const uint8_t *file, size_t len, unsigned flags, fl_ldb_table **out,
                      char *err, size_t err_len) {
    if (err && err_len) err[0] = '\0';
    if (!out) return fail(err, err_len, FL_ERR_INVALID, "no place for the table");
    *out = NULL;
    if ((!file && len) || (flags & ~FL_LDB_NO_CHECKSUMS))
        return fail(err, err_len, FL_ERR_INVALID, "a NULL file or unknown flags %#x", flags);
    if (len < FOOTER_LEN)
        return fail(err, err_len, FL_ERR_CORRUPT, "%zu bytes, fewer than the 48-byte footer", len);
    fl_ldb_table *t = calloc(1, sizeof *t);
    if (!t) return fail(err, err_len, FL_ERR_NOMEM, "out of memory");
    t->file = file;
    t->len = len;
    t->flags = flags;
    t->base_lg = BASE_LG;
    int rc = parse(t, err, err_len);
    if (rc) {
        fl_ldb_table_free(t);
        return rc;
    }
    *out = t;
    return FL_OK;
}

void fl_ldb_table_free(fl_ldb_table *t) {
    if (!t) return;
    free(t->blocks);
    free(t->largest);
    free(t->fname);
    free(t);
}

/* ---- Reading ------------------------------------------------------------------ */

size_t fl_ldb_table_entries_count(const fl_ldb_table *t) { return t->entries; }
fl_slice fl_ldb_table_smallest(const fl_ldb_table *t) { return t->smallest; }
fl_slice fl_ldb_table_largest(const fl_ldb_table *t) { return (fl_slice){ t->largest, t->largest_len }; }
size_t fl_ldb_table_block_count(const fl_ldb_table *t) { return t->nblocks; }
uint64_t fl_ldb_table_block_offset(const fl_ldb_table *t, size_t i) { return i < t->nblocks ? t->blocks[i].off : 0; }
uint64_t fl_ldb_table_block_size(const fl_ldb_table *t, size_t i) { return i < t->nblocks ? t->blocks[i].size : 0; }

/* Blocks [from, to)'s entries to fn. */
static int walk(const fl_ldb_table *t, size_t from, size_t to, fl_ldb_entry_fn fn, void *arg) {
    for (size_t j = from; j < to; j++) {
        biter it;
        const ldb_block *bl = &t->blocks[j];
        int rc = bi_start(&it, t->file + bl->off, (size_t)bl->size, bl->off, "data block", NULL, 0), stop = 0;
        while (rc == 0 && !stop && (rc = bi_next(&it, NULL, 0)) == 1) {
            uint64_t tag = le64(it.key + it.klen - 8);
            rc = 0;
            stop = fn(arg, (fl_slice){ it.key, it.klen - 8 }, tag >> 8, (tag & 0xff) == 0, it.value);
        }
        bi_end(&it);
        if (rc < 0) return rc;
        if (stop) return stop;
    }
    return FL_OK;
}

int fl_ldb_table_each(const fl_ldb_table *t, fl_ldb_entry_fn fn, void *arg) {
    return walk(t, 0, t->nblocks, fn, arg);
}

/* The user key of data block j's first entry against key: <0, 0, >0; an
 * empty block sorts first; *rc a decoding error. */
static int first_vs(const fl_ldb_table *t, size_t j, const uint8_t *key, size_t len, int *rc) {
    biter it;
    const ldb_block *bl = &t->blocks[j];
    int c = -1;
    *rc = bi_start(&it, t->file + bl->off, (size_t)bl->size, bl->off, "data block", NULL, 0);
    if (*rc == 0 && (*rc = bi_next(&it, NULL, 0)) == 1) {
        *rc = 0;
        c = fl_key_cmp(it.key, it.klen - 8, key, len);
    }
    if (*rc > 0) *rc = 0;                           /* (no entry) */
    bi_end(&it);
    return c;
}

typedef struct holds_arg { const uint8_t *key; size_t len; bool found; } holds_arg;

/* (entries come in key order: past the key, it is not there) */
static int holds_entry(void *arg, fl_slice user_key, uint64_t seq, bool deletion, fl_slice value) {
    holds_arg *h = arg;
    (void)seq; (void)deletion; (void)value;
    int c = fl_key_cmp(user_key.data, user_key.len, h->key, h->len);
    h->found = c == 0;
    return c >= 0;
}

int fl_ldb_table_holds(const fl_ldb_table *t, const uint8_t *key, size_t len) {
    size_t lo = 0, hi = t->nblocks;                 /* the first block whose first key >= key */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int rc, c = first_vs(t, mid, key, len, &rc);
        if (rc < 0) return rc;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    /* the key's entries start in the block before it (at its end) or in it */
    holds_arg h = { key, len, false };
    int rc = walk(t, lo ? lo - 1 : 0, t->nblocks, holds_entry, &h);
    return rc < 0 ? rc : h.found;
}

const char *fl_ldb_table_filter_name(const fl_ldb_table *t) { return t->fname; }
size_t fl_ldb_table_filter_count(const fl_ldb_table *t) { return t->nfilters; }
unsigned fl_ldb_table_filter_base_lg(const fl_ldb_table *t) { return t->base_lg; }
uint64_t fl_ldb_table_filter_block_bytes(const fl_ldb_table *t) { return t->fblock_len; }

fl_slice fl_ldb_table_filter(const fl_ldb_table *t, size_t i) {
    if (i >= t->nfilters) return (fl_slice){ NULL, 0 };
    size_t s = le32(t->fblock + t->farray + 4 * i);
    size_t e = i + 1 < t->nfilters ? le32(t->fblock + t->farray + 4 * (i + 1)) : t->farray;
    return (fl_slice){ t->fblock + s, e - s };
}

int fl_ldb_table_filter_for(const fl_ldb_table *t, const uint8_t *key, size_t len, fl_slice *filter,
                            size_t *index) {
    if (!t->fname) return 0;
    biter it;
    int rc = bi_start(&it, t->index, t->index_len, t->index_off, "index block", NULL, 0);
    uint64_t off = 0, size;
    bool found = false;
    while (rc == 0 && (rc = bi_next(&it, NULL, 0)) == 1) {
        rc = 0;
        int c = fl_key_cmp(it.key, it.klen - 8, key, len);
        if (c > 0 || (c == 0 && le64(it.key + it.klen - 8) <= SEEK_TAG)) {   /* index key >= lookup key */
            found = get_handle(it.value.data, it.value.len, &off, &size);
            break;
        }
    }
    bi_end(&it);
    if (rc < 0) return rc;
    if (!found || (off >> t->base_lg) >= t->nfilters) return 0;
    if (filter) *filter = fl_ldb_table_filter(t, (size_t)(off >> t->base_lg));
    if (index) *index = (size_t)(off >> t->base_lg);
    return 1;
}

int fl_ldb_table_filter_keys(const fl_ldb_table *t, size_t i, fl_ldb_entry_fn fn, void *arg) {
    if (i >= t->nfilters) return FL_OK;
    size_t from, to;
    window(t, i, &from, &to);
    return walk(t, from, to, fn, arg);
}

/* ---- Hash and bloom ------------------------------------------------------------ */

uint32_t fl_ldb_hash(const uint8_t *data, size_t n, uint32_t seed) {
    const uint32_t m = 0xc6a4a793u;
    uint32_t h = seed ^ ((uint32_t)n * m);
    size_t i = 0;
    for (; n - i >= 4; i += 4) {
        h += le32(data + i);
        h *= m;
        h ^= h >> 16;
    }
    size_t rest = n - i;
    if (rest) {
        if (rest == 3) h += (uint32_t)data[i + 2] << 16;
        if (rest >= 2) h += (uint32_t)data[i + 1] << 8;
        h += data[i];
        h *= m;
        h ^= h >> 24;
    }
    return h;
}

uint32_t fl_ldb_bloom_hash(const uint8_t *key, size_t n) { return fl_ldb_hash(key, n, BLOOM_SEED); }

static size_t bloom_k(int bpk) {
    size_t k = (size_t)(bpk * 0.69);
    return k < 1 ? 1 : k > 30 ? 30 : k;
}

/* The bit array's bytes for n keys (without the k byte); false on overflow. */
static bool bloom_bytes(size_t n, int bpk, size_t *bytes) {
    if (bpk > 0 && n > (SIZE_MAX - 7) / (size_t)bpk) return false;
    size_t bits = n * (size_t)bpk;
    if (bits < 64) bits = 64;
    *bytes = (bits + 7) / 8;
    return *bytes < SIZE_MAX;
}

static void bloom_add(uint8_t *a, size_t bits, size_t k, uint32_t h) {
    const uint32_t delta = (h >> 17) | (h << 15);
    for (size_t j = 0; j < k; j++) {
        size_t pos = h % bits;
        a[pos / 8] |= (uint8_t)(1u << (pos % 8));
        h += delta;
    }
}

int fl_ldb_bloom_build(const fl_slice *keys, size_t n, int bits_per_key, fl_buf *out) {
    size_t bytes;
    if (bits_per_key < 0 || (n && !keys) || !out || !bloom_bytes(n, bits_per_key, &bytes))
        return FL_ERR_INVALID;
    uint8_t *a = calloc(bytes + 1, 1);
    if (!a) return FL_ERR_NOMEM;
    size_t k = bloom_k(bits_per_key);
    for (size_t i = 0; i < n; i++) bloom_add(a, bytes * 8, k, fl_ldb_bloom_hash(keys[i].data, keys[i].len));
    a[bytes] = (uint8_t)k;
    int rc = fl_buf_append(out, a, bytes + 1);
    free(a);
    return rc;
}

bool fl_ldb_bloom_may_match_hash(fl_slice f, uint32_t h) {
    if (f.len < 2) return false;
    size_t bits = (f.len - 1) * 8, k = f.data[f.len - 1];
    if (k > 30) return true;
    const uint32_t delta = (h >> 17) | (h << 15);
    for (size_t j = 0; j < k; j++) {
        size_t pos = h % bits;
        if (!(f.data[pos / 8] & (1u << (pos % 8)))) return false;
        h += delta;
    }
    return true;
}

bool fl_ldb_bloom_may_match(fl_slice filter, const uint8_t *key, size_t n) {
    return fl_ldb_bloom_may_match_hash(filter, fl_ldb_bloom_hash(key, n));
}

/* ---- The bloom rebuilt from a table ---------------------------------------------- */

static size_t window_keys(const fl_ldb_table *t, size_t i) {
    size_t from, to, n = 0;
    window(t, i, &from, &to);
    for (size_t j = from; j < to; j++) n += t->blocks[j].entries;
    return n;
}

typedef struct bloom_acc { uint8_t *a; size_t bits, k; } bloom_acc;

static int acc_key(void *arg, fl_slice key, uint64_t seq, bool deletion, fl_slice value) {
    (void)seq, (void)deletion, (void)value;
    bloom_acc *b = arg;
    bloom_add(b->a, b->bits, b->k, fl_ldb_bloom_hash(key.data, key.len));
    return 0;
}

static bool is_bloom(const fl_ldb_table *t) { return t->fname && strcmp(t->fname, BLOOM_NAME) == 0; }

int fl_ldb_bloom_check(const fl_ldb_table *t, int bits_per_key, char *err, size_t err_len) {
    if (err && err_len) err[0] = '\0';
    if (!is_bloom(t) || bits_per_key < 0)
        return fail(err, err_len, FL_ERR_INVALID, "no bloom to check: filter policy %s, bits per key %d",
                    t->fname ? t->fname : "(none)", bits_per_key);
    for (size_t i = 0; i < t->nfilters; i++) {
        fl_slice f = fl_ldb_table_filter(t, i);
        size_t n = window_keys(t, i), bytes = 0, k = bloom_k(bits_per_key);
        ull lo = (ull)i << t->base_lg, hi = (ull)(i + 1) << t->base_lg;
        if (n == 0) {
            if (f.len == 0) continue;              /* open checked it */
            return fail(err, err_len, FL_ERR_CORRUPT, "filter %zu (window [%llu, %llu)): %zu bytes for no keys",
                        i, lo, hi, f.len);
        }
        if (!bloom_bytes(n, bits_per_key, &bytes))
            return fail(err, err_len, FL_ERR_INVALID, "filter %zu: %zu keys at %d bits per key overflow", i, n,
                        bits_per_key);
        unsigned sk = f.len ? f.data[f.len - 1] : 0;
        if (f.len != bytes + 1 || sk != k)
            return fail(err, err_len, FL_ERR_CORRUPT, "filter %zu (window [%llu, %llu), %zu keys) differs from "
                        "LevelDB's bloom at %d bits per key: stored %zu bytes with k %u, rebuilt %zu bytes "
                        "with k %zu", i, lo, hi, n, bits_per_key, f.len, sk, bytes + 1, k);
        bloom_acc acc = { calloc(bytes, 1), bytes * 8, k };
        if (!acc.a) return fail(err, err_len, FL_ERR_NOMEM, "out of memory");
        int rc = fl_ldb_table_filter_keys(t, i, acc_key, &acc);
        size_t only_s = 0, only_r = 0, first_s = 0, first_r = 0;
        for (size_t bit = 0; !rc && bit < bytes * 8; bit++) {
            bool s = (f.data[bit / 8] >> (bit % 8)) & 1, r = (acc.a[bit / 8] >> (bit % 8)) & 1;
            if (s && !r && !only_s++) first_s = bit;
            if (r && !s && !only_r++) first_r = bit;
        }
        free(acc.a);
        if (rc) return fail(err, err_len, rc, "filter %zu: reading its keys failed", i);
        char fs[40] = "", fr[40] = "";
        if (only_s) snprintf(fs, sizeof fs, " (first: bit %zu)", first_s);
        if (only_r) snprintf(fr, sizeof fr, " (first: bit %zu)", first_r);
        if (only_s || only_r)
            return fail(err, err_len, FL_ERR_CORRUPT, "filter %zu (window [%llu, %llu), %zu keys, %zu bytes, "
                        "k %zu) differs from LevelDB's bloom at %d bits per key: %zu bits set in the stored "
                        "filter but not the rebuilt one%s, %zu set in the rebuilt but not the stored%s", i, lo,
                        hi, n, f.len, k, bits_per_key, only_s, fs, only_r, fr);
    }
    return FL_OK;
}

int fl_ldb_bloom_infer_bits(const fl_ldb_table *t) {
    if (!is_bloom(t)) return 0;
    size_t *n = malloc((t->nfilters ? t->nfilters : 1) * sizeof *n);
    if (!n) return 0;
    for (size_t i = 0; i < t->nfilters; i++) n[i] = window_keys(t, i);
    int found = 0;
    for (int bpk = 1; bpk <= 1000 && !found; bpk++) {
        bool ok = true;
        for (size_t i = 0; ok && i < t->nfilters; i++) {
            fl_slice f = fl_ldb_table_filter(t, i);
            size_t bytes;
            if (n[i] == 0) continue;
            ok = bloom_bytes(n[i], bpk, &bytes) && f.len == bytes + 1 && (size_t)f.data[f.len - 1] == bloom_k(bpk);
        }
        if (ok) found = bpk;
    }
    free(n);
    return found;
}
