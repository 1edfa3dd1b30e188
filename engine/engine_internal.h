/*
 * engine_internal.h -- declarations shared by the engine's own files: the
 * entry and range-tombstone types, the memtable, SST writer and reader, the
 * filter block codec, the manifest, and the fl_db structure.
 *
 * Ordering invariant everywhere: entries are sorted by (key ascending,
 * bytewise, shorter first; then seq descending), so the first entry of a key
 * is its newest version.  The two orders are inline here (fl_bytes_cmp,
 * fl_entry_cmp): every merge, seek and skiplist step is made of them; so
 * are key heads (fl_key_head: the first 8 bytes as a number, ordered like
 * the keys where they differ), which searches compare before key bytes.
 */
#ifndef FL_ENGINE_INTERNAL_H
#define FL_ENGINE_INTERNAL_H

#include "engine.h"
#include "filter_internal.h"

#include <stdio.h>
#include <string.h>

#define FL_MAX_KEY   65535u
#define FL_MAX_VALUE (1u << 20)

/* ---- Entries --------------------------------------------------------- */

typedef struct fl_entry {
    const uint8_t *key; size_t klen;
    const uint8_t *val; size_t vlen;
    uint64_t seq;
    uint8_t kind;               /* FL_ENTRY_PUT or FL_ENTRY_DELETE */
} fl_entry;

typedef struct fl_rtomb {
    uint8_t *start; size_t slen;
    uint8_t *end;   size_t elen;
    uint64_t seq;
} fl_rtomb;

/* One piece of a tombstone index: [key, the next piece's key) is covered
 * by tombstones whose highest seq is max_seq (0: none). */
typedef struct fl_rtomb_frag { const uint8_t *key; size_t len; uint64_t max_seq; } fl_rtomb_frag;

/* A list of range tombstones and its index: the key space cut at every start
 * and end of the first `indexed` tombstones into disjoint pieces, each with
 * the highest seq covering it, so "the newest tombstone over k" is one
 * binary search instead of a pass over every tombstone.  The pieces borrow
 * the tombstones' bytes.  The tombstones past `indexed` (a memtable's latest,
 * or all of them when an index could not be built) are passed over by every
 * lookup; indexed == count says there are none. */
typedef struct fl_rtomb_list {
    fl_rtomb *items; size_t count, cap;
    fl_rtomb_frag *frags; size_t frag_count; size_t indexed;
} fl_rtomb_list;

/* Bytewise order (memcmp, shorter prefix first): -1, 0 or 1.  Inline, eight
 * bytes at a time as big-endian words (the last 4 to 7 bytes as two
 * overlapping 4-byte words), because every merge, seek and skiplist step is
 * a string of these on short keys. */
static inline int fl_bytes_cmp(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen) {
    size_t n = alen < blen ? alen : blen;
    for (; n >= 8; a += 8, b += 8, n -= 8) {
        uint64_t x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (x != y) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            x = __builtin_bswap64(x);
            y = __builtin_bswap64(y);
#endif
            return x < y ? -1 : 1;
        }
    }
    if (n >= 4) {              /* the first four, then the last four (overlapping) */
        for (size_t at = 0;; at = n - 4) {
            uint32_t x, y;
            memcpy(&x, a + at, 4);
            memcpy(&y, b + at, 4);
            if (x != y) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
                x = __builtin_bswap32(x);
                y = __builtin_bswap32(y);
#endif
                return x < y ? -1 : 1;
            }
            if (at == n - 4) break;
        }
    } else {
        for (; n; a++, b++, n--)
            if (*a != *b) return *a < *b ? -1 : 1;
    }
    return alen < blen ? -1 : alen > blen ? 1 : 0;
}

/* A key's first 8 bytes as a big-endian number, zero-padded: heads order
 * like their keys wherever they differ (a < b when head(a) < head(b)), so
 * a search compares numbers and reads key bytes only on equal heads. */
