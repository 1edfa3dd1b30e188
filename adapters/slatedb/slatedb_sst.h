/*
 * slatedb_sst.h -- filterlab's own reader of SlateDB's SST files (the crate
 * slatedb 0.18.0: SST format versions 1 and 2, uncompressed, untransformed,
 * compacted -- not WAL -- SSTs), its bloom filter and its filter hash.  The
 * truth the SlateDB adapter checks SlateDB against: each SST's entries,
 * tombstones, key range and filter bits, read from the file by this code
 * and not by SlateDB.  slatedb_sst.c says what the format is.
 *
 * Ownership: fl_sdb_sst_open borrows the file's bytes; they must stay
 * unchanged until fl_sdb_sst_free.  Every fl_slice the reader hands out
 * (names, filter data, info keys, index keys, values) points into those
 * bytes and lives as long as they do -- except a row's KEY, which is
 * rebuilt from prefix compression into the reader's scratch buffer and is
 * valid during the callback only: copy what you keep.
 *
 * Errors: FL_OK, or a negative FL_ERR_* (engine/filter.h) with err (when
 * err_len > 0) saying what is wrong, where (block, byte offset in the file)
 * and what was expected:
 *   FL_ERR_CORRUPT  anything the format forbids, a checksum, a length past
 *                   its region, keys out of order, stats that disagree
 *   FL_ERR_VERSION  a well-formed file using what this reader does not do:
 *                   a compression codec (named), a WAL SST
 *   FL_ERR_INVALID  a merge operand asked for as an fl_row_entry (which
 *                   has no merge kind), or a bad argument
 *   FL_ERR_NOMEM    out of memory
 * Allocation is bounded by the input's length.
 */
#ifndef FL_SLATEDB_SST_H
#define FL_SLATEDB_SST_H

#include "../../engine/engine.h"

/* ---- An SST ------------------------------------------------------------ */

typedef struct fl_sdb_sst fl_sdb_sst;       /* a parsed SST over borrowed bytes */

/* Parses and verifies file[0..len) WHOLE: footer, info, index, stats and
 * filter blocks, and every data block (checksum, entry encoding, key order,
 * agreement with the info's key range, the index and the stats).  On
 * success *out is the SST; on error *out is NULL.  file must outlive *out. */
int  fl_sdb_sst_open(const uint8_t *file, size_t len, fl_sdb_sst **out, char *err, size_t err_len);

/* FL_SDB_NO_CHECKSUMS: skips every CRC comparison (all else is still
 * checked).  For the fuzzer only, whose mutations would otherwise never
 * get past a checksum to the decoders behind it. */
#define FL_SDB_NO_CHECKSUMS 1u
int  fl_sdb_sst_open_flags(const uint8_t *file, size_t len, unsigned flags, fl_sdb_sst **out,
                           char *err, size_t err_len);
void fl_sdb_sst_free(fl_sdb_sst *t);        /* NULL is fine */

/* The SST info (the footer's metadata) and what the reader found. */
typedef struct fl_sdb_info {
    uint16_t format_version;                /* 1: v1 data blocks, 2: v2        */
    uint64_t meta_offset;                   /* where the info block starts     */
    bool has_first_key, has_last_key;       /* the info's first/last_entry     */
    fl_slice first_key, last_key;           /* = the first and last entry's key */
    uint64_t index_offset, index_len;       /* regions, each with its CRC      */
    uint64_t filter_offset, filter_len;     /* filter_len 0: no filter block   */
    uint64_t stats_offset, stats_len;       /* stats_len 0: no stats block     */
    bool legacy_filter;                     /* filter_format Legacy (0)        */
    size_t num_blocks, num_rows;            /* data blocks; entries in them    */
    uint64_t num_values, num_tombstones, num_merges;   /* counted by the reader */
    bool has_stats;                         /* the stats block's counts (which */
    uint64_t raw_key_size, raw_val_size;    /* the reader checked) and sizes   */
} fl_sdb_info;
const fl_sdb_info *fl_sdb_sst_info(const fl_sdb_sst *t);

