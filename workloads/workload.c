/*
 * workload.c -- the workload as data: op keywords, option keys, freeing and
 * appending (fl_workload_add).  The text side is in parse.c and print.c.
 *
 * Invariant kept here and in parse.c: every op of a workload holds valid
 * byte strings a and b (data never NULL, at least 1 byte allocated when
 * empty or unused), a zero-padded ctx, and only the options, context and
 * `full` its kind allows -- so print() of any workload built by parse() or
 * add() gives text that parse() accepts and that prints back identically.
 *
 * Where the bytes live: parse() gives every op its own allocations.  add()
 * (the generators, the shrinker's copies: thousands of ops a trial) copies
 * a and b into the workload's arena instead -- blocks that never move,
 * bump-allocated, freed together by fl_workload_free -- and marks the op
 * in_arena, so that neither fl_wl_op_clear nor fl_workload_free frees them
 * one by one.  Options stay per op (rare: open, reopen, set_options).
 */
#include "workload_internal.h"

#include <stdlib.h>
#include <string.h>

const char *const fl_wl_option_keys[] = {
    "policies", "compactor", "min_filter_keys", "memtable_bytes", "sst_bytes",
    "block_bytes", "l0_trigger", "max_runs", "legacy_filters", NULL
};

static const char *const op_names[] = {
    [FL_OP_OPEN] = "open",         [FL_OP_PUT] = "put",
    [FL_OP_DEL] = "del",           [FL_OP_DELRANGE] = "delrange",
    [FL_OP_GET] = "get",           [FL_OP_SCAN_PREFIX] = "scan_prefix",
    [FL_OP_SCAN] = "scan",         [FL_OP_FLUSH] = "flush",
    [FL_OP_COMPACT] = "compact",   [FL_OP_REOPEN] = "reopen",
    [FL_OP_SEEK] = "seek",         [FL_OP_SEEK_FOR_PREV] = "seek_for_prev",
    [FL_OP_SET_OPTIONS] = "set_options", [FL_OP_CRASH] = "crash",
    [FL_OP_MULTIGET] = "multiget",
};

const char *fl_op_name(fl_op_kind kind) {
    if ((int)kind < FL_OP_OPEN || (int)kind > FL_OP_LAST) return "?";
    return op_names[kind];
}

const char *fl_wl_op_list(void) {
    return "open, put, del, delrange, get, multiget, scan_prefix, scan, flush, compact, reopen, seek, "
           "seek_for_prev, set_options, crash";
}

const char *fl_wl_option_list(void) {
    return "policies, compactor, min_filter_keys, memtable_bytes, sst_bytes, "
           "block_bytes, l0_trigger, max_runs, legacy_filters";
}

#define NAMESPACE "rocksdb."
#define NAMESPACE_LEN 8
#define NAMESPACED_NAME_MAX 64

bool fl_wl_option_namespaced(const char *key, size_t len) {
    if (len <= NAMESPACE_LEN || len > NAMESPACE_LEN + NAMESPACED_NAME_MAX ||
        memcmp(key, NAMESPACE, NAMESPACE_LEN) != 0)
        return false;
    for (size_t i = NAMESPACE_LEN; i < len; i++)
        if (!((key[i] >= 'a' && key[i] <= 'z') || (key[i] >= '0' && key[i] <= '9') || key[i] == '_'))
            return false;
    return true;
}

int fl_wl_option_index(const char *key, size_t len) {
    for (int i = 0; fl_wl_option_keys[i]; i++)
        if (strlen(fl_wl_option_keys[i]) == len && memcmp(fl_wl_option_keys[i], key, len) == 0)
            return i;
    return -1;
}

/* ---- The arena ------------------------------------------------------------ */

/* A block of the arena; the workload points at the newest, each at the one
 * before.  Blocks double from ARENA_FIRST up to ARENA_MAX bytes (a string
 * longer than that gets a block of its own). */
struct fl_wl_arena {
    struct fl_wl_arena *prev;
    size_t used, cap;
    uint8_t data[];
};

