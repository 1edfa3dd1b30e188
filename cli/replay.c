/*
 * replay.c -- `filterlab replay FILE.wl`: runs one workload against the
 * engine and reports its filter metrics (SPEC sections 9, 6 and 11).
 *
 * Order of work, each step all-or-nothing:
 *   1. plugins are loaded (they may add the kinds the workload names);
 *   2. the workload is parsed;
 *   3. pre-flight: every open/reopen option and policy list is checked, so a
 *      bad spec is reported as FILE:LINE and nothing is run;
 *   4. the ops run through the runner (properties/check.h), engine and
 *      model side by side, against a database in --db DIR or in a temporary
 *      directory that is removed afterwards, on every path out -- a plugin
 *      call that hangs (--call-timeout) and a stop signal included.
 * Exit 0 every property held, 1 a property was violated (each violation is
 * printed as "Pn name: line L op KEY: what"), 2 bad usage, bad input or an
 * engine error, 128 + N stopped by signal N.
 */
#include "cli.h"
#include "../adapters/adapters.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

_Static_assert(FL_WL_CTX_MAX == FL_FILTER_CONTEXT_BYTES, "workload ctx and filter context differ");

#define PROGRESS_MIN_OPS 100000     /* show progress above this many ops    */
#define MAX_SHOWN 100               /* violation lines printed at most      */
#define DEFAULT_CALL_TIMEOUT 10.0   /* seconds                              */

typedef struct replay_args {
    const char  *workload, *results, *db, *engine, *junit;
    const char **plugins;
    size_t       plugin_count;
    const char  *known;             /* --known FILE, or NULL                */
    bool         json, no_check, force, read_only, new_db;
    double       call_timeout;
} replay_args;

/* The state of one replay. */
typedef struct fl_replay {
    const replay_args *a;
    const char  *path;              /* the workload file, for messages      */
    fl_workload *wl;                /* the whole workload, or (streamed) none */
    size_t       total;             /* its ops                              */
    bool         crashes;           /* it has crash ops                     */
    fl_wl_stream *stream;           /* a regular file: read in chunks       */
    fl_registry *reg;
    FILE        *results;           /* NULL without --results               */
    fl_cli_out   results_out;       /* where they go (output.c)              */
    char         repro[8192];       /* the command that replays it          */
    bool         progress;          /* a progress line may be on stderr     */
    size_t       progress_width;
    double       start, progress_next;
    fl_known    *known;             /* --known's list, or NULL              */
} fl_replay;

static void usage(FILE *f) {
    fprintf(f,
        "usage: filterlab replay FILE.wl [--results FILE [--force]] [--json] [--db DIR]\n"
        "                        [--plugin SO]... [--no-check] [--call-timeout SEC]\n"
        "                        [--engine NAME] [--junit FILE] [--read-only]\n"
        "                        [--new-db] [--known FILE]\n"
        "\n"
        "Runs the workload FILE.wl (\"-\" reads stdin) against the engine, checks\n"
        "every filter probe, and prints a summary of the filter metrics.\n"
        "\n"
        "  --results FILE      write one line per read op to FILE (\"-\" = stdout);\n"
        "                      written whole when the run goes through every op,\n"
        "                      else not at all (FILE stays as it was)\n"
        "  --force             --results may write to a device, FIFO or symbolic\n"
        "                      link (in place); never over the workload\n"
        "  --json              print the summary as one JSON object on stdout\n"
        "                      (then --results needs a file, not -)\n"
        "  --db DIR            use the database in DIR (created if missing, kept);\n"
        "                      default: a temporary directory, removed at the end\n"
        "                      (never synced)\n"
        "  --read-only         with --db: open it for reads only (the workload's\n"
        "                      writes, flushes and compactions are errors) and\n"
        "                      never write to it; a directory filterlab cannot\n"
        "                      write is opened so anyway\n"
        "  --new-db            with --db: make a new database in DIR even when it\n"
        "                      holds SST files but no MANIFEST (refused without\n"
        "                      it: their tree is lost); the files are kept, not\n"
        "                      part of the new tree, and each open says so\n"
        "  --plugin SO         load a filter policy / prefix extractor plugin first\n"
        "                      (repeatable)\n"
        "  --no-check          skip the consistency checks\n"
        "  --call-timeout SEC  a call into a plugin or into the engine under test\n"
        "                      that does not return within SEC seconds is a\n"
        "                      finding (P10); default 10\n"
        "  --engine NAME       the engine under test (default filterlab)\n"
        "  --junit FILE        also write JUnit XML for CI: one test case per\n"
        "                      property, failed with its first violation and the\n"
        "                      line that replays it\n"
        "  --known FILE        the engine's known bugs and hazards (check's\n"
        "                      --known): the first violation is named as the\n"
        "                      entry it matches, if any (the exit status stays 1)\n"
        "  -h, --help          this text\n"
        "\n"
        "A broken plugin contract is a property violation (P7 extractor, P11\n"
        "decode, P10 anything else).  SIGINT and SIGTERM stop the replay within\n"
        "a second and remove its temporary database.\n"
        "\n"
        "Exit status: 0 every check held, 1 a check failed, 2 bad usage, bad\n"
        "input or an engine error, 128+N stopped by signal N.\n");
}

