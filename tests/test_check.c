/*
 * test_check.c -- the checker through its API: a corrupt filter block is
 * read unfiltered with no violation and counted as a filter error (P10); a
 * workload run through the checker reports the same results whether or not
 * it checks; an existing database is adopted; violations carry the
 * property, line and message to the callback; P9's item set, made from the
 * reference build's hashes when first needed, is the set of every key's
 * and every extracted prefix's fingerprint; the spans that stand for what
 * range tombstones cover answer as a pass over the tombstones.
 */
#include "test.h"
#include "../engine/engine_internal.h"
#include "../properties/check.h"
#include "../properties/check_internal.h"

#include <math.h>
#include <stdlib.h>
#include <xxhash.h>

static fl_workload parse(const char *text) {
    fl_workload w;
    char err[512];
    memset(&w, 0, sizeof w);
    if (fl_workload_parse(text, strlen(text), "t.wl", &w, err, sizeof err) != 0)
        fl_test_fail(__FILE__, __LINE__, "parse: %s", err);
    return w;
}

typedef struct seen { int count, property; unsigned line; char msg[512]; } seen;

static void on_violation(void *arg, int property, unsigned line, const char *msg) {
    seen *s = arg;
    if (!s->count++) {
        s->property = property;
        s->line = line;
        snprintf(s->msg, sizeof s->msg, "%s", msg);
    }
}

static int run(fl_registry *reg, const char *dir, const char *text, fl_check_summary *sum, seen *s) {
    fl_workload w = parse(text);
    fl_runner r = { .check = { .reg = reg, .dir = dir, .path = "t.wl", .check = true, .seed = 7,
                               .on_violation = on_violation, .on_violation_arg = s } };
    fl_run_outcome out;
    int rc = fl_run_workload(&r, &w, &out);
    if (rc == FL_OK) rc = out.rc;
    if (rc) fprintf(stderr, "  runner: %s\n", out.error);
    *sum = out.sum;
    fl_workload_free(&w);
    return rc;
}

static const char *const WRITE =
    "filterlab-workload 1\n"
    "open policies=\"bloom(bits=10,prefix=fixed:2)\" memtable_bytes=100000\n"
    "put aa1 1\nput aa2 2\nput ab1 3\nput b 4\ndel aa2\nflush\n"
    "put c 5\nflush\n";

static const char *const READ =
    "filterlab-workload 1\n"
    "open policies=\"bloom(bits=10,prefix=fixed:2)\"\n"
    "get aa1\nget aa2\nget ab1\nget b\nget zz\nget c\nscan_prefix aa\nscan_prefix ab\nscan_prefix q\n"
    "scan a c\n";

FL_TEST(check_clean_run_and_adoption) {
    fl_registry *reg;
    CHECK_OK(fl_registry_new(&reg));
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/db", fl_test_tmpdir());
    fl_check_summary sum;
    seen s = { 0 };
    CHECK_OK(run(reg, dir, WRITE, &sum, &s));
    CHECK_EQ(sum.violations, 0);
    CHECK_EQ(sum.ssts, 2);
    /* a second checker adopts the database: the model starts from it */
    CHECK_OK(run(reg, dir, READ, &sum, &s));
    CHECK_EQ(sum.violations, 0);
    CHECK_EQ(sum.metrics.point.considered > 0, 1);
    if (s.count) fprintf(stderr, "  first violation: %s\n", s.msg);
    fl_registry_free(reg);
}

/* Flips a byte in the filter block of every SST of dir. */
static int corrupt_filters(const char *dir) {
    fl_manifest_data m;
    char err[512];
    int n = 0;
    if (fl_manifest_read(fl_env_posix(), dir, &m, err, sizeof err) != FL_OK) return -1;
    fl_policy_list none = { NULL, 0 };
    for (size_t i = 0; i < m.l0_count; i++) {
        fl_sst_reader *r;
        uint64_t fe = 0;
        if (fl_sst_open(fl_env_posix(), dir, m.l0[i], &none, NULL, &r, &fe, err, sizeof err) != FL_OK) continue;
        uint64_t off = r->info.filter_offset + r->info.filter_len / 2;
        bool has = r->info.filter_len > 0;
        char path[4200];
        snprintf(path, sizeof path, "%s", r->path);
        fl_sst_close(r);
        if (!has) continue;
        FILE *f = fopen(path, "r+b");
        if (!f) continue;
        fseek(f, (long)off, SEEK_SET);
        int c = fgetc(f);
        fseek(f, (long)off, SEEK_SET);
        fputc(c ^ 0x40, f);
        fclose(f);
        n++;
    }
    fl_manifest_data_free(&m);
    return n;
}

