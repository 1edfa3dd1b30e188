#!/bin/sh
# rocksdb_known.sh -- `check --engine rocksdb --known FILE` on RocksDB 7.8.3:
# trials that find known upstream bugs (seed 1 trial 11: the FixedPrefix
# abort; seed 2 trial 88: the stale memtable prefix bloom) end with the
# finding shrunk, matched to its entry of adapters/rocksdb/known.txt,
# cited with its fix, and exit 0; without --known the same trial is a
# finding (exit 1).  On a RocksDB with the fixes the trials find nothing,
# and the test says so.  The reproducers of the use-after-free and of the
# batched MultiGet's empty filter partition crash 7.8.3.
# Once, with the plain build.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

case $FILTERLAB in */asan/*) exit 0 ;; esac
rocks=$("$FILTERLAB" --version | sed -n 's/.*RocksDB \([0-9.]*\)).*/\1/p')
[ -n "$rocks" ] || { echo "skipped: built without RocksDB"; exit 0; }
KNOWN="$FL_SRCDIR/adapters/rocksdb/known.txt"
# A finding is matched against a signature only once shrunk to the end (a
# shrink cut short matches only entries identified by message), and
# shrinking trial 88 to the end takes about 30 s on an idle machine: its
# budget is an hour, a guard against a hang that no load reaches, not the
# default 60 s, which a busy machine would (and the run would then fail).
for case in 1:11:rocksdb-fixed-prefix-out-of-domain:11.2.0 2:88:rocksdb-memtable-bloom-old-extractor:9.7.0; do
    seed=${case%%:*} rest=${case#*:}; trial=${rest%%:*} rest=${rest#*:}; bug=${rest%%:*}; fixed=${rest#*:}
    "$FILTERLAB" check --engine rocksdb --known "$KNOWN" --seed "$seed" --trial "$trial" --shrink-time 3600 --out "$T/o$trial" \
        > "$T/out" 2> "$T/err"
    rc=$?
    if ! grep -q "known upstream bug" "$T/err"; then
        [ $rc -eq 0 ] || { tail -n 5 "$T/err" >&2; fail "trial $trial: exit $rc and no known bug"; }
        echo "trial $trial: no finding on RocksDB $rocks (fixed in $fixed?)"
        continue
    fi
    [ $rc -eq 0 ] || { tail -n 5 "$T/err" >&2; fail "trial $trial: only a known bug, but exit $rc"; }
    grep -q "^check: known upstream bug $bug (fixed upstream: RocksDB $fixed" "$T/err" ||
        { cat "$T/err" >&2; fail "trial $trial: not reported as $bug with its fix"; }
    grep -q "no violation but 1 finding of known upstream bugs ($bug x1)" "$T/out" ||
        fail "trial $trial: the summary does not count it: $(cat "$T/out")"
    wl=$(ls "$T/o$trial"/known-$bug-seed$seed-trial$trial.wl 2> /dev/null) || fail "trial $trial: no workload written"
    [ "$(grep -vc '^#' "$wl")" -le 8 ] || fail "trial $trial: the finding is not shrunk: $(cat "$wl")"
    # the same trial without --known is a finding (however far a short
    # shrink gets: a finding is exit 1 whatever it is shrunk to)
    "$FILTERLAB" check --engine rocksdb --seed "$seed" --trial "$trial" --shrink-time 1 --out "$T/p$trial" \
        > /dev/null 2> "$T/err2"
    [ $? -eq 1 ] || fail "trial $trial without --known: not a finding"
done
# A bug identified by its message is shrunk once per run, then counted as
# it is; --avoid-known skips the later trials that hold its signature, the
# same ones with one job or two (seed 1: the FixedPrefix abort in trial 11
# and three more times in the first 40 trials).
"$FILTERLAB" check --engine rocksdb --known "$KNOWN" --seed 1 --trials 40 --jobs 2 --out "$T/again" \
    > "$T/again.out" 2> "$T/again.err" || { tail -n 5 "$T/again.err"; fail "seed 1, 40 trials: exit $?"; }
n=$(grep -c "^check: known upstream bug rocksdb-fixed-prefix-out-of-domain again in trial[0-9]*, identified by its message (not shrunk again)" "$T/again.err")
[ "$n" -ge 1 ] && [ "$(grep -c 'shrinking [0-9]* ops' "$T/again.err")" -lt 4 ] ||
    { cat "$T/again.err"; fail "a known bug identified by its message is shrunk again"; }
for j in 1 2; do
    "$FILTERLAB" check --engine rocksdb --known "$KNOWN" --avoid-known --seed 1 --trials 40 --jobs $j --out "$T/av" \
        2> /dev/null | sed 's/ in [0-9.]* s ([0-9.]* trials\/s, [0-9]* ops\/s)//' > "$T/avoid$j.out" ||
        fail "--avoid-known --jobs $j: exit $?"
done
grep -q "rocksdb-fixed-prefix-out-of-domain x1); [1-9][0-9]* trials skipped for holding a known bug found before (--avoid-known)" "$T/avoid1.out" ||
    fail "--avoid-known skipped nothing: $(cat "$T/avoid1.out")"
cmp -s "$T/avoid1.out" "$T/avoid2.out" || fail "--avoid-known: one job and two differ: $(cat "$T/avoid1.out" "$T/avoid2.out")"
"$FILTERLAB" check --engine rocksdb --avoid-known --trials 1 > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "avoid-known needs --known" "$T/err" || fail "--avoid-known without --known: $(cat "$T/err")"

# a bad list is bad input, naming the line
printf 'bug x\nfix f\n' > "$T/bad.txt"
"$FILTERLAB" check --engine rocksdb --known "$T/bad.txt" --trials 1 > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "bad.txt:" "$T/err" || fail "a bad --known list: $(cat "$T/err")"

# The standalone reproducer of the use-after-free filterlab found (RocksDB's
# C API only; adapters/rocksdb/reports/memtable_extractor_freed.md): it dies
# of the freed extractor on every RocksDB that has the bug, which is open
# upstream -- on one that no longer has it, it says so and the test fails,
# so that the known-bugs entry is updated.
REPRO=$(dirname "$FILTERLAB")/examples/rocksdb_memtable_extractor_freed
[ -x "$REPRO" ] || fail "make did not build $REPRO"
"$REPRO" "$T/repro-db" > "$T/repro.out" 2>&1
rc=$?
[ $rc -ge 128 ] && grep -q "the memtable's extractor is freed; the next put calls it" "$T/repro.out" ||
    { cat "$T/repro.out"; fail "the reproducer of memtable_extractor_freed: exit $rc on RocksDB $rocks, not a crash"; }
echo "rocksdb_known: the reproducer crashes RocksDB $rocks (signal $((rc - 128)))"

# The reproducer of the batched MultiGet's empty filter partition (RocksDB's
# C API and its own FixedPrefix(2) only; adapters/rocksdb/reports/
# partitioned_filter_multiget_abort.md): Debian's 7.8.3 has assertions on,
# and aborts at the assert(false) of partitioned_filter_block.cc.
REPRO=$(dirname "$FILTERLAB")/examples/rocksdb_partitioned_filter_multiget_abort
[ -x "$REPRO" ] || fail "make did not build $REPRO"
"$REPRO" "$T/repro-pf" > "$T/pf.out" 2>&1
rc=$?
if [ "$rocks" = 7.8.3 ]; then
    [ $rc -eq 134 ] && grep -q "partitioned_filter_block.cc:400: .*PartitionedFilterBlockReader::MayMatch(rocksdb::MultiGetRange\*.*Assertion .false. failed" "$T/pf.out" ||
        { cat "$T/pf.out"; fail "the reproducer of partitioned_filter_multiget_abort: exit $rc on RocksDB 7.8.3, not the abort"; }
    echo "rocksdb_known: the empty-partition reproducer aborts RocksDB $rocks"
else
    echo "rocksdb_known: the empty-partition reproducer on RocksDB $rocks: exit $rc ($(tail -n 1 "$T/pf.out"))"
fi

# The same class elsewhere (adapters/rocksdb/reports/prefix_extractor_lifetimes.md):
# every mode crashes, the control does not.  A use-after-free crashes only
# when the freed memory was reused by then: tailblob does in about 8 runs of
# 10 here (the others in every run), so each mode has up to 10 runs to crash
LIFE=$(dirname "$FILTERLAB")/examples/rocksdb_prefix_extractor_lifetimes
[ -x "$LIFE" ] || fail "make did not build $LIFE"
"$LIFE" control "$T/life-db" > "$T/life.out" 2>&1 || { cat "$T/life.out"; fail "prefix_extractor_lifetimes control"; }
runs=0
for mode in hashrep linkrep nullrep tailseek tailnext plain memget tailblob; do
    n=0
    while [ $n -lt 10 ]; do
        n=$((n + 1))
        rm -rf "$T/life-db"
        "$LIFE" "$mode" "$T/life-db" > "$T/life.out" 2>&1
        rc=$?
        [ $rc -ge 128 ] && break
        [ $rc = 0 ] || { cat "$T/life.out"; fail "prefix_extractor_lifetimes $mode: exit $rc on RocksDB $rocks"; }
    done
    [ $rc -ge 128 ] || { cat "$T/life.out"; fail "prefix_extractor_lifetimes $mode: no crash on RocksDB $rocks in 10 runs"; }
    runs=$((runs + n))
done
echo "rocksdb_known: prefix_extractor_lifetimes: 8 modes crash RocksDB $rocks ($runs runs), the control does not"
exit 0
