/*
 * filter_call.c -- the wrappers through which everything calls a filter
 * policy, builder, filter or prefix extractor (SQLite's sqlite3OsRead ->
 * pMethods->xRead pattern), and the call contexts they report to: one
 * place to count calls, check contracts, fail safe and show a watchdog
 * which call is running.
 *
 * Invariants:
 *   - No wrapper ever lets a plugin's mistake through: a failing
 *     new_builder, build, decode or encode gives an error and no object
 *     (*out is NULL), a NULL name gives a placeholder, an extractor length
 *     past the end of its input gives "none".  Each such event is delivered
 *     once to the sink of the call's context and counted there.
 *   - Every answer that can rule something out errs towards "cannot rule
 *     out": fl_call_might_match answers true for a NULL filter or query.
 *   - State belongs to its context (SQLite's per-connection errors): two
 *     contexts, in one thread or in two, never see each other's violations
 *     or counts.  A wrapper called with a NULL context uses the context of
 *     the wrapper call it is nested in on this thread (a built-in bloom
 *     calling its extractor inside might_match), else the fallback, which
 *     prints violations to stderr and counts nothing.
 *   - The call in progress (method, object, target) is published with
 *     atomic stores, so a watchdog thread can read it while the calling
 *     thread is stuck inside a plugin.  A built-in extractor's prefix_len
 *     and a built-in bloom's might_match (a few instructions of
 *     filterlab's own, called millions of times by reads and the P7 and
 *     P11 checks) are not published: they cannot block.  They are counted
 *     and answered like any other, and the bloom's context is still the
 *     one its extractor's call reports to (a plugin extractor's call is
 *     published as usual).
 */
#include "registry_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fl_calls {
    const fl_registry *reg;           /* who made what: origins             */
    fl_violation_fn sink;
    void *sink_arg;
    fl_call_stats stats;
    bool fallback;                    /* the shared fallback: no state      */
    /* the call in progress, written by the calling thread, read by a
     * watchdog through fl_calls_current (atomic builtins on every field) */
    uint64_t seq;                     /* bumped when a call begins          */
    unsigned depth;                   /* nesting; 0 outside any call        */
    const char *method;
    fl_object_kind object_kind;
    const void *object;               /* the object whose origin names it   */
    const fl_target *target;          /* borrowed for the call, or NULL     */
};

static fl_calls fl_fallback_calls = { .fallback = true };
static _Thread_local fl_calls *fl_current;

int fl_calls_new(const fl_registry *reg, fl_calls **out) {
    *out = calloc(1, sizeof **out);
    if (!*out) return FL_ERR_NOMEM;
    (*out)->reg = reg;
    return FL_OK;
}

void fl_calls_free(fl_calls *calls) {
    if (calls && !calls->fallback) free(calls);
}

void fl_calls_set_sink(fl_calls *calls, fl_violation_fn fn, void *arg) {
    calls->sink = fn;
    calls->sink_arg = arg;
}

void fl_calls_stats(const fl_calls *calls, fl_call_stats *out) {
    *out = calls->stats;
}

/* ---- Frames: the call in progress ------------------------------------------ */

typedef struct fl_frame {
    fl_calls *calls, *outer;          /* outer: fl_current before the call  */
    const char *method;
    fl_object_kind object_kind;
    const void *object;
    const fl_target *target;
} fl_frame;

#define FL_STORE(field, v) __atomic_store_n(&(field), (v), __ATOMIC_RELAXED)
#define FL_LOAD(field) __atomic_load_n(&(field), __ATOMIC_RELAXED)

static inline fl_calls *fl_resolve(fl_calls *c) {
    return c ? c : fl_current ? fl_current : &fl_fallback_calls;
}

/* Publishes a call; the frame saves what it replaces (the enclosing call's
 * fields, for a nested call). */
static inline void fl_begin(fl_frame *f, fl_calls *c, const char *method, fl_object_kind kind,
                            const void *object, const fl_target *target) {
    f->calls = c;
    f->outer = fl_current;
    fl_current = c;
    f->method = c->method;              /* the fallback's are never written */
    f->object_kind = c->object_kind;
    f->object = c->object;
    f->target = c->target;
    if (c->fallback) return;
    FL_STORE(c->method, method);
    FL_STORE(c->object_kind, kind);
    FL_STORE(c->object, object);
    FL_STORE(c->target, target);
    FL_STORE(c->seq, c->seq + 1);
    __atomic_store_n(&c->depth, c->depth + 1, __ATOMIC_RELEASE);
}

