/*
 * keyrange_policy.c -- a complete custom FILTER POLICY for filterlab, written
 * as a worked example.  Read it top to bottom: every section says what the
 * engine expects of it and why.
 *
 * What it does.  Kind "keyrange", spec "keyrange" (no arguments), policy
 * name "keyrange".  For each SST, its filter remembers the smallest and the
 * largest key among the entries the SST holds (puts and point tombstones
 * alike).  Then:
 *
 *   POINT k   (a get)          false when k < min or k > max, else true;
 *   PREFIX p  (a scan_prefix)  false when no key in [min, max] can start
 *                              with p, else true;
 *   anything it does not understand, or an SST with no entry: true.
 *
 * Beside a bloom (policies="bloom(bits=10);keyrange") the engine ANDs the
 * answers: an SST is skipped as soon as one usable filter says false.
 *
 * The one rule that matters: NO FALSE NEGATIVES.  might_match may say true
 * for a key the SST does not hold (a false positive only costs a read), but
 * it must never say false for a key it does hold -- that key would silently
 * disappear from reads.  Every "false" below comes with the argument that
 * no entry of the SST can match.
 *
 * Build and run (from the filterlab source tree):
 *
 *     cc -shared -fPIC -I engine examples/plugins/keyrange_policy.c -o keyrange.so
 *     build/filterlab replay my.wl --plugin ./keyrange.so
 *
 * It includes only filter.h and the C library, and links against nothing:
 * fl_buf_append and fl_registry_add_policy resolve against the filterlab
 * binary when the plugin is loaded.
 */
#include "filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ==== 1. The name =========================================================
 *
 * name() is stored next to each filter in the SST, and a reader only ever
 * hands the bytes to a policy whose name is EXACTLY equal.  So the name
 * must change whenever the bytes, or the way they are interpreted, change.
 * This policy takes no arguments, so one name covers everything.  If you
 * add an argument that changes what is stored or how it is answered (say,
 * "keep only the first 8 bytes of each bound"), put it in the name too:
 * "keyrange8" -- otherwise an old SST would be read with the wrong rules.
 * The version byte of the encoding (section 3) guards the layout itself.
 */
#define KEYRANGE_KIND    "keyrange"
#define KEYRANGE_NAME    "keyrange"
#define KEYRANGE_VERSION 1

/* ==== 2. Our structs: the engine's base struct comes FIRST ================
 *
 * The engine holds pointers to fl_filter, fl_filter_builder and
 * fl_filter_policy.  Because each of our structs starts with that base, a
 * pointer to the base is also a pointer to our struct, and the methods
 * cast it back.  (This is how sqlite3_file is embedded in SQLite's VFSes.)
 */

/* The two bounds, owned copies.  has_keys is false until the first entry. */
typedef struct keyrange_bounds {
    bool     has_keys;
    uint8_t *min, *max;
    size_t   min_len, max_len;
} keyrange_bounds;

typedef struct keyrange_filter {
    fl_filter       base;          /* Base class. Must be first */
    keyrange_bounds bounds;
} keyrange_filter;

typedef struct keyrange_builder {
    fl_filter_builder base;        /* Base class. Must be first */
    keyrange_bounds   bounds;
    bool              out_of_memory;   /* add_entry cannot return an error */
} keyrange_builder;

typedef struct keyrange_policy {
    fl_filter_policy base;         /* Base class. Must be first */
} keyrange_policy;

/* ==== Byte strings ==========================================================
 *
 * Keys are compared the way the engine orders them (SPEC 2.1): bytewise,
 * memcmp on the common length, and when one is a prefix of the other the
 * shorter one comes first.  Keys may contain NUL bytes and may be empty, so
 * never use strcmp or strlen on them.
 */
static int compare_bytes(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len) {
    size_t n = a_len < b_len ? a_len : b_len;
    int c = n ? memcmp(a, b, n) : 0;             /* memcmp(NULL, .., 0) is UB */
    if (c != 0) return c;
    return (a_len > b_len) - (a_len < b_len);
}

static bool starts_with(const uint8_t *key, size_t key_len, const uint8_t *p, size_t p_len) {
    return key_len >= p_len && (p_len == 0 || memcmp(key, p, p_len) == 0);
}

