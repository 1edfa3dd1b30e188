/*
 * bloom_bits.c -- the built-in bloom's bits once its hashes are known
 * (SPEC 5): setting them (fl_bloom_set_lines, the scalar way or, on x86-64
 * with AVX-512, eight hashes at a time) and the expected FP rate they give
 * (fl_bloom_lines_expected_fp, exact given the bits; fl_bloom_expected_fp,
 * the spec's formula), and the number of hashes a decoded filter's bits
 * suggest (fl_bloom_lines_estimate_m).  Called once per build or decode,
 * never per probe: the probe and the rest of the policy are bloom.c.
 */
#include "registry_internal.h"

#include <math.h>
#include <string.h>

/* Sets the k bits; on a little-endian CPU through the line's 64-bit words
 * (bit b is bit b % 64 of word b / 64 there, the same bit as bit b % 8 of
 * byte b / 8), fewer and wider stores than one per byte. */
static inline __attribute__((always_inline))
void fl_bloom_set_k(uint8_t *line, uint32_t a, unsigned k) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    typedef uint64_t __attribute__((may_alias)) word;
    word *w = (word *)(void *)line;          /* 8-byte aligned: calloc, 64-byte lines */
#pragma GCC unroll 12
    for (unsigned i = 0; i < k; i++) {
        uint32_t bit = (a * fl_bloom_mul[i]) >> 23;
        w[bit >> 6] |= 1ull << (bit & 63);
    }
#else
#pragma GCC unroll 12
    for (unsigned i = 0; i < k; i++) {
        uint32_t bit = (a * fl_bloom_mul[i]) >> 23;
        line[bit >> 3] |= (uint8_t)(1u << (bit & 7));
    }
#endif
}

/* Adds every hash to the filter's bits, the switch on k taken once. */
static void fl_bloom_set_scalar(uint8_t *bits, uint32_t lines, unsigned k, const uint64_t *hashes,
                                size_t count) {
#define FL_SET(K)                                                                       \
    for (size_t i = 0; i < count; i++)                                                  \
        fl_bloom_set_k(fl_bloom_line(bits, lines, hashes[i]), (uint32_t)hashes[i], K);  \
    return
    FL_BLOOM_BY_K(k, FL_SET)
#undef FL_SET
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/* The build's kernel with AVX-512 (x86-64, chosen at run time), eight
 * hashes at a time.  Each line gets one read-modify-write of its 64 bytes,
 * its k bits first gathered in two 256-bit registers seen as sixteen
 * little-endian 32-bit words (bit b of the line is bit b % 32 of word
 * b / 32, the same bit as bit b % 8 of byte b / 8): for product p, a masked
 * OR of 1 << ((p >> 23) & 31) into word p >> 28 (the mask 1 << (p >> 28),
 * its low and high bytes for the two halves).  No 512-bit register: they
 * slow the clock of the whole core (a 512-bit probe cost replay 4.5%).  The
 * products and those two values are computed for the eight hashes at once
 * (256-bit registers, one multiply per probe), one batch ahead of the
 * batch whose bits are set, so that the addresses of the line updates are
 * known early.  Hashes past the last multiple of eight go the scalar way.
 * A filter larger than the caches' share (FL_BLOOM_PREFETCH_BYTES) has the
 * lines of the hashes FL_BLOOM_PREFETCH_AHEAD batches ahead fetched while
 * these are set.  Which probe of which hash is set first does not change
 * the bits: tests/test_bloom.c compares the kernels' filters. */
#define FL_BLOOM_PREFETCH_BYTES ((size_t)1 << 20)
#define FL_BLOOM_PREFETCH_AHEAD 4

typedef struct fl_bloom_batch {
    uint32_t word[FL_BLOOM_MAX_K][8];   /* probe j of hash r: 1 << (p >> 28)          */
    uint32_t bit[FL_BLOOM_MAX_K][8];    /* and 1 << ((p >> 23) & 31)                  */
    uint64_t base[8];                   /* hash r's line, in bytes from the first     */
} fl_bloom_batch;

/* The byte offsets of the lines of four hashes: ((h >> 32) * lines) >> 32, times 64. */
__attribute__((target("avx2"), always_inline))
static inline __m256i fl_bloom_line_offsets_avx2(__m256i h, __m256i lines) {
    return _mm256_slli_epi64(_mm256_srli_epi64(_mm256_mul_epu32(_mm256_srli_epi64(h, 32), lines), 32), 6);
}

__attribute__((target("avx2"), always_inline))
static inline void fl_bloom_batch_avx2(fl_bloom_batch *out, __m256i lines_v, const uint64_t *hashes,
                                       unsigned k) {
    __m256i h0 = _mm256_loadu_si256((const __m256i *)(const void *)hashes);
    __m256i h1 = _mm256_loadu_si256((const __m256i *)(const void *)(hashes + 4));
    _mm256_storeu_si256((__m256i *)(void *)out->base, fl_bloom_line_offsets_avx2(h0, lines_v));
    _mm256_storeu_si256((__m256i *)(void *)(out->base + 4), fl_bloom_line_offsets_avx2(h1, lines_v));
    /* a = (uint32_t)h of the eight: the low halves, 0 1 4 5 | 2 3 6 7, put in order */
    __m256i a = _mm256_permutevar8x32_epi32(
        _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(h0), _mm256_castsi256_ps(h1),
                                              _MM_SHUFFLE(2, 0, 2, 0))),
        _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7));
    __m256i one = _mm256_set1_epi32(1);
