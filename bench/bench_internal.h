/*
 * bench_internal.h -- shared by the benchmark groups: medians,
 * the results table, scratch databases and key spelling.
 */
#ifndef FL_BENCH_INTERNAL_H
#define FL_BENCH_INTERNAL_H

#include "bench.h"
#include "../engine/engine.h"
#include "../adapters/adapters.h"

#include <stddef.h>
#include <stdio.h>

/* ---- Time ---------------------------------------------------------------- */

double fl_bench_median(double *v, size_t n);        /* sorts v                */

/* ---- Results --------------------------------------------------------------
 * A row is one figure.  target is the target in words, "" if none;
 * met is 1, 0, or -1 when there is no target. */
typedef struct fl_bench_row {
    char group[16];
    char name[96];
    double value;
    char unit[24];
    unsigned runs;
    char target[64];
    int met;
} fl_bench_row;

typedef struct fl_bench {
    const fl_bench_config *cfg;
    fl_bench_row *rows;
    size_t count, cap;
    char scratch[4096];        /* a private directory for databases      */
    char *err;
    size_t err_len;
} fl_bench;

/* Adds a row without a target. */
void fl_bench_add(fl_bench *b, const char *group, const char *name, double value,
                  const char *unit);
/* Adds a row with a target and whether it was met. */
void fl_bench_add_target(fl_bench *b, const char *group, const char *name, double value,
                         const char *unit, const char *target, bool met);
/* A note line in the table (a skipped part, a setting); not in the CSV. */
void fl_bench_note(fl_bench *b, const char *group, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void fl_bench_progress(fl_bench *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int  fl_bench_fail(fl_bench *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- This binary, as a user runs it ----------------------------------------
 * Runs `filterlab ARGS...` (argv[0] "filterlab", NULL-terminated) in a child
 * process of its own (an exec of this binary: none of this process's
 * state), its standard output and error to scratch/NAME.out and NAME.err,
 * TMPDIR the scratch directory; waits for it, stopping it on an interrupt.
 * *seconds: its wall time; out: the start of what it printed (NUL-ended,
 * cap bytes at most).  0 when it exited 0, else -1 with the failure in b's
 * error (what the child said). */
int fl_bench_run_self(fl_bench *b, const char *name, char *const argv[], char *out, size_t cap,
                      double *seconds);

/* `filterlab check --time SECS --seed 1 --ops 1500 ... EXTRA...` (extra
 * NULL-terminated, or NULL), as a user runs it: its trials and ops per
 * second, from its summary line (testbed_bench.c).  -1 with b's error when
 * it fails or finds a violation (findings of --known bugs are fine); what
 * names the group in progress and errors. */
int fl_bench_check_rate(fl_bench *b, const char *what, const char *const *extra, double secs, double *rate,
                        double *ops_rate);

/* ---- Databases -------------------------------------------------------------
 * A fresh directory under the scratch directory, removed by fl_remove_tree. */
int  fl_bench_dbdir(fl_bench *b, const char *name, char *out, size_t out_len);

/* The L0 shape shared by the engine and RocksDB groups: key j (0 <= j <
 * FL_BENCH_L0_KEYS) is "k" and 2j in 9 digits; SST i holds the keys with
 * j % FL_BENCH_L0_SSTS == i, so every SST spans the whole range; the absent
 * keys are the odd numbers between them. */
#define FL_BENCH_L0_SSTS 10
uint64_t fl_bench_l0_keys(const fl_bench *b);
size_t   fl_bench_l0_key(uint64_t number, uint8_t out[16]);   /* "k%09llu" */
/* Builds the L0 shape with bloom(bits=BITS) in dir (engine_bench.c); with
 * fill_seconds, the time of its puts and flushes. */
int      fl_bench_l0_open(fl_bench *b, const char *dir, const fl_registry *reg, unsigned bits,
                          double *fill_seconds, fl_db **out);
/* One pass of gets over every present key, or every absent one, in a fixed
 * stride order: seconds (-1 on an engine error) and how many were found. */
double   fl_bench_l0_gets(fl_db *db, uint64_t keys, bool present, uint64_t *found);
/* false_positive / (false_positive + negative), in percent. */
double   fl_bench_fp_rate(const fl_filter_counters *c);

/* The testbed's mixed workload of `ops` ops (testbed_bench.c), written to f:
 * 0, or -1 on a write error.  Its keys come from 2,000 groups of 100; with
 * live_keys, how many are live at its end. */
int      fl_bench_mixed_write(FILE *f, uint64_t ops, uint64_t *live_keys);

/* ---- Groups ------------------------------------------------------------- */

int fl_bench_filter(fl_bench *b);
int fl_bench_engine(fl_bench *b);
int fl_bench_testbed(fl_bench *b);
int fl_bench_rocksdb(fl_bench *b);
int fl_bench_scale(fl_bench *b);

#endif /* FL_BENCH_INTERNAL_H */
