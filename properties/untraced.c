/*
 * untraced.c -- the checks on what one read did, for an engine without a
 * probe trace (RocksDB): from its counter deltas, its list of live SSTs,
 * what the checker knows is in its memtable, and every key ever written.
 *   P3  the SPEC 6 identities hold; only the read's own kind moved (a get
 *       point, a scan_prefix prefix; a total-order scan none: it may use
 *       no filter); the SST filter probes -- so the ones that said no, too
 *       -- are at most the SSTs whose key range the read covers, as RocksDB
 *       picks them (point_probe_bound, prefix_probe_bound); a get probes
 *       the memtable's filter at most once;
 *   P1  a memtable filter that said no while the memtable holds the key (a
 *       get) or a key starting with the prefix (a scan_prefix);
 *   P4  accounting, where the truth is known: when no key that was ever
 *       written is the key, or starts with the prefix, no SST holds a match,
 *       so every SST probe that said maybe is a false positive.  The engine
 *       cannot tell (false_positive must not move); the checker counts them
 *       into the summary's false_positive.  A forward prefix read's
 *       candidate SSTs (prefix_candidates: where RocksDB's iterator
 *       positions) that no filter probe covered -- no filter, a total-order
 *       read, a filter of another extractor -- are counted into the
 *       summary's prefix unfiltered (and considered), so that considered -
 *       negative is the SSTs the read had to read, as for filterlab's engine;
 *   P9  on the filters read from the engine's SST files (p9_feed below):
 *       those of the SSTs a read could probe, as RocksDB picks them, or,
 *       for a get on an engine whose files say which probes it had to make
 *       (below), those SSTs;
 *   P3, exactly, for a get (LevelDB, Pebble) or a prefix read (Pebble) on
 *       an engine whose files say which probes it had to make
 *       (fl_engine_ops.last_read_probes): the maybes and nos its filters'
 *       stored bits give, in the engine's read order, until the engine's
 *       rule stops the read (given what the memtable holds of the key:
 *       mem_state; for a prefix read, whether it holds range deletions).
 *     - probe by probe (fl_engine_ops.last_read_trace): each SST
 *       filter's no to a get of a key that SST holds, to a scan_prefix or
 *       prefix-mode seek of a prefix some key of that SST starts with, or
 *       to a total-order scan or seek whose range holds a key of that SST
 *       (check_trace), is P1, and a probe of a filter none of the read's
 *       SSTs has is P3.
 */
#include "check_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int stop_at_first(void *arg, fl_model_bytes key, fl_model_bytes value) {
    (void)key; (void)value;
    *(bool *)arg = true;
    return 1;
}

/* Whether some key in m starts with p. */
static bool has_prefix(const fl_model *m, fl_slice p) {
    bool found = false;
    fl_model_scan_prefix(m, (fl_model_bytes){ p.data, p.len }, stop_at_first, &found);
    return found;
}

/* Whether the target exists nowhere: no key ever written is it (a get) or
 * starts with it (a scan_prefix).  Unknown (false) once an existing
 * database was adopted. */
static bool absent_everywhere(const fl_checker *ck, bool prefix, fl_slice t) {
    if (!ck->written_complete || !ck->ever) return false;
    if (prefix) return !has_prefix(ck->ever, t);
    return !fl_model_get(ck->ever, (fl_model_bytes){ t.data, t.len }, NULL);
}

/* A key of the memtable whose extracted prefix (policy p's, in force) is
 * exactly the seek's prefix. */
typedef struct same_prefix { fl_checker *ck; fl_slice p; bool found; } same_prefix;

static int note_same_prefix(void *arg, fl_model_bytes key, fl_model_bytes value) {
    same_prefix *s = arg;
    size_t m;
    (void)value;
    s->found = ck_seek_prefix_len(s->ck, s->ck->want_extractor, key.data, key.len, &m) && m == s->p.len;
    return s->found;
}

/* Whether the memtable's filter must say maybe: it holds the key (a get),
 * a key starting with the prefix (a scan_prefix: all of them have the
 * prefix RocksDB seeks), or for a prefix-mode seek a key whose prefix is
 * the seek key's -- unless, for the prefix reads, a set_options came since
 * the memtable was emptied: RocksDB's memtable filter stays keyed by the extractor the
 * memtable was made with, and asks that one, so its answer is about
 * another prefix (what it costs shows in the results: P2). */
