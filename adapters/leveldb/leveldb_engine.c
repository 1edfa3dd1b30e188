/*
 * leveldb_engine.c -- LevelDB (Debian's libleveldb 1.23) behind the
 * runner's table of operations (check.h, fl_engine_ops "leveldb"), in
 * process, through leveldb_shim.h (LevelDB's C++ API: its C API has no Env
 * of one's own and no flush).
 *
 * How the ops map (docs/leveldb.md has the table):
 *   put, del          Put, Delete (no sync)
 *   delrange          refused: LevelDB has no range deletion
 *   get K             Get: the only read that probes filters.  LevelDB
 *                     probes, in each table whose range holds K (L0
 *                     newest first, then one per deeper level), the filter
 *                     of the data block K would be in, until a table has K
 *   multiget          none (the checker reads each key with get)
 *   scan_prefix P     an iterator from Seek(P) while keys start with P
 *   scan S E          an iterator over [S, E)
 *   seek K            Seek(K) forward, or backward as SeekForPrev: Seek(K),
 *                     then the entry before when it is past K (SeekToLast
 *                     when none is at or past K); `prefix=1` is total order
 *                     like any other: LevelDB has no prefix filtering, so
 *                     scans and seeks probe no filter, and the checker
 *                     holds them to zero probes
 *   flush             CompactRange(NULL, ""): the memtable to a table (at
 *                     the level LevelDB picks for it, 0 to 2), and the
 *                     tables holding the empty key compacted (there is no
 *                     flush of the memtable alone)
 *   compact [full]    CompactRange(NULL, NULL): everything
 *   reopen            close and open with the new options; LevelDB writes
 *                     the memtable to an L0 table as it recovers the log
 *   set_options       refused: LevelDB changes no option on an open
 *                     database (reopen instead)
 *
 * Options: policies is none or one filter policy -- bloom(bits=N) with a
 * whole N as LevelDB's own bloom (leveldb.BuiltinBloomFilter2), or a
 * plugin's policy, run inside LevelDB through filterlab's call wrappers
 * (LevelDB hands a policy user keys only: each is given to the builder as
 * a put with seq 0 and an empty value, every version and deletion of a
 * key included).  Refused: a prefix extractor or whole_key=0 (LevelDB
 * filters whole keys only), two policies, a compactor with other policies,
 * Legacy filters.  memtable_bytes: the engine writes the memtable to a
 * table when that much was written (key + value + 24 per entry);
 * LevelDB's write buffer is larger.  block_bytes -> block_size (LevelDB
 * clips it to 1 KiB .. 4 MiB), sst_bytes -> max_file_size (clipped to 1
 * MiB .. 1 GiB).  l0_trigger, max_runs and min_filter_keys change nothing:
 * LevelDB compacts L0 at 4 tables (a constant) and filters every table.
 *
 * Determinism: the shim's Env runs LevelDB's background work inside the
 * call that scheduled it and leaves no thread behind (leveldb_shim.h); so
 * seek compactions, L0 compactions and memtable writes happen at the same
 * op every run, and the engine is fork-safe.
 *
 * Counters (fl_metrics): every answer of the policy's KeyMayMatch during a
 * get -> point positive / negative, their sum considered; during a scan or
 * seek, prefix (there should be none).  false_positive stays 0 (LevelDB
 * does not say which tables held the key; the checker counts the false
 * positives it can know); LevelDB has no memtable filter.
 *
 * Views: the live tables (the leveldb.sstables property for their numbers
 * and levels; each table's key range and entries read from its file by
 * filterlab's reader, leveldb_sst.c) and each table's filter as read from
 * its file (sst_filter): a filter block that breaks LevelDB's format is a
 * finding (P6), and a built-in bloom that differs from LevelDB's bloom
 * rebuilt over the table's keys is one too (P5).  No probe trace.
 *
 * Built without LevelDB (no FL_HAVE_LEVELDB), the engine still exists and
 * its open fails saying how to get it.
 */
#include "../adapters.h"
#include "leveldb_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MISSING "filterlab was built without LevelDB: install libleveldb-dev " \
                "(apt-get install libleveldb-dev) and rebuild"

#ifdef FL_HAVE_LEVELDB

#define ENTRY_OVERHEAD 24             /* bytes per entry, as filterlab's memtable counts */
#define WRITE_BUFFER ((size_t)1 << 30)    /* LevelDB's largest: the engine flushes first */


