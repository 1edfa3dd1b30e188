/*
 * sst_format.c -- the byte layouts of SST format version 1 (SPEC 2.6) that
 * both the writer and the reader use: the tagged info block, and the
 * composite filter block.
 *
 *   [data block]* [range-tombstone block] [index block] [filter block]
 *   [info block] [footer]
 *
 * Every block is followed by its XXH3-64 checksum (8 bytes, big-endian).
 * The footer is 24 bytes: info offset u64, info length u64, format
 * version u32 (1), magic "FLST".  Info fields are (tag u8, length varint,
 * bytes); unknown tags are skipped, absent tags take their defaults, and an
 * absent filter_format means Legacy.
 */
#include "engine_internal.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

enum {
    TAG_SMALLEST = 1, TAG_LARGEST = 2, TAG_LARGEST_EXCL = 3, TAG_ENTRIES = 4,
    TAG_RT_COUNT = 5, TAG_MIN_SEQ = 6, TAG_MAX_SEQ = 7, TAG_DATA_LEN = 8,
    TAG_RT_OFFSET = 9, TAG_RT_LEN = 10, TAG_INDEX_OFFSET = 11, TAG_INDEX_LEN = 12,
    TAG_FILTER_OFFSET = 13, TAG_FILTER_LEN = 14, TAG_FILTER_FORMAT = 15,
    TAG_FIRST_KEY = 16, TAG_LAST_KEY = 17,
    TAG_HASH_NOTE = 18,     /* [varint name_len][name][varint m], repeated */
    TAG_SST_ID = 19,        /* the SST's own id (its file name's number)    */
    TAG_DB_ID = 20          /* the database's identity: 8 bytes, big-endian */
};

void fl_sst_path(const char *dir, uint64_t id, char *out, size_t out_len) {
    snprintf(out, out_len, "%s/%06llu.sst", dir, (unsigned long long)id);
}

void fl_sst_info_free(fl_sst_info *info) {
    free(info->smallest);
    free(info->largest);
    free(info->first_key);
    free(info->last_key);
    for (size_t i = 0; i < info->filter_count; i++) free(info->filter_names[i]);
    free(info->filter_names);
    for (size_t i = 0; i < info->hash_note_count; i++) free(info->hash_note_names[i]);
    free(info->hash_note_names);
    free(info->hash_note_m);
    memset(info, 0, sizeof *info);
}

int fl_sst_info_add_hash_note(fl_sst_info *info, const char *name, uint64_t m) {
    size_t n = info->hash_note_count + 1;
    char **names = realloc(info->hash_note_names, n * sizeof *names);
    if (!names) return FL_ERR_NOMEM;
    info->hash_note_names = names;
    uint64_t *ms = realloc(info->hash_note_m, n * sizeof *ms);
    if (!ms) return FL_ERR_NOMEM;
    info->hash_note_m = ms;
    if (!(names[n - 1] = strdup(name))) return FL_ERR_NOMEM;
    ms[n - 1] = m;
    info->hash_note_count = n;
    return FL_OK;
}

bool fl_sst_info_hash_note(const fl_sst_info *info, const char *name, uint64_t *m) {
    for (size_t i = 0; i < info->hash_note_count; i++)
        if (strcmp(info->hash_note_names[i], name) == 0) { *m = info->hash_note_m[i]; return true; }
    return false;
}

/* ---- Info block ------------------------------------------------------- */

static int put_bytes_field(fl_buf *b, uint8_t tag, const uint8_t *p, size_t n) {
    int rc = fl_buf_put_u8(b, tag);
    if (!rc) rc = fl_buf_put_varint(b, n);
    if (!rc) rc = fl_buf_append(b, p, n);
    return rc;
}

static int put_int_field(fl_buf *b, uint8_t tag, uint64_t v) {
    uint8_t tmp[10];
    size_t n = 0;
    do { uint8_t c = v & 0x7F; v >>= 7; tmp[n++] = c | (v ? 0x80 : 0); } while (v);
    return put_bytes_field(b, tag, tmp, n);
}

