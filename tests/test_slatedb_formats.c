/*
 * test_slatedb_formats.c -- filterlab's reader of SlateDB's SSTs
 * (adapters/slatedb/slatedb_sst.c) on what the fixtures of tests/slatedb/
 * do not show, made from them: v1 blocks and a Legacy filter (a fixture
 * transcoded), compression and WAL SSTs refused, damage that keeps every
 * CRC right refused by the reader's own checks, and SlateDB's own bytes of
 * a v1 block wrapped in an SST.
 */
#include "test_slatedb_sst.h"

#include <stdlib.h>

/* ---- Formats the fixtures do not show: v1 blocks, a Legacy filter, codecs, WAL ---- */

static uint32_t t_le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Where slot i of the root table of the FlatBuffer at b lives (its vtable
 * entry in *vt_entry); 0 when absent. */
static size_t fb_slot(uint8_t *b, unsigned slot, size_t *vt_entry) {
    size_t root = t_le32(b);
    size_t vt = (size_t)((int64_t)root - (int32_t)t_le32(b + root));
    size_t vtlen = (size_t)(b[vt] | b[vt + 1] << 8);
    *vt_entry = vt + 4 + 2 * slot;
    if (4 + 2 * slot + 2 > vtlen) { *vt_entry = 0; return 0; }
    size_t o = (size_t)(b[*vt_entry] | b[*vt_entry + 1] << 8);
    return o ? root + o : 0;
}

