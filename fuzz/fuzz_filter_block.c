/*
 * fuzz_filter_block.c -- the filter block decoders (SPEC 2.6, 5): crash-only.
 *
 * The input is decoded as a Composite block (fl_filter_block_split), as a
 * Legacy block (fl_call_decode_legacy) and by each built-in bloom policy
 * below (fl_call_decode); every sub-filter of a Composite block is decoded
 * the same ways, and every filter that decodes is probed (POINT and
 * PREFIX) with a few targets, sized, encoded and destroyed.  The reference
 * model's decoder gets the same bytes.
 *
 * Only the public API (engine.h): the Composite split and the Legacy
 * decode are the ones a reader uses, and every filter is called through
 * the fl_call_* wrappers, as the engine calls it.
 */
#include "../engine/engine.h"
#include "../model/model.h"

#include <stdlib.h>
#include <string.h>

static const char *const specs[] = {
    "bloom", "bloom(bits=3,prefix=fixed:2)", "bloom(whole_key=0,prefix=capped:3)",
    "bloom(prefix=delim::)", "bloom(bits=0.5,whole_key=0,prefix=lastdelim:/)",
};
#define NSPECS (sizeof specs / sizeof specs[0])

static fl_filter_policy *policies[NSPECS];
static fl_calls *calls;              /* quiet: refusing bad bytes is reported */

static void probe(const fl_filter_policy *policy, fl_filter *f, fl_slice data) {
    static const char *const keys[] = { "", "a", "ab", "ab:", "abc/d", "\xff\xff" };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        for (int kind = FL_TARGET_POINT; kind <= FL_TARGET_PREFIX; kind++) {
            fl_filter_query q = { { kind, { (const uint8_t *)keys[i], strlen(keys[i]) } }, NULL };
            fl_call_might_match(calls, policy, f, &q);
        }
    }
    fl_filter_query q = { { FL_TARGET_POINT, { data.data, data.len < 8 ? data.len : 8 } }, NULL };
    fl_call_might_match(calls, policy, f, &q);
    fl_call_size(calls, policy, f);
    fl_buf out;
    fl_buf_init(&out);
    fl_call_encode(calls, policy, f, &out);
    fl_buf_free(&out);
    fl_call_filter_destroy(calls, policy, f);
}

static void decode_all(fl_slice data) {
    fl_filter *f;
    if (fl_call_decode_legacy(calls, policies[0], data, &f) == FL_OK) probe(policies[0], f, data);
    for (size_t i = 0; i < NSPECS; i++)
        if (fl_call_decode(calls, policies[i], data, &f) == FL_OK) probe(policies[i], f, data);
    fl_model_bloom b;
    fl_model_bloom_config cfg = { 10000, true, false, { FL_MODEL_FIXED, 0, 0 } };
    if (fl_model_bloom_decode(&b, &cfg, data.data, data.len) == FL_MODEL_OK)
        fl_model_bloom_might_match(&b, FL_MODEL_POINT, (fl_model_bytes){ data.data, data.len });
    fl_model_bloom_free(&b);
}

/* Built-in policies refusing corrupt bytes are reported as violations: quiet. */
static void quiet(void *arg, const fl_contract_violation *v) { (void)arg; (void)v; }

static int each_sub(void *arg, const char *name, fl_slice data) {
    (void)arg;
    (void)name;
    decode_all(data);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!policies[0]) {
        static fl_registry *reg;
        char err[512];
        if (fl_registry_new(&reg) != FL_OK || fl_calls_new(reg, &calls) != FL_OK) abort();
        fl_calls_set_sink(calls, quiet, NULL);
        for (size_t i = 0; i < NSPECS; i++)
            if (fl_registry_make_policy(reg, specs[i], &policies[i], err, sizeof err) != FL_OK) abort();
    }
    fl_slice block = { data, size };
    decode_all(block);
    fl_filter_block_split(block, each_sub, NULL);
    return 0;
}
