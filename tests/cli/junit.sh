#!/bin/sh
# junit.sh -- `replay --junit FILE`: JUnit XML with one test case per
# property -- all passing on a clean run; on a run with a finding, that
# property failed with its first violation and the line that replays it,
# and, when the run died before its end, the others skipped with the reason;
# markup and odd bytes in messages escaped; --junit - beside --json refused.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

"$FILTERLAB" replay "$FL_SRCDIR/workloads/basic.wl" --junit "$T/ok.xml" > /dev/null || fail "replay --junit of basic.wl"
grep -q '<testsuite name="filterlab replay .*basic.wl" tests="11" failures="0" errors="0" skipped="0"' "$T/ok.xml" ||
    fail "a clean run's suite: $(sed -n 3p "$T/ok.xml")"
[ "$(grep -c '<testcase classname="filterlab.replay" name="P[0-9]* [a-z-]*" time="[0-9.]*"/>' "$T/ok.xml")" -eq 11 ] ||
    fail "not 11 passing property cases: $(cat "$T/ok.xml")"
tail -n 1 "$T/ok.xml" | grep -q '^</testsuites>$' || fail "the XML is not closed"

# a plugin that crashes: P10 failed, the rest skipped (the run did not finish)
build_plugin "$FL_SRCDIR/tests/plugins/hang.c" "$T/hang.so"
printf 'filterlab-workload 1\nopen policies="hang(in=crash)"\nput a 1\nflush\nget a\n' > "$T/c.wl"
"$FILTERLAB" replay "$T/c.wl" --plugin "$T/hang.so" --junit "$T/c.xml" > /dev/null 2>&1
[ $? -eq 1 ] || fail "the crashing replay did not exit 1"
grep -q 'tests="11" failures="1" errors="0" skipped="10"' "$T/c.xml" || fail "crash suite: $(sed -n 3p "$T/c.xml")"
grep -q '<failure type="P10 bad-input" message="P10 bad-input: line 4 flush: the run died with signal 11 .*policy &quot;hang-crash&quot; of kind &apos;hang&apos;' "$T/c.xml" ||
    fail "the P10 failure (escaped): $(grep failure "$T/c.xml")"
grep -q "replay: filterlab replay $T/c.wl --plugin $T/hang.so</failure>" "$T/c.xml" || fail "no reproduction line in the failure"
grep -q '<skipped message="the run died (P10)"/>' "$T/c.xml" || fail "the other properties are not skipped with the reason"
if command -v xmllint > /dev/null; then
    xmllint --noout "$T/ok.xml" "$T/c.xml" || fail "xmllint rejects the JUnit XML"
fi

# markup in a name is escaped
cp "$FL_SRCDIR/workloads/basic.wl" "$T/a<&>b.wl"
"$FILTERLAB" replay "$T/a<&>b.wl" --junit "$T/m.xml" > /dev/null || fail "replay of a<&>b.wl"
grep -q 'name="filterlab replay .*/a&lt;&amp;&gt;b.wl"' "$T/m.xml" || fail "markup not escaped: $(sed -n 3p "$T/m.xml")"

# check --junit, as examples/ci/filterlab.yml runs it: a clean shard, then
# a broken plugin's finding with its seed, trial and replay line
"$FILTERLAB" check --trials 4 --seed 3 --shard 0/4 --out "$T/f" --junit "$T/ck.xml" > /dev/null ||
    fail "a clean check --junit run"
grep -q '<testsuite name="filterlab check (seed 3)" tests="11" failures="0"' "$T/ck.xml" ||
    fail "clean check suite: $(sed -n 3p "$T/ck.xml")"
build_plugin "$FL_SRCDIR/tests/plugins/misbehave.c" "$T/mis.so"
"$FILTERLAB" check --plugin "$T/mis.so" --policy broken --trials 3 --out "$T/f" --junit "$T/ck2.xml" > /dev/null 2>&1
[ $? -eq 1 ] || fail "check with a broken plugin did not exit 1"
grep -q 'failures="1"' "$T/ck2.xml" && grep -q '<failure type="P10 bad-input"' "$T/ck2.xml" ||
    fail "the finding is not a JUnit failure: $(grep -c failure "$T/ck2.xml")"
grep -q "seed 1, trial 0, after 1 trials; minimized from [0-9]* to [0-9]* ops: $T/f/P10-seed1-trial0.wl" "$T/ck2.xml" &&
    grep -q "replay: filterlab replay $T/f/P10-seed1-trial0.wl --plugin $T/mis.so</failure>" "$T/ck2.xml" ||
    fail "the failure lacks its seed, trial or replay line: $(grep -A3 '<failure' "$T/ck2.xml")"

# stdout stays one document
"$FILTERLAB" replay "$FL_SRCDIR/workloads/basic.wl" --json --junit - > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "give --junit a file" "$T/err" || fail "--junit - with --json: $(cat "$T/err")"
exit 0
