/*
 * cli.h -- the entry points of the `filterlab` subcommands (SPEC section 11).
 *
 * main.c dispatches on the first argument; each command lives in its own
 * file and receives argv starting at the command's name (argv[0] is
 * "replay", ...).  A command returns the process exit status: 0 every
 * property held, 1 a property was violated, 2 bad usage or bad input.
 */
#ifndef FL_CLI_H
#define FL_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define FL_EXIT_OK        0
#define FL_EXIT_VIOLATION 1
#define FL_EXIT_USAGE     2

int fl_cli_replay(int argc, char **argv);       /* replay.c */
int fl_cli_check(int argc, char **argv);        /* check.c */
int fl_cli_report(int argc, char **argv);       /* report.c */
int fl_cli_gen(int argc, char **argv);          /* gen.c */
int fl_cli_bench(int argc, char **argv);        /* bench.c */
int fl_cli_serve(int argc, char **argv);        /* serve.c */

/* args.c: the whole string is a decimal count (digits only, no overflow) /
 * a positive number of seconds (at most 1e9); false otherwise. */
bool fl_cli_parse_u64(const char *s, uint64_t *v);
bool fl_cli_parse_seconds(const char *s, double *v);
/* "filterlab COMMAND: MESSAGE" and the usage (NULL: a pointer to --help)
 * on stderr; returns 2. */
int  fl_cli_bad_usage(const char *command, void (*usage)(FILE *), const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Matches argv[*i] against "--name VALUE" or "--name=VALUE" for each of
 * names: 1 (with *which and *val; *i advanced past a separate value),
 * 0 no match, -1 the value is missing (*which says for which flag). */
int  fl_cli_flag(int argc, char **argv, int *i, const char *const *names, size_t count,
                 size_t *which, const char **val);

/* output.c: a file a command writes ("-": stdout).  A regular or absent
 * target is written to a temporary file beside it and renamed over it at a
 * successful close; an input of the run (inputs[]) or a directory is
 * refused; a device, a FIFO or a symbolic link is refused unless force,
 * and then written directly.  Both return 0 or 2 (the message printed,
 * naming cmd, flag and target).  close(keep false) discards a temporary
 * file: the target stays as it was. */
typedef struct fl_cli_out {
    FILE *f;
    const char *target;
    char tmp[4096];             /* the temporary file, or ""               */
    bool direct;                /* written in place (stdout, --force)      */
} fl_cli_out;
int fl_cli_out_open(fl_cli_out *o, const char *cmd, const char *flag, const char *target, bool force,
                    const char *const *inputs, size_t ninputs);
int fl_cli_out_close(fl_cli_out *o, const char *cmd, const char *flag, bool keep);

/* junit.c: JUnit XML to path (through fl_cli_out: "-" is stdout; force
 * and inputs as there) -- one test suite of n cases.  A case failed when
 * failure (its message) is set -- type names the property, details the
 * text (the finding, seed, reproduction line) -- skipped when skipped
 * (details: why).  0 or 2 (said on stderr). */
typedef struct fl_junit_case {
    const char *classname;      /* "filterlab.replay", "filterlab.check"  */
    const char *name;           /* "P1 no-false-negative", "trial 17"     */
    double time;                /* seconds                                */
    const char *failure;        /* NULL: it passed (or was skipped)       */
    const char *type;           /* "P1 no-false-negative"                 */
    const char *details;
    bool skipped;
} fl_junit_case;
int fl_cli_junit_write(const char *cmd, const char *path, bool force, const char *const *inputs,
                       size_t ninputs, const char *suite, const fl_junit_case *cases, size_t n);

/* SIGINT, SIGTERM and SIGHUP set fl_cli_stop to the signal's number (the
 * runner stops between ops, or abandons a stuck op a second later);
 * SIGPIPE is ignored. */
extern volatile sig_atomic_t fl_cli_stop;
void fl_cli_catch_stops(void);

#endif /* FL_CLI_H */
