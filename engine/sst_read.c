/*
 * sst_read.c -- opens and reads one SST.  Opening reads only the footer,
 * the info block, the range-tombstone block and the filter block: a read
 * asks the filters before any index or data block is touched.  The index is
 * loaded on the first data access.  Every block's checksum and bounds are
 * verified before use; a bad data, index, range-tombstone or info block is
 * FL_ERR_CORRUPT naming the file and block, while a bad filter block only
 * makes the SST unfiltered (and counts a filter error).
 *
 * A reader keeps its last data block in one reused buffer, and for each
 * block a seek has visited the offset and key head (first 8 bytes as a
 * number) of every entry a seek decoded (seek points, below), so a seek is
 * a binary search over numbers instead of a decode of the block up to its
 * target; the index is searched by heads too, and a get takes the entry
 * its seek lands on without an iterator.  None of it changes a position,
 * an answer or an error.
 */
#include "engine_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

static int corrupt(fl_sst_reader *r, char *err, size_t err_len, const char *block, const char *what) {
    snprintf(err, err_len, "%s: corrupt %s block: %s", r->path, block, what);
    return FL_ERR_CORRUPT;
}

/* Whether [off, off+len) and its 8-byte checksum lie within the file. */
static bool in_file(const fl_sst_reader *r, uint64_t off, uint64_t len) {
    uint64_t size = r->info.file_bytes;
    return len <= size && off <= size - len && size - len - off >= 8;
}

/* Whether p[0..len) matches the checksum stored right after it. */
static bool sum_holds(const uint8_t *p, uint64_t len) {
    return XXH3_64bits(p, (size_t)len) == fl_get_be64(p + len);
}

/* Reads [off, off+len) and its checksum into *buf, grown (and *cap with
 * it) when smaller than len + 8.  1: checksum or read past the end;
 * negative: I/O error or no memory. */
static int read_into(fl_sst_reader *r, uint64_t off, uint64_t len, uint8_t **buf, size_t *cap) {
    if (!in_file(r, off, len)) return 1;
    if (!*buf || *cap < len + 8) {
        uint8_t *b = malloc((size_t)len + 8);
        if (!b) return FL_ERR_NOMEM;
        free(*buf);
        *buf = b;
        *cap = (size_t)len + 8;
    }
    size_t got;
    int e = r->env->ops->read(r->env, r->file, off, *buf, (size_t)len + 8, &got);
    if (e || got < len + 8) {
        if (e) errno = e;
        return e ? FL_ERR_IO : 1;
    }
    return sum_holds(*buf, len) ? 0 : 1;
}

/* read_into a new buffer: *out is it on success, NULL otherwise. */
static int read_block(fl_sst_reader *r, uint64_t off, uint64_t len, uint8_t **out) {
    size_t cap = 0;
    *out = NULL;
    int rc = read_into(r, off, len, out, &cap);
    if (rc) {
        free(*out);
        *out = NULL;
    }
    return rc;
}

/* Data block ie and its checksum, r->block pointing at it: viewed in the
 * env's memory when the env can (no copy; and its checksum taken once,
 * the first time: the view's bytes cannot change while the file is open,
 * so a later load of the block finds the very bytes that held), else
 * read_into the reader's buffer, kept from block to block, and checked
 * at every load.  Returns as read_into. */
static int read_data_block(fl_sst_reader *r, struct fl_index_entry *ie) {
    uint64_t off = ie->off, len = ie->len;
    if (r->env->ops->view && in_file(r, off, len)) {
        const void *v;
        size_t got;
        int e = r->env->ops->view(r->env, r->file, off, (size_t)len + 8, &v, &got);
        if (e != ENOTSUP) {
            if (e || got < len + 8) {
                if (e) errno = e;
                return e ? FL_ERR_IO : 1;
            }
            r->block = v;
            if (!ie->viewed && !sum_holds(r->block, len)) return 1;
            ie->viewed = true;
            return 0;
        }
    }
    int rc = read_into(r, off, len, &r->block_buf, &r->block_cap);
    r->block = r->block_buf;
    return rc;
}

static void free_subs(fl_sst_reader *r) {
    for (size_t i = 0; i < r->sub_count; i++) {
        if (r->subs[i].filter) fl_call_filter_destroy(r->calls, r->subs[i].policy, r->subs[i].filter);
        free(r->subs[i].name);
    }
    free(r->subs);
    r->subs = NULL;
    r->sub_count = 0;
}

