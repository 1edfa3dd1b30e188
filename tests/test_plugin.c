/*
 * test_plugin.c -- plugins and the wrappers that call them.  Each test
 * compiles the plugins it needs (tests/plugins/NAME.c) into its temporary
 * directory ($CC, default cc: `cc -shared -fPIC -I<srcdir>/engine`) and
 * loads them with fl_registry_load_plugin.  The unit binary is linked with
 * -rdynamic, so the plugins' calls to fl_registry_add_policy and
 * fl_buf_append resolve against it.
 *
 * Covered: a correct plugin registers and its kinds are made by spec; a
 * newer ABI is refused with FL_ERR_VERSION; a missing file, a file that is
 * not a shared object, and a shared object without fl_plugin_init give
 * clear errors; a taken kind gives FL_ERR_EXISTS and leaves the registry as
 * it was; a misbehaving extractor or policy is reported as a contract
 * violation and answers "cannot rule out".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE                 /* RTLD_NOLOAD */
#endif
#include "test.h"
#include "../engine/filter_internal.h"      /* fl_bloom_filter_stats */

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

/* Compiles tests/plugins/NAME.c into TMPDIR/NAME.so; the path goes to so. */
static bool build_plugin(const char *name, char *so, size_t so_len) {
    const char *cc = getenv("CC");
    if (!cc || !*cc) cc = "cc";
    const char *src = fl_test_srcdir();
    snprintf(so, so_len, "%s/%s.so", fl_test_tmpdir(), name);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s -shared -fPIC -I'%s/engine' '%s/tests/plugins/%s.c' -o '%s'",
             cc, src, src, name, so);
    if (system(cmd) != 0) {
        fl_test_fail(__FILE__, __LINE__, "cannot build plugin %s: %s", name, cmd);
        return false;
    }
    return true;
}

static char err[1024];

/* Loads tests/plugins/NAME.c into reg; returns the status. */
static int load(fl_registry *reg, const char *name) {
    char so[4096];
    if (!build_plugin(name, so, sizeof so)) return FL_ERR_IO;
    err[0] = '\0';
    return fl_registry_load_plugin(reg, so, err, sizeof err);
}

/* The call context of the helpers below (NULL: the fallback), and what
 * its sink captured instead of printing. */
static fl_calls *calls;
static struct { unsigned count; char who[512], what[512], method[32]; fl_object_kind object; } seen;

static void capture(void *arg, const fl_contract_violation *v) {
    (void)arg;
    seen.count++;
    seen.object = v->object;
    snprintf(seen.who, sizeof seen.who, "%s", v->who);
    snprintf(seen.what, sizeof seen.what, "%s", v->what);
    snprintf(seen.method, sizeof seen.method, "%s", v->method);
}

/* A context whose violations go to capture, for the helpers. */
static void capturing(fl_registry *reg) {
    CHECK_OK(fl_calls_new(reg, &calls));
    fl_calls_set_sink(calls, capture, NULL);
    memset(&seen, 0, sizeof seen);
}

static void done_capturing(void) {
    fl_calls_free(calls);
    calls = NULL;
}

static fl_filter *build_keys(const fl_filter_policy *p, const char *const *keys, size_t n) {
    fl_filter_builder *b = NULL;
    fl_filter *f = NULL;
    if (fl_call_new_builder(calls, p, &b) != FL_OK) return NULL;
    for (size_t i = 0; i < n; i++) {
        fl_row_entry e = { { (const uint8_t *)keys[i], strlen(keys[i]) }, { NULL, 0 }, 1,
                           FL_ENTRY_PUT };
        fl_call_add_entry(calls, p, b, &e);
    }
    fl_call_build(calls, p, b, &f);
    fl_call_builder_destroy(calls, p, b);
    return f;
}

static bool ask(const fl_filter_policy *p, const fl_filter *f, fl_target_kind kind,
                const char *bytes) {
    fl_filter_query q = { { kind, { (const uint8_t *)bytes, strlen(bytes) } }, NULL };
    return fl_call_might_match(calls, p, f, &q);
}

