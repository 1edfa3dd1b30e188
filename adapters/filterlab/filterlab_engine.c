/*
 * filterlab_engine.c -- filterlab's own engine (engine/engine.h) behind the
 * table of operations (check.h, fl_engine_ops), with every optional view --
 * probe trace, live SSTs, SST truth, stored filter blocks -- so it is
 * checked probe by probe.  Its files go through fl_options.env (memory and
 * fault envs, crashes), and it has no threads: check's workers fork.
 */
#include "../adapters.h"
#include "filterlab_internal.h"

/* ---- filterlab's engine ------------------------------------------------------ */

/* An fl_engine of this kind is an fl_db. */
static fl_db *db_of(fl_engine *e) { return (fl_db *)e; }
static const fl_db *cdb_of(const fl_engine *e) { return (const fl_db *)e; }

static int fle_open(const fl_engine_ops *self, const char *dir, const fl_registry *reg, const fl_options *opt, fl_engine **out,
                    char *err, size_t err_len) {
    (void)self;
    fl_db *db = NULL;
    int rc = fl_db_open(dir, reg, opt, &db, err, err_len);
    *out = (fl_engine *)db;
    return rc;
}

static int fle_close(fl_engine *e, char *err, size_t err_len) { return fl_db_close(db_of(e), err, err_len); }
static void fle_abandon(fl_engine *e) { fl_db_abandon(db_of(e)); }
static const char *fle_errmsg(const fl_engine *e) { return fl_db_errmsg(cdb_of(e)); }
static const char *fle_note(const fl_engine *e) { return fl_db_note(cdb_of(e)); }
static int fle_put(fl_engine *e, fl_slice k, fl_slice v) { return fl_db_put(db_of(e), k, v); }
static int fle_delete(fl_engine *e, fl_slice k) { return fl_db_delete(db_of(e), k); }
static int fle_delete_range(fl_engine *e, fl_slice s, fl_slice end) {
    return fl_db_delete_range(db_of(e), s, end);
}
static int fle_flush(fl_engine *e) { return fl_db_flush(db_of(e)); }
static int fle_compact(fl_engine *e, bool full) { return fl_db_compact(db_of(e), full); }

static int fle_get(fl_engine *e, fl_slice key, const fl_filter_context *ctx, fl_buf *value, bool *found) {
    return fl_db_get(db_of(e), key, ctx, value, found);
}

static int fle_scan_prefix(fl_engine *e, fl_slice prefix, const fl_filter_context *ctx, fl_scan_fn fn,
                           void *arg) {
    return fl_db_scan_prefix(db_of(e), prefix, ctx, fn, arg);
}

static int fle_scan(fl_engine *e, fl_slice start, fl_slice end, fl_scan_fn fn, void *arg) {
    return fl_db_scan(db_of(e), start, end, fn, arg);
}

static int fle_seek(fl_engine *e, fl_slice key, bool backward, uint32_t n, int prefix_mode,
                    const fl_filter_context *ctx, fl_scan_fn fn, void *arg) {
    return fl_db_seek(db_of(e), key, backward, n, prefix_mode, ctx, fn, arg);
}

static int fle_set_options(fl_engine *e, const fl_options *opt, char *err, size_t err_len) {
    return fl_db_set_options(db_of(e), opt, err, err_len);
}

static void fle_metrics(const fl_engine *e, fl_metrics *out) { fl_db_metrics(cdb_of(e), out); }

static void fle_trace(fl_engine *e, fl_probe_fn fn, void *arg) { fl_db_set_probe_trace(db_of(e), fn, arg); }

static int fle_ssts(const fl_engine *e, fl_sst_meta **out, size_t *count) {
    return fl_db_ssts(cdb_of(e), out, count);
}

static int fle_sst_entries(fl_engine *e, uint64_t id, fl_entry_fn fn, void *arg) {
    return fl_db_sst_entries(db_of(e), id, fn, arg);
}

static int fle_sst_rtombs(fl_engine *e, uint64_t id, fl_rtomb_fn fn, void *arg) {
    return fl_db_sst_range_tombstones(db_of(e), id, fn, arg);
}

static int fle_filter_block(fl_engine *e, uint64_t id, fl_buf *out, int *format) {
    return fl_db_sst_filter_block(db_of(e), id, out, format);
}

/* What both tables below have: the engine's operations, its SST listing,
 * its space, its env. */
#define FLE_OPERATIONS                                                          \
    .open = fle_open, .close = fle_close, .errmsg = fle_errmsg, .put = fle_put,  \
    .del = fle_delete, .delete_range = fle_delete_range, .flush = fle_flush,    \
    .compact = fle_compact, .get = fle_get, .scan_prefix = fle_scan_prefix,     \
    .scan = fle_scan, .seek = fle_seek, .set_options = fle_set_options,         \
    .metrics = fle_metrics, .ssts = fle_ssts, .abandon = fle_abandon,           \
    .note = fle_note, .space = &fl_space_filterlab, .uses_env = true,           \
    .fork_safe = true

const fl_engine_ops fl_engine_filterlab = {
    .name = "filterlab",
    FLE_OPERATIONS,
    .set_probe_trace = fle_trace,
    .sst_entries = fle_sst_entries,
    .sst_range_tombstones = fle_sst_rtombs,
    .sst_filter_block = fle_filter_block,
};

/* ---- The same engine, judged as a foreign one ------------------------------------ */

/* filterlab's engine counts its false positives as it reads (SPEC 6). */
static bool fle_counts_fp(const fl_engine *e, fl_target_kind kind) {
    (void)e;
    (void)kind;
    return true;
}

/* "filterlab:untraced": the same engine with only the views an engine of
 * another language has -- results, counters, the live SSTs -- and no probe
 * trace, no SST truth, no stored filter bytes: what the checker can tell
 * of a foreign engine, measured on one whose every probe is known (docs/engine-filterlab.md,
 * "How much is lost without a probe trace"). */
const fl_engine_ops fl_engine_filterlab_untraced = {
    .name = "filterlab:untraced",
    FLE_OPERATIONS,
    .counts_false_positives = fle_counts_fp,
};
