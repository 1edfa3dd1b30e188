/*
 * pebble_sst.h -- filterlab's own reader of Pebble's SST files (the module
 * github.com/cockroachdb/pebble/v2 v2.1.7: TableFormatPebblev4, the row
 * format, uncompressed, CRC32C checksums -- what the adapter's DB with
 * FormatFlushableIngestExcises writes), its table bloom filter and its
 * filter hash.  The truth the Pebble adapter checks Pebble against: each
 * table's entries, range tombstones, key range and filter bits, read from
 * the file by this code and not by Pebble.  pebble_sst.c says what the
 * format is.
 *
 * Ownership: fl_pbl_sst_open borrows the file's bytes; they must stay
 * unchanged until fl_pbl_sst_free.  Every fl_slice the reader hands out
 * (names, filter data, values, tombstone bounds) points into those bytes
 * and lives as long as they do -- except a row's KEY (and a tombstone's
 * START), which are rebuilt from prefix compression into the reader's
 * scratch buffer and are valid during the callback only: copy what you
 * keep.
 *
 * Errors: FL_OK, or a negative FL_ERR_* (engine/filter.h) with err (when
 * err_len > 0) saying what is wrong, where (block, byte offset in the file)
 * and what was expected:
 *   FL_ERR_CORRUPT  anything the format forbids, a checksum, a length past
 *                   its region, keys out of order, properties that disagree
 *   FL_ERR_VERSION  a well-formed file using what this reader does not do:
 *                   a compression codec (named), an xxHash64 checksum, a
 *                   table format other than Pebblev4, range keys, blob
 *                   value handles, meta blocks it does not know (named)
 *   FL_ERR_INVALID  a bad argument
 *   FL_ERR_NOMEM    out of memory
 * Allocation is bounded by the input's length.  No input makes it crash
 * (fuzz/).
 */
#ifndef FL_PEBBLE_SST_H
#define FL_PEBBLE_SST_H

#include "../../engine/engine.h"

/* ---- A table ------------------------------------------------------------ */

typedef struct fl_pbl_sst fl_pbl_sst;       /* a parsed table over borrowed bytes */

/* Parses and verifies file[0..len) WHOLE: footer, metaindex, properties,
 * index (one or two levels), filter, range-deletion block, value blocks and
 * their index, and every data block (checksum, entry encoding, restart
 * points, key order, the value prefix, the obsolete bit, agreement with
 * the index separators, the block properties and the table properties),
 * and that the blocks tile the file.  On success *out is the table; on
 * error *out is NULL.  file must outlive *out. */
int  fl_pbl_sst_open(const uint8_t *file, size_t len, fl_pbl_sst **out, char *err, size_t err_len);

/* FL_PBL_NO_CHECKSUMS: skips every checksum comparison (all else is still
 * checked).  For the fuzzer only. */
#define FL_PBL_NO_CHECKSUMS 1u
int  fl_pbl_sst_open_flags(const uint8_t *file, size_t len, unsigned flags, fl_pbl_sst **out,
                           char *err, size_t err_len);
void fl_pbl_sst_free(fl_pbl_sst *t);        /* NULL is fine */

/* Internal key kinds (the low byte of a trailer, obsolete bit cleared). */
typedef enum fl_pbl_kind {
    FL_PBL_DEL = 0, FL_PBL_SET = 1, FL_PBL_MERGE = 2, FL_PBL_SINGLEDEL = 7,
    FL_PBL_RANGEDEL = 15, FL_PBL_SETWITHDEL = 18, FL_PBL_DELSIZED = 23
} fl_pbl_kind;
const char *fl_pbl_kind_name(unsigned kind);   /* "set", "del", ...; "?" */

#define FL_PBL_SEQ_MAX ((1ull << 56) - 1)      /* a range tombstone end's sentinel seq */

/* What the properties block says (0 / empty when absent). */
typedef struct fl_pbl_props {
    uint64_t num_entries, num_deletions, num_range_deletions, num_merge_operands,
             num_sized_deletions, num_data_blocks, num_value_blocks,
             num_values_in_value_blocks, value_blocks_size, raw_key_size, raw_value_size,
             raw_point_tombstone_key_size, data_size, filter_size, index_size,
             index_partitions, top_level_index_size;
    uint32_t index_type;                    /* 0 one level, 2 two levels         */
    fl_slice comparer, merger, filter_policy, compression, property_collectors;
    bool has_obsolete_collector;            /* user property "obsolete-key"      */
    uint8_t obsolete_id;                    /* its short ID                      */
    bool table_all_obsolete;                /* its table value says every point is */
} fl_pbl_props;

