/*
 * replay.c -- `filterlab replay FILE.wl`: runs one workload against the
 * engine and reports its filter metrics (SPEC sections 9, 6 and 11).
 *
 * Order of work, each step all-or-nothing:
 *   1. plugins are loaded (they may add the kinds the workload names);
 *   2. the workload is parsed;
 *   3. pre-flight: every open/reopen option and policy list is checked, so a
 *      bad spec is reported as FILE:LINE and nothing is run;
 *   4. the ops run through the checker (properties/check.h), engine and
 *      model side by side, against a database in --db DIR or in a temporary
 *      directory that is removed afterwards, on every path out.
 * Exit 0 every property held, 1 a property was violated (each violation is
 * printed as "Pn name: line L op KEY: what"), 2 bad usage, bad input or an
 * engine error.
 */
#include "cli.h"
#include "../engine/filter_internal.h"
#include "../properties/check.h"

#include <errno.h>
#include <limits.h>
#include <ftw.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

_Static_assert(FL_WL_CTX_MAX == FL_FILTER_CONTEXT_BYTES, "workload ctx and filter context differ");

#define PROGRESS_MIN_OPS 100000     /* show progress above this many ops    */
#define MAX_SHOWN 100               /* violation lines printed at most      */

/* The state of one replay. */
typedef struct fl_replay {
    const char  *path;              /* the workload file, for messages      */
    fl_workload *wl;
    fl_registry *reg;
    bool         check;             /* false with --no-check                */
    FILE        *results;           /* NULL without --results               */
    char         dir[PATH_MAX];
    bool         dir_is_temp;       /* remove dir at the end                */
    fl_checker  *ck;
    const fl_op *op;                /* the op being run, NULL outside one   */
    uint64_t     contract_shown;
    fl_check_summary sum;
    bool         progress;          /* a progress line may be on stderr     */
    size_t       progress_width;
    double       start, progress_next;
} fl_replay;

/* Erases the progress line, if one is shown, before another message. */
static void progress_clear(fl_replay *r) {
    if (r->progress_width) fprintf(stderr, "\r%*s\r", (int)r->progress_width, "");
    r->progress_width = 0;
}

typedef struct replay_args {
    const char  *workload, *results, *db;
    const char **plugins;
    size_t       plugin_count;
    bool         json, no_check;
} replay_args;

static volatile sig_atomic_t interrupted;

static void usage(FILE *f) {
    fprintf(f,
        "usage: filterlab replay FILE.wl [--results FILE] [--json] [--db DIR]\n"
        "                        [--plugin SO]... [--no-check]\n"
        "\n"
        "Runs the workload FILE.wl (\"-\" reads stdin) against the engine, checks\n"
        "every filter probe, and prints a summary of the filter metrics.\n"
        "\n"
        "  --results FILE  write one line per read op to FILE (\"-\" = stdout)\n"
        "  --json          print the summary as one JSON object on stdout\n"
        "  --db DIR        use the database in DIR (created if missing, kept);\n"
        "                  default: a temporary directory, removed at the end\n"
        "  --plugin SO     load a filter policy / prefix extractor plugin first\n"
        "                  (repeatable)\n"
        "  --no-check      skip the consistency checks\n"
        "  -h, --help      this text\n"
        "\n"
        "Exit status: 0 every check held, 1 a check failed, 2 bad usage, bad\n"
        "input or an engine error.\n");
}

/* ---- Arguments --------------------------------------------------------- */

static int bad_usage(const char *fmt, const char *what) {
    fprintf(stderr, "filterlab replay: ");
    fprintf(stderr, fmt, what);
    fputc('\n', stderr);
    usage(stderr);
    return FL_EXIT_USAGE;
}

/* Matches "--name VALUE" or "--name=VALUE".  0 no match, 1 match, -1 the
 * value is missing. */
static int flag_value(int argc, char **argv, int *i, const char *name, const char **val) {
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0) return 0;
    if (argv[*i][n] == '=') { *val = argv[*i] + n + 1; return 1; }
    if (argv[*i][n] != '\0') return 0;
    if (*i + 1 >= argc) return -1;
    *val = argv[++*i];
    return 1;
}