static ldb *of(fl_engine *e) { return (ldb *)e; }
static const ldb *cof(const fl_engine *e) { return (const ldb *)e; }

/* Takes the shim's message (freed here). */
static int fail(ldb *e, int rc, char *msg) {
    snprintf(e->err, sizeof e->err, "%s", msg ? msg : "LevelDB failed");
    fl_ldb_free(msg);
    return rc;
}

static int rc_of(const char *msg) {
    return !msg ? FL_ERR_IO : strstr(msg, "Corruption") ? FL_ERR_CORRUPT
         : strstr(msg, "Invalid argument") ? FL_ERR_INVALID : FL_ERR_IO;
}

/* ---- A plugin policy inside LevelDB ------------------------------------------------ */

/* ---- Writes, flushes, compactions ---------------------------------------------------- */

static int flush_now(ldb *e) {
    if (!e->mem_dirty) return FL_OK;
    char *msg = NULL;
    if (fl_ldb_flush(e->db, &msg)) return fail(e, rc_of(msg), msg);
    e->mem_dirty = false;
    e->mem_bytes = 0;
    e->metrics.flushes++;
    ldb_note_files(e, true);
    return FL_OK;
}

static int ldb_flush(fl_engine *x) { return flush_now(of(x)); }

static int ldb_compact(fl_engine *x, bool full) {
    ldb *e = of(x);
    (void)full;                       /* LevelDB's one manual compaction */
    int rc = flush_now(e);
    if (rc) return rc;
    char *msg = NULL;
    if (fl_ldb_compact(e->db, &msg)) return fail(e, rc_of(msg), msg);
    e->metrics.compactions++;
    ldb_note_files(e, true);
    return FL_OK;
}

static int after_write(ldb *e, size_t bytes) {
    e->mem_dirty = true;
    e->mem_bytes += bytes + ENTRY_OVERHEAD;
    return e->mem_bytes >= e->memtable_bytes ? flush_now(e) : FL_OK;
}

static int ldb_put(fl_engine *x, fl_slice k, fl_slice v) {
    ldb *e = of(x);
    char *msg = NULL;
    if (fl_ldb_put(e->db, (const char *)k.data, k.len, (const char *)v.data, v.len, &msg))
        return fail(e, rc_of(msg), msg);
    return after_write(e, k.len + v.len);
}

static int ldb_delete(fl_engine *x, fl_slice k) {
    ldb *e = of(x);
    char *msg = NULL;
    if (fl_ldb_delete(e->db, (const char *)k.data, k.len, &msg)) return fail(e, rc_of(msg), msg);
    return after_write(e, k.len);
}

static int ldb_delete_range(fl_engine *x, fl_slice s, fl_slice end) {
    ldb *e = of(x);
    (void)s; (void)end;
    snprintf(e->err, sizeof e->err, "LevelDB has no range deletion: the leveldb engine cannot run `delrange`");
    return FL_ERR_INVALID;
}

/* ---- Reads ---------------------------------------------------------------------------- */

/* What the policy answered since before, into c. */
static void count_into(ldb *e, const fl_ldb_counts *before, fl_filter_counters *c) {
    uint64_t pos = e->counts.positive - before->positive, neg = e->counts.negative - before->negative;
    c->positive += pos;
    c->negative += neg;
    c->considered += pos + neg;
}


static int ldb_get(fl_engine *x, fl_slice key, const fl_filter_context *ctx, fl_buf *value, bool *found) {
    ldb *e = of(x);
    (void)ctx;                        /* LevelDB has no filter contexts */
    ldb_expect_get(e, key);
    fl_buf_reset(value);
    *found = false;
    fl_ldb_counts before = e->counts;
    char *v = NULL, *msg = NULL;
    size_t vl = 0;
    int f = 0;
    int r = fl_ldb_get(e->db, (const char *)key.data, key.len, &v, &vl, &f, &msg);
    count_into(e, &before, &e->metrics.point);
    ldb_note_files(e, false);             /* a seek compaction may have run */
    if (r) return fail(e, rc_of(msg), msg);
    int rc = FL_OK;
    if (f) {
        *found = true;
        rc = fl_buf_append(value, v, vl);
    }
    fl_ldb_free(v);
    return rc;
}

/* Ends an iterator's read: its counts (into prefix: a scan or seek should
 * probe nothing) and its error. */
