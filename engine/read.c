/*
 * read.c -- the read path (SPEC 2.4): get, scan_prefix, scan and the seeks,
 * filter evaluation, metrics and the probe trace.
 *
 * For every considered SST the filters are asked before any index or data
 * block is read, with AND logic over every usable sub-filter; a NO skips the
 * SST.  Range tombstones are applied whatever the filters say: they were
 * loaded when the SST was opened.  Anything a filter cannot tell is MAYBE.
 *
 * Keys are located by their heads (first 8 bytes as a number, beside every
 * SST's bounds, merge head and memtable node), bytes read only on equal
 * heads.  A range read sizes its arrays once for the whole tree (on the
 * stack when it is small: no allocation per SST or key), finds a run's
 * overlapping SSTs by bisection when the run's ranges ascend, keeps only
 * the sources whose head is before the end in its merge heap, takes the
 * range tombstone lists that can cover a key of the range from their
 * index, and reads on from where the filter check left an SST.  The SSTs
 * considered, their order, every probe event, counter, answer and error
 * are the same as reading each SST's range in turn.
 */
#include "engine_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- Filter evaluation ------------------------------------------------- */

#define MAX_SUBS_ON_STACK 16

typedef struct probe {
    fl_verdict verdict;
    size_t sub_count;
    fl_subfilter_verdict *subs;
    fl_subfilter_verdict stack[MAX_SUBS_ON_STACK];
    int bloom;               /* index of the only usable bloom, or -1 */
} probe;

static void probe_free(probe *p) {
    if (p->subs != p->stack) free(p->subs);
}

static int evaluate(fl_sst_reader *r, const fl_filter_query *q, probe *p) {
    p->sub_count = r->sub_count;
    p->subs = r->sub_count <= MAX_SUBS_ON_STACK ? p->stack : malloc(r->sub_count * sizeof *p->subs);
    if (!p->subs) return FL_ERR_NOMEM;
    size_t usable = 0, blooms = 0;
    bool all_true = true;
    p->bloom = -1;
    for (size_t i = 0; i < r->sub_count; i++) {
        const fl_sst_subfilter *s = &r->subs[i];
        fl_subfilter_verdict *v = &p->subs[i];
        v->name = s->name;
        v->usable = s->filter != NULL;
        v->might_match = true;
        if (!v->usable) continue;
        usable++;
        /* every usable sub-filter is asked, so the trace shows each answer */
        v->might_match = fl_call_might_match(r->calls, s->policy, s->filter, q);
        if (!v->might_match) all_true = false;
        if (s->bloom) { blooms++; p->bloom = (int)i; }
    }
    if (blooms != 1) p->bloom = -1;
    p->verdict = usable == 0 ? FL_VERDICT_UNFILTERED : all_true ? FL_VERDICT_MAYBE : FL_VERDICT_NO;
    return FL_OK;
}

/* Counts one considered SST and sends its trace event. */
static void account(fl_db *db, fl_sst_reader *r, const fl_filter_query *q, probe *p, bool held) {
    fl_filter_counters *c = q->target.kind == FL_TARGET_POINT ? &db->metrics.point : &db->metrics.prefix;
    c->considered++;
    bool eligible = false;
    switch (p->verdict) {
    case FL_VERDICT_UNFILTERED: c->unfiltered++; db->metrics.sst_reads++; break;
    case FL_VERDICT_MAYBE:
        c->positive++;
        db->metrics.sst_reads++;
        if (!held) { c->false_positive++; eligible = true; }
        break;
    case FL_VERDICT_NO: c->negative++; eligible = true; break;
    }
    if (eligible && p->bloom >= 0) {
        const fl_sst_subfilter *s = &r->subs[p->bloom];
        c->expected_fp_sum += fl_bloom_filter_probes(r->calls, s->filter, q) ? s->bloom_expected_fp : 1.0;
        c->expected_probes++;
    }
    if (db->trace) {
        fl_probe_event ev = {
            .kind = q->target.kind, .target = q->target.bytes, .sst_id = r->info.id,
            .verdict = p->verdict, .legacy = r->legacy, .sub_count = p->sub_count,
            .subs = p->subs, .held_match = p->verdict != FL_VERDICT_NO && held,
        };
        db->trace(db->trace_arg, &ev);
    }
}

/* ---- Locating SSTs ------------------------------------------------------- */

