/*
 * model_state.c -- the model's logical state: an ordered map key -> value
 * (SPEC 7, "logical state"), the truth every engine read is compared with.
 *
 * Layout: the rows (key, value), in bytewise order (SPEC 2.1), cut into
 * chunks of at most CHUNK_MAX rows; m->chunks lists the chunks in order.
 * Read chunk after chunk, row after row, they are exactly the one sorted
 * array of the simplest possible model, and every operation below is that
 * array's operation done on the chunk(s) holding the rows concerned: find a
 * key by bisection (first over the chunks by their last key, then within
 * one chunk), insert or remove rows by shifting the rest of that chunk.
 * Beside m->chunks, m->last holds each chunk's last head (the head of its
 * last row), in the same order and with the same capacity, in the same
 * allocation: the bisection over the chunks compares numbers in that one
 * contiguous array, and reads a chunk's last row (and maybe its key's
 * bytes) only where that head equals the key's.
 *
 * A row (fl_model_row, 48 bytes with 8-byte pointers) starts with `head`,
 * the key's first 16 bytes, zero-padded: what a bisection step reads, as
 * two big-endian numbers (head_of()).  A key of at most KEY_INLINE = 16
 * bytes is head[0..key_len) and has no other copy.  Then comes the body,
 * ROW_BODY (24) bytes: the pointer to a private copy of a longer key
 * first, then the value -- its bytes when they fit in the rest of the body
 * (24 bytes after a short key, 16 after a long key's pointer), else the
 * pointer to a private copy of it.  So a short key with a short value, most
 * rows, allocates nothing (keys are mostly 8-20 bytes, values 0-32).  A key
 * or value kept in a row moves with the row (a shift, a split, a merge):
 * the slices get and the scans hand out point into the row, valid as
 * model.h promises, until the next change of the map (get) or during the
 * callback (the scans), and a put copies its key and value before it moves
 * anything, so they may be borrowed from the map.
 *
 * Invariant (correctness depends on this and only on this):
 *   - every chunk holds 1..CHUNK_MAX rows (there is no empty chunk);
 *   - keys strictly increase within a chunk and across chunks (the last key
 *     of a chunk is below the first key of the next one);
 *   - m->count is the total number of rows;
 *   - every row's head is its key's first 16 bytes, zero-padded (so
 *     head_of(head) is key_head() of the key, which orders most pairs of
 *     keys without reading them);
 *   - a key of at most 16 bytes is in its row's head, a longer one is a
 *     private copy, body.ptr[0]; a value is in the body from value_at()
 *     when value_is_inline(), else a private copy whose pointer is there;
 *     nothing else is allocated for a row, and row_key() and row_value()
 *     are never NULL (an empty key or value is in its row);
 *   - m->last[i] is head_of() the head of chunk i's last row, for every chunk:
 *     whatever changes a chunk's last row or the list of chunks (insert_row
 *     at a chunk's end, remove_rows, split_chunk, merge_next, insert_chunk,
 *     drop_chunks) sets or shifts m->last with it.
 * A build with -DFL_MODEL_CHECK checks all of it, and the balance, after
 * the writes (check_state()); with a tiny FL_MODEL_CHUNK_MAX the model
 * tests then split and merge chunks all the time, and with the smallest
 * FL_MODEL_ROW_BODY (two pointers) more values live outside their rows
 * (BUILD=/tmp/t, say):
 *   make BUILD=/tmp/t CFLAGS='-DFL_MODEL_CHUNK_MAX=2 -DFL_MODEL_CHECK' /tmp/t/tests/unit
 *   /tmp/t/tests/unit model_state
 *
 * Balance (for speed only): two neighbouring chunks hold together more than
 * CHUNK_MAX / 2 rows, so n rows take fewer than 4n / CHUNK_MAX + 2 chunks.
 * A put into a full chunk first splits it into two halves; a removal that
 * empties a chunk drops it, and one that leaves two neighbours with at most
 * CHUNK_MAX / 2 rows together merges them (settle()).
 *
 * Cost, for n rows and B = CHUNK_MAX: finding a key is O(log n).  A put or
 * delete shifts at most B rows of one chunk and, amortized about once per
 * B / 2 of them, splits or merges a chunk, which shifts the O(n / B) chunk
 * pointers and last heads.  A put of a new key inserts at the place its
 * lookup found (make_room()), without a second search.
 * delete_range and the scans find their start in O(log n) and then walk the
 * k rows they touch; delete_range closes the gap of the chunks it emptied
 * with one shift of the chunk pointers and last heads.
 */