static bool mem_holds(fl_checker *ck, bool prefix, fl_slice t) {
    if (!prefix) return fl_model_get(ck->mem_keys, (fl_model_bytes){ t.data, t.len }, NULL);
    if (ck->mem_under_old_options) return false;
    if (!ck->want_extractor) return has_prefix(ck->mem_keys, t);
    same_prefix s = { ck, t, false };
    fl_model_scan_prefix(ck->mem_keys, (fl_model_bytes){ t.data, t.len }, note_same_prefix, &s);
    return s.found;
}

/* What the memtable holds of key k (last_read_probes): mem_keys has an
 * entry of every key put or deleted since it was emptied, and the model
 * says which was last -- unless a range deletion of the memtable covers
 * k, which the engine's rule takes first. */
static fl_mem_state mem_state(const fl_checker *ck, fl_slice k) {
    if (ck_spans_cover(&ck->mem_rt_spans, k.data, k.len)) return FL_MEM_RANGE_DELETED;
    if (!fl_model_get(ck->mem_keys, (fl_model_bytes){ k.data, k.len }, NULL)) return FL_MEM_NOTHING;
    return fl_model_get(ck->model, (fl_model_bytes){ k.data, k.len }, NULL) ? FL_MEM_PUT : FL_MEM_DELETE;
}

/* For a prefix-mode seek of prefix p (the seek key's, under
 * ck->want_extractor): whether every key starting with p has p for its
 * prefix -- PREFIX(p) is all of p -- so that an SST holding a key that
 * starts with p (what an SST's file is asked) holds one of the seek's
 * prefix.  Otherwise (capped:6 and p = "a": "aa" starts with p, its
 * prefix is "aa") a no of that SST's filter is no false negative. */
static bool seek_prefix_is_whole(fl_checker *ck, fl_slice p) {
    const ck_policy *x = ck->want_extractor;
    size_t m;
    if (x->bloom && x->bloom_cfg.has_extractor)
        return fl_model_extractor_prefix_len(&x->bloom_cfg.extractor, FL_MODEL_PREFIX,
                                             (fl_model_bytes){ p.data, p.len }, &m) && m == p.len;
    fl_target t = { FL_TARGET_PREFIX, p };
    return fl_call_prefix_len(ck->own_calls, x->extractor, &t, &m) && m == p.len;
}

/* The SSTs whose filter one get may probe, each at most once: RocksDB's
 * FilePicker (version_set.cc) tests every file's key range -- and probes
 * at most the one covering file of each deeper level -- except when every
 * file is in L0 and there are at most 3: then it probes them all.  Their
 * indexes in ck->metas go to idx (room for nmetas) when not NULL. */
static size_t point_candidates(const fl_checker *ck, fl_slice k, size_t *idx) {
    size_t n = 0, l0 = 0;
    bool deeper = false;
    for (size_t i = 0; i < ck->nmetas; i++) {
        if (ck->metas[i].level == 0) l0++;
        else deeper = true;
    }
    bool all = !deeper && l0 <= 3;
    for (size_t i = 0; i < ck->nmetas; i++) {
        if (!all && !fl_sst_covers_key(&ck->metas[i], k)) continue;
        if (idx) idx[n] = i;
        n++;
    }
    return n;
}

/* The SSTs whose filter one round of a prefix seek may probe, each at most
 * once: every L0 file, and in each deeper level the file holding the first
 * key >= the prefix (when one does; the next files are entered at their
 * first key, without a probe) -- backward (SeekForPrev), the file it lands
 * in, which is the last one when the key is past them all, so any one file
 * of each deeper level (idx gets no such file: which one is not known).
 * *sources counts the memtable, each L0 file and each deeper level. */
static size_t prefix_candidates(const fl_checker *ck, fl_slice p, bool backward, size_t *idx,
                                size_t *sources) {
    size_t n = 0;
    int level_seen = -1, level_probed = -1;
    *sources = 1;                            /* the memtable */
    for (size_t i = 0; i < ck->nmetas; i++) {
        const fl_sst_meta *m = &ck->metas[i];
        if (m->level == 0) {
            if (idx) idx[n] = i;
            n++;
            (*sources)++;
            continue;
        }
        if (m->level != level_seen) { (*sources)++; level_seen = m->level; }
        if (m->level != level_probed && (backward || ck_cmp(m->largest, m->largest_len, p.data, p.len) >= 0)) {
            if (idx && !backward) idx[n] = i;
            n++;
            level_probed = m->level;
        }
    }
    return n;
}

