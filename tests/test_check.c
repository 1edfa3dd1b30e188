/*
 * test_check.c -- the checker through its API: a corrupt filter block is
 * read unfiltered with no violation and counted as a filter error (P10); a
 * workload run through the checker reports the same results whether or not
 * it checks; an existing database is adopted; violations carry the
 * property, line and message to the callback.
 */
#include "test.h"
#include "../engine/engine_internal.h"
#include "../properties/check.h"

#include <math.h>
#include <stdlib.h>

static fl_workload parse(const char *text) {
    fl_workload w;
    char err[512];
    memset(&w, 0, sizeof w);
    if (fl_workload_parse(text, strlen(text), "t.wl", &w, err, sizeof err) != 0)
        fl_test_fail(__FILE__, __LINE__, "parse: %s", err);
    return w;
}

typedef struct seen { int count, property; unsigned line; char msg[512]; } seen;

static void on_violation(void *arg, int property, unsigned line, const char *msg) {
    seen *s = arg;
    if (!s->count++) {
        s->property = property;
        s->line = line;
        snprintf(s->msg, sizeof s->msg, "%s", msg);
    }
}

static int run(fl_registry *reg, const char *dir, const char *text, fl_check_summary *sum, seen *s) {
    fl_workload w = parse(text);
    fl_runner r = { .check = { .reg = reg, .dir = dir, .path = "t.wl", .check = true, .seed = 7,
                               .on_violation = on_violation, .on_violation_arg = s } };
    fl_run_outcome out;
    int rc = fl_run_workload(&r, &w, &out);
    if (rc == FL_OK) rc = out.rc;
    if (rc) fprintf(stderr, "  runner: %s\n", out.error);
    *sum = out.sum;
    fl_workload_free(&w);
    return rc;
}

static const char *const WRITE =
    "filterlab-workload 1\n"
    "open policies=\"bloom(bits=10,prefix=fixed:2)\" memtable_bytes=100000\n"
    "put aa1 1\nput aa2 2\nput ab1 3\nput b 4\ndel aa2\nflush\n"
    "put c 5\nflush\n";

static const char *const READ =
    "filterlab-workload 1\n"
    "open policies=\"bloom(bits=10,prefix=fixed:2)\"\n"
    "get aa1\nget aa2\nget ab1\nget b\nget zz\nget c\nscan_prefix aa\nscan_prefix ab\nscan_prefix q\n"
    "scan a c\n";

FL_TEST(check_clean_run_and_adoption) {
    fl_registry *reg;
    CHECK_OK(fl_registry_new(&reg));
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/db", fl_test_tmpdir());
    fl_check_summary sum;
    seen s = { 0 };
    CHECK_OK(run(reg, dir, WRITE, &sum, &s));
    CHECK_EQ(sum.violations, 0);
    CHECK_EQ(sum.ssts, 2);
    /* a second checker adopts the database: the model starts from it */
    CHECK_OK(run(reg, dir, READ, &sum, &s));
    CHECK_EQ(sum.violations, 0);
    CHECK_EQ(sum.metrics.point.considered > 0, 1);
    if (s.count) fprintf(stderr, "  first violation: %s\n", s.msg);
    fl_registry_free(reg);
}

/* Flips a byte in the filter block of every SST of dir. */
static int corrupt_filters(const char *dir) {
    fl_manifest_data m;
    char err[512];
    int n = 0;
    if (fl_manifest_read(fl_env_posix(), dir, &m, err, sizeof err) != FL_OK) return -1;
    fl_policy_list none = { NULL, 0 };
    for (size_t i = 0; i < m.l0_count; i++) {
        fl_sst_reader *r;
        uint64_t fe = 0;
        if (fl_sst_open(fl_env_posix(), dir, m.l0[i], &none, NULL, &r, &fe, err, sizeof err) != FL_OK) continue;
        uint64_t off = r->info.filter_offset + r->info.filter_len / 2;
        bool has = r->info.filter_len > 0;
        char path[4200];
        snprintf(path, sizeof path, "%s", r->path);
        fl_sst_close(r);
        if (!has) continue;
        FILE *f = fopen(path, "r+b");
        if (!f) continue;
        fseek(f, (long)off, SEEK_SET);
        int c = fgetc(f);
        fseek(f, (long)off, SEEK_SET);
        fputc(c ^ 0x40, f);
        fclose(f);
        n++;
    }
    fl_manifest_data_free(&m);
    return n;
}

