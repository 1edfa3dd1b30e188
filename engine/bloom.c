/*
 * bloom.c -- the built-in bloom policy of SPEC section 5: a cache-local
 * bloom filter (one 512-bit line per hash) over whole keys and/or the
 * prefixes a prefix extractor picks.
 *
 * Its bytes must be reproducible from SPEC section 5 alone (the reference
 * model re-implements it and compares bytes, property P5), so everything
 * here follows the spec literally:
 *   h     = XXH3_64bits(bytes, len), seed 0
 *   mb    = round(bits * 1000)                       (integer millibits)
 *   lines = ceil(m * mb / 512000)                    (64-bit; m = hashes added)
 *   line  = ((h >> 32) * lines) >> 32;  a = (uint32_t)h
 *   k times: set bit (a >> 23) of the line, then a *= 0x9E3779B9 (mod 2^32)
 *   bytes = [version u8 = 1][k u8][lines u32 BE][lines * 64 bytes of lines]
 *           bit i of a line is bit i % 8 of byte i / 8
 *
 * Invariants:
 *   - No false negatives: every hash added by the builder is a hash the
 *     query path would probe for a matching target; anything the filter
 *     cannot decide (lines == 0, no extractor, extractor says none) is true.
 *   - The extractor is only ever called through the fl_call_* wrappers (it
 *     may be a plugin), with a NULL context: the calls are nested in the
 *     wrapper call of the bloom's own method, and report to its context.
 *     It is owned by the policy: builders and filters borrow
 *     it, so the policy must outlive every builder and filter made from it.
 *   - decode checks every length before reading and copies the bytes it
 *     keeps (the slice is borrowed).
 *
 * How a build goes (the bytes are the spec's whatever path is taken):
 * add_entry stores each hash (a short path for the common whole-key-only
 * builder and 8- to 16-byte keys, fl_bloom_add_any for everything else);
 * build sizes the filter from the count, sets the bits with the best
 * kernel the CPU has and takes the expected FP rate from them (both in
 * bloom_bits.c, with the formula of SPEC 5 and a decoded filter's
 * estimate of m).
 */
#include "registry_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define XXH_INLINE_ALL          /* xxhash.h's header-only mode: XXH3 inlined */
#include <xxhash.h>

#define FL_BLOOM_VERSION       1
#define FL_BLOOM_HEADER        6          /* version, k, lines             */
#define FL_BLOOM_MAX_MILLIBITS 1000000    /* bits <= 1000                  */
#define FL_BLOOM_DEFAULT_MB    10000      /* bits = 10                     */

typedef struct fl_bloom_policy {
    fl_filter_policy base;              /* Base class. Must be first */
    uint64_t millibits;
    bool whole_key;
    fl_prefix_extractor *extractor;     /* owned; NULL = none          */
    char *name;
} fl_bloom_policy;

typedef struct fl_bloom_builder {
    fl_filter_builder base;             /* Base class. Must be first */
    uint64_t millibits;
    bool whole_key;
    const fl_prefix_extractor *extractor;   /* borrowed from the policy */
    uint64_t *hashes;                   /* in insertion order          */
    size_t count, cap;
    fl_buf prev_key;                    /* the previous entry's key    */
    uint64_t prev_hash;                 /* and its hash (below)        */
    fl_buf last_prefix;                 /* the last prefix ADDED       */
    bool have_prev_key, have_last_prefix;
    bool out_of_memory;                 /* add_entry cannot report it  */
    bool fast;                          /* the next entry may take the short path */
} fl_bloom_builder;

typedef struct fl_bloom_filter {
    fl_filter base;                     /* Base class. Must be first */
    bool whole_key;
    const fl_prefix_extractor *extractor;   /* borrowed from the policy */
    unsigned k;
    uint32_t lines;
    uint64_t m;                         /* exact if built, else estimated */
    double expected_fp;                 /* exact given the bits (below)  */
    uint8_t *bits;                      /* lines * 64 bytes            */
} fl_bloom_filter;

/* ---- The algorithm ------------------------------------------------------ */

