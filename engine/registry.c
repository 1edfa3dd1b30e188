/*
 * registry.c -- the registry of policy and extractor kinds, and the parsers
 * of policy specs, extractor specs and policy lists (SPEC section 10).
 *
 * Spec grammar (blanks = spaces and tabs):
 *   policy list     = blanks "none" blanks
 *                   | spec (";" spec)*          split at parenthesis depth 0
 *   policy spec     = blanks KIND [ "(" ARGS ")" ] blanks
 *                     ARGS may hold balanced parentheses; the factory gets
 *                     ARGS verbatim, \xNN escapes still in place
 *   extractor spec  = KIND [ ":" ARGS ]         no blanks are trimmed
 *   KIND            = 1..31 bytes of [A-Za-z0-9_-]
 *
 * Invariants:
 *   - Policy and extractor kinds share one namespace; a kind is registered
 *     at most once, and "none" (the empty policy list) is never a kind.
 *   - Every object a factory hands back is checked before the caller sees
 *     it: an abi_version newer than ours is destroyed and refused with
 *     FL_ERR_VERSION; a version < 1, NULL ops or a NULL required method is
 *     refused with FL_ERR_PLUGIN.  So the engine only ever holds objects
 *     whose required methods it may call.
 *   - The registry must outlive every object made through it: a plugin's
 *     code is unloaded by fl_registry_free.
 */
#include "registry_internal.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A message longer than err holds loses its middle, not its end: the end
 * is where the culprit is named ("...: unknown policy kind 'nosuch'"). */
void fl_errf(char *err, size_t err_len, const char *fmt, ...) {
    if (!err || err_len == 0) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n < err_len || err_len < 64) return;
    char *all = malloc((size_t)n + 1);
    if (!all) return;
    va_start(ap, fmt);
    vsnprintf(all, (size_t)n + 1, fmt, ap);
    va_end(ap);
    static const char gap[] = " [...] ";
    size_t room = err_len - 1 - (sizeof gap - 1), head = room * 2 / 5, tail = room - head;
    memcpy(err, all, head);
    memcpy(err + head, gap, sizeof gap - 1);
    memcpy(err + head + sizeof gap - 1, all + (size_t)n - tail, tail + 1);
    free(all);
}

/* s as a message quotes it: whole up to 120 bytes, else its start and its
 * end around " ... " (in buf). */
static const char *fl_shown(const char *s, char *buf, size_t cap) {
    size_t len = strlen(s);
    if (len <= 120 || cap < 128) return s;
    snprintf(buf, cap, "%.56s ... %s", s, s + len - 56);
    return buf;
}

static bool fl_is_blank(char c) { return c == ' ' || c == '\t'; }

static bool fl_is_kind_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-';
}

/* Length of the run of kind bytes at the start of s. */
static size_t fl_kind_span(const char *s) {
    size_t n = 0;
    while (fl_is_kind_char(s[n])) n++;
    return n;
}

/* ---- Lifecycle and registration ----------------------------------------- */

struct fl_origins {
    pthread_mutex_t lock;
    fl_origin *items;
    size_t count, cap;
};

int fl_registry_new(fl_registry **out) {
    *out = NULL;
    fl_registry *reg = calloc(1, sizeof *reg);
    if (!reg) return FL_ERR_NOMEM;
    if (!(reg->origins = calloc(1, sizeof *reg->origins))) {
        free(reg);
        return FL_ERR_NOMEM;
    }
    pthread_mutex_init(&reg->origins->lock, NULL);
    int rc = fl_registry_add_policy(reg, "bloom", fl_bloom_factory);
    if (rc == FL_OK) rc = fl_registry_add_extractor(reg, "fixed", fl_fixed_factory);
    if (rc == FL_OK) rc = fl_registry_add_extractor(reg, "capped", fl_capped_factory);
    if (rc == FL_OK) rc = fl_registry_add_extractor(reg, "delim", fl_delim_factory);
    if (rc == FL_OK) rc = fl_registry_add_extractor(reg, "lastdelim", fl_lastdelim_factory);
    if (rc != FL_OK) {
        fl_registry_free(reg);
        return rc;
    }
    *out = reg;
    return FL_OK;
}

