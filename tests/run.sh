#!/bin/sh
# run.sh -- the `make check` driver (POSIX sh, run from the repo root).
#
# Runs, each with the plain build and the ASan+UBSan build:
#   1. the unit tests (build/tests/unit, build/asan/tests/unit), counting
#      each binary's closing "N passed, N failed";
#   2. every tests/cli/*.sh, one test each, with $FILTERLAB set to the binary;
#   3. `filterlab replay` of every *.wl under workloads/ (recursively, but not
#      workloads/gen/, which holds generators), expecting exit 0;
#   4. the fuzz corpora through the standalone fuzz drivers;
#   5. a bounded `filterlab check` run (built-ins, the example plugins, ASan).
# Every failure prints its output and the command that reruns it.  The last
# line is exactly "N passed, N failed"; the exit status is non-zero if any
# test failed.
set -u
cd "$(dirname "$0")/.." || exit 2

# run.sh --one DIR N KIND BIN TARGET: one job of sections 2 and 3 (below),
# its output in DIR/N.log, its exit status and seconds in DIR/N.rc.
if [ "${1:-}" = --one ]; then
    t0=$(date +%s)
    if [ "$4" = cli ]; then FILTERLAB=$5 sh "$6" > "$2/$3.log" 2>&1
    else "$5" replay "$6" > "$2/$3.log" 2>&1; fi
    echo "$? $(($(date +%s) - t0))" > "$2/$3.rc"
    exit 0
fi
FL_SRCDIR=$(pwd)
ASAN_OPTIONS=detect_leaks=1
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export FL_SRCDIR ASAN_OPTIONS UBSAN_OPTIONS

# Tests create and delete many small files and databases: on a tmpfs when
# there is one and TMPDIR does not say otherwise.
SCRATCH=
if [ -z "${TMPDIR:-}" ] && [ -w /dev/shm ]; then
    SCRATCH=$(mktemp -d /dev/shm/fl-check.XXXXXX) && TMPDIR=$SCRATCH && export TMPDIR
fi
LOG=$(mktemp "${TMPDIR:-/tmp}/fl-check.XXXXXX") || exit 2
trap 'rm -f "$LOG"; [ -z "$SCRATCH" ] || rm -rf "$SCRATCH"' EXIT
trap 'exit 130' INT TERM

passed=0
failed=0
BINS="build/filterlab build/asan/filterlab"
UNITS="build/tests/unit build/asan/tests/unit"

ok() { passed=$((passed + 1)); echo "ok   $*"; }

# bad WHAT RERUN: counts a failure, shows the log's tail and how to rerun.
bad() {
    failed=$((failed + 1))
    echo "FAIL $1"
    tail -n 40 "$LOG" | sed 's/^/    /'
    echo "    rerun: $2"
}

