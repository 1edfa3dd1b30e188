#!/bin/sh
# leveldb.sh -- LevelDB under test (--engine leveldb; docs/leveldb.md):
#   1. every shipped workload either gives filterlab's own results with no
#      violation, or stops with exit 2 at the first line LevelDB cannot
#      express, naming it;
#   2. a run is exactly reproducible: the same results, counters and table
#      files twice, seek compactions and LevelDB's own L0 compactions
#      included; gets probe filters (counted at the policy), scans and seeks
#      none;
#   3. migrations: a renamed policy's tables are read without a filter (no
#      probe), a bloom's bits changed keeps the old filters in use, and a
#      same-name incompatible policy (tests/mutants/name_ignores_config.c)
#      is caught by the false negatives it causes (P2); a false negative
#      that changes no result is P1, from the trace of which table each
#      probe was of;
#   4. a user's plugin policy runs inside LevelDB through filterlab's call
#      wrappers, with filterlab's results; a broken one is caught there
#      (P10), and so is a mutant that misdecodes its filters (P2);
#   5. LevelDB's table files are read by filterlab's own reader: a table
#      with one byte flipped is P6 naming the table, and a filter that is
#      not LevelDB's bloom over the table's keys is P5;
#   6. check --engine leveldb finds nothing in its first trials;
#   7, 8. the exact counts and the trace can fail: adapters built with a
#      planted miscount, and with a reader that misreads the filters, are P3.
# Without LevelDB (filterlab built without libleveldb-dev), --engine leveldb
# must say how to get it.
. "$(dirname "$0")/common.inc"
S=$FL_SRCDIR

printf 'filterlab-workload 1\nput a 1\n' > "$T/probe.wl"
if ! "$FILTERLAB" replay "$T/probe.wl" --engine leveldb > /dev/null 2> "$T/probe.err"; then
    if grep -q "filterlab was built without LevelDB: install libleveldb-dev" "$T/probe.err"; then
        echo "skipped: $(cat "$T/probe.err")"
        exit 0
    fi
    cat "$T/probe.err" >&2
    fail "a one-put workload does not run on LevelDB"
fi

# ---- 1. the shipped workloads
ran=0 stopped=0
for w in $(find "$S/workloads" -name '*.wl' ! -path '*/gen/*' | sort); do
    n=$(echo "$w" | sed 's|.*/workloads/||; s|/|_|g')
    "$FILTERLAB" replay "$w" --engine leveldb --results "$T/$n.ldb" > "$T/out" 2>&1
    rc=$?
    if [ $rc = 2 ]; then
        grep -Eq "\.wl:[0-9]+: [a-z_]+ failed: .*(LevelDB cannot express it|cannot run \`(delrange|set)\`)|\.wl:[0-9]+: .*(crash|cannot simulate a crash)" "$T/out" ||
            { cat "$T/out"; fail "$n: exit 2 without naming the line and what LevelDB cannot express"; }
        stopped=$((stopped + 1))
        continue
    fi
    [ $rc = 0 ] || { cat "$T/out"; fail "$n on LevelDB: exit $rc"; }
    "$FILTERLAB" replay "$w" --results "$T/$n.own" > /dev/null 2>&1 || fail "$n: filterlab's own engine fails it"
    cmp -s "$T/$n.own" "$T/$n.ldb" || { diff "$T/$n.own" "$T/$n.ldb" | head; fail "$n: LevelDB's results differ"; }
    ran=$((ran + 1))
done
[ $ran -ge 6 ] || fail "only $ran shipped workloads ran on LevelDB"
echo "leveldb: $ran shipped workloads with filterlab's results and no violation, $stopped stopped at a line it cannot express"

# ---- 2. determinism, and what probes
gen_wl() {   # gen_wl SEED FILE: a workload LevelDB can run, with many flushes
    "$FILTERLAB" gen --shape uniform --seed "$1" --ops 3000 --keys 400 --flush-every 40 --compact-every 900 \
        --open 'policies="bloom(bits=10)" memtable_bytes=2048 block_bytes=1024' \
        --mix put=40,del=8,get=20,get_absent=20,prefix=3,prefix_absent=3,scan=3,seek=3 \
        > "$2" || fail "gen --seed $1"
}
gen_wl 7 "$T/g7.wl"
for i in 1 2; do
    rm -rf "$T/db$i"
    "$FILTERLAB" replay "$T/g7.wl" --engine leveldb --db "$T/db$i" --json --results "$T/det$i.txt" |
        sed 's/"elapsed_s":[0-9.e+-]*,"peak_rss_mib":[0-9.e+-]*,//' > "$T/det$i.json" || fail "determinism run $i"