#pragma GCC unroll 12
    for (unsigned j = 0; j < k; j++) {
        __m256i p = _mm256_mullo_epi32(a, _mm256_set1_epi32((int)fl_bloom_mul[j]));
        _mm256_storeu_si256((__m256i *)(void *)out->word[j], _mm256_sllv_epi32(one, _mm256_srli_epi32(p, 28)));
        _mm256_storeu_si256((__m256i *)(void *)out->bit[j],
                            _mm256_sllv_epi32(one, _mm256_srli_epi32(_mm256_slli_epi32(p, 4), 27)));
    }
}

__attribute__((target("avx2,avx512f,avx512vl"), always_inline))
static inline void fl_bloom_batch_set_avx512(uint8_t *bits, const fl_bloom_batch *in, unsigned k) {
    for (unsigned r = 0; r < 8; r++) {
        /* the line's halves, words 0-7 and 8-15: 256-bit registers only,
         * which keep the core at its AVX2 clock (as the probe does) */
        __m256i lo = _mm256_setzero_si256(), hi = _mm256_setzero_si256();
#pragma GCC unroll 12
        for (unsigned j = 0; j < k; j++) {
            unsigned m = in->word[j][r];
            __m256i bit = _mm256_set1_epi32((int)in->bit[j][r]);
            lo = _mm256_mask_or_epi32(lo, (__mmask8)m, lo, bit);
            hi = _mm256_mask_or_epi32(hi, (__mmask8)(m >> 8), hi, bit);
        }
        uint8_t *line = bits + in->base[r];
        _mm256_storeu_si256((__m256i *)(void *)line,
                            _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(const void *)line), lo));
        _mm256_storeu_si256((__m256i *)(void *)(line + 32),
                            _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(const void *)(line + 32)), hi));
    }
}

/* Fetches the lines of eight hashes. */
__attribute__((target("avx2"), always_inline))
static inline void fl_bloom_prefetch8_avx2(const uint8_t *bits, __m256i lines_v, const uint64_t *hashes) {
    uint64_t base[8];
    __m256i h0 = _mm256_loadu_si256((const __m256i *)(const void *)hashes);
    __m256i h1 = _mm256_loadu_si256((const __m256i *)(const void *)(hashes + 4));
    _mm256_storeu_si256((__m256i *)(void *)base, fl_bloom_line_offsets_avx2(h0, lines_v));
    _mm256_storeu_si256((__m256i *)(void *)(base + 4), fl_bloom_line_offsets_avx2(h1, lines_v));
    for (unsigned r = 0; r < 8; r++) _mm_prefetch((const char *)bits + base[r], _MM_HINT_T0);
}