# ---- 1. unit tests ---------------------------------------------------------
for unit in $UNITS; do
    rerun="FL_SRCDIR=$FL_SRCDIR ASAN_OPTIONS=$ASAN_OPTIONS UBSAN_OPTIONS=$UBSAN_OPTIONS $unit"
    if [ ! -x "$unit" ]; then
        echo "$unit is missing: build it with 'make all asan'" > "$LOG"
        bad "unit tests $unit" "make all asan && $rerun"
        continue
    fi
    "$unit" > "$LOG" 2>&1
    rc=$?
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$LOG" | tail -n 1)
    if [ -z "$line" ]; then
        echo "(exit status $rc, no closing 'N passed, N failed' line)" >> "$LOG"
        bad "unit tests $unit" "$rerun"
        continue
    fi
    p=${line%% passed*}
    f=${line#*, }
    f=${f%% failed}
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$f" -ne 0 ]; then
        echo "FAIL unit tests $unit: $f of $((p + f)) failed"
        grep -E '^FAIL|^  ' "$LOG" | head -n 60 | sed 's/^/    /'
        echo "    rerun: $rerun [NAME]"
    elif [ $rc -ne 0 ]; then
        echo "(all $p passed, but the exit status is $rc: a sanitizer report?)" >> "$LOG"
        bad "unit tests $unit" "$rerun"
    else
        echo "ok   unit tests $unit ($p tests)"
    fi
done

# ---- 2. command-line tests and 3. shipped workloads -------------------------
# FL_CHECK_JOBS at a time (default: one per CPU), the command-line tests
# first, those of the ASan build first of all (the slowest); reported in
# that order once all have run.
JOBS=${FL_CHECK_JOBS:-$(nproc 2> /dev/null || echo 2)}
OUT=$(mktemp -d "${TMPDIR:-/tmp}/fl-check-jobs.XXXXXX") || exit 2
trap 'rm -f "$LOG"; rm -rf "$OUT"; [ -z "$SCRATCH" ] || rm -rf "$SCRATCH"' EXIT
wls=$(find workloads -name '*.wl' -type f ! -path 'workloads/gen/*' 2> /dev/null | sort)
: > "$OUT/jobs"
for bin in build/asan/filterlab build/filterlab; do
    [ -x "$bin" ] || continue
    for t in tests/cli/*.sh; do [ -f "$t" ] && echo "cli $bin $t"; done >> "$OUT/jobs"
done
for bin in $BINS; do
    if [ ! -x "$bin" ]; then
        echo "$bin is missing: build it with 'make all asan'" > "$LOG"
        bad "$bin" "make all asan"
        continue
    fi
    for wl in $wls; do echo "replay $bin $wl"; done >> "$OUT/jobs"
done
awk '{ print NR, $0 }' "$OUT/jobs" > "$OUT/numbered"
xargs -P "$JOBS" -L 1 sh tests/run.sh --one "$OUT" < "$OUT/numbered"
SAVED_LOG=$LOG
while read -r n kind bin target; do
    rc=1; secs=?
    [ -f "$OUT/$n.rc" ] && read -r rc secs < "$OUT/$n.rc"
    LOG=$OUT/$n.log
    [ -f "$LOG" ] || echo "(it did not run)" > "$LOG"
    if [ "$kind" = cli ]; then
        if [ "$rc" = 0 ]; then ok "$target ($bin, $secs s)"
        else bad "$target ($bin)" "FL_SRCDIR=$FL_SRCDIR FILTERLAB=$bin sh $target"; fi
    elif [ "$rc" = 0 ]; then ok "replay $target ($bin)"
    else bad "replay $target ($bin)" "$bin replay $target"; fi
done < "$OUT/numbered"
LOG=$SAVED_LOG

# ---- 4. fuzz corpora (fuzz/fuzz.mk) -------------------------------------------
# Each harness with a corpus fuzz/corpus/HARNESS/ replays it, and any
# fuzz/findings/HARNESS-*, through the standalone driver: one test per
# harness with the gcc build and one with the ASan+UBSan build.
for dir in fuzz/corpus/*/; do
    h=$(basename "$dir")
    # fuzz_rocksdb exists only when filterlab is built with RocksDB
    if [ "$h" = fuzz_rocksdb ] && build/filterlab --version | grep -q "built without RocksDB"; then
        ok "fuzz corpus $h (skipped: built without RocksDB)"
        continue
    fi
    inputs="fuzz/corpus/$h"
    for f in fuzz/findings/"$h"-*; do [ -f "$f" ] && inputs="$inputs $f"; done
    for drv in build/fuzz-regress/$h build/fuzz-regress/asan/$h; do
        rerun="FL_SRCDIR=$FL_SRCDIR ASAN_OPTIONS=$ASAN_OPTIONS UBSAN_OPTIONS=$UBSAN_OPTIONS $drv $inputs"
        if [ ! -x "$drv" ]; then
            echo "$drv is missing: build it with 'make fuzz-regress-build'" > "$LOG"
            bad "fuzz corpus $h ($drv)" "make fuzz-regress-build && $rerun"
        elif "$drv" $inputs > "$LOG" 2>&1; then
            ok "fuzz corpus $h ($drv, $(tail -n 1 "$LOG"))"
        else
            bad "fuzz corpus $h ($drv)" "$rerun"
        fi
    done
done

# ---- 5. a bounded property run (filterlab check) --------------------------------
# Random trials for FL_CHECK_SECONDS (default 45) with the built-in policies,
# then 15 s around the example plugins, then 15 s under ASan+UBSan.  The seed
# is fixed (FL_CHECK_SEED, default 1) so a failure replays; the output names
# the minimized workload and the command that replays it.
seed=${FL_CHECK_SEED:-1}
secs=${FL_CHECK_SECONDS:-45}
ex=build/examples
mkdir -p "$ex"
check_run() {   # NAME BINARY ARGS...
    name=$1; bin=$2; shift 2
    rerun="$bin check --seed $seed $*"
    if "$bin" check --seed "$seed" --out build/check-failures "$@" > "$LOG" 2>&1; then
        ok "filterlab check $name ($(tail -n 1 "$LOG" | sed 's/^check: //'))"
    else
        bad "filterlab check $name" "$rerun"
    fi
}
check_run builtins build/filterlab --time "$secs"
if ${CC:-cc} -shared -fPIC -Iengine examples/plugins/keyrange_policy.c -o "$ex/keyrange.so" &&
   ${CC:-cc} -shared -fPIC -Iengine examples/plugins/tenant_extractor.c -o "$ex/tenant.so"; then
    check_run "examples" build/filterlab --time 15 --plugin "$ex/keyrange.so" --policy keyrange \
        --plugin "$ex/tenant.so" --extractor tenant:1 --extractor tenant:2
else
    echo "cannot build the example plugins" > "$LOG"
    bad "filterlab check examples" "make"
fi
check_run asan build/asan/filterlab --time 15

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
