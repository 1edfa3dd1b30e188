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

/* a key's bytes, kept while the next is decoded */
typedef fl_buf kbuf;

/* memcpy that takes n = 0 with NULL pointers (an empty key's buffer) */
static inline void copy(uint8_t *dst, const uint8_t *src, size_t n) {
    if (n) memcpy(dst, src, n);
}

/* Room for n bytes of key in k (its len unchanged), never NULL after
 * (data + 0 must be valid): false when memory runs out. */
static inline bool kbuf_fit(kbuf *k, size_t n) {
    if (n == 0) n = 1;
    return fl_buf_reserve(k, n > k->len ? n - k->len : 0) == FL_OK && k->data;
}

#endif /* FL_SLATEDB_SST_INTERNAL_H */
