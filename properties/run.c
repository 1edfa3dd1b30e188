/*
 * run.c -- the runner: one workload through the checker, start to end
 * (check.h, fl_run_workload).  Every command runs workloads only through
 * here: replay, report, check's trials and shrink candidates, fuzz_ops and
 * the benchmarks.
 *
 * A watchdog thread runs beside the ops when a call timeout, a deadline or
 * an interrupt flag is given.  It polls every 50 ms:
 *   - the call in progress (fl_checker_current_call), of a plugin or
 *     built-in filter, or else into the engine under test: a call that
 *     stays the same call for call_timeout seconds is a hang -- a P10
 *     finding that names the plugin file, the method and the key, or the
 *     engine and its method;
 *   - the interrupt flag and the deadline: the ops loop stops by itself
 *     between ops; when an op does not end within half a second of
 *     either, the watchdog gives up on it -- except, at the deadline, an
 *     op inside a call: the call has until its timeout to return, as
 *     at any other time, so that a hang is a finding however short the
 *     run's time.
 * A thread stuck in a plugin cannot be unwound, so whatever the watchdog
 * finds ends the process: the temporary database is removed first, then
 * on_abandon reports (or, without one, the finding is printed and the
 * process exits 1, or 128 + the signal).
 *
 * Invariant: the watchdog never touches the checker, the model or the
 * engine; it reads only the published call (atomics), the index of the
 * op being run (an atomic) and, under the lock, the ops themselves (a
 * streamed workload's chunks are swapped under it), so it cannot race
 * with the ops.
 */
#include "check_internal.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WATCH_TICK_NS 50000000L      /* 50 ms                                  */
#define GRACE_S 0.5                  /* an op may finish this long after a stop */

/* What an isolated run's child shows its parent, in shared memory: the op
 * being run, and the plugin call it died in (written by a crash handler). */
typedef struct shared {
    size_t at;
    char call[2048];
    /* a streamed workload's op being run (the parent has not read it) */
    fl_op op;                        /* kind and line; a.data points to key */
    uint8_t key[64];                 /* its first bytes                     */
} shared;

typedef struct run_state {
    const fl_runner *r;
    const fl_workload *w;            /* the ops (of a stream: the current chunk,
                                        swapped under lock)                   */
    size_t base;                     /* index of w->ops[0] in the workload     */
    fl_run_outcome *out;
    fl_checker *ck;
    char dir[4096];
    bool temp;                       /* dir is ours to remove                  */
    size_t at;                       /* the op being run (atomic)              */
    struct shared *shared;           /* for the parent of an isolated run
                                        (shared memory), or NULL               */
    bool done;                       /* the ops are over (under lock)          */
    pthread_mutex_t lock;            /* done, and the watchdog's wake-up       */
    pthread_cond_t wake;
    fl_check_violation_fn user_fn;
    void *user_arg;
} run_state;

/* ---- The first violation --------------------------------------------------------- */

/* The first violation of a property, kept (cut to fit) for reports. */
static void note_first(fl_run_outcome *o, int property, const char *message) {
    if (property <= 0 || property >= FL_PROPERTY_COUNT || o->first_of[property][0]) return;
    size_t n = strlen(message), cap = sizeof o->first_of[property];
    if (n >= cap) n = cap - 1;
    memcpy(o->first_of[property], message, n);
    o->first_of[property][n] = 0;
}

static void on_violation(void *arg, int property, unsigned line, const char *message) {
    run_state *st = arg;
    note_first(st->out, property, message);
    if (!st->out->property) {
        st->out->property = property;
        st->out->line = line;
        snprintf(st->out->message, sizeof st->out->message, "%s", message);
    }
    if (st->user_fn) st->user_fn(st->user_arg, property, line, message);
}

/* ---- The watchdog ------------------------------------------------------------------ */

/* Op i of the workload, when the ops at hand hold it (a streamed one's
 * current chunk), or NULL. */
static const fl_op *op_at(const run_state *st, size_t i) {
    return i >= st->base && i - st->base < st->w->count ? &st->w->ops[i - st->base] : NULL;
}

static void describe_op(const fl_op *op, char *buf, size_t cap) {
    snprintf(buf, cap, "line %u %s", op->line, fl_op_name(op->kind));
    if (op->kind < FL_OP_PUT || op->kind > FL_OP_SCAN) return;
    size_t used = strlen(buf);
    if (used + 2 < cap) { buf[used++] = ' '; buf[used] = 0; }
    ck_str(buf, cap, op->a.data, op->a.len);
}

