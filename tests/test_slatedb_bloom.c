/*
 * test_slatedb_bloom.c -- the hashes and the bloom of filterlab's reader of
 * SlateDB's SSTs (adapters/slatedb/siphash.c, slatedb_bloom.c):
 * SipHash-1-3 against Rust's outputs and CRC-32 against its definition;
 * the bloom's probe walk against SlateDB's own test, its probe count in
 * f32, decoding, building and names; the exact expected FP rate against a
 * brute-force sum.
 */
#include "test_slatedb_sst.h"

#include <math.h>
#include <stdlib.h>

/* ---- SipHash-1-3, CRC-32 ------------------------------------------------------ */

/* Rust's siphasher 1.0.3 SipHasher13::new().hash(&[0, 1, ..., n-1]) for
 * n = 0..64 (printed by a throwaway Rust program; facts, not code). */
static const uint64_t sip13_zero_key[65] = {
    0xd1fba762150c532cull, 0x68a914128e01e473ull, 0x010bac45c41e3669ull, 0x4d4c9a4a8ef6e0adull,
    0x7cc43f98813e4dbdull, 0x5abe2169dff36275ull, 0xe3c25f87624f1cdbull, 0x2f098ab0c751325aull,
    0xead411e67ebe2eeaull, 0x75927f9d95124362ull, 0xaf9f77a65ab51a1dull, 0xfe64ce8b6617fcffull,
    0xa6baf4fb0f9fe1c2ull, 0xa0cf3211850f8e0dull, 0x7f86049379fbfe67ull, 0xf30eb725bb91c9eaull,
    0x8972188433a5c5b7ull, 0x4883c49a2c009c1dull, 0xadc2c0b63044067dull, 0x091f4a3329f87d19ull,
    0x639e355ae68c0100ull, 0xb17bef2cb5213239ull, 0xf8aeb1066236ccfeull, 0x37332b1389daa4ffull,
    0x31185a47af932f3aull, 0xebf352e82ae23e2full, 0xed36ff242fe478b2ull, 0x2454d97d299299dfull,
    0x8cd57fe8130d0ac7ull, 0xbe98eb2faf0a0e85ull, 0xd427c34ee09470c6ull, 0x169739443111d49bull,
    0x31ef8061c910629bull, 0x7fb71d24dfa4c9f6ull, 0x92771f49e836d389ull, 0x3c393cf6f0853bc3ull,
    0xac77921fcc642bd3ull, 0x422a9751192ff266ull, 0xc680ae8a8c584ddfull, 0x6c76b6d34bb6d26bull,
    0x95bc321ab41d8206ull, 0x908a3a97a6d37669ull, 0xfcaf3c64874dd0b4ull, 0xf689479b32b84a44ull,
    0xd857641079efd1fdull, 0x8b581578722633f7ull, 0x83cb09d35ea7bcd4ull, 0x8485f7f5ae725a0dull,
    0xfe1f2445ba50237full, 0x23cece041d7866b0ull, 0x416687480b336c09ull, 0xf15960da7e7f3892ull,
    0xded6177b9826835aull, 0xf80dae51668be6beull, 0x17ecc6ee6647df18ull, 0x5220d642b4a52110ull,
    0xa4f0cf4ba4adc016ull, 0xe5125bb26d1f2976ull, 0x851b0e75f580d256ull, 0x12605250a37e39acull,
    0xd95a713568daebf1ull, 0xcdcf4a42ec0dd605ull, 0xa5c708712b617164ull, 0x385d3e39e5f37359ull,
    0x75e05fd5bbc870c6ull,
};

FL_TEST(sdb_siphash13_matches_rust) {
    uint8_t buf[65];
    for (int i = 0; i < 65; i++) buf[i] = (uint8_t)i;
    for (size_t n = 0; n <= 64; n++) {
        uint64_t h = fl_sdb_hash((fl_slice){ buf, n });
        if (h != sip13_zero_key[n])
            fl_test_fail(__FILE__, __LINE__, "SipHash-1-3 of %zu bytes: %016llx, Rust says %016llx", n,
                         (unsigned long long)h, (unsigned long long)sip13_zero_key[n]);
    }
    static const struct { const char *s; uint64_t h; } strs[] = {
        { "", 0xd1fba762150c532cull }, { "a", 0x407448d2b89b1813ull },
        { "abc", 0xc03bc3a0042630f2ull }, { "key0001", 0x16dbae975a65905bull },
        { "hello world", 0xb1b1f2e707e4ac8aull }, { "_bf", 0xaeae8d76c7c175a9ull },
    };
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        CHECK_EQ(fl_sdb_hash((fl_slice){ (const uint8_t *)strs[i].s, strlen(strs[i].s) }), strs[i].h);
    /* keyed: the key bytes 00..0f, the messages 00..n-1 -- the pattern of
     * SipHash's published vectors; these are SipHash-1-3's (Rust std's
     * test_siphash_1_3 has the first, 0xabac0158050fc4dc, as its bytes
     * dc c4 0f 05 58 01 ac ab) */
    static const struct { size_t n; uint64_t h; } keyed[] = {
        { 0, 0xabac0158050fc4dcull }, { 1, 0xc9f49bf37d57ca93ull }, { 7, 0xd3927d989bb11140ull },
        { 8, 0x369095118d299a8eull }, { 9, 0x25a48eb36c063de4ull }, { 15, 0xd320d86d2a519956ull },
        { 16, 0xcc4fdd1a7d908b66ull }, { 63, 0x9d199062b7bbb3a8ull }, { 64, 0xf17997ec4b4a6065ull },
    };
    uint64_t k0 = 0x0706050403020100ull, k1 = 0x0f0e0d0c0b0a0908ull;
    for (size_t i = 0; i < sizeof keyed / sizeof keyed[0]; i++)
        CHECK_EQ(fl_sdb_siphash13(k0, k1, buf, keyed[i].n), keyed[i].h);
}

