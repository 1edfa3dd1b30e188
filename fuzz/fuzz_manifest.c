/*
 * fuzz_manifest.c -- the MANIFEST reader (SPEC 2.2, engine/manifest.c):
 * crash-only.
 *
 * The input is written as MANIFEST in a private temporary directory and
 * read with fl_manifest_read.  Its last line is a checksum of the text
 * before it, which almost every mutation breaks, so when the input has a
 * "checksum " line with a wrong value, it is read a second time with the
 * checksum recomputed.
 */
#include "../engine/engine_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

static char dir[4096];

static void cleanup(void) {
    char path[4200];
    snprintf(path, sizeof path, "%s/MANIFEST", dir);
    unlink(path);
    rmdir(dir);
}

static void read_manifest(const uint8_t *data, size_t size) {
    char path[4200], err[1024];
    snprintf(path, sizeof path, "%s/MANIFEST", dir);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) abort();
    fl_manifest_data m;
    if (fl_manifest_read(dir, &m, err, sizeof err) == FL_OK) fl_manifest_data_free(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!dir[0]) {
        const char *base = getenv("TMPDIR");
        if (!base || !*base) base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(dir, sizeof dir, "%s/fuzz_manifest.XXXXXX", base);
        if (!mkdtemp(dir)) abort();
        atexit(cleanup);
    }
    read_manifest(data, size);
    /* The last line starting "checksum ", rewritten with the right value. */
    size_t at = size;
    while (at-- > 0)
        if ((at == 0 || data[at - 1] == '\n') && size - at >= 9 && memcmp(data + at, "checksum ", 9) == 0) break;
    if (at == (size_t)-1) return 0;
    char line[40];
    int n = snprintf(line, sizeof line, "checksum %016" PRIx64 "\n", (uint64_t)XXH3_64bits(data, at));
    uint8_t *fixed = malloc(at + (size_t)n);
    if (!fixed) abort();
    memcpy(fixed, data, at);
    memcpy(fixed + at, line, (size_t)n);
    if (at + (size_t)n != size || memcmp(fixed, data, size) != 0) read_manifest(fixed, at + (size_t)n);
    free(fixed);
    return 0;
}
