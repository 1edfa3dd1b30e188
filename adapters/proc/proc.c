/*
 * proc.c -- the client of the engine protocol (README, "Engines in any language"): an engine under
 * test that is a program of its own, in any language, driven as a child
 * process through the table of operations (check.h, fl_engine_ops) like any
 * engine linked in.  `--engine cmd:COMMAND` is one (fl_proc_engine), and so
 * is every named adapter program (slatedb).
 *
 * The adapter is a translator, not a checker: it reports what its engine
 * did, and everything is judged here, by the same checker as every engine.
 *
 * Invariants:
 *   - one request, one reply, in order: every request sent is answered
 *     before a reply is taken as another's (writes are pipelined: their
 *     replies are read before the next request whose reply is needed, at
 *     most PIPELINE outstanding, each remembered for its error);
 *   - the child never outlives filterlab: it runs in a process group of
 *     its own with PR_SET_PDEATHSIG, and is killed at close or when found
 *     broken; its stderr is drained while waiting (a full pipe would stall
 *     it) and its last TAIL bytes kept for findings;
 *   - SIGPIPE never kills filterlab: requests go over a socket with
 *     MSG_NOSIGNAL;
 *   - one adapter process per engine table per filterlab process: a
 *     `close` leaves it running, idle, for the next `open` (the adapter may
 *     keep state across them, such as the numbers it gives SSTs), and it
 *     is never shared with a forked child (fork_safe is false).
 *
 * Timeouts are the runner's watchdog's (--call-timeout): a request is a
 * call into the engine like any other, and a hang is its finding.
 */
#include "../adapters.h"
#include "proc_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define PIPELINE 1024                 /* writes sent before their replies are read */
#define TAIL 4096                     /* bytes of the adapter's stderr kept         */
#define SEND_BUF (64 * 1024)          /* requests gathered before a send            */
#define PROTOCOL_VERSION 1

/* ---- Capabilities and counters ------------------------------------------------- */

enum {
    CAP_PUT = 1u << 0, CAP_DEL = 1u << 1, CAP_DELRANGE = 1u << 2, CAP_GET = 1u << 3,
    CAP_MULTIGET = 1u << 4, CAP_SCAN = 1u << 5, CAP_SCAN_PREFIX = 1u << 6, CAP_SEEK = 1u << 7,
    CAP_SEEK_FOR_PREV = 1u << 8, CAP_FLUSH = 1u << 9, CAP_COMPACT = 1u << 10,
    CAP_SET_OPTIONS = 1u << 11, CAP_SSTS = 1u << 12, CAP_SST_ENTRIES = 1u << 13,
    CAP_SST_FILTER_BLOCK = 1u << 14, CAP_SST_FILE = 1u << 15, CAP_TRACE = 1u << 16,
    CAP_PLUGIN = 1u << 17, CAP_PROBES = 1u << 18,
};

static const struct { const char *name; unsigned bit; } cap_names[] = {
    { "put", CAP_PUT }, { "del", CAP_DEL }, { "delrange", CAP_DELRANGE }, { "get", CAP_GET },
    { "multiget", CAP_MULTIGET }, { "scan", CAP_SCAN }, { "scan_prefix", CAP_SCAN_PREFIX },
    { "seek", CAP_SEEK }, { "seek_for_prev", CAP_SEEK_FOR_PREV }, { "flush", CAP_FLUSH },
    { "compact", CAP_COMPACT }, { "set_options", CAP_SET_OPTIONS }, { "ssts", CAP_SSTS },
    { "sst_entries", CAP_SST_ENTRIES }, { "sst_filter_block", CAP_SST_FILTER_BLOCK },
    { "sst_file", CAP_SST_FILE }, { "trace", CAP_TRACE }, { "plugin", CAP_PLUGIN },
    { "probes", CAP_PROBES },
};

/* The metrics a reply may name, and where each goes in fl_metrics. */
#define COUNTERS 16
static const char *const counter_names[COUNTERS] = {
    "point.considered", "point.unfiltered", "point.positive", "point.negative", "point.false_positive",
    "prefix.considered", "prefix.unfiltered", "prefix.positive", "prefix.negative", "prefix.false_positive",
    "filter_errors", "contract_violations", "ssts_written", "sst_reads", "flushes", "compactions",
};

static size_t counter_len(size_t i) {
    static size_t len[COUNTERS];      /* (the same values, whoever fills them) */
    if (!len[i]) len[i] = strlen(counter_names[i]);
    return len[i];
}

static uint64_t *counter_slot(fl_metrics *m, size_t i) {
    fl_filter_counters *c = i < 5 ? &m->point : &m->prefix;
    switch (i) {
    case 0: case 5: return &c->considered;
    case 1: case 6: return &c->unfiltered;
    case 2: case 7: return &c->positive;
    case 3: case 8: return &c->negative;
    case 4: case 9: return &c->false_positive;
    case 10: return &m->filter_errors;
    case 11: return &m->contract_violations;
    case 12: return &m->ssts_written;
    case 13: return &m->sst_reads;
    case 14: return &m->flushes;
    default: return &m->compactions;
    }
}

/* ---- The adapter process ----------------------------------------------------------- */

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
    struct ahead { char *text; size_t len; int kind; } *ahead;
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
    /* the ids of the last SST listing (the checker's view of the tree) */
    uint64_t *listed;
    size_t nlisted;
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
    /* The last read's `probe LEN HASH ANSWER` lines (cap probes: a get's or
     * a scan_prefix's), its key or prefix, and last_read_trace's answer
     * made of them. */
    struct probe { size_t len; uint64_t hash; bool maybe; } *probes;
    size_t nprobes, probes_cap;
    bool probes_valid, probe_prefix;
    fl_buf probe_key;
    fl_read_probe *trace;
    size_t trace_cap;
    char trace_why[512];
} proc;

static proc *of(fl_engine *e) { return (proc *)e; }
static const proc *cof(const fl_engine *e) { return (const proc *)e; }

static void set_err(proc *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_err(proc *p, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err, sizeof p->err, fmt, ap);
    va_end(ap);
}

static void drain_stderr(child *c) {
    if (c->err < 0) return;
    char buf[4096];
    for (;;) {
        ssize_t n = read(c->err, buf, sizeof buf);
        if (n <= 0) {
            if (n == 0 || (errno != EAGAIN && errno != EINTR)) { close(c->err); c->err = -1; }
            if (n < 0 && errno == EINTR) continue;
            return;
        }
        size_t k = (size_t)n;
        if (k >= TAIL) {
            memcpy(c->tail, buf + k - TAIL, TAIL);
            c->tail_len = TAIL;
        } else {
            if (c->tail_len + k > TAIL) {
                size_t drop = c->tail_len + k - TAIL;
                memmove(c->tail, c->tail + drop, c->tail_len - drop);
                c->tail_len -= drop;
            }
            memcpy(c->tail + c->tail_len, buf, k);
            c->tail_len += k;
        }
    }
}

/* The child's stderr tail as one line (newlines shown as " | "). */
static void stderr_tail(child *c, char *out, size_t cap) {
    drain_stderr(c);
    size_t used = 0;
    for (size_t i = 0; i < c->tail_len && used + 4 < cap; i++) {
        char ch = c->tail[i];
        if (ch == '\n') {
            if (i + 1 < c->tail_len) used += (size_t)snprintf(out + used, cap - used, " | ");
        } else {
            out[used++] = (ch >= 0x20 && ch < 0x7f) ? ch : '?';
        }
    }
    out[used < cap ? used : cap - 1] = 0;
}

static void kill_child(child *c) {
    if (c->pid > 0) {
        kill(-c->pid, SIGKILL);
        kill(c->pid, SIGKILL);
        int st;
        while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR) {}
        c->pid = 0;
    }
    c->broken = true;
}

static void ahead_pop(child *c);

static void child_free(child *c) {
    if (!c) return;
    kill_child(c);
    if (c->to >= 0) close(c->to);
    if (c->from >= 0) close(c->from);
    if (c->err >= 0) close(c->err);
    free(c->send);
    free(c->recv);
    while (c->nahead) ahead_pop(c);
    free(c->ahead);
    free(c->stash);
    for (size_t i = 0; i < c->nplugins; i++) free(c->plugins[i]);
    free(c->plugins);
    free(c);
}

/* The adapter is gone or out of step: the error says how it ended, what it
 * was asked, and the end of its stderr.  FL_ERR_ENGINE_DIED. */
static int died(proc *p, const char *request) {
    child *c = p->c;
    int st = 0;
    bool reaped = false;
    if (c->pid > 0) {
        /* it closed its stdout: give it a moment to exit, then make it */
        for (int i = 0; i < 100 && !reaped; i++) {
            pid_t w = waitpid(c->pid, &st, WNOHANG);
            if (w == c->pid) reaped = true;
            else usleep(10000);
        }
        if (!reaped) {
            kill(-c->pid, SIGKILL);
            kill(c->pid, SIGKILL);
            while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR) {}
            reaped = true;
        }
        c->pid = 0;
    }
    char how[128], tail[TAIL + 64];
    if (!reaped) snprintf(how, sizeof how, "is gone");
    else if (WIFEXITED(st)) snprintf(how, sizeof how, "exited with status %d", WEXITSTATUS(st));
    else if (WIFSIGNALED(st)) snprintf(how, sizeof how, "was killed by signal %d (%s)", WTERMSIG(st),
                                       strsignal(WTERMSIG(st)));
    else snprintf(how, sizeof how, "stopped answering");
    stderr_tail(c, tail, sizeof tail);
    set_err(p, "the adapter %s (%s) %s during `%.200s`; its stderr ended: %s", p->kind->ops.name,
            p->kind->command, how, request, tail[0] ? tail : "(nothing)");
    memcpy(c->why, p->err, sizeof c->why);
    c->broken = true;
    return FL_ERR_ENGINE_DIED;
}

/* A request to an adapter that broke earlier: how it broke. */
static int still_broken(proc *p) {
    if (p->c->why[0]) memcpy(p->err, p->c->why, sizeof p->err);
    else set_err(p, "the adapter %s is no longer usable: an earlier request broke it", p->kind->ops.name);
    return p->c->broken_rc ? p->c->broken_rc : FL_ERR_ENGINE_DIED;
}

