/*
 * gen.c -- `filterlab gen --shape SHAPE [options]`: writes a generated
 * workload (workloads/workload.h, fl_gen_workload) as format v1 to stdout or
 * to -o FILE (SPEC sections 9 and 11).
 *
 * The workload's description (its leading comment lines) gives the exact
 * command line and every effective parameter, defaults included, so a
 * workload file says how it was made and can be made again.  Ops are
 * streamed as they are generated, so any --ops count fits in memory.  With
 * -o the file appears only when it is complete (written beside it, then
 * renamed); nothing is written when the options are bad.  Exit 0 on
 * success, 2 on bad usage, bad options or a write error.
 */
#include "cli.h"
#include "../properties/check.h"
#include "../workloads/workload.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *f) {
    fprintf(f,
        "usage: filterlab gen --shape SHAPE [--ops N] [--seed S] [--keys N] [--theta X]\n"
        "                     [--mix put=45,del=5,delrange=1,get=20,get_absent=15,prefix=5,\n"
        "                            prefix_absent=5,scan=4,seek=4]\n"
        "                     [--flush-every N] [--compact-every N] [--reopen-every N]\n"
        "                     [--open OPTIONS] [--reopen OPTIONS]... [--ctx-rate X]\n"
        "                     [--edge-rate X] [--values MIN:MAX] [--words FILE] [-o FILE] [--force]\n"
        "\n"
        "Writes a workload (format 1) of the given key shape, deterministic from the\n"
        "options: the same options give the same bytes.\n"
        "\n"
        "Shapes:\n"
        "  uniform       keys k<digits><0-3 letters> drawn uniformly from --keys keys\n"
        "  zipf          the same keys with Zipf popularity (--theta, default 0.99),\n"
        "                hot keys spread over the key range\n"
        "  group-suffix  GroupId||Suffix: g<4 digits> then a 3-12 byte suffix, 50 keys\n"
        "                a group (the RFC's prefix-only case); absent groups between\n"
        "  delimited     tenant:user:item with fields of varying length\n"
        "  timeseries    s<4 digits> then a big-endian 8-byte millisecond timestamp,\n"
        "                increasing per sensor (binary keys); --keys/250 sensors\n"
        "  adversarial   the empty key, NUL and 0xFF runs (all-0xFF keys), delimiters\n"
        "                at the ends, keys that are prefixes of keys, keys of 1-8 bytes\n"
        "                and of a few KiB, empty values\n"
        "  words         words and word:word pairs from a word list (--words FILE,\n"
        "                default /usr/share/dict/words, Debian package wamerican)\n"
        "\n"
        "Options:\n"
        "  --ops N            ops in all, open and reopens included (default 10000)\n"
        "  --seed S           the seed (default 1)\n"
        "  --keys N           size of the key space (default 10000; adversarial: 1000\n"
        "                     random keys besides the hand-picked ones)\n"
        "  --theta X          zipf skew, 0 < X < 1 (default 0.99)\n"
        "  --mix LIST         the op mix as relative weights, NAME=W separated by commas;\n"
        "                     names not listed get 0. get/prefix read present keys and\n"
        "                     prefixes, get_absent/prefix_absent ones never written\n"
        "  --flush-every N    a flush every N ops on average (0 never; default 200)\n"
        "  --compact-every N  a compaction every N ops on average, a quarter of them\n"
        "                     `compact full` (0 never; default 1000)\n"
        "  --reopen-every N   a reopen every N ops on average (0 never; default 2500)\n"
        "  --open OPTIONS     the open line's options, e.g.\n"
        "                     'policies=\"bloom(bits=10,prefix=fixed:5)\" memtable_bytes=8192'\n"
        "  --reopen OPTIONS   the options of the reopens, taken in turn (repeatable);\n"
        "                     by default each reopen repeats the open's policies\n"
        "  --ctx-rate X       fraction of gets and scan_prefix with a random 0-64 byte\n"
        "                     filter context (default 0)\n"
        "  --edge-rate X      fraction of gets, scan_prefix, scans and delranges aimed\n"
        "                     at the bounds the engine keeps -- SSTs' first and last\n"
        "                     keys, range tombstones' starts and ends -- or next to\n"
        "                     them (default 0.25; 0 turns it off)\n"
        "  --values MIN:MAX   value lengths in bytes (default 4:32)\n"
        "  --words FILE       the word list of --shape words\n"
        "  -o FILE            write to FILE instead of stdout: a new or regular file\n"
        "                     is written whole or left as it was (a temporary file\n"
        "                     beside it, renamed at the end)\n"
        "  --force            also write to a device, FIFO or symbolic link (in\n"
        "                     place); never over the word list or a directory\n"
        "  -h, --help         this text\n"
        "\n"
        "Example:\n"
        "  filterlab gen --shape group-suffix --ops 5000 --seed 7 \\\n"
        "      --open 'policies=\"bloom(bits=10,prefix=fixed:5)\"' \\\n"
        "      --reopen 'policies=\"bloom(bits=8,prefix=fixed:5,whole_key=0)\"' -o g.wl\n"
        "\n"
        "Exit status: 0 written, 2 bad usage, bad options or a write error.\n");
}

