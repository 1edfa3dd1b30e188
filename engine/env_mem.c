/*
 * env_mem.c -- the memory env: a private file system in RAM (engine.h's
 * fl_env_memory_new).  Check trials, the ops fuzzer and tests run on it:
 * no disk, no fsync, nothing left behind when it is freed.
 *
 * A file is a node: its bytes and a count of references (its name, if it
 * has one, and each open handle), so that a file removed while open stays
 * readable through the handle until it is closed, as on POSIX.  Names sit
 * in one table searched linearly (a database holds tens to thousands of
 * files; lookups happen at open, rename and remove, never per read).
 * Directories are names too, recorded by mkdir; a file's directory need
 * not have been made, but one that was can be made read-only
 * (fl_env_memory_set_read_only): then nothing can be created, renamed or
 * removed in it, as in a directory without write permission.  Locks are
 * per node: any number of shared holders or
 * one exclusive, each a handle (the holder's pid is this process's).
 */
#include "engine_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct mem_node {
    char    *path;               /* NULL once removed                        */
    bool     dir;
    bool     read_only;          /* a dir whose names cannot change          */
    fl_buf   data;
    size_t   refs;               /* the name + open handles                  */
    unsigned shared;             /* lock holders                             */
    bool     exclusive;
} mem_node;

struct fl_file {
    mem_node *node;
    bool      writer;
    int       lock;              /* 0 none, 1 shared, 2 exclusive            */
};

typedef struct mem_env {
    fl_env     base;             /* Base class. Must be first */
    mem_node **nodes;            /* the named ones                           */
    size_t     count, cap;
} mem_env;

static mem_node **find(mem_env *m, const char *path) {
    for (size_t i = 0; i < m->count; i++)
        if (strcmp(m->nodes[i]->path, path) == 0) return &m->nodes[i];
    return NULL;
}

/* EACCES when path's directory is a read-only one, else 0. */
static int parent_locked(mem_env *m, const char *path) {
    const char *slash = strrchr(path, '/');
    if (!slash) return 0;
    size_t n = (size_t)(slash - path);
    for (size_t i = 0; i < m->count; i++) {
        const mem_node *d = m->nodes[i];
        if (d->dir && d->read_only && strlen(d->path) == n && memcmp(d->path, path, n) == 0) return EACCES;
    }
    return 0;
}

static void unref(mem_node *n) {
    if (--n->refs) return;
    fl_buf_free(&n->data);
    free(n->path);
    free(n);
}

/* Takes the name away from the table (the node lives on while open). */
static void unlink_at(mem_env *m, mem_node **slot) {
    mem_node *n = *slot;
    *slot = m->nodes[--m->count];
    free(n->path);
    n->path = NULL;
    unref(n);
}

static int add(mem_env *m, const char *path, bool dir, mem_node **out) {
    if (m->count == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 16;
        mem_node **nodes = realloc(m->nodes, cap * sizeof *nodes);
        if (!nodes) return ENOMEM;
        m->nodes = nodes;
        m->cap = cap;
    }
    mem_node *n = calloc(1, sizeof *n);
    if (!n || !(n->path = strdup(path))) {
        free(n);
        return ENOMEM;
    }
    n->dir = dir;
    n->refs = 1;
    fl_buf_init(&n->data);
    m->nodes[m->count++] = n;
    *out = n;
    return 0;
}

static int handle(mem_node *n, bool writer, fl_file **out) {
    fl_file *f = calloc(1, sizeof *f);
    if (!f) return ENOMEM;
    f->node = n;
    f->writer = writer;
    n->refs++;
    *out = f;
    return 0;
}

static int mem_open(fl_env *env, const char *path, fl_open_mode mode, fl_file **out) {
    mem_env *m = (mem_env *)env;
    *out = NULL;
    mem_node **slot = find(m, path), *n;
    if (slot && (*slot)->dir) return EISDIR;
    if (mode == FL_OPEN_READ) {
        if (!slot) return ENOENT;
        return handle(*slot, false, out);
    }
    if (slot && mode == FL_OPEN_CREATE) return EEXIST;
    if (parent_locked(m, path)) return EACCES;
    if (slot) {
        n = *slot;
        fl_buf_reset(&n->data);
    } else {
        int e = add(m, path, false, &n);
        if (e) return e;
    }
    return handle(n, true, out);
}

static int mem_read(fl_env *env, fl_file *f, uint64_t off, void *buf, size_t n, size_t *got) {
    (void)env;
    const fl_buf *d = &f->node->data;
    *got = 0;
    if (off >= d->len) return 0;
    size_t k = d->len - (size_t)off < n ? d->len - (size_t)off : n;
    if (k) memcpy(buf, d->data + off, k);
    *got = k;
    return 0;
}

/* The node's bytes stay where they are until an append grows them. */
static int mem_view(fl_env *env, fl_file *f, uint64_t off, size_t n, const void **out, size_t *got) {
    (void)env;
    const fl_buf *d = &f->node->data;
    *out = NULL;
    *got = 0;
    if (off >= d->len) return 0;
    *out = d->data + off;
    *got = d->len - (size_t)off < n ? d->len - (size_t)off : n;
    return 0;
}

static int mem_append(fl_env *env, fl_file *f, const void *buf, size_t n) {
    (void)env;
    if (!f->writer) return EBADF;
    return fl_buf_append(&f->node->data, buf, n) == FL_OK ? 0 : ENOMEM;
}

