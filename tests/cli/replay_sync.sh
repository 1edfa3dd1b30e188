#!/bin/sh
# replay_sync.sh -- what a replay syncs: into a temporary directory (no
# --db), nothing, since the directory is removed afterwards; with --db,
# every write that must be durable (the SSTs, the MANIFEST, the directory);
# and a workload with a crash op syncs everything even without --db (what a
# crash keeps is what was synced), with --no-check too.  fsync and fdatasync are counted by a
# shim preloaded into the binary, which appends a byte to $FL_FSYNC_LOG per
# call (a byte per call, so that a forked child's calls count too).
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

cat > "$T/shim.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
static void note(void) {
    const char *p = getenv("FL_FSYNC_LOG");
    if (!p) return;
    int fd = open(p, O_WRONLY | O_APPEND | O_CREAT, 0600);
    if (fd < 0) return;
    if (write(fd, "s", 1) < 0) { /* the count comes out short: the test fails */ }
    close(fd);
}
int fsync(int fd) { note(); return ((int (*)(int))dlsym(RTLD_NEXT, "fsync"))(fd); }
int fdatasync(int fd) { note(); return ((int (*)(int))dlsym(RTLD_NEXT, "fdatasync"))(fd); }
C
${CC:-cc} -shared -fPIC "$T/shim.c" -o "$T/shim.so" -ldl || fail "cannot build the fsync shim"

printf 'filterlab-workload 1\nput apple 1\nflush\nput banana 2\nflush\nget apple\n' > "$T/write.wl"
printf 'filterlab-workload 1\nput apple 1\nflush\nput banana 2\ncrash\nget apple\nget banana\n' > "$T/crash.wl"

# syncs WORKLOAD ARGS...: the replay's fsync and fdatasync calls
syncs() {
    rm -f "$T/log"
    FL_FSYNC_LOG="$T/log" LD_PRELOAD="$T/shim.so" "$FILTERLAB" replay "$@" > "$T/out" 2>&1 ||
        fail "replay $*: $(tail -3 "$T/out")"
    if [ -f "$T/log" ]; then wc -c < "$T/log" | tr -d ' '; else echo 0; fi
}

# the shim works: a replay into --db syncs (two flushes: SSTs, MANIFEST, directory)
n=$(syncs "$T/write.wl" --db "$T/db")
[ "$n" -gt 0 ] || fail "replay --db made no fsync (the shim counts nothing?)"
n=$(syncs "$T/write.wl")
[ "$n" -eq 0 ] || fail "replay without --db made $n fsync(s) into a directory it removes afterwards"
n=$(syncs "$T/crash.wl")
[ "$n" -gt 0 ] || fail "replay of a workload with a crash op made no fsync: the crash would keep nothing"
grep -q "crashes 1" "$T/out" || fail "the crash workload did not crash: $(cat "$T/out")"

# --no-check crashes too, with no model to compare: apple was flushed,
# banana only in the memtable, which the crash lost
"$FILTERLAB" replay "$T/crash.wl" --no-check --results "$T/res" > "$T/out" 2>&1 ||
    fail "replay --no-check of the crash workload: $(tail -n 3 "$T/out")"
grep -q "crashes 1" "$T/out" || fail "replay --no-check: the crash workload did not crash: $(cat "$T/out")"
grep -qx '6 get apple -> 1' "$T/res" && grep -qx '7 get banana -> none' "$T/res" ||
    fail "replay --no-check of the crash workload: results $(cat "$T/res")"
exit 0