/* The expected FP rate of a built-in bloom sub-filter: exact given the bits
 * it decoded (SPEC 5), what expected_fp_rate reports. */
static void set_bloom_stats(fl_sst_subfilter *s) {
    if (s->filter && fl_bloom_filter_expected_fp(s->filter, &s->bloom_expected_fp)) s->bloom = true;
}

/* Decodes the filter block against the configured policies. */
static int load_filters(fl_sst_reader *r, const fl_policy_list *pl, uint64_t *filter_errors) {
    if (r->info.filter_len == 0) return FL_OK;
    uint8_t *b = NULL;
    int rc = read_block(r, r->info.filter_offset, r->info.filter_len, &b);
    if (rc < 0 && rc != FL_ERR_IO) return rc;
    if (rc != 0) { r->filter_error = true; (*filter_errors)++; return FL_OK; }
    fl_slice block = { b, (size_t)r->info.filter_len };
    if (r->info.filter_format == FL_FILTER_LEGACY) {
        r->legacy = true;
        const fl_filter_policy *bloom = NULL;
        for (size_t i = 0; i < pl->count && !bloom; i++)
            if (fl_policy_is_builtin_bloom(pl->items[i])) bloom = pl->items[i];
        r->subs = calloc(1, sizeof *r->subs);
        if (!r->subs || !(r->subs[0].name = strdup(""))) { free(b); return FL_ERR_NOMEM; }
        r->sub_count = 1;
        if (bloom) {
            r->subs[0].policy = bloom;
            if (fl_bloom_legacy_decode(block, &r->subs[0].filter) != FL_OK) {
                r->subs[0].filter = NULL;
                r->filter_error = true;
                (*filter_errors)++;
            }
            set_bloom_stats(&r->subs[0]);
        }
    } else if (r->info.filter_format == FL_FILTER_COMPOSITE) {
        fl_named_filter *nf;
        size_t n;
        rc = fl_composite_parse(block, &nf, &n);
        if (rc == FL_ERR_NOMEM) { free(b); return rc; }
        if (rc != FL_OK) {
            r->filter_error = true;
            (*filter_errors)++;
        } else {
            r->subs = calloc(n ? n : 1, sizeof *r->subs);
            if (!r->subs) { fl_named_filters_free(nf, n); free(b); return FL_ERR_NOMEM; }
            for (size_t i = 0; i < n; i++) {
                fl_sst_subfilter *s = &r->subs[i];
                s->name = nf[i].name;
                nf[i].name = NULL;
                r->sub_count = i + 1;
                for (size_t j = 0; j < pl->count; j++) {
                    if (strcmp(fl_call_policy_name(r->calls, pl->items[j]), s->name) != 0) continue;
                    s->policy = pl->items[j];
                    if (fl_call_decode(r->calls, s->policy, nf[i].data, &s->filter) != FL_OK) {
                        s->filter = NULL;
                        (*filter_errors)++;
                    }
                    set_bloom_stats(s);
                    break;
                }
            }
            fl_named_filters_free(nf, n);
        }
    } else {
        r->filter_error = true;          /* a format this reader does not know */
        (*filter_errors)++;
    }
    free(b);
    return FL_OK;
}

static int load_rtombs(fl_sst_reader *r, char *err, size_t err_len) {
    uint8_t *b = NULL;
    int rc = read_block(r, r->info.rt_offset, r->info.rt_len, &b);
    if (rc < 0) return rc;
    if (rc) return corrupt(r, err, err_len, "range-tombstone", "checksum or bounds");
    const uint8_t *p = b, *end = b + r->info.rt_len;
    uint64_t n;
    rc = fl_get_varint(&p, end, &n);
    for (uint64_t i = 0; rc == FL_OK && i < n; i++) {
        uint64_t sl, el, seq;
        const uint8_t *s, *e;
        if (fl_get_varint(&p, end, &sl) || sl > (uint64_t)(end - p)) { rc = FL_ERR_CORRUPT; break; }
        s = p; p += sl;
        if (fl_get_varint(&p, end, &el) || el > (uint64_t)(end - p)) { rc = FL_ERR_CORRUPT; break; }
        e = p; p += el;
        if (fl_get_varint(&p, end, &seq)) { rc = FL_ERR_CORRUPT; break; }
        rc = fl_rtomb_list_add(&r->rtombs, s, (size_t)sl, e, (size_t)el, seq);
    }
    if (rc == FL_OK && p != end) rc = FL_ERR_CORRUPT;
    if (rc == FL_OK) fl_rtomb_list_index(&r->rtombs);    /* stale on NOMEM: scanned */
    free(b);
    if (rc == FL_ERR_CORRUPT) return corrupt(r, err, err_len, "range-tombstone", "malformed");
    return rc;
}