/* -1: go on and run; otherwise the exit status. */
static int parse_args(int argc, char **argv, replay_args *a) {
    static const char *const valued[] = { "--results", "--db", "--plugin" };
    bool options_done = false;
    a->plugins = calloc((size_t)argc + 1, sizeof *a->plugins);
    if (!a->plugins) { fprintf(stderr, "filterlab replay: out of memory\n"); return FL_EXIT_USAGE; }
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i], *val = NULL;
        if (!options_done && s[0] == '-' && s[1] != '\0') {
            if (strcmp(s, "--") == 0) { options_done = true; continue; }
            if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
                usage(stdout);
                return FL_EXIT_OK;
            }
            if (strcmp(s, "--json") == 0) { a->json = true; continue; }
            if (strcmp(s, "--no-check") == 0) { a->no_check = true; continue; }
            int which = -1, m = 0;
            for (int k = 0; k < 3 && m == 0; k++)
                if ((m = flag_value(argc, argv, &i, valued[k], &val)) != 0) which = k;
            if (m < 0) return bad_usage("%s needs an argument", valued[which]);
            if (m == 0) return bad_usage("unknown option '%s'", s);
            if (which == 0) a->results = val;
            else if (which == 1) a->db = val;
            else a->plugins[a->plugin_count++] = val;
            if (*val == '\0') return bad_usage("%s needs a non-empty argument", valued[which]);
            continue;
        }
        if (a->workload) return bad_usage("unexpected argument '%s' (one workload at a time)", s);
        a->workload = s;
    }
    if (!a->workload) return bad_usage("%s", "missing the workload FILE.wl");
    return -1;
}

/* ---- Directories --------------------------------------------------------- */

static int mkdir_p(const char *path) {
    char buf[PATH_MAX];
    struct stat st;
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
    if (stat(buf, &st) != 0) return -1;
    if (!S_ISDIR(st.st_mode)) { errno = ENOTDIR; return -1; }
    return 0;
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb; (void)flag; (void)ftw;
    return remove(path);
}

static void remove_tree(const char *path) {
    if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
        fprintf(stderr, "filterlab replay: cannot remove %s: %s\n", path, strerror(errno));
}

static int make_db_dir(fl_replay *r, const char *db) {
    if (db) {
        if (snprintf(r->dir, sizeof r->dir, "%s", db) >= (int)sizeof r->dir) errno = ENAMETOOLONG;
        else if (mkdir_p(r->dir) == 0) return 0;
        fprintf(stderr, "filterlab replay: --db %s: %s\n", db, strerror(errno));
        return -1;
    }
    const char *base = getenv("TMPDIR");
    if (!base || !*base) base = "/tmp";
    snprintf(r->dir, sizeof r->dir, "%s/filterlab-replay.XXXXXX", base);
    if (!mkdtemp(r->dir)) {
        fprintf(stderr, "filterlab replay: cannot create a temporary directory in %s: %s\n",
                base, strerror(errno));
        return -1;
    }
    r->dir_is_temp = true;
    return 0;
}

/* ---- Messages and progress ----------------------------------------------- */

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void progress_tick(fl_replay *r, size_t done) {
    if (!r->progress || done % 64 != 0) return;
    double t = now_s();
    if (t < r->progress_next) return;
    r->progress_next = t + 0.5;
    int n = fprintf(stderr, "\rreplay: %zu/%zu ops (%.0f ops/s)", done, r->wl->count,
                    t > r->start ? (double)done / (t - r->start) : 0.0);
    if (n > 0 && (size_t)n > r->progress_width) r->progress_width = (size_t)n;
}

/* An engine call failed: "FILE:LINE: why".  Returns exit 2. */
static int engine_failed(fl_replay *r, const char *why) {
    progress_clear(r);
    if (r->op) fprintf(stderr, "%s:%u: %s failed: %s\n", r->path, r->op->line,
                       fl_op_name(r->op->kind), why);
    else fprintf(stderr, "%s: %s\n", r->path, why);
    return FL_EXIT_USAGE;
}