unsigned fl_bloom_probes_for_millibits(uint64_t millibits) {
    static const struct { uint64_t max_millibits; unsigned k; } table[] = {
        { 2080, 1 },  { 3580, 2 },  { 5100, 3 },   { 6640, 4 },   { 8300, 5 },   { 10070, 6 },
        { 11720, 7 }, { 14000, 8 }, { 16050, 9 }, { 18300, 10 }, { 22000, 11 }, { 25500, 12 },
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (millibits <= table[i].max_millibits) return table[i].k;
    uint64_t k = millibits / 2000 - 1;
    return k < 24 ? (unsigned)k : 24;
}

static uint64_t fl_bloom_hash(const uint8_t *bytes, size_t len) {
    return XXH3_64bits(len ? (const void *)bytes : "", len);
}

/* ceil(m * mb / 512000), or UINT64_MAX when it does not fit. */
static uint64_t fl_bloom_lines_for(uint64_t m, uint64_t millibits) {
    if (millibits && m > UINT64_MAX / millibits) return UINT64_MAX;
    uint64_t total = m * millibits;
    return total / 512000 + (total % 512000 != 0);
}

/* 0x9E3779B9^i mod 2^32: the i-th probe's bit is ((uint32_t)h *
 * fl_bloom_mul[i]) >> 23, the same bit as the spec's running product, but
 * with no chain of dependent multiplies between probes.  32 entries: the
 * largest k a decoder accepts (30), rounded up to the SIMD probe's batches
 * of 8.  tests/test_bloom.c checks the table against the running product. */
const uint32_t fl_bloom_mul[32] = {   /* filter_internal.h */
    0x00000001u, 0x9E3779B9u, 0xE35E67B1u, 0x734297E9u, 0x35FBE861u, 0xDEB7C719u,
    0x0448B211u, 0x3459B749u, 0xAB25F4C1u, 0x52941879u, 0x9C95E071u, 0xF5AB9AA9u,
    0x2D6BA521u, 0x8BEDEDD9u, 0x9BFB72D1u, 0x3AE1C209u, 0x7FCA7981u, 0xC576C739u,
    0xD23EE931u, 0x0335AD69u, 0xC04FF1E1u, 0x98702499u, 0x7535C391u, 0x9F70DCC9u,
    0x0E198E41u, 0xF2AB85F9u, 0xE6C581F1u, 0xC7ECD029u, 0x6F54CEA1u, 0x4C8A6B59u,
    0xBAE3A451u, 0xF2930789u,
};

/* Tests all k bits without an early exit: a miss would otherwise leave the
 * loop at an unpredictable probe, and the mispredicted branch costs more
 * than the remaining loads from the same (already loaded) cache line. */
static inline __attribute__((always_inline))
bool fl_bloom_test_k(const uint8_t *line, uint32_t a, unsigned k) {
    unsigned all = 1;
#pragma GCC unroll 12
    for (unsigned i = 0; i < k; i++) {
        uint32_t bit = (a * fl_bloom_mul[i]) >> 23;
        all &= (unsigned)line[bit >> 3] >> (bit & 7);
    }
    return all & 1;
}

/* Probes j..k-1 alone, the scalar way: the SIMD probes test the ones past
 * their first eight so (up to k = 12), beside the vector rather than as a
 * second batch after it. */
static inline __attribute__((always_inline))
bool fl_bloom_test_tail(const uint8_t *line, uint32_t a, unsigned j, unsigned k) {
    unsigned all = 1;
    for (; j < k; j++) {
        uint32_t bit = (a * fl_bloom_mul[j]) >> 23;
        all &= (unsigned)line[bit >> 3] >> (bit & 7);
    }
    return all & 1;
}

static bool fl_bloom_test_scalar(const uint8_t *line, uint32_t a, unsigned k) {
#define FL_TEST(K) return fl_bloom_test_k(line, a, K)
    FL_BLOOM_BY_K(k, FL_TEST)
#undef FL_TEST
}

/* With AVX2 (x86-64, chosen at run time), eight probes at once: eight
 * products in one multiply, and each probe's bit picked out of the line
 * held in two registers.  Bit b of a line is bit b % 32 of its
 * little-endian 32-bit word b / 32 (the same bit as bit b % 8 of byte
 * b / 8), so for product p: word = p >> 28 (the line's halves chosen by its
 * bit 3), bit = (p >> 23) & 31, shifted up to the sign bit. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define FL_BLOOM_HAVE_AVX2 1
#include <immintrin.h>

/* Which of probes j..j+7 find their bit set: a lane's sign bit is set
 * where it does; lanes past k count as set. */
__attribute__((target("avx2"), always_inline))
static inline __m256i fl_bloom_test8_avx2(__m256i lo, __m256i hi, __m256i av, unsigned j, unsigned k) {
    __m256i mul = _mm256_loadu_si256((const __m256i *)(const void *)(fl_bloom_mul + j));
    __m256i p = _mm256_mullo_epi32(av, mul);
    __m256i word = _mm256_srli_epi32(p, 28);
    __m256i from_lo = _mm256_permutevar8x32_epi32(lo, word);
    __m256i from_hi = _mm256_permutevar8x32_epi32(hi, word);
    __m256i w = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(from_lo),
                                                     _mm256_castsi256_ps(from_hi),
                                                     _mm256_castsi256_ps(_mm256_slli_epi32(word, 28))));
    __m256i up = _mm256_sub_epi32(_mm256_set1_epi32(31), _mm256_srli_epi32(_mm256_slli_epi32(p, 4), 27));
    __m256i bit = _mm256_sllv_epi32(w, up);     /* the probed bit, as the sign */
    if (k - j < 8) {                            /* lanes past k always pass */
        __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        bit = _mm256_or_si256(bit, _mm256_cmpgt_epi32(lane, _mm256_set1_epi32((int)(k - j) - 1)));
    }
    return bit;
}

