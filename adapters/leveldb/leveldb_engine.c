/*
 * leveldb_engine.c -- LevelDB (Debian's libleveldb 1.23) behind the
 * runner's table of operations (check.h, fl_engine_ops "leveldb"), in
 * process, through leveldb_shim.h (LevelDB's C++ API: its C API has no Env
 * of one's own and no flush).
 *
 * How the ops map (the README's "Testing LevelDB" has the table):
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

#include "leveldb_shim.h"
#include "leveldb_sst.h"

#include <pthread.h>

#define ENTRY_OVERHEAD 24             /* bytes per entry, as filterlab's memtable counts */
#define WRITE_BUFFER ((size_t)1 << 30)    /* LevelDB's largest: the engine flushes first */

/* The configured filter policy, as LevelDB runs it. */
typedef struct policy {
    fl_ldb_policy *ldb;               /* NULL: no filter                     */
    int bloom_bits;                   /* LevelDB's bloom: its bits; else -1  */
    fl_filter_policy *plugin;         /* a plugin's policy, or NULL          */
    fl_calls *calls;
    pthread_mutex_t *lock;            /* the calls' one thread at a time     */
} policy;

/* A live table as read from its file (files never change, and LevelDB
 * never reuses a file number). */
typedef struct table {
    uint64_t id;
    fl_buf bytes;
    fl_ldb_table *t;                  /* NULL when it could not be read      */
    int rc;
    fl_sst_filter f;
    char err[1024];
} table;

typedef struct listed listed;

typedef struct ldb {
    fl_ldb *db;
    const fl_registry *reg;
    fl_calls *calls, *own_calls;
    pthread_mutex_t lock;
    policy pol;
    fl_ldb_counts counts;
    fl_ldb_config cfg;
    uint64_t memtable_bytes, mem_bytes;
    bool mem_dirty;
    uint64_t newest_file;
    uint64_t shape;                   /* a hash of the last listing          */
    listed *listing;                  /* the live tables, as last listed     */
    size_t nlisting;
    int last_rc;                      /* last_get_probes: FL_OK or why not   */
    uint64_t last_pos, last_neg;
    uint64_t violations_at_open;
    fl_metrics metrics;
    char *dir;
    table *tables;
    size_t ntables, tables_cap;
    char err[2048];
} ldb;

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

static void plugin_create(void *arg, const char *const *keys, const size_t *lens, int n, char **out,
                          size_t *out_len) {
    policy *p = arg;
    *out = NULL;
    *out_len = 0;
    pthread_mutex_lock(p->lock);
    fl_filter_builder *b = NULL;
    if (fl_call_new_builder(p->calls, p->plugin, &b) == FL_OK && b) {
        for (int i = 0; i < n; i++) {
            fl_row_entry en = { { (const uint8_t *)keys[i], lens[i] }, { (const uint8_t *)"", 0 }, 0,
                                FL_ENTRY_PUT };
            fl_call_add_entry(p->calls, p->plugin, b, &en);
        }
        fl_filter *f = NULL;
        if (fl_call_build(p->calls, p->plugin, b, &f) == FL_OK && f) {
            fl_buf enc;
            fl_buf_init(&enc);
            if (fl_call_encode(p->calls, p->plugin, f, &enc) == FL_OK) {
                *out = (char *)enc.data;
                *out_len = enc.len;
            } else {
                fl_buf_free(&enc);
            }
            fl_call_filter_destroy(p->calls, p->plugin, f);
        }
        fl_call_builder_destroy(p->calls, p->plugin, b);
    }
    pthread_mutex_unlock(p->lock);
    /* A builder or filter that failed (the wrappers reported it) stores no
     * bytes; the plugin then decodes the empty filter at every probe, and
     * its answer is judged like any other. */
}

