/*
 * gen_pools.c -- the key shapes drawn from a pool built when generation
 * starts: adversarial (hand-picked edge cases plus random hostile bytes) and
 * words (a real word list such as Debian's wamerican).
 *
 * Each pool is split in two disjoint sets: keys that may be written and keys
 * that never are (the absent half), interleaved in key order, so absent
 * reads land inside the written range and next to written keys.  gen.c still
 * checks every absent candidate against the keys actually written.
 */
#include "gen_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct fl_gen_pool {
    fl_gen_keyset writable;     /* keys that may be put                   */
    fl_gen_keyset absent;       /* keys never put (nor in writable)       */
    size_t        specials;     /* adversarial: writable[0..specials) are
                                   the hand-picked edge cases             */
    /* words: the word list, split by a hash bit of each word's position */
    fl_gen_keyset words;
    size_t       *word_in, *word_out;
    size_t        word_in_count, word_out_count;
} fl_gen_pool;

static void pool_destroy(fl_gen *g) {
    fl_gen_pool *p = g->shape_state;
    if (!p) return;
    fl_gen_keyset_free(&p->writable);
    fl_gen_keyset_free(&p->absent);
    fl_gen_keyset_free(&p->words);
    free(p->word_in);
    free(p->word_out);
    free(p);
}

static fl_gen_pool *pool_new(fl_gen *g) {
    fl_gen_pool *p = calloc(1, sizeof *p);
    if (!p) fl_gen_fail(g, "out of memory");
    g->shape_state = p;
    return p;
}

/* A key from set s at a uniformly drawn position. */
static void pick_from(fl_gen *g, const fl_gen_keyset *s, size_t lo, size_t hi, fl_gen_buf *out) {
    size_t len;
    const uint8_t *k = fl_gen_keyset_key(s, lo + (size_t)fl_gen_below(&g->rng, hi - lo), &len);
    fl_gen_buf_put(out, k, len);
}

/* ==== adversarial =========================================================== */
/*
 * The hand-picked keys: the empty key; NUL and 0xFF runs (all-0xFF keys have
 * no prefix successor); delimiters ':' '/' '\0' alone, first and last;
 * chains of keys each a prefix of the next, with every other link left
 * absent; keys on either side of a successor boundary ("a\xff", "b");
 * non-ASCII bytes; and keys of a few KiB.  Then `keys` random keys of 0-300
 * bytes, heavy in 0x00, 0xFF, ':' and '/', split between the two halves.
 * Puts pick a hand-picked key a quarter of the time, so each is written.
 */

typedef struct fl_gen_lit { const char *s; size_t n; bool absent; } fl_gen_lit;
#define LIT(s) { s, sizeof s - 1, false }
#define ABS(s) { s, sizeof s - 1, true }

static const fl_gen_lit adversarial_literals[] = {
    LIT(""), LIT("\x00"), LIT("\x00\x00"), ABS("\x00\x00\x00"), LIT("\x00\x00\x00\x00"),
    LIT("\xff"), LIT("\xff\xff"), LIT("\xff\xff\xff"), LIT("\xff\xff\xff\xff"),
    ABS("\xff\xff\xff\xff\xff"), LIT("\xff\xff\xff\xff\xff\xff"), ABS("\xff\xff\xff\xff\xff\xff\xff"),
    LIT("\xff\xff\xff\xff\xff\xff\xff\xff"), LIT("\xff\xff\xff\xff\xff\xff\xff\xff\xff"),
    LIT(":"), LIT("/"), LIT("::"), ABS(":::"), LIT("//"), LIT(":/:"), LIT("\x00:"), LIT(":\x00"),
    LIT(":a"), LIT("a:"), LIT("/a"), LIT("a/"), LIT(":a:"), LIT("/a/"), LIT("\x00" "a"),
    LIT("a\x00"), LIT("\x00" "a\x00"), LIT("a:b:"), LIT(":a:b"), LIT("/a/b/c/"), LIT("a/b/c"),
    ABS("a/b"), LIT("a:b:c"), ABS("a:b"), LIT("tenant:"), LIT("tenant::"), ABS("tenant:x"),
    LIT("a"), ABS("ab"), LIT("abc"), ABS("abcd"), LIT("abcde"), ABS("abcdef"), LIT("abcdefg"),
    ABS("abcdefgh"), LIT("abcdefghi"), ABS("abcdefghij"), LIT("abcdefghijk"),
    LIT("a\xff"), LIT("a\xff\xff"), ABS("a\xff\xff\xff"), LIT("b"), LIT("\xfe\xff"),
    LIT("\xff\xfe"), LIT("\xff\x00"), LIT("\x00\xff"), LIT("\xfe"), ABS("\xfe\xff\xff"),
    LIT("\x7f"), LIT("\x80"), LIT("\xc3\xa9t\xc3\xa9"), LIT(" "), LIT("\"\\="), LIT("a b"),
    LIT("\x01"), ABS("\x02"), LIT("\x03"),
};

