/*
 * test_model.c -- the reference model (model/) on its own and against the
 * engine's built-in extractors and bloom, through the public registry API.
 *
 * The point of the model is to disagree with a wrong engine, so the bloom
 * tests are differential: for random configurations and key sets, the
 * policy names, the encoded bytes and every sampled POINT/PREFIX answer must
 * be equal.  Everything is seeded; a failure prints the seed, the
 * configuration and the keys.  FL_MODEL_SEED=N reruns with another base seed.
 */
#include "test.h"
#include "../engine/engine.h"
#include "../model/model.h"

#include <math.h>
#include <stdlib.h>

/* ---- Helpers ---------------------------------------------------------------- */

static uint64_t rng;
static uint64_t next_rand(void) {          /* splitmix64 */
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static size_t rand_below(size_t n) { return (size_t)(next_rand() % n); }

static uint64_t base_seed(void) {
    const char *s = getenv("FL_MODEL_SEED");
    return s && *s ? strtoull(s, NULL, 10) : 20240601;
}

static fl_model_bytes mb_str(const char *s) { return (fl_model_bytes){ (const uint8_t *)s, strlen(s) }; }

/* Keys are short strings over an alphabet rich in delimiters, NUL and 0xFF. */
typedef struct key { uint8_t b[8]; size_t len; } key;
static const uint8_t alphabet[] = { 0x00, 'a', 'b', ':', '/', '\\', 0xff };
static key random_key(size_t max_len, size_t alpha) {
    key k;
    k.len = rand_below(max_len + 1);
    for (size_t i = 0; i < k.len; i++) k.b[i] = alphabet[rand_below(alpha)];
    return k;
}
static fl_model_bytes kb(const key *k) { return (fl_model_bytes){ k->b, k->len }; }
/* Bytewise order, written again here so the brute-force side owes nothing to the model. */
static int key_cmp(const void *pa, const void *pb) {
    const key *a = pa, *b = pb;
    for (size_t i = 0; i < a->len && i < b->len; i++)
        if (a->b[i] != b->b[i]) return a->b[i] < b->b[i] ? -1 : 1;
    return a->len < b->len ? -1 : a->len > b->len;
}

/* Prints bytes as a workload string would: printable as is, else \xNN. */
static const char *show(const uint8_t *p, size_t len, char *out, size_t out_len) {
    size_t o = 0;
    for (size_t i = 0; i < len && o + 5 < out_len; i++)
        o += (size_t)snprintf(out + o, out_len - o, p[i] > 0x20 && p[i] < 0x7f && p[i] != '\\'
                              ? "%c" : "\\x%02x", p[i]);
    out[o] = 0;
    return out;
}

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
        if (pass == 2)
            for (size_t i = BULK_N - 1; i > 0; i--) {
                size_t j = rand_below(i + 1), t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
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

#define NONE (-1L)
static long extract(const char *spec, fl_model_target_kind kind, const char *s, size_t len) {
    fl_model_extractor ex;
    size_t n = 0;
    if (fl_model_extractor_parse(spec, &ex, NULL, 0) != FL_MODEL_OK) return -2;
    return fl_model_extractor_prefix_len(&ex, kind, (fl_model_bytes){ (const uint8_t *)s, len },
                                         &n) ? (long)n : NONE;
}

FL_TEST(model_extractor_table) {
    static const struct { const char *spec, *in; size_t len; long point, prefix; } rows[] = {
        { "fixed:3", "", 0, NONE, NONE },       { "fixed:3", "ab", 2, NONE, NONE },
        { "fixed:3", "abc", 3, 3, 3 },          { "fixed:3", "abcdef", 6, 3, 3 },
        { "fixed:1", "\0", 1, 1, 1 },           { "capped:3", "", 0, 0, NONE },
        { "capped:3", "ab", 2, 2, NONE },       { "capped:3", "abc", 3, 3, 3 },
        { "capped:3", "abcdef", 6, 3, 3 },      { "delim::", "", 0, NONE, NONE },
        { "delim::", "ab", 2, NONE, NONE },     { "delim::", ":", 1, 1, 1 },
        { "delim::", "ab:cd:e", 7, 3, 3 },      { "delim:\\x00", "a\0b\0", 4, 2, 2 },
        { "lastdelim::", "", 0, NONE, NONE },   { "lastdelim::", "ab", 2, NONE, NONE },
        { "lastdelim::", "ab:cd:e", 7, 6, NONE }, { "lastdelim::", "ab:", 3, 3, NONE },
        { "lastdelim:\\xff", "\xff" "a\xff", 3, 3, NONE },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        long point = extract(rows[i].spec, FL_MODEL_POINT, rows[i].in, rows[i].len);
        long prefix = extract(rows[i].spec, FL_MODEL_PREFIX, rows[i].in, rows[i].len);
        if (point != rows[i].point || prefix != rows[i].prefix)
            fl_test_fail(__FILE__, __LINE__, "row %zu %s: POINT %ld PREFIX %ld, want %ld %ld", i,
                         rows[i].spec, point, prefix, rows[i].point, rows[i].prefix);
    }
    static const struct { const char *spec, *name; } names[] = {
        { "fixed:3", "fixed3" }, { "capped:65535", "capped65535" }, { "delim::", "delim:" },
        { "delim:!", "delim!" }, { "delim:~", "delim~" }, { "delim:\\", "delim\\x5c" },
        { "delim:\\x5C", "delim\\x5c" }, { "delim: ", "delim\\x20" }, { "delim:\\x00", "delim\\x00" },
        { "delim:\x7f", "delim\\x7f" }, { "delim:\x80", "delim\\x80" }, { "lastdelim:\\xFF", "lastdelim\\xff" },
        { "lastdelim:\\x3a", "lastdelim:" },
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        fl_model_extractor ex;
        char name[FL_MODEL_NAME_MAX];
        CHECK_OK(fl_model_extractor_parse(names[i].spec, &ex, NULL, 0));
        CHECK_STR(fl_model_extractor_name(&ex, name, sizeof name), names[i].name);
    }
    static const char *const bad[] = { "fixed:0", "fixed:65536", "fixed:", "fixed", "fixed:3x",
        "fixed:-1", "capped:+2", "delim:", "delim:ab", "delim:\\x4", "delim:\\xzz", "nosuch:1", "" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fl_model_extractor ex;
        char err[256] = "";
        CHECK_RC(fl_model_extractor_parse(bad[i], &ex, err, sizeof err), FL_MODEL_ERR_INVALID);
        CHECK(err[0] != 0);
    }
}

/* ==== Bloom configuration ======================================================= */

FL_TEST(model_bloom_config) {
    static const struct { const char *bits; long mb; } mbs[] = {
        { "10", 10000 }, { "0", 0 }, { "0.5", 500 }, { "13.7", 13700 }, { "2.0005", 2001 },
        { "2.00049999", 2000 }, { "2.00050000", 2001 }, { "0.9995", 1000 }, { "0.9994", 999 },
        { "00010.5", 10500 }, { "1000", 1000000 }, { "1000.000", 1000000 }, { "999.9995", 1000000 },
        { "1000.0001", -1 }, { "1001", -1 }, { "", -1 }, { "-1", -1 }, { "1e3", -1 },
        { ".5", 500 }, { "5.", 5000 }, { ".0005", 1 }, { "0.", 0 }, { ".", -1 }, { "..5", -1 },
        { "5..", -1 }, { "1000.", 1000000 }, { "1000.0004", -1 }, { "1000.00000", 1000000 },
        { " 5", -1 }, { "5 ", -1 }, { "99999999999999999999", -1 },
    };
    for (size_t i = 0; i < sizeof mbs / sizeof mbs[0]; i++) {
        uint32_t got = 0;
        int rc = fl_model_parse_millibits(mbs[i].bits, &got);
        long have = rc == FL_MODEL_OK ? (long)got : -1;
        if (have != mbs[i].mb)
            fl_test_fail(__FILE__, __LINE__, "bits \"%s\": %ld, want %ld", mbs[i].bits, have, mbs[i].mb);
    }
    static const uint32_t kb_[][2] = { { 0, 1 }, { 2080, 1 }, { 2081, 2 }, { 3580, 2 }, { 5100, 3 },
        { 6640, 4 }, { 8300, 5 }, { 10000, 6 }, { 10070, 6 }, { 10071, 7 }, { 11720, 7 },
        { 14000, 8 }, { 16050, 9 }, { 18300, 10 }, { 22000, 11 }, { 25500, 12 }, { 25501, 11 },
        { 30000, 14 }, { 50000, 24 }, { 1000000, 24 } };
    for (size_t i = 0; i < sizeof kb_ / sizeof kb_[0]; i++) CHECK_EQ(fl_model_bloom_k(kb_[i][0]), kb_[i][1]);
    static const struct { const char *spec, *name; uint32_t mb; } specs[] = {
        { "bloom", "_bf", 10000 }, { "bloom()", "_bf", 10000 }, { "bloom(bits=4)", "_bf", 4000 },
        { "bloom(prefix=fixed:3)", "_bf:p=fixed3", 10000 },
        { "bloom(bits=2.5,whole_key=0,prefix=fixed:3)", "_bf:p=fixed3:wh=0", 2500 },
        { "bloom(prefix=delim::)", "_bf:p=delim:", 10000 }, { "bloom(whole_key=0)", "_bf:wh=0", 10000 },
        { "bloom(prefix=lastdelim:\\x2c,whole_key=1)", "_bf:p=lastdelim,", 10000 },
        { " bloom( bits = .5 ,\twhole_key= 0,prefix =fixed:3 )\t", "_bf:p=fixed3:wh=0", 500 },
        { "bloom(bits=\\x31\\x30.)", "_bf", 10000 }, { "bloom( )", "_bf", 10000 },
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        fl_model_bloom_config cfg;
        char name[FL_MODEL_NAME_MAX], err[256] = "";
        int rc = fl_model_bloom_parse(specs[i].spec, &cfg, err, sizeof err);
        if (rc != FL_MODEL_OK) { fl_test_fail(__FILE__, __LINE__, "%s: %s", specs[i].spec, err); continue; }
        CHECK_STR(fl_model_bloom_name(&cfg, name, sizeof name), specs[i].name);
        CHECK_EQ(cfg.millibits, specs[i].mb);
    }
    static const char *const bad[] = { "bloom(", "bloom(bits=10", "bloom(bits=10,)", "bloom(,)",
        "bloom(bits=1,bits=1)", "bloom(whole_key=2)", "bloom(foo=1)", "bloom(bits)",
        "bloom(prefix=nosuch:1)", "bloom(bits=1001)", "bloomy", "bloom(bits=10)x",
        "bloom(bits=1000.0001)", "bloom (bits=1)", "bloom(bits=1 0)", "bloom( , )",
        "bloom(prefix=delim:()", "bloom(bits=\\x00)" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fl_model_bloom_config cfg;
        char err[256] = "";
        CHECK_RC(fl_model_bloom_parse(bad[i], &cfg, err, sizeof err), FL_MODEL_ERR_INVALID);
        CHECK(err[0] != 0);
    }
}

FL_TEST(model_bloom_expected_fp) {
    CHECK_EQ(fl_model_bloom_lines(20000, 10000), 391);
    CHECK_EQ(fl_model_bloom_lines(0, 10000), 0);
    CHECK_EQ(fl_model_bloom_lines(256, 2000), 1);
    CHECK_EQ(fl_model_bloom_lines(256, 2001), 2);
    double fp = fl_model_bloom_expected_fp(20000, 391, 6);
    if (fabs(fp - 0.0094947) > 5e-7) fl_test_fail(__FILE__, __LINE__, "expected fp %.8f, want 0.0094947", fp);
    CHECK(fl_model_bloom_expected_fp(5, 0, 6) == 1.0);
    /* Measured against expected on the model alone: 20000 keys at 10 bits/key,
     * 200000 absent probes; tolerance 5 standard deviations. */
    fl_model_bloom b;
    fl_model_bloom_config cfg = { 10000, true, false, { FL_MODEL_FIXED, 0, 0 } };
    fl_model_bloom_begin(&b, &cfg);
    for (uint32_t i = 0; i < 20000; i++) CHECK_OK(fl_model_bloom_add(&b, (fl_model_bytes){ (uint8_t *)&i, 4 }));
    CHECK_OK(fl_model_bloom_finish(&b));
    CHECK_EQ(b.lines, 391);
    uint64_t fps = 0, probes = 200000;
    for (uint64_t i = 0; i < probes; i++) fps += fl_model_bloom_might_match(&b, FL_MODEL_POINT,
                                                 (fl_model_bytes){ (uint8_t *)&i, 8 });
    double rate = (double)fps / (double)probes, sd = sqrt(fp * (1 - fp) / (double)probes);
    printf("test,bits_per_key,keys,probes,measured_fp,expected_fp\n"
           "model_bloom_expected_fp,10,20000,%llu,%.6f,%.6f\n", (unsigned long long)probes, rate, fp);
    if (rate > fp + 5 * sd) fl_test_fail(__FILE__, __LINE__, "measured %.6f > expected %.6f + 5 sd", rate, fp);
    fl_model_bloom_free(&b);
}

/* ==== Differential: model against the engine =================================== */

static fl_registry *registry(void) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    return reg;
}

static fl_filter_policy *make_engine_policy(fl_registry *reg, const char *spec) {
    fl_filter_policy *p = NULL;
    char err[256] = "";
    if (fl_registry_make_policy(reg, spec, &p, err, sizeof err) != FL_OK)
        fl_test_fail(__FILE__, __LINE__, "engine policy %s: %s", spec, err);
    return p;
}

/* Builds p over the keys 0..n-1 (4 bytes each) and encodes it into buf. */
static bool engine_encode(const fl_filter_policy *p, uint32_t n, fl_buf *buf) {
    fl_filter_builder *b = NULL;
    fl_filter *f = NULL;
    CHECK_OK(p->ops->new_builder(p, &b));
    if (!b) return false;
    for (uint32_t i = 0; i < n; i++) {
        fl_row_entry e = { { (const uint8_t *)&i, 4 }, { NULL, 0 }, 1, FL_ENTRY_PUT };
        b->ops->add_entry(b, &e);
    }
    CHECK_OK(b->ops->build(b, &f));
    b->ops->destroy(b);
    bool ok = f && f->ops->encode(f, buf) == FL_OK;
    if (f) f->ops->destroy(f);
    return ok;
}

/* Extractor specs: accepted alike, named alike, and alike on many inputs. */
FL_TEST(model_extractor_vs_engine) {
    static const char *const specs[] = { "fixed:1", "fixed:3", "fixed:65535", "capped:1",
        "capped:2", "delim::", "delim:/", "delim:\\x00", "delim:\\xff", "delim:\\xFF", "delim:\\",
        "delim: ", "delim:\x80", "delim:\\x5c", "lastdelim::", "lastdelim:\\x5c", "lastdelim:\\x00",
        "fixed:0", "fixed:65536", "fixed:", "fixed", "fixed:3x", "fixed:-1", "capped:+2", "delim:",
        "delim:ab", "delim:\\x4", "delim:\\xzz", "nosuch:1", "fixed:03", "capped:007", "delim:\\X3a",
        "delim:\\x3a", "lastdelim:", "fixed:256", "capped:300", "capped:65535" };
    static uint8_t long_key[FL_MODEL_MAX_KEY];      /* 'a's with delimiters at chosen places */
    static const size_t long_lens[] = { 255, 256, 257, 299, 300, 301, 65534, 65535 };
    fl_registry *reg = registry();
    rng = base_seed();
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        fl_model_extractor mex;
        fl_prefix_extractor *eex = NULL;
        char err[256] = "", name[FL_MODEL_NAME_MAX];
        bool model_ok = fl_model_extractor_parse(specs[s], &mex, NULL, 0) == FL_MODEL_OK;
        bool engine_ok = fl_registry_make_extractor(reg, specs[s], &eex, err, sizeof err) == FL_OK;
        if (model_ok != engine_ok) {
            fl_test_fail(__FILE__, __LINE__, "extractor spec \"%s\": model %s, engine %s (%s)",
                         specs[s], model_ok ? "accepts" : "rejects", engine_ok ? "accepts" : "rejects", err);
        } else if (model_ok) {
            CHECK_STR(eex->ops->name(eex), fl_model_extractor_name(&mex, name, sizeof name));
            for (int i = 0; i < 2000 + 64; i++) {
                key k = random_key(7, 7);
                fl_model_bytes in = kb(&k);
                if (i >= 2000) {            /* long inputs, the delimiter past byte 255 or absent */
                    memset(long_key, 'a', sizeof long_key);
                    size_t len = long_lens[(i / 2) % 8], at = (size_t)(i - 2000) * 1031 % (len + 1);
                    if (at < len) long_key[at] = mex.delim;
                    in = (fl_model_bytes){ long_key, len };
                }
                fl_model_target_kind kind = i % 2 ? FL_MODEL_PREFIX : FL_MODEL_POINT;
                fl_target t = { (fl_target_kind)kind, { in.data, in.len } };
                size_t mn = 0, en = 0;
                bool mr = fl_model_extractor_prefix_len(&mex, kind, in, &mn);
                bool er = eex->ops->prefix_len(eex, &t, &en);
                if (mr != er || (mr && mn != en)) {
                    char sk[64];
                    fl_test_fail(__FILE__, __LINE__, "extractor %s %s \"%s\": model %ld, engine %ld",
                                 specs[s], i % 2 ? "PREFIX" : "POINT", show(in.data, in.len, sk, sizeof sk),
                                 mr ? (long)mn : -1L, er ? (long)en : -1L);
                    break;
                }
            }
        }
        if (eex) eex->ops->destroy(eex);
    }
    fl_registry_free(reg);
}

