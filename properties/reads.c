/*
 * reads.c -- the checker's reads: each get, scan_prefix, scan, seek and
 * seek_for_prev run on the engine and answered by the model, the results
 * line printed (SPEC 11) and the two answers compared item by item (P2):
 * a scan's items as they come, against a cursor walking the model's rows
 * (no copy), a seek's once it has ended; either way the first difference
 * is reported after the read, in the same words.  The probes the read
 * made are checked as they come (probes.c).
 */
#include "check_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- Reads ------------------------------------------------------------------- */

/* Whether the engine's item n (from 1) is the model's; when not, msg says so
 * in P2's words (spelled only then: it costs). */
static bool same_item(size_t n, fl_slice ek, fl_slice ev, fl_model_bytes mk, fl_model_bytes mv, char *msg,
                      size_t cap) {
    if (ek.len == mk.len && (!ek.len || memcmp(ek.data, mk.data, ek.len) == 0) && ev.len == mv.len &&
        (!ev.len || memcmp(ev.data, mv.data, ev.len) == 0))
        return true;
    char eks[160] = "", evs[160] = "", mks[160] = "", mvs[160] = "";
    ck_str(eks, sizeof eks, ek.data, ek.len);
    ck_str(evs, sizeof evs, ev.data, ev.len);
    ck_str(mks, sizeof mks, mk.data, mk.len);
    ck_str(mvs, sizeof mvs, mv.data, mv.len);
    snprintf(msg, cap, "item %zu: the engine returned %s=%s, the model %s=%s", n, eks, evs, mks, mvs);
    return false;
}

/* P2: the engine's result ended before the model's key k. */
static void ended_early(fl_checker *ck, fl_model_bytes k) {
    char ks[160] = "";
    ck_str(ks, sizeof ks, k.data, k.len);
    ck_violation(ck, FL_P2, "the engine's result ends after %zu item(s); the model has %s next", ck->scan_count, ks);
}

/* Whether the model's key k is still in the running scan's range. */
static bool in_range(const fl_checker *ck, fl_model_bytes k) {
    const fl_op *op = ck->op;
    if (op->kind == FL_OP_SCAN_PREFIX)
        return k.len >= op->a.len && (op->a.len == 0 || memcmp(k.data, op->a.data, op->a.len) == 0);
    return fl_model_compare(k, ck_mb(&op->b)) < 0;
}

/* One item of a scan or scan_prefix against the model's next row; the
 * first difference is kept, in the words the model-first comparison
 * (cmp_item) would use, for after the read. */
static void stream_item(fl_checker *ck, fl_slice key, fl_slice value) {
    if (ck->stream_state) return;
    fl_model_bytes mk, mv;
    if (!fl_model_cursor_get(&ck->cur, &mk, &mv) || !in_range(ck, mk)) {
        ck->stream_state = 1;
        ck->stream_at = ck->scan_count;
        return;
    }
    if (!same_item(ck->scan_count + 1, key, value, mk, mv, ck->stream_msg, sizeof ck->stream_msg)) {
        ck->stream_state = 2;
        return;
    }
    fl_model_cursor_next(&ck->cur);
}

static int on_item(void *arg, fl_slice key, fl_slice value) {
    fl_checker *ck = arg;
    if (ck->cfg.results) {
        fputc(' ', ck->cfg.results);
        fl_bytes_print(ck->cfg.results, key.data, key.len);
        fputc('=', ck->cfg.results);
        fl_bytes_print(ck->cfg.results, value.data, value.len);
    }
    if (!ck->cfg.check) return 0;
    if (ck->streaming) {
        stream_item(ck, key, value);
        ck->scan_count++;
        return 0;
    }
    if (ck->scan_count + 1 >= ck->scan_off_cap) {
        size_t cap = ck->scan_off_cap ? 2 * ck->scan_off_cap : 64;
        size_t *n = realloc(ck->scan_off, cap * sizeof *n);
        if (!n) return 1;
        ck->scan_off = n;
        ck->scan_off_cap = cap;
    }
    uint8_t hdr[16];
    uint64_t kl = key.len, vl = value.len;
    memcpy(hdr, &kl, 8);
    memcpy(hdr + 8, &vl, 8);
    ck->scan_off[ck->scan_count++] = ck->scan_buf.len;
    if (fl_buf_append(&ck->scan_buf, hdr, 16) || fl_buf_append(&ck->scan_buf, key.data, key.len) ||
        fl_buf_append(&ck->scan_buf, value.data, value.len))
        return 1;
    return 0;
}