/* Whether r's range covers k (kh: k's head). */
static bool covers(const fl_sst_reader *r, const uint8_t *k, size_t klen, uint64_t kh) {
    const fl_sst_info *in = &r->info;
    if (in->entries == 0 && in->range_tombstones == 0) return false;
    if (fl_head_cmp(kh, k, klen, r->smallest_head, in->smallest, in->smallest_len) < 0) return false;
    int c = fl_head_cmp(kh, k, klen, r->largest_head, in->largest, in->largest_len);
    return c < 0 || (c == 0 && !in->largest_exclusive);
}

/* [start, end) overlaps the SST; end NULL means unbounded. */
static bool overlaps(const fl_sst_reader *r, const uint8_t *s, size_t slen,
                     const uint8_t *e, size_t elen) {
    const fl_sst_info *in = &r->info;
    if (in->entries == 0 && in->range_tombstones == 0) return false;
    int c = fl_bytes_cmp(s, slen, in->largest, in->largest_len);
    if (c > 0 || (c == 0 && in->largest_exclusive)) return false;
    if (e && fl_bytes_cmp(in->smallest, in->smallest_len, e, elen) >= 0) return false;
    return true;
}

/* The one SST of a run whose range covers k (kh: its head), or NULL. */
static fl_sst_reader *run_find(const fl_run *run, const uint8_t *k, size_t klen, uint64_t kh) {
    size_t lo = 0, hi = run->count;
    while (lo < hi) {                  /* first SST with smallest > k */
        size_t mid = lo + (hi - lo) / 2;
        const fl_sst_reader *m = run->ssts[mid];
        if (fl_head_cmp(m->smallest_head, m->info.smallest, m->info.smallest_len, kh, k, klen) <= 0) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0) return NULL;
    fl_sst_reader *r = run->ssts[lo - 1];
    return covers(r, k, klen, kh) ? r : NULL;
}

/* ---- get ----------------------------------------------------------------- */

typedef enum { GET_GO_ON, GET_DONE } get_step;

/* Looks in one SST; *step says whether it decided the answer. */
static int get_in_sst(fl_db *db, fl_sst_reader *r, const fl_filter_query *q, uint64_t *rt_seq,
                      fl_buf *value, bool *found, get_step *step) {
    const uint8_t *k = q->target.bytes.data;
    size_t klen = q->target.bytes.len;
    if (r->rtombs.count) {                                 /* never hidden by a filter */
        uint64_t s = fl_rtomb_max_seq(&r->rtombs, k, klen);
        if (s > *rt_seq) *rt_seq = s;
    }
    probe p;
    int rc = evaluate(r, q, &p);
    if (rc) return rc;
    fl_entry e;
    int hit = 0;
    if (p.verdict != FL_VERDICT_NO) {
        hit = fl_sst_get(r, k, klen, &e, db->err, sizeof db->err);
        if (hit < 0) { probe_free(&p); return hit; }
    }
    account(db, r, q, &p, hit == 1);
    probe_free(&p);
    *step = GET_GO_ON;
    if (hit == 1) {
        *step = GET_DONE;
        if (e.kind == FL_ENTRY_PUT && e.seq > *rt_seq) {
            *found = true;
            return fl_buf_append(value, e.val, e.vlen);
        }
        return FL_OK;
    }
    /* a covering range tombstone is newer than everything in older SSTs */
    if (*rt_seq > 0) *step = GET_DONE;
    return FL_OK;
}

int fl_db_get(fl_db *db, fl_slice key, const fl_filter_context *ctx, fl_buf *value, bool *found) {
    fl_buf_reset(value);
    *found = false;
    if (key.len > FL_MAX_KEY)
        return fl_db_fail(db, FL_ERR_INVALID, "get: key of %zu bytes is too long", key.len);
    const fl_rtomb_list *mrt = fl_memtable_rtombs(db->mem);
    uint64_t rt_seq = mrt->count ? fl_rtomb_max_seq(mrt, key.data, key.len) : 0;
    fl_entry e;
    if (fl_memtable_get(db->mem, key.data, key.len, &e)) {
        if (e.kind == FL_ENTRY_PUT && e.seq > rt_seq) {
            *found = true;
            return fl_buf_append(value, e.val, e.vlen);
        }
        return FL_OK;
    }
    if (rt_seq > 0) return FL_OK;
    fl_filter_query q = { { FL_TARGET_POINT, key }, ctx };
    get_step step = GET_GO_ON;
    int rc = FL_OK;
    uint64_t kh = fl_key_head(key.data, key.len);
    for (size_t i = 0; i < db->l0_count && step == GET_GO_ON && !rc; i++)
        if (covers(db->l0[i], key.data, key.len, kh))
            rc = get_in_sst(db, db->l0[i], &q, &rt_seq, value, found, &step);
    for (size_t i = 0; i < db->run_count && step == GET_GO_ON && !rc; i++) {
        fl_sst_reader *r = run_find(&db->runs[i], key.data, key.len, kh);
        if (r) rc = get_in_sst(db, r, &q, &rt_seq, value, found, &step);
    }
    return rc;
}

