/*
 * gen.c -- the workload generators' public API (workload.h, fl_gen_*) and the
 * driver that turns a shape (gen_shapes.c, gen_pools.c) and an op mix into
 * ops.
 *
 * The driver emits `open`, then, until o->ops ops are out: a flush, a
 * compact (a quarter of them `compact full`), a reopen or a set_options
 * with probability 1/every each (the reopens' options taken in turn from
 * reopen_options, or, with options_for, those of reopens and set_options
 * asked of the caller as each is emitted), otherwise an op drawn from the
 * mix weights.  It keeps the
 * promises the mix makes (gen_internal.h says how presence is tracked):
 *   - get of a present key / del: a key put earlier;
 *   - get of an absent key: a key never put, before or after, inside the
 *     written key range (the shape's absent candidates, checked);
 *   - scan_prefix of a present prefix: a prefix of a key put earlier, its
 *     length around the extractor lengths 1..8 and the shape's natural
 *     prefix; of an absent prefix: one no key put earlier starts with;
 *   - delrange and scan: short ranges starting at or just before a written
 *     key, ending at the successor of one of its prefixes;
 *   - seek and seek_for_prev (half each): at, between and around written
 *     keys and their prefixes -- one byte shorter than, as long as and one
 *     longer than each extractor length the caller gives, and neighbouring
 *     prefixes -- or absent keys and edges; n from 1 to 20; prefix=1,
 *     prefix=0 or the default.
 * A share of the reads and range deletes (o->edge_rate) aims at an edge
 * instead (gen_edges.c): an SST's first or last key, a range tombstone's
 * start or end, or a neighbour of one, under the same promises; the driver
 * reports every write, flush, compaction and reopen to the edges.
 * Until a key has been put, ops that need one are puts.  keys == 0 means
 * the shape's default key space.  Each op's line is
 * the one fl_workload_print gives it with an empty description (op i on
 * line i + 2).
 */
#include "gen_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const fl_gen_shape_ops *const shapes[] = {
    &fl_gen_uniform_ops, &fl_gen_zipf_ops, &fl_gen_group_suffix_ops, &fl_gen_delimited_ops,
    &fl_gen_timeseries_ops, &fl_gen_adversarial_ops, &fl_gen_words_ops,
};
#define SHAPE_COUNT (sizeof shapes / sizeof shapes[0])

/* Candidates tried for an absent key or prefix before giving up on it. */
#define ABSENT_TRIES 32

static const fl_gen_shape_ops *shape_ops(fl_gen_shape shape) {
    for (size_t i = 0; i < SHAPE_COUNT; i++)
        if (shapes[i]->shape == shape) return shapes[i];
    return NULL;
}

int fl_gen_shape_parse(const char *name, fl_gen_shape *out) {
    for (size_t i = 0; name && i < SHAPE_COUNT; i++)
        if (strcmp(shapes[i]->name, name) == 0) {
            if (out) *out = shapes[i]->shape;
            return 0;
        }
    return -1;
}

const char *fl_gen_shape_name(fl_gen_shape shape) {
    const fl_gen_shape_ops *s = shape_ops(shape);
    return s ? s->name : "?";
}

void fl_gen_defaults(fl_gen_options *o, fl_gen_shape shape) {
    const fl_gen_shape_ops *s = shape_ops(shape);
    memset(o, 0, sizeof *o);
    o->shape = shape;
    o->ops = 10000;
    o->seed = 1;
    o->keys = s ? s->default_keys : 10000;
    o->theta = 0.99;
    o->w_put = 45;
    o->w_del = 5;
    o->w_delrange = 1;
    o->w_get_present = 20;
    o->w_get_absent = 15;
    o->w_prefix_present = 5;
    o->w_prefix_absent = 5;
    o->w_scan = 4;
    o->w_seek = 4;
    o->flush_every = 200;
    o->compact_every = 1000;
    o->reopen_every = 2500;
    o->ctx_rate = 0;
    o->edge_rate = 0.25;
    o->value_min = 4;
    o->value_max = 32;
    o->words_path = "/usr/share/dict/words";
}

