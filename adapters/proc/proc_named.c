/*
 * proc_named.c -- what the C sides of the named adapter programs (slatedb,
 * pebble) share: where the program is (the path an environment variable
 * gives, else beside the filterlab binary that runs: a build tree, or an
 * install's libexec/filterlab/), a bloom's bits per key as they map it, and
 * whether an SST's rows hold a read's target (probe_of's answer).
 */
#include "proc_internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool fl_proc_find_program(const char *env, const char *const *beside, size_t n, char *command, size_t cap) {
    const char *given = getenv(env);
    char path[PATH_MAX], exe[PATH_MAX];
    bool found = false;
    if (given && *given) {
        snprintf(path, sizeof path, "%s", given);
        found = access(path, X_OK) == 0;
    } else {
        ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (len <= 0) return false;
        exe[len] = 0;
        char *slash = strrchr(exe, '/');
        if (!slash) return false;
        *slash = 0;
        for (size_t i = 0; i < n && !found; i++) {
            snprintf(path, sizeof path, "%s%s", exe, beside[i]);
            found = access(path, X_OK) == 0;
        }
    }
    /* (quoted for sh: a path with a quote is not run) */
    if (!found || strchr(path, '\'') || strlen(path) + 3 > cap) return false;
    snprintf(command, cap, "'%s'", path);
    return true;
}

int fl_proc_spec_bits(const char *spec) {
    char text[64], *end;
    if (!fl_spec_argument(spec, "bits", text, sizeof text)) return 10;
    double v = strtod(text, &end);
    return end != text && !*end && v >= 0 && v <= 1000 && v == (double)(int)v ? (int)v : -1;
}

int fl_proc_holds_row(fl_proc_holds *h, fl_slice key) {
    int c = fl_read_target_place(h->target, key);
    h->found = c == 0;
    return c >= 0;
}
