/*
 * fprate.c -- P9, the false-positive rate of built-in blooms against their
 * expected rate, and the statistic behind it (fl_fp_tally, check.h).
 *
 * Counted: eligible probes -- NO verdicts, and MAYBE verdicts on SSTs
 * without a match -- on SSTs whose only usable sub-filter is a built-in
 * bloom the checker saw written, and whose probed ITEM (the bytes the
 * filter hashes: the whole key for a point probe of a whole-key bloom, the
 * extracted prefix otherwise) is not among the items the filter hashed: a
 * prefix-only filter asked for an absent key of a present group says maybe
 * rightly.  A probe the filter cannot make (no extractor answer) counts
 * with expected rate 1.
 *
 * What a filter hashed comes from the model's reference build itself: its
 * hashes (each key's and each extracted prefix's XXH3, the fingerprints
 * with seed 0) become the filter's item set the first time a probe needs
 * it, and its bits are the ghosts' filter -- nothing is hashed or decoded
 * again when an SST appears.
 *
 * Expectation.  Each filter's expected rate e_f is exact given its bits:
 * the mean over its lines of (bits set / 512)^k (fl_model_bloom_expected_
 * exact, of the model's reference build of the SST's keys -- what the
 * filter should be, so a filter stored or queried wrong is measured
 * against the right one).  An absent item's hash is independent of those
 * bits, so, given the bits, e_f IS the chance that the item is a false
 * positive in f.  (The formula of SPEC 5 in m and lines is not: it ignores
 * how unevenly hashes fall on lines and runs 1.4% low at 10 bits/key,
 * 1.6x low at 24.)
 *
 * Variance.  One item is probed against many filters, and again later;
 * SSTs that hold largely the same keys have nearly the same bits (the same
 * keys with the same line count give the same filter), so an unlucky item
 * is a false positive in all of them at once: its probes are one
 * correlated group, not independent coins.  But given every filter's bits,
 * DISTINCT items are independent (each hash is its own draw), and item i's
 * count of false positives X_i has mean E_i = the sum of e_f over its
 * probes.  So, per kind, with n probes, F = sum X_i and mu = sum E_i:
 *     measured = F / n,   expected = mu / n,
 *     V = max(V_items, V_ghosts),   z = (F - mu) / sqrt(V),   sd = sqrt(V) / n,
 *     V_items  = sum over items (X_i - E_i)^2        (cluster-robust)
 *     V_ghosts = sum over items, mean over FL_P9_GHOSTS ghosts g of
 *                (G_ig - E_i)^2
 * V_items is an unbiased estimate of Var(F - mu | bits) whatever the
 * correlation inside an item's group, so no model of how alike the filters
 * are is needed, and no filter-to-filter term: the filters' own luck is in
 * e_f already.  Repeats of one (filter, item) pair fall in the item's group
 * (X_i and E_i grow together), so they need no de-duplication.
 *
 * Why V_ghosts.  V_items comes from the same draws as F.  When a few
 * items carry most of the variance (an item meeting 60 alike filters 25
 * times), a run where they happened to stay quiet has a small F and a
 * small V_items together, and z dives (to -6.6 in 200 seeds of the few-key
 * workload of tests/cli/p9_calibration.sh; mean z -0.33).  A ghost is an
 * imaginary absent item with a hash of its own, drawn once per item (a
 * function of the item alone), that meets exactly the filters the item
 * meets, probed against the same reference bits: G_ig is what X_i would
 * have been for another hash, a draw from the very distribution X_i has
 * when the filters are right, independent of X_i.  V_ghosts estimates the
 * same variance without sharing F's luck; taking the larger of the two
 * keeps V_items' protection against a lucky F (below) and fills in the
 * quiet runs (mean z -0.16, sd 0.87, min -2.5 over the same 200 seeds).
 *
 * P9 fails when at least FL_P9_MIN_ITEMS distinct items were probed, z >
 * FL_P9_SIGMAS and, for small counts, the guard below holds.
 *
 * Why this is not a false alarm generator.  X_i >= 0 and is rare, so
 * X_i - E_i is skewed to the right, and a large F comes with a large
 * V_items: the ratio's upper tail is lighter than a normal's.  It is also
 * capped: by Cauchy-Schwarz over the Y items with a false positive (the
 * others only lower F - mu), z <= sqrt(Y), so z > 5 needs more than 25
 * distinct unlucky items -- one item in many identical filters can never
 * fail P9 alone.  V_ghosts only makes V larger.
 *
 * The guard for tiny expected counts.  At 24 bits/key 10,000 items expect
 * 0.07 false positives; the old per-probe bound called 2 of them "7 sd"
 * (`filterlab check --seed 11`, trial 407, workloads/regress/p9_small_
 * count.wl).  Counting false positives in a Poisson tail is not valid with
 * correlated groups (one item can bring 100 of them), so the guard counts
 * ITEMS instead: Y = items with at least one false positive is a sum of
 * independent Bernoullis with p_i <= min(1, E_i), so for lambda = sum
 * min(1, E_i) and y >= lambda + 1, P(Y >= y) <= the Poisson(lambda) tail at
 * y (Hoeffding 1956: equal p_i maximise it; Anderson & Samuels 1967: the
 * Poisson tail exceeds the binomial's there).  When lambda <=
 * P9_GUARD_MEAN, P9 also needs that tail below the normal 5 sd tail
 * (2.87e-7).  Above it the guard is off: lambda over-counts items probed
 * against many alike filters, so it would hide real excess there, and z
 * alone is already conservative (for Poisson counts of mean 100, z > 5
 * happens with probability about 4e-9).
 */
