/*
 * test_workload.h -- helpers shared by the workload-format tests
 * (test_workload.c, test_workload_roundtrip.c): parse a string, print a
 * workload or op to a string, compare workloads op by op, find an option.
 * Static inline, so each test file takes what it uses.
 */
#ifndef FL_TEST_WORKLOAD_H
#define FL_TEST_WORKLOAD_H

#include "test.h"
#include "../workloads/workload.h"

#include <stdlib.h>
#include <string.h>

#define FL_WL_TEST_KEY_MAX   65535u
#define FL_WL_TEST_VALUE_MAX (1024u * 1024u)

static inline int parse_text(const char *text, size_t len, fl_workload *w, char *err, size_t err_len) {
    return fl_workload_parse(text, len, "t.wl", w, err, err_len);
}

static inline int parse_str(const char *text, fl_workload *w, char *err, size_t err_len) {
    return parse_text(text, strlen(text), w, err, err_len);
}

/* Runs print_fn into a malloc'd NUL-terminated string. */
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

static inline char *print_bytes(const void *data, size_t len) {
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f) return NULL;
    fl_bytes_print(f, data, len);
    fclose(f);
    return buf;
}

static inline char *print_op(const fl_op *op) {
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f) return NULL;
    int rc = fl_op_print(op, f);
    fclose(f);
    if (rc != 0) { free(buf); return NULL; }
    return buf;
}

static inline bool bytes_eq(const fl_bytes *b, const void *data, size_t len) {
    return b->data && b->len == len && (len == 0 || memcmp(b->data, data, len) == 0);
}
#define BYTES_IS(b, lit) bytes_eq(&(b), lit, sizeof lit - 1)

static inline bool ops_equal(const fl_op *x, const fl_op *y) {
    if (x->kind != y->kind || x->full != y->full || x->has_ctx != y->has_ctx || x->count != y->count ||
        x->prefix_mode != y->prefix_mode)
        return false;
    if (!bytes_eq(&x->a, y->a.data, y->a.len) || !bytes_eq(&x->b, y->b.data, y->b.len))
        return false;
    if (x->ctx_len != y->ctx_len || memcmp(x->ctx, y->ctx, sizeof x->ctx) != 0) return false;
    if (x->opt_count != y->opt_count) return false;
    for (size_t i = 0; i < x->opt_count; i++)
        if (strcmp(x->opts[i].key, y->opts[i].key) || strcmp(x->opts[i].value, y->opts[i].value))
            return false;
    return true;
}

static inline bool workloads_equal(const fl_workload *x, const fl_workload *y) {
    if (x->count != y->count) return false;
    if (strcmp(x->description ? x->description : "", y->description ? y->description : ""))
        return false;
    for (size_t i = 0; i < x->count; i++)
        if (!ops_equal(&x->ops[i], &y->ops[i])) return false;
    return true;
}

static inline bool workload_empty(const fl_workload *w) {
    return w->count == 0 && w->ops == NULL && w->description == NULL;
}

static const char *opt_value(const fl_op *op, const char *key) {
    for (size_t i = 0; i < op->opt_count; i++)
        if (strcmp(op->opts[i].key, key) == 0) return op->opts[i].value;
    return NULL;
}

#define HDR "filterlab-workload 1\n"

#endif /* FL_TEST_WORKLOAD_H */
