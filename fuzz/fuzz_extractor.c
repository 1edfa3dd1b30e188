/*
 * fuzz_extractor.c -- the prefix extractor contract (SPEC 4, P7).
 *
 * Input: [kind][param] then the bytes R.  kind and param pick a built-in
 * extractor spec (fixed:N, capped:N, delim:C, lastdelim:C, C written as
 * itself or as \xNN), or, when FILTERLAB_FUZZ_EXTRACTORS="tenant:2|..." is
 * set, sometimes one of those.  For every prefix t of R, POINT(t) and
 * PREFIX(t) must give n <= len(t); for a built-in, both must equal the
 * model's reference extractor; and PREFIX(p) = Some(n) must give
 * POINT(q) = Some(n) for every extension q of p (the longer prefixes of R,
 * and p followed by C, 0x00 or 0xff).  Aborts on any break.
 *
 * Every call goes through the engine's wrappers (fl_call_prefix_len,
 * fl_call_extractor_name, fl_call_extractor_destroy), as the engine makes
 * it, under a call context of the harness's own: a contract violation
 * the wrapper catches (n > len, a NULL name) aborts with the wrapper's
 * description of it and the target.
 */
#include "fuzz_env.h"
#include "../model/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INPUT 64

static const fl_prefix_extractor *ex;
static fl_model_extractor mex;
static bool builtin;
static const char *spec;
static fl_calls *calls;
static char violation[1024];         /* the last contract violation, or "" */

/* t NULL: a failure about the extractor itself, not about a target. */
static void fail(const char *what, const uint8_t *t, size_t len) {
    if (!t) {
        fprintf(stderr, "extractor %s: %s\n", spec, what);
        abort();
    }
    fprintf(stderr, "extractor %s: %s on target \"", spec, what);
    for (size_t i = 0; i < len; i++) fprintf(stderr, "\\x%02x", t[i]);
    fprintf(stderr, "\" (%zu bytes)\n", len);
    abort();
}

static void on_violation(void *arg, const fl_contract_violation *v) {
    (void)arg;
    snprintf(violation, sizeof violation, "contract violation by %s: %s: %s", v->who, v->method, v->what);
}

/* The engine's answer through its wrapper, checked for violations (n >
 * len), determinism and agreement with the model. */
static bool answer(fl_target_kind kind, const uint8_t *t, size_t len, size_t *n) {
    fl_target target = { kind, { t, len } };
    size_t n2 = 0;
    bool some = fl_call_prefix_len(calls, ex, &target, n);
    if (violation[0]) fail(violation, t, len);
    if (some != fl_call_prefix_len(calls, ex, &target, &n2) || (some && n2 != *n) || violation[0])
        fail(violation[0] ? violation : "two calls, two answers", t, len);
    if (builtin) {
        size_t mn = 0;
        bool msome = fl_model_extractor_prefix_len(&mex, (fl_model_target_kind)kind,
                                                   (fl_model_bytes){ t, len }, &mn);
        if (some != msome || (some && mn != *n))
            fail(kind == FL_TARGET_POINT ? "POINT differs from the model" : "PREFIX differs from the model", t, len);
    }
    return some;
}

static void extension(const uint8_t *q, size_t len, size_t n) {
    size_t m;
    if (!answer(FL_TARGET_POINT, q, len, &m) || m != n)
        fail("PREFIX(p) = Some(n) but POINT of this extension of p is not Some(n)", q, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    size_t nuser;
    const char *const *user = fuzz_env_list("FILTERLAB_FUZZ_EXTRACTORS", &nuser);
    char built[32];
    uint8_t kind = data[0], param = data[1];
    builtin = !(nuser && (kind & 0x80));
    if (builtin) {
        static const char *const kinds[4] = { "fixed", "capped", "delim", "lastdelim" };
        if (kind % 4 < 2) snprintf(built, sizeof built, "%s:%u", kinds[kind % 4], 1u + param % 16);
        else if ((kind & 4) || param == 0) snprintf(built, sizeof built, "%s:\\x%02x", kinds[kind % 4], param);
        else snprintf(built, sizeof built, "%s:%c", kinds[kind % 4], (char)param);
        spec = built;
    } else {
        spec = user[param % nuser];
    }
    if (!calls) {
        if (fl_calls_new(fuzz_registry(), &calls) != FL_OK) abort();
        fl_calls_set_sink(calls, on_violation, NULL);
    }
    violation[0] = 0;
    fl_prefix_extractor *made = NULL;
    char err[1024] = "";
    if (fl_registry_make_extractor(fuzz_registry(), spec, &made, err, sizeof err) != FL_OK) {
        fprintf(stderr, "extractor %s: %s\n", spec, err);
        abort();
    }
    fl_call_extractor_name(calls, made);
    if (violation[0]) fail(violation, NULL, 0);
    if (builtin && fl_model_extractor_parse(spec, &mex, err, sizeof err) != FL_MODEL_OK) {
        fprintf(stderr, "the model refuses extractor %s: %s\n", spec, err);
        abort();
    }
    ex = made;
    const uint8_t *r = data + 2;
    size_t len = size - 2 < MAX_INPUT ? size - 2 : MAX_INPUT;
    uint8_t c = builtin && mex.kind >= FL_MODEL_DELIM ? mex.delim : ':';
    for (size_t i = 0; i <= len; i++) {
        size_t n;
        answer(FL_TARGET_POINT, r, i, &n);
        if (!answer(FL_TARGET_PREFIX, r, i, &n)) continue;
        for (size_t j = i; j <= len; j++) extension(r, j, n);
        uint8_t q[MAX_INPUT + 2];
        memcpy(q, r, i);
        const uint8_t tails[3] = { c, 0x00, 0xff };
        for (int k = 0; k < 3; k++) {
            q[i] = tails[k];
            extension(q, i + 1, n);
            q[i + 1] = tails[k];
            extension(q, i + 2, n);
        }
    }
    fl_call_extractor_destroy(calls, made);
    return 0;
}
