/*
 * gen_shapes.c -- the key shapes spelled from an index: uniform, zipf,
 * group-suffix, delimited and timeseries (gen_pools.c has the two drawn from
 * a pool).  Each shape says how to spell a key to write, a candidate key
 * never written but inside the written range, and its natural prefix.
 *
 * Spelling is stateless where it can be: key number i of a shape is always
 * spelled alike (a keyed hash of i under g->space_seed), so the same index
 * drawn twice writes the same key.  Every id space is twice the size that is
 * written and interleaved, "present" and "absent" halves alternating at
 * random (id 2j or 2j+1 by a hash bit of j), so absent groups, tenants and
 * sensors lie between written ones.  Candidates for absent keys may still
 * collide with a written key; gen.c checks every one against the set of
 * written keys, so spelling never has to be perfect to be correct.
 */
#include "gen_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char lower_digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
static const char lower[] = "abcdefghijklmnopqrstuvwxyz";
static const char item_chars[] = "abcdefghijklmnopqrstuvwxyz0123456789._-";

/* Whether key[0..len) equals what b holds (true when b ran out of memory:
 * "may be", the safe answer of may_put). */
static bool spelled_as(fl_gen_buf *b, const uint8_t *key, size_t len) {
    bool same = b->nomem || (b->len == len && (len == 0 || memcmp(b->p, key, len) == 0));
    b->len = 0;
    return same;
}

/* Parses the `width` decimal digits at key[at..]; false if they are not. */
static bool parse_digits(const uint8_t *key, size_t len, size_t at, unsigned width, uint64_t *out) {
    uint64_t v = 0;
    if (len < at + width) return false;
    for (unsigned i = 0; i < width; i++) {
        uint8_t c = key[at + i];
        if (c < '0' || c > '9') return false;
        v = v * 10 + (uint64_t)(c - '0');
    }
    *out = v;
    return true;
}

/* Appends n chars of alphabet chosen by the hash h (same h, same chars). */
static void chars_from_hash(fl_gen_buf *out, uint64_t h, const char *alphabet, size_t n) {
    fl_gen_rng r = { h };
    fl_gen_buf_chars(out, &r, alphabet, n);
}

/* The j-th id of an interleaved space: 2j or 2j+1, the other being absent. */
static uint64_t present_id(uint64_t seed, uint64_t j) { return 2 * j + (fl_gen_mix2(seed, j) & 1); }
static uint64_t absent_id(uint64_t seed, uint64_t j) { return 2 * j + 1 - (fl_gen_mix2(seed, j) & 1); }
/* Whether id is the present one of its pair, among the first `count`. */
static bool is_present_id(uint64_t seed, uint64_t id, uint64_t count) {
    return id / 2 < count && present_id(seed, id / 2) == id;
}

static uint64_t pow10_of(unsigned n) {
    uint64_t p = 1;
    while (n--) p *= 10;
    return p;
}

/* ==== uniform and zipf ====================================================== */
/*
 * Key number i is spelled "k" + D decimal digits of an even number drawn by
 * a keyed hash of i (D is at least 8 and leaves the number space 10x larger
 * than the key space, so keys are sparse) + a 0-3 letter suffix chosen by
 * the number, so key lengths vary a little.  Absent keys take odd numbers,
 * so they are never written, before or after.  For zipf, i is the
 * popularity rank: hashing the rank spreads the hot keys over the whole key
 * range instead of clustering them at its start.
 */

typedef struct fl_gen_numeric {
    unsigned width;
    uint64_t space;             /* 10^width                              */
    /* zipf (Gray et al., "Quickly generating billion-record synthetic
     * databases", SIGMOD 1994) */
    double   theta, zetan, alpha, eta, half_pow_theta;
} fl_gen_numeric;

