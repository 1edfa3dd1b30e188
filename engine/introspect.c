/*
 * introspect.c -- what the checker may see of the engine's SSTs besides
 * their metadata: every entry read straight from the data blocks (no filter
 * is asked, no metric moves), the range tombstones, and the filter block as
 * stored.  Reads only; the tree is not changed.
 */
#include "engine_internal.h"

#include <stdlib.h>

static fl_sst_reader *find_sst(fl_db *db, uint64_t id) {
    for (size_t i = 0; i < db->l0_count; i++)
        if (db->l0[i]->info.id == id) return db->l0[i];
    for (size_t r = 0; r < db->run_count; r++)
        for (size_t i = 0; i < db->runs[r].count; i++)
            if (db->runs[r].ssts[i]->info.id == id) return db->runs[r].ssts[i];
    return NULL;
}

static int not_found(fl_db *db, uint64_t id) {
    return fl_db_fail(db, FL_ERR_NOTFOUND, "no live SST with id %llu", (unsigned long long)id);
}

int fl_db_sst_entries(fl_db *db, uint64_t id, fl_entry_fn fn, void *arg) {
    fl_sst_reader *r = find_sst(db, id);
    if (!r) return not_found(db, id);
    fl_sst_iter it;
    fl_entry e;
    int rc = fl_sst_seek(r, NULL, 0, &it, db->err, sizeof db->err);
    while (rc == FL_OK) {
        int k = fl_sst_next(&it, &e, db->err, sizeof db->err);
        if (k <= 0) return k;
        fl_row_entry row = { { e.key, e.klen }, { e.val, e.vlen }, e.seq, (fl_entry_kind)e.kind };
        if (fn(arg, &row)) break;
    }
    return rc;
}

int fl_db_sst_range_tombstones(fl_db *db, uint64_t id, fl_rtomb_fn fn, void *arg) {
    fl_sst_reader *r = find_sst(db, id);
    if (!r) return not_found(db, id);
    for (size_t i = 0; i < r->rtombs.count; i++) {
        const fl_rtomb *rt = &r->rtombs.items[i];
        if (fn(arg, (fl_slice){ rt->start, rt->slen }, (fl_slice){ rt->end, rt->elen }, rt->seq)) break;
    }
    return FL_OK;
}

int fl_db_sst_filter_block(fl_db *db, uint64_t id, fl_buf *out, int *format) {
    fl_sst_reader *r = find_sst(db, id);
    if (!r) return not_found(db, id);
    fl_buf_reset(out);
    *format = r->info.filter_format;
    uint8_t *b;
    size_t len;
    int rc = fl_sst_filter_bytes(r, &b, &len);
    if (rc == FL_ERR_CORRUPT)
        return fl_db_fail(db, rc, "%s: corrupt filter block: checksum or bounds", r->path);
    if (rc < 0) return rc;
    if (rc == 1) rc = fl_buf_append(out, b, len);
    free(b);
    return rc < 0 ? rc : FL_OK;
}