int fl_sst_info_encode(const fl_sst_info *in, fl_buf *b) {
    int rc = FL_OK;
#define INT(t, v) if (!rc) rc = put_int_field(b, t, v)
#define BYTES(t, p, n) if (!rc) rc = put_bytes_field(b, t, p, n)
    BYTES(TAG_SMALLEST, in->smallest, in->smallest_len);
    BYTES(TAG_LARGEST, in->largest, in->largest_len);
    INT(TAG_LARGEST_EXCL, in->largest_exclusive);
    BYTES(TAG_FIRST_KEY, in->first_key, in->first_key_len);
    BYTES(TAG_LAST_KEY, in->last_key, in->last_key_len);
    INT(TAG_ENTRIES, in->entries);
    INT(TAG_RT_COUNT, in->range_tombstones);
    INT(TAG_MIN_SEQ, in->min_seq);
    INT(TAG_MAX_SEQ, in->max_seq);
    INT(TAG_DATA_LEN, in->data_len);
    INT(TAG_RT_OFFSET, in->rt_offset);
    INT(TAG_RT_LEN, in->rt_len);
    INT(TAG_INDEX_OFFSET, in->index_offset);
    INT(TAG_INDEX_LEN, in->index_len);
    INT(TAG_FILTER_OFFSET, in->filter_offset);
    INT(TAG_FILTER_LEN, in->filter_len);
    for (size_t i = 0; i < in->hash_note_count && !rc; i++) {
        size_t nl = strlen(in->hash_note_names[i]);
        fl_buf note;
        fl_buf_init(&note);
        rc = fl_buf_put_varint(&note, nl);
        if (!rc) rc = fl_buf_append(&note, in->hash_note_names[i], nl);
        if (!rc) rc = fl_buf_put_varint(&note, in->hash_note_m[i]);
        if (!rc) rc = put_bytes_field(b, TAG_HASH_NOTE, note.data, note.len);
        fl_buf_free(&note);
    }
    INT(TAG_SST_ID, in->id);
    if (in->has_db_id && !rc) {
        uint8_t id[8];
        for (int i = 0; i < 8; i++) id[i] = (uint8_t)(in->db_id >> (56 - 8 * i));
        rc = put_bytes_field(b, TAG_DB_ID, id, 8);
    }
    /* Legacy SSTs are recognised by the ABSENCE of this field. */
    if (in->filter_format == FL_FILTER_COMPOSITE) INT(TAG_FILTER_FORMAT, FL_FILTER_COMPOSITE);
#undef INT
#undef BYTES
    return rc;
}

static int field_int(const uint8_t *p, size_t n, uint64_t *v) {
    const uint8_t *q = p;
    int rc = fl_get_varint(&q, p + n, v);
    if (rc || q != p + n) return FL_ERR_CORRUPT;
    return FL_OK;
}

static int field_bytes(const uint8_t *p, size_t n, uint8_t **out, size_t *out_len) {
    uint8_t *d = fl_memdup(p, n);
    if (!d) return FL_ERR_NOMEM;
    free(*out);
    *out = d;
    *out_len = n;
    return FL_OK;
}

static int decode_hash_note(const uint8_t *p, size_t n, fl_sst_info *info) {
    const uint8_t *q = p, *end = p + n;
    uint64_t nl, m;
    if (fl_get_varint(&q, end, &nl) || nl > (uint64_t)(end - q) || memchr(q, 0, (size_t)nl))
        return FL_ERR_CORRUPT;
    char *name = malloc((size_t)nl + 1);
    if (!name) return FL_ERR_NOMEM;
    memcpy(name, q, (size_t)nl);
    name[nl] = 0;
    q += nl;
    int rc = fl_get_varint(&q, end, &m) || q != end ? FL_ERR_CORRUPT : FL_OK;
    if (!rc) rc = fl_sst_info_add_hash_note(info, name, m);
    free(name);
    return rc;
}

