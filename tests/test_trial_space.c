/*
 * test_trial_space.c -- the configuration spaces of `check`'s trials
 * (each adapter's *_space.c) and the generator hooks they use (workload.h:
 * options_for, set_options_every, seek_total_order, key_ok):
 *   - the hooks: options_for is asked, in workload order, for every reopen
 *     and set_options; set_options come at their rate; seek_total_order
 *     makes every seek prefix=0; set_options without options_for is an
 *     error;
 *   - RocksDB's space: every configuration of 120 trials (open, each
 *     reopen and set_options, in order) is accepted by the RocksDB engine
 *     -- a refusal fails loudly, naming the trial and line, since it is a
 *     bug of the space -- and together they reach every setting the space
 *     promises; the same seed gives the same trials; --policy specs
 *     RocksDB cannot run are refused before any trial;
 *   - a refusal is an error of the trial on RocksDB (refused, no
 *     property), still P10 on filterlab's engine.
 */
#include "test.h"
#include "../adapters/adapters.h"

#include <stdlib.h>
#include <string.h>

/* ---- The generator's hooks ---------------------------------------------------- */

typedef struct asked { fl_op_kind kinds[256]; size_t n; } asked;

static int answer(void *arg, fl_op_kind kind, char *out, size_t cap) {
    asked *a = arg;
    if (a->n < 256) a->kinds[a->n] = kind;
    snprintf(out, cap, "memtable_bytes=%zu", 1000 + a->n++);
    return 0;
}

static int refuse(void *arg, fl_op_kind kind, char *out, size_t cap) {
    (void)arg; (void)kind; (void)cap;
    out[0] = 0;
    return -1;
}

FL_TEST(gen_asks_for_reopen_and_set_options_in_order) {
    fl_gen_options o;
    fl_gen_defaults(&o, FL_SHAPE_UNIFORM);
    o.ops = 2000;
    o.reopen_every = 100;
    o.set_options_every = 50;
    asked a = { .n = 0 };
    o.options_for = answer;
    o.options_arg = &a;
    o.seek_total_order = true;
    o.w_seek = 20;
    fl_workload w;
    char err[512] = "";
    CHECK_OK(fl_gen_workload(&o, &w, err, sizeof err));
    size_t reopens = 0, sets = 0, seeks = 0, n = 0;
    for (size_t i = 0; i < w.count; i++) {
        const fl_op *op = &w.ops[i];
        if (op->kind == FL_OP_REOPEN || op->kind == FL_OP_SET_OPTIONS) {
            /* the n-th asked, with what the answer said */
            char want[32];
            snprintf(want, sizeof want, "%zu", 1000 + n);
            CHECK(n < a.n && a.kinds[n] == op->kind);
            CHECK(op->opt_count == 1 && strcmp(op->opts[0].key, "memtable_bytes") == 0);
            if (op->opt_count == 1) CHECK_STR(op->opts[0].value, want);
            n++;
            reopens += op->kind == FL_OP_REOPEN;
            sets += op->kind == FL_OP_SET_OPTIONS;
        }
        if (op->kind == FL_OP_SEEK || op->kind == FL_OP_SEEK_FOR_PREV) {
            CHECK_EQ(op->prefix_mode, 0);
            seeks++;
        }
    }
    CHECK_EQ(n, a.n);
    CHECK(reopens >= 5 && reopens <= 40);            /* about 20 */
    CHECK(sets >= 15 && sets <= 70);                 /* about 40 */
    CHECK(seeks > 50);
    fl_workload_free(&w);
    /* without seek_total_order seeks take every mode; a failing answer and
     * set_options without options_for are errors */
    o.seek_total_order = false;
    a.n = 0;
    CHECK_OK(fl_gen_workload(&o, &w, err, sizeof err));
    bool modes[3] = { false, false, false };
    for (size_t i = 0; i < w.count; i++)
        if (w.ops[i].kind == FL_OP_SEEK || w.ops[i].kind == FL_OP_SEEK_FOR_PREV) modes[w.ops[i].prefix_mode + 1] = true;
    CHECK(modes[0] && modes[1] && modes[2]);
    fl_workload_free(&w);
    o.options_for = refuse;
    CHECK_RC(fl_gen_workload(&o, &w, err, sizeof err), -1);
    CHECK_CONTAINS(err, "could not be made");
    o.options_for = NULL;
    CHECK_RC(fl_gen_workload(&o, &w, err, sizeof err), -1);
    CHECK_CONTAINS(err, "set_options_every is 50 but options_for is NULL");
}

/* key_ok: no put, del or get of a key it refuses is emitted (the others
 * are), the workload still has its ops; with one that refuses every key
 * the generator still ends (on the other ops, or its bound of draws). */
