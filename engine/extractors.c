/*
 * extractors.c -- the built-in prefix extractors of SPEC section 4:
 *
 *   spec          POINT(k)                        PREFIX(p)                  name
 *   fixed:N       N if len(k) >= N, else none     N if len(p) >= N, else none  fixedN
 *   capped:N      min(len(k), N)                  N if len(p) >= N, else none  cappedN
 *   delim:C       index of first C + 1, or none   the same, on p               delimC
 *   lastdelim:C   index of last C + 1, or none    always none                  lastdelimC
 *
 * Invariant: prefix_len never answers n > len, and every answer depends
 * only on the target's kind and bytes.
 *
 * Arguments: the factory's ARGS have \xNN escapes decoded first (so
 * "fixed:\x33" is "fixed:3").  N is a decimal 1..65535 (no sign, no
 * blanks; a key is at most 65535 bytes, so a larger N could never match).
 * C is exactly one byte: ARGS of exactly one byte is that byte, even a
 * backslash; otherwise ARGS must decode to one byte ("\x3a", "\x00").
 *
 * NAME RULE for the delimiter byte C, so that names stay printable C
 * strings and two different bytes never give the same name:
 *   - a byte 0x21..0x7E other than '\' appears as itself:
 *       delim::      -> "delim:"        delim:/ -> "delim/"
 *   - every other byte (NUL, blank, controls, '\', 0x7F, 0x80..0xFF) appears
 *     as \xNN with two lowercase hex digits, four literal characters:
 *       delim:\x00   -> "delim\x00"     delim:\x5c -> "delim\x5c"
 *       delim:\x20   -> "delim\x20"     delim:\xff -> "delim\xff"
 *   '\' is escaped because otherwise "delim\x41" could be either the byte
 *   'A' escaped or a literal backslash followed by "x41".
 */
#include "registry_internal.h"

#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct fl_builtin_extractor {
    fl_prefix_extractor base;       /* Base class. Must be first */
    size_t n;                       /* fixed, capped: the length N       */
    uint8_t delim;                  /* delim, lastdelim: the byte C      */
    char name[24];                  /* "lastdelim\xff" is the longest    */
} fl_builtin_extractor;

#define FL_EXTRACTOR_N_MAX 65535

static const char *fl_builtin_name(const fl_prefix_extractor *self) {
    return ((const fl_builtin_extractor *)self)->name;
}

void fl_builtin_extractor_destroy(fl_prefix_extractor *self) { free(self); }

/* ---- prefix_len of each kind ------------------------------------------- */

static bool fl_fixed_prefix_len(const fl_prefix_extractor *self, const fl_target *target,
                                size_t *len) {
    size_t n = ((const fl_builtin_extractor *)self)->n;
    if (target->bytes.len < n) return false;
    *len = n;
    return true;
}

static bool fl_capped_prefix_len(const fl_prefix_extractor *self, const fl_target *target,
                                 size_t *len) {
    size_t n = ((const fl_builtin_extractor *)self)->n;
    if (target->kind == FL_TARGET_POINT) {
        *len = target->bytes.len < n ? target->bytes.len : n;
        return true;
    }
    /* A prefix shorter than N may be extended into keys with different
     * capped prefixes ("ab" -> "ab", "abc" -> "abc" for N = 3): none. */
    if (target->kind != FL_TARGET_PREFIX || target->bytes.len < n) return false;
    *len = n;
    return true;
}

static bool fl_delim_prefix_len(const fl_prefix_extractor *self, const fl_target *target,
                                size_t *len) {
    uint8_t c = ((const fl_builtin_extractor *)self)->delim;
    const uint8_t *b = target->bytes.data;
    size_t n = target->bytes.len;
    if (n <= 32) {                  /* a short key: cheaper than calling memchr */
        for (size_t i = 0; i < n; i++)
            if (b[i] == c) {
                *len = i + 1;
                return true;
            }
        return false;
    }
    const uint8_t *hit = memchr(b, c, n);
    if (!hit) return false;
    *len = (size_t)(hit - b) + 1;
    return true;
}

static bool fl_lastdelim_prefix_len(const fl_prefix_extractor *self, const fl_target *target,
                                    size_t *len) {
    /* For a prefix, a later C in an extension would move the answer. */
    if (target->kind != FL_TARGET_POINT) return false;
    uint8_t c = ((const fl_builtin_extractor *)self)->delim;
    for (size_t i = target->bytes.len; i > 0; i--) {
        if (target->bytes.data[i - 1] == c) {
            *len = i;
            return true;
        }
    }
    return false;
}

static const fl_prefix_extractor_ops fl_fixed_ops = {
    fl_builtin_name, fl_fixed_prefix_len, fl_builtin_extractor_destroy };