#define ARENA_FIRST ((size_t)4096 - sizeof(struct fl_wl_arena))
#define ARENA_MAX   ((size_t)1 << 20)

static void arena_free(struct fl_wl_arena *a) {
    while (a) {
        struct fl_wl_arena *prev = a->prev;
        free(a);
        a = prev;
    }
}

/* n bytes (n >= 1) from w's arena, or NULL. */
static uint8_t *arena_alloc(fl_workload *w, size_t n) {
    struct fl_wl_arena *a = w->arena;
    if (!a || a->cap - a->used < n) {
        size_t cap = a ? (a->cap < ARENA_MAX / 2 ? a->cap * 2 : ARENA_MAX) : ARENA_FIRST;
        if (cap < n) cap = n;
        if (cap > SIZE_MAX - sizeof *a) return NULL;
        struct fl_wl_arena *grown = malloc(sizeof *a + cap);
        if (!grown) return NULL;
        grown->prev = a;
        grown->used = 0;
        grown->cap = cap;
        w->arena = a = grown;
    }
    uint8_t *p = a->data + a->used;
    a->used += n;
    return p;
}

/* ---- Freeing ------------------------------------------------------------ */

void fl_wl_op_clear(fl_op *op) {
    if (!op->in_arena) {
        free(op->a.data);
        free(op->b.data);
    }
    for (size_t i = 0; i < op->opt_count && op->opts; i++) {
        free(op->opts[i].key);
        free(op->opts[i].value);
    }
    free(op->opts);
    memset(op, 0, sizeof *op);
}

void fl_workload_free(fl_workload *w) {
    if (!w) return;
    /* What each op owns (fl_wl_op_clear without zeroing ops about to go):
     * nothing but options for an op in the arena. */
    for (size_t i = 0; i < w->count && w->ops; i++) {
        fl_op *op = &w->ops[i];
        if (!op->in_arena) {
            free(op->a.data);
            free(op->b.data);
        }
        if (op->opts) {
            for (size_t j = 0; j < op->opt_count; j++) {
                free(op->opts[j].key);
                free(op->opts[j].value);
            }
            free(op->opts);
        }
    }
    free(w->ops);
    free(w->description);
    arena_free(w->arena);
    w->ops = NULL;
    w->count = 0;
    w->description = NULL;
    w->arena = NULL;
}

/* ---- Appending ---------------------------------------------------------- */

static bool kind_has_a(fl_op_kind k) {
    return k == FL_OP_PUT || k == FL_OP_DEL || k == FL_OP_DELRANGE || k == FL_OP_GET ||
           k == FL_OP_SCAN_PREFIX || k == FL_OP_SCAN || k == FL_OP_SEEK || k == FL_OP_SEEK_FOR_PREV ||
           k == FL_OP_MULTIGET;
}
static bool kind_is_seek(fl_op_kind k) { return k == FL_OP_SEEK || k == FL_OP_SEEK_FOR_PREV; }
static bool kind_has_b(fl_op_kind k) {
    return k == FL_OP_PUT || k == FL_OP_DELRANGE || k == FL_OP_SCAN;
}
static bool kind_has_opts(fl_op_kind k) {
    return k == FL_OP_OPEN || k == FL_OP_REOPEN || k == FL_OP_SET_OPTIONS;
}
static bool kind_has_ctx(fl_op_kind k) {
    return k == FL_OP_GET || k == FL_OP_SCAN_PREFIX || k == FL_OP_MULTIGET;
}

/* The op's a and b (len bytes each where used, else empty) into w's arena:
 * one allocation for both, a 1-byte one for each empty string. */
static int copy_bytes(fl_workload *w, fl_op *dst, const fl_op *src, bool a_used, bool b_used) {
    size_t an = a_used ? src->a.len : 0, bn = b_used ? src->b.len : 0;
    size_t as = an ? an : 1, bs = bn ? bn : 1;
    uint8_t *p = arena_alloc(w, as + bs);
    if (!p) return -1;
    if (an) memcpy(p, src->a.data, an);
    if (bn) memcpy(p + as, src->b.data, bn);
    dst->a.data = p;
    dst->a.len = an;
    dst->b.data = p + as;
    dst->b.len = bn;
    dst->in_arena = true;
    return 0;
}

