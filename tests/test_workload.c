/*
 * test_workload.c -- unit tests of the workload format (SPEC 9): every op,
 * every error class with its "FILE:LINE: expected ..., got ..." message,
 * comments and the description, byte-string quoting, size limits, and the
 * round trip print -> parse -> print on hand-written and seeded random
 * workloads.  The random test prints its seed on failure; FL_WL_SEED=N reruns
 * it from seed N.
 */
#include "test.h"
#include "../workloads/workload.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define FL_WL_TEST_KEY_MAX   65535u
#define FL_WL_TEST_VALUE_MAX (1024u * 1024u)

/* ---- Helpers ------------------------------------------------------------ */

static int parse_text(const char *text, size_t len, fl_workload *w, char *err, size_t err_len) {
    return fl_workload_parse(text, len, "t.wl", w, err, err_len);
}

static int parse_str(const char *text, fl_workload *w, char *err, size_t err_len) {
    return parse_text(text, strlen(text), w, err, err_len);
}

/* Runs print_fn into a malloc'd NUL-terminated string. */
static char *print_workload(const fl_workload *w) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    int rc = fl_workload_print(w, f);
    fclose(f);
    if (rc != 0) { free(buf); return NULL; }
    return buf;
}

static char *print_bytes(const void *data, size_t len) {
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f) return NULL;
    fl_bytes_print(f, data, len);
    fclose(f);
    return buf;
}

static char *print_op(const fl_op *op) {
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f) return NULL;
    int rc = fl_op_print(op, f);
    fclose(f);
    if (rc != 0) { free(buf); return NULL; }
    return buf;
}

static bool bytes_eq(const fl_bytes *b, const void *data, size_t len) {
    return b->data && b->len == len && (len == 0 || memcmp(b->data, data, len) == 0);
}
#define BYTES_IS(b, lit) bytes_eq(&(b), lit, sizeof lit - 1)

static bool ops_equal(const fl_op *x, const fl_op *y) {
    if (x->kind != y->kind || x->full != y->full || x->has_ctx != y->has_ctx) return false;
    if (!bytes_eq(&x->a, y->a.data, y->a.len) || !bytes_eq(&x->b, y->b.data, y->b.len))
        return false;
    if (x->ctx_len != y->ctx_len || memcmp(x->ctx, y->ctx, sizeof x->ctx) != 0) return false;
    if (x->opt_count != y->opt_count) return false;
    for (size_t i = 0; i < x->opt_count; i++)
        if (strcmp(x->opts[i].key, y->opts[i].key) || strcmp(x->opts[i].value, y->opts[i].value))
            return false;
    return true;
}

static bool workloads_equal(const fl_workload *x, const fl_workload *y) {
    if (x->count != y->count) return false;
    if (strcmp(x->description ? x->description : "", y->description ? y->description : ""))
        return false;
    for (size_t i = 0; i < x->count; i++)
        if (!ops_equal(&x->ops[i], &y->ops[i])) return false;
    return true;
}

static bool workload_empty(const fl_workload *w) {
    return w->count == 0 && w->ops == NULL && w->description == NULL;
}

static const char *opt_value(const fl_op *op, const char *key) {
    for (size_t i = 0; i < op->opt_count; i++)
        if (strcmp(op->opts[i].key, key) == 0) return op->opts[i].value;
    return NULL;
}

#define HDR "filterlab-workload 1\n"

/* ---- Every op ----------------------------------------------------------- */

