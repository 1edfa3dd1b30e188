/*
 * check.c -- `filterlab check`: property-based runs for CI (SPEC section
 * 11).  Parses the options, loads plugins, validates the given specs, runs
 * the extractor lint, then random trials until --time or --trials; on a
 * violation prints the property, the message, the minimized workload and a
 * one-line replay command, and exits 1.
 */
#include "cli.h"
#include "../adapters/adapters.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_CALL_TIMEOUT 10.0   /* seconds */

static void usage(FILE *f) {
    fprintf(f,
        "usage: filterlab check [--time SEC | --trials N] [--seed S] [--trial T]\n"
        "                       [--plugin SO]... [--policy SPEC]... [--extractor SPEC]...\n"
        "                       [--out DIR] [--shard I/N] [--ops N] [--shrink-time SEC]\n"
        "                       [--call-timeout SEC] [--engine NAME] [--known FILE [--avoid-known]]\n"
        "                       [--junit FILE] [--env posix|memory] [--crash] [--jobs N]\n"
        "       filterlab check --trial T [--seed S] [...] --print\n"
        "\n"
        "Generates random trials (a configuration of policies, options and\n"
        "migrations, and a workload of some shape), deterministically from the\n"
        "seed, runs each with the engine and the model side by side, and checks\n"
        "every property.  The first failing trial is shrunk to a small workload\n"
        "that still fails the same property, written under --out.\n"
        "\n"
        "  --time SEC          stop after SEC seconds (default 60), shrinking\n"
        "                      included; a call still running then gets until\n"
        "                      --call-timeout to return (or is a hang: a finding)\n"
        "  --trials N          stop after N trials\n"
        "  --seed S            the run's seed (default 1)\n"
        "  --trial T           run only trial T of the seed (to regenerate a failure)\n"
        "  --plugin SO         load a plugin first (repeatable)\n"
        "  --policy SPEC       build trials around this policy spec (repeatable)\n"
        "  --extractor SPEC    build blooms around this extractor spec (repeatable);\n"
        "                      its contract lint runs first (on filterlab's\n"
        "                      engine, whatever --engine is)\n"
        "  --out DIR           where minimized failures go (default properties/failures)\n"
        "  --shard I/N         run the I-th of N disjoint trial streams (0 <= I < N)\n"
        "  --ops N             ops per trial at most (default 1500)\n"
        "  --shrink-time SEC   time budget of the shrinker, per finding (default 60);\n"
        "                      its own, apart from --time: a finding made just\n"
        "                      before --time's limit is still shrunk\n"
        "  --call-timeout SEC  a call into a plugin or into the engine under test\n"
        "                      that does not return within SEC seconds is a\n"
        "                      finding (P10), even one still running at --time's\n"
        "                      limit (the run waits for it); default 10\n"
        "  --engine NAME       the engine under test (default filterlab)\n"
        "  --known FILE        known upstream bugs of the engine: a finding that\n"
        "                      matches one (once shrunk to the end) is reported as\n"
        "                      that bug, citing its fix, and the run goes on; a\n"
        "                      bug whose message alone identifies it is shrunk\n"
        "                      only the first time\n"
        "  --avoid-known       with --known: once a known bug is found, later\n"
        "                      trials whose workload holds its signature (its\n"
        "                      options and ops) are skipped, so the hunt goes past it\n"
        "  --junit FILE        also write JUnit XML for CI: one test case per\n"
        "                      property (failed with the finding, its seed, trial\n"
        "                      and replay line) and one per known bug found (skipped)\n"
        "  --env NAME          where filterlab's trial databases keep their files:\n"
        "                      memory (default: no disk) or posix (a directory)\n"
        "  --crash             give every trial `crash` ops (the process dies, the\n"
        "                      power goes, the database reopens); by default every\n"
        "                      eighth trial has them (filterlab's engine)\n"
        "  --jobs N            trials run at once, each in a worker process (default:\n"
        "                      one per CPU); the run counts the same trials and\n"
        "                      stops at the same first finding as --jobs 1\n"
        "  --print             with --trial T: write the trial's workload to stdout\n"
        "                      instead of running it\n"
        "  -h, --help          this text\n"
        "\n"
        "A broken plugin contract, a crash and a hang are findings like any\n"
        "property violation.  SIGINT and SIGTERM stop the run within a second,\n"
        "remove its scratch files and report the trials run so far.\n"
        "\n"
        "Exit status: 0 no violation (known upstream bugs only, with --known), 1 a\n"
        "property was violated, 2 bad usage or input, 128+N stopped by signal N.\n");
}

