/*
 * plugin.c -- loads filter plugins: shared objects exporting fl_plugin_init
 * (SPEC section 3), which registers their kinds in a registry.
 *
 * A plugin calls back into filterlab (fl_registry_add_policy, fl_buf_append,
 * ...); those symbols resolve against the filterlab binary, which is linked
 * with -rdynamic.  Plugins are opened RTLD_NOW (an unresolved symbol is an
 * error at load time, not a crash later) and RTLD_LOCAL (two plugins never
 * see each other's symbols).
 *
 * Invariants:
 *   - A loaded plugin stays mapped until fl_registry_free, which dlcloses it
 *     after the kinds are gone.  Every object made from a plugin's kinds
 *     runs the plugin's code, so THE REGISTRY MUST OUTLIVE EVERY POLICY,
 *     EXTRACTOR, BUILDER AND FILTER MADE THROUGH IT.
 *   - A plugin whose init fails leaves the registry as it was: the kinds it
 *     registered before failing are removed, then it is dlclosed.
 */
#include "registry_internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef int (*fl_plugin_init_fn)(fl_registry *reg);

void fl_registry_close_plugins(fl_registry *reg) {
    while (reg->plugin_count > 0) {
        dlclose(reg->plugins[--reg->plugin_count]);
        free(reg->plugin_paths[reg->plugin_count]);
    }
}

/* Removes the kinds registered after the first `keep`. */
static void fl_registry_truncate(fl_registry *reg, size_t keep) {
    while (reg->kind_count > keep) free(reg->kinds[--reg->kind_count].origin);
}

int fl_registry_load_plugin(fl_registry *reg, const char *path, char *err, size_t err_len) {
    if (!reg || !path || !path[0]) {
        fl_errf(err, err_len, "no plugin path given");
        return FL_ERR_INVALID;
    }
    /* A bare file name means a file in the current directory, as a user of
     * `--plugin my.so` expects, not a search of the library path. */
    char local[4096];
    const char *open_path = path;
    if (!strchr(path, '/')) {
        if (snprintf(local, sizeof local, "./%s", path) >= (int)sizeof local) {
            fl_errf(err, err_len, "plugin '%s': path too long", path);
            return FL_ERR_INVALID;
        }
        open_path = local;
    }
    struct stat st;
    if (stat(open_path, &st) != 0) {
        int e = errno;
        fl_errf(err, err_len, "plugin '%s': cannot open: %s", path, strerror(e));
        return e == ENOENT ? FL_ERR_NOTFOUND : FL_ERR_IO;
    }
    if (!S_ISREG(st.st_mode)) {
        fl_errf(err, err_len, "plugin '%s': not a regular file; expected a shared object "
                "built with cc -shared -fPIC", path);
        return FL_ERR_INVALID;
    }
    if (reg->plugin_count == reg->plugin_cap) {
        size_t cap = reg->plugin_cap ? 2 * reg->plugin_cap : 4;
        void **plugins = realloc(reg->plugins, cap * sizeof *plugins);
        if (!plugins) return FL_ERR_NOMEM;
        reg->plugins = plugins;
        char **paths = realloc(reg->plugin_paths, cap * sizeof *paths);
        if (!paths) return FL_ERR_NOMEM;
        reg->plugin_paths = paths;
        reg->plugin_cap = cap;
    }

    dlerror();
    void *handle = dlopen(open_path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        fl_errf(err, err_len, "plugin '%s': cannot load it as a shared object: %s", path,
                why ? why : "unknown dlopen error");
        return FL_ERR_PLUGIN;
    }
    /* POSIX guarantees dlsym's void * holds a function pointer. */
    void *sym = dlsym(handle, "fl_plugin_init");
    fl_plugin_init_fn init;
    memcpy(&init, &sym, sizeof init);
    if (!sym) {
        fl_errf(err, err_len, "plugin '%s': it does not export fl_plugin_init; a plugin "
                "defines int fl_plugin_init(fl_registry *reg) (see filter.h)", path);
        dlclose(handle);
        return FL_ERR_PLUGIN;
    }

    size_t kinds_before = reg->kind_count;
    reg->loading = path;
    int rc = init(reg);
    reg->loading = NULL;
    if (rc != FL_OK) {
        fl_registry_truncate(reg, kinds_before);
        dlclose(handle);
        fl_errf(err, err_len, "plugin '%s': fl_plugin_init returned %d (%s)%s", path, rc,
                fl_strerror(rc),
                rc == FL_ERR_EXISTS ? "; a kind it registers is already taken (by a "
                                      "built-in or an earlier plugin)" : "");
        return rc < 0 ? rc : FL_ERR_PLUGIN;
    }
    char *copy = strdup(path);
    if (!copy) {
        fl_registry_truncate(reg, kinds_before);
        dlclose(handle);
        return FL_ERR_NOMEM;
    }
    reg->plugin_paths[reg->plugin_count] = copy;
    reg->plugins[reg->plugin_count++] = handle;
    return FL_OK;
}
