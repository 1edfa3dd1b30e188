/*
 * checker.c -- runs each workload op on the engine and on the model and
 * checks what it did (check.h lists the properties).  This file drives the
 * ops, keeps the model and a record of what is still in the engine's
 * memtable, and reports violations; reads.c runs the reads and compares
 * their results (P2); truth.c, probes.c and contract.c hold the other
 * checks.
 */
#include "check_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *const property_names[FL_PROPERTY_COUNT] = {
    "", "no-false-negative", "results", "skip-counts", "fp-accounting", "exact-verdicts",
    "coverage", "extractor-contract", "migration", "fp-rate", "bad-input", "round-trip",
};

const char *fl_property_name(int p) {
    return p > 0 && p < FL_PROPERTY_COUNT ? property_names[p] : "";
}

int fl_contract_property(const fl_contract_violation *v) {
    if (v->object == FL_OBJECT_EXTRACTOR) return FL_P7;
    if (v->method && strcmp(v->method, "decode") == 0) return FL_P11;
    return FL_P10;
}

/* ---- Messages ---------------------------------------------------------------- */

/* Appends b spelled as in workload files (bare or quoted). */
void ck_str(char *buf, size_t cap, const uint8_t *p, size_t n) {
    size_t used = strlen(buf);
    if (used + 1 >= cap) return;
    FILE *f = fmemopen(buf + used, cap - used, "w");
    if (!f) return;
    if (n > 48) {
        fl_bytes_print(f, p, 48);
        fputs("...", f);
    } else {
        fl_bytes_print(f, p, n);
    }
    fclose(f);
}

/* "line 12 get "k"" for the running op. */
static void where(const fl_checker *ck, char *buf, size_t cap) {
    const fl_op *op = ck->op;
    buf[0] = 0;
    if (!op) return;
    snprintf(buf, cap, "line %u %s", op->line, ck_op_word(ck, op));
    switch (op->kind) {
    case FL_OP_PUT: case FL_OP_DEL: case FL_OP_GET: case FL_OP_SCAN_PREFIX:
        strncat(buf, " ", cap - strlen(buf) - 1);
        ck_str(buf, cap, op->a.data, op->a.len);
        break;
    case FL_OP_DELRANGE: case FL_OP_SCAN:
        strncat(buf, " ", cap - strlen(buf) - 1);
        ck_str(buf, cap, op->a.data, op->a.len);
        strncat(buf, " ", cap - strlen(buf) - 1);
        ck_str(buf, cap, op->b.data, op->b.len);
        break;
    default: break;
    }
}

static void report(fl_checker *ck, int property, bool warning, const char *fmt, va_list ap) {
    char at[256], what[1024], msg[1400];
    where(ck, at, sizeof at);
    vsnprintf(what, sizeof what, fmt, ap);
    snprintf(msg, sizeof msg, "%sP%d %s: %s%s%s", warning ? "warning: " : "", property,
             fl_property_name(property), at, at[0] ? ": " : "", what);
    if (warning) {
        ck->sum.warnings++;
        if (ck->cfg.messages && ck->sum.warnings <= ck->cfg.max_shown) fprintf(ck->cfg.messages, "%s\n", msg);
        return;
    }
    ck->sum.violations++;
    ck->sum.by_property[property]++;
    if (!ck->sum.first_property) {
        ck->sum.first_property = property;
        ck->sum.first_line = ck->op ? ck->op->line : 0;
    }
    if (ck->cfg.messages) {
        if (ck->sum.violations <= ck->cfg.max_shown) fprintf(ck->cfg.messages, "%s\n", msg);
        else if (ck->sum.violations == ck->cfg.max_shown + 1)
            fprintf(ck->cfg.messages, "%s: more than %llu violations; the rest are counted, not shown\n",
                    ck->cfg.path, (unsigned long long)ck->cfg.max_shown);
    }
    if (ck->cfg.on_violation) ck->cfg.on_violation(ck->cfg.on_violation_arg, property,
                                                   ck->op ? ck->op->line : 0, msg);
}

void ck_violation(fl_checker *ck, int property, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    report(ck, property, false, fmt, ap);
    va_end(ap);
}

void ck_warning(fl_checker *ck, int property, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    report(ck, property, true, fmt, ap);
    va_end(ap);
}

int ck_fail(fl_checker *ck, int rc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ck->err, sizeof ck->err, fmt, ap);
    va_end(ap);
    return rc;
}

const char *fl_checker_errmsg(const fl_checker *ck) { return ck->err[0] ? ck->err : "no error"; }

uint64_t ck_rand(fl_checker *ck) {
    uint64_t x = ck->rng;
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    return ck->rng = x;
}

/* ---- Plugin contracts ---------------------------------------------------------- */

/* A broken contract, from the wrappers of the database's calls or the
 * checker's own: a violation of the property it breaks. */
