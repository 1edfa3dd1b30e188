/*
 * rocksdb_space.c -- the configuration space of RocksDB's trials (`filterlab
 * check --engine rocksdb`; check.h, fl_space): only configurations the
 * RocksDB engine can express (rocksdb_options.c and docs/rocksdb.md's option
 * table), so that RocksDB never refuses one.  If it does, that is a bug
 * here, and the trial reports it as an error of the trial (its space's
 * refusals_are_findings is false), never as a finding about RocksDB.
 *
 * A trial first draws its palette: one to three extractors (the user's
 * --extractor specs most of the time when given, else fixed:1-5,
 * capped:2-4, delim and lastdelim), and one more of RocksDB's own kinds
 * (fixed or capped) for set_options to switch to.  A configuration is
 *   - one policy: RocksDB's full bloom filter, or a Ribbon filter
 *     (rocksdb.filter=ribbon), at 1 to 20 bits per key, fractional ones
 *     too; or none.  With an extractor of the palette or without one;
 *     whole-key filtering on or off (off without an extractor rarely: a
 *     filter that holds nothing); fixed and capped as RocksDB's own
 *     extractors or wrapped (rocksdb.extractor=wrapped).  A --policy spec
 *     (it must be one built-in bloom) is used as it is half the time;
 *   - rocksdb.format_version 4 or 5; index_shortening (none and successor
 *     beside RocksDB's default); partitioned filters with metadata
 *     blocks of 64 to 512 bytes; a memtable prefix bloom (ratio 0.01 to
 *     0.25) and memtable whole-key filtering; optimize_filters_for_hits;
 *     cache_index_and_filter_blocks; gets through Get or through the
 *     batched MultiGet (rocksdb.get=multiget, 40%);
 *   - memtable, SST and block sizes and an L0 trigger small enough that
 *     flushes and compactions happen.
 * Reopens migrate: the extractor, whole-key filtering, bits, the filter
 * kind and every rocksdb.* setting may change.  set_options (made as the
 * generator reaches each one, for the configuration in force there) change
 * what RocksDB's SetOptions can: the extractor between fixed:N, capped:N
 * and none when it is RocksDB's own -- the filter policy, whole-key
 * filtering and every table option stay, since SetOptions cannot change
 * them, and an extractor run inside RocksDB by filterlab changes only with
 * a reopen --; memtable_bytes, sst_bytes and l0_trigger; the memtable
 * bloom's ratio and whole-key filtering; and, since it is filterlab's
 * choice and not RocksDB's, whether gets go through MultiGet.
 *
 * Seeks: RocksDB defines prefix-mode reads only for an extractor under
 * which the keys with one prefix are contiguous in key order (7.8's
 * options.h, prefix_extractor: "all keys with the same prefix must be in a
 * contiguous group by comparator order, and cannot be interrupted by keys
 * with no prefix").  fixed, capped and delim keep it; lastdelim does not
 * ("a:a", "a:b:x", "a:c" -- the middle key's prefix is "a:b:"), and a
 * prefix-mode seek under it may rightly return what no model of "stop at
 * the first other prefix" predicts, depending on which SSTs the filters
 * skip.  So in a trial whose palette has a lastdelim every seek is total
 * order (prefix=0); its scan_prefix are total order anyway (lastdelim
 * gives no prefix for a PREFIX target).  A user's --extractor is taken to
 * keep the property.
 *
 * No FP trials: P9 is not checked on RocksDB.  More seeks than filterlab's
 * trials (where RocksDB's filter bugs live), no filter contexts (RocksDB
 * has none).
 */
#include "rocksdb_internal.h"

#include <stdlib.h>
#include <string.h>

#define PALETTE_MAX 4