/* ---- Range reads: scan_prefix and scan ----------------------------------- */

/* One ordered source: the memtable, an L0 SST, or a run's SSTs in order. */
typedef struct source {
    bool memtable;
    fl_mt_iter mt;
    fl_sst_reader **ssts;     /* chain: a piece of the read's pool */
    size_t count, at;
    fl_sst_iter it;
    bool has;                 /* head is valid */
    fl_entry head;
    uint64_t hh;              /* fl_key_head of head's key */
} source;

/* What a read takes in.  Its arrays are sized once, for every SST of the
 * tree (and the memtable): one block, on the stack when the tree is small,
 * so a read allocates nothing per SST. */
typedef struct range_read {
    fl_db *db;
    const uint8_t *start; size_t slen;
    const uint8_t *end; size_t elen;          /* NULL: unbounded */
    fl_rtomb_cursor *rts; size_t nrts;        /* over the lists (borrowed) with a
                                                 tombstone overlapping [start, end):
                                                 a forward read's keys ascend   */
    fl_sst_reader **pool; size_t npool;       /* the chains, one after another  */
    void *own;                                /* the arrays' block when malloc'ed */
} range_read;

/* Room for every SST of the tree, and (extra bytes) more. */
#define RANGE_STACK_BYTES 4096

static size_t tree_ssts(const fl_db *db) {
    size_t n = db->l0_count;
    for (size_t i = 0; i < db->run_count; i++) n += db->runs[i].count;
    return n;
}

/* Sets up rr's arrays in stack (RANGE_STACK_BYTES) or a new block, with
 * extra bytes more at *extra (aligned for any source type). */
static int range_init(range_read *rr, fl_db *db, const uint8_t *start, size_t slen, const uint8_t *end,
                      size_t elen, void *stack, size_t extra, void **extra_at) {
    *rr = (range_read){ .db = db, .start = start, .slen = slen, .end = end, .elen = elen };
    size_t n = tree_ssts(db);
    size_t ptrs = n * sizeof(void *) + (n + 1) * sizeof(fl_rtomb_cursor);
    size_t head = (ptrs + 15) & ~(size_t)15;
    uint8_t *b = stack;
    if (head + extra > RANGE_STACK_BYTES) {
        if (!(b = rr->own = malloc(head + extra))) return FL_ERR_NOMEM;
    }
    rr->pool = (fl_sst_reader **)(void *)b;
    rr->rts = (fl_rtomb_cursor *)(void *)(b + n * sizeof(void *));
    *extra_at = b + head;
    return FL_OK;
}

static void set_head(source *s) { s->hh = fl_key_head(s->head.key, s->head.klen); }

static int src_advance(range_read *rr, source *s) {
    fl_db *db = rr->db;
    if (s->memtable) {
        if ((s->has = fl_memtable_next(&s->mt, &s->head))) set_head(s);
        return FL_OK;
    }
    for (;;) {
        int rc = fl_sst_next(&s->it, &s->head, db->err, sizeof db->err);
        if (rc < 0) return rc;
        if (rc == 1) { s->has = true; set_head(s); return FL_OK; }
        if (++s->at >= s->count) { s->has = false; return FL_OK; }
        rc = fl_sst_seek(s->ssts[s->at], rr->start, rr->slen, &s->it, db->err, sizeof db->err);
        if (rc) return rc;
    }
}

/* Whether a piece of l's index within [start, end) has a tombstone (the
 * piece holding start, or one starting before end: as neighbouring pieces
 * never both lack one, at most two are looked at past start's). */
static bool index_overlaps(const range_read *rr, const fl_rtomb_list *l) {
    size_t n = l->frag_count, lo = fl_rtomb_first_after(l, 0, n, rr->start, rr->slen);
    for (size_t i = lo ? lo - 1 : 0; i < n; i++) {
        const fl_rtomb_frag *f = &l->frags[i];
        if (i >= lo && rr->end && fl_bytes_cmp(f->key, f->len, rr->end, rr->elen) >= 0) return false;
        if (f->max_seq) return true;
    }
    return false;
}

