/*
 * probes.c -- the checks on what one read did, from the engine's probe
 * trace and the SST truth:
 *   during the read, for each event (one per considered SST):
 *     P1  no usable sub-filter said no where the SST holds a match;
 *     P3  the verdict follows from the sub-filters' answers;
 *     P4  held_match equals the truth;
 *     P5  each built-in bloom sub-filter answers as the model's reference
 *         filter decoded from the same bytes;
 *     P8  the sub-filters are the ones stored, usable exactly when a
 *         configured policy has their name (Legacy: when a built-in bloom
 *         is configured) and the block is sound;
 *   after the read:
 *     P3  counter deltas equal the trace, and the SPEC 6 identities hold;
 *         sst_reads moved by the SSTs read (UNFILTERED and MAYBE verdicts;
 *         for a scan or a total-order seek, every SST its range overlaps),
 *         and nothing else moved
 *         (a read writes, flushes, compacts and decodes nothing);
 *     P4  false_positive moved by the MAYBE verdicts on SSTs without a match;
 *         expected_probes and expected_fp_sum moved by the checker's own
 *         account of the same probes (below);
 *     P6  the considered SSTs are exactly the ones the read needed, in order.
 *
 * The expected-FP account (fl_filter_counters): a probe counts when it is
 * eligible by the engine's own verdict (NO, or MAYBE with no match held) on
 * an SST with exactly one usable built-in bloom sub-filter (other usable
 * sub-filters may be plugins), with that bloom's rate exact given the bits
 * the read decoded -- the model's reference filter of the same bytes -- or
 * 1 when it cannot probe.  A read involving a built-in bloom whose
 * extractor the model does not know is not checked.
 */
#include "check_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool ck_maybe_written(fl_checker *ck, const uint8_t *k, size_t klen) {
    if (!ck->key_known) {
        ck->key_known = true;
        if (!ck->key_hashed) {              /* (a get hashes its key first) */
            ck->key_hash = ck_key_hash(k, klen);
            ck->key_hashed = true;
        }
        if (ck->written_complete)
            ck->key_written = ck_fpset_has(&ck->written, ck_fingerprint_of(ck->key_hash));
    }
    return !ck->written_complete || ck->key_written;
}

static const char *verdict_name(fl_verdict v) {
    return v == FL_VERDICT_NO ? "NO" : v == FL_VERDICT_MAYBE ? "MAYBE" : "UNFILTERED";
}

/* The engine's expected-FP account of this probe, computed by the checker
 * (see the top); names_match: the subs are the ones stored; blooms: how
 * many usable sub-filters are built-in blooms, the last one at `at`. */
static void expected_account(fl_checker *ck, ck_sst *s, const fl_probe_event *ev, bool names_match,
                             size_t blooms, size_t at, ck_seen *seen) {
    seen->expected_unknown = false;
    if (!names_match || s->block_bad) {
        seen->expected_unknown = ev->sub_count > 0;
        return;
    }
    bool eligible = ev->verdict == FL_VERDICT_NO || (ev->verdict == FL_VERDICT_MAYBE && !ev->held_match);
    if (blooms != 1 || !eligible) return;
    const fl_model_bloom *ref = ck_sub_reference(ck, s, at);
    if (!ref) {
        seen->expected_unknown = true;
        return;
    }
    size_t n;
    seen->expected_counted = true;
    seen->expected = ck_bloom_probes(ref, ev->kind == FL_TARGET_POINT ? 0 : 1, ev->target, &n)
                   ? s->subs[at].ref_expected : 1.0;
}

/* The configured policy named as sub is, looked up once a generation
 * (the writer's config changes only with it). */
static const ck_policy *configured(fl_checker *ck, ck_sub *sub) {
    if (sub->conf_generation != ck->generation) {
        sub->conf = ck_config_find(ck->writer, sub->name);
        sub->conf_generation = ck->generation;
    }
    return sub->conf;
}

