/*
 * test_shrink.c -- the shrinker leaves what it shrinks 1-minimal
 * (fl_shrink, fl_check_minimal in properties/check.h).
 *
 * Known failures: every mutant plugin of tests/mutants/ that has a
 * "# check: ARGS" line.  For each, the property-based runner finds a
 * failing trial from scratch with those --policy/--extractor ARGS (as
 * tests/cli/mutants_check.sh does, but without shrinking it), and the
 * mutant's own workload (NAME.wl) is a second, hand-written failure.  Each
 * is shrunk with fl_shrink and must come out 1-minimal: fl_check_minimal
 * tries every single removal (each op, each option of each open/reopen,
 * each spec of each policy list, and each reopen as a flush) and each must
 * make the failure go away.  The shrunk workload must still fail with the
 * same property and be short (at most MAX_OPS ops), and shrinking it
 * must take at most MAX_RUNS candidate runs.  Nothing here depends on how
 * long anything takes: the shrinker's only budget is time, so it gets
 * SHRINK_HANG_GUARD, far beyond any shrink, loaded or not, and the bounds
 * asserted are counts (ops, runs, the runner's trials), which the seed
 * alone decides.
 *
 * (Under ASan, only the mutants' own workloads: see UNDER_ASAN.)
 * Each mutant is a child process, two at a time (both cores); the failure
 * is found in a grandchild, so that the process that shrinks, and forks
 * once per candidate, stays small (forking a big ASan process is slow).
 *
 * The judge is checked too: on a minimal failure it says minimal; with a
 * padding op, a default option or an extra policy added it says which
 * removal still fails; on a workload that does not fail it refuses.
 */
#include "test.h"
#include "../properties/check.h"
#include "../properties/shrink_internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A shrunk failure's ops, at most; and the candidate runs a shrink may
 * take, at most (the most any takes is about 210, so this is a bound on the
 * shrinker's work that a slow machine cannot trip, and a shrinker that went
 * round in circles would). */
enum { MAX_OPS = 8, MAX_RUNS = 2000 };

/* Under ASan every candidate's fork costs milliseconds: there the runner's
 * failures are left to tests/cli/mutants_check.sh (which shrinks them with
 * the ASan binary too) and only the mutants' own workloads are shrunk. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif
/* The shrinker's time budget (fl_shrink has no other): only a guard
 * against a hang, never reached by a shrink that works, however busy the
 * machine (a shrink takes well under a second alone).  A shrink cut by it
 * is not 1-minimal, and fails as that; elapsed time is never asserted. */
static const double SHRINK_HANG_GUARD = 600;

/* Compiles tests/DIR/NAME.c into the test's directory and loads it. */
static bool load_plugin(fl_registry *reg, const char *dir, const char *name) {
    const char *cc = getenv("CC");
    if (!cc || !*cc) cc = "cc";
    const char *src = fl_test_srcdir();
    char so[4096], cmd[8192], err[1024];
    snprintf(so, sizeof so, "%s/%s.so", fl_test_tmpdir(), name);
    snprintf(cmd, sizeof cmd, "%s -std=c11 -shared -fPIC -I'%s/engine' '%s/tests/%s/%s.c' -o '%s'",
             cc, src, src, dir, name, so);
    if (system(cmd) != 0) {
        fl_test_fail(__FILE__, __LINE__, "cannot build %s: %s", name, cmd);
        return false;
    }
    if (fl_registry_load_plugin(reg, so, err, sizeof err) != FL_OK) {
        fl_test_fail(__FILE__, __LINE__, "cannot load %s: %s", name, err);
        return false;
    }
    return true;
}

static bool load_mutant(fl_registry *reg, const char *name) { return load_plugin(reg, "mutants", name); }

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Where the tests' trials run: the temporary directory, seed 1; the
 * watchdog on each call (none of these hangs: a call takes microseconds)
 * so wide that no load makes a slow call a hang. */
static fl_trial_env trial_env(const fl_registry *reg, const char *scratch) {
    fl_trial_env env = { .reg = reg, .scratch = scratch, .seed = 1, .call_timeout = 60 };
    return env;
}

/* One run of w as the shrinker runs candidates: the engine error's status
 * (then *p is P10), or FL_OK with the first violation's property in *p. */
