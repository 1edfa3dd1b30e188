/*
 * workload.h -- the workload format, version 1 (SPEC section 9): parsing,
 * printing, and the byte-string spelling shared by every printer.
 *
 * A workload is a list of ops, each remembering the line it came from so
 * that results and violations can name it.  Parsing is all-or-nothing: any
 * malformed line fails the whole parse with a message naming the file, the
 * line number and what was expected, so nothing of a bad workload is run.
 *
 * print() then parse() gives back the same ops (kinds, bytes, options,
 * contexts); only line numbers, comments and spacing may differ.
 *
 * This module is at the bottom of the data flow: it knows nothing of the
 * engine.  It checks option KEYS against the list of SPEC 2.5 (and the
 * rocksdb.* namespace); option VALUES are the engine's to check.
 */
#ifndef FL_WORKLOAD_H
#define FL_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>

typedef enum fl_op_kind {
    FL_OP_OPEN = 1,       /* opts                                   */
    FL_OP_PUT,            /* a = key, b = value                      */
    FL_OP_DEL,            /* a = key                                 */
    FL_OP_DELRANGE,       /* a = start, b = end                      */
    FL_OP_GET,            /* a = key, ctx                            */
    FL_OP_SCAN_PREFIX,    /* a = prefix, ctx                         */
    FL_OP_SCAN,           /* a = start, b = end                      */
    FL_OP_FLUSH,
    FL_OP_COMPACT,        /* full                                    */
    FL_OP_REOPEN,         /* opts                                    */
    FL_OP_SEEK,           /* a = key, count, prefix_mode             */
    FL_OP_SEEK_FOR_PREV,  /* a = key, count, prefix_mode             */
    FL_OP_SET_OPTIONS,    /* opts                                    */
    FL_OP_CRASH,          /* count: the process dies (now, or at the
                             count-th file operation from here, wherever
                             that falls), power is lost, and the
                             database reopens with the same options     */
    FL_OP_MULTIGET,       /* a = the keys, packed (fl_op_multiget_key),
                             count = how many; ctx                      */
    FL_OP_LAST = FL_OP_MULTIGET
} fl_op_kind;

/* seek and seek_for_prev: up to `count` live entries from KEY, forward
 * (>= KEY, ascending) or backward (<= KEY, descending).  prefix_mode -1
 * (not given: prefix mode when an extractor is configured), 0 (total order,
 * no prefix filters) or 1 (prefix mode: only entries whose extracted prefix
 * equals KEY's, stopping at the first that differs; total order when KEY
 * has no prefix).  SPEC 9. */
#define FL_WL_SEEK_MAX 1000000u   /* n= at most                         */
#define FL_WL_MULTIGET_MAX 64u    /* keys of one multiget at most       */
#define FL_WL_CRASH_AFTER_MAX 1000000000u   /* crash after= at most       */

/* A byte string.  data is never NULL (at least one byte is allocated for
 * the empty string) so it can be passed anywhere a pointer is expected.
 * Who owns it: the op (its own allocation, ops of fl_workload_parse), or,
 * for an op with in_arena set, the workload's arena (ops appended by
 * fl_workload_add), freed by fl_workload_free with the workload. */
typedef struct fl_bytes { uint8_t *data; size_t len; } fl_bytes;

/* KEY=VALUE of open/reopen; both owned, NUL-terminated (VALUE unquoted). */
typedef struct fl_wl_option { char *key; char *value; } fl_wl_option;

#define FL_WL_CTX_MAX 64

typedef struct fl_op {
    fl_op_kind kind;
    unsigned   line;                 /* 1-based line in the source text */
    fl_bytes   a, b;
    bool       has_ctx;              /* get/scan_prefix with ctx=       */
    bool       in_arena;             /* a and b are in the workload's
                                        arena, not the op's to free: set
                                        by fl_workload_add only, and
                                        ignored by it (it copies bytes);
                                        an op moved within its workload
                                        keeps it                         */
    size_t     ctx_len;              /* 0..64 bytes given               */
    uint8_t    ctx[FL_WL_CTX_MAX];   /* zero-padded                     */
    bool       full;                 /* compact full                    */
    uint32_t   count;                /* seek n= (1..FL_WL_SEEK_MAX);
                                        crash after= (0: now); multiget:
                                        its keys (1..FL_WL_MULTIGET_MAX) */
    int        prefix_mode;          /* seek prefix=: -1 not given, 0, 1 */
    size_t     opt_count;
    fl_wl_option *opts;
} fl_op;

