/*
 * model_spec.c -- the reference bloom's configuration: the exact decimal
 * parser for bits per key (SPEC 5: mb = round(bits * 1000)), the parser of
 * "bloom(bits=..,whole_key=..,prefix=..)" specs and the policy name.
 *
 * Invariants: millibits are computed from the decimal digits with integers
 * only, so every input has exactly one answer, with halves rounding up, and
 * a value above 1000 is refused by its digits (1000.0001 is refused even
 * though it rounds to 1000.000); the name changes whenever what the filter
 * hashes changes (extractor, whole-key), never with bits.
 *
 * The spec language is the engine's (SPEC 10 is silent on the details, so
 * both sides accept exactly the same strings; tests/test_model_filters.c checks it):
 * blanks (space, tab) may surround the spec, each argument, its '=' and its
 * value; arguments split at ',' outside parentheses; the parentheses must
 * balance; bits= and whole_key= values may be written with \xNN escapes; a
 * name of 32 bytes or more, or a value of 512 bytes or more, is refused.
 * This file is written from that description, not from the engine's code.
 */
#include "model_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_BYTES  32      /* an argument name must be shorter          */
#define VALUE_MAX_BYTES 512     /* an argument value must be shorter         */

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_blank(char c) { return c == ' ' || c == '\t'; }

/* Narrows [*a, *b) to drop blanks at both ends. */
static void trim(const char **a, const char **b) {
    while (*a < *b && is_blank(**a)) (*a)++;
    while (*b > *a && is_blank((*b)[-1])) (*b)--;
}

/* ---- Bits per key ------------------------------------------------------------ */

/* A decimal is D+, D+ '.' D*, or '.' D+ ("10", "10.", "10.5", ".5"). */
int fl_model_parse_millibits(const char *bits, uint32_t *millibits) {
    const char *s = bits;
    uint64_t whole = 0;
    int whole_digits = 0;
    for (; is_digit(*s); s++, whole_digits++) {
        whole = whole * 10 + (uint64_t)(*s - '0');
        if (whole > 1000) return FL_MODEL_ERR_INVALID;     /* bits > 1000 */
    }
    uint64_t frac = 0;          /* the first three fraction digits, as 0..999 */
    bool round_up = false;      /* the fourth fraction digit is 5..9          */
    bool nonzero_frac = false;
    int frac_digits = 0;
    if (*s == '.') {
        for (s++; is_digit(*s); s++, frac_digits++) {
            int d = *s - '0';
            if (d) nonzero_frac = true;
            if (frac_digits < 3) frac = frac * 10 + (uint64_t)d;
            else if (frac_digits == 3) round_up = d >= 5;
        }
    }
    if (*s || whole_digits + frac_digits == 0) return FL_MODEL_ERR_INVALID;
    for (int i = frac_digits; i < 3; i++) frac *= 10;       /* "2.5" is 2500 */
    if (whole == 1000 && nonzero_frac) return FL_MODEL_ERR_INVALID;
    *millibits = (uint32_t)(whole * 1000 + frac + (round_up ? 1 : 0));
    return FL_MODEL_OK;
}

/* ---- bloom(...) specs -------------------------------------------------------- */

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes the \xNN escapes of a bits= or whole_key= value in place.  False
 * on any other backslash, a short escape, or an escape that gives a NUL
 * (such a value is not a number and not 0/1 either). */
static bool unescape_value(char *s) {
    char *out = s;
    for (const char *in = s; *in; in++) {
        char c = *in;
        if (c == '\\') {
            int hi, lo;
            if (in[1] != 'x' || (hi = hex_value(in[2])) < 0 || (lo = hex_value(in[3])) < 0)
                return false;
            c = (char)(hi * 16 + lo);
            if (c == 0) return false;
            in += 3;
        }
        *out++ = c;
    }
    *out = 0;
    return true;
}

/* Applies one argument [a, b) (not empty, blanks already trimmed) to cfg;
 * seen[] catches repeats. */
