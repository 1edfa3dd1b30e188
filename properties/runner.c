/*
 * runner.c -- `filterlab check`: random trials, deterministic from (seed,
 * trial number), each a configuration and a generated workload run through
 * the checker; the first failing trial is shrunk and written out with a
 * header saying how to replay it.
 *
 * A trial is a shape of workload (`filterlab gen`), a generator seed and a
 * configuration drawn from the engine's configuration space
 * (fl_engine_ops.space, each in its adapter under adapters/).  Where P9 is checked, every eighth trial
 * is an FP trial: many absent gets and prefixes over several overlapping
 * L0 SSTs, so P9 has enough eligible probes.
 */
#include "check_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define FL_LINT_INPUTS 20000        /* keys and prefixes per extractor lint */
#define SHRINK_CALL_TIMEOUT 1.0     /* seconds: shrinking a hung call        */

/* ---- Randomness ------------------------------------------------------------ */

static uint64_t fl_trial_seed(uint64_t seed, uint64_t trial) {
    return fl_mix64(seed * 0x100000001B3ull ^ fl_mix64(trial + 1));
}

/* ---- Trials ---------------------------------------------------------------------- */

/* One to four `crash` ops among w's ops, after the first (the open): the
 * process dies there, or (half of them) at one of the next 120 file
 * operations -- in the middle of a flush or a compaction, as often as not
 * -- and the trial goes on with what was durable.  Lines are numbered
 * afresh, one per op. */
static int add_crashes(fl_rng *r, fl_workload *w) {
    if (w->count < 2) return FL_OK;
    size_t n = 1 + fl_rng_below(r, 4), total = w->count + n;
    fl_op *ops = calloc(total, sizeof *ops);
    bool *at = calloc(total, sizeof *at);
    if (!ops || !at) {
        free(ops);
        free(at);
        return FL_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) at[1 + fl_rng_below(r, total - 1)] = true;    /* (may repeat: fewer) */
    size_t k = 0, j = 0;
    unsigned line = w->ops[0].line;
    for (size_t i = 0; i < total && j < w->count; i++) {
        if (i > 0 && at[i])      /* now, or at a file operation of some op to come */
            ops[k] = (fl_op){ .kind = FL_OP_CRASH, .count = fl_rng_chance(r, 50) ? 1 + (uint32_t)fl_rng_below(r, 120) : 0 };
        else ops[k] = w->ops[j++];
        ops[k].line = line++;
        k++;
    }
    while (j < w->count) {
        ops[k] = w->ops[j++];
        ops[k++].line = line++;
    }
    free(at);
    free(w->ops);
    w->ops = ops;
    w->count = k;
    return FL_OK;
}

/* Generates trial `trial` into *w: its shape and generator seed here, its
 * configuration from the engine's space (check.h, fl_space). */
static int make_trial(const fl_run_config *c, uint64_t trial, fl_workload *w, char *err, size_t err_len) {
    const fl_space *space = ck_space_of(c->engine);
    uint64_t seed = fl_trial_seed(c->seed, trial);
    fl_rng r = { seed };
    bool fp_trial = space->fp_trials && trial % 8 == 7;
    static const fl_gen_shape shapes[] = {
        FL_SHAPE_UNIFORM, FL_SHAPE_ZIPF, FL_SHAPE_GROUP_SUFFIX, FL_SHAPE_DELIMITED,
        FL_SHAPE_TIMESERIES, FL_SHAPE_ADVERSARIAL, FL_SHAPE_ADVERSARIAL,
    };
    fl_gen_shape shape = fp_trial ? (fl_rng_chance(&r, 50) ? FL_SHAPE_UNIFORM : FL_SHAPE_GROUP_SUFFIX)
                                  : shapes[fl_rng_below(&r, sizeof shapes / sizeof *shapes)];
    fl_gen_options o;
    fl_gen_defaults(&o, shape);
    o.seed = fl_rng_next(&r);
    fl_space_trial *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, err_len, "out of memory");
        return FL_ERR_NOMEM;
    }
    t->gen = &o;
    t->fp_trial = fp_trial;
    int rc = space->configure(c, &r, t, err, err_len);
    if (rc == FL_OK && fl_gen_workload(&o, w, err, err_len) != 0) rc = FL_ERR_INVALID;
    if (space->release) space->release(t);
    free(t);
    if (rc == FL_OK && space->crashes && !fp_trial && (c->crash || trial % 8 == 3)) rc = add_crashes(&r, w);
    if (rc != FL_OK) return rc;
    char desc[512];
    snprintf(desc, sizeof desc, "filterlab check --seed %llu --trial %llu%s%s (shape %s)",
             (unsigned long long)c->seed, (unsigned long long)trial, c->trial_flags ? " " : "",
             c->trial_flags ? c->trial_flags : "", fl_gen_shape_name(shape));
    free(w->description);
    w->description = strdup(desc);
    return FL_OK;
}

/* ---- The extractor lint ------------------------------------------------------------ */

