/*
 * test_db.c -- the engine end to end: random puts, deletes and range
 * deletes over small keys with flushes, compactions and reopens under
 * changing policies, checked after every step against a plain array of
 * (key -> value) kept in the test; counters always add up; the manifest
 * survives reopen; compaction output runs have disjoint key ranges; a
 * backward read (seek_for_prev in total order) gives every live key up to
 * its own, the greatest first, across memtable versions, SST blocks and
 * runs; a memtable get gives the first version its list holds.
 */
#include "test.h"
#include "../engine/engine_internal.h"

#include <stdlib.h>

#define NKEYS 64

typedef struct ref { bool live[NKEYS]; char val[NKEYS][16]; } ref;

static uint64_t rng_state;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13; rng_state ^= rng_state >> 7; rng_state ^= rng_state << 17;
    return rng_state;
}

/* keys: "", "\0", "\xff", "a", "ab", "k07", ... some binary, some empty */
static size_t key_of(int i, uint8_t *out) {
    switch (i) {
    case 0: return 0;
    case 1: out[0] = 0; return 1;
    case 2: out[0] = 0xff; out[1] = 0xff; return 2;
    case 3: out[0] = 'a'; return 1;
    default: return (size_t)snprintf((char *)out, 16, "k%02d:%d", i, i % 5);
    }
}

static int key_index(fl_slice k) {
    uint8_t b[16];
    for (int i = 0; i < NKEYS; i++) {
        size_t n = key_of(i, b);
        if (n == k.len && (n == 0 || memcmp(b, k.data, n) == 0)) return i;
    }
    return -1;
}

typedef struct collect { bool seen[NKEYS]; int count; bool bad_order; uint8_t last[16]; size_t last_len; bool any; } collect;

static int collect_fn(void *arg, fl_slice k, fl_slice v) {
    collect *c = arg;
    int i = key_index(k);
    (void)v;
    if (i < 0) { c->bad_order = true; return 0; }
    if (c->any) {
        size_t n = c->last_len < k.len ? c->last_len : k.len;
        int cmp = n ? memcmp(c->last, k.data, n) : 0;   /* n > 0: k.data valid */
        if (cmp > 0 || (cmp == 0 && c->last_len >= k.len)) c->bad_order = true;
    }
    if (k.len) memcpy(c->last, k.data, k.len);
    c->last_len = k.len;
    c->any = true;
    c->seen[i] = true;
    c->count++;
    return 0;
}

static int key_cmp(int a, int b) {
    uint8_t ka[16], kb[16];
    size_t na = key_of(a, ka), nb = key_of(b, kb), n = na < nb ? na : nb;
    int c = n ? memcmp(ka, kb, n) : 0;
    return c ? c : (na > nb) - (na < nb);
}

typedef struct backward { int keys[NKEYS + 1]; int count; } backward;

static int backward_fn(void *arg, fl_slice k, fl_slice v) {
    backward *b = arg;
    (void)v;
    if (b->count <= NKEYS) b->keys[b->count++] = key_index(k);
    return 0;
}

/* A total-order seek_for_prev (the engine's backward read) from key i:
 * every live key <= it, the greatest first. */
static void check_backward(fl_db *db, const ref *r, int i, uint64_t seed) {
    uint8_t k[16];
    size_t n = key_of(i, k);
    backward got = { .count = 0 };
    CHECK_OK(fl_db_seek(db, (fl_slice){ k, n }, true, NKEYS + 1, 0, NULL, backward_fn, &got));
    int want[NKEYS], count = 0;
    for (int x = 0; x < NKEYS; x++) {
        if (!r->live[x] || key_cmp(x, i) > 0) continue;
        int at = count++;
        while (at > 0 && key_cmp(want[at - 1], x) < 0) { want[at] = want[at - 1]; at--; }
        want[at] = x;
    }
    bool same = got.count == count;
    for (int j = 0; same && j < count; j++) same = got.keys[j] == want[j];
    if (!same)
        fl_test_fail(__FILE__, __LINE__, "seed %llu seek_for_prev from key %d: %d keys, want %d (first %d, want %d)",
                     (unsigned long long)seed, i, got.count, count, got.count ? got.keys[0] : -1,
                     count ? want[0] : -1);
}