FL_TEST(workload_parse_every_op) {
    const char *text =
        HDR
        "open policies=\"bloom(bits=10,prefix=fixed:4)\" memtable_bytes=4096\n"
        "put k1 v1\n"
        "del k1\n"
        "delrange a z\n"
        "get k1\n"
        "get k2 ctx=00ff10\n"
        "scan_prefix pre ctx=\n"
        "scan_prefix pre2\n"
        "scan a \"\"\n"
        "flush\n"
        "compact\n"
        "compact full\n"
        "  reopen\tlegacy_filters=1   policies=none  \n";
    fl_workload w;
    char err[512];
    CHECK_OK(parse_str(text, &w, err, sizeof err));
    CHECK_EQ(w.count, 13);
    if (w.count != 13) { fl_workload_free(&w); return; }
    CHECK_STR(w.description, "");
    fl_op *o = w.ops;
    CHECK_EQ(o[0].kind, FL_OP_OPEN);
    CHECK_EQ(o[0].line, 2);
    CHECK_EQ(o[0].opt_count, 2);
    CHECK_STR(o[0].opts[0].key, "policies");
    CHECK_STR(o[0].opts[0].value, "bloom(bits=10,prefix=fixed:4)");
    CHECK_STR(o[0].opts[1].key, "memtable_bytes");
    CHECK_STR(o[0].opts[1].value, "4096");
    CHECK_EQ(o[1].kind, FL_OP_PUT);
    CHECK(BYTES_IS(o[1].a, "k1") && BYTES_IS(o[1].b, "v1"));
    CHECK_EQ(o[2].kind, FL_OP_DEL);
    CHECK(BYTES_IS(o[2].a, "k1"));
    CHECK_EQ(o[3].kind, FL_OP_DELRANGE);
    CHECK(BYTES_IS(o[3].a, "a") && BYTES_IS(o[3].b, "z"));
    CHECK_EQ(o[4].kind, FL_OP_GET);
    CHECK(!o[4].has_ctx);
    CHECK_EQ(o[5].kind, FL_OP_GET);
    CHECK(o[5].has_ctx);
    CHECK_EQ(o[5].ctx_len, 3);
    CHECK(o[5].ctx[0] == 0x00 && o[5].ctx[1] == 0xff && o[5].ctx[2] == 0x10);
    CHECK_EQ(o[6].kind, FL_OP_SCAN_PREFIX);
    CHECK(BYTES_IS(o[6].a, "pre"));
    CHECK(o[6].has_ctx);
    CHECK_EQ(o[6].ctx_len, 0);
    CHECK(!o[7].has_ctx);
    CHECK_EQ(o[8].kind, FL_OP_SCAN);
    CHECK(BYTES_IS(o[8].a, "a") && BYTES_IS(o[8].b, ""));
    CHECK_EQ(o[9].kind, FL_OP_FLUSH);
    CHECK_EQ(o[10].kind, FL_OP_COMPACT);
    CHECK(!o[10].full);
    CHECK_EQ(o[11].kind, FL_OP_COMPACT);
    CHECK(o[11].full);
    CHECK_EQ(o[12].kind, FL_OP_REOPEN);
    CHECK_EQ(o[12].line, 14);
    CHECK_EQ(o[12].opt_count, 2);
    CHECK_STR(opt_value(&o[12], "legacy_filters"), "1");
    CHECK_STR(opt_value(&o[12], "policies"), "none");
    /* Every op's byte strings are allocated, used or not (workload.h). */
    for (size_t i = 0; i < w.count; i++) CHECK(o[i].a.data && o[i].b.data);
    fl_workload_free(&w);
    CHECK(workload_empty(&w));
}

FL_TEST(workload_parse_all_option_keys) {
    const char *text = HDR
        "open policies=\"bloom(bits=10)\" compactor=none min_filter_keys=0 memtable_bytes=1"
        " sst_bytes=2 block_bytes=3 l0_trigger=4 max_runs=5 legacy_filters=0\n";
    fl_workload w;
    char err[512];
    CHECK_OK(parse_str(text, &w, err, sizeof err));
    CHECK_EQ(w.count, 1);
    size_t known = 0;
    while (fl_wl_option_keys[known]) known++;
    CHECK_EQ(known, 9);
    if (w.count == 1) {
        CHECK_EQ(w.ops[0].opt_count, 9);
        for (size_t i = 0; fl_wl_option_keys[i] && i < w.ops[0].opt_count; i++)
            CHECK_STR(w.ops[0].opts[i].key, fl_wl_option_keys[i]);
    }
    fl_workload_free(&w);
    /* open with no options means all defaults */
    CHECK_OK(parse_str(HDR "open\nput a b\n", &w, err, sizeof err));
    CHECK_EQ(w.count, 2);
    if (w.count == 2) CHECK_EQ(w.ops[0].opt_count, 0);
    fl_workload_free(&w);
}

/* ---- Errors ------------------------------------------------------------- */

