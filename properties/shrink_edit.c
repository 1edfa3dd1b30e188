/*
 * shrink_edit.c -- the pieces the shrinker and the 1-minimality check
 * build candidates from (shrink_internal.h): one run's outcome and when two
 * outcomes are the same failure; copies of a workload with one op or one
 * option changed, made through fl_workload_add so an invalid copy is never
 * made; and policy lists taken apart by the engine's spec parser, never by
 * splitting on ';' here.
 */
#include "shrink_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- Outcomes ---------------------------------------------------------------- */

void ck_outcome_run(const fl_trial_env *env, const fl_workload *w, ck_outcome *out) {
    fl_trial_outcome o;
    memset(out, 0, sizeof *out);
    if (fl_check_workload(env, w, true, &o) != FL_OK) {
        out->rc = o.rc ? o.rc : FL_ERR_IO;             /* no run: not a failure */
        return;
    }
    out->rc = o.rc;
    out->property = o.property;        /* an engine error, a crash, a hang: P10 */
    out->ops = o.ops;
    out->hang = o.hang;
    snprintf(out->msg, sizeof out->msg, "%s", o.message);
}

/* Whether c ends a path in a message ("... /d/000004.sst: cannot ..."). */
static bool path_end(char c) { return !c || isspace((unsigned char)c) || c == ':' || c == ')' || c == ','; }

/* msg with every run of digits as '#', every string quoted with " or '
 * emptied, and every path cut to its last name, a temporary one's random
 * suffix ("filterlab-db.Ab3xYz") as '*': what stays when only ids, sizes,
 * line numbers, keys, specs and the scratch directory of the run differ
 * (each run of a candidate makes its database in a new one). */
static void message_shape(const char *msg, char *out, size_t cap) {
    size_t n = 0;
    for (const char *p = msg; *p && n + 2 < cap; p++) {
        if (*p == '/' && (p == msg || isspace((unsigned char)p[-1]) || p[-1] == '(')) {
            const char *last = p, *q = p;
            for (; !path_end(*q); q++)
                if (*q == '/') last = q;
            const char *dot = strchr(last, '.');
            bool temp = dot && dot < q && q - dot == 7;         /* name.XXXXXX: mkdtemp's */
            for (const char *c = dot + 1; temp && c < q; c++) temp = isalnum((unsigned char)*c);
            for (const char *c = last, *end = temp ? dot + 1 : q; c < end && n + 2 < cap; c++) {
                if (isdigit((unsigned char)*c)) while (c + 1 < end && isdigit((unsigned char)c[1])) c++;
                out[n++] = isdigit((unsigned char)*c) ? '#' : *c;
            }
            if (temp) out[n++] = '*';
            p = q - 1;
        } else if (isdigit((unsigned char)*p)) {
            while (isdigit((unsigned char)p[1])) p++;
            out[n++] = '#';
        } else if (*p == '"' || *p == '\'') {
            char quote = *p;
            while (p[1] && p[1] != quote) p += p[1] == '\\' && p[2] ? 2 : 1;
            if (p[1]) p++;
            out[n++] = quote;
            out[n++] = quote;
        } else {
            out[n++] = *p;
        }
    }
    out[n] = '\0';
}

bool ck_outcome_same(const ck_outcome *want, const ck_outcome *got) {
    if (want->property != got->property || !want->property) return false;
    if (want->property != FL_P10) return true;
    if ((want->rc != FL_OK) != (got->rc != FL_OK)) return false;
    char a[1100], b[1100];
    message_shape(want->msg, a, sizeof a);
    message_shape(got->msg, b, sizeof b);
    return strcmp(a, b) == 0;
}

/* ---- Workload copies ------------------------------------------------------------ */

/* Appends op to out, or frees out and says false. */
static bool append(fl_workload *out, const fl_op *op) {
    if (fl_workload_add(out, op) == 0) return true;
    fl_workload_free(out);
    return false;
}

bool ck_wl_without_ops(const fl_workload *w, size_t from, size_t n, fl_workload *out) {
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < w->count; i++)
        if ((i < from || i - from >= n) && !append(out, &w->ops[i])) return false;
    return true;
}

