/*
 * proc.c -- the client of the engine protocol (docs/protocol.md): an engine under
 * test that is a program of its own, in any language, driven as a child
 * process through the table of operations (check.h, fl_engine_ops) like any
 * engine linked in.  `--engine cmd:COMMAND` is one (fl_proc_engine), and so
 * is every named adapter program (slatedb).
 *
 * The adapter is a translator, not a checker: it reports what its engine
 * did, and everything is judged here, by the same checker as every engine.
 *
 * Each table op is made of requests on the connection (proc_conn.c,
 * which keeps them in order, and runs ahead of the checker); the SST files
 * a named adapter's folder reads are proc_files.c's.
 *
 * Timeouts are the runner's watchdog's (--call-timeout): a request is a
 * call into the engine like any other, and a hang is its finding.
 */
#include "../adapters.h"
#include "proc_conn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static proc *of(fl_engine *e) { return (proc *)e; }
static const proc *cof(const fl_engine *e) { return (const proc *)e; }

/* ---- Requests --------------------------------------------------------------------- */

/* An op the adapter did not list: the run stops at its line (exit 2). */
int pc_lacks(proc *p, unsigned cap, const char *op) {
    if (p->c->caps & cap) return FL_OK;
    pc_set_err(p, "the %s engine (%s) cannot run `%s`: its adapter does not list it in caps=", p->kind->ops.name,
               p->c->engine, op);
    return FL_ERR_INVALID;
}

/* Writes the options of opt as option words (the workload's). */
static int put_options(child *c, const fl_options *opt) {
    char num[160];
    int rc = FL_OK;
    if (opt->policies) {
        rc = pc_put_str(c, " policies=");
        if (rc == FL_OK) rc = pc_put_bytes(c, (const uint8_t *)opt->policies, strlen(opt->policies));
    }
    if (rc == FL_OK && opt->compactor) {
        rc = pc_put_str(c, " compactor=");
        if (rc == FL_OK) rc = pc_put_bytes(c, (const uint8_t *)opt->compactor, strlen(opt->compactor));
    }
    snprintf(num, sizeof num,
             " min_filter_keys=%llu memtable_bytes=%llu sst_bytes=%llu block_bytes=%llu l0_trigger=%llu"
             " max_runs=%llu legacy_filters=%d",
             (unsigned long long)opt->min_filter_keys, (unsigned long long)opt->memtable_bytes,
             (unsigned long long)opt->sst_bytes, (unsigned long long)opt->block_bytes,
             (unsigned long long)opt->l0_trigger, (unsigned long long)opt->max_runs, opt->legacy_filters);
    if (rc == FL_OK) rc = pc_put_str(c, num);
    return rc;
}

/* A request that answers `ok` and nothing else. */
static int simple(proc *p, size_t from) {
    char request[256], *line;
    size_t len;
    pc_describe(p->c, from, request, sizeof request);
    int rc = pc_call(p, request, &line, &len);
    if (rc == FL_OK && strcmp(line, "ok") != 0) return pc_garbled(p, request, line, "`ok`");
    return rc;
}

/* `plugin PATH` for each plugin the run loaded that the adapter was not
 * told of yet (an adapter without the cap is told none: a policy of a
 * plugin's kind is then its refusal at the open). */
static int send_plugins(proc *p, const fl_registry *reg) {
    child *c = p->c;
    if (!(c->caps & CAP_PLUGIN)) return FL_OK;
    for (size_t i = 0; i < fl_registry_plugin_count(reg); i++) {
        const char *path = fl_registry_plugin_path(reg, i);
        bool told = false;
        for (size_t j = 0; j < c->nplugins && !told; j++) told = strcmp(c->plugins[j], path) == 0;
        if (told) continue;
        char **n = realloc(c->plugins, (c->nplugins + 1) * sizeof *n);
        if (!n) return FL_ERR_NOMEM;
        c->plugins = n;
        if (!(n[c->nplugins] = strdup(path))) return FL_ERR_NOMEM;
        c->nplugins++;
        size_t from = c->send_len;
        int rc = pc_put_str(c, "plugin ");
        if (rc == FL_OK) rc = pc_put_bytes(c, (const uint8_t *)path, strlen(path));
        if (rc == FL_OK) rc = pc_put_str(c, "\n");
        if (rc == FL_OK) rc = simple(p, from);
        if (rc != FL_OK) return rc;
    }
    return FL_OK;
}

