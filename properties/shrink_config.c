/*
 * shrink_config.c -- the shrinker's pass over the options of every open and
 * reopen.  For each option, in turn:
 *   - the option removed (the value in force before, or the default, then
 *     applies); a reopen keeps at least one, as the format wants;
 *   - for a policy list, each spec removed (the only one: "none"), then
 *     each argument of each spec removed (its default then applies);
 *   - for a number, the smallest value the engine accepts (0 or 1), else
 *     half the value while that still fails.
 * Lists and arguments are taken apart by the engine's parser
 * (fl_policy_list_split, fl_spec_args_split), never by hand.
 */
#include "shrink_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { VALUE_MAX = 4096 };

/* Option j of op i set to value (NULL: removed); true if that was kept. */
static bool try_value(ck_shrinker *s, fl_workload *w, size_t i, size_t j, const char *value) {
    fl_workload c;
    bool made = value ? ck_wl_with_option(w, i, j, value, &c) : ck_wl_without_option(w, i, j, &c);
    return made && ck_shrink_try(s, w, &c);
}

/* ---- Policy lists ------------------------------------------------------------- */

typedef struct spec_args { char *items[32]; size_t n; bool overflow; } spec_args;

static int collect_arg(void *arg, const char *name, const char *value) {
    spec_args *a = arg;
    if (a->n == sizeof a->items / sizeof a->items[0]) { a->overflow = true; return FL_ERR_INVALID; }
    size_t len = strlen(name) + strlen(value) + 2;
    char *item = malloc(len);
    if (!item) return FL_ERR_NOMEM;
    snprintf(item, len, "%s=%s", name, value);
    a->items[a->n++] = item;
    return FL_OK;
}

static void free_args(spec_args *a) {
    for (size_t i = 0; i < a->n; i++) free(a->items[i]);
    a->n = 0;
}

/* spec's arguments into a (with its kind, the text before '(', in kind);
 * false when it has none or they do not split. */
static bool split_spec(const char *spec, char *kind, size_t kind_cap, spec_args *a) {
    memset(a, 0, sizeof *a);
    const char *open = strchr(spec, '(');
    size_t len = strlen(spec);
    if (!open || (size_t)(open - spec) >= kind_cap || spec[len - 1] != ')') return false;
    memcpy(kind, spec, (size_t)(open - spec));
    kind[open - spec] = '\0';
    char *args = strndup(open + 1, (size_t)(spec + len - 1 - (open + 1)));
    if (!args) return false;
    int rc = fl_spec_args_split(args, collect_arg, a, NULL, 0);
    free(args);
    if (rc != FL_OK || a->overflow || a->n == 0) {
        free_args(a);
        return false;
    }
    return true;
}

/* kind with every argument of a but `skip`: "kind(x=1,y=2)", or "kind". */
static bool join_spec(const char *kind, const spec_args *a, size_t skip, char *out, size_t cap) {
    size_t len = (size_t)snprintf(out, cap, "%s", kind);
    size_t kept = 0;
    for (size_t m = 0; m < a->n && len < cap; m++)
        if (m != skip) len += (size_t)snprintf(out + len, cap - len, "%s%s", kept++ ? "," : "(", a->items[m]);
    if (kept && len < cap) len += (size_t)snprintf(out + len, cap - len, ")");
    return len < cap;
}

/* Spec k of the list in option j of op i, each argument removed. */
static void shrink_arguments(ck_shrinker *s, fl_workload *w, size_t i, size_t j, size_t k) {
    for (size_t m = 0; !ck_shrink_out_of_time(s);) {
        char list[VALUE_MAX], spec[VALUE_MAX], kind[128], fewer[VALUE_MAX], edited[VALUE_MAX];
        spec_args a;
        if (snprintf(list, sizeof list, "%s", w->ops[i].opts[j].value) >= (int)sizeof list ||
            !ck_list_spec(list, k, spec, sizeof spec) || !split_spec(spec, kind, sizeof kind, &a))
            return;
        bool tried = false, kept = false;
        if (m < a.n && join_spec(kind, &a, m, fewer, sizeof fewer) &&
            ck_list_with(list, k, fewer, edited, sizeof edited)) {
            tried = true;
            kept = try_value(s, w, i, j, edited);
        }
        size_t n = a.n;
        free_args(&a);
        if (m >= n) return;
        if (!tried || !kept) m++;
    }
}

/* The list in option j of op i: each spec removed, then each one's
 * arguments. */
static void shrink_list(ck_shrinker *s, fl_workload *w, size_t i, size_t j) {
    for (size_t k = 1; k <= ck_list_count(w->ops[i].opts[j].value) && !ck_shrink_out_of_time(s);) {
        char list[VALUE_MAX], fewer[VALUE_MAX];
        if (snprintf(list, sizeof list, "%s", w->ops[i].opts[j].value) >= (int)sizeof list) return;
        if (!(ck_list_with(list, k, NULL, fewer, sizeof fewer) && try_value(s, w, i, j, fewer))) k++;
    }
    for (size_t k = 1; k <= ck_list_count(w->ops[i].opts[j].value) && !ck_shrink_out_of_time(s); k++)
        shrink_arguments(s, w, i, j, k);
}

/* ---- Numbers ------------------------------------------------------------------ */

static bool parse_number(const char *text, uint64_t *out) {
    if (!*text || strlen(text) > 19) return false;
    uint64_t v = 0;
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9') return false;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    *out = v;
    return true;
}

/* The option's number as small as still fails: 0, else 1, else halved
 * while that still fails (values the engine refuses are never run). */
static void shrink_number(ck_shrinker *s, fl_workload *w, size_t i, size_t j) {
    uint64_t v;
    if (!parse_number(w->ops[i].opts[j].value, &v)) return;
    char text[32];
    for (uint64_t small = 0; small <= 1 && small < v; small++) {
        snprintf(text, sizeof text, "%llu", (unsigned long long)small);
        if (try_value(s, w, i, j, text)) return;
    }
    while (v / 2 > 1 && !ck_shrink_out_of_time(s)) {
        snprintf(text, sizeof text, "%llu", (unsigned long long)(v / 2));
        if (!try_value(s, w, i, j, text)) return;
        v /= 2;
    }
}

/* ---- The pass --------------------------------------------------------------------- */

void ck_shrink_options(ck_shrinker *s, fl_workload *w) {
    for (size_t i = 0; i < w->count && !ck_shrink_out_of_time(s); i++) {
        fl_op_kind k = w->ops[i].kind;
        if (k != FL_OP_OPEN && k != FL_OP_REOPEN && k != FL_OP_SET_OPTIONS) continue;
        for (size_t j = 0; j < w->ops[i].opt_count && !ck_shrink_out_of_time(s);) {
            if (try_value(s, w, i, j, NULL)) continue;  /* j is now the next option */
            if (ck_is_list_option(w->ops[i].opts[j].key)) shrink_list(s, w, i, j);
            else shrink_number(s, w, i, j);
            j++;
        }
    }
}
