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
#
# FL_MUTANT_ENGINE=slatedb runs every mutant inside that engine instead
# (its adapter runs plugins; docs/slatedb.md): a measurement of
# what is caught without a probe trace, not a test -- any property counts
# as caught (a false negative the trace calls P1 is a wrong result, P2,
# there), each miss is printed as MISSED and the run goes on.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

dir="$FL_SRCDIR/tests/mutants"
EF=
if [ -n "${FL_MUTANT_ENGINE:-}" ]; then
    EF="--engine $FL_MUTANT_ENGINE"
fi
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
    "$FILTERLAB" replay "$wl" --plugin "$T/$name.so" ${FL_MUTANT_ENGINE:+--engine "$FL_MUTANT_ENGINE"} \
        > "$T/$name.out" 2> "$T/$name.err"
    rc=$?
    got=
    [ -n "$EF" ] && expect="P1 P2 P3 P4 P5 P6 P7 P8 P9 P10 P11"
    for id in $expect; do
        grep -q "^$id " "$T/$name.err" && got="$got $id"
    done
    sanitizer=$(grep -E -m 1 'ERROR: (Address|Leak|Undefined)Sanitizer|runtime error:' \
                "$T/$name.err")
    message=$(sed -n 's/^#[[:space:]]*message:[[:space:]]*//p' "$wl" | head -n 1)
    unsaid=
    [ -n "$message" ] && [ -z "$EF" ] && ! grep -qF -- "$message" "$T/$name.err" && unsaid=$message
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
[ -n "$EF" ] && { echo "$((total - missed)) of $total mutants caught with $EF"; exit 0; }
[ $missed -eq 0 ] || fail "$missed of $total mutants missed"
exit 0
