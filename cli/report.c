/*
 * report.c -- `filterlab report FILE.wl...`: parses the command line into a
 * fl_report_config and runs the pipeline of reports/report.h (SPEC 12).
 * Thin on purpose: no report logic lives here.
 */
#include "cli.h"
#include "../reports/report.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_OUT "reports/out"
#define DEFAULT_WORKLOAD "group_suffix.wl"
#ifndef FL_DATADIR
#define FL_DATADIR "/usr/local/share/filterlab"
#endif

static const double default_bits[] = { 2, 4, 6, 8, 10, 12, 14, 16, 20 };

static void usage(FILE *f) {
    fprintf(f,
        "usage: filterlab report [FILE.wl...] [--bits LIST] [--modes LIST] [--extractor SPEC]\n"
        "                        [-o DIR] [--jobs N] [--plugin SO]... [--call-timeout SEC]\n"
        "                        [--engine LIST]\n"
        "\n"
        "Replays each workload once per configuration of a sweep -- bits per key\n"
        "times policy mode -- with every check on, and writes DIR/results.csv,\n"
        "gnuplot plots (PNG and SVG, with their scripts) and DIR/index.html.\n"
        "Without FILE.wl it runs the bundled report workload, group_suffix.wl (as\n"
        "`make report` does), found beside the binary or where `make install` put it.\n"
        "\n"
        "  --bits LIST       bits per key, comma-separated (default 2,4,6,8,10,12,14,16,20)\n"
        "  --modes LIST      comma-separated, of: whole = bloom(bits=B),\n"
        "                    whole+prefix = bloom(bits=B,prefix=X),\n"
        "                    prefix-only = bloom(bits=B,prefix=X,whole_key=0), none\n"
        "                    (default all four)\n"
        "  --extractor SPEC  the prefix extractor X (default: the workload's line\n"
        "                    \"# extractor: SPEC\", else the first prefix= in its open\n"
        "                    line's policies; without one the prefix modes are skipped)\n"
        "  -o DIR            the output directory (default " DEFAULT_OUT ")\n"
        "  --jobs N          replays run in parallel (default: the number of CPUs)\n"
        "  --plugin SO       load a filter policy / prefix extractor plugin (repeatable)\n"
        "  --call-timeout SEC  a call into a plugin or an engine that does not\n"
        "                    return within SEC seconds is a finding (P10); default 10\n"
        "  --engine LIST     also replay every configuration on the engines named,\n"
        "                    comma-separated (repeatable), e.g. rocksdb,slatedb,pebble:\n"
        "                    filterlab, i.e. its own engine, is always replayed and comes\n"
        "                    first, named or not; the others follow in the order given.\n"
        "                    Of several engines asked for, one that is not built is left\n"
        "                    out with a line on stderr (alone, it is an error).  A\n"
        "                    configuration an engine cannot express has no row for it;\n"
        "                    the page lists what each engine skipped and why\n"
        "  -h, --help        this text\n"
        "\n"
        "Each replay overrides the workload's policies: every open and reopen gets\n"
        "policies = compactor = the mode's list and legacy_filters=0.\n"
        "\n"
        "Exit status: 0 every property held, 1 a violation (listed at the top of\n"
        "index.html), 2 bad usage, bad input or an engine error.\n");
}

#define bad_usage(...) fl_cli_bad_usage("report", usage, __VA_ARGS__)

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* "2,4,10" -> sorted distinct values >= 0; -1 on a bad item. */
static int parse_bits(const char *list, double *out, size_t cap, size_t *n) {
    *n = 0;
    const char *p = list;
    for (;;) {
        char *end;
        errno = 0;
        double v = strtod(p, &end);
        if (end == p || errno || !isfinite(v) || v < 0 || v > 1000 || (*end && *end != ',')) return -1;
        if (*n == cap) return -1;
        out[(*n)++] = v;
        if (!*end) break;
        p = end + 1;
    }
    qsort(out, *n, sizeof *out, cmp_double);
    size_t k = 0;
    for (size_t i = 0; i < *n; i++)
        if (k == 0 || out[i] != out[k - 1]) out[k++] = out[i];
    *n = k;
    return 0;
}

/* "whole,none" -> the modes, distinct, in canonical order; -1 with the bad
 * item in *bad. */