/* "line 12 get k1" for op i of the workload ("" when not at hand). */
static void op_where(const run_state *st, size_t i, char *buf, size_t cap) {
    buf[0] = 0;
    const fl_op *op = op_at(st, i);
    if (op) describe_op(op, buf, cap);
}

/* Ends the process for a finding or an interruption (never returns). */
static void abandon(run_state *st, fl_run_outcome *so_far) {
    const fl_runner *r = st->r;
    if (st->temp) fl_remove_tree(st->dir);
    if (r->on_abandon) r->on_abandon(r->on_abandon_arg, so_far);
    FILE *m = r->check.messages ? r->check.messages : stderr;
    if (so_far->property) fprintf(m, "%s\n", so_far->message);
    else if (so_far->signal) fprintf(m, "%s: interrupted (signal %d) during %s; abandoned\n",
                                     r->check.path ? r->check.path : "workload", so_far->signal,
                                     so_far->message);
    fflush(m);
    _exit(so_far->property ? 1 : so_far->signal ? 128 + so_far->signal : 2);
}

static void hang_finding(run_state *st, const fl_call_now *call, double stuck, fl_run_outcome *f) {
    char where[256], target[400] = "";
    size_t at = __atomic_load_n(&st->at, __ATOMIC_RELAXED);
    op_where(st, at, where, sizeof where);
    if (call->has_target) {
        size_t n = call->target_len < sizeof call->target ? call->target_len : sizeof call->target;
        snprintf(target, sizeof target, " on %s ", call->target_kind == FL_TARGET_PREFIX ? "prefix" : "key");
        ck_str(target, sizeof target, call->target, n);
    }
    char subject[700];
    if (call->plugin[0]) snprintf(subject, sizeof subject, "plugin %s: %s", call->plugin, call->method);
    else snprintf(subject, sizeof subject, "%s: %s", call->who, call->method);
    f->property = FL_P10;
    f->hang = true;
    const fl_op *op = op_at(st, at);
    f->line = op ? op->line : 0;
    f->ops_run = at;
    snprintf(f->message, sizeof f->message,
             "P10 %s: %s%s%s did not return within %.3g s%s (%s; --call-timeout SEC sets the limit)",
             fl_property_name(FL_P10), where, where[0] ? ": " : "", subject, stuck, target,
             call->object ? call->who : "a call into the engine under test");
    note_first(f, FL_P10, f->message);
}

static void *watchdog(void *arg) {
    run_state *st = arg;
    const fl_runner *r = st->r;
    uint64_t seq = 0;
    bool in_call = false;
    double since = 0, stop_seen = 0;
    for (;;) {
        /* a tick, or at once when the ops are over */
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_nsec += WATCH_TICK_NS;
        if (until.tv_nsec >= 1000000000L) { until.tv_sec++; until.tv_nsec -= 1000000000L; }
        pthread_mutex_lock(&st->lock);
        while (!st->done && pthread_cond_timedwait(&st->wake, &st->lock, &until) == 0) {}
        bool over = st->done;
        pthread_mutex_unlock(&st->lock);
        if (over) return NULL;
        double now = fl_now();
        fl_call_now call;
        if (r->call_timeout > 0 && fl_checker_current_call(st->ck, &call, false)) {
            if (!in_call || call.seq != seq) {
                in_call = true;
                seq = call.seq;
                since = now;
            } else if (now - since >= r->call_timeout &&
                       fl_checker_current_call(st->ck, &call, true) && call.seq == seq) {
                fl_run_outcome f;
                memset(&f, 0, sizeof f);
                pthread_mutex_lock(&st->lock);      /* the ops stay put; never unlocked */
                hang_finding(st, &call, r->call_timeout, &f);
                abandon(st, &f);
            }
        } else {
            in_call = false;
        }
        int sig = r->interrupt ? *r->interrupt : 0;
        bool stop = sig || (r->deadline > 0 && now >= r->deadline);
        if (!stop) continue;
        if (!stop_seen) stop_seen = now;
        if (now - stop_seen < GRACE_S) continue;
        /* At the deadline inside a call, of a plugin or of the engine: it
         * has until the call timeout to return, and is a hang if it does
         * not (above).  Stopped there, a hang in the first trial of a
         * short check would pass for a run with no violation. */
        if (!sig && in_call) continue;
        /* the op in progress did not end: give up on it */
        fl_run_outcome f;
        memset(&f, 0, sizeof f);
        size_t at = __atomic_load_n(&st->at, __ATOMIC_RELAXED);
        f.ops_run = at;
        f.stopped = true;
        f.signal = sig;
        pthread_mutex_lock(&st->lock);          /* the ops stay put; never unlocked */
        op_where(st, at, f.message, sizeof f.message);
        abandon(st, &f);
    }
}