int fl_gen_fail(fl_gen *g, const char *fmt, ...) {
    if (g->err && g->err_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(g->err, g->err_len, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* ---- Options ---------------------------------------------------------------- */

/* The driver's own state beside the shared fl_gen. */
typedef struct fl_gen_run {
    fl_gen       g;
    fl_workload *out;
    uint64_t     emitted;
    uint64_t     refused;           /* ops key_ok refused               */
    fl_op        open;              /* the open op (maybe no options)   */
    fl_op       *reopens;           /* the reopen ops, taken in turn    */
    size_t       reopen_count, reopens_done;
    fl_gen_buf   a, b;              /* scratch for the op's strings      */
    char        *text;              /* options_for's text (OPTIONS_TEXT)  */
} fl_gen_run;

#define OPTIONS_TEXT 16384          /* bytes of options_for's text        */

/* Parses option text as the options of an open, reopen or set_options
 * line (kind): it is wrapped in the tiny workload "filterlab-workload 1\n
 * open TEXT\n" (or "... open\nreopen TEXT\n") and parsed, so the rules are
 * the parser's own.  what names the text in messages. */
static int parse_option_text(fl_gen *g, const char *text, fl_op_kind kind, const char *what,
                             fl_op *op) {
    const char *head = kind == FL_OP_REOPEN        ? FL_WL_HEADER "\nopen\nreopen "
                     : kind == FL_OP_SET_OPTIONS ? FL_WL_HEADER "\nopen\nset_options "
                                                   : FL_WL_HEADER "\nopen ";
    size_t hn = strlen(head), n = strlen(text);
    if (strchr(text, '\n') || strchr(text, '\r'))
        return fl_gen_fail(g, "%s: expected options on one line, got a line break", what);
    char *doc = malloc(hn + n + 1);
    if (!doc) return fl_gen_fail(g, "out of memory");
    memcpy(doc, head, hn);
    memcpy(doc + hn, text, n);
    doc[hn + n] = '\n';
    fl_workload w;
    char msg[1024];
    int rc = fl_workload_parse(doc, hn + n + 1, what, &w, msg, sizeof msg);
    free(doc);
    if (rc != 0) {
        /* "WHAT:2: expected ..." -> "WHAT: expected ..." */
        const char *rest = strstr(msg, ": expected");
        return fl_gen_fail(g, "%s%s", what, rest ? rest : msg);
    }
    *op = w.ops[w.count - 1];           /* take the op over */
    memset(&w.ops[w.count - 1], 0, sizeof *op);
    fl_workload_free(&w);
    return 0;
}

static const char *open_policies(const fl_op *open) {
    for (size_t i = 0; i < open->opt_count; i++)
        if (strcmp(open->opts[i].key, "policies") == 0) return open->opts[i].value;
    return NULL;
}

static int check_options(fl_gen *g, const fl_gen_options *o) {
    if (!g->shape) return fl_gen_fail(g, "unknown shape %d", (int)o->shape);
    if (o->keys > (1ull << 40)) return fl_gen_fail(g, "keys must be at most 2^40");
    if (o->shape == FL_SHAPE_ZIPF && !(o->theta > 0 && o->theta < 1))
        return fl_gen_fail(g, "theta must be in (0, 1) (0.99 is the classic skew), got %g", o->theta);
    uint64_t w = (uint64_t)o->w_put + o->w_del + o->w_delrange + o->w_get_present +
                 o->w_get_absent + o->w_prefix_present + o->w_prefix_absent + o->w_scan +
                 o->w_seek + o->w_multiget;
    if (w == 0) return fl_gen_fail(g, "the op mix has no weight: give at least one op a weight");
    if (!(o->ctx_rate >= 0 && o->ctx_rate <= 1))
        return fl_gen_fail(g, "the context rate must be in [0, 1], got %g", o->ctx_rate);
    if (!(o->edge_rate >= 0 && o->edge_rate <= 1))
        return fl_gen_fail(g, "the edge rate must be in [0, 1], got %g", o->edge_rate);
    if (o->value_min > o->value_max)
        return fl_gen_fail(g, "value lengths: min %u is above max %u", o->value_min, o->value_max);
    if (o->value_max > FL_WL_VALUE_MAX)
        return fl_gen_fail(g, "value lengths: max %u is above %u (1 MiB)", o->value_max,
                           FL_WL_VALUE_MAX);
    if (o->set_options_every && !o->options_for)
        return fl_gen_fail(g, "set_options_every is %llu but options_for is NULL",
                           (unsigned long long)o->set_options_every);
    if (o->reopen_count && !o->reopen_options)
        return fl_gen_fail(g, "reopen_count is %zu but reopen_options is NULL", o->reopen_count);
    for (size_t i = 0; i < o->reopen_count; i++)
        if (!o->reopen_options[i]) return fl_gen_fail(g, "reopen options %zu are NULL", i + 1);
    return 0;
}

/* The open op and the reopen ops, from the option texts. */
static int prepare_opens(fl_gen_run *run) {
    fl_gen *g = &run->g;
    const fl_gen_options *o = g->o;
    if (parse_option_text(g, o->open_options ? o->open_options : "", FL_OP_OPEN, "open options",
                          &run->open))
        return -1;
    if (o->options_for) {               /* each made when it is emitted */
        run->text = malloc(OPTIONS_TEXT);
        return run->text ? 0 : fl_gen_fail(g, "out of memory");
    }
    size_t n = o->reopen_count ? o->reopen_count : 1;
    run->reopens = calloc(n, sizeof *run->reopens);
    if (!run->reopens) return fl_gen_fail(g, "out of memory");
    run->reopen_count = n;
    if (!o->reopen_count) {
        /* a reopen must give an option: the open's policies, or the default */
        const char *p = open_policies(&run->open);
        fl_op *r = &run->reopens[0];
        r->kind = FL_OP_REOPEN;
        r->opts = calloc(1, sizeof *r->opts);
        if (!r->opts) return fl_gen_fail(g, "out of memory");
        r->opt_count = 1;
        r->opts[0].key = strdup("policies");
        r->opts[0].value = strdup(p ? p : "bloom(bits=10)");   /* engine.h: FL_DEFAULT_POLICIES */
        if (!r->opts[0].key || !r->opts[0].value) return fl_gen_fail(g, "out of memory");
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        char what[48];
        if (n > 1) snprintf(what, sizeof what, "reopen options %zu", i + 1);
        else snprintf(what, sizeof what, "reopen options");
        if (parse_option_text(g, o->reopen_options[i], FL_OP_REOPEN, what, &run->reopens[i])) return -1;
    }
    return 0;
}

/* ---- Emitting ------------------------------------------------------------- */

static int emit(fl_gen_run *run, fl_op *op) {
    fl_gen *g = &run->g;
    if (run->a.nomem || run->b.nomem || g->edges.nomem) return fl_gen_fail(g, "out of memory");
    static uint8_t nul;
    bool write = op->kind == FL_OP_PUT || op->kind == FL_OP_DEL;
    if (g->o->key_ok && (write || op->kind == FL_OP_GET) && !g->o->key_ok(g->o->key_ok_arg, op->a.data, op->a.len)) {
        run->refused++;               /* (not emitted: next_op draws again) */
        return 0;
    }
    if (g->o->no_empty_writes && write && op->a.len == 0) op->a = (fl_bytes){ &nul, 1 };
    op->line = (unsigned)(run->emitted + 2 > UINT32_MAX ? UINT32_MAX : run->emitted + 2);
    int rc = g->o->sink ? g->o->sink(g->o->sink_arg, op) : fl_workload_add(run->out, op);
    if (rc != 0)
        return g->o->sink ? fl_gen_fail(g, "the op sink failed at op %" PRIu64, run->emitted + 1)
                          : fl_gen_fail(g, "out of memory at op %" PRIu64, run->emitted + 1);
    run->emitted++;
    return 0;
}

static fl_op blank_op(fl_op_kind kind) {
    fl_op op;
    memset(&op, 0, sizeof op);
    op.kind = kind;
    return op;
}

static void set_bytes(fl_bytes *dst, fl_gen_buf *src) {
    dst->data = src->p;
    dst->len = src->len;
}

/* Records a key as written: the key set and its prefixes' fingerprints. */
static int note_written(fl_gen *g, const uint8_t *k, size_t n) {
    int added = fl_gen_keyset_add(&g->written, k, n);
    if (added < 0) return fl_gen_fail(g, "out of memory");
    if (added == 0) return 0;
    uint64_t fp[FL_GEN_PREFIX_MAX];
    size_t m = fl_gen_prefix_hashes(k, n, fp, FL_GEN_PREFIX_MAX);
    for (size_t i = 0; i < m; i++)
        if (fl_gen_fpset_add(&g->prefixes, fp[i]) != 0) return fl_gen_fail(g, "out of memory");
    return 0;
}

bool fl_gen_prefix_present(const fl_gen *g, const uint8_t *p, size_t n) {
    if (n == 0) return g->written.count > 0;
    if (n > FL_GEN_PREFIX_MAX) return true;        /* untracked: assume so */
    return fl_gen_fpset_has(&g->prefixes, fl_gen_hash(p, n));
}

/* Whether this read aims at an edge (gen_edges.c); draws nothing at rate 0,
 * so a rate of 0 gives the ops of a generator without edges. */
static bool edge_read(fl_gen *g) {
    return g->o->edge_rate > 0 && fl_gen_chance(&g->rng, g->o->edge_rate);
}

/* ---- Keys for reads and deletes ----------------------------------------- */

/* A key put earlier (written.count > 0): by the shape's popularity when it
 * has one, else uniformly, a quarter of the time among the last 32 put. */
static void pick_present(fl_gen_run *run, fl_gen_buf *out) {
    fl_gen *g = &run->g;
    if (g->shape->popular_key) {
        for (int t = 0; t < 3; t++) {
            out->len = 0;
            g->shape->popular_key(g, out);
            if (!out->nomem && fl_gen_keyset_has(&g->written, fl_gen_buf_bytes(out), out->len)) return;
        }
    }
    size_t n = g->written.count, i;
    if (fl_gen_chance(&g->rng, 0.25)) i = n - 1 - (size_t)fl_gen_below(&g->rng, n < 32 ? n : 32);
    else i = (size_t)fl_gen_below(&g->rng, n);
    size_t len;
    const uint8_t *k = fl_gen_keyset_key(&g->written, i, &len);
    fl_gen_buf_set(out, k, len);
}

/* A key never put; false if none was found. */
static bool pick_absent(fl_gen_run *run, fl_gen_buf *out) {
    fl_gen *g = &run->g;
    for (int t = 0; t < ABSENT_TRIES; t++) {
        out->len = 0;
        g->shape->absent_key(g, out);
        if (!out->nomem && !fl_gen_keyset_has(&g->written, fl_gen_buf_bytes(out), out->len)) return true;
    }
    return false;
}

/* A prefix length for a scan_prefix of key: the shape's natural prefix,
 * one byte off it, the extractor lengths 1..8, the whole key (a prefix that
 * is a key) or, rarely, empty.  At most len. */
static size_t prefix_length(fl_gen *g, const uint8_t *key, size_t len) {
    size_t nat = g->shape->natural_prefix(g, key, len), n;
    double r = fl_gen_unit(&g->rng);
    if (nat && r < 0.35) n = nat;
    else if (nat && r < 0.45) n = fl_gen_chance(&g->rng, 0.5) ? nat + 1 : nat - 1;
    else if (r < 0.87) n = (size_t)fl_gen_between(&g->rng, 1, 8);
    else if (r < 0.98) n = len;
    else n = 0;
    return n < len ? n : len;
}

/* The successor of p[0..n): the smallest string above every string that
 * starts with p.  false when there is none (p empty or all 0xFF). */
static bool prefix_successor(const uint8_t *p, size_t n, fl_gen_buf *out) {
    while (n && p[n - 1] == 0xff) n--;
    if (!n) return false;
    fl_gen_buf_set(out, p, n);
    if (out->nomem) return false;
    out->p[n - 1]++;
    return true;
}

/* A short range [start, end) around the key in run->a: end is the successor
 * of a prefix of the key (its natural prefix a quarter of the time, else the
 * key less 1-3 bytes), or the key plus a NUL when there is none.  With
 * from_prefix the range starts at that prefix rather than at the key. */
static void short_range(fl_gen_run *run, bool from_prefix) {
    fl_gen *g = &run->g;
    fl_gen_buf *k = &run->a;
    size_t nat = g->shape->natural_prefix(g, fl_gen_buf_bytes(k), k->len), n;
    if (nat && nat <= k->len && fl_gen_chance(&g->rng, 0.25)) n = nat;
    else {
        size_t cut = (size_t)fl_gen_between(&g->rng, 1, 3);
        n = k->len > cut ? k->len - cut : (k->len ? 1 : 0);
    }
    run->b.len = 0;
    if (!prefix_successor(fl_gen_buf_bytes(k), n, &run->b)) {
        fl_gen_buf_set(&run->b, fl_gen_buf_bytes(k), k->len);
        fl_gen_buf_byte(&run->b, 0x00);
        return;
    }
    if (from_prefix) k->len = n;
}

static void maybe_ctx(fl_gen *g, fl_op *op) {
    if (!fl_gen_chance(&g->rng, g->o->ctx_rate)) return;
    op->has_ctx = true;
    op->ctx_len = (size_t)fl_gen_below(&g->rng, FL_WL_CTX_MAX + 1);
    for (size_t i = 0; i < op->ctx_len; i++) op->ctx[i] = (uint8_t)fl_gen_next(&g->rng);
}

/* ---- Ops ------------------------------------------------------------------- */

enum { MIX_PUT, MIX_DEL, MIX_DELRANGE, MIX_GET, MIX_GET_ABSENT, MIX_PREFIX,
       MIX_PREFIX_ABSENT, MIX_SCAN, MIX_SEEK, MIX_MULTIGET, MIX_COUNT };

static int draw_mix(fl_gen *g) {
    const fl_gen_options *o = g->o;
    const unsigned w[MIX_COUNT] = { o->w_put, o->w_del, o->w_delrange, o->w_get_present,
                                    o->w_get_absent, o->w_prefix_present, o->w_prefix_absent,
                                    o->w_scan, o->w_seek, o->w_multiget };
    uint64_t total = 0;
    for (int i = 0; i < MIX_COUNT; i++) total += w[i];
    uint64_t x = fl_gen_below(&g->rng, total);
    for (int i = 0; i < MIX_COUNT; i++) {
        if (x < w[i]) return i;
        x -= w[i];
    }
    return MIX_PUT;
}

static int op_put(fl_gen_run *run) {
    fl_gen *g = &run->g;
    const fl_gen_options *o = g->o;
    run->a.len = run->b.len = 0;
    g->shape->put_key(g, &run->a);
    size_t vlen = (size_t)fl_gen_between(&g->rng, o->value_min, o->value_max);
    if (fl_gen_chance(&g->rng, g->shape->empty_value_rate)) vlen = 0;
    fl_gen_buf_chars(&run->b, &g->rng,
                     "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:/+", vlen);
    if (run->a.nomem || run->b.nomem) return fl_gen_fail(g, "out of memory");
    if (note_written(g, run->a.p, run->a.len) != 0) return -1;
    fl_gen_edges_write(&g->edges, run->a.p, run->a.len, run->b.len);
    fl_op op = blank_op(FL_OP_PUT);
    set_bytes(&op.a, &run->a);
    set_bytes(&op.b, &run->b);
    return emit(run, &op);
}

static int op_get(fl_gen_run *run, bool absent) {
    fl_gen *g = &run->g;
    bool edge = edge_read(g) && (absent ? fl_gen_edge_absent_key(g, &run->a)
                                        : fl_gen_edge_present_key(g, &run->a));
    if (!edge && absent && !pick_absent(run, &run->a)) {
        if (!g->written.count) return op_put(run);
        absent = false;                 /* no absent key found: rare */
    }
    if (!edge && !absent) pick_present(run, &run->a);
    fl_op op = blank_op(FL_OP_GET);
    set_bytes(&op.a, &run->a);
    maybe_ctx(g, &op);
    return emit(run, &op);
}

/* A multiget of 2-8 keys, each present or absent (half and half) as a
 * get's, one in ten the key before it again (MultiGet takes repeats). */
static int op_multiget(fl_gen_run *run) {
    fl_gen *g = &run->g;
    size_t n = 2 + (size_t)fl_gen_below(&g->rng, 7), len = 0;
    uint8_t *packed = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!i || !fl_gen_chance(&g->rng, 0.1)) {
            if (!(fl_gen_chance(&g->rng, 0.5) && pick_absent(run, &run->a))) pick_present(run, &run->a);
        }
        if (run->a.nomem || fl_op_multiget_pack(&packed, &len, fl_gen_buf_bytes(&run->a), run->a.len) != 0) {
            free(packed);
            return fl_gen_fail(g, "out of memory");
        }
    }
    fl_op op = blank_op(FL_OP_MULTIGET);
    op.a = (fl_bytes){ packed, len };
    op.count = (uint32_t)n;
    maybe_ctx(g, &op);
    int rc = emit(run, &op);
    free(packed);
    return rc;
}

/* An absent prefix: a prefix of an absent candidate (or of a written key's
 * neighbour), lengthened until no written key starts with it. */
static bool absent_prefix(fl_gen_run *run) {
    fl_gen *g = &run->g;
    fl_gen_buf *k = &run->a;
    for (int t = 0; t < ABSENT_TRIES; t++) {
        k->len = 0;
        if (g->written.count && fl_gen_chance(&g->rng, 0.25)) {
            pick_present(run, k);                   /* then bump its last byte */
            size_t n = prefix_length(g, fl_gen_buf_bytes(k), k->len);
            if (n == 0 || k->p[n - 1] == 0xff) continue;
            k->len = n;
            k->p[n - 1]++;
        } else {
            g->shape->absent_key(g, k);
        }
        if (k->nomem) return false;
        size_t n = prefix_length(g, fl_gen_buf_bytes(k), k->len), max = k->len;
        if (max > FL_GEN_PREFIX_MAX) max = FL_GEN_PREFIX_MAX;
        if (n == 0) n = 1;
        while (n <= max && fl_gen_prefix_present(g, fl_gen_buf_bytes(k), n)) n++;
        if (n <= max) {
            k->len = n;
            return true;
        }
    }
    return false;
}

static int op_scan_prefix(fl_gen_run *run, bool absent) {
    fl_gen *g = &run->g;
    bool edge = edge_read(g) && (absent ? fl_gen_edge_absent_prefix(g, &run->a)
                                        : fl_gen_edge_present_prefix(g, &run->a));
    if (!edge && absent && !absent_prefix(run)) absent = false;
    if (!edge && !absent) {
        pick_present(run, &run->a);
        run->a.len = prefix_length(g, run->a.p, run->a.len);
    }
    fl_op op = blank_op(FL_OP_SCAN_PREFIX);
    set_bytes(&op.a, &run->a);
    maybe_ctx(g, &op);
    return emit(run, &op);
}

static int op_del(fl_gen_run *run) {
    pick_present(run, &run->a);
    fl_gen_edges_write(&run->g.edges, run->a.p, run->a.len, 0);
    fl_op op = blank_op(FL_OP_DEL);
    set_bytes(&op.a, &run->a);
    return emit(run, &op);
}

static int op_range(fl_gen_run *run, fl_op_kind kind) {
    fl_gen *g = &run->g;
    if (!edge_read(g) || !fl_gen_edge_range(g, &run->a, &run->b)) {
        bool from_absent = kind == FL_OP_SCAN && fl_gen_chance(&g->rng, 0.25);
        if (!from_absent || !pick_absent(run, &run->a)) pick_present(run, &run->a);
        short_range(run, fl_gen_chance(&g->rng, 0.5));
    }
    if (kind == FL_OP_DELRANGE)
        fl_gen_edges_range(&g->edges, run->a.p, run->a.len, run->b.p, run->b.len);
    fl_op op = blank_op(kind);
    set_bytes(&op.a, &run->a);
    set_bytes(&op.b, &run->b);
    return emit(run, &op);
}

/* A seek's key: at a key put earlier, between keys (one with 0x00 added or
 * its last byte bumped), at a prefix of one (around the extractor lengths
 * of the configuration, o->prefix_lengths: one shorter, equal, one longer,
 * and a neighbouring prefix), an absent key, or an edge. */
static void seek_key(fl_gen_run *run) {
    fl_gen *g = &run->g;
    fl_gen_buf *k = &run->a;
    double r = fl_gen_unit(&g->rng);
    if (r < 0.15 && fl_gen_edge_present_key(g, k)) return;
    if (r < 0.25 && pick_absent(run, k)) return;
    pick_present(run, k);
    r = fl_gen_unit(&g->rng);
    if (r < 0.3) return;                                     /* at a key */
    if (r < 0.45) { fl_gen_buf_byte(k, 0x00); return; }       /* just after */
    if (r < 0.55) {                                          /* a neighbour */
        if (k->len && k->p[k->len - 1] != 0xff) k->p[k->len - 1]++;
        return;
    }
    size_t n;
    const fl_gen_options *o = g->o;
    if (o->prefix_length_count && fl_gen_chance(&g->rng, 0.7)) {
        size_t e = o->prefix_lengths[fl_gen_below(&g->rng, o->prefix_length_count)];
        n = e + (size_t)fl_gen_below(&g->rng, 3);           /* e - 1, e, e + 1 */
        n = n ? n - 1 : 0;
    } else {
        n = prefix_length(g, fl_gen_buf_bytes(k), k->len);
    }
    if (n < k->len) k->len = n;
    if (fl_gen_chance(&g->rng, 0.2) && k->len && k->p[k->len - 1] != 0xff)
        k->p[k->len - 1]++;                                  /* the next prefix */
}

static int op_seek(fl_gen_run *run) {
    fl_gen *g = &run->g;
    seek_key(run);
    fl_op op = blank_op(fl_gen_chance(&g->rng, 0.5) ? FL_OP_SEEK : FL_OP_SEEK_FOR_PREV);
    set_bytes(&op.a, &run->a);
    op.count = fl_gen_chance(&g->rng, 0.4) ? 1 : (uint32_t)fl_gen_between(&g->rng, 2, 20);
    double r = fl_gen_unit(&g->rng);
    op.prefix_mode = r < 0.6 ? -1 : r < 0.8 ? 1 : 0;
    if (g->o->seek_total_order) op.prefix_mode = 0;
    return emit(run, &op);
}

/* The flush threshold an open or reopen sets, if it sets one. */
static void note_memtable_option(fl_gen *g, const fl_op *op) {
    for (size_t i = 0; i < op->opt_count; i++)
        if (strcmp(op->opts[i].key, "memtable_bytes") == 0)
            fl_gen_edges_set_memtable(&g->edges, strtoull(op->opts[i].value, NULL, 10));
}

/* A reopen or set_options whose options the caller makes now (options_for). */
static int emit_made_options(fl_gen_run *run, fl_op_kind kind) {
    fl_gen *g = &run->g;
    const fl_gen_options *o = g->o;
    run->text[0] = '\0';
    if (o->options_for(o->options_arg, kind, run->text, OPTIONS_TEXT) != 0)
        return fl_gen_fail(g, "the options of %s at op %llu could not be made", fl_op_name(kind),
                           (unsigned long long)run->emitted + 1);
    run->text[OPTIONS_TEXT - 1] = '\0';
    char what[64];
    snprintf(what, sizeof what, "%s options at op %llu", fl_op_name(kind),
             (unsigned long long)run->emitted + 1);
    fl_op op;
    if (parse_option_text(g, run->text, kind, what, &op)) return -1;
    note_memtable_option(g, &op);
    int rc = emit(run, &op);
    fl_wl_op_clear(&op);
    return rc;
}

static int next_op(fl_gen_run *run) {
    fl_gen *g = &run->g;
    const fl_gen_options *o = g->o;
    double pf = o->flush_every ? 1.0 / (double)o->flush_every : 0;
    double pc = o->compact_every ? 1.0 / (double)o->compact_every : 0;
    double pr = o->reopen_every ? 1.0 / (double)o->reopen_every : 0;
    double u = fl_gen_unit(&g->rng);
    if (u < pf) {
        fl_op op = blank_op(FL_OP_FLUSH);
        fl_gen_edges_cut(&g->edges);
        return emit(run, &op);
    }
    if (u < pf + pc) {
        fl_op op = blank_op(FL_OP_COMPACT);
        op.full = fl_gen_chance(&g->rng, 0.25);
        if (op.full) fl_gen_edges_cut(&g->edges);          /* a full compaction flushes first */
        fl_gen_edges_compact(&g->edges);
        return emit(run, &op);
    }
    if (u < pf + pc + pr) {
        fl_gen_edges_cut(&g->edges);                        /* close flushes */
        if (o->options_for) return emit_made_options(run, FL_OP_REOPEN);
        fl_op *op = &run->reopens[run->reopens_done++ % run->reopen_count];
        note_memtable_option(g, op);
        return emit(run, op);
    }
    double ps = o->set_options_every ? 1.0 / (double)o->set_options_every : 0;
    if (u < pf + pc + pr + ps) return emit_made_options(run, FL_OP_SET_OPTIONS);
    int kind = draw_mix(g);
    if (g->written.count == 0 && kind != MIX_GET_ABSENT && kind != MIX_PREFIX_ABSENT)
        kind = MIX_PUT;
    switch (kind) {
    case MIX_PUT:           return op_put(run);
    case MIX_DEL:           return op_del(run);
    case MIX_DELRANGE:      return op_range(run, FL_OP_DELRANGE);
    case MIX_GET:           return op_get(run, false);
    case MIX_GET_ABSENT:    return op_get(run, true);
    case MIX_PREFIX:        return op_scan_prefix(run, false);
    case MIX_PREFIX_ABSENT:
        if (!g->written.count) return op_get(run, true);
        return op_scan_prefix(run, true);
    case MIX_SEEK:          return op_seek(run);
    case MIX_MULTIGET:      return op_multiget(run);
    default:                return op_range(run, FL_OP_SCAN);
    }
}

/* ---- The API --------------------------------------------------------------- */

int fl_gen_workload(const fl_gen_options *o, fl_workload *out, char *err, size_t err_len) {
    fl_gen_run run;
    memset(&run, 0, sizeof run);
    fl_gen *g = &run.g;
    g->err = err;
    g->err_len = err_len;
    if (err && err_len) err[0] = 0;
    if (out) memset(out, 0, sizeof *out);
    if (!o) return fl_gen_fail(g, "no options");
    if (!out && !o->sink) return fl_gen_fail(g, "no output workload");
    g->o = o;
    g->shape = shape_ops(o->shape);
    run.out = out;
    int rc = check_options(g, o);
    if (rc == 0) rc = prepare_opens(&run);
    if (rc == 0) {
        g->keys = o->keys ? o->keys : g->shape->default_keys;
        g->rng.s = fl_gen_mix2(o->seed, 0x6f7073);          /* "ops"  */
        g->space_seed = fl_gen_mix2(o->seed, 0x6b657973);   /* "keys" */
        rc = g->shape->init(g);
    }
    if (rc == 0 && out && !(out->description = strdup(""))) rc = fl_gen_fail(g, "out of memory");
    if (rc == 0 && o->ops > 0) {
        note_memtable_option(g, &run.open);
        rc = emit(&run, &run.open);
    }
    while (rc == 0 && run.emitted < o->ops && run.refused < 16 * o->ops + 1024) rc = next_op(&run);

    if (g->shape && g->shape->destroy && g->shape_state) g->shape->destroy(g);
    fl_gen_keyset_free(&g->written);
    fl_gen_fpset_free(&g->prefixes);
    fl_gen_edges_free(&g->edges);
    fl_gen_buf_free(&run.a);
    fl_gen_buf_free(&run.b);
    fl_wl_op_clear(&run.open);
    for (size_t i = 0; i < run.reopen_count; i++) fl_wl_op_clear(&run.reopens[i]);
    free(run.reopens);
    free(run.text);
    if (rc != 0 && out) fl_workload_free(out);
    return rc == 0 ? 0 : -1;
}
