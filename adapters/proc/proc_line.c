/*
 * proc_line.c -- the protocol lines C adapters write (proc_line.h).
 */
#include "proc_line.h"

#include "../../workloads/workload.h"

#include <string.h>

static void word(FILE *f, const char *s) {
    fputc(' ', f);
    fl_bytes_print(f, (const uint8_t *)(s ? s : ""), s ? strlen(s) : 0);
}

void fl_proc_print_violation(FILE *f, const fl_contract_violation *v) {
    fprintf(f, "violation %s", fl_object_kind_name(v->object));
    word(f, v->method);
    word(f, v->plugin);
    word(f, v->who);
    word(f, v->what);
    fputc('\n', f);
}
