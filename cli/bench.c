/*
 * bench.c -- `filterlab bench`: parses the options and runs bench/bench.h.
 * `make bench` runs it with --csv bench/out/results.csv.
 */
#include "cli.h"
#include "../bench/bench.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
    fprintf(f,
        "usage: filterlab bench [--only GROUP[,GROUP...]] [--runs N] [--quick]\n"
        "                       [--large] [--csv FILE] [--big-keys N]\n"
        "                       [--replay-ops N] [--check-time SEC]\n"
        "                       [--workload FILE.wl] [--scratch DIR]\n"
        "\n"
        "Measures filterlab and prints a table of medians, each goal beside its\n"
        "target and whether it was met:\n"
        "  filter   bloom build (ns/key) and probe (ns/query, hits and misses) at\n"
        "           6, 10 and 16 bits/key in cache, and at 10 far out of cache,\n"
        "           beside XXH3 of the same keys (targets, in cache: a probe <= 3x\n"
        "           the hash, a build <= 2x per key)\n"
        "  engine   get of absent and present keys over 10 overlapping L0 SSTs;\n"
        "           scan_prefix of absent and present prefixes with a prefix-only\n"
        "           bloom and with none (target: SST reads <= 2%% of no filter)\n"
        "  rocksdb  the same keys, flushes and gets in RocksDB, when filterlab was\n"
        "           built with librocksdb-dev (skipped otherwise): FP rates from\n"
        "           both, time per get as a ratio (target: filterlab / RocksDB <= 1.0);\n"
        "           the hunt's pace, check --engine rocksdb --known --avoid-known\n"
        "           (target: >= 20 trials/s), and check --engine leveldb beside it\n"
        "  testbed  replay ops/s with and without checks on a mixed workload and\n"
        "           on the L0 FP shape (targets: >= 500,000 ops/s checked, checked\n"
        "           <= 2x --no-check), the same replay through the engine\n"
        "           protocol (filterlab serve) beside it in process (target: <= 2x),\n"
        "           `filterlab check` trials/s and fuzz_ops executions/s\n"
        "  scale    `filterlab replay` of the mixed workload at 100,000 and\n"
        "           1,000,000 ops (--large: and 10,000,000): time, peak memory, and\n"
        "           their growth per 10x ops (targets: time <= 12x where the live\n"
        "           keys grew by at most 20%%, memory <= 1.5x the live keys'\n"
        "           growth); with --csv, scale.csv and scale.png beside it\n"
        "\n"
        "  --only GROUPS     run only these groups (comma-separated)\n"
        "  --runs N          repetitions per figure, reported as the median (5)\n"
        "  --quick           small sizes: a smoke run of every benchmark\n"
        "  --large           the scale group also replays 10,000,000 ops\n"
        "  --csv FILE        also write the rows as CSV\n"
        "  --big-keys N      keys of the out-of-cache filter (100000000)\n"
        "  --replay-ops N    ops of the generated mixed workload (1000000)\n"
        "  --check-time SEC  how long to run check for trials/s (20)\n"
        "  --workload FILE   replay this workload in the testbed group instead\n"
        "  --scratch DIR     where the databases go (default /dev/shm or $TMPDIR)\n"
        "  -h, --help        this text\n"
        "\n"
        "Exit status: 0 the benchmarks ran (whether or not targets were met),\n"
        "2 bad usage or a benchmark could not run.\n");
}

static int bad(const char *what, const char *arg) { return fl_cli_bad_usage("bench", usage, "%s %s", what, arg); }

static bool parse_groups(const char *s, unsigned *out) {
    static const struct { const char *name; unsigned bit; } names[] = {
        { "filter", FL_BENCH_FILTER }, { "engine", FL_BENCH_ENGINE },
        { "testbed", FL_BENCH_TESTBED }, { "rocksdb", FL_BENCH_ROCKSDB }, { "scale", FL_BENCH_SCALE },
    };
    *out = 0;
    while (*s) {
        size_t len = strcspn(s, ",");
        size_t i = 0;
        size_t count = sizeof names / sizeof names[0];
        while (i < count && !(strlen(names[i].name) == len && strncmp(names[i].name, s, len) == 0)) i++;
        if (i == count) return false;
        *out |= names[i].bit;
        s += len;
        if (*s == ',') s++;
    }
    return *out != 0;
}

int fl_cli_bench(int argc, char **argv) {
    fl_bench_config cfg;
    fl_bench_defaults(&cfg);
    cfg.progress = stderr;
    static const char *const valued[] = { "--only", "--runs", "--csv", "--big-keys", "--replay-ops",
                                          "--check-time", "--workload", "--scratch" };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        uint64_t n;
        size_t which = 0;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return FL_EXIT_OK; }
        if (!strcmp(a, "--quick")) { cfg.quick = true; continue; }
        if (!strcmp(a, "--large")) { cfg.large = true; continue; }
        int m = fl_cli_flag(argc, argv, &i, valued, sizeof valued / sizeof *valued, &which, &v);
        if (m == 0) return bad("unknown argument", a);
        if (m < 0 || !*v) return bad("missing value for", valued[which]);
        a = valued[which];
        if (!strcmp(a, "--only")) {
            if (!parse_groups(v, &cfg.groups))
                return bad("--only needs groups among filter,engine,rocksdb,testbed,scale, got", v);
        } else if (!strcmp(a, "--runs")) {
            if (!fl_cli_parse_u64(v, &n) || n < 1 || n > 1000) return bad("--runs needs 1..1000, got", v);
            cfg.runs = (unsigned)n;
        } else if (!strcmp(a, "--big-keys")) {
            if (!fl_cli_parse_u64(v, &n) || n < 1000 || n > 2000000000) return bad("--big-keys needs 1000..2000000000, got", v);
            cfg.big_keys = n;
        } else if (!strcmp(a, "--replay-ops")) {
            if (!fl_cli_parse_u64(v, &n) || n < 1000) return bad("--replay-ops needs a count >= 1000, got", v);
            cfg.replay_ops = n;
        } else if (!strcmp(a, "--check-time")) {
            if (!fl_cli_parse_seconds(v, &cfg.check_seconds)) return bad("--check-time needs seconds, got", v);
        } else if (!strcmp(a, "--csv")) cfg.csv_path = v;
        else if (!strcmp(a, "--workload")) cfg.workload = v;
        else cfg.scratch = v;
    }
    char err[2048] = "";
    fl_cli_catch_stops();
    cfg.interrupt = &fl_cli_stop;
    if (fl_bench_run(&cfg, stdout, err, sizeof err) != 0) {
        fprintf(stderr, "filterlab bench: %s\n", err);
        return fl_cli_stop ? 128 + fl_cli_stop : FL_EXIT_USAGE;
    }
    return fl_cli_stop ? 128 + fl_cli_stop : FL_EXIT_OK;
}