typedef struct {
    const char *text;
    size_t len;             /* 0: strlen(text) */
    unsigned line;
    const char *expected;   /* in the message after "expected " */
    const char *got;        /* in the message after ", got " */
} fl_wl_bad_case;

static const fl_wl_bad_case bad_cases[] = {
    /* header */
    { "", 0, 1, "the header \"filterlab-workload 1\"", "end of file" },
    { "# only\n# comments\n", 0, 2, "the header", "end of file" },
    { "put a b\n", 0, 1, "the header \"filterlab-workload 1\"", "\"put a b\"" },
    { "filterlab-workload 2\n", 0, 1, "the header", "\"filterlab-workload 2\"" },
    { "filterlab-workload 1 x\n", 0, 1, "the header", "\"filterlab-workload 1 x\"" },
    { " filterlab-workload 1\n", 0, 1, "the header", "\" filterlab-workload 1\"" },
    { "filterlab-workload  1\n", 0, 1, "the header", "\"filterlab-workload  1\"" },
    /* ops and argument counts */
    { HDR "frob x\n", 0, 2, "an op (open, put, del", "\"frob\"" },
    { HDR "PUT a b\n", 0, 2, "an op", "\"PUT\"" },
    { HDR "\"put\" a b\n", 0, 2, "an op", "\"\\\"put\\\"\"" },
    { HDR "put\n", 0, 2, "KEY of \"put KEY VALUE\"", "end of line" },
    { HDR "put a\n", 0, 2, "VALUE of \"put KEY VALUE\"", "end of line" },
    { HDR "put a b c\n", 0, 2, "end of line after \"put KEY VALUE\"", "\"c\"" },
    { HDR "del\n", 0, 2, "KEY of \"del KEY\"", "end of line" },
    { HDR "del a b\n", 0, 2, "end of line after \"del KEY\"", "\"b\"" },
    { HDR "delrange a\n", 0, 2, "END of \"delrange START END\"", "end of line" },
    { HDR "delrange a b c\n", 0, 2, "end of line after \"delrange START END\"", "\"c\"" },
    { HDR "get\n", 0, 2, "KEY of \"get KEY [ctx=HEX]\"", "end of line" },
    { HDR "get a b\n", 0, 2, "ctx=HEX or end of line after \"get KEY\"", "\"b\"" },
    { HDR "get a ctx=00 ctx=01\n", 0, 2, "end of line after \"get KEY\"", "\"ctx=01\"" },
    { HDR "scan_prefix\n", 0, 2, "PREFIX of \"scan_prefix PREFIX", "end of line" },
    { HDR "scan_prefix p q\n", 0, 2, "ctx=HEX or end of line", "\"q\"" },
    { HDR "scan a\n", 0, 2, "END of \"scan START END\"", "end of line" },
    { HDR "scan a b c\n", 0, 2, "end of line after \"scan START END\"", "\"c\"" },
    { HDR "flush now\n", 0, 2, "end of line after \"flush\"", "\"now\"" },
    { HDR "compact now\n", 0, 2, "\"full\" or end of line", "\"now\"" },
    { HDR "compact full x\n", 0, 2, "end of line after \"compact full\"", "\"x\"" },
    { HDR "compact \"full\"\n", 0, 2, "\"full\" or end of line", "\"\\\"full\\\"\"" },
    { HDR "put a b # comment\n", 0, 2, "end of line after", "\"#\"" },
    /* byte strings */
    { HDR "put a=b c\n", 0, 2, "KEY of \"put KEY VALUE\": bare bytes", "\"a=b\" (byte 0x3d" },
    { HDR "put caf\xc3\xa9 v\n", 0, 2, "bare bytes 0x21-0x7e", "\"caf\\xc3\\xa9\" (byte 0xc3)" },
    { HDR "put a\x01" "b v\n", 0, 2, "bare bytes", "\"a\\x01b\" (byte 0x01)" },
    { HDR "put a\\b v\n", 0, 2, "bare bytes", "\"a\\\\b\" (byte 0x5c)" },
    { HDR "put k ab\"c\n", 0, 2, "VALUE of \"put KEY VALUE\": bare", "(byte 0x22)" },
    { HDR "put \"abc v\n", 0, 2, "a closing '\"' ending KEY", "\"\\\"abc v\"" },
    { HDR "put k \"abc\\\"\n", 0, 2, "a closing '\"' ending VALUE", "\"\\\"abc\\\\\\\"\"" },
    { HDR "put \"a\\qb\" v\n", 0, 2, "an escape \\\\, \\\", \\n, \\t or \\xNN in KEY",
      "(bad escape \\q)" },
    { HDR "put \"\\x4\" v\n", 0, 2, "an escape", "(bad escape \\x4)" },
    { HDR "put \"\\xzz\" v\n", 0, 2, "an escape", "(bad escape \\xzz)" },
    { HDR "put \"a\\\n", 0, 2, "an escape after '\\' in KEY", "end of line" },
    { HDR "put \"a\tb\" v\n", 0, 2, "printable ASCII or escapes in KEY", "(raw byte 0x09" },
    { HDR "put \"caf\xc3\xa9\" v\n", 0, 2, "printable ASCII or escapes", "(raw byte 0xc3" },
    { HDR "put \"a\"b v\n", 0, 2, "a blank after the closing '\"' of KEY", "\"\\\"a\\\"b\"" },
    { HDR "put a\rb v\n", 0, 2, "bare bytes", "(byte 0x0d)" },
    { HDR "put a\0b v\n", sizeof(HDR "put a\0b v\n") - 1, 2, "bare bytes", "(byte 0x00)" },
    /* options */
    { HDR "put a b\nopen policies=none\n", 0, 3, "\"open\" only as the first op",
      "\"open\" after 1 op" },
    { HDR "open\nopen\n", 0, 3, "\"open\" only as the first op", "after 1 op" },
    { HDR "open polices=none\n", 0, 2,
      "an option key of open (one of: policies, compactor, min_filter_keys, memtable_bytes, "
      "sst_bytes, block_bytes, l0_trigger, max_runs, legacy_filters)", "\"polices\"" },
    { HDR "reopen =1\n", 0, 2, "an option key of reopen", "\"\"" },
    { HDR "open l0_trigger=1 l0_trigger=2\n", 0, 2, "each option at most once in open",
      "l0_trigger twice" },
    { HDR "reopen policies\n", 0, 2, "an option KEY=VALUE of reopen (keys: policies",
      "\"policies\"" },
    { HDR "reopen policies=\n", 0, 2, "a value after \"policies=\"", "\"policies=\"" },
    { HDR "reopen\n", 0, 2, "at least one option KEY=VALUE after reopen", "end of line" },
    { HDR "reopen   \n", 0, 2, "at least one option", "end of line" },
    { HDR "reopen policies=\"a\\x00b\"\n", 0, 2, "a value of option policies without NUL",
      "\"policies=\\\"a\\\\x00b\\\"\"" },
    { HDR "reopen policies=a\"b\n", 0, 2, "a value of option policies: bare", "(byte 0x22)" },
    { HDR "reopen policies=caf\xc3\xa9\n", 0, 2, "a value of option policies: bare",
      "(byte 0xc3)" },
    { HDR "reopen policies=\"abc\n", 0, 2, "a closing '\"' ending the value of option policies",
      "\"policies=\\\"abc\"" },
    { HDR "reopen policies=\"a\"x\n", 0, 2, "a blank after the closing '\"' of the value",
      "\"policies=\\\"a\\\"x\"" },
    /* contexts */
    { HDR "get k ctx=abc\n", 0, 2, "ctx=HEX with an even number of hex digits, at most 128",
      "\"ctx=abc\"" },
    { HDR "get k ctx=zz\n", 0, 2, "ctx=HEX with an even number", "\"ctx=zz\"" },
    { HDR "scan_prefix k ctx=\"00\"\n", 0, 2, "ctx=HEX with an even number", "\"ctx=\\\"00\\\"\"" },
    { HDR "get k ctx=00000000000000000000000000000000000000000000000000000000000000000000"
          "00000000000000000000000000000000000000000000000000000000000000\n", 0, 2,
      "at most 128 (64 bytes)", "\"ctx=0000" },
    /* line numbers count comments, blank lines and CRLF lines */
    { "# d\r\n\r\n" HDR "\r\n# c\r\nput a b\r\nput a\r\n", 0, 7, "VALUE of", "end of line" },
    /* the description is a C string */
    { "# a\0b\n" HDR, sizeof("# a\0b\n" HDR) - 1, 1, "a comment without NUL bytes", "a NUL byte" },
};