static void on_contract(void *arg, const fl_contract_violation *v) {
    fl_checker *ck = arg;
    ck_violation(ck, fl_contract_property(v), "%s broke its contract in %s: %s", v->who,
                 v->method ? v->method : "?", v->what ? v->what : "?");
}

bool fl_checker_current_call(const fl_checker *ck, fl_call_now *out, bool details) {
    if (ck->own_calls && fl_calls_current(ck->own_calls, out, details)) return true;
    if (ck->db_calls && fl_calls_current(ck->db_calls, out, details)) return true;
    memset(out, 0, sizeof *out);
    out->method = __atomic_load_n(&ck->engine_method, __ATOMIC_ACQUIRE);
    if (!out->method) return false;
    /* (the top bit keeps its numbers apart from the plugin calls') */
    out->seq = __atomic_load_n(&ck->engine_seq, __ATOMIC_RELAXED) | (UINT64_C(1) << 63);
    if (details) snprintf(out->who, sizeof out->who, "engine %s", ck->eng->name);
    return true;
}

/* ---- Lifecycle --------------------------------------------------------------- */

static void drop_contract(void *arg, const fl_contract_violation *v) { (void)arg; (void)v; }

int fl_checker_new(const fl_check_config *cfg, fl_checker **out) {
    *out = NULL;
    fl_checker *ck = calloc(1, sizeof *ck);
    if (!ck) return FL_ERR_NOMEM;
    ck->cfg = *cfg;
    ck->eng = cfg->engine ? cfg->engine : fl_engine_default();
    if (!ck->cfg.path) ck->cfg.path = "workload";
    ck->rng = cfg->seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
    ck->written_complete = true;
    fl_options_init(&ck->opt);
    ck->opt.sync = !cfg->no_sync;
    fl_buf_init(&ck->value);
    fl_buf_init(&ck->scan_buf);
    if (fl_model_new(&ck->model) || fl_model_new(&ck->mem_keys) ||
        (!ck->eng->set_probe_trace && fl_model_new(&ck->ever)) ||
        fl_calls_new(cfg->reg, &ck->db_calls) || fl_calls_new(cfg->reg, &ck->own_calls)) {
        fl_checker_free(ck);
        return FL_ERR_NOMEM;
    }
    /* with checks off, violations are the engine's business: printed,
     * unless the run is only for its metrics */
    if (cfg->check) {
        fl_calls_set_sink(ck->db_calls, on_contract, ck);
        fl_calls_set_sink(ck->own_calls, on_contract, ck);
    } else if (cfg->quiet) {
        fl_calls_set_sink(ck->db_calls, drop_contract, NULL);
        fl_calls_set_sink(ck->own_calls, drop_contract, NULL);
    }
    ck->opt.calls = ck->db_calls;
    ck->opt.read_only = cfg->read_only;
    ck->opt.create_anyway = cfg->create_anyway;
    if (cfg->in_memory && ck->eng->uses_env) {
        if (fl_env_memory_new(&ck->env) != FL_OK) {
            fl_checker_free(ck);
            return FL_ERR_NOMEM;
        }
        ck->opt.env = ck->env;
        ck->opt.sync = true;                 /* free in memory: crashes see it */
    }
    if (cfg->crashes && ck->eng->uses_env) {
        /* what a crash keeps is what was synced: sync everything */
        if (fl_env_fault_new(ck->env ? ck->env : fl_env_posix(), &ck->fault) != FL_OK ||
            fl_model_new(&ck->durable) != FL_MODEL_OK) {
            fl_checker_free(ck);
            return FL_ERR_NOMEM;
        }
        ck->opt.env = ck->fault;
        ck->opt.sync = true;
        if (cfg->on_fault_env) cfg->on_fault_env(cfg->on_fault_env_arg, ck->fault);
    }
    *out = ck;
    return FL_OK;
}

static int copy_entry(void *arg, fl_model_bytes key, fl_model_bytes value) {
    return fl_model_put(arg, key, value);
}

/* The model as it is now, kept whole as what a crash would leave: at the
 * first open, and when a crash's recovery takes another state; after a
 * flush, durable_advance brings it up to date instead. */
static int keep_durable(fl_checker *ck) {
    if (!ck->durable) return FL_OK;
    fl_model *d;
    if (fl_model_new(&d) != FL_MODEL_OK) return FL_ERR_NOMEM;
    if (fl_model_scan_prefix(ck->model, (fl_model_bytes){ (const uint8_t *)"", 0 }, copy_entry, d)) {
        fl_model_free(d);
        return FL_ERR_NOMEM;
    }
    fl_model_free(ck->durable);
    ck->durable = d;
    return FL_OK;
}

/* The model since the last flush, brought into ck->durable before the
 * record of it is cleared: what the memtable's range deletes removed, then
 * every key written since, as the model now has it.  Together the same as
 * keep_durable's copy, in the writes since the last flush instead of every
 * live key per flush (a copy per flush made a workload with a crash in it
 * quadratic). */
