/*
 * seedtool.c -- turns workloads and SSTs into seed inputs for the harnesses
 * (used by fuzz/make_corpus.sh; not a harness):
 *
 *   seedtool ops FILE.wl            the workload in the byte format of
 *                                   fuzz_ops.h, on stdout (the first
 *                                   FUZZ_OPS_MAX ops; plugin specs dropped,
 *                                   keys and numbers clipped to what the
 *                                   format holds)
 *   seedtool specs FILE.wl          every policies=/compactor= value, each
 *                                   of its specs and each prefix= value, one
 *                                   a line
 *   seedtool blocks DIR ID OUT      the filter block of SST ID of the
 *                                   database DIR as OUT.blk and, when it is
 *                                   Composite, each sub-filter's data as
 *                                   OUT-N.sub
 *
 * Only public headers: blocks opens DIR as a database with no policies
 * (fl_db_open), takes the stored block from fl_db_sst_filter_block and
 * splits it with fl_filter_block_split (engine.h).
 */
#include "fuzz_ops.h"
#include "../engine/engine.h"
#include "../model/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- ops ------------------------------------------------------------------ */

static unsigned clip(unsigned long long v, unsigned lo, unsigned step, unsigned max) {
    unsigned long long n = v < lo ? 0 : (v - lo) / step;
    return n > max ? max : (unsigned)n;
}

static void put_key(const fl_bytes *k) {
    bool short_form = k->len <= 5;
    uint8_t idx[5];
    for (size_t i = 0; short_form && i < k->len; i++) {
        const uint8_t *at = memchr(FUZZ_ALPHABET, k->data[i], FUZZ_ALPHABET_SIZE);
        short_form = at != NULL;
        if (at) idx[i] = (uint8_t)(at - FUZZ_ALPHABET);
    }
    if (short_form) {
        putchar((int)k->len);
        fwrite(idx, 1, k->len, stdout);
    } else {
        size_t n = k->len < 15 ? k->len : 15;
        putchar(FUZZ_KEY_RAW + (int)n);
        fwrite(k->data, 1, n, stdout);
    }
}

/* The blooms of a policy list, as fuzz_ops.h encodes lists. */
static void put_list(const char *spec) {
    uint8_t out[3][4];
    int n = 0;
    char *copy = strdup(spec ? spec : FL_DEFAULT_POLICIES), *save = NULL;
    for (char *piece = strtok_r(copy, ";", &save); piece && n < 3; piece = strtok_r(NULL, ";", &save)) {
        fl_model_bloom_config c;
        if (fl_model_bloom_parse(piece, &c, NULL, 0) != FL_MODEL_OK) continue;
        unsigned mb = c.millibits > 21000 ? 21000 : c.millibits, param = 0;
        int kind = c.has_extractor ? (int)c.extractor.kind : 0;
        if (kind == FL_MODEL_FIXED || kind == FL_MODEL_CAPPED) param = c.extractor.n > 5 ? 4 : c.extractor.n - 1;
        if (kind >= FL_MODEL_DELIM) {
            const uint8_t *at = memchr(FUZZ_ALPHABET, c.extractor.delim, FUZZ_ALPHABET_SIZE);
            param = at ? (unsigned)(at - FUZZ_ALPHABET) : 3;
        }
        uint8_t one[4] = { (uint8_t)(mb >> 8), (uint8_t)mb, (uint8_t)((c.whole_key ? 0 : 1) | kind << 1), (uint8_t)param };
        memcpy(out[n++], one, 4);
    }
    free(copy);
    putchar(n);
    fwrite(out, 4, (size_t)n, stdout);
}

static void put_options(const fl_options *o) {
    putchar((o->legacy_filters ? 1 : 0) | clip(o->min_filter_keys, 0, 1, 3) << 1 | (o->compactor ? 8 : 0) |
            clip(o->l0_trigger, 1, 1, 3) << 4 | clip(o->max_runs, 1, 1, 3) << 6);
    putchar(clip(o->memtable_bytes, 256, 16, 255));
    putchar(clip(o->sst_bytes, 256, 16, 255));
    putchar(clip(o->block_bytes, 32, 4, 255));
    put_list(o->policies);
    if (o->compactor) put_list(o->compactor);
}

