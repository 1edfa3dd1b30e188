/*
 * test_rtomb.c -- the range-tombstone index (engine/keys.c): for random
 * lists of overlapping, nested, empty and duplicate tombstones over short
 * keys, fl_rtomb_max_seq with the index (built at once, or caught up one
 * tombstone at a time as a memtable's is) answers exactly what a pass over
 * every tombstone answers, for every key of a small alphabet and the
 * tombstones' own bounds.  Seeded; a failure prints the seed and the case.
 */
#include "test.h"
#include "../engine/engine_internal.h"

#include <stdlib.h>


static size_t random_key(uint64_t *s, uint8_t *out) {
    size_t len = fl_test_rand(s) % 4;                 /* "" .. 3 bytes of a..d */
    for (size_t i = 0; i < len; i++) out[i] = (uint8_t)('a' + fl_test_rand(s) % 4);
    return len;
}

/* One tombstone of random short bounds (maybe empty or reversed) at seq. */
static void add_random(fl_rtomb_list *l, uint64_t *s, uint64_t seq) {
    uint8_t a[4], b[4];
    size_t al = random_key(s, a), bl = random_key(s, b);
    CHECK_OK(fl_rtomb_list_add(l, a, al, b, bl, seq));
}

static uint64_t scan_max(const fl_rtomb_list *l, const uint8_t *k, size_t klen) {
    uint64_t m = 0;
    for (size_t i = 0; i < l->count; i++)
        if (l->items[i].seq > m && fl_rtomb_covers(&l->items[i], k, klen)) m = l->items[i].seq;
    return m;
}


FL_TEST(rtomb_index_matches_a_scan) {
    for (uint64_t seed = 1; seed <= 300; seed++) {
        uint64_t s = seed;
        fl_rtomb_list l = { 0 };
        size_t n = fl_test_rand(&s) % 12;
        for (size_t i = 0; i < n; i++) add_random(&l, &s, 1 + fl_test_rand(&s) % 6);   /* repeated seqs */
        CHECK_OK(fl_rtomb_list_index(&l));
        CHECK_EQ(l.indexed, l.count);
        uint8_t k[4];
        size_t klen = 0;
        bool more = true;
        for (int guard = 0; more && guard < 1000; guard++) {
            uint64_t want = scan_max(&l, k, klen), got = fl_rtomb_max_seq(&l, k, klen);
            if (want != got) {
                fl_test_fail(__FILE__, __LINE__, "seed %" PRIu64 ": key \"%.*s\": index %" PRIu64
                             ", scan %" PRIu64, seed, (int)klen, (const char *)k, got, want);
                break;
            }
            more = fl_test_next_short_key(k, &klen);
        }
        for (size_t i = 0; i < l.count; i++) {          /* the bounds themselves */
            const fl_rtomb *rt = &l.items[i];
            CHECK_EQ(fl_rtomb_max_seq(&l, rt->start, rt->slen), scan_max(&l, rt->start, rt->slen));
            CHECK_EQ(fl_rtomb_max_seq(&l, rt->end, rt->elen), scan_max(&l, rt->end, rt->elen));
        }
        fl_rtomb_list_free(&l);
    }
}

/* Every key of up to 3 bytes over a..e, asked alone and through a cursor
 * in order, and every tombstone's bounds: the index (and the tombstones
 * past it) answers as a scan; false (and the failure reported) otherwise. */
static bool index_agrees(const fl_rtomb_list *l, uint64_t seed, size_t added) {
    uint8_t k[4];
    size_t klen = 0;
    fl_rtomb_cursor c = { .list = l };
    for (bool more = true; more; more = fl_test_next_short_key(k, &klen)) {
        uint64_t want = scan_max(l, k, klen), got = fl_rtomb_max_seq(l, k, klen);
        uint64_t walked = fl_rtomb_cursor_max_seq(&c, k, klen);
        if (want != got || want != walked) {
            fl_test_fail(__FILE__, __LINE__, "seed %" PRIu64 " after %zu tombstones: key \"%.*s\": index %"
                         PRIu64 ", cursor %" PRIu64 ", scan %" PRIu64, seed, added, (int)klen, (const char *)k,
                         got, walked, want);
            return false;
        }
    }
    for (size_t i = 0; i < l->count; i++) {
        const fl_rtomb *rt = &l->items[i];
        if (fl_rtomb_max_seq(l, rt->start, rt->slen) != scan_max(l, rt->start, rt->slen) ||
            fl_rtomb_max_seq(l, rt->end, rt->elen) != scan_max(l, rt->end, rt->elen)) {
            fl_test_fail(__FILE__, __LINE__, "seed %" PRIu64 " after %zu tombstones: tombstone %zu's bounds",
                         seed, added, i);
            return false;
        }
    }
    return true;
}