__attribute__((target("avx2,avx512f,avx512vl"), always_inline))
static inline void fl_bloom_set_avx512_k(uint8_t *bits, uint32_t lines, unsigned k, const uint64_t *hashes,
                                         size_t count) {
    __m256i lines_v = _mm256_set1_epi64x(lines);
    fl_bloom_batch batch[2];
    size_t batches = count / 8;
    bool prefetch = (size_t)lines * FL_BLOOM_LINE_BYTES >= FL_BLOOM_PREFETCH_BYTES;
    if (batches) {
        if (prefetch)
            for (size_t g = 0; g < FL_BLOOM_PREFETCH_AHEAD && g < batches; g++)
                fl_bloom_prefetch8_avx2(bits, lines_v, hashes + 8 * g);
        fl_bloom_batch_avx2(&batch[0], lines_v, hashes, k);
        for (size_t g = 1; g < batches; g++) {
            if (prefetch && g + FL_BLOOM_PREFETCH_AHEAD < batches)
                fl_bloom_prefetch8_avx2(bits, lines_v, hashes + 8 * (g + FL_BLOOM_PREFETCH_AHEAD));
            fl_bloom_batch_avx2(&batch[g & 1], lines_v, hashes + 8 * g, k);
            fl_bloom_batch_set_avx512(bits, &batch[(g - 1) & 1], k);
        }
        fl_bloom_batch_set_avx512(bits, &batch[(batches - 1) & 1], k);
    }
    for (size_t i = 8 * batches; i < count; i++)
        fl_bloom_set_k(fl_bloom_line(bits, lines, hashes[i]), (uint32_t)hashes[i], k);
}

__attribute__((target("avx2,avx512f,avx512vl")))
static void fl_bloom_set_avx512(uint8_t *bits, uint32_t lines, unsigned k, const uint64_t *hashes,
                                size_t count) {
#define FL_SET(K) fl_bloom_set_avx512_k(bits, lines, K, hashes, count); return
    FL_BLOOM_BY_K(k, FL_SET)
#undef FL_SET
}
#else
static void fl_bloom_set_avx512(uint8_t *bits, uint32_t lines, unsigned k, const uint64_t *hashes,
                                size_t count) {
    fl_bloom_set_scalar(bits, lines, k, hashes, count);
}
#endif

void fl_bloom_set_lines(uint8_t *bits, uint32_t lines, unsigned k, const uint64_t *hashes, size_t count,
                        fl_bloom_kernel kernel) {
    if (kernel > fl_bloom_best_kernel()) kernel = fl_bloom_best_kernel();
    if (kernel == FL_BLOOM_AVX512) fl_bloom_set_avx512(bits, lines, k, hashes, count);
    else fl_bloom_set_scalar(bits, lines, k, hashes, count);
}

static double fl_bloom_f(double x, unsigned k) {
    return pow(1.0 - exp(-(double)k * x / 512.0), (double)k);
}

double fl_bloom_expected_fp(uint64_t m, uint64_t lines, unsigned k) {
    if (lines == 0) return 1.0;
    double x = (double)m / (double)lines, s = sqrt(x);
    double lo = x - s < 0 ? 0 : x - s;
    return (fl_bloom_f(x + s, k) + fl_bloom_f(lo, k)) / 2.0;
}

/* The bits set in one 64-byte line (eight little-endian-agnostic 64-bit
 * words counted with the usual SWAR sums: no popcount instruction is
 * assumed of the target). */
