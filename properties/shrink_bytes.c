/*
 * shrink_bytes.c -- the shrinker's passes over byte strings, in three
 * namespaces: keys (keys, prefixes and range bounds: one namespace, since
 * a failure depends on how they relate), values, and filter contexts.
 *
 * Each distinct string S of a namespace is shortened and simplified
 * consistently, everywhere it occurs, so that equal strings stay equal:
 *   - S becomes empty;
 *   - bytes [i, i+n) of S go, all at once, else each half in turn, down to
 *     single bytes;
 *   - each byte of S becomes 'a' (or, for a digit, '0').
 * For keys each edit is first tried "prefix-consistently": on every string
 * that begins with S's bytes up to the end of the edit, so a prefix and
 * the keys that extend it (a scan_prefix and its keys, a delimiter that an
 * extractor looks for) keep their relation; then on the copies of S alone.
 * Contexts are first dropped from reads (all, then one by one); values are
 * first all emptied at once.
 */
#include "shrink_internal.h"

#include <stdlib.h>
#include <string.h>

typedef enum ns { NS_KEYS, NS_VALUES, NS_CONTEXTS } ns;

/* Slot k (0 or 1) of op in namespace n; false if op has no such slot. */
static bool slot(const fl_op *op, ns n, int k, const uint8_t **data, size_t *len) {
    fl_op_kind kind = op->kind;
    const fl_bytes *b = NULL;
    switch (n) {
    case NS_KEYS:
        if (k == 0 && ((kind >= FL_OP_PUT && kind <= FL_OP_SCAN) || kind == FL_OP_SEEK ||
                       kind == FL_OP_SEEK_FOR_PREV))
            b = &op->a;
        if (k == 1 && (kind == FL_OP_DELRANGE || kind == FL_OP_SCAN)) b = &op->b;
        break;
    case NS_VALUES:
        if (k == 0 && kind == FL_OP_PUT) b = &op->b;
        break;
    case NS_CONTEXTS:
        if (k != 0 || !op->has_ctx) return false;
        *data = op->ctx;
        *len = op->ctx_len;
        return true;
    }
    if (!b) return false;
    *data = b->data;
    *len = b->len;
    return true;
}

/* An edit of the strings of one namespace: those equal to s (exact), or
 * beginning with s's first at + cut bytes (prefixed; cut SIZE_MAX: every
 * string, from at to its end), get bytes [at, at + cut) replaced by ins. */
typedef struct str_edit {
    ns n;
    const uint8_t *s; size_t slen;
    bool prefixed;
    size_t at, cut;
    const uint8_t *ins; size_t ins_len;
} str_edit;

static bool edit_matches(const str_edit *e, const uint8_t *t, size_t tlen) {
    if (e->cut == SIZE_MAX) return true;
    size_t need = e->prefixed ? e->at + e->cut : e->slen;
    if (e->prefixed ? tlen < need : tlen != need) return false;
    return need == 0 || memcmp(t, e->s, need) == 0;
}

/* The edited copy of t (malloc'd, never NULL on success). */
static uint8_t *edit_apply(const str_edit *e, const uint8_t *t, size_t tlen, size_t *out_len) {
    size_t tail = e->cut == SIZE_MAX || e->at + e->cut >= tlen ? tlen : e->at + e->cut;
    size_t len = e->at + e->ins_len + (tlen - tail);
    uint8_t *d = malloc(len ? len : 1);
    if (!d) return NULL;
    memcpy(d, t, e->at);
    if (e->ins_len) memcpy(d + e->at, e->ins, e->ins_len);
    memcpy(d + e->at + e->ins_len, t + tail, tlen - tail);
    *out_len = len;
    return d;
}

/* A copy of w with the edit applied; *others counts edited strings not
 * equal to s.  False when nothing changed or the copy cannot be made. */
