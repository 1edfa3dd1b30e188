/*
 * test_leveldb_sst.h -- helpers shared by the tests of filterlab's reader
 * of LevelDB's tables (test_leveldb_sst.c: tables of its own encoder;
 * test_leveldb_written.c: tables LevelDB wrote): lists of entries and
 * their comparison, a block's CRC resealed, and the checks every table
 * that opens must pass (no false negatives through the filter a Get
 * probes, holds, filter keys).  Static inline, so each test file takes
 * what it uses.
 */
#ifndef FL_TEST_LEVELDB_SST_H
#define FL_TEST_LEVELDB_SST_H

#include "test.h"
#include "../adapters/leveldb/leveldb_sst.h"

#include <stdlib.h>
#include <string.h>

typedef struct ent { uint8_t *k; size_t kn; uint64_t seq; bool del; uint8_t *v; size_t vn; } ent;
typedef struct ents { ent *e; size_t n, cap; } ents;

static inline void ents_add(ents *l, const uint8_t *k, size_t kn, uint64_t seq, bool del, const uint8_t *v, size_t vn) {
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->e = realloc(l->e, l->cap * sizeof *l->e);
        if (!l->e) abort();
    }
    ent *e = &l->e[l->n++];
    e->k = malloc(kn + 1);
    e->v = malloc(vn + 1);
    if (!e->k || !e->v) abort();
    if (kn) memcpy(e->k, k, kn);
    if (vn) memcpy(e->v, v, vn);
    e->kn = kn, e->seq = seq, e->del = del, e->vn = vn;
}

static inline void ents_free(ents *l) {
    for (size_t i = 0; i < l->n; i++) free(l->e[i].k), free(l->e[i].v);
    free(l->e);
    memset(l, 0, sizeof *l);
}

static inline int ukey_cmp(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
    size_t n = an < bn ? an : bn;
    int c = n ? memcmp(a, b, n) : 0;
    return c ? c : (an > bn) - (an < bn);
}

static inline int collect(void *arg, fl_slice k, uint64_t seq, bool del, fl_slice v) {
    ents_add(arg, k.data, k.len, seq, del, v.data, v.len);
    return 0;
}
/* got == want, entry by entry; says where they first differ */
static inline void check_ents(const ents *got, const ents *want, const char *what) {
    if (got->n != want->n)
        fl_test_fail(__FILE__, __LINE__, "%s: %zu entries, expected %zu", what, got->n, want->n);
    for (size_t i = 0; i < got->n && i < want->n; i++) {
        const ent *a = &got->e[i], *b = &want->e[i];
        if (ukey_cmp(a->k, a->kn, b->k, b->kn) || a->seq != b->seq || a->del != b->del ||
            ukey_cmp(a->v, a->vn, b->v, b->vn)) {
            fl_test_fail(__FILE__, __LINE__, "%s: entry %zu differs (seq %llu/%llu, del %d/%d, key %zu/%zu "
                         "bytes, value %zu/%zu bytes)", what, i, (unsigned long long)a->seq,
                         (unsigned long long)b->seq, a->del, b->del, a->kn, b->kn, a->vn, b->vn);
            return;
        }
    }
}

/* Recomputes the trailer CRC of the block at (off, size). */
static inline void reseal(uint8_t *f, size_t off, size_t size) {
    uint32_t c = fl_ldb_crc_mask(fl_ldb_crc32c(f + off, size + 1));
    for (int i = 0; i < 4; i++) f[off + size + 1 + i] = (uint8_t)(c >> (8 * i));
}

/* Every key of t found through the filter a Get probes (no false
 * negatives), and the number of the count absent keys that pass. */
static inline void check_no_false_negatives(const fl_ldb_table *t) {
    ents e = { 0 };
    CHECK_OK(fl_ldb_table_each(t, collect, &e));
    for (size_t i = 0; i < e.n; i++) {
        fl_slice f;
        size_t idx;
        if (fl_ldb_table_filter_for(t, e.e[i].k, e.e[i].kn, &f, &idx) != 1 ||
            !fl_ldb_bloom_may_match(f, e.e[i].k, e.e[i].kn)) {
            fl_test_fail(__FILE__, __LINE__, "entry %zu (%zu-byte key) not found through its filter", i, e.e[i].kn);
            break;
        }
    }
    ents_free(&e);
}

/* fl_ldb_table_holds against a walk: every entry's key is held; the key
 * just after each (a 0 byte appended), and the keys before the first and
 * after the last, only when an entry has them. */
static inline bool has_entry(const ents *e, const uint8_t *k, size_t kn) {
    for (size_t i = 0; i < e->n; i++)
        if (ukey_cmp(e->e[i].k, e->e[i].kn, k, kn) == 0) return true;
    return false;
}

static inline void check_holds(const fl_ldb_table *t) {
    ents e = { 0 };
    CHECK_OK(fl_ldb_table_each(t, collect, &e));
    uint8_t buf[1100];
    for (size_t i = 0; i < e.n; i++) {
        CHECK_EQ(fl_ldb_table_holds(t, e.e[i].k, e.e[i].kn), 1);
        if (e.e[i].kn + 1 > sizeof buf) continue;
        memcpy(buf, e.e[i].k, e.e[i].kn);
        buf[e.e[i].kn] = 0;
        CHECK_EQ(fl_ldb_table_holds(t, buf, e.e[i].kn + 1), has_entry(&e, buf, e.e[i].kn + 1) ? 1 : 0);
    }
    if (e.n && e.e[e.n - 1].kn + 1 <= sizeof buf) {
        memcpy(buf, e.e[e.n - 1].k, e.e[e.n - 1].kn);
        buf[e.e[e.n - 1].kn] = 0xff;
        CHECK_EQ(fl_ldb_table_holds(t, buf, e.e[e.n - 1].kn + 1), 0);
    }
    CHECK_EQ(fl_ldb_table_holds(t, buf, 0), has_entry(&e, buf, 0) ? 1 : 0);
    ents_free(&e);
}

/* Every filter's keys together are the table's entries, in order. */
static inline void check_filter_keys(const fl_ldb_table *t) {
    ents all = { 0 }, byf = { 0 };
    CHECK_OK(fl_ldb_table_each(t, collect, &all));
    for (size_t i = 0; i < fl_ldb_table_filter_count(t); i++) {
        size_t before = byf.n;
        CHECK_OK(fl_ldb_table_filter_keys(t, i, collect, &byf));
        CHECK((byf.n > before) == (fl_ldb_table_filter(t, i).len > 0));
    }
    check_ents(&byf, &all, "filter keys");
    ents_free(&all);
    ents_free(&byf);
}

#endif /* FL_TEST_LEVELDB_SST_H */