static int parse_modes(const char *list, fl_report_mode *out, size_t *n, char *bad, size_t bad_cap) {
    bool want[FL_MODE_COUNT] = { false };
    const char *p = list;
    for (;;) {
        size_t len = strcspn(p, ",");
        char name[32];
        fl_report_mode m;
        snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), p);
        if (len >= sizeof name || fl_report_mode_parse(name, &m) != 0) {
            snprintf(bad, bad_cap, "%.*s", (int)len, p);
            return -1;
        }
        want[m] = true;
        if (!p[len]) break;
        p += len + 1;
    }
    *n = 0;
    for (int m = 0; m < FL_MODE_COUNT; m++)
        if (want[m]) out[(*n)++] = (fl_report_mode)m;
    return 0;
}

/* The bundled report workload: $FILTERLAB_DATADIR, then beside the binary
 * (an install's ../share/filterlab; a build tree's ../reports/workloads and
 * ../../reports/workloads), then the install's FL_DATADIR.  The places
 * looked in go to tried when it is not found. */
static bool default_workload(char *out, size_t cap, char *tried, size_t tried_cap) {
    char exe[PATH_MAX], dir[PATH_MAX];
    const char *env = getenv("FILTERLAB_DATADIR");
    const char *rel[] = { "../share/filterlab", "../reports/workloads", "../../reports/workloads" };
    tried[0] = '\0';
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) *slash = '\0';
    }
    for (size_t i = 0; i < 5; i++) {
        if (i == 0 && (!env || !*env)) continue;
        if (i >= 1 && i <= 3 && n <= 0) continue;
        int len = i == 0  ? snprintf(dir, sizeof dir, "%s", env)
                : i <= 3  ? snprintf(dir, sizeof dir, "%s/%s", exe, rel[i - 1])
                          : snprintf(dir, sizeof dir, "%s", FL_DATADIR);
        if (len < 0 || (size_t)len >= sizeof dir) continue;
        if ((size_t)snprintf(out, cap, "%s/%s", dir, DEFAULT_WORKLOAD) >= cap) continue;
        if (access(out, R_OK) == 0) return true;
        size_t used = strlen(tried);
        snprintf(tried + used, tried_cap - used, "%s%s", used ? ", " : "", dir);
    }
    return false;
}

/* "filterlab report ARGS..." for the page. */
static char *command_line(int argc, char **argv) {
    size_t len = strlen("filterlab") + 1;
    for (int i = 0; i < argc; i++) len += strlen(argv[i]) + 1;
    char *s = malloc(len);
    if (!s) return NULL;
    strcpy(s, "filterlab");
    for (int i = 0; i < argc; i++) {
        strcat(s, " ");
        strcat(s, argv[i]);
    }
    return s;
}

