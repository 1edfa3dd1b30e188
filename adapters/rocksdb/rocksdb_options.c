/*
 * rocksdb_options.c -- a workload's open/reopen options as RocksDB options:
 * the option table of docs/rocksdb.md, row by row.
 *
 *   policies=none                 no filter policy
 *   policies=bloom(bits=B,...)    full filter, B bits per key: RocksDB's
 *                                 cache-local bloom at format_version 5
 *                                 (rocksdb.filter=ribbon: Ribbon at B
 *                                 bloom-equivalent bits)
 *     whole_key=0                 whole_key_filtering=0
 *     prefix=fixed:N, capped:N    RocksDB's own FixedPrefix / CappedPrefix
 *                                 (rocksdb.extractor=wrapped: as below)
 *     prefix=any other            filterlab's extractor inside RocksDB, as a
 *                                 slice transform (rocksdb_extractor.c)
 *   memtable_bytes                the engine flushes (waiting) when this many
 *                                 bytes were written since the last flush;
 *                                 RocksDB's write buffer is far larger
 *   sst_bytes                     target_file_size_base
 *   block_bytes                   block_size
 *   l0_trigger                    level0_file_num_compaction_trigger; the
 *                                 engine runs that compaction itself
 *   min_filter_keys 0 or 1, legacy_filters 0, compactor = policies,
 *   max_runs any                  accepted: they change nothing in RocksDB
 *   rocksdb.*                     see rdb_settings below (index_shortening
 *                                 by options string: no C API setter)
 * What RocksDB cannot express -- two policies at once, a plugin policy, a
 * compactor with other policies than the writer's, Legacy filters, a
 * min_filter_keys above 1 -- is an error naming the option, and so is an
 * unknown rocksdb.* key or a bad value.  Always: automatic compactions off,
 * one background job, no compression, no write-ahead log (the engine
 * flushes before closing), statistics dumps off, info log at WARN.
 */
#include "rocksdb_internal.h"

#ifdef FL_HAVE_ROCKSDB

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_BITS 10.0
#define DEFAULT_FORMAT_VERSION 5
#define MAX_BLOOM_RATIO 0.25           /* RocksDB clamps larger ratios to this */
#define DEFAULT_METADATA_BLOCK 4096   /* RocksDB's metadata_block_size  */
/* RocksDB's write buffer is WRITE_BUFFER_SLACK + 16 x memtable_bytes: big
 * enough that RocksDB never switches memtables on its own (the engine
 * flushes at memtable_bytes itself), and no bigger, as each memtable's
 * prefix bloom (up to 0.25 of it, memset when the memtable is made) and
 * each WAL's preallocation (1.1 of it) are paid at every flush.  RocksDB
 * 7.8.3 asks for a switch (MemTable::ShouldFlushNow) once the arena's
 * bytes, the bloom's included, come within 0.4 arena blocks (wb/8 at most)
 * of it, which leaves 0.575 x wb = 4.6 MiB + 9.2 x memtable_bytes for the
 * entries.  RocksDB stores an entry in at most its bytes + 122 (the internal
 * key, two lengths, a skiplist node of up to 12 pointers, alignment): at
 * most 5.1x the bytes filterlab counts for it (key, value and 24).  So
 * entries under memtable_bytes fit, and one more of up to 4 MiB: the
 * largest a workload holds is a 64 KiB key and a 1 MiB value (SPEC 2.1). */
#define WRITE_BUFFER_SLACK ((uint64_t)8 << 20)
#define WRITE_BUFFER_MAX ((uint64_t)64 << 30)   /* RocksDB clips to 64 GiB */
#define MANIFEST_PREALLOCATION ((size_t)64 << 10)  /* RocksDB's 4 MiB, paid per open */

