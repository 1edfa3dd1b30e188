#!/bin/sh
# bloom_scalar.sh -- the built-in bloom's scalar probe (what a CPU without
# AVX2 runs, forced here with FILTERLAB_NO_SIMD=1) and its AVX2 probe (what
# a CPU without AVX-512 runs, FILTERLAB_SIMD=avx2) give the same results,
# metrics and verdicts as the default one on a workload with whole-key and
# prefix blooms at several bits per key, and every check holds with each.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

"$FILTERLAB" gen --shape group-suffix --ops 20000 --keys 3000 --flush-every 700 \
    --compact-every 5000 --reopen-every 9000 --seed 9 \
    --open 'policies="bloom(bits=6);bloom(bits=16,prefix=fixed:5)" memtable_bytes=65536' \
    -o "$T/w.wl" || fail "gen"
"$FILTERLAB" replay "$T/w.wl" --results "$T/simd.res" --json > "$T/simd.json" || fail "replay (default probe)"
FILTERLAB_NO_SIMD=1 "$FILTERLAB" replay "$T/w.wl" --results "$T/scalar.res" --json > "$T/scalar.json" ||
    fail "replay with the scalar probe"
cmp -s "$T/simd.res" "$T/scalar.res" || fail "results differ between the scalar and the default probe"
sed 's/"elapsed_s":[0-9.e+-]*,"peak_rss_mib":[0-9.e+-]*,//' "$T/simd.json" > "$T/a"
sed 's/"elapsed_s":[0-9.e+-]*,"peak_rss_mib":[0-9.e+-]*,//' "$T/scalar.json" > "$T/b"
cmp -s "$T/a" "$T/b" || fail "metrics differ: $(cat "$T/a") vs $(cat "$T/b")"
grep -q '"false_positive":[1-9]' "$T/a" || fail "no false positive at all: the probes were not exercised"
FILTERLAB_NO_SIMD=1 "$FILTERLAB" check --trials 20 --seed 3 > "$T/check.out" 2>&1 ||
    fail "check with the scalar probe: $(tail -3 "$T/check.out")"
FILTERLAB_SIMD=avx2 "$FILTERLAB" replay "$T/w.wl" --results "$T/avx2.res" --json > "$T/avx2.json" ||
    fail "replay with the AVX2 probe"
cmp -s "$T/simd.res" "$T/avx2.res" || fail "results differ between the AVX2 and the default probe"
sed 's/"elapsed_s":[0-9.e+-]*,"peak_rss_mib":[0-9.e+-]*,//' "$T/avx2.json" > "$T/c"
cmp -s "$T/a" "$T/c" || fail "metrics differ: $(cat "$T/a") vs $(cat "$T/c")"
FILTERLAB_SIMD=avx2 "$FILTERLAB" check --trials 20 --seed 3 > "$T/check.out" 2>&1 ||
    fail "check with the AVX2 probe: $(tail -3 "$T/check.out")"
exit 0