static inline void fl_end(fl_frame *f) {
    fl_calls *c = f->calls;
    fl_current = f->outer;
    if (c->fallback) return;
    FL_STORE(c->method, f->method);
    FL_STORE(c->object_kind, f->object_kind);
    FL_STORE(c->object, f->object);
    FL_STORE(c->target, f->target);
    __atomic_store_n(&c->depth, c->depth - 1, __ATOMIC_RELEASE);
}

#define FL_COUNT(c, field) do { if (!(c)->fallback) (c)->stats.field++; } while (0)

/* ---- Naming objects ---------------------------------------------------------- */

static const char *fl_object_word(fl_object_kind kind) {
    switch (kind) {
    case FL_OBJECT_POLICY:    return "policy";
    case FL_OBJECT_BUILDER:   return "builder";
    case FL_OBJECT_FILTER:    return "filter";
    case FL_OBJECT_EXTRACTOR: return "extractor";
    }
    return "object";
}

/* The name of a registry-made object, asked without a wrapper (a report
 * must not report), or NULL. */
static const char *fl_raw_name(fl_object_kind kind, const void *object) {
    if (!object) return NULL;
    if (kind == FL_OBJECT_EXTRACTOR) {
        const fl_prefix_extractor *ex = object;
        return ex->ops && ex->ops->name ? ex->ops->name(ex) : NULL;
    }
    const fl_filter_policy *p = object;
    return p->ops && p->ops->name ? p->ops->name(p) : NULL;
}

/* "policy "_bf:p=fixed3" of kind 'bloom'", "extractor "liar" of kind
 * 'liar' from plugin ./mis.so"; *plugin is the plugin file or NULL.  The
 * object is the policy for builders and filters (they have no name). */
static void fl_describe(const fl_calls *c, fl_object_kind kind, const void *object,
                        char *out, size_t cap, const char **plugin) {
    char okind[FL_KIND_MAX + 1] = "";
    *plugin = NULL;
    bool known = c->reg && fl_registry_origin(c->reg, object, okind, sizeof okind, plugin);
    const char *name = fl_raw_name(kind == FL_OBJECT_EXTRACTOR ? kind : FL_OBJECT_POLICY, object);
    const char *word = kind == FL_OBJECT_EXTRACTOR ? "extractor"
                     : kind == FL_OBJECT_BUILDER   ? "builder of policy"
                     : kind == FL_OBJECT_FILTER    ? "filter of policy" : "policy";
    int n = name ? snprintf(out, cap, "%s \"%s\"", word, name) : snprintf(out, cap, "%s", word);
    if (n < 0 || (size_t)n >= cap) return;
    if (known) snprintf(out + n, cap - (size_t)n, " of kind '%s'%s%s", okind,
                        *plugin ? " from plugin " : "", *plugin ? *plugin : "");
    else if (!name) snprintf(out + n, cap - (size_t)n, " <unknown origin>");
}

/* Delivers one violation by (kind, object) in method to the context's sink
 * (default: stderr) and counts it. */
