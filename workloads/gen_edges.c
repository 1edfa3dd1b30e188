/*
 * gen_edges.c -- the bounds the engine keeps, as the generator sees them, and
 * read targets at and around them.
 *
 * An off-by-one in an engine hides at a bound: an SST's first and last key,
 * a range tombstone's start and its exclusive end, which is an SST's largest
 * key when it lies beyond the SST's entries.  Random reads almost never land
 * exactly there.  The driver (gen.c) reports every write, flush, compaction
 * and reopen; this file keeps the bounds of the writes since the last flush
 * (those of the SST the next flush writes), counts the memtable as the
 * engine does (key + value + 24 bytes an entry, start + end + 24 a range
 * tombstone; a flush when it reaches memtable_bytes) so that flushes the
 * workload does not spell out are seen too, and keeps a ring of recent
 * edges for reads to aim at, with their neighbours in byte order.
 *
 * Invariant: nothing here draws from the rng but pick and near, so the edges
 * are a function of the ops written, and generation stays deterministic.  An
 * estimate that is off (an engine counting its memtable otherwise) makes
 * edges a little less exact, never a read wrong: the driver checks every
 * target against what was written, as for any other read.
 */
#include "gen_internal.h"

#include <string.h>

/* The engine's default flush threshold (SPEC 2.5), until an open says. */
#define DEFAULT_MEMTABLE_BYTES 65536
/* What the engine counts per memtable entry besides its bytes. */
#define ENTRY_OVERHEAD 24

void fl_gen_edges_free(fl_gen_edges *e) {
    for (size_t i = 0; i < FL_GEN_EDGE_RING; i++) fl_gen_buf_free(&e->ring[i]);
    fl_gen_buf_free(&e->lo);
    fl_gen_buf_free(&e->hi);
    fl_gen_buf_free(&e->min);
    fl_gen_buf_free(&e->max);
    memset(e, 0, sizeof *e);
}

static int cmp(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
    size_t n = an < bn ? an : bn;
    int c = n ? memcmp(a, b, n) : 0;
    return c ? c : (an > bn) - (an < bn);
}

static void note_nomem(fl_gen_edges *e, const fl_gen_buf *b) {
    if (b->nomem) e->nomem = true;
}

/* Adds k to the ring unless it is there already. */
static void push(fl_gen_edges *e, const uint8_t *k, size_t n) {
    for (size_t i = 0; i < e->count; i++)
        if (cmp(e->ring[i].p, e->ring[i].len, k, n) == 0) return;
    fl_gen_buf *slot = &e->ring[e->next];
    fl_gen_buf_set(slot, k, n);
    note_nomem(e, slot);
    e->next = (e->next + 1) % FL_GEN_EDGE_RING;
    if (e->count < FL_GEN_EDGE_RING) e->count++;
}

/* Widens [lo, hi] to take in [a, b]. */
static void widen(fl_gen_edges *e, fl_gen_buf *lo, fl_gen_buf *hi, bool *have, const uint8_t *a,
                  size_t an, const uint8_t *b, size_t bn) {
    if (!*have || cmp(a, an, fl_gen_buf_bytes(lo), lo->len) < 0) fl_gen_buf_set(lo, a, an);
    if (!*have || cmp(b, bn, fl_gen_buf_bytes(hi), hi->len) > 0) fl_gen_buf_set(hi, b, bn);
    *have = true;
    note_nomem(e, lo);
    note_nomem(e, hi);
}

void fl_gen_edges_cut(fl_gen_edges *e) {
    if (e->have_bounds) {
        push(e, e->lo.p, e->lo.len);
        push(e, e->hi.p, e->hi.len);
    }
    e->have_bounds = false;
    e->mem_bytes = 0;
}

void fl_gen_edges_set_memtable(fl_gen_edges *e, uint64_t bytes) { e->memtable_bytes = bytes; }

/* Counts an entry of `bytes` and flushes the way the engine would. */
static void count(fl_gen_edges *e, uint64_t bytes) {
    uint64_t limit = e->memtable_bytes ? e->memtable_bytes : DEFAULT_MEMTABLE_BYTES;
    e->mem_bytes += bytes + ENTRY_OVERHEAD;
    if (e->mem_bytes >= limit) fl_gen_edges_cut(e);
}

void fl_gen_edges_write(fl_gen_edges *e, const uint8_t *k, size_t n, size_t vlen) {
    widen(e, &e->lo, &e->hi, &e->have_bounds, k, n, k, n);
    widen(e, &e->min, &e->max, &e->have_all, k, n, k, n);
    count(e, (uint64_t)n + vlen);
}