static int plugin_may_match(void *arg, const char *key, size_t len, const char *filter, size_t flen) {
    policy *p = arg;
    pthread_mutex_lock(p->lock);
    fl_filter *f = NULL;
    bool m = true;
    if (fl_call_decode(p->calls, p->plugin, (fl_slice){ (const uint8_t *)filter, flen }, &f) == FL_OK && f) {
        fl_filter_query q = { { FL_TARGET_POINT, { (const uint8_t *)key, len } }, NULL };
        m = fl_call_might_match(p->calls, p->plugin, f, &q);
        fl_call_filter_destroy(p->calls, p->plugin, f);
    }
    pthread_mutex_unlock(p->lock);
    return m;
}

static void policy_free(policy *p) {
    fl_ldb_policy_free(p->ldb);
    if (p->plugin) fl_call_policy_destroy(p->calls, p->plugin);
    memset(p, 0, sizeof *p);
    p->bloom_bits = -1;
}

/* The policy of opt, as LevelDB runs it (README, "Testing LevelDB"). */
static int policy_make(ldb *e, const fl_options *opt, policy *out, char *err, size_t len) {
    memset(out, 0, sizeof *out);
    out->bloom_bits = -1;
    out->calls = e->calls;
    out->lock = &e->lock;
    const char *list = opt->policies ? opt->policies : FL_DEFAULT_POLICIES;
    if (opt->compactor && strcmp(opt->compactor, list) != 0) {
        snprintf(err, len, "compactor=\"%s\": LevelDB cannot express it: it compacts with the one filter "
                 "policy it was opened with (policies=\"%s\")", opt->compactor, list);
        return FL_ERR_INVALID;
    }
    if (opt->legacy_filters) {
        snprintf(err, len, "legacy_filters=%d: LevelDB cannot express it: it has one filter format, its own", opt->legacy_filters);
        return FL_ERR_INVALID;
    }
    char perr[1024] = "";
    struct { size_t count; char *first; } l;
    int rc = fl_policy_list_first(list, &l.count, &l.first, perr, sizeof perr);
    if (rc) {
        snprintf(err, len, "policies: %s", perr[0] ? perr : fl_strerror(rc));
        return rc;
    }
    if (l.count == 0) return FL_OK;
    if (l.count > 1) {
        snprintf(err, len, "policies=\"%s\": LevelDB cannot express it: it runs one filter policy, this list "
                 "has %zu", list, l.count);
        free(l.first);
        return FL_ERR_INVALID;
    }
    fl_filter_policy *p = NULL;
    if ((rc = fl_registry_make_policy(e->reg, l.first, &p, perr, sizeof perr))) {
        snprintf(err, len, "policies: %s", perr[0] ? perr : fl_strerror(rc));
        free(l.first);
        return rc;
    }
    if (!fl_policy_is_builtin_bloom(p)) {
        out->plugin = p;
        out->ldb = fl_ldb_policy_custom(fl_call_policy_name(e->calls, p),
                                        &(fl_ldb_policy_fns){ out, plugin_create, plugin_may_match },
                                        &e->counts);
        free(l.first);
        return FL_OK;
    }
    fl_call_policy_destroy(e->calls, p);
    char v[64];
    if (fl_spec_argument(l.first, "prefix", v, sizeof v) ||
        (fl_spec_argument(l.first, "whole_key", v, sizeof v) && strcmp(v, "1") != 0)) {
        snprintf(err, len, "policies=\"%s\": LevelDB cannot express it: its filters hold whole keys, and it "
                 "has no prefix filtering (no prefix=, no whole_key=0)", list);
        free(l.first);
        return FL_ERR_INVALID;
    }
    long bits = 10;
    if (fl_spec_argument(l.first, "bits", v, sizeof v)) {
        char *end;
        bits = strtol(v, &end, 10);
        if (*end || end == v || bits < 0 || bits > 100000) {
            snprintf(err, len, "policies=\"%s\": LevelDB cannot express it: its bloom takes a whole "
                     "number of bits per key (0 to 100000), not %s", list, v);
            free(l.first);
            return FL_ERR_INVALID;
        }
    }
    free(l.first);
    out->bloom_bits = (int)bits;
    out->ldb = fl_ldb_policy_bloom((int)bits, &e->counts);
    return FL_OK;
}