/* ---- Sending and receiving -------------------------------------------------------- */

/* Appends to the requests not sent yet. */
static int put_text(child *c, const char *s, size_t n) {
    char *b = realloc(c->send, c->send_len + n + 1);
    if (!b) return FL_ERR_NOMEM;
    c->send = b;
    memcpy(b + c->send_len, s, n);
    c->send_len += n;
    return FL_OK;
}

static int put_str(child *c, const char *s) { return put_text(c, s, strlen(s)); }

static int put_bytes(child *c, const uint8_t *data, size_t len) {
    char *text = NULL;
    size_t tlen = 0;
    FILE *f = open_memstream(&text, &tlen);
    if (!f) return FL_ERR_NOMEM;
    fl_bytes_print(f, data, len);
    if (fclose(f) != 0) { free(text); return FL_ERR_NOMEM; }
    int rc = put_text(c, text, tlen);
    free(text);
    return rc;
}

/* Reads what the adapter has written into recv, without waiting: the
 * bytes read (0: none yet), -1 when it is gone or out of memory. */
static ssize_t take_replies(child *c) {
    if (c->recv_cap - c->recv_len < 65536) {
        size_t cap = c->recv_cap ? c->recv_cap * 2 : 131072;
        char *b = realloc(c->recv, cap);
        if (!b) return -1;
        c->recv = b;
        c->recv_cap = cap;
    }
    ssize_t got = read(c->from, c->recv + c->recv_len, c->recv_cap - c->recv_len - 1);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) return 0;
    if (got <= 0) return -1;
    c->recv_len += (size_t)got;
    return got;
}

/* Sends what is gathered. */
static int send_all(proc *p, const char *request) {
    child *c = p->c;
    size_t off = 0;
    while (off < c->send_len) {
        ssize_t n = send(c->to, c->send + off, c->send_len - off, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN) {
                /* its stdin is full: it must be writing replies we have not
                 * read (taken into recv here, so that it can go on), or hung
                 * (the watchdog's to see) */
                struct pollfd fds[3] = { { c->to, POLLOUT, 0 }, { c->from, POLLIN, 0 }, { c->err, POLLIN, 0 } };
                if (poll(fds, c->err >= 0 ? 3 : 2, -1) < 0 && errno != EINTR) return died(p, request);
                if (fds[1].revents && take_replies(c) < 0) return died(p, request);
                drain_stderr(c);
                continue;
            }
            c->send_len = 0;
            return died(p, request);
        }
        off += (size_t)n;
    }
    c->send_len = 0;
    return FL_OK;
}

/* Waits for more of the adapter's replies (into recv); request names the
 * one whose reply is awaited, for a death. */
static int await_replies(proc *p, const char *request) {
    child *c = p->c;
    for (;;) {
        struct pollfd fds[2] = { { c->from, POLLIN, 0 }, { c->err, POLLIN, 0 } };
        int n = poll(fds, c->err >= 0 ? 2 : 1, -1);
        if (n < 0) {
            if (errno == EINTR) continue;
            return died(p, request);
        }
        if (c->err >= 0 && fds[1].revents) drain_stderr(c);
        if (!fds[0].revents) continue;
        ssize_t got = take_replies(c);
        if (got < 0) return died(p, request);
        if (got > 0) return FL_OK;
    }
}

static int violation_line(proc *p, const char *request, const char *line, size_t len);

/* The next reply line, NUL-terminated, without its newline, in *line
 * (valid until the next call).  `violation` lines before it are reported
 * (violation_line) and skipped. */
static int read_line(proc *p, const char *request, char **line, size_t *len) {
    child *c = p->c;
    for (;;) {
        char *start = c->recv ? c->recv + c->recv_pos : NULL;
        char *nl = c->recv_len > c->recv_pos ? memchr(start, '\n', c->recv_len - c->recv_pos) : NULL;
        if (nl) {
            *nl = 0;
            *line = start;
            *len = (size_t)(nl - start);
            if (*len && start[*len - 1] == '\r') start[--*len] = 0;
            c->recv_pos = (size_t)(nl - c->recv) + 1;
            if (*len >= 10 && memcmp(start, "violation ", 10) == 0) {
                int rc = violation_line(p, request, start, *len);
                if (rc != FL_OK) return rc;
                continue;
            }
            return FL_OK;
        }
        if (c->recv_pos) {
            memmove(c->recv, c->recv + c->recv_pos, c->recv_len - c->recv_pos);
            c->recv_len -= c->recv_pos;
            c->recv_pos = 0;
        }
        int rc = c->send_len ? send_all(p, request)     /* never wait for a reply to a request not sent */
                             : await_replies(p, request);
        if (rc != FL_OK) return rc;
    }
}

/* A reply that does not parse: the adapter is out of step (FL_ERR_INVALID:
 * exit 2, naming the request and quoting the reply). */
static int garbled(proc *p, const char *request, const char *line, const char *expected) {
    set_err(p, "the adapter %s (%s) answered `%.200s` with `%.300s`, not %s (README: the engine protocol)",
            p->kind->ops.name, p->kind->command, request, line, expected);
    memcpy(p->c->why, p->err, sizeof p->c->why);
    p->c->broken = true;
    p->c->broken_rc = FL_ERR_INVALID;
    return FL_ERR_INVALID;
}

/* An `err KIND MESSAGE` reply as a status, with the message. */
static int err_reply(proc *p, const char *request, const char *line) {
    const char *kind = line + 4, *sp = strchr(kind, ' ');
    size_t klen = sp ? (size_t)(sp - kind) : strlen(kind);
    const char *msg = sp ? sp + 1 : "";
    int rc = FL_ERR_IO;
    const char *what = "failed";
    if (klen == 11 && memcmp(kind, "unsupported", 11) == 0) {
        rc = FL_ERR_INVALID;
        what = "cannot express it";
    } else if (klen == 7 && memcmp(kind, "invalid", 7) == 0) {
        rc = FL_ERR_INVALID;
        what = "refused it";
    } else if (klen == 8 && memcmp(kind, "notfound", 8) == 0) {
        rc = FL_ERR_NOTFOUND;
    } else if (klen == 7 && memcmp(kind, "corrupt", 7) == 0) {
        rc = FL_ERR_CORRUPT;
    }
    set_err(p, "%s %s: `%.200s`: %s", p->kind->ops.name, what, request, msg);
    return rc;
}

/* Reads the replies of the writes still outstanding: the first error among
 * them is returned (and named), the rest are read all the same. */
static int settle(proc *p, const char *request) {
    child *c = p->c;
    int first = FL_OK;
    if (c->npending && (first = send_all(p, request)) != FL_OK) return first;
    while (c->npending) {
        char *pending = c->pending[c->pending_head];
        char *line;
        size_t len;
        int rc = read_line(p, pending, &line, &len);
        if (rc != FL_OK) return rc;
        c->pending_head = (c->pending_head + 1) % PIPELINE;
        c->npending--;
        if (strcmp(line, "ok") == 0) continue;
        if (strncmp(line, "err ", 4) == 0) {
            if (first == FL_OK) first = err_reply(p, pending, line);
            continue;
        }
        return garbled(p, pending, line, "`ok` or `err KIND MESSAGE`");
    }
    return first;
}

/* The error a metrics request found, now returned (FL_OK: none). */
static int take_deferred(proc *p) {
    int rc = p->deferred;
    if (rc != FL_OK) {
        p->deferred = FL_OK;
        memcpy(p->err, p->deferred_err, sizeof p->err);
    }
    return rc;
}

static int ahead_drain(proc *p, const char *request, bool ops_too);

/* Sends the request gathered (text, for messages) and reads replies up to
 * its first line, in *line.  An `err` reply is returned as its status. */
static int call(proc *p, const char *request, char **line, size_t *len) {
    bool in_turn = p->in_turn;
    p->in_turn = false;
    int rc = take_deferred(p);
    if (rc != FL_OK) return rc;
    if (p->c->broken) return still_broken(p);
    if (!p->querying) p->metrics_valid = false;
    rc = settle(p, request);
    /* a request no one sent ahead: the replies of what was are read first */
    if (rc == FL_OK && p->c->nahead && !in_turn) rc = ahead_drain(p, request, strcmp(request, "close") == 0);
    if (rc == FL_OK) rc = send_all(p, request);
    if (rc == FL_OK) rc = read_line(p, request, line, len);
    if (rc == FL_OK && strncmp(*line, "err ", 4) == 0) return err_reply(p, request, *line);
    return rc;
}

/* A write: sent later, answered later (settle). */
static int pipelined(proc *p, const char *request) {
    child *c = p->c;
    p->in_turn = false;               /* (writes come through ahead_take) */
    if (c->broken) return still_broken(p);
    if (c->npending == PIPELINE) {
        int rc = settle(p, request);
        if (rc != FL_OK) return rc;
    }
    p->metrics_valid = false;
    size_t slot = (c->pending_head + c->npending) % PIPELINE;
    snprintf(c->pending[slot], sizeof c->pending[slot], "%s", request);
    c->npending++;
    if (c->send_len >= SEND_BUF) return send_all(p, request);
    return FL_OK;
}

/* The request text for messages: the gathered line, cut. */
static void describe(const child *c, size_t from, char *out, size_t cap) {
    size_t n = c->send_len - from;
    if (n && c->send[c->send_len - 1] == '\n') n--;
    if (n >= cap) n = cap - 1;
    memcpy(out, c->send + from, n);
    out[n] = 0;
    if (c->send_len - from > cap) memcpy(out + cap - 4, "...", 4);
}

/* ---- Running ahead -------------------------------------------------------------------- */

/* The checker asks for an op, then the counters after it, then (when a
 * write flushed or compacted) the SSTs, and only then the next op: a round
 * trip each.  Told the ops that come next (proc_ahead), this client sends
 * them before they are asked for, each followed by the `metrics` and, after
 * a write, the `ssts` that may be asked after it.  Each call of the table
 * then takes the head of what was sent (ahead_take), which must be its own
 * request; a `metrics` or `ssts` not asked for is read and dropped.  A query
 * that was not sent ahead (`ssts` after a read, `sst_file`) goes out behind
 * everything sent, its reply read past theirs (stash_ahead): right only if
 * none of the ops sent ahead changed the SSTs, which their `metrics` replies
 * show, and which is checked.  Anything else out of turn is filterlab's
 * bug, an error (exit 2), never a wrong verdict. */