static int bad(const char *what, const char *arg) { return fl_cli_bad_usage("check", usage, "%s %s", what, arg); }

static void ignore_violation(void *arg, const fl_contract_violation *v) { (void)arg; (void)v; }

/* Whether a finding matched a hazard entry of known. */
static bool hazards_found(const fl_known *known, const fl_run_result *res) {
    for (size_t i = 0; i < fl_known_count(known); i++)
        if (res->known_by_bug[i] && fl_known_get(known, i)->hazard) return true;
    return false;
}

/* One line per known bug found: its id, count, fix and first workload. */
static void print_known(FILE *f, const fl_known *known, const fl_run_result *res) {
    for (size_t i = 0; i < fl_known_count(known); i++) {
        const fl_known_bug *b = fl_known_get(known, i);
        if (!res->known_by_bug[i]) continue;
        fprintf(f, "  %s %s: %llu finding%s (%s: %s); first: %s\n", fl_known_class(b), b->id,
                (unsigned long long)res->known_by_bug[i], res->known_by_bug[i] == 1 ? "" : "s",
                b->hazard ? "why" : "fixed upstream", b->fix, res->known_path[i]);
    }
}

/* "filterlab replay FILE FLAGS": the command that replays the finding. */
static void replay_line(const fl_run_config *c, const fl_run_result *res, char *out, size_t cap) {
    snprintf(out, cap, "filterlab replay");
    fl_shell_append_word(out, cap, res->path);
    size_t used = strlen(out);
    if (c->replay_flags && *c->replay_flags) snprintf(out + used, cap - used, " %s", c->replay_flags);
    used = strlen(out);
    double timeout = fl_run_replay_call_timeout(c, res);
    if (timeout > 0) snprintf(out + used, cap - used, " --call-timeout %g", timeout);
}

/* --junit: a case per property P1-P11 (the finding's failed, with its seed,
 * trial, minimized workload and replay line) and a skipped case per known
 * bug found.  Returns status, or 2 if the file cannot be written. */
static int write_junit(const char *path, const fl_run_config *c, const fl_known *known,
                       const fl_run_result *res, const char *replay, int status) {
    if (!path) return status;
    enum { MAXC = FL_PROPERTY_COUNT + FL_KNOWN_MAX };
    static fl_junit_case cases[MAXC];
    static char names[MAXC][160], details[MAXC][9000];
    size_t n = 0;
    for (int p = FL_P1; p < FL_PROPERTY_COUNT; p++, n++) {
        snprintf(names[n], sizeof names[n], "P%d %s", p, fl_property_name(p));
        cases[n] = (fl_junit_case){ .classname = "filterlab.check", .name = names[n],
                                    .time = p == FL_P1 ? res->elapsed : 0 };
        if (res->property != p) continue;
        char what[64];
        if (res->trial == UINT64_MAX) snprintf(what, sizeof what, "the extractor lint");
        else snprintf(what, sizeof what, "trial %llu", (unsigned long long)res->trial);
        snprintf(details[n], sizeof details[n], "%s\nseed %llu, %s, after %llu trials; minimized from %zu "
                 "to %zu ops%s: %s\nreplay: %s", res->message, (unsigned long long)c->seed, what,
                 (unsigned long long)res->trials, res->original_ops, res->minimal_ops,
                 res->shrink_cut ? " (shrinking did not finish, so it may not be 1-minimal)" : "", res->path, replay);
        cases[n].failure = res->message;
        cases[n].type = names[n];
        cases[n].details = details[n];
    }
    for (size_t i = 0; i < fl_known_count(known) && n < MAXC; i++) {
        if (!res->known_by_bug[i]) continue;
        const fl_known_bug *b = fl_known_get(known, i);
        snprintf(names[n], sizeof names[n], "%s %s", fl_known_class(b), b->id);
        snprintf(details[n], sizeof details[n], "%llu finding(s) of a %s, %s: %s; "
                 "first: %s", (unsigned long long)res->known_by_bug[i], b->hazard ? "hazard" : "known upstream bug",
                 b->hazard ? "why" : "fixed upstream", b->fix, res->known_path[i]);
        cases[n] = (fl_junit_case){ .classname = "filterlab.check.known", .name = names[n],
                                    .skipped = true, .details = details[n] };
        n++;
    }
    char suite[128];
    snprintf(suite, sizeof suite, "filterlab check (seed %llu)", (unsigned long long)c->seed);
    int rc = fl_cli_junit_write("check", path, false, NULL, 0, suite, cases, n);
    return rc ? rc : status;
}

