/*
 * truth.c -- the truth about each live SST, read once when the SST first
 * appears (SSTs are immutable): every entry and range tombstone, read from
 * the data blocks without asking any filter, and the filter block as
 * stored.  When an SST appears the checker also verifies what was written:
 *   P5  each built-in bloom's bytes equal the model's reference build over
 *       the SST's entries with the writer's configuration (Legacy: the
 *       whole-key bloom of the writer's first bloom policy);
 *   P6  its key range (the info block's, by which reads pick it) covers
 *       every entry and range tombstone, and the entries are in order;
 *   P8  the SST carries exactly the sub-filters its writer was configured
 *       with (none below min_filter_keys entries);
 *   P11 each sub-filter, rebuilt by the writer's policy from the same
 *       entries, decodes from the stored bytes and from its own encoding
 *       and answers sampled probes exactly as the built filter does.
 * The writer of an L0 SST is the writer's policy list at the time; of a run
 * SST, the compactor's.
 *
 * Each key is hashed once per SST: the model's reference build of a
 * whole-key bloom hands back every key's hash (SPEC 5's, XXH3_64bits) and
 * every hash it set, and those serve the key index below and P9's item set
 * (fprate.c) instead of hashing again; without a whole-key bloom the index
 * hashes the keys itself.  The reference build becomes P9's ghost filter as
 * it is (no decoded copy), and a reader-side reference whose bytes P5 found
 * equal to it takes its exact expected rate instead of computing it again.
 * Bisection compares each key's first 8 bytes as a number (heads) before
 * reading bytes.
 */
#include "check_internal.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

/* ---- Small helpers -------------------------------------------------------- */

static void *copy_bytes(const void *p, size_t n) {
    uint8_t *d = malloc(n ? n : 1);
    if (d && n) memcpy(d, p, n);
    return d;
}

/* ---- The SST table ----------------------------------------------------------- */

ck_sst *ck_sst_get(const fl_checker *ck, uint64_t id) {
    return id < ck->ssts_cap ? ck->ssts[id] : NULL;
}

static void sst_free(ck_sst *s) {
    if (!s) return;
    free(s->key_bytes);
    free(s->heads);
    for (size_t i = 0; i < s->nrts; i++) { free(s->rts[i].start); free(s->rts[i].end); }
    ck_spans_free(&s->rt_spans);
    for (size_t i = 0; i < s->nsubs; i++) {
        free(s->subs[i].name);
        fl_model_bloom_free(&s->subs[i].ref);
        ck_p9_free(&s->subs[i]);
    }
    free(s->keys);
    free(s->index);
    free(s->rts);
    free(s->subs);
    free(s->block);
    ck_config_unref(s->writer);
    free(s);
}

void ck_tree_free(fl_checker *ck) {
    for (size_t i = 0; i < ck->ssts_cap; i++) sst_free(ck->ssts[i]);
    free(ck->ssts);
    ck->ssts = NULL;
    free(ck->inspected);
    ck->inspected = NULL;
    ck->ssts_cap = 0;
    free(ck->held);
    ck->held = NULL;
    ck->nheld = ck->held_cap = 0;
    fl_sst_meta_free(ck->metas, ck->nmetas);
    ck->metas = NULL;
    ck->nmetas = 0;
    free(ck->tr_keys);
    free(ck->tr_hash);
    ck->tr_keys = NULL;
    ck->tr_hash = NULL;
    ck->tr_cap = 0;
}

/* ---- Truth queries --------------------------------------------------------- */

/* The first 8 bytes of k as a big-endian number, zero-padded.  When two
 * heads differ they order their strings bytewise (a padding 0 below a real
 * byte is a shorter string that is a prefix of the longer up to there);
 * equal heads say nothing. */
