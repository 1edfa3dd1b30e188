/*
 * fuzz_sst.c -- the SST reader (SPEC 2.6): crash-only.
 *
 * The input is an SST file, read the way a user's bytes are read: through
 * a database.  Once per process the engine itself makes a database in a
 * private temporary directory (fl_db_open, one put, a flush) whose
 * MANIFEST names one SST.  For each input, that SST file is replaced by
 * the input, and the database is opened against three bloom policies --
 * which reads the footer, the info, range-tombstone and filter blocks and
 * decodes the sub-filters -- then read with the public API (engine.h):
 * its filter block as stored (fl_db_sst_filter_block) split into
 * sub-filters, its range tombstones, every entry from the data blocks
 * (fl_db_sst_entries), and gets, prefix scans and scans of its smallest
 * and largest keys, of a few stored keys and of "" and "\xff\xff\xff",
 * which probe the sub-filters and seek through the index.  Nothing is
 * written to the database, so closing it rewrites the MANIFEST with the
 * same tree (that one SST, the same next ids): every input meets the same
 * MANIFEST.  Errors are fine; crashes, sanitizer reports, leaks and hangs
 * are not.
 *
 * A mutation almost always breaks a block checksum, which would keep the
 * fuzzer out of every decoder behind one.  So when blocks the input names
 * (fl_sst_file_blocks: info, range tombstones, index, filter, data) have
 * wrong checksums, the file is opened once as it is and once with them
 * recomputed.  The block walk is itself a decoder of the input (footer,
 * info block, index), fuzzed here too.
 */
#include "../engine/engine.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_ENTRIES 4096
#define SCAN_RESULTS 3
#define POLICIES "bloom;bloom(bits=4,whole_key=0,prefix=fixed:2);bloom(prefix=delim::)"

static char dir[4096], sst_path[4200];
static uint64_t sst_id;
static fl_registry *reg;
static fl_options opt;
static fl_calls *calls;              /* quiet: refusing bad bytes is reported */

/* Built-in policies refusing corrupt bytes are reported as violations: quiet. */
static void quiet(void *arg, const fl_contract_violation *v) { (void)arg; (void)v; }

static void write_file(const char *path, const uint8_t *data, size_t size) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size || close(fd) != 0) abort();
}

static void cleanup(void) {
    char path[4200];
    unlink(sst_path);
    snprintf(path, sizeof path, "%s/MANIFEST", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/MANIFEST.tmp", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/LOCK", dir);
    unlink(path);
    rmdir(dir);
}

/* The database the inputs are read through, made by the engine. */
static void setup(void) {
    const char *base = getenv("TMPDIR");
    if (!base || !*base) base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(dir, sizeof dir, "%s/fuzz_sst.XXXXXX", base);
    char err[1024];
    if (!mkdtemp(dir) || fl_registry_new(&reg) != FL_OK || fl_calls_new(reg, &calls) != FL_OK)
        abort();
    atexit(cleanup);
    fl_calls_set_sink(calls, quiet, NULL);
    fl_options_init(&opt);
    /* Reads only: no compactor policies to make at every open, no fsync. */
    if (fl_options_set(&opt, "policies", POLICIES, err, sizeof err) != FL_OK ||
        fl_options_set(&opt, "compactor", "none", err, sizeof err) != FL_OK)
        abort();
    opt.sync = false;
    opt.calls = calls;
    fl_db *db;
    fl_sst_meta *meta;
    size_t n;
    if (fl_db_open(dir, reg, &opt, &db, err, sizeof err) != FL_OK ||
        fl_db_put(db, (fl_slice){ (const uint8_t *)"k", 1 }, (fl_slice){ (const uint8_t *)"v", 1 }) ||
        fl_db_flush(db) || fl_db_ssts(db, &meta, &n) || n != 1)
        abort();
    sst_id = meta[0].id;
    fl_sst_meta_free(meta, n);
    if (fl_db_close(db, err, sizeof err) != FL_OK) abort();
    snprintf(sst_path, sizeof sst_path, "%s/%06llu.sst", dir, (unsigned long long)sst_id);
}

