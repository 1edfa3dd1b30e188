/*
 * engine.h -- the filterlab LSM engine: the database API (SPEC section 2).
 *
 * A database is a directory holding a MANIFEST and immutable NNNNNN.sst
 * files.  Writes go to a sorted memtable; a full memtable is flushed to a new
 * L0 SST; L0 SSTs are compacted into sorted runs.  Every SST carries one
 * filter per configured policy in a composite filter block (or a Legacy
 * block), and every read asks those filters before reading any index or data
 * block of an SST (SPEC 2.4).
 *
 * Call order:   fl_db_open  (put|delete|delete_range|get|scan*|flush|compact)*
 *               fl_db_close
 * One thread at a time per fl_db.  There is no write-ahead log yet: close
 * flushes the memtable; a process that exits without close loses it.
 *
 * The registry passed to fl_db_open must outlive the db: policies made
 * through it (and the plugins behind them) are used until fl_db_close.
 *
 * Errors: every function returns FL_OK or a negative FL_ERR_* (filter.h).
 * After an error, fl_db_errmsg() describes it -- what, where (file, SST id,
 * block) and what was expected.  A corrupt data, index, range-tombstone or
 * info block is FL_ERR_CORRUPT: the engine never returns data it could not
 * verify.  A corrupt FILTER block is never an error: the SST is read
 * unfiltered and `filter_errors` counts it.
 *
 * Sequence invariant (relied on by get): every entry of a newer source
 * (memtable, then L0 newest first, then runs newest first) has a higher
 * sequence number than every entry of an older one.
 */
#ifndef FL_ENGINE_H
#define FL_ENGINE_H

#include "filter.h"

/* ---- Buffers ----------------------------------------------------------- */

/* The growable buffer behind fl_buf_append(); the caller owns data. */
struct fl_buf { uint8_t *data; size_t len, cap; };

void fl_buf_init(fl_buf *buf);
void fl_buf_free(fl_buf *buf);                   /* frees data, re-inits   */
void fl_buf_reset(fl_buf *buf);                  /* len = 0, keeps memory  */
int  fl_buf_reserve(fl_buf *buf, size_t more);    /* room for more bytes past len: FL_OK, FL_ERR_NOMEM */

/* ---- Registry lifecycle ------------------------------------------------ */

/* A new registry with the built-in kinds registered: policy "bloom",
 * extractors "fixed", "capped", "delim", "lastdelim". */
int  fl_registry_new(fl_registry **out);
void fl_registry_free(fl_registry *reg);        /* also dlcloses plugins   */

/* dlopen()s path, checks it exports fl_plugin_init, calls it once.  A plugin
 * whose objects state an abi_version newer than FL_FILTER_ABI_VERSION is
 * refused when the object is made (FL_ERR_VERSION). */
int fl_registry_load_plugin(fl_registry *reg, const char *path, char *err, size_t err_len);

/* How many plugins reg has loaded (0: only the built-in kinds). */
size_t fl_registry_plugin_count(const fl_registry *reg);
/* The path the i-th plugin was loaded by, as given (i < the count). */
const char *fl_registry_plugin_path(const fl_registry *reg, size_t i);
/* The plugin that registered the kind of spec (what precedes its '(' or
 * ':') as a policy kind (policy true) or an extractor kind: its path as
 * loaded; NULL for a built-in kind or one not registered as that sort. */
const char *fl_registry_spec_plugin(const fl_registry *reg, const char *spec, bool policy);

/* Comma-separated known kinds, for error messages: "bloom, mine". */
void fl_registry_policy_kinds(const fl_registry *reg, char *out, size_t out_len);
void fl_registry_extractor_kinds(const fl_registry *reg, char *out, size_t out_len);


/* ---- Calling plugins (SPEC 3) -------------------------------------------
 * Every call of a policy, builder, filter or extractor -- by the engine,
 * the checker, reports and benchmarks alike -- goes through one of the
 * fl_call_* wrappers below (SQLite's sqlite3OsRead pattern), which count
 * the call, check the contract, fail safe, and publish the call in
 * progress for a watchdog.  Wrappers report to a call context (fl_calls):
 * a contract violation goes to the context's sink, never to a process-wide
 * hook, so two runs in one process never see each other's violations or
 * counts.  A database reports to the context in its options (or to one of
 * its own).
 *
 * A wrapper given a NULL context uses the context of the wrapper call it is
 * nested in on this thread (a built-in bloom calling its extractor inside
 * might_match), else a fallback that prints violations to stderr and
 * counts nothing.
 *
 * A context is used by one thread at a time; fl_calls_current may be called
 * from any thread (a watchdog). */

typedef struct fl_calls fl_calls;

typedef enum fl_object_kind {
    FL_OBJECT_POLICY = 1, FL_OBJECT_BUILDER = 2, FL_OBJECT_FILTER = 3, FL_OBJECT_EXTRACTOR = 4
} fl_object_kind;
/* "policy", "builder", "filter", "extractor". */
const char *fl_object_kind_name(fl_object_kind kind);

