/*
 * filter_bench.c -- the "filter" group: the built-in bloom at 10 bits/key.
 *
 * For each filter size (one that fits in L1/L2, one far larger than the
 * last-level cache) it measures, per run:
 *   build      new_builder, add_entry of every key, build, through the call
 *              wrappers (ns/key); key spelling is outside the clock
 *   xxh3       XXH3_64bits of each query key: the floor any hashed filter
 *              pays, over the same query array as the probes
 *   probe      fl_bloom_might_match, the built-in bloom's probe itself (what
 *              its might_match method is), for keys that were added (hits)
 *              and keys that were not (misses)
 *   probe via engine   the same through fl_call_might_match, the wrapper
 *              the engine's read path uses (it counts calls)
 * Keys are 16 bytes: a 64-bit mix of the key number, then the number, both
 * big-endian.  Hits and misses are drawn at random (fixed seed), so a big
 * filter is probed at random lines.  The target of issue 7: a probe in
 * cache costs at most 3x the XXH3 hash of the key alone.
 */
#include "bench_internal.h"

#include <stdlib.h>
#include <string.h>
#define XXH_INLINE_ALL          /* as engine/bloom.c hashes: XXH3 inlined */
#include <xxhash.h>

#define KEY_LEN 16
#define CHUNK   65536                  /* keys spelled at a time for builds   */
#define MISS_BASE (UINT64_C(1) << 40)  /* miss key numbers start here         */

static volatile uint64_t sink;         /* keeps results alive                  */

static uint64_t mix64(uint64_t x) { return fl_mix64(x + UINT64_C(0x9E3779B97F4A7C15)); }

static void put_be64(uint8_t *p, uint64_t v) {
    for (int i = 7; i >= 0; i--) { p[i] = (uint8_t)v; v >>= 8; }
}

static void spell(uint64_t number, uint8_t *out) {
    put_be64(out, mix64(number));
    put_be64(out + 8, number);
}

/* ---- Build ----------------------------------------------------------------- */

/* Builds a filter of n keys; returns the seconds spent in add_entry and build. */
static double build(const fl_filter_policy *policy, uint64_t n, uint8_t *chunk, fl_filter **out) {
    fl_filter_builder *bld;
    *out = NULL;
    if (fl_call_new_builder(NULL, policy, &bld) != FL_OK) return -1;
    double spent = 0;
    for (uint64_t at = 0; at < n; at += CHUNK) {
        uint64_t m = n - at < CHUNK ? n - at : CHUNK;
        for (uint64_t i = 0; i < m; i++) spell(at + i, chunk + i * KEY_LEN);
        double t0 = fl_now();
        for (uint64_t i = 0; i < m; i++) {
            fl_row_entry e = { { chunk + i * KEY_LEN, KEY_LEN }, { (const uint8_t *)"", 0 },
                               at + i + 1, FL_ENTRY_PUT };
            fl_call_add_entry(NULL, policy, bld, &e);
        }
        spent += fl_now() - t0;
    }
    double t0 = fl_now();
    int rc = fl_call_build(NULL, policy, bld, out);
    spent += fl_now() - t0;
    fl_call_builder_destroy(NULL, policy, bld);
    return rc == FL_OK ? spent : -1;
}

/* ---- Probes ---------------------------------------------------------------- */

typedef enum { PASS_HASH, PASS_PROBE, PASS_ENGINE } pass_kind;

/* One pass over q query keys, `reps` times: seconds, and the yes answers. */
static double pass(pass_kind kind, fl_calls *calls, const fl_filter_policy *policy,
                   const fl_filter *f, const uint8_t *keys, size_t q, unsigned reps, uint64_t *yes) {
    uint64_t acc = 0;
    double t0 = fl_now();
    for (unsigned r = 0; r < reps; r++) {
        for (size_t i = 0; i < q; i++) {
            const uint8_t *k = keys + i * KEY_LEN;
            fl_filter_query query = { { FL_TARGET_POINT, { k, KEY_LEN } }, NULL };
            switch (kind) {
            case PASS_HASH:   acc += XXH3_64bits(k, KEY_LEN); break;
            case PASS_PROBE:  acc += fl_bloom_might_match(f, &query); break;
            case PASS_ENGINE: acc += fl_call_might_match(calls, policy, f, &query); break;
            }
        }
    }
    double t = fl_now() - t0;
    if (kind != PASS_HASH) *yes = acc;
    sink += acc;
    return t;
}