/* The most tombstones fl_rtomb_list_catch_up leaves past the index. */
static size_t tail_bound(size_t count) {
    size_t root = 1;
    while (root * root < count) root++;
    return 8 + root;
}

/* A memtable's index, caught up after each range delete or after a burst
 * of them (past FL_RTOMB_ONE_BY_ONE: left past the index, or a rebuild),
 * with seqs rising as a memtable's do, or falling and repeating. */
FL_TEST(rtomb_index_caught_up_one_by_one_matches_a_scan) {
    for (uint64_t seed = 1; seed <= 200; seed++) {
        uint64_t s = seed;
        fl_rtomb_list l = { 0 };
        size_t n = 1 + fl_test_rand(&s) % 30;
        int order = (int)(seed % 3);                 /* rising, falling, random with repeats */
        bool ok = true;
        for (size_t i = 0; i < n && ok; i++) {
            add_random(&l, &s, order == 0 ? i + 1 : order == 1 ? n - i : 1 + fl_test_rand(&s) % 5);
            size_t burst = seed % 5 == 0 ? FL_RTOMB_ONE_BY_ONE + 1 : seed % 2 ? 1 : 3;
            if ((i + 1) % burst == 0 || i + 1 == n) {
                CHECK_OK(fl_rtomb_list_catch_up(&l));
                CHECK(l.count - l.indexed <= tail_bound(l.count));
                ok = index_agrees(&l, seed, i + 1);
            }
        }
        fl_rtomb_list_free(&l);
    }
}

/* A memtable with thousands of range deletes, caught up after each: past
 * FL_RTOMB_FEW_PIECES pieces the newest stay past the index, at most
 * 8 + sqrt(count) of them, and every answer is still a scan's -- for the
 * tombstones' bounds, keys next to them and random keys of 5 bytes over
 * a..h, alone and through a cursor in key order. */
static void key5(uint32_t x, uint8_t *k) {
    for (int j = 0; j < 5; j++) k[j] = (uint8_t)('a' + (x >> (3 * (4 - j)) & 7));
}

FL_TEST(rtomb_index_of_many_tombstones_matches_a_scan) {
    enum { N = FL_RTOMB_FEW_PIECES * 3 / 4 };
    uint64_t s = 42;
    fl_rtomb_list l = { 0 };
    bool many = false, tail = false;
    for (size_t i = 0; i < N; i++) {
        /* mostly one key wide and apart (two pieces each), now and then
         * wider over others, empty or reversed */
        uint32_t x = (uint32_t)(i * 4 % 32768), w = 1;
        if (fl_test_rand(&s) % 10 == 0) { x = (uint32_t)(fl_test_rand(&s) % 32768); w = (uint32_t)(fl_test_rand(&s) % 40); }
        uint8_t a[5], b[5];
        key5(x, a);
        key5(x + w < 32768 ? x + w : 32767, b);
        if (fl_test_rand(&s) % 50 == 0) { uint8_t t[5]; memcpy(t, a, 5); memcpy(a, b, 5); memcpy(b, t, 5); }
        CHECK_OK(fl_rtomb_list_add(&l, a, 5, b, 5, i + 1));
        CHECK_OK(fl_rtomb_list_catch_up(&l));
        CHECK(l.count - l.indexed <= tail_bound(l.count));
        many |= l.frag_count > FL_RTOMB_FEW_PIECES;
        tail |= l.indexed < l.count;
        if (!many || (i + 1) % 500 != 0) continue;
        uint32_t q[3000];
        for (size_t t = 0; t < 3000; t++) {
            if (t < 2000) {                      /* the latest bounds, and the keys after them */
                const fl_rtomb *rt = &l.items[i - t / 4];
                const uint8_t *p = t % 4 < 2 ? rt->start : rt->end;
                uint32_t v = 0;
                for (int j = 0; j < 5; j++) v = v << 3 | (uint32_t)(p[j] - 'a');
                q[t] = v + (t % 2 && v < 32767);
            } else {
                q[t] = (uint32_t)(fl_test_rand(&s) % 32768);
            }
        }
        for (size_t a1 = 1; a1 < 3000; a1++)     /* in key order, for the cursor */
            for (size_t b1 = a1; b1 > 0 && q[b1 - 1] > q[b1]; b1--) { uint32_t t = q[b1]; q[b1] = q[b1 - 1]; q[b1 - 1] = t; }
        fl_rtomb_cursor c = { .list = &l };
        for (size_t t = 0; t < 3000; t++) {
            uint8_t k[5];
            key5(q[t], k);
            uint64_t want = scan_max(&l, k, 5);
            if (fl_rtomb_max_seq(&l, k, 5) != want || fl_rtomb_cursor_max_seq(&c, k, 5) != want) {
                fl_test_fail(__FILE__, __LINE__, "after %zu tombstones (%zu past the index): key %.5s answered "
                             "unlike a scan", i + 1, l.count - l.indexed, (const char *)k);
                i = N;
                break;
            }
        }
    }
    CHECK(many);
    CHECK(tail);
    fl_rtomb_list_free(&l);
}

