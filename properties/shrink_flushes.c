/*
 * shrink_flushes.c -- pinning the flushes of a workload before it is
 * shrunk.  A write that fills the memtable to memtable_bytes flushes it;
 * so, in a workload whose failure needs its SSTs cut at given places,
 * removing any one put moves every later flush, and removal gets stuck
 * with hundreds of ops that only fill memtables.  Pinned, the same
 * workload has a `flush` after each write that flushed, and a memtable too
 * big to fill (memtable_bytes at its maximum on the open line, dropped
 * elsewhere): the SSTs are cut at the same places, and stay cut there as
 * ops go.  The shrinker keeps the pinned workload only if it still fails.
 *
 * Where the engine flushed is learnt by running the workload, engine only
 * (no checks), in a child process as every candidate runs, and counting
 * the flushes after each op.
 */
#include "shrink_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* What the run of an isolated child tells its parent, in shared memory. */
typedef struct flush_log { uint64_t before; uint8_t flushed[]; } flush_log;

/* After each op: flushed[i] = 1 when op i was a write that flushed. */
static void note_flush(void *arg, size_t i, const fl_op *op, const fl_metrics *sum) {
    flush_log *log = arg;
    fl_op_kind k = op->kind;
    log->flushed[i] = sum->flushes > log->before &&
                      (k == FL_OP_PUT || k == FL_OP_DEL || k == FL_OP_DELRANGE);
    log->before = sum->flushes;
}

/* flushed[i] for every op, learnt by the engine alone in a child process
 * (a plugin may crash); false if the run did not get through. */
static bool flush_points(const fl_trial_env *env, const fl_workload *w, uint8_t *flushed) {
    size_t size = sizeof(flush_log) + (w->count ? w->count : 1);
    flush_log *log = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (log == MAP_FAILED) return false;
    memset(log, 0, size);
    fl_runner r = {
        .check = { .engine = env->engine, .reg = env->reg, .path = "pin", .check = false, .quiet = true,
                   .seed = env->seed, .no_sync = true, .in_memory = !env->on_disk },
        .scratch = env->scratch, .call_timeout = env->call_timeout, .deadline = env->deadline,
        .interrupt = env->interrupt, .isolate = true, .quiet_stderr = env->quiet,
        .after_op = note_flush, .after_op_arg = log,
    };
    fl_run_outcome o;
    bool ok = fl_run_workload(&r, w, &o) == FL_OK && o.rc == FL_OK && !o.stopped &&
              o.ops_run == w->count;
    if (ok) memcpy(flushed, log->flushed, w->count);
    munmap(log, size);
    return ok;
}

/* Appends op to out without its memtable_bytes (a reopen keeps at least
 * one option: then it is set to the maximum). */
static bool add_unsized(fl_workload *out, const fl_op *op) {
    fl_op copy = *op;
    fl_wl_option opts[64];
    if ((op->kind == FL_OP_OPEN || op->kind == FL_OP_REOPEN) && op->opt_count <= 64) {
        size_t n = 0;
        for (size_t i = 0; i < op->opt_count; i++) {
            opts[n] = op->opts[i];
            if (strcmp(opts[n].key, "memtable_bytes") != 0) n++;
            else if (op->kind == FL_OP_REOPEN && op->opt_count == 1) opts[n++].value = "1099511627776";
        }
        copy.opts = opts;
        copy.opt_count = n;
    }
    return fl_workload_add(out, &copy) == 0;
}

bool ck_wl_pin_flushes(const fl_trial_env *env, const fl_workload *w, fl_workload *out) {
    memset(out, 0, sizeof *out);
    uint8_t *flushed = calloc(w->count ? w->count : 1, 1);
    if (!flushed) return false;
    bool ok = flush_points(env, w, flushed);
    size_t pinned = 0;
    fl_workload body = { 0 };
    for (size_t i = 0; ok && i < w->count; i++) {
        ok = add_unsized(&body, &w->ops[i]);
        if (ok && flushed[i]) {
            fl_op flush = { .kind = FL_OP_FLUSH, .line = w->ops[i].line };
            ok = fl_workload_add(&body, &flush) == 0;
            pinned++;
        }
    }
    free(flushed);
    /* a memtable that never fills, on the open line */
    ok = ok && pinned > 0 && ck_wl_with_open_option(&body, "memtable_bytes", "1099511627776", out);
    fl_workload_free(&body);
    if (!ok) fl_workload_free(out);
    return ok;
}
