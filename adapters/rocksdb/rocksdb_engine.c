/*
 * rocksdb_engine.c -- RocksDB (Debian's librocksdb 7.8) behind the runner's
 * table of operations (check.h, fl_engine_ops "rocksdb"; SPEC 15), through
 * its C API, rocksdb/c.h.
 *
 * How the ops map (rocksdb_options.c maps the options):
 *   put, del          Put, Delete (no write-ahead log)
 *   delrange S E      DeleteRange (a write batch); nothing when E <= S
 *   get K             Get (a filter context cannot reach RocksDB: ignored);
 *                     with rocksdb.get=multiget the batched MultiGet of the
 *                     one key, which probes filters its own way (the
 *                     table's and the memtable's batched MayMatch, a
 *                     partitioned filter's grouping by partition) and
 *                     counts its probes in the same perf counters
 *   multiget K...     the batched MultiGet of all the keys (unsorted), always
 *   scan_prefix P     prefix mode -- prefix_same_as_start, no total order
 *                     seek -- Seek(P) when the configured extractor's
 *                     PREFIX(P) is Some(n): every key starting with P then
 *                     has the extracted prefix P[0..n), which is what a
 *                     prefix-mode read promises; otherwise total order with
 *                     bounds [P, successor of P); either way the keys are
 *                     read while they start with P
 *   scan S E          total order, bounds [S, E)
 *   flush             Flush, waiting for it
 *   compact [full]    flush, then CompactRange over everything, waiting;
 *                     `full` forces the bottommost level to be rewritten too
 *   reopen            close (after a flush) and open with the new options
 *
 * Determinism: nothing in the background decides anything.  Automatic
 * compactions are off and RocksDB's write buffer is far larger than
 * memtable_bytes: after each write, once memtable_bytes (counted as
 * filterlab's engine counts them: key + value + 24 per entry) were written
 * since the last flush, the engine flushes and waits; after each flush, when
 * L0 holds l0_trigger files, it runs CompactRange and waits.  So the same
 * workload gives the same files, counters and results every time.
 *
 * Counters (fl_metrics): RocksDB's perf context, per read, on the reading
 * thread.  bloom_sst_hit_count -> positive, bloom_sst_miss_count ->
 * negative, their sum -> considered (SSTs whose filter was probed; an SST
 * read without a filter is not seen, so unfiltered stays 0), of `point` for
 * a get and `prefix` for a scan_prefix (and a scan, which should probe
 * none); bloom_memtable_hit/miss_count -> memtable_positive/negative;
 * seek_child_seek_count -> seeks.
 * false_positive stays 0: RocksDB does not say which SSTs held a match (the
 * checker counts false positives where the truth is known).  flushes and
 * compactions count what the engine ran, ssts_written the SSTs that
 * appeared, contract_violations the broken extractor contracts.
 *
 * Views: the live SSTs (rocksdb_livefiles: number, level, key range,
 * entries) and nothing else -- no probe trace, no SST truth.
 *
 * Built without RocksDB (no FL_HAVE_ROCKSDB), the engine still exists and
 * its open fails saying how to get it.
 */
#include "../adapters.h"
#include "rocksdb_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MISSING "filterlab was built without RocksDB: install librocksdb-dev " \
                "(apt-get install librocksdb-dev) and rebuild"

#ifdef FL_HAVE_ROCKSDB

#define ENTRY_OVERHEAD 24             /* bytes per entry, as filterlab's memtable counts */
#define BOTTOMMOST_FORCE 2            /* BottommostLevelCompaction::kForce  */

