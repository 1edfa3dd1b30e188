/*
 * test_model.h -- helpers shared by the model tests (test_model_state.c,
 * test_model_filters.c): a seeded splitmix64, FL_MODEL_SEED, short random
 * keys over an alphabet rich in delimiters, NUL and 0xFF, their bytewise
 * order, and a printer for messages.  Static inline: each test file gets
 * its own copy and its own rng.
 */
#ifndef FL_TEST_MODEL_H
#define FL_TEST_MODEL_H

#include "test.h"
#include "../model/model.h"
#include "../properties/check.h"          /* fl_splitmix64 */

#include <stdlib.h>

static uint64_t rng;
static inline uint64_t next_rand(void) { return fl_splitmix64(&rng); }
static inline size_t rand_below(size_t n) { return (size_t)(next_rand() % n); }
/* Fisher-Yates: order[0..n) in a random order. */
static inline void shuffle(size_t *order, size_t n) {
    for (size_t i = n ? n - 1 : 0; i > 0; i--) {
        size_t j = rand_below(i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}

static inline uint64_t base_seed(void) {
    const char *s = getenv("FL_MODEL_SEED");
    return s && *s ? strtoull(s, NULL, 10) : 20240601;
}

static inline fl_model_bytes mb_str(const char *s) { return (fl_model_bytes){ (const uint8_t *)s, strlen(s) }; }

/* Keys are short strings over an alphabet rich in delimiters, NUL and 0xFF. */
typedef struct key { uint8_t b[8]; size_t len; } key;
static const uint8_t alphabet[] = { 0x00, 'a', 'b', ':', '/', '\\', 0xff };
static inline key random_key(size_t max_len, size_t alpha) {
    key k;
    k.len = rand_below(max_len + 1);
    for (size_t i = 0; i < k.len; i++) k.b[i] = alphabet[rand_below(alpha)];
    return k;
}
static inline fl_model_bytes kb(const key *k) { return (fl_model_bytes){ k->b, k->len }; }
/* Bytewise order, written again here so the brute-force side owes nothing to the model. */
static inline int key_cmp(const void *pa, const void *pb) {
    const key *a = pa, *b = pb;
    for (size_t i = 0; i < a->len && i < b->len; i++)
        if (a->b[i] != b->b[i]) return a->b[i] < b->b[i] ? -1 : 1;
    return a->len < b->len ? -1 : a->len > b->len;
}

/* Prints bytes as a workload string would: printable as is, else \xNN. */
static inline const char *show(const uint8_t *p, size_t len, char *out, size_t out_len) {
    size_t o = 0;
    for (size_t i = 0; i < len && o + 5 < out_len; i++)
        o += (size_t)snprintf(out + o, out_len - o, p[i] > 0x20 && p[i] < 0x7f && p[i] != '\\'
                              ? "%c" : "\\x%02x", p[i]);
    out[o] = 0;
    return out;
}

#endif /* FL_TEST_MODEL_H */
