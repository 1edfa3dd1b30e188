#!/bin/sh
# engine_mutants.sh -- the checker catches bugs planted in the engine
# itself.  Each mutant is one engine source file with one change, compiled
# and linked with the plain build's other objects (build/obj).
#
# Found from scratch by `filterlab check --seed 1 --trials 500` (two at a
# time), whose minimized workload must then fail on the mutant and pass on
# the real $FILTERLAB -- a real difference, found within the first 20
# trials (bounded by trials, not time: the seed decides which trial finds
# each, so a busy machine finds the same, later; --shrink-time 2 cuts the
# shrinking short, but every workload it keeps fails as the first did):
#   k_at_14_bits, k_above_the_table     a wrong probe count exactly at a
#       boundary of the bits-per-key -> k table (SPEC 5), in the table and
#       in the formula above it                                        -> P5
#   get_covers_exclusive_end, scan_overlaps_exclusive_end,
#   tombstone_end_at_last_key           off-by-ones at a range tombstone's
#       exclusive end where the read path and the SST writer decide an
#       SST's key range; the writer's, whose range then leaves out the SST's
#       last key, is found by P6's range check when the SST appears (before
#       that check, by P2 after about 300 trials)        -> P6 (or P3), P6
#   set_options_closes_its_readers      db.c's set_options closes the SST
#       readers it has just opened for the new policies: the next read
#       crashes (check's trials of filterlab's engine make set_options
#       since this mutant went unfound)                               -> P10
# Found by `filterlab check --crash --seed 1 --trials 500` (crash points;
# trial 107 finds it):
#   inputs_removed_early  compact.c removes a full compaction's inputs before
#                  it commits the MANIFEST without them: a crash between the
#                  two leaves a MANIFEST naming files that are gone (the
#                  reopen fails: P10); only a crash inside the compaction
#                  sees it, and the shrinker must keep its crash point
#                  (crash after=N) and take the error for the same one in
#                  each run's new directory
# Found by `filterlab check --seed 1 --time 5 --call-timeout 8`, whose time
# runs out inside the hung call (the call's timeout decides, not the limit):
#   merge_never_ends   read.c keeps a source that ran out in the merge of a
#                      forward range read, which then never ends: a hang of
#                      the engine itself, no plugin involved            -> P10
# Replayed on a given workload, which must report the named property:
#   expected_one   read.c counts 1.8e-9, not 1, for a probe the bloom cannot
#                  make (a whole-key bloom asked for a prefix)          -> P4
#   expected_ppm   sst_read.c reports each bloom's expected rate 1e-6 high
#                                                                       -> P4
#   reads_unfiltered  read.c does not count the read of an unfiltered SST
#                                                                       -> P3
#   bloom_1_3x     bloom.c answers maybe for 30% more of the absent items
#                  than its bits do: a real FP rate 1.3x its expected one,
#                  on the L0 FP workload (workloads/gen/l0_fp.sh); P5 sees
#                  the changed verdicts too, so P9 itself is asserted   -> P9
#   compaction_keeps_oldest  compact.c's merge puts the older of two
#                  versions of a key first, so a compaction keeps it and
#                  drops the newer one; each workload ends in a crash right
#                  after the compaction, so only the checker's comparison of
#                  what the reopened database holds with what the last flush
#                  left sees it, and must name the key and both values: an
#                  old value longer than the new ("1x" for "1": a compare of
#                  the shorter length alone passes it), an old put under a
#                  newer del, an old del over a newer put                -> P2
# A change that no longer applies (the source moved on) FAILS the test, so
# it cannot rot into a no-op: update the pattern.  Under the ASan+UBSan
# binary only the targets are checked; the mutants run in the plain pass.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

# FL_MUTANT_ENGINE=filterlab:untraced runs every mutant on the same engine
# judged without its probe trace and SST truth, as a foreign engine is: a
# measurement of what the trace catches that nothing else does (docs/engine-filterlab.md,
# "How much is lost without a probe trace"), not a test -- each miss is
# printed as MISSED and the run goes on.
EF=
if [ -n "${FL_MUTANT_ENGINE:-}" ]; then
    EF="--engine $FL_MUTANT_ENGINE"
    fail() { echo "MISSED: $*"; }
fi