typedef struct rdb {
    rocksdb_t *db;
    rocksdb_column_family_handle_t *cf;   /* the default family: for MultiGet */
    const fl_registry *reg;           /* for set_options                    */
    fl_rdb_config cfg;
    fl_calls *calls;                  /* opt->calls, or own_calls           */
    fl_calls *own_calls;
    rocksdb_writeoptions_t *write;
    rocksdb_flushoptions_t *flush;
    rocksdb_compactoptions_t *compact, *compact_full;
    rocksdb_readoptions_t *read;      /* for gets                           */
    uint64_t mem_bytes;               /* written since the last flush       */
    bool mem_dirty;
    uint64_t newest_file;             /* highest SST number seen            */
    uint64_t violations_at_open;
    fl_metrics metrics;
    char *dir;
    struct sst_filter *filters;       /* read from the files, by number     */
    size_t nfilters, filters_cap;
    char err[2048];
} rdb;

/* An SST's filter as read from its file (files never change, and RocksDB
 * never reuses a file number in a database). */
typedef struct sst_filter {
    uint64_t id;
    fl_sst_filter f;
    uint8_t *owned;
} sst_filter;

static rdb *of(fl_engine *e) { return (rdb *)e; }
static const rdb *cof(const fl_engine *e) { return (const rdb *)e; }

/* Takes RocksDB's error string (freed here). */
static int fail(rdb *e, int rc, const char *what, char *rerr) {
    snprintf(e->err, sizeof e->err, "RocksDB %s: %s", what, rerr ? rerr : "failed");
    rocksdb_free(rerr);
    return rc;
}

static int rc_of(const char *rerr) {
    return strncmp(rerr, "Invalid argument", 16) == 0 ? FL_ERR_INVALID
         : strncmp(rerr, "Corruption", 10) == 0 ? FL_ERR_CORRUPT : FL_ERR_IO;
}

/* ---- Live files ---------------------------------------------------------------------- */

/* "/000012.sst" -> 12 */
static uint64_t file_number(const char *name) {
    const char *slash = strrchr(name, '/');
    return strtoull(slash ? slash + 1 : name, NULL, 10);
}

static void *copy(const char *p, size_t n) {
    uint8_t *d = malloc(n ? n : 1);
    if (d && n) memcpy(d, p, n);
    return d;
}

static int rdb_ssts(const fl_engine *x, fl_sst_meta **out, size_t *count) {
    const rdb *e = cof(x);
    const rocksdb_livefiles_t *lf = rocksdb_livefiles(e->db);
    int n = lf ? rocksdb_livefiles_count(lf) : 0;
    fl_sst_meta *m = calloc(n > 0 ? (size_t)n : 1, sizeof *m);
    *out = NULL;
    *count = 0;
    if (!m) {
        if (lf) rocksdb_livefiles_destroy(lf);
        return FL_ERR_NOMEM;
    }
    int rc = FL_OK;
    for (int i = 0; i < n && rc == FL_OK; i++) {
        size_t sl, ll;
        const char *s = rocksdb_livefiles_smallestkey(lf, i, &sl);
        const char *l = rocksdb_livefiles_largestkey(lf, i, &ll);
        m[i].id = file_number(rocksdb_livefiles_name(lf, i));
        m[i].level = rocksdb_livefiles_level(lf, i);
        m[i].smallest = copy(s, sl);
        m[i].smallest_len = sl;
        m[i].largest = copy(l, ll);
        m[i].largest_len = ll;
        /* a range tombstone's end may be the largest key: inclusive is the
         * wider reading, the safe one for every use the checker makes */
        m[i].largest_exclusive = false;
        m[i].entries = rocksdb_livefiles_entries(lf, i);
        if (!m[i].smallest || !m[i].largest) rc = FL_ERR_NOMEM;
    }
    if (lf) rocksdb_livefiles_destroy(lf);
    if (rc) {
        fl_sst_meta_free(m, (size_t)n);
        return rc;
    }
    fl_sst_meta_sort_leveled(m, (size_t)n);
    *out = m;
    *count = (size_t)n;
    return FL_OK;
}

