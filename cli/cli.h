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

#include <stdbool.h>
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

/* args.c: the whole string is a decimal count / a positive number of
 * seconds (at most 1e9); false otherwise. */
bool fl_cli_parse_u64(const char *s, uint64_t *v);
bool fl_cli_parse_seconds(const char *s, double *v);
/* "filterlab COMMAND: WHAT ARG" and the usage on stderr; returns 2. */
int  fl_cli_usage_error(const char *command, void (*usage)(FILE *), const char *what, const char *arg);

#endif /* FL_CLI_H */
