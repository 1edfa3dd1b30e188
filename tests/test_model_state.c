/*
 * test_model_state.c -- the reference model's logical state (model/) against
 * a brute-force list (get, scan_prefix, scan, seek both ways): random differential trials, edge cases, many keys in
 * every insertion order, and bulk loads.  Seeded; a failure prints the seed.
 * FL_MODEL_SEED=N reruns with another base seed.
 */
#include "test_model.h"

/* ==== Logical state: differential against a brute-force list ================= */

/* An unordered list of (key, 1-byte value): the brute-force map, or what a scan gave. */
typedef struct kvlist { key k[256]; uint8_t v[256]; size_t n; } kvlist;
static long brute_find(const kvlist *b, const key *k) {
    for (size_t i = 0; i < b->n; i++) if (key_cmp(&b->k[i], k) == 0) return (long)i;
    return -1;
}
static void brute_remove(kvlist *b, size_t i) { b->k[i] = b->k[b->n - 1]; b->v[i] = b->v[--b->n]; }

static int collect(void *arg, fl_model_bytes k, fl_model_bytes v) {
    kvlist *c = arg;
    if (c->n == 256 || k.len > 8 || v.len != 1) return 2;
    memcpy(c->k[c->n].b, k.data, k.len);
    c->k[c->n].len = k.len;
    c->v[c->n++] = v.data[0];
    return 0;
}

/* The brute list's rows that pass `in`, sorted, as a scan would give them. */
static void brute_scan(const kvlist *b, kvlist *out, const key *lo, const key *hi, bool is_prefix) {
    out->n = 0;
    for (size_t i = 0; i < b->n; i++) {
        const key *k = &b->k[i];
        bool in = is_prefix ? k->len >= lo->len && !memcmp(k->b, lo->b, lo->len)
                            : key_cmp(k, lo) >= 0 && key_cmp(k, hi) < 0;
        if (in) { out->k[out->n] = b->k[i]; out->v[out->n++] = b->v[i]; }
    }
    for (size_t i = 1; i < out->n; i++)            /* insertion sort, keeps pairs */
        for (size_t j = i; j > 0 && key_cmp(&out->k[j - 1], &out->k[j]) > 0; j--) {
            key tk = out->k[j]; out->k[j] = out->k[j - 1]; out->k[j - 1] = tk;
            uint8_t tv = out->v[j]; out->v[j] = out->v[j - 1]; out->v[j - 1] = tv;
        }
}

static bool same_list(const kvlist *a, const kvlist *b) {
    if (a->n != b->n) return false;
    for (size_t i = 0; i < a->n; i++)
        if (key_cmp(&a->k[i], &b->k[i]) != 0 || a->v[i] != b->v[i]) return false;
    return true;
}

