#!/bin/sh
# slatedb.sh -- SlateDB under test (--engine slatedb; docs/slatedb.md),
# when make built its adapter (cargo was there):
#   - every shipped workload either gives filterlab's own results with no
#     violation, or stops with exit 2 at the first line SlateDB cannot
#     express, naming it -- but the regression workloads of SlateDB's known
#     bugs, each of which must still fail as its entry says on 0.18.0;
#   - a run is exactly reproducible: the same results and counters twice;
#   - plugins run inside SlateDB, and broken ones are caught there: a false
#     negative that changes no result too, by the get's probe lines (P1);
#   - check --engine slatedb with adapters/slatedb/known.txt finds nothing
#     but known bugs in its first trials (plain build only: each trial runs
#     SlateDB);
#   - SlateDB's SST files are read by filterlab's own reader: P9 on their
#     bits, and an SST file with one byte flipped is reported (P6);
#   - the standalone reproducer of each known bug shows it;
#   - the adapter's own unit tests pass and its sources are rustfmt-clean.
. "$(dirname "$0")/common.inc"
ADAPTER="$FL_SRCDIR/build/cargo/release/filterlab-slatedb"
if [ ! -x "$ADAPTER" ]; then
    "$FILTERLAB" replay "$FL_SRCDIR/workloads/basic.wl" --engine slatedb > "$T/out" 2>&1
    [ $? = 2 ] && grep -q "built without the SlateDB adapter" "$T/out" || fail "no adapter, and no clear error"
    echo "slatedb.sh: the SlateDB adapter is not built (no cargo): skipped; --engine slatedb says so"
    exit 0
fi
KNOWN="$FL_SRCDIR/adapters/slatedb/known.txt"

# ---- the shipped workloads
ran=0 stopped=0
for w in $(find "$FL_SRCDIR/workloads" -name '*.wl' ! -path '*/gen/*' ! -path '*/regress/slatedb/*' | sort); do
    n=$(echo "$w" | sed 's|.*/workloads/||; s|/|_|g')
    "$FILTERLAB" replay "$w" --call-timeout 120 --engine slatedb --results "$T/$n.sdb" > "$T/out" 2>&1
    rc=$?
    if [ $rc = 2 ]; then
        grep -Eq "\.wl:[0-9]+: [a-z_]+ failed: .*(cannot express it|cannot run)" "$T/out" ||
            { cat "$T/out"; fail "$n: exit 2 without naming the line and what SlateDB cannot express"; }
        stopped=$((stopped + 1))
        continue
    fi
    [ $rc = 0 ] || { cat "$T/out"; fail "$n on SlateDB: exit $rc"; }
    "$FILTERLAB" replay "$w" --results "$T/$n.own" > /dev/null 2>&1 || fail "$n: filterlab's own engine fails it"
    cmp -s "$T/$n.own" "$T/$n.sdb" || { diff "$T/$n.own" "$T/$n.sdb" | head; fail "$n: SlateDB's results differ"; }
    ran=$((ran + 1))
done
[ $ran -ge 10 ] || fail "only $ran shipped workloads ran on SlateDB"
echo "slatedb: $ran shipped workloads with filterlab's results and no violation, $stopped stopped at a line it cannot express"


# ---- plugins inside SlateDB: a user's policy and extractor run as SlateDB's
# FilterPolicy and PrefixExtractor, through filterlab's call wrappers
build_plugin "$FL_SRCDIR/tests/plugins/mine.c" "$T/mine.so"
printf '%s\n' 'filterlab-workload 1' \
    'open policies="mine(bits=10);bloom(bits=8,prefix=myex:2)" memtable_bytes=512' \
    'put ab1 v1' 'put ab2 v2' 'put cd1 v3' 'flush' 'put ab3 v4' 'del ab2' 'flush' \
    'get ab1' 'get ab2' 'get zz9' 'get ab7' 'scan_prefix ab' 'scan_prefix zz' 'compact full' \
    'get ab1' 'get ab2' 'scan_prefix ab' 'reopen policies="bloom(bits=8,prefix=myex:2);mine(bits=10)"' \
    'get ab3' 'get ab2' 'scan_prefix cd' > "$T/mine.wl"