enum { AHEAD_OP, AHEAD_METRICS, AHEAD_SSTS };

#define AHEAD_OPS 256                 /* ops sent ahead at most */

static bool metrics_reply(proc *p, const char *line, size_t len, fl_metrics *out);

/* A line that ends a reply: `ok`, `ok ...` or `err ...`. */
static bool terminal(const char *line, size_t len) {
    return (len == 2 && memcmp(line, "ok", 2) == 0) || (len > 2 && memcmp(line, "ok ", 3) == 0) ||
           (len >= 4 && memcmp(line, "err ", 4) == 0);
}

/* A request sent ahead, as messages name it. */
static void ahead_name(const struct ahead *a, char *out, size_t cap) {
    size_t n = a->len && a->text[a->len - 1] == '\n' ? a->len - 1 : a->len;
    if (n >= cap) n = cap - 1;
    memcpy(out, a->text, n);
    out[n] = 0;
}

static void ahead_pop(child *c) {
    struct ahead *a = &c->ahead[c->ahead_head];
    if (a->kind == AHEAD_OP) {
        free(a->text);
        c->ahead_ops--;
        c->ahead_bytes -= a->len;
    }
    c->ahead_head = (c->ahead_head + 1) % c->ahead_cap;
    c->nahead--;
}

/* Gathers text (a whole request line) to be sent, as sent ahead. */
static int ahead_push(child *c, int kind, const char *text, size_t len) {
    if (c->nahead == c->ahead_cap) {
        size_t cap = c->ahead_cap ? c->ahead_cap * 2 : 256;
        struct ahead *n = malloc(cap * sizeof *n);
        if (!n) return FL_ERR_NOMEM;
        for (size_t i = 0; i < c->nahead; i++) n[i] = c->ahead[(c->ahead_head + i) % c->ahead_cap];
        free(c->ahead);
        c->ahead = n;
        c->ahead_cap = cap;
        c->ahead_head = 0;
    }
    char *own = (char *)(uintptr_t)text;        /* (metrics, ssts: static text) */
    if (kind == AHEAD_OP && !(own = malloc(len))) return FL_ERR_NOMEM;
    if (kind == AHEAD_OP) memcpy(own, text, len);
    int rc = put_text(c, text, len);
    if (rc != FL_OK) {
        if (kind == AHEAD_OP) free(own);
        return rc;
    }
    c->ahead[(c->ahead_head + c->nahead) % c->ahead_cap] = (struct ahead){ own, len, kind };
    c->nahead++;
    if (kind == AHEAD_OP) {
        c->ahead_ops++;
        c->ahead_bytes += len;
    }
    return FL_OK;
}

/* Out of step: filterlab's own bug (the run stops, exit 2). */
static int desync(proc *p, const char *asked, const struct ahead *head, const char *why) {
    char name[200], q[200];
    ahead_name(head, name, sizeof name);
    struct ahead a = { (char *)(uintptr_t)asked, strlen(asked), 0 };
    ahead_name(&a, q, sizeof q);
    set_err(p, "filterlab's client of the %s adapter lost step: `%s` was asked while `%s` was sent ahead "
            "and not answered yet (%s); a bug of filterlab's, FILTERLAB_AHEAD=0 runs without sending ahead",
            p->kind->ops.name, q, name, why);
    memcpy(p->c->why, p->err, sizeof p->c->why);
    p->c->broken = true;
    p->c->broken_rc = FL_ERR_INVALID;
    return FL_ERR_INVALID;
}

/* Reads the reply of the head of what was sent ahead (after the writes'
 * before it), and drops it; a `metrics` reply is then the counters now. */
static int drop_head(proc *p) {
    child *c = p->c;
    struct ahead *a = &c->ahead[c->ahead_head];
    char name[200], *line;
    size_t len;
    ahead_name(a, name, sizeof name);
    int rc = settle(p, name);
    if (rc != FL_OK) return rc;
    do {
        if ((rc = read_line(p, name, &line, &len)) != FL_OK) return rc;
    } while (!terminal(line, len));
    if (a->kind == AHEAD_METRICS) {
        fl_metrics m;
        memset(&m, 0, sizeof m);
        if (!metrics_reply(p, line, len, &m))
            return garbled(p, "metrics", line, "`ok NAME=N ...` with unsigned decimal counters");
        p->metrics = m;
        p->metrics_valid = true;
    }
    ahead_pop(c);
    return FL_OK;
}

/* Before a request no one sent ahead (call): the replies of everything
 * sent ahead are read and dropped; an op among them is out of step,
 * unless ops_too (close: the run stopped before asking for them). */
static int ahead_drain(proc *p, const char *request, bool ops_too) {
    child *c = p->c;
    while (c->nahead) {
        if (c->ahead[c->ahead_head].kind == AHEAD_OP && !ops_too)
            return desync(p, request, &c->ahead[c->ahead_head], "a request of its own, not a query");
        int rc = drop_head(p);
        if (rc != FL_OK) return rc;
    }
    return FL_OK;
}

/* The table is about to make request text (len bytes, its newline
 * included): *sent when it went out ahead (the head, now taken: nothing to
 * send), else the caller sends it.  A `metrics` or `ssts` at the head not
 * asked for is dropped first. */
static int ahead_take(proc *p, const char *text, size_t len, bool *sent) {
    child *c = p->c;
    *sent = false;
    p->in_turn = true;
    while (c->nahead) {
        struct ahead *a = &c->ahead[c->ahead_head];
        if (a->len == len && memcmp(a->text, text, len) == 0 && a->kind != AHEAD_SSTS) {
            ahead_pop(c);
            *sent = true;
            return FL_OK;
        }
        if (a->kind == AHEAD_OP) return desync(p, text, a, "another request was sent ahead in its place");
        int rc = drop_head(p);
        if (rc != FL_OK) return rc;
    }
    return FL_OK;
}

/* A query out of turn (query, its text): the replies of everything sent
 * ahead are taken out of recv (into stash, put back by query_end), so that
 * the query's reply, which comes after them, is read next.  Those ops must
 * not have changed the SSTs (tree: the list; else: none compacted away),
 * as their `metrics` replies say. */
static int stash_ahead(proc *p, const char *query, bool tree) {
    child *c = p->c;
    if (!p->metrics_valid)
        return desync(p, query, &c->ahead[c->ahead_head], "the counters before it are not known");
    int rc = settle(p, query);
    if (rc == FL_OK) rc = send_all(p, query);
    if (rc != FL_OK) return rc;
    size_t pos = c->recv_pos;
    for (size_t i = 0; i < c->nahead;) {
        const struct ahead *a = &c->ahead[(c->ahead_head + i) % c->ahead_cap];
        char *start = c->recv + pos;
        char *nl = c->recv_len > pos ? memchr(start, '\n', c->recv_len - pos) : NULL;
        if (!nl) {
            char name[200];
            ahead_name(a, name, sizeof name);
            if ((rc = await_replies(p, name)) != FL_OK) return rc;
            continue;
        }
        size_t len = (size_t)(nl - start);
        pos += len + 1;
        if (len && start[len - 1] == '\r') len--;
        if (!terminal(start, len)) continue;
        if (a->kind == AHEAD_METRICS) {
            char line[4096];
            size_t n = len < sizeof line ? len : sizeof line - 1;
            memcpy(line, start, n);
            line[n] = 0;
            fl_metrics m;
            memset(&m, 0, sizeof m);
            if (!metrics_reply(p, line, n, &m))
                return garbled(p, "metrics", line, "`ok NAME=N ...` with unsigned decimal counters");
            const fl_metrics *o = &p->metrics;
            bool changed = m.compactions != o->compactions ||
                           (tree && (m.flushes != o->flushes || m.ssts_written != o->ssts_written));
            if (changed)
                return desync(p, query, &c->ahead[(c->ahead_head + i - 1) % c->ahead_cap],
                              "it changed the SSTs, and the query is of them before it");
        }
        i++;
    }
    size_t n = pos - c->recv_pos;
    if (n) {
        if (!(c->stash = malloc(n))) return FL_ERR_NOMEM;
        memcpy(c->stash, c->recv + c->recv_pos, n);
        c->stash_len = n;
        memmove(c->recv + c->recv_pos, c->recv + pos, c->recv_len - pos);
        c->recv_len -= n;
    }
    return FL_OK;
}

/* Before a query (text: ssts, sst_file ...; ssts: it is `ssts`): *sent
 * when it went out ahead; else the caller sends it -- after what was sent
 * ahead, whose replies are then put aside (stash_ahead). */
static int query_begin(proc *p, const char *text, bool ssts, bool *sent) {
    child *c = p->c;
    *sent = false;
    p->querying = true;
    p->in_turn = true;
    while (c->nahead) {
        struct ahead *a = &c->ahead[c->ahead_head];
        if (a->kind == AHEAD_SSTS && ssts) {
            ahead_pop(c);
            *sent = true;
            return FL_OK;
        }
        if (a->kind == AHEAD_OP) return stash_ahead(p, text, ssts);
        int rc = drop_head(p);
        if (rc != FL_OK) return rc;
    }
    return FL_OK;
}

/* After a query: what stash_ahead put aside is read next.  rc, or the
 * error of putting it back. */
static int query_end(proc *p, int rc) {
    child *c = p->c;
    p->querying = false;
    p->in_turn = false;
    if (!c->stash) return rc;
    size_t unread = c->recv_len - c->recv_pos;
    if (c->recv_pos < c->stash_len) {
        size_t need = c->stash_len + unread + 1;
        if (need > c->recv_cap) {
            char *b = realloc(c->recv, need + 65536);
            if (!b) {
                free(c->stash);
                c->stash = NULL;
                set_err(p, "out of memory keeping the %s adapter's replies", p->kind->ops.name);
                c->broken = true;
                return FL_ERR_NOMEM;
            }
            c->recv = b;
            c->recv_cap = need + 65536;
        }
        memmove(c->recv + c->stash_len, c->recv + c->recv_pos, unread);
        c->recv_pos = 0;
        c->recv_len = c->stash_len + unread;
        memcpy(c->recv, c->stash, c->stash_len);
    } else {
        c->recv_pos -= c->stash_len;
        memcpy(c->recv + c->recv_pos, c->stash, c->stash_len);
    }
    free(c->stash);
    c->stash = NULL;
    c->stash_len = 0;
    return rc;
}

