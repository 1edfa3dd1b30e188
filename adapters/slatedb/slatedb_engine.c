/*
 * slatedb_engine.c -- `--engine slatedb`: SlateDB 0.18 through its adapter
 * program (the Rust crate beside this file, filterlab-slatedb), which speaks
 * the engine protocol (docs/protocol.md; adapters/proc/).
 * This file finds the program and names the engine's configuration space;
 * the mapping of options and ops onto SlateDB's API is the program's
 * (docs/slatedb.md).
 *
 * The program is looked for, in order: $FILTERLAB_SLATEDB; beside the
 * filterlab binary in a build tree (build/cargo/release/, which `make`
 * builds when cargo is there); in an install's libexec/filterlab/.
 *
 * The SSTs' filters are read here, from the files the program names
 * (`sst_file`), by filterlab's own reader (slatedb_sst.c), never by
 * SlateDB: read_filter below says what a read of SlateDB would probe, and
 * checks every bloom against a rebuild over the SST's entries (P5).
 */
#include "../adapters.h"
#include "../proc/proc_internal.h"
#include "slatedb_internal.h"
#include "slatedb_sst.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROGRAM "filterlab-slatedb"

static char command[PATH_MAX + 16];

static bool find_program(void) {
    static const char *const beside[] = { "/cargo/release/" PROGRAM, "/../cargo/release/" PROGRAM,
                                          "/../libexec/filterlab/" PROGRAM };
    return fl_proc_find_program("FILTERLAB_SLATEDB", beside, sizeof beside / sizeof *beside, command,
                                sizeof command);
}

static int slatedb_open(const fl_engine_ops *self, const char *dir, const fl_registry *reg, const fl_options *opt,
                        fl_engine **out, char *err, size_t err_len) {
    *out = NULL;
    if (!command[0] && !find_program()) {
        const char *env = getenv("FILTERLAB_SLATEDB");
        if (env && *env)
            snprintf(err, err_len, "FILTERLAB_SLATEDB=%s: no such executable", env);
        else
            snprintf(err, err_len, "filterlab was built without the SlateDB adapter (%s): install Rust's cargo "
                                   "(apt-get install cargo, or rustup) and run make", PROGRAM);
        return FL_ERR_NOTFOUND;
    }
    return fl_proc_open(self, dir, reg, opt, out, err, err_len);
}

/* ---- The filters of SlateDB's SSTs ----------------------------------------------- */

typedef struct sdb_filter {
    fl_sst_filter f;                  /* first: what the checker is handed       */
    fl_buf file;                      /* the SST's bytes (f.data points into them) */
    fl_sdb_bloom bloom;               /* the usable bloom, when f.kind is BLOOM  */
    fl_sdb_sst *t;                    /* the SST, parsed: its entries and filters */
    uint64_t *sub_hash;               /* each sub-filter's fl_proc_fnv1a, once   */
} sdb_filter;

static bool sdb_probe(const fl_sst_filter *f, uint64_t h) {
    return fl_sdb_bloom_might_contain_hash(&((const sdb_filter *)f)->bloom, h);
}

static void sdb_filter_free(fl_sst_filter *f) {
    sdb_filter *s = (sdb_filter *)f;
    if (!s) return;
    fl_sdb_sst_free(s->t);
    free(s->sub_hash);
    fl_buf_free(&s->file);
    free(s);
}

/* A configured policy: its name (as SlateDB names it: filterlab's rule,
 * which the adapter checks), its spec's prefix= argument, and its bits per
 * key (a bloom's bits=, 10 without one, as the adapter maps it onto
 * BloomFilterPolicy::new; -1 when bits= is not a whole number). */
typedef struct named { char name[256]; char prefix[256]; bool has_prefix; int bits; } named;
typedef struct named_list { const fl_registry *reg; named items[32]; size_t n; int rc; char err[256]; } named_list;

static int add_named(void *arg, const char *spec, size_t index) {
    named_list *l = arg;
    (void)index;
    if (l->n == sizeof l->items / sizeof *l->items) return FL_OK;
    fl_filter_policy *pol;
    int rc = fl_registry_make_policy(l->reg, spec, &pol, l->err, sizeof l->err);
    if (rc != FL_OK) return rc;
    named *n = &l->items[l->n++];
    snprintf(n->name, sizeof n->name, "%s", fl_call_policy_name(NULL, pol));
    n->has_prefix = fl_spec_argument(spec, "prefix", n->prefix, sizeof n->prefix);
    n->bits = fl_proc_spec_bits(spec);
    fl_call_policy_destroy(NULL, pol);
    return FL_OK;
}

