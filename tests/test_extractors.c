/*
 * test_extractors.c -- the built-in prefix extractors against every row of
 * the SPEC section 4 table, for POINT and PREFIX, on inputs shorter than,
 * equal to and longer than what they extract, the empty input, and their
 * names (including the delimiter-byte name rule of extractors.c).
 */
#include "test.h"
#include "../engine/filter_internal.h"

#include <stdlib.h>

#define NONE ((long)-1)

static fl_prefix_extractor *make_extractor(fl_registry *reg, const char *spec) {
    char err[512] = "";
    fl_prefix_extractor *ex = NULL;
    int rc = fl_registry_make_extractor(reg, spec, &ex, err, sizeof err);
    if (rc != FL_OK) fl_test_fail(__FILE__, __LINE__, "make_extractor(%s): %s", spec, err);
    return ex;
}

/* prefix_len through the wrapper: n, or NONE. */
static long extract(const fl_prefix_extractor *ex, fl_target_kind kind, const char *bytes,
                    size_t len) {
    fl_target t = { kind, { (const uint8_t *)bytes, len } };
    size_t n = 0;
    return fl_call_prefix_len(NULL, ex, &t, &n) ? (long)n : NONE;
}

/* One row: spec, input (with explicit length), POINT answer, PREFIX answer. */
typedef struct row { const char *spec; const char *in; size_t len; long point, prefix; } row;

#define S(lit) lit, sizeof(lit) - 1

static const row rows[] = {
    /* fixed:N -- N if len >= N, else none; same for PREFIX. */
    { "fixed:3", S(""), NONE, NONE },
    { "fixed:3", S("ab"), NONE, NONE },
    { "fixed:3", S("abc"), 3, 3 },
    { "fixed:3", S("abcdef"), 3, 3 },
    { "fixed:1", S(""), NONE, NONE },
    { "fixed:1", S("a"), 1, 1 },
    { "fixed:1", S("\0\0"), 1, 1 },
    /* capped:N -- POINT min(len, N) (even for the empty key); PREFIX N if
     * len >= N, else none. */
    { "capped:3", S(""), 0, NONE },
    { "capped:3", S("ab"), 2, NONE },
    { "capped:3", S("abc"), 3, 3 },
    { "capped:3", S("abcdef"), 3, 3 },
    { "capped:1", S("x"), 1, 1 },
    /* delim:C -- index of the first C plus 1, none without C; same for PREFIX. */
    { "delim::", S(""), NONE, NONE },
    { "delim::", S("abc"), NONE, NONE },
    { "delim::", S(":"), 1, 1 },
    { "delim::", S("ab:"), 3, 3 },
    { "delim::", S("ab:cd"), 3, 3 },
    { "delim::", S("a:b:c"), 2, 2 },
    { "delim:\\x00", S("ab\0cd\0"), 3, 3 },
    { "delim:/", S("/x/y"), 1, 1 },
    /* lastdelim:C -- index of the last C plus 1, none without C; PREFIX
     * always none (an extension could add a later C). */
    { "lastdelim::", S(""), NONE, NONE },
    { "lastdelim::", S("abc"), NONE, NONE },
    { "lastdelim::", S(":"), 1, NONE },
    { "lastdelim::", S("ab:"), 3, NONE },
    { "lastdelim::", S("a:b:c"), 4, NONE },
    { "lastdelim::", S("a:b:c:"), 6, NONE },
    { "lastdelim:\\xff", S("a\xff" "b\xff" "c"), 4, NONE },
};

FL_TEST(extractors_spec_table) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const row *r = &rows[i];
        fl_prefix_extractor *ex = make_extractor(reg, r->spec);
        if (!ex) continue;
        long pt = extract(ex, FL_TARGET_POINT, r->in, r->len);
        long px = extract(ex, FL_TARGET_PREFIX, r->in, r->len);
        if (pt != r->point || px != r->prefix)
            fl_test_fail(__FILE__, __LINE__, "row %zu %s on %zu bytes: POINT %ld PREFIX %ld, "
                         "expected %ld %ld (-1 = none)", i, r->spec, r->len, pt, px,
                         r->point, r->prefix);
        ex->ops->destroy(ex);
    }
    fl_registry_free(reg);
}