int fl_proc_open(const fl_engine_ops *self, const char *dir, const fl_registry *reg, const fl_options *opt,
                     fl_engine **out, char *err, size_t err_len) {
    *out = NULL;
    fl_proc_kind *kind = (fl_proc_kind *)self;
    proc *p = calloc(1, sizeof *p);
    if (!p) return FL_ERR_NOMEM;
    p->kind = kind;
    p->reg = reg;
    fl_buf_init(&p->value);
    fl_buf_init(&p->key);
    fl_buf_init(&p->read_key);
    int rc = fl_options_copy(&p->opt, opt);       /* (frees what it made when it fails) */
    if (rc != FL_OK) {
        free(p);
        return rc;
    }
    if (kind->idle && !kind->idle->broken) {
        p->c = kind->idle;
        kind->idle = NULL;
    } else {
        pc_child_free(kind->idle);
        kind->idle = NULL;
        if ((rc = pc_spawn(p, err, err_len)) == FL_OK) rc = pc_handshake(p);
        else { free(p); return rc; }
        /* what the adapter lacks, the checker must not count on: without
         * an SST listing it judges reads by their results and counters
         * alone, without a batched read it reads a multiget key by key */
        if (rc == FL_OK && !(p->c->caps & CAP_SSTS)) kind->ops.ssts = NULL;
        if (rc == FL_OK && !(p->c->caps & CAP_MULTIGET)) kind->ops.multiget = NULL;
        if (rc == FL_OK && !(p->c->caps & CAP_SST_FILE)) kind->ops.sst_filter = NULL;
        if (rc == FL_OK && (p->c->caps & (CAP_SST_FILE | CAP_PROBES)) != (CAP_SST_FILE | CAP_PROBES))
            kind->ops.last_read_trace = NULL;
        if (rc == FL_OK && (p->c->caps & (CAP_SST_FILE | CAP_SSTS)) != (CAP_SST_FILE | CAP_SSTS))
            kind->ops.last_read_probes = NULL;
    }
    if (rc == FL_OK) rc = send_plugins(p, reg);
    if (rc == FL_OK) {
        /* sending ahead needs the counters that say when SSTs change */
        const char *env = getenv("FILTERLAB_AHEAD");
        p->ahead_on = !(env && strcmp(env, "0") == 0) &&
                      (!(p->c->caps & CAP_SSTS) || (p->c->exact[12] && p->c->exact[14] && p->c->exact[15]));
        size_t from = p->c->send_len;
        rc = pc_put_str(p->c, "open ");
        if (rc == FL_OK) rc = pc_put_bytes(p->c, (const uint8_t *)dir, strlen(dir));
        if (rc == FL_OK) rc = put_options(p->c, opt);
        if (rc == FL_OK) rc = pc_put_str(p->c, "\n");
        if (rc == FL_OK) rc = simple(p, from);
    }
    if (rc != FL_OK) {
        snprintf(err, err_len, "%s", p->err[0] ? p->err : fl_strerror(rc));
        pc_child_free(p->c);
        fl_options_free(&p->opt);
        fl_buf_free(&p->value);
        fl_buf_free(&p->key);
        free(p);
        return rc;
    }
    *out = (fl_engine *)p;
    return FL_OK;
}

static int proc_close(fl_engine *e, char *err, size_t err_len) {
    proc *p = of(e);
    int rc = pc_put_str(p->c, "close\n");
    if (rc == FL_OK) rc = simple(p, p->c->send_len - 6);
    if (rc != FL_OK && err) snprintf(err, err_len, "%s", p->err);
    if (rc == FL_OK && !p->c->broken && !p->kind->idle) p->kind->idle = p->c;   /* for the next open */
    else pc_child_free(p->c);
    pc_free_filters(p);
    free(p->listed);
    free(p->listed_level);
    free(p->at_open);
    free(p->got_ssts);
    fl_buf_free(&p->read_key);
    fl_options_free(&p->opt);
    fl_buf_free(&p->value);
    fl_buf_free(&p->key);
    free(p->probes);
    free(p->trace);
    free(p);
    return rc;
}

static const char *proc_errmsg(const fl_engine *e) { return cof(e)->err; }

/* An op's workload line (fl_op_print) and its newline: its request. */
static int op_text(const fl_op *op, char **text, size_t *len) {
    *text = NULL;
    *len = 0;
    FILE *f = open_memstream(text, len);
    if (!f) return FL_ERR_NOMEM;
    int prc = fl_op_print(op, f);
    if (prc == 0) prc = fputc('\n', f) == EOF;
    if (fclose(f) != 0 || prc != 0) {
        free(*text);
        *text = NULL;
        return FL_ERR_NOMEM;
    }
    return FL_OK;
}

/* Gathers an op's request (unless it went out ahead), and its text, cut,
 * for messages, in request. */
static int put_op(proc *p, const fl_op *op, char *request, size_t cap) {
    char *text;
    size_t tlen;
    bool sent;
    int rc = pc_ahead_take_op(p, op, &sent, request, cap);   /* sent ahead: nothing to format */
    if (rc != FL_OK || sent) return rc;
    rc = op_text(op, &text, &tlen);
    if (rc != FL_OK) return rc;
    rc = pc_ahead_take(p, text, tlen, &sent);
    if (rc == FL_OK && !sent) rc = pc_put_text(p->c, text, tlen);
    struct ahead a = { .text = text, .len = tlen, .kind = AHEAD_OP };
    pc_ahead_name(&a, request, cap);
    free(text);
    return rc;
}