static void spell_number(fl_gen_numeric *s, uint64_t num, fl_gen_buf *out) {
    fl_gen_buf_byte(out, 'k');
    fl_gen_buf_dec(out, num, s->width);
    uint64_t h = fl_gen_mix64(num ^ 0x5bd1e995u);
    chars_from_hash(out, h >> 2, lower, (size_t)(h & 3));
}

/* The (even) number of key i. */
static uint64_t number_of(const fl_gen *g, uint64_t i) {
    const fl_gen_numeric *s = g->shape_state;
    return fl_gen_mix2(g->space_seed, i) % (s->space / 2) * 2;
}

static int numeric_init(fl_gen *g) {
    fl_gen_numeric *s = calloc(1, sizeof *s);
    if (!s) return fl_gen_fail(g, "out of memory");
    s->width = fl_gen_digits(g->keys) + 1;
    if (s->width < 8) s->width = 8;
    if (s->width > 19) s->width = 19;
    s->space = pow10_of(s->width);
    g->shape_state = s;
    return 0;
}

static void numeric_destroy(fl_gen *g) { free(g->shape_state); }

static void uniform_key(fl_gen *g, fl_gen_buf *out) {
    spell_number(g->shape_state, number_of(g, fl_gen_below(&g->rng, g->keys)), out);
}

/* A random odd number, or a key's number plus or minus one: both are in
 * the key range; the neighbours share long prefixes with written keys. */
static void numeric_absent(fl_gen *g, fl_gen_buf *out) {
    fl_gen_numeric *s = g->shape_state;
    uint64_t num;
    if (fl_gen_chance(&g->rng, 0.5)) {
        num = fl_gen_below(&g->rng, s->space / 2) * 2 + 1;
    } else {
        num = number_of(g, fl_gen_below(&g->rng, g->keys));
        num = (num + (fl_gen_chance(&g->rng, 0.5) ? 1 : s->space - 1)) % s->space;
    }
    spell_number(s, num, out);
}

/* Only the spelling of an even number is ever put. */
static bool numeric_may_put(fl_gen *g, const uint8_t *key, size_t len) {
    fl_gen_numeric *s = g->shape_state;
    uint64_t num;
    if (len == 0 || key[0] != 'k' || !parse_digits(key, len, 1, s->width, &num) || num % 2) return false;
    fl_gen_buf b = { 0 };
    spell_number(s, num, &b);
    bool may = spelled_as(&b, key, len);
    fl_gen_buf_free(&b);
    return may;
}

static size_t no_natural_prefix(fl_gen *g, const uint8_t *key, size_t len) {
    (void)g; (void)key; (void)len;
    return 0;
}

/* zeta(n, theta) = sum_{i=1..n} i^-theta: exact for the first million
 * terms, the rest by the integral of x^-theta over [m + 1/2, n + 1/2]
 * (midpoint rule; its relative error there is far below 1e-9). */
static double zeta(uint64_t n, double theta) {
    const uint64_t exact = 1000000;
    uint64_t m = n < exact ? n : exact;
    double sum = 0;
    for (uint64_t i = m; i >= 1; i--) sum += pow((double)i, -theta);   /* small terms first */
    if (n > m)
        sum += (pow((double)n + 0.5, 1 - theta) - pow((double)m + 0.5, 1 - theta)) / (1 - theta);
    return sum;
}

static int zipf_init(fl_gen *g) {
    if (numeric_init(g) != 0) return -1;
    fl_gen_numeric *s = g->shape_state;
    double n = (double)g->keys, theta = g->o->theta;
    s->theta = theta;
    s->zetan = zeta(g->keys, theta);
    s->alpha = 1.0 / (1.0 - theta);
    s->half_pow_theta = pow(0.5, theta);
    double zeta2 = 1.0 + s->half_pow_theta;
    s->eta = g->keys > 2 ? (1.0 - pow(2.0 / n, 1.0 - theta)) / (1.0 - zeta2 / s->zetan) : 0;
    return 0;
}