static const named *find_named(const named_list *l, fl_slice name) {
    for (size_t i = 0; i < l->n; i++)
        if (strlen(l->items[i].name) == name.len && memcmp(l->items[i].name, name.data, name.len) == 0)
            return &l->items[i];
    return NULL;
}

static bool sdb_prefix_len(void *arg, const fl_target *target, size_t *len) {
    return fl_call_prefix_len(NULL, arg, target, len);
}

/* P5 on bloom sub-filter sub of t (fl_sdb_bloom_check), its extractor
 * being the configured policy's of that name; a bloom with an extractor no
 * configured policy names is not judged.  fresh: t was written under cfg
 * (by the writer or the compactor): its bloom must be the rebuild at the
 * bits per key of a configured policy of its name, not at any. */
static int check_rebuild(const fl_sdb_sst *t, const fl_sdb_filter *sub, const named_list *cfg, const fl_registry *reg,
                         bool fresh, char *defect, size_t defect_len) {
    bool whole;
    fl_slice exname;
    if (!fl_sdb_bloom_name_parse(sub->name, &whole, &exname)) return FL_OK;
    fl_prefix_extractor *ex = NULL;
    if (exname.len) {
        const named *n = find_named(cfg, sub->name);
        char why[200];
        if (!n || !n->has_prefix || fl_registry_make_extractor(reg, n->prefix, &ex, why, sizeof why) != FL_OK)
            return FL_OK;
    }
    int rc = FL_OK;
    bool tried = false, fits = false;
    char why[256];
    for (size_t i = 0; fresh && rc == FL_OK && !fits && i < cfg->n; i++) {
        const named *n = &cfg->items[i];
        if (strlen(n->name) != sub->name.len || memcmp(n->name, sub->name.data, sub->name.len) != 0 || n->bits < 0)
            continue;
        tried = true;
        rc = fl_sdb_bloom_check(t, sub, ex ? sdb_prefix_len : NULL, ex, n->bits, why, sizeof why);
        if (rc == FL_OK && !why[0]) fits = true;                    /* a configured bits per key fits */
        else if (rc == FL_OK && !defect[0]) snprintf(defect, defect_len, "%s", why);
    }
    if (fits) defect[0] = 0;
    if (!tried && rc == FL_OK) rc = fl_sdb_bloom_check(t, sub, ex ? sdb_prefix_len : NULL, ex, -1, defect, defect_len);
    if (ex) fl_call_extractor_destroy(NULL, ex);
    return rc;
}

/* The filter of the SST file at path as a read of SlateDB opened with opt
 * would probe it (docs/slatedb.md, counting rules): its
 * sub-filters whose names a configured policy has (the writer's list; the
 * others SlateDB drops unread).  None: FL_SSTF_NONE (SlateDB reads no filter
 * and counts nothing).  One, the first configured policy's bloom: BLOOM,
 * with its exact expected rate from its bits (fl_sdb_bloom_expected_fp) --
 * P9 takes its items from that policy.  Anything else (several ANDed
 * sub-filters, another policy's, a bloom that hashes nothing): OTHER. */
