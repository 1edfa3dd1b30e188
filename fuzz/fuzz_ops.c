/*
 * fuzz_ops.c -- the differential op fuzzer: bytes -> options and ops (the
 * format of fuzz_ops.h) -> the checker (properties/check.h), engine and
 * model side by side, in a fresh temporary database per input.
 *
 * Any property violation (a broken plugin contract is one), engine error or
 * hung plugin call prints the message and the decoded workload (replay it
 * with `filterlab replay`) and aborts.  FILTERLAB_FUZZ_PRINT=1 prints every input's workload to
 * stdout (to turn corpus files into .wl files).  To fuzz your own code,
 * load it and name its specs:
 *     FILTERLAB_FUZZ_PLUGINS=mine.so:other.so
 *     FILTERLAB_FUZZ_POLICIES="mine(x=1);bloom(bits=10)|mine(x=2)"
 */
#include "fuzz_env.h"
#include "fuzz_ops.h"
#include "../model/model.h"
#include "../properties/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct reader { const uint8_t *p, *end; } reader;

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
    for (int i = 0; i < n % 4; i++) {
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

/* The options of an open or reopen, as KEY=VALUE pairs in op. */
static void options(reader *rd, fl_op *op, fl_wl_option *opts, char (*values)[512]) {
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

/* The workload of an input: an open, then at most FUZZ_OPS_MAX ops. */
static void decode(const uint8_t *data, size_t size, fl_workload *w) {
    reader rd = { data, data + size };
    fl_wl_option opts[9];
    char values[9][512];
    uint8_t a[16], b[16], value[96];
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
            key(&rd, &op.a, a);
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
}

/* ---- Running ------------------------------------------------------------- */

static const fl_workload *running;

static void die(const char *what, const char *msg) {
    fprintf(stderr, "fuzz_ops: %s: %s\n--- the workload (filterlab replay FILE):\n", what, msg);
    if (running) fl_workload_print(running, stderr);
    abort();
}

static void on_violation(void *arg, int property, unsigned line, const char *message) {
    (void)arg; (void)property; (void)line;
    die("property violated", message);
}

static void on_abandon(void *arg, const fl_run_outcome *so_far) {
    (void)arg;
    die("plugin call hung", so_far->message);
}

static void ignore_violation(void *arg, const fl_contract_violation *v) { (void)arg; (void)v; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fl_registry *reg = fuzz_registry();
    size_t ncand;
    const char *const *cand = fuzz_env_list("FILTERLAB_FUZZ_POLICIES", &ncand);
    static bool checked;
    for (size_t i = 0; !checked && i < ncand; i++) {
        char err[1024] = "";
        fl_policy_list list;
        fl_calls *calls;
        if (fl_calls_new(reg, &calls) != FL_OK) abort();
        fl_calls_set_sink(calls, ignore_violation, NULL);     /* the runs find those */
        if (fl_policy_list_parse(reg, calls, cand[i], &list, err, sizeof err) != FL_OK) {
            fprintf(stderr, "FILTERLAB_FUZZ_POLICIES: %s\n", err);
            exit(2);
        }
        fl_policy_list_free(calls, &list);
        fl_calls_free(calls);
    }
    checked = true;

    fl_workload w = { 0 };
    decode(data, size, &w);
    running = &w;
    if (getenv("FILTERLAB_FUZZ_PRINT")) fl_workload_print(&w, stdout);
    const char *base = getenv("TMPDIR");
    if (!base || !*base) base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    fl_runner run = {
        .check = { .reg = reg, .path = "fuzz_ops", .check = true, .max_shown = 0, .seed = size,
                   .no_sync = true, .on_violation = on_violation },
        .scratch = base, .call_timeout = 10, .on_abandon = on_abandon,
    };
    fl_run_outcome out;
    if (fl_run_workload(&run, &w, &out) != FL_OK || out.rc != FL_OK) die("engine error", out.error);
    running = NULL;
    fl_workload_free(&w);
    return 0;
}