/* ---- A correct plugin --------------------------------------------------- */

FL_TEST(plugin_correct_policy_and_extractor) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    CHECK_OK(load(reg, "firstbyte"));
    char kinds[256];
    fl_registry_policy_kinds(reg, kinds, sizeof kinds);
    CHECK_STR(kinds, "bloom, firstbyte");
    fl_registry_extractor_kinds(reg, kinds, sizeof kinds);
    CHECK_STR(kinds, "fixed, capped, delim, lastdelim, first1");

    fl_filter_policy *p = NULL;
    CHECK_OK(fl_registry_make_policy(reg, "firstbyte", &p, err, sizeof err));
    if (p) {
        CHECK_STR(fl_call_policy_name(calls, p), "firstbyte");
        const char *keys[] = { "apple", "banana" };
        fl_filter *f = build_keys(p, keys, 2);
        CHECK(f != NULL);
        fl_buf buf;
        fl_buf_init(&buf);
        CHECK_OK(fl_call_encode(calls, p, f, &buf));           /* the plugin's fl_buf_append */
        CHECK_EQ(buf.len, 33);
        fl_filter *d = NULL;
        CHECK_OK(fl_call_decode(calls, p, (fl_slice){ buf.data, buf.len }, &d));
        CHECK(ask(p, d, FL_TARGET_POINT, "avocado"));
        CHECK(!ask(p, d, FL_TARGET_POINT, "cherry"));
        CHECK(ask(p, d, FL_TARGET_PREFIX, ""));
        fl_buf_free(&buf);
        fl_call_filter_destroy(calls, p, f);
        fl_call_filter_destroy(calls, p, d);
        fl_call_policy_destroy(calls, p);
    }
    /* the plugin's own error message comes through, with the spec */
    CHECK_RC(fl_registry_make_policy(reg, "firstbyte(x=1)", &p, err, sizeof err), FL_ERR_INVALID);
    CHECK_STR(err, "policy spec 'firstbyte(x=1)': firstbyte takes no arguments; got 'x=1'");

    /* plugin kinds in lists, and a bloom around a plugin extractor */
    fl_policy_list list;
    CHECK_OK(fl_policy_list_parse(reg, NULL, "bloom(prefix=first1,whole_key=0); firstbyte", &list,
                                  err, sizeof err));
    CHECK_EQ(list.count, 2);
    if (list.count == 2) {
        fl_filter_policy *bp = list.items[0];
        CHECK_STR(fl_call_policy_name(calls, bp), "_bf:p=first1:wh=0");
        const char *keys[] = { "q1", "q2", "r1" };
        fl_filter *f = build_keys(bp, keys, 3);
        uint64_t m = 0;
        CHECK(fl_bloom_filter_stats(f, &m, NULL, NULL));
        CHECK_EQ(m, 2);                                  /* "q" once, "r" */
        CHECK(ask(bp, f, FL_TARGET_PREFIX, "q"));
        CHECK(ask(bp, f, FL_TARGET_POINT, "r9"));
        fl_call_filter_destroy(calls, bp, f);
    }
    fl_policy_list_free(NULL, &list);
    fl_registry_free(reg);                               /* dlcloses, after the objects */
}

FL_TEST(plugin_loaded_twice_is_refused) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    CHECK_OK(load(reg, "firstbyte"));
    CHECK_RC(load(reg, "firstbyte"), FL_ERR_EXISTS);
    CHECK_CONTAINS(err, "already taken");
    fl_filter_policy *p = NULL;                          /* the first load still works */
    CHECK_OK(fl_registry_make_policy(reg, "firstbyte", &p, err, sizeof err));
    if (p) fl_call_policy_destroy(calls, p);
    fl_registry_free(reg);
}

/* ---- Refusals ------------------------------------------------------------ */