#include "model.h"

#include <stdlib.h>
#include <string.h>

/* Rows per chunk, at most; even, so that a full chunk splits in equal
 * halves.  Any even value >= 2 gives the same map (a test build may use a
 * tiny one to split and merge often); 128 keeps a put's shift within one
 * chunk and the chunk list's shift on a split both small. */
#ifndef FL_MODEL_CHUNK_MAX
#define FL_MODEL_CHUNK_MAX 128
#endif
#define CHUNK_MAX ((size_t)FL_MODEL_CHUNK_MAX)
_Static_assert(FL_MODEL_CHUNK_MAX >= 2 && FL_MODEL_CHUNK_MAX % 2 == 0,
               "FL_MODEL_CHUNK_MAX must be even and at least 2");

typedef struct fl_model_head { uint64_t hi, lo; } fl_model_head;

/* A key of at most KEY_INLINE bytes is kept whole in its row's head. */
#define KEY_INLINE 16
/* Bytes of a row's body: a long key's pointer, then the value's bytes or
 * its pointer (see the layout above).  Any multiple of the pointer size
 * that holds two pointers gives the same map (a test build may use the
 * smallest, to keep more values outside their rows); 24 keeps a row at 48
 * bytes, and measured as fast as 32 or 40 (a 56- or 64-byte row, values of
 * up to 32 or 40 bytes in their rows), where the shifts move more bytes. */
#ifndef FL_MODEL_ROW_BODY
#define FL_MODEL_ROW_BODY 24
#endif
#define ROW_BODY ((size_t)FL_MODEL_ROW_BODY)
#define PTR_SIZE sizeof(uint8_t *)
_Static_assert(FL_MODEL_ROW_BODY % sizeof(uint8_t *) == 0 && FL_MODEL_ROW_BODY >= 2 * sizeof(uint8_t *),
               "FL_MODEL_ROW_BODY must be a multiple of the pointer size, at least two pointers");

typedef struct fl_model_row {
    uint8_t head[KEY_INLINE];           /* the key's first 16 bytes, zero-padded */
    union {
        uint8_t bytes[FL_MODEL_ROW_BODY];
        uint8_t *ptr[FL_MODEL_ROW_BODY / sizeof(uint8_t *)];
    } body;                             /* [key pointer] value bytes or pointer */
    uint32_t key_len, value_len;        /* <= FL_MODEL_MAX_KEY, FL_MODEL_MAX_VALUE */
} fl_model_row;
_Static_assert(sizeof(uint8_t *) != 8 || FL_MODEL_ROW_BODY != 24 || sizeof(fl_model_row) == 48,
               "a row is 48 bytes");

typedef struct fl_model_chunk {
    size_t count;                       /* rows[0..count) are in use */
    fl_model_row rows[CHUNK_MAX];
} fl_model_chunk;

struct fl_model {
    fl_model_chunk **chunks;            /* chunks[0..nchunks), in key order */
    fl_model_head *last;                /* last[i]: head of chunks[i]'s last row */
    size_t nchunks, cap;                /* room for cap entries in each; one
                                         * allocation, last[0..cap) first and
                                         * chunks[0..cap) right after */
    size_t count;                       /* rows in all chunks               */
#ifdef FL_MODEL_CHECK
    size_t writes;                      /* writes since the last check_state() */
#endif
};

/* A place in the map: row `row` of chunk `chunk`, or the end of the map,
 * which is { nchunks, 0 }.  A place is always one of these two. */
typedef struct fl_model_pos { size_t chunk, row; } fl_model_pos;