/* Replaces *dst with a copy of src.  False (and *dst unchanged) when out of
 * memory.  malloc(0) may return NULL, so an empty key gets one byte. */
static bool copy_bytes(uint8_t **dst, size_t *dst_len, const uint8_t *src, size_t len) {
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy) return false;
    if (len) memcpy(copy, src, len);
    free(*dst);
    *dst = copy;
    *dst_len = len;
    return true;
}

static void bounds_free(keyrange_bounds *b) {
    free(b->min);
    free(b->max);
    memset(b, 0, sizeof *b);
}

/* ==== 3. The filter: answering queries ======================================
 *
 * The PREFIX rule, carefully.  The keys that start with p are exactly one
 * interval of the key order:
 *
 *     [p, succ(p))    where succ(p) drops p's trailing 0xff bytes and adds
 *                     one to the last byte that is left ("ab" -> "ac",
 *                     "a\xff" -> "b");
 *     [p, end)        when p is empty or all 0xff: no succ(p) exists, and
 *                     every key >= p starts with p.
 *
 * The SST's keys all lie in [min, max].  Some key starting with p can lie
 * in [min, max] exactly when the two intervals meet, i.e. when
 *
 *     p <= max    and    min < succ(p)   (always true when there is no succ).
 *
 * We never need to build succ(p): among the keys >= p, those below succ(p)
 * are exactly those that start with p.  So, given min >= p,
 *
 *     min >= succ(p)    <=>    min does not start with p,
 *
 * and for an empty or all-0xff p the right side can never hold (every key
 * >= p starts with p), which is the "no succ" case for free.  The rule
 * becomes:
 *
 *     false  when max < p                      (every key is below p's keys)
 *     false  when min > p and !starts_with(min, p)   (every key is past them)
 *     true   otherwise.
 *
 * Examples with [min, max] = ["b", "d"]: p = "a" -> false (max >= "a" but
 * min "b" > "a" and does not start with "a"); p = "c" -> true; p = "b\xff"
 * -> true ("b\xff" <= "d", min "b" < "b\xff"); p = "e" -> false (max < "e");
 * p = "" -> true; p = "\xff" -> false (max < "\xff").
 */
static bool keyrange_might_match(const fl_filter *self, const fl_filter_query *query) {
    const keyrange_bounds *b = &((const keyrange_filter *)self)->bounds;
    const fl_slice *t = &query->target.bytes;

    /* Fail safe: an SST built from no entries, or a query kind we do not
     * know (a newer engine may add some), cannot be ruled out. */
    if (!b->has_keys) return true;

    /* query->context (opaque bytes a read may pass) is not used: this
     * filter's answer is right for every context. */
    switch (query->target.kind) {
    case FL_TARGET_POINT:
        /* The SST holds an entry for k only if min <= k <= max. */
        return compare_bytes(t->data, t->len, b->min, b->min_len) >= 0 &&
               compare_bytes(t->data, t->len, b->max, b->max_len) <= 0;
    case FL_TARGET_PREFIX:
        if (compare_bytes(b->max, b->max_len, t->data, t->len) < 0) return false;
        if (compare_bytes(b->min, b->min_len, t->data, t->len) > 0 &&
            !starts_with(b->min, b->min_len, t->data, t->len))
            return false;
        return true;
    }
    return true;
}

/* Encoding (big-endian integers, explicit lengths, nothing after):
 *
 *     [version u8 = 1] [has_keys u8: 0 or 1]
 *     and when has_keys = 1:
 *     [min_len u32] [min bytes] [max_len u32] [max bytes]
 *
 * Explicit lengths, not NUL terminators: keys may contain NULs. */
static int put_u32(fl_buf *out, size_t v) {
    uint8_t be[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };
    return fl_buf_append(out, be, sizeof be);
}

static int keyrange_encode(const fl_filter *self, fl_buf *out) {
    const keyrange_bounds *b = &((const keyrange_filter *)self)->bounds;
    uint8_t header[2] = { KEYRANGE_VERSION, b->has_keys ? 1 : 0 };
    int rc = fl_buf_append(out, header, sizeof header);
    if (rc != FL_OK || !b->has_keys) return rc;
    if ((rc = put_u32(out, b->min_len)) != FL_OK) return rc;
    if ((rc = fl_buf_append(out, b->min, b->min_len)) != FL_OK) return rc;
    if ((rc = put_u32(out, b->max_len)) != FL_OK) return rc;
    return fl_buf_append(out, b->max, b->max_len);
}