/* ---- The ops -------------------------------------------------------------------------- */

static int make_dir(run_state *st) {
    const fl_runner *r = st->r;
    if (r->check.dir) {
        snprintf(st->dir, sizeof st->dir, "%s", r->check.dir);
        return FL_OK;
    }
    const char *base = r->scratch;
    if (!base || !*base) base = getenv("TMPDIR");
    if (!base || !*base) base = "/tmp";
    snprintf(st->dir, sizeof st->dir, "%s/filterlab-db.XXXXXX", base);
    if (!mkdtemp(st->dir)) {
        snprintf(st->out->error, sizeof st->out->error,
                 "cannot create a temporary database directory in %s: %s", base, strerror(errno));
        st->out->rc = FL_ERR_IO;
        return FL_ERR_IO;
    }
    st->temp = true;
    return FL_OK;
}

static void engine_error(run_state *st, const fl_op *op, int rc) {
    fl_run_outcome *out = st->out;
    if (rc == FL_ERR_ENGINE_DIED) {
        /* the engine is gone (an adapter program that died): a finding,
         * as a crash of an engine in process is, never bad input */
        const char *path = st->r->check.path ? st->r->check.path : "workload";
        out->rc = rc;
        out->error_line = op ? op->line : 0;
        snprintf(out->error, sizeof out->error, "%s", fl_checker_errmsg(st->ck));
        out->crashed = true;
        out->property = FL_P10;
        out->line = op ? op->line : 0;
        if (op)
            snprintf(out->message, sizeof out->message, "P10 %s: %s:%u: %s: %s", fl_property_name(FL_P10), path,
                     op->line, fl_op_name(op->kind), fl_checker_errmsg(st->ck));
        else
            snprintf(out->message, sizeof out->message, "P10 %s: %s: %s", fl_property_name(FL_P10), path,
                     fl_checker_errmsg(st->ck));
        return;
    }
    const char *path = st->r->check.path ? st->r->check.path : "workload";
    out->rc = rc;
    out->error_line = op ? op->line : 0;
    if (op)
        snprintf(out->error, sizeof out->error, "%s:%u: %s failed: %s", path, op->line,
                 fl_op_name(op->kind), fl_checker_errmsg(st->ck));
    else
        snprintf(out->error, sizeof out->error, "%s: %s", path, fl_checker_errmsg(st->ck));
}

/* ---- Crashes in an isolated run's child ---------------------------------------------- */

static run_state *crashing;          /* the child's one run, for the handler */

/* On a fatal signal in the child: note the plugin call it came in, if any,
 * then die of the signal as before (SA_RESETHAND). */
static void on_fatal(int sig) {
    run_state *st = crashing;
    fl_call_now call;
    if (st && st->ck && st->shared && fl_checker_current_call(st->ck, &call, true)) {
        if (!call.object)                       /* the engine's own: "engine rocksdb: get" */
            snprintf(st->shared->call, sizeof st->shared->call, "%s: %s", call.who, call.method);
        else
            snprintf(st->shared->call, sizeof st->shared->call, "%s%s%s%s (%s)",
                     call.plugin[0] ? "plugin " : "", call.plugin, call.plugin[0] ? ": " : "",
                     call.method, call.who);
    }
    raise(sig);
}

static void catch_fatal(run_state *st) {
    static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sa.sa_flags = (int)SA_RESETHAND | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    crashing = st;
    for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++) sigaction(fatal[i], &sa, NULL);
}