FL_TEST(check_corrupt_filter_block_is_unfiltered_not_wrong) {
    fl_registry *reg;
    CHECK_OK(fl_registry_new(&reg));
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/db", fl_test_tmpdir());
    fl_check_summary sum;
    seen s = { 0 };
    CHECK_OK(run(reg, dir, WRITE, &sum, &s));
    CHECK_EQ(corrupt_filters(dir), 2);
    CHECK_OK(run(reg, dir, READ, &sum, &s));
    CHECK_EQ(sum.violations, 0);
    if (s.count) fprintf(stderr, "  first violation: %s\n", s.msg);
    CHECK_EQ(sum.metrics.filter_errors, 2);
    /* every considered SST was read unfiltered */
    CHECK_EQ(sum.metrics.point.unfiltered, sum.metrics.point.considered);
    CHECK_EQ(sum.metrics.prefix.unfiltered, sum.metrics.prefix.considered);
    fl_registry_free(reg);
}

FL_TEST(check_property_names) {
    CHECK_STR(fl_property_name(FL_P1), "no-false-negative");
    CHECK_STR(fl_property_name(FL_P7), "extractor-contract");
    CHECK_STR(fl_property_name(FL_P11), "round-trip");
    CHECK_STR(fl_property_name(0), "");
    CHECK_STR(fl_property_name(99), "");
}

/* P9's statistics on the L0 FP shape: 20,000 keys in 4 overlapping L0
 * SSTs at 10 bits/key, then 19,999 absent gets inside their range. */
FL_TEST(check_fp_rate_statistics) {
    fl_registry *reg;
    CHECK_OK(fl_registry_new(&reg));
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/db", fl_test_tmpdir());
    size_t cap = 3 << 20, len = 0;
    char *text = malloc(cap);
    len += (size_t)snprintf(text + len, cap - len, "filterlab-workload 1\nopen policies=\"bloom(bits=10)\" "
                            "memtable_bytes=100000000 l0_trigger=1000\n");
    for (int s = 0; s < 4; s++) {
        for (int k = s; k < 20000; k += 4) len += (size_t)snprintf(text + len, cap - len, "put k%09d v\n", 2 * k);
        len += (size_t)snprintf(text + len, cap - len, "flush\n");
    }
    for (int k = 0; k < 19999; k++) len += (size_t)snprintf(text + len, cap - len, "get k%09d\n", 2 * k + 1);
    fl_check_summary sum;
    seen s = { 0 };
    CHECK_OK(run(reg, dir, text, &sum, &s));
    CHECK_EQ(sum.violations, 0);
    /* every absent get probes every SST whose range covers it: all four,
     * but for a few keys past the last key of an SST */
    CHECK(sum.fp[0].probes > 4 * 19999 - 20 && sum.fp[0].probes <= 4 * 19999);
    /* each absent key is one item, probed against those four filters */
    CHECK_EQ(sum.fp[0].items, 19999);
    /* exact given the bits of filters of m = 5000, lines = ceil(5000*10000/512000) = 98, k = 6 */
    CHECK(sum.fp[0].expected > 0.0085 && sum.fp[0].expected < 0.0105);
    CHECK(sum.fp[0].sd > 0 && sum.fp[0].sd < 0.002);
    CHECK(fabs(sum.fp[0].z - (sum.fp[0].measured - sum.fp[0].expected) / sum.fp[0].sd) < 1e-9);
    CHECK(sum.fp[0].z < 5);
    printf("    p9 point: %llu probes of %llu items, measured %.4f%%, expected %.4f%%, sd %.4f%%, z %.2f\n",
           (unsigned long long)sum.fp[0].probes, (unsigned long long)sum.fp[0].items,
           100 * sum.fp[0].measured, 100 * sum.fp[0].expected, 100 * sum.fp[0].sd, sum.fp[0].z);
    free(text);
    fl_registry_free(reg);
}

