/*
 * report.c -- `filterlab report`, the pipeline (SPEC 12): load the
 * workloads, plan one job per configuration, replay them in worker
 * processes, turn the measurements into rows, write results.csv, the plots
 * and index.html, and print a summary.
 *
 * Everything that can be refused is refused before the first replay: a
 * workload that does not parse, an option it sets that the engine rejects,
 * a policy list a configuration would use (an unknown extractor, say).
 * Then nothing is half-written: the outputs are written only when every
 * replay ran; a violation is a result to show, not a reason to stop.
 */
#include "report_internal.h"

#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MESSAGES_SHOWN 20      /* violation lines kept per replay */

/* ---- Small helpers ------------------------------------------------------------ */

void fl_report_replay_command(const fl_report_state *st, const fl_report_job *j, char *out,
                              size_t cap) {
    snprintf(out, cap, "filterlab replay");
    fl_shell_append_word(out, cap, j->violation_wl);
    if (st->engines[j->engine] != &fl_engine_filterlab)
        fl_shell_append_flag(out, cap, "--engine", st->engines[j->engine]->name);
    for (size_t i = 0; i < st->cfg->nplugins; i++)
        fl_shell_append_flag(out, cap, "--plugin", st->cfg->plugins[i]);
    if (st->cfg->call_timeout != FL_REPORT_CALL_TIMEOUT) {
        char t[32];
        snprintf(t, sizeof t, "%g", st->cfg->call_timeout);
        fl_shell_append_flag(out, cap, "--call-timeout", t);
    }
}

int fl_report_out_path(const fl_report_state *st, const char *name, char *out, size_t cap) {
    int n = snprintf(out, cap, "%s/%s", st->cfg->out_dir, name);
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

double fl_report_headline_bits(const fl_report_config *cfg) {
    double best = cfg->nbits ? cfg->bits[0] : 10;
    for (size_t i = 0; i < cfg->nbits; i++)
        if (fabs(cfg->bits[i] - 10) < fabs(best - 10)) best = cfg->bits[i];
    return best;
}

const fl_report_row *fl_report_find_row(const fl_report_state *st, size_t workload, size_t engine,
                                        fl_report_mode mode, double bits, fl_target_kind kind) {
    for (size_t i = 0; i < st->nrows; i++) {
        const fl_report_row *r = &st->rows[i];
        if (st->row_jobs[i]->workload == workload && st->row_jobs[i]->engine == engine &&
            r->mode == mode && r->bits == bits && r->kind == kind)
            return r;
    }
    return NULL;
}

/* ---- Loading the workloads ---------------------------------------------------- */

static int read_file(const char *path, char **text, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        char *grown = realloc(buf, cap * 2);
        if (!grown) { free(buf); buf = NULL; errno = ENOMEM; break; }
        buf = grown;
        cap *= 2;
    }
    int bad = !buf || ferror(f);
    int e = errno;
    fclose(f);
    if (bad) { free(buf); errno = e ? e : EIO; return -1; }
    *text = buf;
    *len = n;
    return 0;
}

/* The file's base name without ".wl", in [A-Za-z0-9._-], unique. */
static void name_workload(fl_report_state *st, size_t i) {
    const char *path = st->wls[i].path;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 3 && strcmp(base + n - 3, ".wl") == 0) n -= 3;
    char name[FL_REPORT_NAME_MAX - 8];
    size_t k = 0;
    for (size_t j = 0; j < n && k + 1 < sizeof name; j++) {
        char c = base[j];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '.' || c == '_' || c == '-';
        name[k++] = ok ? c : '_';
    }
    name[k] = '\0';
    if (k == 0 || name[0] == '.' || name[0] == '-') {
        memmove(name + 2, name, k + 1 < sizeof name - 2 ? k + 1 : sizeof name - 2);
        name[0] = 'w';
        name[1] = '_';
        name[sizeof name - 1] = '\0';
    }
    char *out = st->wls[i].name;
    snprintf(out, FL_REPORT_NAME_MAX, "%s", name);
    for (unsigned dup = 2;; dup++) {
        bool taken = false;
        for (size_t j = 0; j < i; j++) taken = taken || strcmp(st->wls[j].name, out) == 0;
        if (!taken) break;
        snprintf(out, FL_REPORT_NAME_MAX, "%s-%u", name, dup);
    }
}

/* Checks the options the sweep keeps (all but policies, compactor and
 * legacy_filters), so a bad one is FILE:LINE before anything runs. */
