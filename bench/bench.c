/*
 * bench.c -- the driver of `filterlab bench`: runs the groups, keeps the
 * rows, prints the table and writes the CSV (bench.h).  Also the helpers
 * the groups share: the clock, medians, scratch databases, the L0 keys.
 */
#include "bench_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_NOTES 32

static char notes[MAX_NOTES][256];
static size_t note_count;

void fl_bench_defaults(fl_bench_config *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cfg->groups = FL_BENCH_ALL;
    cfg->runs = 5;
}

/* ---- Time ---------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double fl_bench_median(double *v, size_t n) {
    if (n == 0) return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- Rows ---------------------------------------------------------------- */

static void add_row(fl_bench *b, const char *group, const char *name, double value,
                    const char *unit, const char *target, int met) {
    if (b->count == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 64;
        fl_bench_row *rows = realloc(b->rows, cap * sizeof *rows);
        if (!rows) return;                       /* the row is lost, not the run */
        b->rows = rows;
        b->cap = cap;
    }
    fl_bench_row *r = &b->rows[b->count++];
    memset(r, 0, sizeof *r);
    snprintf(r->group, sizeof r->group, "%s", group);
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->unit, sizeof r->unit, "%s", unit);
    snprintf(r->target, sizeof r->target, "%s", target);
    r->value = value;
    r->runs = b->cfg->runs;
    r->met = met;
}

void fl_bench_add(fl_bench *b, const char *group, const char *name, double value,
                  const char *unit) {
    add_row(b, group, name, value, unit, "", -1);
}

void fl_bench_add_target(fl_bench *b, const char *group, const char *name, double value,
                         const char *unit, const char *target, bool met) {
    add_row(b, group, name, value, unit, target, met ? 1 : 0);
}

void fl_bench_note(fl_bench *b, const char *group, const char *fmt, ...) {
    (void)b;
    if (note_count == MAX_NOTES) return;
    int n = snprintf(notes[note_count], sizeof notes[0], "%-8s ", group);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(notes[note_count] + n, sizeof notes[0] - (size_t)n, fmt, ap);
    va_end(ap);
    note_count++;
}

void fl_bench_progress(fl_bench *b, const char *fmt, ...) {
    if (!b->cfg->progress) return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(b->cfg->progress, "bench: ");
    vfprintf(b->cfg->progress, fmt, ap);
    fputc('\n', b->cfg->progress);
    fflush(b->cfg->progress);
    va_end(ap);
}

int fl_bench_fail(fl_bench *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->err, b->err_len, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- This binary, as a user runs it ----------------------------------------- */

/* The start of file path, NUL-ended, in buf (cap bytes at most). */
static void read_start(const char *path, char *buf, size_t cap) {
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
    if (f) fclose(f);
    buf[n] = 0;
}

int fl_bench_run_self(fl_bench *b, const char *name, char *const argv[], char *out, size_t cap,
                      double *seconds) {
    char out_path[4200], errpath[4200];
    snprintf(out_path, sizeof out_path, "%s/%s.out", b->scratch, name);
    snprintf(errpath, sizeof errpath, "%s/%s.err", b->scratch, name);
    fflush(NULL);
    double t0 = fl_now();
    pid_t pid = fork();
    if (pid < 0) return fl_bench_fail(b, "%s: cannot fork: %s", name, strerror(errno));
    if (pid == 0) {
        int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int err = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (out >= 0) dup2(out, STDOUT_FILENO);
        if (err >= 0) dup2(err, STDERR_FILENO);
        setenv("TMPDIR", b->scratch, 1);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        execv("/proc/self/exe", argv);
        fprintf(stderr, "cannot run /proc/self/exe: %s\n", strerror(errno));
        _exit(127);
    }
    int status = 0;
    for (;;) {
        pid_t got = waitpid(pid, &status, WNOHANG);
        if (got == pid) break;
        if (got < 0 && errno != EINTR) return fl_bench_fail(b, "%s: waitpid: %s", name, strerror(errno));
        if (b->cfg->interrupt && *b->cfg->interrupt) kill(pid, SIGTERM);
        struct timespec ts = { 0, 20000000 };
        nanosleep(&ts, NULL);
    }
    *seconds = fl_now() - t0;
    if (b->cfg->interrupt && *b->cfg->interrupt) return fl_bench_fail(b, "%s: interrupted", name);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char said[512];
        read_start(errpath, said, sizeof said);
        return fl_bench_fail(b, "%s: `filterlab %s` failed (status %d): %s", name, argv[1], status, said);
    }
    read_start(out_path, out, cap);
    return 0;
}

/* ---- Databases ------------------------------------------------------------- */

int fl_bench_dbdir(fl_bench *b, const char *name, char *out, size_t out_len) {
    snprintf(out, out_len, "%s/%s", b->scratch, name);
    fl_remove_tree(out);
    return 0;
}

uint64_t fl_bench_l0_keys(const fl_bench *b) {
    return b->cfg->quick ? 20000 : 200000;
}

size_t fl_bench_l0_key(uint64_t number, uint8_t out[16]) {
    out[0] = 'k';
    for (int i = 9; i >= 1; i--) {
        out[i] = (uint8_t)('0' + number % 10);
        number /= 10;
    }
    return 10;
}

