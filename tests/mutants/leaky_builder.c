/*
 * leaky_builder.c -- a mutant for the checker's self-test
 * (tests/cli/mutants.sh): a builder whose state outlives its SST.
 *
 * Policy "pset(len=N)" (name "psetN", N in 1..64): an exact fixed-length
 * prefix filter, the 64-bit hash of every distinct N-byte key prefix of the
 * SST in a list.  Keys shorter than N add nothing.  A POINT or PREFIX target
 * of at least N bytes is looked up by its first N bytes; a shorter one
 * answers true.  Entries arrive in key order, so a prefix is added only
 * when it differs from the previous entry's (consecutive deduplication).
 *
 * THE BUG: the "previous prefix" lives in statics inside add_entry (to save
 * a copy per builder) instead of in the builder, so a fresh builder starts
 * with the previous SST's last prefix.  When an SST begins with the prefix
 * the last one ended with, that prefix is never added: the SST's filter
 * rules out its own first keys.
 * MUST BE CAUGHT AS: P1 (a NO on an SST holding keys with the prefix); P2
 * fires too, and P11 may (a rebuild from the SST's entries differs).
 */
#include "filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PSET_MAX 64

static uint64_t bytes_hash(const uint8_t *p, size_t n) {    /* FNV-1a, then a final mix */
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3u;
    h ^= h >> 33; h *= 0xff51afd7ed558ccdu; h ^= h >> 33;
    return h;
}

typedef struct pset_policy {
    fl_filter_policy base;            /* Base class. Must be first */
    size_t n;
    char   name[16];
} pset_policy;

typedef struct pset_filter {
    fl_filter base;                   /* Base class. Must be first */
    size_t    n;
    uint64_t *hashes;
    size_t    count;
} pset_filter;

typedef struct pset_builder {
    fl_filter_builder base;           /* Base class. Must be first */
    size_t    n;
    uint64_t *hashes;
    size_t    count, cap;
    bool      out_of_memory;
} pset_builder;

/* ---- Filter ------------------------------------------------------------- */

static bool pset_might_match(const fl_filter *self, const fl_filter_query *q) {
    const pset_filter *f = (const pset_filter *)self;
    if (q->target.bytes.len < f->n) return true;            /* shorter than a prefix: cannot tell */
    uint64_t h = bytes_hash(q->target.bytes.data, f->n);
    for (size_t i = 0; i < f->count; i++)
        if (f->hashes[i] == h) return true;
    return false;
}

/* Encoding: [hash u64 BE]*, in SST order. */
static int pset_encode(const fl_filter *self, fl_buf *out) {
    const pset_filter *f = (const pset_filter *)self;
    for (size_t i = 0; i < f->count; i++) {
        uint8_t be[8];
        for (int j = 0; j < 8; j++) be[j] = (uint8_t)(f->hashes[i] >> (56 - 8 * j));
        int rc = fl_buf_append(out, be, 8);
        if (rc != FL_OK) return rc;
    }
    return FL_OK;
}

static size_t pset_size(const fl_filter *self) { return 8 * ((const pset_filter *)self)->count; }

static void pset_filter_destroy(fl_filter *self) {
    free(((pset_filter *)self)->hashes);
    free(self);
}

static const fl_filter_ops pset_filter_ops = {
    pset_might_match, pset_encode, pset_size, pset_filter_destroy,
};

/* Takes ownership of hashes (freed on failure). */
static int pset_filter_new(size_t n, uint64_t *hashes, size_t count, fl_filter **out) {
    pset_filter *f = calloc(1, sizeof *f);
    if (!f) { free(hashes); return FL_ERR_NOMEM; }
    f->base.ops = &pset_filter_ops;
    f->n = n;
    f->hashes = hashes;
    f->count = count;
    *out = &f->base;
    return FL_OK;
}

/* ---- Builder ------------------------------------------------------------ */

static void pset_add_entry(fl_filter_builder *self, const fl_row_entry *e) {
    static uint8_t prev[PSET_MAX];    /* BUG: shared by every builder; belongs in pset_builder */
    static bool have_prev;
    pset_builder *b = (pset_builder *)self;
    if (e->key.len < b->n) return;
    if (have_prev && memcmp(prev, e->key.data, b->n) == 0) return;
    memcpy(prev, e->key.data, b->n);
    have_prev = true;
    if (b->count == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 16;
        uint64_t *n = realloc(b->hashes, cap * sizeof *n);
        if (!n) { b->out_of_memory = true; return; }
        b->hashes = n;
        b->cap = cap;
    }
    b->hashes[b->count++] = bytes_hash(e->key.data, b->n);
}

static int pset_build(fl_filter_builder *self, fl_filter **out) {
    pset_builder *b = (pset_builder *)self;
    *out = NULL;
    if (b->out_of_memory) return FL_ERR_NOMEM;
    uint64_t *hashes = b->hashes;
    b->hashes = NULL;                                       /* handed to the filter */
    return pset_filter_new(b->n, hashes, b->count, out);
}

static void pset_builder_destroy(fl_filter_builder *self) {
    free(((pset_builder *)self)->hashes);
    free(self);
}

static const fl_filter_builder_ops pset_builder_ops = {
    pset_add_entry, pset_build, pset_builder_destroy,
};

/* ---- Policy ------------------------------------------------------------- */

static const char *pset_name(const fl_filter_policy *self) {
    return ((const pset_policy *)self)->name;
}

static int pset_new_builder(const fl_filter_policy *self, fl_filter_builder **out) {
    pset_builder *b = calloc(1, sizeof *b);
    if (!b) return FL_ERR_NOMEM;
    b->base.ops = &pset_builder_ops;
    b->n = ((const pset_policy *)self)->n;
    *out = &b->base;
    return FL_OK;
}

static int pset_decode(const fl_filter_policy *self, fl_slice data, fl_filter **out) {
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
    return pset_filter_new(((const pset_policy *)self)->n, hashes, count, out);
}

static size_t pset_estimate_size(const fl_filter_policy *self, size_t num_keys) {
    (void)self;
    return 8 * num_keys;
}

static void pset_policy_destroy(fl_filter_policy *self) { free(self); }

static const fl_filter_policy_ops pset_policy_ops = {
    pset_name, pset_new_builder, pset_decode, pset_estimate_size, pset_policy_destroy,
};

static int pset_factory(const fl_registry *reg, const char *args, fl_filter_policy **out,
                        char *err, size_t err_len) {
    (void)reg;
    char *end = NULL;
    unsigned long n = 0;
    *out = NULL;
    if (args && strncmp(args, "len=", 4) == 0) n = strtoul(args + 4, &end, 10);
    if (!end || end == args + 4 || *end || n < 1 || n > PSET_MAX) {
        snprintf(err, err_len, "pset takes len=N, N in 1..%d; got '%s'", PSET_MAX,
                 args ? args : "");
        return FL_ERR_INVALID;
    }
    pset_policy *p = calloc(1, sizeof *p);
    if (!p) return FL_ERR_NOMEM;
    p->base.abi_version = FL_FILTER_ABI_VERSION;
    p->base.ops = &pset_policy_ops;
    p->n = (size_t)n;
    snprintf(p->name, sizeof p->name, "pset%lu", n);
    *out = &p->base;
    return FL_OK;
}

int fl_plugin_init(fl_registry *reg) {
    return fl_registry_add_policy(reg, "pset", pset_factory);
}
