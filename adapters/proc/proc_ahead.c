/*
 * proc_ahead.c -- running ahead of the checker (proc_conn.h): the requests
 * sent before the table's calls that make them, each call taking its own,
 * and the queries answered past them.
 */
#include "proc_conn.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
/* A line that ends a reply: `ok`, `ok ...` or `err ...`. */
static bool terminal(const char *line, size_t len) {
    return (len == 2 && memcmp(line, "ok", 2) == 0) || (len > 2 && memcmp(line, "ok ", 3) == 0) ||
           (len >= 4 && memcmp(line, "err ", 4) == 0);
}

/* A request sent ahead, as messages name it. */
void pc_ahead_name(const struct ahead *a, char *out, size_t cap) {
    size_t n = a->len && a->text[a->len - 1] == '\n' ? a->len - 1 : a->len;
    bool cut = n >= cap;
    if (cut) n = cap - 1;
    memcpy(out, a->text, n);
    out[n] = 0;
    if (cut && cap > 4) memcpy(out + cap - 4, "...", 4);
}

void pc_ahead_pop(child *c) {
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
int pc_ahead_push(child *c, int kind, const char *text, size_t len, const fl_op *op) {
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
    struct ahead e = { (char *)(uintptr_t)text, len, kind, 0, NULL, NULL, 0, 0 };   /* (static text) */
    if (kind == AHEAD_OP) {                     /* text, a and b in one block */
        size_t alen = op->a.len, blen = op->b.len;
        char *own = malloc(len + alen + blen + 1);
        if (!own) return FL_ERR_NOMEM;
        memcpy(own, text, len);
        if (alen) memcpy(own + len, op->a.data, alen);
        if (blen) memcpy(own + len + alen, op->b.data, blen);
        e = (struct ahead){ own, len, kind, op->kind, (uint8_t *)own + len, (uint8_t *)own + len + alen, alen, blen };
    }
    int rc = pc_put_text(c, text, len);
    if (rc != FL_OK) {
        if (kind == AHEAD_OP) free(e.text);
        return rc;
    }
    c->ahead[(c->ahead_head + c->nahead) % c->ahead_cap] = e;
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
    pc_ahead_name(head, name, sizeof name);
    struct ahead a = { .text = (char *)(uintptr_t)asked, .len = strlen(asked), .kind = AHEAD_OP };
    pc_ahead_name(&a, q, sizeof q);
    pc_set_err(p, "filterlab's client of the %s adapter lost step: `%s` was asked while `%s` was sent ahead "
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
    pc_ahead_name(a, name, sizeof name);
    int rc = pc_settle(p, name);
    if (rc != FL_OK) return rc;
    do {
        if ((rc = pc_read_line(p, name, &line, &len)) != FL_OK) return rc;
    } while (!terminal(line, len));
    if (a->kind == AHEAD_METRICS) {
        fl_metrics m;
        memset(&m, 0, sizeof m);
        if (!pc_metrics_reply(p, line, len, &m))
            return pc_garbled(p, "metrics", line, METRICS_REPLY);
        p->metrics = m;
        p->metrics_valid = true;
    }
    pc_ahead_pop(c);
    return FL_OK;
}

/* Before a request no one sent ahead (call): the replies of everything
 * sent ahead are read and dropped; an op among them is out of step,
 * unless ops_too (close: the run stopped before asking for them). */
int pc_ahead_drain(proc *p, const char *request, bool ops_too) {
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
int pc_ahead_take(proc *p, const char *text, size_t len, bool *sent) {
    child *c = p->c;
    *sent = false;
    p->in_turn = true;
    while (c->nahead) {
        struct ahead *a = &c->ahead[c->ahead_head];
        if (a->len == len && memcmp(a->text, text, len) == 0 && a->kind != AHEAD_SSTS) {
            pc_ahead_pop(c);
            *sent = true;
            return FL_OK;
        }
        if (a->kind == AHEAD_OP) return desync(p, text, a, "another request was sent ahead in its place");
        int rc = drop_head(p);
        if (rc != FL_OK) return rc;
    }
    return FL_OK;
}

int pc_ahead_take_op(proc *p, const fl_op *op, bool *sent, char *request, size_t cap) {
    child *c = p->c;
    *sent = false;
    p->in_turn = true;
    while (c->nahead) {
        struct ahead *a = &c->ahead[c->ahead_head];
        if (a->kind == AHEAD_OP) {
            /* what the text says: nothing but the kind and the byte strings
             * (the ops sent ahead have no context, count or mode) */
            if (a->op != op->kind || op->has_ctx || op->count || op->full || op->prefix_mode != -1 ||
                a->alen != op->a.len || a->blen != op->b.len || (a->alen && memcmp(a->a, op->a.data, a->alen)) ||
                (a->blen && memcmp(a->b, op->b.data, a->blen)))
                return FL_OK;                       /* (pc_ahead_take says what) */
            pc_ahead_name(a, request, cap);
            pc_ahead_pop(c);
            *sent = true;
            return FL_OK;
        }
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
    int rc = pc_settle(p, query);
    if (rc == FL_OK) rc = pc_send_all(p, query);
    if (rc != FL_OK) return rc;
    size_t pos = c->recv_pos;
    for (size_t i = 0; i < c->nahead;) {
        const struct ahead *a = &c->ahead[(c->ahead_head + i) % c->ahead_cap];
        char *start = c->recv + pos;
        char *nl = c->recv_len > pos ? memchr(start, '\n', c->recv_len - pos) : NULL;
        if (!nl) {
            char name[200];
            pc_ahead_name(a, name, sizeof name);
            if ((rc = pc_await_replies(p, name)) != FL_OK) return rc;
            continue;
        }
        size_t len = (size_t)(nl - start);
        pos += len + 1;
        if (len && start[len - 1] == '\r') len--;
        if (!terminal(start, len)) continue;
        if (a->kind == AHEAD_METRICS) {
            fl_metrics m;
            memset(&m, 0, sizeof m);
            if (!pc_metrics_reply(p, start, len, &m)) {
                char line[512];                     /* (NUL-terminated, for the message) */
                snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), start);
                return pc_garbled(p, "metrics", line, METRICS_REPLY);
            }
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
int pc_query_begin(proc *p, const char *text, bool ssts, bool *sent) {
    child *c = p->c;
    *sent = false;
    p->querying = true;
    p->in_turn = true;
    while (c->nahead) {
        struct ahead *a = &c->ahead[c->ahead_head];
        if (a->kind == AHEAD_SSTS && ssts) {
            pc_ahead_pop(c);
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
int pc_query_end(proc *p, int rc) {
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
                pc_set_err(p, "out of memory keeping the %s adapter's replies", p->kind->ops.name);
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
