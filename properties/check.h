/*
 * check.h -- the properties module: the checker, the one runner every
 * command goes through, the engines under test, `filterlab check`'s trials
 * and the shrinker.
 *
 * The checker runs a workload op by op on an engine and on the reference
 * model side by side, consumes the engine's probe trace, and checks the
 * properties of SPEC section 8 after every op:
 *
 *   P1  no-false-negative  a sub-filter said no only where the SST held no match
 *   P2  results            get / scan_prefix / scan results equal the model's
 *   P3  skip-counts        per read, counter deltas equal the probe trace, and
 *                          each verdict follows from its sub-filters' answers;
 *                          sst_reads moved by the SSTs the read read (the
 *                          trace's UNFILTERED and MAYBE; for scan, those the
 *                          range overlaps), and a read wrote, flushed,
 *                          compacted and decoded nothing (ssts_written,
 *                          flushes, compactions, filter_errors unchanged)
 *   P4  fp-accounting      false_positive equals MAYBE verdicts on SSTs without
 *                          a match (SST truth, read without filters); per
 *                          read, the engine's expected_probes and
 *                          expected_fp_sum moved exactly as the checker's own
 *                          count of the same probes with each reference
 *                          filter's exact rate (to 1e-9 relative, plus the
 *                          rounding of the running sum)
 *   P5  exact-verdicts     built-in blooms: every sub-filter verdict equals the
 *                          reference filter's, and every stored filter's bytes
 *                          equal the reference build's
 *   P6  coverage           the considered SSTs are exactly those the manifest
 *                          says the read needed
 *   P7  extractor-contract n <= len, same input same answer, PREFIX Some(n)
 *                          implies POINT Some(n) on sampled extensions, and
 *                          no other broken contract (a NULL name); a break of
 *                          the RFC's literal POINT invariant that cannot cause
 *                          a false negative is a warning
 *   P8  migration          sub-filters whose names are configured are usable,
 *                          others skipped, none misdecoded
 *   P9  fp-rate            built-in blooms: over at least FL_P9_MIN_ITEMS
 *                          distinct probed items, the measured FP rate is not
 *                          above the expected one by more than FL_P9_SIGMAS
 *                          standard deviations; the expectation is exact given
 *                          each filter's bits, the deviation counts an item
 *                          probed against many filters as one correlated
 *                          group (see fl_fp_tally below and fprate.c)
 *   P10 bad-input          engine errors on valid input, crashes and hung
 *                          plugin calls are findings, never silent; a policy,
 *                          builder or filter that breaks its contract (a
 *                          failing new_builder, build or encode, no object, a
 *                          NULL name) fails it
 *   P11 round-trip         each new SST's filters, rebuilt by their own policy
 *                          from the SST's entries, decode from the stored bytes
 *                          and answer sampled probes as the built filter does;
 *                          a decode that fails is a failure of it
 *
 * Plugin policies get every property except P5 and P9.
 *
 * A database that already holds data when the checker first opens it is
 * adopted: the model starts from a full scan of it, and SSTs written before
 * are read-checked but not write-checked (their writer is unknown).
 *
 * Violation lines have the form
 *   P1 no-false-negative: line 123 get "user:17": sst 42 sub-filter
 *   "_bf:p=fixed3" said no, but sst 42 holds "user:17"
 * with byte strings spelled as in workload files; a broken plugin contract
 *   P7 extractor-contract: line 5 get abc: extractor "liar" of kind 'liar'
 *   from plugin ./mis.so broke its contract in prefix_len: ...
 */
#ifndef FL_CHECK_H
#define FL_CHECK_H

#include "../engine/engine.h"
#include "../workloads/workload.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

enum {
    FL_P1 = 1, FL_P2 = 2, FL_P3 = 3, FL_P4 = 4, FL_P5 = 5, FL_P6 = 6,
    FL_P7 = 7, FL_P8 = 8, FL_P9 = 9, FL_P10 = 10, FL_P11 = 11,
    FL_PROPERTY_COUNT = 12
};

/* "no-false-negative", ... ; "" for an unknown id. */
const char *fl_property_name(int property);

/* The property a broken plugin contract fails (SPEC 3, 8): P7 for an
 * extractor; P11 for a decode that fails (a filter must decode from the
 * bytes its own policy wrote); P10 for every other policy, builder or
 * filter failure (new_builder, build or encode failing, no object handed
 * back, a NULL name). */
int fl_contract_property(const fl_contract_violation *v);

/* ---- Engines under test (adapters/; SPEC 15) ---------------------------------
 * The checker drives an engine only through this table (LevelDB's Env,
 * SQLite's VFS): open with options, the write ops, reads with results,
 * flush, compact, metrics; and, where the engine has them, a probe trace
 * and read-only views of its SSTs (NULL otherwise: the checks that need
 * them are then skipped, and results, counters and P9 are what is checked).
 * Every function has the semantics of its engine.h namesake; an fl_engine
 * is an open database of that engine.
 *
 * The optional views go in groups: with set_probe_trace, every read is
 * checked probe by probe (P1, P3-P6, P8); without it, from its counters
 * (untraced.c says how).  An engine without a probe trace cannot tell which
 * SSTs held a match, so its false_positive counters stay 0: the checker
 * counts the false positives it knows of (reads of keys and prefixes that
 * were never written) into the summary.  ssts alone gives the live SSTs' key ranges;
 * sst_entries, sst_range_tombstones and sst_filter_block together give
 * the SST truth the write-side checks need (P5, P8, P11), and are used only
 * when all three are set. */
typedef struct fl_engine fl_engine;
struct fl_sst_filter;                /* below: an SST's filter as read from its file */

/* One SST filter probe a get, a scan_prefix or a prefix-mode seek made, as an engine without
 * a probe trace tells it afterwards (fl_engine_ops.last_read_trace). */
typedef struct fl_read_probe {
    uint64_t sst;      /* the SST whose filter it was; 0: none the read could ask */
    bool maybe;        /* the filter's answer                                     */
    bool holds;        /* that SST holds the key (a get) or a key starting with
                          the prefix (a scan_prefix), as its file says            */
} fl_read_probe;

/* What a read asked the filters it probed, as last_read_trace is told:
 * a get's key (KEY); a prefix read's prefix (PREFIX: the keys starting
 * with it); or a total-order range read's range (RANGE: from lo,
 * inclusive, when has_lo, to hi -- exclusive, or inclusive when
 * hi_inclusive -- when has_hi), whose probes are an engine's of SSTs it
 * asks about keys of the range (SlateDB's point probe of an SST whose part
 * of the range is one key: that key). */