#include "check_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define P9_TAIL 2.866515718791939e-07    /* P(Z > 5) for a standard normal */
#define P9_GUARD_MEAN 100.0             /* lambda up to which the item guard applies */

/* ---- The tally: eligible probes grouped by item ---------------------------- */

/* The groups live in the order of their items' first probe, in chunks that
 * never move (GROUP_CHUNK groups each); an open-addressing index finds an
 * item's group.  An index slot holds the high 32 bits of the item's spread
 * (fl_mix64 of it: any items, not only hashes, spread over the slots) and
 * 1 + the group's number in the low 32 (0: an empty slot).  Those 32 bits
 * are where the item lives (their low bits are its home slot, for an index
 * of up to 2^32 slots), so a doubling moves slots without reading one
 * group, and a tag: most slots of other items are passed over without
 * reading their groups.  So the table that grows, and is copied when it
 * does, holds 8 bytes per slot rather than a 40-byte group: the memory of
 * P9 is its groups and little more, and at no time two copies of them (a
 * run probing 400,000 distinct items peaked 32 MB lower than with the
 * groups in the table itself; see bench/scale_bench.c). */
#define GROUP_CHUNK 4096

typedef struct fp_group {
    uint64_t item;                      /* never 0                            */
    double expected;                    /* E_i                                */
    uint32_t fp;                        /* X_i                                */
    uint32_t probed;                    /* the filters probed (not "cannot")  */
    uint32_t ghost_fp[FL_P9_GHOSTS];    /* the ghosts' X                      */
} fp_group;

struct fl_fp_tally {
    uint64_t *index;                    /* tag << 32 | 1 + group; 0 is empty  */
    size_t cap;                         /* index slots, a power of two        */
    size_t count;                       /* groups                             */
    fp_group **chunks;                  /* group g: chunks[g / GROUP_CHUNK]
                                           [g % GROUP_CHUNK]                  */
    size_t chunks_cap;
    fp_group *last;                     /* the group found last: a read's
                                           probes of one item come in a row */
    uint64_t probes, fp;
    double expected;
};

int fl_fp_tally_new(fl_fp_tally **out) {
    *out = calloc(1, sizeof **out);
    return *out ? FL_OK : FL_ERR_NOMEM;
}

void fl_fp_tally_free(fl_fp_tally *t) {
    if (!t) return;
    for (size_t c = 0; c * GROUP_CHUNK < t->count; c++) free(t->chunks[c]);
    free(t->chunks);
    free(t->index);
    free(t);
}

static fp_group *group_at(const fl_fp_tally *t, uint64_t slot) {
    uint32_t g = (uint32_t)slot - 1;
    return &t->chunks[g / GROUP_CHUNK][g % GROUP_CHUNK];
}

/* What the index keeps of item: the high half of its spread. */
static uint64_t tag_of(uint64_t item) { return fl_mix64(item) >> 32; }

static size_t home_of(const fl_fp_tally *t, uint64_t tag) { return tag & (t->cap - 1); }

static bool slot_is(const fl_fp_tally *t, uint64_t slot, uint64_t tag, uint64_t item) {
    return (slot >> 32) == tag && group_at(t, slot)->item == item;
}

/* Doubles the index (at three quarters full); false when out of memory. */
static bool grow_index(fl_fp_tally *t) {
    size_t cap = t->cap ? 2 * t->cap : 4096;
    if ((uint64_t)cap > (uint64_t)1 << 32) return false;     /* homes are 32 bits */
    uint64_t *n = calloc(cap, sizeof *n);
    if (!n) return false;
    ck_slots_rehash(t->index, t->cap, n, cap, 32);
    free(t->index);
    t->index = n;
    t->cap = cap;
    return true;
}

