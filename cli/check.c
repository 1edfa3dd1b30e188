/*
 * check.c -- `filterlab check`: property-based runs for CI (SPEC section
 * 11).  Parses the options, loads plugins, validates the given specs, runs
 * the extractor lint, then random trials until --time or --trials; on a
 * violation prints the property, the message, the minimized workload and a
 * one-line replay command, and exits 1.
 */
#include "cli.h"
#include "../properties/check.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f) {
    fprintf(f,
        "usage: filterlab check [--time SEC | --trials N] [--seed S] [--trial T]\n"
        "                       [--plugin SO]... [--policy SPEC]... [--extractor SPEC]...\n"
        "                       [--out DIR] [--shard I/N] [--ops N] [--shrink-time SEC]\n"
        "\n"
        "Generates random trials (a configuration of policies, options and\n"
        "migrations, and a workload of some shape), deterministically from the\n"
        "seed, runs each with the engine and the model side by side, and checks\n"
        "every property.  The first failing trial is shrunk to a small workload\n"
        "that still fails the same property, written under --out.\n"
        "\n"
        "  --time SEC        stop after SEC seconds (default 60)\n"
        "  --trials N        stop after N trials\n"
        "  --seed S          the run's seed (default 1)\n"
        "  --trial T         run only trial T of the seed (to regenerate a failure)\n"
        "  --plugin SO       load a plugin first (repeatable)\n"
        "  --policy SPEC     build trials around this policy spec (repeatable)\n"
        "  --extractor SPEC  build blooms around this extractor spec (repeatable)\n"
        "  --out DIR         where minimized failures go (default properties/failures)\n"
        "  --shard I/N       run the I-th of N disjoint trial streams (0 <= I < N)\n"
        "  --ops N           ops per trial at most (default 1500)\n"
        "  --shrink-time SEC time budget of the shrinker (default 60)\n"
        "  -h, --help        this text\n"
        "\n"
        "Exit status: 0 no violation, 1 a property was violated, 2 bad usage or input.\n");
}

static int bad(const char *what, const char *arg) { return fl_cli_usage_error("check", usage, what, arg); }

int fl_cli_check(int argc, char **argv) {
    const char **plugins = calloc((size_t)argc + 1, sizeof *plugins);
    const char **policies = calloc((size_t)argc + 1, sizeof *policies);
    const char **extractors = calloc((size_t)argc + 1, sizeof *extractors);
    fl_run_config c = { .seed = 1, .only_trial = -1, .shards = 1, .out_dir = "properties/failures",
                        .max_ops = 1500, .shrink_seconds = 60, .log = stderr };
    fl_registry *reg = NULL;
    int status = FL_EXIT_USAGE;
    bool time_given = false;
    if (!plugins || !policies || !extractors) { fprintf(stderr, "filterlab check: out of memory\n"); goto out; }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t n;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); status = FL_EXIT_OK; goto out; }
        bool valued = !strcmp(a, "--time") || !strcmp(a, "--trials") || !strcmp(a, "--seed") ||
                      !strcmp(a, "--trial") || !strcmp(a, "--plugin") || !strcmp(a, "--policy") ||
                      !strcmp(a, "--extractor") || !strcmp(a, "--out") || !strcmp(a, "--shard") ||
                      !strcmp(a, "--ops") || !strcmp(a, "--shrink-time");
        if (!valued) { status = bad("unknown argument", a); goto out; }
        if (!v || !*v) { status = bad("missing value for", a); goto out; }
        i++;
        if (!strcmp(a, "--time")) {
            if (!fl_cli_parse_seconds(v, &c.seconds)) { status = bad("--time needs seconds, got", v); goto out; }
            time_given = true;
        } else if (!strcmp(a, "--trials")) {
            if (!fl_cli_parse_u64(v, &c.trials) || !c.trials) { status = bad("--trials needs a count, got", v); goto out; }
        } else if (!strcmp(a, "--seed")) {
            if (!fl_cli_parse_u64(v, &c.seed)) { status = bad("--seed needs a number, got", v); goto out; }
        } else if (!strcmp(a, "--trial")) {
            if (!fl_cli_parse_u64(v, &n) || n > INT64_MAX) { status = bad("--trial needs a number, got", v); goto out; }
            c.only_trial = (int64_t)n;
        } else if (!strcmp(a, "--plugin")) plugins[c.nplugins++] = v;
        else if (!strcmp(a, "--policy")) policies[c.npolicies++] = v;
        else if (!strcmp(a, "--extractor")) extractors[c.nextractors++] = v;
        else if (!strcmp(a, "--out")) c.out_dir = v;
        else if (!strcmp(a, "--ops")) {
            if (!fl_cli_parse_u64(v, &c.max_ops) || c.max_ops < 10) { status = bad("--ops needs a count >= 10, got", v); goto out; }
        } else if (!strcmp(a, "--shrink-time")) {
            if (!fl_cli_parse_seconds(v, &c.shrink_seconds)) { status = bad("--shrink-time needs seconds, got", v); goto out; }
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
    if (!time_given && !c.trials && c.only_trial < 0) c.seconds = 60;
    c.plugins = plugins;
    c.policies = policies;
    c.extractors = extractors;
    c.progress = isatty(STDERR_FILENO);

    char err[2048] = "";
    int rc = fl_registry_new(&reg);
    if (rc) { fprintf(stderr, "filterlab check: %s\n", fl_strerror(rc)); goto out; }
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
        p->ops->destroy(p);
    }
    /* the extractor lint, standalone (P7) */
    int lint_failures = 0;
    for (size_t i = 0; i < c.nextractors; i++) {
        char msg[1024];
        int n = fl_lint_extractor(reg, extractors[i], c.seed, 20000, msg, sizeof msg);
        if (n < 0) { fprintf(stderr, "filterlab check: --extractor %s\n", msg); goto out; }
        if (n > 0) {
            fprintf(stderr, "check: extractor lint: %d violation%s; the first:\n  %s\n", n,
                    n == 1 ? "" : "s", msg);
            lint_failures++;
        }
    }
    fl_run_result res;
    rc = fl_check_run(&c, &res, err, sizeof err);
    if (rc) { fprintf(stderr, "filterlab check: %s\n", err); goto out; }
    if (res.property) {
        fprintf(stderr, "check: P%d %s after %llu trial%s (seed %llu, trial %llu)\n  %s\n"
                        "  minimized from %zu to %zu ops: %s\n  replay: filterlab replay %s",
                res.property, fl_property_name(res.property), (unsigned long long)res.trials,
                res.trials == 1 ? "" : "s", (unsigned long long)c.seed, (unsigned long long)res.trial,
                res.message, res.original_ops, res.minimal_ops, res.path, res.path);
        for (size_t i = 0; i < c.nplugins; i++) fprintf(stderr, " --plugin %s", plugins[i]);
        fputc('\n', stderr);
        status = FL_EXIT_VIOLATION;
        goto out;
    }
    double el = res.elapsed > 0 ? res.elapsed : 1e-9;
    printf("check: %llu trials, %llu ops in %.1f s (%.1f trials/s, %.0f ops/s), seed %llu%s: %s\n",
           (unsigned long long)res.trials, (unsigned long long)res.ops, res.elapsed,
           (double)res.trials / el, (double)res.ops / el, (unsigned long long)c.seed,
           c.shards > 1 ? " (sharded)" : "", lint_failures ? "extractor lint failed" : "no violation");
    status = lint_failures ? FL_EXIT_VIOLATION : FL_EXIT_OK;
out:
    if (reg) fl_registry_free(reg);
    free(plugins);
    free(policies);
    free(extractors);
    return status;
}
