/*
 * test_report.c -- the report pipeline's pieces (reports/report.h): the
 * Wilson interval and the reference formulas against known values, the
 * policy list of each mode, where a workload's extractor comes from, the
 * policy override of a workload, and a small replay whose CSV rows are
 * known exactly.  Tolerance of the numeric checks: 1e-6 absolute (the
 * known values are given to 7 significant digits or better).
 */
#include "test.h"
#include "../reports/report.h"
#include "../model/model.h"

#include <math.h>
#include <stdlib.h>

#define NEAR(a, b) (fabs((a) - (b)) < 1e-6)

static fl_workload parse(const char *text) {
    fl_workload w;
    char err[512];
    memset(&w, 0, sizeof w);
    if (fl_workload_parse(text, strlen(text), "t.wl", &w, err, sizeof err) != 0)
        fl_test_fail(__FILE__, __LINE__, "parse: %s", err);
    return w;
}

/* ---- Statistics ------------------------------------------------------------ */

FL_TEST(report_wilson_known_values) {
    double lo, hi;
    /* 10 of 100: the textbook example, [0.0552291, 0.1743657]. */
    fl_wilson_interval(10, 100, FL_REPORT_Z95, &lo, &hi);
    CHECK(NEAR(lo, 0.0552291370606751));
    CHECK(NEAR(hi, 0.1743656615049135));
    /* None of 10: exactly 0 below, z^2 / (n + z^2) above = 0.2775328. */
    fl_wilson_interval(0, 10, FL_REPORT_Z95, &lo, &hi);
    CHECK(lo == 0.0);
    CHECK(NEAR(hi, 0.2775327998628892));
    /* All of 10: the mirror image, exactly 1 above. */
    fl_wilson_interval(10, 10, FL_REPORT_Z95, &lo, &hi);
    CHECK(NEAR(lo, 0.7224672001371107));
    CHECK(hi == 1.0);
    /* 950 of 100,000 (about a 10-bit bloom's rate). */
    fl_wilson_interval(950, 100000, FL_REPORT_Z95, &lo, &hi);
    CHECK(NEAR(lo, 0.008917332867684247));
    CHECK(NEAR(hi, 0.010120350395759717));
    /* No trials: undefined, never a fake 0. */
    fl_wilson_interval(0, 0, FL_REPORT_Z95, &lo, &hi);
    CHECK(isnan(lo) && isnan(hi));
}

FL_TEST(report_reference_formulas) {
    /* 10 bits/key: best k = 7, (1 - e^-0.7)^7 = 0.00819372. */
    CHECK(NEAR(fl_bloom_standard_fp(10), 0.008193722065862417));
    CHECK(fl_bloom_standard_fp(0) == 1.0);
    CHECK(fl_bloom_standard_fp(20) < fl_bloom_standard_fp(16));
    CHECK(NEAR(fl_bloom_bound_fp(10), 0.0009765625));
    CHECK(fl_bloom_bound_fp(0) == 1.0);
    /* The bound is below the textbook bloom at every size. */
    for (double b = 1; b <= 24; b += 0.5) CHECK(fl_bloom_bound_fp(b) < fl_bloom_standard_fp(b));
}

/* ---- Modes and extractors --------------------------------------------------- */

FL_TEST(report_mode_policy_lists) {
    char out[128];
    fl_report_mode m;
    CHECK_EQ(fl_report_policy_list(FL_MODE_WHOLE, 10, NULL, out, sizeof out), 0);
    CHECK_STR(out, "bloom(bits=10)");
    CHECK_EQ(fl_report_policy_list(FL_MODE_WHOLE_PREFIX, 7.5, "fixed:5", out, sizeof out), 0);
    CHECK_STR(out, "bloom(bits=7.5,prefix=fixed:5)");
    CHECK_EQ(fl_report_policy_list(FL_MODE_PREFIX_ONLY, 2, "delim:\\x3a", out, sizeof out), 0);
    CHECK_STR(out, "bloom(bits=2,prefix=delim:\\x3a,whole_key=0)");
    CHECK_EQ(fl_report_policy_list(FL_MODE_NONE, 10, NULL, out, sizeof out), 0);
    CHECK_STR(out, "none");
    CHECK_EQ(fl_report_policy_list(FL_MODE_PREFIX_ONLY, 10, "", out, sizeof out), -1);
    CHECK_EQ(fl_report_policy_list(FL_MODE_WHOLE, 10, NULL, out, 5), -1);
    for (int i = 0; i < FL_MODE_COUNT; i++) {
        CHECK_EQ(fl_report_mode_parse(fl_report_mode_name((fl_report_mode)i), &m), 0);
        CHECK_EQ(m, i);
    }
    CHECK_EQ(fl_report_mode_parse("prefix", &m), -1);
}

