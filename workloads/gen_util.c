/*
 * gen_util.c -- the generators' tools: growable byte buffers, and the two
 * sets that keep "present" and "absent" honest (an exact key set listing
 * keys in insertion order, placed in its table by a hash of its own read 8
 * bytes at a time, and a fingerprint set for prefixes, by fl_gen_hash).  The
 * seeded PRNG (splitmix64) and the hot byte appends are inline in
 * gen_internal.h.
 *
 * Invariants: the PRNG and the hashes are pure functions of their inputs (no
 * rand(), no addresses), so generation is deterministic; both sets stay at
 * most half full, so a probe always ends at an empty slot.
 */
#include "gen_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- PRNG: inline, in gen_internal.h ----------------------------------- */

/* ---- Byte buffers ------------------------------------------------------- */

void fl_gen_buf_free(fl_gen_buf *b) {
    free(b->p);
    memset(b, 0, sizeof *b);
}

bool fl_gen_buf_reserve(fl_gen_buf *b, size_t extra) {
    if (b->nomem) return false;
    if (extra <= b->cap - b->len) return true;
    size_t cap = b->cap ? b->cap : 64;
    while (cap - b->len < extra) {
        if (cap > SIZE_MAX / 2) { b->nomem = true; return false; }
        cap *= 2;
    }
    uint8_t *grown = realloc(b->p, cap);
    if (!grown) { b->nomem = true; return false; }
    b->p = grown;
    b->cap = cap;
    return true;
}

/* data may point into b itself: its offset survives the realloc. */
void fl_gen_buf_put(fl_gen_buf *b, const void *data, size_t n) {
    uintptr_t d = (uintptr_t)data, base = (uintptr_t)b->p;
    bool inside = b->p && d >= base && d < base + b->cap;
    size_t at = inside ? (size_t)(d - base) : 0;
    if (n == 0 || !fl_gen_buf_reserve(b, n)) return;
    memmove(b->p + b->len, inside ? b->p + at : (const uint8_t *)data, n);
    b->len += n;
}

void fl_gen_buf_str(fl_gen_buf *b, const char *s) { fl_gen_buf_put(b, s, strlen(s)); }

unsigned fl_gen_digits(uint64_t v) {
    unsigned n = 1;
    while (v >= 10) { v /= 10; n++; }
    return n;
}

void fl_gen_buf_dec(fl_gen_buf *b, uint64_t v, unsigned width) {
    char tmp[24];
    unsigned n = fl_gen_digits(v);
    if (width > 20) width = 20;
    if (width < n) width = n;
    for (unsigned i = 0; i < width; i++) {
        tmp[width - 1 - i] = (char)('0' + v % 10);
        v /= 10;
    }
    fl_gen_buf_put(b, tmp, width);
}

void fl_gen_buf_set(fl_gen_buf *b, const uint8_t *data, size_t n) {
    uintptr_t d = (uintptr_t)data, base = (uintptr_t)b->p;
    if (b->p && d >= base && d < base + b->cap) {       /* a part of itself */
        memmove(b->p, data, n);
        b->len = n;
        return;
    }
    b->len = 0;
    fl_gen_buf_put(b, data, n);
}

/* ---- Hashes --------------------------------------------------------------- */

/* FNV-1a over the bytes, then the length and a final mix; the running FNV
 * state after i bytes gives the hash of the i-byte prefix. */
static uint64_t hash_finish(uint64_t fnv, size_t len) {
    uint64_t h = fl_gen_mix64(fnv ^ ((uint64_t)len * 0x9e3779b97f4a7c15ull));
    return h ? h : 1;
}

uint64_t fl_gen_hash(const uint8_t *data, size_t len) {
    uint64_t fnv = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++) fnv = (fnv ^ data[i]) * 0x100000001b3ull;
    return hash_finish(fnv, len);
}

size_t fl_gen_prefix_hashes(const uint8_t *data, size_t len, uint64_t *out, size_t max) {
    uint64_t fnv = 0xcbf29ce484222325ull;
    size_t n = len < max ? len : max;
    for (size_t i = 0; i < n; i++) {
        fnv = (fnv ^ data[i]) * 0x100000001b3ull;
        out[i] = hash_finish(fnv, i + 1);
    }
    return n;
}

/* ---- Key sets ------------------------------------------------------------- */

/* The key sets' own hash, 8 bytes at a time: only where a key sits in the
 * table depends on it, never what the set holds or lists, so it need not
 * be fl_gen_hash (whose values the fingerprint set keeps). */
uint64_t fl_gen_keyset_hash(const uint8_t *data, size_t len) {
    uint64_t h = 0x9e3779b97f4a7c15ull ^ ((uint64_t)len * 0xff51afd7ed558ccdull);
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, data + i, 8);
        h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 29;
    }
    if (i < len) {
        uint64_t w = 0;
        memcpy(&w, data + i, len - i);
        h = (h ^ w) * 0x94d049bb133111ebull;
    }
    return fl_gen_mix64(h);
}