__attribute__((target("avx2")))
static bool fl_bloom_test_avx2(const uint8_t *line, uint32_t a, unsigned k) {
    __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)line);
    __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(line + 32));
    __m256i av = _mm256_set1_epi32((int)a);
    __m256i all = fl_bloom_test8_avx2(lo, hi, av, 0, k);
    if (k > 8 && k <= 12) {         /* both halves tested, no branch between */
        bool head = _mm256_movemask_ps(_mm256_castsi256_ps(all)) == 0xff, tail = fl_bloom_test_tail(line, a, 8, k);
        return head & tail;
    }
    for (unsigned j = 8; j < k; j += 8) all = _mm256_and_si256(all, fl_bloom_test8_avx2(lo, hi, av, j, k));
    return _mm256_movemask_ps(_mm256_castsi256_ps(all)) == 0xff;
}

/* With AVX-512 (its VL forms: 256-bit registers only, which keep the core
 * at its AVX2 clock, where 512-bit multiplies slow everything else down by
 * a few percent), eight probes at once as with AVX2, each probe's word
 * picked from the line's two halves by one two-table permute, no blend,
 * and the bits tested into a mask.  Here: which of probes j..j+7 find their
 * bit set, as a mask. */
__attribute__((target("avx512f,avx512vl"), always_inline))
static inline __mmask8 fl_bloom_test8_avx512(__m256i lo, __m256i hi, __m256i av, unsigned j) {
    __m256i p = _mm256_mullo_epi32(av, _mm256_loadu_si256((const __m256i *)(const void *)(fl_bloom_mul + j)));
    __m256i w = _mm256_permutex2var_epi32(lo, _mm256_srli_epi32(p, 28), hi);   /* bit 3: hi */
    __m256i bit = _mm256_srlv_epi32(w, _mm256_and_si256(_mm256_srli_epi32(p, 23), _mm256_set1_epi32(31)));
    return _mm256_test_epi32_mask(bit, _mm256_set1_epi32(1));
}

__attribute__((target("avx512f,avx512vl")))
static bool fl_bloom_test_avx512(const uint8_t *line, uint32_t a, unsigned k) {
    __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)line);
    __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(line + 32));
    __m256i av = _mm256_set1_epi32((int)a);
    if (k <= 8) return (fl_bloom_test8_avx512(lo, hi, av, 0) | (__mmask8)(0xFFu << k)) == 0xFF;
    if (k <= 12) {                  /* both halves tested, no branch between */
        bool head = fl_bloom_test8_avx512(lo, hi, av, 0) == 0xFF, tail = fl_bloom_test_tail(line, a, 8, k);
        return head & tail;
    }
    bool all = fl_bloom_test8_avx512(lo, hi, av, 0) == 0xFF;
    for (unsigned j = 8; j < k; j += 8) {
        unsigned n = k - j < 8 ? k - j : 8;
        all &= (fl_bloom_test8_avx512(lo, hi, av, j) | (__mmask8)(0xFFu << n)) == 0xFF;
    }
    return all;
}

/* The best probe this CPU has: AVX-512, AVX2, or the scalar one.
 * FILTERLAB_NO_SIMD=1 in the environment forces the scalar probe and
 * FILTERLAB_SIMD=avx2 caps it at AVX2 (tests run each; a user can rule the
 * wide ones out). */
static fl_bloom_kernel fl_bloom_cpu_kernel(void) {
    const char *no = getenv("FILTERLAB_NO_SIMD"), *cap = getenv("FILTERLAB_SIMD");
    if ((no && *no && strcmp(no, "0") != 0) || !__builtin_cpu_supports("avx2")) return FL_BLOOM_SCALAR;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && !(cap && strcmp(cap, "avx2") == 0))
        return FL_BLOOM_AVX512;
    return FL_BLOOM_AVX2;
}
#else

#define FL_BLOOM_HAVE_AVX2 0
static bool fl_bloom_test_avx2(const uint8_t *line, uint32_t a, unsigned k) {
    return fl_bloom_test_scalar(line, a, k);
}
static bool fl_bloom_test_avx512(const uint8_t *line, uint32_t a, unsigned k) {
    return fl_bloom_test_scalar(line, a, k);
}
static fl_bloom_kernel fl_bloom_cpu_kernel(void) { return FL_BLOOM_SCALAR; }
#endif

bool fl_bloom_line_test(const uint8_t *line, uint32_t a, unsigned k, fl_bloom_kernel kernel) {
    if (kernel > fl_bloom_cpu_kernel()) kernel = fl_bloom_cpu_kernel();
    return kernel == FL_BLOOM_AVX512 ? fl_bloom_test_avx512(line, a, k)
         : kernel == FL_BLOOM_AVX2   ? fl_bloom_test_avx2(line, a, k)
                                     : fl_bloom_test_scalar(line, a, k);
}

fl_bloom_kernel fl_bloom_best_kernel(void) { return fl_bloom_cpu_kernel(); }

const char *fl_bloom_probe_kernel(void) {
    static const char *const names[] = { "scalar", "avx2", "avx512" };
    return names[fl_bloom_cpu_kernel()];
}

/* ---- Filter ------------------------------------------------------------ */

static const fl_filter_ops fl_bloom_filter_ops;

