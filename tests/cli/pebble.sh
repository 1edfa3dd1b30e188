#!/bin/sh
# pebble.sh -- Pebble under test (--engine pebble; docs/pebble.md),
# when make built its adapter (Go was there):
#   - every shipped workload either gives filterlab's own results with no
#     violation, or stops with exit 2 at the first line Pebble cannot
#     express, naming it -- but the regression workloads of Pebble's known
#     bug and hazard, each of which must still fail as its entry says;
#   - `replay --known` names the bug and the hazard;
#   - a run is exactly reproducible: the same results and counters twice;
#   - plugins run inside Pebble (a user's policy as its FilterPolicy, a
#     user's extractor as its Split), and broken ones are caught there: a
#     false negative that changes no result too, by the get's probe lines
#     (P1);
#   - Pebble's SST files are read by filterlab's own reader: P9 on their
#     bits, and a file with one byte flipped is reported (P6);
#   - a get's and a prefix read's probes are held exactly to Pebble's read
#     rules worked out from those files: each part of a rule, left out,
#     makes reads P3; P9 judges the gets beside an L6 table by the tables
#     they ask; tables written while open are held to the configured bits;
#   - check --engine pebble with adapters/pebble/known.txt finds nothing but
#     known bugs in its first trials, with the user's policy and extractor
#     drawn too (plain build only);
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

# ---- the shipped workloads (a stop at a line Pebble cannot express does
# not hide what went wrong before it: the workload cut there must pass, or
# fail as an entry of known.txt says -- rocksdb/partitioned_filters.wl
# changes the Split under one name at a reopen, the hazard, before Pebble
# stops at a line it cannot express)
ran=0 stopped=0 hazards=0
for w in $(find "$FL_SRCDIR/workloads" -name '*.wl' ! -path '*/gen/*' ! -path '*/regress/pebble/*' | sort); do
    n=$(echo "$w" | sed 's|.*/workloads/||; s|/|_|g')
    "$FILTERLAB" replay "$w" --call-timeout 60 --engine pebble --results "$T/$n.pbl" > "$T/out" 2>&1
    rc=$?
    if [ $rc = 2 ]; then
        grep -Eq "\.wl:[0-9]+: [a-z_]+ failed: .*(cannot express it|cannot run)" "$T/out" ||
            { cat "$T/out"; fail "$n: exit 2 without naming the line and what Pebble cannot express"; }
        stopped=$((stopped + 1))
        if grep -q '^P[0-9]' "$T/out"; then
            at=$(sed -n 's/.*\.wl:\([0-9]*\): [a-z_]* failed: .*/\1/p' "$T/out" | head -n 1)
            head -n $((at - 1)) "$w" > "$T/cut.wl"
            "$FILTERLAB" replay "$T/cut.wl" --engine pebble --known "$KNOWN" > "$T/cut.out" 2>&1
            grep -q ": the first violation is .* pebble-[a-z0-9-]*: " "$T/cut.out" ||
                { cat "$T/out" "$T/cut.out"; fail "$n: violations before line $at, where Pebble stops, that no entry of known.txt explains"; }
            hazards=$((hazards + 1))
        fi
        continue
    fi
    [ $rc = 0 ] || { cat "$T/out"; fail "$n on Pebble: exit $rc"; }
    "$FILTERLAB" replay "$w" --results "$T/$n.own" > /dev/null 2>&1 || fail "$n: filterlab's own engine fails it"
    cmp -s "$T/$n.own" "$T/$n.pbl" || { diff "$T/$n.own" "$T/$n.pbl" | head; fail "$n: Pebble's results differ"; }
    ran=$((ran + 1))
done
[ $ran -ge 4 ] || fail "only $ran shipped workloads ran on Pebble"
echo "pebble: $ran shipped workloads with filterlab's results and no violation, $stopped stopped at a line it cannot express ($hazards after a known entry's violations)"

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
    grep -q "^P1 no-false-negative: line 24 seek: sst [0-9]*'s filter said no (probe 1 of the seek), but sst [0-9]* holds a key starting with the prefix" "$T/split.out" &&
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

# ---- gets beside an L6 table: P9 judges the L0 probes, the tables a get
# asks being worked out from the files (not RocksDB's candidates, which
# take the L6 table in too)
"$FILTERLAB" replay "$FL_SRCDIR/workloads/pebble/l6_gets.wl" --engine pebble --json > "$T/l6.json" ||
    fail "l6_gets.wl on Pebble: $(cat "$T/l6.json")"
