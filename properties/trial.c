/*
 * trial.c -- one workload through the checker, in a throwaway database
 * directory, reporting only the first violation: what the runner and the
 * shrinker need.  Also the standalone extractor lint (P7 over generated
 * inputs), which reuses the checker's contract checks.
 */
#include "check_internal.h"

#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct first { int property; unsigned line; char msg[1024]; uint64_t count; } first;

static void on_violation(void *arg, int property, unsigned line, const char *msg) {
    first *f = arg;
    if (f->count++) return;
    f->property = property;
    f->line = line;
    snprintf(f->msg, sizeof f->msg, "%s", msg);
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb; (void)flag; (void)ftw;
    return remove(path);
}

static int check_here(const fl_registry *reg, const fl_workload *w, const char *scratch,
                      uint64_t seed, bool stop_early, int *property, unsigned *line,
                      char *msg, size_t msg_len, uint64_t *ops_run) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/trial.XXXXXX", scratch);
    *property = 0;
    *line = 0;
    if (msg_len) msg[0] = 0;
    if (!mkdtemp(dir)) {
        snprintf(msg, msg_len, "cannot create a directory in %s", scratch);
        return FL_ERR_IO;
    }
    first f = { 0 };
    fl_check_config cfg = { .reg = reg, .dir = dir, .path = "trial", .check = true, .seed = seed,
                            .no_sync = true, .on_violation = on_violation, .on_violation_arg = &f };
    fl_checker *ck;
    int rc = fl_checker_new(&cfg, &ck);
    uint64_t n = 0;
    for (size_t i = 0; rc == FL_OK && i < w->count; i++) {
        rc = fl_checker_run(ck, &w->ops[i]);
        n++;
        if (stop_early && f.count) break;
    }
    fl_check_summary sum;
    if (rc == FL_OK && !(stop_early && f.count)) rc = fl_checker_finish(ck, &sum);
    if (rc != FL_OK && ck) snprintf(msg, msg_len, "%s", fl_checker_errmsg(ck));
    fl_checker_free(ck);
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    if (ops_run) *ops_run = n;
    if (rc != FL_OK) return rc;
    *property = f.property;
    *line = f.line;
    if (f.count) snprintf(msg, msg_len, "%s", f.msg);
    return FL_OK;
}

/* What a child process reports back. */
typedef struct verdict { int rc, property; unsigned line; uint64_t ops; char msg[1024]; } verdict;

/* Each workload runs in a child process: a plugin's static state starts
 * afresh every time (so a shrink candidate fails or passes on its own
 * merits), and a plugin that crashes takes down the child, not the run. */
int fl_check_workload(const fl_registry *reg, const fl_workload *w, const char *scratch,
                      uint64_t seed, bool stop_early, int *property, unsigned *line,
                      char *msg, size_t msg_len, uint64_t *ops_run) {
    int fds[2];
    if (pipe(fds) != 0) return check_here(reg, w, scratch, seed, stop_early, property, line, msg, msg_len, ops_run);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return check_here(reg, w, scratch, seed, stop_early, property, line, msg, msg_len, ops_run);
    }
    if (pid == 0) {
        verdict v;
        memset(&v, 0, sizeof v);
        close(fds[0]);
        v.rc = check_here(reg, w, scratch, seed, stop_early, &v.property, &v.line, v.msg, sizeof v.msg, &v.ops);
        ssize_t n = write(fds[1], &v, sizeof v);
        _exit(n == (ssize_t)sizeof v ? 0 : 3);
    }
    close(fds[1]);
    verdict v;
    size_t got = 0;
    while (got < sizeof v) {
        ssize_t n = read(fds[0], (char *)&v + got, sizeof v - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (got != sizeof v) {
        /* the child died: a crash is a failure of the bad-input property */
        *property = FL_P10;
        *line = 0;
        if (WIFSIGNALED(status))
            snprintf(msg, msg_len, "P10 bad-input: the run died with signal %d (%s)", WTERMSIG(status),
                     strsignal(WTERMSIG(status)));
        else
            snprintf(msg, msg_len, "P10 bad-input: the run exited with status %d", WEXITSTATUS(status));
        if (ops_run) *ops_run = 0;
        return FL_OK;
    }
    *property = v.property;
    *line = v.line;
    if (ops_run) *ops_run = v.ops;
    snprintf(msg, msg_len, "%s", v.msg);
    return v.rc;
}

/* ---- The standalone extractor lint --------------------------------------- */

static uint64_t next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int fl_lint_extractor(const fl_registry *reg, const char *spec, uint64_t seed, uint64_t inputs,
                      char *msg, size_t msg_len) {
    fl_checker *ck;
    first f = { 0 };
    fl_check_config cfg = { .reg = reg, .path = "lint", .check = true, .seed = seed,
                            .on_violation = on_violation, .on_violation_arg = &f };
    if (fl_checker_new(&cfg, &ck) != FL_OK) return FL_ERR_NOMEM;
    /* a bloom around the extractor makes it the configured one */
    char pspec[1024], err[1024] = "";
    snprintf(pspec, sizeof pspec, "bloom(prefix=%s)", spec);
    int rc = ck_config_new(reg, pspec, &ck->writer, err, sizeof err);
    if (rc == FL_OK && (!ck->writer->count || !ck->writer->items[0].extractor)) rc = FL_ERR_INVALID;
    if (rc != FL_OK) {
        snprintf(msg, msg_len, "extractor %s: %s", spec, err[0] ? err : "cannot be made");
        fl_checker_free(ck);
        return rc < 0 ? rc : FL_ERR_INVALID;
    }
    /* inputs: random bytes over a small alphabet with the usual delimiters,
     * of lengths around typical extractor lengths */
    static const uint8_t alphabet[] = { 'a', 'b', ':', '/', '.', '_', 0x00, 0xFF, '0', '1' };
    uint64_t s = seed;
    uint8_t buf[40];
    for (uint64_t i = 0; i < inputs; i++) {
        size_t len = next(&s) % 24;
        for (size_t j = 0; j < len; j++) buf[j] = alphabet[next(&s) % sizeof alphabet];
        if (i & 1) ck_contract_point(ck, buf, len);
        else ck_contract_prefix(ck, buf, len);
    }
    if (f.count) snprintf(msg, msg_len, "%s", f.msg);
    else if (msg_len) msg[0] = 0;
    int n = (int)(f.count > 1000000 ? 1000000 : f.count);
    fl_checker_free(ck);
    return n;
}