/* The bytes a query probes, or false when the filter cannot tell. */
static inline bool fl_bloom_probe_bytes(const fl_bloom_filter *f, const fl_target *t, fl_slice *probe) {
    if (t->kind != FL_TARGET_POINT && t->kind != FL_TARGET_PREFIX) return false;
    if (t->kind == FL_TARGET_POINT && f->whole_key) {
        *probe = t->bytes;
        return true;
    }
    size_t n;
    if (!f->extractor || !fl_call_prefix_len(NULL, f->extractor, t, &n)) return false;
    probe->data = t->bytes.data;
    probe->len = n;
    return true;
}

/* might_match, made twice from one body: the scalar probe, and (where the
 * CPU has it) the AVX2 one, each with the hash and the probe inlined.  A
 * filter's ops table is the one for its CPU (fl_bloom_filter_new). */
#define FL_BLOOM_MIGHT_MATCH(TEST)                                                      \
    const fl_bloom_filter *f = (const fl_bloom_filter *)self;                          \
    fl_slice probe;                                                                     \
    if (f->lines == 0 || !fl_bloom_probe_bytes(f, &query->target, &probe)) return true; \
    uint64_t h = fl_bloom_hash(probe.data, probe.len);                                  \
    return TEST(fl_bloom_line(f->bits, f->lines, h), (uint32_t)h, f->k)

__attribute__((flatten))
static bool fl_bloom_might_match_scalar(const fl_filter *self, const fl_filter_query *query) {
    FL_BLOOM_MIGHT_MATCH(fl_bloom_test_scalar);
}

#if FL_BLOOM_HAVE_AVX2
__attribute__((flatten, target("avx2")))
static bool fl_bloom_might_match_avx2(const fl_filter *self, const fl_filter_query *query) {
    FL_BLOOM_MIGHT_MATCH(fl_bloom_test_avx2);
}

__attribute__((flatten, target("avx512f,avx512vl")))
static bool fl_bloom_might_match_avx512(const fl_filter *self, const fl_filter_query *query) {
    FL_BLOOM_MIGHT_MATCH(fl_bloom_test_avx512);
}
#else
#define fl_bloom_might_match_avx2 fl_bloom_might_match_scalar
#define fl_bloom_might_match_avx512 fl_bloom_might_match_scalar
#endif

bool fl_bloom_might_match(const fl_filter *self, const fl_filter_query *query) {
    return self->ops->might_match(self, query);
}

static int fl_bloom_encode(const fl_filter *self, fl_buf *out) {
    const fl_bloom_filter *f = (const fl_bloom_filter *)self;
    uint8_t header[FL_BLOOM_HEADER] = {
        FL_BLOOM_VERSION, (uint8_t)f->k, (uint8_t)(f->lines >> 24), (uint8_t)(f->lines >> 16),
        (uint8_t)(f->lines >> 8), (uint8_t)f->lines,
    };
    size_t before = out->len;
    int rc = fl_buf_append(out, header, sizeof header);
    if (rc == FL_OK) rc = fl_buf_append(out, f->bits, (size_t)f->lines * FL_BLOOM_LINE_BYTES);
    if (rc != FL_OK) out->len = before;
    return rc;
}

static size_t fl_bloom_size(const fl_filter *self) {
    return (size_t)((const fl_bloom_filter *)self)->lines * FL_BLOOM_LINE_BYTES;
}

void fl_bloom_filter_destroy(fl_filter *self) {
    fl_bloom_filter *f = (fl_bloom_filter *)self;
    free(f->bits);
    free(f);
}

static const fl_filter_ops fl_bloom_filter_ops = {
    fl_bloom_might_match_scalar, fl_bloom_encode, fl_bloom_size, fl_bloom_filter_destroy,
};

static const fl_filter_ops fl_bloom_filter_ops_avx2 = {
    fl_bloom_might_match_avx2, fl_bloom_encode, fl_bloom_size, fl_bloom_filter_destroy,
};

static const fl_filter_ops fl_bloom_filter_ops_avx512 = {
    fl_bloom_might_match_avx512, fl_bloom_encode, fl_bloom_size, fl_bloom_filter_destroy,
};

/* By kernel (fl_bloom_kernel). */
static const fl_filter_ops *const fl_bloom_ops_by_kernel[] = {
    &fl_bloom_filter_ops, &fl_bloom_filter_ops_avx2, &fl_bloom_filter_ops_avx512,
};

static bool fl_is_bloom_filter(const fl_filter *filter) {
    if (!filter) return false;
    for (size_t i = 0; i < sizeof fl_bloom_ops_by_kernel / sizeof *fl_bloom_ops_by_kernel; i++)
        if (filter->ops == fl_bloom_ops_by_kernel[i]) return true;
    return false;
}

static fl_bloom_filter *fl_bloom_filter_new(bool whole_key, const fl_prefix_extractor *ex,
                                            unsigned k, uint32_t lines) {
    fl_bloom_filter *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    f->base.ops = fl_bloom_ops_by_kernel[fl_bloom_cpu_kernel()];
    f->whole_key = whole_key;
    f->extractor = ex;
    f->k = k;
    f->lines = lines;
    if (lines && !(f->bits = calloc(lines, FL_BLOOM_LINE_BYTES))) {
        free(f);
        return NULL;
    }
    return f;
}

