/*
 * filterlab_serve.c -- filterlab's own engine as an adapter program of the
 * engine protocol (docs/protocol.md): `filterlab serve` reads
 * requests on stdin and answers on stdout, so that
 *
 *     filterlab replay W --engine "cmd:filterlab serve"
 *
 * runs the same engine as `--engine filterlab`, but through the protocol:
 * the measure of what the protocol costs (make bench) and of what a
 * foreign engine's checks can see (no probe trace, only what the protocol
 * carries).  A translator like every adapter: it maps each request onto
 * engine.h and reports what the engine did; it judges nothing.
 *
 * One request loop, one function per verb.  Op requests are workload lines,
 * so they are read by the workload parser itself.
 */
#include "../adapters.h"
#include "../proc/proc_line.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct server {
    FILE *out;
    fl_registry *reg;
    fl_calls *calls;     /* the databases' call context: its violations are
                            `violation` lines, written before the reply */
    fl_db *db;
    fl_buf value;
    /* The last `ssts` listing, kept while the SSTs stay as they were: the
     * engine changes them only in a flush or a compaction, which its
     * counters (ssts_written, flushes, compactions) show.  A client that
     * runs ahead asks after every write. */
    char *listing;
    size_t listing_len;
    uint64_t listed_at[3];
} server;

static void forget_listing(server *s) {
    free(s->listing);
    s->listing = NULL;
    s->listing_len = 0;
}

static void violation(void *arg, const fl_contract_violation *v) {
    server *s = arg;
    fl_proc_print_violation(s->out, v);
}