typedef struct durable_step { fl_checker *ck; int rc; } durable_step;

static int durable_key(void *arg, fl_model_bytes key, fl_model_bytes unused) {
    (void)unused;
    durable_step *d = arg;
    fl_model_bytes v;
    d->rc = fl_model_get(d->ck->model, key, &v) ? fl_model_put(d->ck->durable, key, v)
                                               : fl_model_delete(d->ck->durable, key);
    return d->rc != FL_MODEL_OK;
}

static int durable_advance(fl_checker *ck) {
    if (!ck->durable) return FL_OK;
    durable_step d = { ck, FL_MODEL_OK };
    for (size_t i = 0; i < ck->nmem_rts && d.rc == FL_MODEL_OK; i++)
        d.rc = fl_model_delete_range(ck->durable, (fl_model_bytes){ ck->mem_rts[i].start, ck->mem_rts[i].slen },
                                     (fl_model_bytes){ ck->mem_rts[i].end, ck->mem_rts[i].elen });
    if (d.rc == FL_MODEL_OK) fl_model_scan_prefix(ck->mem_keys, (fl_model_bytes){ (const uint8_t *)"", 0 }, durable_key, &d);
    return d.rc == FL_MODEL_OK ? FL_OK : FL_ERR_NOMEM;
}

static void mem_clear(fl_checker *ck) {
    fl_model_free(ck->mem_keys);
    ck->mem_keys = NULL;
    fl_model_new(&ck->mem_keys);
    for (size_t i = 0; i < ck->nmem_rts; i++) { free(ck->mem_rts[i].start); free(ck->mem_rts[i].end); }
    ck_spans_free(&ck->mem_rt_spans);
    free(ck->mem_rts);
    ck->mem_rts = NULL;
    ck->nmem_rts = ck->mem_rts_cap = 0;
    ck->mem_under_old_options = false;
}

static void add_counters(fl_filter_counters *a, const fl_filter_counters *b) {
    a->considered += b->considered;
    a->unfiltered += b->unfiltered;
    a->positive += b->positive;
    a->negative += b->negative;
    a->false_positive += b->false_positive;
    a->expected_fp_sum += b->expected_fp_sum;
    a->expected_probes += b->expected_probes;
    a->memtable_positive += b->memtable_positive;
    a->memtable_negative += b->memtable_negative;
    a->seeks += b->seeks;
}

static void add_metrics(fl_metrics *a, const fl_metrics *b) {
    add_counters(&a->point, &b->point);
    add_counters(&a->prefix, &b->prefix);
    a->filter_errors += b->filter_errors;
    a->contract_violations += b->contract_violations;
    a->ssts_written += b->ssts_written;
    a->sst_reads += b->sst_reads;
    a->flushes += b->flushes;
    a->compactions += b->compactions;
}

static int configs_for(fl_checker *ck) {
    ck_config *w = NULL, *c = NULL;
    char err[1024] = "";
    int rc = ck_config_new(ck->cfg.reg, ck->own_calls, ck->opt.policies, &w, err, sizeof err);
    if (!rc) rc = ck_config_new(ck->cfg.reg, ck->own_calls,
                                ck->opt.compactor ? ck->opt.compactor : ck->opt.policies,
                                &c, err, sizeof err);
    if (rc) {
        ck_config_unref(w);
        return ck_fail(ck, rc, "policies: %s", err);
    }
    w->min_filter_keys = c->min_filter_keys = ck->opt.min_filter_keys;
    w->legacy = c->legacy = ck->opt.legacy_filters != 0;
    ck_config_unref(ck->writer);
    ck_config_unref(ck->compactor);
    ck->writer = w;
    ck->compactor = c;
    return FL_OK;
}

static int adopt_item(void *arg, fl_slice key, fl_slice value) {
    fl_checker *ck = arg;
    return fl_model_put(ck->model, (fl_model_bytes){ key.data, key.len },
                        (fl_model_bytes){ value.data, value.len }) != FL_MODEL_OK;
}

/* A database that existed before the checker first opened it: the model
 * starts from what the engine holds (a full scan, which uses no filter);
 * what was written earlier cannot be checked, what is read from now on is. */
static int adopt(fl_checker *ck) {
    static uint8_t top[FL_MODEL_MAX_KEY + 1];       /* after every key */
    memset(top, 0xFF, sizeof top);
    fl_metrics before, after;
    ck->eng->metrics(ck->db, &before);
    ck_engine_enter(ck, "scan");
    int rc = ck->eng->scan(ck->db, (fl_slice){ (const uint8_t *)"", 0 }, (fl_slice){ top, sizeof top },
                           adopt_item, ck);
    ck_engine_leave(ck);
    if (rc) return ck_fail(ck, rc, "reading the existing database: %s", ck->eng->errmsg(ck->db));
    ck->eng->metrics(ck->db, &after);
    ck->adopt_reads += after.sst_reads - before.sst_reads;
    ck->written_complete = false;     /* its SSTs may hold keys never seen */
    return FL_OK;
}