typedef struct fl_workload {
    char   *description;   /* the comment lines before the header, '#'
                              stripped, joined with '\n'; "" if none   */
    size_t  count;
    fl_op  *ops;
    /* The bytes of the ops fl_workload_add appended (those with in_arena
     * set), in blocks that never move; NULL when there are none.  Freed by
     * fl_workload_free.  It belongs to the workload, not to the ops array:
     * the ops may be reordered or moved to a new array (and ops with their
     * own bytes added) as long as the arena stays with the workload; an
     * op of it taken out of the workload does not outlive it. */
    struct fl_wl_arena *arena;
} fl_workload;

/* The option keys a workload may use (SPEC 2.5), NULL-terminated; any key
 * "rocksdb.NAME" (NAME: 1 to 64 bytes of [a-z0-9_]) may be used too, the
 * RocksDB engine's own settings (SPEC 9, 15), at most once per op like the
 * others. */
extern const char *const fl_wl_option_keys[];

/* Parses text (len bytes, need not be NUL-terminated).  filename is used
 * in messages only.  On error returns -1 with err set to
 * "FILE:LINE: expected ..., got ..." and *out left empty; 0 on success. */
int  fl_workload_parse(const char *text, size_t len, const char *filename,
                       fl_workload *out, char *err, size_t err_len);
/* The limits of a workload file, checked while reading: a line of at most
 * 64 MiB (a value is at most 1 MiB, SPEC 9, even quoted at 4 bytes a
 * byte), a file of at most 1 GiB (about 50 million ops of the generator's
 * shapes). */
#define FL_WL_MAX_LINE ((size_t)64 << 20)
#define FL_WL_MAX_FILE ((size_t)1 << 30)

/* Reads and parses a file ("-" is stdin): 0, or -1 with err set ("FILE:
 * LINE: ..." for a line or file over the limits). */
int  fl_workload_load(const char *path, fl_workload *out, char *err, size_t err_len);
/* The same, and stops reading within 0.1 s of *stop becoming nonzero (a
 * signal's flag), even on a silent pipe: then -2. */
int  fl_workload_load_until(const char *path, const volatile sig_atomic_t *stop, fl_workload *out,
                            char *err, size_t err_len);
void fl_workload_free(fl_workload *w);

/* A workload file read and parsed a chunk of ops at a time, so that a
 * workload of any length (within the limits above) runs in memory that
 * does not grow with it.  Lines, messages and limits are exactly those of
 * fl_workload_load; but a malformed line is only found when its chunk is
 * read, so a caller that must run nothing of a bad workload reads the
 * stream through once first (cli/replay.c does).  A regular file or a
 * FIFO; not "-".
 *   open: 0, or -1 with err set.
 *   next: replaces chunk's ops (freeing the old ones) with the next ones,
 *         at most max_ops; 0 (chunk->count == 0 at the end), -1 with err
 *         set (then every later call fails too), -2 when *stop was set. */
typedef struct fl_wl_stream fl_wl_stream;
int  fl_wl_stream_open(const char *path, const volatile sig_atomic_t *stop, fl_wl_stream **out,
                       char *err, size_t err_len);
int  fl_wl_stream_next(fl_wl_stream *s, size_t max_ops, fl_workload *chunk, char *err, size_t err_len);
void fl_wl_stream_close(fl_wl_stream *s);

/* Writes the description as comment lines (before the header, where
 * parse() takes it from), the header, and one op per line.
 * Returns 0, or -1 on a write error. */
int  fl_workload_print(const fl_workload *w, FILE *f);
/* Writes one op as its workload line (no newline). */
int  fl_op_print(const fl_op *op, FILE *f);