FL_TEST(workload_errors_name_file_line_and_expectation) {
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const fl_wl_bad_case *c = &bad_cases[i];
        fl_workload w;
        memset(&w, 0xa5, sizeof w);                 /* out must be emptied */
        char err[1024];
        size_t len = c->len ? c->len : strlen(c->text);
        int rc = parse_text(c->text, len, &w, err, sizeof err);
        char prefix[64];
        snprintf(prefix, sizeof prefix, "t.wl:%u: expected ", c->line);
        if (rc != -1 || strncmp(err, prefix, strlen(prefix)) != 0 ||
            !strstr(err, c->expected) || !strstr(err, ", got ") ||
            !strstr(strstr(err, ", got "), c->got) || !workload_empty(&w)) {
            fl_test_fail(__FILE__, __LINE__, "case %zu: rc %d, message \"%s\"; wanted \"%s...%s"
                         "...got ...%s\"", i, rc, rc ? err : "", prefix, c->expected, c->got);
        }
        if (rc == 0) fl_workload_free(&w);
    }
}

FL_TEST(workload_errors_without_message_buffer) {
    fl_workload w;
    CHECK_RC(fl_workload_parse(HDR "frob\n", strlen(HDR "frob\n"), NULL, &w, NULL, 0), -1);
    CHECK(workload_empty(&w));
    char small[12];
    CHECK_RC(fl_workload_parse(HDR "frob\n", strlen(HDR "frob\n"), "long-file-name.wl", &w,
                               small, sizeof small), -1);
    CHECK_EQ(strlen(small), sizeof small - 1);
    CHECK(workload_empty(&w));
    /* A later error frees the ops parsed before it. */
    char err[256];
    CHECK_RC(parse_str(HDR "put a b\nput c d\nput e\n", &w, err, sizeof err), -1);
    CHECK(workload_empty(&w));
    CHECK_CONTAINS(err, "t.wl:4: expected VALUE");
}

