/*
 * sys.c -- the few system helpers every command shares, each in one
 * place: a monotonic clock, mkdir -p, removing a directory tree, the
 * splitmix64 generator behind every seeded stream, and shell quoting for
 * the commands printed with a finding.
 */
#include "check.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

double fl_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int io_all(int fd, void *data, size_t len, bool writing) {
    char *p = data;
    while (len) {
        ssize_t n = writing ? write(fd, p, len) : read(fd, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int fl_write_all(int fd, const void *data, size_t len) { return io_all(fd, (void *)data, len, true); }
int fl_read_all(int fd, void *data, size_t len) { return io_all(fd, data, len, false); }

int fl_mkdir_p(const char *path) {
    char buf[PATH_MAX];
    struct stat st;
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
    if (stat(buf, &st) != 0) return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb; (void)flag; (void)ftw;
    return remove(path);
}

int fl_remove_tree(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) return errno == ENOENT ? 0 : -1;
    return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

uint64_t fl_mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t fl_splitmix64(uint64_t *state) { return fl_mix64(*state += 0x9E3779B97F4A7C15ull); }

/* ---- Shell quoting ---------------------------------------------------------- */

/* One shell word: bare when every byte is safe, else '...' (each ' as
 * '\''), or $'...' with \xNN escapes when a byte is not printable ASCII. */
void fl_shell_print_word(FILE *f, const char *word) {
    static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,+@%";
    bool bare = *word != 0, printable = true;
    for (const unsigned char *p = (const unsigned char *)word; *p; p++) {
        if (!strchr(safe, *p)) bare = false;
        if (*p < 0x20 || *p > 0x7e) printable = false;
    }
    if (bare) {
        fputs(word, f);
    } else if (printable) {
        fputc('\'', f);
        for (const char *p = word; *p; p++) {
            if (*p == '\'') fputs("'\\''", f);
            else fputc(*p, f);
        }
        fputc('\'', f);
    } else {
        fputs("$'", f);
        for (const unsigned char *p = (const unsigned char *)word; *p; p++) {
            if (*p == '\'' || *p == '\\') fprintf(f, "\\%c", *p);
            else if (*p < 0x20 || *p > 0x7e) fprintf(f, "\\x%02x", *p);
            else fputc(*p, f);
        }
        fputc('\'', f);
    }
}

void fl_shell_append_word(char *buf, size_t cap, const char *word) {
    size_t used = strnlen(buf, cap);
    if (used + 1 >= cap) return;
    FILE *f = fmemopen(buf + used, cap - used, "w");
    if (!f) return;
    if (used) fputc(' ', f);
    fl_shell_print_word(f, word);
    fclose(f);                        /* NUL-terminates, truncating if need be */
}

void fl_shell_append_flag(char *buf, size_t cap, const char *flag, const char *value) {
    fl_shell_append_word(buf, cap, flag);
    fl_shell_append_word(buf, cap, value);
}