/* The size of the filter's data: here, what encode() writes. */
static size_t keyrange_size(const fl_filter *self) {
    const keyrange_bounds *b = &((const keyrange_filter *)self)->bounds;
    return b->has_keys ? 2 + 4 + b->min_len + 4 + b->max_len : 2;
}

static void keyrange_filter_destroy(fl_filter *self) {
    keyrange_filter *f = (keyrange_filter *)self;
    bounds_free(&f->bounds);
    free(f);
}

static const fl_filter_ops keyrange_filter_ops = {
    keyrange_might_match, keyrange_encode, keyrange_size, keyrange_filter_destroy,
};

/* ==== 4. The builder: one per SST ===========================================
 *
 * Call order: add_entry* build destroy (or add_entry* destroy when the SST
 * is abandoned).  add_entry sees EVERY entry of the SST: puts and point
 * tombstones.  Tombstones matter: a get must find the tombstone to know
 * the key is deleted, so a filter that ruled it out would let an older,
 * deleted value come back.  Entries arrive in key order, so the first key
 * is the minimum and the last the maximum; we compare anyway, which costs
 * little and does not depend on that.
 *
 * add_entry cannot return an error, so an allocation failure is remembered
 * and reported by build (the engine then reads the SST unfiltered).
 */
static void keyrange_add_entry(fl_filter_builder *self, const fl_row_entry *entry) {
    keyrange_builder *bl = (keyrange_builder *)self;
    keyrange_bounds *b = &bl->bounds;
    const fl_slice *k = &entry->key;          /* borrowed: copy what we keep */
    bool ok = true;
    if (!b->has_keys || compare_bytes(k->data, k->len, b->min, b->min_len) < 0)
        ok = copy_bytes(&b->min, &b->min_len, k->data, k->len);
    if (ok && (!b->has_keys || compare_bytes(k->data, k->len, b->max, b->max_len) > 0))
        ok = copy_bytes(&b->max, &b->max_len, k->data, k->len);
    if (!ok) bl->out_of_memory = true;
    else b->has_keys = true;
}

static int keyrange_build(fl_filter_builder *self, fl_filter **out) {
    keyrange_builder *bl = (keyrange_builder *)self;
    *out = NULL;
    if (bl->out_of_memory) return FL_ERR_NOMEM;
    keyrange_filter *f = calloc(1, sizeof *f);
    if (!f) return FL_ERR_NOMEM;
    f->base.ops = &keyrange_filter_ops;
    f->bounds = bl->bounds;                    /* hand the bounds over ... */
    memset(&bl->bounds, 0, sizeof bl->bounds); /* ... so destroy won't free them */
    *out = &f->base;                           /* the caller owns the filter */
    return FL_OK;
}

static void keyrange_builder_destroy(fl_filter_builder *self) {
    keyrange_builder *bl = (keyrange_builder *)self;
    bounds_free(&bl->bounds);
    free(bl);
}

static const fl_filter_builder_ops keyrange_builder_ops = {
    keyrange_add_entry, keyrange_build, keyrange_builder_destroy,
};

/* ==== 5. The policy: name, builders, decoding ================================ */

static const char *keyrange_name(const fl_filter_policy *self) {
    (void)self;
    return KEYRANGE_NAME;                      /* never NULL, lives forever */
}

static int keyrange_new_builder(const fl_filter_policy *self, fl_filter_builder **out) {
    (void)self;
    keyrange_builder *bl = calloc(1, sizeof *bl);
    if (!bl) return FL_ERR_NOMEM;
    bl->base.ops = &keyrange_builder_ops;
    *out = &bl->base;
    return FL_OK;
}

/* Reads [len u32][len bytes] at *p, checking each length against end
 * BEFORE reading.  The lengths come from disk: a corrupt or hostile block
 * can say anything, e.g. 0xffffffff. */