static int mem_sync(fl_env *env, fl_file *f) {
    (void)env;
    (void)f;
    return 0;
}

static int mem_size(fl_env *env, fl_file *f, uint64_t *out) {
    (void)env;
    *out = f->node->data.len;
    return 0;
}

static int mem_close(fl_env *env, fl_file *f) {
    (void)env;
    if (!f) return 0;
    if (f->lock == 1) f->node->shared--;
    if (f->lock == 2) f->node->exclusive = false;
    unref(f->node);
    free(f);
    return 0;
}

static int mem_rename(fl_env *env, const char *from, const char *to) {
    mem_env *m = (mem_env *)env;
    mem_node **src = find(m, from);
    if (!src) return ENOENT;
    if (strcmp(from, to) == 0) return 0;
    if (parent_locked(m, from) || parent_locked(m, to)) return EACCES;
    char *name = strdup(to);
    if (!name) return ENOMEM;
    mem_node *n = *src;
    mem_node **dst = find(m, to);
    if (dst) {
        if ((*dst)->dir != n->dir) {
            free(name);
            return (*dst)->dir ? EISDIR : ENOTDIR;
        }
        unlink_at(m, dst);                   /* (may move n's slot: n kept) */
    }
    free(n->path);
    n->path = name;
    return 0;
}

static int mem_remove(fl_env *env, const char *path) {
    mem_env *m = (mem_env *)env;
    mem_node **slot = find(m, path);
    if (!slot) return ENOENT;
    if ((*slot)->dir) return EISDIR;
    if (parent_locked(m, path)) return EACCES;
    unlink_at(m, slot);
    return 0;
}

static int mem_mkdir(fl_env *env, const char *path) {
    mem_env *m = (mem_env *)env;
    if (find(m, path)) return EEXIST;
    if (parent_locked(m, path)) return EACCES;
    mem_node *n;
    return add(m, path, true, &n);
}

static int mem_sync_dir(fl_env *env, const char *path) {
    mem_env *m = (mem_env *)env;
    mem_node **slot = find(m, path);
    return slot && (*slot)->dir ? 0 : ENOENT;
}

/* The names directly in dir; a snapshot, so fn may remove them. */
static int mem_list(fl_env *env, const char *dir, fl_env_name_fn fn, void *arg) {
    mem_env *m = (mem_env *)env;
    mem_node **slot = find(m, dir);
    if (!slot) return ENOENT;
    if (!(*slot)->dir) return ENOTDIR;
    size_t dl = strlen(dir), k = 0;
    char **names = malloc((m->count ? m->count : 1) * sizeof *names);
    if (!names) return ENOMEM;
    int rc = 0;
    for (size_t i = 0; i < m->count && !rc; i++) {
        const char *p = m->nodes[i]->path;
        if (strncmp(p, dir, dl) != 0 || p[dl] != '/' || !p[dl + 1] || strchr(p + dl + 1, '/')) continue;
        if (!(names[k] = strdup(p + dl + 1))) rc = ENOMEM;
        else k++;
    }
    for (size_t i = 0; i < k; i++) {
        if (!rc) rc = fn(arg, names[i]);
        free(names[i]);
    }
    free(names);
    return rc;
}

static int mem_lock(fl_env *env, const char *path, bool shared, fl_file **out, long *holder) {
    mem_env *m = (mem_env *)env;
    *out = NULL;
    *holder = 0;
    mem_node **slot = find(m, path), *n;
    if (slot) n = *slot;
    else if (shared) return ENOENT;
    else if (parent_locked(m, path)) return EACCES;
    else {
        int e = add(m, path, false, &n);
        if (e) return e;
    }
    if (n->dir) return EISDIR;
    if (n->exclusive || (!shared && n->shared)) {
        *holder = (long)getpid();
        return EWOULDBLOCK;
    }
    int e = handle(n, false, out);
    if (e) return e;
    (*out)->lock = shared ? 1 : 2;
    if (shared) n->shared++;
    else n->exclusive = true;
    return 0;
}

static const fl_env_ops mem_ops;

static int mem_writable(fl_env *env, const char *dir) {
    mem_node **slot = find((mem_env *)env, dir);
    return slot && (*slot)->dir && (*slot)->read_only ? EACCES : 0;
}

int fl_env_memory_set_read_only(fl_env *env, const char *dir, bool read_only) {
    if (!env || env->ops != &mem_ops) return EINVAL;
    mem_node **slot = find((mem_env *)env, dir);
    if (!slot) return ENOENT;
    if (!(*slot)->dir) return ENOTDIR;
    (*slot)->read_only = read_only;
    return 0;
}

static void mem_destroy(fl_env *env) {
    mem_env *m = (mem_env *)env;
    while (m->count) unlink_at(m, &m->nodes[m->count - 1]);
    free(m->nodes);
    free(m);
}

static const fl_env_ops mem_ops = {
    mem_open, mem_read, mem_append, mem_sync, mem_size, mem_close, mem_rename, mem_remove,
    mem_mkdir, mem_sync_dir, mem_list, mem_lock, mem_writable, mem_destroy, mem_view,
};

int fl_env_memory_new(fl_env **out) {
    mem_env *m = calloc(1, sizeof *m);
    if (!m) return FL_ERR_NOMEM;
    m->base.ops = &mem_ops;
    m->base.name = "memory";
    *out = &m->base;
    return FL_OK;
}
