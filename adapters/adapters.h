/*
 * adapters.h -- the engines under test: one folder each under adapters/,
 * every one behind the table of operations the checker drives (check.h,
 * fl_engine_ops; LevelDB's Env and SQLite's VFS are the model), and the
 * registry that names them for `--engine NAME`.
 *
 * Each folder holds everything about one engine: its ops table, the mapping
 * of a workload's options onto the engine's, its configuration space for
 * `check` (fl_space), its reader of the engine's SST and filter files, and
 * its known-bugs list (adapters/NAME/known.txt).  Adding an engine is one
 * folder and one line in registry.c (docs/protocol.md, "Adding an engine").
 *
 * Data flows one way: the properties module (runner, checker, shrinker)
 * holds an fl_engine_ops and never knows which engine it is; only the
 * commands (cli/), reports and tests pick one here.
 */
#ifndef FL_ADAPTERS_H
#define FL_ADAPTERS_H

#include "../properties/check.h"

/* filterlab's own engine (engine/engine.h), with every optional view --
 * probe trace, live SSTs, SST truth, stored filter blocks -- so it is
 * checked probe by probe. */
extern const fl_engine_ops fl_engine_filterlab;
/* "filterlab:untraced": the same engine judged only through what a foreign
 * engine shows (results, counters, live SSTs): no probe trace, no SST truth. */
extern const fl_engine_ops fl_engine_filterlab_untraced;

/* RocksDB through its C API (adapters/rocksdb/; the option table is the
 * docs/rocksdb.md), with the live-SST view and the filters read
 * from its SST files (sst_filter): no probe trace, no SST truth.  Its
 * counters come from RocksDB's perf context: positive and negative are SST
 * filter probes that said maybe / no, considered their sum; false_positive
 * and unfiltered stay 0 (the checker adds what it can know to its summary:
 * false positives of targets that exist nowhere, and the SSTs a forward
 * prefix read positioned in without a filter probe).
 * Built without RocksDB, only open is set, and it fails with
 * fl_rocksdb_unavailable()'s message. */
extern const fl_engine_ops fl_engine_rocksdb;
/* NULL when filterlab was built with RocksDB, else "filterlab was built
 * without RocksDB: install librocksdb-dev (apt-get install
 * librocksdb-dev) and rebuild". */
const char *fl_rocksdb_unavailable(void);
/* "7.8.3": the RocksDB filterlab was built with (its headers' version,
 * those of the library it links), or NULL when built without. */
const char *fl_rocksdb_version(void);

/* LevelDB 1.23 (adapters/leveldb/) in process, through its C++ API (a
 * small shim: LevelDB's C API has no Env of one's own and no flush), with
 * the live-table view, each table's entries and its filter read from its
 * file by filterlab's own reader: no probe trace.  Its counters are
 * counted at the filter policy (LevelDB keeps none): every KeyMayMatch
 * answer of a get, positive or negative.  Built without LevelDB, only
 * open is set, and it fails with fl_leveldb_unavailable()'s message. */
extern const fl_engine_ops fl_engine_leveldb;
/* NULL when filterlab was built with LevelDB, else how to get it. */
const char *fl_leveldb_unavailable(void);

/* SlateDB (adapters/slatedb/): the Rust adapter program filterlab-slatedb
 * speaking the engine protocol, found beside the filterlab binary (built
 * by make when cargo is there) or at $FILTERLAB_SLATEDB; its files read by
 * filterlab's own reader of SlateDB's SST format.  Without the program,
 * open fails saying how to build it. */
const fl_engine_ops *fl_engine_slatedb(void);

/* Pebble (adapters/pebble/): the Go adapter program filterlab-pebble
 * speaking the engine protocol, found beside the filterlab binary (built
 * by make when Go is there) or at $FILTERLAB_PEBBLE.  Without the
 * program, open fails saying how to build it. */
const fl_engine_ops *fl_engine_pebble(void);

/* An engine that is a program of its own, speaking the engine protocol
 * (docs/protocol.md) on its stdin and stdout: for a spec
 * "cmd:COMMAND", a table that runs COMMAND through /bin/sh -c (the same
 * table for the same spec, for the process's life); NULL for any other
 * spec.  Results, the counters its adapter lists and its SST listing are
 * checked; it has no probe trace. */
const fl_engine_ops *fl_proc_engine(const char *spec);

/* `filterlab serve`: filterlab's own engine as an adapter program of the
 * engine protocol, reading requests from in and answering on out until
 * `quit` or EOF (filterlab_serve.c), with these plugins loaded.  0, or 1
 * when out cannot be written, 2 when a plugin cannot be loaded. */
int fl_filterlab_serve(FILE *in, FILE *out, const char *const *plugins, size_t nplugins);

/* ---- The registry (registry.c) ------------------------------------------------ */

/* The engine of that name, or NULL; fl_engine_names lists them.  The first
 * is the default (fl_engine_default, check.h). */
const fl_engine_ops *fl_engine_find(const char *name);
void fl_engine_names(char *out, size_t cap);

#endif /* FL_ADAPTERS_H */
