/*
 * fuzz_env.c -- the registry and environment lists of fuzz_env.h.  Objects
 * made here live as long as the process (a fuzzer never returns).
 */
#include "fuzz_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

fl_registry *fuzz_registry(void) {
    static fl_registry *reg;
    if (reg) return reg;
    if (fl_registry_new(&reg) != FL_OK) abort();
    const char *env = getenv("FILTERLAB_FUZZ_PLUGINS");
    char *paths = strdup(env ? env : ""), *save = NULL;
    if (!paths) abort();
    for (char *p = strtok_r(paths, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
        char err[1024] = "";
        if (fl_registry_load_plugin(reg, p, err, sizeof err) != FL_OK) {
            fprintf(stderr, "FILTERLAB_FUZZ_PLUGINS: %s: %s\n", p, err);
            exit(2);
        }
    }
    free(paths);
    return reg;
}

const char *const *fuzz_env_list(const char *var, size_t *count) {
    static struct { const char *var; char *copy, **items; size_t count; } lists[4];
    size_t i = 0;
    while (i < 4 && lists[i].var && strcmp(lists[i].var, var) != 0) i++;
    if (i == 4) abort();
    if (!lists[i].var) {
        const char *env = getenv(var);
        char *copy = lists[i].copy = strdup(env ? env : ""), *save = NULL;
        lists[i].var = var;
        lists[i].items = copy ? calloc(strlen(copy) / 2 + 1, sizeof *lists[i].items) : NULL;
        if (!lists[i].items) abort();
        for (char *p = strtok_r(copy, "|", &save); p; p = strtok_r(NULL, "|", &save))
            lists[i].items[lists[i].count++] = p;
    }
    *count = lists[i].count;
    return (const char *const *)lists[i].items;
}
