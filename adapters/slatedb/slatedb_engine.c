/*
 * slatedb_engine.c -- `--engine slatedb`: SlateDB 0.18 through its adapter
 * program (the Rust crate beside this file, filterlab-slatedb), which speaks
 * the engine protocol (README, "Engines in any language"; adapters/proc/).
 * This file finds the program and names the engine's configuration space;
 * the mapping of options and ops onto SlateDB's API is the program's
 * (README, "Testing SlateDB").
 *
 * The program is looked for, in order: $FILTERLAB_SLATEDB; beside the
 * filterlab binary in a build tree (build/cargo/release/, which `make`
 * builds when cargo is there); in an install's libexec/filterlab/.
 */
#include "../adapters.h"
#include "../proc/proc_internal.h"
#include "slatedb_internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROGRAM "filterlab-slatedb"

static char command[PATH_MAX + 16];

/* The program's path into command, quoted for sh; false when none is found. */
static bool find_program(void) {
    const char *env = getenv("FILTERLAB_SLATEDB");
    char path[PATH_MAX], exe[PATH_MAX];
    bool found = false;
    if (env && *env) {
        snprintf(path, sizeof path, "%s", env);
        found = access(path, X_OK) == 0;
    } else {
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0) return false;
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (!slash) return false;
        *slash = 0;
        static const char *const beside[] = { "/cargo/release/" PROGRAM, "/../cargo/release/" PROGRAM,
                                              "/../libexec/filterlab/" PROGRAM };
        for (size_t i = 0; i < sizeof beside / sizeof *beside && !found; i++) {
            snprintf(path, sizeof path, "%s%s", exe, beside[i]);
            found = access(path, X_OK) == 0;
        }
    }
    if (!found || strchr(path, '\'')) return false;
    snprintf(command, sizeof command, "'%s'", path);
    return true;
}

static int slatedb_open(const fl_engine_ops *self, const char *dir, const fl_registry *reg, const fl_options *opt,
                        fl_engine **out, char *err, size_t err_len) {
    *out = NULL;
    if (!command[0] && !find_program()) {
        const char *env = getenv("FILTERLAB_SLATEDB");
        if (env && *env)
            snprintf(err, err_len, "FILTERLAB_SLATEDB=%s: no such executable", env);
        else
            snprintf(err, err_len, "filterlab was built without the SlateDB adapter (%s): install Rust's cargo "
                                   "(apt-get install cargo, or rustup) and run make", PROGRAM);
        return FL_ERR_NOTFOUND;
    }
    return fl_proc_open(self, dir, reg, opt, out, err, err_len);
}

const fl_engine_ops *fl_engine_slatedb(void) {
    static fl_proc_kind kind;
    static bool made;
    if (!made) {
        fl_proc_kind_init(&kind, "slatedb", command);
        kind.ops.open = slatedb_open;
        kind.ops.space = &fl_space_slatedb;
        made = true;
    }
    return &kind.ops;
}