/* Keeps l if one of its tombstones may cover a key of [start, end) (a
 * key the read hands out: a list left out covers none of them): its index
 * says so, or one past the index overlaps [start, end). */
static void add_rtombs(range_read *rr, const fl_rtomb_list *l) {
    if (l->count == 0) return;
    bool keep = index_overlaps(rr, l);
    for (size_t i = l->indexed; i < l->count && !keep; i++) {
        const fl_rtomb *rt = &l->items[i];
        keep = fl_bytes_cmp(rt->end, rt->elen, rr->start, rr->slen) > 0 &&
               (!rr->end || fl_bytes_cmp(rt->start, rt->slen, rr->end, rr->elen) < 0);
    }
    if (keep) rr->rts[rr->nrts++] = (fl_rtomb_cursor){ .list = l };
}

/* Where consider left an SST it positioned: the iterator after its first
 * step, and what the step gave (got 1: e, 0: nothing). */
typedef struct positioned { fl_sst_iter it; fl_entry e; int got; } positioned;

/* Considers one SST: filters (prefix reads only), then positions it and
 * adds it to the pool.  When it positions the SST at the start of the
 * range and takes its first step, *at is where that left it (for the first
 * SST of a chain, the first one considered since chain: read on from
 * there, not sought again). */
static int consider(range_read *rr, fl_sst_reader *r, const fl_filter_query *q, size_t chain,
                    positioned *at) {
    fl_db *db = rr->db;
    add_rtombs(rr, &r->rtombs);
    if (q) {
        probe p;
        int rc;
        if ((rc = evaluate(r, q, &p))) return rc;
        bool held = false;
        if (p.verdict != FL_VERDICT_NO) {
            /* positioned now, so an abandoned scan counts like a finished one */
            fl_sst_iter it;
            fl_entry e = { 0 };
            rc = fl_sst_seek(r, rr->start, rr->slen, &it, db->err, sizeof db->err);
            if (!rc) rc = fl_sst_next(&it, &e, db->err, sizeof db->err);
            if (rc < 0) { probe_free(&p); return rc; }
            held = rc == 1 && fl_has_prefix(e.key, e.klen, q->target.bytes.data, q->target.bytes.len);
            if (at && rr->npool == chain) *at = (positioned){ it, e, rc };
        }
        account(db, r, q, &p, held);
        bool skip = p.verdict == FL_VERDICT_NO;
        probe_free(&p);
        if (skip) return FL_OK;
    } else {
        db->metrics.sst_reads++;
    }
    rr->pool[rr->npool++] = r;
    return FL_OK;
}

/* A chain as a source (*s), its first SST positioned at the range's start
 * and stepped (from *at when consider did it: the block it read is still
 * the reader's, so its entry is still valid); s->has false when it gives
 * nothing. */
static int chain_source(range_read *rr, fl_sst_reader **chain, size_t n, const positioned *at, source *s) {
    *s = (source){ .ssts = chain, .count = n };
    if (n == 0) return FL_OK;
    if (at && at->it.r == chain[0]) {
        s->it = at->it;
        if (at->got == 1) {
            s->head = at->e;
            s->has = true;
            set_head(s);
            return FL_OK;
        }
        return src_advance(rr, s);     /* at the SST's end: on to the next */
    }
    int rc = fl_sst_seek(chain[0], rr->start, rr->slen, &s->it, rr->db->err, sizeof rr->db->err);
    if (!rc) rc = src_advance(rr, s);
    return rc;
}

/* A binary heap of source indices, the smallest head (key by head first,
 * then newest first) on top. */
static bool heap_less(const source *src, size_t a, size_t b) {
    const source *x = &src[a], *y = &src[b];
    if (x->hh != y->hh) return x->hh < y->hh;
    int c = fl_head_cmp(x->hh, x->head.key, x->head.klen, y->hh, y->head.key, y->head.klen);
    return c < 0 || (c == 0 && x->head.seq > y->head.seq);
}

static void heap_down(const source *src, size_t *h, size_t n, size_t i) {
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && heap_less(src, h[l], h[m])) m = l;
        if (l + 1 < n && heap_less(src, h[l + 1], h[m])) m = l + 1;
        if (m == i) return;
        size_t t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

static void heap_push(const source *src, size_t *h, size_t *n, size_t v) {
    size_t i = (*n)++;
    h[i] = v;
    while (i > 0 && heap_less(src, h[i], h[(i - 1) / 2])) {
        size_t p = (i - 1) / 2, t = h[i];
        h[i] = h[p];
        h[p] = t;
        i = p;
    }
}

