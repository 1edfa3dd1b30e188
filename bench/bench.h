/*
 * bench.h -- `filterlab bench` (SPEC section 11, issues 7 and 15): how fast the
 * filters, the engine and the testbed are, measured in one run as medians
 * and as ratios, beside RocksDB when its library is installed.
 *
 * Groups (each can be run alone with fl_bench_config.only):
 *   filter   the built-in bloom at 6, 10 and 16 bits/key in cache and at
 *            10 far out of the last-level cache: build (ns/key) and probe
 *            (ns/query, hits and misses), beside the cost of XXH3_64bits of
 *            the same keys measured in the same run.
 *   engine   get of absent keys over 10 L0 SSTs that all span the key
 *            range; get of present keys; scan_prefix of absent and present
 *            prefixes over many SSTs with a prefix-only bloom and with no
 *            filter (time per read and SST reads per read).
 *   testbed  replay of a mixed workload with the checker and without
 *            (ops/s, ratio), and `filterlab check` trials/s.
 *   scale    `filterlab replay` of the mixed workload at 10x steps of ops:
 *            time, peak memory and their growth (scale_bench.c).
 *   rocksdb  the same keys, flush points and absent gets in RocksDB (C API,
 *            linked when librocksdb-dev is there): FP rate from
 *            RocksDB's tickers beside filterlab's, time per get as a ratio.
 *            Skipped, saying so, when librocksdb is not installed.
 *
 * Every figure is the median of `runs` repetitions; the two sides of a
 * ratio are measured interleaved in the same run.  Results go to `out` as a
 * table and, when csv_path is set, as CSV rows
 *   group,benchmark,value,unit,runs,target,met
 * where target is the target in words ("" when there is none) and
 * met is yes, no or "".
 *
 * Everything is deterministic from fixed seeds except the timings.
 */
#ifndef FL_BENCH_H
#define FL_BENCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define FL_BENCH_FILTER  1u
#define FL_BENCH_ENGINE  2u
#define FL_BENCH_TESTBED 4u
#define FL_BENCH_ROCKSDB 8u
#define FL_BENCH_SCALE   16u
#define FL_BENCH_ALL     31u

typedef struct fl_bench_config {
    unsigned    groups;          /* FL_BENCH_* bits                              */
    unsigned    runs;            /* repetitions per figure (median), >= 1        */
    bool        quick;           /* small sizes: a smoke run of every benchmark  */
    uint64_t    big_keys;        /* keys of the out-of-cache filter (0: default) */
    uint64_t    replay_ops;      /* ops of the testbed's mixed workload (0: def) */
    bool        large;           /* the scale group also replays 10,000,000 ops  */
    double      check_seconds;   /* time of the trials/s measurement (0: def)    */
    const char *workload;        /* testbed workload file; NULL: generated       */
    const char *scratch;         /* where databases go; NULL: /dev/shm or TMPDIR */
    const char *csv_path;        /* NULL: no CSV                                 */
    FILE       *progress;        /* a line per benchmark as it starts, or NULL   */
    /* Once set (to a signal number), the run stops after the group it is in,
     * printing what it measured; a group that does not end within half a second
     * is abandoned: the scratch directory is removed and the process exits
     * 128 + the signal. */
    volatile sig_atomic_t *interrupt;
} fl_bench_config;

void fl_bench_defaults(fl_bench_config *cfg);

/* Runs the groups, prints the table on out, writes the CSV.  Returns 0, or
 * -1 with a message in err when a benchmark could not run (a database
 * error, an unwritable CSV); a target that is not met is not an error. */
int fl_bench_run(const fl_bench_config *cfg, FILE *out, char *err, size_t err_len);

#endif /* FL_BENCH_H */