/* Counts the SSTs that appeared since the last look; *l0 gets L0's files. */
static void note_files(rdb *e, size_t *l0) {
    const rocksdb_livefiles_t *lf = rocksdb_livefiles(e->db);
    int n = lf ? rocksdb_livefiles_count(lf) : 0;
    uint64_t newest = e->newest_file;
    size_t in_l0 = 0;
    for (int i = 0; i < n; i++) {
        uint64_t id = file_number(rocksdb_livefiles_name(lf, i));
        if (id > e->newest_file) e->metrics.ssts_written++;
        if (id > newest) newest = id;
        if (rocksdb_livefiles_level(lf, i) == 0) in_l0++;
    }
    if (lf) rocksdb_livefiles_destroy(lf);
    e->newest_file = newest;
    if (l0) *l0 = in_l0;
}

/* ---- Flushes and compactions ------------------------------------------------------------ */

static int compact_range(rdb *e, bool full) {
    rocksdb_compact_range_opt(e->db, full ? e->compact_full : e->compact, NULL, 0, NULL, 0);
    e->metrics.compactions++;
    note_files(e, NULL);
    return FL_OK;
}

/* Flushes what was written (waiting), then compacts L0 at its trigger. */
static int flush_now(rdb *e) {
    if (!e->mem_dirty) return FL_OK;
    char *rerr = NULL;
    rocksdb_flush(e->db, e->flush, &rerr);
    if (rerr) return fail(e, rc_of(rerr), "flush", rerr);
    e->mem_dirty = false;
    e->mem_bytes = 0;
    e->metrics.flushes++;
    size_t l0;
    note_files(e, &l0);
    return l0 >= e->cfg.l0_trigger ? compact_range(e, false) : FL_OK;
}

static int rdb_flush(fl_engine *x) { return flush_now(of(x)); }

static int rdb_compact(fl_engine *x, bool full) {
    rdb *e = of(x);
    int rc = flush_now(e);
    return rc ? rc : compact_range(e, full);
}

/* ---- Writes ------------------------------------------------------------------------------ */

static int after_write(rdb *e, size_t bytes) {
    e->mem_dirty = true;
    e->mem_bytes += bytes + ENTRY_OVERHEAD;
    return e->mem_bytes >= e->cfg.memtable_bytes ? flush_now(e) : FL_OK;
}

static int rdb_put(fl_engine *x, fl_slice k, fl_slice v) {
    rdb *e = of(x);
    char *rerr = NULL;
    rocksdb_put(e->db, e->write, (const char *)k.data, k.len, (const char *)v.data, v.len, &rerr);
    if (rerr) return fail(e, rc_of(rerr), "put", rerr);
    return after_write(e, k.len + v.len);
}

static int rdb_delete(fl_engine *x, fl_slice k) {
    rdb *e = of(x);
    char *rerr = NULL;
    rocksdb_delete(e->db, e->write, (const char *)k.data, k.len, &rerr);
    if (rerr) return fail(e, rc_of(rerr), "delete", rerr);
    return after_write(e, k.len);
}

static int rdb_delete_range(fl_engine *x, fl_slice s, fl_slice end) {
    rdb *e = of(x);
    if (fl_slice_cmp(end, s) <= 0) return FL_OK;            /* empty, as filterlab's */
    rocksdb_writebatch_t *b = rocksdb_writebatch_create();
    char *rerr = NULL;
    rocksdb_writebatch_delete_range(b, (const char *)s.data, s.len, (const char *)end.data, end.len);
    rocksdb_write(e->db, e->write, b, &rerr);
    rocksdb_writebatch_destroy(b);
    if (rerr) return fail(e, rc_of(rerr), "delete_range", rerr);
    return after_write(e, s.len + end.len);
}

/* ---- Reads and their perf counters ------------------------------------------------------ */

static rocksdb_perfcontext_t *perf_begin(void) {
    rocksdb_set_perf_level(rocksdb_enable_count);
    rocksdb_perfcontext_t *pc = rocksdb_perfcontext_create();
    rocksdb_perfcontext_reset(pc);
    return pc;
}