bool ck_wl_with_op(const fl_workload *w, size_t at, const fl_op *op, fl_workload *out) {
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < w->count; i++)
        if (!append(out, i == at ? op : &w->ops[i])) return false;
    return true;
}

bool ck_wl_without_multiget_key(const fl_workload *w, size_t at, size_t key, fl_workload *out) {
    memset(out, 0, sizeof *out);
    if (at >= w->count || w->ops[at].kind != FL_OP_MULTIGET || w->ops[at].count < 2 || key >= w->ops[at].count)
        return false;
    const fl_op *m = &w->ops[at];
    uint8_t *packed = NULL;
    size_t len = 0, off = 0, klen, j = 0;
    const uint8_t *k;
    bool ok = true;
    while (ok && fl_op_multiget_key(m, &off, &k, &klen))
        if (j++ != key) ok = fl_op_multiget_pack(&packed, &len, k, klen) == 0;
    fl_op fewer = *m;
    fewer.a = (fl_bytes){ packed, len };
    fewer.count = m->count - 1;
    ok = ok && ck_wl_with_op(w, at, &fewer, out);
    free(packed);
    return ok;
}

/* A copy with option opt of op `at` removed (value NULL) or set to value. */
static bool with_option(const fl_workload *w, size_t at, size_t opt, const char *value,
                        fl_workload *out) {
    memset(out, 0, sizeof *out);
    if (at >= w->count || opt >= w->ops[at].opt_count) return false;
    const fl_op *src = &w->ops[at];
    fl_wl_option *opts = malloc((src->opt_count ? src->opt_count : 1) * sizeof *opts);
    if (!opts) return false;
    size_t n = 0;
    for (size_t i = 0; i < src->opt_count; i++) {
        if (i == opt && !value) continue;
        opts[n] = src->opts[i];
        if (i == opt) opts[n].value = (char *)value;   /* only read by fl_workload_add */
        n++;
    }
    fl_op changed = *src;
    changed.opts = opts;
    changed.opt_count = n;
    bool ok = ck_wl_with_op(w, at, &changed, out);
    free(opts);
    return ok;
}

bool ck_wl_without_option(const fl_workload *w, size_t at, size_t opt, fl_workload *out) {
    return with_option(w, at, opt, NULL, out);
}

bool ck_wl_with_option(const fl_workload *w, size_t at, size_t opt, const char *value,
                       fl_workload *out) {
    return value && with_option(w, at, opt, value, out);
}

bool ck_wl_with_open_option(const fl_workload *w, const char *key, const char *value, fl_workload *out) {
    memset(out, 0, sizeof *out);
    const fl_op *first = w->count ? &w->ops[0] : NULL;
    if (!first || first->kind != FL_OP_OPEN) {             /* a new open line */
        fl_wl_option opt = { (char *)key, (char *)value };
        fl_op open = { .kind = FL_OP_OPEN, .line = first ? first->line : 1, .opt_count = 1, .opts = &opt };
        if (!append(out, &open)) return false;
        for (size_t i = 0; i < w->count; i++)
            if (!append(out, &w->ops[i])) return false;
        return true;
    }
    for (size_t i = 0; i < first->opt_count; i++)
        if (strcmp(first->opts[i].key, key) == 0)
            return strcmp(first->opts[i].value, value) != 0 && with_option(w, 0, i, value, out);
    fl_wl_option *opts = malloc((first->opt_count + 1) * sizeof *opts);
    if (!opts) return false;
    if (first->opt_count) memcpy(opts, first->opts, first->opt_count * sizeof *opts);
    opts[first->opt_count] = (fl_wl_option){ (char *)key, (char *)value };
    fl_op open = *first;
    open.opts = opts;
    open.opt_count = first->opt_count + 1;
    bool ok = ck_wl_with_op(w, 0, &open, out);
    free(opts);
    return ok;
}

