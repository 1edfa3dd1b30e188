/*
 * check.h -- the checker: runs a workload op by op on the engine and on the
 * reference model side by side, consumes the engine's probe trace, and
 * checks the properties of SPEC section 8 after every op.
 *
 *   P1  no-false-negative  a sub-filter said no only where the SST held no match
 *   P2  results            get / scan_prefix / scan results equal the model's
 *   P3  skip-counts        per read, counter deltas equal the probe trace, and
 *                          each verdict follows from its sub-filters' answers;
 *                          sst_reads moved by the SSTs the read read (the
 *                          trace's UNFILTERED and MAYBE; for scan, those the
 *                          range overlaps), and a read wrote, flushed,
 *                          compacted and decoded nothing (ssts_written,
 *                          flushes, compactions, filter_errors unchanged)
 *   P4  fp-accounting      false_positive equals MAYBE verdicts on SSTs without
 *                          a match (SST truth, read without filters); per
 *                          read, the engine's expected_probes and
 *                          expected_fp_sum moved exactly as the checker's own
 *                          count of the same probes with each reference
 *                          filter's exact rate (to 1e-9 relative, plus the
 *                          rounding of the running sum)
 *   P5  exact-verdicts     built-in blooms: every sub-filter verdict equals the
 *                          reference filter's, and every stored filter's bytes
 *                          equal the reference build's
 *   P6  coverage           the considered SSTs are exactly those the manifest
 *                          says the read needed
 *   P7  extractor-contract n <= len, same input same answer, PREFIX Some(n)
 *                          implies POINT Some(n) on sampled extensions; a break
 *                          of the RFC's literal POINT invariant that cannot
 *                          cause a false negative is a warning
 *   P8  migration          sub-filters whose names are configured are usable,
 *                          others skipped, none misdecoded
 *   P9  fp-rate            built-in blooms: over at least FL_P9_MIN_ITEMS
 *                          distinct probed items, the measured FP rate is not
 *                          above the expected one by more than FL_P9_SIGMAS
 *                          standard deviations; the expectation is exact given
 *                          each filter's bits, the deviation counts an item
 *                          probed against many filters as one correlated
 *                          group (see fl_fp_tally below and fprate.c)
 *   P10 bad-input          engine errors on the workload's input are reported,
 *                          never a crash (the checker's part: none is silent)
 *   P11 round-trip         each new SST's filters, rebuilt by their own policy
 *                          from the SST's entries, decode from the stored bytes
 *                          and answer sampled probes as the built filter does
 *
 * Plugin policies get every property except P5.
 *
 * A database that already holds data when the checker first opens it is
 * adopted: the model starts from a full scan of it, and SSTs written before
 * are read-checked but not write-checked (their writer is unknown).
 *
 * Call order:  fl_checker_new  fl_checker_run*  fl_checker_finish  fl_checker_free
 * The first op should be FL_OP_OPEN; if it is not, the database is opened
 * with the default options first.  A violation is not an error: it is
 * reported (printed to cfg.messages, capped at cfg.max_shown lines, every one
 * counted) and the run goes on.  An engine error (I/O, corrupt SST, bad
 * option value) is an error: fl_checker_run returns it and
 * fl_checker_errmsg says what and where.
 *
 * Violation lines have the form
 *   P1 no-false-negative: line 123 get "user:17": sst 42 sub-filter
 *   "_bf:p=fixed3" said no, but sst 42 holds "user:17"
 * with byte strings spelled as in workload files.
 */
#ifndef FL_CHECK_H
#define FL_CHECK_H

#include "../engine/engine.h"
#include "../workloads/workload.h"

#include <stdio.h>

enum {
    FL_P1 = 1, FL_P2 = 2, FL_P3 = 3, FL_P4 = 4, FL_P5 = 5, FL_P6 = 6,
    FL_P7 = 7, FL_P8 = 8, FL_P9 = 9, FL_P10 = 10, FL_P11 = 11,
    FL_PROPERTY_COUNT = 12
};

/* "no-false-negative", ... ; "" for an unknown id. */
const char *fl_property_name(int property);

/* Called for each violation (after it is counted); message has no newline
 * and starts with "Pn name: ". */
typedef void (*fl_check_violation_fn)(void *arg, int property, unsigned line, const char *message);

