/*
 * pebble_engine.c -- `--engine pebble`: Pebble v2.1.7 through its adapter
 * program (the Go module beside this file, filterlab-pebble), which speaks
 * the engine protocol (docs/protocol.md; adapters/proc/).
 * This file finds the program and names the engine's configuration space;
 * the mapping of options and ops onto Pebble's API is the program's
 * (docs/pebble.md).
 *
 * The program is looked for, in order: $FILTERLAB_PEBBLE; beside the
 * filterlab binary in a build tree (build/go/, which `make` builds when Go
 * is there); in an install's libexec/filterlab/.
 *
 * The tables' filters are read here, from the files the program names
 * (`sst_file`), by filterlab's own reader (pebble_sst.c), never by Pebble:
 * read_filter says what a read of Pebble would probe (P9 on its bits) and
 * checks the file's format (P6) and its bloom against a rebuild over the
 * table's own keys (P5); a user's policy's filter (--plugin, run inside
 * Pebble by the program) is one neither judges; pbl_probe_of matches a
 * read's probe lines to the table whose filter they name (P1), whichever
 * policy wrote it.
 */
#include "../adapters.h"
#include "../proc/proc_internal.h"
#include "pebble_internal.h"
#include "pebble_sst.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#define PROGRAM "filterlab-pebble"

static char command[PATH_MAX + 16];

static int pebble_open(const fl_engine_ops *self, const char *dir, const fl_registry *reg, const fl_options *opt,
                       fl_engine **out, char *err, size_t err_len) {
    static const char *const beside[] = { "/go/" PROGRAM, "/../go/" PROGRAM, "/../libexec/filterlab/" PROGRAM };
    *out = NULL;
    if (!command[0] &&
        !fl_proc_find_program("FILTERLAB_PEBBLE", beside, sizeof beside / sizeof *beside, command, sizeof command)) {
        const char *env = getenv("FILTERLAB_PEBBLE");
        if (env && *env)
            snprintf(err, err_len, "FILTERLAB_PEBBLE=%s: no such executable", env);
        else
            snprintf(err, err_len, "filterlab was built without the Pebble adapter (%s): install Go 1.23 or "
                                   "newer (apt-get install golang-go, or https://go.dev/dl) and run make", PROGRAM);
        return FL_ERR_NOTFOUND;
    }
    return fl_proc_open(self, dir, reg, opt, out, err, err_len);
}

/* ---- The filters of Pebble's tables ---------------------------------------------- */

/* A table's filter as read_filter reads its file for a Pebble opened with
 * the checker's options; with what a get needs of it (pbl_get_probes). */
typedef struct pbl_filter {
    fl_sst_filter f;                  /* first: what the checker is handed       */
    fl_buf file;                      /* the table's bytes                       */
    fl_pbl_sst *t;                    /* the table, parsed                       */
    uint64_t hash;                    /* its filter's fl_proc_fnv1a              */
    bool used, bloom;                 /* a read asks its filter (named as the
                                         configured policy), Pebble's bloom     */
    fl_prefix_extractor *split;       /* the configured bloom's extractor (NULL:
                                         Split is the whole key)                */
    fl_pbl_index *index;              /* built on the first get                  */
} pbl_filter;

static void pbl_filter_free(fl_sst_filter *f) {
    pbl_filter *p = (pbl_filter *)f;
    if (!p) return;
    if (p->split) fl_call_extractor_destroy(NULL, p->split);
    fl_pbl_index_free(p->index);
    fl_pbl_sst_free(p->t);
    fl_buf_free(&p->file);
    free(p);
}

static bool pbl_probe(const fl_sst_filter *f, uint64_t h) {
    const pbl_filter *p = (const pbl_filter *)f;
    return fl_pbl_bloom_may_contain_hash(fl_pbl_sst_info(p->t)->filter, (uint32_t)h);
}

/* The Split the adapter gives Pebble for an extractor (its POINT prefix
 * length, the whole key when it has none), or the whole key without one. */
static size_t split_of(void *arg, fl_slice key) {
    size_t n;
    fl_target t = { FL_TARGET_POINT, key };
    return arg && fl_call_prefix_len(NULL, arg, &t, &n) ? n : key.len;
}