grep -q '"point":{"considered":199,"unfiltered":0,' "$T/l6.json" &&
    grep -q '"p9_point":{"probes":199,"items":199,' "$T/l6.json" ||
    fail "l6_gets.wl: the gets' 199 L0 probes are not all judged by P9: $(cat "$T/l6.json")"

# ---- plugins inside Pebble: a user's policy as Pebble's FilterPolicy (the
# whole key its Split), a user's extractor as its Split under a bloom of
# whole_key=0, through filterlab's call wrappers in the adapter's plugin host
build_plugin "$FL_SRCDIR/tests/plugins/mine.c" "$T/mine.so"
printf '%s\n' 'filterlab-workload 1' \
    'open policies="mine(bits=10)" memtable_bytes=512' \
    'put ab1 v1' 'put ab2 v2' 'put cd1 v3' 'flush' 'put ab3 v4' 'del ab2' 'flush' \
    'get ab1' 'get ab2' 'get zz9' 'get ab7' 'scan_prefix ab' 'scan_prefix zz' 'compact full' \
    'get ab1' 'get ab2' 'scan_prefix ab' 'reopen policies="bloom(bits=8,whole_key=0,prefix=myex:2)"' \
    'put ab5 v5' 'put cd7 v7' 'flush' 'get ab3' 'get ab2' 'get ab5' 'get cd9' 'scan_prefix cd' 'scan_prefix ab' \
    'seek ab n=3' 'compact full' 'get cd7' 'get ce1' 'reopen policies="mine(bits=10)"' 'get ab1' 'get ab2' 'get zz1' > "$T/mine.wl"
"$FILTERLAB" replay "$T/mine.wl" --plugin "$T/mine.so" --engine pebble --json --results "$T/mine.pbl" \
    > "$T/mine.json" 2> "$T/mine.err" || { cat "$T/mine.err"; fail "a correct plugin inside Pebble"; }
"$FILTERLAB" replay "$T/mine.wl" --plugin "$T/mine.so" --results "$T/mine.own" > /dev/null 2>&1 ||
    fail "mine.wl on filterlab's engine"
cmp -s "$T/mine.own" "$T/mine.pbl" || { diff "$T/mine.own" "$T/mine.pbl"; fail "results differ with a plugin inside Pebble"; }
grep -q '"point":{"considered":[1-9][0-9]*,"unfiltered":0,"positive":[0-9]*,"negative":[1-9]' "$T/mine.json" &&
    grep -q '"prefix":{"considered":[1-9][0-9]*,"unfiltered":[0-9]*,"positive":[1-9]' "$T/mine.json" ||
    fail "no filter probe of the plugin counted inside Pebble: $(cat "$T/mine.json")"
# a broken one is caught there as in filterlab's engine (replay_misbehave.sh;
# slatedb.sh's workload as two: Pebble writes a table with one policy)
build_plugin "$FL_SRCDIR/tests/plugins/misbehave.c" "$T/mis.so"
printf '%s\n' 'filterlab-workload 1' 'open policies="broken" memtable_bytes=200' \
    'put abc 1' 'put b 3' 'flush' 'get abc' 'get zzz' 'scan_prefix ab' 'compact full' 'get abc' > "$T/mis.wl"
"$FILTERLAB" replay "$T/mis.wl" --plugin "$T/mis.so" --engine pebble > "$T/mis.out" 2>&1
rc=$?
[ $rc = 1 ] || { cat "$T/mis.out"; fail "a broken plugin inside Pebble: exit $rc, not 1"; }
grep -q "^P10 bad-input: line 5 flush: builder of policy of kind 'broken' from plugin $T/mis.so broke its contract in build: build failed" "$T/mis.out" ||
    { cat "$T/mis.out"; fail "the broken policy's build inside Pebble is not P10"; }
grep -q "replay: filterlab replay $T/mis.wl --plugin $T/mis.so --engine pebble" "$T/mis.out" ||
    fail "the replay line does not name the plugin and the engine: $(grep 'replay:' "$T/mis.out")"