static int db_open(fl_checker *ck) {
    char err[1024] = "";
    ck_engine_enter(ck, "open");
    int rc = ck->eng->open(ck->eng, ck->cfg.dir, ck->cfg.reg, &ck->opt, &ck->db, err, sizeof err);
    ck_engine_leave(ck);
    if (rc) return ck_fail(ck, rc, "open: %s", err[0] ? err : fl_strerror(rc));
    const char *note = ck->eng->note ? ck->eng->note(ck->db) : NULL;
    if (note && *note && ck->cfg.messages)
        fprintf(ck->cfg.messages, "%s: note: %s\n", ck->cfg.path ? ck->cfg.path : "workload", note);
    if (ck->eng->set_probe_trace) ck->eng->set_probe_trace(ck->db, ck_probe, ck);
    ck->generation++;
    if (!ck->cfg.check) return FL_OK;
    if ((rc = configs_for(ck))) return rc;
    if ((rc = ck_tree_refresh(ck, true))) return rc;
    if (ck->generation == 1 && ck->nmetas > 0 && (rc = adopt(ck))) return rc;
    /* a reopen's close, and a crash's recovery, left ck->durable equal to
     * the model; the first open may have adopted what was there */
    if (ck->generation == 1 && keep_durable(ck))
        return ck_fail(ck, FL_ERR_NOMEM, "out of memory keeping the model's durable state");
    return FL_OK;
}

/* ---- Crashes ------------------------------------------------------------------ */

#define FL_CK_CRASHED 1          /* an op died with the process (fault env) */

typedef struct entries { fl_model *into; int status; size_t n; } entries;

static int take_entry(void *arg, fl_slice key, fl_slice value) {
    entries *e = arg;
    e->n++;
    if (fl_model_put(e->into, (fl_model_bytes){ key.data, key.len }, (fl_model_bytes){ value.data, value.len }))
        return e->status = FL_ERR_NOMEM;
    return 0;
}

/* Compares one model's entries with another's, up to the first that
 * differs: its key, its value here and whether and what the other holds. */
typedef struct same {
    const fl_model *other;
    bool differ, has;
    fl_model_bytes key, mine, theirs;
} same;

static int same_entry(void *arg, fl_model_bytes key, fl_model_bytes value) {
    same *s = arg;
    fl_model_bytes v;
    bool has = fl_model_get(s->other, key, &v);
    if (has && v.len == value.len && (!v.len || memcmp(v.data, value.data, v.len) == 0)) return 0;
    *s = (same){ s->other, true, has, key, value, v };
    return 1;
}

/* Whether a and b hold other entries.  When they do and diff is given, it
 * tells the first difference from a's side: "key K holds V, not W", "key
 * K holds V, which it should not hold", or (every entry of a being in b)
 * "key K is missing, where it should hold W". */
static bool models_differ(const fl_model *a, const fl_model *b, char *diff, size_t cap) {
    const fl_model_bytes all = { (const uint8_t *)"", 0 };
    bool counts_differ = fl_model_count(a) != fl_model_count(b);
    if (!diff && counts_differ) return true;
    same s = { .other = b };
    fl_model_scan_prefix(a, all, same_entry, &s);
    if (!s.differ && !counts_differ) return false;
    if (!diff) return true;
    snprintf(diff, cap, "key ");
    if (s.differ) {
        ck_str(diff, cap, s.key.data, s.key.len);
        strncat(diff, " holds ", cap - strlen(diff) - 1);
        ck_str(diff, cap, s.mine.data, s.mine.len);
        strncat(diff, s.has ? ", not " : ", which it should not hold", cap - strlen(diff) - 1);
        if (s.has) ck_str(diff, cap, s.theirs.data, s.theirs.len);
        return true;
    }
    same r = { .other = a };                    /* every entry of a is in b: b has more */
    fl_model_scan_prefix(b, all, same_entry, &r);
    ck_str(diff, cap, r.key.data, r.key.len);
    strncat(diff, " is missing, where it should hold ", cap - strlen(diff) - 1);
    ck_str(diff, cap, r.mine.data, r.mine.len);
    return true;
}

static bool models_equal(const fl_model *a, const fl_model *b) { return !models_differ(a, b, NULL, 0); }

static int copy_model(const fl_model *from, fl_model **out) {
    *out = NULL;
    fl_model *d;
    if (fl_model_new(&d) != FL_MODEL_OK) return FL_ERR_NOMEM;
    if (fl_model_scan_prefix(from, (fl_model_bytes){ (const uint8_t *)"", 0 }, copy_entry, d)) {
        fl_model_free(d);
        return FL_ERR_NOMEM;
    }
    *out = d;
    return FL_OK;
}

