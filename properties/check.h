/*
 * check.h -- the checker: runs a workload op by op on the engine and on the
 * reference model side by side, consumes the engine's probe trace, and
 * checks the properties of SPEC section 8 after every op.
 *
 *   P1  no-false-negative  a sub-filter said no only where the SST held no match
 *   P2  results            get / scan_prefix / scan results equal the model's
 *   P3  skip-counts        per read, counter deltas equal the probe trace, and
 *                          each verdict follows from its sub-filters' answers
 *   P4  fp-accounting      false_positive equals MAYBE verdicts on SSTs without
 *                          a match (SST truth, read without filters)
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
    fl_check_violation_fn on_violation;   /* optional                          */
    void       *on_violation_arg;
} fl_check_config;

typedef struct fl_check_summary {
    uint64_t   ops, violations, warnings, ssts;
    uint64_t   by_property[FL_PROPERTY_COUNT];
    fl_metrics metrics;          /* summed over every open of the database     */
    int        first_property;   /* of the first violation, 0 if none          */
    unsigned   first_line;
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

#endif /* FL_CHECK_H */