FL_TEST(report_workload_extractor) {
    char x[64];
    const char *text =
        "# a description\n"
        "filterlab-workload 1\n"
        "open policies=\"bloom(bits=8); bloom(bits=10, prefix=capped:3,whole_key=0)\" sst_bytes=4096\n"
        "  #   extractor:   delim:\\x3a  \n"
        "reopen policies=\"bloom(bits=10,prefix=fixed:9)\"\n";
    fl_workload w = parse(text);
    /* A comment line wins, trimmed, wherever it is. */
    CHECK_STR(fl_report_workload_extractor(text, strlen(text), &w, x, sizeof x), "comment");
    CHECK_STR(x, "delim:\\x3a");
    /* Without it: the first prefix= of the open line, not of a later spec. */
    CHECK_STR(fl_report_workload_extractor(NULL, 0, &w, x, sizeof x), "open line");
    CHECK_STR(x, "capped:3");
    fl_workload_free(&w);

    const char *reopen_only = "filterlab-workload 1\nopen policies=\"bloom(bits=10)\"\n"
                              "reopen policies=\"bloom(bits=10,prefix=fixed:9)\"\n";
    w = parse(reopen_only);
    CHECK_STR(fl_report_workload_extractor(reopen_only, strlen(reopen_only), &w, x, sizeof x),
              "reopen line");
    CHECK_STR(x, "fixed:9");
    fl_workload_free(&w);

    /* "prefix=" inside another argument's value does not count. */
    const char *none = "filterlab-workload 1\nopen policies=\"mine(xprefix=fixed:2)\"\n";
    w = parse(none);
    CHECK(fl_report_workload_extractor(none, strlen(none), &w, x, sizeof x) == NULL);
    CHECK_STR(x, "");
    fl_workload_free(&w);
}

/* ---- The override ------------------------------------------------------------ */

static const char *option(const fl_op *op, const char *key) {
    const char *v = NULL;
    for (size_t i = 0; i < op->opt_count; i++)
        if (strcmp(op->opts[i].key, key) == 0) {
            CHECK(v == NULL);                    /* each key once */
            v = op->opts[i].value;
        }
    return v;
}

FL_TEST(report_override_replaces_policies_only) {
    fl_workload w = parse("filterlab-workload 1\n"
                          "open policies=\"bloom(bits=10)\" legacy_filters=1 sst_bytes=4096 compactor=none\n"
                          "put a 1\n"
                          "reopen policies=\"bloom(bits=3)\" l0_trigger=2\n"
                          "get a\n");
    fl_workload c;
    CHECK_EQ(fl_report_override(&w, "bloom(bits=4,prefix=fixed:1)", &c), 0);
    CHECK_EQ(c.count, w.count);
    CHECK_STR(option(&c.ops[0], "policies"), "bloom(bits=4,prefix=fixed:1)");
    CHECK_STR(option(&c.ops[0], "compactor"), "bloom(bits=4,prefix=fixed:1)");
    CHECK_STR(option(&c.ops[0], "legacy_filters"), "0");
    CHECK_STR(option(&c.ops[0], "sst_bytes"), "4096");
    CHECK_STR(option(&c.ops[2], "policies"), "bloom(bits=4,prefix=fixed:1)");
    CHECK_STR(option(&c.ops[2], "l0_trigger"), "2");
    CHECK_EQ(c.ops[1].kind, FL_OP_PUT);
    CHECK_MEM(c.ops[1].a.data, c.ops[1].a.len, "a", 1);
    /* the original is untouched */
    CHECK_STR(option(&w.ops[0], "legacy_filters"), "1");
    CHECK_STR(option(&w.ops[2], "policies"), "bloom(bits=3)");
    fl_report_override_free(&c);
    fl_workload_free(&w);

    /* Without an open, one is added: the engine's default bloom never runs. */
    w = parse("filterlab-workload 1\nput a 1\nget a\n");
    CHECK_EQ(fl_report_override(&w, "none", &c), 0);
    CHECK_EQ(c.count, 3);
    CHECK_EQ(c.ops[0].kind, FL_OP_OPEN);
    CHECK_STR(option(&c.ops[0], "policies"), "none");
    fl_report_override_free(&c);
    fl_workload_free(&w);
}

/* ---- A replay with known rows --------------------------------------------------
 *
 * Two L0 SSTs: 1 = {aa1, aa2, ab1}, 2 = {aa3, ac1} (newer).  get aa1 considers
 * SST 1 only (SST 2 starts at aa3) and finds it; get ab2 considers SST 2
 * only (SST 1 ends at ab1), which does not hold it; scan_prefix ab overlaps
 * both.  The workload's own options (legacy filters, its policies) must not
 * matter.  Whole mode at 10 bits/key: SST 2's bloom holds 2 hashes in one
 * 512-bit line with k = 6, so it rules ab2 out (its FP chance is about
 * 1e-11), and a whole-key bloom cannot answer a prefix scan.  Each SST's
 * composite block is 85 bytes: 2 (count) + 2 + 3 ("_bf") + 8 (length) +
 * 70 (bloom: version, k, 4-byte line count, one 64-byte line). */