typedef enum fl_read_kind { FL_READ_KEY, FL_READ_PREFIX, FL_READ_RANGE } fl_read_kind;
typedef struct fl_read_target {
    fl_read_kind kind;
    fl_slice key;                     /* KEY's key, PREFIX's prefix, RANGE's lo */
    fl_slice hi;                      /* RANGE                                   */
    bool has_lo, has_hi, hi_inclusive;
} fl_read_target;

/* Where key stands to t: < 0 before every key t asks about, 0 one of them,
 * > 0 past them all (keys in order: the ones t asks about are a run). */
static inline int fl_read_target_place(const fl_read_target *t, fl_slice key) {
    switch (t->kind) {
    case FL_READ_KEY:
        return fl_slice_cmp(key, t->key);
    case FL_READ_PREFIX:
        if (key.len >= t->key.len && memcmp(key.data, t->key.data, t->key.len) == 0) return 0;
        return fl_slice_cmp(key, t->key);
    default:
        if (t->has_lo && fl_slice_cmp(key, t->key) < 0) return -1;
        if (t->has_hi) {
            int c = fl_slice_cmp(key, t->hi);
            if (c > 0 || (c == 0 && !t->hi_inclusive)) return 1;
        }
        return 0;
    }
}

/* What the engine's memtable holds of a read's target, as the checker
 * knows it (fl_engine_ops.last_read_probes).  Of a get's key: nothing; its
 * newest entry a put, or a point deletion; or a range deletion of the
 * memtable covers the key (whatever the order of its point entries).  Of
 * a prefix read: RANGE_DELETED when the memtable holds any range
 * deletion, else NOTHING. */
typedef enum fl_mem_state {
    FL_MEM_NOTHING, FL_MEM_PUT, FL_MEM_DELETE, FL_MEM_RANGE_DELETED
} fl_mem_state;

typedef struct fl_engine_ops {
    const char *name;                                   /* "filterlab"  */
    /* self is this table (or the larger struct it is the first member of,
     * as sqlite3_vfs is: one implementation can serve several engines) */
    int  (*open)(const struct fl_engine_ops *self, const char *dir, const fl_registry *reg,
                 const fl_options *opt, fl_engine **out, char *err, size_t err_len);
    int  (*close)(fl_engine *e, char *err, size_t err_len);          /* frees e always */
    const char *(*errmsg)(const fl_engine *e);
    int  (*put)(fl_engine *e, fl_slice key, fl_slice value);
    int  (*del)(fl_engine *e, fl_slice key);
    int  (*delete_range)(fl_engine *e, fl_slice start, fl_slice end);
    int  (*flush)(fl_engine *e);
    int  (*compact)(fl_engine *e, bool full);
    int  (*get)(fl_engine *e, fl_slice key, const fl_filter_context *ctx, fl_buf *value, bool *found);
    int  (*scan_prefix)(fl_engine *e, fl_slice prefix, const fl_filter_context *ctx, fl_scan_fn fn,
                        void *arg);
    int  (*scan)(fl_engine *e, fl_slice start, fl_slice end, fl_scan_fn fn, void *arg);
    int  (*seek)(fl_engine *e, fl_slice key, bool backward, uint32_t n, int prefix_mode,
                 const fl_filter_context *ctx, fl_scan_fn fn, void *arg);
    /* set_options: opt is the whole new set (the workload's changes applied) */
    int  (*set_options)(fl_engine *e, const fl_options *opt, char *err, size_t err_len);
    void (*metrics)(const fl_engine *e, fl_metrics *out);
    /* optional */
    /* ahead: ops[0..n) are the next ops the caller runs, in order, ops[0]
     * the one it runs now, index its number in the run (counting from 0,
     * rising by one per op run).  Each is run through the table as its
     * kind says (put through put, get through get ...), after the metrics
     * before it, and followed by the metrics after it, then the SST views
     * the checker needs.  An engine in another process may start them now
     * (docs/protocol.md, "Speed").  NULL: never told. */
    void (*ahead)(fl_engine *e, uint64_t index, const fl_op *ops, size_t n);
    /* multiget: n keys read in one call (RocksDB's batched MultiGet), the
     * answers to values[i] and found[i]; NULL: the checker reads each key
     * with get */
    int  (*multiget)(fl_engine *e, size_t n, const fl_slice *keys, const fl_filter_context *ctx,
                     fl_buf *values, bool *found);
    void (*set_probe_trace)(fl_engine *e, fl_probe_fn fn, void *arg);
    int  (*ssts)(const fl_engine *e, fl_sst_meta **out, size_t *count);
    int  (*sst_entries)(fl_engine *e, uint64_t id, fl_entry_fn fn, void *arg);
    int  (*sst_range_tombstones)(fl_engine *e, uint64_t id, fl_rtomb_fn fn, void *arg);
    int  (*sst_filter_block)(fl_engine *e, uint64_t id, fl_buf *out, int *format);
    /* The filter of live SST id as read from its file (fl_sst_filter
     * below; valid until close): for P9 and reports on an engine without a
     * probe trace.  FL_ERR_NOTFOUND for no such SST, FL_ERR_CORRUPT with
     * errmsg saying why for a file it cannot read. */
    int  (*sst_filter)(fl_engine *e, uint64_t id, const struct fl_sst_filter **out);
    /* The SST filter probes the last read had to make -- a get, or a
     * prefix read (a scan_prefix; a seek or seek_for_prev in prefix mode)
     * -- as the engine's own files say (an engine without a probe trace
     * whose reader knows its filters' answers): *positive maybes and
     * *negative nos, given what the memtable holds of the read's target
     * (mem: the engine's rule decides whether a get goes on past it --
     * LevelDB stops at any entry; Pebble's iterator goes on past a point
     * deletion) -- worked out from the live SSTs in the engine's read order
     * and each one's stored filter bits and entries, not by asking the
     * engine.  FL_OK; FL_ERR_NOTFOUND when it cannot say (a read of
     * another kind, a filter only a plugin can answer, a file it cannot
     * read, a case its rule does not cover).  NULL: never.  *ssts (n of
     * them, valid until the next call) are the SSTs whose filters those
     * probes ask, in order.  The checker holds the read's counters of its
     * kind to exactly these, and takes P9's probes of the read from those
     * SSTs (untraced.c). */
    int  (*last_read_probes)(fl_engine *e, fl_mem_state mem, uint64_t *positive, uint64_t *negative,
                            const uint64_t **ssts, size_t *n);
    /* The SST filter probes the last read made -- a get, a scan_prefix,
     * or a seek in prefix mode -- in the order made, each matched to the
     * SST whose filter it was (an adapter that sees each probe's filter
     * bytes, and compares them with the filters of the SSTs the read had to
     * consider, as their files say), with whether that SST holds a key the
     * target asks about (the get's key; a key starting with the
     * scan_prefix's prefix or the seek key's extracted prefix; a key of a
     * total-order scan's or seek's range): any entry, a filter being of
     * every key its SST holds.  *why (valid until the next
     * call) says what a probe matched to no SST (sst 0) was asked of.
     * FL_OK; FL_ERR_NOTFOUND when it cannot say (for a read of another
     * kind, always).  NULL: never.  The checker takes a no of an SST that
     * holds the target as a false negative (P1), and a probe of a filter no
     * SST of the read has as P3 (untraced.c). */
    int  (*last_read_trace)(fl_engine *e, const fl_read_target *target, const fl_read_probe **probes, size_t *n,
                            const char **why);
    /* Frees e as a process that dies leaves its database: nothing more is
     * written (the workload's `crash`; the checker then simulates the power
     * loss through the fault env and reopens).  NULL: the engine cannot
     * simulate a crash, and a workload with one is refused. */
    void (*abandon)(fl_engine *e);
    /* What the last open did to the files that the user should hear of
     * (orphan SSTs removed or kept), "" for nothing; NULL: never anything.
     * The checker prints it to its messages after each open. */
    const char *(*note)(const fl_engine *e);
    /* Whether this open engine counts false positives of reads of this kind
     * (POINT: gets, PREFIX: prefix reads) itself (its false_positive counter
     * means what SPEC 6 says: a maybe on an SST
     * that held no match), though it has no probe trace: an adapter that
     * says so (docs/protocol.md: counters=).  NULL or false: without a probe
     * trace an engine cannot know which SSTs held a match, so its
     * false_positive must stay 0 and the checker counts what it can know
     * (RocksDB's case; untraced.c). */
    bool (*counts_false_positives)(const fl_engine *e, fl_target_kind kind);
    /* Whether its metrics' checks_positive and checks_negative are the
     * engine's own statistic of every SST filter check (re-checks of one
     * SST in one read included), which the checker holds to the counters
     * (untraced.c, ck_check_checks).  NULL: never. */
    bool (*counts_checks)(const fl_engine *e);
    /* How a prefix read picks the SSTs whose filters it may probe, for the
     * checks of an engine without a probe trace (untraced.c): true, as
     * RocksDB's iterator does -- every L0 file, and in each deeper level
     * only the file it seeks into (the next ones are entered without a
     * probe), once per seek it counts (fl_filter_counters.seeks); false,
     * any SST whose key range overlaps the prefix's. */
    bool prefix_reads_seek_levels;
    /* What the engine is, for the checker and the runner (none of them ever
     * tests an engine's name): */
    /* the configuration space `check` draws this engine's trials from
     * (fl_space below; every engine of the registry has one) */
    const struct fl_space *space;
    /* the engine does all its file I/O through fl_options.env: the checker
     * may put its files in a memory env (in_memory) and its crashes through
     * the fault env (crashes) */
    bool uses_env;
    /* `check` may run this engine's trials one after another inside a
     * worker process it forked before the engine ran there, with no fork
     * per trial: nothing a trial leaves in the process (threads idle in a
     * pool, static state) changes the next one, and the worker never forks
     * while the engine's threads run.  (A finding is run again, shrunk, in
     * a process of its own.)  false: every trial runs in a fresh child. */
    bool fork_safe;
} fl_engine_ops;