/* Notes one option the mapping set, as SetOptions would name it. */
static void note(fl_rdb_config *cfg, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void note(fl_rdb_config *cfg, const char *name, const char *fmt, ...) {
    if (cfg->nsettings == FL_RDB_SETTINGS) return;       /* (sized for all of them) */
    fl_rdb_setting *st = &cfg->settings[cfg->nsettings++];
    va_list ap;
    st->name = name;
    va_start(ap, fmt);
    vsnprintf(st->value, sizeof st->value, fmt, ap);
    va_end(ap);
}

static const char *tf(bool b) { return b ? "true" : "false"; }

/* ---- rocksdb.* settings -------------------------------------------------------- */

typedef struct rdb_settings {
    bool partition_filters;            /* with the two-level index it needs   */
    uint64_t metadata_block_size;      /* 0: RocksDB's default                */
    int format_version;
    double memtable_prefix_bloom;      /* memtable_prefix_bloom_size_ratio    */
    bool memtable_whole_key_filtering;
    bool ribbon;                       /* rocksdb.filter=ribbon               */
    bool optimize_filters_for_hits;
    bool cache_index_and_filter_blocks;
    bool wrapped;                      /* rocksdb.extractor=wrapped           */
    const char *index_shortening;      /* RocksDB's name of the mode          */
    bool multiget;                     /* rocksdb.get=multiget                */
    int memtable;                      /* rocksdb.memtable: 0 skiplist, 1
                                          hash_skiplist, 2 hash_linklist      */
} rdb_settings;

#define KNOWN_KEYS "partition_filters, metadata_block_size, format_version, memtable_prefix_bloom, " \
                   "memtable_whole_key_filtering, filter, optimize_filters_for_hits, "                  \
                   "cache_index_and_filter_blocks, extractor, index_shortening, get, memtable"

static int bad_value(const char *key, const char *value, const char *expected, char *err, size_t len) {
    snprintf(err, len, "option rocksdb.%s: expected %s, got \"%s\"", key, expected, value);
    return FL_ERR_INVALID;
}

static bool parse_flag(const char *v, bool *out) {
    if (strcmp(v, "0") && strcmp(v, "1")) return false;
    *out = v[0] == '1';
    return true;
}

static bool parse_u64(const char *v, uint64_t min, uint64_t max, uint64_t *out) {
    if (*v < '0' || *v > '9') return false;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno || *end || x < min || x > max) return false;
    *out = x;
    return true;
}

static bool parse_ratio(const char *v, double *out) {
    if ((*v < '0' || *v > '9') && *v != '.') return false;
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (errno || *end || !isfinite(x) || x < 0 || x > MAX_BLOOM_RATIO) return false;
    *out = x;
    return true;
}

static int one_setting(rdb_settings *s, const char *k, const char *v, char *err, size_t len) {
    uint64_t n;
    if (strcmp(k, "partition_filters") == 0) {
        if (!parse_flag(v, &s->partition_filters)) return bad_value(k, v, "0 or 1", err, len);
    } else if (strcmp(k, "metadata_block_size") == 0) {
        if (!parse_u64(v, 1, UINT32_MAX, &s->metadata_block_size))
            return bad_value(k, v, "an integer from 1 to 4294967295", err, len);
    } else if (strcmp(k, "format_version") == 0) {
        /* which versions exist is RocksDB's to say (at open) */
        if (!parse_u64(v, 0, 255, &n)) return bad_value(k, v, "an integer from 0 to 255", err, len);
        s->format_version = (int)n;
    } else if (strcmp(k, "memtable_prefix_bloom") == 0) {
        if (!parse_ratio(v, &s->memtable_prefix_bloom))
            return bad_value(k, v, "a ratio from 0 to 0.25 (of the write buffer)", err, len);
    } else if (strcmp(k, "memtable_whole_key_filtering") == 0) {
        if (!parse_flag(v, &s->memtable_whole_key_filtering)) return bad_value(k, v, "0 or 1", err, len);
    } else if (strcmp(k, "filter") == 0) {
        if (strcmp(v, "bloom") && strcmp(v, "ribbon")) return bad_value(k, v, "bloom or ribbon", err, len);
        s->ribbon = v[0] == 'r';
    } else if (strcmp(k, "optimize_filters_for_hits") == 0) {
        if (!parse_flag(v, &s->optimize_filters_for_hits)) return bad_value(k, v, "0 or 1", err, len);
    } else if (strcmp(k, "cache_index_and_filter_blocks") == 0) {
        if (!parse_flag(v, &s->cache_index_and_filter_blocks)) return bad_value(k, v, "0 or 1", err, len);
    } else if (strcmp(k, "index_shortening") == 0) {
        static const char *const modes[][2] = { { "none", "kNoShortening" },
                                                 { "separators", "kShortenSeparators" },
                                                 { "successor", "kShortenSeparatorsAndSuccessor" } };
        size_t i = 0;
        while (i < 3 && strcmp(v, modes[i][0]) != 0) i++;
        if (i == 3) return bad_value(k, v, "none, separators or successor", err, len);
        s->index_shortening = modes[i][1];
    } else if (strcmp(k, "get") == 0) {
        if (strcmp(v, "get") && strcmp(v, "multiget")) return bad_value(k, v, "get or multiget", err, len);
        s->multiget = v[0] == 'm';
    } else if (strcmp(k, "memtable") == 0) {
        static const char *const reps[] = { "skiplist", "hash_skiplist", "hash_linklist" };
        int i = 0;
        while (i < 3 && strcmp(v, reps[i]) != 0) i++;
        if (i == 3) return bad_value(k, v, "skiplist, hash_skiplist or hash_linklist", err, len);
        s->memtable = i;
    } else if (strcmp(k, "extractor") == 0) {
        if (strcmp(v, "native") && strcmp(v, "wrapped"))
            return bad_value(k, v, "native or wrapped", err, len);
        s->wrapped = v[0] == 'w';
    } else {
        snprintf(err, len, "unknown option rocksdb.%s (known: " KNOWN_KEYS ")", k);
        return FL_ERR_INVALID;
    }
    return FL_OK;
}