static void check_subs(fl_checker *ck, ck_sst *s, const fl_probe_event *ev, bool truth) {
    unsigned long long id = (unsigned long long)ev->sst_id;
    size_t usable = 0, blooms = 0, bloom_at = 0;
    const char *said_no = NULL;
    bool names_match = s->block_bad ? ev->sub_count == 0 : ev->sub_count == s->nsubs;
    for (size_t i = 0; names_match && !s->block_bad && i < ev->sub_count; i++)
        names_match = ev->subs[i].name && strcmp(ev->subs[i].name, s->subs[i].name) == 0;
    if (!names_match && ck->cfg.check)
        ck_violation(ck, FL_P8, "sst %llu: the read saw %zu sub-filter(s), the SST stores %zu%s", id,
                     ev->sub_count, s->block_bad ? (size_t)0 : s->nsubs,
                     s->block_bad ? " (its filter block is unreadable)" : " (names or order differ)");
    for (size_t i = 0; i < ev->sub_count; i++) {
        const fl_subfilter_verdict *v = &ev->subs[i];
        const char *name = v->name ? v->name : "?";
        if (v->usable) {
            usable++;
            if (!v->might_match && !said_no) said_no = name;
            if (!v->might_match && truth) {
                char tgt[200] = "";
                ck_str(tgt, sizeof tgt, ev->target.data, ev->target.len);
                ck->p1_this_op = true;
                ck_violation(ck, FL_P1, "sst %llu sub-filter \"%s\" said no, but sst %llu holds %s%s",
                             id, name, id, ev->kind == FL_TARGET_POINT ? "" : "a key with prefix ", tgt);
            }
        }
        if (!names_match) continue;
        /* P8: usable exactly when configured */
        const ck_policy *p = s->format == 0 ? NULL : configured(ck, &s->subs[i]);
        bool expected = s->format == 0 ? ck_config_first_bloom(ck->writer) != NULL : p != NULL;
        bool builtin = s->format == 0 || (p && p->bloom);
        if (v->usable && (s->format == 0 || (p && p->builtin))) { blooms++; bloom_at = i; }
        if (v->usable && !expected)
            ck_violation(ck, FL_P8, "sst %llu sub-filter \"%s\" was used, but no configured policy "
                         "has that name", id, s->format == 0 ? "(Legacy)" : name);
        else if (!v->usable && expected && builtin)
            ck_violation(ck, FL_P8, "sst %llu sub-filter \"%s\" was skipped, though a configured "
                         "policy has that name and its bytes are sound", id,
                         s->format == 0 ? "(Legacy)" : name);
        /* P5: the reference filter's answer */
        if (v->usable && builtin) {
            const fl_model_bloom *ref = ck_sub_reference(ck, s, i);
            if (!ref) continue;
            /* a whole key hashes as the read's one hash of it (XXH3_64bits
             * both), which the model then probes as it would */
            bool want = ev->kind == FL_TARGET_POINT && ref->config.whole_key && ck->key_hashed
                            ? fl_model_bloom_probe_hash(ref, ck->key_hash)
                            : fl_model_bloom_might_match(ref, ev->kind == FL_TARGET_POINT ? FL_MODEL_POINT
                                                         : FL_MODEL_PREFIX,
                                                         (fl_model_bytes){ ev->target.data, ev->target.len });
            if (want != v->might_match)
                ck_violation(ck, FL_P5, "sst %llu sub-filter \"%s\" said %s, the reference filter "
                             "says %s", id, s->format == 0 ? "(Legacy)" : name,
                             v->might_match ? "maybe" : "no", want ? "maybe" : "no");
        }
    }
    expected_account(ck, s, ev, names_match, blooms, bloom_at, &ck->events[ck->nevents - 1]);
    /* P9: an eligible probe of an SST whose only usable sub-filter is a
     * built-in bloom the checker saw built */
    if (usable == 1 && names_match && !s->block_bad && !(ev->verdict == FL_VERDICT_MAYBE && truth)) {
        for (size_t i = 0; i < ev->sub_count; i++) {
            if (!ev->subs[i].usable || !s->subs[i].p9) continue;
            const fl_model_bloom *ref = ck_sub_reference(ck, s, i);
            if (ref) ck_p9_probe(ck, &s->subs[i], ref, ev->kind == FL_TARGET_POINT ? 0 : 1,
                                 ev->target, ev->subs[i].might_match, truth);
        }
    }
    /* P3: the verdict follows from the answers */
    fl_verdict want = usable == 0 ? FL_VERDICT_UNFILTERED : said_no ? FL_VERDICT_NO : FL_VERDICT_MAYBE;
    if (ev->verdict != want)
        ck_violation(ck, FL_P3, "sst %llu: verdict %s, but its sub-filters give %s (%zu usable of %zu)",
                     id, verdict_name(ev->verdict), verdict_name(want), usable, ev->sub_count);
}