FL_TEST(plugin_newer_abi_refused) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    CHECK_OK(load(reg, "abi2"));
    fl_filter_policy *p = NULL;
    CHECK_RC(fl_registry_make_policy(reg, "future", &p, err, sizeof err), FL_ERR_VERSION);
    CHECK(p == NULL);
    CHECK_CONTAINS(err, "policy kind 'future'");
    CHECK_CONTAINS(err, "abi2.so");
    CHECK_CONTAINS(err, "was built for filter ABI 2; this filterlab supports 1");
    /* and the refused policy was destroyed, not leaked */
    char so[4096];
    snprintf(so, sizeof so, "%s/abi2.so", fl_test_tmpdir());
    void *h = dlopen(so, RTLD_NOW | RTLD_NOLOAD);
    CHECK(h != NULL);
    if (h) {
        void *sym = dlsym(h, "abi2_destroyed");
        int (*destroyed)(void);
        memcpy(&destroyed, &sym, sizeof destroyed);
        CHECK(sym && destroyed() == 1);
        dlclose(h);
    }
    fl_registry_free(reg);
}

FL_TEST(plugin_load_errors) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    CHECK_RC(fl_registry_load_plugin(reg, "/nonexistent/dir/mine.so", err, sizeof err),
             FL_ERR_NOTFOUND);
    CHECK_STR(err, "plugin '/nonexistent/dir/mine.so': cannot open: No such file or directory");
    CHECK_RC(fl_registry_load_plugin(reg, "surely-not-here-xyz.so", err, sizeof err),
             FL_ERR_NOTFOUND);
    CHECK_CONTAINS(err, "plugin 'surely-not-here-xyz.so': cannot open");
    CHECK_RC(fl_registry_load_plugin(reg, "", err, sizeof err), FL_ERR_INVALID);
    CHECK_RC(fl_registry_load_plugin(reg, fl_test_tmpdir(), err, sizeof err), FL_ERR_INVALID);
    CHECK_CONTAINS(err, "not a regular file");

    char text[4096];
    snprintf(text, sizeof text, "%s/text.so", fl_test_tmpdir());
    FILE *f = fopen(text, "w");
    CHECK(f != NULL);
    if (f) {
        fputs("not an ELF file\n", f);
        fclose(f);
    }
    CHECK_RC(fl_registry_load_plugin(reg, text, err, sizeof err), FL_ERR_PLUGIN);
    CHECK_CONTAINS(err, "cannot load it as a shared object: ");
    CHECK_CONTAINS(err, "text.so");

    CHECK_RC(load(reg, "no_init"), FL_ERR_PLUGIN);
    CHECK_CONTAINS(err, "no_init.so': it does not export fl_plugin_init");

    char kinds[256];
    fl_registry_policy_kinds(reg, kinds, sizeof kinds);
    CHECK_STR(kinds, "bloom");
    fl_registry_free(reg);
}

FL_TEST(plugin_taken_kind_rolls_back) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    CHECK_RC(load(reg, "taken_kind"), FL_ERR_EXISTS);
    CHECK_CONTAINS(err, "taken_kind.so': fl_plugin_init returned -6 (already exists)");
    CHECK_CONTAINS(err, "already taken");
    char kinds[256];
    fl_registry_policy_kinds(reg, kinds, sizeof kinds);
    CHECK_STR(kinds, "bloom");                          /* "shiny" was removed again */
    fl_filter_policy *p = NULL;
    CHECK_RC(fl_registry_make_policy(reg, "shiny", &p, err, sizeof err), FL_ERR_NOTFOUND);
    fl_registry_free(reg);
}

/* ---- Misbehaving plugins, through the wrappers ----------------------------- */