int fl_model_compare(fl_model_bytes a, fl_model_bytes b) {
    size_t common = a.len < b.len ? a.len : b.len;
    int c = common ? memcmp(a.data, b.data, common) : 0;
    if (c != 0) return c;
    return a.len < b.len ? -1 : a.len > b.len ? 1 : 0;
}

/* ---- Rows ------------------------------------------------------------------- */

static bool key_is_inline(size_t key_len) { return key_len <= KEY_INLINE; }

/* Where a row's value (its bytes, or their pointer) starts in its body:
 * after a long key's pointer. */
static size_t value_at(size_t key_len) { return key_is_inline(key_len) ? 0 : PTR_SIZE; }

/* Whether a value of value_len bytes is kept in the body of a row whose key
 * has key_len bytes: when it fits in the room from value_at() on. */
static bool value_is_inline(size_t key_len, size_t value_len) {
    return value_len <= ROW_BODY - value_at(key_len);
}

static fl_model_bytes row_key(const fl_model_row *r) {
    return (fl_model_bytes){ key_is_inline(r->key_len) ? r->head : r->body.ptr[0], r->key_len };
}

static fl_model_bytes row_value(const fl_model_row *r) {
    size_t at = value_at(r->key_len);
    if (value_is_inline(r->key_len, r->value_len))
        return (fl_model_bytes){ r->body.bytes + at, r->value_len };
    return (fl_model_bytes){ r->body.ptr[at / PTR_SIZE], r->value_len };
}

/* Sets the value of r, whose key_len is set, to a copy of value: in the
 * body, or in a private allocation (false on NOMEM, with nothing kept). */
static bool set_value(fl_model_row *r, fl_model_bytes value) {
    size_t at = value_at(r->key_len);
    if (value_is_inline(r->key_len, value.len)) {
        if (value.len) memcpy(r->body.bytes + at, value.data, value.len);
    } else {
        uint8_t *p = malloc(value.len);
        if (!p) return false;
        memcpy(p, value.data, value.len);
        r->body.ptr[at / PTR_SIZE] = p;
    }
    r->value_len = (uint32_t)value.len;
    return true;
}

/* Frees r's copy of a long value, if it has one. */
static void free_value(fl_model_row *r) {
    if (!value_is_inline(r->key_len, r->value_len)) free(r->body.ptr[value_at(r->key_len) / PTR_SIZE]);
}

/* Frees what r allocated: the copies of a long key and of a long value. */
static void free_row(fl_model_row *r) {
    if (!key_is_inline(r->key_len)) free(r->body.ptr[0]);
    free_value(r);
}

/* ---- Finding a key ---------------------------------------------------------- */

static inline uint64_t load_be64(const uint8_t *b) {
    uint64_t x;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&x, b, 8);
    x = __builtin_bswap64(x);
#else
    x = 0;
    for (int i = 0; i < 8; i++) x = x << 8 | b[i];
#endif
    return x;
}

/* The head of 16 bytes b: the two big-endian numbers. */
static inline fl_model_head head_of(const uint8_t b[16]) {
    return (fl_model_head){ load_be64(b), load_be64(b + 8) };
}

/* The first 16 bytes of key, zero-padded, into b. */
static void pad_head(uint8_t b[16], fl_model_bytes key) {
    memset(b, 0, 16);
    if (key.len) memcpy(b, key.data, key.len < 16 ? key.len : 16);
}

/* The first 16 bytes of key as two big-endian numbers, zero-padded.  Where
 * two keys' heads differ they are ordered as their heads (the first byte
 * that differs is within the first 16, a missing byte counting as 0 and a
 * shorter key ordering first), so a bisection step compares numbers, and
 * reads a key's bytes only when the heads are equal and a key is longer
 * than 16 bytes. */
static fl_model_head key_head(fl_model_bytes key) {
    uint8_t b[16];
    pad_head(b, key);
    return head_of(b);
}

