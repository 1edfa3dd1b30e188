/*
 * leveldb_tables.c -- LevelDB's live tables as the checker sees them: the
 * list (the leveldb.sstables property: numbers and levels), each table read
 * once from its file by filterlab's own reader (leveldb_sst.h: key range,
 * entries, filter block; P6 when it breaks LevelDB's format, P5 when its
 * bloom is not LevelDB's bloom rebuilt over its keys), and what a get must
 * probe, worked out from them before the get (last_read_probes).
 */
#include "leveldb_internal.h"

#ifdef FL_HAVE_LEVELDB

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

static ldb *of(fl_engine *e) { return (ldb *)e; }

static void listed_free(listed *l, size_t n);

void ldb_tables_release(ldb *e) {
    listed_free(e->listing, e->nlisting);
    for (size_t i = 0; i < e->ntables; i++) {
        fl_ldb_table_free(e->tables[i].t);
        fl_buf_free(&e->tables[i].bytes);
    }
    free(e->tables);
    free(e->want);
    free(e->asked);
    free(e->trace);
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

int ldb_ssts(const fl_engine *x, fl_sst_meta **out, size_t *count) {
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
    fl_sst_meta_sort_leveled(m, n);
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

/* Live table id, read: FL_OK and *out, or why not (errmsg says it; a file
 * that cannot be read is one that is gone). */
static int readable(ldb *e, uint64_t id, table **out) {
    table *t = *out = table_of(e, id);
    if (!t) return FL_ERR_NOMEM;
    if (!t->rc) return FL_OK;
    snprintf(e->err, sizeof e->err, "%s", t->err);
    return t->rc == FL_ERR_IO ? FL_ERR_NOTFOUND : t->rc;
}

int ldb_sst_entries(fl_engine *x, uint64_t id, fl_entry_fn fn, void *arg) {
    table *t;
    int rc = readable(of(x), id, &t);
    if (rc) return rc;
    entries_arg a = { fn, arg };
    return fl_ldb_table_each(t->t, each_entry, &a);
}

int ldb_sst_filter(fl_engine *x, uint64_t id, const fl_sst_filter **out) {
    table *t;
    *out = NULL;
    int rc = readable(of(x), id, &t);
    if (rc) return rc;
    *out = &t->f;
    return FL_OK;
}

/* Counts the tables that appeared since the last look; a listing that
 * changed where the engine ran nothing (own false: a get's seek
 * compaction, LevelDB's move of a table to another level) counts as a
 * compaction LevelDB ran, so that the checker looks again. */
/* LevelDB's Version::Get order: L0 newest (highest number) first, then the
 * deeper levels in turn. */
static int get_order(const void *pa, const void *pb) {
    const listed *a = pa, *b = pb;
    if (a->level != b->level) return a->level < b->level ? -1 : 1;
    return a->level == 0 ? (a->id < b->id) - (a->id > b->id) : (a->id > b->id) - (a->id < b->id);
}

void ldb_note_files(ldb *e, bool own) {
    listed *l;
    size_t n;
    if (list_tables(e, &l, &n) != FL_OK) return;
    qsort(l, n, sizeof *l, get_order);
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

static bool table_holds(const table *t, fl_slice key) {
    return fl_ldb_table_holds(t->t, key.data, key.len) == 1;
}

static int want_add(ldb *e, const table *t, fl_slice f, bool holds) {
    if (e->nwant == e->want_cap) {
        size_t cap = e->want_cap ? 2 * e->want_cap : 16;
        ldb_want *w = realloc(e->want, cap * sizeof *w);
        if (!w) return FL_ERR_NOMEM;
        e->want = w;
        e->want_cap = cap;
    }
    e->want[e->nwant++] = (ldb_want){ t->id, XXH3_64bits(f.data, f.len), f.len, holds };
    return FL_OK;
}

/* One table a get looks in: the filter it asks there (a table under
 * another policy's name has none here), noted for the trace; the filter's
 * answer from the stored bits, counted until a table holds the key (*stop,
 * where LevelDB stops unless that table's filter said no), or last_rc
 * FL_ERR_NOTFOUND when only a plugin knows it. */
static int expect_table(ldb *e, const table *t, fl_slice key, bool *stop) {
    const char *name = fl_ldb_table_filter_name(t->t);
    const char *want = e->pol.ldb ? (e->pol.plugin ? fl_call_policy_name(e->calls, e->pol.plugin)
                                                   : "leveldb.BuiltinBloomFilter2") : NULL;
    bool holds = table_holds(t, key), counting = !*stop;
    fl_slice f;
    size_t idx;
    if (name && want && strcmp(name, want) == 0 && fl_ldb_table_filter_for(t->t, key.data, key.len, &f, &idx) == 1) {
        int rc = want_add(e, t, f, holds);
        if (rc) return rc;
        if (e->pol.plugin) {
            if (counting) e->last_rc = FL_ERR_NOTFOUND;
        } else if (!fl_ldb_bloom_may_match(f, key.data, key.len)) {
            if (counting) e->last_neg++;
            return FL_OK;                       /* skipped: the block is not read */
        } else if (counting) {
            e->last_pos++;
        }
    }
    if (holds) *stop = true;
    return FL_OK;
}

/* What LevelDB's Version::Get will probe for key, from the live tables:
 * the L0 tables holding it in their range, newest first, then the one
 * table of each deeper level whose range holds it, until one holds it --
 * and, for the trace, the filters of the tables past that one, which a
 * get asks only after a false negative. */
void ldb_expect_get(ldb *e, fl_slice key) {
    e->got = true;
    e->last_pos = e->last_neg = 0;
    e->last_rc = FL_OK;
    e->nwant = 0;
    e->counts.nprobes = 0;
    bool stop = false;
    /* e->listing is in LevelDB's read order (ldb_note_files) */
    for (size_t i = 0; i < e->nlisting; i++) {
        table *t = table_of(e, e->listing[i].id);
        if (!t || t->rc) { e->last_rc = FL_ERR_NOTFOUND; return; }
        fl_slice lo = fl_ldb_table_smallest(t->t), hi = fl_ldb_table_largest(t->t);
        if (fl_key_cmp(key.data, key.len, lo.data, lo.len) < 0 || fl_key_cmp(key.data, key.len, hi.data, hi.len) > 0)
            continue;
        int rc = expect_table(e, t, key, &stop);
        if (rc) { e->last_rc = rc; return; }
    }
}

int ldb_last_read_probes(fl_engine *x, fl_mem_state mem, uint64_t *positive, uint64_t *negative,
                        const uint64_t **ssts, size_t *n) {
    ldb *e = of(x);
    /* LevelDB's MemTable::Get ends the get at any entry of the key, a put
     * or a deletion (LevelDB has no range deletion) */
    bool in_mem = mem != FL_MEM_NOTHING;
    *positive = in_mem ? 0 : e->last_pos;
    *negative = in_mem ? 0 : e->last_neg;
    *ssts = NULL;
    *n = 0;
    if (!e->got) return FL_ERR_NOTFOUND;      /* a scan or a seek: only gets are worked out */
    if (e->last_rc != FL_OK || in_mem) return e->last_rc;
    /* the tables counted are the first of e->want: each counted one was
     * added there, until a table held the key */
    size_t counted = (size_t)(e->last_pos + e->last_neg);
    if (counted > e->nwant) return FL_ERR_NOTFOUND;
    uint64_t *ids = realloc(e->asked, (counted ? counted : 1) * sizeof *ids);
    if (!ids) return FL_ERR_NOMEM;
    e->asked = ids;
    for (size_t i = 0; i < counted; i++) ids[i] = e->want[i].sst;
    *ssts = ids;
    *n = counted;
    return FL_OK;
}

/* The last read's probes, when it was a get, from what the counted policy
 * saw: LevelDB asks the filters of e->want in order (each one's table by
 * its bytes), so probe i is of want[i]'s table, or of none the get could
 * ask. */
int ldb_last_read_trace(fl_engine *x, const fl_read_target *target, const fl_read_probe **probes, size_t *n,
                        const char **why) {
    (void)target;                     /* (the get's: e->want holds its tables) */
    ldb *e = of(x);
    const fl_ldb_counts *c = &e->counts;
    *probes = NULL;
    *n = 0;
    *why = e->why;
    e->why[0] = 0;
    if (!e->got) return FL_ERR_NOTFOUND;      /* a scan or a seek: LevelDB asks no filter */
    if (e->last_rc != FL_OK && e->last_rc != FL_ERR_NOTFOUND) return FL_ERR_NOTFOUND;
    if (c->nprobes > FL_LDB_PROBES) return FL_ERR_NOTFOUND;
    if (c->nprobes > e->trace_cap) {
        fl_read_probe *t = realloc(e->trace, FL_LDB_PROBES * sizeof *t);
        if (!t) return FL_ERR_NOTFOUND;
        e->trace = t;
        e->trace_cap = FL_LDB_PROBES;
    }
    for (size_t i = 0; i < c->nprobes; i++) {
        const fl_ldb_probe *p = &c->probes[i];
        if (i >= e->nwant || e->want[i].hash != p->hash || e->want[i].len != p->len) {
            e->trace[i] = (fl_read_probe){ 0, p->maybe != 0, false };
            if (!e->why[0]) {
                if (i < e->nwant)
                    snprintf(e->why, sizeof e->why, "LevelDB gave the policy %zu filter bytes (XXH3 %016llx) where, "
                             "in its read order, the filter of table %llu that holds the key's block is %zu bytes "
                             "(XXH3 %016llx)", p->len, (unsigned long long)p->hash,
                             (unsigned long long)e->want[i].sst, e->want[i].len,
                             (unsigned long long)e->want[i].hash);
                else
                    snprintf(e->why, sizeof e->why, "LevelDB gave the policy %zu filter bytes (XXH3 %016llx) "
                             "after the %zu filter(s) of the tables whose key range holds the key", p->len,
                             (unsigned long long)p->hash, e->nwant);
            }
            continue;
        }
        e->trace[i] = (fl_read_probe){ e->want[i].sst, p->maybe != 0, e->want[i].holds };
    }
    *probes = e->trace;
    *n = c->nprobes;
    return FL_OK;
}

#endif /* FL_HAVE_LEVELDB */
