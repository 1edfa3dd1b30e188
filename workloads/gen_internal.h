/*
 * gen_internal.h -- what the generator files share and no other module may
 * use: gen.c (the public fl_gen_* API and the op-mix driver), gen_util.c
 * (the PRNG, byte buffers and key sets), gen_edges.c (the bounds the engine
 * keeps, and read targets near them), gen_shapes.c (uniform, zipf,
 * group-suffix, delimited, timeseries) and gen_pools.c (adversarial and
 * words, the shapes drawn from a key pool built up front).
 *
 * Determinism, the invariant every file here keeps: a generated workload is a
 * function of its fl_gen_options alone.  Randomness comes only from
 * fl_gen_rng streams seeded from the seed (never rand(), the clock or
 * addresses), and nothing depends on hash-table iteration order.
 *
 * Truth of "present" and "absent", kept by gen.c: `written` holds every key
 * ever put (deleted ones too), `prefixes` the fingerprints of every prefix of
 * length 1..FL_GEN_PREFIX_MAX of those keys.  An absent key is one not in
 * `written`; an absent prefix one whose fingerprint is not in `prefixes`.  A
 * fingerprint collision can only make an absent prefix look present (it is
 * then not used), never the reverse.  A key is used as an absent key only if
 * it is not in `written` and the shape says it will never put it (may_put).
 */
#ifndef FL_GEN_INTERNAL_H
#define FL_GEN_INTERNAL_H

#include "workload_internal.h"

/* Longest prefix whose presence is tracked (absent prefixes are at most this
 * long; present ones may be longer). */
#define FL_GEN_PREFIX_MAX 32

/* ---- PRNG (splitmix64) ---------------------------------------------------- */

typedef struct fl_gen_rng { uint64_t s; } fl_gen_rng;

/* The splitmix64 finalizer: a bijective 64-bit mix, for stateless hashing
 * ("the spelling of key index i"). */
uint64_t fl_gen_mix64(uint64_t x);
/* mix64 of two words, for hashing pairs (a seed and an index). */
uint64_t fl_gen_mix2(uint64_t a, uint64_t b);
uint64_t fl_gen_next(fl_gen_rng *r);
/* Uniform in [0, n); n > 0 (n == 0 gives 0). Unbiased (rejection). */
uint64_t fl_gen_below(fl_gen_rng *r, uint64_t n);
/* Uniform in [lo, hi], lo <= hi. */
uint64_t fl_gen_between(fl_gen_rng *r, uint64_t lo, uint64_t hi);
/* Uniform in [0, 1). */
double   fl_gen_unit(fl_gen_rng *r);
/* true with probability p. */
bool     fl_gen_chance(fl_gen_rng *r, double p);

/* ---- Byte buffers ------------------------------------------------------- */

/* A growable byte string; an allocation failure sets nomem (sticky) and
 * leaves the contents short, so callers check once per op. */
typedef struct fl_gen_buf { uint8_t *p; size_t len, cap; bool nomem; } fl_gen_buf;

void fl_gen_buf_free(fl_gen_buf *b);
void fl_gen_buf_put(fl_gen_buf *b, const void *data, size_t n);
void fl_gen_buf_byte(fl_gen_buf *b, uint8_t c);
void fl_gen_buf_str(fl_gen_buf *b, const char *s);
/* Appends v in decimal, zero-padded to width digits. */
void fl_gen_buf_dec(fl_gen_buf *b, uint64_t v, unsigned width);
/* Appends n bytes drawn from alphabet (NUL-terminated, non-empty). */
void fl_gen_buf_chars(fl_gen_buf *b, fl_gen_rng *r, const char *alphabet, size_t n);
/* Replaces the contents by data[0..n) (data may point into b). */
void fl_gen_buf_set(fl_gen_buf *b, const uint8_t *data, size_t n);

/* Decimal digits of v (at least 1). */
unsigned fl_gen_digits(uint64_t v);