/* What kind of filter an SST stored, as sst_filter reads it. */
typedef enum fl_sst_filter_kind {
    FL_SSTF_NONE = 0,    /* no filter: never probed                            */
    FL_SSTF_BLOOM,       /* a bloom: `lines` lines (cache-local: 64-byte lines,
                            k independent probes in one; or legacy, RocksDB
                            format < 5 and Pebble: strided probes), k     */
    FL_SSTF_RIBBON,      /* a ribbon filter                                    */
    FL_SSTF_OTHER,       /* one P9 does not judge: partitioned, a format not
                            read, a rate that cannot be computed; `what`
                            says which                                      */
} fl_sst_filter_kind;

typedef struct fl_sst_filter {
    fl_sst_filter_kind kind;
    char what[64];       /* "bloom (format 5)", "ribbon", "partitioned", ...  */
    uint64_t bytes;      /* the stored filter block(s), metadata included      */
    /* BLOOM, RIBBON: the chance that an item the filter never hashed is a
     * false positive, given its bits (a bloom: fl_bloom_lines_expected_fp;
     * a ribbon: 2^-columns of the block its start slot falls in, averaged
     * over the start slots) */
    double expected;
    /* BLOOM, RIBBON: whether a random item with 64-bit hash h would be a
     * false positive -- the ghosts of P9 (fprate.c).  A bloom probes its
     * bits as the engine does; a ribbon draws from h with its rate for the
     * block h starts in (no solution is read) */
    bool (*probe_hash)(const struct fl_sst_filter *f, uint64_t h);
    const uint8_t *data; /* BLOOM: the lines; RIBBON: unused                 */
    uint32_t lines;      /* BLOOM: lines; RIBBON: blocks of 128 slots          */
    uint32_t k;          /* BLOOM: probes; RIBBON: upper_num_columns           */
    uint32_t split;      /* RIBBON: upper_start_block (blocks below it have
                            one column fewer)                               */
    /* BLOOM, RIBBON: the reads P9 may judge by this filter's bits, as
     * 1u << fl_target_kind (FL_TARGET_POINT: gets; FL_TARGET_PREFIX: prefix
     * reads); 0: both.  A filter asked what it did not hash (a whole-key
     * bloom asked a prefix) says maybe without looking at its bits. */
    unsigned answers;
    /* What the engine's reader found wrong with the filter it read, ""
     * for nothing: the stored bytes differ from the engine's own
     * algorithm rebuilt over the SST's entries.  A P5 finding, reported
     * once per SST when the SST first appears. */
    char defect[256];
} fl_sst_filter;

/* An engine call found the engine gone: an adapter program that died, or
 * that cannot be talked to any more (its errmsg says how, and shows the
 * end of its stderr).  A finding (P10), never bad input. */