static bool at_least_3(void *arg, const uint8_t *key, size_t len) {
    (void)key;
    ++*(size_t *)arg;
    return len >= 3;
}

static bool none_ok(void *arg, const uint8_t *key, size_t len) {
    (void)arg; (void)key; (void)len;
    return false;
}

FL_TEST(gen_key_ok_drops_the_ops_it_refuses) {
    fl_gen_options o;
    fl_gen_defaults(&o, FL_SHAPE_ADVERSARIAL);
    o.ops = 3000;
    size_t asked = 0;
    o.key_ok = at_least_3;
    o.key_ok_arg = &asked;
    fl_workload w;
    char err[512] = "";
    CHECK_OK(fl_gen_workload(&o, &w, err, sizeof err));
    CHECK(w.count == 3000 && asked > 1000);
    size_t kept = 0, short_reads = 0;
    for (size_t i = 0; i < w.count; i++) {
        const fl_op *op = &w.ops[i];
        if (op->kind == FL_OP_PUT || op->kind == FL_OP_DEL || op->kind == FL_OP_GET) {
            CHECK(op->a.len >= 3);
            kept++;
        } else if ((op->kind == FL_OP_SCAN_PREFIX || op->kind == FL_OP_SEEK) && op->a.len < 3) {
            short_reads++;
        }
    }
    CHECK(kept > 1000 && short_reads > 0);     /* other ops keep their keys */
    fl_workload_free(&w);
    o.key_ok = none_ok;
    CHECK_OK(fl_gen_workload(&o, &w, err, sizeof err));
    for (size_t i = 0; i < w.count; i++)
        CHECK(w.ops[i].kind != FL_OP_PUT && w.ops[i].kind != FL_OP_DEL && w.ops[i].kind != FL_OP_GET);
    fl_workload_free(&w);
}

/* ---- filterlab's space ------------------------------------------------------------ */

/* Some trials change the policies of the open database (set_options), with
 * a policy list as a reopen's migration does; FP trials never do (P9's
 * configuration is one bloom throughout). */
FL_TEST(filterlab_trials_make_set_options_outside_fp_trials) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    fl_run_config c = { .reg = reg, .seed = 5, .max_ops = 400 };
    size_t fp = 0, with = 0, sets = 0;
    for (uint64_t t = 0; t < 16 && reg; t++) {
        fl_workload w;
        char err[512] = "";
        CHECK_OK(fl_check_trial(&c, t, &w, err, sizeof err));
        bool fp_trial = w.count > 2000;                   /* every eighth: an FP trial */
        size_t here = 0;
        for (size_t i = 0; i < w.count; i++) {
            if (w.ops[i].kind != FL_OP_SET_OPTIONS) continue;
            here++;
            bool policies = false;
            for (size_t j = 0; j < w.ops[i].opt_count; j++) policies |= strcmp(w.ops[i].opts[j].key, "policies") == 0;
            CHECK(policies);
        }
        if (fp_trial) CHECK_EQ(here, 0);
        fp += fp_trial;
        with += here > 0;
        sets += here;
        fl_workload_free(&w);
    }
    CHECK_EQ(fp, 2);
    CHECK(with >= 2 && with <= 12);                       /* half of 14, about */
    CHECK(sets >= with);
    fl_registry_free(reg);
}

#ifdef FL_HAVE_ROCKSDB

/* ---- RocksDB's space ------------------------------------------------------------- */

/* What the configurations of the trials reached. */
typedef struct reach {
    size_t set_extractor, set_other, reopens, partitioned, ribbon, fv4, membloom, wrapped, none, capped,
           delim, lastdelim, fixed, whole_key_off, total_order_trials, multiget_open, get_path_set,
           multiget_trials, multiget_keys, multiget_ops;
} reach;

static void note_reach(const fl_op *op, reach *r) {
    for (size_t j = 0; j < op->opt_count; j++) {
        const char *k = op->opts[j].key, *v = op->opts[j].value;
        if (!strcmp(k, "policies")) {
            r->none += !strcmp(v, "none");
            r->capped += strstr(v, "prefix=capped:") != NULL;
            r->fixed += strstr(v, "prefix=fixed:") != NULL;
            r->delim += strstr(v, "prefix=delim:") != NULL;
            r->lastdelim += strstr(v, "prefix=lastdelim:") != NULL;
            r->whole_key_off += strstr(v, "whole_key=0") != NULL;
            if (op->kind == FL_OP_SET_OPTIONS) r->set_extractor++;
        } else if (op->kind == FL_OP_SET_OPTIONS) {
            r->set_other++;
        }
        r->partitioned += !strcmp(k, "rocksdb.partition_filters") && !strcmp(v, "1");
        r->ribbon += !strcmp(k, "rocksdb.filter") && !strcmp(v, "ribbon");
        r->fv4 += !strcmp(k, "rocksdb.format_version") && !strcmp(v, "4");
        r->membloom += !strcmp(k, "rocksdb.memtable_prefix_bloom") && strcmp(v, "0") != 0;
        r->wrapped += !strcmp(k, "rocksdb.extractor") && !strcmp(v, "wrapped");
        r->multiget_open += op->kind == FL_OP_OPEN && !strcmp(k, "rocksdb.get") && !strcmp(v, "multiget");
        r->get_path_set += op->kind == FL_OP_SET_OPTIONS && !strcmp(k, "rocksdb.get");
    }
    r->reopens += op->kind == FL_OP_REOPEN;
}