static int fl_bloom_decode_bytes(fl_slice data, bool whole_key, const fl_prefix_extractor *ex,
                                 fl_filter **out) {
    *out = NULL;
    if (data.len < FL_BLOOM_HEADER || !data.data) return FL_ERR_CORRUPT;
    const uint8_t *p = data.data;
    unsigned k = p[1];
    uint32_t lines = fl_get_be32(p + 2);
    if (p[0] != FL_BLOOM_VERSION) return FL_ERR_CORRUPT;
    if ((uint64_t)data.len - FL_BLOOM_HEADER != (uint64_t)lines * FL_BLOOM_LINE_BYTES)
        return FL_ERR_CORRUPT;
    if (lines > 0 && (k == 0 || k > FL_BLOOM_MAX_K)) return FL_ERR_CORRUPT;
    fl_bloom_filter *f = fl_bloom_filter_new(whole_key, ex, k, lines);
    if (!f) return FL_ERR_NOMEM;
    if (lines) memcpy(f->bits, p + FL_BLOOM_HEADER, (size_t)lines * FL_BLOOM_LINE_BYTES);
    f->m = fl_bloom_lines_estimate_m(f->bits, f->lines, f->k);
    f->expected_fp = fl_bloom_lines_expected_fp(f->bits, f->lines, f->k);
    *out = &f->base;
    return FL_OK;
}

int fl_bloom_legacy_decode(fl_slice data, fl_filter **out) {
    return fl_bloom_decode_bytes(data, true, NULL, out);
}

bool fl_bloom_filter_stats(const fl_filter *filter, uint64_t *m, uint64_t *lines, unsigned *k) {
    if (!fl_is_bloom_filter(filter)) return false;
    const fl_bloom_filter *f = (const fl_bloom_filter *)filter;
    if (m) *m = f->m;
    if (lines) *lines = f->lines;
    if (k) *k = f->k;
    return true;
}

bool fl_bloom_filter_expected_fp(const fl_filter *filter, double *rate) {
    if (!fl_is_bloom_filter(filter)) return false;
    *rate = ((const fl_bloom_filter *)filter)->expected_fp;
    return true;
}

bool fl_bloom_filter_probes(fl_calls *calls, const fl_filter *filter, const fl_filter_query *query) {
    if (!fl_is_bloom_filter(filter) || !query) return false;
    const fl_bloom_filter *f = (const fl_bloom_filter *)filter;
    if (f->lines == 0 || (query->target.kind == FL_TARGET_POINT && f->whole_key)) return f->lines > 0;
    size_t n;
    return query->target.kind == FL_TARGET_PREFIX || query->target.kind == FL_TARGET_POINT
               ? f->extractor && fl_call_prefix_len(calls, f->extractor, &query->target, &n)
               : false;
}

/* ---- Builder ------------------------------------------------------------ */

/* Doubles the room for hashes; false (and out_of_memory) when it cannot. */
__attribute__((noinline, cold))
static bool fl_bloom_grow(fl_bloom_builder *b) {
    size_t cap = b->cap ? 2 * b->cap : 1024;
    uint64_t *hashes = cap > SIZE_MAX / sizeof *hashes ? NULL : realloc(b->hashes, cap * sizeof *hashes);
    if (!hashes) {
        b->out_of_memory = true;
        return false;
    }
    b->hashes = hashes;
    b->cap = cap;
    return true;
}

static inline void fl_bloom_push_hash(fl_bloom_builder *b, uint64_t h) {
    if (b->count == b->cap && !fl_bloom_grow(b)) return;
    b->hashes[b->count++] = h;
}

static inline bool fl_slice_equals_buf(const fl_buf *buf, const uint8_t *bytes, size_t len) {
    return buf->len == len && (len == 0 || memcmp(buf->data, bytes, len) == 0);
}

/* Makes room for len bytes in buf (emptied); false (and out_of_memory)
 * when it cannot. */
static bool fl_bloom_reserve(fl_bloom_builder *b, fl_buf *buf, size_t len) {
    buf->len = 0;
    if (fl_buf_reserve(buf, len < 16 ? 16 : len) != FL_OK) {
        b->out_of_memory = true;
        return false;
    }
    return true;
}

/* Keeps a copy of bytes in buf (its memory reused). */
static void fl_bloom_remember(fl_bloom_builder *b, fl_buf *buf, const uint8_t *bytes, size_t len) {
    if (len > buf->cap && !fl_bloom_reserve(b, buf, len)) return;
    if (len) memcpy(buf->data, bytes, len);
    buf->len = len;
}

/* The previous whole key's hash.  A builder of whole keys alone does not
 * store it on its short path: there it is always its last hash (each key
 * either added its hash, or was a version of the previous key and had the
 * same hash). */
static uint64_t fl_bloom_prev_hash(const fl_bloom_builder *b) {
    return b->extractor || b->count == 0 ? b->prev_hash : b->hashes[b->count - 1];
}