#define FL_ERR_ENGINE_DIED (-100)

/* The engine a NULL engine means in the configs below: the first of the
 * registry (adapters/adapters.h, which lists the engines by name). */
const fl_engine_ops *fl_engine_default(void);

/* ---- The checker (checker.c, probes.c, truth.c, contract.c, fprate.c) -------
 *
 * Runs ops one at a time on an engine and the model and checks them; the
 * runner below is how every command uses it. */

/* Called for each violation (after it is counted); message has no newline
 * and starts with "Pn name: ". */
typedef void (*fl_check_violation_fn)(void *arg, int property, unsigned line, const char *message);

typedef struct fl_check_config {
    const fl_engine_ops *engine; /* NULL: fl_engine_filterlab                  */
    const fl_registry *reg;      /* resolves the workload's specs; outlives ck */
    const char *dir;             /* the database directory                     */
    const char *path;            /* the workload file, for messages            */
    bool        check;           /* false: run the engine alone (--no-check)   */
    bool        quiet;           /* with check false: broken plugin contracts
                                    are not printed (a run for its metrics)    */
    FILE       *results;         /* one line per read (SPEC 11), or NULL       */
    FILE       *messages;        /* violation and warning lines, or NULL       */
    uint64_t    max_shown;       /* at most this many violation lines printed  */
    uint64_t    seed;            /* for sampled probes and extensions          */
    bool        no_sync;         /* a throwaway database: skip every fsync    */
    /* The database's files in a memory env of the checker's own (engine.h),
     * freed with it: no disk.  filterlab's engine only; another engine
     * keeps its files in dir. */
    bool        in_memory;
    bool        read_only;       /* open dir for reads only (fl_options)      */
    bool        create_anyway;   /* a new database even beside SST files
                                    without a MANIFEST (fl_options)          */
    /* The workload has `crash` ops: filterlab's engine runs on the fault env
     * (over the memory env or posix) with every fsync, and the checker
     * keeps the model's state as of the last completed flush, which is what
     * a crash leaves (there is no write-ahead log). */
    bool        crashes;
    /* With crashes: called once with the fault env before the first open,
     * to set it up (fl_env_fault_*): tests of the crash testing itself. */
    void      (*on_fault_env)(void *arg, fl_env *fault);
    void       *on_fault_env_arg;
    fl_check_violation_fn on_violation;   /* optional                          */
    void       *on_violation_arg;
} fl_check_config;

typedef struct fl_check_summary {
    uint64_t   ops, violations, warnings, ssts;
    uint64_t   crashes;          /* crashes simulated and recovered from       */
    uint64_t   by_property[FL_PROPERTY_COUNT];
    fl_metrics metrics;          /* summed over every open of the database     */
    int        first_property;   /* of the first violation, 0 if none          */
    unsigned   first_line;
    /* P9, per kind (0 point, 1 prefix), as fl_fp_result (below): eligible
     * probes of built-in blooms the checker saw built, the distinct items
     * among them, the measured and expected FP rates, the standard
     * deviation P9 uses and z = (measured - expected) / sd (filled in by
     * fl_checker_finish; all 0 without probes). */
    struct { uint64_t probes, items; double measured, expected, sd, z; } fp[2];
} fl_check_summary;

typedef struct fl_checker fl_checker;

/* Plugin calls the checker and its database make report to the checker
 * (each through a call context of its own, fl_calls): a broken contract is
 * a violation of fl_contract_property's property, naming the plugin file,
 * the object and what it broke.
 *
 * Call order:  fl_checker_new  fl_checker_run*  fl_checker_finish  fl_checker_free
 * The first op should be FL_OP_OPEN; if it is not, the database is opened
 * with the default options first.  A violation is not an error: it is
 * reported (printed to cfg.messages, capped at cfg.max_shown lines, every one
 * counted) and the run goes on.  An engine error (I/O, corrupt SST, bad
 * option value) is an error: fl_checker_run returns it and
 * fl_checker_errmsg says what and where. */
int  fl_checker_new(const fl_check_config *cfg, fl_checker **out);
/* Runs op on the engine and the model and checks what it did. */
int  fl_checker_run(fl_checker *ck, const fl_op *op);
/* Before fl_checker_run of ops[0]: ops[0..n) are the ops it will be given
 * next, in order, index the number of ops[0] in the run (the engine's
 * `ahead`: an engine in another process may start them now). */
void fl_checker_ahead(fl_checker *ck, uint64_t index, const fl_op *ops, size_t n);
/* Flushes and closes the database; fills the summary. */
int  fl_checker_finish(fl_checker *ck, fl_check_summary *out);
void fl_checker_free(fl_checker *ck);           /* closes the db if still open */
const char *fl_checker_errmsg(const fl_checker *ck);
/* The running summary (valid at any time). */
void fl_checker_summary(const fl_checker *ck, fl_check_summary *out);
/* The call the checker or its database is in now (for a watchdog on
 * another thread): a plugin's or built-in filter's (fl_calls_current), or
 * else a call into the engine under test itself -- then object is 0,
 * method the engine's method ("put", "scan", "sst_entries", ...), who
 * "engine NAME", plugin "" and no target. */
bool fl_checker_current_call(const fl_checker *ck, fl_call_now *out, bool details);

/* ---- The runner (run.c): one workload, start to end --------------------------
 *
 * The one loop "open, run each op through engine and model, collect
 * verdicts and metrics, close" that every command uses: replay, report,
 * check's trials and shrinking, fuzz_ops and the benchmarks.  It makes and
 * removes a temporary database when given no directory, stops early when
 * asked, and runs every plugin call and every call into the engine under
 * a watchdog:
 *   - a call that does not return within call_timeout seconds is a finding
 *     (P10, "plugin FILE: might_match did not return within 10 s on key
 *     ...", "engine filterlab: scan did not return within 10 s"), and so
 *     is one still running at the deadline that does not return within
 *     call_timeout of its start (the deadline waits for it);
 *   - *interrupt (set by a signal handler) stops the run between ops, or,
 *     when an op does not end within half a second, from the watchdog.
 * A finding the watchdog makes cannot return through the stuck call: the
 * runner hands it to on_abandon, which reports it and must not return (it
 * ends the process: a check trial's child, or a command that has cleaned
 * up).  Without on_abandon the runner prints the finding to messages,
 * removes its temporary database and exits the process with status 1 (a
 * finding) or 128 + the signal (an interruption). */