/* ---- Comments, blank lines, description --------------------------------- */

FL_TEST(workload_comments_and_description) {
    const char *text =
        "# first line\n"
        "#second\n"
        "   #  indented\n"
        "#\n"
        "\n"
        "\t# after blank\n"
        "filterlab-workload 1 \t \n"
        "# ignored\n"
        "   \n"
        "put\ta\t\tb\n"
        "  # ignored too\n"
        "get a";                                    /* no final newline */
    fl_workload w;
    char err[256];
    CHECK_OK(parse_str(text, &w, err, sizeof err));
    CHECK_STR(w.description, "first line\nsecond\n indented\n\nafter blank");
    CHECK_EQ(w.count, 2);
    if (w.count == 2) {
        CHECK_EQ(w.ops[0].line, 10);
        CHECK(BYTES_IS(w.ops[0].a, "a") && BYTES_IS(w.ops[0].b, "b"));
        CHECK_EQ(w.ops[1].line, 12);
    }
    char *printed = print_workload(&w);
    CHECK_STR(printed, "# first line\n# second\n#  indented\n#\n# after blank\n"
                       HDR "put a b\nget a\n");
    free(printed);
    fl_workload_free(&w);

    /* No comments: description "" (not NULL); a header and nothing else. */
    CHECK_OK(parse_str(HDR, &w, err, sizeof err));
    CHECK_STR(w.description, "");
    CHECK_EQ(w.count, 0);
    fl_workload_free(&w);

    /* CRLF line endings; '#' lines later in the file are not description. */
    CHECK_OK(parse_str("# d\r\nfilterlab-workload 1\r\n# not d\r\nput a b\r\n", &w, err, sizeof err));
    CHECK_STR(w.description, "d");
    CHECK_EQ(w.count, 1);
    if (w.count == 1) CHECK(BYTES_IS(w.ops[0].b, "b"));
    fl_workload_free(&w);

    /* A description with empty lines, leading and trailing, survives printing. */
    fl_workload d = { .description = "\n two spaces  \n\n", .count = 0, .ops = NULL };
    printed = print_workload(&d);
    CHECK_STR(printed, "#\n#  two spaces  \n#\n#\n" HDR);
    CHECK_OK(parse_str(printed ? printed : "", &w, err, sizeof err));
    CHECK_STR(w.description, d.description);
    fl_workload_free(&w);
    free(printed);
}

