/*
 * test_gen.c -- unit tests of the workload generators' API (workload.h,
 * fl_gen_*): shape names and defaults; every shape round-trips through print
 * and parse; generation is deterministic (same options, same bytes; another
 * seed, other bytes) and a sink sees the same ops; op counts, the op mix and
 * the flush/compact/reopen rates are honoured; reopens take their options
 * in turn; contexts follow their rate; bad options, and a missing word list,
 * are clean errors naming what is wrong.  test_gen_keys.c tests the keys.
 *
 * The words shape is tested on a small word list the test writes, so it runs
 * without Debian's wamerican.
 */
#include "test_gen.h"

/* ---- Names and defaults -------------------------------------------------- */

FL_TEST(gen_shape_names_and_defaults) {
    static const char *const names[] = { "uniform", "zipf", "group-suffix", "delimited",
                                         "timeseries", "adversarial", "words" };
    for (size_t i = 0; i < SHAPES; i++) {
        fl_gen_shape s = 0;
        CHECK_OK(fl_gen_shape_parse(names[i], &s));
        CHECK_EQ(s, all_shapes[i]);
        CHECK_STR(fl_gen_shape_name(all_shapes[i]), names[i]);
        fl_gen_options o;
        fl_gen_defaults(&o, all_shapes[i]);
        CHECK_EQ(o.shape, all_shapes[i]);
        CHECK_EQ(o.ops, 10000);
        CHECK(o.keys > 0);
        CHECK(o.theta > 0 && o.theta < 1);
        CHECK(o.w_get_absent > 0 && o.w_prefix_absent > 0 && o.w_put > 0);
        CHECK(o.value_min <= o.value_max);
        CHECK(o.sink == NULL && o.open_options == NULL && o.reopen_count == 0);
    }
    fl_gen_shape s = FL_SHAPE_ZIPF;
    CHECK_RC(fl_gen_shape_parse("Uniform", &s), -1);
    CHECK_RC(fl_gen_shape_parse("", &s), -1);
    CHECK_RC(fl_gen_shape_parse(NULL, &s), -1);
    CHECK_EQ(s, FL_SHAPE_ZIPF);
    CHECK_STR(fl_gen_shape_name((fl_gen_shape)99), "?");
}

/* ---- Round trip and determinism ------------------------------------------ */

static const char *const two_reopens[] = {
    "policies=\"bloom(bits=10,prefix=fixed:3)\"",
    "policies=\"bloom(bits=8,prefix=fixed:4,whole_key=0);bloom(bits=10)\" memtable_bytes=4096",
};

FL_TEST(gen_every_shape_round_trips) {
    for (size_t i = 0; i < SHAPES; i++) {
        fl_gen_options o;
        defaults(&o, all_shapes[i]);
        o.ops = 3000;
        o.ctx_rate = 0.2;
        o.reopen_every = 300;
        o.open_options = "policies=\"bloom(bits=10,prefix=fixed:5)\" memtable_bytes=8192";
        o.reopen_options = two_reopens;
        o.reopen_count = 2;
        fl_workload w, back;
        if (!generate(&o, &w)) continue;
        CHECK_EQ(w.count, 3000);
        char *text = print_workload(&w);
        CHECK(text != NULL);
        char err[1024] = "";
        int rc = text ? fl_workload_parse(text, strlen(text), "gen.wl", &back, err, sizeof err) : -1;
        if (rc != 0) fl_test_fail(__FILE__, __LINE__, "%s: parse back: %s",
                                  fl_gen_shape_name(o.shape), err);
        if (rc == 0) {
            CHECK_EQ(back.count, w.count);
            for (size_t k = 0; k < w.count && k < back.count; k++) {
                if (ops_equal(&w.ops[k], &back.ops[k]) && w.ops[k].line == back.ops[k].line) continue;
                fl_test_fail(__FILE__, __LINE__, "%s: op %zu differs after print -> parse",
                             fl_gen_shape_name(o.shape), k);
                break;
            }
            char *again = print_workload(&back);
            CHECK(again && strcmp(again, text) == 0);
            free(again);
            fl_workload_free(&back);
        }
        free(text);
        fl_workload_free(&w);
    }
}

