/*
 * proc_host.c -- filterlab's plugin host inside an adapter program
 * (proc_host.h says what and why).  Each function is one
 * fl_call_* wrapper (or registry call) with its arguments put in
 * filterlab's types; the violations the wrappers report are queued as
 * protocol lines.
 */
#include "proc_host.h"

#include "../../engine/engine.h"
#include "proc_line.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct flh_host {
    fl_registry *reg;
    fl_calls *calls;
    char *queue;                      /* violation lines, from open_memstream */
    size_t queue_len;
    FILE *q;
};

/* The wrappers' sink: each violation as its protocol line, queued. */
static void queue_violation(void *arg, const fl_contract_violation *v) {
    flh_host *h = arg;
    if (!h->q && !(h->q = open_memstream(&h->queue, &h->queue_len))) return;
    fl_proc_print_violation(h->q, v);
}

int flh_host_new(flh_host **out) {
    *out = NULL;
    /* A plugin's SIGSEGV or SIGBUS must end the process, as it does
     * filterlab's (a P10 naming the request it died in).  Rust's runtime
     * handles both to report stack overflows, and returns from a signal a
     * plugin raised itself (raise(SIGSEGV)) as if nothing happened; Go's
     * would turn one in C code into exit status 2 and a goroutine dump
     * (and a nil dereference in Go code now kills the adapter by signal
     * too, instead of panicking: a bug either way). */
    signal(SIGSEGV, SIG_DFL);
    signal(SIGBUS, SIG_DFL);
    flh_host *h = calloc(1, sizeof *h);
    if (!h) return FL_ERR_NOMEM;
    int rc = fl_registry_new(&h->reg);
    if (rc == FL_OK) rc = fl_calls_new(h->reg, &h->calls);
    if (rc != FL_OK) {
        flh_host_free(h);
        return rc;
    }
    fl_calls_set_sink(h->calls, queue_violation, h);
    *out = h;
    return FL_OK;
}

void flh_host_free(flh_host *h) {
    if (!h) return;
    if (h->q) fclose(h->q);
    free(h->queue);
    fl_calls_free(h->calls);
    fl_registry_free(h->reg);
    free(h);
}

int flh_load_plugin(flh_host *h, const char *path, char *err, size_t err_len) {
    return fl_registry_load_plugin(h->reg, path, err, err_len);
}

int flh_is_plugin_policy(const flh_host *h, const char *spec) {
    return fl_registry_spec_plugin(h->reg, spec, true) != NULL;
}

int flh_is_plugin_extractor(const flh_host *h, const char *spec) {
    return fl_registry_spec_plugin(h->reg, spec, false) != NULL;
}

/* ---- Policies, builders, filters -------------------------------------------- */

int flh_policy_new(flh_host *h, const char *spec, flh_policy **out, char *err, size_t err_len) {
    fl_filter_policy *p = NULL;
    int rc = fl_registry_make_policy(h->reg, spec, &p, err, err_len);
    *out = (flh_policy *)p;
    return rc;
}

void flh_policy_free(flh_host *h, flh_policy *p) {
    if (p) fl_call_policy_destroy(h->calls, (fl_filter_policy *)p);
}

const char *flh_policy_name(flh_host *h, const flh_policy *p) {
    return fl_call_policy_name(h->calls, (const fl_filter_policy *)p);
}

size_t flh_policy_estimate_size(flh_host *h, const flh_policy *p, size_t num_keys) {
    const fl_filter_policy *pol = (const fl_filter_policy *)p;
    (void)h;
    /* (no wrapper: an estimate decides no answer, and the engine's own
     * SST builder never asks for one) */
    return pol->ops && pol->ops->estimate_size ? pol->ops->estimate_size(pol, num_keys) : 0;
}

int flh_builder_new(flh_host *h, const flh_policy *p, flh_builder **out) {
    fl_filter_builder *b = NULL;
    int rc = fl_call_new_builder(h->calls, (const fl_filter_policy *)p, &b);
    *out = (flh_builder *)b;
    return rc;
}

void flh_builder_add(flh_host *h, const flh_policy *p, flh_builder *b, const uint8_t *key, size_t key_len,
                     int tombstone, const uint8_t *value, size_t value_len) {
    if (!b) return;
    fl_row_entry e = { { key, key_len }, { tombstone ? NULL : value, tombstone ? 0 : value_len }, 0,
                       tombstone ? FL_ENTRY_DELETE : FL_ENTRY_PUT };
    fl_call_add_entry(h->calls, (const fl_filter_policy *)p, (fl_filter_builder *)b, &e);
}

