/*
 * buf.c -- the engine-owned growable byte buffer (struct fl_buf, engine.h)
 * and the integer encoders and LEB128 decoder shared by every on-disk format.
 *
 * Invariant: len <= cap, and data is NULL exactly when cap == 0.  A failed
 * append leaves the buffer exactly as it was.
 */
#include "filter_internal.h"

#include <stdlib.h>
#include <string.h>

void fl_buf_init(fl_buf *buf) {
    buf->data = NULL;
    buf->len = 0;
    buf->cap = 0;
}

void fl_buf_free(fl_buf *buf) {
    free(buf->data);
    fl_buf_init(buf);
}

void fl_buf_reset(fl_buf *buf) { buf->len = 0; }

/* Makes room for `more` bytes past len; grows by doubling. */
int fl_buf_reserve(fl_buf *buf, size_t more) {
    if (more <= buf->cap - buf->len) return FL_OK;
    if (more > SIZE_MAX - buf->len) return FL_ERR_NOMEM;
    size_t need = buf->len + more;
    size_t cap = buf->cap ? buf->cap : 64;
    while (cap < need) cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    uint8_t *data = realloc(buf->data, cap);
    if (!data) return FL_ERR_NOMEM;
    buf->data = data;
    buf->cap = cap;
    return FL_OK;
}

/* Exported to plugins (filter.h). */
int fl_buf_append(fl_buf *buf, const void *bytes, size_t len) {
    if (!buf || (len && !bytes)) return FL_ERR_INVALID;
    if (len == 0) return FL_OK;
    int rc = fl_buf_reserve(buf, len);
    if (rc != FL_OK) return rc;
    memcpy(buf->data + buf->len, bytes, len);
    buf->len += len;
    return FL_OK;
}

int fl_buf_put_u8(fl_buf *buf, uint8_t v) { return fl_buf_append(buf, &v, 1); }

int fl_buf_put_be16(fl_buf *buf, uint16_t v) {
    uint8_t b[2] = { (uint8_t)(v >> 8), (uint8_t)v };
    return fl_buf_append(buf, b, sizeof b);
}

int fl_buf_put_be32(fl_buf *buf, uint32_t v) {
    uint8_t b[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };
    return fl_buf_append(buf, b, sizeof b);
}

int fl_buf_put_be64(fl_buf *buf, uint64_t v) {
    int rc = fl_buf_put_be32(buf, (uint32_t)(v >> 32));
    if (rc != FL_OK) return rc;
    rc = fl_buf_put_be32(buf, (uint32_t)v);
    if (rc != FL_OK) buf->len -= 4;     /* keep "a failed append changes nothing" */
    return rc;
}

int fl_buf_put_varint(fl_buf *buf, uint64_t v) {
    uint8_t b[10];
    return fl_buf_append(buf, b, (size_t)(fl_put_varint(b, v) - b));
}

/* LEB128: 7 bits a byte, least significant first, high bit = more follows.
 * At most 10 bytes; the 10th may only carry the top bit of a uint64_t. */
int fl_get_varint_long(const uint8_t **p, const uint8_t *end, uint64_t *v) {
    const uint8_t *q = *p;
    uint64_t result = 0;
    for (unsigned i = 0; i < 10; i++) {
        if (q >= end) return FL_ERR_CORRUPT;                 /* truncated    */
        uint8_t byte = *q++;
        if (i == 9 && (byte & 0xfe)) return FL_ERR_CORRUPT;  /* > 64 bits or
                                                                > 10 bytes   */
        result |= (uint64_t)(byte & 0x7f) << (7 * i);
        if (!(byte & 0x80)) {
            *v = result;
            *p = q;
            return FL_OK;
        }
    }
    return FL_ERR_CORRUPT;                                   /* unreachable  */
}