static int bad_usage(const char *what, const char *arg) {
    return fl_cli_bad_usage("replay", usage, "%s %s", what, arg);
}

/* ---- Arguments --------------------------------------------------------- */

/* -1: go on and run; otherwise the exit status. */
static int parse_args(int argc, char **argv, replay_args *a) {
    static const char *const valued[] = { "--results", "--db", "--plugin", "--call-timeout",
                                          "--engine", "--junit", "--known" };
    bool options_done = false;
    a->call_timeout = DEFAULT_CALL_TIMEOUT;
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
            if (strcmp(s, "--force") == 0) { a->force = true; continue; }
            if (strcmp(s, "--read-only") == 0) { a->read_only = true; continue; }
            if (strcmp(s, "--new-db") == 0) { a->new_db = true; continue; }
            size_t which = 0;
            int m = fl_cli_flag(argc, argv, &i, valued, sizeof valued / sizeof *valued, &which, &val);
            if (m < 0) return bad_usage("missing value for", valued[which]);
            if (m == 0) return bad_usage("unknown option", s);
            if (*val == '\0') return bad_usage("empty value for", valued[which]);
            switch (which) {
            case 0: a->results = val; break;
            case 1: a->db = val; break;
            case 2: a->plugins[a->plugin_count++] = val; break;
            case 3:
                if (!fl_cli_parse_seconds(val, &a->call_timeout))
                    return bad_usage("--call-timeout needs seconds, got", val);
                break;
            case 4: a->engine = val; break;
            case 5: a->junit = val; break;
            default: a->known = val; break;
            }
            continue;
        }
        if (a->workload) return bad_usage("unexpected argument (one workload at a time):", s);
        a->workload = s;
    }
    if (!a->workload) return bad_usage("missing the workload", "FILE.wl");
    if (a->read_only && !a->db)
        return bad_usage("--read-only needs --db DIR:", "a temporary database has nothing to read");
    if (a->new_db && (!a->db || a->read_only))
        return bad_usage("--new-db needs --db DIR and no --read-only:", "it makes a database in DIR");
    if (a->junit && strcmp(a->junit, "-") == 0 && (a->json || (a->results && strcmp(a->results, "-") == 0)))
        return bad_usage("--junit - shares stdout with --json or --results -:", "give --junit a file");
    if (a->json && a->results && strcmp(a->results, "-") == 0)
        return bad_usage("--json and --results - both write stdout (it stays one JSON document):",
                         "give --results a file");
    return -1;
}

/* ---- Messages and progress ----------------------------------------------- */