/* add_entry, every case: any key length, a prefix extractor, the first
 * entry, a full array of hashes, and a hash equal to the previous key's.
 * The whole key is hashed first: a hash unlike the previous key's means a
 * different key, and only an equal hash (a version of the same key, or a
 * collision, which counts as two keys) needs the bytes compared. */
__attribute__((noinline))
static void fl_bloom_add_any(fl_bloom_builder *b, const fl_row_entry *entry) {
    const uint8_t *key = entry->key.data;
    if (b->whole_key) {
        size_t len = entry->key.len;
        uint64_t h = fl_bloom_hash(key, len);
        if (!(b->have_prev_key && h == fl_bloom_prev_hash(b) && fl_slice_equals_buf(&b->prev_key, key, len)))
            fl_bloom_push_hash(b, h);
        b->prev_hash = h;
        fl_bloom_remember(b, &b->prev_key, key, len);
        b->have_prev_key = true;
    }
    size_t n;
    fl_target point = { FL_TARGET_POINT, entry->key };
    if (b->extractor && fl_call_prefix_len(NULL, b->extractor, &point, &n) &&
        !(b->have_last_prefix && fl_slice_equals_buf(&b->last_prefix, key, n))) {
        fl_bloom_push_hash(b, fl_bloom_hash(key, n));
        fl_bloom_remember(b, &b->last_prefix, key, n);
        b->have_last_prefix = true;
    }
    b->fast = b->whole_key && !b->extractor && b->have_prev_key && b->count > 0 && b->prev_key.cap >= 16 &&
              !b->out_of_memory;
}

/* Most of a build's cost is here, once per entry, so the common case of a
 * builder of whole keys alone, after its first key, with a key of 8 to 16
 * bytes whose hash differs from the previous key's, takes a short path
 * that stores little (a machine stores only so much per cycle): the hash,
 * the count, the key's copy (two overlapping 8-byte words), its length if
 * it changed.  XXH3 is inlined and, for those lengths, reduced by the
 * compiler to its short-input path.  Everything else is fl_bloom_add_any,
 * which the short path reaches by a tail call (so it saves no registers). */
__attribute__((flatten))
static void fl_bloom_add_entry(fl_filter_builder *self, const fl_row_entry *entry) {
    fl_bloom_builder *b = (fl_bloom_builder *)self;
    const uint8_t *key = entry->key.data;
    size_t len = entry->key.len;
    if (!b->fast || len - 8 > 8) {
        fl_bloom_add_any(b, entry);
        return;
    }
    uint64_t h = XXH3_64bits(key, len);
    if (h == b->hashes[b->count - 1] || b->count == b->cap) {
        fl_bloom_add_any(b, entry);     /* hashes it again: rare */
        return;
    }
    b->hashes[b->count++] = h;
    memcpy(b->prev_key.data, key, 8);
    memcpy(b->prev_key.data + len - 8, key + len - 8, 8);
    if (b->prev_key.len != len) b->prev_key.len = len;
}

static int fl_bloom_build(fl_filter_builder *self, fl_filter **out) {
    fl_bloom_builder *b = (fl_bloom_builder *)self;
    *out = NULL;
    if (b->out_of_memory) return FL_ERR_NOMEM;
    uint64_t lines = fl_bloom_lines_for(b->count, b->millibits);
    if (lines > UINT32_MAX || lines > SIZE_MAX / FL_BLOOM_LINE_BYTES) return FL_ERR_INVALID;
    unsigned k = fl_bloom_probes_for_millibits(b->millibits);
    fl_bloom_filter *f = fl_bloom_filter_new(b->whole_key, b->extractor, k, (uint32_t)lines);
    if (!f) return FL_ERR_NOMEM;
    if (lines) fl_bloom_set_lines(f->bits, f->lines, k, b->hashes, b->count, fl_bloom_cpu_kernel());
    f->m = b->count;
    f->expected_fp = fl_bloom_lines_expected_fp(f->bits, f->lines, k);
    *out = &f->base;
    return FL_OK;
}

static void fl_bloom_builder_destroy(fl_filter_builder *self) {
    fl_bloom_builder *b = (fl_bloom_builder *)self;
    free(b->hashes);
    fl_buf_free(&b->prev_key);
    fl_buf_free(&b->last_prefix);
    free(b);
}

static const fl_filter_builder_ops fl_bloom_builder_ops = {
    fl_bloom_add_entry, fl_bloom_build, fl_bloom_builder_destroy,
};

static int fl_bloom_builder_new(uint64_t millibits, bool whole_key,
                                const fl_prefix_extractor *ex, fl_filter_builder **out) {
    *out = NULL;
    fl_bloom_builder *b = calloc(1, sizeof *b);
    if (!b) return FL_ERR_NOMEM;
    b->base.ops = &fl_bloom_builder_ops;
    b->millibits = millibits;
    b->whole_key = whole_key;
    b->extractor = ex;
    fl_buf_init(&b->prev_key);
    fl_buf_init(&b->last_prefix);
    *out = &b->base;
    return FL_OK;
}

