/*
 * fuzz_workload.c -- the workload text parser and printer (SPEC 9).
 *
 * Any bytes go to fl_workload_parse.  When they parse, the workload is
 * printed, the print is parsed again (it must parse) and printed again:
 * the two prints must be byte-for-byte equal.  Aborts otherwise.
 */
#include "../workloads/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses text and prints it into a new buffer; 0, or -1 when it does not parse. */
static int parse_and_print(const char *text, size_t len, char **out, size_t *out_len, char *err) {
    fl_workload w = { 0 };
    if (fl_workload_parse(text, len, "fuzz.wl", &w, err, 512) != 0) return -1;
    FILE *f = open_memstream(out, out_len);
    if (!f) abort();
    if (fl_workload_print(&w, f) != 0) { fprintf(stderr, "print failed\n"); abort(); }
    fclose(f);
    fl_workload_free(&w);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char err[512], *first = NULL, *second = NULL;
    size_t first_len = 0, second_len = 0;
    if (parse_and_print((const char *)data, size, &first, &first_len, err) != 0) return 0;
    if (parse_and_print(first, first_len, &second, &second_len, err) != 0) {
        fprintf(stderr, "the printed workload does not parse: %s\n--- printed:\n%s", err, first);
        abort();
    }
    if (first_len != second_len || memcmp(first, second, first_len) != 0) {
        fprintf(stderr, "print(parse(print(w))) differs from print(w)\n--- first:\n%s--- second:\n%s",
                first, second);
        abort();
    }
    free(first);
    free(second);
    return 0;
}