static void check_counters(fl_db *db) {
    fl_metrics m;
    fl_db_metrics(db, &m);
    const fl_filter_counters *cs[2] = { &m.point, &m.prefix };
    for (int i = 0; i < 2; i++) {
        CHECK_EQ(cs[i]->considered, cs[i]->unfiltered + cs[i]->positive + cs[i]->negative);
        CHECK(cs[i]->false_positive <= cs[i]->positive);
    }
}

static void check_all(fl_db *db, const ref *r, uint64_t seed) {
    fl_buf v;
    fl_buf_init(&v);
    for (int i = 0; i < NKEYS; i++) {
        uint8_t k[16];
        size_t n = key_of(i, k);
        bool found;
        CHECK_OK(fl_db_get(db, (fl_slice){ k, n }, NULL, &v, &found));
        if (found != r->live[i]) {
            fl_test_fail(__FILE__, __LINE__, "seed %llu key %d: found=%d want %d",
                         (unsigned long long)seed, i, found, r->live[i]);
        } else if (found) {
            CHECK_MEM(v.data, v.len, r->val[i], strlen(r->val[i]));
        }
    }
    /* full scan and a few prefix scans */
    collect c = { 0 };
    CHECK_OK(fl_db_scan(db, (fl_slice){ (const uint8_t *)"", 0 },
                        (fl_slice){ (const uint8_t *)"\xff\xff\xff", 3 }, collect_fn, &c));
    CHECK(!c.bad_order);
    for (int i = 0; i < NKEYS; i++)
        if (c.seen[i] != r->live[i])
            fl_test_fail(__FILE__, __LINE__, "seed %llu scan key %d: seen=%d want %d",
                         (unsigned long long)seed, i, c.seen[i], r->live[i]);
    const char *prefixes[] = { "k1", "k0", "k2", "a", "", "zz" };
    for (size_t p = 0; p < sizeof prefixes / sizeof *prefixes; p++) {
        collect pc = { 0 };
        size_t plen = strlen(prefixes[p]);
        CHECK_OK(fl_db_scan_prefix(db, (fl_slice){ (const uint8_t *)prefixes[p], plen }, NULL,
                                   collect_fn, &pc));
        CHECK(!pc.bad_order);
        for (int i = 0; i < NKEYS; i++) {
            uint8_t k[16];
            size_t n = key_of(i, k);
            bool want = r->live[i] && n >= plen && memcmp(k, prefixes[p], plen) == 0;
            if (pc.seen[i] != want)
                fl_test_fail(__FILE__, __LINE__, "seed %llu prefix \"%s\" key %d: seen=%d want %d",
                             (unsigned long long)seed, prefixes[p], i, pc.seen[i], want);
        }
    }
    for (int i = 0; i < NKEYS; i += 5) check_backward(db, r, i, seed);
    check_counters(db);
    fl_buf_free(&v);
}

static const char *const policy_sets[] = {
    "bloom(bits=10)", "bloom(bits=10,prefix=fixed:2)", "bloom(bits=4,prefix=delim::,whole_key=0)",
    "none", "bloom(bits=0)", "bloom(bits=10,prefix=capped:3);bloom(bits=7,prefix=fixed:1,whole_key=0)",
    "bloom(bits=2.5,prefix=lastdelim::)",
};