typedef struct fl_check_config {
    const fl_registry *reg;      /* resolves the workload's specs; outlives ck */
    const char *dir;             /* the database directory                     */
    const char *path;            /* the workload file, for messages            */
    bool        check;           /* false: run the engine alone (--no-check)   */
    FILE       *results;         /* one line per read (SPEC 11), or NULL       */
    FILE       *messages;        /* violation and warning lines, or NULL       */
    uint64_t    max_shown;       /* at most this many violation lines printed  */
    uint64_t    seed;            /* for sampled probes and extensions          */
    bool        no_sync;         /* a throwaway database: skip every fsync    */
    fl_check_violation_fn on_violation;   /* optional                          */
    void       *on_violation_arg;
} fl_check_config;

typedef struct fl_check_summary {
    uint64_t   ops, violations, warnings, ssts;
    uint64_t   by_property[FL_PROPERTY_COUNT];
    fl_metrics metrics;          /* summed over every open of the database     */
    int        first_property;   /* of the first violation, 0 if none          */
    unsigned   first_line;
    /* P9, per kind (0 point, 1 prefix), as fl_fp_result (below): eligible
     * probes of built-in blooms the checker saw built, the distinct items
     * among them, the measured and expected FP rates, the standard
     * deviation P9 uses and z = (measured - expected) / sd (filled in by
     * fl_checker_finish; all 0 without probes). */
    struct { uint64_t probes, items; double measured, expected, sd, z; } fp[2];
} fl_check_summary;

typedef struct fl_checker fl_checker;

int  fl_checker_new(const fl_check_config *cfg, fl_checker **out);
/* Runs op on the engine and the model and checks what it did. */
int  fl_checker_run(fl_checker *ck, const fl_op *op);
/* Flushes and closes the database; fills the summary. */
int  fl_checker_finish(fl_checker *ck, fl_check_summary *out);
void fl_checker_free(fl_checker *ck);           /* closes the db if still open */
const char *fl_checker_errmsg(const fl_checker *ck);
/* The running summary (valid at any time). */
void fl_checker_summary(const fl_checker *ck, fl_check_summary *out);

/* ---- P9's statistic (fprate.c) ---------------------------------------------
 *
 * Eligible probes -- a filter asked about an item it did not hash, that
 * said no or a false maybe -- grouped by ITEM: the bytes the filter hashes
 * (the whole key for a point probe of a whole-key bloom, else the
 * extracted prefix), as a 64-bit fingerprint that also tells the kinds
 * apart.  Given the filters' bits, distinct items are independent, while
 * one item's probes (many filters, repeats) are correlated; so, with X_i
 * the item's false positives and E_i the sum of its probes' expected
 * rates, the variance of (false positives - expected) is estimated by the
 * sum over items of (X_i - E_i)^2, or, when larger, by the same sum for
 * the item's ghosts: FL_P9_GHOSTS imaginary absent items with hashes of
 * their own that meet the same filters (what X_i would be for another
 * hash, had the filters their claimed rates).  properties/fprate.c says
 * why, and why P9 cannot be failed by a lone unlucky item.
 *
 * Call order:  fl_fp_tally_new  fl_fp_tally_add*  fl_fp_tally_result*  fl_fp_tally_free
 */

#define FL_P9_MIN_ITEMS 10000    /* distinct probed items before P9 decides   */
#define FL_P9_SIGMAS    5.0      /* P9 fails above this many sd               */
#define FL_P9_GHOSTS    4        /* null draws per item (see fl_fp_tally_add)  */

typedef struct fl_fp_tally fl_fp_tally;

typedef struct fl_fp_result {
    uint64_t probes;             /* eligible probes                           */
    uint64_t fp;                 /* false positives among them                */
    uint64_t items;              /* distinct items the filters probed for
                                    (not counting probes they could not make) */
    uint64_t fp_items;           /* of those, items with a false positive     */
    double   measured;           /* fp / probes                               */
    double   expected;           /* the mean expected rate of the probes      */
    double   sd;                 /* of measured: sqrt(sum (X_i - E_i)^2) / probes */
    double   z;                  /* (measured - expected) / sd; 0 when sd is 0 */
    double   guard_tail;         /* for small expected counts, a bound on the
                                    chance of fp_items or more by luck; 0 when
                                    counts are large enough not to need it    */
    bool     decided;            /* items >= FL_P9_MIN_ITEMS                  */
    bool     violated;           /* decided, z > FL_P9_SIGMAS, and guard_tail
                                    below the normal tail of FL_P9_SIGMAS     */
} fl_fp_result;

