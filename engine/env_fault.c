/*
 * env_fault.c -- the fault env (engine.h's fl_env_fault_new): wraps another
 * env, numbers and records every operation that changes files (create,
 * write, sync, rename, remove, mkdir, directory sync), can make any chosen
 * one fail with an errno, and can simulate a crash: everything not yet
 * durable is undone on the base env.
 *
 * What is durable is the strict model of a POSIX file system after power
 * loss: a file's bytes up to its last fsync; a name (a create, a rename, a
 * remove) only once its directory was fsynced after it.  So a crash undoes,
 * newest first, every name change since its directory's last sync (a
 * created file disappears, a rename goes back and the file it replaced
 * comes back, a removed file comes back), then cuts every file still named
 * back to the bytes it had at its last fsync.  To undo on any base env, the
 * fault env keeps what it needs: the bytes of a file replaced by a rename or
 * removed, until its directory is synced.
 *
 * After crash_after(n), the n-th recorded operation is the last that
 * happens: every later operation fails with EIO and changes nothing (the
 * process is dead), until fl_env_fault_crash reverts and revives.
 */
#include "engine_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fl_file {
    fl_file *base;
    char    *path;
    bool     writer;
};

/* A file written through this env: how much of it is durable. */
typedef struct tracked {
    char    *path;
    uint64_t size, synced;
} tracked;

/* A name change not yet made durable by a directory sync. */
typedef struct pending {
    enum { P_CREATE, P_RENAME, P_REMOVE } kind;
    char  *path, *from;          /* the name now; a rename's old name        */
    char  *dir;                  /* the directory whose sync makes it durable */
    fl_buf saved;                /* a removed or replaced file's bytes        */
    bool   had_saved;
    uint64_t saved_synced;       /* ... and how much of them were durable     */
} pending;

typedef struct fault_env {
    fl_env   base_env;           /* Base class. Must be first */
    fl_env  *base;
    uint64_t ops;                /* operations recorded                       */
    uint64_t fail_at;  int fail_errno;    /* 0: none                          */
    uint64_t crash_at;           /* 0: none                                   */
    bool     dead;
    tracked *files; size_t nfiles, capfiles;
    pending *pend;  size_t npend, cappend;
    fl_buf   log;                /* one line per operation                    */
    char     ignore_sync[64];    /* fsyncs of files ending so make nothing
                                    durable ("" none): a careless engine     */
} fault_env;

static char *dir_of(const char *path) {
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 1;
    char *d = malloc(n + 1);
    if (!d) return NULL;
    if (slash) memcpy(d, path, n);
    else d[0] = '.';
    d[n] = 0;
    return d;
}

static tracked *find_tracked(fault_env *f, const char *path) {
    for (size_t i = 0; i < f->nfiles; i++)
        if (strcmp(f->files[i].path, path) == 0) return &f->files[i];
    return NULL;
}

static tracked *track(fault_env *f, const char *path) {
    tracked *t = find_tracked(f, path);
    if (t) return t;
    if (f->nfiles == f->capfiles) {
        size_t cap = f->capfiles ? 2 * f->capfiles : 16;
        tracked *n = realloc(f->files, cap * sizeof *n);
        if (!n) return NULL;
        f->files = n;
        f->capfiles = cap;
    }
    t = &f->files[f->nfiles];
    memset(t, 0, sizeof *t);
    if (!(t->path = strdup(path))) return NULL;
    f->nfiles++;
    return t;
}

static void untrack(fault_env *f, const char *path) {
    tracked *t = find_tracked(f, path);
    if (!t) return;
    free(t->path);
    *t = f->files[--f->nfiles];
}

static void pending_free(pending *p) {
    free(p->path);
    free(p->from);
    free(p->dir);
    fl_buf_free(&p->saved);
}