/* A new group for item, numbered t->count; NULL when out of memory. */
static fp_group *new_group(fl_fp_tally *t, uint64_t item) {
    size_t c = t->count / GROUP_CHUNK;
    if (t->count >= UINT32_MAX - 1) return NULL;
    if (t->count % GROUP_CHUNK == 0) {
        if (c == t->chunks_cap) {
            size_t cap = t->chunks_cap ? 2 * t->chunks_cap : 16;
            fp_group **n = realloc(t->chunks, cap * sizeof *n);
            if (!n) return NULL;
            t->chunks = n;
            t->chunks_cap = cap;
        }
        if (!(t->chunks[c] = calloc(GROUP_CHUNK, sizeof **t->chunks))) return NULL;
    }
    fp_group *g = &t->chunks[c][t->count % GROUP_CHUNK];
    g->item = item;
    t->count++;
    return g;
}

static fp_group *group_of(fl_fp_tally *t, uint64_t item) {
    if (t->last && t->last->item == item) return t->last;
    if (t->count * 4 >= t->cap * 3 && !grow_index(t)) return NULL;
    uint64_t tag = tag_of(item);
    size_t j = home_of(t, tag);
    for (; t->index[j]; j = (j + 1) & (t->cap - 1))
        if (slot_is(t, t->index[j], tag, item)) return t->last = group_at(t, t->index[j]);
    fp_group *g = new_group(t, item);
    if (!g) return NULL;
    t->index[j] = tag << 32 | (uint64_t)t->count;
    return t->last = g;
}

void fl_fp_tally_prefetch(const fl_fp_tally *t, uint64_t item) {
    if (t && t->cap) __builtin_prefetch(&t->index[home_of(t, tag_of(item ? item : 1))]);
}

/* Starts fetching item's group when its index slot is the first of its
 * cluster; it reads the slot (wanted by then: fl_fp_tally_prefetch asked
 * for it earlier, or the add would wait for it anyway). */
static void prefetch_group(const fl_fp_tally *t, uint64_t item) {
    if (!t->cap) return;
    item = item ? item : 1;
    if (t->last && t->last->item == item) return;
    uint64_t tag = tag_of(item), slot = t->index[home_of(t, tag)];
    if (slot && (slot >> 32) == tag) __builtin_prefetch(group_at(t, slot));
}

int fl_fp_tally_add(fl_fp_tally *t, uint64_t item, double expected, bool fp, bool probed,
                    unsigned ghosts) {
    fp_group *g = group_of(t, item ? item : 1);
    if (!g) return FL_ERR_NOMEM;
    g->expected += expected;
    g->fp += fp;
    g->probed |= probed;
    for (int r = 0; r < FL_P9_GHOSTS; r++) g->ghost_fp[r] += ghosts >> r & 1;
    t->probes++;
    t->fp += fp;
    t->expected += expected;
    return FL_OK;
}

/* P(X >= c) for X ~ Poisson(mu), summed from c up in log space. */
static double poisson_tail(double mu, double c) {
    if (c <= 0) return 1;
    if (mu <= 0) return 0;
    double sum = 0;
    for (double i = c; i < c + 100000; i++) {
        double term = exp(i * log(mu) - mu - lgamma(i + 1));
        sum += term;
        if (i > mu && term < sum * 1e-17) break;
    }
    return sum < 1 ? sum : 1;
}

void fl_fp_tally_result(const fl_fp_tally *t, fl_fp_result *out) {
    memset(out, 0, sizeof *out);
    out->probes = t->probes;
    out->fp = t->fp;
    if (!t->probes) return;
    double var = 0, ghost_var = 0, lambda = 0;
    for (size_t i = 0; i < t->count; i++) {
        const fp_group *g = &t->chunks[i / GROUP_CHUNK][i % GROUP_CHUNK];
        double d = (double)g->fp - g->expected;
        var += d * d;
        for (int r = 0; r < FL_P9_GHOSTS; r++) {
            double dg = (double)g->ghost_fp[r] - g->expected;
            ghost_var += dg * dg / FL_P9_GHOSTS;
        }
        if (!g->probed) continue;
        out->items++;
        out->fp_items += g->fp > 0;
        lambda += g->expected < 1 ? g->expected : 1;
    }
    if (ghost_var > var) var = ghost_var;
    double n = (double)t->probes;
    out->measured = (double)t->fp / n;
    out->expected = t->expected / n;
    out->sd = sqrt(var) / n;
    out->z = var > 0 ? ((double)t->fp - t->expected) / sqrt(var) : 0;
    out->decided = out->items >= FL_P9_MIN_ITEMS;
    out->guard_tail = lambda <= P9_GUARD_MEAN ? poisson_tail(lambda, (double)out->fp_items) : 0;
    out->violated = out->decided && out->z > FL_P9_SIGMAS && out->guard_tail < P9_TAIL;
}

