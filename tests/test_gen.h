/*
 * test_gen.h -- helpers shared by the generator tests (test_gen.c: the API,
 * determinism, counts and errors; test_gen_keys.c: present and absent keys,
 * and each shape's keys): the shapes, a small word list written per test,
 * generation with failures reported, and sorted sets of byte strings for
 * checking what was written before an op.
 */
#ifndef FL_TEST_GEN_H
#define FL_TEST_GEN_H

#include "test.h"
#include "../workloads/workload.h"

#include <stdlib.h>
#include <string.h>

static const fl_gen_shape all_shapes[] = {
    FL_SHAPE_UNIFORM, FL_SHAPE_ZIPF, FL_SHAPE_GROUP_SUFFIX, FL_SHAPE_DELIMITED,
    FL_SHAPE_TIMESERIES, FL_SHAPE_ADVERSARIAL, FL_SHAPE_WORDS,
};
#define SHAPES (sizeof all_shapes / sizeof all_shapes[0])

/* A word list of made-up words (and a few lines it must skip), written
 * into the test's temporary directory; word_list[] keeps the words. */
static char word_list[200][16];

static inline const char *word_file(void) {
    static char path[4096];
    static const char *const syl[] = { "ka", "lo", "mi", "ne", "su", "ta", "ri", "po",
                                       "ge", "bu", "do", "fe", "ha", "ji" };
    snprintf(path, sizeof path, "%s/words", fl_test_tmpdir());
    FILE *f = fopen(path, "w");
    if (!f) return "/nonexistent";
    for (int i = 0; i < 200; i++) {
        snprintf(word_list[i], sizeof word_list[i], "%s%s%s%s", syl[i % 14], syl[(i / 14) % 14],
                 i % 3 ? syl[i % 5] : "", i % 7 == 0 ? "'s" : "");
        fprintf(f, "%s\n", word_list[i]);
    }
    fputs("\n" "has:colon\n" "\x01" "ctl\n", f);    /* skipped: blank, ':' and control */
    fclose(f);
    return path;
}

static inline bool is_word(const uint8_t *p, size_t n) {
    for (int i = 0; i < 200; i++)
        if (strlen(word_list[i]) == n && memcmp(word_list[i], p, n) == 0) return true;
    return false;
}

/* Defaults for shape, with the test's word list for words. */
static inline void defaults(fl_gen_options *o, fl_gen_shape shape) {
    fl_gen_defaults(o, shape);
    if (shape == FL_SHAPE_WORDS) o->words_path = word_file();
}

static inline bool generate(const fl_gen_options *o, fl_workload *w) {
    char err[1024] = "";
    if (fl_gen_workload(o, w, err, sizeof err) == 0) return true;
    fl_test_fail(__FILE__, __LINE__, "fl_gen_workload(%s): %s", fl_gen_shape_name(o->shape), err);
    return false;
}

static inline char *print_workload(const fl_workload *w) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    int rc = fl_workload_print(w, f);
    fclose(f);
    if (rc != 0) { free(buf); return NULL; }
    return buf;
}

static inline bool bytes_equal(const fl_bytes *x, const fl_bytes *y) {
    return x->len == y->len && (x->len == 0 || memcmp(x->data, y->data, x->len) == 0);
}

static inline bool ops_equal(const fl_op *x, const fl_op *y) {
    if (x->kind != y->kind || x->full != y->full || x->has_ctx != y->has_ctx ||
        x->ctx_len != y->ctx_len || memcmp(x->ctx, y->ctx, sizeof x->ctx) != 0 ||
        !bytes_equal(&x->a, &y->a) || !bytes_equal(&x->b, &y->b) || x->opt_count != y->opt_count)
        return false;
    for (size_t i = 0; i < x->opt_count; i++)
        if (strcmp(x->opts[i].key, y->opts[i].key) || strcmp(x->opts[i].value, y->opts[i].value))
            return false;
    return true;
}

/* A set of byte strings, as a sorted array searched by bisection (tests
 * only: built once, then queried). */
typedef struct str_set { fl_bytes *v; size_t n, cap; } str_set;

static inline int bytes_cmp(const void *pa, const void *pb) {
    const fl_bytes *a = pa, *b = pb;
    size_t n = a->len < b->len ? a->len : b->len;
    int c = n ? memcmp(a->data, b->data, n) : 0;
    return c ? c : (a->len > b->len) - (a->len < b->len);
}

static inline void set_add(str_set *s, const fl_bytes *k) {
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 256;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
    }
    s->v[s->n++] = *k;                  /* borrowed from the workload */
}

static inline void set_sort(str_set *s) { if (s->n) qsort(s->v, s->n, sizeof *s->v, bytes_cmp); }

/* The index of the first element >= k. */
static inline size_t set_lower(const str_set *s, const fl_bytes *k) {
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (bytes_cmp(&s->v[mid], k) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static inline bool set_has(const str_set *s, const fl_bytes *k) {
    size_t i = set_lower(s, k);
    return i < s->n && bytes_cmp(&s->v[i], k) == 0;
}

static inline bool set_has_prefix(const str_set *s, const fl_bytes *p) {
    size_t i = set_lower(s, p);
    return i < s->n && s->v[i].len >= p->len && (p->len == 0 || !memcmp(s->v[i].data, p->data, p->len));
}

/* The keys put by ops[0..end). */
static inline str_set puts_before(const fl_workload *w, size_t end) {
    str_set s = { NULL, 0, 0 };
    for (size_t i = 0; i < end && i < w->count; i++)
        if (w->ops[i].kind == FL_OP_PUT) set_add(&s, &w->ops[i].a);
    set_sort(&s);
    return s;
}

/* Inserts k in its place in the sorted set, unless it is there. */
static inline void set_insert(str_set *s, const fl_bytes *k) {
    size_t at = set_lower(s, k);
    if (at < s->n && bytes_cmp(&s->v[at], k) == 0) return;
    set_add(s, k);
    memmove(&s->v[at + 1], &s->v[at], (s->n - 1 - at) * sizeof *s->v);
    s->v[at] = *k;
}

/* An incremental "put before" view: call advance(i) in increasing i. */
typedef struct written_view { const fl_workload *w; size_t upto; str_set s; } written_view;

static inline void view_advance(written_view *v, size_t i) {
    for (; v->upto < i; v->upto++)
        if (v->w->ops[v->upto].kind == FL_OP_PUT) set_insert(&v->s, &v->w->ops[v->upto].a);
}

static inline int cmp_bytes(const fl_bytes *a, const fl_bytes *b) { return bytes_cmp(a, b); }

#endif /* FL_TEST_GEN_H */