static int settings_parse(const fl_options *opt, rdb_settings *s, char *err, size_t len) {
    memset(s, 0, sizeof *s);
    s->format_version = DEFAULT_FORMAT_VERSION;
    s->index_shortening = "kShortenSeparators";          /* RocksDB's default */
    for (size_t i = 0; i < opt->rocksdb_count; i++) {
        int rc = one_setting(s, opt->rocksdb[i].key, opt->rocksdb[i].value, err, len);
        if (rc) return rc;
    }
    return FL_OK;
}

/* ---- The policy list ------------------------------------------------------------- */

typedef struct rdb_policy {
    bool filter;                       /* a bloom is configured (not none)    */
    double bits;
    bool whole_key;
    bool has_extractor;
    char extractor[512];               /* its spec, escapes kept              */
} rdb_policy;

/* The one built-in bloom of a list ("none": filter false). */
static int policy_parse(const fl_registry *reg, fl_calls *calls, const char *key, const char *list,
                        rdb_policy *out, char *err, size_t len) {
    memset(out, 0, sizeof *out);
    char perr[1024] = "";
    struct { size_t count; char *first; } l;
    int rc = fl_policy_list_first(list, &l.count, &l.first, perr, sizeof perr);
    if (rc) {
        snprintf(err, len, "%s: %s", key, perr[0] ? perr : fl_strerror(rc));
        return rc;
    }
    if (l.count == 0) return FL_OK;
    if (l.count > 1) {
        free(l.first);
        snprintf(err, len, "%s=\"%s\": the RocksDB engine runs one filter policy, this list has %zu "
                 "(RocksDB cannot run two policies at once)", key, list, l.count);
        return FL_ERR_INVALID;
    }
    fl_filter_policy *p = NULL;
    rc = fl_registry_make_policy(reg, l.first, &p, perr, sizeof perr);
    if (rc) {
        snprintf(err, len, "%s: %s", key, perr[0] ? perr : fl_strerror(rc));
        free(l.first);
        return rc;
    }
    bool bloom = fl_policy_is_builtin_bloom(p);
    fl_call_policy_destroy(calls, p);
    if (!bloom) {
        snprintf(err, len, "%s=\"%s\": a plugin filter policy cannot run inside RocksDB (the RocksDB "
                 "engine runs the built-in bloom(...) as RocksDB's own filter; plugin extractors do "
                 "run inside it)", key, l.first);
        free(l.first);
        return FL_ERR_INVALID;
    }
    char v[64];
    out->filter = true;
    out->bits = DEFAULT_BITS;
    out->whole_key = true;
    if (fl_spec_argument(l.first, "bits", v, sizeof v)) out->bits = strtod(v, NULL);
    if (fl_spec_argument(l.first, "whole_key", v, sizeof v)) out->whole_key = strcmp(v, "0") != 0;
    out->has_extractor = fl_spec_argument(l.first, "prefix", out->extractor, sizeof out->extractor);
    free(l.first);
    return FL_OK;
}

