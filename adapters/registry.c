/*
 * registry.c -- the engines `--engine NAME` can pick, by name; the first is
 * the default.  Adding an engine adds its line here and nothing else
 * outside its folder.  A table is asked for when it is first needed (an
 * adapter program's finds its program then).
 */
#include "adapters.h"

#include <stdio.h>
#include <string.h>

static const fl_engine_ops *filterlab(void) { return &fl_engine_filterlab; }
static const fl_engine_ops *filterlab_untraced(void) { return &fl_engine_filterlab_untraced; }
static const fl_engine_ops *rocksdb(void) { return &fl_engine_rocksdb; }
static const fl_engine_ops *leveldb(void) { return &fl_engine_leveldb; }

static const struct {
    const char *name;
    const fl_engine_ops *(*table)(void);
} engines[] = {
    { "filterlab", filterlab },
    { "filterlab:untraced", filterlab_untraced },
    { "rocksdb", rocksdb },
    { "slatedb", fl_engine_slatedb },
    { "leveldb", leveldb },
    { "pebble", fl_engine_pebble },
};

const fl_engine_ops *fl_engine_default(void) { return engines[0].table(); }

const fl_engine_ops *fl_engine_find(const char *name) {
    if (strncmp(name, "cmd:", 4) == 0) return fl_proc_engine(name);
    for (size_t i = 0; i < sizeof engines / sizeof *engines; i++)
        if (strcmp(engines[i].name, name) == 0) return engines[i].table();
    return NULL;
}

void fl_engine_names(char *out, size_t cap) {
    size_t used = 0;
    if (cap) out[0] = 0;
    for (size_t i = 0; i < sizeof engines / sizeof *engines && used < cap; i++) {
        int n = snprintf(out + used, cap - used, "%s%s", i ? ", " : "", engines[i].name);
        if (n < 0) break;
        used += (size_t)n;
    }
    if (used < cap) snprintf(out + used, cap - used, ", cmd:COMMAND");
}