int flh_builder_build(flh_host *h, const flh_policy *p, flh_builder *b, flh_filter **out) {
    *out = NULL;
    if (!b) return FL_ERR_INVALID;
    fl_filter *f = NULL;
    int rc = fl_call_build(h->calls, (const fl_filter_policy *)p, (fl_filter_builder *)b, &f);
    *out = (flh_filter *)f;
    return rc;
}

void flh_builder_free(flh_host *h, const flh_policy *p, flh_builder *b) {
    if (b) fl_call_builder_destroy(h->calls, (const fl_filter_policy *)p, (fl_filter_builder *)b);
}

int flh_filter_decode(flh_host *h, const flh_policy *p, const uint8_t *data, size_t len, flh_filter **out) {
    fl_filter *f = NULL;
    int rc = fl_call_decode(h->calls, (const fl_filter_policy *)p, (fl_slice){ data, len }, &f);
    *out = (flh_filter *)f;
    return rc;
}

int flh_filter_might_match(flh_host *h, const flh_policy *p, const flh_filter *f, int kind, const uint8_t *bytes,
                           size_t len, int has_ctx, const uint8_t *ctx, size_t ctx_len) {
    fl_filter_context c;
    memset(&c, 0, sizeof c);
    if (has_ctx) memcpy(c.bytes, ctx, ctx_len < sizeof c.bytes ? ctx_len : sizeof c.bytes);
    fl_filter_query q = { { kind == FL_TARGET_PREFIX ? FL_TARGET_PREFIX : FL_TARGET_POINT, { bytes, len } },
                          has_ctx ? &c : NULL };
    return fl_call_might_match(h->calls, (const fl_filter_policy *)p, (const fl_filter *)f, &q);
}

int flh_filter_encode(flh_host *h, const flh_policy *p, const flh_filter *f, uint8_t **out, size_t *len) {
    *out = NULL;
    *len = 0;
    if (!f) return FL_OK;
    fl_buf b;
    fl_buf_init(&b);
    int rc = fl_call_encode(h->calls, (const fl_filter_policy *)p, (const fl_filter *)f, &b);
    if (rc != FL_OK) {
        fl_buf_free(&b);
        return rc;
    }
    *out = b.data;
    *len = b.len;
    return FL_OK;
}

size_t flh_filter_size(flh_host *h, const flh_policy *p, const flh_filter *f) {
    return f ? fl_call_size(h->calls, (const fl_filter_policy *)p, (const fl_filter *)f) : 0;
}

void flh_filter_free(flh_host *h, const flh_policy *p, flh_filter *f) {
    if (f) fl_call_filter_destroy(h->calls, (const fl_filter_policy *)p, (fl_filter *)f);
}

/* ---- Extractors ----------------------------------------------------------------- */

int flh_extractor_new(flh_host *h, const char *spec, flh_extractor **out, char *err, size_t err_len) {
    fl_prefix_extractor *x = NULL;
    int rc = fl_registry_make_extractor(h->reg, spec, &x, err, err_len);
    *out = (flh_extractor *)x;
    return rc;
}

void flh_extractor_free(flh_host *h, flh_extractor *x) {
    if (x) fl_call_extractor_destroy(h->calls, (fl_prefix_extractor *)x);
}

const char *flh_extractor_name(flh_host *h, const flh_extractor *x) {
    return fl_call_extractor_name(h->calls, (const fl_prefix_extractor *)x);
}

int flh_extractor_prefix_len(flh_host *h, const flh_extractor *x, int kind, const uint8_t *bytes, size_t len,
                             size_t *n) {
    fl_target t = { kind == FL_TARGET_PREFIX ? FL_TARGET_PREFIX : FL_TARGET_POINT, { bytes, len } };
    return fl_call_prefix_len(h->calls, (const fl_prefix_extractor *)x, &t, n);
}

/* ---- Violations ----------------------------------------------------------------- */

char *flh_take_violations(flh_host *h) {
    if (!h->q) return NULL;
    fclose(h->q);
    h->q = NULL;
    char *lines = h->queue;
    h->queue = NULL;
    h->queue_len = 0;
    if (lines && !lines[0]) {
        free(lines);
        return NULL;
    }
    return lines;
}

void flh_free(void *p) { free(p); }