/* Pebble's name of its bloom (bloom.FilterPolicy): a table's filter block
 * is "fullfilter." and the name of the policy that wrote it. */
#define BLOOM_NAME "rocksdb.BuiltinBloomFilter"

static bool named(fl_slice name, const char *want) {
    return name.len == strlen(want) && memcmp(name.data, want, name.len) == 0;
}

static void ignore_violation(void *arg, const fl_contract_violation *v) {
    (void)arg;
    (void)v;
}

/* The configured policy (opt's policies: one bloom, one plugin policy, or
 * none): its name into name (empty for none: Pebble reads a table's filter
 * only when its name is configured, Options.Filters), and a bloom's
 * extractor into *ex (NULL for none) and bits per key into *bits (its
 * bits=, 10 without one, as the adapter maps it onto
 * bloom.FilterPolicy(bits); -1 for no bloom or bits= not a whole number).  A plugin policy's name is asked in a
 * call context of its own, whose violations go nowhere: the program's host
 * reports what the plugin breaks inside Pebble. */
static int configured(const fl_registry *reg, const fl_options *opt, fl_prefix_extractor **ex, int *bits,
                      char *name, size_t name_len, char *err, size_t err_len) {
    const char *list = opt->policies ? opt->policies : FL_DEFAULT_POLICIES;
    size_t count;
    char *first = NULL, prefix[256];
    *ex = NULL;
    *bits = -1;
    name[0] = 0;
    int rc = fl_policy_list_first(list, &count, &first, err, err_len);
    if (rc == FL_OK && first && fl_registry_spec_plugin(reg, first, true)) {
        fl_filter_policy *p = NULL;
        fl_calls *calls = NULL;
        rc = fl_calls_new(reg, &calls);
        if (rc == FL_OK) {
            fl_calls_set_sink(calls, ignore_violation, NULL);
            rc = fl_registry_make_policy(reg, first, &p, err, err_len);
        }
        if (rc == FL_OK) snprintf(name, name_len, "%s", fl_call_policy_name(calls, p));
        if (p) fl_call_policy_destroy(calls, p);
        fl_calls_free(calls);
    } else if (rc == FL_OK && first) {
        snprintf(name, name_len, "%s", BLOOM_NAME);
        *bits = fl_proc_spec_bits(first);
        if (fl_spec_argument(first, "prefix", prefix, sizeof prefix))
            rc = fl_registry_make_extractor(reg, prefix, ex, err, err_len);
    }
    free(first);
    return rc;
}

/* The table file at path as a read of Pebble opened with opt would probe
 * it (docs/pebble.md): with no policy configured, or another
 * than the one that wrote the table's filter, FL_SSTF_NONE; else, for a
 * bloom, its bloom, with its exact expected rate from its bits
 * (fl_pbl_bloom_expected_fp), for gets and prefix reads alike (the filter
 * holds key[:Split(key)], which both probe).  A table whose filter has no
 * lines (no point key, or a damaged trailer) answers no to every probe:
 * OTHER.  A plugin policy's filter (named as the plugin names its policy)
 * is OTHER: neither P9 nor P5 knows it; it is not rebuilt as a bloom. */