/* Whether the run's SSTs hold something and their ranges ascend: every
 * smallest and every largest (an inclusive one after an exclusive equal
 * one) at or above the one before.  Then the SSTs a range overlaps are
 * the ones from the first whose largest is not below its start up to the
 * first whose smallest is not below its end.  Noted in the run. */
static bool run_ascends(fl_run *run) {
    if (run->order && run->order_ssts == run->ssts && run->order_count == run->count) return run->order == 1;
    bool up = true;
    for (size_t j = 0; j < run->count && up; j++) {
        const fl_sst_info *b = &run->ssts[j]->info;
        up = b->entries || b->range_tombstones;
        if (!up || j == 0) continue;
        const fl_sst_info *a = &run->ssts[j - 1]->info;
        int c = fl_bytes_cmp(a->largest, a->largest_len, b->largest, b->largest_len);
        up = fl_bytes_cmp(a->smallest, a->smallest_len, b->smallest, b->smallest_len) <= 0 &&
             (c < 0 || (c == 0 && (a->largest_exclusive || !b->largest_exclusive)));
    }
    run->order_ssts = run->ssts;
    run->order_count = run->count;
    run->order = up ? 1 : 2;
    return up;
}

/* The SSTs of the tree's source i -- L0 SST i, or run i - l0_count -- that
 * overlap the range, considered in order (consider): *chain the ones to
 * read (n of them, a piece of the pool), *at where the first was
 * positioned (when given).  What a read forward and one backward both
 * take in.  In a run whose ranges ascend, the overlapping ones are found
 * by bisection instead of asking each SST. */
static int consider_source(range_read *rr, size_t i, const fl_filter_query *q, fl_sst_reader ***chain,
                           size_t *n, positioned *at) {
    fl_db *db = rr->db;
    bool l0 = i < db->l0_count;
    fl_run *run = l0 ? NULL : &db->runs[i - db->l0_count];
    fl_sst_reader **ssts = l0 ? &db->l0[i] : run->ssts;
    size_t count = l0 ? 1 : run->count;
    size_t first = rr->npool, j = 0;
    int rc = FL_OK;
    if (run && count > 1 && run_ascends(run)) {
        size_t hi = count;                  /* the first whose largest is not below start */
        while (j < hi) {
            size_t mid = j + (hi - j) / 2;
            const fl_sst_info *in = &ssts[mid]->info;
            int c = fl_bytes_cmp(rr->start, rr->slen, in->largest, in->largest_len);
            if (c > 0 || (c == 0 && in->largest_exclusive)) j = mid + 1;
            else hi = mid;
        }
        for (; j < count && !rc; j++) {
            const fl_sst_info *in = &ssts[j]->info;
            if (rr->end && fl_bytes_cmp(in->smallest, in->smallest_len, rr->end, rr->elen) >= 0) break;
            rc = consider(rr, ssts[j], q, first, at);
        }
        j = count;
    }
    for (; j < count && !rc; j++)
        if (overlaps(ssts[j], rr->start, rr->slen, rr->end, rr->elen)) rc = consider(rr, ssts[j], q, first, at);
    if (rc) rr->npool = first;
    *chain = rr->pool + first;
    *n = rr->npool - first;
    return rc;
}

/* Whether a range tombstone newer than seq covers key. */
static bool rt_hidden(range_read *rr, const uint8_t *key, size_t klen, uint64_t seq) {
    for (size_t i = 0; i < rr->nrts; i++)
        if (fl_rtomb_cursor_max_seq(&rr->rts[i], key, klen) > seq) return true;
    return false;
}

/* Hands a key and the value of its newest version (seq; live: a put) to
 * fn, unless it is a delete or a newer range tombstone covers it; nonzero
 * when fn says stop. */
static int emit_live(range_read *rr, const fl_buf *key, const fl_buf *val, uint64_t seq, bool live,
                     fl_scan_fn fn, void *arg) {
    if (live && rt_hidden(rr, key->data, key->len, seq)) live = false;
    const uint8_t *kd = key->data ? key->data : (const uint8_t *)"";
    const uint8_t *vd = val->data ? val->data : (const uint8_t *)"";
    return live && fn(arg, (fl_slice){ kd, key->len }, (fl_slice){ vd, val->len });
}

/* A copy of bytes in a stack array, or a malloc'ed block past it. */
typedef struct copy { uint8_t *p; size_t len, cap; uint8_t *own; } copy;

