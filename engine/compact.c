/*
 * compact.c -- compaction: merges SSTs into a new sorted run, written with
 * the COMPACTOR's filter policies and split at sst_bytes into SSTs with
 * disjoint key ranges.  Shadowed versions and entries hidden by a newer
 * range tombstone are dropped; point and range tombstones are dropped only
 * at the bottom, when nothing older remains below the output.
 *
 * A range tombstone is clipped to each output SST's share of the key space,
 * [first key of this SST, first key of the next), so every SST of a run
 * carries exactly the tombstones that can cover its keys.
 *
 * The merge takes the smallest head with two heaps of the inputs (the ones
 * not yet started wait apart, so a run's SSTs join one by one) instead of a
 * pass over every input per entry, and asks a tombstone cursor that walks
 * forward with the keys; it writes exactly what that pass would.
 */
#include "engine_internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct output {
    fl_db *db;
    fl_sst_writer *w;
    uint64_t id;
    uint8_t *lo; size_t lolen; bool has_lo;      /* lower bound of this SST */
    const fl_rtomb_list *rts;                    /* kept tombstones        */
    fl_sst_reader **made; size_t count, cap;
} output;

static int out_start(output *o) {
    fl_db *db = o->db;
    fl_sst_write_cfg cfg = {
        .env = db->env, .db_id = db->db_id, .dir = db->dir, .policies = &db->compactor, .calls = db->calls, .min_filter_keys = db->opt.min_filter_keys,
        .block_bytes = db->opt.block_bytes, .legacy_filters = db->opt.legacy_filters,
        .sync = db->opt.sync,
    };
    o->id = db->next_sst++;
    return fl_sst_writer_new(&cfg, o->id, &o->w, db->err, sizeof db->err);
}

/* Finishes the current SST; hi (NULL: unbounded) is the next SST's first key. */
static int out_finish(output *o, const uint8_t *hi, size_t hilen) {
    fl_db *db = o->db;
    int rc = FL_OK;
    for (size_t i = 0; i < o->rts->count && !rc; i++) {
        fl_rtomb rt = o->rts->items[i];
        if (o->has_lo && fl_bytes_cmp(rt.start, rt.slen, o->lo, o->lolen) < 0) {
            rt.start = o->lo;
            rt.slen = o->lolen;
        }
        if (hi && fl_bytes_cmp(rt.end, rt.elen, hi, hilen) > 0) {
            rt.end = (uint8_t *)hi;
            rt.elen = hilen;
        }
        if (fl_bytes_cmp(rt.start, rt.slen, rt.end, rt.elen) < 0) rc = fl_sst_writer_add_rtomb(o->w, &rt);
    }
    if (rc) {
        fl_sst_writer_why(o->w, rc, db->err, sizeof db->err);
        return rc;
    }
    fl_sst_info info;
    rc = fl_sst_writer_finish(o->w, &info, db->err, sizeof db->err);
    o->w = NULL;
    if (rc) return rc;
    bool empty = info.entries == 0 && info.range_tombstones == 0;
    fl_sst_info_free(&info);
    if (empty) {
        char path[4200];
        fl_sst_path(db->dir, o->id, path, sizeof path);
        db->env->ops->remove(db->env, path);
        return FL_OK;
    }
    fl_sst_reader *r;
    if ((rc = fl_db_open_sst(db, o->id, &r))) return rc;
    if (o->count == o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 8;
        fl_sst_reader **n = realloc(o->made, cap * sizeof *n);
        if (!n) { fl_sst_close(r); return FL_ERR_NOMEM; }
        o->made = n;
        o->cap = cap;
    }
    o->made[o->count++] = r;
    db->metrics.ssts_written++;
    return FL_OK;
}

static int out_add(output *o, const fl_entry *e) {
    fl_db *db = o->db;
    int rc;
    if (fl_sst_writer_entries(o->w) > 0 && fl_sst_writer_bytes(o->w) >= db->opt.sst_bytes) {
        if ((rc = out_finish(o, e->key, e->klen))) return rc;
        free(o->lo);
        o->lo = fl_memdup(e->key, e->klen);
        if (!o->lo) return FL_ERR_NOMEM;
        o->lolen = e->klen;
        o->has_lo = true;
        if ((rc = out_start(o))) return rc;
    }
    rc = fl_sst_writer_add(o->w, e);
    if (rc) fl_sst_writer_why(o->w, rc, db->err, sizeof db->err);
    return rc;
}