FL_TEST(gen_is_deterministic) {
    for (size_t i = 0; i < SHAPES; i++) {
        fl_gen_options o;
        defaults(&o, all_shapes[i]);
        o.ops = 2000;
        o.ctx_rate = 0.1;
        fl_workload a, b, c;
        if (!generate(&o, &a)) continue;
        if (!generate(&o, &b)) { fl_workload_free(&a); continue; }
        o.seed = 2;
        if (!generate(&o, &c)) { fl_workload_free(&a); fl_workload_free(&b); continue; }
        char *ta = print_workload(&a), *tb = print_workload(&b), *tc = print_workload(&c);
        CHECK(ta && tb && tc);
        if (ta && tb && strcmp(ta, tb) != 0)
            fl_test_fail(__FILE__, __LINE__, "%s: same seed, different bytes", fl_gen_shape_name(o.shape));
        if (ta && tc && strcmp(ta, tc) == 0)
            fl_test_fail(__FILE__, __LINE__, "%s: seeds 1 and 2 gave the same bytes",
                         fl_gen_shape_name(o.shape));
        free(ta); free(tb); free(tc);
        fl_workload_free(&a); fl_workload_free(&b); fl_workload_free(&c);
    }
}

/* A sink sees exactly the ops that would be stored. */
typedef struct sink_state { fl_workload w; size_t calls; int fail_at; } sink_state;

static int test_sink(void *arg, const fl_op *op) {
    sink_state *s = arg;
    if ((int)++s->calls == s->fail_at) return -1;
    return fl_workload_add(&s->w, op);
}

FL_TEST(gen_sink_streams_the_same_ops) {
    fl_gen_options o;
    defaults(&o, FL_SHAPE_GROUP_SUFFIX);
    o.ops = 1500;
    fl_workload stored;
    if (!generate(&o, &stored)) return;
    CHECK_STR(stored.description, "");
    sink_state s;
    memset(&s, 0, sizeof s);
    o.sink = test_sink;
    o.sink_arg = &s;
    char err[256];
    CHECK_OK(fl_gen_workload(&o, NULL, err, sizeof err));
    CHECK_EQ(s.w.count, stored.count);
    for (size_t i = 0; i < stored.count && i < s.w.count; i++) {
        CHECK(ops_equal(&stored.ops[i], &s.w.ops[i]));
        CHECK_EQ(stored.ops[i].line, i + 2);
        CHECK_EQ(s.w.ops[i].line, i + 2);
    }
    fl_workload_free(&s.w);
    /* a failing sink stops generation with an error */
    memset(&s, 0, sizeof s);
    s.fail_at = 10;
    CHECK_RC(fl_gen_workload(&o, NULL, err, sizeof err), -1);
    CHECK_CONTAINS(err, "sink");
    CHECK_EQ(s.calls, 10);
    fl_workload_free(&s.w);
    fl_workload_free(&stored);
}

/* ---- Counts, mix and rates --------------------------------------------------- */

FL_TEST(gen_op_counts_mix_and_rates) {
    for (size_t i = 0; i < SHAPES; i++) {
        fl_gen_options o;
        defaults(&o, all_shapes[i]);
        o.ops = 20000;
        o.flush_every = 100;
        o.compact_every = 500;
        o.reopen_every = 1000;
        o.open_options = "policies=\"bloom(bits=10)\"";
        fl_workload w;
        if (!generate(&o, &w)) continue;
        const char *name = fl_gen_shape_name(o.shape);
        CHECK_EQ(w.count, 20000);
        if (w.count == 0) { fl_workload_free(&w); continue; }
        CHECK_EQ(w.ops[0].kind, FL_OP_OPEN);
        CHECK_EQ(w.ops[0].opt_count, 1);
        size_t n[FL_OP_LAST + 1] = { 0 }, full = 0, present_gets = 0, absent_gets = 0;
        str_set put_keys = puts_before(&w, w.count);
        written_view v = { &w, 0, { NULL, 0, 0 } };
        for (size_t k = 0; k < w.count; k++) {
            const fl_op *op = &w.ops[k];
            n[op->kind]++;
            full += op->kind == FL_OP_COMPACT && op->full;
            if (op->kind == FL_OP_GET) {
                view_advance(&v, k);
                if (set_has(&v.s, &op->a)) present_gets++;
                else absent_gets++;
            }
            if (op->kind == FL_OP_OPEN) CHECK_EQ(k, 0);
        }
        free(v.s.v);
        free(put_keys.v);
        /* maintenance: 1/100, 1/500, 1/1000 of 20000 (within 4 sigma) */
        if (n[FL_OP_FLUSH] < 140 || n[FL_OP_FLUSH] > 260)
            fl_test_fail(__FILE__, __LINE__, "%s: %zu flushes, expected ~200", name, n[FL_OP_FLUSH]);
        if (n[FL_OP_COMPACT] < 20 || n[FL_OP_COMPACT] > 60)
            fl_test_fail(__FILE__, __LINE__, "%s: %zu compactions, expected ~40", name, n[FL_OP_COMPACT]);
        CHECK(full > 0 && full < n[FL_OP_COMPACT]);
        if (n[FL_OP_REOPEN] < 8 || n[FL_OP_REOPEN] > 35)
            fl_test_fail(__FILE__, __LINE__, "%s: %zu reopens, expected ~20", name, n[FL_OP_REOPEN]);
        /* the mix: weights out of 104, over the ops that are not maintenance */
        size_t mixed = w.count - 1 - n[FL_OP_FLUSH] - n[FL_OP_COMPACT] - n[FL_OP_REOPEN];
        const struct { const char *what; size_t got; unsigned weight; } mix[] = {
            { "put", n[FL_OP_PUT], 45 }, { "del", n[FL_OP_DEL], 5 },
            { "delrange", n[FL_OP_DELRANGE], 1 }, { "get", present_gets, 20 },
            { "get_absent", absent_gets, 15 }, { "scan_prefix", n[FL_OP_SCAN_PREFIX], 10 },
            { "scan", n[FL_OP_SCAN], 4 }, { "seek", n[FL_OP_SEEK] + n[FL_OP_SEEK_FOR_PREV], 4 },
        };
        for (size_t m = 0; m < sizeof mix / sizeof mix[0]; m++) {
            double got = 104.0 * (double)mix[m].got / (double)mixed;
            if (got < mix[m].weight * 0.85 - 0.3 || got > mix[m].weight * 1.15 + 0.3)
                fl_test_fail(__FILE__, __LINE__, "%s: %s is %.2f%% of the mix, weight %u%%",
                             name, mix[m].what, got, mix[m].weight);
        }
        fl_workload_free(&w);
    }
}