static int run_once(const fl_registry *reg, const fl_workload *w, const char *scratch, int *p,
                    char *msg, size_t msg_len) {
    fl_trial_env env = trial_env(reg, scratch);
    fl_trial_outcome o;
    int rc = fl_check_workload(&env, w, true, &o);
    if (rc) return rc;
    *p = o.property;
    snprintf(msg, msg_len, "%.*s", (int)(msg_len ? msg_len - 1 : 0), o.message);
    return o.rc;
}

static uint64_t shrink(const fl_registry *reg, fl_workload *w, int property, const char *scratch,
                       double seconds) {
    fl_trial_env env = trial_env(reg, scratch);
    return fl_shrink(&env, w, property, seconds);
}

static int judge_minimal(const fl_registry *reg, const fl_workload *w, int property, const char *scratch,
                         bool *minimal, char *what, size_t what_len) {
    fl_trial_env env = trial_env(reg, scratch);
    return fl_check_minimal(&env, w, property, minimal, what, what_len);
}

/* Failures found by a mutant's child process, which reports them by its
 * exit status. */
static int child_failures;
#define MUST(cond, ...) \
    do { if (!(cond)) { child_failures++; fl_test_fail(__FILE__, __LINE__, __VA_ARGS__); } } while (0)

/* Shrinks the failure w (of property) and checks that the result is short,
 * fails alike and is 1-minimal, and that shrinking took at most MAX_RUNS
 * runs; what names the failure in messages.  (The time it took is shown,
 * never judged.) */
static void shrink_and_judge(const fl_registry *reg, fl_workload *w, int property, const char *what) {
    const char *scratch = fl_test_tmpdir();
    size_t before = w->count;
    double start = now_s();
    uint64_t runs = shrink(reg, w, property, scratch, SHRINK_HANG_GUARD);
    double took = now_s() - start;
    int p = 0;
    char msg[1024] = "", judged[1024] = "";
    int rc = run_once(reg, w, scratch, &p, msg, sizeof msg);
    MUST(rc == FL_OK && p == property, "%s: shrunk, it fails with P%d (status %d), not P%d", what, p, rc,
         property);
    bool minimal = false;
    rc = judge_minimal(reg, w, property, scratch, &minimal, judged, sizeof judged);
    MUST(rc == FL_OK && minimal && w->count <= MAX_OPS && runs <= MAX_RUNS,
         "%s: shrunk from %zu to %zu ops (at most %d wanted) in %llu runs (at most %d wanted)%s: %s", what,
         before, w->count, MAX_OPS, (unsigned long long)runs, MAX_RUNS,
         took >= SHRINK_HANG_GUARD ? ", cut by the hang guard" : "", judged);
    if (!minimal || getenv("FL_TEST_SHOW")) fl_workload_print(w, stdout);
    printf("    %-36s P%-2d %5zu -> %zu ops, %4llu runs, %.2f s\n", what, property, before, w->count,
           (unsigned long long)runs, took);
    fflush(stdout);
}

/* The words after "# check:" in the mutant's workload (its --policy and
 * --extractor arguments), into the runner's configuration. */
typedef struct mutant_args {
    char text[1024];
    const char *policies[8], *extractors[8];
    size_t np, ne;
} mutant_args;

static bool check_args(const char *wl_path, mutant_args *a) {
    memset(a, 0, sizeof *a);
    FILE *f = fopen(wl_path, "r");
    if (!f) return false;
    char line[1024];
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        const char *p = line;
        if (strncmp(p, "# check:", 8) != 0) continue;
        snprintf(a->text, sizeof a->text, "%s", p + 8);
        found = true;
    }
    fclose(f);
    if (!found) return false;
    char *save = NULL, *flag = strtok_r(a->text, " \t\n", &save);
    while (flag) {
        char *value = strtok_r(NULL, " \t\n", &save);
        if (!value) return false;
        if (strcmp(flag, "--policy") == 0 && a->np < 8) a->policies[a->np++] = value;
        else if (strcmp(flag, "--extractor") == 0 && a->ne < 8) a->extractors[a->ne++] = value;
        else return false;
        flag = strtok_r(NULL, " \t\n", &save);
    }
    return a->np + a->ne > 0;
}

/* The runner's failure for the mutant, not shrunk, written under out;
 * in a process of its own, whose memory then goes away. */
