/*
 * filter_call.c -- the wrappers through which the engine calls every filter
 * policy, builder, filter and prefix extractor (SQLite's sqlite3OsRead ->
 * pMethods->xRead pattern): one place to count calls, check contracts and
 * fail safe.
 *
 * Invariants:
 *   - No wrapper ever lets a plugin's mistake through: a failing new_builder,
 *     build, decode or encode gives an error and no object (*out is NULL), a
 *     NULL name gives a placeholder, an extractor length past the end of its
 *     input gives "none".  Each such event is reported once to the violation
 *     handler and counted in fl_call_stats.contract_violations.
 *   - Every answer that can rule something out errs towards "cannot rule
 *     out": fl_call_might_match answers true for a NULL filter or query.
 *   - Counters are process-wide and updated atomically (relaxed), so several
 *     databases in several threads may share them.
 */
#include "filter_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static fl_call_stats fl_stats;
static fl_violation_fn fl_violation_handler;
static void *fl_violation_arg;

#define FL_COUNT(field) __atomic_fetch_add(&fl_stats.field, 1, __ATOMIC_RELAXED)

void fl_set_violation_handler(fl_violation_fn fn, void *arg) {
    fl_violation_handler = fn;
    fl_violation_arg = arg;
}

fl_call_stats fl_call_stats_get(void) {
    fl_call_stats s;
    s.might_match = __atomic_load_n(&fl_stats.might_match, __ATOMIC_RELAXED);
    s.encode = __atomic_load_n(&fl_stats.encode, __ATOMIC_RELAXED);
    s.decode = __atomic_load_n(&fl_stats.decode, __ATOMIC_RELAXED);
    s.build = __atomic_load_n(&fl_stats.build, __ATOMIC_RELAXED);
    s.add_entry = __atomic_load_n(&fl_stats.add_entry, __ATOMIC_RELAXED);
    s.prefix_len = __atomic_load_n(&fl_stats.prefix_len, __ATOMIC_RELAXED);
    s.contract_violations = __atomic_load_n(&fl_stats.contract_violations, __ATOMIC_RELAXED);
    return s;
}

/* Counts one violation and hands it to the handler (default: stderr). */
__attribute__((format(printf, 2, 3)))
static void fl_violation(const char *who, const char *fmt, ...) {
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    FL_COUNT(contract_violations);
    if (fl_violation_handler)
        fl_violation_handler(fl_violation_arg, who, what);
    else
        fprintf(stderr, "filterlab: contract violation by %s: %s\n", who, what);
}

/* ---- Origins ----------------------------------------------------------
 * Who made each object (kind and plugin file), so that a report about an
 * object whose name() fails still names the plugin, and so that a NULL name
 * is reported once per object rather than at every call. */

typedef struct fl_origin { const void *obj; char who[200]; bool null_name_reported; } fl_origin;

static pthread_mutex_t fl_origin_lock = PTHREAD_MUTEX_INITIALIZER;
static fl_origin *fl_origins;
static size_t fl_origin_count, fl_origin_cap;

static fl_origin *fl_find_origin(const void *obj) {
    for (size_t i = fl_origin_count; i-- > 0;)
        if (fl_origins[i].obj == obj) return &fl_origins[i];
    return NULL;
}

void fl_call_note_origin(const void *obj, const char *kind, const char *plugin) {
    pthread_mutex_lock(&fl_origin_lock);
    fl_origin *o = fl_find_origin(obj);
    if (!o && fl_origin_count == fl_origin_cap) {
        size_t cap = fl_origin_cap ? 2 * fl_origin_cap : 16;
        fl_origin *n = realloc(fl_origins, cap * sizeof *n);
        if (n) { fl_origins = n; fl_origin_cap = cap; }
    }
    if (!o && fl_origin_count < fl_origin_cap) o = &fl_origins[fl_origin_count++];
    if (o) {
        o->obj = obj;
        o->null_name_reported = false;
        if (plugin) snprintf(o->who, sizeof o->who, "kind '%s' from plugin %s", kind, plugin);
        else snprintf(o->who, sizeof o->who, "kind '%s'", kind);
    }
    pthread_mutex_unlock(&fl_origin_lock);
}

