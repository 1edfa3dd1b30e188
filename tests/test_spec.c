/*
 * test_spec.c -- the registry and the spec parsers of SPEC section 10:
 * policy specs, the bloom's arguments, extractor specs, \xNN escapes,
 * policy lists, the shared kind namespace, and the checks on what a
 * factory hands back.  Every error is checked for what its message says.
 */
#include "test.h"
#include "../engine/filter_internal.h"

#include <stdlib.h>

static char err[1024];

/* Makes a policy; returns its status, leaves the message in err. */
static int try_policy(fl_registry *reg, const char *spec, fl_filter_policy **out) {
    err[0] = '\0';
    return fl_registry_make_policy(reg, spec, out, err, sizeof err);
}

/* ---- Good specs ----------------------------------------------------------- */

FL_TEST(spec_good_policies) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    static const struct { const char *spec, *name; uint64_t mb; } rows[] = {
        { "bloom", "_bf", 10000 },
        { "bloom()", "_bf", 10000 },
        { "  bloom(bits=10)\t", "_bf", 10000 },
        { "bloom(bits=7.5,whole_key=0,prefix=fixed:3)", "_bf:p=fixed3:wh=0", 7500 },
        { "bloom( bits = 8 , prefix = delim:\\x2c )", "_bf:p=delim,", 8000 },
        { "bloom(prefix=delim:;)", "_bf:p=delim;", 10000 },
        { "bloom(prefix=delim:\\x29)", "_bf:p=delim)", 10000 },
        { "bloom(bits=0)", "_bf", 0 },
        { "bloom(bits=1000)", "_bf", 1000000 },
        { "bloom(bits=0.0005)", "_bf", 1 },       /* exact half rounds up   */
        { "bloom(bits=0.00049)", "_bf", 0 },
        { "bloom(bits=7.0005)", "_bf", 7001 },
        { "bloom(bits=7.12345)", "_bf", 7123 },
        { "bloom(bits=.5)", "_bf", 500 },
        { "bloom(bits=10.)", "_bf", 10000 },
        { "bloom(bits=.0005)", "_bf", 1 },
        { "bloom(bits=1000.)", "_bf", 1000000 },
        { "bloom(bits=1000.0000)", "_bf", 1000000 },  /* not above 1000        */
        { "bloom(bits=999.9995)", "_bf", 1000000 },   /* rounds up to 1000     */
        { "bloom(bits=10.000000000000000000000000000000000000000000000000000000000000000001)",
          "_bf", 10000 },                               /* long decimals too    */
        { "bloom(\tbits\t=\t.5\t)", "_bf", 500 },
        { "bloom( )", "_bf", 10000 },
        { "bloom(bits=010)", "_bf", 10000 },
        { "bloom(bits=\\x31\\x30)", "_bf", 10000 },  /* values may use \xNN */
        { "bloom(whole_key=\\x30,prefix=fixed:1)", "_bf:p=fixed1:wh=0", 10000 },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        fl_filter_policy *p = NULL;
        int rc = try_policy(reg, rows[i].spec, &p);
        if (rc != FL_OK) {
            fl_test_fail(__FILE__, __LINE__, "%s: %s", rows[i].spec, err);
            continue;
        }
        CHECK_STR(fl_call_policy_name(NULL, p), rows[i].name);
        CHECK_EQ(fl_bloom_policy_millibits(p), rows[i].mb);
        p->ops->destroy(p);
    }
    fl_registry_free(reg);
}

/* ---- Bad specs: each error and what it says ----------------------------- */