static uint64_t head_of(const uint8_t *k, size_t klen) {
    uint64_t v = 0;
    if (klen >= 8) {
        memcpy(&v, k, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        v = __builtin_bswap64(v);
#endif
        return v;
    }
    for (size_t i = 0; i < 8; i++) v = v << 8 | (i < klen ? k[i] : 0);
    return v;
}

/* First entry with key >= k. */
static size_t lower_bound(const ck_sst *s, const uint8_t *k, size_t klen) {
    size_t lo = 0, hi = s->nkeys;
    uint64_t h = head_of(k, klen);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        bool less = s->heads ? (s->heads[mid] != h ? s->heads[mid] < h
                                                   : ck_cmp(s->keys[mid].key, s->keys[mid].len, k, klen) < 0)
                             : ck_cmp(s->keys[mid].key, s->keys[mid].len, k, klen) < 0;
        if (less) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* An open-addressing table over the distinct keys, so that the question
 * asked for every probe event -- does this SST hold this key? -- costs one
 * hash rather than a bisection.  Built once, when the SST is loaded, from
 * key_hash[i] = XXH3_64bits of key i when the caller has them (NULL: hashed
 * here); also the keys' heads. */
static bool build_index(ck_sst *s, const uint64_t *key_hash) {
    size_t cap = 16;
    while (cap < 2 * s->nkeys + 2) cap *= 2;
    if (s->nkeys >= UINT32_MAX || !(s->index = calloc(cap, sizeof *s->index))) return false;
    s->index_cap = cap;
    if (!(s->heads = malloc((s->nkeys ? s->nkeys : 1) * sizeof *s->heads))) return false;
    uint64_t prev = 0;
    for (size_t i = 0; i < s->nkeys; i++) {
        s->heads[i] = head_of(s->keys[i].key, s->keys[i].len);
        uint64_t h = key_hash ? key_hash[i] : XXH3_64bits(s->keys[i].key, s->keys[i].len);
        /* an older version of the same key (a different hash: a different key) */
        if (i && h == prev && ck_cmp(s->keys[i - 1].key, s->keys[i - 1].len, s->keys[i].key, s->keys[i].len) == 0)
            continue;
        prev = h;
        size_t j = h & (cap - 1);
        while (s->index[j]) j = (j + 1) & (cap - 1);
        s->index[j] = (h & 0xFFFFFFFF00000000ull) | (uint64_t)(i + 1);
    }
    return true;
}

bool ck_sst_holds_key(const ck_sst *s, const uint8_t *k, size_t klen) {
    return ck_sst_holds_key_hashed(s, k, klen, s->index ? XXH3_64bits(k, klen) : 0);
}

bool ck_sst_holds_key_hashed(const ck_sst *s, const uint8_t *k, size_t klen, uint64_t h) {
    if (!s->index) {
        size_t i = lower_bound(s, k, klen);
        return i < s->nkeys && ck_cmp(s->keys[i].key, s->keys[i].len, k, klen) == 0;
    }
    uint64_t tag = h & 0xFFFFFFFF00000000ull;
    for (size_t j = h & (s->index_cap - 1); s->index[j]; j = (j + 1) & (s->index_cap - 1)) {
        if ((s->index[j] & 0xFFFFFFFF00000000ull) != tag) continue;
        const ck_key *e = &s->keys[(uint32_t)s->index[j] - 1];
        if (e->len == klen && (klen == 0 || memcmp(e->key, k, klen) == 0)) return true;
    }
    return false;
}

bool ck_sst_holds_prefix(const ck_sst *s, const uint8_t *p, size_t plen) {
    size_t i = lower_bound(s, p, plen);
    return i < s->nkeys && s->keys[i].len >= plen && (plen == 0 || memcmp(s->keys[i].key, p, plen) == 0);
}

bool ck_sst_rt_covers(const ck_sst *s, const uint8_t *k, size_t klen) {
    return ck_spans_cover(&s->rt_spans, k, klen);
}

/* ---- Spans: what range tombstones cover ---------------------------------------- */

/* Inserts the non-empty span m into the sorted ones, merged with those it
 * overlaps or touches: O(log n), and O(n) moved when it lands before the
 * last. */
static int span_insert(ck_spans *u, ck_span m) {
    /* [i, j): the spans that overlap or touch [start, end) -- end >= start
     * and start <= end (the ends ascend as the starts do) */
    size_t lo = 0, hi = u->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ck_cmp(u->v[mid].end, u->v[mid].elen, m.start, m.slen) < 0) lo = mid + 1;
        else hi = mid;
    }
    size_t i = lo;
    hi = u->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ck_cmp(u->v[mid].start, u->v[mid].slen, m.end, m.elen) <= 0) lo = mid + 1;
        else hi = mid;
    }
    size_t j = lo;
    if (i < j) {
        if (ck_cmp(u->v[i].start, u->v[i].slen, m.start, m.slen) < 0) {
            m.start = u->v[i].start;
            m.slen = u->v[i].slen;
        }
        if (ck_cmp(u->v[j - 1].end, u->v[j - 1].elen, m.end, m.elen) > 0) {
            m.end = u->v[j - 1].end;
            m.elen = u->v[j - 1].elen;
        }
        u->v[i] = m;                        /* the merged span in place of [i, j) */
        memmove(&u->v[i + 1], &u->v[j], (u->n - j) * sizeof *u->v);
        u->n -= j - i - 1;
        return FL_OK;
    }
    if (u->n == u->cap) {
        size_t cap = u->cap ? 2 * u->cap : 8;
        ck_span *v = realloc(u->v, cap * sizeof *v);
        if (!v) return FL_ERR_NOMEM;
        u->v = v;
        u->cap = cap;
    }
    memmove(&u->v[i + 1], &u->v[i], (u->n - i) * sizeof *u->v);
    u->v[i] = m;
    u->n++;
    return FL_OK;
}

static int span_by_start(const void *a, const void *b) {
    const ck_span *x = a, *y = b;
    return ck_cmp(x->start, x->slen, y->start, y->slen);
}

/* Appends m to out (room for it), or widens the last span it overlaps or
 * touches: m starts at or after the last one's start. */
static void span_append(ck_span *out, size_t *n, ck_span m) {
    ck_span *last = *n ? &out[*n - 1] : NULL;
    if (!last || ck_cmp(m.start, m.slen, last->end, last->elen) > 0) out[(*n)++] = m;
    else if (ck_cmp(m.end, m.elen, last->end, last->elen) > 0) { last->end = m.end; last->elen = m.elen; }
}

/* The spans more[0..nmore) (non-empty, any order; sorted here) merged
 * with u's in one pass. */