static const char tiny[] =
    "# tiny: two SSTs\n"
    "filterlab-workload 1\n"
    "open policies=\"bloom(bits=3,prefix=fixed:2)\" legacy_filters=1 memtable_bytes=1000000\n"
    "put aa1 v\nput aa2 v\nput ab1 v\nflush\n"
    "put ac1 v\nput aa3 v\nflush\n"
    "get aa1\nget ab2\nscan_prefix ab\n";

static char *csv_rows(const fl_report_measure *m, fl_report_mode mode, double bits,
                      const char *policies) {
    fl_report_row rows[2];
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    fl_report_rows(m, "filterlab", "tiny", mode, bits, policies, rows);
    fl_report_csv_row(f, &rows[0]);
    fl_report_csv_row(f, &rows[1]);
    fclose(f);
    return text;
}

FL_TEST(report_replay_known_rows) {
    fl_registry *reg;
    fl_report_measure m;
    char err[1024];
    CHECK_OK(fl_registry_new(&reg));
    fl_workload w = parse(tiny);

    CHECK_OK(fl_report_replay(reg, NULL, &w, "tiny.wl", "none", fl_test_tmpdir(), NULL, 10, 0, &m, err, sizeof err));
    CHECK_EQ(m.sum.violations, 0);
    CHECK_EQ(m.gets, 2);
    CHECK_EQ(m.prefix_scans, 1);
    char *text = csv_rows(&m, FL_MODE_NONE, 10, "none");
    CHECK_STR(text,
        "tiny,none,10,point,2,2,2,0,0,0,0,,,,,0,,,,2,1,1,0,5,0,2,0,,filterlab,\"none\"\n"
        "tiny,none,10,prefix,1,2,2,0,0,0,0,,,,,0,,,,2,2,2,0,5,0,2,0,,filterlab,\"none\"\n");
    free(text);

    CHECK_OK(fl_report_replay(reg, NULL, &w, "tiny.wl", "bloom(bits=10)", fl_test_tmpdir(), NULL, 10, 0, &m,
                              err, sizeof err));
    CHECK_EQ(m.sum.violations, 0);
    /* The checker's P9 view: one absent point item (ab2) of one filter
     * (the second SST's: aa3, ac1), ruled out; the prefix probe it cannot
     * answer has no spread (no sigmas).  The expected rate is exact given
     * that filter's bits: (bits set / 512)^6 of its one line. */
    char want[1024], expected[32], sd[32], theory[32];
    CHECK_EQ(m.sum.fp[0].probes, 1);
    CHECK_EQ(m.sum.fp[0].items, 1);
    CHECK(m.sum.fp[0].measured == 0 && m.sum.fp[0].sd > 0);
    fl_model_bloom ref;
    fl_model_bytes keys[2] = { { (const uint8_t *)"aa3", 3 }, { (const uint8_t *)"ac1", 3 } };
    CHECK_EQ(fl_model_legacy_build(&ref, 10000, keys, 2), FL_MODEL_OK);
    double exact = fl_model_bloom_expected_exact(&ref);
    fl_model_bloom_free(&ref);
    CHECK(exact > 0 && exact < pow(12.0 / 512, 6) * 1.0000001);   /* at most 12 bits set */
    CHECK(fabs(m.sum.fp[0].expected - exact) <= 1e-12 * exact);
    snprintf(expected, sizeof expected, "%.6g", exact);
    snprintf(sd, sizeof sd, "%.6g", -m.sum.fp[0].expected / m.sum.fp[0].sd);
    snprintf(theory, sizeof theory, "%.6g", fl_bloom_theory_fp(10));
    snprintf(want, sizeof want,
        "tiny,whole,10,point,2,2,0,1,1,0,1,0,0,0.793451,%s,1,%s,0.00819372,0.000976562,1,0.5,1,170,5,34,2,0,%s,filterlab,\"bloom(bits=10)\"\n"
        "tiny,whole,10,prefix,1,2,0,2,0,1,1,1,0.206549,1,1,1,,0.00819372,0.000976562,2,2,2,170,5,34,2,0,%s,filterlab,\"bloom(bits=10)\"\n",
        expected, sd, theory, theory);
    text = csv_rows(&m, FL_MODE_WHOLE, 10, "bloom(bits=10)");
    CHECK_STR(text, want);
    free(text);

    fl_workload_free(&w);
    fl_registry_free(reg);
}

FL_TEST(report_csv_header) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    fl_report_csv_header(f);
    fclose(f);
    CHECK_STR(text, "workload,mode,bits_per_key,kind,ops,considered,unfiltered,positive,negative,"
                    "false_positive,eligible,fp_rate,fp_rate_lo95,fp_rate_hi95,expected_fp_rate,"
                    "expected_probes,p9_sigmas,standard_fp_rate,bound_fp_rate,ssts_read,ssts_read_per_op,"
                    "ssts_considered_per_op,filter_bytes,keys,filter_bytes_per_key,live_ssts,"
                    "violations,theory_fp_rate,engine,policies\n");
    free(text);
}
