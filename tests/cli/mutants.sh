#!/bin/sh
# mutants.sh -- the checker's self-test: every tests/mutants/NAME.c is a
# filter plugin with one deliberate, realistic bug, and NAME.wl a workload
# that exposes it, whose first line "# expect: P1 P7" lists the properties
# (SPEC 8) of which at least one must be reported.  For each mutant: build
# it as a user would (build_plugin), replay NAME.wl with --plugin, and
# require exit status 1 (a property was violated -- not 0, not 2, not a
# signal, not a sanitizer report) and a stderr line starting with one of
# the expected ids and a space ("P1 no-false-negative: ...").  Prints
# "caught NAME: P1" or "MISSED NAME: expected P1, exit N" and the first
# lines of its stderr; fails if any mutant was missed.  A "# message: TEXT"
# line adds that some finding on stderr holds TEXT (fixed, not a pattern).
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

dir="$FL_SRCDIR/tests/mutants"
total=0
missed=0

for src in "$dir"/*.c; do
    [ -f "$src" ] || continue
    name=$(basename "$src" .c)
    wl="$dir/$name.wl"
    total=$((total + 1))
    expect=
    [ -f "$wl" ] && expect=$(sed -n 's/^#[[:space:]]*expect:[[:space:]]*//p' "$wl" | head -n 1)
    bad_ids=$(printf '%s\n' $expect | grep -Ev '^P[0-9]+$')
    if [ -z "$expect" ] || [ -n "$bad_ids" ]; then
        echo "MISSED $name: $name.wl is missing or has no valid '# expect: P1 ...' line"
        missed=$((missed + 1))
        continue
    fi
    build_plugin "$src" "$T/$name.so"
    "$FILTERLAB" replay "$wl" --plugin "$T/$name.so" > "$T/$name.out" 2> "$T/$name.err"
    rc=$?
    got=
    for id in $expect; do
        grep -q "^$id " "$T/$name.err" && got="$got $id"
    done
    sanitizer=$(grep -E -m 1 'ERROR: (Address|Leak|Undefined)Sanitizer|runtime error:' \
                "$T/$name.err")
    message=$(sed -n 's/^#[[:space:]]*message:[[:space:]]*//p' "$wl" | head -n 1)
    unsaid=
    [ -n "$message" ] && ! grep -qF -- "$message" "$T/$name.err" && unsaid=$message
    if [ $rc -eq 1 ] && [ -n "$got" ] && [ -z "$sanitizer" ] && [ -z "$unsaid" ]; then
        echo "caught $name:$got"
    else
        missed=$((missed + 1))
        note=${got:+ (reported$got)}
        [ -n "$sanitizer" ] && note="$note, with a sanitizer report"
        [ -n "$unsaid" ] && note="$note, but no finding says: $unsaid"
        echo "MISSED $name: expected $expect, exit $rc$note"
        head -n 5 "$T/$name.err" | sed 's/^/    /'
        [ -z "$sanitizer" ] || echo "    ... $sanitizer"
    fi
done

[ $total -gt 0 ] || fail "no mutants in $dir"
[ $missed -eq 0 ] || fail "$missed of $total mutants missed"
exit 0