/* The bound of one prefix read: a read makes one round unless it reseeks
 * (RocksDB's DBIter after many hidden versions, its merging iterator past
 * a range tombstone); every round seeks each source at most once, so with
 * more seeks than sources the bound is the seeks themselves. */
static size_t prefix_probe_bound(const fl_checker *ck, fl_slice p, bool backward, uint64_t seeks) {
    if (!ck->eng->prefix_reads_seek_levels) {
        /* any SST whose range reaches a key with the prefix */
        size_t n = 0;
        for (size_t i = 0; i < ck->nmetas; i++) {
            const fl_sst_meta *m = &ck->metas[i];
            bool below = ck_cmp(m->largest, m->largest_len, p.data, p.len) < 0;
            bool above = ck_cmp(m->smallest, m->smallest_len, p.data, p.len) > 0 &&
                         !(m->smallest_len >= p.len && memcmp(m->smallest, p.data, p.len) == 0);
            if (!below && !above) n++;
        }
        return n;
    }
    size_t sources, n = prefix_candidates(ck, p, backward, NULL, &sources);
    return seeks > sources ? (size_t)seeks : n;
}

/* P9 on RocksDB (ck_p9_untraced, fprate.c), for a read whose target
 * exists nowhere and that probed exactly the SSTs it should have: then
 * those SSTs are known, and each "maybe" is a false positive.  The item
 * is what the filter hashed: the key for a whole-key get, else the
 * extracted prefix; no key ever written may start with it (so no filter
 * ever hashed it, as a key or as a prefix).  Backward reads are left out
 * (which SST of a deeper level they probe is not known). */
/* exact: asked (nasked of them) are the SSTs a get had to probe, by the
 * engine's own rule (last_read_probes), in place of point_candidates. */
static void p9_feed(fl_checker *ck, int k, fl_slice t, bool backward, uint64_t d_cons, uint64_t d_pos,
                    bool exact, const uint64_t *asked, size_t nasked) {
    if (!ck->cfg.check || !ck->eng->sst_filter || backward || !d_cons || !ck->written_complete ||
        !ck->ever)
        return;
    const ck_policy *bloom = ck_config_first_bloom(ck->writer);
    const ck_policy *ex = ck->want_extractor ? ck->want_extractor : ck_config_first_extractor(ck->writer);
    size_t m = t.len;
    if (!bloom) return;
    if (ck->want_extractor) {
        /* a prefix-mode seek: t is the prefix already */
    } else if (k == 1 || !bloom->bloom_cfg.whole_key) {
        if (!ex || !ck_seek_prefix_len(ck, ex, t.data, t.len, &m)) return;
    }
    fl_slice item = { t.data, m };
    if (has_prefix(ck->ever, item)) return;
    size_t *idx = malloc((ck->nmetas ? ck->nmetas : 1) * sizeof *idx), sources;
    if (!idx) return;
    size_t n = 0;
    if (exact) {
        if (nasked > ck->nmetas) { free(idx); return; }
        for (size_t j = 0; j < nasked; j++)
            for (size_t i = 0; i < ck->nmetas; i++)
                if (ck->metas[i].id == asked[j]) { idx[n++] = i; break; }
        if (n != nasked) { free(idx); return; }         /* (an SST the checker does not list) */
    } else {
        n = k ? prefix_candidates(ck, t, false, idx, &sources) : point_candidates(ck, t, idx);
    }
    /* an SST without a filter is never probed */
    size_t with = 0;
    for (size_t i = 0; i < n; i++) {
        const fl_sst_filter *f;
        if (ck->eng->sst_filter(ck->db, ck->metas[idx[i]].id, &f) != FL_OK) { with = SIZE_MAX; break; }
        if (f->kind != FL_SSTF_NONE) idx[with++] = idx[i];
    }
    if (with == d_cons) ck_p9_untraced(ck, k, item, idx, with, d_pos);
    free(idx);
}

/* P1 and P3 probe by probe (fl_engine_ops.last_read_trace), for a read of
 * target tg: a probe of a filter none of the read's SSTs has is P3; a no
 * from an SST that holds a key tg asks about is P1 -- when judged: a
 * prefix-mode seek's no is not, unless PREFIX(p) is all of p
 * (seek_prefix_is_whole). */