FL_TEST(sdb_crc32_is_ieee) {
    CHECK_EQ(fl_sdb_crc32((const uint8_t *)"123456789", 9), 0xCBF43926u);
    CHECK_EQ(fl_sdb_crc32((const uint8_t *)"", 0), 0);
    CHECK_EQ(fl_sdb_crc32((const uint8_t *)"a", 1), 0xe8b7be43u);
    const char *fox = "The quick brown fox jumps over the lazy dog";
    CHECK_EQ(fl_sdb_crc32((const uint8_t *)fox, strlen(fox)), 0x414fa339u);
    /* against the bitwise definition */
    uint64_t seed = 7;
    uint8_t buf[300];
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)fl_test_rand(&seed);
    for (size_t n = 0; n <= sizeof buf; n += 37) {
        uint32_t c = 0xFFFFFFFFu;
        for (size_t i = 0; i < n; i++) {
            c ^= buf[i];
            for (int j = 0; j < 8; j++) c = (c >> 1) ^ (c & 1 ? 0xEDB88320u : 0);
        }
        CHECK_EQ(fl_sdb_crc32(buf, n), c ^ 0xFFFFFFFFu);
    }
}

/* ---- The bloom ------------------------------------------------------------------ */

FL_TEST(sdb_bloom_probes_match_slatedb) {
    /* SlateDB's own test_compute_probes (filter.rs): hash 0xDF77EF56DEADBEEF,
     * 7 probes into 1000000 bits */
    static const uint32_t want[7] = { 928559, 107781, 287004, 466229, 645457, 824689, 3926 };
    uint8_t *bits = calloc(1000000 / 8, 1);
    fl_sdb_bloom b = { 1000000, 7, bits };
    uint64_t h = 0xDF77EF56DEADBEEFull;
    CHECK(!fl_sdb_bloom_might_contain_hash(&b, h));
    for (int i = 0; i < 7; i++) bits[want[i] / 8] |= (uint8_t)(1u << (want[i] % 8));
    CHECK(fl_sdb_bloom_might_contain_hash(&b, h));
    for (int i = 0; i < 7; i++) {             /* each probe is needed */
        bits[want[i] / 8] &= (uint8_t)~(1u << (want[i] % 8));
        CHECK(!fl_sdb_bloom_might_contain_hash(&b, h));
        bits[want[i] / 8] |= (uint8_t)(1u << (want[i] % 8));
    }
    /* no probes: yes; no bits: no */
    fl_sdb_bloom none = { 8, 0, bits };
    CHECK(fl_sdb_bloom_might_contain_hash(&none, 12345));
    fl_sdb_bloom empty = { 0, 6, bits };
    CHECK(!fl_sdb_bloom_might_contain_hash(&empty, 12345));
    free(bits);
}

FL_TEST(sdb_bloom_num_probes_is_f32) {
    /* (bits_per_key as f32 * 0.69) as u16, as Rust computes it */
    static const uint32_t bpk[] = { 0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 20,
                                    29, 30, 100, 1000, 94978, 94979, 94980, UINT32_MAX };
    static const uint16_t k[] = { 0, 0, 1, 2, 3, 4, 4, 5, 6, 6, 7, 8, 8, 9, 10, 11, 13,
                                  20, 20, 69, 690, 65534, 65535, 65535, 65535 };
    for (size_t i = 0; i < sizeof bpk / sizeof bpk[0]; i++)
        CHECK_EQ(fl_sdb_bloom_num_probes(bpk[i]), k[i]);
}

