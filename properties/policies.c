/*
 * policies.c -- configured policy lists as the checker sees them.  Each spec
 * is made into a policy object through the registry, exactly as the engine
 * makes its own (the checker rebuilds filters with it for P11), and a
 * built-in bloom spec is also parsed by the model (for P5).  A bloom's
 * prefix= extractor is made too, for the extractor contract (P7).
 *
 * Lists are shared by reference: every SST keeps the list that wrote it.
 */
#include "check_internal.h"

#include <stdlib.h>
#include <string.h>

static bool is_bloom_spec(const char *spec) {
    return strncmp(spec, "bloom", 5) == 0 && (spec[5] == 0 || spec[5] == '(' || spec[5] == ' ' ||
                                              spec[5] == '\t');
}

static void policy_free(fl_calls *calls, ck_policy *p) {
    fl_call_policy_destroy(calls, p->policy);
    fl_call_extractor_destroy(calls, p->extractor);
    free(p->spec);
    free(p->name);
    free(p->extractor_spec);
}

static int make_policy(const fl_registry *reg, fl_calls *calls, ck_policy *p, char *err,
                       size_t err_len) {
    int rc = fl_registry_make_policy(reg, p->spec, &p->policy, err, err_len);
    if (rc) return rc;
    /* as the engine names it in what it writes (a NULL name included) */
    p->name = strdup(fl_call_policy_name(calls, p->policy));
    if (!p->name) return FL_ERR_NOMEM;
    if (!is_bloom_spec(p->spec)) return FL_OK;
    char merr[256], value[512];
    p->builtin = true;
    p->bloom = fl_model_bloom_parse(p->spec, &p->bloom_cfg, merr, sizeof merr) == FL_MODEL_OK;
    p->millibits = p->bloom ? p->bloom_cfg.millibits : 10000;
    /* a plugin extractor: the model cannot parse the whole spec, but Legacy
     * writes need only the bits */
    if (!p->bloom && fl_spec_argument(p->spec, "bits", value, sizeof value) &&
        fl_model_parse_millibits(value, &p->millibits) != FL_MODEL_OK)
        p->millibits = 10000;
    if (fl_spec_argument(p->spec, "prefix", value, sizeof value) &&
        !(p->extractor_spec = strdup(value)))
        return FL_ERR_NOMEM;
    if (p->extractor_spec &&
        fl_registry_make_extractor(reg, p->extractor_spec, &p->extractor, err, err_len) != FL_OK)
        p->extractor = NULL;      /* the engine made it; P7 just skips it */
    const char *ex = p->extractor_spec ? p->extractor_spec : "";
    p->extractor_seed = ck_fingerprint(ex, strlen(ex), 0);
    return FL_OK;
}

typedef struct list_build { const fl_registry *reg; ck_config *c; char *err; size_t err_len; } list_build;

static int add_spec(void *arg, const char *spec, size_t index) {
    list_build *lb = arg;
    ck_config *c = lb->c;
    (void)index;
    ck_policy *n = realloc(c->items, (c->count + 1) * sizeof *n);
    if (!n) return FL_ERR_NOMEM;
    c->items = n;
    ck_policy *pol = &c->items[c->count];
    memset(pol, 0, sizeof *pol);
    if (!(pol->spec = strdup(spec))) return FL_ERR_NOMEM;
    c->count++;
    return make_policy(lb->reg, c->calls, pol, lb->err, lb->err_len);
}

int ck_config_new(const fl_registry *reg, fl_calls *calls, const char *spec, ck_config **out,
                  char *err, size_t err_len) {
    ck_config *c = calloc(1, sizeof *c);
    if (!c) return FL_ERR_NOMEM;
    c->refs = 1;
    c->calls = calls;
    *out = c;
    list_build lb = { reg, c, err, err_len };
    int rc = fl_policy_list_split(spec ? spec : FL_DEFAULT_POLICIES, add_spec, &lb, err, err_len);
    if (rc) {
        ck_config_unref(c);
        *out = NULL;
    }
    return rc;
}

ck_config *ck_config_ref(ck_config *c) {
    if (c) c->refs++;
    return c;
}

void ck_config_unref(ck_config *c) {
    if (!c || --c->refs > 0) return;
    for (size_t i = 0; i < c->count; i++) policy_free(c->calls, &c->items[i]);
    free(c->items);
    free(c);
}

const ck_policy *ck_config_find(const ck_config *c, const char *name) {
    for (size_t i = 0; c && i < c->count; i++)
        if (strcmp(c->items[i].name, name) == 0) return &c->items[i];
    return NULL;
}

const ck_policy *ck_config_first_bloom(const ck_config *c) {
    for (size_t i = 0; c && i < c->count; i++)
        if (c->items[i].builtin) return &c->items[i];
    return NULL;
}

const ck_policy *ck_config_first_extractor(const ck_config *c) {
    for (size_t i = 0; c && i < c->count; i++)
        if (c->items[i].extractor) return &c->items[i];
    return NULL;
}

/* ---- Extractor lengths for the generator -------------------------------------------- */

typedef struct lengths { uint32_t *out; size_t *count, max; } lengths;

static int length_of(void *arg, const char *spec, size_t index) {
    lengths *l = arg;
    char value[512];
    fl_model_extractor ex;
    char err[128];
    (void)index;
    if (!fl_spec_argument(spec, "prefix", value, sizeof value) ||
        fl_model_extractor_parse(value, &ex, err, sizeof err) != FL_MODEL_OK ||
        (ex.kind != FL_MODEL_FIXED && ex.kind != FL_MODEL_CAPPED))
        return 0;
    for (size_t i = 0; i < *l->count; i++)
        if (l->out[i] == ex.n) return 0;
    if (*l->count < l->max) l->out[(*l->count)++] = ex.n;
    return 0;
}

void fl_prefix_lengths(const char *opts, uint32_t *out, size_t *count, size_t max) {
    char text[8192];
    fl_workload w;
    if (!opts || snprintf(text, sizeof text, "filterlab-workload 1\nopen %s\n", opts) >= (int)sizeof text ||
        fl_workload_parse(text, strlen(text), "options", &w, NULL, 0) != 0)
        return;
    lengths l = { out, count, max };
    for (size_t i = 0; w.count && i < w.ops[0].opt_count; i++)
        if (strcmp(w.ops[0].opts[i].key, "policies") == 0 || strcmp(w.ops[0].opts[i].key, "compactor") == 0)
            fl_policy_list_split(w.ops[0].opts[i].value, length_of, &l, NULL, 0);
    fl_workload_free(&w);
}