/* ---- Live tables ------------------------------------------------------------------ */

static void table_release(table *t) {
    fl_ldb_table_free(t->t);
    fl_buf_free(&t->bytes);
}

/* The P9 view of a table's filter (what it is and what P5 found). */
static void table_filter(ldb *e, table *t) {
    fl_sst_filter *f = &t->f;
    memset(f, 0, sizeof *f);
    const char *name = fl_ldb_table_filter_name(t->t);
    if (!name) {
        f->kind = FL_SSTF_NONE;
        snprintf(f->what, sizeof f->what, "none");
        return;
    }
    f->kind = FL_SSTF_OTHER;
    f->bytes = fl_ldb_table_filter_block_bytes(t->t);
    snprintf(f->what, sizeof f->what, "%.30s (one per %u-byte window)", name,
             1u << fl_ldb_table_filter_base_lg(t->t));
    /* P5: LevelDB's own bloom, at the bits configured, must be exactly
     * LevelDB's bloom rebuilt over the table's keys */
    if (strcmp(name, "leveldb.BuiltinBloomFilter2") == 0 && e->pol.bloom_bits >= 0 && !e->pol.plugin) {
        char why[160];
        if (fl_ldb_bloom_check(t->t, e->pol.bloom_bits, why, sizeof why) != FL_OK)
            snprintf(f->defect, sizeof f->defect, "its bloom is not LevelDB's bloom at %d bits per key over "
                     "its keys: %s", e->pol.bloom_bits, why);
    }
}

static table *table_of(ldb *e, uint64_t id) {
    for (size_t i = 0; i < e->ntables; i++)
        if (e->tables[i].id == id) return &e->tables[i];
    if (e->ntables == e->tables_cap) {
        size_t cap = e->tables_cap ? 2 * e->tables_cap : 16;
        table *n = realloc(e->tables, cap * sizeof *n);
        if (!n) return NULL;
        e->tables = n;
        e->tables_cap = cap;
    }
    table *t = &e->tables[e->ntables++];
    memset(t, 0, sizeof *t);
    t->id = id;
    char path[4096];
    snprintf(path, sizeof path, "%s/%06llu.ldb", e->dir, (unsigned long long)id);
    int rc = fl_env_read_file(fl_env_posix(), path, &t->bytes);
    if (rc) {
        t->rc = FL_ERR_IO;
        snprintf(t->err, sizeof t->err, "table %llu: cannot read %.900s: %s", (unsigned long long)id, path,
                 strerror(rc));
        return t;
    }
    char why[512];
    t->rc = fl_ldb_table_open(t->bytes.data, t->bytes.len, 0, &t->t, why, sizeof why);
    if (t->rc) snprintf(t->err, sizeof t->err, "table %06llu.ldb breaks LevelDB's format: %s",
                        (unsigned long long)id, why);
    else table_filter(e, t);
    return t;
}

/* A table as the leveldb.sstables property lists it: " NUMBER:SIZE[KEY @
 * SEQ : TYPE .. KEY @ SEQ : TYPE]" under "--- level N ---", each KEY
 * between quotes with the bytes outside ' '..'~' written \xNN.  The keys
 * are taken from there only for a table filterlab's reader cannot read
 * (whose P6 the checker reports): the escaping is not reversible (a key
 * holding a backslash, or "' @ "), so the file is the truth when it reads. */
struct listed {
    uint64_t id;
    int level;
    char *line;                       /* the property's line of the table    */
};

static void listed_free(listed *l, size_t n) {
    for (size_t i = 0; i < n; i++) free(l[i].line);
    free(l);
}

/* One key of a listed line: from after the quote at p to the quote
 * that starts "' @ DIGITS : DIGITS" + want, unescaped into out. */