FL_TEST(plugin_misbehaving_extractor) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    CHECK_OK(load(reg, "misbehave"));
    capturing(reg);
    fl_call_stats st;
    fl_calls_stats(calls, &st);
    uint64_t before = st.contract_violations;

    /* n > len: reported, and the wrapper answers none */
    fl_prefix_extractor *liar = NULL;
    CHECK_OK(fl_registry_make_extractor(reg, "liar", &liar, err, sizeof err));
    fl_target t = { FL_TARGET_POINT, { (const uint8_t *)"abc", 3 } };
    size_t n = 99;
    CHECK(!fl_call_prefix_len(calls, liar, &t, &n));
    CHECK_EQ(n, 0);
    CHECK_EQ(seen.count, 1);
    CHECK_CONTAINS(seen.who, "extractor \"liar\" of kind 'liar' from plugin ");
    CHECK_CONTAINS(seen.who, "misbehave.so");
    CHECK_EQ(seen.object, FL_OBJECT_EXTRACTOR);
    CHECK_STR(seen.method, "prefix_len");
    CHECK_CONTAINS(seen.what, "prefix_len returned 8 for a key of 3 bytes");
    fl_calls_stats(calls, &st);
    CHECK_EQ(st.contract_violations - before, 1);
    fl_call_extractor_destroy(calls, liar);

    /* a bloom around it stores no prefixes and cannot rule anything out */
    fl_filter_policy *p = NULL;
    CHECK_OK(fl_registry_make_policy(reg, "bloom(prefix=liar,whole_key=0)", &p, err, sizeof err));
    if (p) {
        CHECK_STR(fl_call_policy_name(calls, p), "_bf:p=liar:wh=0");
        const char *keys[] = { "a1", "b2" };
        fl_filter *f = build_keys(p, keys, 2);
        CHECK_EQ(seen.count, 3);                         /* one per entry */
        CHECK(ask(p, f, FL_TARGET_POINT, "zz"));
        CHECK(ask(p, f, FL_TARGET_PREFIX, "zz"));
        fl_call_filter_destroy(calls, p, f);
        fl_call_policy_destroy(calls, p);
    }
    /* whole-key on: points still filter, prefixes answer true */
    CHECK_OK(fl_registry_make_policy(reg, "bloom(prefix=liar)", &p, err, sizeof err));
    if (p) {
        const char *keys[] = { "a1" };
        fl_filter *f = build_keys(p, keys, 1);
        CHECK(ask(p, f, FL_TARGET_POINT, "a1"));
        CHECK(ask(p, f, FL_TARGET_PREFIX, "q"));
        fl_call_filter_destroy(calls, p, f);
        fl_call_policy_destroy(calls, p);
    }

    /* a NULL name: reported, replaced by a placeholder */
    fl_prefix_extractor *noname = NULL;
    CHECK_OK(fl_registry_make_extractor(reg, "noname", &noname, err, sizeof err));
    unsigned count = seen.count;
    CHECK_STR(fl_call_extractor_name(calls, noname), "<extractor with NULL name>");
    CHECK_EQ(seen.count, count + 1);
    CHECK_CONTAINS(seen.who, "kind 'noname' from plugin ");
    CHECK_CONTAINS(seen.who, "misbehave.so");
    CHECK_CONTAINS(seen.what, "name() returned NULL");
    fl_call_extractor_destroy(calls, noname);
    CHECK_OK(fl_registry_make_policy(reg, "bloom(prefix=noname)", &p, err, sizeof err));
    if (p) {
        CHECK_STR(fl_call_policy_name(calls, p), "_bf:p=<extractor with NULL name>");
        fl_call_policy_destroy(calls, p);
    }
    done_capturing();
    fl_registry_free(reg);
}

