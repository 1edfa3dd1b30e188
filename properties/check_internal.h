/*
 * check_internal.h -- what the checker's files share: configured policy
 * lists as the checker sees them, the truth about each SST (read without
 * filters), the probe events of one read, and the checker itself.
 *
 * The checker is the only place where engine and model meet: it includes
 * the engine's public headers and the model's, never an internal header of
 * either.
 */
#ifndef FL_CHECK_INTERNAL_H
#define FL_CHECK_INTERNAL_H

#include "check.h"
#include "../model/model.h"

#include <string.h>

/* Internal names stay inside the binary: filterlab is linked -rdynamic so
 * that plugins resolve the ABI against it, which would otherwise export
 * every ck_* function too. */
#pragma GCC visibility push(hidden)

/* ---- Configured policies (policies.c) ---------------------------------- */

/* One configured policy, made from its spec through the registry (for P11
 * and P7) and, for a built-in bloom, parsed by the model too (for P5). */
typedef struct ck_policy {
    char *spec;
    char *name;                       /* the policy's name                  */
    bool builtin;                     /* kind "bloom": the built-in bloom   */
    uint32_t millibits;               /* its bits= (builtin; for Legacy)    */
    bool bloom;                       /* builtin, and the model knows all of
                                         its configuration (not so with a
                                         plugin extractor): P5 applies      */
    fl_model_bloom_config bloom_cfg;  /* when bloom                         */
    fl_filter_policy *policy;         /* the checker's own object           */
    fl_prefix_extractor *extractor;   /* a bloom's prefix=, for P7, or NULL */
    char *extractor_spec;
    uint64_t extractor_seed;          /* fingerprint of extractor_spec ("" if
                                         none): P7's "checked once" key     */
} ck_policy;

/* A policy list; shared by reference (SSTs keep their writer's list). */
typedef struct ck_config {
    int refs;
    fl_calls *calls;                  /* its objects' calls (and destroys)  */
    ck_policy *items;
    size_t count;
    uint64_t min_filter_keys;
    bool legacy;                      /* legacy_filters at the time         */
} ck_config;

/* A new list from spec (NULL means the default "bloom(bits=10)"); its
 * objects are called through calls, which must outlive it. */
int  ck_config_new(const fl_registry *reg, fl_calls *calls, const char *spec, ck_config **out,
                   char *err, size_t err_len);
ck_config *ck_config_ref(ck_config *c);
void ck_config_unref(ck_config *c);
const ck_policy *ck_config_find(const ck_config *c, const char *name);
/* The first built-in bloom of the list (whatever its extractor), or NULL:
 * what decides Legacy reads and writes. */
const ck_policy *ck_config_first_bloom(const ck_config *c);
/* The first policy with an extractor (a bloom's prefix=), or NULL: the
 * extractor in force for prefix-mode seeks (fl_db_prefix_extractor). */
const ck_policy *ck_config_first_extractor(const ck_config *c);

/* ---- SST truth (truth.c) -------------------------------------------------- */

typedef struct ck_key { uint8_t *key; size_t len; uint8_t kind; uint64_t seq; } ck_key;
typedef struct ck_rt { uint8_t *start; size_t slen; uint8_t *end; size_t elen; uint64_t seq; } ck_rt;

/* The keys some range tombstone covers, as the union of their [start, end):
 * disjoint spans in key order, none touching the next, borrowing the
 * tombstones' bytes (truth.c).  "Does a tombstone cover k" is then one
 * bisection, not a pass over every tombstone -- and a pass over the tail:
 * past CK_SPANS_FEW spans, new ones wait there, unsorted, until there are
 * more than 8 + sqrt(n) of them, and are then merged in at once (a
 * memtable's thousands of range deletes: O(sqrt(n) log n) each, not O(n)). */
typedef struct ck_span { const uint8_t *start; size_t slen; const uint8_t *end; size_t elen; } ck_span;
typedef struct ck_spans { ck_span *v; size_t n, cap; ck_span *tail; size_t ntail, tail_cap; } ck_spans;
#define CK_SPANS_FEW 1024
/* Adds [rt->start, rt->end) (nothing if empty); FL_ERR_NOMEM leaves what u
 * covers as it was. */
