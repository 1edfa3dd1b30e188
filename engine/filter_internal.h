/*
 * filter_internal.h -- the engine's side of the filter subsystem: buffers,
 * the registry's lifecycle, policy lists, the built-in bloom's extras, and the
 * wrappers through which the engine calls every policy, builder, filter and
 * extractor (SQLite's sqlite3OsRead pattern: one place to count, check and
 * trace every plugin call).
 *
 * Not part of the plugin ABI: plugins see only filter.h.
 */
#ifndef FL_FILTER_INTERNAL_H
#define FL_FILTER_INTERNAL_H

#include "engine.h"

/* ---- fl_buf writers (struct fl_buf is in engine.h) ---------------------- */

int  fl_buf_put_u8(fl_buf *buf, uint8_t v);
int  fl_buf_put_be16(fl_buf *buf, uint16_t v);
int  fl_buf_put_be32(fl_buf *buf, uint32_t v);
int  fl_buf_put_be64(fl_buf *buf, uint64_t v);
int  fl_buf_put_varint(fl_buf *buf, uint64_t v); /* LEB128, 7 bits a byte  */

/* ---- Byte helpers (bounds are the caller's) ----------------------------- */

static inline uint16_t fl_get_be16(const uint8_t *p) { return (uint16_t)((p[0] << 8) | p[1]); }
static inline uint32_t fl_get_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static inline uint64_t fl_get_be64(const uint8_t *p) {
    return ((uint64_t)fl_get_be32(p) << 32) | fl_get_be32(p + 4);
}
/* Decodes a LEB128 varint from [*p, end); advances *p.  FL_ERR_CORRUPT on
 * truncation or more than 10 bytes.  Varints of one to three bytes, the
 * common case of every entry's lengths and sequence numbers, are decoded
 * inline; longer ones (and any near the end) by fl_get_varint_long. */
int fl_get_varint_long(const uint8_t **p, const uint8_t *end, uint64_t *v);
static inline int fl_get_varint(const uint8_t **p, const uint8_t *end, uint64_t *v) {
    const uint8_t *q = *p;
    if (q < end && !(q[0] & 0x80)) {
        *v = q[0];
        *p = q + 1;
        return FL_OK;
    }
    if (end - q >= 3) {
        if (!(q[1] & 0x80)) {
            *v = (uint64_t)(q[0] & 0x7f) | (uint64_t)q[1] << 7;
            *p = q + 2;
            return FL_OK;
        }
        if (!(q[2] & 0x80)) {
            *v = (uint64_t)(q[0] & 0x7f) | (uint64_t)(q[1] & 0x7f) << 7 | (uint64_t)q[2] << 14;
            *p = q + 3;
            return FL_OK;
        }
    }
    return fl_get_varint_long(p, end, v);
}

