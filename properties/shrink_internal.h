/*
 * shrink_internal.h -- what the shrinker (shrink*.c) and the 1-minimality
 * check (minimal.c) share:
 *   - the outcome of one run of a workload, and when a candidate fails
 *     "the same way" as the workload it was made from;
 *   - copies of a workload with one thing changed (ops removed or replaced,
 *     an option removed or set), each built with fl_workload_add so that a
 *     copy the workload format refuses (a reopen without options, an open
 *     that is not first) is never made, let alone run;
 *   - policy lists taken apart with the engine's one parser of the spec
 *     grammar (fl_policy_list_split, fl_spec_args_split in engine.h).
 */
#ifndef FL_SHRINK_INTERNAL_H
#define FL_SHRINK_INTERNAL_H

#include "check.h"

#pragma GCC visibility push(hidden)     /* not part of the binary's symbols */

/* ---- Outcomes (shrink_edit.c) --------------------------------------------- */

typedef struct ck_outcome {
    int      rc;                 /* fl_check_workload's status              */
    int      property;           /* first violation's; FL_P10 for an engine
                                    error (rc < 0), as the runner counts it */
    uint64_t ops;                /* ops run (the failing op is the last)    */
    char     msg[4096];          /* the violation or the engine error       */
    bool     hang;               /* a plugin call that hung                 */
} ck_outcome;

/* Runs w as fl_check_workload does (a child process, stop at the first
 * violation). */
void ck_outcome_run(const fl_trial_env *env, const fl_workload *w, ck_outcome *out);

/* Whether got fails as want does: the same property.  For P10, which
 * stands for several different failures (an engine error, a crash of the
 * run, a filter block that does not parse), also the same kind (error or
 * not) and the same message once numbers and quoted strings are blanked
 * out, so that a candidate made invalid by shrinking never passes for the
 * engine error being shrunk. */
bool ck_outcome_same(const ck_outcome *want, const ck_outcome *got);

/* ---- Workload copies (shrink_edit.c) -------------------------------------- */

/* Each makes *out a copy of w (ops only, no description) with one change;
 * false, with *out empty, when the copy is not a valid workload or memory
 * ran out. */
bool ck_wl_without_ops(const fl_workload *w, size_t from, size_t n, fl_workload *out);
bool ck_wl_with_op(const fl_workload *w, size_t at, const fl_op *op, fl_workload *out);
/* A copy whose multiget `at` lacks its key number `key` (from 0); false
 * when op `at` is no multiget of more than one key, or has no such key. */
bool ck_wl_without_multiget_key(const fl_workload *w, size_t at, size_t key, fl_workload *out);
bool ck_wl_without_option(const fl_workload *w, size_t at, size_t opt, fl_workload *out);
bool ck_wl_with_option(const fl_workload *w, size_t at, size_t opt, const char *value,
                       fl_workload *out);
/* A copy with option key=value on the open line (set, added, or on a new
 * open line); false also when it is already so. */
bool ck_wl_with_open_option(const fl_workload *w, const char *key, const char *value, fl_workload *out);

/* w with a flush after each write that flushed the memtable, and a
 * memtable that never fills (shrink_flushes.c); false when no write
 * flushed or the points could not be learnt. */
bool ck_wl_pin_flushes(const fl_trial_env *env, const fl_workload *w, fl_workload *out);

/* Replaces *w by *with (emptied), keeping w's description. */
void ck_wl_replace(fl_workload *w, fl_workload *with);

/* Whether every option of every open and reopen of w is one the engine
 * accepts (fl_options_set) and every policy list splits into specs whose
 * arguments split: what can be told without making a policy. */
bool ck_wl_options_valid(const fl_workload *w);

/* ---- Policy lists (shrink_edit.c) ----------------------------------------- */

/* Whether key names a policy list option ("policies", "compactor"). */
bool ck_is_list_option(const char *key);
/* The number of specs in list; 0 for "none" or a list that does not split. */
size_t ck_list_count(const char *list);
/* list with its spec `index` (1-based) replaced by `spec`, or without it
 * when spec is NULL ("none" when it was the only one); the specs are
 * trimmed and joined with ';'.  False when list does not split, index is
 * out of range or out is too small. */
bool ck_list_with(const char *list, size_t index, const char *spec, char *out, size_t cap);
/* Copies spec `index` (1-based) of list into out; false if there is none. */
bool ck_list_spec(const char *list, size_t index, char *out, size_t cap);

/* ---- The shrinker's state and passes (shrink*.c) ------------------------- */

typedef struct ck_shrinker {
    const fl_trial_env *env;
    ck_outcome  want;            /* the failure kept through every step     */
    uint64_t    runs;            /* candidates run                          */
    uint64_t    version;         /* steps taken: +1 per accepted candidate  */
    double      deadline;        /* fl_now() seconds                         */
} ck_shrinker;

bool ck_shrink_out_of_time(const ck_shrinker *s);
/* Runs candidate *c, made from *w: when it fails as w does it replaces w
 * (true, and s->version grows); else it is freed (false).  A candidate with
 * an option the engine refuses is freed without a run. */
bool ck_shrink_try(ck_shrinker *s, fl_workload *w, fl_workload *c);

/* Passes: each tries its candidates on w and keeps what still fails;
 * progress shows as s->version changing. */
void ck_shrink_options(ck_shrinker *s, fl_workload *w);    /* shrink_config.c */
void ck_shrink_contexts(ck_shrinker *s, fl_workload *w);   /* shrink_bytes.c  */
void ck_shrink_values(ck_shrinker *s, fl_workload *w);
void ck_shrink_keys(ck_shrinker *s, fl_workload *w);

#pragma GCC visibility pop

#endif /* FL_SHRINK_INTERNAL_H */
