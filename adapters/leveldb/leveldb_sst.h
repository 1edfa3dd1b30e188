/*
 * leveldb_sst.h -- filterlab's own reader of LevelDB 1.23's table files
 * (NNNNNN.ldb, written uncompressed), its filter block, and LevelDB's bloom
 * filter (leveldb.BuiltinBloomFilter2) and hash re-implemented bit for bit.
 * The truth filterlab checks LevelDB against: each table's entries, key
 * range and filters, read from the file by this code and not by LevelDB.
 * leveldb_sst.c says what the format is.
 *
 * Ownership: fl_ldb_table_open borrows the file's bytes; they must stay
 * unchanged until fl_ldb_table_free.  Every fl_slice the reader hands out
 * (filters, values, the smallest key) points into those bytes and lives as
 * long as they do -- except an entry's USER KEY given to a callback, which
 * is rebuilt from prefix compression into a scratch buffer and is valid
 * during the call only (copy what you keep), and the largest key, which the
 * table owns (valid until fl_ldb_table_free).
 *
 * Errors: FL_OK, or a negative FL_ERR_* (engine/filter.h) with err (when
 * err_len > 0) saying what is wrong, where (the block, its byte offset in
 * the file, the byte in the block) and what was expected:
 *   FL_ERR_CORRUPT  anything the format forbids: the magic, a checksum, a
 *                   length past its region, keys out of order, an index
 *                   that disagrees with its blocks, a filter block laid out
 *                   otherwise than LevelDB 1.23 lays it out
 *   FL_ERR_VERSION  a well-formed block compressed with snappy (filterlab
 *                   opens LevelDB with compression off)
 *   FL_ERR_INVALID  a bad argument
 *   FL_ERR_NOMEM    out of memory
 * Allocation is bounded by the input's length (and, for a bloom rebuild, by
 * the stored filter's size).  No input makes the reader crash or read
 * outside file[0..len).
 */
#ifndef FL_LEVELDB_SST_H
#define FL_LEVELDB_SST_H

#include "../../engine/engine.h"

/* ---- A table ------------------------------------------------------------ */

typedef struct fl_ldb_table fl_ldb_table;  /* a parsed table over borrowed bytes */

/* FL_LDB_NO_CHECKSUMS: skips every CRC comparison (all else is still
 * checked).  For a fuzzer, whose mutations would otherwise never get past
 * a checksum to the decoders behind it. */
#define FL_LDB_NO_CHECKSUMS 1u

/* Parses and verifies file[0..len) WHOLE: the footer; the layout (data
 * blocks from offset 0 back to back, then the filter block, the metaindex
 * and the index block, then the footer); the metaindex and index blocks;
 * every data block (CRC, entries, restart array, internal keys, strict key
 * order across the table, agreement with the index's keys and handles);
 * the filter block's layout (its offsets, one filter per base_lg window up
 * to the data's end, empty for a window where no block starts).  On
 * success *out is the table; on error *out is NULL.  file must outlive
 * *out.  flags: 0 or FL_LDB_NO_CHECKSUMS. */
int  fl_ldb_table_open(const uint8_t *file, size_t len, unsigned flags, fl_ldb_table **out,
                       char *err, size_t err_len);
void fl_ldb_table_free(fl_ldb_table *t);   /* NULL is fine */

/* The entries (all versions, deletions too); a table has at least one. */
size_t fl_ldb_table_entries_count(const fl_ldb_table *t);
/* The smallest and largest user keys (valid while t lives). */
fl_slice fl_ldb_table_smallest(const fl_ldb_table *t);
fl_slice fl_ldb_table_largest(const fl_ldb_table *t);
/* The data blocks, in file order: their count, and block i's offset and
 * size (its contents, without the 5-byte trailer); 0 past the end. */
size_t   fl_ldb_table_block_count(const fl_ldb_table *t);
uint64_t fl_ldb_table_block_offset(const fl_ldb_table *t, size_t i);
uint64_t fl_ldb_table_block_size(const fl_ldb_table *t, size_t i);

/* An entry: user_key (valid during the call only), its sequence number,
 * whether it is a deletion (its value is then whatever was stored, empty
 * as LevelDB writes it), its value (pointing into the file).  A nonzero
 * return stops a walk, which returns it. */
typedef int (*fl_ldb_entry_fn)(void *arg, fl_slice user_key, uint64_t seq, bool deletion,
                               fl_slice value);
/* Every entry in table order: user keys ascending, equal ones newest (the
 * highest seq) first.  FL_OK, fn's nonzero return, or FL_ERR_NOMEM. */
int fl_ldb_table_each(const fl_ldb_table *t, fl_ldb_entry_fn fn, void *arg);
/* Whether t holds an entry (any version, a deletion too) of user key
 * key[0..len): 1 or 0, by a binary search over the data blocks' first
 * keys and a walk of at most the blocks where the key's entries start;
 * FL_ERR_CORRUPT or FL_ERR_NOMEM. */
