/*
 * model.h -- the filterlab reference model (SPEC section 7).
 *
 * A deliberately simple second implementation, written from the SPEC text and
 * sharing no code with engine/, so that when the engine is wrong the model
 * disagrees.  It has three parts:
 *
 *   1. Logical state (fl_model_*): an ordered map key -> value with put,
 *      delete, delete_range, get, scan_prefix, scan and seek.  Obviously correct
 *      first, fast enough second: one sorted array, cut into chunks of at
 *      most 128 rows, searched by bisection (model_state.c).
 *   2. Reference prefix extractors (fl_model_extractor_*): fixed:N, capped:N,
 *      delim:C and lastdelim:C exactly as the SPEC section 4 table says.
 *   3. Reference bloom (fl_model_bloom_*): the built-in bloom of SPEC
 *      section 5, built and probed one bit at a time, plus the Legacy
 *      whole-key bloom of SPEC 2.6 and the expected false-positive formula.
 *
 * The model includes nothing of the engine: its byte strings, target kinds
 * and status codes are its own.  They are deliberately shaped like the
 * engine's (fl_model_bytes has the layout of fl_slice, the target kinds and
 * status codes have the same numeric values as FL_TARGET_* and FL_ERR_*) so
 * the checker converts between them trivially -- but nothing here relies on
 * that.
 *
 * Status codes: FL_MODEL_OK (0) or a negative FL_MODEL_ERR_*.  A function
 * that fails leaves the object it was given as it was before the call (the
 * logical state) or in a state that may only be freed (a bloom).
 *
 * Threads: no global state; one thread at a time per object.
 */
#ifndef FL_MODEL_H
#define FL_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Common types --------------------------------------------------------- */

#define FL_MODEL_OK            0
#define FL_MODEL_ERR_INVALID (-1)   /* bad argument or spec (== FL_ERR_INVALID) */
#define FL_MODEL_ERR_NOMEM   (-4)   /* allocation failed    (== FL_ERR_NOMEM)   */

#define FL_MODEL_MAX_KEY   65535u            /* SPEC 2.1: keys of 0..65535 bytes */
#define FL_MODEL_MAX_VALUE (1024u * 1024u)   /* SPEC 2.1: values of 0..1 MiB     */

/* A borrowed byte string.  data may be NULL only when len is 0. */
typedef struct fl_model_bytes { const uint8_t *data; size_t len; } fl_model_bytes;

/* The two kinds of filter question (SPEC 3): POINT is a complete key (stored
 * at build time, or the key of a get); PREFIX is the prefix of a scan_prefix. */
typedef enum fl_model_target_kind {
    FL_MODEL_POINT = 1,
    FL_MODEL_PREFIX = 2
} fl_model_target_kind;

/* Bytewise order of SPEC 2.1: memcmp on the common length, then the shorter
 * string first.  Returns <0, 0 or >0. */
int fl_model_compare(fl_model_bytes a, fl_model_bytes b);

/* ==== 1. Logical state ====================================================== */

typedef struct fl_model fl_model;

/* A new empty map in *out.  FL_MODEL_ERR_NOMEM leaves *out NULL. */
int  fl_model_new(fl_model **out);
void fl_model_free(fl_model *m);                 /* NULL is a no-op */

/* Sets key to value (copies both).  FL_MODEL_ERR_INVALID when the key is
 * longer than FL_MODEL_MAX_KEY or the value longer than FL_MODEL_MAX_VALUE;
 * then, as on NOMEM, the map is unchanged. */
int fl_model_put(fl_model *m, fl_model_bytes key, fl_model_bytes value);

/* Removes key if present (a point delete of an absent key is a no-op).
 * FL_MODEL_ERR_INVALID for an over-long key. */
int fl_model_delete(fl_model *m, fl_model_bytes key);

/* Removes every key k with start <= k < end; a no-op when end <= start.
 * FL_MODEL_ERR_INVALID for an over-long bound.  Never allocates. */
int fl_model_delete_range(fl_model *m, fl_model_bytes start, fl_model_bytes end);

/* true when key is live; then *value (if not NULL) borrows its value, valid
 * until the next put/delete/delete_range/free of m.  value->data is never
 * NULL, even for an empty value. */
bool fl_model_get(const fl_model *m, fl_model_bytes key, fl_model_bytes *value);

/* Number of live keys. */
size_t fl_model_count(const fl_model *m);

/* Iteration is by callback.  Keys arrive in bytewise order; the slices are
 * valid during the call only and their data is never NULL.  The callback must
 * not modify m.  Return nonzero from it to stop early; the scan then returns
 * that value (0 when it ran to the end). */