/* ---- Building the RocksDB options ------------------------------------------------ */

static bool kind_is(const char *spec, const char *kind) {
    size_t n = strlen(kind);
    return strncmp(spec, kind, n) == 0 && spec[n] == ':';
}

/* The prefix extractor: RocksDB's own for fixed and capped, else the
 * wrapper.  *capped_n > 0 asks for CappedPrefix by options string. */
static int set_extractor(const fl_registry *reg, fl_calls *calls, const rdb_policy *pol,
                         const rdb_settings *s, rocksdb_options_t *o, fl_rdb_config *cfg,
                         size_t *capped_n, char *err, size_t len) {
    char perr[1024] = "";
    fl_prefix_extractor *mine = NULL, *theirs = NULL;
    int rc = fl_registry_make_extractor(reg, pol->extractor, &mine, perr, sizeof perr);
    if (rc) {
        snprintf(err, len, "policies: %s", perr[0] ? perr : fl_strerror(rc));
        return rc;
    }
    cfg->extractor = mine;
    bool fixed = kind_is(pol->extractor, "fixed"), capped = kind_is(pol->extractor, "capped");
    if ((fixed || capped) && !s->wrapped) {
        /* a built-in's name is its kind and N: "fixed3", "capped12" */
        const char *name = fl_call_extractor_name(calls, mine);
        size_t n = (size_t)strtoull(name + (fixed ? 5 : 6), NULL, 10);
        if (fixed) rocksdb_options_set_prefix_extractor(o, rocksdb_slicetransform_create_fixed_prefix(n));
        else *capped_n = n;
        note(cfg, "prefix_extractor", "rocksdb.%sPrefix.%zu", fixed ? "Fixed" : "Capped", n);
        return FL_OK;
    }
    if ((rc = fl_registry_make_extractor(reg, pol->extractor, &theirs, perr, sizeof perr))) {
        snprintf(err, len, "policies: %s", perr[0] ? perr : fl_strerror(rc));
        return rc;
    }
    rocksdb_slicetransform_t *t = fl_rdb_wrap_extractor(calls, theirs);
    if (!t) return FL_ERR_NOMEM;
    rocksdb_options_set_prefix_extractor(o, t);
    note(cfg, "prefix_extractor", "filterlab:%s", pol->extractor);
    return FL_OK;
}

static void set_table(const rdb_policy *pol, const rdb_settings *s, const fl_options *opt,
                      rocksdb_options_t *o, fl_rdb_config *cfg) {
    rocksdb_block_based_table_options_t *t = rocksdb_block_based_options_create();
    rocksdb_block_based_options_set_block_size(t, (size_t)opt->block_bytes);
    rocksdb_block_based_options_set_format_version(t, s->format_version);
    if (pol->filter) {
        rocksdb_filterpolicy_t *f = s->ribbon ? rocksdb_filterpolicy_create_ribbon(pol->bits)
                                              : rocksdb_filterpolicy_create_bloom_full(pol->bits);
        rocksdb_block_based_options_set_filter_policy(t, f);          /* t owns f */
    }
    rocksdb_block_based_options_set_whole_key_filtering(t, pol->whole_key);
    if (s->partition_filters) {
        rocksdb_block_based_options_set_partition_filters(t, 1);
        rocksdb_block_based_options_set_index_type(t,
            rocksdb_block_based_table_index_type_two_level_index_search);
    }
    if (s->metadata_block_size)
        rocksdb_block_based_options_set_metadata_block_size(t, s->metadata_block_size);
    rocksdb_block_based_options_set_cache_index_and_filter_blocks(t, s->cache_index_and_filter_blocks);
    rocksdb_options_set_block_based_table_factory(o, t);
    rocksdb_block_based_options_destroy(t);
    note(cfg, "table.block_size", "%llu", (unsigned long long)opt->block_bytes);
    note(cfg, "table.format_version", "%d", s->format_version);
    if (!pol->filter) note(cfg, "table.filter_policy", "nullptr");
    else note(cfg, "table.filter_policy", s->ribbon ? "ribbonfilter:%.17g" : "bloomfilter:%.17g:false", pol->bits);
    note(cfg, "table.whole_key_filtering", "%s", tf(pol->whole_key));
    note(cfg, "table.partition_filters", "%s", tf(s->partition_filters));
    note(cfg, "table.index_type", "%s", s->partition_filters ? "kTwoLevelIndexSearch" : "kBinarySearch");
    note(cfg, "table.metadata_block_size", "%llu",
         (unsigned long long)(s->metadata_block_size ? s->metadata_block_size : DEFAULT_METADATA_BLOCK));
    note(cfg, "table.cache_index_and_filter_blocks", "%s", tf(s->cache_index_and_filter_blocks));
    note(cfg, "table.index_shortening", "%s", s->index_shortening);
}

