/*
 * args.c -- what the subcommands share of the command line: flag matching,
 * number parsing (the whole string must be the number, or the caller
 * reports bad usage naming the option), usage errors, shell quoting for
 * the commands printed with a finding, and the stop signals.
 */
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool fl_cli_parse_u64(const char *s, uint64_t *v) {
    uint64_t x = 0;
    if (!*s) return false;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || x > (UINT64_MAX - (uint64_t)(*s - '0')) / 10) return false;
        x = x * 10 + (uint64_t)(*s - '0');
    }
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

int fl_cli_bad_usage(const char *command, void (*usage)(FILE *), const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "filterlab %s: ", command);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    if (usage) usage(stderr);
    else fprintf(stderr, "(filterlab %s --help lists the options)\n", command);
    return FL_EXIT_USAGE;
}

int fl_cli_flag(int argc, char **argv, int *i, const char *const *names, size_t count,
                size_t *which, const char **val) {
    for (size_t k = 0; k < count; k++) {
        size_t n = strlen(names[k]);
        if (strncmp(argv[*i], names[k], n) != 0) continue;
        *which = k;
        if (argv[*i][n] == '=') { *val = argv[*i] + n + 1; return 1; }
        if (argv[*i][n] != '\0') continue;
        if (*i + 1 >= argc) return -1;
        *val = argv[++*i];
        return 1;
    }
    return 0;
}

/* ---- Stop signals -------------------------------------------------------------- */

volatile sig_atomic_t fl_cli_stop;

static void on_stop(int sig) { fl_cli_stop = sig; }

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

void fl_cli_catch_stops(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sa.sa_flags = SA_RESTART;               /* a signal must not fail an engine call */
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof stop_signals / sizeof *stop_signals; i++)
        sigaction(stop_signals[i], &sa, NULL);
    /* a closed output pipe is a write error (reported), not a silent death */
    signal(SIGPIPE, SIG_IGN);
}