static void perf_end(rocksdb_perfcontext_t *pc, fl_filter_counters *c) {
    uint64_t hit = rocksdb_perfcontext_metric(pc, rocksdb_bloom_sst_hit_count);
    uint64_t miss = rocksdb_perfcontext_metric(pc, rocksdb_bloom_sst_miss_count);
    c->considered += hit + miss;
    c->positive += hit;
    c->negative += miss;
    c->memtable_positive += rocksdb_perfcontext_metric(pc, rocksdb_bloom_memtable_hit_count);
    c->memtable_negative += rocksdb_perfcontext_metric(pc, rocksdb_bloom_memtable_miss_count);
    c->seeks += rocksdb_perfcontext_metric(pc, rocksdb_seek_child_seek_count);
    rocksdb_perfcontext_destroy(pc);
    rocksdb_set_perf_level(rocksdb_disable);
}

/* The batched MultiGet of n keys (RocksDB sorts them unless told they are,
 * as a batch of one is; repeats kept); `what` names the op in an error. */
static int batched(rdb *e, size_t n, const fl_slice *keys, fl_buf *values, bool *found, const char *what) {
    const char **k = calloc(n ? n : 1, sizeof *k);
    size_t *sizes = calloc(n ? n : 1, sizeof *sizes);
    rocksdb_pinnableslice_t **v = calloc(n ? n : 1, sizeof *v);
    char **errs = calloc(n ? n : 1, sizeof *errs);
    int rc = k && sizes && v && errs ? FL_OK : FL_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        fl_buf_reset(&values[i]);
        found[i] = false;
        if (rc == FL_OK) {
            k[i] = (const char *)keys[i].data;
            sizes[i] = keys[i].len;
        }
    }
    if (rc == FL_OK) {
        rocksdb_perfcontext_t *pc = perf_begin();
        rocksdb_batched_multi_get_cf(e->db, e->read, e->cf, n, k, sizes, v, errs, n < 2);
        perf_end(pc, &e->metrics.point);
        for (size_t i = 0; i < n; i++) {
            if (errs[i]) {
                if (rc == FL_OK) rc = fail(e, rc_of(errs[i]), what, errs[i]);
                else rocksdb_free(errs[i]);
            } else if (v[i]) {
                size_t len;
                const char *p = rocksdb_pinnableslice_value(v[i], &len);
                found[i] = true;
                if (rc == FL_OK) rc = fl_buf_append(&values[i], p, len);
            }
            if (v[i]) rocksdb_pinnableslice_destroy(v[i]);
        }
    }
    free(k);
    free(sizes);
    free(v);
    free(errs);
    return rc;
}

/* get: Get, or with rocksdb.get=multiget the batched MultiGet of the key. */
static int rdb_get(fl_engine *x, fl_slice key, const fl_filter_context *ctx, fl_buf *value, bool *found) {
    rdb *e = of(x);
    (void)ctx;                        /* RocksDB has no filter contexts     */
    if (e->cfg.multiget) return batched(e, 1, &key, value, found, "get");
    fl_buf_reset(value);
    *found = false;
    char *rerr = NULL;
    rocksdb_perfcontext_t *pc = perf_begin();
    rocksdb_pinnableslice_t *v = rocksdb_get_pinned(e->db, e->read, (const char *)key.data, key.len, &rerr);
    perf_end(pc, &e->metrics.point);
    if (rerr) return fail(e, rc_of(rerr), "get", rerr);
    if (!v) return FL_OK;
    size_t len;
    const char *p = rocksdb_pinnableslice_value(v, &len);
    *found = true;
    int rc = fl_buf_append(value, p, len);
    rocksdb_pinnableslice_destroy(v);
    return rc;
}

/* multiget: the batched MultiGet of all the keys at once, whatever
 * rocksdb.get says. */
static int rdb_multiget(fl_engine *x, size_t n, const fl_slice *keys, const fl_filter_context *ctx,
                        fl_buf *values, bool *found) {
    (void)ctx;
    return batched(of(x), n, keys, values, found, "multiget");
}

