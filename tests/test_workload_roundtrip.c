/*
 * test_workload_roundtrip.c -- the workload format's round trip print ->
 * parse -> print on hand-written and seeded random workloads, appending ops
 * (fl_workload_add copies and checks), loading files, the shipped samples
 * and the L0 generator.  The random test prints its seed on failure;
 * FL_WL_SEED=N reruns it from seed N.
 */
#include "test_workload.h"

#include <errno.h>

/* ---- Round trips -------------------------------------------------------- */

static const char *canonical_text =
    "# A hand-written workload in canonical spelling.\n"
    "#\n"
    "#   indented line\n"
    HDR
    "open policies=bloom(bits=10,prefix=fixed:4);bloom(bits=8) memtable_bytes=4096 l0_trigger=4\n"
    "put user:0001:a v1\n"
    "put \"\" empty-key\n"
    "put \"k\\x00\\xff\" \"\\n\\t\\\\\\\"= \"\n"
    "del user:0001:a\n"
    "delrange user:0000 user:0002\n"
    "get user:0001:a\n"
    "get \"\" ctx=\n"
    "get \"k\\x00\\xff\" ctx=0001feff\n"
    "scan_prefix user: ctx=00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001\n"
    "scan_prefix \"user \"\n"
    "scan \"\" \"\\xff\\xff\"\n"
    "flush\n"
    "compact\n"
    "compact full\n"
    "reopen policies=none compactor=\"bloom(bits=10,prefix=delim:\\\\x3a)\" legacy_filters=1\n"
    "reopen policies=\"\"\n";

FL_TEST(workload_roundtrip_handwritten) {
    fl_workload w, w2;
    char err[512];
    CHECK_OK(parse_str(canonical_text, &w, err, sizeof err));
    CHECK_EQ(w.count, 17);
    char *t1 = print_workload(&w);
    CHECK_STR(t1, canonical_text);
    CHECK_OK(parse_str(t1 ? t1 : "", &w2, err, sizeof err));
    CHECK(workloads_equal(&w, &w2));
    fl_workload_free(&w2);
    fl_workload_free(&w);
    free(t1);

    /* A sloppy spelling prints canonically, and that is a fixpoint. */
    const char *sloppy =
        "  #comment\n\n" HDR
        "   open   l0_trigger=\"4\"\tpolicies=\"none\"  \n"
        "put \"abc\" \"\\x41\"\n"
        "get \"k\" ctx=ABCD\n"
        "compact   full  \n";
    CHECK_OK(parse_str(sloppy, &w, err, sizeof err));
    t1 = print_workload(&w);
    CHECK_STR(t1, "# comment\n" HDR "open l0_trigger=4 policies=none\nput abc A\n"
                  "get k ctx=abcd\ncompact full\n");
    CHECK_OK(parse_str(t1 ? t1 : "", &w2, err, sizeof err));
    char *t2 = print_workload(&w2);
    CHECK_STR(t2, t1);
    CHECK(workloads_equal(&w, &w2));
    fl_workload_free(&w2);
    fl_workload_free(&w);
    free(t1);
    free(t2);
}

/* xorshift64*: deterministic from the seed. */
static uint64_t rng_next(uint64_t *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}
static size_t rng_below(uint64_t *s, size_t n) { return n ? (size_t)(rng_next(s) % n) : 0; }

/* Random bytes, biased toward the ones that need quoting. */
static void random_bytes(uint64_t *s, uint8_t *out, size_t len) {
    static const uint8_t special[] = { 0, 0xff, ' ', '"', '\\', '=', '\n', '\t', '\r', '#', 0x7f };
    int style = (int)rng_below(s, 4);
    for (size_t i = 0; i < len; i++) {
        switch (style) {
        case 0: out[i] = (uint8_t)('a' + rng_below(s, 26)); break;           /* bare */
        case 1: out[i] = (uint8_t)(0x21 + rng_below(s, 0x5e)); break;        /* printable */
        case 2: out[i] = special[rng_below(s, sizeof special)]; break;
        default: out[i] = (uint8_t)rng_next(s); break;                       /* binary */
        }
    }
}

