/*
 * scale_bench.c -- the "scale" group: how checked replay grows with the
 * length of the workload.
 *
 * The testbed's mixed workload (fl_bench_mixed_write: keys from 2,000
 * groups of 100, so at most 200,000 live keys, reached early) at 100,000
 * and 1,000,000 ops, and with --large also at 10,000,000 (--quick: 10,000
 * and 100,000).  Each is written to a file in the scratch directory and
 * replayed by this same binary as `filterlab replay FILE --json`, every
 * check on, in a child process: what a user's replay costs, parsing
 * included.  Measured per size, once (a 10M-op run takes minutes): the wall
 * time, and the replay's peak resident memory as its JSON says
 * (`peak_rss_mib`: wait4's ru_maxrss would count this process's image,
 * which the child had before its exec).
 *
 * Rows: seconds, ops/s, MiB and live keys at the end per size; then, for
 * each 10x step in ops, the growth of memory against the growth of live
 * keys (target: at most 1.5x the live keys' growth -- memory follows the
 * live keys, not the ops) and the growth of time (target: at most 12x --
 * linear in ops, within 20% -- where the live keys grew by at most 20%:
 * while the tree is still growing, each op costs more, as flushes and
 * compactions move more bytes).  Beside the CSV (bench/out/results.csv under
 * `make bench`): scale.csv, scale.gp and, when gnuplot is installed,
 * scale.png, drawn from them.
 */
#include "bench_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define SCALE_MAX 3

typedef struct scale_point {
    uint64_t ops, live;
    double seconds;
    double peak_mib;
} scale_point;

/* Replays path in a child (this binary); fills seconds and peak_mib. */
static int replay_child(fl_bench *b, const char *path, scale_point *p) {
    char *argv[] = { "filterlab", "replay", (char *)path, "--json", NULL };
    char json[4096];
    if (fl_bench_run_self(b, "scale", argv, json, sizeof json, &p->seconds)) return -1;
    const char *at = strstr(json, "\"peak_rss_mib\":");
    if (!at) return fl_bench_fail(b, "scale: no peak_rss_mib in the replay's JSON: %.200s", json);
    p->peak_mib = strtod(at + strlen("\"peak_rss_mib\":"), NULL);
    return 0;
}

/* The directory of the CSV, where scale.csv and the plot go; false when
 * there is no CSV. */
static bool out_dir(const fl_bench *b, char *dir, size_t cap) {
    if (!b->cfg->csv_path) return false;
    snprintf(dir, cap, "%s", b->cfg->csv_path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    else snprintf(dir, cap, ".");
    return true;
}

static const char *const SCRIPT =
    "# scale.gp -- drawn by filterlab bench from scale.csv: checked replay of the\n"
    "# mixed workload, time and peak memory against ops (log-log).\n"
    "set datafile separator \",\"\n"
    "set key top left\n"
    "set logscale xy\n"
    "set grid\n"
    "set xlabel \"ops in the workload\"\n"
    "set ylabel \"seconds (wall)\"\n"
    "set y2label \"peak memory (MiB)\"\n"
    "set logscale y2\n"
    "set ytics nomirror\n"
    "set y2tics\n"
    "set title \"filterlab replay, every check on: growth with the workload\"\n"
    "set terminal pngcairo size 900,560 enhanced font \"DejaVu Sans,11\" background rgb \"white\"\n"
    "set output \"scale.png\"\n"
    "plot \"scale.csv\" using 1:2 skip 1 with linespoints lw 2 pt 7 title \"time (s)\", \\\n"
    "     \"scale.csv\" using 1:3 skip 1 axes x1y2 with linespoints lw 2 pt 5 title \"peak memory (MiB)\"\n"
    "set output\n";

static void write_plot(fl_bench *b, const scale_point *p, size_t n) {
    char dir[4096], path[4200];
    if (!out_dir(b, dir, sizeof dir)) return;
    snprintf(path, sizeof path, "%s/scale.csv", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        fl_bench_note(b, "scale", "scale.csv not written: %s: %s", path, strerror(errno));
        return;
    }
    fprintf(f, "ops,seconds,peak_mib,ops_per_s,live_keys\n");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%llu,%.3f,%.1f,%.0f,%llu\n", (unsigned long long)p[i].ops, p[i].seconds, p[i].peak_mib,
                (double)p[i].ops / p[i].seconds, (unsigned long long)p[i].live);
    bool ok = fclose(f) == 0;
    snprintf(path, sizeof path, "%s/scale.gp", dir);
    f = ok ? fopen(path, "w") : NULL;
    if (!f || fputs(SCRIPT, f) < 0) ok = false;
    if (f && fclose(f) != 0) ok = false;
    if (!ok) {
        fl_bench_note(b, "scale", "scale.csv or scale.gp not written in %s", dir);
        return;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, STDOUT_FILENO);
        if (chdir(dir) != 0) _exit(126);
        execlp("gnuplot", "gnuplot", "scale.gp", (char *)NULL);
        _exit(127);
    }
    int status = -1;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
        fl_bench_note(b, "scale", "plot: %s/scale.png (from scale.csv by scale.gp)", dir);
    else if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 127)
        fl_bench_note(b, "scale", "scale.png not drawn: gnuplot is not installed (scale.csv and "
                      "scale.gp are in %s)", dir);
    else
        fl_bench_note(b, "scale", "scale.png not drawn: gnuplot failed on %s/scale.gp", dir);
}

