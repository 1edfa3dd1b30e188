/*
 * test_crash.c -- crash-point testing (issue 14): a workload that flushes
 * and compacts under two policy migrations and an extractor change is run
 * once per file operation with `crash after=N` right after its open, so
 * that the process dies at every create, write, fsync, rename, removal and
 * directory sync of every flush and compaction in turn; each reopened
 * database must hold exactly a state the model allows, and every property
 * must hold on from there.  And the test has teeth: with a fault env that
 * makes the fsync of SST files a no-op (what a careless engine does), some
 * crash point loses a committed write, and the finding names it.
 */
#include "test.h"
#include "../engine/engine.h"
#include "../properties/check.h"
#include "../workloads/workload.h"

#include <stdlib.h>
#include <string.h>

/* flushes, compactions (automatic and full), two migrations, an extractor
 * change, deletes and a range delete; reads of everything at the end */
static const char *const BODY =
    "put a:1 1\nput a:2 2\nput b:1 3\nflush\n"
    "put a:3 4\ndel a:1\nflush\n"
    "reopen policies=\"bloom(bits=10,prefix=fixed:2);bloom(bits=6)\" l0_trigger=2\n"
    "put b:2 5\nput c:1 6\nflush\nput c:2 7\ndelrange b: b:2\nflush\n"
    "set_options policies=\"bloom(bits=10,prefix=fixed:3);bloom(bits=6)\"\n"
    "put d:1 8\nflush\ncompact full\n"
    "reopen policies=\"bloom(bits=8)\"\n"
    "put e:1 9\nflush\n"
    "get a:1\nget a:2\nget a:3\nget b:1\nget b:2\nget c:1\nget c:2\nget d:1\nget e:1\n"
    "scan_prefix a:\nscan_prefix b:\nscan a: z\nseek a n=20\nseek_for_prev z n=20\n";

typedef struct result { int rc, property; uint64_t crashes, violations; char message[4096]; } result;

static void ignore_sst_fsync(void *arg, fl_env *fault) {
    (void)arg;
    fl_env_fault_ignore_sync(fault, ".sst");
}

static result run(fl_registry *reg, unsigned crash_after, bool careless) {
    char text[8192], err[512] = "";
    int n = snprintf(text, sizeof text, "filterlab-workload 1\nopen policies=\"bloom(bits=10,prefix=fixed:2)\" "
                     "l0_trigger=3 memtable_bytes=100000\n");
    if (crash_after) n += snprintf(text + n, sizeof text - (size_t)n, "crash after=%u\n", crash_after);
    snprintf(text + n, sizeof text - (size_t)n, "%s", BODY);
    fl_workload w;
    result res = { 0 };
    if (fl_workload_parse(text, strlen(text), "crash.wl", &w, err, sizeof err) != 0) {
        fl_test_fail(__FILE__, __LINE__, "parse: %s", err);
        res.rc = FL_ERR_INVALID;
        return res;
    }
    fl_runner r = { .check = { .reg = reg, .path = "crash.wl", .check = true, .seed = 3, .in_memory = true,
                               .on_fault_env = careless ? ignore_sst_fsync : NULL },
                    .scratch = fl_test_tmpdir() };
    fl_run_outcome out;
    int rc = fl_run_workload(&r, &w, &out);
    res.rc = rc ? rc : out.rc;
    res.property = out.property;
    res.crashes = out.sum.crashes;
    res.violations = out.sum.violations;
    snprintf(res.message, sizeof res.message, "%s", out.property ? out.message : out.error);
    fl_workload_free(&w);
    return res;
}