/* ---- The merge --------------------------------------------------------------
 * Every step writes the smallest head in the order (entry order, input
 * index) -- the smallest entry, from the newest input on a tie -- then moves
 * every input whose head has that key past the key's older versions (in
 * input order, so a failing read is the same one whatever the order of the
 * heaps) and puts it back if it has a head.
 *
 * The inputs wait in two binary min-heaps in that order.  "dormant" holds
 * the inputs that have not moved since they were positioned at their first
 * entry; an input goes to "active" when its head is the smallest.  The
 * smallest head of all is the smaller of the two tops, and only a moved
 * input changes its head, so this picks exactly what a pass over every
 * input would, for any inputs.  And the SSTs of a sorted run cover disjoint
 * key ranges, so the next one of a run wakes up about when the one before
 * it ends: active holds about one SST per run (and the L0 SSTs), however
 * many SSTs the runs have -- compact_all_runs merges every SST of every
 * run.  O(log active) comparisons per entry, most of them on the first 16
 * bytes of the keys, kept beside each head. */

/* An input and its head.  k0, k1: the head key's first 16 bytes as two
 * big-endian words, zero-padded, so that most comparisons in the heap
 * never touch the key bytes (in another input's block, often out of the
 * cache). */
typedef struct input { fl_sst_reader *r; fl_sst_iter it; fl_entry head; uint64_t k0, k1; } input;

/* k0, k1 of a key: the heads (fl_key_head) of its bytes 0-7 and 8-15. */
static inline void key_words(const uint8_t *k, size_t klen, uint64_t *k0, uint64_t *k1) {
    *k0 = fl_key_head(k, klen);
    *k1 = klen > 8 ? fl_key_head(k + 8, klen - 8) : 0;
}

/* Bytewise order of two keys with their words: equal words and one key of
 * at most 16 bytes mean the shorter is a prefix of the other. */
static inline int key_cmp(const uint8_t *a, size_t alen, uint64_t a0, uint64_t a1,
                          const uint8_t *b, size_t blen, uint64_t b0, uint64_t b1) {
    if (a0 != b0) return a0 < b0 ? -1 : 1;
    if (a1 != b1) return a1 < b1 ? -1 : 1;
    if (alen <= 16 || blen <= 16) return alen < blen ? -1 : alen > blen ? 1 : 0;
    return fl_bytes_cmp(a + 16, alen - 16, b + 16, blen - 16);
}

typedef struct merge_heap { const input *src; size_t *h; size_t n; } merge_heap;

/* (head in entry order, input index) */
static inline bool heap_before(const input *src, size_t a, size_t b) {
    const input *x = &src[a], *y = &src[b];
    int c = key_cmp(x->head.key, x->head.klen, x->k0, x->k1, y->head.key, y->head.klen, y->k0, y->k1);
    if (c) return c < 0;
    if (x->head.seq != y->head.seq) return x->head.seq > y->head.seq;
    return a < b;
}

static void heap_sift_down(merge_heap *m, size_t i) {
    size_t v = m->h[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= m->n) break;
        if (c + 1 < m->n && heap_before(m->src, m->h[c + 1], m->h[c])) c++;
        if (!heap_before(m->src, m->h[c], v)) break;
        m->h[i] = m->h[c];
        i = c;
    }
    m->h[i] = v;
}