# the liar's prefix past the key's end is P7; the wrapper's fail-safe
# answer (no prefix) is a key Pebble's Split cannot take: the put is then
# refused, as any key without a prefix (exit 2, naming the line)
sed 's/policies="broken"/policies="bloom(bits=10,whole_key=0,prefix=liar)"/' "$T/mis.wl" > "$T/liar.wl"
"$FILTERLAB" replay "$T/liar.wl" --plugin "$T/mis.so" --engine pebble > "$T/liar.out" 2>&1
rc=$?
[ $rc = 2 ] &&
    grep -q "^P7 extractor-contract: line 3 put abc: extractor \"liar\" of kind 'liar' from plugin $T/mis.so broke its contract in prefix_len" "$T/liar.out" &&
    grep -q "liar.wl:4: put failed: pebble cannot express it: .*the key has no prefix under liar" "$T/liar.out" ||
    { cat "$T/liar.out"; fail "the liar extractor inside Pebble: exit $rc"; }
# the mutant that forgets tombstones is harmless inside Pebble: its writers
# get keys only (each a put), so its filters hold the deleted keys too
build_plugin "$FL_SRCDIR/tests/mutants/ignores_tombstones.c" "$T/it.so"
"$FILTERLAB" replay "$FL_SRCDIR/tests/mutants/ignores_tombstones.wl" --plugin "$T/it.so" --engine pebble > "$T/it.out" 2>&1 ||
    { cat "$T/it.out"; fail "the tombstone-forgetting plugin inside Pebble (which gives it no tombstone)"; }
# a false negative that changes no result is P1, by the probe lines alone
# (a plugin's filter under the whole-key Split: prefix reads probe none,
# so slatedb.sh's rejects_prefix.c case has no Pebble counterpart)
expect_lone_p1 pebble
# and one that hangs or crashes is a P10 naming the request it was in
build_plugin "$FL_SRCDIR/tests/plugins/hang.c" "$T/hang.so"
for how in might_match crash; do
    printf '%s\n' 'filterlab-workload 1' "open policies=\"hang(in=$how)\"" 'put a 1' 'flush' 'get a' > "$T/$how.wl"
    "$FILTERLAB" replay "$T/$how.wl" --plugin "$T/hang.so" --engine pebble --call-timeout 2 > "$T/$how.out" 2>&1
    echo $? > "$T/$how.rc"
done
[ "$(cat "$T/might_match.rc")" = 1 ] &&
    grep -q '^P10 bad-input: line 5 get a: engine pebble: get did not return within 2 s' "$T/might_match.out" ||
    { cat "$T/might_match.out"; fail "a plugin that hangs inside Pebble"; }
[ "$(cat "$T/crash.rc")" = 1 ] &&
    grep -q "^P10 bad-input: .*crash.wl:5: get: the adapter pebble .* was killed by signal 11 (Segmentation fault) during \`get a\`" "$T/crash.out" ||
    { cat "$T/crash.out"; fail "a plugin that crashes inside Pebble"; }

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
# with the user's policy and extractor drawn in (they run inside Pebble)
"$FILTERLAB" check --engine pebble --plugin "$T/mine.so" --policy "mine(bits=10)" --extractor "myex:2" --seed 1 \
    --trials 4 --ops 300 --known "$KNOWN" --out "$T/hunt2" > "$T/hunt2.out" 2> "$T/hunt2.err"
rc=$?
[ $rc = 0 ] && grep -q '^check: 4 trials, .* seed 1: no violation' "$T/hunt2.out" "$T/hunt2.err" ||
    { tail -n 20 "$T/hunt2.out" "$T/hunt2.err"; fail "check --engine pebble with a plugin: exit $rc"; }
for i in 0 1 2 3; do
    "$FILTERLAB" check --engine pebble --plugin "$T/mine.so" --policy "mine(bits=10)" --extractor "myex:2" --seed 1 \
        --trial $i --print
done > "$T/drawn.wl" 2>&1
grep -q 'policies="\{0,1\}mine(bits=10)' "$T/drawn.wl" && grep -q 'prefix=myex:2' "$T/drawn.wl" ||
    fail "the plugin's specs are not drawn into Pebble's trials: $(grep -h 'open' "$T/drawn.wl")"