FL_TEST(spec_bad_policies) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    static const struct { const char *spec; int rc; const char *says[3]; } rows[] = {
        { "blom(bits=10)", FL_ERR_NOTFOUND,
          { "unknown policy kind 'blom'", "known policy kinds: bloom", "blom(bits=10)" } },
        { "fixed", FL_ERR_NOTFOUND, { "'fixed' is an extractor kind", "known policy kinds: bloom" } },
        { "fixed:3", FL_ERR_NOTFOUND,
          { "'fixed' is an extractor kind, not a policy kind", "known policy kinds: bloom" } },
        { "mine:3", FL_ERR_INVALID, { "unexpected ':' after kind 'mine'", "expected '('" } },
        { "", FL_ERR_INVALID, { "expected KIND or KIND(ARG=VALUE,...)" } },
        { "(bits=10)", FL_ERR_INVALID, { "expected KIND" } },
        { "abcdefghijklmnopqrstuvwxyz0123456", FL_ERR_INVALID, { "too long" } },
        { "bloom(bits=10", FL_ERR_INVALID, { "unbalanced parentheses", "never closed" } },
        { "bloom(bits=10))", FL_ERR_INVALID, { "unexpected text ')'", "unbalanced" } },
        { "bloom)", FL_ERR_INVALID, { "unexpected ')' after kind 'bloom'" } },
        { "bloom(bits=10)x", FL_ERR_INVALID, { "unexpected text 'x'" } },
        { "bloom (bits=10)", FL_ERR_INVALID, { "unexpected ' '" } },
        { "bloom(bitz=10)", FL_ERR_INVALID,
          { "unknown argument 'bitz'", "known arguments: bits, whole_key, prefix" } },
        { "bloom(bits=1,bits=2)", FL_ERR_INVALID, { "argument 'bits' given twice" } },
        { "bloom(10)", FL_ERR_INVALID, { "argument '10': expected ARG=VALUE" } },
        { "bloom(bits=10,)", FL_ERR_INVALID, { "empty argument" } },
        { "bloom(,bits=10)", FL_ERR_INVALID, { "empty argument" } },
        { "bloom(whole_key=2)", FL_ERR_INVALID, { "whole_key: expected 0 or 1; got '2'" } },
        { "bloom(whole_key=yes)", FL_ERR_INVALID, { "whole_key: expected 0 or 1" } },
        { "bloom(prefix=nope:3)", FL_ERR_NOTFOUND,
          { "prefix: extractor spec 'nope:3'", "unknown extractor kind 'nope'",
            "known extractor kinds: fixed, capped, delim, lastdelim" } },
        { "bloom(prefix=fixed:0)", FL_ERR_INVALID, { "prefix: extractor spec 'fixed:0'", "from 1" } },
        { "bloom(prefix=)", FL_ERR_INVALID, { "prefix: extractor spec ''", "expected KIND" } },
        { "bloom(prefix=bloom)", FL_ERR_NOTFOUND, { "'bloom' is a policy kind" } },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        fl_filter_policy *p = NULL;
        int rc = try_policy(reg, rows[i].spec, &p);
        if (rc != rows[i].rc || p)
            fl_test_fail(__FILE__, __LINE__, "'%s': rc %d (%s), expected %d; message: %s",
                         rows[i].spec, rc, fl_strerror(rc), rows[i].rc, err);
        CHECK_CONTAINS(err, "policy spec '");
        for (size_t s = 0; s < 3 && rows[i].says[s]; s++) CHECK_CONTAINS(err, rows[i].says[s]);
        if (p) p->ops->destroy(p);
    }
    fl_registry_free(reg);
}

/* A message longer than the caller's buffer keeps its end, where the
 * culprit is named, and loses its middle; a long list is quoted shortened. */
FL_TEST(spec_long_messages_keep_the_culprit) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    static char spec[5000], list[20000];
    memcpy(spec, "nosuch(x=", 9);
    memset(spec + 9, 'y', 3000);
    strcpy(spec + 3009, ")");
    char err[1024];
    fl_filter_policy *p = NULL;
    CHECK_RC(fl_registry_make_policy(reg, spec, &p, err, sizeof err), FL_ERR_NOTFOUND);
    CHECK(strlen(err) < sizeof err);
    CHECK_CONTAINS(err, "policy spec 'nosuch(x=yyy");
    CHECK_CONTAINS(err, " [...] ");
    CHECK_CONTAINS(err, "unknown policy kind 'nosuch'; known policy kinds: bloom");
    size_t used = 0;
    for (int i = 1; i <= 300; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "bloom(bits=10,prefix=fixed:%d);", i);
    strcpy(list + used, "nosuch");
    fl_policy_list pl = { NULL, 0 };
    CHECK_RC(fl_policy_list_parse(reg, NULL, list, &pl, err, sizeof err), FL_ERR_NOTFOUND);
    CHECK_CONTAINS(err, "spec 301: policy spec 'nosuch': unknown policy kind 'nosuch'");
    CHECK_CONTAINS(err, " ... ");
    CHECK(strlen(err) < 400);
    fl_policy_list_free(NULL, &pl);
    fl_registry_free(reg);
}