typedef struct cmp_state { fl_checker *ck; size_t at; bool reported; } cmp_state;

static int cmp_item(void *arg, fl_model_bytes key, fl_model_bytes value) {
    cmp_state *c = arg;
    fl_checker *ck = c->ck;
    if (c->at >= ck->scan_count) {
        ended_early(ck, key);
        c->reported = true;
        return 1;
    }
    const uint8_t *p = ck->scan_buf.data + ck->scan_off[c->at];
    uint64_t kl, vl;
    memcpy(&kl, p, 8);
    memcpy(&vl, p + 8, 8);
    char msg[1024];
    if (!same_item(c->at + 1, (fl_slice){ p + 16, (size_t)kl }, (fl_slice){ p + 16 + kl, (size_t)vl }, key, value,
                   msg, sizeof msg)) {
        ck_violation(ck, FL_P2, "%s", msg);
        c->reported = true;
        return 1;
    }
    c->at++;
    return 0;
}

/* ---- Seeks ---------------------------------------------------------------------- */

/* The extractor in force for a prefix-mode seek (the first configured policy
 * that has one, as the engine takes it): its answer for POINT k -- from the
 * model's reference extractor when the model knows it, else from the
 * checker's own call of the policy's extractor. */
bool ck_seek_prefix_len(fl_checker *ck, const ck_policy *p, const uint8_t *k, size_t klen, size_t *m) {
    if (p->bloom && p->bloom_cfg.has_extractor)
        return fl_model_extractor_prefix_len(&p->bloom_cfg.extractor, FL_MODEL_POINT,
                                             (fl_model_bytes){ k, klen }, m);
    fl_target t = { FL_TARGET_POINT, { k, klen } };
    return fl_call_prefix_len(ck->own_calls, p->extractor, &t, m);
}

/* The model's answer to a seek, compared item by item with the engine's. */
typedef struct seek_cmp {
    cmp_state c;
    const ck_policy *ex;              /* prefix mode: the extractor's policy */
    fl_slice p;                       /* and the seek key's prefix           */
    uint32_t n, seen;
} seek_cmp;

static int seek_item(void *arg, fl_model_bytes key, fl_model_bytes value) {
    seek_cmp *s = arg;
    if (s->ex) {
        size_t m;
        if (!ck_seek_prefix_len(s->c.ck, s->ex, key.data, key.len, &m) || m != s->p.len ||
            (m && memcmp(key.data, s->p.data, m) != 0))
            return 1;                 /* the first entry of another prefix ends it */
    }
    int stop = cmp_item(&s->c, key, value);
    return stop ? stop : ++s->seen >= s->n;
}

/* What the read should ask filters: ck->want_*, and for a seek in prefix
 * mode the policy whose extractor gave the prefix. */
static const ck_policy *read_target(fl_checker *ck, const fl_op *op) {
    ck->want_kind = 0;
    ck->want_extractor = NULL;
    ck->want_target = (fl_slice){ op->a.data, op->a.len };
    if (op->kind == FL_OP_GET) ck->want_kind = FL_TARGET_POINT;
    else if (op->kind == FL_OP_SCAN_PREFIX) ck->want_kind = FL_TARGET_PREFIX;
    if ((op->kind != FL_OP_SEEK && op->kind != FL_OP_SEEK_FOR_PREV) || op->prefix_mode == 0)
        return NULL;
    const ck_policy *p = ck_config_first_extractor(ck->writer);
    size_t m;
    if (!p || !ck_seek_prefix_len(ck, p, op->a.data, op->a.len, &m)) return NULL;
    ck->want_kind = FL_TARGET_PREFIX;
    ck->want_target.len = m;
    ck->want_extractor = p;
    return p;
}

/* The op's filter context (ctx=), in *buf; NULL when it has none. */
static const fl_filter_context *op_context(const fl_op *op, fl_filter_context *buf) {
    if (!op->has_ctx) return NULL;
    memcpy(buf->bytes, op->ctx, sizeof buf->bytes);
    return buf;
}

/* A get's answer on its results line: " none", or " " and the value. */
static void print_answer(FILE *res, bool found, const fl_buf *value) {
    if (!found) fputs(" none", res);
    else { fputc(' ', res); fl_bytes_print(res, value->data, value->len); }
}

const char *ck_op_word(const fl_checker *ck, const fl_op *op) {
    return ck->in_multiget && op->kind == FL_OP_GET ? "multiget" : fl_op_name(op->kind);
}

