/*
 * filter.h -- the filterlab filter plugin ABI (SPEC section 3).
 *
 * Everything a filter policy or prefix extractor plugin needs is in this one
 * header; it includes nothing of the engine's internals.  A plugin is a shared
 * object built with
 *
 *     cc -shared -fPIC -I<filterlab>/engine my.c -o my.so
 *
 * that exports fl_plugin_init().  It links against nothing: the filterlab
 * binary exports the fl_buf_append() and fl_registry_*() functions below.
 *
 * Compatibility rules:
 *   - Every vtable only grows at the end.  A policy or extractor states the ABI
 *     version it was built for in its abi_version field (set it to
 *     FL_FILTER_ABI_VERSION); the engine refuses versions newer than its own.
 *   - Implementations embed the base struct as their FIRST member, the way a
 *     sqlite3_file is embedded, so a pointer to the base is a pointer to the
 *     implementation:
 *
 *         struct my_filter { fl_filter base;  // Base class. Must be first
 *                            uint64_t lo, hi; };
 *
 * Ownership: whoever creates an object destroys it through its own destroy
 * method.  build() hands the new filter to the caller, who destroys it.
 * decode() likewise.  Slices passed into any method are borrowed for the
 * duration of that call only: copy what you keep.
 *
 * Status codes are int: FL_OK (0) on success, a negative FL_ERR_* otherwise.
 *
 * Fail safe: a filter that cannot answer a query answers true ("cannot rule
 * out").  The engine treats every error -- a failing decode or build, a NULL
 * name, an extractor length past the end of its input -- as "cannot rule
 * out", reports a contract violation naming the plugin, and never skips an
 * SST because of it.
 */
#ifndef FL_FILTER_H
#define FL_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FL_FILTER_ABI_VERSION 1

/* ---- Status codes ---------------------------------------------------- */

#define FL_OK            0
#define FL_ERR_INVALID  (-1)   /* bad argument, spec or input              */
#define FL_ERR_CORRUPT  (-2)   /* checksum, bounds or format failure       */
#define FL_ERR_IO       (-3)   /* a system call failed                     */
#define FL_ERR_NOMEM    (-4)   /* allocation failed                        */
#define FL_ERR_NOTFOUND (-5)   /* no such kind, key, file                  */
#define FL_ERR_EXISTS   (-6)   /* name already taken                       */
#define FL_ERR_VERSION  (-7)   /* unsupported ABI or format version        */
#define FL_ERR_PLUGIN   (-8)   /* a plugin broke its contract              */

/* A static, human-readable description of a status code. */
const char *fl_strerror(int status);

/* ---- Byte strings, targets and queries ------------------------------- */

typedef struct fl_slice { const uint8_t *data; size_t len; } fl_slice;

typedef enum fl_target_kind { FL_TARGET_POINT = 1, FL_TARGET_PREFIX = 2 } fl_target_kind;

/* POINT: bytes is a complete key (a stored key at build time, or the key of a
 * get).  PREFIX: bytes is the prefix of a scan_prefix. */
typedef struct fl_target { fl_target_kind kind; fl_slice bytes; } fl_target;

#define FL_FILTER_CONTEXT_BYTES 64
/* Opaque bytes a read may pass to custom filters.  Built-in filters ignore
 * it.  A filter that cannot decode a context must answer true. */
typedef struct fl_filter_context { uint8_t bytes[FL_FILTER_CONTEXT_BYTES]; } fl_filter_context;

typedef struct fl_filter_query {
    fl_target target;
    const fl_filter_context *context;   /* NULL when the read passed none */
} fl_filter_query;

typedef enum fl_entry_kind { FL_ENTRY_PUT = 1, FL_ENTRY_DELETE = 2 } fl_entry_kind;

/* One entry of an SST, in SST order: keys ascending, and for equal keys the
 * newest (highest seq) first.  DELETE is a point tombstone (value empty); a
 * filter must not rule out a key whose only entry is a tombstone, because
 * the tombstone is what a get has to find. */
typedef struct fl_row_entry {
    fl_slice key; fl_slice value; uint64_t seq; fl_entry_kind kind;
} fl_row_entry;

/* An engine-owned growable buffer that encode() appends to.  Returns FL_OK
 * or FL_ERR_NOMEM. */
typedef struct fl_buf fl_buf;
int fl_buf_append(fl_buf *buf, const void *bytes, size_t len);

typedef struct fl_filter fl_filter;
typedef struct fl_filter_builder fl_filter_builder;
typedef struct fl_filter_policy fl_filter_policy;
typedef struct fl_prefix_extractor fl_prefix_extractor;

/* ---- Filter ------------------------------------------------------------
 *
 * might_match: must return true if any entry the filter was built from
 *   matches the query (POINT: an entry with exactly that key, put or
 *   tombstone; PREFIX: an entry whose key starts with the prefix).  May return
 *   either otherwise.  A filter that cannot answer this kind of query, or
 *   cannot decode the context, returns true.  Must be a pure function of the
 *   filter and the query.
 * encode: appends the filter's serialized bytes to out.  policy->decode() of
 *   exactly those bytes must give a filter that answers every query the same.
 * size: bytes of the filter's data (for a bloom, its bit array).
 * destroy: frees the filter.
 */
