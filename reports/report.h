/*
 * report.h -- the FP-rate report pipeline (SPEC section 12): replay sweeps
 * -> results.csv -> gnuplot plots (PNG and SVG) -> index.html.
 *
 * A sweep replays every workload once per configuration: each bits-per-key
 * value times each policy mode (below), the mode `none` once per workload.
 * Each replay runs through the checker (properties/check.h) with its checks
 * on, against a fresh database, with the workload's policies overridden:
 * every open and reopen gets policies = compactor = the mode's list and
 * legacy_filters = 0; its other options are kept.  Replays run in worker
 * processes, in parallel.
 *
 * Measured per configuration and per kind of read (point = get, prefix =
 * scan_prefix), from the checker's metrics (SPEC 6):
 *   eligible    negative + false_positive (probes a filter could have ruled
 *               out: the SST held no match, or the filter said no)
 *   fp rate     false_positive / eligible, with its 95% Wilson interval
 *   expected    expected_fp_sum / expected_probes: each probed filter's rate
 *               exact given its bits, the mean over its lines of
 *               (bits set / 512)^k (SPEC 5; 1.0 for a probe the bloom cannot
 *               answer); and P9's own view of it: the checker counts only
 *               items the filter did not hash, and gives the deviation in
 *               standard deviations that treat the probes of one item as one
 *               correlated group
 *   theory      the SPEC 5 formula at the configured bits per key (before
 *               any filter exists), beside the textbook formula and 2^-b
 *   SSTs read   considered - negative (unfiltered + positive), per read op
 *   filter bytes  the stored filter blocks of the final live SSTs
 *   keys        the entries of the final live SSTs (puts and tombstones)
 *
 * A checker violation in any replay (P9, the FP rate against the expected
 * rate, included) is listed at the top of index.html, with the overridden
 * workload saved for `filterlab replay`, and makes fl_report_run return 1.
 *
 * Call order: fl_report_run (the whole pipeline), or, piece by piece,
 * fl_report_replay then fl_report_rows then fl_report_csv_row.
 */
#ifndef FL_REPORT_H
#define FL_REPORT_H

#include "../adapters/adapters.h"

#include <stdio.h>

/* ---- Policy modes -------------------------------------------------------- */

typedef enum fl_report_mode {
    FL_MODE_WHOLE = 0,        /* "whole":        bloom(bits=B)                    */
    FL_MODE_WHOLE_PREFIX,     /* "whole+prefix": bloom(bits=B,prefix=X)           */
    FL_MODE_PREFIX_ONLY,      /* "prefix-only":  bloom(bits=B,prefix=X,whole_key=0) */
    FL_MODE_NONE,             /* "none":         no filter                        */
    FL_MODE_COUNT
} fl_report_mode;

const char *fl_report_mode_name(fl_report_mode mode);
/* "whole" -> FL_MODE_WHOLE, ...; -1 when the name is unknown. */
int  fl_report_mode_parse(const char *name, fl_report_mode *out);
/* whole+prefix and prefix-only need a prefix extractor. */
bool fl_report_mode_needs_extractor(fl_report_mode mode);

/* Writes the mode's policy list for bits per key B and extractor spec X
 * (written verbatim, escapes and all; NULL or "" for the modes without one)
 * into out.  -1 when out is too small or the mode needs an extractor and
 * has none, else 0. */
int fl_report_policy_list(fl_report_mode mode, double bits, const char *extractor,
                          char *out, size_t cap);

/* The extractor a workload's prefix modes use: the first line of text that
 * reads "# extractor: SPEC", else the first `prefix=` argument in the
 * policies of its open line (then of its reopen lines, in order).  Writes
 * the spec into out ("" when there is none) and returns where it came from:
 * "comment", "open line", "reopen line", or NULL when there is none. */
const char *fl_report_workload_extractor(const char *text, size_t len, const fl_workload *w,
                                         char *out, size_t cap);

/* ---- Statistics ---------------------------------------------------------- */

#define FL_REPORT_Z95 1.959963984540054   /* the normal quantile of 97.5%    */

/* The Wilson score interval of `successes` in `trials` at quantile z
 * (FL_REPORT_Z95 for 95%).  NAN for both ends when trials == 0. */
void fl_wilson_interval(uint64_t successes, uint64_t trials, double z, double *lo, double *hi);

/* The textbook bloom FP rate (1 - e^{-k/b})^k at b bits per key with the
 * integer k >= 1 that minimizes it (1.0 at b <= 0). */
double fl_bloom_standard_fp(double bits);

/* The 2^-b bound: no filter of b bits per key does better (1.0 at b <= 0). */
double fl_bloom_bound_fp(double bits);

/* The theory curve: the cache-local formula of SPEC 5 (fl_model_bloom_
 * expected_fp) for a filter of b bits per key, 512 / b hashes per line,
 * with the k of SPEC 5 for b (1.0 at b <= 0).  It runs low against built
 * filters, whose expected rate counts how unevenly hashes fall on lines. */
double fl_bloom_theory_fp(double bits);

/* ---- One replay ---------------------------------------------------------- */

typedef struct fl_report_measure {
    fl_check_summary sum;          /* the checker's: violations, metrics       */
    uint64_t gets, prefix_scans;   /* read ops run of each kind                */
    uint64_t live_ssts, entries;   /* the final tree                           */
    uint64_t filter_bytes;         /* its stored filter blocks, in bytes       */
    double   elapsed_s;
    /* the engine had no probe trace (RocksDB): its FP columns are P9's
     * view (reads of targets that exist nowhere, over SSTs whose filters
     * were read from their files), the only probes whose truth is known */
    bool     untraced;
} fl_report_measure;

