/*
 * manifest.c -- the MANIFEST: the shape of the tree, replaced atomically
 * (write MANIFEST.tmp, fsync, rename, fsync the directory).  A text file so
 * a person can read it:
 *
 *   filterlab-manifest 1
 *   next_sst N
 *   next_seq N
 *   db_id HEX16                               (the database's identity; optional)
 *   l0 COUNT                                  (newest first)
 *   sst ID SMALLEST LARGEST EXCL ENTRIES RTS NFILTERS NAME...
 *   runs COUNT                                (newest first)
 *   run COUNT
 *   sst ...                                   (key order)
 *   obsolete ID...                            (retired SSTs whose files may
 *                                              still be there; optional)
 *   checksum XXH3-HEX                         (of every byte before this line)
 *
 * Byte strings (keys, filter names) are lowercase hex, "-" when empty.
 */
#include "engine_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

static int put_hex(fl_buf *b, const uint8_t *p, size_t n) {
    static const char hx[] = "0123456789abcdef";
    if (n == 0) return fl_buf_append(b, "-", 1);
    int rc = fl_buf_reserve(b, 2 * n);
    if (rc) return rc;
    char *out = (char *)b->data + b->len;
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = hx[p[i] >> 4];
        out[2 * i + 1] = hx[p[i] & 15];
    }
    b->len += 2 * n;
    return FL_OK;
}

static int put_str(fl_buf *b, const char *s) { return fl_buf_append(b, s, strlen(s)); }

/* Names come from the reader: the info block does not hold them. */
static int put_sst(fl_buf *b, const fl_sst_reader *r) {
    const fl_sst_info *in = &r->info;
    char tmp[128];
    snprintf(tmp, sizeof tmp, "sst %" PRIu64 " ", in->id);
    int rc = put_str(b, tmp);
    if (!rc) rc = put_hex(b, in->smallest, in->smallest_len);
    if (!rc) rc = put_str(b, " ");
    if (!rc) rc = put_hex(b, in->largest, in->largest_len);
    snprintf(tmp, sizeof tmp, " %d %" PRIu64 " %" PRIu64 " %zu", in->largest_exclusive ? 1 : 0,
             in->entries, in->range_tombstones, r->sub_count);
    if (!rc) rc = put_str(b, tmp);
    for (size_t i = 0; i < r->sub_count && !rc; i++) {
        rc = put_str(b, " ");
        if (!rc) rc = put_hex(b, (const uint8_t *)r->subs[i].name, strlen(r->subs[i].name));
    }
    if (!rc) rc = put_str(b, "\n");
    return rc;
}

int fl_db_write_manifest(fl_db *db) {
    fl_buf b;
    fl_buf_init(&b);
    char tmp[160];
    snprintf(tmp, sizeof tmp, "filterlab-manifest 1\nnext_sst %" PRIu64 "\nnext_seq %" PRIu64 "\n",
             db->next_sst, db->next_seq);
    int rc = put_str(&b, tmp);
    if (db->db_id && !rc) {                 /* (none: an older database opened read-only) */
        snprintf(tmp, sizeof tmp, "db_id %016" PRIx64 "\n", db->db_id);
        rc = put_str(&b, tmp);
    }
    snprintf(tmp, sizeof tmp, "l0 %zu\n", db->l0_count);
    if (!rc) rc = put_str(&b, tmp);
    for (size_t i = 0; i < db->l0_count && !rc; i++) rc = put_sst(&b, db->l0[i]);
    snprintf(tmp, sizeof tmp, "runs %zu\n", db->run_count);
    if (!rc) rc = put_str(&b, tmp);
    for (size_t r = 0; r < db->run_count && !rc; r++) {
        snprintf(tmp, sizeof tmp, "run %zu\n", db->runs[r].count);
        rc = put_str(&b, tmp);
        for (size_t i = 0; i < db->runs[r].count && !rc; i++)
            rc = put_sst(&b, db->runs[r].ssts[i]);
    }
    if (!rc && db->obsolete_count) {
        rc = put_str(&b, "obsolete");
        for (size_t i = 0; i < db->obsolete_count && !rc; i++) {
            snprintf(tmp, sizeof tmp, " %" PRIu64, db->obsolete[i]);
            rc = put_str(&b, tmp);
        }
        if (!rc) rc = put_str(&b, "\n");
    }
    if (!rc) {
        snprintf(tmp, sizeof tmp, "checksum %016" PRIx64 "\n", (uint64_t)XXH3_64bits(b.data, b.len));
        rc = put_str(&b, tmp);
    }
    if (rc) {
        fl_buf_free(&b);
        return fl_db_fail(db, rc, "MANIFEST: out of memory while writing it");
    }
    /* the same tree as the MANIFEST on disk: nothing to write (a read-only
     * database closes without touching its directory) */
    uint64_t hash = XXH3_64bits(b.data, b.len);
    if (db->manifest_known && hash == db->manifest_hash) {
        fl_buf_free(&b);
        return FL_OK;
    }
    if (db->read_only) {
        fl_buf_free(&b);
        return fl_db_fail(db, FL_ERR_INVALID, "%s: the database is open read-only; the tree cannot change",
                          db->dir);
    }
    char path[4200], final[4200];
    snprintf(path, sizeof path, "%s/MANIFEST.tmp", db->dir);
    snprintf(final, sizeof final, "%s/MANIFEST", db->dir);
    fl_env *env = db->env;
    int e = fl_env_write_file(env, path, b.data, b.len, db->opt.sync);
    fl_buf_free(&b);
    if (e) return fl_db_fail(db, FL_ERR_IO, "%s: cannot write: %s", path, strerror(e));
    if ((e = env->ops->rename(env, path, final)))
        return fl_db_fail(db, FL_ERR_IO, "%s: cannot rename to MANIFEST: %s", path, strerror(e));
    if (db->opt.sync && (e = env->ops->sync_dir(env, db->dir)))
        return fl_db_fail(db, FL_ERR_IO, "%s: cannot sync the directory: %s", db->dir, strerror(e));
    db->manifest_known = true;
    db->manifest_hash = hash;
    return FL_OK;
}