/* The standalone contract lint of --extractor SPEC as a workload: a bloom
 * around the extractor, then gets and scan_prefixes of generated keys and
 * prefixes (random bytes over a small alphabet with the usual delimiters,
 * of lengths around typical extractor lengths) on an empty database, so
 * that P7 checks each of them -- and a failure is shrunk and replayed like
 * any other. */
static int lint_workload(const fl_run_config *c, size_t which, fl_workload *w, char *err,
                         size_t err_len) {
    static const uint8_t alphabet[] = { 'a', 'b', ':', '/', '.', '_', 0x00, 0xFF, '0', '1' };
    char spec[1200];
    fl_text open;
    fl_text_clear(&open);
    snprintf(spec, sizeof spec, "bloom(prefix=%s)", c->extractors[which]);
    fl_text_add(&open, "policies=");
    fl_text_add_quoted(&open, spec);
    memset(w, 0, sizeof *w);
    char line[8300];
    snprintf(line, sizeof line, "filterlab-workload 1\nopen %s\n", open.buf);
    if (fl_workload_parse(line, strlen(line), "lint", w, err, err_len) != 0) return FL_ERR_INVALID;
    uint64_t s = c->seed ^ fl_mix64(which + 1);
    uint8_t buf[40];
    for (unsigned i = 0; i < FL_LINT_INPUTS; i++) {
        size_t len = fl_splitmix64(&s) % 24;
        for (size_t j = 0; j < len; j++) buf[j] = alphabet[fl_splitmix64(&s) % sizeof alphabet];
        fl_op op = { .kind = (i & 1) ? FL_OP_GET : FL_OP_SCAN_PREFIX, .line = i + 3,
                     .a = { buf, len } };
        if (fl_workload_add(w, &op) != 0) {
            fl_workload_free(w);
            snprintf(err, err_len, "out of memory");
            return FL_ERR_NOMEM;
        }
    }
    char desc[1400];
    snprintf(desc, sizeof desc, "the extractor lint of --extractor %s (filterlab check --seed %llu%s%s)",
             c->extractors[which], (unsigned long long)c->seed, c->trial_flags ? " " : "",
             c->trial_flags ? c->trial_flags : "");
    w->description = strdup(desc);
    return FL_OK;
}

/* ---- The run -------------------------------------------------------------------- */

/* A violation message names its op by line ("P1 name: line 82 get k: ...");
 * in the written file that op sits at another line: w's op with the old
 * line number is again's op at the same index. */
static void renumber(char *msg, size_t cap, const fl_workload *w, const fl_workload *again) {
    char *at = strstr(msg, ": line ");
    if (!at || w->count != again->count) return;
    char *digits = at + 7, *end;
    unsigned long old = strtoul(digits, &end, 10);
    if (end == digits || *end != ' ') return;
    for (size_t i = 0; i < w->count; i++) {
        if (w->ops[i].line != old) continue;
        char rest[4096];
        snprintf(rest, sizeof rest, "%s", end);
        snprintf(digits, cap - (size_t)(digits - msg), "%u%s", again->ops[i].line, rest);
        return;
    }
}

/* Writes the minimized workload with its header; the message is made to
 * name the file's own lines.  With bug (a finding that matched a known
 * upstream bug) the file is known-ID-seedS-NAME.wl and its header says so
 * first. */
static int write_failure(const fl_run_config *c, fl_run_result *res, fl_workload *w,
                         const char *found_by, const fl_known_bug *bug, char *err, size_t err_len) {
    if (fl_mkdir_p(c->out_dir) != 0) {
        snprintf(err, err_len, "--out %s: %s", c->out_dir, strerror(errno));
        return FL_ERR_IO;
    }
    if (bug)
        snprintf(res->path, sizeof res->path, "%s/known-%s-seed%llu-%s.wl", c->out_dir, bug->id,
                 (unsigned long long)c->seed, found_by);
    else
        snprintf(res->path, sizeof res->path, "%s/P%d-seed%llu-%s.wl", c->out_dir, res->property,
                 (unsigned long long)c->seed, found_by);
    char how[2048], known[2048] = "";
    if (res->trial == UINT64_MAX)
        snprintf(how, sizeof how, "filterlab check --seed %llu%s%s (its extractor lint)",
                 (unsigned long long)c->seed, c->trial_flags ? " " : "", c->trial_flags ? c->trial_flags : "");
    else
        snprintf(how, sizeof how, "filterlab check --seed %llu --trial %llu%s%s",
                 (unsigned long long)c->seed, (unsigned long long)res->trial, c->trial_flags ? " " : "",
                 c->trial_flags ? c->trial_flags : "");
    if (bug)
        snprintf(known, sizeof known, "%s %s: %s\n%s: %s\n", fl_known_class(bug), bug->id, bug->about,
                 bug->hazard ? "why" : "fixed upstream", bug->fix);
    for (int pass = 0; pass < 2; pass++) {
        char desc[16384];
        char timeout[64] = "";
        if (fl_run_replay_call_timeout(c, res) > 0)
            snprintf(timeout, sizeof timeout, " --call-timeout %g", fl_run_replay_call_timeout(c, res));
        snprintf(desc, sizeof desc,
                 "%sP%d %s, found by: %s\nminimized from %zu to %zu ops%s\n%s\nreplay: filterlab replay %s%s%s%s",
                 known, res->property, fl_property_name(res->property), how, res->original_ops, w->count,
                 res->shrink_cut ? " (shrinking did not finish, so it may not be 1-minimal)" : "", res->message,
                 res->path, c->replay_flags ? " " : "", c->replay_flags ? c->replay_flags : "", timeout);
        free(w->description);
        w->description = strdup(desc);
        FILE *f = fopen(res->path, "w");
        if (!f || fl_workload_print(w, f) != 0 || fclose(f) != 0) {
            snprintf(err, err_len, "%s: cannot write: %s", res->path, strerror(errno));
            return FL_ERR_IO;
        }
        if (pass) break;
        /* the message as a replay of this file will print it: the same op,
         * at its line in the file */
        fl_workload again;
        char perr[512];
        if (fl_workload_load(res->path, &again, perr, sizeof perr) != 0) break;
        renumber(res->message, sizeof res->message, w, &again);
        fl_workload_free(&again);
    }
    return FL_OK;
}

