/*
 * hang.c -- a plugin whose calls do not return, for the watchdog tests:
 *   policy "hang(in=might_match)"   its filters' might_match never returns
 *   policy "hang(in=build)"         its builders' build never returns
 *   policy "hang(in=slow)"          might_match takes 50 ms, then answers
 *                                   true (slow, not hung: no finding)
 *   policy "hang(in=crash)"         might_match dies of SIGSEGV
 *   policy "hang(in=abort)"         might_match calls abort(), as a failed
 *                                   assertion does
 *   extractor "hangx"               prefix_len never returns
 * Otherwise it is a correct (if useless) policy: the filter answers true.
 *
 * Build: cc -shared -fPIC -I<filterlab>/engine hang.c -o hang.so
 */
#define _POSIX_C_SOURCE 200809L     /* nanosleep */
#include "filter.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef enum { IN_MIGHT_MATCH, IN_BUILD, IN_SLOW, IN_CRASH, IN_ABORT } hang_in;

typedef struct hang_policy {
    fl_filter_policy base;          /* Base class. Must be first */
    hang_in in;
    char name[32];
} hang_policy;

typedef struct hang_filter { fl_filter base; hang_in in; } hang_filter;
typedef struct hang_builder { fl_filter_builder base; hang_in in; } hang_builder;

static void forever(void) {
    for (;;) {
        struct timespec t = { 1000, 0 };
        nanosleep(&t, NULL);
    }
}

static bool hang_might_match(const fl_filter *self, const fl_filter_query *q) {
    (void)q;
    hang_in in = ((const hang_filter *)self)->in;
    if (in == IN_MIGHT_MATCH) forever();
    if (in == IN_SLOW) {
        struct timespec t = { 0, 50000000 };
        nanosleep(&t, NULL);
    }
    if (in == IN_CRASH) raise(SIGSEGV);
    if (in == IN_ABORT) abort();
    return true;
}

static int hang_encode(const fl_filter *self, fl_buf *out) {
    uint8_t b = (uint8_t)((const hang_filter *)self)->in;
    return fl_buf_append(out, &b, 1);
}

static size_t hang_size(const fl_filter *self) { (void)self; return 1; }
static void hang_filter_destroy(fl_filter *self) { free(self); }

static const fl_filter_ops hang_filter_ops = { hang_might_match, hang_encode, hang_size,
                                               hang_filter_destroy };

static int new_filter(hang_in in, fl_filter **out) {
    hang_filter *f = calloc(1, sizeof *f);
    if (!f) return FL_ERR_NOMEM;
    f->base.ops = &hang_filter_ops;
    f->in = in;
    *out = &f->base;
    return FL_OK;
}

static void hang_add(fl_filter_builder *self, const fl_row_entry *e) { (void)self; (void)e; }

static int hang_build(fl_filter_builder *self, fl_filter **out) {
    hang_in in = ((hang_builder *)self)->in;
    if (in == IN_BUILD) forever();
    return new_filter(in, out);
}

static void hang_builder_destroy(fl_filter_builder *self) { free(self); }

static const fl_filter_builder_ops hang_builder_ops = { hang_add, hang_build, hang_builder_destroy };

static const char *hang_name(const fl_filter_policy *self) { return ((const hang_policy *)self)->name; }

static int hang_new_builder(const fl_filter_policy *self, fl_filter_builder **out) {
    hang_builder *b = calloc(1, sizeof *b);
    if (!b) return FL_ERR_NOMEM;
    b->base.ops = &hang_builder_ops;
    b->in = ((const hang_policy *)self)->in;
    *out = &b->base;
    return FL_OK;
}

static int hang_decode(const fl_filter_policy *self, fl_slice data, fl_filter **out) {
    (void)self;
    if (data.len != 1 || data.data[0] > IN_ABORT) return FL_ERR_CORRUPT;
    return new_filter((hang_in)data.data[0], out);
}

static size_t hang_estimate(const fl_filter_policy *self, size_t n) { (void)self; (void)n; return 1; }
static void hang_policy_destroy(fl_filter_policy *self) { free(self); }

static const fl_filter_policy_ops hang_policy_ops = { hang_name, hang_new_builder, hang_decode,
                                                      hang_estimate, hang_policy_destroy };

static int hang_factory(const fl_registry *reg, const char *args, fl_filter_policy **out,
                        char *err, size_t err_len) {
    (void)reg; (void)err; (void)err_len;
    hang_in in = IN_MIGHT_MATCH;
    if (!strcmp(args, "in=build")) in = IN_BUILD;
    else if (!strcmp(args, "in=slow")) in = IN_SLOW;
    else if (!strcmp(args, "in=crash")) in = IN_CRASH;
    else if (!strcmp(args, "in=abort")) in = IN_ABORT;
    else if (*args && strcmp(args, "in=might_match") != 0) return FL_ERR_INVALID;
    hang_policy *p = calloc(1, sizeof *p);
    if (!p) return FL_ERR_NOMEM;
    p->base.abi_version = FL_FILTER_ABI_VERSION;
    p->base.ops = &hang_policy_ops;
    p->in = in;
    static const char *const names[] = { "hang", "hang-build", "hang-slow", "hang-crash", "hang-abort" };
    strcpy(p->name, names[in]);
    *out = &p->base;
    return FL_OK;
}

/* ---- extractor "hangx" ---- */

static const char *hangx_name(const fl_prefix_extractor *self) { (void)self; return "hangx"; }
static bool hangx_prefix_len(const fl_prefix_extractor *self, const fl_target *t, size_t *len) {
    (void)self; (void)t; (void)len;
    forever();
    return false;
}
static void hangx_destroy(fl_prefix_extractor *self) { free(self); }
static const fl_prefix_extractor_ops hangx_ops = { hangx_name, hangx_prefix_len, hangx_destroy };

static int hangx_factory(const fl_registry *reg, const char *args, fl_prefix_extractor **out,
                         char *err, size_t err_len) {
    (void)reg; (void)args; (void)err; (void)err_len;
    fl_prefix_extractor *x = calloc(1, sizeof *x);
    if (!x) return FL_ERR_NOMEM;
    x->abi_version = FL_FILTER_ABI_VERSION;
    x->ops = &hangx_ops;
    *out = x;
    return FL_OK;
}

int fl_plugin_init(fl_registry *reg) {
    int rc = fl_registry_add_policy(reg, "hang", hang_factory);
    return rc ? rc : fl_registry_add_extractor(reg, "hangx", hangx_factory);
}