/* ---- Reading -------------------------------------------------------------- */

void fl_manifest_data_free(fl_manifest_data *m) {
    for (size_t i = 0; i < m->sst_count; i++) {
        free(m->ssts[i].smallest);
        free(m->ssts[i].largest);
    }
    free(m->ssts);
    free(m->obsolete);
    free(m->l0);
    for (size_t r = 0; r < m->run_count; r++) free(m->runs[r]);
    free(m->runs);
    free(m->run_sizes);
    memset(m, 0, sizeof *m);
}

typedef struct cursor { char *p, *end; int line; } cursor;

/* The next line, NUL-terminated in place; NULL at the end. */
static char *next_line(cursor *c) {
    if (c->p >= c->end) return NULL;
    char *s = c->p, *nl = memchr(s, '\n', (size_t)(c->end - s));
    if (!nl) return NULL;
    *nl = 0;
    c->p = nl + 1;
    c->line++;
    return s;
}

/* A hex string ("-": empty) into a new buffer. */
static int get_hex(const char *s, size_t n, uint8_t **out, size_t *len) {
    *out = NULL;
    *len = 0;
    if (n == 1 && s[0] == '-') n = 0;
    else if (n == 0 || n % 2) return FL_ERR_CORRUPT;
    uint8_t *b = malloc(n / 2 + 1);
    if (!b) return FL_ERR_NOMEM;
    for (size_t i = 0; i < n / 2; i++) {
        int v = 0;
        for (int k = 0; k < 2; k++) {
            char ch = s[2 * i + (size_t)k];
            int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
            if (d < 0) { free(b); return FL_ERR_CORRUPT; }
            v = v * 16 + d;
        }
        b[i] = (uint8_t)v;
    }
    *out = b;
    *len = n / 2;
    return FL_OK;
}

/* "sst ID SMALLEST LARGEST EXCL ENTRIES RTS ...": the id, and what the
 * line says of the SST into m->ssts. */
static int read_sst_line(cursor *c, fl_manifest_data *m, uint64_t *id) {
    char *l = next_line(c);
    unsigned long long v, entries, rts;
    int excl, a0, a1, b0, b1, tail;
    if (!l || sscanf(l, "sst %llu %n%*s%n %n%*s%n %d %llu %llu%n", &v, &a0, &a1, &b0, &b1, &excl, &entries,
                     &rts, &tail) != 4)
        return FL_ERR_CORRUPT;
    fl_manifest_sst *s = &m->ssts[m->sst_count];
    memset(s, 0, sizeof *s);
    s->id = v;
    s->largest_exclusive = excl != 0;
    s->entries = entries;
    s->range_tombstones = rts;
    int rc = get_hex(l + a0, (size_t)(a1 - a0), &s->smallest, &s->smallest_len);
    if (!rc) rc = get_hex(l + b0, (size_t)(b1 - b0), &s->largest, &s->largest_len);
    if (rc) {
        free(s->smallest);
        return rc;
    }
    m->sst_count++;
    *id = v;
    return FL_OK;
}