/* ---- Reading the SST through the database --------------------------------- */

static int stop_after(void *arg, fl_slice key, fl_slice value) {
    (void)key;
    (void)value;
    return ++*(int *)arg >= SCAN_RESULTS;
}

/* A get, a prefix scan and a scan from key: filters, index, data. */
static void read_key(fl_db *db, const uint8_t *k, size_t klen) {
    fl_slice key = { k, klen };
    fl_buf value;
    bool found;
    int seen = 0;
    fl_buf_init(&value);
    fl_db_get(db, key, NULL, &value, &found);
    fl_buf_free(&value);
    fl_db_scan_prefix(db, key, NULL, stop_after, &seen);
    seen = 0;
    fl_db_scan(db, key, (fl_slice){ (const uint8_t *)"\xff\xff\xff\xff", 4 }, stop_after, &seen);
}

typedef struct sampled { int seen; uint8_t keys[4][16]; size_t lens[4], count; } sampled;

/* Every entry, keeping a few keys (the first among them) to read after. */
static int sample(void *arg, const fl_row_entry *e) {
    sampled *s = arg;
    if (s->seen % 7 == 0 && s->count < 4) {
        s->lens[s->count] = e->key.len < 16 ? e->key.len : 16;
        memcpy(s->keys[s->count], e->key.data, s->lens[s->count]);
        s->count++;
    }
    return ++s->seen >= MAX_ENTRIES;
}

static int count_rtomb(void *arg, fl_slice start, fl_slice end, uint64_t seq) {
    (void)start;
    (void)end;
    (void)seq;
    ++*(size_t *)arg;
    return 0;
}

static int count_sub(void *arg, const char *name, fl_slice data) {
    (void)name;
    (void)data;
    ++*(size_t *)arg;
    return 0;
}

static void read_all(fl_db *db) {
    fl_sst_meta *meta;
    size_t n, count = 0;
    if (fl_db_ssts(db, &meta, &n) != FL_OK) return;
    fl_buf block;
    int format;
    fl_buf_init(&block);
    if (fl_db_sst_filter_block(db, sst_id, &block, &format) == FL_OK && format == 1)
        fl_filter_block_split((fl_slice){ block.data, block.len }, count_sub, &count);
    fl_buf_free(&block);
    fl_db_sst_range_tombstones(db, sst_id, count_rtomb, &count);
    for (size_t i = 0; i < n; i++) {
        read_key(db, meta[i].smallest, meta[i].smallest_len);
        read_key(db, meta[i].largest, meta[i].largest_len);
    }
    fl_sst_meta_free(meta, n);
    read_key(db, (const uint8_t *)"", 0);
    read_key(db, (const uint8_t *)"\xff\xff\xff", 3);
    sampled s = { 0 };
    fl_db_sst_entries(db, sst_id, sample, &s);
    for (size_t i = 0; i < s.count; i++) read_key(db, s.keys[i], s.lens[i]);
}

static void open_and_read(const uint8_t *data, size_t size) {
    char err[1024];
    write_file(sst_path, data, size);
    fl_db *db;
    if (fl_db_open(dir, reg, &opt, &db, err, sizeof err) != FL_OK) return;
    read_all(db);
    fl_db_close(db, NULL, 0);
}

/* ---- Checksums ------------------------------------------------------------- */

/* Writes each block's actual checksum into the copy (arg). */
static int fix_block(void *arg, const fl_sst_block *b) {
    uint8_t *at = (uint8_t *)arg + b->offset + b->len;
    for (int i = 0; i < 8; i++) at[i] = (uint8_t)(b->actual >> (56 - 8 * i));
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!dir[0]) setup();
    open_and_read(data, size);
    uint8_t *fixed = malloc(size ? size : 1);
    if (!fixed) abort();
    if (size) memcpy(fixed, data, size);
    fl_sst_file_blocks((fl_slice){ data, size }, fix_block, fixed);
    if (size && memcmp(fixed, data, size) != 0) open_and_read(fixed, size);
    free(fixed);
    return 0;
}