/* Reads from Seek(start) while keys start with prefix (when given) and
 * are below end (when given); RocksDB's bounds are set by the caller. */
static int iterate(rdb *e, rocksdb_readoptions_t *ro, fl_slice start, fl_slice prefix, fl_filter_counters *c,
                   fl_scan_fn fn, void *arg) {
    rocksdb_perfcontext_t *pc = perf_begin();
    rocksdb_iterator_t *it = rocksdb_create_iterator(e->db, ro);
    rocksdb_iter_seek(it, (const char *)start.data, start.len);
    for (; rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
        size_t kl, vl;
        const char *k = rocksdb_iter_key(it, &kl), *v = rocksdb_iter_value(it, &vl);
        if (kl < prefix.len || (prefix.len && memcmp(k, prefix.data, prefix.len) != 0)) break;
        fl_slice key = { (const uint8_t *)(k ? k : ""), kl }, value = { (const uint8_t *)(v ? v : ""), vl };
        if (fn(arg, key, value)) break;
    }
    char *rerr = NULL;
    rocksdb_iter_get_error(it, &rerr);
    rocksdb_iter_destroy(it);
    perf_end(pc, c);
    return rerr ? fail(e, rc_of(rerr), "iterator", rerr) : FL_OK;
}

static int rdb_scan_prefix(fl_engine *x, fl_slice prefix, const fl_filter_context *ctx, fl_scan_fn fn,
                           void *arg) {
    rdb *e = of(x);
    (void)ctx;
    size_t n = 0;
    fl_target t = { FL_TARGET_PREFIX, prefix };
    bool prefix_mode = e->cfg.extractor && fl_call_prefix_len(e->calls, e->cfg.extractor, &t, &n);
    rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
    uint8_t *succ = NULL;
    if (prefix_mode) {
        rocksdb_readoptions_set_prefix_same_as_start(ro, 1);
    } else {
        /* [P, successor of P): the last byte below 0xFF, plus one */
        size_t sl = prefix.len;
        while (sl > 0 && prefix.data[sl - 1] == 0xFF) sl--;
        rocksdb_readoptions_set_total_order_seek(ro, 1);
        rocksdb_readoptions_set_iterate_lower_bound(ro, (const char *)prefix.data, prefix.len);
        if (sl > 0 && (succ = malloc(sl))) {
            memcpy(succ, prefix.data, sl);
            succ[sl - 1]++;
            rocksdb_readoptions_set_iterate_upper_bound(ro, (const char *)succ, sl);
        }
    }
    int rc = iterate(e, ro, prefix, prefix, &e->metrics.prefix, fn, arg);
    rocksdb_readoptions_destroy(ro);
    free(succ);
    return rc;
}

static int rdb_scan(fl_engine *x, fl_slice start, fl_slice end, fl_scan_fn fn, void *arg) {
    rdb *e = of(x);
    if (fl_slice_cmp(end, start) <= 0) return FL_OK;        /* [S, E) is empty */
    rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
    rocksdb_readoptions_set_total_order_seek(ro, 1);
    rocksdb_readoptions_set_iterate_lower_bound(ro, (const char *)start.data, start.len);
    rocksdb_readoptions_set_iterate_upper_bound(ro, (const char *)end.data, end.len);
    /* a total-order read probes no filter: whatever it did counts as prefix */
    int rc = iterate(e, ro, start, (fl_slice){ (const uint8_t *)"", 0 }, &e->metrics.prefix, fn, arg);
    rocksdb_readoptions_destroy(ro);
    return rc;
}

/* The seek op (SPEC 9): prefix mode -- prefix_same_as_start, no total
 * order seek -- when asked for and KEY is in the domain of the extractor in
 * force; otherwise total order.  Up to n entries, from Seek(KEY) forward or
 * SeekForPrev(KEY) backward, as RocksDB returns them: which entries end a
 * prefix-mode read is RocksDB's to decide, and the checker's to judge. */