done
cmp -s "$T/det1.json" "$T/det2.json" && cmp -s "$T/det1.txt" "$T/det2.txt" ||
    { diff "$T/det1.json" "$T/det2.json"; fail "two runs of one workload on LevelDB differ"; }
(cd "$T/db1" && ls *.ldb) > "$T/files1"
(cd "$T/db2" && ls *.ldb) > "$T/files2"
cmp -s "$T/files1" "$T/files2" || fail "two runs of one workload on LevelDB leave other tables"
for f in $(cat "$T/files1"); do cmp -s "$T/db1/$f" "$T/db2/$f" || fail "table $f differs between two runs"; done
grep -q '"point":{"considered":[1-9][0-9]*,"unfiltered":0,"positive":[0-9]*,"negative":[1-9]' "$T/det1.json" ||
    fail "no get filter probe counted on LevelDB: $(cat "$T/det1.json")"
# (prefix reads' considered is the checker's count of tables read unfiltered)
grep -q '"prefix":{"considered":\([0-9]*\),"unfiltered":\1,"positive":0,"negative":0,' "$T/det1.json" || fail "a scan or seek probed a filter on LevelDB: $(cat "$T/det1.json")"
"$FILTERLAB" replay "$T/g7.wl" --results "$T/own7.txt" > /dev/null 2>&1 && cmp -s "$T/own7.txt" "$T/det1.txt" ||
    fail "the generated workload: LevelDB's results differ from filterlab's"

# ---- 3. migrations
printf '%s\n' 'filterlab-workload 1' 'open policies="bloom(bits=10)" memtable_bytes=100000' \
    'put k1 v1' 'put k2 v2' 'flush' 'get k1' 'get k15' \
    'reopen policies="bloom(bits=4)"' 'get k1' 'get k15' \
    'reopen policies="none"' 'get k1' 'get k15' > "$T/mig.wl"
"$FILTERLAB" replay "$T/mig.wl" --engine leveldb --json > "$T/mig.json" 2> "$T/mig.err" ||
    { cat "$T/mig.err"; fail "a migration on LevelDB"; }
# two gets of k1 and two of k15 (in the table's range) under a bloom probe its filter; under none, nothing
grep -q '"point":{"considered":4,' "$T/mig.json" || fail "migration probes: $(cat "$T/mig.json")"
build_plugin "$S/tests/mutants/name_ignores_config.c" "$T/nic.so"
"$FILTERLAB" replay "$S/tests/mutants/name_ignores_config.wl" --engine leveldb --plugin "$T/nic.so" > "$T/nic.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q '^P2 results: line 25 get k01: the engine returned none, the model v01' "$T/nic.out" ||
    { cat "$T/nic.out"; fail "a same-name incompatible policy inside LevelDB is not caught (exit $rc)"; }
# a false negative that changes no result is P1, from the trace of which
# table each probe was of
expect_lone_p1 leveldb

# ---- 4. plugins inside LevelDB
build_plugin "$S/tests/plugins/mine.c" "$T/mine.so"
gen_wl 9 "$T/g9.wl"
sed 's/^open policies=bloom(bits=10) /open policies=mine(bits=10) /' "$T/g9.wl" > "$T/mine.wl"
grep -q '^open policies=mine' "$T/mine.wl" || fail "the generated workload's open line changed: $(grep '^open' "$T/g9.wl")"
"$FILTERLAB" replay "$T/mine.wl" --plugin "$T/mine.so" --engine leveldb --json --results "$T/mine.ldb" \
    > "$T/mine.json" 2> "$T/mine.err" || { cat "$T/mine.err"; fail "a correct plugin inside LevelDB"; }
"$FILTERLAB" replay "$T/mine.wl" --plugin "$T/mine.so" --results "$T/mine.own" > /dev/null 2>&1 &&
    cmp -s "$T/mine.own" "$T/mine.ldb" || fail "results differ with a plugin inside LevelDB"
grep -q '"point":{"considered":[1-9][0-9]*,"unfiltered":0,"positive":[0-9]*,"negative":[1-9]' "$T/mine.json" ||
    fail "no probe of the plugin counted inside LevelDB: $(cat "$T/mine.json")"
build_plugin "$S/tests/plugins/misbehave.c" "$T/mis.so"
printf '%s\n' 'filterlab-workload 1' 'open policies="broken" memtable_bytes=200' \
    'put abc 1' 'put b 3' 'flush' 'get abc' 'get zzz' > "$T/mis.wl"
"$FILTERLAB" replay "$T/mis.wl" --plugin "$T/mis.so" --engine leveldb > "$T/mis.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "^P10 bad-input: line 5 flush: builder of policy of kind 'broken' from plugin $T/mis.so broke its contract in build: build failed" "$T/mis.out" ||
    { cat "$T/mis.out"; fail "the broken policy's build inside LevelDB (exit $rc)"; }