/* P2 of a get's answer (of one key of a multiget: named by key). */
static void check_get_answer(fl_checker *ck, fl_slice key, bool found, const fl_buf *value, bool named) {
    fl_model_bytes v = { NULL, 0 };
    bool want = ck_maybe_written(ck, key.data, key.len) &&
                fl_model_get(ck->model, (fl_model_bytes){ key.data, key.len }, &v);
    if (want == found &&
        (!found || (v.len == value->len && (!v.len || memcmp(v.data, value->data, v.len) == 0))))
        return;
    char e[160] = "", m[160] = "", k[160] = "";
    if (found) ck_str(e, sizeof e, value->data, value->len);
    else strcpy(e, "none");
    if (want) ck_str(m, sizeof m, v.data, v.len);
    else strcpy(m, "none");
    if (named) ck_str(k, sizeof k, key.data, key.len);
    ck_violation(ck, FL_P2, "%s%s%sthe engine returned %s, the model %s", named ? "key " : "", k,
                 named ? ": " : "", e, m);
}

int ck_run_read(fl_checker *ck, const fl_op *op) {
    fl_metrics before, after;
    fl_filter_context ctx;
    const fl_filter_context *ctxp = op_context(op, &ctx);
    ck->eng->metrics(ck->db, &before);
    ck->nevents = 0;
    ck->key_known = false;
    ck->key_hashed = false;
    if (ck->cfg.check && op->kind == FL_OP_GET) {
        /* the get's key is hashed once, for every probe check; the first
         * memory those checks touch (the written keys, the P9 tally: large
         * tables) is fetched while the engine reads */
        ck->key_hash = ck_key_hash(op->a.data, op->a.len);
        ck->key_hashed = true;
        ck_fpset_prefetch(&ck->written, ck_fingerprint_of(ck->key_hash));
        fl_fp_tally_prefetch(ck->p9[0], ck_fingerprint_of(ck->key_hash));
        ck_contract_prefetch(ck, op->a.data, op->a.len);
    }
    ck->event_overflow = false;
    ck->p1_this_op = false;
    ck->scan_count = 0;
    fl_buf_reset(&ck->scan_buf);
    /* a scan's items meet the model's rows as they come (no copy); a
     * seek's are kept and compared after it */
    ck->streaming = ck->cfg.check && (op->kind == FL_OP_SCAN_PREFIX || op->kind == FL_OP_SCAN);
    ck->stream_state = 0;
    if (ck->streaming) fl_model_cursor_seek(ck->model, ck_mb(&op->a), &ck->cur);
    FILE *res = ck->cfg.results;
    if (res) {
        fprintf(res, "%u %s ", op->line, ck_op_word(ck, op));
        fl_bytes_print(res, op->a.data, op->a.len);
        if (op->kind == FL_OP_SCAN) {
            fputc(' ', res);
            fl_bytes_print(res, op->b.data, op->b.len);
        }
        fputs(" ->", res);
    }
    const ck_policy *seek_ex = ck->cfg.check ? read_target(ck, op) : NULL;
    bool seek = op->kind == FL_OP_SEEK || op->kind == FL_OP_SEEK_FOR_PREV;
    int rc;
    bool found = false;
    ck_engine_enter(ck, fl_op_name(op->kind));
    if (seek) {
        rc = ck->eng->seek ? ck->eng->seek(ck->db, ck_sl(&op->a), op->kind == FL_OP_SEEK_FOR_PREV,
                                           op->count, op->prefix_mode, ctxp, on_item, ck)
                           : ck_fail(ck, FL_ERR_INVALID, "the %s engine cannot seek", ck->eng->name);
    } else if (op->kind == FL_OP_GET) {
        rc = ck->eng->get(ck->db, ck_sl(&op->a), ctxp, &ck->value, &found);
        if (rc == FL_OK && res) print_answer(res, found, &ck->value);
    } else if (op->kind == FL_OP_SCAN_PREFIX) {
        rc = ck->eng->scan_prefix(ck->db, ck_sl(&op->a), ctxp, on_item, ck);
    } else {
        rc = ck->eng->scan(ck->db, ck_sl(&op->a), ck_sl(&op->b), on_item, ck);
    }
    ck_engine_leave(ck);
    if (res) fputc('\n', res);
    if (rc) return ck_fail(ck, rc, "%s", ck->eng->errmsg(ck->db));
    if (!ck->cfg.check) return FL_OK;
    /* P2: the model's answer */
    if (op->kind == FL_OP_GET) {
        check_get_answer(ck, ck_sl(&op->a), found, &ck->value, false);
    } else if (seek) {
        seek_cmp s = { { ck, 0, false }, seek_ex, ck->want_target, op->count, 0 };
        fl_model_seek(ck->model, ck_mb(&op->a), op->kind == FL_OP_SEEK_FOR_PREV, seek_item, &s);
        if (!s.c.reported && s.c.at < ck->scan_count)
            ck_violation(ck, FL_P2, "the engine returned %zu item(s), the model %zu", ck->scan_count,
                         s.c.at);
    } else if (ck->stream_state == 2) {
        ck_violation(ck, FL_P2, "%s", ck->stream_msg);
    } else if (ck->stream_state == 1) {
        ck_violation(ck, FL_P2, "the engine returned %zu item(s), the model %zu", ck->scan_count, ck->stream_at);
    } else {
        fl_model_bytes mk, mv;
        if (fl_model_cursor_get(&ck->cur, &mk, &mv) && in_range(ck, mk)) ended_early(ck, mk);
    }
    ck->eng->metrics(ck->db, &after);
    ck_check_read(ck, &before, &after);
    if (op->kind == FL_OP_GET || seek) ck_contract_point(ck, op->a.data, op->a.len);
    else if (op->kind == FL_OP_SCAN_PREFIX) ck_contract_prefix(ck, op->a.data, op->a.len);
    return FL_OK;
}

