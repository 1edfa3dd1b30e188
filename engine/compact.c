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

typedef struct input { fl_sst_reader *r; fl_sst_iter it; fl_entry head; bool has; } input;

/* Merges inputs (newest first) into a new run. */
static int merge(fl_db *db, fl_sst_reader **in, size_t n, bool bottom, fl_run *run) {
    input *src = calloc(n ? n : 1, sizeof *src);
    fl_rtomb_list all = { 0 }, none = { 0 };
    output o = { .db = db };
    fl_buf key;
    fl_buf_init(&key);
    int rc = src ? FL_OK : FL_ERR_NOMEM;
    for (size_t i = 0; i < n && !rc; i++) {
        src[i].r = in[i];
        rc = fl_sst_seek(in[i], NULL, 0, &src[i].it, db->err, sizeof db->err);
        if (!rc) {
            int k = fl_sst_next(&src[i].it, &src[i].head, db->err, sizeof db->err);
            if (k < 0) rc = k;
            src[i].has = k == 1;
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
        input *best = NULL;
        for (size_t i = 0; i < n; i++)
            if (src[i].has && (!best || fl_entry_cmp(&src[i].head, &best->head) < 0)) best = &src[i];
        if (!best) break;
        fl_entry e = best->head;
        bool drop = fl_rtomb_max_seq(&all, e.key, e.klen) > e.seq;
        if (e.kind == FL_ENTRY_DELETE && bottom) drop = true;
        if (!drop) rc = out_add(&o, &e);
        /* copy the key before the sources move on */
        fl_buf_reset(&key);
        if (!rc) rc = fl_buf_append(&key, e.key, e.klen);
        for (size_t i = 0; i < n && !rc; i++)
            while (src[i].has && fl_bytes_cmp(src[i].head.key, src[i].head.klen, key.data, key.len) == 0) {
                int k = fl_sst_next(&src[i].it, &src[i].head, db->err, sizeof db->err);
                if (k < 0) { rc = k; break; }
                src[i].has = k == 1;
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
    fl_rtomb_list_free(&all);
    fl_buf_free(&key);
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
