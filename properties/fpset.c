/*
 * fpset.c -- a set of 64-bit fingerprints (open addressing, linear probing,
 * grown at half full).  A lookup may say "present" for an input that was
 * never added when two inputs share a fingerprint, never the other way
 * round: callers use "absent" to skip work that could only find nothing.
 */
#include "check_internal.h"

#include <stdlib.h>
#define XXH_INLINE_ALL          /* XXH3 inlined: a fingerprint per probe checked */
#include <xxhash.h>

uint64_t ck_key_hash(const void *data, size_t len) { return XXH3_64bits(data, len); }

uint64_t ck_fingerprint(const void *data, size_t len, uint64_t seed) {
    uint64_t h = XXH3_64bits_withSeed(data, len, seed);
    return h ? h : 1;                   /* 0 marks an empty slot */
}

void ck_slots_rehash(const uint64_t *from, size_t from_cap, uint64_t *to, size_t to_cap, unsigned home_shift) {
    for (size_t i = 0; i < from_cap; i++) {
        if (!from[i]) continue;
        size_t j = (from[i] >> home_shift) & (to_cap - 1);
        while (to[j]) j = (j + 1) & (to_cap - 1);
        to[j] = from[i];
    }
}

/* Grows the table to at least cap slots (a power of two); false when out
 * of memory (the set is unchanged). */
static bool grow(ck_fpset *s, size_t cap) {
    uint64_t *n = calloc(cap, sizeof *n);
    if (!n) return false;
    ck_slots_rehash(s->slots, s->cap, n, cap, 0);
    free(s->slots);
    s->slots = n;
    s->cap = cap;
    return true;
}

void ck_fpset_reserve(ck_fpset *s, size_t n) {
    size_t cap = s->cap ? s->cap : 1024;
    while (cap < 2 * n + 2 && cap < SIZE_MAX / 4) cap *= 2;
    if (cap > s->cap) grow(s, cap);
}

/* The next size: four times, while that is small (fewer rehashes of a set
 * that fills fast: a checked get of a new key adds a dozen P7 inputs),
 * then twice, so that a large set stays at least a quarter full: its
 * slots are as few cache lines as linear probing allows. */
static size_t next_cap(const ck_fpset *s) {
    return !s->cap ? 1024 : s->cap < ((size_t)1 << 16) ? 4 * s->cap : 2 * s->cap;
}

bool ck_fpset_add(ck_fpset *s, uint64_t h) {
    if (s->count * 2 >= s->cap && !grow(s, next_cap(s)))
        return true;                    /* treated as new: the check runs again */
    size_t j = h & (s->cap - 1);
    while (s->slots[j]) {
        if (s->slots[j] == h) return false;
        j = (j + 1) & (s->cap - 1);
    }
    s->slots[j] = h;
    s->count++;
    return true;
}

void ck_fpset_prefetch(const ck_fpset *s, uint64_t h) {
    if (s->cap) __builtin_prefetch(&s->slots[h & (s->cap - 1)]);
}

bool ck_fpset_has(const ck_fpset *s, uint64_t h) {
    if (!s->cap) return false;
    for (size_t j = h & (s->cap - 1); s->slots[j]; j = (j + 1) & (s->cap - 1))
        if (s->slots[j] == h) return true;
    return false;
}

void ck_fpset_free(ck_fpset *s) {
    free(s->slots);
    s->slots = NULL;
    s->cap = s->count = 0;
}