size_t fl_registry_plugin_count(const fl_registry *reg) { return reg ? reg->plugin_count : 0; }

const char *fl_registry_plugin_path(const fl_registry *reg, size_t i) {
    return reg && i < reg->plugin_count ? reg->plugin_paths[i] : NULL;
}

void fl_registry_free(fl_registry *reg) {
    if (!reg) return;
    for (size_t i = 0; i < reg->kind_count; i++) free(reg->kinds[i].origin);
    free(reg->kinds);
    fl_registry_close_plugins(reg);
    free(reg->plugins);
    free(reg->plugin_paths);
    if (reg->origins) {
        pthread_mutex_destroy(&reg->origins->lock);
        free(reg->origins->items);
        free(reg->origins);
    }
    free(reg);
}

/* ---- Origins ------------------------------------------------------------- */

/* The origins are a hash table by object address (open addressing, linear
 * probing, cap a power of two at most 3/4 full; removal shifts the run
 * back so no tombstones build up): a list of thousands of policies makes
 * and destroys each object in constant time. */
static size_t fl_origin_home(const fl_origins *o, const void *obj) {
    uint64_t h = (uint64_t)(uintptr_t)obj * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 32) & (o->cap - 1);
}

static fl_origin *fl_find_origin(const fl_origins *o, const void *obj) {
    if (!o->cap) return NULL;
    for (size_t i = fl_origin_home(o, obj);; i = (i + 1) & (o->cap - 1)) {
        if (!o->items[i].obj) return NULL;
        if (o->items[i].obj == obj) return &o->items[i];
    }
}

static bool fl_origins_grow(fl_origins *o) {
    size_t cap = o->cap ? 2 * o->cap : 64;
    fl_origin *old = o->items, *n = calloc(cap, sizeof *n);
    if (!n) return false;
    size_t old_cap = o->cap;
    o->items = n;
    o->cap = cap;
    for (size_t i = 0; i < old_cap; i++) {
        if (!old[i].obj) continue;
        size_t j = fl_origin_home(o, old[i].obj);
        while (n[j].obj) j = (j + 1) & (cap - 1);
        n[j] = old[i];
    }
    free(old);
    return true;
}

void fl_registry_note_origin(const fl_registry *reg, const void *obj, const fl_kind_entry *e) {
    fl_origins *o = reg->origins;
    pthread_mutex_lock(&o->lock);
    fl_origin *slot = fl_find_origin(o, obj);     /* a reused address */
    if (!slot && ((o->count + 1) * 4 <= o->cap * 3 || fl_origins_grow(o))) {
        size_t j = fl_origin_home(o, obj);
        while (o->items[j].obj) j = (j + 1) & (o->cap - 1);
        slot = &o->items[j];
        o->count++;
    }
    if (slot) *slot = (fl_origin){ obj, (size_t)(e - reg->kinds), false };
    pthread_mutex_unlock(&o->lock);
}

void fl_registry_forget(const fl_registry *reg, const void *obj) {
    fl_origins *o = reg->origins;
    pthread_mutex_lock(&o->lock);
    fl_origin *slot = fl_find_origin(o, obj);
    if (slot) {
        /* backward shift: move up every later entry of the run that may */
        size_t i = (size_t)(slot - o->items), mask = o->cap - 1;
        for (size_t j = (i + 1) & mask; o->items[j].obj; j = (j + 1) & mask) {
            size_t home = fl_origin_home(o, o->items[j].obj);
            if (((j - home) & mask) >= ((j - i) & mask)) {
                o->items[i] = o->items[j];
                i = j;
            }
        }
        o->items[i] = (fl_origin){ NULL, 0, false };
        o->count--;
    }
    pthread_mutex_unlock(&o->lock);
}

bool fl_registry_origin(const fl_registry *reg, const void *obj, char *kind, size_t kind_len,
                        const char **plugin) {
    fl_origins *o = reg->origins;
    pthread_mutex_lock(&o->lock);
    const fl_origin *slot = fl_find_origin(o, obj);
    if (slot) {
        const fl_kind_entry *e = &reg->kinds[slot->kind];
        snprintf(kind, kind_len, "%s", e->kind);
        *plugin = e->origin;                     /* lives as long as reg */
    }
    pthread_mutex_unlock(&o->lock);
    return slot != NULL;
}

