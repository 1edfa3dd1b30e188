/*
 * leveldb_shim.h -- the few things of LevelDB 1.23 its C API cannot do,
 * done in C++ (leveldb_shim.cc) behind plain C functions, for the LevelDB
 * engine (leveldb_engine.c) only:
 *
 *   - Determinism.  LevelDB compacts in a background thread it schedules
 *     through its Env, whenever it decides to: after a memtable becomes a
 *     table, when L0 holds 4 files, when reads used up a file's seek
 *     allowance.  The shim's Env runs each scheduled job in a thread of
 *     its own, and every call below returns only once no job is pending
 *     or running: what LevelDB does in the background happens inside the
 *     call that caused it, and no thread outlives a call.  So the same
 *     workload gives the same files, and the process may fork between
 *     calls (LevelDB's own Env keeps one thread for the process's life).
 *   - No fsync when the database is throwaway (sync 0): Sync() flushes.
 *   - A flush: LevelDB has no call that only writes the memtable to a
 *     table; CompactRange(NULL, "") does that first and then compacts the
 *     tables whose key range reaches the empty key, which only a table
 *     holding the empty key does.
 *   - Filter policies whose every answer is counted: LevelDB's own bloom
 *     (NewBloomFilterPolicy, its name and bits unchanged) and a policy of
 *     C callbacks, each KeyMayMatch counted as positive or negative.
 *
 * Errors: a function returning int gives 0 or -1 with *err set to a
 * malloc'd message (free it); FL-agnostic on purpose.
 */
#ifndef FL_LEVELDB_SHIM_H
#define FL_LEVELDB_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fl_ldb fl_ldb;
typedef struct fl_ldb_iter fl_ldb_iter;
typedef struct fl_ldb_policy fl_ldb_policy;

/* One KeyMayMatch call: the filter bytes it was given (XXH3_64bits of
 * them, and their length), and its answer. */
typedef struct fl_ldb_probe {
    uint64_t hash;
    size_t len;
    int maybe;
} fl_ldb_probe;

#define FL_LDB_PROBES 64

/* What a policy's KeyMayMatch answered; LevelDB calls it from the
 * reading thread only (gets), so no lock is needed to read them between
 * calls.  probes[] holds the calls since the caller last set nprobes to 0,
 * in order; nprobes counts on past FL_LDB_PROBES, whose calls are not
 * kept. */
typedef struct fl_ldb_counts {
    uint64_t positive, negative;
    size_t nprobes;
    fl_ldb_probe probes[FL_LDB_PROBES];
} fl_ldb_counts;

/* A policy of C callbacks (a filterlab plugin behind them).  create
 * appends the filter of keys[0..n) to *out (malloc'd by create, *out_len
 * its length; the shim frees it); may_match answers 1 maybe, 0 no. */
typedef struct fl_ldb_policy_fns {
    void *arg;
    void (*create)(void *arg, const char *const *keys, const size_t *lens, int n, char **out,
                   size_t *out_len);
    int (*may_match)(void *arg, const char *key, size_t len, const char *filter, size_t flen);
} fl_ldb_policy_fns;

/* LevelDB's built-in bloom at bits per key, counted into counts. */
fl_ldb_policy *fl_ldb_policy_bloom(int bits_per_key, fl_ldb_counts *counts);
/* A policy named name (copied) answering through fns, counted. */
fl_ldb_policy *fl_ldb_policy_custom(const char *name, const fl_ldb_policy_fns *fns, fl_ldb_counts *counts);
void fl_ldb_policy_free(fl_ldb_policy *p);

typedef struct fl_ldb_config {
    fl_ldb_policy *policy;        /* NULL: no filter; borrowed, outlives the db */
    size_t block_size;
    int block_restart_interval;
    size_t write_buffer_size;
    size_t max_file_size;
    int sync;                     /* 0: no fsync                                  */
    int paranoid_checks;
} fl_ldb_config;

int  fl_ldb_open(const char *dir, const fl_ldb_config *cfg, fl_ldb **out, char **err);
void fl_ldb_close(fl_ldb *db);

int  fl_ldb_put(fl_ldb *db, const char *k, size_t kl, const char *v, size_t vl, char **err);
int  fl_ldb_delete(fl_ldb *db, const char *k, size_t kl, char **err);
/* *found 0: no such key (*val NULL); else *val malloc'd (free it). */
int  fl_ldb_get(fl_ldb *db, const char *k, size_t kl, char **val, size_t *vl, int *found, char **err);
int  fl_ldb_flush(fl_ldb *db, char **err);
/* CompactRange over everything. */
int  fl_ldb_compact(fl_ldb *db, char **err);
/* A property's value (malloc'd) or NULL for an unknown one. */
char *fl_ldb_property(fl_ldb *db, const char *name);

fl_ldb_iter *fl_ldb_iter_new(fl_ldb *db);
void fl_ldb_iter_seek(fl_ldb_iter *it, const char *k, size_t kl);
void fl_ldb_iter_seek_to_last(fl_ldb_iter *it);
int  fl_ldb_iter_valid(const fl_ldb_iter *it);
void fl_ldb_iter_next(fl_ldb_iter *it);
void fl_ldb_iter_prev(fl_ldb_iter *it);
const char *fl_ldb_iter_key(const fl_ldb_iter *it, size_t *len);
const char *fl_ldb_iter_value(const fl_ldb_iter *it, size_t *len);
/* Frees it (waiting for what its reads scheduled); -1 with *err when the
 * iterator met an error. */
int  fl_ldb_iter_free(fl_ldb_iter *it, char **err);

void fl_ldb_free(void *p);

#ifdef __cplusplus
}
#endif

#endif /* FL_LEVELDB_SHIM_H */
