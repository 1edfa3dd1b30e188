/*
 * test.h -- the unit-test harness.  Each tests/ source file defines tests with
 * FL_TEST(name) { ... }; they register themselves and one runner executes
 * them (all, or those whose name contains argv[1]).  A failed check prints
 * file:line, the expression and, for status codes, the decoded error (LMDB's
 * E() habit), and the test goes on so one run shows every broken check.
 */
#ifndef FL_TEST_H
#define FL_TEST_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef void (*fl_test_fn)(void);
void fl_test_register(const char *name, fl_test_fn fn, const char *file);
void fl_test_register_fresh(const char *name, fl_test_fn fn, const char *file);
void fl_test_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *fl_test_status_name(int status);
/* A fresh empty directory for this test, removed after it (unless the
 * environment has FL_TEST_KEEP=1).  The path is valid until the test ends. */
const char *fl_test_tmpdir(void);
/* The directory of the test binary's sources' root (FL_SRCDIR, default "."). */
const char *fl_test_srcdir(void);
/* A seeded generator's next 31 bits (a 64-bit LCG's high bits). */
uint64_t fl_test_rand(uint64_t *state);
/* Steps k through "" and every key of 1 to 3 bytes over a..e in bytewise
 * order (start from len 0); false past the last. */
bool fl_test_next_short_key(uint8_t *k, size_t *len);

#define FL_TEST(name)                                                        \
    static void name(void);                                                  \
    __attribute__((constructor)) static void name##_register(void)           \
    { fl_test_register(#name, name, __FILE__); }                             \
    static void name(void)

/* A test that must run in a process of its own, not a fork of this one:
 * the runner execs itself for it (RocksDB's threads, once started in a
 * process, do not survive into a forked child). */
#define FL_TEST_FRESH(name)                                                  \
    static void name(void);                                                  \
    __attribute__((constructor)) static void name##_register(void)           \
    { fl_test_register_fresh(#name, name, __FILE__); }                       \
    static void name(void)

#define CHECK(e)                                                             \
    do { if (!(e)) fl_test_fail(__FILE__, __LINE__, "CHECK(%s)", #e); } while (0)

#define CHECK_OK(call)                                                       \
    do { int rc_ = (call);                                                   \
         if (rc_ != 0) fl_test_fail(__FILE__, __LINE__, "%s = %d (%s)",      \
                                     #call, rc_, fl_test_status_name(rc_));  \
    } while (0)

#define CHECK_RC(call, want)                                                 \
    do { int rc_ = (call), w_ = (want);                                      \
         if (rc_ != w_) fl_test_fail(__FILE__, __LINE__,                     \
             "%s = %d (%s), expected %d (%s)", #call, rc_,                   \
             fl_test_status_name(rc_), w_, fl_test_status_name(w_));         \
    } while (0)

#define CHECK_EQ(a, b)                                                       \
    do { uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                    \
         if (a_ != b_) fl_test_fail(__FILE__, __LINE__,                      \
             "%s == %s: %" PRIu64 " != %" PRIu64, #a, #b, a_, b_);           \
    } while (0)

#define CHECK_STR(a, b)                                                      \
    do { const char *a_ = (a), *b_ = (b);                                    \
         if (!a_ || !b_ || strcmp(a_, b_) != 0)                              \
             fl_test_fail(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"",  \
                          #a, #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)");   \
    } while (0)

/* s contains sub */
#define CHECK_CONTAINS(s, sub)                                               \
    do { const char *s_ = (s), *u_ = (sub);                                  \
         if (!s_ || !strstr(s_, u_))                                         \
             fl_test_fail(__FILE__, __LINE__, "%s contains \"%s\": got \"%s\"", \
                          #s, u_, s_ ? s_ : "(null)");                       \
    } while (0)

#define CHECK_MEM(a, alen, b, blen)                                          \
    do { size_t al_ = (alen), bl_ = (blen);                                  \
         if (al_ != bl_ || (al_ && memcmp((a), (b), al_) != 0))              \
             fl_test_fail(__FILE__, __LINE__, "%s[%zu] == %s[%zu]",          \
                          #a, al_, #b, bl_);                                 \
    } while (0)

#endif /* FL_TEST_H */
