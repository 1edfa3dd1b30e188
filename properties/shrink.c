/*
 * shrink.c -- reduces a failing workload while the same property still
 * fails, in passes repeated until none makes progress or the time budget
 * runs out:
 *   1. drop chunks of ops (halves, quarters, ... single ops), never the
 *      leading open;
 *   2. drop filter contexts from reads;
 *   3. simplify values (to "v");
 *   4. shorten keys and prefixes: each distinct byte string, everywhere it
 *      occurs, loses its last or first byte;
 *   5. simplify the configuration: drop options of open and reopen, drop
 *      specs from policy lists.
 * Every candidate is a whole workload run through the checker in a fresh
 * directory; a candidate is kept only when it fails with the same property.
 */
#include "check_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct shrinker {
    const fl_trial_env *env;
    uint64_t runs;
    int property;
    double deadline;
} shrinker;

static bool out_of_time(const shrinker *s) {
    return fl_now() > s->deadline || (s->env->interrupt && *s->env->interrupt);
}

/* An engine error, a crash or a hang stand for P10 (fl_check_workload). */
static bool still_fails(shrinker *s, const fl_workload *w) {
    fl_trial_outcome o;
    s->runs++;
    if (fl_check_workload(s->env, w, true, &o) != FL_OK) return false;
    return o.property == s->property;
}

static void replace(fl_workload *w, fl_workload *with) {
    fl_workload_free(w);
    *w = *with;
    memset(with, 0, sizeof *with);
}

/* ---- 1. Ops --------------------------------------------------------------- */

static bool drop_range(shrinker *s, fl_workload *w, size_t from, size_t n) {
    fl_workload c = { 0 };
    bool ok = true;
    for (size_t i = 0; i < w->count && ok; i++)
        if (i < from || i >= from + n) ok = fl_workload_add(&c, &w->ops[i]) == 0;
    if (ok && c.count < w->count && still_fails(s, &c)) {
        replace(w, &c);
        return true;
    }
    fl_workload_free(&c);
    return false;
}

static bool pass_ops(shrinker *s, fl_workload *w) {
    bool progress = false;
    size_t first = w->count && w->ops[0].kind == FL_OP_OPEN ? 1 : 0;
    for (size_t chunk = (w->count - first) / 2; chunk >= 1 && !out_of_time(s); chunk /= 2) {
        for (size_t at = first; at < w->count && !out_of_time(s);) {
            size_t n = at + chunk <= w->count ? chunk : w->count - at;
            if (drop_range(s, w, at, n)) progress = true;
            else at += n;
        }
        if (chunk == 1) break;
    }
    return progress;
}

/* ---- 2-4. Contexts, values, keys ------------------------------------------- */

typedef bool (*op_edit)(fl_op *op, const void *arg);   /* edits a copy; true if changed */

/* A copy of w with edit applied to every op (or only op `only`). */
static bool edited(const fl_workload *w, op_edit edit, const void *arg, long only, fl_workload *out) {
    memset(out, 0, sizeof *out);
    bool changed = false;
    for (size_t i = 0; i < w->count; i++) {
        fl_op op = w->ops[i];
        uint8_t *a = NULL, *b = NULL;
        if ((only < 0 || (size_t)only == i) && edit(&op, arg)) {
            changed = true;
            a = op.a.data != w->ops[i].a.data ? op.a.data : NULL;
            b = op.b.data != w->ops[i].b.data ? op.b.data : NULL;
        }
        int rc = fl_workload_add(out, &op);
        free(a);
        free(b);
        if (rc != 0) { fl_workload_free(out); return false; }
    }
    if (!changed) fl_workload_free(out);
    return changed;
}

static bool try_edit(shrinker *s, fl_workload *w, op_edit edit, const void *arg) {
    fl_workload c;
    if (!edited(w, edit, arg, -1, &c)) return false;
    if (still_fails(s, &c)) { replace(w, &c); return true; }
    fl_workload_free(&c);
    /* not all at once: one op at a time */
    bool progress = false;
    for (size_t i = 0; i < w->count && !out_of_time(s); i++) {
        if (!edited(w, edit, arg, (long)i, &c)) continue;
        if (still_fails(s, &c)) { replace(w, &c); progress = true; }
        else fl_workload_free(&c);
    }
    return progress;
}

static bool drop_ctx(fl_op *op, const void *arg) {
    (void)arg;
    if (!op->has_ctx) return false;
    op->has_ctx = false;
    op->ctx_len = 0;
    return true;
}

static bool simple_value(fl_op *op, const void *arg) {
    (void)arg;
    if (op->kind != FL_OP_PUT || (op->b.len == 1 && op->b.data[0] == 'v')) return false;
    uint8_t *v = malloc(1);
    if (!v) return false;
    v[0] = 'v';
    op->b = (fl_bytes){ v, 1 };
    return true;
}

typedef struct key_rename { const fl_bytes *from; fl_bytes to; } key_rename;

static bool same(const fl_bytes *x, const fl_bytes *y) {
    return x->len == y->len && (x->len == 0 || memcmp(x->data, y->data, x->len) == 0);
}

static bool rename_bytes(fl_bytes *b, const key_rename *r) {
    if (!same(b, r->from)) return false;
    uint8_t *d = malloc(r->to.len ? r->to.len : 1);
    if (!d) return false;
    if (r->to.len) memcpy(d, r->to.data, r->to.len);
    *b = (fl_bytes){ d, r->to.len };
    return true;
}

static bool has_a(fl_op_kind k) { return k >= FL_OP_PUT && k <= FL_OP_SCAN; }
static bool has_b_key(fl_op_kind k) { return k == FL_OP_DELRANGE || k == FL_OP_SCAN; }

