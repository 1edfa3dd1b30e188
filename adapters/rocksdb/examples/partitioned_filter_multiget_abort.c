/*
 * partitioned_filter_multiget_abort.c -- RocksDB's batched MultiGet sends a
 * key to an empty filter partition and asserts that this cannot happen
 * (adapters/rocksdb/reports/partitioned_filter_multiget_abort.md).  Only
 * RocksDB's C API and its own FixedPrefix(2).  Aborts RocksDB 7.8.3 as Debian
 * builds it (assertions on): partitioned_filter_block.cc:400, Assertion
 * `false' failed; and main (1dfa729793, :549), where the program turns off
 * decouple_partitioned_filters.  A build with NDEBUG skips the key instead:
 * MultiGet says NotFound for a key the SST holds.  Found by filterlab
 * (workloads/regress/rocksdb/partitioned_filter_multiget_abort.wl).
 *
 *   cc partitioned_filter_multiget_abort.c -lrocksdb -o repro && ./repro /tmp/repro-db
 */
#define _GNU_SOURCE
#include <rocksdb/c.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static void ok(char *err, const char *what) {
    if (err) {
        fprintf(stderr, "%s: %s\n", what, err);
        exit(2);
    }
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "/tmp/partitioned_filter_multiget_abort";
    char *err = NULL;
    rocksdb_block_based_table_options_t *t = rocksdb_block_based_options_create();
    rocksdb_block_based_options_set_filter_policy(t, rocksdb_filterpolicy_create_ribbon(10));
    rocksdb_block_based_options_set_whole_key_filtering(t, 0);  /* prefixes only        */
    rocksdb_block_based_options_set_partition_filters(t, 1);
    rocksdb_block_based_options_set_index_type(t, rocksdb_block_based_table_index_type_two_level_index_search);
    rocksdb_block_based_options_set_block_size(t, 1);           /* a data block per key */
    rocksdb_block_based_options_set_metadata_block_size(t, 1);  /* a partition per block */
    /* RocksDB >= 10.6 cuts filter partitions apart from the index's by default, never
     * an empty one; the old coupled cutting (7.8.3's only one) is still an option */
    void (*decouple)(rocksdb_block_based_table_options_t *, unsigned char) =
        (void (*)(rocksdb_block_based_table_options_t *, unsigned char))
            dlsym(RTLD_DEFAULT, "rocksdb_block_based_options_set_decouple_partitioned_filters");
    if (decouple) decouple(t, 0);
    rocksdb_options_t *opt = rocksdb_options_create();
    rocksdb_options_set_create_if_missing(opt, 1);
    rocksdb_options_set_prefix_extractor(opt, rocksdb_slicetransform_create_fixed_prefix(2));
    rocksdb_options_set_block_based_table_factory(opt, t);
    rocksdb_destroy_db(opt, dir, &err);
    free(err);
    err = NULL;
    const char *cf_name = "default";
    const rocksdb_options_t *cf_opt = opt;
    rocksdb_column_family_handle_t *cf;                         /* MultiGet takes a handle */
    rocksdb_t *db = rocksdb_open_column_families(opt, dir, 1, &cf_name, &cf_opt, &cf, &err);
    ok(err, "open");
    rocksdb_writeoptions_t *w = rocksdb_writeoptions_create();
    rocksdb_flushoptions_t *fo = rocksdb_flushoptions_create();
    rocksdb_readoptions_t *r = rocksdb_readoptions_create();

    /* "00" has a prefix; a, b and c are shorter than 2: out of the domain, not in the filter */
    const char *put[] = { "00", "a", "b", "c" };
    for (int i = 0; i < 4; i++) {
        rocksdb_put(db, w, put[i], put[i][1] ? 2 : 1, "v", 1, &err);
        ok(err, "put");
    }
    rocksdb_flush(db, fo, &err);  /* filter partitions: {"00"}, then empty ones (0 bytes) */
    ok(err, "flush");
    fprintf(stderr, "flushed 00, a, b, c; MultiGet(b), whose filter partition is empty\n");
    const char *keys[] = { "b" };
    const size_t lens[] = { 1 };
    rocksdb_pinnableslice_t *v[1];
    char *errs[1];
    rocksdb_batched_multi_get_cf(db, r, cf, 1, keys, lens, v, errs, 0);
    ok(errs[0], "multiget b");
    size_t vlen = 0;
    const char *val = v[0] ? rocksdb_pinnableslice_value(v[0], &vlen) : NULL;
    if (val) fprintf(stderr, "no abort: b = %.*s, this RocksDB is not affected\n", (int)vlen, val);
    else fprintf(stderr, "no abort, but b is NotFound: the filter skipped a key the SST holds\n");
    rocksdb_pinnableslice_destroy(v[0]);
    rocksdb_column_family_handle_destroy(cf);
    rocksdb_close(db);
    rocksdb_readoptions_destroy(r);
    rocksdb_flushoptions_destroy(fo);
    rocksdb_writeoptions_destroy(w);
    rocksdb_options_destroy(opt);
    rocksdb_block_based_options_destroy(t);
    return val ? 0 : 1;
}