FL_TEST(check_corrupt_filter_block_is_unfiltered_not_wrong) {
    fl_registry *reg;
    CHECK_OK(fl_registry_new(&reg));
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/db", fl_test_tmpdir());
    fl_check_summary sum;
    seen s = { 0 };
    CHECK_OK(run(reg, dir, WRITE, &sum, &s));
    CHECK_EQ(corrupt_filters(dir), 2);
    CHECK_OK(run(reg, dir, READ, &sum, &s));
    CHECK_EQ(sum.violations, 0);
    if (s.count) fprintf(stderr, "  first violation: %s\n", s.msg);
    CHECK_EQ(sum.metrics.filter_errors, 2);
    /* every considered SST was read unfiltered */
    CHECK_EQ(sum.metrics.point.unfiltered, sum.metrics.point.considered);
    CHECK_EQ(sum.metrics.prefix.unfiltered, sum.metrics.prefix.considered);
    fl_registry_free(reg);
}

FL_TEST(check_property_names) {
    CHECK_STR(fl_property_name(FL_P1), "no-false-negative");
    CHECK_STR(fl_property_name(FL_P7), "extractor-contract");
    CHECK_STR(fl_property_name(FL_P11), "round-trip");
    CHECK_STR(fl_property_name(0), "");
    CHECK_STR(fl_property_name(99), "");
}

/* P9's statistics on the L0 FP shape: 20,000 keys in 4 overlapping L0
 * SSTs at 10 bits/key, then 19,999 absent gets inside their range. */
FL_TEST(check_fp_rate_statistics) {
    fl_registry *reg;
    CHECK_OK(fl_registry_new(&reg));
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/db", fl_test_tmpdir());
    size_t cap = 3 << 20, len = 0;
    char *text = malloc(cap);
    len += (size_t)snprintf(text + len, cap - len, "filterlab-workload 1\nopen policies=\"bloom(bits=10)\" "
                            "memtable_bytes=100000000 l0_trigger=1000\n");
    for (int s = 0; s < 4; s++) {
        for (int k = s; k < 20000; k += 4) len += (size_t)snprintf(text + len, cap - len, "put k%09d v\n", 2 * k);
        len += (size_t)snprintf(text + len, cap - len, "flush\n");
    }
    for (int k = 0; k < 19999; k++) len += (size_t)snprintf(text + len, cap - len, "get k%09d\n", 2 * k + 1);
    fl_check_summary sum;
    seen s = { 0 };
    CHECK_OK(run(reg, dir, text, &sum, &s));
    CHECK_EQ(sum.violations, 0);
    /* every absent get probes every SST whose range covers it: all four,
     * but for a few keys past the last key of an SST */
    CHECK(sum.fp[0].probes > 4 * 19999 - 20 && sum.fp[0].probes <= 4 * 19999);
    /* each absent key is one item, probed against those four filters */
    CHECK_EQ(sum.fp[0].items, 19999);
    /* exact given the bits of filters of m = 5000, lines = ceil(5000*10000/512000) = 98, k = 6 */
    CHECK(sum.fp[0].expected > 0.0085 && sum.fp[0].expected < 0.0105);
    CHECK(sum.fp[0].sd > 0 && sum.fp[0].sd < 0.002);
    CHECK(fabs(sum.fp[0].z - (sum.fp[0].measured - sum.fp[0].expected) / sum.fp[0].sd) < 1e-9);
    CHECK(sum.fp[0].z < 5);
    printf("    p9 point: %llu probes of %llu items, measured %.4f%%, expected %.4f%%, sd %.4f%%, z %.2f\n",
           (unsigned long long)sum.fp[0].probes, (unsigned long long)sum.fp[0].items,
           100 * sum.fp[0].measured, 100 * sum.fp[0].expected, 100 * sum.fp[0].sd, sum.fp[0].z);
    free(text);
    fl_registry_free(reg);
}

/* ---- P9's item set --------------------------------------------------------------- */