int  ck_spans_add(ck_spans *u, const ck_rt *rt);
/* Adds every one of rts: sorted, then merged in one pass (O(n log n)). */
int  ck_spans_build(ck_spans *u, const ck_rt *rts, size_t n);
bool ck_spans_cover(const ck_spans *u, const uint8_t *k, size_t klen);
void ck_spans_free(ck_spans *u);

typedef struct ck_sub {
    char *name;
    const uint8_t *data; size_t len;  /* into the sst's block copy          */
    fl_model_bloom ref;               /* decoded for the reader's config    */
    uint64_t ref_generation;          /* config generation of ref, 0: none  */
    bool ref_ok;
    double ref_expected;              /* ref's exact expected FP rate       */
    const ck_policy *conf;            /* ck_config_find(writer, name) ...   */
    uint64_t conf_generation;         /* ... in this config generation      */
    /* P9: known when the checker saw the filter built */
    bool p9;
    bool p9_stored;                   /* the stored bytes are the reference
                                         build's (P5 held): ref_expected is
                                         p9_expected                        */
    double p9_expected;               /* exact, of the reference build      */
    fl_model_bloom p9_ref;            /* the reference build's bits (ghosts) */
    /* what was hashed, keys and prefixes: the reference build's hashes
     * until a P9 probe first needs the set, then that set (fprate.c) */
    uint64_t *p9_hashes; size_t p9_nhashes;
    struct ck_fpset *p9_items;
} ck_sub;

typedef struct ck_sst {
    uint64_t id;
    int level;
    size_t nkeys;  ck_key *keys;      /* every entry, in SST order          */
    uint64_t *heads;                  /* each key's first 8 bytes, big-endian,
                                         zero-padded: bisection compares
                                         these and reads bytes on ties only */
    uint8_t *key_bytes;               /* their bytes, one after the other   */
    uint64_t *index; size_t index_cap;/* hash tag << 32 | 1 + first entry     */
    size_t nrts;   ck_rt *rts;
    ck_spans rt_spans;                /* what they cover, sorted            */
    int format;                       /* 0 Legacy, 1 Composite              */
    uint8_t *block; size_t block_len; /* the stored filter block            */
    bool block_bad;                   /* checksum or layout failure         */
    size_t nsubs;  ck_sub *subs;      /* Legacy: one, named ""              */
    ck_config *writer;                /* the policies that wrote it, or NULL */
    uint64_t listed;                  /* the last tree listing that had it  */
} ck_sst;

/* ---- Probe events of one read (probes.c) ----------------------------------- */

typedef struct ck_seen {
    uint64_t sst;
    fl_verdict verdict;
    bool held;                        /* what the engine said               */
    bool truth;                       /* what the SST truth says            */
    /* the engine's expected-FP accounting of this probe, as the checker
     * computes it (fl_filter_counters): counted, and with what rate;
     * unknown when the checker cannot tell (a bloom it cannot model) */
    bool expected_counted, expected_unknown;
    double expected;
} ck_seen;

/* ---- Fingerprint sets (fpset.c) -------------------------------------------- */

typedef struct ck_fpset { uint64_t *slots; size_t cap, count; } ck_fpset;

uint64_t ck_fingerprint(const void *data, size_t len, uint64_t seed);   /* never 0 */
/* XXH3_64bits of a key (SPEC 5's hash, the SST key index's), and the
 * fingerprint it makes: ck_fingerprint(data, len, 0) is
 * ck_fingerprint_of(ck_key_hash(data, len)), so one hash serves both. */
uint64_t ck_key_hash(const void *data, size_t len);
static inline uint64_t ck_fingerprint_of(uint64_t key_hash) { return key_hash ? key_hash : 1; }
bool ck_fpset_add(ck_fpset *s, uint64_t h);          /* true when h was new */
void ck_fpset_reserve(ck_fpset *s, size_t n);        /* room for n without growing */
bool ck_fpset_has(const ck_fpset *s, uint64_t h);
void ck_fpset_prefetch(const ck_fpset *s, uint64_t h);   /* a hint for has/add */
/* Whether s outgrew the core's own caches (2^16 slots, 512 KiB): only then
 * does hashing a key early to prefetch its slot pay for itself. */