FL_TEST(sdb_bloom_decode_and_build) {
    fl_sdb_bloom b;
    char err[256];
    CHECK_RC(fl_sdb_bloom_decode((fl_slice){ (const uint8_t *)"\x00", 1 }, &b, err, sizeof err), FL_ERR_CORRUPT);
    CHECK_CONTAINS(err, "probe count");
    CHECK_OK(fl_sdb_bloom_decode((fl_slice){ (const uint8_t *)"\x00\x06", 2 }, &b, err, sizeof err));
    CHECK(b.nbits == 0 && b.k == 6);
    CHECK(!fl_sdb_bloom_might_contain(&b, (fl_slice){ (const uint8_t *)"x", 1 }));
    /* build: no keys is the u16 alone; keys set their probes, nothing else */
    fl_buf out;
    fl_buf_init(&out);
    CHECK_OK(fl_sdb_bloom_build(10, NULL, 0, &out));
    CHECK_MEM(out.data, out.len, "\x00\x06", 2);
    fl_buf_reset(&out);
    uint64_t hs[100];
    for (int i = 0; i < 100; i++) {
        char k[16];
        int n = snprintf(k, sizeof k, "key%d", i);
        hs[i] = fl_sdb_hash((fl_slice){ (const uint8_t *)k, (size_t)n });
    }
    CHECK_OK(fl_sdb_bloom_build(10, hs, 100, &out));
    CHECK_EQ(out.len, 2 + 125);
    CHECK_OK(fl_sdb_bloom_decode((fl_slice){ out.data, out.len }, &b, err, sizeof err));
    CHECK(b.k == 6 && b.nbits == 1000);
    for (int i = 0; i < 100; i++) CHECK(fl_sdb_bloom_might_contain_hash(&b, hs[i]));
    /* 7 bits a key over 3 keys: 21 bits -> 3 bytes, 24 bits probed mod 24 */
    fl_buf_reset(&out);
    CHECK_OK(fl_sdb_bloom_build(7, hs, 3, &out));
    CHECK_EQ(out.len, 2 + 3);
    fl_buf_free(&out);
}

FL_TEST(sdb_bloom_name_parse) {
    bool whole;
    fl_slice ex;
#define NAME(s) ((fl_slice){ (const uint8_t *)(s), strlen(s) })
    CHECK(fl_sdb_bloom_name_parse(NAME("_bf"), &whole, &ex) && whole && ex.len == 0);
    CHECK(fl_sdb_bloom_name_parse(NAME("_bf:p=fixed3"), &whole, &ex) && whole);
    CHECK_MEM(ex.data, ex.len, "fixed3", 6);
    CHECK(fl_sdb_bloom_name_parse(NAME("_bf:p=fixed3:wh=0"), &whole, &ex) && !whole);
    CHECK_MEM(ex.data, ex.len, "fixed3", 6);
    CHECK(fl_sdb_bloom_name_parse(NAME("_bf:wh=0"), &whole, &ex) && !whole && ex.len == 0);
    CHECK(!fl_sdb_bloom_name_parse(NAME("_bfx"), &whole, &ex));
    CHECK(!fl_sdb_bloom_name_parse(NAME("ribbon"), &whole, &ex));
#undef NAME
}

FL_TEST(sdb_bloom_expected_fp_is_exact) {
    uint64_t seed = 99;
    static const uint32_t sizes[] = { 8, 16, 24, 56, 64, 72, 120, 200, 512, 1000 };
    static const uint32_t ks[] = { 1, 2, 3, 4, 6, 7, 13 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        uint8_t bits[125];
        for (int fill = 1; fill <= 3; fill++) {
            for (uint32_t i = 0; i < sizes[s] / 8; i++) {
                uint8_t v = 0;
                for (int j = 0; j < 8; j++) v |= (uint8_t)((fl_test_rand(&seed) % 4 < (uint64_t)fill) << j);
                bits[i] = v;
            }
            for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
                fl_sdb_bloom b = { sizes[s], ks[ki], bits };
                double exact = fl_sdb_bloom_expected_fp(&b), brute = brute_fp(&b);
                if (fabs(exact - brute) > 1e-12 * (brute > 1e-300 ? brute : 1))
                    fl_test_fail(__FILE__, __LINE__, "m=%u k=%u fill=%d/4: exact %.17g, brute force %.17g",
                                 sizes[s], ks[ki], fill, exact, brute);
            }
        }
    }
    /* all bits set: 1; none: 0; no probes: 1; no bits: 0 */
    uint8_t ones[8], zeros[8] = { 0 };
    memset(ones, 0xff, sizeof ones);
    CHECK(fl_sdb_bloom_expected_fp(&(fl_sdb_bloom){ 64, 6, ones }) == 1.0);
    CHECK(fl_sdb_bloom_expected_fp(&(fl_sdb_bloom){ 64, 6, zeros }) == 0.0);
    CHECK(fl_sdb_bloom_expected_fp(&(fl_sdb_bloom){ 64, 0, zeros }) == 1.0);
    CHECK(fl_sdb_bloom_expected_fp(&(fl_sdb_bloom){ 0, 6, zeros }) == 0.0);
    /* one probe: the weighted share of set bits, d plays no part */
    uint8_t one[3] = { 0x01, 0, 0 };               /* bit 0 of 24: 2^32 = 178956970*24 + 16 */
    double p = fl_sdb_bloom_expected_fp(&(fl_sdb_bloom){ 24, 1, one });
    CHECK(fabs(p - 178956971.0 / 4294967296.0) < 1e-15);
}