static const char *const builtin_extractors[] = {
    "fixed:1", "fixed:2", "fixed:3", "fixed:4", "fixed:5", "capped:2", "capped:3", "capped:4",
    "delim::", "delim:/", "delim:\\x00", "lastdelim::", "lastdelim:/",
};
static const char *const native_extractors[] = {
    "fixed:1", "fixed:2", "fixed:3", "fixed:4", "fixed:5", "capped:2", "capped:3", "capped:4",
};
static const char *const bits_choices[] = {
    "1", "1.5", "2", "3", "4.5", "6", "8", "10", "10", "12", "13.7", "16", "20",
};
/* rocksdb.memtable_prefix_bloom; the first is RocksDB's default (none) */
static const char *const bloom_ratios[] = { "0", "0.01", "0.05", "0.1", "0.25" };
#define NRATIOS (sizeof bloom_ratios / sizeof *bloom_ratios)

#define COUNT(a) (sizeof (a) / sizeof *(a))

typedef struct rdb_policy {
    bool filter;                      /* false: policies=none               */
    char bits[24];
    char extractor[256];              /* its spec, escapes kept; "" none    */
    bool whole_key;
} rdb_policy;

/* The configuration in force, as the trial goes. */
typedef struct rdb_config {
    rdb_policy pol;
    bool ribbon, wrapped;
    int format_version;               /* 4 or 5                             */
    bool partition;
    unsigned metadata;                /* with partition: metadata_block_size */
    unsigned ratio;                   /* into bloom_ratios                   */
    bool mem_whole_key, opt_hits, cache_blocks;
    unsigned shorten;                 /* into shortenings                    */
    unsigned memtable, sst, block, l0;
    bool multiget;                    /* rocksdb.get=multiget                */
} rdb_config;

/* rocksdb.index_shortening: RocksDB's default first */
static const char *const shortenings[] = { "separators", "none", "successor" };

typedef struct rdb_state {
    const fl_run_config *c;
    fl_rng r;                         /* reopens and set_options, in workload order */
    const char *palette[PALETTE_MAX]; /* [npalette - 1]: set_options' own  */
    size_t npalette;
    rdb_config now;
} rdb_state;

static bool kind_is(const char *spec, const char *kind) {
    size_t n = strlen(kind);
    return strncmp(spec, kind, n) == 0 && spec[n] == ':';
}

/* RocksDB's own extractor (FixedPrefix, CappedPrefix) stands for it. */
static bool native(const char *spec) { return kind_is(spec, "fixed") || kind_is(spec, "capped"); }

/* ---- Drawing ------------------------------------------------------------------------ */

/* 1 to 20 bits per key: half the time a common value, else any millibit
 * in between, written as the shortest exact decimal ("7.25"). */
static void draw_bits(fl_rng *r, char *out, size_t len) {
    if (fl_rng_chance(r, 50)) {
        snprintf(out, len, "%s", bits_choices[fl_rng_below(r, COUNT(bits_choices))]);
        return;
    }
    unsigned mb = 1000u + (unsigned)fl_rng_below(r, 19001);
    unsigned frac = mb % 1000, digits = 3;
    while (frac && frac % 10 == 0) { frac /= 10; digits--; }
    if (frac) snprintf(out, len, "%u.%0*u", mb / 1000, (int)digits, frac);
    else snprintf(out, len, "%u", mb / 1000);
}

/* One of the palette's extractors but set_options' own. */
static const char *draw_extractor(rdb_state *st) {
    return st->palette[fl_rng_below(&st->r, st->npalette > 1 ? st->npalette - 1 : 1)];
}

/* A --policy spec taken apart (check_specs made sure it is one bloom). */
static void user_policy(const char *spec, rdb_policy *p) {
    char v[64];
    memset(p, 0, sizeof *p);
    p->filter = true;
    snprintf(p->bits, sizeof p->bits, "%s",
             fl_spec_argument(spec, "bits", v, sizeof v) && strlen(v) < sizeof p->bits ? v : "10");
    if (!fl_spec_argument(spec, "prefix", p->extractor, sizeof p->extractor)) p->extractor[0] = 0;
    p->whole_key = !(fl_spec_argument(spec, "whole_key", v, sizeof v) && strcmp(v, "0") == 0);
}