/* One broken contract.  Strings are valid during the sink call only. */
typedef struct fl_contract_violation {
    fl_object_kind object;       /* what broke it                           */
    const char *method;          /* "decode", "build", "prefix_len", ...    */
    const char *who;             /* e.g. policy "x" of kind 'mine' from plugin ./m.so */
    const char *plugin;          /* the plugin file, NULL for a built-in    */
    const char *what;            /* what it did: "decode of 12 bytes failed: ..." */
} fl_contract_violation;

typedef void (*fl_violation_fn)(void *arg, const fl_contract_violation *v);

typedef struct fl_call_stats {
    uint64_t might_match, encode, decode, build, add_entry, prefix_len;
    uint64_t contract_violations;
} fl_call_stats;

/* reg names the kind and plugin of the objects it made in reports. */
int  fl_calls_new(const fl_registry *reg, fl_calls **out);
void fl_calls_free(fl_calls *calls);
/* fn NULL: violations are printed to stderr. */
void fl_calls_set_sink(fl_calls *calls, fl_violation_fn fn, void *arg);
void fl_calls_stats(const fl_calls *calls, fl_call_stats *out);

/* A violation found by the same wrappers in another process (an engine's
 * adapter program running plugins: docs/protocol.md,
 * `violation`), delivered to this context's sink and counted as its own. */
void fl_calls_report(fl_calls *calls, const fl_contract_violation *v);

/* The plugin call running now under a context, for a watchdog. */
typedef struct fl_call_now {
    uint64_t seq;                /* changes whenever a call begins          */
    const char *method;          /* "might_match", ... (static)             */
    fl_object_kind object;
    /* with details: */
    char who[512];               /* as in violations                        */
    char plugin[512];            /* "" for a built-in                       */
    bool has_target;             /* a key or prefix the call was given      */
    fl_target_kind target_kind;
    size_t target_len;           /* its length; at most 128 bytes copied    */
    uint8_t target[128];
} fl_call_now;
/* true when a call is in progress under calls (seq, method and object are
 * always filled; who, plugin and the target only with details, which reads
 * what the calling thread's frame borrows: ask for details only about a
 * call that has been running for a while). */
bool fl_calls_current(const fl_calls *calls, fl_call_now *out, bool details);

/* Never NULL: the name, or "<policy with NULL name>" (a NULL name is
 * reported once per object). */
const char *fl_call_policy_name(fl_calls *calls, const fl_filter_policy *policy);
const char *fl_call_extractor_name(fl_calls *calls, const fl_prefix_extractor *ex);
int  fl_call_new_builder(fl_calls *calls, const fl_filter_policy *policy, fl_filter_builder **out);
void fl_call_add_entry(fl_calls *calls, const fl_filter_policy *policy, fl_filter_builder *b,
                       const fl_row_entry *entry);
/* FL_OK and a filter, or an error (a violation is reported; *out is NULL). */
int  fl_call_build(fl_calls *calls, const fl_filter_policy *policy, fl_filter_builder *b,
                   fl_filter **out);
void fl_call_builder_destroy(fl_calls *calls, const fl_filter_policy *policy, fl_filter_builder *b);
int  fl_call_decode(fl_calls *calls, const fl_filter_policy *policy, fl_slice data, fl_filter **out);
/* true on any doubt; a NULL filter means "no filter" and answers true. */
bool fl_call_might_match(fl_calls *calls, const fl_filter_policy *policy, const fl_filter *filter,
                         const fl_filter_query *query);
int  fl_call_encode(fl_calls *calls, const fl_filter_policy *policy, const fl_filter *filter,
                    fl_buf *out);
size_t fl_call_size(fl_calls *calls, const fl_filter_policy *policy, const fl_filter *filter);
void fl_call_filter_destroy(fl_calls *calls, const fl_filter_policy *policy, fl_filter *filter);
/* prefix_len with the n <= len check: a violation answers false (none). */
bool fl_call_prefix_len(fl_calls *calls, const fl_prefix_extractor *ex, const fl_target *target,
                        size_t *len);
/* Destroy what fl_registry_make_policy / _make_extractor made. */
void fl_call_policy_destroy(fl_calls *calls, fl_filter_policy *policy);
void fl_call_extractor_destroy(fl_calls *calls, fl_prefix_extractor *ex);

/* ---- Spec strings (SPEC 10) --------------------------------------------
 * The one parser of the grammar; everything that takes a policy list or a
 * spec's arguments apart goes through these.
 *   policy list = "none" | spec (";" spec)*    split at parenthesis depth 0
 *   spec        = KIND [ "(" ARG=VALUE ("," ARG=VALUE)* ")" ]
 * Blanks (spaces, tabs) around specs, arguments, '=' and values are
 * trimmed; values keep their \xNN escapes. */