static int copy_set(copy *c, const uint8_t *b, size_t n) {
    if (n > c->cap) {
        size_t cap = 2 * c->cap > n ? 2 * c->cap : n;
        uint8_t *o = malloc(cap);
        if (!o) return FL_ERR_NOMEM;
        free(c->own);
        c->p = c->own = o;
        c->cap = cap;
    }
    if (n) memcpy(c->p, b, n);
    c->len = n;
    return FL_OK;
}

static int range_run(fl_db *db, fl_slice start, const uint8_t *end, size_t elen,
                     const fl_filter_query *q, fl_scan_fn fn, void *arg) {
    _Alignas(16) uint8_t stack[RANGE_STACK_BYTES];
    uint8_t kbytes[256], vbytes[1024];
    copy key = { kbytes, 0, sizeof kbytes, NULL }, val = { vbytes, 0, sizeof vbytes, NULL };
    range_read rr;
    /* the sources: the memtable and each L0 SST and run; the heap of them */
    size_t maxsrc = 1 + db->l0_count + db->run_count;
    void *extra;
    int rc = range_init(&rr, db, start.data, start.len, end, elen, stack,
                        maxsrc * (sizeof(source) + sizeof(size_t)), &extra);
    if (rc) return rc;
    source *src = extra;
    size_t *heap = (size_t *)(void *)(src + maxsrc);
    size_t nsrc = 0;
    source *m = &src[nsrc++];
    *m = (source){ .memtable = true };
    fl_memtable_seek(db->mem, start.data, start.len, &m->mt);
    rc = src_advance(&rr, m);
    if (!rc) add_rtombs(&rr, fl_memtable_rtombs(db->mem));
    for (size_t i = 0; i < db->l0_count + db->run_count && !rc; i++) {
        fl_sst_reader **chain;
        size_t n;
        positioned at = { .it.r = NULL };
        rc = consider_source(&rr, i, q, &chain, &n, &at);
        if (!rc && n) rc = chain_source(&rr, chain, n, &at, &src[nsrc++]);
    }
    /* merge: the smallest key; its newest version decides.  The sources
     * with a head before the end are a heap by (key, newest first): one
     * whose head is past the end would be stepped no more (the read ends
     * before its head), so it leaves the heap at once. */
    uint64_t eh = end ? fl_key_head(end, elen) : 0;
#define BEFORE_END(s) (!end || fl_head_cmp((s)->hh, (s)->head.key, (s)->head.klen, eh, end, elen) < 0)
    size_t nheap = 0;
    for (size_t i = 0; !rc && i < nsrc; i++)
        if (src[i].has && BEFORE_END(&src[i])) heap_push(src, heap, &nheap, i);
    while (!rc && nheap) {
        const source *t = &src[heap[0]];
        const fl_entry *e = &t->head;
        uint64_t seq = e->seq, kh = t->hh;
        /* (a tombstone's verdict does not depend on the sources' steps) */
        bool live = e->kind == FL_ENTRY_PUT && !rt_hidden(&rr, e->key, e->klen, seq);
        if ((rc = copy_set(&key, e->key, e->klen))) break;
        if (live && (rc = copy_set(&val, e->val, e->vlen))) break;
        /* step every source past this key */
        while (!rc && nheap) {
            source *top = &src[heap[0]];
            if (!fl_head_eq(top->hh, top->head.key, top->head.klen, kh, key.p, key.len)) break;
            if ((rc = src_advance(&rr, top))) break;
            if (top->has && BEFORE_END(top)) heap_down(src, heap, nheap, 0);
            else if (--nheap) {
                heap[0] = heap[nheap];
                heap_down(src, heap, nheap, 0);
            }
        }
        if (rc || (live && fn(arg, (fl_slice){ key.p, key.len }, (fl_slice){ val.p, val.len }))) break;
    }
#undef BEFORE_END
    free(rr.own);
    free(key.own);
    free(val.own);
    return rc;
}

/* ---- Backward: total order, from a key down ------------------------------ */

/* One ordered source read backward: the memtable, an L0 SST, or a run's
 * SSTs from the last. */
typedef struct back_source {
    bool memtable;
    fl_mt_iter mt;
    fl_sst_reader **ssts;     /* chain: a piece of the read's pool */
    size_t at;
    fl_sst_riter it;
    bool has;
    fl_entry head;
} back_source;