static void state_trial(uint64_t seed) {
    static kvlist b;
    fl_model *m = NULL;
    CHECK_OK(fl_model_new(&m));
    b.n = 0;
    rng = seed;
    for (int op = 0; op < 3000; op++) {
        key k = random_key(3, 4), k2 = random_key(3, 4);
        uint8_t v = (uint8_t)next_rand();
        size_t what = rand_below(100);
        const char *name = "put";
        bool ok = true;
        if (what < 40) {
            CHECK_OK(fl_model_put(m, kb(&k), (fl_model_bytes){ &v, 1 }));
            long i = brute_find(&b, &k);
            if (i >= 0) b.v[i] = v; else if (b.n < 256) { b.k[b.n] = k; b.v[b.n++] = v; }
        } else if (what < 55) {
            name = "del";
            CHECK_OK(fl_model_delete(m, kb(&k)));
            long i = brute_find(&b, &k);
            if (i >= 0) brute_remove(&b, (size_t)i);
        } else if (what < 65) {
            name = "delrange";
            CHECK_OK(fl_model_delete_range(m, kb(&k), kb(&k2)));
            for (size_t i = b.n; i-- > 0;)
                if (key_cmp(&b.k[i], &k) >= 0 && key_cmp(&b.k[i], &k2) < 0) brute_remove(&b, i);
        } else if (what < 80) {
            name = "get";
            fl_model_bytes got = { NULL, 0 };
            long i = brute_find(&b, &k);
            bool found = fl_model_get(m, kb(&k), &got);
            ok = found == (i >= 0) && (!found || (got.len == 1 && got.data[0] == b.v[i]));
        } else if (what >= 94) {
            /* seek: the brute list from k on, ascending or descending */
            bool backward = what >= 97;
            name = backward ? "seek_for_prev" : "seek";
            static kvlist want, got;
            key lo = { { 0 }, 0 }, hi = k;
            hi.b[hi.len++] = 0;                          /* just after k */
            got.n = 0;
            if (backward) brute_scan(&b, &want, &lo, &hi, false);
            else {
                key top = { { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF }, 8 };
                brute_scan(&b, &want, &k, &top, false);
            }
            if (backward)                                /* descending */
                for (size_t i = 0; i < want.n / 2; i++) {
                    size_t j = want.n - 1 - i;
                    key tk = want.k[i]; want.k[i] = want.k[j]; want.k[j] = tk;
                    uint8_t tv = want.v[i]; want.v[i] = want.v[j]; want.v[j] = tv;
                }
            int rc = fl_model_seek(m, kb(&k), backward, collect, &got);
            ok = rc == 0 && same_list(&want, &got);
        } else {
            bool is_prefix = what < 90;
            name = is_prefix ? "scan_prefix" : "scan";
            static kvlist want, got;
            got.n = 0;
            brute_scan(&b, &want, &k, &k2, is_prefix);
            int rc = is_prefix ? fl_model_scan_prefix(m, kb(&k), collect, &got)
                               : fl_model_scan(m, kb(&k), kb(&k2), collect, &got);
            ok = rc == 0 && same_list(&want, &got);
        }
        ok = ok && fl_model_count(m) == b.n;
        if (!ok) {
            char s1[64], s2[64];
            fl_test_fail(__FILE__, __LINE__, "state: seed %llu op %d %s \"%s\" \"%s\" disagrees "
                         "with the brute-force list (rerun: FL_MODEL_SEED=%llu)",
                         (unsigned long long)seed, op, name, show(k.b, k.len, s1, sizeof s1),
                         show(k2.b, k2.len, s2, sizeof s2), (unsigned long long)base_seed());
            break;
        }
    }
    fl_model_free(m);
}

FL_TEST(model_state_differential) {
    for (uint64_t i = 0; i < 20; i++) state_trial(base_seed() + i);
}

static int count_short_keys(void *arg, fl_model_bytes k, fl_model_bytes v) {
    (void)v;
    if (k.len > 8) return 2;
    ++*(size_t *)arg;
    return 0;
}

FL_TEST(model_state_edges) {
    fl_model *m = NULL;
    CHECK_OK(fl_model_new(&m));
    uint8_t big[FL_MODEL_MAX_KEY + 1];
    memset(big, 'k', sizeof big);
    CHECK_RC(fl_model_put(m, (fl_model_bytes){ big, sizeof big }, mb_str("")), FL_MODEL_ERR_INVALID);
    CHECK_OK(fl_model_put(m, (fl_model_bytes){ big, FL_MODEL_MAX_KEY }, mb_str("")));
    CHECK_OK(fl_model_put(m, mb_str(""), mb_str("empty")));
    fl_model_bytes v = { NULL, 0 };
    CHECK(fl_model_get(m, mb_str(""), &v));
    CHECK_MEM(v.data, v.len, "empty", 5);
    CHECK_OK(fl_model_put(m, mb_str("a"), mb_str("")));
    CHECK(fl_model_get(m, mb_str("a"), &v) && v.data != NULL && v.len == 0);
    CHECK_OK(fl_model_delete_range(m, mb_str("b"), mb_str("a")));          /* end < start */
    CHECK_OK(fl_model_delete_range(m, mb_str("a"), mb_str("a")));          /* empty range */
    CHECK_EQ(fl_model_count(m), 3);
    size_t seen = 0;
    CHECK_EQ(fl_model_scan(m, mb_str("b"), mb_str("a"), count_short_keys, &seen), 0);
    CHECK_EQ(seen, 0);
    CHECK_EQ(fl_model_scan_prefix(m, mb_str(""), count_short_keys, &seen), 2); /* stops at 64 KiB key */
    CHECK_EQ(seen, 2);
    CHECK_OK(fl_model_delete_range(m, mb_str(""), mb_str("\x01")));
    CHECK(!fl_model_get(m, mb_str(""), NULL));
    CHECK_EQ(fl_model_count(m), 2);
    fl_model_free(m);
    CHECK(fl_model_compare(mb_str("a"), mb_str("ab")) < 0);
    CHECK(fl_model_compare((fl_model_bytes){ NULL, 0 }, (fl_model_bytes){ (const uint8_t *)"", 1 }) < 0);
    CHECK(fl_model_compare(mb_str("\xff"), mb_str("\x01\x02")) > 0);
    CHECK(fl_model_compare(mb_str("ab"), mb_str("ab")) == 0);
}

