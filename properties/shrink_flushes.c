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

#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb; (void)flag; (void)ftw;
    return remove(path);
}

/* In the child: flushed[i] = 1 when op i was a write that flushed. */
static void flush_points_here(const fl_registry *reg, const fl_workload *w, const char *scratch,
                              uint64_t seed, uint8_t *flushed) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/pin.XXXXXX", scratch);
    if (!mkdtemp(dir)) return;
    fl_check_config cfg = { .reg = reg, .dir = dir, .path = "pin", .check = false, .seed = seed,
                            .no_sync = true };
    fl_checker *ck;
    if (fl_checker_new(&cfg, &ck) == FL_OK) {
        uint64_t before = 0;
        for (size_t i = 0; i < w->count; i++) {
            if (fl_checker_run(ck, &w->ops[i]) != FL_OK) break;
            fl_check_summary sum;
            fl_checker_summary(ck, &sum);
            fl_op_kind k = w->ops[i].kind;
            flushed[i] = sum.metrics.flushes > before &&
                         (k == FL_OP_PUT || k == FL_OP_DEL || k == FL_OP_DELRANGE);
            before = sum.metrics.flushes;
        }
        fl_checker_free(ck);
    }
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* flushed[i] for every op, learnt in a child process; false if it died. */
static bool flush_points(const fl_registry *reg, const fl_workload *w, const char *scratch,
                         uint64_t seed, uint8_t *flushed) {
    int fds[2];
    if (pipe(fds) != 0) return false;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return false;
    }
    if (pid == 0) {
        close(fds[0]);
        memset(flushed, 0, w->count);
        flush_points_here(reg, w, scratch, seed, flushed);
        size_t done = 0;
        while (done < w->count) {
            ssize_t n = write(fds[1], flushed + done, w->count - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) _exit(3);
            done += (size_t)n;
        }
        _exit(0);
    }
    close(fds[1]);
    size_t got = 0;
    while (got < w->count) {
        ssize_t n = read(fds[0], flushed + got, w->count - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    return got == w->count && WIFEXITED(status) && WEXITSTATUS(status) == 0;
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

bool ck_wl_pin_flushes(const fl_registry *reg, const fl_workload *w, const char *scratch, uint64_t seed,
                       fl_workload *out) {
    memset(out, 0, sizeof *out);
    uint8_t *flushed = calloc(w->count ? w->count : 1, 1);
    if (!flushed) return false;
    bool ok = flush_points(reg, w, scratch, seed, flushed);
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