int fl_bloom_legacy_builder(uint64_t millibits, fl_filter_builder **out) {
    return fl_bloom_builder_new(millibits, true, NULL, out);
}

/* ---- Policy --------------------------------------------------------------- */

static const fl_filter_policy_ops fl_bloom_policy_ops;

static char *fl_bloom_make_name(const fl_bloom_policy *p);

/* Made on first use rather than in the factory, so that asking the
 * extractor its name happens inside a wrapper call and reports to its
 * context.  NULL only when out of memory. */
static const char *fl_bloom_name(const fl_filter_policy *self) {
    fl_bloom_policy *p = (fl_bloom_policy *)self;
    if (!p->name) p->name = fl_bloom_make_name(p);
    return p->name;
}

static int fl_bloom_new_builder(const fl_filter_policy *self, fl_filter_builder **out) {
    const fl_bloom_policy *p = (const fl_bloom_policy *)self;
    return fl_bloom_builder_new(p->millibits, p->whole_key, p->extractor, out);
}

static int fl_bloom_decode(const fl_filter_policy *self, fl_slice data, fl_filter **out) {
    const fl_bloom_policy *p = (const fl_bloom_policy *)self;
    return fl_bloom_decode_bytes(data, p->whole_key, p->extractor, out);
}

static size_t fl_bloom_estimate_size(const fl_filter_policy *self, size_t num_keys) {
    uint64_t lines = fl_bloom_lines_for(num_keys, ((const fl_bloom_policy *)self)->millibits);
    if (lines > (SIZE_MAX - FL_BLOOM_HEADER) / FL_BLOOM_LINE_BYTES) return SIZE_MAX;
    return FL_BLOOM_HEADER + (size_t)lines * FL_BLOOM_LINE_BYTES;
}

static void fl_bloom_policy_destroy(fl_filter_policy *self) {
    fl_bloom_policy *p = (fl_bloom_policy *)self;
    fl_call_extractor_destroy(NULL, p->extractor);
    free(p->name);
    free(p);
}

static const fl_filter_policy_ops fl_bloom_policy_ops = {
    fl_bloom_name, fl_bloom_new_builder, fl_bloom_decode, fl_bloom_estimate_size,
    fl_bloom_policy_destroy,
};

bool fl_policy_is_builtin_bloom(const fl_filter_policy *policy) {
    return policy && policy->ops == &fl_bloom_policy_ops;
}

const fl_prefix_extractor *fl_bloom_policy_extractor(const fl_filter_policy *policy) {
    return fl_policy_is_builtin_bloom(policy) ? ((const fl_bloom_policy *)policy)->extractor : NULL;
}

uint64_t fl_bloom_policy_millibits(const fl_filter_policy *policy) {
    return fl_policy_is_builtin_bloom(policy) ? ((const fl_bloom_policy *)policy)->millibits : 0;
}

/* ---- Arguments: bits=, whole_key=, prefix= -------------------------------- */

/* Parses a decimal D+[.D*] or .D+ into millibits, rounding the exact decimal
 * value half away from zero at the millibit (so "7.0005" is 7001 and no
 * binary floating point is involved).  False on anything else, and on any
 * value above 1000 -- decided by the digits, before rounding, so
 * "1000.0001" is refused although it would round to 1000.000. */
static bool fl_parse_millibits(const char *s, uint64_t *out) {
    uint64_t whole = 0, frac = 0;
    size_t digits = 0, frac_digits = 0;
    bool round_up = false, nonzero_frac = false;
    for (; *s >= '0' && *s <= '9'; s++, digits++) {
        whole = whole * 10 + (uint64_t)(*s - '0');
        if (whole > FL_BLOOM_MAX_MILLIBITS / 1000) return false;
    }
    if (*s == '.') {
        for (s++; *s >= '0' && *s <= '9'; s++, frac_digits++) {
            if (*s != '0') nonzero_frac = true;
            if (frac_digits < 3) frac = frac * 10 + (uint64_t)(*s - '0');
            else if (frac_digits == 3) round_up = *s >= '5';
        }
    }
    if (*s || digits + frac_digits == 0) return false;
    if (whole == FL_BLOOM_MAX_MILLIBITS / 1000 && nonzero_frac) return false;
    for (size_t i = frac_digits; i < 3; i++) frac *= 10;
    *out = whole * 1000 + frac + (round_up ? 1 : 0);
    return true;
}

#define FL_BLOOM_ARGS "bits, whole_key, prefix"

