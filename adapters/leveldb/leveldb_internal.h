/*
 * leveldb_internal.h -- what the LevelDB engine's files share, inside the
 * LevelDB adapter only.  leveldb_engine.c is the engine's ops table,
 * leveldb_policy.c the filter policy as LevelDB runs it, leveldb_tables.c
 * the live tables as read from their files, leveldb_shim.h the C face of
 * the C++ it needs, leveldb_sst.h filterlab's own reader of LevelDB's table
 * files, leveldb_space.c the configuration space.
 */
#ifndef FL_LEVELDB_INTERNAL_H
#define FL_LEVELDB_INTERNAL_H

#include "../../properties/check.h"

/* The configuration space of `check --engine leveldb` (leveldb_space.c). */
extern const fl_space fl_space_leveldb;

#ifdef FL_HAVE_LEVELDB

#include "leveldb_shim.h"
#include "leveldb_sst.h"

#include <pthread.h>

#pragma GCC visibility push(hidden)

/* The configured filter policy, as LevelDB runs it. */
typedef struct policy {
    fl_ldb_policy *ldb;               /* NULL: no filter                     */
    int bloom_bits;                   /* LevelDB's bloom: its bits; else -1  */
    fl_filter_policy *plugin;         /* a plugin's policy, or NULL          */
    fl_calls *calls;
    pthread_mutex_t *lock;            /* the calls' one thread at a time     */
} policy;

/* A live table as read from its file (files never change, and LevelDB
 * never reuses a file number). */
typedef struct table {
    uint64_t id;
    fl_buf bytes;
    fl_ldb_table *t;                  /* NULL when it could not be read      */
    int rc;
    fl_sst_filter f;
    char err[1024];
} table;

typedef struct listed listed;

/* A filter a get may ask, in LevelDB's read order: the table's, the
 * filter's bytes (XXH3_64bits, length) as the table's file has them, and
 * whether the table holds the key. */
typedef struct ldb_want {
    uint64_t sst;
    uint64_t hash;
    size_t len;
    bool holds;
} ldb_want;

typedef struct ldb {
    fl_ldb *db;
    const fl_registry *reg;
    fl_calls *calls, *own_calls;
    pthread_mutex_t lock;
    policy pol;
    fl_ldb_counts counts;
    fl_ldb_config cfg;
    uint64_t memtable_bytes, mem_bytes;
    bool mem_dirty;
    uint64_t newest_file;
    uint64_t shape;                   /* a hash of the last listing          */
    listed *listing;                  /* the live tables, as last listed     */
    size_t nlisting;
    int last_rc;                      /* last_read_probes: FL_OK or why not   */
    uint64_t last_pos, last_neg;
    ldb_want *want;                   /* the filters the last get may ask    */
    size_t nwant, want_cap;
    uint64_t *asked;                  /* last_read_probes: the tables counted  */
    bool got;                         /* the last read was a get             */
    fl_read_probe *trace;             /* last_read_trace's                   */
    size_t trace_cap;
    char why[512];
    uint64_t violations_at_open;
    fl_metrics metrics;
    char *dir;
    table *tables;
    size_t ntables, tables_cap;
    char err[2048];
} ldb;

/* ---- The policy (leveldb_policy.c) ------------------------------------------------ */

/* The filter policy of opt as LevelDB runs it (docs/leveldb.md:
 * LevelDB's bloom, or a plugin's policy through filterlab's call
 * wrappers), counted into e->counts; out lives in e.  FL_ERR_INVALID with
 * err saying what LevelDB cannot express. */
int  ldb_policy_make(ldb *e, const fl_options *opt, policy *out, char *err, size_t len);
void ldb_policy_release(policy *p);

/* ---- The live tables (leveldb_tables.c) --------------------------------------------- */

/* Lists the live tables again (e->listing, in LevelDB's read order: L0
 * newest first, then each deeper level): the ones that appeared count as
 * written, and a listing that changed where the engine ran nothing (own
 * false) as a compaction LevelDB ran. */
void ldb_note_files(ldb *e, bool own);
void ldb_tables_release(ldb *e);
/* Works out, before a get of key, what it must probe (last_read_probes). */
void ldb_expect_get(ldb *e, fl_slice key);
/* The views of fl_engine_ops. */
int  ldb_ssts(const fl_engine *x, fl_sst_meta **out, size_t *count);
int  ldb_sst_entries(fl_engine *x, uint64_t id, fl_entry_fn fn, void *arg);
int  ldb_sst_filter(fl_engine *x, uint64_t id, const fl_sst_filter **out);
int  ldb_last_read_probes(fl_engine *x, fl_mem_state mem, uint64_t *positive, uint64_t *negative,
                         const uint64_t **ssts, size_t *n);
int  ldb_last_read_trace(fl_engine *x, const fl_read_target *target, const fl_read_probe **probes, size_t *n,
                         const char **why);

#pragma GCC visibility pop

#endif /* FL_HAVE_LEVELDB */

#endif /* FL_LEVELDB_INTERNAL_H */