/* Plugin contract breaks reported by the engine's wrappers. */
static void on_contract_violation(void *arg, const char *who, const char *what) {
    fl_replay *r = arg;
    if (++r->contract_shown > MAX_SHOWN) return;
    progress_clear(r);
    if (r->op) fprintf(stderr, "%s:%u: ", r->path, r->op->line);
    else fprintf(stderr, "%s: ", r->path);
    fprintf(stderr, "contract violation by %s: %s\n", who ? who : "?", what ? what : "?");
}

static void on_violation(void *arg, int property, unsigned line, const char *msg) {
    (void)property; (void)line; (void)msg;
    progress_clear(arg);
}

/* Applies an open/reopen's options to opt; on error prints FILE:LINE. */
static int apply_options(const fl_replay *r, fl_options *opt, const fl_op *op) {
    char err[1024];
    for (size_t i = 0; i < op->opt_count; i++) {
        err[0] = '\0';
        if (fl_options_set(opt, op->opts[i].key, op->opts[i].value, err, sizeof err) != FL_OK) {
            fprintf(stderr, "%s:%u: %s\n", r->path, op->line,
                    *err ? err : "invalid option");
            return FL_EXIT_USAGE;
        }
    }
    return FL_OK;
}

static int check_policy_list(const fl_replay *r, const fl_op *op, const char *key, const char *spec) {
    char err[1024] = "";
    fl_policy_list list = { NULL, 0 };
    if (fl_policy_list_parse(r->reg, spec, &list, err, sizeof err) != FL_OK) {
        fprintf(stderr, "%s:%u: %s: %s\n", r->path, op->line, key,
                *err ? err : "invalid policy list");
        return FL_EXIT_USAGE;
    }
    fl_policy_list_free(&list);
    return FL_OK;
}

/* Checks every open/reopen before anything runs. */
static int preflight(fl_replay *r) {
    fl_options opt;
    int rc = FL_OK;
    fl_options_init(&opt);
    for (size_t i = 0; i < r->wl->count && rc == FL_OK; i++) {
        const fl_op *op = &r->wl->ops[i];
        if (op->kind != FL_OP_OPEN && op->kind != FL_OP_REOPEN) continue;
        rc = apply_options(r, &opt, op);
        if (rc == FL_OK && opt.policies) rc = check_policy_list(r, op, "policies", opt.policies);
        if (rc == FL_OK && opt.compactor) rc = check_policy_list(r, op, "compactor", opt.compactor);
    }
    fl_options_free(&opt);
    return rc;
}

static void on_signal(int sig) { interrupted = sig; }

static int run_ops(fl_replay *r) {
    const fl_workload *w = r->wl;
    fl_check_config cfg = {
        .reg = r->reg, .dir = r->dir, .path = r->path, .check = r->check,
        .results = r->results, .messages = stderr, .max_shown = MAX_SHOWN, .seed = 1,
        .on_violation = on_violation, .on_violation_arg = r,
    };
    int rc = fl_checker_new(&cfg, &r->ck);
    if (rc) return engine_failed(r, fl_strerror(rc));
    r->start = now_s();
    r->progress_next = r->start + 0.5;
    r->progress = w->count > PROGRESS_MIN_OPS && isatty(STDERR_FILENO);
    for (size_t i = 0; i < w->count; i++) {
        if (interrupted) {
            progress_clear(r);
            fprintf(stderr, "%s: interrupted after %zu of %zu ops\n", r->path, i, w->count);
            return 128 + interrupted;
        }
        r->op = &w->ops[i];
        if ((rc = fl_checker_run(r->ck, r->op)) != FL_OK) return engine_failed(r, fl_checker_errmsg(r->ck));
        if (r->results && ferror(r->results)) return engine_failed(r, "writing --results: write error");
        r->op = NULL;
        progress_tick(r, i + 1);
    }
    progress_clear(r);
    if ((rc = fl_checker_finish(r->ck, &r->sum)) != FL_OK) return engine_failed(r, fl_checker_errmsg(r->ck));
    return FL_OK;
}

/* ---- Output -------------------------------------------------------------- */

static void json_rate(FILE *f, double num, double den) {
    if (den > 0) fprintf(f, "%.9g", num / den);
    else fputs("null", f);
}

