/*
 * workload_internal.h -- what workload.c, parse.c and print.c share and no
 * other module may use: the size limits of SPEC 2.1, the byte classes of the
 * SPEC 9 spellings, and the ops-array growth rule.
 *
 * Growth rule (the one invariant the three files keep together): an ops
 * array holding `count` ops has room for at least next_pow2(count) of them,
 * so fl_workload_add() can grow it without a capacity field.  Arrays made by
 * fl_workload_parse() and fl_workload_add() keep it; removing ops in place
 * keeps it too.
 */
#ifndef FL_WORKLOAD_INTERNAL_H
#define FL_WORKLOAD_INTERNAL_H

#include "workload.h"

#define FL_WL_KEY_MAX    65535u          /* SPEC 2.1: keys, starts, ends, prefixes */
#define FL_WL_VALUE_MAX  (1024u * 1024u) /* SPEC 2.1: values                      */

#define FL_WL_HEADER     "filterlab-workload 1"

/* A byte that may appear in a bare byte string: 0x21-0x7E but '"' '\' '='. */
static inline bool fl_wl_bare_byte(uint8_t c) {
    return c >= 0x21 && c <= 0x7e && c != '"' && c != '\\' && c != '=';
}

/* A byte that may appear in a bare option value: 0x21-0x7E but '"'. */
static inline bool fl_wl_bare_value_byte(uint8_t c) {
    return c >= 0x21 && c <= 0x7e && c != '"';
}

/* Index of the option key key[0..len) in fl_wl_option_keys, or -1. */
int fl_wl_option_index(const char *key, size_t len);
/* Whether key[0..len) is a namespaced option key (SPEC 9): "rocksdb." then
 * 1 to 64 bytes of [a-z0-9_].  Its value is the RocksDB engine's to check. */
bool fl_wl_option_namespaced(const char *key, size_t len);
/* "policies, compactor, ..." for messages (the keys of SPEC 2.5; messages
 * add the rocksdb.NAME namespace). */
const char *fl_wl_option_list(void);
/* "open, put, ..." for messages. */
const char *fl_wl_op_list(void);

/* Frees what an op owns and zeroes it. */
void fl_wl_op_clear(fl_op *op);

/* Writes into buf (always NUL-terminated when cap > 0) the quoted, escaped
 * spelling of data[0..len), as fl_bytes_print's quoted form, showing at most
 * max_src source bytes and then "..." after the closing quote.  For
 * messages: the offending token of a parse error. */
void fl_wl_describe(char *buf, size_t cap, const uint8_t *data, size_t len,
                    size_t max_src);

#endif /* FL_WORKLOAD_INTERNAL_H */
