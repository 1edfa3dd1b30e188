/*
 * main.c -- the `filterlab` command: dispatches on its first argument to one
 * file per subcommand (SPEC section 11).  Thin on purpose: no command logic
 * lives here, only the table of commands, the top-level usage and --version.
 */
#include "cli.h"
#include "../engine/filter.h"
#include "../adapters/adapters.h"      /* fl_rocksdb_version */

#include <stdio.h>
#include <string.h>

#ifndef FILTERLAB_VERSION
#error "FILTERLAB_VERSION comes from the Makefile (VERSION)"
#endif

typedef int (*command_fn)(int argc, char **argv);

static const struct command {
    const char *name;
    command_fn  run;
    const char *summary;
} commands[] = {
    { "gen",    fl_cli_gen,    "generate a workload of a given shape (to stdout)" },
    { "replay", fl_cli_replay, "run a workload against the engine, checking every filter probe" },
    { "check",  fl_cli_check,  "property-based runs: random trials, shrunk replayable failures" },
    { "report", fl_cli_report, "replay sweeps of configurations into CSV, plots and HTML" },
    { "bench",  fl_cli_bench,  "benchmarks: filters, engine reads, the testbed, beside RocksDB" },
    { "serve",  fl_cli_serve,  "filterlab's engine as an adapter of the engine protocol (stdin/stdout)" },
};

static void usage(FILE *f) {
    fprintf(f, "usage: filterlab COMMAND [ARGS...]\n"
               "\n"
               "filterlab: an LSM-tree filter-correctness testbed.\n"
               "\n"
               "Commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "  %-8s %s\n", "help", "this text; 'filterlab help COMMAND' for a command's options");
    fprintf(f, "\n"
               "Options:\n"
               "  -h, --help     this text\n"
               "  --version      print the version\n"
               "\n"
               "Exit status: 0 every property held, 1 a property was violated,\n"
               "2 bad usage or bad input.\n");
}

static const struct command *find_command(const char *name) {
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

static int run_command(const struct command *cmd, int argc, char **argv) {
    return cmd->run(argc, argv);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return FL_EXIT_USAGE;
    }
    const char *first = argv[1];
    if (strcmp(first, "--help") == 0 || strcmp(first, "-h") == 0 || strcmp(first, "help") == 0) {
        if (strcmp(first, "help") == 0 && argc > 2) {
            /* filterlab help COMMAND == filterlab COMMAND --help */
            const struct command *cmd = find_command(argv[2]);
            if (!cmd) {
                fprintf(stderr, "filterlab: unknown command '%s'\n", argv[2]);
                usage(stderr);
                return FL_EXIT_USAGE;
            }
            char help[] = "--help";
            char *sub_argv[] = { argv[2], help, NULL };
            return run_command(cmd, 2, sub_argv);
        }
        usage(stdout);
        return FL_EXIT_OK;
    }
    if (strcmp(first, "--version") == 0) {
        const char *rocks = fl_rocksdb_version();
        printf("filterlab %s (filter ABI %d, workload format 1, %s%s)\n", FILTERLAB_VERSION,
               FL_FILTER_ABI_VERSION, rocks ? "RocksDB " : "built without RocksDB", rocks ? rocks : "");
        return FL_EXIT_OK;
    }
    const struct command *cmd = find_command(first);
    if (!cmd) {
        fprintf(stderr, "filterlab: unknown command '%s'\n", first);
        usage(stderr);
        return FL_EXIT_USAGE;
    }
    return run_command(cmd, argc - 1, argv + 1);
}
