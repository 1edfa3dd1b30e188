/*
 * abi2.c -- a plugin whose policy "future" states filter ABI version 2, newer
 * than this filterlab knows: making it must fail with FL_ERR_VERSION.
 */
#include "filter.h"

#include <stdlib.h>

static const char *future_name(const fl_filter_policy *self) { (void)self; return "future"; }
static int future_new_builder(const fl_filter_policy *self, fl_filter_builder **out) {
    (void)self; *out = NULL; return FL_ERR_INVALID;
}
static int future_decode(const fl_filter_policy *self, fl_slice data, fl_filter **out) {
    (void)self; (void)data; *out = NULL; return FL_ERR_CORRUPT;
}
static size_t future_estimate(const fl_filter_policy *self, size_t n) { (void)self; return n; }

static int destroyed;               /* how many policies were destroyed */
static void future_destroy(fl_filter_policy *self) { destroyed++; free(self); }

static const fl_filter_policy_ops future_ops = {
    future_name, future_new_builder, future_decode, future_estimate, future_destroy };

static int future_factory(const fl_registry *reg, const char *args, fl_filter_policy **out,
                          char *err, size_t err_len) {
    (void)reg; (void)args; (void)err; (void)err_len;
    fl_filter_policy *p = calloc(1, sizeof *p);
    if (!p) return FL_ERR_NOMEM;
    p->abi_version = 2;             /* built against a newer filter.h */
    p->ops = &future_ops;
    *out = p;
    return FL_OK;
}

/* Lets the test check that a refused policy was destroyed, not leaked. */
int abi2_destroyed(void) { return destroyed; }

int fl_plugin_init(fl_registry *reg) { return fl_registry_add_policy(reg, "future", future_factory); }
