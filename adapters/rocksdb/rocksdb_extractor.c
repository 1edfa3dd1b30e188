/*
 * rocksdb_extractor.c -- a filterlab prefix extractor (built-in or from a
 * plugin) run inside RocksDB through rocksdb_slicetransform_create, so that
 * a user's own extractor is tested inside RocksDB unchanged.
 *
 * Every call goes through the fl_call_* wrappers of the database's call
 * context, so a broken contract is reported (P7) and a hung call is seen by
 * the watchdog, also when RocksDB makes the call from its flush or
 * compaction thread (the op that started it waits for it).
 * rocksdb_internal.h says what each method answers.
 */
#include "rocksdb_internal.h"

#ifdef FL_HAVE_ROCKSDB

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct wrapped {
    fl_calls *calls;
    fl_prefix_extractor *ex;
    char *name;                         /* "filterlab." + its name          */
} wrapped;

static bool point_prefix(const wrapped *w, const char *key, size_t len, size_t *n) {
    fl_target t = { FL_TARGET_POINT, { (const uint8_t *)(key ? key : ""), len } };
    return fl_call_prefix_len(w->calls, w->ex, &t, n);
}

static char *w_transform(void *arg, const char *key, size_t length, size_t *dst_length) {
    size_t n;
    if (!point_prefix(arg, key, length, &n)) n = length;
    *dst_length = n;
    return (char *)key;
}

static unsigned char w_in_domain(void *arg, const char *key, size_t length) {
    size_t n;
    return point_prefix(arg, key, length, &n);
}

static unsigned char w_in_range(void *arg, const char *dst, size_t length) {
    size_t n;
    return point_prefix(arg, dst, length, &n) && n == length;
}

static const char *w_name(void *arg) { return ((wrapped *)arg)->name; }

static void w_destroy(void *arg) {
    wrapped *w = arg;
    fl_call_extractor_destroy(w->calls, w->ex);
    free(w->name);
    free(w);
}

rocksdb_slicetransform_t *fl_rdb_wrap_extractor(fl_calls *calls, fl_prefix_extractor *ex) {
    wrapped *w = calloc(1, sizeof *w);
    const char *name = fl_call_extractor_name(calls, ex);
    size_t len = strlen("filterlab.") + strlen(name) + 1;
    char *full = malloc(len);
    if (!w || !full) {
        free(w);
        free(full);
        fl_call_extractor_destroy(calls, ex);
        return NULL;
    }
    snprintf(full, len, "filterlab.%s", name);
    *w = (wrapped){ calls, ex, full };
    return rocksdb_slicetransform_create(w, w_destroy, w_transform, w_in_domain, w_in_range, w_name);
}

#else
/* Without RocksDB there is nothing to wrap (ISO C wants a declaration). */
typedef int fl_rdb_extractor_unused;
#endif /* FL_HAVE_ROCKSDB */