typedef int (*fl_model_visit_fn)(void *arg, fl_model_bytes key, fl_model_bytes value);

/* A cursor: the same visit pulled one row at a time, so that a caller can
 * walk the model beside another ordered stream (the engine's scan) without
 * copying either.  Valid while m does not change. */
typedef struct fl_model_cursor { const fl_model *m; size_t chunk, row; } fl_model_cursor;
/* At the first live key >= key (or the end). */
void fl_model_cursor_seek(const fl_model *m, fl_model_bytes key, fl_model_cursor *c);
/* false at the end; else the row's key and value (data never NULL). */
bool fl_model_cursor_get(const fl_model_cursor *c, fl_model_bytes *key, fl_model_bytes *value);
void fl_model_cursor_next(fl_model_cursor *c);      /* (not at the end) */

/* Every live key that starts with prefix (the empty prefix: every key). */
int fl_model_scan_prefix(const fl_model *m, fl_model_bytes prefix,
                         fl_model_visit_fn fn, void *arg);
/* Every live key k with start <= k < end (nothing when end <= start). */
int fl_model_scan(const fl_model *m, fl_model_bytes start, fl_model_bytes end,
                  fl_model_visit_fn fn, void *arg);
/* Every live key from key on: ascending from the first >= key or, with
 * backward, descending from the last <= key.  (A seek's n and prefix rule
 * are the caller's: it stops the visit.) */
int fl_model_seek(const fl_model *m, fl_model_bytes key, bool backward, fl_model_visit_fn fn,
                  void *arg);

/* ==== 2. Reference prefix extractors (SPEC 4) ================================ */

typedef enum fl_model_extractor_kind {
    FL_MODEL_FIXED = 1,      /* POINT: N if len >= N;  PREFIX: N if len >= N  */
    FL_MODEL_CAPPED = 2,     /* POINT: min(len, N);    PREFIX: N if len >= N  */
    FL_MODEL_DELIM = 3,      /* POINT and PREFIX: 1 + index of the first C    */
    FL_MODEL_LASTDELIM = 4   /* POINT: 1 + index of the last C; PREFIX: none  */
} fl_model_extractor_kind;

/* A plain value; no allocation, copy it freely.  n is used by FIXED and
 * CAPPED (1..65535), delim by DELIM and LASTDELIM. */
typedef struct fl_model_extractor {
    fl_model_extractor_kind kind;
    uint32_t n;
    uint8_t delim;
} fl_model_extractor;

/* Longest name or bloom name, with its NUL: "_bf:p=lastdelim\xNN:wh=0" fits. */
#define FL_MODEL_NAME_MAX 64

/* Parses an extractor spec KIND:ARGS: "fixed:N", "capped:N" with N decimal
 * digits of value 1..65535, "delim:C", "lastdelim:C" where C is exactly one
 * byte (any byte, even '\') or the four characters \xNN (hex, either case).
 * On error returns FL_MODEL_ERR_INVALID with a message in err (err may be
 * NULL when err_len is 0) and leaves *out unchanged. */
int fl_model_extractor_parse(const char *spec, fl_model_extractor *out,
                             char *err, size_t err_len);

/* The extractor's name (SPEC 4): "fixedN", "cappedN", "delimC", "lastdelimC",
 * where the byte C appears as itself when it is 0x21-0x7E other than '\',
 * and as \xNN (lowercase hex) otherwise.  out gets at most out_len bytes
 * with the NUL (FL_MODEL_NAME_MAX is always enough); returns out. */
char *fl_model_extractor_name(const fl_model_extractor *ex, char *out, size_t out_len);

/* The SPEC 4 table: true and *n when the extracted prefix of bytes is
 * bytes[0..*n); false when there is none.  Always *n <= bytes.len. */
bool fl_model_extractor_prefix_len(const fl_model_extractor *ex, fl_model_target_kind kind,
                                   fl_model_bytes bytes, size_t *n);

/* ==== 3. Reference bloom (SPEC 5) and Legacy bloom (SPEC 2.6) ================ */

/* What a built-in bloom policy is configured with. */
typedef struct fl_model_bloom_config {
    uint32_t millibits;          /* round(bits * 1000), 0..1000000             */
    bool whole_key;              /* hash whole keys                            */
    bool has_extractor;          /* hash extracted prefixes with `extractor`   */
    fl_model_extractor extractor;
} fl_model_bloom_config;

