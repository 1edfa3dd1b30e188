/*
 * prefix_extractor_lifetimes.c -- RocksDB 7.8.3 (C API only): more holders
 * of a raw pointer to a prefix extractor that SetOptions installed, used
 * after the extractor is freed -- the class of the memtable bug filterlab
 * found (memtable_extractor_freed.c).  The report, with the holders, the
 * owners that free them and the valgrind stacks:
 * adapters/rocksdb/reports/prefix_extractor_lifetimes.md.
 *
 *   cc prefix_extractor_lifetimes.c -lrocksdb -o lifetimes && ./lifetimes MODE DIR
 *
 *   hashrep   memtable rep (HashSkipListRep::transform_), no memtable bloom
 *   linkrep   memtable rep (HashLinkListRep::transform_), no memtable bloom
 *   nullrep   hash skiplist memtable rep made under prefix_extractor=nullptr
 *   tailseek  tailing iterator, prefix_same_as_start: DBIter::prefix_extractor_
 *   tailnext  tailing iterator: ForwardIterator::prefix_extractor_ (Next)
 *   plain     PlainTableReader::prefix_extractor_ of a cached table reader
 *   control   same steps as hashrep with the default skiplist memtable
 *   memget    the known MemTable::prefix_extractor_, reached by a Get alone
 *   tailblob  tailing iterator: DBIter::version_ (blob read) after renewal
 * Each mode but control crashes 7.8.3 (SIGSEGV).  NOTAIL=1 (tailseek,
 * tailnext: a plain iterator) and NOCHANGE=1 (no second SetOptions) are
 * controls that run clean.
 */
#include <rocksdb/c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static rocksdb_t *db;
static rocksdb_writeoptions_t *wo;
static rocksdb_readoptions_t *ro;
static rocksdb_flushoptions_t *fo;

