/*
 * test_known.c -- known upstream bugs (properties/known.c, `check --known`):
 * the list format and its errors, and matching -- each signature of the
 * shipped list (adapters/rocksdb/known.txt) matches its bug's
 * regression workload, and near misses (the same workload without the
 * memtable bloom, the failure at a get, another assertion, a wrapped
 * extractor, another engine or property) match nothing.  With RocksDB, the
 * regression workloads themselves are run: each fails on RocksDB 7.8.3 and
 * matches its own entry.
 */
#include "test.h"
#include "../adapters/adapters.h"

#include <stdlib.h>

static const char *const GOOD =
    "# a comment\n"
    "\n"
    "bug one-bug\n"
    "  fix      release 1.2 (PR 3)\n"
    "  about    it breaks\n"
    "  engine   rocksdb\n"
    "  property P2\n"
    "  message  ^P2 results: line [0-9]+ seek\n"
    "  at       seek,seek_for_prev\n"
    "  option   rocksdb.memtable_prefix_bloom > 0\n"
    "  before   set_options policies ~ prefix=\n"
    "bug two.bug_2\n"
    "fix f\n"
    "about a\n"
    "engine rocksdb\n"
    "property P10\n"
    "message died\n"
    "option rocksdb.extractor != wrapped\n";

static fl_known *parse_ok(const char *text) {
    fl_known *k = NULL;
    char err[512] = "";
    int rc = fl_known_parse(text, strlen(text), "t.txt", &k, err, sizeof err);
    if (rc != FL_OK) fl_test_fail(__FILE__, __LINE__, "parse: %s", err);
    return k;
}

/* text must be refused with an error containing want. */
static void parse_bad(const char *text, const char *want) {
    fl_known *k = NULL;
    char err[512] = "";
    CHECK_RC(fl_known_parse(text, strlen(text), "t.txt", &k, err, sizeof err), FL_ERR_INVALID);
    CHECK(k == NULL);
    CHECK_CONTAINS(err, want);
}

FL_TEST(known_list_parses) {
    fl_known *k = parse_ok(GOOD);
    CHECK_EQ(fl_known_count(k), 2);
    const fl_known_bug *b = fl_known_get(k, 0);
    CHECK(b != NULL);
    if (b) {
        CHECK_STR(b->id, "one-bug");
        CHECK_STR(b->fix, "release 1.2 (PR 3)");
        CHECK_STR(b->about, "it breaks");
        CHECK_STR(b->engine, "rocksdb");
        CHECK_EQ(b->property, FL_P2);
    }
    CHECK(fl_known_get(k, 1) && fl_known_get(k, 1)->property == FL_P10);
    CHECK(fl_known_get(k, 2) == NULL);
    fl_known_free(k);
}

FL_TEST(known_list_errors_name_the_line) {
    const char *entry = "bug b\nfix f\nabout a\nengine rocksdb\nproperty P2\nmessage m\nat get\n";
    char text[2048];
    parse_bad("", "no 'bug ID' entry");
    parse_bad("fix f\n", "t.txt:1: 'fix' before the first 'bug ID' or 'hazard ID' line");
    parse_bad("bug b\nabout a\nengine rocksdb\nproperty P2\nmessage m\nat get\n", "t.txt:1: bug b has no 'fix'");
    parse_bad("bug b\nfix f\nabout a\nengine rocksdb\nproperty P2\nat get\n", "has no 'message'");
    parse_bad("bug b\nfix f\nabout a\nengine rocksdb\nproperty P2\nmessage m\n",
              "the signature needs an 'at', 'option', 'before' or 'target' line");
    snprintf(text, sizeof text, "%s%s", entry, entry);
    parse_bad(text, "t.txt:8: bug b given twice");
    snprintf(text, sizeof text, "%swhen x\n", entry);
    parse_bad(text, "t.txt:8: unknown keyword 'when'");
    snprintf(text, sizeof text, "%sfix g\n", entry);
    parse_bad(text, "t.txt:8: 'fix' given twice");
    parse_bad("bug b\nfix f\nabout a\nengine rocksdb\nproperty P12\nmessage m\nat get\n", "expected P1 to P11");
    parse_bad("bug b\nfix f\nabout a\nengine rocksdb\nproperty P2\nmessage (\nat get\n",
              "t.txt:6: message: not a POSIX extended regular expression");
    parse_bad("bug b\nfix f\nabout a\nengine rocksdb\nproperty P2\nmessage m\nat gets\n", "unknown op 'gets'");
    snprintf(text, sizeof text, "%soption k >= 1\n", entry);
    parse_bad(text, "unknown comparison '>='");
    snprintf(text, sizeof text, "%soption k > x\n", entry);
    parse_bad(text, "needs a number");
    snprintf(text, sizeof text, "%soption k\n", entry);
    parse_bad(text, "expected KEY OP VALUE");
    snprintf(text, sizeof text, "%sbefore sets\n", entry);
    parse_bad(text, "'before' needs an op kind");
    parse_bad("bug b c\n", "'bug' needs an id");
    parse_bad("hazard h c\n", "'hazard' needs an id");
    snprintf(text, sizeof text, "%shazard b\n", entry);
    parse_bad(text, "t.txt:8: hazard b given twice");
    fl_known *k = NULL;
    char err[512] = "";
    CHECK_RC(fl_known_parse("bug b\nfix f\0g\n", 12, "t.txt", &k, err, sizeof err), FL_ERR_INVALID);
    CHECK_CONTAINS(err, "NUL byte");
}