/* Parses bits per key, a decimal ">= 0 with optional fraction": digits,
 * '.' and digits, with at least one digit on either side ("10", "10.5",
 * ".5", "5.").  *millibits = round(bits * 1000), an exact half rounding up,
 * computed from the digits exactly (no floating point), so "2.0005" is 2001
 * and "2.00049999" is 2000.  Values above 1000 are FL_MODEL_ERR_INVALID,
 * judged by the digits before rounding ("1000.0001" is refused), as is
 * anything else that is not such a decimal (no blanks, no sign). */
int fl_model_parse_millibits(const char *bits, uint32_t *millibits);

/* Parses a built-in bloom spec: "bloom" or "bloom(ARG=VALUE,...)" with the
 * arguments, each at most once and in any order, bits= (see above, default
 * 10), whole_key= 0 or 1 (default 1) and prefix= an extractor spec (default
 * none) that fl_model_extractor_parse accepts.  The language is the
 * engine's: blanks (spaces, tabs) are allowed around the spec, around each
 * argument, around '=' and around values ("bloom( bits = 10 )"), not
 * between "bloom" and '('; the parentheses must balance, and arguments are
 * split at ',' outside parentheses; bits= and whole_key= values may use \xNN
 * escapes, while a prefix= value is passed on unchanged, so a delimiter
 * written \xNN reaches the extractor parser as \xNN; an argument name of 32
 * bytes or more, or a value of 512 or more, is refused.  On error
 * FL_MODEL_ERR_INVALID with a message in err; *out unchanged. */
int fl_model_bloom_parse(const char *spec, fl_model_bloom_config *out,
                         char *err, size_t err_len);

/* The policy name of SPEC 5: "_bf", then ":p=<extractor name>" when an
 * extractor is set, then ":wh=0" when whole-key filtering is off.  Same
 * buffer rules as fl_model_extractor_name. */
char *fl_model_bloom_name(const fl_model_bloom_config *cfg, char *out, size_t out_len);

/* Probes per hash for a millibits value (the SPEC 5 table); 1..24. */
unsigned fl_model_bloom_k(uint32_t millibits);

/* lines = ceil(m * millibits / 512000), in 64-bit integers. */
uint64_t fl_model_bloom_lines(uint64_t m, uint32_t millibits);

/* The cache-local expected FP rate of SPEC 5 for m hashes in `lines` lines
 * with k probes: x = m / lines, f(x) = (1 - exp(-k x / 512))^k, expected =
 * (f(x + sqrt(x)) + f(x - sqrt(x))) / 2, where x - sqrt(x) is taken as 0
 * when it is negative (x < 1: f(0) = 0).  1.0 when lines is 0 (such a
 * filter answers true to everything). */
double fl_model_bloom_expected_fp(uint64_t m, uint64_t lines, unsigned k);

/* A reference bloom, being built or built.  Every field is readable; only the
 * functions below write them.
 *   Call order: fl_model_bloom_begin  fl_model_bloom_add*  fl_model_bloom_finish
 *               (fl_model_bloom_might_match)*  fl_model_bloom_free
 *   or fl_model_bloom_build (all of the first three at once).
 * fl_model_bloom_free may be called at any point, also after an error, and
 * on a zeroed struct. */
typedef struct fl_model_bloom {
    fl_model_bloom_config config;
    /* after finish: */
    bool     built;
    uint64_t m;                  /* hashes added, after deduplication         */
    uint64_t lines;              /* 512-bit lines                             */
    unsigned k;                  /* probes per hash                           */
    uint8_t *encoded;            /* [1][k][lines u32 BE][lines * 64 bytes]    */
    size_t   encoded_len;        /* 6 + 64 * lines                            */
    /* private to the builder (freed by finish): */
    uint64_t *hashes; size_t hash_cap;
    uint8_t *prev_key; size_t prev_key_len, prev_key_cap; bool have_prev_key;
    uint8_t *prev_prefix; size_t prev_prefix_len, prev_prefix_cap; bool have_prev_prefix;
    uint64_t prev_key_hash;      /* hash(prev_key), when have_prev_key        */
} fl_model_bloom;

/* Starts an empty builder for cfg (copied).  Never fails. */
void fl_model_bloom_begin(fl_model_bloom *b, const fl_model_bloom_config *cfg);

/* Adds the next entry's key, in SST order (put or point tombstone alike).
 * With whole_key: hash(key), unless key equals the previous entry's key.
 * With an extractor giving POINT(key) = n: hash(key[0..n)), unless it equals
 * the last prefix added.  The key is borrowed for the call only.
 * FL_MODEL_ERR_NOMEM, or FL_MODEL_ERR_INVALID after finish. */
int fl_model_bloom_add(fl_model_bloom *b, fl_model_bytes key);