/* ck_fingerprint with seed 0 is the SPEC 5 hash (XXH3_64bits), 0 made 1:
 * what lets P9 take its item set from the reference build's hashes.  Then,
 * for a whole-key bloom with a prefix extractor over keys with versions, a
 * point probe is eligible exactly when neither the key nor an extracted
 * prefix of a stored key has the probed key's fingerprint -- the set built
 * here the old way, fingerprint by fingerprint. */
FL_TEST(check_p9_items_from_reference_hashes) {
    uint8_t buf[300];
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)(i * 131 + 7);
    for (size_t n = 0; n <= sizeof buf; n++) {
        uint64_t h = XXH3_64bits(buf, n);
        CHECK_EQ(ck_fingerprint(buf, n, 0), h ? h : 1);
    }
    enum { N = 3000 };
    static char text[N][16];
    fl_model_bytes keys[N];
    size_t n = 0;
    for (int k = 0; n < N; k++)   /* sorted, some keys twice; odd groups: no key that is the prefix */
        for (int v = 0; v < 1 + (k % 7 == 0) && n < N; v++) {
            snprintf(text[n], sizeof text[n], k % 100 == 0 ? "g%03d" : "g%03d:%05d", k / 50, k);
            keys[n] = (fl_model_bytes){ (const uint8_t *)text[n], strlen(text[n]) };
            n++;
        }
    fl_model_bloom_config cfg;
    char err[128];
    CHECK_OK(fl_model_bloom_parse("bloom(bits=10,prefix=fixed:4)", &cfg, err, sizeof err));
    ck_fpset old = { 0 };
    for (size_t i = 0; i < n; i++) {
        size_t pl;
        ck_fpset_add(&old, ck_fingerprint(keys[i].data, keys[i].len, 0));
        if (fl_model_extractor_prefix_len(&cfg.extractor, FL_MODEL_POINT, keys[i], &pl))
            ck_fpset_add(&old, ck_fingerprint(keys[i].data, pl, 0));
    }
    fl_model_bloom ref;
    fl_model_bloom_hashed hd = { NULL, NULL };
    CHECK_OK(fl_model_bloom_build_hashed(&ref, &cfg, keys, n, &hd));
    fl_checker *ck = calloc(1, sizeof *ck);
    ck_sub sub;
    memset(&sub, 0, sizeof sub);
    ck_p9_note_filter(&sub, &ref, hd.hashes, true);
    CHECK(sub.p9 && sub.p9_items == NULL && ref.encoded == NULL);
    fl_model_bloom reader;
    CHECK_OK(fl_model_bloom_decode(&reader, &cfg, sub.p9_ref.encoded, sub.p9_ref.encoded_len));
    CHECK(sub.p9_expected == fl_model_bloom_expected_exact(&reader));
    uint64_t eligible = 0;
    for (int q = 0; q < 4000; q++) {             /* present keys, prefixes as keys, absent keys */
        char t[16];
        snprintf(t, sizeof t, q % 3 == 0 ? "g%03d" : q % 3 == 1 ? "g%03d:%05d" : "g%03d:%05dx", q / 50, q);
        fl_slice target = { (const uint8_t *)t, strlen(t) };
        eligible += !ck_fpset_has(&old, ck_fingerprint(t, target.len, 0));
        ck_p9_probe(ck, &sub, &reader, 0, target, false, false);
        fl_fp_result r = { 0 };
        if (ck->p9[0]) fl_fp_tally_result(ck->p9[0], &r);
        CHECK_EQ(r.probes, eligible);
    }
    CHECK(eligible > 1000 && eligible < 4000);
    CHECK(sub.p9_items && sub.p9_items->count == old.count && sub.p9_hashes == NULL);
    ck_p9_release(ck);
    free(ck);
    ck_p9_free(&sub);
    fl_model_bloom_free(&reader);
    ck_fpset_free(&old);
}

/* ---- A streamed workload ------------------------------------------------------ */

typedef struct streamed { fl_wl_stream *s; size_t chunk, calls; } streamed;

static int next_chunk(void *arg, fl_workload *chunk, char *err, size_t err_len) {
    streamed *st = arg;
    st->calls++;
    return fl_wl_stream_next(st->s, st->chunk, chunk, err, err_len);
}

/* Run through the runner in chunks of 1, 3 and 1000 ops, a workload gives
 * exactly the results, metrics and op count of the same workload run
 * whole; a bad line in a later chunk ends the run with its message. */