int fl_manifest_read(fl_env *env, const char *dir, fl_manifest_data *m, char *err, size_t err_len) {
    memset(m, 0, sizeof *m);
    char path[4200];
    snprintf(path, sizeof path, "%s/MANIFEST", dir);
    fl_buf b;
    fl_buf_init(&b);
    int e = fl_env_read_file(env, path, &b);
    if (e) {
        fl_buf_free(&b);
        if (e == ENOENT) return FL_ERR_NOTFOUND;
        snprintf(err, err_len, "%s: cannot read: %s", path, strerror(e));
        return e == ENOMEM ? FL_ERR_NOMEM : FL_ERR_IO;
    }
    m->hash = XXH3_64bits(b.data, b.len);
    int rc = fl_buf_put_u8(&b, 0);                  /* sscanf reads up to a NUL */
    if (rc) { fl_buf_free(&b); return rc; }
    /* the checksum line covers everything before it */
    char *text = (char *)b.data;
    size_t len = b.len - 1;
    char *ck = NULL;
    for (size_t i = len; i-- > 0;)
        if ((i == 0 || text[i - 1] == '\n') && len - i > 9 && memcmp(text + i, "checksum ", 9) == 0) {
            ck = text + i;
            break;
        }
    unsigned long long want = 0, a, bb;
    if (!ck || sscanf(ck, "checksum %llx", &want) != 1 ||
        XXH3_64bits(text, (size_t)(ck - text)) != (uint64_t)want) {
        snprintf(err, err_len, "%s: corrupt manifest: checksum missing or wrong", path);
        fl_buf_free(&b);
        return FL_ERR_CORRUPT;
    }
    cursor c = { text, ck, 0 };
    char *l = next_line(&c);
    size_t cnt;
    if (!l || strcmp(l, "filterlab-manifest 1") != 0) goto bad;
    if (!(l = next_line(&c)) || sscanf(l, "next_sst %llu", &a) != 1) goto bad;
    if (!(l = next_line(&c)) || sscanf(l, "next_seq %llu", &bb) != 1) goto bad;
    m->next_sst = a;
    m->next_seq = bb;
    size_t lines = 1;                           /* at most one sst per line */
    for (const char *q = text; q < ck; q++) lines += *q == '\n';
    if (!(m->ssts = calloc(lines, sizeof *m->ssts))) { rc = FL_ERR_NOMEM; goto out; }
    if (!(l = next_line(&c))) goto bad;
    if (strncmp(l, "db_id ", 6) == 0) {         /* (absent in older MANIFESTs) */
        unsigned long long id;
        int end = 0;
        if (sscanf(l, "db_id %16llx%n", &id, &end) != 1 || l[end] || end != 22) goto bad;
        m->db_id = id;
        if (!(l = next_line(&c))) goto bad;
    }
    if (sscanf(l, "l0 %zu", &cnt) != 1 || cnt > 10000000) goto bad;
    m->l0 = calloc(cnt ? cnt : 1, sizeof *m->l0);
    if (!m->l0) { rc = FL_ERR_NOMEM; goto out; }
    for (size_t i = 0; i < cnt; i++, m->l0_count++)
        if ((rc = read_sst_line(&c, m, &m->l0[i]))) goto sst;
    if (!(l = next_line(&c)) || sscanf(l, "runs %zu", &cnt) != 1 || cnt > 10000000) goto bad;
    m->runs = calloc(cnt ? cnt : 1, sizeof *m->runs);
    m->run_sizes = calloc(cnt ? cnt : 1, sizeof *m->run_sizes);
    if (!m->runs || !m->run_sizes) { rc = FL_ERR_NOMEM; goto out; }
    for (size_t r = 0; r < cnt; r++) {
        size_t k;
        if (!(l = next_line(&c)) || sscanf(l, "run %zu", &k) != 1 || k > 10000000) goto bad;
        m->runs[r] = calloc(k ? k : 1, sizeof **m->runs);
        if (!m->runs[r]) { rc = FL_ERR_NOMEM; goto out; }
        m->run_count = r + 1;
        for (size_t i = 0; i < k; i++, m->run_sizes[r]++)
            if ((rc = read_sst_line(&c, m, &m->runs[r][i]))) goto sst;
    }
    if ((l = next_line(&c))) {                  /* obsolete ID... (optional) */
        if (strncmp(l, "obsolete ", 9) != 0 || next_line(&c)) goto bad;
        size_t n = 1;
        for (const char *q = l + 9; *q; q++) n += *q == ' ';
        if (!(m->obsolete = calloc(n, sizeof *m->obsolete))) { rc = FL_ERR_NOMEM; goto out; }
        for (char *q = l + 8; *q;) {
            char *end;
            if (*q != ' ' || q[1] < '0' || q[1] > '9') goto bad;
            m->obsolete[m->obsolete_count++] = strtoull(q + 1, &end, 10);
            q = end;
        }
    }
    goto out;
sst:
    if (rc == FL_ERR_NOMEM) goto out;
bad:
    snprintf(err, err_len, "%s:%d: corrupt manifest: unexpected line", path, c.line);
    rc = FL_ERR_CORRUPT;
out:
    fl_buf_free(&b);
    if (rc) fl_manifest_data_free(m);
    return rc;
}