static void draw_policy(rdb_state *st, rdb_policy *p) {
    const fl_run_config *c = st->c;
    fl_rng *r = &st->r;
    if (c->npolicies && fl_rng_chance(r, 50)) {
        user_policy(c->policies[fl_rng_below(r, c->npolicies)], p);
        return;
    }
    memset(p, 0, sizeof *p);
    p->filter = !fl_rng_chance(r, 8);
    draw_bits(r, p->bits, sizeof p->bits);
    if (fl_rng_chance(r, 80)) snprintf(p->extractor, sizeof p->extractor, "%s", draw_extractor(st));
    p->whole_key = p->extractor[0] ? fl_rng_chance(r, 60) : !fl_rng_chance(r, 5);
}

static unsigned draw_memtable(fl_rng *r) { return 256u + (unsigned)fl_rng_below(r, 8192); }
static unsigned draw_sst(fl_rng *r) { return 256u + (unsigned)fl_rng_below(r, 8192); }
static unsigned draw_block(fl_rng *r) { return 32u + (unsigned)fl_rng_below(r, 2048); }
static unsigned draw_l0(fl_rng *r) { return 2u + (unsigned)fl_rng_below(r, 5); }
static unsigned draw_metadata(fl_rng *r) { return 64u + (unsigned)fl_rng_below(r, 449); }

static void draw_open(rdb_state *st) {
    fl_rng *r = &st->r;
    rdb_config *n = &st->now;
    draw_policy(st, &n->pol);
    n->ribbon = fl_rng_chance(r, 25);
    n->wrapped = fl_rng_chance(r, 20);
    n->format_version = fl_rng_chance(r, 50) ? 4 : 5;
    n->partition = fl_rng_chance(r, 35);
    n->metadata = draw_metadata(r);
    n->ratio = fl_rng_chance(r, 45) ? 1u + (unsigned)fl_rng_below(r, NRATIOS - 1) : 0u;
    n->mem_whole_key = fl_rng_chance(r, 30);
    n->opt_hits = fl_rng_chance(r, 15);
    n->cache_blocks = fl_rng_chance(r, 30);
    n->memtable = draw_memtable(r);
    n->sst = draw_sst(r);
    n->block = draw_block(r);
    n->l0 = draw_l0(r);
    n->shorten = fl_rng_chance(r, 30) ? 1u + (unsigned)fl_rng_below(r, 2) : 0u;
    n->multiget = fl_rng_chance(r, 40);
}

/* A migration at reopen: anything may change. */
static void draw_reopen(rdb_state *st) {
    fl_rng *r = &st->r;
    rdb_config *n = &st->now;
    if (fl_rng_chance(r, 15)) {
        draw_policy(st, &n->pol);
    } else {
        rdb_policy *p = &n->pol;
        if (fl_rng_chance(r, 50)) {
            if (fl_rng_chance(r, 20)) p->extractor[0] = 0;
            else snprintf(p->extractor, sizeof p->extractor, "%s", draw_extractor(st));
            if (!p->extractor[0]) p->whole_key = true;
        }
        if (p->extractor[0] && fl_rng_chance(r, 30)) p->whole_key = !p->whole_key;
        if (fl_rng_chance(r, 30)) draw_bits(r, p->bits, sizeof p->bits);
        if (fl_rng_chance(r, 8)) p->filter = !p->filter;
    }
    if (fl_rng_chance(r, 15)) n->ribbon = !n->ribbon;
    if (fl_rng_chance(r, 15)) n->wrapped = !n->wrapped;
    if (fl_rng_chance(r, 20)) n->format_version = n->format_version == 4 ? 5 : 4;
    if (fl_rng_chance(r, 20)) {
        n->partition = !n->partition;
        n->metadata = draw_metadata(r);
    }
    if (fl_rng_chance(r, 20)) n->ratio = (unsigned)fl_rng_below(r, NRATIOS);
    if (fl_rng_chance(r, 15)) n->mem_whole_key = !n->mem_whole_key;
    if (fl_rng_chance(r, 10)) n->opt_hits = !n->opt_hits;
    if (fl_rng_chance(r, 15)) n->cache_blocks = !n->cache_blocks;
    if (fl_rng_chance(r, 20)) n->memtable = draw_memtable(r);
    if (fl_rng_chance(r, 15)) n->sst = draw_sst(r);
    if (fl_rng_chance(r, 15)) n->block = draw_block(r);
    if (fl_rng_chance(r, 15)) n->l0 = draw_l0(r);
    if (fl_rng_chance(r, 15)) n->shorten = (unsigned)fl_rng_below(r, 3);
    if (fl_rng_chance(r, 20)) n->multiget = !n->multiget;
}