/* The rules parse() enforces, for an op about to be appended at index. */
static bool op_valid(const fl_op *op, size_t index) {
    fl_op_kind k = op->kind;
    if ((int)k < FL_OP_OPEN || (int)k > FL_OP_LAST) return false;
    if (kind_is_seek(k) && (op->count < 1 || op->count > FL_WL_SEEK_MAX || op->prefix_mode < -1 ||
                            op->prefix_mode > 1))
        return false;
    if (k == FL_OP_CRASH && op->count > FL_WL_CRASH_AFTER_MAX) return false;
    if (k == FL_OP_MULTIGET) {
        if (op->count < 1 || op->count > FL_WL_MULTIGET_MAX || (op->a.len && !op->a.data)) return false;
        size_t off = 0, n = 0, len;
        const uint8_t *key;
        while (fl_op_multiget_key(op, &off, &key, &len)) n++;
        if (n != op->count || off != op->a.len) return false;
    } else if (kind_has_a(k) && (op->a.len > FL_WL_KEY_MAX || (op->a.len && !op->a.data))) {
        return false;
    }
    if (kind_has_b(k)) {
        size_t max = k == FL_OP_PUT ? FL_WL_VALUE_MAX : FL_WL_KEY_MAX;
        if (op->b.len > max || (op->b.len && !op->b.data)) return false;
    }
    if (kind_has_ctx(k) && op->has_ctx && op->ctx_len > FL_WL_CTX_MAX) return false;
    if (kind_has_opts(k)) {
        if (k == FL_OP_OPEN && index != 0) return false;
        if ((k == FL_OP_REOPEN || k == FL_OP_SET_OPTIONS) && op->opt_count == 0) return false;
        if (op->opt_count && !op->opts) return false;
        uint32_t seen = 0;
        for (size_t i = 0; i < op->opt_count; i++) {
            const fl_wl_option *o = &op->opts[i];
            if (!o->key || !o->value) return false;
            int idx = fl_wl_option_index(o->key, strlen(o->key));
            if (idx < 0) {
                if (!fl_wl_option_namespaced(o->key, strlen(o->key))) return false;
                for (size_t j = 0; j < i; j++)
                    if (strcmp(op->opts[j].key, o->key) == 0) return false;
                continue;
            }
            if (seen & (1u << idx)) return false;
            seen |= 1u << idx;
        }
    }
    return true;
}

/* ---- multiget's keys ---------------------------------------------------- */

bool fl_op_multiget_key(const fl_op *op, size_t *off, const uint8_t **key, size_t *len) {
    size_t at = *off, n = op->a.len;
    if (op->kind != FL_OP_MULTIGET || at + 2 > n) return false;
    size_t kl = (size_t)op->a.data[at] << 8 | op->a.data[at + 1];
    if (kl > n - at - 2) return false;
    *key = op->a.data + at + 2;
    *len = kl;
    *off = at + 2 + kl;
    return true;
}

bool fl_op_multiget_get(const fl_op *op, size_t *off, fl_op *get) {
    const uint8_t *key;
    size_t len;
    if (!fl_op_multiget_key(op, off, &key, &len)) return false;
    *get = *op;
    get->kind = FL_OP_GET;
    get->a = (fl_bytes){ (uint8_t *)key, len };
    get->count = 0;
    return true;
}

int fl_op_multiget_pack(uint8_t **buf, size_t *len, const uint8_t *key, size_t klen) {
    if (klen > FL_WL_KEY_MAX) return -1;
    uint8_t *grown = realloc(*buf, *len + 2 + klen);
    if (!grown) return -1;
    grown[*len] = (uint8_t)(klen >> 8);
    grown[*len + 1] = (uint8_t)klen;
    if (klen) memcpy(grown + *len + 2, key, klen);
    *buf = grown;
    *len += 2 + klen;
    return 0;
}