FL_TEST(check_streamed_workload_runs_as_whole) {
    fl_registry *reg;
    CHECK_OK(fl_registry_new(&reg));
    char text[4096], path[4200], err[512];
    const char *read_ops = strchr(strchr(READ, '\n') + 1, '\n') + 1;      /* past header and open */
    snprintf(text, sizeof text, "%s%s", WRITE, read_ops);
    snprintf(path, sizeof path, "%s/s.wl", fl_test_tmpdir());
    FILE *f = fopen(path, "w");
    CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0);
    fl_workload whole = parse(text);
    char *want = NULL, *got = NULL;
    size_t want_len = 0, got_len = 0;
    FILE *res = open_memstream(&want, &want_len);
    fl_runner r = { .check = { .reg = reg, .path = "s.wl", .check = true, .seed = 7, .results = res,
                               .in_memory = true } };
    fl_run_outcome whole_out, out;
    CHECK_OK(fl_run_workload(&r, &whole, &whole_out));
    CHECK_OK(whole_out.rc);
    fclose(res);
    size_t chunks[] = { 1, 3, 1000 };
    for (size_t c = 0; c < 3; c++) {
        streamed st = { NULL, chunks[c], 0 };
        CHECK(fl_wl_stream_open(path, NULL, &st.s, err, sizeof err) == 0);
        res = open_memstream(&got, &got_len);
        fl_workload none = { 0 };
        r.check.results = res;
        r.more = next_chunk;
        r.more_arg = &st;
        CHECK_OK(fl_run_workload(&r, &none, &out));
        CHECK_OK(out.rc);
        fclose(res);
        CHECK_EQ(out.ops_run, whole.count);
        CHECK_EQ(out.sum.violations, 0);
        CHECK_EQ(out.sum.metrics.point.considered, whole_out.sum.metrics.point.considered);
        CHECK_EQ(out.sum.metrics.point.negative, whole_out.sum.metrics.point.negative);
        CHECK_EQ(out.sum.metrics.prefix.considered, whole_out.sum.metrics.prefix.considered);
        CHECK_EQ(out.sum.ssts, whole_out.sum.ssts);
        CHECK_MEM(got, got_len, want, want_len);
        CHECK(st.calls >= whole.count / chunks[c] + 1);
        free(got);
        fl_wl_stream_close(st.s);
    }
    /* a bad line after good chunks: the run stops there, with its message */
    f = fopen(path, "a");
    CHECK(f && fputs("get zz\nbogus\n", f) >= 0 && fclose(f) == 0);
    streamed st = { NULL, 2, 0 };
    CHECK(fl_wl_stream_open(path, NULL, &st.s, err, sizeof err) == 0);
    fl_workload none = { 0 };
    r.check.results = NULL;
    r.more_arg = &st;
    CHECK_OK(fl_run_workload(&r, &none, &out));
    CHECK_RC(out.rc, FL_ERR_INVALID);
    CHECK_EQ(out.ops_run, whole.count + 1);
    CHECK_CONTAINS(out.error, "s.wl:");
    CHECK_CONTAINS(out.error, "bogus");
    fl_wl_stream_close(st.s);
    free(want);
    fl_workload_free(&whole);
    fl_registry_free(reg);
}

/* ---- P7: which extractor calls the checker makes ---------------------------- */

/* "two2": POINT(q) = min(len, 2), PREFIX(p) = 2 when len >= 2, else none
 * (a sound fixed:2); it counts the PREFIX calls of each input length (the
 * engine asks no PREFIX in a workload of gets only: these are P7's).
 * "drift": the same, but a 1-byte PREFIX input answers 0 after its first
 * two asks (a sound answer at first sight, asked twice alike, then not).
 * "flip": the same, but POINT of 2 bytes or more answers 2 and 1 in turn
 * (Some both times: only the n differs). */
typedef struct rec_ex { fl_prefix_extractor base; bool drift, flip; unsigned asked1, points; } rec_ex;
static unsigned rec_prefix_calls[16];

static const char *rec_name(const fl_prefix_extractor *self) {
    const rec_ex *e = (const rec_ex *)self;
    return e->drift ? "drift" : e->flip ? "flip" : "two2";
}