static bool find_failure(const char *name, const mutant_args *a, const char *out, fl_run_result *res) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        fl_registry *reg = NULL;
        char err[1024] = "";
        int rc = fl_registry_new(&reg);
        if (rc == FL_OK && load_mutant(reg, name)) {
            /* bounded by trials alone (the first finding is at trial 4
             * at most), which the seed decides: no time limit, which a
             * busy machine could reach first */
            fl_run_config c = { .reg = reg, .seed = 1, .trials = 200, .seconds = 0, .only_trial = -1,
                                .shards = 1, .policies = a->policies, .npolicies = a->np,
                                .extractors = a->extractors, .nextractors = a->ne, .out_dir = out,
                                .max_ops = 1500, .shrink_seconds = 0 };
            rc = fl_check_run(&c, res, err, sizeof err);
            if (rc != FL_OK) fprintf(stderr, "  %s: %s\n", name, err);
        }
        fl_registry_free(reg);
        fflush(NULL);
        _exit(rc == FL_OK && res->property ? 0 : 1);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return false;
    /* the path and trial, as the child wrote them (the runner's own names) */
    DIR *d = opendir(out);
    bool found = false;
    for (struct dirent *e; d && !found && (e = readdir(d));) {
        int p;
        unsigned long long seed, trial = UINT64_MAX;
        char tail[8];
        /* a trial's, or the extractor lint's (lint1.wl, ...) */
        if ((sscanf(e->d_name, "P%d-seed%llu-trial%llu%7s", &p, &seed, &trial, tail) == 4 ||
             sscanf(e->d_name, "P%d-seed%llu-lint%*u%7s", &p, &seed, tail) == 3) &&
            !strcmp(tail, ".wl")) {
            int len = snprintf(res->path, sizeof res->path, "%s/%s", out, e->d_name);
            res->property = p;
            res->trial = trial;
            found = len > 0 && (size_t)len < sizeof res->path;
        }
    }
    if (d) closedir(d);
    return found;
}

/* The mutant's two failures, shrunk and judged (in a child process). */
static void shrink_mutant(const char *name) {
    char wl_path[4096], out[4096], err[1024], what[256];
    snprintf(wl_path, sizeof wl_path, "%s/tests/mutants/%s.wl", fl_test_srcdir(), name);
    mutant_args a;
    if (!check_args(wl_path, &a)) return;
    snprintf(out, sizeof out, "%s/found-%s", fl_test_tmpdir(), name);
    fl_run_result res;
    memset(&res, 0, sizeof res);
    bool found = !UNDER_ASAN && find_failure(name, &a, out, &res);
    MUST(found || UNDER_ASAN, "%s: the runner found no failure", name);
    fl_registry *reg = NULL;
    MUST(fl_registry_new(&reg) == FL_OK, "no registry");
    if (!reg || !load_mutant(reg, name)) { child_failures++; fl_registry_free(reg); return; }
    fl_workload w;
    if (found) {
        if (fl_workload_load(res.path, &w, err, sizeof err) != 0) {
            MUST(false, "%s: %s", name, err);
        } else {
            if (res.trial == UINT64_MAX) snprintf(what, sizeof what, "%s (its lint)", name);
            else snprintf(what, sizeof what, "%s (trial %llu)", name, (unsigned long long)res.trial);
            shrink_and_judge(reg, &w, res.property, what);
            fl_workload_free(&w);
        }
    }
    /* the mutant's own workload: a known failure */
    if (fl_workload_load(wl_path, &w, err, sizeof err) != 0) {
        MUST(false, "%s", err);
    } else {
        int p = 0;
            char msg[1024];
        int rc = run_once(reg, &w, fl_test_tmpdir(), &p, msg, sizeof msg);
        snprintf(what, sizeof what, "%s.wl", name);
        MUST(rc == FL_OK && p, "%s: does not fail (status %d)", what, rc);
        if (rc == FL_OK && p) shrink_and_judge(reg, &w, p, what);
        fl_workload_free(&w);
    }
    fl_registry_free(reg);
}

