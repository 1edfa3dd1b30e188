/*
 * sst_write.c -- writes one SST (format in sst_format.c).  Entries arrive
 * in order; each goes into the current data block and, puts and point
 * tombstones alike, to one filter builder per configured policy (or to the
 * Legacy whole-key bloom builder).  finish() writes the range tombstones,
 * the index, the filter block, the info block and the footer, then fsyncs.
 * An SST with fewer than min_filter_keys entries gets no filter block.
 * An entry is encoded in place in the data block after one reserve, and the
 * last key is kept in a buffer that keeps its capacity: no allocation per
 * entry once the block buffer has grown.
 */
#include "engine_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

struct fl_sst_writer {
    fl_sst_write_cfg cfg;
    uint64_t id;
    char path[4096];
    fl_file *out;                  /* NULL once closed */
    int os_err;                    /* the env's errno of a failed write     */
    uint64_t offset;               /* bytes written to the file so far */
    fl_buf block, index, file;     /* current data block, index, staged bytes */
    fl_buf last;                   /* the last key added (capacity kept) */
    bool have_last;
    uint8_t *first_key; size_t first_len;
    uint64_t entries, min_seq, max_seq;
    fl_rtomb_list rtombs;
    /* filters */
    size_t nbuilders;
    const fl_filter_policy **bpolicies;
    fl_filter_builder **builders;
    bool legacy;
};

/* An error of the file: the OS's reason kept in errno for the message. */
static int write_all(fl_sst_writer *w, const void *p, size_t n) {
    int e = w->cfg.env->ops->append(w->cfg.env, w->out, p, n);
    if (e) { w->os_err = e; return FL_ERR_IO; }
    w->offset += n;
    return FL_OK;
}

/* Writes a block followed by its XXH3-64 checksum. */
static int write_block(fl_sst_writer *w, const uint8_t *p, size_t n) {
    uint8_t sum[8];
    uint64_t h = XXH3_64bits(p, n);
    for (int i = 0; i < 8; i++) sum[i] = (uint8_t)(h >> (56 - 8 * i));
    int rc = write_all(w, p, n);
    return rc ? rc : write_all(w, sum, 8);
}

int fl_sst_writer_new(const fl_sst_write_cfg *cfg, uint64_t id, fl_sst_writer **out,
                      char *err, size_t err_len) {
    fl_sst_writer *w = calloc(1, sizeof *w);
    if (!w) return FL_ERR_NOMEM;
    w->cfg = *cfg;
    w->id = id;
    fl_sst_path(cfg->dir, id, w->path, sizeof w->path);
    fl_buf_init(&w->block);
    fl_buf_init(&w->index);
    fl_buf_init(&w->file);
    fl_buf_init(&w->last);
    w->min_seq = UINT64_MAX;
    /* never over an existing file: a MANIFEST whose next id is behind the
     * directory (hand-edited, restored, forged) must not cost a live SST */
    int e = cfg->env->ops->open(cfg->env, w->path, FL_OPEN_CREATE, &w->out);
    if (e) {
        if (e == EEXIST)
            snprintf(err, err_len, "%s: cannot create: the file exists (the MANIFEST's next SST id %" PRIu64
                     " is not past every SST in the directory); refusing to overwrite it", w->path, id);
        else
            snprintf(err, err_len, "%s: cannot create: %s", w->path, strerror(e));
        free(w);
        return e == EEXIST ? FL_ERR_EXISTS : FL_ERR_IO;
    }
    const fl_policy_list *pl = cfg->policies;
    w->bpolicies = calloc(pl->count + 1, sizeof *w->bpolicies);
    w->builders = calloc(pl->count + 1, sizeof *w->builders);
    if (!w->bpolicies || !w->builders) { fl_sst_writer_abort(w); return FL_ERR_NOMEM; }
    if (cfg->legacy_filters) {
        /* Legacy: one whole-key bloom with the first bloom policy's bits. */
        for (size_t i = 0; i < pl->count; i++) {
            if (!fl_policy_is_builtin_bloom(pl->items[i])) continue;
            if (fl_bloom_legacy_builder(fl_bloom_policy_millibits(pl->items[i]),
                                        &w->builders[0]) == FL_OK) {
                w->bpolicies[0] = pl->items[i];
                w->nbuilders = 1;
            }
            break;
        }
        w->legacy = true;
    } else {
        for (size_t i = 0; i < pl->count; i++) {
            fl_filter_builder *b = NULL;
            if (fl_call_new_builder(cfg->calls, pl->items[i], &b) == FL_OK && b) {
                w->bpolicies[w->nbuilders] = pl->items[i];
                w->builders[w->nbuilders++] = b;
            }
        }
    }
    *out = w;
    return FL_OK;
}