static void run_random(uint64_t seed) {
    rng_state = seed * 2654435761u + 1;
    fl_registry *reg;
    CHECK_OK(fl_registry_new(&reg));
    char dir[4200], err[1024];
    snprintf(dir, sizeof dir, "%s/db%llu", fl_test_tmpdir(), (unsigned long long)seed);
    fl_options opt;
    fl_options_init(&opt);
    opt.sync = false;             /* a throwaway database: fsync costs minutes */
    CHECK_OK(fl_options_set(&opt, "memtable_bytes", "300", err, sizeof err));
    CHECK_OK(fl_options_set(&opt, "sst_bytes", "200", err, sizeof err));
    CHECK_OK(fl_options_set(&opt, "block_bytes", "64", err, sizeof err));
    CHECK_OK(fl_options_set(&opt, "l0_trigger", "3", err, sizeof err));
    CHECK_OK(fl_options_set(&opt, "max_runs", "2", err, sizeof err));
    fl_db *db;
    CHECK_OK(fl_db_open(dir, reg, &opt, &db, err, sizeof err));
    ref r = { 0 };
    for (int step = 0; step < 600 && db; step++) {
        int op = (int)(rnd() % 100);
        int i = (int)(rnd() % NKEYS);
        uint8_t k[16], k2[16];
        size_t n = key_of(i, k);
        if (op < 50) {
            snprintf(r.val[i], sizeof r.val[i], "v%d.%d", i, step);
            CHECK_OK(fl_db_put(db, (fl_slice){ k, n }, (fl_slice){ (const uint8_t *)r.val[i], strlen(r.val[i]) }));
            r.live[i] = true;
        } else if (op < 65) {
            CHECK_OK(fl_db_delete(db, (fl_slice){ k, n }));
            r.live[i] = false;
        } else if (op < 72) {
            int j = (int)(rnd() % NKEYS);
            size_t n2 = key_of(j, k2);
            CHECK_OK(fl_db_delete_range(db, (fl_slice){ k, n }, (fl_slice){ k2, n2 }));
            for (int x = 0; x < NKEYS; x++) {
                uint8_t kx[16];
                size_t nx = key_of(x, kx);
                size_t m1 = nx < n ? nx : n, m2 = nx < n2 ? nx : n2;
                int c1 = m1 ? memcmp(kx, k, m1) : 0, c2 = m2 ? memcmp(kx, k2, m2) : 0;
                bool ge = c1 > 0 || (c1 == 0 && nx >= n);
                bool lt = c2 < 0 || (c2 == 0 && nx < n2);
                if (ge && lt) r.live[x] = false;
            }
        } else if (op < 80) {
            CHECK_OK(fl_db_flush(db));
        } else if (op < 85) {
            CHECK_OK(fl_db_compact(db, rnd() % 3 == 0));
        } else if (op < 88) {
            const char *ps = policy_sets[rnd() % (sizeof policy_sets / sizeof *policy_sets)];
            CHECK_OK(fl_options_set(&opt, "policies", ps, err, sizeof err));
            CHECK_OK(fl_options_set(&opt, "legacy_filters", rnd() % 4 == 0 ? "1" : "0", err, sizeof err));
            CHECK_OK(fl_options_set(&opt, "compactor", rnd() % 3 == 0 ? "none" : ps, err, sizeof err));
            CHECK_OK(fl_db_close(db, err, sizeof err));
            db = NULL;
            int rc = fl_db_open(dir, reg, &opt, &db, err, sizeof err);
            if (rc) fl_test_fail(__FILE__, __LINE__, "seed %llu reopen: %s", (unsigned long long)seed, err);
        } else {
            if (db) check_all(db, &r, seed);
        }
    }
    if (db) {
        check_all(db, &r, seed);
        /* runs have disjoint, ordered ranges */
        fl_sst_meta *m;
        size_t cnt;
        CHECK_OK(fl_db_ssts(db, &m, &cnt));
        for (size_t a = 1; a < cnt; a++) {
            if (m[a].level == 0 || m[a].level != m[a - 1].level) continue;
            fl_slice s = { m[a].smallest, m[a].smallest_len };
            CHECK(!fl_sst_covers_key(&m[a - 1], s));
        }
        fl_sst_meta_free(m, cnt);
        CHECK_OK(fl_db_close(db, err, sizeof err));
    }
    fl_options_free(&opt);
    fl_registry_free(reg);
}

FL_TEST(db_random_ops_match_reference) {
    for (uint64_t seed = 1; seed <= 40; seed++) run_random(seed);
}

