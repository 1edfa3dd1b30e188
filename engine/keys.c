/*
 * keys.c -- the small helpers every part of the engine shares: prefix
 * ranges, range tombstone coverage over [start, end) and the tombstone
 * index.  The orders themselves (bytewise, memcmp with the shorter prefix
 * first; entries by key ascending, seq descending) are inline in
 * engine_internal.h.
 */
#include "engine_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fl_fail(char *err, size_t cap, int status, const char *fmt, ...) {
    if (err && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, cap, fmt, ap);
        va_end(ap);
    }
    return status;
}

int fl_key_cmp(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen) {
    return fl_bytes_cmp(a, alen, b, blen);
}

const char *fl_key_text(const uint8_t *p, size_t n, char out[FL_KEY_TEXT]) {
    size_t o = 0;
    out[o++] = '"';
    for (size_t i = 0; i < n && i < 40; i++) {
        if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '"' && p[i] != '\\') out[o++] = (char)p[i];
        else o += (size_t)snprintf(out + o, 5, "\\x%02x", p[i]);
    }
    out[o++] = '"';
    if (n > 40) o += (size_t)snprintf(out + o, 24, "...(%zu bytes)", n);
    out[o] = '\0';
    return out;
}

bool fl_has_prefix(const uint8_t *k, size_t klen, const uint8_t *p, size_t plen) {
    return klen >= plen && (plen == 0 || memcmp(k, p, plen) == 0);
}

bool fl_prefix_successor(const uint8_t *p, size_t plen, uint8_t **out, size_t *out_len) {
    size_t n = plen;
    while (n > 0 && p[n - 1] == 0xFF) n--;
    if (n == 0) return false;
    uint8_t *s = fl_memdup(p, n);
    if (!s) return false;
    s[n - 1]++;
    *out = s;
    *out_len = n;
    return true;
}

bool fl_rtomb_covers(const fl_rtomb *rt, const uint8_t *k, size_t klen) {
    return fl_bytes_cmp(rt->start, rt->slen, k, klen) <= 0 &&
           fl_bytes_cmp(k, klen, rt->end, rt->elen) < 0;
}

void *fl_memdup(const void *p, size_t n) {
    uint8_t *d = malloc(n ? n : 1);
    if (d && n) memcpy(d, p, n);
    return d;
}

int fl_rtomb_list_add(fl_rtomb_list *l, const uint8_t *s, size_t slen,
                      const uint8_t *e, size_t elen, uint64_t seq) {
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        fl_rtomb *n = realloc(l->items, cap * sizeof *n);
        if (!n) return FL_ERR_NOMEM;
        l->items = n;
        l->cap = cap;
    }
    fl_rtomb *rt = &l->items[l->count];
    rt->start = fl_memdup(s, slen);
    rt->end = fl_memdup(e, elen);
    if (!rt->start || !rt->end) { free(rt->start); free(rt->end); return FL_ERR_NOMEM; }
    rt->slen = slen;
    rt->elen = elen;
    rt->seq = seq;
    l->count++;
    return FL_OK;
}

void fl_rtomb_list_free(fl_rtomb_list *l) {
    for (size_t i = 0; i < l->count; i++) {
        free(l->items[i].start);
        free(l->items[i].end);
    }
    free(l->items);
    free(l->frags);
    memset(l, 0, sizeof *l);
}

/* ---- The tombstone index --------------------------------------------------
 * A sweep over the starts and ends in key order -- and over the pieces of
 * the index so far, when tombstones are merged into it -- with two max-heaps
 * of seqs: the tombstones begun and the tombstones ended (lazy deletion: the
 * ended are a sub-multiset of the begun, so while both tops are equal both
 * are popped, and then the top of the begun is the highest seq still open;
 * a piece's seq below it is the index's). */

typedef struct rt_event { const uint8_t *key; size_t len; uint64_t seq; bool start; } rt_event;

static int rt_event_cmp(const void *a, const void *b) {
    const rt_event *x = a, *y = b;
    return fl_bytes_cmp(x->key, x->len, y->key, y->len);
}

static void heap_push(uint64_t *h, size_t *n, uint64_t v) {
    size_t i = (*n)++;
    while (i > 0 && h[(i - 1) / 2] < v) { h[i] = h[(i - 1) / 2]; i = (i - 1) / 2; }
    h[i] = v;
}

static void heap_pop(uint64_t *h, size_t *n) {
    uint64_t v = h[--*n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n) break;
        if (c + 1 < *n && h[c + 1] > h[c]) c++;
        if (h[c] <= v) break;
        h[i] = h[c];
        i = c;
    }
    if (*n) h[i] = v;
}

