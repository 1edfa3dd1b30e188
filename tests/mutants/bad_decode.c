/*
 * bad_decode.c -- a mutant for the checker's self-test
 * (tests/cli/mutants.sh): a filter whose decode does not round-trip.
 *
 * Policy "keyset", no arguments: an exact whole-key filter, the 64-bit hash
 * of every key of the SST (puts and tombstones) in a list, in SST order,
 * encoded as [hash u64 BE]*.  PREFIX queries answer true.  The filter that
 * build() returns is right.
 *
 * THE BUG: decode reads hashes "while another one follows" with
 * `off + 8 < len` where `off + 8 <= len` is meant, so the last hash -- the
 * SST's last key -- is never read back.  The engine reads filters from the
 * SST file, so every get of an SST's last key rules that SST out.
 * MUST BE CAUGHT AS: P11 (the decoded filter answers a probe differently
 * from the built one); P1 and P2 fire too.
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

static const char *ks_name(const fl_filter_policy *self) { (void)self; return "keyset"; }

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
    uint64_t *hashes = malloc(data.len ? data.len / 8 * sizeof *hashes : 1);
    if (!hashes) return FL_ERR_NOMEM;
    size_t count = 0;
    for (size_t off = 0; off + 8 < data.len; off += 8) {   /* BUG: `<=` is meant */
        uint64_t h = 0;
        for (size_t j = 0; j < 8; j++) h = h << 8 | data.data[off + j];
        hashes[count++] = h;
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
        snprintf(err, err_len, "keyset takes no arguments; got '%s'", args);
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
    return fl_registry_add_policy(reg, "keyset", ks_factory);
}