typedef struct stray { const fl_checker *ck; char name[64]; size_t n; } stray;

static int note_stray(void *arg, const char *name) {
    stray *s = arg;
    size_t len = strlen(name);
    if (len < 5 || strcmp(name + len - 4, ".sst") != 0) return 0;
    char *end;
    unsigned long long id = strtoull(name, &end, 10);
    if (end != name + len - 4) return 0;
    for (size_t i = 0; i < s->ck->nmetas; i++)
        if (s->ck->metas[i].id == id) return 0;
    if (!s->n++) snprintf(s->name, sizeof s->name, "%s", name);
    return 0;
}

/* After a crash's reopen: every SST file in the directory is in the tree
 * (the open removed what was never committed, and what a committed
 * compaction had retired). */
static void no_strays(fl_checker *ck, const char *point) {
    if (!ck->eng->ssts || !ck->fault) return;
    stray s = { ck, "", 0 };
    if (ck->fault->ops->list(ck->fault, ck->cfg.dir, note_stray, &s) == 0 && s.n)
        ck_violation(ck, FL_P2, "after %s and the reopen, %zu SST file%s in the directory %s in no MANIFEST "
                     "tree (the first %s): left behind for good", point, s.n, s.n == 1 ? "" : "s",
                     s.n == 1 ? "is" : "are", s.name);
}

/* The process died (a `crash`, or the fault env's planned death during
 * op): nothing more is written, the power goes (what was not synced is
 * gone), and the database reopens with the options in force.  Without a
 * write-ahead log the memtable is lost, so the database may hold only one
 * of two states: what the last completed flush left, or -- when the op
 * that died got as far as committing its flush -- the model with op
 * applied.  Which one, the reopened database's whole contents say; any
 * other is a P2 violation naming the crash point.  Then every property is
 * checked on from there. */
static int recover(fl_checker *ck, const fl_op *op) {
    char point[600], diff[400];
    const char *log = fl_env_fault_log(ck->fault), *last = log + strlen(log);
    if (last > log) last--;                                   /* the final '\n' */
    while (last > log && last[-1] != '\n') last--;
    snprintf(point, sizeof point, "the crash at file operation %llu (%.*s)",
             (unsigned long long)fl_env_fault_ops(ck->fault), (int)strcspn(last, "\n"), last);
    if (ck->db) {
        fl_metrics m;
        ck->eng->metrics(ck->db, &m);
        add_metrics(&ck->at_open, &m);
        ck_engine_enter(ck, "abandon");
        ck->eng->abandon(ck->db);
        ck_engine_leave(ck);
        ck->db = NULL;
    }
    ck->sum.crashes++;
    int e = fl_env_fault_crash(ck->fault);
    if (e) return ck_fail(ck, FL_ERR_IO, "%s: the fault env could not drop what was not synced: %s", point,
                          strerror(e));
    mem_clear(ck);
    fl_model *after = NULL;                  /* the state if op's flush committed */
    if (ck->cfg.check && copy_model(ck->model, &after)) return ck_fail(ck, FL_ERR_NOMEM, "%s: out of memory", point);
    if (ck->cfg.check) {
        fl_model *before;
        if (copy_model(ck->durable, &before)) {
            fl_model_free(after);
            return ck_fail(ck, FL_ERR_NOMEM, "%s: out of memory", point);
        }
        fl_model_free(ck->model);
        ck->model = before;
    }
    int rc = db_open(ck);
    if (rc) {
        fl_model_free(after);
        snprintf(ck->err + strlen(ck->err), sizeof ck->err - strlen(ck->err), " (after %s)", point);
        return rc;
    }
    if (!ck->cfg.check) return FL_OK;
    no_strays(ck, point);
    fl_model *now;
    if (fl_model_new(&now) != FL_MODEL_OK) {
        fl_model_free(after);
        return ck_fail(ck, FL_ERR_NOMEM, "%s: out of memory", point);
    }
    entries got = { now, 0, 0 };
    ck_engine_enter(ck, "seek");
    rc = ck->eng->seek(ck->db, (fl_slice){ (const uint8_t *)"", 0 }, false, UINT32_MAX, 0, NULL, take_entry, &got);
    ck_engine_leave(ck);
    if (!rc) rc = got.status;
    if (rc) {
        fl_model_free(now);
        fl_model_free(after);
        return ck_fail(ck, rc, "reading the database back after %s: %s", point, ck->eng->errmsg(ck->db));
    }
    if (models_equal(now, after) && !models_equal(now, ck->model)) {
        fl_model_free(ck->model);           /* op's flush had committed */
        ck->model = after;
        after = NULL;
        rc = keep_durable(ck);
    } else if (models_differ(now, ck->model, diff, sizeof diff)) {
        ck_violation(ck, FL_P2, "after %s the database holds %zu entries: neither what the last completed "
                     "flush left (%zu; against it, %s) nor what %s would have committed (%zu)", point, got.n,
                     fl_model_count(ck->model), diff, fl_op_name(op->kind), fl_model_count(after));
        fl_model_free(ck->model);           /* go on from what is there */
        ck->model = now;
        now = NULL;
        ck->written_complete = false;       /* which may hold keys never written */
        rc = keep_durable(ck);
    }
    fl_model_free(now);
    fl_model_free(after);
    return rc ? ck_fail(ck, rc, "%s: out of memory", point) : FL_OK;
}