/* ---- The checker's side ---------------------------------------------------------- */

bool ck_bloom_probes(const fl_model_bloom *ref, int kind, fl_slice target, size_t *n) {
    *n = target.len;
    if (ref->lines == 0) return false;
    if (kind == 0 && ref->config.whole_key) return true;
    return ref->config.has_extractor &&
           fl_model_extractor_prefix_len(&ref->config.extractor, kind == 0 ? FL_MODEL_POINT : FL_MODEL_PREFIX,
                                         (fl_model_bytes){ target.data, target.len }, n);
}

/* The reference build itself becomes the ghosts' filter (it is finished
 * and never changes), and its hashes become the item set -- but only when
 * a probe first needs the set (p9_items): many SSTs are compacted away
 * before any read of an item the set could answer.  The set is the same
 * either way: the build hashed every key (whole_key) and every extracted
 * prefix, skipping only repeats of the one before, and its hashes are
 * ck_fingerprint's with seed 0 (XXH3_64bits of the same bytes; 0 becomes 1
 * here as there). */
void ck_p9_note_filter(ck_sub *sub, fl_model_bloom *ref, uint64_t *hashes, bool stored) {
    ck_p9_free(sub);
    sub->p9_ref = *ref;
    memset(ref, 0, sizeof *ref);
    sub->p9_hashes = hashes;
    sub->p9_nhashes = hashes ? (size_t)sub->p9_ref.m : 0;
    sub->p9 = sub->p9_ref.built && sub->p9_ref.lines > 0;
    sub->p9_stored = stored;
    sub->p9_expected = fl_model_bloom_expected_exact(&sub->p9_ref);
}

void ck_p9_free(ck_sub *sub) {
    fl_model_bloom_free(&sub->p9_ref);
    if (sub->p9_items) ck_fpset_free(sub->p9_items);
    free(sub->p9_items);
    free(sub->p9_hashes);
    sub->p9_items = NULL;
    sub->p9_hashes = NULL;
    sub->p9_nhashes = 0;
    sub->p9 = false;
    sub->p9_stored = false;
}

/* sub's item set, made from the reference build's hashes the first time
 * it is needed; NULL when out of memory (then sub is left out of P9). */
static const ck_fpset *p9_items(ck_sub *sub) {
    if (sub->p9_items) return sub->p9_items;
    ck_fpset *set = calloc(1, sizeof *set);
    if (set) {
        ck_fpset_reserve(set, sub->p9_nhashes);
        if (sub->p9_nhashes && set->cap < 2 * sub->p9_nhashes + 2) {
            free(set);
            set = NULL;
        }
    }
    for (size_t i = 0; set && i < sub->p9_nhashes; i++)
        ck_fpset_add(set, sub->p9_hashes[i] ? sub->p9_hashes[i] : 1);
    free(sub->p9_hashes);
    sub->p9_hashes = NULL;
    sub->p9_items = set;
    if (!set) sub->p9 = false;
    return set;
}

/* Ghost r of an item: a hash drawn for it once (a function of the item and
 * r alone, so the ghost meets every filter the item meets with the same
 * hash, as the item does), independent of the item's own hash. */
_Static_assert(FL_P9_GHOSTS <= 8, "fl_model_bloom_probe_hashes takes at most 8 hashes");

