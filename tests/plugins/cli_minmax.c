/*
 * cli_minmax.c -- a small custom filter policy, built as a plugin by
 * tests/cli/replay_plugin.sh and docs/plugins.md's worked example of one.
 *
 * Kind "minmax", name "minmax", no arguments.  Each SST's filter keeps the
 * smallest and largest key among the entries it was built from (puts and
 * tombstones alike).  A POINT query outside [smallest, largest] is ruled
 * out; everything else answers true: PREFIX queries, a filter built from no
 * entries.  It needs nothing but filter.h and the C library:
 *
 *     cc -shared -fPIC -I<filterlab>/engine cli_minmax.c -o minmax.so
 *
 * Encoding: [flag u8: 0 empty, 1 bounded] and, when bounded,
 * [lo_len u32 BE][lo bytes][hi_len u32 BE][hi bytes], nothing after.
 */
#include "filter.h"

#include <stdlib.h>
#include <string.h>

typedef struct minmax_bounds {
    bool     any;                     /* false: no entry seen */
    uint8_t *lo, *hi;
    size_t   lo_len, hi_len;
} minmax_bounds;

typedef struct minmax_filter {
    fl_filter     base;               /* Base class. Must be first */
    minmax_bounds b;
} minmax_filter;

typedef struct minmax_builder {
    fl_filter_builder base;           /* Base class. Must be first */
    minmax_bounds     b;
    bool              out_of_memory;
} minmax_builder;

typedef struct minmax_policy {
    fl_filter_policy base;            /* Base class. Must be first */
} minmax_policy;

/* ---- Bounds ------------------------------------------------------------- */

static int compare(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen) {
    size_t n = alen < blen ? alen : blen;
    int c = n ? memcmp(a, b, n) : 0;
    return c ? c : (alen > blen) - (alen < blen);
}

static bool copy_bytes(uint8_t **dst, size_t *dst_len, const uint8_t *src, size_t len) {
    uint8_t *p = malloc(len ? len : 1);
    if (!p) return false;
    if (len) memcpy(p, src, len);
    free(*dst);
    *dst = p;
    *dst_len = len;
    return true;
}

static void bounds_free(minmax_bounds *b) {
    free(b->lo);
    free(b->hi);
    memset(b, 0, sizeof *b);
}

/* ---- Filter ------------------------------------------------------------- */

static bool minmax_might_match(const fl_filter *self, const fl_filter_query *query) {
    const minmax_bounds *b = &((const minmax_filter *)self)->b;
    if (query->target.kind != FL_TARGET_POINT || !b->any) return true;   /* cannot tell */
    const fl_slice *k = &query->target.bytes;
    return compare(k->data, k->len, b->lo, b->lo_len) >= 0 &&
           compare(k->data, k->len, b->hi, b->hi_len) <= 0;
}

static int put_be32(fl_buf *out, size_t v) {
    uint8_t be[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };
    return fl_buf_append(out, be, 4);
}

static int minmax_encode(const fl_filter *self, fl_buf *out) {
    const minmax_bounds *b = &((const minmax_filter *)self)->b;
    uint8_t flag = b->any ? 1 : 0;
    int rc = fl_buf_append(out, &flag, 1);
    if (rc != FL_OK || !b->any) return rc;
    if ((rc = put_be32(out, b->lo_len)) != FL_OK) return rc;
    if ((rc = fl_buf_append(out, b->lo, b->lo_len)) != FL_OK) return rc;
    if ((rc = put_be32(out, b->hi_len)) != FL_OK) return rc;
    return fl_buf_append(out, b->hi, b->hi_len);
}

static size_t minmax_size(const fl_filter *self) {
    const minmax_bounds *b = &((const minmax_filter *)self)->b;
    return b->any ? 1 + 8 + b->lo_len + b->hi_len : 1;
}

static void minmax_filter_destroy(fl_filter *self) {
    minmax_filter *f = (minmax_filter *)self;
    bounds_free(&f->b);
    free(f);
}

static const fl_filter_ops minmax_filter_ops = {
    minmax_might_match, minmax_encode, minmax_size, minmax_filter_destroy,
};

/* ---- Builder ------------------------------------------------------------ */

static void minmax_add_entry(fl_filter_builder *self, const fl_row_entry *entry) {
    minmax_builder *bl = (minmax_builder *)self;
    minmax_bounds *b = &bl->b;
    const fl_slice *k = &entry->key;
    bool ok = true;
    if (!b->any || compare(k->data, k->len, b->lo, b->lo_len) < 0)
        ok = copy_bytes(&b->lo, &b->lo_len, k->data, k->len);
    if (ok && (!b->any || compare(k->data, k->len, b->hi, b->hi_len) > 0))
        ok = copy_bytes(&b->hi, &b->hi_len, k->data, k->len);
    if (!ok) bl->out_of_memory = true;
    else b->any = true;
}