/* Erases the progress line, if one is shown, before another message. */
static void progress_clear(fl_replay *r) {
    if (r->progress_width) fprintf(stderr, "\r%*s\r", (int)r->progress_width, "");
    r->progress_width = 0;
}

static int on_op(void *arg, size_t done, const fl_op *next) {
    fl_replay *r = arg;
    (void)next;
    if (!r->progress || done % 64 != 0) return 0;
    double t = fl_now();
    if (t < r->progress_next) return 0;
    r->progress_next = t + 0.5;
    int n = fprintf(stderr, "\rreplay: %zu/%zu ops (%.0f ops/s)", done, r->total,
                    t > r->start ? (double)done / (t - r->start) : 0.0);
    if (n > 0 && (size_t)n > r->progress_width) r->progress_width = (size_t)n;
    return 0;
}

static void on_violation(void *arg, int property, unsigned line, const char *msg) {
    (void)property; (void)line; (void)msg;
    progress_clear(arg);
}

/* --known: which entry of the list, if any, the first violation is: one
 * of those at the earliest line among each property's first that an entry
 * matches (the whole workload read again when it was streamed), on
 * stderr. */
static void name_known(fl_replay *r, const fl_engine_ops *engine, const fl_run_outcome *out) {
    if (!r->known) return;
    unsigned lines[FL_PROPERTY_COUNT] = { 0 }, first = 0;
    for (int p = FL_P1; p < FL_PROPERTY_COUNT; p++) {
        const char *at = strstr(out->first_of[p], ": line ");
        if (out->first_of[p][0] && at && sscanf(at, ": line %u", &lines[p]) == 1 && (!first || lines[p] < first))
            first = lines[p];
    }
    if (!first) return;
    fl_workload whole = { 0 };
    const fl_workload *w = r->wl;
    char err[512];
    if (r->stream || !w || !w->count) {
        if (fl_workload_load_until(r->a->workload, &fl_cli_stop, &whole, err, sizeof err) != 0) return;
        w = &whole;
    }
    size_t at = 0;
    while (at < w->count && w->ops[at].line != first) at++;
    const fl_known_bug *b = NULL;
    for (int p = FL_P1; p < FL_PROPERTY_COUNT && !b && at < w->count; p++) {
        if (lines[p] != first) continue;
        fl_known_finding f = { engine->name, w, at, p, out->first_of[p], false };
        int i = fl_known_match(r->known, &f);
        if (i >= 0) b = fl_known_get(r->known, (size_t)i);
    }
    if (b)
        fprintf(stderr, "%s: the first violation is %s %s: %s (%s: %s)\n", r->path, fl_known_class(b), b->id,
                b->about, b->hazard ? "why" : "fixed upstream", b->fix);
    else
        fprintf(stderr, "%s: the first violation (line %u) is none of %s's entries\n", r->path, first, r->a->known);
    fl_workload_free(&whole);
}

/* Checks every open/reopen before anything runs: options and policy lists
 * (made and freed, their plugins' misdeeds ignored: the run finds those). */
static void ignore_violation(void *arg, const fl_contract_violation *v) { (void)arg; (void)v; }

/* The options of every open and reopen, as the engine will take them, so
 * that a bad one stops the replay before any op runs; over the workload,
 * or a streamed one chunk by chunk (opt carries over). */
typedef struct preflight_state { fl_options opt; fl_calls *calls; } preflight_state;

static int preflight_begin(fl_replay *r, preflight_state *ps) {
    int rc = fl_calls_new(r->reg, &ps->calls);
    if (rc) { fprintf(stderr, "filterlab replay: %s\n", fl_strerror(rc)); return FL_EXIT_USAGE; }
    fl_calls_set_sink(ps->calls, ignore_violation, NULL);
    fl_options_init(&ps->opt);
    return FL_OK;
}