static bool read_field(const uint8_t **p, const uint8_t *end, const uint8_t **bytes, size_t *len) {
    if (end - *p < 4) return false;                      /* room for the length? */
    size_t n = (size_t)(*p)[0] << 24 | (size_t)(*p)[1] << 16 | (size_t)(*p)[2] << 8 | (*p)[3];
    *p += 4;
    if ((size_t)(end - *p) < n) return false;            /* room for the bytes?  */
    *bytes = *p;
    *len = n;
    *p += n;
    return true;
}

/* decode: the exact inverse of encode, and strict.  Anything that encode
 * would not have written is FL_ERR_CORRUPT: a wrong version, a flag other
 * than 0/1, a length past the end, trailing bytes, min > max.  The engine
 * then reads the SST unfiltered -- never skips it.  The slice is borrowed
 * for this call only, so the bounds are copied. */
static int keyrange_decode(const fl_filter_policy *self, fl_slice data, fl_filter **out) {
    (void)self;
    *out = NULL;
    const uint8_t *p = data.data, *end = data.data + data.len;
    const uint8_t *min = NULL, *max = NULL;
    size_t min_len = 0, max_len = 0;

    if (data.len < 2 || p[0] != KEYRANGE_VERSION || p[1] > 1) return FL_ERR_CORRUPT;
    bool has_keys = p[1] == 1;
    p += 2;
    if (has_keys && (!read_field(&p, end, &min, &min_len) || !read_field(&p, end, &max, &max_len)))
        return FL_ERR_CORRUPT;
    if (p != end) return FL_ERR_CORRUPT;                 /* trailing bytes */
    if (has_keys && compare_bytes(min, min_len, max, max_len) > 0) return FL_ERR_CORRUPT;

    keyrange_filter *f = calloc(1, sizeof *f);
    if (!f) return FL_ERR_NOMEM;
    f->base.ops = &keyrange_filter_ops;
    if (has_keys && (!copy_bytes(&f->bounds.min, &f->bounds.min_len, min, min_len) ||
                     !copy_bytes(&f->bounds.max, &f->bounds.max_len, max, max_len))) {
        keyrange_filter_destroy(&f->base);
        return FL_ERR_NOMEM;
    }
    f->bounds.has_keys = has_keys;
    *out = &f->base;
    return FL_OK;
}

/* A hint of the encoded size: two keys whatever the count (a guess at
 * their length). */
static size_t keyrange_estimate_size(const fl_filter_policy *self, size_t num_keys) {
    (void)self;
    return num_keys ? 2 + 2 * (4 + 32) : 2;
}

static void keyrange_policy_destroy(fl_filter_policy *self) {
    free(self);
}

static const fl_filter_policy_ops keyrange_policy_ops = {
    keyrange_name, keyrange_new_builder, keyrange_decode, keyrange_estimate_size,
    keyrange_policy_destroy,
};

/* ==== 6. Registration =========================================================
 *
 * The factory turns the text between the parentheses of a spec into a
 * policy: "keyrange" and "keyrange()" give "", and it returns
 * FL_ERR_INVALID with a message for anything it does not accept.  Set
 * abi_version: the engine refuses objects built for a newer ABI than its
 * own, and objects that leave it unset.
 */
static int keyrange_factory(const fl_registry *reg, const char *args, fl_filter_policy **out,
                            char *err, size_t err_len) {
    (void)reg;
    *out = NULL;
    if (args && args[strspn(args, " \t")] != '\0') {     /* blanks are fine */
        if (err && err_len) snprintf(err, err_len, KEYRANGE_KIND " takes no arguments; got '%s'", args);
        return FL_ERR_INVALID;
    }
    keyrange_policy *p = calloc(1, sizeof *p);
    if (!p) return FL_ERR_NOMEM;
    p->base.abi_version = FL_FILTER_ABI_VERSION;
    p->base.ops = &keyrange_policy_ops;
    *out = &p->base;
    return FL_OK;
}

/* Called once by `--plugin keyrange.so`.  Registering a kind that is
 * already taken (a built-in or another plugin's) fails, and so does the
 * load. */
int fl_plugin_init(fl_registry *reg) {
    return fl_registry_add_policy(reg, KEYRANGE_KIND, keyrange_factory);
}