static bool edited_copy(const fl_workload *w, const str_edit *e, fl_workload *out, size_t *others) {
    memset(out, 0, sizeof *out);
    size_t changed = 0;
    *others = 0;
    bool ok = true;
    for (size_t i = 0; i < w->count && ok; i++) {
        fl_op op = w->ops[i];
        uint8_t *made[2] = { NULL, NULL };
        for (int k = 0; k < 2 && ok; k++) {
            const uint8_t *t;
            size_t tlen, len;
            if (!slot(&op, e->n, k, &t, &tlen) || !edit_matches(e, t, tlen)) continue;
            if (!(made[k] = edit_apply(e, t, tlen, &len))) { ok = false; break; }
            if (len == tlen && memcmp(made[k], t, len) == 0) { free(made[k]); made[k] = NULL; continue; }
            changed++;
            if (tlen != e->slen || memcmp(t, e->s, tlen) != 0) (*others)++;
            if (e->n == NS_CONTEXTS) {
                ok = len <= FL_WL_CTX_MAX;
                if (ok) {
                    memset(op.ctx, 0, sizeof op.ctx);
                    memcpy(op.ctx, made[k], len);
                    op.ctx_len = len;
                }
            } else if (e->n == NS_VALUES || k == 1) {
                op.b = (fl_bytes){ made[k], len };
            } else {
                op.a = (fl_bytes){ made[k], len };
            }
        }
        ok = ok && fl_workload_add(out, &op) == 0;
        free(made[0]);
        free(made[1]);
    }
    if (!ok || !changed) {
        fl_workload_free(out);
        return false;
    }
    return true;
}

/* The edit, prefix-consistently (keys) and then on s's copies alone; true
 * if either was kept. */
static bool try_edit(ck_shrinker *s, fl_workload *w, str_edit e) {
    fl_workload c;
    size_t others = 0;
    if (e.n == NS_KEYS) {
        e.prefixed = true;
        if (edited_copy(w, &e, &c, &others) && ck_shrink_try(s, w, &c)) return true;
        if (!others) return false;           /* the same candidate again */
    }
    e.prefixed = false;
    return edited_copy(w, &e, &c, &others) && ck_shrink_try(s, w, &c);
}

/* ---- One string --------------------------------------------------------------- */

/* The string being shrunk, updated as edits are kept. */
typedef struct cur { ns n; uint8_t *d; size_t len; } cur;

static bool try_splice(ck_shrinker *s, fl_workload *w, cur *c, size_t at, size_t cut,
                       const uint8_t *ins, size_t ins_len) {
    str_edit e = { c->n, c->d, c->len, false, at, cut, ins, ins_len };
    if (!try_edit(s, w, e)) return false;
    if (ins_len) memcpy(c->d + at, ins, ins_len);
    memmove(c->d + at + ins_len, c->d + at + cut, c->len - at - cut);
    c->len = c->len - cut + ins_len;
    return true;
}

/* Bytes [from, from + n) of the string: all, else each half (the later
 * first, so the earlier keeps its place). */
static void cut_span(ck_shrinker *s, fl_workload *w, cur *c, size_t from, size_t n) {
    if (n == 0 || from + n > c->len || ck_shrink_out_of_time(s)) return;
    if (try_splice(s, w, c, from, n, NULL, 0) || n == 1) return;
    cut_span(s, w, c, from + n / 2, n - n / 2);
    cut_span(s, w, c, from, n / 2);
}

static void shrink_string(ck_shrinker *s, fl_workload *w, cur *c) {
    cut_span(s, w, c, 0, c->len);
    for (size_t i = 0; i < c->len && !ck_shrink_out_of_time(s); i++) {
        uint8_t b = c->d[i];
        static const uint8_t a = 'a', zero = '0';
        if (b != 'a' && !try_splice(s, w, c, i, 1, &a, 1) && b > '0' && b <= '9')
            try_splice(s, w, c, i, 1, &zero, 1);
    }
}

/* The namespace's distinct strings, in order of first appearance: a
 * snapshot taken when the pass starts (strings are copied). */
typedef struct str_ref { uint8_t *d; size_t len, first; } str_ref;

static int by_bytes(const void *x, const void *y) {
    const str_ref *a = x, *b = y;
    size_t n = a->len < b->len ? a->len : b->len;
    int c = n ? memcmp(a->d, b->d, n) : 0;
    if (c) return c;
    if (a->len != b->len) return a->len < b->len ? -1 : 1;
    return a->first < b->first ? -1 : a->first > b->first;
}