typedef struct size_case {
    const char *label;          /* "in cache", "out of cache"                   */
    uint64_t n;                 /* keys in the filter                           */
    size_t q;                   /* query keys per array                         */
    unsigned reps;              /* passes over the array per measurement        */
    unsigned build_reps;        /* builds per build measurement                 */
} size_case;

static int run_case(fl_bench *b, fl_calls *calls, const fl_filter_policy *policy, const size_case *c) {
    unsigned runs = b->cfg->runs;
    unsigned build_runs = c->n > 10000000 && runs > 3 ? 3 : runs;
    uint8_t *chunk = malloc((size_t)CHUNK * KEY_LEN);
    uint8_t *hits = malloc(c->q * KEY_LEN), *misses = malloc(c->q * KEY_LEN);
    double *t_build = calloc(runs, sizeof(double)), *t[5];
    for (int i = 0; i < 5; i++) t[i] = calloc(runs, sizeof(double));
    int rc = -1;
    fl_filter *f = NULL;
    if (!chunk || !hits || !misses || !t_build || !t[0] || !t[1] || !t[2] || !t[3] || !t[4]) {
        fl_bench_fail(b, "filter: out of memory");
        goto done;
    }
    fl_bench_progress(b, "filter: bloom(bits=10), %llu keys (%s): build x%u",
                      (unsigned long long)c->n, c->label, build_runs * c->build_reps);
    for (unsigned r = 0; r < build_runs; r++) {
        double spent = 0;
        for (unsigned i = 0; i < c->build_reps; i++) {
            fl_call_filter_destroy(NULL, policy, f);
            f = NULL;
            double s = build(policy, c->n, chunk, &f);
            if (s < 0) { fl_bench_fail(b, "filter: building %llu keys failed", (unsigned long long)c->n); goto done; }
            spent += s;
        }
        t_build[r] = spent / ((double)c->n * c->build_reps) * 1e9;
    }
    uint64_t seed = 0x5eed;
    for (size_t i = 0; i < c->q; i++) {
        seed = mix64(seed);
        spell(seed % c->n, hits + i * KEY_LEN);
        spell(MISS_BASE + seed % (UINT64_C(1) << 39), misses + i * KEY_LEN);
    }
    fl_bench_progress(b, "filter: %llu keys (%s): probes, %u runs of %zu x %u queries",
                      (unsigned long long)c->n, c->label, runs, c->q, c->reps);
    uint64_t yes_hit = 0, yes_miss = 0, yes_engine = 0;
    double per = (double)c->q * c->reps / 1e9;        /* queries, in units of 1e9 */
    for (unsigned r = 0; r < runs; r++) {          /* interleaved: same machine state */
        t[0][r] = pass(PASS_HASH, calls, policy, f, misses, c->q, c->reps, NULL) / per;
        t[1][r] = pass(PASS_PROBE, calls, policy, f, hits, c->q, c->reps, &yes_hit) / per;
        t[2][r] = pass(PASS_PROBE, calls, policy, f, misses, c->q, c->reps, &yes_miss) / per;
        t[3][r] = pass(PASS_ENGINE, calls, policy, f, misses, c->q, c->reps, &yes_engine) / per;
        t[4][r] = t[2][r] / t[0][r];
    }
    if (yes_hit != (uint64_t)c->q * c->reps) {
        fl_bench_fail(b, "filter: a false negative: %llu of %llu added keys answered yes",
                      (unsigned long long)yes_hit, (unsigned long long)c->q * c->reps);
        goto done;
    }
    char name[96];
    size_t bytes = fl_call_size(NULL, policy, f);
    snprintf(name, sizeof name, "bloom build %s (%llu keys; %.1f KiB)", c->label,
             (unsigned long long)c->n, bytes / 1024.0);
    fl_bench_add(b, "filter", name, fl_bench_median(t_build, build_runs), "ns/key");
    snprintf(name, sizeof name, "xxh3 of the query key %s (floor)", c->label);
    double hash = fl_bench_median(t[0], runs);
    fl_bench_add(b, "filter", name, hash, "ns/query");
    snprintf(name, sizeof name, "bloom probe hit %s", c->label);
    double hit = fl_bench_median(t[1], runs);
    fl_bench_add(b, "filter", name, hit, "ns/query");
    snprintf(name, sizeof name, "bloom probe miss %s", c->label);
    double miss = fl_bench_median(t[2], runs);
    fl_bench_add(b, "filter", name, miss, "ns/query");
    snprintf(name, sizeof name, "bloom probe miss via engine wrapper %s", c->label);
    fl_bench_add(b, "filter", name, fl_bench_median(t[3], runs), "ns/query");
    /* Ratios of medians over the runs; in cache they carry the target. */
    snprintf(name, sizeof name, "probe hit / xxh3 %s", c->label);
    if (c->n <= 100000) {
        fl_bench_add_target(b, "filter", name, hit / hash, "x", "<= 3x", hit / hash <= 3.0);
        snprintf(name, sizeof name, "probe miss / xxh3 %s", c->label);
        fl_bench_add_target(b, "filter", name, miss / hash, "x", "<= 3x", miss / hash <= 3.0);
    } else {
        fl_bench_add(b, "filter", name, hit / hash, "x");
        snprintf(name, sizeof name, "probe miss / xxh3 %s", c->label);
        fl_bench_add(b, "filter", name, miss / hash, "x");
    }
    snprintf(name, sizeof name, "FP rate of the misses %s", c->label);
    fl_bench_add(b, "filter", name, 100.0 * (double)yes_miss / ((double)c->q * c->reps), "%");
    rc = 0;
done:
    fl_call_filter_destroy(NULL, policy, f);
    free(chunk); free(hits); free(misses); free(t_build);
    for (int i = 0; i < 5; i++) free(t[i]);
    return rc;
}