typedef struct fl_run_outcome {
    int      rc;                 /* FL_OK, or the engine error               */
    char     error[4096];        /* the engine error: "FILE:LINE: put failed: ..." */
    unsigned error_line;
    int      property;           /* the first violation's, 0 if none         */
    unsigned line;
    char     message[4096];
    /* the first violation of each property (by its number), cut to fit */
    char     first_of[FL_PROPERTY_COUNT][512];
    size_t   ops_run;            /* ops run (or begun, when stopped)          */
    bool     stopped;            /* stop_early, on_op, the deadline or an
                                    interruption                              */
    int      signal;             /* the interrupting signal, 0 if none        */
    bool     hang;               /* the finding is a call that hung, a plugin's
                                    or the engine's (the watchdog)             */
    bool     crashed;            /* the finding is the run dying (isolate)    */
    double   elapsed;            /* seconds, the ops only                     */
    fl_check_summary sum;        /* when finished (rc FL_OK, not stopped)     */
} fl_run_outcome;

/* What the watchdog found: a hung call (so_far->property is P10 and
 * so_far->message says which call), or an interruption (so_far->signal). */
typedef void (*fl_abandon_fn)(void *arg, const fl_run_outcome *so_far);

typedef struct fl_runner {
    fl_check_config check;       /* engine, registry, checks, outputs, seed   */
    const char *scratch;         /* with check.dir NULL: the temporary
                                    database goes here ($TMPDIR, /tmp)        */
    bool      stop_early;        /* stop at the first violation               */
    double    call_timeout;      /* seconds; 0: no watchdog on calls         */
    double    deadline;          /* fl_now() by which to end, 0: none         */
    volatile sig_atomic_t *interrupt;     /* a signal number once set         */
    /* before each op (ops done so far); nonzero stops the run */
    int     (*on_op)(void *arg, size_t done, const fl_op *next);
    void     *on_op_arg;
    /* after each op that ran without an engine error, with the metrics so
     * far; in the child when isolated (share memory to see its results) */
    void    (*after_op)(void *arg, size_t index, const fl_op *op, const fl_metrics *sum);
    void     *after_op_arg;
    fl_abandon_fn on_abandon;
    void     *on_abandon_arg;
    /* Run in a child process: a crash, an abort (of a plugin, or of an engine
     * built with assertions) or a hang is then an outcome -- P10, naming the
     * signal and the op and line being run -- and the caller goes on.  The
     * child ignores SIGINT and SIGTERM; the caller's *interrupt and the
     * deadline end it (a run stopped so is not a finding; at the deadline
     * a call in progress has until the call timeout).  on_abandon is
     * not called: what the watchdog finds comes back as the outcome.  Output
     * (check.results, check.messages) is written by the child. */
    bool      isolate;
    /* A workload read in chunks (fl_wl_stream): w holds the first ops (or
     * none); when they are used up, more() replaces chunk's ops with the
     * next ones (chunk->count 0: the end).  Ops are numbered across chunks
     * (ops_run, on_op, after_op).  more() returns 0, -1 with err set (the
     * run ends with out->rc FL_ERR_INVALID and that message) or -2 (a
     * signal: the run stops as on *interrupt).  Memory then holds one
     * chunk, not the workload.  Isolated, more() runs in the child. */
    int     (*more)(void *arg, fl_workload *chunk, char *err, size_t err_len);
    void     *more_arg;
    /* Isolated: what the child writes to stderr is not passed on (it is
     * still read, and its last line still names a crash): for shrink
     * candidates, hundreds of which may abort alike. */
    bool      quiet_stderr;
} fl_runner;

/* Runs w.  FL_OK when the run could start (result->rc says how it ended);
 * an error only when no run was possible (no temporary directory, no child
 * process). */
int fl_run_workload(const fl_runner *r, const fl_workload *w, fl_run_outcome *result);

/* The lengths N of the fixed:N and capped:N extractors that the policies of
 * the open-line option text opts ("policies=\"bloom(prefix=fixed:3)\" ...")
 * use, added to out[0..*count) (at most max, no repeats): for the
 * generator's seek keys (fl_gen_options.prefix_lengths). */
void fl_prefix_lengths(const char *opts, uint32_t *out, size_t *count, size_t max);

/* ---- Shared helpers (sys.c) -------------------------------------------------- */

/* Seconds on a monotonic clock. */
double fl_now(void);
/* All len bytes to / from fd (a pipe), retrying when a signal interrupts;
 * 0, or -1 when the other end closed or an error came first. */
int fl_write_all(int fd, const void *data, size_t len);
int fl_read_all(int fd, void *data, size_t len);
/* mkdir -p; 0, or -1 with errno (ENOTDIR when path is not a directory). */
int fl_mkdir_p(const char *path);
/* rm -r without following links; 0 when path is gone (or never was). */
int fl_remove_tree(const char *path);
/* splitmix64: the next value of the stream *state; fl_mix64 its finalizer. */
uint64_t fl_splitmix64(uint64_t *state);
uint64_t fl_mix64(uint64_t z);
/* Print a word to f / append a word (or a flag and its value) to a command
 * line in buf, quoted for a POSIX shell when it needs it, so the line
 * works pasted. */
void fl_shell_print_word(FILE *f, const char *word);
void fl_shell_append_word(char *buf, size_t cap, const char *word);
void fl_shell_append_flag(char *buf, size_t cap, const char *flag, const char *value);

/* ---- P9's statistic (fprate.c) ---------------------------------------------
 *
 * Eligible probes -- a filter asked about an item it did not hash, that
 * said no or a false maybe -- grouped by ITEM: the bytes the filter hashes
 * (the whole key for a point probe of a whole-key bloom, else the
 * extracted prefix), as a 64-bit fingerprint that also tells the kinds
 * apart.  Given the filters' bits, distinct items are independent, while
 * one item's probes (many filters, repeats) are correlated; so, with X_i
 * the item's false positives and E_i the sum of its probes' expected
 * rates, the variance of (false positives - expected) is estimated by the
 * sum over items of (X_i - E_i)^2, or, when larger, by the same sum for
 * the item's ghosts: FL_P9_GHOSTS imaginary absent items with hashes of
 * their own that meet the same filters (what X_i would be for another
 * hash, had the filters their claimed rates).  properties/fprate.c says
 * why, and why P9 cannot be failed by a lone unlucky item.
 *
 * Call order:  fl_fp_tally_new  fl_fp_tally_add*  fl_fp_tally_result*  fl_fp_tally_free
 */