/* Called with each spec of a list, trimmed and NUL-terminated, and its
 * 1-based position; nonzero stops the split and is returned. */
typedef int (*fl_spec_fn)(void *arg, const char *spec, size_t index);
/* FL_OK ("none" calls fn never), FL_ERR_INVALID with err for an empty list,
 * an empty spec or a "none" inside a list, or what fn returned. */
int  fl_policy_list_split(const char *list, fl_spec_fn fn, void *arg, char *err, size_t err_len);
/* The number of specs of a list into *count and a copy of the first into
 * *first (malloc'd; NULL for "none"): for an engine that runs one policy.
 * Errors as fl_policy_list_split's, or FL_ERR_NOMEM. */
int  fl_policy_list_first(const char *list, size_t *count, char **first, char *err, size_t err_len);

/* Called with each ARG=VALUE of an argument text (what is between a spec's
 * parentheses); nonzero stops and is returned. */
typedef int (*fl_spec_arg_fn)(void *arg, const char *name, const char *value);
/* FL_ERR_INVALID with err for an empty argument or one without '='. */
int  fl_spec_args_split(const char *args, fl_spec_arg_fn fn, void *arg, char *err, size_t err_len);

/* The value of argument key in spec "KIND(ARG=VALUE,...)", copied to out
 * (escapes kept); false when the spec has no such argument. */
bool fl_spec_argument(const char *spec, const char *key, char *out, size_t cap);
/* The same for the first spec of a policy list that has the argument;
 * false when none has (or the list does not split). */
bool fl_policy_list_argument(const char *list, const char *key, char *out, size_t cap);

/* ---- The built-in bloom (SPEC 5) ---------------------------------------- */

/* The built-in bloom's probe: exactly what its filters' might_match method
 * is, callable directly on a filter the built-in bloom policy made (for
 * benchmarks of the bare algorithm; the engine calls it through
 * fl_call_might_match like any filter).  Anything else is undefined. */
bool fl_bloom_might_match(const fl_filter *filter, const fl_filter_query *query);
/* The probe the built-in bloom's filters use on this CPU: "avx512",
 * "avx2" or "scalar" (FILTERLAB_NO_SIMD=1 forces the scalar one,
 * FILTERLAB_SIMD=avx2 caps it at AVX2). */
const char *fl_bloom_probe_kernel(void);
/* Whether a policy is the built-in bloom. */
bool fl_policy_is_builtin_bloom(const fl_filter_policy *policy);
/* The expected FP rate of a cache-local bloom given its bits: the mean over
 * its `lines` 64-byte lines of (bits set / 512)^k, the chance that an
 * absent item's k probes into its (uniformly chosen) line all find a set
 * bit; 1.0 without lines.  The built-in bloom's and RocksDB's (whose
 * filters the RocksDB engine reads) are both of this kind. */
double fl_bloom_lines_expected_fp(const uint8_t *bits, uint32_t lines, unsigned k);
/* The EXACT chance that a hash h uniform over [0, 2^32) passes a RocksDB
 * legacy full filter / Pebble table bloom (pebble/bloom/bloom.go) given its
 * bits: `lines` lines of line_bits bits each (bits: line l at byte
 * l * line_bits / 8, bit i at byte i/8 bit i%8), line h mod lines, probe j
 * at (h + j * rotr(h, 17)) mod 2^32 mod line_bits of it, k probes.  The
 * probes are not independent (a stride of 0 probes one bit k times), so
 * this is no (bits set / C)^k mean: bloom_bits.c sums the hashes that pass
 * exactly.  -1 when line_bits is not a power of two from 8 to 32768 (the
 * stride and the offset in the line would share bits of h), on bad input
 * or out of memory; 1.0 for k = 0.  Cost: lines * line_bits * k *
 * line_bits / 64 word operations: measured 1 line 0.12 ms, 101 lines 5 ms,
 * 1001 lines 50 ms, 10001 lines 0.52 s (line_bits 512, k 6, one core). */
double fl_bloom_legacy_expected_fp(const uint8_t *bits, uint32_t lines, uint32_t line_bits, unsigned k);
/* That filter's probe of a key of 32-bit hash h, bit-exact (RocksDB's
 * LegacyBloomImpl, Pebble's tableFilter.MayContain): line h mod lines,
 * then k bits of it at (h + j delta) mod line_bits, delta = rotr(h, 17),
 * in 32-bit arithmetic.  lines > 0 and lines * line_bits bits at bits. */
bool fl_bloom_legacy_probe(const uint8_t *bits, uint32_t lines, uint32_t line_bits, unsigned k, uint32_t h);

/* ---- Policy lists ------------------------------------------------------ */

typedef struct fl_policy_list {
    fl_filter_policy **items;
    size_t count;
} fl_policy_list;

