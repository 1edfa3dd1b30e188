/*
 * args.c -- number parsing shared by the subcommands: the whole string must
 * be the number, or the caller reports bad usage naming the option.
 */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

bool fl_cli_parse_u64(const char *s, uint64_t *v) {
    char *end;
    errno = 0;
    if (!*s || *s == '-') return false;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end) return false;
    *v = x;
    return true;
}

bool fl_cli_parse_seconds(const char *s, double *v) {
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (errno || *end || !(x > 0) || x > 1e9) return false;
    *v = x;
    return true;
}

int fl_cli_usage_error(const char *command, void (*usage)(FILE *), const char *what, const char *arg) {
    fprintf(stderr, "filterlab %s: %s%s%s\n", command, what, arg ? " " : "", arg ? arg : "");
    usage(stderr);
    return FL_EXIT_USAGE;
}
