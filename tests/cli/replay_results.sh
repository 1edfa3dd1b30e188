#!/bin/sh
# replay_results.sh -- `filterlab replay --results`: the exact text of every
# read op's result line (SPEC 11): found and missing gets, scans over a
# prefix and a range, empty scans ending in "->" (an empty range [K, K) over
# an SST that holds K reads nothing: no P3), quoted and escaped byte
# strings, reads with a filter context, results across reopen, a multiget's
# line per key (on RocksDB too), and the same
# text whether written to a file or to stdout ("-").
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

cat > "$T/w.wl" <<'WL'
# replay_results: every kind of read result line
filterlab-workload 1
open policies="bloom(bits=10,prefix=fixed:2)"
put aa1 v1
put aa2 v2
put ab1 w1
put "sp ace" "x y"
put "a\x00b" bin
put "k=1" ""
put "t\tq\"" "\x10"
flush
get aa1
get zz
get "k=1"
get "sp ace"
scan_prefix aa
scan_prefix zz
scan a b
scan x y
del aa2
delrange ab ac
put aa3 v3
get aa2
get ab1
scan_prefix a ctx=00ff
get "a\x00b" ctx=01
compact full
reopen policies="bloom(bits=8)"
get aa3
scan "" ""
scan_prefix ""
scan aa3 aa3
WL

cat > "$T/expected" <<'EXP'
12 get aa1 -> v1
13 get zz -> none
14 get "k=1" -> ""
15 get "sp ace" -> "x y"
16 scan_prefix aa -> aa1=v1 aa2=v2
17 scan_prefix zz ->
18 scan a b -> "a\x00b"=bin aa1=v1 aa2=v2 ab1=w1
19 scan x y ->
23 get aa2 -> none
24 get ab1 -> none
25 scan_prefix a -> "a\x00b"=bin aa1=v1 aa3=v3
26 get "a\x00b" -> bin
29 get aa3 -> v3
30 scan "" "" ->
31 scan_prefix "" -> "a\x00b"=bin aa1=v1 aa3=v3 "k=1"="" "sp ace"="x y" "t\tq\""="\x10"
32 scan aa3 aa3 ->
EXP

"$FILTERLAB" replay "$T/w.wl" --results "$T/out" > "$T/stdout" 2> "$T/stderr"
rc=$?
[ $rc -eq 0 ] || { cat "$T/stderr" >&2; fail "replay exited $rc, expected 0"; }
if ! cmp -s "$T/expected" "$T/out"; then
    diff "$T/expected" "$T/out" >&2
    fail "--results FILE differs from the expected text (diff: expected, got)"
fi
[ -s "$T/stdout" ] || fail "no summary on stdout without --json"

# --json keeps stdout one JSON document: --results - beside it is a usage
# error, and so is a results file that is the workload itself.
"$FILTERLAB" replay "$T/w.wl" --results - --json > "$T/stdout2" 2> "$T/stderr2"
rc=$?
[ $rc -eq 2 ] || fail "replay --results - --json: exit $rc, not 2"
grep -q "both write stdout" "$T/stderr2" || fail "no clear message for --results - --json: $(cat "$T/stderr2")"
[ ! -s "$T/stdout2" ] || fail "--results - --json wrote to stdout"
cp "$T/w.wl" "$T/self.wl"
"$FILTERLAB" replay "$T/self.wl" --results "$T/self.wl" > /dev/null 2> "$T/stderr3"
rc=$?
[ $rc -eq 2 ] || fail "replay --results over its own workload: exit $rc, not 2"
cmp -s "$T/w.wl" "$T/self.wl" || fail "replay --results overwrote its own workload"
"$FILTERLAB" replay "$T/w.wl" --json --results "$T/r.txt" > "$T/j.json" || fail "--json with a results file"
head -c 8 "$T/j.json" | grep -q '^{"ops":' && [ "$(wc -l < "$T/j.json")" -eq 1 ] ||
    fail "--json with a results file is not one JSON document: $(head -c 200 "$T/j.json")"

# A value "none" never reads like a missing key: it is quoted.
printf 'filterlab-workload 1\nput k none\nget k\nget j\nscan_prefix k\n' > "$T/none.wl"
"$FILTERLAB" replay "$T/none.wl" --results "$T/none.txt" > /dev/null || fail "replay of none.wl failed"
printf '3 get k -> "none"\n4 get j -> none\n5 scan_prefix k -> k="none"\n' > "$T/none.want"
cmp -s "$T/none.txt" "$T/none.want" || { diff "$T/none.want" "$T/none.txt" >&2; fail "a value 'none' prints like a missing key"; }

# A multiget writes a line per key, in its order, repeats too; on RocksDB
# (one batched MultiGet) the same lines.
printf 'filterlab-workload 1\nput k 1\nput "a b" 2\nflush\ndel k\nmultiget k "a b" zz "a b" ctx=01\n' > "$T/multi.wl"
printf '6 multiget k -> none\n6 multiget "a b" -> 2\n6 multiget zz -> none\n6 multiget "a b" -> 2\n' > "$T/multi.want"
engines=filterlab
"$FILTERLAB" --version | grep -q "built without RocksDB" || engines="filterlab rocksdb"
for e in $engines; do
    "$FILTERLAB" replay "$T/multi.wl" --engine "$e" --results "$T/multi.txt" > /dev/null || fail "replay --engine $e of multi.wl failed"
    cmp -s "$T/multi.txt" "$T/multi.want" || { diff "$T/multi.want" "$T/multi.txt" >&2; fail "--engine $e: a multiget's results"; }
done

# A workload without reads writes an empty results file.
printf 'filterlab-workload 1\nput a 1\n' > "$T/noreads.wl"
"$FILTERLAB" replay "$T/noreads.wl" --results "$T/empty" > /dev/null || fail "replay of a write-only workload failed"
[ -f "$T/empty" ] && [ ! -s "$T/empty" ] || fail "results of a write-only workload are not an empty file"
exit 0