static bool listed_key(const char *p, const char *want, fl_buf *out, const char **after) {
    for (const char *q = p; (q = strstr(q, "' @ ")) != NULL; q++) {
        unsigned long long seq;
        int type, used = 0;
        if (sscanf(q, "' @ %llu : %d%n", &seq, &type, &used) != 2 || strncmp(q + used, want, strlen(want)) != 0)
            continue;
        for (const char *c = p; c < q; c++) {
            unsigned v;
            uint8_t b = (uint8_t)*c;
            if (c[0] == '\\' && c[1] == 'x' && q - c >= 4 && sscanf(c + 2, "%2x", &v) == 1) {
                b = (uint8_t)v;
                c += 3;
            }
            if (fl_buf_append(out, &b, 1) != FL_OK) return false;
        }
        *after = q + used + strlen(want);
        return true;
    }
    return false;
}

/* The key range of a listed line, as best it can be read (above). */
static bool listed_range(const char *line, fl_buf *lo, fl_buf *hi) {
    const char *p = strstr(line, "['"), *after;
    return p && listed_key(p + 2, " .. '", lo, &after) && listed_key(after, "]", hi, &after);
}

/* The live tables, by the leveldb.sstables property. */
static int list_tables(ldb *e, listed **out, size_t *count) {
    *out = NULL;
    *count = 0;
    char *s = fl_ldb_property(e->db, "leveldb.sstables");
    if (!s) {
        snprintf(e->err, sizeof e->err, "LevelDB has no leveldb.sstables property");
        return FL_ERR_IO;
    }
    size_t cap = 16, n = 0;
    listed *l = malloc(cap * sizeof *l);
    int level = -1, rc = l ? FL_OK : FL_ERR_NOMEM;
    for (char *line = s, *next; rc == FL_OK && line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        if (sscanf(line, "--- level %d ---", &level) == 1) continue;
        char *end;
        if (line[0] != ' ' || level < 0) continue;
        unsigned long long id = strtoull(line + 1, &end, 10);
        if (end == line + 1 || *end != ':') continue;
        if (n == cap) {
            listed *m = realloc(l, 2 * cap * sizeof *l);
            if (!m) { rc = FL_ERR_NOMEM; break; }
            l = m;
            cap *= 2;
        }
        l[n] = (listed){ id, level, strdup(line) };
        if (!l[n++].line) rc = FL_ERR_NOMEM;
    }
    fl_ldb_free(s);
    if (rc) { listed_free(l, n); return rc; }
    *out = l;
    *count = n;
    return FL_OK;
}

static void *copy(const uint8_t *p, size_t n) {
    uint8_t *d = malloc(n ? n : 1);
    if (d && n) memcpy(d, p, n);
    return d;
}

/* Read order: L0 newest first, then each level in key order. */
static int meta_order(const void *pa, const void *pb) {
    const fl_sst_meta *a = pa, *b = pb;
    if (a->level != b->level) return a->level < b->level ? -1 : 1;
    if (a->level == 0) return a->id > b->id ? -1 : a->id < b->id;
    size_t n = a->smallest_len < b->smallest_len ? a->smallest_len : b->smallest_len;
    int c = n ? memcmp(a->smallest, b->smallest, n) : 0;
    return c ? c : (a->smallest_len > b->smallest_len) - (a->smallest_len < b->smallest_len);
}