bool fl_registry_null_name_once(const fl_registry *reg, const void *obj) {
    fl_origins *o = reg->origins;
    pthread_mutex_lock(&o->lock);
    fl_origin *slot = fl_find_origin(o, obj);
    bool first = !slot || !slot->null_name_reported;
    if (slot) slot->null_name_reported = true;
    pthread_mutex_unlock(&o->lock);
    return first;
}

static const fl_kind_entry *fl_find_kind(const fl_registry *reg, const char *kind, size_t len) {
    for (size_t i = 0; i < reg->kind_count; i++)
        if (strlen(reg->kinds[i].kind) == len && memcmp(reg->kinds[i].kind, kind, len) == 0)
            return &reg->kinds[i];
    return NULL;
}

const char *fl_registry_spec_plugin(const fl_registry *reg, const char *spec, bool policy) {
    if (!reg || !spec) return NULL;
    size_t len = fl_kind_span(spec);
    const fl_kind_entry *e = len ? fl_find_kind(reg, spec, len) : NULL;
    return e && (e->policy != NULL) == policy ? e->origin : NULL;
}

static int fl_registry_add(fl_registry *reg, const char *kind, fl_policy_factory pf,
                           fl_extractor_factory ef) {
    if (!reg || !kind || (!pf && !ef)) return FL_ERR_INVALID;
    size_t len = fl_kind_span(kind);
    if (len == 0 || len > FL_KIND_MAX || kind[len] != '\0') return FL_ERR_INVALID;
    if (strcmp(kind, "none") == 0 || fl_find_kind(reg, kind, len)) return FL_ERR_EXISTS;
    if (reg->kind_count == reg->kind_cap) {
        size_t cap = reg->kind_cap ? 2 * reg->kind_cap : 8;
        fl_kind_entry *kinds = realloc(reg->kinds, cap * sizeof *kinds);
        if (!kinds) return FL_ERR_NOMEM;
        reg->kinds = kinds;
        reg->kind_cap = cap;
    }
    fl_kind_entry *e = &reg->kinds[reg->kind_count];
    memset(e, 0, sizeof *e);
    memcpy(e->kind, kind, len + 1);
    e->policy = pf;
    e->extractor = ef;
    if (reg->loading && !(e->origin = strdup(reg->loading))) return FL_ERR_NOMEM;
    reg->kind_count++;
    return FL_OK;
}

int fl_registry_add_policy(fl_registry *reg, const char *kind, fl_policy_factory factory) {
    if (!factory) return FL_ERR_INVALID;
    return fl_registry_add(reg, kind, factory, NULL);
}

int fl_registry_add_extractor(fl_registry *reg, const char *kind, fl_extractor_factory factory) {
    if (!factory) return FL_ERR_INVALID;
    return fl_registry_add(reg, kind, NULL, factory);
}

static void fl_list_kinds(const fl_registry *reg, bool policies, char *out, size_t out_len) {
    if (!out || out_len == 0) return;
    out[0] = '\0';
    size_t used = 0;
    for (size_t i = 0; reg && i < reg->kind_count; i++) {
        if ((reg->kinds[i].policy != NULL) != policies) continue;
        int n = snprintf(out + used, out_len - used, "%s%s", used ? ", " : "",
                         reg->kinds[i].kind);
        if (n < 0 || (size_t)n >= out_len - used) return;    /* truncated */
        used += (size_t)n;
    }
}

void fl_registry_policy_kinds(const fl_registry *reg, char *out, size_t out_len) {
    fl_list_kinds(reg, true, out, out_len);
}

void fl_registry_extractor_kinds(const fl_registry *reg, char *out, size_t out_len) {
    fl_list_kinds(reg, false, out, out_len);
}

/* " (from plugin PATH)" or "" for a built-in, for messages. */
static void fl_origin_note(const fl_kind_entry *e, char *out, size_t out_len) {
    if (e->origin)
        snprintf(out, out_len, " (from plugin %s)", e->origin);
    else
        out[0] = '\0';
}