/* ---- Key sets ------------------------------------------------------------- */

/* 64-bit hash of a byte string, never 0.  fl_gen_prefix_hashes gives the
 * same values for every prefix of a key in one pass. */
uint64_t fl_gen_hash(const uint8_t *data, size_t len);
/* out[i] = fl_gen_hash(data, i + 1) for i < min(len, max). Returns the count. */
size_t   fl_gen_prefix_hashes(const uint8_t *data, size_t len, uint64_t *out, size_t max);

/* An exact set of byte strings that also lists them in insertion order. */
typedef struct fl_gen_keyset {
    uint8_t  *arena;
    size_t    arena_len, arena_cap;
    size_t   *off;              /* key i is arena[off[i] .. off[i] + len[i]) */
    uint32_t *len;
    size_t    count, cap;
    size_t   *slot;             /* open addressing: key index + 1, 0 empty */
    size_t    slot_cap;         /* a power of two, or 0 */
} fl_gen_keyset;

void fl_gen_keyset_free(fl_gen_keyset *s);
bool fl_gen_keyset_has(const fl_gen_keyset *s, const uint8_t *data, size_t len);
/* 1 added, 0 already there, -1 out of memory. */
int  fl_gen_keyset_add(fl_gen_keyset *s, const uint8_t *data, size_t len);
/* Key i (i < count); the pointer is valid until the next add. */
const uint8_t *fl_gen_keyset_key(const fl_gen_keyset *s, size_t i, size_t *len);

/* A set of nonzero 64-bit fingerprints. */
typedef struct fl_gen_fpset { uint64_t *slot; size_t cap, count; } fl_gen_fpset;

void fl_gen_fpset_free(fl_gen_fpset *s);
bool fl_gen_fpset_has(const fl_gen_fpset *s, uint64_t fp);
/* 0 or -1 out of memory. */
int  fl_gen_fpset_add(fl_gen_fpset *s, uint64_t fp);

/* ---- The generator and its shapes ----------------------------------------- */

typedef struct fl_gen fl_gen;

/* One key shape.  Key functions write into out (reset by the caller) and
 * must not depend on anything but their arguments, the rng and the shape's
 * own state, so that generation is deterministic. */
typedef struct fl_gen_shape_ops {
    fl_gen_shape shape;
    const char  *name;                  /* as fl_gen_shape_parse() takes it   */
    uint64_t     default_keys;          /* fl_gen_defaults' `keys`            */
    double       empty_value_rate;      /* puts whose value is empty          */
    /* Builds the shape's state (g->shape_state); -1 with g's error set. */
    int    (*init)(fl_gen *g);
    void   (*destroy)(fl_gen *g);
    /* A key to put (may advance the shape's state: called once per put). */
    void   (*put_key)(fl_gen *g, fl_gen_buf *out);
    /* Optional: a key drawn like put_key but without side effects, so that
     * reads of present keys follow the write popularity (zipf). */
    void   (*popular_key)(fl_gen *g, fl_gen_buf *out);
    /* A candidate for a key never written, inside the written key range;
     * the driver checks it against `written`, so it may be unlucky. */
    void   (*absent_key)(fl_gen *g, fl_gen_buf *out);
    /* The length of the shape's natural prefix of key (the group id,
     * "tenant:", the sensor id), or 0 when it has none. */
    size_t (*natural_prefix)(fl_gen *g, const uint8_t *key, size_t len);
    /* false only if put_key will never return key from now on (whether it
     * did before is the driver's to check against `written`); true when
     * unsure.  Lets the driver use any key, such as an edge's neighbour, as
     * an absent key. */
    bool   (*may_put)(fl_gen *g, const uint8_t *key, size_t len);
} fl_gen_shape_ops;

/* ---- Edges (gen_edges.c) ---------------------------------------------------- */

/* Recent edges kept for reads. */
#define FL_GEN_EDGE_RING 32