/* Appends a piece unless it continues the last one's seq (the key space
 * before the first piece has none). */
static void frag_push(fl_rtomb_frag *out, size_t *m, fl_rtomb_frag f) {
    if (f.max_seq != (*m ? out[*m - 1].max_seq : 0)) out[(*m)++] = f;
}

/* One more tombstone into a current index, in one pass over its pieces:
 * those below the start kept, a piece at the start, those inside raised to
 * the tombstone's seq, a piece at the end with the seq that was there. */
static int index_one(fl_rtomb_list *l, const fl_rtomb *rt) {
    if (fl_bytes_cmp(rt->start, rt->slen, rt->end, rt->elen) >= 0) return FL_OK;     /* empty */
    const fl_rtomb_frag *in = l->frags;
    size_t n = l->frag_count, m = 0, i = 0;
    fl_rtomb_frag *out = malloc((n + 2) * sizeof *out);
    if (!out) return FL_ERR_NOMEM;
    uint64_t at = 0;                            /* the seq where the last piece read begins */
    for (; i < n && fl_bytes_cmp(in[i].key, in[i].len, rt->start, rt->slen) < 0; i++)
        frag_push(out, &m, in[i]), at = in[i].max_seq;
    if (i < n && fl_bytes_cmp(in[i].key, in[i].len, rt->start, rt->slen) == 0) at = in[i++].max_seq;
    frag_push(out, &m, (fl_rtomb_frag){ rt->start, rt->slen, at > rt->seq ? at : rt->seq });
    for (; i < n && fl_bytes_cmp(in[i].key, in[i].len, rt->end, rt->elen) < 0; i++) {
        at = in[i].max_seq;
        frag_push(out, &m, (fl_rtomb_frag){ in[i].key, in[i].len, at > rt->seq ? at : rt->seq });
    }
    if (i < n && fl_bytes_cmp(in[i].key, in[i].len, rt->end, rt->elen) == 0) at = in[i++].max_seq;
    frag_push(out, &m, (fl_rtomb_frag){ rt->end, rt->elen, at });
    for (; i < n; i++) frag_push(out, &m, in[i]);
    free(l->frags);
    l->frags = out;
    l->frag_count = m;
    return FL_OK;
}

/* The index of pieces in[0..n) (those of items[0..from)) and of the
 * tombstones from `from` on, in one sweep over the pieces and those
 * tombstones' sorted starts and ends: O(n + t log t) for t of them. */
static int sweep(fl_rtomb_list *l, const fl_rtomb_frag *in, size_t n, size_t from) {
    size_t t = l->count - from, m = 0;
    rt_event *ev = malloc((2 * t + 1) * sizeof *ev);
    uint64_t *open = malloc((t + 1) * sizeof *open), *ended = malloc((t + 1) * sizeof *ended);
    fl_rtomb_frag *out = malloc((n + 2 * t + 1) * sizeof *out);
    if (!ev || !open || !ended || !out) {
        free(ev); free(open); free(ended); free(out);
        return FL_ERR_NOMEM;
    }
    for (size_t i = from; i < l->count; i++) {
        const fl_rtomb *rt = &l->items[i];
        if (fl_bytes_cmp(rt->start, rt->slen, rt->end, rt->elen) >= 0) continue;   /* empty */
        ev[m++] = (rt_event){ rt->start, rt->slen, rt->seq, true };
        ev[m++] = (rt_event){ rt->end, rt->elen, rt->seq, false };
    }
    qsort(ev, m, sizeof *ev, rt_event_cmp);
    size_t p = 0, e = 0, nopen = 0, nended = 0, nf = 0;
    uint64_t base = 0;                        /* the index's seq at the key */
    while (p < n || e < m) {
        const uint8_t *key = p < n ? in[p].key : ev[e].key;
        size_t len = p < n ? in[p].len : ev[e].len;
        if (p < n && e < m && fl_bytes_cmp(ev[e].key, ev[e].len, key, len) < 0) { key = ev[e].key; len = ev[e].len; }
        for (; p < n && fl_bytes_cmp(in[p].key, in[p].len, key, len) == 0; p++) base = in[p].max_seq;
        for (; e < m && fl_bytes_cmp(ev[e].key, ev[e].len, key, len) == 0; e++) {
            if (ev[e].start) heap_push(open, &nopen, ev[e].seq);
            else heap_push(ended, &nended, ev[e].seq);
        }
        while (nopen && nended && open[0] == ended[0]) { heap_pop(open, &nopen); heap_pop(ended, &nended); }
        uint64_t top = nopen && open[0] > base ? open[0] : base;
        frag_push(out, &nf, (fl_rtomb_frag){ key, len, top });
    }
    free(ev); free(open); free(ended);
    free(l->frags);
    l->frags = out;
    l->frag_count = nf;
    l->indexed = l->count;
    return FL_OK;
}