static int spans_merge(ck_spans *u, ck_span *more, size_t nmore) {
    if (nmore == 0) return FL_OK;
    qsort(more, nmore, sizeof *more, span_by_start);
    size_t cap = u->n + nmore;
    ck_span *out = malloc(cap * sizeof *out);
    if (!out) return FL_ERR_NOMEM;
    size_t n = 0, i = 0, j = 0;
    while (i < u->n || j < nmore) {
        bool take_more = i == u->n || (j < nmore && span_by_start(&more[j], &u->v[i]) < 0);
        span_append(out, &n, take_more ? more[j++] : u->v[i++]);
    }
    free(u->v);
    u->v = out;
    u->n = n;
    u->cap = cap;
    return FL_OK;
}

int ck_spans_add(ck_spans *u, const ck_rt *rt) {
    if (ck_cmp(rt->start, rt->slen, rt->end, rt->elen) >= 0) return FL_OK;          /* empty */
    ck_span m = { rt->start, rt->slen, rt->end, rt->elen };
    if (u->n <= CK_SPANS_FEW && u->ntail == 0) return span_insert(u, m);
    if (u->ntail == u->tail_cap) {
        size_t cap = u->tail_cap ? 2 * u->tail_cap : 16;
        ck_span *t = realloc(u->tail, cap * sizeof *t);
        if (!t) return FL_ERR_NOMEM;
        u->tail = t;
        u->tail_cap = cap;
    }
    u->tail[u->ntail++] = m;
    size_t root = 1;
    while (root * root < u->n + u->ntail) root++;
    /* (merging can wait for more memory: the tail still answers) */
    if (u->ntail > 8 + root && spans_merge(u, u->tail, u->ntail) == FL_OK) u->ntail = 0;
    return FL_OK;
}

int ck_spans_build(ck_spans *u, const ck_rt *rts, size_t n) {
    ck_span *all = malloc((n ? n : 1) * sizeof *all);
    if (!all) return FL_ERR_NOMEM;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (ck_cmp(rts[i].start, rts[i].slen, rts[i].end, rts[i].elen) < 0)
            all[m++] = (ck_span){ rts[i].start, rts[i].slen, rts[i].end, rts[i].elen };
    int rc = spans_merge(u, all, m);
    free(all);
    return rc;
}

bool ck_spans_cover(const ck_spans *u, const uint8_t *k, size_t klen) {
    size_t lo = 0, hi = u->n;                   /* the first span starting past k */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ck_cmp(u->v[mid].start, u->v[mid].slen, k, klen) <= 0) lo = mid + 1;
        else hi = mid;
    }
    if (lo && ck_cmp(k, klen, u->v[lo - 1].end, u->v[lo - 1].elen) < 0) return true;
    for (size_t i = 0; i < u->ntail; i++)
        if (ck_cmp(u->tail[i].start, u->tail[i].slen, k, klen) <= 0 &&
            ck_cmp(k, klen, u->tail[i].end, u->tail[i].elen) < 0)
            return true;
    return false;
}

void ck_spans_free(ck_spans *u) {
    free(u->v);
    free(u->tail);
    *u = (ck_spans){ 0 };
}

/* ---- Loading an SST ------------------------------------------------------------ */

typedef struct builders {
    size_t n;
    const ck_policy **pol;
    fl_filter_builder **b;
} builders;

typedef struct load_ctx {
    fl_checker *ck;
    ck_sst *s;
    size_t cap;                       /* of s->keys                         */
    size_t rts_cap;                   /* of s->rts                          */
    size_t bytes_len, bytes_cap;      /* of s->key_bytes                    */
    builders *bl;
    int rc;
    size_t disorder;                  /* 1 + the first entry not after the one
                                         before it (key ascending, then seq
                                         descending); 0: none              */
} load_ctx;

static int on_entry(void *arg, const fl_row_entry *e) {
    load_ctx *lc = arg;
    ck_sst *s = lc->s;
    if (s->nkeys == lc->cap) {
        lc->cap = lc->cap ? 2 * lc->cap : 64;
        ck_key *n = realloc(s->keys, lc->cap * sizeof *n);
        if (!n) { lc->rc = FL_ERR_NOMEM; return 1; }
        s->keys = n;
    }
    /* the bytes go to one buffer, in order; key points there once all are in */
    size_t len = e->key.len;
    if (!s->key_bytes || len > lc->bytes_cap - lc->bytes_len) {     /* (never NULL) */
        size_t cap = lc->bytes_cap ? 2 * lc->bytes_cap : 4096;
        while (cap - lc->bytes_len < len) cap *= 2;
        uint8_t *n = realloc(s->key_bytes, cap);
        if (!n) { lc->rc = FL_ERR_NOMEM; return 1; }
        s->key_bytes = n;
        lc->bytes_cap = cap;
    }
    if (len) memcpy(s->key_bytes + lc->bytes_len, e->key.data, len);
    if (s->nkeys && !lc->disorder) {           /* the truth's bisections need the order */
        const ck_key *prev = &s->keys[s->nkeys - 1];
        int c = ck_cmp(s->key_bytes + lc->bytes_len - prev->len, prev->len, e->key.data, len);
        if (c > 0 || (c == 0 && prev->seq <= e->seq)) lc->disorder = s->nkeys + 1;
    }
    lc->bytes_len += len;
    ck_key *k = &s->keys[s->nkeys];
    k->key = NULL;
    k->len = len;
    k->kind = (uint8_t)e->kind;
    k->seq = e->seq;
    s->nkeys++;
    for (size_t i = 0; i < lc->bl->n; i++)
        if (lc->bl->b[i]) fl_call_add_entry(lc->ck->own_calls, lc->bl->pol[i]->policy, lc->bl->b[i], e);
    return 0;
}