/* Runs shrink_mutant(name) in a child; returns its pid (0 if not forked). */
static pid_t start_mutant(const char *name) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        child_failures = 0;
        shrink_mutant(name);
        fflush(NULL);
        _exit(child_failures ? 1 : 0);
    }
    if (pid < 0) fl_test_fail(__FILE__, __LINE__, "%s: cannot fork", name);
    return pid > 0 ? pid : 0;
}

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

FL_TEST(shrink_mutant_failures_to_one_minimal) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/mutants", fl_test_srcdir());
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (!d) return;
    char *names[64];
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 64;) {
        size_t len = strlen(e->d_name);
        if (len > 3 && strcmp(e->d_name + len - 3, ".wl") == 0) names[n++] = strndup(e->d_name, len - 3);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    CHECK(n >= 10);
    fl_test_tmpdir();                     /* made once, shared by the children */
    /* two children at a time */
    pid_t running[2] = { 0, 0 };
    const char *who[2] = { NULL, NULL };
    for (size_t next = 0, done = 0; done < n;) {
        int slot = running[0] == 0 ? 0 : running[1] == 0 ? 1 : -1;
        if (slot >= 0 && next < n) {
            who[slot] = names[next];
            running[slot] = start_mutant(names[next++]);
            if (!running[slot]) done++;
            continue;
        }
        int status;
        pid_t pid = wait(&status);
        if (pid < 0 && errno == EINTR) continue;
        if (pid < 0) break;
        for (int k = 0; k < 2; k++) {
            if (running[k] != pid) continue;
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                fl_test_fail(__FILE__, __LINE__, "mutant %s: see above (status %d)", who[k], status);
            running[k] = 0;
            done++;
        }
    }
    for (size_t i = 0; i < n; i++) free(names[i]);
}

/* ---- The judge itself ------------------------------------------------------- */

static void parse(const char *text, fl_workload *w) {
    char err[512];
    if (fl_workload_parse(text, strlen(text), "test", w, err, sizeof err) != 0)
        fl_test_fail(__FILE__, __LINE__, "%s", err);
}

/* fl_check_minimal on text: its status, *minimal and the message. */
static int judge(const fl_registry *reg, const char *text, bool *minimal, char *what, size_t cap) {
    fl_workload w;
    parse(text, &w);
    int rc = judge_minimal(reg, &w, FL_P1, fl_test_tmpdir(), minimal, what, cap);
    fl_workload_free(&w);
    return rc;
}

FL_TEST(shrink_judge_sees_padding) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    if (!reg || !load_mutant(reg, "ignores_tombstones")) { fl_registry_free(reg); return; }
    bool minimal = false;
    char what[1024];
    /* a tombstone alone in an SST, which its filter leaves out */
    const char *head = "filterlab-workload 1\nopen policies=keyset memtable_bytes=1\n";
    char text[1024];
    snprintf(text, sizeof text, "%sdel k\nget k\n", head);
    CHECK_OK(judge(reg, text, &minimal, what, sizeof what));
    CHECK(minimal);
    /* a flush of an empty memtable */
    snprintf(text, sizeof text, "%sflush\ndel k\nget k\n", head);
    CHECK_OK(judge(reg, text, &minimal, what, sizeof what));
    CHECK(!minimal);
    CHECK_CONTAINS(what, "without op 2 (line 3: flush)");
    /* a reopen with the same options */
    snprintf(text, sizeof text, "%sdel k\nreopen memtable_bytes=1\nget k\n", head);
    CHECK_OK(judge(reg, text, &minimal, what, sizeof what));
    CHECK(!minimal);
    CHECK_CONTAINS(what, "it still violates P1");
    /* an option at its default */
    snprintf(text, sizeof text,
             "filterlab-workload 1\nopen policies=keyset memtable_bytes=1 block_bytes=4096\ndel k\nget k\n");
    CHECK_OK(judge(reg, text, &minimal, what, sizeof what));
    CHECK(!minimal);
    CHECK_CONTAINS(what, "without option block_bytes");
    /* a policy the failure does not need */
    snprintf(text, sizeof text,
             "filterlab-workload 1\n"
             "open policies=\"keyset;bloom(bits=10)\" memtable_bytes=1\ndel k\nget k\n");
    CHECK_OK(judge(reg, text, &minimal, what, sizeof what));
    CHECK(!minimal);
    CHECK_CONTAINS(what, "with policies=\"keyset\"");
    /* no failure at all: not the judge's to call minimal */
    snprintf(text, sizeof text, "%sput k v\nget k\n", head);
    CHECK_RC(judge(reg, text, &minimal, what, sizeof what), FL_ERR_INVALID);
    CHECK(!minimal);
    CHECK_CONTAINS(what, "does not violate P1");
    fl_registry_free(reg);
}

