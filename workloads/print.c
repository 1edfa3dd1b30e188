/*
 * print.c -- the printer of SPEC 9: workloads, single ops, and the byte-string
 * spelling that `replay --results` and parse errors also use.
 *
 * Invariant: everything printed here is read back by parse.c as the same
 * bytes.  A byte string is bare only when every byte may be bare; otherwise it
 * is quoted and every byte outside 0x20-0x7E, '"' and '\' is escaped, so the
 * quoted form holds printable ASCII only.
 */
#include "workload_internal.h"

#include <string.h>

static const char hex_digits[] = "0123456789abcdef";

/* The spelling of one byte inside double quotes; returns its length (1-4). */
static size_t quoted_byte(uint8_t c, char out[4]) {
    switch (c) {
    case '\\': out[0] = '\\'; out[1] = '\\'; return 2;
    case '"':  out[0] = '\\'; out[1] = '"';  return 2;
    case '\n': out[0] = '\\'; out[1] = 'n';  return 2;
    case '\t': out[0] = '\\'; out[1] = 't';  return 2;
    default:
        if (c >= 0x20 && c <= 0x7e) { out[0] = (char)c; return 1; }
        out[0] = '\\'; out[1] = 'x';
        out[2] = hex_digits[c >> 4]; out[3] = hex_digits[c & 15];
        return 4;
    }
}

/* Bare unless empty, holding a byte that needs quoting, or the word
 * `none`: a results line says `-> none` for a missing key, so a value
 * `none` prints quoted and the two never look alike. */
static bool bytes_bare(const uint8_t *data, size_t len) {
    if (len == 0 || (len == 4 && memcmp(data, "none", 4) == 0)) return false;
    for (size_t i = 0; i < len; i++)
        if (!fl_wl_bare_byte(data[i])) return false;
    return true;
}

static bool value_bare(const char *v) {
    if (!v[0]) return false;
    for (const char *p = v; *p; p++)
        if (!fl_wl_bare_value_byte((uint8_t)*p) || *p == '\\') return false;
    return true;
}

/* Writes data quoted, through a small buffer (values run to 4 MiB quoted). */
static void print_quoted(FILE *f, const uint8_t *data, size_t len) {
    char buf[4096];
    size_t used = 0;
    buf[used++] = '"';
    for (size_t i = 0; i < len; i++) {
        if (used > sizeof buf - 8) { fwrite(buf, 1, used, f); used = 0; }
        used += quoted_byte(data[i], buf + used);
    }
    buf[used++] = '"';
    fwrite(buf, 1, used, f);
}

void fl_bytes_print(FILE *f, const uint8_t *data, size_t len) {
    if (bytes_bare(data, len)) fwrite(data, 1, len, f);
    else print_quoted(f, data, len);
}

void fl_wl_describe(char *buf, size_t cap, const uint8_t *data, size_t len,
                    size_t max_src) {
    if (cap == 0) return;
    size_t used = 0, shown = len < max_src ? len : max_src;
    const char *tail = len > shown ? "\"..." : "\"";
    size_t tail_len = strlen(tail);
    if (cap < 2 + tail_len) { buf[0] = 0; return; }
    buf[used++] = '"';
    for (size_t i = 0; i < shown; i++) {
        char one[4];
        size_t n = quoted_byte(data[i], one);
        if (used + n + tail_len + 1 > cap) break;
        memcpy(buf + used, one, n);
        used += n;
    }
    memcpy(buf + used, tail, tail_len + 1);
}

/* ---- Ops ---------------------------------------------------------------- */

static void print_option(FILE *f, const fl_wl_option *o) {
    fputs(o->key, f);
    fputc('=', f);
    if (value_bare(o->value)) fputs(o->value, f);
    else print_quoted(f, (const uint8_t *)o->value, strlen(o->value));
}

static void print_ctx(FILE *f, const fl_op *op) {
    if (!op->has_ctx) return;
    fputs(" ctx=", f);
    for (size_t i = 0; i < op->ctx_len; i++) {
        fputc(hex_digits[op->ctx[i] >> 4], f);
        fputc(hex_digits[op->ctx[i] & 15], f);
    }
}

