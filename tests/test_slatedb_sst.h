/*
 * test_slatedb_sst.h -- helpers shared by the tests of filterlab's reader
 * of SlateDB's SSTs (test_slatedb_bloom.c: its hashes and bloom;
 * test_slatedb_sst.c: the fixtures SlateDB wrote, and their corruptions;
 * test_slatedb_formats.c: formats the fixtures do not show): reading a
 * fixture of tests/slatedb/, and a bloom's expected FP rate summed by
 * brute force.  Static inline, so each test file takes what it uses.
 */
#ifndef FL_TEST_SLATEDB_SST_H
#define FL_TEST_SLATEDB_SST_H

#include "test.h"
#include "../adapters/slatedb/slatedb_sst.h"

#include <stdlib.h>

/* The most rows a fixture has (the tests' fixed arrays of them). */
#define MAX_ROWS 512

static inline uint8_t *read_file(const char *name, size_t *len) {
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/slatedb/%s", fl_test_srcdir(), name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fl_test_fail(__FILE__, __LINE__, "cannot open %s", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc((size_t)n + 1);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fl_test_fail(__FILE__, __LINE__, "cannot read %s", path);
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    buf[n] = 0;
    *len = (size_t)n;
    return buf;
}

static inline uint8_t *fixture_bytes(const char *name, size_t *len) {
    char path[256];
    snprintf(path, sizeof path, "%s.sst", name);
    return read_file(path, len);
}

/* The exact expected FP rate against its definition, summed naively: every
 * pair of residues (h, d), weighted by how many 32-bit halves give it,
 * asked through the probe itself. */
static inline double brute_fp(const fl_sdb_bloom *b) {
    uint64_t m = b->nbits, Q = ((uint64_t)1 << 32) / m, R = ((uint64_t)1 << 32) % m;
    long double sum = 0;
    for (uint64_t d = 0; d < m; d++)
        for (uint64_t h = 0; h < m; h++)
            if (fl_sdb_bloom_might_contain_hash(b, d << 32 | h))
                sum += (long double)(Q + (h < R)) * (long double)(Q + (d < R));
    return (double)(sum / 18446744073709551616.0L);
}

#endif /* FL_TEST_SLATEDB_SST_H */