#define bad_usage(...) fl_cli_bad_usage("gen", NULL, __VA_ARGS__)

/* ---- Values ----------------------------------------------------------------- */

static bool parse_double(const char *s, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (!*s || *end || errno || !isfinite(v)) return false;
    *out = v;
    return true;
}

static const char *const mix_names[] = {
    "put", "del", "delrange", "get", "get_absent", "prefix", "prefix_absent", "scan", "seek",
};
#define MIX_NAMES (sizeof mix_names / sizeof mix_names[0])

static unsigned *mix_weight(fl_gen_options *o, size_t i) {
    unsigned *w[MIX_NAMES] = { &o->w_put, &o->w_del, &o->w_delrange, &o->w_get_present,
                               &o->w_get_absent, &o->w_prefix_present, &o->w_prefix_absent,
                               &o->w_scan, &o->w_seek };
    return w[i];
}

/* "put=45,get=20": the listed weights; the others become 0. */
static int parse_mix(const char *text, fl_gen_options *o) {
    bool seen[MIX_NAMES] = { false };
    unsigned w[MIX_NAMES] = { 0 };
    const char *p = text;
    for (;;) {
        size_t n = strcspn(p, ",");
        const char *eq = memchr(p, '=', n);
        size_t k = MIX_NAMES;
        if (eq)
            for (k = 0; k < MIX_NAMES; k++)
                if (strlen(mix_names[k]) == (size_t)(eq - p) && !memcmp(p, mix_names[k], (size_t)(eq - p)))
                    break;
        char num[24];
        uint64_t v = 0;
        size_t vn = eq ? n - (size_t)(eq - p) - 1 : 0;
        bool ok = eq && k < MIX_NAMES && vn > 0 && vn < sizeof num;
        if (ok) {
            memcpy(num, eq + 1, vn);
            num[vn] = 0;
            ok = fl_cli_parse_u64(num, &v) && v <= 1000000;
        }
        if (!ok)
            return bad_usage("--mix: expected NAME=WEIGHT (NAME one of put, del, delrange, get, "
                             "get_absent, prefix, prefix_absent, scan, seek; WEIGHT 0-1000000), got "
                             "'%.*s'", (int)n, p);
        if (seen[k]) return bad_usage("--mix: %s given twice", mix_names[k]);
        seen[k] = true;
        w[k] = (unsigned)v;
        if (!p[n]) break;
        p += n + 1;
    }
    for (size_t i = 0; i < MIX_NAMES; i++) *mix_weight(o, i) = w[i];
    return -1;
}

/* ---- Arguments --------------------------------------------------------------- */

typedef struct gen_args {
    fl_gen_options opt;
    const char    *output;
    const char    *words;           /* the word list read (an input)   */
    bool           force;           /* --force: see fl_cli_out_open    */
    const char   **reopens;
    bool           have_shape;
    /* the raw option values, applied once the shape is known */
    const char *ops, *seed, *keys, *theta, *mix, *flush, *compact, *reopen_every, *ctx, *edge,
               *values;
} gen_args;

static int number_arg(const char *flag, const char *text, uint64_t max, uint64_t *out) {
    if (!text) return 0;
    if (!fl_cli_parse_u64(text, out) || *out > max)
        return bad_usage("%s: expected a whole number 0-%" PRIu64 ", got '%s'", flag, max, text);
    return 0;
}