/* Long keys, made at init: (byte, length, prefix) -- prefix then the byte. */
static const struct { int byte; size_t len; const char *prefix; bool absent; } long_keys[] = {
    { 0xff, 4096, "", false },  { 0xff, 4095, "", true },   { 0x00, 1500, "", false },
    { 'x', 2000, "abc", false }, { ':', 2500, ":", false },  { -1, 3000, "", false },
    { -1, 1200, "abcdefg", false }, { -1, 5000, "\xff\xff", false }, { 'z', 3000, "abc", true },
};

/* Bytes of random adversarial keys: a quarter delimiters and extremes. */
static uint8_t hostile_byte(fl_gen_rng *r) {
    static const uint8_t special[] = { 0x00, 0xff, ':', '/', 0x01, 0xfe, 0x7f, 0x80 };
    uint64_t x = fl_gen_below(r, 100);
    if (x < 25) return special[fl_gen_below(r, sizeof special)];
    if (x < 50) return (uint8_t)('a' + fl_gen_below(r, 5));
    return (uint8_t)fl_gen_below(r, 256);
}

static size_t hostile_length(fl_gen_rng *r) {
    uint64_t x = fl_gen_below(r, 100);
    if (x < 15) return (size_t)fl_gen_between(r, 0, 3);
    if (x < 50) return (size_t)fl_gen_between(r, 4, 8);
    if (x < 80) return (size_t)fl_gen_between(r, 9, 16);
    if (x < 95) return (size_t)fl_gen_between(r, 17, 64);
    return (size_t)fl_gen_between(r, 65, 300);
}

/* Adds k to the writable or the absent half, unless it is in either. */
static int pool_add(fl_gen_pool *p, const uint8_t *k, size_t n, bool absent) {
    uint64_t h = fl_gen_keyset_hash(k, n);
    if (fl_gen_keyset_has_hashed(&p->writable, k, n, h) || fl_gen_keyset_has_hashed(&p->absent, k, n, h))
        return 0;
    return fl_gen_keyset_add_hashed(absent ? &p->absent : &p->writable, k, n, h) < 0 ? -1 : 0;
}

static int adversarial_init(fl_gen *g) {
    fl_gen_pool *p = pool_new(g);
    if (!p) return -1;
    fl_gen_rng r = { fl_gen_mix2(g->space_seed, 0xad) };
    fl_gen_buf b = { 0 };
    int rc = 0;
    size_t nlit = sizeof adversarial_literals / sizeof adversarial_literals[0];
    for (size_t i = 0; i < nlit && rc == 0; i++)
        rc = pool_add(p, (const uint8_t *)adversarial_literals[i].s, adversarial_literals[i].n,
                      adversarial_literals[i].absent);
    for (size_t i = 0; i < sizeof long_keys / sizeof long_keys[0] && rc == 0; i++) {
        b.len = 0;
        fl_gen_buf_str(&b, long_keys[i].prefix);
        while (b.len < long_keys[i].len && !b.nomem)
            fl_gen_buf_byte(&b, long_keys[i].byte >= 0 ? (uint8_t)long_keys[i].byte : hostile_byte(&r));
        rc = b.nomem ? -1 : pool_add(p, b.p, b.len, long_keys[i].absent);
    }
    /* two random prefix chains: links 1..10 of a random string, alternately
     * writable and absent */
    for (int c = 0; c < 2 && rc == 0; c++) {
        b.len = 0;
        for (int i = 0; i < 10; i++) fl_gen_buf_byte(&b, hostile_byte(&r));
        for (size_t n = 1; n <= 10 && rc == 0 && !b.nomem; n++) rc = pool_add(p, b.p, n, n % 2 == 0);
    }
    p->specials = p->writable.count;
    for (uint64_t i = 0; i < g->keys && rc == 0; i++) {
        b.len = 0;
        size_t n = hostile_length(&r);
        for (size_t j = 0; j < n; j++) fl_gen_buf_byte(&b, hostile_byte(&r));
        rc = b.nomem ? -1 : pool_add(p, b.p, b.len, fl_gen_next(&r) & 1);
    }
    fl_gen_buf_free(&b);
    return rc == 0 ? 0 : fl_gen_fail(g, "out of memory building the adversarial key pool");
}