/* Makes every policy of a list (fl_policy_list_split's grammar) through
 * reg.  On error nothing is allocated and err says which spec and why; two
 * policies with the same name are an error.  calls receives what the
 * policies' names do wrong (NULL: see above). */
int  fl_policy_list_parse(const fl_registry *reg, fl_calls *calls, const char *spec,
                          fl_policy_list *out, char *err, size_t err_len);
void fl_policy_list_free(fl_calls *calls, fl_policy_list *list);

/* ---- Env: every file the engine touches -----------------------------------
 *
 * One small table of file operations, in the manner of LevelDB's Env and
 * SQLite's VFS; the engine never knows which implementation it holds:
 *
 *   fl_env_posix()       the operating system's files (the default)
 *   fl_env_memory_new()  a private file system in RAM, for check trials, the
 *                        ops fuzzer and tests: no disk, nothing left behind
 *   fl_env_fault_new()   wraps another: records every change, injects
 *                        errors, simulates a crash (below)
 *
 * Every operation returns 0 or an errno value (ENOENT, EEXIST, ENOSPC, EIO,
 * EROFS, EWOULDBLOCK, ...), so that an error can carry the OS's reason:
 * strerror() describes it.  Paths are '/'-separated.  A file is written
 * only by appending, from one open to its close; it is read at offsets.
 * An env is used by one thread at a time. */
typedef struct fl_env fl_env;
typedef struct fl_file fl_file;          /* an open file of some env */

typedef enum fl_open_mode {
    FL_OPEN_READ,       /* an existing file, to read                           */
    FL_OPEN_CREATE,     /* a new file, to append to: EEXIST if the name exists */
    FL_OPEN_REPLACE     /* created or truncated, to append to (a temp file)    */
} fl_open_mode;

/* Called with each name in a directory (not "." or ".."); nonzero stops the
 * listing and is returned. */
typedef int (*fl_env_name_fn)(void *arg, const char *name);

typedef struct fl_env_ops {
    int  (*open)(fl_env *env, const char *path, fl_open_mode mode, fl_file **out);
    /* reads up to n bytes at off; *got < n only at the end of the file */
    int  (*read)(fl_env *env, fl_file *f, uint64_t off, void *buf, size_t n, size_t *got);
    int  (*append)(fl_env *env, fl_file *f, const void *buf, size_t n);
    int  (*sync)(fl_env *env, fl_file *f);
    int  (*size)(fl_env *env, fl_file *f, uint64_t *out);
    int  (*close)(fl_env *env, fl_file *f);          /* frees f even on error */
    int  (*rename)(fl_env *env, const char *from, const char *to);   /* atomic */
    int  (*remove)(fl_env *env, const char *path);
    int  (*mkdir)(fl_env *env, const char *path);    /* EEXIST if it exists    */
    int  (*sync_dir)(fl_env *env, const char *path);
    int  (*list)(fl_env *env, const char *dir, fl_env_name_fn fn, void *arg);
    /* An advisory lock on the file path (created if missing) for as long as
     * *out is open; shared (readers) or exclusive.  EWOULDBLOCK when
     * another holder conflicts: *holder is then its pid, or 0 if unknown.
     * Released by close. */
    int  (*lock)(fl_env *env, const char *path, bool shared, fl_file **out, long *holder);
    /* 0 if files can be created in dir, else why not (EROFS, EACCES) */
    int  (*writable)(fl_env *env, const char *dir);
    void (*destroy)(fl_env *env);                    /* NULL: a static env    */
    /* Optional (NULL: read it): *out points at up to n bytes at off of f,
     * in the env's own memory, valid while f is open and nothing is
     * appended to it; *got < n only at the end of the file.  Files that
     * are only read once written (an SST's blocks) are read without a
     * copy.  ENOTSUP: read it after all. */
    int  (*view)(fl_env *env, fl_file *f, uint64_t off, size_t n, const void **out, size_t *got);
} fl_env_ops;

struct fl_env {
    const fl_env_ops *ops;
    const char       *name;                          /* "posix", "memory"     */
};

fl_env *fl_env_posix(void);
int     fl_env_memory_new(fl_env **out);             /* FL_ERR_NOMEM          */
/* A memory env's directory (made by mkdir) made read-only or writable
 * again: nothing can be created, renamed or removed in it (EACCES), and
 * writable() says so, as for a directory without write permission (which
 * a test running as root cannot make on disk).  0, or an errno. */
int     fl_env_memory_set_read_only(fl_env *env, const char *dir, bool read_only);
void    fl_env_free(fl_env *env);                    /* no-op for posix, NULL */
/* By name ("posix", "memory"): a new env for memory, the static one for
 * posix; FL_ERR_INVALID for another name. */
int     fl_env_by_name(const char *name, fl_env **out);

