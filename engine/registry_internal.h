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

/* Who made each object (its kind entry), so that a report about an object
 * whose name() fails still names the kind and the plugin, and so that a
 * NULL name is reported once per object.  Guarded by a mutex: a registry
 * may serve databases in several threads. */
typedef struct fl_origin {
    const void *obj;
    size_t kind;                    /* index into the registry's kinds      */
    bool null_name_reported;
} fl_origin;
typedef struct fl_origins fl_origins;

struct fl_registry {
    fl_kind_entry *kinds;           /* registration order                   */
    size_t kind_count, kind_cap;
    void **plugins;                 /* dlopen handles, load order           */
    char **plugin_paths;            /* each as given to load_plugin         */
    size_t plugin_count, plugin_cap;
    const char *loading;            /* path of the plugin being initialised */
    fl_origins *origins;            /* mutable through a const registry     */
};

/* Origins (registry.c).  fl_registry_origin copies the object's kind into
 * kind (and *plugin: the plugin file, NULL for a built-in); false when the
 * registry did not make it.  fl_registry_null_name_once is true the first
 * time it is asked about obj (and for objects it does not know). */
void fl_registry_note_origin(const fl_registry *reg, const void *obj, const fl_kind_entry *e);
void fl_registry_forget(const fl_registry *reg, const void *obj);
bool fl_registry_origin(const fl_registry *reg, const void *obj, char *kind, size_t kind_len,
                        const char **plugin);
bool fl_registry_null_name_once(const fl_registry *reg, const void *obj);

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
/* Every built-in extractor's destroy; whether ex is one of them (its
 * prefix_len is a few instructions of filterlab's own that cannot block). */
void fl_builtin_extractor_destroy(fl_prefix_extractor *self);
static inline bool fl_extractor_is_builtin(const fl_prefix_extractor *ex) {
    return ex->ops->destroy == fl_builtin_extractor_destroy;
}
/* Every built-in bloom filter's destroy (bloom.c); whether f is one. */
void fl_bloom_filter_destroy(fl_filter *self);
static inline bool fl_filter_is_builtin(const fl_filter *f) {
    return f->ops->destroy == fl_bloom_filter_destroy;
}

#endif /* FL_REGISTRY_INTERNAL_H */