/* ---- Matching -------------------------------------------------------------------- */

static fl_workload wl(const char *text) {
    fl_workload w;
    char err[512] = "";
    if (fl_workload_parse(text, strlen(text), "t.wl", &w, err, sizeof err) != 0) {
        fl_test_fail(__FILE__, __LINE__, "workload: %s", err);
        memset(&w, 0, sizeof w);
    }
    return w;
}

/* The entry (by id, "" for none) that a finding at the last op of text
 * with that property and message matches in k. */
static const char *match_as(const fl_known *k, const char *engine, const char *text, int property,
                            const char *message, bool unshrunk) {
    fl_workload w = wl(text);
    fl_known_finding f = { engine, &w, w.count ? w.count - 1 : 0, property, message, unshrunk };
    int i = fl_known_match(k, &f);
    fl_workload_free(&w);
    return i < 0 ? "" : fl_known_get(k, (size_t)i)->id;
}

static const char *match(const fl_known *k, const char *engine, const char *text, int property,
                         const char *message) {
    return match_as(k, engine, text, property, message, false);
}

static fl_known *shipped(void) {
    char path[4096], err[512] = "";
    fl_known *k = NULL;
    snprintf(path, sizeof path, "%s/adapters/rocksdb/known.txt", fl_test_srcdir());
    if (fl_known_load(path, &k, err, sizeof err) != FL_OK) fl_test_fail(__FILE__, __LINE__, "%s", err);
    return k;
}

#define MEMTABLE_BLOOM "rocksdb-memtable-bloom-old-extractor"
#define FIXED_PREFIX   "rocksdb-fixed-prefix-out-of-domain"

static const char *const STALE =
    "filterlab-workload 1\n"
    "open policies=\"bloom(bits=10,prefix=fixed:5)\" memtable_bytes=100000 rocksdb.memtable_prefix_bloom=0.1\n"
    "put abc:u1 1\n"
    "set_options policies=\"bloom(bits=10,prefix=fixed:3)\"\n";
static const char *const MISSED = "P2 results: line 5 seek: the engine's result ends after 0 item(s); the model has abc:u1 next";