void fl_call_forget(const void *obj) {
    pthread_mutex_lock(&fl_origin_lock);
    fl_origin *o = fl_find_origin(obj);
    if (o) *o = fl_origins[--fl_origin_count];
    if (fl_origin_count == 0) {
        free(fl_origins);
        fl_origins = NULL;
        fl_origin_cap = 0;
    }
    pthread_mutex_unlock(&fl_origin_lock);
}

/* Copies the origin of obj into out ("<unnamed plugin>" if unknown); with
 * once, returns false when a NULL name was already reported for it. */
static bool fl_origin_who(const void *obj, char *out, size_t out_len, bool once) {
    bool report = true;
    pthread_mutex_lock(&fl_origin_lock);
    fl_origin *o = fl_find_origin(obj);
    snprintf(out, out_len, "%s", o ? o->who : "<unnamed plugin>");
    if (o && once) {
        report = !o->null_name_reported;
        o->null_name_reported = true;
    }
    pthread_mutex_unlock(&fl_origin_lock);
    return report;
}

/* ---- Names ----------------------------------------------------------- */

static _Thread_local char fl_who_buf[200];

/* The name for a violation report; never calls back into the handler. */
static const char *fl_policy_who(const fl_filter_policy *policy) {
    const char *name = NULL;
    if (!policy) return "<no policy>";
    if (policy->ops && policy->ops->name) name = policy->ops->name(policy);
    if (name) return name;
    fl_origin_who(policy, fl_who_buf, sizeof fl_who_buf, false);
    return fl_who_buf;
}

static const char *fl_extractor_who(const fl_prefix_extractor *ex) {
    const char *name = NULL;
    if (ex && ex->ops && ex->ops->name) name = ex->ops->name(ex);
    if (name) return name;
    fl_origin_who(ex, fl_who_buf, sizeof fl_who_buf, false);
    return fl_who_buf;
}

const char *fl_call_policy_name(const fl_filter_policy *policy) {
    if (!policy) return "<no policy>";
    const char *name = policy->ops && policy->ops->name ? policy->ops->name(policy) : NULL;
    if (name) return name;
    if (fl_origin_who(policy, fl_who_buf, sizeof fl_who_buf, true))
        fl_violation(fl_who_buf, "policy name() returned NULL");
    return "<policy with NULL name>";
}

const char *fl_call_extractor_name(const fl_prefix_extractor *ex) {
    if (!ex) return "<no extractor>";
    const char *name = ex->ops && ex->ops->name ? ex->ops->name(ex) : NULL;
    if (name) return name;
    if (fl_origin_who(ex, fl_who_buf, sizeof fl_who_buf, true))
        fl_violation(fl_who_buf, "extractor name() returned NULL");
    return "<extractor with NULL name>";
}

/* ---- Builders ---------------------------------------------------------- */

int fl_call_new_builder(const fl_filter_policy *policy, fl_filter_builder **out) {
    *out = NULL;
    if (!policy || !policy->ops || !policy->ops->new_builder) return FL_ERR_INVALID;
    fl_filter_builder *b = NULL;
    int rc = policy->ops->new_builder(policy, &b);
    if (rc != FL_OK) {
        fl_violation(fl_policy_who(policy), "new_builder failed: %s", fl_strerror(rc));
        return rc < 0 ? rc : FL_ERR_PLUGIN;
    }
    if (!b || !b->ops || !b->ops->add_entry || !b->ops->build || !b->ops->destroy) {
        fl_violation(fl_policy_who(policy), "new_builder returned FL_OK but %s",
                     !b ? "no builder" : "a builder without add_entry/build/destroy");
        if (b && b->ops && b->ops->destroy) b->ops->destroy(b);
        return FL_ERR_PLUGIN;
    }
    *out = b;
    return FL_OK;
}

void fl_call_add_entry(const fl_filter_policy *policy, fl_filter_builder *b,
                       const fl_row_entry *entry) {
    (void)policy;
    if (!b || !entry) return;
    FL_COUNT(add_entry);
    b->ops->add_entry(b, entry);
}

