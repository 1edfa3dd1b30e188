#!/bin/sh
# bench.sh -- `filterlab bench` (issues 7 and 15), a smoke run at small
# sizes: every group prints its rows, the CSV has one row per figure with 7
# fields, the scale group writes scale.csv (and scale.png with gnuplot)
# beside it, the deterministic figures are sane (the FP rate of the misses
# near the theory at 6, 10 and 16 bits/key, the live keys of the scale
# workloads, absent prefixes read <= 2% of the SSTs the no-filter case reads,
# both engines' probes equal in the RocksDB group), and the RocksDB group
# either runs or says that filterlab was built without RocksDB.  No timing is checked: these
# machines are shared.  Bad usage exits 2.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

"$FILTERLAB" bench --help > "$T/help" || fail "bench --help exits non-zero"
grep -q "rocksdb" "$T/help" || fail "bench --help does not describe the groups"

# --check-time 10: the testbed group runs `check --time 5` twice (memory
# and posix env) and fails when no trial finishes in that time.  The first
# trial takes about 0.1 s (0.2 s under ASan): 5 s is 25 to 50 times that,
# where 1 s (half a second each) left a busy machine room to finish none.
"$FILTERLAB" bench --quick --runs 1 --big-keys 20000 --replay-ops 3000 --check-time 10 \
    --csv "$T/r.csv" > "$T/out" 2> "$T/err" || { cat "$T/err"; fail "bench --quick failed"; }

for g in filter engine testbed scale; do
    grep -q "^$g " "$T/out" || fail "no $g rows in the table"
    grep -q "^$g," "$T/r.csv" || fail "no $g rows in the CSV"
done
# Built with RocksDB, the group runs; without, it says how to get it, in the
# words of the RocksDB engine.
missing="filterlab was built without RocksDB: install librocksdb-dev (apt-get install librocksdb-dev) and rebuild"
grep -q "^rocksdb " "$T/out" || grep -qF "note: rocksdb  skipped: $missing" "$T/out" ||
    fail "the rocksdb group neither ran nor said why not"
head -n 1 "$T/r.csv" | grep -qx "group,benchmark,value,unit,runs,target,met" || fail "CSV header"
awk -F, 'NR > 1 && NF != 7 { bad = 1 } END { exit bad }' "$T/r.csv" || fail "a CSV row without 7 fields"
rows=$(grep -c -E "^(filter|engine|rocksdb|testbed|scale) " "$T/out")
[ "$(($(wc -l < "$T/r.csv") - 1))" -eq "$rows" ] || fail "the CSV has not one row per table row"

# Deterministic figures: fixed keys and seeds, so no tolerance for noise.
for case in "6 3 9" "10 0.5 1.5" "16 0.02 0.3"; do
    set -- $case
    fp=$(awk -F, -v n="FP rate of the misses in cache at $1 bits/key" '$2 == n { print $3 }' "$T/r.csv")
    awk -v x="$fp" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x > lo && x < hi) }' ||
        fail "in-cache FP rate of misses at $1 bits/key is '$fp'%, not in ($2, $3)"
done
# the scale group: two sizes, their live keys (a property of the generator)
# and scale.csv beside the CSV
for ops in 10000 100000; do
    grep -q "^scale,checked replay of $ops ops: peak memory," "$T/r.csv" || fail "no scale row for $ops ops"
done
live=$(awk -F, '$2 == "checked replay of 10000 ops: live keys at the end" { print $3 }' "$T/r.csv")
[ "$live" = "4375" ] || fail "the 10,000-op scale workload should end with 4375 live keys, not '$live'"
head -n 1 "$T/scale.csv" | grep -qx "ops,seconds,peak_mib,ops_per_s,live_keys" || fail "scale.csv header"
[ "$(wc -l < "$T/scale.csv")" -eq 3 ] || fail "scale.csv should hold two sizes"
if command -v gnuplot > /dev/null; then
    [ -s "$T/scale.png" ] || fail "gnuplot is installed but scale.png was not drawn: $(grep scale "$T/out")"
fi
grep '^engine,absent prefixes: SST reads' "$T/r.csv" | grep -q ',yes$' ||
    fail "absent prefixes: the prefix-only bloom read more than 2% of the no-filter SSTs"
if grep -q "^rocksdb," "$T/r.csv"; then
    a=$(awk -F, '$2 ~ /RocksDB filter probes/ { print $3 }' "$T/r.csv")
    b=$(awk -F, '$2 ~ /filterlab filter probes/ { print $3 }' "$T/r.csv")
    [ "$a" = "$b" ] || fail "RocksDB probed $a filters, filterlab $b: not the same layout"
fi

# Bad usage: exit 2 and a message.
"$FILTERLAB" bench --only nosuch > /dev/null 2> "$T/e1"; [ $? -eq 2 ] || fail "--only nosuch"
grep -q "filter,engine,rocksdb,testbed,scale" "$T/e1" || fail "--only nosuch: no list of groups"
"$FILTERLAB" bench --runs 0 > /dev/null 2>&1; [ $? -eq 2 ] || fail "--runs 0"
exit 0