static void preflight_end(preflight_state *ps) {
    fl_options_free(&ps->opt);
    fl_calls_free(ps->calls);
}

static int preflight(fl_replay *r, preflight_state *ps, const fl_workload *w) {
    int rc = FL_OK;
    for (size_t i = 0; i < w->count && rc == FL_OK; i++) {
        const fl_op *op = &w->ops[i];
        r->crashes |= op->kind == FL_OP_CRASH;
        if (op->kind != FL_OP_OPEN && op->kind != FL_OP_REOPEN) continue;
        char err[2048] = "";
        const char *key = "";
        for (size_t k = 0; k < op->opt_count && rc == FL_OK; k++)
            rc = fl_options_set(&ps->opt, op->opts[k].key, op->opts[k].value, err, sizeof err);
        const char *lists[2] = { ps->opt.policies, ps->opt.compactor }, *names[2] = { "policies", "compactor" };
        for (int l = 0; l < 2 && rc == FL_OK; l++) {
            fl_policy_list list;
            if (!lists[l]) continue;
            key = names[l];
            if ((rc = fl_policy_list_parse(r->reg, ps->calls, lists[l], &list, err, sizeof err)) == FL_OK)
                fl_policy_list_free(ps->calls, &list);
        }
        if (rc != FL_OK)
            fprintf(stderr, "%s:%u: %s%s%s\n", r->path, op->line, key, *key ? ": " : "",
                    *err ? err : "invalid option");
    }
    return rc == FL_OK ? FL_OK : FL_EXIT_USAGE;
}

/* Ops per chunk of a streamed workload. */
#define STREAM_CHUNK 65536

/* Reads the workload: a regular file is read through once in chunks (every
 * line parsed and every open checked, so that nothing of a bad workload
 * runs) and then streamed to the run; anything else ("-", a pipe) is read
 * whole.  FL_OK, or an exit status. */
static int load(fl_replay *r) {
    const replay_args *a = r->a;
    char err[4096] = "";
    preflight_state ps;
    struct stat st;
    int rc;
    if (preflight_begin(r, &ps) != FL_OK) return FL_EXIT_USAGE;
    if (strcmp(a->workload, "-") == 0 || stat(a->workload, &st) != 0 || !S_ISREG(st.st_mode)) {
        rc = fl_workload_load_until(a->workload, &fl_cli_stop, r->wl, err, sizeof err);
        if (rc == 0) {
            r->total = r->wl->count;
            rc = preflight(r, &ps, r->wl);
        }
    } else {
        rc = fl_wl_stream_open(a->workload, &fl_cli_stop, &r->stream, err, sizeof err);
        fl_workload chunk = { 0 };
        while (rc == 0 && (rc = fl_wl_stream_next(r->stream, STREAM_CHUNK, &chunk, err, sizeof err)) == 0 &&
               chunk.count) {
            r->total += chunk.count;
            rc = preflight(r, &ps, &chunk);
        }
        fl_workload_free(&chunk);
        fl_wl_stream_close(r->stream);
        r->stream = NULL;
        if (rc == 0) rc = fl_wl_stream_open(a->workload, &fl_cli_stop, &r->stream, err, sizeof err);
    }
    preflight_end(&ps);
    if (rc == FL_EXIT_USAGE) return rc;
    if (rc != 0) {
        fprintf(stderr, "%s\n", *err ? err : "filterlab replay: cannot load the workload");
        return rc == -2 ? 128 + fl_cli_stop : FL_EXIT_USAGE;
    }
    return FL_OK;
}

static int next_chunk(void *arg, fl_workload *chunk, char *err, size_t err_len) {
    fl_replay *r = arg;
    return fl_wl_stream_next(r->stream, STREAM_CHUNK, chunk, err, err_len);
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
    fprintf(f, ",\"memtable_positive\":%" PRIu64 ",\"memtable_negative\":%" PRIu64 ",\"seeks\":%" PRIu64 "}",
            c->memtable_positive, c->memtable_negative, c->seeks);
}