int fl_sst_open(fl_env *env, const char *dir, uint64_t id, const fl_policy_list *policies, fl_calls *calls,
                fl_sst_reader **out, uint64_t *filter_errors, char *err, size_t err_len) {
    fl_sst_reader *r = calloc(1, sizeof *r);
    if (!r) return FL_ERR_NOMEM;
    r->calls = calls;
    r->env = env;
    *out = NULL;
    fl_sst_path(dir, id, r->path, sizeof r->path);
    int e = env->ops->open(env, r->path, FL_OPEN_READ, &r->file);
    if (e) {
        snprintf(err, err_len, "%s: cannot open SST: %s", r->path, strerror(e));
        free(r);
        return e == ENOENT ? FL_ERR_NOTFOUND : FL_ERR_IO;
    }
    uint64_t fsize = 0;
    size_t got = 0;
    uint8_t foot[24], *ib = NULL;
    int rc = FL_OK;
    e = env->ops->size(env, r->file, &fsize);
    if (!e && fsize >= 24) e = env->ops->read(env, r->file, fsize - 24, foot, 24, &got);
    if (e) {
        errno = e;
        rc = FL_ERR_IO;
        goto fail;
    }
    if (fsize < 24 || got != 24) {
        rc = corrupt(r, err, err_len, "footer", "file too short");
        goto fail;
    }
    if (memcmp(foot + 20, "FLST", 4) != 0 || fl_get_be32(foot + 16) != 1) {
        rc = corrupt(r, err, err_len, "footer", "bad magic or format version (expected FLST v1)");
        goto fail;
    }
    uint64_t io = fl_get_be64(foot), il = fl_get_be64(foot + 8);
    uint64_t size = fsize;
    if (il > size || io > size - 24 || size - 24 - io < il || size - 24 - io - il != 8) {
        rc = corrupt(r, err, err_len, "footer", "info block out of bounds");
        goto fail;
    }
    r->info.file_bytes = size - 24;      /* blocks live before the footer */
    rc = read_block(r, io, il, &ib);
    if (rc < 0) goto fail;
    if (rc) { rc = corrupt(r, err, err_len, "info", "checksum mismatch"); goto fail; }
    fl_sst_info info;
    rc = fl_sst_info_decode((fl_slice){ ib, (size_t)il }, &info);
    free(ib);
    if (rc) { if (rc == FL_ERR_CORRUPT) corrupt(r, err, err_len, "info", "malformed field"); goto fail; }
    info.file_bytes = size - 24;
    info.id = id;
    r->info = info;
    r->smallest_head = fl_key_head(info.smallest, info.smallest_len);
    r->largest_head = fl_key_head(info.largest, info.largest_len);
    if (info.data_len > info.rt_offset || info.rt_offset > io || info.index_offset > io) {
        rc = corrupt(r, err, err_len, "info", "block offsets out of order");
        goto fail;
    }
    rc = load_rtombs(r, err, err_len);
    if (rc) goto fail;
    if (r->rtombs.count != info.range_tombstones) {
        rc = corrupt(r, err, err_len, "range-tombstone", "count differs from the info block");
        goto fail;
    }
    rc = load_filters(r, policies, filter_errors);
    if (rc) goto fail;
    *out = r;
    return FL_OK;
fail:
    if (rc == FL_ERR_IO) snprintf(err, err_len, "%s: read failed: %s", r->path, strerror(errno));
    fl_sst_close(r);
    return rc;
}

void fl_sst_close(fl_sst_reader *r) {
    if (!r) return;
    if (r->file) r->env->ops->close(r->env, r->file);
    free_subs(r);
    fl_rtomb_list_free(&r->rtombs);
    for (size_t i = 0; i < r->index_count; i++) free(r->index[i].last);
    free(r->index);
    if (r->points)
        for (size_t i = 0; i < r->index_count; i++) free(r->points[i].heads);
    free(r->points);
    free(r->block_buf);
    fl_sst_info_free(&r->info);
    free(r);
}