OBJ=$FL_SRCDIR/build/obj
asan=false
case $FILTERLAB in */asan/*) asan=true ;; esac

# link NAME FILE: compiles $T/NAME.c (a changed engine/FILE) and links the
# filterlab binary $T/NAME with every other object of the plain build.
link() {
    $asan && return 0
    ${CC:-cc} -std=c11 -D_GNU_SOURCE -O2 -I"$FL_SRCDIR/engine" -c "$T/$1.c" -o "$T/$1.o" ||
        fail "$1: the changed engine/$2 does not compile"
    objs=$(tr ' ' '\n' < "$FL_SRCDIR/build/objs" | grep -v "engine/${2%.c}\.o\$" | sed "s|^build/|$FL_SRCDIR/build/|")
    # shellcheck disable=SC2086
    ${CC:-cc} -O2 -rdynamic $objs "$T/$1.o" -o "$T/$1" $(cat "$FL_SRCDIR/build/ldlibs") ||
        fail "$1: cannot link"
}

# line_mutant NAME FILE OLD NEW: the one line OLD of engine/FILE becomes NEW.
line_mutant() {
    count=$(grep -Fxc -- "$3" "$FL_SRCDIR/engine/$2")
    [ "$count" = 1 ] ||
        fail "$1: the target line occurs $count times in engine/$2, expected once (update this test): $3"
    OLD=$3 NEW=$4 awk '$0 == ENVIRON["OLD"] { print ENVIRON["NEW"]; next } { print }' \
        "$FL_SRCDIR/engine/$2" > "$T/$1.c"
    link "$1" "$2"
}

# sed_mutant NAME FILE EXPR: engine/FILE changed by sed EXPR.
sed_mutant() {
    sed "$3" "$FL_SRCDIR/engine/$2" > "$T/$1.c"
    cmp -s "$FL_SRCDIR/engine/$2" "$T/$1.c" && fail "$1: the sed no longer changes engine/$2"
    link "$1" "$2"
}

if ! $asan; then [ -f "$OBJ/engine/read.o" ] || fail "no plain build objects in $OBJ: run make"; fi

# ---- found by check --------------------------------------------------------------------
line_mutant k_at_14_bits bloom.c \
    '        { 11720, 7 }, { 14000, 8 }, { 16050, 9 }, { 18300, 10 }, { 22000, 11 }, { 25500, 12 },' \
    '        { 11720, 7 }, { 13999, 8 }, { 16050, 9 }, { 18300, 10 }, { 22000, 11 }, { 25500, 12 },'
line_mutant k_above_the_table bloom.c \
    '    uint64_t k = millibits / 2000 - 1;' \
    '    uint64_t k = (millibits - 1) / 2000 - 1;'
line_mutant get_covers_exclusive_end read.c \
    '    return c < 0 || (c == 0 && !in->largest_exclusive);' \
    '    return c <= 0;'
line_mutant scan_overlaps_exclusive_end read.c \
    '    if (c > 0 || (c == 0 && in->largest_exclusive)) return false;' \
    '    if (c > 0) return false;'
line_mutant set_options_closes_its_readers db.c \
    '    if (rc == FL_OK) return FL_OK;' \
    '    if (rc != FL_OK) return FL_OK;'
line_mutant merge_never_ends read.c \
    '            if (top->has && BEFORE_END(top)) heap_down(src, heap, nheap, 0);' \
    '            if (top->has || BEFORE_END(top)) heap_down(src, heap, nheap, 0);'
sed_mutant inputs_removed_early compact.c '/^static int compact_all_runs/,/^}/{
s/^    if (!rc) rc = fl_db_write_manifest(db);$/    if (!rc) rc = fl_db_remove_obsolete(db);/
s/^    return rc ? rc : fl_db_remove_obsolete(db);$/    return rc ? rc : fl_db_write_manifest(db);/
}'
line_mutant tombstone_end_at_last_key sst_write.c \
    '        if (c > 0) { hi = rt->end; hil = rt->elen; excl = true; }' \
    '        if (c >= 0) { hi = rt->end; hil = rt->elen; excl = true; }'

# ---- reported by replay -------------------------------------------------------------------
sed_mutant expected_one read.c 's/? s->bloom_expected_fp : 1\.0;/? s->bloom_expected_fp : 1.8e-9;/'
sed_mutant expected_ppm sst_read.c 's/&s->bloom_expected_fp)) s->bloom = true;/\&s->bloom_expected_fp)) { s->bloom = true; s->bloom_expected_fp *= 1.000001; }/'
sed_mutant reads_unfiltered read.c 's/case FL_VERDICT_UNFILTERED: c->unfiltered++; db->metrics.sst_reads++; break;/case FL_VERDICT_UNFILTERED: c->unfiltered++; break;/'
line_mutant compaction_keeps_oldest compact.c \
    '    if (x->head.seq != y->head.seq) return x->head.seq > y->head.seq;' \
    '    if (x->head.seq != y->head.seq) return x->head.seq < y->head.seq;'
sed_mutant bloom_1_3x bloom.c 's#^    return TEST(fl_bloom_line(f->bits, f->lines, h), (uint32_t)h, f->k)$#    uint64_t salt_; memcpy(\&salt_, fl_bloom_line(f->bits, f->lines, h), sizeof salt_); return TEST(fl_bloom_line(f->bits, f->lines, h), (uint32_t)h, f->k) || (double)(((h ^ salt_) * 0x9E3779B97F4A7C15ull) >> 11) * 0x1p-53 < 0.3 * f->expected_fp / (1 - f->expected_fp)#'

if $asan; then echo "targets present; the mutants run in the plain pass"; exit 0; fi

# ---- check, two at a time ---------------------------------------------------------------
# NAME:PROPERTY[/PROPERTY]: the first property found must be one of these
checked="k_at_14_bits:P5 k_above_the_table:P5 get_covers_exclusive_end:P6
         scan_overlaps_exclusive_end:P6/P3 tombstone_end_at_last_key:P6
         set_options_closes_its_readers:P10"
check_one() {
    TMPDIR=$T "$T/$1" check $EF --seed 1 --trials 500 --shrink-time 2 --out "$T/out-$1" > "$T/$1.out" 2> "$T/$1.err"
    echo $? > "$T/$1.rc"
}
running=0
for m in $checked; do
    check_one "${m%%:*}" &
    running=$((running + 1))
    if [ $running -eq 2 ]; then wait; running=0; fi
done
wait
missed=0
for m in $checked; do
    name=${m%%:*} want=${m#*:}
    rc=$(cat "$T/$name.rc")
    found=$(sed -n 's/^check: \(P[0-9]*\) .* after \([0-9]*\) trials\{0,1\} .*/\1/p' "$T/$name.err" | head -n 1)
    trials=$(sed -n 's/^check: P[0-9]* .* after \([0-9]*\) trials\{0,1\} .*/\1/p' "$T/$name.err" | head -n 1)
    wl=$(sed -n 's/.*minimized from [0-9]* to [0-9]* ops[^:]*: //p' "$T/$name.err" | head -n 1)
    mutant_rc=- real_rc=-
    if [ -n "$wl" ] && [ -f "$wl" ]; then
        TMPDIR=$T "$T/$name" replay $EF "$wl" > /dev/null 2>&1
        mutant_rc=$?
        TMPDIR=$T "$FILTERLAB" replay $EF "$wl" > /dev/null 2>&1
        real_rc=$?
    fi
    case "/$want/" in */"$found"/*) right=yes ;; *) right=no ;; esac
    if [ "$rc" = 1 ] && [ -n "$found" ] && [ $right = yes ] && [ "$mutant_rc" = 1 ] && [ "$real_rc" = 0 ]; then
        echo "found $name: $found after $trials trials"
    else
        missed=$((missed + 1))
        echo "MISSED $name: expected $want, got '${found:-none}' (exit $rc); the minimized workload" \
             "replays with exit $mutant_rc on the mutant, $real_rc on $FILTERLAB"
        sed 's/^/    /' "$T/$name.err" "$T/$name.out" | head -n 8
    fi
done
[ $missed -eq 0 ] || fail "$missed engine mutants not found by filterlab check --seed 1 --trials 500"

# ---- a hang of the engine, at check's time limit -------------------------------------------
# The first trials hang in a scan.  The run ends by --time plus the call
# timeout (and the child's grace) with the hang as its finding -- not with
# "0 trials, no violation" -- and the minimized workload hangs on replay
# (P10, exit 1) and passes on the real engine.  The hang is entered within
# a fraction of a second, long before the 5 s limit however busy the
# machine, and the hang itself never ends: the 8 s call timeout is the only
# clock that decides, and the run's length is bounded only against a hang
# of check itself, with 20 s to spare.
t0=$(date +%s)
TMPDIR=$T "$T/merge_never_ends" check $EF --seed 1 --time 5 --call-timeout 8 --shrink-time 1 --out "$T/out-hang" \
    > "$T/hang.out" 2> "$T/hang.err"
rc=$? took=$(($(date +%s) - t0))
[ $rc -eq 1 ] || { cat "$T/hang.err" >&2; fail "merge_never_ends: check exit $rc, expected 1 (a hang is a finding)"; }
grep -q '^check: P10 bad-input after [0-9]* trials\{0,1\} ' "$T/hang.err" || fail "merge_never_ends: $(tail -n 3 "$T/hang.err")"
grep -q 'engine filterlab[:a-z]*: [a-z_]* did not return within [0-9.]* s (a call into the engine under test' "$T/hang.err" ||
    fail "merge_never_ends: the finding does not name the engine's call: $(tail -n 3 "$T/hang.err")"
[ $took -le $((8 + 20)) ] || fail "merge_never_ends: check --time 5 --call-timeout 8 took $took s"
wl=$(sed -n 's/.*minimized from [0-9]* to [0-9]* ops[^:]*: //p' "$T/hang.err" | head -n 1)
[ -f "$wl" ] || fail "merge_never_ends: no minimized workload"
TMPDIR=$T "$T/merge_never_ends" replay $EF "$wl" --call-timeout 1 > /dev/null 2> "$T/hang-replay.err"
rc=$?
[ $rc -eq 1 ] && grep -q '^P10 bad-input: line [0-9]* [a-z_]*.*: engine filterlab[:a-z]*: [a-z_]* did not return within 1 s' \
    "$T/hang-replay.err" || fail "merge_never_ends: replay exit $rc: $(head -n 2 "$T/hang-replay.err")"
TMPDIR=$T "$FILTERLAB" replay $EF "$wl" > /dev/null 2>&1 || fail "merge_never_ends: the real engine fails $wl"
echo "found merge_never_ends: $(grep -o 'engine filterlab[:a-z]*: [a-z_]* did not return within [0-9.]* s' "$T/hang.err" | head -n 1), in $took s"

# ---- a crash point: check --crash, and a shrunk workload that still crashes there ------------
# (--shrink-time 15: shrinking to the end takes minutes; the first smaller
# workload it keeps comes in a fraction of a second, and that is all the
# test asks of it -- that it shrinks at all, keeping the crash point)
TMPDIR=$T "$T/inputs_removed_early" check $EF --crash --seed 1 --trials 500 --shrink-time 15 --out "$T/out-crash" \
    > "$T/crash.out" 2> "$T/crash.err"
rc=$?
[ $rc -eq 1 ] && grep -q '^check: P10 bad-input after [0-9]* trials\{0,1\} ' "$T/crash.err" ||
    { tail -n 5 "$T/crash.err" >&2; fail "inputs_removed_early: check --crash exit $rc, expected a P10"; }
grep -q "cannot open SST: No such file or directory (after the crash at file operation" "$T/crash.err" ||
    fail "inputs_removed_early: $(grep -m 1 '^check: P10' "$T/crash.err")"
from=$(sed -n 's/.*minimized from \([0-9]*\) to [0-9]* ops.*/\1/p' "$T/crash.err" | head -n 1)
to=$(sed -n 's/.*minimized from [0-9]* to \([0-9]*\) ops.*/\1/p' "$T/crash.err" | head -n 1)
wl=$(sed -n 's/.*minimized from [0-9]* to [0-9]* ops[^:]*: //p' "$T/crash.err" | head -n 1)
[ -n "$to" ] && [ "$to" -lt "$from" ] && [ -f "$wl" ] && grep -q '^crash after=[0-9]*$' "$wl" ||
    fail "inputs_removed_early: not shrunk ($from -> $to ops) or no crash point in it: $wl"