int fl_sst_info_decode(fl_slice block, fl_sst_info *info) {
    memset(info, 0, sizeof *info);
    info->filter_format = FL_FILTER_LEGACY;
    const uint8_t *p = block.data, *end = block.data + block.len;
    int rc = FL_OK;
    while (p < end && rc == FL_OK) {
        uint8_t tag = *p++;
        uint64_t n;
        if (fl_get_varint(&p, end, &n) || n > (uint64_t)(end - p)) { rc = FL_ERR_CORRUPT; break; }
        uint64_t v = 0, *dst = NULL;
        switch (tag) {
        case TAG_SMALLEST: rc = field_bytes(p, n, &info->smallest, &info->smallest_len); break;
        case TAG_LARGEST: rc = field_bytes(p, n, &info->largest, &info->largest_len); break;
        case TAG_FIRST_KEY: rc = field_bytes(p, n, &info->first_key, &info->first_key_len); break;
        case TAG_LAST_KEY: rc = field_bytes(p, n, &info->last_key, &info->last_key_len); break;
        case TAG_LARGEST_EXCL:
            rc = field_int(p, n, &v);
            info->largest_exclusive = v != 0;
            break;
        case TAG_FILTER_FORMAT:
            rc = field_int(p, n, &v);
            /* an unknown format is not Composite: treat as unreadable filter */
            info->filter_format = v == FL_FILTER_COMPOSITE ? FL_FILTER_COMPOSITE : (int)(v > 1 ? 2 : v);
            break;
        case TAG_HASH_NOTE: rc = decode_hash_note(p, (size_t)n, info); break;
        case TAG_SST_ID:
            rc = field_int(p, n, &info->stored_id);
            info->has_stored_id = true;
            break;
        case TAG_DB_ID:
            if (n != 8) { rc = FL_ERR_CORRUPT; break; }
            info->db_id = fl_get_be64(p);
            info->has_db_id = true;
            break;
        case TAG_ENTRIES: dst = &info->entries; break;
        case TAG_RT_COUNT: dst = &info->range_tombstones; break;
        case TAG_MIN_SEQ: dst = &info->min_seq; break;
        case TAG_MAX_SEQ: dst = &info->max_seq; break;
        case TAG_DATA_LEN: dst = &info->data_len; break;
        case TAG_RT_OFFSET: dst = &info->rt_offset; break;
        case TAG_RT_LEN: dst = &info->rt_len; break;
        case TAG_INDEX_OFFSET: dst = &info->index_offset; break;
        case TAG_INDEX_LEN: dst = &info->index_len; break;
        case TAG_FILTER_OFFSET: dst = &info->filter_offset; break;
        case TAG_FILTER_LEN: dst = &info->filter_len; break;
        default: break;             /* unknown tags are ignored */
        }
        if (dst) rc = field_int(p, n, dst);
        p += n;
    }
    /* absent byte fields default to the empty string */
    if (rc == FL_OK && !info->smallest) rc = field_bytes(p, 0, &info->smallest, &info->smallest_len);
    if (rc == FL_OK && !info->largest) rc = field_bytes(p, 0, &info->largest, &info->largest_len);
    if (rc == FL_OK && !info->first_key) rc = field_bytes(p, 0, &info->first_key, &info->first_key_len);
    if (rc == FL_OK && !info->last_key) rc = field_bytes(p, 0, &info->last_key, &info->last_key_len);
    if (rc != FL_OK) fl_sst_info_free(info);
    return rc;
}

/* ---- Composite filter block (big-endian, RFC layout) --------------------
 *   [num_filters u16] ([name_len u16][name][data_len u64][data])*        */

void fl_named_filters_free(fl_named_filter *f, size_t count) {
    for (size_t i = 0; i < count; i++) free(f[i].name);
    free(f);
}

int fl_composite_parse(fl_slice block, fl_named_filter **out, size_t *count) {
    const uint8_t *p = block.data, *end = block.data + block.len;
    *out = NULL;
    *count = 0;
    if (block.len < 2) return FL_ERR_CORRUPT;
    size_t n = fl_get_be16(p);
    p += 2;
    fl_named_filter *f = calloc(n ? n : 1, sizeof *f);
    if (!f) return FL_ERR_NOMEM;
    size_t i;
    for (i = 0; i < n; i++) {
        if (end - p < 2) goto corrupt;
        size_t nl = fl_get_be16(p);
        p += 2;
        if ((size_t)(end - p) < nl) goto corrupt;
        if (memchr(p, 0, nl)) goto corrupt;          /* names are C strings */
        f[i].name = malloc(nl + 1);
        if (!f[i].name) { fl_named_filters_free(f, i); return FL_ERR_NOMEM; }
        memcpy(f[i].name, p, nl);
        f[i].name[nl] = 0;
        p += nl;
        if (end - p < 8) { i++; goto corrupt; }
        uint64_t dl = fl_get_be64(p);
        p += 8;
        if ((uint64_t)(end - p) < dl) { i++; goto corrupt; }
        f[i].data.data = p;
        f[i].data.len = (size_t)dl;
        p += dl;
        for (size_t j = 0; j < i; j++)
            if (strcmp(f[j].name, f[i].name) == 0) { i++; goto corrupt; }
    }
    if (p != end) goto corrupt;                      /* trailing bytes */
    *out = f;
    *count = n;
    return FL_OK;
corrupt:
    fl_named_filters_free(f, i);
    return FL_ERR_CORRUPT;
}

/* The public split (engine.h): parse first, so a malformed block is never
 * half delivered. */