static size_t random_len(uint64_t *s, size_t max) {
    switch (rng_below(s, 8)) {
    case 0: return 0;
    case 1: return rng_below(s, max + 1);
    default: return rng_below(s, 12);
    }
}

static void random_description(uint64_t *s, char *out, size_t cap) {
    size_t n = rng_below(s, 4) ? 0 : rng_below(s, cap);
    for (size_t i = 0; i < n; i++) {
        size_t r = rng_below(s, 20);
        out[i] = r == 0 ? '\n' : r == 1 ? '#' : r == 2 ? ' ' : (char)(0x20 + rng_below(s, 0x5f));
    }
    out[n] = 0;
}

/* A random workload built through fl_workload_add; -1 if add refused. */
static int random_workload(uint64_t *s, fl_workload *w, char *desc, size_t desc_cap) {
    memset(w, 0, sizeof *w);
    random_description(s, desc, desc_cap);
    w->description = strdup(desc);
    if (!w->description) return -1;
    size_t ops = rng_below(s, 40);
    for (size_t i = 0; i < ops; i++) {
        uint8_t a[300], b[300];
        char vals[9][40];
        fl_wl_option opts[9];
        fl_op op;
        memset(&op, 0, sizeof op);
        size_t r = rng_below(s, 12);                    /* OPEN..REOPEN, then CRASH, MULTIGET */
        op.kind = r < 10 ? (fl_op_kind)(FL_OP_OPEN + r) : r == 10 ? FL_OP_CRASH : FL_OP_MULTIGET;
        if (op.kind == FL_OP_OPEN && i != 0) op.kind = FL_OP_REOPEN;
        op.line = (unsigned)i + 2;
        op.a.len = random_len(s, sizeof a);
        op.b.len = random_len(s, sizeof b);
        random_bytes(s, a, op.a.len);
        random_bytes(s, b, op.b.len);
        op.a.data = a;
        op.b.data = b;
        uint8_t *packed = NULL;
        if (op.kind == FL_OP_CRASH && rng_below(s, 2))
            op.count = 1 + (uint32_t)rng_below(s, FL_WL_CRASH_AFTER_MAX);
        if (op.kind == FL_OP_MULTIGET) {                 /* 1-4 keys, packed */
            size_t len = 0, n = 1 + rng_below(s, 4);
            for (size_t k = 0; k < n; k++) {
                size_t kl = random_len(s, 40);
                if (fl_op_multiget_pack(&packed, &len, a, kl) != 0) return -1;
                random_bytes(s, packed + len - kl, kl);
            }
            op.a = (fl_bytes){ packed, len };
            op.count = (uint32_t)n;
        }
        if ((op.kind == FL_OP_GET || op.kind == FL_OP_SCAN_PREFIX || op.kind == FL_OP_MULTIGET) &&
            rng_below(s, 2)) {
            op.has_ctx = true;
            op.ctx_len = rng_below(s, 3) ? rng_below(s, 9) : rng_below(s, FL_WL_CTX_MAX + 1);
            random_bytes(s, op.ctx, op.ctx_len);
        }
        op.full = op.kind == FL_OP_COMPACT && rng_below(s, 2);
        if (op.kind == FL_OP_OPEN || op.kind == FL_OP_REOPEN) {
            /* a random non-empty (for reopen) subset of the keys, in random order */
            size_t order[9];
            for (size_t k = 0; k < 9; k++) order[k] = k;
            for (size_t k = 9; k > 1; k--) {
                size_t j = rng_below(s, k), t = order[k - 1];
                order[k - 1] = order[j];
                order[j] = t;
            }
            size_t n = op.kind == FL_OP_REOPEN ? 1 + rng_below(s, 9) : rng_below(s, 10);
            for (size_t k = 0; k < n; k++) {
                size_t vlen = random_len(s, sizeof vals[k] - 1);
                random_bytes(s, (uint8_t *)vals[k], vlen);
                for (size_t c = 0; c < vlen; c++) if (!vals[k][c]) vals[k][c] = 'z';
                vals[k][vlen] = 0;
                opts[k].key = (char *)fl_wl_option_keys[order[k]];
                opts[k].value = vals[k];
            }
            op.opt_count = n;
            op.opts = opts;
        }
        int rc = fl_workload_add(w, &op);
        free(packed);
        if (rc != 0) return -1;
    }
    return 0;
}

