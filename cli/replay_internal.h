/*
 * replay_internal.h -- what replay.c (running a workload) and replay_check.c
 * (the engine-side checks and their messages) share: the state of one
 * replay.  Not used outside `filterlab replay`.
 *
 * Messages name the workload file and the op's line; violation messages
 * have the form "FILE:LINE op KEY: what" and are capped at
 * FL_REPLAY_MAX_SHOWN, while every violation is counted.
 */
#ifndef FL_REPLAY_INTERNAL_H
#define FL_REPLAY_INTERNAL_H

#include "../engine/engine.h"
#include "../workloads/workload.h"

#include <limits.h>
#include <stdio.h>

#define FL_REPLAY_MAX_SHOWN 100

/* What the probe trace saw during one read, per kind (0 point, 1 prefix). */
typedef struct fl_trace_tally {
    uint64_t considered, unfiltered, positive, negative, false_positive;
} fl_trace_tally;

typedef struct fl_replay {
    const char        *path;        /* the workload file, for messages      */
    fl_workload       *wl;
    fl_registry       *reg;
    bool               check;       /* false with --no-check                */
    FILE              *results;     /* NULL without --results               */
    char               dir[PATH_MAX];
    bool               dir_is_temp; /* remove dir at the end                */
    fl_db             *db;
    fl_options         opt;         /* the running options                  */
    const fl_op       *op;          /* the op being run, NULL outside one   */
    fl_trace_tally     seen[2];     /* reset before each read               */
    fl_metrics         total;       /* summed over every open               */
    uint64_t           violations, contract_shown, ssts;
    fl_buf             value, prev_key;
    bool               have_prev;   /* prev_key holds the last scan key     */
    bool               progress;    /* a progress line may be on stderr     */
    size_t             progress_width;
    double             start, progress_next;
} fl_replay;

static inline fl_slice fl_replay_slice(const fl_bytes *b) { return (fl_slice){ b->data, b->len }; }
static inline void fl_replay_print_slice(FILE *f, fl_slice s) { fl_bytes_print(f, s.data, s.len); }

/* Erases the progress line, if one is shown, before another message. */
static inline void fl_replay_progress_clear(fl_replay *r) {
    if (r->progress_width) fprintf(stderr, "\r%*s\r", (int)r->progress_width, "");
    r->progress_width = 0;
}

/* ---- replay_check.c ------------------------------------------------------ */

/* Counts a violation; true when its message should be printed: the caller
 * then prints the rest of the line, newline included. */
bool fl_replay_violation_begin(fl_replay *r);
void fl_replay_violation(fl_replay *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* An fl_violation_fn (filter_internal.h): plugin contract breaks. */
void fl_replay_on_contract_violation(void *arg, const char *who, const char *what);
/* The fl_probe_fn installed on every db: tallies r->seen and checks each
 * verdict against its sub-filters (when r->check). */
void fl_replay_on_probe(void *arg, const fl_probe_event *event);
/* After a read: SPEC 6 identities and counter deltas == r->seen. */
void fl_replay_check_counters(fl_replay *r, const fl_metrics *before, const fl_metrics *after);
/* Each key a scan returns: in order, in the op's range or prefix. */
void fl_replay_check_scan_item(fl_replay *r, fl_slice key);

#endif /* FL_REPLAY_INTERNAL_H */