static int run_here(const fl_runner *r, const fl_workload *w, fl_run_outcome *out, shared *sh) {
    memset(out, 0, sizeof *out);
    run_state st;
    memset(&st, 0, sizeof st);
    st.r = r;
    st.w = w;
    st.out = out;
    st.shared = sh;
    if (make_dir(&st) != FL_OK) return FL_ERR_IO;
    fl_check_config cfg = r->check;
    cfg.dir = st.dir;
    for (size_t i = 0; i < w->count && !cfg.crashes; i++) cfg.crashes = w->ops[i].kind == FL_OP_CRASH;
    st.user_fn = cfg.on_violation;
    st.user_arg = cfg.on_violation_arg;
    cfg.on_violation = on_violation;
    cfg.on_violation_arg = &st;
    int rc = fl_checker_new(&cfg, &st.ck);
    if (rc != FL_OK) {
        out->rc = rc;
        snprintf(out->error, sizeof out->error, "cannot start the checker: %s", fl_strerror(rc));
        if (st.temp) fl_remove_tree(st.dir);
        return FL_OK;
    }
    if (sh) catch_fatal(&st);
    pthread_t dog;
    pthread_condattr_t ca;
    pthread_mutex_init(&st.lock, NULL);
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&st.wake, &ca);
    pthread_condattr_destroy(&ca);
    bool watching = (r->call_timeout > 0 || r->deadline > 0 || r->interrupt) &&
                    pthread_create(&dog, NULL, watchdog, &st) == 0;
    double start = fl_now();
    size_t i = 0;
    fl_workload chunk = { 0 };          /* a stream's current chunk */
    for (;; i++) {
        if (i - st.base == st.w->count) {
            if (!r->more) break;
            pthread_mutex_lock(&st.lock);
            st.base = i;
            st.w = &chunk;
            int mrc = r->more(r->more_arg, &chunk, out->error, sizeof out->error);
            pthread_mutex_unlock(&st.lock);
            if (mrc != 0) {
                out->rc = FL_ERR_INVALID;
                if (mrc == -2) {
                    out->stopped = true;
                    out->signal = r->interrupt ? *r->interrupt : 0;
                    out->rc = FL_OK;
                    out->error[0] = 0;
                }
                break;
            }
            if (chunk.count == 0) break;
        }
        const fl_op *op = &st.w->ops[i - st.base];
        int sig = r->interrupt ? *r->interrupt : 0;
        if (sig || (r->deadline > 0 && fl_now() >= r->deadline) ||
            (r->on_op && r->on_op(r->on_op_arg, i, op) != 0)) {
            out->stopped = true;
            out->signal = sig;
            break;
        }
        __atomic_store_n(&st.at, i, __ATOMIC_RELAXED);
        if (st.shared) {
            if (r->more) {
                size_t n = op->a.len < sizeof st.shared->key ? op->a.len : sizeof st.shared->key;
                memcpy(st.shared->key, op->a.data, n);
                st.shared->op.kind = op->kind;
                st.shared->op.line = op->line;
                st.shared->op.a.len = n;
            }
            __atomic_store_n(&st.shared->at, i, __ATOMIC_RELEASE);
        }
        fl_checker_ahead(st.ck, i, op, st.w->count - (i - st.base));
        if ((rc = fl_checker_run(st.ck, op)) != FL_OK) {
            engine_error(&st, op, rc);
            i++;
            break;
        }
        if (r->after_op) {
            fl_check_summary sum;
            fl_checker_summary(st.ck, &sum);
            r->after_op(r->after_op_arg, i, op, &sum.metrics);
        }
        if (r->stop_early && out->property) {
            out->stopped = true;
            i++;
            break;
        }
    }
    out->ops_run = i;
    if (out->rc == FL_OK && !out->stopped) {
        if ((rc = fl_checker_finish(st.ck, &out->sum)) != FL_OK) engine_error(&st, NULL, rc);
    } else {
        fl_checker_summary(st.ck, &out->sum);
    }
    out->elapsed = fl_now() - start;
    FILE *res = r->check.results;
    if (res && (fflush(res) != 0 || ferror(res)) && out->rc == FL_OK) {
        out->rc = FL_ERR_IO;
        snprintf(out->error, sizeof out->error, "%s: writing the results: %s",
                 r->check.path ? r->check.path : "workload", strerror(errno));
    }
    if (watching) {
        pthread_mutex_lock(&st.lock);
        st.done = true;
        pthread_cond_signal(&st.wake);
        pthread_mutex_unlock(&st.lock);
        pthread_join(dog, NULL);
    }
    pthread_cond_destroy(&st.wake);
    pthread_mutex_destroy(&st.lock);
    crashing = NULL;
    fl_checker_free(st.ck);
    fl_workload_free(&chunk);
    if (st.temp) fl_remove_tree(st.dir);
    return FL_OK;
}