/* ---- A streamed workload ------------------------------------------------------ */

typedef struct streamed { fl_wl_stream *s; size_t chunk, calls; } streamed;

static int next_chunk(void *arg, fl_workload *chunk, char *err, size_t err_len) {
    streamed *st = arg;
    st->calls++;
    return fl_wl_stream_next(st->s, st->chunk, chunk, err, err_len);
}

/* Run through the runner in chunks of 1, 3 and 1000 ops, a workload gives
 * exactly the results, metrics and op count of the same workload run
 * whole; a bad line in a later chunk ends the run with its message. */
FL_TEST(check_streamed_workload_runs_as_whole) {
    fl_registry *reg;
    CHECK_OK(fl_registry_new(&reg));
    char text[4096], path[4200], err[512];
    const char *read_ops = strchr(strchr(READ, '\n') + 1, '\n') + 1;      /* past header and open */
    snprintf(text, sizeof text, "%s%s", WRITE, read_ops);
    snprintf(path, sizeof path, "%s/s.wl", fl_test_tmpdir());
    FILE *f = fopen(path, "w");
    CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0);
    fl_workload whole = parse(text);
    char *want = NULL, *got = NULL;
    size_t want_len = 0, got_len = 0;
    FILE *res = open_memstream(&want, &want_len);
    fl_runner r = { .check = { .reg = reg, .path = "s.wl", .check = true, .seed = 7, .results = res,
                               .in_memory = true } };
    fl_run_outcome whole_out, out;
    CHECK_OK(fl_run_workload(&r, &whole, &whole_out));
    CHECK_OK(whole_out.rc);
    fclose(res);
    size_t chunks[] = { 1, 3, 1000 };
    for (size_t c = 0; c < 3; c++) {
        streamed st = { NULL, chunks[c], 0 };
        CHECK(fl_wl_stream_open(path, NULL, &st.s, err, sizeof err) == 0);
        res = open_memstream(&got, &got_len);
        fl_workload none = { 0 };
        r.check.results = res;
        r.more = next_chunk;
        r.more_arg = &st;
        CHECK_OK(fl_run_workload(&r, &none, &out));
        CHECK_OK(out.rc);
        fclose(res);
        CHECK_EQ(out.ops_run, whole.count);
        CHECK_EQ(out.sum.violations, 0);
        CHECK_EQ(out.sum.metrics.point.considered, whole_out.sum.metrics.point.considered);
        CHECK_EQ(out.sum.metrics.point.negative, whole_out.sum.metrics.point.negative);
        CHECK_EQ(out.sum.metrics.prefix.considered, whole_out.sum.metrics.prefix.considered);
        CHECK_EQ(out.sum.ssts, whole_out.sum.ssts);
        CHECK_MEM(got, got_len, want, want_len);
        CHECK(st.calls >= whole.count / chunks[c] + 1);
        free(got);
        fl_wl_stream_close(st.s);
    }
    /* a bad line after good chunks: the run stops there, with its message */
    f = fopen(path, "a");
    CHECK(f && fputs("get zz\nbogus\n", f) >= 0 && fclose(f) == 0);
    streamed st = { NULL, 2, 0 };
    CHECK(fl_wl_stream_open(path, NULL, &st.s, err, sizeof err) == 0);
    fl_workload none = { 0 };
    r.check.results = NULL;
    r.more_arg = &st;
    CHECK_OK(fl_run_workload(&r, &none, &out));
    CHECK_RC(out.rc, FL_ERR_INVALID);
    CHECK_EQ(out.ops_run, whole.count + 1);
    CHECK_CONTAINS(out.error, "s.wl:");
    CHECK_CONTAINS(out.error, "bogus");
    fl_wl_stream_close(st.s);
    free(want);
    fl_workload_free(&whole);
    fl_registry_free(reg);
}