/* delim:C on keys of every length up to 80 (short ones are scanned in a
 * loop, longer ones by memchr), with the first C at every place or none. */
FL_TEST(extractors_delim_every_length) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    fl_prefix_extractor *ex = make_extractor(reg, "delim:/");
    char key[80];
    for (size_t len = 0; ex && len <= sizeof key; len++)
        for (size_t at = 0; at <= len; at++) {           /* at == len: no '/' */
            for (size_t i = 0; i < len; i++) key[i] = (char)('a' + i % 26);
            if (at < len) key[at] = '/';
            if (at + 1 < len) key[len - 1] = '/';       /* a later one does not count */
            long want = at < len ? (long)at + 1 : NONE;
            for (int kind = 0; kind < 2; kind++) {
                long got = extract(ex, kind ? FL_TARGET_PREFIX : FL_TARGET_POINT, key, len);
                if (got != want)
                    fl_test_fail(__FILE__, __LINE__, "delim:/ on %zu bytes, '/' at %zu: %ld, expected %ld",
                                 len, at, got, want);
            }
        }
    if (ex) ex->ops->destroy(ex);
    fl_registry_free(reg);
}

FL_TEST(extractors_names) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    static const struct { const char *spec, *name; } names[] = {
        { "fixed:3", "fixed3" },        { "fixed:003", "fixed3" },
        { "fixed:65535", "fixed65535" }, { "capped:3", "capped3" },
        { "capped:\\x34", "capped4" },  { "delim::", "delim:" },
        { "delim:\\x3a", "delim:" },    { "delim:\\x3A", "delim:" },
        { "delim:/", "delim/" },        { "delim:!", "delim!" },
        { "delim:~", "delim~" },        { "delim:\\x00", "delim\\x00" },
        { "delim:\\x20", "delim\\x20" }, { "delim: ", "delim\\x20" },
        { "delim:\\", "delim\\x5c" },   { "delim:\\x5c", "delim\\x5c" },
        { "delim:\\x7f", "delim\\x7f" }, { "delim:\\xff", "delim\\xff" },
        { "delim:\\x2c", "delim," },    { "lastdelim::", "lastdelim:" },
        { "lastdelim:\\x0a", "lastdelim\\x0a" },
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        fl_prefix_extractor *ex = make_extractor(reg, names[i].spec);
        if (!ex) continue;
        CHECK_STR(fl_call_extractor_name(NULL, ex), names[i].name);
        ex->ops->destroy(ex);
    }
    fl_registry_free(reg);
}

/* The name rule keeps the 256 delimiter names distinct printable strings. */
FL_TEST(extractors_delim_names_distinct) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    static char seen[256][24];
    for (unsigned c = 0; c < 256; c++) {
        char spec[16];
        snprintf(spec, sizeof spec, "delim:\\x%02x", c);
        fl_prefix_extractor *ex = make_extractor(reg, spec);
        if (!ex) continue;
        const char *name = fl_call_extractor_name(NULL, ex);
        snprintf(seen[c], sizeof seen[c], "%s", name);
        for (const char *p = name; *p; p++)
            if (*p < 0x21 || *p > 0x7e) fl_test_fail(__FILE__, __LINE__, "byte %u: name "
                                                     "has an unprintable byte", c);
        for (unsigned d = 0; d < c; d++)
            if (strcmp(seen[c], seen[d]) == 0)
                fl_test_fail(__FILE__, __LINE__, "bytes %u and %u share the name %s", c, d, name);
        /* the byte really is the delimiter */
        char in[2] = { 'a', (char)c };
        CHECK_EQ(extract(ex, FL_TARGET_POINT, in, 2), c == 'a' ? 1 : 2);
        ex->ops->destroy(ex);
    }
    fl_registry_free(reg);
}