static fl_bytes bytes_of(fl_slice s) {
    static uint8_t empty;
    return (fl_bytes){ s.len ? (uint8_t *)s.data : &empty, s.len };
}

static void set_ctx(fl_op *op, const fl_filter_context *ctx) {
    if (!ctx) return;
    op->has_ctx = true;
    op->ctx_len = FL_FILTER_CONTEXT_BYTES;
    while (op->ctx_len && ctx->bytes[op->ctx_len - 1] == 0) op->ctx_len--;
    memcpy(op->ctx, ctx->bytes, FL_FILTER_CONTEXT_BYTES);
}

static int write_op(proc *p, unsigned cap, const fl_op *op) {
    int rc = pc_take_deferred(p);
    if (rc == FL_OK) rc = pc_lacks(p, cap, fl_op_name(op->kind));
    if (rc != FL_OK) return rc;
    char request[96];
    if ((rc = put_op(p, op, request, sizeof request)) != FL_OK) return rc;
    return pc_pipelined(p, request);
}

static int proc_put(fl_engine *e, fl_slice k, fl_slice v) {
    fl_op op = { .kind = FL_OP_PUT, .a = bytes_of(k), .b = bytes_of(v), .prefix_mode = -1 };
    return write_op(of(e), CAP_PUT, &op);
}

static int proc_del(fl_engine *e, fl_slice k) {
    fl_op op = { .kind = FL_OP_DEL, .a = bytes_of(k), .prefix_mode = -1 };
    return write_op(of(e), CAP_DEL, &op);
}

static int proc_delete_range(fl_engine *e, fl_slice s, fl_slice end) {
    fl_op op = { .kind = FL_OP_DELRANGE, .a = bytes_of(s), .b = bytes_of(end), .prefix_mode = -1 };
    return write_op(of(e), CAP_DELRANGE, &op);
}

/* An op answered by `ok` alone. */
static int plain_op(proc *p, unsigned cap, const fl_op *op) {
    int rc = pc_lacks(p, cap, fl_op_name(op->kind));
    if (rc != FL_OK) return rc;
    char request[256], *line;
    size_t len;
    if ((rc = put_op(p, op, request, sizeof request)) != FL_OK) return rc;
    rc = pc_call(p, request, &line, &len);
    if (rc == FL_OK && strcmp(line, "ok") != 0) return pc_garbled(p, request, line, "`ok`");
    return rc;
}

static int proc_flush(fl_engine *e) {
    fl_op op = { .kind = FL_OP_FLUSH, .prefix_mode = -1 };
    return plain_op(of(e), CAP_FLUSH, &op);
}

static int proc_compact(fl_engine *e, bool full) {
    fl_op op = { .kind = FL_OP_COMPACT, .full = full, .prefix_mode = -1 };
    return plain_op(of(e), CAP_COMPACT, &op);
}

static int with_metrics(proc *p);
static int after_read(proc *p, int rc);
static int get_reply(proc *p, const char *request, const char *line, size_t len, fl_buf *value, bool *found);
static int probe_line(proc *p, const char *request, const char *line, size_t len);
static int note_read(proc *p, const fl_op *op);

static int proc_get(fl_engine *e, fl_slice key, const fl_filter_context *ctx, fl_buf *value, bool *found) {
    proc *p = of(e);
    int rc = pc_lacks(p, CAP_GET, "get");
    if (rc != FL_OK) return rc;
    fl_op op = { .kind = FL_OP_GET, .a = bytes_of(key), .prefix_mode = -1 };
    set_ctx(&op, ctx);
    char request[256], *line;
    size_t len;
    if ((rc = put_op(p, &op, request, sizeof request)) != FL_OK) return rc;
    if ((rc = with_metrics(p)) != FL_OK) return rc;
    p->probes_valid = false;
    p->nprobes = 0;
    if ((rc = note_read(p, &op)) != FL_OK) return after_read(p, rc);
    if ((rc = pc_call(p, request, &line, &len)) != FL_OK) return after_read(p, rc);
    while ((p->c->caps & CAP_PROBES) && len >= 6 && memcmp(line, "probe ", 6) == 0) {
        if ((rc = probe_line(p, request, line, len)) != FL_OK) return after_read(p, rc);
        if ((rc = pc_read_line(p, request, &line, &len)) != FL_OK) return after_read(p, rc);
        if (len >= 4 && memcmp(line, "err ", 4) == 0) return after_read(p, pc_err_reply(p, request, line));
    }
    rc = get_reply(p, request, line, len, value, found);
    p->probes_valid = rc == FL_OK && (p->c->caps & CAP_PROBES);     /* (the probe lines just read) */
    return after_read(p, rc);
}

