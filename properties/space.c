/*
 * space.c -- the option-text builder the configuration spaces share
 * (check.h, "Configuration spaces"; each engine's space is in its adapter).
 */
#include "check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- Option text ------------------------------------------------------------- */

void fl_text_clear(fl_text *t) {
    t->len = 0;
    t->buf[0] = 0;
}

void fl_text_add(fl_text *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->buf + t->len, sizeof t->buf - t->len, fmt, ap);
    va_end(ap);
    if (n > 0) t->len = t->len + (size_t)n < sizeof t->buf ? t->len + (size_t)n : sizeof t->buf - 1;
}

void fl_text_add_quoted(fl_text *t, const char *s) {
    fl_text_add(t, "\"");
    for (; *s; s++) fl_text_add(t, *s == '\\' || *s == '"' ? "\\%c" : "%c", *s);
    fl_text_add(t, "\"");
}

/* ---- What every space does --------------------------------------------------- */

int fl_space_make_specs(const fl_run_config *c, char *err, size_t err_len) {
    char why[512];
    for (size_t i = 0; i < c->npolicies; i++) {
        fl_policy_list l;
        if (fl_policy_list_parse(c->reg, NULL, c->policies[i], &l, why, sizeof why) != FL_OK) {
            snprintf(err, err_len, "--policy %s: %s", c->policies[i], why);
            return FL_ERR_INVALID;
        }
        fl_policy_list_free(NULL, &l);
    }
    for (size_t i = 0; i < c->nextractors; i++) {
        fl_prefix_extractor *x = NULL;
        if (fl_registry_make_extractor(c->reg, c->extractors[i], &x, why, sizeof why) != FL_OK) {
            snprintf(err, err_len, "--extractor %s: %s", c->extractors[i], why);
            return FL_ERR_INVALID;
        }
        fl_call_extractor_destroy(NULL, x);
    }
    return FL_OK;
}

void fl_space_trial_lengths(fl_space_trial *t, size_t reopens) {
    t->nlengths = 0;
    fl_prefix_lengths(t->open.buf, t->lengths, &t->nlengths, FL_TRIAL_LENGTHS);
    for (size_t i = 0; i < reopens; i++)
        fl_prefix_lengths(t->reopen[i].buf, t->lengths, &t->nlengths, FL_TRIAL_LENGTHS);
    t->gen->prefix_lengths = t->lengths;
    t->gen->prefix_length_count = t->nlengths;
}