void ck_probe(void *arg, const fl_probe_event *ev) {
    fl_checker *ck = arg;
    const fl_op *op = ck->op;
    if (ck->nevents == ck->events_cap) {
        size_t cap = ck->events_cap ? 2 * ck->events_cap : 32;
        ck_seen *n = realloc(ck->events, cap * sizeof *n);
        if (!n) { ck->event_overflow = true; return; }
        ck->events = n;
        ck->events_cap = cap;
    }
    ck_seen *seen = &ck->events[ck->nevents++];
    seen->sst = ev->sst_id;
    seen->verdict = ev->verdict;
    seen->held = ev->held_match;
    seen->truth = false;
    seen->expected_counted = false;
    seen->expected_unknown = true;          /* until check_subs accounts for it */
    seen->expected = 0;
    if (!ck->cfg.check) return;
    /* the read's own target (ck->want_*): a get's key, a scan_prefix's
     * prefix, a prefix-mode seek's extracted prefix; none for the others */
    if (!op || !ck->want_kind || ev->kind != ck->want_kind || ev->target.len != ck->want_target.len ||
        (ev->target.len && memcmp(ev->target.data, ck->want_target.data, ev->target.len) != 0)) {
        ck_violation(ck, FL_P3, "sst %llu: a %s probe event that does not belong to this op",
                     (unsigned long long)ev->sst_id, ev->kind == FL_TARGET_POINT ? "point" : "prefix");
        return;
    }
    ck_sst *s = ck_sst_get(ck, ev->sst_id);
    if (!s) {
        ck_violation(ck, FL_P6, "sst %llu was considered, but it is not in the manifest",
                     (unsigned long long)ev->sst_id);
        return;
    }
    bool truth;
    if (ev->kind == FL_TARGET_POINT) {
        /* a key never written is in no SST */
        truth = ck_maybe_written(ck, ev->target.data, ev->target.len) &&
                ck_sst_holds_key_hashed(s, ev->target.data, ev->target.len, ck->key_hash);
    } else {
        truth = ck_sst_holds_prefix(s, ev->target.data, ev->target.len);
    }
    seen->truth = truth;
    check_subs(ck, s, ev, truth);
    if (ev->verdict != FL_VERDICT_NO && ev->held_match != truth)
        ck_violation(ck, FL_P4, "sst %llu: the engine says it %s a match, the SST truth says it %s",
                     (unsigned long long)ev->sst_id, ev->held_match ? "held" : "did not hold",
                     truth ? "does" : "does not");
}

/* ---- After the read ------------------------------------------------------ */

/* maybe_held: false when the key was never written (so is not in the
 * memtable either: every key there was written). */
static bool mem_covers(const fl_checker *ck, const uint8_t *k, size_t klen, bool maybe_held) {
    if (maybe_held && fl_model_get(ck->mem_keys, (fl_model_bytes){ k, klen }, NULL)) return true;
    return ck_spans_cover(&ck->mem_rt_spans, k, klen);
}

/* The SSTs the read needed, in read order (SPEC P6). */
static size_t expected_ssts(fl_checker *ck, uint64_t *out) {
    const fl_op *op = ck->op;
    fl_slice a = ck->want_target;
    size_t n = 0;
    if (!ck->want_kind) return 0;      /* scans, total-order seeks: no filters */
    if (op->kind == FL_OP_GET) {
        bool maybe_held = ck_maybe_written(ck, a.data, a.len);
        uint64_t h = ck->key_hash;
        if (mem_covers(ck, a.data, a.len, maybe_held)) return 0;
        for (size_t i = 0; i < ck->nmetas; i++) {
            const fl_sst_meta *m = &ck->metas[i];
            if (!fl_sst_covers_key(m, a)) continue;
            out[n++] = m->id;
            ck_sst *s = ck_sst_get(ck, m->id);
            /* the newest version (an entry or a covering range tombstone) */
            if (s && ((maybe_held && ck_sst_holds_key_hashed(s, a.data, a.len, h)) ||
                      ck_sst_rt_covers(s, a.data, a.len)))
                break;
        }
        return n;
    }
    /* scan_prefix: every SST overlapping [p, successor(p)) */
    uint8_t *succ = malloc(a.len ? a.len : 1);
    size_t slen = a.len;
    if (a.len) memcpy(succ, a.data, a.len);
    while (slen > 0 && succ[slen - 1] == 0xFF) slen--;
    if (slen > 0) succ[slen - 1]++;
    for (size_t i = 0; i < ck->nmetas; i++)
        if (fl_sst_overlaps_range(&ck->metas[i], a, (fl_slice){ succ, slen }, slen == 0))
            out[n++] = ck->metas[i].id;
    free(succ);
    return n;
}

