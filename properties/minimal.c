/*
 * minimal.c -- fl_check_minimal: is a failing workload 1-minimal?  Tries,
 * one at a time, every workload made from it by
 *   - removing one op, or one key of a multiget;
 *   - removing one option of an open, reopen or set_options (a reopen and
 *     a set_options keep at least one: the format has none without);
 *   - removing one spec of a policy list ("none" for the only one);
 *   - replacing a reopen by a flush;
 * and says whether any of them still fails the same way (ck_outcome_same).
 * Deliberately plain: one candidate per removal, in order, so that it can
 * judge the shrinker without sharing its passes.
 */
#include "shrink_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct judge {
    const fl_trial_env *env;
    ck_outcome want;
    uint64_t runs;
} judge;

/* Runs candidate c (freed) and says whether it still fails as want does. */
static bool still_fails(judge *j, fl_workload *c) {
    bool same = false;
    if (ck_wl_options_valid(c)) {
        ck_outcome got;
        j->runs++;
        ck_outcome_run(j->env, c, &got);
        same = ck_outcome_same(&j->want, &got);
    }
    fl_workload_free(c);
    return same;
}

/* "op 3 (line 5: reopen policies=x)" into out. */
static void describe_op(const fl_op *op, size_t index, char *out, size_t cap) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
        fl_op_print(op, f);
        fclose(f);
    }
    snprintf(out, cap, "op %zu (line %u: %s)", index + 1, op->line, text ? text : "?");
    free(text);
}

int fl_check_minimal(const fl_trial_env *env, const fl_workload *w, int property, bool *minimal,
                     char *what, size_t what_len) {
    judge j = { .env = env };
    char op_text[512];
    *minimal = false;
    if (what_len) what[0] = '\0';
    ck_outcome_run(env, w, &j.want);
    if (j.want.property != property) {
        snprintf(what, what_len, "the workload does not violate P%d (%s)", property,
                 j.want.property ? j.want.msg : "no violation");
        return FL_ERR_INVALID;
    }
    fl_workload c;
    for (size_t i = 0; i < w->count; i++) {
        const fl_op *op = &w->ops[i];
        describe_op(op, i, op_text, sizeof op_text);
        if (ck_wl_without_ops(w, i, 1, &c) && still_fails(&j, &c)) {
            snprintf(what, what_len, "without %s it still violates P%d", op_text, property);
            return FL_OK;
        }
        for (size_t k = 0; op->kind == FL_OP_MULTIGET && k < op->count; k++)
            if (ck_wl_without_multiget_key(w, i, k, &c) && still_fails(&j, &c)) {
                snprintf(what, what_len, "without key %zu of %s it still violates P%d", k + 1, op_text, property);
                return FL_OK;
            }
        if (op->kind == FL_OP_REOPEN) {
            fl_op flush = { .kind = FL_OP_FLUSH, .line = op->line };
            if (ck_wl_with_op(w, i, &flush, &c) && still_fails(&j, &c)) {
                snprintf(what, what_len, "with a flush for %s it still violates P%d", op_text, property);
                return FL_OK;
            }
        }
        for (size_t o = 0; o < op->opt_count; o++) {
            const fl_wl_option *opt = &op->opts[o];
            if (ck_wl_without_option(w, i, o, &c) && still_fails(&j, &c)) {
                snprintf(what, what_len, "without option %s of %s it still violates P%d", opt->key, op_text,
                         property);
                return FL_OK;
            }
            if (!ck_is_list_option(opt->key)) continue;
            for (size_t k = 1; k <= ck_list_count(opt->value); k++) {
                char fewer[4096];
                if (!ck_list_with(opt->value, k, NULL, fewer, sizeof fewer)) continue;
                if (ck_wl_with_option(w, i, o, fewer, &c) && still_fails(&j, &c)) {
                    snprintf(what, what_len, "with %s=\"%s\" in %s it still violates P%d", opt->key, fewer,
                             op_text, property);
                    return FL_OK;
                }
            }
        }
    }
    *minimal = true;
    snprintf(what, what_len, "1-minimal: %llu single removals tried, none still violates P%d",
             (unsigned long long)j.runs, property);
    return FL_OK;
}