static int back_advance(range_read *rr, back_source *s, fl_slice key) {
    fl_db *db = rr->db;
    if (s->memtable) { s->has = fl_memtable_prev(&s->mt, &s->head); return FL_OK; }
    for (;;) {
        int rc = fl_sst_prev(&s->it, &s->head, db->err, sizeof db->err);
        if (rc < 0) return rc;
        if (rc == 1) { s->has = true; return FL_OK; }
        if (s->at == 0) { s->has = false; return FL_OK; }
        fl_sst_riter_free(&s->it);
        rc = fl_sst_seek_for_prev(s->ssts[--s->at], key.data, key.len, &s->it, db->err, sizeof db->err);
        if (rc) return rc;
    }
}

/* The live entries of [start, end) whose key is <= key, from the greatest
 * down, until fn says stop: a seek_for_prev, in total order (start "", end
 * key + "\0", no query) or in prefix mode (start P, end P's successor,
 * NULL when it has none; the filters asked q).  The SSTs taken in, the
 * filters asked and the metrics are those of the forward read of [start,
 * end) it stands for (consider); only the reading goes the other way. */
static int range_back(fl_db *db, fl_slice start, const uint8_t *end, size_t elen, fl_slice key,
                      const fl_filter_query *q, fl_scan_fn fn, void *arg) {
    _Alignas(16) uint8_t stack[RANGE_STACK_BYTES];
    range_read rr;
    size_t nsrc = 0;
    size_t cap = 1 + db->l0_count + db->run_count;
    void *extra;
    int rc = range_init(&rr, db, start.data, start.len, end, elen, stack, cap * sizeof(back_source), &extra);
    if (rc) return rc;
    back_source *src = extra;
    memset(src, 0, cap * sizeof *src);
    fl_buf k, v;
    fl_buf_init(&k);
    fl_buf_init(&v);
    {
        back_source *m = &src[nsrc++];
        m->memtable = true;
        fl_memtable_seek_for_prev(db->mem, key.data, key.len, &m->mt);
        rc = back_advance(&rr, m, key);
    }
    if (!rc) add_rtombs(&rr, fl_memtable_rtombs(db->mem));
    for (size_t i = 0; i < db->l0_count + db->run_count && !rc; i++) {
        fl_sst_reader **chain;
        size_t n;
        rc = consider_source(&rr, i, q, &chain, &n, NULL);
        if (rc || n == 0) continue;
        back_source *s = &src[nsrc++];
        s->ssts = chain;
        s->at = n - 1;
        rc = fl_sst_seek_for_prev(chain[n - 1], key.data, key.len, &s->it, db->err, sizeof db->err);
        if (!rc) rc = back_advance(&rr, s, key);
    }
    /* merge: the greatest key; its newest version (the highest seq) decides */
    while (!rc) {
        back_source *best = NULL;
        for (size_t i = 0; i < nsrc; i++)
            if (src[i].has && (!best || fl_bytes_cmp(src[i].head.key, src[i].head.klen, best->head.key,
                                                     best->head.klen) > 0))
                best = &src[i];
        if (!best || fl_bytes_cmp(best->head.key, best->head.klen, start.data, start.len) < 0) break;
        fl_buf_reset(&k);
        fl_buf_reset(&v);
        if ((rc = fl_buf_append(&k, best->head.key, best->head.klen))) break;
        uint64_t seq = 0;
        bool live = false;
        for (size_t i = 0; i < nsrc && !rc; i++)
            while (!rc && src[i].has && fl_bytes_cmp(src[i].head.key, src[i].head.klen, k.data, k.len) == 0) {
                const fl_entry *e = &src[i].head;
                if (e->seq >= seq) {
                    seq = e->seq;
                    live = e->kind == FL_ENTRY_PUT;
                    fl_buf_reset(&v);
                    rc = fl_buf_append(&v, e->val, e->vlen);
                }
                if (!rc) rc = back_advance(&rr, &src[i], key);
            }
        if (rc || emit_live(&rr, &k, &v, seq, live, fn, arg)) break;
    }
    for (size_t i = 0; i < nsrc; i++) fl_sst_riter_free(&src[i].it);
    free(rr.own);
    fl_buf_free(&k);
    fl_buf_free(&v);
    return rc;
}

int fl_db_scan_prefix(fl_db *db, fl_slice prefix, const fl_filter_context *ctx,
                      fl_scan_fn fn, void *arg) {
    uint8_t *succ = NULL;
    size_t slen = 0;
    if (prefix.len > FL_MAX_KEY)
        return fl_db_fail(db, FL_ERR_INVALID, "scan_prefix: prefix of %zu bytes is too long", prefix.len);
    bool bounded = fl_prefix_successor(prefix.data, prefix.len, &succ, &slen);
    fl_filter_query q = { { FL_TARGET_PREFIX, prefix }, ctx };
    int rc = range_run(db, prefix, bounded ? succ : NULL, slen, &q, fn, arg);
    free(succ);
    return rc;
}