static int preflight(const fl_report_workload *w) {
    fl_options opt;
    fl_options_init(&opt);
    int rc = FL_OK;
    for (size_t i = 0; i < w->wl.count && rc == FL_OK; i++) {
        const fl_op *op = &w->wl.ops[i];
        if (op->kind != FL_OP_OPEN && op->kind != FL_OP_REOPEN) continue;
        for (size_t k = 0; k < op->opt_count && rc == FL_OK; k++) {
            const char *key = op->opts[k].key;
            if (!strcmp(key, "policies") || !strcmp(key, "compactor") || !strcmp(key, "legacy_filters"))
                continue;
            char err[512] = "";
            rc = fl_options_set(&opt, key, op->opts[k].value, err, sizeof err);
            if (rc != FL_OK)
                fprintf(stderr, "%s:%u: %s\n", w->path, op->line, *err ? err : fl_strerror(rc));
        }
    }
    fl_options_free(&opt);
    return rc;
}

static int load_workloads(fl_report_state *st) {
    const fl_report_config *cfg = st->cfg;
    st->wls = calloc(cfg->nworkloads ? cfg->nworkloads : 1, sizeof *st->wls);
    if (!st->wls) { fprintf(stderr, "filterlab report: out of memory\n"); return -1; }
    for (size_t i = 0; i < cfg->nworkloads; i++) {
        fl_report_workload *w = &st->wls[i];
        char *text = NULL, err[2048] = "";
        size_t len = 0;
        w->path = cfg->workloads[i];
        st->nwls++;
        if (read_file(w->path, &text, &len) != 0) {
            fprintf(stderr, "filterlab report: %s: %s\n", w->path, strerror(errno));
            return -1;
        }
        int rc = fl_workload_parse(text, len, w->path, &w->wl, err, sizeof err);
        if (rc == 0) {
            if (cfg->extractor) {
                snprintf(w->extractor, sizeof w->extractor, "%s", cfg->extractor);
                w->extractor_source = "--extractor";
            } else {
                w->extractor_source = fl_report_workload_extractor(text, len, &w->wl, w->extractor,
                                                                   sizeof w->extractor);
            }
        }
        free(text);
        if (rc != 0) {
            fprintf(stderr, "%s\n", *err ? err : "filterlab report: cannot parse the workload");
            return -1;
        }
        if (preflight(w) != FL_OK) return -1;
        name_workload(st, i);
    }
    return 0;
}

/* ---- Which engines are built -------------------------------------------------- */

static void ignore_violation(void *arg, const fl_contract_violation *v);

/* Opens an empty database on engine e in a directory of its own under
 * scratch: FL_ERR_NOTFOUND (with how to get it in err) when it is not
 * built, else FL_OK (whatever else its open says is for the replays). */
static int engine_built(const fl_report_state *st, const fl_engine_ops *e, char *err, size_t cap) {
    char dir[PATH_MAX];
    const char *base = getenv("TMPDIR");
    if (!base || !*base) base = "/tmp";
    snprintf(dir, sizeof dir, "%s/filterlab-probe.XXXXXX", base);
    if (!mkdtemp(dir)) return FL_OK;                 /* the replays will say */
    fl_options opt;
    fl_calls *calls = NULL;
    fl_engine *db = NULL;
    char oerr[512] = "";
    fl_options_init(&opt);
    opt.sync = false;
    int rc = fl_calls_new(st->reg, &calls);
    if (rc == FL_OK) {
        fl_calls_set_sink(calls, ignore_violation, NULL);
        opt.calls = calls;
        rc = fl_options_set(&opt, "policies", "none", oerr, sizeof oerr);
    }
    if (rc == FL_OK) rc = e->open(e, dir, st->reg, &opt, &db, err, cap);
    if (db) e->close(db, NULL, 0);
    fl_options_free(&opt);
    fl_calls_free(calls);
    fl_remove_tree(dir);
    return rc == FL_ERR_NOTFOUND ? rc : FL_OK;
}

/* The probe of engine `job`, in a worker process (an engine opened in the
 * parent, RocksDB's threads say, would not survive the replays' forks):
 * its status, then its message. */
typedef struct probe_wire { int rc; char err[1024]; } probe_wire;

typedef struct probe_run { fl_report_state *st; probe_wire *out; } probe_run;