typedef struct fl_pbl_info {
    uint32_t format_version;                /* 4                                 */
    uint8_t checksum_type;                  /* 1 (CRC32C)                        */
    uint64_t metaindex_offset, metaindex_len, index_offset, index_len;  /* footer */
    bool two_level;                         /* the footer's index is a top level */
    size_t num_index_blocks;                /* 1, or the partitions              */
    size_t num_blocks, num_rows, num_range_dels, num_value_blocks;
    uint64_t num_values_in_value_blocks;    /* counted by the reader             */
    uint64_t counts[24];                    /* rows by kind, counted             */
    bool has_filter;                        /* a "fullfilter.NAME" meta block    */
    fl_slice filter_name;                   /* NAME (the policy's name)          */
    fl_slice filter;                        /* its bytes without the block trailer */
    bool has_range;                         /* smallest/largest: of points and   */
    fl_slice smallest, largest;             /* tombstones, internal key order    */
    uint64_t smallest_seq, largest_seq;     /* (largest may be a tombstone end:  */
    unsigned smallest_kind, largest_kind;   /* seq FL_PBL_SEQ_MAX, kind 15)      */
    fl_pbl_props props;
} fl_pbl_info;
const fl_pbl_info *fl_pbl_sst_info(const fl_pbl_sst *t);

/* Data block i (< num_blocks), as the index records it. */
typedef struct fl_pbl_block {
    uint64_t offset, len;   /* in the file; len without the 5-byte trailer      */
    fl_slice sep;           /* its index separator, an internal key (borrowed
                               from the file when the index stores it whole)   */
    bool all_obsolete;      /* its block property says so                       */
    size_t first_row, rows;
} fl_pbl_block;
const fl_pbl_block *fl_pbl_sst_block(const fl_pbl_sst *t, size_t i);

/* ---- Entries ----------------------------------------------------------- */

typedef struct fl_pbl_row {
    fl_slice key;           /* the user key; valid during the callback only     */
    fl_slice value;         /* without the value prefix; a value-block value is
                               the bytes in its value block                     */
    uint64_t seq;
    unsigned kind;          /* fl_pbl_kind                                      */
    bool obsolete;          /* the trailer's obsolete bit (Pebblev4)            */
    bool same_prefix;       /* a SET's value prefix says: same Split prefix as
                               the SET before it                                */
    bool in_value_block;    /* the value was in a value block                   */
    uint32_t shared;        /* key bytes shared with the previous entry          */
    uint32_t block;         /* the data block that holds it                     */
} fl_pbl_row;
typedef int (*fl_pbl_row_fn)(void *arg, const fl_pbl_row *row);

/* Every point entry in table order (internal key order: user key
 * ascending, trailer descending); a nonzero return stops and is returned. */
int fl_pbl_sst_rows(const fl_pbl_sst *t, fl_pbl_row_fn fn, void *arg, char *err, size_t err_len);

/* Every range tombstone [start, end) at seq, in stored (fragmented) order. */
typedef int (*fl_pbl_rangedel_fn)(void *arg, fl_slice start, fl_slice end, uint64_t seq);
int fl_pbl_sst_range_dels(const fl_pbl_sst *t, fl_pbl_rangedel_fn fn, void *arg, char *err, size_t err_len);

/* ---- The bloom (pebble/bloom/bloom.go) ----------------------------------- */

/* Pebble's filter hash: LevelDB's, seed 0xbc9f1d34, the 1-3 tail bytes
 * sign-extended (as RocksDB). */
uint32_t fl_pbl_hash(const uint8_t *p, size_t n);
/* CRC-32C (Castagnoli) and the masked form every block trailer stores. */
uint32_t fl_pbl_crc32c(uint32_t crc, const uint8_t *p, size_t n);
uint32_t fl_pbl_crc_mask(uint32_t crc);

/* A filter's trailer: the last 5 bytes, probes k (u8) and lines (u32 LE). */
typedef struct fl_pbl_bloom {
    const uint8_t *bits;    /* the lines                                        */
    uint32_t lines;         /* the trailer's line count                         */
    uint32_t line_bits;     /* 8 * ((len - 5) / lines), as MayContain takes it */
    unsigned k;
    size_t bytes;           /* len - 5                                          */
} fl_pbl_bloom;
/* false for what MayContain cannot take: <= 5 bytes (a filter that answers
 * no), a line count of 0 or above the bytes (Pebble divides by zero). */
bool fl_pbl_bloom_decode(fl_slice filter, fl_pbl_bloom *out);
/* tableFilter.MayContain, bit-exact: false for <= 5 bytes; false (Pebble
 * panics: integer division by zero) for 0 lines or fewer bytes than lines. */
bool fl_pbl_bloom_may_contain(fl_slice filter, fl_slice key);
bool fl_pbl_bloom_may_contain_hash(fl_slice filter, uint32_t h);
/* calculateProbes: (u32)(bpk * 0.69), clamped to [1, 30]. */
unsigned fl_pbl_bloom_probes(int bits_per_key);
/* Appends what bloom.tableFilterWriter.Finish writes for AddKey calls with
 * keys of these hashes, in order: a hash equal to the one before is
 * skipped; lines = ceil(n * bpk / 512) made odd (0 hashes: no lines, the 5
 * bytes zero).  (The sstable writer stores an EMPTY block instead when no
 * key was added at all.)  FL_ERR_INVALID for a size past 2^32 lines or
 * bytes; FL_ERR_NOMEM. */
int fl_pbl_bloom_build(int bits_per_key, const uint32_t *hashes, size_t n, fl_buf *out);

