#!/bin/sh
# fuzz_findings.sh -- a fuzz harness that goes through the engine's public
# wrappers still finds what it exists to find: fuzz_extractor, replaying one
# input through the standalone driver (build/fuzz-regress/, the ASan one
# beside build/asan/filterlab), aborts naming the broken contract for a
# plugin extractor that answers n > len ("liar") and for one whose name is
# NULL ("noname"), and passes the same input with a well-behaved user
# extractor and with the built-ins.  And fuzz_rocksdb (when built with
# RocksDB) passes tests/fuzz/rocksdb-fixed-prefix-abort, an input that
# reaches RocksDB 7.8.3's FixedPrefix assertion, by default (the known bugs
# are avoided) and dies on it with FILTERLAB_FUZZ_ROCKSDB_AVOID_KNOWN=0.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

case "$FILTERLAB" in
    */asan/*) drivers=${FILTERLAB%/asan/*}/fuzz-regress/asan ;;
    *)        drivers=$(dirname "$FILTERLAB")/fuzz-regress ;;
esac
h=$drivers/fuzz_extractor
[ -x "$h" ] || fail "$h is missing: build it with 'make fuzz-regress-build'"
build_plugin "$FL_SRCDIR/tests/plugins/misbehave.c" "$T/mis.so"

# kind byte with 0x80 set: the user's extractor; then the key "ab:c".
printf '\200\000ab:c' > "$T/in"

# run EXTRACTORS: the driver's exit status; its stderr in $T/err.
run() {
    FILTERLAB_FUZZ_PLUGINS=$T/mis.so FILTERLAB_FUZZ_EXTRACTORS=$1 "$h" "$T/in" > "$T/out" 2> "$T/err"
}

run liar && fail "fuzz_extractor passed an extractor answering n > len"
grep -q 'contract violation by extractor "liar"' "$T/err" || fail "liar: no violation named: $(cat "$T/err")"
grep -q 'prefix_len returned' "$T/err" || fail "liar: the broken contract is not described: $(cat "$T/err")"
grep -q 'mis.so' "$T/err" || fail "liar: the plugin file is not named: $(cat "$T/err")"

run noname && fail "fuzz_extractor passed an extractor with a NULL name"
grep -q "name() returned NULL" "$T/err" || fail "noname: no violation named: $(cat "$T/err")"

run 'fixed:2|delim:\x3a' || fail "a well-behaved extractor failed: $(cat "$T/err")"
grep -q '^1 inputs ran$' "$T/out" || fail "the input did not run: $(cat "$T/out")"
# the same bytes with the kind's top bit clear pick a built-in
printf '\002:ab:c' > "$T/in"
run liar || fail "a built-in extractor failed: $(cat "$T/err")"

# ---- fuzz_rocksdb ---------------------------------------------------------------------
r=$drivers/fuzz_rocksdb
if [ -x "$r" ]; then
    in=$FL_SRCDIR/tests/fuzz/rocksdb-fixed-prefix-abort
    FILTERLAB_FUZZ_ROCKSDB_AVOID_KNOWN=0 "$r" "$in" > "$T/out" 2> "$T/err"
    rc=$?
    if grep -q "Assertion .InDomain(src). failed" "$T/err"; then
        [ $rc -ne 0 ] || fail "fuzz_rocksdb hit RocksDB's assertion but exited 0"
        "$r" "$in" > "$T/out" 2> "$T/err" ||
            fail "fuzz_rocksdb, which avoids the known bugs by default, still failed: $(tail -n 3 "$T/err")"
    else
        [ $rc -eq 0 ] || fail "fuzz_rocksdb failed otherwise: $(tail -n 3 "$T/err")"
        echo "fuzz_rocksdb: this RocksDB does not abort on the FixedPrefix input (fixed upstream in 11.2.0)"
    fi
elif "$FILTERLAB" --version | grep -q "RocksDB [0-9]"; then
    fail "$r is missing though filterlab is built with RocksDB"
fi
exit 0
