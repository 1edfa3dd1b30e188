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

double fl_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

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

static bool plain_word(const char *s) {
    if (!*s) return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              strchr("_-./:=,+@%", *s)))
            return false;
    return true;
}

void fl_shell_append_word(char *buf, size_t cap, const char *word) {
    size_t used = strlen(buf);
    if (used && used + 1 < cap) { buf[used++] = ' '; buf[used] = 0; }
    if (plain_word(word)) {
        snprintf(buf + used, cap - used, "%s", word);
        return;
    }
    /* 'it'\''s': single quotes, each ' as '\'' */
    if (used + 1 >= cap) return;
    buf[used++] = '\'';
    for (const char *p = word; *p && used + 5 < cap; p++) {
        if (*p == '\'') { memcpy(buf + used, "'\\''", 4); used += 4; }
        else buf[used++] = *p;
    }
    if (used + 1 < cap) buf[used++] = '\'';
    buf[used] = 0;
}

void fl_shell_append_flag(char *buf, size_t cap, const char *flag, const char *value) {
    fl_shell_append_word(buf, cap, flag);
    fl_shell_append_word(buf, cap, value);
}

