/*
 * status.c -- the one table of status codes and their descriptions
 * (LMDB's mdb_strerror habit).
 *
 * Invariant: every FL_ERR_* of filter.h has exactly one entry here, and
 * fl_strerror never returns NULL, whatever int it is given.
 */
#include "filter.h"

#include <stddef.h>

static const struct {
    int status;
    const char *text;
} fl_status_table[] = {
    { FL_OK,           "ok" },
    { FL_ERR_INVALID,  "invalid argument" },
    { FL_ERR_CORRUPT,  "corrupt data" },
    { FL_ERR_IO,       "I/O error" },
    { FL_ERR_NOMEM,    "out of memory" },
    { FL_ERR_NOTFOUND, "not found" },
    { FL_ERR_EXISTS,   "already exists" },
    { FL_ERR_VERSION,  "unsupported version" },
    { FL_ERR_PLUGIN,   "plugin broke its contract" },
};

const char *fl_strerror(int status) {
    for (size_t i = 0; i < sizeof fl_status_table / sizeof fl_status_table[0]; i++)
        if (fl_status_table[i].status == status) return fl_status_table[i].text;
    return "unknown error";
}