FL_TEST(plugin_misbehaving_policy) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    CHECK_OK(load(reg, "misbehave"));
    capturing(reg);
    fl_filter_policy *p = NULL;
    CHECK_OK(fl_registry_make_policy(reg, "broken", &p, err, sizeof err));
    if (p) {
        CHECK_STR(fl_call_policy_name(calls, p), "<policy with NULL name>");
        CHECK_EQ(seen.count, 1);
        fl_filter_builder *b = NULL;
        CHECK_OK(fl_call_new_builder(calls, p, &b));
        fl_filter *f = (fl_filter *)&seen;               /* must be reset to NULL */
        CHECK_RC(fl_call_build(calls, p, b, &f), FL_ERR_PLUGIN);
        CHECK(f == NULL);
        CHECK_EQ(seen.count, 2);
        CHECK_CONTAINS(seen.who, "kind 'broken' from plugin ");
        CHECK_CONTAINS(seen.who, "misbehave.so");
        CHECK_CONTAINS(seen.what, "build failed");
        fl_call_builder_destroy(calls, p, b);
        uint8_t bytes[3] = { 1, 2, 3 };
        CHECK_RC(fl_call_decode(calls, p, (fl_slice){ bytes, 3 }, &f), FL_ERR_PLUGIN);
        CHECK(f == NULL);
        CHECK_EQ(seen.count, 3);
        CHECK_CONTAINS(seen.what, "decode returned FL_OK but no filter");
        CHECK(ask(p, NULL, FL_TARGET_POINT, "anything"));  /* no filter: cannot rule out */
        fl_call_policy_destroy(calls, p);
    }
    /* duplicate NULL names in a list are still caught */
    fl_policy_list list;
    CHECK_RC(fl_policy_list_parse(reg, calls, "broken;broken", &list, err, sizeof err), FL_ERR_INVALID);
    CHECK_CONTAINS(err, "has the name '<policy with NULL name>'");
    done_capturing();
    fl_registry_free(reg);
}

/* ---- The wrappers on well-behaved objects --------------------------------- */

/* A built-in extractor is called without a published frame (filter_call.c),
 * yet counted and answered as any other, directly and nested in a built-in
 * bloom's might_match, and nothing is left in progress afterwards. */
FL_TEST(plugin_wrappers_builtin_extractor) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    fl_prefix_extractor *ex = NULL;
    CHECK_OK(fl_registry_make_extractor(reg, "fixed:2", &ex, err, sizeof err));
    fl_filter_policy *p = NULL;
    CHECK_OK(fl_registry_make_policy(reg, "bloom(prefix=fixed:2)", &p, err, sizeof err));
    capturing(reg);
    fl_call_stats s0, s1;
    fl_calls_stats(calls, &s0);
    size_t n = 9;
    fl_target t = { FL_TARGET_POINT, { (const uint8_t *)"abc", 3 } };
    CHECK(fl_call_prefix_len(calls, ex, &t, &n));
    CHECK_EQ(n, 2);
    t.bytes.len = 1;
    CHECK(!fl_call_prefix_len(calls, ex, &t, &n));
    CHECK_EQ(n, 0);
    fl_calls_stats(calls, &s1);
    CHECK_EQ(s1.prefix_len - s0.prefix_len, 2);
    /* nested: the bloom asks its extractor inside might_match */
    const char *keys[] = { "abc", "abd" };
    fl_filter *f = build_keys(p, keys, 2);
    fl_calls_stats(calls, &s0);
    CHECK(ask(p, f, FL_TARGET_PREFIX, "ab"));
    fl_calls_stats(calls, &s1);
    CHECK_EQ(s1.might_match - s0.might_match, 1);
    CHECK(s1.prefix_len - s0.prefix_len >= 1);
    fl_call_now now;
    CHECK(!fl_calls_current(calls, &now, false));        /* nothing in progress */
    CHECK_EQ(seen.count, 0);
    fl_call_filter_destroy(calls, p, f);
    fl_call_policy_destroy(calls, p);
    fl_call_extractor_destroy(calls, ex);
    done_capturing();
    fl_registry_free(reg);
}