static void set_engine_defaults(const fl_options *opt, const rdb_settings *s, rocksdb_options_t *o,
                                fl_rdb_config *cfg) {
    uint64_t wb = opt->memtable_bytes > (WRITE_BUFFER_MAX - WRITE_BUFFER_SLACK) / 16
                      ? WRITE_BUFFER_MAX : WRITE_BUFFER_SLACK + 16 * opt->memtable_bytes;
    int l0 = opt->l0_trigger > INT_MAX / 4 ? INT_MAX / 4 : (int)opt->l0_trigger;
    rocksdb_options_set_create_if_missing(o, 1);
    rocksdb_options_set_disable_auto_compactions(o, 1);
    rocksdb_options_set_max_background_jobs(o, 1);
    rocksdb_options_set_max_subcompactions(o, 1);
    rocksdb_options_set_compression(o, rocksdb_no_compression);
    rocksdb_options_set_write_buffer_size(o, (size_t)wb);
    rocksdb_options_set_level0_file_num_compaction_trigger(o, l0);
    rocksdb_options_set_level0_slowdown_writes_trigger(o, INT_MAX / 2);
    rocksdb_options_set_level0_stop_writes_trigger(o, INT_MAX / 2);
    rocksdb_options_set_target_file_size_base(o, opt->sst_bytes);
    rocksdb_options_set_stats_dump_period_sec(o, 0);
    rocksdb_options_set_manifest_preallocation_size(o, MANIFEST_PREALLOCATION);
    rocksdb_options_set_stats_persist_period_sec(o, 0);
    /* each open loads its tables in the calling thread, instead of 15
     * threads started for it (max_open_files=-1 loads them all) */
    rocksdb_options_set_max_file_opening_threads(o, 1);
    rocksdb_options_set_info_log_level(o, 2);              /* WARN */
    rocksdb_options_set_memtable_prefix_bloom_size_ratio(o, s->memtable_prefix_bloom);
    rocksdb_options_set_memtable_whole_key_filtering(o, s->memtable_whole_key_filtering);
    rocksdb_options_set_optimize_filters_for_hits(o, s->optimize_filters_for_hits);
    /* a hash memtable rep (1000 buckets, as RocksDB's defaults) buckets its
     * keys by the prefix extractor in force when the memtable is made, and
     * cannot take concurrent writes */
    if (s->memtable == 1) rocksdb_options_set_hash_skip_list_rep(o, 1000, 4, 4);
    if (s->memtable == 2) rocksdb_options_set_hash_link_list_rep(o, 1000);
    if (s->memtable) rocksdb_options_set_allow_concurrent_memtable_write(o, 0);
    note(cfg, "write_buffer_size", "%llu", (unsigned long long)wb);
    note(cfg, "level0_file_num_compaction_trigger", "%d", l0);
    note(cfg, "target_file_size_base", "%llu", (unsigned long long)opt->sst_bytes);
    note(cfg, "memtable_prefix_bloom_size_ratio", "%.17g", s->memtable_prefix_bloom);
    note(cfg, "memtable_whole_key_filtering", "%s", tf(s->memtable_whole_key_filtering));
    note(cfg, "optimize_filters_for_hits", "%s", tf(s->optimize_filters_for_hits));
    note(cfg, "memtable_factory", "%s", s->memtable == 1 ? "HashSkipListRepFactory"
                                      : s->memtable == 2 ? "HashLinkListRepFactory" : "SkipListFactory");
}