/* Finds the kind of a spec, or explains in err why there is none. */
static const fl_kind_entry *fl_lookup(const fl_registry *reg, bool policy, const char *spec,
                                      const char *kind, size_t len, char *err, size_t err_len) {
    const fl_kind_entry *e = fl_find_kind(reg, kind, len);
    if (e && (e->policy != NULL) == policy) return e;
    char known[512];
    fl_list_kinds(reg, policy, known, sizeof known);
    const char *what = policy ? "policy" : "extractor";
    if (e)
        fl_errf(err, err_len, "%s spec '%s': '%.*s' is %s kind, not %s kind; known %s "
                "kinds: %s", what, spec, (int)len, kind,
                policy ? "an extractor" : "a policy", policy ? "a policy" : "an extractor",
                what, known[0] ? known : "(none)");
    else
        fl_errf(err, err_len, "%s spec '%s': unknown %s kind '%.*s'; known %s kinds: %s",
                what, spec, what, (int)len, kind, what, known[0] ? known : "(none)");
    return NULL;
}

/* ---- Making objects ---------------------------------------------------- */

/* A spec whose syntax is the other sort's ("fixed:3" as a policy,
 * "bloom(bits=3)" as an extractor) most likely names a kind of that sort:
 * then that is the error to report (fl_lookup's), not the syntax. */
static bool fl_other_sort(const fl_registry *reg, bool policy, const char *spec, const char *kind,
                          size_t len, char *err, size_t err_len) {
    const fl_kind_entry *e = len ? fl_find_kind(reg, kind, len) : NULL;
    if (!e || (e->policy != NULL) == policy) return false;
    fl_lookup(reg, policy, spec, kind, len, err, err_len);
    return true;
}

/* Checks abi_version, ops and required methods of a new object. */
static int fl_check_object(const fl_kind_entry *e, bool policy, int abi_version,
                           bool ops_ok, void (*destroy)(void *), void *obj,
                           char *err, size_t err_len) {
    char origin[300];
    fl_origin_note(e, origin, sizeof origin);
    const char *what = policy ? "policy" : "extractor";
    if (abi_version > FL_FILTER_ABI_VERSION) {
        if (destroy) destroy(obj);
        fl_errf(err, err_len, "%s kind '%s'%s was built for filter ABI %d; this filterlab "
                "supports %d", what, e->kind, origin, abi_version, FL_FILTER_ABI_VERSION);
        return FL_ERR_VERSION;
    }
    if (abi_version < 1 || !ops_ok) {
        if (abi_version >= 1 && destroy) destroy(obj);
        if (abi_version < 1)
            fl_errf(err, err_len, "%s kind '%s'%s made an object with abi_version %d; "
                    "expected %d (FL_FILTER_ABI_VERSION)", what, e->kind, origin,
                    abi_version, FL_FILTER_ABI_VERSION);
        else
            fl_errf(err, err_len, "%s kind '%s'%s made an object with %s", what, e->kind,
                    origin, policy ? "NULL ops or a NULL name/new_builder/decode/destroy"
                                   : "NULL ops or a NULL name/prefix_len/destroy");
        return FL_ERR_PLUGIN;
    }
    return FL_OK;
}

static void fl_destroy_policy(void *p) {
    fl_filter_policy *policy = p;
    policy->ops->destroy(policy);
}

static void fl_destroy_extractor(void *p) {
    fl_prefix_extractor *ex = p;
    ex->ops->destroy(ex);
}

/* Copies s[0..len) into a new NUL-terminated string. */
static char *fl_strndup(const char *s, size_t len) {
    char *copy = malloc(len + 1);
    if (copy) {
        memcpy(copy, s, len);
        copy[len] = '\0';
    }
    return copy;
}