FL_TEST(gen_small_and_zero_op_counts) {
    fl_gen_options o;
    defaults(&o, FL_SHAPE_UNIFORM);
    fl_workload w;
    for (uint64_t ops = 0; ops < 4; ops++) {
        o.ops = ops;
        if (!generate(&o, &w)) continue;
        CHECK_EQ(w.count, ops);
        if (ops) CHECK_EQ(w.ops[0].kind, FL_OP_OPEN);
        if (ops) CHECK_EQ(w.ops[0].opt_count, 0);          /* no open options */
        CHECK(w.description != NULL);
        fl_workload_free(&w);
    }
}

/* ---- Reopens and errors ------------------------------------------------------- */

static const char *opt_value(const fl_op *op, const char *key) {
    for (size_t i = 0; i < op->opt_count; i++)
        if (strcmp(op->opts[i].key, key) == 0) return op->opts[i].value;
    return NULL;
}

FL_TEST(gen_reopens_take_their_options_in_turn) {
    fl_gen_options o;
    defaults(&o, FL_SHAPE_DELIMITED);
    o.ops = 4000;
    o.reopen_every = 100;
    o.open_options = "policies=\"bloom(bits=10,prefix=delim::)\" l0_trigger=2";
    o.reopen_options = two_reopens;
    o.reopen_count = 2;
    fl_workload w;
    if (!generate(&o, &w)) return;
    CHECK_STR(opt_value(&w.ops[0], "policies"), "bloom(bits=10,prefix=delim::)");
    CHECK_STR(opt_value(&w.ops[0], "l0_trigger"), "2");
    size_t r = 0;
    for (size_t k = 0; k < w.count; k++) {
        if (w.ops[k].kind != FL_OP_REOPEN) continue;
        const char *p = opt_value(&w.ops[k], "policies");
        CHECK_STR(p, r % 2 ? "bloom(bits=8,prefix=fixed:4,whole_key=0);bloom(bits=10)"
                           : "bloom(bits=10,prefix=fixed:3)");
        CHECK_EQ(w.ops[k].opt_count, r % 2 ? 2 : 1);
        r++;
    }
    CHECK(r > 10);
    fl_workload_free(&w);
    /* no reopen options: each reopen repeats the open's policies */
    o.reopen_options = NULL;
    o.reopen_count = 0;
    if (!generate(&o, &w)) return;
    for (size_t k = 0; k < w.count; k++)
        if (w.ops[k].kind == FL_OP_REOPEN) {
            CHECK_EQ(w.ops[k].opt_count, 1);
            CHECK_STR(opt_value(&w.ops[k], "policies"), "bloom(bits=10,prefix=delim::)");
        }
    fl_workload_free(&w);
    /* ... or the default bloom when the open gives none */
    o.open_options = "memtable_bytes=4096";
    if (!generate(&o, &w)) return;
    for (size_t k = 0; k < w.count; k++)
        if (w.ops[k].kind == FL_OP_REOPEN) CHECK_STR(opt_value(&w.ops[k], "policies"), "bloom(bits=10)");
    fl_workload_free(&w);
}