static void check_trace(fl_checker *ck, const fl_read_target *tg, bool judged) {
    const fl_read_probe *tr;
    size_t ntr;
    const char *why = NULL;
    if (!ck->eng->last_read_trace || ck->eng->last_read_trace(ck->db, tg, &tr, &ntr, &why) != FL_OK) return;
    static const char *const held[] = { "the key", "a key starting with the prefix", "a key of the %s's range" };
    char what[64];
    const char *rn = fl_op_name(ck->op->kind);
    snprintf(what, sizeof what, held[tg->kind], rn);
    for (size_t i = 0; i < ntr; i++) {
        if (!tr[i].sst)
            ck_violation(ck, FL_P3, "SST filter probe %zu of the %s was of a filter that none of the SSTs "
                         "the %s had to consider has: %s", i + 1, rn, rn, why ? why : "(the engine said no more)");
        else if (!tr[i].maybe && tr[i].holds && judged)
            ck_violation(ck, FL_P1, "sst %llu's filter said no (probe %zu of the %s), but sst %llu holds "
                         "%s (read from its file)", (unsigned long long)tr[i].sst, i + 1, rn,
                         (unsigned long long)tr[i].sst, what);
    }
}

/* Whether the engine counts its false positives itself (check.h). */
static bool counts_fp(const fl_checker *ck, int k) {
    return ck->eng->counts_false_positives &&
           ck->eng->counts_false_positives(ck->db, k ? FL_TARGET_PREFIX : FL_TARGET_POINT);
}

static void check_kind(fl_checker *ck, int k, const fl_filter_counters *b, const fl_filter_counters *c) {
    const fl_op *op = ck->op;
    const char *kn = k ? "prefix" : "point";
    bool mine = ck->want_kind && (k == 1) == (ck->want_kind == FL_TARGET_PREFIX);
    bool backward = op->kind == FL_OP_SEEK_FOR_PREV;
    fl_slice t = ck->want_target;
    ck_check_identities(ck, kn, c);
    uint64_t d_cons = c->considered - b->considered, d_neg = c->negative - b->negative;
    uint64_t d_pos = c->positive - b->positive, d_fp = c->false_positive - b->false_positive;
    uint64_t d_mpos = c->memtable_positive - b->memtable_positive;
    uint64_t d_mneg = c->memtable_negative - b->memtable_negative;
    if (!mine) {
        if (d_cons || d_fp || d_mpos || d_mneg)
            ck_violation(ck, FL_P3, "%s counters moved (%llu SST and %llu memtable filter probes) on a "
                         "read that %s", kn, (unsigned long long)d_cons,
                         (unsigned long long)(d_mpos + d_mneg),
                         !ck->want_kind ? "is in total order and may use no filter"
                                        : "is of the other kind");
        return;
    }
    bool own_fp = counts_fp(ck, k);
    if (d_fp && !own_fp)
        ck_violation(ck, FL_P3, "%s false_positive moved by %llu, but the engine cannot know which "
                     "SSTs held a match", kn, (unsigned long long)d_fp);
    uint64_t d_seeks = c->seeks - b->seeks;
    size_t bound = k ? prefix_probe_bound(ck, t, backward, d_seeks) : point_candidates(ck, t, NULL);
    /* A backward read has no bound: turning around, RocksDB's merging
     * iterator re-seeks every other source (7.8.3 table/merging_iterator.cc
     * SwitchToForward/SwitchToBackward, 1130-1230) without counting those
     * seeks in seek_child_seek_count, and each may probe a filter. */
    if (ck->eng->ssts && !backward && d_cons > bound)     /* (without a list: unknown) */
        ck_violation(ck, FL_P3, "%llu SST filter probe(s) (%llu said no), but this %s could probe "
                     "only %zu of the %zu live SST(s)%s", (unsigned long long)d_cons,
                     (unsigned long long)d_neg, fl_op_name(op->kind), bound, ck->nmetas,
                     k ? " in the seeks it made" : "");
    /* exact, where the engine's files say what the read had to probe (a
     * get, or a prefix read: scan_prefix, a seek in prefix mode) */
    uint64_t want_pos, want_neg;
    const uint64_t *asked = NULL;
    size_t nasked = 0;
    fl_mem_state mem = k ? (ck->nmem_rts ? FL_MEM_RANGE_DELETED : FL_MEM_NOTHING) : mem_state(ck, t);
    bool exact = (k ? op->kind != FL_OP_GET : op->kind == FL_OP_GET) && ck->eng->last_read_probes &&
                 ck->eng->last_read_probes(ck->db, mem, &want_pos, &want_neg, &asked, &nasked) == FL_OK;
    if (exact && (d_pos != want_pos || d_neg != want_neg))
        ck_violation(ck, FL_P3, "the %s's SST filters said maybe %llu and no %llu time(s), but its live SSTs, "
                     "read from their files, say maybe %llu and no %llu: %s", fl_op_name(op->kind),
                     (unsigned long long)d_pos, (unsigned long long)d_neg, (unsigned long long)want_pos,
                     (unsigned long long)want_neg,
                     k ? "the SSTs the engine's rule seeks in for the prefix, each one's filter's stored bits "
                         "for it"
                       : "in read order, each SST whose key range holds the key, its filter's stored bits for "
                         "the key, until the engine's rule stops the get");
    /* probe by probe, where the engine's adapter can tell whose filter each
     * was (a prefix read here is of the prefix the checker wants asked: a
     * scan_prefix's, or a seek's in prefix mode) */
    if (k ? op->kind != FL_OP_GET : op->kind == FL_OP_GET) {
        fl_read_target tg = { k ? FL_READ_PREFIX : FL_READ_KEY, t, { NULL, 0 }, false, false, false };
        check_trace(ck, &tg, !ck->want_extractor || seek_prefix_is_whole(ck, t));
    }
    if (!k && d_mpos + d_mneg > 1)
        ck_violation(ck, FL_P3, "%llu memtable filter probes for one get (the memtable is one)",
                     (unsigned long long)(d_mpos + d_mneg));
    if (d_mneg && mem_holds(ck, k == 1, t))
        ck_violation(ck, FL_P1, "the memtable filter said no, but the memtable holds %s",
                     k ? "a key with that prefix" : "that key");
    if (d_pos && absent_everywhere(ck, k == 1, t)) {
        if (!own_fp) ck->fp_known[k] += d_pos;
        else if (d_fp != d_pos)
            ck_violation(ck, FL_P4, "%s false_positive moved by %llu, but no key ever written %s, so each "
                         "of the %llu SST(s) whose filter said maybe is a false positive", kn,
                         (unsigned long long)d_fp, k ? "starts with the prefix" : "is the key",
                         (unsigned long long)d_pos);
    }
    /* a forward prefix read positions in its candidate SSTs; those its
     * filters did not rule out (or had no filter probe for) are read */
    if (k == 1 && !backward) {
        size_t sources, n = prefix_candidates(ck, t, false, NULL, &sources);
        if (n > d_cons) ck->unfiltered_known += n - d_cons;
    }
    p9_feed(ck, k, t, backward, d_cons, d_pos, exact, asked, nasked);
}