static int probe_job(void *arg, size_t index, int fd) {
    fl_report_state *st = ((probe_run *)arg)->st;
    probe_wire wire;
    memset(&wire, 0, sizeof wire);
    wire.rc = engine_built(st, st->engines[index], wire.err, sizeof wire.err);
    return fl_write_all(fd, &wire, sizeof wire) ? 3 : 0;
}

static void probe_done(void *arg, size_t index, const void *data, size_t len, int status) {
    probe_wire *w = &((probe_run *)arg)->out[index];
    (void)status;
    if (len >= sizeof *w) memcpy(w, data, sizeof *w);   /* else: FL_OK, the replays will say */
    w->err[sizeof w->err - 1] = '\0';
}

/* Leaves out the engines that are not built (cfg->drop_unavailable), or
 * fails on the first one. */
static int probe_engines(fl_report_state *st) {
    size_t kept = 0, n = st->nengines;
    probe_wire *wires = calloc(n, sizeof *wires);
    if (!wires) { fprintf(stderr, "filterlab report: out of memory\n"); return -1; }
    probe_run pr = { st, wires };
    if (n > 1 && fl_pool_run(n, (unsigned)n, probe_job, probe_done, &pr, false, "engines") != 0) {
        fprintf(stderr, "filterlab report: cannot start a worker process: %s\n", strerror(errno));
        free(wires);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const fl_engine_ops *e = st->engines[i];
        const char *err = *wires[i].err ? wires[i].err : "not built";
        if (e == &fl_engine_filterlab || wires[i].rc != FL_ERR_NOTFOUND) {
            if (kept < sizeof st->engine_buf / sizeof *st->engine_buf) st->engine_buf[kept++] = e;
            continue;
        }
        if (!st->cfg->drop_unavailable) {
            fprintf(stderr, "filterlab report: --engine %s: %s\n", e->name, err);
            free(wires);
            return -1;
        }
        fprintf(stderr, "filterlab report: --engine %s: left out: %s\n", e->name, err);
        size_t used = strlen(st->left_out);
        snprintf(st->left_out + used, sizeof st->left_out - used, "%s%s: %s", used ? "\n" : "",
                 e->name, err);
    }
    free(wires);
    st->engines = st->engine_buf;
    st->nengines = kept;
    return 0;
}

/* ---- Planning the jobs -------------------------------------------------------- */

static void ignore_violation(void *arg, const fl_contract_violation *v) { (void)arg; (void)v; }

static int check_policies(const fl_report_state *st, const fl_report_workload *w,
                          const char *policies) {
    char err[1024] = "";
    fl_policy_list list = { NULL, 0 };
    fl_calls *calls;
    if (fl_calls_new(st->reg, &calls) != FL_OK) return -1;
    fl_calls_set_sink(calls, ignore_violation, NULL);     /* the replay finds those */
    int rc = fl_policy_list_parse(st->reg, calls, policies, &list, err, sizeof err);
    if (rc == FL_OK) fl_policy_list_free(calls, &list);
    fl_calls_free(calls);
    if (rc == FL_OK) return 0;
    if (w->extractor[0])
        fprintf(stderr, "filterlab report: %s: extractor \"%s\" (from %s): policies=\"%s\": %s\n",
                w->path, w->extractor, w->extractor_source, policies, err);
    else
        fprintf(stderr, "filterlab report: %s: policies=\"%s\": %s\n", w->path, policies, err);
    return -1;
}

static int plan_jobs(fl_report_state *st) {
    const fl_report_config *cfg = st->cfg;
    size_t cap = st->nwls * st->nengines * cfg->nmodes * (cfg->nbits ? cfg->nbits : 1);
    st->jobs = calloc(cap ? cap : 1, sizeof *st->jobs);
    if (!st->jobs) { fprintf(stderr, "filterlab report: out of memory\n"); return -1; }
    for (size_t i = 0; i < st->nwls; i++) {
        fl_report_workload *w = &st->wls[i];
        bool skipped = false;
        for (size_t m = 0; m < cfg->nmodes; m++) {
            fl_report_mode mode = cfg->modes[m];
            if (fl_report_mode_needs_extractor(mode) && !w->extractor[0]) {
                skipped = true;
                continue;
            }
            size_t nb = mode == FL_MODE_NONE ? 1 : cfg->nbits;
            for (size_t b = 0; b < nb * st->nengines; b++) {
                fl_report_job *j = &st->jobs[st->njobs];
                j->workload = i;
                j->engine = b % st->nengines;
                j->mode = mode;
                j->bits = mode == FL_MODE_NONE ? NAN : cfg->bits[b / st->nengines];
                if (fl_report_policy_list(mode, j->bits, w->extractor, j->policies,
                                          sizeof j->policies) != 0) {
                    fprintf(stderr, "filterlab report: %s: extractor spec too long\n", w->path);
                    return -1;
                }
                if (check_policies(st, w, j->policies) != 0) return -1;
                st->njobs++;
            }
        }
        if (skipped) {
            snprintf(w->note, sizeof w->note, "modes whole+prefix and prefix-only skipped: the "
                     "workload names no prefix extractor (add a line \"# extractor: SPEC\" or "
                     "pass --extractor SPEC)");
            fprintf(stderr, "filterlab report: %s: note: %s\n", w->path, w->note);
        }
    }
    return 0;
}