/* ---- Checking and making ---------------------------------------------------------- */

/* "name@bits;..." of a list, to tell whether two lists write the same
 * filters (bits are not in a bloom's name). */
typedef struct identity { const fl_registry *reg; fl_calls *calls; char *out; size_t cap; } identity;

static int add_identity(void *arg, const char *spec, size_t index) {
    identity *id = arg;
    fl_filter_policy *p = NULL;
    char perr[512], v[64];
    (void)index;
    int rc = fl_registry_make_policy(id->reg, spec, &p, perr, sizeof perr);
    if (rc) return rc;
    double bits = fl_spec_argument(spec, "bits", v, sizeof v) ? strtod(v, NULL) : DEFAULT_BITS;
    size_t used = strlen(id->out);
    snprintf(id->out + used, id->cap - used, "%s@%.17g;", fl_call_policy_name(id->calls, p), bits);
    fl_call_policy_destroy(id->calls, p);
    return FL_OK;
}

static int list_identity(const fl_registry *reg, fl_calls *calls, const char *list, char *out, size_t cap) {
    identity id = { reg, calls, out, cap };
    out[0] = 0;
    return fl_policy_list_split(list, add_identity, &id, NULL, 0);
}

static int check_filterlab_only(const fl_registry *reg, fl_calls *calls, const fl_options *opt,
                                char *err, size_t len) {
    if (opt->legacy_filters) {
        snprintf(err, len, "legacy_filters=1: RocksDB writes no Legacy (pre-composite) filter blocks");
        return FL_ERR_INVALID;
    }
    if (opt->min_filter_keys > 1) {
        snprintf(err, len, "min_filter_keys=%llu: RocksDB gives every SST a filter (only 0 or 1 "
                 "can run on it)", (unsigned long long)opt->min_filter_keys);
        return FL_ERR_INVALID;
    }
    if (!opt->compactor || strcmp(opt->compactor, opt->policies) == 0) return FL_OK;
    char a[2048], b[2048];
    int rc = list_identity(reg, calls, opt->policies, a, sizeof a);
    if (!rc) rc = list_identity(reg, calls, opt->compactor, b, sizeof b);
    if (rc || strcmp(a, b) != 0) {
        snprintf(err, len, "compactor=\"%s\": RocksDB compacts with the writer's filter policy, and "
                 "policies=\"%s\" is another (a compactor with other policies cannot run on it)",
                 opt->compactor, opt->policies);
        return FL_ERR_INVALID;
    }
    return FL_OK;
}

int fl_rdb_config_make(const fl_registry *reg, fl_calls *calls, const fl_options *opt,
                       fl_rdb_config *out, char *err, size_t err_len) {
    memset(out, 0, sizeof *out);
    rdb_settings s;
    rdb_policy pol;
    int rc = settings_parse(opt, &s, err, err_len);
    if (!rc) rc = check_filterlab_only(reg, calls, opt, err, err_len);
    if (!rc) rc = policy_parse(reg, calls, "policies", opt->policies, &pol, err, err_len);
    if (rc) return rc;
    rocksdb_options_t *o = rocksdb_options_create();
    set_engine_defaults(opt, &s, o, out);
    set_table(&pol, &s, opt, o, out);
    size_t capped = 0;
    if (!(pol.filter && pol.has_extractor)) note(out, "prefix_extractor", "nullptr");
    else if ((rc = set_extractor(reg, calls, &pol, &s, o, out, &capped, err, err_len))) {
        rocksdb_options_destroy(o);
        fl_rdb_config_free(calls, out);
        return rc;
    }
    /* What the C API of 7.8 has no setter for -- the CappedPrefix extractor,
     * index_shortening -- by name (a table option given so is merged into
     * the table factory set above) */
    char spec[256] = "", *rerr = NULL;
    if (capped) snprintf(spec, sizeof spec, "prefix_extractor=rocksdb.CappedPrefix.%zu;", capped);
    if (strcmp(s.index_shortening, "kShortenSeparators") != 0)
        snprintf(spec + strlen(spec), sizeof spec - strlen(spec),
                 "block_based_table_factory={index_shortening=%s};", s.index_shortening);
    if (spec[0]) {
        rocksdb_options_t *with = rocksdb_options_create();
        rocksdb_get_options_from_string(o, spec, with, &rerr);
        rocksdb_options_destroy(o);
        o = with;
        if (rerr) {
            snprintf(err, err_len, "RocksDB refused %s: %s", spec, rerr);
            rocksdb_free(rerr);
            rocksdb_options_destroy(o);
            fl_rdb_config_free(calls, out);
            return FL_ERR_INVALID;
        }
    }
    out->options = o;
    out->multiget = s.multiget;
    out->memtable_bytes = opt->memtable_bytes;
    out->l0_trigger = opt->l0_trigger;
    return FL_OK;
}

