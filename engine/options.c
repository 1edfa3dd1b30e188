/*
 * options.c -- the options of SPEC 2.5: defaults, copying, and setting one
 * from its workload spelling with a clear error naming the key.  rocksdb.*
 * options (SPEC 9, 15) are kept as raw pairs for the RocksDB engine, which
 * checks them; this engine ignores them.
 */
#include "engine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fl_options_init(fl_options *o) {
    memset(o, 0, sizeof *o);
    o->policies = strdup(FL_DEFAULT_POLICIES);
    o->compactor = NULL;
    o->min_filter_keys = 0;
    o->memtable_bytes = 64 * 1024;
    o->sst_bytes = 64 * 1024;
    o->block_bytes = 4 * 1024;
    o->l0_trigger = 4;
    o->max_runs = 4;
    o->legacy_filters = 0;
    o->sync = true;
}

void fl_options_free(fl_options *o) {
    free(o->policies);
    free(o->compactor);
    o->policies = o->compactor = NULL;
    for (size_t i = 0; i < o->rocksdb_count; i++) {
        free(o->rocksdb[i].key);
        free(o->rocksdb[i].value);
    }
    free(o->rocksdb);
    o->rocksdb = NULL;
    o->rocksdb_count = 0;
}

int fl_options_copy(fl_options *dst, const fl_options *src) {
    *dst = *src;
    dst->policies = src->policies ? strdup(src->policies) : NULL;
    dst->compactor = src->compactor ? strdup(src->compactor) : NULL;
    dst->rocksdb = NULL;
    dst->rocksdb_count = 0;
    bool ok = (!src->policies || dst->policies) && (!src->compactor || dst->compactor);
    if (ok && src->rocksdb_count) {
        dst->rocksdb = calloc(src->rocksdb_count, sizeof *dst->rocksdb);
        ok = dst->rocksdb != NULL;
        for (size_t i = 0; ok && i < src->rocksdb_count; i++) {
            dst->rocksdb[i].key = strdup(src->rocksdb[i].key);
            dst->rocksdb[i].value = strdup(src->rocksdb[i].value);
            dst->rocksdb_count++;
            ok = dst->rocksdb[i].key && dst->rocksdb[i].value;
        }
    }
    if (!ok) {
        fl_options_free(dst);
        return FL_ERR_NOMEM;
    }
    return FL_OK;
}

/* rocksdb.NAME=VALUE: replaces NAME's value, or appends the pair. */
static int set_rocksdb(fl_options *o, const char *name, const char *value, char *err, size_t err_len) {
    if (!*name) {
        snprintf(err, err_len, "option rocksdb.: expected a name after \"rocksdb.\"");
        return FL_ERR_INVALID;
    }
    char *v = strdup(value);
    if (!v) return FL_ERR_NOMEM;
    for (size_t i = 0; i < o->rocksdb_count; i++) {
        if (strcmp(o->rocksdb[i].key, name) != 0) continue;
        free(o->rocksdb[i].value);
        o->rocksdb[i].value = v;
        return FL_OK;
    }
    fl_option_pair *n = realloc(o->rocksdb, (o->rocksdb_count + 1) * sizeof *n);
    char *k = strdup(name);
    if (n) o->rocksdb = n;
    if (!n || !k) { free(k); free(v); return FL_ERR_NOMEM; }
    o->rocksdb[o->rocksdb_count++] = (fl_option_pair){ k, v };
    return FL_OK;
}

static int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out) {
    if (!*s || *s == '-' || *s == '+' || *s == ' ') return FL_ERR_INVALID;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < min || v > max) return FL_ERR_INVALID;
    *out = v;
    return FL_OK;
}

int fl_options_set(fl_options *o, const char *key, const char *value, char *err, size_t err_len) {
    static const struct { const char *key; size_t off; uint64_t min, max; } nums[] = {
        { "min_filter_keys", offsetof(fl_options, min_filter_keys), 0, UINT32_MAX },
        { "memtable_bytes", offsetof(fl_options, memtable_bytes), 1, (uint64_t)1 << 40 },
        { "sst_bytes", offsetof(fl_options, sst_bytes), 1, (uint64_t)1 << 40 },
        { "block_bytes", offsetof(fl_options, block_bytes), 1, (uint64_t)1 << 30 },
        { "l0_trigger", offsetof(fl_options, l0_trigger), 1, UINT32_MAX },
        { "max_runs", offsetof(fl_options, max_runs), 1, UINT32_MAX },
    };
    if (strcmp(key, "policies") == 0 || strcmp(key, "compactor") == 0) {
        char *v = strdup(value);
        if (!v) return FL_ERR_NOMEM;
        char **slot = key[0] == 'p' ? &o->policies : &o->compactor;
        free(*slot);
        *slot = v;
        return FL_OK;
    }
    if (strncmp(key, "rocksdb.", 8) == 0) return set_rocksdb(o, key + 8, value, err, err_len);
    if (strcmp(key, "legacy_filters") == 0) {
        if (strcmp(value, "0") && strcmp(value, "1")) {
            snprintf(err, err_len, "option legacy_filters: expected 0 or 1, got \"%s\"", value);
            return FL_ERR_INVALID;
        }
        o->legacy_filters = value[0] == '1';
        return FL_OK;
    }
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        if (strcmp(key, nums[i].key) != 0) continue;
        uint64_t v;
        if (parse_u64(value, nums[i].min, nums[i].max, &v)) {
            snprintf(err, err_len, "option %s: expected an integer from %llu to %llu, got \"%s\"",
                     key, (unsigned long long)nums[i].min, (unsigned long long)nums[i].max, value);
            return FL_ERR_INVALID;
        }
        *(uint64_t *)((char *)o + nums[i].off) = v;
        return FL_OK;
    }
    snprintf(err, err_len, "unknown option \"%s\" (known: policies, compactor, min_filter_keys, "
             "memtable_bytes, sst_bytes, block_bytes, l0_trigger, max_runs, legacy_filters, rocksdb.*)", key);
    return FL_ERR_INVALID;
}