/* The peak resident memory of the replay, in MiB: this process's high-water
 * mark since it was exec'd (VmHWM; ru_maxrss would also count the image of
 * the process that forked it) and that of the run's child process. */
static double peak_rss_mib(void) {
    double self_kib = 0;
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0) self_kib = strtod(line + 6, NULL);
    if (f) fclose(f);
    struct rusage self, kids;
    if (self_kib <= 0 && getrusage(RUSAGE_SELF, &self) == 0) self_kib = (double)self.ru_maxrss;
    double kids_kib = getrusage(RUSAGE_CHILDREN, &kids) == 0 ? (double)kids.ru_maxrss : 0;
    return (self_kib > kids_kib ? self_kib : kids_kib) / 1024.0;
}

static void print_json(const fl_replay *r, const fl_check_summary *sum, double elapsed) {
    const fl_metrics *m = &sum->metrics;
    printf("{\"ops\":%zu,\"violations\":%" PRIu64 ",\"ssts\":%" PRIu64 ",\"filter_errors\":%" PRIu64
           ",\"contract_violations\":%" PRIu64 ",\"elapsed_s\":%.6f,\"peak_rss_mib\":%.1f,", r->total,
           sum->violations, sum->ssts, m->filter_errors, m->contract_violations, elapsed, peak_rss_mib());
    json_kind(stdout, "point", &m->point);
    putchar(',');
    json_kind(stdout, "prefix", &m->prefix);
    printf(",\"sst_reads\":%" PRIu64 ",\"ssts_written\":%" PRIu64 ",\"flushes\":%" PRIu64
           ",\"compactions\":%" PRIu64 ",\"warnings\":%" PRIu64 ",", m->sst_reads,
           m->ssts_written, m->flushes, m->compactions, sum->warnings);
    for (int k = 0; k < 2; k++) {
        if (!sum->fp[k].probes) continue;
        printf("\"p9_%s\":{\"probes\":%" PRIu64 ",\"items\":%" PRIu64 ",\"measured\":%.9g,"
               "\"expected\":%.9g,\"sd\":%.9g,\"z\":%.6g},",
               k ? "prefix" : "point", sum->fp[k].probes, sum->fp[k].items,
               sum->fp[k].measured, sum->fp[k].expected, sum->fp[k].sd, sum->fp[k].z);
    }
    printf("\"properties\":{");
    bool first = true;
    for (int p = 1; p < FL_PROPERTY_COUNT; p++) {
        if (!sum->by_property[p]) continue;
        printf("%s\"P%d\":%" PRIu64, first ? "" : ",", p, sum->by_property[p]);
        first = false;
    }
    printf("}}\n");
}

static void human_rate(double num, double den) {
    if (den > 0) printf("%.4f%%", 100.0 * num / den);
    else fputs("n/a", stdout);
}

static void print_summary(const fl_replay *r, const fl_check_summary *sum, double elapsed) {
    const fl_metrics *m = &sum->metrics;
    char crashes[64] = "";
    if (sum->crashes) snprintf(crashes, sizeof crashes, ", crashes %" PRIu64, sum->crashes);
    printf("%s: %zu ops in %.3f s, live SSTs %" PRIu64 ", violations %" PRIu64 "%s%s\n", r->path,
           r->total, elapsed, sum->ssts, sum->violations, crashes, r->a->no_check ? " (checks off)" : "");
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
    for (int k = 0; k < 2; k++)
        if (sum->fp[k].probes)
            printf("  P9 %-6s fp rate %.4f%% over %" PRIu64 " probes of %" PRIu64 " absent items, expected "
                   "%.4f%% from the filters' bits (z %.2f)\n", k ? "prefix" : "point", 100 * sum->fp[k].measured,
                   sum->fp[k].probes, sum->fp[k].items, 100 * sum->fp[k].expected, sum->fp[k].z);
}