/* ---- Isolation: the run in a child process ------------------------------------------- */

typedef struct child_ctx { int fd; } child_ctx;

/* In the child: the watchdog's finding is the outcome. */
static void child_abandon(void *arg, const fl_run_outcome *so_far) {
    child_ctx *c = arg;
    fflush(NULL);
    fl_write_all(c->fd, so_far, sizeof *so_far);      /* (the parent sees a short one) */
    _exit(0);
}

/* The tail of what the child wrote to stderr (also passed on to ours as it
 * comes): a library that aborts says why there first -- RocksDB's failed
 * assertion, for one. */
typedef struct err_tail {
    char buf[2048];
    size_t len;
} err_tail;

static void tail_add(err_tail *t, const char *p, size_t n) {
    if (n >= sizeof t->buf) {
        p += n - sizeof t->buf;
        n = sizeof t->buf;
    }
    if (t->len + n > sizeof t->buf) {
        size_t drop = t->len + n - sizeof t->buf;
        memmove(t->buf, t->buf + drop, t->len - drop);
        t->len -= drop;
    }
    memcpy(t->buf + t->len, p, n);
    t->len += n;
}

/* The last non-empty line of the tail, without its newline. */
static void tail_last_line(const err_tail *t, char *out, size_t cap) {
    size_t end = t->len;
    while (end > 0 && (t->buf[end - 1] == '\n' || t->buf[end - 1] == '\r')) end--;
    size_t start = end;
    while (start > 0 && t->buf[start - 1] != '\n') start--;
    size_t n = end - start < cap - 1 ? end - start : cap - 1;
    memcpy(out, t->buf + start, n);
    out[n] = 0;
}

/* Reads the child's outcome (fd) and its stderr (efd) until both end,
 * ending the child at an interruption or two seconds past the time its
 * watchdog gives a call in progress at the deadline (the call timeout);
 * false when no whole outcome came. */