static int rdb_seek(fl_engine *x, fl_slice key, bool backward, uint32_t n, int prefix_mode,
                    const fl_filter_context *ctx, fl_scan_fn fn, void *arg) {
    rdb *e = of(x);
    (void)ctx;
    size_t m = 0;
    fl_target t = { FL_TARGET_POINT, key };
    bool in_prefix = prefix_mode != 0 && e->cfg.extractor && fl_call_prefix_len(e->calls, e->cfg.extractor, &t, &m);
    rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
    if (in_prefix) rocksdb_readoptions_set_prefix_same_as_start(ro, 1);
    else rocksdb_readoptions_set_total_order_seek(ro, 1);
    /* a prefix-mode read is counted as a prefix read; total order uses none */
    rocksdb_perfcontext_t *pc = perf_begin();
    rocksdb_iterator_t *it = rocksdb_create_iterator(e->db, ro);
    if (backward) rocksdb_iter_seek_for_prev(it, (const char *)key.data, key.len);
    else rocksdb_iter_seek(it, (const char *)key.data, key.len);
    for (uint32_t i = 0; i < n && rocksdb_iter_valid(it); i++) {
        size_t kl, vl;
        const char *k = rocksdb_iter_key(it, &kl), *v = rocksdb_iter_value(it, &vl);
        fl_slice ks = { (const uint8_t *)(k ? k : ""), kl }, vs = { (const uint8_t *)(v ? v : ""), vl };
        if (fn(arg, ks, vs)) break;
        if (i + 1 < n) {
            if (backward) rocksdb_iter_prev(it);
            else rocksdb_iter_next(it);
        }
    }
    char *rerr = NULL;
    rocksdb_iter_get_error(it, &rerr);
    rocksdb_iter_destroy(it);
    perf_end(pc, &e->metrics.prefix);
    rocksdb_readoptions_destroy(ro);
    return rerr ? fail(e, rc_of(rerr), backward ? "seek_for_prev" : "seek", rerr) : FL_OK;
}

/* ---- Changing options while open --------------------------------------------------------- */

/* set_options: the new options mapped like an open's; what changed goes to
 * RocksDB's SetOptions in one call, which takes all of it or none (RocksDB
 * says which option it cannot change on an open database: filter_policy,
 * whole_key_filtering, format_version, ...).  The engine's own thresholds
 * (memtable_bytes, l0_trigger) change with it. */
static int rdb_set_options(fl_engine *x, const fl_options *opt, char *err, size_t err_len) {
    rdb *e = of(x);
    fl_rdb_config next;
    fl_rdb_changes ch;
    int rc = fl_rdb_config_make(e->reg, e->calls, opt, &next, err, err_len);
    if (rc) return rc;
    if ((rc = fl_rdb_config_changes(&e->cfg, &next, &ch, err, err_len))) {
        fl_rdb_config_free(e->calls, &next);
        return rc;
    }
    if (ch.count) {
        char *rerr = NULL;
        rocksdb_set_options(e->db, (int)ch.count, ch.keys, ch.values, &rerr);
        if (rerr) {
            size_t used = (size_t)snprintf(err, err_len, "RocksDB refused SetOptions(");
            for (size_t i = 0; i < ch.count && used < err_len; i++)
                used += (size_t)snprintf(err + used, err_len - used, "%s%s=%s", i ? ", " : "", ch.keys[i],
                                         ch.values[i]);
            if (used < err_len) snprintf(err + used, err_len - used, "): %s", rerr);
            rocksdb_free(rerr);
            fl_rdb_config_free(e->calls, &next);
            return FL_ERR_INVALID;
        }
    }
    fl_rdb_config_free(e->calls, &e->cfg);
    e->cfg = next;
    return FL_OK;
}

/* ---- Opening and closing ---------------------------------------------------------------- */