static void json_kind(FILE *f, const char *name, const fl_filter_counters *c) {
    fprintf(f, "\"%s\":{\"considered\":%" PRIu64 ",\"unfiltered\":%" PRIu64 ",\"positive\":%"
            PRIu64 ",\"negative\":%" PRIu64 ",\"false_positive\":%" PRIu64 ",\"fp_rate\":",
            name, c->considered, c->unfiltered, c->positive, c->negative, c->false_positive);
    json_rate(f, (double)c->false_positive, (double)(c->false_positive + c->negative));
    fputs(",\"expected_fp_rate\":", f);
    json_rate(f, c->expected_fp_sum, (double)c->expected_probes);
    fputc('}', f);
}

static void print_json(const fl_replay *r, double elapsed) {
    const fl_metrics *m = &r->sum.metrics;
    printf("{\"ops\":%zu,\"violations\":%" PRIu64 ",\"ssts\":%" PRIu64 ",\"filter_errors\":%" PRIu64
           ",\"contract_violations\":%" PRIu64 ",\"elapsed_s\":%.6f,", r->wl->count, r->sum.violations,
           r->sum.ssts, m->filter_errors, m->contract_violations, elapsed);
    json_kind(stdout, "point", &m->point);
    putchar(',');
    json_kind(stdout, "prefix", &m->prefix);
    printf(",\"sst_reads\":%" PRIu64 ",\"ssts_written\":%" PRIu64 ",\"flushes\":%" PRIu64
           ",\"compactions\":%" PRIu64 ",\"warnings\":%" PRIu64 ",", m->sst_reads,
           m->ssts_written, m->flushes, m->compactions, r->sum.warnings);
    for (int k = 0; k < 2; k++) {
        if (!r->sum.fp[k].probes) continue;
        printf("\"p9_%s\":{\"probes\":%" PRIu64 ",\"items\":%" PRIu64 ",\"measured\":%.9g,"
               "\"expected\":%.9g,\"sd\":%.9g,\"z\":%.6g},",
               k ? "prefix" : "point", r->sum.fp[k].probes, r->sum.fp[k].items,
               r->sum.fp[k].measured, r->sum.fp[k].expected, r->sum.fp[k].sd, r->sum.fp[k].z);
    }
    printf("\"properties\":{");
    bool first = true;
    for (int p = 1; p < FL_PROPERTY_COUNT; p++) {
        if (!r->sum.by_property[p]) continue;
        printf("%s\"P%d\":%" PRIu64, first ? "" : ",", p, r->sum.by_property[p]);
        first = false;
    }
    printf("}}\n");
}

static void human_rate(double num, double den) {
    if (den > 0) printf("%.4f%%", 100.0 * num / den);
    else fputs("n/a", stdout);
}

static void print_summary(const fl_replay *r, double elapsed) {
    const fl_metrics *m = &r->sum.metrics;
    printf("%s: %zu ops in %.3f s, live SSTs %" PRIu64 ", violations %" PRIu64 "%s\n", r->path,
           r->wl->count, elapsed, r->sum.ssts, r->sum.violations, r->check ? "" : " (checks off)");
    for (int k = 0; k < 2; k++) {
        const fl_filter_counters *c = k ? &m->prefix : &m->point;
        printf("  %-6s considered %" PRIu64 ", unfiltered %" PRIu64 ", positive %" PRIu64
               ", negative %" PRIu64 ", false positive %" PRIu64 "; fp rate ",
               k ? "prefix" : "point", c->considered, c->unfiltered, c->positive, c->negative,
               c->false_positive);
        human_rate((double)c->false_positive, (double)(c->false_positive + c->negative));
        fputs(" (expected ", stdout);
        human_rate(c->expected_fp_sum, (double)c->expected_probes);
        fputs(")\n", stdout);
    }
    printf("  filter errors %" PRIu64 ", contract violations %" PRIu64 ", SST reads %" PRIu64
           ", SSTs written %" PRIu64 "\n", m->filter_errors, m->contract_violations, m->sst_reads,
           m->ssts_written);
}