/* ---- Words of a reply -------------------------------------------------------------- */

typedef struct words { const char *p, *end; } words;

/* The next word (up to a space) as text; false at the end. */
static bool word(words *w, const char **s, size_t *n) {
    if (w->p >= w->end) return false;
    const char *sp = memchr(w->p, ' ', (size_t)(w->end - w->p));
    *s = w->p;
    *n = sp ? (size_t)(sp - w->p) : (size_t)(w->end - w->p);
    w->p = sp ? sp + 1 : w->end;
    return true;
}

static bool word_is(words *w, const char *want) {
    const char *s;
    size_t n;
    return word(w, &s, &n) && n == strlen(want) && memcmp(s, want, n) == 0;
}

/* The next word as a byte string into out (reset first). */
static bool bytes_word(words *w, fl_buf *out) {
    fl_buf_reset(out);
    size_t avail = (size_t)(w->end - w->p);
    if (avail == 0) return false;
    if (out->cap < avail + 1) {
        uint8_t *b = realloc(out->data, avail + 1);
        if (!b) return false;
        out->data = b;
        out->cap = avail + 1;
    }
    size_t len, used;
    if (!fl_bytes_scan(w->p, avail, out->data, &len, &used)) return false;
    out->len = len;
    w->p += used;
    if (w->p < w->end) {
        if (*w->p != ' ') return false;
        w->p++;
    }
    return true;
}

/* `violation OBJECT METHOD PLUGIN WHO WHAT`: a plugin call inside the
 * adapter broke its contract, found by filterlab's own wrappers there;
 * reported into the run's call context as if found here. */
static int violation_line(proc *p, const char *request, const char *line, size_t len) {
    static const fl_object_kind kinds[] = { FL_OBJECT_POLICY, FL_OBJECT_BUILDER, FL_OBJECT_FILTER,
                                            FL_OBJECT_EXTRACTOR };
    words w = { line + 10, line + len };
    const char *o;
    size_t olen, k = 0;
    bool ok = word(&w, &o, &olen);
    while (ok && k < 4 && !(strlen(fl_object_kind_name(kinds[k])) == olen &&
                            memcmp(fl_object_kind_name(kinds[k]), o, olen) == 0))
        k++;
    char *text[4] = { NULL, NULL, NULL, NULL };      /* method, plugin, who, what */
    fl_buf b;                                        /* (the caller's buffers may be in use) */
    fl_buf_init(&b);
    ok = ok && k < 4;
    for (int i = 0; ok && i < 4; i++) {
        ok = bytes_word(&w, &b) && !memchr(b.data, 0, b.len) && (text[i] = malloc(b.len + 1));
        if (ok) {
            memcpy(text[i], b.data, b.len);
            text[i][b.len] = 0;
        }
    }
    fl_buf_free(&b);
    int rc = FL_OK;
    if (!ok || w.p < w.end) {
        rc = garbled(p, request, line, "`violation OBJECT METHOD PLUGIN WHO WHAT` before the reply");
    } else {
        fl_contract_violation v = { kinds[k], text[0], text[2], text[1][0] ? text[1] : NULL, text[3] };
        fl_calls_report(p->opt.calls, &v);
    }
    for (int i = 0; i < 4; i++) free(text[i]);
    return rc;
}

static bool u64_word(words *w, uint64_t *out) {
    const char *s;
    size_t n;
    if (!word(w, &s, &n) || n == 0 || n > 20) return false;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        uint64_t d = (uint64_t)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10) return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

/* A count, or `?` for one the adapter does not know (0: filterlab reads
 * the SST itself where it can). */
static bool count_word(words *w, uint64_t *out) {
    if (w->end - w->p >= 1 && w->p[0] == '?' && (w->end - w->p == 1 || w->p[1] == ' ')) {
        *out = 0;
        w->p += w->end - w->p == 1 ? 1 : 2;
        return true;
    }
    return u64_word(w, out);
}

/* ---- Starting an adapter ------------------------------------------------------------ */

static int nonblock(int fd) {
    int fl = fcntl(fd, F_GETFL);
    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static int spawn(proc *p, char *err, size_t err_len) {
    int in[2] = { -1, -1 }, out[2] = { -1, -1 }, er[2] = { -1, -1 };
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) < 0 ||
        socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, out) < 0 || pipe2(er, O_CLOEXEC) < 0) {
        snprintf(err, err_len, "cannot start the adapter %s: %s", p->kind->command, strerror(errno));
        for (int i = 0; i < 2; i++) {
            if (in[i] >= 0) close(in[i]);
            if (out[i] >= 0) close(out[i]);
            if (er[i] >= 0) close(er[i]);
        }
        return FL_ERR_IO;
    }
    pid_t parent = getpid();
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, err_len, "cannot start the adapter %s: fork: %s", p->kind->command, strerror(errno));
        close(in[0]); close(in[1]); close(out[0]); close(out[1]); close(er[0]); close(er[1]);
        return FL_ERR_IO;
    }
    if (pid == 0) {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127);
        signal(SIGPIPE, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        if (dup2(in[1], 0) < 0 || dup2(out[1], 1) < 0 || dup2(er[1], 2) < 0) _exit(127);
        setenv("FILTERLAB_PROTOCOL", "1", 1);
        /* nothing of filterlab's but the three (a result pipe of an
         * isolated run held open by the adapter would hide its end) */
        close_range(3, ~0U, 0);
        /* exec: the shell becomes the adapter, which keeps PDEATHSIG */
        size_t n = strlen(p->kind->command) + 6;
        char *line = malloc(n);
        if (!line) _exit(127);
        snprintf(line, n, "exec %s", p->kind->command);
        execl("/bin/sh", "sh", "-c", line, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);                   /* (either side may win the race) */
    close(in[1]);
    close(out[1]);
    close(er[1]);
    child *c = calloc(1, sizeof *c);
    if (!c || nonblock(in[0]) < 0 || nonblock(er[0]) < 0) {
        free(c);
        close(in[0]); close(out[0]); close(er[0]);
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        return FL_ERR_NOMEM;
    }
    c->pid = pid;
    c->to = in[0];
    c->from = out[0];
    c->err = er[0];
    p->c = c;
    return FL_OK;
}

/* hello 1 -> ok 1 NAME RELEASE caps=... counters=... */
static int handshake(proc *p) {
    child *c = p->c;
    char *line;
    size_t len;
    int rc = put_str(c, "hello 1\n");
    if (rc == FL_OK) rc = call(p, "hello 1", &line, &len);
    if (rc != FL_OK) return rc;
    const char *expected = "`ok 1 NAME RELEASE caps=LIST counters=LIST`";
    words w = { line, line + len };
    uint64_t version;
    if (!word_is(&w, "ok") || !u64_word(&w, &version)) return garbled(p, "hello 1", line, expected);
    if (version != PROTOCOL_VERSION) {
        set_err(p, "the adapter %s (%s) speaks protocol version %llu; this filterlab speaks %d",
                p->kind->ops.name, p->kind->command, (unsigned long long)version, PROTOCOL_VERSION);
        c->broken = true;
        return FL_ERR_INVALID;
    }
    if (!bytes_word(&w, &p->value)) return garbled(p, "hello 1", line, expected);
    snprintf(c->engine, sizeof c->engine, "%.*s", (int)p->value.len, (const char *)p->value.data);
    if (!bytes_word(&w, &p->value)) return garbled(p, "hello 1", line, expected);
    snprintf(c->release, sizeof c->release, "%.*s", (int)p->value.len, (const char *)p->value.data);
    const char *s;
    size_t n;
    while (word(&w, &s, &n)) {
        bool caps = n >= 5 && memcmp(s, "caps=", 5) == 0;
        bool counters = n >= 9 && memcmp(s, "counters=", 9) == 0;
        if (!caps && !counters) return garbled(p, "hello 1", line, expected);
        const char *item = s + (caps ? 5 : 9), *end = s + n;
        while (item < end) {
            const char *comma = memchr(item, ',', (size_t)(end - item));
            size_t ilen = comma ? (size_t)(comma - item) : (size_t)(end - item);
            bool known = false;
            if (caps) {
                for (size_t i = 0; i < sizeof cap_names / sizeof *cap_names; i++)
                    if (strlen(cap_names[i].name) == ilen && memcmp(cap_names[i].name, item, ilen) == 0) {
                        c->caps |= cap_names[i].bit;
                        known = true;
                    }
            } else {
                for (size_t i = 0; i < COUNTERS; i++)
                    if (counter_len(i) == ilen && memcmp(counter_names[i], item, ilen) == 0) {
                        c->exact[i] = true;
                        known = true;
                    }
            }
            /* a capability this filterlab does not know is one it never asks for */
            (void)known;
            item = comma ? comma + 1 : end;
        }
    }
    /* A kind's counters are held together by SPEC 6's identities: an
     * adapter that lists any of them must list the three they rest on. */
    for (int k = 0; k < 2; k++) {
        const bool *x = &c->exact[k * 5];
        if ((x[0] || x[1] || x[2] || x[3] || x[4]) && !(x[0] && x[2] && x[3])) {
            char what[96];
            snprintf(what, sizeof what, "%s.considered, %s.positive and %s.negative listed together",
                     k ? "prefix" : "point", k ? "prefix" : "point", k ? "prefix" : "point");
            return garbled(p, "hello 1", line, what);
        }
    }
    return FL_OK;
}

/* ---- Requests --------------------------------------------------------------------- */

/* An op the adapter did not list: the run stops at its line (exit 2). */
static int lacks(proc *p, unsigned cap, const char *op) {
    if (p->c->caps & cap) return FL_OK;
    set_err(p, "the %s engine (%s) cannot run `%s`: its adapter does not list it in caps=", p->kind->ops.name,
            p->c->engine, op);
    return FL_ERR_INVALID;
}

