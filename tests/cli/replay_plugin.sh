#!/bin/sh
# replay_plugin.sh -- a custom filter policy as a plugin (SPEC 3): builds
# tests/plugins/cli_minmax.c with only filter.h, replays a workload with
# policies="bloom(bits=10);minmax" and then "minmax" alone via --plugin, and
# checks the exact results (including a range tombstone in an SST whose
# filter rules the key out: it must still hide the older value) and that the
# plugin filtered something.  Without --plugin the unknown kind is exit 2,
# naming the known kinds; loading the same plugin twice is refused.  A
# plugin whose kind begins with "bloom" (tests/plugins/bloomier.c) is a
# plugin to the checker, not the built-in bloom: its replay beside the
# bloom passes.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

build_plugin "$FL_SRCDIR/tests/plugins/cli_minmax.c" "$T/minmax.so"

cat > "$T/w.wl" <<'WL'
# replay_plugin: a custom policy beside the built-in bloom
filterlab-workload 1
open policies="bloom(bits=10);minmax"
put a5 old
put b2 keep
flush
put m1 a
put m5 b
delrange a a9
put m9 c
flush
get m5
get m3
get a5
get b2
get zz
scan_prefix m
get m9 ctx=ff
reopen policies="minmax"
get a5
get a7
get b2
get m1
put q1 z
flush
get q1
get q0
scan_prefix ""
WL

cat > "$T/expected" <<'EXP'
12 get m5 -> b
13 get m3 -> none
14 get a5 -> none
15 get b2 -> keep
16 get zz -> none
17 scan_prefix m -> m1=a m5=b m9=c
18 get m9 -> c
20 get a5 -> none
21 get a7 -> none
22 get b2 -> keep
23 get m1 -> a
26 get q1 -> z
27 get q0 -> none
28 scan_prefix "" -> b2=keep m1=a m5=b m9=c q1=z
EXP

"$FILTERLAB" replay "$T/w.wl" --plugin "$T/minmax.so" --results "$T/out" --json > "$T/json" 2> "$T/err"
rc=$?
[ $rc -eq 0 ] || { cat "$T/err" >&2; fail "replay with the plugin exited $rc"; }
if ! cmp -s "$T/expected" "$T/out"; then
    diff "$T/expected" "$T/out" >&2
    fail "results with the plugin differ (diff: expected, got)"
fi
# get b2 and get a5/a7 after the reopen can only be ruled out by minmax
# (the only configured policy): it must have said no at least 3 times.
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
p = d["point"]
assert d["violations"] == 0 and d["contract_violations"] == 0 and d["filter_errors"] == 0, d
assert p["considered"] == p["unfiltered"] + p["positive"] + p["negative"], p
assert p["negative"] >= 3, "minmax ruled out fewer than 3 SSTs: %r" % p
' "$T/json" || { cat "$T/json" >&2; fail "metrics with the plugin"; }

# Without the plugin: the unknown kind is bad input at line 3, naming bloom.
"$FILTERLAB" replay "$T/w.wl" > "$T/out2" 2> "$T/err2"
rc=$?
[ $rc -eq 2 ] || { cat "$T/err2" >&2; fail "unknown kind without --plugin: exit $rc, expected 2"; }
grep -q "w.wl:3" "$T/err2" || { cat "$T/err2" >&2; fail "unknown kind: no FILE:LINE"; }
grep -q "bloom" "$T/err2" || { cat "$T/err2" >&2; fail "unknown kind: known kinds not listed"; }

# The same kind registered twice is refused.
"$FILTERLAB" replay "$T/w.wl" --plugin "$T/minmax.so" --plugin "$T/minmax.so" > /dev/null 2> "$T/err3"
rc=$?
[ $rc -eq 2 ] || { cat "$T/err3" >&2; fail "registering minmax twice: exit $rc, expected 2"; }
# A kind that begins with "bloom" is a plugin all the same (found unpinned by
# mutate.sh --checker: a checker that took any "bloom..." spec for the
# built-in bloom cried P4 on this workload, from check --seed 3 --trial 0)
build_plugin "$FL_SRCDIR/tests/plugins/bloomier.c" "$T/bloomier.so"
printf 'filterlab-workload 1\nopen policies="bloomier;bloom"\nput "" ""\nput a ""\ncompact full\nscan_prefix "\\x01"\n' \
    > "$T/bloomier.wl"
"$FILTERLAB" replay "$T/bloomier.wl" --plugin "$T/bloomier.so" > "$T/out" 2> "$T/err"
rc=$?
[ $rc -eq 0 ] || { cat "$T/err" >&2; fail "a plugin of kind bloomier: replay exited $rc"; }
grep -q 'violations 0' "$T/out" || fail "a plugin of kind bloomier: $(cat "$T/out")"
exit 0