/* ==== Logical state: many keys, against a brute-force table ================== */

/* These trials use a fixed set of keys: every string of 0..6 bytes over
 * {0x00, '0', 'a', 0xff}, 5461 keys among which the empty key and chains of
 * keys that are prefixes of one another, sorted by key_cmp.  The brute-force
 * map is a table over them (live flag and value stamp per key) and every
 * expected answer is a linear pass over that table.  Thousands of keys live
 * at once, so the model holds dozens of chunks; puts and deletes go in
 * ascending, descending or random key order, and fill, mixed and drain
 * phases alternate, so chunks split, merge and empty over and over, and
 * scans and delete_ranges run across many chunk boundaries. */
enum { UNI_N = 5461, UNI_MAX_LEN = 6, UNI_OPS = 20000 };
static key uni[UNI_N];
static bool uni_live[UNI_N];
static uint32_t uni_stamp[UNI_N];
static size_t uni_want[UNI_N];

static void uni_build(void) {
    static const uint8_t letters[] = { 0x00, '0', 'a', 0xff };
    size_t n = 0;
    for (size_t len = 0, combos = 1; len <= UNI_MAX_LEN; len++, combos *= 4)
        for (size_t c = 0; c < combos; c++) {
            uni[n].len = len;
            for (size_t i = 0, x = c; i < len; i++, x /= 4) uni[n].b[i] = letters[x % 4];
            n++;
        }
    qsort(uni, UNI_N, sizeof *uni, key_cmp);
}

/* The value put at op `stamp`: 0..4 bytes of the stamp, NULL when empty (as
 * the checker passes empty values). */
static fl_model_bytes stamp_value(uint32_t stamp, uint8_t buf[4]) {
    for (int i = 0; i < 4; i++) buf[i] = (uint8_t)(stamp >> (8 * i));
    return (fl_model_bytes){ stamp % 5 ? buf : NULL, stamp % 5 };
}

/* A key argument; the empty key sometimes with NULL data. */
static fl_model_bytes kb_arg(const key *k) {
    return k->len || rand_below(2) ? kb(k) : (fl_model_bytes){ NULL, 0 };
}

/* A scan's visitor: checks each row against uni_want[0..n) and stops with 7
 * after stop_after rows (0: never). */
typedef struct uni_walk { size_t n, seen, stop_after; bool bad; } uni_walk;
static int uni_visit(void *arg, fl_model_bytes k, fl_model_bytes v) {
    uni_walk *w = arg;
    uint8_t buf[4];
    if (w->seen == w->n || !k.data || !v.data) { w->bad = true; return 9; }
    size_t i = uni_want[w->seen++];
    fl_model_bytes want = stamp_value(uni_stamp[i], buf);
    if (k.len != uni[i].len || memcmp(k.data, uni[i].b, k.len) != 0 || v.len != want.len ||
        (v.len && memcmp(v.data, buf, v.len) != 0)) { w->bad = true; return 9; }
    return w->seen == w->stop_after ? 7 : 0;
}

/* Runs a scan (prefix, or [lo, hi)) and checks it against the table; when
 * may_stop, one time in four it stops the scan early. */