int fl_filter_block_split(fl_slice block, fl_subfilter_fn fn, void *arg) {
    if (!block.data || block.len < 2) return FL_ERR_CORRUPT;     /* an empty fl_buf too */
    fl_named_filter *f;
    size_t n;
    int rc = fl_composite_parse(block, &f, &n);
    for (size_t i = 0; i < n && rc == FL_OK; i++) rc = fn(arg, f[i].name, f[i].data);
    if (f) fl_named_filters_free(f, n);
    return rc;
}

int fl_composite_encode(const fl_named_filter *f, size_t count, fl_buf *out) {
    if (count > 0xFFFF) return FL_ERR_INVALID;
    int rc = fl_buf_put_be16(out, (uint16_t)count);
    for (size_t i = 0; i < count && rc == FL_OK; i++) {
        size_t nl = strlen(f[i].name);
        if (nl > 0xFFFF) return FL_ERR_INVALID;
        rc = fl_buf_put_be16(out, (uint16_t)nl);
        if (!rc) rc = fl_buf_append(out, f[i].name, nl);
        if (!rc) rc = fl_buf_put_be64(out, f[i].data.len);
        if (!rc) rc = fl_buf_append(out, f[i].data.data, f[i].data.len);
    }
    return rc;
}

/* ---- The block map of an SST file (engine.h, "Stored bytes") -----------
 * The footer locates the info block, the info block the range-tombstone,
 * index and filter blocks, the index the data blocks.  fl_sst_open reads
 * the same fields; this walk only reports where they point. */

#define FL_SST_FOOTER 24

typedef struct fl_block_walk {
    const uint8_t *bytes;
    uint64_t size;                  /* the bytes before the footer         */
    fl_sst_block_fn fn;
    void *arg;
    int stopped;                    /* what fn returned, when nonzero      */
    bool out_of_bounds;
} fl_block_walk;

/* Reports the block at [off, off + len) if it and its checksum lie before
 * the footer; true when reported and the walk goes on. */
static bool fl_report_block(fl_block_walk *w, const char *kind, uint64_t off, uint64_t len) {
    if (w->stopped) return false;
    if (len > w->size || off > w->size - len || w->size - len - off < 8) {
        w->out_of_bounds = true;
        return false;
    }
    fl_sst_block b = { kind, off, len, fl_get_be64(w->bytes + off + len),
                       XXH3_64bits(w->bytes + off, (size_t)len) };
    w->stopped = w->fn(w->arg, &b);
    return !w->stopped;
}

/* The data blocks the index names: [varint key_len][key][varint offset]
 * [varint len] per entry.  FL_ERR_CORRUPT for a malformed entry. */
static int fl_report_data_blocks(fl_block_walk *w, const uint8_t *p, const uint8_t *end) {
    while (p < end && !w->stopped) {
        uint64_t kl, off, len;
        if (fl_get_varint(&p, end, &kl) || kl > (uint64_t)(end - p)) return FL_ERR_CORRUPT;
        p += kl;
        if (fl_get_varint(&p, end, &off) || fl_get_varint(&p, end, &len)) return FL_ERR_CORRUPT;
        fl_report_block(w, "data", off, len);
    }
    return FL_OK;
}

int fl_sst_file_blocks(fl_slice file, fl_sst_block_fn fn, void *arg) {
    if (!file.data || file.len < FL_SST_FOOTER) return FL_ERR_CORRUPT;
    const uint8_t *foot = file.data + file.len - FL_SST_FOOTER;
    if (memcmp(foot + 20, "FLST", 4) != 0 || fl_get_be32(foot + 16) != 1) return FL_ERR_CORRUPT;
    fl_block_walk w = { file.data, file.len - FL_SST_FOOTER, fn, arg, 0, false };
    uint64_t io = fl_get_be64(foot), il = fl_get_be64(foot + 8);
    if (!fl_report_block(&w, "info", io, il)) return w.stopped ? w.stopped : FL_ERR_CORRUPT;
    fl_sst_info info;
    int rc = fl_sst_info_decode((fl_slice){ file.data + io, (size_t)il }, &info);
    if (rc) return rc;
    fl_report_block(&w, "range-tombstone", info.rt_offset, info.rt_len);
    bool index = fl_report_block(&w, "index", info.index_offset, info.index_len);
    if (info.filter_len) fl_report_block(&w, "filter", info.filter_offset, info.filter_len);
    if (index) {
        const uint8_t *p = file.data + info.index_offset;
        rc = fl_report_data_blocks(&w, p, p + info.index_len);
    }
    fl_sst_info_free(&info);
    if (w.stopped) return w.stopped;
    return rc ? rc : w.out_of_bounds ? FL_ERR_CORRUPT : FL_OK;
}