FL_TEST(known_memtable_bloom_signature_and_near_misses) {
    fl_known *k = shipped();
    if (!k) return;
    char text[2048];
    snprintf(text, sizeof text, "%sseek abc:a0 n=5\n", STALE);
    CHECK_STR(match(k, "rocksdb", text, FL_P2, MISSED), MEMTABLE_BLOOM);
    snprintf(text, sizeof text, "%sseek_for_prev abc:x0 n=5\n", STALE);
    CHECK_STR(match(k, "rocksdb", text, FL_P2,
                    "P2 results: line 5 seek_for_prev: item 1: the engine returned abc:a, the model abc:u1=1"),
              MEMTABLE_BLOOM);
    /* a scan_prefix in prefix mode too (check --engine rocksdb, seed 2
     * trial 43, shrunk) */
    CHECK_STR(match(k, "rocksdb",
                    "filterlab-workload 1\n"
                    "open policies=bloom(bits=4.5,whole_key=0)\n"
                    "put \"\" \"\"\n"
                    "set_options policies=bloom(bits=4.5,prefix=capped:4,whole_key=0) rocksdb.memtable_prefix_bloom=0.1\n"
                    "flush\nput aaaa \"\"\n"
                    "set_options policies=bloom(bits=4.5,prefix=fixed:3,whole_key=0)\n"
                    "scan_prefix aaa\n", FL_P2,
                    "P2 results: line 12 scan_prefix aaa: the engine's result ends after 0 item(s); the model has aaaa next"),
              MEMTABLE_BLOOM);
    /* near misses: no memtable bloom; the bloom turned off before the read;
     * no set_options; the extractor gone; a get; extra items; other
     * engine, property */
    CHECK_STR(match(k, "rocksdb",
                    "filterlab-workload 1\n"
                    "open policies=\"bloom(bits=10,prefix=fixed:5)\" rocksdb.memtable_prefix_bloom=0\n"
                    "put abc:u1 1\nset_options policies=\"bloom(bits=10,prefix=fixed:3)\"\nseek abc:a0 n=5\n",
                    FL_P2, MISSED), "");
    snprintf(text, sizeof text, "%sset_options rocksdb.memtable_prefix_bloom=0\nseek abc:a0 n=5\n", STALE);
    CHECK_STR(match(k, "rocksdb", text, FL_P2, MISSED), "");
    CHECK_STR(match(k, "rocksdb",
                    "filterlab-workload 1\n"
                    "open policies=\"bloom(bits=10,prefix=fixed:3)\" rocksdb.memtable_prefix_bloom=0.1\n"
                    "put abc:u1 1\nseek abc:a0 n=5\n",
                    FL_P2, MISSED), "");
    snprintf(text, sizeof text, "%sset_options policies=\"bloom(bits=10)\"\nseek abc:a0 n=5\n", STALE);
    CHECK_STR(match(k, "rocksdb", text, FL_P2, MISSED), "");
    snprintf(text, sizeof text, "%sget abc:u1\n", STALE);
    CHECK_STR(match(k, "rocksdb", text, FL_P2, "P2 results: line 5 get abc:u1: the engine returned none, the model 1"), "");
    snprintf(text, sizeof text, "%sseek abc:a0 n=5\n", STALE);
    CHECK_STR(match(k, "rocksdb", text, FL_P2, "P2 results: line 5 seek: the engine returned 3 item(s), the model 2"), "");
    CHECK_STR(match(k, "filterlab", text, FL_P2, MISSED), "");
    CHECK_STR(match(k, "rocksdb", text, FL_P3, MISSED), "");
    fl_known_free(k);
}

#define SEEK_FOR_PREV "rocksdb-seek-for-prev-partitioned-prefix"

FL_TEST(known_seek_for_prev_signature_and_near_misses) {
    fl_known *k = shipped();
    if (!k) return;
    static const char *const missed =
        "P2 results: line 4 seek_for_prev: the engine's result ends after 0 item(s); the model has 0009 next";
    static const char *const stale =
        "P2 results: line 4 seek_for_prev: item 5: the engine returned g1=old, the model g1=new";
    const char *body = "put 0009 x\nflush\nseek_for_prev 0009a\n";
    char text[2048];
    snprintf(text, sizeof text, "filterlab-workload 1\nopen policies=\"bloom(bits=50,prefix=fixed:4,whole_key=0)\" "
             "rocksdb.partition_filters=1\n%s", body);
    CHECK_STR(match(k, "rocksdb", text, FL_P2, missed), SEEK_FOR_PREV);
    CHECK_STR(match(k, "rocksdb", text, FL_P2, stale), SEEK_FOR_PREV);
    /* near misses: whole-key filtering on; filters not partitioned; no
     * extractor; a forward seek */
    snprintf(text, sizeof text, "filterlab-workload 1\nopen policies=\"bloom(bits=50,prefix=fixed:4)\" "
             "rocksdb.partition_filters=1\n%s", body);
    CHECK_STR(match(k, "rocksdb", text, FL_P2, missed), "");
    snprintf(text, sizeof text, "filterlab-workload 1\nopen policies=\"bloom(bits=50,prefix=fixed:4,whole_key=0)\" "
             "rocksdb.partition_filters=0\n%s", body);
    CHECK_STR(match(k, "rocksdb", text, FL_P2, missed), "");
    snprintf(text, sizeof text, "filterlab-workload 1\nopen policies=\"bloom(bits=50,whole_key=0)\" "
             "rocksdb.partition_filters=1\n%s", body);
    CHECK_STR(match(k, "rocksdb", text, FL_P2, missed), "");
    snprintf(text, sizeof text, "filterlab-workload 1\nopen policies=\"bloom(bits=50,prefix=fixed:4,whole_key=0)\" "
             "rocksdb.partition_filters=1\nput 0009 x\nflush\nseek 0009a\n");
    CHECK_STR(match(k, "rocksdb", text, FL_P2,
                    "P2 results: line 4 seek: the engine's result ends after 0 item(s); the model has 0009 next"), "");
    fl_known_free(k);
}