static bool rename_key(fl_op *op, const void *arg) {
    const key_rename *r = arg;
    bool changed = false;
    if (has_a(op->kind)) changed |= rename_bytes(&op->a, r);
    if (has_b_key(op->kind)) changed |= rename_bytes(&op->b, r);
    return changed;
}

/* Each distinct key, prefix or bound, everywhere it occurs, without its
 * last byte, or else without its first. */
static bool pass_keys(shrinker *s, fl_workload *w) {
    bool progress = false;
    for (size_t i = 0; i < w->count && !out_of_time(s); i++) {
        fl_op *op = &w->ops[i];
        for (int which = 0; which < 2 && i < w->count && !out_of_time(s); which++) {
            op = &w->ops[i];
            if (which == 0 ? !has_a(op->kind) : !has_b_key(op->kind)) continue;
            fl_bytes from = which == 0 ? op->a : op->b;
            if (from.len == 0) continue;
            fl_bytes keep = { malloc(from.len), from.len };
            if (!keep.data) return progress;
            memcpy(keep.data, from.data, from.len);
            for (int cut = 0; cut < 2; cut++) {
                key_rename r = { &keep, { cut ? keep.data + 1 : keep.data, keep.len - 1 } };
                fl_workload c;
                if (!edited(w, rename_key, &r, -1, &c)) continue;
                if (still_fails(s, &c)) { replace(w, &c); progress = true; break; }
                fl_workload_free(&c);
            }
            free(keep.data);
        }
    }
    return progress;
}

/* ---- 5. Configuration ----------------------------------------------------------- */

static fl_wl_option *find_opt(fl_op *op, const char *key) {
    for (size_t i = 0; i < op->opt_count; i++)
        if (strcmp(op->opts[i].key, key) == 0) return &op->opts[i];
    return NULL;
}

/* Candidates for one open/reopen: without each option, and each policy
 * list without each of its specs. */
static bool pass_config(shrinker *s, fl_workload *w) {
    bool progress = false;
    for (size_t i = 0; i < w->count && !out_of_time(s); i++) {
        fl_op *op = &w->ops[i];
        if (op->kind != FL_OP_OPEN && op->kind != FL_OP_REOPEN) continue;
        for (size_t j = 0; j < w->ops[i].opt_count && !out_of_time(s); j++) {
            op = &w->ops[i];
            if (op->kind == FL_OP_REOPEN && op->opt_count == 1) break;
            fl_workload c = { 0 };
            bool ok = true;
            for (size_t k = 0; k < w->count && ok; k++) {
                fl_op copy = w->ops[k];
                fl_wl_option opts[64];
                if (k == i) {
                    size_t n = 0;
                    for (size_t o = 0; o < copy.opt_count && n < 64; o++)
                        if (o != j) opts[n++] = copy.opts[o];
                    copy.opts = opts;
                    copy.opt_count = n;
                }
                ok = fl_workload_add(&c, &copy) == 0;
            }
            if (ok && still_fails(s, &c)) { replace(w, &c); progress = true; j--; }
            else fl_workload_free(&c);
        }
        /* policy lists: one spec fewer */
        static const char *const lists[] = { "policies", "compactor" };
        for (int l = 0; l < 2 && !out_of_time(s); l++) {
            fl_wl_option *o = find_opt(&w->ops[i], lists[l]);
            if (!o) continue;
            char *v = strdup(o->value);
            if (!v) return progress;
            size_t starts[32], ends[32], n = 0;
            int depth = 0;
            size_t from = 0, len = strlen(v);
            for (size_t p = 0; p <= len && n < 32; p++) {
                if (p < len && v[p] == '(') depth++;
                if (p < len && v[p] == ')') depth--;
                if (p == len || (v[p] == ';' && depth == 0)) { starts[n] = from; ends[n] = p; n++; from = p + 1; }
            }
            for (size_t drop = 0; n > 1 && drop < n && !out_of_time(s); drop++) {
                char nv[4096] = "";
                for (size_t q = 0; q < n; q++) {
                    if (q == drop) continue;
                    if (nv[0]) strncat(nv, ";", sizeof nv - strlen(nv) - 1);
                    strncat(nv, v + starts[q], ends[q] - starts[q] < sizeof nv - strlen(nv) - 1
                                                   ? ends[q] - starts[q] : sizeof nv - strlen(nv) - 1);
                }
                fl_workload c = { 0 };
                bool ok = true;
                for (size_t k = 0; k < w->count && ok; k++) {
                    fl_op copy = w->ops[k];
                    fl_wl_option opts[64];
                    if (k == i) {
                        for (size_t q = 0; q < copy.opt_count && q < 64; q++) {
                            opts[q] = copy.opts[q];
                            if (strcmp(opts[q].key, lists[l]) == 0) opts[q].value = nv;
                        }
                        copy.opts = opts;
                    }
                    ok = fl_workload_add(&c, &copy) == 0;
                }
                if (ok && still_fails(s, &c)) { replace(w, &c); progress = true; break; }
                fl_workload_free(&c);
            }
            free(v);
        }
    }
    return progress;
}

uint64_t fl_shrink(const fl_trial_env *env, fl_workload *w, int property, double seconds) {
    shrinker s = { env, 0, property, fl_now() + seconds };
    bool progress = true;
    while (progress && !out_of_time(&s)) {
        progress = pass_ops(&s, w);
        progress |= try_edit(&s, w, drop_ctx, NULL);
        progress |= try_edit(&s, w, simple_value, NULL);
        progress |= pass_keys(&s, w);
        progress |= pass_config(&s, w);
    }
    return s.runs;
}
