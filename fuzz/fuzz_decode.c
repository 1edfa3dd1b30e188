/*
 * fuzz_decode.c -- bytes -> a workload, for fuzz_ops (filterlab's engine)
 * and fuzz_rocksdb (RocksDB): the format of fuzz_ops.h, one decoder.  For
 * RocksDB the same bytes decode into what the RocksDB engine can express
 * (fuzz_ops.h says how the fields are read then).
 */
#include "fuzz_env.h"
#include "fuzz_ops.h"
#include "../model/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
    const uint8_t *p, *end;
    fuzz_target target;
    bool avoid_known;                 /* RocksDB: steer clear of its known bugs */
    /* RocksDB: the policy in force (for set_options) and its settings */
    char policy[256];                 /* "" for none                          */
    char bloom_args[64];              /* "bits=B,whole_key=W" of the bloom    */
    bool native;                      /* its extractor is RocksDB's own, or none */
    bool mem_bloom;                   /* a memtable prefix bloom is on        */
} reader;

static uint8_t next(reader *rd) { return rd->p < rd->end ? *rd->p++ : 0; }

/* ---- Decoding ------------------------------------------------------------ */

static void key(reader *rd, fl_bytes *out, uint8_t *buf) {
    uint8_t c = next(rd);
    out->len = c < FUZZ_KEY_RAW ? c % 6 : (size_t)(c - FUZZ_KEY_RAW);
    for (size_t i = 0; i < out->len; i++)
        buf[i] = c < FUZZ_KEY_RAW ? FUZZ_ALPHABET[next(rd) % FUZZ_ALPHABET_SIZE] : next(rd);
    out->data = buf;
}

/* A policy list spec into out (at least 512 bytes). */
static void policy_list(reader *rd, char *out) {
    size_t ncand, len = 0, count = 0;
    const char *const *cand = fuzz_env_list("FILTERLAB_FUZZ_POLICIES", &ncand);
    uint8_t n = next(rd);
    if (ncand && (n & 0x80)) { snprintf(out, 512, "%s", cand[(n & 0x7f) % ncand]); return; }
    char names[3][FL_MODEL_NAME_MAX];
    strcpy(out, "none");
    int blooms = rd->target == FUZZ_FOR_ROCKSDB ? n % 2 : n % 4;   /* RocksDB runs one */
    for (int i = 0; i < blooms; i++) {
        unsigned hi = next(rd);
        unsigned mb = (hi << 8 | next(rd)) % 21001;
        uint8_t mode = next(rd), param = next(rd);
        fl_model_bloom_config cfg = { mb, !(mode & 1), (mode >> 1) % 5 != 0,
                                      { (fl_model_extractor_kind)((mode >> 1) % 5), 1u + param % 5,
                                        FUZZ_ALPHABET[param % FUZZ_ALPHABET_SIZE] } };
        fl_model_bloom_name(&cfg, names[count], sizeof names[count]);
        bool taken = false;
        for (size_t j = 0; j < count; j++) taken |= strcmp(names[j], names[count]) == 0;
        if (taken) continue;
        static const char *const kinds[5] = { "", "fixed", "capped", "delim", "lastdelim" };
        if (rd->target == FUZZ_FOR_ROCKSDB) {
            /* lastdelim's prefixes are not contiguous in key order, where
             * RocksDB leaves prefix seeks undefined: delim instead; and with
             * no extractor, whole-key filtering stays on (else no filter) */
            if (cfg.extractor.kind == FL_MODEL_LASTDELIM) cfg.extractor.kind = FL_MODEL_DELIM;
            if (!cfg.has_extractor) cfg.whole_key = true;
            snprintf(rd->bloom_args, sizeof rd->bloom_args, "bits=%u.%03u,whole_key=%d", mb / 1000,
                     mb % 1000, cfg.whole_key);
            rd->native = !cfg.has_extractor || cfg.extractor.kind <= FL_MODEL_CAPPED;
        }
        char prefix[40] = "";
        if (cfg.has_extractor && cfg.extractor.kind <= FL_MODEL_CAPPED)
            snprintf(prefix, sizeof prefix, ",prefix=%s:%u", kinds[cfg.extractor.kind], (unsigned)cfg.extractor.n);
        else if (cfg.has_extractor)
            snprintf(prefix, sizeof prefix, ",prefix=%s:\\x%02x", kinds[cfg.extractor.kind], cfg.extractor.delim);
        len += (size_t)snprintf(out + len, 512 - len, "%sbloom(bits=%u.%03u,whole_key=%d%s)",
                                count ? ";" : "", mb / 1000, mb % 1000, cfg.whole_key, prefix);
        count++;
    }
}

/* RocksDB's open or reopen: the same bytes, read as what it can express
 * (fuzz_ops.h): one bloom or none, and rocksdb.* settings from the flags. */
