/*
 * parse.c -- the parser of SPEC 9 and fl_workload_load().
 *
 * The text is read in place, line by line, with no line buffer (a 1 MiB value
 * spelled as \xNN makes a 4 MiB line).  Every read of a byte is preceded by a
 * check against the end of its line.  Parsing is all-or-nothing: the first
 * malformed line stops it with "FILE:LINE: expected WHAT, got WHAT", frees
 * everything made so far and leaves the output workload empty.
 */
#include "workload_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* How many source bytes of an offending token a message shows. */
#define FL_WL_SHOW_BYTES 60

typedef struct fl_wl_token { const uint8_t *p; size_t n; } fl_wl_token;

typedef struct fl_wl_parser {
    const char *file;
    char *err;
    size_t err_len;
    unsigned line;
    const uint8_t *cur, *end;       /* the unread rest of the current line */
    fl_op *ops;
    size_t count, cap;              /* cap is a power of two (growth rule) */
    char *desc;                     /* the description so far, or NULL   */
    size_t desc_len, desc_cap;
    bool desc_started;              /* a first comment line was taken    */
} fl_wl_parser;

/* ---- Messages ----------------------------------------------------------- */

/* "FILE:LINE: expected <expected>, got <printf(got_fmt, ...)>"; returns -1. */
__attribute__((format(printf, 3, 4)))
static int fail(fl_wl_parser *ps, const char *expected, const char *got_fmt, ...) {
    if (!ps->err || ps->err_len == 0) return -1;
    int n = snprintf(ps->err, ps->err_len, "%s:%u: expected %s, got ", ps->file,
                     ps->line ? ps->line : 1, expected);
    if (n >= 0 && (size_t)n < ps->err_len) {
        va_list ap;
        va_start(ap, got_fmt);
        vsnprintf(ps->err + n, ps->err_len - (size_t)n, got_fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Like fail(), with the token shown quoted and escaped after "got ". */
static int fail_token(fl_wl_parser *ps, const char *expected, const uint8_t *p, size_t n,
                      const char *detail) {
    char shown[FL_WL_SHOW_BYTES * 4 + 8];
    fl_wl_describe(shown, sizeof shown, p, n, FL_WL_SHOW_BYTES);
    return fail(ps, expected, "%s%s", shown, detail ? detail : "");
}

static int fail_nomem(fl_wl_parser *ps) {
    if (ps->err && ps->err_len)
        snprintf(ps->err, ps->err_len, "%s:%u: out of memory", ps->file, ps->line ? ps->line : 1);
    return -1;
}

/* ---- Tokens ------------------------------------------------------------- */

static bool is_blank(uint8_t c) { return c == ' ' || c == '\t'; }

static int hex_value(uint8_t c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* The next blank-separated token of the line; a blank inside double quotes
 * does not end it (so KEY="a b" is one token).  false at end of line. */
static bool next_token(fl_wl_parser *ps, fl_wl_token *tok) {
    while (ps->cur < ps->end && is_blank(*ps->cur)) ps->cur++;
    if (ps->cur == ps->end) return false;
    const uint8_t *p = ps->cur;
    bool quoted = false;
    while (p < ps->end) {
        if (quoted) {
            if (*p == '\\' && p + 1 < ps->end) p++;
            else if (*p == '"') quoted = false;
        } else if (is_blank(*p)) {
            break;
        } else if (*p == '"') {
            quoted = true;
        }
        p++;
    }
    tok->p = ps->cur;
    tok->n = (size_t)(p - ps->cur);
    ps->cur = p;
    return true;
}

static bool token_is(const fl_wl_token *tok, const char *word) {
    size_t n = strlen(word);
    return tok->n == n && memcmp(tok->p, word, n) == 0;
}

/* Decodes the quoted string q[0..n) (q[0] == '"', the closing quote must be
 * q[n-1]) into out, which has room for n bytes.  what names the thing for
 * messages; tok is the whole token to show.  Returns the length or -1. */
static long decode_quoted(fl_wl_parser *ps, const uint8_t *q, size_t n, const char *what,
                          const fl_wl_token *tok, uint8_t *out) {
    char expected[256];
    size_t len = 0, i = 1;
    for (;;) {
        if (i >= n) {
            snprintf(expected, sizeof expected, "a closing '\"' ending %s", what);
            return fail_token(ps, expected, tok->p, tok->n, " (then end of line)");
        }
        uint8_t c = q[i];
        if (c == '"') {
            if (i + 1 != n) {
                snprintf(expected, sizeof expected, "a blank after the closing '\"' of %s", what);
                return fail_token(ps, expected, tok->p, tok->n, NULL);
            }
            return (long)len;
        }
        if (c == '\\') {
            if (i + 1 >= n) {
                snprintf(expected, sizeof expected, "an escape after '\\' in %s", what);
                return fail_token(ps, expected, tok->p, tok->n, " (then end of line)");
            }
            uint8_t e = q[i + 1];
            if (e == '\\' || e == '"') { out[len++] = e; i += 2; continue; }
            if (e == 'n') { out[len++] = '\n'; i += 2; continue; }
            if (e == 't') { out[len++] = '\t'; i += 2; continue; }
            if (e == 'x' && i + 3 < n && hex_value(q[i + 2]) >= 0 && hex_value(q[i + 3]) >= 0) {
                out[len++] = (uint8_t)(hex_value(q[i + 2]) * 16 + hex_value(q[i + 3]));
                i += 4;
                continue;
            }
            /* show the escape as written: '\', its letter, and for x two more */
            char detail[64], bad[24];
            size_t shown = 0, upto = e == 'x' ? 4 : 2;
            for (size_t j = i; j < n && j < i + upto && q[j] != '"'; j++) {
                if (q[j] >= 0x20 && q[j] <= 0x7e) bad[shown++] = (char)q[j];
                else shown += (size_t)snprintf(bad + shown, 5, "\\x%02x", q[j]);
            }
            bad[shown] = 0;
            snprintf(detail, sizeof detail, " (bad escape %s)", bad);
            snprintf(expected, sizeof expected,
                     "an escape \\\\, \\\", \\n, \\t or \\xNN in %s", what);
            return fail_token(ps, expected, tok->p, tok->n, detail);
        }
        if (c < 0x20 || c > 0x7e) {
            char detail[48];
            snprintf(detail, sizeof detail, " (raw byte 0x%02x: escape it)", c);
            snprintf(expected, sizeof expected, "printable ASCII or escapes in %s", what);
            return fail_token(ps, expected, tok->p, tok->n, detail);
        }
        out[len++] = c;
        i++;
    }
}

/* Reads the byte string `what` (e.g. "KEY of \"put KEY VALUE\""), at most
 * max bytes, into *out.  Missing, malformed or too long is an error. */
static int need_bytes(fl_wl_parser *ps, fl_bytes *out, const char *what, size_t max) {
    char expected[256];
    fl_wl_token tok;
    if (!next_token(ps, &tok)) {
        snprintf(expected, sizeof expected, "%s (a byte string)", what);
        return fail(ps, expected, "end of line");
    }
    uint8_t *buf = malloc(tok.n + 1);
    if (!buf) return fail_nomem(ps);
    size_t len;
    if (tok.p[0] == '"') {
        long got = decode_quoted(ps, tok.p, tok.n, what, &tok, buf);
        if (got < 0) { free(buf); return -1; }
        len = (size_t)got;
    } else {
        for (size_t i = 0; i < tok.n; i++) {
            if (fl_wl_bare_byte(tok.p[i])) continue;
            char detail[64];
            snprintf(detail, sizeof detail, " (byte 0x%02x%s)", tok.p[i],
                     tok.p[i] == '=' ? ": quote a string holding '='" : "");
            snprintf(expected, sizeof expected,
                     "%s: bare bytes 0x21-0x7e other than '\"', '\\' and '=', or a quoted string",
                     what);
            free(buf);
            return fail_token(ps, expected, tok.p, tok.n, detail);
        }
        memcpy(buf, tok.p, tok.n);
        len = tok.n;
    }
    if (len > max) {
        free(buf);
        snprintf(expected, sizeof expected, "%s of at most %zu bytes", what, max);
        return fail(ps, expected, "%zu bytes", len);
    }
    if (len + 1 < tok.n) {                  /* escapes made it shorter: give back */
        uint8_t *shrunk = realloc(buf, len + 1);
        if (shrunk) buf = shrunk;
    }
    out->data = buf;
    out->len = len;
    return 0;
}

static int need_end(fl_wl_parser *ps, const char *after) {
    fl_wl_token tok;
    if (!next_token(ps, &tok)) return 0;
    char expected[128];
    snprintf(expected, sizeof expected, "end of line after \"%s\"", after);
    return fail_token(ps, expected, tok.p, tok.n, NULL);
}

/* ---- Options and contexts ----------------------------------------------- */

/* The VALUE of KEY=VALUE (key names it in messages) into out->value. */
static int decode_option_value(fl_wl_parser *ps, const fl_wl_token *tok, const char *key,
                               size_t key_len, fl_wl_option *out) {
    char expected[512];
    const uint8_t *v = tok->p + key_len + 1;
    size_t vn = tok->n - key_len - 1;
    if (vn == 0) {
        snprintf(expected, sizeof expected,
                 "a value after \"%s=\" (bare, or quoted: \"\" for an empty value)",
                 key);
        return fail_token(ps, expected, tok->p, tok->n, NULL);
    }
    char *value = malloc(vn + 1);
    if (!value) return fail_nomem(ps);
    size_t len;
    snprintf(expected, sizeof expected, "the value of option %s", key);
    if (v[0] == '"') {
        long got = decode_quoted(ps, v, vn, expected, tok, (uint8_t *)value);
        if (got < 0) { free(value); return -1; }
        len = (size_t)got;
        if (memchr(value, 0, len)) {
            free(value);
            snprintf(expected, sizeof expected, "a value of option %s without NUL bytes",
                     key);
            return fail_token(ps, expected, tok->p, tok->n, NULL);
        }
    } else {
        for (size_t i = 0; i < vn; i++) {
            if (fl_wl_bare_value_byte(v[i])) continue;
            free(value);
            char detail[32];
            snprintf(detail, sizeof detail, " (byte 0x%02x)", v[i]);
            snprintf(expected, sizeof expected,
                     "a value of option %s: bare printable ASCII without '\"', or quoted",
                     key);
            return fail_token(ps, expected, tok->p, tok->n, detail);
        }
        memcpy(value, v, vn);
        len = vn;
    }
    value[len] = 0;
    out->value = value;
    return 0;
}

/* KEY=VALUE: a known key (*index its index) or a rocksdb.* key (*index
 * -1), then a bare value (printable ASCII, no '"') or a quoted one (no NUL:
 * values are C strings). */
static int decode_option(fl_wl_parser *ps, const fl_wl_token *tok, const char *opname,
                         fl_wl_option *out, int *index) {
    char expected[512];
    const uint8_t *eq = memchr(tok->p, '=', tok->n);
    if (!eq) {
        snprintf(expected, sizeof expected, "an option KEY=VALUE of %s (keys: %s; or "
                 "rocksdb.NAME)", opname, fl_wl_option_list());
        return fail_token(ps, expected, tok->p, tok->n, NULL);
    }
    size_t key_len = (size_t)(eq - tok->p);
    int idx = fl_wl_option_index((const char *)tok->p, key_len);
    char *key = NULL;
    if (idx >= 0)
        key = strdup(fl_wl_option_keys[idx]);
    else if (fl_wl_option_namespaced((const char *)tok->p, key_len))
        key = strndup((const char *)tok->p, key_len);
    else {
        snprintf(expected, sizeof expected, "an option key of %s (one of: %s) or rocksdb.NAME "
                 "with NAME of [a-z0-9_]", opname, fl_wl_option_list());
        return fail_token(ps, expected, tok->p, key_len, NULL);
    }
    if (!key) return fail_nomem(ps);
    int rc = decode_option_value(ps, tok, key, key_len, out);
    if (rc != 0) { free(key); return rc; }
    out->key = key;
    *index = idx;
    return 0;
}

static int parse_options(fl_wl_parser *ps, fl_op *op) {
    const char *opname = fl_op_name(op->kind);
    uint32_t seen = 0;
    fl_wl_token tok;
    while (next_token(ps, &tok)) {
        fl_wl_option opt = { NULL, NULL };
        int idx = -1;
        if (decode_option(ps, &tok, opname, &opt, &idx) != 0) return -1;
        bool twice = idx >= 0 && (seen & (1u << idx));
        for (size_t i = 0; idx < 0 && i < op->opt_count; i++)
            twice |= strcmp(op->opts[i].key, opt.key) == 0;
        if (twice) {
            char expected[128];
            snprintf(expected, sizeof expected, "each option at most once in %s", opname);
            int rc = fail(ps, expected, "%s twice", opt.key);
            free(opt.key);
            free(opt.value);
            return rc;
        }
        if (idx >= 0) seen |= 1u << idx;
        fl_wl_option *grown = realloc(op->opts, (op->opt_count + 1) * sizeof *grown);
        if (!grown) { free(opt.key); free(opt.value); return fail_nomem(ps); }
        op->opts = grown;
        op->opts[op->opt_count++] = opt;
    }
    if ((op->kind == FL_OP_REOPEN || op->kind == FL_OP_SET_OPTIONS) && op->opt_count == 0) {
        char expected[96];
        snprintf(expected, sizeof expected, "at least one option KEY=VALUE after %s", opname);
        return fail(ps, expected, "end of line");
    }
    return 0;
}

/* Optional "ctx=HEX" then end of line, for get and scan_prefix. */
static int parse_ctx_and_end(fl_wl_parser *ps, fl_op *op, const char *form) {
    fl_wl_token tok;
    char expected[160];
    if (!next_token(ps, &tok)) return 0;
    if (tok.n < 4 || memcmp(tok.p, "ctx=", 4) != 0) {
        snprintf(expected, sizeof expected, "ctx=HEX or end of line after \"%s\"", form);
        return fail_token(ps, expected, tok.p, tok.n, NULL);
    }
    const uint8_t *h = tok.p + 4;
    size_t digits = tok.n - 4;
    bool hex = true;
    for (size_t i = 0; i < digits && hex; i++) hex = hex_value(h[i]) >= 0;
    if (!hex || digits % 2 || digits > 2 * FL_WL_CTX_MAX) {
        snprintf(expected, sizeof expected,
                 "ctx=HEX with an even number of hex digits, at most %d (%d bytes)",
                 2 * FL_WL_CTX_MAX, FL_WL_CTX_MAX);
        return fail_token(ps, expected, tok.p, tok.n, NULL);
    }
    op->has_ctx = true;
    op->ctx_len = digits / 2;
    for (size_t i = 0; i < op->ctx_len; i++)
        op->ctx[i] = (uint8_t)(hex_value(h[2 * i]) * 16 + hex_value(h[2 * i + 1]));
    return need_end(ps, form);
}

/* "[n=N] [prefix=0|1]" in any order, each at most once, then end of line,
 * for seek and seek_for_prev. */
static int parse_seek_tail(fl_wl_parser *ps, fl_op *op, const char *form) {
    fl_wl_token tok;
    bool have_n = false, have_prefix = false;
    char expected[200];
    op->count = 1;
    op->prefix_mode = -1;
    while (next_token(ps, &tok)) {
        if (tok.n > 2 && memcmp(tok.p, "n=", 2) == 0 && !have_n) {
            uint64_t v = 0;
            bool ok = tok.n - 2 <= 7;
            for (size_t i = 2; i < tok.n && ok; i++) {
                ok = tok.p[i] >= '0' && tok.p[i] <= '9';
                v = v * 10 + (uint64_t)(tok.p[i] - '0');
            }
            if (!ok || v < 1 || v > FL_WL_SEEK_MAX) {
                snprintf(expected, sizeof expected, "n=N with N from 1 to %u in \"%s\"",
                         FL_WL_SEEK_MAX, form);
                return fail_token(ps, expected, tok.p, tok.n, NULL);
            }
            op->count = (uint32_t)v;
            have_n = true;
        } else if (tok.n == 8 && memcmp(tok.p, "prefix=", 7) == 0 && !have_prefix &&
                   (tok.p[7] == '0' || tok.p[7] == '1')) {
            op->prefix_mode = tok.p[7] - '0';
            have_prefix = true;
        } else {
            snprintf(expected, sizeof expected, "%s%s%send of line after \"%s\"",
                     have_n ? "" : "n=N, ", have_prefix ? "" : "prefix=0|1, ",
                     have_n || have_prefix ? "" : "or ", form);
            return fail_token(ps, expected, tok.p, tok.n, NULL);
        }
    }
    return 0;
}

/* "KEY... [ctx=HEX]" of multiget: 1 to FL_WL_MULTIGET_MAX keys, packed
 * into op->a (fl_op_multiget_key). */
static int parse_multiget(fl_wl_parser *ps, fl_op *op) {
    static const char *const what = "KEY of \"multiget KEY... [ctx=HEX]\"";
    uint8_t *packed = NULL;
    size_t len = 0;
    for (;;) {
        const uint8_t *at = ps->cur;
        fl_wl_token tok;
        bool more = next_token(ps, &tok);
        if (more && !(tok.n >= 4 && memcmp(tok.p, "ctx=", 4) == 0)) {
            if (op->count == FL_WL_MULTIGET_MAX) {
                char expected[96];
                snprintf(expected, sizeof expected, "at most %u keys in \"multiget KEY...\"", FL_WL_MULTIGET_MAX);
                free(packed);
                return fail_token(ps, expected, tok.p, tok.n, NULL);
            }
            ps->cur = at;                        /* read again, as bytes */
            fl_bytes key = { NULL, 0 };
            if (need_bytes(ps, &key, what, FL_WL_KEY_MAX)) { free(packed); return -1; }
            int rc = fl_op_multiget_pack(&packed, &len, key.data, key.len);
            free(key.data);
            if (rc) { free(packed); return fail_nomem(ps); }
            op->count++;
            continue;
        }
        op->a.data = packed;
        op->a.len = len;
        if (!op->count) return fail(ps, "at least one KEY of \"multiget KEY... [ctx=HEX]\"",
                                    more ? "ctx= first" : "end of line");
        if (!more) return 0;
        ps->cur = at;
        return parse_ctx_and_end(ps, op, "multiget KEY...");
    }
}

/* ---- Ops ---------------------------------------------------------------- */

static int parse_op_body(fl_wl_parser *ps, fl_op *op) {
    switch (op->kind) {
    case FL_OP_OPEN:
        if (ps->count != 0)
            return fail(ps, "\"open\" only as the first op (reopen changes options later)",
                        "\"open\" after %zu op%s", ps->count, ps->count == 1 ? "" : "s");
        return parse_options(ps, op);
    case FL_OP_REOPEN:
    case FL_OP_SET_OPTIONS:
        return parse_options(ps, op);
    case FL_OP_SEEK:
        if (need_bytes(ps, &op->a, "KEY of \"seek KEY [n=N] [prefix=0|1]\"", FL_WL_KEY_MAX)) return -1;
        return parse_seek_tail(ps, op, "seek KEY");
    case FL_OP_SEEK_FOR_PREV:
        if (need_bytes(ps, &op->a, "KEY of \"seek_for_prev KEY [n=N] [prefix=0|1]\"", FL_WL_KEY_MAX))
            return -1;
        return parse_seek_tail(ps, op, "seek_for_prev KEY");
    case FL_OP_PUT:
        if (need_bytes(ps, &op->a, "KEY of \"put KEY VALUE\"", FL_WL_KEY_MAX) ||
            need_bytes(ps, &op->b, "VALUE of \"put KEY VALUE\"", FL_WL_VALUE_MAX))
            return -1;
        return need_end(ps, "put KEY VALUE");
    case FL_OP_DEL:
        if (need_bytes(ps, &op->a, "KEY of \"del KEY\"", FL_WL_KEY_MAX)) return -1;
        return need_end(ps, "del KEY");
    case FL_OP_DELRANGE:
        if (need_bytes(ps, &op->a, "START of \"delrange START END\"", FL_WL_KEY_MAX) ||
            need_bytes(ps, &op->b, "END of \"delrange START END\"", FL_WL_KEY_MAX))
            return -1;
        return need_end(ps, "delrange START END");
    case FL_OP_SCAN:
        if (need_bytes(ps, &op->a, "START of \"scan START END\"", FL_WL_KEY_MAX) ||
            need_bytes(ps, &op->b, "END of \"scan START END\"", FL_WL_KEY_MAX))
            return -1;
        return need_end(ps, "scan START END");
    case FL_OP_GET:
        if (need_bytes(ps, &op->a, "KEY of \"get KEY [ctx=HEX]\"", FL_WL_KEY_MAX)) return -1;
        return parse_ctx_and_end(ps, op, "get KEY");
    case FL_OP_SCAN_PREFIX:
        if (need_bytes(ps, &op->a, "PREFIX of \"scan_prefix PREFIX [ctx=HEX]\"", FL_WL_KEY_MAX))
            return -1;
        return parse_ctx_and_end(ps, op, "scan_prefix PREFIX");
    case FL_OP_MULTIGET:
        return parse_multiget(ps, op);
    case FL_OP_FLUSH:
        return need_end(ps, "flush");
    case FL_OP_CRASH: {
        fl_wl_token tok;
        if (!next_token(ps, &tok)) return 0;
        uint64_t v = 0;
        bool ok = tok.n > 6 && tok.n - 6 <= 10 && memcmp(tok.p, "after=", 6) == 0;
        for (size_t i = 6; i < tok.n && ok; i++) {
            ok = tok.p[i] >= '0' && tok.p[i] <= '9';
            v = v * 10 + (uint64_t)(tok.p[i] - '0');
        }
        if (!ok || v < 1 || v > FL_WL_CRASH_AFTER_MAX)
            return fail_token(ps, "after=N (N from 1 to 1000000000 file operations) or end of line after \"crash\"",
                              tok.p, tok.n, NULL);
        op->count = (uint32_t)v;
        return need_end(ps, "crash after=N");
    }
    case FL_OP_COMPACT: {
        fl_wl_token tok;
        if (!next_token(ps, &tok)) return 0;
        if (!token_is(&tok, "full"))
            return fail_token(ps, "\"full\" or end of line after \"compact\"", tok.p, tok.n, NULL);
        op->full = true;
        return need_end(ps, "compact full");
    }
    }
    return -1;
}

/* Parses the op on the current line (not blank, not a comment) and appends it. */
static int parse_op(fl_wl_parser *ps) {
    fl_wl_token tok;
    next_token(ps, &tok);                       /* the caller saw a non-blank */
    fl_op op;
    memset(&op, 0, sizeof op);
    for (int k = FL_OP_OPEN; k <= FL_OP_LAST; k++)
        if (token_is(&tok, fl_op_name((fl_op_kind)k))) op.kind = (fl_op_kind)k;
    if (!op.kind) {
        char expected[160];
        snprintf(expected, sizeof expected, "an op (%s)", fl_wl_op_list());
        return fail_token(ps, expected, tok.p, tok.n, NULL);
    }
    op.line = ps->line;
    if (parse_op_body(ps, &op) != 0) { fl_wl_op_clear(&op); return -1; }
    /* Unused byte strings still get a 1-byte allocation (workload.h). */
    if ((!op.a.data && !(op.a.data = malloc(1))) || (!op.b.data && !(op.b.data = malloc(1)))) {
        fl_wl_op_clear(&op);
        return fail_nomem(ps);
    }
    if (ps->count == ps->cap) {
        size_t cap = ps->cap ? ps->cap * 2 : 8;
        fl_op *grown = cap <= SIZE_MAX / sizeof(fl_op) ? realloc(ps->ops, cap * sizeof(fl_op)) : NULL;
        if (!grown) { fl_wl_op_clear(&op); return fail_nomem(ps); }
        ps->ops = grown;
        ps->cap = cap;
    }
    ps->ops[ps->count++] = op;
    return 0;
}

/* ---- Lines -------------------------------------------------------------- */

/* Appends a comment before the header to the description: text after '#'
 * and one space; lines joined with '\n'. */
static int add_description(fl_wl_parser *ps, const uint8_t *p, const uint8_t *end) {
    p++;                                        /* '#' */
    if (p < end && *p == ' ') p++;
    size_t n = (size_t)(end - p);
    if (n && memchr(p, 0, n))
        return fail(ps, "a comment without NUL bytes", "a NUL byte");
    size_t need = ps->desc_len + 1 + n + 1;
    if (need > ps->desc_cap) {
        size_t cap = ps->desc_cap ? ps->desc_cap : 64;
        while (cap < need) cap *= 2;
        char *grown = realloc(ps->desc, cap);
        if (!grown) return fail_nomem(ps);
        ps->desc = grown;
        ps->desc_cap = cap;
    }
    if (ps->desc_started) ps->desc[ps->desc_len++] = '\n';
    ps->desc_started = true;
    memcpy(ps->desc + ps->desc_len, p, n);
    ps->desc_len += n;
    ps->desc[ps->desc_len] = 0;
    return 0;
}

/* The header line: exactly FL_WL_HEADER, then blanks only. */
static int check_header(fl_wl_parser *ps, const uint8_t *p, const uint8_t *end) {
    size_t hn = strlen(FL_WL_HEADER);
    size_t n = (size_t)(end - p);
    bool ok = n >= hn && memcmp(p, FL_WL_HEADER, hn) == 0;
    for (size_t i = hn; ok && i < n; i++) ok = is_blank(p[i]);
    if (ok) return 0;
    return fail_token(ps, "the header \"" FL_WL_HEADER "\" (after comments and blank lines)",
                      p, n, NULL);
}

static void parser_free(fl_wl_parser *ps) {
    for (size_t i = 0; i < ps->count; i++) fl_wl_op_clear(&ps->ops[i]);
    free(ps->ops);
    free(ps->desc);
}

static int parse_text(const char *text, size_t len, const char *filename,
                      const volatile sig_atomic_t *stop, fl_workload *out, char *err, size_t err_len);

int fl_workload_parse(const char *text, size_t len, const char *filename,
                      fl_workload *out, char *err, size_t err_len) {
    return parse_text(text, len, filename, NULL, out, err, err_len);
}

/* One line of text (start..end, without its newline): blank, a comment
 * (before the header: the description), the header, or an op. */
static int parse_line(fl_wl_parser *ps, bool *header, const uint8_t *start, const uint8_t *end) {
    while (end > start && end[-1] == '\r') end--;         /* CRLF endings */
    const uint8_t *first = start;
    while (first < end && is_blank(*first)) first++;
    if (first == end) return 0;                           /* blank line */
    if (*first == '#') return *header ? 0 : add_description(ps, first, end);
    if (!*header) {
        int rc = check_header(ps, start, end);
        *header = rc == 0;
        return rc;
    }
    ps->cur = first;
    ps->end = end;
    return parse_op(ps);
}

/* The end of the text: the header must have come; the description is ""
 * when there was none.  0, or -1 (reported). */
static int parse_end(fl_wl_parser *ps, bool header) {
    if (!header) return fail(ps, "the header \"" FL_WL_HEADER "\"", "end of file");
    if (!ps->desc && !(ps->desc = strdup(""))) return fail_nomem(ps);
    return 0;
}

static bool stop_seen(fl_wl_parser *ps, const volatile sig_atomic_t *stop) {
    if (!stop || (ps->line & 4095) != 0 || !*stop) return false;
    if (ps->err && ps->err_len) snprintf(ps->err, ps->err_len, "%s:%u: reading stopped by a signal", ps->file, ps->line);
    return true;
}

/* fl_workload_parse, seeing *stop every 4,096 lines: then -2. */
static int parse_text(const char *text, size_t len, const char *filename,
                      const volatile sig_atomic_t *stop, fl_workload *out, char *err, size_t err_len) {
    fl_wl_parser ps;
    memset(&ps, 0, sizeof ps);
    ps.file = filename ? filename : "<input>";
    ps.err = err;
    ps.err_len = err_len;
    if (err && err_len) err[0] = 0;
    if (!out) return -1;
    memset(out, 0, sizeof *out);
    if (!text && len) return fail(&ps, "text", "NULL");

    const uint8_t *t = (const uint8_t *)text;
    size_t pos = 0;
    bool header = false;
    while (pos < len) {
        const uint8_t *start = t + pos;
        const uint8_t *nl = memchr(start, '\n', len - pos);
        const uint8_t *end = nl ? nl : t + len;
        pos = (size_t)(end - t) + (nl ? 1 : 0);
        ps.line++;
        if (stop_seen(&ps, stop)) {
            parser_free(&ps);
            return -2;
        }
        if (parse_line(&ps, &header, start, end) != 0) { parser_free(&ps); return -1; }
    }
    if (parse_end(&ps, header) != 0) {
        parser_free(&ps);
        return -1;
    }
    out->description = ps.desc;
    out->ops = ps.ops;
    out->count = ps.count;
    return 0;
}

/* ---- Files -------------------------------------------------------------- */

/* Reads all of fd into a malloc'd buffer, within the limits of
 * workload.h, polling so that *stop (when given) is seen within 0.1 s even
 * while a pipe is silent.  0, or -1 with errno set (EFBIG: a limit, then
 * *line is the line that broke it; EINTR: *stop was set). */
static int read_all(int fd, const volatile sig_atomic_t *stop, char **data, size_t *len,
                    unsigned long *line) {
    size_t cap = 1 << 16, n = 0, line_start = 0;
    char *buf = malloc(cap);
    *line = 1;
    if (!buf) return -1;
    for (;;) {
        if (stop && *stop) { free(buf); errno = EINTR; return -1; }
        if (n == cap) {
            char *grown = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (!grown) { free(buf); errno = ENOMEM; return -1; }
            buf = grown;
            cap *= 2;
        }
        struct pollfd pfd = { fd, POLLIN, 0 };
        int ready = stop ? poll(&pfd, 1, 100) : 1;
        if (ready == 0 || (ready < 0 && errno == EINTR)) continue;
        size_t want = cap - n < ((size_t)1 << 20) ? cap - n : (size_t)1 << 20;
        ssize_t got = read(fd, buf + n, want);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) { int e = errno; free(buf); errno = e; return -1; }
        if (got == 0) break;
        for (size_t i = n; i < n + (size_t)got; i++)
            if (buf[i] == '\n') { line_start = i + 1; ++*line; }
        n += (size_t)got;
        if (n - line_start > FL_WL_MAX_LINE || n > FL_WL_MAX_FILE) { free(buf); errno = EFBIG; return -1; }
    }
    *data = buf;
    *len = n;
    return 0;
}

int fl_workload_load(const char *path, fl_workload *out, char *err, size_t err_len) {
    return fl_workload_load_until(path, NULL, out, err, err_len);
}

int fl_workload_load_until(const char *path, const volatile sig_atomic_t *stop, fl_workload *out,
                           char *err, size_t err_len) {
    if (out) memset(out, 0, sizeof *out);
    if (!path || !out) {
        if (err && err_len) snprintf(err, err_len, "no workload file given");
        return -1;
    }
    bool use_stdin = strcmp(path, "-") == 0;
    const char *name = use_stdin ? "<stdin>" : path;
    errno = 0;
    int fd = use_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    char *data = NULL;
    size_t len = 0;
    unsigned long line = 0;
    int rc = fd >= 0 ? read_all(fd, stop, &data, &len, &line) : -1;
    int saved = errno;
    if (fd >= 0 && !use_stdin) close(fd);
    if (rc != 0) {
        if (saved == EINTR) {
            if (err && err_len) snprintf(err, err_len, "%s: reading stopped by a signal", name);
            return -2;
        }
        if (err && err_len) {
            if (saved == EFBIG)
                snprintf(err, err_len, "%s:%lu: the workload is too large: a line may hold at most %zu "
                         "MiB and a workload %zu MiB", name, line, FL_WL_MAX_LINE >> 20,
                         FL_WL_MAX_FILE >> 20);
            else
                snprintf(err, err_len, "%s: cannot read workload: %s", name, strerror(saved ? saved : EIO));
        }
        return -1;
    }
    rc = parse_text(data, len, name, stop, out, err, err_len);
    free(data);
    return rc;
}

/* ---- Streams ------------------------------------------------------------- */

struct fl_wl_stream {
    fl_wl_parser ps;                /* line numbers and description carry over */
    bool header, eof, done;
    int failed;                     /* the error every later call gives, or 0 */
    char failure[4096];
    int fd;
    char *name;
    const volatile sig_atomic_t *stop;
    char *buf;                      /* buf[start..len): read, not yet parsed */
    size_t start, len, cap;
    size_t total;                   /* bytes read so far                      */
};

int fl_wl_stream_open(const char *path, const volatile sig_atomic_t *stop, fl_wl_stream **out,
                      char *err, size_t err_len) {
    *out = NULL;
    fl_wl_stream *s = calloc(1, sizeof *s);
    if (!s || !(s->name = strdup(path)) || !(s->buf = malloc((size_t)1 << 20))) {
        if (s) free(s->name);
        free(s);
        if (err && err_len) snprintf(err, err_len, "%s: out of memory", path);
        return -1;
    }
    s->cap = (size_t)1 << 20;
    s->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (s->fd < 0) {
        if (err && err_len) snprintf(err, err_len, "%s: cannot read workload: %s", path, strerror(errno));
        free(s->buf);
        free(s->name);
        free(s);
        return -1;
    }
    s->stop = stop;
    s->ps.file = s->name;
    *out = s;
    return 0;
}

/* Reads more of the file behind the unparsed rest: 0 (eof set at the end),
 * or -1 with errno set (EFBIG: a limit; EINTR: *stop). */
static int stream_fill(fl_wl_stream *s) {
    if (s->start > 0) {                      /* keep only the partial line */
        memmove(s->buf, s->buf + s->start, s->len - s->start);
        s->len -= s->start;
        s->start = 0;
    }
    if (s->len == s->cap) {
        if (s->len > FL_WL_MAX_LINE) { errno = EFBIG; return -1; }
        char *grown = realloc(s->buf, s->cap * 2);
        if (!grown) { errno = ENOMEM; return -1; }
        s->buf = grown;
        s->cap *= 2;
    }
    for (;;) {
        if (s->stop && *s->stop) { errno = EINTR; return -1; }
        ssize_t got = read(s->fd, s->buf + s->len, s->cap - s->len);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return -1;
        if (got == 0) s->eof = true;
        s->len += (size_t)got;
        s->total += (size_t)got;
        if (s->total > FL_WL_MAX_FILE) { errno = EFBIG; return -1; }
        return 0;
    }
}

int fl_wl_stream_next(fl_wl_stream *s, size_t max_ops, fl_workload *chunk, char *err, size_t err_len) {
    fl_workload_free(chunk);
    if (s->failed) {
        if (err && err_len) snprintf(err, err_len, "%s", s->failure);
        return s->failed;
    }
    s->ps.err = s->failure;
    s->ps.err_len = sizeof s->failure;
    s->failure[0] = 0;
    int rc = 0;
    while (!s->done && s->ps.count < max_ops && rc == 0) {
        const uint8_t *start = (const uint8_t *)s->buf + s->start;
        const uint8_t *nl = memchr(start, '\n', s->len - s->start);
        if (!nl && !s->eof) {
            if (stream_fill(s) != 0) {
                int e = errno;
                if (e == EINTR) {
                    snprintf(s->failure, sizeof s->failure, "%s: reading stopped by a signal", s->name);
                    rc = -2;
                } else if (e == EFBIG) {
                    snprintf(s->failure, sizeof s->failure, "%s:%u: the workload is too large: a line may hold at most %zu "
                                 "MiB and a workload %zu MiB", s->name, s->ps.line + 1, FL_WL_MAX_LINE >> 20,
                                 FL_WL_MAX_FILE >> 20);
                    rc = -1;
                } else {
                    snprintf(s->failure, sizeof s->failure, "%s: cannot read workload: %s", s->name, strerror(e));
                    rc = -1;
                }
            }
            continue;
        }
        if (!nl && s->start == s->len) {     /* the end of the file */
            s->done = true;
            rc = parse_end(&s->ps, s->header);
            break;
        }
        const uint8_t *end = nl ? nl : (const uint8_t *)s->buf + s->len;
        s->start = (size_t)(end - (const uint8_t *)s->buf) + (nl ? 1 : 0);
        s->ps.line++;
        if (stop_seen(&s->ps, s->stop)) rc = -2;
        else rc = parse_line(&s->ps, &s->header, start, end);
    }
    if (rc != 0) {
        for (size_t i = 0; i < s->ps.count; i++) fl_wl_op_clear(&s->ps.ops[i]);
        s->ps.count = 0;
        s->failed = rc;
        if (err && err_len) snprintf(err, err_len, "%s", s->failure);
        return rc;
    }
    chunk->ops = s->ps.ops;
    chunk->count = s->ps.count;
    s->ps.ops = NULL;
    s->ps.count = s->ps.cap = 0;
    chunk->description = strdup(s->header && s->ps.desc ? s->ps.desc : "");
    if (!chunk->description) {
        fl_workload_free(chunk);
        snprintf(s->failure, sizeof s->failure, "%s: out of memory", s->name);
        if (err && err_len) snprintf(err, err_len, "%s", s->failure);
        s->failed = -1;
        return -1;
    }
    return 0;
}

void fl_wl_stream_close(fl_wl_stream *s) {
    if (!s) return;
    if (s->fd >= 0) close(s->fd);
    parser_free(&s->ps);
    free(s->buf);
    free(s->name);
    free(s);
}