FL_TEST(workload_roundtrip_random) {
    uint64_t base = 0x5eed0f11ULL;
    const char *env = getenv("FL_WL_SEED");
    if (env && *env) base = strtoull(env, NULL, 0);
    for (int iter = 0; iter < 1000; iter++) {
        uint64_t seed = base + (uint64_t)iter;
        uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 1;   /* never 0 */
        fl_workload w, w2;
        char desc[200];
        bool ok = random_workload(&s, &w, desc, sizeof desc) == 0;
        char *t1 = ok ? print_workload(&w) : NULL;
        char err[512] = "";
        ok = ok && t1 && parse_str(t1, &w2, err, sizeof err) == 0;
        char *t2 = NULL;
        if (ok) {
            t2 = print_workload(&w2);
            ok = workloads_equal(&w, &w2) && t2 && strcmp(t1, t2) == 0;
            fl_workload_free(&w2);
        }
        if (!ok) {
            fl_test_fail(__FILE__, __LINE__,
                         "round trip failed for seed %llu (%s); rerun with "
                         "FL_WL_SEED=%llu build/tests/unit workload_roundtrip_random\n%s",
                         (unsigned long long)seed, err[0] ? err : "texts or ops differ",
                         (unsigned long long)seed, t1 ? t1 : "(no text)");
        }
        fl_workload_free(&w);
        free(t1);
        free(t2);
        if (!ok) return;
    }
}

/* ---- Appending ---------------------------------------------------------- */