/* `probe LEN HASH maybe|no`: one filter probe of the get, of LEN filter
 * bytes whose FNV-1a 64 is HASH (16 hex digits). */
static int probe_line(proc *p, const char *request, const char *line, size_t len) {
    const char *expected = "`probe LEN HASH maybe|no` (HASH: 16 hex digits), then `ok value VALUE` or `ok none`";
    words w = { line, line + len };
    uint64_t n, h = 0;
    const char *s;
    size_t sn;
    if (!pc_word_is(&w, "probe") || !pc_u64_word(&w, &n) || !pc_word(&w, &s, &sn) || sn != 16)
        return pc_garbled(p, request, line, expected);
    for (size_t i = 0; i < 16; i++) {
        int d = s[i] >= '0' && s[i] <= '9' ? s[i] - '0' : s[i] >= 'a' && s[i] <= 'f' ? s[i] - 'a' + 10 : -1;
        if (d < 0) return pc_garbled(p, request, line, expected);
        h = h << 4 | (uint64_t)d;
    }
    const char *a;
    size_t an;
    if (!pc_word(&w, &a, &an) || w.p != w.end || !((an == 5 && memcmp(a, "maybe", 5) == 0) || (an == 2 && memcmp(a, "no", 2) == 0)))
        return pc_garbled(p, request, line, expected);
    bool maybe = an == 5;
    if (p->nprobes == p->probes_cap) {
        size_t cap = p->probes_cap ? 2 * p->probes_cap : 16;
        struct probe *b = realloc(p->probes, cap * sizeof *b);
        if (!b) return FL_ERR_NOMEM;
        p->probes = b;
        p->probes_cap = cap;
    }
    p->probes[p->nprobes++] = (struct probe){ (size_t)n, h, maybe };
    return FL_OK;
}

static int get_reply(proc *p, const char *request, const char *line, size_t len, fl_buf *value, bool *found) {
    words w = { line, line + len };
    const char *expected = "`ok value VALUE` or `ok none`";
    if (!pc_word_is(&w, "ok")) return pc_garbled(p, request, line, expected);
    const char *s;
    size_t n;
    if (!pc_word(&w, &s, &n)) return pc_garbled(p, request, line, expected);
    if (n == 4 && memcmp(s, "none", 4) == 0 && w.p == w.end) {
        *found = false;
        fl_buf_reset(value);
        return FL_OK;
    }
    if (n != 5 || memcmp(s, "value", 5) != 0 || !pc_bytes_word(&w, &p->value) || w.p != w.end)
        return pc_garbled(p, request, line, expected);
    *found = true;
    fl_buf_reset(value);
    return fl_buf_append(value, p->value.data, p->value.len);
}

static int multiget_reply(proc *p, const char *request, size_t n, fl_buf *values, bool *found);

static int proc_multiget(fl_engine *e, size_t n, const fl_slice *keys, const fl_filter_context *ctx,
                         fl_buf *values, bool *found) {
    proc *p = of(e);
    int rc = pc_lacks(p, CAP_MULTIGET, "multiget");
    if (rc != FL_OK) return rc;
    uint8_t *packed = NULL;
    size_t plen = 0;
    for (size_t i = 0; i < n; i++)
        if (fl_op_multiget_pack(&packed, &plen, keys[i].data, keys[i].len) != 0) {
            free(packed);
            return FL_ERR_NOMEM;
        }
    fl_op op = { .kind = FL_OP_MULTIGET, .a = { packed, plen }, .count = (uint32_t)n, .prefix_mode = -1 };
    set_ctx(&op, ctx);
    char request[256];
    rc = put_op(p, &op, request, sizeof request);
    free(packed);
    if (rc != FL_OK) return rc;
    if ((rc = with_metrics(p)) != FL_OK) return rc;
    p->read_kind = 0;                 /* (not one read_probes works out) */
    return after_read(p, multiget_reply(p, request, n, values, found));
}

static int multiget_reply(proc *p, const char *request, size_t n, fl_buf *values, bool *found) {
    char *line;
    size_t len;
    int rc;
    for (size_t i = 0; i <= n; i++) {
        rc = i == 0 ? pc_call(p, request, &line, &len) : pc_read_line(p, request, &line, &len);
        if (rc != FL_OK) return rc;
        words w = { line, line + len };
        if (i == n) {
            if (strcmp(line, "ok") != 0) return pc_garbled(p, request, line, "`ok` after a line per key");
            break;
        }
        if (strncmp(line, "err ", 4) == 0) return pc_err_reply(p, request, line);
        const char *s;
        size_t wn;
        if (!pc_word(&w, &s, &wn)) return pc_garbled(p, request, line, "`value VALUE` or `none`");
        fl_buf_reset(&values[i]);
        if (wn == 4 && memcmp(s, "none", 4) == 0 && w.p == w.end) {
            found[i] = false;
            continue;
        }
        if (wn != 5 || memcmp(s, "value", 5) != 0 || !pc_bytes_word(&w, &p->value) || w.p != w.end)
            return pc_garbled(p, request, line, "`value VALUE` or `none`");
        found[i] = true;
        if (fl_buf_append(&values[i], p->value.data, p->value.len) != FL_OK) return FL_ERR_NOMEM;
    }
    return FL_OK;
}