"$FILTERLAB" replay "$T/mine.wl" --plugin "$T/mine.so" --engine slatedb --json --results "$T/mine.sdb" \
    > "$T/mine.json" 2> "$T/mine.err" || { cat "$T/mine.err"; fail "a correct plugin inside SlateDB"; }
"$FILTERLAB" replay "$T/mine.wl" --plugin "$T/mine.so" --results "$T/mine.own" > /dev/null 2>&1 ||
    fail "mine.wl on filterlab's engine"
cmp -s "$T/mine.own" "$T/mine.sdb" || { diff "$T/mine.own" "$T/mine.sdb"; fail "results differ with a plugin inside SlateDB"; }
grep -q '"point":{"considered":[1-9][0-9]*,"unfiltered":0,"positive":[0-9]*,"negative":[1-9]' "$T/mine.json" ||
    fail "no filter probe of the plugin counted inside SlateDB: $(cat "$T/mine.json")"
# a broken one is caught there as in filterlab's engine (replay_misbehave.sh)
build_plugin "$FL_SRCDIR/tests/plugins/misbehave.c" "$T/mis.so"
printf '%s\n' 'filterlab-workload 1' 'open policies="broken;bloom(bits=10,prefix=liar)" memtable_bytes=200' \
    'put abc 1' 'put b 3' 'flush' 'get abc' 'get zzz' 'scan_prefix ab' 'compact full' 'get abc' > "$T/mis.wl"
"$FILTERLAB" replay "$T/mis.wl" --plugin "$T/mis.so" --engine slatedb > "$T/mis.out" 2>&1
rc=$?
[ $rc = 1 ] || { cat "$T/mis.out"; fail "a broken plugin inside SlateDB: exit $rc, not 1"; }
grep -q "^P7 extractor-contract: line [0-9]* [a-z]* .*extractor \"liar\" of kind 'liar' from plugin $T/mis.so broke its contract in prefix_len" "$T/mis.out" ||
    { cat "$T/mis.out"; fail "the liar extractor inside SlateDB is not P7"; }
grep -q "^P10 bad-input: line 5 flush: builder of policy of kind 'broken' from plugin $T/mis.so broke its contract in build: build failed" "$T/mis.out" ||
    { cat "$T/mis.out"; fail "the broken policy's build inside SlateDB is not P10"; }
grep -q "replay: filterlab replay $T/mis.wl --plugin $T/mis.so --engine slatedb" "$T/mis.out" ||
    fail "the replay line does not name the plugin and the engine: $(grep 'replay:' "$T/mis.out")"
# and one with a wrong answer (the mutant that forgets tombstones) by its results
build_plugin "$FL_SRCDIR/tests/mutants/ignores_tombstones.c" "$T/it.so"
"$FILTERLAB" replay "$FL_SRCDIR/tests/mutants/ignores_tombstones.wl" --plugin "$T/it.so" --engine slatedb > "$T/it.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q '^P2 results: line 24 get user:2: the engine returned old-2' "$T/it.out" ||
    { cat "$T/it.out"; fail "the tombstone-forgetting plugin inside SlateDB: exit $rc"; }
# a false negative that changes no result is P1, by the probe lines alone
expect_lone_p1 slatedb
grep -q '^P1 no-false-negative: line 24 get user:2: sst [0-9]*.s filter said no' "$T/it.out" ||
    { cat "$T/it.out"; fail "the tombstone-forgetting plugin inside SlateDB: no P1 from the probe lines"; }