/* The fault env (env_fault.c): wraps base (which must outlive it), numbers
 * every operation that changes files -- create, replace, write, fsync,
 * rename, remove, fsync of a directory -- and keeps a log of them, one line
 * each ("7 write DIR/000003.sst").  fail_at makes operation op (1-based)
 * fail with errno_value without happening.  crash_after makes operation op
 * the last one: every later operation fails with EIO and changes nothing,
 * as if the process had died.  fl_env_fault_crash then simulates power
 * loss on base: every name change not followed by a sync of its directory
 * is undone (newest first: created files go, renames go back, removed or
 * replaced files come back), every file is cut back to its last fsync; the
 * env is alive again, with no failure or crash planned (0 or the errno of
 * the first undo that failed). */
int         fl_env_fault_new(fl_env *base, fl_env **out);
uint64_t    fl_env_fault_ops(fl_env *env);
const char *fl_env_fault_log(fl_env *env);
void        fl_env_fault_fail_at(fl_env *env, uint64_t op, int errno_value);
void        fl_env_fault_crash_after(fl_env *env, uint64_t op);
/* From now on an fsync of a file whose name ends with suffix succeeds but
 * makes nothing durable (NULL or "": none) -- the bug of an engine that
 * forgets it, for showing that crash testing catches one. */
void        fl_env_fault_ignore_sync(fl_env *env, const char *suffix);
bool        fl_env_fault_dead(fl_env *env);
int         fl_env_fault_crash(fl_env *env);

/* A key for messages: quoted, its printable bytes as they are and the
 * others (and " and \) as \xNN, at most 40 of them, then "...(N bytes)"
 * for a longer key.  Returns out, which has room for FL_KEY_TEXT. */
#define FL_KEY_TEXT 200
const char *fl_key_text(const uint8_t *p, size_t n, char out[FL_KEY_TEXT]);

/* An error of a reader of files: status, with err (when err and cap) the
 * message fmt makes.  The readers of SST files (adapters/NAME/NAME_sst.c)
 * call it through a macro of their own that puts their name first:
 *   #define fail(err, cap, code, ...) fl_fail(err, cap, code, "pebble sst: " __VA_ARGS__) */