static bool uni_scan_ok(const fl_model *m, bool is_prefix, const key *lo, const key *hi,
                        bool may_stop) {
    uni_walk w = { 0, 0, 0, false };
    for (size_t i = 0; i < UNI_N; i++) {
        const key *k = &uni[i];
        bool in = is_prefix ? k->len >= lo->len && !memcmp(k->b, lo->b, lo->len)
                            : key_cmp(k, lo) >= 0 && key_cmp(k, hi) < 0;
        if (uni_live[i] && in) uni_want[w.n++] = i;
    }
    if (may_stop && rand_below(4) == 0) w.stop_after = 1 + rand_below(w.n + 2); /* may be past the end */
    int rc = is_prefix ? fl_model_scan_prefix(m, kb_arg(lo), uni_visit, &w)
                       : fl_model_scan(m, kb_arg(lo), kb_arg(hi), uni_visit, &w);
    bool stopped = w.stop_after && w.stop_after <= w.n;
    return !w.bad && rc == (stopped ? 7 : 0) && w.seen == (stopped ? w.stop_after : w.n);
}

/* Every key of the table: get agrees, and a full scan lists exactly the live ones. */
static bool uni_all_ok(const fl_model *m) {
    uint8_t buf[4];
    for (size_t i = 0; i < UNI_N; i++) {
        fl_model_bytes got = { NULL, 0 }, want = stamp_value(uni_stamp[i], buf);
        bool found = fl_model_get(m, kb(&uni[i]), &got);
        if (found != uni_live[i]) return false;
        if (found && (!got.data || got.len != want.len || (want.len && memcmp(got.data, buf, want.len))))
            return false;
    }
    key empty = { { 0 }, 0 };
    return uni_scan_ok(m, true, &empty, NULL, false);
}

/* Bounds for a scan or delete_range: two table keys up to 300 (one time in
 * four, 1500) keys apart, so that the range crosses several to many chunks;
 * or, one time in `wild`, any two strings, which fall between table keys and
 * come in either order. */
static void uni_bounds(key *lo, key *hi, size_t wild) {
    if (rand_below(wild) == 0) {
        *lo = random_key(7, sizeof alphabet);
        *hi = random_key(7, sizeof alphabet);
        return;
    }
    size_t i = rand_below(UNI_N), j = i + rand_below(rand_below(4) ? 300 : 1500);
    *lo = uni[i];
    *hi = uni[j < UNI_N ? j : UNI_N - 1];
}

/* The next table index for a put or delete in the trial's key order. */
static size_t uni_next(size_t *cursor, int order) {
    if (order == 2) return rand_below(UNI_N);
    size_t i = *cursor;
    *cursor = order == 0 ? (i + 1) % UNI_N : (i + UNI_N - 1) % UNI_N;
    return i;
}