FL_TEST(spec_bad_bits) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    const char *bad[] = { "-1", "-0", "nan", "NaN", "inf", "infinity", "1e1", "", "10x",
                          "0x10", "1000.001", "1001", "1.2.3", ".", "+5", "1 0",
                          "1000.0001", "1000.0004", "1000.00000001", "1000.1", "..5", "5..",
                          "99999999999999999999", "\\x2d1", "\\x", "1\\x00" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char spec[64];
        snprintf(spec, sizeof spec, "bloom(bits=%s)", bad[i]);
        fl_filter_policy *p = NULL;
        int rc = try_policy(reg, spec, &p);
        if (rc != FL_ERR_INVALID || p)
            fl_test_fail(__FILE__, __LINE__, "%s: rc %d, expected FL_ERR_INVALID", spec, rc);
        CHECK_CONTAINS(err, "bits: expected a decimal number of bits per key from 0 to 1000");
        CHECK_CONTAINS(err, spec);
    }
    fl_registry_free(reg);
}

/* ---- Extractor specs -------------------------------------------------------- */

FL_TEST(spec_extractors) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    fl_prefix_extractor *ex = NULL;
    CHECK_OK(fl_registry_make_extractor(reg, "fixed:3", &ex, err, sizeof err));
    CHECK_STR(fl_call_extractor_name(NULL, ex), "fixed3");
    ex->ops->destroy(ex);
    static const struct { const char *spec; int rc; const char *says[2]; } rows[] = {
        { "nope", FL_ERR_NOTFOUND,
          { "unknown extractor kind 'nope'", "known extractor kinds: fixed, capped, delim, lastdelim" } },
        { "bloom", FL_ERR_NOTFOUND, { "'bloom' is a policy kind, not an extractor kind" } },
        { "bloom(bits=3)", FL_ERR_NOTFOUND, { "'bloom' is a policy kind, not an extractor kind" } },
        { ":3", FL_ERR_INVALID, { "expected KIND or KIND:ARGS" } },
        { "fixed(3)", FL_ERR_INVALID, { "expected KIND or KIND:ARGS" } },
        { "fixed", FL_ERR_INVALID, { "fixed needs a length" } },
        { " fixed:3", FL_ERR_INVALID, { "expected KIND" } },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        err[0] = '\0';
        ex = NULL;
        int rc = fl_registry_make_extractor(reg, rows[i].spec, &ex, err, sizeof err);
        if (rc != rows[i].rc || ex)
            fl_test_fail(__FILE__, __LINE__, "'%s': rc %d, expected %d; message: %s",
                         rows[i].spec, rc, rows[i].rc, err);
        CHECK_CONTAINS(err, "extractor spec '");
        for (size_t s = 0; s < 2 && rows[i].says[s]; s++) CHECK_CONTAINS(err, rows[i].says[s]);
    }
    fl_registry_free(reg);
}

/* ---- Escapes ---------------------------------------------------------------- */

