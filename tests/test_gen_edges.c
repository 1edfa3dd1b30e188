/*
 * test_gen_edges.c -- unit tests of the generators' reads at the edges
 * (workloads/gen_edges.c, fl_gen_options.edge_rate): aimed at the edges,
 * reads still keep the op mix's promises on every shape (absent keys never
 * put, before or after; present keys put before; ranges non-empty); a good
 * share of reads lands on an SST's bounds, a range tombstone's start or end,
 * or a neighbour of one, far more than without edges; a rate of 0 draws no
 * such target and a rate outside [0, 1] is an error.
 */
#include "test_gen.h"

/* ---- Promises ------------------------------------------------------------------ */

FL_TEST(gen_edge_reads_keep_the_promises) {
    for (size_t i = 0; i < SHAPES; i++) {
        fl_gen_options o;
        defaults(&o, all_shapes[i]);
        o.ops = 5000;
        o.edge_rate = 1;
        o.w_put = 40; o.w_del = 5; o.w_delrange = 5; o.w_get_present = 15; o.w_get_absent = 15;
        o.w_prefix_present = 8; o.w_prefix_absent = 8; o.w_scan = 4;
        o.flush_every = 40;
        o.compact_every = 300;
        o.open_options = "memtable_bytes=2048";
        fl_workload w;
        if (!generate(&o, &w)) continue;
        const char *name = fl_gen_shape_name(o.shape);
        str_set all = puts_before(&w, w.count);
        written_view v = { &w, 0, { NULL, 0, 0 } };
        size_t bad = 0, absent_gets = 0, present_gets = 0, ranges = 0;
        for (size_t k = 0; k < w.count; k++) {
            const fl_op *op = &w.ops[k];
            view_advance(&v, k);
            bool ok = true;
            switch (op->kind) {
            case FL_OP_GET:
                /* put before (present), or never put (absent) */
                if (set_has(&v.s, &op->a)) present_gets++;
                else if (!set_has(&all, &op->a)) absent_gets++;
                else ok = false;
                break;
            case FL_OP_DEL: ok = set_has(&v.s, &op->a); break;
            case FL_OP_SCAN_PREFIX: ok = set_has_prefix(&v.s, &op->a) || op->a.len > 0; break;
            case FL_OP_SCAN: case FL_OP_DELRANGE: ok = cmp_bytes(&op->a, &op->b) < 0; ranges++; break;
            default: break;
            }
            if (!ok && bad++ == 0)
                fl_test_fail(__FILE__, __LINE__, "%s: op %zu (%s) breaks the mix's promise", name, k,
                             fl_op_name(op->kind));
        }
        CHECK_EQ(bad, 0);
        if (absent_gets < 200 || present_gets < 200 || ranges < 200)
            fl_test_fail(__FILE__, __LINE__, "%s: %zu absent gets, %zu present, %zu ranges", name,
                         absent_gets, present_gets, ranges);
        free(all.v);
        free(v.s.v);
        fl_workload_free(&w);
    }
}

/* ---- Aim ----------------------------------------------------------------------- */

/* Appends b and its neighbours (b + 0x00, b less its last byte, its last
 * byte less and plus one) to s; copies live in arena. */
typedef struct arena { uint8_t *p[20000]; size_t n; } arena;

static void add_copy(str_set *s, arena *a, const uint8_t *p, size_t n) {
    if (a->n == sizeof a->p / sizeof a->p[0]) return;
    uint8_t *c = malloc(n + 1);
    if (!c) return;
    if (n) memcpy(c, p, n);
    a->p[a->n++] = c;
    fl_bytes b = { c, n };
    set_add(s, &b);
}

static void add_with_neighbours(str_set *s, arena *a, const fl_bytes *b) {
    uint8_t tmp[512];
    if (b->len + 1 > sizeof tmp) return;
    if (b->len) memcpy(tmp, b->data, b->len);
    add_copy(s, a, tmp, b->len);
    tmp[b->len] = 0;
    add_copy(s, a, tmp, b->len + 1);
    if (!b->len) return;
    add_copy(s, a, tmp, b->len - 1);
    uint8_t last = tmp[b->len - 1];
    if (last > 0) { tmp[b->len - 1] = (uint8_t)(last - 1); add_copy(s, a, tmp, b->len); }
    if (last < 0xff) { tmp[b->len - 1] = (uint8_t)(last + 1); add_copy(s, a, tmp, b->len); }
}

/* Of the reads of a uniform workload with explicit flushes only: the share
 * whose target (a get's key, a scan_prefix's prefix, a scan's start or
 * end) is an edge or a neighbour of one, the edges being every range
 * tombstone's start and end and the smallest and largest key (or tombstone
 * bound) between two flushes; and the number of gets of exactly a range
 * tombstone's end. */