static int ldb_ssts(const fl_engine *x, fl_sst_meta **out, size_t *count) {
    ldb *e = (ldb *)x;                /* (the table cache fills in) */
    listed *l;
    size_t n;
    *out = NULL;
    *count = 0;
    int rc = list_tables(e, &l, &n);
    if (rc) return rc;
    fl_sst_meta *m = calloc(n ? n : 1, sizeof *m);
    if (!m) { free(l); return FL_ERR_NOMEM; }
    for (size_t i = 0; i < n && rc == FL_OK; i++) {
        table *t = table_of(e, l[i].id);
        if (!t) { rc = FL_ERR_NOMEM; break; }
        m[i].id = l[i].id;
        m[i].level = l[i].level;
        fl_buf lo, hi;
        fl_buf_init(&lo);
        fl_buf_init(&hi);
        fl_slice s, g;
        if (t->rc == FL_OK) {
            s = fl_ldb_table_smallest(t->t);
            g = fl_ldb_table_largest(t->t);
            m[i].entries = fl_ldb_table_entries_count(t->t);
        } else if (t->rc == FL_ERR_CORRUPT && listed_range(l[i].line, &lo, &hi)) {
            /* unreadable: sst_filter says so (P6); LevelDB's range meanwhile */
            s = (fl_slice){ lo.data, lo.len };
            g = (fl_slice){ hi.data, hi.len };
        } else {
            snprintf(e->err, sizeof e->err, "%s", t->err);
            rc = t->rc;
            break;
        }
        m[i].smallest = copy(s.data, s.len);
        m[i].smallest_len = s.len;
        m[i].largest = copy(g.data, g.len);
        m[i].largest_len = g.len;
        fl_buf_free(&lo);
        fl_buf_free(&hi);
        if (!m[i].smallest || !m[i].largest) rc = FL_ERR_NOMEM;
    }
    listed_free(l, n);
    if (rc) {
        fl_sst_meta_free(m, n);
        return rc;
    }
    qsort(m, n, sizeof *m, meta_order);
    *out = m;
    *count = n;
    return FL_OK;
}

/* The table's entries as read from its file, in table order. */
typedef struct entries_arg { fl_entry_fn fn; void *arg; } entries_arg;

static int each_entry(void *arg, fl_slice key, uint64_t seq, bool deletion, fl_slice value) {
    entries_arg *a = arg;
    fl_row_entry en = { key, deletion ? (fl_slice){ (const uint8_t *)"", 0 } : value, seq,
                        deletion ? FL_ENTRY_DELETE : FL_ENTRY_PUT };
    return a->fn(a->arg, &en);
}

static int ldb_sst_entries(fl_engine *x, uint64_t id, fl_entry_fn fn, void *arg) {
    ldb *e = of(x);
    table *t = table_of(e, id);
    if (!t) return FL_ERR_NOMEM;
    if (t->rc) {
        snprintf(e->err, sizeof e->err, "%s", t->err);
        return t->rc == FL_ERR_IO ? FL_ERR_NOTFOUND : t->rc;
    }
    entries_arg a = { fn, arg };
    return fl_ldb_table_each(t->t, each_entry, &a);
}

static int ldb_sst_filter(fl_engine *x, uint64_t id, const fl_sst_filter **out) {
    ldb *e = of(x);
    *out = NULL;
    table *t = table_of(e, id);
    if (!t) return FL_ERR_NOMEM;
    if (t->rc) {
        snprintf(e->err, sizeof e->err, "%s", t->err);
        return t->rc == FL_ERR_IO ? FL_ERR_NOTFOUND : t->rc;
    }
    *out = &t->f;
    return FL_OK;
}

/* Counts the tables that appeared since the last look; a listing that
 * changed where the engine ran nothing (own false: a get's seek
 * compaction, LevelDB's move of a table to another level) counts as a
 * compaction LevelDB ran, so that the checker looks again. */
static void note_files(ldb *e, bool own) {
    listed *l;
    size_t n;
    if (list_tables(e, &l, &n) != FL_OK) return;
    uint64_t newest = e->newest_file, shape = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        if (l[i].id > e->newest_file) e->metrics.ssts_written++;
        if (l[i].id > newest) newest = l[i].id;
        shape = (shape ^ (l[i].id * 131 + (uint64_t)l[i].level)) * 1099511628211ull;
    }
    if (!own && shape != e->shape) e->metrics.compactions++;
    e->shape = shape;
    e->newest_file = newest;
    listed_free(e->listing, e->nlisting);
    e->listing = l;
    e->nlisting = n;
}

/* ---- Writes, flushes, compactions ---------------------------------------------------- */