/* What a hand-built op could get wrong that would make printing crash or
 * write text parse() refuses; ops from parse() and add() always pass. */
static bool op_printable(const fl_op *op) {
    if ((int)op->kind < FL_OP_OPEN || (int)op->kind > FL_OP_LAST) return false;
    if ((op->kind == FL_OP_SEEK || op->kind == FL_OP_SEEK_FOR_PREV) &&
        (op->count < 1 || op->count > FL_WL_SEEK_MAX || op->prefix_mode < -1 || op->prefix_mode > 1))
        return false;
    if (op->has_ctx && op->ctx_len > FL_WL_CTX_MAX) return false;
    if ((op->a.len && !op->a.data) || (op->b.len && !op->b.data)) return false;
    if (op->opt_count && !op->opts) return false;
    for (size_t i = 0; i < op->opt_count; i++)
        if (!op->opts[i].key || !op->opts[i].value) return false;
    return true;
}

int fl_op_print(const fl_op *op, FILE *f) {
    if (!op_printable(op)) return -1;
    fputs(fl_op_name(op->kind), f);
    switch (op->kind) {
    case FL_OP_OPEN:
    case FL_OP_REOPEN:
    case FL_OP_SET_OPTIONS:
        for (size_t i = 0; i < op->opt_count; i++) {
            fputc(' ', f);
            print_option(f, &op->opts[i]);
        }
        break;
    case FL_OP_PUT:
    case FL_OP_DELRANGE:
    case FL_OP_SCAN:
        fputc(' ', f);
        fl_bytes_print(f, op->a.data, op->a.len);
        fputc(' ', f);
        fl_bytes_print(f, op->b.data, op->b.len);
        break;
    case FL_OP_DEL:
        fputc(' ', f);
        fl_bytes_print(f, op->a.data, op->a.len);
        break;
    case FL_OP_GET:
    case FL_OP_SCAN_PREFIX:
        fputc(' ', f);
        fl_bytes_print(f, op->a.data, op->a.len);
        print_ctx(f, op);
        break;
    case FL_OP_MULTIGET: {
        size_t off = 0, len;
        const uint8_t *key;
        while (fl_op_multiget_key(op, &off, &key, &len)) {
            fputc(' ', f);
            fl_bytes_print(f, key, len);
        }
        print_ctx(f, op);
        break;
    }
    case FL_OP_SEEK:
    case FL_OP_SEEK_FOR_PREV:
        fputc(' ', f);
        fl_bytes_print(f, op->a.data, op->a.len);
        if (op->count != 1) fprintf(f, " n=%u", op->count);
        if (op->prefix_mode >= 0) fprintf(f, " prefix=%d", op->prefix_mode);
        break;
    case FL_OP_COMPACT:
        if (op->full) fputs(" full", f);
        break;
    case FL_OP_CRASH:
        if (op->count) fprintf(f, " after=%u", op->count);
        break;
    case FL_OP_FLUSH:
        break;
    }
    return ferror(f) ? -1 : 0;
}

/* The description goes first, as the comment lines before the header: that
 * is where parse() takes it from. */
int fl_workload_print(const fl_workload *w, FILE *f) {
    const char *d = w->description ? w->description : "";
    while (*d) {
        const char *nl = strchr(d, '\n');
        size_t n = nl ? (size_t)(nl - d) : strlen(d);
        fputs(n ? "# " : "#", f);
        fwrite(d, 1, n, f);
        fputc('\n', f);
        d += n;
        if (nl) {
            d++;
            if (!*d) fputs("#\n", f);      /* a trailing '\n' is an empty last line */
        }
    }
    fputs(FL_WL_HEADER "\n", f);
    for (size_t i = 0; i < w->count; i++) {
        if (fl_op_print(&w->ops[i], f) != 0) return -1;
        fputc('\n', f);
    }
    if (fflush(f) != 0) return -1;
    return ferror(f) ? -1 : 0;
}
