/*
 * pebble_get.c -- what a Get of Pebble v2.1.7 must probe, worked out from
 * the tables' files (read by filterlab's own reader, pebble_sst.c), not by
 * asking Pebble: the checker holds a get's counters to it exactly (P3,
 * fl_engine_ops.last_read_probes; pebble_engine.c gives it the tables).
 *
 * Pebble's rule (get_iter.go, getIter; iterator.go, findNextEntry and
 * nextUserKey; file_cache.go, newIters and newPointIter; sstable/
 * reader_iter_single_lvl.go, seekPrefixGE):
 *   - the memtables first: a put of the key found there ends the get, and
 *     so does a range deletion there that covers it; a point deletion does
 *     not (the Iterator steps past the deleted key, and the getIter goes on
 *     to the next level for more of it) -- the caller's part;
 *   - then the L0 sublevels, newest first, and L1..L6: in each, the one
 *     table whose bounds hold the key (a bound that is a range deletion's
 *     end excludes it).  Its range deletions are looked at first.  Then,
 *     unless every point of the table is obsolete (its table property says
 *     so, and a get -- whose snapshot is past every table's sequence
 *     numbers -- hides obsolete points: it gets no point iterator), its
 *     point iterator's SeekPrefixGE asks its filter for key[:Split(key)]
 *     -- unless the table is in L6 (a get cannot set UseL6Filters) or its
 *     filter is not of the configured policy's name (Options.Filters) --
 *     and, when the filter says maybe, finds the key's newest entry that is
 *     not obsolete;
 *   - that entry ends the get when a range deletion of the same table
 *     newer than it covers the key, or when it is a put and no deletion
 *     was met before; a deletion is stepped past; and after a table with a
 *     range deletion covering the key, the get goes no further.
 * Each table's filter is asked once.
 */
#include "pebble_sst.h"

#include <stdlib.h>
#include <string.h>

typedef struct pbl_entry { size_t off, len; uint64_t seq; unsigned kind; bool obsolete; } pbl_entry;
typedef struct pbl_span { size_t start, slen, end, elen; uint64_t seq; } pbl_span;

struct fl_pbl_index {
    fl_buf keys;                      /* the entries' and spans' keys            */
    pbl_entry *entries;               /* in the table's order                    */
    size_t nentries, entries_cap;
    pbl_span *spans;
    size_t nspans, spans_cap;
};

/* The array v of n items of size bytes (capacity *cap) with room for one
 * more: v, or v moved; NULL (v kept) when memory runs out. */
static void *room(void *v, size_t n, size_t *cap, size_t size) {
    if (n < *cap) return v;
    size_t c = *cap ? 2 * *cap : 16;
    void *p = realloc(v, c * size);
    if (p) *cap = c;
    return p;
}

static int note_entry(void *arg, const fl_pbl_row *row) {
    fl_pbl_index *x = arg;
    pbl_entry *e = room(x->entries, x->nentries, &x->entries_cap, sizeof *e);
    if (!e) return FL_ERR_NOMEM;
    x->entries = e;
    x->entries[x->nentries++] = (pbl_entry){ x->keys.len, row->key.len, row->seq, row->kind, row->obsolete };
    return fl_buf_append(&x->keys, row->key.data, row->key.len);
}

static int note_span(void *arg, fl_slice start, fl_slice end, uint64_t seq) {
    fl_pbl_index *x = arg;
    pbl_span *s = room(x->spans, x->nspans, &x->spans_cap, sizeof *s);
    if (!s) return FL_ERR_NOMEM;
    x->spans = s;
    size_t at = x->keys.len;
    x->spans[x->nspans++] = (pbl_span){ at, start.len, at + start.len, end.len, seq };
    int rc = fl_buf_append(&x->keys, start.data, start.len);
    return rc ? rc : fl_buf_append(&x->keys, end.data, end.len);
}

int fl_pbl_index_build(const fl_pbl_sst *t, fl_pbl_index **out, char *err, size_t err_len) {
    *out = NULL;
    fl_pbl_index *x = calloc(1, sizeof *x);
    if (!x) return FL_ERR_NOMEM;
    fl_buf_init(&x->keys);
    int rc = fl_pbl_sst_rows(t, note_entry, x, err, err_len);
    if (rc == FL_OK) rc = fl_pbl_sst_range_dels(t, note_span, x, err, err_len);
    if (rc != FL_OK) {
        fl_pbl_index_free(x);
        return rc;
    }
    *out = x;
    return FL_OK;
}