static inline bool ck_fpset_large(const ck_fpset *s) { return s->cap >= (size_t)1 << 16; }
void ck_fpset_free(ck_fpset *s);
/* Moves the nonzero slots of one linear-probing table of 64-bit slots into
 * another, empty, of to_cap (a power of two) slots, each to the first free
 * slot from its home, (slot >> home_shift) & (to_cap - 1): an fpset's
 * growth (shift 0), and P9's tally index's (shift 32, fprate.c). */
void ck_slots_rehash(const uint64_t *from, size_t from_cap, uint64_t *to, size_t to_cap, unsigned home_shift);


/* ---- The checker ------------------------------------------------------------ */

struct fl_checker {
    fl_env *env;                 /* cfg.in_memory: the memory env (owned) */
    fl_env *fault;               /* cfg.crashes: the fault env over it (owned) */
    fl_model *durable;           /* cfg.crashes: the model as of the last
                                    completed flush: what a crash leaves   */
    fl_check_config cfg;
    const fl_engine_ops *eng;         /* cfg.engine or filterlab's          */
    fl_engine *db;
    fl_calls *db_calls;               /* the database's plugin calls        */
    fl_calls *own_calls;              /* the checker's own (P7, P11)        */
    /* the call into the engine in progress, for the watchdog (atomics;
     * ck_engine_enter, ck_engine_leave): its method, NULL outside one */
    const char *engine_method;
    uint64_t engine_seq;              /* bumped when such a call begins     */
    fl_options opt;
    ck_config *writer, *compactor;    /* as configured now                  */
    uint64_t generation;              /* bumps at every open                */
    fl_model *model;
    fl_model *mem_keys;               /* entries in the engine's memtable   */
    bool mem_under_old_options;       /* a set_options since it was emptied:
                                         its filter may be keyed by an older
                                         extractor (RocksDB's memtable keeps
                                         the one it was made with)          */
    size_t nmem_rts, mem_rts_cap; ck_rt *mem_rts;
    ck_spans mem_rt_spans;            /* what they cover                    */
    /* the tree */
    ck_sst **ssts; size_t ssts_cap;   /* by id                              */
    uint8_t *inspected;               /* by id (ssts_cap): an SST's filter read
                                         (sst_filter, no truth views) for P5 */
    uint64_t *held; size_t nheld, held_cap; /* the ids loaded in ssts[]     */
    uint64_t listings;                /* tree listings so far               */
    fl_sst_meta *metas; size_t nmetas;
    uint64_t tree_stamp;
    /* the running read */
    const fl_op *op;
    fl_target_kind want_kind;         /* the filter target it should ask, 0: none */
    const struct ck_policy *want_extractor; /* a prefix-mode seek: the policy
                                         whose extractor gave want_target  */
    fl_slice want_target;             /* (borrowed from op)                 */
    ck_seen *events; size_t nevents, events_cap;
    uint64_t *needed; size_t needed_cap;  /* P6: the SSTs a read needed     */
    bool event_overflow;
    fl_buf value;
    /* a multiget read key by key on an engine without one: each key is a
     * get, named "multiget" in results and findings (reads.c) */
    bool in_multiget;
    /* P2 of a scan or scan_prefix as its items come (reads.c): the model's
     * rows walked beside them, and the first difference, reported once
     * the read has ended (stream_state 1: the model ended after stream_at
     * items; 2: stream_msg) */
    bool streaming;
    fl_model_cursor cur;
    int stream_state;
    size_t stream_at;
    char stream_msg[1024];
    /* scan results of the running read (a seek's): keys and values back to
     * back; scan_count: the read's items, every kind */
    fl_buf scan_buf; size_t scan_count;
    size_t *scan_off; size_t scan_off_cap;
    /* every key ever put or deleted (no SST, memtable or model row can
     * hold any other key); not usable once an existing database was
     * adopted, or a crash left one the model did not allow (it then goes
     * on from what the database holds) */
    ck_fpset written;
    bool written_complete;
    bool key_hashed;                  /* a get: key_hash is its key's       */
    uint64_t key_hash;                /* ck_key_hash                        */
    bool key_known;                   /* key_written is known (per read)    */
    bool key_written;                 /* is the running get's key's         */
    /* An engine without a probe trace (untraced.c): every key ever put or
     * deleted, in order (for "no key has this prefix"), and the false
     * positives known from them, by kind, added to the summary's. */
    fl_model *ever;
    uint64_t fp_known[2];
    uint64_t unfiltered_known;        /* untraced forward prefix reads: SSTs
                                         RocksDB positions in that no filter
                                         probe covered (added to the
                                         summary's prefix unfiltered and
                                         considered)                        */
    uint64_t p9_unjudged[2];          /* untraced reads left out of P9: a
                                         filter of a kind it cannot judge  */
    /* P7 */
    ck_fpset p7_seen;                 /* checked (extractor, kind, input)   */
    /* truth.c's scratch for writing checks, kept from SST to SST */
    fl_model_bytes *tr_keys;          /* an SST's keys as the model takes them */
    uint64_t *tr_hash;                /* their whole-key hashes             */
    size_t tr_cap;
    uint64_t rng;
    /* results */
    fl_fp_tally *p9[2];               /* P9 by kind: point, prefix          */
    uint64_t ghost_item;              /* the item whose ghosts' hashes ...  */
    uint64_t ghosts[FL_P9_GHOSTS];    /* ... these are (0: none yet): a
                                         read's probes of one item come in
                                         a row                              */
    bool p9_done;
    fl_check_summary sum;
    fl_metrics at_open;               /* metrics summed over closed opens   */
    uint64_t adopt_reads;             /* SST reads of adopting an old db    */
    bool p1_this_op;
    char err[2048];
};