/* A read answered by `entry KEY VALUE` lines and `ok`: each to fn; with
 * probes (a scan_prefix or a seek, cap probes), `probe LEN HASH maybe|no`
 * lines too, anywhere before the `ok`. */
static int entries(proc *p, const char *request, bool probes, fl_scan_fn fn, void *arg) {
    char *line;
    size_t len;
    int rc = pc_call(p, request, &line, &len);
    bool stopped = false;
    while (rc == FL_OK) {
        if (strcmp(line, "ok") == 0) return FL_OK;
        if (strncmp(line, "err ", 4) == 0) return pc_err_reply(p, request, line);
        if (probes && len >= 6 && memcmp(line, "probe ", 6) == 0) {
            if ((rc = probe_line(p, request, line, len)) == FL_OK) rc = pc_read_line(p, request, &line, &len);
            continue;
        }
        words w = { line, line + len };
        if (!pc_word_is(&w, "entry") || !pc_bytes_word(&w, &p->key) || !pc_bytes_word(&w, &p->value) || w.p != w.end)
            return pc_garbled(p, request, line, probes ? "`entry KEY VALUE`, `probe LEN HASH maybe|no` or `ok`"
                                                    : "`entry KEY VALUE` or `ok`");
        /* the rest of the reply is read even when fn has had enough */
        if (!stopped && fn(arg, (fl_slice){ p->key.data, p->key.len }, (fl_slice){ p->value.data, p->value.len }))
            stopped = true;
        rc = pc_read_line(p, request, &line, &len);
    }
    return rc;
}

/* Keeps what read op is (for the kind's read_probes), or that it is none
 * that read_probes works out. */
static int note_read(proc *p, const fl_op *op) {
    p->read_kind = 0;
    if (!p->kind->read_probes || (op->kind != FL_OP_GET && op->kind != FL_OP_SCAN_PREFIX && op->kind != FL_OP_SEEK &&
                                  op->kind != FL_OP_SEEK_FOR_PREV))
        return FL_OK;
    fl_buf_reset(&p->read_key);
    if (fl_buf_append(&p->read_key, op->a.data, op->a.len) != FL_OK) return FL_ERR_NOMEM;
    p->read_kind = op->kind;
    p->read_prefix_mode = op->prefix_mode;
    return FL_OK;
}

static int read_op(proc *p, unsigned cap, const fl_op *op, fl_scan_fn fn, void *arg) {
    int rc = pc_lacks(p, cap, fl_op_name(op->kind));
    if (rc != FL_OK) return rc;
    char request[256];
    if ((rc = put_op(p, op, request, sizeof request)) != FL_OK) return rc;
    if ((rc = with_metrics(p)) != FL_OK) return rc;
    /* (a total-order scan's reply may list probes too: an engine's of SSTs
     * whose part of its range is one key) */
    bool probes = p->c->caps & CAP_PROBES;
    p->probes_valid = false;
    p->nprobes = 0;
    if ((rc = note_read(p, op)) != FL_OK) return rc;
    rc = entries(p, request, probes, fn, arg);
    p->probes_valid = rc == FL_OK && probes;
    return after_read(p, rc);
}

static int proc_scan_prefix(fl_engine *e, fl_slice prefix, const fl_filter_context *ctx, fl_scan_fn fn,
                            void *arg) {
    fl_op op = { .kind = FL_OP_SCAN_PREFIX, .a = bytes_of(prefix), .prefix_mode = -1 };
    set_ctx(&op, ctx);
    return read_op(of(e), CAP_SCAN_PREFIX, &op, fn, arg);
}

static int proc_scan(fl_engine *e, fl_slice start, fl_slice end, fl_scan_fn fn, void *arg) {
    fl_op op = { .kind = FL_OP_SCAN, .a = bytes_of(start), .b = bytes_of(end), .prefix_mode = -1 };
    return read_op(of(e), CAP_SCAN, &op, fn, arg);
}

static int proc_seek(fl_engine *e, fl_slice key, bool backward, uint32_t n, int prefix_mode,
                     const fl_filter_context *ctx, fl_scan_fn fn, void *arg) {
    fl_op op = { .kind = backward ? FL_OP_SEEK_FOR_PREV : FL_OP_SEEK, .a = bytes_of(key), .count = n,
                 .prefix_mode = prefix_mode };
    set_ctx(&op, ctx);
    return read_op(of(e), backward ? CAP_SEEK_FOR_PREV : CAP_SEEK, &op, fn, arg);
}