static bool rec_prefix_len(const fl_prefix_extractor *self, const fl_target *t, size_t *n) {
    rec_ex *e = (rec_ex *)self;
    size_t len = t->bytes.len;
    if (t->kind == FL_TARGET_POINT) {
        *n = len < 2 ? len : e->flip && e->points++ % 2 ? 1 : 2;
        return true;
    }
    rec_prefix_calls[len < 15 ? len : 15]++;
    if (e->drift && len == 1 && ++e->asked1 > 2) {
        *n = 0;
        return true;
    }
    *n = 2;
    return len >= 2;
}

static void rec_destroy(fl_prefix_extractor *self) { free(self); }

static const fl_prefix_extractor_ops rec_ops = { rec_name, rec_prefix_len, rec_destroy };

static int rec_factory(const fl_registry *reg, const char *args, fl_prefix_extractor **out,
                       char *e, size_t e_len) {
    (void)reg; (void)e; (void)e_len;
    rec_ex *x = calloc(1, sizeof *x);
    if (!x) return FL_ERR_NOMEM;
    x->base.abi_version = FL_FILTER_ABI_VERSION;
    x->base.ops = &rec_ops;
    x->drift = strcmp(args, "drift") == 0;
    x->flip = strcmp(args, "flip") == 0;
    *out = &x->base;
    return FL_OK;
}

/* Each (extractor, kind, input) is checked once: a new scan prefix is asked
 * twice (the same answer twice), one seen before once more, and a key seen
 * before not at all -- whatever length the prefix has (up to 8 bytes). */
FL_TEST(check_p7_asks_each_prefix_as_specified) {
    fl_registry *reg;
    CHECK_OK(fl_registry_new(&reg));
    CHECK_OK(fl_registry_add_extractor(reg, "rec", rec_factory));
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/p7calls", fl_test_tmpdir());
    memset(rec_prefix_calls, 0, sizeof rec_prefix_calls);
    fl_check_summary sum;
    seen s = { 0 };
    CHECK_OK(run(reg, dir,
                 "filterlab-workload 1\n"
                 "open policies=\"bloom(bits=10,prefix=rec)\"\n"
                 "get abcdefghij\nget abcdefghik\nget abcdefghij\nget abcdefghi\n",
                 &sum, &s));
    if (s.count) fprintf(stderr, "  first violation: %s\n", s.msg);
    CHECK_EQ(sum.violations, 0);
    /* lengths 0..8: new at the first key (2 asks), seen by the second and
     * the last (1 each); the repeated key asks nothing */
    for (int k = 0; k <= 8; k++) CHECK_EQ(rec_prefix_calls[k], 4);
    for (int k = 9; k < 16; k++) CHECK_EQ(rec_prefix_calls[k], 0);
    fl_registry_free(reg);
}

/* Runs "open policies=bloom(bits=10,prefix=rec:ARGS)" then ops, in its own
 * directory NAME, and requires its first violation to be P7 at line LINE,
 * saying SAYS; the violation goes to *s for more. */
static void expect_p7(const char *name, const char *args, const char *ops, unsigned line, const char *says,
                      seen *s) {
    fl_registry *reg;
    CHECK_OK(fl_registry_new(&reg));
    if (!reg) return;
    CHECK_OK(fl_registry_add_extractor(reg, "rec", rec_factory));
    char dir[4200], text[512];
    snprintf(dir, sizeof dir, "%s/%s", fl_test_tmpdir(), name);
    snprintf(text, sizeof text, "filterlab-workload 1\nopen policies=\"bloom(bits=10,prefix=rec:%s)\"\n%s",
             args, ops);
    fl_check_summary sum;
    memset(s, 0, sizeof *s);
    CHECK_OK(run(reg, dir, text, &sum, s));
    CHECK_EQ(sum.violations > 0, 1);
    CHECK_EQ(s->property, FL_P7);
    CHECK_EQ(s->line, line);
    CHECK_CONTAINS(s->msg, says);
    fl_registry_free(reg);
}

/* A prefix seen before is asked again, and that answer is judged against
 * the new key: an extractor that changes its answer later is caught. */
FL_TEST(check_p7_asks_a_seen_prefix_again) {
    seen s;
    expect_p7("p7drift", "drift", "get ab\nget ac\n", 4, "PREFIX(a) = 0, but its extension ac has POINT = 2", &s);
}