/* checker.c */
void ck_violation(fl_checker *ck, int property, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A workload's bytes as the model and the engine take them. */
static inline fl_model_bytes ck_mb(const fl_bytes *b) { return (fl_model_bytes){ b->data, b->len }; }
static inline fl_slice ck_sl(const fl_bytes *b) { return (fl_slice){ b->data, b->len }; }
/* Bytewise order of two keys, the shorter first on a common prefix (the
 * checker's own: it never asks the engine's comparison). */
static inline int ck_cmp(const uint8_t *a, size_t al, const uint8_t *b, size_t bl) {
    size_t n = al < bl ? al : bl;
    int c = n ? memcmp(a, b, n) : 0;
    return c ? c : (al > bl) - (al < bl);
}

/* Around every call into the engine under test that does its work (an op,
 * opening and closing, reading its SSTs back): a watchdog sees it through
 * fl_checker_current_call, and one that does not return within the call
 * timeout is a hang (run.c), as a plugin's call is.  The checks the
 * engine calls back into (a probe trace, a scan's items) run inside it.
 * Only the checker's thread writes these. */
static inline void ck_engine_enter(fl_checker *ck, const char *method) {
    __atomic_store_n(&ck->engine_seq, ck->engine_seq + 1, __ATOMIC_RELAXED);
    __atomic_store_n(&ck->engine_method, method, __ATOMIC_RELEASE);
}
static inline void ck_engine_leave(fl_checker *ck) {
    __atomic_store_n(&ck->engine_method, (const char *)NULL, __ATOMIC_RELEASE);
}

/* Runs a read op (get, scan_prefix, scan, seek, seek_for_prev) on both
 * sides and compares them (reads.c). */
int  ck_run_read(fl_checker *ck, const fl_op *op);
int  ck_run_multiget(fl_checker *ck, const fl_op *op);
/* The op's keyword in results and findings ("multiget" for its gets). */
const char *ck_op_word(const fl_checker *ck, const fl_op *op);

void ck_warning(fl_checker *ck, int property, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Appends a byte string spelled as in workload files to a message buffer. */
void ck_str(char *buf, size_t cap, const uint8_t *p, size_t n);
int  ck_fail(fl_checker *ck, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
uint64_t ck_rand(fl_checker *ck);

/* truth.c */
int  ck_tree_refresh(fl_checker *ck, bool after_open);
ck_sst *ck_sst_get(const fl_checker *ck, uint64_t id);
void ck_tree_free(fl_checker *ck);
/* Whether the SST holds an entry for key (put or tombstone). */
bool ck_sst_holds_key(const ck_sst *s, const uint8_t *k, size_t klen);
/* The same, given h = ck_key_hash(k, klen). */
bool ck_sst_holds_key_hashed(const ck_sst *s, const uint8_t *k, size_t klen, uint64_t h);
bool ck_sst_holds_prefix(const ck_sst *s, const uint8_t *p, size_t plen);
bool ck_sst_rt_covers(const ck_sst *s, const uint8_t *k, size_t klen);
/* The reader-side reference filter of sub i (decoded lazily), or NULL. */
const fl_model_bloom *ck_sub_reference(fl_checker *ck, ck_sst *s, size_t i);

/* checker.c: the extractor in force for a prefix-mode seek (policy p's) on
 * POINT k, from the model's reference extractor where it knows it. */
bool ck_seek_prefix_len(fl_checker *ck, const ck_policy *p, const uint8_t *k, size_t klen, size_t *m);

/* probes.c */
void ck_probe(void *arg, const fl_probe_event *ev);
/* false when the running get's key k was never put or deleted (so no SST,
 * memtable or model state holds it; known exactly while written_complete):
 * one hash and one lookup per read, kept in key_known/key_written. */
bool ck_maybe_written(fl_checker *ck, const uint8_t *k, size_t klen);
void ck_check_read(fl_checker *ck, const fl_metrics *before, const fl_metrics *after);
/* The SPEC 6 identities of one kind's counters (kn "point" or "prefix"):
 * considered = unfiltered + positive + negative, false_positive <=
 * positive; each break a P3 violation. */
void ck_check_identities(fl_checker *ck, const char *kn, const fl_filter_counters *c);

/* untraced.c: what ck_check_read does for an engine without a probe trace */
void ck_check_read_untraced(fl_checker *ck, const fl_metrics *before, const fl_metrics *after);
/* untraced.c: the engine's own statistic of its filter checks (fl_engine_ops.
 * counts_checks) against the counters, for the op ck->op -- a read or not */
void ck_check_checks(fl_checker *ck, const fl_metrics *before, const fl_metrics *after);
/* The same for a multiget of n keys read in one call. */
void ck_check_multiget_untraced(fl_checker *ck, const fl_slice *keys, size_t n, const fl_metrics *before,
                                const fl_metrics *after);

/* fprate.c */
/* Whether a built-in bloom probes its bits for the target (kind 0 point, 1
 * prefix), and the length of the bytes it hashes; false when it answers
 * true because it cannot tell (no lines, no extractor answer). */
bool ck_bloom_probes(const fl_model_bloom *ref, int kind, fl_slice target, size_t *n);
/* P9 for a filter the checker saw built: ref is the model's reference
 * build, hashes (malloc'd, may be NULL when ref->m is 0) the ref->m hashes
 * it set (fl_model_bloom_build_hashed); both are taken over (*ref is left
 * zeroed).  stored: the SST stored exactly ref's bytes. */
void ck_p9_note_filter(ck_sub *sub, fl_model_bloom *ref, uint64_t *hashes, bool stored);
void ck_p9_free(ck_sub *sub);
/* A probe of sub that may be eligible (see fprate.c), which answered
 * `maybe`, of an SST that holds the target (truth) or not.  May build
 * sub's item set (the first time one is needed). */
void ck_p9_probe(fl_checker *ck, ck_sub *sub, const fl_model_bloom *ref, int kind,
                 fl_slice target, bool maybe, bool held);
/* P9 for an engine without a probe trace: a read of kind k whose item was
 * never hashed by any filter probed exactly the n live SSTs ck->metas[
 * idx[i]], and pos of those probes said maybe (all false positives). */
void ck_p9_untraced(fl_checker *ck, int kind, fl_slice item, const size_t *idx, size_t n, uint64_t pos);
void ck_p9_verdict(fl_checker *ck);
void ck_p9_release(fl_checker *ck);

/* contract.c */
void ck_contract_point(fl_checker *ck, const uint8_t *k, size_t klen);
void ck_contract_prefetch(fl_checker *ck, const uint8_t *k, size_t klen);   /* a hint for _point */
void ck_contract_prefix(fl_checker *ck, const uint8_t *p, size_t plen);
void ck_contract_free(fl_checker *ck);

/* The configuration space of engine (NULL: the default engine). */
static inline const fl_space *ck_space_of(const fl_engine_ops *engine) {
    return (engine ? engine : fl_engine_default())->space;
}

#pragma GCC visibility pop

#endif /* FL_CHECK_INTERNAL_H */
