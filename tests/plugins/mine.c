/*
 * mine.c -- the policy "mine" that the examples of README.md and docs/ load as my.so,
 * mine.so and my_policy.so (tests/cli/readme.sh builds it under those
 * names): a plain, correct hashed bit set.  mine(bits=B,x=N): B bits per key
 * (1 to 32, default 10), three probes from an FNV-1a hash seeded with N
 * (default 0).  It answers POINT queries; a PREFIX query is "cannot rule
 * out" (true), as the contract asks of a query a filter cannot tell.  It
 * also registers the extractor "myex:N" (docs/fuzzing.md's fuzz_extractor
 * example): the first N bytes (1 to 64) of a key that has that many.
 *
 * Encoding: m (u32, bits in the set, little endian), x (u32), then m/8 bytes.
 *
 * Build: cc -shared -fPIC -I<filterlab>/engine mine.c -o mine.so
 */
#include "filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROBES 3

typedef struct mine_filter {
    fl_filter base;                 /* Base class. Must be first */
    uint32_t  m, x;                 /* bits in set (a multiple of 64); seed */
    uint8_t  *set;                  /* m / 8 bytes */
} mine_filter;

typedef struct mine_builder {
    fl_filter_builder base;         /* Base class. Must be first */
    uint32_t  bits, x;
    uint64_t *hash;                 /* one per entry */
    size_t    n, cap;
} mine_builder;

typedef struct mine_policy {
    fl_filter_policy base;          /* Base class. Must be first */
    uint32_t bits, x;
} mine_policy;

static uint64_t mine_hash(fl_slice key, uint32_t x) {
    uint64_t h = 0xcbf29ce484222325ull ^ x;
    for (size_t i = 0; i < key.len; i++) h = (h ^ key.data[i]) * 0x100000001b3ull;
    return h ^ (h >> 29);
}

/* probe i of hash h in a set of m bits */
static uint32_t mine_bit(uint64_t h, int i, uint32_t m) {
    return (uint32_t)(((h & 0xffffffffu) + (uint64_t)i * (h >> 32 | 1)) % m);
}

static bool mine_might_match(const fl_filter *self, const fl_filter_query *q) {
    const mine_filter *f = (const mine_filter *)self;
    if (q->target.kind != FL_TARGET_POINT) return true;
    uint64_t h = mine_hash(q->target.bytes, f->x);
    for (int i = 0; i < PROBES; i++) {
        uint32_t b = mine_bit(h, i, f->m);
        if (!(f->set[b / 8] & (1u << (b % 8)))) return false;
    }
    return true;
}

static void put_u32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_u32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int mine_encode(const fl_filter *self, fl_buf *out) {
    const mine_filter *f = (const mine_filter *)self;
    uint8_t head[8];
    put_u32(head, f->m);
    put_u32(head + 4, f->x);
    int rc = fl_buf_append(out, head, sizeof head);
    return rc == FL_OK ? fl_buf_append(out, f->set, f->m / 8) : rc;
}

static size_t mine_size(const fl_filter *self) { return 8 + ((const mine_filter *)self)->m / 8; }

static void mine_filter_destroy(fl_filter *self) {
    free(((mine_filter *)self)->set);
    free(self);
}

static const fl_filter_ops mine_filter_ops = { mine_might_match, mine_encode, mine_size,
                                               mine_filter_destroy };

static int mine_new_filter(uint32_t m, uint32_t x, mine_filter **out) {
    mine_filter *f = calloc(1, sizeof *f);
    if (!f || !(f->set = calloc(m / 8, 1))) {
        free(f);
        return FL_ERR_NOMEM;
    }
    f->base.ops = &mine_filter_ops;
    f->m = m;
    f->x = x;
    *out = f;
    return FL_OK;
}

static void mine_add(fl_filter_builder *self, const fl_row_entry *e) {
    mine_builder *b = (mine_builder *)self;
    if (b->n == b->cap) {                /* out of memory: build refuses (below) */
        size_t cap = b->cap ? 2 * b->cap : 64;
        uint64_t *h = realloc(b->hash, cap * sizeof *h);
        if (!h) {
            b->cap = SIZE_MAX;
            return;
        }
        b->hash = h;
        b->cap = cap;
    }
    b->hash[b->n++] = mine_hash(e->key, b->x);
}

static int mine_build(fl_filter_builder *self, fl_filter **out) {
    mine_builder *b = (mine_builder *)self;
    if (b->cap == SIZE_MAX) return FL_ERR_NOMEM;
    uint64_t want = (uint64_t)b->n * b->bits;
    if (want > (1ull << 31)) return FL_ERR_INVALID;
    uint32_t m = (uint32_t)((want + 63) / 64 * 64);
    if (m == 0) m = 64;
    mine_filter *f;
    int rc = mine_new_filter(m, b->x, &f);
    if (rc != FL_OK) return rc;
    for (size_t k = 0; k < b->n; k++)
        for (int i = 0; i < PROBES; i++) {
            uint32_t bit = mine_bit(b->hash[k], i, m);
            f->set[bit / 8] |= (uint8_t)(1u << (bit % 8));
        }
    *out = &f->base;
    return FL_OK;
}

static void mine_builder_destroy(fl_filter_builder *self) {
    free(((mine_builder *)self)->hash);
    free(self);
}

