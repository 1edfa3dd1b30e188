/*
 * tenant_extractor.c -- a complete custom PREFIX EXTRACTOR for filterlab,
 * written as a worked example.
 *
 * What it does.  Kind "tenant", spec "tenant:N" (N = 1 to 255), name
 * "tenantN".  The extracted prefix of a key is everything up to and
 * including its N-th ':'.  With tenant:2 and keys shaped like
 * "TENANT:TABLE:ROW":
 *
 *     acme:users:42      ->  "acme:users:"
 *     acme:users:        ->  "acme:users:"
 *     acme:users         ->  none (only one ':')
 *     acme               ->  none
 *
 * so a bloom built with it, bloom(bits=10,prefix=tenant:2), hashes one
 * prefix per (tenant, table), and scan_prefix acme:users: can skip every
 * SST that holds no row of that table.  The extractor is only ever used
 * inside a bloom's prefix= argument; it is not a policy on its own.
 *
 * The contract (filter.h, SPEC 4), which is all an extractor has to get
 * right:
 *
 *   POINT(k): the prefix hashed for a stored key k, and probed for a get of
 *     k.  It may depend on k only.
 *   PREFIX(p): the prefix probed for scan_prefix p.  It may answer n only if
 *     EVERY key that starts with p has POINT = n; otherwise it must answer
 *     none (the bloom then says "maybe").  Answer n for a p that some
 *     extension extracts differently, and the bloom is probed with a prefix
 *     that key was never hashed under: the SST is skipped although it holds
 *     the key -- a false negative.
 *   Always n <= len.
 *
 * Here: if p already contains N ':', every extension q of p has the same
 * first N ':' at the same places (q only adds bytes AFTER p), so
 * POINT(q) = PREFIX(p).  If p contains fewer than N ':', an extension may
 * put the N-th ':' anywhere later, or nowhere: PREFIX(p) must be none.
 * That makes POINT and PREFIX the same function, which is the easy case
 * (compare lastdelim:C, whose PREFIX must always be none).
 *
 * The name.  "tenantN" is stored inside the bloom's name (_bf:p=tenant2),
 * and a reader only decodes filters whose name is exactly equal.  N changes
 * what is extracted, so N is in the name: after a change from tenant:2 to
 * tenant:1, old filters are not probed with the new prefixes.  Anything
 * else you add that changes what is extracted must go into the name too.
 *
 * Build and run (from the filterlab source tree):
 *
 *     cc -shared -fPIC -I engine examples/plugins/tenant_extractor.c -o tenant.so
 *     build/filterlab replay my.wl --plugin ./tenant.so
 *
 * with a workload using policies="bloom(bits=10,prefix=tenant:2)".
 */
#include "filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TENANT_KIND    "tenant"
#define TENANT_DELIM   ':'
#define TENANT_MAX_N   255

/* The engine holds a pointer to fl_prefix_extractor; because our struct
 * starts with it, that pointer is also a pointer to ours. */
typedef struct tenant_extractor {
    fl_prefix_extractor base;       /* Base class. Must be first */
    unsigned n;                     /* extract through the n-th ':'  */
    char name[16];                  /* "tenantN", lives as long as we do */
} tenant_extractor;

static const char *tenant_name(const fl_prefix_extractor *self) {
    return ((const tenant_extractor *)self)->name;
}

/* The position just after the n-th ':' of bytes, or false when there are
 * fewer than n.  The bytes are not NUL-terminated and may contain NULs:
 * walk exactly len bytes. */
static bool after_nth_delim(const fl_slice *bytes, unsigned n, size_t *len) {
    unsigned seen = 0;
    for (size_t i = 0; i < bytes->len; i++) {
        if (bytes->data[i] == TENANT_DELIM && ++seen == n) {
            *len = i + 1;           /* always <= bytes->len */
            return true;
        }
    }
    return false;
}

static bool tenant_prefix_len(const fl_prefix_extractor *self, const fl_target *target,
                              size_t *len) {
    const tenant_extractor *ex = (const tenant_extractor *)self;
    switch (target->kind) {
    case FL_TARGET_POINT:           /* a stored key, or the key of a get   */
    case FL_TARGET_PREFIX:          /* safe for every extension: see above */
        return after_nth_delim(&target->bytes, ex->n, len);
    }
    return false;                   /* a kind we do not know: no prefix    */
}

static void tenant_destroy(fl_prefix_extractor *self) {
    free(self);
}

static const fl_prefix_extractor_ops tenant_ops = {
    tenant_name, tenant_prefix_len, tenant_destroy,
};

/* The factory receives what follows "tenant:" in the spec ("2" for
 * "tenant:2", "" for a bare "tenant").  It accepts decimal digits only,
 * 1 to 255; leading zeros are fine ("tenant:02" is tenant2, the same
 * extractor, so the same name).  Bad arguments are FL_ERR_INVALID with a
 * message saying what was expected. */
static int tenant_factory(const fl_registry *reg, const char *args, fl_prefix_extractor **out,
                          char *err, size_t err_len) {
    (void)reg;
    *out = NULL;
    unsigned long n = 0;
    bool ok = args && *args;
    for (const char *s = args; ok && *s; s++) {
        if (*s < '0' || *s > '9') ok = false;
        else if ((n = n * 10 + (unsigned long)(*s - '0')) > TENANT_MAX_N) ok = false;
    }
    if (!ok || n == 0) {
        if (err && err_len)
            snprintf(err, err_len, TENANT_KIND " needs a count: " TENANT_KIND ":N with N a "
                     "decimal from 1 to %d (the prefix ends at the N-th ':'); got '%s'",
                     TENANT_MAX_N, args ? args : "");
        return FL_ERR_INVALID;
    }
    tenant_extractor *ex = calloc(1, sizeof *ex);
    if (!ex) return FL_ERR_NOMEM;
    ex->base.abi_version = FL_FILTER_ABI_VERSION;   /* refused if left unset */
    ex->base.ops = &tenant_ops;
    ex->n = (unsigned)n;
    snprintf(ex->name, sizeof ex->name, TENANT_KIND "%u", ex->n);
    *out = &ex->base;
    return FL_OK;
}

/* Called once by `--plugin tenant.so`.  Extractor kinds share one
 * namespace with policy kinds and the built-ins (fixed, capped, delim,
 * lastdelim, bloom); registering a taken kind fails. */
int fl_plugin_init(fl_registry *reg) {
    return fl_registry_add_extractor(reg, TENANT_KIND, tenant_factory);
}
