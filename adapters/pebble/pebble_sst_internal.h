/*
 * pebble_sst_internal.h -- what the two files of filterlab's reader of
 * Pebble's tables share: pebble_sst.c (the file: footer, blocks, rows,
 * range deletions) and pebble_bloom.c (Pebble's bloom and filter hash).
 * Their error helper and their little-endian u32; included only by files
 * of adapters/pebble/.  The reader's contract is pebble_sst.h.
 */
#ifndef FL_PEBBLE_SST_INTERNAL_H
#define FL_PEBBLE_SST_INTERNAL_H

#include "pebble_sst.h"

/* code, with err "pebble sst: WHAT" (engine.h) */
#define fail(err, cap, code, ...) fl_fail(err, cap, code, "pebble sst: " __VA_ARGS__)

static inline uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#endif /* FL_PEBBLE_SST_INTERNAL_H */