/* Applies the raw values over the shape's defaults. -1 go on, else exit. */
static int apply_args(gen_args *a) {
    fl_gen_options *o = &a->opt;
    uint64_t v;
    if (number_arg("--ops", a->ops, UINT32_MAX - 2u, &o->ops) ||
        number_arg("--seed", a->seed, UINT64_MAX, &o->seed) ||
        number_arg("--keys", a->keys, 1ull << 40, &o->keys) ||
        number_arg("--flush-every", a->flush, UINT64_MAX, &o->flush_every) ||
        number_arg("--compact-every", a->compact, UINT64_MAX, &o->compact_every) ||
        number_arg("--reopen-every", a->reopen_every, UINT64_MAX, &o->reopen_every))
        return FL_EXIT_USAGE;
    if (a->keys && o->keys == 0) return bad_usage("--keys: expected at least 1, got 0");
    if (a->theta && (!parse_double(a->theta, &o->theta) || !(o->theta > 0 && o->theta < 1)))
        return bad_usage("--theta: expected a number between 0 and 1 (exclusive), got '%s'", a->theta);
    if (a->ctx && (!parse_double(a->ctx, &o->ctx_rate) || !(o->ctx_rate >= 0 && o->ctx_rate <= 1)))
        return bad_usage("--ctx-rate: expected a fraction 0-1, got '%s'", a->ctx);
    if (a->edge && (!parse_double(a->edge, &o->edge_rate) || !(o->edge_rate >= 0 && o->edge_rate <= 1)))
        return bad_usage("--edge-rate: expected a fraction 0-1, got '%s'", a->edge);
    if (a->mix && parse_mix(a->mix, o) >= 0) return FL_EXIT_USAGE;
    if (a->values) {
        const char *colon = strchr(a->values, ':');
        char lo[24];
        uint64_t hi;
        size_t n = colon ? (size_t)(colon - a->values) : 0;
        bool ok = colon && n > 0 && n < sizeof lo;
        if (ok) {
            memcpy(lo, a->values, n);
            lo[n] = 0;
            ok = fl_cli_parse_u64(lo, &v) && fl_cli_parse_u64(colon + 1, &hi) && v <= hi && hi <= 1048576;
        }
        if (!ok)
            return bad_usage("--values: expected MIN:MAX with 0 <= MIN <= MAX <= 1048576, got '%s'",
                             a->values);
        o->value_min = (uint32_t)v;
        o->value_max = (uint32_t)hi;
    }
    return -1;
}

static int parse_args(int argc, char **argv, gen_args *a) {
    static const char *const valued[] = {
        "--shape", "--ops", "--seed", "--keys", "--theta", "--mix", "--flush-every",
        "--compact-every", "--reopen-every", "--reopen", "--open", "--ctx-rate", "--edge-rate",
        "--values",
        "--words", "--output", "-o",
    };
    const size_t nvalued = sizeof valued / sizeof valued[0];
    const char *shape = NULL, *open = NULL, *words = NULL;
    size_t nreopen = 0;
    a->reopens = calloc((size_t)argc + 1, sizeof *a->reopens);
    if (!a->reopens) { fprintf(stderr, "filterlab gen: out of memory\n"); return FL_EXIT_USAGE; }
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i], *val = NULL;
        if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
            usage(stdout);
            return FL_EXIT_OK;
        }
        if (strcmp(s, "--force") == 0) { a->force = true; continue; }
        size_t which = nvalued;
        int m = fl_cli_flag(argc, argv, &i, valued, nvalued, &which, &val);
        if (m < 0) return bad_usage("%s needs an argument", valued[which]);
        if (m == 0) {
            if (s[0] == '-') return bad_usage("unknown option '%s'", s);
            return bad_usage("unexpected argument '%s' (the shape is given with --shape)", s);
        }
        const char *const name = valued[which];
        const char **slot = NULL;
        if (!strcmp(name, "--shape")) slot = &shape;
        else if (!strcmp(name, "--ops")) slot = &a->ops;
        else if (!strcmp(name, "--seed")) slot = &a->seed;
        else if (!strcmp(name, "--keys")) slot = &a->keys;
        else if (!strcmp(name, "--theta")) slot = &a->theta;
        else if (!strcmp(name, "--mix")) slot = &a->mix;
        else if (!strcmp(name, "--flush-every")) slot = &a->flush;
        else if (!strcmp(name, "--compact-every")) slot = &a->compact;
        else if (!strcmp(name, "--reopen-every")) slot = &a->reopen_every;
        else if (!strcmp(name, "--open")) slot = &open;
        else if (!strcmp(name, "--ctx-rate")) slot = &a->ctx;
        else if (!strcmp(name, "--edge-rate")) slot = &a->edge;
        else if (!strcmp(name, "--values")) slot = &a->values;
        else if (!strcmp(name, "--words")) slot = &words;
        else if (!strcmp(name, "--reopen")) { a->reopens[nreopen++] = val; continue; }
        else slot = &a->output;                           /* -o, --output */
        if (*slot) return bad_usage("%s given twice", name);
        if (!*val && strcmp(name, "--open") != 0)
            return bad_usage("%s needs a non-empty argument", name);
        *slot = val;
    }
    a->words = words;
    if (!shape) return bad_usage("missing --shape SHAPE (uniform, zipf, group-suffix, delimited, "
                                 "timeseries, adversarial, words)");
    fl_gen_shape sh;
    if (fl_gen_shape_parse(shape, &sh) != 0)
        return bad_usage("unknown shape '%s' (shapes: uniform, zipf, group-suffix, delimited, "
                         "timeseries, adversarial, words)", shape);
    fl_gen_defaults(&a->opt, sh);
    a->opt.open_options = open;
    a->opt.reopen_options = nreopen ? a->reopens : NULL;
    a->opt.reopen_count = nreopen;
    if (words) a->opt.words_path = words;
    return apply_args(a);
}

