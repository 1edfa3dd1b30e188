#!/bin/sh
# determinism.sh -- the same options give the same bytes and the same
# trials whatever compiler built filterlab: the gcc build (build/filterlab)
# and the clang ASan build (build/asan/filterlab) must write identical
# workloads for every shape and run identical check trials (the same ops).
# Catches a seeded stream that draws twice in one expression, whose order C
# leaves unspecified.  Runs once per binary; compares both each time.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

A=$FL_SRCDIR/build/filterlab
B=$FL_SRCDIR/build/asan/filterlab
[ -x "$A" ] && [ -x "$B" ] || fail "both builds are needed (make all asan)"
for shape in uniform zipf group-suffix delimited timeseries adversarial; do
    "$A" gen --shape "$shape" --ops 4000 --seed 9 --open 'policies="bloom(bits=10,prefix=fixed:3)"' \
        > "$T/a.wl" || fail "gen $shape (gcc build)"
    "$B" gen --shape "$shape" --ops 4000 --seed 9 --open 'policies="bloom(bits=10,prefix=fixed:3)"' \
        > "$T/b.wl" || fail "gen $shape (clang build)"
    cmp -s "$T/a.wl" "$T/b.wl" || fail "gen --shape $shape differs between the gcc and clang builds"
done
sum() { sed -n 's/^check: \([0-9]* trials, [0-9]* ops\) .*/\1/p' "$1"; }
"$A" check --seed 4 --trials 25 --out "$T/fa" > "$T/a.out" 2>&1 || fail "check (gcc build): $(tail -3 "$T/a.out")"
"$B" check --seed 4 --trials 25 --out "$T/fb" > "$T/b.out" 2>&1 || fail "check (clang build): $(tail -3 "$T/b.out")"
[ -n "$(sum "$T/a.out")" ] || fail "no summary line: $(cat "$T/a.out")"
[ "$(sum "$T/a.out")" = "$(sum "$T/b.out")" ] ||
    fail "check trials differ: gcc '$(sum "$T/a.out")', clang '$(sum "$T/b.out")'"
exit 0