int fl_rtomb_list_index(fl_rtomb_list *l) { return sweep(l, NULL, 0, 0); }

/* The tombstones past the index merged into it. */
static int index_merge_tail(fl_rtomb_list *l) { return sweep(l, l->frags, l->frag_count, l->indexed); }

int fl_rtomb_list_catch_up(fl_rtomb_list *l) {
    size_t tail = l->count - l->indexed;
    if (l->frag_count <= FL_RTOMB_FEW_PIECES) {
        if (tail > FL_RTOMB_ONE_BY_ONE) return index_merge_tail(l);
        for (; l->indexed < l->count; l->indexed++) {
            int rc = index_one(l, &l->items[l->indexed]);
            if (rc) return rc;
        }
        return FL_OK;
    }
    size_t root = 1;
    while (root * root < l->count) root++;
    return tail > 8 + root ? index_merge_tail(l) : FL_OK;
}

/* The highest seq among the tombstones past the index covering k, or m. */
static uint64_t tail_max_seq(const fl_rtomb_list *l, const uint8_t *k, size_t klen, uint64_t m) {
    for (size_t i = l->indexed; i < l->count; i++)
        if (l->items[i].seq > m && fl_rtomb_covers(&l->items[i], k, klen)) m = l->items[i].seq;
    return m;
}

size_t fl_rtomb_first_after(const fl_rtomb_list *l, size_t lo, size_t hi, const uint8_t *k, size_t klen) {
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (fl_bytes_cmp(l->frags[mid].key, l->frags[mid].len, k, klen) <= 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

uint64_t fl_rtomb_max_seq(const fl_rtomb_list *l, const uint8_t *k, size_t klen) {
    if (l->count == 0) return 0;                  /* the usual case: no tombstone */
    size_t lo = fl_rtomb_first_after(l, 0, l->frag_count, k, klen);
    uint64_t m = lo ? l->frags[lo - 1].max_seq : 0;
    return l->indexed == l->count ? m : tail_max_seq(l, k, klen, m);
}

/* at: how many pieces start at or below the last key asked.  Forward, a
 * few steps and then a search of the rest (a first key far in, a jump);
 * back, a search of what is behind.  With tombstones past the index (a
 * huge memtable's newest), a search and a pass over those, as
 * fl_rtomb_max_seq. */
#define FL_RTOMB_CURSOR_STEPS 4

uint64_t fl_rtomb_cursor_max_seq(fl_rtomb_cursor *c, const uint8_t *k, size_t klen) {
    const fl_rtomb_list *l = c->list;
    if (l->count == 0) return 0;
    if (l->indexed != l->count) return fl_rtomb_max_seq(l, k, klen);      /* a tail: searched */
    size_t at = c->at, lo = 0, hi = at;
    if (at == 0 || fl_bytes_cmp(l->frags[at - 1].key, l->frags[at - 1].len, k, klen) <= 0) {
        for (unsigned step = 0;; step++, at++) {
            if (at == l->frag_count || fl_bytes_cmp(l->frags[at].key, l->frags[at].len, k, klen) > 0) {
                c->at = at;
                return at ? l->frags[at - 1].max_seq : 0;
            }
            if (step == FL_RTOMB_CURSOR_STEPS) break;
        }
        lo = at + 1;                             /* pieces up to at start at or below k */
        hi = l->frag_count;
    }
    c->at = lo = fl_rtomb_first_after(l, lo, hi, k, klen);
    return lo ? l->frags[lo - 1].max_seq : 0;
}

/* ---- SST metadata helpers (engine.h) ------------------------------------- */

bool fl_sst_covers_key(const fl_sst_meta *m, fl_slice key) {
    if (fl_bytes_cmp(key.data, key.len, m->smallest, m->smallest_len) < 0) return false;
    int c = fl_bytes_cmp(key.data, key.len, m->largest, m->largest_len);
    return c < 0 || (c == 0 && !m->largest_exclusive);
}

bool fl_sst_overlaps_range(const fl_sst_meta *m, fl_slice start, fl_slice end, bool end_open) {
    /* [start, end) (or [start, +inf) when end_open) against the SST's range */
    int c = fl_bytes_cmp(start.data, start.len, m->largest, m->largest_len);
    if (c > 0 || (c == 0 && m->largest_exclusive)) return false;
    if (!end_open && fl_bytes_cmp(m->smallest, m->smallest_len, end.data, end.len) >= 0)
        return false;
    return true;
}
