/*
 * stats.c -- the report's statistics: the Wilson score interval of a
 * measured rate, the textbook bloom formula, the 2^-b bound and the SPEC 5
 * formula at a bits per key (the theory curve).  Pure
 * functions of their arguments; undefined values are NAN, never 0, so a
 * rate with no probes behind it cannot pass for a perfect filter.
 */
#include "report.h"
#include "../model/model.h"

#include <math.h>

void fl_wilson_interval(uint64_t successes, uint64_t trials, double z, double *lo, double *hi) {
    if (trials == 0 || successes > trials) {
        *lo = *hi = NAN;
        return;
    }
    double n = (double)trials, p = (double)successes / n, z2 = z * z;
    double denom = 1.0 + z2 / n;
    double center = (p + z2 / (2.0 * n)) / denom;
    double half = z / denom * sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n));
    /* At the ends the exact bounds are 0 and 1; rounding must not make a
     * zero count's lower bound a tiny positive number (or negative). */
    *lo = successes == 0 ? 0.0 : fmax(0.0, center - half);
    *hi = successes == trials ? 1.0 : fmin(1.0, center + half);
}

double fl_bloom_standard_fp(double bits) {
    if (!(bits > 0)) return 1.0;
    /* (1 - e^{-k/b})^k is unimodal in k with its minimum near b ln 2. */
    double best = 1.0;
    for (int k = 1; k <= 64; k++) {
        double rate = pow(1.0 - exp(-(double)k / bits), (double)k);
        if (!(rate < best)) break;
        best = rate;
    }
    return best;
}

double fl_bloom_bound_fp(double bits) {
    return bits > 0 ? pow(2.0, -bits) : 1.0;
}

double fl_bloom_theory_fp(double bits) {
    if (!(bits > 0) || bits > 1000) return 1.0;
    uint32_t mb = (uint32_t)llround(bits * 1000);
    if (mb == 0) return 1.0;
    /* m / lines = 512000 / mb = 512 / b hashes per line */
    return fl_model_bloom_expected_fp(512000, mb, fl_model_bloom_k(mb));
}