static int on_rt(void *arg, fl_slice start, fl_slice end, uint64_t seq) {
    load_ctx *lc = arg;
    ck_sst *s = lc->s;
    if (s->nrts == lc->rts_cap) {
        size_t cap = lc->rts_cap ? 2 * lc->rts_cap : 8;
        ck_rt *n = realloc(s->rts, cap * sizeof *n);
        if (!n) { lc->rc = FL_ERR_NOMEM; return 1; }
        s->rts = n;
        lc->rts_cap = cap;
    }
    ck_rt *r = &s->rts[s->nrts];
    r->start = copy_bytes(start.data, start.len);
    r->end = copy_bytes(end.data, end.len);
    r->slen = start.len;
    r->elen = end.len;
    r->seq = seq;
    if (!r->start || !r->end) { free(r->start); free(r->end); lc->rc = FL_ERR_NOMEM; return 1; }
    s->nrts++;
    return 0;
}

static uint16_t be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static uint64_t be64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | p[i];
    return v;
}

/* The checker's own reading of the composite layout (SPEC 2.6). */
static bool parse_block(ck_sst *s) {
    if (s->block_len == 0) return true;
    if (s->format != 1) {
        s->subs = calloc(1, sizeof *s->subs);
        if (!s->subs || !(s->subs[0].name = strdup(""))) return false;
        s->subs[0].data = s->block;
        s->subs[0].len = s->block_len;
        s->nsubs = 1;
        return true;
    }
    const uint8_t *p = s->block, *end = s->block + s->block_len;
    if (end - p < 2) return false;
    size_t n = be16(p);
    p += 2;
    s->subs = calloc(n ? n : 1, sizeof *s->subs);
    if (!s->subs) return false;
    for (size_t i = 0; i < n; i++) {
        if (end - p < 2) return false;
        size_t nl = be16(p);
        p += 2;
        if ((size_t)(end - p) < nl + 8 || memchr(p, 0, nl)) return false;
        ck_sub *sub = &s->subs[s->nsubs];
        if (!(sub->name = malloc(nl + 1))) return false;
        memcpy(sub->name, p, nl);
        sub->name[nl] = 0;
        s->nsubs++;
        p += nl;
        uint64_t dl = be64(p);
        p += 8;
        if ((uint64_t)(end - p) < dl) return false;
        sub->data = p;
        sub->len = (size_t)dl;
        p += dl;
        for (size_t j = 0; j < i; j++)
            if (strcmp(s->subs[j].name, sub->name) == 0) return false;
    }
    return p == end;
}

/* ---- What was written: P5 bytes, P8 names, P11 round trip ---------------------- */

static void probe_bytes(fl_checker *ck, const ck_sst *s, fl_target *t, size_t i) {
    /* present keys first, then absent variations and prefixes */
    size_t n = s->nkeys;
    static uint8_t scratch[64];
    if (i < n && i < 256) {
        t->kind = FL_TARGET_POINT;
        t->bytes = (fl_slice){ s->keys[i].key, s->keys[i].len };
        return;
    }
    const ck_key *k = n ? &s->keys[ck_rand(ck) % n] : NULL;
    size_t len = k ? (k->len < sizeof scratch - 1 ? k->len : sizeof scratch - 1) : 0;
    if (len) memcpy(scratch, k->key, len);
    switch (ck_rand(ck) % 4) {
    case 0:                                   /* an absent key near a present one */
        scratch[len++] = (uint8_t)ck_rand(ck);
        t->kind = FL_TARGET_POINT;
        break;
    case 1:                                   /* a changed last byte */
        if (len) scratch[len - 1] ^= (uint8_t)(1 + ck_rand(ck) % 255);
        t->kind = FL_TARGET_POINT;
        break;
    default:                                  /* a prefix of a present key */
        len = len ? ck_rand(ck) % (len + 1) : 0;
        t->kind = FL_TARGET_PREFIX;
        break;
    }
    t->bytes = (fl_slice){ scratch, len };
}