# ---- a read's probes are held exactly to Pebble's rules, worked out from
# the tables' files (adapters/pebble/pebble_get.c): with any one part of a
# rule left out, a shipped workload is P3 on its reads (the plain build
# only: a mutant links build/obj's objects).  A get's rule on tombstones.wl;
# a prefix read's (its level iterators) on prefix_scans.wl without the L0
# sublevels (every L0 table one run), on seeks.wl with a table loaded whose
# smallest key's prefix is past the seek's
case $FILTERLAB in */asan/*) ;; *)
    for m in 'l6_filters_read:tombstones:s/v\[i\].level < 6/v[i].level < 7/' \
             'memtable_delete_forgotten:tombstones:s/bool deleted = mem_deleted;/bool deleted = mem_deleted \&\& false;/' \
             'range_delete_goes_on:tombstones:s/if (tomb) return FL_OK;/(void)0;/' \
             'obsolete_table_read:tombstones:s/bool maybe = !(pr->has_obsolete_collector \&\& pr->table_all_obsolete);/bool maybe = pr != NULL;/' \
             'l0_one_run:prefix_scans:s/\&\& sub\[j\] + 1 > sub\[i\]) sub\[i\] = sub\[j\] + 1;/\&\& sub[j] + 1 > sub[i]) sub[i] = 0;/' \
             'smallest_prefix_loaded:seeks:s/        if (fl_slice_cmp(sp, prefix) > 0) continue;/        (void)sp;/'; do
        name=${m%%:*} rest=${m#*:}
        wl=${rest%%:*}
        mutant "$name" adapters/pebble/pebble_get.c "${rest#*:}"
        FILTERLAB_PEBBLE=$ADAPTER "$T/$name" replay "$FL_SRCDIR/workloads/pebble/$wl.wl" --engine pebble \
            > "$T/$name.out" 2>&1
        rc=$?
        [ $rc = 1 ] && grep -Eq "^P3 skip-counts: line [0-9]* (get|scan_prefix|seek).*: the (get|scan_prefix|seek)'s SST filters said maybe [0-9]* and no [0-9]* time\(s\), but its live SSTs, read from their files, say" "$T/$name.out" ||
            { head -5 "$T/$name.out"; fail "the read rules without their part $name are not P3 on $wl.wl (exit $rc)"; }
        printf 'pebble: without %s, %s read(s) of %s.wl are P3\n' "$name" "$(grep -c '^P3' "$T/$name.out")" "$wl"
    done
    # a table written while the database is open is held to the configured
    # bits per key (P5), not to whichever fits its size: a reader that takes
    # bits=N for N+4 finds the tables Pebble wrote at N wrong
    mutant bits_off adapters/proc/proc_named.c 's/? (int)v : -1;/? (int)v + 4 : -1;/'
    FILTERLAB_PEBBLE=$ADAPTER "$T/bits_off" replay "$FL_SRCDIR/workloads/pebble/l6_gets.wl" --engine pebble \
        > "$T/bits_off.out" 2>&1
    rc=$?
    [ $rc = 1 ] && grep -q "^P5 exact-verdicts: line 211 flush: sst [0-9]*: the filter (325 bytes, 5 lines, 6 probes) is not what Pebble writes for the 200 distinct hashes of this table's 200 points at the configured 14 bits per key (7 lines, 9 probes)" "$T/bits_off.out" ||
        { head -5 "$T/bits_off.out"; fail "tables not written at the configured bits per key are not P5 (exit $rc)"; } ;;
esac

# ---- the standalone reproducer (built by make beside the adapter)
REPRO="$FL_SRCDIR/build/go/seek_prefix_empty"
[ -x "$REPRO" ] || fail "the reproducer $REPRO is not built"
"$REPRO" > "$T/repro.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q '^bug: SeekPrefixGE("") returned 2 key(s) whose prefix is not ""' "$T/repro.out" ||
    { cat "$T/repro.out"; fail "the reproducer of pebble-seek-prefix-empty: exit $rc"; }

# ---- the adapter's own tests, gofmt and vet (the build's flags and cgo
# settings, the Makefile's PEBBLE_CGO: its compiled packages are reused)
if command -v go > /dev/null 2>&1; then
    BUILD_DIR=$(cd "$FL_SRCDIR/build" && pwd) || fail "no build directory"
    export CGO_ENABLED=1 CGO_LDFLAGS_ALLOW='-Wl,--(no-)?whole-archive' CGO_LDFLAGS="-L$BUILD_DIR"
    cd "$FL_SRCDIR/adapters/pebble" || fail "no adapters/pebble"
    [ -z "$(gofmt -l .)" ] || fail "gofmt: $(gofmt -l .)"
    GOFLAGS=-mod=readonly go vet -tags pebblegozstd -trimpath ./... > "$T/vet.out" 2>&1 ||
        { cat "$T/vet.out"; fail "go vet"; }
    GOFLAGS=-mod=readonly go test -tags pebblegozstd -trimpath ./... > "$T/gotest.out" 2>&1 ||
        { cat "$T/gotest.out"; fail "go test"; }
fi
echo "pebble: ok"