/* The minimal workload's own failure, run once more: shrinking keeps the
 * property, not the message, so the trial's message may name keys and
 * items the written file no longer holds.  When w still fails with that
 * property, its message replaces the trial's in res (what a replay of the
 * file prints) and *at is the failing op's index (the op count for a
 * failure after the last op, at the closing flush); else 0 and res keeps
 * the trial's message. */
static bool own_failure(const fl_trial_env *env, fl_run_result *res, const fl_workload *w, int property,
                        fl_trial_outcome *again, size_t *at) {
    memset(again, 0, sizeof *again);
    if (fl_check_workload(env, w, true, again) != FL_OK || again->property != property) return false;
    *at = 0;                                        /* the failing op: by its line */
    while (*at < w->count && w->ops[*at].line != again->line) (*at)++;
    /* line 0: after the last op, at the checker's closing flush (at = count) */
    if (*at == w->count && again->line != 0) return false;
    snprintf(res->message, sizeof res->message, "%s", again->message);
    return true;
}

/* A finding shrunk to the end (w is 1-minimal) against the known bugs: the
 * index of the one it is, or -1.  It is judged by the minimal workload's
 * own failure (again, at op at). */
static int known_bug(const fl_run_config *c, const fl_trial_env *env, const fl_workload *w,
                     const fl_trial_outcome *again, size_t at, bool unshrunk) {
    fl_known_finding f = { (env->engine ? env->engine : fl_engine_default())->name, w, at, again->property,
                           again->message, unshrunk };
    return fl_known_match(c->known, &f);
}

/* A failing workload: shrunk (within the time left) and written.  *known is
 * the known bug it matched (the run goes on; res counts it and is
 * otherwise as it was), or -1 (res holds the failure: the run is over). */