static const fl_prefix_extractor_ops fl_capped_ops = {
    fl_builtin_name, fl_capped_prefix_len, fl_builtin_extractor_destroy };
static const fl_prefix_extractor_ops fl_delim_ops = {
    fl_builtin_name, fl_delim_prefix_len, fl_builtin_extractor_destroy };
static const fl_prefix_extractor_ops fl_lastdelim_ops = {
    fl_builtin_name, fl_lastdelim_prefix_len, fl_builtin_extractor_destroy };

/* ---- Factories --------------------------------------------------------- */

static fl_builtin_extractor *fl_builtin_new(const fl_prefix_extractor_ops *ops) {
    fl_builtin_extractor *ex = calloc(1, sizeof *ex);
    if (ex) {
        ex->base.abi_version = FL_FILTER_ABI_VERSION;
        ex->base.ops = ops;
    }
    return ex;
}

/* fixed:N and capped:N. */
static int fl_length_factory(const char *kind, const fl_prefix_extractor_ops *ops,
                             const char *args, fl_prefix_extractor **out,
                             char *err, size_t err_len) {
    size_t args_len = strlen(args);
    char *text = malloc(args_len + 1);
    if (!text) return FL_ERR_NOMEM;
    int len = args_len < INT_MAX ? fl_spec_unescape(args, args_len, text, args_len + 1) : -1;
    unsigned long n = 0;
    bool ok = len > 0;
    for (int i = 0; ok && i < len; i++) {
        ok = text[i] >= '0' && text[i] <= '9';
        if (ok) n = n * 10 + (unsigned long)(text[i] - '0');
        ok = ok && n <= FL_EXTRACTOR_N_MAX;
    }
    free(text);
    if (!ok || n < 1) {
        fl_errf(err, err_len, "%s needs a length: %s:N with N a decimal from 1 to %d; got '%s'",
                kind, kind, FL_EXTRACTOR_N_MAX, args);
        return FL_ERR_INVALID;
    }
    fl_builtin_extractor *ex = fl_builtin_new(ops);
    if (!ex) return FL_ERR_NOMEM;
    ex->n = n;
    snprintf(ex->name, sizeof ex->name, "%s%lu", kind, n);
    *out = &ex->base;
    return FL_OK;
}

/* delim:C and lastdelim:C; the name follows the NAME RULE above. */
static int fl_byte_factory(const char *kind, const fl_prefix_extractor_ops *ops,
                           const char *args, fl_prefix_extractor **out,
                           char *err, size_t err_len) {
    char text[8];
    size_t args_len = strlen(args);
    int len;
    if (args_len == 1) {
        text[0] = args[0];
        len = 1;
    } else {
        len = args_len < sizeof text ? fl_spec_unescape(args, args_len, text, sizeof text) : -1;
    }
    if (len != 1) {
        fl_errf(err, err_len, "%s needs exactly one delimiter byte: %s:C with C a byte or "
                "\\xNN (e.g. %s::, %s:\\x00); got '%s'", kind, kind, kind, kind, args);
        return FL_ERR_INVALID;
    }
    fl_builtin_extractor *ex = fl_builtin_new(ops);
    if (!ex) return FL_ERR_NOMEM;
    uint8_t c = (uint8_t)text[0];
    ex->delim = c;
    if (c >= 0x21 && c <= 0x7e && c != '\\')
        snprintf(ex->name, sizeof ex->name, "%s%c", kind, (char)c);
    else
        snprintf(ex->name, sizeof ex->name, "%s\\x%02x", kind, (unsigned)c);
    *out = &ex->base;
    return FL_OK;
}

int fl_fixed_factory(const fl_registry *reg, const char *args, fl_prefix_extractor **out,
                     char *err, size_t err_len) {
    (void)reg;
    return fl_length_factory("fixed", &fl_fixed_ops, args, out, err, err_len);
}

int fl_capped_factory(const fl_registry *reg, const char *args, fl_prefix_extractor **out,
                      char *err, size_t err_len) {
    (void)reg;
    return fl_length_factory("capped", &fl_capped_ops, args, out, err, err_len);
}

int fl_delim_factory(const fl_registry *reg, const char *args, fl_prefix_extractor **out,
                     char *err, size_t err_len) {
    (void)reg;
    return fl_byte_factory("delim", &fl_delim_ops, args, out, err, err_len);
}

int fl_lastdelim_factory(const fl_registry *reg, const char *args, fl_prefix_extractor **out,
                         char *err, size_t err_len) {
    (void)reg;
    return fl_byte_factory("lastdelim", &fl_lastdelim_ops, args, out, err, err_len);
}