/* ---- Quoting ------------------------------------------------------------ */

FL_TEST(workload_bytes_quoting) {
    static const struct { const char *bytes; size_t len; const char *spelled; } cases[] = {
        { "", 0, "\"\"" },
        { "\0", 1, "\"\\x00\"" },
        { "\xff", 1, "\"\\xff\"" },
        { "a b", 3, "\"a b\"" },
        { "a\"b", 3, "\"a\\\"b\"" },
        { "a\\b", 3, "\"a\\\\b\"" },
        { "a=b", 3, "\"a=b\"" },
        { "=", 1, "\"=\"" },
        { "abc", 3, "abc" },
        { "!~#{}()[]:;,.", 13, "!~#{}()[]:;,." },
        { "\n\t\r", 3, "\"\\n\\t\\x0d\"" },
        { "\x7f\x80 ", 3, "\"\\x7f\\x80 \"" },
        { "k\0\xff", 3, "\"k\\x00\\xff\"" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *s = print_bytes(cases[i].bytes, cases[i].len);
        CHECK_STR(s, cases[i].spelled);
        /* and it parses back to the same bytes */
        char text[128];
        snprintf(text, sizeof text, HDR "get %s\n", s ? s : "");
        fl_workload w;
        char err[256];
        int rc = parse_str(text, &w, err, sizeof err);
        if (rc != 0) fl_test_fail(__FILE__, __LINE__, "case %zu: %s", i, err);
        else CHECK(bytes_eq(&w.ops[0].a, cases[i].bytes, cases[i].len));
        fl_workload_free(&w);
        free(s);
    }
    /* Upper-case \xNN is accepted; escapes inside quotes may spell bare bytes. */
    fl_workload w;
    char err[256];
    CHECK_OK(parse_str(HDR "put \"\\xFF\\x0a\\x41\" \"\\\\\\\"x\"\n", &w, err, sizeof err));
    if (w.count == 1) {
        CHECK(BYTES_IS(w.ops[0].a, "\xff\nA"));
        CHECK(BYTES_IS(w.ops[0].b, "\\\"x"));
    }
    fl_workload_free(&w);
}

FL_TEST(workload_option_value_quoting) {
    static const struct { const char *value, *spelled; } cases[] = {
        { "4096", "l0_trigger=4096" },
        { "bloom(bits=10,prefix=fixed:4)", "l0_trigger=bloom(bits=10,prefix=fixed:4)" },
        { "", "l0_trigger=\"\"" },
        { "bloom(bits=10); bloom(bits=8)", "l0_trigger=\"bloom(bits=10); bloom(bits=8)\"" },
        { "delim:\\x3a", "l0_trigger=\"delim:\\\\x3a\"" },
        { "a\"b", "l0_trigger=\"a\\\"b\"" },
        { "\t\xe9", "l0_trigger=\"\\t\\xe9\"" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fl_wl_option opt = { "l0_trigger", (char *)cases[i].value };
        fl_op op;
        memset(&op, 0, sizeof op);
        op.kind = FL_OP_REOPEN;
        op.opt_count = 1;
        op.opts = &opt;
        char *s = print_op(&op);
        char want[128];
        snprintf(want, sizeof want, "reopen %s", cases[i].spelled);
        CHECK_STR(s, want);
        char text[160];
        snprintf(text, sizeof text, HDR "%s\n", s ? s : "");
        fl_workload w;
        char err[256];
        int rc = parse_str(text, &w, err, sizeof err);
        if (rc != 0) fl_test_fail(__FILE__, __LINE__, "case %zu: %s", i, err);
        else CHECK_STR(w.ops[0].opts[0].value, cases[i].value);
        fl_workload_free(&w);
        free(s);
    }
    /* A bare value may hold '=' and '\' (policy specs use \xNN themselves). */
    fl_workload w;
    char err[256];
    CHECK_OK(parse_str(HDR "open policies=bloom(bits=10,prefix=delim:\\x3a)\n", &w, err, sizeof err));
    if (w.count == 1) CHECK_STR(w.ops[0].opts[0].value, "bloom(bits=10,prefix=delim:\\x3a)");
    fl_workload_free(&w);
}

FL_TEST(workload_op_print_and_names) {
    static const struct { const char *line; const char *name; } cases[] = {
        { "open", "open" },
        { "open policies=none memtable_bytes=4096", "open" },
        { "put \"\" \"\"", "put" },
        { "del \"\\x00\"", "del" },
        { "delrange a b", "delrange" },
        { "get \"a b\" ctx=00ff", "get" },
        { "get a ctx=", "get" },
        { "scan_prefix p", "scan_prefix" },
        { "scan_prefix p ctx=0a", "scan_prefix" },
        { "scan \"\" \"\\xff\"", "scan" },
        { "flush", "flush" },
        { "compact", "compact" },
        { "compact full", "compact" },
        { "reopen legacy_filters=1", "reopen" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[160];
        snprintf(text, sizeof text, HDR "%s\n", cases[i].line);
        fl_workload w;
        char err[256];
        int rc = parse_str(text, &w, err, sizeof err);
        if (rc != 0) { fl_test_fail(__FILE__, __LINE__, "case %zu: %s", i, err); continue; }
        char *s = print_op(&w.ops[0]);
        CHECK_STR(s, cases[i].line);
        CHECK_STR(fl_op_name(w.ops[0].kind), cases[i].name);
        free(s);
        fl_workload_free(&w);
    }
    CHECK_STR(fl_op_name((fl_op_kind)0), "?");
    CHECK_STR(fl_op_name((fl_op_kind)99), "?");
    fl_op bad;
    memset(&bad, 0, sizeof bad);
    CHECK(print_op(&bad) == NULL);
}

/* ---- Contexts and limits ------------------------------------------------ */

FL_TEST(workload_ctx_zero_padded) {
    char text[512];
    char hex[129];
    for (int i = 0; i < 128; i++) hex[i] = "0123456789abcdefABCDEF"[i % 22];
    hex[128] = 0;
    snprintf(text, sizeof text, HDR "get k ctx=0102\nget k ctx=\nget k\nscan_prefix p ctx=%s\n", hex);
    fl_workload w;
    char err[256];
    CHECK_OK(parse_str(text, &w, err, sizeof err));
    CHECK_EQ(w.count, 4);
    if (w.count != 4) { fl_workload_free(&w); return; }
    uint8_t zero[FL_WL_CTX_MAX] = { 0 };
    CHECK(w.ops[0].has_ctx);
    CHECK_EQ(w.ops[0].ctx_len, 2);
    CHECK(w.ops[0].ctx[0] == 1 && w.ops[0].ctx[1] == 2);
    CHECK_MEM(w.ops[0].ctx + 2, FL_WL_CTX_MAX - 2, zero, FL_WL_CTX_MAX - 2);
    CHECK(w.ops[1].has_ctx);
    CHECK_EQ(w.ops[1].ctx_len, 0);
    CHECK_MEM(w.ops[1].ctx, FL_WL_CTX_MAX, zero, FL_WL_CTX_MAX);
    CHECK(!w.ops[2].has_ctx);
    CHECK_MEM(w.ops[2].ctx, FL_WL_CTX_MAX, zero, FL_WL_CTX_MAX);
    CHECK_EQ(w.ops[3].ctx_len, 64);
    CHECK_EQ(w.ops[3].ctx[0], 0x01);
    CHECK_EQ(w.ops[3].ctx[5], 0xab);
    CHECK_EQ(w.ops[3].ctx[8], 0xAB);
    CHECK_EQ(w.ops[3].ctx[10], 0xEF);
    fl_workload_free(&w);
}

/* A workload holding one op whose byte string is `n` bytes of 'a' (bare) or
 * of 0xff spelled "\xff" (quoted, 4 text bytes per byte). */
static char *big_text(const char *before, size_t n, bool quoted, const char *after) {
    size_t blen = strlen(before), alen = strlen(after);
    size_t body = quoted ? 4 * n + 2 : n;
    char *t = malloc(strlen(HDR) + blen + body + alen + 2);
    if (!t) return NULL;
    char *p = t;
    memcpy(p, HDR, strlen(HDR)); p += strlen(HDR);
    memcpy(p, before, blen); p += blen;
    if (quoted) {
        *p++ = '"';
        for (size_t i = 0; i < n; i++) { memcpy(p, "\\xff", 4); p += 4; }
        *p++ = '"';
    } else {
        memset(p, 'a', n); p += n;
    }
    memcpy(p, after, alen); p += alen;
    *p++ = '\n';
    *p = 0;
    return t;
}

static void check_size(const char *before, size_t n, bool quoted, const char *after,
                       bool ok, const char *expected, int line) {
    char *t = big_text(before, n, quoted, after);
    if (!t) { fl_test_fail(__FILE__, line, "out of memory"); return; }
    fl_workload w;
    char err[512];
    int rc = parse_str(t, &w, err, sizeof err);
    if (ok && rc != 0) fl_test_fail(__FILE__, line, "%zu bytes: %s", n, err);
    if (!ok) {
        char got[64];
        snprintf(got, sizeof got, ", got %zu bytes", n);
        if (rc != -1 || !strstr(err, "t.wl:2: expected ") || !strstr(err, expected) ||
            !strstr(err, got))
            fl_test_fail(__FILE__, line, "%zu bytes: rc %d, \"%s\"", n, rc, rc ? err : "");
    }
    if (rc == 0) {
        const fl_bytes *b = w.ops[0].kind == FL_OP_PUT && strstr(before, "put k ") ? &w.ops[0].b
                                                                                 : &w.ops[0].a;
        if (b->len != n) fl_test_fail(__FILE__, line, "len %zu != %zu", b->len, n);
        fl_workload_free(&w);
    }
    free(t);
}

FL_TEST(workload_size_limits) {
    const char *key_max = "of at most 65535 bytes";
    check_size("put ", FL_WL_TEST_KEY_MAX, false, " v", true, NULL, __LINE__);
    check_size("put ", FL_WL_TEST_KEY_MAX + 1, false, " v", false, "KEY of \"put KEY VALUE\" of at most 65535 bytes", __LINE__);
    check_size("put ", FL_WL_TEST_KEY_MAX + 1, true, " v", false, key_max, __LINE__);
    check_size("del ", FL_WL_TEST_KEY_MAX + 1, false, "", false, key_max, __LINE__);
    check_size("get ", FL_WL_TEST_KEY_MAX, true, "", true, NULL, __LINE__);
    check_size("get ", FL_WL_TEST_KEY_MAX + 1, false, "", false, key_max, __LINE__);
    check_size("scan_prefix ", FL_WL_TEST_KEY_MAX + 1, false, "", false, key_max, __LINE__);
    check_size("delrange a ", FL_WL_TEST_KEY_MAX + 1, false, "", false,
               "END of \"delrange START END\" of at most 65535", __LINE__);
    check_size("scan a ", FL_WL_TEST_KEY_MAX + 1, false, "", false, key_max, __LINE__);
    /* values: 1 MiB is fine, bare or quoted (a 4 MiB line); one more byte is not */
    check_size("put k ", FL_WL_TEST_VALUE_MAX, false, "", true, NULL, __LINE__);
    check_size("put k ", FL_WL_TEST_VALUE_MAX, true, "", true, NULL, __LINE__);
    check_size("put k ", FL_WL_TEST_VALUE_MAX + 1, false, "", false,
               "VALUE of \"put KEY VALUE\" of at most 1048576 bytes", __LINE__);
    check_size("put k ", FL_WL_TEST_VALUE_MAX + 1, true, "", false, "of at most 1048576 bytes",
               __LINE__);
}

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
        op.kind = (fl_op_kind)(FL_OP_OPEN + rng_below(s, 10));
        if (op.kind == FL_OP_OPEN && i != 0) op.kind = FL_OP_REOPEN;
        op.line = (unsigned)i + 2;
        op.a.len = random_len(s, sizeof a);
        op.b.len = random_len(s, sizeof b);
        random_bytes(s, a, op.a.len);
        random_bytes(s, b, op.b.len);
        op.a.data = a;
        op.b.data = b;
        if ((op.kind == FL_OP_GET || op.kind == FL_OP_SCAN_PREFIX) && rng_below(s, 2)) {
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
        if (fl_workload_add(w, &op) != 0) return -1;
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