/* Applies one ARG=VALUE (already split and trimmed) to the policy. */
static int fl_bloom_arg(const fl_registry *reg, fl_bloom_policy *p, const char *name,
                        const char *value, unsigned *seen, char *err, size_t err_len) {
    static const char *const known[] = { "bits", "whole_key", "prefix" };
    unsigned which = 0;
    while (which < 3 && strcmp(name, known[which]) != 0) which++;
    if (which == 3) {
        fl_errf(err, err_len, "unknown argument '%s'; known arguments: " FL_BLOOM_ARGS, name);
        return FL_ERR_INVALID;
    }
    if (*seen & (1u << which)) {
        fl_errf(err, err_len, "argument '%s' given twice", name);
        return FL_ERR_INVALID;
    }
    *seen |= 1u << which;
    if (which == 2) {
        /* The value is an extractor spec: passed through unchanged, because
         * \xNN escapes are decoded exactly once, by the extractor itself
         * ("prefix=delim:\x2c" is the extractor spec "delim:\x2c"). */
        char xerr[512] = "";
        int rc = fl_registry_make_extractor(reg, value, &p->extractor, xerr, sizeof xerr);
        if (rc != FL_OK) fl_errf(err, err_len, "prefix: %s", xerr);
        return rc;
    }
    /* bits and whole_key: decode \xNN escapes; junk (a bad escape, a NUL)
     * becomes "?", which both parsers reject.  Any value the caller could
     * pass (under 512 bytes) fits, so a long decimal is still a decimal. */
    char text[512];
    size_t len = strlen(value);
    int n = len < sizeof text ? fl_spec_unescape(value, len, text, sizeof text) : -1;
    if (n < 0 || memchr(text, '\0', (size_t)n)) strcpy(text, "?");
    if (which == 0 && !fl_parse_millibits(text, &p->millibits)) {
        fl_errf(err, err_len, "bits: expected a decimal number of bits per key from 0 to 1000 "
                "(like 10 or 7.5); got '%s'", value);
        return FL_ERR_INVALID;
    }
    if (which == 1) {
        if (strcmp(text, "0") != 0 && strcmp(text, "1") != 0) {
            fl_errf(err, err_len, "whole_key: expected 0 or 1; got '%s'", value);
            return FL_ERR_INVALID;
        }
        p->whole_key = text[0] == '1';
    }
    return FL_OK;
}

typedef struct fl_bloom_args {
    const fl_registry *reg;
    fl_bloom_policy *p;
    unsigned seen;
    char *err;
    size_t err_len;
    bool from_arg;                  /* the error is fl_bloom_arg's own */
} fl_bloom_args;

static int fl_bloom_one_arg(void *arg, const char *name, const char *value) {
    fl_bloom_args *ba = arg;
    if (strlen(name) >= 32 || strlen(value) >= 512) {
        fl_errf(ba->err, ba->err_len, "argument '%s=%s' is too long", name, value);
        ba->from_arg = true;
        return FL_ERR_INVALID;
    }
    int rc = fl_bloom_arg(ba->reg, ba->p, name, value, &ba->seen, ba->err, ba->err_len);
    ba->from_arg = rc != FL_OK;
    return rc;
}

/* ARG=VALUE items, split by the spec grammar (fl_spec_args_split). */
static int fl_bloom_parse_args(const fl_registry *reg, fl_bloom_policy *p, const char *args,
                               char *err, size_t err_len) {
    fl_bloom_args ba = { reg, p, 0, err, err_len, false };
    int rc = fl_spec_args_split(args, fl_bloom_one_arg, &ba, err, err_len);
    if (rc == FL_ERR_INVALID && !ba.from_arg && err && err_len) {
        size_t used = strlen(err);
        snprintf(err + used, err_len - used, " with ARG one of " FL_BLOOM_ARGS);
    }
    return rc;
}

/* "_bf", then ":p=<extractor name>" with an extractor, then ":wh=0" when
 * whole-key filtering is off.  bits is deliberately not in the name. */
static char *fl_bloom_make_name(const fl_bloom_policy *p) {
    const char *ex_name = p->extractor ? fl_call_extractor_name(NULL, p->extractor) : "";
    size_t len = strlen("_bf:p=") + strlen(ex_name) + strlen(":wh=0") + 1;
    char *name = malloc(len);
    if (name)
        snprintf(name, len, "_bf%s%s%s", p->extractor ? ":p=" : "", ex_name,
                 p->whole_key ? "" : ":wh=0");
    return name;
}

/* bloom(bits=B, whole_key=0|1, prefix=EXTRACTOR-SPEC).  whole_key=0 without
 * prefix= is accepted: it stores nothing and answers true to everything.
 * The language (SPEC 10 leaves the details open; the model's parser,
 * model/model_spec.c, accepts exactly the same strings): blanks around the
 * arguments, their '=' and their values; ',' splits outside parentheses;
 * bits is D+[.D*] or .D+ and at most 1000 by its digits; bits and
 * whole_key values may use \xNN; names under 32 bytes, values under 512. */
int fl_bloom_factory(const fl_registry *reg, const char *args, fl_filter_policy **out,
                     char *err, size_t err_len) {
    *out = NULL;
    fl_bloom_policy *p = calloc(1, sizeof *p);
    if (!p) return FL_ERR_NOMEM;
    p->base.abi_version = FL_FILTER_ABI_VERSION;
    p->base.ops = &fl_bloom_policy_ops;
    p->millibits = FL_BLOOM_DEFAULT_MB;
    p->whole_key = true;
    int rc = fl_bloom_parse_args(reg, p, args ? args : "", err, err_len);
    if (rc != FL_OK) {
        fl_bloom_policy_destroy(&p->base);
        return rc;
    }
    *out = &p->base;
    return FL_OK;
}