static int found(const fl_run_config *c, const fl_trial_env *env, fl_run_result *res, fl_workload *w,
                 uint64_t trial, const fl_trial_outcome *o, const char *name, int *known, char *err,
                 size_t err_len) {
    *known = -1;
    fl_run_result *before = c->known ? malloc(sizeof *before) : NULL;
    if (c->known && !before) {
        snprintf(err, err_len, "out of memory");
        return FL_ERR_NOMEM;
    }
    if (before) *before = *res;
    res->property = o->property;
    res->trial = trial;
    res->original_ops = w->count;
    snprintf(res->message, sizeof res->message, "%s", o->message);
    /* a known bug whose message alone identifies it, found (and shrunk)
     * before in this run: counted without shrinking it again */
    if (c->known) {
        size_t oat = 0;
        while (oat < w->count && w->ops[oat].line != o->line) oat++;
        int k0 = oat < w->count || o->line == 0 ? known_bug(c, env, w, o, oat, true) : -1;
        if (k0 >= 0 && before->known_by_bug[k0] > 0) {
            const fl_known_bug *bug = fl_known_get(c->known, (size_t)k0);
            if (c->log)
                fprintf(c->log, "check: %s %s again in %s, identified by its message (not shrunk "
                        "again): %s\n", fl_known_class(bug), bug->id, name, o->message);
            *res = *before;
            free(before);
            res->known_by_bug[k0]++;
            res->known_findings++;
            *known = k0;
            return FL_OK;
        }
    }
    if (c->log)
        fprintf(c->log, "check: %s in %s (seed %llu); shrinking %zu ops...\n", o->message, name,
                (unsigned long long)c->seed, w->count);
    /* shrinking has a budget of its own: --time bounds the trials, not the
     * shrinking of what they found (a run may end up to shrink_seconds
     * past it), so that a finding near the deadline is still made minimal
     * and matched against the known bugs */
    double budget = c->shrink_seconds;
    if (budget < 0) budget = 0;
    double t0 = fl_now();
    /* the trial as it failed: at the deadline, when the shrunk workload
     * cannot be run again, what an identified-by-message entry is matched
     * against */
    fl_workload orig = { 0 };
    for (size_t i = 0; c->known && i < w->count; i++)
        if (fl_workload_add(&orig, &w->ops[i]) != 0) {
            fl_workload_free(&orig);
            break;
        }
    fl_trial_env shrink_env = *env;
    shrink_env.quiet = true;                 /* what a trial said, it said once */
    shrink_env.deadline = 0;                 /* the shrink's own budget, not --time's */
    if (o->hang && shrink_env.call_timeout > SHRINK_CALL_TIMEOUT) {
        shrink_env.call_timeout = SHRINK_CALL_TIMEOUT;
        res->shrink_call_timeout = SHRINK_CALL_TIMEOUT;
    }
    fl_shrink(&shrink_env, w, o->property, budget);
    /* shrinking returns before its budget only at its fixpoint: w is then
     * 1-minimal, the only workload a signature is matched against */
    bool complete = fl_now() - t0 < budget && !(env->interrupt && *env->interrupt);
    res->shrink_cut = !complete;
    res->minimal_ops = w->count;
    fl_trial_outcome again;
    size_t at;
    bool own = own_failure(&shrink_env, res, w, o->property, &again, &at);
    if (!own && c->log && again.property != o->property)
        fprintf(c->log, "check: the workload did not fail with %s again when run once more in a process of its "
                "own: the engine is not deterministic, or the finding came of what ran before it in its worker "
                "process; the workload written may not reproduce it\n", fl_property_name(o->property));
    else if (!own && c->log)
        fprintf(c->log, "check: the workload failed with %s again, but at line %u, which it does not have: "
                "the finding is not matched against --known\n", fl_property_name(o->property), again.line);
    int k = c->known && own ? known_bug(c, &shrink_env, w, &again, at, !complete) : -1;
    if (c->known && !own && !complete && orig.count) {
        size_t oat = 0;
        while (oat < orig.count && orig.ops[oat].line != o->line) oat++;
        if (oat < orig.count) k = known_bug(c, &shrink_env, &orig, o, oat, true);
    }
    fl_workload_free(&orig);
    if (c->known && !complete && c->log)
        fprintf(c->log, k >= 0 ? "check: shrinking did not finish; the finding's message alone identifies a known "
                                 "bug\n"
                               : "check: shrinking did not finish, so the finding is not matched against --known "
                                 "(only entries marked identified-by-message would be)\n");
    const fl_known_bug *bug = k >= 0 ? fl_known_get(c->known, (size_t)k) : NULL;
    int rc = write_failure(c, res, w, name, bug, err, err_len);
    if (rc != FL_OK || !bug) {
        free(before);
        return rc;
    }
    if (c->log)
        fprintf(c->log, "check: %s %s (%s: %s)\n  %s\n  minimized from %zu to %zu ops: %s\n", fl_known_class(bug),
                bug->id, bug->hazard ? "why" : "fixed upstream", bug->fix, res->message, res->original_ops,
                res->minimal_ops, res->path);
    char path[sizeof res->path];
    snprintf(path, sizeof path, "%s", res->path);
    *res = *before;
    free(before);
    if (res->known_by_bug[k]++ == 0) {                /* (a longer path is cut) */
        size_t n = strlen(path) < sizeof res->known_path[k] ? strlen(path) : sizeof res->known_path[k] - 1;
        memcpy(res->known_path[k], path, n);
        res->known_path[k][n] = 0;
    }
    res->known_findings++;
    *known = k;
    return FL_OK;
}

/* An outcome that is the engine refusing a configuration this run made:
 * a bug of the engine's configuration space, said loudly (check.h, fl_space). */
static int refused(const fl_run_config *c, const char *what, const fl_trial_outcome *o, char *err,
                   size_t err_len) {
    snprintf(err, err_len, "%s: %s -- a configuration the trial generator should never make for the %s "
             "engine (a bug of its configuration space, properties/space_%s.c), not a finding",
             what, o->message, (c->engine ? c->engine : fl_engine_default())->name, (c->engine ? c->engine : fl_engine_default())->name);
    return FL_ERR_INVALID;
}

/* ---- Trials in order, run in parallel ---------------------------------------------- */

/* One trial's outcome, as a worker sends it back. */
typedef struct trial_result {
    uint64_t trial;
    int gen_rc, rc;                 /* make_trial's; fl_check_workload's */
    char gerr[512];
    fl_trial_outcome o;
    bool worker_ended;              /* the watchdog's: its worker is gone */
    /* --avoid-known: the known bugs whose signature the trial holds
     * (fl_known_could), and whether it was not run for holding one of
     * those already found when it was started */
    uint64_t could;
    bool avoided;
} trial_result;

/* What a worker is sent: the trial, and (--avoid-known) the known bugs
 * found so far, whose signatures it is not to run. */
