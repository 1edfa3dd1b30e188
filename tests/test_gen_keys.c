/*
 * test_gen_keys.c -- unit tests of the keys the generators write and read:
 * absent gets and prefixes are really absent (never put, inside the key
 * range) and present ones really present; deletes hit written keys and
 * ranges are non-empty; adversarial covers its edge keys; timeseries keys
 * are big-endian and increasing per sensor; zipf is skewed and uniform is
 * not; group-suffix and delimited keys have their form; words come from the
 * word list (and the installed one works when there is one).
 */
#include "test_gen.h"

#include <unistd.h>

/* ---- Present and absent -------------------------------------------------------- */

/* An absent key made from the only written key, the empty one, by dropping
 * its last byte (of which it has none), in a buffer that never held a byte:
 * the generator once added the offset 0 to that buffer's NULL pointer,
 * which the ASan+UBSan build of this test reports (found by an ASan check
 * run; this is the smallest workload that does it, as
 * `filterlab gen --shape adversarial --ops 3 --keys 20 --mix put=50,get_absent=50 --seed 1624`). */
FL_TEST(gen_absent_key_next_to_the_empty_key) {
    fl_gen_options o;
    defaults(&o, FL_SHAPE_ADVERSARIAL);
    o.ops = 3;
    o.keys = 20;
    o.w_put = 50; o.w_get_absent = 50;
    o.w_del = o.w_delrange = o.w_get_present = o.w_prefix_present = o.w_prefix_absent = o.w_scan = o.w_seek = 0;
    o.seed = 1624;
    fl_workload w;
    if (!generate(&o, &w)) return;
    CHECK_EQ(w.count, 3);
    CHECK(w.ops[1].kind == FL_OP_PUT && w.ops[1].a.len == 0);          /* the empty key */
    CHECK(w.ops[2].kind == FL_OP_GET && w.ops[2].a.len > 0);           /* absent: not it */
    fl_workload_free(&w);
}

FL_TEST(gen_absent_reads_are_absent) {
    for (size_t i = 0; i < SHAPES; i++) {
        fl_gen_options o;
        defaults(&o, all_shapes[i]);
        o.ops = 6000;
        o.w_put = 50; o.w_get_absent = 30; o.w_prefix_absent = 20;
        o.w_del = o.w_delrange = o.w_get_present = o.w_prefix_present = o.w_scan = o.w_seek = 0;
        fl_workload w;
        if (!generate(&o, &w)) continue;
        const char *name = fl_gen_shape_name(o.shape);
        str_set all = puts_before(&w, w.count);           /* before or after */
        written_view v = { &w, 0, { NULL, 0, 0 } };
        size_t gets = 0, prefixes = 0, bad_gets = 0, bad_prefixes = 0;
        for (size_t k = 0; k < w.count; k++) {
            const fl_op *op = &w.ops[k];
            if (op->kind == FL_OP_GET) {
                gets++;
                if (set_has(&all, &op->a) && bad_gets++ == 0)
                    fl_test_fail(__FILE__, __LINE__, "%s: op %zu: absent get of a key put", name, k);
            } else if (op->kind == FL_OP_SCAN_PREFIX) {
                prefixes++;
                view_advance(&v, k);
                CHECK(op->a.len > 0);
                if (set_has_prefix(&v.s, &op->a) && bad_prefixes++ == 0)
                    fl_test_fail(__FILE__, __LINE__, "%s: op %zu: absent prefix of a key put before",
                                 name, k);
            }
        }
        CHECK(gets > 1000 && prefixes > 700);
        CHECK_EQ(bad_gets, 0);
        CHECK_EQ(bad_prefixes, 0);
        /* inside the key range: most absent gets fall between written keys */
        size_t inside = 0;
        for (size_t k = 0; k < w.count; k++)
            if (w.ops[k].kind == FL_OP_GET && all.n &&
                cmp_bytes(&w.ops[k].a, &all.v[0]) > 0 && cmp_bytes(&w.ops[k].a, &all.v[all.n - 1]) < 0)
                inside++;
        if (inside * 10 < gets * 9)
            fl_test_fail(__FILE__, __LINE__, "%s: only %zu of %zu absent gets inside the key range",
                         name, inside, gets);
        free(all.v);
        free(v.s.v);
        fl_workload_free(&w);
    }
}