FL_TEST(db_reopen_keeps_data_and_sequence) {
    fl_registry *reg;
    CHECK_OK(fl_registry_new(&reg));
    char dir[4200], err[1024];
    snprintf(dir, sizeof dir, "%s/db", fl_test_tmpdir());
    fl_options opt;
    fl_options_init(&opt);
    fl_db *db;
    CHECK_OK(fl_db_open(dir, reg, &opt, &db, err, sizeof err));
    CHECK_OK(fl_db_put(db, (fl_slice){ (const uint8_t *)"a", 1 }, (fl_slice){ (const uint8_t *)"1", 1 }));
    CHECK_OK(fl_db_close(db, err, sizeof err));
    CHECK_OK(fl_db_open(dir, reg, &opt, &db, err, sizeof err));
    /* a newer write after reopen must win over the flushed one */
    CHECK_OK(fl_db_put(db, (fl_slice){ (const uint8_t *)"a", 1 }, (fl_slice){ (const uint8_t *)"2", 1 }));
    CHECK_OK(fl_db_flush(db));
    fl_buf v;
    fl_buf_init(&v);
    bool found;
    CHECK_OK(fl_db_get(db, (fl_slice){ (const uint8_t *)"a", 1 }, NULL, &v, &found));
    CHECK(found);
    CHECK_MEM(v.data, v.len, "2", 1);
    CHECK_OK(fl_db_close(db, err, sizeof err));
    /* a bad policy spec names the option */
    CHECK_OK(fl_options_set(&opt, "policies", "bloom(bits=x)", err, sizeof err));
    CHECK(fl_db_open(dir, reg, &opt, &db, err, sizeof err) != FL_OK);
    CHECK_CONTAINS(err, "policies");
    fl_buf_free(&v);
    fl_options_free(&opt);
    fl_registry_free(reg);
}

FL_TEST(options_errors_name_the_key) {
    fl_options o;
    char err[512];
    fl_options_init(&o);
    CHECK_RC(fl_options_set(&o, "memtable_bytes", "12x", err, sizeof err), FL_ERR_INVALID);
    CHECK_CONTAINS(err, "memtable_bytes");
    CHECK_RC(fl_options_set(&o, "l0_trigger", "0", err, sizeof err), FL_ERR_INVALID);
    CHECK_RC(fl_options_set(&o, "legacy_filters", "2", err, sizeof err), FL_ERR_INVALID);
    CHECK_RC(fl_options_set(&o, "bogus", "1", err, sizeof err), FL_ERR_INVALID);
    CHECK_CONTAINS(err, "known");
    CHECK_OK(fl_options_set(&o, "min_filter_keys", "10", err, sizeof err));
    CHECK_EQ(o.min_filter_keys, 10);
    fl_options_free(&o);
}

/* ---- Filters on the read path ---------------------------------------------- */

typedef struct trace_log { int events; fl_verdict last; bool last_held; uint64_t last_sst; size_t last_subs; char names[256]; } trace_log;

static void on_probe(void *arg, const fl_probe_event *ev) {
    trace_log *t = arg;
    t->events++;
    t->last = ev->verdict;
    t->last_held = ev->held_match;
    t->last_sst = ev->sst_id;
    t->last_subs = ev->sub_count;
    t->names[0] = 0;
    for (size_t i = 0; i < ev->sub_count; i++) {
        strncat(t->names, ev->subs[i].name, sizeof t->names - strlen(t->names) - 2);
        strcat(t->names, ev->subs[i].might_match ? "+" : "-");
    }
}

static fl_db *open_with(fl_registry *reg, const char *dir, const char *policies, const char *min_keys) {
    fl_options opt;
    char err[1024];
    fl_db *db = NULL;
    fl_options_init(&opt);
    CHECK_OK(fl_options_set(&opt, "policies", policies, err, sizeof err));
    CHECK_OK(fl_options_set(&opt, "min_filter_keys", min_keys, err, sizeof err));
    CHECK_OK(fl_options_set(&opt, "l0_trigger", "100", err, sizeof err));
    CHECK_OK(fl_db_open(dir, reg, &opt, &db, err, sizeof err));
    fl_options_free(&opt);
    return db;
}

#define S(lit) ((fl_slice){ (const uint8_t *)(lit), sizeof(lit) - 1 })

