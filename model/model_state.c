/*
 * model_state.c -- the model's logical state: an ordered map key -> value
 * (SPEC 7, "logical state"), the truth every engine read is compared with.
 *
 * Invariant: rows[0..count) are strictly increasing in bytewise order (SPEC
 * 2.1), every key and value is a private copy, and data is never NULL (an
 * empty string is a 1-byte allocation with len 0).  Lookups bisect; writes
 * shift the tail of the array: O(log n) to find, O(n) to move pointers.
 */
#include "model.h"

#include <stdlib.h>
#include <string.h>

typedef struct fl_model_row {
    uint8_t *key;   size_t key_len;
    uint8_t *value; size_t value_len;
} fl_model_row;

struct fl_model {
    fl_model_row *rows;
    size_t count, cap;
};

int fl_model_compare(fl_model_bytes a, fl_model_bytes b) {
    size_t common = a.len < b.len ? a.len : b.len;
    int c = common ? memcmp(a.data, b.data, common) : 0;
    if (c != 0) return c;
    return a.len < b.len ? -1 : a.len > b.len ? 1 : 0;
}

static fl_model_bytes row_key(const fl_model_row *r) {
    return (fl_model_bytes){ r->key, r->key_len };
}

static fl_model_bytes row_value(const fl_model_row *r) {
    return (fl_model_bytes){ r->value, r->value_len };
}

/* A private copy of b that is never NULL. */
static uint8_t *copy_bytes(fl_model_bytes b) {
    uint8_t *p = malloc(b.len ? b.len : 1);
    if (p && b.len) memcpy(p, b.data, b.len);
    return p;
}

/* The index of the first row whose key is >= key (count when none). */
static size_t lower_bound(const fl_model *m, fl_model_bytes key) {
    size_t lo = 0, hi = m->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (fl_model_compare(row_key(&m->rows[mid]), key) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static bool found_at(const fl_model *m, size_t i, fl_model_bytes key) {
    return i < m->count && fl_model_compare(row_key(&m->rows[i]), key) == 0;
}

/* ---- Lifecycle -------------------------------------------------------------- */

int fl_model_new(fl_model **out) {
    *out = calloc(1, sizeof **out);
    return *out ? FL_MODEL_OK : FL_MODEL_ERR_NOMEM;
}

static void free_rows(fl_model_row *rows, size_t n) {
    for (size_t i = 0; i < n; i++) {
        free(rows[i].key);
        free(rows[i].value);
    }
}

void fl_model_free(fl_model *m) {
    if (!m) return;
    free_rows(m->rows, m->count);
    free(m->rows);
    free(m);
}

size_t fl_model_count(const fl_model *m) { return m->count; }

/* ---- Writes ----------------------------------------------------------------- */

int fl_model_put(fl_model *m, fl_model_bytes key, fl_model_bytes value) {
    if (key.len > FL_MODEL_MAX_KEY || value.len > FL_MODEL_MAX_VALUE)
        return FL_MODEL_ERR_INVALID;
    uint8_t *v = copy_bytes(value);
    if (!v) return FL_MODEL_ERR_NOMEM;
    size_t i = lower_bound(m, key);
    if (found_at(m, i, key)) {                  /* overwrite in place */
        free(m->rows[i].value);
        m->rows[i].value = v;
        m->rows[i].value_len = value.len;
        return FL_MODEL_OK;
    }
    uint8_t *k = copy_bytes(key);
    if (!k) { free(v); return FL_MODEL_ERR_NOMEM; }
    if (m->count == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 16;
        fl_model_row *rows = realloc(m->rows, cap * sizeof *rows);
        if (!rows) { free(k); free(v); return FL_MODEL_ERR_NOMEM; }
        m->rows = rows;
        m->cap = cap;
    }
    memmove(&m->rows[i + 1], &m->rows[i], (m->count - i) * sizeof *m->rows);
    m->rows[i] = (fl_model_row){ k, key.len, v, value.len };
    m->count++;
    return FL_MODEL_OK;
}

/* Removes rows [from, to). */
static void remove_rows(fl_model *m, size_t from, size_t to) {
    if (from >= to) return;
    free_rows(&m->rows[from], to - from);
    memmove(&m->rows[from], &m->rows[to], (m->count - to) * sizeof *m->rows);
    m->count -= to - from;
}

int fl_model_delete(fl_model *m, fl_model_bytes key) {
    if (key.len > FL_MODEL_MAX_KEY) return FL_MODEL_ERR_INVALID;
    size_t i = lower_bound(m, key);
    if (found_at(m, i, key)) remove_rows(m, i, i + 1);
    return FL_MODEL_OK;
}

int fl_model_delete_range(fl_model *m, fl_model_bytes start, fl_model_bytes end) {
    if (start.len > FL_MODEL_MAX_KEY || end.len > FL_MODEL_MAX_KEY)
        return FL_MODEL_ERR_INVALID;
    if (fl_model_compare(end, start) <= 0) return FL_MODEL_OK;
    remove_rows(m, lower_bound(m, start), lower_bound(m, end));
    return FL_MODEL_OK;
}

/* ---- Reads ------------------------------------------------------------------ */

bool fl_model_get(const fl_model *m, fl_model_bytes key, fl_model_bytes *value) {
    size_t i = lower_bound(m, key);
    if (!found_at(m, i, key)) return false;
    if (value) *value = row_value(&m->rows[i]);
    return true;
}

static bool has_prefix(const fl_model_row *r, fl_model_bytes prefix) {
    return r->key_len >= prefix.len &&
           (prefix.len == 0 || memcmp(r->key, prefix.data, prefix.len) == 0);
}

int fl_model_scan_prefix(const fl_model *m, fl_model_bytes prefix,
                         fl_model_visit_fn fn, void *arg) {
    /* Keys with the prefix are contiguous and start at its lower bound. */
    for (size_t i = lower_bound(m, prefix); i < m->count && has_prefix(&m->rows[i], prefix); i++) {
        int stop = fn(arg, row_key(&m->rows[i]), row_value(&m->rows[i]));
        if (stop) return stop;
    }
    return 0;
}

int fl_model_scan(const fl_model *m, fl_model_bytes start, fl_model_bytes end,
                  fl_model_visit_fn fn, void *arg) {
    for (size_t i = lower_bound(m, start);
         i < m->count && fl_model_compare(row_key(&m->rows[i]), end) < 0; i++) {
        int stop = fn(arg, row_key(&m->rows[i]), row_value(&m->rows[i]));
        if (stop) return stop;
    }
    return 0;
}
