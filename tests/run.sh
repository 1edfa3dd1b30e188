#!/bin/sh
# run.sh -- the `make check` driver (POSIX sh, run from the repo root).
#
# Runs, each with the plain build and the ASan+UBSan build:
#   1. the unit tests (build/tests/unit, build/asan/tests/unit), counting
#      each binary's closing "N passed, N failed";
#   2. every tests/cli/*.sh, one test each, with $FILTERLAB set to the binary;
#   3. `filterlab replay` of every *.wl under workloads/ (recursively, but not
#      workloads/gen/, which holds generators), expecting exit 0.
# Every failure prints its output and the command that reruns it.  The last
# line is exactly "N passed, N failed"; the exit status is non-zero if any
# test failed.
set -u
cd "$(dirname "$0")/.." || exit 2
FL_SRCDIR=$(pwd)
ASAN_OPTIONS=detect_leaks=1
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export FL_SRCDIR ASAN_OPTIONS UBSAN_OPTIONS

LOG=$(mktemp "${TMPDIR:-/tmp}/fl-check.XXXXXX") || exit 2
trap 'rm -f "$LOG"' EXIT
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
wls=$(find workloads -name '*.wl' -type f ! -path 'workloads/gen/*' 2> /dev/null | sort)
for bin in $BINS; do
    if [ ! -x "$bin" ]; then
        echo "$bin is missing: build it with 'make all asan'" > "$LOG"
        bad "$bin" "make all asan"
        continue
    fi
    for t in tests/cli/*.sh; do
        [ -f "$t" ] || continue
        rerun="FL_SRCDIR=$FL_SRCDIR FILTERLAB=$bin sh $t"
        if FILTERLAB=$bin sh "$t" > "$LOG" 2>&1; then ok "$t ($bin)"; else bad "$t ($bin)" "$rerun"; fi
    done
    for wl in $wls; do
        rerun="$bin replay $wl"
        if "$bin" replay "$wl" > "$LOG" 2>&1; then ok "replay $wl ($bin)"; else bad "replay $wl ($bin)" "$rerun"; fi
    done
done

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