__attribute__((format(printf, 5, 6)))
static void fl_violation(fl_calls *c, fl_object_kind kind, const void *object, const char *method,
                         const char *fmt, ...) {
    char what[512], who[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const char *plugin;
    fl_describe(c, kind, object, who, sizeof who, &plugin);
    FL_COUNT(c, contract_violations);
    fl_contract_violation v = { kind, method, who, plugin, what };
    if (c->sink)
        c->sink(c->sink_arg, &v);
    else
        fprintf(stderr, "filterlab: contract violation by %s: %s: %s\n", who, method, what);
}

void fl_calls_report(fl_calls *calls, const fl_contract_violation *v) {
    fl_calls *c = fl_resolve(calls);
    FL_COUNT(c, contract_violations);
    if (c->sink)
        c->sink(c->sink_arg, v);
    else
        fprintf(stderr, "filterlab: contract violation by %s: %s: %s\n", v->who, v->method, v->what);
}

/* ---- Names ------------------------------------------------------------------- */

const char *fl_call_policy_name(fl_calls *calls, const fl_filter_policy *policy) {
    if (!policy) return "<no policy>";
    fl_calls *c = fl_resolve(calls);
    fl_frame f;
    fl_begin(&f, c, "name", FL_OBJECT_POLICY, policy, NULL);
    const char *name = policy->ops && policy->ops->name ? policy->ops->name(policy) : NULL;
    fl_end(&f);
    if (name) return name;
    if (!c->reg || fl_registry_null_name_once(c->reg, policy))
        fl_violation(c, FL_OBJECT_POLICY, policy, "name", "name() returned NULL");
    return "<policy with NULL name>";
}

const char *fl_call_extractor_name(fl_calls *calls, const fl_prefix_extractor *ex) {
    if (!ex) return "<no extractor>";
    fl_calls *c = fl_resolve(calls);
    fl_frame f;
    fl_begin(&f, c, "name", FL_OBJECT_EXTRACTOR, ex, NULL);
    const char *name = ex->ops && ex->ops->name ? ex->ops->name(ex) : NULL;
    fl_end(&f);
    if (name) return name;
    if (!c->reg || fl_registry_null_name_once(c->reg, ex))
        fl_violation(c, FL_OBJECT_EXTRACTOR, ex, "name", "name() returned NULL");
    return "<extractor with NULL name>";
}

/* ---- Builders ------------------------------------------------------------------ */

int fl_call_new_builder(fl_calls *calls, const fl_filter_policy *policy, fl_filter_builder **out) {
    *out = NULL;
    if (!policy || !policy->ops || !policy->ops->new_builder) return FL_ERR_INVALID;
    fl_calls *c = fl_resolve(calls);
    fl_filter_builder *b = NULL;
    fl_frame f;
    fl_begin(&f, c, "new_builder", FL_OBJECT_POLICY, policy, NULL);
    int rc = policy->ops->new_builder(policy, &b);
    fl_end(&f);
    if (rc != FL_OK) {
        fl_violation(c, FL_OBJECT_POLICY, policy, "new_builder", "new_builder failed: %s",
                     fl_strerror(rc));
        return rc < 0 ? rc : FL_ERR_PLUGIN;
    }
    if (!b || !b->ops || !b->ops->add_entry || !b->ops->build || !b->ops->destroy) {
        fl_violation(c, FL_OBJECT_POLICY, policy, "new_builder", "new_builder returned FL_OK but %s",
                     !b ? "no builder" : "a builder without add_entry/build/destroy");
        if (b && b->ops && b->ops->destroy) {
            fl_begin(&f, c, "destroy", FL_OBJECT_BUILDER, policy, NULL);
            b->ops->destroy(b);
            fl_end(&f);
        }
        return FL_ERR_PLUGIN;
    }
    *out = b;
    return FL_OK;
}

void fl_call_add_entry(fl_calls *calls, const fl_filter_policy *policy, fl_filter_builder *b,
                       const fl_row_entry *entry) {
    if (!b || !entry) return;
    fl_calls *c = fl_resolve(calls);
    FL_COUNT(c, add_entry);
    fl_target key = { FL_TARGET_POINT, entry->key };
    fl_frame f;
    fl_begin(&f, c, "add_entry", FL_OBJECT_BUILDER, policy, &key);
    b->ops->add_entry(b, entry);
    fl_end(&f);
}

/* Checks a filter a plugin handed over; destroys it when unusable. */
static bool fl_filter_usable(fl_calls *c, const fl_filter_policy *policy, fl_filter *filter,
                             const char *method) {
    if (filter && filter->ops && filter->ops->might_match && filter->ops->destroy) return true;
    fl_violation(c, FL_OBJECT_POLICY, policy, method, "%s returned FL_OK but %s", method,
                 !filter ? "no filter" : "a filter without might_match/destroy");
    if (filter && filter->ops && filter->ops->destroy) {
        fl_frame f;
        fl_begin(&f, c, "destroy", FL_OBJECT_FILTER, policy, NULL);
        filter->ops->destroy(filter);
        fl_end(&f);
    }
    return false;
}

int fl_call_build(fl_calls *calls, const fl_filter_policy *policy, fl_filter_builder *b,
                  fl_filter **out) {
    *out = NULL;
    if (!b) return FL_ERR_INVALID;
    fl_calls *c = fl_resolve(calls);
    FL_COUNT(c, build);
    fl_filter *filter = NULL;
    fl_frame f;
    fl_begin(&f, c, "build", FL_OBJECT_BUILDER, policy, NULL);
    int rc = b->ops->build(b, &filter);
    fl_end(&f);
    if (rc != FL_OK) {
        fl_violation(c, FL_OBJECT_BUILDER, policy, "build", "build failed: %s", fl_strerror(rc));
        return rc < 0 ? rc : FL_ERR_PLUGIN;
    }
    if (!fl_filter_usable(c, policy, filter, "build")) return FL_ERR_PLUGIN;
    *out = filter;
    return FL_OK;
}

void fl_call_builder_destroy(fl_calls *calls, const fl_filter_policy *policy, fl_filter_builder *b) {
    if (!b) return;
    fl_frame f;
    fl_begin(&f, fl_resolve(calls), "destroy", FL_OBJECT_BUILDER, policy, NULL);
    b->ops->destroy(b);
    fl_end(&f);
}

/* ---- Filters ------------------------------------------------------------------- */

int fl_call_decode(fl_calls *calls, const fl_filter_policy *policy, fl_slice data, fl_filter **out) {
    *out = NULL;
    if (!policy || !policy->ops || !policy->ops->decode) return FL_ERR_INVALID;
    fl_calls *c = fl_resolve(calls);
    FL_COUNT(c, decode);
    fl_filter *filter = NULL;
    fl_frame f;
    fl_begin(&f, c, "decode", FL_OBJECT_POLICY, policy, NULL);
    int rc = policy->ops->decode(policy, data, &filter);
    fl_end(&f);
    if (rc != FL_OK) {
        fl_violation(c, FL_OBJECT_POLICY, policy, "decode", "decode of %zu bytes failed: %s",
                     data.len, fl_strerror(rc));
        return rc < 0 ? rc : FL_ERR_PLUGIN;
    }
    if (!fl_filter_usable(c, policy, filter, "decode")) return FL_ERR_PLUGIN;
    *out = filter;
    return FL_OK;
}

bool fl_call_might_match(fl_calls *calls, const fl_filter_policy *policy, const fl_filter *filter,
                         const fl_filter_query *query) {
    if (!filter || !query) return true;
    fl_calls *c = fl_resolve(calls);
    FL_COUNT(c, might_match);
    bool answer;
    if (fl_filter_is_builtin(filter)) {         /* (see the top) */
        fl_calls *outer = fl_current;
        fl_current = c;
        answer = filter->ops->might_match(filter, query);
        fl_current = outer;
        return answer;
    }
    fl_frame f;
    fl_begin(&f, c, "might_match", FL_OBJECT_FILTER, policy, &query->target);
    answer = filter->ops->might_match(filter, query);
    fl_end(&f);
    return answer;
}

int fl_call_encode(fl_calls *calls, const fl_filter_policy *policy, const fl_filter *filter,
                   fl_buf *out) {
    if (!filter || !out) return FL_ERR_INVALID;
    fl_calls *c = fl_resolve(calls);
    FL_COUNT(c, encode);
    size_t before = out->len;
    int rc = FL_ERR_PLUGIN;
    if (filter->ops->encode) {
        fl_frame f;
        fl_begin(&f, c, "encode", FL_OBJECT_FILTER, policy, NULL);
        rc = filter->ops->encode(filter, out);
        fl_end(&f);
    }
    if (rc != FL_OK) {
        if (out->len > before) out->len = before;    /* drop a partial encoding */
        fl_violation(c, FL_OBJECT_FILTER, policy, "encode", "encode failed: %s", fl_strerror(rc));
        return rc < 0 ? rc : FL_ERR_PLUGIN;
    }
    return FL_OK;
}

size_t fl_call_size(fl_calls *calls, const fl_filter_policy *policy, const fl_filter *filter) {
    if (!filter || !filter->ops->size) return 0;
    fl_frame f;
    fl_begin(&f, fl_resolve(calls), "size", FL_OBJECT_FILTER, policy, NULL);
    size_t n = filter->ops->size(filter);
    fl_end(&f);
    return n;
}

void fl_call_filter_destroy(fl_calls *calls, const fl_filter_policy *policy, fl_filter *filter) {
    if (!filter) return;
    fl_frame f;
    fl_begin(&f, fl_resolve(calls), "destroy", FL_OBJECT_FILTER, policy, NULL);
    filter->ops->destroy(filter);
    fl_end(&f);
}

/* ---- Extractors ---------------------------------------------------------------- */

bool fl_call_prefix_len(fl_calls *calls, const fl_prefix_extractor *ex, const fl_target *target,
                        size_t *len) {
    *len = 0;
    if (!ex || !target) return false;
    fl_calls *c = fl_resolve(calls);
    FL_COUNT(c, prefix_len);
    size_t n = 0;
    bool some;
    if (fl_extractor_is_builtin(ex)) {
        some = ex->ops->prefix_len(ex, target, &n);     /* (no frame: see the top) */
    } else {
        fl_frame f;
        fl_begin(&f, c, "prefix_len", FL_OBJECT_EXTRACTOR, ex, target);
        some = ex->ops->prefix_len(ex, target, &n);
        fl_end(&f);
    }
    if (!some) return false;
    if (n > target->bytes.len) {
        fl_violation(c, FL_OBJECT_EXTRACTOR, ex, "prefix_len",
                     "prefix_len returned %zu for a %s of %zu bytes (must be <= its length)",
                     n, target->kind == FL_TARGET_POINT ? "key" : "prefix", target->bytes.len);
        return false;
    }
    *len = n;
    return true;
}

/* ---- Destroying what the registry made ------------------------------------------ */

void fl_call_policy_destroy(fl_calls *calls, fl_filter_policy *policy) {
    if (!policy) return;
    fl_calls *c = fl_resolve(calls);
    fl_frame f;
    fl_begin(&f, c, "destroy", FL_OBJECT_POLICY, policy, NULL);
    policy->ops->destroy(policy);
    fl_end(&f);
    if (c->reg) fl_registry_forget(c->reg, policy);
}

void fl_call_extractor_destroy(fl_calls *calls, fl_prefix_extractor *ex) {
    if (!ex) return;
    fl_calls *c = fl_resolve(calls);
    fl_frame f;
    fl_begin(&f, c, "destroy", FL_OBJECT_EXTRACTOR, ex, NULL);
    ex->ops->destroy(ex);
    fl_end(&f);
    if (c->reg) fl_registry_forget(c->reg, ex);
}

/* ---- The watchdog's view ------------------------------------------------------------ */

bool fl_calls_current(const fl_calls *calls, fl_call_now *out, bool details) {
    memset(out, 0, sizeof *out);
    if (!calls || calls->fallback) return false;
    unsigned depth = __atomic_load_n(&calls->depth, __ATOMIC_ACQUIRE);
    out->seq = FL_LOAD(calls->seq);
    if (depth == 0) return false;
    out->method = FL_LOAD(calls->method);
    out->object = FL_LOAD(calls->object_kind);
    if (!details) return true;
    /* The calling thread is inside the call (it has been for a while when
     * a watchdog asks for details), so what the frame borrows is alive. */
    const void *object = FL_LOAD(calls->object);
    const fl_target *target = FL_LOAD(calls->target);
    const char *plugin = NULL;
    fl_describe(calls, out->object, object, out->who, sizeof out->who, &plugin);
    snprintf(out->plugin, sizeof out->plugin, "%s", plugin ? plugin : "");
    if (target) {
        out->has_target = true;
        out->target_kind = target->kind;
        out->target_len = target->bytes.len;
        size_t n = target->bytes.len < sizeof out->target ? target->bytes.len : sizeof out->target;
        if (n) memcpy(out->target, target->bytes.data, n);
    }
    return true;
}

const char *fl_object_kind_name(fl_object_kind kind) { return fl_object_word(kind); }

/* ---- Legacy filter blocks (engine.h, "Stored bytes") ----------------------------- */

int fl_call_decode_legacy(fl_calls *calls, const fl_filter_policy *bloom, fl_slice data,
                          fl_filter **out) {
    *out = NULL;
    if (!fl_policy_is_builtin_bloom(bloom)) return FL_ERR_INVALID;
    fl_calls *c = fl_resolve(calls);
    FL_COUNT(c, decode);
    fl_frame f;
    fl_begin(&f, c, "decode", FL_OBJECT_POLICY, bloom, NULL);
    int rc = fl_bloom_legacy_decode(data, out);
    fl_end(&f);
    if (rc != FL_OK) {
        *out = NULL;
        fl_violation(c, FL_OBJECT_POLICY, bloom, "decode", "decode of a %zu-byte Legacy block failed: %s",
                     data.len, fl_strerror(rc));
    }
    return rc;
}