/* `crash`: the process dies now; `crash after=N`: at the N-th file
 * operation from here, in whichever op that falls (fl_checker_run then
 * recovers). */
static int run_crash(fl_checker *ck, const fl_op *op) {
    if (!ck->eng->abandon || !ck->fault)
        return ck_fail(ck, FL_ERR_INVALID, "crash: the %s engine cannot simulate a crash", ck->eng->name);
    if (op->count) {
        fl_env_fault_crash_after(ck->fault, fl_env_fault_ops(ck->fault) + op->count);
        return FL_OK;
    }
    return recover(ck, op);
}

/* Flushes (so what close writes is seen with the old configuration),
 * sums the metrics, closes. */
static int db_close(fl_checker *ck) {
    ck_engine_enter(ck, "flush");
    int rc = ck->eng->flush(ck->db);
    ck_engine_leave(ck);
    if (rc) return ck_fail(ck, rc, "flush before close: %s", ck->eng->errmsg(ck->db));
    if (ck->cfg.check && (rc = ck_tree_refresh(ck, false))) return rc;
    fl_metrics m;
    ck->eng->metrics(ck->db, &m);
    add_metrics(&ck->at_open, &m);
    char err[1024] = "";
    ck_engine_enter(ck, "close");
    rc = ck->eng->close(ck->db, err, sizeof err);
    ck_engine_leave(ck);
    ck->db = NULL;
    int drc = durable_advance(ck);            /* the flush above emptied the memtable */
    mem_clear(ck);
    if (rc) return ck_fail(ck, rc, "close: %s", err[0] ? err : fl_strerror(rc));
    if (drc) return ck_fail(ck, drc, "out of memory keeping the model's durable state");
    return FL_OK;
}

void fl_checker_summary(const fl_checker *ck, fl_check_summary *out) {
    *out = ck->sum;
    out->metrics = ck->at_open;
    out->metrics.sst_reads -= ck->adopt_reads;     /* the checker's own reads */
    out->metrics.point.false_positive += ck->fp_known[0];
    out->metrics.prefix.false_positive += ck->fp_known[1];
    out->metrics.prefix.unfiltered += ck->unfiltered_known;
    out->metrics.prefix.considered += ck->unfiltered_known;
    if (ck->db) {
        fl_metrics m;
        ck->eng->metrics(ck->db, &m);
        add_metrics(&out->metrics, &m);
    }
}

int fl_checker_finish(fl_checker *ck, fl_check_summary *out) {
    int rc = FL_OK;
    if (ck->fault) fl_env_fault_crash_after(ck->fault, 0);     /* crash points are the ops' */
    if (ck->db) {
        ck_engine_enter(ck, "flush");
        rc = ck->eng->flush(ck->db);
        ck_engine_leave(ck);
        if (rc) return ck_fail(ck, rc, "final flush: %s", ck->eng->errmsg(ck->db));
        if (ck->eng->ssts) {
            fl_sst_meta *m;
            size_t n;
            ck_engine_enter(ck, "ssts");
            rc = ck->eng->ssts(ck->db, &m, &n);
            ck_engine_leave(ck);
            if (rc) return ck_fail(ck, rc, "listing SSTs");
            fl_sst_meta_free(m, n);
            ck->sum.ssts = n;
        }
        ck->op = NULL;
        rc = db_close(ck);
    }
    if (ck->cfg.check && !ck->p9_done) {
        ck_p9_verdict(ck);
        ck->p9_done = true;
    }
    fl_checker_summary(ck, out);
    return rc;
}

void fl_checker_free(fl_checker *ck) {
    if (!ck) return;
    if (ck->db) ck->eng->close(ck->db, NULL, 0);
    ck_tree_free(ck);
    ck_contract_free(ck);
    ck_p9_release(ck);
    ck_config_unref(ck->writer);
    ck_config_unref(ck->compactor);
    fl_model_free(ck->model);
    fl_model_free(ck->ever);
    mem_clear(ck);
    fl_model_free(ck->mem_keys);
    ck_fpset_free(&ck->written);
    free(ck->events);
    free(ck->needed);
    free(ck->scan_off);
    fl_buf_free(&ck->value);
    fl_buf_free(&ck->scan_buf);
    fl_options_free(&ck->opt);
    fl_calls_free(ck->db_calls);
    fl_calls_free(ck->own_calls);
    fl_model_free(ck->durable);
    fl_env_free(ck->fault);                  /* after the db: its files */
    fl_env_free(ck->env);
    free(ck);
}