FL_TEST(gen_present_reads_and_deletes_hit_written_keys) {
    for (size_t i = 0; i < SHAPES; i++) {
        fl_gen_options o;
        defaults(&o, all_shapes[i]);
        o.ops = 6000;
        o.w_put = 40; o.w_get_present = 25; o.w_prefix_present = 15; o.w_del = 10;
        o.w_delrange = 5; o.w_scan = 5;
        o.w_get_absent = o.w_prefix_absent = 0;
        fl_workload w;
        if (!generate(&o, &w)) continue;
        const char *name = fl_gen_shape_name(o.shape);
        written_view v = { &w, 0, { NULL, 0, 0 } };
        size_t bad = 0, ranges = 0, hit_ranges = 0, prefix_lens[10] = { 0 };
        for (size_t k = 0; k < w.count; k++) {
            const fl_op *op = &w.ops[k];
            view_advance(&v, k);
            bool ok = true;
            switch (op->kind) {
            case FL_OP_GET: case FL_OP_DEL: ok = set_has(&v.s, &op->a); break;
            case FL_OP_SCAN_PREFIX:
                ok = set_has_prefix(&v.s, &op->a);
                prefix_lens[op->a.len < 9 ? op->a.len : 9]++;
                break;
            case FL_OP_DELRANGE: case FL_OP_SCAN: {
                ok = cmp_bytes(&op->a, &op->b) < 0;                 /* never empty */
                ranges++;
                size_t at = set_lower(&v.s, &op->a);        /* a written key inside */
                if (at < v.s.n && cmp_bytes(&v.s.v[at], &op->b) < 0) hit_ranges++;
                break;
            }
            default: break;
            }
            if (!ok && bad++ == 0)
                fl_test_fail(__FILE__, __LINE__, "%s: op %zu (%s) does not hit a written key", name,
                             k, fl_op_name(op->kind));
        }
        CHECK_EQ(bad, 0);
        CHECK(ranges > 300);
        CHECK(hit_ranges * 10 >= ranges * 7);
        /* prefix lengths vary over the extractor lengths */
        size_t short_ones = 0, lengths_seen = 0;
        for (int l = 1; l <= 8; l++) { short_ones += prefix_lens[l]; lengths_seen += prefix_lens[l] > 0; }
        if (lengths_seen < 6)
            fl_test_fail(__FILE__, __LINE__, "%s: scan_prefix used %zu of the lengths 1..8", name,
                         lengths_seen);
        CHECK(short_ones > 0);
        free(v.s.v);
        fl_workload_free(&w);
    }
}

/* ---- Shapes ---------------------------------------------------------------------- */

static bool all_bytes(const fl_bytes *b, uint8_t c) {
    for (size_t i = 0; i < b->len; i++) if (b->data[i] != c) return false;
    return b->len > 0;
}

