#!/bin/sh
# replay_stream.sh -- `filterlab replay` of a regular file reads it in
# chunks (65,536 ops) after one pass that parses every line: the results,
# the metrics and the op count are those of the same workload read whole
# from stdin; a bad line past the first chunks stops the replay before any
# op runs (exit 2, the line named, no results written), as for a whole read.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

"$FILTERLAB" gen --shape group-suffix --ops 150000 --keys 5000 --flush-every 4000 \
    --compact-every 30000 --reopen-every 70000 --seed 4 -o "$T/w.wl" || fail "gen"
ops=$(grep -cv '^\(#\|filterlab-workload\|$\)' "$T/w.wl")
[ "$ops" -gt 131072 ] || fail "the workload should span three chunks: $ops ops"

"$FILTERLAB" replay "$T/w.wl" --results "$T/file.res" --json > "$T/file.json" || fail "replay of the file"
"$FILTERLAB" replay - --results "$T/stdin.res" --json < "$T/w.wl" > "$T/stdin.json" || fail "replay of stdin"
cmp -s "$T/file.res" "$T/stdin.res" || fail "results differ between the streamed file and stdin"
# (the time and the memory differ: reading in chunks is the point)
sed 's/"elapsed_s":[0-9.e+-]*,"peak_rss_mib":[0-9.e+-]*//' "$T/file.json" > "$T/a"
sed 's/"elapsed_s":[0-9.e+-]*,"peak_rss_mib":[0-9.e+-]*//' "$T/stdin.json" > "$T/b"
cmp -s "$T/a" "$T/b" || fail "the JSON differs: $(cat "$T/file.json") vs $(cat "$T/stdin.json")"
grep -q "\"ops\":$ops," "$T/file.json" || fail "the op count is not $ops: $(head -c 200 "$T/file.json")"

# a bad line at the very end: nothing runs, the results file is not made
cp "$T/w.wl" "$T/bad.wl"
echo "get" >> "$T/bad.wl"
line=$(wc -l < "$T/bad.wl")
"$FILTERLAB" replay "$T/bad.wl" --results "$T/bad.res" > "$T/bad.out" 2> "$T/bad.err"
st=$?
[ $st -eq 2 ] || fail "a bad last line gave exit $st, not 2: $(cat "$T/bad.err")"
grep -q "bad.wl:$line: expected" "$T/bad.err" || fail "the bad line is not named: $(cat "$T/bad.err")"
[ ! -e "$T/bad.res" ] || fail "results were written for a workload that did not run"
[ ! -s "$T/bad.out" ] || fail "a summary was printed: $(cat "$T/bad.out")"

# a bad option in an open past the first chunk is found before the run too
cp "$T/w.wl" "$T/badopt.wl"
echo 'reopen policies="bloom(bits=oops)"' >> "$T/badopt.wl"
"$FILTERLAB" replay "$T/badopt.wl" > /dev/null 2> "$T/badopt.err"
st=$?
[ $st -eq 2 ] || fail "a bad reopen past the first chunk gave exit $st, not 2"
grep -q "badopt.wl:$((line)):" "$T/badopt.err" || fail "the bad reopen is not named: $(cat "$T/badopt.err")"
exit 0