typedef struct trial_order { uint64_t t, avoid; } trial_order;

static void run_trial(const fl_run_config *c, const fl_trial_env *env, uint64_t t, uint64_t avoid,
                      trial_result *tr) {
    memset(tr, 0, sizeof *tr);
    tr->trial = t;
    fl_workload w = { 0 };
    tr->gen_rc = make_trial(c, t, &w, tr->gerr, sizeof tr->gerr);
    if (tr->gen_rc == FL_OK && c->avoid_known && c->known)
        tr->could = fl_known_could(c->known, (c->engine ? c->engine : fl_engine_default())->name, &w);
    tr->avoided = (tr->could & avoid) != 0;
    if (tr->gen_rc == FL_OK && !tr->avoided) tr->rc = fl_check_workload(env, &w, true, &tr->o);
    fl_workload_free(&w);
}

/* A worker: a child process that runs the trials it is sent, one at a
 * time, and sends back their outcomes.  A stop signal cuts the trial it
 * runs (the coordinator sends SIGTERM when it stops early); the end of its
 * input ends it.
 *
 * Where every line of code a trial runs is filterlab's own (its engine, no
 * plugin loaded), a worker runs its trials in its own process
 * (fl_trial_env.in_process): no fork per trial, a fifth more trials per
 * second.  Nothing a trial leaves behind can reach the next one there --
 * the engine, the checker and the built-ins keep no state outside the run
 * -- and a worker is replaced every WORKER_TRIALS trials all the same, so
 * that a leak would not pile up.  What the watchdog finds in a trial run
 * so (a hung call; a trial given up at the deadline) the worker sends back
 * as the trial's outcome before it ends (worker_abandon, flagged
 * worker_ended: the coordinator starts a fresh one).  A trial that ends
 * its worker otherwise (a crash, an abort) is run again by the coordinator
 * in a child of its own, as every trial is otherwise (fl_check_workload):
 * the outcome, and what it says about the crash, is that run's.  With a plugin
 * or another engine each trial runs in its own child: a plugin's static
 * state must start afresh every time, and a crash be caught where it
 * happens. */
typedef struct worker {
    pid_t pid;
    int to, from;                   /* trial numbers in; outcomes out */
    bool busy;
    uint64_t trial;                 /* the one it runs, when busy      */
    unsigned ran;                   /* trials sent to it               */
} worker;

#define MAX_JOBS 64
#define RESULTS_PER_JOB 32          /* finished ahead of the next in order */
#define WORKER_TRIALS 256           /* an in-process worker is replaced after */

static volatile sig_atomic_t worker_stop;

/* Whether the workers run their trials in their own process (above). */
static bool trials_in_workers(const fl_run_config *c) {
    return (c->engine ? c->engine : fl_engine_default())->fork_safe && fl_registry_plugin_count(c->reg) == 0;
}

static void on_worker_stop(int sig) { worker_stop = sig; }

/* The trial a worker runs, for its watchdog's word (worker_abandon). */
typedef struct worker_ctx {
    int out;
    uint64_t trial;
} worker_ctx;

/* In a worker, on what the watchdog found in the trial it runs in process
 * (a hung call, the deadline in a stuck op): the outcome goes to the
 * coordinator as the trial's, and the worker ends (its ops are stuck). */
static void worker_abandon(void *arg, const fl_trial_outcome *o) {
    const worker_ctx *w = arg;
    static trial_result tr;
    memset(&tr, 0, sizeof tr);
    tr.trial = w->trial;
    tr.o = *o;
    tr.worker_ended = true;
    fflush(NULL);
    (void)fl_write_all(w->out, &tr, sizeof tr);
    _exit(0);
}

static _Noreturn void worker_main(const fl_run_config *c, const fl_trial_env *env, int in, int out) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_worker_stop;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    fl_trial_env here = *env;
    worker_ctx wctx = { out, 0 };
    here.interrupt = &worker_stop;
    here.in_process = trials_in_workers(c);
    here.on_abandon = worker_abandon;
    here.on_abandon_arg = &wctx;
    trial_result *tr = malloc(sizeof *tr);
    /* a test of the above: the worker dies in trial N as a crash would */
    const char *die = getenv("FILTERLAB_TEST_WORKER_DIES_IN");
    trial_order ord;
    while (tr && !worker_stop && fl_read_all(in, &ord, sizeof ord) == 0) {
        uint64_t t = ord.t;
        wctx.trial = t;
        run_trial(c, &here, t, ord.avoid, tr);
        if (die && here.in_process && strtoull(die, NULL, 10) == t) raise(SIGKILL);
        if (fl_write_all(out, tr, sizeof *tr) != 0) break;
    }
    _exit(0);
}

/* The outcomes of trials first, first + step, ... in that order, however
 * many run at once: the run is the same as one trial at a time (the same
 * trials counted, the same first finding), only sooner. */
