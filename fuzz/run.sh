#!/bin/sh
# run.sh -- `make fuzz`: one libFuzzer campaign per harness named on the
# command line, each for FUZZ_SECONDS (60) with -fork=FUZZ_JOBS (1).
#
# Each harness reads its seeds from fuzz/corpus/HARNESS/ (never written) and
# keeps what it finds in build/fuzz/work/HARNESS/ (kept between runs, so
# campaigns resume).  Crashes, leaks, timeouts and OOMs are written to
# fuzz/findings/HARNESS-* (git-ignored); the log of each campaign is
# build/fuzz/HARNESS.log.  Prints a line per harness: the edges the seeds
# and the work corpus cover (counted by a plain -runs=0 pass), and
# libFuzzer's last fork-mode status (cov, ft, corpus, exec/s).  Exits 1 if
# any new file appeared in fuzz/findings/.
#
# A finding: reproduce with build/fuzz/HARNESS FILE, fix it, then copy the
# minimized input (build/fuzz/HARNESS -minimize_crash=1 -runs=10000 FILE)
# into fuzz/corpus/HARNESS/ as a regression; `make check` replays it.
set -u
cd "$(dirname "$0")/.." || exit 2
secs=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-1}
mkdir -p fuzz/findings build/fuzz/work
status=0
for h in "$@"; do
    work=build/fuzz/work/$h
    log=build/fuzz/$h.log
    mkdir -p "$work" "fuzz/corpus/$h"
    before=$(ls fuzz/findings | grep -c "^$h-")
    # (a harness without a dictionary runs without one: libFuzzer refuses
    # a -dict that names no file)
    dict=
    [ -f "fuzz/$h.dict" ] && dict="-dict=fuzz/$h.dict"
    build/fuzz/$h -fork="$jobs" -max_total_time="$secs" -timeout=25 -rss_limit_mb=2048 \
        $dict -artifact_prefix="fuzz/findings/$h-" \
        "$work" "fuzz/corpus/$h" > "$log" 2>&1
    rc=$?
    after=$(ls fuzz/findings | grep -c "^$h-")
    last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1)
    files=$(ls "$work" | wc -l)
    # Edges covered by the whole corpus, as a plain (non-fork) run counts them.
    edges=$(build/fuzz/$h -runs=0 "$work" "fuzz/corpus/$h" 2>&1 | grep -E 'INITED' | sed 's/.*cov: \([0-9]*\).*/\1/')
    if [ "$after" -ne "$before" ] || [ $rc -ne 0 ]; then
        status=1
        echo "FAIL $h: exit $rc, $((after - before)) new finding(s) in fuzz/findings/$h-* (log: $log)"
        grep -E 'ERROR|SUMMARY|fuzz_ops:|disagree|abort|differs' "$log" | head -n 5 | sed 's/^/    /'
    else
        echo "ok   $h: ${secs}s x $jobs, $edges edges, work corpus $files files; last status: ${last#*: }"
    fi
done
exit $status