FL_TEST(spec_unescape) {
    char out[16];
    CHECK_EQ(fl_spec_unescape("a\\x2cb", 6, out, sizeof out), 3);
    CHECK_STR(out, "a,b");
    CHECK_EQ(fl_spec_unescape("\\x4A\\x4b", 8, out, sizeof out), 2);
    CHECK_STR(out, "JK");
    CHECK_EQ(fl_spec_unescape("\\x00z", 5, out, sizeof out), 2);
    CHECK(out[0] == '\0' && out[1] == 'z');
    CHECK_EQ(fl_spec_unescape("", 0, out, sizeof out), 0);
    CHECK_EQ(fl_spec_unescape("abc", 2, out, sizeof out), 2);         /* in_len bounds */
    CHECK_STR(out, "ab");
    const char *bad[] = { "\\", "\\x", "\\x4", "\\xg0", "\\X41", "\\\\", "a\\n", "\\x4\\x41" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (fl_spec_unescape(bad[i], strlen(bad[i]), out, sizeof out) != -1)
            fl_test_fail(__FILE__, __LINE__, "'%s' unescaped", bad[i]);
    CHECK_EQ(fl_spec_unescape("abc", 3, out, 3), 3);                  /* fits exactly */
    CHECK_EQ(fl_spec_unescape("abcd", 4, out, 3), -1);                /* overflow     */
}

/* ---- Policy lists ------------------------------------------------------------- */

static int try_list(fl_registry *reg, const char *spec, fl_policy_list *list) {
    err[0] = '\0';
    return fl_policy_list_parse(reg, NULL, spec, list, err, sizeof err);
}

FL_TEST(spec_policy_lists) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    fl_policy_list list;
    CHECK_OK(try_list(reg, "none", &list));
    CHECK_EQ(list.count, 0);
    CHECK_OK(try_list(reg, " none\t", &list));
    CHECK_EQ(list.count, 0);
    fl_policy_list_free(NULL, &list);

    CHECK_OK(try_list(reg, "bloom(bits=10);bloom(bits=8,prefix=fixed:3)", &list));
    CHECK_EQ(list.count, 2);
    if (list.count == 2) {
        CHECK_STR(fl_call_policy_name(NULL, list.items[0]), "_bf");
        CHECK_STR(fl_call_policy_name(NULL, list.items[1]), "_bf:p=fixed3");
        CHECK_EQ(fl_bloom_policy_millibits(list.items[1]), 8000);
    }
    fl_policy_list_free(NULL, &list);
    CHECK(list.items == NULL && list.count == 0);

    /* blanks around specs; ';' inside parentheses does not split */
    CHECK_OK(try_list(reg, " bloom ;\tbloom(prefix=delim:;,whole_key=0) ; bloom(prefix=fixed:2)",
                      &list));
    CHECK_EQ(list.count, 3);
    if (list.count == 3) CHECK_STR(fl_call_policy_name(NULL, list.items[1]), "_bf:p=delim;:wh=0");
    fl_policy_list_free(NULL, &list);

    static const struct { const char *spec; const char *says[3]; } bad[] = {
        { "", { "empty policy list", "'none'" } },
        { "  ", { "empty policy list" } },
        { "bloom;;bloom(prefix=fixed:3)", { "spec 2 is empty" } },
        { "bloom;", { "spec 2 is empty" } },
        { ";bloom", { "spec 1 is empty" } },
        { "none;bloom", { "spec 1 is 'none', which must be the whole list" } },
        { "bloom;none", { "spec 2 is 'none'" } },
        { "bloom(bits=10);bloom(bits=8)",
          { "spec 2 'bloom(bits=8)' has the name '_bf'", "already used by spec 1" } },
        { "bloom(prefix=fixed:3);bloom(prefix=fixed:03,bits=4)", { "name '_bf:p=fixed3'" } },
        { "bloom;blom", { "spec 2", "unknown policy kind 'blom'", "known policy kinds: bloom" } },
        { "bloom(bits=10;bloom", { "spec 1", "unbalanced parentheses" } },
        { "bloom(bits=x)", { "policy list 'bloom(bits=x)', spec 1", "bits: expected" } },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        list.count = 99;
        int rc = try_list(reg, bad[i].spec, &list);
        if (rc == FL_OK || list.count != 0 || list.items != NULL)
            fl_test_fail(__FILE__, __LINE__, "'%s' parsed (rc %d)", bad[i].spec, rc);
        CHECK_CONTAINS(err, bad[i].spec);
        for (size_t s = 0; s < 3 && bad[i].says[s]; s++) CHECK_CONTAINS(err, bad[i].says[s]);
    }
    fl_registry_free(reg);
}

