/*
 * model_bloom.c -- the reference built-in bloom of SPEC section 5 (and the
 * Legacy whole-key bloom of SPEC 2.6): what is hashed, how the filter is
 * sized, which bits each hash sets, the byte encoding, the query and the
 * expected false-positive rate (the formula, and the exact rate of a
 * filter's bits).  Written from the SPEC text one bit at a
 * time, with no word tricks, so that it is easy to check by reading.
 *
 * Invariant: `encoded` is the whole filter -- the query reads its bits from
 * those bytes, so a filter that answers right also encodes right -- and a
 * filter that cannot rule a target out (no lines, no extractor, no prefix)
 * answers true.
 *
 * Cost (the checker builds one of these for every SST the engine writes):
 * a build reserves its hash list once, remembers the previous key and
 * prefix in buffers it reuses, and can hand its hashes back
 * (fl_model_bloom_build_hashed) so that the checker does not hash every
 * key again; the exact expected rate counts a line's bits a byte at a time
 * and computes (set / 512)^k once per distinct count of one call, with the
 * same pow and the same summation order as one pow per line (the same
 * double).
 */
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define LINE_BITS  512u
#define LINE_BYTES 64u
#define HEADER_BYTES 6u      /* [version u8][k u8][lines u32 big-endian] */

/* h = XXH3_64bits(bytes, len), seed 0. */
static uint64_t hash_bytes(fl_model_bytes b) {
    static const uint8_t none[1] = { 0 };
    return XXH3_64bits(b.len ? (const void *)b.data : (const void *)none, b.len);
}

/* Byte by byte: the strings compared here are short keys and prefixes. */
static bool same_bytes(const uint8_t *a, size_t alen, fl_model_bytes b) {
    if (alen != b.len) return false;
    for (size_t i = 0; i < alen; i++)
        if (a[i] != b.data[i]) return false;
    return true;
}

/* ---- Sizing ------------------------------------------------------------------ */