static void release(rdb *e) {
    if (e->cf) rocksdb_column_family_handle_destroy(e->cf);
    if (e->db) rocksdb_close(e->db);
    if (e->write) rocksdb_writeoptions_destroy(e->write);
    if (e->flush) rocksdb_flushoptions_destroy(e->flush);
    if (e->compact) rocksdb_compactoptions_destroy(e->compact);
    if (e->compact_full) rocksdb_compactoptions_destroy(e->compact_full);
    if (e->read) rocksdb_readoptions_destroy(e->read);
    fl_rdb_config_free(e->calls, &e->cfg);
    fl_calls_free(e->own_calls);
    for (size_t i = 0; i < e->nfilters; i++) free(e->filters[i].owned);
    free(e->filters);
    free(e->dir);
    free(e);
}

/* The process whose RocksDB started its background threads (process-wide,
 * at the first open).  fork() copies RocksDB's thread pool without its
 * threads, so in a child of such a process a flush waits forever: the
 * child refuses to open instead (the runner's isolated runs fork from
 * processes that never opened RocksDB themselves). */
static pid_t threads_of;

static int rdb_open(const fl_engine_ops *self, const char *dir, const fl_registry *reg,
                    const fl_options *opt, fl_engine **out, char *err, size_t err_len) {
    (void)self;
    *out = NULL;
    pid_t me = getpid();
    if (threads_of && threads_of != me) {
        snprintf(err, err_len, "RocksDB was opened in process %ld before it forked this one (%ld): "
                 "RocksDB's background threads do not survive fork(), so a flush here would wait "
                 "forever; run RocksDB only in a process, or the children of a process, that has not "
                 "opened it", (long)threads_of, (long)me);
        return FL_ERR_INVALID;
    }
    threads_of = me;
    rdb *e = calloc(1, sizeof *e);
    if (!e) return FL_ERR_NOMEM;
    e->reg = reg;
    e->calls = opt->calls;
    if (!(e->dir = strdup(dir)) || (!e->calls && fl_calls_new(reg, &e->own_calls) != FL_OK)) {
        free(e->dir);
        free(e);
        return FL_ERR_NOMEM;
    }
    if (!e->calls) e->calls = e->own_calls;
    fl_call_stats st;
    fl_calls_stats(e->calls, &st);
    e->violations_at_open = st.contract_violations;
    int rc = fl_rdb_config_make(reg, e->calls, opt, &e->cfg, err, err_len);
    if (rc) {
        release(e);
        return rc;
    }
    char *rerr = NULL;
    /* opened by its one column family, for the handle MultiGet takes (7.8's
     * C API has no other way to it) */
    const char *family = "default";
    const rocksdb_options_t *family_options = e->cfg.options;
    e->db = rocksdb_open_column_families(e->cfg.options, dir, 1, &family, &family_options, &e->cf, &rerr);
    if (!e->db) {
        rc = rerr ? rc_of(rerr) : FL_ERR_IO;
        snprintf(err, err_len, "RocksDB refused to open %s: %s", dir, rerr ? rerr : "no reason given");
        rocksdb_free(rerr);
        release(e);
        return rc;
    }
    e->write = rocksdb_writeoptions_create();
    rocksdb_writeoptions_disable_WAL(e->write, 1);
    e->flush = rocksdb_flushoptions_create();
    rocksdb_flushoptions_set_wait(e->flush, 1);
    e->compact = rocksdb_compactoptions_create();
    e->compact_full = rocksdb_compactoptions_create();
    rocksdb_compactoptions_set_bottommost_level_compaction(e->compact_full, BOTTOMMOST_FORCE);
    e->read = rocksdb_readoptions_create();
    note_files(e, NULL);
    e->metrics.ssts_written = 0;      /* what was there is not written now */
    *out = (fl_engine *)e;
    return FL_OK;
}

/* Flushes (without a write-ahead log the memtable would be lost), closes. */
static int rdb_close(fl_engine *x, char *err, size_t err_len) {
    rdb *e = of(x);
    int rc = flush_now(e);
    if (rc && err) snprintf(err, err_len, "%s", e->err);
    release(e);
    return rc;
}