static void put_le64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static void put_be(fl_buf *b, uint64_t v, int bytes) {
    uint8_t x[8];
    for (int i = 0; i < bytes; i++) x[i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
    fl_buf_append(b, x, (size_t)bytes);
}
static void put_region(fl_buf *out, const uint8_t *p, size_t n) {
    fl_buf_append(out, p, n);
    put_be(out, fl_sdb_crc32(p, n), 4);
}

typedef struct row_copy { uint8_t key[64], val[64]; size_t klen, vlen; uint64_t seq; fl_sdb_kind kind;
                          bool hc, he; int64_t c, e; } row_copy;
typedef struct row_copies { row_copy r[MAX_ROWS]; size_t n; } row_copies;

static int copy_row(void *arg, const fl_sdb_row *r) {
    row_copies *c = arg;
    row_copy *x = &c->r[c->n++];
    memcpy(x->key, r->key.data, x->klen = r->key.len);
    memcpy(x->val, r->value.data, x->vlen = r->value.len);
    x->seq = r->seq; x->kind = r->kind; x->hc = r->has_create_ts; x->he = r->has_expire_ts;
    x->c = r->create_ts; x->e = r->expire_ts;
    return 0;
}

/* A single-block fixture rewritten with a v1 block (entries keyed against
 * the block's first key, an offset per entry) and, if legacy, its "_bf"
 * filter as a Legacy filter block: the regions after it moved, the info's
 * offsets patched in place, every CRC recomputed. */
static uint8_t *transcode_v1(const char *name, bool legacy, size_t *out_len, row_copies *rows) {
    size_t len;
    char err[512];
    uint8_t *f = fixture_bytes(name, &len);
    if (!f) return NULL;
    fl_sdb_sst *t = NULL;
    CHECK_OK(fl_sdb_sst_open(f, len, &t, err, sizeof err));
    if (!t) { free(f); return NULL; }
    const fl_sdb_info in = *fl_sdb_sst_info(t);
    CHECK_EQ(in.num_blocks, 1);
    rows->n = 0;
    CHECK_OK(fl_sdb_sst_rows(t, copy_row, rows, err, sizeof err));
    fl_slice bf = { NULL, 0 };
    for (size_t i = 0; i < fl_sdb_sst_filter_count(t); i++)
        if (fl_sdb_sst_filter(t, i)->name.len == 3) bf = fl_sdb_sst_filter(t, i)->data;
    fl_buf blk, out;
    fl_buf_init(&blk);
    fl_buf_init(&out);
    uint16_t offs[MAX_ROWS];
    for (size_t i = 0; i < rows->n; i++) {
        row_copy *r = &rows->r[i];
        size_t shared = 0;
        while (shared < r->klen && shared < rows->r[0].klen && r->key[shared] == rows->r[0].key[shared]) shared++;
        if (i == 0) shared = 0;
        offs[i] = (uint16_t)blk.len;
        uint8_t flags = (uint8_t)((r->kind == FL_SDB_TOMBSTONE) | (r->he << 1) | (r->hc << 2) | ((r->kind == FL_SDB_MERGE) << 3));
        put_be(&blk, shared, 2);
        put_be(&blk, r->klen - shared, 2);
        fl_buf_append(&blk, r->key + shared, r->klen - shared);
        put_be(&blk, r->seq, 8);
        put_be(&blk, flags, 1);
        if (r->he) put_be(&blk, (uint64_t)r->e, 8);
        if (r->hc) put_be(&blk, (uint64_t)r->c, 8);
        if (r->kind != FL_SDB_TOMBSTONE) {
            put_be(&blk, r->vlen, 4);
            fl_buf_append(&blk, r->val, r->vlen);
        }
    }
    for (size_t i = 0; i < rows->n; i++) put_be(&blk, offs[i], 2);
    put_be(&blk, rows->n, 2);
    put_region(&out, blk.data, blk.len);
    uint64_t filter_offset = out.len, filter_len = in.filter_len;
    if (legacy) {
        put_region(&out, bf.data, bf.len);
        filter_len = bf.len + 4;
    } else {
        fl_buf_append(&out, f + in.filter_offset, in.filter_len);
    }
    uint64_t index_offset = out.len;
    fl_buf_append(&out, f + in.index_offset, in.index_len);
    uint64_t stats_offset = out.len;
    fl_buf_append(&out, f + in.stats_offset, in.stats_len);
    uint64_t meta = out.len;
    size_t info_len = len - 10 - in.meta_offset - 4, vte;
    uint8_t *info = malloc(info_len);
    memcpy(info, f + in.meta_offset, info_len);
    static const unsigned slots[] = { 1, 3, 4, 8 };
    const uint64_t vals[] = { index_offset, filter_offset, filter_len, stats_offset };
    for (int i = 0; i < 4; i++) {
        size_t at = fb_slot(info, slots[i], &vte);
        CHECK(at != 0);
        if (at) put_le64(info + at, vals[i]);
    }
    if (legacy) {
        size_t at = fb_slot(info, 10, &vte);
        CHECK(at != 0);
        if (at) info[at] = 0;
    }
    put_region(&out, info, info_len);
    put_be(&out, meta, 8);
    put_be(&out, 1, 2);
    free(info);
    fl_buf_free(&blk);
    fl_sdb_sst_free(t);
    free(f);
    *out_len = out.len;
    return out.data;
}

FL_TEST(sdb_v1_blocks_and_legacy_filter) {
    static const char *const names[] = { "basic", "prefix" };
    for (int ni = 0; ni < 2; ni++) {
        for (int legacy = 0; legacy <= 1; legacy++) {
            static row_copies want, got;
            size_t len;
            char err[512];
            uint8_t *f = transcode_v1(names[ni], legacy, &len, &want);
            if (!f) continue;
            fl_sdb_sst *t = NULL;
            CHECK_OK(fl_sdb_sst_open(f, len, &t, err, sizeof err));
            if (!t) { fprintf(stderr, "  %s\n", err); free(f); continue; }
            CHECK_EQ(fl_sdb_sst_info(t)->format_version, 1);
            CHECK(fl_sdb_sst_info(t)->legacy_filter == (bool)legacy);
            got.n = 0;
            CHECK_OK(fl_sdb_sst_rows(t, copy_row, &got, err, sizeof err));
            CHECK_EQ(got.n, want.n);
            for (size_t i = 0; i < got.n && i < want.n; i++)
                CHECK(memcmp(&got.r[i], &want.r[i], sizeof got.r[i]) == 0);
            if (legacy) {
                CHECK_EQ(fl_sdb_sst_filter_count(t), 1);
                CHECK_MEM(fl_sdb_sst_filter(t, 0)->name.data, fl_sdb_sst_filter(t, 0)->name.len, "_bf", 3);
            }
            fl_sdb_sst_free(t);
            free(f);
        }
    }
}

/* The info's compression_format (or sst_type) made to read the byte that
 * holds filter_format (1): Snappy (or WAL), which the reader refuses. */
FL_TEST(sdb_compression_and_wal_are_refused) {
    for (unsigned slot = 5; slot <= 6; slot++) {
        size_t len, vte10, vte;
        char err[512];
        uint8_t *f = fixture_bytes("basic", &len);
        if (!f) return;
        fl_sdb_sst *t = NULL;
        CHECK_OK(fl_sdb_sst_open(f, len, &t, err, sizeof err));
        if (!t) { free(f); return; }
        uint64_t meta = fl_sdb_sst_info(t)->meta_offset;
        fl_sdb_sst_free(t);
        uint8_t *info = f + meta;
        size_t info_len = len - 10 - meta - 4;
        size_t ff = fb_slot(info, 10, &vte10);
        CHECK(ff != 0 && info[ff] == 1);
        CHECK(fb_slot(info, slot, &vte) == 0 && vte != 0);
        info[vte] = info[vte10];
        info[vte + 1] = info[vte10 + 1];
        uint32_t crc = fl_sdb_crc32(info, info_len);
        for (int i = 0; i < 4; i++) info[info_len + (size_t)i] = (uint8_t)(crc >> (24 - 8 * i));
        CHECK_RC(fl_sdb_sst_open(f, len, &t, err, sizeof err), FL_ERR_VERSION);
        CHECK_CONTAINS(err, slot == 5 ? "compressed with Snappy" : "WAL SST");
        /* an unknown codec is corruption, not an unsupported feature */
        if (slot == 5) {
            info[ff] = 9;
            crc = fl_sdb_crc32(info, info_len);
            for (int i = 0; i < 4; i++) info[info_len + (size_t)i] = (uint8_t)(crc >> (24 - 8 * i));
            CHECK_RC(fl_sdb_sst_open(f, len, &t, err, sizeof err), FL_ERR_CORRUPT);
            CHECK_CONTAINS(err, "compression_format 9");
        }
        free(f);
    }
}

static void fix_region_crc(uint8_t *f, uint64_t off, uint64_t len) {
    uint32_t crc = fl_sdb_crc32(f + off, (size_t)len - 4);
    for (int i = 0; i < 4; i++) f[off + len - 4 + (size_t)i] = (uint8_t)(crc >> (24 - 8 * i));
}

/* Damage that keeps every CRC right: the reader's own checks catch it. */
FL_TEST(sdb_semantic_damage_is_refused) {
    size_t len;
    char err[512];
    fl_sdb_sst *t = NULL;
    /* versions: "alpha" seq 4 (put), 3 (tombstone), 2, 1; raise the
     * tombstone's seq to 4, then 5: equal keys need descending seqs */
    uint8_t *f = fixture_bytes("versions", &len);
    if (!f) return;
    CHECK_OK(fl_sdb_sst_open(f, len, &t, err, sizeof err));
    if (!t) { free(f); return; }
    fl_sdb_block b0 = *fl_sdb_sst_block(t, 0);
    fl_sdb_info info = *fl_sdb_sst_info(t);
    fl_sdb_sst_free(t);
    static const uint8_t tomb[] = { 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0x01 | 0x04 };  /* tombstone, create_ts */
    uint8_t *at = memmem(f + b0.offset, (size_t)b0.len, tomb, sizeof tomb);
    CHECK(at != NULL);
    for (uint8_t seq = 4; at && seq <= 5; seq++) {
        at[10] = seq;
        fix_region_crc(f, b0.offset, b0.len);
        CHECK_RC(fl_sdb_sst_open(f, len, &t, err, sizeof err), FL_ERR_CORRUPT);
        CHECK_CONTAINS(err, "seqs descending");
        at[10] = 3;
        fix_region_crc(f, b0.offset, b0.len);
    }
    CHECK_OK(fl_sdb_sst_open(f, len, &t, err, sizeof err));
    fl_sdb_sst_free(t);

    /* the stats' num_puts off by one */
    uint8_t *stats = f + info.stats_offset;
    size_t vte, puts = fb_slot(stats, 0, &vte);
    CHECK(puts != 0);
    if (puts) {
        stats[puts]++;
        fix_region_crc(f, info.stats_offset, info.stats_len);
        CHECK_RC(fl_sdb_sst_open(f, len, &t, err, sizeof err), FL_ERR_CORRUPT);
        CHECK_CONTAINS(err, "the stats block says");
        stats[puts]--;
        fix_region_crc(f, info.stats_offset, info.stats_len);
    }
    /* the info's last entry one byte shorter */
    uint8_t *in = f + info.meta_offset;
    size_t last = fb_slot(in, 7, &vte);
    CHECK(last != 0);
    if (last) {
        size_t vec = last + t_le32(in + last);
        in[vec]--;
        fix_region_crc(f, info.meta_offset, len - 10 - info.meta_offset);
        CHECK_RC(fl_sdb_sst_open(f, len, &t, err, sizeof err), FL_ERR_CORRUPT);
        CHECK_CONTAINS(err, "the info's last entry");
        in[vec]++;
        fix_region_crc(f, info.meta_offset, len - 10 - info.meta_offset);
    }
    CHECK_OK(fl_sdb_sst_open(f, len, &t, err, sizeof err));
    fl_sdb_sst_free(t);
    free(f);

    /* multiblock: block 1's index key "user:018" made "user:019", past the
     * block's first key */
    f = fixture_bytes("multiblock", &len);
    if (!f) return;
    CHECK_OK(fl_sdb_sst_open(f, len, &t, err, sizeof err));
    if (!t) { free(f); return; }
    info = *fl_sdb_sst_info(t);
    fl_slice ik = fl_sdb_sst_block(t, 1)->index_key;
    size_t ik_at = (size_t)(ik.data - f);
    fl_sdb_sst_free(t);
    CHECK(ik.len == 8 && f[ik_at + 7] == '8');
    f[ik_at + 7] = '9';
    fix_region_crc(f, info.index_offset, info.index_len);
    CHECK_RC(fl_sdb_sst_open(f, len, &t, err, sizeof err), FL_ERR_CORRUPT);
    CHECK_CONTAINS(err, "block 1 (offset 993): its index key \"user:019\"");
    free(f);
}

/* SlateDB's own bytes of a v1 block: the insta snapshot
 * testdata/snapshots/slatedb__format__block__tests__block_with_tombstone.snap
 * of its BlockBuilderV1 (key1 -> value1, key2 tombstone, key3 -> value3,
 * seq 0, create_ts 0, expire_ts 0 but none on the tombstone), its offsets
 * 0, 43, 65; wrapped here in an SST: that block, a Legacy filter, the
 * basic fixture's index (one block at 0, index key ""), an info built
 * below, a version-1 footer. */
static const uint8_t v1_block_with_tombstone[] =
    "\0\0\0\x04key1\0\0\0\0\0\0\0\0\x06\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x06value1"
    "\0\x03\0\x01" "2\0\0\0\0\0\0\0\0\x05\0\0\0\0\0\0\0\0"
    "\0\x03\0\x01" "3\0\0\0\0\0\0\0\0\x06\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x06value3";

/* A FlatBuffer SsTableInfo with the u64 slots given (value 0: absent) and
 * first/last entry: root offset, vtable, table (u64 fields 8-aligned), the
 * two byte vectors. */
static void build_info(fl_buf *out, const uint64_t u64s[11], const char *first, const char *last) {
    uint8_t b[256] = { 0 };
    const unsigned nslots = 11;
    size_t vt = 4, vtlen = 4 + 2 * nslots, T = 4 + vtlen;
    while ((T + 4) % 8) T++;
    b[0] = (uint8_t)T;                                  /* root offset */
    int32_t so = (int32_t)(T - vt);
    for (int i = 0; i < 4; i++) b[T + (size_t)i] = (uint8_t)((uint32_t)so >> (8 * i));
    size_t p = T + 4;
    for (unsigned s = 0; s < nslots; s++) {
        if (!u64s[s]) continue;
        put_le64(b + p, u64s[s]);
        b[vt + 4 + 2 * s] = (uint8_t)(p - T);
        p += 8;
    }
    size_t f_at = p, l_at = p + 4;                      /* the two uoffsets */
    b[vt + 4 + 0] = (uint8_t)(f_at - T);
    b[vt + 4 + 14] = (uint8_t)(l_at - T);
    p += 8;
    size_t tlen = p - T;
    b[vt] = (uint8_t)vtlen;
    b[vt + 2] = (uint8_t)tlen;
    const char *v[2] = { first, last };
    size_t at[2] = { f_at, l_at };
    for (int i = 0; i < 2; i++) {
        while (p % 4) p++;
        size_t n = strlen(v[i]);
        b[at[i]] = (uint8_t)(p - at[i]);
        b[p] = (uint8_t)n;
        memcpy(b + p + 4, v[i], n);
        p += 4 + n;
    }
    while (p % 8) p++;
    fl_buf_append(out, b, p);
}

FL_TEST(sdb_v1_block_of_slatedb_itself) {
    size_t blen, len;
    char err[512];
    uint8_t *basic = fixture_bytes("basic", &blen);
    if (!basic) return;
    fl_sdb_sst *t = NULL;
    CHECK_OK(fl_sdb_sst_open(basic, blen, &t, err, sizeof err));
    if (!t) { free(basic); return; }
    fl_sdb_info bi = *fl_sdb_sst_info(t);
    fl_sdb_sst_free(t);

    fl_buf f;
    fl_buf_init(&f);
    fl_buf blk;
    fl_buf_init(&blk);
    fl_buf_append(&blk, v1_block_with_tombstone, sizeof v1_block_with_tombstone - 1);
    CHECK_EQ(blk.len, 113 - 8);                         /* the snapshot's size less offsets+count */
    put_be(&blk, 0, 2);
    put_be(&blk, 43, 2);
    put_be(&blk, 65, 2);
    put_be(&blk, 3, 2);
    put_region(&f, blk.data, blk.len);
    uint64_t filter_offset = f.len;
    static const char *const keys[] = { "key1", "key2", "key3" };
    uint64_t hs[3];
    for (int i = 0; i < 3; i++) hs[i] = fl_sdb_hash((fl_slice){ (const uint8_t *)keys[i], 4 });
    fl_buf bloom;
    fl_buf_init(&bloom);
    CHECK_OK(fl_sdb_bloom_build(10, hs, 3, &bloom));
    put_region(&f, bloom.data, bloom.len);
    uint64_t index_offset = f.len;
    fl_buf_append(&f, basic + bi.index_offset, bi.index_len);
    uint64_t meta = f.len;
    uint64_t slots[11] = { 0 };
    slots[1] = index_offset;
    slots[2] = bi.index_len;
    slots[3] = filter_offset;
    slots[4] = bloom.len + 4;
    fl_buf info;
    fl_buf_init(&info);
    build_info(&info, slots, "key1", "key3");
    put_region(&f, info.data, info.len);
    put_be(&f, meta, 8);
    put_be(&f, 1, 2);
    len = f.len;

    CHECK_OK(fl_sdb_sst_open(f.data, len, &t, err, sizeof err));
    if (!t) fprintf(stderr, "  %s\n", err);
    else {
        const fl_sdb_info *in = fl_sdb_sst_info(t);
        CHECK_EQ(in->format_version, 1);
        CHECK(in->legacy_filter && !in->has_stats);
        CHECK_EQ(in->num_rows, 3);
        CHECK_EQ(in->num_tombstones, 1);
        static row_copies got;
        got.n = 0;
        CHECK_OK(fl_sdb_sst_rows(t, copy_row, &got, err, sizeof err));
        CHECK_EQ(got.n, 3);
        for (size_t i = 0; i < got.n && i < 3; i++) {
            row_copy *r = &got.r[i];
            CHECK_MEM(r->key, r->klen, keys[i], 4);
            CHECK(r->seq == 0 && r->hc && r->c == 0);
            CHECK(r->he == (i != 1) && r->e == 0);
            CHECK(r->kind == (i == 1 ? FL_SDB_TOMBSTONE : FL_SDB_VALUE));
            CHECK_MEM(r->val, r->vlen, i == 0 ? "value1" : i == 2 ? "value3" : "", i == 1 ? 0 : 6);
        }
        CHECK_EQ(fl_sdb_sst_filter_count(t), 1);
        fl_sdb_bloom b;
        CHECK_OK(fl_sdb_bloom_decode(fl_sdb_sst_filter(t, 0)->data, &b, err, sizeof err));
        for (int i = 0; i < 3; i++) CHECK(fl_sdb_bloom_might_contain_hash(&b, hs[i]));
        fl_sdb_sst_free(t);
    }
    /* the second entry's offset moved by one: refused, naming it */
    f.data[2 * 0 + sizeof v1_block_with_tombstone - 1 + 3] = 44;   /* offsets[1] low byte */
    fix_region_crc(f.data, 0, sizeof v1_block_with_tombstone - 1 + 8 + 4);
    CHECK_RC(fl_sdb_sst_open(f.data, len, &t, err, sizeof err), FL_ERR_CORRUPT);
    CHECK_CONTAINS(err, "entry 1's offset is 44");
    fl_buf_free(&f);
    fl_buf_free(&blk);
    fl_buf_free(&bloom);
    fl_buf_free(&info);
    free(basic);
}
