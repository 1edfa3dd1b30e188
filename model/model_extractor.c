/*
 * model_extractor.c -- the reference prefix extractors of SPEC section 4
 * (fixed:N, capped:N, delim:C, lastdelim:C): their spec parser, their names
 * and their POINT/PREFIX answers, written from the SPEC table alone.
 *
 * Invariant: every answer is a row of the table, and an answer n is never
 * longer than the input (n <= len).
 */
#include "model_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int fl_model_fail(char *err, size_t err_len, const char *fmt, ...) {
    if (err && err_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_len, fmt, ap);
        va_end(ap);
    }
    return FL_MODEL_ERR_INVALID;
}

/* ---- Parsing ---------------------------------------------------------------- */

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* N: decimal digits only, each written as itself or as \xNN, value
 * 1..65535 (leading zeros allowed). */
static bool parse_length(const char *s, uint32_t *n) {
    uint32_t v = 0;
    if (!*s) return false;
    while (*s) {
        int c = (unsigned char)*s++;
        if (c == '\\') {
            if (s[0] != 'x' || hex_digit(s[1]) < 0 || hex_digit(s[2]) < 0) return false;
            c = hex_digit(s[1]) * 16 + hex_digit(s[2]);
            s += 3;
        }
        if (c < '0' || c > '9') return false;
        v = v * 10 + (uint32_t)(c - '0');
        if (v > FL_MODEL_MAX_KEY) return false;
    }
    if (v == 0) return false;
    *n = v;
    return true;
}

/* C: exactly one byte (whatever it is), or the four characters \xNN. */
static bool parse_delim(const char *s, uint8_t *c) {
    size_t len = strlen(s);
    if (len == 1) { *c = (uint8_t)s[0]; return true; }
    if (len == 4 && s[0] == '\\' && s[1] == 'x') {
        int hi = hex_digit(s[2]), lo = hex_digit(s[3]);
        if (hi < 0 || lo < 0) return false;
        *c = (uint8_t)(hi * 16 + lo);
        return true;
    }
    return false;
}

int fl_model_extractor_parse(const char *spec, fl_model_extractor *out,
                             char *err, size_t err_len) {
    static const struct { const char *kind; fl_model_extractor_kind value; } kinds[] = {
        { "fixed", FL_MODEL_FIXED }, { "capped", FL_MODEL_CAPPED },
        { "delim", FL_MODEL_DELIM }, { "lastdelim", FL_MODEL_LASTDELIM },
    };
    const char *colon = strchr(spec, ':');
    size_t kind_len = colon ? (size_t)(colon - spec) : strlen(spec);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (strlen(kinds[i].kind) != kind_len || memcmp(kinds[i].kind, spec, kind_len) != 0)
            continue;
        fl_model_extractor ex = { kinds[i].value, 0, 0 };
        const char *args = colon ? colon + 1 : "";
        if (ex.kind == FL_MODEL_FIXED || ex.kind == FL_MODEL_CAPPED) {
            if (!parse_length(args, &ex.n))
                return fl_model_fail(err, err_len, "extractor \"%s\": expected %s:N with N "
                                     "a decimal from 1 to 65535", spec, kinds[i].kind);
        } else if (!parse_delim(args, &ex.delim)) {
            return fl_model_fail(err, err_len, "extractor \"%s\": expected %s:C with C "
                                 "one byte or \\xNN", spec, kinds[i].kind);
        }
        *out = ex;
        return FL_MODEL_OK;
    }
    return fl_model_fail(err, err_len, "extractor \"%s\": unknown kind (the model knows "
                         "fixed, capped, delim, lastdelim)", spec);
}

/* ---- Names ------------------------------------------------------------------ */

char *fl_model_extractor_name(const fl_model_extractor *ex, char *out, size_t out_len) {
    const char *kind = ex->kind == FL_MODEL_FIXED  ? "fixed"
                     : ex->kind == FL_MODEL_CAPPED ? "capped"
                     : ex->kind == FL_MODEL_DELIM  ? "delim" : "lastdelim";
    if (!out_len) return out;
    if (ex->kind == FL_MODEL_FIXED || ex->kind == FL_MODEL_CAPPED) {
        snprintf(out, out_len, "%s%u", kind, (unsigned)ex->n);
    } else {
        uint8_t c = ex->delim;
        if (c >= 0x21 && c <= 0x7e && c != '\\') snprintf(out, out_len, "%s%c", kind, (char)c);
        else snprintf(out, out_len, "%s\\x%02x", kind, (unsigned)c);
    }
    return out;
}

/* ---- The SPEC 4 table ------------------------------------------------------- */

bool fl_model_extractor_prefix_len(const fl_model_extractor *ex, fl_model_target_kind kind,
                                   fl_model_bytes bytes, size_t *n) {
    switch (ex->kind) {
    case FL_MODEL_FIXED:             /* both kinds: N if len >= N, else none */
        if (bytes.len < ex->n) return false;
        *n = ex->n;
        return true;
    case FL_MODEL_CAPPED:
        if (kind == FL_MODEL_POINT) {             /* min(len, N) */
            *n = bytes.len < ex->n ? bytes.len : ex->n;
            return true;
        }
        if (bytes.len < ex->n) return false;      /* PREFIX: N if len >= N */
        *n = ex->n;
        return true;
    case FL_MODEL_DELIM:             /* both kinds: first C's index + 1 */
        for (size_t i = 0; i < bytes.len; i++) {
            if (bytes.data[i] == ex->delim) { *n = i + 1; return true; }
        }
        return false;
    case FL_MODEL_LASTDELIM:         /* POINT: last C's index + 1; PREFIX: none */
        if (kind != FL_MODEL_POINT) return false;
        for (size_t i = bytes.len; i > 0; i--) {
            if (bytes.data[i - 1] == ex->delim) { *n = i; return true; }
        }
        return false;
    }
    return false;
}