/* Writes the options of opt as option words (the workload's). */
static int put_options(child *c, const fl_options *opt) {
    char num[160];
    int rc = FL_OK;
    if (opt->policies) {
        rc = put_str(c, " policies=");
        if (rc == FL_OK) rc = put_bytes(c, (const uint8_t *)opt->policies, strlen(opt->policies));
    }
    if (rc == FL_OK && opt->compactor) {
        rc = put_str(c, " compactor=");
        if (rc == FL_OK) rc = put_bytes(c, (const uint8_t *)opt->compactor, strlen(opt->compactor));
    }
    snprintf(num, sizeof num,
             " min_filter_keys=%llu memtable_bytes=%llu sst_bytes=%llu block_bytes=%llu l0_trigger=%llu"
             " max_runs=%llu legacy_filters=%d",
             (unsigned long long)opt->min_filter_keys, (unsigned long long)opt->memtable_bytes,
             (unsigned long long)opt->sst_bytes, (unsigned long long)opt->block_bytes,
             (unsigned long long)opt->l0_trigger, (unsigned long long)opt->max_runs, opt->legacy_filters);
    if (rc == FL_OK) rc = put_str(c, num);
    return rc;
}

/* A request that answers `ok` and nothing else. */
static int simple(proc *p, size_t from) {
    char request[256], *line;
    size_t len;
    describe(p->c, from, request, sizeof request);
    int rc = call(p, request, &line, &len);
    if (rc == FL_OK && strcmp(line, "ok") != 0) return garbled(p, request, line, "`ok`");
    return rc;
}

/* `plugin PATH` for each plugin the run loaded that the adapter was not
 * told of yet (an adapter without the cap is told none: a policy of a
 * plugin's kind is then its refusal at the open). */
static int send_plugins(proc *p, const fl_registry *reg) {
    child *c = p->c;
    if (!(c->caps & CAP_PLUGIN)) return FL_OK;
    for (size_t i = 0; i < fl_registry_plugin_count(reg); i++) {
        const char *path = fl_registry_plugin_path(reg, i);
        bool told = false;
        for (size_t j = 0; j < c->nplugins && !told; j++) told = strcmp(c->plugins[j], path) == 0;
        if (told) continue;
        char **n = realloc(c->plugins, (c->nplugins + 1) * sizeof *n);
        if (!n) return FL_ERR_NOMEM;
        c->plugins = n;
        if (!(n[c->nplugins] = strdup(path))) return FL_ERR_NOMEM;
        c->nplugins++;
        size_t from = c->send_len;
        int rc = put_str(c, "plugin ");
        if (rc == FL_OK) rc = put_bytes(c, (const uint8_t *)path, strlen(path));
        if (rc == FL_OK) rc = put_str(c, "\n");
        if (rc == FL_OK) rc = simple(p, from);
        if (rc != FL_OK) return rc;
    }
    return FL_OK;
}

int fl_proc_open(const fl_engine_ops *self, const char *dir, const fl_registry *reg, const fl_options *opt,
                     fl_engine **out, char *err, size_t err_len) {
    *out = NULL;
    fl_proc_kind *kind = (fl_proc_kind *)self;
    proc *p = calloc(1, sizeof *p);
    if (!p) return FL_ERR_NOMEM;
    p->kind = kind;
    p->reg = reg;
    fl_buf_init(&p->value);
    fl_buf_init(&p->key);
    int rc = fl_options_copy(&p->opt, opt);       /* (frees what it made when it fails) */
    if (rc != FL_OK) {
        free(p);
        return rc;
    }
    if (kind->idle && !kind->idle->broken) {
        p->c = kind->idle;
        kind->idle = NULL;
    } else {
        child_free(kind->idle);
        kind->idle = NULL;
        if ((rc = spawn(p, err, err_len)) == FL_OK) rc = handshake(p);
        else { free(p); return rc; }
        /* what the adapter lacks, the checker must not count on: without
         * an SST listing it judges reads by their results and counters
         * alone, without a batched read it reads a multiget key by key */
        if (rc == FL_OK && !(p->c->caps & CAP_SSTS)) kind->ops.ssts = NULL;
        if (rc == FL_OK && !(p->c->caps & CAP_MULTIGET)) kind->ops.multiget = NULL;
        if (rc == FL_OK && !(p->c->caps & CAP_SST_FILE)) kind->ops.sst_filter = NULL;
        if (rc == FL_OK && (p->c->caps & (CAP_SST_FILE | CAP_PROBES)) != (CAP_SST_FILE | CAP_PROBES))
            kind->ops.last_read_trace = NULL;
    }
    if (rc == FL_OK) rc = send_plugins(p, reg);
    if (rc == FL_OK) {
        /* sending ahead needs the counters that say when SSTs change */
        const char *env = getenv("FILTERLAB_AHEAD");
        p->ahead_on = !(env && strcmp(env, "0") == 0) &&
                      (!(p->c->caps & CAP_SSTS) || (p->c->exact[12] && p->c->exact[14] && p->c->exact[15]));
        size_t from = p->c->send_len;
        rc = put_str(p->c, "open ");
        if (rc == FL_OK) rc = put_bytes(p->c, (const uint8_t *)dir, strlen(dir));
        if (rc == FL_OK) rc = put_options(p->c, opt);
        if (rc == FL_OK) rc = put_str(p->c, "\n");
        if (rc == FL_OK) rc = simple(p, from);
    }
    if (rc != FL_OK) {
        snprintf(err, err_len, "%s", p->err[0] ? p->err : fl_strerror(rc));
        child_free(p->c);
        fl_options_free(&p->opt);
        fl_buf_free(&p->value);
        fl_buf_free(&p->key);
        free(p);
        return rc;
    }
    *out = (fl_engine *)p;
    return FL_OK;
}

static void free_filters(proc *p) {
    for (size_t i = 0; i < p->nfilters; i++) p->kind->free_sst_filter(p->filters[i].f);
    free(p->filters);
    p->filters = NULL;
    p->nfilters = p->filters_cap = 0;
}

static int proc_close(fl_engine *e, char *err, size_t err_len) {
    proc *p = of(e);
    int rc = put_str(p->c, "close\n");
    if (rc == FL_OK) rc = simple(p, p->c->send_len - 6);
    if (rc != FL_OK && err) snprintf(err, err_len, "%s", p->err);
    if (rc == FL_OK && !p->c->broken && !p->kind->idle) p->kind->idle = p->c;   /* for the next open */
    else child_free(p->c);
    free_filters(p);
    free(p->listed);
    fl_options_free(&p->opt);
    fl_buf_free(&p->value);
    fl_buf_free(&p->key);
    fl_buf_free(&p->probe_key);
    free(p->probes);
    free(p->trace);
    free(p);
    return rc;
}

static const char *proc_errmsg(const fl_engine *e) { return cof(e)->err; }

/* An op's workload line (fl_op_print) and its newline: its request. */
static int op_text(const fl_op *op, char **text, size_t *len) {
    *text = NULL;
    *len = 0;
    FILE *f = open_memstream(text, len);
    if (!f) return FL_ERR_NOMEM;
    int prc = fl_op_print(op, f);
    if (prc == 0) prc = fputc('\n', f) == EOF;
    if (fclose(f) != 0 || prc != 0) {
        free(*text);
        *text = NULL;
        return FL_ERR_NOMEM;
    }
    return FL_OK;
}

/* Gathers an op's request (unless it went out ahead), and its text, cut,
 * for messages, in request. */
static int put_op(proc *p, const fl_op *op, char *request, size_t cap) {
    char *text;
    size_t tlen;
    bool sent;
    int rc = op_text(op, &text, &tlen);
    if (rc != FL_OK) return rc;
    rc = ahead_take(p, text, tlen, &sent);
    if (rc == FL_OK && !sent) rc = put_text(p->c, text, tlen);
    struct ahead a = { text, tlen, AHEAD_OP };
    ahead_name(&a, request, cap);
    if (tlen > cap) memcpy(request + cap - 4, "...", 4);
    free(text);
    return rc;
}

static fl_bytes bytes_of(fl_slice s) {
    static uint8_t empty;
    return (fl_bytes){ s.len ? (uint8_t *)s.data : &empty, s.len };
}

static void set_ctx(fl_op *op, const fl_filter_context *ctx) {
    if (!ctx) return;
    op->has_ctx = true;
    op->ctx_len = FL_FILTER_CONTEXT_BYTES;
    while (op->ctx_len && ctx->bytes[op->ctx_len - 1] == 0) op->ctx_len--;
    memcpy(op->ctx, ctx->bytes, FL_FILTER_CONTEXT_BYTES);
}

static int write_op(proc *p, unsigned cap, const fl_op *op) {
    int rc = take_deferred(p);
    if (rc == FL_OK) rc = lacks(p, cap, fl_op_name(op->kind));
    if (rc != FL_OK) return rc;
    char request[96];
    if ((rc = put_op(p, op, request, sizeof request)) != FL_OK) return rc;
    return pipelined(p, request);
}

static int proc_put(fl_engine *e, fl_slice k, fl_slice v) {
    fl_op op = { .kind = FL_OP_PUT, .a = bytes_of(k), .b = bytes_of(v), .prefix_mode = -1 };
    return write_op(of(e), CAP_PUT, &op);
}

static int proc_del(fl_engine *e, fl_slice k) {
    fl_op op = { .kind = FL_OP_DEL, .a = bytes_of(k), .prefix_mode = -1 };
    return write_op(of(e), CAP_DEL, &op);
}

static int proc_delete_range(fl_engine *e, fl_slice s, fl_slice end) {
    fl_op op = { .kind = FL_OP_DELRANGE, .a = bytes_of(s), .b = bytes_of(end), .prefix_mode = -1 };
    return write_op(of(e), CAP_DELRANGE, &op);
}

/* An op answered by `ok` alone. */
static int plain_op(proc *p, unsigned cap, const fl_op *op) {
    int rc = lacks(p, cap, fl_op_name(op->kind));
    if (rc != FL_OK) return rc;
    char request[256], *line;
    size_t len;
    if ((rc = put_op(p, op, request, sizeof request)) != FL_OK) return rc;
    rc = call(p, request, &line, &len);
    if (rc == FL_OK && strcmp(line, "ok") != 0) return garbled(p, request, line, "`ok`");
    return rc;
}