/* ---- Writes and structure ------------------------------------------------------- */

static int mem_note_rt(fl_checker *ck, const fl_op *op) {
    if (ck->nmem_rts == ck->mem_rts_cap) {
        size_t cap = ck->mem_rts_cap ? 2 * ck->mem_rts_cap : 16;
        ck_rt *n = realloc(ck->mem_rts, cap * sizeof *n);
        if (!n) return FL_ERR_NOMEM;
        ck->mem_rts = n;
        ck->mem_rts_cap = cap;
    }
    ck_rt *r = &ck->mem_rts[ck->nmem_rts];
    r->start = malloc(op->a.len + 1);
    r->end = malloc(op->b.len + 1);
    if (!r->start || !r->end) { free(r->start); free(r->end); return FL_ERR_NOMEM; }
    memcpy(r->start, op->a.data, op->a.len);
    memcpy(r->end, op->b.data, op->b.len);
    r->slen = op->a.len;
    r->elen = op->b.len;
    ck->nmem_rts++;
    return ck_spans_add(&ck->mem_rt_spans, r);
}

/* After a write or a structural op: what left the memtable, new SSTs. */
static int after_change(fl_checker *ck, const fl_metrics *before, bool flushed) {
    fl_metrics m;
    ck->eng->metrics(ck->db, &m);
    ck_check_checks(ck, before, &m);              /* (a write checks no filter) */
    if (flushed || m.flushes != before->flushes) {
        if (durable_advance(ck)) return ck_fail(ck, FL_ERR_NOMEM, "out of memory keeping the model's durable state");
        mem_clear(ck);
    }
    return ck_tree_refresh(ck, false);
}

/* What a write does to the model, and to what the engine's memtable now
 * holds. */
/* The fingerprint a put or delete adds to the written-key set. */
static uint64_t written_fp(const fl_op *op) { return ck_fingerprint(op->a.data, op->a.len, 0); }

/* The op's write on the model; key_fp: written_fp(op) for a put or delete. */
static int model_apply(fl_checker *ck, const fl_op *op, uint64_t key_fp) {
    int mrc = FL_MODEL_OK;
    if (op->kind == FL_OP_PUT) {
        mrc = fl_model_put(ck->model, ck_mb(&op->a), ck_mb(&op->b));
        if (!mrc) mrc = fl_model_put(ck->mem_keys, ck_mb(&op->a), (fl_model_bytes){ NULL, 0 });
    } else if (op->kind == FL_OP_DEL) {
        mrc = fl_model_delete(ck->model, ck_mb(&op->a));
        if (!mrc) mrc = fl_model_put(ck->mem_keys, ck_mb(&op->a), (fl_model_bytes){ NULL, 0 });
    }
    if (!mrc && ck->ever && (op->kind == FL_OP_PUT || op->kind == FL_OP_DEL))
        mrc = fl_model_put(ck->ever, ck_mb(&op->a), (fl_model_bytes){ NULL, 0 });
    if (op->kind == FL_OP_DELRANGE) {
        mrc = fl_model_delete_range(ck->model, ck_mb(&op->a), ck_mb(&op->b));
        if (!mrc && fl_model_compare(ck_mb(&op->a), ck_mb(&op->b)) < 0) mrc = mem_note_rt(ck, op);
    }
    if (mrc == FL_MODEL_ERR_NOMEM)
        return ck_fail(ck, FL_ERR_NOMEM, "out of memory in the reference model at line %u (%s)", op->line,
                       fl_op_name(op->kind));
    if (mrc) return ck_fail(ck, FL_ERR_INVALID, "the reference model refused line %u (%s): %s", op->line,
                            fl_op_name(op->kind), fl_strerror(mrc));
    if (op->kind == FL_OP_PUT || op->kind == FL_OP_DEL) {     /* ever written: in an SST maybe */
        if (ck_fpset_add(&ck->written, key_fp) && !ck->written.slots)
            ck->written_complete = false;               /* out of memory */
    }
    return FL_OK;
}