void fl_gen_keyset_free(fl_gen_keyset *s) {
    free(s->arena);
    free(s->off);
    free(s->len);
    free(s->slot);
    memset(s, 0, sizeof *s);
}

static bool key_at_is(const fl_gen_keyset *s, size_t i, const uint8_t *data, size_t len) {
    return s->len[i] == len && (len == 0 || memcmp(s->arena + s->off[i], data, len) == 0);
}

/* The slot holding data, or the empty slot where it would go. */
static size_t keyset_find(const fl_gen_keyset *s, const uint8_t *data, size_t len, uint64_t h) {
    size_t mask = s->slot_cap - 1, i = (size_t)h & mask;
    while (s->slot[i] && !key_at_is(s, s->slot[i] - 1, data, len)) i = (i + 1) & mask;
    return i;
}

bool fl_gen_keyset_has_hashed(const fl_gen_keyset *s, const uint8_t *data, size_t len, uint64_t h) {
    if (!s->slot_cap) return false;
    return s->slot[keyset_find(s, data, len, h)] != 0;
}

bool fl_gen_keyset_has(const fl_gen_keyset *s, const uint8_t *data, size_t len) {
    if (!s->slot_cap) return false;
    return s->slot[keyset_find(s, data, len, fl_gen_keyset_hash(data, len))] != 0;
}

static int keyset_rehash(fl_gen_keyset *s, size_t cap) {
    size_t *slot = calloc(cap, sizeof *slot);
    if (!slot) return -1;
    free(s->slot);
    s->slot = slot;
    s->slot_cap = cap;
    for (size_t k = 0; k < s->count; k++) {
        const uint8_t *d = s->arena + s->off[k];
        s->slot[keyset_find(s, d, s->len[k], fl_gen_keyset_hash(d, s->len[k]))] = k + 1;
    }
    return 0;
}

int fl_gen_keyset_add(fl_gen_keyset *s, const uint8_t *data, size_t len) {
    return fl_gen_keyset_add_hashed(s, data, len, fl_gen_keyset_hash(data, len));
}

int fl_gen_keyset_add_hashed(fl_gen_keyset *s, const uint8_t *data, size_t len, uint64_t h) {
    if (len > UINT32_MAX) return -1;
    if ((s->count + 1) * 2 > s->slot_cap &&
        keyset_rehash(s, s->slot_cap ? s->slot_cap * 2 : 1024) != 0)
        return -1;
    size_t at = keyset_find(s, data, len, h);
    if (s->slot[at]) return 0;
    if (s->count == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        size_t *off = realloc(s->off, cap * sizeof *off);
        if (!off) return -1;
        s->off = off;
        uint32_t *lens = realloc(s->len, cap * sizeof *lens);
        if (!lens) return -1;
        s->len = lens;
        s->cap = cap;
    }
    if (len > s->arena_cap - s->arena_len) {
        size_t cap = s->arena_cap ? s->arena_cap : 4096;
        while (cap - s->arena_len < len) {
            if (cap > SIZE_MAX / 2) return -1;
            cap *= 2;
        }
        uint8_t *grown = realloc(s->arena, cap);
        if (!grown) return -1;
        s->arena = grown;
        s->arena_cap = cap;
    }
    if (len) memcpy(s->arena + s->arena_len, data, len);
    s->off[s->count] = s->arena_len;
    s->len[s->count] = (uint32_t)len;
    s->arena_len += len;
    s->slot[at] = ++s->count;
    return 1;
}

const uint8_t *fl_gen_keyset_key(const fl_gen_keyset *s, size_t i, size_t *len) {
    *len = s->len[i];
    return s->arena ? s->arena + s->off[i] : (const uint8_t *)"";
}

/* ---- Fingerprint sets ----------------------------------------------------- */

void fl_gen_fpset_free(fl_gen_fpset *s) {
    free(s->slot);
    memset(s, 0, sizeof *s);
}

static size_t fpset_find(const fl_gen_fpset *s, uint64_t fp) {
    size_t mask = s->cap - 1, i = (size_t)fl_gen_mix64(fp) & mask;
    while (s->slot[i] && s->slot[i] != fp) i = (i + 1) & mask;
    return i;
}

bool fl_gen_fpset_has(const fl_gen_fpset *s, uint64_t fp) {
    return s->cap && s->slot[fpset_find(s, fp)] == fp;
}

int fl_gen_fpset_add(fl_gen_fpset *s, uint64_t fp) {
    if ((s->count + 1) * 2 > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        uint64_t *slot = calloc(cap, sizeof *slot);
        if (!slot) return -1;
        fl_gen_fpset old = *s;
        s->slot = slot;
        s->cap = cap;
        for (size_t i = 0; i < old.cap; i++)
            if (old.slot[i]) s->slot[fpset_find(s, old.slot[i])] = old.slot[i];
        free(old.slot);
    }
    size_t at = fpset_find(s, fp);
    if (s->slot[at] != fp) {
        s->slot[at] = fp;
        s->count++;
    }
    return 0;
}