/* FL_OK or FL_ERR_NOMEM. */
int  fl_fp_tally_new(fl_fp_tally **out);
/* One eligible probe of `item` (any 64-bit fingerprint; equal means the
 * same item) by a filter whose expected FP rate is `expected`; fp: it
 * answered maybe; probed: it probed its bits (false: it could not tell
 * and answered true, with expected 1); ghosts: bit g set when ghost g of
 * the item (a hash drawn for the item once, the same for all its probes)
 * is a false positive in the same filter.  FL_OK or FL_ERR_NOMEM (the
 * probe is then not counted). */
int  fl_fp_tally_add(fl_fp_tally *t, uint64_t item, double expected, bool fp, bool probed,
                     unsigned ghosts);
void fl_fp_tally_result(const fl_fp_tally *t, fl_fp_result *out);
void fl_fp_tally_free(fl_fp_tally *t);            /* NULL is fine */

/* ---- The property-based runner (runner.c, shrink.c) ------------------------
 *
 * Generates random trials -- a configuration (0-3 policies, options,
 * migrations at reopen) and a workload of some shape -- deterministically
 * from (seed, trial number), runs each through the checker, and on the
 * first violation shrinks the trial to a small workload that still
 * violates the same property and writes it under out_dir.
 *
 * Trials are numbered 0, 1, 2, ...; shard I of N runs trials I, I+N, ...
 * The trial seed is a function of (seed, trial number) only, so
 * `--seed S --trial T` regenerates one trial exactly.
 */

typedef struct fl_run_config {
    const fl_registry *reg;
    uint64_t seed;
    uint64_t trials;             /* stop after this many (0: no limit)         */
    double   seconds;            /* stop after this long (0: no limit)         */
    int64_t  only_trial;         /* >= 0: run just this trial                  */
    unsigned shard, shards;      /* run trials with number % shards == shard   */
    const char *const *policies; size_t npolicies;      /* --policy SPEC       */
    const char *const *extractors; size_t nextractors;  /* --extractor SPEC    */
    const char *const *plugins; size_t nplugins;        /* for replay commands */
    const char *out_dir;         /* minimized failures (created if needed)     */
    uint64_t max_ops;            /* ops per trial, at most                     */
    double   shrink_seconds;     /* time budget of the shrinker                */
    FILE    *log;                /* progress and results (stderr), or NULL     */
    bool     progress;           /* a \r progress line on log                  */
} fl_run_config;

typedef struct fl_run_result {
    uint64_t trials, ops;
    double   elapsed;
    int      property;           /* of the failure, 0 if none                  */
    uint64_t trial;              /* the failing trial                          */
    size_t   original_ops, minimal_ops;
    char     path[4096];         /* the minimized workload                     */
    char     message[1024];      /* its violation message                      */
    uint64_t warnings;
} fl_run_result;

/* FL_OK (with result->property 0 or the failure), or an error (bad specs,
 * an unwritable out_dir) with err set. */
int fl_check_run(const fl_run_config *cfg, fl_run_result *result, char *err, size_t err_len);

/* The standalone extractor-contract lint (P7) over `inputs` generated keys
 * and prefixes: 0 when it held, else the number of violations, the first
 * in msg.  Negative on a bad spec (err in msg). */
int fl_lint_extractor(const fl_registry *reg, const char *spec, uint64_t seed, uint64_t inputs,
                      char *msg, size_t msg_len);

/* Runs a workload through the checker in a fresh temporary directory under
 * scratch: the first violation's property (0 if none), line and message.
 * stop_early: stop at the first violation.  Negative on an engine error
 * (message in msg). */
int fl_check_workload(const fl_registry *reg, const fl_workload *w, const char *scratch,
                      uint64_t seed, bool stop_early, int *property, unsigned *line,
                      char *msg, size_t msg_len, uint64_t *ops_run);

/* Shrinks w (in place) while it still violates `property`, within a time
 * budget; returns the number of candidate runs. */
uint64_t fl_shrink(const fl_registry *reg, fl_workload *w, int property, const char *scratch,
                   uint64_t seed, double seconds);

#endif /* FL_CHECK_H */