/* A comparer's Split: the prefix length (<= key.len) of a user key.  NULL
 * means DefaultSplit (the whole key). */
typedef size_t (*fl_pbl_split_fn)(void *arg, fl_slice key);
/* "capped:N" as the adapter uses it: min(len, N) with N = *(size_t *)arg. */
size_t fl_pbl_split_capped(void *arg, fl_slice key);

/* The hashes Pebble's writer adds to the filter for this table, in order
 * (malloc'd into *out, count in *n): fl_pbl_hash(key[:Split(key)]) for
 * EVERY point entry (sets, deletes, single deletes, merges... every
 * version), none for range tombstones; consecutive equal hashes are NOT
 * removed here (the build does that). */
int fl_pbl_filter_hashes(const fl_pbl_sst *t, fl_pbl_split_fn split, void *arg, uint32_t **out,
                         size_t *n, char *err, size_t err_len);

/* Whether t's filter is exactly what Pebble builds over t's own point keys
 * (fl_pbl_filter_hashes with split, then fl_pbl_bloom_build) at bits per
 * key (when >= 0: the configured value, for a table written under it), or
 * else at some bits per key 0..4096 that gives the stored line and probe
 * count -- the table does not record the bits per key.  FL_OK with defect
 * "" when it is, or when t has no filter; FL_OK with defect saying what
 * differs otherwise (bits set that the rebuild leaves clear, clear that it
 * sets: false negatives; or the configured bits, or no bits per key, fits
 * the trailer); an error reading t. */
int fl_pbl_bloom_check(const fl_pbl_sst *t, fl_pbl_split_fn split, void *arg, int bits, char *defect,
                       size_t defect_len);

/* Whether t's Split-dependent bits agree with split: a SET's same-prefix
 * bit is set exactly when the point before it is a SET with the same
 * prefix; a key shares at most the previous key's prefix length with it;
 * the restart points' same-prefix flags.  defect as fl_pbl_bloom_check. */
int fl_pbl_split_check(const fl_pbl_sst *t, fl_pbl_split_fn split, void *arg, char *defect,
                       size_t defect_len);

/* The exact chance that a hash uniform over 2^32 passes t's bloom (given
 * its bits; fl_bloom_legacy_expected_fp, engine.h); -1 when it cannot be
 * computed, 0 for a filter MayContain answers no to everything. */
double fl_pbl_bloom_expected_fp(fl_slice filter);

/* ---- What a Get of Pebble v2.1.7 must probe (pebble_get.c) ---- */

/* A table's point entries and range deletions, copied out of it for
 * lookups by key. */
typedef struct fl_pbl_index fl_pbl_index;
int  fl_pbl_index_build(const fl_pbl_sst *t, fl_pbl_index **out, char *err, size_t err_len);
void fl_pbl_index_free(fl_pbl_index *x);            /* NULL is fine */

/* One live table as a get meets it: its index, its level, and whether a
 * get asks its filter -- a filter block named as the configured policy
 * (Pebble's Options.Filters) -- and, if so, whether that filter is Pebble's
 * bloom (else only the policy that wrote it knows its answers). */
typedef struct fl_pbl_get_table {
    const fl_pbl_sst *t;
    const fl_pbl_index *index;
    int level;
    bool asked, bloom;
} fl_pbl_get_table;

/* The filter probes -- *positive maybes, *negative nos, one per table --
 * that Pebble's Get of key must make over the n live tables v, in Pebble's
 * read order (the L0 tables newest first, then L1..L6), when its
 * memtables hold nothing of the key (mem_deleted false) or a point
 * deletion of it as their newest entry (true); split is key's Split
 * length.  asked (room for n, or NULL) gets the indexes in v of the
 * tables whose filters those are, in order, *nasked of them.  The rule is
 * pebble_get.c's.  FL_OK; FL_ERR_NOTFOUND when the get reaches a table
 * whose filter is asked but not Pebble's bloom. */
int fl_pbl_get_probes(const fl_pbl_get_table *v, size_t n, fl_slice key, size_t split, bool mem_deleted,
                      uint64_t *positive, uint64_t *negative, size_t *asked, size_t *nasked);

/* The filter probes -- as fl_pbl_get_probes -- that a prefix iteration of
 * Pebble v2.1.7 must make over the n live tables v (in Pebble's read
 * order): an iterator with UseL6Filters, bounded below by lo and, when
 * has_hi, above by hi (exclusive), positioned by SeekPrefixGE(lo) with the
 * given prefix (lo's Split prefix), then stepped forward.  split (with
 * arg) is Split, for the tables' smallest keys.  The rule is
 * pebble_get.c's.  FL_ERR_NOTFOUND when a table's range deletion meets
 * the read's range (its rule then re-seeks: not worked out), or the read
 * asks a filter that is not Pebble's bloom. */
int fl_pbl_prefix_probes(const fl_pbl_get_table *v, size_t n, fl_slice lo, fl_slice hi, bool has_hi, fl_slice prefix,
                         fl_pbl_split_fn split, void *arg, uint64_t *positive, uint64_t *negative, size_t *asked,
                         size_t *nasked);

#endif /* FL_PEBBLE_SST_H */