static const char *const ABORT =
    "P10 bad-input: line 5 scan_prefix abcd: the run died with signal 6 (Aborted); its last words on stderr: "
    "filterlab: ./util/slice.cc:57: virtual rocksdb::Slice rocksdb::{anonymous}::FixedPrefixTransform::"
    "Transform(const rocksdb::Slice&) const: Assertion `InDomain(src)' failed.";

FL_TEST(known_fixed_prefix_signature_and_near_misses) {
    fl_known *k = shipped();
    if (!k) return;
    const char *body = "put abcd1 1\nput b 2\nscan_prefix abcd\n";
    char text[2048];
    snprintf(text, sizeof text, "filterlab-workload 1\nopen policies=\"bloom(prefix=fixed:4)\"\n%s", body);
    CHECK_STR(match(k, "rocksdb", text, FL_P10, ABORT), FIXED_PREFIX);
    /* the extractor set by set_options counts as in force */
    snprintf(text, sizeof text, "filterlab-workload 1\nopen policies=\"bloom(bits=2)\"\n"
             "set_options policies=\"bloom(bits=2,prefix=fixed:4)\"\n%s", body);
    CHECK_STR(match(k, "rocksdb", text, FL_P10, ABORT), FIXED_PREFIX);
    /* near misses: wrapped (filterlab's extractor in RocksDB), capped,
     * another crash, a get, another engine */
    snprintf(text, sizeof text, "filterlab-workload 1\nopen policies=\"bloom(prefix=fixed:4)\" "
             "rocksdb.extractor=wrapped\n%s", body);
    CHECK_STR(match(k, "rocksdb", text, FL_P10, ABORT), "");
    snprintf(text, sizeof text, "filterlab-workload 1\nopen policies=\"bloom(prefix=capped:4)\"\n%s", body);
    CHECK_STR(match(k, "rocksdb", text, FL_P10, ABORT), "");
    snprintf(text, sizeof text, "filterlab-workload 1\nopen policies=\"bloom(prefix=fixed:4)\"\n%s", body);
    CHECK_STR(match(k, "rocksdb", text, FL_P10,
                    "P10 bad-input: line 5 scan_prefix abcd: the run died with signal 11 (Segmentation fault)"),
              "");
    CHECK_STR(match(k, "rocksdb", text, FL_P10,
                    "P10 bad-input: line 5 scan_prefix abcd: the run died with signal 6 (Aborted); its last "
                    "words on stderr: filterlab: db/db_iter.cc:1: Assertion `valid_' failed."), "");
    snprintf(text, sizeof text, "filterlab-workload 1\nopen policies=\"bloom(prefix=fixed:4)\"\nput b 2\nget b\n");
    CHECK_STR(match(k, "rocksdb", text, FL_P10, ABORT), "");
    CHECK_STR(match(k, "filterlab", text, FL_P10, ABORT), "");
    fl_known_free(k);
}

