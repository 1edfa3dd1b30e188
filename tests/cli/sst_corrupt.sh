#!/bin/sh
# sst_corrupt.sh -- a corrupt SST data block is a clear error, never a crash
# or a wrong answer (SPEC 2.6, P10): write a database with --db, flip bytes
# inside the first data block of its .sst, then replay gets of the stored
# keys against it: exit 2 with a message naming the corruption and the file,
# and no signal (exit < 128).
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

{
    echo "filterlab-workload 1"
    i=0
    while [ $i -lt 20 ]; do echo "put key$i value-number-$i-with-some-padding"; i=$((i + 1)); done
    echo flush
} > "$T/write.wl"
{
    echo "filterlab-workload 1"
    i=0
    while [ $i -lt 20 ]; do echo "get key$i"; i=$((i + 1)); done
} > "$T/read.wl"

"$FILTERLAB" replay "$T/write.wl" --db "$T/db" > /dev/null 2> "$T/err" || { cat "$T/err" >&2; fail "writing the database failed"; }
set -- "$T/db"/*.sst
[ $# -eq 1 ] && [ -f "$1" ] || fail "expected exactly one .sst in $T/db, got: $*"
sst=$1
name=$(basename "$sst")

# Data blocks come first (SPEC 2.6): invert 8 bytes at offset 16.
off=16
bytes=$(od -An -tu1 -j $off -N 8 "$sst") || fail "cannot read $sst"
esc=""
for b in $bytes; do esc="$esc$(printf '\\%03o' $((255 - b)))"; done
# shellcheck disable=SC2059
printf "$esc" | dd of="$sst" bs=1 seek=$off count=8 conv=notrunc 2> /dev/null || fail "cannot patch $sst"
[ "$(od -An -tu1 -j $off -N 8 "$sst")" != "$bytes" ] || fail "the patch did not change $sst"

"$FILTERLAB" replay "$T/read.wl" --db "$T/db" --results "$T/out" > /dev/null 2> "$T/err"
rc=$?
[ $rc -lt 128 ] || { cat "$T/err" >&2; fail "replay of a corrupt SST died with signal $((rc - 128))"; }
[ $rc -eq 2 ] || { cat "$T/err" >&2; fail "replay of a corrupt SST: exit $rc, expected 2"; }
grep -qi corrupt "$T/err" || { cat "$T/err" >&2; fail "the message does not say corrupt"; }
grep -qF "$name" "$T/err" || { cat "$T/err" >&2; fail "the message does not name $name"; }
grep -q "read.wl" "$T/err" || { cat "$T/err" >&2; fail "the message does not name the workload"; }
exit 0