FL_TEST(plugin_wrappers_count_and_fail_safe) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    fl_filter_policy *p = NULL;
    CHECK_OK(fl_registry_make_policy(reg, "bloom", &p, err, sizeof err));
    capturing(reg);
    fl_call_stats s0, s1;
    fl_calls_stats(calls, &s0);
    const char *keys[] = { "k" };
    fl_filter *f = build_keys(p, keys, 1);
    fl_buf buf;
    fl_buf_init(&buf);
    CHECK_OK(fl_call_encode(calls, p, f, &buf));
    fl_filter *d = NULL;
    CHECK_OK(fl_call_decode(calls, p, (fl_slice){ buf.data, buf.len }, &d));
    CHECK(ask(p, d, FL_TARGET_POINT, "k"));
    fl_calls_stats(calls, &s1);
    CHECK_EQ(s1.add_entry - s0.add_entry, 1);
    CHECK_EQ(s1.build - s0.build, 1);
    CHECK_EQ(s1.encode - s0.encode, 1);
    CHECK_EQ(s1.decode - s0.decode, 1);
    CHECK_EQ(s1.might_match - s0.might_match, 1);
    CHECK_EQ(s1.contract_violations, s0.contract_violations);
    fl_call_filter_destroy(calls, p, d);
    /* fail safe on missing pieces */
    CHECK(fl_call_might_match(calls, p, NULL, NULL));
    CHECK(ask(p, NULL, FL_TARGET_PREFIX, "x"));
    CHECK_EQ(fl_call_size(calls, p, NULL), 0);
    size_t n = 7;
    fl_target t = { FL_TARGET_POINT, { (const uint8_t *)"x", 1 } };
    CHECK(!fl_call_prefix_len(calls, NULL, &t, &n));
    CHECK_STR(fl_call_policy_name(calls, NULL), "<no policy>");
    CHECK_STR(fl_call_extractor_name(calls, NULL), "<no extractor>");
    fl_call_filter_destroy(calls, p, NULL);
    fl_call_builder_destroy(calls, p, NULL);
    /* a failed decode of the built-in is reported too (checksummed bytes
     * that a same-named policy cannot decode are a broken contract) */
    memset(&seen, 0, sizeof seen);
    CHECK_RC(fl_call_decode(calls, p, (fl_slice){ buf.data, 3 }, &d), FL_ERR_CORRUPT);
    CHECK_EQ(seen.count, 1);
    CHECK_CONTAINS(seen.who, "policy \"_bf\" of kind 'bloom'");
    CHECK_CONTAINS(seen.what, "decode of 3 bytes failed: corrupt data");
    fl_buf_free(&buf);
    fl_call_filter_destroy(calls, p, f);
    fl_call_policy_destroy(calls, p);
    done_capturing();
    fl_registry_free(reg);
}

/* ---- Contexts are their runs' own ---------------------------------------- */

/* Two threads, each with its own context and its own misbehaving
 * extractor, each calling it a different number of times: each context
 * counts and receives exactly its own violations. */
typedef struct lane { fl_registry *reg; unsigned calls, got; uint64_t counted; } lane;

static void lane_sink(void *arg, const fl_contract_violation *v) {
    lane *l = arg;
    (void)v;
    l->got++;                                 /* only this lane's thread */
}

static void *lane_run(void *arg) {
    lane *l = arg;
    fl_calls *c;
    fl_prefix_extractor *liar = NULL;
    char e[256];
    if (fl_calls_new(l->reg, &c) != FL_OK) return NULL;
    fl_calls_set_sink(c, lane_sink, l);
    if (fl_registry_make_extractor(l->reg, "liar", &liar, e, sizeof e) == FL_OK) {
        fl_target t = { FL_TARGET_POINT, { (const uint8_t *)"abc", 3 } };
        size_t n;
        for (unsigned i = 0; i < l->calls; i++) fl_call_prefix_len(c, liar, &t, &n);
        fl_call_extractor_destroy(c, liar);
    }
    fl_call_stats st;
    fl_calls_stats(c, &st);
    l->counted = st.contract_violations;
    fl_calls_free(c);
    return NULL;
}

FL_TEST(plugin_contexts_are_private) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    CHECK_OK(load(reg, "misbehave"));
    lane a = { reg, 1000, 0, 0 }, b = { reg, 3000, 0, 0 };
    pthread_t ta, tb;
    CHECK_EQ(pthread_create(&ta, NULL, lane_run, &a), 0);
    CHECK_EQ(pthread_create(&tb, NULL, lane_run, &b), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    CHECK_EQ(a.got, 1000);
    CHECK_EQ(a.counted, 1000);
    CHECK_EQ(b.got, 3000);
    CHECK_EQ(b.counted, 3000);
    fl_registry_free(reg);
}