static int proc_set_options(fl_engine *e, const fl_options *opt, char *err, size_t err_len) {
    proc *p = of(e);
    int rc = pc_lacks(p, CAP_SET_OPTIONS, "set_options");
    if (rc == FL_OK) {
        size_t from = p->c->send_len;
        rc = pc_put_str(p->c, "set_options");
        if (rc == FL_OK) rc = put_options(p->c, opt);
        if (rc == FL_OK) rc = pc_put_str(p->c, "\n");
        if (rc == FL_OK) rc = simple(p, from);
    }
    if (rc == FL_OK) {
        /* the filters' meaning may have changed with the policies */
        fl_options next;
        if ((rc = fl_options_copy(&next, opt)) == FL_OK) {
            fl_options_free(&p->opt);
            p->opt = next;
            p->options_changed = true;
            pc_free_filters(p);
        } else {
            pc_set_err(p, "set_options: %s", fl_strerror(rc));
        }
    }
    if (rc != FL_OK) snprintf(err, err_len, "%s", p->err);
    return rc;
}

static void proc_metrics(const fl_engine *x, fl_metrics *out) {
    /* (the table gives metrics a const engine: asking is no change to it) */
    proc *p = (proc *)(uintptr_t)x;
    memset(out, 0, sizeof *out);
    if (p->deferred) return;
    if (p->metrics_valid) {
        *out = p->metrics;
        return;
    }
    char *line;
    size_t len;
    bool sent;
    int rc = pc_ahead_take(p, "metrics\n", 8, &sent);
    if (rc == FL_OK && !sent) rc = pc_put_str(p->c, "metrics\n");
    if (rc == FL_OK) rc = pc_call(p, "metrics", &line, &len);
    if (rc == FL_OK && !pc_metrics_reply(p, line, len, out))
        rc = pc_garbled(p, "metrics", line, METRICS_REPLY);
    if (rc != FL_OK) {
        /* the table's metrics cannot fail: the next request does */
        p->deferred = rc;
        memcpy(p->deferred_err, p->err, sizeof p->err);
        memset(out, 0, sizeof *out);
        return;
    }
    p->metrics = *out;
    p->metrics_valid = true;
}

static int with_metrics(proc *p) {
    bool sent;
    int rc = pc_ahead_take(p, "metrics\n", 8, &sent);
    if (rc == FL_OK && !sent) rc = pc_put_str(p->c, "metrics\n");
    if (rc == FL_OK) p->metrics_ahead = true;
    return rc;
}

/* Takes the reply of the `metrics` sent behind a read (unless the adapter
 * broke), whatever the read's status rc, which it returns unless rc is
 * FL_OK and the metrics fail. */
static int after_read(proc *p, int rc) {
    if (!p->metrics_ahead) return rc;
    p->metrics_ahead = false;
    if (p->c->broken) return rc;
    if (p->c->send_len >= 8 && memcmp(p->c->send + p->c->send_len - 8, "metrics\n", 8) == 0) {
        p->c->send_len -= 8;          /* never sent (call returned an earlier error first) */
        return rc;
    }
    char *line;
    size_t len;
    fl_metrics m;
    memset(&m, 0, sizeof m);
    int r2 = pc_read_line(p, "metrics", &line, &len);
    if (r2 == FL_OK && !pc_metrics_reply(p, line, len, &m))
        r2 = pc_garbled(p, "metrics", line, METRICS_REPLY);
    if (r2 != FL_OK) return rc != FL_OK ? rc : r2;
    p->metrics = m;
    p->metrics_valid = true;
    return rc;
}

static bool proc_counts_checks(const fl_engine *x) {
    const proc *p = cof(x);
    return p->c->exact[16] && p->c->exact[17];                /* checks.positive, checks.negative */
}

static bool proc_counts_false_positives(const fl_engine *x, fl_target_kind kind) {
    const proc *p = cof(x);
    return p->c->exact[kind == FL_TARGET_PREFIX ? 9 : 4];   /* prefix. / point.false_positive */
}

/* ---- SSTs ------------------------------------------------------------------------- */