# and on a scan_prefix: rejects_prefix.c's filters say no to every prefix;
# the memtable holds both keys again, so the skipped SST changes no result
build_plugin "$FL_SRCDIR/tests/mutants/rejects_prefix.c" "$T/rp.so"
printf '%s\n' 'filterlab-workload 1' 'open policies="keyset"' 'put log:01 a' 'put log:02 b' 'flush' \
    'put log:01 a' 'put log:02 b' 'scan_prefix log:' > "$T/rp.wl"
"$FILTERLAB" replay "$T/rp.wl" --engine slatedb --plugin "$T/rp.so" > "$T/rp.out" 2>&1
rc=$?
[ $rc = 1 ] && [ "$(grep -c '^P' "$T/rp.out")" = 1 ] &&
    grep -q "^P1 no-false-negative: line 8 scan_prefix log:: sst [0-9]*'s filter said no (probe 1 of the scan_prefix), but sst [0-9]* holds a key starting with the prefix (read from its file)" "$T/rp.out" ||
    { cat "$T/rp.out"; fail "a prefix false negative inside SlateDB that changes no result is not P1, alone (exit $rc)"; }
# and on a seek in prefix mode (SlateDB runs it as a prefix scan of the
# seek key's extracted prefix; the bloom gives the extractor, keyset says no)
printf '%s\n' 'filterlab-workload 1' 'open policies="keyset;bloom(bits=10,prefix=fixed:4)"' 'put log:01 a' \
    'put log:02 b' 'flush' 'put log:01 a' 'put log:02 b' 'seek log:01 n=2' > "$T/rps.wl"
"$FILTERLAB" replay "$T/rps.wl" --engine slatedb --plugin "$T/rp.so" > "$T/rps.out" 2>&1
rc=$?
[ $rc = 1 ] && [ "$(grep -c '^P' "$T/rps.out")" = 1 ] &&
    grep -q "^P1 no-false-negative: line 8 seek: sst [0-9]*'s filter said no (probe 1 of the seek), but sst [0-9]* holds a key starting with the prefix (read from its file)" "$T/rps.out" ||
    { cat "$T/rps.out"; fail "a prefix false negative inside SlateDB on a seek is not P1, alone (exit $rc)"; }
# and on total-order range reads: SlateDB probes the point filter of an SST
# whose part of the range is one key (the newer SST holds only k3: a scan
# from k3, a seek from k3 and a seek_for_prev from k3 meet it in k3), and
# bad_decode.c's filters lose their last key; the older SST gives k3 again
build_plugin "$FL_SRCDIR/tests/mutants/bad_decode.c" "$T/bd.so"
printf '%s\n' 'filterlab-workload 1' 'open policies="keyset"' 'put k3 v3' 'put k4 v4' 'flush' 'put k3 v3' \
    'flush' 'scan k3 k4' 'seek k3 n=1 prefix=0' 'seek_for_prev k3 n=1 prefix=0' > "$T/fnr.wl"
"$FILTERLAB" replay "$T/fnr.wl" --engine slatedb --plugin "$T/bd.so" > "$T/fnr.out" 2>&1
rc=$?
for r in 'line 8 scan k3 k4: sst [0-9]*.s filter said no (probe 1 of the scan), but sst [0-9]* holds a key of the scan.s range' \
         'line 9 seek: sst [0-9]*.s filter said no (probe 1 of the seek), but sst [0-9]* holds a key of the seek.s range' \
         'line 10 seek_for_prev: sst [0-9]*.s filter said no (probe 1 of the seek_for_prev), but sst [0-9]* holds a key of the seek_for_prev.s range'; do
    grep -q "^P1 no-false-negative: $r (read from its file)" "$T/fnr.out" ||
        { cat "$T/fnr.out"; fail "a false negative on a total-order range read inside SlateDB is not P1: $r"; }
done
[ $rc = 1 ] && [ "$(grep -c '^P' "$T/fnr.out")" = 3 ] ||
    { cat "$T/fnr.out"; fail "the range reads' false negatives inside SlateDB: exit $rc, not three lone P1s"; }