/* SSTs a scan over [a, b) reads: every one its range overlaps. */
static uint64_t scan_reads(const fl_checker *ck) {
    const fl_op *op = ck->op;
    if (ck_cmp(op->b.data, op->b.len, op->a.data, op->a.len) <= 0) return 0;     /* an empty range */
    uint64_t n = 0;
    for (size_t i = 0; i < ck->nmetas; i++)
        n += fl_sst_overlaps_range(&ck->metas[i], (fl_slice){ op->a.data, op->a.len },
                                   (fl_slice){ op->b.data, op->b.len }, false);
    return n;
}

/* SSTs a total-order seek reads: every one overlapping [key, end) forward,
 * ["", key] backward. */
static uint64_t seek_reads(const fl_checker *ck) {
    const fl_op *op = ck->op;
    uint8_t *end = malloc(op->a.len + 1);
    if (!end) return 0;
    if (op->a.len) memcpy(end, op->a.data, op->a.len);
    end[op->a.len] = 0;
    bool back = op->kind == FL_OP_SEEK_FOR_PREV;
    fl_slice from = back ? (fl_slice){ (const uint8_t *)"", 0 } : (fl_slice){ op->a.data, op->a.len };
    fl_slice to = { end, op->a.len + 1 };
    uint64_t n = 0;
    for (size_t i = 0; i < ck->nmetas; i++)
        n += fl_sst_overlaps_range(&ck->metas[i], from, to, !back);
    free(end);
    return n;
}

/* P3: the metrics outside the filter counters -- what a read moves. */
static void check_read_metrics(fl_checker *ck, const fl_metrics *before, const fl_metrics *after,
                               const fl_filter_counters *tally) {
    bool seek = ck->op->kind == FL_OP_SEEK || ck->op->kind == FL_OP_SEEK_FOR_PREV;
    bool unfiltered_range = ck->op->kind == FL_OP_SCAN || (seek && !ck->want_kind);
    uint64_t reads = ck->op->kind == FL_OP_SCAN ? scan_reads(ck)
                   : unfiltered_range          ? seek_reads(ck)
                                               : tally->unfiltered + tally->positive;
    if (after->sst_reads - before->sst_reads != reads)
        ck_violation(ck, FL_P3, "sst_reads moved by %llu, but the read read %llu SST(s)%s",
                     (unsigned long long)(after->sst_reads - before->sst_reads), (unsigned long long)reads,
                     unfiltered_range ? " (those its range overlaps)"
                                      : " (UNFILTERED and MAYBE verdicts)");
    static const char *const names[4] = { "ssts_written", "flushes", "compactions", "filter_errors" };
    uint64_t moved[4] = { after->ssts_written - before->ssts_written, after->flushes - before->flushes,
                          after->compactions - before->compactions,
                          after->filter_errors - before->filter_errors };
    for (int i = 0; i < 4; i++)
        if (moved[i])
            ck_violation(ck, FL_P3, "%s moved by %llu during a read, which writes and opens nothing",
                         names[i], (unsigned long long)moved[i]);
}

/* P4: expected_probes and expected_fp_sum moved as the checker's account of
 * the read's probes says.  The sum is a running double, so its delta
 * carries the rounding of the engine's additions: about one ulp of the
 * running total per probe, allowed beside 1e-9 of the delta. */
static void check_expected(fl_checker *ck, const fl_filter_counters *b, const fl_filter_counters *c,
                           bool mine, const char *kn) {
    uint64_t probes = 0;
    double sum = 0;
    for (size_t i = 0; mine && i < ck->nevents; i++) {
        if (ck->events[i].expected_unknown) return;
        if (!ck->events[i].expected_counted) continue;
        probes++;
        sum += ck->events[i].expected;
    }
    uint64_t dp = c->expected_probes - b->expected_probes;
    double ds = c->expected_fp_sum - b->expected_fp_sum;
    double tol = 1e-9 * sum + (double)(probes + 2) * 2.3e-16 * fabs(c->expected_fp_sum);
    if (dp != probes || !(fabs(ds - sum) <= tol))
        ck_violation(ck, FL_P4, "%s expected_probes moved by %llu and expected_fp_sum by %.17g; the "
                     "checker counts %llu eligible probe(s) of built-in blooms with expected rates "
                     "summing to %.17g", kn, (unsigned long long)dp, ds, (unsigned long long)probes, sum);
}