/* Replays w with `policies` (a policy list, SPEC 10) in place of its own,
 * on engine (NULL: filterlab's), through the checker with checks on, in a fresh database directory made
 * under scratch (removed afterwards, so nothing is fsynced), and fills
 * *out.  The checker's violation and warning lines, and plugin contract
 * violations, go to messages (NULL: dropped), at most max_shown of each
 * kind.  Violations are not errors (out->sum.violations counts them).  On
 * an engine error returns it with err saying what and where (FILE:LINE).
 * The replay runs in a child process of its own: a plugin that crashes, or
 * a call that does not return within call_timeout seconds (0: no limit),
 * is a P10 violation with its message in messages. */
int fl_report_replay(const fl_registry *reg, const fl_engine_ops *engine, const fl_workload *w,
                     const char *path,
                     const char *policies, const char *scratch, FILE *messages,
                     uint64_t max_shown, double call_timeout, fl_report_measure *out,
                     char *err, size_t err_len);

/* A copy of w whose every open and reopen carries policies = compactor =
 * `policies` and legacy_filters = 0 (other options kept), with an open
 * first when w has none.  The copy shares w's byte strings: free it with
 * fl_report_override_free, and w only after it.  -1 when out of memory. */
int  fl_report_override(const fl_workload *w, const char *policies, fl_workload *out);
void fl_report_override_free(fl_workload *copy);

/* ---- Rows and CSV -------------------------------------------------------- */

/* One row of results.csv: one workload, mode, bits per key and kind. */
typedef struct fl_report_row {
    const char     *workload;      /* its name (a file-name-safe token)        */
    const char     *engine;        /* the engine under test: "filterlab", ...  */
    fl_report_mode  mode;
    double          bits;          /* for mode none: the sweep's value          */
    fl_target_kind  kind;          /* POINT (get) or PREFIX (scan_prefix)       */
    uint64_t ops;                  /* gets or scan_prefix ops run               */
    uint64_t considered, unfiltered, positive, negative, false_positive;
    uint64_t eligible;             /* negative + false_positive                 */
    double   fp_rate, fp_lo, fp_hi;          /* NAN without eligible probes     */
    double   expected_fp_rate;               /* NAN without expected probes     */
    uint64_t expected_probes;
    double   p9_sigmas;            /* the checker's P9 view: its measured rate
                                      minus its expected one, in its standard
                                      deviations (from the spread of the
                                      probed items' false-positive counts);
                                      P9 fails above 5.  NAN when it counted
                                      no probe or no spread                 */
    double   standard_fp_rate, bound_fp_rate; /* at bits; NAN for mode none     */
    double   theory_fp_rate;                 /* at bits; NAN for mode none     */
    uint64_t ssts_read;            /* considered - negative                     */
    double   reads_per_op, considered_per_op; /* NAN without ops                */
    uint64_t filter_bytes, keys, live_ssts;
    double   filter_bytes_per_key;           /* NAN without keys                */
    uint64_t violations;           /* the replay's (both kinds)                 */
    const char *policies;          /* the policy list replayed                  */
} fl_report_row;

/* Fills rows[0] (point) and rows[1] (prefix) from one replay on engine.
 * An untraced engine's FP columns (eligible, false_positive, fp_rate and
 * its interval, expected_fp_rate, expected_probes) are P9's view. */
void fl_report_rows(const fl_report_measure *m, const char *engine, const char *workload,
                    fl_report_mode mode,
                    double bits, const char *policies, fl_report_row rows[2]);

/* The CSV header line and one row line (with '\n').  Empty fields are
 * undefined values (NAN); the policies column is last and quoted. */
void fl_report_csv_header(FILE *f);
void fl_report_csv_row(FILE *f, const fl_report_row *row);

/* ---- The pipeline -------------------------------------------------------- */

typedef struct fl_report_config {
    const char *const *workloads;  size_t nworkloads;   /* FILE.wl paths       */
    const double *bits;            size_t nbits;        /* sorted, distinct    */
    const fl_report_mode *modes;   size_t nmodes;       /* distinct            */
    const char *extractor;         /* NULL: each workload's own                */
    const char *const *plugins;    size_t nplugins;     /* --plugin SO         */
    /* the engines each configuration is replayed on, drawn side by side
     * (NULL, 0: filterlab's alone); the first is the headline's */
    const fl_engine_ops *const *engines; size_t nengines;
    /* an engine of engines that is not built (its open fails with
     * FL_ERR_NOTFOUND) is left out with a line on stderr when true, and is
     * an error (exit 2) when false: the CLI sets it when several engines
     * were named.  A configuration an engine cannot express (its open
     * fails with FL_ERR_INVALID, "cannot express it") is skipped: no rows,
     * a line on the page */
    bool drop_unavailable;
    const char *out_dir;           /* created if missing                       */
    unsigned jobs;                 /* worker processes; 0: the online CPUs     */
    double call_timeout;           /* seconds a plugin call may take (0: any)  */
#define FL_REPORT_CALL_TIMEOUT 10.0 /* its default                             */
    bool progress;                 /* a progress line on stderr                */
    const char *command;           /* the command line, shown on the page      */
} fl_report_config;

/* Runs the sweep and writes DIR/results.csv, the gnuplot scripts and their
 * PNG and SVG plots (when gnuplot is installed; a warning otherwise) and
 * DIR/index.html; prints a summary and the page's path on stdout.  Returns
 * the exit status: 0 every property held, 1 a violation (listed on the page
 * and on stderr), 2 bad input or an engine error (said on stderr). */
int fl_report_run(const fl_report_config *cfg);

#endif /* FL_REPORT_H */
