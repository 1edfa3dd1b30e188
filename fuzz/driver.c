/*
 * driver.c -- a standalone main() for the libFuzzer harnesses, so that they
 * build with any compiler and their corpora run as regression tests:
 *
 *     build/fuzz-regress/fuzz_sst fuzz/corpus/fuzz_sst fuzz/findings/fuzz_sst-*
 *
 * Every file argument, and every regular file in every directory argument
 * (not recursively, in name order), is read whole and passed once to
 * LLVMFuzzerTestOneInput.  A harness that finds a bug aborts, so reaching
 * the end means every input passed.  Prints "N inputs ran" on stdout; the
 * name of each input goes to stderr before it runs, so a crash names it.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return -1; }
    uint8_t *data = NULL;
    size_t size = 0, cap = 0, got;
    do {
        if (size == cap) {
            cap = cap ? 2 * cap : 4096;
            uint8_t *grown = realloc(data, cap);
            if (!grown) { fclose(f); free(data); fprintf(stderr, "%s: out of memory\n", path); return -1; }
            data = grown;
        }
        got = fread(data + size, 1, cap - size, f);
        size += got;
    } while (got > 0);
    int bad = ferror(f);
    fclose(f);
    if (bad) { perror(path); free(data); return -1; }
    fprintf(stderr, "Running: %s (%zu bytes)\n", path, size);
    /* A copy of exactly size bytes, so ASan sees a read past the input. */
    uint8_t *exact = malloc(size ? size : 1);
    if (!exact) { free(data); return -1; }
    if (size) memcpy(exact, data, size);
    free(data);
    LLVMFuzzerTestOneInput(exact, size);
    free(exact);
    return 0;
}

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, unsigned long *ran) {
    DIR *d = opendir(dir);
    if (!d) { perror(dir); return -1; }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(names, cap * sizeof *names);
            if (!grown) break;
            names = grown;
        }
        if (!(names[n] = strdup(e->d_name))) break;
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            if (run_file(path) != 0) rc = -1;
            else (*ran)++;
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv) {
    unsigned long ran = 0;
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) { perror(argv[i]); rc = 1; continue; }
        if (S_ISDIR(st.st_mode)) { if (run_dir(argv[i], &ran) != 0) rc = 1; }
        else if (run_file(argv[i]) != 0) rc = 1;
        else ran++;
    }
    printf("%lu inputs ran\n", ran);
    return rc;
}
