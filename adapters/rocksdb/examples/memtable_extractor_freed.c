/*
 * memtable_extractor_freed.c -- RocksDB's memtable uses a prefix extractor
 * after it is freed (adapters/rocksdb/reports/memtable_extractor_freed.md).
 * Only RocksDB's C API; crashes RocksDB 7.8.3 (SIGSEGV, or valgrind's
 * "Invalid read" in MemTable::Add).  Found by filterlab
 * (workloads/regress/rocksdb/memtable_extractor_freed.wl).
 *
 *   cc memtable_extractor_freed.c -lrocksdb -o repro && ./repro /tmp/repro-db
 */
#include <rocksdb/c.h>

#include <stdio.h>
#include <stdlib.h>

static void ok(char *err, const char *what) {
    if (err) {
        fprintf(stderr, "%s: %s\n", what, err);
        exit(2);
    }
}

static void set_extractor(rocksdb_t *db, const char *value) {
    const char *keys[] = { "prefix_extractor" }, *values[] = { value };
    char *err = NULL;
    rocksdb_set_options(db, 1, keys, values, &err);
    ok(err, "SetOptions");
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "/tmp/memtable_extractor_freed";
    char *err = NULL;
    rocksdb_options_t *opt = rocksdb_options_create();
    rocksdb_options_set_create_if_missing(opt, 1);
    rocksdb_options_set_memtable_prefix_bloom_size_ratio(opt, 0.1); /* the memtable uses the extractor */
    rocksdb_options_set_disable_auto_compactions(opt, 1);
    rocksdb_destroy_db(opt, dir, &err);
    free(err);
    err = NULL;
    rocksdb_t *db = rocksdb_open(opt, dir, &err);
    ok(err, "open");
    rocksdb_writeoptions_t *w = rocksdb_writeoptions_create();
    rocksdb_flushoptions_t *fo = rocksdb_flushoptions_create();
    rocksdb_compactoptions_t *co = rocksdb_compactoptions_create();
    rocksdb_compactoptions_set_bottommost_level_compaction(co, 2);  /* kForce: rewrite every SST */

    set_extractor(db, "rocksdb.FixedPrefix.2");  /* made by SetOptions: owned by shared_ptrs only */
    rocksdb_put(db, w, "ab", 2, "1", 1, &err);
    ok(err, "put ab");
    rocksdb_flush(db, fo, &err);                 /* an SST's table reader shares it; the new */
    ok(err, "flush");                            /* memtable keeps a raw pointer to it       */
    set_extractor(db, "nullptr");                /* the options drop it                      */
    rocksdb_compact_range_opt(db, co, NULL, 0, NULL, 0); /* the SST is rewritten, its reader */
                                                 /* evicted: the last owner, so it is freed  */
    fprintf(stderr, "the memtable's extractor is freed; the next put calls it\n");
    rocksdb_put(db, w, "cd", 2, "2", 1, &err);   /* MemTable::Add: InDomain, Transform       */
    ok(err, "put cd");
    fprintf(stderr, "no crash: this RocksDB is not affected\n");
    rocksdb_close(db);
    rocksdb_compactoptions_destroy(co);
    rocksdb_flushoptions_destroy(fo);
    rocksdb_writeoptions_destroy(w);
    rocksdb_options_destroy(opt);
    return 0;
}