static int proc_ssts(const fl_engine *x, fl_sst_meta **out, size_t *count) {
    proc *p = (proc *)(uintptr_t)x;
    *out = NULL;
    *count = 0;
    int rc = pc_lacks(p, CAP_SSTS, "ssts");
    if (rc != FL_OK) return rc;
    char *line;
    size_t len, cap = 0, n = 0;
    fl_sst_meta *m = NULL;
    bool sent;
    rc = pc_query_begin(p, "ssts\n", true, &sent);
    if (rc == FL_OK && !sent) rc = pc_put_str(p->c, "ssts\n");
    if (rc == FL_OK) rc = pc_call(p, "ssts", &line, &len);
    const char *expected = "`sst ID LEVEL SMALLEST LARGEST ENTRIES RTOMBS EXCL NAME...` or `ok`";
    while (rc == FL_OK && strcmp(line, "ok") != 0) {
        if (strncmp(line, "err ", 4) == 0) { rc = pc_err_reply(p, "ssts", line); break; }
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            fl_sst_meta *b = realloc(m, cap * sizeof *m);
            if (!b) { rc = FL_ERR_NOMEM; break; }
            m = b;
        }
        fl_sst_meta *s = &m[n];
        memset(s, 0, sizeof *s);
        n++;
        words w = { line, line + len };
        uint64_t level, excl;
        bool ok = pc_word_is(&w, "sst") && pc_u64_word(&w, &s->id) && pc_u64_word(&w, &level) && level < 1000000;
        if (ok && (ok = pc_bytes_word(&w, &p->value)) && (s->smallest = malloc(p->value.len + 1))) {
            memcpy(s->smallest, p->value.data, p->value.len);
            s->smallest_len = p->value.len;
        }
        if (ok && (ok = pc_bytes_word(&w, &p->value)) && (s->largest = malloc(p->value.len + 1))) {
            memcpy(s->largest, p->value.data, p->value.len);
            s->largest_len = p->value.len;
        }
        ok = ok && s->smallest && s->largest && pc_count_word(&w, &s->entries) &&
             pc_count_word(&w, &s->range_tombstones) && pc_u64_word(&w, &excl) && excl <= 1;
        if (!ok) { rc = pc_garbled(p, "ssts", line, expected); break; }
        s->level = (int)level;
        s->largest_exclusive = excl == 1;
        while (w.p < w.end) {
            char **names = realloc(s->filter_names, (s->filter_count + 1) * sizeof *names);
            if (!names) { rc = FL_ERR_NOMEM; break; }
            s->filter_names = names;
            if (!pc_bytes_word(&w, &p->value)) { rc = pc_garbled(p, "ssts", line, expected); break; }
            if (!(names[s->filter_count] = malloc(p->value.len + 1))) { rc = FL_ERR_NOMEM; break; }
            memcpy(names[s->filter_count], p->value.data, p->value.len);
            names[s->filter_count][p->value.len] = 0;
            s->filter_count++;
        }
        if (rc == FL_OK) rc = pc_read_line(p, "ssts", &line, &len);
    }
    rc = pc_query_end(p, rc);
    uint64_t *ids = rc == FL_OK ? malloc((n ? n : 1) * sizeof *ids) : NULL;
    int *levels = rc == FL_OK ? malloc((n ? n : 1) * sizeof *levels) : NULL;
    if (rc == FL_OK && (!ids || !levels)) rc = FL_ERR_NOMEM;
    if (rc != FL_OK) {
        free(ids);
        free(levels);
        if (m) fl_sst_meta_free(m, n);
        return rc;
    }
    for (size_t i = 0; i < n; i++) {
        ids[i] = m[i].id;
        levels[i] = m[i].level;
    }
    free(p->listed);
    free(p->listed_level);
    p->listed = ids;
    p->listed_level = levels;
    p->nlisted = n;
    if (!p->at_open_known && (p->at_open = malloc((n ? n : 1) * sizeof *p->at_open))) {
        /* (out of memory: no SST is known to be fresh) */
        memcpy(p->at_open, ids, n * sizeof *ids);
        p->nat_open = n;
        p->at_open_known = true;
    }
    *out = m;
    *count = n;
    return FL_OK;
}

/* ---- Sending ahead ----------------------------------------------------------------- */

/* Whether op goes out ahead: a write or a read without a filter context,
 * which the adapter lists, whose request is the op's own line. */
static bool goes_ahead(const proc *p, const fl_op *op) {
    unsigned caps = p->c->caps;
    switch (op->kind) {
    case FL_OP_PUT:         return caps & CAP_PUT;
    case FL_OP_DEL:         return caps & CAP_DEL;
    case FL_OP_DELRANGE:    return caps & CAP_DELRANGE;
    case FL_OP_GET:         return (caps & CAP_GET) && !op->has_ctx;
    case FL_OP_SCAN:        return caps & CAP_SCAN;
    case FL_OP_SCAN_PREFIX: return (caps & CAP_SCAN_PREFIX) && !op->has_ctx;
    default:                return false;
    }
}

/* fl_engine_ops.ahead: the ops from index on (ops[0] is op index) are
 * the next the checker runs; up to AHEAD_OPS of them go out now, each
 * with the `metrics` (and after a write the `ssts`) the checker may ask
 * after it (docs/protocol.md, "Speed"). */