FL_TEST(workload_add_copies_and_checks) {
    fl_workload w;
    memset(&w, 0, sizeof w);
    char key[8] = "key";
    fl_op op;
    memset(&op, 0, sizeof op);
    op.kind = FL_OP_PUT;
    op.a = (fl_bytes){ (uint8_t *)key, 3 };
    op.b = (fl_bytes){ NULL, 0 };                       /* empty value, no data */
    op.has_ctx = true;                                  /* ignored for put */
    op.ctx_len = 5;
    for (int i = 0; i < 100; i++) {
        op.line = (unsigned)i;
        CHECK_OK(fl_workload_add(&w, &op));
    }
    key[0] = 'X';                                       /* the workload has its own copy */
    CHECK_EQ(w.count, 100);
    CHECK(BYTES_IS(w.ops[99].a, "key"));
    CHECK(w.ops[99].b.data && w.ops[99].b.len == 0);
    CHECK(!w.ops[99].has_ctx);
    CHECK_EQ(w.ops[42].line, 42);

    fl_op flush;
    memset(&flush, 0, sizeof flush);
    flush.kind = FL_OP_FLUSH;
    flush.a = (fl_bytes){ (uint8_t *)key, 3 };          /* unused: not copied */
    CHECK_OK(fl_workload_add(&w, &flush));
    CHECK(w.ops[100].a.data && w.ops[100].a.len == 0);

    /* Refused: what parse would refuse. */
    fl_wl_option opts[2] = { { "l0_trigger", "4" }, { "l0_trigger", "5" } };
    fl_op bad;
    memset(&bad, 0, sizeof bad);
    bad.kind = FL_OP_OPEN;                              /* not first */
    CHECK_RC(fl_workload_add(&w, &bad), -1);
    bad.kind = FL_OP_REOPEN;                            /* no options */
    CHECK_RC(fl_workload_add(&w, &bad), -1);
    bad.opts = opts;
    bad.opt_count = 2;                                  /* duplicate key */
    CHECK_RC(fl_workload_add(&w, &bad), -1);
    opts[1].key = "l0_triggers";                        /* unknown key */
    CHECK_RC(fl_workload_add(&w, &bad), -1);
    opts[1].key = "max_runs";
    CHECK_OK(fl_workload_add(&w, &bad));
    opts[1].value = "changed";
    CHECK_STR(w.ops[101].opts[1].value, "5");
    memset(&bad, 0, sizeof bad);
    bad.kind = FL_OP_GET;
    bad.has_ctx = true;
    bad.ctx_len = FL_WL_CTX_MAX + 1;
    CHECK_RC(fl_workload_add(&w, &bad), -1);
    bad.ctx_len = 2;
    bad.ctx[2] = 7;                                     /* beyond ctx_len: not copied */
    CHECK_OK(fl_workload_add(&w, &bad));
    CHECK_EQ(w.ops[102].ctx[2], 0);
    bad.a.len = FL_WL_TEST_KEY_MAX + 1;
    bad.a.data = calloc(1, bad.a.len);
    CHECK_RC(fl_workload_add(&w, &bad), -1);
    free(bad.a.data);
    bad.kind = (fl_op_kind)42;
    bad.a.len = 0;
    CHECK_RC(fl_workload_add(&w, &bad), -1);
    CHECK_EQ(w.count, 103);
    /* counts are copied: a crash's file operation, a multiget's keys (each
     * checked against the packed bytes) */
    memset(&bad, 0, sizeof bad);
    bad.kind = FL_OP_CRASH;
    bad.count = FL_WL_CRASH_AFTER_MAX + 1;
    CHECK_RC(fl_workload_add(&w, &bad), -1);
    bad.count = 77;
    CHECK_OK(fl_workload_add(&w, &bad));
    CHECK_EQ(w.ops[103].count, 77);
    uint8_t *packed = NULL;
    size_t plen = 0;
    CHECK_OK(fl_op_multiget_pack(&packed, &plen, (const uint8_t *)"k1", 2));
    CHECK_OK(fl_op_multiget_pack(&packed, &plen, (const uint8_t *)"", 0));
    bad.kind = FL_OP_MULTIGET;
    bad.a = (fl_bytes){ packed, plen };
    bad.count = 3;                                      /* more than packed */
    CHECK_RC(fl_workload_add(&w, &bad), -1);
    bad.count = 0;
    CHECK_RC(fl_workload_add(&w, &bad), -1);
    bad.a.len = plen - 1;                               /* a key cut short */
    bad.count = 2;
    CHECK_RC(fl_workload_add(&w, &bad), -1);
    bad.a.len = plen;
    CHECK_OK(fl_workload_add(&w, &bad));
    CHECK_EQ(w.ops[104].count, 2);
    free(packed);
    CHECK_EQ(w.count, 105);

    char *t = print_workload(&w);
    CHECK(t != NULL);
    fl_workload w2;
    char err[256];
    CHECK_OK(parse_str(t ? t : "", &w2, err, sizeof err));
    CHECK(workloads_equal(&w, &w2));
    fl_workload_free(&w2);
    free(t);
    fl_workload_free(&w);
    CHECK(workload_empty(&w));

    /* Appending to a parsed workload, across its growth. */
    CHECK_OK(parse_str(HDR "flush\nflush\nflush\nflush\nflush\nflush\nflush\nflush\n",
                       &w, err, sizeof err));
    for (int i = 0; i < 20; i++) CHECK_OK(fl_workload_add(&w, &flush));
    CHECK_EQ(w.count, 28);
    fl_workload_free(&w);
}

/* ---- Files, samples, generator ------------------------------------------ */