void fl_pbl_index_free(fl_pbl_index *x) {
    if (!x) return;
    fl_buf_free(&x->keys);
    free(x->entries);
    free(x->spans);
    free(x);
}

static fl_slice key_at(const fl_pbl_index *x, size_t off, size_t len) {
    return (fl_slice){ x->keys.data + off, len };
}

/* The key's newest entry that is not obsolete (entries are in internal key
 * order: user key up, sequence number down), or NULL. */
static const pbl_entry *newest(const fl_pbl_index *x, fl_slice key) {
    size_t lo = 0, hi = x->nentries;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (fl_slice_cmp(key_at(x, x->entries[mid].off, x->entries[mid].len), key) < 0) lo = mid + 1;
        else hi = mid;
    }
    for (; lo < x->nentries && fl_slice_cmp(key_at(x, x->entries[lo].off, x->entries[lo].len), key) == 0; lo++)
        if (!x->entries[lo].obsolete) return &x->entries[lo];
    return NULL;
}

/* Whether a range deletion of the table covers key, and the newest one's
 * sequence number. */
static bool tombstone(const fl_pbl_index *x, fl_slice key, uint64_t *seq) {
    bool found = false;
    *seq = 0;
    for (size_t i = 0; i < x->nspans; i++) {
        const pbl_span *s = &x->spans[i];
        if (fl_slice_cmp(key_at(x, s->start, s->slen), key) <= 0 && fl_slice_cmp(key, key_at(x, s->end, s->elen)) < 0) {
            if (!found || s->seq > *seq) *seq = s->seq;
            found = true;
        }
    }
    return found;
}

/* Whether the table's bounds hold key: the smallest at most key, and key
 * below the largest, or equal to it when that is not a range deletion's
 * (exclusive) end. */
static bool bounds_hold(const fl_pbl_info *info, fl_slice key) {
    if (!info->has_range || fl_slice_cmp(key, info->smallest) < 0) return false;
    int c = fl_slice_cmp(key, info->largest);
    return c < 0 || (c == 0 && !(info->largest_kind == FL_PBL_RANGEDEL && info->largest_seq == FL_PBL_SEQ_MAX));
}

int fl_pbl_get_probes(const fl_pbl_get_table *v, size_t n, fl_slice key, size_t split, bool mem_deleted,
                      uint64_t *positive, uint64_t *negative, size_t *asked, size_t *nasked) {
    *positive = *negative = 0;
    size_t none;
    if (!nasked) nasked = &none;
    *nasked = 0;
    bool deleted = mem_deleted;
    fl_slice prefix = { key.data, split < key.len ? split : key.len };
    for (size_t i = 0; i < n; i++) {
        const fl_pbl_info *info = fl_pbl_sst_info(v[i].t);
        if (!bounds_hold(info, key)) continue;
        uint64_t tomb_seq;
        bool tomb = tombstone(v[i].index, key, &tomb_seq);
        const fl_pbl_props *pr = &info->props;
        bool maybe = !(pr->has_obsolete_collector && pr->table_all_obsolete);     /* a point iterator */
        if (maybe && v[i].asked && v[i].level < 6) {
            if (!v[i].bloom) return FL_ERR_NOTFOUND;
            maybe = fl_pbl_bloom_may_contain(info->filter, prefix);
            ++*(maybe ? positive : negative);
            if (asked) asked[*nasked] = i;
            ++*nasked;
        }
        const pbl_entry *e = maybe ? newest(v[i].index, key) : NULL;
        if (e) {
            if (tomb && tomb_seq > e->seq) return FL_OK;
            switch (e->kind) {
            case FL_PBL_SET: case FL_PBL_SETWITHDEL:
                if (!deleted) return FL_OK;                 /* found */
                break;                                      /* an older version: stepped past */
            case FL_PBL_DEL: case FL_PBL_SINGLEDEL: case FL_PBL_DELSIZED:
                deleted = true;
                break;
            default:
                return FL_ERR_NOTFOUND;                     /* (a merge: the adapter writes none) */
            }
        }
        if (tomb) return FL_OK;
    }
    return FL_OK;
}

/* ---- Prefix iterations -------------------------------------------------------- */

/* Whether table a lies wholly before table b (a's largest below b's
 * smallest, or equal to it as a range deletion's exclusive end). */
static bool before(const fl_pbl_info *a, const fl_pbl_info *b) {
    int c = fl_slice_cmp(a->largest, b->smallest);
    return c < 0 || (c == 0 && a->largest_kind == FL_PBL_RANGEDEL && a->largest_seq == FL_PBL_SEQ_MAX);
}

