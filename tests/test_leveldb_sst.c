/*
 * test_leveldb_sst.c -- filterlab's reader of LevelDB 1.23's tables
 * (adapters/leveldb/leveldb_sst.c) on tables assembled by this file's own
 * encoder: read back entry for entry, filter for filter; every truncation,
 * every flipped byte, random bytes and targeted corruptions (resealed with
 * a correct CRC) refused, never a crash.  The reader's hashes and bloom
 * are tested in test_leveldb_bloom.c, tables LevelDB itself wrote in
 * test_leveldb_written.c.
 */
#include "test_leveldb_sst.h"

#include <stdlib.h>

/* ---- Helpers ------------------------------------------------------------------- */

static int count_fn(void *arg, fl_slice k, uint64_t seq, bool del, fl_slice v) {
    (void)k, (void)seq, (void)del, (void)v;
    (*(size_t *)arg)++;
    return 0;
}

static int stop_fn(void *arg, fl_slice k, uint64_t seq, bool del, fl_slice v) {
    (void)k, (void)seq, (void)del, (void)v;
    return ++*(size_t *)arg == 3 ? 42 : 0;
}

/* ---- A table encoder of this test's own -------------------------------------------- */

static void put32(fl_buf *b, uint32_t v) {
    uint8_t x[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
    fl_buf_append(b, x, 4);
}
static void put64(fl_buf *b, uint64_t v) { put32(b, (uint32_t)v); put32(b, (uint32_t)(v >> 32)); }
static void putv(fl_buf *b, uint64_t v) {
    uint8_t x[10];
    size_t n = 0;
    for (; v >= 0x80; v >>= 7) x[n++] = (uint8_t)(v | 0x80);
    x[n++] = (uint8_t)v;
    fl_buf_append(b, x, n);
}

typedef struct bb { fl_buf data, last; uint32_t rest[4096]; size_t nrest, count, interval; bool no_prefix; } bb;

static void bb_reset(bb *b) { b->data.len = b->last.len = 0; b->nrest = 1; b->rest[0] = 0; b->count = 0; }
static void bb_init(bb *b, size_t interval) {
    fl_buf_init(&b->data);
    fl_buf_init(&b->last);
    b->interval = interval;
    b->no_prefix = false;
    bb_reset(b);
}
static void bb_add(bb *b, const uint8_t *k, size_t kn, const uint8_t *v, size_t vn) {
    size_t shared = 0;
    if (b->count % b->interval == 0) {
        if (b->count && b->nrest < 4096) b->rest[b->nrest++] = (uint32_t)b->data.len;
    } else if (!b->no_prefix) {
        while (shared < kn && shared < b->last.len && b->last.data[shared] == k[shared]) shared++;
    }
    putv(&b->data, shared);
    putv(&b->data, kn - shared);
    putv(&b->data, vn);
    fl_buf_append(&b->data, k + shared, kn - shared);
    fl_buf_append(&b->data, v, vn);
    b->last.len = 0;
    fl_buf_append(&b->last, k, kn);
    b->count++;
}
/* appends the block with its trailer to file; its handle */
static void bb_write(bb *b, fl_buf *file, uint64_t *off, uint64_t *size) {
    for (size_t i = 0; i < b->nrest; i++) put32(&b->data, b->rest[i]);
    put32(&b->data, (uint32_t)b->nrest);
    *off = file->len;
    *size = b->data.len;
    fl_buf_append(file, b->data.data, b->data.len);
    fl_buf_append(file, "\0\0\0\0\0", 5);
    reseal(file->data, (size_t)*off, (size_t)*size);
    bb_reset(b);
}
static void bb_free(bb *b) { fl_buf_free(&b->data); fl_buf_free(&b->last); }

typedef struct tent { const uint8_t *k; size_t kn; uint64_t seq; unsigned type; const uint8_t *v; size_t vn; } tent;
typedef struct topts {
    size_t block_size;
    int bpk;                     /* 0: no filter block */
    bool index_first;            /* index key = the block's FIRST key (wrong) */
    bool short_index;            /* index keys shortened as LevelDB's are */
    bool no_prefix;              /* data entries share no prefix (wrong) */
    const char *meta_extra;      /* another metaindex key (value: the filter's handle) */
} topts;
typedef struct tlayout { uint64_t foff, fsize, moff, msize, ioff, isize; } tlayout;

/* LevelDB's BytewiseComparator::FindShortestSeparator(a, b) (b NULL:
 * FindShortSuccessor(a)) into out; whether it made a greater key. */
static bool shorten(const uint8_t *a, size_t an, const uint8_t *b, size_t bn, uint8_t *out, size_t *on) {
    memcpy(out, a, an);
    *on = an;
    if (b) {
        size_t m = an < bn ? an : bn, d = 0;
        while (d < m && a[d] == b[d]) d++;
        if (d < m && a[d] < 0xff && a[d] + 1 < b[d]) out[d]++, *on = d + 1;
    } else {
        for (size_t i = 0; i < an; i++)
            if (a[i] != 0xff) { out[i]++, *on = i + 1; break; }
    }
    return ukey_cmp(a, an, out, *on) < 0;
}

/* the shortened index keys the last enc_table wrote, and their blocks */
static struct { uint8_t k[32]; size_t kn, block; } seps[4096];
static size_t nseps;

typedef struct fbuild { const tent *e; size_t from, to, nf; uint32_t offs[4096]; fl_buf data; int bpk; } fbuild;

static void fb_generate(fbuild *f) {
    if (f->nf < 4096) f->offs[f->nf++] = (uint32_t)f->data.len;
    if (f->from == f->to) return;
    fl_slice *ks = malloc((f->to - f->from) * sizeof *ks);
    if (!ks) abort();
    for (size_t i = f->from; i < f->to; i++) ks[i - f->from] = (fl_slice){ f->e[i].k, f->e[i].kn };
    CHECK_OK(fl_ldb_bloom_build(ks, f->to - f->from, f->bpk, &f->data));
    free(ks);
    f->from = f->to;
}

/* A LevelDB 1.23 table of e[0..n) as given (in whatever order, with
 * whatever types) into file, as TableBuilder lays it out. */
static void enc_table(const tent *e, size_t n, const topts *o, fl_buf *file, tlayout *lay) {
    bb data, index, meta;
    bb_init(&data, 4);
    bb_init(&index, 1);
    bb_init(&meta, 16);
    data.no_prefix = o->no_prefix;
    nseps = 0;
    size_t nblk = 0;
    fbuild fb = { .e = e, .bpk = o->bpk };
    fl_buf ik, first;
    fl_buf_init(&ik);
    fl_buf_init(&first);
    fl_buf_init(&fb.data);
    memset(lay, 0, sizeof *lay);
    for (size_t i = 0; i < n; i++) {
        ik.len = 0;
        fl_buf_append(&ik, e[i].k, e[i].kn);
        put64(&ik, e[i].seq << 8 | e[i].type);
        if (data.count == 0) { first.len = 0; fl_buf_append(&first, ik.data, ik.len); }
        bb_add(&data, ik.data, ik.len, e[i].v, e[i].vn);
        fb.to = i + 1;
        if (data.data.len >= o->block_size || i + 1 == n) {
            uint64_t off, size;
            bb_write(&data, file, &off, &size);
            uint8_t h[20];
            fl_buf hv = { h, 0, sizeof h };           /* never grows: two varints fit */
            putv(&hv, off);
            putv(&hv, size);
            const fl_buf *key = o->index_first ? &first : &ik;
            uint8_t sk[40];
            size_t skn;
            if (o->short_index && e[i].kn < 32 && nseps < 4096 &&
                shorten(e[i].k, e[i].kn, i + 1 < n ? e[i + 1].k : NULL, i + 1 < n ? e[i + 1].kn : 0, sk, &skn)) {
                memcpy(seps[nseps].k, sk, skn);
                seps[nseps].kn = skn;
                seps[nseps++].block = nblk;
                fl_buf sb = { sk, skn, sizeof sk };            /* never grows */
                put64(&sb, (((uint64_t)1 << 56) - 1) << 8 | 1);
                bb_add(&index, sk, sb.len, h, hv.len);
            } else {
                bb_add(&index, key->data, key->len, h, hv.len);
            }
            nblk++;
            while (o->bpk && (file->len >> 11) > fb.nf) fb_generate(&fb);     /* StartBlock */
        }
    }
    if (o->bpk) {
        if (fb.from < fb.to) fb_generate(&fb);
        uint32_t arr = (uint32_t)fb.data.len;
        for (size_t i = 0; i < fb.nf; i++) put32(&fb.data, fb.offs[i]);
        put32(&fb.data, arr);
        fl_buf_append(&fb.data, "\x0b", 1);
        lay->foff = file->len;
        lay->fsize = fb.data.len;
        fl_buf_append(file, fb.data.data, fb.data.len);
        fl_buf_append(file, "\0\0\0\0\0", 5);
        reseal(file->data, (size_t)lay->foff, (size_t)lay->fsize);
        uint8_t h[20];
        fl_buf hv = { h, 0, sizeof h };
        putv(&hv, lay->foff);
        putv(&hv, lay->fsize);
        const char *name = "filter.leveldb.BuiltinBloomFilter2";
        bb_add(&meta, (const uint8_t *)name, strlen(name), h, hv.len);
        if (o->meta_extra) bb_add(&meta, (const uint8_t *)o->meta_extra, strlen(o->meta_extra), h, hv.len);
    }
    bb_write(&meta, file, &lay->moff, &lay->msize);
    bb_write(&index, file, &lay->ioff, &lay->isize);
    size_t foot = file->len;
    putv(file, lay->moff);
    putv(file, lay->msize);
    putv(file, lay->ioff);
    putv(file, lay->isize);
    while (file->len < foot + 40) fl_buf_append(file, "", 1);
    put64(file, 0xdb4775248b80fb57ull);
    bb_free(&data);
    bb_free(&index);
    bb_free(&meta);
    fl_buf_free(&ik);
    fl_buf_free(&first);
    fl_buf_free(&fb.data);
}

/* The hand table's entries, in table order: keys with several versions,
 * deletions, binary keys, the empty key. */
typedef struct hand { tent e[1200]; uint8_t kbuf[1200][16]; char vbuf[1200][24]; size_t n; } hand;

static int tent_cmp(const void *x, const void *y) {
    const tent *a = x, *b = y;
    int c = ukey_cmp(a->k, a->kn, b->k, b->kn);
    return c ? c : (a->seq < b->seq) - (a->seq > b->seq);
}

static void hand_entries(hand *h, size_t nkeys) {
    h->n = 0;
    for (size_t i = 0; i < nkeys; i++) {
        for (size_t ver = 0; ver < (i % 7 == 0 ? 3u : 1u); ver++) {
            size_t j = h->n++;
            uint8_t *k = h->kbuf[j];
            size_t kn;
            if (i == 0) kn = 0;                                           /* the empty key */
            else if (i % 10 == 3) { k[0] = 0xff; k[1] = 0; k[2] = (uint8_t)i; k[3] = (uint8_t)(i >> 8); kn = 4 + i % 3; memset(k + 4, 0x80, 2); }
            else kn = (size_t)snprintf((char *)k, 16, "key%04zu", 3 * i);     /* gaps: separators shorten */
            bool del = i % 11 == 5 && ver == 0;
            int vn = del ? 0 : snprintf(h->vbuf[j], 24, "val-%zu-%zu", i, ver);
            h->e[j] = (tent){ k, kn, 100 + 3 * i + ver, del ? 0u : 1u, (const uint8_t *)h->vbuf[j], (size_t)vn };
        }
    }
    qsort(h->e, h->n, sizeof h->e[0], tent_cmp);
}

static void hand_expected(const hand *h, ents *out) {
    for (size_t i = 0; i < h->n; i++)
        ents_add(out, h->e[i].k, h->e[i].kn, h->e[i].seq, h->e[i].type == 0, h->e[i].v, h->e[i].vn);
}

/* ---- Hand-made tables -------------------------------------------------------------- */

FL_TEST(ldb_hand_table_roundtrip) {
    static hand h;
    hand_entries(&h, 400);
    static const struct { size_t bs; int bpk; bool short_index; } cfg[] = {
        { 100, 10, false }, { 1, 3, false }, { 8000, 20, false }, { 300, 0, false }, { 100, 10, true },
    };
    for (size_t c = 0; c < sizeof cfg / sizeof cfg[0]; c++) {
        fl_buf file;
        fl_buf_init(&file);
        tlayout lay;
        topts o = { .block_size = cfg[c].bs, .bpk = cfg[c].bpk, .short_index = cfg[c].short_index };
        enc_table(h.e, h.n, &o, &file, &lay);
        CHECK(cfg[c].short_index ? nseps > 20 : nseps == 0);
        fl_ldb_table *t = NULL;
        char err[512];
        CHECK_OK(fl_ldb_table_open(file.data, file.len, 0, &t, err, sizeof err));
        if (!t) { fprintf(stderr, "  %s\n", err); fl_buf_free(&file); continue; }
        ents got = { 0 }, want = { 0 };
        hand_expected(&h, &want);
        CHECK_OK(fl_ldb_table_each(t, collect, &got));
        check_ents(&got, &want, "hand table");
        CHECK_EQ(fl_ldb_table_entries_count(t), h.n);
        fl_slice s = fl_ldb_table_smallest(t), l = fl_ldb_table_largest(t);
        CHECK_MEM(s.data, s.len, h.e[0].k, h.e[0].kn);
        CHECK_MEM(l.data, l.len, h.e[h.n - 1].k, h.e[h.n - 1].kn);
        size_t stopped = 0;
        CHECK_RC(fl_ldb_table_each(t, stop_fn, &stopped), 42);
        CHECK_EQ(stopped, 3);
        size_t nb = fl_ldb_table_block_count(t);
        CHECK(cfg[c].bs > 4000 ? nb >= 2 && nb <= 4 : nb > 20);
        check_holds(t);
        CHECK_EQ(fl_ldb_table_block_offset(t, 0), 0);
        CHECK_EQ(fl_ldb_table_block_size(t, nb), 0);
        if (cfg[c].bpk == 0) {
            CHECK(fl_ldb_table_filter_name(t) == NULL);
            CHECK_EQ(fl_ldb_table_filter_count(t), 0);
            CHECK_EQ(fl_ldb_table_filter_block_bytes(t), 0);
            CHECK_EQ(fl_ldb_table_filter_for(t, h.e[0].k, h.e[0].kn, NULL, NULL), 0);
            CHECK_RC(fl_ldb_bloom_check(t, 10, err, sizeof err), FL_ERR_INVALID);
            CHECK_EQ(fl_ldb_bloom_infer_bits(t), 0);
        } else {
            CHECK_STR(fl_ldb_table_filter_name(t), "leveldb.BuiltinBloomFilter2");
            CHECK_EQ(fl_ldb_table_filter_base_lg(t), 11);
            CHECK_EQ(fl_ldb_table_filter_block_bytes(t), lay.fsize);
            uint64_t last = fl_ldb_table_block_offset(t, nb - 1) >> 11, end = lay.foff >> 11;
            CHECK_EQ(fl_ldb_table_filter_count(t), last + 1 > end ? last + 1 : end);
            CHECK(fl_ldb_table_filter_count(t) >= 4);
            CHECK_RC(fl_ldb_bloom_check(t, cfg[c].bpk, err, sizeof err), FL_OK);
            CHECK_RC(fl_ldb_bloom_check(t, cfg[c].bpk + 7, err, sizeof err), FL_ERR_CORRUPT);
            CHECK_CONTAINS(err, "filter 0 ");
            int inf = fl_ldb_bloom_infer_bits(t);
            CHECK(inf >= 1 && inf <= cfg[c].bpk);
            CHECK_RC(fl_ldb_bloom_check(t, inf, err, sizeof err), FL_OK);
            check_no_false_negatives(t);
            check_filter_keys(t);
            size_t empty = 0;
            for (size_t i = 0; i < fl_ldb_table_filter_count(t); i++) empty += fl_ldb_table_filter(t, i).len == 0;
            CHECK(cfg[c].bs > 4000 ? empty > 0 : empty == 0);
            CHECK_EQ(fl_ldb_table_filter(t, fl_ldb_table_filter_count(t)).len, 0);
            /* the probed filter is the window of the block that holds the key */
            fl_slice f;
            size_t idx = 99;
            CHECK_EQ(fl_ldb_table_filter_for(t, (const uint8_t *)"", 0, &f, &idx), 1);
            CHECK_EQ(idx, 0);
            CHECK_EQ(fl_ldb_table_filter_for(t, (const uint8_t *)"\xff\xff", 2, &f, &idx), 0);
            CHECK_EQ(fl_ldb_table_filter_for(t, l.data, l.len, &f, &idx), 1);
            CHECK_EQ(idx, fl_ldb_table_block_offset(t, nb - 1) >> 11);
            /* a Get of a shortened index key (a key between two blocks, whose
             * tag is LevelDB's seek tag with the largest sequence) probes the
             * block after it: the Get's lookup key, at the snapshot's smaller
             * sequence, sorts after the separator (LevelDB 1.23 found so: a
             * hunt's exact probe counts, seed 1 trial 523) */
            for (size_t j = 0; j < nseps; j++) {
                int r = fl_ldb_table_filter_for(t, seps[j].k, seps[j].kn, &f, &idx);
                size_t next = seps[j].block + 1;
                CHECK_EQ(r, next < nb ? 1 : 0);
                if (r == 1 && idx != fl_ldb_table_block_offset(t, next) >> 11)
                    fl_test_fail(__FILE__, __LINE__, "separator %zu (block %zu): filter %zu", j, seps[j].block, idx);
            }
        }
        ents_free(&got);
        ents_free(&want);
        fl_ldb_table_free(t);
        fl_buf_free(&file);
    }
}

/* A flipped filter bit, resealed: the table opens, the bloom check names it. */
FL_TEST(ldb_hand_flipped_filter_bit_named) {
    static hand h;
    hand_entries(&h, 400);
    fl_buf file;
    fl_buf_init(&file);
    tlayout lay;
    topts o = { .block_size = 100, .bpk = 10 };
    enc_table(h.e, h.n, &o, &file, &lay);
    fl_ldb_table *t = NULL;
    char err[512];
    CHECK_OK(fl_ldb_table_open(file.data, file.len, 0, &t, err, sizeof err));
    if (!t) { fl_buf_free(&file); return; }
    fl_slice f2 = fl_ldb_table_filter(t, 2);
    size_t at = (size_t)(f2.data - file.data) + 3;
    fl_ldb_table_free(t);
    file.data[at] ^= 0x10;
    CHECK_RC(fl_ldb_table_open(file.data, file.len, 0, &t, err, sizeof err), FL_ERR_CORRUPT);
    CHECK_CONTAINS(err, "filter block");
    reseal(file.data, (size_t)lay.foff, (size_t)lay.fsize);
    CHECK_OK(fl_ldb_table_open(file.data, file.len, 0, &t, err, sizeof err));
    if (t) {
        CHECK_RC(fl_ldb_bloom_check(t, 10, err, sizeof err), FL_ERR_CORRUPT);
        CHECK_CONTAINS(err, "filter 2 ");
        CHECK_CONTAINS(err, "bit 28)");                      /* byte 3, bit 4 */
        fl_ldb_table_free(t);
    }
    fl_buf_free(&file);
}

/* A small valid table (3 windows) for the corruption tests. */
static void small_table(hand *h, fl_buf *file, tlayout *lay) {
    hand_entries(h, 150);
    fl_buf_init(file);
    topts o = { .block_size = 200, .bpk = 10 };
    enc_table(h->e, h->n, &o, file, lay);
}

FL_TEST(ldb_every_truncation_refused) {
    static hand h;
    fl_buf file;
    tlayout lay;
    small_table(&h, &file, &lay);
    fl_ldb_table *t = NULL;
    char err[512];
    CHECK_OK(fl_ldb_table_open(file.data, file.len, 0, &t, err, sizeof err));
    fl_ldb_table_free(t);
    CHECK(file.len > 4096);
    for (size_t n = 0; n < file.len; n++) {
        uint8_t *copy = malloc(n ? n : 1);           /* exact size: ASan sees any overread */
        if (n) memcpy(copy, file.data, n);
        for (unsigned fl = 0; fl <= FL_LDB_NO_CHECKSUMS; fl++) {
            int rc = fl_ldb_table_open(copy, n, fl, &t, err, sizeof err);
            if (rc != FL_ERR_CORRUPT || t != NULL) {
                fl_test_fail(__FILE__, __LINE__, "truncated to %zu: %d", n, rc);
                fl_ldb_table_free(t);
            }
        }
        free(copy);
    }
    /* and with the footer kept: a table missing its middle */
    for (size_t cut = 1; cut < file.len - 48; cut += 37) {
        size_t n = file.len - cut;
        uint8_t *copy = malloc(n);
        memcpy(copy, file.data, n - 48);
        memcpy(copy + n - 48, file.data + file.len - 48, 48);
        CHECK_RC(fl_ldb_table_open(copy, n, FL_LDB_NO_CHECKSUMS, &t, err, sizeof err), FL_ERR_CORRUPT);
        free(copy);
    }
    fl_buf_free(&file);
}

/* Exercises every reader of a table that opened (for mutated input). */
static void poke(const fl_ldb_table *t) {
    size_t n = 0;
    char err[256];
    fl_ldb_table_each(t, count_fn, &n);
    CHECK_EQ(n, fl_ldb_table_entries_count(t));
    for (size_t i = 0; i <= fl_ldb_table_filter_count(t); i++) fl_ldb_table_filter_keys(t, i, count_fn, &n);
    fl_slice s = fl_ldb_table_smallest(t), l = fl_ldb_table_largest(t), f;
    fl_ldb_table_filter_for(t, s.data, s.len, &f, NULL);
    fl_ldb_table_filter_for(t, l.data, l.len, &f, NULL);
    fl_ldb_bloom_check(t, 10, err, sizeof err);
    fl_ldb_bloom_infer_bits(t);
}

FL_TEST(ldb_every_flipped_byte_refused) {
    static hand h;
    fl_buf file;
    tlayout lay;
    small_table(&h, &file, &lay);
    fl_ldb_table *t = NULL;
    char err[512];
    CHECK_OK(fl_ldb_table_open(file.data, file.len, 0, &t, err, sizeof err));
    size_t nb = t ? fl_ldb_table_block_count(t) : 0;
    uint64_t boff[64], bsize[64];
    for (size_t j = 0; j < nb && j < 64; j++)
        boff[j] = fl_ldb_table_block_offset(t, j), bsize[j] = fl_ldb_table_block_size(t, j);
    fl_ldb_table_free(t);
    uint8_t *copy = malloc(file.len);
    size_t opened_unchecked = 0;
    for (size_t at = 0; at < file.len; at++) {
        /* the region the byte is in, as the error must name it */
        char want[48] = "";
        for (size_t j = 0; j < nb && j < 64; j++)
            if (at >= boff[j] && at < boff[j] + bsize[j] + 5) snprintf(want, sizeof want, "data block %zu ", j);
        if (at >= lay.foff && at < lay.foff + lay.fsize + 5) snprintf(want, sizeof want, "filter block");
        if (at >= lay.moff && at < lay.moff + lay.msize + 5) snprintf(want, sizeof want, "metaindex block");
        if (at >= lay.ioff && at < lay.ioff + lay.isize + 5) snprintf(want, sizeof want, "index block");
        static const uint8_t flips[] = { 0x01, 0x80, 0xff };
        for (size_t x = 0; x < sizeof flips; x++) {
            memcpy(copy, file.data, file.len);
            copy[at] ^= flips[x];
            int rc = fl_ldb_table_open(copy, file.len, 0, &t, err, sizeof err);
            if (rc != FL_ERR_CORRUPT && rc != FL_ERR_VERSION) {
                fl_test_fail(__FILE__, __LINE__, "byte %zu ^ %02x: %d", at, flips[x], rc);
                fl_ldb_table_free(t);
            } else if (want[0] && !strstr(err, want)) {
                fl_test_fail(__FILE__, __LINE__, "byte %zu ^ %02x: \"%s\" does not name %s", at, flips[x], err, want);
            }
            rc = fl_ldb_table_open(copy, file.len, FL_LDB_NO_CHECKSUMS, &t, err, sizeof err);
            if (rc == FL_OK) {
                opened_unchecked++;
                poke(t);
                fl_ldb_table_free(t);
            } else if (rc != FL_ERR_CORRUPT && rc != FL_ERR_VERSION) {
                fl_test_fail(__FILE__, __LINE__, "unchecked, byte %zu ^ %02x: %d", at, flips[x], rc);
            }
        }
    }
    /* without checksums a flipped value byte or CRC byte still opens */
    CHECK(opened_unchecked > 0);
    free(copy);
    fl_buf_free(&file);
}

FL_TEST(ldb_random_bytes_and_mutations) {
    uint64_t seed = 20231;
    fl_ldb_table *t = NULL;
    char err[512];
    for (int round = 0; round < 3000; round++) {
        size_t n = (size_t)(fl_test_rand(&seed) % 700);
        uint8_t *b = malloc(n ? n : 1);
        for (size_t i = 0; i < n; i++) b[i] = (uint8_t)fl_test_rand(&seed);
        if (round % 2 && n >= 48)                                   /* with a valid magic */
            for (int i = 0; i < 8; i++) b[n - 8 + i] = (uint8_t)(0xdb4775248b80fb57ull >> (8 * i));
        int rc = fl_ldb_table_open(b, n, FL_LDB_NO_CHECKSUMS, &t, err, sizeof err);
        CHECK(rc == FL_ERR_CORRUPT || rc == FL_ERR_VERSION);
        CHECK(t == NULL);
        free(b);
    }
    static hand h;
    fl_buf file;
    tlayout lay;
    small_table(&h, &file, &lay);
    uint8_t *copy = malloc(file.len);
    for (int round = 0; round < 4000; round++) {
        memcpy(copy, file.data, file.len);
        int k = 1 + (int)(fl_test_rand(&seed) % 4);
        for (int i = 0; i < k; i++) copy[fl_test_rand(&seed) % file.len] = (uint8_t)fl_test_rand(&seed);
        int rc = fl_ldb_table_open(copy, file.len, FL_LDB_NO_CHECKSUMS, &t, err, sizeof err);
        CHECK(rc == FL_OK || rc == FL_ERR_CORRUPT || rc == FL_ERR_VERSION);
        CHECK((rc == FL_OK) == (t != NULL));
        if (t) poke(t);
        fl_ldb_table_free(t);
    }
    free(copy);
    fl_buf_free(&file);
    CHECK_RC(fl_ldb_table_open(NULL, 10, 0, &t, err, sizeof err), FL_ERR_INVALID);
    CHECK_RC(fl_ldb_table_open((const uint8_t *)"x", 1, 4, &t, err, sizeof err), FL_ERR_INVALID);
}

/* Tables wrong in one way each, with correct CRCs: refused, saying what. */
static void expect_refused(const tent *e, size_t n, const topts *o, int want, const char *says) {
    fl_buf file;
    fl_buf_init(&file);
    tlayout lay;
    enc_table(e, n, o, &file, &lay);
    fl_ldb_table *t = NULL;
    char err[512] = "";
    int rc = fl_ldb_table_open(file.data, file.len, 0, &t, err, sizeof err);
    if (rc != want || !strstr(err, says))
        fl_test_fail(__FILE__, __LINE__, "expected %d saying \"%s\", got %d: %s", want, says, rc, err);
    fl_ldb_table_free(t);
    fl_buf_free(&file);
}

/* Patches file[at] = v, reseals the block (off, size), expects refusal. */
static void expect_patch_refused(const fl_buf *file, size_t at, uint8_t v, size_t off, size_t size,
                                 int want, const char *says) {
    uint8_t *c = malloc(file->len);
    memcpy(c, file->data, file->len);
    c[at] = v;
    if (size) reseal(c, off, size);
    fl_ldb_table *t = NULL;
    char err[512] = "";
    int rc = fl_ldb_table_open(c, file->len, 0, &t, err, sizeof err);
    if (rc != want || !strstr(err, says))
        fl_test_fail(__FILE__, __LINE__, "byte %zu = %02x: expected %d saying \"%s\", got %d: %s", at, v, want,
                     says, rc, err);
    fl_ldb_table_free(t);
    free(c);
}

FL_TEST(ldb_semantic_corruptions_refused) {
    static hand h;
    hand_entries(&h, 150);
    topts o = { .block_size = 200, .bpk = 10 };
    static tent e[1200];
    /* out of order; equal user keys with ascending seq; an unknown type;
     * a deletion with a value; the index key before the block's last key;
     * no entries; a second filter in the metaindex */
    memcpy(e, h.e, h.n * sizeof e[0]);
    tent tmp = e[40]; e[40] = e[41]; e[41] = tmp;
    expect_refused(e, h.n, &o, FL_ERR_CORRUPT, "internal key order");
    memcpy(e, h.e, h.n * sizeof e[0]);
    CHECK(ukey_cmp(e[1].k, e[1].kn, e[2].k, e[2].kn) == 0);      /* the empty key's versions */
    for (size_t i = 0; i + 1 < h.n; i++)
        if (ukey_cmp(e[i].k, e[i].kn, e[i + 1].k, e[i + 1].kn) == 0) {
            tmp = e[i]; e[i] = e[i + 1]; e[i + 1] = tmp;
            break;
        }
    expect_refused(e, h.n, &o, FL_ERR_CORRUPT, "internal key order");
    memcpy(e, h.e, h.n * sizeof e[0]);
    e[31] = e[30];                                                /* the same internal key twice */
    expect_refused(e, h.n, &o, FL_ERR_CORRUPT, "internal key order");
    memcpy(e, h.e, h.n * sizeof e[0]);
    e[17].type = 2;
    expect_refused(e, h.n, &o, FL_ERR_CORRUPT, "type 2, expected 1 (value) or 0 (deletion)");
    memcpy(e, h.e, h.n * sizeof e[0]);
    for (size_t i = 0; i < h.n; i++)
        if (e[i].type == 0) { e[i].v = (const uint8_t *)"x"; e[i].vn = 1; break; }
    expect_refused(e, h.n, &o, FL_ERR_CORRUPT, "deletion");
    topts wrong = o;
    wrong.index_first = true;
    expect_refused(h.e, h.n, &wrong, FL_ERR_CORRUPT, "is after its index key");
    expect_refused(h.e, 0, &o, FL_ERR_CORRUPT, "no entries");
    wrong = o;
    wrong.no_prefix = true;
    expect_refused(h.e, h.n, &wrong, FL_ERR_CORRUPT, "fewer than their common prefix");
    wrong = o;
    wrong.meta_extra = "filter.other";
    expect_refused(h.e, h.n, &wrong, FL_ERR_CORRUPT, "a second filter entry");
    /* another meta key is ignored */
    fl_buf file;
    fl_buf_init(&file);
    tlayout lay;
    wrong.meta_extra = "zzz.stats";
    enc_table(h.e, h.n, &wrong, &file, &lay);
    fl_ldb_table *t = NULL;
    char err[512];
    CHECK_OK(fl_ldb_table_open(file.data, file.len, 0, &t, err, sizeof err));
    fl_ldb_table_free(t);
    fl_buf_free(&file);

    /* patches of the good table, resealed */
    fl_buf_init(&file);
    enc_table(h.e, h.n, &o, &file, &lay);
    CHECK_OK(fl_ldb_table_open(file.data, file.len, 0, &t, err, sizeof err));
    if (!t) { fl_buf_free(&file); return; }
    size_t b0 = (size_t)fl_ldb_table_block_size(t, 0), b1 = (size_t)fl_ldb_table_block_offset(t, 1);
    size_t b1n = (size_t)fl_ldb_table_block_size(t, 1);
    fl_ldb_table_free(t);
    size_t fo = (size_t)lay.foff, fs = (size_t)lay.fsize, foot = file.len - 48;
    expect_patch_refused(&file, b0, 1, 0, b0, FL_ERR_VERSION, "data block 0 at offset 0 is compressed with snappy");
    expect_patch_refused(&file, b1 + b1n, 1, b1, b1n, FL_ERR_VERSION, "data block 1 at offset");
    expect_patch_refused(&file, (size_t)(lay.ioff + lay.isize), 1, (size_t)lay.ioff, (size_t)lay.isize,
                         FL_ERR_VERSION, "index block");
    expect_patch_refused(&file, b0, 7, 0, b0, FL_ERR_CORRUPT, "compression type 7");
    expect_patch_refused(&file, 3, file.data[3] ^ 4, 0, 0, FL_ERR_CORRUPT, "data block 0 at offset 0 (");
    expect_patch_refused(&file, b0 - 4, 0, 0, b0, FL_ERR_CORRUPT, "restart points");     /* num_restarts 0 */
    expect_patch_refused(&file, b0 - 8, 1, 0, b0, FL_ERR_CORRUPT, "restart");            /* mid-entry */
    expect_patch_refused(&file, 0, 1, 0, b0, FL_ERR_CORRUPT, "shares 1 bytes");          /* first entry */
    size_t second = 3 + (size_t)file.data[1] + file.data[2];      /* one-byte varints here */
    expect_patch_refused(&file, second, 0x7f, 0, b0, FL_ERR_CORRUPT, "shares 127 bytes with the previous key, which has");
    expect_patch_refused(&file, fo + fs - 1, 12, fo, fs, FL_ERR_CORRUPT, "base_lg 12");
    expect_patch_refused(&file, fo + fs - 5, file.data[fo + fs - 5] + 4, fo, fs, FL_ERR_CORRUPT, "filters");
    expect_patch_refused(&file, foot + 39, 1, 0, 0, FL_ERR_CORRUPT, "padding byte 39");
    expect_patch_refused(&file, foot + 40, 0x58, 0, 0, FL_ERR_CORRUPT, "magic");
    /* the filter block's first filter moved: its offset 0 -> 1 */
    size_t arr = file.data[fo + fs - 5] | (size_t)file.data[fo + fs - 4] << 8;
    expect_patch_refused(&file, fo + arr, 1, fo, fs, FL_ERR_CORRUPT, "filter 0 spans");
    fl_buf_free(&file);
}

/* A window without blocks must have an empty filter. */
FL_TEST(ldb_filter_layout_checked) {
    static hand h;
    static uint8_t big[7000];
    hand_entries(&h, 400);
    h.e[h.n - 1].v = big;                                   /* the last block spans windows */
    h.e[h.n - 1].vn = sizeof big;
    fl_buf file;
    fl_buf_init(&file);
    tlayout lay;
    topts o = { .block_size = 8000, .bpk = 10 };
    enc_table(h.e, h.n, &o, &file, &lay);
    fl_ldb_table *t = NULL;
    char err[512];
    CHECK_OK(fl_ldb_table_open(file.data, file.len, 0, &t, err, sizeof err));
    if (!t) { fl_buf_free(&file); return; }
    CHECK_EQ(fl_ldb_table_filter(t, 1).len, 0);                      /* window [2048, 4096) */
    CHECK(fl_ldb_table_filter(t, 0).len > 0);
    /* filters up to the data's end: the windows after the last block's start are empty */
    size_t nb = fl_ldb_table_block_count(t), nf = fl_ldb_table_filter_count(t);
    uint64_t last = fl_ldb_table_block_offset(t, nb - 1) >> 11;
    CHECK_EQ(nf, lay.foff >> 11);
    CHECK(nf > last + 2);
    for (size_t i = (size_t)last + 1; i < nf; i++) CHECK_EQ(fl_ldb_table_filter(t, i).len, 0);
    CHECK_OK(fl_ldb_bloom_check(t, 10, err, sizeof err));
    fl_ldb_table_free(t);
    /* give filter 1 filter 0's last byte: offset[1] -= 1 */
    size_t fo = (size_t)lay.foff, fs = (size_t)lay.fsize;
    size_t arr = file.data[fo + fs - 5] | (size_t)file.data[fo + fs - 4] << 8;
    expect_patch_refused(&file, fo + arr + 4, (uint8_t)(file.data[fo + arr + 4] - 1), fo, fs, FL_ERR_CORRUPT,
                         "filter 1 has 1 bytes, but no data block starts in its window [2048, 4096)");
    fl_buf_free(&file);
}
