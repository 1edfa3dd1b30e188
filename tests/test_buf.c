/*
 * test_buf.c -- fl_buf, the big-endian writers, the LEB128 varint codec and
 * fl_strerror.
 */
#include "test.h"
#include "../engine/filter_internal.h"

FL_TEST(buf_append_and_writers) {
    fl_buf b;
    fl_buf_init(&b);
    CHECK(b.data == NULL && b.len == 0 && b.cap == 0);
    CHECK_OK(fl_buf_append(&b, NULL, 0));
    CHECK_RC(fl_buf_append(&b, NULL, 1), FL_ERR_INVALID);
    CHECK_RC(fl_buf_append(NULL, "x", 1), FL_ERR_INVALID);
    CHECK_OK(fl_buf_put_u8(&b, 0xab));
    CHECK_OK(fl_buf_put_be16(&b, 0x0102));
    CHECK_OK(fl_buf_put_be32(&b, 0x03040506));
    CHECK_OK(fl_buf_put_be64(&b, 0x0708090a0b0c0d0eull));
    static const uint8_t want[] = { 0xab, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 };
    CHECK_MEM(b.data, b.len, want, sizeof want);
    CHECK_EQ(fl_get_be16(b.data + 1), 0x0102);
    CHECK_EQ(fl_get_be32(b.data + 3), 0x03040506);
    CHECK_EQ(fl_get_be64(b.data + 7), 0x0708090a0b0c0d0eull);
    for (int i = 0; i < 10000; i++) CHECK_OK(fl_buf_append(&b, "0123456789", 10));
    CHECK_EQ(b.len, sizeof want + 100000);
    CHECK(b.cap >= b.len);
    fl_buf_reset(&b);
    CHECK(b.len == 0 && b.data != NULL);
    fl_buf_free(&b);
    CHECK(b.data == NULL && b.len == 0 && b.cap == 0);
}

FL_TEST(buf_varint_round_trip) {
    static const uint64_t values[] = { 0, 1, 127, 128, 255, 16383, 16384, 1u << 31,
                                       UINT32_MAX, (uint64_t)1 << 56, (uint64_t)1 << 63,
                                       UINT64_MAX - 1, UINT64_MAX };
    static const size_t sizes[] = { 1, 1, 1, 2, 2, 2, 3, 5, 5, 9, 10, 10, 10 };
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        fl_buf b;
        fl_buf_init(&b);
        CHECK_OK(fl_buf_put_varint(&b, values[i]));
        CHECK_EQ(b.len, sizes[i]);
        const uint8_t *p = b.data;
        uint64_t v = 0;
        CHECK_OK(fl_get_varint(&p, b.data + b.len, &v));
        CHECK_EQ(v, values[i]);
        CHECK(p == b.data + b.len);
        /* every truncation is corrupt, and leaves p alone */
        for (size_t cut = 0; cut < b.len; cut++) {
            p = b.data;
            CHECK_RC(fl_get_varint(&p, b.data + cut, &v), FL_ERR_CORRUPT);
            CHECK(p == b.data);
        }
        fl_buf_free(&b);
    }
}

FL_TEST(buf_varint_rejects_overlong) {
    uint8_t eleven[11];
    memset(eleven, 0x80, sizeof eleven);
    eleven[10] = 0x00;                                   /* 11 bytes */
    const uint8_t *p = eleven;
    uint64_t v;
    CHECK_RC(fl_get_varint(&p, eleven + 11, &v), FL_ERR_CORRUPT);
    uint8_t over[10];
    memset(over, 0xff, 9);
    over[9] = 0x02;                                      /* bit 64: overflow */
    p = over;
    CHECK_RC(fl_get_varint(&p, over + 10, &v), FL_ERR_CORRUPT);
    over[9] = 0x01;                                      /* UINT64_MAX */
    p = over;
    CHECK_OK(fl_get_varint(&p, over + 10, &v));
    CHECK_EQ(v, UINT64_MAX);
    p = over;
    CHECK_RC(fl_get_varint(&p, over, &v), FL_ERR_CORRUPT);   /* empty input */
}

FL_TEST(status_strerror_table) {
    CHECK_STR(fl_strerror(FL_OK), "ok");
    CHECK_STR(fl_strerror(FL_ERR_INVALID), "invalid argument");
    CHECK_STR(fl_strerror(FL_ERR_CORRUPT), "corrupt data");
    CHECK_STR(fl_strerror(FL_ERR_IO), "I/O error");
    CHECK_STR(fl_strerror(FL_ERR_NOMEM), "out of memory");
    CHECK_STR(fl_strerror(FL_ERR_NOTFOUND), "not found");
    CHECK_STR(fl_strerror(FL_ERR_EXISTS), "already exists");
    CHECK_STR(fl_strerror(FL_ERR_VERSION), "unsupported version");
    CHECK_STR(fl_strerror(FL_ERR_PLUGIN), "plugin broke its contract");
    CHECK_STR(fl_strerror(-9), "unknown error");
    CHECK_STR(fl_strerror(1), "unknown error");
    CHECK_STR(fl_strerror(-2147483647 - 1), "unknown error");
}
