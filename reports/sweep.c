/*
 * sweep.c -- one configuration of a sweep: the policy modes and their
 * policy lists, the extractor a workload implies, the workload with its
 * policies overridden, and one replay of it through the checker with the
 * final tree's filter bytes and entries measured.
 *
 * Invariant: a replay never sees the workload's own filter configuration.
 * Every open and reopen -- and an open added in front when the workload has
 * none, so the engine's default bloom(bits=10) can never sneak in -- carries
 * the configuration's policies, the same list for the compactor, and
 * legacy_filters=0.
 */
#include "report.h"
#include "../adapters/adapters.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- Modes ------------------------------------------------------------------- */

static const char *const mode_names[FL_MODE_COUNT] = {
    "whole", "whole+prefix", "prefix-only", "none",
};

const char *fl_report_mode_name(fl_report_mode mode) {
    return (unsigned)mode < FL_MODE_COUNT ? mode_names[mode] : "?";
}

int fl_report_mode_parse(const char *name, fl_report_mode *out) {
    for (int m = 0; m < FL_MODE_COUNT; m++) {
        if (strcmp(name, mode_names[m]) == 0) {
            *out = (fl_report_mode)m;
            return 0;
        }
    }
    return -1;
}

bool fl_report_mode_needs_extractor(fl_report_mode mode) {
    return mode == FL_MODE_WHOLE_PREFIX || mode == FL_MODE_PREFIX_ONLY;
}

int fl_report_policy_list(fl_report_mode mode, double bits, const char *extractor,
                          char *out, size_t cap) {
    int n;
    bool has_x = extractor && *extractor;
    if (fl_report_mode_needs_extractor(mode) && !has_x) return -1;
    switch (mode) {
    case FL_MODE_WHOLE:        n = snprintf(out, cap, "bloom(bits=%g)", bits); break;
    case FL_MODE_WHOLE_PREFIX: n = snprintf(out, cap, "bloom(bits=%g,prefix=%s)", bits, extractor); break;
    case FL_MODE_PREFIX_ONLY:
        n = snprintf(out, cap, "bloom(bits=%g,prefix=%s,whole_key=0)", bits, extractor);
        break;
    case FL_MODE_NONE:         n = snprintf(out, cap, "none"); break;
    default:                   return -1;
    }
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

/* ---- The workload's extractor ---------------------------------------------- */

/* Copies [p, p+n) trimmed of blanks into out; false if empty or too long. */
static bool copy_trimmed(const char *p, size_t n, char *out, size_t cap) {
    while (n && isspace((unsigned char)*p)) { p++; n--; }
    while (n && isspace((unsigned char)p[n - 1])) n--;
    if (n == 0 || n >= cap) return false;
    memcpy(out, p, n);
    out[n] = '\0';
    return true;
}

/* "# extractor: SPEC" on a line of its own. */
static bool extractor_comment(const char *text, size_t len, char *out, size_t cap) {
    static const char tag[] = "extractor:";
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol) eol = end;
        const char *q = p;
        while (q < eol && (*q == ' ' || *q == '\t')) q++;
        if (q < eol && *q == '#') {
            q++;
            while (q < eol && (*q == ' ' || *q == '\t')) q++;
            if ((size_t)(eol - q) > sizeof tag - 1 && memcmp(q, tag, sizeof tag - 1) == 0 &&
                copy_trimmed(q + sizeof tag - 1, (size_t)(eol - q) - (sizeof tag - 1), out, cap))
                return true;
        }
        p = eol + 1;
    }
    return false;
}

static bool op_policies_prefix(const fl_op *op, char *out, size_t cap) {
    for (size_t i = 0; i < op->opt_count; i++)
        if (strcmp(op->opts[i].key, "policies") == 0 &&
            fl_policy_list_argument(op->opts[i].value, "prefix", out, cap))
            return true;
    return false;
}

const char *fl_report_workload_extractor(const char *text, size_t len, const fl_workload *w,
                                         char *out, size_t cap) {
    if (cap) out[0] = '\0';
    if (text && extractor_comment(text, len, out, cap)) return "comment";
    for (size_t i = 0; i < w->count; i++)
        if (w->ops[i].kind == FL_OP_OPEN && op_policies_prefix(&w->ops[i], out, cap)) return "open line";
    for (size_t i = 0; i < w->count; i++)
        if (w->ops[i].kind == FL_OP_REOPEN && op_policies_prefix(&w->ops[i], out, cap))
            return "reopen line";
    if (cap) out[0] = '\0';
    return NULL;
}