static int flush_block(fl_sst_writer *w) {
    if (w->block.len == 0) return FL_OK;
    uint64_t off = w->offset;
    int rc = write_block(w, w->block.data, w->block.len);
    if (!rc) rc = fl_buf_put_varint(&w->index, w->last.len);
    if (!rc) rc = fl_buf_append(&w->index, w->last.data, w->last.len);
    if (!rc) rc = fl_buf_put_varint(&w->index, off);
    if (!rc) rc = fl_buf_put_varint(&w->index, w->block.len);
    fl_buf_reset(&w->block);
    return rc;
}

int fl_sst_writer_add(fl_sst_writer *w, const fl_entry *e) {
    int rc = FL_OK;
    bool same_key = w->have_last && fl_bytes_eq(e->key, e->klen, w->last.data, w->last.len);
    /* Versions of one key stay in one block, so a get reads one block. */
    if (!same_key && w->block.len >= w->cfg.block_bytes) rc = flush_block(w);
    if (rc) return rc;
    /* [varint klen][key][kind u8][varint seq][varint vlen][value], written
     * in place after one reserve (three varints: at most 30 bytes) */
    if (e->klen > SIZE_MAX - 31 || e->vlen > SIZE_MAX - 31 - e->klen) return FL_ERR_NOMEM;
    size_t most = e->klen + e->vlen + 31;
    if (w->block.cap - w->block.len < most && (rc = fl_buf_reserve(&w->block, most))) return rc;
    uint8_t *p = w->block.data + w->block.len;
    p = fl_put_varint(p, e->klen);
    if (e->klen) memcpy(p, e->key, e->klen);
    p += e->klen;
    *p++ = e->kind;
    p = fl_put_varint(p, e->seq);
    p = fl_put_varint(p, e->vlen);
    if (e->vlen) memcpy(p, e->val, e->vlen);
    p += e->vlen;
    w->block.len = (size_t)(p - w->block.data);
    if (!same_key) {
        fl_buf_reset(&w->last);
        if (w->last.cap < e->klen && fl_buf_reserve(&w->last, e->klen)) return FL_ERR_NOMEM;
        if (e->klen) memcpy(w->last.data, e->key, e->klen);
        w->last.len = e->klen;
        if (!w->have_last) {
            w->first_key = fl_memdup(e->key, e->klen);
            if (!w->first_key) return FL_ERR_NOMEM;
            w->first_len = e->klen;
        }
        w->have_last = true;
    }
    w->entries++;
    if (e->seq < w->min_seq) w->min_seq = e->seq;
    if (e->seq > w->max_seq) w->max_seq = e->seq;
    fl_row_entry row = {
        .key = { e->key, e->klen }, .value = { e->val, e->vlen },
        .seq = e->seq, .kind = (fl_entry_kind)e->kind,
    };
    for (size_t i = 0; i < w->nbuilders; i++)
        fl_call_add_entry(w->cfg.calls, w->bpolicies[i], w->builders[i], &row);
    return FL_OK;
}

int fl_sst_writer_add_rtomb(fl_sst_writer *w, const fl_rtomb *rt) {
    if (rt->seq < w->min_seq) w->min_seq = rt->seq;
    if (rt->seq > w->max_seq) w->max_seq = rt->seq;
    return fl_rtomb_list_add(&w->rtombs, rt->start, rt->slen, rt->end, rt->elen, rt->seq);
}

uint64_t fl_sst_writer_entries(const fl_sst_writer *w) { return w->entries; }
uint64_t fl_sst_writer_bytes(const fl_sst_writer *w) { return w->offset + w->block.len; }

/* Builds every filter and encodes the filter block into out.  A sub-filter
 * whose build or encode fails is left out (the wrappers report it). */