void ck_check_read_untraced(fl_checker *ck, const fl_metrics *before, const fl_metrics *after) {
    check_kind(ck, 0, &before->point, &after->point);
    check_kind(ck, 1, &before->prefix, &after->prefix);
    ck_check_checks(ck, before, after);
    /* a total-order range read's probes (an engine's of SSTs whose part of
     * its range is one key: SlateDB), probe by probe */
    const fl_op *op = ck->op;
    fl_slice a = ck_sl(&op->a);
    if (op->kind == FL_OP_SCAN) {
        fl_read_target tg = { FL_READ_RANGE, a, ck_sl(&op->b), true, true, false };
        check_trace(ck, &tg, true);
    } else if ((op->kind == FL_OP_SEEK || op->kind == FL_OP_SEEK_FOR_PREV) && !ck->want_kind) {
        bool fwd = op->kind == FL_OP_SEEK;
        fl_read_target tg = { FL_READ_RANGE, a, a, fwd, !fwd, true };
        check_trace(ck, &tg, true);
    }
}

void ck_check_checks(fl_checker *ck, const fl_metrics *b, const fl_metrics *a) {
    if (!ck->eng->counts_checks || !ck->eng->counts_checks(ck->db)) return;
    fl_op_kind kind = ck->op->kind;
    uint64_t c[2] = { a->checks_negative - b->checks_negative, a->checks_positive - b->checks_positive };
    uint64_t n[2] = { (a->point.negative - b->point.negative) + (a->prefix.negative - b->prefix.negative),
                      (a->point.positive - b->point.positive) + (a->prefix.positive - b->prefix.positive) };
    static const char *const answer[2] = { "no", "maybe" };
    bool read = kind == FL_OP_GET || kind == FL_OP_MULTIGET || kind == FL_OP_SCAN || kind == FL_OP_SCAN_PREFIX ||
                kind == FL_OP_SEEK || kind == FL_OP_SEEK_FOR_PREV;
    bool once = kind == FL_OP_GET || kind == FL_OP_MULTIGET;
    for (int i = 0; i < 2; i++) {
        if (!read && c[i])
            ck_violation(ck, FL_P3, "the engine's own statistic counts %llu filter check(s) that said %s during "
                         "a %s, which reads no filter", (unsigned long long)c[i], answer[i], fl_op_name(kind));
        else if (once && c[i] != n[i])
            ck_violation(ck, FL_P3, "the engine's own statistic counts %llu filter check(s) that said %s, but the "
                         "%s's SST filter probes that said %s are %llu (a get checks each SST's filter once)",
                         (unsigned long long)c[i], answer[i], fl_op_name(kind), answer[i],
                         (unsigned long long)n[i]);
        else if (read && (c[i] < n[i] || (c[i] && !n[i])))
            ck_violation(ck, FL_P3, "the engine's own statistic counts %llu filter check(s) that said %s, but the "
                         "%s's SST filter probes that said %s are %llu (a read may check an SST's filter "
                         "again, with the same answer, so the checks are at least the probes, and none "
                         "without one)", (unsigned long long)c[i], answer[i], fl_op_name(kind), answer[i],
                         (unsigned long long)n[i]);
    }
}