/* A rank in [0, keys), rank 0 the most popular (Gray et al.'s zipf()). */
static uint64_t zipf_rank(fl_gen *g) {
    fl_gen_numeric *s = g->shape_state;
    double u = fl_gen_unit(&g->rng), uz = u * s->zetan;
    if (uz < 1.0 || g->keys < 2) return 0;
    if (uz < 1.0 + s->half_pow_theta) return 1;
    double r = (double)g->keys * pow(s->eta * u - s->eta + 1.0, s->alpha);
    if (!(r >= 0)) return 0;
    return r >= (double)g->keys ? g->keys - 1 : (uint64_t)r;
}

static void zipf_key(fl_gen *g, fl_gen_buf *out) {
    spell_number(g->shape_state, number_of(g, zipf_rank(g)), out);
}

const fl_gen_shape_ops fl_gen_uniform_ops = {
    FL_SHAPE_UNIFORM, "uniform", 10000, 0.0, numeric_init, numeric_destroy,
    uniform_key, NULL, numeric_absent, no_natural_prefix, numeric_may_put,
};

const fl_gen_shape_ops fl_gen_zipf_ops = {
    FL_SHAPE_ZIPF, "zipf", 10000, 0.0, zipf_init, numeric_destroy,
    zipf_key, zipf_key, numeric_absent, no_natural_prefix, numeric_may_put,
};

/* ==== group-suffix ========================================================== */
/*
 * GroupId || Suffix, the RFC's prefix-only use case: a fixed-width group id
 * "g0042" (g + W digits) directly followed by a suffix of 3-12 characters,
 * keys/50 groups of 50 keys.  Absent groups are the odd/even ids between
 * written ones, so an absent group-id prefix lies inside the key range.
 */

typedef struct fl_gen_groups {
    uint64_t groups, per_group;
    unsigned width;
} fl_gen_groups;

static int groups_init(fl_gen *g) {
    fl_gen_groups *s = calloc(1, sizeof *s);
    if (!s) return fl_gen_fail(g, "out of memory");
    s->groups = g->keys / 50 ? g->keys / 50 : 1;
    s->per_group = g->keys / s->groups ? g->keys / s->groups : 1;
    s->width = fl_gen_digits(2 * s->groups);
    if (s->width < 4) s->width = 4;
    g->shape_state = s;
    return 0;
}

static void groups_destroy(fl_gen *g) { free(g->shape_state); }

/* A group key's suffix: its characters come from h >> 4, its length from h. */
static uint64_t group_suffix_hash(const fl_gen *g, uint64_t id, uint64_t suffix) {
    return fl_gen_mix2(fl_gen_mix2(g->space_seed, id), suffix);
}
static size_t group_suffix_len(uint64_t h) { return 3 + (size_t)(h % 10); }

/* The key of group id whose suffix hash is h. */
static void spell_group_key_hashed(fl_gen *g, uint64_t id, uint64_t h, fl_gen_buf *out) {
    fl_gen_groups *s = g->shape_state;
    fl_gen_buf_byte(out, 'g');
    fl_gen_buf_dec(out, id, s->width);
    chars_from_hash(out, h >> 4, lower_digits, group_suffix_len(h));
}

static void spell_group_key(fl_gen *g, uint64_t id, uint64_t suffix, fl_gen_buf *out) {
    spell_group_key_hashed(g, id, group_suffix_hash(g, id, suffix), out);
}

static void group_key(fl_gen *g, fl_gen_buf *out) {
    fl_gen_groups *s = g->shape_state;
    uint64_t j = fl_gen_below(&g->rng, s->groups);
    spell_group_key(g, present_id(g->space_seed, j), fl_gen_below(&g->rng, s->per_group), out);
}