static int count_fn(void *arg, fl_slice k, fl_slice v) {
    (void)k; (void)v;
    (*(int *)arg)++;
    return 0;
}

FL_TEST(db_range_tombstone_applies_when_filter_rejects) {
    fl_registry *reg;
    CHECK_OK(fl_registry_new(&reg));
    char dir[4200], err[1024];
    snprintf(dir, sizeof dir, "%s/rt", fl_test_tmpdir());
    fl_db *db = open_with(reg, dir, "bloom(bits=20)", "0");
    trace_log t = { 0 };
    fl_db_set_probe_trace(db, on_probe, &t);
    CHECK_OK(fl_db_put(db, S("b"), S("old")));
    CHECK_OK(fl_db_flush(db));                    /* SST 1: b */
    CHECK_OK(fl_db_put(db, S("x"), S("1")));
    CHECK_OK(fl_db_delete_range(db, S("a"), S("c")));
    CHECK_OK(fl_db_flush(db));                    /* SST 2: x, rt [a,c) */
    fl_buf v;
    fl_buf_init(&v);
    bool found = true;
    CHECK_OK(fl_db_get(db, S("b"), NULL, &v, &found));
    CHECK(!found);
    /* SST 2's filter ruled "b" out, yet its tombstone hid SST 1's "b": the
     * read stopped there, with one event, a NO */
    CHECK_EQ(t.events, 1);
    CHECK_EQ(t.last, FL_VERDICT_NO);
    CHECK_STR(t.names, "_bf-");
    fl_metrics m;
    fl_db_metrics(db, &m);
    CHECK_EQ(m.point.negative, 1);
    CHECK_EQ(m.point.considered, 1);
    fl_buf_free(&v);
    CHECK_OK(fl_db_close(db, err, sizeof err));
    fl_registry_free(reg);
}

FL_TEST(db_min_filter_keys_and_trace_events) {
    fl_registry *reg;
    CHECK_OK(fl_registry_new(&reg));
    char dir[4200], err[1024];
    snprintf(dir, sizeof dir, "%s/mk", fl_test_tmpdir());
    fl_db *db = open_with(reg, dir, "bloom(bits=10);bloom(bits=10,prefix=fixed:2,whole_key=0)", "3");
    trace_log t = { 0 };
    fl_db_set_probe_trace(db, on_probe, &t);
    CHECK_OK(fl_db_put(db, S("aa1"), S("v")));
    CHECK_OK(fl_db_put(db, S("aa2"), S("v")));
    CHECK_OK(fl_db_flush(db));                    /* 2 entries < 3: no filter */
    CHECK_OK(fl_db_put(db, S("aa0"), S("v")));
    CHECK_OK(fl_db_put(db, S("ab5"), S("v")));
    CHECK_OK(fl_db_delete(db, S("aa9")));         /* tombstones count as entries */
    CHECK_OK(fl_db_flush(db));                    /* 3 entries: filtered */
    fl_sst_meta *ms;
    size_t n;
    CHECK_OK(fl_db_ssts(db, &ms, &n));
    CHECK_EQ(n, 2);
    CHECK_EQ(ms[0].filter_count, 2);              /* newest first */
    CHECK_EQ(ms[1].filter_count, 0);
    fl_sst_meta_free(ms, n);
    fl_buf v;
    fl_buf_init(&v);
    bool found;
    CHECK_OK(fl_db_get(db, S("aa1"), NULL, &v, &found));
    CHECK(found);
    /* newest SST considered first; the whole-key bloom rules "aa1" out (almost
     * surely), then the unfiltered SST holds it */
    CHECK_EQ(t.events, 2);
    CHECK_EQ(t.last, FL_VERDICT_UNFILTERED);
    CHECK(t.last_held);
    CHECK_EQ(t.last_subs, 0);
    /* a point tombstone must be found through the filter */
    t.events = 0;
    CHECK_OK(fl_db_get(db, S("aa9"), NULL, &v, &found));
    CHECK(!found);
    CHECK_EQ(t.events, 1);
    CHECK_EQ(t.last, FL_VERDICT_MAYBE);
    CHECK(t.last_held);
    CHECK_STR(t.names, "_bf+_bf:p=fixed2:wh=0+");
    /* prefix "aa" overlaps both SSTs: the old one unfiltered, the new one
     * passed by its prefix bloom (fixed:2 holds "aa") */
    t.events = 0;
    int count = 0;
    CHECK_OK(fl_db_scan_prefix(db, S("aa"), NULL, count_fn, &count));
    CHECK_EQ(count, 3);                           /* aa0 aa1 aa2; aa9 deleted */
    fl_metrics m;
    fl_db_metrics(db, &m);
    CHECK_EQ(m.prefix.considered, (uint64_t)t.events);
    CHECK_EQ(m.prefix.considered, m.prefix.unfiltered + m.prefix.positive + m.prefix.negative);
    CHECK_EQ(m.prefix.unfiltered, 1);
    CHECK_EQ(m.prefix.positive, 1);
    CHECK_EQ(m.prefix.false_positive, 0);
    /* "zz" lies outside both key ranges: nothing considered */
    t.events = 0;
    CHECK_OK(fl_db_scan_prefix(db, S("zz"), NULL, count_fn, &count));
    CHECK_EQ(t.events, 0);
    fl_buf_free(&v);
    CHECK_OK(fl_db_close(db, err, sizeof err));
    fl_registry_free(reg);
}

