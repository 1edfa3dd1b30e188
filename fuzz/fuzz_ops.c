/*
 * fuzz_ops.c -- the differential op fuzzer: bytes -> options and ops (the
 * format of fuzz_ops.h) -> the checker (properties/check.h), engine and
 * model side by side, in a fresh database per input, in memory (the memory
 * env of engine.h; FILTERLAB_FUZZ_POSIX=1 puts it in a temporary directory).
 *
 * Any property violation (a broken plugin contract is one), engine error or
 * hung plugin call prints the message and the decoded workload (replay it
 * with `filterlab replay`) and aborts.  FILTERLAB_FUZZ_PRINT=1 prints every input's workload to
 * stdout (to turn corpus files into .wl files).  To fuzz your own code,
 * load it and name its specs:
 *     FILTERLAB_FUZZ_PLUGINS=mine.so:other.so
 *     FILTERLAB_FUZZ_POLICIES="mine(x=1);bloom(bits=10)|mine(x=2)"
 */
#include "fuzz_env.h"
#include "fuzz_ops.h"
#include "../properties/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- Running ------------------------------------------------------------- */

static const fl_workload *running;

static void die(const char *what, const char *msg) {
    fprintf(stderr, "fuzz_ops: %s: %s\n--- the workload (filterlab replay FILE):\n", what, msg);
    if (running) fl_workload_print(running, stderr);
    abort();
}

static void on_violation(void *arg, int property, unsigned line, const char *message) {
    (void)arg; (void)property; (void)line;
    die("property violated", message);
}

static void on_abandon(void *arg, const fl_run_outcome *so_far) {
    (void)arg;
    die("plugin call hung", so_far->message);
}

static void ignore_violation(void *arg, const fl_contract_violation *v) { (void)arg; (void)v; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fl_registry *reg = fuzz_registry();
    size_t ncand;
    const char *const *cand = fuzz_env_list("FILTERLAB_FUZZ_POLICIES", &ncand);
    static bool checked;
    for (size_t i = 0; !checked && i < ncand; i++) {
        char err[1024] = "";
        fl_policy_list list;
        fl_calls *calls;
        if (fl_calls_new(reg, &calls) != FL_OK) abort();
        fl_calls_set_sink(calls, ignore_violation, NULL);     /* the runs find those */
        if (fl_policy_list_parse(reg, calls, cand[i], &list, err, sizeof err) != FL_OK) {
            fprintf(stderr, "FILTERLAB_FUZZ_POLICIES: %s\n", err);
            exit(2);
        }
        fl_policy_list_free(calls, &list);
        fl_calls_free(calls);
    }
    checked = true;

    fl_workload w = { 0 };
    fuzz_decode(data, size, FUZZ_FOR_FILTERLAB, &w);
    running = &w;
    if (getenv("FILTERLAB_FUZZ_PRINT")) fl_workload_print(&w, stdout);
    const char *base = getenv("TMPDIR");
    if (!base || !*base) base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    fl_runner run = {
        .check = { .reg = reg, .path = "fuzz_ops", .check = true, .max_shown = 0, .seed = size,
                   .no_sync = true, .in_memory = !getenv("FILTERLAB_FUZZ_POSIX"),
                   .on_violation = on_violation },
        .scratch = base, .call_timeout = 10, .on_abandon = on_abandon,
    };
    fl_run_outcome out;
    if (fl_run_workload(&run, &w, &out) != FL_OK || out.rc != FL_OK) die("engine error", out.error);
    running = NULL;
    fl_workload_free(&w);
    return 0;
}