/* ---- The registry ----------------------------------------------------------- */

static int dummy_extractor_factory(const fl_registry *reg, const char *args,
                                   fl_prefix_extractor **out, char *e, size_t e_len) {
    /* "two" is fixed:2 under another kind; its args are passed on. */
    (void)args;
    return fl_registry_make_extractor(reg, "fixed:2", out, e, e_len);
}

static int dummy_policy_factory(const fl_registry *reg, const char *args,
                                fl_filter_policy **out, char *e, size_t e_len) {
    /* "wrapped(ARGS)" is bloom(ARGS): it checks that ARGS arrive verbatim. */
    char spec[256];
    snprintf(spec, sizeof spec, "bloom(%s)", args);
    return fl_registry_make_policy(reg, spec, out, e, e_len);
}

FL_TEST(spec_registry_namespace) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    char kinds[256];
    fl_registry_policy_kinds(reg, kinds, sizeof kinds);
    CHECK_STR(kinds, "bloom");
    fl_registry_extractor_kinds(reg, kinds, sizeof kinds);
    CHECK_STR(kinds, "fixed, capped, delim, lastdelim");

    /* one namespace for policies and extractors */
    CHECK_RC(fl_registry_add_policy(reg, "bloom", dummy_policy_factory), FL_ERR_EXISTS);
    CHECK_RC(fl_registry_add_policy(reg, "fixed", dummy_policy_factory), FL_ERR_EXISTS);
    CHECK_RC(fl_registry_add_extractor(reg, "bloom", dummy_extractor_factory), FL_ERR_EXISTS);
    CHECK_RC(fl_registry_add_extractor(reg, "delim", dummy_extractor_factory), FL_ERR_EXISTS);
    CHECK_RC(fl_registry_add_policy(reg, "none", dummy_policy_factory), FL_ERR_EXISTS);
    /* kinds are 1..31 bytes of [A-Za-z0-9_-] */
    CHECK_RC(fl_registry_add_policy(reg, "", dummy_policy_factory), FL_ERR_INVALID);
    CHECK_RC(fl_registry_add_policy(reg, "a b", dummy_policy_factory), FL_ERR_INVALID);
    CHECK_RC(fl_registry_add_policy(reg, "a:b", dummy_policy_factory), FL_ERR_INVALID);
    CHECK_RC(fl_registry_add_policy(reg, "abcdefghijklmnopqrstuvwxyz012345", dummy_policy_factory),
             FL_ERR_INVALID);
    CHECK_RC(fl_registry_add_policy(reg, "x", NULL), FL_ERR_INVALID);
    CHECK_RC(fl_registry_add_policy(NULL, "x", dummy_policy_factory), FL_ERR_INVALID);
    CHECK_OK(fl_registry_add_policy(reg, "abcdefghijklmnopqrstuvwxyz01234", dummy_policy_factory));
    CHECK_OK(fl_registry_add_policy(reg, "Wrapped_-9", dummy_policy_factory));
    CHECK_OK(fl_registry_add_extractor(reg, "two", dummy_extractor_factory));
    CHECK_RC(fl_registry_add_extractor(reg, "Wrapped_-9", dummy_extractor_factory), FL_ERR_EXISTS);

    fl_registry_policy_kinds(reg, kinds, sizeof kinds);
    CHECK_STR(kinds, "bloom, abcdefghijklmnopqrstuvwxyz01234, Wrapped_-9");
    fl_registry_extractor_kinds(reg, kinds, sizeof kinds);
    CHECK_STR(kinds, "fixed, capped, delim, lastdelim, two");
    fl_registry_policy_kinds(reg, kinds, 8);                  /* truncates safely */
    CHECK(strlen(kinds) < 8);

    fl_filter_policy *p = NULL;
    CHECK_OK(try_policy(reg, "Wrapped_-9(prefix=two,bits=\\x33)", &p));
    if (p) {
        CHECK_STR(fl_call_policy_name(NULL, p), "_bf:p=fixed2");
        CHECK_EQ(fl_bloom_policy_millibits(p), 3000);
        p->ops->destroy(p);
    }
    CHECK_RC(try_policy(reg, "nope", &p), FL_ERR_NOTFOUND);
    CHECK_CONTAINS(err, "known policy kinds: bloom, abcdefghijklmnopqrstuvwxyz01234, Wrapped_-9");
    fl_registry_free(reg);
    fl_registry_free(NULL);
}