/* One differential trial: builds spec over keys (in SST order) both ways and
 * compares name, bytes and the answers to sampled queries.  Returns false on
 * the first mismatch, after printing it with `label` (seed, configuration). */
static bool bloom_trial(fl_registry *reg, const char *label, const char *spec,
                        const key *keys, size_t n, bool check_legacy, uint32_t mb) {
    char err[256] = "", name[FL_MODEL_NAME_MAX], s1[64];
    fl_model_bloom mb_;
    fl_model_bloom_config cfg;
    fl_filter_policy *p = NULL;
    fl_filter_builder *b = NULL;
    fl_filter *f = NULL;
    fl_buf buf;
    bool ok = true;
    fl_buf_init(&buf);
    memset(&mb_, 0, sizeof mb_);
    if (fl_model_bloom_parse(spec, &cfg, err, sizeof err) != FL_MODEL_OK ||
        fl_registry_make_policy(reg, spec, &p, err, sizeof err) != FL_OK) {
        fl_test_fail(__FILE__, __LINE__, "%s: spec %s: %s", label, spec, err);
        return false;
    }
    fl_model_bloom_begin(&mb_, &cfg);
    CHECK_OK(p->ops->new_builder(p, &b));
    for (size_t i = 0; i < n; i++) {
        fl_row_entry e = { { keys[i].b, keys[i].len }, { (const uint8_t *)"v", 1 }, 1000 - i,
                           i % 3 == 2 ? FL_ENTRY_DELETE : FL_ENTRY_PUT };
        b->ops->add_entry(b, &e);
        CHECK_OK(fl_model_bloom_add(&mb_, kb(&keys[i])));
    }
    CHECK_OK(b->ops->build(b, &f));
    b->ops->destroy(b);
    CHECK_OK(fl_model_bloom_finish(&mb_));
    if (check_legacy) {  /* the Legacy reference must be this same whole-key bloom */
        fl_model_bloom leg;
        fl_model_bytes *lk = malloc((n ? n : 1) * sizeof *lk);
        for (size_t i = 0; lk && i < n; i++) lk[i] = kb(&keys[i]);
        CHECK_OK(fl_model_legacy_build(&leg, mb, lk, lk ? n : 0));
        CHECK_MEM(leg.encoded, leg.encoded_len, mb_.encoded, mb_.encoded_len);
        CHECK(fl_model_bloom_might_match(&leg, FL_MODEL_PREFIX, mb_str("zzz")));
        fl_model_bloom_free(&leg);
        free(lk);
    }
    if (!f) { ok = false; goto out; }
    fl_model_bloom_name(&cfg, name, sizeof name);
    if (strcmp(p->ops->name(p), name) != 0) {
        fl_test_fail(__FILE__, __LINE__, "%s: name: model \"%s\", engine \"%s\"", label, name, p->ops->name(p));
        ok = false;
    }
    CHECK_OK(f->ops->encode(f, &buf));
    if (buf.len != mb_.encoded_len || memcmp(buf.data, mb_.encoded, buf.len) != 0) {
        size_t at = 0;
        while (at < buf.len && at < mb_.encoded_len && buf.data[at] == mb_.encoded[at]) at++;
        fl_test_fail(__FILE__, __LINE__, "%s: encoding: model %zu bytes (m=%llu lines=%llu k=%u), "
                     "engine %zu bytes, first difference at byte %zu", label, mb_.encoded_len,
                     (unsigned long long)mb_.m, (unsigned long long)mb_.lines, mb_.k, buf.len, at);
        ok = false;
    }
    /* Queries: every key and every prefix of every key, then random strings. */
    for (size_t q = 0; ok && q < 2 * n + 600; q++) {
        key t = q < n ? keys[q] : random_key(7, 7);
        if (q >= n && q < 2 * n) { t = keys[q - n]; t.len = rand_below(t.len + 1); }
        for (int kind = FL_MODEL_POINT; ok && kind <= FL_MODEL_PREFIX; kind++) {
            fl_filter_query fq = { { (fl_target_kind)kind, { t.b, t.len } }, NULL };
            bool e = f->ops->might_match(f, &fq);
            bool m = fl_model_bloom_might_match(&mb_, (fl_model_target_kind)kind, kb(&t));
            if (q < 2 * n && !m && (kind == FL_MODEL_PREFIX || q < n))
                fl_test_fail(__FILE__, __LINE__, "%s: model false negative", label);
            if (e != m) {
                fl_test_fail(__FILE__, __LINE__, "%s: %s \"%s\": model %d, engine %d", label,
                             kind == FL_MODEL_POINT ? "POINT" : "PREFIX",
                             show(t.b, t.len, s1, sizeof s1), m, e);
                ok = false;
            }
        }
    }
out:
    if (!ok) {
        fprintf(stderr, "    %s: %zu keys in SST order:", label, n);
        for (size_t i = 0; i < n && i < 40; i++)
            fprintf(stderr, " \"%s\"", show(keys[i].b, keys[i].len, s1, sizeof s1));
        fprintf(stderr, "%s\n", n > 40 ? " ..." : "");
    }
    if (f) f->ops->destroy(f);
    p->ops->destroy(p);
    fl_buf_free(&buf);
    fl_model_bloom_free(&mb_);
    return ok;
}