int fl_fail(char *err, size_t cap, int status, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The order of keys everywhere: bytewise (memcmp), the shorter first on a
 * common prefix; -1, 0 or 1.  (The engine's own; the checker keeps one of
 * its own, ck_cmp, so as never to ask the engine under test.) */
int fl_key_cmp(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen);
static inline int fl_slice_cmp(fl_slice a, fl_slice b) { return fl_key_cmp(a.data, a.len, b.data, b.len); }

/* Helpers over any env: a whole file read into out (appended), and a whole
 * file written (created or replaced; synced when sync). */
int fl_env_read_file(fl_env *env, const char *path, fl_buf *out);
int fl_env_write_file(fl_env *env, const char *path, const void *data, size_t n, bool sync);

/* ---- Options (SPEC 2.5) ------------------------------------------------ */

typedef struct fl_option_pair { char *key; char *value; } fl_option_pair;

typedef struct fl_options {
    char    *policies;          /* writer's policy list spec; owned         */
    char    *compactor;         /* compactor's list; NULL = same as writer  */
    uint64_t min_filter_keys;   /* 0                                        */
    uint64_t memtable_bytes;    /* 64 KiB                                   */
    uint64_t sst_bytes;         /* 64 KiB                                   */
    uint64_t block_bytes;       /* 4 KiB                                    */
    uint64_t l0_trigger;        /* 4                                        */
    uint64_t max_runs;          /* 4                                        */
    int      legacy_filters;    /* 0                                        */
    /* rocksdb.* options (SPEC 9, 15): the RocksDB engine's own settings,
     * kept as raw pairs -- key without the "rocksdb." namespace, value as
     * written -- in the order first set; setting a key again replaces its
     * value.  filterlab's engine ignores them; the RocksDB engine checks
     * keys and values when it opens.  Owned. */
    fl_option_pair *rocksdb;
    size_t   rocksdb_count;
    /* Not a workload option: false skips every fsync (SSTs, MANIFEST, the
     * directory).  For throwaway databases -- the checker's trials -- where
     * durability buys nothing and fsync costs most of the time. */
    bool     sync;              /* true                                     */
    /* Not a workload option: where the database reports plugin calls and
     * contract violations (borrowed; must outlive the db).  NULL: a context
     * of its own, whose violations go to stderr. */
    fl_calls *calls;            /* NULL                                     */
    /* Not a workload option: the files' env (borrowed; must outlive the
     * db).  NULL: fl_env_posix(). */
    fl_env   *env;              /* NULL                                     */
    /* Not a workload option: open for reads only; every write, flush of a
     * non-empty memtable and compaction is then FL_ERR_INVALID, and the
     * directory is never written.  A directory the process cannot write is
     * opened so whatever this says. */
    bool      read_only;        /* false                                    */
    /* Not a workload option: a directory that holds SST files but no
     * MANIFEST is refused (FL_ERR_CORRUPT: its tree is lost with the
     * MANIFEST); with this set, a new database is made there instead, its
     * SST ids past every file's, and the files are kept, not part of the
     * tree (fl_db_note says so at every open). */
    bool      create_anyway;    /* false                                    */
} fl_options;

/* The writer's policy list when none is given. */
#define FL_DEFAULT_POLICIES "bloom(bits=10)"

/* Fills in the defaults (policies = FL_DEFAULT_POLICIES). */
void fl_options_init(fl_options *opt);
void fl_options_free(fl_options *opt);
int  fl_options_copy(fl_options *dst, const fl_options *src);
/* Sets one option from its workload spelling (key "policies", value
 * "bloom(bits=10)").  FL_ERR_INVALID with a message naming the key and what
 * was expected.  Any key "rocksdb.NAME" is stored in opt->rocksdb as is
 * (FL_ERR_INVALID only for an empty NAME). */
int  fl_options_set(fl_options *opt, const char *key, const char *value,
                    char *err, size_t err_len);

/* ---- Opening and closing ----------------------------------------------- */

typedef struct fl_db fl_db;

/* Opens (creating if needed) the database in dir.  reg resolves the policy
 * specs and must outlive the db.  On failure *out is NULL and err says why.
 * Reopening with other policies is a policy migration (SPEC 2.5).
 *
 * The files are trusted only so far: a directory with SSTs but no MANIFEST
 * is refused (FL_ERR_CORRUPT), never taken for a new database; an SST is
 * created only where no file has the name (FL_ERR_EXISTS, naming it); the
 * directory's LOCK file is locked for the life of the db, so that a second
 * open fails (FL_ERR_EXISTS) naming the holder's pid; SSTs the MANIFEST
 * does not name are removed when at or past its next id (never committed)
 * and kept otherwise, both said by fl_db_note.  The MANIFEST is written only
 * when the tree changed. */
int fl_db_open(const char *dir, const fl_registry *reg, const fl_options *opt,
               fl_db **out, char *err, size_t err_len);
/* What open noticed and did that is no error (orphan SSTs removed or
 * kept), or "". */
const char *fl_db_note(const fl_db *db);
/* Flushes the memtable, writes the manifest, frees everything.  The db is
 * freed even when an error is returned; err (may be NULL) then says why. */
int fl_db_close(fl_db *db, char *err, size_t err_len);
/* Frees the db without writing anything, as a process that dies leaves it:
 * the memtable is lost, the files stay as they are (the LOCK is released).
 * With the fault env, fl_env_fault_crash then simulates the power loss. */
void fl_db_abandon(fl_db *db);
const char *fl_db_errmsg(const fl_db *db);

/* ---- Writes ------------------------------------------------------------- */

int fl_db_put(fl_db *db, fl_slice key, fl_slice value);
int fl_db_delete(fl_db *db, fl_slice key);
/* Deletes [start, end); a no-op when end <= start. */
int fl_db_delete_range(fl_db *db, fl_slice start, fl_slice end);
int fl_db_flush(fl_db *db);                     /* no-op if memtable empty  */
int fl_db_compact(fl_db *db, bool full);        /* full: everything, 1 run  */

/* ---- Reads -------------------------------------------------------------- */

/* ctx may be NULL.  On FL_OK, *found says whether the key is live; if so
 * value holds its value (value is reset first). */
int fl_db_get(fl_db *db, fl_slice key, const fl_filter_context *ctx,
              fl_buf *value, bool *found);

/* Receives live keys in order.  The slices are valid during the call only;
 * their data is never NULL, even for the empty key or value.
 * Return nonzero to stop the scan early (fl_db_scan* then returns FL_OK). */
typedef int (*fl_scan_fn)(void *arg, fl_slice key, fl_slice value);

int fl_db_scan_prefix(fl_db *db, fl_slice prefix, const fl_filter_context *ctx,
                      fl_scan_fn fn, void *arg);
/* [start, end); never uses prefix filters. */
int fl_db_scan(fl_db *db, fl_slice start, fl_slice end, fl_scan_fn fn, void *arg);

/* Seeks (SPEC 9): up to n live entries from key, forward (>= key,
 * ascending) or backward (<= key, descending).  prefix_mode 1 reads in
 * prefix mode when key has a prefix under the extractor in force
 * (fl_db_prefix_extractor): P = key[0..m) for prefix_len(POINT key) =
 * Some(m); every SST overlapping P's key range is considered, its filters
 * asked PREFIX P (counted as prefix probes, traced like scan_prefix), and
 * entries are returned while their own extracted prefix is P -- the first
 * live entry whose prefix differs (or that has none) ends the read, as
 * RocksDB's prefix_same_as_start does.  prefix_mode 0, or a key without a
 * prefix, reads in total order and uses no filter.  -1: prefix mode when an
 * extractor is in force. */
int fl_db_seek(fl_db *db, fl_slice key, bool backward, uint32_t n, int prefix_mode,
               const fl_filter_context *ctx, fl_scan_fn fn, void *arg);

/* The prefix extractor in force: that of the first configured policy that
 * has one (a built-in bloom's prefix=), or NULL. */
const fl_prefix_extractor *fl_db_prefix_extractor(const fl_db *db);

/* Changes the options of the open database without closing it (the
 * workload's set_options): new SSTs are written, and every SST is read,
 * with the new policies from now on, as after a reopen; the memtable is
 * kept.  On error (err says why) the database is unchanged. */
int fl_db_set_options(fl_db *db, const fl_options *opt, char *err, size_t err_len);

/* ---- Metrics (SPEC 6) ---------------------------------------------------- */

typedef struct fl_filter_counters {
    uint64_t considered, unfiltered, positive, negative, false_positive;
    /* Expected-FP accounting for built-in blooms: over eligible probes
     * (negative + false_positive) on SSTs with exactly one usable built-in
     * bloom sub-filter, the sum of that bloom's expected FP rate for the
     * probe -- exact given its bits, the mean over its lines of
     * (bits set / 512)^k (SPEC 5) -- or 1.0 when it could not probe, and
     * the number of such probes. */
    double   expected_fp_sum;
    uint64_t expected_probes;
    /* Probes of a memtable filter (RocksDB's memtable bloom; filterlab's
     * engine has none and leaves them 0): said maybe / said no. */
    uint64_t memtable_positive, memtable_negative;
    /* Seeks of the read's sources (memtable, SSTs, levels), each probing at
     * most one SST filter, where the engine counts them (RocksDB's
     * seek_child_seek_count; 0 for filterlab's engine and for gets). */
    uint64_t seeks;
} fl_filter_counters;

typedef struct fl_metrics {
    fl_filter_counters point, prefix;
    uint64_t filter_errors;        /* filter blocks or sub-filters unusable */
    uint64_t contract_violations;  /* plugin contract breaks seen           */
    uint64_t ssts_written, sst_reads, flushes, compactions;
    /* An engine's own statistic of its SST filter checks, by answer (an
     * adapter's checks.*: Pebble's Metrics().Filter Misses and Hits): every
     * check, one SST's filter checked twice in one read counted twice. */
    uint64_t checks_positive, checks_negative;
} fl_metrics;

void fl_db_metrics(const fl_db *db, fl_metrics *out);

/* ---- Probe trace (SPEC 6) ------------------------------------------------ */

typedef enum fl_verdict {
    FL_VERDICT_UNFILTERED = 0,   /* no usable sub-filter                     */
    FL_VERDICT_MAYBE = 1,        /* every usable sub-filter said true        */
    FL_VERDICT_NO = 2            /* some sub-filter said false: SST skipped  */
} fl_verdict;

typedef struct fl_subfilter_verdict {
    const char *name;            /* the sub-filter's stored name             */
    bool usable;                 /* matched a policy and decoded             */
    bool might_match;            /* its answer (true when not usable)        */
} fl_subfilter_verdict;

typedef struct fl_probe_event {
    fl_target_kind kind;         /* POINT for get, PREFIX for scan_prefix    */
    fl_slice target;             /* the key or prefix                        */
    uint64_t sst_id;
    fl_verdict verdict;
    bool legacy;                 /* the SST's filter block is Legacy         */
    size_t sub_count;
    const fl_subfilter_verdict *subs;
    bool held_match;             /* MAYBE/UNFILTERED: the SST held a match   */
} fl_probe_event;

/* One call per considered SST, after its verdict (and, when read, after it
 * was positioned).  Pointers are valid during the call only. */
typedef void (*fl_probe_fn)(void *arg, const fl_probe_event *event);
void fl_db_set_probe_trace(fl_db *db, fl_probe_fn fn, void *arg);

/* ---- Introspection (for the checker and tools) --------------------------- */

typedef struct fl_sst_meta {
    uint64_t id;
    int      level;              /* 0 for L0, else 1 + index of its run      */
    uint8_t *smallest; size_t smallest_len;
    uint8_t *largest;  size_t largest_len;
    bool     largest_exclusive;  /* largest is only a range tombstone's end  */
    uint64_t entries, range_tombstones;
    size_t   filter_count;       /* sub-filters it carries                   */
    char   **filter_names;       /* ("" for a Legacy block)                  */
} fl_sst_meta;

/* Every live SST in read order: L0 newest first, then runs newest first,
 * each run in key order.  Free with fl_sst_meta_free. */
int  fl_db_ssts(const fl_db *db, fl_sst_meta **out, size_t *count);
void fl_sst_meta_free(fl_sst_meta *metas, size_t count);
/* Sorts SSTs of a leveled engine (RocksDB, LevelDB) into its read order:
 * L0 newest (highest id) first, then each deeper level in key order. */
void fl_sst_meta_sort_leveled(fl_sst_meta *metas, size_t count);
/* Whether the SST's key range covers key / overlaps the prefix's range. */
bool fl_sst_covers_key(const fl_sst_meta *m, fl_slice key);
bool fl_sst_overlaps_range(const fl_sst_meta *m, fl_slice start, fl_slice end, bool end_open);

/* SST truth, for the checker: calls fn for every entry of the live SST id
 * (puts and point tombstones, in SST order), read from its data blocks
 * without asking any filter.  fn returns nonzero to stop.  FL_ERR_NOTFOUND
 * when no live SST has that id; FL_ERR_CORRUPT for a bad block. */
typedef int (*fl_entry_fn)(void *arg, const fl_row_entry *entry);
int fl_db_sst_entries(fl_db *db, uint64_t id, fl_entry_fn fn, void *arg);

/* Its range tombstones [start, end) with their sequence numbers. */
typedef int (*fl_rtomb_fn)(void *arg, fl_slice start, fl_slice end, uint64_t seq);
int fl_db_sst_range_tombstones(fl_db *db, uint64_t id, fl_rtomb_fn fn, void *arg);

/* Its filter block as stored: *format is 0 (Legacy) or 1 (Composite); out
 * receives the bytes (empty when the SST has no filter block).  A block
 * that fails its checksum is FL_ERR_CORRUPT. */
int fl_db_sst_filter_block(fl_db *db, uint64_t id, fl_buf *out, int *format);

/* ---- Stored bytes, for tools ---------------------------------------------
 * What a tool that looks at an SST's stored bytes needs (a dump or verify
 * command, the fuzz harnesses): the block map of an SST file, the
 * sub-filters of a Composite filter block, the decoding of a Legacy one,
 * and a built-in bloom's bits per key.  Each decoder checks every length
 * before reading; none trusts its input. */

/* Bits per key of a built-in bloom policy in integer millibits
 * (round(bits * 1000), SPEC 5); 0 for any other policy. */
uint64_t fl_bloom_policy_millibits(const fl_filter_policy *policy);

/* Called with each sub-filter of a Composite filter block, in stored
 * order: its name (NUL-terminated) and its data, both valid during the
 * call only.  Nonzero stops the split and is returned. */
typedef int (*fl_subfilter_fn)(void *arg, const char *name, fl_slice data);
/* Splits a Composite filter block (SPEC 2.6: what fl_db_sst_filter_block
 * gives for format 1) into its named sub-filters, as a reader does.  The
 * whole block is checked before fn is first called: fewer than 2 bytes, a
 * length past the end, trailing bytes, a NUL in a name or two equal names
 * are FL_ERR_CORRUPT, and fn is never called. */
int fl_filter_block_split(fl_slice block, fl_subfilter_fn fn, void *arg);

/* Decodes a Legacy filter block (SPEC 2.6: format 0) as a reader does: a
 * whole-key bloom with no extractor, whatever the extractor and whole-key
 * setting of bloom, which must be a built-in bloom policy (else
 * FL_ERR_INVALID).  The filter answers PREFIX queries true; it belongs to
 * bloom: pass bloom with it to fl_call_might_match, fl_call_encode,
 * fl_call_size and fl_call_filter_destroy.  Like fl_call_decode it is
 * counted as a decode, and bytes it refuses are reported to the context
 * (FL_ERR_CORRUPT, *out NULL). */
int fl_call_decode_legacy(fl_calls *calls, const fl_filter_policy *bloom, fl_slice data,
                          fl_filter **out);

/* One block of an SST file: [offset, offset + len) holds its bytes and the
 * 8 bytes after them its XXH3-64, big-endian (SPEC 2.6). */
typedef struct fl_sst_block {
    const char *kind;            /* "info", "range-tombstone", "index",
                                    "filter" or "data" (static)             */
    uint64_t offset, len;
    uint64_t checksum;           /* the stored checksum                     */
    uint64_t actual;             /* the checksum of the bytes as they are   */
} fl_sst_block;
/* Called with each block; nonzero stops the walk and is returned. */
typedef int (*fl_sst_block_fn)(void *arg, const fl_sst_block *block);
/* The blocks an SST file's bytes name, for tools that dump or verify SST
 * files: the info block (where the footer says), then the range-tombstone,
 * index and filter blocks (where the info block says; no filter block when
 * its length is 0), then each data block (where the index says), whether
 * or not their checksums hold.  A block is reported only when it and its
 * checksum lie before the footer.  FL_OK when every block named was
 * reported; FL_ERR_CORRUPT, after reporting what could be located, for a
 * bad footer (wrong magic or version, too short), an info block or index
 * that does not decode, or a block out of bounds; or what fn returned. */
int fl_sst_file_blocks(fl_slice file, fl_sst_block_fn fn, void *arg);

#endif /* FL_ENGINE_H */