/* Writes a byte string as SPEC 9 says: bare when every byte is 0x21-0x7E
 * other than '"', '\\' and '=' (and len > 0), else double-quoted with
 * \\ \" \n \t and \xNN escapes. */
void fl_bytes_print(FILE *f, const uint8_t *data, size_t len);
/* Reads one byte string, written as fl_bytes_print writes it (bare or
 * quoted), from the start of s[0..n): its bytes into out[0..*out_len)
 * (out has room for n bytes: a decoding is never longer than its text)
 * and the text it took into *used (the token ends at a blank or the end).
 * false for no token (an empty s or a blank first) or a malformed one. */
bool fl_bytes_scan(const char *s, size_t n, uint8_t *out, size_t *out_len, size_t *used);

/* Appending ops (for generators and the shrinker): copies the bytes (into
 * the workload's arena: the copy has in_arena set) and the options (each
 * its own allocation, as a parsed op's). */
int fl_workload_add(fl_workload *w, const fl_op *op);

/* The op's keyword: "put", "scan_prefix", ... */
const char *fl_op_name(fl_op_kind kind);

/* multiget KEY... (1 to FL_WL_MULTIGET_MAX keys, repeats allowed, [ctx=HEX]):
 * each key read as a get, all in one call of an engine that can (RocksDB's
 * batched MultiGet).  Its op holds the keys in a, packed: each one a 2-byte
 * big-endian length and its bytes; count says how many.
 *   key:  the key at *off (start at 0) into *key and *len, *off moved past
 *         it; false at the end (or on bytes that are not such a list).
 *   pack: appends one key to a packing buffer of *len bytes at *buf (grown
 *         with realloc); 0, or -1 when out of memory or the key is over
 *         65,535 bytes. */
bool fl_op_multiget_key(const fl_op *op, size_t *off, const uint8_t **key, size_t *len);
int  fl_op_multiget_pack(uint8_t **buf, size_t *len, const uint8_t *key, size_t klen);
/* The get of the key at *off (as fl_op_multiget_key walks them): the
 * multiget's line and context, its a that key (borrowed from op). */
bool fl_op_multiget_get(const fl_op *op, size_t *off, fl_op *get);

/* ---- Generators (gen.c): deterministic workloads of a given shape -------- */

typedef enum fl_gen_shape {
    FL_SHAPE_UNIFORM = 1,     /* random keys over a key space               */
    FL_SHAPE_ZIPF,            /* skewed key popularity (theta)              */
    FL_SHAPE_GROUP_SUFFIX,    /* GroupId || Suffix: the RFC's prefix-only case */
    FL_SHAPE_DELIMITED,       /* tenant:user:item                           */
    FL_SHAPE_TIMESERIES,      /* sensor id then a big-endian timestamp      */
    FL_SHAPE_ADVERSARIAL,     /* empty, short/long, NUL/0xFF, delimiters at
                                 the ends, prefixes that are keys            */
    FL_SHAPE_WORDS            /* keys from a word list (wamerican)          */
} fl_gen_shape;

