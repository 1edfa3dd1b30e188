/*
 * filter_internal.h -- the engine's side of the filter subsystem: buffers,
 * the registry's lifecycle, policy lists, the built-in bloom's extras, and the
 * wrappers through which the engine calls every policy, builder, filter and
 * extractor (SQLite's sqlite3OsRead pattern: one place to count, check and
 * trace every plugin call).
 *
 * Not part of the plugin ABI: plugins see only filter.h.
 */
#ifndef FL_FILTER_INTERNAL_H
#define FL_FILTER_INTERNAL_H

#include "engine.h"

/* ---- fl_buf writers (struct fl_buf is in engine.h) ---------------------- */

int  fl_buf_put_u8(fl_buf *buf, uint8_t v);
int  fl_buf_put_be16(fl_buf *buf, uint16_t v);
int  fl_buf_put_be32(fl_buf *buf, uint32_t v);
int  fl_buf_put_be64(fl_buf *buf, uint64_t v);
int  fl_buf_put_varint(fl_buf *buf, uint64_t v); /* LEB128, 7 bits a byte  */

/* ---- Byte helpers (bounds are the caller's) ----------------------------- */

static inline uint16_t fl_get_be16(const uint8_t *p) { return (uint16_t)((p[0] << 8) | p[1]); }
static inline uint32_t fl_get_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static inline uint64_t fl_get_be64(const uint8_t *p) {
    return ((uint64_t)fl_get_be32(p) << 32) | fl_get_be32(p + 4);
}
/* Decodes a LEB128 varint from [*p, end); advances *p.  FL_ERR_CORRUPT on
 * truncation or more than 10 bytes. */
int fl_get_varint(const uint8_t **p, const uint8_t *end, uint64_t *v);

/* Decodes \xNN escapes (and nothing else) of a spec argument into out.
 * Returns the decoded length, or -1 on a bad escape or overflow. */
int fl_spec_unescape(const char *in, size_t in_len, char *out, size_t out_cap);

/* ---- Policy lists (SPEC section 10) ------------------------------------ */

typedef struct fl_policy_list {
    fl_filter_policy **items;
    size_t count;
} fl_policy_list;

/* "none", or specs separated by ';' (at parenthesis depth 0) with optional
 * blanks.  "" (or only blanks) is an error: write "none" for no filters.
 * On error, nothing is allocated and err says which spec and why.
 * An empty spec and two policies with the same name are errors. */
int  fl_policy_list_parse(const fl_registry *reg, const char *spec, fl_policy_list *out,
                          char *err, size_t err_len);
void fl_policy_list_free(fl_policy_list *list);

/* ---- Built-in bloom extras (SPEC section 5) ---------------------------- */

/* k for a given bits per key in millibits (the table of section 5). */
unsigned fl_bloom_probes_for_millibits(uint64_t millibits);

/* The cache-local formula of SPEC 5 for m hashes in `lines` lines with k
 * probes; 1.0 when lines == 0.  The theory curve, for sizing and reports:
 * a built filter's own rate is fl_bloom_filter_expected_fp. */
double fl_bloom_expected_fp(uint64_t m, uint64_t lines, unsigned k);

bool fl_policy_is_builtin_bloom(const fl_filter_policy *policy);
/* Bits per key in millibits of a built-in bloom policy. */
uint64_t fl_bloom_policy_millibits(const fl_filter_policy *policy);

/* A builder of a whole-key, no-extractor bloom (the Legacy writer). */
int fl_bloom_legacy_builder(uint64_t millibits, fl_filter_builder **out);
/* Decodes Legacy filter bytes as a whole-key bloom with no extractor. */
int fl_bloom_legacy_decode(fl_slice data, fl_filter **out);

/* For a built-in bloom filter: lines, k and m (hashes added; exact for a
 * built filter, estimated from bit occupancy for a decoded one).  Returns
 * false for any other filter. */
bool fl_bloom_filter_stats(const fl_filter *filter, uint64_t *m, uint64_t *lines, unsigned *k);

/* For a built-in bloom filter: the expected FP rate exact given its bits,
 * the mean over its lines of (bits set / 512)^k (SPEC 5; 1.0 without
 * lines), computed once when the filter was built or decoded.  Returns
 * false (and leaves *rate) for any other filter. */
bool fl_bloom_filter_expected_fp(const fl_filter *filter, double *rate);

/* For a built-in bloom filter: true when the query is answered by probing
 * the bit array, false when it answers true because it cannot tell
 * (no extractor, extractor says none, lines == 0). */
bool fl_bloom_filter_probes(const fl_filter *filter, const fl_filter_query *query);

/* ---- Wrappers: the only way the engine calls a plugin ------------------- */

/* Counts of calls and contract violations, for metrics and tests. */
typedef struct fl_call_stats {
    uint64_t might_match, encode, decode, build, add_entry, prefix_len;
    uint64_t contract_violations;
} fl_call_stats;

/* Receives every contract violation: who (policy/extractor name or
 * "<unnamed plugin>") and what.  NULL: print to stderr.  Process-wide. */
typedef void (*fl_violation_fn)(void *arg, const char *who, const char *what);
void fl_set_violation_handler(fl_violation_fn fn, void *arg);
fl_call_stats fl_call_stats_get(void);           /* process-wide counters  */

/* Remembers who made obj (its kind, and the plugin file when plugin is not
 * NULL) so that reports about an object whose name() fails still name the
 * plugin; fl_call_forget when the object is destroyed.  The registry notes
 * every object it makes. */
void fl_call_note_origin(const void *obj, const char *kind, const char *plugin);
void fl_call_forget(const void *obj);

/* Never NULL: the name, or "<policy with NULL name>" (a NULL name is
 * reported once per object). */
const char *fl_call_policy_name(const fl_filter_policy *policy);
const char *fl_call_extractor_name(const fl_prefix_extractor *ex);

int  fl_call_new_builder(const fl_filter_policy *policy, fl_filter_builder **out);
void fl_call_add_entry(const fl_filter_policy *policy, fl_filter_builder *b,
                       const fl_row_entry *entry);
/* FL_OK and a filter, or an error (a violation is reported; *out is NULL). */
int  fl_call_build(const fl_filter_policy *policy, fl_filter_builder *b, fl_filter **out);
void fl_call_builder_destroy(const fl_filter_policy *policy, fl_filter_builder *b);
int  fl_call_decode(const fl_filter_policy *policy, fl_slice data, fl_filter **out);
/* true on any doubt; a NULL filter means "no filter" and answers true. */
bool fl_call_might_match(const fl_filter_policy *policy, const fl_filter *filter,
                         const fl_filter_query *query);
int  fl_call_encode(const fl_filter_policy *policy, const fl_filter *filter, fl_buf *out);
size_t fl_call_size(const fl_filter_policy *policy, const fl_filter *filter);
void fl_call_filter_destroy(const fl_filter_policy *policy, fl_filter *filter);
/* prefix_len with the n <= len check: a violation answers false (none). */
bool fl_call_prefix_len(const fl_prefix_extractor *ex, const fl_target *target, size_t *len);

#endif /* FL_FILTER_INTERNAL_H */