int fl_registry_make_policy(const fl_registry *reg, const char *spec,
                            fl_filter_policy **out, char *err, size_t err_len) {
    *out = NULL;
    if (!reg || !spec) {
        fl_errf(err, err_len, "no policy spec given");
        return FL_ERR_INVALID;
    }
    const char *s = spec, *end = spec + strlen(spec);
    while (fl_is_blank(*s)) s++;
    while (end > s && fl_is_blank(end[-1])) end--;
    size_t kind_len = fl_kind_span(s);
    if (fl_other_sort(reg, true, spec, s, kind_len, err, err_len)) return FL_ERR_NOTFOUND;
    if (kind_len == 0 || kind_len > FL_KIND_MAX) {
        fl_errf(err, err_len, "policy spec '%s': expected KIND or KIND(ARG=VALUE,...), with "
                "KIND 1-31 bytes of [A-Za-z0-9_-]%s", spec,
                kind_len ? "; the kind is too long" : "");
        return FL_ERR_INVALID;
    }
    const char *args = s + kind_len, *args_end = args;
    if (args < end) {
        if (*args != '(') {
            fl_errf(err, err_len, "policy spec '%s': unexpected '%c' after kind '%.*s'; "
                    "expected '(' or the end of the spec", spec, *args, (int)kind_len, s);
            return FL_ERR_INVALID;
        }
        int depth = 0;
        const char *p = args;
        for (; p < end; p++) {
            if (*p == '(') depth++;
            if (*p == ')' && --depth == 0) break;
        }
        if (p == end) {
            fl_errf(err, err_len, "policy spec '%s': unbalanced parentheses: the '(' after "
                    "'%.*s' is never closed (write \\x28 and \\x29 for literal parentheses)",
                    spec, (int)kind_len, s);
            return FL_ERR_INVALID;
        }
        if (p + 1 != end) {
            fl_errf(err, err_len, "policy spec '%s': unexpected text '%.*s' after the closing "
                    "')'%s", spec, (int)(end - p - 1), p + 1,
                    p[1] == ')' ? " (unbalanced parentheses)" : "");
            return FL_ERR_INVALID;
        }
        args++;
        args_end = p;
    }
    const fl_kind_entry *e = fl_lookup(reg, true, spec, s, kind_len, err, err_len);
    if (!e) return FL_ERR_NOTFOUND;

    char *arg_text = fl_strndup(args, (size_t)(args_end - args));
    if (!arg_text) return FL_ERR_NOMEM;
    char ferr[512] = "";
    fl_filter_policy *policy = NULL;
    int rc = e->policy(reg, arg_text, &policy, ferr, sizeof ferr);
    free(arg_text);
    if (rc != FL_OK) {
        fl_errf(err, err_len, "policy spec '%s': %s", spec, ferr[0] ? ferr : fl_strerror(rc));
        return rc < 0 ? rc : FL_ERR_PLUGIN;
    }
    if (!policy) {
        fl_errf(err, err_len, "policy spec '%s': kind '%s' returned FL_OK but no policy",
                spec, e->kind);
        return FL_ERR_PLUGIN;
    }
    const fl_filter_policy_ops *ops = policy->ops;
    bool ops_ok = ops && ops->name && ops->new_builder && ops->decode && ops->destroy;
    rc = fl_check_object(e, true, policy->abi_version, ops_ok,
                         ops && ops->destroy ? fl_destroy_policy : NULL, policy, err, err_len);
    if (rc != FL_OK) return rc;
    fl_registry_note_origin(reg, policy, e);
    *out = policy;
    return FL_OK;
}

int fl_registry_make_extractor(const fl_registry *reg, const char *spec,
                               fl_prefix_extractor **out, char *err, size_t err_len) {
    *out = NULL;
    if (!reg || !spec) {
        fl_errf(err, err_len, "no extractor spec given");
        return FL_ERR_INVALID;
    }
    size_t kind_len = fl_kind_span(spec);
    if (fl_other_sort(reg, false, spec, spec, kind_len, err, err_len)) return FL_ERR_NOTFOUND;
    if (kind_len == 0 || kind_len > FL_KIND_MAX || (spec[kind_len] && spec[kind_len] != ':')) {
        fl_errf(err, err_len, "extractor spec '%s': expected KIND or KIND:ARGS (e.g. fixed:3, "
                "delim:\\x3a), with KIND 1-31 bytes of [A-Za-z0-9_-]", spec);
        return FL_ERR_INVALID;
    }
    const fl_kind_entry *e = fl_lookup(reg, false, spec, spec, kind_len, err, err_len);
    if (!e) return FL_ERR_NOTFOUND;
    const char *args = spec[kind_len] == ':' ? spec + kind_len + 1 : "";

    char ferr[512] = "";
    fl_prefix_extractor *ex = NULL;
    int rc = e->extractor(reg, args, &ex, ferr, sizeof ferr);
    if (rc != FL_OK) {
        fl_errf(err, err_len, "extractor spec '%s': %s", spec, ferr[0] ? ferr : fl_strerror(rc));
        return rc < 0 ? rc : FL_ERR_PLUGIN;
    }
    if (!ex) {
        fl_errf(err, err_len, "extractor spec '%s': kind '%s' returned FL_OK but no extractor",
                spec, e->kind);
        return FL_ERR_PLUGIN;
    }
    const fl_prefix_extractor_ops *ops = ex->ops;
    bool ops_ok = ops && ops->name && ops->prefix_len && ops->destroy;
    rc = fl_check_object(e, false, ex->abi_version, ops_ok,
                         ops && ops->destroy ? fl_destroy_extractor : NULL, ex, err, err_len);
    if (rc != FL_OK) return rc;
    fl_registry_note_origin(reg, ex, e);
    *out = ex;
    return FL_OK;
}