static void round_trip(fl_checker *ck, const ck_sst *s, const ck_sub *sub, const ck_policy *w,
                       fl_filter *built) {
    fl_calls *calls = ck->own_calls;
    const fl_filter_policy *pol = w->policy;
    fl_buf enc;
    fl_buf_init(&enc);
    fl_filter *from_stored = NULL, *from_own = NULL;
    /* a failing decode or encode is reported by the wrapper (P11, P10) */
    if (fl_call_decode(calls, pol, (fl_slice){ sub->data, sub->len }, &from_stored) != FL_OK ||
        fl_call_encode(calls, pol, built, &enc) != FL_OK ||
        fl_call_decode(calls, pol, (fl_slice){ enc.data, enc.len }, &from_own) != FL_OK)
        goto out;
    fl_filter_context ctx;
    for (size_t i = 0; i < sizeof ctx.bytes; i++) ctx.bytes[i] = (uint8_t)(i * 37 + 1);
    size_t probes = (s->nkeys < 256 ? s->nkeys : 256) + 64;
    for (size_t i = 0; i < probes; i++) {
        fl_filter_query q;
        probe_bytes(ck, s, &q.target, i);
        q.context = (i & 1) ? &ctx : NULL;
        bool a = fl_call_might_match(calls, pol, built, &q);
        bool b = fl_call_might_match(calls, pol, from_stored, &q);
        bool c = fl_call_might_match(calls, pol, from_own, &q);
        if (a == b && a == c) continue;
        char t[160];
        t[0] = 0;
        ck_str(t, sizeof t, q.target.bytes.data, q.target.bytes.len);
        ck_violation(ck, FL_P11, "sst %llu sub-filter \"%s\": %s %s%s: built filter says %s, decoded "
                     "from the stored bytes %s, decoded from its own encoding %s",
                     (unsigned long long)s->id, sub->name,
                     q.target.kind == FL_TARGET_POINT ? "point" : "prefix", t,
                     q.context ? " with a context" : "", a ? "maybe" : "no", b ? "maybe" : "no",
                     c ? "maybe" : "no");
        break;
    }
out:
    fl_call_filter_destroy(calls, pol, from_stored);
    fl_call_filter_destroy(calls, pol, from_own);
    fl_buf_free(&enc);
}

/* The SST's keys for the model, in ck->tr_keys (room for their hashes in
 * ck->tr_hash); false when out of memory. */
static bool model_keys(fl_checker *ck, const ck_sst *s) {
    if (s->nkeys > ck->tr_cap) {
        size_t cap = ck->tr_cap ? ck->tr_cap : 1024;
        while (cap < s->nkeys) cap *= 2;
        fl_model_bytes *k = malloc(cap * sizeof *k);
        uint64_t *h = malloc(cap * sizeof *h);
        if (!k || !h) { free(k); free(h); return false; }
        free(ck->tr_keys);
        free(ck->tr_hash);
        ck->tr_keys = k;
        ck->tr_hash = h;
        ck->tr_cap = cap;
    }
    for (size_t i = 0; i < s->nkeys; i++) ck->tr_keys[i] = (fl_model_bytes){ s->keys[i].key, s->keys[i].len };
    return true;
}

/* The model's reference build over the SST's keys (ck->tr_keys) with cfg,
 * or with NULL the Legacy bloom at legacy_millibits, and the hashes it set
 * (*hashes, malloc'd).  *key_hashed: whether ck->tr_hash holds every key's
 * hash (the first whole-key build fills it). */
static bool reference_build(fl_checker *ck, const ck_sst *s, const fl_model_bloom_config *cfg,
                            uint32_t legacy_millibits, bool *key_hashed, fl_model_bloom *ref,
                            uint64_t **hashes) {
    fl_model_bloom_hashed hd = { NULL, *key_hashed ? NULL : ck->tr_hash };
    int rc = cfg ? fl_model_bloom_build_hashed(ref, cfg, ck->tr_keys, s->nkeys, &hd)
                 : fl_model_legacy_build_hashed(ref, legacy_millibits, ck->tr_keys, s->nkeys, &hd);
    *hashes = hd.hashes;
    if (rc != FL_MODEL_OK) return false;
    if (!cfg || cfg->whole_key) *key_hashed = true;
    return true;
}

static bool same_bytes(const fl_model_bloom *ref, const ck_sub *sub) {
    return ref->encoded_len == sub->len && memcmp(ref->encoded, sub->data, sub->len) == 0;
}

/* Checks bytes and names of a new SST against its writer's configuration;
 * *key_hashed as for reference_build. */