static pending *add_pending(fault_env *f, int kind, const char *path, const char *from) {
    if (f->npend == f->cappend) {
        size_t cap = f->cappend ? 2 * f->cappend : 16;
        pending *n = realloc(f->pend, cap * sizeof *n);
        if (!n) return NULL;
        f->pend = n;
        f->cappend = cap;
    }
    pending *p = &f->pend[f->npend];
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->path = strdup(path);
    p->from = from ? strdup(from) : NULL;
    p->dir = dir_of(path);
    fl_buf_init(&p->saved);
    if (!p->path || !p->dir || (from && !p->from)) {
        pending_free(p);
        return NULL;
    }
    f->npend++;
    return p;
}

/* Records the operation; the error it must fail with (the injected one, or
 * EIO when the process is dead), or 0 to go ahead. */
static int step(fault_env *f, const char *what, const char *path) {
    if (f->dead) return EIO;
    f->ops++;
    char line[4200];
    int n = snprintf(line, sizeof line, "%llu %s %s\n", (unsigned long long)f->ops, what, path);
    if (n > 0) fl_buf_append(&f->log, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    if (f->fail_at == f->ops) return f->fail_errno;
    return 0;
}

/* After an operation that happened: the crash point may be now. */
static void after(fault_env *f) {
    if (f->crash_at && f->ops >= f->crash_at) f->dead = true;
}

/* ---- The operations ------------------------------------------------------ */

static int ft_open(fl_env *env, const char *path, fl_open_mode mode, fl_file **out) {
    fault_env *f = (fault_env *)env;
    *out = NULL;
    if (mode == FL_OPEN_READ && f->dead) return EIO;
    bool existed = false;
    if (mode != FL_OPEN_READ) {
        fl_file *probe;
        existed = f->base->ops->open(f->base, path, FL_OPEN_READ, &probe) == 0;
        if (existed) f->base->ops->close(f->base, probe);
        int e = step(f, mode == FL_OPEN_CREATE ? "create" : "replace", path);
        if (e) return e;
    }
    fl_file *h = calloc(1, sizeof *h);
    if (!h || !(h->path = strdup(path))) {
        free(h);
        return ENOMEM;
    }
    int e = f->base->ops->open(f->base, path, mode, &h->base);
    if (e) {
        free(h->path);
        free(h);
        return e;
    }
    h->writer = mode != FL_OPEN_READ;
    if (h->writer) {
        tracked *t = track(f, path);
        if (t) t->size = t->synced = 0;               /* new or truncated */
        if (!existed) add_pending(f, P_CREATE, path, NULL);
        after(f);
    }
    *out = h;
    return 0;
}

static int ft_read(fl_env *env, fl_file *h, uint64_t off, void *buf, size_t n, size_t *got) {
    fault_env *f = (fault_env *)env;
    *got = 0;
    if (f->dead) return EIO;
    return f->base->ops->read(f->base, h->base, off, buf, n, got);
}

static int ft_view(fl_env *env, fl_file *h, uint64_t off, size_t n, const void **out, size_t *got) {
    fault_env *f = (fault_env *)env;
    *out = NULL;
    *got = 0;
    if (f->dead) return EIO;
    if (!f->base->ops->view) return ENOTSUP;
    return f->base->ops->view(f->base, h->base, off, n, out, got);
}

static int ft_append(fl_env *env, fl_file *h, const void *buf, size_t n) {
    fault_env *f = (fault_env *)env;
    int e = step(f, "write", h->path);
    if (e) return e;
    e = f->base->ops->append(f->base, h->base, buf, n);
    tracked *t = find_tracked(f, h->path);
    if (!e && t) t->size += n;
    after(f);
    return e;
}

static int ft_sync(fl_env *env, fl_file *h) {
    fault_env *f = (fault_env *)env;
    int e = step(f, "fsync", h->path);
    if (e) return e;
    e = f->base->ops->sync(f->base, h->base);
    tracked *t = find_tracked(f, h->path);
    size_t pl = strlen(h->path), sl = strlen(f->ignore_sync);
    bool ignored = sl && pl >= sl && strcmp(h->path + pl - sl, f->ignore_sync) == 0;
    if (!e && t && !ignored) t->synced = t->size;
    after(f);
    return e;
}

static int ft_size(fl_env *env, fl_file *h, uint64_t *out) {
    fault_env *f = (fault_env *)env;
    if (f->dead) return EIO;
    return f->base->ops->size(f->base, h->base, out);
}

static int ft_close(fl_env *env, fl_file *h) {
    fault_env *f = (fault_env *)env;
    if (!h) return 0;
    int e = f->base->ops->close(f->base, h->base);
    free(h->path);
    free(h);
    return e;
}

/* The bytes of path, and how much of them is durable, kept for an undo. */
static void save(fault_env *f, pending *p, const char *path) {
    if (fl_env_read_file(f->base, path, &p->saved) != 0) return;
    p->had_saved = true;
    tracked *t = find_tracked(f, path);
    p->saved_synced = t ? t->synced : p->saved.len;
}

static int ft_rename(fl_env *env, const char *from, const char *to) {
    fault_env *f = (fault_env *)env;
    int e = step(f, "rename", to);
    if (e) return e;
    pending *p = add_pending(f, P_RENAME, to, from);
    if (p) save(f, p, to);
    e = f->base->ops->rename(f->base, from, to);
    if (e) {
        if (p) pending_free(&f->pend[--f->npend]);
    } else {
        untrack(f, to);
        tracked *t = find_tracked(f, from);
        if (t) {
            free(t->path);
            t->path = strdup(to);
        }
    }
    after(f);
    return e;
}

static int ft_remove(fl_env *env, const char *path) {
    fault_env *f = (fault_env *)env;
    int e = step(f, "remove", path);
    if (e) return e;
    pending *p = add_pending(f, P_REMOVE, path, NULL);
    if (p) save(f, p, path);
    e = f->base->ops->remove(f->base, path);
    if (e && p) pending_free(&f->pend[--f->npend]);
    if (!e) untrack(f, path);
    after(f);
    return e;
}

static int ft_mkdir(fl_env *env, const char *path) {
    fault_env *f = (fault_env *)env;
    if (f->dead) return EIO;
    return f->base->ops->mkdir(f->base, path);       /* (durable at once) */
}

/* Makes durable every name change in dir so far. */
static int ft_sync_dir(fl_env *env, const char *path) {
    fault_env *f = (fault_env *)env;
    int e = step(f, "fsync-dir", path);
    if (e) return e;
    e = f->base->ops->sync_dir(f->base, path);
    if (!e) {
        size_t k = 0;
        for (size_t i = 0; i < f->npend; i++) {
            if (strcmp(f->pend[i].dir, path) == 0) pending_free(&f->pend[i]);
            else f->pend[k++] = f->pend[i];
        }
        f->npend = k;
    }
    after(f);
    return e;
}

static int ft_list(fl_env *env, const char *dir, fl_env_name_fn fn, void *arg) {
    fault_env *f = (fault_env *)env;
    if (f->dead) return EIO;
    return f->base->ops->list(f->base, dir, fn, arg);
}

static int ft_lock(fl_env *env, const char *path, bool shared, fl_file **out, long *holder) {
    fault_env *f = (fault_env *)env;
    *out = NULL;
    *holder = 0;
    if (f->dead) return EIO;
    fl_file *h = calloc(1, sizeof *h);
    if (!h || !(h->path = strdup(path))) {
        free(h);
        return ENOMEM;
    }
    int e = f->base->ops->lock(f->base, path, shared, &h->base, holder);
    if (e) {
        free(h->path);
        free(h);
        return e;
    }
    *out = h;
    return 0;
}

static int ft_writable(fl_env *env, const char *dir) {
    fault_env *f = (fault_env *)env;
    return f->base->ops->writable(f->base, dir);
}

static void ft_destroy(fl_env *env) {
    fault_env *f = (fault_env *)env;
    for (size_t i = 0; i < f->nfiles; i++) free(f->files[i].path);
    free(f->files);
    for (size_t i = 0; i < f->npend; i++) pending_free(&f->pend[i]);
    free(f->pend);
    fl_buf_free(&f->log);
    free(f);
}

static const fl_env_ops fault_ops = {
    ft_open, ft_read, ft_append, ft_sync, ft_size, ft_close, ft_rename, ft_remove, ft_mkdir,
    ft_sync_dir, ft_list, ft_lock, ft_writable, ft_destroy, ft_view,
};

int fl_env_fault_new(fl_env *base, fl_env **out) {
    fault_env *f = calloc(1, sizeof *f);
    if (!f) return FL_ERR_NOMEM;
    f->base_env.ops = &fault_ops;
    f->base_env.name = "fault";
    f->base = base;
    fl_buf_init(&f->log);
    *out = &f->base_env;
    return FL_OK;
}

static fault_env *as_fault(fl_env *env) { return env && env->ops == &fault_ops ? (fault_env *)env : NULL; }

uint64_t fl_env_fault_ops(fl_env *env) {
    fault_env *f = as_fault(env);
    return f ? f->ops : 0;
}

const char *fl_env_fault_log(fl_env *env) {
    fault_env *f = as_fault(env);
    if (!f || fl_buf_put_u8(&f->log, 0) != FL_OK) return "";
    f->log.len--;                                  /* the NUL stays past len */
    return (const char *)f->log.data;
}

void fl_env_fault_fail_at(fl_env *env, uint64_t op, int errno_value) {
    fault_env *f = as_fault(env);
    if (!f) return;
    f->fail_at = op;
    f->fail_errno = errno_value;
}

void fl_env_fault_ignore_sync(fl_env *env, const char *suffix) {
    fault_env *f = as_fault(env);
    if (f) snprintf(f->ignore_sync, sizeof f->ignore_sync, "%s", suffix ? suffix : "");
}

void fl_env_fault_crash_after(fl_env *env, uint64_t op) {
    fault_env *f = as_fault(env);
    if (f) f->crash_at = op;
}

bool fl_env_fault_dead(fl_env *env) {
    fault_env *f = as_fault(env);
    return f && f->dead;
}

/* Cuts path back to its first keep bytes (by rewriting it). */
static int cut(fl_env *base, const char *path, uint64_t keep) {
    fl_buf b;
    fl_buf_init(&b);
    int e = fl_env_read_file(base, path, &b);
    if (!e && keep < b.len) e = fl_env_write_file(base, path, b.data, (size_t)keep, true);
    fl_buf_free(&b);
    return e;
}

int fl_env_fault_crash(fl_env *env) {
    fault_env *f = as_fault(env);
    if (!f) return EINVAL;
    fl_env *b = f->base;
    int first = 0, e;
    for (size_t i = f->npend; i-- > 0;) {            /* newest first */
        pending *p = &f->pend[i];
        e = 0;
        if (p->kind == P_CREATE) {
            e = b->ops->remove(b, p->path);
            if (e == ENOENT) e = 0;
            untrack(f, p->path);
        } else if (p->kind == P_RENAME) {
            e = b->ops->rename(b, p->path, p->from);
            tracked *t = find_tracked(f, p->path);
            if (t) { free(t->path); t->path = strdup(p->from); }
        }
        if (!e && p->kind != P_CREATE && p->had_saved) {
            e = fl_env_write_file(b, p->path, p->saved.data, (size_t)p->saved_synced, true);
            untrack(f, p->path);
        }
        if (e && !first) first = e;
        pending_free(p);
    }
    f->npend = 0;
    for (size_t i = 0; i < f->nfiles; i++) {
        tracked *t = &f->files[i];
        if (t->path && t->synced < t->size && (e = cut(b, t->path, t->synced)) && e != ENOENT && !first)
            first = e;
        free(t->path);
    }
    f->nfiles = 0;
    f->dead = false;
    f->crash_at = 0;
    f->fail_at = 0;
    return first;
}