/* Written keys are held to the contract as read ones are: workloads of
 * puts alone, and of dels alone, with no read, find the drifting extractor
 * at their second key (found unpinned by `sh tests/mutate.sh --checker`: a
 * checker that skipped the written keys passed every test). */
FL_TEST(check_p7_checks_written_keys) {
    seen s;
    expect_p7("p7puts", "drift", "put ab 1\nput ac 2\n", 4, "PREFIX(a) = 0, but its extension ac has POINT = 2", &s);
    expect_p7("p7dels", "drift", "del ab\ndel ac\n", 4, "PREFIX(a) = 0, but its extension ac has POINT = 2", &s);
}

/* The same input must give the same answer, n included: an extractor
 * whose POINT is Some both times, with another n, is P7 at once (a checker
 * that compared only Some and none passed every test: mutate.sh
 * --checker, contract.c's sane). */
FL_TEST(check_p7_same_input_same_n) {
    seen s;
    expect_p7("p7flip", "flip", "put ab 1\n", 3, "extractor \"flip\": POINT(ab) answered ", &s);
    CHECK_CONTAINS(s.msg, " for the same input");
}

/* What range tombstones cover (truth.c's spans, for the SST truth and the
 * memtable): for random tombstones over short keys -- overlapping, nested,
 * touching, empty, repeated -- added one by one in any order or built at
 * once, ck_spans_cover answers for every key of up to 3 bytes over a..e
 * exactly as a pass over the tombstones does, and the spans stay sorted,
 * disjoint and apart. */
FL_TEST(check_spans_cover_what_a_scan_covers) {
    for (uint64_t seed = 1; seed <= 300; seed++) {
        uint64_t s = seed;
        size_t n = fl_test_rand(&s) % 14;
        uint8_t bytes[14][2][3];
        ck_rt rts[14];
        for (size_t i = 0; i < n; i++) {
            size_t len[2];
            for (int e = 0; e < 2; e++) {
                len[e] = fl_test_rand(&s) % 4;
                for (size_t j = 0; j < len[e]; j++) bytes[i][e][j] = (uint8_t)('a' + fl_test_rand(&s) % 5);
            }
            rts[i] = (ck_rt){ bytes[i][0], len[0], bytes[i][1], len[1], i + 1 };
        }
        ck_spans one = { 0 }, built = { 0 };
        for (size_t i = 0; i < n; i++) CHECK_OK(ck_spans_add(&one, &rts[i]));
        CHECK_OK(ck_spans_build(&built, rts, n));
        for (int w = 0; w < 2; w++) {
            const ck_spans *u = w ? &built : &one;
            for (size_t i = 0; i < u->n; i++) {
                CHECK(fl_bytes_cmp(u->v[i].start, u->v[i].slen, u->v[i].end, u->v[i].elen) < 0);
                if (i) CHECK(fl_bytes_cmp(u->v[i - 1].end, u->v[i - 1].elen, u->v[i].start, u->v[i].slen) < 0);
            }
            uint8_t k[4];
            size_t klen = 0;
            for (bool more = true; more; more = fl_test_next_short_key(k, &klen)) {
                bool want = false;
                for (size_t i = 0; i < n; i++)
                    want |= fl_bytes_cmp(rts[i].start, rts[i].slen, k, klen) <= 0 &&
                            fl_bytes_cmp(k, klen, rts[i].end, rts[i].elen) < 0;
                if (ck_spans_cover(u, k, klen) != want) {
                    fl_test_fail(__FILE__, __LINE__, "seed %" PRIu64 " (%s): key \"%.*s\": spans say %d, a scan %d",
                                 seed, w ? "built" : "one by one", (int)klen, (const char *)k, !want, want);
                    break;
                }
            }
        }
        ck_spans_free(&one);
        ck_spans_free(&built);
    }
}

/* A memtable holding more range-tombstone pieces than the engine indexes
 * one at a time (FL_RTOMB_FEW_PIECES, 8,192): its newest range deletes stay
 * past the index, and a scan, a scan_prefix and a get over keys only they cover
 * must still not see those keys (P2 against the model). */