static double share_at_edges(double edge_rate, size_t *gets_at_rt_end) {
    fl_gen_options o;
    defaults(&o, FL_SHAPE_UNIFORM);
    o.ops = 6000;
    o.edge_rate = edge_rate;
    o.w_put = 40; o.w_del = 2; o.w_delrange = 5; o.w_get_present = 20; o.w_get_absent = 20;
    o.w_prefix_present = 5; o.w_prefix_absent = 5; o.w_scan = 5;
    o.flush_every = 50;
    o.compact_every = o.reopen_every = 0;
    o.open_options = "memtable_bytes=100000000";
    fl_workload w;
    *gets_at_rt_end = 0;
    if (!generate(&o, &w)) return -1;
    str_set edges = { NULL, 0, 0 }, ends = { NULL, 0, 0 };
    arena *a = calloc(1, sizeof *a);
    const fl_bytes *lo = NULL, *hi = NULL;
    for (size_t k = 0; a && k <= w.count; k++) {
        const fl_op *op = k < w.count ? &w.ops[k] : NULL;
        if (!op || op->kind == FL_OP_FLUSH) {
            if (lo) add_with_neighbours(&edges, a, lo);
            if (hi) add_with_neighbours(&edges, a, hi);
            lo = hi = NULL;
            continue;
        }
        const fl_bytes *from = NULL, *to = NULL;
        if (op->kind == FL_OP_PUT || op->kind == FL_OP_DEL) from = to = &op->a;
        if (op->kind == FL_OP_DELRANGE) {
            from = &op->a;
            to = &op->b;
            add_with_neighbours(&edges, a, &op->a);
            add_with_neighbours(&edges, a, &op->b);
            add_copy(&ends, a, op->b.data, op->b.len);
        }
        if (from && (!lo || cmp_bytes(from, lo) < 0)) lo = from;
        if (to && (!hi || cmp_bytes(to, hi) > 0)) hi = to;
    }
    set_sort(&edges);
    set_sort(&ends);
    size_t reads = 0, at = 0;
    for (size_t k = 0; k < w.count; k++) {
        const fl_op *op = &w.ops[k];
        if (op->kind == FL_OP_GET || op->kind == FL_OP_SCAN_PREFIX) {
            reads++;
            at += set_has(&edges, &op->a);
            if (op->kind == FL_OP_GET && set_has(&ends, &op->a)) ++*gets_at_rt_end;
        } else if (op->kind == FL_OP_SCAN) {
            reads++;
            at += set_has(&edges, &op->a) || set_has(&edges, &op->b);
        }
    }
    for (size_t i = 0; a && i < a->n; i++) free(a->p[i]);
    free(a);
    free(edges.v);
    free(ends.v);
    fl_workload_free(&w);
    return reads ? (double)at / (double)reads : -1;
}

FL_TEST(gen_edge_reads_aim_at_the_bounds) {
    size_t ends_with = 0, ends_without = 0;
    double with = share_at_edges(0.25, &ends_with), without = share_at_edges(0, &ends_without);
    /* a quarter of the reads aim at edges; without, reads land there by chance */
    if (!(with >= 0.2 && without >= 0 && with >= without + 0.1))
        fl_test_fail(__FILE__, __LINE__, "share of reads at edges: %.3f with edges, %.3f without",
                     with, without);
    /* gets of exactly a range tombstone's end, the exclusive bound */
    if (!(ends_with >= 20 && ends_with >= 5 * (ends_without + 1)))
        fl_test_fail(__FILE__, __LINE__, "gets of a range tombstone's end: %zu with edges, %zu without",
                     ends_with, ends_without);
}

/* ---- The rate ------------------------------------------------------------------ */

static size_t reads_with_nul(double edge_rate) {
    fl_gen_options o;
    defaults(&o, FL_SHAPE_UNIFORM);
    o.ops = 4000;
    o.edge_rate = edge_rate;
    fl_workload w;
    if (!generate(&o, &w)) return SIZE_MAX;
    size_t n = 0;
    for (size_t k = 0; k < w.count; k++) {
        const fl_op *op = &w.ops[k];
        if (op->kind != FL_OP_GET && op->kind != FL_OP_SCAN_PREFIX && op->kind != FL_OP_SCAN) continue;
        n += (op->a.len && memchr(op->a.data, 0, op->a.len)) ||
             (op->b.len && memchr(op->b.data, 0, op->b.len));
    }
    fl_workload_free(&w);
    return n;
}

FL_TEST(gen_edge_rate_zero_and_bad_rates) {
    /* uniform keys hold no NUL: only a target next to an edge (an edge and a
     * 0x00, its successor) does */
    CHECK_EQ(reads_with_nul(0), 0);
    size_t n = reads_with_nul(0.25);
    CHECK(n > 20 && n != SIZE_MAX);
    fl_gen_options o;
    defaults(&o, FL_SHAPE_UNIFORM);
    o.ops = 10;
    o.edge_rate = 1.5;
    fl_workload w;
    char err[256] = "";
    CHECK_RC(fl_gen_workload(&o, &w, err, sizeof err), -1);
    CHECK_CONTAINS(err, "edge rate");
    o.edge_rate = -0.1;
    CHECK_RC(fl_gen_workload(&o, &w, err, sizeof err), -1);
}