/* A random sorted key set with versions (repeats), empty keys, NUL and 0xFF. */
static size_t random_keys(key *keys, size_t max) {
    size_t distinct = rand_below(5) == 0 ? rand_below(4) : rand_below(max / 3);
    size_t n = 0, len = 1 + rand_below(7), alpha = 2 + rand_below(6);
    for (size_t i = 0; i < distinct; i++) keys[i] = random_key(len, alpha);
    qsort(keys, distinct, sizeof *keys, key_cmp);
    key *out = keys + max;                   /* expand in place, from the back */
    for (size_t i = distinct; i-- > 0;) {
        size_t versions = 1 + (rand_below(4) == 0 ? rand_below(3) : 0);
        for (size_t v = 0; v < versions; v++) { *--out = keys[i]; n++; }
    }
    memmove(keys, out, n * sizeof *keys);
    return n;
}

FL_TEST(model_bloom_vs_engine) {
    /* 512 bits/key makes lines == m, so any difference in what is hashed
     * (deduplication) shows in the bytes, not only when it crosses a line. */
    static const char *const bits[] = { "0", "0.5", "1", "2.5", "4", "10", "13.7", "20", "31", "512" };
    static const char *const delims[] = { ":", "/", "\\x00", "\\xff", "\\x5c", "\\x2c" };
    static key keys[3 * 600];
    char spec[128], ex[32], label[256];
    fl_registry *reg = registry();
    uint64_t seed = base_seed();
    int failures = 0, trials = 0;
    for (size_t bi = 0; bi < sizeof bits / sizeof bits[0]; bi++)
        for (int wk = 0; wk <= 1; wk++)
            for (int exk = 0; exk <= 4; exk++)
                for (int rep = 0; rep < 6 && failures < 5; rep++, trials++) {
                    uint64_t trial_seed = seed + (uint64_t)trials * 7919;
                    rng = trial_seed;
                    size_t nn = 1 + rand_below(4);
                    const char *c = delims[rand_below(6)];
                    ex[0] = 0;
                    if (exk == 1) snprintf(ex, sizeof ex, ",prefix=fixed:%zu", nn);
                    if (exk == 2) snprintf(ex, sizeof ex, ",prefix=capped:%zu", nn);
                    if (exk == 3) snprintf(ex, sizeof ex, ",prefix=delim:%s", c);
                    if (exk == 4) snprintf(ex, sizeof ex, ",prefix=lastdelim:%s", c);
                    snprintf(spec, sizeof spec, "bloom(bits=%s,whole_key=%d%s)", bits[bi], wk, ex);
                    size_t n = random_keys(keys, rep == 5 ? 3 * 600 : 3 * 80);
                    snprintf(label, sizeof label, "seed %llu trial %d %s (rerun: FL_MODEL_SEED=%llu "
                             "build/tests/unit model_bloom_vs_engine)", (unsigned long long)trial_seed, trials,
                             spec, (unsigned long long)seed);
                    uint32_t mb = 0;
                    fl_model_parse_millibits(bits[bi], &mb);
                    if (!bloom_trial(reg, label, spec, keys, n, wk == 1 && exk == 0, mb)) failures++;
                }
    /* Hand-picked sequences: the prefix dedup compares with the last prefix
     * ADDED ("a:" is added again after "a:b:"), an empty SST, the empty key. */
    static const struct { const char *spec; const char *k[6]; size_t n; } hand[] = {
        { "bloom(bits=10,prefix=lastdelim::)", { "a:b", "a:b:c", "a:c", "a:c" }, 4 },
        { "bloom(bits=10,whole_key=0,prefix=lastdelim::)", { "a:b", "a:b:c", "a:c", "b", "b:" }, 5 },
        { "bloom(bits=10,prefix=capped:2)", { "", "a", "ab", "abc", "abd", "b" }, 6 },
        { "bloom(bits=10,whole_key=0,prefix=fixed:2)", { "a", "ab", "abc", "b", "bc" }, 5 },
        { "bloom(bits=512,prefix=lastdelim::)", { "a:b", "a:b:c", "a:c", "a:c" }, 4 },
        { "bloom(bits=512,whole_key=0,prefix=delim::)", { "", "a", "a:", "a:x", "b", "b:" }, 6 },
        { "bloom(bits=10)", { "" }, 0 }, { "bloom(bits=10)", { "", "" }, 2 },
        { "bloom(bits=0.0005)", { "x" }, 1 },
    };
    for (size_t h = 0; h < sizeof hand / sizeof hand[0]; h++) {
        for (size_t i = 0; i < hand[h].n; i++) {
            keys[i].len = strlen(hand[h].k[i]);
            memcpy(keys[i].b, hand[h].k[i], keys[i].len);
        }
        snprintf(label, sizeof label, "hand case %zu %s", h, hand[h].spec);
        bloom_trial(reg, label, hand[h].spec, keys, hand[h].n, false, 0);
    }
    fl_registry_free(reg);
}