static void adversarial_key(fl_gen *g, fl_gen_buf *out) {
    fl_gen_pool *p = g->shape_state;
    if (fl_gen_chance(&g->rng, 0.25)) pick_from(g, &p->writable, 0, p->specials, out);
    else pick_from(g, &p->writable, 0, p->writable.count, out);
}

/* From the absent half, or a written key's neighbour: with a NUL or 0xFF
 * appended, its last byte dropped or moved by one, or a delimiter appended.
 * A neighbour that may be written (it is in the writable half) is replaced
 * by an absent-half key, so absent keys are never written, before or after. */
static void adversarial_absent(fl_gen *g, fl_gen_buf *out) {
    fl_gen_pool *p = g->shape_state;
    if (g->written.count == 0 || fl_gen_chance(&g->rng, 0.5)) {
        pick_from(g, &p->absent, 0, p->absent.count, out);
        return;
    }
    size_t start = out->len;
    pick_from(g, &g->written, 0, g->written.count, out);
    switch (fl_gen_below(&g->rng, 6)) {
    case 0: fl_gen_buf_byte(out, 0x00); break;
    case 1: fl_gen_buf_byte(out, 0xff); break;
    case 2: if (out->len) out->len--; break;
    case 3: if (out->len) out->p[out->len - 1]++; break;      /* wraps 0xff to 0x00 */
    case 4: if (out->len) out->p[out->len - 1]--; break;
    default: fl_gen_buf_byte(out, fl_gen_chance(&g->rng, 0.5) ? ':' : '/'); break;
    }
    if (!out->nomem && fl_gen_keyset_has(&p->writable, fl_gen_buf_bytes(out) + start, out->len - start)) {
        out->len = start;
        pick_from(g, &p->absent, 0, p->absent.count, out);
    }
}

static bool adversarial_may_put(fl_gen *g, const uint8_t *key, size_t len) {
    return fl_gen_keyset_has(&((fl_gen_pool *)g->shape_state)->writable, key, len);
}

/* Up to and including the first ':' or '/', if any. */
static size_t adversarial_natural(fl_gen *g, const uint8_t *key, size_t len) {
    (void)g;
    for (size_t i = 0; i < len; i++)
        if (key[i] == ':' || key[i] == '/') return i + 1;
    return 0;
}

const fl_gen_shape_ops fl_gen_adversarial_ops = {
    FL_SHAPE_ADVERSARIAL, "adversarial", 1000, 0.3, adversarial_init, pool_destroy,
    adversarial_key, NULL, adversarial_absent, adversarial_natural, adversarial_may_put,
};

/* ==== words ================================================================= */
/*
 * Keys are single words and, a quarter of them, "word:word" pairs.  Key
 * number i (of `keys`) is spelled from words of the written half chosen by a
 * hash of i; absent keys use at least one word of the other half, so they
 * are never written.  Words holding ':' are left out of the list.
 */

#define FL_GEN_WORDS_DEFAULT "/usr/share/dict/words"
#define FL_GEN_WORD_MAX 200

static int words_load(fl_gen *g, fl_gen_pool *p, const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return fl_gen_fail(g, "%s: cannot read the word list: %s (install the Debian package "
                           "wamerican, or give another word list)", path, strerror(errno));
    char line[4096];
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        size_t n = strcspn(line, "\r\n");
        bool ok = n > 0 && n <= FL_GEN_WORD_MAX;
        for (size_t i = 0; i < n && ok; i++)          /* ':' joins pairs: not in words */
            ok = (uint8_t)line[i] >= 0x20 && line[i] != 0x7f && line[i] != ':';
        if (ok && fl_gen_keyset_add(&p->words, (const uint8_t *)line, n) < 0) rc = -1;
        while (!strchr(line, '\n') && fgets(line, sizeof line, f)) {}   /* a long line's rest */
    }
    bool failed = ferror(f);
    fclose(f);
    if (rc != 0) return fl_gen_fail(g, "%s: out of memory reading the word list", path);
    if (failed) return fl_gen_fail(g, "%s: read error", path);
    if (p->words.count < 2)
        return fl_gen_fail(g, "%s: the word list has %zu usable word%s, it needs at least 2 "
                           "(one word a line, 1-%d bytes, no control characters or ':')",
                           path, p->words.count, p->words.count == 1 ? "" : "s", FL_GEN_WORD_MAX);
    return 0;
}