/* Padding of every kind goes, keys and values shrink consistently. */
FL_TEST(shrink_removes_padding_and_shortens_bytes) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    if (!reg || !load_mutant(reg, "ignores_tombstones")) { fl_registry_free(reg); return; }
    fl_workload w;
    parse("filterlab-workload 1\n"
          "open policies=\"keyset;bloom(bits=10,prefix=fixed:3)\" memtable_bytes=4096 l0_trigger=8"
          " block_bytes=512\n"
          "flush\nput user:0042 value-one\nput user:0099 other\nflush\nget user:0042 ctx=0102\n"
          "reopen memtable_bytes=4096\nscan_prefix user:\ncompact full\ndel user:0042\nflush\n"
          "get user:0099\nget user:0042\nscan user:0000 user:9999\n",
          &w);
    shrink(reg, &w, FL_P1, fl_test_tmpdir(), SHRINK_HANG_GUARD);
    bool minimal = false;
    char what[1024];
    CHECK_OK(judge_minimal(reg, &w, FL_P1, fl_test_tmpdir(), &minimal, what, sizeof what));
    CHECK(minimal);
    CHECK(w.count <= 5);
    /* keys and values as short as they go: the failure needs one key */
    for (size_t i = 0; i < w.count; i++) {
        const fl_op *op = &w.ops[i];
        if (op->kind >= FL_OP_PUT && op->kind <= FL_OP_SCAN) CHECK_EQ(op->a.len, 0);
        if (op->kind == FL_OP_PUT) CHECK_EQ(op->b.len, 0);
        CHECK(!op->has_ctx);
    }
    fl_workload_free(&w);
    fl_registry_free(reg);
}

/* A multiget whose one key matters loses the others, and 1-minimal means
 * no key of a multiget can go either. */
FL_TEST(shrink_multiget_to_the_key_that_fails) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    if (!reg || !load_mutant(reg, "ignores_tombstones")) { fl_registry_free(reg); return; }
    fl_workload w;
    parse("filterlab-workload 1\n"
          "open policies=\"keyset;bloom(bits=10,prefix=fixed:3)\" memtable_bytes=4096 l0_trigger=8\n"
          "put user:0042 value-one\nput user:0099 other\nflush\n"
          "del user:0042\nflush\n"
          "multiget user:0099 zz user:0042 user:0099 ctx=01\n",
          &w);
    int p = 0;
    char msg[1024] = "";
    CHECK_OK(run_once(reg, &w, fl_test_tmpdir(), &p, msg, sizeof msg));
    CHECK_EQ(p, FL_P1);
    shrink(reg, &w, FL_P1, fl_test_tmpdir(), SHRINK_HANG_GUARD);
    bool minimal = false;
    char what[1024];
    CHECK_OK(judge_minimal(reg, &w, FL_P1, fl_test_tmpdir(), &minimal, what, sizeof what));
    CHECK(minimal);
    size_t reads = 0;
    for (size_t i = 0; i < w.count; i++) {
        const fl_op *op = &w.ops[i];
        if (op->kind == FL_OP_MULTIGET) CHECK_EQ(op->count, 1);
        if (op->kind == FL_OP_MULTIGET || op->kind == FL_OP_GET) reads++;
    }
    CHECK_EQ(reads, 1);
    if (getenv("FL_TEST_SHOW")) fl_workload_print(&w, stdout);
    /* and the judge sees a key too many */
    fl_workload_free(&w);
    parse("filterlab-workload 1\nopen policies=keyset memtable_bytes=1\ndel \"\"\nmultiget zz \"\"\n", &w);
    CHECK_OK(judge_minimal(reg, &w, FL_P1, fl_test_tmpdir(), &minimal, what, sizeof what));
    CHECK(!minimal);
    CHECK_CONTAINS(what, "without key 1 of op 3 (line 4: multiget zz \"\") it still violates P1");
    fl_workload_free(&w);
    fl_registry_free(reg);
}