/* Whether set_options may change the extractor now: there is a filter
 * policy, and the extractor in force, if any, is RocksDB's own. */
static bool extractor_changeable(const rdb_config *n) {
    return n->pol.filter && !n->wrapped && (!n->pol.extractor[0] || native(n->pol.extractor));
}

/* What RocksDB's SetOptions can change, and the get's read path (filterlab's
 * own choice): one to three of these. */
static void draw_set_options(rdb_state *st) {
    fl_rng *r = &st->r;
    rdb_config *n = &st->now;
    unsigned changes = 1u + (unsigned)fl_rng_below(r, 3);
    for (unsigned i = 0; i < changes; i++) {
        unsigned what = (unsigned)fl_rng_below(r, 11);
        if (what < 5 && extractor_changeable(n)) {
            /* another of RocksDB's own, or none */
            const char *to = "";
            unsigned natives = 0;
            for (size_t j = 0; j < st->npalette; j++) natives += native(st->palette[j]);
            if (natives && !fl_rng_chance(r, 20)) {
                unsigned k = (unsigned)fl_rng_below(r, natives);
                for (size_t j = 0; j < st->npalette; j++)
                    if (native(st->palette[j]) && k-- == 0) to = st->palette[j];
            }
            snprintf(n->pol.extractor, sizeof n->pol.extractor, "%s", to);
            continue;
        }
        switch (what) {
        case 5:  n->memtable = draw_memtable(r); break;
        case 6:  n->sst = draw_sst(r); break;
        case 7:  n->l0 = draw_l0(r); break;
        case 8:  n->ratio = (unsigned)fl_rng_below(r, NRATIOS); break;
        case 10: n->multiget = !n->multiget; break;
        default: n->mem_whole_key = !n->mem_whole_key; break;
        }
    }
}

/* ---- Option text -------------------------------------------------------------------- */

static void policy_text(const rdb_policy *p, char *out, size_t cap) {
    if (!p->filter) {
        snprintf(out, cap, "none");
        return;
    }
    snprintf(out, cap, "bloom(bits=%s%s%s%s)", p->bits, p->extractor[0] ? ",prefix=" : "", p->extractor,
             p->whole_key ? "" : ",whole_key=0");
}

/* The options of an open line (was NULL: every option; defaults of the
 * rocksdb.* settings left out), or those that changed since `was` (every
 * changed one, back to a default too; policies always at a reopen, which
 * needs an option). */
