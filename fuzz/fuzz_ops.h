/*
 * fuzz_ops.h -- the byte format fuzz_ops.c decodes into a workload, shared
 * with wl2ops.c, which encodes workload files into it for seed corpora.
 *
 *   input    = options op*                 (at most FUZZ_OPS_MAX ops)
 *   options  = [flags][memtable][sst][block] list [list if flags bit 3]
 *              flags: bit 0 legacy_filters, bits 1-2 min_filter_keys,
 *              bit 3 a compactor list follows, bits 4-5 l0_trigger - 1,
 *              bits 6-7 max_runs - 1; memtable_bytes and sst_bytes are
 *              256 + 16 * byte, block_bytes 32 + 4 * byte
 *   list     = [n]: with FILTERLAB_FUZZ_POLICIES set and bit 7 of n, the
 *              candidate (n & 127) % count; else n % 4 blooms (0: "none"),
 *              each [bits_hi][bits_lo][mode][param]: millibits
 *              (hi * 256 + lo) % 21001, whole_key = !(mode & 1),
 *              extractor (mode >> 1) % 5 = none, fixed, capped, delim,
 *              lastdelim with N = 1 + param % 5 or C = alphabet[param % 6];
 *              a bloom whose name is already in the list is left out
 *   op       = [code] args; the kind is FUZZ_OP_KIND[code & 15]
 *              put key (value: code >> 4 times 3 bytes), del key,
 *              delrange key key, get key [ctx], scan_prefix key [ctx],
 *              scan key key, flush, compact, compact full, reopen options;
 *              a get or scan_prefix with bit 7 of code has ctx = [n] then
 *              1 + n % 8 bytes; the scan code with (code >> 4) % 4 =
 *              1, 2, 3 is instead seek key [p], seek_for_prev key [p] or
 *              set_options options, with n = 1 + p % 8 and prefix_mode
 *              (p >> 3) % 3 - 1; a get code with bits 4-6 all set is
 *              instead multiget [m] then 2 + m % 7 keys [ctx]
 *   key      = [c]: c < 0xF0: c % 6 bytes, each alphabet[byte % 6];
 *              c >= 0xF0: c - 0xF0 raw bytes
 * Missing bytes at the end read as 0.
 *
 * For RocksDB (fuzz_rocksdb) the same bytes read as what its engine can
 * express: options' flags are bit 0 rocksdb.partition_filters (metadata
 * blocks of 64 + 4 * block bytes), bits 1-2 rocksdb.memtable_prefix_bloom
 * 0, 0.05, 0.1, 0.25, bit 3 rocksdb.filter=ribbon, bits 4-5 l0_trigger - 1,
 * bit 6 rocksdb.format_version=4 (else 5), bit 7 rocksdb.index_shortening=
 * none, and with an odd sst byte rocksdb.get=multiget; no compactor, legacy
 * filters or min_filter_keys; a list holds n % 2 blooms (lastdelim reads as
 * delim, no extractor keeps whole keys).
 * set_options = [how][memtable][sst][param]: the sizes; with how & 3 = 0,
 * 1, 2 and the extractor in force RocksDB's own, the bloom in force with
 * no extractor, fixed:N or capped:N (N = 1 + param % 5); with how & 4 the
 * memtable bloom ratio (how >> 3) % 4; with how & 0x20 rocksdb.get, multiget
 * when how & 0x40.  By default (FILTERLAB_FUZZ_ROCKSDB_AVOID_KNOWN=0 turns
 * it off) fuzz_rocksdb steers clear of RocksDB 7.8.3's known bugs (docs/rocksdb.md): fixed runs wrapped,
 * partitioned filters keep the default index shortening, and set_options
 * neither switches to fixed nor changes the extractor while a memtable
 * bloom is on, nor turns one on.
 */
#ifndef FL_FUZZ_OPS_H
#define FL_FUZZ_OPS_H

#include "../workloads/workload.h"

#define FUZZ_OPS_MAX       64
#define FUZZ_KEY_RAW       0xF0
#define FUZZ_ALPHABET_SIZE 6
static const uint8_t FUZZ_ALPHABET[FUZZ_ALPHABET_SIZE] = { 'a', 'b', 'c', ':', 0x00, 0xff };

/* Code 15 is a second put, so that writes outnumber everything else. */
static const fl_op_kind FUZZ_OP_KIND[16] = {
    FL_OP_PUT, FL_OP_PUT, FL_OP_PUT, FL_OP_PUT, FL_OP_DEL, FL_OP_DELRANGE,
    FL_OP_GET, FL_OP_GET, FL_OP_SCAN_PREFIX, FL_OP_SCAN_PREFIX, FL_OP_SCAN,
    FL_OP_FLUSH, FL_OP_COMPACT, FL_OP_COMPACT /* full */, FL_OP_REOPEN, FL_OP_PUT,
};
#define FUZZ_CODE_COMPACT_FULL 13
#define FUZZ_CODE_SCAN         10

/* fuzz_decode.c: the workload of an input, an open then at most
 * FUZZ_OPS_MAX ops, for filterlab's engine or RocksDB's. */
typedef enum fuzz_target { FUZZ_FOR_FILTERLAB, FUZZ_FOR_ROCKSDB } fuzz_target;
void fuzz_decode(const uint8_t *data, size_t size, fuzz_target target, fl_workload *w);

#endif
