#!/bin/sh
# engine_mutants.sh -- `filterlab check` finds one-line bugs planted in the
# engine itself, within seconds: a wrong probe count exactly at a boundary
# of the bits-per-key -> k table (SPEC 5), in the table and in the formula
# above it, and off-by-ones at a range tombstone's exclusive end where the
# read path and the SST writer decide an SST's key range.
#
# The sources are copied to a temporary directory and filterlab is built
# there once (-O1, no debug info).  Each mutant replaces one exact line of
# engine/*.c -- the test FAILS if that line is not there exactly once, so it
# cannot rot into a no-op -- and only that file is recompiled.  Then
#   filterlab check --seed 1 --time 10 --shrink-time 2
# runs on each mutant (two at a time) and must exit 1 with the expected
# property, and the minimized workload it writes must fail again on the
# mutant and pass on the unmutated $FILTERLAB: a real difference, found.
# With the ASan+UBSan binary as $FILTERLAB only the target lines are
# checked; the mutants are built and run in the plain pass.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

# mutant NAME FILE EXPECTED-PROPERTY OLD-LINE NEW-LINE
names=
mutant() {
    count=$(grep -Fxc -- "$4" "$FL_SRCDIR/$2")
    [ "$count" = 1 ] ||
        fail "$1: the target line occurs $count times in $2, expected once (update this test): $4"
    printf '%s\n%s\n%s\n%s\n' "$2" "$3" "$4" "$5" > "$T/$1.mutant"
    names="$names $1"
}

mutant k_at_14_bits engine/bloom.c P5 \
    '        { 11720, 7 }, { 14000, 8 }, { 16050, 9 }, { 18300, 10 }, { 22000, 11 }, { 25500, 12 },' \
    '        { 11720, 7 }, { 13999, 8 }, { 16050, 9 }, { 18300, 10 }, { 22000, 11 }, { 25500, 12 },'
mutant k_above_the_table engine/bloom.c P5 \
    '    uint64_t k = millibits / 2000 - 1;' \
    '    uint64_t k = (millibits - 1) / 2000 - 1;'
mutant get_covers_exclusive_end engine/read.c P6 \
    '    return c < 0 || (c == 0 && !in->largest_exclusive);' \
    '    return c <= 0;'
mutant scan_overlaps_exclusive_end engine/read.c P6 \
    '    if (c > 0 || (c == 0 && in->largest_exclusive)) return false;' \
    '    if (c > 0) return false;'
mutant tombstone_end_at_last_key engine/sst_write.c P2 \
    '        if (c > 0) { hi = rt->end; hil = rt->elen; excl = true; }' \
    '        if (c >= 0) { hi = rt->end; hil = rt->elen; excl = true; }'

case $FILTERLAB in
    */asan/*) echo "target lines present; the mutants run in the plain pass"; exit 0 ;;
esac

# The tree without its build outputs; the Makefile says what filterlab is
# made of.  MAKEFLAGS is cleared: this make is no child of the one running
# the tests.
src="$T/src"
mkdir -p "$src"
tar -C "$FL_SRCDIR" --exclude=./.git --exclude=./build --exclude=./reports/out --exclude=./bench/out \
    --exclude=./properties/failures -cf - . | tar -C "$src" -xf - || fail "cannot copy the sources"
build() {
    MAKEFLAGS= make -s -C "$src" BUILD="$src/build" OPT=-O1 CFLAGS=-g0 -j2 "$src/build/filterlab" \
        > "$T/make.log" 2>&1 || { cat "$T/make.log" >&2; fail "$1: the build failed"; }
}
build "unmutated copy"

# Each mutant in turn: the one line replaced, rebuilt, the binary kept, the
# file restored.
for name in $names; do
    file=$(sed -n 1p "$T/$name.mutant")
    cp "$src/$file" "$T/orig"
    OLD=$(sed -n 3p "$T/$name.mutant") NEW=$(sed -n 4p "$T/$name.mutant") \
        awk '$0 == ENVIRON["OLD"] { print ENVIRON["NEW"]; next } { print }' "$T/orig" > "$src/$file"
    cmp -s "$T/orig" "$src/$file" && fail "$name: the line was not replaced in $file"
    build "$name"
    cp "$src/build/filterlab" "$T/bin-$name"
    cp "$T/orig" "$src/$file"
done

check_one() {
    "$T/bin-$1" check --seed 1 --time 10 --shrink-time 2 --out "$T/out-$1" > "$T/$1.out" 2> "$T/$1.err"
    echo $? > "$T/$1.rc"
}
running=0
for name in $names; do
    check_one "$name" &
    running=$((running + 1))
    if [ $running -eq 2 ]; then wait; running=0; fi
done
wait

missed=0
for name in $names; do
    want=$(sed -n 2p "$T/$name.mutant")
    rc=$(cat "$T/$name.rc")
    found=$(sed -n 's/^check: \(P[0-9]*\) .* after \([0-9]*\) trials\{0,1\} .*/\1/p' "$T/$name.err" | head -n 1)
    trials=$(sed -n 's/^check: P[0-9]* .* after \([0-9]*\) trials\{0,1\} .*/\1/p' "$T/$name.err" | head -n 1)
    wl=$(sed -n 's/.*minimized from [0-9]* to [0-9]* ops: //p' "$T/$name.err" | head -n 1)
    mutant_rc=- real_rc=-
    if [ -n "$wl" ] && [ -f "$wl" ]; then
        "$T/bin-$name" replay "$wl" > /dev/null 2>&1
        mutant_rc=$?
        "$FILTERLAB" replay "$wl" > /dev/null 2>&1
        real_rc=$?
    fi
    if [ "$rc" = 1 ] && [ "$found" = "$want" ] && [ "$mutant_rc" = 1 ] && [ "$real_rc" = 0 ]; then
        echo "found $name: $found after $trials trials"
    else
        missed=$((missed + 1))
        echo "MISSED $name: expected $want, got '${found:-none}' (exit $rc); the minimized workload" \
             "replays with exit $mutant_rc on the mutant, $real_rc on $FILTERLAB"
        sed 's/^/    /' "$T/$name.err" "$T/$name.out" | head -n 8
    fi
done
[ $missed -eq 0 ] || fail "$missed engine mutants not found by filterlab check --seed 1 --time 10"
exit 0