# and one that hangs or crashes is a P10 naming the request it was in
build_plugin "$FL_SRCDIR/tests/plugins/hang.c" "$T/hang.so"
for how in might_match crash; do
    printf '%s\n' 'filterlab-workload 1' "open policies=\"hang(in=$how)\"" 'put a 1' 'flush' 'get a' > "$T/$how.wl"
    "$FILTERLAB" replay "$T/$how.wl" --plugin "$T/hang.so" --engine slatedb --call-timeout 2 > "$T/$how.out" 2>&1
    echo $? > "$T/$how.rc"
done
[ "$(cat "$T/might_match.rc")" = 1 ] &&
    grep -q '^P10 bad-input: line 5 get a: engine slatedb: get did not return within 2 s' "$T/might_match.out" ||
    { cat "$T/might_match.out"; fail "a plugin that hangs inside SlateDB"; }
[ "$(cat "$T/crash.rc")" = 1 ] &&
    grep -q "^P10 bad-input: .*crash.wl:5: get: the adapter slatedb .* was killed by signal 11 (Segmentation fault) during \`get a\`" "$T/crash.out" ||
    { cat "$T/crash.out"; fail "a plugin that crashes inside SlateDB"; }

# ---- the known bugs' regression workloads: still there on 0.18.0
W="$FL_SRCDIR/workloads/regress/slatedb/bloom_zero_bits.wl"
"$FILTERLAB" replay "$W" --engine slatedb > "$T/zero.out" 2>&1
rc=$?
[ $rc = 2 ] && grep -q 'bloom_zero_bits.wl:15: flush failed: .*attempt to calculate the remainder with a divisor of zero' \
    "$T/zero.out" || { cat "$T/zero.out"; fail "bloom_zero_bits on SlateDB 0.18.0: exit $rc"; }
"$FILTERLAB" replay "$W" > /dev/null 2>&1 || fail "bloom_zero_bits fails on filterlab's engine"
W="$FL_SRCDIR/workloads/regress/slatedb/bloom_zero_bits_compaction_hangs.wl"
"$FILTERLAB" replay "$W" --engine slatedb --call-timeout 2 > "$T/hang.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q '^P10 bad-input: line 13 compact: engine slatedb: compact did not return within 2 s' "$T/hang.out" ||
    { cat "$T/hang.out"; fail "bloom_zero_bits_compaction_hangs on SlateDB 0.18.0: exit $rc"; }
# the bugs SlateDB fixed (0.15.0, 0.17.0): gone on 0.18.0; found on 0.14.1
# when that build is there (make SLATEDB_VERSION=0.14.1)
OLD="$FL_SRCDIR/build/cargo-0.14.1/release/filterlab-slatedb"
for n in zero_bit_prefix_bloom descending_sorted_run; do
    W="$FL_SRCDIR/workloads/regress/slatedb/$n.wl"
    "$FILTERLAB" replay "$W" --engine slatedb --results "$T/$n.sdb" > "$T/$n.out" 2>&1 ||
        { cat "$T/$n.out"; fail "$n (fixed upstream) fails on SlateDB 0.18.0"; }
    "$FILTERLAB" replay "$W" --results "$T/$n.own" > /dev/null 2>&1 && cmp -s "$T/$n.own" "$T/$n.sdb" ||
        fail "$n: SlateDB 0.18.0's results differ from filterlab's"
    [ -x "$OLD" ] || continue
    FILTERLAB_SLATEDB="$OLD" "$FILTERLAB" replay "$W" --engine slatedb > "$T/$n.14" 2>&1
    echo $? > "$T/$n.14rc"