/* Data block i (< num_blocks), as the index records it. */
typedef struct fl_sdb_block {
    uint64_t offset;        /* in the file                                      */
    uint64_t len;           /* its bytes with the CRC, without alignment padding */
    uint32_t encoded_len;   /* the index's field: 0 unless the block is padded  */
    fl_slice index_key;     /* the index's key: <= the block's first key and >
                               the previous block's last one (the first block's
                               is empty as 0.18.0 writes it)                    */
    size_t first_row, rows; /* its entries' positions in SST order              */
} fl_sdb_block;
const fl_sdb_block *fl_sdb_sst_block(const fl_sdb_sst *t, size_t i);

/* ---- Entries ----------------------------------------------------------- */

typedef enum fl_sdb_kind {
    FL_SDB_VALUE = 1, FL_SDB_TOMBSTONE = 2, FL_SDB_MERGE = 3
} fl_sdb_kind;

/* One stored entry, as the file holds it (no MVCC, TTL or merge applied). */
typedef struct fl_sdb_row {
    fl_slice key;           /* valid during the callback only                   */
    fl_slice value;         /* empty for a tombstone; borrowed from the file    */
    uint64_t seq;
    fl_sdb_kind kind;
    bool has_create_ts, has_expire_ts;
    int64_t create_ts, expire_ts;
    uint32_t block;         /* the data block that holds it                     */
} fl_sdb_row;
typedef int (*fl_sdb_row_fn)(void *arg, const fl_sdb_row *row);

/* Every entry in SST order (key ascending, then seq descending); a nonzero
 * return from fn stops the walk and is returned. */
int fl_sdb_sst_rows(const fl_sdb_sst *t, fl_sdb_row_fn fn, void *arg, char *err, size_t err_len);

/* The same as fl_row_entry: a value is FL_ENTRY_PUT, a tombstone
 * FL_ENTRY_DELETE; a merge operand is FL_ERR_INVALID (err names its key),
 * since fl_row_entry has no kind for it -- use fl_sdb_sst_rows. */
int fl_sdb_sst_entries(const fl_sdb_sst *t, fl_entry_fn fn, void *arg, char *err, size_t err_len);

/* ---- Filters ------------------------------------------------------------ */

/* The sub-filters of the composite filter block, in stored order (a Legacy
 * block is one filter named "_bf"); 0 without a filter block. */
typedef struct fl_sdb_filter { fl_slice name, data; } fl_sdb_filter;
size_t fl_sdb_sst_filter_count(const fl_sdb_sst *t);
const fl_sdb_filter *fl_sdb_sst_filter(const fl_sdb_sst *t, size_t i);   /* NULL past the end */

/* The built-in bloom policy's name, taken apart: "_bf" [":p=" EXTRACTOR]
 * [":wh=0"].  false when name is not a bloom's.  extractor is a slice of
 * name (empty without one). */
bool fl_sdb_bloom_name_parse(fl_slice name, bool *whole_key, fl_slice *extractor);

/* SlateDB's filter_hash: SipHash-1-3 with the key (0, 0) of the bytes. */
uint64_t fl_sdb_hash(fl_slice bytes);
/* SipHash-1-3 with key (k0, k1), k0/k1 the key's bytes 0-7 and 8-15 read
 * little-endian (siphash.c). */
uint64_t fl_sdb_siphash13(uint64_t k0, uint64_t k1, const uint8_t *data, size_t len);
/* CRC-32 (IEEE 802.3, reflected 0xEDB88320, as crc32fast), the checksum
 * of every SlateDB block. */
uint32_t fl_sdb_crc32(const uint8_t *data, size_t len);

/* A bloom's data: num_probes (u16 big-endian), then the bit array, bit i
 * being byte i/8's bit i%8 (LSB first).  bits borrows the data. */
typedef struct fl_sdb_bloom { uint32_t nbits; uint32_t k; const uint8_t *bits; } fl_sdb_bloom;
int  fl_sdb_bloom_decode(fl_slice data, fl_sdb_bloom *out, char *err, size_t err_len);
/* SlateDB's BloomFilter::might_contain, bit-exact: false on zero bits,
 * true on zero probes. */