static void render(const rdb_config *n, const rdb_config *was, bool reopen, fl_text *t) {
    char now[600], before[600];
    fl_text_clear(t);
    policy_text(&n->pol, now, sizeof now);
    if (was) policy_text(&was->pol, before, sizeof before);
    if (!was || reopen || strcmp(now, before) != 0) {
        fl_text_add(t, " policies=");
        fl_text_add_quoted(t, now);
    }
#define CHANGED(field) (!was || n->field != was->field)
    if (CHANGED(memtable)) fl_text_add(t, " memtable_bytes=%u", n->memtable);
    if (CHANGED(sst)) fl_text_add(t, " sst_bytes=%u", n->sst);
    if (CHANGED(block)) fl_text_add(t, " block_bytes=%u", n->block);
    if (CHANGED(l0)) fl_text_add(t, " l0_trigger=%u", n->l0);
    if (CHANGED(format_version) && (was || n->format_version != 5))
        fl_text_add(t, " rocksdb.format_version=%d", n->format_version);
    if (CHANGED(ribbon) && (was || n->ribbon)) fl_text_add(t, " rocksdb.filter=%s", n->ribbon ? "ribbon" : "bloom");
    if (CHANGED(wrapped) && (was || n->wrapped))
        fl_text_add(t, " rocksdb.extractor=%s", n->wrapped ? "wrapped" : "native");
    if (CHANGED(partition) && (was || n->partition)) fl_text_add(t, " rocksdb.partition_filters=%d", n->partition);
    if (n->partition && (CHANGED(metadata) || CHANGED(partition)))
        fl_text_add(t, " rocksdb.metadata_block_size=%u", n->metadata);
    if (CHANGED(ratio) && (was || n->ratio)) fl_text_add(t, " rocksdb.memtable_prefix_bloom=%s", bloom_ratios[n->ratio]);
    if (CHANGED(mem_whole_key) && (was || n->mem_whole_key))
        fl_text_add(t, " rocksdb.memtable_whole_key_filtering=%d", n->mem_whole_key);
    if (CHANGED(opt_hits) && (was || n->opt_hits)) fl_text_add(t, " rocksdb.optimize_filters_for_hits=%d", n->opt_hits);
    if (CHANGED(cache_blocks) && (was || n->cache_blocks))
        fl_text_add(t, " rocksdb.cache_index_and_filter_blocks=%d", n->cache_blocks);
    if (CHANGED(shorten) && (was || n->shorten))
        fl_text_add(t, " rocksdb.index_shortening=%s", shortenings[n->shorten]);
    if (CHANGED(multiget) && (was || n->multiget))
        fl_text_add(t, " rocksdb.get=%s", n->multiget ? "multiget" : "get");
#undef CHANGED
}

static bool same_config(const rdb_config *a, const rdb_config *b) {
    return a->pol.filter == b->pol.filter && strcmp(a->pol.bits, b->pol.bits) == 0 &&
           strcmp(a->pol.extractor, b->pol.extractor) == 0 && a->pol.whole_key == b->pol.whole_key &&
           a->ribbon == b->ribbon && a->wrapped == b->wrapped && a->format_version == b->format_version &&
           a->partition == b->partition && a->metadata == b->metadata && a->ratio == b->ratio &&
           a->mem_whole_key == b->mem_whole_key && a->opt_hits == b->opt_hits &&
           a->cache_blocks == b->cache_blocks && a->memtable == b->memtable && a->sst == b->sst &&
           a->block == b->block && a->l0 == b->l0 && a->shorten == b->shorten &&
           a->multiget == b->multiget;
}

/* gen->options_for: the next reopen's or set_options' options, drawn for
 * the configuration in force now. */
static int options_for(void *arg, fl_op_kind kind, char *out, size_t cap) {
    rdb_state *st = arg;
    rdb_config was = st->now;
    fl_text t;
    if (kind == FL_OP_REOPEN) {
        draw_reopen(st);
    } else {
        /* until something changed (a toggle back and forth changes nothing) */
        for (int attempt = 0; attempt < 8 && same_config(&was, &st->now); attempt++)
            draw_set_options(st);
        if (same_config(&was, &st->now)) st->now.memtable = was.memtable + 1;
    }
    render(&st->now, &was, kind == FL_OP_REOPEN, &t);
    if (t.len + 1 > cap) return -1;
    memcpy(out, t.buf + (t.len && t.buf[0] == ' '), t.len + 1);
    return 0;
}

/* ---- The space ----------------------------------------------------------------------- */