/* ---- Introspection: SST truth for the checker ------------------------------ */

static int count_entries(void *arg, const fl_row_entry *e) {
    int *n = arg;
    if (e->kind == FL_ENTRY_DELETE && e->value.len != 0) return 1;
    (*n)++;
    return 0;
}

static int count_rts(void *arg, fl_slice s, fl_slice e, uint64_t seq) {
    (void)s; (void)e; (void)seq;
    (*(int *)arg)++;
    return 0;
}

FL_TEST(db_introspection_reads_sst_truth) {
    fl_registry *reg;
    CHECK_OK(fl_registry_new(&reg));
    char dir[4200], err[1024];
    snprintf(dir, sizeof dir, "%s/in", fl_test_tmpdir());
    fl_db *db = open_with(reg, dir, "bloom(bits=10)", "0");
    CHECK_OK(fl_db_put(db, S("a"), S("1")));
    CHECK_OK(fl_db_put(db, S("a"), S("2")));      /* two versions */
    CHECK_OK(fl_db_delete(db, S("b")));
    CHECK_OK(fl_db_delete_range(db, S("c"), S("d")));
    CHECK_OK(fl_db_flush(db));
    fl_sst_meta *ms;
    size_t n;
    CHECK_OK(fl_db_ssts(db, &ms, &n));
    CHECK_EQ(n, 1);
    uint64_t id = n ? ms[0].id : 0;
    fl_sst_meta_free(ms, n);
    int entries = 0, rts = 0;
    CHECK_OK(fl_db_sst_entries(db, id, count_entries, &entries));
    CHECK_EQ(entries, 3);
    CHECK_OK(fl_db_sst_range_tombstones(db, id, count_rts, &rts));
    CHECK_EQ(rts, 1);
    fl_buf fb;
    fl_buf_init(&fb);
    int format = -1;
    CHECK_OK(fl_db_sst_filter_block(db, id, &fb, &format));
    CHECK_EQ(format, 1);
    CHECK(fb.len > 2 && fb.data[0] == 0 && fb.data[1] == 1);   /* one sub-filter */
    CHECK_RC(fl_db_sst_entries(db, id + 100, count_entries, &entries), FL_ERR_NOTFOUND);
    /* introspection moves no metric */
    fl_metrics m;
    fl_db_metrics(db, &m);
    CHECK_EQ(m.sst_reads, 0);
    CHECK_EQ(m.point.considered, 0);
    fl_buf_free(&fb);
    CHECK_OK(fl_db_close(db, err, sizeof err));
    fl_registry_free(reg);
}