FL_TEST(workload_load_files) {
    char path[4200];
    snprintf(path, sizeof path, "%s/w.wl", fl_test_tmpdir());
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs("# loaded\n" HDR "put a b\nget a\nbogus\n", f);
    fclose(f);
    fl_workload w;
    char err[8192];
    CHECK_RC(fl_workload_load(path, &w, err, sizeof err), -1);
    char want[4300];
    snprintf(want, sizeof want, "%s:5: expected an op", path);
    CHECK_CONTAINS(err, want);
    CHECK(workload_empty(&w));

    f = fopen(path, "w");
    if (!f) return;
    fputs("# loaded\n" HDR "put a b\nget a\n", f);
    fclose(f);
    CHECK_OK(fl_workload_load(path, &w, err, sizeof err));
    CHECK_STR(w.description, "loaded");
    CHECK_EQ(w.count, 2);
    fl_workload_free(&w);

    snprintf(path, sizeof path, "%s/missing.wl", fl_test_tmpdir());
    CHECK_RC(fl_workload_load(path, &w, err, sizeof err), -1);
    CHECK_CONTAINS(err, path);
    CHECK_CONTAINS(err, strerror(ENOENT));
    CHECK(workload_empty(&w));

    CHECK_RC(fl_workload_load(fl_test_tmpdir(), &w, err, sizeof err), -1);
    CHECK_CONTAINS(err, fl_test_tmpdir());
    CHECK_CONTAINS(err, strerror(EISDIR));
}

FL_TEST(workload_samples_parse_and_round_trip) {
    static const char *const names[] = {
        "basic.wl", "prefix_scans.wl", "migration.wl", "legacy.wl", "tombstones.wl",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/workloads/%s", fl_test_srcdir(), names[i]);
        fl_workload w, w2;
        char err[1024];
        if (fl_workload_load(path, &w, err, sizeof err) != 0) {
            fl_test_fail(__FILE__, __LINE__, "%s", err);
            continue;
        }
        if (!w.description[0] || w.count < 10 || w.ops[0].kind != FL_OP_OPEN)
            fl_test_fail(__FILE__, __LINE__, "%s: wants a description, an open and ops", path);
        char *t1 = print_workload(&w);
        if (!t1 || parse_str(t1, &w2, err, sizeof err) != 0) {
            fl_test_fail(__FILE__, __LINE__, "%s: reprint does not parse: %s", path, err);
        } else {
            char *t2 = print_workload(&w2);
            if (!workloads_equal(&w, &w2) || !t2 || strcmp(t1, t2) != 0)
                fl_test_fail(__FILE__, __LINE__, "%s: round trip differs", path);
            free(t2);
            fl_workload_free(&w2);
        }
        free(t1);
        fl_workload_free(&w);
    }
}

FL_TEST(workload_gen_l0_fp_shape) {
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "sh '%s/workloads/gen/l0_fp.sh' 100 4", fl_test_srcdir());
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL);
    if (!p) return;
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    size_t got;
    while (text && (got = fread(text + len, 1, cap - len, p)) > 0) {
        len += got;
        if (len == cap) {
            char *grown = realloc(text, cap * 2);
            if (!grown) { free(text); text = NULL; break; }
            text = grown;
            cap *= 2;
        }
    }
    CHECK_EQ(pclose(p), 0);
    CHECK(text != NULL);
    if (!text) return;
    fl_workload w;
    char err[512];
    CHECK_OK(fl_workload_parse(text, len, "l0_fp", &w, err, sizeof err));
    free(text);
    /* open, 100 puts and 4 flushes, one get per odd number between the keys */
    CHECK_EQ(w.count, 1 + 100 + 4 + 99);
    if (w.count != 204) { fl_workload_free(&w); return; }
    CHECK(w.description[0] != 0);
    CHECK_EQ(w.ops[0].kind, FL_OP_OPEN);
    CHECK_STR(opt_value(&w.ops[0], "policies"), "bloom(bits=10)");
    CHECK_STR(opt_value(&w.ops[0], "l0_trigger"), "1000000");
    CHECK(BYTES_IS(w.ops[1].a, "k000000000"));          /* SST 0: k = 0, 4, 8, ... */
    CHECK(BYTES_IS(w.ops[2].a, "k000000008"));
    CHECK_EQ(w.ops[26].kind, FL_OP_FLUSH);
    CHECK(BYTES_IS(w.ops[27].a, "k000000002"));         /* SST 1: k = 1, 5, ... */
    size_t flushes = 0, gets = 0;
    for (size_t i = 0; i < w.count; i++) {
        if (w.ops[i].kind == FL_OP_FLUSH) flushes++;
        if (w.ops[i].kind == FL_OP_GET) {
            gets++;
            CHECK_EQ(w.ops[i].a.len, 10);
            CHECK((w.ops[i].a.data[9] - '0') % 2 == 1);
        }
    }
    CHECK_EQ(flushes, 4);
    CHECK_EQ(gets, 99);
    CHECK(BYTES_IS(w.ops[105].a, "k000000001"));
    CHECK(BYTES_IS(w.ops[203].a, "k000000197"));
    fl_workload_free(&w);
}

