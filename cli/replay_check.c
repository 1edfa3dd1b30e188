/*
 * replay_check.c -- the checks `filterlab replay` runs until the model-side
 * checker exists: they use only what the engine reports about itself.
 *   - per probe event: NO only when some usable sub-filter said false, MAYBE
 *     only when every usable one said true, UNFILTERED only when none is
 *     usable; the event belongs to the running read and its target;
 *   - per read: considered = unfiltered + positive + negative and
 *     false_positive <= positive on the cumulative counters, and the read's
 *     counter deltas equal what its probe trace saw (SPEC 6, P3, P4);
 *   - per scan item: keys strictly ascending, inside the prefix or range.
 * Every violation is counted and (up to a cap) printed as
 * "FILE:LINE op KEY: what".
 */
#include "replay_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

/* ---- Messages ------------------------------------------------------------- */

/* "FILE:LINE op KEY" of the current op. */
static void print_where(const fl_replay *r, FILE *f) {
    const fl_op *op = r->op;
    if (!op) { fputs(r->path, f); return; }
    fprintf(f, "%s:%u %s", r->path, op->line, fl_op_name(op->kind));
    switch (op->kind) {
    case FL_OP_PUT: case FL_OP_DEL: case FL_OP_GET: case FL_OP_SCAN_PREFIX:
        fputc(' ', f); fl_replay_print_slice(f, fl_replay_slice(&op->a)); break;
    case FL_OP_DELRANGE: case FL_OP_SCAN:
        fputc(' ', f); fl_replay_print_slice(f, fl_replay_slice(&op->a));
        fputc(' ', f); fl_replay_print_slice(f, fl_replay_slice(&op->b)); break;
    default: break;
    }
}

/* Counts a violation; true when its message should be printed (the caller
 * then prints the rest of the line, newline included). */
bool fl_replay_violation_begin(fl_replay *r) {
    r->violations++;
    if (r->violations > FL_REPLAY_MAX_SHOWN) {
        if (r->violations == FL_REPLAY_MAX_SHOWN + 1) {
            fl_replay_progress_clear(r);
            fprintf(stderr, "%s: more than %d violations; further ones are counted, not shown\n",
                    r->path, FL_REPLAY_MAX_SHOWN);
        }
        return false;
    }
    fl_replay_progress_clear(r);
    print_where(r, stderr);
    fputs(": ", stderr);
    return true;
}