#define FL_P9_MIN_ITEMS 10000    /* distinct probed items before P9 decides   */
#define FL_P9_SIGMAS    5.0      /* P9 fails above this many sd               */
#define FL_P9_GHOSTS    4        /* null draws per item (see fl_fp_tally_add)  */

typedef struct fl_fp_tally fl_fp_tally;

typedef struct fl_fp_result {
    uint64_t probes;             /* eligible probes                           */
    uint64_t fp;                 /* false positives among them                */
    uint64_t items;              /* distinct items the filters probed for
                                    (not counting probes they could not make) */
    uint64_t fp_items;           /* of those, items with a false positive     */
    double   measured;           /* fp / probes                               */
    double   expected;           /* the mean expected rate of the probes      */
    double   sd;                 /* of measured: sqrt(sum (X_i - E_i)^2) / probes */
    double   z;                  /* (measured - expected) / sd; 0 when sd is 0 */
    double   guard_tail;         /* for small expected counts, a bound on the
                                    chance of fp_items or more by luck; 0 when
                                    counts are large enough not to need it    */
    bool     decided;            /* items >= FL_P9_MIN_ITEMS                  */
    bool     violated;           /* decided, z > FL_P9_SIGMAS, and guard_tail
                                    below the normal tail of FL_P9_SIGMAS     */
} fl_fp_result;

/* FL_OK or FL_ERR_NOMEM. */
int  fl_fp_tally_new(fl_fp_tally **out);
/* One eligible probe of `item` (any 64-bit fingerprint; equal means the
 * same item) by a filter whose expected FP rate is `expected`; fp: it
 * answered maybe; probed: it probed its bits (false: it could not tell
 * and answered true, with expected 1); ghosts: bit g set when ghost g of
 * the item (a hash drawn for the item once, the same for all its probes)
 * is a false positive in the same filter.  FL_OK or FL_ERR_NOMEM (the
 * probe is then not counted). */
int  fl_fp_tally_add(fl_fp_tally *t, uint64_t item, double expected, bool fp, bool probed,
                     unsigned ghosts);
/* Starts fetching the memory fl_fp_tally_add(t, item, ...) will touch
 * first (a hint: nothing changes). */
void fl_fp_tally_prefetch(const fl_fp_tally *t, uint64_t item);
void fl_fp_tally_result(const fl_fp_tally *t, fl_fp_result *out);
void fl_fp_tally_free(fl_fp_tally *t);            /* NULL is fine */

/* ---- Known upstream bugs (known.c): `check --known FILE` ----------------------
 *
 * A list of bugs of an engine under test that are known and fixed
 * upstream, each with a signature; a finding of `check` that matches one is
 * reported as that bug (citing its fix) and the hunt goes on.  The file
 * format is in known.c and docs/cli.md ("Known bugs and hazards"). */

typedef struct fl_known fl_known;

typedef struct fl_known_bug {
    const char *id;              /* "rocksdb-memtable-bloom-stale-extractor" */
    const char *fix;             /* the upstream fix: release, PR, commit    */
    const char *about;           /* one line                                 */
    const char *engine;          /* the engine it is a bug of                */
    int         property;
    bool        identified_by_message;  /* matched even before shrinking ends */
    bool        hazard;                 /* a `hazard` entry: not a bug, a use the
                                           engine neither supports nor detects */
} fl_known_bug;

/* How a finding of b is named: "known upstream bug" or "hazard
 * (unsupported by the engine and undetected by it)". */
const char *fl_known_class(const fl_known_bug *b);

/* A finding as the list judges it: the failing op is workload->ops[at],
 * which failed property with message, on engine (its fl_engine_ops name).
 * For a match to mean something, workload should be minimal (check passes
 * only findings shrunk to the end). */
typedef struct fl_known_finding {
    const char *engine;
    const fl_workload *workload;
    size_t at;
    int property;
    const char *message;
    bool unshrunk;               /* shrinking was cut: only entries whose
                                    message identifies the bug may match     */
} fl_known_finding;

#define FL_KNOWN_MAX 64          /* entries in one list, at most              */

/* Parse a list (text of len bytes; name for messages) / read one from a
 * file.  FL_OK, or FL_ERR_INVALID with err "NAME:LINE: what is wrong"
 * (FL_ERR_IO when the file cannot be read). */
int  fl_known_parse(const char *text, size_t len, const char *name, fl_known **out, char *err,
                    size_t err_len);
int  fl_known_load(const char *path, fl_known **out, char *err, size_t err_len);
void fl_known_free(fl_known *k);                  /* NULL is fine */
size_t fl_known_count(const fl_known *k);
const fl_known_bug *fl_known_get(const fl_known *k, size_t i);   /* NULL past the end */
/* The index of the first entry the finding matches, or -1. */
int  fl_known_match(const fl_known *k, const fl_known_finding *f);
/* The entries of engine whose signature -- its at, option and before lines,
 * whatever property and message a run would give -- holds at some op of w
 * (the closing flush included): bit i for entry i.  What `check
 * --avoid-known` steers away from once the bug was found. */
uint64_t fl_known_could(const fl_known *k, const char *engine, const fl_workload *w);

/* ---- The property-based runner (runner.c, shrink.c) ------------------------
 *
 * Generates random trials -- a configuration (0-3 policies, options,
 * migrations at reopen) and a workload of some shape -- deterministically
 * from (seed, trial number), runs each through the checker, and on the
 * first violation shrinks the trial to a small workload that still
 * violates the same property and writes it under out_dir.
 *
 * Trials are numbered 0, 1, 2, ...; shard I of N runs trials I, I+N, ...
 * The trial seed is a function of (seed, trial number) only, so
 * `--seed S --trial T` regenerates one trial exactly.
 */

