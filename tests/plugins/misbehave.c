/*
 * misbehave.c -- a plugin that breaks the contract on purpose:
 *   extractor "liar"    answers n = len + 5 (past the end of its input);
 *   extractor "noname"  returns a NULL name, and extracts the first byte;
 *   policy "broken"     its builds fail, its decodes fail, its name is NULL.
 * The engine's wrappers must report each as a contract violation and
 * answer "cannot rule out".
 */
#include "filter.h"

#include <stdlib.h>

static const char *liar_name(const fl_prefix_extractor *self) { (void)self; return "liar"; }
static bool liar_prefix_len(const fl_prefix_extractor *self, const fl_target *t, size_t *len) {
    (void)self;
    *len = t->bytes.len + 5;
    return true;
}
static const char *noname_name(const fl_prefix_extractor *self) { (void)self; return NULL; }
static bool noname_prefix_len(const fl_prefix_extractor *self, const fl_target *t, size_t *len) {
    (void)self;
    if (t->bytes.len == 0) return false;
    *len = 1;
    return true;
}
static void extractor_destroy(fl_prefix_extractor *self) { free(self); }

static const fl_prefix_extractor_ops liar_ops = { liar_name, liar_prefix_len, extractor_destroy };
static const fl_prefix_extractor_ops noname_ops = { noname_name, noname_prefix_len, extractor_destroy };

static int make_extractor(const fl_prefix_extractor_ops *ops, fl_prefix_extractor **out) {
    fl_prefix_extractor *ex = calloc(1, sizeof *ex);
    if (!ex) return FL_ERR_NOMEM;
    ex->abi_version = FL_FILTER_ABI_VERSION;
    ex->ops = ops;
    *out = ex;
    return FL_OK;
}
static int liar_factory(const fl_registry *reg, const char *args, fl_prefix_extractor **out,
                        char *err, size_t err_len) {
    (void)reg; (void)args; (void)err; (void)err_len;
    return make_extractor(&liar_ops, out);
}
static int noname_factory(const fl_registry *reg, const char *args, fl_prefix_extractor **out,
                          char *err, size_t err_len) {
    (void)reg; (void)args; (void)err; (void)err_len;
    return make_extractor(&noname_ops, out);
}

/* ---- policy "broken" ---- */

typedef struct broken_builder { fl_filter_builder base; } broken_builder;
static void broken_add(fl_filter_builder *self, const fl_row_entry *e) { (void)self; (void)e; }
static int broken_build(fl_filter_builder *self, fl_filter **out) {
    (void)self; *out = NULL; return FL_ERR_PLUGIN;
}
static void broken_builder_destroy(fl_filter_builder *self) { free(self); }
static const fl_filter_builder_ops broken_builder_ops = { broken_add, broken_build, broken_builder_destroy };

static const char *broken_name(const fl_filter_policy *self) { (void)self; return NULL; }
static int broken_new_builder(const fl_filter_policy *self, fl_filter_builder **out) {
    (void)self;
    broken_builder *b = calloc(1, sizeof *b);
    if (!b) return FL_ERR_NOMEM;
    b->base.ops = &broken_builder_ops;
    *out = &b->base;
    return FL_OK;
}
static int broken_decode(const fl_filter_policy *self, fl_slice data, fl_filter **out) {
    (void)self; (void)data; *out = NULL;
    return FL_OK;                   /* FL_OK without a filter */
}
static size_t broken_estimate(const fl_filter_policy *self, size_t n) { (void)self; return n; }
static void broken_destroy(fl_filter_policy *self) { free(self); }
static const fl_filter_policy_ops broken_ops = {
    broken_name, broken_new_builder, broken_decode, broken_estimate, broken_destroy };

static int broken_factory(const fl_registry *reg, const char *args, fl_filter_policy **out,
                          char *err, size_t err_len) {
    (void)reg; (void)args; (void)err; (void)err_len;
    fl_filter_policy *p = calloc(1, sizeof *p);
    if (!p) return FL_ERR_NOMEM;
    p->abi_version = FL_FILTER_ABI_VERSION;
    p->ops = &broken_ops;
    *out = p;
    return FL_OK;
}

int fl_plugin_init(fl_registry *reg) {
    int rc = fl_registry_add_extractor(reg, "liar", liar_factory);
    if (rc == FL_OK) rc = fl_registry_add_extractor(reg, "noname", noname_factory);
    if (rc == FL_OK) rc = fl_registry_add_policy(reg, "broken", broken_factory);
    return rc;
}