typedef struct fl_gen_options {
    fl_gen_shape shape;
    uint64_t ops;             /* ops to generate, open and reopens included  */
    uint64_t seed;
    uint64_t keys;            /* size of the key space (shape-specific; 0: the shape's default) */
    double   theta;           /* zipf skew, 0 < theta < 1 (0.99 default)    */
    /* the op mix, as relative weights */
    unsigned w_put, w_del, w_delrange, w_get_present, w_get_absent,
             w_prefix_present, w_prefix_absent, w_scan,
             w_seek,              /* seek or seek_for_prev, half and half */
             w_multiget;          /* 2-8 keys, each present or absent as a
                                     get's, now and then one repeated (0 by
                                     default)                               */
    uint64_t flush_every;     /* a flush every N ops on average (0: never)  */
    uint64_t compact_every;   /* a compact every N ops on average (0: never) */
    uint64_t reopen_every;    /* a reopen every N ops on average (0: never) */
    double   ctx_rate;        /* fraction of reads with a random ctx=       */
    double   edge_rate;       /* fraction of reads aimed at the bounds the
                                 engine keeps: an SST's first and last key, a
                                 range tombstone's start and end, and their
                                 neighbours (0: none; the reads then are
                                 those of a generator without edges)       */
    uint32_t value_min, value_max;   /* value lengths                       */
    /* The open line's options, as workload option text
     * ("policies=\"bloom(bits=10)\" memtable_bytes=4096"), and the options
     * each reopen uses, taken in turn (NULL / 0: reopen changes nothing
     * but is still a close and open).  Parsed with the workload parser. */
    const char *open_options;
    const char *const *reopen_options;
    size_t reopen_count;
    const char *words_path;   /* FL_SHAPE_WORDS: default /usr/share/dict/words */
    /* The lengths of the fixed:N and capped:N extractors the configuration
     * uses (the caller reads them from the options: this module knows no
     * policy grammar): seek keys aim one byte shorter than, as long as and
     * one byte longer than each (fl_prefix_lengths in check.h finds them). */
    const uint32_t *prefix_lengths;
    size_t prefix_length_count;
    /* Optional (NULL: the reopens take reopen_options in turn, and there
     * are no set_options): the options of each reopen (kind FL_OP_REOPEN)
     * and set_options (FL_OP_SET_OPTIONS), as option text written into
     * out[0..cap), asked for when the generator emits the op -- in workload
     * order, so that a caller can make each one valid for the configuration
     * in force at that point.  A nonzero return, or text that does not
     * parse, stops generation with an error. */
    int  (*options_for)(void *arg, fl_op_kind kind, char *out, size_t cap);
    void *options_arg;
    uint64_t set_options_every;  /* a set_options every N ops on average (0:
                                    never); needs options_for              */
    /* Every seek is total order (prefix=0): for configurations under which
     * a prefix-mode seek has no defined result (an extractor whose
     * same-prefix keys are not contiguous, such as lastdelim, on RocksDB). */
    bool seek_total_order;
    /* The engine takes no write of the empty key (SlateDB's WriteBatch
     * panics on one): a put or del of "" is made one of "\x00" instead.
     * Reads of "" are kept. */
    bool no_empty_writes;
    /* Optional (NULL: every key): the engine takes no put, del or get of a
     * key for which this returns false (Pebble under an extractor as its
     * Split: a key the extractor gives no POINT prefix, or whose prefix has
     * no prefix key above it, adapters/pebble/pebble_space.c): such an op
     * is drawn again.  After
     * 16 * ops + 1024 such draws the workload ends where it is. */
    bool (*key_ok)(void *arg, const uint8_t *key, size_t len);
    void *key_ok_arg;
    /* Optional (NULL: ops are stored in *out): each op is handed to sink as
     * it is made, and not stored, so a workload larger than memory can be
     * written out; the op is borrowed for the call only.  A nonzero return
     * stops generation with an error. */
    int  (*sink)(void *arg, const fl_op *op);
    void *sink_arg;
} fl_gen_options;

/* Sensible defaults for a shape: 10,000 ops, about half writes and half
 * reads (put=45,del=5,delrange=1,get=20,get_absent=15,prefix=5,
 * prefix_absent=5,scan=4,seek=4), with absent gets and prefixes for FP
 * measurement, a flush every 200 ops, a compaction every 1,000 and a reopen
 * every 2,500 on average, values of 4-32 bytes, no filter contexts, a
 * quarter of the reads and range deletes at or next to an edge. */
void fl_gen_defaults(fl_gen_options *o, fl_gen_shape shape);
/* "uniform", "zipf", "group-suffix", ... -> shape; -1 if unknown. */
int  fl_gen_shape_parse(const char *name, fl_gen_shape *out);
const char *fl_gen_shape_name(fl_gen_shape shape);
/* Generates the workload into *out (empty on entry; may be NULL with a
 * sink), with an empty description: op i is on line i + 2 as
 * fl_workload_print writes it.  Deterministic for equal options.  -1 with
 * err set on bad options (or a missing word list), *out left empty. */
int  fl_gen_workload(const fl_gen_options *o, fl_workload *out, char *err, size_t err_len);

#endif /* FL_WORKLOAD_H */