/* ---- Escapes ----------------------------------------------------------- */

static int fl_hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes \xNN (either case of hex digit); any other backslash is a bad
 * escape.  NUL-terminates out when there is room past the decoded bytes
 * (the bytes themselves may hold NULs). */
int fl_spec_unescape(const char *in, size_t in_len, char *out, size_t out_cap) {
    size_t n = 0;
    for (size_t i = 0; i < in_len; i++) {
        char c = in[i];
        if (c == '\\') {
            int hi, lo;
            if (in_len - i < 4 || in[i + 1] != 'x' || (hi = fl_hex_digit(in[i + 2])) < 0 ||
                (lo = fl_hex_digit(in[i + 3])) < 0)
                return -1;
            c = (char)(hi << 4 | lo);
            i += 3;
        }
        if (n == out_cap || n == (size_t)INT32_MAX) return -1;
        out[n++] = c;
    }
    if (n < out_cap) out[n] = '\0';
    return (int)n;
}

/* ---- The grammar of lists and arguments (the one parser of SPEC 10) -------- */

/* Trims blanks off [*a, *b). */
static void fl_trim_blanks(const char **a, const char **b) {
    while (*a < *b && fl_is_blank(**a)) (*a)++;
    while (*b > *a && fl_is_blank((*b)[-1])) (*b)--;
}

/* The end of the piece starting at p: the next `sep` at parenthesis depth
 * 0, or end. */
static const char *fl_piece_end(const char *p, const char *end, char sep) {
    for (int depth = 0; p < end && !(*p == sep && depth <= 0); p++)
        depth += (*p == '(') - (*p == ')');
    return p;
}

int fl_policy_list_split(const char *list, fl_spec_fn fn, void *arg, char *err, size_t err_len) {
    if (!list) {
        fl_errf(err, err_len, "no policy list given");
        return FL_ERR_INVALID;
    }
    const char *s = list, *end = list + strlen(list);
    fl_trim_blanks(&s, &end);
    if (s == end) {
        fl_errf(err, err_len, "empty policy list '%s': expected 'none' or specs separated by "
                "';' such as 'bloom(bits=10);bloom(bits=8,prefix=fixed:3)'", list);
        return FL_ERR_INVALID;
    }
    if (end - s == 4 && memcmp(s, "none", 4) == 0) return FL_OK;
    size_t index = 0;
    for (const char *piece = s; piece <= end;) {
        const char *stop = fl_piece_end(piece, end, ';'), *a = piece, *b = stop;
        fl_trim_blanks(&a, &b);
        index++;
        if (a == b || (b - a == 4 && memcmp(a, "none", 4) == 0)) {
            char shown[160];
            fl_errf(err, err_len, "policy list '%s': spec %zu is %s", fl_shown(list, shown, sizeof shown),
                    index,
                    a == b ? "empty (a ';' with nothing before or after it)"
                           : "'none', which must be the whole list");
            return FL_ERR_INVALID;
        }
        char *one = fl_strndup(a, (size_t)(b - a));
        if (!one) return FL_ERR_NOMEM;
        int rc = fn ? fn(arg, one, index) : FL_OK;
        free(one);
        if (rc != FL_OK) return rc;
        piece = stop + 1;
    }
    return FL_OK;
}

typedef struct fl_first { size_t count; char *first; } fl_first;