/* Bloom specs: accepted alike and, when accepted, named and sized alike.  The
 * spec language is not settled by SPEC 5/10, so engine and model implement
 * the same one (model_spec.c says which) and every row here states what
 * both must do: blanks (space, tab) around the spec, the arguments, '=' and
 * the values; decimals ".5" and "5."; bits above 1000 refused by their
 * digits, not after rounding; \xNN escapes in bits= and whole_key= values;
 * balanced parentheses.  With m = 512000 distinct keys, lines = ceil(m * mb
 * / 512000) is exactly mb, so the line count read from the engine's encoding
 * of a "sized" row is its millibits (kept to small bits: 64 bytes a line). */
FL_TEST(model_bloom_spec_vs_engine) {
    enum { REJECT, ACCEPT, SIZED };
    static const struct { const char *spec; int want; } rows[] = {
        { "bloom", ACCEPT }, { "bloom()", ACCEPT }, { "bloom(bits=10)", SIZED },
        { "bloom(bits=2.0005)", SIZED }, { "bloom(bits=2.00049999)", SIZED },
        { "bloom(bits=0.0005)", SIZED }, { "bloom(bits=0.0004)", SIZED }, { "bloom(bits=13.7)", SIZED },
        { "bloom(bits=1000)", ACCEPT }, { "bloom(bits=1001)", REJECT }, { "bloom(bits=1000.0005)", REJECT },
        { "bloom(bits=-1)", REJECT }, { "bloom(bits=1e1)", REJECT }, { "bloom(bits=010)", SIZED },
        { "bloom(whole_key=0)", ACCEPT }, { "bloom(whole_key=2)", REJECT },
        { "bloom(prefix=delim:\\x2c)", ACCEPT }, { "bloom(bits=10,bits=10)", REJECT },
        { "bloom(bits=10,)", REJECT }, { "bloom(foo=1)", REJECT },
        { "bloom(prefix=fixed:3,whole_key=0,bits=4)", SIZED }, { "bloom(prefix=delim:\\)", ACCEPT },
        { "bloom(prefix=fixed:0)", REJECT }, { "bloom(prefix=nosuch:1)", REJECT },
        { "bloom(prefix=fixed:\\x33)", ACCEPT }, { "bloom(prefix=capped:1\\x30)", ACCEPT },
        { "bloom(prefix=fixed:\\x3)", REJECT },
        { "bloom(prefix=fixed:0000000000000000000000000000000000000003)", ACCEPT },
        /* bits > 1000 by the digits, whatever the rounding */
        { "bloom(bits=1000.0001)", REJECT }, { "bloom(bits=1000.0004)", REJECT },
        { "bloom(bits=1000.0000)", ACCEPT }, { "bloom(bits=999.9995)", ACCEPT },
        { "bloom(bits=999.9994)", ACCEPT },
        /* ".5" and "5." are decimals; "." and "" are not */
        { "bloom(bits=.5)", SIZED }, { "bloom(bits=5.)", SIZED }, { "bloom(bits=.0005)", SIZED },
        { "bloom(bits=.)", REJECT }, { "bloom(bits=)", REJECT }, { "bloom(bits=5.5.)", REJECT },
        /* blanks */
        { "bloom(bits= 10)", SIZED }, { "bloom(bits =10)", SIZED }, { "bloom( bits=10 )", SIZED },
        { "bloom( bits=10 , whole_key=0 )", ACCEPT }, { "\tbloom(bits=3.5)\t ", SIZED },
        { "bloom(\tbits\t=\t2.5\t,\tprefix = fixed:3\t)", ACCEPT }, { "bloom( )", ACCEPT },
        { "bloom(prefix= delim:: ,whole_key= 0)", ACCEPT }, { "bloom (bits=10)", REJECT },
        { "bloom(bits=1 0)", REJECT }, { "bloom(bi ts=10)", REJECT }, { "bloom(bits=10, )", REJECT },
        { "bloom( ,bits=10)", REJECT }, { "bloom(whole_key= 1 )", ACCEPT },
        { "bloom(prefix=fixed: 3)", REJECT }, { "bloom(bits=\n10)", REJECT },
        /* \xNN escapes in values; parentheses must balance */
        { "bloom(bits=\\x31\\x30)", SIZED }, { "bloom(bits=2\\x2e5)", SIZED },
        { "bloom(whole_key=\\x30)", ACCEPT }, { "bloom(bits=\\x00)", REJECT },
        { "bloom(bits=1\\x00)", REJECT }, { "bloom(bits=\\x3)", REJECT }, { "bloom(bits=\\y31)", REJECT },
        { "bloom(bits=\\x2d1)", REJECT }, { "bloom(prefix=delim:\\x29)", ACCEPT },
        { "bloom(prefix=delim:()", REJECT }, { "bloom(prefix=delim:))", REJECT },
        { "bloom(prefix=delim:(,bits=4)", REJECT }, { "bloom(prefix=delim:(,bits=4))", REJECT },
        { "bloom(prefix=delim:()),bits=4)", REJECT }, { "bloom(prefix=delim:,)", REJECT },
        /* long values: a long decimal is still one; over-long names and values are not */
        { "bloom(bits=10.000000000000000000000000000000000000000000000000000000000000000000001)", SIZED },
        { "bloom(bits=0000000000000000000000000000000000000000000000000000000000000000000000010)", SIZED },
        { "bloom(bitsbitsbitsbitsbitsbitsbitsbits=1)", REJECT },
    };
    fl_registry *reg = registry();
    for (size_t s = 0; s < sizeof rows / sizeof rows[0]; s++) {
        const char *spec = rows[s].spec;
        fl_model_bloom_config cfg;
        fl_filter_policy *p = NULL;
        char err[256] = "", merr[256] = "", name[FL_MODEL_NAME_MAX];
        bool model_ok = fl_model_bloom_parse(spec, &cfg, merr, sizeof merr) == FL_MODEL_OK;
        bool engine_ok = fl_registry_make_policy(reg, spec, &p, err, sizeof err) == FL_OK;
        bool want_ok = rows[s].want != REJECT;
        if (model_ok != want_ok || engine_ok != want_ok) {
            fl_test_fail(__FILE__, __LINE__, "bloom spec \"%s\": model %s, engine %s, both should %s "
                         "(model: %s; engine: %s)", spec, model_ok ? "accepts" : "rejects",
                         engine_ok ? "accepts" : "rejects", want_ok ? "accept" : "reject", merr, err);
        } else if (!model_ok) {
            CHECK(merr[0] != 0 && err[0] != 0);
        } else {
            CHECK_STR(p->ops->name(p), fl_model_bloom_name(&cfg, name, sizeof name));
        }
        if (model_ok && engine_ok && rows[s].want == SIZED) {
            fl_buf buf;
            fl_buf_init(&buf);
            if (engine_encode(p, 512000, &buf) && buf.len >= 6) {
                uint32_t lines = (uint32_t)buf.data[2] << 24 | (uint32_t)buf.data[3] << 16 |
                                 (uint32_t)buf.data[4] << 8 | buf.data[5];
                if (lines != cfg.millibits)
                    fl_test_fail(__FILE__, __LINE__, "bloom spec \"%s\": millibits: model %u, "
                                 "engine %u", spec, cfg.millibits, lines);
            }
            fl_buf_free(&buf);
        }
        if (p) p->ops->destroy(p);
    }
    fl_registry_free(reg);
}

