/*
 * name_ignores_config.c -- a mutant for the checker's self-test
 * (tests/cli/mutants.sh): a policy whose name leaves out a setting that
 * changes what it stores.
 *
 * Policy "nbloom(bits=B,salt=S)" (defaults 10 and 0): a plain bloom filter
 * over whole keys (puts and tombstones) with B bits per key and k = 0.69 B
 * probes by double hashing of a 64-bit hash seeded with S.  Encoding:
 * [nbits u32 BE][k u8][nbits / 8 bytes]; nbits = 0 answers true to all.
 * PREFIX queries answer true.
 *
 * THE BUG: name() is "nbloom" whatever the salt, but the salt decides which
 * bits a key sets and it is not stored either.  After a reopen with another
 * salt, the reader's policy has the same name, so the engine hands it the
 * old SSTs' filters; it decodes them as if they were salted like itself and
 * probes bits the keys never set: false negatives.  (The name must include
 * the salt, "nbloom:s=1", so the old filters are skipped instead.)
 * MUST BE CAUGHT AS: P1 (a NO on an SST holding the key); P8 may report the
 * misdecoded sub-filter too.
 */
#include "filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct nb_policy {
    fl_filter_policy base;            /* Base class. Must be first */
    unsigned bits_per_key;
    uint64_t salt;
} nb_policy;

typedef struct nb_filter {
    fl_filter base;                   /* Base class. Must be first */
    uint64_t salt;
    uint32_t nbits;
    unsigned k;
    uint8_t *bits;
} nb_filter;

typedef struct nb_builder {
    fl_filter_builder base;           /* Base class. Must be first */
    unsigned  bits_per_key;
    uint64_t  salt;
    uint64_t *hashes;
    size_t    count, cap;
    bool      out_of_memory;
} nb_builder;

static uint64_t salted_hash(uint64_t salt, const uint8_t *p, size_t n) {   /* FNV-1a, mixed */
    uint64_t h = 0xcbf29ce484222325u ^ (salt * 0x9e3779b97f4a7c15u);
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3u;
    h ^= h >> 33; h *= 0xff51afd7ed558ccdu; h ^= h >> 33;
    return h;
}

static uint32_t probe_bit(uint64_t h, unsigned i, uint32_t nbits) {
    return (uint32_t)((h + (uint64_t)i * ((h >> 32) | 1)) % nbits);
}

/* ---- Filter ------------------------------------------------------------- */

static bool nb_might_match(const fl_filter *self, const fl_filter_query *q) {
    const nb_filter *f = (const nb_filter *)self;
    if (q->target.kind != FL_TARGET_POINT || f->nbits == 0) return true;
    uint64_t h = salted_hash(f->salt, q->target.bytes.data, q->target.bytes.len);
    for (unsigned i = 0; i < f->k; i++) {
        uint32_t bit = probe_bit(h, i, f->nbits);
        if (!(f->bits[bit / 8] & (1u << (bit % 8)))) return false;
    }
    return true;
}

static int nb_encode(const fl_filter *self, fl_buf *out) {
    const nb_filter *f = (const nb_filter *)self;
    uint8_t head[5] = { (uint8_t)(f->nbits >> 24), (uint8_t)(f->nbits >> 16),
                        (uint8_t)(f->nbits >> 8), (uint8_t)f->nbits, (uint8_t)f->k };
    int rc = fl_buf_append(out, head, sizeof head);
    return rc != FL_OK ? rc : fl_buf_append(out, f->bits, f->nbits / 8);
}

static size_t nb_size(const fl_filter *self) { return ((const nb_filter *)self)->nbits / 8; }

static void nb_filter_destroy(fl_filter *self) {
    free(((nb_filter *)self)->bits);
    free(self);
}

static const fl_filter_ops nb_filter_ops = {
    nb_might_match, nb_encode, nb_size, nb_filter_destroy,
};

/* A filter of nbits zero bits (nbits a multiple of 8). */
static nb_filter *nb_filter_new(uint64_t salt, uint32_t nbits, unsigned k) {
    nb_filter *f = calloc(1, sizeof *f);
    uint8_t *bits = calloc(nbits ? nbits / 8 : 1, 1);
    if (!f || !bits) { free(f); free(bits); return NULL; }
    f->base.ops = &nb_filter_ops;
    f->salt = salt;
    f->nbits = nbits;
    f->k = k;
    f->bits = bits;
    return f;
}

/* ---- Builder ------------------------------------------------------------ */

static void nb_add_entry(fl_filter_builder *self, const fl_row_entry *e) {
    nb_builder *b = (nb_builder *)self;
    if (b->count == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 16;
        uint64_t *n = realloc(b->hashes, cap * sizeof *n);
        if (!n) { b->out_of_memory = true; return; }
        b->hashes = n;
        b->cap = cap;
    }
    b->hashes[b->count++] = salted_hash(b->salt, e->key.data, e->key.len);
}