/* Runs the configuration ops of trial t (its open, reopens and set_options,
 * in order) on RocksDB: each must be accepted. */
static void configs_accepted(const fl_run_config *c, const fl_trial_env *env, uint64_t t, reach *r) {
    fl_workload w, ops = { 0 };
    char err[512] = "";
    if (fl_check_trial(c, t, &w, err, sizeof err) != FL_OK) {
        fl_test_fail(__FILE__, __LINE__, "seed %llu trial %llu: %s", (unsigned long long)c->seed,
                     (unsigned long long)t, err);
        return;
    }
    bool total_order = true, seeks = false;
    size_t multigets = 0;
    for (size_t i = 0; i < w.count; i++) {
        fl_op_kind k = w.ops[i].kind;
        if (k == FL_OP_MULTIGET) {
            multigets++;
            r->multiget_keys += w.ops[i].count;
            CHECK(w.ops[i].count >= 2 && w.ops[i].count <= 8);
        }
        if (k == FL_OP_SEEK || k == FL_OP_SEEK_FOR_PREV) {
            seeks = true;
            total_order &= w.ops[i].prefix_mode == 0;
        }
        if (k != FL_OP_OPEN && k != FL_OP_REOPEN && k != FL_OP_SET_OPTIONS) continue;
        note_reach(&w.ops[i], r);
        CHECK_OK(fl_workload_add(&ops, &w.ops[i]));
    }
    r->total_order_trials += seeks && total_order;
    r->multiget_trials += multigets > 0;
    r->multiget_ops += multigets;
    fl_trial_outcome o;
    CHECK_OK(fl_check_workload(env, &ops, true, &o));
    if (o.refused || o.property || o.rc)
        fl_test_fail(__FILE__, __LINE__, "seed %llu trial %llu: RocksDB refused a configuration the space "
                     "made (a bug of adapters/rocksdb/rocksdb_space.c): %s", (unsigned long long)c->seed,
                     (unsigned long long)t, o.message);
    /* lastdelim anywhere in the trial: seeks are all total order */
    bool lastdelim = false;
    for (size_t i = 0; i < ops.count; i++)
        for (size_t j = 0; j < ops.ops[i].opt_count; j++)
            lastdelim |= strstr(ops.ops[i].opts[j].value, "lastdelim:") != NULL;
    if (lastdelim && seeks) CHECK(total_order);
    fl_workload_free(&ops);
    fl_workload_free(&w);
}

FL_TEST_FRESH(rocksdb_trials_are_all_expressible) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    if (!reg) return;
    fl_trial_env env = { .engine = &fl_engine_rocksdb, .reg = reg, .scratch = fl_test_tmpdir(),
                         .seed = FL_CHECKER_SEED, .quiet = true };
    reach r;
    memset(&r, 0, sizeof r);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        fl_run_config c = { .engine = &fl_engine_rocksdb, .reg = reg, .seed = seed, .max_ops = 1500 };
        for (uint64_t t = 0; t < 40; t++) configs_accepted(&c, &env, t, &r);
    }
    /* the user's specs: a bloom as --policy, an extractor as --extractor */
    static const char *const pol[] = { "bloom(bits=7.5,prefix=fixed:6,whole_key=0)" };
    static const char *const ex[] = { "capped:7", "delim:-" };
    fl_run_config c = { .engine = &fl_engine_rocksdb, .reg = reg, .seed = 9, .max_ops = 600,
                        .policies = pol, .npolicies = 1, .extractors = ex, .nextractors = 2 };
    for (uint64_t t = 0; t < 12; t++) configs_accepted(&c, &env, t, &r);
    CHECK(r.set_extractor >= 20);
    CHECK(r.set_other >= 20);
    CHECK(r.reopens >= 50);
    CHECK(r.partitioned >= 10 && r.ribbon >= 10 && r.fv4 >= 10 && r.membloom >= 10 && r.wrapped >= 5);
    CHECK(r.none >= 3 && r.capped >= 10 && r.fixed >= 10 && r.delim >= 5 && r.lastdelim >= 3);
    CHECK(r.whole_key_off >= 10);
    CHECK(r.total_order_trials >= 2);
    CHECK(r.multiget_open >= 20 && r.multiget_open <= 80);     /* 40% of 132 opens */
    CHECK(r.get_path_set >= 5);
    /* multigets of 2-8 keys in half the trials (of 132) */
    CHECK(r.multiget_trials >= 40 && r.multiget_trials <= 92);
    CHECK(r.multiget_ops >= 10 * r.multiget_trials);
    CHECK(r.multiget_keys >= 4 * r.multiget_ops && r.multiget_keys <= 6 * r.multiget_ops);
    printf("    %zu of 132 trials with multigets: %zu multigets, %zu keys\n", r.multiget_trials, r.multiget_ops,
           r.multiget_keys);
    fl_registry_free(reg);
}