void fl_gen_edges_range(fl_gen_edges *e, const uint8_t *s, size_t sn, const uint8_t *end,
                        size_t en) {
    push(e, s, sn);
    push(e, end, en);
    widen(e, &e->lo, &e->hi, &e->have_bounds, s, sn, end, en);
    widen(e, &e->min, &e->max, &e->have_all, s, sn, end, en);
    count(e, (uint64_t)sn + en);
}

void fl_gen_edges_compact(fl_gen_edges *e) {
    if (!e->have_all) return;
    push(e, e->min.p, e->min.len);
    push(e, e->max.p, e->max.len);
}

/* ---- Targets ------------------------------------------------------------------ */

/* An edge, NULL when there is none: a quarter of the time a bound of the
 * writes since the last flush (the SST being filled), else one of the ring,
 * half of those among the 8 newest (the L0 SSTs reads go through first).
 * The pointer is valid until the edges change. */
static const uint8_t *pick(fl_gen_edges *e, fl_gen_rng *r, size_t *len) {
    if (e->have_bounds && (e->count == 0 || fl_gen_chance(r, 0.25))) {
        const fl_gen_buf *b = fl_gen_chance(r, 0.5) ? &e->lo : &e->hi;
        *len = b->len;
        return b->p ? b->p : (const uint8_t *)"";
    }
    if (e->count == 0) return NULL;
    size_t back = fl_gen_chance(r, 0.5) && e->count > 8 ? 8 : e->count;
    size_t i = (e->next + FL_GEN_EDGE_RING - 1 - (size_t)fl_gen_below(r, back)) % FL_GEN_EDGE_RING;
    *len = e->ring[i].len;
    return e->ring[i].p ? e->ring[i].p : (const uint8_t *)"";
}

/* A prefix length around the extractor lengths: the shape's natural prefix
 * or one byte off it, or 1..8.  At most n. */
static size_t near_length(fl_gen *g, const uint8_t *k, size_t n) {
    size_t nat = g->shape->natural_prefix(g, k, n), l;
    if (nat && fl_gen_chance(&g->rng, 0.4)) l = nat - 1 + (size_t)fl_gen_below(&g->rng, 3);
    else l = (size_t)fl_gen_between(&g->rng, 1, 8);
    return l < n ? l : n;
}

/* Appends the successor of p[0..n) as a prefix (the smallest string above
 * all that start with it); false when there is none (empty or all 0xFF). */
static bool append_successor(const uint8_t *p, size_t n, fl_gen_buf *out) {
    while (n && p[n - 1] == 0xff) n--;
    if (!n) return false;
    size_t at = out->len;
    fl_gen_buf_put(out, p, n);
    if (out->nomem) return true;
    out->p[at + n - 1]++;
    return true;
}

/* What a read target near an edge is. */
typedef enum near_kind {
    NEAR_SELF,              /* the edge itself                               */
    NEAR_NUL,               /* the edge and a 0x00: its successor            */
    NEAR_DROP_LAST,         /* the edge less its last byte                   */
    NEAR_PREV,              /* its last byte less one (dropped when 0x00)    */
    NEAR_NEXT,              /* the successor of the edge as a prefix         */
    NEAR_PREFIX,            /* a prefix around the extractor lengths         */
    NEAR_PREFIX_NEXT,       /* that prefix's successor, as a delrange ends   */
    NEAR_KINDS
} near_kind;

/* Appends to out the target of kind `near` for edge[0..n) (not in out).  A
 * kind that has no target for this edge (the predecessor of the empty key,
 * the successor of an all-0xFF prefix) gives the edge and a 0x00. */
static void near(fl_gen *g, const uint8_t *edge, size_t n, near_kind kind, fl_gen_buf *out) {
    size_t at = out->len, l;
    switch (kind) {
    case NEAR_SELF:
        fl_gen_buf_put(out, edge, n);
        return;
    case NEAR_DROP_LAST:
        if (!n) break;
        fl_gen_buf_put(out, edge, n - 1);
        return;
    case NEAR_PREV:
        if (!n) break;
        fl_gen_buf_put(out, edge, n - 1);
        if (edge[n - 1]) fl_gen_buf_byte(out, (uint8_t)(edge[n - 1] - 1));
        return;
    case NEAR_NEXT:
        if (append_successor(edge, n, out)) return;
        break;
    case NEAR_PREFIX:
        fl_gen_buf_put(out, edge, near_length(g, edge, n));
        return;
    case NEAR_PREFIX_NEXT:
        l = near_length(g, edge, n);
        if (append_successor(edge, l, out)) return;
        break;
    default:
        break;
    }
    out->len = at;                      /* NEAR_NUL, and kinds with no target here */
    fl_gen_buf_put(out, edge, n);
    fl_gen_buf_byte(out, 0x00);
}

