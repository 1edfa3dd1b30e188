/*
 * proc_files.c -- the engine's SST files, read by filterlab itself for a
 * named adapter whose folder has a reader of its format (proc_internal.h,
 * fl_proc_kind): each SST's filter read once per open from the file the
 * adapter names (`sst_file`), a read's probe lines matched to the SSTs whose
 * filters they name (last_read_trace), and what a read had to probe as the
 * kind's rule works it out from the files (last_read_probes).
 */
#include "proc_conn.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static proc *of(fl_engine *e) { return (proc *)e; }

/* Frees the filters read so far (at a close; after set_options, whose
 * policies may give the files another meaning). */
void pc_free_filters(proc *p) {
    for (size_t i = 0; i < p->nfilters; i++) p->kind->free_sst_filter(p->filters[i].f);
    free(p->filters);
    p->filters = NULL;
    p->nfilters = p->filters_cap = 0;
}

/* The filter of SST id, read by the kind's reader from the file the
 * adapter names (`sst_file ID` -> `ok PATH`); read once per open. */
static int proc_sst_filter(fl_engine *e, uint64_t id, const fl_sst_filter **out) {
    proc *p = of(e);
    *out = NULL;
    for (size_t i = 0; i < p->nfilters; i++)
        if (p->filters[i].id == id) { *out = p->filters[i].f; return FL_OK; }
    int rc = pc_lacks(p, CAP_SST_FILE, "sst_file");
    if (rc != FL_OK) return rc;
    if (p->nfilters == p->filters_cap) {
        size_t cap = p->filters_cap ? p->filters_cap * 2 : 16;
        struct read_filter *n = realloc(p->filters, cap * sizeof *n);
        if (!n) return FL_ERR_NOMEM;
        p->filters = n;
        p->filters_cap = cap;
    }
    char request[48], *line;
    size_t len;
    snprintf(request, sizeof request, "sst_file %llu\n", (unsigned long long)id);
    bool sent;
    rc = pc_query_begin(p, request, false, &sent);
    request[strlen(request) - 1] = 0;
    if (rc == FL_OK && !sent && (rc = pc_put_str(p->c, request)) == FL_OK) rc = pc_put_str(p->c, "\n");
    if (rc == FL_OK) rc = pc_call(p, request, &line, &len);
    if (rc == FL_OK) {
        words w = { line, line + len };
        if (!pc_word_is(&w, "ok") || !pc_bytes_word(&w, &p->value) || w.p < w.end || !p->value.len ||
            memchr(p->value.data, 0, p->value.len))
            rc = pc_garbled(p, request, line, "`ok PATH`");
    }
    if ((rc = pc_query_end(p, rc)) != FL_OK) return rc;
    char *path = malloc(p->value.len + 1);
    if (!path) return FL_ERR_NOMEM;
    memcpy(path, p->value.data, p->value.len);
    path[p->value.len] = 0;
    fl_sst_filter *f = NULL;
    char why[1024] = "";
    /* written under p->opt: new since the open, the options unchanged */
    bool fresh = p->at_open_known && !p->options_changed;
    for (size_t i = 0; fresh && i < p->nat_open; i++)
        if (p->at_open[i] == id) fresh = false;
    rc = p->kind->read_sst_filter(path, p->reg, &p->opt, fresh, &f, why, sizeof why);
    if (rc != FL_OK) pc_set_err(p, "%s: %s", path, why[0] ? why : fl_strerror(rc));
    free(path);
    if (rc != FL_OK) return rc;
    p->filters[p->nfilters++] = (struct read_filter){ id, f };
    *out = f;
    return FL_OK;
}

/* The SST whose filter a probe (len, hash) was of, among the filters read
 * so far (*sst 0: none), preferring one that holds a key the target asks
 * about: identical filter bytes answer alike, so a no of those bytes is a
 * false negative of every SST that has them and holds such a key. */
static void probe_sst(proc *p, const struct probe *pr, const fl_read_target *target, fl_read_probe *out) {
    *out = (fl_read_probe){ 0, pr->maybe, false };
    for (size_t i = 0; i < p->nfilters && !out->holds; i++) {
        bool holds = false;
        if (p->kind->probe_of(p->filters[i].f, pr->len, pr->hash, target, &holds))
            *out = (fl_read_probe){ p->filters[i].id, pr->maybe, holds };
    }
}

/* The last read's probes, each matched to an SST by its filter bytes (the
 * kind's probe_of); a probe of bytes no filter read so far has makes the
 * filter of every SST last listed read, and is then matched again. */