typedef struct trial_source {
    const fl_run_config *c;
    const fl_trial_env *env;
    uint64_t next, want, step;      /* the next to start; the next to hand out */
    uint64_t started;
    bool done;                      /* no more to start */
    double start;
    unsigned jobs;
    bool workers;                   /* w[] run the trials (else: here) */
    worker w[MAX_JOBS];
    trial_result *ready;            /* finished, not handed out: ring by trial */
    bool *have;
    size_t cap;
    trial_result cur;               /* the one handed out */
    /* --avoid-known: the known bugs found in the trials handed out so far
     * (bit i: entry i), whose signatures later trials are not to hold */
    uint64_t found;
    int rc;
    char err[512];
} trial_source;

static unsigned jobs_of(const fl_run_config *c) {
    if (c->only_trial >= 0) return 1;
    long n = c->jobs ? (long)c->jobs : sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_JOBS ? MAX_JOBS : (unsigned)n;
}

/* Whether another trial may start: the limits of the run. */
static bool may_start(trial_source *s) {
    const fl_run_config *c = s->c;
    if (s->done) return false;
    if ((c->trials && s->started >= c->trials) || (c->seconds > 0 && fl_now() - s->start >= c->seconds) ||
        (c->deadline > 0 && fl_now() >= c->deadline) || (c->interrupt && *c->interrupt) ||
        (c->only_trial >= 0 && s->started > 0))
        s->done = true;
    return !s->done;
}

/* Where trial t's outcome waits in s->ready (step 0: the one --trial T). */
static size_t slot_of(const trial_source *s, uint64_t t) {
    return s->step ? (size_t)((t / s->step) % s->cap) : 0;
}

/* Starts worker i; false when it could not. */
static bool worker_start(trial_source *s, unsigned i) {
    int to[2], from[2];
    if (pipe(to) != 0) return false;
    if (pipe(from) != 0) { close(to[0]); close(to[1]); return false; }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(to[1]);
        close(from[0]);
        for (unsigned j = 0; j < s->jobs; j++) {
            if (s->w[j].to >= 0) close(s->w[j].to);
            if (s->w[j].from >= 0) close(s->w[j].from);
        }
        worker_main(s->c, s->env, to[0], from[1]);
    }
    close(to[0]);
    close(from[1]);
    if (pid < 0) { close(to[1]); close(from[0]); return false; }
    s->w[i] = (worker){ .pid = pid, .to = to[1], .from = from[0] };
    return true;
}

/* Ends worker i: its pipes closed, the process reaped. */
static void worker_end(trial_source *s, unsigned i) {
    worker *w = &s->w[i];
    if (w->pid < 0) return;
    if (w->busy) kill(w->pid, SIGTERM);
    if (w->to >= 0) close(w->to);
    if (w->from >= 0) close(w->from);
    while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR) {}
    *w = (worker){ .pid = -1, .to = -1, .from = -1 };
}

static void source_start(trial_source *s, const fl_run_config *c, const fl_trial_env *env, double start) {
    memset(s, 0, sizeof *s);
    s->c = c;
    s->env = env;
    s->next = s->want = c->only_trial >= 0 ? (uint64_t)c->only_trial : c->shard;
    s->step = c->only_trial >= 0 ? 0 : c->shards ? c->shards : 1;
    s->start = start;
    s->jobs = jobs_of(c);
    for (unsigned i = 0; i < MAX_JOBS; i++) s->w[i] = (worker){ .pid = -1, .to = -1, .from = -1 };
    if (s->jobs == 1 && !trials_in_workers(c)) return;
    s->cap = (size_t)s->jobs * RESULTS_PER_JOB;
    s->ready = malloc(s->cap * sizeof *s->ready);
    s->have = calloc(s->cap, sizeof *s->have);
    if (!s->ready || !s->have) {
        s->jobs = 1;                /* one at a time, then */
        return;
    }
    for (unsigned i = 0; i < s->jobs; i++)
        if (!worker_start(s, i)) break;
    if (s->w[0].pid < 0) s->jobs = 1;
    else s->workers = true;
}

/* Worker i ended (if it was not) and started afresh; false, with the run
 * over and s->rc saying why, when it cannot start. */
static bool worker_restart(trial_source *s, unsigned i) {
    worker_end(s, i);
    if (worker_start(s, i)) return true;
    s->rc = FL_ERR_IO;
    snprintf(s->err, sizeof s->err, "cannot start a check worker: %s", strerror(errno));
    s->done = true;
    return false;
}

/* Starts trials on idle workers while the limits and the room ahead allow. */
static void source_fill(trial_source *s) {
    for (unsigned i = 0; i < s->jobs; i++) {
        worker *w = &s->w[i];
        if (w->pid < 0 || w->busy) continue;
        if (s->step && (s->next - s->want) / s->step >= s->cap) return;   /* too far ahead */
        if (!may_start(s)) return;
        if (w->ran >= WORKER_TRIALS && trials_in_workers(s->c) && !worker_restart(s, i))
            return;                                                     /* (a fresh one) */
        uint64_t t = s->next;
        trial_order ord = { t, s->found };
        if (fl_write_all(w->to, &ord, sizeof ord) != 0) continue;
        w->busy = true;
        w->trial = t;
        w->ran++;
        s->next += s->step;
        s->started++;
    }
}

