/*
 * memtable.c -- the write buffer: a skiplist of entries sorted by
 * (key asc, seq desc), its nodes, keys and values carved from an arena that
 * is freed at once, and the range tombstones kept separately.
 * Invariant: a node is reachable from level 0 exactly once, in order.
 * A search compares each node at most once (a node found not before the
 * target at one level is not compared again below), by the key heads kept
 * in the nodes first.  A get does not search: a table by key hash holds
 * each key's first node (point lookups, below).
 */
#include "engine_internal.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define MAX_LEVEL 16
#define ARENA_CHUNK (256u * 1024u)

typedef struct node {
    fl_entry e;
    uint64_t head;              /* fl_key_head(e.key) */
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
    /* each key's first node (its newest version) by the key's hash, open
     * addressing; keys: how many are in.  slot_mask 0: none (no memory:
     * gets search the list) */
    node **slots; size_t slot_mask, keys; bool no_slots;
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
    free(mt->slots);
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

/* Whether node n sorts before e (whose key's head is eh). */
static inline bool node_before(const node *n, const fl_entry *e, uint64_t eh) {
    if (n->head != eh) return n->head < eh;
    int c = fl_head_cmp(n->head, n->e.key, n->e.klen, eh, e->key, e->klen);
    return c < 0 || (c == 0 && n->e.seq > e->seq);
}

/* Fills prev[] with the last node before e at every level.  A node found
 * not before e at one level is not compared again at the levels below. */
static node *find_ge(const fl_memtable *mt, const fl_entry *e, node **prev) {
    node *x = mt->head, *stop = NULL;
    uint64_t eh = fl_key_head(e->key, e->klen);
    for (int l = MAX_LEVEL - 1; l >= 0; l--) {
        node *n;
        while ((n = x->next[l]) != NULL && n != stop && node_before(n, e, eh)) x = n;
        stop = x->next[l];
        if (prev) prev[l] = x;
    }
    return x->next[0];
}

/* ---- Point lookups ---------------------------------------------------------
 * A get wants only a key's newest version, the first of its nodes in list
 * order; a table by the key's hash (XXH3) keeps that node for every key,
 * so a get is a hash and a probe or two instead of a search of the list.
 * An added node replaces its key's when it is inserted before it (seq at
 * least as high: equal entries go in before the ones already there).  If
 * the table cannot grow it is dropped for good and gets search the list. */

static size_t key_slot(const fl_memtable *mt, const uint8_t *k, size_t klen, uint64_t kh) {
    size_t i = (size_t)XXH3_64bits(k, klen) & mt->slot_mask;
    for (node *n; (n = mt->slots[i]) != NULL; i = (i + 1) & mt->slot_mask)
        if (fl_head_eq(n->head, n->e.key, n->e.klen, kh, k, klen)) break;
    return i;
}

static void drop_slots(fl_memtable *mt) {
    free(mt->slots);
    mt->slots = NULL;
    mt->slot_mask = 0;
    mt->no_slots = true;
}

/* Notes n (just linked into the list) as its key's newest if it is. */
static void slot_add(fl_memtable *mt, node *n) {
    if (mt->no_slots) return;
    if (2 * (mt->keys + 1) > mt->slot_mask) {       /* at most half full */
        size_t cap = mt->slot_mask ? 2 * (mt->slot_mask + 1) : 1024;
        node **old = mt->slots;
        size_t old_cap = mt->slot_mask ? mt->slot_mask + 1 : 0;
        if (!(mt->slots = calloc(cap, sizeof *mt->slots))) {
            mt->slots = old;
            drop_slots(mt);
            return;
        }
        mt->slot_mask = cap - 1;
        for (size_t i = 0; i < old_cap; i++)
            if (old[i]) mt->slots[key_slot(mt, old[i]->e.key, old[i]->e.klen, old[i]->head)] = old[i];
        free(old);
    }
    size_t i = key_slot(mt, n->e.key, n->e.klen, n->head);
    node *was = mt->slots[i];
    if (!was) mt->keys++;
    if (!was || n->e.seq >= was->e.seq) mt->slots[i] = n;
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
    n->head = fl_key_head(k, e->klen);
    n->level = level;
    for (int l = 0; l < level; l++) {
        n->next[l] = prev[l]->next[l];
        prev[l]->next[l] = n;
    }
    mt->bytes += e->klen + e->vlen + 24;
    mt->count++;
    slot_add(mt, n);
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
    /* indexed when read, so a burst of range deletes costs one sweep over
     * the index (fl_rtomb_list_catch_up) */
    if (mt->rtombs.indexed != mt->rtombs.count) fl_rtomb_list_catch_up(&mt->rtombs);  /* NOMEM: scanned */
    return &mt->rtombs;
}

bool fl_memtable_get(const fl_memtable *mt, const uint8_t *k, size_t klen, fl_entry *out) {
    if (mt->slots) {
        const node *n = mt->slots[key_slot(mt, k, klen, fl_key_head(k, klen))];
        if (!n) return false;
        *out = n->e;
        return true;
    }
    fl_entry probe = { .key = k, .klen = klen, .seq = UINT64_MAX };
    node *n = find_ge(mt, &probe, NULL);
    if (!n || !fl_bytes_eq(n->e.key, n->e.klen, k, klen)) return false;
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
    uint64_t eh = e ? fl_key_head(e->key, e->klen) : 0;
    for (int l = MAX_LEVEL - 1; l >= 0; l--)
        while (x->next[l]) {
            const node *n = x->next[l];
            int c = -1;
            if (e) {
                c = fl_head_cmp(n->head, n->e.key, n->e.klen, eh, e->key, e->klen);
                if (c == 0) c = n->e.seq > e->seq ? -1 : n->e.seq < e->seq ? 1 : 0;
            }
            if (c > 0 || (c == 0 && !or_equal)) break;
            x = n;
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