void fl_replay_violation(fl_replay *r, const char *fmt, ...) {
    if (!fl_replay_violation_begin(r)) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void fl_replay_on_contract_violation(void *arg, const char *who, const char *what) {
    fl_replay *r = arg;
    if (++r->contract_shown > FL_REPLAY_MAX_SHOWN) return;
    fl_replay_progress_clear(r);
    if (r->op) fprintf(stderr, "%s:%u: ", r->path, r->op->line);
    else fprintf(stderr, "%s: ", r->path);
    fprintf(stderr, "contract violation by %s: %s\n", who ? who : "?", what ? what : "?");
}

/* ---- Checks -------------------------------------------------------------- */

/* One event per considered SST: the verdict must follow from the
 * sub-filters' answers, and the event must belong to the running read. */
void fl_replay_on_probe(void *arg, const fl_probe_event *ev) {
    fl_replay *r = arg;
    int k = ev->kind == FL_TARGET_PREFIX ? 1 : 0;
    fl_trace_tally *t = &r->seen[k];
    t->considered++;
    if (ev->verdict == FL_VERDICT_UNFILTERED) t->unfiltered++;
    else if (ev->verdict == FL_VERDICT_NO) t->negative++;
    else if (ev->verdict == FL_VERDICT_MAYBE) {
        t->positive++;
        if (!ev->held_match) t->false_positive++;
    }
    if (!r->check) return;

    fl_op_kind want = ev->kind == FL_TARGET_POINT ? FL_OP_GET : FL_OP_SCAN_PREFIX;
    if (ev->kind != FL_TARGET_POINT && ev->kind != FL_TARGET_PREFIX)
        fl_replay_violation(r, "sst %" PRIu64 ": probe event of unknown kind %d", ev->sst_id, (int)ev->kind);
    else if (!r->op || r->op->kind != want)
        fl_replay_violation(r, "sst %" PRIu64 ": %s probe event outside a %s", ev->sst_id,
                  k ? "prefix" : "point", fl_op_name(want));
    else if (ev->target.len != r->op->a.len ||
             (ev->target.len && memcmp(ev->target.data, r->op->a.data, ev->target.len) != 0)) {
        if (fl_replay_violation_begin(r)) {
            fprintf(stderr, "sst %" PRIu64 ": probe event for target ", ev->sst_id);
            fl_replay_print_slice(stderr, ev->target);
            fputs(", not the op's\n", stderr);
        }
    }

    size_t usable = 0;
    const char *said_no = NULL, *usable_name = NULL;
    for (size_t i = 0; ev->subs && i < ev->sub_count; i++) {
        if (!ev->subs[i].usable) continue;
        usable++;
        if (!usable_name) usable_name = ev->subs[i].name ? ev->subs[i].name : "?";
        if (!ev->subs[i].might_match && !said_no)
            said_no = ev->subs[i].name ? ev->subs[i].name : "?";
    }
    switch (ev->verdict) {
    case FL_VERDICT_NO:
        if (!said_no)
            fl_replay_violation(r, "sst %" PRIu64 ": verdict NO, but no usable sub-filter said no "
                      "(%zu usable of %zu)", ev->sst_id, usable, ev->sub_count);
        break;
    case FL_VERDICT_MAYBE:
        if (usable == 0)
            fl_replay_violation(r, "sst %" PRIu64 ": verdict MAYBE, but no sub-filter is usable", ev->sst_id);
        else if (said_no)
            fl_replay_violation(r, "sst %" PRIu64 ": verdict MAYBE, but sub-filter \"%s\" said no",
                      ev->sst_id, said_no);
        break;
    case FL_VERDICT_UNFILTERED:
        if (usable)
            fl_replay_violation(r, "sst %" PRIu64 ": verdict UNFILTERED, but sub-filter \"%s\" is usable",
                      ev->sst_id, usable_name);
        break;
    default:
        fl_replay_violation(r, "sst %" PRIu64 ": unknown verdict %d", ev->sst_id, (int)ev->verdict);
    }
}

/* After a read: the identities of SPEC 6 on the cumulative counters, and
 * the read's counter deltas equal to what its probe trace saw. */
void fl_replay_check_counters(fl_replay *r, const fl_metrics *before,
                              const fl_metrics *after) {
    static const char *const kind_name[2] = { "point", "prefix" };
    for (int k = 0; k < 2; k++) {
        const fl_filter_counters *b = k ? &before->prefix : &before->point;
        const fl_filter_counters *c = k ? &after->prefix : &after->point;
        const fl_trace_tally *t = &r->seen[k];
        if (c->considered != c->unfiltered + c->positive + c->negative)
            fl_replay_violation(r, "%s counters: considered %" PRIu64 " != unfiltered %" PRIu64
                      " + positive %" PRIu64 " + negative %" PRIu64, kind_name[k],
                      c->considered, c->unfiltered, c->positive, c->negative);
        if (c->false_positive > c->positive)
            fl_replay_violation(r, "%s counters: false_positive %" PRIu64 " > positive %" PRIu64,
                      kind_name[k], c->false_positive, c->positive);
        fl_trace_tally d = { c->considered - b->considered, c->unfiltered - b->unfiltered,
                          c->positive - b->positive, c->negative - b->negative,
                          c->false_positive - b->false_positive };
        if (memcmp(&d, t, sizeof d) != 0)
            fl_replay_violation(r, "%s counters moved by considered %" PRIu64 ", unfiltered %" PRIu64
                      ", positive %" PRIu64 ", negative %" PRIu64 ", false_positive %" PRIu64
                      ", but the probe trace saw %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64
                      ", %" PRIu64, kind_name[k], d.considered, d.unfiltered, d.positive,
                      d.negative, d.false_positive, t->considered, t->unfiltered, t->positive,
                      t->negative, t->false_positive);
    }
}

static int cmp_bytes(fl_slice a, fl_slice b) {
    size_t n = a.len < b.len ? a.len : b.len;
    int c = n ? memcmp(a.data, b.data, n) : 0;
    return c ? c : (a.len > b.len) - (a.len < b.len);
}

/* A scan item must come after the previous one and lie in the op's range. */
void fl_replay_check_scan_item(fl_replay *r, fl_slice key) {
    const fl_op *op = r->op;
    fl_slice a = fl_replay_slice(&op->a), prev = { r->prev_key.data, r->prev_key.len };
    const char *what = NULL;
    if (r->have_prev && cmp_bytes(prev, key) >= 0) what = "out of order";
    else if (op->kind == FL_OP_SCAN_PREFIX &&
             (key.len < a.len || (a.len && memcmp(key.data, a.data, a.len) != 0)))
        what = "without the prefix";
    else if (op->kind == FL_OP_SCAN &&
             (cmp_bytes(key, a) < 0 || cmp_bytes(key, fl_replay_slice(&op->b)) >= 0))
        what = "outside [start, end)";
    if (what && fl_replay_violation_begin(r)) {
        fputs("scan returned ", stderr);
        fl_replay_print_slice(stderr, key);
        fprintf(stderr, " %s\n", what);
    }
    fl_buf_reset(&r->prev_key);
    r->have_prev = key.len == 0 || fl_buf_append(&r->prev_key, key.data, key.len) == FL_OK;
}

