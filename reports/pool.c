/*
 * pool.c -- a small fork-based worker pool: up to N child processes, each
 * running one job and writing its result to a pipe, which the parent drains
 * with poll() so a child never blocks on a full pipe.  Processes, not
 * threads, because a replay may load plugins that are not thread-safe (or
 * that crash or hang: a worker takes that down with it, not the report).
 *
 * Invariant: the parent holds only read ends.  Each write end is closed in
 * the parent right after the fork, so end-of-file on a pipe means exactly
 * that its child is done writing; the child is then reaped with waitpid
 * and its job delivered, once.
 */
#include "report_internal.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct worker {
    pid_t  pid;                  /* 0: free slot */
    int    fd;
    size_t job;
    char  *data;
    size_t len, cap;
} worker;

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig) { stop_signal = sig; }

typedef struct progress_line {
    bool   on;
    size_t width;
    double start;
} progress_line;

static void progress_show(progress_line *p, const char *noun, size_t done, size_t njobs,
                          unsigned running) {
    if (!p->on) return;
    int n = fprintf(stderr, "\rreport: %zu/%zu %s done, %u running, %.0f s", done, njobs, noun,
                    running, fl_now() - p->start);
    if (n > 0 && (size_t)n < p->width) fprintf(stderr, "%*s", (int)(p->width - (size_t)n), "");
    if (n > 0 && (size_t)n > p->width) p->width = (size_t)n;
}

static void progress_clear(progress_line *p) {
    if (p->on && p->width) fprintf(stderr, "\r%*s\r", (int)p->width, "");
    p->width = 0;
}

/* In the child: default signal actions, no inherited read ends. */
static void child_main(worker *ws, unsigned nw, int fd, size_t job, fl_pool_run_fn run, void *arg) {
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) signal(sigs[i], SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    for (unsigned i = 0; i < nw; i++)
        if (ws[i].pid) close(ws[i].fd);
    int status = run(arg, job, fd);
    close(fd);
    _exit(status);
}

static int start(worker *ws, unsigned nw, worker *w, size_t job, fl_pool_run_fn run, void *arg) {
    int fds[2];
    if (pipe(fds) != 0) return -1;
    fflush(NULL);                   /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        errno = e;
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        child_main(ws, nw, fds[1], job, run, arg);
    }
    close(fds[1]);
    w->pid = pid;
    w->fd = fds[0];
    w->job = job;
    w->len = 0;
    return 0;
}

/* Reads what is there; 1 at end of file, 0 otherwise, -1 on error. */
static int drain(worker *w) {
    for (;;) {
        if (w->cap - w->len < 4096) {
            size_t cap = w->cap ? w->cap * 2 : 65536;
            char *grown = realloc(w->data, cap);
            if (!grown) return -1;
            w->data = grown;
            w->cap = cap;
        }
        ssize_t n = read(w->fd, w->data + w->len, w->cap - w->len);
        if (n > 0) {
            w->len += (size_t)n;
            if ((size_t)n < 4096) return 0;      /* likely drained; poll again */
            continue;
        }
        if (n == 0) return 1;
        return errno == EINTR || errno == EAGAIN ? 0 : -1;
    }
}

static int reap(worker *w) {
    int status = 0;
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR) {}
    close(w->fd);
    w->pid = 0;
    return status;
}

static void stop_all(worker *ws, unsigned nw) {
    for (unsigned i = 0; i < nw; i++)
        if (ws[i].pid) kill(ws[i].pid, SIGTERM);
    for (unsigned i = 0; i < nw; i++)
        if (ws[i].pid) reap(&ws[i]);
}

int fl_pool_run(size_t njobs, unsigned workers, fl_pool_run_fn run, fl_pool_done_fn done,
                void *arg, bool progress, const char *noun) {
    if (workers == 0) workers = 1;
    if (workers > njobs) workers = njobs ? (unsigned)njobs : 1;
    worker *ws = calloc(workers, sizeof *ws);
    struct pollfd *pfd = calloc(workers, sizeof *pfd);
    unsigned *slot_of = calloc(workers, sizeof *slot_of);
    if (!ws || !pfd || !slot_of) {
        free(ws); free(pfd); free(slot_of);
        errno = ENOMEM;
        return -1;
    }

    static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
    struct sigaction sa, old[3];
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;        /* no SA_RESTART: poll returns EINTR */
    stop_signal = 0;
    for (int i = 0; i < 3; i++) sigaction(sigs[i], &sa, &old[i]);

    progress_line pl = { .on = progress, .start = fl_now() };
    size_t next = 0, finished = 0;
    unsigned running = 0;
    int rc = 0;
    double next_tick = pl.start;
    while (finished < njobs) {
        while (rc == 0 && !stop_signal && next < njobs && running < workers) {
            unsigned s = 0;
            while (ws[s].pid) s++;
            if (start(ws, workers, &ws[s], next, run, arg) != 0) { rc = -1; break; }
            next++;
            running++;
        }
        if (stop_signal) { rc = 128 + stop_signal; break; }
        if (running == 0) break;                 /* a start failed: nothing left to wait for */
        double t = fl_now();
        if (t >= next_tick) {
            progress_show(&pl, noun, finished, njobs, running);
            next_tick = t + 0.5;
        }
        nfds_t n = 0;
        for (unsigned s = 0; s < workers; s++) {
            if (!ws[s].pid) continue;
            pfd[n].fd = ws[s].fd;
            pfd[n].events = POLLIN;
            pfd[n].revents = 0;
            slot_of[n++] = s;
        }
        int ready = poll(pfd, n, 500);
        if (ready < 0 && errno != EINTR) { rc = -1; break; }
        for (nfds_t i = 0; ready > 0 && i < n; i++) {
            if (!pfd[i].revents) continue;
            worker *w = &ws[slot_of[i]];
            int d = drain(w);
            if (d == 0) continue;
            int status = reap(w);
            running--;
            finished++;
            if (d < 0) status = -1;
            done(arg, w->job, w->data, d < 0 ? 0 : w->len, status);
            next_tick = 0;                       /* show it once the next job runs */
        }
    }
    if (rc != 0) {
        int e = errno;
        stop_all(ws, workers);
        errno = e;
    }
    if (rc == 0) progress_show(&pl, noun, finished, njobs, 0);
    progress_clear(&pl);
    for (int i = 0; i < 3; i++) sigaction(sigs[i], &old[i], NULL);
    for (unsigned s = 0; s < workers; s++) free(ws[s].data);
    free(ws);
    free(pfd);
    free(slot_of);
    return rc;
}