/* A multiget of n keys read in one call (RocksDB's batched MultiGet): the
 * checks of a get, for the keys together -- its SST filter probes at most
 * the sum of what each key's get could probe, at most one memtable filter
 * probe per key, the memtable's "no" at most once per key it does not
 * hold (P1), no prefix counter moved, false_positive unmoved (P3), and
 * its maybes false positives when no key was ever written (P4).  Which
 * key each probe was of is not known: P9 takes no item from it. */
void ck_check_multiget_untraced(fl_checker *ck, const fl_slice *keys, size_t n, const fl_metrics *before,
                                const fl_metrics *after) {
    const fl_filter_counters *b = &before->point, *c = &after->point;
    check_kind(ck, 1, &before->prefix, &after->prefix);    /* the other kind: none may move */
    ck_check_identities(ck, "point", c);
    uint64_t d_cons = c->considered - b->considered, d_neg = c->negative - b->negative;
    uint64_t d_pos = c->positive - b->positive, d_fp = c->false_positive - b->false_positive;
    uint64_t d_mpos = c->memtable_positive - b->memtable_positive;
    uint64_t d_mneg = c->memtable_negative - b->memtable_negative;
    bool own_fp = counts_fp(ck, 0);
    if (d_fp && !own_fp)
        ck_violation(ck, FL_P3, "point false_positive moved by %llu, but the engine cannot know which "
                     "SSTs held a match", (unsigned long long)d_fp);
    size_t bound = 0, held = 0;
    bool all_absent = true;
    for (size_t i = 0; i < n; i++) {
        bound += point_candidates(ck, keys[i], NULL);
        if (mem_holds(ck, false, keys[i])) held++;
        if (!absent_everywhere(ck, false, keys[i])) all_absent = false;
    }
    if (ck->eng->ssts && d_cons > bound)
        ck_violation(ck, FL_P3, "%llu SST filter probe(s) (%llu said no), but a multiget of %zu key(s) "
                     "could probe only %zu: what a get of each could, of the %zu live SST(s)",
                     (unsigned long long)d_cons, (unsigned long long)d_neg, n, bound, ck->nmetas);
    if (d_mpos + d_mneg > n)
        ck_violation(ck, FL_P3, "%llu memtable filter probes for %zu key(s) (the memtable is one)",
                     (unsigned long long)(d_mpos + d_mneg), n);
    if (d_mneg > n - held)
        ck_violation(ck, FL_P1, "the memtable filter said no %llu time(s), but the memtable holds %zu of "
                     "the %zu key(s)", (unsigned long long)d_mneg, held, n);
    if (d_pos && all_absent) {
        if (!own_fp) ck->fp_known[0] += d_pos;
        else if (d_fp != d_pos)
            ck_violation(ck, FL_P4, "point false_positive moved by %llu, but no key of the multiget was ever "
                         "written, so each of the %llu SST(s) whose filter said maybe is a false positive",
                         (unsigned long long)d_fp, (unsigned long long)d_pos);
    }
    ck_check_checks(ck, before, after);
}
