/*
 * proc_conn.h -- the connection to an adapter program, shared by the
 * files of the engine protocol's client: proc_conn.c (the process, its
 * requests and replies, in order), proc_ahead.c (running ahead of the
 * checker) and proc.c (the table of operations, each made of requests).
 * Private to adapters/proc/.
 */
#ifndef FL_PROC_CONN_H
#define FL_PROC_CONN_H

#include "proc_internal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#pragma GCC visibility push(hidden)

#define PIPELINE 1024                 /* writes sent before their replies are read */
#define TAIL 4096                     /* bytes of the adapter's stderr kept         */
#define SEND_BUF (64 * 1024)          /* requests gathered before a send            */
#define PROTOCOL_VERSION 1
#define AHEAD_OPS 256                 /* ops sent ahead at most                     */

/* The caps= of the handshake. */
enum {
    CAP_PUT = 1u << 0, CAP_DEL = 1u << 1, CAP_DELRANGE = 1u << 2, CAP_GET = 1u << 3,
    CAP_MULTIGET = 1u << 4, CAP_SCAN = 1u << 5, CAP_SCAN_PREFIX = 1u << 6, CAP_SEEK = 1u << 7,
    CAP_SEEK_FOR_PREV = 1u << 8, CAP_FLUSH = 1u << 9, CAP_COMPACT = 1u << 10,
    CAP_SET_OPTIONS = 1u << 11, CAP_SSTS = 1u << 12, CAP_SST_ENTRIES = 1u << 13,
    CAP_SST_FILTER_BLOCK = 1u << 14, CAP_SST_FILE = 1u << 15, CAP_TRACE = 1u << 16,
    CAP_PLUGIN = 1u << 17, CAP_PROBES = 1u << 18,
};

/* The counters a `metrics` reply may name (counters= of the handshake),
 * and what the reply must look like (for pc_garbled). */
#define COUNTERS 18
#define METRICS_REPLY "`ok NAME=N ...` with unsigned decimal counters"

/* What was sent ahead: an op's request, or the `metrics` or `ssts` the
 * checker asks after an op. */
enum { AHEAD_OP, AHEAD_METRICS, AHEAD_SSTS };

typedef struct child {
    pid_t pid;                        /* 0: none (never started, or reaped)      */
    int to, from, err;                /* its stdin (socket), stdout (socket),
                                         stderr (pipe); -1 when closed           */
    char *send; size_t send_len;      /* requests not sent yet                    */
    char *recv; size_t recv_len, recv_cap, recv_pos;
    char tail[TAIL]; size_t tail_len; /* the last bytes of its stderr             */
    unsigned caps;
    bool exact[COUNTERS];             /* counters= of its handshake               */
    char engine[128], release[64];
    bool broken;                      /* dead, or out of step: never used again   */
    int broken_rc;                    /* out of step: what every later request
                                         returns (0: dead, FL_ERR_ENGINE_DIED)    */
    char why[4096];                   /* how it broke, for every later request    */
    int status;                       /* its wait status once reaped              */
    /* writes sent whose replies are not read yet, oldest first: what each
     * was, for its error */
    char pending[PIPELINE][96];
    size_t npending, pending_head;
    /* Requests sent ahead of the calls that make them (proc_ahead), oldest
     * first, their replies not read yet: each an op's request, or the
     * `metrics` or `ssts` the checker asks after an op. */
    struct ahead {
        char *text; size_t len; int kind;
        /* an op's kind and byte strings, as the table's call gives them */
        fl_op_kind op; const uint8_t *a, *b; size_t alen, blen;
    } *ahead;
    size_t nahead, ahead_head, ahead_cap, ahead_ops, ahead_bytes;   /* (ops: count, bytes) */
    uint64_t ahead_next;              /* the index of the op after the last one sent */
    /* The replies of the requests sent ahead, taken out of recv while a
     * query that came after them is answered (stash_ahead). */
    char *stash; size_t stash_len;
    char **plugins; size_t nplugins;  /* the plugins it was told to load (`plugin`) */
} child;

