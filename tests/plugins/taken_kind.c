/*
 * taken_kind.c -- a plugin that registers the kind "shiny" and then tries
 * to take the built-in kind "bloom": its init fails with FL_ERR_EXISTS, and
 * loading it must leave the registry as it was ("shiny" removed too).
 */
#include "filter.h"

static int no_factory(const fl_registry *reg, const char *args, fl_filter_policy **out,
                      char *err, size_t err_len) {
    (void)reg; (void)args; (void)out; (void)err; (void)err_len;
    return FL_ERR_INVALID;
}

int fl_plugin_init(fl_registry *reg) {
    int rc = fl_registry_add_policy(reg, "shiny", no_factory);
    if (rc != FL_OK) return rc;
    return fl_registry_add_policy(reg, "bloom", no_factory);
}