/* Waits for a worker to finish a trial (or the run to be stopped). */
static void source_wait(trial_source *s) {
    struct pollfd pfd[MAX_JOBS];
    for (unsigned i = 0; i < s->jobs; i++)
        pfd[i] = (struct pollfd){ s->w[i].busy ? s->w[i].from : -1, POLLIN, 0 };
    int n = poll(pfd, s->jobs, 100);
    if (s->c->interrupt && *s->c->interrupt)            /* cut what runs */
        for (unsigned i = 0; i < s->jobs; i++)
            if (s->w[i].busy) kill(s->w[i].pid, SIGTERM);
    for (unsigned i = 0; n > 0 && i < s->jobs; i++) {
        if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        worker *w = &s->w[i];
        trial_result *tr = &s->cur;
        w->busy = false;
        if (fl_read_all(w->from, tr, sizeof *tr) != 0) {
            uint64_t t = w->trial;
            worker_end(s, i);
            if (!trials_in_workers(s->c)) {
                /* never a trial's doing (trials run in their own
                 * children), so an error of the run */
                s->rc = FL_ERR_IO;
                snprintf(s->err, sizeof s->err, "a check worker ended unexpectedly");
                s->done = true;
                continue;
            }
            /* the trial ended the process it ran in: stopped, or found
             * something -- run it again in a child of its own to know which */
            if ((s->c->interrupt && *s->c->interrupt) || (s->c->deadline > 0 && fl_now() >= s->c->deadline)) {
                memset(tr, 0, sizeof *tr);
                tr->trial = t;
                tr->o.cut = true;
            } else {
                run_trial(s->c, s->env, t, s->found, tr);
            }
            worker_restart(s, i);
        } else if (tr->worker_ended) {           /* its last word: a fresh one */
            worker_restart(s, i);
        }
        size_t slot = slot_of(s, tr->trial);
        s->ready[slot] = *tr;
        s->have[slot] = true;
    }
}

/* The next trial's outcome in order, or NULL when the run's limits are
 * reached (or s->rc says why not). */
static trial_result *source_next(trial_source *s) {
    if (s->rc != FL_OK) return NULL;
    if (!s->workers) {
        if (!may_start(s)) return NULL;
        run_trial(s->c, s->env, s->next, s->found, &s->cur);
        s->next += s->step;
        s->started++;
        return &s->cur;
    }
    for (;;) {
        source_fill(s);
        size_t slot = slot_of(s, s->want);
        if (s->have[slot] && s->ready[slot].trial == s->want) {
            s->have[slot] = false;
            s->cur = s->ready[slot];
            s->want += s->step;
            return &s->cur;
        }
        bool busy = false;
        for (unsigned i = 0; i < s->jobs; i++) busy |= s->w[i].busy;
        if (!busy || s->rc != FL_OK) return NULL;      /* nothing more will come */
        source_wait(s);
    }
}

/* Ends the workers: what they run is cut, what they finished is dropped. */
static void source_stop(trial_source *s) {
    for (unsigned i = 0; i < s->jobs && s->workers; i++) worker_end(s, i);
    free(s->ready);
    free(s->have);
    s->ready = NULL;
    s->have = NULL;
}

double fl_run_replay_call_timeout(const fl_run_config *c, const fl_run_result *res) {
    return res->shrink_call_timeout > 0 ? res->shrink_call_timeout : c->replay_call_timeout;
}

int fl_check_trial(const fl_run_config *c, uint64_t trial, fl_workload *out, char *err, size_t err_len) {
    memset(out, 0, sizeof *out);
    return make_trial(c, trial, out, err, err_len);
}