/* Writes v as a LEB128 varint at p (at most 10 bytes); returns the end. */
static inline uint8_t *fl_put_varint(uint8_t *p, uint64_t v) {
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

/* Decodes \xNN escapes (and nothing else) of a spec argument into out.
 * Returns the decoded length, or -1 on a bad escape or overflow. */
int fl_spec_unescape(const char *in, size_t in_len, char *out, size_t out_cap);

/* ---- Built-in bloom extras (SPEC section 5) ---------------------------- */

/* k for a given bits per key in millibits (the table of section 5). */
unsigned fl_bloom_probes_for_millibits(uint64_t millibits);

/* 0x9E3779B9^i mod 2^32, i < 32 (the largest k a decoder accepts, 30,
 * rounded up to batches of 8): probe i of hash h tests bit
 * ((uint32_t)h * fl_bloom_mul[i]) >> 23 of its line. */
extern const uint32_t fl_bloom_mul[32];
#define FL_BLOOM_LINE_BYTES 64         /* 512 bits                      */
#define FL_BLOOM_MAX_K      30         /* larger stored k is malformed  */
/* The line of hash h in a filter of `lines` lines (SPEC 5). */
static inline uint8_t *fl_bloom_line(const uint8_t *bits, uint32_t lines, uint64_t h) {
    uint64_t line = ((h >> 32) * lines) >> 32;
    return (uint8_t *)bits + line * FL_BLOOM_LINE_BYTES;
}
/* Specialized on k: each common k gets its own unrolled loop, the rest
 * (k above 12, only from bits per key above 25.5) the general one. */
#define FL_BLOOM_BY_K(k, CALL)                                                        \
    switch (k) {                                                                      \
    case 1: CALL(1); case 2: CALL(2); case 3: CALL(3); case 4: CALL(4);               \
    case 5: CALL(5); case 6: CALL(6); case 7: CALL(7); case 8: CALL(8);               \
    case 9: CALL(9); case 10: CALL(10); case 11: CALL(11); case 12: CALL(12);         \
    default: CALL(k);                                                                 \
    }


/* The probe kernels, each wider one needing the one before it. */
typedef enum fl_bloom_kernel { FL_BLOOM_SCALAR, FL_BLOOM_AVX2, FL_BLOOM_AVX512 } fl_bloom_kernel;
/* The probe of one 64-byte line for a = (uint32_t)h with k probes, with
 * the given kernel or, when the CPU (or FILTERLAB_NO_SIMD, FILTERLAB_SIMD)
 * rules it out, the best one below it.  Filters pick the best kernel by
 * themselves; this is for tests that compare them. */
bool fl_bloom_line_test(const uint8_t *line, uint32_t a, unsigned k, fl_bloom_kernel kernel);
/* Sets the bits of `count` hashes in a filter of `lines` lines (zeroed or
 * not: bits are only ever set) with k probes, with the given kernel or the
 * best one below it as for fl_bloom_line_test.  Every kernel sets the same
 * bits; builds use the best one, and tests compare them. */
void fl_bloom_set_lines(uint8_t *bits, uint32_t lines, unsigned k, const uint64_t *hashes, size_t count,
                        fl_bloom_kernel kernel);
/* The kernel filters use here. */
fl_bloom_kernel fl_bloom_best_kernel(void);
/* The hashes a filter of these bits probably held (bloom_bits.c): for a
 * decoded filter, whose builder's count is not stored. */
uint64_t fl_bloom_lines_estimate_m(const uint8_t *bits, uint32_t lines, unsigned k);

/* The cache-local formula of SPEC 5 for m hashes in `lines` lines with k
 * probes; 1.0 when lines == 0.  The theory curve, for sizing and reports:
 * a built filter's own rate is fl_bloom_filter_expected_fp. */
double fl_bloom_expected_fp(uint64_t m, uint64_t lines, unsigned k);

/* A built-in bloom policy's extractor (borrowed), or NULL. */
const fl_prefix_extractor *fl_bloom_policy_extractor(const fl_filter_policy *policy);
/* (fl_bloom_policy_millibits is public: engine.h.) */

/* A builder of a whole-key, no-extractor bloom (the Legacy writer). */
int fl_bloom_legacy_builder(uint64_t millibits, fl_filter_builder **out);
/* Decodes Legacy filter bytes as a whole-key bloom with no extractor. */
int fl_bloom_legacy_decode(fl_slice data, fl_filter **out);

/* For a built-in bloom filter: lines, k and m (hashes added; exact for a
 * built filter, estimated from bit occupancy for a decoded one).  Returns
 * false for any other filter. */
bool fl_bloom_filter_stats(const fl_filter *filter, uint64_t *m, uint64_t *lines, unsigned *k);

/* For a built-in bloom filter: the expected FP rate exact given its bits,
 * the mean over its lines of (bits set / 512)^k (SPEC 5; 1.0 without
 * lines), computed once when the filter was built or decoded.  Returns
 * false (and leaves *rate) for any other filter. */
bool fl_bloom_filter_expected_fp(const fl_filter *filter, double *rate);

/* For a built-in bloom filter: true when the query is answered by probing
 * the bit array, false when it answers true because it cannot tell
 * (no extractor, extractor says none, lines == 0). */
bool fl_bloom_filter_probes(fl_calls *calls, const fl_filter *filter, const fl_filter_query *query);

#endif /* FL_FILTER_INTERNAL_H */