static void check_written(fl_checker *ck, ck_sst *s, builders *bl, bool *key_hashed) {
    const ck_config *w = s->writer;
    if (s->block_bad) {
        ck_violation(ck, FL_P10, "sst %llu: the engine wrote a filter block that does not parse",
                     (unsigned long long)s->id);
        return;
    }
    bool want_filters = s->nkeys >= w->min_filter_keys;
    if (!model_keys(ck, s)) return;
    if (w->legacy) {
        const ck_policy *b = ck_config_first_bloom(w);
        if (s->format != 0 && (b || s->nsubs))
            ck_violation(ck, FL_P5, "sst %llu: written with legacy_filters=1 but its filter block is "
                         "not Legacy", (unsigned long long)s->id);
        else if (b && want_filters && s->nsubs != 1)
            ck_violation(ck, FL_P5, "sst %llu: legacy_filters=1 with %s configured, but no Legacy "
                         "filter block", (unsigned long long)s->id, b->name);
        else if (b && want_filters) {
            fl_model_bloom ref;
            uint64_t *hashes;
            bool built = reference_build(ck, s, NULL, b->millibits, key_hashed, &ref, &hashes);
            bool same = built && same_bytes(&ref, &s->subs[0]);
            if (built && !same)
                ck_violation(ck, FL_P5, "sst %llu: Legacy filter bytes differ from the reference "
                             "whole-key bloom at %u millibits (%zu bytes stored, %zu expected)",
                             (unsigned long long)s->id, b->millibits, s->subs[0].len,
                             ref.encoded_len);
            if (built) ck_p9_note_filter(&s->subs[0], &ref, hashes, same);
            else free(hashes);
            fl_model_bloom_free(&ref);
        }
        return;
    }
    /* every configured policy whose filter was built is there, nothing else */
    for (size_t i = 0; i < w->count; i++) {
        const ck_policy *p = &w->items[i];
        bool present = false;
        for (size_t j = 0; j < s->nsubs; j++) present |= strcmp(s->subs[j].name, p->name) == 0;
        if (!want_filters && present)
            ck_violation(ck, FL_P8, "sst %llu holds %zu entries, fewer than min_filter_keys %llu, yet "
                         "carries sub-filter \"%s\"", (unsigned long long)s->id, s->nkeys,
                         (unsigned long long)w->min_filter_keys, p->name);
        else if (want_filters && !present && p->bloom)
            ck_violation(ck, FL_P5, "sst %llu: no sub-filter \"%s\" though that policy wrote it",
                         (unsigned long long)s->id, p->name);
    }
    for (size_t j = 0; j < s->nsubs; j++) {
        ck_sub *sub = &s->subs[j];
        const ck_policy *p = ck_config_find(w, sub->name);
        if (!p) {
            ck_violation(ck, FL_P8, "sst %llu carries sub-filter \"%s\", which its writer was not "
                         "configured with", (unsigned long long)s->id, sub->name);
            continue;
        }
        if (p->bloom) {
            fl_model_bloom ref;
            uint64_t *hashes;
            bool built = reference_build(ck, s, &p->bloom_cfg, 0, key_hashed, &ref, &hashes);
            bool same = built && same_bytes(&ref, sub);
            if (built && !same)
                ck_violation(ck, FL_P5, "sst %llu sub-filter \"%s\": stored bytes differ from the "
                             "reference bloom (%zu bytes stored, %zu expected, m=%llu lines=%llu k=%u)",
                             (unsigned long long)s->id, sub->name, sub->len, ref.encoded_len,
                             (unsigned long long)ref.m, (unsigned long long)ref.lines, ref.k);
            if (built) ck_p9_note_filter(sub, &ref, hashes, same);
            else free(hashes);
            fl_model_bloom_free(&ref);
        }
        /* P11: the checker's own build of the same policy */
        for (size_t b = 0; b < bl->n; b++) {
            if (bl->pol[b] != p || !bl->b[b]) continue;
            fl_filter *built = NULL;
            int rc = fl_call_build(ck->own_calls, p->policy, bl->b[b], &built);
            fl_call_builder_destroy(ck->own_calls, p->policy, bl->b[b]);
            bl->b[b] = NULL;
            if (rc == FL_OK && built) {
                round_trip(ck, s, sub, p, built);
                fl_call_filter_destroy(ck->own_calls, p->policy, built);
            }
        }
    }
}

/* P6: the key range the SST's info block gives (the engine's reads skip
 * the SST for any key outside it) covers every entry and every range
 * tombstone's keys, and the entries come in order; reported once per SST.
 * A tombstone [start, end) is covered when start >= smallest and end <=
 * largest (exclusive) or end <= largest's successor, largest || 0x00
 * (inclusive). */
static void check_range(fl_checker *ck, const ck_sst *s, const fl_sst_meta *m, size_t disorder) {
    char what[400] = "", a[160] = "", b[160] = "";
    if (disorder) {
        const ck_key *x = &s->keys[disorder - 2], *y = &s->keys[disorder - 1];
        ck_str(a, sizeof a, x->key, x->len);
        ck_str(b, sizeof b, y->key, y->len);
        ck_violation(ck, FL_P6, "sst %llu's entries are out of order: entry %zu (%s, seq %llu) comes after "
                     "entry %zu (%s, seq %llu)", (unsigned long long)s->id, disorder, b,
                     (unsigned long long)y->seq, disorder - 1, a, (unsigned long long)x->seq);
        return;
    }
    const ck_key *k = NULL;
    if (s->nkeys && ck_cmp(s->keys[0].key, s->keys[0].len, m->smallest, m->smallest_len) < 0) k = &s->keys[0];
    else if (s->nkeys) {
        const ck_key *last = &s->keys[s->nkeys - 1];
        int c = ck_cmp(last->key, last->len, m->largest, m->largest_len);
        if (c > 0 || (c == 0 && m->largest_exclusive)) k = last;
    }
    if (k) {
        ck_str(a, sizeof a, k->key, k->len);
        snprintf(what, sizeof what, "its entry %s", a);
    }
    for (size_t i = 0; !what[0] && i < s->nrts; i++) {
        const ck_rt *r = &s->rts[i];
        int c = ck_cmp(r->end, r->elen, m->largest, m->largest_len);
        bool past = c > 0 &&
                    (m->largest_exclusive || r->elen != m->largest_len + 1 || r->end[m->largest_len] != 0);
        if (ck_cmp(r->start, r->slen, m->smallest, m->smallest_len) >= 0 && !past) continue;
        ck_str(a, sizeof a, r->start, r->slen);
        ck_str(b, sizeof b, r->end, r->elen);
        snprintf(what, sizeof what, "the keys of its range tombstone [%s, %s)", a, b);
    }
    if (!what[0]) return;
    a[0] = b[0] = 0;
    ck_str(a, sizeof a, m->smallest, m->smallest_len);
    ck_str(b, sizeof b, m->largest, m->largest_len);
    ck_violation(ck, FL_P6, "sst %llu's key range [%s, %s%s, by which reads pick it, does not cover %s",
                 (unsigned long long)s->id, a, b, m->largest_exclusive ? ")" : "]", what);
}