static int reply(server *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int reply(server *s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfprintf(s->out, fmt, ap);
    va_end(ap);
    fputc('\n', s->out);
    return 0;
}

/* An engine error as `err KIND MESSAGE`. */
static int fail(server *s, int rc, const char *msg) {
    const char *kind = rc == FL_ERR_INVALID ? "invalid"
                     : rc == FL_ERR_NOTFOUND ? "notfound"
                     : rc == FL_ERR_CORRUPT ? "corrupt" : "io";
    char one[1024];
    size_t n = 0;
    for (const char *p = msg; *p && n + 1 < sizeof one; p++) one[n++] = *p == '\n' ? ' ' : *p;
    one[n] = 0;
    return reply(s, "err %s %s", kind, one[0] ? one : fl_strerror(rc));
}

static void put_bytes(server *s, const uint8_t *p, size_t n) { fl_bytes_print(s->out, p, n); }

static int entry(void *arg, fl_slice key, fl_slice value) {
    server *s = arg;
    fputs("entry ", s->out);
    put_bytes(s, key.data, key.len);
    fputc(' ', s->out);
    put_bytes(s, value.data, value.len);
    fputc('\n', s->out);
    return 0;
}

static fl_slice sl(const fl_bytes *b) { return (fl_slice){ b->data, b->len }; }

/* The options of an open or set_options request: the defaults, then each. */
static int options_of(const fl_op *op, fl_options *opt, char *err, size_t err_len) {
    fl_options_init(opt);
    opt->sync = false;              /* a scratch database of a check or replay */
    for (size_t i = 0; i < op->opt_count; i++) {
        int rc = fl_options_set(opt, op->opts[i].key, op->opts[i].value, err, err_len);
        if (rc != FL_OK) { fl_options_free(opt); return rc; }
    }
    return FL_OK;
}

/* Parses text (one line) as a workload op. */
static int parse_op(const char *text, size_t len, fl_workload *w, char *err, size_t err_len) {
    static const char header[] = "filterlab-workload 1\n";
    char *doc = malloc(sizeof header + len + 1);
    if (!doc) return FL_ERR_NOMEM;
    memcpy(doc, header, sizeof header - 1);
    memcpy(doc + sizeof header - 1, text, len);
    doc[sizeof header - 1 + len] = '\n';
    int rc = fl_workload_parse(doc, sizeof header + len, "request", w, err, err_len) == 0 && w->count == 1
                 ? FL_OK : FL_ERR_INVALID;
    free(doc);
    return rc;
}

static void ctx_of(const fl_op *op, fl_filter_context *ctx) {
    memset(ctx, 0, sizeof *ctx);
    memcpy(ctx->bytes, op->ctx, op->ctx_len);
}

/* ---- One function per verb ---------------------------------------------------- */

static int do_open(server *s, const char *args, size_t len) {
    uint8_t *dir = malloc(len + 1);
    size_t dlen, used;
    if (!dir || !fl_bytes_scan(args, len, dir, &dlen, &used)) {
        free(dir);
        return reply(s, "err invalid open: expected `open DIR KEY=VALUE ...`");
    }
    dir[dlen] = 0;
    char err[1024] = "", line[16] = "open";
    /* the rest is an open line's options */
    fl_workload w = { 0 };
    size_t rest = len - used;
    char *text = malloc(rest + 8);
    int rc = text ? FL_OK : FL_ERR_NOMEM;
    if (rc == FL_OK) {
        memcpy(text, line, 4);
        memcpy(text + 4, args + used, rest);
        rc = parse_op(text, rest + 4, &w, err, sizeof err);
    }
    free(text);
    fl_options opt;
    if (rc == FL_OK) rc = options_of(&w.ops[0], &opt, err, sizeof err);
    fl_workload_free(&w);
    if (rc != FL_OK) { free(dir); return fail(s, rc, err); }
    if (s->db) fl_db_close(s->db, NULL, 0);
    s->db = NULL;
    forget_listing(s);
    opt.calls = s->calls;
    rc = fl_db_open((const char *)dir, s->reg, &opt, &s->db, err, sizeof err);
    fl_options_free(&opt);
    free(dir);
    if (rc != FL_OK) return fail(s, rc, err);
    return reply(s, "ok");
}

/* `plugin PATH`: loaded into the registry every later open uses. */
static int do_plugin(server *s, const char *args, size_t len) {
    uint8_t *path = malloc(len + 1);
    size_t plen, used;
    if (!path || !fl_bytes_scan(args, len, path, &plen, &used) || used != len || memchr(path, 0, plen)) {
        free(path);
        return reply(s, "err invalid plugin: expected `plugin PATH`");
    }
    path[plen] = 0;
    char err[1024] = "";
    int rc = fl_registry_load_plugin(s->reg, (const char *)path, err, sizeof err);
    free(path);
    return rc == FL_OK ? reply(s, "ok") : fail(s, FL_ERR_INVALID, err);
}

/* " NAME=V" at *at (which has room: 24 bytes beyond name's). */
static char *put_counter(char *at, const char *name, uint64_t v) {
    *at++ = ' ';
    size_t n = strlen(name);
    memcpy(at, name, n);
    at += n;
    *at++ = '=';
    char digits[20];
    size_t d = 0;
    do digits[d++] = (char)('0' + v % 10); while ((v /= 10) != 0);
    while (d) *at++ = digits[--d];
    return at;
}

/* One reply per op the checker runs: built by hand, not by printf, which
 * took a tenth of this program's time on a mixed replay. */
static int do_metrics(server *s) {
    fl_metrics m;
    fl_db_metrics(s->db, &m);
    static const char *const names[2][5] = {
        { "point.considered", "point.unfiltered", "point.positive", "point.negative", "point.false_positive" },
        { "prefix.considered", "prefix.unfiltered", "prefix.positive", "prefix.negative", "prefix.false_positive" },
    };
    const fl_filter_counters *k[2] = { &m.point, &m.prefix };
    char line[1024], *at = line;
    memcpy(at, "ok", 2);
    at += 2;
    for (int i = 0; i < 2; i++) {
        at = put_counter(at, names[i][0], k[i]->considered);
        at = put_counter(at, names[i][1], k[i]->unfiltered);
        at = put_counter(at, names[i][2], k[i]->positive);
        at = put_counter(at, names[i][3], k[i]->negative);
        at = put_counter(at, names[i][4], k[i]->false_positive);
    }
    at = put_counter(at, "filter_errors", m.filter_errors);
    at = put_counter(at, "contract_violations", m.contract_violations);
    at = put_counter(at, "ssts_written", m.ssts_written);
    at = put_counter(at, "sst_reads", m.sst_reads);
    at = put_counter(at, "flushes", m.flushes);
    at = put_counter(at, "compactions", m.compactions);
    *at++ = '\n';
    fwrite(line, 1, (size_t)(at - line), s->out);
    return 0;
}

/* The `sst ...` lines of the live SSTs into f. */
static int list_ssts(server *s, FILE *f) {
    fl_sst_meta *m;
    size_t n;
    int rc = fl_db_ssts(s->db, &m, &n);
    if (rc != FL_OK) return rc;
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "sst %llu %d ", (unsigned long long)m[i].id, m[i].level);
        fl_bytes_print(f, m[i].smallest, m[i].smallest_len);
        fputc(' ', f);
        fl_bytes_print(f, m[i].largest, m[i].largest_len);
        fprintf(f, " %llu %llu %d", (unsigned long long)m[i].entries,
                (unsigned long long)m[i].range_tombstones, m[i].largest_exclusive ? 1 : 0);
        for (size_t j = 0; j < m[i].filter_count; j++) {
            fputc(' ', f);
            fl_bytes_print(f, (const uint8_t *)m[i].filter_names[j], strlen(m[i].filter_names[j]));
        }
        fputc('\n', f);
    }
    fl_sst_meta_free(m, n);
    return FL_OK;
}

