/*
 * test_model_filters.c -- the model's extractors and bloom on their own and
 * against the engine's built-in extractors and bloom, through the public
 * registry API.
 *
 * The point of the model is to disagree with a wrong engine, so the bloom
 * tests are differential: for random configurations and key sets, the
 * policy names, the encoded bytes and every sampled POINT/PREFIX answer must
 * be equal.  Everything is seeded; a failure prints the seed, the
 * configuration and the keys.  FL_MODEL_SEED=N reruns with another base seed.
 */
#include "test_model.h"
#include "../engine/engine.h"

#include <math.h>
#include <xxhash.h>

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

/* The exact expected rate of SPEC 5: the mean over lines of (bits set /
 * 512)^k, here counted bit by bit with one pow per line (the model counts
 * bytes and computes each distinct count's term once: the same double, bit
 * for bit), on filters of 20,000 keys; measured against it with 500,000
 * absent probes (tolerance 4 standard deviations); the formula below it,
 * more so as bits per key grow (it ignores how unevenly hashes fall on
 * lines). */
static double exact_by_bits(const fl_model_bloom *b) {
    double sum = 0;
    for (uint64_t line = 0; line < b->lines; line++) {
        unsigned set = 0;
        for (int bit = 0; bit < 512; bit++) set += b->encoded[6 + line * 64 + bit / 8] >> (bit % 8) & 1;
        sum += pow(set / 512.0, (double)b->k);
    }
    return b->lines ? sum / (double)b->lines : 1.0;
}