TMPDIR=$T "$T/inputs_removed_early" replay $EF "$wl" > /dev/null 2> "$T/crash-replay.err"
[ $? -eq 2 ] && grep -q "cannot open SST: No such file or directory (after the crash" "$T/crash-replay.err" ||
    fail "inputs_removed_early: the shrunk workload does not fail on the mutant (replay: an engine error, exit 2)"
TMPDIR=$T "$FILTERLAB" replay $EF "$wl" > /dev/null 2>&1 || fail "inputs_removed_early: the real engine fails $wl"
echo "found inputs_removed_early: P10 at a crash point, shrunk from $from to $to ops"

# ---- replay ---------------------------------------------------------------------------------
# expect NAME WORKLOAD PROPERTY: the mutant's replay reports PROPERTY.
expect() {
    TMPDIR=$T "$T/$1" replay $EF "$2" --json > "$T/$1.json" 2> "$T/$1.err"
    status=$?
    grep -q "\"properties\":{[^}]*\"$3\":[1-9]" "$T/$1.json" || {
        cat "$T/$1.json"; head -n 5 "$T/$1.err"
        fail "$1: replay of $2 did not report $3 (exit $status)"
    }
    [ $status -eq 1 ] || fail "$1: exit status $status, expected 1"
    echo "found $1: $(head -n 1 "$T/$1.err" | cut -c1-160)"
}

