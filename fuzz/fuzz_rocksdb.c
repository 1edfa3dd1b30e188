/*
 * fuzz_rocksdb.c -- the differential op fuzzer against RocksDB: the bytes
 * of fuzz_ops (fuzz_ops.h, decoded by fuzz_decode.c into what the RocksDB
 * engine can express) -> the checker, RocksDB (adapters/rocksdb/rocksdb_engine.c)
 * and the model side by side, in a fresh database per input, in this
 * process (a RocksDB abort is libFuzzer's crash).
 *
 * Findings (abort): any property violation, a hung plugin call, an engine
 * error other than the one below, a crash.  Not findings (the input is
 * skipped): RocksDB refusing an open, reopen or set_options
 * (FL_ERR_INVALID) -- the decoder keeps to what RocksDB can express, but a
 * FILTERLAB_FUZZ_POLICIES candidate may not be, and SetOptions is RocksDB's
 * to refuse.
 *
 * RocksDB 7.8.3 has three known bugs this would find within seconds
 * (docs/rocksdb.md; adapters/rocksdb/known.txt).  The decoder
 * steers clear of them by default (fuzz_ops.h says how), so that a known
 * upstream bug does not fail `make fuzz` and a campaign hunts further;
 * with FILTERLAB_FUZZ_ROCKSDB_AVOID_KNOWN=0 they are found like anything
 * else.
 */
#include "fuzz_env.h"
#include "fuzz_ops.h"
#include "../adapters/adapters.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const fl_workload *running;

static void die(const char *what, const char *msg) {
    fprintf(stderr, "fuzz_rocksdb: %s: %s\n--- the workload (filterlab replay FILE --engine rocksdb):\n",
            what, msg);
    if (running) fl_workload_print(running, stderr);
    abort();
}

static void on_violation(void *arg, int property, unsigned line, const char *message) {
    (void)arg; (void)property; (void)line;
    die("property violated", message);
}

static void on_abandon(void *arg, const fl_run_outcome *so_far) {
    (void)arg;
    die("plugin call hung", so_far->message);
}

/* Whether the engine error is RocksDB refusing a configuration. */
static bool refused(const fl_workload *w, const fl_run_outcome *out) {
    if (out->rc != FL_ERR_INVALID) return false;
    for (size_t i = 0; i < w->count; i++) {
        const fl_op *op = &w->ops[i];
        if (op->line == out->error_line)
            return op->kind == FL_OP_OPEN || op->kind == FL_OP_REOPEN || op->kind == FL_OP_SET_OPTIONS;
    }
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (fl_rocksdb_unavailable()) {
        fprintf(stderr, "fuzz_rocksdb: %s\n", fl_rocksdb_unavailable());
        exit(2);
    }
    fl_registry *reg = fuzz_registry();
    fl_workload w = { 0 };
    fuzz_decode(data, size, FUZZ_FOR_ROCKSDB, &w);
    running = &w;
    if (getenv("FILTERLAB_FUZZ_PRINT")) fl_workload_print(&w, stdout);
    const char *base = getenv("TMPDIR");
    if (!base || !*base) base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    fl_runner run = {
        .check = { .engine = &fl_engine_rocksdb, .reg = reg, .path = "fuzz_rocksdb", .check = true,
                   .max_shown = 0, .seed = size, .no_sync = true, .on_violation = on_violation },
        .scratch = base, .call_timeout = 10, .on_abandon = on_abandon,
    };
    fl_run_outcome out;
    if (fl_run_workload(&run, &w, &out) != FL_OK) die("engine error", out.error);
    if (out.rc != FL_OK && !refused(&w, &out)) die("engine error", out.error);
    running = NULL;
    fl_workload_free(&w);
    return 0;
}