typedef struct proc {
    fl_proc_kind *kind;
    child *c;
    char err[4096];
    fl_buf value;                     /* a reply's decoded byte strings            */
    fl_buf key;
    /* sst_filter: what the engine was opened with (opt, reg: its filters'
     * meaning), and the filters read so far, by SST id */
    fl_options opt;
    const fl_registry *reg;
    struct read_filter { uint64_t id; fl_sst_filter *f; } *filters;
    size_t nfilters, filters_cap;
    /* the ids and levels of the last SST listing (the checker's view of
     * the tree), in the adapter's order: its engine's read order */
    uint64_t *listed;
    int *listed_level;
    size_t nlisted;
    /* the ids of the first listing since the open (at_open_known): an SST
     * not among them was written under opt -- unless the options changed
     * since (set_options), when none is known to be */
    uint64_t *at_open;
    size_t nat_open;
    bool at_open_known, options_changed;
    /* the last read (read_kind 0: none that read_probes works out), for
     * the kind's read_probes: its kind, key and prefix= */
    int read_kind, read_prefix_mode;
    fl_buf read_key;
    uint64_t *got_ssts;               /* last_read_probes: the SSTs it asked    */
    /* An error found where the table has no way to return it (metrics):
     * the next request returns it, with its message, instead of running. */
    int deferred;
    char deferred_err[4096];
    /* The last metrics reply, while no request has been sent since: the
     * checker asks before and after every op, and the "before" of one op
     * is the "after" of the one before it -- one round trip, not two. */
    fl_metrics metrics;
    bool metrics_valid;
    /* Running ahead (proc_ahead): on for this open; the request being made
     * was taken in turn (ahead_take, query_begin: call need not read the
     * replies of what was sent ahead first); a query (ssts, sst_file) is
     * being made, which changes no counter. */
    bool ahead_on, in_turn, querying;
    /* A `metrics` request went out right behind a read (with_metrics): the
     * checker asks for the counters after every op, and this way the read
     * and the counters are one round trip; after_read takes its reply. */
    bool metrics_ahead;
    /* The last read's `probe LEN HASH ANSWER` lines (cap probes: a get's, a
     * scan_prefix's or a seek's), and last_read_trace's answer made of
     * them. */
    struct probe { size_t len; uint64_t hash; bool maybe; } *probes;
    size_t nprobes, probes_cap;
    bool probes_valid;
    fl_read_probe *trace;
    size_t trace_cap;
    char trace_why[512];
} proc;

/* The words of a reply line. */
typedef struct words { const char *p, *end; } words;

/* ---- The table's requests (proc.c) and the SST files (proc_files.c) ---- */
int  pc_lacks(proc *p, unsigned cap, const char *op);   /* an op not in caps=: FL_ERR_INVALID, said why */
void pc_free_filters(proc *p);              /* the filters read so far */

/* ---- The process (proc_conn.c) ---- */
int  pc_spawn(proc *p, char *err, size_t err_len);
int  pc_handshake(proc *p);                 /* hello 1, into p->c's caps and counters */
void pc_child_free(child *c);               /* kills it, frees all */
void pc_set_err(proc *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- Requests and replies: gathered, then sent; read in order ---- */
int  pc_put_text(child *c, const char *s, size_t n);
int  pc_put_str(child *c, const char *s);
int  pc_put_bytes(child *c, const uint8_t *data, size_t len);   /* as a workload byte string */
void pc_describe(const child *c, size_t from, char *out, size_t cap);
int  pc_send_all(proc *p, const char *request);
int  pc_read_line(proc *p, const char *request, char **line, size_t *len);
int  pc_call(proc *p, const char *request, char **line, size_t *len);
int  pc_pipelined(proc *p, const char *request);
int  pc_take_deferred(proc *p);
int  pc_garbled(proc *p, const char *request, const char *line, const char *expected);
int  pc_err_reply(proc *p, const char *request, const char *line);
int  pc_settle(proc *p, const char *request);      /* reads the pipelined writes' replies */
int  pc_await_replies(proc *p, const char *request);   /* waits for more of them, into recv */
bool pc_metrics_reply(proc *p, const char *line, size_t len, fl_metrics *out);

/* ---- Running ahead (proc_ahead.c) ---- */
void pc_ahead_pop(child *c);
int  pc_ahead_drain(proc *p, const char *request, bool ops_too);   /* before a request not sent ahead */
void pc_ahead_name(const struct ahead *a, char *out, size_t cap);
/* (op: for an AHEAD_OP, the op the text is of: only its kind, a and b) */
int  pc_ahead_push(child *c, int kind, const char *text, size_t len, const fl_op *op);
/* An op call about to make its request (op as the call builds it): *sent
 * when it went out ahead (then its text, cut, in request); else the caller
 * goes the slow way, pc_ahead_take with its text. */
int  pc_ahead_take_op(proc *p, const fl_op *op, bool *sent, char *request, size_t cap);
int  pc_ahead_take(proc *p, const char *text, size_t len, bool *sent);
int  pc_query_begin(proc *p, const char *text, bool ssts, bool *sent);
int  pc_query_end(proc *p, int rc);

/* ---- Words of a reply ---- */
bool pc_word(words *w, const char **s, size_t *n);
bool pc_word_is(words *w, const char *want);
bool pc_bytes_word(words *w, fl_buf *out);
bool pc_u64_word(words *w, uint64_t *out);
bool pc_count_word(words *w, uint64_t *out);

#pragma GCC visibility pop

#endif
