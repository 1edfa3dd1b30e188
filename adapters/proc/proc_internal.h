/*
 * proc_internal.h -- what the files of the engine protocol's client share
 * (proc.c, proc_space.c), and what a named adapter program's folder
 * (adapters/slatedb/) builds its engine table from.
 */
#ifndef FL_PROC_INTERNAL_H
#define FL_PROC_INTERNAL_H

#include "../../properties/check.h"

#pragma GCC visibility push(hidden)

typedef struct child child;

/* A read as a kind's read_probes is told it: its kind (FL_OP_GET,
 * FL_OP_SCAN_PREFIX, FL_OP_SEEK or FL_OP_SEEK_FOR_PREV), its key (the
 * get's key, the scan_prefix's prefix, the seek's key) and, for a seek,
 * its prefix= (-1 absent, 0, 1). */
typedef struct fl_proc_read { fl_op_kind kind; fl_slice key; int prefix_mode; } fl_proc_read;

/* An engine that is an adapter program: its table first (fl_engine_ops.open
 * is handed this table, and finds the rest here: sqlite3_vfs's pattern). */
typedef struct fl_proc_kind {
    fl_engine_ops ops;                /* must be first                          */
    const char *command;              /* run with /bin/sh -c                     */
    child *idle;                      /* the adapter between a close and the
                                         next open (one per kind per process)  */
    /* A reader of the engine's SST files (a named adapter's, in C: filterlab
     * reads the files itself, never through the adapter), or NULL.  With it
     * and the adapter's `sst_file`, the kind's table has sst_filter: the
     * filter of the SST file at path as a read of the engine opened with opt
     * (and reg) would probe it, into *out, freed with free_sst_filter;
     * fresh: the SST was written under opt (it appeared since the open, and
     * the options stayed), so its filters are held to opt's bits per key
     * (P5).  FL_ERR_CORRUPT with err for a file that breaks the engine's
     * format. */
    int  (*read_sst_filter)(const char *path, const fl_registry *reg, const fl_options *opt, bool fresh,
                            fl_sst_filter **out, char *err, size_t err_len);
    void (*free_sst_filter)(fl_sst_filter *f);
    /* With the adapter's `probes`: whether a read's probe of filter bytes
     * (len, their fl_proc_fnv1a) was of a sub-filter of the SST filter f
     * (read_sst_filter's), and then *holds: whether that SST holds a key
     * the read's target asks about (any entry of it), as its file says.
     * NULL: no probe is matched, and the kind's table has no
     * last_read_trace. */
    bool (*probe_of)(const fl_sst_filter *f, size_t len, uint64_t hash, const fl_read_target *target, bool *holds);
    /* The SST filter probes read r had to make (fl_engine_ops.
     * last_read_probes), given what the memtable holds of its target: n
     * SSTs in the adapter's listing order (its engine's read order), f[i]
     * the filter of the i-th as read_sst_filter read it, level[i] its
     * level; asked (room for n) gets the indexes of the SSTs whose filters
     * those probes ask, in order, *nasked of them.  FL_ERR_NOTFOUND for a
     * read it cannot work out.  NULL: the kind's table has no
     * last_read_probes. */
    int  (*read_probes)(const fl_sst_filter *const *f, const int *level, size_t n, const fl_proc_read *r,
                        fl_mem_state mem, uint64_t *positive, uint64_t *negative, size_t *asked, size_t *nasked);
} fl_proc_kind;

/* The protocol's hash of a probe's filter bytes (`probe LEN HASH ...`):
 * FNV-1a 64 (offset basis 0xcbf29ce484222325, prime 0x100000001b3). */
uint64_t fl_proc_fnv1a(const uint8_t *data, size_t len);

/* Gives the kind (which reads its files: fl_proc_kind_read_files) the
 * matcher of probes to SSTs above, and so last_read_trace. */
void fl_proc_kind_match_probes(fl_proc_kind *kind,
                               bool (*probe_of)(const fl_sst_filter *f, size_t len, uint64_t hash,
                                                const fl_read_target *target, bool *holds));

/* Gives the kind (which reads its files) the work-out of a read's probes
 * above, and so last_read_probes. */
void fl_proc_kind_expect_reads(fl_proc_kind *kind,
                               int (*read_probes)(const fl_sst_filter *const *f, const int *level, size_t n,
                                                  const fl_proc_read *r, fl_mem_state mem, uint64_t *positive,
                                                  uint64_t *negative, size_t *asked, size_t *nasked));

/* A kind with proc.c's operations, named name, running command (both
 * borrowed for the kind's life); its space is fl_space_proc, which the
 * caller may replace. */
int fl_proc_kind_init(fl_proc_kind *kind, const char *name, const char *command);

/* Gives the kind a reader of its engine's SST files (read_sst_filter
 * above) and so the table's sst_filter. */
void fl_proc_kind_read_files(fl_proc_kind *kind,
                             int (*read)(const char *path, const fl_registry *reg, const fl_options *opt,
                                         bool fresh, fl_sst_filter **out, char *err, size_t err_len),
                             void (*free_filter)(fl_sst_filter *f));

/* proc.c's open (a named adapter's open may check first that its program
 * is there, then call this). */
int fl_proc_open(const fl_engine_ops *self, const char *dir, const fl_registry *reg, const fl_options *opt,
                 fl_engine **out, char *err, size_t err_len);

/* A named adapter's program, quoted for sh, into command: the path in
 * the environment variable env when it is set (false when that is not an
 * executable), else the first executable of beside (each a path relative
 * to the directory of the running filterlab binary, starting with '/').
 * false when none is found. */
bool fl_proc_find_program(const char *env, const char *const *beside, size_t n, char *command, size_t cap);

/* A bloom spec's bits per key as the named adapters map it onto their
 * engine's whole-number bits per key (Pebble's bloom.FilterPolicy,
 * SlateDB's BloomFilterPolicy::new): its bits=, 10 without one; -1 when
 * bits= is not a whole number from 0 to 1000. */
int fl_proc_spec_bits(const char *spec);

/* Whether an SST holds a key a read's target asks about (probe_of).  Its
 * rows are handed to fl_proc_holds_row one by one in key order, as long as
 * it returns 0; then found says. */
typedef struct fl_proc_holds { const fl_read_target *target; bool found; } fl_proc_holds;
int fl_proc_holds_row(fl_proc_holds *h, fl_slice key);

/* What `check --engine cmd:...` draws from (proc_space.c): configurations
 * any adapter of the protocol should take -- one built-in bloom, the
 * write, get, scan and scan_prefix ops, flushes, compactions and reopens --
 * and nothing it may not (a refusal is the trial's error, not a finding). */
extern const fl_space fl_space_proc;

#pragma GCC visibility pop

#endif /* FL_PROC_INTERNAL_H */