/* ---- Long keys: compaction's merge and repeated seeks ----------------------
 * Keys that are prefixes of each other, around 16 bytes long and with zero
 * bytes past a shorter key (the merge compares keys by their first 16 bytes
 * first; a block's seek points kick in from a block's first seek), through
 * small blocks, flushes and compactions, checked after every step. */

#define LK_KEYS 46

static size_t lk_key(int i, uint8_t *out) {
    static const char base[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    if (i < 37) { memcpy(out, base, (size_t)i); return (size_t)i; }
    memcpy(out, base, 16);
    switch (i) {
    case 37: out[8] = 0; return 9;                       /* "abcdefgh\0" */
    case 38: memset(out + 8, 0, 8); return 16;
    case 39: memset(out + 8, 0, 9); return 17;
    case 40: out[16] = 0; return 17;
    case 41: out[15] = 'q'; return 16;
    case 42: memcpy(out, base, 36); out[35] = '8'; return 36;
    case 43: memset(out, 0xff, 20); return 20;
    case 44: memset(out, 0, 3); return 3;
    default: memcpy(out, base, 24); out[23] = 0; return 24;
    }
}

static int lk_cmp(int a, int b) {
    uint8_t ka[40], kb[40];
    size_t na = lk_key(a, ka), nb = lk_key(b, kb), n = na < nb ? na : nb;
    int c = n ? memcmp(ka, kb, n) : 0;
    return c ? c : (na > nb) - (na < nb);
}

typedef struct lk_scan { int keys[LK_KEYS + 1]; int count; } lk_scan;

static int lk_scan_fn(void *arg, fl_slice k, fl_slice v) {
    lk_scan *s = arg;
    (void)v;
    int at = -1;
    for (int i = 0; i < LK_KEYS && at < 0; i++) {
        uint8_t b[40];
        size_t n = lk_key(i, b);
        if (n == k.len && (n == 0 || memcmp(b, k.data, n) == 0)) at = i;
    }
    if (s->count <= LK_KEYS) s->keys[s->count++] = at;
    return 0;
}

static void lk_check(fl_db *db, const bool *live, char (*val)[16], uint64_t seed, int step) {
    fl_buf v;
    fl_buf_init(&v);
    for (int i = 0; i < LK_KEYS; i++) {
        uint8_t k[40];
        size_t n = lk_key(i, k);
        bool found;
        CHECK_OK(fl_db_get(db, (fl_slice){ k, n }, NULL, &v, &found));
        if (found != live[i])
            fl_test_fail(__FILE__, __LINE__, "seed %llu step %d key %d: found=%d want %d",
                         (unsigned long long)seed, step, i, found, live[i]);
        else if (found)
            CHECK_MEM(v.data, v.len, val[i], strlen(val[i]));
        /* a scan from each key: the live keys >= it, in order */
        lk_scan got = { .count = 0 };
        uint8_t end[21];
        memset(end, 0xff, sizeof end);
        CHECK_OK(fl_db_scan(db, (fl_slice){ k, n }, (fl_slice){ end, sizeof end }, lk_scan_fn, &got));
        int want[LK_KEYS], count = 0;
        for (int x = 0; x < LK_KEYS; x++) {
            if (!live[x] || lk_cmp(x, i) < 0) continue;
            int at = count++;
            while (at > 0 && lk_cmp(want[at - 1], x) > 0) { want[at] = want[at - 1]; at--; }
            want[at] = x;
        }
        bool same = got.count == count;
        for (int j = 0; same && j < count; j++) same = got.keys[j] == want[j];
        if (!same)
            fl_test_fail(__FILE__, __LINE__, "seed %llu step %d scan from key %d: %d keys, want %d",
                         (unsigned long long)seed, step, i, got.count, count);
    }
    fl_buf_free(&v);
}

FL_TEST(db_long_keys_through_compaction_and_seeks) {
    fl_registry *reg;
    CHECK_OK(fl_registry_new(&reg));
    for (uint64_t seed = 1; seed <= 6; seed++) {
        rng_state = seed * 0x9E3779B97F4A7C15ull + 7;
        char dir[4200], err[1024];
        snprintf(dir, sizeof dir, "%s/lk%llu", fl_test_tmpdir(), (unsigned long long)seed);
        fl_options opt;
        fl_options_init(&opt);
        opt.sync = false;
        /* blocks of 10 to 20 entries: more than one seek point each */
        CHECK_OK(fl_options_set(&opt, "memtable_bytes", "1500", err, sizeof err));
        CHECK_OK(fl_options_set(&opt, "sst_bytes", "1000", err, sizeof err));
        CHECK_OK(fl_options_set(&opt, "block_bytes", "400", err, sizeof err));
        CHECK_OK(fl_options_set(&opt, "l0_trigger", "3", err, sizeof err));
        CHECK_OK(fl_options_set(&opt, "max_runs", "2", err, sizeof err));
        fl_db *db;
        CHECK_OK(fl_db_open(dir, reg, &opt, &db, err, sizeof err));
        bool live[LK_KEYS] = { false };
        char val[LK_KEYS][16];
        for (int step = 0; step < 500; step++) {
            int op = (int)(rnd() % 100), i = (int)(rnd() % LK_KEYS);
            uint8_t k[40];
            size_t n = lk_key(i, k);
            if (op < 60) {
                snprintf(val[i], sizeof val[i], "v%d.%d", i, step);
                CHECK_OK(fl_db_put(db, (fl_slice){ k, n }, (fl_slice){ (const uint8_t *)val[i], strlen(val[i]) }));
                live[i] = true;
            } else if (op < 80) {
                CHECK_OK(fl_db_delete(db, (fl_slice){ k, n }));
                live[i] = false;
            } else if (op < 88) {
                CHECK_OK(fl_db_flush(db));
            } else if (op < 92) {
                CHECK_OK(fl_db_compact(db, rnd() % 2 == 0));
            } else {
                lk_check(db, live, val, seed, step);
            }
        }
        CHECK_OK(fl_db_compact(db, true));
        lk_check(db, live, val, seed, 500);
        CHECK_OK(fl_db_close(db, err, sizeof err));
        fl_options_free(&opt);
    }
    fl_registry_free(reg);
}

/* A memtable get (a table by key hash) gives the node a seek of the list
 * finds first for the key, whatever order the versions came in, equal seqs
 * included, while the table grows: thousands of keys, many sharing their
 * first 8 bytes, the empty key among them. */
FL_TEST(memtable_get_is_the_first_version_in_the_list) {
    fl_memtable *mt;
    CHECK_OK(fl_memtable_new(&mt));
    enum { KEYS = 3000 };
    rng_state = 0x1234567;
    for (int step = 0; step < 20000; step++) {
        uint8_t k[32], v[8];
        int i = (int)(rnd() % KEYS);
        size_t klen = i == 0 ? 0 : (size_t)snprintf((char *)k, sizeof k, i % 3 ? "shared:%d" : "%d", i);
        uint64_t seq = rnd() % 50;                   /* out of order, often equal */
        memcpy(v, &step, sizeof step);
        fl_entry e = { k, klen, v, sizeof step, seq, rnd() % 4 ? FL_ENTRY_PUT : FL_ENTRY_DELETE };
        CHECK_OK(fl_memtable_add(mt, &e));
        if (step % 97 && step < 19990) continue;
        for (int j = 0; j < KEYS + 1; j += step < 19990 ? 7 : 1) {
            uint8_t q[32];
            size_t qlen = j == 0 ? 0 : (size_t)snprintf((char *)q, sizeof q, j % 3 ? "shared:%d" : "%d", j);
            fl_mt_iter it;
            fl_entry first, got;
            fl_memtable_seek(mt, q, qlen, &it);
            bool want = fl_memtable_next(&it, &first) && fl_bytes_eq(first.key, first.klen, q, qlen);
            bool have = fl_memtable_get(mt, q, qlen, &got);
            CHECK_EQ(have, want);
            if (have && want) {
                CHECK(got.val == first.val);              /* the same node */
                CHECK_EQ(got.seq, first.seq);
                CHECK_EQ(got.kind, first.kind);
            }
        }
    }
    fl_memtable_free(mt);
}
