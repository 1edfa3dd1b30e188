/*
 * manifest.c -- the MANIFEST: the shape of the tree, replaced atomically
 * (write MANIFEST.tmp, fsync, rename, fsync the directory).  A text file so
 * a person can read it:
 *
 *   filterlab-manifest 1
 *   next_sst N
 *   next_seq N
 *   l0 COUNT                                  (newest first)
 *   sst ID SMALLEST LARGEST EXCL ENTRIES RTS NFILTERS NAME...
 *   runs COUNT                                (newest first)
 *   run COUNT
 *   sst ...                                   (key order)
 *   checksum XXH3-HEX                         (of every byte before this line)
 *
 * Byte strings (keys, filter names) are lowercase hex, "-" when empty.
 */
#include "engine_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

static int put_hex(fl_buf *b, const uint8_t *p, size_t n) {
    static const char hx[] = "0123456789abcdef";
    if (n == 0) return fl_buf_append(b, "-", 1);
    for (size_t i = 0; i < n; i++) {
        char c[2] = { hx[p[i] >> 4], hx[p[i] & 15] };
        int rc = fl_buf_append(b, c, 2);
        if (rc) return rc;
    }
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

static int write_file(const char *path, const uint8_t *p, size_t n, bool sync) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return FL_ERR_IO;
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) { close(fd); return FL_ERR_IO; }
        p += k; n -= (size_t)k;
    }
    int rc = !sync || fsync(fd) == 0 ? FL_OK : FL_ERR_IO;
    close(fd);
    return rc;
}

int fl_db_write_manifest(fl_db *db) {
    fl_buf b;
    fl_buf_init(&b);
    char tmp[160];
    snprintf(tmp, sizeof tmp, "filterlab-manifest 1\nnext_sst %" PRIu64 "\nnext_seq %" PRIu64
             "\nl0 %zu\n", db->next_sst, db->next_seq, db->l0_count);
    int rc = put_str(&b, tmp);
    for (size_t i = 0; i < db->l0_count && !rc; i++) rc = put_sst(&b, db->l0[i]);
    snprintf(tmp, sizeof tmp, "runs %zu\n", db->run_count);
    if (!rc) rc = put_str(&b, tmp);
    for (size_t r = 0; r < db->run_count && !rc; r++) {
        snprintf(tmp, sizeof tmp, "run %zu\n", db->runs[r].count);
        rc = put_str(&b, tmp);
        for (size_t i = 0; i < db->runs[r].count && !rc; i++)
            rc = put_sst(&b, db->runs[r].ssts[i]);
    }
    if (!rc) {
        snprintf(tmp, sizeof tmp, "checksum %016" PRIx64 "\n", (uint64_t)XXH3_64bits(b.data, b.len));
        rc = put_str(&b, tmp);
    }
    char path[4200], final[4200];
    snprintf(path, sizeof path, "%s/MANIFEST.tmp", db->dir);
    snprintf(final, sizeof final, "%s/MANIFEST", db->dir);
    if (!rc) rc = write_file(path, b.data, b.len, db->opt.sync);
    fl_buf_free(&b);
    if (rc) return fl_db_fail(db, rc, "%s: cannot write: %s", path, strerror(errno));
    if (rename(path, final) != 0)
        return fl_db_fail(db, FL_ERR_IO, "%s: cannot rename to MANIFEST: %s", path, strerror(errno));
    int dfd = open(db->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        if (db->opt.sync) fsync(dfd);
        close(dfd);
    }
    return FL_OK;
}

/* ---- Reading -------------------------------------------------------------- */

void fl_manifest_data_free(fl_manifest_data *m) {
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

static int read_sst_line(cursor *c, uint64_t *id) {
    char *l = next_line(c);
    unsigned long long v;
    if (!l || sscanf(l, "sst %llu ", &v) != 1) return FL_ERR_CORRUPT;
    *id = v;
    return FL_OK;
}

int fl_manifest_read(const char *dir, fl_manifest_data *m, char *err, size_t err_len) {
    memset(m, 0, sizeof *m);
    char path[4200];
    snprintf(path, sizeof path, "%s/MANIFEST", dir);
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT) return FL_ERR_NOTFOUND;
        snprintf(err, err_len, "%s: cannot open: %s", path, strerror(errno));
        return FL_ERR_IO;
    }
    fl_buf b;
    fl_buf_init(&b);
    char chunk[65536];
    size_t n;
    int rc = FL_OK;
    while (rc == FL_OK && (n = fread(chunk, 1, sizeof chunk, f)) > 0) rc = fl_buf_append(&b, chunk, n);
    fclose(f);
    if (rc == FL_OK) rc = fl_buf_put_u8(&b, 0);     /* sscanf reads up to a NUL */
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
    if (!(l = next_line(&c)) || sscanf(l, "l0 %zu", &cnt) != 1 || cnt > 10000000) goto bad;
    m->l0 = calloc(cnt ? cnt : 1, sizeof *m->l0);
    if (!m->l0) { rc = FL_ERR_NOMEM; goto out; }
    for (size_t i = 0; i < cnt; i++, m->l0_count++)
        if (read_sst_line(&c, &m->l0[i])) goto bad;
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
            if (read_sst_line(&c, &m->runs[r][i])) goto bad;
    }
    goto out;
bad:
    snprintf(err, err_len, "%s:%d: corrupt manifest: unexpected line", path, c.line);
    rc = FL_ERR_CORRUPT;
out:
    fl_buf_free(&b);
    if (rc) fl_manifest_data_free(m);
    return rc;
}