FL_TEST(gen_adversarial_covers_its_edge_keys) {
    fl_gen_options o;
    defaults(&o, FL_SHAPE_ADVERSARIAL);
    o.ops = 5000;
    fl_workload w;
    if (!generate(&o, &w)) return;
    bool empty = false, nul = false, ff = false, all_ff = false, all_nul = false, long_key = false,
         short_key[9] = { false }, delim_first = false, delim_last = false, nul_last = false,
         empty_value = false, key_prefix_of_key = false, high = false;
    str_set keys = puts_before(&w, w.count);
    for (size_t k = 0; k < w.count; k++) {
        const fl_op *op = &w.ops[k];
        if (op->kind != FL_OP_PUT) continue;
        const fl_bytes *a = &op->a;
        empty |= a->len == 0;
        nul |= a->len && memchr(a->data, 0, a->len);
        ff |= a->len && memchr(a->data, 0xff, a->len);
        all_ff |= all_bytes(a, 0xff);
        all_nul |= all_bytes(a, 0x00);
        long_key |= a->len >= 1024;
        if (a->len >= 1 && a->len <= 8) short_key[a->len] = true;
        delim_first |= a->len > 1 && (a->data[0] == ':' || a->data[0] == '/');
        delim_last |= a->len > 1 && (a->data[a->len - 1] == ':' || a->data[a->len - 1] == '/');
        nul_last |= a->len > 1 && a->data[a->len - 1] == 0 && a->data[0] != 0;
        empty_value |= op->b.len == 0;
        for (size_t j = 0; j < a->len; j++) high |= a->data[j] >= 0x80 && a->data[j] != 0xff;
        /* a longer key put with this key as its prefix */
        size_t at = set_lower(&keys, a);
        while (at < keys.n && bytes_cmp(&keys.v[at], a) == 0) at++;     /* past its copies */
        if (at < keys.n && a->len > 0 && keys.v[at].len > a->len &&
            memcmp(keys.v[at].data, a->data, a->len) == 0)
            key_prefix_of_key = true;
    }
    CHECK(empty);
    CHECK(nul);
    CHECK(ff);
    CHECK(all_ff);
    CHECK(all_nul);
    CHECK(long_key);
    for (int l = 1; l <= 8; l++) CHECK(short_key[l]);
    CHECK(delim_first);
    CHECK(delim_last);
    CHECK(nul_last);
    CHECK(empty_value);
    CHECK(key_prefix_of_key);
    CHECK(high);
    free(keys.v);
    fl_workload_free(&w);
}

FL_TEST(gen_timeseries_keys_are_big_endian_per_sensor) {
    fl_gen_options o;
    defaults(&o, FL_SHAPE_TIMESERIES);
    o.ops = 8000;
    o.keys = 2500;                      /* 10 sensors */
    fl_workload w;
    if (!generate(&o, &w)) return;
    struct { char id[8]; uint64_t last; size_t n; } sensors[64];
    size_t nsensors = 0, puts = 0, bad = 0;
    bool binary = false;
    for (size_t k = 0; k < w.count; k++) {
        const fl_op *op = &w.ops[k];
        if (op->kind != FL_OP_PUT) continue;
        puts++;
        CHECK_EQ(op->a.len, 13);
        if (op->a.len != 13 || op->a.data[0] != 's') { bad++; continue; }
        uint64_t ts = 0;
        for (int i = 0; i < 8; i++) ts = ts << 8 | op->a.data[5 + i];
        for (int i = 0; i < 8; i++) binary |= op->a.data[5 + i] < 0x21 || op->a.data[5 + i] > 0x7e;
        size_t s = 0;
        while (s < nsensors && memcmp(sensors[s].id, op->a.data, 5) != 0) s++;
        if (s == nsensors) {
            if (nsensors == 64) { bad++; continue; }
            memcpy(sensors[nsensors].id, op->a.data, 5);
            sensors[nsensors].last = 0;
            sensors[nsensors++].n = 0;
        }
        if (ts <= sensors[s].last && bad++ == 0)
            fl_test_fail(__FILE__, __LINE__, "op %zu: timestamp %" PRIu64 " not after %" PRIu64,
                         k, ts, sensors[s].last);
        /* plausible milliseconds since 1970 (2023 onwards) */
        CHECK(ts > 1600000000000ull && ts < 2000000000000ull);
        sensors[s].last = ts;
        sensors[s].n++;
    }
    CHECK_EQ(bad, 0);
    CHECK(puts > 2000);
    CHECK_EQ(nsensors, 10);
    CHECK(binary);
    fl_workload_free(&w);
}

