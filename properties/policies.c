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

static bool blank(char c) { return c == ' ' || c == '\t'; }

static char *trimmed(const char *s, size_t len) {
    while (len && blank(*s)) { s++; len--; }
    while (len && blank(s[len - 1])) len--;
    char *out = malloc(len + 1);
    if (out) { memcpy(out, s, len); out[len] = 0; }
    return out;
}

/* The value of KEY= in a bloom spec's arguments, or NULL. */
static char *arg_value(const char *spec, const char *want) {
    const char *open = strchr(spec, '(');
    if (!open) return NULL;
    const char *close = strrchr(spec, ')');
    if (!close || close < open) return NULL;
    const char *p = open + 1;
    while (p < close) {
        const char *comma = memchr(p, ',', (size_t)(close - p));
        const char *end = comma ? comma : close;
        char *arg = trimmed(p, (size_t)(end - p));
        if (!arg) return NULL;
        char *eq = strchr(arg, '=');
        if (eq) {
            *eq = 0;
            char *key = trimmed(arg, strlen(arg));
            bool is_prefix = key && strcmp(key, want) == 0;
            free(key);
            if (is_prefix) {
                char *v = trimmed(eq + 1, strlen(eq + 1));
                free(arg);
                return v;
            }
        }
        free(arg);
        p = end + 1;
    }
    return NULL;
}

static bool is_bloom_spec(const char *spec) {
    return strncmp(spec, "bloom", 5) == 0 && (spec[5] == 0 || spec[5] == '(' || blank(spec[5]));
}

static void policy_free(ck_policy *p) {
    if (p->policy) p->policy->ops->destroy(p->policy);
    if (p->extractor) p->extractor->ops->destroy(p->extractor);
    free(p->spec);
    free(p->name);
    free(p->extractor_spec);
}

static int make_policy(const fl_registry *reg, ck_policy *p, char *err, size_t err_len) {
    int rc = fl_registry_make_policy(reg, p->spec, &p->policy, err, err_len);
    if (rc) return rc;
    const char *name = p->policy->ops->name(p->policy);
    /* the engine names a NULL-named policy this way in what it writes */
    p->name = strdup(name ? name : "<policy with NULL name>");
    if (!p->name) return FL_ERR_NOMEM;
    if (!is_bloom_spec(p->spec)) return FL_OK;
    char merr[256];
    p->builtin = true;
    p->bloom = fl_model_bloom_parse(p->spec, &p->bloom_cfg, merr, sizeof merr) == FL_MODEL_OK;
    p->millibits = p->bloom ? p->bloom_cfg.millibits : 10000;
    if (!p->bloom) {
        /* a plugin extractor: the model cannot parse the whole spec, but
         * Legacy writes need only the bits */
        char *bits = arg_value(p->spec, "bits");
        if (bits && fl_model_parse_millibits(bits, &p->millibits) != FL_MODEL_OK) p->millibits = 10000;
        free(bits);
    }
    p->extractor_spec = arg_value(p->spec, "prefix");
    if (p->extractor_spec &&
        fl_registry_make_extractor(reg, p->extractor_spec, &p->extractor, err, err_len) != FL_OK)
        p->extractor = NULL;      /* the engine made it; P7 just skips it */
    return FL_OK;
}

int ck_config_new(const fl_registry *reg, const char *spec, ck_config **out,
                  char *err, size_t err_len) {
    ck_config *c = calloc(1, sizeof *c);
    if (!c) return FL_ERR_NOMEM;
    c->refs = 1;
    *out = c;
    if (!spec) spec = "bloom(bits=10)";
    char *whole = trimmed(spec, strlen(spec));
    if (!whole) return FL_ERR_NOMEM;
    int rc = FL_OK;
    if (strcmp(whole, "none") != 0) {
        const char *p = whole;
        while (rc == FL_OK) {
            int depth = 0;
            const char *q = p;
            while (*q && !(*q == ';' && depth == 0)) {
                if (*q == '(') depth++;
                if (*q == ')') depth--;
                q++;
            }
            ck_policy *n = realloc(c->items, (c->count + 1) * sizeof *n);
            if (!n) { rc = FL_ERR_NOMEM; break; }
            c->items = n;
            ck_policy *pol = &c->items[c->count];
            memset(pol, 0, sizeof *pol);
            pol->spec = trimmed(p, (size_t)(q - p));
            if (!pol->spec) { rc = FL_ERR_NOMEM; break; }
            c->count++;
            rc = make_policy(reg, pol, err, err_len);
            if (!*q) break;
            p = q + 1;
        }
    }
    free(whole);
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
    for (size_t i = 0; i < c->count; i++) policy_free(&c->items[i]);
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