static inline uint64_t fl_key_head(const uint8_t *k, size_t len) {
    uint64_t x = 0;
    if (len >= 8) {
        memcpy(&x, k, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        x = __builtin_bswap64(x);
#endif
        return x;
    }
    if (len >= 4) {             /* the first four and the last four, overlapping */
        uint32_t a, b;
        memcpy(&a, k, 4);
        memcpy(&b, k + len - 4, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        a = __builtin_bswap32(a);
        b = __builtin_bswap32(b);
#endif
        return (uint64_t)a << 32 | (((uint64_t)b << (8 * (8 - len))) & 0xffffffffu);
    }
    for (size_t i = 0; i < len; i++) x |= (uint64_t)k[i] << (56 - 8 * i);
    return x;
}

/* fl_bytes_cmp of a and b given their heads ha and hb (fl_key_head). */
static inline int fl_head_cmp(uint64_t ha, const uint8_t *a, size_t alen,
                              uint64_t hb, const uint8_t *b, size_t blen) {
    if (ha != hb) return ha < hb ? -1 : 1;
    if (alen >= 8 && blen >= 8) return fl_bytes_cmp(a + 8, alen - 8, b + 8, blen - 8);
    return fl_bytes_cmp(a, alen, b, blen);
}

/* Whether a and b are the same key, given their heads (fl_key_head): a
 * head holds the whole of a key of up to 8 bytes. */
static inline bool fl_head_eq(uint64_t ha, const uint8_t *a, size_t alen,
                              uint64_t hb, const uint8_t *b, size_t blen) {
    return ha == hb && alen == blen && (alen <= 8 || memcmp(a + 8, b + 8, alen - 8) == 0);
}

/* Entry order: key ascending, then seq descending. */
static inline int fl_entry_cmp(const fl_entry *a, const fl_entry *b) {
    int c = fl_bytes_cmp(a->key, a->klen, b->key, b->klen);
    if (c) return c;
    return a->seq > b->seq ? -1 : a->seq < b->seq ? 1 : 0;
}

static inline bool fl_bytes_eq(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen) {
    return alen == blen && fl_bytes_cmp(a, alen, b, blen) == 0;
}

bool fl_has_prefix(const uint8_t *k, size_t klen, const uint8_t *p, size_t plen);
/* The smallest key greater than every key with prefix p: sets *out/len and
 * returns true, or false when there is none (p empty or all 0xFF). */
bool fl_prefix_successor(const uint8_t *p, size_t plen, uint8_t **out, size_t *out_len);
bool fl_rtomb_covers(const fl_rtomb *rt, const uint8_t *k, size_t klen);
int  fl_rtomb_list_add(fl_rtomb_list *l, const uint8_t *s, size_t slen,
                       const uint8_t *e, size_t elen, uint64_t seq);
void fl_rtomb_list_free(fl_rtomb_list *l);
/* (Re)builds the index, O(n log n); FL_ERR_NOMEM leaves it stale (lookups
 * then also pass over the tombstones it has not taken). */
int  fl_rtomb_list_index(fl_rtomb_list *l);
/* Keeps the index fit for a memtable's reads between its range deletes.
 * While it has at most FL_RTOMB_FEW_PIECES pieces it is made whole: up to
 * FL_RTOMB_ONE_BY_ONE new tombstones go in one at a time, O(pieces) each,
 * more in one sweep over the pieces and their sorted bounds (never a
 * rebuild: that would sort every tombstone of the memtable).  Past that the
 * new ones stay past `indexed` until there are more than 8 + sqrt(count) of
 * them, and are then merged into the pieces in one sweep (about sqrt(n) of
 * work a tombstone, and a pass over at most 8 + sqrt(n) of them a lookup,
 * where one at a time would be O(n) a tombstone).  Any error leaves the
 * index as it was: lookups stay right. */
#define FL_RTOMB_ONE_BY_ONE 8
#define FL_RTOMB_FEW_PIECES 8192
int  fl_rtomb_list_catch_up(fl_rtomb_list *l);
/* The first of l's pieces lo..hi-1 whose key is above k (hi if none). */
size_t fl_rtomb_first_after(const fl_rtomb_list *l, size_t lo, size_t hi, const uint8_t *k, size_t klen);
/* The highest seq of a tombstone in l covering k, 0 if none. */
uint64_t fl_rtomb_max_seq(const fl_rtomb_list *l, const uint8_t *k, size_t klen);
/* The same answers for a stream of keys in ascending order (a merge): the
 * cursor walks the index forward, O(1) amortized a key; a key below the
 * last one is answered by a search.  Start with { .list = l }. */
typedef struct fl_rtomb_cursor { const fl_rtomb_list *list; size_t at; } fl_rtomb_cursor;
uint64_t fl_rtomb_cursor_max_seq(fl_rtomb_cursor *c, const uint8_t *k, size_t klen);
void *fl_memdup(const void *p, size_t n);      /* n == 0 gives a 1-byte block */

/* ---- Memtable: a skiplist in an arena ---------------------------------- */

typedef struct fl_memtable fl_memtable;
int    fl_memtable_new(fl_memtable **out);
void   fl_memtable_free(fl_memtable *mt);
int    fl_memtable_add(fl_memtable *mt, const fl_entry *e);
int    fl_memtable_add_rtomb(fl_memtable *mt, fl_slice s, fl_slice e, uint64_t seq);
size_t fl_memtable_bytes(const fl_memtable *mt);
bool   fl_memtable_empty(const fl_memtable *mt);
/* The newest entry of key, or false. */
bool   fl_memtable_get(const fl_memtable *mt, const uint8_t *k, size_t klen, fl_entry *out);
/* The range tombstones, their index brought up to date. */
const fl_rtomb_list *fl_memtable_rtombs(fl_memtable *mt);
/* Iteration from the first entry >= key (NULL: from the start), or
 * backward from the last entry whose key is <= key (NULL: from the end;
 * each step back is a search from the top, O(log n)). */
typedef struct fl_mt_iter { const void *node; const fl_memtable *mt; } fl_mt_iter;
void fl_memtable_seek(const fl_memtable *mt, const uint8_t *k, size_t klen, fl_mt_iter *it);
bool fl_memtable_next(fl_mt_iter *it, fl_entry *out);
void fl_memtable_seek_for_prev(const fl_memtable *mt, const uint8_t *k, size_t klen, fl_mt_iter *it);
bool fl_memtable_prev(fl_mt_iter *it, fl_entry *out);

/* ---- Filter block (SPEC 2.6) ------------------------------------------- */

typedef struct fl_named_filter { char *name; fl_slice data; } fl_named_filter;
/* Composite block parse: names are copied, data points into block.
 * FL_ERR_CORRUPT on duplicates, trailing bytes, or lengths past the end. */
int  fl_composite_parse(fl_slice block, fl_named_filter **out, size_t *count);
void fl_named_filters_free(fl_named_filter *f, size_t count);
int  fl_composite_encode(const fl_named_filter *f, size_t count, fl_buf *out);

/* ---- SST files ---------------------------------------------------------- */

#define FL_FILTER_LEGACY    0
#define FL_FILTER_COMPOSITE 1

/* What an SST's info block says (SPEC 2.6), plus the manifest's view. */
typedef struct fl_sst_info {
    uint64_t id;
    uint8_t *smallest; size_t smallest_len;
    uint8_t *largest;  size_t largest_len;
    bool     largest_exclusive;
    uint8_t *first_key; size_t first_key_len;   /* point entries only */
    uint8_t *last_key;  size_t last_key_len;
    uint64_t entries, range_tombstones, min_seq, max_seq;
    uint64_t data_len, rt_offset, rt_len, index_offset, index_len;
    uint64_t filter_offset, filter_len;
    int      filter_format;                      /* absent: Legacy */
    size_t   filter_count;
    char   **filter_names;                       /* "" for Legacy  */
    /* Exact hash counts of the built-in bloom sub-filters, by name (tag 18,
     * one field each): what the expected-FP formula needs and the bloom
     * encoding does not hold.  Absent: the count is estimated. */
    size_t   hash_note_count;
    char   **hash_note_names;
    uint64_t *hash_note_m;
    uint64_t file_bytes;
    /* Identity (tags 19, 20): the id the SST was written as and the
     * identity of the database it was written for; absent in SSTs of older
     * writers (then not checked). */
    bool     has_stored_id, has_db_id;
    uint64_t stored_id, db_id;
} fl_sst_info;

void fl_sst_info_free(fl_sst_info *info);
int  fl_sst_info_add_hash_note(fl_sst_info *info, const char *name, uint64_t m);
/* The noted hash count of sub-filter name, or false. */
bool fl_sst_info_hash_note(const fl_sst_info *info, const char *name, uint64_t *m);
/* The info block's tagged fields.  Decode fills defaults for absent tags. */
int  fl_sst_info_encode(const fl_sst_info *info, fl_buf *out);
int  fl_sst_info_decode(fl_slice block, fl_sst_info *info);
void fl_sst_path(const char *dir, uint64_t id, char *out, size_t out_len);

typedef struct fl_sst_write_cfg {
    fl_env *env;
    uint64_t db_id;                   /* the database's identity (0: none)  */
    const char *dir;
    const fl_policy_list *policies;
    uint64_t min_filter_keys, block_bytes;
    int legacy_filters;
    bool sync;                        /* fsync the finished file            */
    fl_calls *calls;                  /* the policies' call context         */
} fl_sst_write_cfg;

typedef struct fl_sst_writer fl_sst_writer;
int  fl_sst_writer_new(const fl_sst_write_cfg *cfg, uint64_t id, fl_sst_writer **out,
                       char *err, size_t err_len);
int  fl_sst_writer_add(fl_sst_writer *w, const fl_entry *e);
int  fl_sst_writer_add_rtomb(fl_sst_writer *w, const fl_rtomb *rt);
uint64_t fl_sst_writer_entries(const fl_sst_writer *w);
uint64_t fl_sst_writer_bytes(const fl_sst_writer *w);
/* Writes filters, index, info and footer, fsyncs; fills info (owned). */
int  fl_sst_writer_finish(fl_sst_writer *w, fl_sst_info *info, char *err, size_t err_len);
void fl_sst_writer_abort(fl_sst_writer *w);    /* frees and unlinks */
/* What made rc (from add or add_rtomb) fail, naming the file and the OS's
 * reason. */
void fl_sst_writer_why(const fl_sst_writer *w, int rc, char *err, size_t err_len);

/* One sub-filter of an open SST as seen by the current configuration. */
typedef struct fl_sst_subfilter {
    char *name;
    const fl_filter_policy *policy;   /* NULL: no configured policy matches */
    fl_filter *filter;                /* NULL: unusable                     */
    bool bloom;                       /* a built-in bloom (or Legacy)       */
    double bloom_expected_fp;         /* when bloom                         */
} fl_sst_subfilter;

typedef struct fl_sst_reader {
    fl_sst_info info;
    uint64_t smallest_head, largest_head;   /* fl_key_head of info's smallest, largest */
    fl_calls *calls;                  /* the db's: filters are called there */
    fl_env *env;
    char path[4096];
    fl_file *file;
    bool legacy;                      /* the block is Legacy                */
    bool filter_error;                /* the filter block was unusable      */
    size_t sub_count;
    fl_sst_subfilter *subs;
    fl_rtomb_list rtombs;
    /* lazily loaded index */
    bool index_loaded;
    bool index_sorted;                /* last keys never go down (as written) */
    size_t index_count;
    /* viewed: the block's checksum held where the env's view showed it,
     * bytes that stay put while the file is open (sst_read.c) */
    struct fl_index_entry { uint8_t *last; size_t last_len; uint64_t off, len, head; bool viewed; } *index;
    /* per data block sought: the offset and key head of each entry from
     * the first, as far as a seek decoded (heads, then offs: cap of each,
     * one allocation; end: where the last kept entry ends), so a seek is a
     * binary search instead of a decode from the start (sst_read.c) */
    struct fl_seek_points {
        uint64_t *heads; uint32_t *offs; uint32_t count, cap, end; uint8_t state;
    } *points;
    /* the last data block read: in block_buf (block_cap: its size, reused),
     * or, from an env that can view its files, in the env's memory */
    const uint8_t *block; size_t block_len; uint64_t block_off; bool block_valid;
    uint8_t *block_buf; size_t block_cap;
} fl_sst_reader;

/* Opens an SST: footer, info, range tombstones and filter block (decoded
 * against policies); no index or data block is read.  Errors name the file
 * and block. */
int  fl_sst_open(fl_env *env, const char *dir, uint64_t id, const fl_policy_list *policies, fl_calls *calls,
                 fl_sst_reader **out, uint64_t *filter_errors, char *err, size_t err_len);
void fl_sst_close(fl_sst_reader *r);
/* The verified filter block: 1 and a malloc'ed copy, 0 none, or an error. */
int  fl_sst_filter_bytes(fl_sst_reader *r, uint8_t **out, size_t *len);

/* Iteration over an SST's entries from the first >= key (NULL: start). */
typedef struct fl_sst_iter {
    fl_sst_reader *r;
    size_t block;       /* index of the current block */
    size_t pos;         /* offset in the current block */
    bool done;
} fl_sst_iter;
int  fl_sst_seek(fl_sst_reader *r, const uint8_t *k, size_t klen, fl_sst_iter *it,
                 char *err, size_t err_len);
/* 1 and *e (valid until the next call) / 0 at the end / negative error. */
int  fl_sst_next(fl_sst_iter *it, fl_entry *e, char *err, size_t err_len);
/* Backward iteration over an SST's entries from the last whose key is
 * <= key (NULL: the last), entries of one key oldest first.  *e is valid
 * until the next call; free the iterator with fl_sst_riter_free. */
typedef struct fl_sst_riter {
    fl_sst_reader *r;
    size_t block;       /* the current block + 1; 0 at the end */
    size_t *offs;       /* offsets of the current block's entries still to give */
    size_t n, cap;
} fl_sst_riter;
int  fl_sst_seek_for_prev(fl_sst_reader *r, const uint8_t *k, size_t klen, fl_sst_riter *it,
                          char *err, size_t err_len);
/* 1 and *e / 0 at the start / negative error. */
int  fl_sst_prev(fl_sst_riter *it, fl_entry *e, char *err, size_t err_len);
void fl_sst_riter_free(fl_sst_riter *it);
/* The newest entry of key: 1 found, 0 not, negative error. */
int  fl_sst_get(fl_sst_reader *r, const uint8_t *k, size_t klen, fl_entry *e,
                char *err, size_t err_len);

/* ---- Manifest ------------------------------------------------------------ */

typedef struct fl_run {
    fl_sst_reader **ssts; size_t count;
    /* read.c's note of whether the SSTs' ranges ascend (1) or not (2), for
     * the ssts and count it was made for (so zero, or a run rebuilt, is
     * "not known yet") */
    fl_sst_reader **order_ssts; size_t order_count; int order;
} fl_run;

/* What the MANIFEST says of one SST, to check the file against. */
typedef struct fl_manifest_sst {
    uint64_t id;
    uint8_t *smallest, *largest; size_t smallest_len, largest_len;
    bool     largest_exclusive;
    uint64_t entries, range_tombstones;
} fl_manifest_sst;

typedef struct fl_manifest_data {
    uint64_t next_sst, next_seq;
    uint64_t hash;                               /* XXH3 of the file's bytes */
    uint64_t db_id;                              /* 0: none (an older MANIFEST) */
    fl_manifest_sst *ssts; size_t sst_count;     /* every sst line, in order */
    uint64_t *obsolete; size_t obsolete_count;   /* retired, to be removed */
    uint64_t *l0; size_t l0_count;               /* newest first */
    size_t run_count;
    uint64_t **runs; size_t *run_sizes;          /* newest first, key order */
} fl_manifest_data;

int  fl_manifest_read(fl_env *env, const char *dir, fl_manifest_data *out, char *err, size_t err_len);
void fl_manifest_data_free(fl_manifest_data *m);

/* ---- The database --------------------------------------------------------- */

struct fl_db {
    char dir[4096];
    fl_env *env;                                     /* opt.env or posix */
    const fl_registry *reg;
    fl_options opt;
    fl_policy_list policies, compactor;
    fl_memtable *mem;
    uint64_t next_sst, next_seq;
    fl_sst_reader **l0; size_t l0_count, l0_cap;     /* newest first */
    fl_run *runs; size_t run_count, run_cap;         /* newest first */
    fl_metrics metrics;
    fl_calls *calls;                                 /* opt.calls or own_calls */
    fl_calls *own_calls;
    uint64_t violations_at_open;
    fl_probe_fn trace; void *trace_arg;
    fl_file *lock;                                   /* the LOCK file's lock */
    bool read_only;                                  /* the directory is not writable */
    bool manifest_known;                             /* manifest_hash is the file's */
    uint64_t db_id;                                  /* the database's identity */
    /* SSTs a compaction retired: named in the MANIFEST's obsolete line until
     * their files are removed for good (removed, and the directory synced),
     * so that a crash in between cannot leave them behind. */
    uint64_t *obsolete; size_t obsolete_count, obsolete_cap;
    uint64_t manifest_hash;
    char note[9216];                                 /* fl_db_note */
    char err[1024];
};

int  fl_db_fail(fl_db *db, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int  fl_db_write_manifest(fl_db *db);
/* Opens the SST just written as a reader for the current configuration. */
int  fl_db_open_sst(fl_db *db, uint64_t id, fl_sst_reader **out);
int  fl_db_flush_memtable(fl_db *db);
/* Compaction (compact.c): L0 into a new run when L0 has l0_trigger SSTs
 * (or force), then all runs into one when there are more than max_runs. */
int  fl_compact_auto(fl_db *db, bool force_l0);
/* Removes the files of db->obsolete once a MANIFEST without them in the
 * tree is committed, syncs the directory, and forgets them. */
int  fl_db_remove_obsolete(fl_db *db);
int  fl_compact_full(fl_db *db);

#endif /* FL_ENGINE_INTERNAL_H */