FL_TEST(check_newest_range_deletes_of_a_big_memtable_hide_keys) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    if (!reg) return;
    size_t cap = 1 << 20, n = 0;
    char *text = malloc(cap);
    if (!text) { fl_registry_free(reg); return; }
    n += (size_t)snprintf(text + n, cap - n, "filterlab-workload 1\nopen memtable_bytes=67108864\n");
    for (int i = 0; i < 3000; i++) n += (size_t)snprintf(text + n, cap - n, "put k%04d v\n", i);
    /* 4,500 one-key tombstones under "a": 9,000 pieces, none over the k keys */
    for (int i = 0; i < 4500; i++)
        n += (size_t)snprintf(text + n, cap - n, "delrange a%05d a%05da\nget a%05d\n", i, i, i);
    n += (size_t)snprintf(text + n, cap - n, "delrange k2500 k2600\nscan k2490 k2610\nscan_prefix k25\n"
                          "get k2550\ndelrange k27 k28\nscan_prefix k27\nget k2777\n");
    fl_check_summary sum;
    seen s = { 0 };
    CHECK_OK(run(reg, fl_test_tmpdir(), text, &sum, &s));
    CHECK_EQ(s.count, 0);
    if (s.count) fprintf(stderr, "  line %u: %s\n", s.line, s.msg);
    free(text);
    fl_registry_free(reg);
}

/* A memtable's thousands of range deletes: past CK_SPANS_FEW spans the new
 * ones wait in the tail and are merged in at once, and every answer is a
 * pass over the tombstones' -- for 5-byte keys over a..h: the tombstones'
 * bounds and random keys -- with the spans sorted, disjoint and apart after
 * each merge. */
static bool spans_scan(const ck_rt *rts, size_t n, const uint8_t *k) {
    for (size_t t = 0; t < n; t++)
        if (fl_bytes_cmp(rts[t].start, 5, k, 5) <= 0 && fl_bytes_cmp(k, 5, rts[t].end, 5) < 0) return true;
    return false;
}

FL_TEST(check_spans_of_many_tombstones_cover_what_a_scan_covers) {
    enum { N = 3000 };
    static uint8_t bytes[N][2][5];
    static ck_rt rts[N];
    uint64_t s = 9;
    ck_spans u = { 0 };
    bool tail = false;
    size_t merged = 0;
    for (size_t i = 0; i < N; i++) {
        for (int j = 0; j < 5; j++) bytes[i][0][j] = (uint8_t)('a' + fl_test_rand(&s) % 8);
        memcpy(bytes[i][1], bytes[i][0], 5);
        bytes[i][1][4] = (uint8_t)(bytes[i][1][4] + fl_test_rand(&s) % 3);     /* 0: empty */
        if (fl_test_rand(&s) % 100 == 0) bytes[i][1][2] = 'h';                  /* now and then a wide one */
        rts[i] = (ck_rt){ bytes[i][0], 5, bytes[i][1], 5, i + 1 };
        size_t before = u.ntail;
        CHECK_OK(ck_spans_add(&u, &rts[i]));
        tail |= u.ntail > 0;
        if (before && u.ntail == 0) {
            merged++;
            for (size_t k = 0; k < u.n; k++) {
                CHECK(fl_bytes_cmp(u.v[k].start, u.v[k].slen, u.v[k].end, u.v[k].elen) < 0);
                if (k) CHECK(fl_bytes_cmp(u.v[k - 1].end, u.v[k - 1].elen, u.v[k].start, u.v[k].slen) < 0);
            }
        }
        if ((i + 1) % 750 != 0) continue;
        for (size_t q = 0; q < 3000; q++) {
            uint8_t key[5];
            if (q < 2000) {                        /* the latest tombstones' bounds, and one past */
                const ck_rt *rt = &rts[i - q / 4];
                memcpy(key, q % 4 < 2 ? rt->start : rt->end, 5);
                if (q % 2) key[4]++;
            } else {
                for (int j = 0; j < 5; j++) key[j] = (uint8_t)('a' + fl_test_rand(&s) % 8);
            }
            bool want = spans_scan(rts, i + 1, key);
            if (ck_spans_cover(&u, key, 5) != want) {
                fl_test_fail(__FILE__, __LINE__, "after %zu tombstones (%zu in the tail): key %.5s: spans say %d, "
                             "a scan %d", i + 1, u.ntail, (const char *)key, !want, want);
                i = N;
                break;
            }
        }
    }
    CHECK(tail);
    CHECK(merged > 0);
    ck_spans_free(&u);
}
