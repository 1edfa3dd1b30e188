/*
 * slatedb_sst_internal.h -- what the two files of filterlab's reader of
 * SlateDB's SSTs share: slatedb_sst.c (the file: regions, FlatBuffers,
 * data blocks) and slatedb_bloom.c (SlateDB's bloom).  Their error helper,
 * a big-endian u16 and a growable key buffer; included only by files of
 * adapters/slatedb/.  The reader's contract is slatedb_sst.h.
 */
#ifndef FL_SLATEDB_SST_INTERNAL_H
#define FL_SLATEDB_SST_INTERNAL_H

#include "slatedb_sst.h"

#include <stdlib.h>
#include <string.h>

/* code, with err "slatedb sst: WHAT" (engine.h) */
#define fail(err, cap, code, ...) fl_fail(err, cap, code, "slatedb sst: " __VA_ARGS__)

static inline uint16_t be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

typedef struct kbuf { uint8_t *p; size_t len, cap; } kbuf;

/* memcpy that takes n = 0 with NULL pointers (an empty key's buffer) */
static inline void copy(uint8_t *dst, const uint8_t *src, size_t n) {
    if (n) memcpy(dst, src, n);
}

static inline bool kbuf_fit(kbuf *k, size_t n) {
    if (n <= k->cap && k->p) return true;   /* (never NULL after: p + 0 must be valid) */
    size_t c = k->cap ? k->cap : 64;
    while (c < n) c = c > SIZE_MAX / 2 ? n : c * 2;
    uint8_t *p = realloc(k->p, c);
    if (!p) return false;
    k->p = p;
    k->cap = c;
    return true;
}

#endif /* FL_SLATEDB_SST_INTERNAL_H */
