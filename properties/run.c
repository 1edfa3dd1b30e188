/*
 * run.c -- the runner: one workload through the checker, start to end
 * (check.h, fl_run_workload).  Every command runs workloads only through
 * here: replay, report, check's trials and shrink candidates, fuzz_ops and
 * the benchmarks.
 *
 * A watchdog thread runs beside the ops when a call timeout, a deadline or
 * an interrupt flag is given.  It polls every 50 ms:
 *   - the plugin call in progress (fl_checker_current_call): a call that
 *     stays the same call for call_timeout seconds is a hang -- a P10
 *     finding that names the plugin file, the method and the key;
 *   - the interrupt flag and the deadline: the ops loop stops by itself
 *     between ops; when an op does not end within a second of either, the
 *     watchdog gives up on it.
 * A thread stuck in a plugin cannot be unwound, so whatever the watchdog
 * finds ends the process: the temporary database is removed first, then
 * on_abandon reports (or, without one, the finding is printed and the
 * process exits 1, or 128 + the signal).
 *
 * Invariant: the watchdog never touches the checker, the model or the
 * engine; it reads only the published call (atomics) and the index of the
 * op being run (an atomic), so it cannot race with the ops.
 */
#include "check_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define WATCH_TICK_NS 50000000L      /* 50 ms                                  */
#define GRACE_S 1.0                  /* an op may finish this long after a stop */

typedef struct run_state {
    const fl_runner *r;
    const fl_workload *w;
    fl_run_outcome *out;
    fl_checker *ck;
    char dir[4096];
    bool temp;                       /* dir is ours to remove                  */
    size_t at;                       /* the op being run (atomic)              */
    bool done;                       /* the ops are over (under lock)          */
    pthread_mutex_t lock;            /* done, and the watchdog's wake-up       */
    pthread_cond_t wake;
    fl_check_violation_fn user_fn;
    void *user_arg;
} run_state;

/* ---- The first violation --------------------------------------------------------- */

static void on_violation(void *arg, int property, unsigned line, const char *message) {
    run_state *st = arg;
    if (!st->out->property) {
        st->out->property = property;
        st->out->line = line;
        snprintf(st->out->message, sizeof st->out->message, "%s", message);
    }
    if (st->user_fn) st->user_fn(st->user_arg, property, line, message);
}

/* ---- The watchdog ------------------------------------------------------------------ */

/* "line 12 get k1" for op i of the workload. */
static void op_where(const run_state *st, size_t i, char *buf, size_t cap) {
    buf[0] = 0;
    if (i >= st->w->count) return;
    const fl_op *op = &st->w->ops[i];
    snprintf(buf, cap, "line %u %s", op->line, fl_op_name(op->kind));
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
    f->line = at < st->w->count ? st->w->ops[at].line : 0;
    f->ops_run = at;
    snprintf(f->message, sizeof f->message,
             "P10 %s: %s%s%s did not return within %.3g s%s (%s; --call-timeout SEC sets the limit)",
             fl_property_name(FL_P10), where, where[0] ? ": " : "", subject, stuck, target, call->who);
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
        /* the op in progress did not end: give up on it */
        fl_run_outcome f;
        memset(&f, 0, sizeof f);
        size_t at = __atomic_load_n(&st->at, __ATOMIC_RELAXED);
        f.ops_run = at;
        f.stopped = true;
        f.signal = sig;
        op_where(st, at, f.message, sizeof f.message);
        if (!sig && r->call_timeout > 0 && fl_checker_current_call(st->ck, &call, true) &&
            now - since >= GRACE_S) {
            /* at the deadline inside one plugin call for a while: say which */
            hang_finding(st, &call, now - since, &f);
            f.property = 0;
        }
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
    const char *path = st->r->check.path ? st->r->check.path : "workload";
    out->rc = rc;
    out->error_line = op ? op->line : 0;
    if (op)
        snprintf(out->error, sizeof out->error, "%s:%u: %s failed: %s", path, op->line,
                 fl_op_name(op->kind), fl_checker_errmsg(st->ck));
    else
        snprintf(out->error, sizeof out->error, "%s: %s", path, fl_checker_errmsg(st->ck));
}

int fl_run_workload(const fl_runner *r, const fl_workload *w, fl_run_outcome *out) {
    memset(out, 0, sizeof *out);
    run_state st;
    memset(&st, 0, sizeof st);
    st.r = r;
    st.w = w;
    st.out = out;
    if (make_dir(&st) != FL_OK) return FL_ERR_IO;
    fl_check_config cfg = r->check;
    cfg.dir = st.dir;
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
    for (; i < w->count; i++) {
        const fl_op *op = &w->ops[i];
        int sig = r->interrupt ? *r->interrupt : 0;
        if (sig || (r->deadline > 0 && fl_now() >= r->deadline) ||
            (r->on_op && r->on_op(r->on_op_arg, i, op) != 0)) {
            out->stopped = true;
            out->signal = sig;
            break;
        }
        __atomic_store_n(&st.at, i, __ATOMIC_RELAXED);
        if ((rc = fl_checker_run(st.ck, op)) != FL_OK) {
            engine_error(&st, op, rc);
            i++;
            break;
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
    if (watching) {
        pthread_mutex_lock(&st.lock);
        st.done = true;
        pthread_cond_signal(&st.wake);
        pthread_mutex_unlock(&st.lock);
        pthread_join(dog, NULL);
    }
    pthread_cond_destroy(&st.wake);
    pthread_mutex_destroy(&st.lock);
    fl_checker_free(st.ck);
    if (st.temp) fl_remove_tree(st.dir);
    return FL_OK;
}