static int ops(const fl_workload *w) {
    static const uint8_t codes[] = { [FL_OP_PUT] = 0, [FL_OP_DEL] = 4, [FL_OP_DELRANGE] = 5,
        [FL_OP_GET] = 6, [FL_OP_SCAN_PREFIX] = 8, [FL_OP_SCAN] = 10, [FL_OP_FLUSH] = 11,
        [FL_OP_COMPACT] = 12, [FL_OP_REOPEN] = 14 };
    fl_options o;
    fl_options_init(&o);
    size_t i = 0, n = 0;
    char err[512];
    if (w->count && w->ops[0].kind == FL_OP_OPEN)
        for (i = 1; n < w->ops[0].opt_count; n++)
            fl_options_set(&o, w->ops[0].opts[n].key, w->ops[0].opts[n].value, err, sizeof err);
    n = 0;
    put_options(&o);
    for (; i < w->count && n < FUZZ_OPS_MAX; i++, n++) {
        const fl_op *op = &w->ops[i];
        uint8_t code = codes[op->kind];
        if (op->kind == FL_OP_PUT) code |= (uint8_t)(clip(op->b.len, 0, 3, 15) << 4);
        if (op->kind == FL_OP_COMPACT && op->full) code = FUZZ_CODE_COMPACT_FULL;
        if (op->has_ctx) code |= 0x80;
        putchar(code);
        if (op->kind <= FL_OP_SCAN && op->kind >= FL_OP_PUT) put_key(&op->a);
        if (op->kind == FL_OP_DELRANGE || op->kind == FL_OP_SCAN) put_key(&op->b);
        if (op->has_ctx) {
            size_t len = op->ctx_len < 1 ? 1 : op->ctx_len > 8 ? 8 : op->ctx_len;
            putchar((int)len - 1);
            fwrite(op->ctx, 1, len, stdout);
        }
        if (op->kind == FL_OP_REOPEN) {
            for (size_t j = 0; j < op->opt_count; j++)
                fl_options_set(&o, op->opts[j].key, op->opts[j].value, err, sizeof err);
            put_options(&o);
        }
    }
    fl_options_free(&o);
    return 0;
}

/* ---- specs ---------------------------------------------------------------- */

static int specs(const fl_workload *w) {
    for (size_t i = 0; i < w->count; i++) {
        for (size_t j = 0; j < w->ops[i].opt_count; j++) {
            const fl_wl_option *o = &w->ops[i].opts[j];
            if (strcmp(o->key, "policies") && strcmp(o->key, "compactor")) continue;
            printf("%s\n", o->value);
            char *copy = strdup(o->value), *save = NULL;
            for (char *piece = strtok_r(copy, ";", &save); piece; piece = strtok_r(NULL, ";", &save)) {
                printf("%s\n", piece);
                const char *p = strstr(piece, "prefix=");
                if (p) printf("%.*s\n", (int)strcspn(p + 7, ",)"), p + 7);
            }
            free(copy);
        }
    }
    return 0;
}

/* ---- blocks --------------------------------------------------------------- */

static int write_file(const char *path, const uint8_t *data, size_t len) {
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) { perror(path); return 1; }
    return 0;
}

typedef struct sub_files { const char *out; size_t n; int rc; } sub_files;

static int write_sub(void *arg, const char *name, fl_slice data) {
    (void)name;
    sub_files *s = arg;
    char path[4096];
    snprintf(path, sizeof path, "%s-%zu.sub", s->out, s->n++);
    s->rc |= write_file(path, data.data, data.len);
    return 0;
}

static int blocks(const char *dir, uint64_t id, const char *out) {
    fl_registry *reg;
    fl_options opt;
    fl_db *db;
    char err[1024], path[4096];
    if (fl_registry_new(&reg) != FL_OK) return 1;
    fl_options_init(&opt);
    opt.sync = false;                  /* a scratch copy: make_corpus.sh's replay */
    int rc = fl_options_set(&opt, "policies", "none", err, sizeof err);
    if (rc == FL_OK) rc = fl_db_open(dir, reg, &opt, &db, err, sizeof err);
    fl_options_free(&opt);
    if (rc != FL_OK) {
        fprintf(stderr, "seedtool: %s\n", err);
        fl_registry_free(reg);
        return 1;
    }
    fl_buf block;
    int format;
    fl_buf_init(&block);
    if ((rc = fl_db_sst_filter_block(db, id, &block, &format)) != FL_OK) {
        fprintf(stderr, "seedtool: %s\n", fl_db_errmsg(db));
        rc = 1;
    } else if (block.len > 0) {
        snprintf(path, sizeof path, "%s.blk", out);
        rc = write_file(path, block.data, block.len);
        sub_files subs = { out, 0, 0 };
        if (format == 1) fl_filter_block_split((fl_slice){ block.data, block.len }, write_sub, &subs);
        rc |= subs.rc;
    }
    fl_buf_free(&block);
    if (fl_db_close(db, err, sizeof err) != FL_OK) {
        fprintf(stderr, "seedtool: %s\n", err);
        rc = 1;
    }
    fl_registry_free(reg);
    return rc;
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "blocks") == 0)
        return blocks(argv[2], strtoull(argv[3], NULL, 10), argv[4]);
    if (argc != 3 || (strcmp(argv[1], "ops") && strcmp(argv[1], "specs"))) {
        fprintf(stderr, "usage: seedtool ops|specs FILE.wl | seedtool blocks DIR ID OUT\n");
        return 2;
    }
    fl_workload w = { 0 };
    char err[1024];
    if (fl_workload_load(argv[2], &w, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    int rc = argv[1][0] == 'o' ? ops(&w) : specs(&w);
    fl_workload_free(&w);
    return rc;
}