static void rocksdb_options(reader *rd, fl_op *op, fl_wl_option *opts, char (*values)[512]) {
    static const char *const keys[] = { "l0_trigger", "memtable_bytes", "sst_bytes", "block_bytes",
        "policies", "rocksdb.partition_filters", "rocksdb.metadata_block_size",
        "rocksdb.memtable_prefix_bloom", "rocksdb.filter", "rocksdb.format_version",
        "rocksdb.index_shortening", "rocksdb.extractor", "rocksdb.get" };
    static const char *const ratios[4] = { "0", "0.05", "0.1", "0.25" };
    uint8_t flags = next(rd), memtable = next(rd), sst = next(rd), block = next(rd);
    unsigned nums[4] = { 1u + ((flags >> 4) & 3u), 256u + 16u * memtable, 256u + 16u * sst,
                         32u + 4u * block };
    for (int i = 0; i < 4; i++) snprintf(values[i], 512, "%u", nums[i]);
    rd->bloom_args[0] = 0;
    rd->native = true;
    policy_list(rd, values[4]);
    snprintf(rd->policy, sizeof rd->policy, "%s", values[4]);
    bool partition = flags & 1, ribbon = flags & 8;
    unsigned ratio = (flags >> 1) & 3u;
    bool shorten_none = flags & 0x80, fixed_in_policy = strstr(values[4], "prefix=fixed:") != NULL;
    bool wrapped = false;
    if (rd->avoid_known) {
        /* 11.2.0: FixedPrefix asserts on short keys -- run fixed wrapped;
         * 9.5.0: SeekForPrev under partitioned prefix filters without
         * whole keys -- keep RocksDB's default index shortening */
        wrapped = fixed_in_policy;
        if (partition) shorten_none = false;
    }
    snprintf(values[5], 512, "%d", partition);
    snprintf(values[6], 512, "%u", 64u + 4u * block);
    snprintf(values[7], 512, "%s", ratios[ratio]);
    snprintf(values[8], 512, "%s", ribbon ? "ribbon" : "bloom");
    snprintf(values[9], 512, "%d", flags & 0x40 ? 4 : 5);
    snprintf(values[10], 512, "%s", shorten_none ? "none" : "separators");
    snprintf(values[11], 512, "%s", wrapped ? "wrapped" : "native");
    snprintf(values[12], 512, "%s", sst & 1 ? "multiget" : "get");
    if (wrapped) rd->native = false;
    rd->mem_bloom = ratio != 0;
    op->opt_count = 13;
    for (size_t i = 0; i < op->opt_count; i++) opts[i] = (fl_wl_option){ (char *)keys[i], values[i] };
    op->opts = opts;
}

/* RocksDB's set_options: what SetOptions can change -- the sizes, the
 * memtable bloom, and the extractor between RocksDB's own kinds and none
 * when the one in force is RocksDB's own (a filterlab extractor inside
 * RocksDB changes only with a reopen) -- and the get's read path. */
static void rocksdb_set_options(reader *rd, fl_op *op, fl_wl_option *opts, char (*values)[512]) {
    static const char *const ratios[4] = { "0", "0.05", "0.1", "0.25" };
    uint8_t how = next(rd), memtable = next(rd), sst = next(rd), param = next(rd);
    size_t n = 0;
    snprintf(values[n], 512, "%u", 256u + 16u * memtable);
    opts[n] = (fl_wl_option){ "memtable_bytes", values[n] };
    n++;
    snprintf(values[n], 512, "%u", 256u + 16u * sst);
    opts[n] = (fl_wl_option){ "sst_bytes", values[n] };
    n++;
    bool change = rd->native && rd->bloom_args[0] && (how & 3) != 3;
    if (change && rd->avoid_known && rd->mem_bloom) change = false;     /* 9.7.0 */
    if (change) {
        static const char *const kinds[3] = { "", "fixed", "capped" };
        if ((how & 3) == 0) snprintf(values[n], 512, "bloom(%s)", rd->bloom_args);
        else snprintf(values[n], 512, "bloom(%s,prefix=%s:%u)", rd->bloom_args, kinds[how & 3], 1u + param % 5);
        if ((how & 3) == 0 && strstr(rd->bloom_args, "whole_key=0")) change = false;   /* no filter */
        else if (rd->avoid_known && (how & 3) == 1) change = false;     /* fixed: 11.2.0 */
        if (change) {
            snprintf(rd->policy, sizeof rd->policy, "%s", values[n]);
            opts[n] = (fl_wl_option){ "policies", values[n] };
            n++;
        }
    }
    if (how & 4) {
        unsigned ratio = (how >> 3) & 3u;
        if (!(rd->avoid_known && ratio && !rd->mem_bloom)) {
            snprintf(values[n], 512, "%s", ratios[ratio]);
            opts[n] = (fl_wl_option){ "rocksdb.memtable_prefix_bloom", values[n] };
            rd->mem_bloom = ratio != 0;
            n++;
        }
    }
    if (how & 0x20) {
        snprintf(values[n], 512, "%s", how & 0x40 ? "multiget" : "get");
        opts[n] = (fl_wl_option){ "rocksdb.get", values[n] };
        n++;
    }
    op->opt_count = n;
    op->opts = opts;
}

