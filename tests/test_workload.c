/*
 * test_workload.c -- unit tests of the workload format (SPEC 9): every op,
 * every error class with its "FILE:LINE: expected ..., got ..." message,
 * comments and the description, byte-string quoting, contexts and size
 * limits.  Round trips, appending and files are in test_workload_roundtrip.c.
 */
#include "test_workload.h"

/* ---- Every op ----------------------------------------------------------- */

FL_TEST(workload_seeks_and_set_options) {
    const char *text =
        HDR
        "seek k\n"
        "seek k n=20 prefix=1\n"
        "seek_for_prev \"\" prefix=0 n=3\n"
        "set_options policies=none memtable_bytes=512\n";
    fl_workload w;
    char err[512];
    CHECK_OK(parse_str(text, &w, err, sizeof err));
    CHECK_EQ(w.count, 4);
    if (w.count != 4) { fl_workload_free(&w); return; }
    fl_op *o = w.ops;
    CHECK_EQ(o[0].kind, FL_OP_SEEK);
    CHECK(BYTES_IS(o[0].a, "k"));
    CHECK_EQ(o[0].count, 1);
    CHECK_EQ(o[0].prefix_mode, -1);
    CHECK_EQ(o[1].count, 20);
    CHECK_EQ(o[1].prefix_mode, 1);
    CHECK_EQ(o[2].kind, FL_OP_SEEK_FOR_PREV);
    CHECK(BYTES_IS(o[2].a, ""));
    CHECK_EQ(o[2].count, 3);
    CHECK_EQ(o[2].prefix_mode, 0);
    CHECK_EQ(o[3].kind, FL_OP_SET_OPTIONS);
    CHECK_EQ(o[3].opt_count, 2);
    CHECK_STR(opt_value(&o[3], "memtable_bytes"), "512");
    /* printed as written (defaults left out), and appended copies keep the fields */
    char *t = print_workload(&w);
    CHECK_STR(t, HDR "seek k\nseek k n=20 prefix=1\nseek_for_prev \"\" n=3 prefix=0\n"
                 "set_options policies=none memtable_bytes=512\n");
    free(t);
    fl_workload c = { 0 };
    for (size_t i = 0; i < w.count; i++) CHECK_OK(fl_workload_add(&c, &w.ops[i]));
    CHECK_EQ(c.ops[1].count, 20);
    CHECK_EQ(c.ops[2].prefix_mode, 0);
    fl_op bad = w.ops[0];
    bad.count = 0;
    CHECK_RC(fl_workload_add(&c, &bad), -1);             /* n= below 1 */
    bad.count = 1;
    bad.prefix_mode = 2;
    CHECK_RC(fl_workload_add(&c, &bad), -1);
    fl_workload_free(&c);
    fl_workload_free(&w);
}

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

/* multiget: its keys packed in order (repeats and the empty key kept),
 * walked back by fl_op_multiget_key, printed as written, ctx as get's. */
