#!/bin/sh
# replay_misbehave.sh -- the engine survives a plugin that breaks its
# contract (SPEC 3): an extractor answering n > len, an extractor and a
# policy with NULL names, a policy whose build and decode fail.  The replay
# must not crash, must count the contract violations, must give exactly the
# results of the same workload run with no filters at all, and the checker
# must report the extractor's n > len as P7 (exit 1).
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
[ "$rc" -eq 1 ] || { cat "$T/bad.err" >&2; fail "replay exit $rc, expected 1 (P7)"; }
grep -q '^P7 extractor-contract: .*extractor "liar".*longer than its' "$T/bad.err" ||
    fail "the checker did not report the liar extractor as P7"
if grep '^P[0-9]* ' "$T/bad.err" | grep -qv '^P7 '; then
    grep '^P[0-9]* ' "$T/bad.err" | grep -v '^P7 ' | head -3 >&2
    fail "a property other than P7 was reported"
fi
"$FILTERLAB" replay "$T/none.wl" --results "$T/none.out" > /dev/null 2>&1 || fail "reference replay failed"
cmp -s "$T/bad.out" "$T/none.out" || { diff "$T/bad.out" "$T/none.out" >&2; fail "results differ from the unfiltered run"; }
cv=$(sed -n 's/.*"contract_violations":\([0-9]*\).*/\1/p' "$T/bad.json")
[ -n "$cv" ] && [ "$cv" -gt 0 ] || fail "no contract violations counted: $(cat "$T/bad.json")"
grep -q "contract violation by liar" "$T/bad.err" || fail "the liar extractor is not named"
grep -q "must be <= its length" "$T/bad.err" || fail "n > len not reported"
grep -q "build failed" "$T/bad.err" || fail "failing build not reported"
exit 0
