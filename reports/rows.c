/*
 * rows.c -- from one replay's measurements to the rows of results.csv, one
 * per kind of read, and the CSV spelling of a row.  The column order is the
 * contract with the generated gnuplot scripts (plots.c reads columns by
 * number) and with users' own tools; new columns go before `policies`,
 * which stays last because it is the one quoted field.
 */
#include "report.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

static double ratio(double num, uint64_t den) { return den ? num / (double)den : NAN; }

static void fill_kind(fl_report_row *row, const fl_filter_counters *c, uint64_t ops,
                      uint64_t p9_probes, double p9_measured, double p9_expected, double p9_sd) {
    row->ops = ops;
    row->considered = c->considered;
    row->unfiltered = c->unfiltered;
    row->positive = c->positive;
    row->negative = c->negative;
    row->false_positive = c->false_positive;
    row->eligible = c->negative + c->false_positive;
    row->fp_rate = ratio((double)c->false_positive, row->eligible);
    fl_wilson_interval(c->false_positive, row->eligible, FL_REPORT_Z95, &row->fp_lo, &row->fp_hi);
    row->expected_probes = c->expected_probes;
    row->expected_fp_rate = ratio(c->expected_fp_sum, c->expected_probes);
    row->p9_sigmas = p9_probes && p9_sd > 0 ? (p9_measured - p9_expected) / p9_sd : NAN;
    row->ssts_read = c->considered - c->negative;
    row->reads_per_op = ratio((double)row->ssts_read, ops);
    row->considered_per_op = ratio((double)c->considered, ops);
}

/* An untraced engine's FP columns: P9's view, the probes of targets that
 * exist nowhere over filters read from the SST files, each expected at its
 * filter's exact rate. */
static void fill_p9_view(fl_report_row *row, uint64_t probes, double measured, double expected) {
    row->eligible = probes;
    row->false_positive = (uint64_t)llround(measured * (double)probes);
    row->fp_rate = ratio((double)row->false_positive, row->eligible);
    fl_wilson_interval(row->false_positive, row->eligible, FL_REPORT_Z95, &row->fp_lo, &row->fp_hi);
    row->expected_probes = probes;
    row->expected_fp_rate = probes ? expected : NAN;
}

void fl_report_rows(const fl_report_measure *m, const char *engine, const char *workload,
                    fl_report_mode mode, double bits, const char *policies, fl_report_row rows[2]) {
    for (int k = 0; k < 2; k++) {
        fl_report_row *row = &rows[k];
        memset(row, 0, sizeof *row);
        row->workload = workload;
        row->engine = engine;
        row->mode = mode;
        row->bits = bits;
        row->kind = k ? FL_TARGET_PREFIX : FL_TARGET_POINT;
        row->policies = policies;
        fill_kind(row, k ? &m->sum.metrics.prefix : &m->sum.metrics.point,
                  k ? m->prefix_scans : m->gets, m->sum.fp[k].probes, m->sum.fp[k].measured,
                  m->sum.fp[k].expected, m->sum.fp[k].sd);
        if (m->untraced) fill_p9_view(row, m->sum.fp[k].probes, m->sum.fp[k].measured, m->sum.fp[k].expected);
        row->standard_fp_rate = mode == FL_MODE_NONE ? NAN : fl_bloom_standard_fp(bits);
        row->bound_fp_rate = mode == FL_MODE_NONE ? NAN : fl_bloom_bound_fp(bits);
        row->theory_fp_rate = mode == FL_MODE_NONE ? NAN : fl_bloom_theory_fp(bits);
        row->filter_bytes = m->filter_bytes;
        row->keys = m->entries;
        row->live_ssts = m->live_ssts;
        row->filter_bytes_per_key = ratio((double)m->filter_bytes, m->entries);
        row->violations = m->sum.violations;
    }
}

/* ---- CSV --------------------------------------------------------------------- */

static const char *const columns[] = {
    "workload", "mode", "bits_per_key", "kind", "ops",
    "considered", "unfiltered", "positive", "negative", "false_positive", "eligible",
    "fp_rate", "fp_rate_lo95", "fp_rate_hi95", "expected_fp_rate", "expected_probes", "p9_sigmas",
    "standard_fp_rate", "bound_fp_rate",
    "ssts_read", "ssts_read_per_op", "ssts_considered_per_op",
    "filter_bytes", "keys", "filter_bytes_per_key", "live_ssts", "violations", "theory_fp_rate",
    "engine", "policies",
};

void fl_report_csv_header(FILE *f) {
    for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++)
        fprintf(f, "%s%s", i ? "," : "", columns[i]);
    fputc('\n', f);
}

/* ",value" with 6 significant digits, or "," alone for an undefined one. */
static void real(FILE *f, double v) {
    if (isnan(v)) fputc(',', f);
    else fprintf(f, ",%.6g", v);
}

static void count(FILE *f, uint64_t v) { fprintf(f, ",%" PRIu64, v); }

/* RFC 4180: in double quotes, a quote doubled. */
static void quoted(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void fl_report_csv_row(FILE *f, const fl_report_row *r) {
    fprintf(f, "%s,%s,%g,%s", r->workload, fl_report_mode_name(r->mode), r->bits,
            r->kind == FL_TARGET_PREFIX ? "prefix" : "point");
    count(f, r->ops);
    count(f, r->considered);
    count(f, r->unfiltered);
    count(f, r->positive);
    count(f, r->negative);
    count(f, r->false_positive);
    count(f, r->eligible);
    real(f, r->fp_rate);
    real(f, r->fp_lo);
    real(f, r->fp_hi);
    real(f, r->expected_fp_rate);
    count(f, r->expected_probes);
    real(f, r->p9_sigmas);
    real(f, r->standard_fp_rate);
    real(f, r->bound_fp_rate);
    count(f, r->ssts_read);
    real(f, r->reads_per_op);
    real(f, r->considered_per_op);
    count(f, r->filter_bytes);
    count(f, r->keys);
    real(f, r->filter_bytes_per_key);
    count(f, r->live_ssts);
    count(f, r->violations);
    real(f, r->theory_fp_rate);
    fprintf(f, ",%s,", r->engine ? r->engine : "filterlab");
    quoted(f, r->policies ? r->policies : "");
    fputc('\n', f);
}