done
if [ -x "$OLD" ]; then
    [ "$(cat "$T/zero_bit_prefix_bloom.14rc")" = 1 ] && grep -q "^P10 bad-input: .*zero_bit_prefix_bloom.wl:19: get: the adapter slatedb .* exited with status 101 during \`get aaaa\`; its stderr ended: .*attempt to calculate the remainder with a divisor of zero" "$T/zero_bit_prefix_bloom.14" ||
        { cat "$T/zero_bit_prefix_bloom.14"; fail "zero_bit_prefix_bloom on SlateDB 0.14.1"; }
    [ "$(cat "$T/descending_sorted_run.14rc")" = 1 ] && grep -q "^P2 results: line 21 seek_for_prev: item 1: the engine returned b=" "$T/descending_sorted_run.14" ||
        { cat "$T/descending_sorted_run.14"; fail "descending_sorted_run on SlateDB 0.14.1"; }
    echo "slatedb: zero_bit_prefix_bloom and descending_sorted_run found on 0.14.1, gone on 0.18.0"
else
    echo "slatedb: no 0.14.1 build (make SLATEDB_VERSION=0.14.1): the bugs fixed upstream checked on 0.18.0 only"
fi

# ---- determinism
for i in 1 2; do
    "$FILTERLAB" replay "$FL_SRCDIR/workloads/prefix_scans.wl" --engine slatedb --json --results "$T/det$i.txt" |
        sed 's/"elapsed_s":[0-9.e+-]*,"peak_rss_mib":[0-9.e+-]*,//' > "$T/det$i.json" || fail "determinism run $i"
done
cmp -s "$T/det1.json" "$T/det2.json" && cmp -s "$T/det1.txt" "$T/det2.txt" ||
    { diff "$T/det1.json" "$T/det2.json"; fail "two runs of prefix_scans.wl on SlateDB differ"; }
grep -q '"prefix":{"considered":[1-9]' "$T/det1.json" || fail "no prefix filter probe counted on SlateDB: $(cat "$T/det1.json")"

# ---- SlateDB's SST files, read by filterlab's own reader: P9 on their bits,
# and every SST read (a copy with one byte flipped is reported, P6)
{
    echo 'filterlab-workload 1'
    echo 'open policies="bloom(bits=10)"'
    awk 'BEGIN { for (i = 0; i < 1000; i++) printf "put k%05d v\n", i; print "flush";
                 for (i = 0; i < 1000; i++) printf "get k%05dy\n", i }'
} > "$T/p9.wl"
"$FILTERLAB" replay "$T/p9.wl" --engine slatedb --json > "$T/p9.json" 2>&1 || { cat "$T/p9.json"; fail "p9.wl on SlateDB"; }
# 999 absent gets probe the one SST (k00999y is past its last key); its
# 10,000 bits at k=6 give about 0.8%
grep -Eq '"p9_point":\{"probes":999,"items":999,"measured":[0-9.e-]+,"expected":0\.00[5-9]' "$T/p9.json" ||
    fail "no P9 on SlateDB's filter bits: $(cat "$T/p9.json")"
TMPDIR="$T" FILTERLAB_SLATEDB="$FL_SRCDIR/tests/engines/sst_tamper.py" \
FILTERLAB_TAMPER_REAL="$ADAPTER" \
    "$FILTERLAB" replay "$T/p9.wl" --engine slatedb > "$T/tamper.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "^P6 coverage: line 1003 flush: sst 1: its file breaks the engine's own format: .*CRC-32" "$T/tamper.out" ||
    { cat "$T/tamper.out"; fail "a flipped byte in SlateDB's SST: exit $rc"; }