void ck_check_identities(fl_checker *ck, const char *kn, const fl_filter_counters *c) {
    if (c->considered != c->unfiltered + c->positive + c->negative)
        ck_violation(ck, FL_P3, "%s counters: considered %llu != unfiltered %llu + positive %llu + "
                     "negative %llu", kn, (unsigned long long)c->considered,
                     (unsigned long long)c->unfiltered, (unsigned long long)c->positive,
                     (unsigned long long)c->negative);
    if (c->false_positive > c->positive)
        ck_violation(ck, FL_P3, "%s counters: false_positive %llu > positive %llu", kn,
                     (unsigned long long)c->false_positive, (unsigned long long)c->positive);
}

void ck_check_read(fl_checker *ck, const fl_metrics *before, const fl_metrics *after) {
    if (!ck->eng->set_probe_trace) {
        ck_check_read_untraced(ck, before, after);
        return;
    }
    const ck_seen *ev = ck->events;
    fl_filter_counters tally = { 0 };
    uint64_t truth_fp = 0;
    for (size_t i = 0; i < ck->nevents; i++) {
        tally.considered++;
        if (ev[i].verdict == FL_VERDICT_UNFILTERED) tally.unfiltered++;
        else if (ev[i].verdict == FL_VERDICT_NO) tally.negative++;
        else {
            tally.positive++;
            if (!ev[i].held) tally.false_positive++;
            if (!ev[i].truth) truth_fp++;
        }
    }
    bool prefix = ck->want_kind == FL_TARGET_PREFIX;
    for (int k = 0; k < 2; k++) {
        const fl_filter_counters *b = k ? &before->prefix : &before->point;
        const fl_filter_counters *c = k ? &after->prefix : &after->point;
        const char *kn = k ? "prefix" : "point";
        ck_check_identities(ck, kn, c);
        bool mine = ck->want_kind && (k == 1) == prefix;
        fl_filter_counters zero = { 0 };
        const fl_filter_counters *t = mine ? &tally : &zero;
        uint64_t d[5] = { c->considered - b->considered, c->unfiltered - b->unfiltered,
                          c->positive - b->positive, c->negative - b->negative,
                          c->false_positive - b->false_positive };
        uint64_t w[5] = { t->considered, t->unfiltered, t->positive, t->negative, t->false_positive };
        if (memcmp(d, w, sizeof d) != 0)
            ck_violation(ck, FL_P3, "%s counters moved by considered %llu, unfiltered %llu, positive "
                         "%llu, negative %llu, false_positive %llu; the probe trace saw %llu, %llu, "
                         "%llu, %llu, %llu", kn, (unsigned long long)d[0], (unsigned long long)d[1],
                         (unsigned long long)d[2], (unsigned long long)d[3], (unsigned long long)d[4],
                         (unsigned long long)w[0], (unsigned long long)w[1], (unsigned long long)w[2],
                         (unsigned long long)w[3], (unsigned long long)w[4]);
        if (mine && d[4] != truth_fp)
            ck_violation(ck, FL_P4, "%s false_positive moved by %llu, but %llu MAYBE verdict(s) fell "
                         "on SSTs without a match", kn, (unsigned long long)d[4],
                         (unsigned long long)truth_fp);
        if (!ck->event_overflow) check_expected(ck, b, c, mine, kn);
    }
    if (!ck->event_overflow) check_read_metrics(ck, before, after, &tally);
    if (ck->p1_this_op || ck->event_overflow) return;   /* P6 would only echo P1 */
    if (ck->needed_cap < ck->nmetas + 1) {
        size_t cap = 2 * ck->nmetas + 16;
        uint64_t *n = realloc(ck->needed, cap * sizeof *n);
        if (!n) return;
        ck->needed = n;
        ck->needed_cap = cap;
    }
    uint64_t *want = ck->needed;
    size_t nw = expected_ssts(ck, want);
    size_t i = 0;
    while (i < nw && i < ck->nevents && want[i] == ev[i].sst) i++;
    if (i < nw || i < ck->nevents) {
        if (i < nw && (i >= ck->nevents))
            ck_violation(ck, FL_P6, "sst %llu covers the query and was needed, but was not considered "
                         "(%zu considered, %zu needed)", (unsigned long long)want[i], ck->nevents, nw);
        else if (i < nw)
            ck_violation(ck, FL_P6, "considered sst %llu where sst %llu was needed next (%zu considered, "
                         "%zu needed)", (unsigned long long)ev[i].sst, (unsigned long long)want[i],
                         ck->nevents, nw);
        else
            ck_violation(ck, FL_P6, "sst %llu was considered, but the read did not need it (%zu "
                         "considered, %zu needed)", (unsigned long long)ev[i].sst, ck->nevents, nw);
    }
}