static int fl_note_first(void *arg, const char *spec, size_t index) {
    fl_first *f = arg;
    (void)index;
    if (f->count++ == 0 && !(f->first = strdup(spec))) return FL_ERR_NOMEM;
    return FL_OK;
}

int fl_policy_list_first(const char *list, size_t *count, char **first, char *err, size_t err_len) {
    fl_first f = { 0, NULL };
    int rc = fl_policy_list_split(list, fl_note_first, &f, err, err_len);
    if (rc) {
        free(f.first);
        f.first = NULL;
        f.count = 0;
    }
    *count = f.count;
    *first = f.first;
    return rc;
}

int fl_spec_args_split(const char *args, fl_spec_arg_fn fn, void *arg, char *err, size_t err_len) {
    const char *all = args ? args : "", *end = all + strlen(all);
    fl_trim_blanks(&all, &end);
    if (all == end) return FL_OK;                 /* "kind" or "kind()" */
    for (const char *item = all; item <= end;) {
        const char *stop = fl_piece_end(item, end, ','), *a = item, *b = stop;
        fl_trim_blanks(&a, &b);
        const char *eq = memchr(a, '=', (size_t)(b - a));
        if (a == b) {
            fl_errf(err, err_len, "empty argument (a ',' with nothing before or after it); "
                    "expected ARG=VALUE");
            return FL_ERR_INVALID;
        }
        if (!eq) {
            fl_errf(err, err_len, "argument '%.*s': expected ARG=VALUE", (int)(b - a), a);
            return FL_ERR_INVALID;
        }
        const char *na = a, *nb = eq, *va = eq + 1, *vb = b;
        fl_trim_blanks(&na, &nb);
        fl_trim_blanks(&va, &vb);
        char *name = fl_strndup(na, (size_t)(nb - na)), *value = fl_strndup(va, (size_t)(vb - va));
        int rc = name && value ? fn(arg, name, value) : FL_ERR_NOMEM;
        free(name);
        free(value);
        if (rc != FL_OK) return rc;
        item = stop + 1;
    }
    return FL_OK;
}

typedef struct fl_arg_lookup { const char *key; char *out; size_t cap; bool found; } fl_arg_lookup;

static int fl_arg_match(void *arg, const char *name, const char *value) {
    fl_arg_lookup *l = arg;
    if (l->found || strcmp(name, l->key) != 0) return FL_OK;
    l->found = true;
    if (l->cap) snprintf(l->out, l->cap, "%s", value);
    return FL_OK;
}

bool fl_spec_argument(const char *spec, const char *key, char *out, size_t cap) {
    if (cap) out[0] = '\0';
    if (!spec || !key) return false;
    const char *s = spec, *end = spec + strlen(spec);
    fl_trim_blanks(&s, &end);
    const char *open = memchr(s, '(', (size_t)(end - s));
    if (!open || end == open || end[-1] != ')') return false;
    char *args = fl_strndup(open + 1, (size_t)(end - 1 - (open + 1)));
    if (!args) return false;
    fl_arg_lookup l = { key, out, cap, false };
    fl_spec_args_split(args, fl_arg_match, &l, NULL, 0);
    free(args);
    return l.found;
}

typedef struct fl_list_arg { const char *key; char *out; size_t cap; bool found; } fl_list_arg;

static int fl_list_arg_one(void *arg, const char *spec, size_t index) {
    fl_list_arg *l = arg;
    (void)index;
    l->found = fl_spec_argument(spec, l->key, l->out, l->cap);
    return l->found;                  /* the first one ends the split */
}

bool fl_policy_list_argument(const char *list, const char *key, char *out, size_t cap) {
    fl_list_arg l = { key, out, cap, false };
    if (cap) out[0] = '\0';
    fl_policy_list_split(list, fl_list_arg_one, &l, NULL, 0);
    return l.found;
}

/* ---- Policy lists ------------------------------------------------------ */

void fl_policy_list_free(fl_calls *calls, fl_policy_list *list) {
    if (!list) return;
    for (size_t i = 0; i < list->count; i++) fl_call_policy_destroy(calls, list->items[i]);
    free(list->items);
    list->items = NULL;
    list->count = 0;
}

/* The names of a list's policies so far: a hash set (open addressing, a
 * power-of-two cap at most half full), so a duplicate is found in
 * constant time however long the list. */