FL_TEST(model_bloom_expected_exact) {
    printf("test,bits_per_key,keys,probes,measured_fp,exact_fp,formula_fp\n");
    static const uint32_t mbs[] = { 10000, 24000 };
    for (size_t t = 0; t < 2; t++) {
        fl_model_bloom b, d;
        fl_model_bloom_config cfg = { mbs[t], true, false, { FL_MODEL_FIXED, 0, 0 } };
        fl_model_bloom_begin(&b, &cfg);
        CHECK(fl_model_bloom_expected_exact(&b) == 1.0);            /* unfinished */
        CHECK(fl_model_bloom_probe_hashes(&b, (const uint64_t[3]){ 1, 2, 3 }, 3) == 7);
        for (uint32_t i = 0; i < 20000; i++) CHECK_OK(fl_model_bloom_add(&b, (fl_model_bytes){ (uint8_t *)&i, 4 }));
        CHECK_OK(fl_model_bloom_finish(&b));
        double exact = fl_model_bloom_expected_exact(&b), formula = fl_model_bloom_expected_fp(b.m, b.lines, b.k);
        CHECK(exact == exact_by_bits(&b));
        CHECK_OK(fl_model_bloom_decode(&d, &cfg, b.encoded, b.encoded_len));
        CHECK(fl_model_bloom_expected_exact(&d) == exact);
        fl_model_bloom_free(&d);
        uint64_t fps = 0, probes = t == 0 ? 500000 : 0;
        for (uint64_t i = 0; i < probes; i++) {
            uint64_t key = i << 32 | 0x5a5a5a5aull;                 /* never added: 8 bytes */
            bool maybe = fl_model_bloom_might_match(&b, FL_MODEL_POINT, (fl_model_bytes){ (uint8_t *)&key, 8 });
            CHECK(maybe == fl_model_bloom_probe_hash(&b, XXH3_64bits(&key, 8)));
            fps += maybe;
        }
        /* the interleaved probe of up to 8 hashes answers as one at a time */
        for (uint64_t i = 0; i < 20000; i++) {
            uint64_t h[8];
            unsigned n = (unsigned)(i % 9), want = 0;
            for (unsigned j = 0; j < 8; j++) h[j] = XXH3_64bits_withSeed(&i, sizeof i, j);
            if (i % 3 == 0 && n) h[0] = XXH3_64bits(&(uint32_t){ (uint32_t)(i % 20000) }, 4);  /* added: maybe */
            for (unsigned j = 0; j < n; j++) want |= (unsigned)fl_model_bloom_probe_hash(&b, h[j]) << j;
            CHECK(fl_model_bloom_probe_hashes(&b, h, n) == want);
        }
        double rate = probes ? (double)fps / (double)probes : NAN;
        printf("model_bloom_expected_exact,%u,20000,%llu,%.6f,%.6f,%.6f\n", mbs[t] / 1000,
               (unsigned long long)probes, rate, exact, formula);
        if (probes && fabs(rate - exact) > 4 * sqrt(exact * (1 - exact) / (double)probes))
            fl_test_fail(__FILE__, __LINE__, "measured %.6f, exact %.6f: more than 4 sd apart", rate, exact);
        /* the formula runs low: about 1.5% at 10 bits/key, far more at 24 */
        if (t == 0) CHECK(exact / formula > 1.003 && exact / formula < 1.03);
        else CHECK(exact / formula > 1.2);
        fl_model_bloom_free(&b);
    }
    fl_model_bloom empty;
    fl_model_bloom_config cfg = { 10000, true, false, { FL_MODEL_FIXED, 0, 0 } };
    CHECK_OK(fl_model_bloom_build(&empty, &cfg, NULL, 0));
    CHECK_EQ(empty.lines, 0);
    CHECK(fl_model_bloom_expected_exact(&empty) == 1.0);
    CHECK(fl_model_bloom_probe_hash(&empty, 12345));
    fl_model_bloom_free(&empty);
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

/* fl_model_bloom_build_hashed (legacy: fl_model_legacy_build_hashed at
 * cfg's millibits) over keys gives want's bytes, hands back exactly the
 * hashes SPEC 5 sets -- XXH3 of each key unless it repeats the previous key,
 * of each extracted prefix unless it repeats the last prefix added, in that
 * order, worked out here again -- and every key's hash with whole_key
 * (key_hash untouched without). */
static bool hashed_build_matches(const char *label, const fl_model_bloom_config *cfg,
                                 const fl_model_bloom *want, const key *keys, size_t n, bool legacy) {
    fl_model_bytes *mk = malloc((n ? n : 1) * sizeof *mk);
    uint64_t *key_hash = malloc((n ? n : 1) * sizeof *key_hash);
    uint64_t *expect = malloc((2 * n + 1) * sizeof *expect);
    bool ok = mk && key_hash && expect;
    if (!ok) goto out;
    for (size_t i = 0; i < n; i++) { mk[i] = kb(&keys[i]); key_hash[i] = 0x5eed; }
    bool whole = legacy || cfg->whole_key, ex = !legacy && cfg->has_extractor;
    size_t m = 0;
    const key *last_prefix_of = NULL;
    size_t last_prefix_len = 0;
    for (size_t i = 0; i < n; i++) {
        if (whole && !(i && key_cmp(&keys[i], &keys[i - 1]) == 0))
            expect[m++] = XXH3_64bits(keys[i].b, keys[i].len);
        size_t pl;
        if (ex && fl_model_extractor_prefix_len(&cfg->extractor, FL_MODEL_POINT, kb(&keys[i]), &pl) &&
            !(last_prefix_of && last_prefix_len == pl && memcmp(last_prefix_of->b, keys[i].b, pl) == 0)) {
            expect[m++] = XXH3_64bits(keys[i].b, pl);
            last_prefix_of = &keys[i];
            last_prefix_len = pl;
        }
    }
    fl_model_bloom b;
    fl_model_bloom_hashed h = { NULL, key_hash };
    CHECK_OK(legacy ? fl_model_legacy_build_hashed(&b, cfg->millibits, mk, n, &h)
                    : fl_model_bloom_build_hashed(&b, cfg, mk, n, &h));
    ok = b.encoded_len == want->encoded_len && memcmp(b.encoded, want->encoded, b.encoded_len) == 0 &&
         b.m == m && (m == 0 ? h.hashes == NULL : h.hashes && memcmp(h.hashes, expect, m * sizeof *expect) == 0);
    for (size_t i = 0; ok && i < n; i++)
        ok = key_hash[i] == (whole ? XXH3_64bits(keys[i].b, keys[i].len) : 0x5eed);
    if (!ok) fl_test_fail(__FILE__, __LINE__, "%s%s: the hashed build differs (m %llu, %zu expected)", label,
                          legacy ? " (legacy)" : "", (unsigned long long)b.m, m);
    free(h.hashes);
    fl_model_bloom_free(&b);
out:
    free(mk);
    free(key_hash);
    free(expect);
    return ok;
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
    ok = hashed_build_matches(label, &cfg, &mb_, keys, n, false);
    if (check_legacy) {  /* the Legacy reference must be this same whole-key bloom */
        fl_model_bloom leg;
        fl_model_bytes *lk = malloc((n ? n : 1) * sizeof *lk);
        for (size_t i = 0; lk && i < n; i++) lk[i] = kb(&keys[i]);
        CHECK_OK(fl_model_legacy_build(&leg, mb, lk, lk ? n : 0));
        CHECK_MEM(leg.encoded, leg.encoded_len, mb_.encoded, mb_.encoded_len);
        CHECK(fl_model_bloom_might_match(&leg, FL_MODEL_PREFIX, mb_str("zzz")));
        fl_model_bloom_free(&leg);
        free(lk);
        ok &= hashed_build_matches(label, &cfg, &mb_, keys, n, true);
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