static int do_ssts(server *s) {
    fl_metrics m;
    fl_db_metrics(s->db, &m);
    uint64_t at[3] = { m.ssts_written, m.flushes, m.compactions };
    if (!s->listing || memcmp(at, s->listed_at, sizeof at) != 0) {
        forget_listing(s);
        FILE *f = open_memstream(&s->listing, &s->listing_len);
        if (!f) return fail(s, FL_ERR_NOMEM, "out of memory");
        int rc = list_ssts(s, f);
        if (fclose(f) != 0 && rc == FL_OK) rc = FL_ERR_NOMEM;
        if (rc != FL_OK) {
            forget_listing(s);
            return fail(s, rc, fl_db_errmsg(s->db));
        }
        memcpy(s->listed_at, at, sizeof at);
    }
    fwrite(s->listing, 1, s->listing_len, s->out);
    return reply(s, "ok");
}

static int do_op(server *s, const char *line, size_t len) {
    fl_workload w = { 0 };
    char err[1024] = "";
    if (parse_op(line, len, &w, err, sizeof err) != FL_OK) return reply(s, "err invalid %s", err);
    const fl_op *op = &w.ops[0];
    fl_filter_context ctx;
    ctx_of(op, &ctx);
    const fl_filter_context *ctxp = op->has_ctx ? &ctx : NULL;
    bool found = false;
    int rc = FL_OK;
    switch (op->kind) {
    case FL_OP_PUT: rc = fl_db_put(s->db, sl(&op->a), sl(&op->b)); break;
    case FL_OP_DEL: rc = fl_db_delete(s->db, sl(&op->a)); break;
    case FL_OP_DELRANGE: rc = fl_db_delete_range(s->db, sl(&op->a), sl(&op->b)); break;
    case FL_OP_FLUSH: rc = fl_db_flush(s->db); break;
    case FL_OP_COMPACT: rc = fl_db_compact(s->db, op->full); break;
    case FL_OP_GET:
        rc = fl_db_get(s->db, sl(&op->a), ctxp, &s->value, &found);
        if (rc == FL_OK) {
            if (found) {
                fputs("ok value ", s->out);
                put_bytes(s, s->value.data, s->value.len);
                reply(s, "%s", "");
            } else {
                reply(s, "ok none");
            }
            fl_workload_free(&w);
            return 0;
        }
        break;
    case FL_OP_SCAN: rc = fl_db_scan(s->db, sl(&op->a), sl(&op->b), entry, s); break;
    case FL_OP_SCAN_PREFIX: rc = fl_db_scan_prefix(s->db, sl(&op->a), ctxp, entry, s); break;
    case FL_OP_SEEK:
    case FL_OP_SEEK_FOR_PREV:
        rc = fl_db_seek(s->db, sl(&op->a), op->kind == FL_OP_SEEK_FOR_PREV, op->count, op->prefix_mode, ctxp,
                        entry, s);
        break;
    case FL_OP_SET_OPTIONS: {
        fl_options opt;
        rc = options_of(op, &opt, err, sizeof err);
        if (rc == FL_OK) {
            opt.calls = s->calls;
            rc = fl_db_set_options(s->db, &opt, err, sizeof err);
            fl_options_free(&opt);
        }
        if (rc != FL_OK) {
            fl_workload_free(&w);
            return fail(s, rc, err);
        }
        break;
    }
    default:
        fl_workload_free(&w);
        return reply(s, "err unsupported %s", fl_op_name(op->kind));
    }
    fl_workload_free(&w);
    if (rc != FL_OK) return fail(s, rc, fl_db_errmsg(s->db));
    return reply(s, "ok");
}

/* Requests, a line at a time, read from the descriptor itself, so that
 * the replies can be flushed when no whole request is left to read (and,
 * in the loop, before any request that runs the engine): a client that
 * sends many requests ahead gets their replies in few writes. */
typedef struct line_reader {
    int fd;
    FILE *out;
    char *buf;
    size_t cap, start, end;     /* the unread bytes are buf[start..end) */
    bool failed;                /* a read or a flush failed */
} line_reader;

/* The next request without its newline (NUL-terminated in place), or NULL
 * at the end of input; a last line without a newline is still a line. */