/* Half in absent groups, half absent suffixes of written groups. */
static void group_absent(fl_gen *g, fl_gen_buf *out) {
    fl_gen_groups *s = g->shape_state;
    uint64_t j = fl_gen_below(&g->rng, s->groups);
    if (fl_gen_chance(&g->rng, 0.5))
        spell_group_key(g, absent_id(g->space_seed, j), fl_gen_below(&g->rng, s->per_group), out);
    else
        spell_group_key(g, present_id(g->space_seed, j),
                        s->per_group + fl_gen_below(&g->rng, s->per_group), out);
}

/* A written group's suffixes 0..per_group-1, spelled out and compared. */
static bool group_may_put(fl_gen *g, const uint8_t *key, size_t len) {
    fl_gen_groups *s = g->shape_state;
    uint64_t id;
    if (len == 0 || key[0] != 'g' || !parse_digits(key, len, 1, s->width, &id) ||
        !is_present_id(g->space_seed, id, s->groups))
        return false;
    fl_gen_buf b = { 0 };
    bool may = false;
    unsigned digits = fl_gen_digits(id) > s->width ? fl_gen_digits(id) : s->width;
    uint64_t group = fl_gen_mix2(g->space_seed, id);     /* group_suffix_hash's first step */
    for (uint64_t x = 0; x < s->per_group && !may; x++) {
        uint64_t h = fl_gen_mix2(group, x);
        if (1 + digits + group_suffix_len(h) != len) continue;  /* cannot be */
        b.len = 0;
        spell_group_key_hashed(g, id, h, &b);
        may = spelled_as(&b, key, len);
    }
    fl_gen_buf_free(&b);
    return may;
}

static size_t group_natural(fl_gen *g, const uint8_t *key, size_t len) {
    (void)key;
    size_t n = 1 + ((fl_gen_groups *)g->shape_state)->width;
    return len >= n ? n : 0;
}

const fl_gen_shape_ops fl_gen_group_suffix_ops = {
    FL_SHAPE_GROUP_SUFFIX, "group-suffix", 10000, 0.0, groups_init, groups_destroy,
    group_key, NULL, group_absent, group_natural, group_may_put,
};

/* ==== delimited ============================================================= */
/*
 * tenant:user:item with varying field lengths: tenant names of 2-8 letters,
 * users "u" + 1-7 characters, items of 1-12 characters (none holds ':').
 * keys/500 tenants (at least 1) of up to 25 users each.
 */

typedef struct fl_gen_tenants {
    uint64_t tenants, users, items;
} fl_gen_tenants;

static int tenants_init(fl_gen *g) {
    fl_gen_tenants *s = calloc(1, sizeof *s);
    if (!s) return fl_gen_fail(g, "out of memory");
    s->tenants = g->keys / 500 ? g->keys / 500 : 1;
    s->users = g->keys / s->tenants;
    if (s->users > 25) s->users = 25;
    if (s->users == 0) s->users = 1;
    s->items = g->keys / (s->tenants * s->users);
    if (s->items == 0) s->items = 1;
    g->shape_state = s;
    return 0;
}

static void tenants_destroy(fl_gen *g) { free(g->shape_state); }

static void spell_delimited(fl_gen *g, uint64_t tenant, uint64_t user, uint64_t item,
                            fl_gen_buf *out) {
    uint64_t ht = fl_gen_mix2(g->space_seed ^ 0x7e4a, tenant);
    chars_from_hash(out, ht >> 3, lower, 2 + (size_t)(ht % 7));
    fl_gen_buf_byte(out, ':');
    uint64_t hu = fl_gen_mix2(ht, user);
    fl_gen_buf_byte(out, 'u');
    chars_from_hash(out, hu >> 3, lower_digits, 1 + (size_t)(hu % 7));
    fl_gen_buf_byte(out, ':');
    uint64_t hi = fl_gen_mix2(hu, item);
    chars_from_hash(out, hi >> 4, item_chars, 1 + (size_t)(hi % 12));
}