/* A cursor (a merge's or a scan's) answers as a scan whatever the order of
 * the keys asked: every key ascending, ascending with jumps (past the
 * cursor's few steps), at random, and descending. */
FL_TEST(rtomb_cursor_answers_as_a_scan) {
    static uint8_t keys[160][3];
    static size_t lens[160];
    size_t nk = 0;
    uint8_t k[4];
    size_t klen = 0;
    for (bool more = true; more && nk < 160; more = fl_test_next_short_key(k, &klen)) {
        memcpy(keys[nk], k, klen);
        lens[nk++] = klen;
    }
    for (uint64_t seed = 1; seed <= 200; seed++) {
        uint64_t s = seed;
        fl_rtomb_list l = { 0 };
        size_t n = fl_test_rand(&s) % 40;
        for (size_t i = 0; i < n; i++) add_random(&l, &s, 1 + fl_test_rand(&s) % 9);
        CHECK_OK(fl_rtomb_list_index(&l));
        for (int order = 0; order < 4; order++) {
            fl_rtomb_cursor c = { .list = &l };
            size_t seq[160], m = 0;
            for (size_t i = 0; i < nk; i += order == 1 ? 1 + fl_test_rand(&s) % 12 : 1)
                seq[m++] = order == 2 ? fl_test_rand(&s) % nk : order == 3 ? nk - 1 - i : i;
            for (size_t i = 0; i < m; i++) {
                size_t j = seq[i];
                uint64_t want = scan_max(&l, keys[j], lens[j]), got = fl_rtomb_cursor_max_seq(&c, keys[j], lens[j]);
                if (want != got) {
                    fl_test_fail(__FILE__, __LINE__, "seed %" PRIu64 " order %d: key \"%.*s\": cursor %" PRIu64
                                 ", scan %" PRIu64, seed, order, (int)lens[j], (const char *)keys[j], got, want);
                    order = 4;
                    break;
                }
            }
        }
        fl_rtomb_list_free(&l);
    }
}

FL_TEST(rtomb_index_stale_falls_back_to_a_scan) {
    fl_rtomb_list l = { 0 };
    CHECK_OK(fl_rtomb_list_add(&l, (const uint8_t *)"b", 1, (const uint8_t *)"d", 1, 5));
    CHECK_OK(fl_rtomb_list_index(&l));
    /* added after indexing: the index is stale and must not be trusted */
    CHECK_OK(fl_rtomb_list_add(&l, (const uint8_t *)"a", 1, (const uint8_t *)"z", 1, 9));
    CHECK_EQ(fl_rtomb_max_seq(&l, (const uint8_t *)"c", 1), 9);
    CHECK_EQ(fl_rtomb_max_seq(&l, (const uint8_t *)"y", 1), 9);
    CHECK_OK(fl_rtomb_list_index(&l));
    CHECK_EQ(fl_rtomb_max_seq(&l, (const uint8_t *)"c", 1), 9);
    CHECK_EQ(fl_rtomb_max_seq(&l, (const uint8_t *)"z", 1), 0);
    CHECK_EQ(fl_rtomb_max_seq(&l, (const uint8_t *)"", 0), 0);
    fl_rtomb_list_free(&l);
}