FL_TEST(known_option_comparisons) {
    fl_known *k = parse_ok(
        "bug eq\nfix f\nabout a\nengine e\nproperty P2\nmessage .\noption rocksdb.x = 5\n"
        "bug ne\nfix f\nabout a\nengine e\nproperty P3\nmessage .\noption rocksdb.x != 5\n"
        "bug nomatch\nfix f\nabout a\nengine e\nproperty P4\nmessage .\noption rocksdb.x !~ ^1\n"
        "bug lt\nfix f\nabout a\nengine e\nproperty P5\nmessage .\noption rocksdb.x < 2.5\n"
        "bug before\nfix f\nabout a\nengine e\nproperty P6\nmessage .\nbefore flush\n");
    if (!k) return;
    const char *set5 = "filterlab-workload 1\nopen rocksdb.x=5\nget a\n";
    const char *unset = "filterlab-workload 1\nopen\nget a\n";
    CHECK_STR(match(k, "e", set5, FL_P2, "m"), "eq");
    CHECK_STR(match(k, "e", unset, FL_P2, "m"), "");          /* never set: = is false */
    CHECK_STR(match(k, "e", set5, FL_P3, "m"), "");
    CHECK_STR(match(k, "e", unset, FL_P3, "m"), "ne");        /* never set: != is true */
    CHECK_STR(match(k, "e", "filterlab-workload 1\nopen rocksdb.x=12\nget a\n", FL_P4, "m"), "");
    CHECK_STR(match(k, "e", unset, FL_P4, "m"), "nomatch");
    CHECK_STR(match(k, "e", "filterlab-workload 1\nopen rocksdb.x=2\nget a\n", FL_P5, "m"), "lt");
    CHECK_STR(match(k, "e", "filterlab-workload 1\nopen rocksdb.x=2.5\nget a\n", FL_P5, "m"), "");
    CHECK_STR(match(k, "e", "filterlab-workload 1\nopen rocksdb.x=two\nget a\n", FL_P5, "m"), "");
    /* the value in force is the last one set before (or by) the failing op */
    CHECK_STR(match(k, "e", "filterlab-workload 1\nopen rocksdb.x=5\nreopen rocksdb.x=6\nget a\n", FL_P2, "m"), "");
    CHECK_STR(match(k, "e", "filterlab-workload 1\nopen rocksdb.x=6\nset_options rocksdb.x=5\nget a\n", FL_P2, "m"), "eq");
    CHECK_STR(match(k, "e", "filterlab-workload 1\nflush\nget a\n", FL_P6, "m"), "before");
    CHECK_STR(match(k, "e", "filterlab-workload 1\nget a\nflush\n", FL_P6, "m"), "");
    fl_known_free(k);
}

#ifdef FL_HAVE_ROCKSDB
/* The shipped regression workloads on RocksDB: each fails and is the bug
 * it is named after (on a RocksDB with the fix, the test says so and skips
 * that check). */
FL_TEST_FRESH(known_regression_workloads_on_rocksdb) {
    static const struct { const char *file, *bug; int property; bool open; } cases[] = {
        { "fixed_prefix_out_of_domain.wl", FIXED_PREFIX, FL_P10, false },
        { "memtable_bloom_old_extractor.wl", MEMTABLE_BLOOM, FL_P2, false },
        { "memtable_bloom_old_extractor_tombstone.wl", MEMTABLE_BLOOM "-tombstone", FL_P2, false },
        { "seek_for_prev_partitioned_prefix.wl", "rocksdb-seek-for-prev-partitioned-prefix", FL_P2, false },
        { "memtable_extractor_freed.wl", "rocksdb-memtable-extractor-freed", FL_P10, true },
        { "hash_memtable_extractor_freed.wl", "rocksdb-hash-memtable-extractor-freed", FL_P10, true },
        { "partitioned_filter_multiget_abort.wl", "rocksdb-partitioned-filter-multiget-empty-partition", FL_P10,
          false },
    };
    fl_known *k = shipped();
    fl_registry *reg = NULL;
    CHECK_OK(fl_registry_new(&reg));
    if (!k || !reg) { fl_known_free(k); fl_registry_free(reg); return; }
    fl_trial_env env = { .engine = &fl_engine_rocksdb, .reg = reg, .scratch = fl_test_tmpdir(),
                         .seed = FL_CHECKER_SEED, .quiet = true };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[4096], err[512] = "";
        fl_workload w;
        snprintf(path, sizeof path, "%s/workloads/regress/rocksdb/%s", fl_test_srcdir(), cases[i].file);
        if (fl_workload_load(path, &w, err, sizeof err) != 0) {
            fl_test_fail(__FILE__, __LINE__, "%s", err);
            continue;
        }
        fl_trial_outcome o;
        CHECK_OK(fl_check_workload(&env, &w, true, &o));
        if (o.property == 0 && !cases[i].open) {     /* (an open bug has no fix yet) */
            printf("  (%s: no finding: this RocksDB has the fix of %s)\n", cases[i].file, cases[i].bug);
            fl_workload_free(&w);
            continue;
        }
        CHECK_EQ(o.property, cases[i].property);
        size_t at = 0;
        while (at < w.count && w.ops[at].line != o.line) at++;
        fl_known_finding f = { "rocksdb", &w, at, o.property, o.message, false };
        int m = fl_known_match(k, &f);
        CHECK(m >= 0);
        if (m >= 0) CHECK_STR(fl_known_get(k, (size_t)m)->id, cases[i].bug);
        fl_workload_free(&w);
    }
    fl_known_free(k);
    fl_registry_free(reg);
}
#endif