static int proc_flush(fl_engine *e) {
    fl_op op = { .kind = FL_OP_FLUSH, .prefix_mode = -1 };
    return plain_op(of(e), CAP_FLUSH, &op);
}

static int proc_compact(fl_engine *e, bool full) {
    fl_op op = { .kind = FL_OP_COMPACT, .full = full, .prefix_mode = -1 };
    return plain_op(of(e), CAP_COMPACT, &op);
}

static int with_metrics(proc *p);
static int after_read(proc *p, int rc);
static int get_reply(proc *p, const char *request, const char *line, size_t len, fl_buf *value, bool *found);
static int probe_line(proc *p, const char *request, const char *line, size_t len);

/* The probe lines just read are the read's, of key (a get's) or prefix. */
static int probes_of(proc *p, fl_slice key, bool prefix) {
    fl_buf_reset(&p->probe_key);
    int rc = fl_buf_append(&p->probe_key, key.data, key.len);
    p->probes_valid = rc == FL_OK;
    p->probe_prefix = prefix;
    return rc;
}

static int proc_get(fl_engine *e, fl_slice key, const fl_filter_context *ctx, fl_buf *value, bool *found) {
    proc *p = of(e);
    int rc = lacks(p, CAP_GET, "get");
    if (rc != FL_OK) return rc;
    fl_op op = { .kind = FL_OP_GET, .a = bytes_of(key), .prefix_mode = -1 };
    set_ctx(&op, ctx);
    char request[256], *line;
    size_t len;
    if ((rc = put_op(p, &op, request, sizeof request)) != FL_OK) return rc;
    if ((rc = with_metrics(p)) != FL_OK) return rc;
    p->probes_valid = false;
    p->nprobes = 0;
    if ((rc = call(p, request, &line, &len)) != FL_OK) return after_read(p, rc);
    while ((p->c->caps & CAP_PROBES) && len >= 6 && memcmp(line, "probe ", 6) == 0) {
        if ((rc = probe_line(p, request, line, len)) != FL_OK) return after_read(p, rc);
        if ((rc = read_line(p, request, &line, &len)) != FL_OK) return after_read(p, rc);
        if (len >= 4 && memcmp(line, "err ", 4) == 0) return after_read(p, err_reply(p, request, line));
    }
    rc = get_reply(p, request, line, len, value, found);
    if (rc == FL_OK && (p->c->caps & CAP_PROBES)) rc = probes_of(p, key, false);
    return after_read(p, rc);
}

/* `probe LEN HASH maybe|no`: one filter probe of the get, of LEN filter
 * bytes whose FNV-1a 64 is HASH (16 hex digits). */
static int probe_line(proc *p, const char *request, const char *line, size_t len) {
    const char *expected = "`probe LEN HASH maybe|no` (HASH: 16 hex digits), then `ok value VALUE` or `ok none`";
    words w = { line, line + len };
    uint64_t n, h = 0;
    const char *s;
    size_t sn;
    if (!word_is(&w, "probe") || !u64_word(&w, &n) || !word(&w, &s, &sn) || sn != 16)
        return garbled(p, request, line, expected);
    for (size_t i = 0; i < 16; i++) {
        int d = s[i] >= '0' && s[i] <= '9' ? s[i] - '0' : s[i] >= 'a' && s[i] <= 'f' ? s[i] - 'a' + 10 : -1;
        if (d < 0) return garbled(p, request, line, expected);
        h = h << 4 | (uint64_t)d;
    }
    const char *a;
    size_t an;
    if (!word(&w, &a, &an) || w.p != w.end || !((an == 5 && memcmp(a, "maybe", 5) == 0) || (an == 2 && memcmp(a, "no", 2) == 0)))
        return garbled(p, request, line, expected);
    bool maybe = an == 5;
    if (p->nprobes == p->probes_cap) {
        size_t cap = p->probes_cap ? 2 * p->probes_cap : 16;
        struct probe *b = realloc(p->probes, cap * sizeof *b);
        if (!b) return FL_ERR_NOMEM;
        p->probes = b;
        p->probes_cap = cap;
    }
    p->probes[p->nprobes++] = (struct probe){ (size_t)n, h, maybe };
    return FL_OK;
}

static int get_reply(proc *p, const char *request, const char *line, size_t len, fl_buf *value, bool *found) {
    words w = { line, line + len };
    const char *expected = "`ok value VALUE` or `ok none`";
    if (!word_is(&w, "ok")) return garbled(p, request, line, expected);
    const char *s;
    size_t n;
    if (!word(&w, &s, &n)) return garbled(p, request, line, expected);
    if (n == 4 && memcmp(s, "none", 4) == 0 && w.p == w.end) {
        *found = false;
        fl_buf_reset(value);
        return FL_OK;
    }
    if (n != 5 || memcmp(s, "value", 5) != 0 || !bytes_word(&w, &p->value) || w.p != w.end)
        return garbled(p, request, line, expected);
    *found = true;
    fl_buf_reset(value);
    return fl_buf_append(value, p->value.data, p->value.len);
}

static int multiget_reply(proc *p, const char *request, size_t n, fl_buf *values, bool *found);

static int proc_multiget(fl_engine *e, size_t n, const fl_slice *keys, const fl_filter_context *ctx,
                         fl_buf *values, bool *found) {
    proc *p = of(e);
    int rc = lacks(p, CAP_MULTIGET, "multiget");
    if (rc != FL_OK) return rc;
    uint8_t *packed = NULL;
    size_t plen = 0;
    for (size_t i = 0; i < n; i++)
        if (fl_op_multiget_pack(&packed, &plen, keys[i].data, keys[i].len) != 0) {
            free(packed);
            return FL_ERR_NOMEM;
        }
    fl_op op = { .kind = FL_OP_MULTIGET, .a = { packed, plen }, .count = (uint32_t)n, .prefix_mode = -1 };
    set_ctx(&op, ctx);
    char request[256];
    rc = put_op(p, &op, request, sizeof request);
    free(packed);
    if (rc != FL_OK) return rc;
    if ((rc = with_metrics(p)) != FL_OK) return rc;
    return after_read(p, multiget_reply(p, request, n, values, found));
}

static int multiget_reply(proc *p, const char *request, size_t n, fl_buf *values, bool *found) {
    char *line;
    size_t len;
    int rc;
    for (size_t i = 0; i <= n; i++) {
        rc = i == 0 ? call(p, request, &line, &len) : read_line(p, request, &line, &len);
        if (rc != FL_OK) return rc;
        words w = { line, line + len };
        if (i == n) {
            if (strcmp(line, "ok") != 0) return garbled(p, request, line, "`ok` after a line per key");
            break;
        }
        if (strncmp(line, "err ", 4) == 0) return err_reply(p, request, line);
        const char *s;
        size_t wn;
        if (!word(&w, &s, &wn)) return garbled(p, request, line, "`value VALUE` or `none`");
        fl_buf_reset(&values[i]);
        if (wn == 4 && memcmp(s, "none", 4) == 0 && w.p == w.end) {
            found[i] = false;
            continue;
        }
        if (wn != 5 || memcmp(s, "value", 5) != 0 || !bytes_word(&w, &p->value) || w.p != w.end)
            return garbled(p, request, line, "`value VALUE` or `none`");
        found[i] = true;
        if (fl_buf_append(&values[i], p->value.data, p->value.len) != FL_OK) return FL_ERR_NOMEM;
    }
    return FL_OK;
}

/* A read answered by `entry KEY VALUE` lines and `ok`: each to fn; with
 * probes (a scan_prefix, cap probes), `probe LEN HASH maybe|no` lines too,
 * anywhere before the `ok`. */
static int entries(proc *p, const char *request, bool probes, fl_scan_fn fn, void *arg) {
    char *line;
    size_t len;
    int rc = call(p, request, &line, &len);
    bool stopped = false;
    while (rc == FL_OK) {
        if (strcmp(line, "ok") == 0) return FL_OK;
        if (strncmp(line, "err ", 4) == 0) return err_reply(p, request, line);
        if (probes && len >= 6 && memcmp(line, "probe ", 6) == 0) {
            if ((rc = probe_line(p, request, line, len)) == FL_OK) rc = read_line(p, request, &line, &len);
            continue;
        }
        words w = { line, line + len };
        if (!word_is(&w, "entry") || !bytes_word(&w, &p->key) || !bytes_word(&w, &p->value) || w.p != w.end)
            return garbled(p, request, line, probes ? "`entry KEY VALUE`, `probe LEN HASH maybe|no` or `ok`"
                                                    : "`entry KEY VALUE` or `ok`");
        /* the rest of the reply is read even when fn has had enough */
        if (!stopped && fn(arg, (fl_slice){ p->key.data, p->key.len }, (fl_slice){ p->value.data, p->value.len }))
            stopped = true;
        rc = read_line(p, request, &line, &len);
    }
    return rc;
}

static int read_op(proc *p, unsigned cap, const fl_op *op, fl_scan_fn fn, void *arg) {
    int rc = lacks(p, cap, fl_op_name(op->kind));
    if (rc != FL_OK) return rc;
    char request[256];
    if ((rc = put_op(p, op, request, sizeof request)) != FL_OK) return rc;
    if ((rc = with_metrics(p)) != FL_OK) return rc;
    bool probes = op->kind == FL_OP_SCAN_PREFIX && (p->c->caps & CAP_PROBES);
    p->probes_valid = false;
    p->nprobes = 0;
    rc = entries(p, request, probes, fn, arg);
    if (rc == FL_OK && probes) rc = probes_of(p, (fl_slice){ op->a.data, op->a.len }, true);
    return after_read(p, rc);
}

static int proc_scan_prefix(fl_engine *e, fl_slice prefix, const fl_filter_context *ctx, fl_scan_fn fn,
                            void *arg) {
    fl_op op = { .kind = FL_OP_SCAN_PREFIX, .a = bytes_of(prefix), .prefix_mode = -1 };
    set_ctx(&op, ctx);
    return read_op(of(e), CAP_SCAN_PREFIX, &op, fn, arg);
}