typedef struct fl_run_config {
    const fl_engine_ops *engine; /* NULL: filterlab                            */
    const fl_registry *reg;
    uint64_t seed;
    uint64_t trials;             /* stop after this many (0: no limit)         */
    double   seconds;            /* stop after this long (0: no limit)         */
    int64_t  only_trial;         /* >= 0: run just this trial                  */
    unsigned shard, shards;      /* run trials with number % shards == shard   */
    const char *const *policies; size_t npolicies;      /* --policy SPEC       */
    const char *const *extractors; size_t nextractors;  /* --extractor SPEC    */
    const char *const *plugins; size_t nplugins;        /* for replay commands */
    const char *out_dir;         /* minimized failures (created if needed)     */
    uint64_t max_ops;            /* ops per trial, at most                     */
    double   shrink_seconds;     /* time budget of the shrinker                */
    double   call_timeout;       /* watchdog on plugin and engine calls,
                                    seconds (0: off)                           */
    double   deadline;           /* fl_now() by which the trials have ended
                                    (0: none), but for a call in progress
                                    then: it has until the call timeout to
                                    return, or is a hang.  Shrinking a finding
                                    has its own budget (shrink_seconds), past
                                    the deadline if need be                   */
    volatile sig_atomic_t *interrupt;    /* stops the run once set            */
    /* Flags for the commands printed with a finding, shell-quoted: what a
     * replay needs beyond the workload and its call timeout ("--plugin X"),
     * and what regenerates a trial beyond --seed and --trial (plugins,
     * --policy, --extractor, --ops, --call-timeout). */
    const char *replay_flags;
    const char *trial_flags;
    double   replay_call_timeout; /* the --call-timeout a replay needs (the
                                    run's, when not the default), 0: none;
                                    see fl_run_replay_call_timeout          */
    FILE    *log;                /* progress and results (stderr), or NULL     */
    bool     progress;           /* a \r progress line on log                  */
    /* Known upstream bugs (NULL: none): a finding shrunk to the end that
     * matches one is counted, written under out_dir as known-ID-seedS-
     * trialT.wl, and the run goes on with the next trial. */
    const fl_known *known;
    /* --avoid-known: once a trial found one of the known bugs, later trials
     * whose workload holds that bug's signature (fl_known_could) are not
     * run, so the run reaches what is past them (fl_run_result.avoided
     * counts them) */
    bool     avoid_known;
    /* Trials keep filterlab's database files on disk (posix env) instead of
     * in memory (the default; check --env posix). */
    bool     on_disk;
    /* Every trial gets crash ops (check --crash); without it, every eighth
     * (where the engine can simulate a crash). */
    bool     crash;
    /* Trials run at once, each in a worker process (0: one per CPU); they
     * are taken in order all the same, so the run counts the same trials
     * and stops at the same first finding as one at a time would. */
    unsigned jobs;
} fl_run_config;

/* ---- Configuration spaces ----------------------------------------------------
 * What `filterlab check` draws a trial's configuration from, one per engine
 * (fl_engine_ops.space; each adapter holds its own).  The runner makes every
 * trial the same way (a seed, a shape, the generator) and asks the engine's
 * space for the rest: the options of the open line, of each reopen and
 * set_options, and any change to the op mix.
 *
 * Invariant: a space draws only from the trial's random stream (fl_rng,
 * seeded from the run's seed and the trial number) and streams seeded from
 * it, so that `--seed S --trial T` makes the same trial every time, with
 * every compiler (draws are made one per statement: C leaves the order of a
 * call's arguments unspecified). */

/* A trial's random stream (splitmix64). */
typedef struct fl_rng { uint64_t s; } fl_rng;

static inline uint64_t fl_rng_next(fl_rng *r) { return fl_splitmix64(&r->s); }
static inline uint64_t fl_rng_below(fl_rng *r, uint64_t n) { return n ? fl_rng_next(r) % n : 0; }
static inline bool fl_rng_chance(fl_rng *r, unsigned percent) { return fl_rng_below(r, 100) < percent; }

#define FL_TEXT_MAX 8192

/* Option text being built (space.c); text that does not fit is cut (and
 * then does not parse, which the generator reports). */
typedef struct fl_text { char buf[FL_TEXT_MAX]; size_t len; } fl_text;