/* A finding whose shrinking the deadline cut matches only an entry marked
 * identified-by-message (and still every line of it). */
FL_TEST(known_unshrunk_findings_match_only_identified_entries) {
    fl_known *k = shipped();
    if (!k) return;
    static const char *const abort_msg =
        "P10 bad-input: line 4 scan_prefix ab: the run died with signal 6 (Aborted); its last words on stderr: "
        "filterlab: ./util/slice.cc:57: virtual rocksdb::Slice rocksdb::{anonymous}::FixedPrefixTransform::"
        "Transform(const rocksdb::Slice&) const: Assertion `InDomain(src)' failed.";
    const char *text = "filterlab-workload 1\nopen policies=\"bloom(bits=10,prefix=fixed:3)\"\nput a 1\n"
                       "put b 2\nscan_prefix ab\n";
    CHECK_STR(match_as(k, "rocksdb", text, FL_P10, abort_msg, true), FIXED_PREFIX);
    CHECK(fl_known_get(k, 0)->identified_by_message);
    /* its other lines still hold: not under the wrapped extractor */
    const char *wrapped = "filterlab-workload 1\nopen policies=\"bloom(bits=10,prefix=fixed:3)\" "
                          "rocksdb.extractor=wrapped\nput a 1\nscan_prefix ab\n";
    CHECK_STR(match_as(k, "rocksdb", wrapped, FL_P10, abort_msg, true), "");
    /* the stale memtable bloom is not identified by its P2 message alone */
    char stale[1024];
    snprintf(stale, sizeof stale, "%sseek abc:a0 n=5\n", STALE);
    CHECK_STR(match_as(k, "rocksdb", stale, FL_P2, MISSED, false), MEMTABLE_BLOOM);
    CHECK_STR(match_as(k, "rocksdb", stale, FL_P2, MISSED, true), "");
    fl_known_free(k);
}

/* --avoid-known: which entries' signatures a workload holds, at any op --
 * the same test as a match at that op, without property or message. */
static bool could_be(const fl_known *k, const char *id, const char *text) {
    fl_workload w = wl(text);
    uint64_t mask = fl_known_could(k, "rocksdb", &w);
    fl_workload_free(&w);
    for (size_t i = 0; i < fl_known_count(k); i++)
        if (strcmp(fl_known_get(k, i)->id, id) == 0) return (mask >> i) & 1;
    fl_test_fail(__FILE__, __LINE__, "no entry %s", id);
    return false;
}

FL_TEST(known_could_holds_the_signature_anywhere) {
    fl_known *k = shipped();
    /* the stale-bloom signature: a prefix seek after a set_options of the
     * extractor, with the memtable bloom on -- followed by more ops */
    char text[1024];
    snprintf(text, sizeof text, "%sseek abc n=2\nput x 1\nget x\n", STALE);
    CHECK(could_be(k, MEMTABLE_BLOOM, text));
    /* the seek before the set_options: not the signature */
    CHECK(!could_be(k, MEMTABLE_BLOOM,
                    "filterlab-workload 1\n"
                    "open policies=\"bloom(bits=10,prefix=fixed:5)\" rocksdb.memtable_prefix_bloom=0.1\n"
                    "seek abc n=2\n"
                    "set_options policies=\"bloom(bits=10,prefix=fixed:3)\"\nget abc\n"));
    /* the bloom turned off by a reopen before the seek: not either */
    snprintf(text, sizeof text, "%sreopen rocksdb.memtable_prefix_bloom=0\nseek abc n=2\n", STALE);
    CHECK(!could_be(k, MEMTABLE_BLOOM, text));
    /* the FixedPrefix abort: a prefix read under fixed: not wrapped */
    CHECK(could_be(k, FIXED_PREFIX, "filterlab-workload 1\nopen policies=\"bloom(bits=10,prefix=fixed:3)\"\n"
                                    "put abc 1\nscan_prefix ab\nflush\n"));
    CHECK(!could_be(k, FIXED_PREFIX, "filterlab-workload 1\nopen policies=\"bloom(bits=10,prefix=fixed:3)\" "
                                     "rocksdb.extractor=wrapped\nput abc 1\nscan_prefix ab\n"));
    /* another engine's workload holds none of RocksDB's */
    fl_workload w = wl("filterlab-workload 1\nopen policies=\"bloom(bits=10,prefix=fixed:3)\"\nscan_prefix ab\n");
    CHECK(fl_known_could(k, "filterlab", &w) == 0);
    fl_workload_free(&w);
    fl_known_free(k);
}