/* The filter of live SST id, read from its file once. */
static int rdb_sst_filter(fl_engine *x, uint64_t id, const fl_sst_filter **out) {
    rdb *e = of(x);
    *out = NULL;
    for (size_t i = 0; i < e->nfilters; i++) {
        if (e->filters[i].id == id) {
            *out = &e->filters[i].f;
            return FL_OK;
        }
    }
    if (e->nfilters == e->filters_cap) {
        size_t cap = e->filters_cap ? 2 * e->filters_cap : 16;
        sst_filter *n = realloc(e->filters, cap * sizeof *n);
        if (!n) return FL_ERR_NOMEM;
        e->filters = n;
        e->filters_cap = cap;
    }
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%06llu.sst", e->dir, (unsigned long long)id) >= (int)sizeof path)
        return FL_ERR_INVALID;
    sst_filter *s = &e->filters[e->nfilters];
    s->id = id;
    int rc = fl_rdb_sst_filter_read(path, &s->f, &s->owned, e->err, sizeof e->err);
    if (rc != FL_OK) return rc == FL_ERR_IO && access(path, F_OK) != 0 ? FL_ERR_NOTFOUND : rc;
    e->nfilters++;
    *out = &s->f;
    return FL_OK;
}

static const char *rdb_errmsg(const fl_engine *x) {
    const rdb *e = cof(x);
    return e->err[0] ? e->err : "no error";
}

static void rdb_metrics(const fl_engine *x, fl_metrics *out) {
    const rdb *e = cof(x);
    fl_call_stats st;
    *out = e->metrics;
    fl_calls_stats(e->calls, &st);
    out->contract_violations = st.contract_violations - e->violations_at_open;
}

const fl_engine_ops fl_engine_rocksdb = {
    .name = "rocksdb",
    .open = rdb_open,
    .close = rdb_close,
    .errmsg = rdb_errmsg,
    .put = rdb_put,
    .del = rdb_delete,
    .delete_range = rdb_delete_range,
    .flush = rdb_flush,
    .compact = rdb_compact,
    .get = rdb_get,
    .multiget = rdb_multiget,
    .scan_prefix = rdb_scan_prefix,
    .scan = rdb_scan,
    .seek = rdb_seek,
    .set_options = rdb_set_options,
    .metrics = rdb_metrics,
    .ssts = rdb_ssts,
    .sst_filter = rdb_sst_filter,
    .prefix_reads_seek_levels = true,
    .space = &fl_space_rocksdb,
    /* trials in a worker, one after another (a fifth more per second):
     * RocksDB's threads (Env::Default's pools) stay idle between them,
     * every DB and its caches are closed with its trial, and the worker
     * never forks; a worker is replaced every 256 trials */
    .fork_safe = true,
};

const char *fl_rocksdb_unavailable(void) { return NULL; }

/* (rocksdb/version.h is C++: the Makefile reads the version from it) */
#ifndef FL_ROCKSDB_VERSION
#define FL_ROCKSDB_VERSION "unknown"
#endif
const char *fl_rocksdb_version(void) { return FL_ROCKSDB_VERSION[0] ? FL_ROCKSDB_VERSION : "unknown"; }

#else /* !FL_HAVE_ROCKSDB */

static int rdb_open(const fl_engine_ops *self, const char *dir, const fl_registry *reg,
                    const fl_options *opt, fl_engine **out, char *err, size_t err_len) {
    (void)self; (void)dir; (void)reg; (void)opt;
    *out = NULL;
    snprintf(err, err_len, "%s", MISSING);
    return FL_ERR_NOTFOUND;
}

/* Only open: it fails, so nothing else is ever called. */
const fl_engine_ops fl_engine_rocksdb = { .name = "rocksdb", .open = rdb_open, .space = &fl_space_rocksdb };

const char *fl_rocksdb_unavailable(void) { return MISSING; }

const char *fl_rocksdb_version(void) { return NULL; }

#endif /* FL_HAVE_ROCKSDB */