static int proc_scan(fl_engine *e, fl_slice start, fl_slice end, fl_scan_fn fn, void *arg) {
    fl_op op = { .kind = FL_OP_SCAN, .a = bytes_of(start), .b = bytes_of(end), .prefix_mode = -1 };
    return read_op(of(e), CAP_SCAN, &op, fn, arg);
}

static int proc_seek(fl_engine *e, fl_slice key, bool backward, uint32_t n, int prefix_mode,
                     const fl_filter_context *ctx, fl_scan_fn fn, void *arg) {
    fl_op op = { .kind = backward ? FL_OP_SEEK_FOR_PREV : FL_OP_SEEK, .a = bytes_of(key), .count = n,
                 .prefix_mode = prefix_mode };
    set_ctx(&op, ctx);
    return read_op(of(e), backward ? CAP_SEEK_FOR_PREV : CAP_SEEK, &op, fn, arg);
}

static int proc_set_options(fl_engine *e, const fl_options *opt, char *err, size_t err_len) {
    proc *p = of(e);
    int rc = lacks(p, CAP_SET_OPTIONS, "set_options");
    if (rc == FL_OK) {
        size_t from = p->c->send_len;
        rc = put_str(p->c, "set_options");
        if (rc == FL_OK) rc = put_options(p->c, opt);
        if (rc == FL_OK) rc = put_str(p->c, "\n");
        if (rc == FL_OK) rc = simple(p, from);
    }
    if (rc == FL_OK) {
        /* the filters' meaning may have changed with the policies */
        fl_options next;
        if ((rc = fl_options_copy(&next, opt)) == FL_OK) {
            fl_options_free(&p->opt);
            p->opt = next;
            free_filters(p);
        } else {
            set_err(p, "set_options: %s", fl_strerror(rc));
        }
    }
    if (rc != FL_OK) snprintf(err, err_len, "%s", p->err);
    return rc;
}

static bool metrics_reply(proc *p, const char *line, size_t len, fl_metrics *out);

static void proc_metrics(const fl_engine *x, fl_metrics *out) {
    /* (the table gives metrics a const engine: asking is no change to it) */
    proc *p = (proc *)(uintptr_t)x;
    memset(out, 0, sizeof *out);
    if (p->deferred) return;
    if (p->metrics_valid) {
        *out = p->metrics;
        return;
    }
    char *line;
    size_t len;
    bool sent;
    int rc = ahead_take(p, "metrics\n", 8, &sent);
    if (rc == FL_OK && !sent) rc = put_str(p->c, "metrics\n");
    if (rc == FL_OK) rc = call(p, "metrics", &line, &len);
    if (rc == FL_OK && !metrics_reply(p, line, len, out))
        rc = garbled(p, "metrics", line, "`ok NAME=N ...` with unsigned decimal counters");
    if (rc != FL_OK) {
        /* the table's metrics cannot fail: the next request does */
        p->deferred = rc;
        memcpy(p->deferred_err, p->err, sizeof p->err);
        memset(out, 0, sizeof *out);
        return;
    }
    p->metrics = *out;
    p->metrics_valid = true;
}

/* Reads `ok NAME=N ...` into out; false when it does not parse. */
static bool metrics_reply(proc *p, const char *line, size_t len, fl_metrics *out) {
    words w = { line, line + len };
    if (!word_is(&w, "ok")) return false;
    const char *s;
    size_t n;
    while (word(&w, &s, &n)) {
        const char *eq = memchr(s, '=', n);
        if (!eq) return false;
        size_t klen = (size_t)(eq - s);
        for (size_t i = 0; i < COUNTERS; i++) {
            if (!p->c->exact[i] || counter_len(i) != klen || memcmp(counter_names[i], s, klen) != 0) continue;
            words v = { eq + 1, s + n };
            uint64_t val;
            if (!u64_word(&v, &val)) return false;
            *counter_slot(out, i) = val;
        }
        /* counters not in counters=, and the engine's own, are not filterlab's to hold */
    }
    return true;
}

static int with_metrics(proc *p) {
    bool sent, in_turn = p->in_turn;  /* (the read's, for its call) */
    int rc = ahead_take(p, "metrics\n", 8, &sent);
    p->in_turn = in_turn;
    if (rc == FL_OK && !sent) rc = put_str(p->c, "metrics\n");
    if (rc == FL_OK) p->metrics_ahead = true;
    return rc;
}

/* Takes the reply of the `metrics` sent behind a read (unless the adapter
 * broke), whatever the read's status rc, which it returns unless rc is
 * FL_OK and the metrics fail. */
static int after_read(proc *p, int rc) {
    if (!p->metrics_ahead) return rc;
    p->metrics_ahead = false;
    if (p->c->broken) return rc;
    if (p->c->send_len >= 8 && memcmp(p->c->send + p->c->send_len - 8, "metrics\n", 8) == 0) {
        p->c->send_len -= 8;          /* never sent (call returned an earlier error first) */
        return rc;
    }
    char *line;
    size_t len;
    fl_metrics m;
    memset(&m, 0, sizeof m);
    int r2 = read_line(p, "metrics", &line, &len);
    if (r2 == FL_OK && !metrics_reply(p, line, len, &m))
        r2 = garbled(p, "metrics", line, "`ok NAME=N ...` with unsigned decimal counters");
    if (r2 != FL_OK) return rc != FL_OK ? rc : r2;
    p->metrics = m;
    p->metrics_valid = true;
    return rc;
}

static bool proc_counts_false_positives(const fl_engine *x, fl_target_kind kind) {
    const proc *p = cof(x);
    return p->c->exact[kind == FL_TARGET_PREFIX ? 9 : 4];   /* prefix. / point.false_positive */
}

/* ---- SSTs ------------------------------------------------------------------------- */

static int proc_ssts(const fl_engine *x, fl_sst_meta **out, size_t *count) {
    proc *p = (proc *)(uintptr_t)x;
    *out = NULL;
    *count = 0;
    int rc = lacks(p, CAP_SSTS, "ssts");
    if (rc != FL_OK) return rc;
    char *line;
    size_t len, cap = 0, n = 0;
    fl_sst_meta *m = NULL;
    bool sent;
    rc = query_begin(p, "ssts\n", true, &sent);
    if (rc == FL_OK && !sent) rc = put_str(p->c, "ssts\n");
    if (rc == FL_OK) rc = call(p, "ssts", &line, &len);
    const char *expected = "`sst ID LEVEL SMALLEST LARGEST ENTRIES RTOMBS EXCL NAME...` or `ok`";
    while (rc == FL_OK && strcmp(line, "ok") != 0) {
        if (strncmp(line, "err ", 4) == 0) { rc = err_reply(p, "ssts", line); break; }
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            fl_sst_meta *b = realloc(m, cap * sizeof *m);
            if (!b) { rc = FL_ERR_NOMEM; break; }
            m = b;
        }
        fl_sst_meta *s = &m[n];
        memset(s, 0, sizeof *s);
        n++;
        words w = { line, line + len };
        uint64_t level, excl;
        bool ok = word_is(&w, "sst") && u64_word(&w, &s->id) && u64_word(&w, &level) && level < 1000000;
        if (ok && (ok = bytes_word(&w, &p->value)) && (s->smallest = malloc(p->value.len + 1))) {
            memcpy(s->smallest, p->value.data, p->value.len);
            s->smallest_len = p->value.len;
        }
        if (ok && (ok = bytes_word(&w, &p->value)) && (s->largest = malloc(p->value.len + 1))) {
            memcpy(s->largest, p->value.data, p->value.len);
            s->largest_len = p->value.len;
        }
        ok = ok && s->smallest && s->largest && count_word(&w, &s->entries) &&
             count_word(&w, &s->range_tombstones) && u64_word(&w, &excl) && excl <= 1;
        if (!ok) { rc = garbled(p, "ssts", line, expected); break; }
        s->level = (int)level;
        s->largest_exclusive = excl == 1;
        while (w.p < w.end) {
            char **names = realloc(s->filter_names, (s->filter_count + 1) * sizeof *names);
            if (!names) { rc = FL_ERR_NOMEM; break; }
            s->filter_names = names;
            if (!bytes_word(&w, &p->value)) { rc = garbled(p, "ssts", line, expected); break; }
            if (!(names[s->filter_count] = malloc(p->value.len + 1))) { rc = FL_ERR_NOMEM; break; }
            memcpy(names[s->filter_count], p->value.data, p->value.len);
            names[s->filter_count][p->value.len] = 0;
            s->filter_count++;
        }
        if (rc == FL_OK) rc = read_line(p, "ssts", &line, &len);
    }
    rc = query_end(p, rc);
    uint64_t *ids = rc == FL_OK ? malloc((n ? n : 1) * sizeof *ids) : NULL;
    if (rc == FL_OK && !ids) rc = FL_ERR_NOMEM;
    if (rc != FL_OK) {
        if (m) fl_sst_meta_free(m, n);
        return rc;
    }
    for (size_t i = 0; i < n; i++) ids[i] = m[i].id;
    free(p->listed);
    p->listed = ids;
    p->nlisted = n;
    *out = m;
    *count = n;
    return FL_OK;
}

/* The filter of SST id, read by the kind's reader from the file the
 * adapter names (`sst_file ID` -> `ok PATH`); read once per open. */