static bool same_bytes(const str_ref *a, const str_ref *b) {
    return a->len == b->len && (!a->len || memcmp(a->d, b->d, a->len) == 0);
}

static int by_first(const void *x, const void *y) {
    const str_ref *a = x, *b = y;
    return a->first < b->first ? -1 : a->first > b->first;
}

static size_t distinct_strings(const fl_workload *w, ns n, str_ref **out) {
    str_ref *all = malloc((2 * w->count + 1) * sizeof *all);
    size_t count = 0;
    if (!all) { *out = NULL; return 0; }
    for (size_t i = 0; i < w->count; i++)
        for (int k = 0; k < 2; k++) {
            const uint8_t *t;
            size_t tlen;
            if (slot(&w->ops[i], n, k, &t, &tlen))
                all[count++] = (str_ref){ (uint8_t *)t, tlen, 2 * i + (size_t)k };
        }
    qsort(all, count, sizeof *all, by_bytes);
    size_t kept = 0;
    for (size_t i = 0; i < count; i++)
        if (!kept || !same_bytes(&all[i], &all[kept - 1])) all[kept++] = all[i];
    qsort(all, kept, sizeof *all, by_first);
    for (size_t i = 0; i < kept; i++) {
        uint8_t *copy = malloc(all[i].len ? all[i].len : 1);
        if (!copy) { while (i--) free(all[i].d); free(all); *out = NULL; return 0; }
        memcpy(copy, all[i].d, all[i].len);
        all[i].d = copy;
    }
    *out = all;
    return kept;
}

static bool occurs(const fl_workload *w, ns n, const str_ref *r) {
    for (size_t i = 0; i < w->count; i++)
        for (int k = 0; k < 2; k++) {
            const uint8_t *t;
            size_t tlen;
            if (slot(&w->ops[i], n, k, &t, &tlen) && same_bytes(&(str_ref){ (uint8_t *)t, tlen, 0 }, r))
                return true;
        }
    return false;
}

static void shrink_namespace(ck_shrinker *s, fl_workload *w, ns n) {
    str_ref *strs;
    size_t count = distinct_strings(w, n, &strs);
    for (size_t i = 0; i < count; i++) {
        if (!ck_shrink_out_of_time(s) && occurs(w, n, &strs[i])) {
            cur c = { n, strs[i].d, strs[i].len };
            shrink_string(s, w, &c);
        }
        free(strs[i].d);
    }
    free(strs);
}

/* ---- The passes ------------------------------------------------------------------ */

void ck_shrink_keys(ck_shrinker *s, fl_workload *w) { shrink_namespace(s, w, NS_KEYS); }

void ck_shrink_values(ck_shrinker *s, fl_workload *w) {
    str_edit all = { NS_VALUES, (const uint8_t *)"", 0, true, 0, SIZE_MAX, NULL, 0 };
    fl_workload c;
    size_t others;
    if (edited_copy(w, &all, &c, &others)) ck_shrink_try(s, w, &c);
    shrink_namespace(s, w, NS_VALUES);
}

/* A copy of w without the context of op `only` (or of every op). */
static bool without_contexts(const fl_workload *w, long only, fl_workload *out) {
    memset(out, 0, sizeof *out);
    bool changed = false;
    for (size_t i = 0; i < w->count; i++) {
        fl_op op = w->ops[i];
        if ((only < 0 || (size_t)only == i) && op.has_ctx) {
            op.has_ctx = false;
            op.ctx_len = 0;
            changed = true;
        }
        if (fl_workload_add(out, &op) != 0) { fl_workload_free(out); return false; }
    }
    if (!changed) fl_workload_free(out);
    return changed;
}

void ck_shrink_contexts(ck_shrinker *s, fl_workload *w) {
    fl_workload c;
    if (without_contexts(w, -1, &c) && ck_shrink_try(s, w, &c)) return;
    for (size_t i = 0; i < w->count && !ck_shrink_out_of_time(s); i++)
        if (w->ops[i].has_ctx && without_contexts(w, (long)i, &c)) ck_shrink_try(s, w, &c);
    shrink_namespace(s, w, NS_CONTEXTS);
}
