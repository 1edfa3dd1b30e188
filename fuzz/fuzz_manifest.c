/*
 * fuzz_manifest.c -- the MANIFEST reader (SPEC 2.2, engine/manifest.c):
 * crash-only.
 *
 * The input is written as MANIFEST in a private temporary directory that
 * holds nothing else, and the directory is opened as a database with
 * fl_db_open (engine.h), whose first step is reading the MANIFEST: this is
 * how a user's bytes reach the reader, and the only public way to.  A
 * MANIFEST that parses and names no SST opens an empty database, which is
 * closed again; one that names SSTs fails when opening the first of them
 * (there are none), after the whole MANIFEST was read.  Errors are fine;
 * crashes, sanitizer reports, leaks and hangs are not.
 *
 * Its last line is a checksum of the text before it, which almost every
 * mutation breaks, so when the input has a "checksum " line with a wrong
 * value, it is opened a second time with the checksum recomputed.
 */
#include "../engine/engine.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

static char dir[4096];
static fl_registry *reg;
static fl_options opt;

static void cleanup(void) {
    char path[4200];
    snprintf(path, sizeof path, "%s/MANIFEST", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/MANIFEST.tmp", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/LOCK", dir);
    unlink(path);
    rmdir(dir);
}

static void setup(void) {
    const char *base = getenv("TMPDIR");
    if (!base || !*base) base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(dir, sizeof dir, "%s/fuzz_manifest.XXXXXX", base);
    char err[512];
    if (!mkdtemp(dir) || fl_registry_new(&reg) != FL_OK) abort();
    atexit(cleanup);
    /* No policy to build per input, no fsync: only the MANIFEST matters. */
    fl_options_init(&opt);
    if (fl_options_set(&opt, "policies", "none", err, sizeof err) != FL_OK) abort();
    opt.sync = false;
}

static void open_manifest(const uint8_t *data, size_t size) {
    char path[4200], err[1024];
    snprintf(path, sizeof path, "%s/MANIFEST", dir);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) abort();
    fl_db *db;
    if (fl_db_open(dir, reg, &opt, &db, err, sizeof err) == FL_OK) fl_db_close(db, NULL, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!dir[0]) setup();
    open_manifest(data, size);
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
    if (at + (size_t)n != size || memcmp(fixed, data, size) != 0) open_manifest(fixed, at + (size_t)n);
    free(fixed);
    return 0;
}