/* The filter block's bytes, checksum verified: 1 and *out (malloc'ed), 0
 * when there is none, FL_ERR_CORRUPT when it does not verify. */
int fl_sst_filter_bytes(fl_sst_reader *r, uint8_t **out, size_t *len) {
    *out = NULL;
    *len = 0;
    if (r->info.filter_len == 0) return 0;
    int rc = read_block(r, r->info.filter_offset, r->info.filter_len, out);
    if (rc < 0) return rc;
    if (rc) return FL_ERR_CORRUPT;
    *len = (size_t)r->info.filter_len;
    return 1;
}

/* ---- Index and data blocks --------------------------------------------- */

static int load_index(fl_sst_reader *r, char *err, size_t err_len) {
    if (r->index_loaded) return FL_OK;
    uint8_t *b = NULL;
    int rc = read_block(r, r->info.index_offset, r->info.index_len, &b);
    if (rc < 0) return rc;
    if (rc) return corrupt(r, err, err_len, "index", "checksum or bounds");
    const uint8_t *p = b, *end = b + r->info.index_len;
    size_t cap = 0;
    while (p < end) {
        uint64_t kl, off, len;
        if (fl_get_varint(&p, end, &kl) || kl > (uint64_t)(end - p)) { rc = FL_ERR_CORRUPT; break; }
        const uint8_t *k = p;
        p += kl;
        if (fl_get_varint(&p, end, &off) || fl_get_varint(&p, end, &len)) { rc = FL_ERR_CORRUPT; break; }
        if (len > r->info.data_len || off > r->info.data_len - len) { rc = FL_ERR_CORRUPT; break; }
        if (r->index_count == cap) {
            cap = cap ? cap * 2 : 16;
            void *n = realloc(r->index, cap * sizeof *r->index);
            if (!n) { rc = FL_ERR_NOMEM; break; }
            r->index = n;
        }
        struct fl_index_entry *ie = &r->index[r->index_count];
        ie->last = fl_memdup(k, (size_t)kl);
        if (!ie->last) { rc = FL_ERR_NOMEM; break; }
        ie->last_len = (size_t)kl;
        ie->head = fl_key_head(k, (size_t)kl);
        ie->off = off;
        ie->len = len;
        ie->viewed = false;
        r->index_count++;
    }
    free(b);
    if (rc) {                       /* drop a partial index: a later call starts over */
        for (size_t i = 0; i < r->index_count; i++) free(r->index[i].last);
        free(r->index);
        r->index = NULL;
        r->index_count = 0;
    }
    if (rc == FL_ERR_CORRUPT) return corrupt(r, err, err_len, "index", "malformed entry");
    if (rc) return rc;
    r->index_sorted = true;
    for (size_t i = 1; i < r->index_count && r->index_sorted; i++) {
        const struct fl_index_entry *a = &r->index[i - 1], *b = &r->index[i];
        r->index_sorted = fl_head_cmp(a->head, a->last, a->last_len, b->head, b->last, b->last_len) <= 0;
    }
    r->index_loaded = true;
    return FL_OK;
}

static int load_block(fl_sst_reader *r, size_t bi, char *err, size_t err_len) {
    struct fl_index_entry *ie = &r->index[bi];
    if (r->block_valid && r->block_off == ie->off) return FL_OK;
    r->block_valid = false;
    int rc = read_data_block(r, ie);
    if (rc < 0) return rc;
    if (rc) {
        char what[64];
        snprintf(what, sizeof what, "data block %zu at offset %llu: checksum", bi,
                 (unsigned long long)ie->off);
        return corrupt(r, err, err_len, "data", what);
    }
    r->block_len = (size_t)ie->len;
    r->block_off = ie->off;
    r->block_valid = true;
    return FL_OK;
}

/* Decodes the entry at *pos of the current block. */
static int decode_entry(fl_sst_reader *r, size_t *pos, fl_entry *e) {
    const uint8_t *p = r->block + *pos, *end = r->block + r->block_len;
    uint64_t kl, seq, vl;
    if (fl_get_varint(&p, end, &kl) || kl > (uint64_t)(end - p)) return FL_ERR_CORRUPT;
    e->key = p; e->klen = (size_t)kl; p += kl;
    if (p >= end) return FL_ERR_CORRUPT;
    e->kind = *p++;
    if (e->kind != FL_ENTRY_PUT && e->kind != FL_ENTRY_DELETE) return FL_ERR_CORRUPT;
    if (fl_get_varint(&p, end, &seq) || fl_get_varint(&p, end, &vl) || vl > (uint64_t)(end - p))
        return FL_ERR_CORRUPT;
    e->seq = seq;
    e->val = p; e->vlen = (size_t)vl; p += vl;
    *pos = (size_t)(p - r->block);
    return FL_OK;
}

