/*
 * p10_faults.c -- a plugin whose failures are P10's (bad input: an engine
 * error or a crash), for the shrinker's tests (tests/test_shrink.c):
 *   policy "picky(x=N,y=N)"  refuses to be made when x=2 ("x=2 is refused")
 *                            and, failing that, when it has a y ("y is
 *                            refused"): two different engine errors at open;
 *   policy "crashy"          aborts the process when asked about a key that
 *                            starts with 'x' (a crash of the run).
 * Both keep no data: their filters answer "cannot rule out".
 */
#include "filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fault_policy {
    fl_filter_policy base;            /* Base class. Must be first */
    bool crashy;
} fault_policy;

typedef struct fault_filter {
    fl_filter base;                   /* Base class. Must be first */
    bool crashy;
} fault_filter;

typedef struct fault_builder {
    fl_filter_builder base;           /* Base class. Must be first */
    bool crashy;
} fault_builder;

static bool filter_might_match(const fl_filter *self, const fl_filter_query *q) {
    const fault_filter *f = (const fault_filter *)self;
    if (f->crashy && q->target.kind == FL_TARGET_POINT && q->target.bytes.len > 0 &&
        q->target.bytes.data[0] == 'x')
        abort();
    return true;
}
static int filter_encode(const fl_filter *self, fl_buf *out) { (void)self; (void)out; return FL_OK; }
static size_t filter_size(const fl_filter *self) { (void)self; return 0; }
static void filter_destroy(fl_filter *self) { free(self); }
static const fl_filter_ops filter_ops = { filter_might_match, filter_encode, filter_size, filter_destroy };

static int new_filter(bool crashy, fl_filter **out) {
    fault_filter *f = calloc(1, sizeof *f);
    if (!f) return FL_ERR_NOMEM;
    f->base.ops = &filter_ops;
    f->crashy = crashy;
    *out = &f->base;
    return FL_OK;
}

static void builder_add(fl_filter_builder *self, const fl_row_entry *e) { (void)self; (void)e; }
static int builder_build(fl_filter_builder *self, fl_filter **out) {
    return new_filter(((fault_builder *)self)->crashy, out);
}
static void builder_destroy(fl_filter_builder *self) { free(self); }
static const fl_filter_builder_ops builder_ops = { builder_add, builder_build, builder_destroy };

static const char *policy_name(const fl_filter_policy *self) {
    return ((const fault_policy *)self)->crashy ? "crashy" : "picky";
}
static int policy_new_builder(const fl_filter_policy *self, fl_filter_builder **out) {
    fault_builder *b = calloc(1, sizeof *b);
    if (!b) return FL_ERR_NOMEM;
    b->base.ops = &builder_ops;
    b->crashy = ((const fault_policy *)self)->crashy;
    *out = &b->base;
    return FL_OK;
}
static int policy_decode(const fl_filter_policy *self, fl_slice data, fl_filter **out) {
    if (data.len) return FL_ERR_CORRUPT;
    return new_filter(((const fault_policy *)self)->crashy, out);
}
static size_t policy_estimate(const fl_filter_policy *self, size_t n) { (void)self; (void)n; return 0; }
static void policy_destroy(fl_filter_policy *self) { free(self); }
static const fl_filter_policy_ops policy_ops = {
    policy_name, policy_new_builder, policy_decode, policy_estimate, policy_destroy,
};

static int make(bool crashy, fl_filter_policy **out) {
    fault_policy *p = calloc(1, sizeof *p);
    if (!p) return FL_ERR_NOMEM;
    p->base.abi_version = FL_FILTER_ABI_VERSION;
    p->base.ops = &policy_ops;
    p->crashy = crashy;
    *out = &p->base;
    return FL_OK;
}

static int picky_factory(const fl_registry *reg, const char *args, fl_filter_policy **out,
                         char *err, size_t err_len) {
    (void)reg;
    if (strstr(args, "x=2")) {
        snprintf(err, err_len, "picky: x=2 is refused");
        return FL_ERR_INVALID;
    }
    if (strstr(args, "y=")) {
        snprintf(err, err_len, "picky: y is refused");
        return FL_ERR_INVALID;
    }
    return make(false, out);
}

static int crashy_factory(const fl_registry *reg, const char *args, fl_filter_policy **out,
                          char *err, size_t err_len) {
    (void)reg; (void)args; (void)err; (void)err_len;
    return make(true, out);
}

int fl_plugin_init(fl_registry *reg) {
    int rc = fl_registry_add_policy(reg, "picky", picky_factory);
    return rc ? rc : fl_registry_add_policy(reg, "crashy", crashy_factory);
}