/* ---- The command ---------------------------------------------------------- */

static int replay_run(fl_replay *r, const replay_args *a) {
    char err[2048] = "";
    int rc;
    if ((rc = fl_registry_new(&r->reg)) != FL_OK) {
        fprintf(stderr, "filterlab replay: cannot create the registry: %s\n", fl_strerror(rc));
        return FL_EXIT_USAGE;
    }
    for (size_t i = 0; i < a->plugin_count; i++) {
        err[0] = '\0';
        if ((rc = fl_registry_load_plugin(r->reg, a->plugins[i], err, sizeof err)) != FL_OK) {
            fprintf(stderr, "filterlab replay: --plugin %s: %s\n", a->plugins[i],
                    *err ? err : fl_strerror(rc));
            return FL_EXIT_USAGE;
        }
    }
    err[0] = '\0';
    if (fl_workload_load(a->workload, r->wl, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", *err ? err : "filterlab replay: cannot load the workload");
        return FL_EXIT_USAGE;
    }
    if (preflight(r) != FL_OK) return FL_EXIT_USAGE;
    if (make_db_dir(r, a->db) != 0) return FL_EXIT_USAGE;
    if (a->results) {
        r->results = strcmp(a->results, "-") == 0 ? stdout : fopen(a->results, "w");
        if (!r->results) {
            fprintf(stderr, "filterlab replay: --results %s: %s\n", a->results, strerror(errno));
            return FL_EXIT_USAGE;
        }
    }

    rc = run_ops(r);
    if (rc != FL_OK) return rc;

    double elapsed = now_s() - r->start;

    if (r->results && r->results != stdout) {
        FILE *f = r->results;
        r->results = NULL;
        if (ferror(f) | fclose(f)) {
            fprintf(stderr, "filterlab replay: --results %s: write error\n", a->results);
            return FL_EXIT_USAGE;
        }
    }
    if (a->json) print_json(r, elapsed);
    else print_summary(r, elapsed);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "filterlab replay: write error on stdout\n");
        return FL_EXIT_USAGE;
    }
    if (r->sum.violations) {
        fprintf(stderr, "%s: %" PRIu64 " violation%s; replay: filterlab replay %s\n", r->path,
                r->sum.violations, r->sum.violations == 1 ? "" : "s", r->path);
        return FL_EXIT_VIOLATION;
    }
    return FL_EXIT_OK;
}

int fl_cli_replay(int argc, char **argv) {
    replay_args args;
    memset(&args, 0, sizeof args);
    int status = parse_args(argc, argv, &args);
    if (status >= 0) { free(args.plugins); return status; }

    fl_workload w;
    fl_replay r;
    memset(&w, 0, sizeof w);
    memset(&r, 0, sizeof r);
    r.path = args.workload;
    r.wl = &w;
    r.check = !args.no_check;
    fl_set_violation_handler(on_contract_violation, &r);

    /* INT, TERM, HUP stop the replay between ops, so the temporary database
     * is still removed; PIPE is ignored so a closed output pipe is a write
     * error (reported, cleaned up) rather than a silent death. */
    static const int sigs[4] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
    struct sigaction sa, old[4];
    memset(&sa, 0, sizeof sa);
    sa.sa_flags = SA_RESTART;               /* a signal must not fail an engine call */
    for (int i = 0; i < 4; i++) {
        sa.sa_handler = sigs[i] == SIGPIPE ? SIG_IGN : on_signal;
        sigaction(sigs[i], &sa, &old[i]);
    }

    status = replay_run(&r, &args);

    fl_checker_free(r.ck);                  /* closes the db on error paths */
    if (r.results && r.results != stdout) fclose(r.results);
    if (r.dir_is_temp) remove_tree(r.dir);
    fl_set_violation_handler(NULL, NULL);
    /* PIPE stays ignored: the exit-time flush of a closed stdout must not
     * turn a reported write error into a death by signal. */
    for (int i = 0; i < 3; i++) sigaction(sigs[i], &old[i], NULL);
    fl_workload_free(&w);
    if (r.reg) fl_registry_free(r.reg);
    free(args.plugins);
    return status;
}