/* ---- Running the jobs (the child's side, then the parent's) -------------------- */

/* What a child sends back: this, then msg_len bytes of message lines. */
typedef struct job_wire {
    int               rc;
    fl_report_measure m;
    char              err[1024];
    char              violation_wl[PATH_MAX];
    uint64_t          msg_len;
} job_wire;

/* DIR/violations/NAME-MODE-BITS.wl: where the job's workload goes if its
 * replay finds a violation.  -1 when the path is too long. */
static int violation_path(const fl_report_state *st, const fl_report_job *j, char *out, size_t cap) {
    const fl_report_workload *w = &st->wls[j->workload];
    const fl_engine_ops *e = st->engines[j->engine];
    char eng[64] = "";
    if (e != &fl_engine_filterlab) snprintf(eng, sizeof eng, "-%s", e->name);
    int n;
    if (j->mode == FL_MODE_NONE)
        n = snprintf(out, cap, "%s/violations/%s%s-none.wl", st->cfg->out_dir, w->name, eng);
    else
        n = snprintf(out, cap, "%s/violations/%s%s-%s-%g.wl", st->cfg->out_dir, w->name, eng,
                     fl_report_mode_name(j->mode), j->bits);
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

/* The overridden workload of a replay that found a violation, written as a
 * file `filterlab replay` takes. */
static void save_violating_workload(const fl_report_state *st, const fl_report_job *j,
                                    char *out, size_t cap) {
    const fl_report_workload *w = &st->wls[j->workload];
    char dir[PATH_MAX];
    fl_workload copy;
    out[0] = '\0';
    if (fl_report_out_path(st, "violations", dir, sizeof dir) != 0) return;
    if (fl_mkdir_p(dir) != 0 || violation_path(st, j, out, cap) != 0) { out[0] = 0; return; }
    if (fl_report_override(&w->wl, j->policies, &copy) != 0) { out[0] = 0; return; }
    /* Say where it comes from, above the original description. */
    char *note = NULL;
    if (asprintf(&note, "saved by filterlab report: %s with every open and reopen given\n"
                 "policies=\"%s\" (mode %s), where a replay found a violation.\n%s", w->path,
                 j->policies, fl_report_mode_name(j->mode), copy.description) >= 0) {
        free(copy.description);
        copy.description = note;
    }
    FILE *f = fopen(out, "w");
    int bad = !f || fl_workload_print(&copy, f) != 0;
    if (f) bad |= fclose(f) != 0;
    if (bad) out[0] = '\0';
    fl_report_override_free(&copy);
}

static int run_job(void *arg, size_t index, int fd) {
    fl_report_state *st = arg;
    fl_report_job *j = &st->jobs[index];
    const fl_report_workload *w = &st->wls[j->workload];
    job_wire wire;
    char *msg = NULL;
    size_t msg_len = 0;
    memset(&wire, 0, sizeof wire);
    /* a file, not memory: the replay writes its messages from a child */
    FILE *messages = tmpfile();
    wire.rc = fl_report_replay(st->reg, st->engines[j->engine], &w->wl, w->path, j->policies, st->scratch, messages,
                               MESSAGES_SHOWN, st->cfg->call_timeout, &wire.m, wire.err,
                               sizeof wire.err);
    if (messages) {
        long end = fseek(messages, 0, SEEK_END) == 0 ? ftell(messages) : -1;
        if (end > 0 && (msg = malloc((size_t)end)) && fseek(messages, 0, SEEK_SET) == 0)
            msg_len = fread(msg, 1, (size_t)end, messages);
        fclose(messages);
    }
    if (wire.rc == FL_OK && wire.m.sum.violations)
        save_violating_workload(st, j, wire.violation_wl, sizeof wire.violation_wl);
    wire.msg_len = msg ? msg_len : 0;
    int bad = fl_write_all(fd, &wire, sizeof wire) || (wire.msg_len && fl_write_all(fd, msg, msg_len));
    free(msg);
    return bad ? 3 : 0;
}

static void job_done(void *arg, size_t index, const void *data, size_t len, int status) {
    fl_report_state *st = arg;
    fl_report_job *j = &st->jobs[index];
    job_wire wire;
    j->done = true;
    if (len < sizeof wire || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        j->rc = FL_ERR_IO;
        if (WIFSIGNALED(status))
            snprintf(j->err, sizeof j->err, "%s: the replay with policies=\"%s\" died of signal %d",
                     st->wls[j->workload].path, j->policies, WTERMSIG(status));
        else
            snprintf(j->err, sizeof j->err, "%s: the replay with policies=\"%s\" failed (exit "
                     "status %d) without a result", st->wls[j->workload].path, j->policies,
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return;
    }
    memcpy(&wire, data, sizeof wire);
    j->rc = wire.rc;
    j->m = wire.m;
    memcpy(j->err, wire.err, sizeof j->err);
    j->err[sizeof j->err - 1] = '\0';
    memcpy(j->violation_wl, wire.violation_wl, sizeof j->violation_wl);
    j->violation_wl[sizeof j->violation_wl - 1] = '\0';
    size_t n = len - sizeof wire < wire.msg_len ? len - sizeof wire : (size_t)wire.msg_len;
    if (n && (j->messages = malloc(n + 1))) {
        memcpy(j->messages, (const char *)data + sizeof wire, n);
        j->messages[n] = '\0';
    }
}

static unsigned online_cpus(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

/* The configuration's refusal without the open line and the policies it
 * repeats: "...cannot express it: `open DIR ...`: option policies=P: WHY
 * (policies="P")" -> "WHY". */
static void skip_reason(fl_report_job *j) {
    static const char tag[] = "cannot express it: ";
    const char *p = strstr(j->err, tag) + sizeof tag - 1;
    char opt[600], tail[600];
    if (*p == '`') {
        const char *q = strstr(p + 1, "`: ");
        if (q) p = q + 3;
    }
    snprintf(opt, sizeof opt, "option policies=%s: ", j->policies);
    if (strncmp(p, opt, strlen(opt)) == 0) p += strlen(opt);
    snprintf(j->skip_reason, sizeof j->skip_reason, "%s", p);
    snprintf(tail, sizeof tail, " (policies=\"%s\")", j->policies);
    size_t n = strlen(j->skip_reason), t = strlen(tail);
    if (n > t && strcmp(j->skip_reason + n - t, tail) == 0) j->skip_reason[n - t] = '\0';
    j->skipped = true;
}

static int run_jobs(fl_report_state *st) {
    const char *base = getenv("TMPDIR");
    if (!base || !*base) base = "/tmp";
    snprintf(st->scratch, sizeof st->scratch, "%s/filterlab-report.XXXXXX", base);
    if (!mkdtemp(st->scratch)) {
        fprintf(stderr, "filterlab report: cannot create a temporary directory in %s: %s\n", base,
                strerror(errno));
        st->scratch[0] = '\0';
        return 2;
    }
    st->jobs_used = st->cfg->jobs ? st->cfg->jobs : online_cpus();
    /* A workload a previous run saved for a configuration that now holds
     * would be mistaken for a current violation. */
    for (size_t i = 0; i < st->njobs; i++) {
        char old[PATH_MAX];
        if (violation_path(st, &st->jobs[i], old, sizeof old) == 0) remove(old);
    }
    int rc = fl_pool_run(st->njobs, st->jobs_used, run_job, job_done, st, st->cfg->progress, "replays");
    int e = errno;
    fl_remove_tree(st->scratch);
    if (rc > 0) {
        fprintf(stderr, "filterlab report: interrupted\n");
        return rc;
    }
    if (rc < 0) {
        fprintf(stderr, "filterlab report: cannot start a worker process: %s\n", strerror(e));
        return 2;
    }
    int failed = 0;
    for (size_t i = 0; i < st->njobs; i++) {
        fl_report_job *j = &st->jobs[i];
        if (j->done && j->rc == FL_OK) continue;
        if (j->done && j->rc == FL_ERR_INVALID && strstr(j->err, "cannot express it")) {
            skip_reason(j);
            continue;
        }
        failed++;
        fprintf(stderr, "filterlab report: %s\n", j->done ? j->err : "a replay did not run");
    }
    return failed ? 2 : 0;
}

/* ---- Rows and CSV -------------------------------------------------------------- */

static int build_rows(fl_report_state *st) {
    const fl_report_config *cfg = st->cfg;
    size_t cap = 2 * st->nwls * st->nengines * FL_MODE_COUNT * (cfg->nbits ? cfg->nbits : 1);
    st->rows = calloc(cap ? cap : 1, sizeof *st->rows);
    st->row_jobs = calloc(cap ? cap : 1, sizeof *st->row_jobs);
    if (!st->rows || !st->row_jobs) return -1;
    /* Rows in the order workload, engine, mode (canonical), bits, kind. */
    for (size_t w = 0; w < st->nwls; w++) {
        for (size_t e = 0; e < st->nengines; e++)
        for (int mode = 0; mode < FL_MODE_COUNT; mode++) {
            for (size_t j = 0; j < st->njobs; j++) {
                const fl_report_job *job = &st->jobs[j];
                if (job->workload != w || job->engine != e || (int)job->mode != mode ||
                    job->skipped)
                    continue;
                st->violations += job->m.sum.violations;
                size_t nb = mode == FL_MODE_NONE ? cfg->nbits : 1;
                for (size_t b = 0; b < nb; b++) {
                    double bits = mode == FL_MODE_NONE ? cfg->bits[b] : job->bits;
                    fl_report_rows(&job->m, st->engines[e]->name, st->wls[w].name, job->mode, bits,
                                   job->policies,
                                   &st->rows[st->nrows]);
                    for (int k = 0; k < 2; k++) st->row_jobs[st->nrows++] = job;
                }
            }
        }
    }
    return 0;
}

/* Written to a temporary name, then renamed: a reader never sees half. */
static int write_csv(const fl_report_state *st) {
    char path[PATH_MAX], tmp[PATH_MAX + 8];
    if (fl_report_out_path(st, "results.csv", path, sizeof path) != 0) return -1;
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "filterlab report: %s: %s\n", tmp, strerror(errno));
        return -1;
    }
    fl_report_csv_header(f);
    for (size_t i = 0; i < st->nrows; i++) fl_report_csv_row(f, &st->rows[i]);
    if (ferror(f) | fclose(f) || rename(tmp, path) != 0) {
        fprintf(stderr, "filterlab report: writing %s: %s\n", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

/* ---- Summary on stdout --------------------------------------------------------- */

static void print_summary(const fl_report_state *st) {
    const fl_report_config *cfg = st->cfg;
    double hb = fl_report_headline_bits(cfg);
    printf("filterlab report: %zu replays of %zu workload%s in %.1f s (%u worker%s)\n", st->njobs,
           st->nwls, st->nwls == 1 ? "" : "s", st->elapsed_s, st->jobs_used,
           st->jobs_used == 1 ? "" : "s");
    for (size_t w = 0; w < st->nwls; w++) {
        const fl_report_workload *wl = &st->wls[w];
        printf("%s (%zu ops", wl->name, wl->wl.count);
        if (wl->extractor[0]) printf("; extractor %s, from: %s", wl->extractor, wl->extractor_source);
        printf("):\n");
        for (size_t e = 0; e < st->nengines; e++) {
        const char *en = st->nengines > 1 ? st->engines[e]->name : NULL;
        const fl_report_row *r = fl_report_find_row(st, w, e, FL_MODE_WHOLE, hb, FL_TARGET_POINT);
        const char *ind = en ? "    " : "  ";
        if (en) printf("  %s:\n", en);
        if (r && r->eligible) {
            bool within = !isnan(r->expected_fp_rate) && r->expected_fp_rate >= r->fp_lo &&
                          r->expected_fp_rate <= r->fp_hi;
            printf("%spoint FP rate at %g bits/key, whole: %.4f%% [%.4f%%, %.4f%%] (95%% Wilson, "
                   "%" PRIu64 " probes); expected %.4f%%: %s", ind, hb, 100 * r->fp_rate,
                   100 * r->fp_lo, 100 * r->fp_hi, r->eligible, 100 * r->expected_fp_rate,
                   within ? "within the interval" : "OUTSIDE the interval");
            if (!isnan(r->p9_sigmas)) printf(" (P9: %+.1f sd)", r->p9_sigmas);
            printf("\n");
        }
        bool first = true;
        for (int mode = 0; mode < FL_MODE_COUNT; mode++) {
            const fl_report_row *p = fl_report_find_row(st, w, e, (fl_report_mode)mode, hb,
                                                        FL_TARGET_PREFIX);
            if (!p || !p->ops) continue;
            if (first) printf("%sSSTs read per scan_prefix at %g bits/key:", ind, hb);
            printf("%s %s %.2f", first ? "" : ",", fl_report_mode_name((fl_report_mode)mode),
                   p->reads_per_op);
            first = false;
        }
        if (!first) printf("\n");
        }
        if (wl->note[0]) printf("  note: %s\n", wl->note);
    }
}

/* ---- The pipeline -------------------------------------------------------------- */

static void free_state(fl_report_state *st) {
    for (size_t i = 0; i < st->nwls; i++) fl_workload_free(&st->wls[i].wl);
    free(st->wls);
    for (size_t i = 0; i < st->njobs; i++) free(st->jobs[i].messages);
    free(st->jobs);
    free(st->rows);
    free(st->row_jobs);
    if (st->reg) fl_registry_free(st->reg);
}

static int run(fl_report_state *st) {
    const fl_report_config *cfg = st->cfg;
    char err[2048] = "";
    int rc = fl_registry_new(&st->reg);
    if (rc != FL_OK) {
        fprintf(stderr, "filterlab report: cannot create the registry: %s\n", fl_strerror(rc));
        return 2;
    }
    for (size_t i = 0; i < cfg->nplugins; i++) {
        err[0] = '\0';
        if ((rc = fl_registry_load_plugin(st->reg, cfg->plugins[i], err, sizeof err)) != FL_OK) {
            fprintf(stderr, "filterlab report: --plugin %s: %s\n", cfg->plugins[i],
                    *err ? err : fl_strerror(rc));
            return 2;
        }
    }
    if (load_workloads(st) != 0 || probe_engines(st) != 0 || plan_jobs(st) != 0) return 2;
    if (st->njobs == 0) {
        fprintf(stderr, "filterlab report: nothing to replay (no configuration applies)\n");
        return 2;
    }
    if (fl_mkdir_p(cfg->out_dir) != 0) {
        fprintf(stderr, "filterlab report: -o %s: %s\n", cfg->out_dir, strerror(errno));
        return 2;
    }
    double start = fl_now();
    if ((rc = run_jobs(st)) != 0) return rc;
    st->elapsed_s = fl_now() - start;
    if (build_rows(st) != 0) {
        fprintf(stderr, "filterlab report: out of memory\n");
        return 2;
    }
    if (write_csv(st) != 0) return 2;
    if (fl_report_plots_write(st) != 0) return 2;
    if (fl_report_html_write(st) != 0) return 2;

    print_summary(st);
    if (st->violations) {
        for (size_t i = 0; i < st->njobs; i++) {
            const fl_report_job *j = &st->jobs[i];
            if (!j->m.sum.violations) continue;
            char replay[8192] = "";
            if (j->violation_wl[0]) fl_report_replay_command(st, j, replay, sizeof replay);
            fprintf(stderr, "%s on %s with policies=\"%s\": %" PRIu64 " violation%s%s%s\n",
                    st->wls[j->workload].path, st->engines[j->engine]->name, j->policies, j->m.sum.violations,
                    j->m.sum.violations == 1 ? "" : "s", replay[0] ? "; replay: " : "", replay);
            if (j->messages) fputs(j->messages, stderr);
        }
    }
    char page[PATH_MAX];
    fl_report_out_path(st, "index.html", page, sizeof page);
    printf("report: %s\n", page);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "filterlab report: write error on stdout\n");
        return 2;
    }
    return st->violations ? 1 : 0;
}

int fl_report_run(const fl_report_config *cfg) {
    static const fl_engine_ops *const filterlab_only[] = { &fl_engine_filterlab };
    fl_report_state st;
    memset(&st, 0, sizeof st);
    st.cfg = cfg;
    st.engines = cfg->nengines ? cfg->engines : filterlab_only;
    st.nengines = cfg->nengines ? cfg->nengines : 1;
    int status = run(&st);
    free_state(&st);
    return status;
}