static int flush_now(ldb *e) {
    if (!e->mem_dirty) return FL_OK;
    char *msg = NULL;
    if (fl_ldb_flush(e->db, &msg)) return fail(e, rc_of(msg), msg);
    e->mem_dirty = false;
    e->mem_bytes = 0;
    e->metrics.flushes++;
    note_files(e, true);
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
    note_files(e, true);
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

static int key_cmp(const uint8_t *a, size_t al, const uint8_t *b, size_t bl) {
    size_t n = al < bl ? al : bl;
    int c = n ? memcmp(a, b, n) : 0;
    return c ? c : (al > bl) - (al < bl);
}

typedef struct has_key { fl_slice k; bool found; } has_key;

static int note_key(void *arg, fl_slice user_key, uint64_t seq, bool deletion, fl_slice value) {
    has_key *h = arg;
    (void)seq; (void)deletion; (void)value;
    if (key_cmp(user_key.data, user_key.len, h->k.data, h->k.len) == 0) h->found = true;
    return h->found;
}

/* One table a get looks in: its filter's answer from the stored bits (a
 * table under another policy's name has no filter here), and whether it
 * holds the key -- then the get stops there.  FL_ERR_NOTFOUND when only a
 * plugin knows the filter's answer. */
static int expect_table(ldb *e, const table *t, fl_slice key, uint64_t *pos, uint64_t *neg, bool *stop) {
    const char *name = fl_ldb_table_filter_name(t->t);
    const char *want = e->pol.ldb ? (e->pol.plugin ? fl_call_policy_name(e->calls, e->pol.plugin)
                                                   : "leveldb.BuiltinBloomFilter2") : NULL;
    fl_slice f;
    size_t idx;
    if (name && want && strcmp(name, want) == 0 && fl_ldb_table_filter_for(t->t, key.data, key.len, &f, &idx) == 1) {
        if (e->pol.plugin) return FL_ERR_NOTFOUND;
        if (!fl_ldb_bloom_may_match(f, key.data, key.len)) {
            (*neg)++;
            return FL_OK;                       /* skipped: the block is not read */
        }
        (*pos)++;
    }
    has_key h = { key, false };
    /* (a key is in the range of a table, and the entries are sorted: a
     * full walk is fine for the checker's small tables) */
    fl_ldb_table_each(t->t, note_key, &h);
    *stop = h.found;
    return FL_OK;
}

/* What LevelDB's Version::Get will probe for key, from the live tables:
 * the L0 tables holding it in their range, newest first, then the one
 * table of each deeper level whose range holds it, until one holds it. */
static void expect_get(ldb *e, fl_slice key) {
    e->last_pos = e->last_neg = 0;
    e->last_rc = FL_OK;
    bool stop = false;
    for (int pass = 0; pass < 2 && !stop; pass++) {
        /* pass 0: L0 by number, newest first; pass 1: the deeper levels */
        size_t order[e->nlisting ? e->nlisting : 1], n = 0;
        for (size_t i = 0; i < e->nlisting; i++)
            if ((e->listing[i].level == 0) == (pass == 0)) order[n++] = i;
        for (size_t a = 0; a < n; a++)
            for (size_t b = a + 1; b < n; b++) {
                const listed *x = &e->listing[order[a]], *y = &e->listing[order[b]];
                bool swap = pass == 0 ? y->id > x->id : y->level < x->level;
                if (swap) { size_t t = order[a]; order[a] = order[b]; order[b] = t; }
            }
        for (size_t i = 0; i < n && !stop; i++) {
            table *t = table_of(e, e->listing[order[i]].id);
            if (!t || t->rc) { e->last_rc = FL_ERR_NOTFOUND; return; }
            fl_slice lo = fl_ldb_table_smallest(t->t), hi = fl_ldb_table_largest(t->t);
            if (key_cmp(key.data, key.len, lo.data, lo.len) < 0 || key_cmp(key.data, key.len, hi.data, hi.len) > 0)
                continue;
            if ((e->last_rc = expect_table(e, t, key, &e->last_pos, &e->last_neg, &stop)) != FL_OK) return;
        }
    }
}

static int ldb_last_get_probes(fl_engine *x, uint64_t *positive, uint64_t *negative) {
    ldb *e = of(x);
    *positive = e->last_pos;
    *negative = e->last_neg;
    return e->last_rc;
}

static int ldb_get(fl_engine *x, fl_slice key, const fl_filter_context *ctx, fl_buf *value, bool *found) {
    ldb *e = of(x);
    (void)ctx;                        /* LevelDB has no filter contexts */
    expect_get(e, key);
    fl_buf_reset(value);
    *found = false;
    fl_ldb_counts before = e->counts;
    char *v = NULL, *msg = NULL;
    size_t vl = 0;
    int f = 0;
    int r = fl_ldb_get(e->db, (const char *)key.data, key.len, &v, &vl, &f, &msg);
    count_into(e, &before, &e->metrics.point);
    note_files(e, false);             /* a seek compaction may have run */
    if (r) return fail(e, rc_of(msg), msg);
    int rc = FL_OK;
    if (f) {
        *found = true;
        rc = fl_buf_append(value, v, vl);
    }
    fl_ldb_free(v);
    return rc;
}

static int bytes_cmp(fl_slice a, fl_slice b) {
    size_t n = a.len < b.len ? a.len : b.len;
    int c = n ? memcmp(a.data, b.data, n) : 0;
    return c ? c : (a.len > b.len) - (a.len < b.len);
}

/* Ends an iterator's read: its counts (into prefix: a scan or seek should
 * probe nothing) and its error. */
static int iter_end(ldb *e, fl_ldb_iter *it, const fl_ldb_counts *before) {
    char *msg = NULL;
    int r = fl_ldb_iter_free(it, &msg);
    count_into(e, before, &e->metrics.prefix);
    note_files(e, false);
    return r ? fail(e, rc_of(msg), msg) : FL_OK;
}

/* From Seek(start) forward while keys start with prefix (when given) and
 * are below end (when given). */
static int forward(ldb *e, fl_slice start, fl_slice prefix, const fl_slice *end, fl_scan_fn fn, void *arg) {
    fl_ldb_counts before = e->counts;
    fl_ldb_iter *it = fl_ldb_iter_new(e->db);
    for (fl_ldb_iter_seek(it, (const char *)start.data, start.len); fl_ldb_iter_valid(it); fl_ldb_iter_next(it)) {
        size_t kl, vl;
        const char *k = fl_ldb_iter_key(it, &kl), *v = fl_ldb_iter_value(it, &vl);
        fl_slice ks = { (const uint8_t *)k, kl }, vs = { (const uint8_t *)v, vl };
        if (kl < prefix.len || (prefix.len && memcmp(k, prefix.data, prefix.len) != 0)) break;
        if (end && bytes_cmp(ks, *end) >= 0) break;
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
    if (bytes_cmp(end, start) <= 0) return FL_OK;        /* [S, E) is empty */
    return forward(of(x), start, (fl_slice){ (const uint8_t *)"", 0 }, &end, fn, arg);
}

static int ldb_seek(fl_engine *x, fl_slice key, bool backward, uint32_t n, int prefix_mode,
                    const fl_filter_context *ctx, fl_scan_fn fn, void *arg) {
    ldb *e = of(x);
    (void)ctx;
    (void)prefix_mode;                /* no prefix mode: total order always */
    fl_ldb_counts before = e->counts;
    fl_ldb_iter *it = fl_ldb_iter_new(e->db);
    fl_ldb_iter_seek(it, (const char *)key.data, key.len);
    if (backward) {
        if (!fl_ldb_iter_valid(it)) {
            fl_ldb_iter_seek_to_last(it);
        } else {
            size_t kl;
            const char *k = fl_ldb_iter_key(it, &kl);
            if (bytes_cmp((fl_slice){ (const uint8_t *)k, kl }, key) > 0) fl_ldb_iter_prev(it);
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
    policy_free(&e->pol);
    fl_calls_free(e->own_calls);
    listed_free(e->listing, e->nlisting);
    for (size_t i = 0; i < e->ntables; i++) table_release(&e->tables[i]);
    free(e->tables);
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
    int rc = policy_make(e, opt, &e->pol, err, err_len);
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
    note_files(e, true);
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
    .last_get_probes = ldb_last_get_probes,
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