static int read_filter(const char *path, const fl_registry *reg, const fl_options *opt, bool fresh,
                       fl_sst_filter **out, char *err, size_t err_len) {
    *out = NULL;
    pbl_filter *p = calloc(1, sizeof *p);
    if (!p) return FL_ERR_NOMEM;
    fl_buf_init(&p->file);
    int e = fl_env_read_file(fl_env_posix(), path, &p->file);     /* (an errno) */
    if (e) {
        snprintf(err, err_len, "cannot read it: %s", strerror(e));
        pbl_filter_free(&p->f);
        return FL_ERR_IO;
    }
    int rc = fl_pbl_sst_open(p->file.data, p->file.len, &p->t, err, err_len);
    fl_prefix_extractor *ex = NULL;
    char name[256];
    int bits = -1;
    if (rc == FL_OK) rc = configured(reg, opt, &ex, &bits, name, sizeof name, err, err_len);
    const fl_pbl_info *info = rc == FL_OK ? fl_pbl_sst_info(p->t) : NULL;
    bool bloom = info && info->has_filter && named(info->filter_name, BLOOM_NAME);
    bool filtered = info && info->has_filter && name[0] && named(info->filter_name, name);
    /* P5: the bloom against Pebble's own, rebuilt over the table's keys
     * split as the configured extractor splits them -- at the configured
     * bits per key when the table was written under opt (fresh), else at
     * whichever gives its size (the table does not record it) */
    if (rc == FL_OK && bloom)
        rc = fl_pbl_bloom_check(p->t, split_of, ex, fresh && filtered ? bits : -1, p->f.defect, sizeof p->f.defect);
    p->split = ex;                    /* (a get's Split: pbl_get_probes) */
    if (rc != FL_OK) {
        pbl_filter_free(&p->f);
        return rc;
    }
    p->f.bytes = info->has_filter ? info->filter.len + 5 : 0;         /* (with its block trailer) */
    p->hash = info->has_filter ? fl_proc_fnv1a(info->filter.data, info->filter.len) : 0;
    p->f.kind = FL_SSTF_NONE;
    snprintf(p->f.what, sizeof p->f.what, "%s", !info->has_filter ? "no filter block"
                                                : name[0] ? "its policy is not the configured one" : "no policy configured");
    p->used = filtered;
    p->bloom = bloom;
    fl_pbl_bloom b;
    if (filtered && !bloom) {
        p->f.kind = FL_SSTF_OTHER;
        snprintf(p->f.what, sizeof p->f.what, "a plugin policy's filter");
    } else if (filtered) {
        p->f.kind = FL_SSTF_OTHER;
        snprintf(p->f.what, sizeof p->f.what, "a filter of no lines (answers no)");
        if (fl_pbl_bloom_decode(info->filter, &b)) {
            p->f.expected = fl_pbl_bloom_expected_fp(info->filter);
            snprintf(p->f.what, sizeof p->f.what, "Pebble bloom, %u lines of %u bits", b.lines, b.line_bits);
            if (p->f.expected >= 0) {
                p->f.kind = FL_SSTF_BLOOM;
                p->f.probe_hash = pbl_probe;
                p->f.data = b.bits;
                p->f.lines = b.lines;
                p->f.k = b.k;
            }
        }
    }
    *out = &p->f;
    return FL_OK;
}

static int note_row(void *arg, const fl_pbl_row *row) {
    return fl_proc_holds_row(arg, row->key);
}

/* Whether a read's probe of filter bytes (len, hash) was of f's table, and
 * whether that table holds a key the read's target asks about, as a point
 * entry of any kind (range deletions are not in filters). */
static bool pbl_probe_of(const fl_sst_filter *f, size_t len, uint64_t hash, const fl_read_target *target,
                         bool *holds) {
    const pbl_filter *p = (const pbl_filter *)f;
    const fl_pbl_info *info = fl_pbl_sst_info(p->t);
    if (!info->has_filter || info->filter.len != len || p->hash != hash) return false;
    fl_proc_holds h = { target, false };
    char err[256];
    fl_pbl_sst_rows(p->t, note_row, &h, err, sizeof err);
    *holds = h.found;
    return true;
}

/* The bounds' successor of p (the adapter's successor): the smallest key
 * past every key starting with p, into out; false when there is none (p
 * is all 0xff bytes: no upper bound). */
static bool successor(fl_slice p, fl_buf *out) {
    size_t n = p.len;
    while (n && p.data[n - 1] == 0xff) n--;
    if (!n) return false;
    fl_buf_reset(out);
    if (fl_buf_append(out, p.data, n) != FL_OK) return false;
    out->data[n - 1]++;
    return true;
}