bool fl_sdb_bloom_might_contain_hash(const fl_sdb_bloom *b, uint64_t h);
bool fl_sdb_bloom_might_contain(const fl_sdb_bloom *b, fl_slice bytes);
/* The chance that a hash drawn uniformly from all 2^64 passes, EXACTLY,
 * given the bits (slatedb_bloom.c derives it); -1 when out of memory.  Costs
 * about nbits^2 * k / 64 word operations, fourfold per doubling of nbits:
 * measured 0.02 s at 2^13 bits, 0.3 s at 2^15, 4 s at 2^17 (k = 6). */
double fl_sdb_bloom_expected_fp(const fl_sdb_bloom *b);

/* The probe count SlateDB picks for bits_per_key: (f32)bpk * 0.69f, truncated. */
uint16_t fl_sdb_bloom_num_probes(uint32_t bits_per_key);
/* Appends to out the encoded bloom (what a composite block stores as the
 * filter's data) SlateDB's BloomFilterBuilder builds from these hashes, in
 * this order, with bits_per_key.  FL_ERR_INVALID where SlateDB would panic
 * (a bit count that wraps to 0). */
int fl_sdb_bloom_build(uint32_t bits_per_key, const uint64_t *hashes, size_t n, fl_buf *out);

/* A prefix extractor, as SlateDB's PrefixExtractor::prefix_len (and
 * filterlab's fl_prefix_extractor_ops.prefix_len): true and *len (<= the
 * target's length) when the target has a prefix.  The bloom policy's name
 * says which extractor its filter was built with (":p=NAME"). */
typedef bool (*fl_sdb_prefix_fn)(void *arg, const fl_target *target, size_t *len);

/* SlateDB's BloomFilter::might_match, bit-exact: a POINT query with
 * whole-key filtering asks the key's hash; otherwise, with an extractor
 * (prefix_len non-NULL) that gives the target a prefix, that prefix's hash;
 * otherwise true (the filter cannot answer). */
bool fl_sdb_bloom_might_match(const fl_sdb_bloom *b, bool whole_key, fl_sdb_prefix_fn prefix_len,
                              void *arg, const fl_target *target);

/* The hashes SlateDB's BloomFilterBuilder adds for this SST's entries, in
 * order (malloc'd into *out, n in *n): per entry, the hash of its prefix
 * (prefix_len of a POINT target) when it differs from the last prefix
 * hashed, then (whole_key) the hash of its key -- once per ENTRY, so every
 * version of a key adds its hash again.  prefix_len NULL: no extractor. */
int fl_sdb_bloom_key_hashes(const fl_sdb_sst *t, bool whole_key, fl_sdb_prefix_fn prefix_len,
                            void *arg, uint64_t **out, size_t *n, char *err, size_t err_len);

/* Whether bloom sub-filter sub of t (its name a bloom's: "_bf"...) holds
 * exactly what SlateDB's BloomFilterBuilder builds over t's own entries
 * (fl_sdb_bloom_key_hashes with prefix_len, the extractor its name says;
 * then fl_sdb_bloom_build) at bits per key (when >= 1: the configured
 * value, for an SST written under it), or else at some whole bits per key
 * from 1 to 4096 that gives its bit count and probe count -- the SST does
 * not record the bits per key its writer was given.  FL_OK with defect ""
 * when it does, or, without bits, when no bits per key of that range is
 * possible for its size (not judged);
 * FL_OK with defect saying what differs (bits set that the rebuild leaves
 * clear, and clear that it sets: false negatives) when it does not; an
 * error reading t's entries. */
int fl_sdb_bloom_check(const fl_sdb_sst *t, const fl_sdb_filter *sub, fl_sdb_prefix_fn prefix_len, void *arg,
                       int bits, char *defect, size_t defect_len);

#endif /* FL_SLATEDB_SST_H */
