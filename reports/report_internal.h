/*
 * report_internal.h -- what the files of reports/ share and nothing else
 * sees: the worker pool, the state of one report run, and the writers of
 * the plots and of the page.
 */
#ifndef FL_REPORT_INTERNAL_H
#define FL_REPORT_INTERNAL_H

#include "report.h"

#include <limits.h>

/* ---- Worker pool (pool.c) ------------------------------------------------------
 *
 * Runs njobs jobs in at most `workers` forked processes at a time.  In the
 * child, run(arg, job, fd) writes the job's result to fd and returns the
 * child's exit status; the child then _exits (no atexit handlers, no stdio
 * flush of the parent's buffers).  In the parent, done(arg, job, data, len,
 * wait_status) receives everything the child wrote, once it has exited.
 * INT, TERM and HUP stop the pool: running children get SIGTERM and are
 * waited for.  Returns 0, 128 + the signal when interrupted, or -1 with
 * errno when a pipe or a fork failed (jobs already done were delivered).
 */
typedef int  (*fl_pool_run_fn)(void *arg, size_t job, int fd);
typedef void (*fl_pool_done_fn)(void *arg, size_t job, const void *data, size_t len,
                                int wait_status);

int fl_pool_run(size_t njobs, unsigned workers, fl_pool_run_fn run, fl_pool_done_fn done,
                void *arg, bool progress, const char *noun);

/* ---- One report run (report.c) ------------------------------------------------ */

#define FL_REPORT_NAME_MAX 64

enum { FL_PLOT_POINT_FP, FL_PLOT_PREFIX_FP, FL_PLOT_PREFIX_READS, FL_PLOT_FILTER_BYTES,
       FL_PLOT_COUNT };

typedef struct fl_report_workload {
    const char *path;
    char        name[FL_REPORT_NAME_MAX];    /* unique, [A-Za-z0-9._-]     */
    fl_workload wl;
    char        extractor[256];              /* "" when none                */
    const char *extractor_source;            /* "--extractor", "comment", ... */
    char        note[512];                   /* e.g. modes skipped, or ""   */
    bool        scripted[FL_PLOT_COUNT];     /* NAME-PLOT.gp written        */
    bool        plotted[FL_PLOT_COUNT];      /* PNG and SVG both written    */
    char        plot_note[FL_PLOT_COUNT][160];  /* why not, when not        */
} fl_report_workload;

typedef struct fl_report_job {
    size_t         workload;
    size_t         engine;                   /* index in the state's engines */
    fl_report_mode mode;
    double         bits;                     /* NAN for mode none           */
    char           policies[512];
    /* results */
    bool           done;
    bool           skipped;                  /* the engine cannot express it */
    char           skip_reason[512];         /* why, without the open line  */
    int            rc;                       /* FL_OK or the engine error   */
    char           err[1024];
    fl_report_measure m;
    char          *messages;                 /* violation and warning lines */
    char           violation_wl[PATH_MAX];   /* the replayable workload, or "" */
} fl_report_job;

typedef struct fl_report_state {
    const fl_report_config *cfg;
    fl_registry        *reg;
    fl_report_workload *wls;   size_t nwls;
    fl_report_job      *jobs;  size_t njobs;
    fl_report_row      *rows;  size_t nrows;
    const fl_report_job **row_jobs;          /* the job behind each row     */
    const fl_engine_ops *const *engines;     /* cfg's that are built, or
                                                filterlab's alone         */
    size_t              nengines;
    const fl_engine_ops *engine_buf[16];     /* what engines points to      */
    char                left_out[1024];      /* "pebble: why; ..." or ""    */
    uint64_t            violations;          /* the checker's, summed       */
    char                scratch[PATH_MAX];
    double              elapsed_s;
    unsigned            jobs_used;
    bool                have_gnuplot;
} fl_report_state;

/* The bits per key shown in headlines: 10 if swept, else the closest. */
double fl_report_headline_bits(const fl_report_config *cfg);
/* The row of (workload, engine, mode, bits, kind), or NULL. */
const fl_report_row *fl_report_find_row(const fl_report_state *st, size_t workload, size_t engine,
                                        fl_report_mode mode, double bits, fl_target_kind kind);

/* "DIR/NAME" into out; -1 when too long. */
int fl_report_out_path(const fl_report_state *st, const char *name, char *out, size_t cap);
/* "filterlab replay DIR/violations/X.wl --plugin ..." for a violating job,
 * with every flag a rerun needs, shell-quoted. */
void fl_report_replay_command(const fl_report_state *st, const fl_report_job *j, char *out,
                              size_t cap);

/* ---- Plots (plots.c) and the page (html.c) -------------------------------------
 * Both return 0, or -1 with a message on stderr. */

/* The file name stem of a workload's plot: "NAME-point-fp". */
void fl_report_plot_stem(const fl_report_workload *w, int plot, char *out, size_t cap);
const char *fl_report_plot_title(int plot);

/* Writes each workload's gnuplot scripts and runs gnuplot on them (in
 * parallel); sets wls[i].plotted[] and plot_note[]. */
int fl_report_plots_write(fl_report_state *st);

/* Writes DIR/index.html. */
int fl_report_html_write(const fl_report_state *st);

#endif /* FL_REPORT_INTERNAL_H */
