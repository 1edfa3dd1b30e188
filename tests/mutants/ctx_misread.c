/*
 * ctx_misread.c -- a mutant for the checker's self-test
 * (tests/cli/mutants.sh): a filter that mishandles filter contexts.
 *
 * Policy "ctxset", no arguments: an exact whole-key filter (the 64-bit hash
 * of every key of the SST, tombstones included) that also understands a
 * filter context of its own: version byte 0x01, then a key prefix the read
 * is scoped to.  PREFIX queries answer true.
 *
 * THE BUG: a context it cannot decode (any other version byte) makes it
 * answer false -- "not my kind of read, nothing here" -- where the contract
 * says a filter that cannot decode a context must answer true.  A get that
 * passes some other application's context then misses keys.
 * MUST BE CAUGHT AS: P1 (a NO on an SST holding the key); P2 fires too.
 */
#include "filter.h"

#include <stdio.h>
#include <stdlib.h>

static uint64_t key_hash(const uint8_t *p, size_t n) {      /* FNV-1a, then a final mix */
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3u;
    h ^= h >> 33; h *= 0xff51afd7ed558ccdu; h ^= h >> 33;
    return h;
}

typedef struct ks_filter {
    fl_filter base;                   /* Base class. Must be first */
    uint64_t *hashes;
    size_t    count;
} ks_filter;

typedef struct ks_builder {
    fl_filter_builder base;           /* Base class. Must be first */
    uint64_t *hashes;
    size_t    count, cap;
    bool      out_of_memory;
} ks_builder;

/* ---- Filter ------------------------------------------------------------- */

static bool ks_might_match(const fl_filter *self, const fl_filter_query *q) {
    const ks_filter *f = (const ks_filter *)self;
    if (q->context && q->context->bytes[0] != 0x01) return false;  /* BUG: undecodable means "maybe" */
    if (q->target.kind != FL_TARGET_POINT) return true;  /* a whole key says nothing of prefixes */
    uint64_t h = key_hash(q->target.bytes.data, q->target.bytes.len);
    for (size_t i = 0; i < f->count; i++)
        if (f->hashes[i] == h) return true;
    return false;
}

/* Encoding: [hash u64 BE]*, in SST order. */
static int ks_encode(const fl_filter *self, fl_buf *out) {
    const ks_filter *f = (const ks_filter *)self;
    for (size_t i = 0; i < f->count; i++) {
        uint8_t be[8];
        for (int j = 0; j < 8; j++) be[j] = (uint8_t)(f->hashes[i] >> (56 - 8 * j));
        int rc = fl_buf_append(out, be, 8);
        if (rc != FL_OK) return rc;
    }
    return FL_OK;
}

static size_t ks_size(const fl_filter *self) { return 8 * ((const ks_filter *)self)->count; }

static void ks_filter_destroy(fl_filter *self) {
    free(((ks_filter *)self)->hashes);
    free(self);
}

static const fl_filter_ops ks_filter_ops = {
    ks_might_match, ks_encode, ks_size, ks_filter_destroy,
};

/* Takes ownership of hashes (freed on failure). */
static int ks_filter_new(uint64_t *hashes, size_t count, fl_filter **out) {
    ks_filter *f = calloc(1, sizeof *f);
    if (!f) { free(hashes); return FL_ERR_NOMEM; }
    f->base.ops = &ks_filter_ops;
    f->hashes = hashes;
    f->count = count;
    *out = &f->base;
    return FL_OK;
}

/* ---- Builder ------------------------------------------------------------ */

static void ks_add_entry(fl_filter_builder *self, const fl_row_entry *e) {
    ks_builder *b = (ks_builder *)self;
    if (b->count == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 16;
        uint64_t *n = realloc(b->hashes, cap * sizeof *n);
        if (!n) { b->out_of_memory = true; return; }
        b->hashes = n;
        b->cap = cap;
    }
    b->hashes[b->count++] = key_hash(e->key.data, e->key.len);
}

static int ks_build(fl_filter_builder *self, fl_filter **out) {
    ks_builder *b = (ks_builder *)self;
    *out = NULL;
    if (b->out_of_memory) return FL_ERR_NOMEM;
    uint64_t *hashes = b->hashes;
    b->hashes = NULL;                                       /* handed to the filter */
    return ks_filter_new(hashes, b->count, out);
}

static void ks_builder_destroy(fl_filter_builder *self) {
    free(((ks_builder *)self)->hashes);
    free(self);
}

static const fl_filter_builder_ops ks_builder_ops = { ks_add_entry, ks_build, ks_builder_destroy };

/* ---- Policy ------------------------------------------------------------- */

static const char *ks_name(const fl_filter_policy *self) { (void)self; return "ctxset"; }

static int ks_new_builder(const fl_filter_policy *self, fl_filter_builder **out) {
    (void)self;
    ks_builder *b = calloc(1, sizeof *b);
    if (!b) return FL_ERR_NOMEM;
    b->base.ops = &ks_builder_ops;
    *out = &b->base;
    return FL_OK;
}

static int ks_decode(const fl_filter_policy *self, fl_slice data, fl_filter **out) {
    (void)self;
    *out = NULL;
    if (data.len % 8 != 0) return FL_ERR_CORRUPT;
    size_t count = data.len / 8;
    uint64_t *hashes = malloc(count ? count * sizeof *hashes : 1);
    if (!hashes) return FL_ERR_NOMEM;
    for (size_t i = 0; i < count; i++) {
        uint64_t h = 0;
        for (size_t j = 0; j < 8; j++) h = h << 8 | data.data[8 * i + j];
        hashes[i] = h;
    }
    return ks_filter_new(hashes, count, out);
}

static size_t ks_estimate_size(const fl_filter_policy *self, size_t num_keys) {
    (void)self;
    return 8 * num_keys;
}

static void ks_policy_destroy(fl_filter_policy *self) { free(self); }

static const fl_filter_policy_ops ks_policy_ops = {
    ks_name, ks_new_builder, ks_decode, ks_estimate_size, ks_policy_destroy,
};

static int ks_factory(const fl_registry *reg, const char *args, fl_filter_policy **out,
                      char *err, size_t err_len) {
    (void)reg;
    *out = NULL;
    if (args && *args) {
        snprintf(err, err_len, "ctxset takes no arguments; got '%s'", args);
        return FL_ERR_INVALID;
    }
    fl_filter_policy *p = calloc(1, sizeof *p);
    if (!p) return FL_ERR_NOMEM;
    p->abi_version = FL_FILTER_ABI_VERSION;
    p->ops = &ks_policy_ops;
    *out = p;
    return FL_OK;
}

int fl_plugin_init(fl_registry *reg) {
    return fl_registry_add_policy(reg, "ctxset", ks_factory);
}