static bool receive(const fl_runner *r, pid_t pid, int fd, int efd, fl_run_outcome *out, err_tail *tail,
                    int *killed_for) {
    size_t got = 0;
    *killed_for = 0;
    bool out_open = true, err_open = efd >= 0;
    while (out_open || err_open) {
        struct pollfd pfd[2] = { { out_open ? fd : -1, POLLIN, 0 }, { err_open ? efd : -1, POLLIN, 0 } };
        int n = poll(pfd, 2, 100);
        if (n < 0 && errno != EINTR) break;
        if (n > 0 && (pfd[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            ssize_t k = got < sizeof *out ? read(fd, (char *)out + got, sizeof *out - got) : 0;
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) out_open = false;
            else got += (size_t)k;
        }
        if (n > 0 && (pfd[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            char buf[4096];
            ssize_t k = read(efd, buf, sizeof buf);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) {
                err_open = false;
            } else {
                tail_add(tail, buf, (size_t)k);
                for (ssize_t w = 0, m; !r->quiet_stderr && w < k; w += m)   /* passed on as it comes */
                    if ((m = write(STDERR_FILENO, buf + w, (size_t)(k - w))) <= 0) break;
            }
        }
        if (n > 0) continue;
        int sig = r->interrupt ? *r->interrupt : 0;
        if (sig || (r->deadline > 0 && fl_now() >= r->deadline + 2.0 + r->call_timeout)) {
            *killed_for = sig ? sig : -1;
            kill(pid, SIGKILL);
            break;
        }
    }
    return got == sizeof *out;
}

static int run_isolated(const fl_runner *r, const fl_workload *w, fl_run_outcome *out) {
    memset(out, 0, sizeof *out);
    run_state st;                        /* for make_dir and messages only */
    memset(&st, 0, sizeof st);
    st.r = r;
    st.w = w;
    st.out = out;
    if (make_dir(&st) != FL_OK) return FL_ERR_IO;
    shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int fds[2] = { -1, -1 }, efds[2] = { -1, -1 };
    if (sh == MAP_FAILED || pipe(fds) != 0 || pipe(efds) != 0) {
        snprintf(out->error, sizeof out->error, "cannot start an isolated run: %s", strerror(errno));
        out->rc = FL_ERR_IO;
        for (int i = 0; i < 2; i++) {
            if (fds[i] >= 0) close(fds[i]);
            if (efds[i] >= 0) close(efds[i]);
        }
        if (sh != MAP_FAILED) munmap(sh, sizeof *sh);
        if (st.temp) fl_remove_tree(st.dir);
        return FL_ERR_IO;
    }
    memset(sh, 0, sizeof *sh);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        close(efds[0]);
        dup2(efds[1], STDERR_FILENO);    /* the parent passes it on, and keeps its tail */
        close(efds[1]);
        signal(SIGINT, SIG_IGN);         /* the parent decides */
        signal(SIGTERM, SIG_IGN);
        signal(SIGHUP, SIG_IGN);
        child_ctx c = { fds[1] };
        fl_runner here = *r;
        here.isolate = false;
        here.check.dir = st.dir;
        here.interrupt = NULL;
        here.on_abandon = child_abandon;
        here.on_abandon_arg = &c;
        fl_run_outcome o;
        run_here(&here, w, &o, sh);
        fflush(NULL);
        fl_write_all(fds[1], &o, sizeof o);
        _exit(0);
    }
    close(fds[1]);
    close(efds[1]);
    if (pid < 0) {
        close(fds[0]);
        close(efds[0]);
        munmap(sh, sizeof *sh);
        if (st.temp) fl_remove_tree(st.dir);
        snprintf(out->error, sizeof out->error, "cannot fork: %s", strerror(errno));
        out->rc = FL_ERR_IO;
        return FL_ERR_IO;
    }
    int killed_for;
    err_tail tail = { .len = 0 };
    bool got = receive(r, pid, fds[0], efds[0], out, &tail, &killed_for);
    close(fds[0]);
    close(efds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    size_t at = __atomic_load_n(&sh->at, __ATOMIC_ACQUIRE);
    char call[sizeof sh->call];
    memcpy(call, sh->call, sizeof call);
    call[sizeof call - 1] = 0;
    fl_op streamed = sh->op;             /* a streamed workload: what the child ran */
    uint8_t key[sizeof sh->key];
    memcpy(key, sh->key, sizeof key);
    streamed.a.data = key;
    bool have_streamed = r->more && streamed.kind != 0;
    munmap(sh, sizeof *sh);
    if (st.temp) fl_remove_tree(st.dir);
    if (got) return FL_OK;
    memset(out, 0, sizeof *out);
    out->ops_run = at;
    char where[256];
    op_where(&st, at, where, sizeof where);
    if (have_streamed) describe_op(&streamed, where, sizeof where);
    if (killed_for) {                    /* stopped here: not a finding */
        out->stopped = true;
        out->signal = killed_for > 0 ? killed_for : 0;
        snprintf(out->message, sizeof out->message, "%s", where);
        return FL_OK;
    }
    /* the child died: a crash is a failure of the bad-input property */
    out->property = FL_P10;
    out->crashed = true;
    out->stopped = true;
    const fl_op *op = op_at(&st, at);
    out->line = op ? op->line : have_streamed ? streamed.line : 0;
    char said[1024];
    tail_last_line(&tail, said, sizeof said);
    if (WIFSIGNALED(status))
        snprintf(out->message, sizeof out->message, "P10 %s: %s%sthe run died with signal %d (%s)%s%s%s%s",
                 fl_property_name(FL_P10), where, where[0] ? ": " : "", WTERMSIG(status),
                 strsignal(WTERMSIG(status)), call[0] ? " in a call of " : "", call,
                 said[0] ? "; its last words on stderr: " : "", said);
    else
        snprintf(out->message, sizeof out->message, "P10 %s: %s%sthe run exited with status %d%s%s",
                 fl_property_name(FL_P10), where, where[0] ? ": " : "", WEXITSTATUS(status),
                 said[0] ? "; its last words on stderr: " : "", said);
    note_first(out, FL_P10, out->message);
    return FL_OK;
}

int fl_run_workload(const fl_runner *r, const fl_workload *w, fl_run_outcome *out) {
    return r->isolate ? run_isolated(r, w, out) : run_here(r, w, out, NULL);
}