static int iter_end(ldb *e, fl_ldb_iter *it, const fl_ldb_counts *before) {
    char *msg = NULL;
    int r = fl_ldb_iter_free(it, &msg);
    count_into(e, before, &e->metrics.prefix);
    ldb_note_files(e, false);
    return r ? fail(e, rc_of(msg), msg) : FL_OK;
}

/* From Seek(start) forward while keys start with prefix (when given) and
 * are below end (when given). */
static int forward(ldb *e, fl_slice start, fl_slice prefix, const fl_slice *end, fl_scan_fn fn, void *arg) {
    e->got = false;
    fl_ldb_counts before = e->counts;
    fl_ldb_iter *it = fl_ldb_iter_new(e->db);
    for (fl_ldb_iter_seek(it, (const char *)start.data, start.len); fl_ldb_iter_valid(it); fl_ldb_iter_next(it)) {
        size_t kl, vl;
        const char *k = fl_ldb_iter_key(it, &kl), *v = fl_ldb_iter_value(it, &vl);
        fl_slice ks = { (const uint8_t *)k, kl }, vs = { (const uint8_t *)v, vl };
        if (kl < prefix.len || (prefix.len && memcmp(k, prefix.data, prefix.len) != 0)) break;
        if (end && fl_slice_cmp(ks, *end) >= 0) break;
        if (fn(arg, ks, vs)) break;
    }
    return iter_end(e, it, &before);
}

static int ldb_scan_prefix(fl_engine *x, fl_slice prefix, const fl_filter_context *ctx, fl_scan_fn fn,
                           void *arg) {
    (void)ctx;
    return forward(of(x), prefix, prefix, NULL, fn, arg);
}

static int ldb_scan(fl_engine *x, fl_slice start, fl_slice end, fl_scan_fn fn, void *arg) {
    if (fl_slice_cmp(end, start) <= 0) return FL_OK;        /* [S, E) is empty */
    return forward(of(x), start, (fl_slice){ (const uint8_t *)"", 0 }, &end, fn, arg);
}

static int ldb_seek(fl_engine *x, fl_slice key, bool backward, uint32_t n, int prefix_mode,
                    const fl_filter_context *ctx, fl_scan_fn fn, void *arg) {
    ldb *e = of(x);
    (void)ctx;
    (void)prefix_mode;                /* no prefix mode: total order always */
    e->got = false;
    fl_ldb_counts before = e->counts;
    fl_ldb_iter *it = fl_ldb_iter_new(e->db);
    fl_ldb_iter_seek(it, (const char *)key.data, key.len);
    if (backward) {
        if (!fl_ldb_iter_valid(it)) {
            fl_ldb_iter_seek_to_last(it);
        } else {
            size_t kl;
            const char *k = fl_ldb_iter_key(it, &kl);
            if (fl_slice_cmp((fl_slice){ (const uint8_t *)k, kl }, key) > 0) fl_ldb_iter_prev(it);
        }
    }
    for (uint32_t i = 0; i < n && fl_ldb_iter_valid(it); i++) {
        size_t kl, vl;
        const char *k = fl_ldb_iter_key(it, &kl), *v = fl_ldb_iter_value(it, &vl);
        if (fn(arg, (fl_slice){ (const uint8_t *)k, kl }, (fl_slice){ (const uint8_t *)v, vl })) break;
        if (i + 1 < n) {
            if (backward) fl_ldb_iter_prev(it);
            else fl_ldb_iter_next(it);
        }
    }
    return iter_end(e, it, &before);
}

static int ldb_set_options(fl_engine *x, const fl_options *opt, char *err, size_t err_len) {
    (void)x; (void)opt;
    snprintf(err, err_len, "LevelDB changes no option on an open database: the leveldb engine cannot run "
             "`set`; reopen with the new options instead");
    return FL_ERR_INVALID;
}

/* ---- Opening and closing ------------------------------------------------------------- */

static void release(ldb *e) {
    fl_ldb_close(e->db);
    ldb_policy_release(&e->pol);
    fl_calls_free(e->own_calls);
    ldb_tables_release(e);
    free(e->dir);
    pthread_mutex_destroy(&e->lock);
    free(e);
}

static size_t clip(uint64_t v, uint64_t lo, uint64_t hi) { return (size_t)(v < lo ? lo : v > hi ? hi : v); }