int fl_ldb_table_holds(const fl_ldb_table *t, const uint8_t *key, size_t len);

/* ---- The filter block ---------------------------------------------------- */

/* The policy name after "filter." in the metaindex (NUL-terminated; NULL
 * when the table has no filter block); the filter count N (0 without a
 * filter block); base_lg (11: 1.23 writes no other, and open refuses
 * another as corrupt); filter i's bytes (empty past N, and for a window
 * where no data block starts); the whole filter block's size (its
 * contents, without the trailer; 0 without one). */
const char *fl_ldb_table_filter_name(const fl_ldb_table *t);
size_t   fl_ldb_table_filter_count(const fl_ldb_table *t);
unsigned fl_ldb_table_filter_base_lg(const fl_ldb_table *t);
fl_slice fl_ldb_table_filter(const fl_ldb_table *t, size_t i);
uint64_t fl_ldb_table_filter_block_bytes(const fl_ldb_table *t);

/* The filter a Get of user key key[0..len) probes, as LevelDB 1.23 picks
 * it: the first index entry >= the lookup key (key, the snapshot's seq,
 * type 1) under the internal key comparator -- so past a separator that
 * LevelDB shortened to exactly key, whose seq is 2^56-1 -- names data
 * block offset o; the filter
 * is number o >> base_lg.  1 with *filter and *index (either may be NULL)
 * when a filter is probed; 0 when the table has no filter block, when the
 * key is after every index key (no block is read, so no filter asked), or
 * when o >> base_lg >= N (LevelDB then answers "may match" unfiltered);
 * FL_ERR_NOMEM. */
int fl_ldb_table_filter_for(const fl_ldb_table *t, const uint8_t *key, size_t len,
                            fl_slice *filter, size_t *index);

/* The user keys filter i was built from, to fn, in order: every entry's
 * (each version, deletions too) of the data blocks that start in window i.
 * FL_OK (none past N), fn's nonzero return, or FL_ERR_NOMEM. */
int fl_ldb_table_filter_keys(const fl_ldb_table *t, size_t i, fl_ldb_entry_fn fn, void *arg);

/* Whether every filter of t is exactly what LevelDB's bloom with
 * bits_per_key builds from its window's keys (fl_ldb_table_filter_keys):
 * FL_OK when all are; FL_ERR_CORRUPT with err naming the first filter that
 * differs (its index and window, key count, bytes and k stored vs rebuilt,
 * and when the sizes agree the bits set in the stored filter but not the
 * rebuilt one and vice versa, with the first of each); FL_ERR_INVALID when
 * t has no filter block, its policy is not "leveldb.BuiltinBloomFilter2",
 * or bits_per_key < 0; FL_ERR_NOMEM.  (0 is LevelDB's too: 64-bit filters, one
 * probe.) */
int fl_ldb_bloom_check(const fl_ldb_table *t, int bits_per_key, char *err, size_t err_len);
/* The smallest bits_per_key in 1..1000 for which LevelDB's bloom gives
 * every filter of t its stored size and k (the table does not record the
 * bits_per_key it was built with); 0 when none does, or t has no bloom. */
int fl_ldb_bloom_infer_bits(const fl_ldb_table *t);

/* ---- LevelDB's hash, bloom and CRC --------------------------------------- */

/* util/hash.cc's Hash (a Murmur-like hash), bit-exact. */
uint32_t fl_ldb_hash(const uint8_t *data, size_t n, uint32_t seed);
/* The bloom's hash: fl_ldb_hash with seed 0xbc9f1d34. */
uint32_t fl_ldb_bloom_hash(const uint8_t *key, size_t n);
/* Appends to out the filter LevelDB's bloom (NewBloomFilterPolicy(
 * bits_per_key)) creates for keys[0..n) (duplicates count): max(64,
 * n * bits_per_key) bits rounded up to bytes, then one byte k.
 * FL_ERR_INVALID for bits_per_key < 0 or a size past SIZE_MAX;
 * FL_ERR_NOMEM (out then unchanged). */
int  fl_ldb_bloom_build(const fl_slice *keys, size_t n, int bits_per_key, fl_buf *out);
/* LevelDB's KeyMayMatch, bit-exact: false for a filter under 2 bytes, true
 * for k > 30 (reserved encodings), else whether every probed bit is set. */
bool fl_ldb_bloom_may_match(fl_slice filter, const uint8_t *key, size_t n);
/* The same test for a precomputed bloom hash h (for random "ghost" items). */
bool fl_ldb_bloom_may_match_hash(fl_slice filter, uint32_t h);
/* CRC-32C (Castagnoli, reflected 0x82F63B78, init and final xor ~0). */
uint32_t fl_ldb_crc32c(const uint8_t *p, size_t n);
/* A block's stored checksum: fl_ldb_crc32c of contents + type byte, masked
 * as LevelDB masks it: ((crc >> 15) | (crc << 17)) + 0xa282ead8. */
uint32_t fl_ldb_crc_mask(uint32_t crc);

#endif /* FL_LEVELDB_SST_H */