static int apply_arg(const char *spec, const char *a, const char *b, fl_model_bloom_config *cfg,
                     bool seen[3], char *err, size_t err_len) {
    static const char *const names[3] = { "bits", "whole_key", "prefix" };
    const char *eq = memchr(a, '=', (size_t)(b - a));
    if (!eq)
        return fl_model_fail(err, err_len, "bloom spec \"%s\": expected ARG=VALUE, got \"%.*s\"",
                             spec, (int)(b - a), a);
    const char *na = a, *nb = eq, *va = eq + 1, *vb = b;
    trim(&na, &nb);
    trim(&va, &vb);
    if (nb - na >= NAME_MAX_BYTES || vb - va >= VALUE_MAX_BYTES)
        return fl_model_fail(err, err_len, "bloom spec \"%s\": argument too long", spec);
    char name[NAME_MAX_BYTES], value[VALUE_MAX_BYTES];
    memcpy(name, na, (size_t)(nb - na));
    name[nb - na] = 0;
    memcpy(value, va, (size_t)(vb - va));
    value[vb - va] = 0;
    int which = -1;
    for (int i = 0; i < 3; i++) if (strcmp(name, names[i]) == 0) which = i;
    if (which < 0)
        return fl_model_fail(err, err_len, "bloom spec \"%s\": unknown argument \"%s\" "
                             "(expected bits, whole_key, prefix)", spec, name);
    if (seen[which])
        return fl_model_fail(err, err_len, "bloom spec \"%s\": %s given twice", spec, name);
    seen[which] = true;
    if (which == 2) {
        /* The extractor spec goes on as written: its \xNN escapes are the
         * extractor parser's to decode. */
        char sub[256];
        if (fl_model_extractor_parse(value, &cfg->extractor, sub, sizeof sub) != FL_MODEL_OK)
            return fl_model_fail(err, err_len, "bloom spec \"%s\": prefix: %s", spec, sub);
        cfg->has_extractor = true;
        return FL_MODEL_OK;
    }
    char text[VALUE_MAX_BYTES];
    memcpy(text, value, strlen(value) + 1);
    bool decoded = unescape_value(text);
    if (which == 0) {
        if (!decoded || fl_model_parse_millibits(text, &cfg->millibits) != FL_MODEL_OK)
            return fl_model_fail(err, err_len, "bloom spec \"%s\": bits=\"%s\": expected a "
                                 "decimal from 0 to 1000", spec, value);
    } else {
        if (!decoded || (strcmp(text, "0") != 0 && strcmp(text, "1") != 0))
            return fl_model_fail(err, err_len, "bloom spec \"%s\": whole_key=\"%s\": expected "
                                 "0 or 1", spec, value);
        cfg->whole_key = text[0] == '1';
    }
    return FL_MODEL_OK;
}

int fl_model_bloom_parse(const char *spec, fl_model_bloom_config *out,
                         char *err, size_t err_len) {
    fl_model_bloom_config cfg = { 10000, true, false, { FL_MODEL_FIXED, 0, 0 } };
    const char *s = spec, *end = spec + strlen(spec);
    trim(&s, &end);
    size_t len = (size_t)(end - s);
    if (len == 5 && memcmp(s, "bloom", 5) == 0) { *out = cfg; return FL_MODEL_OK; }
    if (len < 7 || memcmp(s, "bloom(", 6) != 0 || end[-1] != ')')
        return fl_model_fail(err, err_len, "bloom spec \"%s\": expected bloom or "
                             "bloom(ARG=VALUE,...)", spec);
    /* The '(' after "bloom" must be closed by the last ')' and by no
     * earlier one: inside, the depth never drops below 0 and ends at 0. */
    const char *args = s + 6, *args_end = end - 1;
    int depth = 0;
    for (const char *p = args; p < args_end; p++) {
        depth += (*p == '(') - (*p == ')');
        if (depth < 0) break;
    }
    if (depth != 0)
        return fl_model_fail(err, err_len, "bloom spec \"%s\": unbalanced parentheses", spec);
    trim(&args, &args_end);
    if (args == args_end) { *out = cfg; return FL_MODEL_OK; }   /* "bloom( )" */
    bool seen[3] = { false, false, false };
    for (const char *item = args;;) {
        /* The argument runs to the next ',' outside parentheses. */
        const char *stop = item;
        for (int d = 0; stop < args_end && !(*stop == ',' && d == 0); stop++)
            d += (*stop == '(') - (*stop == ')');
        const char *a = item, *b = stop;
        trim(&a, &b);
        if (a == b)
            return fl_model_fail(err, err_len, "bloom spec \"%s\": empty argument", spec);
        int rc = apply_arg(spec, a, b, &cfg, seen, err, err_len);
        if (rc != FL_MODEL_OK) return rc;
        if (stop == args_end) break;
        item = stop + 1;
    }
    *out = cfg;
    return FL_MODEL_OK;
}

char *fl_model_bloom_name(const fl_model_bloom_config *cfg, char *out, size_t out_len) {
    char ex[FL_MODEL_NAME_MAX] = "";
    if (cfg->has_extractor) fl_model_extractor_name(&cfg->extractor, ex, sizeof ex);
    if (out_len)
        snprintf(out, out_len, "_bf%s%s%s", cfg->has_extractor ? ":p=" : "", ex,
                 cfg->whole_key ? "" : ":wh=0");
    return out;
}