static int run_write(fl_checker *ck, const fl_op *op) {
    fl_metrics before;
    ck->eng->metrics(ck->db, &before);
    int rc;
    uint64_t key_fp = 0;
    if (ck->cfg.check && (op->kind == FL_OP_PUT || op->kind == FL_OP_DEL)) {
        /* the large tables the checks of a written key touch, fetched
         * while the engine writes */
        key_fp = written_fp(op);
        if (ck_fpset_large(&ck->written)) ck_fpset_prefetch(&ck->written, key_fp);
        ck_contract_prefetch(ck, op->a.data, op->a.len);
    }
    ck_engine_enter(ck, fl_op_name(op->kind));
    switch (op->kind) {
    case FL_OP_PUT:      rc = ck->eng->put(ck->db, ck_sl(&op->a), ck_sl(&op->b)); break;
    case FL_OP_DEL:      rc = ck->eng->del(ck->db, ck_sl(&op->a)); break;
    case FL_OP_DELRANGE: rc = ck->eng->delete_range(ck->db, ck_sl(&op->a), ck_sl(&op->b)); break;
    case FL_OP_FLUSH:    rc = ck->eng->flush(ck->db); break;
    default:             rc = ck->eng->compact(ck->db, op->full); break;
    }
    ck_engine_leave(ck);
    if (rc && ck->fault && fl_env_fault_dead(ck->fault)) return FL_CK_CRASHED;
    if (rc) return ck_fail(ck, rc, "%s", ck->eng->errmsg(ck->db));
    if (!ck->cfg.check) return FL_OK;
    if ((rc = model_apply(ck, op, key_fp))) return rc;
    if (op->kind == FL_OP_PUT || op->kind == FL_OP_DEL) ck_contract_point(ck, op->a.data, op->a.len);
    bool flushed = op->kind == FL_OP_FLUSH || (op->kind == FL_OP_COMPACT && op->full);
    return after_change(ck, &before, flushed);
}

static int apply_options(fl_checker *ck, const fl_op *op) {
    char err[1024];
    for (size_t i = 0; i < op->opt_count; i++) {
        err[0] = 0;
        int rc = fl_options_set(&ck->opt, op->opts[i].key, op->opts[i].value, err, sizeof err);
        if (rc) return ck_fail(ck, rc, "%s", err[0] ? err : "invalid option");
    }
    return FL_OK;
}

/* Options changed on the open database: new SSTs and every read use the new
 * policies from now on (the reference filters are decoded anew), the
 * memtable stays. */
static int run_set_options(fl_checker *ck, const fl_op *op) {
    if (!ck->eng->set_options)
        return ck_fail(ck, FL_ERR_INVALID, "the %s engine cannot change the options of an open "
                       "database", ck->eng->name);
    int rc = apply_options(ck, op);
    char err[1024] = "";
    if (!rc) {
        ck_engine_enter(ck, "set_options");
        rc = ck->eng->set_options(ck->db, &ck->opt, err, sizeof err);
        ck_engine_leave(ck);
        if (rc) return ck_fail(ck, rc, "%s", err[0] ? err : fl_strerror(rc));
    }
    if (rc || !ck->cfg.check) return rc;
    ck->generation++;
    ck->mem_under_old_options = true;
    return configs_for(ck);
}

void fl_checker_ahead(fl_checker *ck, uint64_t index, const fl_op *ops, size_t n) {
    if (!ck->db || !ck->eng->ahead || ck->fault || !n) return;
    ck_engine_enter(ck, fl_op_name(ops[0].kind));       /* (a hang is the watchdog's) */
    ck->eng->ahead(ck->db, index, ops, n);
    ck_engine_leave(ck);
}

int fl_checker_run(fl_checker *ck, const fl_op *op) {
    int rc;
    ck->err[0] = 0;
    ck->op = op;
    ck->sum.ops++;
    if (!ck->db && op->kind != FL_OP_OPEN && op->kind != FL_OP_REOPEN) {
        ck->op = NULL;
        if ((rc = db_open(ck))) return rc;          /* the defaults */
        ck->op = op;
    }
    switch (op->kind) {
    case FL_OP_OPEN:
    case FL_OP_REOPEN:
        if (ck->db && (rc = db_close(ck))) break;
        if ((rc = apply_options(ck, op))) break;
        rc = db_open(ck);
        break;
    case FL_OP_GET:
    case FL_OP_SCAN_PREFIX:
    case FL_OP_SCAN:
    case FL_OP_SEEK:
    case FL_OP_SEEK_FOR_PREV:
        rc = ck_run_read(ck, op);
        break;
    case FL_OP_MULTIGET:
        rc = ck_run_multiget(ck, op);
        break;
    case FL_OP_SET_OPTIONS:
        rc = run_set_options(ck, op);
        break;
    case FL_OP_CRASH:
        rc = run_crash(ck, op);
        break;
    default:
        rc = run_write(ck, op);
        break;
    }
    if (rc != FL_OK && ck->fault && fl_env_fault_dead(ck->fault)) {
        ck->err[0] = 0;                       /* the death, not an error */
        if (ck->cfg.check && op->kind != FL_OP_CRASH && (op->kind == FL_OP_PUT || op->kind == FL_OP_DEL ||
                                                         op->kind == FL_OP_DELRANGE))
            rc = model_apply(ck, op, written_fp(op));   /* the op's write may be in what committed */
        else
            rc = FL_OK;
        if (!rc && (op->kind == FL_OP_OPEN || op->kind == FL_OP_REOPEN)) rc = apply_options(ck, op);
        if (!rc) rc = recover(ck, op);
    }
    ck->op = NULL;
    return rc;
}