/* ---- The overridden workload ------------------------------------------------- */

#define ADDED_OPTIONS 3     /* policies, compactor, legacy_filters: always last */

static bool overridden_key(const char *key) {
    return strcmp(key, "policies") == 0 || strcmp(key, "compactor") == 0 ||
           strcmp(key, "legacy_filters") == 0;
}

/* Gives op its own option array built from src's: the kept options
 * shared with src, the three added ones owned.  On failure op has no
 * options (and owns nothing). */
static int override_options(fl_op *op, const fl_op *src, const char *policies) {
    size_t kept = 0;
    op->opts = NULL;
    op->opt_count = 0;
    fl_wl_option *opts = calloc(src->opt_count + ADDED_OPTIONS, sizeof *opts);
    if (!opts) return -1;
    for (size_t i = 0; i < src->opt_count; i++)
        if (!overridden_key(src->opts[i].key)) opts[kept++] = src->opts[i];
    const char *added[ADDED_OPTIONS][2] = {
        { "policies", policies }, { "compactor", policies }, { "legacy_filters", "0" },
    };
    bool ok = true;
    for (size_t i = 0; i < ADDED_OPTIONS; i++) {
        opts[kept + i].key = strdup(added[i][0]);
        opts[kept + i].value = strdup(added[i][1]);
        ok = ok && opts[kept + i].key && opts[kept + i].value;
    }
    op->opts = opts;
    op->opt_count = kept + ADDED_OPTIONS;
    return ok ? 0 : -1;
}

void fl_report_override_free(fl_workload *copy) {
    for (size_t i = 0; i < copy->count; i++) {
        fl_op *op = &copy->ops[i];
        if ((op->kind != FL_OP_OPEN && op->kind != FL_OP_REOPEN) || !op->opts) continue;
        for (size_t k = op->opt_count - ADDED_OPTIONS; k < op->opt_count; k++) {
            free(op->opts[k].key);
            free(op->opts[k].value);
        }
        free(op->opts);
    }
    free(copy->ops);
    free(copy->description);
    memset(copy, 0, sizeof *copy);
}

int fl_report_override(const fl_workload *w, const char *policies, fl_workload *out) {
    static const fl_op no_options = { .kind = FL_OP_OPEN };
    static uint8_t empty[1];
    memset(out, 0, sizeof *out);
    out->ops = calloc(w->count + 1, sizeof *out->ops);
    out->description = strdup(w->description ? w->description : "");
    if (!out->ops || !out->description) goto nomem;
    if (w->count == 0 || w->ops[0].kind != FL_OP_OPEN) {
        fl_op *open = &out->ops[out->count++];
        open->kind = FL_OP_OPEN;
        open->a.data = open->b.data = empty;
        if (override_options(open, &no_options, policies) != 0) goto nomem;
    }
    for (size_t i = 0; i < w->count; i++) {
        const fl_op *src = &w->ops[i];
        fl_op *op = &out->ops[out->count++];
        *op = *src;
        if ((src->kind == FL_OP_OPEN || src->kind == FL_OP_REOPEN) &&
            override_options(op, src, policies) != 0)
            goto nomem;
    }
    return 0;
nomem:
    fl_report_override_free(out);
    return -1;
}

/* ---- One replay -------------------------------------------------------------- */

static int fail(char *err, size_t cap, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t cap, int rc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
    return rc;
}

static void ignore_violation(void *arg, const fl_contract_violation *v) { (void)arg; (void)v; }

/* The final tree: live SSTs, their entries and stored filter bytes (as the
 * engine stored them, or for RocksDB as read from its files).  The database
 * is opened without policies: nothing is decoded, only counted. */
