/*
 * leveldb_policy.c -- a workload's filter policy as LevelDB runs it (the
 * option table of docs/leveldb.md): none, LevelDB's own
 * bloom (bloom(bits=N), a whole N), or a plugin's policy run inside LevelDB
 * as a FilterPolicy of C callbacks (leveldb_shim.h), every call through
 * filterlab's call wrappers -- under one lock, since LevelDB builds filters
 * from its compaction thread.  LevelDB hands a policy user keys only: each
 * is given to the builder as a put with seq 0 and an empty value, every
 * version and deletion of a key included.  What LevelDB cannot express is
 * an error naming the option and saying so.
 */
#include "leveldb_internal.h"

#ifdef FL_HAVE_LEVELDB

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void plugin_create(void *arg, const char *const *keys, const size_t *lens, int n, char **out,
                          size_t *out_len) {
    policy *p = arg;
    *out = NULL;
    *out_len = 0;
    pthread_mutex_lock(p->lock);
    fl_filter_builder *b = NULL;
    if (fl_call_new_builder(p->calls, p->plugin, &b) == FL_OK && b) {
        for (int i = 0; i < n; i++) {
            fl_row_entry en = { { (const uint8_t *)keys[i], lens[i] }, { (const uint8_t *)"", 0 }, 0,
                                FL_ENTRY_PUT };
            fl_call_add_entry(p->calls, p->plugin, b, &en);
        }
        fl_filter *f = NULL;
        if (fl_call_build(p->calls, p->plugin, b, &f) == FL_OK && f) {
            fl_buf enc;
            fl_buf_init(&enc);
            if (fl_call_encode(p->calls, p->plugin, f, &enc) == FL_OK) {
                *out = (char *)enc.data;
                *out_len = enc.len;
            } else {
                fl_buf_free(&enc);
            }
            fl_call_filter_destroy(p->calls, p->plugin, f);
        }
        fl_call_builder_destroy(p->calls, p->plugin, b);
    }
    pthread_mutex_unlock(p->lock);
    /* A builder or filter that failed (the wrappers reported it) stores no
     * bytes; the plugin then decodes the empty filter at every probe, and
     * its answer is judged like any other. */
}

static int plugin_may_match(void *arg, const char *key, size_t len, const char *filter, size_t flen) {
    policy *p = arg;
    pthread_mutex_lock(p->lock);
    fl_filter *f = NULL;
    bool m = true;
    if (fl_call_decode(p->calls, p->plugin, (fl_slice){ (const uint8_t *)filter, flen }, &f) == FL_OK && f) {
        fl_filter_query q = { { FL_TARGET_POINT, { (const uint8_t *)key, len } }, NULL };
        m = fl_call_might_match(p->calls, p->plugin, f, &q);
        fl_call_filter_destroy(p->calls, p->plugin, f);
    }
    pthread_mutex_unlock(p->lock);
    return m;
}

void ldb_policy_release(policy *p) {
    fl_ldb_policy_free(p->ldb);
    if (p->plugin) fl_call_policy_destroy(p->calls, p->plugin);
    memset(p, 0, sizeof *p);
    p->bloom_bits = -1;
}

/* The policy of opt, as LevelDB runs it (docs/leveldb.md). */
int ldb_policy_make(ldb *e, const fl_options *opt, policy *out, char *err, size_t len) {
    memset(out, 0, sizeof *out);
    out->bloom_bits = -1;
    out->calls = e->calls;
    out->lock = &e->lock;
    const char *list = opt->policies ? opt->policies : FL_DEFAULT_POLICIES;
    if (opt->compactor && strcmp(opt->compactor, list) != 0) {
        snprintf(err, len, "compactor=\"%s\": LevelDB cannot express it: it compacts with the one filter "
                 "policy it was opened with (policies=\"%s\")", opt->compactor, list);
        return FL_ERR_INVALID;
    }
    if (opt->legacy_filters) {
        snprintf(err, len, "legacy_filters=%d: LevelDB cannot express it: it has one filter format, its own", opt->legacy_filters);
        return FL_ERR_INVALID;
    }
    char perr[1024] = "";
    struct { size_t count; char *first; } l;
    int rc = fl_policy_list_first(list, &l.count, &l.first, perr, sizeof perr);
    if (rc) {
        snprintf(err, len, "policies: %s", perr[0] ? perr : fl_strerror(rc));
        return rc;
    }
    if (l.count == 0) return FL_OK;
    if (l.count > 1) {
        snprintf(err, len, "policies=\"%s\": LevelDB cannot express it: it runs one filter policy, this list "
                 "has %zu", list, l.count);
        free(l.first);
        return FL_ERR_INVALID;
    }
    fl_filter_policy *p = NULL;
    if ((rc = fl_registry_make_policy(e->reg, l.first, &p, perr, sizeof perr))) {
        snprintf(err, len, "policies: %s", perr[0] ? perr : fl_strerror(rc));
        free(l.first);
        return rc;
    }
    if (!fl_policy_is_builtin_bloom(p)) {
        out->plugin = p;
        out->ldb = fl_ldb_policy_custom(fl_call_policy_name(e->calls, p),
                                        &(fl_ldb_policy_fns){ out, plugin_create, plugin_may_match },
                                        &e->counts);
        free(l.first);
        return FL_OK;
    }
    fl_call_policy_destroy(e->calls, p);
    char v[64];
    if (fl_spec_argument(l.first, "prefix", v, sizeof v) ||
        (fl_spec_argument(l.first, "whole_key", v, sizeof v) && strcmp(v, "1") != 0)) {
        snprintf(err, len, "policies=\"%s\": LevelDB cannot express it: its filters hold whole keys, and it "
                 "has no prefix filtering (no prefix=, no whole_key=0)", list);
        free(l.first);
        return FL_ERR_INVALID;
    }
    long bits = 10;
    if (fl_spec_argument(l.first, "bits", v, sizeof v)) {
        char *end;
        bits = strtol(v, &end, 10);
        if (*end || end == v || bits < 0 || bits > 100000) {
            snprintf(err, len, "policies=\"%s\": LevelDB cannot express it: its bloom takes a whole "
                     "number of bits per key (0 to 100000), not %s", list, v);
            free(l.first);
            return FL_ERR_INVALID;
        }
    }
    free(l.first);
    out->bloom_bits = (int)bits;
    out->ldb = fl_ldb_policy_bloom((int)bits, &e->counts);
    return FL_OK;
}

#endif /* FL_HAVE_LEVELDB */