/* ---- The description ------------------------------------------------------- */

/* The description's lines, each written as a "# " comment line. */
static void write_description(FILE *f, int argc, char **argv, const fl_gen_options *o) {
    fputs("# generated by: filterlab", f);
    for (int i = 0; i < argc; i++) {
        fputc(' ', f);
        fl_shell_print_word(f, argv[i]);
    }
    fprintf(f, "\n# shape %s, %" PRIu64 " ops, seed %" PRIu64 ", keys %" PRIu64,
            fl_gen_shape_name(o->shape), o->ops, o->seed, o->keys);
    if (o->shape == FL_SHAPE_ZIPF) fprintf(f, ", theta %g", o->theta);
    if (o->shape == FL_SHAPE_WORDS) fprintf(f, ", words %s", o->words_path);
    fprintf(f, "\n# mix put=%u,del=%u,delrange=%u,get=%u,get_absent=%u,prefix=%u,"
               "prefix_absent=%u,scan=%u,seek=%u\n", o->w_put, o->w_del, o->w_delrange,
            o->w_get_present, o->w_get_absent, o->w_prefix_present, o->w_prefix_absent, o->w_scan,
            o->w_seek);
    fprintf(f, "# on average a flush every %" PRIu64 ", a compaction every %" PRIu64
               ", a reopen every %" PRIu64 " ops (0: never); values %" PRIu32 "-%" PRIu32
               " bytes; filter contexts on %g of reads; %g of reads and range deletes at "
               "edges\n", o->flush_every, o->compact_every, o->reopen_every, o->value_min,
            o->value_max, o->ctx_rate, o->edge_rate);
}

/* ---- Output ---------------------------------------------------------------- */

typedef struct gen_out {
    FILE *f;
    int   argc;
    char **argv;
    const fl_gen_options *opt;
    bool  started, write_failed;
} gen_out;

/* The op sink: the description and header before the first op (op may be
 * NULL: the header alone). */
static int write_op(void *arg, const fl_op *op) {
    gen_out *out = arg;
    if (!out->started) {
        write_description(out->f, out->argc, out->argv, out->opt);
        fputs("filterlab-workload 1\n", out->f);
        out->started = true;
    }
    if (op && fl_op_print(op, out->f) == 0) fputc('\n', out->f);
    if (ferror(out->f)) out->write_failed = true;
    return out->write_failed || fl_cli_stop ? -1 : 0;         /* a stop signal ends it */
}

int fl_cli_gen(int argc, char **argv) {
    gen_args a;
    memset(&a, 0, sizeof a);
    int status = parse_args(argc, argv, &a);
    if (status >= 0) { free(a.reopens); return status; }

    gen_out out = { stdout, argc, argv, &a.opt, false, false };
    fl_cli_out file;
    const char *inputs[] = { a.words };
    if ((status = fl_cli_out_open(&file, "gen", "-o", a.output ? a.output : "-", a.force, inputs, 1))) {
        free(a.reopens);
        return status;
    }
    out.f = file.f;
    bool atomic = !file.direct;                  /* a temporary file, renamed at the end */
    uint32_t lens[8];
    size_t nlens = 0;
    fl_prefix_lengths(a.opt.open_options, lens, &nlens, 8);
    for (size_t i = 0; i < a.opt.reopen_count; i++)
        fl_prefix_lengths(a.opt.reopen_options[i], lens, &nlens, 8);
    a.opt.prefix_lengths = lens;
    a.opt.prefix_length_count = nlens;
    a.opt.sink = write_op;
    a.opt.sink_arg = &out;
    fl_cli_catch_stops();
    char err[1024] = "";
    int rc = fl_gen_workload(&a.opt, NULL, err, sizeof err);
    if (rc == 0 && !out.started) write_op(&out, NULL);   /* --ops 0: the header alone */
    bool done = rc == 0 && !out.write_failed && !fl_cli_stop;
    int closed = fl_cli_out_close(&file, "gen", "-o", done);
    bool write_error = out.write_failed || closed != FL_EXIT_OK;
    const char *where = a.output && strcmp(a.output, "-") != 0 ? a.output : "stdout";
    free(a.reopens);
    if (fl_cli_stop) {
        fprintf(stderr, "filterlab gen: interrupted (signal %d)%s\n", (int)fl_cli_stop,
                atomic ? "; nothing written" : "");
        return 128 + fl_cli_stop;
    }
    if (write_error) {
        if (closed == FL_EXIT_OK) fprintf(stderr, "filterlab gen: %s: write error\n", where);
        return FL_EXIT_USAGE;
    }
    if (rc != 0) {
        fprintf(stderr, "filterlab gen: %s\n", *err ? err : "generation failed");
        return FL_EXIT_USAGE;
    }
    return FL_EXIT_OK;
}