/* What read r had to probe (fl_proc_kind.read_probes), over the tables in
 * the listing's order (Pebble's read order), with the Split of the
 * configured extractor (the adapter's mapping of each read: docs/pebble.md,
 * "Requests"):
 *   - a get: nothing when the memtable holds a put of the key or a range
 *     deletion over it, else what fl_pbl_get_probes works out;
 *   - a scan_prefix of p that the extractor gives a PREFIX: a prefix
 *     iteration bounded to [p, successor of p) from SeekPrefixGE(p)
 *     (fl_pbl_prefix_probes); a seek in prefix mode (the key has a POINT
 *     prefix, not empty): one from SeekPrefixGE(key), unbounded -- when the
 *     memtable holds no range deletion (else not worked out);
 *   - any other read: none (total order, or SeekLT for seek_for_prev). */
static int pbl_read_probes(const fl_sst_filter *const *f, const int *level, size_t n, const fl_proc_read *r,
                           fl_mem_state mem, uint64_t *positive, uint64_t *negative, size_t *asked, size_t *nasked) {
    *positive = *negative = 0;
    *nasked = 0;
    if (!n) return FL_OK;
    fl_prefix_extractor *ex = ((const pbl_filter *)f[0])->split;
    size_t plen = 0;
    fl_slice key = r->key, lo = key, hi = { NULL, 0 };
    bool has_hi = false;
    fl_buf succ;
    fl_buf_init(&succ);
    switch (r->kind) {
    case FL_OP_GET:
        if (mem == FL_MEM_PUT || mem == FL_MEM_RANGE_DELETED) return FL_OK;
        break;
    case FL_OP_SCAN_PREFIX: {
        fl_target t = { FL_TARGET_PREFIX, key };
        if (!ex || !fl_call_prefix_len(NULL, ex, &t, &plen)) return FL_OK;           /* total order */
        if ((has_hi = successor(key, &succ))) hi = (fl_slice){ succ.data, succ.len };
        break;
    }
    case FL_OP_SEEK: {
        fl_target t = { FL_TARGET_POINT, key };
        if (r->prefix_mode == 0 || !ex || !fl_call_prefix_len(NULL, ex, &t, &plen)) return FL_OK;
        if (plen == 0) return FL_ERR_NOTFOUND;          /* (pebble-seek-prefix-empty: SeekGE instead) */
        break;
    }
    default:
        return FL_OK;                                    /* seek_for_prev: SeekLT, total order */
    }
    if (r->kind != FL_OP_GET && mem == FL_MEM_RANGE_DELETED) {
        fl_buf_free(&succ);
        return FL_ERR_NOTFOUND;
    }
    fl_pbl_get_table *v = malloc(n * sizeof *v);
    if (!v) { fl_buf_free(&succ); return FL_ERR_NOMEM; }
    int rc = FL_OK;
    for (size_t i = 0; i < n && rc == FL_OK; i++) {
        pbl_filter *p = (pbl_filter *)(uintptr_t)f[i];     /* (its index is built once, here) */
        char err[256];
        if (!p->index && fl_pbl_index_build(p->t, &p->index, err, sizeof err) != FL_OK) rc = FL_ERR_NOTFOUND;
        v[i] = (fl_pbl_get_table){ p->t, p->index, level[i], p->used, p->bloom };
    }
    fl_slice prefix = { key.data, split_of(ex, key) };
    if (prefix.len > key.len) prefix.len = key.len;
    if (rc == FL_OK && r->kind == FL_OP_GET)
        rc = fl_pbl_get_probes(v, n, key, prefix.len, mem == FL_MEM_DELETE, positive, negative, asked, nasked);
    else if (rc == FL_OK)
        rc = fl_pbl_prefix_probes(v, n, lo, hi, has_hi, prefix, split_of, ex, positive, negative, asked, nasked);
    free(v);
    fl_buf_free(&succ);
    return rc;
}

const fl_engine_ops *fl_engine_pebble(void) {
    static fl_proc_kind kind;
    static bool made;
    if (!made) {
        fl_proc_kind_init(&kind, "pebble", command);
        kind.ops.open = pebble_open;
        kind.ops.space = &fl_space_pebble;
        fl_proc_kind_read_files(&kind, read_filter, pbl_filter_free);
        fl_proc_kind_match_probes(&kind, pbl_probe_of);
        fl_proc_kind_expect_reads(&kind, pbl_read_probes);
        made = true;
    }
    return &kind.ops;
}