case $FILTERLAB in */asan/*) echo "slatedb: ok (the hunt and the adapter's own tests in the plain pass)"; exit 0 ;; esac

# ---- an SST written while the database is open is held to the configured
# bits per key (P5), flushed or compacted, not to whichever fits its size: a
# reader that takes bits=N for N+8 finds the SSTs SlateDB wrote at N wrong
mutant bits_off adapters/proc/proc_named.c 's/? (int)v : -1;/? (int)v + 8 : -1;/'
FILTERLAB_SLATEDB=$ADAPTER "$T/bits_off" replay "$FL_SRCDIR/workloads/pebble/l6_gets.wl" --engine slatedb \
    > "$T/bits_off.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q '^P5 exact-verdicts: line 212 compact: sst [0-9]*: sub-filter "_bf" has 2000 bits and 6 probes, but SlateDB.s builder at the configured 18 bits per key gives 3600 bits and 12 probes' "$T/bits_off.out" ||
    { head -5 "$T/bits_off.out"; fail "SSTs not written at the configured bits per key are not P5 (exit $rc)"; }

# ---- the hunt: nothing but known bugs (bounded by trials, not time)
"$FILTERLAB" check --engine slatedb --seed 1 --trials 6 --known "$KNOWN" --out "$T/hunt" > "$T/hunt.out" 2> "$T/hunt.err"
rc=$?
[ $rc = 0 ] || { tail -n 20 "$T/hunt.err"; fail "check --engine slatedb --seed 1 --trials 6: exit $rc"; }
grep -q '^check: 6 trials, .* seed 1: no violation' "$T/hunt.out" "$T/hunt.err" ||
    { tail -n 5 "$T/hunt.out" "$T/hunt.err"; fail "the hunt's summary"; }
echo "slatedb hunt: $(grep -h '^check: 6 trials' "$T/hunt.out" "$T/hunt.err")"
# with the user's policy and extractor drawn into the lists (they run inside SlateDB)
"$FILTERLAB" check --engine slatedb --plugin "$T/mine.so" --policy "mine(bits=10)" --extractor "myex:2" --seed 1 \
    --trials 4 --ops 300 --known "$KNOWN" --out "$T/hunt2" > "$T/hunt2.out" 2> "$T/hunt2.err"
rc=$?
[ $rc = 0 ] && grep -q '^check: 4 trials, .* seed 1: no violation' "$T/hunt2.out" "$T/hunt2.err" ||
    { tail -n 20 "$T/hunt2.out" "$T/hunt2.err"; fail "check --engine slatedb with a plugin: exit $rc"; }
"$FILTERLAB" check --engine slatedb --plugin "$T/mine.so" --policy "mine(bits=10)" --extractor "myex:2" --seed 1 \
    --trial 1 --print | grep -q 'mine(bits=10)\|myex:2' || fail "the plugin's specs are not drawn into SlateDB's trials"

# ---- the standalone reproducer (built by make beside the adapter)
REPRO="$FL_SRCDIR/build/cargo/release/examples/bloom_zero_bits"
[ -x "$REPRO" ] || fail "the reproducer $REPRO is not built"
"$REPRO" > "$T/repro.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q '^bug: .*attempt to calculate the remainder with a divisor of zero' "$T/repro.out" ||
    { cat "$T/repro.out"; fail "the reproducer of slatedb-bloom-zero-bits: exit $rc"; }

# ---- the adapter's own tests and style
if command -v cargo > /dev/null 2>&1; then
    CARGO_TARGET_DIR="$FL_SRCDIR/build/cargo" cargo test --quiet --release --locked \
        --manifest-path "$FL_SRCDIR/adapters/slatedb/Cargo.toml" > "$T/cargo.out" 2>&1 ||
        { tail -n 20 "$T/cargo.out"; fail "cargo test of the SlateDB adapter"; }
    grep -q '^test result: ok\. [1-9][0-9]* passed; 0 failed' "$T/cargo.out" || { cat "$T/cargo.out"; fail "cargo test's result"; }
    (cd "$FL_SRCDIR/adapters/slatedb" && cargo fmt --check > "$T/fmt.out" 2>&1) ||
        { head -n 20 "$T/fmt.out"; fail "the SlateDB adapter is not rustfmt-clean"; }
fi
echo "slatedb: ok"