/* Checks a filter a plugin handed over; destroys it when unusable. */
static bool fl_filter_usable(const fl_filter_policy *policy, fl_filter *f, const char *method) {
    if (f && f->ops && f->ops->might_match && f->ops->destroy) return true;
    fl_violation(fl_policy_who(policy), "%s returned FL_OK but %s", method,
                 !f ? "no filter" : "a filter without might_match/destroy");
    if (f && f->ops && f->ops->destroy) f->ops->destroy(f);
    return false;
}

int fl_call_build(const fl_filter_policy *policy, fl_filter_builder *b, fl_filter **out) {
    *out = NULL;
    if (!b) return FL_ERR_INVALID;
    FL_COUNT(build);
    fl_filter *f = NULL;
    int rc = b->ops->build(b, &f);
    if (rc != FL_OK) {
        fl_violation(fl_policy_who(policy), "build failed: %s", fl_strerror(rc));
        return rc < 0 ? rc : FL_ERR_PLUGIN;
    }
    if (!fl_filter_usable(policy, f, "build")) return FL_ERR_PLUGIN;
    *out = f;
    return FL_OK;
}

void fl_call_builder_destroy(const fl_filter_policy *policy, fl_filter_builder *b) {
    (void)policy;
    if (b) b->ops->destroy(b);
}

/* ---- Filters ----------------------------------------------------------- */

int fl_call_decode(const fl_filter_policy *policy, fl_slice data, fl_filter **out) {
    *out = NULL;
    if (!policy || !policy->ops || !policy->ops->decode) return FL_ERR_INVALID;
    FL_COUNT(decode);
    fl_filter *f = NULL;
    int rc = policy->ops->decode(policy, data, &f);
    if (rc != FL_OK) {
        fl_violation(fl_policy_who(policy), "decode of %zu bytes failed: %s", data.len,
                     fl_strerror(rc));
        return rc < 0 ? rc : FL_ERR_PLUGIN;
    }
    if (!fl_filter_usable(policy, f, "decode")) return FL_ERR_PLUGIN;
    *out = f;
    return FL_OK;
}

bool fl_call_might_match(const fl_filter_policy *policy, const fl_filter *filter,
                         const fl_filter_query *query) {
    (void)policy;
    if (!filter || !query) return true;
    FL_COUNT(might_match);
    return filter->ops->might_match(filter, query);
}

int fl_call_encode(const fl_filter_policy *policy, const fl_filter *filter, fl_buf *out) {
    if (!filter || !out) return FL_ERR_INVALID;
    FL_COUNT(encode);
    size_t before = out->len;
    int rc = filter->ops->encode ? filter->ops->encode(filter, out) : FL_ERR_PLUGIN;
    if (rc != FL_OK) {
        if (out->len > before) out->len = before;    /* drop a partial encoding */
        fl_violation(fl_policy_who(policy), "encode failed: %s", fl_strerror(rc));
        return rc < 0 ? rc : FL_ERR_PLUGIN;
    }
    return FL_OK;
}

size_t fl_call_size(const fl_filter_policy *policy, const fl_filter *filter) {
    (void)policy;
    if (!filter || !filter->ops->size) return 0;
    return filter->ops->size(filter);
}

void fl_call_filter_destroy(const fl_filter_policy *policy, fl_filter *filter) {
    (void)policy;
    if (filter) filter->ops->destroy(filter);
}

/* ---- Extractors -------------------------------------------------------- */

bool fl_call_prefix_len(const fl_prefix_extractor *ex, const fl_target *target, size_t *len) {
    *len = 0;
    if (!ex || !target) return false;
    FL_COUNT(prefix_len);
    size_t n = 0;
    if (!ex->ops->prefix_len(ex, target, &n)) return false;
    if (n > target->bytes.len) {
        fl_violation(fl_extractor_who(ex),
                     "prefix_len returned %zu for a %s of %zu bytes (must be <= its length)",
                     n, target->kind == FL_TARGET_POINT ? "key" : "prefix", target->bytes.len);
        return false;
    }
    *len = n;
    return true;
}
