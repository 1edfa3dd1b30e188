/*
 * rocksdb_internal.h -- what the RocksDB engine's files share, inside the
 * RocksDB adapter only: the mapping of a workload's options onto RocksDB
 * options (rocksdb_options.c; the table of docs/rocksdb.md),
 * and filterlab prefix extractors run inside RocksDB as slice transforms
 * (rocksdb_extractor.c).  rocksdb_engine.c is the engine itself.
 *
 * Everything here exists only when filterlab is built with RocksDB
 * (FL_HAVE_ROCKSDB, set by the Makefile when rocksdb/c.h and librocksdb
 * are installed).
 */
#ifndef FL_ROCKSDB_INTERNAL_H
#define FL_ROCKSDB_INTERNAL_H

#include "../../properties/check.h"

/* The configuration space of `check --engine rocksdb` (rocksdb_space.c). */
extern const fl_space fl_space_rocksdb;

/* The filter of a RocksDB block-based table (rocksdb_sst.c, which says how
 * it is found and what its rate means), from the file's bytes: out->data
 * points into file.  FL_ERR_CORRUPT with err saying what is wrong when the
 * bytes are not such a table.  A table without a filter is FL_SSTF_NONE.
 * These need no RocksDB: they read bytes. */
int fl_rdb_sst_filter_parse(const uint8_t *file, size_t len, fl_sst_filter *out, char *err,
                            size_t err_len);
/* The same from the file at path; the lines a bloom keeps are copied into
 * *owned (free it; NULL when nothing is kept). */
int fl_rdb_sst_filter_read(const char *path, fl_sst_filter *out, uint8_t **owned, char *err,
                           size_t err_len);

#ifdef FL_HAVE_ROCKSDB

#include <rocksdb/c.h>

#pragma GCC visibility push(hidden)

/* One RocksDB option as SetOptions names it ("prefix_extractor",
 * "write_buffer_size"; a block-based table option as "table.NAME") and its
 * value in RocksDB's option-string syntax. */
typedef struct fl_rdb_setting {
    const char *name;
    char value[560];
} fl_rdb_setting;

#define FL_RDB_SETTINGS 24

/* One open's worth of RocksDB configuration, made from fl_options. */
typedef struct fl_rdb_config {
    rocksdb_options_t *options;       /* for rocksdb_open; owned              */
    /* The configured prefix extractor as filterlab made it (whether RocksDB
     * runs its own FixedPrefix/CappedPrefix or this one wrapped): decides
     * whether a scan_prefix is a prefix-mode read.  NULL without one. */
    fl_prefix_extractor *extractor;
    /* rocksdb.get=multiget: a get goes through RocksDB's batched MultiGet
     * (a batch of its one key) instead of Get -- another read path, with
     * its own filter probes (the table's and the memtable's batched
     * MayMatch).  filterlab's choice, not a RocksDB option: no setting. */
    bool multiget;
    uint64_t memtable_bytes;          /* flush when this much was written     */
    uint64_t l0_trigger;              /* compact L0 when it holds this many   */
    /* Every RocksDB option the mapping sets, by name: what set_options
     * compares to find what a change changes.  A filterlab extractor run
     * inside RocksDB has the value "filterlab:" + its spec -- not a value
     * SetOptions can take. */
    fl_rdb_setting settings[FL_RDB_SETTINGS];
    size_t nsettings;
} fl_rdb_config;

/* Checks opt (filterlab's options and the rocksdb.* ones) and makes the
 * RocksDB options that express it.  FL_ERR_INVALID with err naming the
 * option for what RocksDB cannot express or a bad rocksdb.* key or value;
 * RocksDB's own objections come later, from rocksdb_open.  Extractors are
 * made through reg and called through calls (which must outlive the
 * database: RocksDB calls a wrapped extractor from its own threads too). */
int  fl_rdb_config_make(const fl_registry *reg, fl_calls *calls, const fl_options *opt,
                        fl_rdb_config *out, char *err, size_t err_len);
void fl_rdb_config_free(fl_calls *calls, fl_rdb_config *cfg);

/* The changes from one configuration to the next as rocksdb_set_options
 * takes them: keys[i] = values[i], table options gathered into one
 * "block_based_table_factory" = "{NAME=VALUE;...}".  FL_ERR_INVALID with
 * err naming the option when a change cannot be made by name (a filterlab
 * extractor inside RocksDB).  The strings live in *out.  A smaller
 * write_buffer_size is not passed on (the buffer only grows while open):
 * to keeps the one in force. */
typedef struct fl_rdb_changes {
    size_t count;
    const char *keys[FL_RDB_SETTINGS];
    const char *values[FL_RDB_SETTINGS];
    char table[2048];
} fl_rdb_changes;
int  fl_rdb_config_changes(const fl_rdb_config *from, fl_rdb_config *to, fl_rdb_changes *out,
                           char *err, size_t err_len);

/* A RocksDB slice transform running ex (taken over: destroyed through calls
 * when RocksDB drops the transform), every call through the fl_call_*
 * wrappers of calls:
 *   Name()        "filterlab." + the extractor's name, so SSTs written under
 *                 another extractor are never probed with this one;
 *   InDomain(k)   prefix_len(POINT k) is Some;
 *   Transform(k)  k[0..n) for POINT k = Some(n) (the whole key when none:
 *                 "a key without a prefix shares no seek key's prefix");
 *   InRange(d)    prefix_len(POINT d) = Some(len(d)), i.e. d is its own
 *                 prefix (what RocksDB's FixedPrefix and CappedPrefix
 *                 answer; RocksDB 7.8 never calls it: "DEPRECATED").
 * NULL when out of memory (ex is destroyed then too). */
rocksdb_slicetransform_t *fl_rdb_wrap_extractor(fl_calls *calls, fl_prefix_extractor *ex);

#pragma GCC visibility pop

#endif /* FL_HAVE_ROCKSDB */
#endif /* FL_ROCKSDB_INTERNAL_H */
