/*
 * model_spec.c -- the reference bloom's configuration: the exact decimal
 * parser for bits per key (SPEC 5: mb = round(bits * 1000)), the parser of
 * "bloom(bits=..,whole_key=..,prefix=..)" specs and the policy name.
 *
 * Invariant: millibits are computed from the decimal digits with integers
 * only, so every input has exactly one answer, with halves rounding up; and
 * the name changes whenever what the filter hashes changes (extractor,
 * whole-key), never with bits.
 */
#include "model_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* ---- Bits per key ------------------------------------------------------------ */

int fl_model_parse_millibits(const char *bits, uint32_t *millibits) {
    const char *s = bits;
    uint64_t whole = 0;
    if (!is_digit(*s)) return FL_MODEL_ERR_INVALID;
    for (; is_digit(*s); s++) {
        whole = whole * 10 + (uint64_t)(*s - '0');
        if (whole > 1000) return FL_MODEL_ERR_INVALID;     /* bits > 1000 */
    }
    uint64_t frac = 0;          /* the first three fraction digits, as 0..999 */
    bool round_up = false;      /* the fourth fraction digit is 5..9          */
    bool nonzero_frac = false;
    if (*s == '.') {
        s++;
        if (!is_digit(*s)) return FL_MODEL_ERR_INVALID;
        int digits = 0;
        for (; is_digit(*s); s++, digits++) {
            int d = *s - '0';
            if (d) nonzero_frac = true;
            if (digits < 3) frac = frac * 10 + (uint64_t)d;
            else if (digits == 3) round_up = d >= 5;
        }
        for (; digits < 3; digits++) frac *= 10;   /* "2.5" is 2500 */
    }
    if (*s) return FL_MODEL_ERR_INVALID;
    if (whole == 1000 && nonzero_frac) return FL_MODEL_ERR_INVALID;
    *millibits = (uint32_t)(whole * 1000 + frac + (round_up ? 1 : 0));
    return FL_MODEL_OK;
}

/* ---- bloom(...) specs -------------------------------------------------------- */

/* Applies one ARG=VALUE (len bytes at arg) to cfg; seen[] catches repeats. */
static int apply_arg(const char *spec, const char *arg, size_t len, fl_model_bloom_config *cfg,
                     bool seen[3], char *err, size_t err_len) {
    static const char *const names[3] = { "bits", "whole_key", "prefix" };
    char text[512];
    if (len >= sizeof text)
        return fl_model_fail(err, err_len, "bloom spec \"%s\": argument too long", spec);
    memcpy(text, arg, len);
    text[len] = 0;
    char *eq = strchr(text, '=');
    if (!eq)
        return fl_model_fail(err, err_len, "bloom spec \"%s\": expected ARG=VALUE, got \"%s\"",
                             spec, text);
    *eq = 0;
    const char *value = eq + 1;
    int which = -1;
    for (int i = 0; i < 3; i++) if (strcmp(text, names[i]) == 0) which = i;
    if (which < 0)
        return fl_model_fail(err, err_len, "bloom spec \"%s\": unknown argument \"%s\" "
                             "(expected bits, whole_key, prefix)", spec, text);
    if (seen[which])
        return fl_model_fail(err, err_len, "bloom spec \"%s\": %s given twice", spec, text);
    seen[which] = true;
    if (which == 0) {
        if (fl_model_parse_millibits(value, &cfg->millibits) != FL_MODEL_OK)
            return fl_model_fail(err, err_len, "bloom spec \"%s\": bits=\"%s\": expected a "
                                 "decimal from 0 to 1000", spec, value);
    } else if (which == 1) {
        if (strcmp(value, "0") != 0 && strcmp(value, "1") != 0)
            return fl_model_fail(err, err_len, "bloom spec \"%s\": whole_key=\"%s\": expected "
                                 "0 or 1", spec, value);
        cfg->whole_key = value[0] == '1';
    } else {
        char sub[256];
        if (fl_model_extractor_parse(value, &cfg->extractor, sub, sizeof sub) != FL_MODEL_OK)
            return fl_model_fail(err, err_len, "bloom spec \"%s\": prefix: %s", spec, sub);
        cfg->has_extractor = true;
    }
    return FL_MODEL_OK;
}

int fl_model_bloom_parse(const char *spec, fl_model_bloom_config *out,
                         char *err, size_t err_len) {
    fl_model_bloom_config cfg = { 10000, true, false, { FL_MODEL_FIXED, 0, 0 } };
    size_t len = strlen(spec);
    if (strcmp(spec, "bloom") == 0) { *out = cfg; return FL_MODEL_OK; }
    if (len < 7 || memcmp(spec, "bloom(", 6) != 0 || spec[len - 1] != ')')
        return fl_model_fail(err, err_len, "bloom spec \"%s\": expected bloom or "
                             "bloom(ARG=VALUE,...)", spec);
    const char *args = spec + 6, *end = spec + len - 1;
    bool seen[3] = { false, false, false };
    while (args < end) {                 /* "bloom()" has no arguments */
        const char *comma = memchr(args, ',', (size_t)(end - args));
        const char *stop = comma ? comma : end;
        int rc = apply_arg(spec, args, (size_t)(stop - args), &cfg, seen, err, err_len);
        if (rc != FL_MODEL_OK) return rc;
        if (comma && comma + 1 == end)
            return fl_model_fail(err, err_len, "bloom spec \"%s\": empty argument", spec);
        args = comma ? comma + 1 : end;
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