/* Appended ops' bytes live in the workload's arena (workload.c): they stay
 * put while more are appended (an op copied from the workload itself, a
 * string longer than a block), survive the ops being moved to a new array
 * as the crash trials do, mix with parsed ops that own their bytes, and go
 * with fl_workload_free (the ASan build checks for leaks and double frees). */
FL_TEST(workload_add_arena_ownership) {
    fl_workload p;
    char err[512];
    CHECK_OK(parse_str(HDR "open memtable_bytes=64\nput pk pv\nget pk\n", &p, err, sizeof err));
    CHECK_EQ(p.count, 3);
    CHECK(!p.ops[1].in_arena);
    fl_workload w = { 0 };
    for (size_t i = 0; i < p.count; i++) CHECK_OK(fl_workload_add(&w, &p.ops[i]));
    CHECK(w.arena != NULL);
    CHECK(w.ops[1].in_arena && w.ops[2].in_arena);
    CHECK(w.ops[0].a.data && w.ops[0].b.data && w.ops[0].a.len == 0);
    static uint8_t big[100000];
    for (size_t i = 0; i < sizeof big; i++) big[i] = (uint8_t)(i * 7);
    fl_op put = { .kind = FL_OP_PUT, .line = 9, .a = { (uint8_t *)"k", 1 }, .b = { big, sizeof big } };
    const uint8_t *first = w.ops[1].a.data;
    for (int i = 0; i < 3000; i++) CHECK_OK(fl_workload_add(&w, i % 1000 == 1 ? &put : &p.ops[1]));
    fl_op self = w.ops[3];                    /* bytes from w's own arena */
    CHECK_OK(fl_workload_add(&w, &self));
    CHECK(w.ops[1].a.data == first);          /* blocks never move */
    CHECK(BYTES_IS(w.ops[1].a, "pk") && BYTES_IS(w.ops[1].b, "pv"));
    CHECK(BYTES_IS(w.ops[w.count - 1].a, "pk"));
    CHECK_MEM(w.ops[4].b.data, w.ops[4].b.len, big, sizeof big);
    /* moved to a new array with a zeroed op among them (runner.c's crashes) */
    fl_op *moved = calloc(w.count + 1, sizeof *moved);
    CHECK(moved != NULL);
    if (moved) {
        moved[0] = w.ops[0];
        moved[1] = (fl_op){ .kind = FL_OP_CRASH };
        memcpy(moved + 2, w.ops + 1, (w.count - 1) * sizeof *moved);
        free(w.ops);
        w.ops = moved;
        w.count++;
        CHECK(BYTES_IS(w.ops[2].a, "pk"));
    }
    /* a parsed op (owning its bytes) appended to the workload by hand */
    fl_workload q;
    CHECK_OK(parse_str(HDR "put qk qv\n", &q, err, sizeof err));
    if (q.count == 1 && moved) {
        w.ops[w.count - 1] = q.ops[0];        /* replaces a copy (arena bytes: nothing to free) */
        q.count = 0;
    }
    fl_workload_free(&q);
    fl_workload_free(&w);
    CHECK(w.arena == NULL && w.ops == NULL && w.count == 0);
    fl_workload_free(&p);
}