static int load_sst(fl_checker *ck, const fl_sst_meta *m, bool adopting, ck_sst **out) {
    ck_sst *s = calloc(1, sizeof *s);
    if (!s) return FL_ERR_NOMEM;
    s->id = m->id;
    s->level = m->level;
    /* the writer: flushes write L0 with the writer's list, compactions runs;
     * unknown for an SST that was there before the checker opened the db */
    if (ck->cfg.check && !adopting) s->writer = ck_config_ref(m->level == 0 ? ck->writer : ck->compactor);
    builders bl = { 0 };
    const ck_config *w = s->writer;
    if (w && !w->legacy && w->count) {
        bl.pol = calloc(w->count, sizeof *bl.pol);
        bl.b = calloc(w->count, sizeof *bl.b);
        if (bl.pol && bl.b) {
            for (size_t i = 0; i < w->count; i++) {
                bl.pol[bl.n] = &w->items[i];
                if (fl_call_new_builder(ck->own_calls, w->items[i].policy, &bl.b[bl.n]) != FL_OK)
                    bl.b[bl.n] = NULL;
                bl.n++;
            }
        }
    }
    load_ctx lc = { .ck = ck, .s = s, .bl = &bl, .rc = FL_OK };
    /* the keys' room at once (the entries the manifest counts; more if it
     * is wrong) */
    if (m->entries && m->entries < SIZE_MAX / sizeof *s->keys && (s->keys = malloc(m->entries * sizeof *s->keys)))
        lc.cap = m->entries;
    ck_engine_enter(ck, "sst_entries");
    int rc = ck->eng->sst_entries(ck->db, m->id, on_entry, &lc);
    ck_engine_leave(ck);
    if (!rc) rc = lc.rc;
    for (size_t i = 0, off = 0; !rc && i < s->nkeys; off += s->keys[i++].len)
        s->keys[i].key = s->key_bytes + off;
    if (!rc) {
        ck_engine_enter(ck, "sst_range_tombstones");
        rc = ck->eng->sst_range_tombstones(ck->db, m->id, on_rt, &lc);
        ck_engine_leave(ck);
    }
    if (!rc) rc = lc.rc;
    if (!rc) rc = ck_spans_build(&s->rt_spans, s->rts, s->nrts);
    if (!rc && ck->cfg.check) check_range(ck, s, m, lc.disorder);
    fl_buf fb;
    fl_buf_init(&fb);
    if (!rc) {
        ck_engine_enter(ck, "sst_filter_block");
        int r2 = ck->eng->sst_filter_block(ck->db, m->id, &fb, &s->format);
        ck_engine_leave(ck);
        if (r2 == FL_ERR_CORRUPT) s->block_bad = true;
        else rc = r2;
    }
    if (!rc && fb.len) {
        s->block = fb.data;
        s->block_len = fb.len;
        fb.data = NULL;
        if (!s->block_bad && !parse_block(s)) s->block_bad = true;
    }
    fl_buf_free(&fb);
    /* the writing checks first: a whole-key reference build hashes the keys
     * for the index */
    bool key_hashed = false;
    if (!rc && s->writer) check_written(ck, s, &bl, &key_hashed);
    if (!rc && !build_index(s, key_hashed ? ck->tr_hash : NULL)) rc = FL_ERR_NOMEM;
    for (size_t i = 0; i < bl.n; i++)
        if (bl.b[i]) fl_call_builder_destroy(ck->own_calls, bl.pol[i]->policy, bl.b[i]);
    free(bl.pol);
    free(bl.b);
    if (rc) {
        sst_free(s);
        return ck_fail(ck, rc, "reading the truth of sst %llu: %s", (unsigned long long)m->id,
                       ck->eng->errmsg(ck->db));
    }
    *out = s;
    return FL_OK;
}

/* An engine without the SST truth views but with sst_filter (a reader of
 * its files): each SST's filter is read once, when the SST first appears,
 * and what the reader found is judged -- a file it cannot read (P6: the
 * engine wrote what its own format forbids) and a filter whose bytes differ
 * from the engine's algorithm rebuilt over the SST's entries (P5). */
static int inspect_filter(fl_checker *ck, const fl_sst_meta *m) {
    if (!ck->cfg.check || !ck->eng->sst_filter) return FL_OK;
    const fl_sst_filter *f;
    ck_engine_enter(ck, "sst_filter");
    int rc = ck->eng->sst_filter(ck->db, m->id, &f);
    ck_engine_leave(ck);
    if (rc == FL_ERR_CORRUPT) {
        ck_violation(ck, FL_P6, "sst %llu: its file breaks the engine's own format: %s",
                     (unsigned long long)m->id, ck->eng->errmsg(ck->db));
        return FL_OK;
    }
    if (rc) return ck_fail(ck, rc, "reading the filter of sst %llu: %s", (unsigned long long)m->id,
                           ck->eng->errmsg(ck->db));
    if (f->defect[0])
        ck_violation(ck, FL_P5, "sst %llu: %s", (unsigned long long)m->id, f->defect);
    return FL_OK;
}