static void proc_ahead(fl_engine *e, uint64_t index, const fl_op *ops, size_t n) {
    proc *p = of(e);
    child *c = p->c;
    if (!p->ahead_on || c->broken || p->deferred) return;
    if (!c->nahead || c->ahead_next < index) c->ahead_next = index;
    /* (topped up in batches, once half of what was sent ahead is taken:
     * one send for many ops, not one each) */
    if (c->ahead_next - index >= n || c->ahead_ops > AHEAD_OPS / 2 || (c->ahead_ops && c->ahead_bytes >= SEND_BUF / 2))
        return;
    if (!c->nahead && !p->metrics_valid) {
        fl_metrics m;                   /* the counters before: never asked behind ops */
        proc_metrics(e, &m);
        if (p->deferred || c->broken) return;
    }
    char first[200] = "";
    /* (ops of at most about SEND_BUF bytes outstanding: far less than a
     * socket holds, so that sending never waits on an adapter busy with an
     * op; one op, whatever its size) */
    for (size_t j = (size_t)(c->ahead_next - index);
         j < n && c->ahead_ops < AHEAD_OPS && (!c->ahead_ops || c->ahead_bytes < SEND_BUF); j++) {
        const fl_op *op = &ops[j];
        if (!goes_ahead(p, op)) break;
        bool write = op->kind == FL_OP_PUT || op->kind == FL_OP_DEL || op->kind == FL_OP_DELRANGE;
        /* the request the table's call will make (proc_put, proc_get, ...) */
        fl_op q = { .kind = op->kind, .a = bytes_of((fl_slice){ op->a.data, op->a.len }), .prefix_mode = -1 };
        if (op->kind == FL_OP_PUT || op->kind == FL_OP_DELRANGE || op->kind == FL_OP_SCAN)
            q.b = bytes_of((fl_slice){ op->b.data, op->b.len });
        char *text;
        size_t tlen;
        if (op_text(&q, &text, &tlen) != FL_OK) return;
        int rc = pc_ahead_push(c, AHEAD_OP, text, tlen, &q);
        if (rc == FL_OK && !first[0]) {
            struct ahead a = { .text = text, .len = tlen, .kind = AHEAD_OP };
            pc_ahead_name(&a, first, sizeof first);
        }
        free(text);
        if (rc == FL_OK) rc = pc_ahead_push(c, AHEAD_METRICS, "metrics\n", 8, NULL);
        if (rc == FL_OK && write && (c->caps & CAP_SSTS)) rc = pc_ahead_push(c, AHEAD_SSTS, "ssts\n", 5, NULL);
        if (rc != FL_OK) return;        /* (what was gathered is sent with the next request) */
        c->ahead_next++;
    }
    if (first[0]) pc_send_all(p, first);   /* a death is the next call's to report */
}

/* ---- Engines of this kind ------------------------------------------------------------ */

static const fl_engine_ops proc_ops = {
    .open = fl_proc_open,
    .close = proc_close,
    .errmsg = proc_errmsg,
    .put = proc_put,
    .del = proc_del,
    .delete_range = proc_delete_range,
    .flush = proc_flush,
    .compact = proc_compact,
    .get = proc_get,
    .scan_prefix = proc_scan_prefix,
    .scan = proc_scan,
    .seek = proc_seek,
    .set_options = proc_set_options,
    .metrics = proc_metrics,
    .ahead = proc_ahead,
    .multiget = proc_multiget,
    .ssts = proc_ssts,
    .counts_false_positives = proc_counts_false_positives,
    .counts_checks = proc_counts_checks,
    .space = &fl_space_proc,
};

int fl_proc_kind_init(fl_proc_kind *kind, const char *name, const char *command) {
    memset(kind, 0, sizeof *kind);
    kind->ops = proc_ops;
    kind->ops.name = name;
    kind->command = command;
    return FL_OK;
}

uint64_t fl_proc_fnv1a(const uint8_t *data, size_t len) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++) h = (h ^ data[i]) * 0x100000001b3ull;
    return h;
}

const fl_engine_ops *fl_proc_engine(const char *spec) {
    /* `cmd:COMMAND`: one table per distinct command, for the process's life */
    static fl_proc_kind *kinds[16];
    static size_t nkinds;
    if (strncmp(spec, "cmd:", 4) != 0 || !spec[4]) return NULL;
    for (size_t i = 0; i < nkinds; i++)
        if (strcmp(kinds[i]->ops.name, spec) == 0) return &kinds[i]->ops;
    if (nkinds == sizeof kinds / sizeof *kinds) return NULL;
    fl_proc_kind *k = malloc(sizeof *k);
    char *name = strdup(spec);
    if (!k || !name) { free(k); free(name); return NULL; }
    fl_proc_kind_init(k, name, name + 4);
    kinds[nkinds++] = k;
    return &k->ops;
}