static void many_keys_trial(uint64_t seed, int order) {
    static const char *const order_names[] = { "ascending", "descending", "random" };
    /* per phase of UNI_OPS / 4 ops, the weights of: put, delete, delete_range,
     * get, scan, scan_prefix */
    static const unsigned weights[4][6] = {
        { 84, 4, 0, 7, 3, 2 },          /* fill  */
        { 40, 20, 2, 18, 12, 8 },       /* mixed */
        { 10, 72, 3, 5, 6, 4 },         /* drain */
        { 40, 20, 2, 18, 12, 8 },       /* mixed */
    };
    static const char *const names[] = { "put", "del", "delrange", "get", "scan", "scan_prefix" };
    fl_model *m = NULL;
    CHECK_OK(fl_model_new(&m));
    memset(uni_live, 0, sizeof uni_live);
    size_t live = 0, max_live = 0;
    rng = seed;
    size_t put_cursor = rand_below(UNI_N), del_cursor = put_cursor;
    for (uint32_t op = 1; op <= UNI_OPS; op++) {
        const unsigned *w = weights[(op - 1) / (UNI_OPS / 4)];
        size_t what = 0, r = rand_below(100);
        while (r >= w[what]) r -= w[what++];
        key k = { { 0 }, 0 }, k2 = { { 0 }, 0 };
        bool ok = true;
        if (what == 0) {                            /* put */
            size_t i = uni_next(&put_cursor, order);
            uint8_t buf[4];
            k = uni[i];
            CHECK_OK(fl_model_put(m, kb_arg(&k), stamp_value(op, buf)));
            live += !uni_live[i];
            uni_live[i] = true;
            uni_stamp[i] = op;
        } else if (what == 1) {                     /* delete, of a live key or not */
            size_t i = uni_next(&del_cursor, order);
            k = uni[i];
            CHECK_OK(fl_model_delete(m, kb_arg(&k)));
            live -= uni_live[i];
            uni_live[i] = false;
        } else if (what == 2) {                     /* delete_range */
            uni_bounds(&k, &k2, 30);
            CHECK_OK(fl_model_delete_range(m, kb_arg(&k), kb_arg(&k2)));
            for (size_t i = 0; i < UNI_N; i++)
                if (uni_live[i] && key_cmp(&uni[i], &k) >= 0 && key_cmp(&uni[i], &k2) < 0) {
                    uni_live[i] = false;
                    live--;
                }
        } else if (what == 3) {                     /* get, of any table key */
            size_t i = rand_below(UNI_N);
            uint8_t buf[4];
            fl_model_bytes got = { NULL, 0 }, want = stamp_value(uni_stamp[i], buf);
            k = uni[i];
            bool found = fl_model_get(m, kb_arg(&k), &got);
            ok = found == uni_live[i] &&
                 (!found || (got.data && got.len == want.len && !memcmp(got.data, buf, want.len)));
        } else if (what == 4) {                     /* scan */
            uni_bounds(&k, &k2, 8);
            ok = uni_scan_ok(m, false, &k, &k2, true);
        } else {                                    /* scan_prefix: short, so it spans chunks */
            if (rand_below(2)) {
                k = uni[rand_below(UNI_N)];
                k.len = k.len < 3 ? k.len : rand_below(4);
            } else {
                k = random_key(3, sizeof alphabet);
            }
            ok = uni_scan_ok(m, true, &k, NULL, true);
        }
        if (live > max_live) max_live = live;
        ok = ok && fl_model_count(m) == live && (op % 1000 != 0 || uni_all_ok(m));
        if (!ok) {
            char s1[64], s2[64];
            fl_test_fail(__FILE__, __LINE__, "state, %s keys: seed %llu op %u %s \"%s\" \"%s\" "
                         "disagrees with the brute-force table (rerun: FL_MODEL_SEED=%llu)",
                         order_names[order], (unsigned long long)seed, op, names[what],
                         show(k.b, k.len, s1, sizeof s1), show(k2.b, k2.len, s2, sizeof s2),
                         (unsigned long long)base_seed());
            break;
        }
    }
    CHECK(max_live > 2000);                         /* it did fill dozens of chunks */
    /* Empty it in one delete_range, then use it again. */
    uint8_t top[8];
    memset(top, 0xff, sizeof top);
    CHECK_OK(fl_model_delete_range(m, (fl_model_bytes){ NULL, 0 }, (fl_model_bytes){ top, sizeof top }));
    CHECK_EQ(fl_model_count(m), 0);
    memset(uni_live, 0, sizeof uni_live);
    CHECK(uni_all_ok(m));
    for (size_t i = 0; i < UNI_N; i += 7) {
        uint8_t buf[4];
        CHECK_OK(fl_model_put(m, kb(&uni[i]), stamp_value((uint32_t)i, buf)));
        uni_live[i] = true;
        uni_stamp[i] = (uint32_t)i;
    }
    CHECK(uni_all_ok(m));
    fl_model_free(m);
}

FL_TEST(model_state_many_keys) {
    uni_build();
    for (size_t i = 1; i < UNI_N; i++) CHECK(key_cmp(&uni[i - 1], &uni[i]) < 0);
    for (int order = 0; order < 3; order++) many_keys_trial(base_seed() + 100 + (uint64_t)order, order);
}

/* Bulk: 60000 keys "k000000".. (fixed width, so bytewise order is numeric
 * order), put in ascending, descending and shuffled order, then thinned by
 * point deletes and cut by delete_ranges, checked in full after each step. */
enum { BULK_N = 60000 };
static bool bulk_live[BULK_N];