int fl_workload_add(fl_workload *w, const fl_op *op) {
    if (!w || !op || !op_valid(op, w->count)) return -1;
    /* Growth rule (workload_internal.h): room for next_pow2(count) ops. */
    size_t n = w->count;
    if (n == 0 || (n & (n - 1)) == 0) {
        size_t cap = n ? n * 2 : 1;
        if (cap > SIZE_MAX / sizeof(fl_op)) return -1;
        fl_op *grown = realloc(w->ops, cap * sizeof(fl_op));
        if (!grown) return -1;
        w->ops = grown;
    }
    /* Made in place (op may not point into w->ops: it is const and the
     * array may have moved).  A failed copy leaves its bytes in the arena,
     * unused until the workload is freed. */
    fl_op *copy = &w->ops[n];
    memset(copy, 0, sizeof *copy);
    copy->kind = op->kind;
    copy->line = op->line;
    if (copy_bytes(w, copy, op, kind_has_a(op->kind), kind_has_b(op->kind))) goto fail;
    if (kind_is_seek(op->kind)) {
        copy->count = op->count;
        copy->prefix_mode = op->prefix_mode;
    }
    if (op->kind == FL_OP_CRASH || op->kind == FL_OP_MULTIGET) copy->count = op->count;
    if (kind_has_ctx(op->kind) && op->has_ctx) {
        copy->has_ctx = true;
        copy->ctx_len = op->ctx_len;
        memcpy(copy->ctx, op->ctx, op->ctx_len);      /* the rest stays zero */
    }
    copy->full = op->kind == FL_OP_COMPACT && op->full;
    if (kind_has_opts(op->kind) && op->opt_count) {
        copy->opts = calloc(op->opt_count, sizeof *copy->opts);
        if (!copy->opts) goto fail;
        copy->opt_count = op->opt_count;
        for (size_t i = 0; i < op->opt_count; i++) {
            copy->opts[i].key = strdup(op->opts[i].key);
            copy->opts[i].value = strdup(op->opts[i].value);
            if (!copy->opts[i].key || !copy->opts[i].value) goto fail;
        }
    }
    w->count = n + 1;
    return 0;
fail:
    fl_wl_op_clear(copy);
    return -1;
}

/* ---- Byte strings read back (SPEC 9; the parser's own reader is in
 * parse.c, with its messages) ------------------------------------------- */

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool fl_bytes_scan(const char *s, size_t n, uint8_t *out, size_t *out_len, size_t *used) {
    size_t i = 0, len = 0;
    if (n == 0 || s[0] == ' ' || s[0] == '\t') return false;
    if (s[0] != '"') {                                  /* bare */
        for (; i < n && s[i] != ' ' && s[i] != '\t'; i++) {
            unsigned char c = (unsigned char)s[i];
            if (c < 0x21 || c > 0x7e || c == '"' || c == '\\' || c == '=') return false;
            out[len++] = c;
        }
        *out_len = len;
        *used = i;
        return true;
    }
    for (i = 1; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"') {
            if (i + 1 < n && s[i + 1] != ' ' && s[i + 1] != '\t') return false;
            *out_len = len;
            *used = i + 1;
            return true;
        }
        if (c < 0x20 || c > 0x7e) return false;
        if (c != '\\') { out[len++] = c; continue; }
        if (++i >= n) return false;
        switch (s[i]) {
        case '\\': case '"': out[len++] = (uint8_t)s[i]; break;
        case 'n': out[len++] = '\n'; break;
        case 't': out[len++] = '\t'; break;
        case 'x':
            if (i + 2 >= n || hex_digit(s[i + 1]) < 0 || hex_digit(s[i + 2]) < 0) return false;
            out[len++] = (uint8_t)(hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2]));
            i += 2;
            break;
        default: return false;
        }
    }
    return false;                                       /* no closing quote */
}