static int build_filters(fl_sst_writer *w, fl_buf *out, fl_sst_info *info) {
    size_t n = 0;
    fl_named_filter *nf = calloc(w->nbuilders + 1, sizeof *nf);
    fl_buf *bufs = calloc(w->nbuilders + 1, sizeof *bufs);
    int rc = (nf && bufs) ? FL_OK : FL_ERR_NOMEM;
    bool want = w->entries >= w->cfg.min_filter_keys;
    for (size_t i = 0; i < w->nbuilders && rc == FL_OK; i++) {
        const fl_filter_policy *p = w->bpolicies[i];
        fl_filter *f = NULL;
        if (!want) continue;
        if (fl_call_build(w->cfg.calls, p, w->builders[i], &f) != FL_OK || !f) continue;
        fl_buf_init(&bufs[n]);
        if (fl_call_encode(w->cfg.calls, p, f, &bufs[n]) == FL_OK) {
            nf[n].name = (char *)(w->legacy ? "" : fl_call_policy_name(w->cfg.calls, p));
            uint64_t m;
            if (fl_bloom_filter_stats(f, &m, NULL, NULL)) rc = fl_sst_info_add_hash_note(info, nf[n].name, m);
            nf[n].data.data = bufs[n].data;
            nf[n].data.len = bufs[n].len;
            n++;
        } else {
            fl_buf_free(&bufs[n]);
        }
        fl_call_filter_destroy(w->cfg.calls, p, f);
    }
    if (rc == FL_OK && n > 0) {
        if (w->legacy) rc = fl_buf_append(out, nf[0].data.data, nf[0].data.len);
        else rc = fl_composite_encode(nf, n, out);
    }
    if (rc == FL_OK) {
        info->filter_names = calloc(n ? n : 1, sizeof(char *));
        if (!info->filter_names) rc = FL_ERR_NOMEM;
        for (size_t i = 0; rc == FL_OK && i < n; i++) {
            info->filter_names[i] = strdup(nf[i].name);
            if (!info->filter_names[i]) rc = FL_ERR_NOMEM;
            else info->filter_count = i + 1;
        }
    }
    for (size_t i = 0; i < n; i++) fl_buf_free(&bufs[i]);
    free(bufs);
    free(nf);
    return rc;
}

/* The SST's key range covers its point entries and its range tombstones. */
static int key_range(fl_sst_writer *w, fl_sst_info *info) {
    const uint8_t *lo = w->first_key, *hi = w->last.data;
    size_t lol = w->first_len, hil = w->last.len;
    bool have = w->have_last, excl = false;
    for (size_t i = 0; i < w->rtombs.count; i++) {
        const fl_rtomb *rt = &w->rtombs.items[i];
        if (!have || fl_bytes_cmp(rt->start, rt->slen, lo, lol) < 0) { lo = rt->start; lol = rt->slen; }
        int c = have ? fl_bytes_cmp(rt->end, rt->elen, hi, hil) : 1;
        if (c > 0) { hi = rt->end; hil = rt->elen; excl = true; }
        have = true;
    }
    info->smallest = fl_memdup(lo, lol);
    info->largest = fl_memdup(hi, hil);
    info->first_key = fl_memdup(w->first_key, w->first_len);
    info->last_key = fl_memdup(w->last.data, w->last.len);
    info->smallest_len = lol;
    info->largest_len = hil;
    info->first_key_len = w->first_len;
    info->last_key_len = w->last.len;
    info->largest_exclusive = excl;
    return info->smallest && info->largest && info->first_key && info->last_key ? FL_OK : FL_ERR_NOMEM;
}

