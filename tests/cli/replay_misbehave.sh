#!/bin/sh
# replay_misbehave.sh -- the engine survives a plugin that breaks its
# contract (SPEC 3): an extractor answering n > len, an extractor and a
# policy with NULL names, a policy whose build and decode fail.  The replay
# must not crash, must count the contract violations, must give exactly the
# results of the same workload run with no filters at all, and every broken
# contract is a property failure naming the plugin file, the object's kind
# and what it broke (exit 1): P7 for the extractors, P10 for the policy's
# NULL name and failing build.  The repro line names the plugin.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

build_plugin "$FL_SRCDIR/tests/plugins/misbehave.c" "$T/mis.so"

body='put abc 1
put abd 2
put b 3
put "" empty
flush
put abe 4
del abd
delrange b c
flush
get abc
get abd
get b
get ""
get zzz
scan_prefix ab
scan_prefix ""
scan_prefix x
scan a z
compact full
get abc
scan_prefix ab
get abe'

{ echo 'filterlab-workload 1'
  echo 'open policies="broken;bloom(bits=10,prefix=liar);bloom(bits=8,prefix=noname,whole_key=0)" memtable_bytes=200'
  echo "$body"
  echo 'reopen policies="bloom(bits=10,prefix=liar,whole_key=0)"'
  echo 'get abe'
  echo 'scan_prefix ab'; } > "$T/bad.wl"
{ echo 'filterlab-workload 1'
  echo 'open policies=none memtable_bytes=200'
  echo "$body"
  echo 'reopen policies=none'
  echo 'get abe'
  echo 'scan_prefix ab'; } > "$T/none.wl"

"$FILTERLAB" replay "$T/bad.wl" --plugin "$T/mis.so" --results "$T/bad.out" --json \
    > "$T/bad.json" 2> "$T/bad.err"
rc=$?
[ "$rc" -lt 128 ] || fail "replay crashed (exit $rc)"
[ "$rc" -eq 1 ] || { cat "$T/bad.err" >&2; fail "replay exit $rc, expected 1"; }
grep -q "^P7 extractor-contract: .*extractor \"liar\" of kind 'liar' from plugin $T/mis.so broke its contract in prefix_len: prefix_len returned [0-9]* for a .* (must be <= its length)" "$T/bad.err" ||
    fail "the liar extractor is not reported as P7 naming the plugin"
grep -q "^P7 extractor-contract: .*extractor of kind 'noname' from plugin $T/mis.so broke its contract in name: name() returned NULL" "$T/bad.err" ||
    fail "the noname extractor is not reported as P7"
grep -q "^P10 bad-input: .*builder of policy of kind 'broken' from plugin $T/mis.so broke its contract in build: build failed" "$T/bad.err" ||
    fail "the broken policy's build is not reported as P10"
grep -q "^P10 bad-input: .*policy of kind 'broken' from plugin $T/mis.so broke its contract in name: name() returned NULL" "$T/bad.err" ||
    fail "the broken policy's NULL name is not reported as P10"
if grep '^P[0-9]* ' "$T/bad.err" | grep -qv '^P7 \|^P10 '; then
    grep '^P[0-9]* ' "$T/bad.err" | grep -v '^P7 \|^P10 ' | head -3 >&2
    fail "a property other than P7 and P10 was reported"
fi
grep -q "replay: filterlab replay $T/bad.wl --plugin $T/mis.so\$" "$T/bad.err" ||
    fail "the repro line does not name the plugin: $(grep 'replay:' "$T/bad.err")"
"$FILTERLAB" replay "$T/none.wl" --results "$T/none.out" > /dev/null 2>&1 || fail "reference replay failed"
cmp -s "$T/bad.out" "$T/none.out" || { diff "$T/bad.out" "$T/none.out" >&2; fail "results differ from the unfiltered run"; }
cv=$(sed -n 's/.*"contract_violations":\([0-9]*\).*/\1/p' "$T/bad.json")
[ -n "$cv" ] && [ "$cv" -gt 0 ] || fail "no contract violations counted: $(cat "$T/bad.json")"
exit 0
