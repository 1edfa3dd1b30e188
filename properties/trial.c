/*
 * trial.c -- one workload through the runner in a child process, in a
 * throwaway database, reporting only the first violation: what `check`'s
 * trials and the shrinker's candidates need.
 *
 * The child is where a plugin may crash, hang or leave static state
 * behind; none of it reaches the parent.  The child's watchdog reports a
 * hung call as a finding through the pipe; the parent kills a child still
 * running two seconds past the deadline or at an interruption (then the
 * trial is cut, not failed).
 */
#include "check_internal.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* What a child process reports back. */
typedef struct verdict {
    int rc, property;
    unsigned line;
    uint64_t ops;
    bool cut, hang;
    char msg[4096];
} verdict;

typedef struct child { int fd; } child;

static void send_verdict(int fd, const verdict *v) {
    const char *p = (const char *)v;
    size_t left = sizeof *v;
    while (left) {
        ssize_t n = write(fd, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        p += n;
        left -= (size_t)n;
    }
}

/* The watchdog gave up on a stuck op: report what it found, then end. */
static void child_abandon(void *arg, const fl_run_outcome *so_far) {
    child *c = arg;
    verdict v;
    memset(&v, 0, sizeof v);
    v.property = so_far->property;
    v.line = so_far->line;
    v.ops = so_far->ops_run;
    v.cut = !so_far->property;
    v.hang = so_far->property != 0;
    snprintf(v.msg, sizeof v.msg, "%s", so_far->message);
    send_verdict(c->fd, &v);
    _exit(0);
}

static void run_in_child(const fl_trial_env *env, const fl_workload *w, bool stop_early, int fd) {
    child c = { fd };
    fl_runner r = {
        .check = { .engine = env->engine, .reg = env->reg, .path = "trial", .check = true,
                   .seed = env->seed, .no_sync = true },
        .scratch = env->scratch, .stop_early = stop_early, .call_timeout = env->call_timeout,
        .deadline = env->deadline, .interrupt = env->interrupt,
        .on_abandon = child_abandon, .on_abandon_arg = &c,
    };
    fl_run_outcome o;
    verdict v;
    memset(&v, 0, sizeof v);
    if (fl_run_workload(&r, w, &o) != FL_OK) {
        v.rc = o.rc;
        snprintf(v.msg, sizeof v.msg, "%s", o.error);
    } else {
        v.rc = o.rc;
        v.property = o.property;
        v.line = o.line;
        v.ops = o.ops_run;
        if (o.property) snprintf(v.msg, sizeof v.msg, "%s", o.message);
        else if (o.rc) snprintf(v.msg, sizeof v.msg, "%s", o.error);
        v.cut = o.stopped && !o.property;
    }
    send_verdict(fd, &v);
}

/* Reads the child's verdict, waiting at most until the deadline (plus a
 * grace period for the child's own watchdog) or an interruption; false when
 * none came (the child died, or was killed here). */
static bool read_verdict(const fl_trial_env *env, pid_t pid, int fd, verdict *v) {
    size_t got = 0;
    while (got < sizeof *v) {
        int wait_ms = 200;
        struct pollfd pfd = { fd, POLLIN, 0 };
        int n = poll(&pfd, 1, wait_ms);
        if (n < 0 && errno != EINTR) break;
        if (n > 0) {
            ssize_t k = read(fd, (char *)v + got, sizeof *v - got);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) break;
            got += (size_t)k;
            continue;
        }
        double now = fl_now();
        bool late = env->deadline > 0 && now >= env->deadline + 2.0;
        bool stop = env->interrupt && *env->interrupt;
        if (late || stop) {
            kill(pid, SIGKILL);
            break;
        }
    }
    return got == sizeof *v;
}

/* Each workload runs in a child process: a plugin's static state starts
 * afresh every time (so a shrink candidate fails or passes on its own
 * merits), and a plugin that crashes takes down the child, not the run. */
int fl_check_workload(const fl_trial_env *env, const fl_workload *w, bool stop_early,
                      fl_trial_outcome *out) {
    memset(out, 0, sizeof *out);
    int fds[2];
    if (pipe(fds) != 0) {
        out->rc = FL_ERR_IO;
        snprintf(out->message, sizeof out->message, "cannot make a pipe: %s", strerror(errno));
        return FL_ERR_IO;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        out->rc = FL_ERR_IO;
        snprintf(out->message, sizeof out->message, "cannot fork: %s", strerror(errno));
        return FL_ERR_IO;
    }
    if (pid == 0) {
        close(fds[0]);
        /* the parent handles the signals; the child ends when told */
        signal(SIGINT, SIG_IGN);
        signal(SIGTERM, SIG_IGN);
        run_in_child(env, w, stop_early, fds[1]);
        _exit(0);
    }
    close(fds[1]);
    verdict v;
    memset(&v, 0, sizeof v);
    bool got = read_verdict(env, pid, fds[0], &v);
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (!got) {
        bool stopped = (env->interrupt && *env->interrupt) ||
                       (env->deadline > 0 && fl_now() >= env->deadline);
        if (stopped && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
            out->cut = true;                      /* killed here: no finding */
            return FL_OK;
        }
        /* the child died: a crash is a failure of the bad-input property */
        out->property = FL_P10;
        if (WIFSIGNALED(status))
            snprintf(out->message, sizeof out->message,
                     "P10 bad-input: the run died with signal %d (%s)", WTERMSIG(status),
                     strsignal(WTERMSIG(status)));
        else
            snprintf(out->message, sizeof out->message,
                     "P10 bad-input: the run exited with status %d", WEXITSTATUS(status));
        return FL_OK;
    }
    out->rc = v.rc;
    out->property = v.property;
    out->line = v.line;
    out->ops = v.ops;
    out->cut = v.cut;
    out->hang = v.hang;
    snprintf(out->message, sizeof out->message, "%s", v.msg);
    if (out->rc != FL_OK && !out->property) {
        /* an engine error on a valid workload stands for P10 */
        out->property = FL_P10;
        char m[sizeof out->message];
        snprintf(m, sizeof m, "P10 %s: engine error: %.3900s", fl_property_name(FL_P10), v.msg);
        snprintf(out->message, sizeof out->message, "%s", m);
    }
    return FL_OK;
}