static fl_model_bytes bulk_key(size_t i, char buf[16]) {
    snprintf(buf, 16, "k%06zu", i);
    return (fl_model_bytes){ (const uint8_t *)buf, 7 };
}

typedef struct bulk_walk { size_t next, seen; bool bad; } bulk_walk;
static int bulk_visit(void *arg, fl_model_bytes k, fl_model_bytes v) {
    bulk_walk *w = arg;
    char buf[16];
    while (w->next < BULK_N && !bulk_live[w->next]) w->next++;
    fl_model_bytes want = bulk_key(w->next, buf);
    if (w->next == BULK_N || fl_model_compare(k, want) != 0 || v.len != 7 ||
        memcmp(v.data, want.data, 7) != 0) { w->bad = true; return 9; }
    w->next++;
    w->seen++;
    return 0;
}

static bool bulk_ok(const fl_model *m) {
    size_t live = 0;
    for (size_t i = 0; i < BULK_N; i++) live += bulk_live[i];
    bulk_walk w = { 0, 0, false };
    if (fl_model_count(m) != live || fl_model_scan_prefix(m, mb_str("k"), bulk_visit, &w) != 0 ||
        w.bad || w.seen != live)
        return false;
    for (size_t i = 0; i < BULK_N; i++) {
        char buf[16];
        fl_model_bytes v;
        if (fl_model_get(m, bulk_key(i, buf), &v) != bulk_live[i]) return false;
    }
    return true;
}

FL_TEST(model_state_bulk) {
    static size_t order[BULK_N];
    rng = base_seed() + 200;
    for (int pass = 0; pass < 3; pass++) {
        for (size_t i = 0; i < BULK_N; i++) order[i] = pass == 1 ? BULK_N - 1 - i : i;
        if (pass == 2) shuffle(order, BULK_N);
        fl_model *m = NULL;
        CHECK_OK(fl_model_new(&m));
        memset(bulk_live, 0, sizeof bulk_live);
        for (size_t i = 0; i < BULK_N; i++) {
            char buf[16];
            fl_model_bytes k = bulk_key(order[i], buf);
            CHECK_OK(fl_model_put(m, k, k));
            bulk_live[order[i]] = true;
        }
        CHECK(bulk_ok(m));
        for (size_t i = 0; i < BULK_N; i += 3) {    /* every third key, in the same order */
            char buf[16];
            CHECK_OK(fl_model_delete(m, bulk_key(order[i], buf)));
            bulk_live[order[i]] = false;
        }
        CHECK(bulk_ok(m));
        /* ranges of 1 to 5000 keys, bounds live or not: [k_a, k_b) */
        for (int r = 0; r < 40; r++) {
            char b1[16], b2[16];
            size_t a = rand_below(BULK_N), b = a + 1 + rand_below(5000);
            if (b > BULK_N) b = BULK_N;
            CHECK_OK(fl_model_delete_range(m, bulk_key(a, b1), b == BULK_N ? mb_str("l") : bulk_key(b, b2)));
            for (size_t i = a; i < b; i++) bulk_live[i] = false;
        }
        CHECK(bulk_ok(m));
        /* refill the odd keys, then delete everything with one range */
        for (size_t i = 1; i < BULK_N; i += 2) {
            char buf[16];
            fl_model_bytes k = bulk_key(i, buf);
            CHECK_OK(fl_model_put(m, k, k));
            bulk_live[i] = true;
        }
        CHECK(bulk_ok(m));
        CHECK_OK(fl_model_delete_range(m, mb_str("k"), mb_str("l")));
        memset(bulk_live, 0, sizeof bulk_live);
        CHECK(bulk_ok(m));
        fl_model_free(m);
    }
}

/* ==== Extractors: the SPEC 4 table ============================================ */

/* Keys across the model's 16-byte key heads (model_state.c): a 13-byte
 * stem and 0..6 more bytes over { 0x00, 'a', 0xff }, lengths 13 to 19, so
 * that keys equal in their first 16 bytes differ only in zero padding,
 * only in length, or only past byte 16.  Put in random order, every key
 * must be found and the scan must list them in bytewise order; then every
 * other key is deleted and it is checked again. */
