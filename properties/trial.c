/*
 * trial.c -- one workload through the runner in a child process, in a
 * throwaway database, reporting only the first violation: what `check`'s
 * trials and the shrinker's candidates need.
 *
 * The child is where a plugin may crash, hang or leave static state
 * behind; none of it reaches the parent (fl_runner.isolate).  A hung call
 * is a finding; a trial ended by the deadline or an interruption is cut,
 * not failed; an engine refusing a configuration it cannot express is,
 * where its space says so, an error of the trial, not a finding.
 */
#include "check_internal.h"

#include <string.h>

/* Whether the run ended with the engine refusing the options of an open,
 * reopen or set_options, and the engine's configuration space says that
 * is no finding (check.h, fl_space). */
static bool refusal(const fl_trial_env *env, const fl_workload *w, const fl_run_outcome *o) {
    if (ck_space_of(env->engine)->refusals_are_findings || o->ops_run == 0 || o->ops_run > w->count)
        return false;
    fl_op_kind k = w->ops[o->ops_run - 1].kind;
    return k == FL_OP_OPEN || k == FL_OP_REOPEN || k == FL_OP_SET_OPTIONS;
}

/* What a run's outcome says of the workload: a finding, a cut, a
 * refusal, an engine error (which stands for P10). */
static void outcome_of(const fl_trial_env *env, const fl_workload *w, const fl_run_outcome *o,
                       fl_trial_outcome *out) {
    out->rc = o->rc;
    out->property = o->property;
    out->line = o->line;
    out->ops = o->ops_run;
    out->hang = o->hang;
    out->cut = o->stopped && !o->property && o->rc == FL_OK;   /* the deadline, a signal */
    snprintf(out->message, sizeof out->message, "%s", o->property ? o->message : o->error);
    if (out->rc == FL_ERR_INVALID && !out->property && refusal(env, w, o)) {
        out->refused = true;
        snprintf(out->message, sizeof out->message, "the %s engine refused the configuration: %.3900s",
                 (env->engine ? env->engine : fl_engine_default())->name, o->error);
        return;
    }
    if (out->rc != FL_OK && !out->property) {
        /* an engine error on a valid workload stands for P10 */
        out->property = FL_P10;
        out->line = o->error_line;
        snprintf(out->message, sizeof out->message, "P10 %s: engine error: %.3900s",
                 fl_property_name(FL_P10), o->error);
    }
}

typedef struct abandon_ctx {
    const fl_trial_env *env;
    const fl_workload *w;
} abandon_ctx;

/* In process: what the watchdog found, handed to env->on_abandon (which
 * ends the process). */
static void trial_abandon(void *arg, const fl_run_outcome *so_far) {
    const abandon_ctx *a = arg;
    static fl_trial_outcome out;      /* (the stuck thread's stack is not ours) */
    memset(&out, 0, sizeof out);
    outcome_of(a->env, a->w, so_far, &out);
    a->env->on_abandon(a->env->on_abandon_arg, &out);
}

/* Each workload runs in a child process (the runner's isolation): a
 * plugin's static state starts afresh every time (so a shrink candidate
 * fails or passes on its own merits), and a plugin that crashes takes down
 * the child, not the run. */
int fl_check_workload(const fl_trial_env *env, const fl_workload *w, bool stop_early,
                      fl_trial_outcome *out) {
    memset(out, 0, sizeof *out);
    abandon_ctx actx = { env, w };
    fl_runner r = {
        .check = { .engine = env->engine, .reg = env->reg, .path = "trial", .check = true,
                   .seed = env->seed, .no_sync = true, .in_memory = !env->on_disk },
        .scratch = env->scratch, .stop_early = stop_early, .call_timeout = env->call_timeout,
        .deadline = env->deadline, .interrupt = env->interrupt, .isolate = !env->in_process,
        .quiet_stderr = env->quiet,
        .on_abandon = env->in_process && env->on_abandon ? trial_abandon : NULL,
        .on_abandon_arg = &actx,
    };
    fl_run_outcome o;
    if (fl_run_workload(&r, w, &o) != FL_OK) {
        out->rc = o.rc;
        snprintf(out->message, sizeof out->message, "%s", o.error);
        return o.rc ? o.rc : FL_ERR_IO;
    }
    outcome_of(env, w, &o, out);
    return FL_OK;
}