static int read_filter(const char *path, const fl_registry *reg, const fl_options *opt, bool fresh,
                       fl_sst_filter **out, char *err, size_t err_len) {
    *out = NULL;
    sdb_filter *s = calloc(1, sizeof *s);
    if (!s) return FL_ERR_NOMEM;
    fl_buf_init(&s->file);
    int e = fl_env_read_file(fl_env_posix(), path, &s->file);     /* (an errno) */
    if (e) {
        snprintf(err, err_len, "cannot read it: %s", strerror(e));
        sdb_filter_free(&s->f);
        return FL_ERR_IO;
    }
    int rc;
    fl_sdb_sst *t = NULL;
    rc = fl_sdb_sst_open(s->file.data, s->file.len, &t, err, err_len);
    named_list writer = { .reg = reg }, all = { .reg = reg };
    const char *wp = opt->policies ? opt->policies : FL_DEFAULT_POLICIES;
    if (rc == FL_OK && (rc = fl_policy_list_split(wp, add_named, &writer, err, err_len)) == FL_OK)
        all = writer;
    if (rc == FL_OK && opt->compactor)
        rc = fl_policy_list_split(opt->compactor, add_named, &all, err, err_len);
    if (rc != FL_OK && (writer.err[0] || all.err[0]))
        snprintf(err, err_len, "its policies: %s", writer.err[0] ? writer.err : all.err);
    size_t nsub = t ? fl_sdb_sst_filter_count(t) : 0, usable = 0, which = 0;
    for (size_t i = 0; rc == FL_OK && i < nsub; i++) {
        const fl_sdb_filter *sub = fl_sdb_sst_filter(t, i);
        s->f.bytes += 10 + sub->name.len + sub->data.len;    /* name_len, name, data_len, data */
        if (find_named(&writer, sub->name)) { usable++; which = i; }
        if (!s->f.defect[0]) rc = check_rebuild(t, sub, &all, reg, fresh, s->f.defect, sizeof s->f.defect);
    }
    if (nsub) s->f.bytes += 2;                                 /* the count */
    s->f.kind = FL_SSTF_NONE;
    snprintf(s->f.what, sizeof s->f.what, "%s", nsub ? "no configured sub-filter" : "no filter block");
    if (rc == FL_OK && usable == 1) {
        const fl_sdb_filter *sub = fl_sdb_sst_filter(t, which);
        bool whole;
        fl_slice exname;
        s->f.kind = FL_SSTF_OTHER;
        snprintf(s->f.what, sizeof s->f.what, "\"%.*s\", not the first policy's", (int)sub->name.len,
                 (const char *)sub->name.data);
        if (find_named(&writer, sub->name) == &writer.items[0] && fl_sdb_bloom_name_parse(sub->name, &whole, &exname) &&
            (whole || exname.len) && fl_sdb_bloom_decode(sub->data, &s->bloom, err, err_len) == FL_OK) {
            s->f.kind = FL_SSTF_BLOOM;
            snprintf(s->f.what, sizeof s->f.what, "SlateDB bloom \"%.*s\"", (int)sub->name.len,
                     (const char *)sub->name.data);
            s->f.expected = fl_sdb_bloom_expected_fp(&s->bloom);
            if (s->f.expected < 0) rc = FL_ERR_NOMEM;
            s->f.probe_hash = sdb_probe;
            s->f.data = s->bloom.bits;
            s->f.k = s->bloom.k;
            s->f.answers = 1u << FL_TARGET_POINT | (exname.len ? 1u << FL_TARGET_PREFIX : 0);
        }
    } else if (rc == FL_OK && usable > 1) {
        s->f.kind = FL_SSTF_OTHER;
        snprintf(s->f.what, sizeof s->f.what, "%zu configured sub-filters, ANDed", usable);
    }
    s->t = t;                                  /* (freed with s) */
    if (rc == FL_OK && nsub && !(s->sub_hash = malloc(nsub * sizeof *s->sub_hash))) rc = FL_ERR_NOMEM;
    for (size_t i = 0; rc == FL_OK && i < nsub; i++) {
        const fl_sdb_filter *sub = fl_sdb_sst_filter(t, i);
        s->sub_hash[i] = fl_proc_fnv1a(sub->data.data, sub->data.len);
    }
    if (rc != FL_OK) {
        sdb_filter_free(&s->f);
        return rc;
    }
    *out = &s->f;
    return FL_OK;
}

static int note_row(void *arg, const fl_sdb_row *row) {
    return fl_proc_holds_row(arg, row->key);
}

/* Whether a read's probe of filter bytes (len, hash) was of a sub-filter
 * of f's SST, and whether that SST holds a key the read's target asks
 * about (a row of any kind). */
static bool sdb_probe_of(const fl_sst_filter *f, size_t len, uint64_t hash, const fl_read_target *target,
                         bool *holds) {
    const sdb_filter *s = (const sdb_filter *)f;
    bool of = false;
    for (size_t i = 0; s->t && i < fl_sdb_sst_filter_count(s->t) && !of; i++) {
        const fl_sdb_filter *sub = fl_sdb_sst_filter(s->t, i);
        of = sub->data.len == len && s->sub_hash[i] == hash;
    }
    if (!of) return false;
    fl_proc_holds h = { target, false };
    char err[256];
    fl_sdb_sst_rows(s->t, note_row, &h, err, sizeof err);
    *holds = h.found;
    return true;
}

const fl_engine_ops *fl_engine_slatedb(void) {
    static fl_proc_kind kind;
    static bool made;
    if (!made) {
        fl_proc_kind_init(&kind, "slatedb", command);
        kind.ops.open = slatedb_open;
        kind.ops.space = &fl_space_slatedb;
        fl_proc_kind_read_files(&kind, read_filter, sdb_filter_free);
        fl_proc_kind_match_probes(&kind, sdb_probe_of);
        made = true;
    }
    return &kind.ops;
}