/* ---- multiget ------------------------------------------------------------------- */

/* Each key of a multiget read as a get, with every check of a get, at the
 * multiget's line: on an engine without a batched read, or with a probe
 * trace (whose checks follow one read's target). */
static int multiget_by_gets(fl_checker *ck, const fl_op *op) {
    fl_op get;
    size_t off = 0;
    int rc = FL_OK;
    ck->in_multiget = true;
    while (rc == FL_OK && fl_op_multiget_get(op, &off, &get)) {
        ck->op = &get;
        rc = ck_run_read(ck, &get);
    }
    ck->op = op;
    ck->in_multiget = false;
    return rc;
}

/* One call for all the keys (RocksDB's batched MultiGet): a results line
 * per key, each answer against the model (P2, naming the key), the
 * counters checked for the keys together (untraced.c), each key's
 * extractor contract as a get's. */
int ck_run_multiget(fl_checker *ck, const fl_op *op) {
    if (!ck->eng->multiget || ck->eng->set_probe_trace) return multiget_by_gets(ck, op);
    size_t n = op->count, off = 0, len;
    const uint8_t *k;
    fl_slice *keys = calloc(n, sizeof *keys);
    fl_buf *values = calloc(n, sizeof *values);
    bool *found = calloc(n, sizeof *found);
    int rc = keys && values && found ? FL_OK : ck_fail(ck, FL_ERR_NOMEM, "multiget: out of memory");
    for (size_t i = 0; rc == FL_OK && i < n && fl_op_multiget_key(op, &off, &k, &len); i++) {
        keys[i] = (fl_slice){ k, len };
        fl_buf_init(&values[i]);
    }
    fl_filter_context ctx;
    const fl_filter_context *ctxp = op_context(op, &ctx);
    fl_metrics before, after;
    if (rc == FL_OK) {
        ck->eng->metrics(ck->db, &before);
        ck->want_kind = FL_TARGET_POINT;
        ck->want_extractor = NULL;
        ck_engine_enter(ck, "multiget");
        rc = ck->eng->multiget(ck->db, n, keys, ctxp, values, found);
        ck_engine_leave(ck);
        if (rc) rc = ck_fail(ck, rc, "%s", ck->eng->errmsg(ck->db));
    }
    FILE *res = ck->cfg.results;
    for (size_t i = 0; rc == FL_OK && res && i < n; i++) {
        fprintf(res, "%u multiget ", op->line);
        fl_bytes_print(res, keys[i].data, keys[i].len);
        fputs(" ->", res);
        print_answer(res, found[i], &values[i]);
        fputc('\n', res);
    }
    if (rc == FL_OK && ck->cfg.check) {
        for (size_t i = 0; i < n; i++) {
            ck->key_known = ck->key_hashed = false;
            check_get_answer(ck, keys[i], found[i], &values[i], true);
        }
        ck->eng->metrics(ck->db, &after);
        ck_check_multiget_untraced(ck, keys, n, &before, &after);
        for (size_t i = 0; i < n; i++) ck_contract_point(ck, keys[i].data, keys[i].len);
    }
    for (size_t i = 0; values && i < n; i++) fl_buf_free(&values[i]);
    free(keys);
    free(values);
    free(found);
    return rc;
}