int fl_bench_filter(fl_bench *b) {
    fl_registry *reg;
    fl_filter_policy *policy;
    fl_calls *calls;           /* the engine's read path calls through one */
    char err[512];
    if (fl_registry_new(&reg) != FL_OK) return fl_bench_fail(b, "filter: out of memory");
    if (fl_calls_new(reg, &calls) != FL_OK) {
        fl_registry_free(reg);
        return fl_bench_fail(b, "filter: out of memory");
    }
    if (fl_registry_make_policy(reg, "bloom(bits=10)", &policy, err, sizeof err) != FL_OK) {
        fl_calls_free(calls);
        fl_registry_free(reg);
        return fl_bench_fail(b, "filter: %s", err);
    }
    uint64_t big = b->cfg->big_keys ? b->cfg->big_keys : b->cfg->quick ? 2000000 : 100000000;
    size_case cases[2] = {
        { "in cache", 10000, 65536, b->cfg->quick ? 4 : 32, b->cfg->quick ? 20 : 200 },
        { "out of cache", big, (size_t)1 << 20, b->cfg->quick ? 1 : 4, 1 },
    };
    int rc = 0;
    for (size_t i = 0; i < 2 && rc == 0; i++) rc = run_case(b, calls, policy, &cases[i]);
    fl_bench_note(b, "filter", "16-byte keys; in cache: 12.5 KB filter, queries from a 1 MiB array; "
                  "out of cache: %llu keys, random lines", (unsigned long long)big);
    fl_call_policy_destroy(calls, policy);
    fl_calls_free(calls);
    fl_registry_free(reg);
    return rc;
}