static int proc_last_read_trace(fl_engine *e, const fl_read_target *target, const fl_read_probe **out, size_t *n,
                                const char **why) {
    proc *p = of(e);
    *out = NULL;
    *n = 0;
    *why = p->trace_why;
    p->trace_why[0] = 0;
    if (!p->probes_valid || !p->kind->probe_of) return FL_ERR_NOTFOUND;
    if (p->nprobes > p->trace_cap) {
        fl_read_probe *t = realloc(p->trace, p->nprobes * sizeof *t);
        if (!t) return FL_ERR_NOMEM;
        p->trace = t;
        p->trace_cap = p->nprobes;
    }
    bool listed = false;
    for (size_t i = 0; i < p->nprobes; i++) {
        probe_sst(p, &p->probes[i], target, &p->trace[i]);
        if (!p->trace[i].sst && !listed) {
            /* the filters of the SSTs last listed -- the checker's view of
             * the tree, which the read saw -- are read, and matched again */
            listed = true;
            const fl_sst_filter *f;
            for (size_t j = 0; j < p->nlisted; j++)
                if (proc_sst_filter(e, p->listed[j], &f) != FL_OK) return FL_ERR_NOTFOUND;
            probe_sst(p, &p->probes[i], target, &p->trace[i]);
        }
        if (!p->trace[i].sst && !p->trace_why[0])
            snprintf(p->trace_why, sizeof p->trace_why, "%s said it gave a filter %zu bytes whose FNV-1a 64 is "
                     "%016llx, and no sub-filter of its %zu SSTs read has those", p->kind->ops.name,
                     p->probes[i].len, (unsigned long long)p->probes[i].hash, p->nfilters);
    }
    *out = p->trace;
    *n = p->nprobes;
    return FL_OK;
}

/* The SST filter probes the last read had to make (the kind's read_probes),
 * over the SSTs last listed -- the checker's view of the tree, which the
 * get saw -- in the adapter's order, each one's filter and entries read
 * from its file. */
static int proc_last_read_probes(fl_engine *e, fl_mem_state mem, uint64_t *positive, uint64_t *negative,
                                const uint64_t **ssts, size_t *n) {
    proc *p = of(e);
    *positive = *negative = 0;
    *ssts = NULL;
    *n = 0;
    if (!p->read_kind || !p->kind->read_probes) return FL_ERR_NOTFOUND;
    fl_proc_read r = { (fl_op_kind)p->read_kind, { p->read_key.data, p->read_key.len }, p->read_prefix_mode };
    size_t cap = p->nlisted ? p->nlisted : 1;
    const fl_sst_filter **f = malloc(cap * sizeof *f);
    size_t *asked = malloc(cap * sizeof *asked);
    uint64_t *ids = realloc(p->got_ssts, cap * sizeof *ids);
    if (ids) p->got_ssts = ids;
    int rc = f && asked && ids ? FL_OK : FL_ERR_NOMEM;
    for (size_t i = 0; i < p->nlisted && rc == FL_OK; i++)
        if (proc_sst_filter(e, p->listed[i], &f[i]) != FL_OK) rc = FL_ERR_NOTFOUND;
    size_t nasked = 0;
    if (rc == FL_OK)
        rc = p->kind->read_probes(f, p->listed_level, p->nlisted, &r, mem, positive, negative, asked, &nasked);
    if (rc == FL_OK) {
        for (size_t i = 0; i < nasked; i++) ids[i] = p->listed[asked[i]];
        *ssts = ids;
        *n = nasked;
    }
    free(f);
    free(asked);
    return rc;
}

void fl_proc_kind_read_files(fl_proc_kind *kind,
                             int (*read)(const char *, const fl_registry *, const fl_options *, bool,
                                         fl_sst_filter **, char *, size_t),
                             void (*free_filter)(fl_sst_filter *)) {
    kind->read_sst_filter = read;
    kind->free_sst_filter = free_filter;
    kind->ops.sst_filter = proc_sst_filter;
}

void fl_proc_kind_match_probes(fl_proc_kind *kind,
                               bool (*probe_of)(const fl_sst_filter *, size_t, uint64_t, const fl_read_target *,
                                                bool *)) {
    kind->probe_of = probe_of;
    kind->ops.last_read_trace = proc_last_read_trace;
}

void fl_proc_kind_expect_reads(fl_proc_kind *kind,
                               int (*read_probes)(const fl_sst_filter *const *, const int *, size_t,
                                                  const fl_proc_read *, fl_mem_state, uint64_t *, uint64_t *,
                                                  size_t *, size_t *)) {
    kind->read_probes = read_probes;
    kind->ops.last_read_probes = proc_last_read_probes;
}

