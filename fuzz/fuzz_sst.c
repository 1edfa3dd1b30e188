/*
 * fuzz_sst.c -- the SST reader (SPEC 2.6): crash-only.
 *
 * The input is written as 000001.sst in a private temporary directory and
 * opened with fl_sst_open against three bloom policies; then its filter
 * block is read, its usable sub-filters probed, every entry visited with
 * seek/next, and a few gets and seeks made.  Errors are fine; crashes,
 * sanitizer reports, leaks and hangs are not.  The input is also decoded
 * as an info block (fl_sst_info_decode).
 *
 * A mutation almost always breaks a block checksum, which would keep the
 * fuzzer out of every decoder behind one.  So when the blocks the input
 * names (info, range tombstones, index, filter, data) have wrong checksums,
 * the file is opened once as it is and once with them recomputed.
 */
#include "../engine/engine_internal.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#define MAX_ENTRIES 4096

static char dir[4096];
static fl_policy_list policies;
static fl_calls *calls;              /* quiet: refusing bad bytes is reported */

/* Built-in policies refusing corrupt bytes are reported as violations: quiet. */
static void quiet(void *arg, const fl_contract_violation *v) { (void)arg; (void)v; }

static void setup(void) {
    const char *base = getenv("TMPDIR");
    if (!base || !*base) base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(dir, sizeof dir, "%s/fuzz_sst.XXXXXX", base);
    static fl_registry *reg;
    char err[512];
    if (!mkdtemp(dir) || fl_registry_new(&reg) != FL_OK || fl_calls_new(reg, &calls) != FL_OK)
        abort();
    fl_calls_set_sink(calls, quiet, NULL);
    if (fl_policy_list_parse(reg, calls, "bloom;bloom(bits=4,whole_key=0,prefix=fixed:2);bloom(prefix=delim::)",
                             &policies, err, sizeof err) != FL_OK)
        abort();
}

static void cleanup(void) {
    char path[4200];
    fl_sst_path(dir, 1, path, sizeof path);
    unlink(path);
    rmdir(dir);
}

static void get(fl_sst_reader *r, const uint8_t *k, size_t klen) {
    char err[512];
    fl_entry e;
    fl_sst_iter it;
    fl_sst_get(r, k, klen, &e, err, sizeof err);
    if (fl_sst_seek(r, k, klen, &it, err, sizeof err) == FL_OK)
        for (int i = 0; i < 3 && fl_sst_next(&it, &e, err, sizeof err) == 1; i++) {}
}

static void read_all(fl_sst_reader *r) {
    char err[512];
    uint8_t *block;
    size_t len;
    if (fl_sst_filter_bytes(r, &block, &len) == 1) free(block);
    for (size_t i = 0; i < r->sub_count; i++) {
        fl_filter_query q = { { FL_TARGET_POINT, { r->info.first_key, r->info.first_key_len } }, NULL };
        fl_call_might_match(NULL, r->subs[i].policy, r->subs[i].filter, &q);
        q.target.kind = FL_TARGET_PREFIX;
        fl_call_might_match(NULL, r->subs[i].policy, r->subs[i].filter, &q);
    }
    get(r, r->info.first_key, r->info.first_key_len);
    get(r, r->info.last_key, r->info.last_key_len);
    get(r, (const uint8_t *)"", 0);
    get(r, (const uint8_t *)"\xff\xff\xff", 3);
    fl_sst_iter it;
    fl_entry e;
    if (fl_sst_seek(r, NULL, 0, &it, err, sizeof err) != FL_OK) return;
    uint8_t keys[4][16];
    size_t key_lens[4], nkeys = 0;
    for (int n = 0; n < MAX_ENTRIES && fl_sst_next(&it, &e, err, sizeof err) == 1; n++) {
        if (n % 7 == 0 && nkeys < 4) {            /* a few keys to get afterwards */
            key_lens[nkeys] = e.klen < 16 ? e.klen : 16;
            memcpy(keys[nkeys], e.key, key_lens[nkeys]);
            nkeys++;
        }
    }
    for (size_t i = 0; i < nkeys; i++) get(r, keys[i], key_lens[i]);
}


/* Sets the checksum after [off, off + len) of b if the block lies in the
 * first size bytes; true when it changed. */
static bool fix_block(uint8_t *b, size_t size, uint64_t off, uint64_t len) {
    if (len > size || off > size - len || size - len - off < 8) return false;
    uint64_t h = XXH3_64bits(b + off, (size_t)len);
    uint8_t be[8];
    for (int i = 0; i < 8; i++) be[i] = (uint8_t)(h >> (56 - 8 * i));
    if (memcmp(b + off + len, be, 8) == 0) return false;
    memcpy(b + off + len, be, 8);
    return true;
}

/* Recomputes every checksum the footer, the info block and the index
 * point at; true when any changed. */
static bool fix_checksums(uint8_t *b, size_t size) {
    if (size < 24) return false;
    size -= 24;                                   /* blocks end at the footer */
    uint64_t io = fl_get_be64(b + size), il = fl_get_be64(b + size + 8);
    bool changed = fix_block(b, size, io, il);
    fl_sst_info info;
    if (il > size || io > size - il || fl_sst_info_decode((fl_slice){ b + io, (size_t)il }, &info) != FL_OK)
        return changed;
    changed |= fix_block(b, size, info.rt_offset, info.rt_len);
    changed |= fix_block(b, size, info.filter_offset, info.filter_len);
    changed |= fix_block(b, size, info.index_offset, info.index_len);
    if (info.index_len <= size && info.index_offset <= size - info.index_len) {
        const uint8_t *p = b + info.index_offset, *end = p + info.index_len;
        uint64_t kl, off, len;
        while (fl_get_varint(&p, end, &kl) == FL_OK && kl <= (uint64_t)(end - p)) {
            p += kl;
            if (fl_get_varint(&p, end, &off) || fl_get_varint(&p, end, &len)) break;
            changed |= fix_block(b, size, off, len);
        }
    }
    fl_sst_info_free(&info);
    return changed;
}

static void open_and_read(const uint8_t *data, size_t size) {
    char path[4200], err[1024];
    fl_sst_path(dir, 1, path, sizeof path);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size || close(fd) != 0) abort();
    fl_sst_reader *r = NULL;
    uint64_t filter_errors = 0;
    if (fl_sst_open(dir, 1, &policies, calls, &r, &filter_errors, err, sizeof err) == FL_OK) {
        read_all(r);
        fl_sst_close(r);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!dir[0]) {
        setup();
        atexit(cleanup);
    }
    fl_sst_info info;
    if (fl_sst_info_decode((fl_slice){ data, size }, &info) == FL_OK) fl_sst_info_free(&info);
    open_and_read(data, size);
    uint8_t *fixed = malloc(size ? size : 1);
    if (!fixed) abort();
    memcpy(fixed, data, size);
    if (fix_checksums(fixed, size)) open_and_read(fixed, size);
    free(fixed);
    return 0;
}