static int measure_tree(const fl_registry *reg, const fl_engine_ops *eng, const char *dir,
                        fl_report_measure *out, char *err, size_t err_len) {
    fl_options opt;
    fl_engine *db = NULL;
    fl_sst_meta *metas = NULL;
    fl_calls *calls = NULL;
    size_t count = 0;
    fl_buf block;
    char oerr[512] = "";
    fl_options_init(&opt);
    fl_buf_init(&block);
    opt.sync = false;
    int rc = fl_calls_new(reg, &calls);
    if (rc == FL_OK) {
        fl_calls_set_sink(calls, ignore_violation, NULL);
        opt.calls = calls;
        rc = fl_options_set(&opt, "policies", "none", oerr, sizeof oerr);
    }
    if (rc == FL_OK) rc = eng->open(eng, dir, reg, &opt, &db, oerr, sizeof oerr);
    if (rc != FL_OK) {
        fl_options_free(&opt);
        fl_calls_free(calls);
        return fail(err, err_len, rc, "%s: reopening to measure filters: %s", dir,
                    *oerr ? oerr : fl_strerror(rc));
    }
    rc = eng->ssts(db, &metas, &count);
    for (size_t i = 0; rc == FL_OK && i < count; i++) {
        int format;
        const fl_sst_filter *f;
        out->entries += metas[i].entries;
        if (eng->sst_filter_block) {
            rc = eng->sst_filter_block(db, metas[i].id, &block, &format);
            out->filter_bytes += block.len;
        } else if (eng->sst_filter) {
            rc = eng->sst_filter(db, metas[i].id, &f);
            if (rc == FL_OK) out->filter_bytes += f->bytes;
        }
    }
    if (rc != FL_OK) fail(err, err_len, rc, "%s: measuring filters: %s", dir, eng->errmsg(db));
    out->live_ssts = count;
    fl_sst_meta_free(metas, count);
    fl_buf_free(&block);
    int crc = eng->close(db, NULL, 0);
    fl_options_free(&opt);
    fl_calls_free(calls);
    return rc != FL_OK ? rc : crc;
}

int fl_report_replay(const fl_registry *reg, const fl_engine_ops *engine, const fl_workload *w,
                     const char *path,
                     const char *policies, const char *scratch, FILE *messages,
                     uint64_t max_shown, double call_timeout, fl_report_measure *out,
                     char *err, size_t err_len) {
    char dir[PATH_MAX];
    fl_workload copy;
    memset(out, 0, sizeof *out);
    if (err_len) err[0] = '\0';
    if (snprintf(dir, sizeof dir, "%s/db.XXXXXX", scratch) >= (int)sizeof dir)
        return fail(err, err_len, FL_ERR_INVALID, "%s: scratch path too long", scratch);
    if (!mkdtemp(dir))
        return fail(err, err_len, FL_ERR_IO, "cannot create a database directory in %s: %s",
                    scratch, strerror(errno));
    if (fl_report_override(w, policies, &copy) != 0) {
        rmdir(dir);
        return fail(err, err_len, FL_ERR_NOMEM, "%s: out of memory", path);
    }
    for (size_t i = 0; i < copy.count; i++) {
        if (copy.ops[i].kind == FL_OP_GET) out->gets++;
        else if (copy.ops[i].kind == FL_OP_SCAN_PREFIX) out->prefix_scans++;
    }
    if (!engine) engine = &fl_engine_filterlab;
    out->untraced = !engine->set_probe_trace;
    fl_runner run = {
        .check = { .engine = engine, .reg = reg, .dir = dir, .path = path, .check = true, .messages = messages,
                   .max_shown = max_shown, .seed = FL_CHECKER_SEED,
                   .no_sync = true },      /* removed afterwards: fsync buys nothing */
        .call_timeout = call_timeout,
        .isolate = true,                 /* a crash or a hang is a finding */
    };
    fl_run_outcome o;
    int rc = fl_run_workload(&run, &copy, &o);
    if (rc == FL_OK && (o.hang || o.crashed)) {
        /* a finding the run could not finish after: a violation */
        o.sum.violations++;
        o.sum.by_property[o.property]++;
        if (!o.sum.first_property) {
            o.sum.first_property = o.property;
            o.sum.first_line = o.line;
        }
        if (messages) fprintf(messages, "%s\n", o.message);
    } else if (rc == FL_OK && o.rc != FL_OK) {
        rc = o.rc;
        fail(err, err_len, rc, "%s (policies=\"%s\")", o.error, policies);
    }
    out->sum = o.sum;
    out->elapsed_s = o.elapsed;
    if (rc == FL_OK && !o.hang && !o.crashed) rc = measure_tree(reg, engine, dir, out, err, err_len);
    fl_report_override_free(&copy);
    fl_remove_tree(dir);
    return rc;
}
