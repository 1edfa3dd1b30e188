#!/bin/sh
# engine_mutants.sh -- the checker catches an engine that reports wrong
# metrics or whose bloom lets through more than it claims.  Each mutant is
# one engine source file changed by one sed, compiled and linked with the
# plain build's other objects (build/obj), then replayed; the test asserts
# the named property fires (the real binary passes the same workloads):
#   expected_one   read.c counts 1.8e-9, not 1, for a probe the bloom cannot
#                  make (a whole-key bloom asked for a prefix)        -> P4
#   expected_ppm   sst_read.c reports each bloom's expected rate 1e-6 high
#                                                                     -> P4
#   reads_unfiltered  read.c does not count the read of an unfiltered SST
#                                                                     -> P3
#   bloom_1_3x     bloom.c answers maybe for 30% more of the absent items
#                  than its bits do (each filter its own extra items): a
#                  real FP rate 1.3x its expected one.  Replayed on the L0
#                  FP workload (workloads/gen/l0_fp.sh, 200,000 absent
#                  gets); P5 sees the changed verdicts too, so the test
#                  asserts P9 itself                                  -> P9
# A sed that no longer applies (the source changed) fails the test: update
# the pattern.  Under the ASan+UBSan binary it is skipped (it builds from
# the plain objects; the plain run covers it).
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

case $FILTERLAB in */asan/*) echo "skipped under ASan (the plain build runs it)"; exit 0 ;; esac
OBJ=$FL_SRCDIR/build/obj
[ -f "$OBJ/engine/read.o" ] || fail "no plain build objects in $OBJ: run make"

# mutant NAME FILE SED: builds $T/NAME from engine/FILE changed by SED.
mutant() {
    name=$1; file=$2; expr=$3
    sed "$expr" "$FL_SRCDIR/engine/$file" > "$T/$name.c"
    cmp -s "$FL_SRCDIR/engine/$file" "$T/$name.c" && fail "$name: the sed no longer changes engine/$file"
    ${CC:-cc} -std=c11 -D_GNU_SOURCE -O2 -I"$FL_SRCDIR/engine" -c "$T/$name.c" -o "$T/$name.o" ||
        fail "$name: the mutated engine/$file does not compile"
    objs=$(find "$OBJ/engine" "$OBJ/workloads" "$OBJ/model" "$OBJ/properties" "$OBJ/cli" "$OBJ/bench" \
                "$OBJ/reports" -name '*.o' ! -path "$OBJ/engine/${file%.c}.o")
    # shellcheck disable=SC2086
    ${CC:-cc} -O2 -rdynamic $objs "$T/$name.o" -o "$T/$name" -lxxhash -ldl -lm ||
        fail "$name: cannot link"
}

# expect NAME WORKLOAD PROPERTY: the mutant's replay reports PROPERTY.
expect() {
    TMPDIR=$T "$T/$1" replay "$2" --json > "$T/$1.json" 2> "$T/$1.err"
    status=$?
    grep -q "\"properties\":{[^}]*\"$3\":[1-9]" "$T/$1.json" || {
        cat "$T/$1.json"; head -n 5 "$T/$1.err"
        fail "$1: replay of $2 did not report $3 (exit $status)"
    }
    [ $status -eq 1 ] || fail "$1: exit status $status, expected 1"
    echo "ok $1: $(head -n 1 "$T/$1.err" | cut -c1-160)"
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
TMPDIR=$T "$FILTERLAB" replay "$T/small.wl" > "$T/real.out" 2>&1 || { cat "$T/real.out"; fail "the real engine fails small.wl"; }

mutant expected_one read.c 's/? s->bloom_expected_fp : 1\.0;/? s->bloom_expected_fp : 1.8e-9;/'
expect expected_one "$T/small.wl" P4

mutant expected_ppm sst_read.c 's/&s->bloom_expected_fp)) s->bloom = true;/\&s->bloom_expected_fp)) { s->bloom = true; s->bloom_expected_fp *= 1.000001; }/'
expect expected_ppm "$T/small.wl" P4

mutant reads_unfiltered read.c 's/case FL_VERDICT_UNFILTERED: c->unfiltered++; db->metrics.sst_reads++; break;/case FL_VERDICT_UNFILTERED: c->unfiltered++; break;/'
expect reads_unfiltered "$T/small.wl" P3

sh "$FL_SRCDIR/workloads/gen/l0_fp.sh" > "$T/l0.wl" || fail "l0_fp.sh"
mutant bloom_1_3x bloom.c 's|^    return fl_bloom_test(f->bits, f->lines, f->k, fl_bloom_hash(probe.data, probe.len));|    uint64_t h_ = fl_bloom_hash(probe.data, probe.len), salt_;\
    memcpy(\&salt_, fl_bloom_line(f->bits, f->lines, h_), sizeof salt_);\
    return fl_bloom_test(f->bits, f->lines, f->k, h_) \|\|\
           (double)(((h_ ^ salt_) * 0x9E3779B97F4A7C15ull) >> 11) * 0x1p-53 < 0.3 * f->expected_fp / (1 - f->expected_fp);|'
expect bloom_1_3x "$T/l0.wl" P9
grep -o '"p9_point":{[^}]*}' "$T/bloom_1_3x.json"
exit 0
