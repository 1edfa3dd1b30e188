/*
 * serve.c -- `filterlab serve`: filterlab's own engine as an adapter program
 * of the engine protocol (docs/protocol.md), on stdin and stdout.
 * `--engine "cmd:filterlab serve"` then runs filterlab's engine through the
 * protocol, as a foreign engine is run (adapters/filterlab/filterlab_serve.c).
 */
#include "cli.h"
#include "../adapters/adapters.h"

#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
    fprintf(f, "usage: filterlab serve [--plugin SO]...\n"
               "\n"
               "Serves filterlab's own engine over the engine protocol: requests on stdin,\n"
               "replies on stdout (docs/protocol.md).  For replay and check:\n"
               "  filterlab replay W.wl --engine \"cmd:filterlab serve\"\n"
               "runs the same engine as --engine filterlab, checked only through what the\n"
               "protocol carries (no probe trace).\n"
               "\n"
               "  --plugin SO   load a filter policy / prefix extractor plugin (repeatable)\n"
               "\n"
               "Exit status: 0 at quit or end of input, 1 a write error, 2 bad usage.\n");
}

int fl_cli_serve(int argc, char **argv) {
    const char **plugins = calloc((size_t)argc + 1, sizeof *plugins);
    size_t n = 0;
    if (!plugins) return FL_EXIT_USAGE;
    for (int i = 1; i < argc; i++) {
        static const char *const names[] = { "--plugin" };
        size_t which;
        const char *val;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            free(plugins);
            return FL_EXIT_OK;
        }
        int m = fl_cli_flag(argc, argv, &i, names, 1, &which, &val);
        if (m == 1) { plugins[n++] = val; continue; }
        free(plugins);
        if (m < 0) return fl_cli_bad_usage("serve", usage, "--plugin needs a value");
        return fl_cli_bad_usage("serve", usage, "unknown argument '%s'", argv[i]);
    }
    int status = fl_filterlab_serve(stdin, stdout, plugins, n);
    free(plugins);
    return status;
}