enum { LONG_N = 1093, LONG_STEM = 13 };
typedef struct long_key { uint8_t b[LONG_STEM + 6]; size_t len; } long_key;
static long_key longs[LONG_N];

static int long_cmp(const void *pa, const void *pb) {
    const long_key *a = pa, *b = pb;
    for (size_t i = 0; i < a->len && i < b->len; i++)
        if (a->b[i] != b->b[i]) return a->b[i] < b->b[i] ? -1 : 1;
    return a->len < b->len ? -1 : a->len > b->len;
}

typedef struct long_walk { size_t next; bool bad; const bool *live; } long_walk;
static int long_visit(void *arg, fl_model_bytes k, fl_model_bytes v) {
    long_walk *w = arg;
    (void)v;
    while (w->next < LONG_N && !w->live[w->next]) w->next++;
    if (w->next == LONG_N || k.len != longs[w->next].len || memcmp(k.data, longs[w->next].b, k.len) != 0) {
        w->bad = true;
        return 1;
    }
    w->next++;
    return 0;
}

FL_TEST(model_state_keys_across_heads) {
    static const uint8_t letters[] = { 0x00, 'a', 0xff };
    size_t n = 0;
    for (size_t extra = 0, combos = 1; extra <= 6; extra++, combos *= 3)
        for (size_t c = 0; c < combos; c++, n++) {
            memcpy(longs[n].b, "abcdefghijklm", LONG_STEM);
            for (size_t i = 0, x = c; i < extra; i++, x /= 3) longs[n].b[LONG_STEM + i] = letters[x % 3];
            longs[n].len = LONG_STEM + extra;
        }
    CHECK(n == LONG_N);
    qsort(longs, LONG_N, sizeof *longs, long_cmp);
    static size_t order[LONG_N];
    static bool live[LONG_N];
    for (size_t i = 0; i < LONG_N; i++) order[i] = i;
    rng = base_seed() + 300;
    shuffle(order, LONG_N);
    fl_model *m = NULL;
    CHECK_OK(fl_model_new(&m));
    for (size_t i = 0; i < LONG_N; i++) {
        const long_key *k = &longs[order[i]];
        CHECK_OK(fl_model_put(m, (fl_model_bytes){ k->b, k->len }, (fl_model_bytes){ k->b, k->len }));
        live[order[i]] = true;
    }
    for (int round = 0; round < 2; round++) {
        for (size_t i = 0; i < LONG_N; i++) {
            fl_model_bytes v;
            CHECK(fl_model_get(m, (fl_model_bytes){ longs[i].b, longs[i].len }, &v) == live[i]);
        }
        long_walk w = { 0, false, live };
        CHECK(fl_model_scan_prefix(m, (fl_model_bytes){ (const uint8_t *)"abc", 3 }, long_visit, &w) == 0);
        CHECK(!w.bad);
        for (size_t i = 0; i < LONG_N; i += 2) {
            CHECK_OK(fl_model_delete(m, (fl_model_bytes){ longs[i].b, longs[i].len }));
            live[i] = false;
        }
    }
    fl_model_free(m);
}

/* Keys and values of every length around what a row keeps in itself
 * (model_state.c: a key of up to 16 bytes, a value of up to 16 or 24, or
 * more in a build with another FL_MODEL_ROW_BODY) and beyond: keys of 0..40
 * bytes, "v" then 0x00 or 'x' bytes (so keys that differ only in length
 * have the same zero-padded head), values of 0..48 bytes.  Puts overwrite
 * values with longer and shorter ones, and some put a value borrowed from
 * the map itself (fl_model_get's, valid until that put), as another key's
 * value (the put may shift the row it points into) or its own key's. */
enum { SIZES_KEY_MAX = 40, SIZES_VAL_MAX = 48, SIZES_N = 1 + 4 * SIZES_KEY_MAX };
typedef struct sized { uint8_t k[SIZES_KEY_MAX], v[SIZES_VAL_MAX]; size_t klen, vlen; bool live; } sized;
static sized sizes[SIZES_N];