static int ldb_open(const fl_engine_ops *self, const char *dir, const fl_registry *reg, const fl_options *opt,
                    fl_engine **out, char *err, size_t err_len) {
    (void)self;
    *out = NULL;
    ldb *e = calloc(1, sizeof *e);
    if (!e) return FL_ERR_NOMEM;
    pthread_mutex_init(&e->lock, NULL);
    e->reg = reg;
    e->calls = opt->calls;
    e->pol.bloom_bits = -1;
    if (!(e->dir = strdup(dir)) || (!e->calls && fl_calls_new(reg, &e->own_calls) != FL_OK)) {
        release(e);
        return FL_ERR_NOMEM;
    }
    if (!e->calls) e->calls = e->own_calls;
    fl_call_stats st;
    fl_calls_stats(e->calls, &st);
    e->violations_at_open = st.contract_violations;
    int rc = ldb_policy_make(e, opt, &e->pol, err, err_len);
    if (rc) {
        release(e);
        return rc;
    }
    e->memtable_bytes = opt->memtable_bytes ? opt->memtable_bytes : 1;
    e->cfg = (fl_ldb_config){
        .policy = e->pol.ldb,
        .block_size = clip(opt->block_bytes, 1, (uint64_t)1 << 32),
        .block_restart_interval = 16,
        .write_buffer_size = WRITE_BUFFER,
        .max_file_size = clip(opt->sst_bytes, 1, (uint64_t)1 << 32),
        .sync = opt->sync,
        .paranoid_checks = 1,
    };
    char *msg = NULL;
    if (fl_ldb_open(dir, &e->cfg, &e->db, &msg)) {
        rc = rc_of(msg);
        snprintf(err, err_len, "%s", msg ? msg : "LevelDB refused to open");
        fl_ldb_free(msg);
        release(e);
        return rc;
    }
    ldb_note_files(e, true);
    e->metrics.ssts_written = 0;      /* what was there is not written now */
    *out = (fl_engine *)e;
    return FL_OK;
}

/* Closes: LevelDB's log keeps the memtable, and the next open writes it
 * to a table. */
static int ldb_close(fl_engine *x, char *err, size_t err_len) {
    (void)err; (void)err_len;
    release(of(x));
    return FL_OK;
}

static const char *ldb_errmsg(const fl_engine *x) {
    const ldb *e = cof(x);
    return e->err[0] ? e->err : "no error";
}

static void ldb_metrics(const fl_engine *x, fl_metrics *out) {
    const ldb *e = cof(x);
    fl_call_stats st;
    *out = e->metrics;
    fl_calls_stats(e->calls, &st);
    out->contract_violations = st.contract_violations - e->violations_at_open;
}

const fl_engine_ops fl_engine_leveldb = {
    .name = "leveldb",
    .open = ldb_open,
    .close = ldb_close,
    .errmsg = ldb_errmsg,
    .put = ldb_put,
    .del = ldb_delete,
    .delete_range = ldb_delete_range,
    .flush = ldb_flush,
    .compact = ldb_compact,
    .get = ldb_get,
    .scan_prefix = ldb_scan_prefix,
    .scan = ldb_scan,
    .seek = ldb_seek,
    .set_options = ldb_set_options,
    .metrics = ldb_metrics,
    .ssts = ldb_ssts,
    .sst_entries = ldb_sst_entries,
    .sst_filter = ldb_sst_filter,
    .last_read_probes = ldb_last_read_probes,
    .last_read_trace = ldb_last_read_trace,
    .prefix_reads_seek_levels = false,
    .space = &fl_space_leveldb,
    .fork_safe = true,
};

const char *fl_leveldb_unavailable(void) { return NULL; }

#else /* !FL_HAVE_LEVELDB */

static int ldb_open(const fl_engine_ops *self, const char *dir, const fl_registry *reg, const fl_options *opt,
                    fl_engine **out, char *err, size_t err_len) {
    (void)self; (void)dir; (void)reg; (void)opt;
    *out = NULL;
    snprintf(err, err_len, "%s", MISSING);
    return FL_ERR_NOTFOUND;
}

/* Only open: it fails, so nothing else is ever called. */
const fl_engine_ops fl_engine_leveldb = { .name = "leveldb", .open = ldb_open, .space = &fl_space_leveldb };

const char *fl_leveldb_unavailable(void) { return MISSING; }

#endif /* FL_HAVE_LEVELDB */