int fl_sst_writer_finish(fl_sst_writer *w, fl_sst_info *info, char *err, size_t err_len) {
    memset(info, 0, sizeof *info);
    fl_buf tmp;
    fl_buf_init(&tmp);
    int rc = flush_block(w);
    info->id = w->id;
    info->has_db_id = w->cfg.db_id != 0;
    info->db_id = w->cfg.db_id;
    info->data_len = w->offset;
    info->entries = w->entries;
    info->range_tombstones = w->rtombs.count;
    info->min_seq = w->min_seq == UINT64_MAX ? 0 : w->min_seq;
    info->max_seq = w->max_seq;
    /* range-tombstone block */
    if (!rc) rc = fl_buf_put_varint(&tmp, w->rtombs.count);
    for (size_t i = 0; i < w->rtombs.count && !rc; i++) {
        const fl_rtomb *rt = &w->rtombs.items[i];
        rc = fl_buf_put_varint(&tmp, rt->slen);
        if (!rc) rc = fl_buf_append(&tmp, rt->start, rt->slen);
        if (!rc) rc = fl_buf_put_varint(&tmp, rt->elen);
        if (!rc) rc = fl_buf_append(&tmp, rt->end, rt->elen);
        if (!rc) rc = fl_buf_put_varint(&tmp, rt->seq);
    }
    info->rt_offset = w->offset;
    info->rt_len = tmp.len;
    if (!rc) rc = write_block(w, tmp.data, tmp.len);
    /* index block */
    info->index_offset = w->offset;
    info->index_len = w->index.len;
    if (!rc) rc = write_block(w, w->index.data, w->index.len);
    /* filter block */
    fl_buf_reset(&tmp);
    if (!rc) rc = build_filters(w, &tmp, info);
    info->filter_format = w->legacy ? FL_FILTER_LEGACY : FL_FILTER_COMPOSITE;
    info->filter_offset = w->offset;
    info->filter_len = tmp.len;
    if (!rc && tmp.len) rc = write_block(w, tmp.data, tmp.len);
    if (!tmp.len) info->filter_offset = 0;
    if (!rc) rc = key_range(w, info);
    /* info block and footer */
    fl_buf_reset(&tmp);
    uint64_t info_off = w->offset;
    if (!rc) rc = fl_sst_info_encode(info, &tmp);
    if (!rc) rc = write_block(w, tmp.data, tmp.len);
    if (!rc) {
        uint8_t foot[24];
        uint64_t il = tmp.len;
        for (int i = 0; i < 8; i++) foot[i] = (uint8_t)(info_off >> (56 - 8 * i));
        for (int i = 0; i < 8; i++) foot[8 + i] = (uint8_t)(il >> (56 - 8 * i));
        foot[16] = 0; foot[17] = 0; foot[18] = 0; foot[19] = 1;
        memcpy(foot + 20, "FLST", 4);
        rc = write_all(w, foot, sizeof foot);
    }
    int e;
    if (!rc && w->cfg.sync && (e = w->cfg.env->ops->sync(w->cfg.env, w->out)) != 0) {
        w->os_err = e;
        rc = FL_ERR_IO;
    }
    if (!rc) {
        e = w->cfg.env->ops->close(w->cfg.env, w->out);
        w->out = NULL;
        if (e) { w->os_err = e; rc = FL_ERR_IO; }
    }
    info->file_bytes = w->offset;
    fl_buf_free(&tmp);
    if (rc) {
        snprintf(err, err_len, "%s: writing SST failed: %s", w->path,
                 rc == FL_ERR_IO && w->os_err ? strerror(w->os_err) : fl_strerror(rc));
        fl_sst_info_free(info);
        fl_sst_writer_abort(w);
        return rc;
    }
    w->path[0] = 0;          /* keep the file */
    fl_sst_writer_abort(w);
    return FL_OK;
}

void fl_sst_writer_why(const fl_sst_writer *w, int rc, char *err, size_t err_len) {
    if (rc == FL_ERR_NOMEM)
        snprintf(err, err_len, "%s: out of memory while writing the SST", w->path);
    else
        snprintf(err, err_len, "%s: cannot write: %s", w->path,
                 rc == FL_ERR_IO && w->os_err ? strerror(w->os_err) : fl_strerror(rc));
}

void fl_sst_writer_abort(fl_sst_writer *w) {
    if (!w) return;
    if (w->out) w->cfg.env->ops->close(w->cfg.env, w->out);
    if (w->path[0]) w->cfg.env->ops->remove(w->cfg.env, w->path);
    for (size_t i = 0; i < w->nbuilders; i++)
        fl_call_builder_destroy(w->cfg.calls, w->bpolicies[i], w->builders[i]);
    free(w->builders);
    free(w->bpolicies);
    fl_buf_free(&w->block);
    fl_buf_free(&w->index);
    fl_buf_free(&w->file);
    fl_buf_free(&w->last);
    free(w->first_key);
    fl_rtomb_list_free(&w->rtombs);
    free(w);
}