FL_TEST(workload_multiget_keys) {
    fl_workload w;
    char err[512];
    CHECK_OK(parse_str(HDR "multiget k1 \"a b\" k1 \"\" ctx=0a\nmultiget only\n", &w, err, sizeof err));
    CHECK_EQ(w.count, 2);
    if (w.count != 2) { fl_workload_free(&w); return; }
    const fl_op *o = &w.ops[0];
    CHECK_EQ(o->kind, FL_OP_MULTIGET);
    CHECK_EQ(o->count, 4);
    CHECK(o->has_ctx && o->ctx_len == 1 && o->ctx[0] == 0x0a);
    static const char *const want[] = { "k1", "a b", "k1", "" };
    size_t off = 0, n = 0, len;
    const uint8_t *key;
    while (fl_op_multiget_key(o, &off, &key, &len)) {
        CHECK(n < 4 && len == strlen(want[n]) && memcmp(key, want[n], len) == 0);
        n++;
    }
    CHECK_EQ(n, 4);
    CHECK_EQ(off, o->a.len);
    /* and as gets: the multiget's line and context, one key each */
    fl_op get;
    off = n = 0;
    while (fl_op_multiget_get(o, &off, &get)) {
        CHECK(get.kind == FL_OP_GET && get.line == o->line && get.count == 0);
        CHECK(get.has_ctx && get.ctx_len == 1 && get.ctx[0] == 0x0a);
        CHECK(n < 4 && get.a.len == strlen(want[n]) && memcmp(get.a.data, want[n], get.a.len) == 0);
        n++;
    }
    CHECK_EQ(n, 4);
    char *t = print_op(o);
    CHECK_STR(t, "multiget k1 \"a b\" k1 \"\" ctx=0a");
    free(t);
    CHECK_EQ(w.ops[1].count, 1);
    CHECK_STR(fl_op_name(FL_OP_MULTIGET), "multiget");
    fl_workload_free(&w);
    /* a key over 65,535 bytes cannot be packed */
    uint8_t *buf = NULL, *big = calloc(1, 65536);
    size_t blen = 0;
    CHECK_RC(fl_op_multiget_pack(&buf, &blen, big, 65536), -1);
    CHECK_OK(fl_op_multiget_pack(&buf, &blen, big, 65535));
    CHECK_EQ(blen, 65537);
    free(buf);
    free(big);
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
    { HDR "multiget\n", 0, 2, "at least one KEY of \"multiget KEY... [ctx=HEX]\"", "end of line" },
    { HDR "multiget ctx=00\n", 0, 2, "at least one KEY of \"multiget", "ctx= first" },
    { HDR "multiget a ctx=00 b\n", 0, 2, "end of line after \"multiget KEY...\"", "\"b\"" },
    { HDR "multiget a b=c\n", 0, 2, "KEY of \"multiget KEY... [ctx=HEX]\": bare bytes", "\"b=c\"" },
    { HDR "multiget a ctx=0\n", 0, 2, "ctx=HEX with an even number", "\"ctx=0\"" },
    { HDR "multiget 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 "
          "33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65\n",
      0, 2, "at most 64 keys in \"multiget KEY...\"", "\"65\"" },
    { HDR "scan_prefix\n", 0, 2, "PREFIX of \"scan_prefix PREFIX", "end of line" },
    { HDR "scan_prefix p q\n", 0, 2, "ctx=HEX or end of line", "\"q\"" },
    { HDR "scan a\n", 0, 2, "END of \"scan START END\"", "end of line" },
    { HDR "scan a b c\n", 0, 2, "end of line after \"scan START END\"", "\"c\"" },
    { HDR "flush now\n", 0, 2, "end of line after \"flush\"", "\"now\"" },
    { HDR "compact now\n", 0, 2, "\"full\" or end of line", "\"now\"" },
    { HDR "compact full x\n", 0, 2, "end of line after \"compact full\"", "\"x\"" },
    { HDR "compact \"full\"\n", 0, 2, "\"full\" or end of line", "\"\\\"full\\\"\"" },
    { HDR "put a b # comment\n", 0, 2, "end of line after", "\"#\"" },
    { HDR "seek\n", 0, 2, "KEY of \"seek KEY [n=N] [prefix=0|1]\"", "end of line" },
    { HDR "seek_for_prev\n", 0, 2, "KEY of \"seek_for_prev KEY", "end of line" },
    { HDR "seek a n=0\n", 0, 2, "n=N with N from 1 to 1000000", "\"n=0\"" },
    { HDR "seek a n=1000001\n", 0, 2, "n=N with N from 1 to 1000000", "\"n=1000001\"" },
    { HDR "seek a n=x\n", 0, 2, "n=N with N from 1 to 1000000", "\"n=x\"" },
    { HDR "seek a prefix=2\n", 0, 2, "n=N, prefix=0|1, or end of line after \"seek KEY\"",
      "\"prefix=2\"" },
    { HDR "seek a n=2 n=3\n", 0, 2, "prefix=0|1, end of line after \"seek KEY\"", "\"n=3\"" },
    { HDR "seek a ctx=00\n", 0, 2, "or end of line after \"seek KEY\"", "\"ctx=00\"" },
    { HDR "set_options\n", 0, 2, "at least one option KEY=VALUE after set_options", "end of line" },
    { HDR "set_options frob=1\n", 0, 2, "an option key of set_options", "\"frob\"" },
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

/* ---- Streams ------------------------------------------------------------- */

static const char *write_file(const char *name, const char *text) {
    static char path[4200];
    snprintf(path, sizeof path, "%s/%s", fl_test_tmpdir(), name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    fputs(text, f);
    CHECK(fclose(f) == 0);
    return path;
}

/* A stream read in chunks of every size gives the ops, lines and
 * description of one whole parse, in order. */
FL_TEST(workload_stream_chunks_equal_whole_parse) {
    char text[1 << 16];
    size_t n = (size_t)snprintf(text, sizeof text, "# about\n#  it\n\nfilterlab-workload 1\r\n"
                                "open policies=\"bloom(bits=10)\"\n");
    for (int i = 0; i < 300; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, i % 7 ? "put k%03d \"v %d\"\n" : "\n# c\nget k%03d\n", i, i);
    snprintf(text + n, sizeof text - n, "flush");          /* no newline at the end */
    fl_workload whole;
    char err[512];
    CHECK(fl_workload_parse(text, strlen(text), "s.wl", &whole, err, sizeof err) == 0);
    const char *path = write_file("s.wl", text);
    size_t sizes[] = { 1, 2, 7, 64, 1000 };
    for (size_t c = 0; c < sizeof sizes / sizeof *sizes; c++) {
        fl_wl_stream *s;
        CHECK(fl_wl_stream_open(path, NULL, &s, err, sizeof err) == 0);
        fl_workload chunk = { 0 };
        size_t at = 0;
        for (;;) {
            CHECK(fl_wl_stream_next(s, sizes[c], &chunk, err, sizeof err) == 0);
            if (!chunk.count) break;
            CHECK(chunk.count <= sizes[c]);
            if (at == 0) CHECK_STR(chunk.description, whole.description);
            for (size_t i = 0; i < chunk.count; i++, at++) {
                CHECK(at < whole.count);
                CHECK_EQ(chunk.ops[i].kind, whole.ops[at].kind);
                CHECK_EQ(chunk.ops[i].line, whole.ops[at].line);
                CHECK_EQ(chunk.ops[i].a.len, whole.ops[at].a.len);
                CHECK_MEM(chunk.ops[i].a.data, chunk.ops[i].a.len, whole.ops[at].a.data, whole.ops[at].a.len);
                CHECK_MEM(chunk.ops[i].b.data, chunk.ops[i].b.len, whole.ops[at].b.data, whole.ops[at].b.len);
            }
        }
        CHECK_EQ(at, whole.count);
        CHECK(fl_wl_stream_next(s, sizes[c], &chunk, err, sizeof err) == 0 && chunk.count == 0);
        fl_workload_free(&chunk);
        fl_wl_stream_close(s);
    }
    fl_workload_free(&whole);
}

/* A bad line deep in a stream is reported with its file and line when its
 * chunk is read, as a whole parse reports it; so is a missing header. */
FL_TEST(workload_stream_errors_name_the_line) {
    char text[1 << 14];
    size_t n = (size_t)snprintf(text, sizeof text, "filterlab-workload 1\n");
    for (int i = 0; i < 200; i++) n += (size_t)snprintf(text + n, sizeof text - n, "put k%d v\n", i);
    snprintf(text + n, sizeof text - n, "get k\nfrobnicate x\nget k\n");
    char whole_err[512], err[512];
    fl_workload w;
    CHECK(fl_workload_parse(text, strlen(text), write_file("bad.wl", text), &w, whole_err, sizeof whole_err) != 0);
    fl_wl_stream *s;
    CHECK(fl_wl_stream_open(write_file("bad.wl", text), NULL, &s, err, sizeof err) == 0);
    fl_workload chunk = { 0 };
    int rc;
    size_t ops = 0;
    while ((rc = fl_wl_stream_next(s, 50, &chunk, err, sizeof err)) == 0 && chunk.count) ops += chunk.count;
    CHECK_EQ(rc, -1);
    CHECK_EQ(ops, 200);                                 /* the good chunks came first */
    CHECK_STR(err, whole_err);
    CHECK_CONTAINS(err, ":203:");
    CHECK(fl_wl_stream_next(s, 50, &chunk, err, sizeof err) == -1);   /* and stays failed */
    fl_workload_free(&chunk);
    fl_wl_stream_close(s);

    CHECK(fl_wl_stream_open(write_file("nohead.wl", "# only a comment\n"), NULL, &s, err, sizeof err) == 0);
    CHECK(fl_wl_stream_next(s, 50, &chunk, err, sizeof err) == -1);
    CHECK_CONTAINS(err, "the header");
    fl_wl_stream_close(s);
    CHECK(fl_wl_stream_open("/nonexistent/x.wl", NULL, &s, err, sizeof err) == -1);
    CHECK_CONTAINS(err, "/nonexistent/x.wl");
}