static int proc_sst_filter(fl_engine *e, uint64_t id, const fl_sst_filter **out) {
    proc *p = of(e);
    *out = NULL;
    for (size_t i = 0; i < p->nfilters; i++)
        if (p->filters[i].id == id) { *out = p->filters[i].f; return FL_OK; }
    int rc = lacks(p, CAP_SST_FILE, "sst_file");
    if (rc != FL_OK) return rc;
    if (p->nfilters == p->filters_cap) {
        size_t cap = p->filters_cap ? p->filters_cap * 2 : 16;
        struct read_filter *n = realloc(p->filters, cap * sizeof *n);
        if (!n) return FL_ERR_NOMEM;
        p->filters = n;
        p->filters_cap = cap;
    }
    char request[48], *line;
    size_t len;
    snprintf(request, sizeof request, "sst_file %llu\n", (unsigned long long)id);
    bool sent;
    rc = query_begin(p, request, false, &sent);
    request[strlen(request) - 1] = 0;
    if (rc == FL_OK && !sent && (rc = put_str(p->c, request)) == FL_OK) rc = put_str(p->c, "\n");
    if (rc == FL_OK) rc = call(p, request, &line, &len);
    if (rc == FL_OK) {
        words w = { line, line + len };
        if (!word_is(&w, "ok") || !bytes_word(&w, &p->value) || w.p < w.end || !p->value.len ||
            memchr(p->value.data, 0, p->value.len))
            rc = garbled(p, request, line, "`ok PATH`");
    }
    if ((rc = query_end(p, rc)) != FL_OK) return rc;
    char *path = malloc(p->value.len + 1);
    if (!path) return FL_ERR_NOMEM;
    memcpy(path, p->value.data, p->value.len);
    path[p->value.len] = 0;
    fl_sst_filter *f = NULL;
    char why[1024] = "";
    rc = p->kind->read_sst_filter(path, p->reg, &p->opt, &f, why, sizeof why);
    if (rc != FL_OK) set_err(p, "%s: %s", path, why[0] ? why : fl_strerror(rc));
    free(path);
    if (rc != FL_OK) return rc;
    p->filters[p->nfilters++] = (struct read_filter){ id, f };
    *out = f;
    return FL_OK;
}

/* The SST whose filter a probe (len, hash) was of, among the filters read
 * so far (*sst 0: none), preferring one that holds the key: identical
 * filter bytes answer alike, so a no of those bytes is a false negative
 * of every SST that has them and holds the key. */
static void probe_sst(proc *p, const struct probe *pr, fl_read_probe *out) {
    fl_slice key = { p->probe_key.data, p->probe_key.len };
    *out = (fl_read_probe){ 0, pr->maybe, false };
    for (size_t i = 0; i < p->nfilters && !out->holds; i++) {
        bool holds = false;
        if (p->kind->probe_of(p->filters[i].f, pr->len, pr->hash, key, p->probe_prefix, &holds))
            *out = (fl_read_probe){ p->filters[i].id, pr->maybe, holds };
    }
}

/* The last get's probes, each matched to an SST by its filter bytes (the
 * kind's probe_of); a probe of bytes no filter read so far has makes the
 * filter of every SST last listed read, and is then matched again. */
static int proc_last_read_trace(fl_engine *e, const fl_read_probe **out, size_t *n, const char **why) {
    proc *p = of(e);
    *out = NULL;
    *n = 0;
    *why = p->trace_why;
    p->trace_why[0] = 0;
    if (!p->probes_valid || !p->kind->probe_of) return FL_ERR_NOTFOUND;
    if (p->nprobes > p->trace_cap) {
        fl_read_probe *t = realloc(p->trace, p->nprobes * sizeof *t);
        if (!t) return FL_ERR_NOMEM;
        p->trace = t;
        p->trace_cap = p->nprobes;
    }
    bool listed = false;
    for (size_t i = 0; i < p->nprobes; i++) {
        probe_sst(p, &p->probes[i], &p->trace[i]);
        if (!p->trace[i].sst && !listed) {
            /* the filters of the SSTs last listed -- the checker's view of
             * the tree, which the read saw -- are read, and matched again */
            listed = true;
            const fl_sst_filter *f;
            for (size_t j = 0; j < p->nlisted; j++)
                if (proc_sst_filter(e, p->listed[j], &f) != FL_OK) return FL_ERR_NOTFOUND;
            probe_sst(p, &p->probes[i], &p->trace[i]);
        }
        if (!p->trace[i].sst && !p->trace_why[0])
            snprintf(p->trace_why, sizeof p->trace_why, "%s said it gave a filter %zu bytes whose FNV-1a 64 is "
                     "%016llx, and no sub-filter of its %zu SSTs read has those", p->kind->ops.name,
                     p->probes[i].len, (unsigned long long)p->probes[i].hash, p->nfilters);
    }
    *out = p->trace;
    *n = p->nprobes;
    return FL_OK;
}

/* ---- Sending ahead ----------------------------------------------------------------- */

/* Whether op goes out ahead: a write or a read without a filter context,
 * which the adapter lists, whose request is the op's own line. */
static bool goes_ahead(const proc *p, const fl_op *op) {
    unsigned caps = p->c->caps;
    switch (op->kind) {
    case FL_OP_PUT:         return caps & CAP_PUT;
    case FL_OP_DEL:         return caps & CAP_DEL;
    case FL_OP_DELRANGE:    return caps & CAP_DELRANGE;
    case FL_OP_GET:         return (caps & CAP_GET) && !op->has_ctx;
    case FL_OP_SCAN:        return caps & CAP_SCAN;
    case FL_OP_SCAN_PREFIX: return (caps & CAP_SCAN_PREFIX) && !op->has_ctx;
    default:                return false;
    }
}

/* fl_engine_ops.ahead: the ops from index on (ops[0] is op index) are
 * the next the checker runs; up to AHEAD_OPS of them go out now, each
 * with the `metrics` (and after a write the `ssts`) the checker may ask
 * after it (README, "Speed"). */
static void proc_ahead(fl_engine *e, uint64_t index, const fl_op *ops, size_t n) {
    proc *p = of(e);
    child *c = p->c;
    if (!p->ahead_on || c->broken || p->deferred) return;
    if (!c->nahead || c->ahead_next < index) c->ahead_next = index;
    if (c->ahead_next - index >= n || c->ahead_ops >= AHEAD_OPS) return;
    if (!c->nahead && !p->metrics_valid) {
        fl_metrics m;                   /* the counters before: never asked behind ops */
        proc_metrics(e, &m);
        if (p->deferred || c->broken) return;
    }
    char first[200] = "";
    /* (ops of at most about SEND_BUF bytes outstanding: far less than a
     * socket holds, so that sending never waits on an adapter busy with an
     * op; one op, whatever its size) */
    for (size_t j = (size_t)(c->ahead_next - index);
         j < n && c->ahead_ops < AHEAD_OPS && (!c->ahead_ops || c->ahead_bytes < SEND_BUF); j++) {
        const fl_op *op = &ops[j];
        if (!goes_ahead(p, op)) break;
        bool write = op->kind == FL_OP_PUT || op->kind == FL_OP_DEL || op->kind == FL_OP_DELRANGE;
        /* the request the table's call will make (proc_put, proc_get, ...) */
        fl_op q = { .kind = op->kind, .a = bytes_of((fl_slice){ op->a.data, op->a.len }), .prefix_mode = -1 };
        if (op->kind == FL_OP_PUT || op->kind == FL_OP_DELRANGE || op->kind == FL_OP_SCAN)
            q.b = bytes_of((fl_slice){ op->b.data, op->b.len });
        char *text;
        size_t tlen;
        if (op_text(&q, &text, &tlen) != FL_OK) return;
        int rc = ahead_push(c, AHEAD_OP, text, tlen);
        if (rc == FL_OK && !first[0]) {
            struct ahead a = { text, tlen, AHEAD_OP };
            ahead_name(&a, first, sizeof first);
        }
        free(text);
        if (rc == FL_OK) rc = ahead_push(c, AHEAD_METRICS, "metrics\n", 8);
        if (rc == FL_OK && write && (c->caps & CAP_SSTS)) rc = ahead_push(c, AHEAD_SSTS, "ssts\n", 5);
        if (rc != FL_OK) return;        /* (what was gathered is sent with the next request) */
        c->ahead_next++;
    }
    if (first[0]) send_all(p, first);   /* a death is the next call's to report */
}

/* ---- Engines of this kind ------------------------------------------------------------ */

static const fl_engine_ops proc_ops = {
    .open = fl_proc_open,
    .close = proc_close,
    .errmsg = proc_errmsg,
    .put = proc_put,
    .del = proc_del,
    .delete_range = proc_delete_range,
    .flush = proc_flush,
    .compact = proc_compact,
    .get = proc_get,
    .scan_prefix = proc_scan_prefix,
    .scan = proc_scan,
    .seek = proc_seek,
    .set_options = proc_set_options,
    .metrics = proc_metrics,
    .ahead = proc_ahead,
    .multiget = proc_multiget,
    .ssts = proc_ssts,
    .counts_false_positives = proc_counts_false_positives,
    .space = &fl_space_proc,
};

int fl_proc_kind_init(fl_proc_kind *kind, const char *name, const char *command) {
    memset(kind, 0, sizeof *kind);
    kind->ops = proc_ops;
    kind->ops.name = name;
    kind->command = command;
    return FL_OK;
}

void fl_proc_kind_read_files(fl_proc_kind *kind,
                             int (*read)(const char *, const fl_registry *, const fl_options *, fl_sst_filter **,
                                         char *, size_t),
                             void (*free_filter)(fl_sst_filter *)) {
    kind->read_sst_filter = read;
    kind->free_sst_filter = free_filter;
    kind->ops.sst_filter = proc_sst_filter;
}

void fl_proc_kind_match_probes(fl_proc_kind *kind,
                               bool (*probe_of)(const fl_sst_filter *, size_t, uint64_t, fl_slice, bool,
                                                bool *)) {
    kind->probe_of = probe_of;
    kind->ops.last_read_trace = proc_last_read_trace;
}

uint64_t fl_proc_fnv1a(const uint8_t *data, size_t len) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++) h = (h ^ data[i]) * 0x100000001b3ull;
    return h;
}

const fl_engine_ops *fl_proc_engine(const char *spec) {
    /* `cmd:COMMAND`: one table per distinct command, for the process's life */
    static fl_proc_kind *kinds[16];
    static size_t nkinds;
    if (strncmp(spec, "cmd:", 4) != 0 || !spec[4]) return NULL;
    for (size_t i = 0; i < nkinds; i++)
        if (strcmp(kinds[i]->ops.name, spec) == 0) return &kinds[i]->ops;
    if (nkinds == sizeof kinds / sizeof *kinds) return NULL;
    fl_proc_kind *k = malloc(sizeof *k);
    char *name = strdup(spec);
    if (!k || !name) { free(k); free(name); return NULL; }
    fl_proc_kind_init(k, name, name + 4);
    kinds[nkinds++] = k;
    return &k->ops;
}