static void heap_push(merge_heap *m, size_t v) {
    size_t i = m->n++;
    while (i > 0 && heap_before(m->src, v, m->h[(i - 1) / 2])) {
        m->h[i] = m->h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    m->h[i] = v;
}

static size_t heap_pop(merge_heap *m) {
    size_t top = m->h[0];
    if (--m->n > 0) {
        m->h[0] = m->h[m->n];
        heap_sift_down(m, 0);
    }
    return top;
}

/* The input's next entry as its head: 1, 0 at its end, or an error. */
static int next_head(fl_db *db, input *in) {
    int k = fl_sst_next(&in->it, &in->head, db->err, sizeof db->err);
    if (k == 1) key_words(in->head.key, in->head.klen, &in->k0, &in->k1);
    return k;
}

static inline bool head_is(const input *in, const uint8_t *key, size_t klen, uint64_t k0, uint64_t k1) {
    return in->head.klen == klen &&
           key_cmp(in->head.key, klen, in->k0, in->k1, key, klen, k0, k1) == 0;
}

/* Merges inputs (newest first) into a new run. */
static int merge(fl_db *db, fl_sst_reader **in, size_t n, bool bottom, fl_run *run) {
    size_t cap = n ? n : 1;
    input *src = calloc(cap, sizeof *src);
    size_t *heaps = malloc(2 * cap * sizeof *heaps), *same = malloc(cap * sizeof *same);
    uint8_t *key = malloc(FL_MAX_KEY + 1);       /* the key written last (from byte 16) */
    fl_rtomb_list all = { 0 }, none = { 0 };
    fl_rtomb_cursor hidden = { .list = &all };
    merge_heap m = { .src = src, .h = heaps }, dormant = { .src = src, .h = heaps ? heaps + cap : NULL };
    output o = { .db = db };
    int rc = src && heaps && same && key ? FL_OK : FL_ERR_NOMEM;
    for (size_t i = 0; i < n && !rc; i++) {
        src[i].r = in[i];
        rc = fl_sst_seek(in[i], NULL, 0, &src[i].it, db->err, sizeof db->err);
        if (!rc) {
            int k = next_head(db, &src[i]);
            if (k < 0) rc = k;
            if (k == 1) heap_push(&dormant, i);
        }
        for (size_t j = 0; j < in[i]->rtombs.count && !rc; j++) {
            const fl_rtomb *rt = &in[i]->rtombs.items[j];
            rc = fl_rtomb_list_add(&all, rt->start, rt->slen, rt->end, rt->elen, rt->seq);
        }
    }
    if (!rc) fl_rtomb_list_index(&all);          /* stale on NOMEM: scanned */
    o.rts = bottom ? &none : &all;
    if (!rc) rc = out_start(&o);
    while (!rc) {
        while (dormant.n && (!m.n || heap_before(src, dormant.h[0], m.h[0])))
            heap_push(&m, heap_pop(&dormant));
        if (!m.n) break;
        fl_entry e = src[m.h[0]].head;
        bool drop = fl_rtomb_cursor_max_seq(&hidden, e.key, e.klen) > e.seq;
        if (e.kind == FL_ENTRY_DELETE && bottom) drop = true;
        if (!drop) rc = out_add(&o, &e);
        if (rc) break;
        /* the key outlives the block it points into: its words, and its
         * bytes past them copied */
        size_t klen = e.klen;
        uint64_t k0 = src[m.h[0]].k0, k1 = src[m.h[0]].k1;
        if (klen > 16) memcpy(key + 16, e.key + 16, klen - 16);
        /* mostly the key is in the top input only (no child of the top and
         * not the top of dormant has it): moved in place, one sift down */
        if (!(m.n > 1 && head_is(&src[m.h[1]], key, klen, k0, k1)) &&
            !(m.n > 2 && head_is(&src[m.h[2]], key, klen, k0, k1)) &&
            !(dormant.n && head_is(&src[dormant.h[0]], key, klen, k0, k1))) {
            input *in = &src[m.h[0]];
            int k;
            do k = next_head(db, in);               /* past the older versions */
            while (k == 1 && head_is(in, key, klen, k0, k1));
            if (k < 0) rc = k;
            else if (k == 1) heap_sift_down(&m, 0);
            else heap_pop(&m);
            continue;
        }
        size_t ns = 0;
        while (m.n && head_is(&src[m.h[0]], key, klen, k0, k1)) same[ns++] = heap_pop(&m);
        while (dormant.n && head_is(&src[dormant.h[0]], key, klen, k0, k1)) same[ns++] = heap_pop(&dormant);
        for (size_t i = 1; i < ns; i++)          /* input order: insertion sort */
            for (size_t j = i; j > 0 && same[j - 1] > same[j]; j--) {
                size_t t = same[j];
                same[j] = same[j - 1];
                same[j - 1] = t;
            }
        for (size_t i = 0; i < ns && !rc; i++) {
            input *in = &src[same[i]];
            int k;
            do k = next_head(db, in);               /* past the older versions */
            while (k == 1 && head_is(in, key, klen, k0, k1));
            if (k < 0) rc = k;
            else if (k == 1) heap_push(&m, same[i]);
        }
    }
    if (!rc && o.w) rc = out_finish(&o, NULL, 0);
    if (o.w) fl_sst_writer_abort(o.w);
    if (rc) {
        for (size_t i = 0; i < o.count; i++) {
            char path[4200];
            fl_sst_path(db->dir, o.made[i]->info.id, path, sizeof path);
            fl_sst_close(o.made[i]);
            db->env->ops->remove(db->env, path);
        }
        free(o.made);
    } else {
        run->ssts = o.made;
        run->count = o.count;
    }
    free(o.lo);
    free(src);
    free(heaps);
    free(same);
    free(key);
    fl_rtomb_list_free(&all);
    return rc;
}

/* An input of a compaction leaves the tree: its reader is closed now, its
 * file goes once the MANIFEST without it is committed (fl_db_remove_obsolete);
 * until then the MANIFEST names it as obsolete. */
static int retire(fl_db *db, fl_sst_reader *r) {
    uint64_t id = r->info.id;
    fl_sst_close(r);
    if (db->obsolete_count == db->obsolete_cap) {
        size_t cap = db->obsolete_cap ? 2 * db->obsolete_cap : 16;
        uint64_t *n = realloc(db->obsolete, cap * sizeof *n);
        if (!n) return FL_ERR_NOMEM;     /* (its file stays: kept at the next open) */
        db->obsolete = n;
        db->obsolete_cap = cap;
    }
    db->obsolete[db->obsolete_count++] = id;
    return FL_OK;
}

/* L0 (all of it) into a new run, the newest. */
static int compact_l0(fl_db *db) {
    if (db->l0_count == 0) return FL_OK;
    fl_run run = { 0 };
    int rc = merge(db, db->l0, db->l0_count, db->run_count == 0, &run);
    if (rc) return rc;
    if (db->run_count == db->run_cap) {
        size_t cap = db->run_cap ? db->run_cap * 2 : 4;
        fl_run *n = realloc(db->runs, cap * sizeof *n);
        if (!n) return FL_ERR_NOMEM;
        db->runs = n;
        db->run_cap = cap;
    }
    size_t old = db->l0_count;
    fl_sst_reader **olds = db->l0;
    db->l0 = NULL;
    db->l0_count = db->l0_cap = 0;
    if (run.count) {
        memmove(db->runs + 1, db->runs, db->run_count * sizeof *db->runs);
        db->runs[0] = run;
        db->run_count++;
    } else {
        free(run.ssts);
    }
    db->metrics.compactions++;
    for (size_t i = 0; i < old && !rc; i++) rc = retire(db, olds[i]);
    free(olds);
    if (!rc) rc = fl_db_write_manifest(db);
    return rc ? rc : fl_db_remove_obsolete(db);
}

/* Every SST of the given levels into one run at the bottom. */
static int compact_all_runs(fl_db *db, bool with_l0) {
    size_t n = with_l0 ? db->l0_count : 0;
    for (size_t r = 0; r < db->run_count; r++) n += db->runs[r].count;
    if (n == 0) return FL_OK;
    if (db->run_cap == 0) {
        if (!(db->runs = calloc(1, sizeof *db->runs))) return FL_ERR_NOMEM;
        db->run_cap = 1;
    }
    fl_sst_reader **in = malloc(n * sizeof *in);
    if (!in) return FL_ERR_NOMEM;
    size_t k = 0;
    if (with_l0) for (size_t i = 0; i < db->l0_count; i++) in[k++] = db->l0[i];
    for (size_t r = 0; r < db->run_count; r++)
        for (size_t i = 0; i < db->runs[r].count; i++) in[k++] = db->runs[r].ssts[i];
    fl_run run = { 0 };
    int rc = merge(db, in, n, true, &run);
    if (rc) { free(in); return rc; }
    for (size_t r = 0; r < db->run_count; r++) free(db->runs[r].ssts);
    if (with_l0) db->l0_count = 0;
    db->run_count = 0;
    if (run.count) db->runs[db->run_count++] = run;
    else free(run.ssts);
    db->metrics.compactions++;
    for (size_t i = 0; i < n && !rc; i++) rc = retire(db, in[i]);
    free(in);
    if (!rc) rc = fl_db_write_manifest(db);
    return rc ? rc : fl_db_remove_obsolete(db);
}

int fl_compact_auto(fl_db *db, bool force_l0) {
    int rc = FL_OK;
    if (db->l0_count >= db->opt.l0_trigger || (force_l0 && db->l0_count > 0)) rc = compact_l0(db);
    if (!rc && db->run_count > db->opt.max_runs) rc = compact_all_runs(db, false);
    return rc;
}

int fl_compact_full(fl_db *db) {
    return compact_all_runs(db, true);
}
