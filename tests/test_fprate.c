/*
 * test_fprate.c -- P9's statistic (fl_fp_tally, properties/check.h) on its
 * own, with verdicts drawn here from filters whose real FP rate is known:
 * the numbers of a hand example; calibration when the real rate is the
 * claimed one (over 200 seeds: never a violation, mean z within +-0.3, sd
 * of z at most 1.2); power when it is 1.3x the claimed one (a violation in
 * every one of 20 runs of 20,000 items); and the guard for tiny expected
 * counts and lone unlucky items.
 *
 * The synthetic probes have the structure that makes P9 hard: filters come
 * in families of identical ones (SSTs with the same keys and line count:
 * an item is a false positive in every one of a family or in none), each
 * get probes several families, and hot items are read again and again.
 * Statistical checks state their tolerance and print CSV rows.
 */
#include "test.h"
#include "../properties/check.h"

#include <math.h>

static uint64_t mix(uint64_t z) {                  /* splitmix64's finalizer */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double unit(uint64_t h) { return (double)(h >> 11) * 0x1p-53; }

#define FAMILIES 40

typedef struct sim {
    uint64_t seed;
    unsigned items;           /* distinct items                              */
    double factor;            /* real FP rate / claimed                      */
} sim;

/* One synthetic run into t: each item reads 1 time (hot items: 20 times);
 * each read probes 3 families, 1-3 identical filters each.  A family's
 * claimed rate is 0.4%-2%; an item's answer in a family is one draw (the
 * same hash meets the same bits), true with the real rate; its ghosts are
 * draws at the claimed rate, made the same way. */
static void simulate(const sim *s, fl_fp_tally *t) {
    double claimed[FAMILIES];
    for (int f = 0; f < FAMILIES; f++) claimed[f] = 0.004 + 0.016 * unit(mix(s->seed * 977 + (uint64_t)f));
    for (uint64_t i = 0; i < s->items; i++) {
        uint64_t item = mix(s->seed << 32 ^ (i + 1));
        unsigned reads = i % 20 == 0 ? 20 : 1;
        for (unsigned r = 0; r < reads; r++)
            for (unsigned p = 0; p < 3; p++) {
                uint64_t h = mix(item + r * 131 + p * 7);
                int f = (int)(h % FAMILIES);
                unsigned copies = 1 + (unsigned)(h >> 40) % 3;
                bool fp = unit(mix(item ^ (uint64_t)f * 0x9E3779B97F4A7C15ull)) < claimed[f] * s->factor;
                unsigned ghosts = 0;
                for (unsigned g = 0; g < FL_P9_GHOSTS; g++)
                    if (unit(mix(item ^ ((uint64_t)f << 8 | (g + 1)) * 0xD6E8FEB86659FD93ull)) < claimed[f])
                        ghosts |= 1u << g;
                for (unsigned c = 0; c < copies; c++) CHECK_OK(fl_fp_tally_add(t, item, claimed[f], fp, true, ghosts));
            }
    }
}

static fl_fp_result run(const sim *s) {
    fl_fp_tally *t = NULL;
    CHECK_OK(fl_fp_tally_new(&t));
    fl_fp_result r;
    memset(&r, 0, sizeof r);
    if (!t) return r;
    simulate(s, t);
    fl_fp_tally_result(t, &r);
    fl_fp_tally_free(t);
    return r;
}

FL_TEST(fprate_tally_hand_example) {
    /* item A probed 3 times (e 0.1; maybe, maybe, no), item B once (e 0.2;
     * no), item C by a filter that could not probe (e 1; maybe) */
    fl_fp_tally *t = NULL;
    CHECK_OK(fl_fp_tally_new(&t));
    CHECK_OK(fl_fp_tally_add(t, 11, 0.1, true, true, 0));
    CHECK_OK(fl_fp_tally_add(t, 22, 0.2, false, true, 0));
    CHECK_OK(fl_fp_tally_add(t, 11, 0.1, true, true, 0));
    CHECK_OK(fl_fp_tally_add(t, 33, 1.0, true, false, (1u << FL_P9_GHOSTS) - 1));
    CHECK_OK(fl_fp_tally_add(t, 11, 0.1, false, true, 0));
    fl_fp_result r;
    fl_fp_tally_result(t, &r);
    CHECK_EQ(r.probes, 5);
    CHECK_EQ(r.fp, 3);
    CHECK_EQ(r.items, 2);                     /* A and B: C was never probed */
    CHECK_EQ(r.fp_items, 1);
    /* X - E: A 2 - 0.3, B 0 - 0.2, C 1 - 1; the ghosts (never a false
     * positive) give 0.09 + 0.04, below the items' own 2.93 */
    double var = 1.7 * 1.7 + 0.2 * 0.2;
    CHECK(fabs(r.measured - 0.6) < 1e-12 && fabs(r.expected - 0.3) < 1e-12);
    CHECK(fabs(r.sd - sqrt(var) / 5) < 1e-12);
    CHECK(fabs(r.z - 1.5 / sqrt(var)) < 1e-12);
    CHECK(!r.decided && !r.violated);
    fl_fp_tally_free(t);
    CHECK_OK(fl_fp_tally_new(&t));                /* nothing counted */
    fl_fp_tally_result(t, &r);
    CHECK(r.probes == 0 && r.z == 0 && !r.decided && !r.violated);
    fl_fp_tally_free(t);
}

/* A correct filter: 200 seeds of 12,000 items (the 10,000-item minimum
 * reached), z = (measured - expected) / sd: never a violation, mean within
 * +-0.3, sd at most 1.2; and z never above sqrt(items with a false
 * positive) (fprate.c: what keeps one item from failing P9 alone). */
FL_TEST(fprate_calibrated_when_correct) {
    double sum = 0, sum2 = 0, hi = -INFINITY;
    int n = 200, violations = 0;
    for (int seed = 1; seed <= n; seed++) {
        sim s = { (uint64_t)seed, 12000, 1.0 };
        fl_fp_result r = run(&s);
        CHECK(r.decided);
        violations += r.violated;
        sum += r.z;
        sum2 += r.z * r.z;
        if (r.z > hi) hi = r.z;
        if (r.z > sqrt((double)r.fp_items) + 1e-9)
            fl_test_fail(__FILE__, __LINE__, "seed %d: z %.3f above sqrt(%llu)", seed, r.z,
                         (unsigned long long)r.fp_items);
    }
    double mean = sum / n, sd = sqrt((sum2 - n * mean * mean) / (n - 1));
    printf("test,runs,mean_z,sd_z,max_z,violations\nfprate_calibrated_when_correct,%d,%.3f,%.3f,%.3f,%d\n",
           n, mean, sd, hi, violations);
    CHECK_EQ(violations, 0);
    if (fabs(mean) > 0.3 || sd > 1.2)
        fl_test_fail(__FILE__, __LINE__, "z: mean %.3f (within +-0.3 wanted), sd %.3f (at most 1.2)", mean, sd);
}

/* A filter whose real rate is 1.3x its claim, in runs of 20,000 items
 * (about 230,000 probes, correlated as above; an FP trial of `filterlab
 * check` reads ~15,000 absent keys against ~6 SSTs each, nearly
 * independent ones): P9 fails in every one of 20. */
FL_TEST(fprate_catches_1_3x) {
    int caught = 0, n = 20;
    double lo = INFINITY;
    for (int seed = 1; seed <= n; seed++) {
        sim s = { (uint64_t)seed + 1000, 20000, 1.3 };
        fl_fp_result r = run(&s);
        caught += r.violated;
        if (r.z < lo) lo = r.z;
    }
    printf("test,runs,caught,min_z\nfprate_catches_1_3x,%d,%d,%.2f\n", n, caught, lo);
    CHECK_EQ(caught, n);
}

/* The x with fl_mix64(x) == z (each step of the finalizer undone). */
static uint64_t unshift(uint64_t z, int s) {           /* undoes z ^= z >> s */
    uint64_t x = z;
    for (int i = s; i < 64; i += s) x ^= z >> i;
    return x;
}
static uint64_t inverse(uint64_t c) {                   /* c odd: c * inverse == 1 */
    uint64_t x = c;
    for (int i = 0; i < 6; i++) x *= 2 - c * x;
    return x;
}
static uint64_t unmix(uint64_t z) {
    z = unshift(z, 31) * inverse(0x94D049BB133111EBull);
    z = unshift(z, 27) * inverse(0xBF58476D1CE4E5B9ull);
    return unshift(z, 30);
}

/* Every probe lands in its item's group, however the items come: 30,000
 * items (past several index doublings and chunks of groups) whose spreads
 * (what the tally's index keeps: the high half of fl_mix64) are shared by
 * thousands -- so they share home slots and tags, and only the items
 * themselves tell them apart -- item 0 (counted as 1, which no other item
 * here is), probed in three rounds in different orders.  The result
 * equals the statistic of fprate.c's header computed here from per-item
 * sums. */
FL_TEST(fprate_tally_groups_every_item) {
    CHECK_EQ(fl_mix64(unmix(0x0123456789ABCDEFull)), 0x0123456789ABCDEFull);
    enum { N = 30000 };
    static double e_sum[N];
    static unsigned x[N], g[N][FL_P9_GHOSTS];
    memset(e_sum, 0, sizeof e_sum);
    memset(x, 0, sizeof x);
    memset(g, 0, sizeof g);
    fl_fp_tally *t = NULL;
    CHECK_OK(fl_fp_tally_new(&t));
    if (!t) return;
    uint64_t probes = 0, fps = 0;
    double expected = 0;
    for (unsigned round = 0; round < 3; round++)
        for (unsigned n = 0; n < N; n++) {
            unsigned i = round == 1 ? N - 1 - n : round == 2 ? (n * 7919u) % N : n;
            if (round && mix(i * 3 + round) % 3 == 0) continue;
            /* five spreads' high halves; distinct items (fl_mix64 is a
             * bijection) */
            uint64_t item = i == 0 ? 0 : unmix((uint64_t)(i % 5) << 32 | i);
            double e = 0.001 + 0.01 * unit(mix(i + 1000 * round));
            bool fp = unit(mix(i ^ round << 20)) < 0.2;
            unsigned ghosts = (unsigned)mix(i + 77 * round) & ((1u << FL_P9_GHOSTS) - 1);
            CHECK_OK(fl_fp_tally_add(t, item, e, fp, true, ghosts));
            e_sum[i] += e;
            x[i] += fp;
            for (int r = 0; r < FL_P9_GHOSTS; r++) g[i][r] += ghosts >> r & 1;
            probes++;
            fps += fp;
            expected += e;
        }
    double var = 0, ghost_var = 0;
    uint64_t fp_items = 0;
    for (unsigned i = 0; i < N; i++) {
        var += (x[i] - e_sum[i]) * (x[i] - e_sum[i]);
        for (int r = 0; r < FL_P9_GHOSTS; r++) ghost_var += (g[i][r] - e_sum[i]) * (g[i][r] - e_sum[i]) / FL_P9_GHOSTS;
        fp_items += x[i] > 0;
    }
    if (ghost_var > var) var = ghost_var;
    fl_fp_result r;
    fl_fp_tally_result(t, &r);
    CHECK_EQ(r.probes, probes);
    CHECK_EQ(r.fp, fps);
    CHECK_EQ(r.items, (uint64_t)N);
    CHECK_EQ(r.fp_items, fp_items);
    CHECK(fabs(r.expected - expected / (double)probes) < 1e-12);
    CHECK(fabs(r.sd - sqrt(var) / (double)probes) < 1e-9 * r.sd);
    CHECK(fabs(r.z - ((double)fps - expected) / sqrt(var)) < 1e-9 * fabs(r.z) + 1e-12);
    fl_fp_tally_free(t);
}

/* Tiny expected counts and lone unlucky items. */
FL_TEST(fprate_guard_and_lone_items) {
    fl_fp_tally *t = NULL;
    fl_fp_result r;
    /* 24 bits/key: 10,001 items expect 0.07 false positives, 2 came (the
     * regression of workloads/regress/p9_small_count.wl): no violation */
    CHECK_OK(fl_fp_tally_new(&t));
    for (uint64_t i = 1; i <= 10001; i++) CHECK_OK(fl_fp_tally_add(t, i, 7e-6, i % 5000 == 0, true, 0));
    fl_fp_tally_result(t, &r);
    CHECK(r.decided && r.fp == 2 && !r.violated);
    CHECK(r.guard_tail > 1e-4);               /* the Poisson tail of 2 items at mean 0.07 */
    fl_fp_tally_free(t);
    /* one item a false positive in 1,000 identical filters, beside 20,000
     * ordinary ones: its 1,000 count once in the spread, z stays small */
    CHECK_OK(fl_fp_tally_new(&t));
    for (uint64_t i = 1; i <= 20000; i++)
        CHECK_OK(fl_fp_tally_add(t, i, 0.005, unit(mix(i)) < 0.005, true,
                                 unit(mix(i + 77)) < 0.005 ? 1u : 0u));
    for (int c = 0; c < 1000; c++) CHECK_OK(fl_fp_tally_add(t, 999999, 0.005, true, true, 0));
    fl_fp_tally_result(t, &r);
    printf("    lone item: fp %llu, expected %.1f, z %.2f\n", (unsigned long long)r.fp,
           r.expected * (double)r.probes, r.z);
    CHECK(r.decided && !r.violated && r.z < 1.5);
    fl_fp_tally_free(t);
    /* U of 12,000 items each a false positive in all of 40 filters that
     * expect 0.005% each (24 false positives in all): z is capped by
     * sqrt(U).  U = 30: z 5.4, but 30 unlucky items where up to 24 could
     * be expected is no evidence -- the guard holds P9 back; U = 100 is */
    for (int u = 30; u <= 100; u += 70) {
        CHECK_OK(fl_fp_tally_new(&t));
        for (uint64_t i = 1; i <= 12000; i++)
            for (int c = 0; c < 40; c++) CHECK_OK(fl_fp_tally_add(t, i, 0.00005, i <= (uint64_t)u, true, 0));
        fl_fp_tally_result(t, &r);
        printf("    %d unlucky items: z %.2f, guard tail %.3g\n", u, r.z, r.guard_tail);
        CHECK(r.z <= sqrt((double)r.fp_items) + 1e-9 && r.z > 5);
        CHECK(r.decided && r.violated == (u == 100));
        fl_fp_tally_free(t);
    }
}