/* ---- What factories hand back is checked ------------------------------------- */

static int version_seen;
static fl_filter_policy *handed_out;    /* freed by the test when the registry cannot */
static void odd_destroy(fl_filter_policy *self) { version_seen = self->abi_version; free(self); }
static const char *odd_name(const fl_filter_policy *self) { (void)self; return "odd"; }
static int odd_new_builder(const fl_filter_policy *self, fl_filter_builder **out) {
    (void)self; *out = NULL; return FL_ERR_INVALID;
}
static int odd_decode(const fl_filter_policy *self, fl_slice d, fl_filter **out) {
    (void)self; (void)d; *out = NULL; return FL_ERR_CORRUPT;
}
static const fl_filter_policy_ops odd_ops = { odd_name, odd_new_builder, odd_decode, NULL, odd_destroy };
static const fl_filter_policy_ops odd_ops_no_decode = { odd_name, odd_new_builder, NULL, NULL, odd_destroy };

/* args select the defect: "v2", "v0", "noops", "nodecode", "null", "fail" */
static int odd_factory(const fl_registry *reg, const char *args, fl_filter_policy **out,
                       char *e, size_t e_len) {
    (void)reg;
    if (strcmp(args, "null") == 0) return FL_OK;
    if (strcmp(args, "fail") == 0) {
        snprintf(e, e_len, "odd: cannot today");
        return FL_ERR_INVALID;
    }
    fl_filter_policy *p = calloc(1, sizeof *p);
    if (!p) return FL_ERR_NOMEM;
    p->abi_version = strcmp(args, "v2") == 0 ? 2 : strcmp(args, "v0") == 0 ? 0 : 1;
    p->ops = strcmp(args, "noops") == 0 ? NULL
           : strcmp(args, "nodecode") == 0 ? &odd_ops_no_decode : &odd_ops;
    *out = p;
    handed_out = p;
    return FL_OK;
}

FL_TEST(spec_factory_objects_checked) {
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    CHECK_OK(fl_registry_add_policy(reg, "odd", odd_factory));
    fl_filter_policy *p = NULL;

    version_seen = -1;
    CHECK_RC(try_policy(reg, "odd(v2)", &p), FL_ERR_VERSION);
    CHECK(p == NULL);
    CHECK_CONTAINS(err, "policy kind 'odd' was built for filter ABI 2; this filterlab supports 1");
    CHECK_EQ(version_seen, 2);                 /* refused and destroyed */

    /* Objects with no usable ops or an impossible version cannot be
     * destroyed safely; the registry refuses them and leaves them be. */
    CHECK_RC(try_policy(reg, "odd(v0)", &p), FL_ERR_PLUGIN);
    CHECK_CONTAINS(err, "abi_version 0; expected 1");
    free(handed_out);
    CHECK_RC(try_policy(reg, "odd(noops)", &p), FL_ERR_PLUGIN);
    CHECK_CONTAINS(err, "NULL ops");
    free(handed_out);
    version_seen = -1;
    CHECK_RC(try_policy(reg, "odd(nodecode)", &p), FL_ERR_PLUGIN);
    CHECK_CONTAINS(err, "NULL ops or a NULL name/new_builder/decode/destroy");
    CHECK_EQ(version_seen, 1);
    CHECK_RC(try_policy(reg, "odd(null)", &p), FL_ERR_PLUGIN);
    CHECK_CONTAINS(err, "returned FL_OK but no policy");
    CHECK_RC(try_policy(reg, "odd(fail)", &p), FL_ERR_INVALID);
    CHECK_STR(err, "policy spec 'odd(fail)': odd: cannot today");
    CHECK_OK(try_policy(reg, "odd(ok)", &p));
    if (p) p->ops->destroy(p);
    fl_registry_free(reg);
}
