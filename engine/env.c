/*
 * env.c -- the posix env (the operating system's files) and the helpers
 * every env shares.  The table of operations is engine.h's fl_env_ops; the
 * memory env is env_mem.c.
 *
 * A posix fl_file is a file descriptor.  Locks are flock(2) locks, which
 * conflict between two opens in one process too (fcntl locks would not);
 * the holder writes its pid into the lock file so that a second opener can
 * name it.
 */
#include "engine_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

struct fl_file { int fd; };

static int px_err(void) { return errno ? errno : EIO; }

static int px_open(fl_env *env, const char *path, fl_open_mode mode, fl_file **out) {
    (void)env;
    *out = NULL;
    int flags = mode == FL_OPEN_READ     ? O_RDONLY
              : mode == FL_OPEN_CREATE   ? O_WRONLY | O_CREAT | O_EXCL
                                         : O_WRONLY | O_CREAT | O_TRUNC;
    fl_file *f = malloc(sizeof *f);
    if (!f) return ENOMEM;
    f->fd = open(path, flags | O_CLOEXEC, 0644);
    if (f->fd < 0) {
        int e = px_err();
        free(f);
        return e;
    }
    *out = f;
    return 0;
}

static int px_read(fl_env *env, fl_file *f, uint64_t off, void *buf, size_t n, size_t *got) {
    (void)env;
    *got = 0;
    while (*got < n) {
        ssize_t k = pread(f->fd, (uint8_t *)buf + *got, n - *got, (off_t)(off + *got));
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return px_err();
        if (k == 0) break;
        *got += (size_t)k;
    }
    return 0;
}

static int px_append(fl_env *env, fl_file *f, const void *buf, size_t n) {
    (void)env;
    const uint8_t *p = buf;
    while (n) {
        ssize_t k = write(f->fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return px_err();
        if (k == 0) return EIO;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static int px_sync(fl_env *env, fl_file *f) {
    (void)env;
    return fsync(f->fd) == 0 ? 0 : px_err();
}

static int px_size(fl_env *env, fl_file *f, uint64_t *out) {
    (void)env;
    struct stat st;
    if (fstat(f->fd, &st) != 0) return px_err();
    *out = (uint64_t)st.st_size;
    return 0;
}

static int px_close(fl_env *env, fl_file *f) {
    (void)env;
    if (!f) return 0;
    int rc = close(f->fd) == 0 ? 0 : px_err();
    free(f);
    return rc;
}

static int px_rename(fl_env *env, const char *from, const char *to) {
    (void)env;
    return rename(from, to) == 0 ? 0 : px_err();
}

static int px_remove(fl_env *env, const char *path) {
    (void)env;
    return unlink(path) == 0 ? 0 : px_err();
}

static int px_mkdir(fl_env *env, const char *path) {
    (void)env;
    return mkdir(path, 0755) == 0 ? 0 : px_err();
}

static int px_sync_dir(fl_env *env, const char *path) {
    (void)env;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return px_err();
    int rc = fsync(fd) == 0 ? 0 : px_err();
    close(fd);
    return rc;
}

static int px_list(fl_env *env, const char *dir, fl_env_name_fn fn, void *arg) {
    (void)env;
    DIR *d = opendir(dir);
    if (!d) return px_err();
    int rc = 0;
    struct dirent *de;
    errno = 0;
    while (rc == 0 && (de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
        rc = fn(arg, de->d_name);
        errno = 0;
    }
    if (rc == 0 && errno) rc = px_err();
    closedir(d);
    return rc;
}

static int px_lock(fl_env *env, const char *path, bool shared, fl_file **out, long *holder) {
    (void)env;
    *out = NULL;
    *holder = 0;
    fl_file *f = malloc(sizeof *f);
    if (!f) return ENOMEM;
    f->fd = open(path, (shared ? O_RDONLY : O_RDWR | O_CREAT) | O_CLOEXEC, 0644);
    if (f->fd < 0) {
        int e = px_err();
        free(f);
        return e;
    }
    if (flock(f->fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0) {
        int e = errno == EWOULDBLOCK ? EWOULDBLOCK : px_err();
        char pid[32] = "";
        ssize_t k = pread(f->fd, pid, sizeof pid - 1, 0);
        if (k > 0) { pid[k] = 0; *holder = strtol(pid, NULL, 10); }
        close(f->fd);
        free(f);
        return e;
    }
    if (!shared) {                        /* who holds it, for the next one */
        char pid[32];
        int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
        if (ftruncate(f->fd, 0) != 0 || pwrite(f->fd, pid, (size_t)n, 0) != n) {
            int e = px_err();
            close(f->fd);
            free(f);
            return e;
        }
    }
    *out = f;
    return 0;
}

static int px_writable(fl_env *env, const char *dir) {
    (void)env;
    return access(dir, W_OK) == 0 ? 0 : px_err();
}

static const fl_env_ops posix_ops = {
    px_open, px_read, px_append, px_sync, px_size, px_close, px_rename, px_remove, px_mkdir,
    px_sync_dir, px_list, px_lock, px_writable, NULL, NULL,
};

static fl_env posix_env = { &posix_ops, "posix" };

fl_env *fl_env_posix(void) { return &posix_env; }

void fl_env_free(fl_env *env) {
    if (env && env->ops->destroy) env->ops->destroy(env);
}

int fl_env_by_name(const char *name, fl_env **out) {
    *out = NULL;
    if (strcmp(name, "posix") == 0) {
        *out = fl_env_posix();
        return FL_OK;
    }
    if (strcmp(name, "memory") == 0) return fl_env_memory_new(out);
    return FL_ERR_INVALID;
}

/* ---- Helpers over any env ------------------------------------------------ */

int fl_env_read_file(fl_env *env, const char *path, fl_buf *out) {
    fl_file *f;
    int e = env->ops->open(env, path, FL_OPEN_READ, &f);
    if (e) return e;
    uint64_t size;
    e = env->ops->size(env, f, &size);
    if (!e && size > SIZE_MAX / 2) e = EFBIG;
    if (!e && fl_buf_reserve(out, (size_t)size) != FL_OK) e = ENOMEM;
    size_t got = 0;
    if (!e && size) e = env->ops->read(env, f, 0, out->data + out->len, (size_t)size, &got);
    if (!e) out->len += got;
    int c = env->ops->close(env, f);
    return e ? e : c;
}

int fl_env_write_file(fl_env *env, const char *path, const void *data, size_t n, bool sync) {
    fl_file *f;
    int e = env->ops->open(env, path, FL_OPEN_REPLACE, &f);
    if (e) return e;
    e = env->ops->append(env, f, data, n);
    if (!e && sync) e = env->ops->sync(env, f);
    int c = env->ops->close(env, f);
    return e ? e : c;
}