static uint64_t ghost_hash(uint64_t item, unsigned r) {
    uint64_t z = item + (r + 1) * 0x9E3779B97F4A7C15ull;      /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void ck_p9_probe(fl_checker *ck, ck_sub *sub, const fl_model_bloom *ref, int kind,
                 fl_slice target, bool maybe, bool held) {
    /* does the filter really probe, or answer true because it cannot? and
     * is the probed item one the filter holds (then not eligible)?  A
     * whole-key bloom without an extractor hashed exactly the SST's keys:
     * for a get, the SST truth answers that without a lookup. */
    size_t n;
    bool probes = ck_bloom_probes(ref, kind, target, &n);
    if (!probes) n = target.len;
    bool keys_only = probes && kind == 0 && ref->config.whole_key && !ref->config.has_extractor;
    if (keys_only && held) return;
    /* a whole key's item is its fingerprint, from the read's one hash */
    bool whole = kind == 0 && probes && n == target.len && ck->key_hashed;
    uint64_t item = whole ? ck_fingerprint_of(ck->key_hash)
                          : ck_fingerprint(target.data, n, (uint64_t)kind << 32 | !probes);
    if (probes && !keys_only) {
        /* a point item's fingerprint has the set's seed, 0 */
        const ck_fpset *items = p9_items(sub);
        if (!items || ck_fpset_has(items, kind == 0 ? item : ck_fingerprint(target.data, n, 0))) return;
    }
    if (!ck->p9[kind] && fl_fp_tally_new(&ck->p9[kind]) != FL_OK) return;
    prefetch_group(ck->p9[kind], item);             /* while the ghosts probe */
    unsigned ghosts = (1u << FL_P9_GHOSTS) - 1;
    if (probes) {
        if (ck->ghost_item != item) {           /* (items are never 0) */
            for (unsigned r = 0; r < FL_P9_GHOSTS; r++) ck->ghosts[r] = ghost_hash(item, r);
            ck->ghost_item = item;
        }
        ghosts = fl_model_bloom_probe_hashes(&sub->p9_ref, ck->ghosts, FL_P9_GHOSTS);
    }
    fl_fp_tally_add(ck->p9[kind], item, probes ? sub->p9_expected : 1.0, maybe, probes, ghosts);
}

void ck_p9_untraced(fl_checker *ck, int kind, fl_slice item, const size_t *idx, size_t n, uint64_t pos) {
    const fl_sst_filter *f[n ? n : 1];
    for (size_t i = 0; i < n; i++) {
        if (ck->eng->sst_filter(ck->db, ck->metas[idx[i]].id, &f[i]) != FL_OK) return;
        unsigned asked = 1u << (kind ? FL_TARGET_PREFIX : FL_TARGET_POINT);
        if ((f[i]->kind != FL_SSTF_BLOOM && f[i]->kind != FL_SSTF_RIBBON) ||
            (f[i]->answers && !(f[i]->answers & asked))) {
            ck->p9_unjudged[kind]++;
            return;                 /* a filter whose rate is not known */
        }
    }
    if (!ck->p9[kind] && fl_fp_tally_new(&ck->p9[kind]) != FL_OK) return;
    uint64_t id = ck_fingerprint(item.data, item.len, (uint64_t)kind << 32);
    for (size_t i = 0; i < n; i++) {
        unsigned ghosts = 0;
        for (unsigned r = 0; r < FL_P9_GHOSTS; r++)
            if (f[i]->probe_hash && f[i]->probe_hash(f[i], ghost_hash(id, r))) ghosts |= 1u << r;
        /* which probes said maybe is not known, only how many: the item's
         * group sums them, so any assignment gives the same statistic */
        fl_fp_tally_add(ck->p9[kind], id, f[i]->expected, i < pos, true, ghosts);
    }
}

void ck_p9_verdict(fl_checker *ck) {
    static const char *const kinds[2] = { "point", "prefix" };
    for (int k = 0; k < 2; k++) {
        if (!ck->p9[k]) continue;
        fl_fp_result r;
        fl_fp_tally_result(ck->p9[k], &r);
        if (!r.probes) continue;
        ck->sum.fp[k].probes = r.probes;
        ck->sum.fp[k].items = r.items;
        ck->sum.fp[k].measured = r.measured;
        ck->sum.fp[k].expected = r.expected;
        ck->sum.fp[k].sd = r.sd;
        ck->sum.fp[k].z = r.z;
        if (r.violated)
            ck_violation(ck, FL_P9, "%s FP rate %.4f%% over %llu eligible probes of %llu distinct items "
                         "by %s is above the expected %.4f%% by %.1f standard deviations "
                         "(sd %.4f%%, from the spread of the items' false-positive counts; %llu items "
                         "had one; the bound is %.0f)", kinds[k], 100 * r.measured,
                         (unsigned long long)r.probes, (unsigned long long)r.items,
                         ck->eng->sst_filter ? "the engine's filters (read from its SST files)"
                                             : "built-in blooms",
                         100 * r.expected,
                         r.z, 100 * r.sd, (unsigned long long)r.fp_items, FL_P9_SIGMAS);
    }
}

void ck_p9_release(fl_checker *ck) {
    for (int k = 0; k < 2; k++) {
        fl_fp_tally_free(ck->p9[k]);
        ck->p9[k] = NULL;
    }
}