int fl_cli_check(int argc, char **argv) {
    static const char *const valued[] = {
        "--time", "--trials", "--seed", "--trial", "--plugin", "--policy", "--extractor", "--out",
        "--shard", "--ops", "--shrink-time", "--call-timeout", "--engine", "--known", "--junit",
        "--env", "--jobs",
    };
    const char **plugins = calloc((size_t)argc + 1, sizeof *plugins);
    const char **policies = calloc((size_t)argc + 1, sizeof *policies);
    const char **extractors = calloc((size_t)argc + 1, sizeof *extractors);
    fl_run_config c = { .seed = 1, .only_trial = -1, .shards = 1, .out_dir = "properties/failures",
                        .max_ops = 1500, .shrink_seconds = 60, .log = stderr,
                        .call_timeout = DEFAULT_CALL_TIMEOUT, .interrupt = &fl_cli_stop };
    const char *engine_name = NULL, *known_path = NULL, *junit_path = NULL;
    fl_known *known = NULL;
    bool print_trial = false;
    fl_registry *reg = NULL;
    fl_calls *calls = NULL;
    int status = FL_EXIT_USAGE;
    bool time_given = false;
    static char replay_flags[8192], trial_flags[8192];
    replay_flags[0] = trial_flags[0] = 0;
    if (!plugins || !policies || !extractors) { fprintf(stderr, "filterlab check: out of memory\n"); goto out; }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        uint64_t n;
        size_t which = 0;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); status = FL_EXIT_OK; goto out; }
        if (!strcmp(a, "--print")) { print_trial = true; continue; }
        if (!strcmp(a, "--avoid-known")) { c.avoid_known = true; continue; }
        if (!strcmp(a, "--crash")) {
            c.crash = true;
            fl_shell_append_word(trial_flags, sizeof trial_flags, "--crash");
            continue;
        }
        int m = fl_cli_flag(argc, argv, &i, valued, sizeof valued / sizeof *valued, &which, &v);
        if (m == 0) { status = bad("unknown argument", a); goto out; }
        if (m < 0 || !*v) { status = bad("missing value for", valued[which]); goto out; }
        const char *name = valued[which];
        if (!strcmp(name, "--time")) {
            if (!fl_cli_parse_seconds(v, &c.seconds)) { status = bad("--time needs seconds, got", v); goto out; }
            time_given = true;
        } else if (!strcmp(name, "--trials")) {
            if (!fl_cli_parse_u64(v, &c.trials) || !c.trials) { status = bad("--trials needs a count, got", v); goto out; }
        } else if (!strcmp(name, "--seed")) {
            if (!fl_cli_parse_u64(v, &c.seed)) { status = bad("--seed needs a number, got", v); goto out; }
        } else if (!strcmp(name, "--trial")) {
            if (!fl_cli_parse_u64(v, &n) || n > INT64_MAX) { status = bad("--trial needs a number, got", v); goto out; }
            c.only_trial = (int64_t)n;
        } else if (!strcmp(name, "--plugin")) {
            plugins[c.nplugins++] = v;
            fl_shell_append_flag(replay_flags, sizeof replay_flags, name, v);
            fl_shell_append_flag(trial_flags, sizeof trial_flags, name, v);
        } else if (!strcmp(name, "--policy")) {
            policies[c.npolicies++] = v;
            fl_shell_append_flag(trial_flags, sizeof trial_flags, name, v);
        } else if (!strcmp(name, "--extractor")) {
            extractors[c.nextractors++] = v;
            fl_shell_append_flag(trial_flags, sizeof trial_flags, name, v);
        } else if (!strcmp(name, "--out")) c.out_dir = v;
        else if (!strcmp(name, "--ops")) {
            if (!fl_cli_parse_u64(v, &c.max_ops) || c.max_ops < 10) { status = bad("--ops needs a count >= 10, got", v); goto out; }
            fl_shell_append_flag(trial_flags, sizeof trial_flags, name, v);
        } else if (!strcmp(name, "--shrink-time")) {
            if (!fl_cli_parse_seconds(v, &c.shrink_seconds)) { status = bad("--shrink-time needs seconds, got", v); goto out; }
        } else if (!strcmp(name, "--call-timeout")) {
            if (!fl_cli_parse_seconds(v, &c.call_timeout)) { status = bad("--call-timeout needs seconds, got", v); goto out; }
            c.replay_call_timeout = c.call_timeout == DEFAULT_CALL_TIMEOUT ? 0 : c.call_timeout;
            fl_shell_append_flag(trial_flags, sizeof trial_flags, name, v);
        } else if (!strcmp(name, "--known")) {
            known_path = v;
        } else if (!strcmp(name, "--junit")) {
            junit_path = v;
        } else if (!strcmp(name, "--env")) {
            if (strcmp(v, "posix") != 0 && strcmp(v, "memory") != 0) {
                status = bad("--env needs posix or memory, got", v);
                goto out;
            }
            c.on_disk = strcmp(v, "posix") == 0;
        } else if (!strcmp(name, "--jobs")) {
            if (!fl_cli_parse_u64(v, &n) || n < 1 || n > 64) { status = bad("--jobs needs a count from 1 to 64, got", v); goto out; }
            c.jobs = (unsigned)n;
        } else if (!strcmp(name, "--engine")) {
            engine_name = v;
            fl_shell_append_flag(replay_flags, sizeof replay_flags, name, v);
            fl_shell_append_flag(trial_flags, sizeof trial_flags, name, v);
        } else {                                              /* --shard I/N */
            unsigned si, sn;
            char tail;
            if (sscanf(v, "%u/%u%c", &si, &sn, &tail) != 2 || sn == 0 || si >= sn) {
                status = bad("--shard needs I/N with 0 <= I < N, got", v);
                goto out;
            }
            c.shard = si;
            c.shards = sn;
        }
    }
    if (print_trial && c.only_trial < 0) { status = bad("--print needs", "--trial T"); goto out; }
    if (!time_given && !c.trials && c.only_trial < 0) c.seconds = 60;
    c.plugins = plugins;
    c.policies = policies;
    c.extractors = extractors;
    c.progress = isatty(STDERR_FILENO);
    c.replay_flags = replay_flags[0] ? replay_flags : NULL;
    c.trial_flags = trial_flags[0] ? trial_flags : NULL;
    if (engine_name && !(c.engine = fl_engine_find(engine_name))) {
        char names[256];
        fl_engine_names(names, sizeof names);
        fprintf(stderr, "filterlab check: --engine %s: unknown engine; the engines are: %s\n",
                engine_name, names);
        goto out;
    }

    char err[4096] = "";
    int rc = fl_registry_new(&reg);
    if (!rc) rc = fl_calls_new(reg, &calls);
    if (rc) { fprintf(stderr, "filterlab check: %s\n", fl_strerror(rc)); goto out; }
    fl_calls_set_sink(calls, ignore_violation, NULL);       /* the trials find those */
    for (size_t i = 0; i < c.nplugins; i++)
        if (fl_registry_load_plugin(reg, plugins[i], err, sizeof err) != FL_OK) {
            fprintf(stderr, "filterlab check: --plugin %s: %s\n", plugins[i], err);
            goto out;
        }
    c.reg = reg;
    /* the given specs must make objects, or nothing runs */
    for (size_t i = 0; i < c.npolicies; i++) {
        fl_filter_policy *p;
        if (fl_registry_make_policy(reg, policies[i], &p, err, sizeof err) != FL_OK) {
            fprintf(stderr, "filterlab check: --policy %s\n", err);
            goto out;
        }
        fl_call_policy_destroy(calls, p);
    }
    for (size_t i = 0; i < c.nextractors; i++) {
        fl_prefix_extractor *x;
        if (fl_registry_make_extractor(reg, extractors[i], &x, err, sizeof err) != FL_OK) {
            fprintf(stderr, "filterlab check: --extractor %s\n", err);
            goto out;
        }
        fl_call_extractor_destroy(calls, x);
    }
    if (known_path && fl_known_load(known_path, &known, err, sizeof err) != FL_OK) {
        fprintf(stderr, "filterlab check: --known %s\n", err);
        goto out;
    }
    c.known = known;
    if (c.avoid_known && !known) {
        fprintf(stderr, "filterlab check: --avoid-known needs --known FILE (the bugs to steer away from)\n");
        goto out;
    }
    if (print_trial) {
        fl_workload w;
        if (fl_check_trial(&c, (uint64_t)c.only_trial, &w, err, sizeof err) != FL_OK) {
            fprintf(stderr, "filterlab check: trial %lld: %s\n", (long long)c.only_trial, err);
            goto out;
        }
        int wrc = fl_workload_print(&w, stdout);
        fl_workload_free(&w);
        if (wrc != 0 || fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "filterlab check: write error on stdout\n");
            goto out;
        }
        status = FL_EXIT_OK;
        goto out;
    }
    fl_cli_catch_stops();
    double start = fl_now();
    if (c.seconds > 0) c.deadline = start + c.seconds;
    fl_run_result res;
    rc = fl_check_run(&c, &res, err, sizeof err);
    if (rc) { fprintf(stderr, "filterlab check: %s\n", err); goto out; }
    if (res.property) {
        char what[64];
        if (res.trial == UINT64_MAX) snprintf(what, sizeof what, "the extractor lint");
        else snprintf(what, sizeof what, "trial %llu", (unsigned long long)res.trial);
        fprintf(stderr, "check: P%d %s after %llu trial%s (seed %llu, %s)\n  %s\n"
                        "  minimized from %zu to %zu ops%s: %s\n  replay: filterlab replay",
                res.property, fl_property_name(res.property), (unsigned long long)res.trials,
                res.trials == 1 ? "" : "s", (unsigned long long)c.seed, what, res.message,
                res.original_ops, res.minimal_ops,
                res.shrink_cut ? " (shrinking did not finish, so it may not be 1-minimal)" : "", res.path);
        char line[8192] = "";
        replay_line(&c, &res, line, sizeof line);
        fprintf(stderr, " %s\n", line + strlen("filterlab replay "));
        if (res.shrink_cut && res.trial != UINT64_MAX) {
            /* the same trial again, with ten times the budget (10 minutes at least) */
            char again[9000] = "";
            if (known_path) fl_shell_append_flag(again, sizeof again, "--known", known_path);
            fprintf(stderr, "  to shrink it to the end: filterlab check --seed %llu --trial %llu%s%s "
                            "--shrink-time %.0f%s%s\n",
                    (unsigned long long)c.seed, (unsigned long long)res.trial, c.trial_flags ? " " : "",
                    c.trial_flags ? c.trial_flags : "", c.shrink_seconds * 10 > 600 ? c.shrink_seconds * 10 : 600,
                    again[0] ? " " : "", again);
        }
        if (res.known_findings) {
            fprintf(stderr, "  before it, %llu finding%s of known upstream bugs%s:\n",
                    (unsigned long long)res.known_findings, res.known_findings == 1 ? "" : "s",
                    hazards_found(known, &res) ? " or hazards" : "");
            print_known(stderr, known, &res);
        }
        status = write_junit(junit_path, &c, known, &res, line, FL_EXIT_VIOLATION);
        goto out;
    }
    double el = res.elapsed > 0 ? res.elapsed : 1e-9;
    char tail[1024] = "";
    size_t used = 0;
    for (size_t i = 0; i < fl_known_count(known) && used < sizeof tail; i++)
        if (res.known_by_bug[i])
            used += (size_t)snprintf(tail + used, sizeof tail - used, "%s%s x%llu", used ? ", " : "",
                                     fl_known_get(known, i)->id, (unsigned long long)res.known_by_bug[i]);
    printf("check: %llu trials, %llu ops in %.1f s (%.1f trials/s, %.0f ops/s), seed %llu%s: %s",
           (unsigned long long)res.trials, (unsigned long long)res.ops, res.elapsed,
           (double)res.trials / el, (double)res.ops / el, (unsigned long long)c.seed,
           c.shards > 1 ? " (sharded)" : "",
           res.interrupted ? "interrupted, no violation so far"
           : res.trials == 0 ? "no trial finished in the time given, so nothing was checked"
                             : "no violation");
    if (res.known_findings)
        printf(" but %llu finding%s of known upstream bugs%s (%s)", (unsigned long long)res.known_findings,
               res.known_findings == 1 ? "" : "s", hazards_found(known, &res) ? " or hazards" : "", tail);
    if (res.avoided)
        printf("; %llu trial%s skipped for holding a known bug found before (--avoid-known)",
               (unsigned long long)res.avoided, res.avoided == 1 ? "" : "s");
    putchar('\n');
    print_known(stdout, known, &res);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "filterlab check: write error on stdout\n");
        goto out;
    }
    status = write_junit(junit_path, &c, known, &res, "", res.interrupted ? 128 + (int)fl_cli_stop : FL_EXIT_OK);
out:
    fl_known_free(known);
    fl_calls_free(calls);
    if (reg) fl_registry_free(reg);
    free(plugins);
    free(policies);
    free(extractors);
    return status;
}