/* Candidates tried before giving up on an edge target. */
#define EDGE_TRIES 8

bool fl_gen_edge_present_key(fl_gen *g, fl_gen_buf *out) {
    for (int t = 0; t < EDGE_TRIES; t++) {
        size_t n;
        const uint8_t *e = pick(&g->edges, &g->rng, &n);
        if (!e) return false;
        out->len = 0;
        near_kind kind = fl_gen_chance(&g->rng, 0.5) ? NEAR_SELF
                                                     : (near_kind)fl_gen_below(&g->rng, NEAR_KINDS);
        near(g, e, n, kind, out);
        if (out->nomem) return false;
        if (fl_gen_keyset_has(&g->written, fl_gen_buf_bytes(out), out->len)) return true;
    }
    return false;
}

bool fl_gen_edge_absent_key(fl_gen *g, fl_gen_buf *out) {
    if (!g->shape->may_put) return false;
    for (int t = 0; t < EDGE_TRIES; t++) {
        size_t n;
        const uint8_t *e = pick(&g->edges, &g->rng, &n);
        if (!e) return false;
        out->len = 0;
        near(g, e, n, (near_kind)fl_gen_below(&g->rng, NEAR_KINDS), out);
        if (out->nomem) return false;
        if (!fl_gen_keyset_has(&g->written, fl_gen_buf_bytes(out), out->len) &&
            !g->shape->may_put(g, fl_gen_buf_bytes(out), out->len))
            return true;
    }
    return false;
}

/* A prefix of an edge put earlier: the whole key (a prefix equal to an SST
 * bound) or a prefix around the extractor lengths. */
bool fl_gen_edge_present_prefix(fl_gen *g, fl_gen_buf *out) {
    for (int t = 0; t < EDGE_TRIES; t++) {
        size_t n;
        const uint8_t *e = pick(&g->edges, &g->rng, &n);
        if (!e) return false;
        if (!fl_gen_keyset_has(&g->written, e, n)) continue;
        out->len = 0;
        near(g, e, n, fl_gen_chance(&g->rng, 0.4) ? NEAR_SELF : NEAR_PREFIX, out);
        return !out->nomem;
    }
    return false;
}

bool fl_gen_edge_absent_prefix(fl_gen *g, fl_gen_buf *out) {
    for (int t = 0; t < EDGE_TRIES; t++) {
        size_t n;
        const uint8_t *e = pick(&g->edges, &g->rng, &n);
        if (!e) return false;
        out->len = 0;
        near(g, e, n, (near_kind)fl_gen_below(&g->rng, NEAR_KINDS), out);
        if (out->nomem) return false;
        if (out->len >= 1 && out->len <= FL_GEN_PREFIX_MAX &&
            !fl_gen_prefix_present(g, fl_gen_buf_bytes(out), out->len))
            return true;
    }
    return false;
}

/* A range that ends exactly at an edge, starts exactly at it, or straddles
 * it, its other bound a neighbour below or above. */
bool fl_gen_edge_range(fl_gen *g, fl_gen_buf *start, fl_gen_buf *end) {
    static const near_kind below[] = { NEAR_DROP_LAST, NEAR_PREV, NEAR_PREFIX };
    static const near_kind above[] = { NEAR_NUL, NEAR_NEXT, NEAR_PREFIX_NEXT };
    size_t n;
    const uint8_t *e = pick(&g->edges, &g->rng, &n);
    if (!e) return false;
    uint64_t form = fl_gen_below(&g->rng, 3);
    near_kind lo = form == 1 ? NEAR_SELF : below[fl_gen_below(&g->rng, 3)];
    near_kind hi = form == 0 ? NEAR_SELF : above[fl_gen_below(&g->rng, 3)];
    start->len = end->len = 0;
    near(g, e, n, lo, start);
    near(g, e, n, hi, end);
    return !start->nomem && !end->nomem && cmp(fl_gen_buf_bytes(start), start->len, fl_gen_buf_bytes(end), end->len) < 0;
}
