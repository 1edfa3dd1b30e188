#!/bin/sh
# check_jobs.sh -- `check --jobs N` runs N trials at once and is otherwise
# the same run as --jobs 1: the same trials counted (and ops run), the same
# first finding, shrunk to the same file, in a shard too.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

# "N trials, M ops" of a run's summary line (stdout)
counts() { sed -n 's/^check: \([0-9]* trials, [0-9]* ops\) in .*/\1/p' "$1"; }

case $FILTERLAB in
*/asan/*) N=8 ;;                     # ASan: a smaller run of each
*)        N=40 ;;
esac
for args in "--trials $N --seed 3" "--trials $((N / 2)) --seed 5 --shard 1/3" "--trials $((N / 2)) --seed 2 --crash"; do
    # shellcheck disable=SC2086
    "$FILTERLAB" check $args --jobs 1 --out "$T/o1" > "$T/a.out" 2> "$T/a.err" || fail "check $args --jobs 1: $(cat "$T/a.err")"
    # shellcheck disable=SC2086
    "$FILTERLAB" check $args --jobs 3 --out "$T/o3" > "$T/b.out" 2> "$T/b.err" || fail "check $args --jobs 3: $(cat "$T/b.err")"
    a=$(counts "$T/a.out")
    b=$(counts "$T/b.out")
    [ -n "$a" ] && [ "$a" = "$b" ] || fail "check $args: --jobs 1 ran '$a', --jobs 3 ran '$b'"
done

# with only built-in code the workers run their trials in their own
# process (properties/runner.c); a trial that ends its worker is run again
# in a child of its own and the run goes on as ever: here the worker dies
# as a crash would, after trial 5 (test hook), and every worker is replaced
# after 256 trials
R=$((N * 7))
"$FILTERLAB" check --trials $R --seed 4 --jobs 1 --out "$T/k0" > "$T/k0.out" 2> "$T/k0.err" || fail "check --trials $R: $(cat "$T/k0.err")"
for j in 1 2; do
    FILTERLAB_TEST_WORKER_DIES_IN=5 "$FILTERLAB" check --trials $R --seed 4 --jobs $j --out "$T/k$j" \
        > "$T/k$j.out" 2> "$T/k$j.err" || fail "check --jobs $j, a worker dying in trial 5: $(cat "$T/k$j.err")"
    a=$(counts "$T/k0.out")
    b=$(counts "$T/k$j.out")
    [ -n "$a" ] && [ "$a" = "$b" ] || fail "a worker dying in trial 5 (--jobs $j): ran '$b', not '$a'"
done

# a finding: the same first failing trial and the same minimized workload
# (bounded by trials, which the seed decides -- the mutant is found in
# trial 4 -- not by time; shrinking runs to its end, the same in both runs,
# 600 s being only a guard against a hang: a shrink a busy machine cut
# short would leave the two files different)
build_plugin "$FL_SRCDIR/tests/mutants/ctx_misread.c" "$T/m.so"
margs=$(sed -n 's/^#[[:space:]]*check:[[:space:]]*//p' "$FL_SRCDIR/tests/mutants/ctx_misread.wl" | head -n 1)
for j in 1 4; do
    # shellcheck disable=SC2086
    "$FILTERLAB" check --seed 1 --trials 200 --shrink-time 600 --jobs $j --out "$T/f$j" --plugin "$T/m.so" $margs \
        > /dev/null 2> "$T/f$j.err"
    rc=$?
    [ $rc -eq 1 ] || fail "check --jobs $j on the ctx_misread mutant: exit $rc, expected 1: $(cat "$T/f$j.err")"
done
a=$(grep '^check: P' "$T/f1.err" | grep ' after ')
b=$(grep '^check: P' "$T/f4.err" | grep ' after ')
[ -n "$a" ] && [ "$a" = "$b" ] || fail "the finding: --jobs 1 says '$a', --jobs 4 says '$b'"
for f in "$T"/f1/*.wl; do           # (the header's replay line names its directory)
    sed "s|$T/f1/||" "$f" > "$T/w1"
    sed "s|$T/f4/||" "$T/f4/$(basename "$f")" > "$T/w4"
    cmp -s "$T/w1" "$T/w4" || fail "$(basename "$f") differs between --jobs 1 and --jobs 4"
done

# bad values are usage errors
"$FILTERLAB" check --jobs 0 > /dev/null 2> "$T/u.err"
[ $? -eq 2 ] && grep -q -- "--jobs needs a count from 1 to 64" "$T/u.err" || fail "--jobs 0: $(cat "$T/u.err")"
exit 0