int fl_db_scan(fl_db *db, fl_slice start, fl_slice end, fl_scan_fn fn, void *arg) {
    if (fl_bytes_cmp(end.data, end.len, start.data, start.len) <= 0) return FL_OK;
    return range_run(db, start, end.data ? end.data : (const uint8_t *)"", end.len, NULL, fn, arg);
}

/* ---- Seeks --------------------------------------------------------------- */

const fl_prefix_extractor *fl_db_prefix_extractor(const fl_db *db) {
    for (size_t i = 0; i < db->policies.count; i++) {
        const fl_prefix_extractor *ex = fl_bloom_policy_extractor(db->policies.items[i]);
        if (ex) return ex;
    }
    return NULL;
}

/* A seek: up to n entries from its key on (forward) or down (backward). */
typedef struct seek_read {
    fl_db *db;
    const fl_prefix_extractor *ex;    /* prefix mode: the extractor, else NULL */
    fl_slice key, p;                  /* the seek key; its prefix P           */
    uint32_t n, emitted;
    fl_scan_fn fn;
    void *arg;
    bool stop;                        /* the caller said stop                 */
} seek_read;

/* Whether k's extracted prefix is P (prefix mode). */
static bool same_prefix(seek_read *s, fl_slice k) {
    fl_target t = { FL_TARGET_POINT, k };
    size_t m;
    return fl_call_prefix_len(s->db->calls, s->ex, &t, &m) && m == s->p.len &&
           (m == 0 || memcmp(k.data, s->p.data, m) == 0);
}

/* Hands one entry to the caller; nonzero ends the read. */
static int seek_emit(seek_read *s, fl_slice k, fl_slice v) {
    if (s->ex && !same_prefix(s, k)) return 1;
    if (s->fn(s->arg, k, v)) { s->stop = true; return 1; }
    return ++s->emitted >= s->n;
}

static int seek_forward(void *arg, fl_slice k, fl_slice v) {
    seek_read *s = arg;
    if (fl_bytes_cmp(k.data, k.len, s->key.data, s->key.len) < 0) return 0;
    return seek_emit(s, k, v);
}

static int seek_back(void *arg, fl_slice k, fl_slice v) {
    return seek_emit(arg, k, v);
}

int fl_db_seek(fl_db *db, fl_slice key, bool backward, uint32_t n, int prefix_mode,
               const fl_filter_context *ctx, fl_scan_fn fn, void *arg) {
    if (key.len > FL_MAX_KEY)
        return fl_db_fail(db, FL_ERR_INVALID, "seek: key of %zu bytes is too long", key.len);
    if (n == 0) return FL_OK;
    seek_read s = { .db = db, .key = key, .n = n, .fn = fn, .arg = arg };
    const fl_prefix_extractor *ex = fl_db_prefix_extractor(db);
    size_t m = 0;
    fl_target t = { FL_TARGET_POINT, key };
    if (ex && prefix_mode != 0 && fl_call_prefix_len(db->calls, ex, &t, &m)) {
        s.ex = ex;
        s.p = (fl_slice){ key.data, m };
    }
    int rc;
    if (s.ex) {
        /* the SSTs of P's range, their filters asked PREFIX P */
        uint8_t *succ = NULL;
        size_t slen = 0;
        bool bounded = fl_prefix_successor(s.p.data, s.p.len, &succ, &slen);
        fl_filter_query q = { { FL_TARGET_PREFIX, s.p }, ctx };
        if (backward) rc = range_back(db, s.p, bounded ? succ : NULL, slen, key, &q, seek_back, &s);
        else rc = range_run(db, s.p, bounded ? succ : NULL, slen, &q, seek_forward, &s);
        free(succ);
    } else if (!backward) {
        rc = range_run(db, key, NULL, 0, NULL, seek_forward, &s);
    } else {
        /* total order, backward: from key down */
        uint8_t *end = malloc(key.len + 1);
        if (!end) return FL_ERR_NOMEM;
        if (key.len) memcpy(end, key.data, key.len);
        end[key.len] = 0;
        rc = range_back(db, (fl_slice){ (const uint8_t *)"", 0 }, end, key.len + 1, key, NULL, seek_back, &s);
        free(end);
    }
    return rc;
}