/* The first of n index entries whose last key's head is >= x (> x when
 * after), n if none: a binary search without branches to mispredict. */
static size_t index_bound(const struct fl_index_entry *ix, size_t n, uint64_t x, bool after) {
    if (n == 0) return 0;
    const struct fl_index_entry *base = ix;          /* without branches */
    while (n > 1) {
        size_t half = n / 2;
        base = base[half - 1].head < x || (after && base[half - 1].head == x) ? base + half : base;
        n -= half;
    }
    return (size_t)(base - ix) + (base->head < x || (after && base->head == x));
}

/* The first block whose last key is >= k (kh: k's head).  An index whose
 * last keys do not ascend (not as written) gets the plain bisection,
 * landing wherever it always did. */
static size_t find_block(const fl_sst_reader *r, const uint8_t *k, size_t klen, uint64_t kh) {
    if (!r->index_sorted) {
        size_t lo = 0, hi = r->index_count;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            const struct fl_index_entry *ie = &r->index[mid];
            if (fl_head_cmp(ie->head, ie->last, ie->last_len, kh, k, klen) < 0) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }
    /* past the heads below k's, then among the ones equal to k's by key */
    size_t lo = index_bound(r->index, r->index_count, kh, false);
    size_t hi = lo < r->index_count && r->index[lo].head == kh
                    ? lo + index_bound(r->index + lo, r->index_count - lo, kh, true) : lo;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (fl_head_cmp(kh, r->index[mid].last, r->index[mid].last_len, kh, k, klen) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* ---- Seek points ---------------------------------------------------------
 * A seek decodes the entries of its block from the start, as the format has
 * no restart points.  What the seeks into a block decoded is kept: the
 * offset and key head of each entry from the first on, as far as any seek
 * went (12 bytes an entry, freed with the reader).  A seek whose key is at
 * or below the last kept entry's finds its entry by a binary search over
 * the heads (reading key bytes only on equal heads); one past it decodes on
 * from there, keeping what it passes.  So no entry of a block is decoded
 * twice by a seek, and a block sought once is decoded only up to its
 * target.  Entries are kept only while they decode and their keys never go
 * down, so the search lands on the entry the scan from the start would
 * have stopped at, with no error the scan would have met: the same
 * position, the same errors. */

enum { POINTS_OPEN, POINTS_FROZEN };        /* FROZEN: keeps no more entries */

/* The first of n ascending numbers that is >= x (or > x when after), n if
 * none: a binary search without branches to mispredict. */
static inline size_t heads_bound(const uint64_t *h, size_t n, uint64_t x, bool after) {
    if (n == 0) return 0;
    const uint64_t *base = h;
    if (after) {
        while (n > 1) {
            size_t half = n / 2;
            base = base[half - 1] <= x ? base + half : base;
            n -= half;
        }
        return (size_t)(base - h) + (*base <= x);
    }
    while (n > 1) {
        size_t half = n / 2;
        base = base[half - 1] < x ? base + half : base;
        n -= half;
    }
    return (size_t)(base - h) + (*base < x);
}

/* The key of the entry at off of the current block (decoded once already). */
static void key_at(fl_sst_reader *r, size_t off, const uint8_t **k, size_t *klen) {
    fl_entry e;
    decode_entry(r, &off, &e);
    *k = e.key;
    *klen = e.klen;
}

/* Keeps entry (head h, at offset at, ending at end) after the kept ones:
 * false when it cannot (no memory: keep no more). */
static bool keep_point(struct fl_seek_points *sp, size_t block_len, uint64_t h, size_t at, size_t end) {
    if (sp->count == sp->cap) {
        size_t cap = sp->cap ? 2 * (size_t)sp->cap : (end - at ? block_len / (end - at) + 1 : 16);
        if (cap < 8) cap = 8;
        if (cap > 1024 && !sp->cap) cap = 1024;
        if (cap > UINT32_MAX) return false;
        uint64_t *heads = malloc(cap * (sizeof *heads + sizeof *sp->offs));
        if (!heads) return false;
        uint32_t *offs = (uint32_t *)(heads + cap);
        if (sp->count) {
            memcpy(heads, sp->heads, sp->count * sizeof *heads);
            memcpy(offs, sp->offs, sp->count * sizeof *offs);
        }
        free(sp->heads);
        sp->heads = heads;
        sp->offs = offs;
        sp->cap = (uint32_t)cap;
    }
    sp->heads[sp->count] = h;
    sp->offs[sp->count++] = (uint32_t)at;
    sp->end = (uint32_t)end;
    return true;
}

/* Positions a seek for k (kh: its head) in the current block, block bi, at
 * the first entry whose key is >= k: *pos (the block's length when there
 * is none).  When that entry was decoded on the way, *e is it and *have
 * true; when it was found among the kept entries, *point is its number
 * (else SIZE_MAX).  An entry that does not decode before it is
 * FL_ERR_CORRUPT. */
static int block_seek(fl_sst_reader *r, size_t bi, const uint8_t *k, size_t klen, uint64_t kh,
                      size_t *pos, fl_entry *e, bool *have, size_t *point, char *err, size_t err_len) {
    *have = false;
    *point = SIZE_MAX;
    struct fl_seek_points *sp = NULL;
    if (r->points || (r->points = calloc(r->index_count, sizeof *r->points))) sp = &r->points[bi];
    size_t p = 0;
    const uint8_t *prev = NULL;                    /* the last kept entry's key */
    size_t prev_len = 0;
    uint64_t prev_head = 0;
    if (sp && sp->count) {
        size_t last = sp->count - 1;
        prev_head = sp->heads[last];
        int c = prev_head < kh ? -1 : prev_head > kh ? 1 : 0;
        if (c == 0) {
            key_at(r, sp->offs[last], &prev, &prev_len);
            c = fl_head_cmp(prev_head, prev, prev_len, kh, k, klen);
        }
        if (c >= 0) {
            /* among the kept: past the heads below k's, then among the ones
             * equal to k's by key */
            size_t lo = heads_bound(sp->heads, sp->count, kh, false);
            size_t hi = sp->heads[lo] == kh ? lo + heads_bound(sp->heads + lo, sp->count - lo, kh, true) : lo;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                const uint8_t *mk;
                size_t mlen;
                key_at(r, sp->offs[mid], &mk, &mlen);
                if (fl_head_cmp(kh, mk, mlen, kh, k, klen) < 0) lo = mid + 1;
                else hi = mid;
            }
            *pos = sp->offs[lo];
            *point = lo;
            return FL_OK;
        }
        p = sp->end;                               /* decode on past the kept */
        if (!prev && sp->state == POINTS_OPEN) key_at(r, sp->offs[last], &prev, &prev_len);
    }
    bool keep = sp && sp->state == POINTS_OPEN && r->block_len <= UINT32_MAX;
    while (p < r->block_len) {
        size_t at = p;
        if (decode_entry(r, &p, e)) return corrupt(r, err, err_len, "data", "malformed entry");
        if (keep) {
            uint64_t h = fl_key_head(e->key, e->klen);
            if ((prev && fl_head_cmp(prev_head, prev, prev_len, h, e->key, e->klen) > 0) ||
                !keep_point(sp, r->block_len, h, at, p)) {
                sp->state = POINTS_FROZEN;
                keep = false;
            }
            prev = e->key;
            prev_len = e->klen;
            prev_head = h;
        }
        if (fl_bytes_cmp(e->key, e->klen, k, klen) >= 0) {
            *pos = at;
            *have = true;
            return FL_OK;
        }
    }
    *pos = p;
    return FL_OK;
}

int fl_sst_seek(fl_sst_reader *r, const uint8_t *k, size_t klen, fl_sst_iter *it,
                char *err, size_t err_len) {
    memset(it, 0, sizeof *it);
    it->r = r;
    int rc = load_index(r, err, err_len);
    if (rc) return rc;
    uint64_t kh = k ? fl_key_head(k, klen) : 0;
    it->block = k ? find_block(r, k, klen, kh) : 0;
    if (it->block >= r->index_count) { it->done = true; return FL_OK; }
    rc = load_block(r, it->block, err, err_len);
    if (rc) return rc;
    if (k) {
        fl_entry e;
        bool have;
        size_t point;
        rc = block_seek(r, it->block, k, klen, kh, &it->pos, &e, &have, &point, err, err_len);
    }
    return rc;
}

int fl_sst_next(fl_sst_iter *it, fl_entry *e, char *err, size_t err_len) {
    fl_sst_reader *r = it->r;
    while (!it->done) {
        int rc = load_block(r, it->block, err, err_len);
        if (rc) return rc;
        if (it->pos < r->block_len) {
            if (decode_entry(r, &it->pos, e)) return corrupt(r, err, err_len, "data", "malformed entry");
            return 1;
        }
        it->block++;
        it->pos = 0;
        if (it->block >= r->index_count) it->done = true;
    }
    return 0;
}

/* fl_sst_seek then fl_sst_next, without an iterator: the entry the seek
 * lands on is taken as decoded on the way, or decoded once (and not at all
 * when its head already tells it is another key). */
int fl_sst_get(fl_sst_reader *r, const uint8_t *k, size_t klen, fl_entry *e,
               char *err, size_t err_len) {
    int rc = load_index(r, err, err_len);
    if (rc) return rc;
    uint64_t kh = fl_key_head(k, klen);
    size_t b = find_block(r, k, klen, kh);
    if (b >= r->index_count) return 0;
    if ((rc = load_block(r, b, err, err_len))) return rc;
    size_t pos, point;
    bool have;
    if ((rc = block_seek(r, b, k, klen, kh, &pos, e, &have, &point, err, err_len))) return rc;
    if (point != SIZE_MAX) {
        if (r->points[b].heads[point] != kh) return 0;   /* another key */
        decode_entry(r, &pos, e);                   /* decoded once already */
    } else if (!have) {                             /* past the block: read on */
        fl_sst_iter it = { .r = r, .block = b, .pos = pos };
        rc = fl_sst_next(&it, e, err, err_len);
        if (rc <= 0) return rc;
    }
    return fl_bytes_eq(e->key, e->klen, k, klen) ? 1 : 0;
}

/* Positions it on block b: the offsets of its entries whose key is <= k
 * (k NULL: all of them). */
static int riter_load(fl_sst_riter *it, size_t b, const uint8_t *k, size_t klen, char *err, size_t err_len) {
    fl_sst_reader *r = it->r;
    int rc = load_block(r, b, err, err_len);
    if (rc) return rc;
    it->block = b + 1;
    it->n = 0;
    for (size_t pos = 0; pos < r->block_len;) {
        fl_entry e;
        size_t at = pos;
        if (decode_entry(r, &pos, &e)) return corrupt(r, err, err_len, "data", "malformed entry");
        if (k && fl_bytes_cmp(e.key, e.klen, k, klen) > 0) break;
        if (it->n == it->cap) {
            size_t cap = it->cap ? 2 * it->cap : 64;
            size_t *o = realloc(it->offs, cap * sizeof *o);
            if (!o) return FL_ERR_NOMEM;
            it->offs = o;
            it->cap = cap;
        }
        it->offs[it->n++] = at;
    }
    return FL_OK;
}

int fl_sst_seek_for_prev(fl_sst_reader *r, const uint8_t *k, size_t klen, fl_sst_riter *it,
                         char *err, size_t err_len) {
    memset(it, 0, sizeof *it);
    it->r = r;
    int rc = load_index(r, err, err_len);
    if (rc || r->index_count == 0) return rc;
    /* entries <= k end in the first block whose last key is >= k */
    size_t b = k ? find_block(r, k, klen, fl_key_head(k, klen)) : r->index_count;
    if (b >= r->index_count) return riter_load(it, r->index_count - 1, NULL, 0, err, err_len);
    return riter_load(it, b, k, klen, err, err_len);
}

int fl_sst_prev(fl_sst_riter *it, fl_entry *e, char *err, size_t err_len) {
    fl_sst_reader *r = it->r;
    while (it->block) {
        if (it->n) {
            int rc = load_block(r, it->block - 1, err, err_len);     /* (held unless shared) */
            if (rc) return rc;
            size_t pos = it->offs[--it->n];
            if (decode_entry(r, &pos, e)) return corrupt(r, err, err_len, "data", "malformed entry");
            return 1;
        }
        if (it->block == 1) { it->block = 0; break; }
        int rc = riter_load(it, it->block - 2, NULL, 0, err, err_len);
        if (rc) return rc;
    }
    return 0;
}

void fl_sst_riter_free(fl_sst_riter *it) {
    free(it->offs);
    it->offs = NULL;
    it->n = it->cap = 0;
}
