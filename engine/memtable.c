/*
 * memtable.c -- the write buffer: a skiplist of entries sorted by
 * (key asc, seq desc), its nodes, keys and values carved from an arena that
 * is freed at once, and the range tombstones kept separately.
 * Invariant: a node is reachable from level 0 exactly once, in order.
 * A search compares each node at most once (a node found not before the
 * target at one level is not compared again below).
 */
#include "engine_internal.h"

#include <stdlib.h>
#include <string.h>

#define MAX_LEVEL 16
#define ARENA_CHUNK (256u * 1024u)

typedef struct node {
    fl_entry e;
    int level;
    struct node *next[];
} node;

typedef struct chunk { struct chunk *prev; size_t used, cap; uint8_t data[]; } chunk;

struct fl_memtable {
    node *head;
    chunk *arena;
    size_t bytes, count;
    uint64_t rng;
    fl_rtomb_list rtombs;
};

static void *arena_alloc(fl_memtable *mt, size_t n) {
    n = (n + 15) & ~(size_t)15;
    if (!mt->arena || mt->arena->cap - mt->arena->used < n) {
        size_t cap = n > ARENA_CHUNK ? n : ARENA_CHUNK;
        chunk *c = malloc(sizeof *c + cap);
        if (!c) return NULL;
        c->prev = mt->arena;
        c->used = 0;
        c->cap = cap;
        mt->arena = c;
    }
    void *p = mt->arena->data + mt->arena->used;
    mt->arena->used += n;
    return p;
}

int fl_memtable_new(fl_memtable **out) {
    fl_memtable *mt = calloc(1, sizeof *mt);
    if (!mt) return FL_ERR_NOMEM;
    mt->head = calloc(1, sizeof(node) + MAX_LEVEL * sizeof(node *));
    if (!mt->head) { free(mt); return FL_ERR_NOMEM; }
    mt->head->level = MAX_LEVEL;
    mt->rng = 0x9E3779B97F4A7C15ull;    /* fixed: runs are deterministic */
    *out = mt;
    return FL_OK;
}

void fl_memtable_free(fl_memtable *mt) {
    if (!mt) return;
    chunk *c = mt->arena;
    while (c) { chunk *p = c->prev; free(c); c = p; }
    free(mt->head);
    fl_rtomb_list_free(&mt->rtombs);
    free(mt);
}

static int random_level(fl_memtable *mt) {
    int level = 1;
    while (level < MAX_LEVEL) {
        mt->rng ^= mt->rng << 13; mt->rng ^= mt->rng >> 7; mt->rng ^= mt->rng << 17;
        if (mt->rng & 3) break;           /* p = 1/4 */
        level++;
    }
    return level;
}

/* Fills prev[] with the last node before e at every level.  A node found
 * not before e at one level is not compared again at the levels below. */
static node *find_ge(const fl_memtable *mt, const fl_entry *e, node **prev) {
    node *x = mt->head, *stop = NULL;
    for (int l = MAX_LEVEL - 1; l >= 0; l--) {
        node *n;
        while ((n = x->next[l]) != NULL && n != stop && fl_entry_cmp(&n->e, e) < 0) x = n;
        stop = x->next[l];
        if (prev) prev[l] = x;
    }
    return x->next[0];
}

int fl_memtable_add(fl_memtable *mt, const fl_entry *e) {
    node *prev[MAX_LEVEL];
    find_ge(mt, e, prev);
    int level = random_level(mt);
    node *n = arena_alloc(mt, sizeof(node) + (size_t)level * sizeof(node *) + e->klen + e->vlen);
    if (!n) return FL_ERR_NOMEM;
    uint8_t *k = (uint8_t *)&n->next[level];
    if (e->klen) memcpy(k, e->key, e->klen);
    if (e->vlen) memcpy(k + e->klen, e->val, e->vlen);
    n->e = *e;
    n->e.key = k;
    n->e.val = k + e->klen;
    n->level = level;
    for (int l = 0; l < level; l++) {
        n->next[l] = prev[l]->next[l];
        prev[l]->next[l] = n;
    }
    mt->bytes += e->klen + e->vlen + 24;
    mt->count++;
    return FL_OK;
}

int fl_memtable_add_rtomb(fl_memtable *mt, fl_slice s, fl_slice e, uint64_t seq) {
    int rc = fl_rtomb_list_add(&mt->rtombs, s.data, s.len, e.data, e.len, seq);
    if (rc == FL_OK) mt->bytes += s.len + e.len + 24;
    return rc;
}

size_t fl_memtable_bytes(const fl_memtable *mt) { return mt->bytes; }
bool fl_memtable_empty(const fl_memtable *mt) { return mt->count == 0 && mt->rtombs.count == 0; }
const fl_rtomb_list *fl_memtable_rtombs(fl_memtable *mt) {
    /* indexed when read, so a burst of range deletes costs one rebuild */
    if (mt->rtombs.indexed != mt->rtombs.count) fl_rtomb_list_index(&mt->rtombs);  /* NOMEM: scanned */
    return &mt->rtombs;
}

bool fl_memtable_get(const fl_memtable *mt, const uint8_t *k, size_t klen, fl_entry *out) {
    fl_entry probe = { .key = k, .klen = klen, .seq = UINT64_MAX };
    node *n = find_ge(mt, &probe, NULL);
    if (!n || fl_bytes_cmp(n->e.key, n->e.klen, k, klen) != 0) return false;
    *out = n->e;
    return true;
}

void fl_memtable_seek(const fl_memtable *mt, const uint8_t *k, size_t klen, fl_mt_iter *it) {
    it->mt = mt;
    if (!k) { it->node = mt->head->next[0]; return; }
    fl_entry probe = { .key = k, .klen = klen, .seq = UINT64_MAX };
    it->node = find_ge(mt, &probe, NULL);
}

bool fl_memtable_next(fl_mt_iter *it, fl_entry *out) {
    const node *n = it->node;
    if (!n) return false;
    *out = n->e;
    it->node = n->next[0];
    return true;
}

/* The last node before e (or, with or_equal, at e), NULL if none. */
static const node *find_last_before(const fl_memtable *mt, const fl_entry *e, bool or_equal) {
    const node *x = mt->head;
    for (int l = MAX_LEVEL - 1; l >= 0; l--)
        while (x->next[l]) {
            int c = e ? fl_entry_cmp(&x->next[l]->e, e) : -1;
            if (c > 0 || (c == 0 && !or_equal)) break;
            x = x->next[l];
        }
    return x == mt->head ? NULL : x;
}

void fl_memtable_seek_for_prev(const fl_memtable *mt, const uint8_t *k, size_t klen, fl_mt_iter *it) {
    it->mt = mt;
    /* (k, seq 0) sorts after every entry of k */
    fl_entry probe = { .key = k, .klen = klen, .seq = 0 };
    it->node = find_last_before(mt, k ? &probe : NULL, true);
}

bool fl_memtable_prev(fl_mt_iter *it, fl_entry *out) {
    const node *n = it->node;
    if (!n) return false;
    *out = n->e;
    it->node = find_last_before(it->mt, &n->e, false);
    return true;
}