typedef struct fl_name_slot { char *name; size_t index; } fl_name_slot;

typedef struct fl_list_build {
    const fl_registry *reg;
    fl_calls *calls;
    const char *spec;
    fl_policy_list list;
    size_t cap;
    char *err;
    size_t err_len;
    fl_name_slot *names;
    size_t names_cap;
} fl_list_build;

static size_t fl_name_hash(const char *s) {
    uint64_t h = 0xcbf29ce484222325ull;                  /* FNV-1a */
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
    return (size_t)(h ^ (h >> 32));
}

/* The slot of name: holding it, or empty where it goes. */
static fl_name_slot *fl_name_slot_of(fl_name_slot *t, size_t cap, const char *name) {
    size_t i = fl_name_hash(name) & (cap - 1);
    while (t[i].name && strcmp(t[i].name, name) != 0) i = (i + 1) & (cap - 1);
    return &t[i];
}

/* Adds name (index: its spec's number); the earlier spec's number when the
 * name is taken, 0 when added, SIZE_MAX when out of memory. */
static size_t fl_name_add(fl_list_build *lb, const char *name, size_t index) {
    if ((lb->list.count + 1) * 2 > lb->names_cap) {
        size_t cap = lb->names_cap ? 2 * lb->names_cap : 16;
        fl_name_slot *t = calloc(cap, sizeof *t);
        if (!t) return SIZE_MAX;
        for (size_t i = 0; i < lb->names_cap; i++)
            if (lb->names[i].name) *fl_name_slot_of(t, cap, lb->names[i].name) = lb->names[i];
        free(lb->names);
        lb->names = t;
        lb->names_cap = cap;
    }
    fl_name_slot *slot = fl_name_slot_of(lb->names, lb->names_cap, name);
    if (slot->name) return slot->index;
    if (!(slot->name = strdup(name))) return SIZE_MAX;
    slot->index = index;
    return 0;
}

static void fl_names_free(fl_list_build *lb) {
    for (size_t i = 0; i < lb->names_cap; i++) free(lb->names[i].name);
    free(lb->names);
}

static int fl_list_add(void *arg, const char *one, size_t index) {
    fl_list_build *lb = arg;
    fl_policy_list *list = &lb->list;
    if (list->count == lb->cap) {
        size_t cap = lb->cap ? 2 * lb->cap : 4;
        fl_filter_policy **items = realloc(list->items, cap * sizeof *items);
        if (!items) return FL_ERR_NOMEM;
        list->items = items;
        lb->cap = cap;
    }
    char perr[1024] = "", shown[160];
    fl_filter_policy *policy = NULL;
    int rc = fl_registry_make_policy(lb->reg, one, &policy, perr, sizeof perr);
    if (rc != FL_OK) {
        fl_errf(lb->err, lb->err_len, "policy list '%s', spec %zu: %s",
                fl_shown(lb->spec, shown, sizeof shown), index, perr);
        return rc;
    }
    const char *name = fl_call_policy_name(lb->calls, policy);
    size_t earlier = fl_name_add(lb, name, index);
    list->items[list->count++] = policy;
    if (earlier == SIZE_MAX) return FL_ERR_NOMEM;
    if (earlier) {
        fl_errf(lb->err, lb->err_len, "policy list '%s': spec %zu '%s' has the name '%s', "
                "already used by spec %zu; two policies may not share a name",
                fl_shown(lb->spec, shown, sizeof shown), index, one, name, earlier);
        return FL_ERR_INVALID;
    }
    return FL_OK;
}

int fl_policy_list_parse(const fl_registry *reg, fl_calls *calls, const char *spec,
                         fl_policy_list *out, char *err, size_t err_len) {
    out->items = NULL;
    out->count = 0;
    if (!reg) {
        fl_errf(err, err_len, "no registry given");
        return FL_ERR_INVALID;
    }
    fl_list_build lb = { reg, calls, spec, { NULL, 0 }, 0, err, err_len, NULL, 0 };
    int rc = fl_policy_list_split(spec, fl_list_add, &lb, err, err_len);
    fl_names_free(&lb);
    if (rc != FL_OK) {
        fl_policy_list_free(calls, &lb.list);
        return rc;
    }
    *out = lb.list;
    return FL_OK;
}
