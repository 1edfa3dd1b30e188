/*
 * proc_host.h -- filterlab's plugin host inside an adapter program (docs/protocol.md,
 * "Engines in any language"): the C side of `--plugin` with an engine whose
 * adapter is not C.  An adapter links libfilterlab_host.a (engine/ and
 * proc_host.c, built by make) and wraps what this header gives as its
 * engine's filter policy, builder, filter and prefix extractor: the SlateDB
 * adapter (Rust, adapters/slatedb/src/plugin.rs) and the Pebble adapter
 * (Go with cgo, adapters/pebble/cmd/filterlab-pebble/plugin.go).  Every
 * call goes through filterlab's own call wrappers (engine.h, fl_call_*):
 * the same counting, contract checks and fail-safe answers as in
 * filterlab's engine; nothing here re-implements them.
 *
 * Plain C types only, so that the adapter's language declares them without
 * mirroring filterlab's structs.  One host per process; it is not
 * thread-safe: the caller holds one lock around every call (a call may run
 * plugin code).
 *
 * Contract violations go to the host's queue; flh_take_violations hands
 * them out as protocol lines (docs/protocol.md:
 * `violation OBJECT METHOD PLUGIN WHO WHAT`), which the adapter writes
 * before its next reply and filterlab's client reports into the run's call
 * context -- so a broken plugin inside the engine is the same finding as in
 * filterlab's engine.
 */
#ifndef FL_PROC_HOST_H
#define FL_PROC_HOST_H

#include <stddef.h>
#include <stdint.h>

typedef struct flh_host flh_host;
typedef struct flh_policy flh_policy;
typedef struct flh_builder flh_builder;
typedef struct flh_filter flh_filter;
typedef struct flh_extractor flh_extractor;

/* Return codes: 0 is success; negative is filterlab's FL_ERR_* (engine/filter.h),
 * with err (NUL-terminated, at most err_len bytes) saying why. */

/* A host: a registry with filterlab's built-in kinds and a call context
 * whose violations are queued. */
int  flh_host_new(flh_host **out);
void flh_host_free(flh_host *h);
/* dlopen()s a plugin and registers its kinds (fl_registry_load_plugin). */
int  flh_load_plugin(flh_host *h, const char *path, char *err, size_t err_len);

/* 1 when spec's kind (what precedes '(') is a policy kind a plugin
 * registered, 0 otherwise (the built-in bloom, or no such kind). */
int  flh_is_plugin_policy(const flh_host *h, const char *spec);
/* 1 when spec's kind is an extractor kind a plugin registered. */
int  flh_is_plugin_extractor(const flh_host *h, const char *spec);

/* ---- Policies, builders, filters -------------------------------------------- */

int  flh_policy_new(flh_host *h, const char *spec, flh_policy **out, char *err, size_t err_len);
void flh_policy_free(flh_host *h, flh_policy *p);
/* The policy's name (fl_call_policy_name: never NULL), valid while p lives. */
const char *flh_policy_name(flh_host *h, const flh_policy *p);
size_t flh_policy_estimate_size(flh_host *h, const flh_policy *p, size_t num_keys);

/* A new builder; on an error the wrapper reported it, and *out is NULL:
 * the caller's filter then answers maybe to everything. */
int  flh_builder_new(flh_host *h, const flh_policy *p, flh_builder **out);
/* One SST entry: tombstone 1 for a delete (value ignored), 0 for a put. */
void flh_builder_add(flh_host *h, const flh_policy *p, flh_builder *b, const uint8_t *key, size_t key_len,
                     int tombstone, const uint8_t *value, size_t value_len);
/* Builds the filter (*out NULL on an error the wrapper reported); the
 * builder stays the caller's to free. */
int  flh_builder_build(flh_host *h, const flh_policy *p, flh_builder *b, flh_filter **out);
void flh_builder_free(flh_host *h, const flh_policy *p, flh_builder *b);

/* Decodes stored bytes (*out NULL on an error the wrapper reported). */
int  flh_filter_decode(flh_host *h, const flh_policy *p, const uint8_t *data, size_t len, flh_filter **out);
/* kind 1 POINT, 2 PREFIX (fl_target_kind); has_ctx 0: no filter context.
 * 1 maybe, 0 no; a NULL filter answers 1. */
int  flh_filter_might_match(flh_host *h, const flh_policy *p, const flh_filter *f, int kind, const uint8_t *bytes,
                            size_t len, int has_ctx, const uint8_t *ctx, size_t ctx_len);
/* The filter's encoding in *out (malloc'd, free with flh_free; *len its
 * length).  A NULL filter encodes to nothing. */
int  flh_filter_encode(flh_host *h, const flh_policy *p, const flh_filter *f, uint8_t **out, size_t *len);
size_t flh_filter_size(flh_host *h, const flh_policy *p, const flh_filter *f);
void flh_filter_free(flh_host *h, const flh_policy *p, flh_filter *f);

/* ---- Extractors ----------------------------------------------------------------- */

int  flh_extractor_new(flh_host *h, const char *spec, flh_extractor **out, char *err, size_t err_len);
void flh_extractor_free(flh_host *h, flh_extractor *x);
const char *flh_extractor_name(flh_host *h, const flh_extractor *x);
/* kind 1 POINT, 2 PREFIX.  1 and *n (<= len) when the target has a prefix;
 * 0 when it has none. */
int  flh_extractor_prefix_len(flh_host *h, const flh_extractor *x, int kind, const uint8_t *bytes, size_t len,
                              size_t *n);

/* ---- Violations ----------------------------------------------------------------- */

/* The violations queued since the last call, as protocol lines each ending
 * in '\n', NUL-terminated and malloc'd (free with flh_free); NULL when
 * there are none. */
char *flh_take_violations(flh_host *h);
void  flh_free(void *p);

#endif /* FL_PROC_HOST_H */