static int words_init(fl_gen *g) {
    fl_gen_pool *p = pool_new(g);
    if (!p) return -1;
    const char *path = g->o->words_path && *g->o->words_path ? g->o->words_path : FL_GEN_WORDS_DEFAULT;
    if (words_load(g, p, path) != 0) return -1;
    p->word_in = calloc(p->words.count, sizeof *p->word_in);
    p->word_out = calloc(p->words.count, sizeof *p->word_out);
    if (!p->word_in || !p->word_out) return fl_gen_fail(g, "out of memory");
    for (size_t i = 0; i < p->words.count; i++) {
        if (fl_gen_mix2(g->space_seed, i) & 1) p->word_out[p->word_out_count++] = i;
        else p->word_in[p->word_in_count++] = i;
    }
    if (!p->word_in_count || !p->word_out_count) {   /* 2+ words but one half empty */
        p->word_in_count = p->word_out_count = 0;
        for (size_t i = 0; i < p->words.count; i++) {
            if (i % 2) p->word_out[p->word_out_count++] = i;
            else p->word_in[p->word_in_count++] = i;
        }
    }
    return 0;
}

static void put_word(const fl_gen_pool *p, size_t index, fl_gen_buf *out) {
    size_t len;
    const uint8_t *w = fl_gen_keyset_key(&p->words, index, &len);
    fl_gen_buf_put(out, w, len);
}

static void spell_words_key(fl_gen *g, uint64_t i, fl_gen_buf *out) {
    const fl_gen_pool *p = g->shape_state;
    uint64_t h = fl_gen_mix2(g->space_seed ^ 0x30d5, i);
    put_word(p, p->word_in[fl_gen_mix2(h, 1) % p->word_in_count], out);
    if (h % 4 == 0) {
        fl_gen_buf_byte(out, ':');
        put_word(p, p->word_in[fl_gen_mix2(h, 2) % p->word_in_count], out);
    }
}

static void words_key(fl_gen *g, fl_gen_buf *out) {
    spell_words_key(g, fl_gen_below(&g->rng, g->keys), out);
}

static void words_absent(fl_gen *g, fl_gen_buf *out) {
    const fl_gen_pool *p = g->shape_state;
    size_t in = p->word_in[fl_gen_below(&g->rng, p->word_in_count)];
    size_t outw = p->word_out[fl_gen_below(&g->rng, p->word_out_count)];
    switch (fl_gen_below(&g->rng, 4)) {
    case 0: put_word(p, in, out); fl_gen_buf_byte(out, ':'); put_word(p, outw, out); break;
    case 1: put_word(p, outw, out); fl_gen_buf_byte(out, ':'); put_word(p, in, out); break;
    default: put_word(p, outw, out); break;
    }
}

/* A word of the list or two joined by ':' (of either half: conservative). */
static bool words_may_put(fl_gen *g, const uint8_t *key, size_t len) {
    const fl_gen_pool *p = g->shape_state;
    const uint8_t *colon = len ? memchr(key, ':', len) : NULL;
    if (!colon) return fl_gen_keyset_has(&p->words, key, len);
    size_t a = (size_t)(colon - key);
    return fl_gen_keyset_has(&p->words, key, a) && fl_gen_keyset_has(&p->words, colon + 1, len - a - 1);
}

/* "word:" of a pair. */
static size_t words_natural(fl_gen *g, const uint8_t *key, size_t len) {
    (void)g;
    const uint8_t *colon = len ? memchr(key, ':', len) : NULL;
    return colon ? (size_t)(colon - key) + 1 : 0;
}

const fl_gen_shape_ops fl_gen_words_ops = {
    FL_SHAPE_WORDS, "words", 10000, 0.0, words_init, pool_destroy,
    words_key, NULL, words_absent, words_natural, words_may_put,
};