/* The k table at every boundary of SPEC 5 (and the formula above it): k is
 * the second byte of the engine's encoding of a one-key filter. */
FL_TEST(model_bloom_k_vs_engine) {
    static const uint32_t edges[] = { 0, 1, 2080, 3580, 5100, 6640, 8300, 10070, 11720, 14000,
        16050, 18300, 22000, 25500, 25999, 26000, 27999, 28000, 49999, 50000, 51999, 52000, 999999 };
    fl_registry *reg = registry();
    for (size_t i = 0; i < 2 * sizeof edges / sizeof edges[0]; i++) {
        uint32_t mb = edges[i / 2] + (uint32_t)(i % 2);
        char spec[64];
        snprintf(spec, sizeof spec, "bloom(bits=%u.%03u)", mb / 1000, mb % 1000);
        fl_filter_policy *p = make_engine_policy(reg, spec);
        fl_buf buf;
        fl_buf_init(&buf);
        if (p && engine_encode(p, 1, &buf) && buf.len >= 2 && buf.data[1] != fl_model_bloom_k(mb))
            fl_test_fail(__FILE__, __LINE__, "%s: k: model %u, engine %u", spec,
                         fl_model_bloom_k(mb), buf.data[1]);
        fl_buf_free(&buf);
        if (p) p->ops->destroy(p);
    }
    fl_registry_free(reg);
}