/* Whether the table's largest bound is at or past key. */
static bool reaches(const fl_pbl_info *in, fl_slice key) {
    int c = fl_slice_cmp(in->largest, key);
    return c > 0 || (c == 0 && !(in->largest_kind == FL_PBL_RANGEDEL && in->largest_seq == FL_PBL_SEQ_MAX));
}

/* The L0 sublevel of each L0 table (manifest/l0_sublevels.go,
 * addFileToSublevels): oldest first, one above the highest sublevel of
 * the older tables it overlaps.  v's L0 tables come first, newest first. */
static void sublevels(const fl_pbl_get_table *v, size_t nl0, int *sub) {
    for (size_t i = nl0; i-- > 0;) {
        sub[i] = 0;
        const fl_pbl_info *a = fl_pbl_sst_info(v[i].t);
        for (size_t j = i + 1; j < nl0; j++) {
            const fl_pbl_info *b = fl_pbl_sst_info(v[j].t);
            if (!before(a, b) && !before(b, a) && sub[j] + 1 > sub[i]) sub[i] = sub[j] + 1;
        }
    }
}

int fl_pbl_prefix_probes(const fl_pbl_get_table *v, size_t n, fl_slice lo, fl_slice hi, bool has_hi, fl_slice prefix,
                         fl_pbl_split_fn split, void *arg, uint64_t *positive, uint64_t *negative, size_t *asked,
                         size_t *nasked) {
    *positive = *negative = 0;
    size_t none;
    if (!nasked) nasked = &none;
    *nasked = 0;
    /* a range deletion in the read's range makes the merging iterator seek
     * the levels below it again, elsewhere: not worked out here */
    for (size_t i = 0; i < n; i++) {
        const fl_pbl_index *x = v[i].index;
        for (size_t s = 0; s < x->nspans; s++) {
            fl_slice start = key_at(x, x->spans[s].start, x->spans[s].slen);
            fl_slice end = key_at(x, x->spans[s].end, x->spans[s].elen);
            if ((!has_hi || fl_slice_cmp(start, hi) < 0) && fl_slice_cmp(lo, end) < 0) return FL_ERR_NOTFOUND;
        }
    }
    size_t nl0 = 0;
    while (nl0 < n && v[nl0].level == 0) nl0++;
    int *sub = malloc((nl0 ? nl0 : 1) * sizeof *sub);
    if (!sub) return FL_ERR_NOMEM;
    sublevels(v, nl0, sub);
    int top = -1;
    for (size_t i = 0; i < nl0; i++) if (sub[i] > top) top = sub[i];
    int rc = FL_OK;
    /* each run -- an L0 sublevel, or a level below -- is a level iterator:
     * SeekPrefixGE loads the first table whose largest is at or past lo
     * (none past the upper bound, none whose smallest key's prefix is past
     * the prefix: level_iter.go, loadFile) and asks its filter; stepping on
     * to the run's next table (First) asks none */
    for (int run = 0; run <= top + 6 && rc == FL_OK; run++) {
        const fl_pbl_get_table *first = NULL;
        const fl_pbl_info *fin = NULL;
        size_t at = 0;
        for (size_t i = 0; i < n; i++) {
            bool in_run = run <= top ? i < nl0 && sub[i] == run : i >= nl0 && v[i].level == run - top;
            if (!in_run) continue;
            const fl_pbl_info *in = fl_pbl_sst_info(v[i].t);
            if (!in->has_range || !reaches(in, lo)) continue;
            if (!first || fl_slice_cmp(in->smallest, fin->smallest) < 0) { first = &v[i]; fin = in; at = i; }
        }
        if (!first) continue;
        if (has_hi && fl_slice_cmp(fin->smallest, hi) >= 0) continue;
        fl_slice sp = { fin->smallest.data, split(arg, fin->smallest) };
        if (sp.len > fin->smallest.len) sp.len = fin->smallest.len;
        if (fl_slice_cmp(sp, prefix) > 0) continue;
        const fl_pbl_props *pr = &fin->props;
        if (pr->has_obsolete_collector && pr->table_all_obsolete) continue;      /* no point iterator */
        if (!first->asked) continue;
        if (!first->bloom) { rc = FL_ERR_NOTFOUND; break; }
        ++*(fl_pbl_bloom_may_contain(fin->filter, prefix) ? positive : negative);
        if (asked) asked[*nasked] = at;
        ++*nasked;
    }
    free(sub);
    return rc;
}