/* The options of an open or reopen, as KEY=VALUE pairs in op. */
static void options(reader *rd, fl_op *op, fl_wl_option *opts, char (*values)[512]) {
    if (rd->target == FUZZ_FOR_ROCKSDB) {
        if (op->kind == FL_OP_SET_OPTIONS) rocksdb_set_options(rd, op, opts, values);
        else rocksdb_options(rd, op, opts, values);
        return;
    }
    static const char *const keys[] = { "legacy_filters", "min_filter_keys", "l0_trigger",
        "max_runs", "memtable_bytes", "sst_bytes", "block_bytes", "policies", "compactor" };
    uint8_t flags = next(rd), memtable = next(rd), sst = next(rd), block = next(rd);
    unsigned nums[7] = { flags & 1u, (flags >> 1) & 3u, 1u + ((flags >> 4) & 3u), 1u + (flags >> 6),
                         256u + 16u * memtable, 256u + 16u * sst, 32u + 4u * block };
    for (int i = 0; i < 7; i++) snprintf(values[i], 512, "%u", nums[i]);
    policy_list(rd, values[7]);
    op->opt_count = 8;
    if (flags & 8) { policy_list(rd, values[8]); op->opt_count = 9; }
    for (size_t i = 0; i < op->opt_count; i++) opts[i] = (fl_wl_option){ (char *)keys[i], values[i] };
    op->opts = opts;
}

void fuzz_decode(const uint8_t *data, size_t size, fuzz_target target, fl_workload *w) {
    reader rd = { .p = data, .end = data + size, .target = target };
    /* RocksDB's known bugs are avoided unless FILTERLAB_FUZZ_ROCKSDB_AVOID_KNOWN=0
     * (fuzz_ops.h): known upstream bugs must not fail `make fuzz` */
    const char *avoid = getenv("FILTERLAB_FUZZ_ROCKSDB_AVOID_KNOWN");
    rd.avoid_known = target == FUZZ_FOR_ROCKSDB && !(avoid && strcmp(avoid, "0") == 0);
    fl_wl_option opts[13];
    char values[13][512];
    uint8_t a[16], b[16], value[96], *packed = NULL;
    size_t packed_len = 0;
    fl_op op = { .kind = FL_OP_OPEN, .line = 2 };
    options(&rd, &op, opts, values);
    if (fl_workload_add(w, &op) != 0) abort();
    for (unsigned i = 0; i < FUZZ_OPS_MAX && rd.p < rd.end; i++) {
        uint8_t code = next(&rd);
        memset(&op, 0, sizeof op);
        op.kind = FUZZ_OP_KIND[code & 15];
        if ((code & 15) == FUZZ_CODE_SCAN && (code >> 4) % 4) {
            static const fl_op_kind variants[4] = { FL_OP_SCAN, FL_OP_SEEK, FL_OP_SEEK_FOR_PREV,
                                                    FL_OP_SET_OPTIONS };
            op.kind = variants[(code >> 4) % 4];
        }
        op.line = i + 3;
        switch (op.kind) {
        case FL_OP_PUT:
            key(&rd, &op.a, a);
            snprintf((char *)value, sizeof value, "v%u-%060u", i, 0u);
            op.b = (fl_bytes){ value, 3u * (code >> 4) };
            break;
        case FL_OP_DELRANGE: case FL_OP_SCAN:
            key(&rd, &op.a, a);
            key(&rd, &op.b, b);
            break;
        case FL_OP_GET: case FL_OP_SCAN_PREFIX:
            if (op.kind == FL_OP_GET && (code & 0x70) == 0x70) {    /* multiget of 2-8 keys */
                op.kind = FL_OP_MULTIGET;
                op.count = 2u + next(&rd) % 7u;
                packed_len = 0;
                for (uint32_t k = 0; k < op.count; k++) {
                    fl_bytes one;
                    key(&rd, &one, a);
                    if (fl_op_multiget_pack(&packed, &packed_len, one.data, one.len) != 0) abort();
                }
                op.a = (fl_bytes){ packed, packed_len };
            } else {
                key(&rd, &op.a, a);
            }
            if (code & 0x80) {
                op.has_ctx = true;
                op.ctx_len = 1 + next(&rd) % 8;
                for (size_t j = 0; j < op.ctx_len; j++) op.ctx[j] = next(&rd);
            }
            break;
        case FL_OP_DEL: key(&rd, &op.a, a); break;
        case FL_OP_COMPACT: op.full = (code & 15) == FUZZ_CODE_COMPACT_FULL; break;
        case FL_OP_REOPEN: case FL_OP_SET_OPTIONS: options(&rd, &op, opts, values); break;
        case FL_OP_SEEK: case FL_OP_SEEK_FOR_PREV: {
            key(&rd, &op.a, a);
            uint8_t p = next(&rd);
            op.count = 1u + p % 8u;
            op.prefix_mode = (int)((p >> 3) % 3) - 1;
            break;
        }
        default: break;
        }
        if (fl_workload_add(w, &op) != 0) abort();
    }
    free(packed);
}

