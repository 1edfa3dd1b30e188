/*
 * runner.c -- runs the registered unit tests and prints one line per test
 * and a closing "N passed, N failed".  Usage: unit [SUBSTRING] [--list].
 */
#include "test.h"
#include "../engine/filter.h"
#include "../properties/check.h"              /* fl_remove_tree */

#include <stdarg.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_TESTS 1024

static struct { const char *name, *file; fl_test_fn fn; bool fresh; } tests[MAX_TESTS];
static int test_count;
static int current_failures;
static char tmpdir[4096];

void fl_test_register(const char *name, fl_test_fn fn, const char *file) {
    if (test_count == MAX_TESTS) { fprintf(stderr, "too many tests\n"); exit(2); }
    tests[test_count].name = name;
    tests[test_count].file = file;
    tests[test_count].fn = fn;
    tests[test_count].fresh = false;
    test_count++;
}

void fl_test_register_fresh(const char *name, fl_test_fn fn, const char *file) {
    fl_test_register(name, fn, file);
    tests[test_count - 1].fresh = true;
}

/* Runs test t in a new process (this binary, exec'd with --fresh NAME):
 * its failures, printed there; here only whether there were any. */
static int run_fresh(int t) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        execl("/proc/self/exe", "unit", "--fresh", tests[t].name, (char *)NULL);
        perror("exec /proc/self/exe");
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) return 1;
    if (WIFSIGNALED(status)) fprintf(stderr, "  the test died of signal %d\n", WTERMSIG(status));
    return !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

void fl_test_fail(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    current_failures++;
    fprintf(stderr, "  %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

const char *fl_test_status_name(int status) { return fl_strerror(status); }

const char *fl_test_srcdir(void) {
    const char *s = getenv("FL_SRCDIR");
    return s && *s ? s : ".";
}

uint64_t fl_test_rand(uint64_t *state) {
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    return *state >> 33;
}

bool fl_test_next_short_key(uint8_t *k, size_t *len) {
    if (*len < 3) { k[(*len)++] = 'a'; return true; }
    while (*len > 0 && k[*len - 1] == 'e') (*len)--;
    if (*len == 0) return false;
    k[*len - 1]++;
    return true;
}

const char *fl_test_tmpdir(void) {
    if (!tmpdir[0]) {
        /* TMPDIR, else a tmpfs: tests create and delete many small files */
        const char *base = getenv("TMPDIR");
        if (!base || !*base) base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(tmpdir, sizeof tmpdir, "%s/fltest.XXXXXX", base);
        if (!mkdtemp(tmpdir)) { perror("mkdtemp"); exit(2); }
    }
    return tmpdir;
}

static void drop_tmpdir(void) {
    const char *keep = getenv("FL_TEST_KEEP");
    if (tmpdir[0] && !(keep && strcmp(keep, "1") == 0))
        fl_remove_tree(tmpdir);
    tmpdir[0] = 0;
}

int main(int argc, char **argv) {
    const char *filter = NULL;
    int passed = 0, failed = 0;
    if (argc == 3 && strcmp(argv[1], "--fresh") == 0) {      /* one test, for run_fresh */
        for (int t = 0; t < test_count; t++) {
            if (strcmp(tests[t].name, argv[2]) != 0) continue;
            tests[t].fn();
            drop_tmpdir();
            return current_failures ? 1 : 0;
        }
        fprintf(stderr, "no test named %s\n", argv[2]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--list") == 0) {
            for (int t = 0; t < test_count; t++) printf("%s\n", tests[t].name);
            return 0;
        }
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: %s [SUBSTRING] [--list]\n"
                   "Runs the unit tests whose name contains SUBSTRING (all by default).\n"
                   "FL_TEST_KEEP=1 keeps each test's temporary directory.\n", argv[0]);
            return 0;
        }
        filter = argv[i];
    }
    for (int t = 0; t < test_count; t++) {
        if (filter && !strstr(tests[t].name, filter)) continue;
        current_failures = 0;
        if (tests[t].fresh) current_failures = run_fresh(t);
        else tests[t].fn();
        if (current_failures) {
            printf("FAIL %s (%s)\n", tests[t].name, tests[t].file);
            fprintf(stderr, "  rerun: FL_TEST_KEEP=1 %s %s\n", argv[0], tests[t].name);
            failed++;
        } else {
            printf("ok   %s\n", tests[t].name);
            passed++;
        }
        fflush(stdout);
        drop_tmpdir();
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
