#!/bin/sh
# replay_db.sh -- where replay keeps its database: with --db DIR (created
# with its parents if missing) the database stays, with a MANIFEST and .sst
# files, and a second replay against it reads what the first wrote; without
# --db a temporary directory under $TMPDIR is used and removed, also when
# the replay fails; --db naming a regular file is bad input.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

cat > "$T/write.wl" <<'WL'
filterlab-workload 1
put apple 1
put banana 2
flush
put cherry 3
get apple
WL
cat > "$T/read.wl" <<'WL'
filterlab-workload 1
get apple
get banana
get cherry
get durian
WL
printf '2 get apple -> 1\n3 get banana -> 2\n4 get cherry -> 3\n5 get durian -> none\n' > "$T/expected"

db="$T/nested/dirs/db"
"$FILTERLAB" replay "$T/write.wl" --db "$db" > /dev/null 2> "$T/err" || { cat "$T/err" >&2; fail "replay --db failed"; }
[ -f "$db/MANIFEST" ] || fail "--db $db: no MANIFEST afterwards"
ls "$db"/*.sst > /dev/null 2>&1 || fail "--db $db: no .sst file afterwards"
"$FILTERLAB" replay "$T/read.wl" --db "$db" --results "$T/out" > /dev/null 2> "$T/err" ||
    { cat "$T/err" >&2; fail "second replay against --db failed"; }
cmp -s "$T/expected" "$T/out" || { diff "$T/expected" "$T/out" >&2; fail "the kept database lost data"; }

# No --db: nothing is left in $TMPDIR, on success and on failure.
mkdir "$T/tmp"
TMPDIR="$T/tmp" "$FILTERLAB" replay "$T/write.wl" > /dev/null 2> "$T/err" ||
    { cat "$T/err" >&2; fail "replay without --db failed"; }
[ -z "$(ls -A "$T/tmp")" ] || { ls -la "$T/tmp" >&2; fail "replay left its temporary database behind"; }
TMPDIR="$T/tmp" "$FILTERLAB" replay "$T/write.wl" --results "$T/no/such/dir/out" > /dev/null 2>&1
rc=$?
[ $rc -eq 2 ] || fail "unwritable --results: exit $rc, expected 2"
[ -z "$(ls -A "$T/tmp")" ] || { ls -la "$T/tmp" >&2; fail "a failed replay left its temporary database behind"; }

# --db naming a file.
: > "$T/afile"
"$FILTERLAB" replay "$T/write.wl" --db "$T/afile" > /dev/null 2>&1
rc=$?
[ $rc -eq 2 ] || fail "--db naming a regular file: exit $rc, expected 2"
exit 0