typedef struct fl_filter_ops {
    bool   (*might_match)(const fl_filter *self, const fl_filter_query *query);
    int    (*encode)(const fl_filter *self, fl_buf *out);
    size_t (*size)(const fl_filter *self);
    void   (*destroy)(fl_filter *self);
} fl_filter_ops;
struct fl_filter { const fl_filter_ops *ops; };       /* embed as the first member */

/* ---- Filter builder ------------------------------------------------------
 *
 * Call order: add_entry* build destroy -- or add_entry* destroy when the SST
 * is abandoned.  add_entry receives every entry of one SST (puts and point
 * tombstones) in SST order; a builder serves exactly one SST.  build is
 * called at most once and hands a new filter to the caller in *out.
 */
typedef struct fl_filter_builder_ops {
    void (*add_entry)(fl_filter_builder *self, const fl_row_entry *entry);
    int  (*build)(fl_filter_builder *self, fl_filter **out);
    void (*destroy)(fl_filter_builder *self);
} fl_filter_builder_ops;
struct fl_filter_builder { const fl_filter_builder_ops *ops; };

/* ---- Filter policy -------------------------------------------------------
 *
 * name: identifies the encoding AND everything that changes what is stored
 *   (for the built-in bloom, its prefix extractor and whole-key setting, not
 *   its bits per key).  It is stored beside each filter in the SST; a reader
 *   only hands bytes to a policy whose name is exactly equal.  Two policies
 *   that would answer differently for the same bytes must have different
 *   names.  Must not return NULL; the string must live as long as the policy.
 * new_builder: a fresh builder, one per SST.
 * decode: builds a filter from bytes a same-named policy encoded.  Must
 *   check every length before reading; returns FL_ERR_CORRUPT on malformed
 *   bytes (the engine then reads the SST unfiltered).
 * estimate_size: a hint of the encoded size for num_keys keys.
 */
typedef struct fl_filter_policy_ops {
    const char *(*name)(const fl_filter_policy *self);
    int    (*new_builder)(const fl_filter_policy *self, fl_filter_builder **out);
    int    (*decode)(const fl_filter_policy *self, fl_slice data, fl_filter **out);
    size_t (*estimate_size)(const fl_filter_policy *self, size_t num_keys);
    void   (*destroy)(fl_filter_policy *self);
} fl_filter_policy_ops;
struct fl_filter_policy { int abi_version; const fl_filter_policy_ops *ops; };

/* ---- Prefix extractor ----------------------------------------------------
 *
 * prefix_len returns true and sets *len = n when the extracted prefix of
 * target is target->bytes[0..n), false when it has none.  Always n <= len.
 *   POINT(k): the prefix hashed for the stored key k, or probed for a get of
 *     k.  Must depend only on k.
 *   PREFIX(p): may return n only if probing with p[0..n) is safe for EVERY
 *     extension q of p, i.e. prefix_len(POINT q) = n for all such q.  When
 *     that cannot be guaranteed (a last-delimiter extractor), return false.
 * name: identifies the configuration ("fixed3"); it is part of the bloom
 *   policy's name, so it must change whenever what is extracted changes.
 */
typedef struct fl_prefix_extractor_ops {
    const char *(*name)(const fl_prefix_extractor *self);
    bool (*prefix_len)(const fl_prefix_extractor *self, const fl_target *target, size_t *len);
    void (*destroy)(fl_prefix_extractor *self);
} fl_prefix_extractor_ops;
struct fl_prefix_extractor { int abi_version; const fl_prefix_extractor_ops *ops; };

/* ---- Registry ------------------------------------------------------------
 *
 * Specs such as "bloom(bits=10,prefix=fixed:3)" are resolved through a
 * registry of kinds.  A policy spec is KIND or KIND(ARG=VALUE,...); the
 * factory receives the text between the parentheses (or "" when there are
 * none) with \xNN escapes still in place.  An extractor spec is KIND or
 * KIND:ARGS; the factory receives ARGS (or "").  A factory returns FL_OK and
 * a new object in *out, or an FL_ERR_* with a message in err.
 *
 * Plugin kinds share one namespace with the built-ins (bloom, fixed, capped,
 * delim, lastdelim); registering a taken kind fails with FL_ERR_EXISTS.
 * Kinds are 1-31 bytes of [A-Za-z0-9_-].
 */
typedef struct fl_registry fl_registry;
typedef int (*fl_policy_factory)(const fl_registry *reg, const char *args,
                                 fl_filter_policy **out, char *err, size_t err_len);
typedef int (*fl_extractor_factory)(const fl_registry *reg, const char *args,
                                    fl_prefix_extractor **out, char *err, size_t err_len);
int fl_registry_add_policy(fl_registry *reg, const char *kind, fl_policy_factory factory);
int fl_registry_add_extractor(fl_registry *reg, const char *kind, fl_extractor_factory factory);
int fl_registry_make_policy(const fl_registry *reg, const char *spec,
                            fl_filter_policy **out, char *err, size_t err_len);
int fl_registry_make_extractor(const fl_registry *reg, const char *spec,
                               fl_prefix_extractor **out, char *err, size_t err_len);

/* A plugin is a shared object that exports this function; `--plugin FILE`
 * calls it once, and it registers its kinds.  Return FL_OK or an error. */
int fl_plugin_init(fl_registry *reg);

#ifdef __cplusplus
}
#endif
#endif /* FL_FILTER_H */