FL_TEST(crash_every_point_of_flushes_compactions_and_migrations) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    if (!reg) return;
    result clean = run(reg, 0, false);
    CHECK_OK(clean.rc);
    CHECK_EQ(clean.property, 0);
    unsigned points = 0;
    for (unsigned n = 1; n < 10000; n++) {
        result r = run(reg, n, false);
        if (r.rc != FL_OK || r.property != 0) {
            fl_test_fail(__FILE__, __LINE__, "crash after=%u: %s", n, r.message);
            break;
        }
        if (r.crashes == 0) break;               /* past the last file operation */
        points++;
    }
    printf("    %u crash points explored, every one recovered to a state the model allows\n", points);
    CHECK(points >= 40);
    /* teeth: SST fsyncs that make nothing durable lose a committed write at
     * some crash point, and the finding names the point */
    unsigned caught = 0, manifest = 0;
    char first[4096] = "";
    for (unsigned n = 1; n <= points; n++) {
        result r = run(reg, n, true);
        if (r.rc == FL_OK && r.property == 0) continue;
        if (!caught++) snprintf(first, sizeof first, "%s", r.message);
        if (strstr(r.message, "/MANIFEST: ")) manifest++;     /* the file named as what failed */
    }
    printf("    with SST fsyncs ignored: %u of %u crash points caught; the first: %.300s\n", caught, points, first);
    CHECK(caught > 0);
    CHECK_CONTAINS(first, "the crash at file operation");
    /* what is lost is an SST's bytes, and only that: the MANIFEST's fsyncs
     * still count (a fault env that ignored the wrong files' fsyncs would
     * lose the MANIFEST instead) */
    CHECK_CONTAINS(first, ".sst: ");
    CHECK_EQ(manifest, 0);
    fl_registry_free(reg);
}

/* Runs text with checks on and its results kept: no violation, crashes
 * crashes, and results exactly as given. */
static void expect_results_with(const char *text, uint64_t crashes, const char *results, fl_check_summary *sum);

static void expect_results(const char *text, uint64_t crashes, const char *results) {
    fl_check_summary sum;
    expect_results_with(text, crashes, results, &sum);
}

/* The same, and the run's summary in *sum. */
static void expect_results_with(const char *text, uint64_t crashes, const char *results, fl_check_summary *sum) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    if (!reg) return;
    char err[512] = "";
    fl_workload w;
    CHECK(fl_workload_parse(text, strlen(text), "c.wl", &w, err, sizeof err) == 0);
    FILE *res = tmpfile();
    fl_runner r = { .check = { .reg = reg, .path = "c.wl", .check = true, .seed = 3, .in_memory = true,
                               .results = res },
                    .scratch = fl_test_tmpdir() };
    fl_run_outcome out;
    CHECK_OK(fl_run_workload(&r, &w, &out));
    CHECK_OK(out.rc);
    CHECK_EQ(out.property, 0);
    CHECK_EQ(out.sum.crashes, crashes);
    *sum = out.sum;
    char lines[256] = "";
    rewind(res);
    size_t k = fread(lines, 1, sizeof lines - 1, res);
    lines[k] = 0;
    CHECK_STR(lines, results);
    fclose(res);
    fl_workload_free(&w);
    fl_registry_free(reg);
}

/* `crash` alone: the memtable is lost, what was flushed stays. */
FL_TEST(crash_loses_the_memtable_only) {
    expect_results("filterlab-workload 1\nopen\nput a 1\nflush\nput b 2\ndel a\ncrash\nget a\nget b\n", 1,
                   "8 get a -> 1\n9 get b -> none\n");
}

/* What a crash restores is kept up to date flush by flush from the writes
 * since the last one (checker.c, durable_advance): overwrites, deletes of
 * flushed and of unflushed keys, a range delete with a key put again inside
 * it, and a reopen's flush.  A mistake there leaves the model after the
 * crash unlike the reopened database: P2. */
FL_TEST(crash_restores_every_kind_of_write_since_the_last_flush) {
    expect_results("filterlab-workload 1\nopen\n"
                   "put a 1\nput b 2\nput c 3\nput d 4\nflush\n"
                   "put b 5\ndel a\nput e 6\ndel e\ndelrange b d\nput c 7\nflush\n"
                   "put x 0\ncrash\n"
                   "put f 8\nput d 9\ndelrange c e\nput g 1\n"
                   "reopen l0_trigger=4\nput h 1\ncrash\n"
                   "scan a z\n",
                   2, "24 scan a z -> f=8 g=1\n");
}

/* A death inside a reopen (the close's flush, its first file operation):
 * the database comes back with the reopen's options, as a restart with
 * the new configuration would -- here no filter, so the next SST is read
 * unfiltered -- and the memtable is lost. */
FL_TEST(crash_inside_a_reopen_comes_back_with_its_options) {
    fl_check_summary sum;
    expect_results_with("filterlab-workload 1\nopen policies=\"bloom(bits=10)\"\nput a 1\ncrash after=1\n"
                        "reopen policies=none\nput b 1\nput d 1\nflush\nget c\nget a\n",
                        1, "9 get c -> none\n10 get a -> none\n", &sum);
    CHECK_EQ(sum.metrics.point.considered, 1);
    CHECK_EQ(sum.metrics.point.unfiltered, 1);
}