static int minmax_build(fl_filter_builder *self, fl_filter **out) {
    minmax_builder *bl = (minmax_builder *)self;
    *out = NULL;
    if (bl->out_of_memory) return FL_ERR_NOMEM;
    minmax_filter *f = calloc(1, sizeof *f);
    if (!f) return FL_ERR_NOMEM;
    f->base.ops = &minmax_filter_ops;
    f->b = bl->b;                               /* hand the bounds over */
    memset(&bl->b, 0, sizeof bl->b);
    *out = &f->base;
    return FL_OK;
}

static void minmax_builder_destroy(fl_filter_builder *self) {
    minmax_builder *bl = (minmax_builder *)self;
    bounds_free(&bl->b);
    free(bl);
}

static const fl_filter_builder_ops minmax_builder_ops = {
    minmax_add_entry, minmax_build, minmax_builder_destroy,
};

/* ---- Policy ------------------------------------------------------------- */

static const char *minmax_name(const fl_filter_policy *self) {
    (void)self;
    return "minmax";
}

static int minmax_new_builder(const fl_filter_policy *self, fl_filter_builder **out) {
    (void)self;
    minmax_builder *bl = calloc(1, sizeof *bl);
    if (!bl) return FL_ERR_NOMEM;
    bl->base.ops = &minmax_builder_ops;
    *out = &bl->base;
    return FL_OK;
}

/* Reads [len u32 BE][bytes] at *p, checking every length against end. */
static bool read_field(const uint8_t **p, const uint8_t *end, const uint8_t **bytes, size_t *len) {
    if (end - *p < 4) return false;
    size_t n = ((size_t)(*p)[0] << 24) | ((size_t)(*p)[1] << 16) | ((size_t)(*p)[2] << 8) | (*p)[3];
    *p += 4;
    if ((size_t)(end - *p) < n) return false;
    *bytes = *p;
    *len = n;
    *p += n;
    return true;
}

static int minmax_decode(const fl_filter_policy *self, fl_slice data, fl_filter **out) {
    (void)self;
    const uint8_t *p = data.data, *end = data.data + data.len, *lo = NULL, *hi = NULL;
    size_t lo_len = 0, hi_len = 0;
    *out = NULL;
    if (data.len < 1 || p[0] > 1) return FL_ERR_CORRUPT;
    bool any = *p++ == 1;
    if (any && (!read_field(&p, end, &lo, &lo_len) || !read_field(&p, end, &hi, &hi_len)))
        return FL_ERR_CORRUPT;
    if (p != end) return FL_ERR_CORRUPT;                    /* trailing bytes */
    if (any && compare(lo, lo_len, hi, hi_len) > 0) return FL_ERR_CORRUPT;

    minmax_filter *f = calloc(1, sizeof *f);
    if (!f) return FL_ERR_NOMEM;
    f->base.ops = &minmax_filter_ops;
    if (any && (!copy_bytes(&f->b.lo, &f->b.lo_len, lo, lo_len) ||
                !copy_bytes(&f->b.hi, &f->b.hi_len, hi, hi_len))) {
        minmax_filter_destroy(&f->base);
        return FL_ERR_NOMEM;
    }
    f->b.any = any;
    *out = &f->base;
    return FL_OK;
}

static size_t minmax_estimate_size(const fl_filter_policy *self, size_t num_keys) {
    (void)self; (void)num_keys;
    return 64;                                  /* two keys, whatever the count */
}

static void minmax_policy_destroy(fl_filter_policy *self) {
    free(self);
}

static const fl_filter_policy_ops minmax_policy_ops = {
    minmax_name, minmax_new_builder, minmax_decode, minmax_estimate_size, minmax_policy_destroy,
};

/* ---- Registration ------------------------------------------------------- */

static int minmax_factory(const fl_registry *reg, const char *args, fl_filter_policy **out,
                          char *err, size_t err_len) {
    (void)reg;
    *out = NULL;
    if (args && *args) {
        if (err && err_len) {
            const char *msg = "minmax takes no arguments";
            size_t n = strlen(msg) < err_len - 1 ? strlen(msg) : err_len - 1;
            memcpy(err, msg, n);
            err[n] = '\0';
        }
        return FL_ERR_INVALID;
    }
    minmax_policy *p = calloc(1, sizeof *p);
    if (!p) return FL_ERR_NOMEM;
    p->base.abi_version = FL_FILTER_ABI_VERSION;
    p->base.ops = &minmax_policy_ops;
    *out = &p->base;
    return FL_OK;
}

int fl_plugin_init(fl_registry *reg) {
    return fl_registry_add_policy(reg, "minmax", minmax_factory);
}