typedef struct sizes_walk { size_t next; bool bad; } sizes_walk;
static int sizes_visit(void *arg, fl_model_bytes k, fl_model_bytes v) {
    sizes_walk *w = arg;
    while (w->next < SIZES_N && !sizes[w->next].live) w->next++;
    const sized *s = &sizes[w->next];
    if (w->next == SIZES_N || !k.data || !v.data || k.len != s->klen || memcmp(k.data, s->k, k.len) ||
        v.len != s->vlen || (v.len && memcmp(v.data, s->v, v.len))) {
        w->bad = true;
        return 1;
    }
    w->next++;
    return 0;
}

static bool sizes_all_ok(const fl_model *m) {
    size_t live = 0;
    for (size_t i = 0; i < SIZES_N; i++) {
        const sized *s = &sizes[i];
        fl_model_bytes v = { NULL, 0 };
        bool found = fl_model_get(m, (fl_model_bytes){ s->k, s->klen }, &v);
        if (found != s->live || (found && (!v.data || v.len != s->vlen || (v.len && memcmp(v.data, s->v, v.len)))))
            return false;
        live += s->live;
    }
    sizes_walk w = { 0, false };
    return fl_model_count(m) == live && fl_model_scan_prefix(m, mb_str(""), sizes_visit, &w) == 0 && !w.bad;
}

static int sized_cmp(const void *pa, const void *pb) {
    const sized *a = pa, *b = pb;
    int c = memcmp(a->k, b->k, a->klen < b->klen ? a->klen : b->klen);
    return c ? c : (a->klen > b->klen) - (a->klen < b->klen);
}

FL_TEST(model_state_row_sizes) {
    memset(sizes, 0, sizeof sizes);
    size_t n = 1;                                   /* sizes[0]: the empty key */
    for (size_t len = 1; len <= SIZES_KEY_MAX; len++)
        for (uint8_t v = 0; v < 4; v++, n++) {
            sizes[n].k[0] = (uint8_t)('0' + v);
            memset(sizes[n].k + 1, v & 1 ? 0x00 : 'x', len - 1);
            sizes[n].klen = len;
        }
    CHECK(n == SIZES_N);
    qsort(sizes, SIZES_N, sizeof *sizes, sized_cmp);
    for (size_t i = 1; i < SIZES_N; i++) CHECK(sized_cmp(&sizes[i - 1], &sizes[i]) < 0);
    rng = base_seed() + 400;
    fl_model *m = NULL;
    CHECK_OK(fl_model_new(&m));
    for (uint32_t op = 1; op <= 20000; op++) {
        size_t i = rand_below(SIZES_N), what = rand_below(10);
        sized *s = &sizes[i];
        fl_model_bytes key = { s->k, s->klen };
        if (what < 6) {                             /* put a fresh value of 0..48 bytes */
            uint8_t buf[SIZES_VAL_MAX];
            size_t vlen = rand_below(SIZES_VAL_MAX + 1);
            for (size_t j = 0; j < vlen; j++) buf[j] = (uint8_t)(op * 31 + j);
            CHECK_OK(fl_model_put(m, key, (fl_model_bytes){ vlen ? buf : NULL, vlen }));
            memcpy(s->v, buf, vlen);
            s->vlen = vlen;
            s->live = true;
        } else if (what < 8) {                      /* put a value borrowed from the map */
            const sized *from = &sizes[rand_below(SIZES_N)];
            if (rand_below(4) == 0) from = s;       /* its own */
            fl_model_bytes v;
            if (!fl_model_get(m, (fl_model_bytes){ from->k, from->klen }, &v)) continue;
            uint8_t was[SIZES_VAL_MAX];
            size_t was_len = from->vlen;
            memcpy(was, from->v, was_len);
            CHECK_OK(fl_model_put(m, key, v));
            memcpy(s->v, was, was_len);
            s->vlen = was_len;
            s->live = true;
        } else {
            CHECK_OK(fl_model_delete(m, key));
            s->live = false;
        }
        if (op % 500 == 0 && !sizes_all_ok(m)) {
            fl_test_fail(__FILE__, __LINE__, "row sizes: op %u disagrees with the table (rerun: FL_MODEL_SEED=%llu)",
                         op, (unsigned long long)base_seed());
            break;
        }
    }
    CHECK(sizes_all_ok(m));
    fl_model_free(m);
}