FL_TEST(gen_contexts_follow_the_rate) {
    fl_gen_options o;
    defaults(&o, FL_SHAPE_UNIFORM);
    o.ops = 3000;
    o.ctx_rate = 1;
    fl_workload w;
    if (!generate(&o, &w)) return;
    size_t reads = 0, lens = 0;
    bool full = false;
    for (size_t k = 0; k < w.count; k++) {
        const fl_op *op = &w.ops[k];
        if (op->kind == FL_OP_GET || op->kind == FL_OP_SCAN_PREFIX) {
            reads++;
            CHECK(op->has_ctx && op->ctx_len <= FL_WL_CTX_MAX);
            lens += op->ctx_len;
            full |= op->ctx_len == FL_WL_CTX_MAX;
        } else {
            CHECK(!op->has_ctx);
        }
    }
    CHECK(reads > 1000 && full && lens > reads * 20);
    fl_workload_free(&w);
    o.ctx_rate = 0;
    if (!generate(&o, &w)) return;
    for (size_t k = 0; k < w.count; k++) CHECK(!w.ops[k].has_ctx);
    fl_workload_free(&w);
}

static void expect_error(const fl_gen_options *o, const char *needle) {
    fl_workload w;
    char err[1024] = "";
    memset(&w, 0x5a, sizeof w);
    int rc = fl_gen_workload(o, &w, err, sizeof err);
    if (rc != -1) {
        fl_test_fail(__FILE__, __LINE__, "expected an error containing \"%s\", got rc %d", needle, rc);
        if (rc == 0) fl_workload_free(&w);
        return;
    }
    CHECK(w.count == 0 && w.ops == NULL && w.description == NULL);
    if (!strstr(err, needle))
        fl_test_fail(__FILE__, __LINE__, "error \"%s\" lacks \"%s\"", err, needle);
}

FL_TEST(gen_bad_options_are_clean_errors) {
    fl_gen_options o;
    defaults(&o, FL_SHAPE_WORDS);
    o.words_path = "/nonexistent/filterlab-words";
    expect_error(&o, "/nonexistent/filterlab-words");
    expect_error(&o, "wamerican");
    defaults(&o, FL_SHAPE_ZIPF);
    o.theta = 1.0;
    expect_error(&o, "theta");
    o.theta = 0;
    expect_error(&o, "theta");
    defaults(&o, FL_SHAPE_UNIFORM);
    o.theta = 7;                        /* ignored by other shapes */
    o.ops = 10;
    fl_workload w;
    if (generate(&o, &w)) fl_workload_free(&w);
    o.value_min = 10;
    o.value_max = 5;
    expect_error(&o, "value");
    defaults(&o, FL_SHAPE_UNIFORM);
    o.w_put = o.w_del = o.w_delrange = o.w_get_present = o.w_get_absent = o.w_prefix_present =
        o.w_prefix_absent = o.w_scan = o.w_seek = 0;
    expect_error(&o, "mix");
    defaults(&o, FL_SHAPE_UNIFORM);
    o.ctx_rate = 1.5;
    expect_error(&o, "context");
    defaults(&o, FL_SHAPE_UNIFORM);
    o.open_options = "colour=blue";
    expect_error(&o, "open options: expected an option key");
    o.open_options = "policies=\"bloom(bits=10)";
    expect_error(&o, "closing");
    o.open_options = "policies=none\nput a b";
    expect_error(&o, "one line");
    defaults(&o, FL_SHAPE_UNIFORM);
    static const char *const empty_reopen[] = { "policies=none", "" };
    o.reopen_options = empty_reopen;
    o.reopen_count = 2;
    expect_error(&o, "reopen options 2: expected at least one option");
    o.reopen_options = NULL;
    expect_error(&o, "NULL");
    o.shape = (fl_gen_shape)42;
    o.reopen_count = 0;
    expect_error(&o, "shape");
    char err[64];
    CHECK_RC(fl_gen_workload(NULL, &w, err, sizeof err), -1);
    defaults(&o, FL_SHAPE_UNIFORM);
    CHECK_RC(fl_gen_workload(&o, NULL, err, sizeof err), -1);
}