/* Lists the live SSTs; loads the new ones, forgets the gone ones.  Right
 * after an open, an SST not seen before was there already: its writer is
 * unknown, so what it was written with is not checked.  An engine without
 * the SST truth views (RocksDB) only has its list kept. */
int ck_tree_refresh(fl_checker *ck, bool after_open) {
    bool force = after_open;
    if (!ck->eng->ssts) return FL_OK;             /* the engine shows no SSTs */
    bool truth = ck->eng->sst_entries && ck->eng->sst_range_tombstones && ck->eng->sst_filter_block;
    fl_metrics m;
    ck->eng->metrics(ck->db, &m);
    uint64_t stamp = m.ssts_written * 1000003u + m.compactions * 7919u + m.flushes;
    if (!force && stamp == ck->tree_stamp) return FL_OK;
    ck->tree_stamp = stamp;
    fl_sst_meta_free(ck->metas, ck->nmetas);
    ck->metas = NULL;
    ck->nmetas = 0;
    ck_engine_enter(ck, "ssts");
    int rc = ck->eng->ssts(ck->db, &ck->metas, &ck->nmetas);
    ck_engine_leave(ck);
    if (rc) return ck_fail(ck, rc, "listing SSTs: %s", ck->eng->errmsg(ck->db));
    uint64_t max_id = 0;
    for (size_t i = 0; i < ck->nmetas; i++) if (ck->metas[i].id > max_id) max_id = ck->metas[i].id;
    if (max_id >= ck->ssts_cap) {
        size_t cap = ck->ssts_cap ? ck->ssts_cap : 64;
        while (cap <= max_id) cap *= 2;
        ck_sst **n = realloc(ck->ssts, cap * sizeof *n);
        if (!n) return FL_ERR_NOMEM;
        memset(n + ck->ssts_cap, 0, (cap - ck->ssts_cap) * sizeof *n);
        ck->ssts = n;
        uint8_t *in = realloc(ck->inspected, cap);
        if (!in) return FL_ERR_NOMEM;
        memset(in + ck->ssts_cap, 0, cap - ck->ssts_cap);
        ck->inspected = in;
        ck->ssts_cap = cap;
    }
    /* the loaded SSTs are ck->held; one listing's work is in the SSTs
     * listed and held, not in the ids ever written */
    if (ck->nheld + ck->nmetas > ck->held_cap) {
        size_t cap = ck->held_cap ? ck->held_cap : 64;
        while (cap < ck->nheld + ck->nmetas) cap *= 2;
        uint64_t *n = realloc(ck->held, cap * sizeof *n);
        if (!n) return FL_ERR_NOMEM;
        ck->held = n;
        ck->held_cap = cap;
    }
    uint64_t listing = ++ck->listings;
    for (size_t i = 0; i < ck->nmetas; i++) {
        uint64_t id = ck->metas[i].id;
        if (!ck->ssts[id]) {
            if (!truth) {
                if (!ck->inspected[id] && (rc = inspect_filter(ck, &ck->metas[i]))) break;
                ck->inspected[id] = 1;
                continue;
            }
            if ((rc = load_sst(ck, &ck->metas[i], after_open, &ck->ssts[id]))) break;
            ck->held[ck->nheld++] = id;
        }
        ck->ssts[id]->level = ck->metas[i].level;
        ck->ssts[id]->listed = listing;
    }
    size_t kept = 0;
    for (size_t i = 0; i < ck->nheld; i++) {
        uint64_t id = ck->held[i];
        if (ck->ssts[id]->listed == listing || rc) ck->held[kept++] = id;
        else {
            sst_free(ck->ssts[id]);
            ck->ssts[id] = NULL;
        }
    }
    ck->nheld = kept;
    return rc;
}

/* ---- Reader-side reference filters --------------------------------------------- */

const fl_model_bloom *ck_sub_reference(fl_checker *ck, ck_sst *s, size_t i) {
    ck_sub *sub = &s->subs[i];
    if (sub->ref_generation == ck->generation) return sub->ref_ok ? &sub->ref : NULL;
    fl_model_bloom_free(&sub->ref);
    sub->ref_generation = ck->generation;
    sub->ref_ok = false;
    fl_model_bloom_config cfg;
    if (s->format == 0) {
        /* Legacy: whole keys only, whatever the configured bloom hashes */
        if (!ck_config_first_bloom(ck->writer)) return NULL;
        memset(&cfg, 0, sizeof cfg);
        cfg.whole_key = true;
    } else {
        const ck_policy *p = ck_config_find(ck->writer, sub->name);
        if (!p || !p->bloom) return NULL;
        cfg = p->bloom_cfg;
    }
    sub->ref_ok = fl_model_bloom_decode(&sub->ref, &cfg, sub->data, sub->len) == FL_MODEL_OK;
    /* the exact rate reads only k, lines and the bits: those of the
     * reference build when P5 found the stored bytes equal to them */
    if (sub->ref_ok)
        sub->ref_expected = sub->p9 && sub->p9_stored ? sub->p9_expected : fl_model_bloom_expected_exact(&sub->ref);
    return sub->ref_ok ? &sub->ref : NULL;
}