grep -q "replay: filterlab replay $T/mis.wl --plugin $T/mis.so --engine leveldb" "$T/mis.out" ||
    fail "the replay line does not name the plugin and the engine: $(grep 'replay:' "$T/mis.out")"
# the mutant whose decode misreads its own bytes: wrong answers, so wrong results
# (the tombstone-forgetting mutant cannot show here: LevelDB hands a policy
# keys only, each given as a put)
build_plugin "$S/tests/mutants/bad_decode.c" "$T/bd.so"
"$FILTERLAB" replay "$S/tests/mutants/bad_decode.wl" --plugin "$T/bd.so" --engine leveldb > "$T/bd.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q '^P2 results: line [0-9]* get ' "$T/bd.out" ||
    { cat "$T/bd.out"; fail "the misdecoding plugin inside LevelDB: exit $rc"; }

# ---- 5. the table files, read by filterlab's reader: a flipped byte is P6
printf '%s\n' 'filterlab-workload 1' 'open policies="bloom(bits=10)" memtable_bytes=100000' \
    'put k1 v1' 'put k2 v2' 'flush' 'get k1' > "$T/one.wl"
rm -rf "$T/t"
"$FILTERLAB" replay "$T/one.wl" --engine leveldb --db "$T/t" > /dev/null 2>&1 || fail "one.wl on LevelDB"
tbl=$(cd "$T/t" && ls *.ldb | head -n 1)
[ -n "$tbl" ] || fail "no table after a flush"
size=$(wc -c < "$T/t/$tbl")
# the first byte of the first key's value (data block, offset 9..): flip it
printf '\377' | dd of="$T/t/$tbl" bs=1 seek=12 conv=notrunc 2> /dev/null
printf '%s\n' 'filterlab-workload 1' 'open policies="bloom(bits=10)"' 'get k2' > "$T/adopt.wl"
"$FILTERLAB" replay "$T/adopt.wl" --engine leveldb --db "$T/t" > "$T/p6.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "^P6 .*table $tbl breaks LevelDB's format: .*CRC" "$T/p6.out" ||
    { cat "$T/p6.out"; fail "a table with a flipped byte (of $size) is not P6 (exit $rc)"; }

# ---- 6. the hunt's first trials
"$FILTERLAB" check --engine leveldb --seed 1 --trials 20 > "$T/check.out" 2>&1 ||
    { cat "$T/check.out"; fail "check --engine leveldb --seed 1 --trials 20"; }
echo "leveldb: determinism, migrations, plugins inside LevelDB, its files read by filterlab; 20 check trials clean"

# ---- 7. the exact counts can fail: the adapter built with one change that
# counts a "no" of each read as a "maybe" must be P3 on a get whose tables'
# bits say otherwise (the plain build only: it links build/obj's objects)
case $FILTERLAB in */asan/*) exit 0 ;; esac
mutant miscount adapters/leveldb/leveldb_engine.c \
    's/uint64_t pos = e->counts.positive - before->positive, neg = e->counts.negative - before->negative;/&\n    if (neg) { neg--; pos++; }/' \
    -DFL_HAVE_LEVELDB
"$T/miscount" replay "$S/workloads/leveldb/migrations.wl" --engine leveldb > "$T/mut.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "^P3 .*: the get's SST filters said maybe [0-9]* and no [0-9]* time(s), but its live SSTs, read from their files, say maybe" "$T/mut.out" ||
    { head -5 "$T/mut.out"; fail "a LevelDB adapter that miscounts a no as a maybe is not P3 (exit $rc)"; }
echo "leveldb: an adapter that miscounts is P3: $(grep -c '^P3' "$T/mut.out") get(s) of migrations.wl"

# ---- 8. ... and the trace can fail: a reader that takes a filter's bytes
# one short matches no probe LevelDB made to a table, which is P3
mutant misread adapters/leveldb/leveldb_tables.c 's/XXH3_64bits(f.data, f.len)/XXH3_64bits(f.data, f.len ? f.len - 1 : 0)/' \
    -DFL_HAVE_LEVELDB
"$T/misread" replay "$S/workloads/leveldb/migrations.wl" --engine leveldb > "$T/mut2.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "^P3 .*: SST filter probe 1 of the get was of a filter that none of the SSTs the get had to consider has: LevelDB gave the policy [0-9]* filter bytes (XXH3 [0-9a-f]*) where, in its read order, the filter of table [0-9]* that holds the key's block is" "$T/mut2.out" ||
    { head -5 "$T/mut2.out"; fail "a reader that misreads the filters LevelDB probes is not P3 (exit $rc)"; }
echo "leveldb: a trace matched to the wrong filters is P3: $(grep -c '^P3' "$T/mut2.out") get(s) of migrations.wl"
