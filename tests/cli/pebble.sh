#!/bin/sh
# pebble.sh -- Pebble under test (--engine pebble; README, "Testing Pebble"),
# when make built its adapter (Go was there):
#   - every shipped workload either gives filterlab's own results with no
#     violation, or stops with exit 2 at the first line Pebble cannot
#     express, naming it -- but the regression workloads of Pebble's known
#     bug and hazard, each of which must still fail as its entry says;
#   - `replay --known` names the bug and the hazard;
#   - a run is exactly reproducible: the same results and counters twice;
#   - Pebble's SST files are read by filterlab's own reader: P9 on their
#     bits, and a file with one byte flipped is reported (P6);
#   - check --engine pebble with adapters/pebble/known.txt finds nothing but
#     known bugs in its first trials (plain build only);
#   - the standalone reproducer of the known bug shows it;
#   - the adapter's own tests pass, and its sources are gofmt- and vet-clean.
. "$(dirname "$0")/common.inc"
ADAPTER="$FL_SRCDIR/build/go/filterlab-pebble"
if [ ! -x "$ADAPTER" ]; then
    "$FILTERLAB" replay "$FL_SRCDIR/workloads/basic.wl" --engine pebble > "$T/out" 2>&1
    [ $? = 2 ] && grep -q "built without the Pebble adapter" "$T/out" || fail "no adapter, and no clear error"
    echo "pebble.sh: the Pebble adapter is not built (no go): skipped; --engine pebble says so"
    exit 0
fi
KNOWN="$FL_SRCDIR/adapters/pebble/known.txt"

# ---- the shipped workloads
ran=0 stopped=0
for w in $(find "$FL_SRCDIR/workloads" -name '*.wl' ! -path '*/gen/*' ! -path '*/regress/pebble/*' | sort); do
    n=$(echo "$w" | sed 's|.*/workloads/||; s|/|_|g')
    "$FILTERLAB" replay "$w" --call-timeout 60 --engine pebble --results "$T/$n.pbl" > "$T/out" 2>&1
    rc=$?
    if [ $rc = 2 ]; then
        grep -Eq "\.wl:[0-9]+: [a-z_]+ failed: .*(cannot express it|cannot run)" "$T/out" ||
            { cat "$T/out"; fail "$n: exit 2 without naming the line and what Pebble cannot express"; }
        stopped=$((stopped + 1))
        continue
    fi
    [ $rc = 0 ] || { cat "$T/out"; fail "$n on Pebble: exit $rc"; }
    "$FILTERLAB" replay "$w" --results "$T/$n.own" > /dev/null 2>&1 || fail "$n: filterlab's own engine fails it"
    cmp -s "$T/$n.own" "$T/$n.pbl" || { diff "$T/$n.own" "$T/$n.pbl" | head; fail "$n: Pebble's results differ"; }
    ran=$((ran + 1))
done
[ $ran -ge 4 ] || fail "only $ran shipped workloads ran on Pebble"
echo "pebble: $ran shipped workloads with filterlab's results and no violation, $stopped stopped at a line it cannot express"

# ---- the known bug and the hazard: still there on v2.1.7, and named so
W="$FL_SRCDIR/workloads/regress/pebble/seek_prefix_empty.wl"
"$FILTERLAB" replay "$W" --engine pebble --known "$KNOWN" > "$T/spe.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q '^P2 results: line 24 seek: the engine returned 2 item(s), the model 0' "$T/spe.out" &&
    grep -q 'the first violation is known upstream bug pebble-seek-prefix-empty' "$T/spe.out" ||
    { cat "$T/spe.out"; fail "seek_prefix_empty on Pebble v2.1.7: exit $rc"; }
"$FILTERLAB" replay "$W" > /dev/null 2>&1 || fail "seek_prefix_empty fails on filterlab's engine"
W="$FL_SRCDIR/workloads/regress/pebble/split_changed.wl"
"$FILTERLAB" replay "$W" --engine pebble --known "$KNOWN" > "$T/split.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q '^P2 results: line 22 get abc1: the engine returned none, the model v1' "$T/split.out" &&
    grep -q "^P1 no-false-negative: line 22 get abc1: sst [0-9]*'s filter said no (probe 1 of the get), but sst [0-9]* holds the key" "$T/split.out" &&
    grep -q 'the first violation is hazard (unsupported by the engine and undetected by it) pebble-split-changed-under-one-name' "$T/split.out" ||
    { cat "$T/split.out"; fail "split_changed on Pebble v2.1.7: exit $rc"; }
"$FILTERLAB" replay "$W" > /dev/null 2>&1 || fail "split_changed fails on filterlab's engine"
# a violation that no entry matches is said to be none of them
"$FILTERLAB" replay "$W" --engine pebble --known "$FL_SRCDIR/adapters/rocksdb/known.txt" > "$T/none.out" 2>&1
grep -q "the first violation (line 22) is none of .*rocksdb/known.txt's entries" "$T/none.out" ||
    { cat "$T/none.out"; fail "replay --known with a list that does not hold the finding"; }