static int nb_build(fl_filter_builder *self, fl_filter **out) {
    nb_builder *b = (nb_builder *)self;
    *out = NULL;
    if (b->out_of_memory) return FL_ERR_NOMEM;
    uint64_t nbits = (uint64_t)b->count * b->bits_per_key;
    nbits = nbits == 0 ? 0 : nbits < 64 ? 64 : (nbits + 7) / 8 * 8;
    if (nbits > UINT32_MAX - 7) return FL_ERR_INVALID;
    unsigned k = b->bits_per_key * 69 / 100;
    k = k < 1 ? 1 : k > 30 ? 30 : k;
    nb_filter *f = nb_filter_new(b->salt, (uint32_t)nbits, k);
    if (!f) return FL_ERR_NOMEM;
    for (size_t j = 0; nbits && j < b->count; j++)
        for (unsigned i = 0; i < k; i++) {
            uint32_t bit = probe_bit(b->hashes[j], i, f->nbits);
            f->bits[bit / 8] |= (uint8_t)(1u << (bit % 8));
        }
    *out = &f->base;
    return FL_OK;
}

static void nb_builder_destroy(fl_filter_builder *self) {
    free(((nb_builder *)self)->hashes);
    free(self);
}

static const fl_filter_builder_ops nb_builder_ops = { nb_add_entry, nb_build, nb_builder_destroy };

/* ---- Policy ------------------------------------------------------------- */

static const char *nb_name(const fl_filter_policy *self) {
    (void)self;
    return "nbloom";                  /* BUG: must name the salt, e.g. "nbloom:s=1" */
}

static int nb_new_builder(const fl_filter_policy *self, fl_filter_builder **out) {
    const nb_policy *p = (const nb_policy *)self;
    nb_builder *b = calloc(1, sizeof *b);
    if (!b) return FL_ERR_NOMEM;
    b->base.ops = &nb_builder_ops;
    b->bits_per_key = p->bits_per_key;
    b->salt = p->salt;
    *out = &b->base;
    return FL_OK;
}

static int nb_decode(const fl_filter_policy *self, fl_slice data, fl_filter **out) {
    const nb_policy *p = (const nb_policy *)self;
    *out = NULL;
    if (data.len < 5) return FL_ERR_CORRUPT;
    uint32_t nbits = (uint32_t)data.data[0] << 24 | (uint32_t)data.data[1] << 16 |
                     (uint32_t)data.data[2] << 8 | data.data[3];
    unsigned k = data.data[4];
    if (nbits % 8 != 0 || data.len - 5 != nbits / 8 || (nbits && (k < 1 || k > 30)))
        return FL_ERR_CORRUPT;
    nb_filter *f = nb_filter_new(p->salt, nbits, k);    /* the reader's salt, not the writer's */
    if (!f) return FL_ERR_NOMEM;
    if (nbits) memcpy(f->bits, data.data + 5, nbits / 8);
    *out = &f->base;
    return FL_OK;
}

static size_t nb_estimate_size(const fl_filter_policy *self, size_t num_keys) {
    return 5 + num_keys * ((const nb_policy *)self)->bits_per_key / 8;
}

static void nb_policy_destroy(fl_filter_policy *self) { free(self); }

static const fl_filter_policy_ops nb_policy_ops = {
    nb_name, nb_new_builder, nb_decode, nb_estimate_size, nb_policy_destroy,
};

/* args: "bits=B,salt=S" in any order, each optional. */
static int nb_factory(const fl_registry *reg, const char *args, fl_filter_policy **out,
                      char *err, size_t err_len) {
    (void)reg;
    unsigned long bits = 10, salt = 0;
    const char *s = args ? args : "";
    *out = NULL;
    while (*s) {
        unsigned long *dst = strncmp(s, "bits=", 5) == 0 ? &bits
                           : strncmp(s, "salt=", 5) == 0 ? &salt : NULL;
        char *end = NULL;
        if (dst) *dst = strtoul(s + 5, &end, 10);
        if (!dst || end == s + 5 || (*end && *end != ',')) {
            snprintf(err, err_len, "nbloom takes bits=N and salt=N; got '%s'", args ? args : "");
            return FL_ERR_INVALID;
        }
        s = *end ? end + 1 : end;
    }
    if (bits < 1 || bits > 64) {
        snprintf(err, err_len, "nbloom: bits must be 1..64; got '%s'", args ? args : "");
        return FL_ERR_INVALID;
    }
    nb_policy *p = calloc(1, sizeof *p);
    if (!p) return FL_ERR_NOMEM;
    p->base.abi_version = FL_FILTER_ABI_VERSION;
    p->base.ops = &nb_policy_ops;
    p->bits_per_key = (unsigned)bits;
    p->salt = salt;
    *out = &p->base;
    return FL_OK;
}

int fl_plugin_init(fl_registry *reg) {
    return fl_registry_add_policy(reg, "nbloom", nb_factory);
}