int fl_rdb_config_changes(const fl_rdb_config *from, fl_rdb_config *to, fl_rdb_changes *out,
                          char *err, size_t err_len) {
    memset(out, 0, sizeof *out);
    size_t used = 0;
    for (size_t i = 0; i < to->nsettings; i++) {
        fl_rdb_setting *n = &to->settings[i];
        const fl_rdb_setting *o = NULL;
        for (size_t j = 0; j < from->nsettings && !o; j++)
            if (strcmp(from->settings[j].name, n->name) == 0) o = &from->settings[j];
        if (o && strcmp(o->value, n->value) == 0) continue;
        /* RocksDB's write buffer only ever grows on an open database: the
         * engine flushes at memtable_bytes itself, and a buffer made
         * smaller than what the memtable already holds (its prefix bloom
         * is sized from the old one) makes RocksDB switch memtables and
         * flush in the background on its own -- no longer deterministic */
        if (o && strcmp(n->name, "write_buffer_size") == 0 &&
            strtoull(n->value, NULL, 10) < strtoull(o->value, NULL, 10)) {
            memcpy(n->value, o->value, sizeof n->value);     /* what stays in force */
            continue;
        }
        if (strcmp(n->name, "prefix_extractor") == 0 &&
            (strncmp(n->value, "filterlab:", 10) == 0 || (o && strncmp(o->value, "filterlab:", 10) == 0))) {
            snprintf(err, err_len, "policies: the prefix extractor changes from %s to %s, but RocksDB's "
                     "SetOptions takes an extractor only by name (rocksdb.FixedPrefix.N, "
                     "rocksdb.CappedPrefix.N, nullptr): a filterlab extractor inside RocksDB (delim, "
                     "lastdelim, a plugin, rocksdb.extractor=wrapped) changes only with a reopen",
                     o ? o->value : "none", n->value);
            return FL_ERR_INVALID;
        }
        if (strncmp(n->name, "table.", 6) == 0) {
            int k = snprintf(out->table + used, sizeof out->table - used, "%s%s=%s", used ? ";" : "{",
                             n->name + 6, n->value);
            if (k > 0 && (size_t)k < sizeof out->table - used) used += (size_t)k;
            continue;
        }
        out->keys[out->count] = n->name;
        out->values[out->count++] = n->value;
    }
    if (used && used + 2 <= sizeof out->table) {
        strcat(out->table, "}");
        out->keys[out->count] = "block_based_table_factory";
        out->values[out->count++] = out->table;
    }
    return FL_OK;
}

void fl_rdb_config_free(fl_calls *calls, fl_rdb_config *cfg) {
    if (cfg->options) rocksdb_options_destroy(cfg->options);
    if (cfg->extractor) fl_call_extractor_destroy(calls, cfg->extractor);
    memset(cfg, 0, sizeof *cfg);
}

#else
/* Without RocksDB there are no options to map (ISO C wants a declaration). */
typedef int fl_rdb_options_unused;
#endif /* FL_HAVE_ROCKSDB */