int fl_bench_scale(fl_bench *b) {
    scale_point p[SCALE_MAX];
    size_t n = 0;
    uint64_t first = b->cfg->quick ? 10000 : 100000;
    size_t sizes = b->cfg->large ? 3 : 2;
    for (size_t i = 0; i < sizes; i++) {
        p[n].ops = i == 0 ? first : p[n - 1].ops * 10;
        char path[4200];
        snprintf(path, sizeof path, "%s/scale-%llu.wl", b->scratch, (unsigned long long)p[n].ops);
        FILE *f = fopen(path, "w");
        if (!f) return fl_bench_fail(b, "scale: cannot write %s: %s", path, strerror(errno));
        int rc = fl_bench_mixed_write(f, p[n].ops, &p[n].live);
        if (fclose(f) != 0 || rc != 0) return fl_bench_fail(b, "scale: cannot write %s", path);
        fl_bench_progress(b, "scale: filterlab replay of %llu mixed ops, every check on",
                          (unsigned long long)p[n].ops);
        if (replay_child(b, path, &p[n]) != 0) return -1;
        remove(path);
        char name[96];
        snprintf(name, sizeof name, "checked replay of %llu ops: time", (unsigned long long)p[n].ops);
        fl_bench_add(b, "scale", name, p[n].seconds, "s");
        snprintf(name, sizeof name, "checked replay of %llu ops: rate", (unsigned long long)p[n].ops);
        fl_bench_add(b, "scale", name, (double)p[n].ops / p[n].seconds, "ops/s");
        snprintf(name, sizeof name, "checked replay of %llu ops: peak memory", (unsigned long long)p[n].ops);
        fl_bench_add(b, "scale", name, p[n].peak_mib, "MiB");
        snprintf(name, sizeof name, "checked replay of %llu ops: live keys at the end", (unsigned long long)p[n].ops);
        fl_bench_add(b, "scale", name, (double)p[n].live, "keys");
        n++;
    }
    for (size_t i = 1; i < n; i++) {
        char name[96];
        double t = p[i].seconds / p[i - 1].seconds, m = p[i].peak_mib / p[i - 1].peak_mib;
        double live = p[i - 1].live ? (double)p[i].live / (double)p[i - 1].live : 1.0;
        unsigned long long from = (unsigned long long)p[i - 1].ops, to = (unsigned long long)p[i].ops;
        snprintf(name, sizeof name, "time growth %llu -> %llu ops (10x)", from, to);
        if (live <= 1.2) fl_bench_add_target(b, "scale", name, t, "x", "<= 12x", t <= 12.0);
        else fl_bench_add(b, "scale", name, t, "x");
        snprintf(name, sizeof name, "live key growth %llu -> %llu ops", from, to);
        fl_bench_add(b, "scale", name, live, "x");
        snprintf(name, sizeof name, "memory growth / live key growth %llu -> %llu ops", from, to);
        fl_bench_add_target(b, "scale", name, m / live, "x", "<= 1.5x", m / live <= 1.5);
    }
    fl_bench_note(b, "scale", "the mixed workload (at most 200,000 live keys), each size replayed once "
                  "in a child: wall time and peak RSS%s", b->cfg->large ? "" : "; --large adds 10,000,000 ops");
    write_plot(b, p, n);
    return 0;
}