int fl_check_run(const fl_run_config *c, fl_run_result *res, char *err, size_t err_len) {
    memset(res, 0, sizeof *res);
    double start = fl_now(), next_progress = start + 0.5;
    /* an unwritable --out is found now, not after minutes of shrinking */
    if (fl_mkdir_p(c->out_dir) != 0 || access(c->out_dir, W_OK) != 0) {
        snprintf(err, err_len, "--out %s: %s", c->out_dir, strerror(errno));
        return FL_ERR_IO;
    }
    int rc = FL_OK;
    /* trials create and delete many small files: a tmpfs does that fastest */
    char scratch[4096];
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp) tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(scratch, sizeof scratch, "%s/filterlab-check.XXXXXX", tmp);
    if (!mkdtemp(scratch)) {
        snprintf(err, err_len, "cannot create a scratch directory: %s", strerror(errno));
        return FL_ERR_IO;
    }
    const fl_space *space = ck_space_of(c->engine);
    if (space->check_specs && (rc = space->check_specs(c, err, err_len)) != FL_OK) {
        fl_remove_tree(scratch);
        return rc;
    }
    fl_trial_env env = { .engine = c->engine, .reg = c->reg, .scratch = scratch, .on_disk = c->on_disk,
                         .call_timeout = c->call_timeout, .deadline = c->deadline,
                         .interrupt = c->interrupt };
    size_t shown = 0;
    /* the extractor lint first, once per --extractor (not per shard) */
    for (size_t x = 0; x < c->nextractors && c->only_trial < 0 && c->shard == 0; x++) {
        fl_workload w;
        char gerr[512] = "", name[64];
        if ((rc = lint_workload(c, x, &w, gerr, sizeof gerr)) != FL_OK) {
            snprintf(err, err_len, "the lint of --extractor %s: %s", c->extractors[x], gerr);
            goto done;
        }
        env.seed = FL_CHECKER_SEED;
        /* it lints the extractor (P7, the checker's own calls), not the
         * engine: on the default engine, in process, whatever --engine is
         * (20,000 reads through an adapter program take minutes) */
        fl_trial_env lint_env = env;
        lint_env.engine = fl_engine_default();
        fl_trial_outcome o;
        if ((rc = fl_check_workload(&lint_env, &w, true, &o)) != FL_OK) {
            snprintf(err, err_len, "%s", o.message);
            fl_workload_free(&w);
            goto done;
        }
        res->ops += o.ops;
        if (o.refused) {
            snprintf(name, sizeof name, "the lint of --extractor %s", c->extractors[x]);
            rc = refused(c, name, &o, err, err_len);
            fl_workload_free(&w);
            goto done;
        }
        if (o.property) {
            int known;
            snprintf(name, sizeof name, "lint%zu", x + 1);
            rc = found(c, &lint_env, res, &w, UINT64_MAX, &o, name, &known, err, err_len);
            fl_workload_free(&w);
            if (rc != FL_OK || known < 0) goto done;
            continue;
        }
        fl_workload_free(&w);
        if (o.cut) { res->interrupted = c->interrupt && *c->interrupt; goto done; }
    }
    trial_source src;
    source_start(&src, c, &env, start);
    for (;;) {
        trial_result *tr = source_next(&src);
        if (!tr) {
            if (src.rc != FL_OK) {
                rc = src.rc;
                snprintf(err, err_len, "%s", src.err);
            } else if (c->interrupt && *c->interrupt) {
                res->interrupted = true;
            }
            break;
        }
        uint64_t t = tr->trial;
        if ((rc = tr->gen_rc) != FL_OK) {
            snprintf(err, err_len, "generating trial %llu: %s", (unsigned long long)t, tr->gerr);
            break;
        }
        const fl_trial_outcome *o = &tr->o;
        if ((rc = tr->rc) != FL_OK) {
            snprintf(err, err_len, "%s", o->message);
            break;
        }
        if (o->cut) {                          /* stopped by the limit or a signal */
            res->interrupted = c->interrupt && *c->interrupt;
            break;
        }
        /* --avoid-known: a trial holding the signature of a known bug found
         * in an earlier trial is not counted, whether or not its worker
         * (which may not have known of that finding yet) ran it -- so the
         * run is the same however many jobs run it */
        if (tr->could & src.found) {
            res->avoided++;
            if (c->only_trial >= 0) break;
            continue;
        }
        res->trials++;
        res->ops += o->ops;
        if (c->log && c->progress && fl_now() >= next_progress) {
            next_progress = fl_now() + 0.5;
            double el = fl_now() - start;
            int n = fprintf(c->log, "\rcheck: %llu trials, %llu ops, %.0f s (%.1f trials/s)",
                            (unsigned long long)res->trials, (unsigned long long)res->ops, el,
                            el > 0 ? (double)res->trials / el : 0.0);
            if (n > 0) shown = (size_t)n;
        }
        if (o->refused) {
            char what[64];
            snprintf(what, sizeof what, "trial %llu", (unsigned long long)t);
            rc = refused(c, what, o, err, err_len);
            break;
        }
        if (o->property) {
            if (c->log && shown) fprintf(c->log, "\r%*s\r", (int)shown, "");
            shown = 0;
            char name[64], gerr[512];
            int known;
            snprintf(name, sizeof name, "trial%llu", (unsigned long long)t);
            fl_workload w = { 0 };
            if ((rc = make_trial(c, t, &w, gerr, sizeof gerr)) != FL_OK) {  /* as the trial ran it */
                snprintf(err, err_len, "generating trial %llu: %s", (unsigned long long)t, gerr);
                break;
            }
            rc = found(c, &env, res, &w, t, o, name, &known, err, err_len);
            fl_workload_free(&w);
            if (rc != FL_OK || known < 0) break;
            if (c->avoid_known && known < 64) src.found |= (uint64_t)1 << known;
            if (c->only_trial >= 0) break;
            continue;
        }
        if (c->only_trial >= 0) break;
    }
    source_stop(&src);
done:
    if (c->log && shown) fprintf(c->log, "\r%*s\r", (int)shown, "");
    res->elapsed = fl_now() - start;
    fl_remove_tree(scratch);
    return rc;
}