/* fl_model_compare(r's key, key), where h is key's head. */
static inline int row_compare(const fl_model_row *r, fl_model_bytes key, fl_model_head h) {
    uint64_t hi = load_be64(r->head);
    if (hi != h.hi) return hi < h.hi ? -1 : 1;
    uint64_t lo = load_be64(r->head + 8);
    if (lo != h.lo) return lo < h.lo ? -1 : 1;
    if (r->key_len <= 16 && key.len <= 16)     /* equal bytes, but for the padding */
        return r->key_len < key.len ? -1 : r->key_len > key.len;
    return fl_model_compare(row_key(r), key);
}

/* The index of the first row of c whose key is >= key (c->count when none). */
static size_t row_lower_bound(const fl_model_chunk *c, fl_model_bytes key, fl_model_head h) {
    size_t lo = 0, hi = c->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (row_compare(&c->rows[mid], key, h) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* row_compare(chunk i's last row, key, h), read from m->last[i]: the chunk's
 * rows are read only when the heads are equal. */
static int last_compare(const fl_model *m, size_t i, fl_model_bytes key, fl_model_head h) {
    const fl_model_head *l = &m->last[i];
    if (l->hi != h.hi) return l->hi < h.hi ? -1 : 1;
    if (l->lo != h.lo) return l->lo < h.lo ? -1 : 1;
    const fl_model_chunk *c = m->chunks[i];
    return row_compare(&c->rows[c->count - 1], key, h);
}

/* The index of the first chunk whose last key is >= key (nchunks when none).
 * Every row before that chunk is < key; the first row >= key is in it. */
static size_t chunk_lower_bound(const fl_model *m, fl_model_bytes key, fl_model_head h) {
    size_t lo = 0, hi = m->nchunks;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (last_compare(m, mid, key, h) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The place of the first row whose key is >= key (the end when none). */
static fl_model_pos lower_bound(const fl_model *m, fl_model_bytes key) {
    fl_model_head h = key_head(key);
    size_t c = chunk_lower_bound(m, key, h);
    if (c == m->nchunks) return (fl_model_pos){ m->nchunks, 0 };
    /* < count, since the chunk's last key is >= key */
    return (fl_model_pos){ c, row_lower_bound(m->chunks[c], key, h) };
}

static bool is_end(const fl_model *m, fl_model_pos p) { return p.chunk == m->nchunks; }

static const fl_model_row *row_at(const fl_model *m, fl_model_pos p) {
    return &m->chunks[p.chunk]->rows[p.row];
}

/* The place after p (p is not the end). */
static fl_model_pos next_pos(const fl_model *m, fl_model_pos p) {
    if (++p.row == m->chunks[p.chunk]->count) { p.chunk++; p.row = 0; }
    return p;
}

static bool found_at(const fl_model *m, fl_model_pos p, fl_model_bytes key) {
    return !is_end(m, p) && fl_model_compare(row_key(row_at(m, p)), key) == 0;
}

/* ---- Chunks ----------------------------------------------------------------- */

static void free_rows(fl_model_row *rows, size_t n) {
    for (size_t i = 0; i < n; i++) free_row(&rows[i]);
}

/* Sets m->last[i] from chunk i's last row, if it has one (an empty chunk,
 * which lives only within one operation, has no last row: its last[i] is
 * set when a row is put in, and unused until then). */
static void set_last(fl_model *m, size_t i) {
    const fl_model_chunk *c = m->chunks[i];
    if (c->count) m->last[i] = head_of(c->rows[c->count - 1].head);
}

/* Makes room for one more chunk in m->last and m->chunks (one block: the
 * heads, then the pointers); the map is unchanged, on NOMEM too. */
static bool reserve_chunk(fl_model *m) {
    if (m->nchunks < m->cap) return true;
    size_t cap = m->cap ? 2 * m->cap : 16;
    fl_model_head *last = realloc(m->last, cap * (sizeof *m->last + sizeof *m->chunks));
    if (!last) return false;
    fl_model_chunk **chunks = (fl_model_chunk **)(last + cap);
    memmove(chunks, last + m->cap, m->nchunks * sizeof *chunks);    /* from the old place */
    m->last = last;
    m->chunks = chunks;
    m->cap = cap;
    return true;
}

/* Puts c at index i of m->chunks (room reserved), shifting the rest up. */
static void insert_chunk(fl_model *m, size_t i, fl_model_chunk *c) {
    memmove(&m->chunks[i + 1], &m->chunks[i], (m->nchunks - i) * sizeof *m->chunks);
    memmove(&m->last[i + 1], &m->last[i], (m->nchunks - i) * sizeof *m->last);
    m->chunks[i] = c;
    m->nchunks++;
    set_last(m, i);
}

/* Frees the chunks [from, to), which must be empty, and closes the gap. */
static void drop_chunks(fl_model *m, size_t from, size_t to) {
    for (size_t i = from; i < to; i++) free(m->chunks[i]);
    memmove(&m->chunks[from], &m->chunks[to], (m->nchunks - to) * sizeof *m->chunks);
    memmove(&m->last[from], &m->last[to], (m->nchunks - to) * sizeof *m->last);
    m->nchunks -= to - from;
}

/* Inserts r at row i of chunk ci, which has room, shifting the rest up. */
static void insert_row(fl_model *m, size_t ci, size_t i, const fl_model_row *r) {
    fl_model_chunk *c = m->chunks[ci];
    memmove(&c->rows[i + 1], &c->rows[i], (c->count - i) * sizeof *c->rows);
    c->rows[i] = *r;
    c->count++;
    m->count++;
    if (i == c->count - 1) m->last[ci] = head_of(r->head);    /* a new last row */
}

/* Frees rows [from, to) of chunk ci and closes the gap (may leave it empty). */
static void remove_rows(fl_model *m, size_t ci, size_t from, size_t to) {
    fl_model_chunk *c = m->chunks[ci];
    free_rows(&c->rows[from], to - from);
    memmove(&c->rows[from], &c->rows[to], (c->count - to) * sizeof *c->rows);
    c->count -= to - from;
    m->count -= to - from;
    set_last(m, ci);
}

/* Moves the upper half of the full chunk i to a new chunk i + 1.  The rows
 * and their order are unchanged; false (and nothing done) on NOMEM. */
static bool split_chunk(fl_model *m, size_t i) {
    fl_model_chunk *hi = malloc(sizeof *hi);
    if (!hi || !reserve_chunk(m)) { free(hi); return false; }
    fl_model_chunk *lo = m->chunks[i];
    hi->count = lo->count - CHUNK_MAX / 2;
    memcpy(hi->rows, &lo->rows[CHUNK_MAX / 2], hi->count * sizeof *hi->rows);
    lo->count = CHUNK_MAX / 2;
    insert_chunk(m, i + 1, hi);                 /* last[i + 1]: chunk i's old last */
    set_last(m, i);
    return true;
}

/* Appends the rows of chunk i + 1 to chunk i (they must fit) and drops
 * chunk i + 1.  The rows and their order are unchanged. */
static void merge_next(fl_model *m, size_t i) {
    fl_model_chunk *a = m->chunks[i], *b = m->chunks[i + 1];
    memcpy(&a->rows[a->count], b->rows, b->count * sizeof *b->rows);
    a->count += b->count;
    b->count = 0;
    set_last(m, i);                             /* b's last row, or a's if b was empty */
    drop_chunks(m, i + 1, i + 2);
}

/* true when chunks i and i + 1 exist and hold at most CHUNK_MAX / 2 rows together. */
static bool small_pair(const fl_model *m, size_t i) {
    return i + 1 < m->nchunks &&
           m->chunks[i]->count + m->chunks[i + 1]->count <= CHUNK_MAX / 2;
}

/* After rows were removed from chunk i (and the balance held elsewhere):
 * drops it when empty, else merges it with a small neighbour.  Only pairs
 * with chunk i in them can have become small, and a merged chunk is at
 * least as big as either part, so two merges at most restore the balance. */
static void settle(fl_model *m, size_t i) {
    if (m->chunks[i]->count == 0) {
        drop_chunks(m, i, i + 1);               /* chunks i - 1 and i now meet */
        if (i > 0 && small_pair(m, i - 1)) merge_next(m, i - 1);
        return;
    }
    if (small_pair(m, i)) merge_next(m, i);
    if (i > 0 && small_pair(m, i - 1)) merge_next(m, i - 1);
}

/* Turns *p, the place of the first row >= a new key (lower_bound()), into
 * the place the key's row goes to, after making room there for one more
 * row.  The row goes before the row at *p; at the end of the map, after the
 * last row of the last chunk.  Creates the first chunk of an empty map (left
 * empty: the caller inserts right away) or splits a full chunk (a place in
 * its upper half moves with that half to the new chunk): the same chunk and
 * row that a new search would find.  false on NOMEM, with the rows as they
 * were. */
static bool make_room(fl_model *m, fl_model_pos *p) {
    if (m->nchunks == 0) {
        fl_model_chunk *c = malloc(sizeof *c);
        if (!c || !reserve_chunk(m)) { free(c); return false; }
        c->count = 0;
        insert_chunk(m, 0, c);
        *p = (fl_model_pos){ 0, 0 };
        return true;
    }
    if (is_end(m, *p)) *p = (fl_model_pos){ m->nchunks - 1, m->chunks[m->nchunks - 1]->count };
    if (m->chunks[p->chunk]->count == CHUNK_MAX) {
        if (!split_chunk(m, p->chunk)) return false;
        if (p->row >= CHUNK_MAX / 2) { p->chunk++; p->row -= CHUNK_MAX / 2; }
    }
    return true;
}

/* ---- Checking the invariant (test builds) ------------------------------------ */

#ifdef FL_MODEL_CHECK
#include <stdio.h>

static bool same_head(fl_model_head a, fl_model_head b) { return a.hi == b.hi && a.lo == b.lo; }

static void state_broken(const char *what, size_t chunk, size_t row) {
    fprintf(stderr, "model_state.c: invariant broken: %s (chunk %zu, row %zu)\n", what, chunk, row);
    abort();
}

/* Every clause of the invariant and the balance, checked in full: O(n). */
static void check_state(const fl_model *m) {
    size_t rows = 0;
    const fl_model_row *prev = NULL;
    if (m->nchunks > m->cap) state_broken("nchunks > cap", m->nchunks, 0);
    for (size_t i = 0; i < m->nchunks; i++) {
        const fl_model_chunk *c = m->chunks[i];
        if (c->count < 1 || c->count > CHUNK_MAX) state_broken("chunk size", i, c->count);
        if (i + 1 < m->nchunks && c->count + m->chunks[i + 1]->count <= CHUNK_MAX / 2)
            state_broken("two small neighbours", i, c->count);
        if (!same_head(m->last[i], head_of(c->rows[c->count - 1].head)))
            state_broken("last[i] is not the head of chunk i's last row", i, c->count - 1);
        for (size_t j = 0; j < c->count; j++) {
            const fl_model_row *r = &c->rows[j];
            fl_model_bytes k = row_key(r), v = row_value(r);
            uint8_t pad[16];
            if (r->key_len > FL_MODEL_MAX_KEY || r->value_len > FL_MODEL_MAX_VALUE)
                state_broken("key or value too long", i, j);
            if (!k.data || !v.data) state_broken("NULL key or value", i, j);
            pad_head(pad, k);
            if (memcmp(r->head, pad, 16) != 0) state_broken("row head", i, j);
            if ((k.data == r->head) != key_is_inline(r->key_len) ||
                (v.data == r->body.bytes + value_at(r->key_len)) !=
                    value_is_inline(r->key_len, r->value_len))
                state_broken("key or value kept in the wrong place", i, j);
            if (prev && (fl_model_compare(row_key(prev), k) >= 0 ||
                         row_compare(prev, k, head_of(r->head)) >= 0))
                state_broken("keys do not increase", i, j);
            prev = r;
        }
        rows += c->count;
    }
    if (rows != m->count) state_broken("count", m->nchunks, rows);
}

/* After a write: check_state(), after every write while the map is small
 * and about once per count / 256 writes beyond (O(1) amortized per row). */
static void after_write(fl_model *m) {
    if (++m->writes <= m->count / 256) return;
    m->writes = 0;
    check_state(m);
}
#else
static void after_write(fl_model *m) { (void)m; }
#endif

/* ---- Lifecycle -------------------------------------------------------------- */

int fl_model_new(fl_model **out) {
    *out = calloc(1, sizeof **out);
    return *out ? FL_MODEL_OK : FL_MODEL_ERR_NOMEM;
}

void fl_model_free(fl_model *m) {
    if (!m) return;
    for (size_t i = 0; i < m->nchunks; i++) {
        free_rows(m->chunks[i]->rows, m->chunks[i]->count);
        free(m->chunks[i]);
    }
    free(m->last);                              /* and m->chunks with it */
    free(m);
}

size_t fl_model_count(const fl_model *m) { return m->count; }

/* ---- Writes ----------------------------------------------------------------- */

int fl_model_put(fl_model *m, fl_model_bytes key, fl_model_bytes value) {
    if (key.len > FL_MODEL_MAX_KEY || value.len > FL_MODEL_MAX_VALUE)
        return FL_MODEL_ERR_INVALID;
    /* The new row nr, its value first: copied from value before the map
     * changes (value or key may be borrowed from the map, and a shift
     * moves an inline value). */
    fl_model_row nr;
    nr.key_len = (uint32_t)key.len;
    if (!set_value(&nr, value)) return FL_MODEL_ERR_NOMEM;
    fl_model_pos p = lower_bound(m, key);
    if (found_at(m, p, key)) {                  /* overwrite in place */
        fl_model_row *r = &m->chunks[p.chunk]->rows[p.row];
        size_t at = value_at(key.len);          /* the same key_len: the same place */
        free_value(r);
        if (value_is_inline(nr.key_len, nr.value_len))
            memcpy(r->body.bytes + at, nr.body.bytes + at, nr.value_len);
        else
            r->body.ptr[at / PTR_SIZE] = nr.body.ptr[at / PTR_SIZE];
        r->value_len = nr.value_len;
        after_write(m);
        return FL_MODEL_OK;
    }
    pad_head(nr.head, key);
    if (!key_is_inline(key.len)) {
        uint8_t *k = malloc(key.len);
        if (!k) { free_value(&nr); return FL_MODEL_ERR_NOMEM; }
        memcpy(k, key.data, key.len);
        nr.body.ptr[0] = k;
    }
    if (!make_room(m, &p)) { free_row(&nr); return FL_MODEL_ERR_NOMEM; }
    insert_row(m, p.chunk, p.row, &nr);
    after_write(m);
    return FL_MODEL_OK;
}

int fl_model_delete(fl_model *m, fl_model_bytes key) {
    if (key.len > FL_MODEL_MAX_KEY) return FL_MODEL_ERR_INVALID;
    fl_model_pos p = lower_bound(m, key);
    if (found_at(m, p, key)) {
        remove_rows(m, p.chunk, p.row, p.row + 1);
        settle(m, p.chunk);
    }
    after_write(m);
    return FL_MODEL_OK;
}

int fl_model_delete_range(fl_model *m, fl_model_bytes start, fl_model_bytes end) {
    if (start.len > FL_MODEL_MAX_KEY || end.len > FL_MODEL_MAX_KEY)
        return FL_MODEL_ERR_INVALID;
    if (fl_model_compare(end, start) <= 0) return FL_MODEL_OK;
    /* The rows to remove are those from lo up to, not including, hi. */
    fl_model_pos lo = lower_bound(m, start), hi = lower_bound(m, end);
    if (lo.chunk == hi.chunk) {                 /* within one chunk (or none) */
        if (lo.row < hi.row) {
            remove_rows(m, lo.chunk, lo.row, hi.row);
            settle(m, lo.chunk);
        }
        after_write(m);
        return FL_MODEL_OK;
    }
    /* lo.chunk < hi.chunk: the tail of chunk lo.chunk, the chunks between,
     * and the head of chunk hi.chunk unless hi is the end. */
    bool to_end = is_end(m, hi);
    size_t a = lo.chunk;
    remove_rows(m, a, lo.row, m->chunks[a]->count);
    for (size_t c = a + 1; c < hi.chunk; c++) remove_rows(m, c, 0, m->chunks[c]->count);
    if (!to_end) remove_rows(m, hi.chunk, 0, hi.row);
    drop_chunks(m, a + 1, hi.chunk);
    /* Rows left chunk a and, unless to_end, chunk a + 1 (the old hi.chunk);
     * either may be empty.  Settle them one at a time: merge them when they
     * fit in one chunk, else each has rows and they are not a small pair. */
    if (!to_end) {
        if (m->chunks[a]->count + m->chunks[a + 1]->count <= CHUNK_MAX) merge_next(m, a);
        else settle(m, a + 1);
    }
    settle(m, a);
    after_write(m);
    return FL_MODEL_OK;
}

/* ---- Reads ------------------------------------------------------------------ */

bool fl_model_get(const fl_model *m, fl_model_bytes key, fl_model_bytes *value) {
    fl_model_pos p = lower_bound(m, key);
    if (!found_at(m, p, key)) return false;
    if (value) *value = row_value(row_at(m, p));
    return true;
}

static bool has_prefix(const fl_model_row *r, fl_model_bytes prefix) {
    return r->key_len >= prefix.len &&
           (prefix.len == 0 || memcmp(row_key(r).data, prefix.data, prefix.len) == 0);
}

void fl_model_cursor_seek(const fl_model *m, fl_model_bytes key, fl_model_cursor *c) {
    fl_model_pos p = lower_bound(m, key);
    *c = (fl_model_cursor){ m, p.chunk, p.row };
}

bool fl_model_cursor_get(const fl_model_cursor *c, fl_model_bytes *key, fl_model_bytes *value) {
    fl_model_pos p = { c->chunk, c->row };
    if (is_end(c->m, p)) return false;
    *key = row_key(row_at(c->m, p));
    *value = row_value(row_at(c->m, p));
    return true;
}

void fl_model_cursor_next(fl_model_cursor *c) {
    fl_model_pos p = next_pos(c->m, (fl_model_pos){ c->chunk, c->row });
    c->chunk = p.chunk;
    c->row = p.row;
}

int fl_model_scan_prefix(const fl_model *m, fl_model_bytes prefix,
                         fl_model_visit_fn fn, void *arg) {
    /* Keys with the prefix are contiguous and start at its lower bound. */
    for (fl_model_pos p = lower_bound(m, prefix);
         !is_end(m, p) && has_prefix(row_at(m, p), prefix); p = next_pos(m, p)) {
        int stop = fn(arg, row_key(row_at(m, p)), row_value(row_at(m, p)));
        if (stop) return stop;
    }
    return 0;
}

int fl_model_scan(const fl_model *m, fl_model_bytes start, fl_model_bytes end,
                  fl_model_visit_fn fn, void *arg) {
    for (fl_model_pos p = lower_bound(m, start);
         !is_end(m, p) && fl_model_compare(row_key(row_at(m, p)), end) < 0; p = next_pos(m, p)) {
        int stop = fn(arg, row_key(row_at(m, p)), row_value(row_at(m, p)));
        if (stop) return stop;
    }
    return 0;
}

/* The place before p, or false at the start (p may be the end). */
static bool prev_pos(const fl_model *m, fl_model_pos *p) {
    if (p->row > 0) { p->row--; return true; }
    if (p->chunk == 0) return false;
    p->chunk--;
    p->row = m->chunks[p->chunk]->count - 1;
    return true;
}

int fl_model_seek(const fl_model *m, fl_model_bytes key, bool backward, fl_model_visit_fn fn,
                  void *arg) {
    fl_model_pos p = lower_bound(m, key);
    if (!backward) {
        for (; !is_end(m, p); p = next_pos(m, p)) {
            int stop = fn(arg, row_key(row_at(m, p)), row_value(row_at(m, p)));
            if (stop) return stop;
        }
        return 0;
    }
    /* the last key <= key: key itself, or the one before the first > key */
    if (!found_at(m, p, key) && !prev_pos(m, &p)) return 0;
    do {
        int stop = fn(arg, row_key(row_at(m, p)), row_value(row_at(m, p)));
        if (stop) return stop;
    } while (prev_pos(m, &p));
    return 0;
}