cat > "$T/small.wl" <<'EOF'
filterlab-workload 1
open policies="bloom(bits=10)" l0_trigger=1000
put a1 v
put a3 v
put b1 v
flush
put a2 v
put b2 v
flush
get a1
get a4
get b3
scan_prefix a
scan_prefix a5
scan a c
reopen policies=none
get a4
scan_prefix b
EOF
TMPDIR=$T "$FILTERLAB" replay $EF "$T/small.wl" > "$T/real.out" 2>&1 || { cat "$T/real.out"; fail "the real engine fails small.wl"; }
expect expected_one "$T/small.wl" P4
expect expected_ppm "$T/small.wl" P4
expect reads_unfiltered "$T/small.wl" P3
# crash_after WORKLOAD-NAME OPS...: a workload of OPS, then compact and crash
crash_after() {
    name=$1; shift
    { echo 'filterlab-workload 1'; echo 'open policies="bloom(bits=10)" l0_trigger=1000'
      for op in "$@"; do echo "$op"; done; echo compact; echo crash; } > "$T/$name.wl"
    TMPDIR=$T "$FILTERLAB" replay $EF "$T/$name.wl" > "$T/real.out" 2>&1 ||
        { cat "$T/real.out"; fail "the real engine fails $name.wl"; }
}
# expect_crash WORKLOAD-NAME ENTRIES DIFFERENCE: compaction_keeps_oldest's
# replay reports P2 at the crash, naming its file operation (the fault
# env's last: number, kind, path); the database read back holds ENTRIES
# entries, and DIFFERENCE is the first against the last flush's state
expect_crash() {
    expect compaction_keeps_oldest "$T/$1.wl" P2
    grep -q "^P2 results: line [0-9]* crash: after the crash at file operation \([0-9]*\) (\1 [a-z-]* [^)]*) the database holds $2 entries: neither what the last completed flush left ([0-9]*; against it, $3) nor" \
        "$T/compaction_keeps_oldest.err" || fail "compaction_keeps_oldest, $1.wl: $(head -n 1 "$T/compaction_keeps_oldest.err")"
}
crash_after longer 'put k 1x' flush 'put k 1' flush
expect_crash longer 1 'key k holds 1x, not 1'
crash_after deleted 'put k 1x' 'put j "a b"' flush 'del k' flush
expect_crash deleted 2 'key k holds 1x, which it should not hold'
crash_after put 'del k' flush 'put k 1' flush
expect_crash put 0 'key k is missing, where it should hold 1'

sh "$FL_SRCDIR/workloads/gen/l0_fp.sh" > "$T/l0.wl" || fail "l0_fp.sh"
expect bloom_1_3x "$T/l0.wl" P9
# P5 sees the changed verdicts first, naming the sub-filter by its name
grep -q '^P5 exact-verdicts: line [0-9]* get [^:]*: sst [0-9]* sub-filter "_bf" said maybe, the reference filter says no$' \
    "$T/bloom_1_3x.err" || fail "bloom_1_3x: P5's finding: $(grep -m 1 '^P5' "$T/bloom_1_3x.err")"
grep -o '"p9_point":{[^}]*}' "$T/bloom_1_3x.json"
# the same with the policy spelled "bloom" alone (10 bits/key by default):
# still the built-in bloom, whose verdicts P5 checks
sed 's/^open policies="bloom(bits=10)"/open policies=bloom/' "$T/l0.wl" > "$T/l0_bare.wl"
grep -q '^open policies=bloom ' "$T/l0_bare.wl" || fail "l0_fp.sh's open line changed: update this test"
expect bloom_1_3x "$T/l0_bare.wl" P5
exit 0