# ---- determinism
for i in 1 2; do
    "$FILTERLAB" replay "$FL_SRCDIR/workloads/pebble/prefix_scans.wl" --engine pebble --json --results "$T/det$i.txt" |
        sed 's/"elapsed_s":[0-9.e+-]*,"peak_rss_mib":[0-9.e+-]*,//' > "$T/det$i.json" || fail "determinism run $i"
done
cmp -s "$T/det1.json" "$T/det2.json" && cmp -s "$T/det1.txt" "$T/det2.txt" ||
    { diff "$T/det1.json" "$T/det2.json"; fail "two runs of pebble/prefix_scans.wl on Pebble differ"; }
grep -q '"prefix":{"considered":[1-9]' "$T/det1.json" || fail "no prefix filter probe counted on Pebble: $(cat "$T/det1.json")"

# ---- Pebble's SST files, read by filterlab's own reader: P9 on their
# bits, and every SST read (a copy with one byte flipped is reported, P6)
{
    echo 'filterlab-workload 1'
    echo 'open policies="bloom(bits=10)"'
    awk 'BEGIN { for (i = 0; i < 1000; i++) printf "put k%05d v\n", i; print "flush";
                 for (i = 0; i < 1000; i++) printf "get k%05dy\n", i }'
} > "$T/p9.wl"
"$FILTERLAB" replay "$T/p9.wl" --engine pebble --json > "$T/p9.json" 2>&1 || { cat "$T/p9.json"; fail "p9.wl on Pebble"; }
# 999 absent gets probe the one table (k00999y is past its last key): 1000
# keys at 10 bits, 6 probes in 512-bit lines, about 0.9%
grep -Eq '"p9_point":\{"probes":999,"items":999,"measured":[0-9.e-]+,"expected":0\.00[5-9]' "$T/p9.json" ||
    fail "no P9 on Pebble's filter bits: $(cat "$T/p9.json")"
TMPDIR="$T" FILTERLAB_PEBBLE="$FL_SRCDIR/tests/engines/sst_tamper.py" FILTERLAB_TAMPER_REAL="$ADAPTER" \
FILTERLAB_TAMPER_BYTE=2000 \
    "$FILTERLAB" replay "$T/p9.wl" --engine pebble > "$T/tamper.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "^P6 coverage: line 1003 flush: sst 1: its file breaks the engine's own format: .*the filter block .*CRC32C" "$T/tamper.out" ||
    { cat "$T/tamper.out"; fail "a flipped byte in Pebble's SST: exit $rc"; }

case $FILTERLAB in */asan/*) echo "pebble: ok (the hunt and the adapter's own tests in the plain pass)"; exit 0 ;; esac

# ---- the hunt: nothing but known bugs (bounded by trials, not time)
"$FILTERLAB" check --engine pebble --seed 1 --trials 12 --known "$KNOWN" --out "$T/hunt" > "$T/hunt.out" 2> "$T/hunt.err"
rc=$?
[ $rc = 0 ] || { tail -n 20 "$T/hunt.err"; fail "check --engine pebble --seed 1 --trials 12: exit $rc"; }
grep -q '^check: 12 trials, .* seed 1: no violation' "$T/hunt.out" "$T/hunt.err" ||
    { tail -n 5 "$T/hunt.out" "$T/hunt.err"; fail "the hunt's summary"; }
echo "pebble hunt: $(grep -h '^check: 12 trials' "$T/hunt.out" "$T/hunt.err")"

# ---- the standalone reproducer (built by make beside the adapter)
REPRO="$FL_SRCDIR/build/go/seek_prefix_empty"
[ -x "$REPRO" ] || fail "the reproducer $REPRO is not built"
"$REPRO" > "$T/repro.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q '^bug: SeekPrefixGE("") returned 2 key(s) whose prefix is not ""' "$T/repro.out" ||
    { cat "$T/repro.out"; fail "the reproducer of pebble-seek-prefix-empty: exit $rc"; }

# ---- the adapter's own tests, gofmt and vet (the build's flags: its
# compiled packages are reused)
if command -v go > /dev/null 2>&1; then
    cd "$FL_SRCDIR/adapters/pebble" || fail "no adapters/pebble"
    [ -z "$(gofmt -l .)" ] || fail "gofmt: $(gofmt -l .)"
    GOFLAGS=-mod=readonly go vet -tags pebblegozstd -trimpath ./... > "$T/vet.out" 2>&1 ||
        { cat "$T/vet.out"; fail "go vet"; }
    GOFLAGS=-mod=readonly go test -tags pebblegozstd -trimpath ./... > "$T/gotest.out" 2>&1 ||
        { cat "$T/gotest.out"; fail "go test"; }
fi
echo "pebble: ok"