int fl_cli_report(int argc, char **argv) {
    static const char *const valued[] = { "--bits", "--modes", "--extractor", "-o", "--jobs",
                                          "--plugin", "--out", "--call-timeout", "--engine" };
    /* filterlab's own engine first, always; then the others as named */
    const fl_engine_ops *engines[16] = { &fl_engine_filterlab };
    size_t nengines = 1, nasked = 0;
    bool named_filterlab = false;
    char bundled[PATH_MAX];
    double bits[64];
    size_t nbits = sizeof default_bits / sizeof default_bits[0];
    fl_report_mode modes[FL_MODE_COUNT] = { FL_MODE_WHOLE, FL_MODE_WHOLE_PREFIX,
                                            FL_MODE_PREFIX_ONLY, FL_MODE_NONE };
    size_t nmodes = FL_MODE_COUNT;
    memcpy(bits, default_bits, sizeof default_bits);
    const char **workloads = calloc((size_t)argc + 1, sizeof *workloads);
    const char **plugins = calloc((size_t)argc + 1, sizeof *plugins);
    size_t nworkloads = 0, nplugins = 0;
    fl_report_config cfg = { .out_dir = DEFAULT_OUT, .call_timeout = FL_REPORT_CALL_TIMEOUT };
    int status = -1;
    bool options_done = false;
    if (!workloads || !plugins) {
        fprintf(stderr, "filterlab report: out of memory\n");
        status = FL_EXIT_USAGE;
    }
    for (int i = 1; status < 0 && i < argc; i++) {
        const char *s = argv[i], *val = NULL;
        if (options_done || s[0] != '-' || s[1] == '\0') {
            if (strcmp(s, "-") == 0) {
                status = bad_usage("%s: a report reads its workloads twice; give a file, not stdin", s);
                break;
            }
            workloads[nworkloads++] = s;
            continue;
        }
        if (strcmp(s, "--") == 0) { options_done = true; continue; }
        if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
            usage(stdout);
            status = FL_EXIT_OK;
            break;
        }
        size_t which = 0;
        int m = fl_cli_flag(argc, argv, &i, valued, sizeof valued / sizeof *valued, &which, &val);
        if (m < 0) { status = bad_usage("%s needs an argument", valued[which]); break; }
        if (m == 0) { status = bad_usage("unknown option '%s'", s); break; }
        if (*val == '\0') { status = bad_usage("%s needs a non-empty argument", valued[which]); break; }
        char bad[64];
        char *end;
        long jobs;
        switch (which) {
        case 0:
            if (parse_bits(val, bits, sizeof bits / sizeof bits[0], &nbits) != 0)
                status = bad_usage("--bits %s: expected comma-separated numbers of bits per key "
                                   "from 0 to 1000 (at most 64), e.g. 2,4,10", val);
            break;
        case 1:
            if (parse_modes(val, modes, &nmodes, bad, sizeof bad) != 0) {
                fprintf(stderr, "filterlab report: --modes: unknown mode '%s' (known: whole, "
                        "whole+prefix, prefix-only, none)\n", bad);
                status = FL_EXIT_USAGE;
            }
            break;
        case 2: cfg.extractor = val; break;
        case 3: case 6: cfg.out_dir = val; break;
        case 4:
            errno = 0;
            jobs = strtol(val, &end, 10);
            if (errno || *end || jobs < 1 || jobs > 1024)
                status = bad_usage("--jobs %s: expected a number of processes from 1 to 1024", val);
            else cfg.jobs = (unsigned)jobs;
            break;
        case 5: plugins[nplugins++] = val; break;
        case 8: {
            char names[256];
            fl_engine_names(names, sizeof names);
            for (const char *p = val; status < 0;) {
                size_t len = strcspn(p, ",");
                char name[512];
                if (len == 0 || len >= sizeof name) {
                    status = bad_usage("--engine %s: expected comma-separated engine names; the "
                                       "engines are: %s", val, names);
                    break;
                }
                memcpy(name, p, len);
                name[len] = '\0';
                const fl_engine_ops *e = fl_engine_find(name);
                if (!e) {
                    status = bad_usage("--engine %s: unknown engine '%s'; the engines are: %s", val,
                                       name, names);
                    break;
                }
                bool have = false;
                for (size_t k = 0; k < nengines; k++) have = have || engines[k] == e;
                bool asked_before = e == &fl_engine_filterlab && named_filterlab;
                if (e == &fl_engine_filterlab) named_filterlab = true;
                if ((!have || e == &fl_engine_filterlab) && !asked_before) nasked++;
                if (!have) {
                    if (nengines == sizeof engines / sizeof engines[0]) {
                        status = bad_usage("--engine: at most %zu engines",
                                           sizeof engines / sizeof engines[0] - 1);
                        break;
                    }
                    engines[nengines++] = e;
                }
                if (!p[len]) break;
                p += len + 1;
            }
            break;
        }
        default:
            if (!fl_cli_parse_seconds(val, &cfg.call_timeout))
                status = bad_usage("--call-timeout %s: expected seconds", val);
            break;
        }
    }
    if (status < 0 && nworkloads == 0) {
        char tried[4 * PATH_MAX];
        if (default_workload(bundled, sizeof bundled, tried, sizeof tried)) {
            fprintf(stderr, "filterlab report: no workload given: running the bundled report "
                    "workload %s\n", bundled);
            workloads[nworkloads++] = bundled;
        } else {
            fprintf(stderr, "filterlab report: no workload given, and the bundled report workload "
                    "%s is not in %s (set FILTERLAB_DATADIR to its directory, or give FILE.wl)\n",
                    DEFAULT_WORKLOAD, tried);
            status = FL_EXIT_USAGE;
        }
    }
    if (status < 0) {
        char *command = command_line(argc, argv);
        cfg.workloads = workloads;
        cfg.nworkloads = nworkloads;
        cfg.bits = bits;
        cfg.nbits = nbits;
        cfg.modes = modes;
        cfg.nmodes = nmodes;
        cfg.plugins = plugins;
        cfg.nplugins = nplugins;
        cfg.engines = engines;
        cfg.nengines = nengines;
        cfg.drop_unavailable = nasked > 1;
        cfg.progress = isatty(STDERR_FILENO);
        cfg.command = command;
        status = fl_report_run(&cfg);
        free(command);
    }
    free(workloads);
    free(plugins);
    return status;
}
