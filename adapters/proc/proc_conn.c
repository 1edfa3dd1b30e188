/*
 * proc_conn.c -- the connection to an adapter program (proc_conn.h): its
 * process, and its requests and replies, in order (running ahead of the
 * checker is proc_ahead.c's).  proc.c makes the table of operations of them.
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
 */
#include "proc_conn.h"

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

/* ---- Capabilities and counters ------------------------------------------------- */


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
static const char *const counter_names[COUNTERS] = {
    "point.considered", "point.unfiltered", "point.positive", "point.negative", "point.false_positive",
    "prefix.considered", "prefix.unfiltered", "prefix.positive", "prefix.negative", "prefix.false_positive",
    "filter_errors", "contract_violations", "ssts_written", "sst_reads", "flushes", "compactions",
    "checks.positive", "checks.negative",
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
    case 15: return &m->compactions;
    case 16: return &m->checks_positive;
    default: return &m->checks_negative;
    }
}

/* ---- The adapter process ----------------------------------------------------------- */

void pc_set_err(proc *p, const char *fmt, ...) {
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

void pc_child_free(child *c) {
    if (!c) return;
    kill_child(c);
    if (c->to >= 0) close(c->to);
    if (c->from >= 0) close(c->from);
    if (c->err >= 0) close(c->err);
    free(c->send);
    free(c->recv);
    while (c->nahead) pc_ahead_pop(c);
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
    pc_set_err(p, "the adapter %s (%s) %s during `%.200s`; its stderr ended: %s", p->kind->ops.name,
               p->kind->command, how, request, tail[0] ? tail : "(nothing)");
    memcpy(c->why, p->err, sizeof c->why);
    c->broken = true;
    return FL_ERR_ENGINE_DIED;
}

/* A request to an adapter that broke earlier: how it broke. */
static int still_broken(proc *p) {
    if (p->c->why[0]) memcpy(p->err, p->c->why, sizeof p->err);
    else pc_set_err(p, "the adapter %s is no longer usable: an earlier request broke it", p->kind->ops.name);
    return p->c->broken_rc ? p->c->broken_rc : FL_ERR_ENGINE_DIED;
}

/* ---- Sending and receiving -------------------------------------------------------- */

/* Appends to the requests not sent yet. */
int pc_put_text(child *c, const char *s, size_t n) {
    char *b = realloc(c->send, c->send_len + n + 1);
    if (!b) return FL_ERR_NOMEM;
    c->send = b;
    memcpy(b + c->send_len, s, n);
    c->send_len += n;
    return FL_OK;
}

int pc_put_str(child *c, const char *s) { return pc_put_text(c, s, strlen(s)); }

int pc_put_bytes(child *c, const uint8_t *data, size_t len) {
    char *text = NULL;
    size_t tlen = 0;
    FILE *f = open_memstream(&text, &tlen);
    if (!f) return FL_ERR_NOMEM;
    fl_bytes_print(f, data, len);
    if (fclose(f) != 0) { free(text); return FL_ERR_NOMEM; }
    int rc = pc_put_text(c, text, tlen);
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
int pc_send_all(proc *p, const char *request) {
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
int pc_await_replies(proc *p, const char *request) {
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
int pc_read_line(proc *p, const char *request, char **line, size_t *len) {
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
        int rc = c->send_len ? pc_send_all(p, request)     /* never wait for a reply to a request not sent */
                             : pc_await_replies(p, request);
        if (rc != FL_OK) return rc;
    }
}

/* A reply that does not parse: the adapter is out of step (FL_ERR_INVALID:
 * exit 2, naming the request and quoting the reply). */
int pc_garbled(proc *p, const char *request, const char *line, const char *expected) {
    pc_set_err(p, "the adapter %s (%s) answered `%.200s` with `%.300s`, not %s (docs/protocol.md)",
               p->kind->ops.name, p->kind->command, request, line, expected);
    memcpy(p->c->why, p->err, sizeof p->c->why);
    p->c->broken = true;
    p->c->broken_rc = FL_ERR_INVALID;
    return FL_ERR_INVALID;
}

/* An `err KIND MESSAGE` reply as a status, with the message. */
int pc_err_reply(proc *p, const char *request, const char *line) {
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
    pc_set_err(p, "%s %s: `%.200s`: %s", p->kind->ops.name, what, request, msg);
    return rc;
}

/* Reads the replies of the writes still outstanding: the first error among
 * them is returned (and named), the rest are read all the same. */
int pc_settle(proc *p, const char *request) {
    child *c = p->c;
    int first = FL_OK;
    if (c->npending && (first = pc_send_all(p, request)) != FL_OK) return first;
    while (c->npending) {
        char *pending = c->pending[c->pending_head];
        char *line;
        size_t len;
        int rc = pc_read_line(p, pending, &line, &len);
        if (rc != FL_OK) return rc;
        c->pending_head = (c->pending_head + 1) % PIPELINE;
        c->npending--;
        if (strcmp(line, "ok") == 0) continue;
        if (strncmp(line, "err ", 4) == 0) {
            if (first == FL_OK) first = pc_err_reply(p, pending, line);
            continue;
        }
        return pc_garbled(p, pending, line, "`ok` or `err KIND MESSAGE`");
    }
    return first;
}

/* The error a metrics request found, now returned (FL_OK: none). */
int pc_take_deferred(proc *p) {
    int rc = p->deferred;
    if (rc != FL_OK) {
        p->deferred = FL_OK;
        memcpy(p->err, p->deferred_err, sizeof p->err);
    }
    return rc;
}

/* Sends the request gathered (text, for messages) and reads replies up to
 * its first line, in *line.  An `err` reply is returned as its status. */
int pc_call(proc *p, const char *request, char **line, size_t *len) {
    bool in_turn = p->in_turn;
    p->in_turn = false;
    int rc = pc_take_deferred(p);
    if (rc != FL_OK) return rc;
    if (p->c->broken) return still_broken(p);
    if (!p->querying) p->metrics_valid = false;
    rc = pc_settle(p, request);
    /* a request no one sent ahead: the replies of what was are read first */
    if (rc == FL_OK && p->c->nahead && !in_turn) rc = pc_ahead_drain(p, request, strcmp(request, "close") == 0);
    if (rc == FL_OK) rc = pc_send_all(p, request);
    if (rc == FL_OK) rc = pc_read_line(p, request, line, len);
    if (rc == FL_OK && strncmp(*line, "err ", 4) == 0) return pc_err_reply(p, request, *line);
    return rc;
}

/* A write: sent later, answered later (settle). */
int pc_pipelined(proc *p, const char *request) {
    child *c = p->c;
    p->in_turn = false;               /* (writes come through ahead_take) */
    if (c->broken) return still_broken(p);
    if (c->npending == PIPELINE) {
        int rc = pc_settle(p, request);
        if (rc != FL_OK) return rc;
    }
    p->metrics_valid = false;
    size_t slot = (c->pending_head + c->npending) % PIPELINE;
    snprintf(c->pending[slot], sizeof c->pending[slot], "%s", request);
    c->npending++;
    if (c->send_len >= SEND_BUF) return pc_send_all(p, request);
    return FL_OK;
}

/* The request text for messages: the gathered line, cut. */
void pc_describe(const child *c, size_t from, char *out, size_t cap) {
    size_t n = c->send_len - from;
    if (n && c->send[c->send_len - 1] == '\n') n--;
    if (n >= cap) n = cap - 1;
    memcpy(out, c->send + from, n);
    out[n] = 0;
    if (c->send_len - from > cap) memcpy(out + cap - 4, "...", 4);
}

/* ---- Words of a reply -------------------------------------------------------------- */

/* The next word (up to a space) as text; false at the end. */
bool pc_word(words *w, const char **s, size_t *n) {
    if (w->p >= w->end) return false;
    const char *sp = memchr(w->p, ' ', (size_t)(w->end - w->p));
    *s = w->p;
    *n = sp ? (size_t)(sp - w->p) : (size_t)(w->end - w->p);
    w->p = sp ? sp + 1 : w->end;
    return true;
}

bool pc_word_is(words *w, const char *want) {
    const char *s;
    size_t n;
    return pc_word(w, &s, &n) && n == strlen(want) && memcmp(s, want, n) == 0;
}

/* The next word as a byte string into out (reset first). */
bool pc_bytes_word(words *w, fl_buf *out) {
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
    bool ok = pc_word(&w, &o, &olen);
    while (ok && k < 4 && !(strlen(fl_object_kind_name(kinds[k])) == olen &&
                            memcmp(fl_object_kind_name(kinds[k]), o, olen) == 0))
        k++;
    char *text[4] = { NULL, NULL, NULL, NULL };      /* method, plugin, who, what */
    fl_buf b;                                        /* (the caller's buffers may be in use) */
    fl_buf_init(&b);
    ok = ok && k < 4;
    for (int i = 0; ok && i < 4; i++) {
        ok = pc_bytes_word(&w, &b) && !memchr(b.data, 0, b.len) && (text[i] = malloc(b.len + 1));
        if (ok) {
            memcpy(text[i], b.data, b.len);
            text[i][b.len] = 0;
        }
    }
    fl_buf_free(&b);
    int rc = FL_OK;
    if (!ok || w.p < w.end) {
        rc = pc_garbled(p, request, line, "`violation OBJECT METHOD PLUGIN WHO WHAT` before the reply");
    } else {
        fl_contract_violation v = { kinds[k], text[0], text[2], text[1][0] ? text[1] : NULL, text[3] };
        fl_calls_report(p->opt.calls, &v);
    }
    for (int i = 0; i < 4; i++) free(text[i]);
    return rc;
}

bool pc_u64_word(words *w, uint64_t *out) {
    const char *s;
    size_t n;
    if (!pc_word(w, &s, &n) || n == 0 || n > 20) return false;
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
bool pc_count_word(words *w, uint64_t *out) {
    if (w->end - w->p >= 1 && w->p[0] == '?' && (w->end - w->p == 1 || w->p[1] == ' ')) {
        *out = 0;
        w->p += w->end - w->p == 1 ? 1 : 2;
        return true;
    }
    return pc_u64_word(w, out);
}

/* Reads `ok NAME=N ...` into out; false when it does not parse. */
bool pc_metrics_reply(proc *p, const char *line, size_t len, fl_metrics *out) {
    words w = { line, line + len };
    if (!pc_word_is(&w, "ok")) return false;
    const char *s;
    size_t n;
    size_t hint = 0;                  /* (adapters answer in one order: try the
                                         counter after the last one first) */
    while (pc_word(&w, &s, &n)) {
        const char *eq = memchr(s, '=', n);
        if (!eq) return false;
        size_t klen = (size_t)(eq - s);
        for (size_t j = 0; j < COUNTERS; j++) {
            size_t i = (hint + j) % COUNTERS;
            if (counter_len(i) != klen || memcmp(counter_names[i], s, klen) != 0) continue;
            hint = i + 1;
            if (!p->c->exact[i]) break;
            words v = { eq + 1, s + n };
            uint64_t val;
            if (!pc_u64_word(&v, &val)) return false;
            *counter_slot(out, i) = val;
            break;
        }
        /* counters not in counters=, and the engine's own, are not filterlab's to hold */
    }
    return true;
}

/* ---- Starting an adapter ------------------------------------------------------------ */

static int nonblock(int fd) {
    int fl = fcntl(fd, F_GETFL);
    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

int pc_spawn(proc *p, char *err, size_t err_len) {
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
int pc_handshake(proc *p) {
    child *c = p->c;
    char *line;
    size_t len;
    int rc = pc_put_str(c, "hello 1\n");
    if (rc == FL_OK) rc = pc_call(p, "hello 1", &line, &len);
    if (rc != FL_OK) return rc;
    const char *expected = "`ok 1 NAME RELEASE caps=LIST counters=LIST`";
    words w = { line, line + len };
    uint64_t version;
    if (!pc_word_is(&w, "ok") || !pc_u64_word(&w, &version)) return pc_garbled(p, "hello 1", line, expected);
    if (version != PROTOCOL_VERSION) {
        pc_set_err(p, "the adapter %s (%s) speaks protocol version %llu; this filterlab speaks %d",
                   p->kind->ops.name, p->kind->command, (unsigned long long)version, PROTOCOL_VERSION);
        c->broken = true;
        return FL_ERR_INVALID;
    }
    if (!pc_bytes_word(&w, &p->value)) return pc_garbled(p, "hello 1", line, expected);
    snprintf(c->engine, sizeof c->engine, "%.*s", (int)p->value.len, (const char *)p->value.data);
    if (!pc_bytes_word(&w, &p->value)) return pc_garbled(p, "hello 1", line, expected);
    snprintf(c->release, sizeof c->release, "%.*s", (int)p->value.len, (const char *)p->value.data);
    const char *s;
    size_t n;
    while (pc_word(&w, &s, &n)) {
        bool caps = n >= 5 && memcmp(s, "caps=", 5) == 0;
        bool counters = n >= 9 && memcmp(s, "counters=", 9) == 0;
        if (!caps && !counters) return pc_garbled(p, "hello 1", line, expected);
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
            return pc_garbled(p, "hello 1", line, what);
        }
    }
    return FL_OK;
}