static const fl_filter_builder_ops mine_builder_ops = { mine_add, mine_build, mine_builder_destroy };

/* the seed is in every filter's bytes, so one name serves every x */
static const char *mine_name(const fl_filter_policy *self) { (void)self; return "mine.v1"; }

static int mine_new_builder(const fl_filter_policy *self, fl_filter_builder **out) {
    const mine_policy *p = (const mine_policy *)self;
    mine_builder *b = calloc(1, sizeof *b);
    if (!b) return FL_ERR_NOMEM;
    b->base.ops = &mine_builder_ops;
    b->bits = p->bits;
    b->x = p->x;
    *out = &b->base;
    return FL_OK;
}

static int mine_decode(const fl_filter_policy *self, fl_slice data, fl_filter **out) {
    (void)self;
    if (data.len < 8) return FL_ERR_CORRUPT;
    uint32_t m = get_u32(data.data), x = get_u32(data.data + 4);
    if (m == 0 || m % 64 != 0 || data.len - 8 != m / 8) return FL_ERR_CORRUPT;
    mine_filter *f;
    int rc = mine_new_filter(m, x, &f);
    if (rc != FL_OK) return rc;
    memcpy(f->set, data.data + 8, m / 8);
    *out = &f->base;
    return FL_OK;
}

static size_t mine_estimate(const fl_filter_policy *self, size_t n) {
    return 8 + (n * ((const mine_policy *)self)->bits + 63) / 64 * 8;
}

static void mine_policy_destroy(fl_filter_policy *self) { free(self); }

static const fl_filter_policy_ops mine_policy_ops = {
    mine_name, mine_new_builder, mine_decode, mine_estimate, mine_policy_destroy };

/* "bits=B,x=N" in any order, each at most once */
static int mine_factory(const fl_registry *reg, const char *args, fl_filter_policy **out,
                        char *err, size_t err_len) {
    (void)reg;
    unsigned long bits = 10, x = 0;
    bool seen_bits = false, seen_x = false;
    const char *p = args ? args : "";
    while (*p) {
        bool is_bits = strncmp(p, "bits=", 5) == 0, is_x = strncmp(p, "x=", 2) == 0;
        if ((!is_bits && !is_x) || (is_bits && seen_bits) || (is_x && seen_x)) {
            snprintf(err, err_len, "mine takes bits=1..32 and x=N, each once; got '%s'", args);
            return FL_ERR_INVALID;
        }
        char *end;
        unsigned long v = strtoul(p + (is_bits ? 5 : 2), &end, 10);
        if (end == p + (is_bits ? 5 : 2) || (*end && *end != ',') || (is_bits && (v < 1 || v > 32)) ||
            v > 0xffffffffu) {
            snprintf(err, err_len, "mine takes bits=1..32 and x=N, each once; got '%s'", args);
            return FL_ERR_INVALID;
        }
        if (is_bits) bits = v, seen_bits = true;
        else x = v, seen_x = true;
        p = *end ? end + 1 : end;
    }
    mine_policy *pol = calloc(1, sizeof *pol);
    if (!pol) return FL_ERR_NOMEM;
    pol->base.abi_version = FL_FILTER_ABI_VERSION;
    pol->base.ops = &mine_policy_ops;
    pol->bits = (uint32_t)bits;
    pol->x = (uint32_t)x;
    *out = &pol->base;
    return FL_OK;
}

/* ---- The extractor "myex:N" ---- */

typedef struct myex {
    fl_prefix_extractor base;       /* Base class. Must be first */
    size_t n;
    char   name[16];
} myex;

static const char *myex_name(const fl_prefix_extractor *self) { return ((const myex *)self)->name; }

/* a fixed length: PREFIX(p) with |p| >= n is safe, every extension has it */
static bool myex_prefix_len(const fl_prefix_extractor *self, const fl_target *t, size_t *len) {
    size_t n = ((const myex *)self)->n;
    if (t->bytes.len < n) return false;
    *len = n;
    return true;
}

static void myex_destroy(fl_prefix_extractor *self) { free(self); }

static const fl_prefix_extractor_ops myex_ops = { myex_name, myex_prefix_len, myex_destroy };

static int myex_factory(const fl_registry *reg, const char *args, fl_prefix_extractor **out,
                        char *err, size_t err_len) {
    (void)reg;
    char *end;
    unsigned long n = args ? strtoul(args, &end, 10) : 0;
    if (!args || end == args || *end || n < 1 || n > 64) {
        snprintf(err, err_len, "myex takes a length 1..64 (myex:3); got '%s'", args ? args : "");
        return FL_ERR_INVALID;
    }
    myex *ex = calloc(1, sizeof *ex);
    if (!ex) return FL_ERR_NOMEM;
    ex->base.abi_version = FL_FILTER_ABI_VERSION;
    ex->base.ops = &myex_ops;
    ex->n = n;
    snprintf(ex->name, sizeof ex->name, "myex%lu", n);
    *out = &ex->base;
    return FL_OK;
}

int fl_plugin_init(fl_registry *reg) {
    int rc = fl_registry_add_policy(reg, "mine", mine_factory);
    return rc == FL_OK ? fl_registry_add_extractor(reg, "myex", myex_factory) : rc;
}