static unsigned fl_bloom_line_bits_set(const uint8_t *line) {
    unsigned set = 0;
    for (size_t i = 0; i < FL_BLOOM_LINE_BYTES; i += 8) {
        uint64_t w;
        memcpy(&w, line + i, 8);
        w = w - ((w >> 1) & 0x5555555555555555u);
        w = (w & 0x3333333333333333u) + ((w >> 2) & 0x3333333333333333u);
        w = (w + (w >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
        set += (unsigned)((w * 0x0101010101010101u) >> 56);
    }
    return set;
}

/* (c / 512)^k for c = 0..512 bits set and every k a decoder accepts, as
 * the bits of the double, 0 while not computed yet (every term but c = 0,
 * which is 0.0 and never cached, is positive: at least 2^-270).  Filled on
 * demand by any thread, with relaxed atomics: threads that race store the
 * same bits.  4 KiB per k, touched only for the k in use. */
static uint64_t fl_bloom_terms[FL_BLOOM_MAX_K + 1][FL_BLOOM_LINE_BYTES * 8 + 1];

static double fl_bloom_term(unsigned set, unsigned k) {
    if (set == 0) return 0.0;
    if (k > FL_BLOOM_MAX_K) return pow(set / 512.0, (double)k);
    uint64_t cached = __atomic_load_n(&fl_bloom_terms[k][set], __ATOMIC_RELAXED);
    double term;
    if (cached) {
        memcpy(&term, &cached, sizeof term);
        return term;
    }
    term = pow(set / 512.0, (double)k);
    memcpy(&cached, &term, sizeof cached);
    __atomic_store_n(&fl_bloom_terms[k][set], cached, __ATOMIC_RELAXED);
    return term;
}

/* The expected FP rate given the bits (SPEC 5; engine.h).  Computed once
 * per filter, when it is built or decoded.  pow() is taken once per
 * count of set bits and k in the process (fl_bloom_term), and the terms
 * are summed line by line in line order, so the sum is the same, to the
 * last bit, as one pow() per line. */
double fl_bloom_lines_expected_fp(const uint8_t *bits, uint32_t lines, unsigned k) {
    if (lines == 0) return 1.0;
    double sum = 0;
    for (size_t line = 0; line < lines; line++)
        sum += fl_bloom_term(fl_bloom_line_bits_set(bits + line * FL_BLOOM_LINE_BYTES), k);
    return sum / lines;
}

/* Estimates m (the hashes added) of a decoded filter from its bit occupancy, line by line.  A
 * line holding x hashes has each bit still clear with probability
 * (1 - 1/512)^(k x), so a line with b bits set held about
 *     x = ln(1 - b / 512) / (k * ln(1 - 1/512))
 * hashes, and m is the sum over lines.  Estimating per line matters: lines
 * hold unequal numbers of hashes, and one filter-wide occupancy would
 * under-count the fuller lines (by about 3% at 10 bits/key).  A saturated
 * line counts as half a bit short of full. */
uint64_t fl_bloom_lines_estimate_m(const uint8_t *bits, uint32_t lines, unsigned k) {
    if (lines == 0 || k == 0) return 0;
    double m = 0, per_hash = k * log(1.0 - 1.0 / 512.0);
    for (size_t line = 0; line < lines; line++) {
        unsigned set = fl_bloom_line_bits_set(bits + line * FL_BLOOM_LINE_BYTES);
        double b = set >= 512 ? 511.5 : (double)set;
        m += log(1.0 - b / 512.0) / per_hash;
    }
    return (uint64_t)llround(m);
}

/* The exact FP rate of a RocksDB legacy full filter / Pebble table bloom
 * (engine.h).  A probe of hash h: line h mod L; then, delta = rotr(h, 17),
 * probe j tests bit (h + j delta) mod 2^32 mod C of the line.  With
 * C = 2^c, 3 <= c <= 15, write h = x + 2^c m + 2^17 y + 2^(17+c) n (x, y
 * < 2^c; m < 2^(17-c); n < 2^(15-c)): h mod C = x and delta mod C = y
 * (the low c bits of h >> 17; h << 15 adds nothing below bit 15), so the
 * probes are (x + j y) mod C -- a function of x and y alone -- and the line
 * is (x + 2^17 y + r) mod L with r = (2^c m + 2^(17+c) n) mod L.  So
 *     P = 2^-32 sum_{line l} sum_y sum_{x passing in l with stride y} D[(l - x - 2^17 y) mod L]
 * where D[r] counts the (m, n) giving r, and "x passes with stride y" is
 * bit x of AND_{j<k} rot(line, j y) (rot(B, s)[x] = B[(x + s) mod C]).
 * The sum is an integer count of hashes, exact in a double. */

bool fl_bloom_legacy_probe(const uint8_t *bits, uint32_t lines, uint32_t line_bits, unsigned k, uint32_t h) {
    uint32_t delta = h >> 17 | h << 15;
    uint32_t base = (h % lines) * line_bits;           /* u32 arithmetic, as the writers' */
    for (unsigned j = 0; j < k; j++) {
        uint32_t pos = base + h % line_bits;
        if (!(bits[pos / 8] & (1u << (pos % 8)))) return false;
        h += delta;
    }
    return true;
}

/* out[x] = in[(x + s) mod C] over C bits (w words of 64, or one word when C < 64) */
static void fl_legacy_rot(uint64_t *out, const uint64_t *in, uint32_t C, size_t w, uint32_t s) {
    if (C < 64) {
        uint64_t mask = (1ull << C) - 1;
        out[0] = s ? ((in[0] >> s) | (in[0] << (C - s))) & mask : in[0];
        return;
    }
    size_t q = s / 64;
    unsigned r = s % 64;
    for (size_t i = 0; i < w; i++) {
        uint64_t a = in[(i + q) % w];
        out[i] = r ? (a >> r) | (in[(i + q + 1) % w] << (64 - r)) : a;
    }
}

double fl_bloom_legacy_expected_fp(const uint8_t *bits, uint32_t lines, uint32_t line_bits, unsigned k) {
    if (!bits || lines == 0 || line_bits == 0 || (line_bits & (line_bits - 1))) return -1;
    unsigned c = (unsigned)__builtin_ctz(line_bits);
    if (c < 3 || c > 15) return -1;
    if (k == 0) return 1.0;
    const uint32_t C = line_bits, L = lines;
    const size_t w = C < 64 ? 1 : C / 64, line_bytes = C / 8;
    uint32_t *D = calloc(L, sizeof *D);
    uint64_t *B = malloc(3 * w * sizeof *B);
    if (!D || !B) { free(D); free(B); return -1; }
    uint64_t *M = B + w, *T = B + 2 * w;
    for (uint64_t n = 0; n < (1ull << (15 - c)); n++) {
        uint64_t base = (n << (17 + c)) % L;
        for (uint64_t m = 0; m < (1ull << (17 - c)); m++) D[(base + ((m << c) % L)) % L]++;
    }
    uint64_t passing = 0;
    for (uint32_t l = 0; l < L; l++) {
        const uint8_t *line = bits + (size_t)l * line_bytes;
        memset(B, 0, w * sizeof *B);
        for (size_t i = 0; i < line_bytes; i++) B[i / 8] |= (uint64_t)line[i] << (8 * (i % 8));
        for (uint32_t y = 0; y < C; y++) {
            memcpy(M, B, w * sizeof *M);
            uint64_t any = 1;
            for (unsigned j = 1; j < k && any; j++) {
                fl_legacy_rot(T, B, C, w, (uint32_t)(((uint64_t)j * y) % C));
                any = 0;
                for (size_t i = 0; i < w; i++) any |= (M[i] &= T[i]);
            }
            uint64_t ty = ((uint64_t)y << 17) % L;
            for (size_t i = 0; i < w; i++) {
                for (uint64_t word = M[i]; word; word &= word - 1) {
                    uint64_t x = 64 * i + (unsigned)__builtin_ctzll(word);
                    uint64_t s = (x + ty) % L;
                    passing += D[l >= s ? l - s : l + L - s];
                }
            }
        }
    }
    free(D);
    free(B);
    return (double)passing / 4294967296.0;
}