static char *next_line(line_reader *r, size_t *len) {
    for (;;) {
        char *nl = r->end > r->start ? memchr(r->buf + r->start, '\n', r->end - r->start) : NULL;
        if (nl) {
            char *line = r->buf + r->start;
            *nl = 0;
            *len = (size_t)(nl - line);
            r->start += *len + 1;
            return line;
        }
        if (fflush(r->out) != 0) {      /* about to wait: what was answered goes out */
            r->failed = true;
            return NULL;
        }
        if (r->start > 0) {             /* the partial line to the front */
            memmove(r->buf, r->buf + r->start, r->end - r->start);
            r->end -= r->start;
            r->start = 0;
        }
        if (r->end + 1 >= r->cap) {
            size_t cap = r->cap ? r->cap * 2 : 1 << 16;
            char *b = realloc(r->buf, cap);
            if (!b) {
                r->failed = true;
                return NULL;
            }
            r->buf = b;
            r->cap = cap;
        }
        ssize_t got = read(r->fd, r->buf + r->end, r->cap - 1 - r->end);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            r->failed = true;
            return NULL;
        }
        if (got == 0) {
            if (r->end == r->start) return NULL;
            r->buf[r->end++] = '\n';   /* a last line without its newline */
            continue;
        }
        r->end += (size_t)got;
    }
}

int fl_filterlab_serve(FILE *in, FILE *out, const char *const *plugins, size_t nplugins) {
    server s = { .out = out };
    fl_buf_init(&s.value);
    if (fl_registry_new(&s.reg) != FL_OK) return 2;
    if (fl_calls_new(s.reg, &s.calls) != FL_OK) {
        fl_registry_free(s.reg);
        return 2;
    }
    fl_calls_set_sink(s.calls, violation, &s);
    for (size_t i = 0; i < nplugins; i++) {
        char err[1024] = "";
        if (fl_registry_load_plugin(s.reg, plugins[i], err, sizeof err) != FL_OK) {
            fprintf(stderr, "filterlab serve: --plugin %s: %s\n", plugins[i], err);
            fl_calls_free(s.calls);
            fl_registry_free(s.reg);
            return 2;
        }
    }
    line_reader r = { .fd = fileno(in), .out = out };
    char *line;
    size_t len;
    int status = 0;
    while ((line = next_line(&r, &len))) {
        const char *sp = memchr(line, ' ', len);
        size_t vlen = sp ? (size_t)(sp - line) : len;
        const char *args = sp ? sp + 1 : line + len;
        size_t alen = len - (size_t)(args - line);
#define VERB(w) (vlen == sizeof(w) - 1 && memcmp(line, w, vlen) == 0)
        /* what was answered goes out before a request that runs the
         * engine: if it dies there, the client names that request */
        if (!VERB("metrics") && !VERB("ssts") && fflush(out) != 0) {
            status = 1;
            break;
        }
        if (VERB("hello")) {
            reply(&s, "ok 1 filterlab 0.1.0 caps=put,del,delrange,get,scan,scan_prefix,seek,seek_for_prev,"
                      "flush,compact,set_options,ssts,plugin counters=point.considered,point.unfiltered,"
                      "point.positive,point.negative,point.false_positive,prefix.considered,"
                      "prefix.unfiltered,prefix.positive,prefix.negative,prefix.false_positive,"
                      "filter_errors,contract_violations,ssts_written,sst_reads,flushes,compactions");
        } else if (VERB("quit")) {
            reply(&s, "ok");
            break;
        } else if (VERB("open")) {
            do_open(&s, args, alen);
        } else if (VERB("plugin")) {
            do_plugin(&s, args, alen);
        } else if (!s.db) {
            reply(&s, "err invalid no database is open: `open DIR ...` first");
        } else if (VERB("close")) {
            char err[1024] = "";
            int rc = fl_db_close(s.db, err, sizeof err);
            s.db = NULL;
            forget_listing(&s);
            if (rc != FL_OK) fail(&s, rc, err);
            else reply(&s, "ok");
        } else if (VERB("metrics")) {
            do_metrics(&s);
        } else if (VERB("ssts")) {
            do_ssts(&s);
        } else {
            do_op(&s, line, len);
        }
#undef VERB
        if (ferror(out)) {
            status = 1;
            break;
        }
    }
    if (r.failed) status = 1;
    if (s.db) fl_db_close(s.db, NULL, 0);
    forget_listing(&s);
    if (fflush(out) != 0) status = 1;
    free(r.buf);
    fl_buf_free(&s.value);
    fl_calls_free(s.calls);
    fl_registry_free(s.reg);
    return status;
}