/* Sizes the filter (m, lines, k) and sets its bits, one probe at a time,
 * then writes `encoded`.  FL_MODEL_ERR_INVALID if lines does not fit the u32
 * of the encoding or finish was already called; FL_MODEL_ERR_NOMEM. */
int fl_model_bloom_finish(fl_model_bloom *b);

/* begin + add(keys[i]) for every i + finish.  keys may be NULL when n is 0. */
int fl_model_bloom_build(fl_model_bloom *b, const fl_model_bloom_config *cfg,
                         const fl_model_bytes *keys, size_t n);

/* The Legacy filter of SPEC 2.6: a whole-key-only bloom (no extractor) with
 * the given millibits.  Queried the way a Legacy block is read: POINT probes
 * the whole-key hash, PREFIX answers true. */
int fl_model_legacy_build(fl_model_bloom *b, uint32_t millibits,
                          const fl_model_bytes *keys, size_t n);

/* What a build hashed, handed back to a caller that needs the same hashes
 * (the checker's P9 item set and its index of an SST's keys) so that it
 * need not hash every key again.  Every hash is SPEC 5's: XXH3_64bits of
 * the bytes, seed 0. */
typedef struct fl_model_bloom_hashed {
    /* out: malloc'd, the caller frees it: the m hashes the filter set, in
     * the order added (each key's unless it repeats the previous key, each
     * extracted prefix's unless it repeats the last prefix added); NULL
     * when m is 0 or on error */
    uint64_t *hashes;
    /* in: NULL, or room for n hashes: with whole_key, key_hash[i] gets
     * hash(keys[i]) for every i (a repeated key its first copy's); left
     * untouched without whole_key */
    uint64_t *key_hash;
} fl_model_bloom_hashed;

/* fl_model_bloom_build and fl_model_legacy_build that also fill *out (out
 * may be NULL: then exactly the plain builds).  The filter is the same. */
int fl_model_bloom_build_hashed(fl_model_bloom *b, const fl_model_bloom_config *cfg,
                                const fl_model_bytes *keys, size_t n, fl_model_bloom_hashed *out);
int fl_model_legacy_build_hashed(fl_model_bloom *b, uint32_t millibits,
                                 const fl_model_bytes *keys, size_t n, fl_model_bloom_hashed *out);

/* The SPEC 5 query on a finished bloom: POINT with whole_key -> probe
 * hash(bytes); otherwise no extractor -> true, prefix_len(kind, bytes) none
 * -> true, else probe hash(bytes[0..n)).  lines == 0 -> true.  A probe is
 * true when all k bits are set.  An unfinished bloom answers true. */
bool fl_model_bloom_might_match(const fl_model_bloom *b, fl_model_target_kind kind,
                                fl_model_bytes bytes);

/* The SPEC 5 probe of a finished bloom for a hash h already computed: true
 * when all k bits of h's line are set (and when lines is 0, or the bloom is
 * unfinished).  What fl_model_bloom_might_match does after hashing. */
bool fl_model_bloom_probe_hash(const fl_model_bloom *b, uint64_t h);
/* fl_model_bloom_probe_hash of h[0..n), n <= 8, as a mask (bit i: h[i]);
 * the n probes interleaved, each still the spec's running product. */
unsigned fl_model_bloom_probe_hashes(const fl_model_bloom *b, const uint64_t *h, unsigned n);

/* The expected FP rate of a finished bloom, exact given its bits (SPEC 5):
 * the mean over its lines of (bits set in the line / 512)^k -- the chance
 * that an item the filter did not hash, whose hash picks a line uniformly
 * and k bits in it, finds all k set.  Unlike fl_model_bloom_expected_fp (a
 * formula in m and lines, for sizing before a filter exists), it sees how
 * unevenly the hashes fell on the lines.  1.0 when lines is 0 (such a
 * filter answers true to everything) and for an unfinished bloom.  Works
 * on a decoded bloom too (it reads only k, lines and `encoded`). */
double fl_model_bloom_expected_exact(const fl_model_bloom *b);

/* Frees everything and zeroes *b. */
void fl_model_bloom_free(fl_model_bloom *b);

/* A finished bloom read back from its encoding (SPEC 5), to be queried as a
 * filter configured with cfg (the READER's extractor and whole-key setting;
 * for a Legacy block: whole_key, no extractor).  m is unknown and left 0.
 * FL_MODEL_ERR_INVALID for a malformed encoding (then *b may only be freed). */
int fl_model_bloom_decode(fl_model_bloom *b, const fl_model_bloom_config *cfg,
                          const uint8_t *bytes, size_t len);

#endif /* FL_MODEL_H */