/* A `hazard` entry is an entry like a bug's, named apart. */
FL_TEST(known_hazard_entries_are_a_class_of_their_own) {
    const char *text = "bug b\nfix 1.2\nabout a\nengine pebble\nproperty P2\nmessage m\nat get\n"
                       "hazard h\nfix unsupported: why\nabout a\nengine pebble\nproperty P2\nmessage m\n"
                       "at get\nbefore reopen\n";
    fl_known *k = NULL;
    char err[512] = "";
    CHECK_RC(fl_known_parse(text, strlen(text), "t.txt", &k, err, sizeof err), FL_OK);
    CHECK_EQ(fl_known_count(k), 2);
    const fl_known_bug *b = fl_known_get(k, 0), *h = fl_known_get(k, 1);
    if (b && h) {
        CHECK(!b->hazard && h->hazard);
        CHECK_STR(fl_known_class(b), "known upstream bug");
        CHECK_STR(fl_known_class(h), "hazard (unsupported by the engine and undetected by it)");
        CHECK_STR(h->fix, "unsupported: why");
    }
    /* the hazard matches only after a reopen; the bug anywhere */
    fl_workload w1 = wl("filterlab-workload 1\nopen\nget a\n");
    fl_workload w2 = wl("filterlab-workload 1\nopen\nreopen l0_trigger=4\nget a\n");
    fl_known_finding f1 = { "pebble", &w1, w1.count - 1, FL_P2, "m", false },
                     f2 = { "pebble", &w2, w2.count - 1, FL_P2, "m", false };
    CHECK_EQ(fl_known_match(k, &f1), 0);
    CHECK_EQ(fl_known_match(k, &f2), 0);
    fl_known_free(k);
    text = "hazard h\nfix unsupported: why\nabout a\nengine pebble\nproperty P2\nmessage m\nat get\nbefore reopen\n";
    CHECK_RC(fl_known_parse(text, strlen(text), "t.txt", &k, err, sizeof err), FL_OK);
    CHECK_EQ(fl_known_match(k, &f1), -1);
    CHECK_EQ(fl_known_match(k, &f2), 0);
    fl_known_free(k);
    fl_workload_free(&w1);
    fl_workload_free(&w2);
}

/* `target`: the failing op's key, as the workload format writes it. */
FL_TEST(known_target_matches_the_failing_key) {
    const char *text = "bug e\nfix none\nabout a\nengine pebble\nproperty P2\nmessage m\nat seek\ntarget = \"\"\n";
    fl_known *k = NULL;
    char err[512] = "";
    CHECK_RC(fl_known_parse(text, strlen(text), "t.txt", &k, err, sizeof err), FL_OK);
    fl_workload w = wl("filterlab-workload 1\nopen\nseek ab\nseek \"\" n=2\n");
    fl_known_finding at_ab = { "pebble", &w, 1, FL_P2, "m", false }, at_empty = { "pebble", &w, 2, FL_P2, "m", false };
    CHECK_EQ(fl_known_match(k, &at_ab), -1);
    CHECK_EQ(fl_known_match(k, &at_empty), 0);
    fl_workload only_ab = wl("filterlab-workload 1\nopen\nseek ab\n");
    CHECK_EQ(fl_known_could(k, "pebble", &only_ab), 0);
    CHECK_EQ(fl_known_could(k, "pebble", &w), 1);
    fl_known_free(k);
    fl_workload_free(&w);
    fl_workload_free(&only_ab);
    parse_bad("bug e\nfix none\nabout a\nengine pebble\nproperty P2\nmessage m\ntarget = a\ntarget = b\n",
              "'target' given twice");
}