unsigned fl_model_bloom_k(uint32_t mb) {
    static const struct { uint32_t max_mb; unsigned k; } table[] = {
        { 2080, 1 }, { 3580, 2 }, { 5100, 3 }, { 6640, 4 }, { 8300, 5 }, { 10070, 6 },
        { 11720, 7 }, { 14000, 8 }, { 16050, 9 }, { 18300, 10 }, { 22000, 11 }, { 25500, 12 },
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (mb <= table[i].max_mb) return table[i].k;
    unsigned k = mb / 2000 - 1;
    return k < 24 ? k : 24;
}

uint64_t fl_model_bloom_lines(uint64_t m, uint32_t mb) {
    uint64_t bits_times_1000 = m * mb;
    return bits_times_1000 / 512000 + (bits_times_1000 % 512000 != 0);
}

static double fp_of(double x, unsigned k) {
    return pow(1.0 - exp(-(double)k * x / LINE_BITS), (double)k);
}

double fl_model_bloom_expected_fp(uint64_t m, uint64_t lines, unsigned k) {
    if (lines == 0) return 1.0;
    double x = (double)m / (double)lines;
    double low = x - sqrt(x);
    return (fp_of(x + sqrt(x), k) + fp_of(low > 0 ? low : 0, k)) / 2.0;
}

/* ---- Bits -------------------------------------------------------------------- */

/* The line of hash h and the first probe; each next probe is a * 0x9E3779B9. */
static uint64_t line_of(uint64_t h, uint64_t lines) { return ((h >> 32) * lines) >> 32; }

static uint8_t *line_bytes(const fl_model_bloom *b, uint64_t line) {
    return b->encoded + HEADER_BYTES + line * LINE_BYTES;
}

static void set_bits(fl_model_bloom *b, uint64_t h) {
    uint8_t *line = line_bytes(b, line_of(h, b->lines));
    uint32_t a = (uint32_t)h;
    for (unsigned i = 0; i < b->k; i++) {
        uint32_t bit = a >> 23;                       /* 0..511 */
        line[bit / 8] |= (uint8_t)(1u << (bit % 8));
        a *= 0x9E3779B9u;
    }
}

/* Every probe is tested (no early exit): the checker asks this for random
 * items about half of whose probes miss, and a branch on each bit would be
 * mispredicted about as often. */
static bool all_bits_set(const fl_model_bloom *b, uint64_t h) {
    const uint8_t *line = line_bytes(b, line_of(h, b->lines));
    uint32_t a = (uint32_t)h;
    unsigned all = 1;
    for (unsigned i = 0; i < b->k && (all & 1); i++) {     /* (a clear bit decides) */
        uint32_t bit = a >> 23;
        all &= (unsigned)line[bit / 8] >> (bit % 8);
        a *= 0x9E3779B9u;
    }
    return all & 1;
}

/* ---- Building ---------------------------------------------------------------- */

void fl_model_bloom_begin(fl_model_bloom *b, const fl_model_bloom_config *cfg) {
    memset(b, 0, sizeof *b);
    b->config = *cfg;
}

static int push_hash(fl_model_bloom *b, uint64_t h) {
    if (b->m == b->hash_cap) {
        size_t cap = b->hash_cap ? 2 * b->hash_cap : 64;
        uint64_t *hashes = realloc(b->hashes, cap * sizeof *hashes);
        if (!hashes) return FL_MODEL_ERR_NOMEM;
        b->hashes = hashes;
        b->hash_cap = cap;
    }
    b->hashes[b->m++] = h;
    return FL_MODEL_OK;
}

/* Replaces *dst (of *dst_len bytes, room for *dst_cap) with a copy of src,
 * growing the buffer only when src does not fit. */
static int remember(uint8_t **dst, size_t *dst_len, size_t *dst_cap, fl_model_bytes src) {
    if (!*dst || src.len > *dst_cap) {
        size_t cap = src.len > 32 ? src.len : 32;
        uint8_t *copy = malloc(cap);
        if (!copy) return FL_MODEL_ERR_NOMEM;
        free(*dst);
        *dst = copy;
        *dst_cap = cap;
    }
    if (src.len) memcpy(*dst, src.data, src.len);
    *dst_len = src.len;
    return FL_MODEL_OK;
}

int fl_model_bloom_add(fl_model_bloom *b, fl_model_bytes key) {
    int rc;
    if (b->built) return FL_MODEL_ERR_INVALID;
    if (b->config.whole_key) {
        /* versions of one key arrive together and hash once (a hash unlike
         * the previous key's is of another key: no bytes to compare) */
        uint64_t h = hash_bytes(key);
        if (!(b->have_prev_key && h == b->prev_key_hash && same_bytes(b->prev_key, b->prev_key_len, key))) {
            if ((rc = push_hash(b, h)) != FL_MODEL_OK) return rc;
            rc = remember(&b->prev_key, &b->prev_key_len, &b->prev_key_cap, key);
            if (rc != FL_MODEL_OK) return rc;
            b->have_prev_key = true;
            b->prev_key_hash = h;
        }
    }
    size_t n = 0;
    if (b->config.has_extractor &&
        fl_model_extractor_prefix_len(&b->config.extractor, FL_MODEL_POINT, key, &n)) {
        fl_model_bytes prefix = { key.data, n };
        /* compared with the last prefix ADDED, not the previous entry's */
        if (!(b->have_prev_prefix && same_bytes(b->prev_prefix, b->prev_prefix_len, prefix))) {
            if ((rc = push_hash(b, hash_bytes(prefix))) != FL_MODEL_OK) return rc;
            rc = remember(&b->prev_prefix, &b->prev_prefix_len, &b->prev_prefix_cap, prefix);
            if (rc != FL_MODEL_OK) return rc;
            b->have_prev_prefix = true;
        }
    }
    return FL_MODEL_OK;
}

/* finish; with keep, the hash list goes to *keep instead of being freed. */
static int finish(fl_model_bloom *b, uint64_t **keep) {
    if (b->built) return FL_MODEL_ERR_INVALID;
    uint64_t lines = fl_model_bloom_lines(b->m, b->config.millibits);
    if (lines > UINT32_MAX) return FL_MODEL_ERR_INVALID;
    size_t len = HEADER_BYTES + (size_t)lines * LINE_BYTES;
    uint8_t *enc = calloc(1, len);
    if (!enc) return FL_MODEL_ERR_NOMEM;
    b->lines = lines;
    b->k = fl_model_bloom_k(b->config.millibits);
    b->encoded = enc;
    b->encoded_len = len;
    enc[0] = 1;
    enc[1] = (uint8_t)b->k;
    enc[2] = (uint8_t)(lines >> 24);
    enc[3] = (uint8_t)(lines >> 16);
    enc[4] = (uint8_t)(lines >> 8);
    enc[5] = (uint8_t)lines;
    if (lines > 0)
        for (uint64_t i = 0; i < b->m; i++) set_bits(b, b->hashes[i]);
    if (keep && b->m) *keep = b->hashes;
    else free(b->hashes);            /* the builder's state is not needed again */
    free(b->prev_key);
    free(b->prev_prefix);
    b->hashes = NULL;
    b->prev_key = b->prev_prefix = NULL;
    b->hash_cap = b->prev_key_cap = b->prev_prefix_cap = 0;
    b->built = true;
    return FL_MODEL_OK;
}

int fl_model_bloom_finish(fl_model_bloom *b) { return finish(b, NULL); }

int fl_model_bloom_build_hashed(fl_model_bloom *b, const fl_model_bloom_config *cfg,
                                const fl_model_bytes *keys, size_t n, fl_model_bloom_hashed *out) {
    fl_model_bloom_begin(b, cfg);
    if (out) out->hashes = NULL;
    /* room for every hash at once: at most one key and one prefix per entry */
    size_t per = (size_t)cfg->whole_key + cfg->has_extractor;
    if (n && per && n <= SIZE_MAX / (per * sizeof *b->hashes)) {
        b->hashes = malloc(n * per * sizeof *b->hashes);
        if (b->hashes) b->hash_cap = n * per;
    }
    uint64_t *key_hash = out && cfg->whole_key ? out->key_hash : NULL;
    for (size_t i = 0; i < n; i++) {
        int rc = fl_model_bloom_add(b, keys[i]);
        if (rc != FL_MODEL_OK) return rc;
        if (key_hash) key_hash[i] = b->prev_key_hash;
    }
    return finish(b, out ? &out->hashes : NULL);
}

int fl_model_bloom_build(fl_model_bloom *b, const fl_model_bloom_config *cfg,
                         const fl_model_bytes *keys, size_t n) {
    return fl_model_bloom_build_hashed(b, cfg, keys, n, NULL);
}

int fl_model_legacy_build_hashed(fl_model_bloom *b, uint32_t millibits,
                                 const fl_model_bytes *keys, size_t n, fl_model_bloom_hashed *out) {
    fl_model_bloom_config cfg = { millibits, true, false, { FL_MODEL_FIXED, 0, 0 } };
    return fl_model_bloom_build_hashed(b, &cfg, keys, n, out);
}

int fl_model_legacy_build(fl_model_bloom *b, uint32_t millibits,
                          const fl_model_bytes *keys, size_t n) {
    return fl_model_legacy_build_hashed(b, millibits, keys, n, NULL);
}

/* ---- Querying ---------------------------------------------------------------- */

bool fl_model_bloom_might_match(const fl_model_bloom *b, fl_model_target_kind kind,
                                fl_model_bytes bytes) {
    if (!b->built || b->lines == 0) return true;
    if (kind == FL_MODEL_POINT && b->config.whole_key)
        return all_bits_set(b, hash_bytes(bytes));
    if (kind != FL_MODEL_POINT && kind != FL_MODEL_PREFIX) return true;
    size_t n = 0;
    if (!b->config.has_extractor ||
        !fl_model_extractor_prefix_len(&b->config.extractor, kind, bytes, &n))
        return true;
    return all_bits_set(b, hash_bytes((fl_model_bytes){ bytes.data, n }));
}

bool fl_model_bloom_probe_hash(const fl_model_bloom *b, uint64_t h) {
    return !b->built || b->lines == 0 || all_bits_set(b, h);
}

/* all_bits_set for up to 8 hashes at once: step i of every hash's running
 * product is taken together, so the multiplies of different hashes, which
 * do not depend on each other, overlap. */
/* The same for exactly four hashes (P9's ghosts), the loops unrolled. */
static unsigned probe_four(const fl_model_bloom *b, const uint64_t *h) {
    const uint8_t *l0 = line_bytes(b, line_of(h[0], b->lines)), *l1 = line_bytes(b, line_of(h[1], b->lines)),
                  *l2 = line_bytes(b, line_of(h[2], b->lines)), *l3 = line_bytes(b, line_of(h[3], b->lines));
    uint32_t a0 = (uint32_t)h[0], a1 = (uint32_t)h[1], a2 = (uint32_t)h[2], a3 = (uint32_t)h[3];
    unsigned m0 = 1, m1 = 1, m2 = 1, m3 = 1;
    for (unsigned i = 0, k = b->k; i < k && (m0 | m1 | m2 | m3); i++) {
        m0 &= (unsigned)l0[(a0 >> 23) / 8] >> ((a0 >> 23) % 8);
        m1 &= (unsigned)l1[(a1 >> 23) / 8] >> ((a1 >> 23) % 8);
        m2 &= (unsigned)l2[(a2 >> 23) / 8] >> ((a2 >> 23) % 8);
        m3 &= (unsigned)l3[(a3 >> 23) / 8] >> ((a3 >> 23) % 8);
        m0 &= 1; m1 &= 1; m2 &= 1; m3 &= 1;
        a0 *= 0x9E3779B9u; a1 *= 0x9E3779B9u; a2 *= 0x9E3779B9u; a3 *= 0x9E3779B9u;
    }
    return m0 | m1 << 1 | m2 << 2 | m3 << 3;
}

unsigned fl_model_bloom_probe_hashes(const fl_model_bloom *b, const uint64_t *h, unsigned n) {
    if (n > 8) n = 8;
    unsigned every = (1u << n) - 1;
    if (!b->built || b->lines == 0) return every;
    if (n == 4) return probe_four(b, h);
    const uint8_t *line[8];
    uint32_t a[8];
    unsigned all[8];
    for (unsigned j = 0; j < n; j++) {
        line[j] = line_bytes(b, line_of(h[j], b->lines));
        a[j] = (uint32_t)h[j];
        all[j] = 1;
    }
    unsigned mask = every;              /* the hashes with every bit so far set */
    for (unsigned i = 0; i < b->k && mask; i++) {
        for (unsigned j = 0; j < n; j++) {
            uint32_t bit = a[j] >> 23;
            all[j] &= (unsigned)line[j][bit / 8] >> (bit % 8);
            a[j] *= 0x9E3779B9u;
        }
        mask = 0;
        for (unsigned j = 0; j < n; j++) mask |= (all[j] & 1) << j;
    }
    return mask;
}

double fl_model_bloom_expected_exact(const fl_model_bloom *b) {
    if (!b->built || b->lines == 0) return 1.0;
    /* term[set] = (set / 512)^k, computed the first time a line has `set`
     * bits (the same pow call as per line, so the same double) */
    double term[LINE_BITS + 1];
    bool have[LINE_BITS + 1];
    memset(have, 0, sizeof have);
    double sum = 0;
    for (uint64_t line = 0; line < b->lines; line++) {
        const uint8_t *bytes = line_bytes(b, line);
        unsigned set = 0;
        for (unsigned i = 0; i < LINE_BYTES; i++) set += (unsigned)__builtin_popcount(bytes[i]);
        if (!have[set]) {
            term[set] = pow((double)set / LINE_BITS, (double)b->k);
            have[set] = true;
        }
        sum += term[set];
    }
    return sum / (double)b->lines;
}

void fl_model_bloom_free(fl_model_bloom *b) {
    free(b->encoded);
    free(b->hashes);
    free(b->prev_key);
    free(b->prev_prefix);
    memset(b, 0, sizeof *b);
}

/* ---- Decoding ------------------------------------------------------------------ */

/* Reads the encoding of SPEC 5 byte by byte: [1][k][lines u32 BE][lines*64].
 * Anything else is malformed: wrong version, a length that is not exactly
 * 6 + 64 * lines, or k of 0 or above 30 while lines > 0. */
int fl_model_bloom_decode(fl_model_bloom *b, const fl_model_bloom_config *cfg,
                          const uint8_t *bytes, size_t len) {
    memset(b, 0, sizeof *b);
    b->config = *cfg;
    if (len < HEADER_BYTES || bytes[0] != 1) return FL_MODEL_ERR_INVALID;
    uint64_t lines = 0;
    for (int i = 2; i < 6; i++) lines = lines * 256 + bytes[i];
    if ((uint64_t)(len - HEADER_BYTES) / LINE_BYTES != lines || (len - HEADER_BYTES) % LINE_BYTES)
        return FL_MODEL_ERR_INVALID;
    if (lines > 0 && (bytes[1] == 0 || bytes[1] > 30)) return FL_MODEL_ERR_INVALID;
    b->encoded = malloc(len);
    if (!b->encoded) return FL_MODEL_ERR_NOMEM;
    memcpy(b->encoded, bytes, len);
    b->encoded_len = len;
    b->k = bytes[1];
    b->lines = lines;
    b->built = true;
    return FL_MODEL_OK;
}