FL_TEST(gen_zipf_is_skewed_and_uniform_is_not) {
    size_t top[2] = { 0, 0 }, puts[2] = { 0, 0 };
    for (int z = 0; z < 2; z++) {
        fl_gen_options o;
        defaults(&o, z ? FL_SHAPE_ZIPF : FL_SHAPE_UNIFORM);
        o.ops = 20000;
        o.flush_every = o.compact_every = o.reopen_every = 0;
        o.w_put = 1;
        o.w_del = o.w_delrange = o.w_get_present = o.w_get_absent = o.w_prefix_present =
            o.w_prefix_absent = o.w_scan = o.w_seek = 0;
        fl_workload w;
        if (!generate(&o, &w)) return;
        str_set s = puts_before(&w, w.count);
        puts[z] = s.n;
        for (size_t i = 0, run = 0; i < s.n; i++) {
            run = i && bytes_cmp(&s.v[i], &s.v[i - 1]) == 0 ? run + 1 : 1;
            if (run > top[z]) top[z] = run;
        }
        free(s.v);
        fl_workload_free(&w);
    }
    CHECK_EQ(puts[0], 19999);
    /* zipf(0.99) over 10,000 keys: the top key takes ~10% of the draws */
    CHECK(top[1] * 100 > puts[1] * 5);
    CHECK(top[0] * 100 < puts[0] * 1);
}

FL_TEST(gen_group_suffix_and_delimited_shapes) {
    fl_gen_options o;
    defaults(&o, FL_SHAPE_GROUP_SUFFIX);
    o.ops = 3000;
    fl_workload w;
    if (generate(&o, &w)) {
        for (size_t k = 0; k < w.count; k++) {
            const fl_op *op = &w.ops[k];
            if (op->kind != FL_OP_PUT) continue;
            /* "g" + 4 digits + a 3-12 byte suffix */
            bool ok = op->a.len >= 8 && op->a.len <= 17 && op->a.data[0] == 'g';
            for (int i = 1; i < 5 && ok; i++) ok = op->a.data[i] >= '0' && op->a.data[i] <= '9';
            if (!ok) { fl_test_fail(__FILE__, __LINE__, "op %zu: not GroupId||Suffix", k); break; }
        }
        fl_workload_free(&w);
    }
    defaults(&o, FL_SHAPE_DELIMITED);
    o.ops = 3000;
    if (generate(&o, &w)) {
        size_t lens[3][16] = { { 0 } };
        for (size_t k = 0; k < w.count; k++) {
            const fl_op *op = &w.ops[k];
            if (op->kind != FL_OP_PUT) continue;
            size_t field = 0, start = 0;
            for (size_t i = 0; i <= op->a.len; i++) {
                if (i < op->a.len && op->a.data[i] != ':') continue;
                if (field < 3 && i - start < 16) lens[field][i - start]++;
                field++;
                start = i + 1;
            }
            if (field != 3) { fl_test_fail(__FILE__, __LINE__, "op %zu: not tenant:user:item", k); break; }
        }
        for (int f = 0; f < 3; f++) {
            int distinct = 0;
            for (int l = 0; l < 16; l++) distinct += lens[f][l] > 0;
            CHECK(distinct >= 3);           /* field lengths vary */
            CHECK_EQ(lens[f][0], 0);        /* no empty field */
        }
        fl_workload_free(&w);
    }
}

FL_TEST(gen_words_uses_the_word_list) {
    fl_gen_options o;
    defaults(&o, FL_SHAPE_WORDS);
    o.ops = 3000;
    fl_workload w;
    if (!generate(&o, &w)) return;
    size_t pairs = 0, singles = 0;
    for (size_t k = 0; k < w.count; k++) {
        const fl_op *op = &w.ops[k];
        if (op->kind != FL_OP_PUT) continue;
        const uint8_t *colon = memchr(op->a.data, ':', op->a.len);
        size_t first = colon ? (size_t)(colon - op->a.data) : op->a.len;
        bool ok = is_word(op->a.data, first);
        if (colon) {
            pairs++;
            ok = ok && is_word(colon + 1, op->a.len - first - 1);
        } else {
            singles++;
        }
        if (!ok) { fl_test_fail(__FILE__, __LINE__, "op %zu: not a word or word:word", k); break; }
    }
    CHECK(pairs > 100 && singles > pairs);
    fl_workload_free(&w);
    /* the installed list, when there is one */
    if (access("/usr/share/dict/words", R_OK) == 0) {
        fl_gen_defaults(&o, FL_SHAPE_WORDS);
        o.ops = 500;
        if (generate(&o, &w)) {
            CHECK_EQ(w.count, 500);
            fl_workload_free(&w);
        }
    }
}
