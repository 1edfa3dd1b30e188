/*
 * fuzz_spec.c -- the policy-list, policy and extractor spec parsers
 * (SPEC 10), differentially: the engine's (registry.c, bloom.c,
 * extractors.c) against the model's (model_spec.c, model_extractor.c),
 * which were written separately to accept exactly the same language.
 *
 * The input, cut at its first NUL, is parsed three ways:
 *   - as an extractor spec: engine and model accept alike, with equal names;
 *   - as one policy spec: the same, with equal names and millibits;
 *   - as a policy list: accepted iff it is "none" or every ';'-separated
 *     piece is a bloom spec the model accepts and no two names are equal.
 * A rejection must come with a message.  Aborts on any disagreement.
 * Only public headers: the millibits of a policy are engine.h's
 * fl_bloom_policy_millibits.
 */
#include "../engine/engine.h"
#include "../model/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static fl_registry *reg;

static void disagree(const char *what, const char *spec, const char *engine, const char *model) {
    fprintf(stderr, "engine and model disagree on %s \"%s\":\n  engine: %s\n  model:  %s\n",
            what, spec, engine, model);
    abort();
}

static void check_extractor(const char *s) {
    char err[1024] = "", merr[512] = "", name[FL_MODEL_NAME_MAX];
    fl_prefix_extractor *ex = NULL;
    fl_model_extractor mex;
    int rc = fl_registry_make_extractor(reg, s, &ex, err, sizeof err);
    int mrc = fl_model_extractor_parse(s, &mex, merr, sizeof merr);
    if ((rc == FL_OK) != (mrc == FL_MODEL_OK))
        disagree("the extractor spec", s, rc ? err : "accepted", mrc ? merr : "accepted");
    if (rc != FL_OK && !err[0]) disagree("the extractor spec", s, "rejected without a message", "-");
    if (rc != FL_OK) return;
    fl_model_extractor_name(&mex, name, sizeof name);
    if (strcmp(fl_call_extractor_name(NULL, ex), name) != 0)
        disagree("the name of extractor", s, fl_call_extractor_name(NULL, ex), name);
    fl_call_extractor_destroy(NULL, ex);
}

/* 1 when the model accepts piece; name gets the policy's name. */
static int model_policy(const char *piece, char *name, uint32_t *millibits, char *merr) {
    fl_model_bloom_config cfg;
    if (fl_model_bloom_parse(piece, &cfg, merr, 512) != FL_MODEL_OK) return 0;
    fl_model_bloom_name(&cfg, name, FL_MODEL_NAME_MAX);
    *millibits = cfg.millibits;
    return 1;
}

static void check_policy(const char *s) {
    char err[1024] = "", merr[512] = "", name[FL_MODEL_NAME_MAX];
    uint32_t mb = 0;
    fl_filter_policy *p = NULL;
    int rc = fl_registry_make_policy(reg, s, &p, err, sizeof err);
    int ok = model_policy(s, name, &mb, merr);
    if ((rc == FL_OK) != ok) disagree("the policy spec", s, rc ? err : "accepted", ok ? "accepted" : merr);
    if (rc != FL_OK && !err[0]) disagree("the policy spec", s, "rejected without a message", "-");
    if (rc != FL_OK) return;
    if (strcmp(fl_call_policy_name(NULL, p), name) != 0) disagree("the name of policy", s, fl_call_policy_name(NULL, p), name);
    if (fl_bloom_policy_millibits(p) != mb) disagree("the millibits of policy", s, "(differ)", "(differ)");
    fl_call_policy_destroy(NULL, p);
}

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* The list grammar of SPEC 10, judged piece by piece by the model. */
static void check_list(const char *s) {
    char err[1024] = "", merr[512] = "";
    fl_policy_list list;
    int rc = fl_policy_list_parse(reg, NULL, s, &list, err, sizeof err);
    const char *a = s, *end = s + strlen(s);
    while (is_blank(*a)) a++;
    while (end > a && is_blank(end[-1])) end--;
    int ok = end > a;
    size_t count = 0;
    char (*names)[FL_MODEL_NAME_MAX] = calloc(strlen(s) / 2 + 2, sizeof *names);
    if (!names) abort();
    if (ok && !(end - a == 4 && memcmp(a, "none", 4) == 0)) {
        for (const char *piece = a; ok && piece <= end;) {
            const char *p = piece;
            for (int depth = 0; p < end && !(*p == ';' && depth <= 0); p++)
                depth += (*p == '(') - (*p == ')');
            char *one = strndup(piece, (size_t)(p - piece));
            uint32_t mb;
            ok = one && model_policy(one, names[count], &mb, merr);
            for (size_t i = 0; ok && i < count; i++) ok = strcmp(names[i], names[count]) != 0;
            count++;
            free(one);
            piece = p + 1;
        }
    }
    if ((rc == FL_OK) != ok) disagree("the policy list", s, rc ? err : "accepted", ok ? "accepted" : "rejected");
    if (rc != FL_OK && !err[0]) disagree("the policy list", s, "rejected without a message", "-");
    if (rc == FL_OK) {
        if (list.count != count) disagree("the length of policy list", s, "(differs)", "(differs)");
        for (size_t i = 0; i < list.count; i++)
            if (strcmp(fl_call_policy_name(NULL, list.items[i]), names[i]) != 0)
                disagree("a name in policy list", s, fl_call_policy_name(NULL, list.items[i]), names[i]);
        fl_policy_list_free(NULL, &list);
    }
    free(names);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!reg && fl_registry_new(&reg) != FL_OK) abort();
    char *s = strndup((const char *)data, size > 4096 ? 4096 : size);
    if (!s) return 0;
    check_extractor(s);
    check_policy(s);
    check_list(s);
    free(s);
    return 0;
}