/* ---- The command ---------------------------------------------------------- */

/* "filterlab replay PATH --plugin X ..." with every flag a rerun needs. */
static void make_repro(fl_replay *r) {
    const replay_args *a = r->a;
    char num[32];
    snprintf(r->repro, sizeof r->repro, "filterlab replay");
    fl_shell_append_word(r->repro, sizeof r->repro, r->path);
    for (size_t i = 0; i < a->plugin_count; i++)
        fl_shell_append_flag(r->repro, sizeof r->repro, "--plugin", a->plugins[i]);
    if (a->engine) fl_shell_append_flag(r->repro, sizeof r->repro, "--engine", a->engine);
    if (a->call_timeout != DEFAULT_CALL_TIMEOUT) {
        snprintf(num, sizeof num, "%g", a->call_timeout);
        fl_shell_append_flag(r->repro, sizeof r->repro, "--call-timeout", num);
    }
}

/* --junit: one case per property P1-P11 -- failed with its first violation
 * and the reproduction line, passed, or (when the run did not go through
 * every op: why) skipped.  Returns status, or 2 if the file cannot be
 * written. */
static int finish(fl_replay *r, const fl_run_outcome *out, int status, const char *unfinished) {
    const replay_args *a = r->a;
    if (!a->junit) return status;
    fl_junit_case cases[FL_PROPERTY_COUNT];
    char names[FL_PROPERTY_COUNT][64], details[FL_PROPERTY_COUNT][9000];
    size_t n = 0;
    for (int p = FL_P1; p < FL_PROPERTY_COUNT; p++, n++) {
        snprintf(names[n], sizeof names[n], "P%d %s", p, fl_property_name(p));
        const char *first = out->first_of[p];
        uint64_t count = out->sum.by_property[p];
        snprintf(details[n], sizeof details[n], "%s\n%" PRIu64 " violation(s) of P%d in %s\nreplay: %s",
                 first, count ? count : 1, p, r->path, r->repro);
        cases[n] = (fl_junit_case){ .classname = "filterlab.replay", .name = names[n],
                                    .time = p == FL_P1 ? out->elapsed : 0 };
        if (first[0]) {
            cases[n].failure = first;
            cases[n].type = names[n];
            cases[n].details = details[n];
        } else if (unfinished) {
            cases[n].skipped = true;
            cases[n].details = unfinished;
        }
    }
    char suite[4200];
    snprintf(suite, sizeof suite, "filterlab replay %s", r->path);
    const char *inputs[] = { a->workload, a->results };
    int rc = fl_cli_junit_write("replay", a->junit, a->force, inputs, a->results ? 2 : 1, suite, cases, n);
    return rc ? rc : status;
}