/* ---- Output ---------------------------------------------------------------- */

static void print_table(const fl_bench *b, FILE *out) {
    fprintf(out, "%-8s %-58s %14s %-10s %s\n", "group", "benchmark", "median", "unit", "target");
    const char *group = "";
    for (size_t i = 0; i < b->count; i++) {
        const fl_bench_row *r = &b->rows[i];
        if (strcmp(r->group, group) != 0) fputc('\n', out);
        group = r->group;
        char value[32];
        if (isnan(r->value)) snprintf(value, sizeof value, "-");
        else if (fabs(r->value) >= 1e6) snprintf(value, sizeof value, "%.0f", r->value);
        else if (fabs(r->value) >= 100) snprintf(value, sizeof value, "%.1f", r->value);
        else snprintf(value, sizeof value, "%.3f", r->value);
        fprintf(out, "%-8s %-58s %14s %-10s", r->group, r->name, value, r->unit);
        if (r->met >= 0) fprintf(out, " %s: %s", r->target, r->met ? "met" : "NOT MET");
        fputc('\n', out);
    }
    if (note_count) fputc('\n', out);
    for (size_t i = 0; i < note_count; i++) fprintf(out, "note: %s\n", notes[i]);
}

static void csv_field(FILE *f, const char *s) {
    if (!strpbrk(s, ",\"\n")) { fputs(s, f); return; }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static int write_csv(fl_bench *b, const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) return fl_bench_fail(b, "cannot write %s: %m", path);
    fprintf(f, "group,benchmark,value,unit,runs,target,met\n");
    for (size_t i = 0; i < b->count; i++) {
        const fl_bench_row *r = &b->rows[i];
        csv_field(f, r->group);
        fputc(',', f);
        csv_field(f, r->name);
        fprintf(f, ",%.6g,", r->value);
        csv_field(f, r->unit);
        fprintf(f, ",%u,", r->runs);
        csv_field(f, r->target);
        fprintf(f, ",%s\n", r->met < 0 ? "" : r->met ? "yes" : "no");
    }
    if (fclose(f) != 0) return fl_bench_fail(b, "cannot write %s: %m", path);
    return 0;
}

/* ---- Driver ---------------------------------------------------------------- */

typedef struct watch { const fl_bench *b; bool done; pthread_mutex_t lock; } watch;

/* Abandons a group that does not stop within a second of a signal. */
static void *watcher(void *arg) {
    watch *w = arg;
    double seen = 0;
    for (;;) {
        struct timespec tick = { 0, 50000000 };
        nanosleep(&tick, NULL);
        pthread_mutex_lock(&w->lock);
        bool done = w->done;
        pthread_mutex_unlock(&w->lock);
        if (done) return NULL;
        int sig = *w->b->cfg->interrupt;
        if (!sig) continue;
        if (!seen) seen = fl_now();
        if (fl_now() - seen < 0.5) continue;
        fl_remove_tree(w->b->scratch);
        fprintf(stderr, "\nfilterlab bench: interrupted (signal %d); the group in progress was "
                "abandoned\n", sig);
        _exit(128 + sig);
    }
}

int fl_bench_run(const fl_bench_config *cfg, FILE *out, char *err, size_t err_len) {
    fl_bench b = { .cfg = cfg, .err = err, .err_len = err_len };
    note_count = 0;
    const char *base = cfg->scratch;
    if (!base || !*base) base = getenv("TMPDIR");
    if (!base || !*base) base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(b.scratch, sizeof b.scratch, "%s/filterlab-bench.XXXXXX", base);
    if (!mkdtemp(b.scratch)) {
        snprintf(err, err_len, "cannot make a scratch directory in %s: %m", base);
        return -1;
    }
    static const struct { unsigned bit; int (*run)(fl_bench *); } groups[] = {
        { FL_BENCH_FILTER, fl_bench_filter },   { FL_BENCH_ENGINE, fl_bench_engine },
        { FL_BENCH_ROCKSDB, fl_bench_rocksdb }, { FL_BENCH_TESTBED, fl_bench_testbed },
        { FL_BENCH_SCALE, fl_bench_scale },
    };
    int rc = 0;
    watch w = { .b = &b };
    pthread_t t;
    pthread_mutex_init(&w.lock, NULL);
    bool watching = cfg->interrupt && pthread_create(&t, NULL, watcher, &w) == 0;
    for (size_t i = 0; i < sizeof groups / sizeof groups[0] && rc == 0; i++) {
        if (cfg->interrupt && *cfg->interrupt) break;
        if (cfg->groups & groups[i].bit) rc = groups[i].run(&b);
    }
    if (watching) {
        pthread_mutex_lock(&w.lock);
        w.done = true;
        pthread_mutex_unlock(&w.lock);
        pthread_join(t, NULL);
    }
    pthread_mutex_destroy(&w.lock);
    fl_remove_tree(b.scratch);
    if (cfg->interrupt && *cfg->interrupt)
        fprintf(stderr, "filterlab bench: interrupted (signal %d); the groups measured so far:\n",
                (int)*cfg->interrupt);
    if (b.count || note_count) print_table(&b, out);   /* a skipped group says so */
    if (rc == 0 && cfg->csv_path) rc = write_csv(&b, cfg->csv_path);
    free(b.rows);
    return rc;
}