static void delimited_key(fl_gen *g, fl_gen_buf *out) {
    fl_gen_tenants *s = g->shape_state;
    uint64_t t = present_id(g->space_seed, fl_gen_below(&g->rng, s->tenants));
    uint64_t user = fl_gen_below(&g->rng, s->users);     /* in order: the order of a */
    uint64_t item = fl_gen_below(&g->rng, s->items);     /* call's arguments is unspecified */
    spell_delimited(g, t, user, item, out);
}

/* An absent tenant, an absent user of a written tenant, or an absent item. */
static void delimited_absent(fl_gen *g, fl_gen_buf *out) {
    fl_gen_tenants *s = g->shape_state;
    uint64_t j = fl_gen_below(&g->rng, s->tenants);
    uint64_t u = fl_gen_below(&g->rng, s->users), it = fl_gen_below(&g->rng, s->items);
    switch (fl_gen_below(&g->rng, 3)) {
    case 0: spell_delimited(g, absent_id(g->space_seed, j), u, it, out); break;
    case 1: spell_delimited(g, present_id(g->space_seed, j), s->users + u, it, out); break;
    default: spell_delimited(g, present_id(g->space_seed, j), u, s->items + it, out); break;
    }
}

/* Whether p[0..n) is lo..hi bytes of alphabet. */
static bool field_of(const uint8_t *p, size_t n, size_t lo, size_t hi, const char *alphabet) {
    if (n < lo || n > hi) return false;
    for (size_t i = 0; i < n; i++)
        if (!p[i] || !strchr(alphabet, p[i])) return false;
    return true;
}

/* By form (conservative): tenant of 2-8 letters, "u" and 1-7 characters,
 * an item of 1-12. */
static bool delimited_may_put(fl_gen *g, const uint8_t *key, size_t len) {
    (void)g;
    const uint8_t *c1 = len ? memchr(key, ':', len) : NULL;
    if (!c1) return false;
    size_t t = (size_t)(c1 - key), rest = len - t - 1;
    const uint8_t *c2 = rest ? memchr(c1 + 1, ':', rest) : NULL;
    if (!c2) return false;
    size_t u = (size_t)(c2 - c1 - 1), item = len - t - u - 2;
    return field_of(key, t, 2, 8, lower) && u >= 2 && c1[1] == 'u' &&
           field_of(c1 + 2, u - 1, 1, 7, lower_digits) && field_of(c2 + 1, item, 1, 12, item_chars);
}

/* "tenant:" or, half the time, "tenant:user:". */
static size_t delimited_natural(fl_gen *g, const uint8_t *key, size_t len) {
    size_t want = fl_gen_chance(&g->rng, 0.5) ? 2 : 1, seen = 0, last = 0;
    for (size_t i = 0; i < len; i++) {
        if (key[i] != ':') continue;
        last = i + 1;
        if (++seen == want) return last;
    }
    return last;
}

const fl_gen_shape_ops fl_gen_delimited_ops = {
    FL_SHAPE_DELIMITED, "delimited", 10000, 0.0, tenants_init, tenants_destroy,
    delimited_key, NULL, delimited_absent, delimited_natural, delimited_may_put,
};

/* ==== timeseries ============================================================ */
/*
 * A sensor id "s0007" (s + W digits) then a big-endian 8-byte timestamp in
 * milliseconds: binary keys, sorted by time within a sensor.  keys/250
 * sensors; each put of a sensor takes a timestamp 1 to 2000 ms after its
 * last one, so timestamps are strictly increasing per sensor.  Absent keys
 * are timestamps between a sensor's first and last (never written later,
 * since later puts only go forward) or readings of absent sensors.
 */

typedef struct fl_gen_sensors {
    uint64_t  sensors;
    unsigned  width;
    uint64_t  base;             /* the first timestamps start near here */
    uint64_t *first, *last;     /* per sensor; 0: nothing written yet   */
} fl_gen_sensors;