static void ok(char *err, const char *what) {
    if (err) { fprintf(stderr, "%s: %s\n", what, err); exit(2); }
}
static int second_change = 0;  /* counts prefix_extractor changes */
static void set_opt(const char *k, const char *v) {
    const char *ks[] = {k}, *vs[] = {v};
    if (!strcmp(k, "prefix_extractor") && second_change++ == 1 && getenv("NOCHANGE")) {
        fprintf(stderr, "  (NOCHANGE: skipped SetOptions %s=%s)\n", k, v);
        return;
    }
    char *err = NULL;
    rocksdb_set_options(db, 1, ks, vs, &err);
    ok(err, k);
    fprintf(stderr, "  SetOptions %s=%s\n", k, v);
}
static void put(const char *k) {
    char *err = NULL;
    rocksdb_put(db, wo, k, strlen(k), "v", 1, &err);
    ok(err, "put");
    fprintf(stderr, "  put %s\n", k);
}
static void flush(void) {
    char *err = NULL;
    rocksdb_flush(db, fo, &err);
    ok(err, "flush");
    fprintf(stderr, "  flush\n");
}
static void compact_force(void) {
    rocksdb_compactoptions_t *co = rocksdb_compactoptions_create();
    rocksdb_compactoptions_set_bottommost_level_compaction(co, 2); /* kForce */
    rocksdb_compact_range_opt(db, co, NULL, 0, NULL, 0);
    rocksdb_compactoptions_destroy(co);
    fprintf(stderr, "  compact (bottommost kForce)\n");
}
static void get(const char *k) {
    char *err = NULL;
    size_t len = 0;
    char *v = rocksdb_get(db, ro, k, strlen(k), &len, &err);
    ok(err, "get");
    fprintf(stderr, "  get %s -> %s\n", k, v ? "found" : "not found");
    free(v);
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s MODE DIR (a scratch database, removed first)\n", argv[0]); return 2; }
    const char *mode = argv[1];
    const char *dir = argv[2];
    char *err = NULL;
    rocksdb_options_t *opt = rocksdb_options_create();
    rocksdb_options_set_create_if_missing(opt, 1);
    rocksdb_options_set_disable_auto_compactions(opt, 1);
    int hashrep = !strcmp(mode, "hashrep") || !strcmp(mode, "nullrep");
    if (hashrep || !strcmp(mode, "linkrep") || !strcmp(mode, "plain")) /* extractor at open (safe: initial_cf_options_) */
        rocksdb_options_set_prefix_extractor(opt, rocksdb_slicetransform_create_fixed_prefix(2));
    if (hashrep) rocksdb_options_set_hash_skip_list_rep(opt, 1000, 4, 4);
    if (!strcmp(mode, "linkrep")) rocksdb_options_set_hash_link_list_rep(opt, 1000);
    if (hashrep || !strcmp(mode, "linkrep"))  /* hash reps need it off */
        rocksdb_options_set_allow_concurrent_memtable_write(opt, 0);
    if (!strcmp(mode, "plain")) {
        rocksdb_options_set_allow_mmap_reads(opt, 1);
        rocksdb_options_set_plain_table_factory(opt, 0, 10, 0.75, 16);
    }
    if (!strcmp(mode, "memget"))
        rocksdb_options_set_memtable_prefix_bloom_size_ratio(opt, 0.1);
    if (!strcmp(mode, "tailseek") || !strcmp(mode, "tailnext")) {
        rocksdb_block_based_table_options_t *t = rocksdb_block_based_options_create();
        rocksdb_block_based_options_set_filter_policy(t, rocksdb_filterpolicy_create_bloom(10));
        rocksdb_options_set_block_based_table_factory(opt, t);
    }
    rocksdb_destroy_db(opt, dir, &err); free(err); err = NULL;
    db = rocksdb_open(opt, dir, &err);
    ok(err, "open");
    wo = rocksdb_writeoptions_create();
    ro = rocksdb_readoptions_create();
    fo = rocksdb_flushoptions_create();

    if (!strcmp(mode, "hashrep") || !strcmp(mode, "linkrep") || !strcmp(mode, "control")) {
        set_opt("prefix_extractor", "rocksdb.FixedPrefix.2"); /* B: owned by shared_ptrs only */
        put("ab");
        flush();                           /* new memtable; its rep keeps raw B   */
        set_opt("prefix_extractor", "rocksdb.FixedPrefix.3"); /* C               */
        compact_force();                   /* SST reader (last owner of B) evicted */
        fprintf(stderr, "B is freed; the memtable rep still points at it\n");
        put("cd");                         /* HashSkipListRep::Insert -> transform_ */
        get("cd");
    } else if (!strcmp(mode, "nullrep")) {
        set_opt("prefix_extractor", "nullptr");
        put("ab");
        flush();                           /* new memtable with rep transform_ == NULL */
        fprintf(stderr, "memtable rep made with a null extractor\n");
        put("cd");
        get("cd");
    } else if (!strcmp(mode, "tailseek") || !strcmp(mode, "tailnext")) {
        int next = !strcmp(mode, "tailnext");
        put("aa"); put("ab"); put("ac");
        flush();                           /* SST written with no extractor */
        set_opt("prefix_extractor", "rocksdb.FixedPrefix.2"); /* B, in SV1 only */
        rocksdb_readoptions_t *tro = rocksdb_readoptions_create();
        rocksdb_readoptions_set_tailing(tro, getenv("NOTAIL") ? 0 : 1);
        if (!next) rocksdb_readoptions_set_prefix_same_as_start(tro, 1);
        rocksdb_iterator_t *it = rocksdb_create_iterator(db, tro); /* raw B in DBIter, ForwardIterator */
        fprintf(stderr, "  tailing iterator created%s\n", next ? "" : " (prefix_same_as_start)");
        if (next) {
            rocksdb_iter_seek(it, "aa", 2);   /* positions on the SST, sets prev_key */
            fprintf(stderr, "  seek aa -> valid=%d\n", rocksdb_iter_valid(it));
        }
        set_opt("prefix_extractor", "rocksdb.FixedPrefix.3"); /* C; new SV */
        if (next) {
            fprintf(stderr, "next: renews the iterator, releasing SV1 and B\n");
            rocksdb_iter_next(it);       /* RenewIterators -> SVCleanup(SV1) frees B */
            fprintf(stderr, "  next -> valid=%d\n", rocksdb_iter_valid(it));
            rocksdb_iter_next(it);       /* ForwardIterator::Next: prefix_extractor_->Transform */
            fprintf(stderr, "  next -> valid=%d\n", rocksdb_iter_valid(it));
        } else {
            fprintf(stderr, "seek: renews the iterator (frees B), then DBIter uses B\n");
            rocksdb_iter_seek(it, "ab", 2); /* ForwardIterator::Seek renews; DBIter::Seek -> Transform */
            fprintf(stderr, "  seek ab -> valid=%d\n", rocksdb_iter_valid(it));
            if (rocksdb_iter_valid(it)) rocksdb_iter_next(it);
        }
        rocksdb_iter_destroy(it);
        rocksdb_readoptions_destroy(tro);
    } else if (!strcmp(mode, "memget")) {
        set_opt("prefix_extractor", "rocksdb.FixedPrefix.2"); /* B */
        put("ab");
        flush();                           /* memtable M made under B (raw pointer) */
        put("zz");                         /* M is not empty: Get will consult its bloom */
        set_opt("prefix_extractor", "nullptr");
        {   /* force-compact only [ab, ab]: M (holding zz) does not overlap, so no flush */
            rocksdb_compactoptions_t *co = rocksdb_compactoptions_create();
            rocksdb_compactoptions_set_bottommost_level_compaction(co, 2);
            rocksdb_compact_range_opt(db, co, "ab", 2, "ab", 2);
            rocksdb_compactoptions_destroy(co);
            fprintf(stderr, "  compact [ab,ab] (bottommost kForce)\n");
        }
        fprintf(stderr, "B is freed; a Get consults M's prefix bloom through it\n");
        get("zz");                         /* MemTable::Get -> prefix_extractor_ */
    } else if (!strcmp(mode, "tailblob")) {
        set_opt("enable_blob_files", "true");
        set_opt("min_blob_size", "0");
        put("aa");
        flush();                           /* V1: aa's value is in a blob file */
        rocksdb_readoptions_t *tro = rocksdb_readoptions_create();
        rocksdb_readoptions_set_tailing(tro, 1);
        rocksdb_iterator_t *it = rocksdb_create_iterator(db, tro); /* DBIter::version_ = V1 */
        fprintf(stderr, "  tailing iterator created\n");
        put("bb");
        flush();                           /* V2 current; V1 held only by the iterator's SV */
        fprintf(stderr, "seek: renews the iterator (frees SV1, V1), then DBIter reads the blob via V1\n");
        rocksdb_iter_seek(it, "aa", 2);
        fprintf(stderr, "  seek aa -> valid=%d\n", rocksdb_iter_valid(it));
        rocksdb_iter_destroy(it);
        rocksdb_readoptions_destroy(tro);
    } else if (!strcmp(mode, "plain")) {
        set_opt("prefix_extractor", "rocksdb.FixedPrefix.2"); /* B */
        put("ab");
        flush();                           /* SST1; its PlainTableReader keeps raw B */
        set_opt("prefix_extractor", "rocksdb.FixedPrefix.2"); /* C: same name, new object; */
                      /* SetOptions installs a new SuperVersion and Version: the old ones, */
                      /* the last owners of B, are freed (the table reader does not own it) */
        fprintf(stderr, "B is freed; SST1's cached PlainTableReader still points at it\n");
        get("ab");                         /* PlainTableReader::Get -> GetPrefix -> B */
    } else {
        fprintf(stderr, "unknown mode %s\n", mode);
        return 2;
    }
    fprintf(stderr, "done: no crash\n");
    rocksdb_close(db);
    return 0;
}