/* ---- P10: a crash stays a crash, an engine error the same error ------------- */

/* An engine error naming a file of the run's database is the same error
 * in every run, though each makes its database in a new temporary
 * directory; another file, or another error, is not. */
FL_TEST(shrink_p10_same_error_in_another_scratch_directory) {
    ck_outcome a = { .rc = FL_ERR_IO, .property = FL_P10 }, b = a;
    snprintf(a.msg, sizeof a.msg, "engine error: t:41: compact failed: open: /dev/shm/filterlab-check.vBtSEK/"
             "filterlab-db.YbPxS7/000004.sst: cannot open SST: No such file or directory (after the crash at "
             "file operation 107 (107 fsync-dir /dev/shm/filterlab-check.vBtSEK/filterlab-db.YbPxS7))");
    snprintf(b.msg, sizeof b.msg, "engine error: t:9: compact failed: open: /tmp/x/filterlab-check.Q2u9aa/"
             "filterlab-db.LTEIy7/000012.sst: cannot open SST: No such file or directory (after the crash at "
             "file operation 63 (63 fsync-dir /tmp/x/filterlab-check.Q2u9aa/filterlab-db.LTEIy7))");
    CHECK(ck_outcome_same(&a, &b));
    snprintf(b.msg, sizeof b.msg, "engine error: t:9: compact failed: open: /tmp/x/filterlab-check.Q2u9aa/"
             "filterlab-db.LTEIy7/MANIFEST: cannot open SST: No such file or directory (after the crash at "
             "file operation 63 (63 fsync-dir /tmp/x/filterlab-check.Q2u9aa/filterlab-db.LTEIy7))");
    CHECK(!ck_outcome_same(&a, &b));
    snprintf(b.msg, sizeof b.msg, "engine error: t:9: compact failed: open: /tmp/x/filterlab-check.Q2u9aa/"
             "filterlab-db.LTEIy7/000012.sst: corrupt footer block (after the crash at "
             "file operation 63 (63 fsync-dir /tmp/x/filterlab-check.Q2u9aa/filterlab-db.LTEIy7))");
    CHECK(!ck_outcome_same(&a, &b));
}

FL_TEST(shrink_keeps_p10_failures_what_they_are) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    if (!reg || !load_plugin(reg, "plugins", "p10_faults")) { fl_registry_free(reg); return; }
    const char *scratch = fl_test_tmpdir();
    int p;
    char msg[1024], what[1024];
    bool minimal = false;
    /* an engine error at open: removing x=2 from the spec would give
     * another engine error ("y is refused"), which must not pass for it */
    fl_workload w;
    parse("filterlab-workload 1\nopen policies=\"picky(x=2,y=1)\" memtable_bytes=100\nput k v\nget k\n", &w);
    shrink(reg, &w, FL_P10, scratch, SHRINK_HANG_GUARD);
    CHECK_RC(run_once(reg, &w, scratch, &p, msg, sizeof msg), FL_ERR_INVALID);
    CHECK_CONTAINS(msg, "x=2 is refused");
    CHECK_EQ(w.count, 1);
    CHECK_OK(judge_minimal(reg, &w, FL_P10, scratch, &minimal, what, sizeof what));
    CHECK(minimal);
    if (w.count == 1) CHECK_STR(w.ops[0].opts[0].value, "picky(x=2)");
    fl_workload_free(&w);
    /* a crash of the run */
    parse("filterlab-workload 1\nopen policies=\"crashy;bloom(bits=10)\"\nput a 1\nput xyz 2\nflush\n"
          "get a\ndel a\nflush\nget xyz\nget a\n",
          &w);
    shrink(reg, &w, FL_P10, scratch, SHRINK_HANG_GUARD);
    CHECK_OK(run_once(reg, &w, scratch, &p, msg, sizeof msg));
    CHECK_EQ(p, FL_P10);
    CHECK_CONTAINS(msg, "died with signal");
    CHECK(w.count <= 4);
    CHECK_OK(judge_minimal(reg, &w, FL_P10, scratch, &minimal, what, sizeof what));
    CHECK(minimal);
    if (!minimal || w.count > 4) fl_workload_print(&w, stderr);
    fl_workload_free(&w);
    fl_registry_free(reg);
}