static int sensors_init(fl_gen *g) {
    fl_gen_sensors *s = calloc(1, sizeof *s);
    if (!s) return fl_gen_fail(g, "out of memory");
    g->shape_state = s;
    s->sensors = g->keys / 250 ? g->keys / 250 : 1;
    s->width = fl_gen_digits(2 * s->sensors);
    if (s->width < 4) s->width = 4;
    /* November 2023 plus up to ~11 days, in ms; from the space seed so the
     * op stream is the same for any key-space change. */
    s->base = 1700000000000ull + fl_gen_mix2(g->space_seed, 0x7157) % 1000000000ull;
    s->first = calloc((size_t)s->sensors, sizeof *s->first);
    s->last = calloc((size_t)s->sensors, sizeof *s->last);
    if (!s->first || !s->last) return fl_gen_fail(g, "out of memory (%" PRIu64 " sensors)", s->sensors);
    return 0;
}

static void sensors_destroy(fl_gen *g) {
    fl_gen_sensors *s = g->shape_state;
    if (!s) return;
    free(s->first);
    free(s->last);
    free(s);
}

static void spell_reading(fl_gen_sensors *s, uint64_t id, uint64_t ts, fl_gen_buf *out) {
    uint8_t be[8];
    fl_gen_buf_byte(out, 's');
    fl_gen_buf_dec(out, id, s->width);
    for (int i = 0; i < 8; i++) be[i] = (uint8_t)(ts >> (56 - 8 * i));
    fl_gen_buf_put(out, be, 8);
}

static void timeseries_key(fl_gen *g, fl_gen_buf *out) {
    fl_gen_sensors *s = g->shape_state;
    uint64_t j = fl_gen_below(&g->rng, s->sensors);
    uint64_t ts = s->last[j] ? s->last[j] + fl_gen_between(&g->rng, 1, 2000)
                             : s->base + fl_gen_below(&g->rng, 1000000);
    if (!s->first[j]) s->first[j] = ts;
    s->last[j] = ts;
    spell_reading(s, present_id(g->space_seed, j), ts, out);
}

static void timeseries_absent(fl_gen *g, fl_gen_buf *out) {
    fl_gen_sensors *s = g->shape_state;
    uint64_t j = fl_gen_below(&g->rng, s->sensors);
    if (s->last[j] && fl_gen_chance(&g->rng, 0.6))
        spell_reading(s, present_id(g->space_seed, j),
                      fl_gen_between(&g->rng, s->first[j], s->last[j]), out);
    else
        spell_reading(s, absent_id(g->space_seed, j),
                      s->base + fl_gen_below(&g->rng, 100000000), out);
}

/* A written sensor's reading after its last one (or any, before its first). */
static bool timeseries_may_put(fl_gen *g, const uint8_t *key, size_t len) {
    fl_gen_sensors *s = g->shape_state;
    uint64_t id, ts = 0;
    if (len != 1 + (size_t)s->width + 8 || key[0] != 's' || !parse_digits(key, len, 1, s->width, &id) ||
        !is_present_id(g->space_seed, id, s->sensors))
        return false;
    for (size_t i = 1 + s->width; i < len; i++) ts = ts << 8 | key[i];
    return !s->last[id / 2] || ts > s->last[id / 2];
}

/* The sensor id, or the id and the 2-6 high bytes of the timestamp (a time
 * bucket). */
static size_t timeseries_natural(fl_gen *g, const uint8_t *key, size_t len) {
    (void)key;
    size_t n = 1 + ((fl_gen_sensors *)g->shape_state)->width;
    if (fl_gen_chance(&g->rng, 0.4)) n += fl_gen_between(&g->rng, 2, 6);
    return len >= n ? n : 0;
}

const fl_gen_shape_ops fl_gen_timeseries_ops = {
    FL_SHAPE_TIMESERIES, "timeseries", 10000, 0.0, sensors_init, sensors_destroy,
    timeseries_key, NULL, timeseries_absent, timeseries_natural, timeseries_may_put,
};