void fl_text_clear(fl_text *t);
void fl_text_add(fl_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A spec as an option value inside double quotes: \ and " escaped. */
void fl_text_add_quoted(fl_text *t, const char *s);

#define FL_TRIAL_REOPENS 3
#define FL_TRIAL_LENGTHS 8

/* What a space's check_specs does when every spec the engine's adapter
 * takes will do: each --policy must make its policy list and each
 * --extractor its extractor (the plugins loaded by then), so that a bad
 * spec is one error and not every trial's (space.c). */
int fl_space_make_specs(const fl_run_config *c, char *err, size_t err_len);

/* One trial as its space fills it in. */
typedef struct fl_space_trial {
    fl_gen_options *gen;              /* the shape's defaults with its seed: the
                                         space sets the configuration (open and
                                         reopen options, or options_for) and
                                         may change the op mix               */
    bool fp_trial;                    /* a P9 trial (only where fp_trials)  */
    fl_text open;                     /* storage the space may use for them */
    fl_text reopen[FL_TRIAL_REOPENS];
    const char *reopens[FL_TRIAL_REOPENS];
    uint32_t lengths[FL_TRIAL_LENGTHS];   /* gen->prefix_lengths         */
    size_t nlengths;
    void *state;                      /* the space's own (gen->options_arg),
                                         released by its release            */
} fl_space_trial;

/* The lengths of the fixed:N and capped:N extractors of t's open text and
 * of its first reopens reopen texts (fl_prefix_lengths), into t->lengths
 * and t->gen's prefix_lengths: where the generator aims its seeks. */
void fl_space_trial_lengths(fl_space_trial *t, size_t reopens);

typedef struct fl_space {
    /* Every eighth trial is an FP trial for P9 (where P9 is checked). */
    bool fp_trials;
    /* Whether the engine refusing an open, reopen or set_options
     * (FL_ERR_INVALID) is a finding (P10).  false: the configurations a
     * trial makes are all in the engine's space, so a refusal is a bug of
     * this space -- an error of the trial (fl_trial_outcome.refused), never
     * a property violation. */
    bool refusals_are_findings;
    /* The engine can simulate a crash (fl_engine_ops.abandon): some trials
     * (every one with check --crash) get `crash` ops. */
    bool crashes;
    /* The run's --policy and --extractor specs, once before any trial:
     * FL_OK, or FL_ERR_INVALID with err saying why the engine cannot run
     * them (NULL: any will do). */
    int  (*check_specs)(const fl_run_config *c, char *err, size_t err_len);
    /* Fills t for one trial, drawing from r. */
    int  (*configure)(const fl_run_config *c, fl_rng *r, fl_space_trial *t, char *err, size_t err_len);
    /* Frees t->state (NULL: nothing to free). */
    void (*release)(fl_space_trial *t);
} fl_space;

typedef struct fl_run_result {
    uint64_t trials, ops;
    double   elapsed;
    int      property;           /* of the failure, 0 if none                  */
    uint64_t trial;              /* the failing trial                          */
    size_t   original_ops, minimal_ops;
    char     path[4096];         /* the minimized workload                     */
    char     message[4096];      /* its violation message                      */
    uint64_t warnings;
    bool     interrupted;        /* stopped by a signal                        */
    bool     shrink_cut;         /* shrinking stopped before its fixpoint (its
                                    budget, the run's --time, an interrupt):
                                    the workload may not be 1-minimal       */
    /* A hung call is shrunk with a shorter call timeout (a call that never
     * returns fails as surely after 1 s as after 10): then this is it, and
     * the replay of the minimized workload needs --call-timeout with it. */
    double   shrink_call_timeout;
    /* Findings that matched cfg->known, by entry; the first one's file. */
    uint64_t known_findings;
    uint64_t avoided;            /* trials not run: they held the signature of
                                    a known bug found before (--avoid-known) */
    uint64_t known_by_bug[FL_KNOWN_MAX];
    char     known_path[FL_KNOWN_MAX][512];
} fl_run_result;

/* Given extractors, a standalone contract lint runs first for each: a
 * workload of 20,000 gets and scan_prefixes of generated keys and prefixes
 * around a bloom with that extractor, checked (P7) and, when it fails,
 * shrunk and written like a trial (trial == UINT64_MAX in the result).
 * FL_OK (with result->property 0 or the failure), or an error (bad specs,
 * an unwritable out_dir, checked before anything runs) with err set. */
int fl_check_run(const fl_run_config *cfg, fl_run_result *result, char *err, size_t err_len);
/* The --call-timeout the replay line of res's finding carries: the
 * shrinker's (a hang), else the run's own (c->replay_call_timeout), 0 none. */
double fl_run_replay_call_timeout(const fl_run_config *c, const fl_run_result *res);

/* Trial `trial` of cfg's seed as a workload, exactly what fl_check_run runs
 * as that trial (for cfg's engine, specs and max_ops): for tests and
 * `check --print`.  FL_OK, or an error with err set (out left empty). */
int fl_check_trial(const fl_run_config *cfg, uint64_t trial, fl_workload *out, char *err, size_t err_len);


/* Where one trial (or shrink candidate) runs: each in a child process of
 * its own, so that a plugin's static state starts afresh (a candidate fails
 * or passes on its own merits) and a plugin that crashes takes down the
 * child, not the run. */
/* The seed of the checker's own sampling (P7 extensions, P11 probes) in
 * every command: trials, shrinking and replay sample alike, so a replay of
 * a written failure sees what its trial saw. */
#define FL_CHECKER_SEED 1

struct fl_trial_outcome;

typedef struct fl_trial_env {
    const fl_engine_ops *engine; /* NULL: filterlab                            */
    const fl_registry *reg;
    const char *scratch;         /* temporary databases go here                */
    uint64_t seed;               /* the checker's: FL_CHECKER_SEED            */
    double   call_timeout;       /* seconds, 0: no watchdog                    */
    double   deadline;           /* fl_now(); the child is ended there, 0: none */
    volatile sig_atomic_t *interrupt;
    bool     quiet;              /* the child's stderr not passed on
                                    (fl_runner.quiet_stderr): shrinking       */
    bool     on_disk;            /* posix env, not memory (check --env posix) */
    /* Run the workload in this process, not in a child of its own: only
     * for a process that is itself a throwaway child (check's workers, see
     * runner.c), only with built-in code (no plugin, filterlab's engine),
     * and only where a crash or a hang ending the process is acceptable --
     * the caller then runs the workload again isolated to learn what
     * happened.  The outcome of a run that ends is the isolated one's. */
    bool     in_process;
    /* In process: what the watchdog finds (a hung call, or the run given
     * up at the deadline or a signal) ends the process; on_abandon, when
     * set, gets the outcome first, and must not return.  (A crash ends it
     * with no word: the caller runs the workload again, as above.) */
    void   (*on_abandon)(void *arg, const struct fl_trial_outcome *o);
    void    *on_abandon_arg;
} fl_trial_env;

typedef struct fl_trial_outcome {
    int      rc;                 /* FL_OK or an engine error (message says it) */
    int      property;           /* the first violation's (0 if none); a crash,
                                    a hang or an engine error is P10            */
    unsigned line;
    char     message[4096];
    uint64_t ops;                /* ops run                                    */
    bool     cut;                /* ended by the deadline or an interruption,
                                    with no finding                            */
    bool     hang;               /* the finding is a call that hung (a plugin's
                                    or the engine's)                           */
    /* The engine refused the configuration (an open, reopen or set_options
     * ended with FL_ERR_INVALID) and refusing is no finding for that
     * engine: the configurations check makes for it are all ones it can
     * express, so the refusal is an error of the trial (a bug of the
     * trial's configuration space), never P10.  property is 0 and message
     * the engine's error.  filterlab's engine refuses only what a plugin
     * refuses: that stays P10. */
    bool     refused;
} fl_trial_outcome;

/* Runs a workload through the checker in a fresh temporary directory under
 * env->scratch, in a child process.  stop_early: stop at the first
 * violation.  FL_OK unless no child could be run. */
int fl_check_workload(const fl_trial_env *env, const fl_workload *w, bool stop_early,
                      fl_trial_outcome *out);

/* Shrinks w (in place) while it still violates `property`, within a time
 * budget (and env->deadline); returns the number of candidate runs.  Run
 * to the end, it leaves w 1-minimal (fl_check_minimal) with its keys,
 * values and contexts shortened and simplified consistently wherever they
 * occur; when w does not violate property to begin with, it is left as it
 * is. */
uint64_t fl_shrink(const fl_trial_env *env, fl_workload *w, int property, double seconds);

/* Whether w, which violates `property` when run as fl_check_workload runs
 * it in env, is 1-minimal: no workload made from it by removing one op,
 * one option of an open or reopen (a reopen keeps one: the format wants
 * it), or one spec of a policy list ("none" for the only spec), or by
 * replacing a reopen with a flush, still violates property -- for P10, the
 * same way: an engine error or a crash as before, with the same message
 * but for numbers and quoted text.  FL_OK with *minimal set, and what
 * naming a change that still fails (or how many were tried);
 * FL_ERR_INVALID, with what saying so, when w does not violate property at
 * all. */
int fl_check_minimal(const fl_trial_env *env, const fl_workload *w, int property, bool *minimal,
                     char *what, size_t what_len);

#endif /* FL_CHECK_H */
