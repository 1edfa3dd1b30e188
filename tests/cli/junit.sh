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

# stdout stays one document
"$FILTERLAB" replay "$FL_SRCDIR/workloads/basic.wl" --json --junit - > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "give --junit a file" "$T/err" || fail "--junit - with --json: $(cat "$T/err")"
exit 0
