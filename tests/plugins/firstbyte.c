/*
 * firstbyte.c -- a small, correct policy plugin for the unit tests: its
 * filter is a 256-bit set of the first bytes of the SST's keys (and notes
 * whether the empty key was added).  It also registers the extractor
 * "first1", which extracts the first byte of anything that has one.
 *
 * Build: cc -shared -fPIC -I<filterlab>/engine firstbyte.c -o firstbyte.so
 * (FIRSTBYTE_KIND: the kind its policy is registered as; bloomier.c.)
 */
#include "filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fb_filter {
    fl_filter base;                 /* Base class. Must be first */
    uint8_t set[33];                /* bits 0..255: first bytes; byte 32: empty key */
} fb_filter;

typedef struct fb_builder {
    fl_filter_builder base;         /* Base class. Must be first */
    uint8_t set[33];
} fb_builder;

static bool fb_has(const uint8_t *set, unsigned byte) { return set[byte / 8] & (1u << (byte % 8)); }

static bool fb_might_match(const fl_filter *self, const fl_filter_query *q) {
    const fb_filter *f = (const fb_filter *)self;
    if (q->target.bytes.len == 0)   /* an empty prefix matches everything */
        return q->target.kind == FL_TARGET_PREFIX ? true : f->set[32] != 0;
    return fb_has(f->set, q->target.bytes.data[0]);
}

static int fb_encode(const fl_filter *self, fl_buf *out) {
    return fl_buf_append(out, ((const fb_filter *)self)->set, 33);
}

static size_t fb_size(const fl_filter *self) { (void)self; return 33; }
static void fb_filter_destroy(fl_filter *self) { free(self); }

static const fl_filter_ops fb_filter_ops = { fb_might_match, fb_encode, fb_size, fb_filter_destroy };

static void fb_add(fl_filter_builder *self, const fl_row_entry *e) {
    fb_builder *b = (fb_builder *)self;
    if (e->key.len == 0) b->set[32] = 1;
    else b->set[e->key.data[0] / 8] |= (uint8_t)(1u << (e->key.data[0] % 8));
}

static int fb_new_filter(const uint8_t *set, fl_filter **out) {
    fb_filter *f = calloc(1, sizeof *f);
    if (!f) return FL_ERR_NOMEM;
    f->base.ops = &fb_filter_ops;
    memcpy(f->set, set, 33);
    *out = &f->base;
    return FL_OK;
}

static int fb_build(fl_filter_builder *self, fl_filter **out) {
    return fb_new_filter(((fb_builder *)self)->set, out);
}

static void fb_builder_destroy(fl_filter_builder *self) { free(self); }

static const fl_filter_builder_ops fb_builder_ops = { fb_add, fb_build, fb_builder_destroy };

static const char *fb_name(const fl_filter_policy *self) { (void)self; return "firstbyte"; }

static int fb_new_builder(const fl_filter_policy *self, fl_filter_builder **out) {
    (void)self;
    fb_builder *b = calloc(1, sizeof *b);
    if (!b) return FL_ERR_NOMEM;
    b->base.ops = &fb_builder_ops;
    *out = &b->base;
    return FL_OK;
}

static int fb_decode(const fl_filter_policy *self, fl_slice data, fl_filter **out) {
    (void)self;
    if (data.len != 33) return FL_ERR_CORRUPT;
    return fb_new_filter(data.data, out);
}

static size_t fb_estimate(const fl_filter_policy *self, size_t n) { (void)self; (void)n; return 33; }
static void fb_policy_destroy(fl_filter_policy *self) { free(self); }

static const fl_filter_policy_ops fb_policy_ops = {
    fb_name, fb_new_builder, fb_decode, fb_estimate, fb_policy_destroy };

static int fb_factory(const fl_registry *reg, const char *args, fl_filter_policy **out,
                      char *err, size_t err_len) {
    (void)reg;
    if (args[0]) {
        snprintf(err, err_len, "firstbyte takes no arguments; got '%s'", args);
        return FL_ERR_INVALID;
    }
    fl_filter_policy *p = calloc(1, sizeof *p);
    if (!p) return FL_ERR_NOMEM;
    p->abi_version = FL_FILTER_ABI_VERSION;
    p->ops = &fb_policy_ops;
    *out = p;
    return FL_OK;
}

/* ---- The extractor "first1" ---- */

static const char *f1_name(const fl_prefix_extractor *self) { (void)self; return "first1"; }

static bool f1_prefix_len(const fl_prefix_extractor *self, const fl_target *t, size_t *len) {
    (void)self;
    if (t->bytes.len == 0) return false;
    *len = 1;
    return true;
}

static void f1_destroy(fl_prefix_extractor *self) { free(self); }

static const fl_prefix_extractor_ops f1_ops = { f1_name, f1_prefix_len, f1_destroy };

static int f1_factory(const fl_registry *reg, const char *args, fl_prefix_extractor **out,
                      char *err, size_t err_len) {
    (void)reg; (void)args; (void)err; (void)err_len;
    fl_prefix_extractor *ex = calloc(1, sizeof *ex);
    if (!ex) return FL_ERR_NOMEM;
    ex->abi_version = FL_FILTER_ABI_VERSION;
    ex->ops = &f1_ops;
    *out = ex;
    return FL_OK;
}

#ifndef FIRSTBYTE_KIND
#define FIRSTBYTE_KIND "firstbyte"
#endif

int fl_plugin_init(fl_registry *reg) {
    int rc = fl_registry_add_policy(reg, FIRSTBYTE_KIND, fb_factory);
    if (rc == FL_OK) rc = fl_registry_add_extractor(reg, "first1", f1_factory);
    return rc;
}