/* What the driver knows of the bounds the engine keeps: the smallest and
 * largest key (or range tombstone end) of the writes since the last flush,
 * which bound the SST the next flush writes, and a ring of recent edges:
 * those bounds at each flush, every range tombstone's start and end, and,
 * at each compaction, the bounds of every write. */
typedef struct fl_gen_edges {
    fl_gen_buf ring[FL_GEN_EDGE_RING];  /* the oldest is overwritten       */
    size_t     count, next;
    fl_gen_buf lo, hi;                  /* of the writes since the last cut */
    bool       have_bounds;
    fl_gen_buf min, max;                /* of every write                  */
    bool       have_all;
    uint64_t   mem_bytes;               /* the memtable, as the engine counts */
    uint64_t   memtable_bytes;          /* the flush threshold in force    */
    bool       nomem;                   /* sticky                          */
} fl_gen_edges;

void fl_gen_edges_free(fl_gen_edges *e);
/* The flush threshold (memtable_bytes) of an open or reopen. */
void fl_gen_edges_set_memtable(fl_gen_edges *e, uint64_t bytes);
/* A put (value of vlen bytes) or a delete of key k. */
void fl_gen_edges_write(fl_gen_edges *e, const uint8_t *k, size_t n, size_t vlen);
/* A delete of the range [s, end). */
void fl_gen_edges_range(fl_gen_edges *e, const uint8_t *s, size_t sn, const uint8_t *end,
                        size_t en);
/* A flush (explicit, or a reopen's): the bounds become edges. */
void fl_gen_edges_cut(fl_gen_edges *e);
/* A compaction: the bounds of every write become edges. */
void fl_gen_edges_compact(fl_gen_edges *e);

/* Read targets at or next to an edge, keeping the promises of the op mix
 * (gen.c): a key put earlier; a key never put, before or after; a prefix of
 * a key put earlier; a prefix of none put earlier (1..FL_GEN_PREFIX_MAX
 * bytes); a non-empty range [start, end).  Each replaces out's contents and
 * returns false, out then undefined, when it found none. */
bool fl_gen_edge_present_key(fl_gen *g, fl_gen_buf *out);
bool fl_gen_edge_absent_key(fl_gen *g, fl_gen_buf *out);
bool fl_gen_edge_present_prefix(fl_gen *g, fl_gen_buf *out);
bool fl_gen_edge_absent_prefix(fl_gen *g, fl_gen_buf *out);
bool fl_gen_edge_range(fl_gen *g, fl_gen_buf *start, fl_gen_buf *end);

/* Whether a key put earlier starts with p[0..n) (gen.c): exact for n = 0,
 * by fingerprint up to FL_GEN_PREFIX_MAX (a collision says yes), and true
 * beyond, untracked. */
bool fl_gen_prefix_present(const fl_gen *g, const uint8_t *p, size_t n);

struct fl_gen {
    const fl_gen_options   *o;
    const fl_gen_shape_ops *shape;
    void          *shape_state;
    uint64_t       keys;            /* o->keys, or the shape's default  */
    fl_gen_rng     rng;             /* the op stream                    */
    uint64_t       space_seed;      /* seeds stateless key spellings    */
    fl_gen_keyset  written;         /* every key ever put               */
    fl_gen_fpset   prefixes;        /* prefixes of those, 1..PREFIX_MAX */
    fl_gen_edges   edges;           /* bounds the engine keeps          */
    char          *err;
    size_t         err_len;
};

/* Sets the generator's error message (printf-style); returns -1. */
int fl_gen_fail(fl_gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

extern const fl_gen_shape_ops fl_gen_uniform_ops, fl_gen_zipf_ops, fl_gen_group_suffix_ops,
                              fl_gen_delimited_ops, fl_gen_timeseries_ops,
                              fl_gen_adversarial_ops, fl_gen_words_ops;

#endif /* FL_GEN_INTERNAL_H */