static int replay_run(fl_replay *r) {
    const replay_args *a = r->a;
    char err[4096] = "";
    int rc;
    const fl_engine_ops *engine = &fl_engine_filterlab;
    if (a->engine && !(engine = fl_engine_find(a->engine))) {
        char names[256];
        fl_engine_names(names, sizeof names);
        fprintf(stderr, "filterlab replay: --engine %s: unknown engine; the engines are: %s\n",
                a->engine, names);
        return FL_EXIT_USAGE;
    }
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
    if (a->known && (rc = fl_known_load(a->known, &r->known, err, sizeof err)) != FL_OK) {
        fprintf(stderr, "filterlab replay: --known %s\n", err);
        return FL_EXIT_USAGE;
    }
    if ((rc = load(r)) != FL_OK) return rc;
    if (a->db && fl_mkdir_p(a->db) != 0) {
        fprintf(stderr, "filterlab replay: --db %s: %s\n", a->db, strerror(errno));
        return FL_EXIT_USAGE;
    }
    if (a->results) {
        const char *inputs[] = { a->workload };
        int st = fl_cli_out_open(&r->results_out, "replay", "--results", a->results, a->force, inputs, 1);
        if (st) return st;
        r->results = r->results_out.f;
    }
    make_repro(r);
    r->start = fl_now();
    r->progress_next = r->start + 0.5;
    r->progress = r->total > PROGRESS_MIN_OPS && isatty(STDERR_FILENO);
    fl_runner run = {
        .check = { .engine = engine, .reg = r->reg, .dir = a->db, .path = r->path,
                   .check = !a->no_check, .results = r->results, .messages = stderr,
                   .max_shown = MAX_SHOWN, .seed = FL_CHECKER_SEED, .on_violation = on_violation,
                   .on_violation_arg = r, .read_only = a->read_only, .create_anyway = a->new_db,
                   .crashes = r->crashes,
                   /* without --db the database is removed afterwards: an
                    * fsync buys nothing (a workload's crash ops still sync
                    * everything, on the fault env) */
                   .no_sync = !a->db },
        .call_timeout = a->call_timeout, .interrupt = &fl_cli_stop,
        .on_op = on_op, .on_op_arg = r,
        .more = r->stream ? next_chunk : NULL, .more_arg = r,
        .isolate = true,                 /* a crash or a hang is a finding */
    };
    fl_run_outcome out;
    if (fl_run_workload(&run, r->wl, &out) != FL_OK) {
        fprintf(stderr, "filterlab replay: %s\n", out.error);
        return FL_EXIT_USAGE;
    }
    progress_clear(r);
    if (out.signal) {
        fprintf(stderr, "%s: interrupted (signal %d) after %zu of %zu ops%s%s\n", r->path,
                out.signal, out.ops_run, r->total, out.message[0] ? ", during " : "",
                out.message);
        return finish(r, &out, 128 + out.signal, "the replay was stopped by a signal");
    }
    if (out.hang || out.crashed) {
        fprintf(stderr, "%s\n%s: %s; replay: %s\n", out.message, r->path,
                out.hang ? "a call did not return" : "the run died", r->repro);
        name_known(r, engine, &out);
        return finish(r, &out, FL_EXIT_VIOLATION,
                      out.hang ? "the run ended at a call that did not return (P10)"
                               : "the run died (P10)");
    }
    if (out.rc != FL_OK) {
        fprintf(stderr, "%s\n", out.error);
        return finish(r, &out, FL_EXIT_USAGE, out.error);
    }
    /* the run went through every op: the results are whole, and kept */
    r->results = NULL;
    if (fl_cli_out_close(&r->results_out, "replay", "--results", true) != FL_EXIT_OK) return FL_EXIT_USAGE;
    if (a->json) print_json(r, &out.sum, out.elapsed);
    else print_summary(r, &out.sum, out.elapsed);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "filterlab replay: write error on stdout\n");
        return FL_EXIT_USAGE;
    }
    if (out.sum.violations) {
        fprintf(stderr, "%s: %" PRIu64 " violation%s; replay: %s\n", r->path, out.sum.violations,
                out.sum.violations == 1 ? "" : "s", r->repro);
        name_known(r, engine, &out);
        return finish(r, &out, FL_EXIT_VIOLATION, NULL);
    }
    return finish(r, &out, FL_EXIT_OK, NULL);
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
    r.a = &args;
    r.path = args.workload;
    r.wl = &w;
    fl_cli_catch_stops();
    status = replay_run(&r);
    /* results of a run that did not go through every op are not kept */
    if (r.results_out.f && r.results_out.tmp[0])
        fprintf(stderr, "filterlab replay: --results %s: not written: the run did not go through "
                "every op\n", args.results);
    if (fl_cli_out_close(&r.results_out, "replay", "--results", false) != FL_EXIT_OK && status < 2)
        status = FL_EXIT_USAGE;
    fl_workload_free(&w);
    fl_wl_stream_close(r.stream);
    if (r.reg) fl_registry_free(r.reg);
    fl_known_free(r.known);
    free(args.plugins);
    return status;
}