static int configure(const fl_run_config *c, fl_rng *r, fl_space_trial *t, char *err, size_t err_len) {
    (void)err;
    (void)err_len;
    rdb_state *st = calloc(1, sizeof *st);
    if (!st) return FL_ERR_NOMEM;
    t->state = st;
    st->c = c;
    fl_gen_options *o = t->gen;
    o->ops = 50 + fl_rng_below(r, c->max_ops > 50 ? c->max_ops - 50 : 1);
    o->keys = 20 + fl_rng_below(r, 2000);
    o->flush_every = 10 + fl_rng_below(r, 200);
    o->compact_every = 50 + fl_rng_below(r, 600);
    o->reopen_every = fl_rng_chance(r, 70) ? 40 + fl_rng_below(r, o->ops) : 0;
    o->set_options_every = fl_rng_chance(r, 70) ? 15 + fl_rng_below(r, o->ops / 2 + 1) : 0;
    o->w_seek = 12;
    /* multigets of several keys (RocksDB's batched MultiGet) in half the
     * trials, told from the trial's state without a draw from it: a trial
     * without them is the one it was before they came */
    o->w_multiget = fl_mix64(r->s ^ 0x6d756c7469676574ull) % 2 ? 8 : 0;
    o->ctx_rate = 0;
    st->r.s = fl_rng_next(r);                /* the configurations' own stream */
    /* the palette, and set_options' own of RocksDB's kinds last */
    size_t want = 1 + fl_rng_below(&st->r, 3);
    for (size_t i = 0; i < want; i++)
        st->palette[st->npalette++] = c->nextractors && fl_rng_chance(&st->r, 80)
                                          ? c->extractors[fl_rng_below(&st->r, c->nextractors)]
                                          : builtin_extractors[fl_rng_below(&st->r, COUNT(builtin_extractors))];
    st->palette[st->npalette++] = native_extractors[fl_rng_below(&st->r, COUNT(native_extractors))];
    draw_open(st);
    render(&st->now, NULL, false, &t->open);
    o->open_options = t->open.buf + (t->open.len && t->open.buf[0] == ' ');
    o->options_for = options_for;
    o->options_arg = st;
    /* seek keys around the palette's lengths, and the --policy specs' */
    t->nlengths = 0;
    for (size_t i = 0; i < st->npalette + c->npolicies; i++) {
        fl_text x;
        char spec[600];
        rdb_policy p = { .filter = true, .bits = "10", .whole_key = true };
        if (i < st->npalette) snprintf(p.extractor, sizeof p.extractor, "%s", st->palette[i]);
        else user_policy(c->policies[i - st->npalette], &p);
        if (kind_is(p.extractor, "lastdelim")) o->seek_total_order = true;
        policy_text(&p, spec, sizeof spec);
        fl_text_clear(&x);
        fl_text_add(&x, "policies=");
        fl_text_add_quoted(&x, spec);
        fl_prefix_lengths(x.buf, t->lengths, &t->nlengths, FL_TRIAL_LENGTHS);
    }
    o->prefix_lengths = t->lengths;
    o->prefix_length_count = t->nlengths;
    return FL_OK;
}

static void release(fl_space_trial *t) {
    free(t->state);
    t->state = NULL;
}

/* Each --policy must be what RocksDB can run: one built-in bloom. */
static int check_specs(const fl_run_config *c, char *err, size_t err_len) {
    fl_calls *calls;
    if (!c->npolicies) return FL_OK;
    if (fl_calls_new(c->reg, &calls) != FL_OK) return FL_ERR_NOMEM;
    int rc = FL_OK;
    for (size_t i = 0; i < c->npolicies && rc == FL_OK; i++) {
        fl_policy_list l;
        char perr[512] = "";
        if ((rc = fl_policy_list_parse(c->reg, calls, c->policies[i], &l, perr, sizeof perr)) != FL_OK) {
            snprintf(err, err_len, "--policy %s: %s", c->policies[i], perr);
            break;
        }
        if (l.count != 1 || !fl_policy_is_builtin_bloom(l.items[0])) {
            snprintf(err, err_len, "--policy %s: the RocksDB engine runs one built-in bloom(...) policy "
                     "at a time, as RocksDB's own filter (a plugin policy, or a list, cannot run inside "
                     "RocksDB; a plugin extractor can: --extractor)", c->policies[i]);
            rc = FL_ERR_INVALID;
        }
        fl_policy_list_free(calls, &l);
    }
    fl_calls_free(calls);
    return rc;
}

const fl_space fl_space_rocksdb = {
    .fp_trials = false,
    .refusals_are_findings = false,
    .check_specs = check_specs,
    .configure = configure,
    .release = release,
};