FL_TEST(rocksdb_trials_are_deterministic) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    if (!reg) return;
    fl_run_config c = { .engine = &fl_engine_rocksdb, .reg = reg, .seed = 11, .max_ops = 800 };
    for (uint64_t t = 0; t < 6; t++) {
        fl_workload a, b;
        char err[512] = "", *ta = NULL, *tb = NULL;
        size_t la = 0, lb = 0;
        CHECK_OK(fl_check_trial(&c, t, &a, err, sizeof err));
        CHECK_OK(fl_check_trial(&c, t, &b, err, sizeof err));
        FILE *fa = open_memstream(&ta, &la), *fb = open_memstream(&tb, &lb);
        if (fa && fb) {
            fl_workload_print(&a, fa);
            fl_workload_print(&b, fb);
        }
        if (fa) fclose(fa);
        if (fb) fclose(fb);
        CHECK(la > 100);
        CHECK_MEM(ta, la, tb, lb);
        free(ta);
        free(tb);
        fl_workload_free(&a);
        fl_workload_free(&b);
    }
    fl_registry_free(reg);
}

FL_TEST(rocksdb_space_refuses_what_rocksdb_cannot_run) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    if (!reg) return;
    static const char *const two[] = { "bloom(bits=10);bloom(bits=8,prefix=fixed:2)" };
    char out[] = "/tmp";
    fl_run_config c = { .engine = &fl_engine_rocksdb, .reg = reg, .seed = 1, .trials = 1, .max_ops = 100,
                        .policies = two, .npolicies = 1, .out_dir = out, .only_trial = -1 };
    fl_run_result res;
    char err[1024] = "";
    CHECK_RC(fl_check_run(&c, &res, err, sizeof err), FL_ERR_INVALID);
    CHECK_CONTAINS(err, "the RocksDB engine runs one built-in bloom(...) policy");
    CHECK_EQ(res.trials, 0);
    fl_registry_free(reg);
}

/* A refusal by RocksDB is an error of the trial; by filterlab's engine P10. */
FL_TEST_FRESH(rocksdb_refusal_is_no_finding) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    if (!reg) return;
    const char *text = "filterlab-workload 1\nopen\nput a 1\nreopen policies=\"bloom(bits=10);bloom(bits=8,prefix=fixed:2)\"\nget a\n";
    fl_workload w;
    char err[512] = "";
    CHECK_OK(fl_workload_parse(text, strlen(text), "t.wl", &w, err, sizeof err));
    fl_trial_env env = { .engine = &fl_engine_rocksdb, .reg = reg, .scratch = fl_test_tmpdir(),
                         .seed = FL_CHECKER_SEED };
    fl_trial_outcome o;
    CHECK_OK(fl_check_workload(&env, &w, true, &o));
    CHECK(o.refused);
    CHECK_EQ(o.property, 0);
    CHECK_RC(o.rc, FL_ERR_INVALID);
    CHECK_CONTAINS(o.message, "the rocksdb engine refused the configuration");
    CHECK_CONTAINS(o.message, "cannot run two policies at once");
    /* the same on filterlab's engine with a value it refuses: P10 */
    fl_workload_free(&w);
    text = "filterlab-workload 1\nopen\nput a 1\nreopen policies=\"bloom(bits=x)\"\nget a\n";
    CHECK_OK(fl_workload_parse(text, strlen(text), "t.wl", &w, err, sizeof err));
    env.engine = NULL;
    CHECK_OK(fl_check_workload(&env, &w, true, &o));
    CHECK(!o.refused);
    CHECK_EQ(o.property, FL_P10);
    CHECK_EQ(o.line, 4);
    fl_workload_free(&w);
    fl_registry_free(reg);
}

#endif /* FL_HAVE_ROCKSDB */