void ck_wl_replace(fl_workload *w, fl_workload *with) {
    char *description = w->description;
    w->description = NULL;
    fl_workload_free(w);
    *w = *with;
    if (description) {
        free(w->description);
        w->description = description;
    }
    memset(with, 0, sizeof *with);
}

/* ---- Policy lists ------------------------------------------------------------- */

bool ck_is_list_option(const char *key) {
    return strcmp(key, "policies") == 0 || strcmp(key, "compactor") == 0;
}

static int ignore_arg(void *arg, const char *name, const char *value) {
    (void)arg; (void)name; (void)value;
    return FL_OK;
}

/* A spec "KIND" or "KIND(ARGS)" whose arguments split. */
static int spec_splits(void *arg, const char *spec, size_t index) {
    (void)arg; (void)index;
    const char *open = strchr(spec, '(');
    if (!open) return FL_OK;
    size_t len = strlen(spec);
    if (open == spec || spec[len - 1] != ')') return FL_ERR_INVALID;
    char *args = strndup(open + 1, (size_t)(spec + len - 1 - (open + 1)));
    if (!args) return FL_ERR_NOMEM;
    int rc = fl_spec_args_split(args, ignore_arg, NULL, NULL, 0);
    free(args);
    return rc;
}

bool ck_wl_options_valid(const fl_workload *w) {
    fl_options o;
    fl_options_init(&o);
    bool ok = true;
    for (size_t i = 0; i < w->count && ok; i++) {
        const fl_op *op = &w->ops[i];
        for (size_t j = 0; j < op->opt_count && ok; j++) {
            char err[256];
            ok = fl_options_set(&o, op->opts[j].key, op->opts[j].value, err, sizeof err) == FL_OK;
            if (ok && ck_is_list_option(op->opts[j].key))
                ok = fl_policy_list_split(op->opts[j].value, spec_splits, NULL, err, sizeof err) == FL_OK;
        }
    }
    fl_options_free(&o);
    return ok;
}

typedef struct list_edit {
    size_t index;                /* the spec to replace or drop (1-based)  */
    const char *spec;            /* its replacement, or NULL to drop it     */
    char *out;
    size_t cap, len, count;      /* count: specs written                    */
    bool full;
} list_edit;

static void put_text(list_edit *e, const char *s) {
    size_t n = strlen(s);
    if (e->len + n + 1 > e->cap) { e->full = true; return; }
    memcpy(e->out + e->len, s, n + 1);
    e->len += n;
}

static int edit_spec(void *arg, const char *spec, size_t index) {
    list_edit *e = arg;
    if (index == e->index && !e->spec) return FL_OK;
    if (e->count++) put_text(e, ";");
    put_text(e, index == e->index ? e->spec : spec);
    return FL_OK;
}

bool ck_list_with(const char *list, size_t index, const char *spec, char *out, size_t cap) {
    if (!cap || index == 0 || index > ck_list_count(list)) return false;
    out[0] = '\0';
    list_edit e = { index, spec, out, cap, 0, 0, false };
    if (fl_policy_list_split(list, edit_spec, &e, NULL, 0) != FL_OK || e.full) return false;
    if (e.count == 0) put_text(&e, "none");
    return !e.full;
}

static int count_spec(void *arg, const char *spec, size_t index) {
    (void)spec;
    *(size_t *)arg = index;
    return FL_OK;
}

size_t ck_list_count(const char *list) {
    size_t n = 0;
    return fl_policy_list_split(list, count_spec, &n, NULL, 0) == FL_OK ? n : 0;
}

typedef struct spec_copy { size_t index; char *out; size_t cap; bool found; } spec_copy;

static int copy_spec(void *arg, const char *spec, size_t index) {
    spec_copy *c = arg;
    if (index != c->index) return FL_OK;
    c->found = strlen(spec) < c->cap;
    if (c->found) memcpy(c->out, spec, strlen(spec) + 1);
    return FL_OK;
}

bool ck_list_spec(const char *list, size_t index, char *out, size_t cap) {
    spec_copy c = { index, out, cap, false };
    return fl_policy_list_split(list, copy_spec, &c, NULL, 0) == FL_OK && c.found;
}
