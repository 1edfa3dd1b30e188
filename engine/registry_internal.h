/*
 * registry_internal.h -- what registry.c, plugin.c and the built-in kinds
 * share: the registry's layout and the built-in factories.  Not part of the
 * plugin ABI.
 */
#ifndef FL_REGISTRY_INTERNAL_H
#define FL_REGISTRY_INTERNAL_H

#include "filter_internal.h"

#define FL_KIND_MAX 31            /* a kind is 1..31 bytes of [A-Za-z0-9_-] */

typedef struct fl_kind_entry {
    char kind[FL_KIND_MAX + 1];
    fl_policy_factory policy;       /* exactly one of policy/extractor set  */
    fl_extractor_factory extractor;
    char *origin;                   /* plugin path, or NULL for a built-in  */
} fl_kind_entry;

struct fl_registry {
    fl_kind_entry *kinds;           /* registration order                   */
    size_t kind_count, kind_cap;
    void **plugins;                 /* dlopen handles, load order           */
    size_t plugin_count, plugin_cap;
    const char *loading;            /* path of the plugin being initialised */
};

/* dlcloses every plugin, newest first (plugin.c). */
void fl_registry_close_plugins(fl_registry *reg);

/* Formats into err (which may be NULL or err_len 0). */
void fl_errf(char *err, size_t err_len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Built-in factories (bloom.c, extractors.c). */
int fl_bloom_factory(const fl_registry *reg, const char *args, fl_filter_policy **out,
                     char *err, size_t err_len);
int fl_fixed_factory(const fl_registry *reg, const char *args, fl_prefix_extractor **out,
                     char *err, size_t err_len);
int fl_capped_factory(const fl_registry *reg, const char *args, fl_prefix_extractor **out,
                      char *err, size_t err_len);
int fl_delim_factory(const fl_registry *reg, const char *args, fl_prefix_extractor **out,
                     char *err, size_t err_len);
int fl_lastdelim_factory(const fl_registry *reg, const char *args, fl_prefix_extractor **out,
                         char *err, size_t err_len);

#endif /* FL_REGISTRY_INTERNAL_H */