FL_TEST(extractors_bad_arguments) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    static const struct { const char *spec, *says; } bad[] = {
        { "fixed", "fixed needs a length" },        { "fixed:", "fixed:N" },
        { "fixed:0", "from 1 to 65535" },           { "fixed:65536", "got '65536'" },
        { "fixed:-1", "got '-1'" },                 { "fixed:3x", "got '3x'" },
        { "fixed: 3", "got ' 3'" },                 { "fixed:+3", "got '+3'" },
        { "fixed:99999999999999999999", "decimal" }, { "capped", "capped needs a length" },
        { "capped:0", "capped:N" },                 { "delim", "exactly one delimiter byte" },
        { "delim:", "got ''" },                     { "delim:ab", "got 'ab'" },
        { "delim:\\x4", "got '\\x4'" },             { "delim:\\xzz", "got '\\xzz'" },
        { "delim:\\x41\\x42", "exactly one" },      { "lastdelim:", "lastdelim:C" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[512] = "";
        fl_prefix_extractor *ex = NULL;
        int rc = fl_registry_make_extractor(reg, bad[i].spec, &ex, err, sizeof err);
        if (rc != FL_ERR_INVALID || ex)
            fl_test_fail(__FILE__, __LINE__, "%s: rc %d, expected FL_ERR_INVALID", bad[i].spec, rc);
        CHECK_CONTAINS(err, bad[i].says);
        CHECK_CONTAINS(err, bad[i].spec);            /* the message names the spec */
    }
    fl_registry_free(reg);
}

/* Counts extensions q of q[0..qlen) with up to `depth` more bytes (q
 * itself included) for which POINT(q) != n. */
static unsigned count_unsafe(const fl_prefix_extractor *ex, char *q, size_t qlen,
                             unsigned depth, long n) {
    static const char alphabet[] = { 'a', ':', 'b' };
    unsigned bad = extract(ex, FL_TARGET_POINT, q, qlen) != n;
    for (size_t i = 0; depth > 0 && i < sizeof alphabet; i++) {
        q[qlen] = alphabet[i];
        bad += count_unsafe(ex, q, qlen + 1, depth - 1, n);
    }
    return bad;
}

/* Counts, over every p of up to 4 bytes of the alphabet, answers n > len
 * and PREFIX(p) = Some(n) answers for which some extension q of p (up to
 * two more bytes) has POINT(q) != Some(n). */
static unsigned count_contract_breaks(const fl_prefix_extractor *ex, char *p, size_t plen,
                                      unsigned depth) {
    static const char alphabet[] = { 'a', ':', 'b' };
    long n = extract(ex, FL_TARGET_PREFIX, p, plen);
    unsigned bad = n > (long)plen || extract(ex, FL_TARGET_POINT, p, plen) > (long)plen;
    if (n != NONE) bad += count_unsafe(ex, p, plen, 2, n);
    for (size_t i = 0; depth > 0 && i < sizeof alphabet; i++) {
        p[plen] = alphabet[i];
        bad += count_contract_breaks(ex, p, plen + 1, depth - 1);
    }
    return bad;
}

/* The contract of section 4, checked exhaustively over a small alphabet. */
FL_TEST(extractors_prefix_contract) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    const char *specs[] = { "fixed:2", "capped:2", "delim::", "lastdelim::" };
    for (size_t s = 0; s < 4; s++) {
        fl_prefix_extractor *ex = make_extractor(reg, specs[s]);
        if (!ex) continue;
        char buf[8];
        unsigned broken = count_contract_breaks(ex, buf, 0, 4);
        if (broken) fl_test_fail(__FILE__, __LINE__, "%s broke the contract %u times",
                                 specs[s], broken);
        ex->ops->destroy(ex);
    }
    fl_registry_free(reg);
}
